"""One measured build, in a process of its own (the benchmark starts one per measurement).

    python -m pipeline.bench.run --sources DIR --out DIR --result FILE [--force] [--no-pdf] [--trace]

Does what `lawbook build` does: skips the build when the output is up to date (checked
before the stages are imported), else builds. Writes to FILE (JSON): whether the build was skipped, the time of the whole
build and of each stage, which sources were read and which came from the cache, the
number of errors, and the peak resident memory of this process and its children
(ru_maxrss). With --trace each stage also runs under tracemalloc, and the result
holds each stage's peak of Python allocations (slower: only for those numbers). With --cpu every
stage runs in this process (LAWBOOK_NO_FORK: the site too), and the result holds each stage's CPU
seconds, this process's and those of the children it reaped meanwhile (the Typst compilers, which
finish_pdf waits for): a stage's cost that the other work on a shared machine does not stretch, as
it stretches wall time.
"""
import argparse
import dataclasses
import json
import os
import resource
import sys
import time
import tracemalloc
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.stage import Stage


def traced(stage: "Stage", peaks: dict[str, int]) -> "Stage":
    """`stage` (a core/stage.Stage), recording the peak of Python allocations while it runs into
    peaks[name]; a stage that only waits for a process is left as it is."""
    if stage.run is None:
        return stage
    stage_run = stage.run

    def run(ctx: Any) -> object:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            return stage_run(ctx)
        finally:
            peaks[stage.name] = tracemalloc.get_traced_memory()[1] - base
    return dataclasses.replace(stage, run=run)


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of the children it has reaped."""
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def timed_cpu(stage: "Stage", cpu: dict[str, float]) -> "Stage":
    """`stage` (a declared Stage), recording the CPU seconds it took into cpu[name]. A stage that only
    waits for a process (no function) is timed by the runner as it waits."""
    if stage.run is None:
        return stage
    stage_run = stage.run

    def run(ctx: Any) -> object:
        began = cpu_seconds()
        try:
            return stage_run(ctx)
        finally:
            cpu[stage.name] = cpu_seconds() - began
    return dataclasses.replace(stage, run=run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.run")
    parser.add_argument("--sources", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--result", required=True)
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--no-pdf", action="store_true")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="every stage in this process, its CPU seconds measured")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    # The up-to-date check needs only the cache module: the stages (and their libraries) are imported
    # when there is something to build.
    from ..publish import cache
    options = {"force": args.force, "no_pdf": args.no_pdf}
    result: dict[str, Any] = {"skipped": False, "timings": {}, "read": [], "cached": [], "errors": 0, "stage_peaks": {}, "cpu": {}}
    if cache.up_to_date(args.sources, args.out, options):
        result["skipped"] = True
    else:
        from ..publish import run as build
        all_stages = build.stages(options)
        if args.trace:
            tracemalloc.start()
            corpus, outputs = all_stages
            all_stages = ([traced(s, result["stage_peaks"]) for s in corpus],
                          [traced(s, result["stage_peaks"]) for s in outputs])
        if args.cpu:
            os.environ["LAWBOOK_NO_FORK"] = "1"  # the site's stage in this process, where its CPU is counted
            corpus, outputs = all_stages
            all_stages = ([timed_cpu(s, result["cpu"]) for s in corpus], [timed_cpu(s, result["cpu"]) for s in outputs])
            # A stage that waits for a process (finish_pdf) has no function: its CPU is the children the
            # build reaps while it waits.
            waiting = {s.waits: s.name for s in outputs if s.waits is not None}
            wait_for = build.Build.wait_for

            def timed_wait(self: build.Build, name: str) -> object:
                began = cpu_seconds()
                try:
                    return wait_for(self, name)
                finally:
                    result["cpu"][waiting.get(name, name)] = cpu_seconds() - began
            setattr(build.Build, "wait_for", timed_wait)  # (the runner's own method, timed)
        build.stages = lambda options=None: all_stages
        ctx = build.build(args.sources, args.out, options)
        result.update(timings=ctx.timings, read=ctx.cache.misses if ctx.cache else [],
                      cached=ctx.cache.hits if ctx.cache else [], errors=len(ctx.log.errors))
    result["seconds"] = time.perf_counter() - start  # in-process, imports included
    kib = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    result["peak_rss_mb"] = kib / 1024
    with open(args.result, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
