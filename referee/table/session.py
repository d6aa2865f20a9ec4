"""The table's session, with no transport: the ``live`` session the table shares (the
entry reader and the referee's replay of :mod:`referee.table.live`), the record's version
(an entry made on an old one is refused, so nothing is recorded twice), the last ruling in
the sentences of :mod:`referee.table.answers`, and what every phone is shown (the replay
page's data, :func:`referee.table.page.game_data`, and the recorder's buttons).

Every phone reads it in its own language (issue 40): the state kept is the session and the
change last made (the entry, or undo), never its words; what the phones are shown is worded
per language when a phone in it first asks (``message(lang)``), and the last ruling by making
the change again, in that language, on a copy of the session before it (:class:`_Dry`, which
writes nothing). So two phones read the one ruling each in its own words, and the record
written and the data are the same whatever the language.

``serve`` puts it behind HTTP and server-sent events (:mod:`referee.web.app`); the offline
site runs it in the browser's Web Worker (:mod:`referee.site.table`). So nothing here
imports a server, a template engine or a terminal library.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.engine import cards as C
from referee.engine import language as L
from referee.engine import state as E
from referee.engine.codes import Code, say
from referee.engine.events import TakeHand
from referee.engine.language import N_
from referee.engine.language import gettext as _
from referee.engine.rules import RulesError, parse_spec
from referee.files import ABSENT, read_snapshot, reason_of, recover, remove_leftovers
from referee.review.hint import choice_words, hint_at
from referee.table import answers
from referee.table.entry import Lines, Question, read_entry, seat_matches
from referee.table.live import DEFAULT_SEATS, LiveError, Session, fresh_name, kind_of
from referee.table.page import card_data, game_data

Line = tuple[str, str]

# What live answers that the web has its own part for, or that would end a terminal session.
_STOP = N_("the server stops with Ctrl-C where it was started")
_BUTTONS = N_("use the buttons for undo, a new game and the questions")
_NOT_HERE = {"quit": _STOP, "exit": _BUTTONS, "q": _BUTTONS, "bye": _BUTTONS, "help": _BUTTONS, "h": _BUTTONS,
             "?": _BUTTONS, "show": _BUTTONS, "legal": _BUTTONS, "undo": _BUTTONS, "new": _BUTTONS}


class _Dry(Session):
    """The session as it was before a change, to say that change again in another phone's
    language (issue 40): the same entry, or undo, made again on this copy, which writes no
    file and reads none. Every phone sees the one ruling, each in its own words."""

    def save(self) -> None:
        return None

    def follow_file(self) -> tuple[list[Line], bool]:
        return [], True


def _dry(s: Session) -> _Dry:
    """A copy of ``s`` as it is now that a change to it never touches: its lists are its own
    (a change replaces the game, the result and the engine, it never alters them)."""
    d = _Dry(s.path, s.prefix, list(s.head), list(s.units), s.number, s.game, s.res, s.engine, s.rules,
             default=s.default, mode=s.mode)
    d.options = s.options.copy()
    d.pending, d.told_accepted, d.snap = s.pending, s.told_accepted, s.snap
    return d


class _Said:
    """One ruling, kept as what was done (the change, made again on a copy of the session
    before it) and said in each language a phone asks for, once."""

    def __init__(self, say: Callable[[], dict[str, Any]]) -> None:
        self.say = say  # the ruling in the current language
        self.words: dict[str, dict[str, Any]] = {}

    def said_in(self, lang: str) -> dict[str, Any]:
        got = self.words.get(lang)
        if got is None:
            with L.speaking(lang) as chosen:
                got = self.words[chosen] = self.say()
        return got


class _Shown:
    """What the phones are shown for one state of the table: the language-neutral part (the
    seats, their cards, the takes and draws as entries, the version), the session as it is
    (a copy to word it from) and the last ruling; worded per language when first asked."""

    def __init__(self, view: Session, live: dict[str, Any], said: _Said | None) -> None:
        self.view = view
        self.live = live
        self.said = said
        self.words: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {}


class Table:
    """The live session the table shares, its version, and the last ruling: what the
    phones are shown, and the entries, undo, new game and questions that change or ask it.

    No transport here: ``serve`` (:mod:`referee.web.app`) puts it behind HTTP and its event
    stream; the offline site's Web Worker (:mod:`referee.site.table`) calls it directly. What
    the phones are shown is computed after each change and put in place in one assignment
    (``_shown``)."""

    def __init__(self, session: Session, join: str | None, recorder: str,
                 seat_tokens: dict[str, str] | None = None, hints: bool = False) -> None:
        self.session = session
        self.hints = hints  # serve --hints: the Hint button (off unless the table asks for it)
        self.join = join
        self.recorder = recorder
        self.seat_tokens = seat_tokens or {}  # token -> the seat's name (--seat-phones)
        # The record's version: this run's mark and a count of changes. An entry carries the
        # version its phone saw; a retry of it (or a tap on a screen not yet redrawn) carries
        # an old one and is refused, so nothing is recorded twice. The mark keeps a phone's
        # page from a run before a restart from matching.
        self.run = secrets.token_hex(4)
        self.changes = 0
        self.made: dict[str, str] = {}  # version -> the entry that changed it (for "already recorded")
        self.answered = 0
        self.answer: dict[str, Any] | None = None  # the last ruling, in the language it was made in
        self._said: _Said | None = None  # the last ruling, to say in each phone's language
        self._shown = _Shown(_dry(session), {}, None)
        self._compute()

    @property
    def version(self) -> str:
        return f"{self.run}-{self.changes}"

    # ---- what every phone is shown --------------------------------------------------------

    def _live(self) -> dict[str, Any]:
        s = self.session
        e = s.engine
        seats = s.seats()
        lm = s.state()
        out: list[dict[str, Any]] = []
        v = e.view()
        idle = v.phase in (E.Phase.OVER, E.Phase.DRAW_DUE)
        hidden = set(v.hidden)
        for i in range(len(seats)):
            legal = e.legal(i)
            out_of_game = i in v.out_order
            legal_cards = C.sort_cards(legal.cards) if not idle and not out_of_game else []
            # The cards the seat may hold: its known cards, and the unseen ones if its hand has any.
            held = set(v.known[i]) | (hidden if v.sizes[i] > len(v.known[i]) else set())
            other = [] if idle or out_of_game else \
                [c for c in C.sort_cards(range(C.CARD_COUNT)) if c in held and c not in legal_cards]
            out.append({"seat": seats[i], "legal": [card_data(c) for c in legal_cards],
                        "other": [card_data(c) for c in other], "action": bool(legal_cards)})
        draws: list[str] = []
        if lm.draw is not None and lm.draw.source not in ("any",):
            src = "" if lm.draw.source == "waste" else f" from {lm.draw.source}"
            draws = [f"{lm.draw.seat} draws {c}{src}" for c in lm.draw.cards]
        turn = v.to_act
        takes = [a for a in e.legal_actions() if isinstance(a, TakeHand)]
        return {
            "version": self.version, "turn": "", "to_act": turn if turn >= 0 else None,
            "order": list(v.order), "seats": out, "takes": [f"{seats[a.taker]} takes {seats[a.target]}" for a in takes],
            "draws": draws, "undo": s.peek_undo() if s.units else "", "over": v.phase == E.Phase.OVER,
            "answer": None, "game": s.number, "hints": self.hints,
        }

    def _compute(self) -> None:
        """What the phones are shown, from the session as it is now (in the worker thread):
        the language-neutral part now, and its words in the current language (the phone's
        that made the change); another language's when a phone in it first asks."""
        shown = _Shown(_dry(self.session), self._live(), self._said)
        self._worded(shown, L.current())
        self._shown = shown

    @staticmethod
    def _worded(shown: _Shown, lang: str) -> tuple[dict[str, Any], dict[str, Any], str]:
        lang = L.known(lang) or L.ENGLISH
        got = shown.words.get(lang)
        if got is not None:
            return got
        with L.speaking(lang) as chosen:
            v = shown.view
            game = game_data(answers.walk(v.game, v.default))
            live = dict(shown.live, turn=v.turn_line(), answer=shown.said.said_in(chosen) if shown.said else None)
            got = shown.words[chosen] = (game, live, json.dumps({"game": game, "live": live}, ensure_ascii=False))
        return got

    def ready(self, lang: str) -> str | None:
        """The table's message in ``lang`` if it is worded already (None: :meth:`message`
        words it, which replays the game: ``serve`` does that in a worker thread)."""
        got = self._shown.words.get(L.known(lang) or L.ENGLISH)
        return got[2] if got is not None else None

    def message(self, lang: str | None = None) -> str:
        """The table as the phones are shown it now (JSON), in ``lang`` (a phone's language;
        None: the current one): its sentences in that language, its data the same in all."""
        return self._worded(self._shown, lang or L.current())[2]

    def shown(self, lang: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The game's page data and the live part, as the phones are shown them now, in
        ``lang`` (None: the current language)."""
        game, live, _text = self._worded(self._shown, lang or L.current())
        return game, live

    # ---- changing the record (the recorder, or a seat's own phone) ------------------------

    def _say(self, lines: list[Line], redo: Callable[[], tuple[list[Line], Session]] | None) -> dict[str, Any]:
        """The ruling of a change just made (``lines``, said in the current language), kept
        so that it can be said in every phone's language: ``redo`` makes the change again on
        a copy of the session before it and says it in the language current then (None:
        the lines are the same in every language)."""
        self.answered += 1
        n = self.answered
        first = _ruling(n, lines, self.session)
        said = _Said((lambda: _ruling(n, *redo())) if redo is not None else (lambda: first))
        said.words[L.current()] = first
        self._said = said
        self.answer = said.words[L.current()]
        return self.answer

    @staticmethod
    def refuse_body(text: object, version: object) -> str | None:
        """Why an entry's body is not one entry a phone could have sent (None: it is): one
        line of text, with the version of the record it was made on. The served table and
        the offline site answer alike."""
        if not isinstance(text, str) or not text.strip() or "\n" in text or "\r" in text:
            return _("one entry, on one line")
        if not isinstance(version, str):
            return _("an entry carries the version of the record it was made on (the page sends it: load the "
                     "page again)")
        return None

    def stale(self, version: str, text: str) -> str | None:
        """Why an entry made on ``version`` of the record is not taken (None: it is current)."""
        if version == self.version:
            return None
        if self.already(version, text):
            return _("already recorded: '{entry}' (sent twice; it is in the record once)").format(entry=text.strip())
        return _("the record changed since this screen was drawn: look at the table again, then enter it")

    def already(self, version: str, text: str) -> bool:
        """Whether ``text`` made on ``version`` is a retry of an entry recorded then."""
        return version != self.version and self.made.get(version) == _same(text)

    def enter(self, text: str, seat: str | None = None) -> dict[str, Any]:
        """Record one entry; ``seat``: the entry comes from that seat's own phone and may
        only be that seat's play, take or draw. The ruling is said in the current language,
        and in another phone's when it asks (the entry made again on a copy of the session)."""
        word = " ".join(text.lower().split())
        if word in _NOT_HERE:
            self.answered += 1
            n = self.answered

            def not_here() -> dict[str, Any]:
                why = _("'{entry}' is not an entry here: {why}").format(entry=text.strip(), why=_(_NOT_HERE[word]))
                return {"n": n, "kind": "rejected", "text": why, "why": "", "alert": True}

            said = _Said(not_here)
            said.words[L.current()] = self.answer = not_here()
            self._said = said
            self._compute()
            return self.answer
        entered = text
        if seat is not None:
            own = self._own_lines(text, seat)
            if isinstance(own, str):
                raise SeatError(own)
            entered = "; ".join(own)
        version, before = self.version, self.session.file_text()
        # A change on disk is taken in first, so that the copy kept to say the ruling again
        # is the session the entry is made on.
        news, go_on = self.session.follow_file()
        kept = _dry(self.session)
        lines = news + (self.session.handle(entered)[0] if go_on else [])

        def redo() -> tuple[list[Line], Session]:
            again = _dry(kept)
            return news + again.handle(entered)[0], again

        self._say(lines, redo if go_on else None)
        if self._changed(before):
            self.made[version] = _same(text)
            while len(self.made) > 64:
                del self.made[next(iter(self.made))]
        assert self.answer is not None
        return self.answer

    def _own_lines(self, text: str, name: str) -> list[str] | str:
        """The notation lines of an entry from ``name``'s own phone, if it is only that seat's
        own plays, take or draw; else why not. A card typed alone is the seat's own."""
        s = self.session
        seats = s.seats()
        if name not in seats:
            # the catalogue's words for a seat the game does not have (S003's label)
            return _("{seat} is {label}: this phone records nothing now").format(
                seat=name, label=say(Code.UNKNOWN_SEAT, name=name, seats="").label)
        if "#" in text:
            return _("a seat's phone records plays, takes and draws, without comments")
        reading = read_entry(text, seats, s.engine)
        if isinstance(reading, Question):
            mine = [o for o in reading.options if all(part.strip().startswith(name + " ") or part.strip().startswith("? ")
                                                     for part in o.split(";"))]
            if len(mine) != 1:
                return _("this phone records {seat}'s plays only: '{entry}' is not read as one of them").format(
                    seat=name, entry=text.strip())
            lines = [part.strip() for part in mine[0].split(";")]
        elif isinstance(reading, Lines):
            lines = list(reading.lines)
        else:
            return _("not recorded: {why}").format(why=reading.why)
        lines = [f"{name} {line[2:]}" if line.startswith("? ") else line for line in lines]
        if not lines or any(not line.startswith(name + " ") for line in lines):
            return _("this phone records {seat}'s plays only").format(seat=name)
        return lines

    def undo(self, expect: str) -> tuple[int, dict[str, Any]]:
        s = self.session
        if not s.units:
            return 409, {"error": _("nothing to undo")}
        if s.peek_undo() != expect:
            # The record changed since the phone asked: it confirms what it saw, nothing else.
            return 409, {"error": _("the last entry is now '{now}', not '{entry}': look again").format(
                now=s.peek_undo(), entry=expect)}
        before = s.file_text()
        kept = _dry(s)
        lines = s.undo()

        def redo() -> tuple[list[Line], Session]:
            again = _dry(kept)
            return again.undo(), again

        self._say(lines, redo)
        self._changed(before)
        return 200, {"answer": self.answer}

    def new_game(self) -> dict[str, Any]:
        before = self.session.file_text()
        # Not made again on a copy: a new game writes its file as it starts. Its line (the
        # seats and the rules) is the same in every language.
        ruling = self._say(self.session.new_game(), None)
        self._changed(before)
        return ruling

    def _changed(self, before: str) -> bool:
        moved = self.session.file_text() != before
        if moved:
            self.changes += 1
        self._compute()
        return moved

    # ---- asking (anyone) --------------------------------------------------------------------

    def ask(self, question: str, seat: str | None) -> str:
        """A question's answer, in the current language (the asking phone's)."""
        s = self.session
        if seat:
            hits = seat_matches(seat, s.seats())
            if len(hits) != 1:
                return _("No seat of this game is called {seat}.").format(seat=seat)
            return self._seat_legal(hits[0])
        if question not in ("who", "why", "hands", "legal"):
            return _("Ask who leads, why, the hands, or what may be played.")
        return answers.live_answer(question, s.game, s.res)

    def hint(self, seat: str | None = None) -> dict[str, Any]:
        """The Hint button's answer (issue 41): the pimc bot's choice for the seat to act (or
        ``seat``) and each choice's chance of losing from what that seat knows, in words and
        as data; refused unless the table was started with hints on."""
        s = self.session
        if not self.hints:
            return {"answer": _("Hints are off at this table: the server was started without --hints."), "hint": None}
        who = None
        if seat:
            hits = seat_matches(seat, s.seats())
            if len(hits) != 1:
                return {"answer": _("No seat of this game is called {seat}.").format(seat=seat), "hint": None}
            who = hits[0]
        h = hint_at(s.game, s.res.rules, seat=who)
        data = None
        if h.choice is not None and h.seat is not None:
            data = {"seat": s.seats()[h.seat], "choice": choice_words(h.choice, s.seats()), "exact": h.exact,
                    "samples": h.weighed[0].samples if h.weighed else 0,
                    "chances": [{"choice": choice_words(w.action, s.seats()), "chance": w.chance} for w in h.weighed]}
        return {"answer": h.sentence, "hint": data}

    def _seat_legal(self, i: int) -> str:
        """What one seat may play now: the engine's legal answer for it, in words."""
        s = self.session
        e = s.engine
        name = s.seats()[i]
        v = e.view()
        if v.phase == E.Phase.OVER:
            return _("The game is over; {seat} plays nothing.").format(seat=name)
        if i in v.out_order:
            return _("{seat} got away and plays no more.").format(seat=name)
        whole = answers.live_answer("legal", s.game, s.res)
        if v.to_act == i:
            return whole  # the seat to act: the legal answer is about it already
        cards = " ".join(C.card_str(c) for c in C.sort_cards(e.legal(i).cards))
        if not cards:
            return _("{seat} may not play now. {legal}").format(seat=name, legal=whole)
        if v.sizes[i] > len(v.known[i]):
            return _("{seat} may play {cards} (of the cards known; unseen cards the rules allow too). {legal}").format(
                seat=name, cards=cards, legal=whole)
        return _("{seat} may play {cards}. {legal}").format(seat=name, cards=cards, legal=whole)


def _ruling(n: int, lines: list[Line], s: Session) -> dict[str, Any]:
    """A change's ruling (number ``n``) from its lines, with ``s`` the session after it: the
    one sentence of ``ask`` for what was recorded (or why it was not), and the referee's
    lines behind it for "why"."""
    kept = [(t, style) for t, style in lines if t not in ("@show", "@legal") and style != "turn" and t.strip()]
    said = [t for t, _style in kept]
    first = said[0] if said else ""
    kind = kind_of(first) if first else "note"
    text = first
    # "Why?" is the referee's lines: the list of the entries live accepts is the typist's
    # help (the page has its own), not a reason.
    why = [t for t, style in kept[1:] if style != "help"]
    if kind == "recorded":
        text = answers.live_answer("why", s.game, s.res)
        why = said
    # alert: a mistake found or an entry refused, which the phones' screen readers say at once
    alert = any(style in ("mistake", "error") for _t, style in kept)
    return {"n": n, "kind": kind, "text": text, "why": "\n".join(w.strip() for w in why), "alert": alert}


class SeatError(Exception):
    """An entry from a seat's phone that is not that seat's own."""


def _same(text: str) -> str:
    return " ".join(text.lower().split())


# ---- opening the record -------------------------------------------------------------------------


def open_session(file: Path | None, seats: str | None, rules: str | None, deal: str | None) -> tuple[Session, bool]:
    """The record's last game continued, or a new game, as ``live`` opens it; and whether
    the file is new (then it is first written with the first entry, so that a server
    started and stopped leaves nothing behind)."""
    if file is not None:
        return _open(file, file.exists(), seats, rules, deal)
    path = fresh_name(Path("."))  # created empty, to hold the name
    try:
        return _open(path, False, seats, rules, deal)
    except BaseException:
        if path.exists() and path.stat().st_size == 0:
            path.unlink()
        raise


def _open(path: Path, existed: bool, seats: str | None, rules: str | None, deal: str | None) -> tuple[Session, bool]:
    new = not existed
    default = None
    if rules:
        try:
            default = parse_spec(rules)
        except RulesError as ex:
            raise LiveError(f"--rules: {ex.message}") from None
    text: str | None = None
    mode: int | None = None
    if path.is_dir():
        raise LiveError(_("{file} is a directory").format(file=path))  # live's sentences, in serve's language
    recover([path])  # a rewrite of it cut short by a kill: put back before it is read
    remove_leftovers(path)  # a temporary file of a write killed before its rename (ours, by name)
    if path.exists():
        try:
            raw, snap = read_snapshot(path)
            text = raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise LiveError(_("{file} is not UTF-8 text: not a .gwy record").format(file=path)) from None
        except OSError as ex:
            raise LiveError(f"{path}: {reason_of(ex)}") from None
        mode = path.stat().st_mode & 0o777
    elif not path.parent.exists():
        raise LiveError(_("{dir}: no such directory").format(dir=path.parent))
    else:
        snap = ABSENT
    session = Session.resume(path, text, default=default, mode=mode) if text and text.strip() else None
    if session is None:
        session = Session.start(path, text, seats.split() if seats else DEFAULT_SEATS.split(), rules or "pagat", deal,
                                default=None, mode=mode)
        session.snap = snap
        if not new:
            session.save()  # a record with no game yet (empty, or only its version line) gets its game now
    else:
        session.snap = snap
    session.options = {"seats": seats.split() if seats else None, "rules": rules, "deal": deal}
    return session, new


__all__ = ["SeatError", "Table", "open_session"]
