"""One build's own state: its corpus context, where it writes, what it may take from the build it
replaces (the Job's `previous`), the processes its stages started and its times.

Reads: the previous build's marker and stamp in out_dir (outdir/, cache.py), when first asked.
Writes: nothing of its own; reuse and copy_files copy the previous build's files into the temporary folder.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, cast

from lxml import etree

from . import cache, outdir
from ..core import tree
from ..core.options import Options
from ..core.report import BuildLog
from ..core.stage import Process
from ..corpus import book
from ..corpus.stages import CorpusContext, made_tree
from ..outputs import keyed
from ..reading.decode import Line
from ..reading.manifest import Source

if TYPE_CHECKING:
    from ..corpus.refs import CorpusOf

ReadingCache = cache.ReadingCache


@dataclass(frozen=True)
class BuildSummary:
    """What a finished build tells the person who ran it (the command line's closing lines): how many
    sources it read, its report's counts by kind, what the book check said, and how many references point
    outside the corpus or read as damaged."""
    sources: int
    counts: dict[str, int]  # report entries by kind, the kinds with none left out
    said: tuple[str, ...]  # the book check's lines ("2017: 93 articles, …: as the contents list gives them")
    dangling: int
    suspect: int


@dataclass
class Build:
    """One build's own state: the corpus context, where it writes, what it may take from the build in
    out_dir (it is the Job's `previous`, see reuse), the processes its stages started, its times.
    The context's store of readings is the build's cache (made here)."""
    context: CorpusContext
    out_dir: Path | None = None
    tmp: Path | None = None  # the folder being written
    cache: ReadingCache | None = None  # what this build takes from earlier builds (see readings)
    recorded: dict[str, str] | None = None  # the previous build's files that may be reused, {path: sha256}
    marker: outdir.FinishedMarker | None = None  # the previous build's marker (their stats too), read with `recorded`
    stamp: dict[str, Any] | None = None  # the previous build's stamp, read when first asked (previous_stamp)
    timings: dict[str, float] = field(default_factory=dict)
    running: dict[str, Process] = field(default_factory=dict)  # stage name -> the process it started

    def __post_init__(self) -> None:
        self.context.store = self.readings()

    # -- what a caller reads of the corpus it built (cli.py, tests, the benchmark) ------------------------
    @property
    def sources_dir(self) -> Path:
        if self.context.sources_dir is None:
            raise ValueError("this build has no sources folder")  # a Build is made for one (run.py)
        return Path(self.context.sources_dir)

    @property
    def options(self) -> Options:
        return self.context.options

    @property
    def corpus(self) -> etree._Element | None:
        return self.context.corpus

    @property
    def log(self) -> BuildLog:
        return self.context.log

    @property
    def sources(self) -> Sequence[Source]:
        return self.context.sources

    @property
    def lines(self) -> dict[str, list[Line]]:
        return self.context.lines

    @property
    def checked(self) -> book.BookCheck | None:
        return self.context.checked

    def readings(self) -> ReadingCache:
        """This build's cache of readings: the cache_dir option's folder, else the user's cache folder
        (cache.default_folder; never beside the sources folder); force: read none."""
        if self.cache is None:
            folder = cache.default_folder(self.options.cache_dir)
            self.cache = cache.ReadingCache(folder, use=not self.options.force)
        return self.cache

    # -- the previous build, as an output stage sees it (outputs/job.py: PreviousBuild) -------------------
    @property
    def available(self) -> bool:
        return not self.options.force and self.tmp is not None and bool(self.previous_files())

    def reuse(self, edition: str, paths: list[str]) -> bool:
        """For an output stage that renders one edition at a time, before it renders `edition`: when that
        edition is unchanged since the build in out_dir was made, copy its outputs `paths` (relative to
        the build folder, files or folders) from there into tmp and return True; the stage then skips
        it. Returns False (and copies nothing) on a forced build, a changed edition, or a file that is
        missing or not the one the previous build recorded (damaged since)."""
        if self.options.force or self.tmp is None:
            return False
        previous = self.previous_files()
        if not previous:
            return False
        digest = self.digest(edition)
        if digest is None or self.digests().get(edition) != digest:
            return False
        return cache.copy_previous(self._last_build(), self.tmp, paths, previous, self.marker)

    def copy_files(self, paths: list[str]) -> bool:
        """Copy the files `paths` (relative to the build folder) from the build in out_dir into tmp, each
        checked against its record there; False, copying nothing, when one is not what it recorded. The
        caller knows from their keys that they are what it would make (outputs/keyed.py)."""
        if self.options.force or self.tmp is None:
            return False
        previous = self.previous_files()
        if not all(path in previous for path in paths):
            return False
        return cache.copy_previous(self._last_build(), self.tmp, paths, previous, self.marker)

    def keys(self, output: str) -> dict[str, str]:
        """The file keys the build in out_dir recorded for `output` (outputs/keyed.py), when they were made
        by this code with these settings and their file is the one it recorded; else {}."""
        name = f"{keyed.KEYS_DIR}/{output}.json"
        if not self.available or name not in self.previous_files():
            return {}
        if self.previous_stamp().get("outputs") != cache.outputs_version(self.options):
            return {}
        return keyed.read_keys(self._last_build(), output, self.previous_files()[name])

    def digest(self, edition: str) -> str | None:
        """The digest of one edition's content (edition_digest), taken once per build, the first time an
        output stage (or the stamp) asks."""
        readings = self.readings()
        if not readings.editions:
            for el in made_tree(self.context).iterchildren("edition"):
                readings.editions[tree.attr(el, "id")] = edition_digest(self.context, tree.attr(el, "id"))
        return readings.editions.get(edition)

    def digests(self) -> dict[str, str]:
        editions: dict[str, str] = self.previous_stamp().get("editions", {})  # as write_stamp wrote them
        return editions

    def previous_stamp(self) -> dict[str, Any]:
        """The stamp of the build in out_dir (cache.read_stamp), read once."""
        if self.stamp is None:
            self.stamp = cache.read_stamp(self._last_build())
        return self.stamp

    def has(self, path: str) -> bool:
        return (self._last_build() / path).exists()

    def corpus_file(self) -> Path | None:
        return self._last_build() / "corpus.xml" if "corpus.xml" in self.previous_files() else None

    def previous_files(self) -> dict[str, str]:
        """The files of the build in out_dir that this build may copy: {path: sha256} as recorded in its
        marker; {} when it has none, or when its stamp or corpus.xml (which the reuse decisions read) is
        not the one it recorded."""
        if self.recorded is None:
            self.marker = outdir.verified_marker(self._last_build(), names=(cache.STAMP, "corpus.xml"))
            self.recorded = self.marker["files"] if self.marker is not None else {}
        return self.recorded

    def _last_build(self) -> Path:
        """out_dir, where the build this one may take from stands. Every Build an output stage sees as its
        `previous` has one (run.build); make_corpus's has none, and is never one."""
        if self.out_dir is None:
            raise ValueError("this build has no output folder, so no last build to take from")
        return self.out_dir

    # -- the processes stages started ----------------------------------------------------------------
    def wait_for(self, name: str) -> None:
        """Wait for the process the stage `name` started (if it started one), and let it go."""
        process = self.running.pop(name, None)
        if process is not None:
            try:
                process.wait()
            finally:
                process.kill()

    def summary(self) -> BuildSummary:
        """The build's summary, for the command line (cli.py prints it; it reads no corpus internals)."""
        from ..corpus import check, refs, register

        context = self.context
        # The corpus stages have run: the context has its corpus and its sources folder, as CorpusOf says.
        references = (refs.references(cast("CorpusOf", context))
                      + register.references(made_tree(context)))  # the index's citations too
        counted = check.summary(references)
        return BuildSummary(len(context.sources), {k: v for k, v in context.log.summary().items() if v},
                            tuple(context.checked.said) if context.checked else (), counted["dangling"],
                            counted["suspect"])

    def stop_all(self) -> None:
        """Stop every process still running (a stage failed meanwhile) and reap it."""
        while self.running:
            self.running.popitem()[1].kill()


def edition_digest(context: CorpusContext, edition: str) -> str | None:
    """The digest of one edition's content: its corpus subtree, its sources' report entries and the
    code version (and the options that change what the build writes)."""
    files = {s.name for s in context.sources if s.edition == edition}
    for el in made_tree(context).iterchildren("edition"):
        if el.get("id") == edition:
            # Only this edition's entries made into dicts: every entry of the book, once per edition, was
            # a tenth of a rebuild's time.
            entries = [asdict(e) for e in context.log.entries if e.file in files]
            return cache.edition_digest(el, entries, context.options)
    return None
