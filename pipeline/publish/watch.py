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

What an editor looks at comes first (Session.rebuild with `on_step`): once the corpus is made, the pages
open in a browser (or the edited articles') are rendered into the Overlay, in memory, which the server
serves before the build folder ("page"); the changed edition's book follows as soon as its warm compiler
is done ("pdf"); the whole build is swapped in last and the overlay cleared. A save meanwhile (`cancel`)
stops the rebuild between two stages (Cancelled) and the next one starts from the new sources.

A rebuild's Outcome says which files of the build changed (from the sha256 each build records in
its marker), for the server to tell the open pages, or the error that stopped it (file, line, fix).
The first good rebuild after a failed one has `recovered` set: the terminal says so, and the failed
build's report folder (<out>.failed/) is removed where this session's failed build wrote it (its
marker's id and process are the ones the failure left; a folder lawbook did not write is never
removed, outdir.discard).
"""
import os
import stat
import threading
import time
import tomllib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from . import cache, outdir
from .warm import WarmCompiler, WarmCompiles
from ..core import memo
from ..core.errors import BuildFailed, LawbookError
from ..core.options import Options

if TYPE_CHECKING:
    from ..outputs.book.compiling import Book
    from ..outputs.job import Job


class ErrorView(TypedDict):
    """What stopped a rebuild (error_view), as the terminal and the panel show it."""
    message: str
    file: str | os.PathLike[str] | None
    line: int | None
    fix: str | None
    count: int  # how many errors the build found
    report: NotRequired[str]  # a failed build's whole report (<out>.failed/report.txt)
    origin: NotRequired[str]  # the manifest's origin of the source it names


@dataclass
class Outcome:
    """What one rebuild did. `changed`: the files of the build (paths below it) that were added, changed
    or removed; `error`: what stopped it ({"message", "file", "line", "fix"}), the previous build left as
    it was; `generation`: counts the rebuilds that changed the build."""
    ok: bool
    seconds: float
    generation: int
    changed: list[str] = field(default_factory=list)
    error: ErrorView | None = None
    skipped: bool = False
    recovered: bool = False  # the first good rebuild (or nothing to build) after a failed one
    cancelled: bool = False  # stopped because the sources changed again: the next rebuild follows at once

    def view(self) -> dict[str, Any]:
        """The outcome as the open pages are told it (JSON): the pages of the site that changed; its step is
        "all" (the whole build is in place; "state" when it failed) and no page is served from the overlay."""
        pages = [path for path in self.changed if path.startswith("html/") and path.endswith(".html")]
        return {"ok": self.ok, "generation": self.generation, "changed": pages, "error": self.error,
                "step": "all" if self.ok else "state", "pages": [], "next": self.generation}


@dataclass
class Step:
    """What a rebuild under way has ready before it is swapped in: "page", the pages (paths below html/)
    now served from the overlay, with the generation they carry (`generation`); "pdf", the PDFs (paths
    below the build) served from it. `seconds`: since the rebuild began."""
    kind: str
    paths: list[str]
    seconds: float
    generation: int


class Cancelled(Exception):
    """A rebuild stopped before its end because the sources changed again (Session.cancel): nothing was
    put in place, and the next rebuild starts from the new sources at once."""


def build_identity(out_dir: Path) -> tuple[int, int, int] | None:
    """The identity of the build in out_dir now: its marker's (device, inode, mtime), new with every build
    put in place (each is a folder of its own, swapped in whole); None without one."""
    try:
        info = os.stat(Path(out_dir) / outdir.MARKER)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns)


class Overlay:
    """Files of a rebuild under way, kept in memory and served before the build in out_dir (serve.py asks
    it first): the pages open in a browser, or the edited articles' pages, rendered from the new corpus,
    then the changed edition's PDF. Nothing of it is written into the build folder. A file is served only
    while out_dir still holds the build the overlay was made over (`base`, build_identity): once the
    rebuild is swapped in the overlay is cleared, and a build put in place meanwhile by anyone else makes
    it unused at once. Pages of the site ask for no file made from the corpus (their style sheet, script
    and icon are the templates', the same in every build), so a page from the overlay never shows
    another build's assets. Thread-safe: the watcher writes it, the server's threads read it."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.lock = threading.Lock()
        self.owner: int | None = None  # the rebuild whose files these are
        self.base: tuple[int, int, int] | None = None
        self.generation = 0  # the generation its pages carry (Step.generation)
        self.files: dict[str, bytes] = {}  # path below the build -> bytes

    def replace(self, owner: int, base: tuple[int, int, int] | None, generation: int, files: dict[str, bytes]) -> None:
        """Hold `files` of rebuild `owner`, made over the build `base`, in place of what was held."""
        with self.lock:
            self.owner, self.base, self.generation, self.files = owner, base, generation, dict(files)

    def add(self, owner: int, path: str, data: bytes) -> bool:
        """Add one file of rebuild `owner` (a PDF finished): only while the overlay is that rebuild's."""
        with self.lock:
            if self.owner != owner:
                return False
            self.files[path] = data
            return True

    def get(self, path: str) -> tuple[bytes, int] | None:
        """(the bytes, the generation) of `path` (below the build), when the overlay holds it and out_dir
        still holds the build it was made over; else None (serve it from out_dir)."""
        with self.lock:
            data, base, generation = self.files.get(path), self.base, self.generation
        if data is None or base is None or build_identity(self.out_dir) != base:
            return None
        return data, generation

    def paths(self) -> list[str]:
        with self.lock:
            return sorted(self.files)

    def clear(self) -> None:
        with self.lock:
            self.owner, self.base, self.files = None, None, {}


# At most this many edited articles' pages are rendered first when no browser shows a page (a renumbering
# changes the links of many): the rest follow with the whole build.
FIRST_PAGES = 12


def render_pages(job: "Job", wanted: Collection[str], out_dir: Path) -> dict[str, bytes]:
    """The pages of the site (paths below html/) that this build's write_html will write otherwise than
    out_dir/html/ holds them now, rendered from the build's corpus with write_html's own templates and
    values (site/pages.py, write_edition): of `wanted` (the pages open in a browser) those an edition's
    folder holds (its contents, articles, index and graph page), or when none is, the pages of the changed
    editions' articles whose key (outputs/keyed.py) is not the one the last build recorded: the edited
    articles. Reads the corpus and out_dir; writes nothing."""
    from ..outputs.keyed import key_of, resolved
    from ..outputs.site.model import Site
    from ..outputs.site.pages import environment, write_edition
    from ..outputs.text import profile_of

    profile = profile_of(job)
    site = Site(job.corpus, job.log, profile)
    site.link_editions()
    env = environment(profile)
    folders = {path: PurePosixPath(path).parts[0] for path in wanted if PurePosixPath(path).parts}
    shown = {path for path, folder in folders.items() if folder in site.editions}
    before: dict[str, str] = {}
    if shown:
        editions = [ed for ed in site.editions if ed in {folders[path] for path in shown}]
    else:
        before = job.previous.keys("html")
        digests = job.previous.digests()
        editions = [ed for ed in site.editions if job.previous.digest(ed) != digests.get(ed)]
    pages: dict[str, bytes] = {}

    def page(path: str, template: str, **values: Any) -> None:
        if shown:
            if path not in shown:
                return
        elif template != "article.html" or len(pages) >= FIRST_PAGES or before.get(path) == key_of(template, values):
            return
        pages[path] = env.get_template(template).render(**resolved(values)).encode("utf-8")

    for edition in editions:
        # The open article pages alone are read (their content depends on no other page); an open contents,
        # index or graph page, or none open, renders the edition as write_html does.
        articles = {str(PurePosixPath(edition, a.file)) for a in site.articles[edition]}
        open_here = {path for path in shown if folders[path] == edition}
        write_edition(site, edition, page, only=open_here if open_here and open_here <= articles else None)

    def on_disk(path: str) -> bytes | None:
        try:
            return (Path(out_dir) / "html" / path).read_bytes()
        except OSError:
            return None
    return {path: data for path, data in pages.items() if on_disk(path) != data}


def error_view(error: LawbookError) -> ErrorView:
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


def changed_files(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """The files whose recorded sha256 differs between two build markers (outdir.read_marker), sorted."""
    old = (before or {}).get("files") or {}
    new = (after or {}).get("files") or {}
    return sorted(path for path in old.keys() | new.keys() if old.get(path) != new.get(path))


class Session:
    """The warm state of watch mode for one sources folder and one build folder (see the module's doc)."""

    def __init__(self, sources_dir: str | os.PathLike[str], out_dir: str | os.PathLike[str],
                 options: Options | dict[str, object] | None = None) -> None:
        self.sources_dir = Path(sources_dir)
        self.out_dir = Path(out_dir)
        self.options = Options.of(options)
        self.compilers: dict[str, WarmCompiler] = {}
        self.generation = 0
        self.last: Outcome | None = None
        self.seen: str | None = None  # the digest of the inputs the last rebuild began with
        self.failing = False  # the last rebuild that did something failed: the next good one recovers
        self.failed_id: str | None = None  # the marker id of the <out>.failed/ this session's failed build wrote
        self.cancel = threading.Event()  # set (by the watcher) when the sources changed during a rebuild
        self.overlay = Overlay(self.out_dir)  # what a rebuild under way has ready (serve.py serves it first)
        self.rebuilds = 0  # counts the rebuilds begun: the owner of the overlay's files
        self._step: Callable[[Step], None] | None = None
        self._start = 0.0
        self._previewed = False  # this rebuild's pages were put in the overlay, with a generation of their own
        memo.keep()  # the corpus stages' and the comparison's memos (core/memo.py): this process builds again

    def _compiles(self, books: list["Book"]) -> WarmCompiles:
        compiles = WarmCompiles(self.compilers, books, ready=self._pdf_ready if self._step else None,
                                keep=self.cancel.is_set)
        if self._step is not None:  # the PDF next: its compile has the machine to itself, the rest waits for it
            compiles.settle()
        return compiles

    def _check(self) -> None:
        """Between the build's stages: stop it when the sources changed again (the watcher set `cancel`)."""
        if self.cancel.is_set():
            raise Cancelled()

    def _ready(self, job: "Job", wanted: Callable[[], Collection[str]]) -> None:
        """The corpus is made: render the pages open in a browser (`wanted()`, paths below html/), or the
        edited articles' pages, put those that changed in the overlay and say so (a "page" Step)."""
        try:
            pages = render_pages(job, wanted(), self.out_dir)
        except Exception:  # a bug here must not stop the build: its pages follow with the swap
            return
        generation = self.generation
        if pages:
            self.generation += 1
            generation = self.generation
            self._previewed = True
        self.overlay.replace(self.rebuilds, build_identity(self.out_dir), generation,
                             {"html/" + path: data for path, data in pages.items()})
        assert self._step is not None  # (the build is given _ready only while a rebuild has a step to say)
        self._step(Step("page", sorted(pages), time.perf_counter() - self._start, generation))

    def _pdf_ready(self, book: "Book") -> None:
        """A book compiled by its warm compiler (in the compile's own thread): into the overlay at once."""
        path = f"pdf/{book.out.name}"
        owner, step = self.rebuilds, self._step
        if step is None or self.cancel.is_set() or not self.overlay.add(owner, path, book.out.read_bytes()):
            return
        step(Step("pdf", [path], time.perf_counter() - self._start, self.overlay.generation))

    def rebuild(self, wanted: Callable[[], Collection[str]] | None = None,
                on_step: Callable[[Step], None] | None = None) -> Outcome:
        """Build again if the inputs changed since the build in out_dir. Raises nothing but an interrupt:
        a failed build (or a bug in it) is an Outcome with its error, and out_dir is left as it was.

        With `on_step`, what is ready before the whole build is said as it is ready, from the overlay
        (Overlay): once the corpus is made, the pages `wanted()` names (those open in a browser) or the
        edited articles' pages ("page"), then each PDF its warm compiler finished ("pdf"); the Outcome
        is the last step, the build in place, and the overlay is cleared. A rebuild stopped because the
        sources changed again (`cancel` set) is an Outcome with `cancelled`: nothing was put in place."""
        from . import run

        start = self._start = time.perf_counter()
        self.rebuilds += 1
        self._step, self._previewed = on_step, False
        try:
            return self._rebuild(run, start, wanted or (lambda: ()))
        finally:
            self._step = None

    def _rebuild(self, run: Any, start: float, wanted: Callable[[], Collection[str]]) -> Outcome:
        self.seen = cache.input_digest(self.sources_dir, self.options)
        if cache.up_to_date(self.sources_dir, self.out_dir, self.options):
            # Nothing to build (an editor's save without a change, or an edit undone): the build on
            # screen is the sources' own, so an error shown for an earlier edit is cleared.
            recovered = self._recover()
            if self.overlay.paths():  # an edit shown from the overlay, then undone before its build was in place
                self.overlay.clear()
                self.generation += 1  # every page shown from it reloads the build in place
            self.last = Outcome(True, time.perf_counter() - start, self.generation, skipped=True, recovered=recovered)
            return self.last
        before = outdir.read_marker(self.out_dir)
        failed_before = outdir.read_marker(self.failed_dir)
        ready = (lambda job: self._ready(job, wanted)) if self._step is not None else None
        try:
            run.build(self.sources_dir, self.out_dir, self.options, compiles=self._compiles, ready=ready,
                      check=self._check)
        except Cancelled:
            self.last = Outcome(False, time.perf_counter() - start, self.generation, cancelled=True)
            return self.last
        except LawbookError as e:
            self._lost_preview()
            self._failed(failed_before)
            error = error_view(e)
            names = origins(self.sources_dir)
            if isinstance(file := error.get("file"), str) and file in names:
                error["origin"] = names[file]
            self.last = Outcome(False, time.perf_counter() - start, self.generation, error=error)
            return self.last
        except Exception as e:  # a bug: watching goes on (the build left out_dir as it was) and says so
            self._lost_preview()
            self._failed(failed_before)
            error = {"message": f"{type(e).__name__}: {e}", "file": None, "line": None, "count": 1,
                     "fix": "this is a bug in the pipeline: run `lawbook build --debug` and report what it shows"}
            self.last = Outcome(False, time.perf_counter() - start, self.generation, error=error)
            return self.last
        self.overlay.clear()  # the build is in place: every file is served from it
        changed = changed_files(before, outdir.read_marker(self.out_dir))
        if set(changed) - {cache.STAMP} and not self._previewed:  # the stamp alone: nothing to show anew
            self.generation += 1  # (pages shown from the overlay carry the generation of this build already)
        recovered = self._recover()
        self.last = Outcome(True, time.perf_counter() - start, self.generation, changed=changed, recovered=recovered)
        return self.last

    def _lost_preview(self) -> None:
        """The rebuild failed after its pages were shown from the overlay: the overlay goes, and the pages
        get a generation of their own, so that every open page reloads the build in place (and its panel)."""
        self.overlay.clear()
        if self._previewed:
            self.generation += 1

    @property
    def failed_dir(self) -> Path:
        """Where a failed build writes its report: <out>.failed/, beside the build (run.build)."""
        return self.out_dir.with_name(self.out_dir.name + ".failed")

    def _failed(self, before: Mapping[str, Any] | None) -> None:
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
