"""``getaway-ref tally`` over archives of any size: games are read and tallied one at a time.

The per-game results go to a temporary file as they come (the JSON report lists every game)
and only the players' totals stay in memory; the JSON is the one ``TallyModel`` gives, byte for
byte, with its ``game_results`` copied in from that file.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from collections.abc import Callable

from referee.archive.inputs import problem
from referee.engine.rules import RuleSet
from referee.notation.reader import ReadError, parse_result, read
from referee.reports.text import safe
from referee.commands import expand, rules_options
from referee.reports.render import console
from referee.reports.text import json_safe
from referee.table.views import GameTally, PlayerTally, TallyModel, render_tally, tally_game


def tally_stream(paths: list[Path], default: RuleSet | None = None, overrides: dict[str, object] | None = None,
                 force: bool = False, write: Callable[[str], object] | None = None) -> TallyModel:
    """The tally of ``paths``. With ``write``, its JSON is written through it and the model
    returned holds, of the games, only those with a problem (what the text shows)."""
    players: dict[str, PlayerTally] = {}
    shown: list[GameTally] = []
    unreadable: list[str] = []
    games = finished = 0
    spool = tempfile.TemporaryFile("w+", encoding="utf-8")
    for path in paths:
        why = problem(path)
        if why is not None:
            unreadable.append(safe(f"{path}: {why}"))
            continue
        try:
            for g in read(path):
                gt = tally_game(g, default, overrides, force, parse_result)
                spool.write(("[\n    " if games == 0 else ",\n    ") + gt.model_dump_json(indent=2).replace("\n", "\n    "))
                games += 1
                if gt.problem and gt.loser is None:
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
        except ReadError as e:
            unreadable.append(safe(f"{e.path}: {e.message}"))
    for p in players.values():
        p.rate = round(p.lost / p.games, 4) if p.games else 0.0
    ordered = sorted(players.values(), key=lambda p: (-p.lost, -p.rate, p.player.lower()))
    m = TallyModel(files=[str(p) for p in paths], games=games, finished=finished, unfinished=games - finished,
                   players=ordered, game_results=[], unreadable=unreadable)
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


def tally_command(paths: list[Path], *, as_json: bool = False, rules: str | None = None) -> int:
    """``getaway-ref tally``: how often each player lost; exit 2 if a file could not be read."""
    default, overrides = rules_options(rules, None, [])
    files = expand(paths)
    if not files:
        console(stderr=True).print("error: no .gwy records found in " + ", ".join(map(str, paths)), markup=False)
        return 2
    # game by game: flat memory
    if as_json:
        m = tally_stream(files, default, overrides, write=lambda t: sys.stdout.write(json_safe(t)))
    else:
        render_tally(console(), m := tally_stream(files, default, overrides))
    return 2 if m.unreadable else 0
