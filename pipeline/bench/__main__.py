"""The benchmark (`make bench`): build times and memory on books of three sizes.

    python -m pipeline.bench --out bench [--books sources,93,930] [--trace-books sources,93]
    python -m pipeline.bench --quick [--scaling 93,465,930]     (the scaling alone, a few minutes)

Books: the five received sources, a generated 93-article book in two editions (the
size of the real Spelregels) and the same ten times over (930 articles). For each,
every measurement is a build in a fresh process (pipeline.bench.run) on a copy of
the book in a scratch folder, so build/ and the received sources are never touched:

  full, no PDF  --force --no-pdf: every output but the PDF (issue 8's first target)
  full        --force: everything read and rendered (the cache is refilled)
  no-op       the same again: the inputs are unchanged, so the build is skipped
  one source  one source file changed (a sentence added): a rebuild

Wall time is measured around the process (start-up and imports included); peak
memory is the process's peak resident set (ru_maxrss, children included). Each stage's
time comes from the full build; with --trace-books, one more full build per book runs
each stage under tracemalloc for the stage's peak of Python allocations.

Hostile sizes (--hostile): sources far under the size limits whose shape makes work
(pipeline.bench.hostile: one line of a repeated word, a paragraph with n references, a line
with n inline notes, a 6 MB line of distinct words, 100,000 short lines, a printed paragraph of n
lines and one of n hyphen-ended lines, a run of dots, a flowed paragraph of n digit lines, n flowed
pages citing one footnote, n corrections of one article, a line of n forms the fidelity check reads),
each built (--force --no-pdf) at n and at 2n in a fresh process, twice, the faster run kept (other work on
the machine only ever adds time). The ratio t(2n)/t(n) is taken over the build's stages (imports
and start-up, the same at both sizes, left out): linear work doubles, quadratic work quadruples;
it must stay at or under HOSTILE_MAX_RATIO.

Scaling (--scaling 93,465,930): what grows faster than the book. Each size (articles, two editions)
is built --scaling-runs times as a user builds it (wall time, each stage's time, the peak memory of all
its processes) and as many times with every stage in one process and its CPU seconds measured (the
site's stage not forked; the Typst compilers' and pagefind's CPU counted in the stage that waits for
them); the least of each number is kept. Each stage's exponent k between the smallest and the largest
book, t(large) = t(small) * (large/small)^k, from its CPU time (what it costs, which the other work on
a shared machine does not stretch) and from its wall time; the whole build's ratio (the issue's target:
930x2 at most 11 times 93x2, at most 600 MB over all processes). --quick: the scaling alone, one run of
each size, without the PDF (the other books, hostile sizes, PDF reading and target ratios skipped).

PDF books (--pdf-books sources,english): the book's PDF that lawbook writes, read back as a source,
against the text sources it was printed from. The book is built once (--force) for its PDFs; then
each form is read (the corpus stages, make_corpus, no output) once in a fresh process: the time of
reading the bytes to lines (read_sources: for a PDF, its characters through PDFium), of the lines to
blocks (parse_sources) and of all the corpus stages.
Printed books (--printed-books english,french): the real books beside the project (../shared), each form
as it comes (the English book as the ACBL's text, pdftotext plain and -layout, and its PDF; the French
book's PDF), read by the one reader of printed books (the corpus stages, make_corpus) once in a fresh
process; the ratio is each form's corpus stages against the English ACBL text's, and, where pdftotext is
on the PATH, the PDF's reading against pdftotext -layout extracting the same PDF (what a user would run
instead to get its text, with none of the structure).
Writes bench/bench.json and bench/bench.txt (the tables; their own folder, never the build's); prints the tables.
"""
import argparse
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..reading import manifest
from . import generate, hostile, ratios, watch

# A measurement as bench.json holds it (run.py's result, and what the benchmark adds): JSON.
Record = dict[str, Any]

# Hostile cases and their sizes n (each is also built at 2n): about 100 KB of one repeated word,
# 10,000 references or notes in one paragraph, a 3 MB line (6 MB at 2n), 50,000 lines.
# A printed paragraph of 20,000 lines, 20,000 hyphen-ended lines, a run of 80,000 dots, 50,000 digit lines
# and 10,000 footnote markers in the flowed reader, 20,000 corrections of one article.
HOSTILE_SIZES = {"repeated-word": 16_000, "references": 10_000, "notes": 10_000,
                 "distinct-words": 3_000_000, "short-lines": 50_000, "print-paragraph": 20_000,
                 "hyphen-lines": 20_000, "punctuation": 80_000, "flowed-digits": 50_000, "flowed-notes": 10_000,
                 "corrections": 20_000, "marker-forms": 10_000}
HOSTILE_MAX_RATIO = 2.5

REAL_SOURCES = Path(__file__).resolve().parents[2] / "sources"
# The English original (copyrighted: beside the project, never in it); the book "english" is the whole
# book built from a copy of it with a manifest `language = "en"`, and skipped where it is absent.
ENGLISH = Path(__file__).resolve().parents[3] / "shared" / "english"


def prepare(book: str, folder: Path) -> tuple[Path, str]:
    """Write book `book` ("sources" or a number of articles) into folder/src; returns (src, label)."""
    src = folder / "src"
    if book == "sources":
        shutil.copytree(REAL_SOURCES, src)
        return src, "the five sources"
    if book == "english":
        # The whole book as it comes, one source: the largest file there (the others are page runs cut
        # from it, which would only repeat its pages).
        whole = max(ENGLISH.glob("*.txt"), key=lambda p: p.stat().st_size)
        src.mkdir()
        shutil.copyfile(whole, src / whole.name)
        entries = ['language = "en"', 'publisher = "World Bridge Federation"', "",
                   "[[source]]", f'file = "{whole.name}"', 'edition = "2017"', ""]
        (src / "sources.toml").write_text("\n".join(entries), encoding="utf-8")
        return src, "the whole English book"
    generate.generate(src, articles=int(book), editions=2, seed=1)
    return src, f"{book} articles, 2 editions"


def change_one_source(src: Path) -> str:
    """Add a sentence to the first paragraph line of the last source in the manifest (no later source
    shows its articles again, so this makes no conflict): a change in one file of one edition, the kind
    an editor makes. Returns the file's name."""
    sources = manifest.load_manifest(src)
    name = sources[-1].name
    path = src / name
    data = path.read_bytes()
    try:
        encoding = "utf-8"
        lines = data.decode(encoding).split("\n")
    except UnicodeDecodeError:  # (the English book's extraction is cp1252)
        encoding = "cp1252"
        lines = data.decode(encoding).split("\n")
    sentence = " This applies to dummy too." if sources.profile.code == "en" else " Dit geldt ook voor de blinde."
    for k, line in enumerate(lines):
        if len(line) > 40 and line.rstrip().endswith(".") and not re.match(r"\s*\d+\.", line):
            lines[k] = line.rstrip() + sentence
            break
    path.write_bytes("\n".join(lines).encode(encoding))
    return name


def measure(src: Path, out: Path, force: bool = False, trace: bool = False, no_pdf: bool = False,
            cpu: bool = False) -> Record:
    """One build in a fresh process; its result (see run.py) with the wall time around it."""
    result_file = out.parent / "result.json"
    cmd = [sys.executable, "-m", "pipeline.bench.run", "--sources", str(src), "--out", str(out),
           "--result", str(result_file)] + (["--force"] if force else []) + (["--trace"] if trace else []) \
        + (["--no-pdf"] if no_pdf else []) + (["--cpu"] if cpu else [])
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    memory = ratios.TreeMemory(proc.pid)
    _, err = proc.communicate()
    wall = time.perf_counter() - start
    peak_all = memory.stop()
    if proc.returncode != 0:
        raise SystemExit(f"bench: the build failed:\n{err[-2000:]}")
    result: Record = json.loads(result_file.read_text(encoding="utf-8"))
    result["wall"] = wall
    result["peak_all_mb"] = peak_all
    result["peak_by_process_mb"] = memory.at_peak
    return result


def bench_book(book: str, trace: bool) -> Record:
    with tempfile.TemporaryDirectory(prefix="lawbook-bench-") as tmp:
        folder = Path(tmp)
        src, label = prepare(book, folder)
        out = folder / "build"
        size = sum(p.stat().st_size for p in src.iterdir())
        print(f"bench: {label} ({len(list(src.iterdir())) - 1} files, {size // 1024} KiB) …", file=sys.stderr)
        no_pdf = measure(src, folder / "build-no-pdf", force=True, no_pdf=True)
        full = measure(src, out, force=True)
        noop = measure(src, out)
        changed_file = change_one_source(src)
        changed = measure(src, out)
        traced = None
        if trace:
            traced = measure(src, folder / "build-traced", force=True, trace=True)
        return {"book": book, "label": label, "files": len(full["read"]), "bytes": size,
                "full": full, "no_pdf": no_pdf, "noop": noop, "one_source": changed, "changed_file": changed_file,
                "stage_peaks_mb": {k: v / 2 ** 20 for k, v in (traced or {}).get("stage_peaks", {}).items()}}


# -- scaling: what grows faster than the book -------------------------------------------------------
SCALING_SIZES = "93,465,930"
SCALING_RUNS = 3
# The targets for the largest book against the smallest (930x2 against 93x2): its full build at
# most 11 times the time, and at most 600 MB summed over all the build's processes.
SCALING_TARGETS = {"ratio": 11.0, "peak_mb": 600.0}


def exponent(small: float, large: float, size_ratio: float) -> float | None:
    """k in t(large) = t(small) * size_ratio**k: 1 for linear work, 2 for quadratic. None when the small
    book's time is too short to tell (under a millisecond) or either is nothing."""
    if small < 1e-3 or large <= 0:
        return None
    return math.log(large / small) / math.log(size_ratio)


def bench_scaling(sizes: list[int], runs: int, pdf: bool) -> Record:
    """Each book of `sizes` articles (two editions) built `runs` times as a user builds it (wall time,
    each stage's wall time, the peak memory of all its processes) and `runs` times with each stage's
    CPU time measured in one process (run.py --cpu); of each number the least over the runs (other work
    on the machine only ever adds to it). The exponent of each stage between the smallest and the
    largest book, of its CPU time (what the stage costs) and of its wall time."""
    books: dict[int, Record] = {}
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="lawbook-scaling-") as tmp:
            folder = Path(tmp)
            src, label = prepare(str(n), folder)
            walls: list[Record] = []
            cpus: list[Record] = []
            for k in range(runs):
                print(f"bench: scaling, {label}, run {k + 1} of {runs} …", file=sys.stderr)
                walls.append(measure(src, folder / f"build-{k}", force=True, no_pdf=not pdf))
                cpus.append(measure(src, folder / f"cpu-{k}", force=True, no_pdf=not pdf, cpu=True))
            stages = list(walls[0]["timings"])
            books[n] = {"label": label, "bytes": sum(p.stat().st_size for p in src.iterdir()),
                        "wall": min(r["wall"] for r in walls),
                        "stages_wall": {s: min(r["timings"][s] for r in walls) for s in stages},
                        "stages_cpu": {s: min(r["cpu"][s] for r in cpus) for s in stages},
                        "cpu": min(sum(r["cpu"].values()) for r in cpus),
                        "peak_all_mb": min(r["peak_all_mb"] for r in walls),
                        "peak_by_process_mb": min(walls, key=lambda r: r["peak_all_mb"])["peak_by_process_mb"],
                        "peak_rss_mb": min(r["peak_rss_mb"] for r in walls)}
    small, large = books[sizes[0]], books[sizes[-1]]
    size_ratio = sizes[-1] / sizes[0]
    exponents = {s: {"cpu": exponent(small["stages_cpu"][s], large["stages_cpu"][s], size_ratio),
                     "wall": exponent(small["stages_wall"][s], large["stages_wall"][s], size_ratio)}
                 for s in small["stages_cpu"]}
    whole = {"wall_ratio": large["wall"] / small["wall"], "cpu_ratio": large["cpu"] / small["cpu"],
             "wall_exponent": exponent(small["wall"], large["wall"], size_ratio),
             "cpu_exponent": exponent(small["cpu"], large["cpu"], size_ratio),
             "peak_all_mb": max(b["peak_all_mb"] for b in books.values())}
    return {"sizes": sizes, "runs": runs, "pdf": pdf, "books": {str(n): b for n, b in books.items()},
            "exponents": exponents, "whole": whole, "targets": SCALING_TARGETS}


def scaling_table(result: Record) -> str:
    sizes, books = result["sizes"], result["books"]
    first, last = sizes[0], sizes[-1]
    kind = "full builds" if result["pdf"] else "builds without the PDF"
    out = ["", f"Scaling ({kind}, two editions; the least of {result['runs']} run(s) each; CPU: each stage in one "
               f"process, its own and its reaped children's CPU seconds; exponent k: t({last}) = t({first}) * "
               f"{last / first:g}^k)", ""]
    head = (f"{'stage':<22}" + "".join(f" {f'cpu s {n}':>11}" for n in sizes) + f" {'k cpu':>6}"
            + "".join(f" {f'wall s {n}':>11}" for n in sizes) + f" {'k wall':>6}")
    out += [head, "-" * len(head)]

    def k(value: float | None) -> str:
        return f"{value:>6.2f}" if value is not None else f"{'':>6}"
    for stage, e in result["exponents"].items():
        out.append(f"{stage:<22}" + "".join(f" {books[str(n)]['stages_cpu'][stage]:>11.3f}" for n in sizes)
                   + f" {k(e['cpu'])}" + "".join(f" {books[str(n)]['stages_wall'][stage]:>11.3f}" for n in sizes)
                   + f" {k(e['wall'])}")
    whole = result["whole"]
    out.append(f"{'whole build':<22}" + "".join(f" {books[str(n)]['cpu']:>11.2f}" for n in sizes)
               + f" {k(whole['cpu_exponent'])}" + "".join(f" {books[str(n)]['wall']:>11.2f}" for n in sizes)
               + f" {k(whole['wall_exponent'])}")
    out.append(f"{'peak MB, all processes':<22}" + "".join(f" {books[str(n)]['peak_all_mb']:>11.0f}" for n in sizes))
    for n in sizes:
        shares = sorted(books[str(n)]["peak_by_process_mb"].items(), key=lambda kv: -kv[1])
        out.append(f"  at the peak, {n}: " + ", ".join(f"{kind} {mb:.0f}" for kind, mb in shares))
    targets = result["targets"]
    holds = {True: "holds", False: "does not hold"}
    out += ["", f"{last}x2 / {first}x2: {whole['wall_ratio']:.1f}x the wall time (target at most "
                f"{targets['ratio']:g}x{', ' + holds[whole['wall_ratio'] <= targets['ratio']] if result['pdf'] else ''}), "
                f"{whole['cpu_ratio']:.1f}x the CPU time; peak memory of all processes {whole['peak_all_mb']:.0f} MB "
                f"(target at most {targets['peak_mb']:g} MB"
                f"{', ' + holds[whole['peak_all_mb'] <= targets['peak_mb']] if result['pdf'] else ''})"]
    return "\n".join(out) + "\n"


# -- PDF books: reading the printed book's PDF against its text sources -------------------------------
# Run in a fresh process: the corpus stages of one sources folder, each timed, as JSON on stdout.
READ_TIMER = """
import json, sys, time
from pathlib import Path
start = time.perf_counter()
from pipeline.core.options import Options
from pipeline.corpus import stages
imported = time.perf_counter()
ctx = stages.CorpusContext(Path(sys.argv[1]), Options.of({}), store=stages.NoStore())
timings = {}
for stage in stages.CORPUS.wanted(ctx.options):
    began = time.perf_counter()
    stage.run(ctx)
    timings[stage.name] = time.perf_counter() - began
print(json.dumps({"imports": imported - start, "timings": timings, "errors": len(ctx.log.errors),
                  "lines": sum(len(lines) for lines in ctx.lines.values()),
                  "formats": sorted({d.format for d in ctx.detected.values()})}))
"""
PDF_MANIFEST = {"sources": ("nl", "Dutch"), "english": ("en", "English")}


def time_reading(src: Path) -> Record:
    """The corpus stages of `src` in a fresh process (READ_TIMER), with the wall time around it."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", READ_TIMER, str(src)], capture_output=True, text=True,
                          cwd=REAL_SOURCES.parent)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"bench: reading {src} failed:\n{proc.stderr[-2000:]}")
    result: Record = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    result["bytes"] = sum(p.stat().st_size for p in src.iterdir() if p.name != "sources.toml")
    return result


def pdf_pages(folder: Path) -> int:
    import pypdfium2 as pdfium  # type: ignore[import-untyped]  # (no type information); only this measurement needs it
    pages = 0
    for path in sorted(folder.glob("*.pdf")):
        doc = pdfium.PdfDocument(str(path))
        pages += len(doc)
        doc.close()
    return pages


def bench_pdf_book(book: str) -> Record:
    """`book` ("sources" or "english") built once for its PDFs; then its text sources and its PDFs, each
    read in a fresh process."""
    language, name = PDF_MANIFEST[book]
    with tempfile.TemporaryDirectory(prefix="lawbook-pdf-bench-") as tmp:
        folder = Path(tmp)
        src, label = prepare(book, folder)
        print(f"bench: {label}, built for its PDF, then read as text and as PDF …", file=sys.stderr)
        measure(src, folder / "build", force=True)
        pdfs = folder / "pdf-src"
        pdfs.mkdir()
        entries = [f'language = "{language}"', ""]
        for path in sorted((folder / "build" / "pdf").glob("spelregels-*.pdf")):
            edition = path.stem.rsplit("-", 1)[1]
            shutil.copyfile(path, pdfs / path.name)
            entries += ["[[source]]", f'file = "{path.name}"', f'edition = "{edition}"', ""]
        (pdfs / "sources.toml").write_text("\n".join(entries), encoding="utf-8")
        text, pdf = time_reading(src), time_reading(pdfs)
        pdf["pages"] = pdf_pages(pdfs)
        return {"book": book, "label": f"{name}: {label}", "text": text, "pdf": pdf}


def pdf_table(results: list[Record]) -> str:
    out = ["", "Reading a book's PDF (lawbook's own, read back as a source) against its text sources (one run "
               "each, a fresh process; s)", ""]
    head = (f"{'book':<34} {'form':<5} {'KiB':>6} {'pages':>5} {'lines':>6} {'bytes to lines':>14} "
            f"{'lines to blocks':>15} {'corpus stages':>13} {'wall':>6}")
    out += [head, "-" * len(head)]
    for r in results:
        for form in ("text", "pdf"):
            m = r[form]
            t = m["timings"]
            out.append(f"{r['label']:<34} {form:<5} {m['bytes'] // 1024:>6} {m.get('pages', ''):>5} {m['lines']:>6} "
                       f"{t['read_sources']:>14.2f} {t['parse_sources']:>15.2f} {sum(t.values()):>13.2f} "
                       f"{m['wall']:>6.2f}")
        ratio = sum(r["pdf"]["timings"].values()) / sum(r["text"]["timings"].values())
        out.append(f"{'':<34} the PDF: {ratio:.1f}x the corpus stages' time of the text")
    return "\n".join(out) + "\n"


# The real books' forms (copyrighted, beside the project, never in it): (label, folder, file, language).
SHARED = ENGLISH.parent
PRINTED_FORMS = {"english": [("English, the ACBL's text", "english", "laws2017-en.txt", "en"),
                             ("English, pdftotext plain", "english", "laws2017-en-poppler.txt", "en"),
                             ("English, pdftotext -layout", "english", "laws2017-en-poppler-layout.txt", "en"),
                             ("English, the PDF", "english", "laws2017-en.pdf", "en")],
                 "french": [("French, the PDF", "french", "code2017-fr.pdf", "fr")]}


def pdftotext_time(pdf: Path) -> float | None:
    """pdftotext -layout on `pdf` (its text alone, no structure), wall seconds; None without pdftotext."""
    if shutil.which("pdftotext") is None:
        return None
    with tempfile.TemporaryDirectory(prefix="lawbook-pdftotext-") as tmp:
        start = time.perf_counter()
        subprocess.run(["pdftotext", "-layout", str(pdf), str(Path(tmp) / "out.txt")], check=True)
        return time.perf_counter() - start


def bench_printed_books(books: list[str]) -> list[Record]:
    """Each form of each of `books` read in a fresh process; a form whose file is absent is skipped."""
    results = []
    for book in books:
        for label, folder, name, language in PRINTED_FORMS[book]:
            path = SHARED / folder / name
            if not path.is_file():
                print(f"bench: {path} is absent: '{label}' is not read", file=sys.stderr)
                continue
            with tempfile.TemporaryDirectory(prefix="lawbook-printed-") as tmp:
                src = Path(tmp) / "src"
                src.mkdir()
                shutil.copyfile(path, src / name)
                (src / "sources.toml").write_text(f'language = "{language}"\n\n[[source]]\nfile = "{name}"\n'
                                                  f'edition = "2017"\n', encoding="utf-8")
                print(f"bench: reading {label} …", file=sys.stderr)
                result = time_reading(src)
            result["label"] = label
            result["pdftotext"] = pdftotext_time(path) if name.endswith(".pdf") else None
            results.append(result)
    return results


def printed_table(results: list[Record]) -> str:
    out = ["", "Reading the real printed books, each form as it comes (the corpus stages, one run each, a fresh "
               "process; s; ratio: the corpus stages against the English ACBL text's)", ""]
    head = (f"{'form':<28} {'KiB':>6} {'lines':>6} {'errors':>6} {'bytes to lines':>14} {'lines to blocks':>15} "
            f"{'corpus stages':>13} {'wall':>6} {'ratio':>6} {'pdftotext':>9}")
    out += [head, "-" * len(head)]
    base = next((sum(r["timings"].values()) for r in results if r["label"] == PRINTED_FORMS["english"][0][0]), None)
    for r in results:
        t = r["timings"]
        stages = sum(t.values())
        ratio = f"{stages / base:.1f}x" if base else ""
        extract = f"{r['pdftotext']:.2f}" if r["pdftotext"] is not None else ""
        out.append(f"{r['label']:<28} {r['bytes'] // 1024:>6} {r['lines']:>6} {r['errors']:>6} "
                   f"{t['read_sources']:>14.2f} {t['parse_sources']:>15.2f} {stages:>13.2f} {r['wall']:>6.2f} "
                   f"{ratio:>6} {extract:>9}")
    return "\n".join(out) + "\n"


def bench_hostile(case: str, n: int, runs: int = 2) -> Record:
    """`case` built at n and 2n, each `runs` times in a fresh process; the faster run of each size."""
    sizes = []
    for size in (n, 2 * n):
        with tempfile.TemporaryDirectory(prefix="lawbook-hostile-") as tmp:
            src = hostile.write(case, size, Path(tmp) / "src")
            print(f"bench: hostile {case}, n = {size:,} …", file=sys.stderr)
            best = min((measure(src, Path(tmp) / f"build-{k}", force=True, no_pdf=True) for k in range(runs)),
                       key=lambda r: sum(r["timings"].values()))
            best["stages"] = sum(best["timings"].values())
            best["bytes"] = sum(p.stat().st_size for p in src.iterdir())
            # The report's size (a report that grows faster than the source is a hostile size too).
            # (the last run's report: a build that ends in an error leaves it in the folder's ".failed" twin)
            best["report_bytes"] = sum(path.stat().st_size for name in ("report.txt", "report.json")
                                       for folder in (f"build-{runs - 1}", f"build-{runs - 1}.failed")
                                       if (path := Path(tmp) / folder / name).exists())
            sizes.append(best)
    small, large = sizes
    return {"case": case, "n": n, "small": small, "large": large, "ratio": large["stages"] / small["stages"]}


def hostile_table(results: list[Record]) -> str:
    out = ["", f"Hostile sizes (build --force --no-pdf at n and 2n; stages: the build without start-up and "
               f"imports; rep MB: report.txt and report.json; ratio = stages(2n) / stages(n), at most "
               f"{HOSTILE_MAX_RATIO})", ""]
    head = (f"{'case':<16} {'n':>10} {'MB':>5} {'wall s':>7} {'stages s':>8} {'peak MB':>7} {'rep MB':>6}   "
            f"{'2n':>10} {'MB':>5} {'wall s':>7} {'stages s':>8} {'peak MB':>7} {'rep MB':>6} {'ratio':>6}")
    out += [head, "-" * len(head)]
    for r in results:
        cells = []
        for size, m in ((r["n"], r["small"]), (2 * r["n"], r["large"])):
            cells.append(f"{size:>10,} {m['bytes'] / 1e6:>5.1f} {m['wall']:>7.2f} {m['stages']:>8.2f} "
                         f"{m['peak_rss_mb']:>7.0f} {m.get('report_bytes', 0) / 1e6:>6.2f}")
        holds = "" if r["ratio"] <= HOSTILE_MAX_RATIO else "  over"
        out.append(f"{r['case']:<16} {cells[0]}   {cells[1]} {r['ratio']:>6.2f}{holds}")
    return "\n".join(out) + "\n"


def tables(results: list[Record]) -> str:
    """The readable tables: one line per book and build, then one line per stage."""
    out = ["Builds (wall time around a fresh process: start-up and imports included; "
           "memory: peak resident set, ru_maxrss)", ""]
    head = f"{'book':<28} {'build':<16} {'wall s':>8} {'peak MB':>8} {'all MB':>7} {'read':>5} {'cached':>6}"
    out += [head, "-" * len(head)]
    for r in results:
        for kind, label in (("no_pdf", "full, no PDF"), ("full", "full"), ("noop", "no-op"),
                            ("one_source", "one source")):
            m = r[kind]
            what = "skipped" if m["skipped"] else f"{len(m['read']):>5} {len(m['cached']):>6}"
            out.append(f"{r['label']:<28} {label:<16} {m['wall']:>8.2f} {m['peak_rss_mb']:>8.0f} "
                       f"{m['peak_all_mb']:>7.0f} {what:>12}")
    if len(results) > 1:
        a, b = results[-2], results[-1]
        if a["book"] != "sources" and b["book"] != "sources":
            out.append("")
            for kind, label in (("no_pdf", "full, no PDF"), ("full", "full")):
                ratio = b[kind]["wall"] / a[kind]["wall"]
                out.append(f"scaling, {label}: {b['label']} / {a['label']}: {ratio:.1f}x the time for "
                           f"{b['bytes'] / a['bytes']:.1f}x the bytes")
    stages = list(dict.fromkeys(k for r in results for k in r["full"]["timings"]))
    out += ["", "Stages of the full build (ms; in brackets: peak Python allocations, MB, tracemalloc)", ""]
    head = f"{'stage':<22}" + "".join(f" {r['label'][:22]:>22}" for r in results)
    out += [head, "-" * len(head)]
    for stage in stages:
        cells = []
        for r in results:
            ms = r["full"]["timings"].get(stage)
            peak = r["stage_peaks_mb"].get(stage)
            cell = "" if ms is None else f"{ms * 1000:.0f}" + (f" ({peak:.0f})" if peak is not None else "")
            cells.append(f" {cell:>22}")
        out.append(f"{stage:<22}" + "".join(cells))
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="bench", help="where bench.json and bench.txt go (not the build folder)")
    parser.add_argument("--books", default="sources,english,93,930",
                        help="comma-separated: 'sources', 'english' (the whole English book beside the "
                             "project) and/or numbers of articles (two editions each)")
    parser.add_argument("--trace-books", default="sources,93",
                        help="books whose stages also run under tracemalloc (slow on big books)")
    parser.add_argument("--hostile", default=",".join(HOSTILE_SIZES),
                        help="comma-separated hostile cases to build at n and 2n ('' for none): "
                             + ", ".join(HOSTILE_SIZES))
    parser.add_argument("--pdf-books", default="sources,english",
                        help="comma-separated books ('sources', 'english') whose PDF is read back against their "
                             "text sources ('' for none)")
    parser.add_argument("--printed-books", default="english,french",
                        help="comma-separated real books beside the project ('english', 'french') whose every form "
                             "is read by the reader of printed books ('' for none)")
    parser.add_argument("--ratios", type=int, default=93,
                        help="the book (articles, two editions) the target ratios are measured on; the book "
                             "ten times its size, when among --books, gives the scaling and memory targets; "
                             "0 for none")
    parser.add_argument("--scaling", default=SCALING_SIZES,
                        help="comma-separated numbers of articles (two editions each), smallest first: each "
                             "stage's time at each size and its exponent between the first and the last ('' for "
                             "none)")
    parser.add_argument("--scaling-runs", type=int, default=SCALING_RUNS,
                        help="builds of each size, of each kind (the least time is kept)")
    parser.add_argument("--quick", action="store_true",
                        help="the scaling alone, one run of each size, without the PDF (no other book, hostile "
                             "size, PDF reading or target ratio): a few minutes")
    args = parser.parse_args(argv)
    if args.quick:
        args.books = args.hostile = args.pdf_books = args.printed_books = ""
        args.ratios, args.scaling_runs = 0, 1
    scaling_sizes = [int(n) for n in args.scaling.split(",") if n]
    if len(scaling_sizes) == 1 or scaling_sizes != sorted(set(scaling_sizes)):
        parser.error("--scaling: two sizes or more, smallest first")
    printed = [b for b in args.printed_books.split(",") if b]
    unknown = [b for b in printed if b not in PRINTED_FORMS]
    if unknown:  # (said before any book is built)
        parser.error(f"unknown printed book {unknown[0]!r}; the books are {', '.join(PRINTED_FORMS)}")
    traced = set(args.trace_books.split(",")) if args.trace_books else set()
    books = [b for b in args.books.split(",") if b]
    if "english" in books and not ENGLISH.is_dir():
        print(f"bench: the English book is not in {ENGLISH}: the book 'english' is skipped", file=sys.stderr)
        books.remove("english")
    results = [bench_book(book, book in traced) for book in books]
    targets = None
    if args.ratios:
        big = next((r["full"] for r in results if r["book"] == str(args.ratios * 10)), None)
        with tempfile.TemporaryDirectory(prefix="lawbook-ratios-") as tmp:
            src, _ = prepare(str(args.ratios), Path(tmp))
            print(f"bench: target ratios on {args.ratios} articles, 2 editions …", file=sys.stderr)
            targets = ratios.bench_ratios(src, Path(tmp), change_one_source, big=big)
    cases = [c for c in args.hostile.split(",") if c]
    unknown = [c for c in cases if c not in HOSTILE_SIZES]
    if unknown:
        parser.error(f"unknown hostile case {unknown[0]!r}; the cases are {', '.join(HOSTILE_SIZES)}")
    hostile_results = [bench_hostile(case, HOSTILE_SIZES[case]) for case in cases]
    pdf_books = [b for b in args.pdf_books.split(",") if b]
    unknown = [b for b in pdf_books if b not in PDF_MANIFEST]
    if unknown:
        parser.error(f"unknown PDF book {unknown[0]!r}; the books are {', '.join(PDF_MANIFEST)}")
    if "english" in pdf_books and not ENGLISH.is_dir():
        print(f"bench: the English book is not in {ENGLISH}: its PDF is not read", file=sys.stderr)
        pdf_books.remove("english")
    pdf_results = [bench_pdf_book(book) for book in pdf_books]
    printed_results = bench_printed_books(printed)
    watch_result = watch.bench_book(str(args.ratios)) if args.ratios else None  # serve --watch's edit times
    scaling = bench_scaling(scaling_sizes, args.scaling_runs, pdf=not args.quick) if scaling_sizes else None
    text = ((tables(results) if results else "") + (ratios.ratio_table(targets) if targets else "")
            + (watch.table(watch_result) if watch_result else "") + (scaling_table(scaling) if scaling else "")
            + (hostile_table(hostile_results) if hostile_results else "") + (pdf_table(pdf_results) if pdf_results else "")
            + (printed_table(printed_results) if printed_results else ""))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    machine = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}
    (out / "bench.json").write_text(json.dumps({"machine": machine, "books": results, "targets": targets,
                                                "hostile": hostile_results, "pdf_books": pdf_results,
                                                "printed_books": printed_results,
                                                "watch": watch_result, "scaling": scaling},
                                               indent=1) + "\n", encoding="utf-8")
    (out / "bench.txt").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
