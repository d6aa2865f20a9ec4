"""The reader's fast lane (referee/_lane.py) reads exactly what Lark reads.

Trick lines and hands written card by card are found by a regex made of the grammar's
terminals and taken out of Lark's way. Nothing a user sees may change: every game, every
span and every diagnostic must be the same as when Lark reads every line. These tests read
the same text both ways and compare everything, spans included (which record equality
leaves out): every record and corpus file, simulated games under every preset, and lines
mutated at random into the near-misses a lexer must get right.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.rules import PRESETS
from referee.notation.grammar import grammar_text
from referee.notation.lane import Lane
from referee.notation.reader import Reader, parse_file_text
from referee.notation.record import Play, Trick
from referee.reports.render import diagnostic_text
from referee.selfplay.simulate import simulate_text

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    [*ROOT.glob("records/*.gwy"), *ROOT.glob("tests/data/valid/*.gwy"), *ROOT.glob("tests/data/invalid/*.gwy")]
)


def facts(x):
    """Everything a record holds, spans and source text included, as nested tuples."""
    if isinstance(x, Play):  # the lane's plays find their spans when asked: ask
        return ("Play", x.seat, x.card, x.seat_span, x.card_span)
    if isinstance(x, Trick):  # the lane's tricks make their plays and span when asked: ask
        return ("Trick", x.number, x.seats, x.cards, facts(x.plays), x.comment, x.span)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, tuple((f.name, facts(getattr(x, f.name))) for f in dataclasses.fields(x)))
    if isinstance(x, (list, tuple)):
        return tuple(facts(v) for v in x)
    return x


def read(text: str, lane: bool):
    Reader("<text>")  # builds the shared parser and lane
    saved = Reader._lane
    if not lane:
        Reader._lane = None
    try:
        prelude, games = parse_file_text(text)
    finally:
        Reader._lane = saved
    return facts(prelude), [(facts(g), facts(g.errors)) for g in games]


def assert_same(text: str):
    with_lane, lark_only = read(text, True), read(text, False)
    assert with_lane == lark_only


def test_the_shipped_grammar_has_the_lane():
    Reader("<text>")
    assert Reader._lane is not None, "the grammar's trick or hand rule changed: update _lane._SHAPES"


def test_the_lane_takes_tricks_and_hands_and_leaves_the_rest():
    Reader("<text>")
    lane = Reader._lane
    text = (
        "%game\n[Seats \"North East\"]\ndeal\nNorth A♠ 2♣ # ok\nEast 13\nWest AKQ.T92..J43\n"
        "waste 5♠ 6♠\nWest out\n1. North A♠, East 10♠ # lead\n2.North 2♣\nNorth takes East\n"
        "counts North 12\n3. East 4♣\r\n"
    )
    found, blanked = lane.scan(text)
    assert [m.group(0) for m in found] == ["North A♠ 2♣ # ok", "1. North A♠, East 10♠ # lead", "3. East 4♣"]
    assert len(blanked) == len(text) and blanked.count("\n") == text.count("\n")
    assert "North A♠" not in blanked and "waste 5♠ 6♠" in blanked and "2.North 2♣" in blanked


def test_lark_only_switch(monkeypatch):
    Reader("<text>")
    monkeypatch.setenv("GETAWAY_LARK_ONLY", "1")
    assert Lane.for_parser(Reader._parser) is None


def test_a_grammar_of_another_shape_turns_the_lane_off():
    from lark import Lark

    text = grammar_text().replace("trick: TRICK_NO (SEAT CARD)+ _eol", "trick: TRICK_NO (SEAT CARD)+ SIZE? _eol")
    assert text != grammar_text()
    lark = Lark(text, parser="lalr", lexer="contextual", start=["game", "line", "prelude"])
    assert Lane.for_parser(lark) is None


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_record_reads_the_same(path):
    assert_same(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_simulated_games_read_the_same(preset):
    assert_same(simulate_text(5, 6, seed=11, rules=PRESETS[preset], mistakes=0.05))


def test_the_order_of_seats_and_rules_is_kept():
    # Hands that name the seats (no [Seats] tag); a tag and a hand after the first trick:
    # what the lane's lines depend on changes after them, so Lark reads these in order.
    head = "%gwy 1\n%game\n"
    assert_same(head + "deal\nNorth A♠ 2♣\nEast 3♣ 4♣\n1. North A♠, East 3♣\nSouth 2♦ 5♦\n2. South 2♦\n")
    assert_same(head + "deal\nNorth 2\nEast 2\n1. North A♠, South 3♣\nSouth 2\n2. South 2♦\n")
    assert_same(head + '[Seats "N E"]\ndeal\nN A♠* 2♣\nE 3♣ 4♣\n1. N A♠*, E 3♣\n[Rules "pagat packs=2"]\n'
                "2. N A♠*\n")
    assert_same(head + "1. North A♠\n[Seats \"North East\"]\ndeal\nNorth A♠\nEast 2♠\n")


# ---- lines mutated at random -------------------------------------------------------------------

BASE = (
    "%gwy 1\n%game\n[Seats \"North East South\"]\n[Rules \"donkey\"]\ndeal\n"
    "North A♠ K♠ 2♥ 10♣ 3♦ 4♦\nEast Q♠ 5♥ 9♣ J♦ 7♠ 8♠\nSouth 2♠ 3♠ 4♥ 6♥ 5♣ 6♣\n"
    "1. North A♠, East Q♠, South 2♠\n2. North K♠, East 7♠, South 3♠ # end\n"
    "3. North 2♥, East 5♥, South 4♥\nSouth takes East\n4. North 10♣\n"
)
# What a lexer must tell apart: separators, comments, numbers, suits, keywords, odd letters.
PIECES = [" ", "  ", "\t", ",", ", ", "#", "# x", ".", "1", "10", "2.", "A", "a", "♠", "♥", "S", "s", "*",
          "-", "'", "_", "é", "[", "]", '"', "\r", "\f", "\u00a0", "\x1c", "\u2028", "\v", "\n", "North", "north", "East", "out",
          "takes", "draws", "from", "rest", "waste", "trick", "counts", "lead", "deal", "13", "AKQ.T..2.3", "x"]


@st.composite
def mutated(draw):
    text = BASE
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(BASE.index("deal"), len(text) - 1))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at + cut:]
    return text


SCALE = 20 if os.environ.get("GETAWAY_PROFILE") == "long" else 1
FUZZ = settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(mutated())
def test_mutated_lines_read_the_same(text):
    assert_same(text)


@st.composite
def mutated_header(draw):
    """BASE with its header tags changed: the lane reads the tags right after %game."""
    text = BASE
    pieces = PIECES + ['"', "\\", "[", "]", "Seats", "Rules", '[Rules "pagat"]', '[Seats "N E"]', "\r\n"]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(BASE.index("%game"), BASE.index("deal")))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.sampled_from(pieces)) + text[at + cut:]
    return text


@FUZZ
@given(mutated_header())
def test_mutated_header_tags_read_the_same(text):
    assert_same(text)


def test_header_tags_read_the_same_in_every_shape():
    # Tags with comments, separators around them, Windows line ends, a remark or a blank
    # line that ends the lane's run of tags, a tag given twice, a bad rule set, a tag
    # that names the seats after a remark.
    game = "deal\nNorth A♠ 2♣\nEast 3♣ 4♣\n1. North A♠, East 3♣\n"
    for head in [
        '[Seats "North East"] # who sits where\n[Rules "pagat"]\n',
        ' ,[Seats "North East"]\t\n\t[Rules  "pagat"] ,\n',
        '[Seats "North East"]\r\n[Rules "pagat"]\r\n',
        '[Seats "North East"]\n# a remark\n[Rules "donkey"]\n',
        '[Seats "North East"]\n\n[Rules "donkey"]\n',
        '[Seats "North East"]\n[Seats "North East"]\n',
        '[Seats "North East"]\n[Rules "pagat packs=7"]\n',
        '# first a remark\n[Seats "North East"]\n',
        '[Rules "pagat"]\n[Seats "North East"]\n[Note "a \\"quoted\\" word"]\n',
        '[Seats "North East"\n',
    ]:
        assert_same("%gwy 1\n%game\n" + head + game)


REST_BASE = (
    "%gwy 1\n%game # the first\n[Seats \"North East South\"]\n# a remark\n[Rules \"pagat last_card=draw_hand\"]\n"
    "deal # dealt by South\nNorth A♠ K♠ 2♥\nEast Q♠ 5♥ 9♣\nSouth 2♠ 3♠ 4♥\n1. North A♠, East Q♠, South 2♠\n"
    "# between tricks\nSouth takes East # all of it\nNorth draws 5♥ from South\n2. North 5♥, South 4♥\n"
    "North draws 9♣\n"
)


@st.composite
def mutated_rest(draw):
    """REST_BASE changed anywhere: the %game and deal lines, comments, takes and draws are
    the lines the lane reads when the tricks and hands are taken out (_lane_rest)."""
    text = REST_BASE
    pieces = PIECES + ["takes", "draws", "from", "deal", "%game", "# c", "\r\n", "North takes South\n",
                       "South draws 3♠ from North\n", "deal\n"]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(len("%gwy 1\n"), len(text) - 1))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.sampled_from(pieces)) + text[at + cut:]
    return text


@FUZZ
@given(mutated_rest())
def test_mutated_rest_lines_read_the_same(text):
    assert_same(text)


def test_the_lines_around_tricks_and_hands_read_the_same_in_every_shape():
    assert_same(REST_BASE)
    assert_same(REST_BASE.replace("\n", "\r\n"))
    head = '%gwy 1\n%game\n[Seats "North East"]\n'
    hands = "North A♠ 2♣\nEast 3♣ 4♣\n1. North A♠, East 3♣\n"
    for rest in ["deal\n" + hands + "North takes East\n", "deal,\t# c\n" + hands, " deal#c\n" + hands,
                 "North takes East\ndeal\n" + hands,  # a take before the deal: Lark says where
                 "deal\n" + hands + "deal\n",  # a second deal
                 "dealer\n" + hands, "deal\n" + hands + "North takes\n", "deal\n" + hands + "North draws\n",
                 "deal\n" + hands + "North draws 2♣ from\n", "deal\n" + hands + "North draws 2♣ East\n",
                 "deal\n" + hands + "waste takes East\n", "deal\n" + hands + "North takes deal\n",
                 "deal\n" + hands + "Northtakes East\n", "deal\n" + hands + "North  takes  East#c\r\n",
                 "deal\n" + hands + "  # only a comment\n"]:
        assert_same(head + rest)
    assert_same("%gwy 1\n%gamex\n" + "deal\n" + hands)
    assert_same("%gwy 1\n%game # c\r\n" + "deal\n" + hands)


@st.composite
def shuffled(draw):
    """BASE's lines moved, repeated and dropped: tags after tricks, hands after tricks, no
    [Seats] tag, a second deal... the orders in which the lane must give way to Lark."""
    lines = BASE.split("\n")[2:-1]
    extra = ['[Seats "North East"]', '[Rules "pagat packs=2"]', "North A♠* 5♦", "West 2♣ 3♣", "position", "West 6",
             "1. North A♠*, East Q♠", "West out", "lead East"]
    body = draw(st.lists(st.sampled_from(lines + extra), min_size=1, max_size=14))
    return "%gwy 1\n%game\n" + "\n".join(body) + "\n"


@FUZZ
@given(shuffled())
def test_lines_in_any_order_read_the_same(text):
    assert_same(text)


def test_random_trick_lines_read_the_same():
    # Whole lines of random words: the lane must never take one Lark would read otherwise.
    rng = random.Random(7)
    lines = []
    for _ in range(300):
        words = [rng.choice(PIECES) for _ in range(rng.randint(1, 7))]
        lead = rng.choice(["1. ", "2. ", "North ", "East ", "", "3.", "South\t"])
        lines.append(lead + "".join(words))
    for line in lines:
        assert_same(BASE + line + "\n")


def test_the_lane_makes_plays_whose_spans_point_at_their_words():
    # A diagnostic underlines the play's seat and card: the spans the lane finds late are the
    # words in the text, on the right line, in every trick of a simulated archive.
    text = simulate_text(4, 3, seed=5, rules=PRESETS["pagat"])
    _, games = parse_file_text(text)
    lines = text.split("\n")
    plays = [(p, t) for g in games for t in g.actions if hasattr(t, "plays") for p in t.plays]
    assert len(plays) > 100
    for p, t in plays:
        for span in (p.seat_span, p.card_span):
            assert lines[span.line - 1][span.col - 1:span.col - 1 + span.end - span.start] == text[span.start:span.end]
        assert text[p.seat_span.start:p.seat_span.end].lower() == games[0].seats[p.seat].lower()
        assert t.span.start <= p.seat_span.start < p.card_span.end <= t.span.end


@st.composite
def mutated_simulated(draw):
    """A simulated game with table mistakes, then a few of its characters changed: judged
    diagnostics (M2xx) and syntax errors (S0xx) together."""
    text = simulate_text(4, 1, seed=draw(st.integers(0, 50)), rules=PRESETS[draw(st.sampled_from(sorted(PRESETS)))],
                         mistakes=0.1)
    start = text.index("deal")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(start, len(text) - 1))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at + draw(st.integers(0, 2)):]
    return text


@settings(max_examples=60 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_simulated())
def test_mutated_simulated_games_judge_the_same(text):
    # Judged, with every diagnostic rendered as the user sees it (spans quoted, carets).
    import referee

    def judged(lane: bool) -> list[str]:
        Reader("<text>")
        saved = Reader._lane
        if not lane:
            Reader._lane = None
        try:
            _, games = parse_file_text(text)
        finally:
            Reader._lane = saved
        out = []
        for g in games:
            out += [diagnostic_text(d) for d in g.errors]
            out += [diagnostic_text(d) for d in referee.judge(g).diagnostics]
        return out

    assert judged(True) == judged(False)
    assert_same(text)


def test_check_reports_the_same_with_the_lane_off():
    # The whole command, judging included, on every record and corpus file: the JSON report
    # is the same byte for byte whichever way the text was read.
    args = [sys.executable, "-m", "referee", "check", "--format", "json",
            "records", "tests/data/valid", "tests/data/invalid"]
    env = {k: v for k, v in os.environ.items() if k != "GETAWAY_LARK_ONLY"}
    with_lane = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    lark_only = subprocess.run(args, cwd=ROOT, env={**env, "GETAWAY_LARK_ONLY": "1"}, capture_output=True,
                               text=True, timeout=300)
    assert with_lane.returncode == lark_only.returncode == 1  # the invalid corpus is found out
    assert '"code":"M201"' in with_lane.stdout
    assert with_lane.stdout == lark_only.stdout


# ---- issue 25's reproducers: the lane and Lark alone agree on each ---------------------------

REPRODUCERS = {
    # A take or draw line the lane's builder read (an unknown seat: S003), then a line of a
    # shape only Lark reads: Lark read the take again, and its S003 was said twice.
    "a draw by an unknown seat, then a line for Lark": "%game\ndeal\n1. E A♠, N 2♠\nN draws A♠ from Q\nwaste 5♠",
    "a take by unknown seats, then a line for Lark": '%gwy 1\n%game\n[Seats "N E"]\ndeal\nN 13\nE 13\nQ takes Z\nwaste 5♠\n',
    # Thousands of seats, plays by seats not among them.
    "many seats, plays by unknown seats": '%gwy 1\n%game\n[Seats "' + " ".join(f"S{i}" for i in range(300)) + '"]\ndeal\n'
    + "".join(f"{t}. X{t} A♠, Y{t} K♠\n" for t in range(1, 60)),
    # %game followed by two carriage returns, the seats named by the lines after it.
    "%game and two carriage returns": "%gwy 1\n%game \r\r\nE A♠\nN takes Q\n1. Q Zz\n",
    # Thousands of syntax errors in a small file.
    "many syntax errors": '%gwy 1\n%game\n[Seats "North East"]\ndeal\nNorth 13\nEast 13\n' + "x y\n" * 300,
}


@pytest.mark.parametrize("text", REPRODUCERS.values(), ids=REPRODUCERS.keys())
def test_issue_25_reproducers_read_the_same(text):
    assert_same(text)


def test_an_unknown_seat_on_a_line_before_a_line_for_lark_is_said_once():
    text = REPRODUCERS["a draw by an unknown seat, then a line for Lark"]
    for lane in (True, False):
        Reader("<text>")
        saved = Reader._lane
        if not lane:
            Reader._lane = None
        try:
            _, games = parse_file_text(text)
        finally:
            Reader._lane = saved
        said = [(d.code, d.span.line, d.span.col) for d in games[0].errors if d.code == "S003"]
        # E and N on the trick line, N and Q on the draw line: each once.
        assert said == [("S003", 3, 4), ("S003", 3, 10), ("S003", 4, 1), ("S003", 4, 17)], (lane, said)
