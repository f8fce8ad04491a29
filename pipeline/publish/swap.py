"""The swap: a finished build put in place of the last one with renames only, so that the output folder
names the old build or the new one at every instant, and the report of a failed build beside it.

Reads: the temporary folder of a finished build. Writes: out_dir (by rename), `<out_dir>.failed/`.
Removes only the build's own folders (outdir.discard).
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from . import outdir
from ..core.errors import LawbookError
from ..core.report import BuildLog

if TYPE_CHECKING:
    from collections.abc import Iterator


def write_failed(log: BuildLog, failed_dir: Path) -> None:
    """Writes the report of a failed build to `failed_dir` (report.json, report.txt), replacing the last one."""
    made = outdir.make_temp(failed_dir)
    folder: Path | None = made  # None once it is in place
    try:
        log.write(made)
        outdir.record(made)
        swap(made, failed_dir)
        folder = None
    finally:
        if folder is not None:
            outdir.discard(folder)


def swap(new: Path, target: Path) -> None:
    """Put folder `new` in place of `target` with renames only, so `target` is never half-written.

    Where the system can exchange two names in one step (Linux renameat2), `target` names the
    old or the new build at every instant. Elsewhere two renames, with SIGINT and SIGTERM held
    off between them, and the old build put back if the second fails. The old build is removed
    (outdir.discard: only when it is the build's own, as check_target made sure it was).
    """
    if target.exists() and _exchange(new, target):
        outdir.discard(new, home=target)  # `new` now names the old build
        return
    old = None
    with _signals_held():
        if target.exists():
            old = target.with_name(f"{target.name}.old-{os.getpid()}")
            if os.path.lexists(old) and not outdir.discard(old):
                raise LawbookError("a folder of this name is in the way of the build and was not made by it",
                                   file=outdir.shown(old), fix="move it away and build again")
            os.rename(target, old)
        try:
            os.rename(new, target)
        except BaseException:
            if old is not None:
                os.rename(old, target)
            raise
    if old is not None:
        outdir.discard(old, home=target)


def _exchange(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Exchange the names of folders `a` and `b` atomically; False where the system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EPERM):
        return False  # kernel or file system without exchange: fall back to two renames
    raise OSError(err, os.strerror(err), str(b))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Delay SIGINT and SIGTERM for the duration (they are delivered afterwards)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
