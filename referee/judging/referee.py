"""The referee: replay a game record through the engine and judge every action.

For each game: check the deal or position (every card in one place, sizes that add up),
then replay each play, take, draw and count in order, asking the engine whether it is
legal. A mistake at the table (M2xx) gets ruling 1's penalty; a record that cannot be true
(R1xx) is an error in the record (ruling 5). After a mistake the record may go on as if the
penalty was applied (accepted silently) or as if nobody noticed (said once, in a note of
the same diagnostic, and followed). One mistake gives one diagnostic.

Where hands were not seen, the referee judges what can be known: hand sizes, where each
card is, and voids. A player who plays off suit shows that their unseen cards hold none of
the suit led; a later play of that suit from those cards proves the renege, reported at
the tochoo with a note pointing at the proof.

The :class:`Referee` holds only its settings. Each game is judged by a
:class:`~referee.judging.setup.Judging` (judging/setup.py: the record, the rule set and the
findings; the deal or position is checked with it) and then replayed by a :class:`_Walk`,
made once the engine exists, which holds the engine and the replay's bookkeeping for that
game alone (mistakes and ruling 1's penalties included): nothing of one game is left for the
next. What a game's judging gives, :class:`GameResult` and :class:`Step`, is in
judging/result.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Final

from referee.engine import cards as C
from referee.engine import state as E
from referee.engine.codes import Code, say
from referee.engine.events import (
    ANY_SOURCE,
    CloseTrick,
    DrawCard,
    Effect,
    ForceDraw,
    ForgetVoid,
    LegalReason,
    MarkVoid,
    MoveFromWaste,
    MoveHand,
    Penalise,
    PlayAnyway,
    RecordAction,
    RevealCard,
    SwapFromWaste,
    TakeHand,
    VoidShown,
    card_effect,
)
from referee.engine.language import N_, gettext, ngettext
from referee.engine.rules import RulesError, RuleSet, rule_set
from referee.judging import wording as W
from referee.judging.lookahead import Entry, after, best_trial, play_card, play_of, seats_for
from referee.judging.result import GameResult as GameResult
from referee.judging.result import Step as Step
from referee.judging.result import Stopped, diagnostic
from referee.judging.setup import Judging
from referee.notation.reader import parse_result, readable_part
from referee.notation.record import (
    Counts,
    Draw,
    Game,
    Play,
    Span,
    Take,
    Trick,
)
from referee.reports.diagnostics import Diagnostic, PenaltyFacts, Related, judged_to

# Ruling 1: a mistake the table played on within its trick; the note is taken back if the
# penalty is found applied when the trick was over.
PLAYED_ON: Final = N_("the penalty was not applied: play went on with this trick, and the referee follows the record as "
               "played")


def resolve_rules(game: Game, default: RuleSet | None = None, overrides: Mapping[str, object] | None = None,
                  force: bool = False) -> RuleSet:
    """The rule set a game is judged by: its [Rules] tag, else ``default``; with ``force``
    the default wins over the tag; ``overrides`` (from --set) always apply."""
    tag = game.tag("Rules")
    if tag and not (force and default is not None):
        rules = rule_set(tag)  # read once per spec
    else:
        rules = default or rule_set("pagat")
    if overrides:
        rules = rules.with_options(**overrides)
    return rules


def _entries(game: Game) -> list[Entry]:
    """The record flattened to its plays, takes, draws and counts, in order (see
    lookahead.Entry): a trick line's entries are made by zip, from its seats and cards."""
    events: list[Entry] = []
    _extend, append = events.extend, events.append
    for a in game.actions:
        if isinstance(a, Trick):
            seats, cards, number = a.seats, a.cards, a.number
            for i in range(len(seats)):
                append(("play", seats[i], cards[i], number, a, i))
        elif isinstance(a, Take):
            append(("take", -1, -1, None, a, -1))
        elif isinstance(a, Draw):
            append(("draw", -1, -1, None, a, -1))
        elif isinstance(a, Counts):
            append(("counts", -1, -1, None, a, -1))
    return events


def _seat_or_suit(v: E.Verdict) -> int:
    """The seat or suit a verdict names (-1: none): the suit held for a renege, whose turn
    it was, the hand that may be taken, the seat that must draw."""
    d = v.detail
    if isinstance(d, E.SuitHeld):
        return d.suit
    if isinstance(d, E.TurnOf):
        return d.seat
    if isinstance(d, E.TakeOnly):
        return d.target
    if isinstance(d, E.DrawDueFrom):
        return d.drawer
    return -1


class Referee:
    """Judges games. ``keep_engine`` keeps the final state (for show and legal)."""

    result: GameResult  # the last game's, once its walk has begun

    def __init__(self, default: RuleSet | None = None, overrides: Mapping[str, object] | None = None,
                 force: bool = False, keep_engine: bool = False, stop_after: int | None = None) -> None:
        self.default = default
        self.overrides: Mapping[str, object] = overrides or {}
        self.force = force
        self.keep_engine = keep_engine
        self.stop_after = stop_after  # replay only up to and including this trick

    def judge(self, game: Game) -> GameResult:
        """Judge a whole game: the replay walked to its end."""
        # The same walk as steps(), told that nobody reads the steps: it does not make them.
        for _ in self._walk(game, False, False):
            pass
        return self.result

    def steps(self, game: Game, snapshots: bool = False) -> Iterator[Step]:
        """Replay the game, yielding a :class:`Step` for every play, take, draw and count
        of the record, in order. ``self.result`` holds the :class:`GameResult` once the walk
        is over. With ``snapshots`` each step's ``before`` is a copy of the state before the
        item (for hover, pages and answers); without, the walk allocates nothing per step
        beyond the step itself."""
        yield from self._walk(game, snapshots, True)

    def _walk(self, game: Game, snapshots: bool, with_steps: bool) -> Iterator[Step]:
        """The walk of steps() and judge(); without ``with_steps`` it yields nothing and
        only builds the result (what judge() needs)."""
        if game.written_order is not None:
            self._settle_order(game)
        if game.errors:
            part = readable_part(game)
            if part is not None:
                yield from self._walk_to_break(game, *part, snapshots, with_steps)
                return
            self.result = GameResult(game, None, sorted(list(game.errors) + list(game.findings),
                                                        key=lambda d: d.span.start if d.span else 0), judged=False,
                                     stopped=gettext("the game has syntax errors and is not replayed"))
            return
        try:
            rules = resolve_rules(game, self.default, self.overrides, self.force)
        except (RulesError, ValueError) as ex:
            res = GameResult(game, None, judged=False, stopped=gettext("its rule set cannot be read"))
            res.diagnostics.append(diagnostic(game, Code.BAD_RULES, str(ex), game.span, trick=None))
            self.result = res
            return
        res = GameResult(game, rules, list(game.findings))
        self.result = res
        if game.setup is None:
            res.judged = False
            res.stopped = gettext("the record has no deal or position")
            return
        try:
            engine = Judging(game, res, rules).setup(game.setup)
        except Stopped as stop:
            res.stopped = str(stop)
            return
        walk = _Walk(game, res, rules, engine, self.stop_after)
        try:
            yield from walk.replay(snapshots, with_steps)
        except Stopped as stop:
            res.stopped = str(stop)
        walk.finish(self.keep_engine)

    def _walk_to_break(self, game: Game, part: Game, cut: int, snapshots: bool, with_steps: bool) -> Iterator[Step]:
        """A game with a line that cannot be read, judged up to that line (the reader's
        readable_part); the reading errors follow the findings, and the [Result] tag, which
        speaks of the whole game, is not checked."""
        yield from self._walk(part, snapshots, with_steps)
        res = self.result
        res.diagnostics = [d for d in res.diagnostics if d.code != Code.RESULT_CONTRADICTS] + list(game.errors)
        if res.stopped is None:
            res.stopped = judged_to(cut)


    def _settle_order(self, game: Game) -> None:
        """Trick lines stand in another order than their numbers (the reader put them in
        number order, with R117). Ruling 10: the written order is the order of play unless
        the number order explains the record with no mistake or error where the written
        order needs one. Both are judged; when the number order does not do better, the
        written order stands and the numbers are what is wrong (S008, reported with the
        findings: the game is replayed as written)."""
        assert game.written_order is not None
        written, misnumbered = game.written_order
        game.written_order = None

        def failing(actions: list[object]) -> set[tuple[str, int, int]] | None:
            trial = replace(game, actions=actions, findings=[], errors=[], written_order=None)
            res = Referee(self.default, self.overrides, self.force).judge(trial)
            if res.rules is None:
                return None
            return {(d.code, d.span.line if d.span else 0, d.span.col if d.span else 0)
                    for d in res.diagnostics if d.is_error}

        if not game.errors:  # a game with reading errors is not replayed: nothing to compare
            by_number, as_written = failing(game.actions), failing(written)
            if by_number is not None and as_written is not None and by_number < as_written:
                return  # the numbers tell the order of play: R117 stands
        game.actions = written
        # The lines read well and are replayed as written: only their numbers are wrong, an
        # error of the record (S008) that fails the check but breaks nothing before it.
        game.findings = [d for d in game.findings if d.code != Code.TRICK_LINES_OUT_OF_ORDER] + list(misnumbered)


def judge(game: Game, *, default: RuleSet | None = None, overrides: Mapping[str, object] | None = None,
          force: bool = False, keep_engine: bool = False, stop_after: int | None = None) -> GameResult:
    """Judge one game: replay it through the rules engine and return what was found (its
    diagnostics, the loser if it is over). ``default`` is the rule set of a game whose record
    names none, ``overrides`` options set in every game (``force``: the default wins over the
    record's own); ``keep_engine`` keeps the engine at the end for a caller that asks it more."""
    return Referee(default, overrides, force, keep_engine, stop_after).judge(game)


# ---- the replay of one game ---------------------------------------------------------------------


class _Walk(Judging):
    """The replay of one game through its engine, made once the deal or position is found
    true: the engine is whole from the first item to the last (a penalty or the look-ahead
    may replace it with another state of the same game), and so is the bookkeeping below."""

    __slots__ = (
        "_events",
        "closed_rec",
        "count_offset",
        "deferred",
        "engine",
        "late_penalty",
        "open_rec",
        "proved",
        "stop_after",
    )

    def __init__(self, game: Game, res: GameResult, rules: RuleSet, engine: E.Engine,
                 stop_after: int | None) -> None:
        super().__init__(game, res, rules)
        self.engine = engine
        self.stop_after = stop_after  # replay only up to and including this trick
        # The record flattened (see lookahead.Entry), made only when an item off the plain
        # path looks ahead or behind: the walk itself reads the record's tricks.
        self._events: list[Entry] | None = None
        self.closed_rec: int | None = None  # the record's number of the trick the engine ended last
        self.open_rec: int | None = None    # the record's number of the trick on the table
        self.proved: set[tuple[int, int, int]] = set()  # renege proofs said: (seat, suit, id of the tochoo)
        self.count_offset: dict[int, int] = {}
        self.deferred: list[Take] = []  # takes written inside a trick (R109)
        # (offender, diagnostic) while a trick goes on after a mistake
        self.late_penalty: tuple[int, Diagnostic] | None = None

    @property
    def events(self) -> list[Entry]:
        """The record flattened, in the order the walk judges it: entry k is item k of
        the walk (a play, take, draw or count; comments are not items)."""
        events = self._events
        if events is None:
            events = self._events = _entries(self.game)
        return events

    def finish(self, keep_engine: bool) -> None:
        """The result's facts from the final state; the record's [Result] tag checked."""
        e, res = self.engine, self.res
        v = e.outcome()
        # Tricks played to, the one on the table included (the record may end inside it).
        res.tricks = v.tricks
        res.out_order = list(v.out_order)
        res.sizes = list(v.sizes)
        res.finished = v.phase == E.OVER
        if res.finished:
            res.loser, res.legs = v.loser, v.legs
        if (res.stopped is None or res.finished) and self.stop_after is None:
            self._check_result(v)
        if keep_engine:
            res.engine = e

    def replay(self, snapshots: bool, with_steps: bool) -> Iterator[Step]:
        """Judge the record's items in order, yielding a Step for each when ``with_steps``.
        A trick's plays are read as its seats and cards: the walk makes no object per play
        (issue 16). ``k`` counts the items, as the flattened record (``events``) does."""
        stop_after = self.stop_after
        IN_TRICK, BETWEEN, Illegal = E.IN_TRICK, E.BETWEEN, E.IllegalAction
        plays = seats_for(len(self.game.seats))  # PlayCard(seat, card), made once, not per play
        # Every hand known (Engine.hands_seen; it stays so), and the trick on the table led by
        # a plain lead with more than two players in the game: each card played to it is
        # plain (Engine.plain_phase would say IN_TRICK), so it is not asked play by play.
        # Anything off the plain path ends this; a seen game is asked again after it.
        seen = self.engine.hands_seen()
        steady = False
        k = 0
        for a in self.game.actions:
            if isinstance(a, Trick):
                tno = a.number
                if stop_after is not None and tno > stop_after:
                    break
                seats, cards = a.seats, a.cards
                e = self.engine  # read again after _item, which may put another in its place
                for i in range(len(seats)):
                    # docs/rulings.md, ruling 10: the plays are judged in the order written.
                    s, c = seats[i], cards[i]
                    # The plain play of nearly every item: a known card, in turn, to the trick
                    # the record is writing (or a lead to the next one), with more than two
                    # players in the game (Engine.plain_phase). It is judged and applied by
                    # the engine alone (apply raises, and changes nothing, if the rules do not
                    # allow it); _item takes every other case, and any play the engine does not
                    # accept, and does for this one exactly what is done here.
                    phase = IN_TRICK if steady else e.plain_phase(s, c)
                    if phase == IN_TRICK:
                        plain = tno == self.open_rec
                    else:
                        plain = phase == BETWEEN and not self.deferred and tno != self.closed_rec
                    if plain:
                        try:
                            if with_steps:
                                before = e.copy() if snapshots else e
                                events = e.apply(plays[s][c])
                                on = e.in_trick()
                            else:  # judge(): the same, with no action object and no events
                                on = e.play_card(s, c)
                        except Illegal:
                            pass  # a mistake or an error in the record: judged by _item
                        else:
                            if not on:  # no trick on the table after a play to one (or a lead): it ended
                                self.closed_rec = tno
                                steady = False
                                if phase != IN_TRICK:
                                    self.open_rec = tno
                            elif phase != IN_TRICK:  # a lead: the trick it opens
                                self.open_rec = tno
                                steady = seen and e.in_game_count() > 2
                            if with_steps:  # judge() reads only the result: nothing to hand over
                                yield Step(a.plays[i], tno, before, e, events, [])
                            k += 1
                            continue
                    steady = False
                    yield from self._item(k, s, c, tno, a, i, snapshots, with_steps)
                    e = self.engine
                    seen = e.hands_seen()
                    k += 1
            elif isinstance(a, (Take, Draw, Counts)):
                steady = False
                yield from self._item(k, -1, -1, None, a, -1, snapshots, with_steps)
                seen = self.engine.hands_seen()
                k += 1
        self.res.items = k

    def _item(self, k: int, s: int, c: int, tno: int | None, a: Trick | Take | Draw | Counts, i: int,
              snapshots: bool, with_steps: bool) -> Iterator[Step]:
        """Item ``k`` of the record, off the plain path: play ``i`` of trick line ``a`` (``s``
        plays ``c`` to the record's trick ``tno``), or the take, draw or count ``a``."""
        e = self.engine
        before = e.copy() if snapshots else e
        marks = (e.event_count(), len(self.res.diagnostics))
        play = isinstance(a, Trick)
        if e.played_on() and (not play or tno != self.open_rec):
            if not isinstance(a, Take) or self.late_penalty is None:
                self._close_lenient(k)
        if self.deferred and self.engine.current_phase() in (E.BETWEEN, E.BEFORE_FIRST) and not isinstance(a, Take):
            self._take_deferred()
        try:
            if isinstance(a, Trick):
                assert tno is not None
                self._play(k, s, c, tno)
            elif isinstance(a, Take):
                self._take(a)
            elif isinstance(a, Draw):
                self._draw(a)
            else:
                self._counts(a)
        finally:
            res = self.res
            res.off_path[k] = (marks[0], self.engine.event_count(), marks[1], len(res.diagnostics))
            res.items = k + 1
            if with_steps:
                after = self.engine
                item = a if not isinstance(a, Trick) else a.plays[i]
                yield Step(item, tno, before, after, after.events_since(marks[0]), self.res.diagnostics[marks[1]:])

    def _close_lenient(self, k: int) -> None:
        """End a trick that went on after a mistake. The table may have applied the penalty
        when the trick was over (the first trick is played in any order, so this is how a
        table often does it): the offender picks up the whole trick and leads. Which of the
        two the table did, the rest of the record decides (lookahead.trial: the next lead,
        every later count, every later play of the trick's cards); on a tie the trick ended
        as it was played, as the record shows play going on."""
        e = self.engine
        before = e.trick_number()
        late, self.late_penalty = self.late_penalty, None
        if late is not None:
            offender, diag = late
            normal = e.copy()
            normal.apply_mistake(CloseTrick(), events=False)
            pen = e.copy()
            pen.apply_mistake(Penalise(offender, None), events=False)
            chosen = best_trial([("normal", normal), ("penalty", pen)], self.events, k)
            if chosen == "penalty":
                self.engine = pen
                self.closed_rec = self.open_rec
                diag.notes = [n for n in diag.notes if n != gettext(PLAYED_ON)]
                diag.notes.append(gettext("the penalty was applied when the trick was over: {seat} picked up every "
                                          "card of it and led next").format(seat=self.seat(offender)))
                if diag.penalty is not None:
                    p = diag.penalty
                    p.applied, p.cards = True, len(pen.view().last_trick)
                    if pen.current_phase() == E.OVER:
                        p.leads = None
                    diag.help = W.penalty_help(p.seat, p.cards, p.trick, p.leads, p.leader)
                return
        e.apply_mistake(CloseTrick(), events=False)
        if e.trick_number() != before:
            self.closed_rec = self.open_rec

    # plays ------------------------------------------------------------------------------------

    def _play_at(self, k: int) -> Play:
        """The Play of entry ``k`` (a play): made only when a diagnostic needs where it is
        written, as the plain plays of a record never do."""
        entry = self.events[k]
        assert entry[0] == "play"
        return play_of(entry)

    def _play(self, k: int, s: int, c: int, tno: int) -> None:
        """Entry ``k``: ``s`` plays ``c`` to the record's trick ``tno``."""
        e = self.engine
        in_trick = e.current_phase() == E.IN_TRICK
        late = not in_trick and self.closed_rec is not None and tno == self.closed_rec
        if in_trick and self.open_rec is not None and tno != self.open_rec:
            self._unfinished(self._play_at(k), tno)
        # One verdict per play: record errors (R...) first, then table mistakes (M...). A late
        # card goes to the trick the engine has already ended (the record continues it).
        v = e.verdict(PlayAnyway(s, c, late=True) if late else play_card(s, c))
        known = e.holds_known(s, c)
        if v is None and known:
            self._apply(s, c, tno, k)  # the common case, with nothing to prove or report
            return
        play = self._play_at(k)
        if v is not None and v.code.startswith("R"):
            self._record_error(v, play, tno)
            if not self._follow_record_error(v, s, c, play, tno, k):
                raise Stopped(gettext("from here the record cannot be replayed"))
            return
        # A play of a suit the seat's unseen cards were shown to lack proves a renege.
        if not known:
            ref = e.unseen_void(s, C.SUIT[c])
            if ref is not None:  # the referee's own (_apply); None: no void shown
                self._renege_proved(s, c, play, ref)
        if v is None:
            self._apply(s, c, tno, k)
            return
        self._mistake(k, play, tno, v, late)

    def _follow_record_error(self, v: E.Verdict, s: int, c: int, play: Play, tno: int, k: int) -> bool:
        """Ruling 5: after an error in the record, follow the record where the state allows
        it, so that one bad line does not hide the rest of the game. False: it cannot be
        followed, and the replay stops."""
        if v.code == Code.SEAT_OUT:
            return True  # the play cannot have happened: passed over
        if v.code == Code.IN_WASTE and self._follow(SwapFromWaste(s, c)):
            self._play_followed(s, c, play, tno, k)
            return True
        if v.code == Code.DRAW_OUT_OF_PLACE and self._follow(ForceDraw(s, c)):
            # The draw was not written: the card led is the card drawn.
            self._play_followed(s, c, play, tno, k)
            return True
        return False

    def _follow(self, action: RecordAction) -> bool:
        """Follow the record where the rules cannot allow it (ruling 5), if the state can:
        False, and nothing changed, if it cannot."""
        try:
            self.engine.apply_mistake(action, events=False)
        except E.CannotFollow:
            return False
        return True

    def _play_followed(self, s: int, c: int, play: Play, tno: int, k: int) -> None:
        """A play followed after a record error: judged and applied like any other."""
        e = self.engine
        v = e.verdict(play_card(s, c))
        if v is None:
            self._apply(s, c, tno, k)
        elif not v.code.startswith("R"):
            self._mistake(k, play, tno, v, False)

    def _unfinished(self, play: Play, tno: int) -> None:
        """The record starts a new trick while the engine still waits for plays to the last
        one: the record left it unfinished. Said once; the trick ends as the table left it."""
        e = self.engine
        missing = [self.seat(t) for t in e.waiting()]
        first = e.view().first_trick
        who = W.listed(missing) if missing else gettext("nobody")
        self.tell(Code.TRICK_NOT_FINISHED, play.seat_span, "many" if len(missing) > 1 else "", "first" if first else "",
                  trick=self.open_rec, who=who, next=tno,
                  help=ngettext("add the missing play to trick {trick}", "add the missing plays to trick {trick}",
                                len(missing)).format(trick=self.open_rec))
        before = e.trick_number()
        e.apply_mistake(CloseTrick(), events=False)
        if e.trick_number() != before:
            self.closed_rec = self.open_rec
        self.open_rec = None

    def _record_error(self, v: E.Verdict, play: Play, tno: int) -> None:
        view = self.engine.view()
        s, c = play.seat, play.card
        name, card = self.seat(s), C.card_str(c)
        if v.code == Code.AFTER_END:
            w = say(Code.AFTER_END, "", "two_players" if view.ended_by == "two_players" else "",
                    seat=name, card=card, loser=self.seat(view.loser))
            self.report(Code.AFTER_END, w.message, play.card_span, label=w.label, notes=w.notes,
                        help=gettext("remove the plays after the end, or check the tricks before"), trick=tno)
        elif v.code == Code.SEAT_OUT:
            w = say(Code.SEAT_OUT, seat=name, card=card)
            self.report(Code.SEAT_OUT, w.message, play.seat_span, label=w.label, notes=w.notes, trick=tno)
        elif v.code == Code.DRAW_OUT_OF_PLACE:
            due = v.detail
            assert isinstance(due, E.DrawDueFrom)
            d = self.seat(due.drawer)
            source = due.source  # a seat, ANY_SOURCE (any other hand), or None: the waste pile
            src = W.source_words(source, self.game.seats)
            w = say(Code.DRAW_OUT_OF_PLACE, "play", drawer=d, source=src)
            # The entry to add is the notation's (language-neutral): "West draws CARD from North".
            entry = f"{d} draws CARD" + ("" if source is None or source == ANY_SOURCE or source < 0
                                         else f" from {self.seat(source)}")
            self.report(Code.DRAW_OUT_OF_PLACE, w.message, play.card_span, label=w.label, notes=w.notes,
                        help=gettext("add '{entry}' before this trick").format(entry=entry), trick=tno)
        else:
            r, holder = v.reason, ""
            if r.startswith("seat:"):
                how, holder = "seat", self.seat(int(r[5:]))
            elif r in ("trick", "waste"):
                how = r
            elif r == "hidden":
                how = "none_unseen" if view.sizes[s] == len(view.known[s]) else "shown_void"
            else:
                how = "played"
            code = Code.IN_WASTE if v.code == Code.IN_WASTE else Code.NOT_IN_HAND
            w = say(code, how, seat=name, card=card, holder=holder)
            self.report(code, w.message, play.card_span, label=w.label, notes=w.notes,
                        help=gettext("check this card and the deal"), trick=tno)

    def _apply(self, s: int, c: int, tno: int, k: int) -> None:
        """A legal play, entry ``k``: apply it, and learn voids from an off-suit card."""
        e = self.engine
        lower = e.lower_card_instead(s, c)
        if lower >= 0:
            self._note_lower_card(self._play_at(k), tno, lower)
        leading = e.current_phase() in (E.BETWEEN, E.BEFORE_FIRST)
        before = e.trick_number()
        # The suits this card shows the seat's unseen cards lack (a card of another suit from
        # unseen cards), asked before the play changes the trick.
        voids = e.shows_void(s, c)
        first, led = False, -1
        if voids:
            t = e.turn()
            first, led = t.first_trick, C.SUIT[t.trick[0][1]]
        # A tochoo from unseen cards that could have held the suit led: keep the state, in
        # case the record shows the table penalising it as a renege (see below).
        snapshot = e.copy() if e.could_have_followed(s, c) else None
        e.apply(play_card(s, c), events=False)
        if leading:
            self.open_rec = tno
        ended = e.trick_number() != before
        if snapshot is not None and (ended or e.current_phase() == E.IN_TRICK):
            # Penalised means the offender, not the tochoo's winner, holds the trick's cards.
            if self._penalty_shown(k, s, c, snapshot, e):
                self.engine = e = snapshot
                w = say(Code.RENEGE, "penalised", seat=self.seat(s), card=C.card_str(c), led=W.suit_word(led))
                d = self.report(Code.RENEGE, w.message, self._play_at(k).card_span, label=w.label, trick=tno,
                                notes=w.notes)
                cards = len(e.view().trick) + 1
                e.apply_mistake(Penalise(s, c), events=False)
                self._penalty_facts(d, s, tno, cards, True)
                self.closed_rec = None
                self.open_rec = None
                return
        if voids:
            shown = VoidShown(k, tno, s, c, first)
            for suit in voids:
                e.apply_mistake(MarkVoid(s, suit, shown), events=False)
        if ended:
            self.closed_rec = tno

    # mistakes -----------------------------------------------------------------------------------------

    def _mistake(self, k: int, play: Play, tno: int, v: E.Verdict, late: bool) -> None:
        # The position before the mistake, read once for all below (no hand listed: a turn).
        t = self.engine.turn()
        cards = (len(self.engine.ended_trick()) if late else len(t.trick)) + 1
        diag, applied = self._judge_mistake(k, play, tno, v, late, t)
        self._penalty_facts(diag, play.seat, tno, cards, applied)

    def _penalty_facts(self, diag: Diagnostic, s: int, tno: int, cards: int, applied: bool) -> None:
        """Ruling 1's penalty as data, and the help made from it (judging/wording.py): who
        picks up how many cards, and who leads next (nobody, when the pickup ends the game)."""
        over = applied and self.engine.current_phase() == E.OVER
        # Who leads next is the engine's (its Penalty fact), told only when not the offender.
        leader = self.engine.to_act() if applied and not over else s
        p = diag.penalty = PenaltyFacts(self.seat(s), cards, tno, None if over else tno + 1, applied,
                                        None if leader in (s, -1) else self.seat(leader))
        diag.help = W.penalty_help(p.seat, p.cards, p.trick, p.leads, p.leader)

    def _judge_mistake(self, k: int, play: Play, tno: int, v: E.Verdict, late: bool,
                       t: E.Turn) -> tuple[Diagnostic, bool]:
        e = self.engine
        s, c = play.seat, play.card
        # Does the record go on with this trick (nobody stopped the play), and who leads next?
        more, next_lead = False, None
        for entry in after(self.events, k):
            if entry[0] != "play":
                continue
            if entry[3] == tno:
                more = True
            else:
                next_lead = entry[1]
            break
        diag = self._mistake_diag(play, tno, v, t)
        if more:
            self._unnoticed(s, c, v, late)
            diag.notes.append(gettext(PLAYED_ON))
            self.open_rec = tno
            self.late_penalty = (s, diag)
            return diag, False
        if k + 1 == len(self.events):
            # The record ends here: nothing shows the table playing on.
            self._penalise(s, c, late)
            return diag, True
        # The states the table could have gone on from, in the order ruling 1 gives them:
        # the penalty applied; the card taken back by its player (only a card played to a
        # trick that had already ended can be); the card left with the trick. Each is tried
        # against the whole rest of the record; the first that explains the most is taken.
        pen = e.copy()
        self.engine = pen
        self._penalise(s, c, late)
        candidates = [("penalty", pen)]
        if late:
            # docs/rulings.md, ruling 1: the trick stands as it ended; the card goes back.
            ignored = e.copy()
            ignored.apply_mistake(RevealCard(s, c), events=False)
            candidates.append(("ignored", ignored))
        joined = e.copy()
        self.engine = joined
        self._unnoticed(s, c, v, late)
        joined.apply_mistake(CloseTrick(), events=False)  # a trick still on the table ends as played
        candidates.append(("joined", joined))
        chosen = best_trial(candidates, self.events, k + 1)
        if chosen == "ignored":
            self.engine = ignored
            diag.notes.append(gettext("the penalty was not applied: the record goes on as if {seat} had not played "
                                      "{card}, and {seat} keeps the card").format(seat=self.seat(s), card=C.card_str(c)))
            self.closed_rec = tno
            return diag, False
        if chosen == "joined":
            self.engine = joined
            diag.notes.append(
                gettext("the penalty was not applied: the record goes on as if nobody noticed, and the referee follows "
                        "it as played") if next_lead is None else
                gettext("the penalty was not applied: the record goes on as if nobody noticed ({seat} leads next), and "
                        "the referee follows it as played").format(seat=self.seat(next_lead)))
            self.closed_rec = tno
            return diag, False
        self.engine = pen
        self.closed_rec = None
        self.open_rec = None
        return diag, True

    def _penalty_shown(self, k: int, s: int, c: int, before: E.Engine, played: E.Engine) -> bool:
        """Did the table penalise ``s``'s card ``c`` (entry ``k``) as a renege? Decided by who
        holds the trick's cards: the state with the penalty applied (``s`` picked the trick
        up, from ``before`` the play) against the state as played (the trick went where the
        card sent it), each tried against the rest of the record, whose counts and later
        plays show where the cards are (and whose turn it is). The penalty is shown only
        when it explains the record further; on a tie the record stands as played."""
        pen = before.copy()
        pen.apply_mistake(Penalise(s, c), events=False)
        return best_trial([("played on", played), ("penalty", pen)], self.events, k + 1) == "penalty"

    def _unnoticed(self, s: int, c: int, v: E.Verdict, late: bool) -> None:
        """The mistake played on (ruling 1, the penalty not applied): the engine follows the
        card as played (a trick that had ended back on the table, a lead out of turn
        accepted, a trick whose turn order is no longer enforced)."""
        e = self.engine
        if not late and e.current_phase() == E.BETWEEN and v.code not in (Code.AFTER_TOCHOO, Code.SECOND_CARD):
            self.open_rec = None  # a lead out of turn that the table accepted
        e.apply_mistake(PlayAnyway(s, c, late=late), events=False)

    def _penalise(self, s: int, c: int, late: bool) -> None:
        self.engine.apply_mistake(Penalise(s, c, late=late), events=False)
        self.closed_rec = None
        self.open_rec = None

    def _mistake_diag(self, play: Play, tno: int, v: E.Verdict, t: E.Turn) -> Diagnostic:
        """A mistake in its catalogue's words (engine/codes.py): the facts of the verdict
        are gathered here, the sentences are the code's own."""
        e = self.engine
        trumps, trump, first = self.rules.donkey, t.trumps, t.first_trick
        led_suit = C.SUIT[t.trick[0][1]] if t.trick else -1  # the suit led, in a trick
        s, c = play.seat, play.card
        code = v.code
        facts: dict[str, object] = {"seat": self.seat(s), "card": C.card_str(c), "trick": tno}
        how = rule = ""
        if code == Code.RENEGE:
            suit = _seat_or_suit(v)  # the suit the player held
            known = [x for x in e.known(s) if C.SUIT[x] == suit]
            held = C.card_str(known[0]) if known else None
            # Donkey's words when the suit held is the trumps: the duty passed by was to trump
            # (Engine.duty_of), or to follow a trump lead.
            if e.duty_of(s).reason is LegalReason.TRUMP or (trumps and trump is not None and suit == trump):
                how, rule = "trump", "donkey"
                facts["held"] = held or W.suit_word(suit)
            else:
                rule = "first" if first else ""
                facts["led"] = W.suit_word(0 if first else led_suit)
                facts["held"] = held or W.a_suit(suit)
        elif code == Code.AFTER_TOCHOO:
            last = e.ended_trick() if t.phase != E.IN_TRICK else t.trick
            # The card that ended the trick: the engine's one rule of what a card does
            # (in Donkey a trump never ends a trick).
            last_led = C.SUIT[last[0][1]]
            tochoo = next(((t, x) for t, x in last[1:]
                           if card_effect(C.SUIT[x], last_led, -1 if trump is None else trump, first=False,
                                          trumps=trumps) is Effect.TOCHOO),
                          None)
            rule = "donkey" if trumps else ""
            if tochoo:
                facts.update(by=self.seat(tochoo[0]), tochoo=C.card_str(tochoo[1]))
            else:
                how = "ended"
        elif code == Code.OUT_OF_TURN:
            facts["turn"] = self.seat(_seat_or_suit(v))
            if t.phase == E.BETWEEN:
                how, facts["why"] = "lead", W.leads(e.view().lead_why)
            rule = "first" if first else ""
        elif code == Code.NOT_ACE_FIRST:
            holder_seat = _seat_or_suit(v)
            how = "" if holder_seat >= 0 else "unknown"
            facts.update(holder=self.seat(holder_seat) if holder_seat >= 0 else "", ace=C.card_str(e.first_card()))
            rule = "double" if self.rules.marked_ace else ""
        w = say(code, how, rule, **facts)
        return self.report(code, w.message, play.card_span, label=w.label, notes=w.notes, trick=tno)

    def _note_lower_card(self, play: Play, tno: int, lower: int) -> None:
        """Ruling 8: a higher card by choice in the two-player ending is legal; say, as a
        note, that a lower one would have kept the game going."""
        e = self.engine
        name, card = self.seat(play.seat), C.card_str(play.card)
        lead_seat, lead_card = e.view().trick[0]
        # Two players are left (lower_card_instead says so only then): a drawn lead is a shootout.
        what = W.lead_kind(drawn=e.shootout())
        w = say(Code.LOWER_CARD, seat=name, card=card, lead_seat=self.seat(lead_seat), what=what,
                lead=C.card_str(lead_card), lower=C.card_str(lower))
        self.report(Code.LOWER_CARD, w.message, play.card_span, label=w.label, trick=tno, notes=w.notes,
                    help=W.kept_going(C.card_str(lower)))

    def _renege_proved(self, s: int, c: int, play: Play, ref: VoidShown) -> None:
        """The seat plays a card of a suit its unseen cards were shown to lack: the earlier
        tochoo was a renege. Reported there, once, with this play as the proof."""
        e = self.engine
        ttno, tcard, in_first = ref.trick, ref.card, ref.first
        tplay = self._play_at(ref.item)
        suit = C.SUIT[c]
        key = (s, suit, ref.item)
        if key in self.proved:
            return
        self.proved.add(key)
        # The unseen cards are no longer known to lack the suit once one of them shows it.
        e.apply_mistake(ForgetVoid(s, suit), events=False)
        name = self.seat(s)
        suit_led = W.suit_word(suit)
        w = say(Code.RENEGE, "proved", "first" if in_first else "", seat=name, card=C.card_str(tcard), led=suit_led,
                proof=C.card_str(c), proof_trick=self._rec_trick_of(play))
        self.report(
            Code.RENEGE, w.message, tplay.card_span, label=w.label, trick=ttno, notes=w.notes,
            help=W.penalty_missed_help(name, ttno),
            penalty=PenaltyFacts(name, 0, ttno, ttno + 1, False),
            related=[Related(play.card_span, w.related, self.game.source_line(play.card_span.line))],
        )

    def _rec_trick_of(self, play: Play) -> int:
        for entry in self.events:
            if entry[0] == "play" and play_of(entry) is play:
                return entry[3]
        return 0

    # takes, draws, counts ------------------------------------------------------------------------------

    def _take(self, t: Take, deferred: bool = False) -> None:
        e = self.engine
        if t.taker < 0 or t.target < 0:
            return
        taker, target = self.seat(t.taker), self.seat(t.target)
        v = e.verdict(TakeHand(t.taker, t.target))
        if v is not None and v.reason == "own hand":
            # Nothing moves, and the replay goes on without it.
            self.tell(Code.WRONG_TAKE, t.target_span, "own", "own", taker=taker, target=target,
                      help=gettext("name the player whose hand was taken"))
            return
        if v is not None and v.code == Code.TAKE_IN_TRICK:
            if not deferred:
                self.tell(Code.TAKE_IN_TRICK, t.span, taker=taker, target=target,
                          during=self.open_rec or e.trick_number(), help=gettext("move the take after the end of the trick"))
            # Followed as if written after the trick: the record cannot mean anything else.
            self.deferred.append(t)
            return
        if v is not None:
            if v.code == Code.AFTER_END:
                w = say(Code.AFTER_END, "take", "take", seat=taker, target=target)
                self.report(Code.AFTER_END, w.message, t.span, notes=w.notes)
                raise Stopped(gettext("the game is over"))
            if v.code == Code.DRAW_OUT_OF_PLACE:
                self.tell(Code.DRAW_OUT_OF_PLACE, t.span, "take", "take", taker=taker, target=target,
                          drawer=self.seat(_seat_or_suit(v)), help=gettext("record the draw first"))
            elif v.reason.startswith("taking is not allowed"):
                self.tell(Code.WRONG_TAKE, t.span, "not_allowed", "not_allowed", taker=taker, target=target,
                          rules=self.rules.spec(), help=gettext("judge the game with taking=yes if the table allowed it"))
            elif _seat_or_suit(v) >= 0:
                self.tell(Code.WRONG_TAKE, t.target_span, "next", "next", taker=taker, target=target,
                          next=self.seat(_seat_or_suit(v)))
            else:
                self.tell(Code.WRONG_TAKE, t.span, "no_cards" if e.size(t.taker) == 0 or t.taker in e.view().out_order
                          else "", taker=taker, target=target)
        # One rule for every take, allowed or not (docs/notation.md, Takes): the record says
        # the hand changed places, so it is followed whenever a hand can move; otherwise
        # nothing moves. Every card stays in one known place either way.
        if v is None:
            e.apply(TakeHand(t.taker, t.target), events=False)
        else:
            self._follow(MoveHand(t.taker, t.target))

    def _take_deferred(self) -> None:
        """Takes written inside a trick, applied once the trick is over."""
        waiting, self.deferred = self.deferred, []
        for t in waiting:
            self._take(t, deferred=True)

    def _draw(self, d: Draw) -> None:
        e = self.engine
        if d.seat < 0 or d.card < 0 or (d.source is not None and d.source < 0):
            return
        draw = DrawCard(d.seat, d.card, d.source)
        v = e.verdict(draw)
        name, card = self.seat(d.seat), C.card_str(d.card)
        if v is None:
            e.apply(draw, events=False)
            return
        if v.code == Code.DRAWN_CARD_NOT_THERE:
            w = v.reason
            self.tell(Code.DRAWN_CARD_NOT_THERE, d.card_span, "seat" if w.startswith("seat:") else "trick" if w == "trick"
                      else "", "waste" if d.source is None else "", seat=name, card=card,
                      source=W.source_words(d.source, self.game.seats),
                      holder=self.seat(int(w[5:])) if w.startswith("seat:") else "")
            if d.source is None and self._follow(ForceDraw(d.seat, d.card)):
                return  # followed as written
        elif v.reason == "no draw is due":
            self.tell(Code.DRAW_OUT_OF_PLACE, d.span, "none_due", "none_due", seat=name, card=card)
            if d.source is None and self._follow(MoveFromWaste(d.seat, d.card)):
                # The card changed places at the table: follow the record.
                return
            return  # nothing to follow: the draw is passed over
        elif v.reason == "the game is over":
            said = say(Code.AFTER_END, "draw", "draw", seat=name, card=card)
            self.report(Code.AFTER_END, said.message, d.span, notes=said.notes)
        else:
            due = v.detail  # who must draw, and from where
            assert isinstance(due, E.DrawDueFrom)
            want = due.source  # a seat, ANY_SOURCE (any other hand), or None: the waste pile
            self.tell(Code.DRAW_OUT_OF_PLACE, d.span, "other" if v.reason == "another player must draw" else "source",
                      "due", drawer=self.seat(due.drawer), seat=name, source=W.source_words(want, self.game.seats),
                      rules=self.rules.spec())
            # Follow the record as the due draw: the drawer named wrongly, or the source.
            source = d.source if want == ANY_SOURCE else want  # any other hand: the record's source
            if due.drawer >= 0:
                try:
                    e.apply(DrawCard(due.drawer, d.card, source), events=False)
                    return
                except E.IllegalAction:
                    pass
                if self._follow(ForceDraw(due.drawer, d.card)):
                    return
        raise Stopped(gettext("from here the record cannot be replayed"))

    def _counts(self, cnt: Counts) -> None:
        """One diagnostic per count line, however many of its sizes are wrong."""
        e = self.engine
        wrong: list[tuple[int, int, Span]] = []
        for (s, size), span in zip(cnt.sizes, cnt.spans or [cnt.span] * len(cnt.sizes)):
            # A count already found off by the same amount is the same error again, not a
            # new one: the recorder's tally and the replay parted once, at the first.
            if s >= 0 and e.size(s) != size and self.count_offset.get(s) != size - e.size(s):
                wrong.append((s, size, span))
        for s, size in cnt.sizes:
            if s >= 0 and e.size(s) != size:
                self.count_offset[s] = size - e.size(s)
        if not wrong:
            return
        parts = [gettext("{seat} {held}, not {counted}").format(seat=self.seat(s), held=e.size(s), counted=size)
                 for s, size, _ in wrong]
        s0, _, span0 = wrong[0]
        self.tell(Code.COUNT_CONTRADICTS, span0, sizes=gettext("; ").join(parts), size=e.size(s0),
                  held=", ".join(f"{self.seat(t)} {e.size(t)}" for t in e.in_game()),
                  help=gettext("check the count, and the tricks before it"))

    def _check_result(self, e: E.Outcome) -> None:
        game = self.game
        tag = game.tag_item("Result")
        if tag is None:
            return
        loser, legs = parse_result(tag.value, game.seats)
        if loser is None:
            if e.phase == E.OVER and tag.value.strip() == "*":
                self.tell(Code.RESULT_CONTRADICTS, tag.value_span, "unfinished", "unfinished", loser=self.seat(e.loser))
            return
        if e.phase != E.OVER:
            self.tell(Code.RESULT_CONTRADICTS, tag.value_span, "not_over", "not_over", named=self.seat(loser),
                      help=gettext("write [Result \"*\"] for a game not finished"))
        elif loser != e.loser and e.ended_by == "two_players":
            # Pagat, Two players (outcome 3): the leader of a drawn card loses at once when
            # the other answers with a tochoo, though both may still hold cards.
            self.tell(Code.RESULT_CONTRADICTS, tag.value_span, "two_players", "two_players", named=self.seat(loser),
                      loser=self.seat(e.loser), help=gettext("write [Result \"{seat}\"]").format(seat=self.seat(e.loser)))
        elif loser != e.loser:
            self.tell(Code.RESULT_CONTRADICTS, tag.value_span, named=self.seat(loser), loser=self.seat(e.loser),
                      help=gettext("write [Result \"{seat}\"]").format(seat=self.seat(e.loser)))
        elif legs is not None and legs != e.legs:
            self.tell(Code.RESULT_CONTRADICTS, tag.value_span, "legs", "legs", loser=self.seat(e.loser),
                      legs=f"{legs} leg{'s' if legs != 1 else ''}", cards=W.cards(e.legs))

