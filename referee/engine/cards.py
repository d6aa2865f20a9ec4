"""Cards as small ints, hands as bit masks.

A card is ``suit * 13 + rank``: suits ♠ ♥ ♦ ♣ are 0 1 2 3, ranks 2..A are 0..12, so the
ace of spades is 12. A double pack (Pagat, "Variations") has two of every card and one of
its aces of spades is marked: the marked ace is card 52, a spade ace of its own.

A set of cards is an int with bit ``c`` set for card ``c``. A double pack can put two equal
cards in one hand, so a hand is a pair of masks ``(once, twice)``: ``once`` has the cards
held at least once, ``twice`` those held twice. Helper functions work on such pairs.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Final

# Final: the compiled build keeps these in C statics instead of looking them up in the
# module's dict at every use (a play reads BIT and SUIT several times).
SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_LETTERS: Final = "SHDC"
SUIT_NAMES: Final = ("spade", "heart", "diamond", "club")
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

ACE: Final = 12
ACE_OF_SPADES: Final = SPADES * 13 + ACE
MARKED_ACE: Final = 52
CARD_COUNT: Final = 53  # 52 faces and the marked ace

SUIT: Final[tuple[int, ...]] = tuple([c // 13 for c in range(52)] + [SPADES])
RANK: Final[tuple[int, ...]] = tuple([c % 13 for c in range(52)] + [ACE])
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(CARD_COUNT))

SUIT_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << c for c in range(CARD_COUNT) if SUIT[c] == s) for s in range(4)
)
FULL_PACK: Final = (1 << 52) - 1


def card_str(card: int) -> str:
    """The canonical spelling of a card: ``A♠``, ``10♥``, ``A♠*`` for the marked ace."""
    return _CANON[card]


def card_ascii(card: int) -> str:
    return _ASCII[card]


def parse_card(text: str) -> int | None:
    """The card a word names, or None. Accepts ``AS``, ``a♠``, ``10H``, ``TH``, ``♡``/``♢``."""
    return _SPELLINGS.get(text.translate(_ASCII_UPPER))


# Upper case for ASCII letters only: Unicode case mapping turns 'ſ' into 'S' and 'ı' into 'I',
# and a letter that is not a suit or rank must not become one.
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def suit_name(suit: int, plural: bool = False) -> str:
    return SUIT_NAMES[suit] + ("s" if plural else "")


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, ♠ first and high to low within a suit (the canonical order)."""
    # Suit by suit, each from its highest bit down: already in order, with no sort (the
    # engine lists a hand at every legal question and view).
    out = []
    if mask >> MARKED_ACE & 1:  # the marked ace comes before the other ace of spades
        out.append(MARKED_ACE)
    for bits in _SUIT_BITS:
        m = mask & bits
        while m:
            c = m.bit_length() - 1
            out.append(c)
            m ^= 1 << c
    return out


def distinct_mask(cards: Sequence[int]) -> int:
    """The mask of ``cards`` if none of them is there twice, else -1 (cards are 0 to 52).
    The sum of their bits: that is their union exactly when the bits are distinct, and a
    repeated bit carries, leaving fewer bits set than there are cards. (A sum is cheaper
    than a chain of ``|``: a deal's hands are masked for every game read.)"""
    mask = sum(map(BIT.__getitem__, cards))
    return mask if mask.bit_count() == len(cards) else -1


def sort_cards(cards: Iterable[int]) -> list[int]:
    return sorted(cards, key=_ORDER.__getitem__)


def sort_key(card: int) -> int:
    """The card's place in the canonical order: suits, then ranks from the ace down."""
    return _ORDER[card]


# ---- multisets of cards for the double pack: (once, twice) pairs -----------------------


def ms_add(once: int, twice: int, card: int) -> tuple[int, int]:
    b = BIT[card]
    if once & b:
        return once, twice | b
    return once | b, twice


def ms_remove(once: int, twice: int, card: int) -> tuple[int, int]:
    """Remove one copy; the caller has checked the card is there."""
    b = BIT[card]
    if twice & b:
        return once, twice & ~b
    return once & ~b, twice


def ms_size(once: int, twice: int) -> int:
    return once.bit_count() + twice.bit_count()


def ms_cards(once: int, twice: int) -> list[int]:
    return sort_cards(cards_of(once) + cards_of(twice))


# ---- tables ------------------------------------------------------------------------------

_SUIT_BITS = tuple(0x1FFF << (13 * s) for s in range(4))  # the 13 faces of each suit, ♠ first
_ORDER = tuple(SUIT[c] * 16 + (15 - RANK[c]) - (1 if c == MARKED_ACE else 0) for c in range(CARD_COUNT))
_CANON = tuple(RANK_NAMES[RANK[c]] + SUIT_SYMBOLS[SUIT[c]] for c in range(52)) + ("A♠*",)
_ASCII = tuple(RANK_NAMES[RANK[c]] + SUIT_LETTERS[SUIT[c]] for c in range(52)) + ("AS*",)


def _spellings() -> dict[str, int]:
    suits = {
        SPADES: "S♠♤",
        HEARTS: "H♥♡",
        DIAMONDS: "D♦♢",
        CLUBS: "C♣♧",
    }
    ranks = {r: [RANK_NAMES[r]] for r in range(13)}
    ranks[8].append("T")
    table: dict[str, int] = {}
    for s, symbols in suits.items():
        for r, names in ranks.items():
            for name in names:
                for sym in symbols:
                    table[(name + sym).upper()] = s * 13 + r
                    # Pagat writes the suit first (♠J); accept that too.
                    table[(sym + name).upper()] = s * 13 + r
    for sym in suits[SPADES]:
        for form in ("A" + sym + "*", sym + "A*"):
            table[form.upper()] = MARKED_ACE
    return table


_SPELLINGS = _spellings()
SPELLINGS = _SPELLINGS  # every accepted spelling, upper-cased, to its card
# The same without the marked ace's spellings: a single pack has no marked ace, so the
# reader's fast lane looks words up here and a marked ace goes to the builder, which reports it.
ONE_PACK_SPELLINGS = {word: card for word, card in _SPELLINGS.items() if card != MARKED_ACE}
ASCII_UPPER = _ASCII_UPPER  # str.translate table: upper case for ASCII letters only


def rank_from_char(ch: str) -> int | None:
    """A rank letter of the suit-by-suit hand form (``AKQJT98``)."""
    return _RANK_CHARS.get(ch.translate(_ASCII_UPPER))


_RANK_CHARS = {n: i for i, n in enumerate(RANK_NAMES) if len(n) == 1}
_RANK_CHARS["T"] = 8


@functools.lru_cache(maxsize=4096)
def held_cards(once: int, twice: int) -> tuple[int, ...]:
    """A hand or a pile as View shows it, canonical order. Cached: from one view to the next,
    a play changes one or two hands, and the simulator and the pages ask a view per step."""
    return tuple(ms_cards(once, twice) if twice else cards_of(once))
