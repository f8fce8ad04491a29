"""The benchmark's targets: each a ratio of two whole-process times (or a peak), measured in one run.

    full build (93x2)        / a bare Typst compile of its two books, side by side   <= 1.15
    build without PDF        / pandoc -s on its two Markdown editions, one after the  <= 1.0
                               other (when pandoc is installed: make bench-peers)
    no-op `lawbook build`    / python -c "import lxml.etree"                          <= 1.5
    one changed source       / the full build                                         <= 0.4
    930x2 full build         / the 93x2 full build                                    <= 11
    930x2 full build, peak memory of all its processes                                <= 600 MB

Every time is the median of RUNS runs of a fresh process, measured around it (start-up and imports
included). The bare compile runs the Typst sources the build kept beside its PDFs
(build/pdf/spelregels-<edition>.typ), each in a Python process of its own that imports typst and
compiles, both started at once: what the build's own compile children do, and nothing else.
Memory is the peak, sampled every 100 ms (a scan of /proc: more often, the sampler itself costs the build time), of the summed proportional set size (PSS, /proc/PID/smaps_rollup:
pages shared by a fork are counted once) of the process and all its descendants.
"""
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

RUNS = 3
TARGETS = {"full_vs_typst": 1.15, "no_pdf_vs_pandoc": 1.0, "noop_vs_lxml_import": 1.5,
           "one_source_vs_full": 0.4, "big_vs_full": 11.0, "big_peak_mb": 600.0}

# A bare compile of one Typst file, as the build's compile child does it.
BARE_TYPST = """
import sys, typst
typst.compile(open(sys.argv[1], "rb").read(), pdf_standards=["a-2b"], ignore_system_fonts=True)
"""


def _children(pid: int) -> list[int]:
    """The PIDs of every descendant of `pid` (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            parents.setdefault(int(stat[stat.rindex(b")") + 2:].split()[1]), []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_kind(pid: int, root: int) -> str:
    """What a process of the build is, from its command line: the build itself, its forked child (the
    site), a Typst compiler, the process that compiles a book in parts, pagefind, Graphviz's dot."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().decode("utf-8", "replace").split("\0")
    except OSError:
        return "ended"
    if not argv[0]:  # a process that has ended but is not yet reaped has no command line
        return "ended"
    line = " ".join(argv)
    if "import typst" in line:
        return "typst compile"
    if "pdf_parts" in line:
        return "pdf parts"
    if "pagefind" in line:
        return "pagefind"
    if argv and argv[0].endswith("dot"):
        return "dot"
    return "build" if pid == root else "build (forked)" if "pipeline" in line else Path(argv[0]).name


class TreeMemory:
    """Samples the summed PSS of a process and its descendants while it runs; `peak_mb` after stop(), and
    `at_peak`: the MB of each kind of process (process_kind) at the peak."""

    def __init__(self, pid: int, every: float = 0.1) -> None:
        self.pid, self.every, self.peak = pid, every, 0
        self.at_peak: dict[str, float] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            each = {p: _pss_kib(p) for p in [self.pid] + _children(self.pid)}
            total = sum(each.values())
            if total > self.peak:
                self.peak = total
                self.at_peak = {}
                for p, kib in each.items():
                    kind = process_kind(p, self.pid)
                    self.at_peak[kind] = self.at_peak.get(kind, 0) + kib / 1024
            self.done.wait(self.every)

    def stop(self) -> float:
        self.done.set()
        self.thread.join()
        return self.peak / 1024

    @property
    def peak_mb(self) -> float:
        return self.peak / 1024


def run_timed(commands: Sequence[Sequence[str]], memory: bool = False, **kw: Any) -> tuple[float, float | None]:
    """Start `commands` (a list of argv lists) at once, wait for all; (wall seconds, peak MB or None).
    A command that fails stops the benchmark with its error output."""
    start = time.perf_counter()
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw) for cmd in commands]
    samplers = [TreeMemory(p.pid) for p in procs] if memory else []
    errors = [p.communicate()[1] for p in procs]
    wall = time.perf_counter() - start
    peak = sum(s.stop() for s in samplers) if memory else None
    for p, err in zip(procs, errors):
        if p.returncode != 0:
            raise SystemExit(f"bench: {' '.join(map(str, cast('list[str]', p.args)))[:200]} failed:\n{err.decode()[-2000:]}")
    return wall, peak


def median_of(make_commands: Callable[[], Sequence[Sequence[str]]], runs: int = RUNS,
              before: Callable[[], object] | None = None, **kw: Any) -> float:
    times = []
    for _ in range(runs):
        if before:
            before()
        times.append(run_timed(make_commands(), **kw)[0])
    return statistics.median(times)


def lawbook(src: str | os.PathLike[str], out: str | os.PathLike[str], *flags: str) -> list[str]:
    """The real command, as a user runs it (python -m pipeline is what the `lawbook` script runs)."""
    return [sys.executable, "-m", "pipeline", "build", "--sources", str(src), "--out", str(out), *flags]


def bench_ratios(src: Path, folder: Path, change_one_source: Callable[[Path], object],
                 big: dict[str, float] | None = None, runs: int = RUNS) -> dict[str, Any]:
    """The target ratios on the book in `src` (the 93x2 book), scratch files in `folder`. `big` is the
    930x2 book's full build measured by the caller ({"wall", "peak_all_mb"}). Returns
    {"measured": {...seconds...}, "ratios": {...}, "targets": TARGETS}."""
    env = None
    out = folder / "build"
    m: dict[str, float] = {}
    m["full"] = median_of(lambda: [lawbook(src, out, "--force")], runs, env=env)
    books = sorted((out / "pdf").glob("spelregels-*.typ"))  # a book compiled in parts has none: no ratio
    if books:
        m["bare_typst"] = median_of(lambda: [[sys.executable, "-c", BARE_TYPST, str(b)] for b in books], runs)
    m["no_pdf"] = median_of(lambda: [lawbook(src, folder / "build-no-pdf", "--force", "--no-pdf")], runs, env=env)
    pandoc = shutil.which("pandoc")
    if pandoc:
        editions = sorted((folder / "build-no-pdf").glob("*/lawbook.md"))

        def pandoc_both() -> None:
            for md in editions:
                run_timed([[pandoc, str(md), "-s", "--metadata", "title=Spelregels", "-o",
                            str(folder / f"{md.parent.name}.html")]])
        m["pandoc"] = statistics.median(_timed(pandoc_both) for _ in range(runs))
    run_timed([lawbook(src, out)], env=env)  # up to date from here on
    m["noop"] = median_of(lambda: [lawbook(src, out)], max(runs, 5), env=env)
    m["lxml_import"] = median_of(lambda: [[sys.executable, "-c", "import lxml.etree"]], max(runs, 5))
    m["one_source"] = median_of(lambda: [lawbook(src, out)], runs, before=lambda: change_one_source(src), env=env)
    ratios = {"noop_vs_lxml_import": m["noop"] / m["lxml_import"], "one_source_vs_full": m["one_source"] / m["full"]}
    if books:
        ratios["full_vs_typst"] = m["full"] / m["bare_typst"]
    if pandoc:
        ratios["no_pdf_vs_pandoc"] = m["no_pdf"] / m["pandoc"]
    if big:
        m["big_full"], m["big_peak_mb"] = big["wall"], big["peak_all_mb"]
        ratios["big_vs_full"] = big["wall"] / m["full"]
        ratios["big_peak_mb"] = big["peak_all_mb"]
    return {"measured": m, "ratios": ratios, "targets": TARGETS}


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


LABELS = {"full_vs_typst": ("full build / bare Typst compile of its two books side by side", "full", "bare_typst"),
          "no_pdf_vs_pandoc": ("build without PDF / pandoc -s on its two Markdown editions", "no_pdf", "pandoc"),
          "noop_vs_lxml_import": ('no-op `lawbook build` / python -c "import lxml.etree"', "noop", "lxml_import"),
          "one_source_vs_full": ("one changed source / the full build", "one_source", "full"),
          "big_vs_full": ("930x2 full build / 93x2 full build", "big_full", "full"),
          "big_peak_mb": ("930x2 full build, peak memory of all processes (MB)", "big_peak_mb", None)}


def ratio_table(result: dict[str, Any]) -> str:
    m, ratios = result["measured"], result["ratios"]
    out = ["", f"Targets (medians of {RUNS}+ fresh processes, wall time; the 930x2 build: one run)", ""]
    head = f"{'target':<64} {'measured':>17} {'ratio':>7} {'target':>7} {'holds':>5}"
    out += [head, "-" * len(head)]
    for key, (label, a, b) in LABELS.items():
        if key not in ratios:
            out.append(f"{label:<64} {'not measured (pandoc missing: make bench-peers)' if key == 'no_pdf_vs_pandoc' else 'not measured'}")
            continue
        value = ratios[key]
        measured = f"{m[a]:.2f} MB" if b is None else f"{m[a]:.2f}/{m[b]:.2f} s"
        holds = "yes" if value <= TARGETS[key] else "no"
        shown = f"{value:.0f}" if b is None else f"{value:.2f}"
        out.append(f"{label:<64} {measured:>17} {shown:>7} {TARGETS[key]:>7g} {holds:>5}")
    return "\n".join(out) + "\n"
