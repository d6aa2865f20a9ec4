"""Cards: every spelling a recorder may use, the one canonical spelling, and what is not a card.

A card is written rank then suit (Q♥, QH, 10H, TH) or, as Pagat prints it, suit then rank
(♠J). Case does not matter; white suit symbols (♡ ♢ ♤ ♧) count as the black/red ones. The
marked ace of a double pack is A♠*, and only a double-pack game may use it.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import referee
from referee.engine import cards as C

# The canonical rank names and suit symbols, written out here rather than taken from the module.
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
CANON_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_SPELLINGS = {
    "S": ["S", "s", "♠", "♤"],
    "H": ["H", "h", "♥", "♡"],
    "D": ["D", "d", "♦", "♢"],
    "C": ["C", "c", "♣", "♧"],
}


def rank_spellings(rank: str) -> list[str]:
    if rank == "10":
        return ["10", "T", "t"]
    if rank.isalpha():
        return [rank, rank.lower()]
    return [rank]


def every_spelling():
    """(written, canonical) for every rank/suit spelling in both orders."""
    for rank in RANKS:
        for suit, spellings in SUIT_SPELLINGS.items():
            canon = rank + CANON_SUIT[suit]
            for r, s in itertools.product(rank_spellings(rank), spellings):
                yield r + s, canon
                yield s + r, canon


ALL_SPELLINGS = list(every_spelling())


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("AS", "A♠"),
        ("as", "A♠"),
        ("a♠", "A♠"),
        ("A♤", "A♠"),
        ("10H", "10♥"),
        ("TH", "10♥"),
        ("th", "10♥"),
        ("Q♡", "Q♥"),
        ("Q♥", "Q♥"),
        ("7♢", "7♦"),
        ("7♦", "7♦"),
        ("7d", "7♦"),
        ("2♣", "2♣"),
        ("2C", "2♣"),
        ("K♧", "K♣"),
        ("♠J", "J♠"),  # Pagat writes the suit first
        ("♥10", "10♥"),
        ("♦A", "A♦"),
        ("♣T", "10♣"),
        ("sj", "J♠"),
    ],
)
def test_documented_spellings(written, canonical):
    card = referee.parse_card(written)
    assert card is not None, written
    assert referee.card_str(card) == canonical


def test_every_spelling_names_the_same_card_as_its_canonical_form():
    assert len(ALL_SPELLINGS) > 52 * 8
    for written, canon in ALL_SPELLINGS:
        card = C.parse_card(written)
        assert card is not None, f"{written!r} should be a card"
        assert C.card_str(card) == canon, written
        assert C.parse_card(canon) == card


def test_the_pack_has_52_distinct_cards_and_each_canonical_spelling_reads_back():
    canon = {r + s for r in RANKS for s in CANON_SUIT.values()}
    parsed = {C.parse_card(c) for c in canon}
    assert None not in parsed
    assert len(parsed) == 52
    for c in parsed:
        assert C.card_str(c) in canon
        assert C.parse_card(C.card_str(c)) == c


def test_ascii_spelling_matches_canonical():
    for written, canon in ALL_SPELLINGS:
        card = C.parse_card(written)
        rank, suit_symbol = canon[:-1], canon[-1]
        letter = {v: k for k, v in CANON_SUIT.items()}[suit_symbol]
        assert C.card_ascii(card) == rank + letter


def test_suit_and_rank_of_a_card():
    qh = C.parse_card("QH")
    assert C.SUIT[qh] == C.HEARTS
    assert C.RANK_NAMES[C.RANK[qh]] == "Q"
    assert C.SUIT[C.parse_card("♠2")] == C.SPADES
    assert C.SUIT[C.parse_card("♢9")] == C.DIAMONDS
    assert C.SUIT[C.parse_card("tc")] == C.CLUBS
    # ranks go up: 2 is the lowest, A the highest
    assert C.RANK[C.parse_card("2S")] < C.RANK[C.parse_card("10S")] < C.RANK[C.parse_card("AS")]


# ---- the marked ace ----------------------------------------------------------------------


@pytest.mark.parametrize("written", ["A♠*", "AS*", "as*", "♠A*", "A♤*"])
def test_marked_ace_spellings(written):
    card = C.parse_card(written)
    assert card is not None
    assert C.card_str(card) == "A♠*"
    assert card != C.parse_card("A♠")  # a spade ace of its own
    assert C.SUIT[card] == C.SPADES and C.RANK_NAMES[C.RANK[card]] == "A"


@pytest.mark.parametrize("written", ["A♥*", "K♠*", "AS**", "*AS"])
def test_only_the_ace_of_spades_can_be_marked(written):
    assert C.parse_card(written) is None


def _game(rules: str, card: str) -> str:
    return (
        "%gwy 1\n%game\n[Seats \"A B\"]\n"
        f"[Rules \"{rules}\"]\n"
        "deal\nA 52\nB 52\n"
        f"1. A {card}\n"
    )


def test_marked_ace_is_read_in_a_double_pack_game():
    text = _game("pagat packs=2", "A♠*")
    (game,) = referee.parse(text)
    assert game.errors == []
    play = game.actions[0].plays[0]
    assert C.card_str(play.card) == "A♠*"


@pytest.mark.parametrize("spelling", ["A♠*", "AS*"])
def test_marked_ace_is_refused_with_one_pack(spelling):
    text = _game("pagat", spelling)
    (game,) = referee.parse(text)
    assert [e.code for e in game.errors] == ["S002"]
    err = game.errors[0]
    assert "marked ace" in err.message and "one pack" in err.message
    assert text[err.span.start:err.span.end] == spelling
    assert (err.span.line, err.span.col) == (8, len("1. A ") + 1)


# ---- not cards ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "word",
    ["QX", "11H", "1H", "0S", "", "A", "S", "♠", "10", "T", "AA", "XS", "QHH", "1♠0", "A♠A", "10 H", "Q-H", "Z♠"],
)
def test_not_cards(word):
    assert C.parse_card(word) is None


@pytest.mark.parametrize("word", ["QX", "11H", "1H"])
def test_a_play_of_a_non_card_is_a_diagnostic_naming_the_word(word):
    text = "%gwy 1\n%game\n[Seats \"A B\"]\ndeal\nA 26\nB 26\n" f"1. A AS, B {word}\n"
    (game,) = referee.parse(text)
    assert [e.code for e in game.errors] == ["S002"]
    assert game.errors[0].message == f"expected a card such as Q♥ or QH, found '{word}'"
    span = game.errors[0].span
    assert text[span.start:span.end] == word


# ---- order and multisets ---------------------------------------------------------------------


def test_canonical_order_is_spades_hearts_diamonds_clubs_high_to_low():
    words = ["2C", "AH", "10S", "KD", "A♠*", "AS", "3S", "JC"]
    ordered = [C.card_str(c) for c in C.sort_cards([C.parse_card(w) for w in words])]
    assert ordered == ["A♠*", "A♠", "10♠", "3♠", "A♥", "K♦", "J♣", "2♣"]
    mask = 0
    for w in words:
        if w != "A♠*":
            mask |= C.BIT[C.parse_card(w)]
    assert [C.card_str(c) for c in C.cards_of(mask)] == ["A♠", "10♠", "3♠", "A♥", "K♦", "J♣", "2♣"]


def test_a_hand_may_hold_two_of_a_card_in_a_double_pack():
    qh = C.parse_card("QH")
    once, twice = C.ms_add(0, 0, qh)
    once, twice = C.ms_add(once, twice, qh)
    assert C.ms_size(once, twice) == 2
    assert [C.card_str(c) for c in C.ms_cards(once, twice)] == ["Q♥", "Q♥"]
    once, twice = C.ms_remove(once, twice, qh)
    assert C.ms_size(once, twice) == 1
    assert [C.card_str(c) for c in C.ms_cards(once, twice)] == ["Q♥"]


@given(st.lists(st.integers(0, C.CARD_COUNT - 1), max_size=26))
def test_a_hands_mask_is_its_cards_union_only_when_no_card_is_there_twice(cards: list[int]) -> None:
    # The reader and the engine mask every hand of a deal this way; a card written twice in
    # one hand must not pass as a hand of distinct cards (the deal's check reports it, R101).
    union = 0
    for c in cards:
        union |= 1 << c
    expected = union if len(set(cards)) == len(cards) else -1
    assert C.distinct_mask(cards) == expected


def test_a_card_written_twice_in_one_hand_is_dealt_twice(tmp_path) -> None:
    record = tmp_path / "twice.gwy"
    record.write_text("%gwy 1\n%game\n[Seats \"North East South West\"]\ndeal\n"
                      "North A♠ A♠ A♥ 7♥ Q♦ J♦ 7♦ A♣ J♣ 10♣ 8♣ 7♣ 2♣\n"
                      "East 10♠ 9♠ 7♠ 5♠ 4♠ 10♥ 8♥ 6♥ 3♥ 2♥ 6♦ 5♦ 4♣\n"
                      "South J♠ 3♠ 2♠ Q♥ J♥ 9♥ 5♥ 9♦ 8♦ 3♦ 2♦ 6♣ 3♣\n"
                      "West K♠ Q♠ 6♠ K♥ 4♥ A♦ K♦ 10♦ 4♦ K♣ Q♣ 9♣ 5♣\n", encoding="utf-8")
    (game,) = referee.read(str(record))
    codes = [d.code for d in referee.judge(game).diagnostics]
    assert codes == ["R101"]
