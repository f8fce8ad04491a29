"""Watch mode's warm state: one process that rebuilds the book each time a source changes.

`lawbook serve --watch` (pipeline/serve.py) holds one Session for the life of the process. A
rebuild is the build itself (run.build), so the folder it leaves is byte for byte what a full build
writes, with the same guarantees: the target must be the build's own (outdir.py), a failed rebuild
leaves the previous build exactly as it was. What the process keeps warm between rebuilds:

  - the imported stages and their libraries, and the code version (cache.code_version);
  - the cached reading of each source (cache.py: an unchanged source is not read again) and the
    previous build's outputs of an unchanged edition (run.reuse_edition, html.PreviousBuild), and of
    each page whose key is unchanged (outputs/keyed.py);
  - the memos of the corpus stages and the comparison (core/memo.py, switched on for the session): a
    source's repair, structure and references, and an article pair's comparison, made again only
    where what they were made from changed;
  - a Typst compiler per book, each in a process of its own that lives as long as the session
    (WarmCompiler): Typst keeps what it laid out, so a book with one changed word is compiled again
    in a fraction of a fresh compile's time.

A rebuild's Outcome says which files of the build changed (from the sha256 each build records in
its marker), for the server to tell the open pages, or the error that stopped it (file, line, fix).
The first good rebuild after a failed one has `recovered` set: the terminal says so, and the failed
build's report folder (<out>.failed/) is removed where this session's failed build wrote it (its
marker's id and process are the ones the failure left; a folder lawbook did not write is never
removed, outdir.discard).
"""
import datetime
import json
import os
import stat
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import cache, outdir
from ..core import memo
from ..core.errors import BuildFailed, LawbookError
from ..core.options import Options

if TYPE_CHECKING:
    import threading

# The process that holds one book's compiler: it reads one request per line on stdin, {"typ": file,
# "out": file, "timestamp": seconds}, compiles the file with its kept typst.Compiler (the arguments of
# compiling.COMPILE_CHILD, so the bytes are the same), writes the PDF and answers one line of JSON on
# stdout: {"ok": true}, or the failure in _COMPILE_CHILD's form. It ends with the session (its stdin
# closes) or with the process that started it (PR_SET_PDEATHSIG).
_WARM_CHILD = """
import ctypes, datetime, json, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
except Exception:
    pass
import typst
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
        self.process: subprocess.Popen | None = None

    def start(self, typ: Path, out: Path, timestamp: datetime.datetime) -> None:
        """Send one book to compile; its answer is read by finish()."""
        from ..outputs.book import compiling

        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WARM_CHILD % (compiling.PDF_STANDARDS,)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, RUST_BACKTRACE="0"),
                text=True)
        request = {"typ": str(typ), "out": str(out), "timestamp": int(timestamp.timestamp())}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()

    def finish(self, name: str | None) -> None:
        """Wait for the book sent last; raise the build's one message when it did not compile."""
        from ..outputs.book import compiling

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
                stream.close()
            self.process = None


class WarmCompiles:
    """What pdf.Compiles is to the build (wait, kill), with each whole book sent to its edition's
    WarmCompiler; a book in parts (pdf_parts, far larger than a real edition) is compiled as a full
    build compiles it."""

    def __init__(self, compilers: dict[str, WarmCompiler], books: list) -> None:
        from ..outputs.book import compiling

        self.sent = []
        for book in books:
            if not book.parts:
                compiler = compilers.setdefault(book.name, WarmCompiler())
                compiler.start(book.typ, book.out, book.timestamp)
                self.sent.append((book, compiler))
        self.parts = compiling.Compiles([book for book in books if book.parts])

    def wait(self) -> None:
        while self.sent:
            book, compiler = self.sent.pop(0)
            compiler.finish(book.name)
        self.parts.wait()

    def kill(self) -> None:
        """A failed build: a compile still under way would write into a folder about to be removed, so
        its process is stopped (the next rebuild starts it again, cold)."""
        for _, compiler in self.sent:
            compiler.stop()
        self.sent = []
        self.parts.kill()


@dataclass
class Outcome:
    """What one rebuild did. `changed`: the files of the build (paths below it) that were added, changed
    or removed; `error`: what stopped it ({"message", "file", "line", "fix"}), the previous build left as
    it was; `generation`: counts the rebuilds that changed the build."""
    ok: bool
    seconds: float
    generation: int
    changed: list[str] = field(default_factory=list)
    error: dict | None = None
    skipped: bool = False
    recovered: bool = False  # the first good rebuild (or nothing to build) after a failed one

    def view(self) -> dict:
        """The outcome as the open pages are told it (JSON): the pages of the site that changed."""
        pages = [path for path in self.changed if path.startswith("html/") and path.endswith(".html")]
        return {"ok": self.ok, "generation": self.generation, "changed": pages, "error": self.error}


def error_view(error: LawbookError) -> dict:
    """What stopped a rebuild, for the terminal and the panel (serve.py): the first of a failed build's
    errors (its file and line) or the error itself, with the fix and how many errors there are; for a
    failed build, `report`, its whole report (<out>.failed/report.txt)."""
    if isinstance(error, BuildFailed) and error.errors:
        first = error.errors[0]
        return {"message": first.message, "file": first.file, "line": first.line,
                "fix": "correct the source at this line; the full report is " + str(error.report),
                "count": len(error.errors), "report": str(error.report)}
    return {"message": error.message, "file": error.file, "line": error.line, "fix": error.fix, "count": 1}


def origins(folder: Path) -> dict[str, str]:
    """Each listed source's origin (the manifest's `origin`), by file name, as far as the manifest reads;
    {} where it does not (a broken manifest is what the failed build says)."""
    from ..reading import decode, manifest

    try:
        data, _ = decode.read_regular(folder / manifest.MANIFEST, lambda kind: LawbookError(kind),
                                      decode.MAX_SOURCE_BYTES, lambda size: LawbookError(f"{size} bytes"))
        entries = tomllib.loads(data.decode("utf-8-sig")).get("source")
    except (OSError, ValueError, LawbookError):
        return {}
    return {e["file"]: e["origin"] for e in entries or [] if isinstance(e, dict) and isinstance(e.get("file"), str)
            and isinstance(e.get("origin"), str) and e["origin"]} if isinstance(entries, list) else {}


def worth_a_rebuild(path: str, listed: Collection[str] = ()) -> bool:
    """Whether a change to `path` in the sources folder may change the book: a file the manifest lists
    (`listed`), whatever its name (".verborgen.txt", "kopie.txt~"); else any file but a hidden one (an
    editor's swap file, which the build ignores as well) or an editor's backup ("file~")."""
    name = os.path.basename(path)
    return name in listed or not (name.startswith(".") or name.endswith("~"))


# -- following the sources folder --------------------------------------------------------------------
# How long (ms) the watch waits for an event before it looks at the folder itself again: what notices
# a folder replaced where no event said so. A stat per look.
LOOK_AGAIN_MS = 500
# A burst of events is one rebuild: events are grouped until STEP_MS pass without one, at most DEBOUNCE_MS.
DEBOUNCE_MS = 400
STEP_MS = 30


def folder_identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of the folder the path names now (a link followed), or None when it names none."""
    try:
        info = os.stat(folder)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


class ListedNames:
    """The file names sources.toml lists, read again whenever the manifest changed (by its stat): every
    listed source is watched, whatever its name. A manifest that does not read lists none here (the
    rebuild it causes says why)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.seen: tuple[int, ...] | None = None
        self.names: frozenset[str] = frozenset()

    def __call__(self) -> frozenset[str]:
        from ..reading import decode, manifest

        path = self.folder / manifest.MANIFEST
        try:
            info = os.stat(path)
        except OSError:
            return frozenset()
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        if key != self.seen:
            self.seen, self.names = key, frozenset()
            try:  # a regular file only, never a pipe that would block (decode.read_regular)
                data, _ = decode.read_regular(path, lambda kind: LawbookError(kind), decode.MAX_SOURCE_BYTES,
                                              lambda size: LawbookError(f"{size} bytes"))
                entries = tomllib.loads(data.decode("utf-8-sig")).get("source")
            except (OSError, ValueError, LawbookError):
                return self.names
            if isinstance(entries, list):
                self.names = frozenset(e["file"] for e in entries if isinstance(e, dict) and isinstance(e.get("file"), str))
        return self.names


def _nearest_folder(path: Path) -> Path:
    """`path`, or the nearest folder above it that exists."""
    while folder_identity(path) is None and path.parent != path:
        path = path.parent
    return path


def source_changes(sources_dir: str | os.PathLike[str], stop: "threading.Event",
                   missed: Callable[[], bool] = lambda: False, look_again_ms: int = LOOK_AGAIN_MS) -> Iterator[list[str]]:
    """Each burst of changes that may change the book, as the paths that changed, until `stop` is set.

    The sources folder is followed by its path, never by the folder it was when watching began: the
    file events (watchfiles: inotify on Linux) come from the folder and from the folder above it, both
    watched without their subfolders (the build reads none). When the path stops naming the folder
    watched (the folder deleted, replaced by a rename, `mv sources.new sources`, a link changed), which
    an event of the folder above says or a look at the path every `look_again_ms` shows, the watch starts
    again on what the path names now, or, while it names nothing, on the nearest folder above that
    exists; once the new watch is in place, the folder's path is given as one change, so the rebuild
    sees the folder as it then is (a deleted folder: "the sources folder does not exist"; a new one: its
    files). So does the first watch when `missed()` says the inputs changed before it was in place
    (Session.missed: an edit, or the folder deleted, between the last rebuild and the watch). A file the
    manifest lists starts a rebuild whatever its name (worth_a_rebuild)."""
    import watchfiles

    folder = Path(os.path.abspath(sources_dir))
    listed = ListedNames(folder)
    announce: bool | None = None  # a new watch: one change once it is in place (None: if missed() says so)
    while not stop.is_set():
        identity = folder_identity(folder)
        paths = [folder, folder.parent] if identity else [_nearest_folder(folder.parent)]
        try:
            for batch in watchfiles.watch(*dict.fromkeys(paths), watch_filter=None, recursive=False,
                                          stop_event=stop, debounce=DEBOUNCE_MS, step=STEP_MS,
                                          rust_timeout=look_again_ms, yield_on_timeout=True, raise_interrupt=False):
                changed = [Path(path) for _, path in batch]
                if folder_identity(folder) != identity or any(p == folder or p in folder.parents for p in changed):
                    announce = True  # the path names another folder now, or none: watch it anew
                    break
                names = listed()
                found = sorted(str(p) for p in changed if p.parent == folder and worth_a_rebuild(str(p), names))
                if announce is None:
                    announce = missed()
                if announce:
                    found = [str(folder), *found]
                announce = False
                if found:
                    yield found
            else:  # the watch ended: `stop` was set, or Ctrl-C (SIGINT, which watchfiles hands back as an end)
                return
        except OSError:  # a folder to watch went away as the watch started: look again
            announce = True
            stop.wait(look_again_ms / 1000)


def changed_files(before: dict | None, after: dict | None) -> list[str]:
    """The files whose recorded sha256 differs between two build markers (outdir.read_marker), sorted."""
    old = (before or {}).get("files") or {}
    new = (after or {}).get("files") or {}
    return sorted(path for path in old.keys() | new.keys() if old.get(path) != new.get(path))


class Session:
    """The warm state of watch mode for one sources folder and one build folder (see the module's doc)."""

    def __init__(self, sources_dir, out_dir, options=None) -> None:
        self.sources_dir = Path(sources_dir)
        self.out_dir = Path(out_dir)
        self.options = Options.of(options)
        self.compilers: dict[str, WarmCompiler] = {}
        self.generation = 0
        self.last: Outcome | None = None
        self.seen: str | None = None  # the digest of the inputs the last rebuild began with
        self.failing = False  # the last rebuild that did something failed: the next good one recovers
        self.failed_id: str | None = None  # the marker id of the <out>.failed/ this session's failed build wrote
        memo.keep()  # the corpus stages' and the comparison's memos (core/memo.py): this process builds again

    def _compiles(self, books: list) -> WarmCompiles:
        return WarmCompiles(self.compilers, books)

    def rebuild(self) -> Outcome:
        """Build again if the inputs changed since the build in out_dir. Raises nothing but an interrupt:
        a failed build (or a bug in it) is an Outcome with its error, and out_dir is left as it was."""
        from . import run

        start = time.perf_counter()
        self.seen = cache.input_digest(self.sources_dir, self.options)
        if cache.up_to_date(self.sources_dir, self.out_dir, self.options):
            # Nothing to build (an editor's save without a change, or an edit undone): the build on
            # screen is the sources' own, so an error shown for an earlier edit is cleared.
            recovered = self._recover()
            self.last = Outcome(True, time.perf_counter() - start, self.generation, skipped=True, recovered=recovered)
            return self.last
        before = outdir.read_marker(self.out_dir)
        failed_before = outdir.read_marker(self.failed_dir)
        try:
            run.build(self.sources_dir, self.out_dir, self.options, compiles=self._compiles)
        except LawbookError as e:
            self._failed(failed_before)
            error = error_view(e)
            if error.get("file") in (names := origins(self.sources_dir)):
                error["origin"] = names[error["file"]]
            self.last = Outcome(False, time.perf_counter() - start, self.generation, error=error)
            return self.last
        except Exception as e:  # a bug: watching goes on (the build left out_dir as it was) and says so
            self._failed(failed_before)
            error = {"message": f"{type(e).__name__}: {e}", "file": None, "line": None, "count": 1,
                     "fix": "this is a bug in the pipeline: run `lawbook build --debug` and report what it shows"}
            self.last = Outcome(False, time.perf_counter() - start, self.generation, error=error)
            return self.last
        changed = changed_files(before, outdir.read_marker(self.out_dir))
        if set(changed) - {cache.STAMP}:  # the stamp alone (its record of file times): nothing to show anew
            self.generation += 1
        recovered = self._recover()
        self.last = Outcome(True, time.perf_counter() - start, self.generation, changed=changed, recovered=recovered)
        return self.last

    @property
    def failed_dir(self) -> Path:
        """Where a failed build writes its report: <out>.failed/, beside the build (run.build)."""
        return self.out_dir.with_name(self.out_dir.name + ".failed")

    def _failed(self, before: dict | None) -> None:
        """A rebuild failed: remember the <out>.failed/ it wrote, if it wrote one (its marker new since
        `before`, made by this process)."""
        self.failing = True
        marker = outdir.read_marker(self.failed_dir)
        if (marker is not None and marker.get("pid") == os.getpid() and marker.get("id")
                and marker.get("id") != (before or {}).get("id")):
            self.failed_id = marker["id"]

    def _recover(self) -> bool:
        """After a failed rebuild, the build is good again: remove the <out>.failed/ this session's failed
        build wrote (only that one: its marker still the one it left; outdir.discard removes nothing the
        build did not write). Whether this rebuild is the one that recovered."""
        if not self.failing:
            return False
        marker = outdir.read_marker(self.failed_dir)
        if self.failed_id is not None and marker is not None and marker.get("id") == self.failed_id:
            outdir.discard(self.failed_dir)
        self.failing, self.failed_id = False, None
        return True

    def missed(self) -> bool:
        """Whether the inputs are not those the last rebuild began with: a change no watch saw."""
        return cache.input_digest(self.sources_dir, self.options) != self.seen

    def close(self) -> None:
        for compiler in self.compilers.values():
            compiler.stop()
        self.compilers.clear()
        memo.clear_all()
        memo.keep(False)
