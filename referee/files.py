"""Writing a user's file, carefully: the one helper behind ``fmt --write``, ``live FILE`` and
``simulate -o``.

What the user sees stays as it was, except the text:

- a symlink is followed and kept: the file it points at gets the new text;
- a file with several names (hard links) stays one file under all of them;
- mode, owner and group are kept;
- a file the user may not write is refused (``WriteError``), never replaced through a
  writable directory;
- a write that fails (a read-only directory, a full disk, a file size limit) raises
  ``WriteError`` with a one-line message, and the original is untouched;
- a write killed half-way leaves no temporary file behind.

How: the new text is written in full to a file beside the target that has no name yet
(Linux ``O_TMPFILE``; elsewhere a named temporary file removed on SIGTERM, SIGHUP and
SIGINT), flushed and synced, given the target's mode, owner and group, then linked and
renamed over the target. Where a rename would change what the user sees (a hard-linked
file; a file whose owner or group we may not give; a directory we may not write) the text
is first written in full to a temporary copy and the space for it reserved in the target,
and only then copied into the target in place.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import IO

__all__ = ["WriteError", "replacing", "write_text"]

_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None)


class WriteError(OSError):
    """A user's file could not be written; the message is one line, and the file is as it was.

    An OSError, so that callers that already report ``OSError.strerror`` report it too."""

    def __init__(self, path: os.PathLike[str] | str, reason: str, code: int = 0) -> None:
        super().__init__(code, reason, str(path))
        self.path = str(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"

    @property
    def message(self) -> str:
        return str(self)


_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EFBIG: "the file would exceed the file size limit",
    errno.EROFS: "read-only file system",
    errno.EDQUOT: "disk quota exceeded",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def _error(path: str, e: OSError) -> WriteError:
    if isinstance(e, WriteError):
        return e
    why = _REASONS.get(e.errno or 0) or (e.strerror or str(e)).lower()
    return WriteError(path, f"cannot write: {why}; the file is unchanged", e.errno or 0)


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _can_give_owner(st: os.stat_result) -> bool:
    """Whether a new file of ours can be given this owner and group (root can give any)."""
    if os.geteuid() == 0:
        return True
    return st.st_uid == os.geteuid() and (st.st_gid == os.getegid() or st.st_gid in os.getgroups())


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


def _blocked() -> contextlib.AbstractContextManager[None]:
    """Stopping signals held back for the few calls that put the new file in place."""
    if threading.current_thread() is not threading.main_thread():
        return contextlib.nullcontext()
    sigs = {signal.SIGINT, *_SIGNALS}

    @contextlib.contextmanager
    def block() -> Iterator[None]:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    return block()


_LINK_WORKS = True  # linking /proc/self/fd/N fails in some sandboxes: then we copy


def _give_name(fd: int, directory: str, real: str) -> str:
    """A name beside the target for the finished unnamed file ``fd``: a link to it where the
    system allows, else a full copy (with its mode and owner), made while signals wait."""
    global _LINK_WORKS
    if _LINK_WORKS:
        name = os.path.join(directory, f".{os.path.basename(real)}.{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
        try:
            os.link(f"/proc/self/fd/{fd}", name)
            return name
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
    except BaseException:
        os.close(out)
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    os.close(out)
    return name


@contextlib.contextmanager
def _by_rename(real: str, st: os.stat_result | None) -> Iterator[IO[str]]:
    directory = os.path.dirname(real) or "."
    fd, name = _open_unnamed(directory)
    guard = _cleanup_on_signals(name) if name else contextlib.nullcontext()
    placed = False
    tmp_link: str | None = None
    try:
        with guard:
            f = io.open(fd, "w", encoding="utf-8", newline="", closefd=False)
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
                if name is None:
                    tmp_link = _give_name(fd, directory, real)
                    os.replace(tmp_link, real)
                else:
                    os.replace(name, real)
                placed = True
    finally:
        os.close(fd)
        if not placed:
            for leftover in (tmp_link, name):
                if leftover:
                    with contextlib.suppress(OSError):
                        os.unlink(leftover)
    _fsync_dir(directory)


@contextlib.contextmanager
def _in_place(real: str, st: os.stat_result) -> Iterator[IO[str]]:
    """Write the whole text to a temporary copy, reserve its space in the target, then copy
    it in: the target keeps its inode (hard links, owner, group, mode)."""
    directory = os.path.dirname(real) or "."
    spool_dir = directory if os.access(directory, os.W_OK | os.X_OK) else None
    with tempfile.TemporaryFile(mode="w+b", dir=spool_dir) as spool:
        f = io.TextIOWrapper(spool, encoding="utf-8", newline="", write_through=True)
        yield f
        f.flush()
        size = spool.seek(0, io.SEEK_END)
        fd = os.open(real, os.O_RDWR)
        try:
            old_size = os.fstat(fd).st_size
            old = os.pread(fd, old_size, 0) if old_size else b""
            if size > old_size and hasattr(os, "posix_fallocate"):
                try:
                    os.posix_fallocate(fd, 0, size)
                except OSError as e:
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, old_size)
                    if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                        raise
            try:
                spool.seek(0)
                pos = 0
                while chunk := spool.read(1 << 20):
                    os.pwrite(fd, chunk, pos)
                    pos += len(chunk)
                os.ftruncate(fd, size)
                os.fsync(fd)
            except OSError:
                # Put the original back: its bytes fit where they were.
                with contextlib.suppress(OSError):
                    os.pwrite(fd, old, 0)
                    os.ftruncate(fd, old_size)
                raise
        finally:
            os.close(fd)
        f.detach()


@contextlib.contextmanager
def replacing(path: os.PathLike[str] | str) -> Iterator[IO[str]]:
    """A text file to write the new content of ``path`` into; the content replaces the
    file's only when the block ends without an exception. Raises WriteError."""
    shown = str(path)
    real = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _error(shown, e) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise WriteError(shown, "not a regular file: not written")
    directory = os.path.dirname(real) or "."
    if st is None:
        if not os.path.isdir(directory):
            raise WriteError(shown, f"no such directory: {os.path.dirname(shown) or '.'}")
        in_place = False
    else:
        if not os.access(real, os.W_OK):
            raise WriteError(shown, "you may not write this file (permission denied); it is left as it is", errno.EACCES)
        in_place = (st.st_nlink > 1 or not _can_give_owner(st)
                    or not os.access(directory, os.W_OK | os.X_OK))
    try:
        if in_place:
            assert st is not None
            with _in_place(real, st) as f:
                yield f
        else:
            with _by_rename(real, st) as f:
                yield f
    except OSError as e:
        raise _error(shown, e) from None


def write_text(path: os.PathLike[str] | str, text: str) -> None:
    """Replace the text of ``path`` (UTF-8, line endings as given). Raises WriteError."""
    with replacing(path) as f:
        f.write(text)


class Beside:
    """:func:`replacing` for a writer that decides only at the end whether the new text
    replaces the file (``fmt --write``: not when the record has a syntax error, nor when
    nothing changed): write to ``file``, then ``commit()`` or ``discard()``."""

    class _Discard(Exception):
        pass

    def __init__(self, path: str):
        self._cm = replacing(path)
        self.file = self._cm.__enter__()

    def commit(self) -> None:
        self._cm.__exit__(None, None, None)

    def discard(self) -> None:
        self._cm.__exit__(Beside._Discard, Beside._Discard(), None)
