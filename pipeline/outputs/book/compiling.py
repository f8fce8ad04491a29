"""Compiling the PDF edition: Typst source to PDF/A-2b, each book in a Python process of its own
(Compiles, compile_books), as many side by side as the machine's memory allows (parallel_limit,
/proc/meminfo), dated by its sources (build_timestamp: SOURCE_DATE_EPOCH, else git's dates) and
marked by their digest (sources_digest); a compiled book is made to open with its bookmarks shown
(open_with_bookmarks, bookmarks.py).

Reads: Typst sources (files), the sources' dates and bytes. Writes: the PDFs the books name.
"""
import contextlib
import datetime
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import IO, TYPE_CHECKING

import typst

from ...core.errors import LawbookError, write_failure
from .bookmarks import open_with_bookmarks

if TYPE_CHECKING:
    from typst import PDFStandard  # (declared by the package's stubs only)

PDF_STANDARDS: "list[PDFStandard]" = ["a-2b"]

# Editions compile side by side while the memory their compilers take stays under what the machine
# has: the compiler takes roughly 1 MB of memory per 1,000 characters of source (measured: a
# 523,000-character front 0.4 GB, a 290,000-character part 0.2 GB), and together they may take half
# of the memory available when the build starts (/proc/meminfo), never less than
# PARALLEL_SOURCE_LIMIT characters: two books of 93 articles (700,000 characters) always compile
# together, two books in parts when the machine has about 2 GB free.
PARALLEL_SOURCE_LIMIT = 1_000_000
BYTES_PER_SOURCE_CHARACTER = 1000
# LAWBOOK_PDF_MEMORY_MB=N sets what the compilers running at once may take instead (a machine shared
# with other work, a container's limit): at 930 articles x 2, 300 keeps one compiler at a time.
MEMORY_VARIABLE = "LAWBOOK_PDF_MEMORY_MB"


def parallel_limit(meminfo: str | PathLike[str] = "/proc/meminfo", environ: Mapping[str, str] = os.environ) -> int:
    """The characters of Typst source the compilers running at once may hold (see above); one book
    always compiles, however heavy."""
    budget = environ.get(MEMORY_VARIABLE)
    if budget is not None:
        if not budget.strip().isdigit() or int(budget) == 0:
            raise LawbookError(f"{MEMORY_VARIABLE} is {budget!r}, not a number of megabytes", status=2,
                               fix=f"set {MEMORY_VARIABLE} to a whole number above 0 (e.g. 300), or unset it to "
                                   "let the compilers take up to half of the memory available")
        return int(budget) * 1_000_000 // BYTES_PER_SOURCE_CHARACTER
    try:
        with open(meminfo, encoding="ascii") as f:
            available = next(int(line.split()[1]) * 1024 for line in f if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return PARALLEL_SOURCE_LIMIT
    return max(PARALLEL_SOURCE_LIMIT, available // 2 // BYTES_PER_SOURCE_CHARACTER)


def build_timestamp(source_paths: Iterable[str | PathLike[str]],
                    environ: Mapping[str, str] = os.environ) -> datetime.datetime:
    """A book's date, the date of its sources (never the day of the build): SOURCE_DATE_EPOCH when
    set, else the newest date of `source_paths` (one edition's sources), each file's date being
    its last commit when git holds it unchanged (a fresh clone gives every file the day of the
    clone as its modification time), else its modification time. The same sources give the same
    date, so the PDF bytes repeat, and an edition whose sources did not change keeps its date.
    The title page and the colophon print it."""
    epoch = environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        if not epoch.strip().isdigit():
            raise LawbookError(f"SOURCE_DATE_EPOCH is {epoch!r}, not a number of seconds since 1970",
                               fix="set SOURCE_DATE_EPOCH to whole seconds (e.g. `date +%s`), or unset it "
                                   "to date the book by its sources", status=2)
        seconds = int(epoch)
    else:
        paths = [Path(p) for p in source_paths]
        committed = _commit_dates(paths)
        seconds = max((committed.get(p.name) or int(p.stat().st_mtime) for p in paths), default=0)
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


# The colophon's digest of the sources: this many hexadecimal digits of the SHA-256 (48 bits, as a short
# commit name; the file names of the sources are 16 digits, and no 16 stand together in the colophon).
SOURCES_DIGEST_DIGITS = 12


def sources_digest(source_paths: "list[Path] | tuple[Path, ...]") -> str:
    """The digest of one edition's sources that the colophon prints: the SHA-256 of what `sha256sum` writes for
    the files sorted by name (a line "<the file's SHA-256>  <its name>" each), its first SOURCES_DIGEST_DIGITS
    digits. Anyone can check it in the sources folder: `sha256sum FILE… | sha256sum` (the edition's files of
    sources.toml, in the order of their names). The same bytes give the same digest, whatever their dates."""
    lines = []
    for path in sorted((Path(p) for p in source_paths), key=lambda p: p.name):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n")
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()[:SOURCES_DIGEST_DIGITS]


def _commit_dates(paths: list[Path]) -> dict[str, int]:
    """{file name: seconds of the last commit that changed it} for the files of `paths` that git holds
    unchanged in their folder's repository; {} without git or a repository. One folder (the sources)."""
    folders = {p.parent for p in paths}
    if len(folders) != 1:
        return {}
    folder, names = folders.pop(), [p.name for p in paths]

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(folder), *args, "--", *names], capture_output=True,
                                  timeout=30, env=dict(os.environ, GIT_OPTIONAL_LOCKS="0"))
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None

    status = git("status", "--porcelain", "-z", "--untracked-files=all")
    # Newest commit first: \x01 and its time, then the names it changed, each ended by NUL.
    log = git("log", "--relative", "--no-renames", "--format=%x01%ct", "--name-only", "-z")
    if status is None or log is None:
        return {}
    changed = {entry[3:] for entry in status.split("\0") if len(entry) > 3}
    dates: dict[str, int] = {}
    seconds: int | None = None
    for field in log.split("\0"):
        field = field.strip("\n")
        if field.startswith("\x01"):
            seconds = int(field[1:])
        elif field and seconds is not None and field not in changed:
            dates.setdefault(field, seconds)
    return dates


def render_pdf(source: str, timestamp: datetime.datetime) -> bytes:
    """PDF/A-2b bytes of a Typst source, with only the fonts bundled in the compiler (no system
    fonts, no packages, no network), dated `timestamp`: equal input gives equal bytes."""
    return typst.compile(source.encode("utf-8"), timestamp=timestamp, pdf_standards=PDF_STANDARDS,
                         ignore_system_fonts=True)

# The child that compiles one book: arguments the timestamp in seconds, the Typst file, the PDF file
# to write (and for a part of a book in parts, a JSON file of its sys.inputs). When it cannot, it
# writes one line of JSON to stdout instead, {"kind": …, "message": …}, and exits with status 2: a
# compile error, or the compiler stopped (a panic, which the typst package raises as a BaseException,
# or no memory). Rust's own panic report on stderr is never shown. It asks Linux to end it with the
# process that started it (PR_SET_PDEATHSIG), so a build killed outright leaves no compiler running.
COMPILE_CHILD = """
import ctypes, datetime, json, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
except Exception:
    pass
import typst
try:
    with open(sys.argv[2], "rb") as f:
        source = f.read()
    inputs = {}
    if len(sys.argv) > 4:
        with open(sys.argv[4], encoding="utf-8") as f:
            inputs = json.load(f)
    data = typst.compile(source, pdf_standards=%r, ignore_system_fonts=True, sys_inputs=inputs,
                         timestamp=datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc))
except typst.TypstError as e:
    sys.stdout.write(json.dumps({"kind": "error", "message": e.message}))
    sys.exit(2)
except BaseException as e:
    sys.stdout.write(json.dumps({"kind": type(e).__name__, "message": str(e)}))
    sys.exit(2)
try:
    with open(sys.argv[3], "wb") as f:
        f.write(data)
except OSError as e:  # a full disk or the file-size limit: the parent names the file (core.errors.write_failure)
    sys.stdout.write(json.dumps({"kind": "OSError", "errno": e.errno, "path": sys.argv[3], "message": str(e)}))
    sys.exit(2)
""" % (PDF_STANDARDS,)

# The process that compiles a book in parts and joins them (pdf_parts.main), this package first on its path.
PARTS_CHILD = (f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[3])!r}); "
                "from pipeline.outputs import pdf_parts; sys.exit(pdf_parts.main(sys.argv[1:]))")


def _compile_failure(returncode: int, output: bytes, edition_id: str | None) -> LawbookError:
    """The one message for a compile child that did not give a PDF (see COMPILE_CHILD). Text the
    compiler is known to refuse was reported at its source line before (unprintable), so what is
    left is a fault of the templates or of the compiler."""
    book = f"the PDF edition {edition_id}" if edition_id else "the PDF edition"
    fix = "build without the PDF (--no-pdf) and report this with the sources; the other outputs do not need it"
    memory = "build with more memory, or without the PDF (--no-pdf)"
    if returncode == 2:
        try:
            failure = json.loads(output.decode("utf-8", "replace"))
        except ValueError:
            failure = {"kind": "error", "message": output.decode("utf-8", "replace")}
        kind = failure.get("kind")
        written = write_failure(failure.get("errno"), failure.get("path")) if kind == "OSError" else None
        if written is not None:  # no room for the PDF: the disk or the limit, not the templates
            return written
        message = " ".join(str(failure.get("message", "")).split())[:300] or kind
        if kind == "error":
            return LawbookError(f"{book} did not compile: {message}", file="templates/pdf/", status=1, fix=fix)
        if kind == "MemoryError":
            return LawbookError(f"the PDF compiler ran out of memory while setting {book}", file="templates/pdf/",
                                status=1, fix=memory)
        return LawbookError(f"the PDF compiler stopped while setting {book}: {message}", file="templates/pdf/",
                            status=1, fix=fix)
    if returncode < 0:
        try:
            cause = signal.Signals(-returncode).name
        except ValueError:
            cause = f"signal {-returncode}"
        return LawbookError(f"the PDF compiler was stopped by {cause} while setting {book} (out of memory?)",
                            file="templates/pdf/", status=1, fix=memory)
    return LawbookError(f"the PDF compiler ended with exit status {returncode} while setting {book}",
                        file="templates/pdf/", status=1, fix=fix)


@dataclass
class Book:
    """One book to compile: its Typst file (or, in parts, the plan pdf_parts reads), the PDF to write,
    its date, its edition, and its weight: the characters of Typst source one compiler holds at a time
    (the whole book, or its largest part)."""
    typ: Path
    out: Path
    timestamp: datetime.datetime
    name: str | None
    weight: int
    parts: bool = False


class Compiles:
    """Books being compiled, each in a Python process of its own: the compiler keeps every layout it
    made in memory until its process ends, so one long-lived process would hold every book compiled
    so far. Books start side by side while their weights together stay under `limit` (parallel_limit;
    one always starts); the others start as earlier ones end (wait). kill() stops and reaps every
    child: a build that fails leaves none running."""

    def __init__(self, books: Iterable[Book], limit: int | None = None) -> None:
        self.queue = list(books)
        self.running: list[tuple[Book, subprocess.Popen[bytes], IO[bytes]]] = []  # (book, process, the file its answer goes to)
        self.limit = parallel_limit() if limit is None else limit
        self._start_allowed()

    def _start_allowed(self) -> None:
        while self.queue:
            weight = sum(book.weight for book, _, _ in self.running)
            if self.running and weight + self.queue[0].weight > self.limit:
                return
            book = self.queue.pop(0)
            if book.parts:  # one process compiles the parts one by one and joins them
                argv = [sys.executable, "-c", PARTS_CHILD, str(book.typ)]
            else:
                argv = [sys.executable, "-c", COMPILE_CHILD, str(int(book.timestamp.timestamp())), str(book.typ),
                        str(book.out)]
            answer = tempfile.TemporaryFile()
            process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=answer, stderr=subprocess.DEVNULL,
                                       env=dict(os.environ, RUST_BACKTRACE="0"))
            self.running.append((book, process, answer))

    def wait(self) -> None:
        """Wait for every book, in order; raise the first failure's one message (LawbookError, status 1)."""
        while self.running:
            book, process, answer = self.running[0]
            returncode = process.wait()
            self.running.pop(0)
            try:
                if returncode != 0:
                    answer.seek(0)
                    raise _compile_failure(returncode, answer.read(), book.name)
            finally:
                answer.close()
            self._start_allowed()

    def kill(self) -> None:
        self.queue = []
        for _, process, answer in self.running:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait()
            answer.close()
        self.running = []


def compile_books(books: Sequence[tuple[str, datetime.datetime]],
                  names: Sequence[str | None] | None = None) -> list[bytes]:
    """PDF bytes of each (Typst source, timestamp) in `books`, in order: the same bytes as
    render_pdf, each compiled in a process of its own (Compiles). A book that does not compile
    raises one LawbookError (status 1) naming the edition in `names`."""
    names = names or [None] * len(books)
    with tempfile.TemporaryDirectory(prefix="lawbook-pdf-") as folder:
        planned: list[Book] = []
        for k, ((source, timestamp), name) in enumerate(zip(books, names)):
            typ = Path(folder) / f"{k}.typ"
            typ.write_text(source, encoding="utf-8")
            planned.append(Book(typ, Path(folder) / f"{k}.pdf", timestamp, name, len(source)))
        compiles = Compiles(planned)
        try:
            compiles.wait()
        finally:
            compiles.kill()
        return [book.out.read_bytes() for book in planned]


def compile_failure(returncode: int, output: bytes, edition_id: str) -> LawbookError:
    """The build's one message for a compile that gave no PDF, for compilers outside this module that
    answer as the compile child does (watch mode's warm compilers, publish/watch.py)."""
    return _compile_failure(returncode, output, edition_id)
