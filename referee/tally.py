"""``getaway-ref tally``: how often each player lost, over archives of any size, in one place
(the models of its JSON, a game's result, the totals, the table and the command).

Games are read and tallied one at a time: the per-game results go to a temporary file as they
come (the JSON report lists every game) and only the players' totals stay in memory; the JSON
is the one ``TallyModel`` gives, byte for byte, with its ``game_results`` copied in from that
file. Exit codes as the README's section on the table commands says: 0 every record replayed
to its end, 1 a record that cannot be (syntax errors, a replay that stopped), 2 usage or a
file that cannot be read.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field
from rich.console import Console
from rich.table import Table
from rich.text import Text

from referee.archive.inputs import no_records, problem
from referee.commands.options import EXIT_FOUND, EXIT_OK, EXIT_USAGE, UsageError, expand, rules_options
from referee.engine.language import gettext as _
from referee.engine.language import ngettext
from referee.engine.rules import RuleSet
from referee.files import recover, scratch
from referee.judging.referee import Referee, resolve_rules
from referee.notation.reader import ReadError, parse_result, read
from referee.notation.record import Game
from referee.reports.render import console, print_error
from referee.reports.text import json_safe, safe

# ---- the models (the JSON of --format json) ------------------------------------------------------


class PlayerTally(BaseModel):
    player: str
    games: int = Field(description="finished games the player sat in")
    lost: int
    rate: float = Field(description="lost / games")
    donkey_games: int = 0
    donkey_lost: int = 0
    legs: int = Field(default=0, description="Donkey: legs over all the games the player lost")
    most_legs: int | None = None


class GameTally(BaseModel):
    path: str
    game: int
    seats: list[str]
    rules: str | None = None
    donkey: bool = False
    loser: str | None = None
    legs: int | None = None
    by: Literal["tag", "replay", "none"] = Field(description="where the loser comes from")
    problem: str | None = None
    replayed: bool = Field(default=True, description="false when the record cannot be replayed to its end "
                                                     "(syntax errors, a rule set that does not read, a replay that stopped)")


class TallyModel(BaseModel):
    """``getaway-ref tally --format json``."""

    files: list[str]
    games: int
    finished: int
    unfinished: int
    players: list[PlayerTally]
    game_results: list[GameTally]
    unreadable: list[str] = []
    problems: list[str] = Field(default=[], description="syntax errors of a file outside its games (before the "
                                                        "first %game line): its games cannot all be replayed")


# ---- a game's result, the totals --------------------------------------------------------------------


def tally_game(g: Game, default: RuleSet | None, overrides: dict[str, object] | None, force: bool,
               parse_result: Callable[[str, Sequence[str]], tuple[int | None, int | None]] = parse_result) -> GameTally:
    """Who lost one game: its [Result] tag, or the replay when there is none."""
    seats = list(g.seats)
    gt = GameTally(path=str(g.path), game=g.number, seats=seats, by="none")
    try:
        rules = resolve_rules(g, default, overrides, force)
        gt.rules = rules.spec()
        gt.donkey = rules.donkey
    except ValueError as ex:
        gt.problem, gt.replayed = _("rule set: {why}").format(why=ex), False
        return gt
    tag = g.tag("Result")
    if tag is not None and not g.errors:
        loser, legs = parse_result(tag, seats)
        if loser is not None:
            gt.loser, gt.legs, gt.by = seats[loser], legs, "tag"
            if legs is not None or not gt.donkey:
                return gt
        elif tag.strip() == "*":
            gt.problem = _("not finished ([Result \"*\"])")
            return gt
    if g.errors:
        n = len(g.errors)
        first = g.errors[0]
        if first.span is not None:
            gt.problem = ngettext("{n} syntax error; the first at line {line}: {why}",
                                  "{n} syntax errors; the first at line {line}: {why}", n).format(
                n=n, line=first.span.line, why=first.message)
        else:
            gt.problem = ngettext("{n} syntax error; the first: {why}", "{n} syntax errors; the first: {why}",
                                  n).format(n=n, why=first.message)
        gt.replayed = False
        return gt
    res = Referee(default, overrides, force).judge(g)
    if res.finished and res.loser is not None:
        if gt.loser is None:
            gt.loser, gt.by = seats[res.loser], "replay"
        if gt.donkey and gt.legs is None and seats[res.loser] == gt.loser:
            gt.legs = res.legs
    elif gt.loser is None:
        if res.stopped:
            gt.problem, gt.replayed = _("replay stopped: {why}").format(why=res.stopped), False
        else:
            gt.problem = _("not finished")
    return gt


def tally_stream(paths: list[Path], default: RuleSet | None = None, overrides: dict[str, object] | None = None,
                 force: bool = False, write: Callable[[str], object] | None = None,
                 every_game: bool = False) -> TallyModel:
    """The tally of ``paths``. With ``write``, its JSON is written through it. The model
    returned holds, of the games, only those with a problem (what the text shows), or
    ``every_game``."""
    players: dict[str, PlayerTally] = {}
    shown: list[GameTally] = []
    unreadable: list[str] = []
    problems: list[str] = []
    games = finished = 0
    spool = scratch()  # on disk, else in memory (no temporary directory, a file size limit)
    for path in paths:
        why = problem(path)
        if why is not None:
            unreadable.append(safe(f"{path}: {why}"))
            continue
        try:
            games_of = read(path)
            for g in games_of:
                gt = tally_game(g, default, overrides, force)
                spool.write(("[\n    " if games == 0 else ",\n    ") + gt.model_dump_json(indent=2).replace("\n", "\n    "))
                games += 1
                if every_game or (gt.problem and gt.loser is None):
                    shown.append(gt)
                if gt.loser is None:
                    continue
                finished += 1
                for name in gt.seats:
                    p = players.setdefault(name.lower(), PlayerTally(player=name, games=0, lost=0, rate=0.0))
                    p.games += 1
                    if gt.donkey:
                        p.donkey_games += 1
                    if name.lower() == gt.loser.lower():
                        p.lost += 1
                        if gt.donkey:
                            p.donkey_lost += 1
                            if gt.legs is not None:
                                p.legs += gt.legs
                                p.most_legs = max(p.most_legs or 0, gt.legs)
            for d in games_of.reader.prelude.errors:
                at = f":{d.span.line}" if d.span is not None else ""
                problems.append(safe(f"{path}{at}: {d.message}"))
        except ReadError as e:
            unreadable.append(safe(f"{e.path}: {e.message}"))
    for p in players.values():
        p.rate = round(p.lost / p.games, 4) if p.games else 0.0
    ordered = sorted(players.values(), key=lambda p: (-p.lost, -p.rate, p.player.lower()))
    m = TallyModel(files=[str(p) for p in paths], games=games, finished=finished, unfinished=games - finished,
                   players=ordered, game_results=[], unreadable=unreadable, problems=problems)
    if write is not None:
        whole = m.model_dump_json(indent=2)
        cut = whole.index('\n  "game_results": []') + len('\n  "game_results": ')
        write(whole[:cut])
        if games:
            spool.write("\n  ]")
            spool.seek(0)
            for block in iter(lambda: spool.read(1 << 16), ""):
                write(block)
        else:
            write("[]")
        write(whole[cut + 2:] + "\n")
    spool.close()
    m.game_results = shown
    return m


def tally(paths: list[Path], default: RuleSet | None = None, overrides: dict[str, object] | None = None,
          force: bool = False) -> TallyModel:
    """The whole tally of ``paths``, every game's result included (for the library)."""
    return tally_stream(paths, default, overrides, force, every_game=True)


# ---- the table and the command ------------------------------------------------------------------------


def render_tally(out: Console, m: TallyModel) -> None:
    donkey = any(p.donkey_games for p in m.players)
    t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    # i18n: the tally's columns: a player, the games they played, lost, and the share lost
    for i, col in enumerate((_("player"), _("games"), _("lost"), _("rate"))):
        t.add_column(col, justify="left" if i == 0 else "right")
    if donkey:
        # i18n: Donkey's columns: its games and losses, the legs counted against a player and the most in one game
        for col in (_("donkey games"), _("donkey lost"), _("legs"), _("most legs")):
            t.add_column(col, justify="right")
    for p in m.players:
        row: list[Text | str] = [Text(safe(p.player)), str(p.games), str(p.lost), f"{100 * p.rate:.0f}%"]
        if donkey:
            row += [str(p.donkey_games), str(p.donkey_lost), str(p.legs), str(p.most_legs or "-")]
        t.add_row(*row)
    out.print(t)
    out.print(ngettext("{n} game: {finished} finished, {unfinished} not", "{n} games: {finished} finished, {unfinished} not",
                       m.games).format(n=m.games, finished=m.finished, unfinished=m.unfinished), markup=False)
    for g in m.game_results:
        if g.problem and g.loser is None:
            out.print("  " + safe(_("{file} game {number}: {problem}").format(file=g.path, number=g.game, problem=g.problem)),
                      markup=False)
    for said in m.problems:
        out.print(f"  {said}", markup=False)
    for u in m.unreadable:
        print_error(u)  # on standard error, as every command says a file it could not read


def tally_command(paths: list[Path], *, as_json: bool = False, rules: str | None = None) -> int:
    """``getaway-ref tally``: how often each player lost; exit 1 if a record cannot be replayed
    to its end, 2 if a file could not be read."""
    default, overrides = rules_options(rules, None, [])
    files = expand(paths)
    if not files:
        raise UsageError(no_records(paths))
    recover(files)  # a rewrite of a record cut short by a kill: put back before it is read
    # game by game: flat memory
    if as_json:
        m = tally_stream(files, default, overrides, write=lambda t: sys.stdout.write(json_safe(t)))
    else:
        render_tally(console(), m := tally_stream(files, default, overrides))
    if m.unreadable:
        return EXIT_USAGE
    return EXIT_FOUND if m.problems or any(not g.replayed for g in m.game_results) else EXIT_OK
