"""The solver's canonical key (moves.search_key, issue 28): with two seats left, positions
that differ only in ways the key forgets have the same classes, for both seats, by the brute
force (tests/review_positions.py: the classes by their definition, keyed by the position's
own key). docs/review.md, "One key for many waste piles", gives the proof; this is its check.

Each example walks a random two-seat ending (some of them the last two seats of a larger
table) to a position where the key applies, then changes it the ways the key forgets: a card
moved to another rank of its suit with no card in play between (its place kept), a card out
of play put in the waste pile next to a run of waste cards, a waste card taken out of play,
the suits renamed (Donkey's trump suit kept), between tricks the seats that held cards when
the last trick began.
Every change whose key is the original's must keep both seats' classes. With the cap of a
run at 1 instead of 2 this fails (a run of one waste card can be empty at a draw where a run
of two never is).
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from review_positions import TooBig, brute_class, random_position

from referee.engine.cards import BIT, RANK, SUIT
from referee.engine.events import TakeHand
from referee.engine.moves import position_key, search_key
from referee.engine.state import BETWEEN, OVER, Engine
from referee.players.solver import Solver

SCALE = 20 if os.environ.get("GETAWAY_PROFILE") == "long" else 1
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

# The two-seat rules of test_review_solver.py, and the draw from the other hand.
SPECS = ("pagat", "denexa", "donkey", "pagat taking=no", "pagat two_players=denexa",
         "pagat direction=anticlockwise", "donkey taking=no", "pagat last_card=draw_hand")


def _settings(n: int) -> settings:
    return settings(max_examples=n * SCALE, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def canonical(e: Engine) -> bool:
    return len(search_key(e)) == 2


def _walk(rng: random.Random) -> Engine:
    """A position of two seats left where the canonical key applies: random play on from a
    small ending with a waste pile, plays preferred to takes (a take ends a two-seat game)."""
    players = rng.choice((2, 2, 2, 3, 4))
    e = random_position(rng, max_held=7, players=players, spec=rng.choice(SPECS), waste=rng.randint(1, 8))
    while e.in_game_count() > 2 and e._phase != OVER:  # a larger table: play on to its last two seats
        actions = e.legal_actions()
        if not actions:
            break
        e = e.copy()
        e.apply(rng.choice(actions))
    assume(e.in_game_count() == 2)
    found = [e] if canonical(e) else []
    for _ in range(rng.randint(0, 14)):
        actions = e.legal_actions()
        if e._phase == OVER or not actions:
            break
        plays = [a for a in actions if not isinstance(a, TakeHand)]
        e = e.copy()
        e.apply(rng.choice(plays or actions))
        if e._phase != OVER and canonical(e):
            found.append(e)
    assume(found)
    # Positions with a drawn card on the table or about to be led matter most: prefer them.
    drawn = [p for p in found if p._drawn_lead]
    return rng.choice(drawn if drawn and rng.random() < 0.6 else found)


def _places(e: Engine) -> dict[int, str]:
    """Every card in play and where: 'h0'.. a hand, 't' the table, 'w' the waste pile."""
    where = {}
    for s in range(e._n):
        for c in range(52):
            if e._once[s] >> c & 1:
                where[c] = f"h{s}"
    for _, c in e._trick:
        where[c] = "t"
    for c in range(52):
        if e._waste_once >> c & 1:
            where[c] = "w"
    return where


def _between(where: dict[int, str], a: int, b: int) -> bool:
    """Is a card in play strictly between cards ``a`` and ``b`` of one suit?"""
    lo, hi = sorted((RANK[a], RANK[b]))
    return any(SUIT[c] == SUIT[a] and lo < RANK[c] < hi for c in where)


def _variants(e: Engine) -> list[Engine]:
    """The changes the key may forget (the caller keeps those whose key is the same)."""
    where = _places(e)
    spare = [c for c in range(52) if c not in where and e._hidden_once >> c & 1]
    out = []
    for c, place in where.items():
        for o in spare:
            if SUIT[o] != SUIT[c] or _between(where, c, o):
                continue
            q = e.copy()  # the card's place moves to another rank, nothing in play between
            q._hidden_once ^= BIT[c] | BIT[o]
            if place == "w":
                q._waste_once ^= BIT[c] | BIT[o]
            elif place == "t":
                q._trick = [(s, o if tc == c else tc) for s, tc in q._trick]
            else:
                s = int(place[1:])
                q._once[s] ^= BIT[c] | BIT[o]
            out.append(q)
    for o in spare:  # a card out of play joins the waste pile
        q = e.copy()
        q._hidden_once ^= BIT[o]
        q._waste_once |= BIT[o]
        out.append(q)
    # The suits renamed (Donkey's trump suit, once set, kept): every card, the suit led, the trump.
    suits = [t for t in range(4) if t != e._trump]
    for shuffled in ([suits[1], suits[0], *suits[2:]], suits[1:] + suits[:1]):
        rename = dict(zip(suits, shuffled))
        if e._trump >= 0:
            rename[e._trump] = e._trump
        out.append(_renamed(e, [rename[SUIT[c]] * 13 + RANK[c] for c in range(52)], rename))
    if e._phase == BETWEEN:  # who held cards when the last trick began: read by no rule till the next
        for bit in range(e._n):
            q = e.copy()
            q._active ^= 1 << bit
            out.append(q)
    for c, place in where.items():  # a waste card leaves play
        if place == "w":
            q = e.copy()
            q._waste_once ^= BIT[c]
            q._hidden_once |= BIT[c]
            out.append(q)
    return out


def _renamed(e: Engine, card: list[int], suit: dict[int, int]) -> Engine:
    """The position with card c put where card[c] is (one pack, no marked ace)."""
    def mask(m: int) -> int:
        return sum(BIT[card[c]] for c in range(52) if m >> c & 1)

    q = e.copy()
    q._once = [mask(m) for m in e._once]
    q._waste_once, q._hidden_once = mask(e._waste_once), mask(e._hidden_once)
    q._trick = [(s, card[c]) for s, c in e._trick]
    q._last_trick = [(s, card[c]) for s, c in e._last_trick]
    q._led = suit[e._led] if e._led >= 0 else -1
    q._trump = suit[e._trump] if e._trump >= 0 else -1
    q._void = [sum(1 << suit[t] for t in range(4) if v >> t & 1) for v in e._void]
    return q


def _classes(e: Engine) -> dict[int, str]:
    return {x: brute_class(e, x, budget=6000) for x in e.in_game()}


@_settings(150)
@given(SEEDS)
def test_positions_of_one_canonical_key_have_the_same_classes(seed: int) -> None:
    rng = random.Random(seed)
    p = _walk(rng)
    key = search_key(p)
    same = [q for q in _variants(p) if search_key(q) == key and position_key(q) != position_key(p)]
    assume(same)
    # The waste changes first (growing or shrinking a run), then the suits renamed, then the
    # moves of a card.
    sized = [q for q in same if q._waste_once.bit_count() != p._waste_once.bit_count()]
    renamed = [q for q in same if q._led != p._led or q._once[0] & 0x1FFF != p._once[0] & 0x1FFF]
    picked = (rng.sample(sized, min(4, len(sized))) + rng.sample(renamed, min(1, len(renamed)))
              + rng.sample(same, min(2, len(same))))
    try:
        want = _classes(p)
        for q in picked:
            assert _classes(q) == want, (p.rules.spec(), _places(p), _places(q))
    except TooBig:
        assume(False)
        return
    event("a waste run grown or shrunk" if sized else "cards moved only")
    event("suits renamed" if renamed else "no suits renamed")
    event("drawn lead" if p._drawn_lead else "no drawn lead")
    event("classes " + " ".join(sorted(want.values())))


@_settings(60)
@given(SEEDS)
def test_the_solver_agrees_with_a_brute_force_from_positions_the_key_merges(seed: int) -> None:
    """One solver, its table shared, asked about a position and then about a position of the
    same key: the classes of the brute force for each (the second answered from the table)."""
    rng = random.Random(seed)
    p = _walk(rng)
    key = search_key(p)
    same = [q for q in _variants(p) if search_key(q) == key and position_key(q) != position_key(p)]
    assume(same)
    q = rng.choice(same)
    try:
        want_p, want_q = _classes(p), _classes(q)
    except TooBig:
        assume(False)
        return
    solver = Solver()
    assert {x: solver.classify(p, x).value for x in p.in_game()} == want_p
    assert {x: solver.classify(q, x).value for x in q.in_game()} == want_q


def test_the_key_is_the_positions_own_where_the_argument_is_not_made() -> None:
    """Two packs, the first trick, three seats left: no canonical key."""
    from referee import rule_set

    two_packs = Engine.from_position(rule_set("pagat packs=2"), [[1, 2], [3, 4]], [], [5, 6], 0, 9)
    first = Engine.from_deal(rule_set("pagat"), [[12, 1], [3, 4]])
    three = Engine.from_position(rule_set("pagat"), [[1, 2], [3, 4], [7, 8]], [], [5, 6], 0, 9)
    plain = Engine.from_position(rule_set("pagat"), [[1, 2], [3, 4]], [], [5, 6], 0, 9)
    for e in (two_packs, first, three):
        assert search_key(e) == position_key(e)
    assert canonical(plain)


def test_a_run_of_one_waste_card_is_not_a_run_of_two() -> None:
    """docs/review.md's example: South (seat 0) leads its one card, 5♥; North holds 3♥ 7♥ 2♣;
    no taking. With 9♣ alone in the waste pile South's second draw can only be a heart, which
    North's 7♥ must take: South gets away, safe. With 9♣ 10♣ the second draw may be the other
    club, on which North plays 7♥, a tochoo on a drawn lead: South is open. So the key keeps a
    run of one apart from a run of two, and a run of three with a run of two."""
    from referee import parse_card, rule_set

    def position(waste: list[str]) -> Engine:
        hands = [[parse_card("5♥")], [parse_card(c) for c in ("3♥", "7♥", "2♣")]]
        return Engine.from_position(rule_set("pagat taking=no"), hands, [], [parse_card(c) for c in waste], 0, 9)

    one, two, three = position(["9♣"]), position(["9♣", "10♣"]), position(["9♣", "10♣", "J♣"])
    assert _classes(one) == {0: "safe", 1: "lost"}
    # North is open, not lost, with two clubs or more: South may draw the club North's 2♣ can
    # lose to, and a draw is luck (docs/rulings.md, ruling 11).
    assert _classes(two) == _classes(three) == {0: "open", 1: "open"}
    assert search_key(one) != search_key(two)
    assert search_key(two) == search_key(three)
    solver = Solver()
    assert [solver.classify(p, 0).value for p in (one, two, three)] == ["safe", "open", "open"]


@_settings(120)
@given(SEEDS)
def test_a_waste_card_more_makes_no_seat_safe_and_no_seat_lost(seed: int) -> None:
    """The lemma behind the table's answers across waste profiles (docs/review.md): with two
    seats left and two waste cards or more, one waste card more (anywhere) only adds draws.
    "Safe" needs every card to do, so no seat becomes safe; "lost" needs every card to fail,
    so no seat becomes lost (a draw is luck: docs/rulings.md, ruling 11)."""
    rng = random.Random(seed)
    p = _walk(rng)
    assume(p._waste_once.bit_count() >= 2)
    where = _places(p)
    spare = [c for c in range(52) if c not in where and p._hidden_once >> c & 1]
    assume(spare)
    try:
        want = _classes(p)
        for o in rng.sample(spare, min(3, len(spare))):
            q = p.copy()
            q._hidden_once ^= BIT[o]
            q._waste_once |= BIT[o]
            got = _classes(q)
            for x in want:
                assert got[x] != "safe" or want[x] == "safe", (p.rules.spec(), o, want, got)
                assert got[x] != "lost" or want[x] == "lost", (p.rules.spec(), o, want, got)
            event("a class changed" if got != want else "the same classes")
    except TooBig:
        assume(False)


@_settings(80)
@given(SEEDS)
def test_one_table_for_positions_of_one_shape_gives_the_brute_forces_classes(seed: int) -> None:
    """Positions of one shape and different waste profiles (runs of one and of two), asked of
    one solver in a random order, so that later ones are answered from earlier ones' entries:
    each gets the brute force's classes."""
    rng = random.Random(seed)
    p = _walk(rng)
    shape = search_key(p)[0]
    family = [p] + [q for q in _variants(p) if search_key(q)[0] == shape and search_key(q) != search_key(p)]
    assume(len(family) > 1)
    picked = rng.sample(family, min(4, len(family)))
    try:
        want = [_classes(q) for q in picked]
    except TooBig:
        assume(False)
        return
    solver = Solver()
    for q, w in zip(picked, want):
        order = q.in_game()
        rng.shuffle(order)
        assert {x: solver.classify(q, x).value for x in order} == w
    event(f"{len({search_key(q) for q in picked})} profiles")


def test_a_safe_seat_with_a_run_of_one_says_nothing_of_a_run_of_two() -> None:
    """The example above with 4♥ in the waste pile as well (so two waste cards or more: one
    shape, the profiles of a run of one and of two clubs). South is safe with 9♣ alone, open
    with 9♣ 10♣; a table that first learns the one must not carry its "safe" to the other
    (only a win with more waste cards carries to fewer), whichever it is asked first."""
    from referee import parse_card, rule_set

    def position(waste: list[str]) -> Engine:
        hands = [[parse_card("5♥")], [parse_card(c) for c in ("3♥", "7♥", "2♣")]]
        return Engine.from_position(rule_set("pagat taking=no"), hands, [], [parse_card(c) for c in waste], 0, 9)

    one, two = position(["9♣", "4♥"]), position(["9♣", "10♣", "4♥"])
    assert search_key(one)[0] == search_key(two)[0] and search_key(one) != search_key(two)
    # North: lost with one club (no card South may draw lets it away), open with two (the
    # "open" answers carry the other way: a win with fewer waste cards to more).
    assert _classes(one) == {0: "safe", 1: "lost"} and _classes(two) == {0: "open", 1: "open"}
    for order in ((one, two), (two, one)):
        for seats in ((0, 1), (1, 0)):
            solver = Solver()
            got = [[solver.classify(p, x).value for x in seats] for p in order]
            assert got == [[_classes(p)[x] for x in seats] for p in order]


@_settings(60)
@given(SEEDS)
def test_a_small_table_drops_entries_and_still_gives_the_brute_forces_classes(seed: int) -> None:
    """The table's bound (issue 28: memory bounded by a table size, not the machine's) holds
    for the entries kept by shape too, and dropping them changes no answer."""
    rng = random.Random(seed)
    p = _walk(rng)
    try:
        want = _classes(p)
    except TooBig:
        assume(False)
        return
    solver = Solver(table_size=8)
    assert {x: solver.classify(p, x).value for x in p.in_game()} == want
    search = solver.search
    assert len(search.table) + search._shaped <= 8
    assert search._shaped == sum(len(group) for group in search.shapes.values())
    event("entries dropped" if solver.nodes > 8 else "no entry dropped")
