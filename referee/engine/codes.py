"""Every diagnostic code, once: what was broken, its stable code, title, severity, the rule it
cites, an explanation and an example (ruff's registry of codes is the model).

Codes are grouped by who is at fault:

- ``S0xx`` the text cannot be read as a record (syntax, unknown seat, bad tag);
- ``R1xx`` the record cannot be true (docs/rulings.md, ruling 5): an error in the record,
  not a player's mistake, so no penalty;
- ``M2xx`` a mistake at the table, penalised as ruling 1 says.

The catalogue sits in the engine, the lowest stage, so the reader, the engine, the judge
and the reports all name a code by its member (``Code.RENEGE``), and no module writes a
code as a string (``tests/test_architecture.py`` holds this). A member is a ``str``, equal
to its code, so the JSON report and ``--select`` read it as the code itself. Codes never
change meaning; new ones get new numbers, and a retired number is never used again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from referee.engine import citations as R
from referee.engine import language as L

ERROR, MISTAKE, NOTE = "error", "mistake", "note"
SEVERITIES = (ERROR, MISTAKE, NOTE)


class Code(StrEnum):
    """What was broken, by its stable code."""

    SYNTAX_ERROR = "S001"
    NOT_A_CARD = "S002"
    UNKNOWN_SEAT = "S003"
    BAD_TAG = "S004"
    VERSION_LINE = "S005"
    BAD_SEATS = "S006"
    BAD_RULES = "S007"
    TRICK_NUMBER_OUT_OF_ORDER = "S008"
    OUT_OF_PLACE = "S009"
    BAD_RESULT = "S010"
    BAD_DEAL = "S011"
    DEALT_TWICE = "R101"
    DEAL_DOES_NOT_ADD_UP = "R102"
    UNEVEN_DEAL = "R103"
    NOT_IN_HAND = "R104"
    IN_WASTE = "R105"
    DRAWN_CARD_NOT_THERE = "R106"
    DRAW_OUT_OF_PLACE = "R107"
    WRONG_TAKE = "R108"
    TAKE_IN_TRICK = "R109"
    AFTER_END = "R110"
    COUNT_CONTRADICTS = "R111"
    RESULT_CONTRADICTS = "R112"
    IMPOSSIBLE_POSITION = "R113"
    SEAT_OUT = "R114"
    TRICK_NOT_FINISHED = "R115"
    WRITTEN_OUT_OF_TURN_ORDER = "R116"
    TRICK_LINES_OUT_OF_ORDER = "R117"
    RENEGE = "M201"
    AFTER_TOCHOO = "M202"
    OUT_OF_TURN = "M203"
    SECOND_CARD = "M204"
    NOT_ACE_FIRST = "M205"
    LOWER_CARD = "M206"


@dataclass(frozen=True, slots=True)
class Words:
    """How a code is said (ruff's ``Violation``: the rule owns its message). ``messages``
    and ``labels`` are templates over the verdict's facts (``str.format`` names: ``seat``,
    ``card``, ``trick``, ...), keyed by the way the finding happened ("" the usual one);
    ``notes`` the rule's note with its citation, keyed by which form of the rule applies
    ("" the usual one); a label is looked up by the way, then by the form of the rule;
    ``more`` further notes (by ``how_rule``, then ``how``) and ``related`` a related span's
    label, as templates too."""

    messages: Mapping[str, str]
    labels: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)
    more: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    related: Mapping[str, str] = field(default_factory=dict)
    # The ways of finding a mistake told without ruling 1's note (a renege proved long after).
    unpenalised: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Said:
    """A finding in words: its message, label, notes (rule note first) and related label."""

    message: str
    label: str
    notes: list[str]
    related: str = ""


@dataclass(frozen=True, slots=True)
class CodeInfo:
    code: Code
    title: str
    severity: str
    rule: str
    explanation: str
    example: str
    # Why the code is no longer reported (empty: in use). A retired code keeps its number,
    # which is never given to another finding, and `explain` still tells what it was.
    retired: str = ""
    words: Words | None = None


def _c(code: Code, title: str, rule: object, explanation: str, example: str, severity: str | None = None,
       retired: str = "", words: Words | None = None) -> CodeInfo:
    if severity is None:
        severity = MISTAKE if code.startswith("M") else ERROR
    return CodeInfo(code, title, severity, str(rule), explanation, example, retired, words)


P = R.PAGAT
N = R.notation

# Ruling 1's penalty, the second note of every mistake (M2xx): the rule itself is told once,
# in docs/rulings.md; each mistake's own help tells who picks up what (judging/wording.py).
PENALTY_NOTE = R.note("the offender picks up the trick and leads", R.ruling(1), R.LATER_TRICKS)
_FOLLOW_NOTE = R.note("a player who holds the suit led must follow it", R.LATER_TRICKS)
_FIRST_NOTE = R.note("those who have a spade must play a spade", R.FIRST_TRICK)
_NOT_IN_HAND_NOTE = R.note("a record that cannot be true is an error in the record, not a mistake at the table",
                           R.ruling(5))
_NOT_IN_HAND = Words(
    messages={"seat": "{seat} cannot hold {card}: it is in {holder}'s hand",
              "trick": "{seat} cannot hold {card}: it is on the table in this trick",
              "waste": "{seat} cannot hold {card}: it lies in the waste pile",
              "none_unseen": "{seat} cannot hold {card}: {seat} holds no unseen card that could be it",
              "shown_void": "{seat} cannot hold {card}: {seat}'s unseen cards were shown to lack it",
              "played": "{seat} cannot hold {card}: it has already been played"},
    labels={"": "not in {seat}'s hand"}, notes={"": _NOT_IN_HAND_NOTE})

CODES: dict[str, CodeInfo] = {
    c.code: c
    for c in [
        # ---- reading -------------------------------------------------------------------
        _c(Code.SYNTAX_ERROR, "syntax error", N(),
           "The line is not written in the .gwy notation: a word stands where the notation "
           "expects something else. The message names what was expected.",
           "1. West A♠ North\n   -> expected a card after the seat 'North'",
           words=Words(
               messages={"": "expected {expected}, found '{found}'",
                         "end": "expected {expected}, found the end of the line",
                         "no_card": "expected a card after the seat{seat}, found the end of the line",
                         "tag": "a tag belongs in the header, before the deal",
                         "quoted": "a quoted value belongs in a header tag",
                         "char": "expected {expected}, found U+{point} ({name})",
                         "ends": "the text ends in the middle of a line"})),
        _c(Code.NOT_A_CARD, "not a card", N("Cards"),
           "A card is a rank (2-10, T, J, Q, K, A) and a suit (S H D C or ♠ ♥ ♦ ♣), in either "
           "case: QH, q♥, 10H, TH. The marked ace of a double pack is A♠*.",
           "2. West 5H, North QX\n   -> expected a card such as Q♥ or QH, found 'QX'",
           words=Words(
               messages={"": "expected a card such as Q♥ or QH, found '{found}'",
                         "marked_single": "'{card}' is the marked ace of a double pack, and this game has one pack",
                         "rank": "'{ch}' in '{card}' is not a rank (2-9, T or 10, J, Q, K, A)",
                         "not_spade": "only the ace of spades can be marked, in '{card}'",
                         "marks": "'{card}' marks an ace, and only a double pack has a marked ace"},
               labels={"": "not a card", "marked_single": "no marked ace in a single pack", "rank": "",
                       "not_spade": "", "marks": ""})),
        _c(Code.UNKNOWN_SEAT, "unknown seat", N("Seats"),
           "Every seat named in a deal, play, take, draw or count must be one of the seats of "
           "the [Seats] tag, spelt the same way.",
           "[Seats \"North East South West\"]\n2. Nroth 5H\n   -> unknown seat 'Nroth'",
           words=Words(
               messages={"": "unknown seat '{name}' (seats are {seats})",
                         "no_tag": "unknown seat '{name}': the game has no [Seats] tag",
                         "dealer": "unknown seat '{name}' in the [Dealer] tag (seats are {seats})",
                         "dealer_alone": "unknown seat '{name}' in the [Dealer] tag"},
               labels={"": "not a seat of this game", "no_tag": "", "dealer": "", "dealer_alone": ""})),
        _c(Code.BAD_TAG, "bad tag", N("Header tags"),
           "A header tag is written [Name \"value\"], one to a line, before the deal; the tags "
           "Seats, Rules, Dealer and Result are given at most once.",
           "[Seats North East]\n   -> a tag is written [Name \"value\"]",
           words=Words(
               messages={"twice": "the [{name}] tag is given twice",
                         "no_game": "a tag belongs to a game: write it after the game's %game line",
                         "form": 'a tag is written [Name "value"], one to a line'})),
        _c(Code.VERSION_LINE, "version line", N("Files and games"),
           "A file starts with the version line '%gwy 1'. Other versions are not understood.",
           "%gwy 7\n   -> unsupported notation version 7",
           words=Words(
               messages={"before": "before the first %game line a file holds the version line '%gwy 1' and "
                                   "comments only, not '{found}'",
                         "second": "a second version line",
                         "unsupported": "unsupported notation version {number} (this referee reads version {version})",
                         "missing": "the file does not start with the version line '%gwy 1'"})),
        _c(Code.BAD_SEATS, "bad seats", R.cites(N("Seats"), R.PLAYERS),
           "A game names 2 to 8 seats (up to 16 with a double pack), each once, none of them a "
           "word of the notation, in a [Seats] tag before the deal.",
           "[Seats \"North North\"]\n   -> seat 'North' is named twice",
           words=Words(
               messages={"reserved": "'{name}' is a word of the notation and cannot name a seat",
                         "twice": "seat '{name}' is named twice",
                         "word": "'{name}' cannot name a seat (it is a word of the notation)",
                         "shape": "'{name}' cannot name a seat (a seat is one word of letters, digits, _ ' or -, "
                                  "starting with a letter)",
                         "count": "a game has 2 to {limit} seats, this one {n}",
                         "count_pack": "a game has 2 to {limit} seats with this pack, this one {n}"})),
        _c(Code.BAD_RULES, "bad rules", N("Rules"),
           "The [Rules] tag names a preset and may override options: "
           "[Rules \"pagat taking=no\"]. `getaway-ref rules` lists them.",
           "[Rules \"pagat taking=maybe\"]\n   -> option 'taking' takes yes or no"),
        _c(Code.TRICK_NUMBER_OUT_OF_ORDER, "trick number out of order", N("Tricks"),
           "Tricks are numbered 1, 2, 3, ... in order. A line with the number of the trick "
           "before it continues that trick.",
           "1. West A♠ ...\n3. West 5H\n   -> expected trick 2, found trick 3",
           words=Words(
               messages={"": "expected trick {expected}, found trick {found}"})),
        _c(Code.OUT_OF_PLACE, "out of place", N(),
           "A game is: %game, header tags, then a deal or a position, then the plays, takes, "
           "draws and counts in the order they happened.",
           "1. West A♠ ...\n[Date \"2024.05.01\"]\n   -> a tag belongs in the header",
           words=Words(
               messages={"no_setup": "a game needs a deal or a position before its first trick",
                         "version": "the version line belongs at the top of the file",
                         "tag": "a tag belongs in the header, before the deal",
                         "setup_twice": "a game has one deal or position",
                         "setup_line": "this line belongs in a deal or a position",
                         "deal_only": "only hands belong in a deal (write 'position' to start from a position)"})),
        _c(Code.BAD_RESULT, "bad result", N("Result"),
           "The [Result] tag names the loser, for Donkey followed by the number of legs "
           "(cards left): [Result \"South\"], [Result \"South 3\"], or [Result \"*\"] for a game "
           "not finished.",
           "[Result \"Nobody\"]\n   -> unknown seat 'Nobody'",
           words=Words(
               messages={"seat": "unknown seat '{name}' in the [Result] tag (it names the loser)",
                         "form": "the [Result] tag is the loser, and for Donkey the number of legs: \"South 3\""})),
        _c(Code.BAD_DEAL, "bad deal", N("The deal"),
           "A deal or a position gives every seat exactly once.",
           "deal\nNorth 13\nNorth 13\n   -> North's hand is given twice",
           words=Words(
               messages={"twice": "{name}'s hand is given twice",
                         "none_deal": "the deal gives no hands",
                         "none_position": "the position gives no hands",
                         "missing": "no hand for {seats}",
                         "waste": "the waste pile is given twice",
                         "leader": "the leader is given twice",
                         "trumps": "the trump suit is given twice"})),
        # ---- impossible records (ruling 5) ------------------------------------------------
        _c(Code.DEALT_TWICE, "card dealt twice", R.cites(R.ruling(5), R.PLAYERS),
           "Each card of the pack is in exactly one place: the same card cannot be in two "
           "hands, or twice in one, or in a hand and the waste pile.",
           "North A♠ K♠ ...\nEast A♠ ...\n   -> A♠ is dealt twice",
           words=Words(
               messages={"": "{card} is dealt {times}", "position": "{card} is placed {times}"},
               labels={"": "{card} again, in {where}"},
               notes={"": R.note("each card of the pack is in exactly one place", R.ruling(5))})),
        _c(Code.DEAL_DOES_NOT_ADD_UP, "deal does not add up", R.cites(R.ruling(5), R.ruling(7), R.DEAL),
           "The hands of a deal hold the whole pack: 52 cards (104 with a double pack).",
           "North 13, East 13, South 13, West 12\n   -> the deal holds 51 cards, the pack 52",
           words=Words(
               messages={"": "the deal holds {placed} cards, the pack {pack}", "missing": "the deal holds {placed} cards, "
                         "the pack {pack}: missing {cards}"},
               notes={"": R.note("the whole pack is dealt", R.DEAL)})),
        _c(Code.UNEVEN_DEAL, "uneven deal", R.cites(R.ruling(7), R.DEAL),
           "Dealt cards differ by at most one between hands; with a named dealer, the extra "
           "cards go to the players next after the dealer. Under deal=piles any sizes are "
           "legal.",
           "North 14, East 12, South 13, West 13\n   -> hand sizes 12 to 14",
           words=Words(
               messages={"": "hand sizes run from {low} to {high}: a deal gives at most one card more to some players",
                         "dealer": "with {dealer} dealing, the extra cards go to {seats}"},
               labels={"": "{high} cards", "dealer": "{seat} has {size}"},
               notes={"": R.note("as equally as possible", R.DEAL, R.ruling(7)),
                      "dealer": R.note("the extra cards go to the players next after the dealer", R.ruling(7))})),
        _c(Code.NOT_IN_HAND, "card not in hand", R.ruling(5),
           "The card played cannot be in the player's hand: the record has it somewhere else "
           "(another hand, the trick on the table), or the hand has no card left that could "
           "be it.",
           "North A♠ ...\n1. East A♠\n   -> East cannot hold A♠: it is in North's hand",
           words=_NOT_IN_HAND),
        _c(Code.IN_WASTE, "card already in the waste pile", R.ruling(5),
           "A card that went to the waste pile stays there until drawn: it cannot be played "
           "again.",
           "2. West 5H ...   (to the waste)\n7. West 5H\n   -> 5♥ lies in the waste pile",
           words=_NOT_IN_HAND),
        _c(Code.DRAWN_CARD_NOT_THERE, "drawn card not there", R.cites(R.ruling(4), R.GETTING_AWAY),
           "A drawn card must be where it is drawn from: the waste pile (not the trick just "
           "played) or the named player's hand.",
           "West draws 7♦\n   -> 7♦ is not in the waste pile",
           words=Words(
               messages={"seat": "{seat} draws {card} from {source}, but it is in {holder}'s hand",
                         "trick": "{seat} draws {card} from {source}, but it is in the trick just played, which is not "
                                  "drawn from",
                         "": "{seat} draws {card} from {source}, but it is not there"},
               labels={"": "not in {source}"},
               notes={"": R.note("the drawn card must be where it is drawn from", R.ruling(4))},
               more={f"{how}_waste": (R.note("from the waste pile, not from the trick just played", R.GETTING_AWAY),)
                     for how in ("seat", "trick", "")})),
        _c(Code.DRAW_OUT_OF_PLACE, "draw out of place", R.cites(R.ruling(4), R.GETTING_AWAY),
           "A draw happens only when the rules make a player draw: the player who has the "
           "power and no card. And that player must draw before leading.",
           "North draws 7♦\n   -> no draw is due: North has cards",
           words=Words(
               messages={"now": "{drawer} has the power and no card, and must draw from {source}",
                         "play": "{drawer} has the power and no card, and must draw from {source} before anyone plays",
                         "take": "{taker} takes {target}'s hand while {drawer} must draw",
                         "none_due": "{seat} draws {card}, but no draw is due",
                         "other": "{drawer} must draw, not {seat}",
                         "source": "{seat} must draw from {source}"},
               labels={"play": "no draw recorded before this play"},
               notes={"": R.note("the drawn card is written down", R.GETTING_AWAY, R.ruling(4)),
                      "take": str(R.GETTING_AWAY),
                      "none_due": R.note("only the player with the power and no card draws", R.GETTING_AWAY),
                      "due": R.cites(R.GETTING_AWAY, R.LAST_CARD)},
               more={"other": ("rule set: {rules}",), "source": ("rule set: {rules}",)})),
        _c(Code.WRONG_TAKE, "take of the wrong hand", R.cites(R.ruling(3), R.TAKING),
           "A player takes the hand of the next player in the direction of play who still "
           "holds cards; the taker must hold cards; the rule set must allow taking.",
           "North takes South\n   -> North may take only East's hand",
           words=Words(
               messages={"own": "{taker} takes {target}'s own hand",
                         "not_allowed": "{taker} takes {target}'s hand, but this rule set does not allow taking",
                         "next": "{taker} may take only {next}'s hand, not {target}'s",
                         "no_cards": "{taker} has no cards and cannot take a hand",
                         "": "{taker} cannot take {target}'s hand"},
               labels={"own": "the taker's own seat", "next": "not the next player holding cards"},
               notes={"own": R.note("the hand of the next player who holds cards", R.TAKING, R.ruling(3)),
                      "not_allowed": R.note("taking is the rule there; this game is judged with taking=no ({rules})",
                                            R.TAKING),
                      "next": R.note("the next player in the direction of play who holds cards", R.TAKING, R.ruling(3)),
                      "": R.note("the taker must still hold cards", R.ruling(3))})),
        _c(Code.TAKE_IN_TRICK, "take inside a trick", R.ruling(3),
           "Hands are taken between tricks only, never while a trick is being played.",
           "5. North Q♦ East J♦\nSouth takes West\n   -> trick 5 is not finished",
           words=Words(
               messages={"": "{taker} takes {target}'s hand in the middle of trick {during}"},
               notes={"": R.note("hands are taken between tricks only", R.ruling(3))})),
        _c(Code.AFTER_END, "play after the end", R.END,
           "The game ends when one player is left holding cards; nothing is played after.",
           "...\n(the game is over: South lost)\n9. South 4♣\n   -> the game ended after trick 8",
           words=Words(
               messages={"": "{seat} plays {card} after the end of the game",
                         "take": "{seat} takes {target}'s hand after the end of the game",
                         "draw": "{seat} draws {card} after the end of the game"},
               labels={"": "the game is over", "take": "", "draw": ""},
               notes={"": R.note("the game ends when one player is left holding cards: {loser} lost", R.END),
                      "take": str(R.END),
                      "draw": R.note("nothing happens after the last player holding cards is found", R.END),
                      "two_players": R.note("a tochoo on a drawn lead with two players left ends the game: "
                                            "{loser} lost", R.TWO_PLAYERS, R.DENEXA_ENDING)})),
        _c(Code.COUNT_CONTRADICTS, "count contradicts the replay", R.ruling(5),
           "A count line states hand sizes; the replay of the record gives other sizes.",
           "counts North 12\n   -> North holds 11 cards here, not 12",
           words=Words(
               messages={"": "the counts contradict the replay: {sizes}"},
               labels={"": "the replay gives {size}"},
               notes={"": R.note("a count the replay contradicts is an error in the record", R.ruling(5))},
               more={"": ("hand sizes here: {held}",)})),
        _c(Code.RESULT_CONTRADICTS, "result contradicts the replay", R.cites(R.END, R.DONKEY),
           "The [Result] tag names a loser (and legs) other than the replay finds, or a "
           "loser for a game the record does not finish.",
           "[Result \"West\"]\n   -> the replay ends with South holding cards",
           words=Words(
               messages={"unfinished": "the result says the game is not finished, but {loser} lost",
                         "not_over": "the result names {named} as the loser, but the record does not finish the game",
                         "two_players": "the result names {named}, but {loser} lost: {loser}'s drawn lead was answered "
                                        "with a tochoo",
                         "": "the result names {named}, but the replay ends with {loser} holding cards",
                         "legs": "the result gives {legs}, but {loser} ends with {cards}"},
               labels={"two_players": "not the loser", "": "not the loser", "unfinished": "", "not_over": "",
                       "legs": ""},
               notes={"unfinished": R.note("the last player holding cards loses", R.END),
                      "not_over": R.note("the last player holding cards loses", R.END),
                      "two_players": R.note("a tochoo on a drawn lead with two players left: the leader loses",
                                            R.TWO_PLAYERS, R.DENEXA_ENDING),
                      "": str(R.END),
                      "legs": R.note("a donkey with N legs, N the cards left", R.DONKEY)})),
        _c(Code.IMPOSSIBLE_POSITION, "impossible position", R.ruling(5),
           "A position must put every card in one place: hands, the waste pile and the "
           "seats out add up to the pack, and the leader holds cards.",
           "position\nNorth 5\nEast 5\nwaste 40\n   -> 50 cards placed, the pack has 52",
           words=Words(
               messages={"over": "the hands hold {placed} cards, more than the pack's {pack}",
                         "": "the position places {placed} cards, the pack has {pack}",
                         "no_lead": "the position does not say who leads next",
                         "leader_empty": "{seat} leads but holds no cards",
                         "trumps": "the position names trumps, but the rule set {rules} has no trump suit"},
               labels={"": "the waste pile", "over": "", "no_lead": "", "leader_empty": "", "trumps": ""},
               notes={"over": str(R.ruling(5)),
                      "": R.note("every card is in one place", R.ruling(5)),
                      "no_lead": R.note("the player with the power leads", R.LATER_TRICKS),
                      "leader_empty": R.note("a player with no cards has got away", R.GETTING_AWAY),
                      "trumps": R.note("trumps belong to the Kerala game", R.DONKEY)})),
        _c(Code.SEAT_OUT, "play by a seat that is out", R.GETTING_AWAY,
           "A player who has got away takes no more part in the play.",
           "(East took West's hand)\n8. West 4♣\n   -> West has got away",
           words=Words(
               messages={"": "{seat} plays {card} but has got away"},
               labels={"": "{seat} is out"},
               notes={"": R.note("a player with no cards takes no more part", R.GETTING_AWAY)})),
        _c(Code.TRICK_NOT_FINISHED, "trick not finished", R.LATER_TRICKS,
           "The record starts a new trick while players who hold cards have not yet played to "
           "the last one, and no tochoo ended it. The referee ends the trick as the record "
           "leaves it (to the waste pile, or to the winner if there was a tochoo) and goes on.",
           "1. West A♠, North J♠, East A♥\n2. West 5♥ ...\n   -> trick 1 is not finished: South has not played to it",
           words=Words(
               messages={"": "trick {trick} is not finished: {who} has not played to it",
                         "many": "trick {trick} is not finished: {who} have not played to it"},
               labels={"": "trick {next} starts here"},
               notes={"": R.note("everyone plays in turn until all have played or a tochoo ends the trick",
                                 R.LATER_TRICKS),
                      "first": R.note("in the first trick everyone plays one card", R.FIRST_TRICK, R.ruling(2))},
               more={"": ("the referee ends the trick as the record leaves it and goes on",),
                     "many": ("the referee ends the trick as the record leaves it and goes on",)})),
        _c(Code.WRITTEN_OUT_OF_TURN_ORDER, "plays written out of turn order (retired)", R.cites(R.ruling(10), N("Tricks")),
           "Retired: no check reports it. It once read a whole trick whose plays were legal in "
           "another order as a slip of the record and judged the plays in turn order. Under "
           "ruling 10 the order of a trick line is the order of play, so a play written before "
           "its turn is a play out of turn (M203), with its penalty applied or not as the record "
           "shows.",
           "5. North Q♦, South A♦, West K♦, East J♦\n   -> M203: South played A♦ out of turn",
           retired="the referee never reorders the plays of a trick (docs/rulings.md, ruling 10); "
                   "a play written before its turn is M203"),
        _c(Code.TRICK_LINES_OUT_OF_ORDER, "trick lines written out of order", R.cites(R.ruling(10), N("Tricks")),
           "Whole trick lines stand in another order than their numbers, and read in the order of "
           "their numbers they explain the record with no mistake or record error where the order "
           "written needs one: the numbers tell the order of play, and the referee judges the "
           "tricks in that order. When the order of the numbers explains no more than the order "
           "written, the written order stands and the numbers are reported (S008).",
           "1. ...\n3. East 3♥ ...\n2. West 5♥ ...\n   -> trick 3 stands before its place",
           words=Words(
               messages={"": "the trick lines are written out of order ({runs}): trick {number} stands before its place"})),
        # ---- mistakes at the table (ruling 1) ------------------------------------------------
        _c(Code.RENEGE, "renege", R.cites(R.LATER_TRICKS, R.ruling(1)),
           "A player who holds a card of the suit led must play one. Playing another suit "
           "while holding the suit led is a renege, penalised as ruling 1 says.",
           "4. West 2♥, North 6♥, East K♣   (East holds 9♥)\n   -> renege; East picks up 3 "
           "cards and leads trick 5",
           words=Words(
               messages={"": "renege: {seat} played {card} on a {led} lead while holding {held}",
                         "trump": "renege: {seat} played {card} without trumping, holding the trump {held}",
                         "penalised": "renege: {seat} played {card} on a {led} lead, and the table penalised it",
                         "proved": "renege: {seat} played {card} on a {led} lead while holding a {led}"},
               labels={"": "tochoo while holding the suit led", "first": "a spade was due",
                       "donkey": "a trump was due", "penalised": "tochoo penalised as a renege"},
               notes={"": _FOLLOW_NOTE, "first": _FIRST_NOTE,
                      "donkey": R.note("a player who cannot follow suit must play a trump if they have one",
                                       R.DONKEY)},
               more={"penalised": ("{seat}'s hand is unseen: the renege is taken from the record, where {seat} "
                                   "picks up the trick and leads next instead of the tochoo's winner",),
                     "proved": ("proved by {seat}'s {proof} in trick {proof_trick}: a card {seat} held since "
                                "before the tochoo",
                                "the penalty was not applied at the table; the referee follows the record as played"),
                     "proved_first": ("proved by {seat}'s {proof} in trick {proof_trick}: a card {seat} held since "
                                      "the first trick, when {seat} played no spade",
                                      "the penalty was not applied at the table; the referee follows the record as "
                                      "played")},
               related={"proved": "{seat} plays a {led} from the hand that had none"},
               unpenalised=("proved",))),
        _c(Code.AFTER_TOCHOO, "play after a tochoo", R.cites(R.LATER_TRICKS, R.ruling(1)),
           "A tochoo (a card of another suit) ends the trick at once: the players after it do "
           "not play. Playing after it is penalised as ruling 1 says.",
           "6. South 5♦, West K♠, North 3♦\n   -> North played after West's tochoo",
           words=Words(
               messages={"": "{seat} played {card} after {by}'s tochoo {tochoo} ended trick {trick}",
                         "ended": "{seat} played {card} after the end of the trick ended trick {trick}"},
               labels={"": "played after the trick ended"},
               notes={"": R.note("a tochoo ends the trick; nobody plays after it", R.LATER_TRICKS),
                      "donkey": R.note("a trump never ends a trick; a card that neither follows nor trumps does",
                                       R.DONKEY)})),
        _c(Code.OUT_OF_TURN, "play out of turn", R.cites(R.LATER_TRICKS, R.ruling(1), R.ruling(2)),
           "From the second trick on, the players play in turn from the leader. Playing out "
           "of turn is penalised as ruling 1 says. In the first "
           "trick any order is allowed (unless first_trick=in_turn).",
           "5. North Q♦, South A♦\n   -> it was East's turn",
           words=Words(
               messages={"": "{seat} played {card} out of turn: it was {turn}'s turn",
                         "lead": "{seat} led {card}, but {turn} {why} trick {trick}"},
               labels={"": "out of turn"},
               notes={"": R.note("after the lead, the others play in turn", R.LATER_TRICKS),
                      "first": R.note("under first_trick=in_turn the first trick is played in turn", R.FIRST_TRICK,
                                      R.DENEXA_PLAY)})),
        _c(Code.SECOND_CARD, "second card in a trick", R.cites(R.ruling(1), R.ruling(2)),
           "Each player plays at most one card to a trick.",
           "1. West A♠, North J♠, North 9♠\n   -> North has already played to trick 1",
           words=Words(
               messages={"": "{seat} played a second card, {card}, to trick {trick}"},
               labels={"": "second card in one trick"},
               notes={"": R.note("each player plays one card to a trick", R.ruling(2))})),
        _c(Code.NOT_ACE_FIRST, "first trick not opened with the ace of spades", R.cites(R.FIRST_TRICK, R.ruling(2)),
           "The holder of the ace of spades (the marked one in a double pack) opens the "
           "first trick with it.",
           "1. North J♠ ...\n   -> West holds A♠ and must open with it",
           words=Words(
               messages={"": "the first trick opens with {ace}, played by {holder}; {seat} played {card}",
                         "unknown": "the first trick opens with {ace}, played by its holder; {seat} played {card}"},
               labels={"": "{ace} first"},
               notes={"": R.note("the holder of the ace of spades opens the first trick with it", R.FIRST_TRICK),
                      "double": R.note("with two packs the marked ace of spades opens the first trick",
                                       R.DOUBLE_PACK, R.FIRST_TRICK)})),
        _c(Code.LOWER_CARD, "a lower card would have kept the game going", R.cites(R.ruling(8), R.DENEXA_ENDING, R.TWO_PLAYERS),
           "A note, not a mistake (ruling 8): with two players left, the player with cards answered the "
           "other's last card or a drawn lead with a higher card of the suit while holding a lower one. "
           "The play is legal: the other player gets away and the player with cards loses. A lower "
           "card would have kept the game going.",
           "(West leads drawn 9♦; East plays K♦ holding 3♦)\n   -> note: 3♦ would have kept the game going",
           severity=NOTE,
           words=Words(
               messages={"": "{seat} answered {lead_seat}'s {what} {lead} with {card} while holding the lower "
                             "{lower}: legal, and {seat} loses"},
               labels={"": "a higher card by choice"},
               notes={"": R.note("any card of the suit led may be played; the other player gets away",
                                 R.ruling(8), R.TWO_PLAYERS, R.DENEXA_ENDING)},
               more={"": ()})),
    ]
}


def say(code: str, how: str = "", rule: str = "", **facts: object) -> Said:
    """A finding of ``code`` in its catalogue's words: the message and label the way it
    happened (``how``), the note of the form of the rule that applies (``rule``), each
    filled with the verdict's facts. A mistake (M2xx) adds ruling 1's penalty note."""
    w = CODES[code].words
    assert w is not None, f"{code} has no words in the catalogue"
    labels = w.labels
    label = labels[how] if how and how in labels else labels.get(rule, labels.get("", ""))
    notes = [w.notes.get(rule, w.notes.get("", ""))]
    if CODES[code].severity == MISTAKE and how not in w.unpenalised:
        notes.append(PENALTY_NOTE)
    notes += w.more.get(f"{how}_{rule}", w.more.get(how, ()))
    # Translated here, the one place a code's words are said (engine/language.py): each
    # template in the current language, then filled with the facts.
    return Said(L.gettext(w.messages[how]).format(**facts), L.gettext(label).format(**facts),
                [L.note(n).format(**facts) for n in notes if n], L.gettext(w.related.get(how, "")).format(**facts))


def said_title(info: CodeInfo) -> str:
    """A code's title in the current language."""
    return L.gettext(info.title)


def said_explanation(info: CodeInfo) -> str:
    """A code's explanation in the current language."""
    return L.gettext(info.explanation)


def explain(code: str) -> CodeInfo | None:
    return CODES.get(code.upper())


def title(code: str) -> str:
    """The title of a code (the code itself for one we do not know)."""
    c = CODES.get(code)
    return c.title if c else code
