"""getaway-ref: a rules referee and game-record validator for Getaway (Bhabhi, Thulla, Donkey).

The public API is small (tomli style); the modules behind it follow the pipeline
text -> parse (``notation.reader``) -> record -> replay through the engine (``judge``) ->
report -> render::

    import referee
    games = referee.parse(open("records/pagat-example.gwy").read())
    result = referee.judge(games[0])
    for d in result.diagnostics:
        print(referee.diagnostic_text(d))

The names are imported when first used (PEP 562): ``python -m referee check`` imports this
package first, and must not pay for the modules a command does not use (issue 16). This is
one of the two places where start-up defers imports; the other is ``referee/cli.py``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.cards import card_str, parse_card
    from referee.engine.deal import deal, pack
    from referee.engine.events import (
        Action,
        DrawCard,
        DrawDue,
        Drew,
        Effect,
        EndTrick,
        Event,
        GameOver,
        GotAway,
        LeadReason,
        Leads,
        Legal,
        LegalReason,
        MistakeMade,
        Penalise,
        Penalty,
        PickedUp,
        PlayAnyway,
        PlayCard,
        Played,
        TableAction,
        TakeHand,
        Took,
        TrickToWaste,
        TrumpsSet,
    )
    from referee.engine.rules import PRESETS, RulesError, RuleSet, parse_spec, rule_set
    from referee.engine.state import Engine, IllegalAction, Phase, Verdict, View
    from referee.judging.referee import GameResult, Referee, Step, judge
    from referee.judging.replay import Replay, replay
    from referee.notation.format import format_file, format_game
    from referee.notation.reader import Reader, ReadError, parse, read
    from referee.notation.record import Game, Span
    from referee.players.solver import NotSolvable, SeatClass, Solution, Solver, solve
    from referee.reports.diagnostics import CODES, Diagnostic, PenaltyFacts
    from referee.reports.layout import diagnostic_text

# Each public name and the module that defines it.
_HOME = {
    "ReadError": "referee.notation.reader", "Reader": "referee.notation.reader",
    "parse": "referee.notation.reader", "read": "referee.notation.reader",
    "card_str": "referee.engine.cards", "parse_card": "referee.engine.cards",
    "CODES": "referee.reports.diagnostics", "Diagnostic": "referee.reports.diagnostics",
    "Engine": "referee.engine.state", "IllegalAction": "referee.engine.state",
    "Phase": "referee.engine.state", "Verdict": "referee.engine.state", "View": "referee.engine.state",
    "deal": "referee.engine.deal", "pack": "referee.engine.deal", "PenaltyFacts": "referee.reports.diagnostics",
    # The engine's typed boundary: the actions a program may ask for, what it may play and
    # why, and the events an action causes.
    **dict.fromkeys(("Action", "DrawCard", "DrawDue", "Drew", "Effect", "Event", "GameOver", "GotAway", "LeadReason", "Leads", "Legal", "LegalReason", "Penalty", "PickedUp", "PlayCard", "Played", "TakeHand", "Took", "TrickToWaste", "TrumpsSet", "EndTrick", "MistakeMade", "Penalise", "PlayAnyway", "TableAction"), "referee.engine.events"),
    "format_file": "referee.notation.format", "format_game": "referee.notation.format",
    "GameResult": "referee.judging.referee", "Referee": "referee.judging.referee", "judge": "referee.judging.referee",
    "Step": "referee.judging.referee", "Replay": "referee.judging.replay", "replay": "referee.judging.replay",
    "Game": "referee.notation.record", "Span": "referee.notation.record",
    "diagnostic_text": "referee.reports.layout",
    "PRESETS": "referee.engine.rules", "RuleSet": "referee.engine.rules", "RulesError": "referee.engine.rules",
    "parse_spec": "referee.engine.rules", "rule_set": "referee.engine.rules",
    # The review's exact endgame solver (docs/library.md, "Solving an ending").
    **dict.fromkeys(("NotSolvable", "SeatClass", "Solution", "Solver", "solve"), "referee.players.solver"),
}

__all__ = [
    "CODES",
    "PRESETS",
    "Action",
    "Diagnostic",
    "DrawCard",
    "DrawDue",
    "Drew",
    "Effect",
    "EndTrick",
    "Engine",
    "Event",
    "Game",
    "GameOver",
    "GameResult",
    "GotAway",
    "IllegalAction",
    "LeadReason",
    "Leads",
    "Legal",
    "LegalReason",
    "MistakeMade",
    "NotSolvable",
    "Penalise",
    "Penalty",
    "PenaltyFacts",
    "Phase",
    "PickedUp",
    "PlayAnyway",
    "PlayCard",
    "Played",
    "ReadError",
    "Reader",
    "Referee",
    "Replay",
    "RuleSet",
    "RulesError",
    "SeatClass",
    "Solution",
    "Solver",
    "Span",
    "Step",
    "TableAction",
    "TakeHand",
    "Took",
    "TrickToWaste",
    "TrumpsSet",
    "Verdict",
    "View",
    "card_str",
    "deal",
    "diagnostic_text",
    "format_file",
    "format_game",
    "judge",
    "pack",
    "parse",
    "parse_card",
    "parse_spec",
    "read",
    "replay",
    "rule_set",
    "solve",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next look-up is an ordinary one
    return value


def __dir__() -> list[str]:
    # The public names only: not the helpers this module imports for itself.
    return sorted([*__all__, "__version__"])
