"""The review as JSON (``review --format json``): pydantic models at the edge, their schema
committed as schema/review.schema.json (regenerate with
``python -m referee.review.report > schema/review.schema.json``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.engine.language import N_, ngettext
from referee.engine.language import gettext as _
from referee.judging import wording as W
from referee.review.review import GameReview, PlayReview, PositionReview, said_action, said_move

REVIEW_SCHEMA_VERSION = 1

Class = Literal["safe", "open", "lost"]


class PlayModel(BaseModel):
    number: int = Field(description="the play's or take's place among the game's plays and takes, from 1")
    trick: int | None = Field(description="the record's trick number (plays only)")
    line: int = Field(description="the record's line")
    seat: str
    action: str = Field(description="the card played, or 'takes SEAT'")
    held: int = Field(description="cards held by the seats in the game before it")
    exact: bool = Field(description="the solver settled it: every hand known, few cards held")
    before: Class | None = Field(description="the seat's class before the play (exact only)")
    after: Class | None = Field(description="the seat's class after the play (exact only)")
    best: Class | None = Field(description="the best class a choice of the seat's kept (exact only)")
    verdict: Literal["blunder", "only move", "forced", "good", ""] = Field(
        description="exact: a worse class than another choice kept (blunder), the one choice that kept the "
                    "seat safe (only move), one legal choice (forced), else good; '' if not exact")
    better: list[str] = Field(description="for a blunder: the choices that kept the best class")
    solver_line: list[str] = Field(description="for a blunder or an only move: the line the solver plays")
    chance_before: float | None = Field(
        description="the seat's estimated chance of losing had it played as the sensible bot (not exact only)")
    chance_after: float | None = Field(description="the seat's estimated chance of losing after the play")
    samples: int = Field(description="the sampled deals behind the chances")
    mark: Literal["blunder", "mistake", "inaccuracy", ""] = Field(
        description="from the rise in the chance of losing: 30, 20, 10 points")
    step: int = Field(description="the play's place among the replay's steps (the replay page's #step-N is step + 1)")
    mistake: str = Field(description="a mistake (or record error) the referee reports at this play, with its code and "
                                     "the penalty; the review judges no such play; '' if none")
    chances: list[float | None] = Field(
        description="every seat's estimated chance of losing after the play, in the order of seats, each judged "
                    "from what that seat could know (0 for a seat got away, 1 for the loser of a finished game; "
                    "null where no deal could be sampled); empty without chances")


class GameReviewModel(BaseModel):
    number: int
    seats: list[str]
    rules: str
    loser: str | None
    window: int = Field(description="the most cards held for an exact verdict")
    samples: int = Field(description="sampled deals per play for the chances (0: none)")
    seed: int
    exact_share: float = Field(description="the share of plays and takes with an exact verdict")
    stopped: str | None = Field(description="why the replay stopped early, if it did")
    work_budget: int = Field(description="the positions the review could spend on the game: search nodes and "
                                         "plays of the samples' rollouts")
    work: int = Field(description="the positions it spent")
    fewer_samples_from: int | None = Field(
        description="the number of the first play that got fewer samples than asked for, the work budget being "
                    "short (later plays may have fewer or none); null if every play got them all")
    plays: list[PlayModel]


Standing = Literal["safe", "open", "lost", "got away", "unsettled", "unknown"]


class SeatStandingModel(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    seat: str
    class_: Standing = Field(alias="class", description=(
        "safe: gets away whatever the others play and whatever is drawn; lost: cannot get away whatever anyone "
        "plays and whatever is drawn; open: everything else; got away (or lost, once the game is over); unsettled: "
        "the search ran past its budget; unknown: no exact class (unseen cards, or more than the window held)"))
    held: int = Field(description="cards the seat holds")
    draws_safe: int | None = Field(description="for an open seat whose fate a draw decides: the cards the draw may "
                                               "bring that leave it safe; null where not counted")
    draws: int | None = Field(description="the cards that draw may bring")
    chance: float | None = Field(description="where no exact class is given: the seat's chance of losing from "
                                             "what it could know (sampled); else null")


class PositionModel(BaseModel):
    game: int
    seats: list[str]
    rules: str
    where: str = Field(description="'end', or 'after trick N'")
    trick: int | None = Field(description="the trick of the last play before the point; null: the setup")
    line: int | None = Field(description="the record's line of that play")
    held: int = Field(description="cards held by the seats in the game")
    window: int = Field(description="the most cards held for an exact class")
    budget: int | None = Field(description="positions one question may search")
    nodes: int = Field(description="positions searched")
    stopped: str | None = Field(description="why the replay stopped early, if it did")
    why_unknown: str = Field(description="why no seat has an exact class, if none has")
    standings: list[SeatStandingModel] = Field(description="every seat, in the order of seats")


class ReviewFile(BaseModel):
    path: str
    version: int = REVIEW_SCHEMA_VERSION
    games: list[GameReviewModel]
    positions: list[PositionModel] = Field(
        default_factory=list, description="with --at END or --after TRICK: every seat's class at that point, a game each "
                                          "(games is then empty)")
    not_reviewed: list[str] = Field(default_factory=list, description="games that could not be reviewed, and why")


def game_model(r: GameReview) -> GameReviewModel:
    return GameReviewModel(
        number=r.number, seats=list(r.seats), rules=r.rules, loser=r.loser, window=r.window, samples=r.samples,
        seed=r.seed, exact_share=round(r.exact_share, 4), stopped=r.stopped, work_budget=r.work_budget, work=r.work,
        fewer_samples_from=r.fewer_from,
        plays=[PlayModel(
            number=p.number, trick=p.trick, line=p.line, seat=r.seats[p.seat], action=p.action, held=p.held,
            exact=p.exact, before=p.before.value if p.before else None, after=p.after.value if p.after else None,
            best=p.best.value if p.best else None, verdict=p.verdict,  # type: ignore[arg-type]
            better=p.better, solver_line=p.solver_line,
            chance_before=None if p.chance_before is None else round(p.chance_before, 4),
            chance_after=None if p.chance_after is None else round(p.chance_after, 4),
            samples=p.samples, mark=p.mark,  # type: ignore[arg-type]
            step=p.step, mistake=p.mistake, chances=[None if c is None else round(c, 4) for c in p.chances],
        ) for p in r.plays])


# The review's words for its verdicts and marks, as its text says them (the JSON keeps the
# English codes: "blunder", "only move").
VERDICT_WORDS = {"blunder": N_("blunder"), "only move": N_("only move"), "mistake": N_("mistake"),
                 "inaccuracy": N_("inaccuracy")}


def play_lines(seats: Sequence[str], p: PlayReview) -> list[str]:
    """One play's lines of ``review``'s text (a verdict, a mark, or a mistake, and the
    solver's line), as the replay page's review panel shows them too, in the current language."""
    if p.trick is not None:
        head = _("line {line}, trick {trick}: {seat} {action}").format(line=p.line, trick=p.trick,
                                                                     seat=seats[p.seat], action=said_action(p.action))
    else:
        head = _("line {line}, a take: {seat} {action}").format(line=p.line, seat=seats[p.seat],
                                                               action=said_action(p.action))
    head = "  " + head
    if p.mistake:
        return [_("{head}: a mistake, not reviewed: {mistake}").format(head=head, mistake=p.mistake)]
    if p.verdict in ("blunder", "only move"):
        assert p.before is not None and p.after is not None and p.best is not None
        if p.verdict == "blunder":
            out = [_("{head}: blunder (exact, {cards} held): {best} -> {after}; {better} kept it {best}").format(
                head=head, cards=W.cards(p.held), best=W.class_word(p.best.value), after=W.class_word(p.after.value),
                better=_(" or ").join(said_action(b) for b in p.better))]
        else:
            out = [_("{head}: only move (exact, {cards} held): the one choice that kept it safe").format(
                head=head, cards=W.cards(p.held))]
        if p.solver_line:
            out.append("      " + _("solver: {line}").format(line=_(", ").join(said_move(m) for m in p.solver_line)))
        return out
    assert p.chance_before is not None and p.chance_after is not None
    return [ngettext("{head}: {mark} (chances): {before} -> {after} to lose, {n} sample",
                     "{head}: {mark} (chances): {before} -> {after} to lose, {n} samples", p.samples).format(
        head=head, mark=_(VERDICT_WORDS[p.mark]) if p.mark in VERDICT_WORDS else p.mark,
        before=W.percent(p.chance_before), after=W.percent(p.chance_after), n=p.samples)]


def position_model(r: PositionReview) -> PositionModel:
    return PositionModel(
        game=r.number, seats=list(r.seats), rules=r.rules, where=r.where, trick=r.trick, line=r.line, held=r.held,
        window=r.window, budget=r.budget, nodes=r.nodes, stopped=r.stopped, why_unknown=r.why_unknown,
        standings=[SeatStandingModel.model_validate({
            "seat": r.seats[t.seat], "class": t.cls, "held": t.held,
            "draws_safe": t.draws[0] if t.draws else None, "draws": t.draws[1] if t.draws else None,
            "chance": None if t.chance is None else round(t.chance, 4)}) for t in r.standings])


def review_schema() -> str:
    """The JSON Schema of ``review --format json``, as committed under schema/."""
    return json.dumps(ReviewFile.model_json_schema(by_alias=True), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(review_schema(), end="")
