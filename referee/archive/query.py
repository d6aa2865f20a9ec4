"""``getaway-ref query ARCHIVE "SQL"``: SQL (DuckDB) over an archive's tables, with named
views for the questions a club asks (docs/archives.md).

ARCHIVE is an export of ours (``export --format parquet -o DIR``), or records (a ``.gwy``
file or a folder of them): those are exported first, once, into the cache
(``~/.cache/getaway-ref/archives/``, or ``$GETAWAY_CACHE_DIR``), and exported again only when
a file changes. The tables are DuckDB views over the Parquet files, so a query reads only
the columns and row groups it needs; the named views (:data:`VIEWS`) are SQL over them,
written here once for ``query``, ``explore`` and the documentation.
"""

from __future__ import annotations

import csv
import datetime
import decimal
import hashlib
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import duckdb

import referee
from referee.archive.inputs import expand, problem
from referee.archive.parquet import ARCHIVE_SCHEMA_VERSION, REVIEWED, TABLES, manifest_of, sources, write_archive
from referee.commands import UsageError
from referee.engine import language as L
from referee.notation.grammar import cache_dir
from referee.reports.diagnostics import FAILING
from referee.reports.text import json_safe, safe

FORMATS = ("text", "csv", "json")

_FAILING = ", ".join(f"'{s}'" for s in sorted(FAILING))

# A proportion's 95 % interval (Wilson's score interval, z = 1.96): right for small counts and
# rates near 0 or 1, where the normal approximation is not.
MACROS = (
    "CREATE MACRO wilson_low(k, n) AS CASE WHEN n = 0 THEN NULL ELSE "
    "(k::DOUBLE / n + 1.9208 / n - 1.96 * sqrt((k::DOUBLE / n) * (1 - k::DOUBLE / n) / n + 0.9604 / (n::DOUBLE * n)))"
    " / (1 + 3.8416 / n) END",
    "CREATE MACRO wilson_high(k, n) AS CASE WHEN n = 0 THEN NULL ELSE "
    "(k::DOUBLE / n + 1.9208 / n + 1.96 * sqrt((k::DOUBLE / n) * (1 - k::DOUBLE / n) / n + 0.9604 / (n::DOUBLE * n)))"
    " / (1 + 3.8416 / n) END",
)


def _loss_by(feature: str) -> str:
    return (f"SELECT players, {feature}, count(*) AS hands, sum(lost::INT) AS lost, "
            "round(avg(lost::INT), 4) AS rate, round(wilson_low(sum(lost::INT), count(*)), 4) AS low, "
            "round(wilson_high(sum(lost::INT), count(*)), 4) AS high "
            f"FROM deals GROUP BY players, {feature} ORDER BY players, {feature}")


@dataclass(frozen=True)
class View:
    name: str
    about: str
    sql: str


# The named views, in the order docs/archives.md lists them (tests hold the page to these).
VIEWS: tuple[View, ...] = (
    View("deals", L.N_("one row a seat of a finished game whose deal is known: the hand's features and how the seat did"),
         "SELECT g.game_id, g.file, g.game, g.date, g.rules, g.players, s.seat, s.player, s.dealt, s.spades, "
         "s.hearts, s.diamonds, s.clubs, s.longest, s.shortest, s.ace_of_spades, s.out_place, s.lost "
         "FROM seats s JOIN games g USING (game_id) WHERE g.finished AND s.spades IS NOT NULL"),
    View("loss_by_spades", L.N_("the loss rate by the spades dealt, at each table size, with its 95 % interval"),
         _loss_by("spades")),
    View("loss_by_ace_of_spades", L.N_("the loss rate of the seat dealt the A♠ and of the others"),
         _loss_by("ace_of_spades")),
    View("loss_by_longest_suit", L.N_("the loss rate by the length of the longest suit dealt"), _loss_by("longest")),
    View("loss_by_shortest_suit", L.N_("the loss rate by the length of the shortest suit dealt (0: a void)"),
         _loss_by("shortest")),
    View("loss_by_player", L.N_("how often each player lost (tally's numbers), with the 95 % interval"),
         "SELECT s.player, count(*) AS games, sum(s.lost::INT) AS lost, round(avg(s.lost::INT), 4) AS rate, "
         "round(wilson_low(sum(s.lost::INT), count(*)), 4) AS low, "
         "round(wilson_high(sum(s.lost::INT), count(*)), 4) AS high "
         "FROM seats s JOIN games g USING (game_id) WHERE g.finished "
         "GROUP BY s.player ORDER BY lost DESC, rate DESC, s.player"),
    View("mistakes", L.N_("every finding of severity error or mistake, with its game, trick and seat"),
         "SELECT d.game_id, g.file, g.game, g.date, d.trick, d.code, d.severity, d.seat, d.player, d.in_game, "
         "d.line, d.column, d.message FROM diagnostics d JOIN games g USING (game_id) "
         f"WHERE d.severity IN ({_FAILING})"),
    View("mistakes_by_code_and_seat", L.N_("how often each player made each mistake, per 100 of the player's plays"),
         "WITH p AS (SELECT player, count(*) AS plays FROM plays GROUP BY player) "
         "SELECT m.code, m.player, count(*) AS mistakes, p.plays, "
         "round(100.0 * count(*) / p.plays, 3) AS per_100_plays "
         "FROM mistakes m LEFT JOIN p USING (player) GROUP BY m.code, m.player, p.plays "
         "ORDER BY mistakes DESC, m.code, m.player"),
    View("mistakes_by_players_left", L.N_("the mistakes by the number of players still holding cards (2: the ending)"),
         "WITH p AS (SELECT in_game, count(*) AS plays FROM plays GROUP BY in_game) "
         "SELECT m.in_game, m.code, count(*) AS mistakes, p.plays, "
         "round(100.0 * count(*) / p.plays, 3) AS per_100_plays "
         "FROM mistakes m JOIN p USING (in_game) GROUP BY m.in_game, m.code, p.plays ORDER BY m.in_game, mistakes DESC"),
    View("player_games", L.N_("every game of every player: where it is, the seat, the place of getting away, lost or not, "
                         "the player's mistakes in it"),
         "SELECT s.player, g.game_id, g.file, g.game, g.date, g.rules, g.players, s.seat, s.out_place, s.lost, g.loser, "
         "coalesce(m.n, 0) AS mistakes FROM seats s JOIN games g USING (game_id) "
         "LEFT JOIN (SELECT game_id, seat, count(*) AS n FROM diagnostics "
         f"WHERE severity IN ({_FAILING}) AND seat IS NOT NULL GROUP BY game_id, seat) m "
         "ON m.game_id = s.game_id AND m.seat = s.seat ORDER BY s.player, g.game_id"),
)


# The views over the review's verdicts (an export made with --review; docs/archives.md).
REVIEW_VIEWS: tuple[View, ...] = (
    View("blunders_by_theme", L.N_("the review's verdicts by the phase of the game: table size, players still holding "
                              "cards (2: the two-player ending), cards held, and what the play was (a lead, a "
                              "tochoo, a take, ...): how many were reviewed, blunders, mistakes, inaccuracies, only moves"),
         "SELECT g.players, p.in_game AS players_left, coalesce(p.in_game = 2, false) AS two_player_ending, "
         "CASE WHEN v.held <= 10 THEN 'up to 10' WHEN v.held <= 20 THEN '11 to 20' ELSE 'over 20' END AS cards_held, "
         "CASE WHEN v.action LIKE 'takes %' THEN 'take' ELSE coalesce(p.effect, 'penalised') END AS act, "
         "(g.takes > 0) AS game_with_take, (g.draws > 0) AS game_with_draw, "
         "count(*) AS reviewed, count(*) FILTER (WHERE v.exact) AS exact, "
         "count(*) FILTER (WHERE v.verdict = 'blunder' OR v.mark = 'blunder') AS blunders, "
         "count(*) FILTER (WHERE v.mark = 'mistake') AS mistakes, "
         "count(*) FILTER (WHERE v.mark = 'inaccuracy') AS inaccuracies, "
         "count(*) FILTER (WHERE v.verdict = 'only move') AS only_moves, "
         "round(count(*) FILTER (WHERE v.verdict = 'blunder' OR v.mark = 'blunder') / count(*), 4) AS blunder_rate "
         "FROM verdicts v JOIN games g USING (game_id) LEFT JOIN plays p USING (game_id, step) "
         "GROUP BY ALL ORDER BY players, players_left DESC, cards_held, act"),
)


def reviewed(tables: Path) -> bool:
    """Whether the export holds the review's verdicts (export --review)."""
    return (tables / f"{REVIEWED}.parquet").is_file()


# ---- the archive: an export, or records exported into the cache ---------------------------------


def _cache_key(files: Sequence[Path]) -> str:
    # the language too: the diagnostics' message column is the referee's sentence as check
    # says it, in the language of the run that made the tables (--lang)
    lang = L.current()
    key = "\n".join([referee.__version__, str(ARCHIVE_SCHEMA_VERSION), *(str(p.resolve()) for p in files)]
                     + ([f"lang={lang}"] if lang != L.ENGLISH else []))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


def _fresh(directory: Path, files: Sequence[Path]) -> bool:
    m = manifest_of(directory)
    return (m is not None and m.get("schema_version") == ARCHIVE_SCHEMA_VERSION
            and m.get("version") == referee.__version__ and m.get("sources") == sources(list(files)))


@contextmanager
def tables_of(archive: Path, say: Callable[[str], object] | None = None) -> Iterator[Path]:
    """The folder of ``archive``'s tables: the export itself, or the records' export in the
    cache (made or remade when a file changed; in a temporary folder when the cache cannot
    be written)."""
    why = problem(archive)
    if why is not None:
        raise UsageError(f"{archive}: {why}")
    if not archive.exists():
        raise UsageError(L.gettext("{file}: no such file or directory").format(file=archive))
    if archive.is_dir() and manifest_of(archive) is not None:
        m = manifest_of(archive)
        assert m is not None
        if m.get("schema_version") != ARCHIVE_SCHEMA_VERSION:
            raise UsageError(L.gettext("{file}: tables of schema version {found}; this getaway-ref reads version "
                                       "{version}: export the records again").format(
                file=archive, found=m.get("schema_version"), version=ARCHIVE_SCHEMA_VERSION))
        yield archive
        return
    files = expand([archive])
    if not files:
        raise UsageError(L.gettext("{file}: no .gwy records and no exported tables in it").format(file=archive))
    target = cache_dir() / "archives" / _cache_key(files)
    if _fresh(target, files):
        yield target
        return
    if say is not None:
        say(L.gettext("exporting {file} to tables (once, until a record changes): {folder}").format(
            file=archive, folder=target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_archive(files, target)
    except OSError:
        # a read-only cache: the tables in a temporary folder, for this query only
        tmp = Path(tempfile.mkdtemp(prefix="getaway-ref-archive-"))
        try:
            write_archive(files, tmp / "tables")
            yield tmp / "tables"
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return
    yield target


def connect(tables: Path) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the archive's tables and the named views."""
    # DuckDB's progress bar would write into standard error (a pipe, a log): nothing but the answer
    con = duckdb.connect(":memory:")
    con.execute("SET enable_progress_bar = false")
    review = reviewed(tables)
    for t in (*TABLES, REVIEWED) if review else TABLES:
        path = str(tables / f"{t}.parquet").replace("'", "''")
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{path}')")
    for m in MACROS:
        con.execute(m)
    for v in (*VIEWS, *REVIEW_VIEWS) if review else VIEWS:
        con.execute(f"CREATE VIEW {v.name} AS {v.sql}")
    return con


# ---- the answer, as text, CSV or JSON -----------------------------------------------------------


def _plain(value: Any) -> Any:
    """A value of DuckDB's as JSON has it."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e15 else str(value)
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(_plain(value), ensure_ascii=False)
    return str(value)


def _batches(cur: duckdb.DuckDBPyConnection, size: int = 10_000) -> Iterator[list[tuple[Any, ...]]]:
    while True:
        rows = cur.fetchmany(size)
        if not rows:
            return
        yield rows


def write_answer(cur: duckdb.DuckDBPyConnection, fmt: str, out: TextIO) -> int:
    """Write the query's rows to ``out``; returns how many."""
    names = [d[0] for d in cur.description or []]
    n = 0
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(names)
        for rows in _batches(cur):
            w.writerows([[_cell(v) for v in r] for r in rows])
            n += len(rows)
    elif fmt == "json":
        out.write("[")
        for rows in _batches(cur):
            for r in rows:
                out.write(("\n" if n == 0 else ",\n")
                          + json_safe(json.dumps({k: _plain(v) for k, v in zip(names, r)}, ensure_ascii=False)))
                n += 1
        out.write("\n]\n" if n else "]\n")
    else:
        cells = [[safe(_cell(v)) for v in r] for r in cur.fetchall()]
        n = len(cells)
        widths = [max([len(h)] + [len(line[i]) for line in cells]) for i, h in enumerate(names)]
        out.write("  ".join(h.ljust(w) for h, w in zip(names, widths)).rstrip() + "\n")
        out.write("  ".join("-" * w for w in widths) + "\n")
        for line in cells:
            out.write("  ".join(c.rjust(w) if _numeric(c) else c.ljust(w) for c, w in zip(line, widths)).rstrip() + "\n")
        out.write("(" + L.ngettext("{n} row", "{n} rows", n).format(n=n) + ")\n")
    return n


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def one_line(e: Exception) -> str:
    """DuckDB's message in one line: its first (the later ones quote the SQL and point)."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return first


def _refused(e: Exception) -> str:
    """Bad SQL in one line: our words, then DuckDB's own (its error text as it words it, untranslated)."""
    return L.gettext("query: DuckDB cannot run it: {why}").format(why=one_line(e))


def query_command(archive: Path, sql: str | None, fmt: str = "text") -> int:
    """``getaway-ref query``: run ``sql`` over ``archive``'s tables (without it, list the
    tables and the named views); bad SQL is a one-line error, exit 2."""
    if fmt not in FORMATS:
        raise UsageError(L.gettext("--format {format}: give one of {formats}").format(format=fmt, formats=", ".join(FORMATS)))
    with tables_of(archive, say=lambda t: sys.stderr.write(t + "\n")) as tables:
        con = connect(tables)
        try:
            if sql is None or not sql.strip():
                return _list(con)
            try:
                cur = con.execute(sql)
            except duckdb.Error as e:
                raise UsageError(_refused(e)) from None
            if cur.description is None:  # a statement with no rows (SET, CREATE ...)
                return 0
            try:
                write_answer(cur, fmt, sys.stdout)
            except duckdb.Error as e:
                raise UsageError(_refused(e)) from None
        finally:
            con.close()
    return 0


def _list(con: duckdb.DuckDBPyConnection) -> int:
    out = sys.stdout
    # our words translated; the tables', the views' and the columns' names are SQL, as written
    out.write(L.gettext("tables (docs/archives.md):") + "\n")
    review = con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [REVIEWED]).fetchone()
    for t in (*TABLES, REVIEWED) if review and review[0] else TABLES:
        (count,) = con.execute(f"SELECT count(*) FROM {t}").fetchone() or (0,)
        out.write(f"  {t:<28} " + L.ngettext("{n} row", "{n} rows", count).format(n=count) + "\n")
    out.write(L.gettext("views:") + "\n")
    for v in (*VIEWS, *REVIEW_VIEWS) if review and review[0] else VIEWS:
        out.write(f"  {v.name:<28} {L.gettext(v.about)}\n")
    return 0
