"""Writing a user's file, carefully: the one helper behind ``fmt --write``, ``live FILE``,
``simulate -o`` and ``html -o``.

What the user sees stays as it was, except the text:

- a symlink is followed and kept: the file it points at gets the new text;
- a file with several names (hard links) stays one file under all of them;
- mode, owner and group are kept;
- a file the user may not write is refused (``WriteError``), never replaced through a
  writable directory;
- an output that is another name of an input (a hard link, a symlink, the same path
  spelled otherwise) is refused: same device and inode (:func:`check_distinct`);
- a file that changed on disk after the command read it (size, modification time, and a
  hash where those agree) is not written (``Changed``): someone else's edit is never lost;
- a write that fails (a read-only directory, a full disk, a file size limit) raises
  ``WriteError`` with a one-line message, and the original is untouched;
- a write killed at any point, by any signal, leaves the record whole, old or new.

How: the new text is written in full to a file beside the target that has no name yet
(Linux ``O_TMPFILE``; elsewhere a named temporary file removed on SIGTERM, SIGHUP and
SIGINT), flushed and synced, given the target's mode, owner and group, then linked and
renamed over the target: a rename is all or nothing. Where a rename would change what the
user sees (a hard-linked file; a file whose owner or group we may not give; a directory we
may not write) the file is rewritten in place, which a kill can cut half-way; so first a
journal holding the old text and the new is written and synced (beside the file, else in
the user's state directory, else a private directory under /tmp; with none, the write is
refused), the stopping signals are held while the text is copied in, and the journal is
removed once the copy is synced. A SIGKILL or a power cut mid-copy leaves the journal:
:func:`recover`, run by every command that reads or writes a record (and by the editor
server and the table server when they open one), puts the old text back.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import signal
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import IO, Any

from referee.engine import language as L
from referee.reports.text import safe_path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the journal still restores a cut copy
    fcntl = None  # type: ignore[assignment]
try:
    import resource
except ImportError:  # Windows: no file size limit to ask about
    resource = None  # type: ignore[assignment]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

__all__ = [
    "Beside",
    "Changed",
    "Snapshot",
    "WriteError",
    "changed",
    "check_distinct",
    "io_error",
    "read_snapshot",
    "reason_of",
    "recover",
    "replacing",
    "scratch",
    "snapshot",
    "write_text",
]

_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None)


class WriteError(OSError):
    """A user's file could not be written; the message is one line, and the file is as it was.

    An OSError, so that callers that already report ``OSError.strerror`` report it too."""

    def __init__(self, path: os.PathLike[str] | str, reason: str, code: int = 0, why: str | None = None) -> None:
        super().__init__(code, reason, str(path))
        self.path = str(path)
        self.reason = reason  # in the language chosen, as every sentence of it
        # A write that failed: why, without "cannot write" (live says that in its own sentence).
        self.why = reason if why is None else why

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"

    @property
    def message(self) -> str:
        return str(self)



class Changed(WriteError):
    """The file changed on disk after the command read it (another program or an editor
    wrote it): nothing was written, and what the other program wrote is kept."""

    def __init__(self, path: os.PathLike[str] | str) -> None:
        super().__init__(path, L.gettext("changed on disk since it was read (another program wrote it); "
                                         "not written, so that change is kept"))


# ---- what a file was when it was read -------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """A file as a command read it: its identity, size and modification time, and a hash of
    its bytes (``digest``; None when the command did not read them). ``exists`` False: there
    was no file."""

    exists: bool
    dev: int = 0
    ino: int = 0
    size: int = 0
    mtime_ns: int = 0
    digest: bytes | None = None

    @classmethod
    def of(cls, st: os.stat_result, data: bytes | None) -> Snapshot:
        return cls(True, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, None if data is None else _digest(data))

    def same_stat(self, st: os.stat_result) -> bool:
        return self.exists and (self.dev, self.ino, self.size, self.mtime_ns) == (
            st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


ABSENT = Snapshot(False)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=20).digest()


def _digest_fd(fd: int) -> bytes:
    """The hash of the whole file open on ``fd``, read a block at a time (a file's size is
    not held in memory to hash it)."""
    h = hashlib.blake2b(digest_size=20)
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        h.update(chunk)
    return h.digest()


def _stat_digest(path: os.PathLike[str] | str) -> Snapshot:
    """What the file is now, its bytes hashed as they are read (status taken first, as
    :func:`read_snapshot` does)."""
    fd = os.open(path, os.O_RDONLY | _CLOEXEC)
    try:
        st = os.fstat(fd)
        return Snapshot(True, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, _digest_fd(fd))
    finally:
        os.close(fd)


def _read_fd(fd: int) -> bytes:
    """The whole file open on ``fd``, from its start."""
    parts: list[bytes] = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        parts.append(chunk)
    return b"".join(parts)


def _lock(fd: int, wait: bool = True) -> bool:
    """An exclusive lock on the open file (held until it is closed, or the process dies):
    whether it was had. ``wait`` False: not if another process holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        return False
    return True


def read_snapshot(path: os.PathLike[str] | str) -> tuple[bytes, Snapshot]:
    """The file's bytes and what it was when they were read. The file's status is taken
    before its bytes: a change made while it is read shows later as a change."""
    fd = os.open(path, os.O_RDONLY | _CLOEXEC)
    try:
        st = os.fstat(fd)
        data = _read_fd(fd)
    finally:
        os.close(fd)
    return data, Snapshot.of(st, data)


def snapshot(path: os.PathLike[str] | str, *, read: bool = True) -> Snapshot:
    """What the file is now (``ABSENT`` if there is none); its bytes hashed if ``read``."""
    try:
        if read:
            return _stat_digest(path)
        return Snapshot.of(os.stat(path), None)
    except FileNotFoundError:
        return ABSENT


def changed(path: os.PathLike[str] | str, was: Snapshot) -> bool:
    """Whether the file is no longer what ``was`` saw: created, removed, replaced, or its
    size or modification time differ; where those agree, its bytes are hashed again."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return was.exists
    if not was.same_stat(st):
        return True
    if was.digest is None:
        return False
    try:
        now = _stat_digest(path)
    except FileNotFoundError:
        return True
    return now != was


def _changed_fd(fd: int, was: Snapshot) -> bool:
    """:func:`changed` for the file open on ``fd`` (the one about to be rewritten)."""
    st = os.fstat(fd)
    if not was.same_stat(st):
        return True
    return was.digest is not None and _digest_fd(fd) != was.digest


def check_distinct(path: os.PathLike[str] | str, inputs: Iterable[os.PathLike[str] | str]) -> None:
    """Refuse (``WriteError``) to write ``path`` when it is one of ``inputs`` under another
    name (a hard link, a symlink, the same path spelled otherwise): same device and inode."""
    try:
        st = os.stat(path)
    except OSError:
        return
    for i in inputs:
        try:
            si = os.stat(i)
        except OSError:
            continue
        if (si.st_dev, si.st_ino) == (st.st_dev, st.st_ino):
            raise WriteError(path, L.gettext("is the same file as {other} (another name for it); not written: "
                                             "give the output another name").format(other=i), errno.EEXIST)


_REASONS = {
    errno.ENOSPC: L.N_("no space left on the device"),
    errno.EFBIG: L.N_("the file would exceed the file size limit"),
    errno.EROFS: L.N_("read-only file system"),
    errno.EDQUOT: L.N_("disk quota exceeded"),
    errno.EACCES: L.N_("permission denied"),
    errno.EPERM: L.N_("permission denied"),
    errno.ENOENT: L.N_("no such file"),  # as every command says it (one style, issue 38)
    errno.EISDIR: L.N_("is a directory"),
}


_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)  # a write that did not fit


def _stdout_is_a_file() -> bool:
    try:
        return stat.S_ISREG(os.fstat(sys.stdout.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


def reason_of(e: OSError) -> str:
    """Why a read or a write failed, in a few words (no such file, a full disk, a file size
    limit, ...)."""
    if isinstance(e, WriteError):
        return e.why  # said in our words where it was raised, what became of the file included
    ours = _REASONS.get(e.errno or 0)  # in the language chosen; the system's own words as it says them
    return L.gettext(ours) if ours else (e.strerror or str(e)).lower()


def io_error(e: OSError, path: os.PathLike[str] | str | None = None) -> str:
    """An I/O error as the one line a command prints after ``error: ``: the file (``path``,
    else the one the error names) and the reason in a few words."""
    if isinstance(e, WriteError):
        return e.message
    where = path if path is not None else e.filename
    if where is None and e.errno in _FULL and _stdout_is_a_file():
        where = L.gettext("standard output")  # a write with no file named, and the output goes to a file
    reason = reason_of(e)
    if e.errno == errno.ENOENT and where is None and _size_limited():
        # tempfile's "no usable temporary directory": its trial write met the limit
        reason += " (" + L.gettext("a file size limit, {command}, lets nothing be written there").format(
            command="ulimit -f") + ")"
    return f"{safe_path(os.fsdecode(where))}: {reason}" if where not in (None, "") else reason


def _size_limited() -> bool:
    """Whether a file size limit is set (``ulimit -f``)."""
    if resource is None:
        return False
    try:
        return resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY
    except (OSError, ValueError):
        return False


def scratch(binary: bool = False) -> IO[Any]:
    """A temporary file for a command's own use (output held back until it is whole), never a
    user's file: on disk where the system allows, else in memory (no usable temporary
    directory, or a file size limit (``ulimit -f``), which a file of ours would meet first)."""
    if not _size_limited():
        try:
            if binary:
                return tempfile.TemporaryFile("w+b", dir=_system_tmp())
            return tempfile.TemporaryFile("w+", encoding="utf-8", newline="", dir=_system_tmp())
        except OSError:
            pass
    return io.BytesIO() if binary else io.StringIO(newline="")


def _error(path: str, e: OSError, existed: bool = True) -> WriteError:
    if isinstance(e, WriteError):
        return e if e.path == path else WriteError(path, e.reason, e.errno or 0, e.why)
    why = _unchanged(e, existed)
    return WriteError(path, L.gettext("cannot write: {why}").format(why=why), e.errno or 0, why)


def _unchanged(e: OSError, existed: bool) -> str:
    """Why a write failed, and that the file is as it was (or that nothing was written)."""
    return (L.gettext("{why}; the file is unchanged") if existed else
            L.gettext("{why}; nothing was written")).format(why=reason_of(e))


def not_written(e: OSError, existed: bool = True) -> str:
    """A write that failed, said as every command says it after the file's name: "cannot
    write: {why}; the file is unchanged" (fmt, and every writer through :class:`WriteError`)."""
    return L.gettext("cannot write: {why}").format(why=_unchanged(e, existed))


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _can_give_owner(st: os.stat_result) -> bool:
    """Whether a new file of ours can be given this owner and group (root can give any)."""
    # (a browser's Python, Pyodide, has only the real ids: one user, the same ids)
    uid = (getattr(os, "geteuid", None) or os.getuid)()
    if uid == 0:
        return True
    gid = (getattr(os, "getegid", None) or os.getgid)()
    return st.st_uid == uid and (st.st_gid == gid or st.st_gid in os.getgroups())


def _fsync_dir(d: str) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def _cleanup_on_signals(tmp: str) -> Iterator[None]:
    """Remove a named temporary file if the process is told to stop while writing it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old: dict[int, Callable[[int, FrameType | None], object] | int | signal.Handlers | None] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        signal.signal(signum, old.get(signum, signal.SIG_DFL))
        os.kill(os.getpid(), signum)

    for s in _SIGNALS:
        old[s] = signal.signal(s, handler)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def _open_unnamed(directory: str) -> tuple[int, str | None]:
    """A new file in ``directory``: without a name where the system allows (nothing is left
    if the process dies), else a named temporary file. Returns (fd, name or None)."""
    flag = getattr(os, "O_TMPFILE", 0)
    if flag and os.path.exists("/proc/self/fd"):
        try:
            return os.open(directory, flag | os.O_RDWR, 0o600), None
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                raise
    fd, name = tempfile.mkstemp(prefix=".getaway-ref.", suffix=".tmp", dir=directory)
    return fd, name


# The signals that stop a process and can be held back: held while a file is put in place,
# they are delivered (and stop the process) once it is whole.
_HELD = {s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")) if s is not None}


def _blocked() -> contextlib.AbstractContextManager[None]:
    """Stopping signals held back for the calls that put the new text in place."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def block() -> Iterator[None]:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    return block()


def _no_sigxfsz() -> None:
    """A file size limit (ulimit -f) is an error to report (EFBIG), not a signal that ends
    the process without a word."""
    if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


_LINK_WORKS = True  # linking /proc/self/fd/N fails in some sandboxes: then we copy


def _give_name(fd: int, directory: str, real: str) -> tuple[str, os.stat_result]:
    """A name beside the target for the finished unnamed file ``fd``: a link to it where the
    system allows, else a full copy (with its mode and owner), made while signals wait.
    Returns the name and the status of the file under it."""
    global _LINK_WORKS
    if _LINK_WORKS:
        name = os.path.join(directory, f".{os.path.basename(real)}.{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
        try:
            os.link(f"/proc/self/fd/{fd}", name)
            return name, os.fstat(fd)
        except OSError:
            _LINK_WORKS = False
    st = os.fstat(fd)
    out, name = tempfile.mkstemp(prefix=f".{os.path.basename(real)}.", suffix=".tmp", dir=directory)
    try:
        pos, size = 0, st.st_size
        while pos < size:
            n = os.copy_file_range(fd, out, size - pos, pos, pos) if hasattr(os, "copy_file_range") else 0
            if n <= 0:
                n = os.pwrite(out, os.pread(fd, min(1 << 20, size - pos), pos), pos)
            pos += n
        os.fsync(out)
        os.fchmod(out, stat.S_IMODE(st.st_mode))
        mine = os.fstat(out)
        if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
            os.fchown(out, st.st_uid, st.st_gid)
        mine = os.fstat(out)
    except BaseException:
        os.close(out)
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    os.close(out)
    return name, mine


_LEFTOVER_AGE = 60.0  # seconds: a copy (the fallback of _give_name) older than this was cut short


def remove_leftovers(path: os.PathLike[str] | str) -> list[str]:
    """Remove what a write of ``path`` killed between naming its new text and the rename
    left beside it: ``.NAME.PID.tmp`` (:func:`_give_name`) whose process is gone, and
    ``.NAME.XXXXXXXX.tmp`` (its copying fallback) once older than any write takes. Only
    these names, for this file; returns the paths removed."""
    real = os.path.realpath(path)
    directory, base = os.path.dirname(real) or ".", os.path.basename(real)
    head = f".{base}."
    gone: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return gone
    now = time.time()
    for name in names:
        middle = name[len(head):-len(".tmp")] if name.startswith(head) and name.endswith(".tmp") else ""
        if not middle:
            continue
        leftover = os.path.join(directory, name)
        if middle.isdigit():
            try:
                os.kill(int(middle), 0)
                continue  # its writer still runs (or is another user's): not ours to remove
            except ProcessLookupError:
                pass
            except (PermissionError, OverflowError, ValueError):
                continue
        elif len(middle) == 8 and all(c.isalnum() or c == "_" for c in middle):
            try:
                st = os.lstat(leftover)
            except OSError:
                continue
            if now - st.st_mtime < _LEFTOVER_AGE:
                continue
        else:
            continue
        try:
            if stat.S_ISREG(os.lstat(leftover).st_mode):
                os.unlink(leftover)
                gone.append(leftover)
        except OSError:
            pass
    return gone


@contextlib.contextmanager
def _by_rename(real: str, st: os.stat_result | None, expect: Snapshot, done: list[os.stat_result]) -> Iterator[IO[str]]:
    directory = os.path.dirname(real) or "."
    fd, name = _open_unnamed(directory)
    guard = _cleanup_on_signals(name) if name else contextlib.nullcontext()
    placed = False
    tmp_link: str | None = None
    try:
        with guard:
            f = open(fd, "w", encoding="utf-8", newline="", closefd=False)
            yield f
            f.flush()
            os.fsync(fd)
            if st is not None:
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
                mine = os.fstat(fd)
                if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
                    os.fchown(fd, st.st_uid, st.st_gid)
            else:
                os.fchmod(fd, _umask_mode())
            with _blocked():
                # Checked last, just before the rename: an edit made while the new text
                # was made is kept, and the new text is not written.
                if changed(real, expect):
                    raise Changed(real)
                if name is None:
                    tmp_link, placed_st = _give_name(fd, directory, real)
                    os.replace(tmp_link, real)
                else:
                    os.replace(name, real)
                    placed_st = os.fstat(fd)
                placed = True
            done.append(placed_st)
    finally:
        os.close(fd)
        if not placed:
            for leftover in (tmp_link, name):
                if leftover:
                    with contextlib.suppress(OSError):
                        os.unlink(leftover)
    _fsync_dir(directory)


# ---- in place, with a journal -------------------------------------------------------------------

_JOURNAL = ".getaway-ref-journal"
_PART = ".part"
_MAGIC = b"getaway-ref journal 1\n"


def _state_dir() -> str:
    """Where journals go when the file's directory may not be written: the user's state
    directory ($XDG_STATE_HOME, else ~/.local/state)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "getaway-ref", "journal")


def _uid() -> int:
    """The user the journals belong to (0 where the system has no user ids)."""
    return os.geteuid() if hasattr(os, "geteuid") else 0


def _system_tmp() -> str:
    """The system's temporary directory, found without writing to it: ``tempfile.gettempdir``
    tries a write in each candidate, and under a file size limit (``ulimit -f 0``) every
    write fails, so it raises "no usable temporary directory" before a command could say
    what is wrong in one line."""
    if tempfile.tempdir:
        return tempfile.tempdir
    for name in ("TMPDIR", "TEMP", "TMP"):
        d = os.environ.get(name)
        if d and os.path.isdir(d):
            return d
    return next((d for d in ("/tmp", "/var/tmp", "/usr/tmp") if os.path.isdir(d)), os.getcwd())


def _tmp_dir() -> str:
    return os.path.join(_system_tmp(), f"getaway-ref-{_uid()}")


def _private(d: str, create: bool) -> bool:
    """Whether ``d`` is a directory of this user's alone (made if ``create``): a journal
    holds the user's text and is trusted when read back."""
    if create:
        try:
            os.makedirs(d, mode=0o700, exist_ok=True)
        except OSError:
            return False
    try:
        st = os.lstat(d)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == _uid() and not st.st_mode & 0o022
            and os.access(d, os.W_OK | os.X_OK))


def _places(real: str, st: os.stat_result) -> Iterator[str]:
    """Where a journal for ``real`` may go, best first: beside it, in the user's state
    directory, in a private directory under /tmp."""
    directory = os.path.dirname(real) or "."
    if os.access(directory, os.W_OK | os.X_OK):
        yield os.path.join(directory, f".{os.path.basename(real)}{_JOURNAL}")
    key = f"{st.st_dev}-{st.st_ino}{_JOURNAL}"
    for d in (_state_dir(), _tmp_dir()):
        if _private(d, create=True):
            yield os.path.join(d, key)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _write_journal(real: str, st: os.stat_result, old: bytes, new: bytes) -> tuple[int, str]:
    """The journal of a rewrite in place, whole and synced, under its name (a name it takes
    only once complete) and locked while its writer lives. Returns (fd, name)."""
    header = json.dumps({"path": os.fsencode(real).hex(), "dev": st.st_dev, "ino": st.st_ino,
                         "old": len(old), "new": len(new), "digest": _digest(old + new).hex()})
    tried = []
    for name in _places(real, st):
        part = name + _PART
        try:
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW, 0o600)
        except FileExistsError:
            _drop_part(part)
            try:
                fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW, 0o600)
            except OSError:
                tried.append(os.path.dirname(name))
                continue
        except OSError:
            tried.append(os.path.dirname(name))
            continue
        try:
            _lock(fd)
            _write_all(fd, _MAGIC + header.encode("ascii") + b"\n")
            _write_all(fd, old)
            _write_all(fd, new)
            os.fsync(fd)
            try:
                os.link(part, name)  # never over another journal: that one holds a text too
            except FileExistsError:
                raise WriteError(real, L.gettext("an earlier interrupted rewrite's journal is still in {journal}; "
                                                 "not written (run the command again to restore it)").format(
                    journal=name)) from None
            os.unlink(part)
            _fsync_dir(os.path.dirname(name) or ".")
            return fd, name
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(part)
            raise
    raise WriteError(real, L.gettext("cannot be rewritten in place safely: there is nowhere to keep its text while "
                                     "it is rewritten ({places} may not be written); not written").format(
        places=L.gettext(", ").join(tried) or L.gettext("its directory")), errno.EACCES)


def _drop_journal(fd: int, name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)
    _fsync_dir(os.path.dirname(name) or ".")
    os.close(fd)


def _drop_part(part: str) -> None:
    """A journal cut short by a kill: its rewrite never began (the file is untouched)."""
    try:
        fd = os.open(part, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    except OSError:
        return
    if not _lock(fd, wait=False):
        os.close(fd)
        return  # its writer is at work
    with contextlib.suppress(OSError):
        os.unlink(part)
    os.close(fd)


def _put(fd: int, data: bytes, old_size: int) -> None:
    """Write ``data`` over the file on ``fd`` from its start, cut it to length, sync. The
    space is reserved first where the system can, so a full disk fails before a byte
    changes."""
    size = len(data)
    if size > old_size and hasattr(os, "posix_fallocate"):
        try:
            os.posix_fallocate(fd, 0, size)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, old_size)
            if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise
    view = memoryview(data)
    pos = 0
    while pos < size:
        pos += os.pwrite(fd, view[pos:pos + (1 << 20)], pos)
    os.ftruncate(fd, size)
    os.fsync(fd)


@contextlib.contextmanager
def _in_place(real: str, expect: Snapshot, done: list[os.stat_result]) -> Iterator[IO[str]]:
    """Write the whole text to a temporary copy, then copy it into the target, which keeps
    its inode (hard links, owner, group, mode); a journal makes the copy all or nothing."""
    directory = os.path.dirname(real) or "."
    spool_dir = directory if os.access(directory, os.W_OK | os.X_OK) else None
    try:
        spooled: IO[bytes] = tempfile.TemporaryFile(mode="w+b", dir=spool_dir)
    except OSError:
        # Nowhere to write a spool: the text is held in memory, so that the user learns the
        # real reason (nowhere to keep a journal, below) and not a bare "permission denied".
        spooled = io.BytesIO()
    with spooled as spool:
        f = io.TextIOWrapper(spool, encoding="utf-8", newline="", write_through=True)
        yield f
        f.flush()
        spool.seek(0)
        new = spool.read()
        f.detach()
    fd = os.open(real, os.O_RDWR | _CLOEXEC)
    try:
        _lock(fd)  # one writer of ours at a time; recovery waits for it
        if _changed_fd(fd, expect):
            raise Changed(real)
        st = os.fstat(fd)
        old = _read_fd(fd)
        jfd, journal = _write_journal(real, st, old, new)
        with _blocked():
            try:
                _put(fd, new, len(old))
            except OSError:
                # Put the original back: its bytes fit where they were. If even that
                # fails, the journal stays, and the next run restores it.
                try:
                    _put(fd, old, len(old))
                except OSError:
                    os.close(jfd)
                    raise
                _drop_journal(jfd, journal)
                raise
            _drop_journal(jfd, journal)
        done.append(os.fstat(fd))
    finally:
        os.close(fd)


# ---- recovery -----------------------------------------------------------------------------------


def _read_journal(fd: int) -> tuple[str, int, int, bytes, bytes] | None:
    """(path, dev, ino, old, new) of a whole journal; None if it is not one."""
    data = _read_fd(fd)
    if not data.startswith(_MAGIC):
        return None
    end = data.find(b"\n", len(_MAGIC))
    try:
        head = json.loads(data[len(_MAGIC):end])
        path = os.fsdecode(bytes.fromhex(head["path"]))
        n_old, n_new = int(head["old"]), int(head["new"])
        body = data[end + 1:]
        if end < 0 or len(body) != n_old + n_new or _digest(body).hex() != head["digest"]:
            return None
        return path, int(head["dev"]), int(head["ino"]), body[:n_old], body[n_old:]
    except (ValueError, KeyError, TypeError):
        return None


def _common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    lo, step = 0, 1 << 16
    while lo < n and a[lo:lo + step] == b[lo:lo + step]:
        lo += step
    lo = min(lo, n)
    while lo < n and a[lo] == b[lo]:
        lo += 1
    return lo


def _cut_short(now: bytes, old: bytes, new: bytes) -> bool:
    """Whether ``now`` is what a copy of ``new`` over ``old`` leaves when cut short: the new
    text's beginning, then the old text (and the zeros of the space reserved for the new)."""
    if not len(old) <= len(now) <= max(len(old), len(new)):
        return False
    k = _common_prefix(now, new)
    rest = old[k:] + bytes(max(0, len(now) - max(len(old), k)))
    return now[k:] == rest


def _keep_aside(journal: str, path: str, old: bytes) -> str:
    """The old text as a plain file beside the journal, for the user; its name."""
    base = os.path.join(os.path.dirname(journal), os.path.basename(path) + ".before-interrupted-rewrite")
    for k in range(1000):
        name = base if k == 0 else f"{base}.{k}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o600)
        except FileExistsError:
            continue
        try:
            _write_all(fd, old)
            os.fsync(fd)
        finally:
            os.close(fd)
        return name
    raise FileExistsError(errno.EEXIST, "no free name", base)


def _restore(journal: str) -> str | None:
    """Finish what a rewrite cut short left: the file back as it was before (or as its
    new text, if the copy was complete). A message for the user, or None."""
    try:
        jfd = os.open(journal, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    except OSError:
        return None
    try:
        jst = os.fstat(jfd)
        if jst.st_uid != _uid() or not stat.S_ISREG(jst.st_mode):
            return None  # not this user's: never trusted
        if not _lock(jfd, wait=False):
            return None  # its writer is at work
        got = _read_journal(jfd)
        if got is None:
            return L.gettext("{journal}: not a journal this version can read; left as it is").format(
                journal=safe_path(journal))
        path, dev, ino, old, new = got
        shown = safe_path(path)
        try:
            tfd = os.open(path, os.O_RDWR | _CLOEXEC)
        except OSError:
            tfd = -1
        try:
            tst = os.fstat(tfd) if tfd >= 0 else None
            if tst is not None and (tst.st_dev, tst.st_ino) == (dev, ino):
                if not _lock(tfd, wait=False):
                    return None  # a writer of ours is at it now
                now = _read_fd(tfd)
                if now in (old, new):
                    os.unlink(journal)  # the copy never began, or it was complete
                    return None
                if _cut_short(now, old, new):
                    with _blocked():
                        _put(tfd, old, len(now))
                        os.unlink(journal)
                    _fsync_dir(os.path.dirname(journal) or ".")
                    return L.gettext("{file}: a rewrite cut short had left it half written; restored as it was "
                                     "before").format(file=shown)
            # The file is gone, replaced, or changed since: its old text is the user's to keep.
            kept = _keep_aside(journal, path, old)
            os.unlink(journal)
            return L.gettext("{file}: changed or replaced after a rewrite cut short, so it was left as it is; "
                             "its text before that rewrite is in {kept}").format(file=shown, kept=safe_path(kept))
        finally:
            if tfd >= 0:
                os.close(tfd)
    except OSError as e:
        return L.gettext("{journal}: cannot restore from this journal: {why}").format(
            journal=safe_path(journal), why=(e.strerror or str(e)).lower())
    finally:
        os.close(jfd)


def recover(paths: Iterable[os.PathLike[str] | str] = (), tell: Callable[[str], object] | None = None) -> list[str]:
    """Restore every file whose rewrite in place was cut short (a journal left): those in
    the user's journal directories, and those beside ``paths`` (the files a command is
    about to read or write). Run first by every command that writes a record, and by every
    command that reads one (a reader must not take a half-written record for the user's).
    Each restoration is said in one line (to ``tell``, else standard error), and returned.
    ``-`` (standard input) has no journal."""
    _no_sigxfsz()
    dirs: list[str] = [d for d in (_state_dir(), _tmp_dir()) if _private(d, create=False)]
    seen = set(dirs)
    for p in paths:
        if os.fspath(p) == "-":
            continue
        d = os.path.dirname(os.path.realpath(p)) or "."
        if d not in seen:
            seen.add(d)
            dirs.append(d)
    said: list[str] = []
    for d in dirs:
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            if name.endswith(_JOURNAL + _PART):
                _drop_part(os.path.join(d, name))
            elif name.endswith(_JOURNAL):
                msg = _restore(os.path.join(d, name))
                if msg:
                    said.append(msg)
    for msg in said:  # each said where it was made, in the language chosen; "note:" stays a marker
        (tell or (lambda m: sys.stderr.write(f"note: {m}\n")))(msg)
    return said


# ---- the writer ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _replacing(path: os.PathLike[str] | str, expect: Snapshot | None, inputs: Iterable[os.PathLike[str] | str],
               done: list[os.stat_result]) -> Iterator[IO[str]]:
    _no_sigxfsz()
    shown = str(path)
    real = os.path.realpath(path)
    check_distinct(real, inputs)
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _error(shown, e) from None
    if expect is None:
        # Not read by the caller: the file as it is now, kept unless it changes meanwhile.
        expect = Snapshot.of(st, None) if st is not None else ABSENT
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise WriteError(shown, L.gettext("not a regular file: not written"))
    directory = os.path.dirname(real) or "."
    if st is None:
        if not os.path.isdir(directory):
            raise WriteError(shown, L.gettext("no such directory: {dir}").format(dir=os.path.dirname(shown) or "."))
        in_place = False
    else:
        if not os.access(real, os.W_OK):
            raise WriteError(shown, L.gettext("you may not write this file (permission denied); it is left as it is"),
                             errno.EACCES)
        in_place = (st.st_nlink > 1 or not _can_give_owner(st)
                    or not os.access(directory, os.W_OK | os.X_OK))
    try:
        if in_place:
            recover([real])
            with _in_place(real, expect, done) as f:
                yield f
        else:
            with _by_rename(real, st, expect, done) as f:
                yield f
    except Changed:
        raise Changed(shown) from None
    except OSError as e:
        raise _error(shown, e, existed=st is not None) from None


@contextlib.contextmanager
def replacing(path: os.PathLike[str] | str, *, expect: Snapshot | None = None,
              inputs: Iterable[os.PathLike[str] | str] = ()) -> Iterator[IO[str]]:
    """A text file to write the new content of ``path`` into; the content replaces the
    file's only when the block ends without an exception. ``expect``: the file as the
    caller read it (else as it is when the block begins); if it is no longer that, nothing
    is written (``Changed``). ``inputs``: files the output must not be. Raises WriteError."""
    with _replacing(path, expect, inputs, []) as f:
        yield f


def write_text(path: os.PathLike[str] | str, text: str, *, expect: Snapshot | None = None,
               inputs: Iterable[os.PathLike[str] | str] = ()) -> Snapshot:
    """Replace the text of ``path`` (UTF-8, line endings as given); what the file is now,
    for the next write's ``expect``. Raises WriteError (``Changed`` if it changed)."""
    data = text.encode("utf-8")
    done: list[os.stat_result] = []
    with _replacing(path, expect, inputs, done) as f:
        f.write(text)
    return Snapshot.of(done[0], data) if done else snapshot(path)


class Beside:
    """:func:`replacing` for a writer that decides only at the end whether the new text
    replaces the file (``fmt --write``: not when the record has a syntax error, nor when
    nothing changed): write to ``file``, then ``commit()`` or ``discard()``. The file is
    hashed when this is made, before the writer reads it: a change made by someone else
    meanwhile is found at ``commit()`` (``Changed``) and kept."""

    class _Discard(Exception):
        pass

    def __init__(self, path: str):
        real = os.path.realpath(path)
        self._cm = replacing(path, expect=snapshot(real))
        self.file = self._cm.__enter__()

    def commit(self) -> None:
        self._cm.__exit__(None, None, None)

    def discard(self) -> None:
        self._cm.__exit__(Beside._Discard, Beside._Discard(), None)
