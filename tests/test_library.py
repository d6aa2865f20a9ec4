"""The referee as a library: whole games driven through the public API only (``import
referee``), the way a program that embeds the referee drives it.

A seeded bot deals a pack, plays a game to its end with ``legal_actions()`` and ``apply()``,
writes the record in the .gwy notation itself (docs/notation.md), reads it back with
``referee.parse`` and judges it with ``referee.judge``: the engine and the referee must
agree. Every ```python block of docs/library.md is run here too.
"""

from __future__ import annotations

import doctest
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

import referee
from referee import (
    DrawCard,
    Drew,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    LeadReason,
    LegalReason,
    Penalty,
    PickedUp,
    PlayCard,
    Played,
    RuleSet,
    TakeHand,
    Took,
    card_str,
    parse_card,
)
from referee.engine.citations import FIRST_TRICK, LATER_TRICKS

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Anu", "Babu", "Chitra", "Dev", "Esha", "Farid", "Gita", "Hari", "Indu", "Jai", "Kiran", "Lata")


# ---- a program that plays and writes records ------------------------------------------------


def full_pack(rules: RuleSet) -> list[int]:
    """The cards of the pack: 52, or 104 with one of the two aces of spades marked."""
    cards = list(range(52))
    if rules.packs == 2:
        ace = parse_card("A♠")
        marked = parse_card("A♠*")
        assert ace is not None and marked is not None
        cards += [c for c in cards if c != ace] + [marked]
    return cards


@dataclass
class Played_:
    """A bot's game: the record it wrote, how the engine said it ended, the events."""

    text: str
    over: GameOver | None
    events: list[Event]
    engine: Engine


def bot_game(spec: str, seats: int, seed: int, take_rate: float = 0.15) -> Played_:
    """Deal and play a whole game at random among the legal actions, writing the record."""
    rng = random.Random(seed)
    rules = referee.parse_spec(spec)
    cards = full_pack(rules)
    rng.shuffle(cards)
    names = NAMES[:seats]
    hands = [cards[i::seats] for i in range(seats)]
    engine = Engine.from_deal(rules, hands)
    lines: list[str | tuple[int, list[str]]] = [
        "%gwy 1", "%game", f'[Seats "{" ".join(names)}"]', f'[Rules "{spec}"]', "deal",
    ]
    lines += [f"{names[s]} " + " ".join(card_str(c) for c in hands[s]) for s in range(seats)]
    trick: tuple[int, list[str]] | None = None
    over: GameOver | None = None
    history: list[Event] = []
    for _ in range(20_000):  # a bound, so a bug cannot hang the suite
        actions = engine.legal_actions()
        if not actions:
            break
        takes = [a for a in actions if isinstance(a, TakeHand)]
        others = [a for a in actions if not isinstance(a, TakeHand)]
        action = rng.choice(takes) if takes and (not others or rng.random() < take_rate) else rng.choice(others)
        number = engine.view().trick_no
        events = engine.apply(action)
        history += events
        for ev in events:
            if isinstance(ev, Played):
                if trick is None or trick[0] != number:
                    trick = (number, [])
                    lines.append(trick)
                trick[1].append(f"{names[ev.seat]} {card_str(ev.card)}")
            elif isinstance(ev, Took):
                lines.append(f"{names[ev.taker]} takes {names[ev.target]}")
                trick = None
            elif isinstance(ev, Drew):
                source = "" if ev.source is None else f" from {names[ev.source]}"
                lines.append(f"{names[ev.seat]} draws {card_str(ev.card)}{source}")
                trick = None
            elif isinstance(ev, GameOver):
                over = ev
    text = "\n".join(x if isinstance(x, str) else f"{x[0]}. " + ", ".join(x[1]) for x in lines) + "\n"
    return Played_(text, over, history, engine)


GAMES = [
    ("pagat", 4), ("pagat", 2), ("denexa", 4), ("denexa", 3), ("donkey", 4), ("donkey", 5),
    ("pagat last_card=draw_hand", 5), ("pagat last_card=draw_hand draw_from=any", 4),
    ("pagat packs=2", 9), ("donkey packs=2", 12), ("pagat taking=no direction=anticlockwise", 6),
]


@pytest.mark.parametrize("spec,seats", GAMES)
def test_a_bot_game_written_as_a_record_is_judged_clean(spec: str, seats: int) -> None:
    for seed in range(12):
        game = bot_game(spec, seats, seed)
        assert game.over is not None, f"{spec} seed {seed}: the game did not end\n{game.text}"
        games = referee.parse(game.text)
        assert len(games) == 1 and not games[0].errors, game.text
        result = referee.judge(games[0])
        found = [(d.code, d.message) for d in result.diagnostics if d.severity != "note"]
        assert found == [], f"{spec} seed {seed}:\n{game.text}"
        assert result.finished
        assert result.loser == game.over.loser and result.legs == game.over.legs
        assert str(result.rules) == str(referee.parse_spec(spec))


def test_bots_take_hands_and_draw_cards() -> None:
    """The games above reach takes and draws (from the waste pile and from a hand)."""
    seen: Counter[str] = Counter()
    for seed in range(30):
        for spec, rate in (("pagat", 0.2), ("pagat", 0.0), ("pagat last_card=draw_hand", 0.0)):
            for ev in bot_game(spec, 4, seed, take_rate=rate).events:
                if isinstance(ev, Took):
                    seen["take"] += 1
                elif isinstance(ev, Drew):
                    seen["draw from a hand" if ev.source is not None else "draw from the waste"] += 1
    assert seen["take"] and seen["draw from a hand"] and seen["draw from the waste"], seen


def test_a_result_tag_the_engine_wrote_is_confirmed_and_a_wrong_one_is_not() -> None:
    game = bot_game("donkey", 4, 3)
    assert game.over is not None
    loser = NAMES[game.over.loser]
    other = NAMES[(game.over.loser + 1) % 4]
    right = game.text.replace("deal\n", f'[Result "{loser} {game.over.legs}"]\ndeal\n', 1)
    wrong = game.text.replace("deal\n", f'[Result "{other}"]\ndeal\n', 1)
    assert referee.judge(referee.parse(right)[0]).errors == 0
    codes = [d.code for d in referee.judge(referee.parse(wrong)[0]).diagnostics]
    assert "R112" in codes


# ---- the engine's boundary ------------------------------------------------------------------


def snapshot(e: Engine) -> tuple[object, ...]:
    """What a program can read of a position."""
    return (e.view(), e.legal_actions())


def deal(spec: str, text: str) -> Engine:
    """An engine from hands written one seat a line: 'A♠ 2♥ ...'."""
    hands = []
    for line in text.strip().splitlines():
        cards = [parse_card(w) for w in line.split()]
        assert None not in cards
        hands.append([c for c in cards if c is not None])
    return Engine.from_deal(referee.parse_spec(spec), hands)


def card(word: str) -> int:
    c = parse_card(word)
    assert c is not None
    return c


HANDS = """
A♠ 2♥ 3♥ 4♦
K♠ 5♥ 6♣ 7♣
Q♠ 8♥ 9♦ J♣
J♠ 10♥ 2♦ 3♣
"""


def test_an_illegal_play_raises_with_the_rules_code_and_changes_nothing() -> None:
    e = deal("pagat", HANDS)
    before = snapshot(e)
    with pytest.raises(IllegalAction) as info:
        e.apply(PlayCard(1, card("K♠")))  # the first trick opens with the ace of spades
    assert info.value.verdict.code == "M205"
    assert info.value.action == PlayCard(1, card("K♠"))
    assert snapshot(e) == before
    e.apply(PlayCard(0, card("A♠")))
    before = snapshot(e)
    with pytest.raises(IllegalAction) as info:
        e.apply(PlayCard(1, card("5♥")))  # holds a spade: must play it in the first trick
    assert info.value.verdict.code == "M201"
    assert snapshot(e) == before
    with pytest.raises(IllegalAction) as info:
        e.apply(PlayCard(2, card("K♠")))  # not in Chitra's hand
    assert info.value.verdict.code == "R104"
    assert snapshot(e) == before


def test_an_illegal_take_and_draw_raise_and_change_nothing() -> None:
    e = deal("pagat taking=no", HANDS)
    before = snapshot(e)
    with pytest.raises(IllegalAction) as info:
        e.apply(TakeHand(0, 1))
    assert info.value.verdict.code == "R108"
    with pytest.raises(IllegalAction) as info:
        e.apply(DrawCard(0, card("2♥")))
    assert info.value.verdict.code == "R107"  # no draw is due
    assert snapshot(e) == before


def test_legal_says_which_cards_and_why() -> None:
    e = deal("pagat", HANDS)
    assert e.legal(0) == referee.Legal(0, (card("A♠"),), LegalReason.ACE_FIRST, FIRST_TRICK)
    assert e.legal(1).reason == LegalReason.NOT_YOUR_TURN and e.legal(1).cards == ()
    e.apply(PlayCard(0, card("A♠")))
    assert e.legal(1) == referee.Legal(1, (card("K♠"),), LegalReason.FIRST_TRICK_SPADE, FIRST_TRICK)
    for s, c in ((1, "K♠"), (2, "Q♠"), (3, "J♠")):
        e.apply(PlayCard(s, card(c)))
    # A clean first trick: Anu played the highest spade and leads any card.
    assert e.legal(0).reason == LegalReason.ANY and set(e.legal(0).cards) == set(e.known(0))
    e.apply(PlayCard(0, card("2♥")))
    assert e.legal(1) == referee.Legal(1, (card("5♥"),), LegalReason.FOLLOW, LATER_TRICKS)
    assert e.legal(2).reason == LegalReason.NOT_YOUR_TURN
    e.apply(PlayCard(1, card("5♥")))
    e.apply(PlayCard(2, card("8♥")))
    e.apply(PlayCard(3, card("10♥")))
    # Dev played the highest heart and leads clubs; Anu, next, holds none: any card, a tochoo.
    e.apply(PlayCard(3, card("3♣")))
    assert e.legal(0) == referee.Legal(0, (card("3♥"), card("4♦")), LegalReason.OFF_SUIT, LATER_TRICKS)
    assert e.legal(1).reason == LegalReason.NOT_YOUR_TURN


def test_a_tochoo_and_its_pickup_as_events() -> None:
    e = deal("pagat", HANDS)
    for s, c in ((0, "A♠"), (1, "K♠"), (2, "Q♠"), (3, "J♠"), (0, "2♥"), (1, "5♥"), (2, "8♥"), (3, "10♥"),
                 (3, "3♣")):
        e.apply(PlayCard(s, card(c)))
    assert e.legal(0) == referee.Legal(0, (card("3♥"), card("4♦")), LegalReason.OFF_SUIT, LATER_TRICKS)
    events = e.apply(PlayCard(0, card("4♦")))
    assert events[0] == Played(0, card("4♦"), referee.Effect.TOCHOO)
    # Dev's 3♣ was the highest club: Dev picks up the two cards and leads.
    assert PickedUp(3, 2) in events
    assert referee.Leads(3, LeadReason.POWER) in events
    assert e.size(3) == 3


def test_a_game_ends_with_one_loser_and_no_more_actions() -> None:
    game = bot_game("pagat", 3, 7)
    assert game.over is not None
    assert game.engine.legal_actions() == []
    assert sorted(game.engine.view().out_order + (game.over.loser,)) == [0, 1, 2]
    assert game.engine.size(game.over.loser) == game.over.legs
    with pytest.raises(IllegalAction) as info:
        game.engine.apply(PlayCard(game.over.loser, game.engine.known(game.over.loser)[0]))
    assert info.value.verdict.code == "R110"


# ---- replay ---------------------------------------------------------------------------------


def size_change(events: list[Event], before: Engine) -> list[int]:
    """How each seat's hand size changes by these events."""
    delta = [0] * len(before.view().sizes)
    for ev in events:
        if isinstance(ev, Played):
            delta[ev.seat] -= 1
        elif isinstance(ev, (PickedUp, Penalty)):
            delta[ev.seat] += ev.cards
        elif isinstance(ev, Took):
            moved = before.size(ev.target) + delta[ev.target]
            delta[ev.taker] += moved
            delta[ev.target] -= moved
        elif isinstance(ev, Drew):
            delta[ev.seat] += 1
            if ev.source is not None:
                delta[ev.source] -= 1
    return delta


@pytest.mark.parametrize("spec,seats,seed", [("pagat", 4, 1), ("donkey", 4, 2), ("pagat last_card=draw_hand", 4, 5)])
def test_replay_gives_a_step_per_item_and_sizes_agree_with_the_events(spec: str, seats: int, seed: int) -> None:
    game = bot_game(spec, seats, seed, take_rate=0.1)
    record = referee.parse(game.text)[0]
    walk = referee.replay(record, snapshots=True)
    steps = []
    for step in walk:
        # ``after`` is the walk's own state, read while the step is current; ``before`` a copy.
        sizes = [step.before.size(s) + d for s, d in enumerate(size_change(step.events, step.before))]
        assert sizes == [step.after.size(s) for s in range(seats)], step.item
        assert step.diagnostics == []
        steps.append(step)
    items = [p for a in record.actions for p in getattr(a, "plays", [a])]
    assert [s.item for s in steps] == items
    assert sum(1 for s in steps if s.trick is not None) == record.plays
    assert [ev for s in steps for ev in s.events] == game.events
    assert game.over is not None and walk.result.loser == game.over.loser


def test_replay_reports_a_mistake_at_the_step_it_happened() -> None:
    text = """%gwy 1
%game
[Seats "Anu Babu Chitra Dev"]
deal
Anu A♠ 2♥ 3♥ 4♦ 5♦ 6♦ 7♦ 8♦ 10♦ J♦ Q♦ K♦ A♦
Babu K♠ 5♥ 6♣ 7♣ 2♠ 3♠ 4♠ 5♠ 6♠ 4♥ 6♥ 7♥ 9♥
Chitra Q♠ 8♥ 9♦ J♣ 7♠ 8♠ 9♠ 10♠ J♥ Q♥ K♥ A♥ 2♣
Dev J♠ 10♥ 2♦ 3♦ 3♣ 4♣ 5♣ 8♣ 9♣ 10♣ Q♣ K♣ A♣
1. Anu A♠, Babu K♠, Chitra Q♠, Dev J♠
2. Anu 2♥, Babu 6♣
"""
    steps = list(referee.replay(referee.parse(text)[0], snapshots=True))
    assert len(steps) == 6
    *clean, renege = steps
    assert all(s.diagnostics == [] for s in clean)
    (d,) = renege.diagnostics
    assert d.code == "M201" and d.severity == "mistake" and renege.trick == 2
    assert d.span is not None and d.span.line == 10
    assert any(n.startswith("Pagat, Getaway: Second and subsequent tricks") for n in d.notes)
    assert d.help is not None and "Babu picks up the 2 cards of trick 2" in d.help
    # The penalty as data says what the help says; the record ends, so nobody played on.
    assert d.penalty is not None
    assert (d.penalty.seat, d.penalty.cards, d.penalty.trick, d.penalty.leads) == ("Babu", 2, 2, 3)


# ---- docs/library.md ------------------------------------------------------------------------

LIBRARY = ROOT / "docs" / "library.md"


def test_every_python_example_in_the_library_doc_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples read records/ as a program run from the repo would
    blocks = re.findall(r"^```python\n(.*?)^```", LIBRARY.read_text(encoding="utf-8"), re.M | re.S)
    assert len(blocks) >= 6
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks, 1):
        test = parser.get_doctest(block, globs, f"library.md block {i}", str(LIBRARY), 0)
        assert test.examples, f"block {i} has no >>> examples"
        runner.run(test, clear_globs=False)
        globs = test.globs
    failed, tried = runner.summarize(verbose=False)
    assert failed == 0 and tried > 20


def test_the_readme_library_example_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use it as a library", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"^```python\n(.*?)^```", section, re.M | re.S)
    exec(compile(block, "README.md", "exec"), {})
    # records/full-game.gwy is a clean, finished game: the loser its [Result] tag names, no diagnostics.
    result_tag = re.search(r'\[Result "(\w+)"\]', (ROOT / "records" / "full-game.gwy").read_text(encoding="utf-8"))
    assert result_tag is not None
    assert capsys.readouterr().out.strip() == f"{result_tag.group(1)} []"


def suit(c: int) -> str:
    """A card's suit symbol, read off its canonical spelling (A♠* is a spade)."""
    return card_str(c).rstrip("*")[-1]


@pytest.mark.parametrize("spec", ["pagat", "donkey", "denexa"])
def test_legal_reasons_agree_with_the_hand_in_every_position_of_a_game(spec: str) -> None:
    """Replaying bot games, at every position the reason of the seat to act matches its
    hand: FOLLOW only with the suit led in hand and then exactly those cards, TRUMP only
    without it, OFF_SUIT with neither and then the whole hand, ANY the whole hand."""
    seen: Counter[LegalReason] = Counter()
    for seed in range(6):
        record = referee.parse(bot_game(spec, 4, seed).text)[0]
        for step in referee.replay(record):
            e = step.after
            seat = e.to_act()
            if seat < 0:
                continue
            legal = e.legal(seat)
            hand = e.known(seat)
            seen[legal.reason] += 1
            trick = e.view().trick
            led = [c for c in hand if trick and suit(c) == suit(trick[0][1])]
            if legal.reason == LegalReason.FOLLOW:
                assert led and sorted(legal.cards) == sorted(led)
            elif legal.reason == LegalReason.TRUMP:
                assert not led and len({suit(c) for c in legal.cards}) == 1
            elif legal.reason in (LegalReason.OFF_SUIT, LegalReason.ANY):
                assert not led and sorted(legal.cards) == sorted(hand)
            assert legal.reason != LegalReason.NOT_YOUR_TURN
    assert seen[LegalReason.FOLLOW] and seen[LegalReason.ANY]
    if spec == "donkey":
        assert seen[LegalReason.TRUMP]
    else:
        assert seen[LegalReason.OFF_SUIT]


# ---- dealing, phases, a deal that cannot be ----------------------------------------------------


@pytest.mark.parametrize("spec,seats", [("pagat", 4), ("pagat packs=2", 9), ("pagat deal=piles", 5), ("pagat", 3)])
def test_deal_gives_every_card_of_the_pack_once_and_starts_a_game(spec: str, seats: int) -> None:
    rules = referee.rule_set(spec)
    hands = referee.deal(random.Random(3), rules, seats)
    assert Counter(c for h in hands for c in h) == Counter(referee.pack(rules))
    sizes = sorted(len(h) for h in hands)
    if rules.deal != "piles":
        assert sizes[-1] - sizes[0] <= 1  # as equal as can be (ruling 7)
    engine = Engine.from_deal(rules, hands)
    assert engine.view().phase == referee.Phase.BEFORE_FIRST
    holder = engine.to_act()
    assert card_str(engine.legal(holder).cards[0]).startswith("A♠")


def test_from_deal_refuses_a_deal_that_cannot_be() -> None:
    rules = referee.rule_set("pagat")
    every = list(range(52))
    with pytest.raises(ValueError, match=f"{card_str(25)} is dealt more often"):
        Engine.from_deal(rules, [every[:26], every[25:]])  # the 26th card in both hands
    with pytest.raises(ValueError, match="not a card"):
        Engine.from_deal(rules, [every, [52 + 8]])
    with pytest.raises(ValueError, match=r"marked|not in this pack"):
        Engine.from_deal(rules, [every[:-1] + [52], every[-1:]])  # the marked ace, one pack
    # A double pack holds two of each card (the marked ace once, with the other ace of spades).
    double = referee.rule_set("pagat packs=2")
    hands = referee.deal(random.Random(1), double, 8)
    Engine.from_deal(double, hands)
    with pytest.raises(ValueError, match="more often"):
        Engine.from_deal(double, [hands[0] + [hands[1][0]]] + hands[1:])


def test_the_phase_says_when_the_game_is_over() -> None:
    game = bot_game("pagat", 3, 4, take_rate=0.0)
    assert game.engine.view().phase == referee.Phase.OVER
    assert game.engine.view().phase.name == "OVER"


def test_dir_lists_the_public_names_and_each_one_is_there() -> None:
    import referee

    names = [n for n in dir(referee) if n != "__version__"]
    assert names == sorted(referee.__all__)
    assert all(getattr(referee, n) is not None for n in names)
    assert "importlib" not in dir(referee) and "TYPE_CHECKING" not in dir(referee)
