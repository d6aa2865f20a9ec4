"""Puzzles from the solver (issue 41, item 4): positions of an archive's games, inside the
exact window, where exactly one legal card (of at least three) keeps the mover safe, each
written as a ``.gwy`` position with its solution and the refutation of every other card.

A puzzle is found on the referee's own walk of a game (:mod:`referee.judging.replay`): at a
clean play, with every card known and at most ``window`` cards held, the mover to play a card.
The solver (:mod:`referee.players.solver`) classes the mover after each of its legal cards; the
position is a puzzle when exactly one of them leaves it safe and no other action of its own
(a take) does. The "my mistakes" deck (``--seat NAME``) holds instead the positions where
that seat blundered as the review finds it (:func:`referee.review.review.review_game`, the
exact verdict "blunder") while a card would have kept it safe: every such card solves it.

Each puzzle is written as a record that opens at its moment: a ``position`` block at the
start of the trick on the table (every hand, the seats out, the waste pile, who leads, the
trick's number, the trumps), then the trick's plays so far. The record is read back, replayed
by the referee and solved again by a fresh solver before it is kept: the position it opens
at must be the game's (:func:`situation`), the referee must find nothing wrong, and the
solver must find the same safe cards. The facts go in header tags (``Puzzle``, ``ToPlay``,
``Solution``, ``Themes``, ...), language-neutral; the sentences a player reads (the question,
each card's answer with the solver's line) in comments, from :mod:`referee.judging.wording`.

Themes, each read off the position or the solver's lines: ``two_players`` (two seats left),
``void`` (the mover cannot follow the suit led, so every card is legal), ``take`` (a take in
the solution's line, or by another seat in a refutation's), ``waste_draw`` (a draw from the
waste pile in the solution's line or a refutation's).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.engine.cards import card_str, sort_cards
from referee.engine.events import DrawCard, LegalReason, PlayCard, TakeHand
from referee.engine.rules import RuleSet
from referee.engine.state import Engine, Phase
from referee.judging import wording as W
from referee.judging.replay import replay
from referee.notation.format import format_game
from referee.notation.reader import parse
from referee.notation.record import Comment, Game, Hand, Lead, NextTrick, Out, Play, Position, Tag, Trick, Trumps, Waste
from referee.players.solver import SearchLimit, SeatClass, Solver, actor, cards_held
from referee.review.review import BUDGET, WINDOW, known_position, line_words, played_clean, review_game, said_move

__all__ = [
    "LINE",
    "THEMES",
    "Answer",
    "Found",
    "Puzzle",
    "answers",
    "dumps",
    "found",
    "game_puzzles",
    "key_of",
    "page_data",
    "puzzle_game",
    "situation",
    "verify",
]

THEMES = ("two_players", "void", "take", "waste_draw")
LINE = 16  # actions of the solver's line shown after the card (the seat is out or lost by then, mostly)
UNIQUE, MISTAKE = "unique", "mistake"


@dataclass(slots=True)
class Answer:
    """One legal card of the puzzle: the mover's class after it, and the solver's line from it
    (the card first; then the seat keeps its best class and the others play worst for it)."""

    card: int
    cls: SeatClass
    line: list[str] = field(default_factory=list)
    end: str = ""  # how the line ends for the mover: "got_away", "lost", or "" (cut at LINE actions)
    takes: bool = False  # the line has a take
    others_take: bool = False  # the line has a take by another seat than the mover
    waste_draw: bool = False  # the line has a draw from the waste pile


@dataclass(slots=True)
class Puzzle:
    """A puzzle found in a game: its position (``engine``, every card known), the mover, the
    answers for each legal card, and where it came from."""

    kind: str  # UNIQUE or MISTAKE
    engine: Engine
    seat: int
    seats: tuple[str, ...]
    rules: str
    answers: list[Answer]
    game: int
    line: int
    played: int | None = None  # MISTAKE: the card the seat played in its game

    @property
    def solutions(self) -> list[int]:
        return [a.card for a in self.answers if a.cls is SeatClass.SAFE]

    @property
    def themes(self) -> list[str]:
        v = self.engine.view()
        out = []
        if len(self.engine.in_game()) == 2:
            out.append("two_players")
        if v.phase == Phase.IN_TRICK and self.engine.legal(self.seat).reason in (LegalReason.OFF_SUIT, LegalReason.TRUMP):
            out.append("void")
        # A take in the solution's line (the winning plan uses one), or by another seat in a
        # refutation (the mover's own take at the end of a lost line is only how it ends).
        if any(a.takes if a.cls is SeatClass.SAFE else a.others_take for a in self.answers):
            out.append("take")
        # A draw from the waste pile in any line: the solution or a refutation turns on it.
        if any(a.waste_draw for a in self.answers):
            out.append("waste_draw")
        return out


@dataclass(slots=True)
class Found:
    """A puzzle as it leaves a worker: plain values (the key it is told apart by, its record's
    text, its index entry)."""

    key: str
    text: str
    entry: dict[str, object]


def situation(e: Engine) -> tuple[object, ...]:
    """What decides a position's future, from the engine's view alone: two positions with one
    situation are one puzzle (the trick's number and the seats' names aside)."""
    v = e.view()
    return (v.phase, v.trick, v.to_act, v.leader if v.phase == Phase.BETWEEN else -1, v.sizes, v.known,
            tuple(sorted(v.out_order)), v.trumps, tuple(sort_cards(v.waste)), v.waste_size, v.first_trick,
            v.pending, v.drawn_lead, v.draw_source, v.power, v.still_to_play)


def key_of(rules: str, e: Engine) -> str:
    """A puzzle's id: a short hash of its rule set and situation."""
    return hashlib.sha256(repr((rules, situation(e))).encode("utf-8")).hexdigest()[:12]


def answers(e: Engine, seat: int, solver: Solver, seats: Sequence[str] | None = None) -> list[Answer]:
    """Each legal card of ``seat`` (to play in ``e``): its class after, and, given the seats'
    names, the solver's line from it in the record's words. Raises SearchLimit past the
    solver's budget."""
    out = []
    for c in e.playable(seat):
        child = e.fork()
        child.apply(PlayCard(seat, c), events=False)
        gone = seat not in child.in_game()
        cls = SeatClass.SAFE if gone else solver.classify(child, seat)
        a = Answer(c, cls)
        if seats is not None:
            rest = [] if gone else solver.line(child, seat, LINE)
            a.line = line_words(e, [PlayCard(seat, c), *rest], seats)
            a.takes = any(isinstance(x, TakeHand) for x in rest)
            a.others_take = any(isinstance(x, TakeHand) and x.taker != seat for x in rest)
            a.waste_draw = any(isinstance(x, DrawCard) and x.source is None for x in rest)
            for x in rest:
                child.apply(x, events=False)
            v = child.view()
            a.end = "got_away" if seat in v.out_order else "lost" if v.loser == seat else ""
        out.append(a)
    return out


def _own_safe_takes(e: Engine, seat: int, solver: Solver) -> bool:
    """Whether a take of the seat's own keeps it safe (then no card is the only answer)."""
    for a in e.legal_actions():
        if isinstance(a, TakeHand) and actor(a) == seat:
            child = e.fork()
            child.apply(a, events=False)
            if seat not in child.in_game() or solver.classify(child, seat) is SeatClass.SAFE:
                return True
    return False


def _moment(e: Engine, seat: int) -> bool:
    """A moment a puzzle may be set at: the seat is to play a card, in a trick or leading one."""
    v = e.view()
    return (v.phase in (Phase.BETWEEN, Phase.IN_TRICK) and v.to_act == seat and not v.as_played
            and not v.first_trick and e.all_known())


def game_puzzles(game: Game, rules: RuleSet | None = None, *, seat_name: str | None = None, window: int = WINDOW,
                 budget: int = BUDGET, least: int = 3) -> list[Puzzle]:
    """The puzzles of one game: where exactly one of at least ``least`` legal cards keeps the
    mover safe; or, with ``seat_name``, where that seat blundered (the review's exact verdict)
    while a card would have kept it safe."""
    if seat_name is not None:
        return _mistakes(game, rules, seat_name, window, budget)
    solver = Solver(max_nodes=budget)
    walk = replay(game, rules, snapshots=True)
    steps = list(walk)
    res = walk.result
    if res.rules is None:
        return []
    spec = res.rules.spec()
    out = []
    for st in steps:
        item = st.item
        if not isinstance(item, Play) or not played_clean(st):
            continue
        e = known_position(st.before)
        seat = item.seat
        if not _moment(e, seat) or cards_held(e) > window or len(e.playable(seat)) < least:
            continue
        try:
            if solver.classify(e, seat) is not SeatClass.SAFE:
                continue
            classes = answers(e, seat, solver)
            if sum(a.cls is SeatClass.SAFE for a in classes) != 1 or _own_safe_takes(e, seat, solver):
                continue
            full = answers(e, seat, solver, game.seats)
        except SearchLimit:
            continue
        out.append(Puzzle(UNIQUE, e, seat, game.seats, spec, full, game.number, item.seat_span.line))
    return out


def _mistakes(game: Game, rules: RuleSet | None, name: str, window: int, budget: int) -> list[Puzzle]:
    want = [s for s, n in enumerate(game.seats) if n.lower() == name.lower()]
    if not want:
        return []
    solver = Solver(max_nodes=budget)
    review = review_game(game, rules, window=window, chances=False, solver=solver)
    blunders = [p for p in review.plays if p.seat == want[0] and p.verdict == "blunder" and p.best is SeatClass.SAFE]
    if not blunders:
        return []
    walk = replay(game, rules, snapshots=True)
    steps = list(walk)
    res = walk.result
    if res.rules is None:
        return []
    out = []
    for p in blunders:
        st = steps[p.step]
        item = st.item
        if not isinstance(item, Play):
            continue  # a take the review judged: the deck asks for cards
        e = known_position(st.before)
        if not _moment(e, p.seat):
            continue
        try:
            full = answers(e, p.seat, solver, game.seats)
        except SearchLimit:
            continue
        if not any(a.cls is SeatClass.SAFE for a in full):
            continue  # only a take would have kept it safe
        out.append(Puzzle(MISTAKE, e, p.seat, game.seats, res.rules.spec(), full, game.number, p.line, item.card))
    return out


# ---- the record -----------------------------------------------------------------------------


def puzzle_game(p: Puzzle, source: str = "") -> Game:
    """The puzzle as a record: the header's tags and sentences, a position at the start of
    the trick on the table, and that trick's plays so far."""
    e, seats = p.engine, p.seats
    v = e.view()
    plays = list(v.trick) if v.phase == Phase.IN_TRICK else []
    played = {s for s, _ in plays}
    items: list[object] = []
    for s in range(len(seats)):
        if s in v.out_order and s not in played:
            items.append(Out(s))
        else:
            items.append(Hand(s, tuple(sort_cards([*v.known[s], *(c for t, c in plays if t == s)])), 0))
    items.append(Waste(cards=tuple(sort_cards(v.waste))) if v.waste else Waste(size=0))
    items.append(Lead(plays[0][0] if plays else v.leader))
    items.append(NextTrick(v.trick_no))
    if v.trumps is not None:
        items.append(Trumps(v.trumps))
    sol = p.solutions
    tags = [("Event", "Puzzle"), ("Seats", " ".join(seats)), ("Rules", p.rules), ("Result", "*"),
            ("Puzzle", key_of(p.rules, e)), ("Kind", p.kind), ("ToPlay", seats[p.seat]),
            ("Solution", " ".join(card_str(c) for c in sol)), ("Themes", " ".join(p.themes)),
            ("Players", str(len(e.in_game()))), ("Held", str(cards_held(e)))]
    if p.played is not None:
        tags.append(("Played", card_str(p.played)))
    if source:
        tags.append(("Source", source))
    header: list[object] = [Tag(n, val) for n, val in tags]
    header.append(Comment(W.puzzle_task(seats[p.seat], len(p.answers), len(sol))))
    if p.played is not None:
        header.append(Comment(W.puzzle_played(seats[p.seat], p.played)))
    for a in sorted(p.answers, key=lambda a: a.cls is not SeatClass.SAFE):
        header.append(Comment(W.puzzle_answer(seats[p.seat], a.card, a.cls.value, [said_move(m) for m in a.line], a.end)))
    actions = [Trick(v.trick_no, [Play(s, c) for s, c in plays])] if plays else []
    return Game(1, header=header, seats=seats, rules=p.rules, setup=Position(items=items), actions=actions)


def verify(text: str, p: Puzzle, least: int = 3) -> str:
    """Read the puzzle's record back, replay it and solve it afresh; '' if it holds, else why
    not, as a word of the index (``not_verified``): the record reads back ("unreadable"), the
    referee finds nothing wrong in it ("not_clean"), it opens at the puzzle's position
    ("other_position"), and a fresh solver settles it ("unsettled") and finds the same safe
    cards ("other_solution"): one for a puzzle of the main deck, of at least ``least`` legal
    cards ("not_unique")."""
    games = parse(text)
    if len(games) != 1 or games[0].errors:
        return "unreadable"
    walk = replay(games[0], snapshots=True)
    steps = list(walk)
    res = walk.result
    if res.stopped or res.errors or res.engine is None:
        return "not_clean"
    e = known_position(steps[-1].after if steps else res.engine)
    if situation(e) != situation(p.engine):
        return "other_position"
    solver = Solver(max_nodes=BUDGET)
    try:
        fresh = answers(e, p.seat, solver)
        takes = _own_safe_takes(e, p.seat, solver)
    except SearchLimit:
        return "unsettled"
    safe = [a.card for a in fresh if a.cls is SeatClass.SAFE]
    if safe != p.solutions or not safe:
        return "other_solution"
    if p.kind == UNIQUE and (len(safe) != 1 or len(fresh) < least or takes):
        return "not_unique"
    return ""


def found(p: Puzzle, source: str) -> Found | str:
    """The puzzle written and verified (:func:`verify`), with its index entry; or why not."""
    text = format_game(puzzle_game(p, source))
    why = verify(text, p)
    if why:
        return why
    e = p.engine
    entry: dict[str, object] = {
        "id": key_of(p.rules, e), "kind": p.kind, "game": p.game, "line": p.line, "seats": list(p.seats),
        "rules": p.rules, "to_play": p.seats[p.seat], "table": len(p.seats), "players": len(e.in_game()),
        "held": cards_held(e), "trick": e.view().trick_no, "themes": p.themes,
        "legal": [card_str(a.card) for a in p.answers], "solution": [card_str(c) for c in p.solutions],
        "played": card_str(p.played) if p.played is not None else None,
        "answers": [{"card": card_str(a.card), "class": a.cls.value, "line": a.line, "end": a.end or None}
                    for a in p.answers],
    }
    return Found(key_of(p.rules, e), text, entry)


def dumps(doc: dict[str, object]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def page_data(e: Engine, seats: Sequence[str], played: str | None = None) -> dict[str, object] | None:
    """A puzzle as the replay page plays it (``html`` of a record with a ``Puzzle`` tag): the
    question for the seat to play at ``e`` (the record's end), and for each legal card the
    solver's answer, worked out now by a fresh solver: right (it keeps the seat safe) or
    its refutation, each with the solver's line. None where the solver cannot answer (a card
    unseen, its budget spent, no card to play, no card that keeps the seat safe)."""
    e = known_position(e)
    seat = e.view().to_act
    if seat < 0 or not _moment(e, seat):
        return None
    try:
        got = answers(e, seat, Solver(max_nodes=BUDGET), seats)
    except SearchLimit:
        return None
    safe = [a for a in got if a.cls is SeatClass.SAFE]
    if not got or not safe:
        return None
    out: dict[str, object] = {
        "seat": seats[seat], "task": W.puzzle_task(seats[seat], len(got), len(safe)), "played": "",
        "cards": [{"card": card_str(a.card), "right": a.cls is SeatClass.SAFE, "class": a.cls.value,
                   "verdict": W.puzzle_verdict(a.cls is SeatClass.SAFE),
                   "sentence": W.puzzle_answer(seats[seat], a.card, a.cls.value, [said_move(m) for m in a.line], a.end)} for a in got],
    }
    if played:
        from_text = [a.card for a in got if card_str(a.card) == played]
        if from_text:
            out["played"] = W.puzzle_played(seats[seat], from_text[0])
    return out
