"""The build: a declared chain of stages (core/stage.py), the corpus stages over one CorpusContext,
then the output stages over one Job (outputs/job.py) of the frozen corpus.

Each stage's declaration says what it reads and writes, its lane and the options that leave it out
(tests/test_stages.py holds it to that). Output goes to a fresh folder beside the target (build.tmp-…)
and is swapped in only when every stage succeeded, so a failed or interrupted build leaves the
previous build/ as it was. The target must be the build's own (missing, empty or an earlier build:
see outdir.py), and only folders the build marked as its own are ever deleted.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import pickle
import signal
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from lxml import etree

from . import cache, outdir, reference
from ..core.errors import BuildFailed, LawbookError, write_failure
from ..core.options import Options
from ..core.report import BuildLog
from ..core.stage import FORK, SIDE, Chain, Process, Stage, table
from ..corpus import book
from ..corpus.stages import CORPUS, CorpusContext
from ..outputs import diff, graph, html, keyed, markdown, pdf, serialise
from ..outputs.job import Job
from ..reading.decode import Line
from ..reading.manifest import Source


ReadingCache = cache.ReadingCache


@dataclass
class Build:
    """One build's own state: the corpus context, where it writes, what it may take from the build in
    out_dir (it is the Job's `previous`, see reuse), the processes its stages started, its times.
    The context's store of readings is the build's cache (made here)."""
    context: CorpusContext
    out_dir: Path | None = None
    tmp: Path | None = None  # the folder being written
    cache: ReadingCache | None = None  # what this build takes from earlier builds (see readings)
    recorded: dict[str, str] | None = None  # the previous build's files that may be reused, {path: sha256}
    marker: dict[str, Any] | None = None  # the previous build's marker (their stats too), read with `recorded`
    stamp: dict[str, Any] | None = None  # the previous build's stamp, read when first asked (previous_stamp)
    timings: dict[str, float] = field(default_factory=dict)
    running: dict[str, Process] = field(default_factory=dict)  # stage name -> the process it started

    def __post_init__(self) -> None:
        self.context.store = self.readings()

    # -- what a caller reads of the corpus it built (cli.py, tests, the benchmark) ------------------------
    @property
    def sources_dir(self) -> Path:
        return Path(self.context.sources_dir)

    @property
    def options(self) -> Options:
        return self.context.options

    @property
    def corpus(self) -> etree._Element | None:
        return self.context.corpus

    @property
    def log(self) -> BuildLog:
        return self.context.log

    @property
    def sources(self) -> Sequence[Source]:
        return self.context.sources

    @property
    def lines(self) -> dict[str, list[Line]]:
        return self.context.lines

    @property
    def checked(self) -> book.BookCheck | None:
        return self.context.checked

    def readings(self) -> ReadingCache:
        """This build's cache of readings: the cache_dir option's folder, else the user's cache folder
        (cache.default_folder; never beside the sources folder); force: read none."""
        if self.cache is None:
            folder = cache.default_folder(self.options.cache_dir)
            self.cache = cache.ReadingCache(folder, use=not self.options.force)
        return self.cache

    # -- the previous build, as an output stage sees it (outputs/job.py: PreviousBuild) -------------------
    @property
    def available(self) -> bool:
        return not self.options.force and self.tmp is not None and bool(self.previous_files())

    def reuse(self, edition: str, paths: list[str]) -> bool:
        """For an output stage that renders one edition at a time, before it renders `edition`: when that
        edition is unchanged since the build in out_dir was made, copy its outputs `paths` (relative to
        the build folder, files or folders) from there into tmp and return True; the stage then skips
        it. Returns False (and copies nothing) on a forced build, a changed edition, or a file that is
        missing or not the one the previous build recorded (damaged since)."""
        if self.options.force or self.tmp is None:
            return False
        previous = self.previous_files()
        if not previous:
            return False
        digest = self.digest(edition)
        if digest is None or self.digests().get(edition) != digest:
            return False
        return cache.copy_previous(self.out_dir, self.tmp, paths, previous, self.marker)

    def copy_files(self, paths: list[str]) -> bool:
        """Copy the files `paths` (relative to the build folder) from the build in out_dir into tmp, each
        checked against its record there; False, copying nothing, when one is not what it recorded. The
        caller knows from their keys that they are what it would make (outputs/keyed.py)."""
        if self.options.force or self.tmp is None:
            return False
        previous = self.previous_files()
        if not all(path in previous for path in paths):
            return False
        return cache.copy_previous(self.out_dir, self.tmp, paths, previous, self.marker)

    def keys(self, output: str) -> dict[str, str]:
        """The file keys the build in out_dir recorded for `output` (outputs/keyed.py), when they were made
        by this code with these settings and their file is the one it recorded; else {}."""
        name = f"{keyed.KEYS_DIR}/{output}.json"
        if not self.available or name not in self.previous_files():
            return {}
        if self.previous_stamp().get("outputs") != cache.outputs_version(self.options):
            return {}
        return keyed.read_keys(self.out_dir, output, self.previous_files()[name])

    def digest(self, edition: str) -> str | None:
        """The digest of one edition's content (edition_digest), taken once per build, the first time an
        output stage (or the stamp) asks."""
        readings = self.readings()
        if not readings.editions:
            for el in self.corpus.iterchildren("edition"):
                readings.editions[el.get("id")] = edition_digest(self.context, el.get("id"))
        return readings.editions.get(edition)

    def digests(self) -> dict[str, str]:
        return self.previous_stamp().get("editions", {})

    def previous_stamp(self) -> dict[str, Any]:
        """The stamp of the build in out_dir (cache.read_stamp), read once."""
        if self.stamp is None:
            self.stamp = cache.read_stamp(self.out_dir)
        return self.stamp

    def has(self, path: str) -> bool:
        return (Path(self.out_dir) / path).exists()

    def corpus_file(self) -> Path | None:
        return Path(self.out_dir) / "corpus.xml" if "corpus.xml" in self.previous_files() else None

    def previous_files(self) -> dict[str, str]:
        """The files of the build in out_dir that this build may copy: {path: sha256} as recorded in its
        marker; {} when it has none, or when its stamp or corpus.xml (which the reuse decisions read) is
        not the one it recorded."""
        if self.recorded is None:
            self.marker = outdir.verified_marker(self.out_dir, names=(cache.STAMP, "corpus.xml"))
            self.recorded = self.marker["files"] if self.marker is not None else {}
        return self.recorded

    # -- the processes stages started ----------------------------------------------------------------
    def wait_for(self, name: str) -> None:
        """Wait for the process the stage `name` started (if it started one), and let it go."""
        process = self.running.pop(name, None)
        if process is not None:
            try:
                process.wait()
            finally:
                process.kill()

    def stop_all(self) -> None:
        """Stop every process still running (a stage failed meanwhile) and reap it."""
        while self.running:
            self.running.popitem()[1].kill()


def edition_digest(context: CorpusContext, edition: str) -> str | None:
    """The digest of one edition's content: its corpus subtree, its sources' report entries and the
    code version (and the options that change what the build writes)."""
    files = {s.name for s in context.sources if s.edition == edition}
    for el in context.corpus.iterchildren("edition"):
        if el.get("id") == edition:
            # Only this edition's entries made into dicts: every entry of the book, once per edition, was
            # a tenth of a rebuild's time.
            entries = [asdict(e) for e in context.log.entries if e.file in files]
            return cache.edition_digest(el, entries, context.options)
    return None


def write_report(job: Job) -> None:
    """Reads: job.log. Writes: report.json, report.txt."""
    job.log.write(job.tmp)


def write_stamp(job: Job) -> None:
    """Reads: the input digest taken when the build began (the build is the job's `previous`), the corpus,
    job.log. Writes: .lawbook-stamp.json (see cache.py), only when the build has no errors: the next
    build with the same inputs is skipped (`up_to_date`), and editions whose content is unchanged can
    reuse their outputs (Build.reuse). Outside a build (no Build as job.previous) it writes nothing."""
    build = job.previous
    if job.log.errors or not isinstance(build, Build) or build.readings().inputs is None:
        return
    editions = {el.get("id"): build.digest(el.get("id")) for el in job.corpus.iterchildren("edition")}
    cache.write_stamp(job.tmp, build.readings().inputs, editions, build.options)


def up_to_date(sources_dir: Path | str, out_dir: Path | str, options: Options | dict | None = None) -> bool:
    """True when out_dir holds an error-free build of exactly these sources by this code (and options):
    the build can be skipped. Reads the sources folder and out_dir's stamp only."""
    return cache.up_to_date(sources_dir, out_dir, options)


STAGES = [Stage("write_report", write_report, reads=("log", "tmp"), files=("report.json", "report.txt")),
          Stage("write_stamp", write_stamp, reads=("log", "corpus", "previous", "tmp"), files=(cache.STAMP,))]

# Everything written to build/, in order; each module declares its stages (STAGES), and a new output is
# one more module's STAGES in this list. The PDF's compilers start as soon as the corpus exists and are
# waited for at the end; the other outputs are written meanwhile, the HTML site in a forked process
# beside the rest (its lane, FORK), and pagefind indexes the site in a process of its own while the
# build waits for the PDF. The comparison with a reference (build --reference) and the editions'
# comparisons are made before the site, whose pages show them.
OUTPUTS = (Chain([*pdf.STAGES, *reference.STAGES, *html.STAGES, *serialise.STAGES, *graph.STAGES,
                  *markdown.STAGES, *diff.STAGES, *STAGES])
           .move("compare_editions", before="write_html")
           # After the site's process ended: pagefind beside it held both in memory at once (1.2 GB at 930 × 2).
           .move("start_search_index", after="write_diff")
           .move("finish_pdf", after="write_report")
           .move("finish_search_index", after="finish_pdf"))

# A run of SIDE and FORK stages only reads the finished corpus and writes files of its own, so its stages
# may run at the same time: those in lane FORK run in a child process forked when the build reaches the
# first of them (sharing the corpus, copy on write), writing into the same folder while this process goes
# on with the SIDE stages of the run; the child is joined before the next MAIN stage. The split is
# balanced by the stages' times (docs/performance.md): the site is about as long as the corpus files,
# the graph, the Markdown and the diff together.
# A book of fewer articles (the five sources have ten) is written in one process: its outputs take
# less time than a fork and the child's answer cost.
FORK_ABOVE = 40


def stage_tables() -> str:
    """The corpus stages and the output stages as docs/architecture.md shows them (tests/test_stages.py
    holds the document to this)."""
    return (f"The corpus stages, over the CorpusContext (corpus/stages.py):\n\n{table(CORPUS)}\n\n"
            f"The output stages, over the Job (outputs/job.py):\n\n{table(OUTPUTS)}")


def stages(options: Options | dict | None = None) -> tuple[list[Stage], list[Stage]]:
    """The corpus stages and the output stages the options ask for, in order; with the option no_pdf
    (`build --no-pdf`, a quick preview for editors) without the PDF's (their declarations say so)."""
    options = Options.of(options)
    return CORPUS.wanted(options), OUTPUTS.wanted(options)


def _run_stage(build: Build, stage: Stage, context: CorpusContext | Job) -> None:
    start = time.perf_counter()
    with _writes_named():
        if stage.waits is not None:
            build.wait_for(stage.waits)
        else:
            made = stage.run(context)
            if isinstance(made, Process):  # the build owns it from here: waits for it or stops it
                build.running[stage.name] = made
    build.timings[stage.name] = time.perf_counter() - start


# The file this process last opened for writing: a full disk or the file-size limit (EFBIG) stops a
# write with an OSError that names no file, and the message must say which (docs/errors.md, "Writing").
last_written = {"path": None}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR


def _note_write(event: str, args: tuple) -> None:
    """Audit hook: remember the path of every open for writing (open(), Path.write_text, os.open …)."""
    if event == "open" and args[2] & _WRITE_FLAGS and isinstance(args[0], (str, bytes, os.PathLike)):
        last_written["path"] = os.fsdecode(args[0])


def _watch_writes() -> None:
    """Install _note_write once per process (an audit hook cannot be removed; it costs a comparison)."""
    if not last_written.get("watching"):
        sys.addaudithook(_note_write)
        last_written["watching"] = True


@contextlib.contextmanager
def _writes_named():
    """An OSError of a full disk, a quota or the file-size limit becomes one LawbookError naming the
    file being written: the error's own file name, else the file last opened for writing."""
    try:
        yield
    except OSError as e:
        failure = write_failure(e.errno, e.filename or last_written["path"] or "the build's folder")
        if failure is None:
            raise
        raise failure from None


def _run_outputs(build: Build, job: Job, plan: list[Stage]) -> None:
    """Run `plan` in order; a run of SIDE and FORK stages starting with a FORK one is split between a
    forked child (the FORK stages) and this process (the rest). Stops before the next stage once the
    build has errors (an output stage may find some: text the PDF cannot set). Every process a stage
    started is waited for at the stage that waits for it, else at the end."""
    i = 0
    while i < len(plan):
        stage = plan[i]
        if job.log.errors:
            return  # no output from a corpus with errors
        if stage.lane != FORK or not _can_fork(job):
            _run_stage(build, stage, job)
            i += 1
            continue
        end = i
        while end < len(plan) and plan[end].lane in (SIDE, FORK):
            end += 1
        group = plan[i:end]
        lane = _Lane(build, job, [s for s in group if s.lane == FORK])
        try:
            for other in group:
                if other.lane != FORK:
                    _run_stage(build, other, job)
            lane.join()
        finally:
            lane.kill()
        i = end
    for name in list(build.running):  # started, and no stage of this plan waits for it
        build.wait_for(name)


def _can_fork(job: Job) -> bool:
    # One core gains nothing from a second process; LAWBOOK_NO_FORK=1 runs every stage in this one.
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or os.environ.get("LAWBOOK_NO_FORK"):
        return False
    return sum(1 for _ in job.corpus.iter("article")) > FORK_ABOVE


class _Lane:
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
        self.pid = os.fork()
        if self.pid == 0:  # the child
            os.close(read)
            _die_with_parent()
            result = {"timings": {}, "entries": [], "error": None}
            try:
                for stage in lane:
                    start = time.perf_counter()
                    with _writes_named():
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
        self.read = read

    def join(self) -> None:
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
        result = pickle.loads(data)
        self.build.timings.update(result["timings"])
        self.log.entries.extend(result["entries"])
        error = result["error"]
        if error and error[0] == "lawbook":
            _, message, file, line, fix, status, paged = error
            raise LawbookError(message, file=file, line=line, fix=fix, status=status, paged=paged)
        if error:
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

    def __init__(self, message, trace):
        super().__init__(message)
        self.trace = trace


def _die_with_parent():
    """Ask Linux to kill this process when the build's process ends, even by SIGKILL."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def make_corpus(sources_dir: Path | str, options: Options | dict | None = None) -> CorpusContext:
    """The corpus stages only (no output), with this project's cache of readings: for `show`, `check`,
    `diff` and tests. An output stage takes the corpus it made as Job.of(context, folder)."""
    context = Build(CorpusContext(Path(sources_dir), Options.of(options))).context
    for stage in CORPUS.wanted(context.options):
        stage.run(context)
    return context


def build(sources_dir: Path | str, out_dir: Path | str, options: Options | dict | None = None,
          compiles: Callable[[list[Any]], Any] | None = None) -> Build:
    """Run every stage into a fresh folder beside `out_dir` and swap it in only when every stage
    succeeded and the build found no errors. Returns the Build (its corpus, report and times).

    Refuses (LawbookError, status 2, before anything is read or written) an `out_dir` that is not the
    build's own, see outdir.check_target, and a `<out_dir>.failed` that is not.
    Guarantees: `out_dir` is either the previous build, exactly as it was, or the complete new one,
    with the previous folder's permission bits (a new folder: 0777 less the umask).
    When the build finds errors (report entries of kind error or conflict) no output stage runs
    after it and BuildFailed is raised; the failed build's report is written to `<out_dir>.failed/`
    (replaced each time, removed by the next good build). Any other exception or an interrupt
    leaves `out_dir` alone too, and stops every process a stage started. The temporary folder is
    always removed; folders left by a build that was killed are removed by the next one.
    `compiles`: what compiles the PDF's books (pdf.Compiles when None); watch mode passes its warm compilers.
    """
    out_dir = outdir.check_target(out_dir, sources_dir)
    failed_dir = out_dir.with_name(out_dir.name + ".failed")
    outdir.check_replaceable(failed_dir, why="a failed build writes its report there, replacing the folder")
    mode = outdir.folder_mode(out_dir)
    run = Build(CorpusContext(Path(sources_dir), Options.of(options)), out_dir=out_dir)
    # Taken before any source is read: a source changed during the build makes the stamp stale, never wrong.
    run.readings().inputs = cache.input_digest(run.sources_dir, run.options)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    outdir.clear_leftovers(out_dir)
    run.tmp = outdir.make_temp(out_dir)
    _watch_writes()
    try:
        try:
            with _writes_named():
                corpus_plan, output_plan = stages(run.options)
                for stage in corpus_plan:
                    _run_stage(run, stage, run.context)
                if not run.log.errors:
                    job = Job(run.context.frozen(), run.tmp, previous=run, compiles=compiles)
                    _run_outputs(run, job, output_plan)
        except LawbookError as e:
            if e.status == 1 and run.log.entries:  # e.g. a schema failure: the report shows what led to it
                _write_failed(run.log, failed_dir)
            raise
        with _writes_named():
            if run.log.errors:
                _write_failed(run.log, failed_dir)
                raise BuildFailed(run.log.errors, _shown(failed_dir / "report.txt"), out_dir.name, run.log.paged())
            files = outdir.record(run.tmp)
            changed = outdir.changed_since_linked(files, run.tmp, out_dir, run.recorded)
            if changed:
                raise LawbookError(f"{len(changed)} file(s) of the last build changed while this build took them "
                                   f"from it, first {changed[0]}", file=_shown(out_dir / changed[0]), status=1,
                                   fix="build again (the last build, as it now is, was left in place)")
            if mode is not None:
                os.chmod(run.tmp, mode)
            _swap(run.tmp, out_dir)
        run.tmp = None
        outdir.restat(out_dir)  # the files linked from the build just removed (cache.copy_previous)
        outdir.discard(failed_dir)
    finally:
        run.stop_all()  # a stage failed while processes ran: stop them before cleaning up
        if run.tmp is not None:
            outdir.discard(run.tmp)
    return run


_shown = outdir.shown


def _write_failed(log: BuildLog, failed_dir: Path) -> None:
    """Writes the report of a failed build to `failed_dir` (report.json, report.txt), replacing the last one."""
    folder = outdir.make_temp(failed_dir)
    try:
        log.write(folder)
        outdir.record(folder)
        _swap(folder, failed_dir)
        folder = None
    finally:
        if folder is not None:
            outdir.discard(folder)


def _swap(new, target):
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
                                   file=_shown(old), fix="move it away and build again")
            os.rename(target, old)
        try:
            os.rename(new, target)
        except BaseException:
            if old is not None:
                os.rename(old, target)
            raise
    if old is not None:
        outdir.discard(old, home=target)


def _exchange(a, b):
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
def _signals_held():
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
