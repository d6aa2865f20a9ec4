"""getaway-ref: a rules referee and game-record validator for Getaway (Bhabhi, Thulla, Donkey).

The public API is small (tomli style); the modules behind it follow the pipeline
text -> parse (``_reader``) -> record -> replay through the engine (``judge``) -> report ->
render::

    import referee
    games = referee.parse(open("records/pagat-example.gwy").read())
    result = referee.judge(games[0])
    for d in result.diagnostics:
        print(referee.diagnostic_text(d))
"""

from referee.notation.reader import ReadError, Reader, parse, read
from referee.engine.cards import card_str, parse_card
from referee.reports.diagnostics import CODES, Diagnostic
from referee.engine.state import Engine
from referee.notation.format import format_file, format_game
from referee.judging.referee import GameResult, Referee, Step, judge
from referee.judging.replay import Replay, replay
from referee.notation.record import Game, Span
from referee.reports.render import diagnostic_text
from referee.engine.rules import PRESETS, RuleSet, RulesError, parse_spec, rule_set

__all__ = [
    "CODES", "Diagnostic", "Engine", "Game", "GameResult", "PRESETS", "ReadError", "Reader", "Referee", "Replay", "Step", "replay",
    "RuleSet", "RulesError", "Span", "card_str", "diagnostic_text", "format_file", "format_game", "judge",
    "parse", "parse_card", "parse_spec", "read", "rule_set",
]
__version__ = "0.1.0"
