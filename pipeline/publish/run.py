"""The build: a declared chain of stages (core/stage.py), the corpus stages over one CorpusContext,
then the output stages over one Job (outputs/job.py) of the frozen corpus.

Each stage's declaration says what it reads and writes, its lane and the options that leave it out
(tests/test_stages.py holds it to that). Output goes to a fresh folder beside the target (build.tmp-…)
and is swapped in only when every stage succeeded, so a failed or interrupted build leaves the
previous build/ as it was. The target must be the build's own (missing, empty or an earlier build:
see outdir/), and only folders the build marked as its own are ever deleted.

One job per module: this one declares the chain and runs it (build, make_corpus); state.py holds a
build's own state (Build), lanes.py runs the output stages in this process or a forked child, swap.py
puts the finished folder in place.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from . import cache, outdir, reference
from ..core import tree
from ..core.errors import BuildFailed, LawbookError
from ..core.options import Options
from ..core.stage import MAIN, Chain, Stage, table
from ..corpus.stages import CORPUS, CorpusContext
from ..outputs import diff, graph, html, markdown, pdf, serialise
from ..outputs.job import Job
from .lanes import FORK_ABOVE, ChildError, last_written, run_outputs, run_stage, watch_writes, writes_named
from .state import Build, BuildSummary, ReadingCache, edition_digest
from .swap import swap, write_failed

__all__ = ["Build", "BuildSummary", "ChildError", "FORK_ABOVE", "OUTPUTS", "ReadingCache", "STAGES", "build", "edition_digest",
           "last_written", "make_corpus", "stage_tables", "stages", "up_to_date"]


def write_report(job: Job) -> None:
    """Reads: job.log. Writes: report.json, report.txt."""
    job.log.write(job.tmp)


def write_stamp(job: Job) -> None:
    """Reads: the input digest taken when the build began (the build is the job's `previous`), the corpus,
    job.log. Writes: .lawbook-stamp.json (see cache.py), only when the build has no errors: the next
    build with the same inputs is skipped (`up_to_date`), and editions whose content is unchanged can
    reuse their outputs (Build.reuse). Outside a build (no Build as job.previous) it writes nothing."""
    build = job.previous
    if job.log.errors or not isinstance(build, Build):
        return
    inputs = build.readings().inputs
    if inputs is None:
        return
    editions = {tree.attr(el, "id"): build.digest(tree.attr(el, "id")) for el in job.corpus.iterchildren("edition")}
    cache.write_stamp(job.tmp, inputs, editions, build.options)


def up_to_date(sources_dir: Path | str, out_dir: Path | str, options: Options | dict[str, object] | None = None) -> bool:
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


def stage_tables() -> str:
    """The corpus stages and the output stages as docs/architecture.md shows them (tests/test_stages.py
    holds the document to this)."""
    return (f"The corpus stages, over the CorpusContext (corpus/stages.py):\n\n{table(CORPUS)}\n\n"
            f"The output stages, over the Job (outputs/job.py):\n\n{table(OUTPUTS)}")


def stages(options: Options | dict[str, object] | None = None) -> tuple[list[Stage], list[Stage]]:
    """The corpus stages and the output stages the options ask for, in order; with the option no_pdf
    (`build --no-pdf`, a quick preview for editors) without the PDF's (their declarations say so)."""
    options = Options.of(options)
    return CORPUS.wanted(options), OUTPUTS.wanted(options)


def make_corpus(sources_dir: Path | str, options: Options | dict[str, object] | None = None) -> CorpusContext:
    """The corpus stages only (no output), with this project's cache of readings: for `show`, `check`,
    `diff` and tests. An output stage takes the corpus it made as Job.of(context, folder)."""
    context = Build(CorpusContext(Path(sources_dir), Options.of(options))).context
    for stage in CORPUS.wanted(context.options):
        assert stage.run is not None  # no corpus stage waits for a process
        stage.run(context)
    return context


def checked(plan: list[Stage], check: Callable[[], None]) -> list[Stage]:
    """`plan` with `check` run before each stage of lane MAIN (never inside a run of SIDE and FORK stages,
    which stays one lane): watch mode's way to stop a build whose sources changed again (it raises)."""
    return [step for stage in plan for step in
            ([Stage(f"check_before_{stage.name}", lambda _: check()), stage] if stage.lane == MAIN else [stage])]


def reports_from(plan: list[Stage]) -> int:
    """Where the plan's trailing corpus stages that write nothing but the report begin (the fidelity check,
    and the watcher's checks between stages): the corpus is made before them."""
    at = len(plan)
    while at > 0 and set(plan[at - 1].writes) <= {"log"}:
        at -= 1
    return at


def starts_processes(plan: list[Stage]) -> int:
    """How many of the output plan's first stages start a process a later stage waits for (the PDF's
    compilers: start_pdf, waited for by finish_pdf): the build runs them before the corpus stages that only
    report."""
    waited = {stage.waits for stage in plan if stage.waits is not None}
    at = 0
    while at < len(plan) and plan[at].name in waited:
        at += 1
    return at


def build(sources_dir: Path | str, out_dir: Path | str, options: Options | dict[str, object] | None = None,
          compiles: Callable[[list[Any]], Any] | None = None, ready: Callable[[Job], None] | None = None,
          check: Callable[[], None] | None = None) -> Build:
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
    `ready`: called with the Job once the corpus is made without errors, before the corpus stages that only
    report (reports_from: the fidelity check) and the output stages (watch mode renders the pages open in a
    browser first; a finding of those checks then fails the build as any error does). The output stages
    that start the PDF's compilers (starts_processes) run next, before those checks, and the rest after
    them. `check`: called before each stage of lane MAIN; what it raises stops the build as an interrupt
    does (the temporary folder removed, out_dir left alone).
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
    watch_writes()
    try:
        try:
            with writes_named():
                corpus_plan, output_plan = stages(run.options)
                # The compilers start before the corpus stages that only report: the PDF is the build's longest
                # wait, and a finding still stops the build (and the compilers, run.stop_all) before anything
                # is in place.
                started = starts_processes(output_plan)
                first, output_plan = output_plan[:started], output_plan[started:]
                if check is not None:
                    corpus_plan, first, output_plan = (checked(corpus_plan, check), checked(first, check),
                                                       checked(output_plan, check))
                # The corpus is made before its last checks, which only report: `ready` shows it then, and a
                # finding of theirs still fails the build before anything is put in place.
                made = reports_from(corpus_plan)
                for stage in corpus_plan[:made]:
                    run_stage(run, stage, run.context)
                job = Job(run.context.frozen(), run.tmp, previous=run, compiles=compiles) if not run.log.errors \
                    else None
                if job is not None:
                    if ready is not None:
                        ready(job)
                    for stage in first:
                        run_stage(run, stage, job)
                for stage in corpus_plan[made:]:
                    run_stage(run, stage, run.context)
                if job is not None and not run.log.errors:
                    run_outputs(run, job, output_plan)
        except LawbookError as e:
            if e.status == 1 and run.log.entries:  # e.g. a schema failure: the report shows what led to it
                write_failed(run.log, failed_dir)
            raise
        with writes_named():
            if run.log.errors:
                write_failed(run.log, failed_dir)
                raise BuildFailed(run.log.errors, outdir.shown(failed_dir / "report.txt"), out_dir.name,
                                  frozenset(run.log.paged()))
            files = outdir.record(run.tmp)
            changed = outdir.changed_since_linked(files, run.tmp, out_dir, run.recorded)
            if changed:
                raise LawbookError(f"{len(changed)} file(s) of the last build changed while this build took them "
                                   f"from it, first {changed[0]}", file=outdir.shown(out_dir / changed[0]), status=1,
                                   fix="build again (the last build, as it now is, was left in place)")
            if mode is not None:
                os.chmod(run.tmp, mode)
            swap(run.tmp, out_dir)
        run.tmp = None
        outdir.restat(out_dir)  # the files linked from the build just removed (cache.copy_previous)
        outdir.discard(failed_dir)
    finally:
        run.stop_all()  # a stage failed while processes ran: stop them before cleaning up
        if run.tmp is not None:
            outdir.discard(run.tmp)
    return run
