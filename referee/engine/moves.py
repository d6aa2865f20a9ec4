"""The exact search's interface on the engine's ints (:mod:`referee.engine.search`): the
moves of a position as ints, the position after one, the keys of the transposition table, the
order of touching cards and the classes of twin draws.

A move is an int: a play ``seat << 6 | card``, a take ``TAKE | taker << 6 | target``, a draw
``DRAW | (source + 1) << 12 | drawer << 6 | card`` (source 0: the waste pile). Every move is
one the engine itself lists (``Engine.legal_actions`` in the same order) and applies; no rule
is written here.

:class:`Moves` is that layer of :class:`~referee.engine.state.Engine`: its methods read the
state through ``self``. The search asks them through this module's functions
(:func:`search_moves`, :func:`child`, ...), which keep the engine's public names its typed API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.cards import BIT, SUIT, SUIT_MASK, cards_of, ms_cards
from referee.engine.sample import Sample
from referee.engine.values import DRAW_DUE, IN_TRICK, OVER

if TYPE_CHECKING:
    from referee.engine.state import Engine


# The solver's moves as ints (engine/search.py): a play ``seat << 6 | card``, a take
# ``TAKE | taker << 6 | target``, a draw ``DRAW | (source + 1) << 12 | drawer << 6 | card``.
TAKE = 1 << 20
DRAW = 2 << 20
MOVE_KIND = 3 << 20


# The canonical search key (moves.search_key): a run of waste cards between two labelled
# cards of a suit counts up to this many (the profile's bit: two or more). Two, not one:
# docs/review.md, "One key for many waste piles" (with one, tests/test_review_keys.py finds
# positions of one key with different values).
WASTE_RUN_CAP = 2
_CANON = "canonical"  # the first item of a canonical key: never equal to a position_key
# A suit's code (_suit_code) by its four 13-bit masks in the lanes of one int (first seat's
# hand, second seat's, waste, table; _LANES): endings meet few distinct suits, so nearly every
# look-up is a hit.
_SUIT_CODES: dict[int, int] = {}
# A seat's plays as the search's ints (moves.search_moves) by the seat and its legal cards: a
# search meets the same hands over and over. Tuples of ints, which the cycle collector stops
# tracking; emptied when it holds _PLAYS_KEPT of them.
_PLAYS: dict[int, tuple[int, ...]] = {}
_PLAYS_KEPT = 1 << 16


# One suit's 13 bits in each of the four 64-bit lanes of moves.search_key's ``lanes``.
_LANES = 0x1FFF | 0x1FFF << 64 | 0x1FFF << 128 | 0x1FFF << 192


def _lanes_to_packed(k: int) -> int:
    """A suit's four masks from their lanes (search_key) to _suit_code's packing."""
    return k & 0x1FFF | (k >> 64 & 0x1FFF) << 13 | (k >> 128 & 0x1FFF) << 26 | (k >> 192 & 0x1FFF) << 39


def _suit_code_of(k: int) -> int:
    """A suit's code by its lanes (moves.search_key), made once and kept."""
    code = _SUIT_CODES.get(k)
    if code is None:
        code = _SUIT_CODES[k] = _suit_code(_lanes_to_packed(k))
    return code


def _suit_code(packed: int) -> int:
    """One suit of moves.search_key (its four 13-bit masks packed: the first seat's hand, the
    second's, the waste pile, the table), as shape << 48 | long runs << 32 | runs << 16 | gaps
    << 8 | waste cards (so codes sort by shape, then long runs, then runs). The shape: from
    the suit's lowest rank up, 2 bits a labelled card (1, 2 the first or second seat's hand,
    3 the table) after a leading 1 bit. Runs: a bit a gap (below, between
    and above the labelled cards; the lowest gap the highest bit), set where waste cards lie
    in it; long runs: set where :data:`WASTE_RUN_CAP` or more do (always clear with a cap of
    1); waste cards: each gap's, counted up to two, summed."""
    shape = 1
    present = long = wasted = gaps = 0
    run = 0
    for r in range(14):
        if r < 13 and packed >> (26 + r) & 1:
            run += 1
            continue
        if r == 13:
            label = 0
        elif packed >> r & 1:
            label = 1
        elif packed >> (13 + r) & 1:
            label = 2
        elif packed >> (39 + r) & 1:
            label = 3
        else:
            continue  # out of play: never comes back
        present = present << 1 | int(run >= 1)
        long = long << 1 | int(WASTE_RUN_CAP >= 2 and run >= WASTE_RUN_CAP)
        wasted += min(run, 2)
        gaps += 1
        run = 0
        if label:
            shape = shape << 2 | label
    return shape << 48 | long << 32 | present << 16 | gaps << 8 | wasted


class Moves(Sample):
    """The solver's moves and keys: the layer the exact search reads."""

    __slots__ = ()

    def _search_moves(self) -> list[int]:
        """What ``legal_actions()`` lists, as ints, in the same order."""
        phase = self._phase
        if phase == DRAW_DUE:
            d = self._drawer
            src = self._draw_source
            if src is None:
                base = DRAW | d << 6
                return [base | c for c in ms_cards(self._waste_once, self._waste_twice)]
            out: list[int] = []
            sources = [src] if isinstance(src, int) else [t for t in self.in_game() if t != d]
            for t in sources:
                base = DRAW | (t + 1) << 12 | d << 6
                out.extend(base | c for c in ms_cards(self._once[t], self._twice[t]))
            return out
        if phase == OVER:
            return []
        out = [TAKE | taker << 6 | target for taker, target in self.takes()]
        mover = self.to_act()
        # Only the seat to act has a legal card (legal_cards says 0 for every other seat), but in
        # a trick in any order, where every seat may play.
        for s in ((mover,) if mover >= 0 else self._seq):
            cards = self._legal_cards(s)
            if cards:
                key = cards << 6 | s
                plays = _PLAYS.get(key)
                if plays is None:
                    if len(_PLAYS) >= _PLAYS_KEPT:
                        _PLAYS.clear()
                    base = s << 6
                    plays = _PLAYS[key] = tuple([base | c for c in cards_of(cards)])
                out += plays
        return out

    def _twin_draws(self, actions: list[int]) -> list[int]:
        """The draws of ``actions`` with one card of each class of twins: with two players left
        and one pack, two cards of the waste pile of one suit with no card of any hand between
        them in rank lead to positions of one value, for every seat and either question.

        Why (docs/review.md, "Twins in the waste pile"): the drawer holds no card, so it leads the
        card it draws; with two players left a tochoo on a drawn lead ends the game (Pagat,
        Getaway: Two players), and a clean trick sends the card back to the waste pile. So a card
        drawn from the waste never stays in a hand: the only cards it meets in a trick are the
        other player's, and they are the same below and above either twin. Swapping the twins
        maps one line of play onto the other, card for card, with the same winner of every trick.
        """
        if self._draw_source is not None or self._double or len(actions) < 2 or self.in_game_count() != 2:
            return actions
        held = 0
        for m in self._once:
            held |= m
        seen: set[tuple[int, int]] = set()
        out = []
        for a in actions:
            c = a & 63
            # The class: the suit, and the cards of the hands of that suit below the card.
            cls = (SUIT[c], (held & SUIT_MASK[SUIT[c]] & (BIT[c] - 1)).bit_count())
            if cls not in seen:
                seen.add(cls)
                out.append(a)
        return out

    def _touching(self, actions: list[int]) -> list[int]:
        """For each of ``actions`` (:meth:`_search_moves`' ints, in its order), the first action
        of its run: plays of one seat in one suit with no card between them in rank anywhere
        (a hand, the waste pile, the table, or unseen where a hand or the waste pile holds
        unseen cards; a card out of play is nowhere). Every other action is a run of its own.

        Touching cards are not equivalent (docs/review.md, "One key for many waste piles", its
        end: a pickup or a draw can part them, and then they meet in a trick), so the solver
        searches every one; but they nearly always have one value, so once one of them fails,
        the solver tries its other actions before the rest of that run."""
        present = self._waste_once | self._waste_twice
        if self._waste_unknown or any(self._unknown):
            present |= self._hidden_once | self._hidden_twice
        for m in self._once:
            present |= m
        for _, c in self._trick:
            present |= BIT[c]
        for _, c in self._pending:
            present |= BIT[c]
        out = []
        run = prev = -1
        for a in actions:
            c = a & 63
            # The same seat and suit as the action before, a play (not a take or a draw), and
            # no card present strictly between the two: cards of a suit are 13 bits in order.
            if (prev >= 0 and not a & MOVE_KIND and a >> 6 == prev >> 6 and SUIT[c] == SUIT[prev & 63]
                    and not present & (BIT[prev & 63] - (BIT[c] << 1))):
                out.append(run)
            else:
                run = a
                out.append(a)
            prev = a if not a & MOVE_KIND else -1
        return out

    def _position_key(self) -> tuple[object, ...]:
        """Everything of a position that decides what may follow (not the trick number, the
        event log or why the leader leads): two positions with one key have one future."""
        return (self._phase, tuple(self._once), tuple(self._twice), tuple(self._out), self._waste_once, self._waste_twice, self._power,
                self._drawer, self._draw_source, tuple(self._trick), tuple(self._pending), self._tochoo, self._trump, self._first,
                self._drawn_lead, self._active, self._played)

    def _search_key(self) -> tuple[object, ...]:
        """The transposition table's key (engine/search.py): :meth:`_position_key`, except with
        two seats left and one pack, where it is a pair: the position's shape and a profile of
        its waste pile (docs/review.md, "One key for many waste piles").

        The shape reads each suit in rank order, the cards out of play skipped, each card
        labelled by where it is (the hand of the first or second seat left, the trick on the
        table), a run of waste cards between two labelled cards kept only as being there; the
        suits in the order of their codes (Donkey's trump suit, once set, last); and the
        position key's other fields. The profile says which runs hold two cards or more
        (:data:`WASTE_RUN_CAP`): positions of one shape and one profile have one value for
        every seat and either question, and of one shape, the one whose long runs include the
        other's is no better for any seat (more waste cards, more draws against it). With fewer
        than two waste cards the profile is negative: that key stands for itself alone.
        Elsewhere (the first trick, a draw due with its trick waiting for the waste pile, three
        seats or more, two packs, a trick of two cards) the argument is not made and the key is
        the position's own. The search keeps its path (repetitions) by :meth:`_position_key`,
        never by this key."""
        out = self._out
        if (self._phase == DRAW_DUE or self._first or self._double or self._pending or len(self._trick) > 1
                or out.count(False) != 2):
            return self._position_key()
        first = out.index(False)
        once = self._once
        lo = once[first]
        hi = once[out.index(False, first + 1)]
        waste = self._waste_once
        trick = self._trick
        table = BIT[trick[0][1]] if trick else 0
        # Each suit's code (_suit_code): shape, long runs, runs, gaps, waste cards. The four
        # masks side by side, 64 bits apart: a suit's four 13-bit masks are then one shift and
        # one mask of this int (the code's look-up key; _lanes_to_packed on a miss).
        lanes = lo | hi << 64 | waste << 128 | table << 192
        get = _SUIT_CODES.get  # a miss is made and kept by _suit_code_of (a code is never 0)
        suits = [get(k0 := lanes & _LANES) or _suit_code_of(k0),
                 get(k1 := lanes >> 13 & _LANES) or _suit_code_of(k1),
                 get(k2 := lanes >> 26 & _LANES) or _suit_code_of(k2),
                 get(k3 := lanes >> 39 & _LANES) or _suit_code_of(k3)]
        # Suits in order of their codes: outside the first trick and with one pack no rule
        # names a suit, so renaming suits changes no value; Donkey's trump suit, once set,
        # keeps the last place.
        trump = self._trump
        if trump >= 0:
            last = suits.pop(trump)
            suits.sort()
            suits.append(last)
        else:
            suits.sort()
        # The profile: each suit's gaps' bits, runs and long runs, one after the other (a
        # small int: the table compares profiles of one shape bit by bit, see search._entry).
        profile = wasted = 0
        for c in suits:
            g = c >> 8 & 255
            profile = (profile << g | c >> 32 & 0xFFFF) << g | c >> 16 & 0xFFFF
            wasted += c & 255
        c0, c1, c2, c3 = suits
        # Between tricks the seats that held cards when the last trick began are stale: the
        # next lead sets them anew, and nothing reads them before (a seat that got away in
        # that trick would otherwise tell apart positions with one future).
        phase = self._phase
        shape = (_CANON, phase, tuple(out), self._power, self._drawer, self._draw_source, self._tochoo,
                 trump >= 0, self._drawn_lead, self._active if phase == IN_TRICK else 0, self._played,
                 trick[0][0] if trick else -1, c0 >> 48, c1 >> 48, c2 >> 48, c3 >> 48)
        return (shape, profile if wasted >= 2 else -1 - profile)

    def _child(self, m: int) -> Engine:
        """The position after the action ``m`` (one that :meth:`_search_moves` listed): applied
        to a fork, with no second judgement and no event made."""
        c = self.fork()
        c._apply_move(m)
        return c

    def _apply_move(self, m: int) -> None:
        kind = m & MOVE_KIND
        if kind == 0:
            if self._phase == IN_TRICK:
                self._play(m >> 6 & 63, m & 63)
            else:
                self._lead(m >> 6 & 63, m & 63)
        elif kind == TAKE:
            self._take(m >> 6 & 63, m & 63)
        else:
            src = m >> 12 & 255
            self._draw(m >> 6 & 63, m & 63, src - 1 if src else None)

    def _settled_for(self, x: int) -> bool | None:
        """Whether ``x`` gets away, where nothing is left to search: True once it is out,
        the game's answer once it is over; None while it is still in a game going on."""
        if self._out[x]:
            return True
        if self._phase == OVER:
            return self._loser != x
        return None


# The exact search's interface (engine/search.py, the tests of its keys): the moves layer's
# own methods, asked of an engine. These are this module's functions on its own layer's
# privates; nothing outside the engine's chain reads a field.

def search_moves(e: Engine) -> list[int]:
    """What ``legal_actions()`` lists, as ints, in the same order."""
    return e._search_moves()


def twin_draws(e: Engine, actions: list[int]) -> list[int]:
    """The draws of ``actions`` with one card of each class of twins (:meth:`Moves._twin_draws`)."""
    return e._twin_draws(actions)


def touching(e: Engine, actions: list[int]) -> list[int]:
    """For each of ``actions``, the first action of its run of touching cards (:meth:`Moves._touching`)."""
    return e._touching(actions)


def position_key(e: Engine) -> tuple[object, ...]:
    """Everything of a position that decides what may follow (:meth:`Moves._position_key`)."""
    return e._position_key()


def search_key(e: Engine) -> tuple[object, ...]:
    """The transposition table's key (:meth:`Moves._search_key`)."""
    return e._search_key()


def child(e: Engine, m: int) -> Engine:
    """The position after the action ``m`` (:meth:`Moves._child`)."""
    return e._child(m)


def settled_for(e: Engine, x: int) -> bool | None:
    """Whether ``x`` gets away where nothing is left to search (:meth:`Moves._settled_for`)."""
    return e._settled_for(x)
