"""Watch mode's warm compilers: one Typst compiler per book in a process of its own that lives as long as the
session, so that a one-word edit recompiles in a fraction of a fresh compile (docs/watch.md, "Warm state").

Reads: a book's Typst source. Writes: its PDF, the same bytes as the build's own compile.
"""
import datetime
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..outputs.book.compiling import Book

# The folder that holds the pipeline package: the compiler's process imports bookmarks.py from it (a module
# that imports nothing of lawbook), wherever it was started.
_PROJECT = str(Path(__file__).resolve().parents[2])

# The process that holds one book's compiler: it reads one request per line on stdin, {"typ": file,
# "out": file, "timestamp": seconds}, compiles the file with its kept typst.Compiler (the arguments of
# compiling.COMPILE_CHILD, so the bytes are the same), writes the PDF (with "bookmarks": true, made to open
# with its bookmarks shown by the build's own open_with_bookmarks) and answers one line of JSON on
# stdout: {"ok": true}, or the failure in _COMPILE_CHILD's form. It ends with the session (its stdin
# closes) or with the process that started it (PR_SET_PDEATHSIG).
_WARM_CHILD = """
import ctypes, datetime, json, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
except Exception:
    pass
import typst
sys.path.insert(0, %r)
from pipeline.outputs.book.bookmarks import open_with_bookmarks
compiler = typst.Compiler(ignore_system_fonts=True)
for request in sys.stdin:
    job = json.loads(request)
    try:
        with open(job["typ"], "rb") as f:
            source = f.read()
        stamp = datetime.datetime.fromtimestamp(job["timestamp"], datetime.timezone.utc)
        data = compiler.compile(input=source, pdf_standards=%r, sys_inputs={}, timestamp=stamp)
        with open(job["out"], "wb") as f:
            f.write(data)
        if job.get("bookmarks"):  # the build's own code, here: out of the build's process
            open_with_bookmarks(job["out"])
        answer = {"ok": True}
    except typst.TypstError as e:
        answer = {"kind": "error", "message": e.message}
    except OSError as e:
        answer = {"kind": "OSError", "errno": e.errno, "path": job["out"], "message": str(e)}
    except Exception as e:
        answer = {"kind": type(e).__name__, "message": str(e)}
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
"""


class WarmCompiler:
    """One book's Typst compiler, kept in a process of its own between rebuilds (started on first use)."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def start(self, typ: Path, out: Path, timestamp: datetime.datetime, bookmarks: bool = False) -> None:
        """Send one book to compile (`bookmarks`: made to open with its bookmarks shown, in the compiler's
        process); its answer is read by finish()."""
        from ..outputs.book import compiling

        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WARM_CHILD % (_PROJECT, compiling.PDF_STANDARDS)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, RUST_BACKTRACE="0"),
                text=True)
        request = {"typ": str(typ), "out": str(out), "timestamp": int(timestamp.timestamp()), "bookmarks": bookmarks}
        assert self.process.stdin is not None  # (opened with stdin=PIPE)
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()

    def finish(self, name: str) -> None:
        """Wait for the book sent last; raise the build's one message when it did not compile."""
        from ..outputs.book import compiling

        if self.process is None or self.process.stdout is None:
            raise ValueError("finish() without a book sent by start()")
        answer = self.process.stdout.readline()
        if not answer:  # the process died (a panic, no memory): the next book starts a new one
            returncode = self.process.wait()
            self.process = None
            raise compiling.compile_failure(returncode or -9, b"", name)
        failure = json.loads(answer)
        if not failure.get("ok"):
            raise compiling.compile_failure(2, answer.encode("utf-8"), name)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
            self.process = None


class WarmCompiles:
    """What pdf.Compiles is to the build (wait, kill), with each whole book sent to its edition's
    WarmCompiler; a book in parts (pdf_parts, far larger than a real edition) is compiled as a full
    build compiles it.

    Each whole book's answer is awaited by a thread of its own, so that the book is known finished as soon
    as its compiler answers, not when the build reaches finish_pdf: `ready` is then given the book, which
    the compiler's process has made to open with its bookmarks as the build makes it (the build's own
    open_with_bookmarks after wait() then finds it done), for watch mode's overlay. `keep()` says, when the build is stopped,
    whether to let a compile under way finish (a rebuild stopped for a newer save: the compiler stays
    warm) rather than stop its process (a failed build)."""

    def __init__(self, compilers: dict[str, WarmCompiler], books: list["Book"],
                 ready: Callable[["Book"], None] | None = None, keep: Callable[[], bool] = lambda: False) -> None:
        from ..outputs.book import compiling

        self.ready, self.keep = ready, keep
        self.sent: list[tuple["Book", WarmCompiler, threading.Thread, list[BaseException]]] = []
        for book in books:
            if not book.parts:
                if book.name is None:  # (a whole book is an edition's: pdf.start_pdf names it)
                    raise ValueError(f"a book without its edition: {book.out}")
                compiler = compilers.setdefault(book.name, WarmCompiler())
                compiler.start(book.typ, book.out, book.timestamp, bookmarks=ready is not None)
                failures: list[BaseException] = []
                thread = threading.Thread(target=self._finish, args=(book, compiler, failures), daemon=True)
                thread.start()
                self.sent.append((book, compiler, thread, failures))
        self.parts = compiling.Compiles([book for book in books if book.parts])

    def _finish(self, book: "Book", compiler: WarmCompiler, failures: list[BaseException]) -> None:
        try:
            compiler.finish(str(book.name))
        except BaseException as e:  # raised by wait(), in the build's thread
            failures.append(e)
            return
        if self.ready is not None:  # the compiler made it open with its bookmarks (start's `bookmarks`)
            try:
                self.ready(book)
            except Exception:  # the build's own open_with_bookmarks says what is wrong with the file
                pass

    def settle(self) -> None:
        """Wait until each whole book is compiled (and given to `ready`), raising nothing: what failed is
        raised by wait(), at the stage that waits for the books."""
        for _, _, thread, _ in self.sent:
            thread.join()

    def wait(self) -> None:
        while self.sent:
            book, compiler, thread, failures = self.sent.pop(0)
            thread.join()
            if failures:
                raise failures[0]
        self.parts.wait()

    def kill(self) -> None:
        """A failed build: a compile still under way would write into a folder about to be removed, so
        its process is stopped (the next rebuild starts it again, cold). A build stopped for a newer save
        (keep()) waits for the compile instead, a fraction of a second, and keeps the compiler warm."""
        keep = self.keep()
        for _, compiler, thread, _ in self.sent:
            if not keep:
                compiler.stop()
            thread.join()
        self.sent = []
        self.parts.kill()
