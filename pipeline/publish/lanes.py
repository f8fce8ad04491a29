"""The lanes of the output stages: each stage run and timed in this process, or a run of them in a forked
child beside it, and a write that fails for want of room named by its file.

Reads: the plan of output stages (run.py) and the Job. Writes: what the stages write, into the build's
temporary folder; the child's times, report entries and error come back through a pipe.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import signal
import sys
import time
import traceback
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from ..core.errors import LawbookError, write_failure
from ..core.stage import FORK, SIDE, Process, Stage
from ..corpus.stages import CorpusContext
from ..outputs.job import Job
from .state import Build

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..core.report import Entry

# A run of SIDE and FORK stages only reads the finished corpus and writes files of its own, so its stages
# may run at the same time: those in lane FORK run in a child process forked when the build reaches the
# first of them (sharing the corpus, copy on write), writing into the same folder while this process goes
# on with the SIDE stages of the run; the child is joined before the next MAIN stage. The split is
# balanced by the stages' times (docs/performance.md): the site is about as long as the corpus files,
# the graph, the Markdown and the diff together.
# A book of fewer articles (the five sources have ten) is written in one process: its outputs take
# less time than a fork and the child's answer cost.
FORK_ABOVE = 40


def run_stage(build: Build, stage: Stage, context: CorpusContext | Job) -> None:
    start = time.perf_counter()
    with writes_named():
        if stage.waits is not None:
            build.wait_for(stage.waits)
        else:
            assert stage.run is not None  # Stage: a stage has a function or waits for another's process
            made = stage.run(context)
            if isinstance(made, Process):  # the build owns it from here: waits for it or stops it
                build.running[stage.name] = made
    build.timings[stage.name] = time.perf_counter() - start


class Written(TypedDict):
    path: str | None  # the file last opened for writing
    watching: NotRequired[bool]  # _note_write is installed in this process


# The file this process last opened for writing: a full disk or the file-size limit (EFBIG) stops a
# write with an OSError that names no file, and the message must say which (docs/errors.md, "Writing").
last_written: Written = {"path": None}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR


def _note_write(event: str, args: tuple[Any, ...]) -> None:
    """Audit hook: remember the path of every open for writing (open(), Path.write_text, os.open …)."""
    if event == "open" and args[2] & _WRITE_FLAGS and isinstance(args[0], (str, bytes, os.PathLike)):
        last_written["path"] = os.fsdecode(args[0])


def watch_writes() -> None:
    """Install _note_write once per process (an audit hook cannot be removed; it costs a comparison)."""
    if not last_written.get("watching"):
        sys.addaudithook(_note_write)
        last_written["watching"] = True


@contextlib.contextmanager
def writes_named() -> Iterator[None]:
    """An OSError of a full disk, a quota or the file-size limit becomes one LawbookError naming the
    file being written: the error's own file name, else the file last opened for writing."""
    try:
        yield
    except OSError as e:
        failure = write_failure(e.errno, e.filename or last_written["path"] or "the build's folder")
        if failure is None:
            raise
        raise failure from None


def run_outputs(build: Build, job: Job, plan: list[Stage]) -> None:
    """Run `plan` in order; a run of SIDE and FORK stages starting with a FORK one is split between a
    forked child (the FORK stages) and this process (the rest). Stops before the next stage once the
    build has errors (an output stage may find some: text the PDF cannot set). Every process a stage
    started is waited for at the stage that waits for it, else at the end."""
    i = 0
    while i < len(plan):
        stage = plan[i]
        if job.log.errors:
            return  # no output from a corpus with errors
        if stage.lane != FORK or not can_fork(job):
            run_stage(build, stage, job)
            i += 1
            continue
        end = i
        while end < len(plan) and plan[end].lane in (SIDE, FORK):
            end += 1
        group = plan[i:end]
        lane = Lane(build, job, [s for s in group if s.lane == FORK])
        try:
            for other in group:
                if other.lane != FORK:
                    run_stage(build, other, job)
            lane.join()
        finally:
            lane.kill()
        i = end
    for name in list(build.running):  # started, and no stage of this plan waits for it
        build.wait_for(name)


def can_fork(job: Job) -> bool:
    # One core gains nothing from a second process; LAWBOOK_NO_FORK=1 runs every stage in this one.
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or os.environ.get("LAWBOOK_NO_FORK"):
        return False
    return sum(1 for _ in job.corpus.iter("article")) > FORK_ABOVE


# What the child sends back (pickled) through its pipe: its stages' times, the report entries they added,
# and the error that stopped it: a LawbookError's fields, or another exception's kind, message and traceback.
LawbookFailure = tuple[Literal["lawbook"], str, str | os.PathLike[str] | None, int | None, str | None, int, bool]
OtherFailure = tuple[Literal["other"], str, str, str]


class Result(TypedDict):
    timings: dict[str, float]
    entries: list[Entry]
    error: LawbookFailure | OtherFailure | None


class Lane:
    """Output stages run in a forked child that shares the finished corpus (copy on write) and writes
    into the same temporary folder. The child sends back, pickled through a pipe, its stages' times,
    the report entries they added and the error that stopped it; join() takes them over, raising the
    child's LawbookError as it was (file, line, fix). The child dies with the build (PR_SET_PDEATHSIG)
    and never returns into the build's code: it ends with os._exit."""

    def __init__(self, build: Build, job: Job, lane: list[Stage]) -> None:
        self.build = build
        self.log = job.log
        self.entries = len(job.log.entries)
        self.names = [stage.name for stage in lane]
        read, write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid: int | None = os.fork()
        if self.pid == 0:  # the child
            os.close(read)
            _die_with_parent()
            result: Result = {"timings": {}, "entries": [], "error": None}
            try:
                for stage in lane:
                    start = time.perf_counter()
                    with writes_named():
                        assert stage.run is not None  # a stage without one waits for a process: never a FORK one
                        stage.run(job)
                    result["timings"][stage.name] = time.perf_counter() - start
            except LawbookError as e:
                result["error"] = ("lawbook", e.message, e.file, e.line, e.fix, e.status, e.paged)
            except BaseException as e:  # a bug, an interrupt, no memory: the build raises it as it is
                result["error"] = ("other", type(e).__name__, str(e), traceback.format_exc())
            try:
                result["entries"] = job.log.entries[self.entries:]
                with os.fdopen(write, "wb") as f:
                    pickle.dump(result, f)
            finally:
                os._exit(0)
        os.close(write)
        self.read: int | None = read

    def join(self) -> None:
        assert self.read is not None and self.pid is not None  # joined once, before kill()
        with os.fdopen(self.read, "rb") as f:
            data = f.read()
        self.read = None
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if not data:
            cause = (signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status)
                     else f"exit status {os.WEXITSTATUS(status)}")
            raise LawbookError(f"the process writing {', '.join(self.names)} was stopped by {cause} (out of memory?)",
                               file="build/", status=1, fix="build again; with little memory, build with LAWBOOK_NO_FORK=1")
        result: Result = pickle.loads(data)
        self.build.timings.update(result["timings"])
        self.log.entries.extend(result["entries"])
        error = result["error"]
        if error and error[0] == "lawbook":
            _, message, file, line, fix, status, paged = error
            raise LawbookError(message, file=file, line=line, fix=fix, status=status, paged=paged)
        if error and error[0] == "other":
            _, kind, message, trace = error
            if kind == "KeyboardInterrupt":
                raise KeyboardInterrupt
            raise ChildError(f"{kind}: {message}", trace)

    def kill(self) -> None:
        """Stop the child if it still runs (the build failed or was interrupted) and wait for it."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None
        if self.read is not None:
            os.close(self.read)
            self.read = None


class ChildError(RuntimeError):
    """A bug in an output stage that ran in a forked child; the child's traceback is kept (--debug)."""

    def __init__(self, message: str, trace: str) -> None:
        super().__init__(message)
        self.trace = trace


def _die_with_parent() -> None:
    """Ask Linux to kill this process when the build's process ends, even by SIGKILL."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
