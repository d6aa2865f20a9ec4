"""Nothing the user wrote is lost by a command that writes (issue 22, items 2, 3, 7, 8):
an output that is an input under another name, a file changed under the command, a file
size limit, and the user's text echoed to the terminal. Every command runs as a user runs
it: a subprocess, real hard links, a real file size limit (RLIMIT_FSIZE in the child), a
real second program writing the file, a pseudo-terminal where the terminal matters."""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT

PAGAT = RECORDS / "pagat-example.gwy"
TIMEOUT = 120
SEATS = ["--seats", "North East South West"]


def gwy(*args: str, cwd: Path, input: str | None = None, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    def child() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=str(cwd), input=input, capture_output=True,
                          text=True, timeout=TIMEOUT, preexec_fn=child, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def one_line_error(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


# ---- item 2: an output that is an input under another name ----------------------------------------


@pytest.mark.parametrize("how", ["hard link", "symlink", "other spelling"])
def test_html_never_writes_its_page_over_the_record_by_any_name(tmp_path: Path, how: str) -> None:
    rec = tmp_path / "rec.gwy"
    rec.write_bytes(PAGAT.read_bytes())
    (tmp_path / "sub").mkdir()
    page = {"hard link": "page.html", "symlink": "page.html", "other spelling": "sub/../rec.gwy"}[how]
    if how == "hard link":
        os.link(rec, tmp_path / page)
    elif how == "symlink":
        (tmp_path / page).symlink_to("rec.gwy")
    r = gwy("html", "rec.gwy", "-o", page, cwd=tmp_path)
    line = one_line_error(r)
    assert page in line and ("rec.gwy" in line or "the record itself" in line)
    assert rec.read_bytes() == PAGAT.read_bytes()
    assert "<html" not in r.stdout


def test_html_writes_a_page_beside_its_hard_linked_record(tmp_path: Path) -> None:
    """The guard is about identity, not links: a record with a second name still gets its page."""
    rec = tmp_path / "rec.gwy"
    rec.write_bytes(PAGAT.read_bytes())
    os.link(rec, tmp_path / "also.gwy")
    r = gwy("html", "rec.gwy", "-o", "page.html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "<html" in (tmp_path / "page.html").read_text(encoding="utf-8")
    assert rec.read_bytes() == PAGAT.read_bytes()


def test_simulate_never_writes_over_the_house_rules_it_reads(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "pagat"\n', encoding="utf-8")
    probe = gwy("simulate", "--games", "1", "--rules-file", "house.toml", cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr  # the rules file is one simulate reads
    os.link(rules, tmp_path / "out.gwy")
    r = gwy("simulate", "--games", "1", "--rules-file", "house.toml", "-o", "out.gwy", "--force", cwd=tmp_path)
    line = one_line_error(r)
    assert "out.gwy" in line and "house.toml" in line
    assert rules.read_text(encoding="utf-8") == 'preset = "pagat"\n'


# ---- item 3: a file changed under the command ----------------------------------------------------------


def _open_files(pid: int) -> list[str]:
    out = []
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return out
    for fd in fds:
        try:
            out.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
    return out


@pytest.mark.parametrize("linked", [False, True], ids=["renamed", "in-place"])
def test_fmt_write_keeps_an_edit_made_while_it_runs(tmp_path: Path, linked: bool) -> None:
    """fmt --write of a large record; while it formats (stopped there with SIGSTOP, so the
    moment is exact), another program appends to the file. fmt writes nothing, names the
    file and exits 2; the file is the other program's."""
    big = gwy("simulate", "--games", "400", "--seed", "5", cwd=tmp_path)
    assert big.returncode == 0
    rec = tmp_path / "big.gwy"
    rec.write_text(big.stdout.replace("♠", "S"), encoding="utf-8")
    if linked:
        os.link(rec, tmp_path / "second.gwy")
    p = subprocess.Popen([sys.executable, "-m", "referee", "fmt", "--write", "big.gwy"], cwd=str(tmp_path),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        # Formatting: the new text's unnamed file is open beside the record, and so is the
        # record, read from. Stopped there, the edit comes after fmt read the file.
        deadline = time.monotonic() + TIMEOUT
        while True:
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline
            os.kill(p.pid, signal.SIGSTOP)
            files = _open_files(p.pid)
            if str(rec) in files and any(f.startswith(str(tmp_path)) and "(deleted)" in f for f in files):
                break
            os.kill(p.pid, signal.SIGCONT)
            time.sleep(0.005)
        with open(rec, "a", encoding="utf-8") as f:
            f.write("# a line added by another program\n")
        edited = rec.read_bytes()
        os.kill(p.pid, signal.SIGCONT)
        out, err = p.communicate(timeout=TIMEOUT)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 2, err
    assert "Traceback" not in err
    assert "big.gwy" in err and "changed on disk" in err
    assert rec.read_bytes() == edited
    if linked:
        assert os.path.samefile(rec, tmp_path / "second.gwy")
    assert sorted(x.name for x in tmp_path.iterdir()) == sorted(["big.gwy"] + (["second.gwy"] if linked else []))


class Live:
    """``live FILE`` through a pipe, one entry at a time: each answer read before the next."""

    def __init__(self, cwd: Path, *args: str, fsize: int | None = None) -> None:
        def child() -> None:
            if fsize is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

        self.p = subprocess.Popen([sys.executable, "-m", "referee", "live", *args], cwd=str(cwd), text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  encoding="utf-8", preexec_fn=child, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        self.said: list[str] = []
        # An answer that never comes fails the test, rather than waiting for ever.
        self.watchdog = threading.Timer(TIMEOUT, self.p.kill)
        self.watchdog.start()
        self.until("turn:")

    def until(self, start: str) -> list[str]:
        got = []
        assert self.p.stdout is not None
        while True:
            line = self.p.stdout.readline()
            assert line, f"live ended before '{start}': {got} {self.p.stderr.read() if self.p.stderr else ''}"
            got.append(line.rstrip("\n"))
            self.said.append(line.rstrip("\n"))
            if line.startswith(start):
                return got

    def entry(self, text: str, until: str = "turn:") -> list[str]:
        assert self.p.stdin is not None
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        return self.until(until)

    def end(self) -> tuple[int, str]:
        assert self.p.stdin is not None and self.p.stderr is not None
        self.p.stdin.close()
        rest = self.p.stdout.read() if self.p.stdout else ""
        self.said.extend(rest.splitlines())
        err = self.p.stderr.read()
        code = self.p.wait(timeout=TIMEOUT)
        self.watchdog.cancel()
        return code, err


def _plays(path: Path) -> list[str]:
    from referee import parse

    g = parse(path.read_text(encoding="utf-8"), str(path))[-1]
    assert not g.errors, [d.message for d in g.errors]
    return [f"{g.seats[p.seat]} {p.card}" for a in g.actions for p in getattr(a, "plays", [])]


def test_live_takes_in_lines_another_program_appended_and_writes_over_nothing(tmp_path: Path) -> None:
    f = tmp_path / "game.gwy"
    live = Live(tmp_path, "game.gwy", *SEATS)
    try:
        assert live.entry("West A♠")[0] == "recorded: 1. West A♠"
        with open(f, "a", encoding="utf-8") as out:  # another program, or a scorer's editor
            out.write("# written by the other scorer\n1. North J♠\n")
        got = live.entry("East A♥")
        assert got[0].startswith("note: game.gwy changed on disk"), got
        assert any(line.startswith("recorded: 1. East A♥") for line in got), got
        code, err = live.end()
    finally:
        live.watchdog.cancel()
        if live.p.poll() is None:
            live.p.kill()
    assert code == 0, err
    text = f.read_text(encoding="utf-8")
    assert "# written by the other scorer" in text and "1. North J♠" in text
    from referee import parse

    g = parse(text, str(f))[-1]
    assert not g.errors
    plays = [(g.seats[p.seat], p.card) for a in g.actions for p in getattr(a, "plays", [])]
    assert [s for s, _ in plays] == ["West", "North", "East"]


def test_live_follows_an_editors_save_and_keeps_it(tmp_path: Path) -> None:
    """An editor saves by writing a new file and renaming it over the record: live takes
    the saved text as the record and goes on from it."""
    f = tmp_path / "game.gwy"
    live = Live(tmp_path, "game.gwy", *SEATS)
    try:
        live.entry("West A♠")
        live.entry("North J♠")
        saved = f.read_text(encoding="utf-8").replace("1. West A♠, North J♠",
                                                      "1. West A♠, North J♠, East A♥  # East has no spades")
        tmp = tmp_path / ".game.gwy.swp"
        tmp.write_text(saved, encoding="utf-8")
        os.replace(tmp, f)
        got = live.entry("South 10♠")
        assert got[0].startswith("note: game.gwy changed on disk"), got
        assert "recorded: 1. South 10♠" in got[1], got
        code, err = live.end()
    finally:
        live.watchdog.cancel()
        if live.p.poll() is None:
            live.p.kill()
    assert code == 0, err
    text = f.read_text(encoding="utf-8")
    assert "East A♥  # East has no spades" in text
    assert "South 10♠" in text


def test_live_stops_when_the_file_is_changed_into_something_it_cannot_continue(tmp_path: Path) -> None:
    f = tmp_path / "game.gwy"
    live = Live(tmp_path, "game.gwy", *SEATS)
    try:
        live.entry("West A♠")
        f.write_text("my shopping list\n", encoding="utf-8")  # the file is someone else's now
        got = live.entry("North J♠", until="stopped:")
        code, err = live.end()
    finally:
        live.watchdog.cancel()
        if live.p.poll() is None:
            live.p.kill()
    assert "game.gwy changed on disk and cannot be continued" in got[-1]
    assert code == 1, err
    assert f.read_text(encoding="utf-8") == "my shopping list\n"
    assert not any(line.startswith("recorded: 1. North") for line in live.said)


# ---- item 7: exit codes and messages of the writing commands ------------------------------------------


def test_live_exits_1_when_an_entry_could_not_be_written_on_a_terminal_too(tmp_path: Path) -> None:
    """A file size limit reached in the middle of a game: the entry is not recorded, said in
    one line that says 'cannot write' once, the file stays the last good record, and live
    exits 1 (it is no success), on a terminal as through a pipe."""
    pexpect = pytest.importorskip("pexpect")
    f = tmp_path / "game.gwy"
    limit = 300

    def child() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    lines = ["West A♠", "North J♠", "East A♥", "South 10♠", "West 5♥", "North 9♥", "East Q♥", "South J♥",
             "East 3♥", "South 7♥", "West K♥", "North 8♥", "West 2♥", "North 6♥", "East K♣",
             "counts North 12, East 9, South 10, West 9", "North Q♦", "East J♦", "South A♦", "West K♦",
             "South 5♦", "West K♠"]
    term = pexpect.spawn(sys.executable, ["-m", "referee", "live", str(f), *SEATS], cwd=str(tmp_path),
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200), preexec_fn=child,
                         env=dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1",
                                  XDG_DATA_HOME=str(tmp_path / "data")))
    failed = None
    try:
        term.expect("gwy>")
        for line in lines:
            term.sendline(line)
            i = term.expect(["not recorded: [^\r\n]*", "recorded: "])
            said = term.after
            term.expect("gwy>")
            if i == 0:
                failed = said
                break
        assert failed is not None, "the record never reached the file size limit"
        good = f.read_bytes()
        term.sendline("quit")
        term.expect(pexpect.EOF)
    finally:
        term.close(force=True)
    assert term.exitstatus == 1
    assert failed.count("cannot write") == 1 and "file size limit" in failed, failed
    assert f.read_bytes() == good and len(good) <= limit
    _plays(f)  # still a record check reads


@pytest.mark.parametrize("command", ["fmt --write", "simulate -o", "simulate >", "html -o", "live FILE"])
def test_a_file_size_limit_is_reported_never_a_silent_death(tmp_path: Path, command: str) -> None:
    """Under ulimit -f each writing command reports the limit in one line and exits 2 (live:
    says it for the entry and exits 1), never killed by SIGXFSZ; nothing is half written."""
    big = gwy("simulate", "--games", "40", "--seed", "3", cwd=tmp_path).stdout
    limit = 16_384
    rec = tmp_path / "rec.gwy"
    if command == "fmt --write":
        rec.write_text(big.replace("♠", "S"), encoding="utf-8")  # formatted, it is larger still
        assert len(big) > limit
        before = rec.read_bytes()
        line = one_line_error(gwy("fmt", "--write", "rec.gwy", cwd=tmp_path, fsize=limit))
        assert "rec.gwy" in line and "file size limit" in line
        assert rec.read_bytes() == before
    elif command == "simulate -o":
        line = one_line_error(gwy("simulate", "--games", "40", "-o", "out.gwy", cwd=tmp_path, fsize=limit))
        assert "out.gwy" in line and "file size limit" in line and line.count("cannot write") == 1
        assert not (tmp_path / "out.gwy").exists()
    elif command == "simulate >":
        with open(tmp_path / "out.gwy", "w") as out:
            def child() -> None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            r = subprocess.run([sys.executable, "-m", "referee", "simulate", "--games", "40"], cwd=str(tmp_path),
                               stdout=out, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, preexec_fn=child,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)))
        line = one_line_error(r)
        assert "standard output" in line and "file size limit" in line and "None" not in line
    elif command == "html -o":
        rec.write_bytes(PAGAT.read_bytes())
        line = one_line_error(gwy("html", "rec.gwy", "-o", "page.html", cwd=tmp_path, fsize=4096))
        assert "page.html" in line and "file size limit" in line and line.count("cannot write") == 1
        assert not (tmp_path / "page.html").exists()
    else:
        rec.write_text(big, encoding="utf-8")  # its last game is over: 'new' writes a game more
        r = gwy("live", "rec.gwy", cwd=tmp_path, input="new\n", fsize=len(big) + 40)
        assert r.returncode == 1, (r.stdout, r.stderr)
        assert "Traceback" not in r.stderr
        said = [x for x in r.stdout.splitlines() if "cannot write" in x]
        assert len(said) == 1 and said[0].count("cannot write") == 1 and "file size limit" in said[0]
        assert rec.read_text(encoding="utf-8") == big


def test_live_with_no_file_name_in_a_directory_it_cannot_write_says_where(tmp_path: Path) -> None:
    """Without a FILE, live makes a new name in the current directory; if it may not, the
    message names the directory (never 'None'), exit 2. A read-only bind of the directory
    would need root; a directory whose name is a file's does as well for the reason."""
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    try:
        if os.geteuid() == 0:
            # root writes anywhere: a file system mounted read-only is what stops it
            r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(d)], capture_output=True)
            if r.returncode != 0:
                pytest.skip("cannot mount a read-only file system here")
        try:
            r2 = gwy("live", cwd=d, input="West A♠\n")
        finally:
            if os.geteuid() == 0:
                subprocess.run(["umount", str(d)], check=False)
    finally:
        d.chmod(0o755)
    line = one_line_error(r2)
    assert "None" not in line and "cannot make a new record in" in line and str(d) in line


# ---- item 8: the user's text on the terminal, escaped ------------------------------------------------


HOSTILE_EVENT = "Night \x1b[2J\x1b]0;owned\x07 \u202eshow\u202c"


def test_show_narrate_escapes_the_event_tag_and_the_file_name(tmp_path: Path) -> None:
    text = PAGAT.read_text(encoding="utf-8").replace('[Event "Pagat\'s worked example"]',
                                                     f'[Event "{HOSTILE_EVENT}"]')
    name = "rec\u202egwy.gwy"
    (tmp_path / name).write_text(text, encoding="utf-8")
    plain = gwy("check", name, cwd=tmp_path)
    assert plain.returncode in (0, 1), plain.stderr  # a record the reader takes, tag and all
    r = gwy("show", name, "--narrate", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    head = r.stdout.splitlines()[0]
    for raw in ("\x1b", "\x07", "\u202e", "\u202c"):
        assert raw not in r.stdout
    assert head.startswith("rec\\u202egwy.gwy, game 1")
    assert "Night \\x1b[2J\\x1b]0;owned\\x07 \\u202eshow\\u202c" in head


ENTRIES = ["West \x1b[31mA♠", "West A♠\x00", "We\u202est A♠", "North \u2066J♠\u2069", "North\x1b]0;t\x07 J♠",
           "1. West A♠, North J\u202e♠"]
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_live_echoes_rejected_entries_escaped_through_a_pipe(tmp_path: Path) -> None:
    r = gwy("live", "g.gwy", *SEATS, cwd=tmp_path, input="\n".join(ENTRIES) + "\n")
    assert r.returncode == 1  # entries not recorded, through a pipe
    rejected = [line for line in r.stdout.splitlines() if line.startswith("rejected")]
    assert len(rejected) == len(ENTRIES), r.stdout
    assert not RAW.search(r.stdout), r.stdout
    assert "\\x1b[31m" in r.stdout and "\\u202e" in r.stdout and "\\x00" in r.stdout


def test_live_echoes_a_rejected_entry_escaped_on_a_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    term = pexpect.spawn(sys.executable, ["-m", "referee", "live", "g.gwy", *SEATS], cwd=str(tmp_path),
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200),
                         env=dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1",
                                  XDG_DATA_HOME=str(tmp_path / "data")))
    try:
        term.expect("gwy>")
        term.sendline("We\u202est A\u2066♠")
        term.expect("rejected \\(not recorded\\): ([^\r\n]*)")
        shown = term.match.group(1)
        term.expect("gwy>")
        term.sendline("quit")
        term.expect(pexpect.EOF)
    finally:
        term.close(force=True)
    assert "\u202e" not in shown and "\u2066" not in shown
    assert "\\u202e" in shown
