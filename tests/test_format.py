"""The canonical form (``getaway-ref fmt``): one spelling for everything, every fact and
every comment kept, so that parse(fmt(x)) == parse(x) and fmt(fmt(x)) == fmt(x).

The properties run over generated records: random seats (tricky names included), every
card spelling, hands by cards, size and suit by suit, positions, tricks split over lines,
takes, draws, counts, comments everywhere, CRLF or LF, blank lines and indentation.
"""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee
from referee.engine import cards as C
from referee.notation.format import format_file, format_game
from referee.notation.reader import RESERVED, parse_file_text


def fmt(text: str) -> str:
    pre, games = parse_file_text(text)
    return format_file(pre, games)


def errors(text: str) -> list:
    pre, games = parse_file_text(text)
    return [(e.code, e.message, e.span.line if e.span else None) for e in pre.errors] + [
        (e.code, e.message, e.span.line if e.span else None) for g in games for e in g.errors
    ]


# ---- canonical output --------------------------------------------------------------------------


def test_documented_example_ascii_to_canonical():
    """docs/notation.md, "Canonical form": the input and output given there."""
    text = (
        "%gwy 1\n"
        "%game\n"
        '[Seats "North East South West"]\n'
        "deal\n"
        "  north AKQJ.T98.765.432\n"
        "  EAST  13\n"
        "  South 13\n"
        "  West 13   #unseen\n"
        "1. north as EAST qh South 10S West 9s\n"
    )
    assert fmt(text) == (
        "%gwy 1\n"
        "\n"
        "%game\n"
        '[Seats "North East South West"]\n'
        "deal\n"
        "North A♠ K♠ Q♠ J♠ 10♥ 9♥ 8♥ 7♦ 6♦ 5♦ 4♣ 3♣ 2♣\n"
        "East 13\n"
        "South 13\n"
        "West 13  # unseen\n"
        "1. North A♠, East Q♥, South 10♠, West 9♠\n"
    )


def test_ascii_record_with_every_kind_of_line():
    text = (
        "# a file comment\r\n"
        "%gwy 1\r\n"
        "\r\n"
        "%game   #  first  \r\n"
        '[Seats "Ann Bob Cy"]\r\n'
        '[Event   "Club \\"night\\""]#ev\r\n'
        "# header\r\n"
        "position\r\n"
        "  bob 2c th AS   # bob's\r\n"
        "ANN   5\r\n"
        "cy out\r\n"
        "waste 7d,8D  9d\r\n"
        "lead Bob\r\n"
        "trick 9\r\n"
        "9. bob as,ann 2s\r\n"
        "\r\n"
        "9.\tCy 3S  # late\r\n"
        "ann takes BOB\r\n"
        "Ann draws 7d\r\n"
        "ann draws ♢8 from bob\r\n"
        "counts ann 9 bob 0\r\n"
        "# the end\r\n"
    )
    assert fmt(text) == (
        "%gwy 1\n"
        "# a file comment\n"
        "\n"
        "%game  # first\n"
        '[Seats "Ann Bob Cy"]\n'
        '[Event "Club \\"night\\""]  # ev\n'
        "# header\n"
        "position\n"
        "Bob A♠ 10♥ 2♣  # bob's\n"
        "Ann 5\n"
        "Cy out\n"
        "waste 7♦ 8♦ 9♦\n"
        "lead Bob\n"
        "trick 9\n"
        "9. Bob A♠, Ann 2♠\n"
        "9. Cy 3♠  # late\n"
        "Ann takes Bob\n"
        "Ann draws 7♦\n"
        "Ann draws 8♦ from Bob\n"
        "counts Ann 9, Bob 0\n"
        "# the end\n"
    )


def test_canonical_form_is_stable_on_the_pagat_example():
    from conftest import RECORDS

    text = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    assert errors(text) == []
    once = fmt(text)
    assert fmt(once) == once
    pre, games = parse_file_text(text)
    assert parse_file_text(once)[1] == games


def test_games_are_separated_by_one_blank_line_and_marked_ace_is_written_canonically():
    text = ('%gwy 1\n%game\n[Seats "A B"]\n[Rules "pagat packs=2"]\ndeal\nA 52\nB 52\n1. A as*\n\n\n\n'
            '%game\n[Seats "C D"]\ndeal\nC 26\nD 26\n1. C ♠A\n')
    out = fmt(text)
    assert out == ('%gwy 1\n\n%game\n[Seats "A B"]\n[Rules "pagat packs=2"]\ndeal\nA 52\nB 52\n1. A A♠*\n'
                   '\n%game\n[Seats "C D"]\ndeal\nC 26\nD 26\n1. C A♠\n')


def test_format_game_of_one_game():
    (g,) = referee.parse('%gwy 1\n%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n1. A ts, B 9S\n')
    assert referee.format_game(g) == '%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n1. A 10♠, B 9♠\n'
    assert format_game(g) == referee.format_game(g)


def test_empty_end_of_line_comment_round_trips():
    text = '%gwy 1\n%game\n[Seats "A B"]\ndeal\nA 26 #\nB 26\n'
    pre, games = parse_file_text(text)
    assert parse_file_text(fmt(text))[1] == games


def test_comment_on_the_version_line_is_kept():
    text = '%gwy 1  # my records\n%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n'
    assert "my records" in fmt(text)


# ---- generated records -----------------------------------------------------------------------------

SAFE_SEATS = [
    "North", "East", "South", "West", "Zoë", "O'Brien", "Jean-Luc", "P10", "_x", "Ñico",
    "Dealer", "Outer", "Rester", "Fromage", "Taker", "Wastrel", "Leader", "Tricky", "Counter",
    "QH", "AS", "T", "S10", "Δέλτα", "x-1",
]
ASCII_LETTERS = string.ascii_letters


def seat_names():
    generated = st.builds(
        lambda first, rest: first + rest,
        st.sampled_from(ASCII_LETTERS + "_ëñøÆ"),
        st.text(alphabet=ASCII_LETTERS + string.digits + "_'-ëñ", max_size=6),
    )
    return st.one_of(st.sampled_from(SAFE_SEATS), generated).filter(lambda s: s.lower() not in RESERVED)


RANK_WORDS = {r: ([n] if n != "10" else ["10", "T"]) for r, n in enumerate(C.RANK_NAMES)}
SUIT_WORDS = {0: "S♠♤", 1: "H♥♡", 2: "D♦♢", 3: "C♣♧"}


@st.composite
def card_word(draw, card: int) -> str:
    """A spelling of the card: rank first or suit first, letter or symbol, any case."""
    if card == C.MARKED_ACE:
        word = draw(st.sampled_from(["A♠*", "AS*", "♠A*", "SA*", "A♤*"]))
    else:
        rank = draw(st.sampled_from(RANK_WORDS[C.RANK[card]]))
        suit = draw(st.sampled_from(SUIT_WORDS[C.SUIT[card]]))
        word = draw(st.sampled_from([rank + suit, suit + rank]))
    return draw(st.sampled_from([word, word.lower(), word.upper()]))


def comment_text():
    return st.text(
        alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\n\r"),
        min_size=1, max_size=20,
    ).filter(lambda s: s.strip())


@st.composite
def eol(draw) -> str:
    """An optional end-of-line comment, with any spacing before it."""
    if draw(st.booleans()):
        return ""
    space = draw(st.sampled_from([" ", "  ", "\t", "   ", ""]))
    return f"{space}#{draw(comment_text())}"


@st.composite
def own_line_comments(draw, max_size=2) -> list[str]:
    return [f"# {c}" if draw(st.booleans()) else f"#{c}" for c in draw(st.lists(comment_text(), max_size=max_size))]


def sep():
    return st.sampled_from([", ", " ", ",", " , ", "\t", ",  "])


def tag_value():
    return st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=15)


def escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


@st.composite
def pbn(draw, cards: list[int], marked: bool) -> str:
    groups = []
    for suit in range(4):
        ranks = sorted((C.RANK[c] for c in cards if C.SUIT[c] == suit and c != C.MARKED_ACE), reverse=True)
        chars = []
        if suit == 0 and marked:
            chars.append("A*")
        for r in ranks:
            name = C.RANK_NAMES[r]
            if name == "10":
                name = draw(st.sampled_from(["10", "T", "t"]))
            chars.append(name if name.isdigit() else draw(st.sampled_from([name, name.lower()])))
        group = "".join(chars)
        if not group and draw(st.booleans()):
            group = "-"
        groups.append(group)
    return ".".join(groups)


@st.composite
def hand_body(draw, double: bool) -> str:
    kind = draw(st.sampled_from(["size", "cards", "pbn"]))
    if kind == "size":
        return str(draw(st.integers(0, 60)))
    cards = draw(st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True))
    marked = double and draw(st.booleans())
    if kind == "pbn":
        return draw(pbn(cards, marked))
    if marked:
        cards.append(C.MARKED_ACE)
    cards = draw(st.permutations(cards))
    return " ".join(draw(card_word(c)) for c in cards)


@st.composite
def game_text(draw) -> list[str]:
    n = draw(st.integers(2, 5))
    seats = draw(st.lists(seat_names(), min_size=n, max_size=n, unique_by=lambda s: s.lower()))
    double = draw(st.booleans())
    with_seats_tag = draw(st.booleans())

    def say(i: int) -> str:
        """A seat as a line writes it: any case, when that does not change the name."""
        name = seats[i]
        if name.isascii():
            return draw(st.sampled_from([name, name.lower(), name.upper()]))
        return name

    def card() -> str:
        c = draw(st.integers(0, 52 if double else 51))
        return draw(card_word(c))

    lines = [f"%game{draw(eol())}"]
    header = []
    if with_seats_tag:
        # seat names are separated by spaces or commas
        between = draw(st.sampled_from([" ", "  ", ", ", ","]))
        header.append(f'[Seats "{between.join(seats)}"]{draw(eol())}')
    spec = draw(st.sampled_from(["pagat", "denexa", "donkey", "pagat taking=no direction=anticlockwise"]))
    if double:
        spec += " packs=2"
    if double or draw(st.booleans()):
        header.append(f'[Rules "{spec}"]{draw(eol())}')
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,7}", fullmatch=True).filter(
            lambda s: s.lower() not in ("seats", "rules", "dealer", "result")))
        header.append(f'[{name} "{escape(draw(tag_value()))}"]{draw(eol())}')
    if with_seats_tag and draw(st.booleans()):
        header.append(f'[Dealer "{seats[draw(st.integers(0, n - 1))]}"]')
    if with_seats_tag and draw(st.booleans()):
        header.append(f'[Result "{draw(st.sampled_from(["*", seats[0], seats[-1] + " 3"]))}"]')
    header += draw(own_line_comments())
    lines += draw(st.permutations(header))

    position = draw(st.booleans())
    order = list(range(n))
    if with_seats_tag:
        order = draw(st.permutations(order))
    setup = []
    for i in order:
        for c in draw(own_line_comments(max_size=1)):
            setup.append(c)
        # without a [Seats] tag the setup lines name the seats, as spelt in the list
        who = say(i) if with_seats_tag else seats[i]
        if position and draw(st.integers(0, 3)) == 0:
            setup.append(f"{who} out{draw(eol())}")
        else:
            setup.append(f"{who} {draw(hand_body(double))}{draw(eol())}")
    next_trick = None
    if position:
        extra = []
        if draw(st.booleans()):
            w = draw(st.sampled_from(["size", "cards", "rest"]))
            if w == "size":
                extra.append(f"waste {draw(st.integers(0, 50))}{draw(eol())}")
            elif w == "rest":
                extra.append(f"waste {draw(st.sampled_from(['rest', 'REST', 'Rest']))}{draw(eol())}")
            else:
                ws = draw(st.lists(st.integers(0, 51), min_size=1, max_size=5, unique=True))
                extra.append("waste " + draw(sep()).join(draw(card_word(c)) for c in ws) + draw(eol()))
        if draw(st.booleans()):
            extra.append(f"lead {say(draw(st.integers(0, n - 1)))}{draw(eol())}")
        if draw(st.booleans()):
            next_trick = draw(st.integers(1, 40))
            extra.append(f"trick {next_trick}{draw(eol())}")
        setup += extra
    lines.append(("position" if position else "deal") + draw(eol()))
    lines += setup

    number = next_trick or (1 if not position else draw(st.integers(1, 40)))
    first = True
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["trick", "trick", "take", "draw", "counts", "comment"]))
        if kind == "trick":
            if not first and draw(st.booleans()):
                number += 1
            first = False
            k = draw(st.integers(1, n))
            plays = draw(sep()).join(f"{say(draw(st.integers(0, n - 1)))} {card()}" for _ in range(k))
            space = draw(st.sampled_from([" ", "  ", "\t"]))
            lines.append(f"{number}.{space}{plays}{draw(eol())}")
        elif kind == "take":
            a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            lines.append(f"{say(a)} takes {say(b)}{draw(eol())}")
        elif kind == "draw":
            src = f" from {say(draw(st.integers(0, n - 1)))}" if draw(st.booleans()) else ""
            lines.append(f"{say(draw(st.integers(0, n - 1)))} draws {card()}{src}{draw(eol())}")
        elif kind == "counts":
            who = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
            lines.append("counts " + draw(sep()).join(f"{say(i)} {draw(st.integers(0, 60))}" for i in who) + draw(eol()))
        else:
            lines += draw(own_line_comments(max_size=1)) or ["# note"]
    # blank lines and indentation anywhere after the %game line
    out = [lines[0]]
    for line in lines[1:]:
        if draw(st.integers(0, 6)) == 0:
            out.append(draw(st.sampled_from(["", "  ", "\t"])))
        out.append(draw(st.sampled_from(["", "", "", "  ", "\t"])) + line)
    return out


@st.composite
def records(draw) -> str:
    nl = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    lines = draw(own_line_comments(max_size=1)) + ["%gwy 1"] + draw(own_line_comments())
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            lines.append("")
        lines += draw(game_text())
    text = nl.join(lines)
    if draw(st.booleans()) or not text:
        text += nl
    return text


# The quick default keeps the suite near two minutes; GETAWAY_PROFILE=long runs twenty times more.
_SCALE = {"long": 20}.get(__import__("os").environ.get("GETAWAY_PROFILE", ""), 1)
SETTINGS = settings(max_examples=60 * _SCALE, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(records())
def test_fmt_keeps_every_fact_and_is_idempotent(text):
    pre, games = parse_file_text(text)
    # the generator writes valid notation: the reader must accept all of it
    assert errors(text) == []
    out = format_file(pre, games)
    # parse(fmt(x)) == parse(x): the facts and every comment, spans aside
    pre2, games2 = parse_file_text(out)
    assert errors(out) == []
    assert pre2 == pre
    assert games2 == games
    # fmt(fmt(x)) == fmt(x)
    assert format_file(pre2, games2) == out
    check_canonical_spelling(out, games2)


def check_canonical_spelling(out: str, games) -> None:
    """Whatever the input spelling, the output has LF line ends, no indentation, blank lines
    only before a game, and every card as rank and Unicode suit."""
    assert "\r" not in out
    body = out.split("\n")
    assert body[0] == "%gwy 1"
    assert body[-1] == ""
    for i, line in enumerate(body[:-1]):
        assert line == line.strip(" \t"), line
        if line == "":
            assert body[i + 1].startswith("%game"), body[i + 1]
    for g in games:
        for a in g.actions:
            if hasattr(a, "plays"):
                for p in a.plays:
                    s = p.card_span
                    assert out[s.start:s.end] == C.card_str(p.card)
