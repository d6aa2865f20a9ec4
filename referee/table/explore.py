"""``getaway-ref explore ARCHIVE -o page.html``: one self-contained page of the charts a club
looks at, made from the archive's tables by the named views of :mod:`referee.archive.query`:
the loss rate by deal feature with its 95 % interval, the mistakes by code and seat, each
player's loss rate over time. Every row links to a game, at its trick, in the replay page
that ``getaway-ref html FILE`` writes beside the record (``FILE.html#game-N/trick-T``).

Everything is computed here; the page has no script at all (the charts are SVG drawn from
the numbers), and its Content-Security-Policy allows its one style and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
from markupsafe import Markup, escape

from referee.archive.query import connect, tables_of
from referee.commands import UsageError
from referee.commands.options import cannot_write
from referee.engine import language as L
from referee.engine.codes import CODES, said_title
from referee.files import WriteError, write_text
from referee.table.page import template

GENERATOR = '<meta name="generator" content="getaway-ref explore">'
EXAMPLES = 3  # lost games linked from each row of a deal feature
RECENT = 100  # mistakes listed with their links
PLAYERS = 8  # players drawn over time (those with the most games)
PERIODS = 10  # blocks of games over time when the games have no [Date]

# (title, the named view, its column): the title said in the page's language
FEATURES: tuple[tuple[str, str, str], ...] = (
    (L.N_("Spades dealt"), "loss_by_spades", "spades"),
    (L.N_("Dealt the A♠"), "loss_by_ace_of_spades", "ace_of_spades"),
    (L.N_("Longest suit"), "loss_by_longest_suit", "longest"),
    (L.N_("Shortest suit (0: a void)"), "loss_by_shortest_suit", "shortest"),
)


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description or []]
    return [dict(zip(names, r)) for r in cur.fetchall()]


class Links:
    """The address of a game's trick in the replay page beside its record, from the page."""

    def __init__(self, page: Path):
        self.base = page.resolve().parent

    def __call__(self, file: str, game: int, trick: int | None) -> str:
        replay = Path(file).resolve().with_suffix(".html")
        rel = os.path.relpath(replay, self.base).replace(os.sep, "/")
        return f"{rel}#game-{game}/trick-{max(1, trick or 1)}"


def _feature(con: duckdb.DuckDBPyConnection, view: str, column: str, link: Links) -> list[dict[str, Any]]:
    rows = _rows(con, f"SELECT * FROM {view}")
    examples = _rows(con, f"SELECT d.players, d.{column} AS v, d.file, d.game, d.player, g.tricks FROM deals d "
                          f"JOIN games g USING (game_id) WHERE d.lost QUALIFY row_number() OVER "
                          f"(PARTITION BY d.players, d.{column} ORDER BY d.game_id DESC) <= {EXAMPLES} "
                          "ORDER BY d.game_id DESC")
    by: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for e in examples:
        by.setdefault((e["players"], e["v"]), []).append(
            {"href": link(e["file"], e["game"], e["tricks"]),
             "text": L.gettext("game {number} ({player})").format(number=e["game"], player=e["player"])})
    for r in rows:
        v = r[column]
        # the value as data (yes, no, a count) and as the page says it
        r["value"] = ("yes" if v else "no") if isinstance(v, bool) else str(v)
        r["said"] = (L.gettext("yes") if v else L.gettext("no")) if isinstance(v, bool) else str(v)
        r["examples"] = by.get((r["players"], v), [])
        for k in ("rate", "low", "high"):
            r[k] = float(r[k]) if r[k] is not None else 0.0
    return rows


def _over_time(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Each player's games and losses per period: by the [Date] tag's month when the games
    have dates, else in blocks of games in archive order."""
    (dated,) = con.execute("SELECT count(date) FROM games WHERE finished").fetchone() or (0,)
    if dated:
        period = "coalesce(substr(replace(g.date, '.', '-'), 1, 7), 'undated')"
        order = "min(g.game_id)"
        how = L.gettext("by month of the [Date] tag")
    else:
        (total,) = con.execute("SELECT max(game_id) FROM games").fetchone() or (0,)
        size = max(1, -(-(total or 0) // PERIODS))
        period = (f"'games ' || ((g.game_id - 1) // {size} * {size} + 1) || '–' || "
                  f"least(((g.game_id - 1) // {size} + 1) * {size}, {total or 0})")
        order = "min(g.game_id)"
        how = L.ngettext("in blocks of {n} game, in archive order (the games have no [Date] tag)",
                         "in blocks of {n} games, in archive order (the games have no [Date] tag)", size).format(n=size)
    players = [r["player"] for r in _rows(con, "SELECT s.player, count(*) AS n FROM seats s JOIN games g USING (game_id) "
                                                f"WHERE g.finished GROUP BY s.player ORDER BY n DESC, s.player LIMIT {PLAYERS}")]
    cells = _rows(con, f"SELECT {period} AS period, {order} AS first, s.player, count(*) AS games, "
                       "sum(s.lost::INT) AS lost, max(g.game_id) AS last_id FROM seats s JOIN games g USING (game_id) "
                       "WHERE g.finished GROUP BY period, s.player ORDER BY first")
    periods: list[str] = []
    for c in sorted(cells, key=lambda c: c["first"]):
        if c["period"] not in periods:
            periods.append(c["period"])
    grid = {(c["period"], c["player"]): c for c in cells}
    lines = []
    for p in players:
        row: list[dict[str, Any] | None] = []
        for per in periods:
            got = grid.get((per, p))
            row.append({"games": got["games"], "lost": got["lost"], "rate": got["lost"] / got["games"],
                        "tip": L.gettext("lost {lost} of {games}").format(lost=got["lost"], games=got["games"])}
                       if got else None)
        lines.append({"player": p, "cells": row})
    return {"how": how, "periods": [_period(p) for p in periods], "players": lines}


def _period(key: str) -> str:
    """A period's heading in the page's words: a month as the [Date] tag has it, else a
    block of games (the first and last game of the block)."""
    if key == "undated":
        return L.gettext("undated")
    if key.startswith("games "):
        return L.gettext("games {first}–{last}").format(first=key[6:].split("–")[0], last=key.split("–")[-1])
    return key


def _chart(over: dict[str, Any]) -> list[dict[str, Any]]:
    """The polylines of the loss rate over time, one a player, in a 600 x 200 box."""
    n = len(over["periods"])
    out = []
    for i, line in enumerate(over["players"]):
        pts = [(40 + (k * 540 / max(1, n - 1)), 190 - 170 * c["rate"]) for k, c in enumerate(line["cells"]) if c]
        out.append({"player": line["player"], "hue": (i * 360 // max(1, len(over["players"]))),
                    "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)})
    return out


def explore_data(con: duckdb.DuckDBPyConnection, link: Links) -> dict[str, Any]:
    totals = _rows(con, "SELECT count(*) AS games, count(*) FILTER (WHERE finished) AS finished, "
                        "count(DISTINCT file) AS files FROM games")[0]
    (players,) = con.execute("SELECT count(DISTINCT player) FROM seats").fetchone() or (0,)
    features = [{"title": L.gettext(t), "rows": _feature(con, view, col, link)} for t, view, col in FEATURES]
    by_seat = _rows(con, "SELECT * FROM mistakes_by_code_and_seat")
    who = [r["player"] for r in _rows(con, "SELECT player, sum(mistakes) AS n FROM mistakes_by_code_and_seat "
                                           f"WHERE player IS NOT NULL GROUP BY player ORDER BY n DESC, player LIMIT {2 * PLAYERS}")]
    codes = sorted({r["code"] for r in by_seat})
    grid = {(r["code"], r["player"]): r for r in by_seat}
    for r in by_seat:
        r["tip"] = L.ngettext("{mistakes} in {plays} play ({per} per 100)", "{mistakes} in {plays} plays ({per} per 100)",
                              r["plays"] or 0).format(mistakes=r["mistakes"], plays=r["plays"], per=r["per_100_plays"])
    matrix = [{"code": c, "title": said_title(CODES[c]) if c in CODES else "",
               "cells": [grid.get((c, p)) for p in who],
               "total": sum(r["mistakes"] for r in by_seat if r["code"] == c)} for c in codes]
    recent = _rows(con, f"SELECT file, game, trick, code, player, message FROM mistakes "
                        f"ORDER BY game_id DESC, trick DESC NULLS LAST LIMIT {RECENT}")
    for r in recent:
        r["href"] = link(r["file"], r["game"], r["trick"])
        r["text"] = L.gettext("{file} game {number}").format(file=r["file"].rsplit("/", 1)[-1], number=r["game"])
    players_left = _rows(con, "SELECT in_game, sum(mistakes) AS mistakes, max(plays) AS plays FROM mistakes_by_players_left "
                              "GROUP BY in_game ORDER BY in_game")
    over = _over_time(con)
    last = {r["player"]: link(r["file"], r["game"], r["tricks"]) for r in _rows(
        con, "SELECT s.player, g.file, g.game, g.tricks FROM seats s JOIN games g USING (game_id) WHERE g.finished "
             "QUALIFY row_number() OVER (PARTITION BY s.player ORDER BY g.game_id DESC) = 1")}
    for line in over["players"]:
        line["href"] = last.get(line["player"], "")
    return {"totals": totals, "players": players, "features": features, "who": who, "matrix": matrix,
            "recent": recent, "players_left": players_left, "over": over, "chart": _chart(over)}


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _words(title: str, data: dict[str, Any]) -> dict[str, str]:
    """The page's sentences with counts or a ``%`` (the template's ``_()`` takes only plain
    words: jinja's new-style gettext would read a ``%`` as a placeholder)."""
    t = data["totals"]
    games = L.ngettext("{n} game", "{n} games", t["games"]).format(n=t["games"])
    files = L.ngettext("{n} file", "{n} files", t["files"]).format(n=t["files"])
    players = L.ngettext("{n} player", "{n} players", data["players"]).format(n=data["players"])
    command = Markup("<code>getaway-ref html FILE</code>")
    return {
        "title": L.gettext("{title} — the archive explored").format(title=title),
        "totals": L.gettext("{games} in {files}, {finished} finished; {players}.").format(
            games=games, files=files, finished=t["finished"], players=players),
        "intervals": Markup(escape(L.gettext(
            "Each rate is drawn with its 95 % interval (Wilson's): the bar is the rate, the line across it the range "
            "the true rate is likely in. The links open the game at its trick in the replay page {command} writes "
            "beside each record."))).format(command=command),
        "interval": L.gettext("95 % interval"),
        "how": L.gettext("Each player's loss rate, {how}.").format(how=data["over"]["how"]),
    }


def render(title: str, data: dict[str, Any], lang: str | None = None) -> str:
    """The page, in ``lang`` (default: the current language): its words, ``<html lang dir>``
    (right to left for Urdu and Shahmukhi), by the table page's templates and translator."""
    css = resources.files("referee.table").joinpath("templates", "explore.css").read_text(encoding="utf-8")
    csp = f"default-src 'none'; style-src {_sha256(css)}; img-src data:; base-uri 'none'; form-action 'none'"
    with L.speaking(lang or L.current()) as chosen:
        page: str = template("explore.html.j2", compact=True).render(
            title=title, css=Markup(css), csp=csp, d=data, w=_words(title, data), lang=L.info(chosen))
    return page


def _ours(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return GENERATOR.encode("utf-8") in f.read(4096)
    except OSError:
        return False


def explore_command(archive: Path, output: Path | None) -> int:
    """``getaway-ref explore``: the page, written to ``output`` (default: beside ARCHIVE,
    ``NAME-explore.html``); a file that is not a page of ours is replaced only when named."""
    out = output if output is not None else archive.with_name((archive.stem if archive.is_file() else archive.name) + "-explore.html")
    if output is None and out.exists() and not _ours(out):
        raise UsageError(L.gettext("{file} exists and is not a page of getaway-ref explore; name it with -o to "
                                   "replace it").format(file=out))
    if out.is_dir():
        raise UsageError(L.gettext("{file} is a directory; give the page's file name with -o").format(file=out))
    with tables_of(archive, say=lambda t: sys.stderr.write(t + "\n")) as tables:
        con = connect(tables)
        try:
            data = explore_data(con, Links(out))
        finally:
            con.close()
    page = render(archive.name, data)
    try:
        write_text(out, page, inputs=[archive] if archive.is_file() else [])
    except WriteError as ex:
        raise UsageError(str(ex)) from None
    except OSError as ex:
        raise UsageError(cannot_write(out, ex)) from None
    t = data["totals"]
    found = sum(r["total"] for r in data["matrix"])
    print(L.gettext("wrote {file}: {games} ({finished} finished), {players}, {found}").format(
        file=out, games=L.ngettext("{n} game", "{n} games", t["games"]).format(n=t["games"]), finished=t["finished"],
        players=L.ngettext("{n} player", "{n} players", data["players"]).format(n=data["players"]),
        found=L.ngettext("{n} error or mistake", "{n} errors and mistakes", found).format(n=found)))
    return 0
