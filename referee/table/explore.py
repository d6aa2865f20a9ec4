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
import jinja2
from markupsafe import Markup

from referee.archive.query import connect, tables_of
from referee.commands import UsageError
from referee.engine.codes import CODES
from referee.files import WriteError, write_text

GENERATOR = '<meta name="generator" content="getaway-ref explore">'
EXAMPLES = 3  # lost games linked from each row of a deal feature
RECENT = 100  # mistakes listed with their links
PLAYERS = 8  # players drawn over time (those with the most games)
PERIODS = 10  # blocks of games over time when the games have no [Date]

# (title, the named view, its column, how a value reads)
FEATURES: tuple[tuple[str, str, str], ...] = (
    ("Spades dealt", "loss_by_spades", "spades"),
    ("Dealt the A♠", "loss_by_ace_of_spades", "ace_of_spades"),
    ("Longest suit", "loss_by_longest_suit", "longest"),
    ("Shortest suit (0: a void)", "loss_by_shortest_suit", "shortest"),
)

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("referee.table", "templates"), autoescape=True, trim_blocks=True, lstrip_blocks=True,
    undefined=jinja2.StrictUndefined)


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
            {"href": link(e["file"], e["game"], e["tricks"]), "text": f"game {e['game']} ({e['player']})"})
    for r in rows:
        v = r[column]
        r["value"] = ("yes" if v else "no") if isinstance(v, bool) else str(v)
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
        how = "by month of the [Date] tag"
    else:
        (total,) = con.execute("SELECT max(game_id) FROM games").fetchone() or (0,)
        size = max(1, -(-(total or 0) // PERIODS))
        period = (f"'games ' || ((g.game_id - 1) // {size} * {size} + 1) || '–' || "
                  f"least(((g.game_id - 1) // {size} + 1) * {size}, {total or 0})")
        order = "min(g.game_id)"
        how = f"in blocks of {size} game{'' if size == 1 else 's'}, in archive order (the games have no [Date] tag)"
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
            row.append({"games": got["games"], "lost": got["lost"], "rate": got["lost"] / got["games"]} if got else None)
        lines.append({"player": p, "cells": row})
    return {"how": how, "periods": periods, "players": lines}


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
    features = [{"title": t, "rows": _feature(con, view, col, link)} for t, view, col in FEATURES]
    by_seat = _rows(con, "SELECT * FROM mistakes_by_code_and_seat")
    who = [r["player"] for r in _rows(con, "SELECT player, sum(mistakes) AS n FROM mistakes_by_code_and_seat "
                                           f"WHERE player IS NOT NULL GROUP BY player ORDER BY n DESC, player LIMIT {2 * PLAYERS}")]
    codes = sorted({r["code"] for r in by_seat})
    grid = {(r["code"], r["player"]): r for r in by_seat}
    matrix = [{"code": c, "title": CODES[c].title if c in CODES else "",
               "cells": [grid.get((c, p)) for p in who],
               "total": sum(r["mistakes"] for r in by_seat if r["code"] == c)} for c in codes]
    recent = _rows(con, f"SELECT file, game, trick, code, player, message FROM mistakes "
                        f"ORDER BY game_id DESC, trick DESC NULLS LAST LIMIT {RECENT}")
    for r in recent:
        r["href"] = link(r["file"], r["game"], r["trick"])
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


def render(title: str, data: dict[str, Any]) -> str:
    css = resources.files("referee.table").joinpath("templates", "explore.css").read_text(encoding="utf-8")
    csp = f"default-src 'none'; style-src {_sha256(css)}; img-src data:; base-uri 'none'; form-action 'none'"
    return _ENV.get_template("explore.html.j2").render(title=title, css=Markup(css), csp=csp, d=data)


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
        raise UsageError(f"{out} exists and is not a page of getaway-ref explore; name it with -o to replace it")
    if out.is_dir():
        raise UsageError(f"{out} is a directory; give the page's file name with -o")
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
        raise UsageError(f"cannot write {out}: {ex.strerror or ex}") from None
    t = data["totals"]
    found = sum(r["total"] for r in data["matrix"])
    print(f"wrote {out}: {t['games']} game{'' if t['games'] == 1 else 's'} ({t['finished']} finished), "
          f"{data['players']} player{'' if data['players'] == 1 else 's'}, "
          f"{found} {'error or mistake' if found == 1 else 'errors and mistakes'}")
    return 0
