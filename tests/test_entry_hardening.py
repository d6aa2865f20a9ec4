"""The entry reader that ``live`` and ``serve`` share, against hostile lines (issue 36, items 1
and 2; issue 38, item 5).

Its work is counted, not timed: an entry twice as long costs at most twice the steps, on the
entry that once took exponential time (a word that is a card and a seat's beginning, again
and again, then a wrong word) and on any entry made of a repeated part. A line of thousands
of words is read with no deeper stack than a line of one, and a line too long to be an entry
is refused in one line. Any text gets an answer or a one-line rejection.
"""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.table.entry import MAX_ENTRY_CHARS, Lines, Question, Rejection, Work, read_entry
from referee.table.live import Session

# Seats whose names begin like a card (As-ha, Ja-ya, K-shitij, T-anvi): ordinary names.
CARDLIKE = ["Asha", "Bina", "Chetan", "Dev"]
SEAT_SETS = [CARDLIKE, ["Jaya", "Kshitij", "Tanvi", "Qadir"], ["North", "Nadia", "South", "West"],
             ["North", "East", "South", "West"], ["Ann", "Bob"]]
# Words a scorer types, and words that are wrong: cards, seats and their beginnings, the
# entry's own words, and words that are none of those.
VOCABULARY = ["as", "a", "A♠", "AS", "10h", "th", "T♥", "k", "ks", "js", "j", "q", "N", "No", "W", "west",
              "Ann", "Bob", "b", "Bob's", "Ja", "Tanvi", "Kshitij", "d", "de", "s", "so", "Chetan", "c",
              "takes", "take", "draws", "drew", "from", "hand", "plays", "led",
              "zz", "hello", "11s", "Qx", "", "♠"]

settings_ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def steps(text: str, seats: list[str]) -> int:
    work = Work()
    read_entry(text, seats, None, work)
    return work.steps


# ---- item 1: linear work ---------------------------------------------------------------------


def test_the_entry_that_took_exponential_time_costs_twice_the_steps_for_twice_the_words():
    """Issue 36, item 1: 'as as ... as zz' with a seat called Asha took x1.6 the time a word
    (27 s at 36 words). Each doubling of the words now at most doubles the steps, and the
    answer is still which word is wrong."""
    counts = []
    for n in (8, 16, 32, 64, 128, 256):
        text = " ".join(["as"] * n + ["zz"])
        work = Work()
        got = read_entry(text, CARDLIKE, None, work)
        assert isinstance(got, Rejection) and "'zz'" in got.why, got
        counts.append(work.steps)
    for small, large in pairwise(counts):
        assert large <= 2 * small, counts


@st.composite
def repeated_entries(draw):
    """An entry made of a part said k times (k >= 2) then an ending: the same entry with the
    part said 2k times is the entry doubled."""
    seats = draw(st.sampled_from(SEAT_SETS))
    part = draw(st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=5))
    ending = draw(st.lists(st.sampled_from(VOCABULARY), max_size=2))
    k = draw(st.integers(min_value=2, max_value=12))
    return seats, part, ending, k


@settings_
@given(repeated_entries())
def test_doubling_any_repeated_entry_at_most_doubles_the_steps(case):
    seats, part, ending, k = case
    once, twice = " ".join(part * k + ending), " ".join(part * 2 * k + ending)
    assert steps(twice, seats) <= 2 * steps(once, seats), (once, twice)


@settings_
@given(st.sampled_from(SEAT_SETS), st.lists(st.sampled_from(VOCABULARY), max_size=40))
def test_the_readings_said_cost_at_most_nine_times_the_reading(seats, words):
    """An entry read several ways lists at most nine readings, each as long as the entry: the
    steps to walk them are at most nine times the steps to read the words."""
    work = Work()
    read_entry(" ".join(words), seats, None, work)
    assert work.listed <= 9 * work.steps


# ---- any text: an answer or a one-line rejection -------------------------------------------------

# What a user can type on one line: any character but those that end a line.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
typed_lines = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=LINE_BREAKS), max_size=80) | \
    st.lists(st.sampled_from(VOCABULARY), max_size=12).map(" ".join)


@settings_
@given(st.sampled_from(SEAT_SETS), typed_lines)
def test_any_text_is_an_answer_or_a_one_line_rejection(seats, text):
    got = read_entry(text, seats, None)
    assert isinstance(got, (Lines, Question, Rejection))
    if isinstance(got, Rejection):
        assert got.why and "\n" not in got.why
    if isinstance(got, Lines):
        assert got.lines and all("\n" not in line for line in got.lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(typed_lines, min_size=1, max_size=4))
def test_any_lines_typed_at_the_table_are_answered_never_a_traceback(lines):
    """The live session (``live``'s and ``serve``'s) given any lines: each is answered, a
    rejection in one line, and the session goes on."""
    with tempfile.TemporaryDirectory() as d:
        session = Session.start(Path(d) / "t.gwy", None, CARDLIKE, "pagat", None)
        for line in lines:
            if line.strip().lower() in ("hint", "hint?", "review", "review?"):
                continue  # the hint and the game review (seconds each), tested on their own
            out, _ = session.handle(line)
            for text, _style in out:
                if text.startswith("rejected"):
                    assert "\n" not in text, text


# ---- item 2: no recursion per word, and a line too long for an entry ----------------------------


def test_a_line_of_many_words_needs_no_deeper_stack_than_a_line_of_one():
    """Issue 36, item 2: the reader recursed once per word ('West' and 20,000 'A♠' ended live
    with a RecursionError). A line as long as an entry may be, of one-card words, is read
    with a stack only a few dozen frames deeper than the caller's."""
    text = "West " + " ".join(["A♠"] * ((MAX_ENTRY_CHARS - 5) // 3))
    assert len(text) <= MAX_ENTRY_CHARS
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 60)
    try:
        got = read_entry(text, ["North", "East", "South", "West"], None)
    finally:
        sys.setrecursionlimit(old)
    assert isinstance(got, Lines) and got.lines[0] == "West A♠" and len(got.lines) == text.count("A♠")


def test_a_line_too_long_to_be_an_entry_is_refused_in_one_line():
    text = "West " + " ".join(["A♠"] * 20_000)
    work = Work()
    got = read_entry(text, ["North", "East", "South", "West"], None, work)
    assert isinstance(got, Rejection), got
    assert got.why == (f"the line is {len(text):,} characters long, too long for an entry "
                       f"(at most {MAX_ENTRY_CHARS:,}): type a few actions a line")
    assert work.steps == 0  # refused before a word is read


# ---- through live, at a terminal ---------------------------------------------------------------

PROMPT = "gwy>"
PTY_ENV = {"TERM": "xterm", "COLUMNS": "160", "LINES": "50", "PROMPT_TOOLKIT_NO_CPR": "1"}


def _live(tmp_path: Path, *args: str):
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(sys.executable, ["-m", "referee", "live", *args], cwd=str(ROOT), encoding="utf-8",
                         timeout=60, dimensions=(50, 160),
                         env=dict(os.environ, **PTY_ENV, XDG_DATA_HOME=str(tmp_path / "data")))


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_live_at_a_terminal_refuses_a_huge_line_and_a_hostile_entry_and_goes_on(tmp_path):
    """Issue 36, items 1 and 2, as a scorer meets them: a line of 1,500 cards (which once
    ended live with a RecursionError) is refused in one line; 'as' said 40 times then a wrong
    word, with a seat called Asha (which once held live for hours), is answered with the
    wrong word; the next entry is recorded."""
    pexpect = pytest.importorskip("pexpect")
    f = tmp_path / "hostile.gwy"
    child = _live(tmp_path, str(f), "--seats", " ".join(CARDLIKE))
    try:
        child.expect(PROMPT)
        huge = "Asha " + " ".join(["A♠"] * 1500)
        child.send(huge + "\r")
        child.expect(r"rejected \(not recorded\): the line is ([\d,]+) characters long, too long for an entry")
        assert child.match.group(1) == f"{len(huge):,}"
        child.expect(PROMPT)
        child.send(" ".join(["as"] * 40 + ["zz"]) + "\r")
        child.expect(r"rejected \(not recorded\): expected a card such as Q♥ or QH, found 'zz'")
        child.expect(PROMPT)
        child.send("Asha A♠\r")
        child.expect("recorded: 1. Asha A♠")
        child.expect(PROMPT)
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 0
    assert "1. Asha A♠" in f.read_text(encoding="utf-8")


# ---- issue 38, item 5: what is accepted, said once --------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_live_says_what_is_accepted_once_and_the_ranks_to_a_card_mistyped(tmp_path):
    """The list of every kind of entry followed every rejected entry (four lines on a
    terminal); it is said after the first only. A card mistyped ('11s') is told the ranks."""
    pexpect = pytest.importorskip("pexpect")
    child = _live(tmp_path, str(tmp_path / "once.gwy"))
    try:
        child.expect(PROMPT)
        seen = []  # what each entry is answered, up to the next prompt
        for entry in ("hello", "11s", "West 11s", "Qx", "West A♠"):
            child.send(entry + "\r")
            child.expect(r"rejected \(not recorded\)|recorded: ")
            child.expect(PROMPT)
            seen.append(child.before)
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    rejections = seen[:4]
    assert [s.count("accepted: a play 'West A♠'") for s in rejections] == [1, 0, 0, 0], rejections
    ranks = "found '11s': the ranks are 2 3 4 5 6 7 8 9 10 J Q K A (T for 10), then the suit: 10♠, QH"
    assert ranks in seen[1] and ranks in seen[2]
    assert "found 'Qx': the suits are ♠ ♥ ♦ ♣ or S H D C, after the rank: QH" in seen[3]
    assert seen[4].startswith("1. West A♠"), seen[4]
