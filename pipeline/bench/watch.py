"""Watch mode's times (`make bench`; `python -m pipeline.bench.watch --book 93` alone): what an editor waits
for between saving a source and seeing it.

    edit → page       the article's HTML page in the build folder holds the edit and the open pages
                      are told (the watch session's published state moved on)             target <= 0.5 s
    edit → PDF        the edition's PDF in the build folder is the new one                 target <= 1.5 s
    warm Typst        the floor of edit → PDF: the same book's Typst source compiled again by the
                      warm compiler alone, after the edit (and, beside it, a fresh compile)
    build, one source `lawbook build` in a fresh process after one changed source, / the full
                      build (ratios.py measures the same on its own; here beside the watch times)  <= 0.4

The watch times are taken with the real watcher (serve.watch_sources: the file events, the
rebuild, the publishing) running in this process on a scratch copy of the book, one edit at a time
(a sentence added to the last source, as the benchmark's "one source" does, different each time), the
median of RUNS edits.
"""
import argparse
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

RUNS = 5
TARGETS = {"edit_to_page": 0.5, "edit_to_pdf": 1.5, "one_source_vs_full": 0.4}


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _wait_for(test, timeout: float = 60.0) -> float:
    """Poll `test` every millisecond; the time.perf_counter() at which it first held."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if test():
            return time.perf_counter()
        time.sleep(0.001)
    raise SystemExit("bench: watch mode did not rebuild within a minute")


def _changed_page(out: Path, before: dict[str, str]) -> str | None:
    """A page of the site whose bytes differ from `before` ({path: sha256}), or None."""
    for path, sha in before.items():
        if _sha(out / path) != sha:
            return path
    return None


def bench_watch(src: Path, folder: Path, runs: int = RUNS) -> dict:
    """The watch times on the book in `src` (scratch files in `folder`): {"measured": seconds, "ratios",
    "targets"}. Each measurement follows one edit of its own (_edit)."""
    from .. import serve
    from ..publish import watch
    from . import ratios

    out = folder / "build"
    session = watch.Session(src, out)
    first = session.rebuild()
    if not first.ok:
        raise SystemExit(f"bench: the book does not build: {first.error}")
    live = serve.LiveState()
    stop = threading.Event()
    thread = threading.Thread(target=serve.watch_sources, args=(session, live, stop, lambda outcome: None),
                              daemon=True)
    thread.start()
    time.sleep(0.5)  # the watcher is listening
    to_page, to_pdf, warm, fresh = [], [], [], []
    try:
        for run in range(runs):
            pages = {p.relative_to(out).as_posix(): _sha(p) for p in (out / "html").glob("*/*.html")}
            pdfs = {p: _sha(p) for p in (out / "pdf").glob("*.pdf")}
            version = live.version
            start = time.perf_counter()
            _edit(src, run)
            seen = _wait_for(lambda: live.version != version)
            page = _changed_page(out, pages)
            if page is None or not live.view["ok"]:
                raise SystemExit(f"bench: edit {run + 1} changed no page: {live.view}")
            to_page.append(seen - start)
            changed = _wait_for(lambda: any(_sha(p) != sha for p, sha in pdfs.items()))
            to_pdf.append(changed - start)
            typ = next(p for p in sorted((out / "pdf").glob("*.typ")) if _sha(p.with_suffix(".pdf")) != pdfs.get(p.with_suffix(".pdf")))
            warm.append(_warm_compile(session, typ, folder))
            fresh.append(_fresh_compile(typ, folder))
    finally:
        stop.set()
        thread.join(10)
        session.close()
    measured = {"edit_to_page": statistics.median(to_page), "edit_to_pdf": statistics.median(to_pdf),
                "warm_typst": statistics.median(warm), "fresh_typst": statistics.median(fresh)}
    measured["full"] = ratios.median_of(lambda: [ratios.lawbook(src, folder / "cold", "--force")], 3)
    edits = iter(range(runs, runs + 3))
    measured["one_source"] = ratios.median_of(lambda: [ratios.lawbook(src, folder / "cold")], 3,
                                              before=lambda: _edit(src, next(edits)))
    result = {"measured": measured, "ratios": {"one_source_vs_full": measured["one_source"] / measured["full"]},
              "targets": TARGETS}
    return result


# Each edit adds words no earlier edit added (the same sentence twice is read as a repetition).
EDIT_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]


def _edit(src: Path, run: int) -> None:
    """Add a sentence to a paragraph line in the second half of the last source in the manifest,
    different at every run."""
    from ..reading import manifest

    path = src / manifest.load_manifest(src)[-1].name
    data = path.read_bytes()
    encoding = "utf-8"
    try:
        lines = data.decode(encoding).split("\n")
    except UnicodeDecodeError:  # the English book's extraction is cp1252
        encoding = "cp1252"
        lines = data.decode(encoding).split("\n")
    # From the middle of the file on: a book in one file starts with front matter that is not law text.
    for k in range(len(lines) // 2, len(lines)):
        line = lines[k]
        if len(line) > 40 and line.rstrip().endswith(".") and not line.lstrip()[:1].isdigit():
            lines[k] = line.rstrip() + f" Then {' '.join(EDIT_WORDS[:run % len(EDIT_WORDS) + 1])} applies."
            break
    path.write_bytes("\n".join(lines).encode(encoding))


def _warm_compile(session, typ: Path, folder: Path) -> float:
    """Seconds the session's warm compiler of this book takes to compile `typ` again (it compiled it last)."""
    from ..outputs import pdf

    compiler = session.compilers.get(typ.stem.removeprefix("spelregels-"))
    if compiler is None:
        return float("nan")
    start = time.perf_counter()
    compiler.start(typ, folder / "warm.pdf", pdf.build_timestamp([]))
    compiler.finish(typ.stem)
    return time.perf_counter() - start


def _fresh_compile(typ: Path, folder: Path) -> float:
    """Seconds a fresh process takes to import typst and compile `typ` (the build's compile child)."""
    from . import ratios

    return ratios.run_timed([[sys.executable, "-c", ratios.BARE_TYPST, str(typ)]])[0]


def table(result: dict) -> str:
    m, r = result["measured"], result["ratios"]
    lines = ["", f"Watch mode (serve --watch) on {result.get('book', 'the book')}: an edit of one source, median of the edits", "",
             f"  edit → page rewritten, pages told   {m['edit_to_page']:6.2f} s   target <= {TARGETS['edit_to_page']} s",
             f"  edit → PDF rewritten                {m['edit_to_pdf']:6.2f} s   target <= {TARGETS['edit_to_pdf']} s",
             f"    floor: warm Typst recompile       {m['warm_typst']:6.2f} s   (a fresh Typst process: {m['fresh_typst']:.2f} s)",
             f"  lawbook build, one changed source   {m['one_source']:6.2f} s   / full build {m['full']:.2f} s = "
             f"{r['one_source_vs_full']:.2f}   target <= {TARGETS['one_source_vs_full']}", ""]
    return "\n".join(lines)


def _prepare(book: str, folder: Path) -> tuple[Path, str]:
    """A scratch copy of `book` ("sources", "english", or a number of articles: a generated book in two
    editions)."""
    from . import generate

    src = folder / "src"
    if book == "english":  # the whole English book beside the project (copyrighted: never in it), one source
        whole = Path(__file__).resolve().parents[3] / "shared" / "english" / "laws2017-en.txt"
        src.mkdir()
        shutil.copyfile(whole, src / "book.txt")
        (src / "sources.toml").write_text('language = "en"\n\n[[source]]\nfile = "book.txt"\nedition = "2017"\n',
                                          encoding="utf-8")
        return src, "the whole English book"
    if book == "sources":
        shutil.copytree(Path(__file__).resolve().parents[2] / "sources", src)
        return src, "the five sources"
    generate.generate(src, articles=int(book), editions=2, seed=1)
    return src, f"{book} articles, 2 editions"


def bench_book(book: str, runs: int = RUNS) -> dict:
    """bench_watch on a scratch copy of `book` ("sources", "english" or a number of articles)."""
    with tempfile.TemporaryDirectory(prefix="lawbook-bench-watch-") as tmp:
        src, label = _prepare(book, Path(tmp))
        print(f"bench: watch mode on {label} …", file=sys.stderr)
        result = bench_watch(src, Path(tmp), runs)
    result["book"] = label
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.watch", description=__doc__.split("\n")[0])
    parser.add_argument("--book", default="93", help="'sources', 'english' or a number of articles (two editions)")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--json", help="also write the result to this file")
    args = parser.parse_args(argv)
    result = bench_book(args.book, args.runs)
    print(table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
