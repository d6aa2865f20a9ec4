"""A table of bots, run through the engine: deal, ask what is legal, apply, write the record.

    python examples/bot_table.py [SEED] [PLAYERS]

Every choice comes from `engine.legal_actions()` and every change from `engine.apply()`, so
the bots cannot break a rule; the record they write is then judged by the referee, which
must find no mistake and the same loser.
"""

from __future__ import annotations

import random
import sys

import referee
from referee import DrawCard, PlayCard, TakeHand

NAMES = ("Anu", "Babu", "Chitra", "Dev", "Esha", "Farid", "Gita", "Hari")


def play(seed: int, players: int) -> str:
    """One game under Pagat's rules; returns its record in the notation."""
    rng = random.Random(seed)
    rules = referee.rule_set("pagat")
    seats = NAMES[:players]
    hands = referee.deal(rng, rules, players)
    engine = referee.Engine.from_deal(rules, hands)
    lines = ['%gwy 1', '%game', f'[Seats "{" ".join(seats)}"]', f'[Rules "{rules.spec()}"]', 'deal']
    lines += [f"{name} {' '.join(map(referee.card_str, hand))}" for name, hand in zip(seats, hands)]
    trick_no = 0  # the trick being written
    plays: list[str] = []  # its plays so far
    while actions := engine.legal_actions():
        # A bot that never takes a hand: plays and draws only, picked at random.
        choices = [a for a in actions if not isinstance(a, TakeHand)] or actions
        action = rng.choice(choices)
        if isinstance(action, PlayCard):
            now = engine.turn().trick_no  # the position's few values a player reads each play
            if now != trick_no:  # a new trick: write out the one before
                if plays:
                    lines.append(f"{trick_no}. {', '.join(plays)}")
                trick_no, plays = now, []
            plays.append(f"{seats[action.seat]} {referee.card_str(action.card)}")
        elif isinstance(action, DrawCard):
            if plays:
                lines.append(f"{trick_no}. {', '.join(plays)}")
                plays = []
            source = "" if action.source is None else f" from {seats[action.source]}"
            lines.append(f"{seats[action.seat]} draws {referee.card_str(action.card)}{source}")
        for event in engine.apply(action):
            if isinstance(event, referee.GameOver):
                print(f"the engine says: {seats[event.loser]} is the loser, {event.legs} card(s) left")
    if plays:
        lines.append(f"{trick_no}. {', '.join(plays)}")
    return "\n".join(lines) + "\n"


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    text = play(seed, players)
    game = referee.parse(text)[0]
    result = referee.judge(game)
    loser = "nobody yet" if result.loser is None else game.seats[result.loser]
    print(f"the referee says: {loser} is the loser; {len(result.diagnostics)} diagnostic(s)")
    print(text, end="")


if __name__ == "__main__":
    main()
