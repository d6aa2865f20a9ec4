"""Writing users' files as carefully as black: ``simulate -o`` and ``live FILE`` through
referee.files. The permission tests run the command as an unprivileged user (nobody), since
CI runs as root; the size limit is set in the child with RLIMIT_FSIZE."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

NOBODY = 65534
SIM = ["simulate", "--players", "4", "--seed", "7"]


def run(*args: str, cwd: Path, user: int | None = None, fsize: int | None = None,
        input: str | None = None) -> subprocess.CompletedProcess[str]:
    """`getaway-ref ARGS` as a user would run it, with a file size limit if given, and as
    ``user`` if given (dropping root)."""
    if user is not None:
        return _run_as(user, list(args), cwd, input or "")

    def child() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=str(cwd), capture_output=True, text=True,
                          input=input, preexec_fn=child, timeout=300)


_NOT_IMPORTED = {"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "lib2to3", "ensurepip",
                 "venv", "pydoc", "webbrowser", "__main__", "test", "xxlimited", "xxlimited_35", "_xxtestfuzz",
                 "xxsubtype", "_testcapi", "_testinternalcapi", "_testbuffer", "_testimportmultiple",
                 "_testmultiphase", "_ctypes_test", "_xxsubinterpreters", "msilib", "winreg", "winsound",
                 "_winapi", "msvcrt", "nt", "_msi", "_overlapped", "_tkinter", "readline"}


def _import_stdlib() -> None:
    """Import the standard library, while the child may still read where it lives."""
    import importlib

    for name in sorted(sys.stdlib_module_names - _NOT_IMPORTED):
        try:
            importlib.import_module(name)
        except BaseException:
            pass
    # Typer (0.29 on, with its own copy of click) and rich import parts of themselves only
    # when a command runs: load them all now, as for the standard library.
    import pkgutil

    import rich
    import typer

    for package in (typer, rich):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith("__main__"):  # importing it would run the package's demo
                continue
            try:
                importlib.import_module(info.name)
            except BaseException:
                pass


def _import_package(name: str) -> None:
    """Every module of a package, while the child may still read where it lives."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(name)
    for info in pkgutil.walk_packages(pkg.__path__, name + "."):
        if info.name.endswith("__main__"):
            continue  # importing it runs the program
        try:
            importlib.import_module(info.name)
        except BaseException:
            pass


def _run_as(user: int, args: list[str], cwd: Path, input: str) -> subprocess.CompletedProcess[str]:
    """The command in a forked child that has given up root: the interpreter may live where
    the other user cannot reach (root's home), so the child runs the command without exec,
    with the standard library imported while it is still root."""
    import io
    import pkgutil
    import traceback

    import rich
    import typer

    import referee.cli

    # typer and rich import some of their own modules when first used, after the child has
    # given up root: import them all now.
    for pkg in (typer, rich):
        for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if mod.name.endswith("__main__") or mod.name == "typer.cli":  # programs, not library parts
                continue
            try:
                __import__(mod.name)
            except Exception:
                pass
    import referee.files
    import referee.selfplay.simulate
    import referee.table.live
    import referee.table.views

    for package in ("typer", "rich"):  # each loads parts of itself late (help decorators, emoji codes)
        _import_package(package)
    files = [tempfile.TemporaryFile() for _ in range(3)]
    files[0].write(input.encode("utf-8"))
    files[0].seek(0)
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            for fd, f in enumerate(files):
                os.dup2(f.fileno(), fd)
            sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding="utf-8")
            sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding="utf-8", write_through=True)
            sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding="utf-8", write_through=True)
            os.chdir(cwd)
            _import_stdlib()
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
            sys.argv = ["getaway-ref", *args]
            try:
                referee.cli.main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException as e:
            os.write(2, f"{type(e).__name__}: {e}\n{traceback.format_exc()}".encode())
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except BaseException:
                    pass
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    out = []
    for f in files[1:]:
        f.seek(0)
        out.append(f.read().decode("utf-8"))
        f.close()
    files[0].close()
    return subprocess.CompletedProcess(args, os.waitstatus_to_exitcode(status), out[0], out[1])


@pytest.fixture
def shared() -> Iterator[Path]:
    """A directory that both root and nobody can reach (pytest's tmp_path is root's alone)."""
    d = Path(tempfile.mkdtemp(prefix="getaway-files-", dir="/tmp"))
    d.chmod(0o777)
    yield d
    shutil.rmtree(d, ignore_errors=True)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another user needs root (CI runs as root)")


def one_line_error(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


def simulated(cwd: Path, games: int = 1) -> str:
    r = run(*SIM, "--games", str(games), cwd=cwd)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_simulate_over_a_symlink_writes_the_target_and_keeps_the_link(shared: Path) -> None:
    (shared / "real.gwy").write_text("old\n", encoding="utf-8")
    (shared / "link.gwy").symlink_to("real.gwy")
    r = run(*SIM, "--games", "1", "-o", "link.gwy", "--force", cwd=shared)
    assert r.returncode == 0, r.stderr
    assert (shared / "link.gwy").is_symlink() and os.readlink(shared / "link.gwy") == "real.gwy"
    assert (shared / "real.gwy").read_text(encoding="utf-8") == simulated(shared)
    assert sorted(p.name for p in shared.iterdir()) == ["link.gwy", "real.gwy"]


def test_simulate_over_a_hard_link_keeps_one_file_under_both_names(shared: Path) -> None:
    (shared / "a.gwy").write_text("old\n", encoding="utf-8")
    os.link(shared / "a.gwy", shared / "b.gwy")
    r = run(*SIM, "--games", "2", "-o", "a.gwy", "--force", cwd=shared)
    assert r.returncode == 0, r.stderr
    assert os.path.samefile(shared / "a.gwy", shared / "b.gwy")
    assert (shared / "b.gwy").read_text(encoding="utf-8") == simulated(shared, 2)
    assert sorted(p.name for p in shared.iterdir()) == ["a.gwy", "b.gwy"]


@needs_root
def test_root_rewriting_another_users_file_keeps_its_owner_group_and_mode(shared: Path) -> None:
    f = shared / "theirs.gwy"
    f.write_text("old\n", encoding="utf-8")
    os.chown(f, NOBODY, NOBODY)
    f.chmod(0o640)
    r = run(*SIM, "--games", "1", "-o", "theirs.gwy", "--force", cwd=shared)
    assert r.returncode == 0, r.stderr
    st = f.stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (NOBODY, NOBODY, 0o640)
    assert f.read_text(encoding="utf-8") == simulated(shared)


@needs_root
def test_a_file_the_user_may_not_write_is_refused_not_replaced_through_the_directory(shared: Path) -> None:
    f = shared / "roots.gwy"
    f.write_text("root's record\n", encoding="utf-8")
    f.chmod(0o644)
    inode = f.stat().st_ino
    r = run(*SIM, "--games", "1", "-o", "roots.gwy", "--force", cwd=shared, user=NOBODY)
    line = one_line_error(r)
    assert "roots.gwy" in line and "may not write" in line
    assert f.read_text(encoding="utf-8") == "root's record\n" and f.stat().st_ino == inode
    assert f.stat().st_uid == 0
    assert sorted(p.name for p in shared.iterdir()) == ["roots.gwy"]


@needs_root
def test_a_read_only_directory_is_a_one_line_error_and_nothing_is_written(shared: Path) -> None:
    d = shared / "ro"
    d.mkdir()
    os.chown(d, NOBODY, NOBODY)
    d.chmod(0o555)
    r = run(*SIM, "--games", "1", "-o", "ro/new.gwy", cwd=shared, user=NOBODY)
    line = one_line_error(r)
    assert "ro/new.gwy" in line and "permission denied" in line
    assert list(d.iterdir()) == []


def _mine_in_read_only_dir(shared: Path) -> tuple[Path, Path]:
    """ro/mine.gwy, the user's and writable, in a directory ro/ the user may not write to."""
    d = shared / "ro"
    d.mkdir()
    f = d / "mine.gwy"
    f.write_text("old\n", encoding="utf-8")
    for p in (d, f):
        os.chown(p, NOBODY, NOBODY)
    d.chmod(0o555)
    return d, f


@needs_root
def test_a_writable_file_in_a_read_only_directory_is_rewritten_in_place(shared: Path) -> None:
    d, f = _mine_in_read_only_dir(shared)
    inode = f.stat().st_ino
    r = run(*SIM, "--games", "1", "-o", "ro/mine.gwy", "--force", cwd=shared, user=NOBODY)
    assert r.returncode == 0, r.stderr
    assert f.stat().st_ino == inode
    assert f.read_text(encoding="utf-8") == simulated(shared)
    assert [p.name for p in d.iterdir()] == ["mine.gwy"]


@needs_root
def test_with_nowhere_to_keep_a_journal_the_file_is_left_as_it_was(shared: Path, monkeypatch) -> None:
    # A writable file in a read-only directory is rewritten through a journal kept elsewhere
    # (the user's state directory, else a private one under the temporary directory). With
    # neither writable there is no safe way to rewrite it: one line, exit 2, the text intact.
    d, f = _mine_in_read_only_dir(shared)
    closed = shared / "closed"  # root's, and shut to everyone else
    closed.mkdir(mode=0o555)
    monkeypatch.setenv("XDG_STATE_HOME", str(closed))
    monkeypatch.setattr(tempfile, "tempdir", str(closed))
    r = run(*SIM, "--games", "1", "-o", "ro/mine.gwy", "--force", cwd=shared, user=NOBODY)
    line = one_line_error(r)
    assert "ro/mine.gwy" in line and "nowhere to keep its text" in line and "not written" in line
    assert f.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in d.iterdir()] == ["mine.gwy"] and list(closed.iterdir()) == []


def test_a_file_size_limit_is_a_one_line_error_and_the_original_is_untouched(shared: Path) -> None:
    f = shared / "out.gwy"
    f.write_text("the old record\n", encoding="utf-8")
    r = run(*SIM, "--games", "50", "-o", "out.gwy", "--force", cwd=shared, fsize=20_000)
    line = one_line_error(r)
    assert "out.gwy" in line and "file size limit" in line
    assert f.read_text(encoding="utf-8") == "the old record\n"
    assert [p.name for p in shared.iterdir()] == ["out.gwy"]


def test_a_file_size_limit_on_a_hard_linked_file_leaves_it_untouched(shared: Path) -> None:
    # A hard-linked file is written in place: the space is reserved before a byte changes.
    f = shared / "out.gwy"
    f.write_text("the old record\n", encoding="utf-8")
    os.link(f, shared / "other.gwy")
    r = run(*SIM, "--games", "50", "-o", "out.gwy", "--force", cwd=shared, fsize=20_000)
    line = one_line_error(r)
    assert "file size limit" in line
    assert f.read_text(encoding="utf-8") == "the old record\n"
    assert os.path.samefile(f, shared / "other.gwy")
    assert sorted(p.name for p in shared.iterdir()) == ["other.gwy", "out.gwy"]


def _writing(pid: int, d: Path) -> bool:
    """Whether process ``pid`` has a file of ``d`` open for writing (the new record)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(d) + "/"):
            return True
    return False


def _kill_while_writing(shared: Path, sig: int) -> None:
    f = shared / "out.gwy"
    f.write_text("the old record\n", encoding="utf-8")
    p = subprocess.Popen([sys.executable, "-m", "referee", *SIM, "--games", "200000", "-o", "out.gwy", "--force"],
                         cwd=str(shared), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not _writing(p.pid, shared):
            assert p.poll() is None, "simulate ended before it wrote"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.3)  # well into the games
        p.send_signal(sig)
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode != 0
    assert [x.name for x in shared.iterdir()] == ["out.gwy"]
    assert f.read_text(encoding="utf-8") == "the old record\n"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT], ids=["TERM", "KILL", "INT"])
def test_simulate_killed_half_way_leaves_no_temporary_file(shared: Path, sig: int) -> None:
    _kill_while_writing(shared, sig)


@needs_root
def test_live_keeps_a_symlink_and_refuses_a_record_it_may_not_write(shared: Path) -> None:
    (shared / "game.gwy").write_text("", encoding="utf-8")
    (shared / "link.gwy").symlink_to("game.gwy")
    r = run("live", "link.gwy", "--seats", "North East South West", cwd=shared, input="West A♠\n")
    assert r.returncode == 0, r.stderr
    assert (shared / "link.gwy").is_symlink()
    assert "1. West A♠" in (shared / "game.gwy").read_text(encoding="utf-8")
    before = (shared / "game.gwy").read_text(encoding="utf-8")
    (shared / "game.gwy").chmod(0o644)  # root's, and nobody may not write it
    r = run("live", "link.gwy", cwd=shared, user=NOBODY, input="North J♠\n")
    assert "Traceback" not in r.stderr
    assert "not recorded: cannot write link.gwy" in r.stdout + r.stderr
    assert "may not write" in r.stdout + r.stderr
    assert (shared / "game.gwy").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in shared.iterdir()) == ["game.gwy", "link.gwy"]


@pytest.fixture
def small_disk(shared: Path) -> Iterator[Path]:
    """A 64 KiB file system (tmpfs), to fill up."""
    d = shared / "disk"
    d.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0777", "tmpfs", str(d)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {r.stderr.strip()}")
    try:
        yield d
    finally:
        subprocess.run(["umount", str(d)], check=False)


@needs_root
@pytest.mark.parametrize("linked", [False, True], ids=["renamed", "in-place"])
def test_a_full_disk_is_a_one_line_error_and_the_original_is_untouched(small_disk: Path, linked: bool) -> None:
    f = small_disk / "out.gwy"
    f.write_text("the old record\n", encoding="utf-8")
    if linked:
        os.link(f, small_disk / "other.gwy")
    r = run(*SIM, "--games", "300", "-o", "out.gwy", "--force", cwd=small_disk)
    line = one_line_error(r)
    assert "out.gwy" in line and "no space left" in line
    assert f.read_text(encoding="utf-8") == "the old record\n"
    assert sorted(p.name for p in small_disk.iterdir()) == (["other.gwy", "out.gwy"] if linked else ["out.gwy"])


def test_fmt_write_goes_through_the_careful_writer(tmp_path: Path) -> None:
    """fmt --write keeps a symlink a symlink and a hard link one file under both names."""
    from conftest import RECORDS, run_cli

    canonical = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    real = tmp_path / "real.gwy"
    real.write_text(canonical.replace("West A♠, North J♠", "West AS, North JS"), encoding="utf-8")
    link = tmp_path / "link.gwy"
    link.symlink_to(real)
    hard = tmp_path / "hard.gwy"
    os.link(real, hard)
    r = run_cli("fmt", "--write", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and real.read_text(encoding="utf-8") == canonical
    assert os.path.samefile(real, hard)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.gwy", "link.gwy", "real.gwy"]


def _fill(d: Path) -> None:
    """Fill the file system of ``d`` to the last byte."""
    fd = os.open(d / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    try:
        while True:
            os.write(fd, b"\0")
    except OSError:
        pass
    finally:
        os.close(fd)


@needs_root
def test_live_on_a_full_disk_says_cannot_write_once_and_exits_1(small_disk: Path) -> None:
    r = run("live", "game.gwy", "--seats", "North East South West", cwd=small_disk, input="West A♠\n")
    assert r.returncode == 0, r.stderr
    before = (small_disk / "game.gwy").read_text(encoding="utf-8")
    _fill(small_disk)
    r = run("live", "game.gwy", cwd=small_disk, input="North J♠\n")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    said = [line for line in (r.stdout + r.stderr).splitlines() if "cannot write" in line]
    assert len(said) == 1 and said[0].count("cannot write") == 1 and "no space left" in said[0], said
    assert said[0].startswith("not recorded: cannot write game.gwy")
    assert (small_disk / "game.gwy").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "game.gwy"]


@needs_root
def test_html_on_a_full_disk_says_cannot_write_once(small_disk: Path) -> None:
    from conftest import RECORDS

    (small_disk / "rec.gwy").write_bytes((RECORDS / "pagat-example.gwy").read_bytes())
    _fill(small_disk)
    line = one_line_error(run("html", "rec.gwy", "-o", "page.html", cwd=small_disk))
    assert line.count("cannot write") == 1 and "page.html" in line and "no space left" in line
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "rec.gwy"]


@needs_root
def test_live_with_no_file_name_where_it_may_not_write_names_the_directory(shared: Path) -> None:
    d = shared / "roots"
    d.mkdir()
    d.chmod(0o755)  # root's: nobody may not make a file here
    r = run("live", cwd=d, user=NOBODY, input="West A♠\n")
    line = one_line_error(r)
    assert "None" not in line
    assert line.startswith("error: cannot make a new record in") and str(d) in line and "permission denied" in line
    assert list(d.iterdir()) == []
