"""Watch mode's times (`make bench`; `python -m pipeline.bench.watch --book 93` alone): what an editor waits
for between saving a source and seeing it, measured over HTTP from the watch server, as a browser sees it.

    edit → page       the open article page, asked for again when the server's events say it is ready
                      ("page"), holds the new words (served from the overlay, before the whole
                      rebuild is in place)                                                 target <= 0.5 s
    edit → PDF        /pdf/<book>.pdf, asked for when the events say "pdf", is the new book  target <= 1.5 s
    edit → all        the events say "all": the whole build is in place (build/ as a full build writes it)
    warm Typst        the floor of edit → PDF: the same book's Typst source compiled again by the
                      warm compiler alone, after the edit (and, beside it, a fresh compile)
    build, one source `lawbook build` in a fresh process after one changed source, / the full
                      build (ratios.py measures the same on its own; here beside the watch times)  <= 0.4

The watch times are taken with the real watcher and server (watch_server.watch_sources, watch_server.make_watch_server:
the file events, the rebuild, the overlay, the events) running in this process on a scratch copy of the
book, one edit at a time (a sentence added to a paragraph of the last source, as the benchmark's "one
source" does, different each time), the median of RUNS edits. A first edit, not measured, finds the
article page the edits change; that page is then open (its event stream says so, as a browser's does).
"""
import argparse
import hashlib
import http.client
import json
import queue
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..publish.watch import Session

RUNS = 5
TARGETS = {"edit_to_page": 0.5, "edit_to_pdf": 1.5, "one_source_vs_full": 0.4}


def _sha(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None


class Events:
    """The watch server's event stream as a page holds it open (`page` its path below html/): each event as
    (time.perf_counter() when it arrived, its name, its data) in `seen`."""

    def __init__(self, port: int, page: str = "") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.conn.request("GET", "/__lawbook/events" + (f"?page={page}" if page else ""))
        self.answer = self.conn.getresponse()
        self.seen: "queue.Queue[tuple[float, str, dict[str, Any]]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name = "message"
        try:
            for raw in self.answer.fp:
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    self.seen.put((time.perf_counter(), name, json.loads(line[6:])))
        except (OSError, ValueError):
            pass

    def until(self, test: Callable[[str, dict[str, Any]], object],
              timeout: float = 120.0) -> tuple[float, str, dict[str, Any]]:
        """The first event (time, name, data) for which test(name, data) holds."""
        end = time.perf_counter() + timeout
        while True:
            left = end - time.perf_counter()
            if left <= 0:
                raise SystemExit("bench: watch mode did not answer within two minutes")
            at, name, data = self.seen.get(timeout=left)
            if test(name, data):
                return at, name, data

    def close(self) -> None:
        self.conn.close()


def _get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def bench_watch(src: Path, folder: Path, runs: int = RUNS) -> dict[str, Any]:
    """The watch times on the book in `src` (scratch files in `folder`): {"measured": seconds, "ratios",
    "targets"}. Each measurement follows one edit of its own (_edit)."""
    from .. import watch_server
    from ..core import lang
    from ..publish import watch
    from ..reading import manifest
    from . import ratios

    out = folder / "build"
    session = watch.Session(src, out)
    first = session.rebuild()
    if not first.ok:
        raise SystemExit(f"bench: the book does not build: {first.error}")
    live = watch_server.LiveState(session.overlay)
    live.publish(first.view())
    server = watch_server.make_watch_server(out / "html", live, lang.profile(manifest.load_manifest(src).language), 0,
                                     quiet=True)
    port = server.server_address[1]
    stop = threading.Event()
    threads = [threading.Thread(target=server.serve_forever, daemon=True),
               threading.Thread(target=watch_server.watch_sources, args=(session, live, stop, lambda outcome: None),
                                daemon=True)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the watcher is listening
    to_page: list[float] = []
    to_pdf: list[float] = []
    to_all: list[float] = []
    warm: list[float] = []
    fresh: list[float] = []
    events = Events(port)
    try:
        events.until(lambda name, data: name == "state")
        _edit(src, runs)  # not measured: which page do the edits change?
        _, _, data = events.until(lambda name, data: name in ("page", "all", "state") and (data.get("pages") or data.get("error")))
        if data.get("error"):
            raise SystemExit(f"bench: the edit does not build: {data['error']}")
        page = data["pages"][0]
        events.until(lambda name, data: name == "all")
        events.close()
        events = Events(port, page)
        events.until(lambda name, data: name == "state")
        for run in range(runs):
            pdfs = {p.name: _sha(p.read_bytes()) for p in (out / "pdf").glob("*.pdf")}
            words = _words(run).encode("utf-8")
            start = time.perf_counter()
            _edit(src, run)
            shown: float | None = None
            while shown is None:  # the page asked for again each time the events say something is ready
                at, name, data = events.until(lambda name, data: name in ("page", "all", "state"))
                if data.get("error"):
                    raise SystemExit(f"bench: edit {run + 1} does not build: {data['error']}")
                if words in _get(port, "/" + page):
                    shown = time.perf_counter()
            to_page.append(shown - start)
            book: str | None = None
            while book is None:
                at, name, data = events.until(lambda name, data: name in ("pdf", "all"))
                books = list(pdfs) if name == "all" else [path.removeprefix("pdf/") for path in data.get("pdf") or []]
                for candidate in books:
                    if _sha(_get(port, f"/pdf/{candidate}")) != pdfs.get(candidate):
                        book = candidate
                        to_pdf.append(time.perf_counter() - start)
                        break
                if name == "all" and book is None:
                    raise SystemExit(f"bench: edit {run + 1} changed no PDF")
            if name != "all":
                at, _, _ = events.until(lambda name, data: name == "all")
            to_all.append(at - start)
            typ = out / "pdf" / (book.removesuffix(".pdf") + ".typ")
            warm.append(_warm_compile(session, typ, folder))
            fresh.append(_fresh_compile(typ, folder))
    finally:
        events.close()
        stop.set()
        server.stopping = True
        server.shutdown()
        server.server_close()
        threads[1].join(10)
        session.close()
    measured: dict[str, Any] = {"edit_to_page": statistics.median(to_page), "edit_to_pdf": statistics.median(to_pdf),
                "edit_to_all": statistics.median(to_all),
                "warm_typst": statistics.median(warm), "fresh_typst": statistics.median(fresh),
                "runs": {"edit_to_page": to_page, "edit_to_pdf": to_pdf, "edit_to_all": to_all}, "page": page}
    measured["full"] = ratios.median_of(lambda: [ratios.lawbook(src, folder / "cold", "--force")], 3)
    edits = iter(range(runs + 1, runs + 4))
    measured["one_source"] = ratios.median_of(lambda: [ratios.lawbook(src, folder / "cold")], 3,
                                              before=lambda: _edit(src, next(edits)))
    result = {"measured": measured, "ratios": {"one_source_vs_full": measured["one_source"] / measured["full"]},
              "targets": TARGETS}
    return result


# Each edit adds words no earlier edit added (the same sentence twice is read as a repetition).
EDIT_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]


def _words(run: int) -> str:
    """The sentence edit `run` adds (_edit)."""
    return f"Then {' '.join(EDIT_WORDS[:run % len(EDIT_WORDS) + 1])} applies."


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
            lines[k] = line.rstrip() + " " + _words(run)
            break
    path.write_bytes("\n".join(lines).encode(encoding))


def _warm_compile(session: "Session", typ: Path, folder: Path) -> float:
    """Seconds the session's warm compiler of this book takes to compile `typ` again (it compiled it last)."""
    from ..outputs.book.compiling import build_timestamp

    compiler = session.compilers.get(typ.stem.removeprefix("spelregels-"))
    if compiler is None:
        return float("nan")
    start = time.perf_counter()
    compiler.start(typ, folder / "warm.pdf", build_timestamp([]))
    compiler.finish(typ.stem)
    return time.perf_counter() - start


def _fresh_compile(typ: Path, folder: Path) -> float:
    """Seconds a fresh process takes to import typst and compile `typ` (the build's compile child)."""
    from . import ratios

    return ratios.run_timed([[sys.executable, "-c", ratios.BARE_TYPST, str(typ)]])[0]


def table(result: dict[str, Any]) -> str:
    m, r = result["measured"], result["ratios"]
    lines = ["", f"Watch mode (serve --watch) on {result.get('book', 'the book')}: an edit of one source, median of the edits", "",
             f"  edit → page served (new words)      {m['edit_to_page']:6.2f} s   target <= {TARGETS['edit_to_page']} s",
             f"  edit → PDF served (the new book)    {m['edit_to_pdf']:6.2f} s   target <= {TARGETS['edit_to_pdf']} s",
             f"  edit → all (the build in place)     {m['edit_to_all']:6.2f} s",
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


def bench_book(book: str, runs: int = RUNS) -> dict[str, Any]:
    """bench_watch on a scratch copy of `book` ("sources", "english" or a number of articles)."""
    with tempfile.TemporaryDirectory(prefix="lawbook-bench-watch-") as tmp:
        src, label = _prepare(book, Path(tmp))
        print(f"bench: watch mode on {label} …", file=sys.stderr)
        result = bench_watch(src, Path(tmp), runs)
    result["book"] = label
    return result


def main(argv: Sequence[str] | None = None) -> int:
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
