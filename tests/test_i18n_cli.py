"""Issue 40: what the command line itself says follows ``--lang`` and the environment, as
the rulings do: ``legal``'s and ``show``'s lines, ``live``'s turn line, help and errors, the
usage errors and every command's ``--help``. Machine outputs stay English."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import language as L

ROOT = Path(__file__).resolve().parent.parent
TAKE = "records/dispute-take.gwy"  # ends before trick 9: West leads, two takes allowed
DRAW = "records/dispute-draw.gwy"  # ends with a draw due
_LANG_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", L.ENV)


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in _LANG_VARS}
    e.update(extra or {})
    e["PYTHONPATH"] = str(ROOT)
    return e


def _run(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, capture_output=True, text=True,
                          env=_env(env), timeout=120)


def _said(lang: str, message: str) -> str:
    with L.speaking(lang):
        return L.gettext(message)


# ---- 1. legal and show -------------------------------------------------------------------------------


def test_legal_says_its_lines_in_urdu_with_the_same_cards_and_exit() -> None:
    en = _run("legal", TAKE)
    ur = _run("--lang", "ur", "legal", TAKE)
    assert en.returncode == ur.returncode == 0
    assert "leads any card" in en.stdout and "takes allowed now: " in en.stdout and "    rule: " in en.stdout
    # Every line a player reads is the Urdu catalogue's; the cards, seats and sources stay as they are.
    for english in ("leads any card", "takes allowed now: {takes}", "rule: {rule}",
                    "; before it, a player may take the next player's hand"):
        urdu = _said("ur", english)
        assert urdu != english
        assert urdu.split("{")[0] in ur.stdout
    for english_only in ("leads any card", "takes allowed now", "    rule: ", "before it, a player"):
        assert english_only not in ur.stdout
    assert "West" in ur.stdout and "Pagat, Getaway: Taking cards" in ur.stdout


def test_legal_of_a_draw_and_show_follow_the_environment() -> None:
    hi = _run("legal", DRAW, env={"LANG": "hi_IN.UTF-8"})
    assert hi.returncode == 0
    draws = _said("hi", "{seat} has the power and no card: draws from the waste pile (not from the trick just "
                        "played) and leads the card drawn").format(seat="West")
    assert draws in hi.stdout
    assert _said("hi", "the draw is one of: {cards}").split("{")[0] in hi.stdout
    assert "the draw is one of" not in hi.stdout
    shown = _run("show", DRAW, env={"LANG": "hi_IN.UTF-8"})
    assert _said("hi", "{seat} has the power and no card: must draw").format(seat="West") in shown.stdout
    assert _said("hi", "known cards") in shown.stdout and "known cards" not in shown.stdout
    assert "waste pile" not in shown.stdout


def test_show_narrate_heads_its_story_in_urdu() -> None:
    ur = _run("--lang", "ur", "show", "--narrate", TAKE)
    assert ur.returncode == 0
    head = ur.stdout.splitlines()[0]
    assert head.startswith(_said("ur", "{file}, game {game}").format(file=TAKE, game=1))
    assert head.endswith(_said("ur", " — rules {rules}").format(rules="pagat")) and ", game 1" not in head


def test_legal_and_show_for_programs_stay_english() -> None:
    for command in ("legal", "show"):
        en = _run(command, TAKE, "--format", "json")
        ur = _run("--lang", "ur", command, TAKE, "--format", "json")
        assert en.returncode == ur.returncode == 0
        assert ur.stdout == en.stdout


# ---- 2. live ------------------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_live_on_a_terminal_speaks_urdu(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    record = tmp_path / "u.gwy"
    env = _env({"TERM": "xterm", "COLUMNS": "160", "LINES": "50", "PROMPT_TOOLKIT_NO_CPR": "1",
                "XDG_DATA_HOME": str(tmp_path / "data")})
    child = pexpect.spawn(sys.executable, ["-m", "referee", "--lang", "ur", "live", str(record)], cwd=str(tmp_path),
                          encoding="utf-8", timeout=60, dimensions=(50, 160), env=env)
    try:
        # The greeting and the turn line: "West holds the ace of spades and leads trick 1", in Urdu.
        child.expect("gwy>")
        opening = child.before
        assert _said("ur", "type 'help' for the words and commands, 'quit' to stop; the record is saved after "
                           "every entry; Tab completes") in opening
        turn = _said("ur", "turn: {summary}").split("{")[0]
        assert turn.strip() and turn in opening and "turn: " not in opening
        urdu_help = _said("ur", _live_help())
        assert urdu_help != _live_help()
        child.sendline("help")
        child.expect_exact(urdu_help.splitlines()[-1])  # the help's last line, in Urdu
        helped = child.before
        assert urdu_help.splitlines()[0].split("{")[0] in helped  # and its first, before the count
        child.expect("gwy>")
        assert "type what happened" not in helped and "questions: why" not in helped
        assert "West A♠" in helped  # the examples are the notation, typed as they are
        child.sendline("Zebra")  # no seat, card or command: refused, in Urdu
        child.expect_exact(_said("ur", "rejected (not recorded): {why}").split("{")[0])
        child.expect("gwy>")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()


def _live_help() -> str:
    from referee.table.live import HELP

    return HELP


def test_live_errors_follow_the_language(tmp_path: Path) -> None:
    (tmp_path / "folder.gwy").mkdir()
    bn = _run("--lang", "bn", "live", "folder.gwy", cwd=tmp_path)
    assert bn.returncode == 2
    assert bn.stderr == "error: " + _said("bn", "{file} is a directory").format(file="folder.gwy") + "\n"
    deal = _run("--lang", "ml", "live", "new.gwy", "--deal", "13 13", cwd=tmp_path)
    assert deal.returncode == 2
    with L.speaking("ml"):
        expected = L.ngettext("--deal: {n} hand for {seats} seats (give sizes '13 13 13 13', or hands separated by ';')",
                              "--deal: {n} hands for {seats} seats (give sizes '13 13 13 13', or hands separated by ';')",
                              2).format(n=2, seats=4)
    assert deal.stderr == f"error: {expected}\n"
    assert not (tmp_path / "new.gwy").exists()


# ---- 3. usage errors and --help ----------------------------------------------------------------------


def test_check_help_in_hindi_with_its_headings() -> None:
    for line in (("--lang", "hi", "check", "--help"), ("check", "--lang", "hi", "--help")):
        hi = _run(*line)
        assert hi.returncode == 0, hi.stderr
        out = hi.stdout
        assert out.startswith(_said("hi", "Usage:") + " getaway-ref check [OPTIONS] FILES...")
        for english in ("Replay every game through the rules engine and report every illegal play and impossible fact.",
                        "Arguments", "Options", "exit 0 even when errors or mistakes are found"):
            assert _said("hi", english) != english
            assert _said("hi", english) in out.replace("\n" + " " * 24, " ")
        assert "Usage:" not in out and "Options" not in out and "Replay every game" not in out
        assert "--exit-zero" in out and "--output-format" in out  # the options keep their names


def test_a_typer_command_help_in_hindi() -> None:
    en = _run("legal", "--help")
    hi = _run("--lang", "hi", "legal", "--help")
    assert en.returncode == hi.returncode == 0
    assert "Options:" in en.stdout and "Show this message and exit." in en.stdout and "[default: text]" in en.stdout
    flat = " ".join(hi.stdout.split())
    for english in ("Usage:", "Arguments", "Options", "Show this message and exit.", "a record (.gwy)",
                    "which game of the file (default: the last)",
                    "What may happen next at the end of the record: whose turn, which cards, which takes, whether a "
                    "draw is due."):
        assert " ".join(_said("hi", english).split()) in flat, english
    assert _said("hi", "default: {default}").format(default="text") in flat  # typer's own words, ours
    for english in ("Usage:", "Options", "Show this message", "default:", "which game of the file"):
        assert english not in hi.stdout
    # The command list of `getaway-ref --help`, in the environment's language.
    top = _run("--help", env={"LANGUAGE": "hi"})
    assert _said("hi", "Commands") + ":" in top.stdout and "Commands:" not in top.stdout


@pytest.mark.parametrize("line", [("check", "--no-such", "x"), ("legal", "--no-such", "x"), ("legal",),
                                  ("show", "--format", "yaml", "x.gwy"), ("shwo",)])
def test_usage_errors_in_bengali_exit_2(line: tuple[str, ...]) -> None:
    en = _run(*line)
    bn = _run("--lang", "bn", *line)
    assert en.returncode == bn.returncode == 2
    assert en.stderr.startswith("error: ") and bn.stderr.startswith("error: ")
    assert bn.stderr.count("\n") == en.stderr.count("\n") == 1  # one line, as in English
    see = _said("bn", "{message} (see {command} --help)").split("}")[-2:]  # "(দেখুন " ... " --help)"
    assert see[0].split("{")[0].strip() in bn.stderr
    assert "(see " in en.stderr and "(see " not in bn.stderr
    for word in ("no such", "missing", "is not one of", "unexpected"):
        assert word not in bn.stderr
    if line[0] != "shwo":
        assert f"getaway-ref {line[0]} --help" in bn.stderr  # where to look, as in English


def test_our_own_usage_errors_in_urdu() -> None:
    ur = _run("--lang", "ur", "show", "--review", TAKE)
    assert ur.returncode == 2
    assert ur.stderr == "error: " + _said("ur", "--review goes with --narrate: the review's marks are told trick by "
                                                "trick") + "\n"
    game = _run("--lang", "ur", "show", "--game", "0", TAKE)
    assert game.returncode == 2
    assert _said("ur", "{value} is less than {low}; give {low} or more").format(value=0, low=1) in game.stderr
    lang = _run("--lang", "xx", "legal", TAKE, env={"LANG": "ur_PK.UTF-8"})
    assert lang.returncode == 2 and "unknown language" not in lang.stderr and "'xx'" in lang.stderr


def test_english_help_and_errors_are_as_before() -> None:
    """English stays byte for byte what it was: the usage line, the sections, typer's words."""
    out = _run("legal", "--help").stdout
    assert out.startswith("Usage: getaway-ref legal [OPTIONS] FILE\n\n  What may happen next")
    assert "\nArguments:\n  FILE  a record (.gwy)\n\nOptions:\n" in out
    assert "text for people, json for programs  [default: text]" in out
    assert _run("check", "--no-such", "x").stderr == "error: no such option: --no-such (see getaway-ref check --help)\n"
    assert _run("show", "-f", "xml", TAKE).stderr == \
        "error: --format: 'xml' is not one of text, json (see getaway-ref show --help)\n"
