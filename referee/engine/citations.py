"""Where each rule comes from, defined once.

Every diagnostic, note and answer that cites a rule uses one of these values, so a user can
look it up: the public sources by their names and sections ("Pagat, Getaway: First
trick"), and our own rulings as ``docs/rulings.md, ruling N`` (shipped with the package:
``getaway-ref rules --rulings`` prints them).
"""

from __future__ import annotations

from dataclasses import dataclass

PAGAT = "Pagat, Getaway"
DENEXA = "Denexa, How to Play Getaway"
RULINGS = "docs/rulings.md"
NOTATION = "docs/notation.md"


@dataclass(frozen=True, slots=True)
class Cite:
    """A source and a section of it."""

    source: str
    section: str

    def __str__(self) -> str:
        if self.source in (RULINGS, NOTATION):
            return f"{self.source}, {self.section}" if self.section else self.source
        return f"{self.source}: {self.section}"


# Pagat's page, by section.
PLAYERS = Cite(PAGAT, "Players and Cards")
DEAL = Cite(PAGAT, "Deal")
FIRST_TRICK = Cite(PAGAT, "First trick")
LATER_TRICKS = Cite(PAGAT, "Second and subsequent tricks")
GETTING_AWAY = Cite(PAGAT, "Getting away")
TAKING = Cite(PAGAT, "Taking cards")
END = Cite(PAGAT, "End of Play")
TWO_PLAYERS = Cite(PAGAT, "Two players")
VARIATIONS = Cite(PAGAT, "Variations")
PILES = Cite(PAGAT, "Variations (piles)")
ANTICLOCKWISE = Cite(PAGAT, "Variations (anticlockwise)")
LAST_CARD = Cite(PAGAT, "Variations (a last card that wins a clean trick)")
DRAW_FROM_HAND = Cite(PAGAT, "Variations (version 2: draw from a player's hand)")
PASS_LEAD = Cite(PAGAT, "Variations (version 3: the last card gets away)")
DOUBLE_PACK = Cite(PAGAT, "Variations (double pack)")
DONKEY = Cite(PAGAT, "Donkey")

# Denexa's rules, by section.
DENEXA_PLAY = Cite(DENEXA, "Game play")
DENEXA_GETTING_AWAY = Cite(DENEXA, "Getting away")
DENEXA_ENDING = Cite(DENEXA, "Ending the hand")


def ruling(n: int) -> Cite:
    """Our ruling ``n`` (1-10) of ``docs/rulings.md``."""
    if n not in RULINGS_TITLES:
        raise KeyError(f"there is no ruling {n}")
    return Cite(RULINGS, f"ruling {n}")


RULINGS_TITLES = {
    1: "a mistake ends the trick at once",
    2: "the first trick",
    3: "taking a hand",
    4: "a drawn card is written down",
    5: "an impossible record is not a mistake at the table",
    6: "Donkey's first trick",
    7: "the deal",
    8: "a higher card by choice is no mistake",
    9: "\"more than two players\" counts the trick",
    10: "the record is the timeline",
    11: "a random draw is luck",
}


def notation(section: str = "") -> Cite:
    return Cite(NOTATION, section)


def cites(*items: Cite) -> str:
    """Several citations in one note: ``A; B``; our rulings together, ``docs/rulings.md,
    rulings 1 and 2``, where the first of them stands."""
    numbers = [c.section.split()[-1] for c in items if c.source == RULINGS and c.section.startswith("ruling ")]
    parts: list[str] = []
    together = len(numbers) > 1
    for c in items:
        if together and c.source == RULINGS and c.section.startswith("ruling "):
            if numbers:
                parts.append(f"{RULINGS}, rulings {', '.join(numbers[:-1])} and {numbers[-1]}")
                numbers = []
            continue
        parts.append(str(c))
    return "; ".join(parts)


def note(text: str, *items: Cite) -> str:
    """A note that gives a rule in our words after its citations: ``Cite — text``."""
    return f"{cites(*items)} — {text}" if items else text


def is_citation(note: str) -> bool:
    """Does this note cite a rule (rather than say what the referee did)?"""
    return note.startswith((PAGAT, DENEXA, RULINGS, NOTATION))
