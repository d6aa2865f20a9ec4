"""The words the code fills into a sentence are said in the chosen language too (issue 40):
review's text, the deal check's and the reader's diagnostics in Hindi or Urdu with no English
word glued in, and the run's language carried to --jobs workers and to Dask workers, which
have neither our command line nor our environment."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from referee.engine import language as L

SEATS = ("North", "East", "South", "West")
HEAD = '%game\n[Seats "North East South West"]\n[Rules "pagat"]\n'
DEAL = "deal\nNorth 13\nEast 13\nSouth 13\nWest 13\n"

# One game a finding whose words the code fills in: a card dealt twice (how often, in whose
# hand), a deal one card short, a trick two seats did not play to, a seat misspelt (the help
# names the seat meant), a line that cannot be read (what the notation expected there).
GAMES = {
    "R101": HEAD + "position\nNorth Q♠ 6♥ 2♥ Q♦ 4♣\nEast 3♠ 9♥ J♦ K♣\nSouth 10♥ A♦ 5♦ Q♠\nWest 5♠ 4♥ 3♥ K♦\n"
                   "waste rest\nlead West\ntrick 5\n5. West 4♥, North 6♥, East 9♥, South 10♥\n",
    "R102": HEAD + "deal\nNorth 13\nEast 13\nSouth 13\nWest 12\n1. West A♠, North J♠, East A♥, South 10♠\n",
    "R115": HEAD + DEAL + "1. West A♠, North J♠\n2. West 5♥, North 9♥, East Q♥, South J♥\n",
    "S003": HEAD + DEAL + "1. West A♠, Nort J♠, East A♥, South 10♠\n",
    "S001": HEAD + DEAL + "1. West A♠, North J♠ takes, South 10♠\n",
}


def _record(tmp_path: Path, *codes: str, times: int = 1) -> Path:
    path = tmp_path / "findings.gwy"
    path.write_text("%gwy 1\n" + "".join(GAMES[c] for _ in range(times) for c in codes), encoding="utf-8")
    return path


def _env(**more: str) -> dict[str, str]:
    """The environment of a run whose language only --lang chooses."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", L.ENV)}
    return {**env, "LANG": "C.UTF-8", **more}


def _check(path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", "check", *args, str(path)], capture_output=True,
                          text=True, cwd=ROOT, env=env or _env(), timeout=300)


def _said(line: str) -> str:
    """What a diagnostic's line says in words: its message, label or help, without what stays
    as written (seat names, cards, codes, quoted notation, options, file names)."""
    text = re.sub(r"getaway-ref(?: [a-z]+)?|check --\S+|'[^']*'|\"[^\"]*\"|\[[A-Z][a-z]+ \"[^\"]*\"\]|\S*(=|--|%|/|\.gwy)\S*", " ", line)
    for seat in SEATS:
        text = text.replace(seat, " ")
    return re.sub(r"\b(?:[0-9]*[AKQJT2-9]|10)[♠♥♦♣]", " ", text)


def _english_words(out: str) -> list[str]:
    """Latin words of two letters or more in the lines a player reads: each diagnostic's
    message, label and help (a note keeps its source's name and section as written)."""
    found = []
    for line in out.splitlines():
        if re.match(r"^(error|mistake|note)\[[A-Z][0-9]+\]: ", line):
            words = line.split("]: ", 1)[1]
        elif re.match(r"^\s*\|\s*\^+ ", line):
            words = line.split("^ ", 1)[1]
        elif re.match(r"^\s*= ", line) and not re.search(r" — |docs/|Pagat, |Denexa", line):
            words = line.split(": ", 1)[1]
        else:
            continue
        found += re.findall(r"[A-Za-z]{2,}", _said(words))
    return found


def test_setup_and_notation_errors_in_hindi_have_no_english_word(tmp_path: Path) -> None:
    path = _record(tmp_path, *GAMES)
    hindi = _check(path, "--lang", "hi")
    english = _check(path)
    assert hindi.returncode == english.returncode == 1
    # Every finding is there, in the same place, and said without an English word.
    codes = re.findall(r"\[([A-Z][0-9]+)\]: ", english.stdout)
    assert set(codes) == set(GAMES)
    assert re.findall(r"\[([A-Z][0-9]+)\]: ", hindi.stdout) == codes
    assert re.findall(r"--> \S+", hindi.stdout) == re.findall(r"--> \S+", english.stdout)
    assert _english_words(hindi.stdout) == [], hindi.stdout
    # The filled-in words are the catalogue's own: "twice" and "South's hand" as Hindi says them.
    with L.speaking("hi"):
        twice, hand, plays = L.gettext("twice"), L.gettext("{seat}'s hand").format(seat="South"), L.ngettext(
            "add the missing play to trick {trick}", "add the missing plays to trick {trick}", 2).format(trick=1)
        expected = L.gettext("the end of the line")
    assert twice in hindi.stdout and hand in hindi.stdout and plays in hindi.stdout and expected in hindi.stdout
    # English still reads as it did: the words the code fills in are whole English words.
    assert "Q♠ is placed twice" in english.stdout and "Q♠ again, in South's hand" in english.stdout
    assert "trick 1 is not finished: East and South have not played to it" in english.stdout
    assert "add the missing plays to trick 1" in english.stdout
    assert "expected a seat or the end of the line, found '10♠'" in english.stdout
    assert "did you mean 'North'? (check --fix writes it out)" in english.stdout


def test_every_record_checked_in_urdu_says_its_findings_without_an_english_word() -> None:
    """The shipped records' findings, the penalties' fates among them (not applied, applied
    when the trick was over, the card kept), said in Urdu from end to end."""
    r = _check(ROOT / "records", "--lang", "ur")
    assert r.returncode == 1 and r.stdout.count("\n   = ") > 20
    with L.speaking("ur"):
        played_on = L.gettext("the penalty was not applied: play went on with this trick, and the referee follows "
                              "the record as played")
    assert played_on in r.stdout
    assert _english_words(r.stdout) == [], r.stdout


def test_one_seat_missing_from_a_trick_is_said_in_the_singular() -> None:
    record = "%gwy 1\n" + HEAD + DEAL + "1. West A♠, North J♠, East A♥\n2. West 5♥, North 9♥, East Q♥, South J♥\n"
    r = run_cli("check", "-", input=record)
    assert "trick 1 is not finished: South has not played to it" in r.stdout
    assert "add the missing play to trick 1" in r.stdout


@pytest.fixture(scope="module")
def review_ur() -> str:
    r = subprocess.run([sys.executable, "-m", "referee", "review", "--lang", "ur",
                        str(ROOT / "records" / "review-blunder.gwy")], capture_output=True, text=True, cwd=ROOT,
                       env=_env(), timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_review_in_urdu_has_no_english_heading(review_ur: str) -> None:
    # The headings and words of the review, as the Urdu catalogue says them.
    with L.speaking("ur"):
        said = [L.gettext("chances of losing, each seat from what it could know:"),
                L.gettext("blunder"), L.gettext("solver: {line}").split("{")[0].strip(),
                L.ngettext("{n} blunder", "{n} blunders", 2).format(n=2),
                L.gettext("after trick {trick} (line {line}): {chances}").split("{")[0].strip(),
                L.gettext("marks from the rise in the chance of losing: {marks}").split("{")[0].strip(),
                L.gettext("safe"), L.gettext("open")]
    for words in said:
        assert words in review_ur, words
    # No English word is left once what stays as written is taken out: the seats, the cards,
    # the rule set's name and the samples' seed (an option's word).
    left = re.findall(r"[A-Za-z]{2,}", _said(review_ur.replace("pagat", "").replace("seed", "")))
    assert left == [], left


def test_review_json_stays_english_whatever_the_language() -> None:
    path = ROOT / "records" / "review-blunder.gwy"
    r = run_cli("review", "--lang", "ur", "--format", "json", "--samples", "0", str(path))
    plays = json.loads(r.stdout)["games"][0]["plays"]
    assert {p["verdict"] for p in plays} >= {"blunder"}
    assert all(re.fullmatch(r"[AKQJT2-9♠♥♦♣10]+|takes \w+|draws \S+", p["action"]) for p in plays)
    r = run_cli("review", "--lang", "ur", "--format", "json", "--samples", "0", "--after", "3", str(path))
    position = json.loads(r.stdout)["positions"][0]
    assert position["why_unknown"] == "40 cards held, more than the window of 10, --window"
    assert {s["class"] for s in position["standings"]} == {"unknown"}


# ---- the run's language on the workers ---------------------------------------------------------


def test_jobs_workers_say_the_diagnostics_in_the_language_chosen(tmp_path: Path) -> None:
    path = _record(tmp_path, *GAMES, times=8)
    env = _env(GETAWAY_RANGE_BYTES="600")  # many slices, so every worker judges some
    one = _check(path, "--lang", "ur", "--jobs", "1", env=env)
    two = _check(path, "--lang", "ur", "--jobs", "2", env=env)
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout
    assert _english_words(two.stdout) == [], two.stdout
    with L.speaking("ur"):
        assert L.gettext("three times") != "three times"
        assert L.gettext("the position cannot be true") not in ("", "the position cannot be true")
        assert L.gettext("twice") in two.stdout


class _Cluster:
    """`dask scheduler` and one `dask worker` on 127.0.0.1, as a club runs them; the worker's
    environment names no language (the run's language must come with each slice)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.file = tmp / "scheduler.json"
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self) -> str:
        self.procs.append(subprocess.Popen(
            [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(self.file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.tmp))
        for _ in range(1200):
            if self.file.exists():
                try:
                    address = str(json.loads(self.file.read_text())["address"])
                    break
                except (ValueError, KeyError):
                    pass
            time.sleep(0.05)
        else:
            pytest.fail("the Dask scheduler did not start")
        log = self.tmp / "worker.log"
        with open(log, "wb") as out:
            self.procs.append(subprocess.Popen(
                [sys.executable, "-m", "dask", "worker", "--scheduler-file", str(self.file), "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"], stdout=out, stderr=out, cwd=self.tmp,
                env=_env()))
        for _ in range(1200):
            if b"Registered to" in log.read_bytes():
                return address
            time.sleep(0.05)
        pytest.fail("the Dask worker did not join")

    def stop(self) -> None:
        for p in self.procs:
            p.send_signal(signal.SIGKILL)
            p.wait()


@pytest.fixture
def dask_address(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    cluster = _Cluster(tmp_path)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def test_dask_workers_say_the_diagnostics_and_the_review_in_the_language_chosen(tmp_path: Path,
                                                                                 dask_address: str) -> None:
    path = _record(tmp_path, *GAMES, times=2)
    env = _env(GETAWAY_RANGE_BYTES="600", GETAWAY_DASK_WAIT="30")
    local = _check(path, "--lang", "ur", "--jobs", "1", env=env)
    cluster = _check(path, "--lang", "ur", "--dask", dask_address, env=env)
    assert cluster.returncode == local.returncode == 1, cluster.stderr
    assert cluster.stdout == local.stdout
    assert _english_words(cluster.stdout) == [], cluster.stdout
    with L.speaking("ur"):
        assert L.gettext("twice") in cluster.stdout
    # review --dask: a game that cannot be read and a game with a mistake, each said on the
    # worker (why not reviewed; the referee's message at the mistake) in Urdu.
    broken = tmp_path / "review.gwy"
    renege = (ROOT / "records" / "dispute-renege-illegal.gwy").read_text(encoding="utf-8")
    broken.write_text(renege + "\n" + GAMES["S001"], encoding="utf-8")
    args = ["review", "--lang", "ur", "--samples", "0", str(broken)]
    here = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)
    there = subprocess.run([sys.executable, "-m", "referee", *args, "--dask", dask_address], capture_output=True,
                           text=True, cwd=ROOT, env=env, timeout=300)
    assert there.returncode == here.returncode == 1, there.stderr
    assert there.stdout == here.stdout
    with L.speaking("ur"):
        assert L.gettext("game {number}: syntax errors (run getaway-ref check)").format(number=2) in there.stdout
        mistake = L.gettext("{head}: a mistake, not reviewed: {mistake}").replace("{head}", "").replace("{mistake}", "")
    assert mistake.strip(": ") in there.stdout
    assert re.findall(r"[A-Za-z]{2,}", _said(there.stdout.replace("pagat", ""))) == [], there.stdout
