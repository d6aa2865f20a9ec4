"""The exact search core of the review's solver (issue 28): can a seat get away, forced or with
everyone's help, in a position with every hand known?

It lives in the engine because it is the engine's hot path: a question visits up to a few
hundred thousand positions, so it reads the state's ints and masks where the rest of the
package reads ``view()``. It writes no rule: what may happen is what the engine lists
(``takes``, ``legal_cards``, the draw's source), and what follows is the engine's own
``play``/``lead``/``take``/``draw`` on a ``fork()``. The typed face of it, with its classes
and the play it shows, is :mod:`referee.players.solver`.

Inside, an action is a small int (no object per node), in the order ``legal_actions()``
lists them:

* a play: ``seat << 6 | card``;
* a take: ``TAKE | taker << 6 | target``;
* a draw: ``DRAW | (source + 1) << 12 | drawer << 6 | card`` (source 0: the waste pile).

How each kind of node is scored for the seat analysed (``x``), and why a loss met through a
repetition is not kept, is told in :mod:`referee.players.solver`; the rules of the search are
the same here, node for node.
"""

from __future__ import annotations

import sys

from referee.engine.events import Action, DrawCard, PlayCard, TakeHand
from referee.engine.moves import (
    DRAW,
    MOVE_KIND,
    TAKE,
    child,
    position_key,
    search_key,
    search_moves,
    settled_for,
    touching,
    twin_draws,
)
from referee.engine.state import Engine, Phase

__all__ = ["OPEN", "SAFE", "ExactSearch", "SearchLimit", "decode", "encode"]

# A search path is a few frames per action: long endings need more than Python's default.
if sys.getrecursionlimit() < 20_000:
    sys.setrecursionlimit(20_000)

SAFE, OPEN = 0, 1  # forced by the seat against all others; with everyone's help
_KIND = MOVE_KIND
_NO_REPEAT = 1 << 30  # no repetition met below a node: its loss holds on every path
_KNOWN = int("01" * 32, 2)  # the "known" bit of every seat's and mode's answer in an entry
_SAFE_BITS = int("0001" * 16, 2)  # of those, the "safe" question's (bit 4x)
_OPEN_BITS = int("0100" * 16, 2)  # and the "open" question's (bit 4x + 2)
RACE_FIRST = 1000  # positions a turn of a two-seat "safe" question starts with (see wins)
WIDE = 12  # more actions than this (draws from the waste pile): no look-up of them all first
# The key of a position the table does not keep: with two seats left, one with a card on the
# table. It is one lead away from the position before it, which the table keeps; looking
# these up and keeping them cost more than the positions they saved (docs/review.md, Speed:
# 8 % more positions searched, 17 % less time on the 20-card two-player endings).
_NOT_KEPT: tuple[object, ...] = ("not kept",)


class SearchLimit(Exception):
    """The search met its node budget before an answer. (An Exception, not a RuntimeError:
    mypyc compiles this module in the optional build, and a compiled class may derive from
    Exception but not from most other built-in classes.)"""


def encode(a: Action) -> int:
    """An action as the search's int."""
    if isinstance(a, PlayCard):
        return a.seat << 6 | a.card
    if isinstance(a, TakeHand):
        return TAKE | a.taker << 6 | a.target
    return DRAW | ((a.source + 1) if a.source is not None else 0) << 12 | a.seat << 6 | a.card


def decode(m: int) -> Action:
    """The search's int as an action."""
    kind = m & _KIND
    if kind == 0:
        return PlayCard(m >> 6 & 63, m & 63)
    if kind == TAKE:
        return TakeHand(m >> 6 & 63, m & 63)
    src = m >> 12 & 255
    return DrawCard(m >> 6 & 63, m & 63, src - 1 if src else None)


def _actor(m: int) -> int:
    return m >> 6 & 63


class ExactSearch:
    """The search with its transposition table, kept across questions. ``table_size`` bounds
    the table (entries; the oldest half is dropped when it is full); ``max_nodes`` bounds the
    positions of one question, all its searches together (:class:`SearchLimit` beyond it),
    None for no bound."""

    def __init__(self, *, table_size: int = 400_000, max_nodes: int | None = None) -> None:
        self.table: dict[tuple[object, ...], int] = {}  # position -> answers packed (see _search)
        # With two seats left a key is (shape, profile of the waste pile): those entries are
        # kept by shape, then profile, for the answers one profile gives another (see _entry).
        self.shapes: dict[object, dict[int, int]] = {}
        self._shaped = 0  # entries in self.shapes
        self.table_size = table_size
        self.max_nodes = max_nodes
        self.nodes = 0  # every node searched, over the search's life
        self._budget = 0
        # The other seat of a two-seat "safe" question, whose own "safe" answers the search
        # also proves where it can (see _search); -1 otherwise.
        self._opp = -1
        self._watch = False

    def wins(self, e: Engine, seat: int, mode: int) -> bool:
        """Can ``seat`` get away: forced (``mode`` SAFE) or with everyone's help (OPEN)?
        ``max_nodes`` bounds the positions searched for the answer, all searches together."""
        left = self.max_nodes
        if mode == SAFE and e.in_game_count() == 2 and settled_for(e, seat) is None:
            seats = e.in_game()
            got, left = self._in_turns(e, seat, seats[1 - seats.index(seat)], left)
            if got is not None:
                return got
        got = self._question(e, seat, mode, left)
        if got is None:
            raise SearchLimit(f"more than {self.max_nodes} positions")
        return got

    def _in_turns(self, e: Engine, seat: int, other: int, left: int | None) -> tuple[bool | None, int | None]:
        """Two seats: if the other seat is safe, this one is not, and proving the safe seat
        safe costs far less than proving the other not safe (its every action answered).
        Which one is safe is not known, so the two "safe" questions take turns, each stopped
        at a number of positions that doubles every round; what a stopped search proved stays
        in the table for its next turn. The first to end answers: this seat's own answer; the
        other safe, so this one not. (None, and the positions ``left``, when the other seat
        is not safe or the budget ran out: then this seat's question is searched to its end.)"""
        step = RACE_FIRST
        while left is None or left > 0:
            for y in (seat, other):
                before = self.nodes
                got = self._question(e, y, SAFE, step if left is None else min(step, left))
                if left is not None:
                    left -= self.nodes - before
                if got is None:
                    if left is not None and left <= 0:
                        return None, left
                    continue
                if y == seat:
                    return got, left
                return (False if got else None), left
            step *= 2
        return None, left

    def _question(self, e: Engine, x: int, mode: int, budget: int | None) -> bool | None:
        """One search for ``x``'s answer, None if it met ``budget`` positions first."""
        if budget is not None and budget <= 0:
            return None
        self._budget = budget if budget is not None else -1
        self._opp = -1
        self._watch = mode == SAFE  # look for the two-seat positions below (see _search)
        try:
            won, _, _ = self._search(e, x, mode, 0, {})
        except SearchLimit:
            return None
        return won

    def _store(self, key: tuple[object, ...], x: int, mode: int, won: bool, opp: bool = False) -> None:
        """Keep ``x``'s answer; in a two-seat "safe" question also the other seat's "safe"
        answer where it is proven: not safe where ``x`` is (one of two seats loses), safe
        where ``opp`` says so."""
        bit = 4 * x + 2 * mode
        new = (1 << bit) | (int(won) << (bit + 1))
        if self._opp >= 0 and (won or opp):
            new |= (1 | int(opp) << 1) << (4 * self._opp + 2 * SAFE)
        self._put(key, new)

    def _known(self, e: Engine, x: int, mode: int) -> tuple[bool | None, tuple[object, ...] | None, bool]:
        """What is settled of ``e`` without a search: x out (a win), the game over, or the
        table's answer; None if nothing is. The position's key, when it was made. Last,
        in a two-seat "safe" question: is the other seat proven safe there?"""
        done = settled_for(e, x)
        opp = self._opp
        if done is not None:
            return done, None, opp >= 0 and settled_for(e, opp) is True
        # One key a position (with two seats left, one for the positions whose waste piles or
        # suits differ only where moves.search_key proves it does not matter, so the table's
        # answer for one serves all: docs/review.md); each entry packs, for every seat and
        # mode, whether it is known (bit 4x + 2mode) and its answer (the bit above); x and
        # mode are fixed within one question, so the path needs the position only.
        if e.in_trick() and e.in_game_count() == 2:
            return None, _NOT_KEPT, False
        key = search_key(e)
        bit = 4 * x + 2 * mode
        known = self._entry(key, bit)
        if known is not None:
            theirs = opp >= 0 and known >> (4 * opp + 2 * SAFE) & 3 == 3
            if known >> bit & 1:
                return bool(known >> (bit + 1) & 1), key, theirs
            # Safe implies open: a safe win is an open win, an open loss a safe loss.
            other = 4 * x + 2 * (SAFE if mode == OPEN else OPEN)
            if known >> other & 1 and bool(known >> (other + 1) & 1) is (mode == OPEN):
                return mode == OPEN, key, theirs
            if theirs:
                return False, key, True  # the other of two seats is safe: x is not
        return None, key, False

    def _search(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
                key: tuple[object, ...] | None = None, moves: list[int] | None = None) -> tuple[bool, int, bool]:
        """(x wins, the shallowest path depth a repetition below met (_NO_REPEAT if none),
        the other seat of a two-seat "safe" question proven safe here).
        ``key``: the position's, when the caller found nothing settled (:meth:`_known`).

        With two seats left, one search answers much of the other seat's question as well:
        where x is safe the other is not (one of two loses, and the two strategies cannot
        both win one line), and where x is not, the other seat is safe if the nodes x's
        search visited prove it by the other seat's own rules: at a node where x chooses
        (and the other seat may only take, which lets x get away), the other is safe if
        it is safe after every one of x's actions, all of which x's failed search tried;
        where the other chooses (x may only take), if the action that beat x leaves it
        safe. A draw proves nothing of it (every card must do for x; that one card fails
        x says nothing of the other seat after every card), nor a repetition. These answers go to the table as the other
        seat's, so its own question later starts from them."""
        if self._watch and e.in_game_count() == 2 and settled_for(e, x) is None:
            # The first position of a "safe" question with two seats left, x one of them:
            # below it, the other seat's answers are proven too. Seats only leave the game
            # as the search goes down, so the whole subtree has these two (or is settled).
            seats = e.in_game()
            self._opp = seats[1 - seats.index(x)]
            self._watch = False
            try:
                return self._search(e, x, mode, depth, path, None)
            finally:
                self._opp = -1
                self._watch = True
        if key is None:
            settled, key, opp = self._known(e, x, mode)
            if settled is not None:
                return settled, _NO_REPEAT, opp
            assert key is not None
        # The path is kept by the position's own key: a repetition is the position itself
        # coming again, as the classes' definition says, whatever positions the table's key
        # merges (docs/review.md, "One key for many waste piles"). A position the table does
        # not keep (two seats, a card on the table) is left off it too: the plays of one
        # trick only go forward, so every repetition passes through a position between
        # tricks, which is on the path, one lead later at most (docs/review.md, Speed).
        on_path = key is not _NOT_KEPT
        if on_path:
            here = position_key(e)
            seen = path.get(here)
            if seen is not None:
                return False, seen, False  # a repetition: not a finite escape on this path
            path[here] = depth
        self.nodes += 1
        if self._budget >= 0:
            self._budget -= 1
            if self._budget < 0:
                raise SearchLimit(f"more than {self.max_nodes} positions")
        actions = search_moves(e) if moves is None else moves
        opp = False
        if not actions:
            won, rep = False, _NO_REPEAT  # nothing may happen: no escape (the engine never stalls)
        elif e.current_phase() is Phase.DRAW_DUE:
            won, rep = self._draw(e, x, mode, depth, path, twin_draws(e, actions))
        elif mode == OPEN:
            won, rep, _ = self._any(e, x, mode, depth, path, actions, False)
        elif not on_path and actions[0] >> 6 & 63 == actions[-1] >> 6 & 63:
            # Two seats and a card on the table, one seat to play (not a first trick in any
            # order): what the general case below comes to, without its lists.
            if actions[0] >> 6 & 63 == x:
                won, rep, opp = self._any(e, x, mode, depth, path, actions, self._opp >= 0)
            else:
                won, rep, opp = self._all(e, x, mode, depth, path, actions, self._opp >= 0)
        else:
            # _actor, written out: once an action at every node.
            mine = [a for a in actions if a >> 6 & 63 == x]
            theirs = [a for a in actions if a >> 6 & 63 != x]
            they_play = False
            for a in theirs:
                if not a & TAKE:
                    they_play = True
                    break
            # The other seat's answer follows from x's only where one of the two chooses.
            derive = self._opp >= 0 and they_play != any(not a & TAKE for a in mine)
            won, rep, opp = self._all(e, x, mode, depth, path, theirs, derive)
            if won and mine and not they_play:
                won, rep, opp = self._any(e, x, mode, depth, path, mine, derive)
        if on_path:
            del path[here]
            if won or rep >= depth:
                self._store(key, x, mode, won, opp)
            elif opp:
                self._store_opp(key)
        return won, (_NO_REPEAT if won else rep), opp

    def _store_opp(self, key: tuple[object, ...]) -> None:
        """The other seat proven safe where x's own loss held on this path only."""
        self._put(key, 3 << (4 * self._opp + 2 * SAFE))

    def _put(self, key: tuple[object, ...], bits: int) -> None:
        """Add answers to the entry of ``key``; before a new entry, drop the oldest half of the
        entries if the table is full (dicts keep insertion order; a bound, not the machine's).
        _search never stores a position the table does not keep (_NOT_KEPT)."""
        if len(key) == 2:
            shape, profile = key
            assert isinstance(profile, int)
            group = self.shapes.get(shape)
            old = None if group is None else group.get(profile)
            if old is None:
                self._make_room()
                group = self.shapes.get(shape)  # (the room made may have dropped it)
                if group is None:
                    group = self.shapes[shape] = {}
                self._shaped += 1
                old = 0
            assert group is not None
            group[profile] = old | bits
            return
        table = self.table
        old = table.get(key)
        if old is None:
            self._make_room()
            old = 0
        table[key] = old | bits

    def _make_room(self) -> None:
        """Drop the oldest half of the entries (and of the shapes) if the table is full."""
        table, shapes = self.table, self.shapes
        if len(table) + self._shaped < self.table_size:
            return
        for k in list(table)[: len(table) // 2]:
            del table[k]
        for shape in list(shapes)[: len(shapes) // 2]:
            self._shaped -= len(shapes.pop(shape))

    def _entry(self, key: tuple[object, ...], bit: int) -> int | None:
        """The table's answers for the position of ``key``, packed as its entries; with two
        seats left, with those that positions of the same shape prove (docs/review.md, "One
        key for many waste piles"): one whose waste runs are each as long or longer (counted
        up to two) has more waste cards, so more cards to draw: for "safe", where every card
        must do, a win there is a win here and a loss here a loss there; for "open", where one
        card is enough (a draw is luck, docs/rulings.md, ruling 11), the other way round.
        A negative profile (fewer than two waste cards) stands for itself alone. An entry of
        its own that knows the answer at ``bit`` is taken as it is."""
        if len(key) != 2:
            return self.table.get(key)
        shape, p = key
        group = self.shapes.get(shape)
        if group is None:
            return None
        assert isinstance(p, int)
        known = group.get(p)
        if p < 0 or len(group) < 2 - (known is None) or (known is not None and known >> bit & 1):
            return known
        wins = losses = 0
        for q, e in group.items():
            if q < 0 or q == p:
                continue
            common = q & p
            won = e & e >> 1 & _KNOWN
            lost = e & ~(e >> 1) & _KNOWN
            if common == p:  # q has more waste cards: a "safe" win, an "open" loss carry here
                wins |= won & _SAFE_BITS
                losses |= lost & _OPEN_BITS
            elif common == q:  # q has fewer: a "safe" loss, an "open" win carry here
                losses |= lost & _SAFE_BITS
                wins |= won & _OPEN_BITS
        if wins or losses:
            return (known or 0) | wins | wins << 1 | losses
        return known

    def _children(self, e: Engine, x: int, mode: int, actions: list[int], decisive: bool
                  ) -> tuple[int, bool, bool, list[tuple[int, Engine, tuple[object, ...], list[int]]]]:
        """Every action's position, each looked up first (an enhanced transposition cutoff):
        (an action whose settled answer is ``decisive``, or -1; whether the other seat is
        proven safe after it (after every settled one that is not decisive, when none is);
        the positions still to search, in the move order)."""
        rest = []
        opp_all = True
        for a in actions:
            c = child(e, a)
            settled, key, opp = self._known(c, x, mode)
            if settled is None:
                assert key is not None
                rest.append((a, c, key, search_moves(c)))
            elif settled is decisive:
                return a, opp, opp, []
            else:
                opp_all = opp_all and opp
        if len(rest) > 1:
            # The positions easiest to settle first, as proof-number search starts (Allis):
            # one where the side looking for the answer chooses needs one good action (1);
            # one where the other side (or a draw) chooses needs every action checked
            # (their number). Then, with two seats left, the one with more waste cards (its
            # profile's bits): a win proven there answers for the positions of its shape
            # with fewer (_entry), such as its siblings. Ties keep the engine's order (the
            # sort is stable): high cards first within a suit. A history heuristic on top of
            # this cost more positions than it saved (docs/review.md, Speed).
            def cost(t: tuple[int, Engine, tuple[object, ...], list[int]]) -> int:
                m = t[3]
                key = t[2]
                wasted = 0
                if len(key) == 2:
                    profile = key[1]
                    if isinstance(profile, int) and profile >= 0:
                        wasted = profile.bit_count()
                if not m:
                    return -wasted
                if mode == OPEN:
                    ours = True  # every choice and every draw is x's way out in "open"
                elif m[-1] & DRAW:
                    return len(m) * 64 - wasted  # "safe": every card must do
                else:
                    # The last action is the lead or play of the seat to act (takes come first).
                    ours = m[-1] >> 6 & 63 == x
                return (1 if ours is decisive else len(m)) * 64 - wasted
            rest.sort(key=cost)
        return -1, opp_all, opp_all, rest

    def _any(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
             actions: list[int], derive: bool) -> tuple[bool, int, bool]:
        """x wins if one of these actions wins (x's choice). Else, with ``derive``, the other
        seat is safe if it is after each of them."""
        hit, _, opp, rest = self._children(e, x, mode, actions, True)
        if hit >= 0:
            return True, _NO_REPEAT, False
        rep = _NO_REPEAT
        # Touching cards (moves.touching) nearly always have one value: once one fails, the
        # rest of its run waits until every other action has been tried (an order only; the
        # runs are found at the first failure, as the first action tried often wins).
        # A deferred action goes to the end of ``rest`` itself, which the loop then reaches.
        run: dict[int, int] | None = None
        failed: set[int] = set()
        first = len(rest)
        for k, (a, c, key, m) in enumerate(rest):
            if k < first and run is not None and run[a] in failed:
                rest.append((a, c, key, m))
                continue
            won, r, o = self._search(c, x, mode, depth + 1, path, key, m)
            if won:
                return True, _NO_REPEAT, False
            rep = min(rep, r)
            opp = opp and o
            if first > 2:  # with two actions or fewer, putting one off changes no order
                if run is None:
                    run = dict(zip(actions, touching(e, actions)))
                failed.add(run[a])
        return False, rep, derive and opp

    def _all(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
             actions: list[int], derive: bool = False) -> tuple[bool, int, bool]:
        """x wins if every one of these actions wins (the adversary's, or chance's, choice).
        Else, with ``derive`` (the other seat's own choice), the other seat is safe if it
        is after the action that beat x."""
        if len(actions) > WIDE:
            return self._all_in_turn(e, x, mode, depth, path, actions, derive)
        hit, opp, _, rest = self._children(e, x, mode, actions, False)
        if hit >= 0:
            return False, _NO_REPEAT, derive and opp
        for _, c, key, m in rest:
            won, r, o = self._search(c, x, mode, depth + 1, path, key, m)
            if not won:
                return False, r, derive and o
        return True, _NO_REPEAT, False

    def _all_in_turn(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
                     actions: list[int], derive: bool) -> tuple[bool, int, bool]:
        """:meth:`_all` for many actions (a draw from a large waste pile), each position searched
        as it is made: looking every one up first costs more than it saves there."""
        for a in actions:
            won, r, o = self._search(child(e, a), x, mode, depth + 1, path)
            if not won:
                return False, r, derive and o
        return True, _NO_REPEAT, False

    def _draw(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
              actions: list[int]) -> tuple[bool, int]:
        """A draw: the card is luck, nobody's choice (docs/rulings.md, ruling 11). For "safe"
        every card must leave x winning (x gets away whatever is drawn); for "open" one card
        that does is enough (x is lost only if no card lets it get away). The hand drawn
        from, where the drawer may pick it, is the drawer's choice."""
        if mode == OPEN:
            won, rep, _ = self._any(e, x, mode, depth, path, actions, False)
            return won, rep
        by_source: dict[int, list[int]] = {}
        for a in actions:
            by_source.setdefault(a >> 12 & 255, []).append(a)
        drawer_helps = e.to_act() == x
        rep = _NO_REPEAT
        for cards in by_source.values():
            won, r, _ = self._all(e, x, mode, depth, path, cards)
            if won and drawer_helps:
                return True, _NO_REPEAT
            if not won and not drawer_helps:
                return False, r
            rep = min(rep, r)
        if drawer_helps:
            return False, rep  # no hand to draw from lets x win
        return True, _NO_REPEAT  # every hand, every card lets x win
