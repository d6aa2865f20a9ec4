"""Issue 40 in check's reports and ask's answers: every word a player reads follows --lang,
and nothing is recognised by its English words (a game judged to a broken line is known by
its data, a mistake's penalty and rule by the diagnostic's facts and citations), so the
same facts come out in every language."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

from referee.engine import language as L
from referee.engine.citations import is_citation
from referee.judging.referee import Referee
from referee.notation.reader import Reader
from referee.reports.diagnostics import JudgedTo, judged_to
from referee.reports.layout import game_line
from referee.table import answers as A

ROOT = Path(__file__).resolve().parent.parent
# A finished series (losers with cards, who got away), a game not finished (hands left), a
# game judged to a broken line, replays that stop, and a game with syntax errors (not judged).
FILES = ("records/series.gwy", "records/unnoticed-play-after-tochoo-illegal.gwy",
         "tests/data/invalid/S001-syntax.gwy", "tests/data/invalid/R104-not-in-hand.gwy",
         "tests/data/invalid/S004-malformed-tag.gwy")
UNPENALISED = "records/unnoticed-play-after-tochoo-illegal.gwy"  # South plays after a tochoo; play goes on


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", L.ENV)}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=120)


def _said(lang: str, msgid: str) -> str:
    with L.speaking(lang):
        return L.gettext(msgid)


def _latin_words(out: str) -> set[str]:
    """The Latin-script words a player reads in check's text, leaving out what stays as
    written in every language: the quoted lines of the record, file paths, the code in a
    diagnostic's head and the citations (a source's name and section)."""
    words: set[str] = set()
    for line in out.splitlines():
        if re.match(r"^\s*\d+ \| ", line):  # a line of the record, quoted
            continue
        line = re.sub(r"\S*\.gwy(:\d+)*:?", "", line)  # the file and place
        line = re.sub(r"^\w+\[[A-Z]\d{3}\]: ", "", line)  # the head's severity and code
        line = re.sub(r"\[[^\]]*\]", "", line)  # the notation's own words (a tag: [Name "value"])
        note = re.match(r"^\s*= [^:]+: (.*)$", line)
        if note and is_citation(note.group(1)):
            line = note.group(1).partition(" — ")[2]
        words |= set(re.findall(r"[A-Za-z]{2,}", line))
    return words


def _kept_words() -> set[str]:
    """Seats and rule sets, as the JSON report names them: the record's own words."""
    report = json.loads(_run("check", "--format", "json", *FILES).stdout)
    kept: set[str] = set()
    for f in report["files"]:
        for g in f.get("games", []):
            kept |= set(g.get("seats") or [])
            kept |= set(re.findall(r"[A-Za-z]{2,}", g.get("rules") or ""))
    return kept


def test_check_show_games_in_urdu_says_no_english_word() -> None:
    en, ur = _run("check", "--show-games", *FILES), _run("check", "--show-games", "--lang", "ur", *FILES)
    assert en.returncode == ur.returncode == 1
    kept = _kept_words()
    assert {"North", "East", "South", "West", "pagat"} <= kept
    # English says its words (the comparison has something to find) ...
    english = _latin_words(en.stdout) - kept
    assert {"game", "tricks", "lost", "cards", "got", "away", "hands", "judged", "replay", "stopped", "not",
            "finished", "trick"} <= english
    # ... and Urdu none of them: only seats, rule sets, cards and codes stay as written.
    assert _latin_words(ur.stdout) - kept == set()
    # The game lines say the catalogue's words, the location lines keep their place.
    for msgid in ("not finished", "ok"):
        assert _said("ur", msgid) in ur.stdout
    assert _said("ur", "replay stopped: {why}").split("{why}")[0] in ur.stdout
    assert _said("ur", "not judged: {why}").split("{why}")[0] in ur.stdout
    places = [re.sub(r" \(.*", "", line) for line in en.stdout.splitlines() if "-->" in line]
    assert places == [re.sub(r" \(.*", "", line) for line in ur.stdout.splitlines() if "-->" in line]


def test_a_game_judged_to_a_broken_line_is_known_in_every_language() -> None:
    path = ROOT / "tests/data/invalid/S001-syntax.gwy"
    game = next(iter(Reader(str(path)).read_text(path.read_text(encoding="utf-8"))))
    from referee.archive.slices import GameOutcome

    for lang in L.LANGUAGES:
        with L.speaking(lang):
            res = Referee().judge(game)
            stopped = res.stopped
            assert isinstance(stopped, JudgedTo) and stopped.line == 9
            assert stopped == judged_to(9)
            # Sent between processes (check --jobs) it stays what it is.
            back = pickle.loads(pickle.dumps(GameOutcome.of(res)))
            assert isinstance(back.stopped, JudgedTo) and back.stopped.line == 9 and back.stopped == stopped
            facts, _verdict, _style = game_line("x.gwy", back)
            replay_stopped = L.gettext("replay stopped: {why}").split("{why}")[0]
        # Said once, as itself: never as a replay that stopped.
        assert str(stopped) in facts and replay_stopped not in facts
        assert "9" in stopped and "8" in stopped
        if lang != L.ENGLISH:
            assert not stopped.startswith("judged to line")


def _facts(text: str) -> list[str]:
    """The facts of an answer: seats, cards, codes and numbers, in no particular order."""
    return sorted(re.findall(r"North|East|South|West|(?:10|[2-9AKQJ])[♠♥♦♣]|[MRS]\d{3}|\d+", text))


def test_ask_in_hindi_tells_an_unpenalised_mistake_as_english_does() -> None:
    en = _run("ask", "--explain", "--trick", "2", UNPENALISED)
    hi = _run("ask", "--explain", "--trick", "2", "--lang", "hi", UNPENALISED)
    assert en.returncode == hi.returncode == 0
    assert _facts(en.stdout) == _facts(hi.stdout)
    assert "not penalised" in en.stdout and "the table did not apply it" in en.stdout
    # Not penalised, the table did not apply it: in Hindi, from the catalogue.
    assert _said("hi", ", not penalised").strip(", ") in hi.stdout
    assert _said("hi", "the table did not apply it, and the referee follows the record as played") in hi.stdout
    assert _said("hi", "the table applied it") not in hi.stdout
    # The rule named is the citation, not the note on the penalty's fate.
    rule = _said("hi", " — rule: {rule}").split("{rule}")[0]
    assert rule + "Pagat, Getaway: Second and subsequent tricks" in hi.stdout
    assert "penalty" not in hi.stdout and "rule" not in hi.stdout


def test_the_penalty_and_rule_of_a_mistake_are_the_same_facts_in_every_language() -> None:
    path = ROOT / UNPENALISED
    game = next(iter(Reader(str(path)).read_text(path.read_text(encoding="utf-8"))))
    said = {}
    for lang in L.LANGUAGES:
        with L.speaking(lang):
            [d] = [d for d in Referee().judge(game).diagnostics if d.code == "M202"]
            # The fate of the penalty is among the notes, in the language, after the rule.
            assert any(not is_citation(n) for n in d.notes[1:])
            said[lang] = (A.penalty_applied(d), A.rule_of(d).partition(" — ")[0], A.diagnostic_sentence(d))
    assert said["en"][:2] == (False, "Pagat, Getaway: Second and subsequent tricks")
    for lang, (applied, cited, sentence) in said.items():
        assert (applied, cited) == said["en"][:2]
        assert _facts(sentence) == _facts(said["en"][2])
        assert _said(lang, "the table did not apply it, and the referee follows the record as played") in sentence


def test_errors_statistics_and_unknown_codes_are_said_in_the_language() -> None:
    en = _run("check", "--select", "X9", "records/series.gwy")
    ur = _run("check", "--select", "X9", "--lang", "ur", "records/series.gwy")
    assert en.returncode == ur.returncode == 2
    assert en.stderr.startswith("error: --select: unknown code or prefix 'X9'")
    # "error: " stays as the marker it is in every language, as a diagnostic's head does.
    assert ur.stderr.startswith("error: --select: ") and "X9" in ur.stderr
    assert _said("ur", "{option}: unknown code or prefix '{part}'; valid are {all}, the groups {groups} (S syntax, "
                       "R record cannot be true, M mistake at the table), any prefix of a code, and the codes "
                       "{codes}").split("{part}")[0].replace("{option}", "--select") in ur.stderr
    assert "unknown" not in ur.stderr and "valid are" not in ur.stderr
    stats = _run("check", "--statistics", "--lang", "ur", "tests/data/invalid/R104-not-in-hand.gwy")
    assert "R104" in stats.stdout
    assert _said("ur", "error") in stats.stdout and " error " not in stats.stdout
    none = _run("check", "--statistics", "--lang", "ur", "records/series.gwy")
    assert none.returncode == 0 and _said("ur", "no diagnostics") in none.stdout


def test_the_compact_line_names_the_trick_once_in_the_language() -> None:
    from referee.reports.diagnostics import Diagnostic
    from referee.reports.layout import diagnostic_lines

    with L.speaking("ur"):
        trick = L.gettext("trick {trick}").format(trick=4)
        bare = Diagnostic("M203", "x", None, severity="mistake", trick=4)
        named = Diagnostic("M203", f"x {trick}", None, severity="mistake", trick=4)
        assert diagnostic_lines(bare, compact=True)[0][0] == f"mistake[M203]: x ({trick})"
        assert diagnostic_lines(named, compact=True)[0][0] == f"mistake[M203]: x {trick}"
    assert diagnostic_lines(bare, compact=True)[0][0] == "mistake[M203]: x (trick 4)"
