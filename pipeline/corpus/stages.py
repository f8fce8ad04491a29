"""The corpus stages: sources to one tree per edition, in memory, with its report.

    load_sources     sources.toml -> the list of sources
    read_sources     bytes -> lines (encoding, line endings, characters)
    parse_sources    lines -> blocks, by the reader of each source's format (formats/__init__.py)
    count_articles   an edition of more than bounds.MAX_ARTICLES articles is refused (bounds.py)
    split_headings   headings glued to their text split off, with the contents list (headings.py)
    repair_text      block text -> repaired text (printed lines joined too), every change logged
    build_structure  blocks -> article trees with IDs (one fragment per source)
    count_nodes      an edition of more than bounds.MAX_NODES nodes is refused (bounds.py)
    merge_editions   fragments -> one tree per edition
    apply_corrections  the committee's corrections (sources/corrections.toml; not with no_corrections)
    finish_corpus    note and commentary IDs, gaps
    account_lines    every non-blank source line is in the corpus or in the report
    check_book       the corpus against the book's own contents list; an empty book fails (book.py)
    check_fidelity   the corpus against what law text cannot contain: a footnote marker's form, a note
                     without text, page furniture, a word split by a hyphen, structure from indentation
                     alone (fidelity/)
    find_references  <ref> around every citation
    read_register    the book's index, its citations resolved like the law text's (register.py)

Each is declared in STAGES (core/stage.py: what it reads and writes of the CorpusContext);
make_corpus() runs them: `show`, `check` and `diff` use it, and the build runs the same chain
before its outputs, which see the finished corpus as a `Corpus` (frozen()). What an earlier
build read (the reading before repair) may be taken from a store of readings (the build passes
its cache, publish/cache.py); without one every source is read.
Repair always runs: it depends on the whole book's vocabulary, which any source may change.

A rebuild in the same process (watch mode) does the work of what changed: repair, the evidence index,
the fragments and the references keep what they made of each source (or paragraph) in a memo of the
process (core/memo.py), keyed by a digest of everything it was made from; where one was made with
answers from the whole book (a word of the vocabulary, a node's confirming citations, whether an ID is
in the corpus), the memo keeps the answers and its entry is taken only when this build's book gives the
same ones (repair.repaired, structure.fragment, refs.mark_container). So a rebuild is exactly the full
build, and a fresh process, whose memos are empty, makes everything.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

from lxml import etree

from ..core.errors import LawbookError
from ..core.lang.profile import Profile
from ..core.model import Detected, Placed, Reading
from ..core.options import Options
from ..core.report import BuildLog
from ..core.stage import Chain, Stage
from ..reading import decode as read, formats, headings, manifest, repair
from ..reading.decode import Line
from ..reading.manifest import Source
from . import book, bounds, corrections, fidelity, finish, merge, refs, register, structure


class Store(Protocol):
    """Readings of earlier builds (publish/cache.py's ReadingCache, or NoStore): what parse_sources may
    take instead of reading a source again, and what it read this time."""
    hits: list[str]
    misses: list[str]
    keys: dict[str, str | None]
    entries: dict[str, Entry]

    def key(self, source: Source, data: bytes) -> str | None: ...

    def get(self, key: str | None, source: Source) -> Entry | None: ...

    def put(self, key: str | None, entry: Entry) -> None: ...


class NoStore:
    """A store of readings that holds nothing: every source is read and nothing is kept."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        self.misses: list[str] = []
        self.keys: dict[str, str | None] = {}
        self.entries: dict[str, Entry] = {}

    def key(self, source: Source, data: bytes) -> str | None:
        return None

    def get(self, key: str | None, source: Source) -> Entry | None:
        return None

    def put(self, key: str | None, entry: Entry) -> None:
        pass


@dataclass
class CorpusContext:
    """What the corpus stages share while they run: the inputs, the report, and what each stage made.
    Once they have run, frozen() is what the outputs read."""
    sources_dir: Path | None
    options: Options = field(default_factory=Options)
    log: BuildLog = field(default_factory=BuildLog)
    sources: Sequence[Source] = field(default_factory=list)  # a manifest.Manifest once load_sources ran
    lines: dict[str, list[Line]] = field(default_factory=dict)  # file -> its lines
    encodings: dict[str, str] = field(default_factory=dict)  # file -> the encoding its lines were read with
    detected: dict[str, Detected] = field(default_factory=dict)  # file -> format and encoding
    readings: list[Reading] = field(default_factory=list)
    fragments: list[structure.Fragment] = field(default_factory=list)
    corpus: etree._Element | None = None  # the corpus tree, from merge_editions on
    store: Store = field(default_factory=NoStore)  # readings of earlier builds (see NoStore, publish/cache.py)
    checked: book.BookCheck | None = None  # what the book's own contents list and numbering were checked for
    # The book's language (core/lang) as far as it is known: given by a caller that made the context for a
    # book it knows, or the manifest's, which load_sources sets. Stages read it as `profile`, which never
    # falls back to a default language: asked before it is known, it fails.
    known_profile: Profile | None = None

    @property
    def profile(self) -> Profile:
        """The book's language profile; a ValueError before load_sources (or the caller) set it."""
        if self.known_profile is None:
            raise ValueError("the book's language is not known yet: load_sources reads it from the manifest")
        return self.known_profile

    @profile.setter
    def profile(self, profile: Profile) -> None:
        self.known_profile = profile

    def frozen(self) -> Corpus:
        """The finished corpus as the outputs see it (raises ValueError before merge_editions ran)."""
        return Corpus(made_tree(self), self.profile, self.log, self.options, tuple(self.sources), self.lines,
                      self.sources_dir)


@dataclass(frozen=True)
class Corpus:
    """The corpus once its stages have run, fixed: what every output reads. The tree is read only; the
    report (log) still takes the entries an output adds."""
    tree: etree._Element
    profile: Profile  # the book's language: never a default, a corpus is in the language of its manifest
    log: BuildLog = field(default_factory=BuildLog)
    options: Options = field(default_factory=Options)
    sources: tuple[Source, ...] = ()  # the manifest's sources (their editions, paths, dates)
    lines: Mapping[str, list[Line]] = field(default_factory=dict)  # file -> its lines, for messages
    sources_dir: Path | None = None


# -- the records of one source's reading, as a store keeps them ------------------------------
@dataclass
class Entry:
    """What reading one source gave: its reading before repair (a reader asks nothing of the other
    sources, so it depends on this source alone) and the reader's report entries."""
    reading: Reading  # text not yet repaired
    read_log: list[dict[str, Any]] = field(default_factory=list)  # report entries (as dicts) of the reader


def log_entries(log: BuildLog, since: int = 0) -> list[dict[str, Any]]:
    """A BuildLog's entries from `since` on, as dicts (to store, and to replay with replay())."""
    return [asdict(e) for e in log.entries[since:]]


def replay(log: BuildLog, entries: list[dict[str, Any]]) -> None:
    for e in entries:
        log.add(**e)


# -- the stages ---------------------------------------------------------------------------------
def made_tree(ctx: CorpusContext) -> etree._Element:
    """The corpus tree, for the stages from merge_editions on (a ValueError before it ran). A function of
    the context, not a method of it: a stage touches no name of the context but the fields it declares."""
    if ctx.corpus is None:
        raise ValueError("the corpus stages have not made a corpus yet")
    return ctx.corpus


def load_sources(ctx: CorpusContext) -> None:
    """Reads: sources/sources.toml. Writes: ctx.sources and ctx.profile (the manifest's language)."""
    if ctx.sources_dir is None:
        raise LawbookError("no sources folder was given to read the book from", fix="give --sources FOLDER")
    ctx.sources = manifest.load_manifest(ctx.sources_dir)
    ctx.profile = ctx.sources.profile


def read_sources(ctx: CorpusContext) -> None:
    """Reads: each source file's bytes. Writes: ctx.lines (decoded, line endings normalised) and each
    source's key in the store of readings."""
    readings = ctx.store
    for source in ctx.sources:
        data = read.read_bytes(source)  # once: the cache key and the lines come from the same bytes
        readings.keys[source.name] = readings.key(source, data)
        ctx.lines[source.name], ctx.encodings[source.name] = read.read_source(source, ctx.log, data)


def parse_sources(ctx: CorpusContext) -> None:
    """Reads: ctx.lines. Writes: ctx.readings, one per source, by the reader of its format (text not yet
    repaired), and ctx.detected; for a source read before (same bytes, manifest entry and code; see
    publish/cache.py) the stored reading. Each new reading is stored before repair changes it."""
    readings = ctx.store
    for source in ctx.sources:
        lines, key = ctx.lines[source.name], readings.keys[source.name]
        entry = readings.get(key, source)
        if entry is not None:
            readings.hits.append(source.name)
            replay(ctx.log, entry.read_log)
        else:
            readings.misses.append(source.name)
            start = len(ctx.log.entries)
            entry = Entry(formats.read(lines, source, ctx.log), log_entries(ctx.log, start))
            readings.put(key, entry)
        readings.entries[source.name] = entry
        ctx.readings.append(entry.reading)
        detected = ctx.detected[source.name] = Detected(entry.reading.format, ctx.encodings[source.name])
        ctx.log.sources.append({"file": source.name, "edition": source.edition, "format": detected.format,
                                "origin": source.origin, "lines": len(lines), "encoding": detected.encoding})


def split_headings(ctx: CorpusContext) -> None:
    """Reads: ctx.readings (a flowed print reading's headings glued to their text, the contents list).
    Writes: the headings split from their text, pages that start inside an article placed; each an
    inference in the report (reading/headings.py)."""
    headings.split_headings(ctx.readings, ctx.log, ctx.profile)


def repair_text(ctx: CorpusContext) -> None:
    """Reads: ctx.readings as their readers left them, and (for printed lines) every source's word forms.
    Writes: block and note text, repaired (repair.repair_reading, for every format); every change logged."""
    # The book's word forms: evidence for a printed line-end hyphen, made when first needed. Until then a
    # reading is repaired with none (its ligatures with the profile's word list alone).
    # Each reading's repair is taken from the memo of this process where the same reading was repaired
    # with the same answers of the vocabulary (repair.repaired): a rebuild repairs what changed.
    vocabulary: set[str] | None = None
    paged = ctx.log.paged()
    for reading in ctx.readings:
        if vocabulary is None and repair.needs_vocabulary(reading):
            vocabulary = repair.book_vocabulary(ctx.lines, ctx.profile)
        repair.repaired(reading, vocabulary if vocabulary is not None else set(), ctx.log, ctx.profile,
                        reading.file in paged)


def build_structure(ctx: CorpusContext) -> None:
    """Reads: ctx.readings. Writes: ctx.fragments (article trees per source, with IDs and a line ledger)."""
    # One evidence index per edition, built once: rebuilding it per source made the stage quadratic. Each
    # source's part of it, and each fragment, comes from the memo of this process where nothing it reads
    # changed (Evidence.of_sources, structure.fragment).
    lines = {r.file: structure.lines_digest(ctx.lines[r.file]) for r in ctx.readings}
    evidence: dict[str, structure.Evidence] = {}
    for edition in dict.fromkeys(r.edition for r in ctx.readings):
        evidence[edition] = structure.Evidence.of_sources(
            [(lines[r.file], ctx.lines[r.file]) for r in ctx.readings if r.edition == edition], ctx.profile)
    paged = ctx.log.paged()
    for reading in ctx.readings:
        ctx.fragments.append(structure.fragment(reading, lines[reading.file], ctx.log, evidence[reading.edition],
                                                reading.file in paged))


def merge_editions(ctx: CorpusContext) -> None:
    """Reads: ctx.fragments. Writes: ctx.corpus (one tree per edition, duplicates merged)."""
    ctx.corpus = merge.merge(ctx.fragments, ctx.log)


def finish_corpus(ctx: CorpusContext) -> None:
    """Reads: ctx.corpus, the fragments' nodes written without a lead-in. Writes: note and commentary IDs,
    gaps (in the tree and the report), and the book's language on the corpus (what a reader of corpus.xml or
    corpus.json, `diff` and `serve`, writes its words in)."""
    made_tree(ctx).set("language", ctx.profile.code)
    finish.finish(made_tree(ctx), ctx.log, ctx.profile,
                  no_lead_in=frozenset[str]().union(*(f.no_lead_in for f in ctx.fragments)))


def account_lines(ctx: CorpusContext) -> None:
    """Reads: ctx.lines, the fragments' ledgers, ctx.corpus. Writes: an error for every non-blank source
    line that is neither in a corpus node nor in the report with a reason."""
    ids_in_corpus = {el.get("id") for el in made_tree(ctx).iter() if el.get("id")}
    for fragment in ctx.fragments:
        for line in ctx.lines[fragment.file]:
            if line.blank:
                continue
            where = fragment.ledger.get(line.num)
            if where is None:
                ctx.log.add("error", fragment.file, line.num, f"line is neither in the corpus nor in the report: "
                                                              f"{line.text.strip()[:60]!r}")
            elif isinstance(where, Placed) and where.node not in ids_in_corpus:
                ctx.log.add("error", fragment.file, line.num,
                            f"line was placed in {where.node}, which is not in the corpus")


def check_book(ctx: CorpusContext) -> None:
    """Reads: ctx.readings (the contents lists, the footnotes), ctx.fragments' ledgers, ctx.lines, ctx.corpus. Writes: an
    error for each difference between the corpus and what the book's contents list and numbering promise
    (an empty or mostly unread book included), and ctx.checked, what was checked (corpus/book.py)."""
    ctx.checked = book.check_books(ctx.readings, ctx.fragments, made_tree(ctx), ctx.lines, ctx.log)


def check_fidelity(ctx: CorpusContext) -> None:
    """Reads: ctx.corpus, ctx.readings (the page furniture their readers dropped), ctx.lines, ctx.profile, and
    the report so far (what a reader reported already). Writes: an error for each thing in the corpus that law
    text cannot contain, an "uncertain" inference where two readings fit (corpus/fidelity/)."""
    fidelity.check_fidelity(made_tree(ctx), ctx.readings, ctx.lines, ctx.log, ctx.profile)


# What each stage reads and writes of the CorpusContext (tests/test_stages.py holds each to it).
STAGES = [
    Stage("load_sources", load_sources, reads=("sources_dir",), writes=("sources", "profile"),
          files=("sources.toml",)),
    Stage("read_sources", read_sources, reads=("sources", "store"), writes=("lines", "encodings", "log")),
    Stage("parse_sources", parse_sources, reads=("sources", "lines", "encodings", "store"),
          writes=("readings", "detected", "log")),
    Stage("count_articles", bounds.count_articles, reads=("readings", "sources", "log")),
    Stage("split_headings", split_headings, reads=("profile",), writes=("readings", "log")),
    Stage("repair_text", repair_text, reads=("lines", "profile"), writes=("readings", "log")),
    Stage("build_structure", build_structure, reads=("readings", "lines", "profile"), writes=("fragments", "log")),
    Stage("count_nodes", bounds.count_nodes, reads=("fragments", "sources", "log")),
    Stage("merge_editions", merge_editions, reads=("fragments",), writes=("corpus", "log")),
    Stage("apply_corrections", corrections.apply_corrections, reads=("options", "sources_dir", "fragments"),
          writes=("corpus", "log"), files=("corrections.toml",)),
    Stage("finish_corpus", finish_corpus, reads=("fragments", "profile"), writes=("corpus", "log")),
    Stage("account_lines", account_lines, reads=("corpus", "fragments", "lines"), writes=("log",)),
    Stage("check_book", check_book, reads=("readings", "fragments", "corpus", "lines"), writes=("checked", "log")),
    Stage("find_references", refs.find_references, reads=("sources_dir", "options", "profile"),
          writes=("corpus", "log"), files=("known-missing.toml",)),
    Stage("read_index", register.read_register, reads=("readings", "sources_dir", "options", "profile"),
          writes=("corpus", "log"), files=("known-missing.toml",)),
    # Last, as it only reports (writes nothing but the log): watch mode shows the open page before it runs
    # (publish/run.py, build's `ready`), and a finding still fails the build before anything is put in place.
    Stage("check_fidelity", check_fidelity, reads=("corpus", "readings", "lines", "profile"), writes=("log",)),
]
CORPUS = Chain(STAGES)


def make_corpus(sources_dir: Path | str | None, options: Options | dict[str, Any] | None = None,
                store: Store | None = None, chain: Chain | None = None) -> CorpusContext:
    """Run the corpus stages (no output) and return their context: `ctx.corpus`, `ctx.log`, `ctx.lines`."""
    ctx = CorpusContext(Path(sources_dir) if sources_dir is not None else None, Options.of(options),
                        store=store if store is not None else NoStore())
    for stage in (chain or CORPUS).wanted(ctx.options):
        if stage.run is None:  # a stage that waits for a process: the corpus stages start none
            raise ValueError(f"stage {stage.name} waits for {stage.waits}: the corpus stages start no process")
        stage.run(ctx)
    return ctx
