"""A visitor over `referee.replay()`: who held the power, trick by trick, and every pickup.

    python examples/replay_visitor.py records/full-game.gwy

The walk is the one every command uses (check, show, the editor's hover), so what this
prints is exactly what the referee saw: each step carries the record's item, the events it
caused and the diagnostics reported at it.
"""

from __future__ import annotations

import sys

import referee
from referee import GameOver, Leads, PickedUp, TrickToWaste


def visit(game: referee.Game) -> None:
    name = game.seats
    for step in referee.replay(game):
        for event in step.events:
            if isinstance(event, PickedUp):
                print(f"trick {step.trick}: {name[event.seat]} picks up {event.cards} cards")
            elif isinstance(event, TrickToWaste):
                print(f"trick {step.trick}: {event.cards} cards to the waste pile")
            elif isinstance(event, Leads):
                print(f"    {name[event.seat]} leads next ({event.why.value})")
            elif isinstance(event, GameOver):
                print(f"game over: {name[event.loser]} is left holding {event.legs} card(s)")
        for d in step.diagnostics:
            print(f"    {d.severity}[{d.code}] {d.message}")


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "records/full-game.gwy"
    for number, game in enumerate(referee.read(path), 1):
        print(f"game {number}: {', '.join(game.seats)}")
        visit(game)


if __name__ == "__main__":
    main()
