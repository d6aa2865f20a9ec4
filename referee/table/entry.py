"""What a person types at the table, read into the notation's own lines.

``live`` records only what the notation's reader reads; this module sits in front of it and
understands the ways a scorer types: ``West A♠``, ``west as``, ``West plays A♠``, ``W AS``
(a seat's unique prefix), ``10h``/``th``/``T♥``, a card alone when only one seat can have
played it, several plays on one line (``East KS South 5S``, ``West A♠; North J♠``), and takes
and draws in words (``North takes East``, ``Ann draws 7♦ from Bob``).

Every reading of the line is found (a word may be a seat and a card at once: ``as`` with a
seat called Ashley). One reading: it becomes canonical notation lines (``West A♠``, ``North
takes East``) that ``live`` hands to the reader and the referee, one by one. Several
readings: a :class:`Question`, nothing recorded. None: a :class:`Rejection` that says which
word is wrong and what would be accepted. Who may have played a card typed alone is the
engine's answer (whose turn it is, who may hold the card), never a rule of this module.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Union

from referee.engine import cards as C
from referee.engine import state as E
from referee.engine.codes import Code, say
from referee.engine.language import N_
from referee.engine.language import gettext as _
from referee.notation.reader import card_help  # the sentence is the reader's, said once

PLAY_WORDS = frozenset({"plays", "played", "play", "leads", "led", "lead"})
TAKE_WORDS = frozenset({"takes", "took", "take"})
DRAW_WORDS = frozenset({"draws", "drew", "draw"})
FROM_WORDS = frozenset({"from"})
HAND_WORDS = frozenset({"hand", "hands", "cards"})

ACCEPTED = ("a play 'West A♠' (also 'west as', 'W AS', 'West plays 10♥', or the card alone when only one "
            "seat can have played it), several plays 'East K♠, South 5♠', a take 'North takes East', "
            "a draw 'West draws 7♦ [from North]'")


@dataclass(frozen=True)
class Lines:
    """The entry, read: notation lines to record one after another."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    """The entry can mean more than one thing: nothing is recorded until it is said which.
    ``options`` are the entries (in the notation) it could be; ``seats`` the seat names that
    answer it when typed alone on the next line, each with the lines it stands for."""

    text: str
    options: tuple[str, ...]
    answers: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class Rejection:
    """The entry cannot be read: why, in the game's words, and what would be accepted."""

    why: str
    accepted: str = ACCEPTED


Reading = Union[Lines, Question, Rejection]


# ---- words --------------------------------------------------------------------------------------


@dataclass
class Word:
    text: str
    seats: tuple[int, ...] = ()  # the seats the word can name (exact name, else unique prefix)
    card: int | None = None
    keyword: str | None = None   # "play", "take", "draw", "from", "hand"


_SPLIT = re.compile(r"[\s,;]+")


def words_of(text: str) -> list[str]:
    return [w for w in _SPLIT.split(text.strip()) if w]


def seat_matches(word: str, seats: Sequence[str]) -> tuple[int, ...]:
    """The seats a word names: the seat spelled so (any case), else every seat it begins."""
    low = word.lower()
    exact = tuple(i for i, s in enumerate(seats) if s.lower() == low)
    if exact:
        return exact
    return tuple(i for i, s in enumerate(seats) if s.lower().startswith(low))


def classify(word: str, seats: Sequence[str]) -> Word:
    w = Word(word)
    bare = word[:-2] if word.lower().endswith("'s") or word.endswith("’s") else word
    low = word.lower()
    if low in PLAY_WORDS:
        w.keyword = "play"
    elif low in TAKE_WORDS:
        w.keyword = "take"
    elif low in DRAW_WORDS:
        w.keyword = "draw"
    elif low in FROM_WORDS:
        w.keyword = "from"
    elif low in HAND_WORDS:
        w.keyword = "hand"
    if w.keyword is None:
        w.seats = seat_matches(bare, seats)
        w.card = C.parse_card(word)
    return w


# ---- readings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    seat: int | None  # None: the card alone, its seat still to be found
    card: int


@dataclass(frozen=True)
class TakeAct:
    taker: int
    target: int


@dataclass(frozen=True)
class DrawAct:
    seat: int
    card: int
    source: int | None


Act = Union[Play, TakeAct, DrawAct]


@dataclass
class _Failure:
    """How far the longest attempt got, to say which word is wrong."""

    at: int = -1
    expected: str = ""


@dataclass
class Work:
    """The reader's work, counted (issue 36): ``steps`` to read the words (a word
    classified, a way of reading a word examined, a position of an attempt visited), which
    an entry twice as long at most doubles; ``listed``, the steps walking the readings found
    (at most nine, each as long as the entry), to say them."""

    steps: int = 0
    listed: int = 0


# The longest line read as an entry, in characters: sixteen plays of the longest seat names
# fit several times over; past it the line is refused in one line before a word is read.
MAX_ENTRY_CHARS = 2000

# How many readings are listed when an entry can be read more than one way (enough to ask).
_READINGS_LISTED = 9

# What was expected where an entry's words stop making sense, in a phone's language when said.
_TAKEN = N_("the seat whose hand is taken")
_DRAWN = N_("the card drawn")
_DRAWN_FROM = N_("the seat whose hand the card is drawn from")
_A_CARD = N_("a card")
_SEAT_OR_CARD = N_("a seat or a card")
# Why a card typed alone has no one seat that played it (also compared: these are keys).
_OVER = N_("the game is over")
_DRAW_DUE = N_("a draw is due before the next play")
_FIRST = N_("whoever holds it opens the first trick")
_SEVERAL = N_("more than one seat still to play may hold it")

# One way of reading the words from a position: (act, j, "") an act of the words before
# position j, or (None, at, expected) none, as what was expected at position ``at`` was not there.
_Way = tuple[Union[Act, None], int, str]


def _ways(ws: list[Word], i: int, work: Work) -> list[_Way]:
    """Every way of reading an act that begins at word ``i``, in the order they are tried:
    each depends only on the few words from ``i`` on, never on how ``i`` was reached."""
    out: list[_Way] = []
    n = len(ws)
    w = ws[i]
    if w.card is not None:  # the card alone
        out.append((Play(None, w.card), i + 1, ""))
    for s in w.seats:
        work.steps += 1
        j = i + 1
        if j < n and ws[j].keyword == "take":
            k = j + 1
            if k < n and ws[k].seats:
                end = k + 2 if k + 1 < n and ws[k + 1].keyword == "hand" else k + 1
                out.extend((TakeAct(s, t), end, "") for t in ws[k].seats)
            else:
                out.append((None, k, _TAKEN))
            continue
        if j < n and ws[j].keyword == "draw":
            k = j + 1
            drawn = ws[k].card if k < n else None
            if drawn is None:
                out.append((None, k, _DRAWN))
                continue
            end = k + 1
            if end < n and ws[end].keyword == "from":
                if end + 1 < n and ws[end + 1].seats:
                    out.extend((DrawAct(s, drawn, src), end + 2, "") for src in ws[end + 1].seats)
                else:
                    out.append((None, end + 1, _DRAWN_FROM))
                continue
            out.append((DrawAct(s, drawn, None), end, ""))
            continue
        if j < n and ws[j].keyword == "play":
            j += 1
        card = ws[j].card if j < n else None
        if card is not None:
            out.append((Play(s, card), j + 1, ""))
        else:
            out.append((None, j, _A_CARD))
    if w.card is None and not w.seats:
        out.append((None, i, _SEAT_OR_CARD))
    work.steps += len(out) + 1
    return out


def _read(ws: list[Word], work: Work) -> tuple[list[list[Act]], _Failure]:
    """The first readings of the words (up to enough to ask), or none and how far the
    longest attempt got. The readings from word ``i`` on are the same however ``i`` was
    reached, so each position is examined once: whether any reading ends from it is found
    from the last word back, and only ways that end are walked. No recursion: a line of
    thousands of words needs no deeper stack than a line of one."""
    n = len(ws)
    ways = [_ways(ws, i, work) for i in range(n)]
    ends = [False] * n + [True]  # ends[i]: some reading of ws[i:] reads every word
    work.steps += 1  # the end of the line, where every reading ends
    for i in range(n - 1, -1, -1):
        ends[i] = any(act is not None and ends[j] for act, j, _ in ways[i])
    fail = _Failure()
    if not ends[0]:
        # Every position an attempt reaches, once each, in the order the attempts reach
        # them: the furthest note says which word is wrong (the first note, on a tie).
        seen = {0}
        stack = [iter(ways[0])]
        while stack:
            way = next(stack[-1], None)
            work.steps += 1
            if way is None:
                stack.pop()
            elif way[0] is None:
                _, at, expected = way
                if at > fail.at:
                    fail.at, fail.expected = at, expected
            else:
                j = way[1]
                if j < n and j not in seen:
                    seen.add(j)
                    stack.append(iter(ways[j]))
        return [], fail
    # The readings, in the order they are tried, walking only ways that end.
    found: list[list[Act]] = []
    path: list[Act] = []
    frames = [iter(ways[0])]
    while frames and len(found) < _READINGS_LISTED:
        way = next(frames[-1], None)
        work.listed += 1
        if way is None:
            frames.pop()
            if path:
                path.pop()
            continue
        act, j, _ = way
        if act is None or not ends[j]:
            continue
        path.append(act)
        if j == n:
            found.append(list(path))
            path.pop()
        else:
            frames.append(iter(ways[j]))
    return found, fail


def _unknown_word(word: str, seats: Sequence[str]) -> str:
    """Why a word is neither a seat, a card nor one of the entry's words."""
    names = list(seats)
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6) or \
        difflib.get_close_matches(word.capitalize(), names, n=1, cutoff=0.6)
    if close:
        return _("unknown seat '{word}' (did you mean '{seat}'?)").format(word=word, seat=close[0])
    # A word of a card's length that is nearly a card ('11s', 'Qx'): the ranks or the suits,
    # in the words of the notation's reader.
    nearly = card_help(word) if len(word) <= 4 else None
    not_a_card = say(Code.NOT_A_CARD, found=word).message  # the catalogue's words (S002)
    if nearly:
        return f"{not_a_card}: {nearly}"
    if len(word) <= 3:
        return not_a_card
    return _("'{word}' is neither a seat of this game ({seats}) nor a card").format(word=word, seats=", ".join(seats))


def read_acts(text: str, seats: Sequence[str], work: Work | None = None) -> list[list[Act]] | Rejection:
    """Every reading of the entry as acts (up to enough to ask about), or a rejection that
    says which word is wrong. ``work`` counts the steps taken."""
    work = work if work is not None else Work()
    if len(text) > MAX_ENTRY_CHARS:
        return Rejection(_("the line is {n} characters long, too long for an entry (at most {most}): type a few "
                           "actions a line").format(n=f"{len(text):,}", most=f"{MAX_ENTRY_CHARS:,}"))
    raw = words_of(text)
    if not raw:
        return Rejection(_("nothing was typed"))
    ws = [classify(w, seats) for w in raw]
    work.steps += len(ws)
    found, fail = _read(ws, work)
    if found:
        return found
    at = fail.at if fail.at >= 0 else 0
    if at >= len(ws):
        return Rejection(_("'{entry}' stops short: {expected} is missing after '{word}'").format(
            entry=text.strip(), expected=_(fail.expected or _A_CARD), word=raw[-1]))
    w = ws[at]
    if w.keyword is None and not w.seats and w.card is None:
        return Rejection(_unknown_word(raw[at], seats))
    return Rejection(_("'{word}' is not where {expected} was expected").format(
        word=raw[at], expected=_(fail.expected or _SEAT_OR_CARD)))


# ---- the seat of a card typed alone: the engine says who can have played it -----------------------


def seats_for_card(e: E.Engine, card: int) -> tuple[list[int], str]:
    """The seats that may have played ``card`` typed alone now, and, when there is no
    single one, why (for the question or the rejection)."""
    v = e.view()
    if v.phase is E.Phase.OVER:
        return [], _OVER
    if v.phase is E.Phase.DRAW_DUE:
        return [], _DRAW_DUE
    due = v.to_act
    if due >= 0 and v.phase is not E.Phase.BEFORE_FIRST:
        return [due], ""
    if v.phase is E.Phase.BEFORE_FIRST:
        holders = [s for s in v.order if s not in v.out_order and e.may_hold(s, card)]
        return holders, _FIRST
    # a trick in which any seat still to play may play (the first trick, or a trick followed
    # as played after a mistake): those still to play who may hold the card
    cands = [s for s in v.still_to_play if e.may_hold(s, card)]
    return cands, _SEVERAL


def _or(names: list[str]) -> str:
    return names[0] if len(names) == 1 else _("{seats} or {seat}").format(seats=", ".join(names[:-1]), seat=names[-1])


def render_act(a: Act, seats: Sequence[str]) -> str:
    if isinstance(a, Play):
        return f"{seats[a.seat] if a.seat is not None else '?'} {C.card_str(a.card)}"
    if isinstance(a, TakeAct):
        return f"{seats[a.taker]} takes {seats[a.target]}"
    return f"{seats[a.seat]} draws {C.card_str(a.card)}" + (f" from {seats[a.source]}" if a.source is not None else "")


def read_entry(text: str, seats: Sequence[str], engine: E.Engine | None, work: Work | None = None) -> Reading:
    """One typed line, read: the notation lines it stands for, a question, or a rejection.

    The seat of a card typed alone is settled here only for the first such card of the line;
    a card alone after it is settled by :func:`settle` once the plays before it are judged.
    """
    got = read_acts(text, seats, work)
    if isinstance(got, Rejection):
        return got
    readings = {tuple(render_act(a, seats) if not (isinstance(a, Play) and a.seat is None) else f"? {C.card_str(a.card)}"
                      for a in p) for p in got}
    if len(readings) > 1:
        opts = sorted(" ; ".join(r) for r in readings)
        return Question(_("'{entry}' can be read {n} ways: {readings}; type it again, naming the seat in full").format(
            entry=text.strip(), n=len(opts), readings=" | ".join(opts[:4])), tuple(opts))
    return Lines(tuple(next(iter(readings))))


def settle(line: str, seats: Sequence[str], engine: E.Engine) -> Reading:
    """A line of :func:`read_entry` whose seat is still '?': the seat the engine says may
    have played the card now, or a question, or a rejection."""
    if not line.startswith("? "):
        return Lines((line,))
    card_text = line[2:]
    card = C.parse_card(card_text)
    assert card is not None
    cands, why = seats_for_card(engine, card)
    if len(cands) == 1:
        return Lines((f"{seats[cands[0]]} {card_text}",))
    if not cands:
        if why in (_OVER, _DRAW_DUE):
            return Rejection(_("{card} alone cannot be a play now: {why}").format(card=card_text, why=_(why)),
                             "a draw 'West draws 7♦' when one is due" if engine.turn().phase is E.Phase.DRAW_DUE else "'new' for the next game")
        return Rejection(_("no seat still to play can hold {card} from what is known").format(card=card_text),
                         "the play with its seat, e.g. 'West " + card_text + "'")
    names = [seats[s] for s in cands]
    opts = tuple(f"{n} {card_text}" for n in names)
    return Question(_("who played {card}? {seats} ({why}); type the seat, or the play in full").format(
                    card=card_text, seats=_or(names), why=_(why)),
                    opts, tuple((n, (o,)) for n, o in zip(names, opts)))


@dataclass
class Pending:
    """A question asked; a seat typed alone on the next line answers it."""

    question: Question
    rest: list[str] = field(default_factory=list)  # lines of the entry still to record after it

    def answer(self, text: str, seats: Sequence[str]) -> list[str] | None:
        ws = words_of(text)
        if len(ws) != 1:
            return None
        names = [n for n, _ in self.question.answers]
        hits = [i for i in seat_matches(ws[0], seats) if seats[i] in names]
        if len(hits) != 1:
            return None
        lines = dict(self.question.answers)[seats[hits[0]]]
        return list(lines) + self.rest
