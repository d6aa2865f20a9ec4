"""``getaway-ref live``: through a pipe, through a pseudo-terminal, killed with SIGKILL and
resumed from its file.

The referee's rulings themselves are tested with ``check``; here the question is whether
``live`` asks the referee, answers each line at once, and keeps the file a true record of
every answered line whatever happens to the process.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT, run_cli

from referee import parse
from referee.engine.cards import card_str
from referee.judging import wording as W
from referee.notation.record import Comment, Counts, Draw, Take, Trick

PAGAT = RECORDS / "pagat-example.gwy"
TIMEOUT = 60
PROMPT = "gwy>"  # live's prompt on a terminal
# A terminal for the child: a pty answers no cursor-position requests, so prompt-toolkit is
# told not to ask; history goes to the test's own data directory (set per test).
PTY_ENV = {"TERM": "xterm", "COLUMNS": "160", "LINES": "50", "PROMPT_TOOLKIT_NO_CPR": "1"}

# Pagat's worked example typed one play a line, as a scorer at the table would.
PAGAT_LINES = [
    "West A♠", "North J♠", "East A♥", "South 10♠",
    "West 5♥", "North 9♥", "East Q♥", "South J♥",
    "East 3♥", "South 7♥", "West K♥", "North 8♥",
    "West 2♥", "North 6♥", "East K♣",
    "counts North 12, East 9, South 10, West 9",
    "North Q♦", "East J♦", "South A♦", "West K♦",
    "South 5♦", "West K♠",
    "counts South 10, West 7, North 11, East 8",
]


def live_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "referee", "live", *args]


def run_live(*args: str, input: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(live_cmd(*args), input=input, capture_output=True, text=True, cwd=str(cwd or ROOT),
                          timeout=TIMEOUT)


def facts(path: Path, game: int = -1) -> list[tuple]:
    """What a game's record says happened, one fact a play: independent of how the plays
    are grouped into lines and of comments."""
    return facts_of(parse(path.read_text(encoding="utf-8"), str(path))[game])


def facts_of(g) -> list[tuple]:
    assert not g.errors, [d.message for d in g.errors]
    out = []
    for a in g.actions:
        if isinstance(a, Trick):
            out.extend(("play", a.number, g.seats[p.seat], card_str(p.card)) for p in a.plays)
        elif isinstance(a, Take):
            out.append(("take", g.seats[a.taker], g.seats[a.target]))
        elif isinstance(a, Draw):
            out.append(("draw", g.seats[a.seat], card_str(a.card), a.source))
        elif isinstance(a, Counts):
            out.append(("counts",) + tuple((g.seats[s], n) for s, n in a.sizes))
    return out


def check_codes(path: Path) -> list[str]:
    """The codes ``check`` reports for the file (it must be a record check can judge)."""
    r = run_cli("check", str(path), "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    rep = json.loads(r.stdout)
    return [d["code"] for f in rep["files"] for d in f["diagnostics"]] + \
        [d["code"] for f in rep["files"] for g in f["games"] for d in g["diagnostics"]]


def answers(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.match(r"(recorded|rejected|removed|noted|nothing)", line)]


# ---- through a pipe ---------------------------------------------------------------------------------


def test_pipe_pagat_example(tmp_path):
    f = tmp_path / "pagat.gwy"
    r = run_live(str(f), input="\n".join(PAGAT_LINES) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    # no prompt noise: the first line is whose turn it is, then an answer and a turn per line
    assert out[0].startswith("turn: whoever holds A♠ opens trick 1")
    assert len(answers(r.stdout)) == len(PAGAT_LINES)
    assert all(line.startswith("recorded: ") for line in answers(r.stdout))
    assert sum(1 for line in out if line.startswith("turn: ")) == len(PAGAT_LINES) + 1
    # How a trick ended, in the answers' words: East's K♣ ends trick 4 (West 2♥, North 6♥),
    # North's 6♥ is the highest heart; West's A♠ is the highest spade of trick 1.
    tochoo = "the trick ends; North, with the highest heart (6♥), picks up 3 cards and leads trick 5"
    waste = "the trick goes to the waste pile; West, with the highest spade (A♠), has the power and leads trick 2"
    assert f"recorded: 4. East K♣ — {tochoo}" in out
    assert f"recorded: 1. South 10♠ — {waste}" in out
    # ... the same sentences as ask tells those tricks (one wording, judging/wording.py)
    for trick, said in ((4, tochoo), (1, waste)):
        told = run_cli("ask", str(f), "--trick", str(trick), "--explain")
        assert told.returncode == 0, told.stderr
        assert W.cap(said) in told.stdout
    assert out[-1] == "turn: South has the power and leads trick 7; before it, a player may take the next player's hand"
    # the file holds the game as Pagat gives it, and check accepts it
    assert facts(f) == facts(PAGAT)
    assert check_codes(f) == []
    assert run_cli("fmt", "--check", str(f)).returncode == 0  # written in canonical form


def test_pipe_mistake_penalty_and_undo(tmp_path):
    f = tmp_path / "m.gwy"
    lines = PAGAT_LINES[:15] + ["South 4♥", "undo", "quit", "North Q♦"]
    r = run_live(str(f), input="\n".join(lines) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    i = out.index("recorded: 4. South 4♥")
    assert out[i + 1].startswith("  note: read as a play to trick 4 after its tochoo")
    # the diagnostic in check's layout, without the quoted line (referee.reports.render, compact)
    assert out[i + 2] == "mistake[M202]: South played 4♥ after East's tochoo K♣ ended trick 4"
    assert '  = note: Pagat, Getaway: Second and subsequent tricks — a tochoo ends the trick; nobody plays after it' in out
    assert "  = help: penalty (ruling 1): South picks up the 4 cards of trick 4 and leads trick 5" in out
    assert out[out.index("  = help: penalty (ruling 1): South picks up the 4 cards of trick 4 and leads trick 5") + 1].startswith(
        "turn: South picked up the trick as the penalty and leads trick 5")
    assert "removed: 4. South 4♥" in out
    assert "withdrawn: M202 South played 4♥ after East's tochoo K♣ ended trick 4" in out
    assert out[-1].startswith("turn: North has the power and leads trick 5")
    # 'quit' stops: the line after it is not read
    assert facts(f) == facts(PAGAT)[:15]
    assert check_codes(f) == []


def test_pipe_mistake_stays_in_the_record(tmp_path):
    f = tmp_path / "m.gwy"
    r = run_live(str(f), input="\n".join(PAGAT_LINES[:15] + ["South 4♥"]) + "\n")
    assert r.returncode == 0
    assert check_codes(f) == ["M202"]  # a table mistake is recorded: it happened
    assert facts(f)[-1] == ("play", 4, "South", "4♥")


def test_pipe_wrong_entries_are_not_recorded(tmp_path):
    f = tmp_path / "w.gwy"
    wrong = ["West QX", "Nroth 9♥", "North A♠", "North takes South", "counts North 13", "West draws 7♦",
             "7. North 2♥", "deal"]
    r = run_live(str(f), input="\n".join(PAGAT_LINES[:8] + wrong) + "\n")
    assert r.returncode == 1, r.stderr  # piped: an entry not recorded makes the exit code 1
    rej = [line for line in r.stdout.splitlines() if line.startswith("rejected")]
    assert len(rej) == len(wrong), r.stdout
    assert "expected a card such as Q♥ or QH, found 'QX'" in rej[0]
    assert "unknown seat 'Nroth'" in rej[1] and "did you mean 'North'" in rej[1]
    assert "A♠" in rej[2] and "waste pile" in rej[2]           # R105: played in trick 1
    assert "North may take only East's hand, not South's" in rej[3]
    assert "the counts contradict the replay: North 11, not 13" in rej[4]
    assert "no draw is due" in rej[5]
    assert "expected trick 3, found trick 7" in rej[6]
    assert facts(f) == facts(PAGAT)[:8]
    assert check_codes(f) == []


def test_pipe_comments_show_legal_help(tmp_path):
    f = tmp_path / "c.gwy"
    r = run_live(str(f), input="# the Smiths' table\nWest A♠\ncomment North was slow\nshow\nlegal\nhelp\n")
    assert r.returncode == 0, r.stderr
    text = f.read_text(encoding="utf-8")
    assert "# the Smiths' table\n1. West A♠\n# North was slow\n" in text
    assert "seat" in r.stdout and "known cards" in r.stdout  # show's table
    assert "trick 1 (the first, in any order): North, East, South still to play" in r.stdout  # legal
    assert "undo" in r.stdout and "North takes East" in r.stdout  # help
    assert r.stdout.count("noted") == 2
    r = run_live(str(f), input="undo\nundo\nundo\nundo\n")
    assert r.stdout.count("removed: ") == 3 and "nothing to undo" in r.stdout
    assert facts(f) == [] and "#" not in f.read_text(encoding="utf-8")


def test_no_file_named_makes_a_new_one_and_touches_nothing_else(tmp_path):
    stamp = time.strftime("%Y%m%d-%H%M")
    decoys = {}
    for k in range(60):  # every name of this minute (and the next) that live might pick first
        for m in (stamp, time.strftime("%Y%m%d-%H%M", time.localtime(time.time() + 60))):
            name = tmp_path / f"live-{m}{k:02d}.gwy"
            name.write_text(f"decoy {k}\n")
            decoys[name] = name.read_text()
    r = run_live(input="West A♠\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for name, text in decoys.items():
        assert name.read_text() == text
    new = [p for p in tmp_path.iterdir() if p not in decoys]
    assert len(new) == 1 and new[0].suffix == ".gwy" and new[0].name in r.stderr
    assert facts(new[0]) == [("play", 1, "West", "A♠")]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_refuses_a_file_that_is_not_a_record(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("shopping: milk\n")
    r = run_live(str(f), input="West A♠\n")
    assert r.returncode == 2 and "not a .gwy record" in r.stderr
    assert f.read_text() == "shopping: milk\n"
    bad = tmp_path / "bad.gwy"
    bad.write_text(PAGAT.read_text(encoding="utf-8").replace("North J♠", "North QX"), encoding="utf-8")
    before = bad.read_bytes()
    r = run_live(str(bad), input="West A♠\n")
    assert r.returncode == 2 and "syntax error" in r.stderr and bad.read_bytes() == before


def test_bad_options(tmp_path):
    f = tmp_path / "x.gwy"
    for args, msg in [(["--deal", "13 13 13 12"], "the deal cannot be true"),
                      (["--rules", "pagat taking=maybe"], "taking"),
                      (["--seats", "North North"], "named twice"),
                      (["--deal", "13 13 13"], "3 hands for 4 seats")]:
        r = run_live(str(f), *args, input="")
        assert r.returncode == 2 and msg in r.stderr, (args, r.stderr)
        assert not f.exists()


def test_deal_with_hands_and_seats(tmp_path):
    f = tmp_path / "h.gwy"
    deal = "AKQJT98765432.AKQJT98765432..; ..AKQJT98765432.AKQJT98765432"
    r = run_live(str(f), "--seats", "Ann Bob", "--deal", deal, input="Bob 2♦\nAnn A♠\nBob A♦\nlegal\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "turn: Ann opens trick 1 with A♠; before it, a player may take the next player's hand"
    assert out[1].startswith("recorded: 1. Bob 2♦")
    assert out[2].startswith("mistake[M205]: the first trick opens with A♠, played by Ann; Bob played 2♦")
    g = parse(f.read_text(encoding="utf-8"))[0]
    assert g.seats == ("Ann", "Bob") and len(g.setup.hands[0].cards) == 26


def test_resume_continues_where_it_stopped(tmp_path):
    f = tmp_path / "r.gwy"
    r1 = run_live(str(f), input="\n".join(PAGAT_LINES[:13]) + "\n")
    assert r1.returncode == 0
    r2 = run_live(str(f), "--seats", "A B C D", input="\n".join(PAGAT_LINES[13:]) + "\n")
    assert r2.returncode == 0, r2.stderr
    assert "continuing game 1" in r2.stderr and "--seats ignored" in r2.stderr
    assert r2.stdout.splitlines()[0] == "turn: North to play to trick 4, following ♥ if able"
    assert facts(f) == facts(PAGAT)
    # after resuming, undo removes the last play even when it was written by the first run
    r3 = run_live(str(f), input="undo\nundo\n")
    assert "removed: counts South 10, West 7, North 11, East 8" in r3.stdout
    assert "removed: 6. West K♠" in r3.stdout
    assert facts(f) == facts(PAGAT)[:-2]


def test_resume_a_hand_written_record_keeps_its_text(tmp_path):
    f = tmp_path / "p.gwy"
    text = PAGAT.read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    r = run_live(str(f), input="South 4♥\n")
    assert r.returncode == 0, r.stderr
    assert f.read_text(encoding="utf-8") == text + "7. South 4♥\n"
    r = run_live(str(f), input="undo\n")
    assert f.read_text(encoding="utf-8") == text


def test_game_over_result_tag_and_next_game(tmp_path):
    # The two-player dispute, stopped before its last trick: finish it live.
    src = (RECORDS / "dispute-two-players.gwy").read_text(encoding="utf-8")
    f = tmp_path / "two.gwy"
    f.write_text(re.sub(r"(?m)^21\. .*\n", "", src), encoding="utf-8")
    r = run_live(str(f), input="West 7♣\nEast 8♥\nEast 2♠\nnew\n")
    assert r.returncode == 1, r.stderr  # 'East 2♠' after the end is rejected
    out = r.stdout.splitlines()
    assert out[0] == "turn: West leads the card drawn in trick 21; before it, a player may take the next player's hand"
    assert any(line.startswith("recorded: 21. East 8♥") and "the game is over: West is left holding cards and loses" in line for line in out)
    assert any(line.startswith("rejected") and "after the end of the game" in line for line in out)
    assert "game 2: North East South West, rules pagat" in r.stdout
    games = parse(f.read_text(encoding="utf-8"))
    assert len(games) == 2 and games[0].tag("Result") == "West"
    assert [h.size for h in games[1].setup.hands] == [13, 13, 13, 13]
    t = run_cli("tally", str(f), "--format", "json")
    assert json.loads(t.stdout)["finished"] == 1
    # resuming continues game 2; undo in game 1 is no longer possible, game 1 stays as it is
    r = run_live(str(f), input="West A♠\n")
    assert "continuing game 2" in r.stderr
    games = parse(f.read_text(encoding="utf-8"))
    assert games[0].tag("Result") == "West" and facts(f, 1) == [("play", 1, "West", "A♠")]


def test_undo_after_the_end_takes_back_the_result(tmp_path):
    src = (RECORDS / "dispute-two-players.gwy").read_text(encoding="utf-8")
    f = tmp_path / "two.gwy"
    f.write_text(src, encoding="utf-8")
    r = run_live(str(f), input="new\nundo\n")
    assert "game 1 is not over" not in r.stdout
    # 'new' was accepted (game 1 is over); the undo acts in game 2, which has nothing to undo
    assert "nothing to undo" in r.stdout
    f.write_text(src, encoding="utf-8")
    r = run_live(str(f), input="undo\nnew\n")
    assert "removed: 21. East 8♥" in r.stdout and "game 1 is not over" in r.stdout
    g = parse(f.read_text(encoding="utf-8"))
    assert len(g) == 1 and g[0].tag("Result") is None


# ---- kill -9 and resume ------------------------------------------------------------------------------


class Reader:
    """Lines from a pipe or a pty, with a deadline (a hung child fails the test, not the run)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = b""

    def until(self, pattern: str, timeout: float = TIMEOUT) -> str:
        rx = re.compile(pattern.encode("utf-8"))
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf)
            if m:
                got, self.buf = self.buf[: m.end()], self.buf[m.end():]
                return got.decode("utf-8", "replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; got {self.buf[-500:]!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # a pty whose child has gone
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"end of output waiting for {pattern!r}; got {self.buf[-500:]!r}")
                self.buf += chunk


def test_kill9_through_a_pipe_loses_nothing_answered(tmp_path):
    f = tmp_path / "k.gwy"
    p = subprocess.Popen(live_cmd(str(f)), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         cwd=str(ROOT))
    try:
        rd = Reader(p.stdout.fileno())
        rd.until(r"turn: [^\n]*\n")
        done = 11
        for line in PAGAT_LINES[:done]:
            p.stdin.write((line + "\n").encode("utf-8"))
            p.stdin.flush()
            rd.until(r"recorded: [^\n]*\n")  # answered: it is in the file
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=TIMEOUT)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == -signal.SIGKILL
    assert facts(f) == facts(PAGAT)[:done]
    assert check_codes(f) == []
    r = run_live(str(f), input="\n".join(PAGAT_LINES[done:]) + "\n")
    assert r.returncode == 0, r.stderr
    assert facts(f) == facts(PAGAT)


def _spawn_pty(args: list[str], data: Path):
    """The child on a pseudo-terminal: stdin, stdout and stderr are the terminal."""
    import fcntl
    import pty  # noqa: F401  (POSIX only)
    import termios

    master, slave = os.openpty()
    env = dict(os.environ, **PTY_ENV, XDG_DATA_HOME=str(data))

    def controlling_terminal():  # a session of its own, with the pty as its terminal (^C is SIGINT)
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    p = subprocess.Popen(live_cmd(*args), stdin=slave, stdout=slave, stderr=slave, cwd=str(ROOT), env=env,
                         preexec_fn=controlling_terminal, close_fds=True)
    os.close(slave)
    return p, master


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_kill9_through_a_pseudo_terminal_and_resume(tmp_path):
    f = tmp_path / "tty.gwy"
    p, master = _spawn_pty([str(f)], tmp_path)
    try:
        rd = Reader(master)
        rd.until(r"type 'help'")  # on a terminal: a word of help, then the prompt
        rd.until(PROMPT)
        done = 13
        for line in PAGAT_LINES[:done]:
            os.write(master, (line + "\n").encode("utf-8"))
            rd.until(r"recorded: ")
            rd.until(r"turn: ")
            rd.until(PROMPT)
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=TIMEOUT)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        os.close(master)
    assert facts(f) == facts(PAGAT)[:done]
    # resume on a terminal too, finish the example, leave with quit
    p, master = _spawn_pty([str(f)], tmp_path)
    try:
        rd = Reader(master)
        first = rd.until(PROMPT)
        assert "continuing game 1" in first and "North to play to trick 4" in first
        for line in PAGAT_LINES[done:]:
            os.write(master, (line + "\n").encode("utf-8"))
            rd.until(r"recorded: ")
            rd.until(PROMPT)
        os.write(master, b"show\n")
        rd.until(r"South leads trick 7")
        os.write(master, b"quit\n")
        assert p.wait(timeout=TIMEOUT) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        os.close(master)
    assert facts(f) == facts(PAGAT)


def test_pexpect_session(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    f = tmp_path / "px.gwy"
    child = pexpect.spawn(sys.executable, ["-m", "referee", "live", str(f)], cwd=str(ROOT), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(50, 160),
                          env=dict(os.environ, **PTY_ENV, XDG_DATA_HOME=str(tmp_path)))
    try:
        child.expect(PROMPT)
        for line in PAGAT_LINES[:15]:
            child.sendline(line)
            child.expect("recorded: ")
            child.expect(PROMPT)
        assert "the trick ends; North, with the highest heart (6♥), picks up 3 cards and leads trick 5" in child.before
        child.sendline("legal")
        child.expect("takes allowed now")
        child.expect(PROMPT)
        child.kill(signal.SIGKILL)
        child.wait()
    finally:
        if child.isalive():
            child.kill(signal.SIGKILL)
    assert facts(f) == facts(PAGAT)[:15]


# ---- simulated games through live ------------------------------------------------------------------------


@pytest.mark.parametrize("spec,players,seed,mistakes", [
    ("pagat", 4, 1, 0.0), ("pagat", 4, 7, 0.05), ("donkey", 5, 11, 0.05), ("denexa", 3, 5, 0.03),
    ("pagat last_card=draw_hand", 4, 9, 0.0), ("pagat packs=2", 9, 3, 0.0),
])
def test_simulated_games_typed_play_by_play(tmp_path, spec, players, seed, mistakes):
    from referee.engine.rules import parse_spec
    from referee.selfplay import simulate as sim

    g = next(sim.simulate(players, 1, seed, parse_spec(spec), mistakes=mistakes))
    src = tmp_path / "sim.gwy"
    src.write_text("%gwy 1\n\n" + g.text, encoding="utf-8")
    game = parse(src.read_text(encoding="utf-8"))[0]
    hands = "; ".join(" ".join(card_str(c) for c in h.cards) for h in sorted(game.setup.hands, key=lambda h: h.seat))
    typed = []
    for a in game.actions:
        if isinstance(a, Trick):
            typed.extend(f"{game.seats[p.seat]} {card_str(p.card)}" for p in a.plays)  # no trick numbers
        elif isinstance(a, Comment):
            continue
        else:
            if isinstance(a, Take):
                typed.append(f"{game.seats[a.taker]} takes {game.seats[a.target]}")
            elif isinstance(a, Draw):
                typed.append(f"{game.seats[a.seat]} draws {card_str(a.card)}"
                             + (f" from {game.seats[a.source]}" if a.source is not None else ""))
    f = tmp_path / "live.gwy"
    r = run_live(str(f), "--seats", " ".join(game.seats), "--rules", spec, "--deal", hands,
                 input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    assert "rejected" not in r.stdout
    assert facts(f) == [x for x in facts(src) if x[0] != "counts"]
    out = parse(f.read_text(encoding="utf-8"))[0]
    assert out.tag("Result") == game.tag("Result")
    codes = check_codes(f)
    assert not [c for c in codes if c[0] in "SR"]
    assert sorted(codes) == sorted(m.code for m in g.mistakes)


def test_a_file_that_cannot_be_written_keeps_the_last_good_record(tmp_path, monkeypatch):
    from referee.table import live as live

    f = tmp_path / "w.gwy"
    s = live.Session.start(f, None, ["North", "East", "South", "West"], "pagat", None)
    s.save()
    out, go_on = s.handle("West A♠")
    assert go_on and out[0][0] == "recorded: 1. West A♠"
    before = f.read_text(encoding="utf-8")

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(live, "atomic_write", full)
    out, _ = s.handle("North J♠")
    assert out[0][0].startswith("not recorded: cannot write") and "No space left" in out[0][0]
    assert out[1][0].startswith("turn: trick 1 (the first, in any order): North, East, South")
    assert f.read_text(encoding="utf-8") == before and len(s.units[0].plays) == 1
    monkeypatch.undo()
    out, _ = s.handle("North J♠")
    assert out[0][0] == "recorded: 1. North J♠"
    assert facts(f) == [("play", 1, "West", "A♠"), ("play", 1, "North", "J♠")]


# ---- entries as people type them -----------------------------------------------------------------


def test_plays_typed_every_way_are_recorded_as_typed(tmp_path):
    """Pagat's example typed as scorers type: lower case, ASCII suits, seat prefixes, 'plays',
    T for ten, several plays a line, the card alone when only one seat is due."""
    f = tmp_path / "ways.gwy"
    typed = [
        "west as", "North plays J♠; e AH, S ts",          # trick 1: any order, all named
        "W 5h", "9♥", "Q♥", "j♥",                           # trick 2: West leads, then whoever is due
        "East 3♥ South 7h West KH North 8♥",                # trick 3 on one line, spaces only
        "2♥ 6♥ K♣",                                         # trick 4: cards alone, one after another
        "counts North 12, East 9, South 10, West 9",        # the notation's own line, as written
        "n QD, e JD, s AD, w KD", "5♦", "West K♠",
    ]
    r = run_live(str(f), input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stdout
    assert "rejected" not in r.stdout and "question" not in r.stdout
    assert facts(f) == [x for x in facts(PAGAT) if x[0] != "counts" or x[1] == ("North", 12)]
    assert check_codes(f) == []


def test_ambiguous_entries_are_asked_about_never_guessed(tmp_path):
    f = tmp_path / "amb.gwy"
    # seats sharing a prefix: 'N' could be North or Nadia
    r = run_live(str(f), "--seats", "North Nadia South West", input="N A♠\n")
    assert r.returncode == 1
    assert "question (not recorded): 'N A♠' can be read 2 ways" in r.stdout
    assert "Nadia A♠" in r.stdout and "North A♠" in r.stdout
    assert not f.exists()  # nothing recorded, no file
    # a card alone in the first trick, when several seats may hold it: asked; a seat answers
    r = run_live(str(f), input="West A♠\nJ♠\nNorth\n")
    assert r.returncode == 0  # the question was answered: every entry is recorded
    out = r.stdout.splitlines()
    q = next(line for line in out if line.startswith("question"))
    assert q.startswith("question (not recorded): who played J♠? North, East or South")
    assert "recorded: 1. North J♠" in out
    assert facts(f) == [("play", 1, "West", "A♠"), ("play", 1, "North", "J♠")]
    # a question left unanswered (the next line is another entry): not recorded, exit 1
    g = tmp_path / "amb2.gwy"
    r = run_live(str(g), input="West A♠\nJ♠\nEast A♥\n")
    assert r.returncode == 1 and "recorded: 1. East A♥" in r.stdout
    assert facts(g) == [("play", 1, "West", "A♠"), ("play", 1, "East", "A♥")]


def test_first_trick_card_alone_when_only_one_seat_can_hold_it(tmp_path):
    f = tmp_path / "known.gwy"
    deal = "AKQJT98765432.AKQJT98765432..; ..AKQJT98765432.AKQJT98765432"
    r = run_live(str(f), "--seats", "Ann Bob", "--deal", deal, input="A♠ 2♦\n")
    # A♠: only Ann holds it; 2♦ in the first trick: only Bob can hold it
    assert "recorded: 1. Ann A♠" in r.stdout and "recorded: 1. Bob 2♦" in r.stdout, r.stdout
    assert facts(f) == [("play", 1, "Ann", "A♠"), ("play", 1, "Bob", "2♦")]


def test_rejected_entries_say_why_and_what_is_accepted(tmp_path):
    f = tmp_path / "rej.gwy"
    r = run_live(str(f), input="West A♠\nWest takes\nhello there\nNorth 9♥ Souht 8♥\nA♠\n")
    assert r.returncode == 1
    rej = [line for line in r.stdout.splitlines() if line.startswith("rejected")]
    assert len(rej) == 4, r.stdout
    assert "the seat whose hand is taken is missing after 'takes'" in rej[0]
    assert "'hello' is neither a seat of this game (North, East, South, West) nor a card" in rej[1]
    assert "unknown seat 'Souht' (did you mean 'South'?)" in rej[2]
    assert "no seat still to play can hold A♠ from what is known" in rej[3]  # West has played it
    assert r.stdout.count("  accepted: a play 'West A♠'") == 1  # said once a session (issue 38)
    assert facts(f) == [("play", 1, "West", "A♠")]


def test_takes_and_draws_in_words(tmp_path):
    src = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    f = tmp_path / "t.gwy"
    f.write_text(src, encoding="utf-8")
    r = run_live(str(f), input="North takes East's hand\n")
    assert "recorded: North takes East" in r.stdout, r.stdout
    assert facts(f)[-1] == ("take", "North", "East")
    d = tmp_path / "d.gwy"
    d.write_text((RECORDS / "dispute-draw.gwy").read_text(encoding="utf-8"), encoding="utf-8")
    r = run_live(str(d), input="w drew 9h\n")
    assert r.returncode == 0 and "recorded: West draws 9♥" in r.stdout, r.stdout
    assert facts(d)[-1] == ("draw", "West", "9♥", None)


def test_a_line_of_plays_stops_at_the_first_not_recorded(tmp_path):
    f = tmp_path / "stop.gwy"
    r = run_live(str(f), input="West A♠, North A♠, East A♥\n")
    assert r.returncode == 1
    assert "recorded: 1. West A♠" in r.stdout
    assert "not recorded either: the rest of the entry (East A♥)" in r.stdout
    assert facts(f) == [("play", 1, "West", "A♠")]


# ---- the prompt, keystroke by keystroke ---------------------------------------------------------------


def _pexpect_live(tmp_path: Path, *args: str):
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(sys.executable, ["-m", "referee", "live", *args], cwd=str(tmp_path), encoding="utf-8",
                         timeout=TIMEOUT, dimensions=(50, 160),
                         env=dict(os.environ, **PTY_ENV, XDG_DATA_HOME=str(tmp_path / "data")))


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_prompt_completion_ctrl_c_undo_history_ctrl_d(tmp_path):
    f = tmp_path / "k.gwy"
    child = _pexpect_live(tmp_path, str(f))
    try:
        child.expect(PROMPT)
        # completion: 'We' + Tab -> 'West'; then 'A' + Tab -> A♠, the only card legal to open
        # (the terminal shows what completion adds: the rest of the word)
        child.send("We")
        child.send("\t")
        child.expect("st")
        child.send(" A")
        child.send("\t")
        child.expect("♠")
        child.send("\r")
        child.expect("recorded: 1. West A♠")
        child.expect(PROMPT)
        # Ctrl-C cancels the line being typed: nothing of it is recorded, the session goes on
        for ch in "North J":
            child.send(ch)
        child.send("\x03")
        child.expect("line cancelled")
        child.expect(PROMPT)
        child.send("nor")
        child.send("\t")
        child.expect("th")
        child.send(" j♠\r")
        child.expect("recorded: 1. North J♠")
        child.expect(PROMPT)
        # undo shows the entry before it goes; 'n' keeps it, 'y' removes it
        child.send("undo\r")
        child.expect("undo removes '1. North J♠'")
        child.send("n\r")
        child.expect("kept: 1. North J♠")
        child.expect(PROMPT)
        child.send("undo\r")
        child.expect("undo removes '1. North J♠'")
        child.send("y\r")
        child.expect("removed: 1. North J♠")
        child.expect(PROMPT)
        # Ctrl-D ends, the record saved
        child.send("\x04")
        child.expect("saved: ")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert facts(f) == [("play", 1, "West", "A♠")]
    # history across sessions: Up recalls what was typed last time
    child = _pexpect_live(tmp_path, str(f))
    try:
        child.expect(PROMPT)
        child.send("\x1b[A")  # Up: 'undo' was the last line typed
        child.expect("undo")
        child.send("\x03")
        child.expect(PROMPT)
        child.send("quit\r")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    history = (tmp_path / "data" / "getaway-ref" / "live-history").read_text(encoding="utf-8")
    assert "+West A♠" in history and "+North j♠" in history


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_starting_and_quitting_leaves_no_file(tmp_path):
    child = _pexpect_live(tmp_path)
    try:
        child.expect(PROMPT)
        child.send("quit\r")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert not list(tmp_path.glob("*.gwy"))
    r = run_live(input="show\nquit\n", cwd=tmp_path)
    assert r.returncode == 0 and not list(tmp_path.glob("*.gwy"))


# ---- one replay, fed each entry ----------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _styled(text: str, code: str) -> list[str]:
    """The lines a terminal shows in one rich style (``1``: bold, the turn; ``1;36``: bold
    cyan, an answer), without their escape sequences."""
    return [ANSI.sub("", m) for m in re.findall(r"\x1b\[" + re.escape(code) + r"m(.*?)\x1b\[0m", text)]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_game_typed_at_a_terminal_is_told_as_a_fresh_session_reads_its_file(tmp_path):
    """Issue 23: live keeps its replay and feeds it each new entry, reading and judging the
    whole game again only where the referee needs the rest of the record. Whichever way an
    entry was taken, what live says after it (whose turn, who leads, the hands, the last
    trick's verdict and its detail) is what a new live session says of the file as written
    then, which reads and judges the whole game. The game has unseen hands (a deal of sizes),
    out-of-turn plays, and a renege from an unseen hand that the table penalised (the lead
    after the tochoo shows it)."""
    from referee.engine.rules import parse_spec
    from referee.selfplay import simulate as sim

    g = next(sim.simulate(4, 1, 7, parse_spec("pagat"), mistakes=0.05))
    game = parse("%gwy 1\n\n" + g.text)[0]
    typed = []
    for a in game.actions:
        if isinstance(a, Trick):
            typed.extend(f"{game.seats[p.seat]} {card_str(p.card)}" for p in a.plays)
        elif isinstance(a, (Take, Draw)):
            typed.append(f"{game.seats[a.taker]} takes {game.seats[a.target]}" if isinstance(a, Take) else
                         f"{game.seats[a.seat]} draws {card_str(a.card)}"
                         + (f" from {game.seats[a.source]}" if a.source is not None else ""))
    assert {m.code for m in g.mistakes} >= {"M201", "M203"}
    questions = ["who leads", "hands", "why", "more"]
    checkpoints = set(range(5, len(typed), len(typed) // 8)) | {len(typed) - 1}
    f = tmp_path / "typed.gwy"
    said: dict[int, tuple[str, list[str]]] = {}
    child = _pexpect_live(tmp_path, str(f), "--seats", " ".join(game.seats), "--rules", "pagat")
    try:
        child.expect(PROMPT)
        for k, line in enumerate(typed):
            child.sendline(line)
            child.expect(r"\x1b\[1mturn: .*?\x1b\[0m")
            turn = _styled(child.after, "1")[-1]
            child.expect(PROMPT)
            assert "rejected" not in child.before and "question" not in child.before, (line, child.before)
            if k in checkpoints:
                (tmp_path / f"at-{k}.gwy").write_bytes(f.read_bytes())
                answers_now = []
                for q in questions:
                    child.sendline(q)
                    child.expect(r"\x1b\[1;36m.*?\x1b\[0m")
                    answers_now += _styled(child.after, "1;36")
                    child.expect(PROMPT)
                said[k] = (turn, answers_now)
        child.sendline("quit")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    for k, (turn, answers_now) in sorted(said.items()):
        fresh = run_live(str(tmp_path / f"at-{k}.gwy"), input="\n".join(questions + ["quit"]) + "\n")
        assert fresh.returncode == 0, fresh.stderr
        lines = fresh.stdout.splitlines()
        assert lines[0] == turn, (k, typed[k])
        assert lines[1:] == answers_now, (k, typed[k])
    # and the whole record is the game played, judged as it was played
    assert facts(f) == [x for x in facts_of(game) if x[0] != "counts"]
    assert sorted(check_codes(f)) == sorted(m.code for m in g.mistakes)


def test_a_tochoo_from_an_unseen_hand_is_judged_again_when_the_next_lead_shows_the_penalty(tmp_path):
    """A card of another suit from a hand nobody has seen ends the trick as a tochoo; if the
    next lead is that player's, the table penalised it as a renege (ruling 1), and live says
    so at that lead: an entry that changes what an earlier one meant is judged with the whole
    game, not added to it."""
    f = tmp_path / "u.gwy"
    r = run_live(str(f), input="\n".join(PAGAT_LINES[:15] + ["5. East 4♦", "South 5♦"]) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    i = out.index("recorded: 4. East K♣ — the trick ends; North, with the highest heart (6♥), picks up 3 cards "
                  "and leads trick 5")
    assert out[i + 1].startswith("turn: North has the power and leads trick 5")
    assert out[i + 2] == "recorded: 5. East 4♦"
    assert out[i + 3] == "mistake[M201]: renege: East played K♣ on a heart lead, and the table penalised it (trick 4)"
    assert "  = help: penalty (ruling 1): East picks up the 3 cards of trick 4 and leads trick 5" in out
    assert out[-1] == "turn: West to play to trick 5, following ♦ if able"
    assert check_codes(f) == ["M201"]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_review_at_a_terminal_is_the_reviews_verdict_on_the_last_play(tmp_path):
    # Off unless asked: `review` reviews the game so far and tells the verdict on the last play
    # (South's K♦ at trick 21 of the review's example, a blunder) and every seat's chances.
    from referee.review.ask import hint

    text = (RECORDS / "review-blunder.gwy").read_text(encoding="utf-8").split("\n")
    upto = next(i for i, line in enumerate(text) if line.startswith("21. "))
    f = tmp_path / "so-far.gwy"
    f.write_text("\n".join(text[:upto + 1]) + "\n", encoding="utf-8")
    expected = hint(parse(f.read_text(encoding="utf-8"), str(f))[-1])
    assert "South's K♦ was a blunder" in expected
    child = _pexpect_live(tmp_path, str(f))
    try:
        child.expect(PROMPT)
        child.sendline("review")
        child.expect(r"West \d+%\.")  # the answer's last words, after the review (seconds)
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", (child.before or "") + child.after)
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        if child.isalive():
            child.kill(signal.SIGKILL)
    assert " ".join(expected.split()) in " ".join(shown.split())


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_why_after_a_lead_out_of_turn_gives_the_rulings_one_answer(tmp_path):
    # Issue 35, items 1-2: typed as at the table, the record stops at South's lead out of
    # turn. `why` says what the turn line, `who leads` and check say: the mistake ended the
    # trick (ruling 1), South picks up 7♥ and leads trick 4. Then, mid-trick, `why` says who
    # plays next and what the rule asks of them.
    f = tmp_path / "t.gwy"
    child = _pexpect_live(tmp_path, str(f))

    def ask(line: str, until: str) -> str:
        child.sendline(line)
        child.expect(until)
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", (child.before or "") + child.after)
        child.expect(PROMPT)
        return " ".join(text.split())

    try:
        child.expect(PROMPT)
        for entry in ("west as", "n js", "e ah", "s 10s", "W 5h", "N 9h", "E qh", "S jh"):
            ask(entry, "recorded: ")
        told = ask("south 7h", r"help: [^\r\n]*leads trick 4")
        assert "mistake[M203]: South led 7♥, but East has the power and leads trick 3" in told
        assert "South picks up the card of trick 3 and leads trick 4" in told
        why = ask("why", r"Trick 3: [^\r\n]*\.")
        assert ("Trick 3: South led 7♥, but East has the power and leads trick 3 (M203); "
                "penalty applied: South picks up 1 card and leads trick 4.") in why
        assert "not over" not in why
        who = ask("who leads", r"South leads trick 4[^\r\n]*")
        assert "penalty" in who
        ask("s 7h", "recorded: 4. South 7♥")
        why = ask("why", r"Trick 4: [^\r\n]*\.")
        assert "Trick 4: South led 7♥; West to play, following ♥ if able." in why
        child.sendline("quit")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        if child.isalive():
            child.kill(signal.SIGKILL)
    assert check_codes(f) == ["M203"]
