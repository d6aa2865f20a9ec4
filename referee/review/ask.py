"""The review's answer to "could East have got away in trick 12?", for ``ask``, ``show
--narrate`` and ``live``'s hint (issue 28).

Built on a game's review (:func:`referee.review.review.review_game`), never on a second
judgement: the answer carries the very :class:`PlayReview` values that ``review``'s text,
its JSON and the replay page (``html --review``) print, so all four tell one verdict. The
words are those of :mod:`referee.judging.wording`.

* :func:`get_away_answer`: from a review already made (``review`` and the page have one);
* :func:`could_get_away`: a game reviewed as ``review`` reviews it (its defaults, a fresh
  solver), then answered;
* :func:`standings_sentence`: every seat's class after a trick (``ask --review`` without a
  seat; ``review --after``);
* :func:`trick_review_sentence`: the marked plays of a trick, one sentence, for narration;
* :func:`hint`: the verdict on the last play of a game so far, for a live table that asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.engine.language import gettext as _
from referee.engine.rules import RuleSet
from referee.judging import wording as W
from referee.notation.record import Game
from referee.review.review import SAMPLES, WINDOW, GameReview, PlayReview, review_game, review_position, said_action

__all__ = ["GetAway", "could_get_away", "get_away_answer", "hint", "play_sentence", "standings_sentence",
           "trick_review_sentence"]

# The answer in a word: the exact class before the seat's play (yes: safe; with help: open;
# no: lost), "chances" where only the sampled chances judge it, "absent" where the seat did
# not play to the trick, "unjudged" where the review gave its play no verdict.
Answer = Literal["yes", "with help", "no", "chances", "absent", "unjudged"]
_ANSWER: dict[str, Answer] = {"safe": "yes", "open": "with help", "lost": "no"}


@dataclass(frozen=True, slots=True)
class GetAway:
    """The review's answer for one seat and one trick."""

    seat: int
    trick: int
    answer: Answer
    plays: tuple[PlayReview, ...]  # the seat's plays to the trick, as the review judged them
    chance: float | None  # the seat's chance of losing after the trick, from its own view
    sentence: str  # the answer in words (judging/wording.py)

    @property
    def verdict(self) -> str:
        """The verdict or mark ``review`` prints for the seat's play ('' for none): the
        exact verdict where there is one, else the chances' mark, as the page marks it."""
        for p in self.plays:
            said = p.verdict if p.verdict in ("blunder", "only move") else p.mark
            if said:
                return said
        return ""


def _unjudged_why(r: GameReview, p: PlayReview) -> str:
    if not r.samples:
        return _("no exact verdict (more than {cards} held, or a hand unseen) and no chances (reviewed without "
                 "samples)").format(cards=W.cards(r.window))
    return _("no exact verdict and no chances: its one legal card, a mistake the referee reports, or no deal fit "
             "what it knew")


def play_sentence(r: GameReview, p: PlayReview, *, short: bool = False) -> str:
    """What the review says of one play or take, in words; ``short``: the verdict alone,
    without the seat's class before it (for narration, trick by trick)."""
    seat = r.seats[p.seat]
    action = said_action(p.action)
    if p.exact and p.before is not None and p.after is not None and p.best is not None:
        verdict = W.review_play(seat, action, p.verdict, p.after.value, p.best.value, [said_action(b) for b in p.better])
        if short:
            return _("{verdict} (exact, {cards} held)").format(verdict=verdict, cards=W.cards(p.held))
        head = W.review_class(seat, p.trick, p.held, p.before.value) if p.trick is not None else (
            _("{answer}: before its take at line {line}, {seat} {why} (exact, {cards} held)").format(
                answer=W.get_away_answer(p.before.value), line=p.line, seat=seat,
                why=W.get_away_class(p.before.value), cards=W.cards(p.held)))
        return head + _("; ") + verdict
    if p.chance_before is not None and p.chance_after is not None:
        return W.review_chances(seat, action, p.chance_before, p.chance_after, p.samples, p.mark)
    return W.review_unjudged(seat, action, _unjudged_why(r, p))


def _chance_after(r: GameReview, seat: int, trick: int) -> float | None:
    last = [p for p in r.plays if p.trick == trick and p.chances]
    return last[-1].chances[seat] if last else None


def get_away_answer(r: GameReview, seat: int, trick: int) -> GetAway:
    """Could ``seat`` (an index into the game's seats) have got away in trick ``trick`` (the
    record's number)? From the review ``r``. ValueError if the game has no such seat or the
    review no such trick."""
    if not 0 <= seat < len(r.seats):
        raise ValueError(_("game {number} has no seat {seat} (seats: {seats})").format(
            number=r.number, seat=seat, seats=_(", ").join(r.seats)))
    tricks = sorted({p.trick for p in r.plays if p.trick is not None})
    if trick not in tricks:
        raise ValueError((_("game {number}'s review has no trick {trick} (tricks {first} to {last})") if tricks else
                          _("game {number}'s review has no trick {trick}")).format(
            number=r.number, trick=trick, first=tricks[0] if tricks else 0, last=tricks[-1] if tricks else 0))
    name = r.seats[seat]
    mine = tuple(p for p in r.plays if p.trick == trick and p.seat == seat)
    chance = _chance_after(r, seat, trick)
    answer: Answer
    if not mine:
        later = any(p.seat == seat and p.trick is not None and p.trick > trick for p in r.plays)
        gone = not later and r.loser is not None and r.loser != name
        answer, parts = "absent", [W.review_absent(name, trick, gone)]
    else:
        first = mine[0]
        if first.exact and first.before is not None:
            answer = _ANSWER[first.before.value]
        elif first.chance_after is not None:
            answer = "chances"
        else:
            answer = "unjudged"
        parts = [play_sentence(r, p) for p in mine]
    if chance is not None:
        parts.append(W.review_after(name, trick, chance))
    return GetAway(seat, trick, answer, mine, chance, _("{said}.").format(said=W.cap(_("; ").join(parts))))


def could_get_away(game: Game, seat: int, trick: int, rules: RuleSet | None = None, *, window: int = WINDOW,
                   samples: int = SAMPLES, seed: int = 0) -> GetAway:
    """The game reviewed as ``getaway-ref review`` reviews it (the same settings give the
    same verdicts), then :func:`get_away_answer`. Seconds: a whole game is reviewed."""
    return get_away_answer(review_game(game, rules, window=window, samples=samples, seed=seed), seat, trick)


def standings_sentence(game: Game, trick: int | None, rules: RuleSet | None = None, *, window: int = WINDOW,
                       samples: int = SAMPLES, seed: int = 0) -> str:
    """Who can still get away after trick ``trick`` (None: at the end of the record): every
    seat's class there, as ``review --after TRICK`` (or ``--at END``) gives it, in one
    answer. ValueError if the record has no such trick."""
    r = review_position(game, rules, after=trick, window=window, samples=samples, seed=seed)
    said = _("; ").join(W.review_standing(r.seats[t.seat], t.cls, t.draws, t.chance, r.budget, r.why_unknown)
                        for t in r.standings)
    return _("{head}: {standings}.").format(head=W.review_position_head(r.where, r.trick, r.held), standings=said)


def trick_review_sentence(r: GameReview, trick: int) -> str:
    """The plays of trick ``trick`` the review marks (blunder, only move, mistake,
    inaccuracy), in one sentence for ``show --narrate``; '' when it marks none."""
    marked = [p for p in r.plays if p.trick == trick and (p.verdict in ("blunder", "only move") or p.mark)]
    if not marked:
        return ""
    return _("Review: {said}.").format(said=_("; ").join(play_sentence(r, p, short=True) for p in marked))


def hint(game: Game, rules: RuleSet | None = None, *, window: int = WINDOW, samples: int = SAMPLES,
         seed: int = 0) -> str:
    """For a live table that asks (off unless asked: it reviews the game so far, seconds):
    the review's verdict on the last play or take, and every seat's chance of losing after
    it, each from its own view."""
    r = review_game(game, rules, window=window, samples=samples, seed=seed)
    if not r.plays:
        return _("Nothing has been played yet: nothing to review.")
    p = r.plays[-1]
    said = play_sentence(r, p)
    if p.chances:
        said += _("; chances of losing now, each seat from what it could know: {chances}").format(chances=_(", ").join(
            f"{name} {'?' if c is None else W.percent(c)}" for name, c in zip(r.seats, p.chances)))
    return _("{said}.").format(said=W.cap(said))
