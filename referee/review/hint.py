"""The hint at any trick (issue 41): what the ``pimc`` bot would play for a seat, and each of
the seat's choices' chance of losing, from what that seat knows.

The seat's knowledge is the review's: the record replayed with every other hand dealt face
down (:func:`referee.review.review.view_steps`), what its plays showed each seat lacked
(:func:`referee.review.review.revealed_lacks`), the cards known by elimination placed. The
choices are weighed by the bot's own function (:func:`referee.players.pimc.weigh`): the
unseen hands sampled, each choice played on by the exact solver once at most ``window``
cards are held, the sensible bots before that. Where the seat knows every card and few
are held the solver's classes decide, so the hint is the solver's best.

``live``'s ``hint``, the serve table's Hint button and ``ask --hint`` all say
:func:`hint_at`'s sentence (:mod:`referee.judging.wording`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.engine.events import Action, PlayCard
from referee.engine.language import gettext as _
from referee.engine.rules import RuleSet
from referee.engine.state import Engine, Phase
from referee.judging import wording as W
from referee.judging.replay import replay
from referee.notation.record import Game, Play
from referee.players.pimc import Weighed, best, weigh
from referee.players.solver import Solver, cards_held
from referee.review.review import BUDGET, WINDOW, action_words, as_seen_by, revealed_lacks, said_action

__all__ = ["HINT_SAMPLES", "Hint", "choice_words", "hint_at"]

HINT_SAMPLES = 24  # deals of the unseen hands a hint weighs each choice on


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint: the seat, the bot's choice (None: no choice to make, ``sentence`` says why),
    every choice weighed (in the engine's order; an action None is not taking), whether the
    seat knew every card (then the solver's classes decide inside the window) and the words."""

    seat: int | None
    choice: Action | None
    weighed: tuple[Weighed, ...] = field(default=())
    exact: bool = False
    sentence: str = ""


def choice_words(a: Action | None, seats: Sequence[str]) -> str:
    """A choice in the record's words: a card, "takes East", or "no take" (waiting)."""
    return "no take" if a is None else action_words(a, seats)


def said_choice(a: Action | None, seats: Sequence[str]) -> str:
    """A choice as the hint's sentence says it, in the current language."""
    return said_action(choice_words(a, seats))


def hint_at(game: Game, rules: RuleSet | None = None, *, trick: int | None = None, seat: int | None = None,
            samples: int = HINT_SAMPLES, seed: int = 0, window: int = WINDOW) -> Hint:
    """The hint for ``seat`` (default: the seat to act) at the end of the record, or with
    ``trick`` just before the seat's play to that trick (default: its lead), as the record
    has it: what the seat should have played there."""
    walk = replay(game, rules, snapshots=True)
    steps = list(walk)
    seats = game.seats
    step: int | None = None
    if trick is not None:
        at = [k for k, st in enumerate(steps) if st.trick == trick and isinstance(st.item, Play)
              and (seat is None or st.item.seat == seat)]
        if not at:
            who = seats[seat] if seat is not None else None
            why = (_("the record has no play of {seat} to trick {trick}") if who else
                   _("the record has no play to trick {trick}")).format(seat=who, trick=trick)
            return Hint(seat, None, sentence=W.hint_none(who, why))
        step = at[0]
        item = steps[step].item
        assert isinstance(item, Play)
        seat = item.seat
    true: Engine | None = steps[step].before if step is not None else walk.result.engine
    if true is None:
        return Hint(seat, None, sentence=W.hint_none(None, _("the record stops before any position")))
    phase = true.current_phase()
    if phase is Phase.OVER:
        return Hint(seat, None, sentence=W.hint_none(None, _("the game is over")))
    if phase is Phase.DRAW_DUE:
        return Hint(seat, None, sentence=W.hint_none(None, _("a draw is due, and a draw is luck, not a choice")))
    if seat is None:
        seat = true.to_act()
        if seat < 0:  # the first trick in any order: the first seat that may play
            seat = next((s for s in true.in_game() if true.playable(s)), -1)
    if seat < 0 or seat not in true.in_game():
        return Hint(None, None, sentence=W.hint_none(None, _("nobody has a choice to make now")))
    name = seats[seat]
    shown = as_seen_by(game, seat)
    if shown is None:
        return Hint(seat, None, sentence=W.hint_none(name, _("the record has no deal or position to start from")))
    vwalk = replay(shown, rules, snapshots=True)
    vsteps = list(vwalk)
    k = len(vsteps) if step is None else min(step, len(vsteps))
    view = vsteps[k].before if k < len(vsteps) else vwalk.result.engine
    if view is None:
        return Hint(seat, None, sentence=W.hint_none(name, _("the record stops before any position")))
    if not view.all_known():
        view = view.resolved()
    lacks = revealed_lacks(vsteps, k)
    actions: list[Action | None] = [PlayCard(seat, c) for c in view.playable(seat)]
    takes = [a for a in view.legal_takes() if a.taker == seat]
    actions[:0] = takes
    if takes and not (view.to_act() == seat and phase is Phase.BETWEEN):
        actions.append(None)  # another seat leads: the take's other choice is waiting
    if not actions:
        return Hint(seat, None, sentence=W.hint_none(name, _("it has nothing to play or take now")))
    exact = view.all_known() and cards_held(view) <= window
    weighed = weigh(view, seat, actions, samples=samples, seed=seed, solver=Solver(max_nodes=BUDGET), leaf=window,
                    lacks=lacks)
    pick = best(weighed)
    said = W.hint_sentence(name, said_choice(pick.action, seats),
                           [(said_choice(w.action, seats), w.chance) for w in weighed],
                           weighed[0].samples, exact, trick)
    return Hint(seat, pick.action, tuple(weighed), exact, said)


