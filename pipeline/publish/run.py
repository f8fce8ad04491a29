"""The build: an ordered list of small stages over one shared BuildContext.

Each stage's docstring says what it reads and writes. Output goes to a fresh
folder beside the target (build.tmp-…) and is swapped in only when every stage
succeeded, so a failed or interrupted build leaves the previous build/ as it was.
The target must be the build's own (missing, empty or an earlier build: see
outdir.py), and only folders the build marked as its own are ever deleted.
"""
import contextlib
import ctypes
import errno
import os
import pickle
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from . import cache, outdir, reference
from ..core.errors import BuildFailed, LawbookError, write_failure
from ..core.memory import collector_paused
from ..core.options import Options
from ..corpus.stages import CORPUS_STAGES, CorpusContext, log_entries
from ..outputs import diff, graph, html, markdown, pdf, serialise
from ..outputs.job import NoPrevious


@dataclass
class BuildContext(CorpusContext):
    """The corpus stages' context, and what the build adds: where it writes, what it may reuse.
    An output stage sees it as its Job (outputs/job.py): it has every field a Job has."""
    out_dir: Path = None
    tmp: Path = None  # the folder being written
    json: dict = None
    timings: dict = field(default_factory=dict)
    search_index: object = None  # the pagefind process, while it indexes beside the other outputs
    cache: object = None  # cache.ReadingCache: what this build takes from earlier builds (see _cache)
    recorded: dict = None  # the previous build's files that may be reused, {path: sha256} (see _previous)
    previous: object = field(default_factory=NoPrevious)  # Previous(ctx) once the build runs
    pdf_compiles: object = None  # pdf.Compiles: the PDF's compiler processes, from start_pdf to finish_pdf
    comparisons: dict = None  # (old, new) -> the editions' comparison, made once for the diff and the site


class Previous:
    """What the outputs of this build may take from the build in ctx.out_dir (see reuse_edition)."""

    def __init__(self, ctx):
        self.ctx = ctx

    @property
    def available(self):
        return not self.ctx.options.force and self.ctx.tmp is not None and bool(_previous(self.ctx))

    def reuse(self, edition, paths):
        return reuse_edition(self.ctx, edition, paths)

    def digest(self, edition):
        return edition_digest(self.ctx, edition)

    def digests(self):
        return cache.read_stamp(self.ctx.out_dir).get("editions", {})

    def has(self, path):
        return (Path(self.ctx.out_dir) / path).exists()

    def corpus_file(self):
        return Path(self.ctx.out_dir) / "corpus.xml" if "corpus.xml" in _previous(self.ctx) else None


def _cache(ctx):
    """This build's cache of readings, in the project: beside the sources folder (options: cache_dir;
    force: read none)."""
    if ctx.cache is None:
        folder = ctx.options.cache_dir or ctx.sources_dir.resolve().parent / cache.CACHE_DIR
        ctx.cache = cache.ReadingCache(folder, use=not ctx.options.force)
    return ctx.cache


def write_corpus(ctx):
    """Reads: ctx.corpus. Writes: corpus.xml, corpus.json (both schema-validated)."""
    errors = serialise.validate_xml(ctx.corpus)
    ctx.json = serialise.to_json(ctx.corpus)
    errors += serialise.validate_json(ctx.json)
    if errors:
        raise LawbookError("the corpus does not validate against its schema: " + "; ".join(errors[:5]),
                           file="schema/", fix="this is a bug in the pipeline; run with --debug and report it",
                           status=1)
    (ctx.tmp / "corpus.xml").write_bytes(serialise.to_xml(ctx.corpus))
    (ctx.tmp / "corpus.json").write_text(serialise.dump_json(ctx.json), encoding="utf-8")


def write_report(ctx):
    """Reads: ctx.log. Writes: report.json, report.txt."""
    ctx.log.write(ctx.tmp)


def edition_digest(ctx, edition):
    """The digest of one edition's content: its corpus subtree, its sources' report entries and the
    code version. Taken once per build, the first time an output stage (or the stamp) asks."""
    readings = _cache(ctx)
    if not readings.editions:
        files = {}
        for source in ctx.sources:
            files.setdefault(source.edition, set()).add(source.name)
        entries = log_entries(ctx.log)
        for el in ctx.corpus.iterchildren("edition"):
            readings.editions[el.get("id")] = cache.edition_digest(
                el, [e for e in entries if e["file"] in files.get(el.get("id"), ())], ctx.options)
    return readings.editions.get(edition)


def _previous(ctx):
    """The files of the build in ctx.out_dir that this build may copy: {path: sha256} as recorded in its
    marker; {} when it has none, or when its stamp or corpus.xml (which the reuse decisions read) is
    not the one it recorded."""
    if ctx.recorded is None:
        ctx.recorded = outdir.verified_files(ctx.out_dir, names=(cache.STAMP, "corpus.xml"))
    return ctx.recorded


def reuse_edition(ctx, edition, paths):
    """For an output stage that renders one edition at a time, before it renders `edition`: when that
    edition is unchanged since the build in ctx.out_dir was made, copy its outputs `paths` (relative to
    the build folder, files or folders) from there into ctx.tmp and return True; the stage then skips
    it. Returns False (and copies nothing) on a forced build, a changed edition, or a file that is
    missing or not the one the previous build recorded (damaged since)."""
    if ctx.options.force or ctx.tmp is None:
        return False
    previous = _previous(ctx)
    if not previous:
        return False
    digest = edition_digest(ctx, edition)
    if digest is None or cache.read_stamp(ctx.out_dir).get("editions", {}).get(edition) != digest:
        return False
    return cache.copy_previous(ctx.out_dir, ctx.tmp, paths, previous)


def write_stamp(ctx):
    """Reads: the input digest taken by read_sources, the corpus, ctx.log. Writes: .lawbook-stamp.json
    (see cache.py), only when the build has no errors: the next build with the same inputs is skipped
    (`up_to_date`), and editions whose content is unchanged can reuse their outputs (`reuse_edition`)."""
    if ctx.log.errors or _cache(ctx).inputs is None:
        return
    editions = {el.get("id"): edition_digest(ctx, el.get("id")) for el in ctx.corpus.iterchildren("edition")}
    cache.write_stamp(ctx.tmp, _cache(ctx).inputs, editions)


def up_to_date(sources_dir, out_dir, options=None):
    """True when out_dir holds an error-free build of exactly these sources by this code (and options):
    the build can be skipped. Reads the sources folder and out_dir's stamp only."""
    return cache.up_to_date(sources_dir, out_dir, options)


# Everything written to build/; each stage is a function of the build's context, seen as a Job.
# The PDF's compilers start as soon as the corpus exists and are collected at the end; the other
# outputs are written meanwhile, the HTML site in a forked process beside the rest (FORKED), and
# pagefind indexes the site in a process of its own while the build waits for the PDF. The comparison
# with a reference (build --reference) is made before the site, whose editor's page shows it.
@collector_paused
def compare_editions(ctx):
    """Reads: ctx.corpus. Keeps in ctx.comparisons the comparison of every two consecutive editions, made
    here once, before the site's child is forked, for both the diff (write_diff) and the site's pages."""
    editions = list(ctx.corpus.iterchildren("edition"))
    ctx.comparisons = {(a.get("id"), b.get("id")): diff.compare(a, b) for a, b in zip(editions, editions[1:])}


OUTPUT_STAGES = [pdf.start_pdf, reference.align_reference, compare_editions, html.write_html, write_corpus, graph.write_graph,
                 markdown.write_markdown, diff.write_diff, html.start_search_index, write_report, pdf.finish_pdf, html.finish_search_index,
                 write_stamp]
PDF_STAGES = {"start_pdf", "finish_pdf", "write_pdf"}

# Output stages that only read the finished corpus and write files of their own, so they may run at
# the same time. Those in FORKED run in a child process forked when the build reaches the first of
# them (sharing the corpus, copy on write), writing into the same folder while this process goes on
# with the SIDE_BY_SIDE stages after it; the child is joined before the next stage that is not
# SIDE_BY_SIDE. The split is balanced by the stages' times (docs/performance.md): the site is about
# as long as the corpus files, the graph, the Markdown and the diff together.
SIDE_BY_SIDE = {"write_corpus", "write_graph", "write_markdown", "write_html", "write_diff"}
FORKED = {"write_html"}
# A book of fewer articles (the five sources have ten) is written in one process: its outputs take
# less time than a fork and the child's answer cost.
FORK_ABOVE = 40


def stages(options=None):
    """All stages in order; with the option no_pdf (`build --no-pdf`, a quick preview for editors)
    without the PDF."""
    if Options.of(options).no_pdf:
        return CORPUS_STAGES + [stage for stage in OUTPUT_STAGES if stage.__name__ not in PDF_STAGES]
    return CORPUS_STAGES + OUTPUT_STAGES


def _run_stage(ctx, stage):
    start = time.perf_counter()
    with _writes_named():
        stage(ctx)
    ctx.timings[stage.__name__] = time.perf_counter() - start


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


def _run_stages(ctx, plan):
    """Run `plan` in order; a run of SIDE_BY_SIDE stages starting with a FORKED one is split between a
    forked child (the FORKED) and this process (the rest). Stops before the first output stage once
    the build has errors."""
    i = 0
    while i < len(plan):
        stage = plan[i]
        if ctx.log.errors and stage not in CORPUS_STAGES:
            return  # no output from a corpus with errors
        if stage.__name__ not in FORKED or not _can_fork(ctx):
            _run_stage(ctx, stage)
            i += 1
            continue
        end = i
        while end < len(plan) and plan[end].__name__ in SIDE_BY_SIDE:
            end += 1
        group = plan[i:end]
        lane = _Lane(ctx, [s for s in group if s.__name__ in FORKED])
        try:
            for other in group:
                if other.__name__ not in FORKED:
                    _run_stage(ctx, other)
            lane.join()
        finally:
            lane.kill()
        i = end


def _can_fork(ctx):
    # One core gains nothing from a second process; LAWBOOK_NO_FORK=1 runs every stage in this one.
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or os.environ.get("LAWBOOK_NO_FORK"):
        return False
    return sum(1 for _ in ctx.corpus.iter("article")) > FORK_ABOVE


class _Lane:
    """Output stages run in a forked child that shares the finished corpus (copy on write) and writes
    into the same temporary folder. The child sends back, pickled through a pipe, its stages' times,
    the report entries they added and the error that stopped it; join() takes them over, raising the
    child's LawbookError as it was (file, line, fix). The child dies with the build (PR_SET_PDEATHSIG)
    and never returns into the build's code: it ends with os._exit."""

    def __init__(self, ctx, lane):
        self.ctx = ctx
        self.entries = len(ctx.log.entries)
        self.names = [stage.__name__ for stage in lane]
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
                        stage(ctx)
                    result["timings"][stage.__name__] = time.perf_counter() - start
            except LawbookError as e:
                result["error"] = ("lawbook", e.message, e.file, e.line, e.fix, e.status)
            except BaseException as e:  # a bug, an interrupt, no memory: the build raises it as it is
                result["error"] = ("other", type(e).__name__, str(e), traceback.format_exc())
            try:
                result["entries"] = ctx.log.entries[self.entries:]
                with os.fdopen(write, "wb") as f:
                    pickle.dump(result, f)
            finally:
                os._exit(0)
        os.close(write)
        self.read = read

    def join(self):
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
        self.ctx.timings.update(result["timings"])
        self.ctx.log.entries.extend(result["entries"])
        error = result["error"]
        if error and error[0] == "lawbook":
            _, message, file, line, fix, status = error
            raise LawbookError(message, file=file, line=line, fix=fix, status=status)
        if error:
            _, kind, message, trace = error
            if kind == "KeyboardInterrupt":
                raise KeyboardInterrupt
            raise ChildError(f"{kind}: {message}", trace)

    def kill(self):
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


def make_corpus(sources_dir, options=None):
    """The corpus stages only (no output), with this project's cache of readings: for `show`, `check`,
    `diff` and tests. The context it returns can be handed to an output stage as its Job (set `tmp`)."""
    ctx = BuildContext(Path(sources_dir), Options.of(options))
    ctx.store = _cache(ctx)
    for stage in CORPUS_STAGES:
        stage(ctx)
    return ctx


def build(sources_dir, out_dir, options=None, compiles=None):
    """Run every stage into a fresh folder beside `out_dir` and swap it in only when every stage
    succeeded and the build found no errors. Returns the context.

    Refuses (LawbookError, status 2, before anything is read or written) an `out_dir` that is not the
    build's own, see outdir.check_target, and a `<out_dir>.failed` that is not.
    Guarantees: `out_dir` is either the previous build, exactly as it was, or the complete new one,
    with the previous folder's permission bits (a new folder: 0777 less the umask).
    When the build finds errors (report entries of kind error or conflict) no output stage runs
    after it and BuildFailed is raised; the failed build's report is written to `<out_dir>.failed/`
    (replaced each time, removed by the next good build). Any other exception or an interrupt
    leaves `out_dir` alone too. The temporary folder is always removed; folders left by a build
    that was killed are removed by the next one.
    `compiles`: what compiles the PDF's books (pdf.Compiles when None); watch mode passes its warm compilers.
    """
    out_dir = outdir.check_target(out_dir, sources_dir)
    failed_dir = out_dir.with_name(out_dir.name + ".failed")
    outdir.check_replaceable(failed_dir, why="a failed build writes its report there, replacing the folder")
    mode = outdir.folder_mode(out_dir)
    ctx = BuildContext(Path(sources_dir), Options.of(options), out_dir=out_dir)
    ctx.store = _cache(ctx)
    ctx.previous = Previous(ctx)
    ctx.compiles = compiles
    # Taken before any source is read: a source changed during the build makes the stamp stale, never wrong.
    ctx.cache.inputs = cache.input_digest(ctx.sources_dir, ctx.options)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    outdir.clear_leftovers(out_dir)
    ctx.tmp = outdir.make_temp(out_dir)
    _watch_writes()
    try:
        try:
            with _writes_named():
                _run_stages(ctx, stages(ctx.options))
        except LawbookError as e:
            if e.status == 1 and ctx.log.entries:  # e.g. a schema failure: the report shows what led to it
                _write_failed(ctx, failed_dir)
            raise
        with _writes_named():
            if ctx.log.errors:
                _write_failed(ctx, failed_dir)
                raise BuildFailed(ctx.log.errors, _shown(failed_dir / "report.txt"), out_dir.name)
            outdir.record(ctx.tmp)
            if mode is not None:
                os.chmod(ctx.tmp, mode)
            _swap(ctx.tmp, out_dir)
        ctx.tmp = None
        outdir.discard(failed_dir)
    finally:
        if ctx.pdf_compiles is not None:  # a stage failed while the PDF compiled: stop its compilers
            ctx.pdf_compiles.kill()
            ctx.pdf_compiles = None
        if ctx.search_index is not None:  # a stage failed while pagefind ran: stop it before cleaning up
            ctx.search_index.kill()
            ctx.search_index.wait()
        if ctx.tmp is not None:
            outdir.discard(ctx.tmp)
    return ctx


_shown = outdir.shown


def _write_failed(ctx, failed_dir):
    """Writes the report of a failed build to `failed_dir` (report.json, report.txt), replacing the last one."""
    folder = outdir.make_temp(failed_dir)
    try:
        ctx.log.write(folder)
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
