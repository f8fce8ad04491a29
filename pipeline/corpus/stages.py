"""The corpus stages: sources to one tree per edition, in memory, with its report.

    load_sources     sources.toml -> the list of sources
    read_sources     bytes -> lines (encoding, line endings, characters)
    parse_sources    lines -> blocks, by the reader of each source's format
    repair_text      block text -> repaired text, every change logged
    build_structure  blocks -> article trees with IDs (one fragment per source)
    merge_editions   fragments -> one tree per edition
    apply_corrections  the committee's corrections (sources/corrections.toml; not with no_corrections)
    finish_corpus    note and commentary IDs, gaps
    account_lines    every non-blank source line is in the corpus or in the report
    find_references  <ref> around every citation

make_corpus() runs them: `show`, `check` and `diff` use it, and the build runs the same list
before its outputs. What an earlier build read may be taken from a store of readings (the build
passes its cache, build/cache.py); without one every source is read.
"""
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..core.report import BuildLog
from ..reading import decode as read, formats, manifest, repair
from . import corrections, finish, merge, refs, structure


class NoStore:
    """A store of readings that holds nothing: every source is read and nothing is kept."""

    def __init__(self):
        self.hits, self.misses = [], []
        self.keys, self.entries = {}, {}

    def key(self, source, data):
        return None

    def get(self, key, source):
        return None

    def put(self, key, entry):
        pass


@dataclass
class CorpusContext:
    """What the corpus stages share: the inputs, the report, and what each stage made."""
    sources_dir: Path
    options: dict = field(default_factory=dict)
    log: BuildLog = field(default_factory=BuildLog)
    sources: list = field(default_factory=list)
    lines: dict = field(default_factory=dict)  # file -> [Line]
    readings: list = field(default_factory=list)
    fragments: list = field(default_factory=list)
    corpus: object = None
    store: object = field(default_factory=NoStore)  # readings of earlier builds (see NoStore, build/cache.py)


# -- the records of one source's reading, as a store keeps them ------------------------------
class RecordingVocabulary:
    """The book's vocabulary as a reader sees it, noting every question (word -> answer)."""

    def __init__(self, words):
        self.words = words
        self.asked = {}

    def __contains__(self, word):
        answer = word in self.words
        self.asked[word] = answer
        return answer

@dataclass
class Entry:
    """What reading and repairing one source gave."""
    reading: object  # model.Reading, text repaired
    words: set  # the source's word forms: its share of the vocabulary
    asked: dict  # vocabulary questions the reader asked, and the answers it got
    read_log: list = field(default_factory=list)  # report entries (as dicts) of the reader
    repair_log: list = field(default_factory=list)  # … and of the repair stage

    def holds_for(self, vocabulary):
        return all((word in vocabulary) == answer for word, answer in self.asked.items())

def log_entries(log, since=0):
    """A BuildLog's entries from `since` on, as dicts (to store, and to replay with replay())."""
    return [asdict(e) for e in log.entries[since:]]

def replay(log, entries):
    for e in entries:
        log.add(**e)


# -- the stages ---------------------------------------------------------------------------------
def load_sources(ctx):
    """Reads: sources/sources.toml. Writes: ctx.sources."""
    ctx.sources = manifest.load_manifest(ctx.sources_dir)



def read_sources(ctx):
    """Reads: each source file's bytes. Writes: ctx.lines (decoded, line endings normalised) and each
    source's key in the store of readings."""
    readings = ctx.store
    for source in ctx.sources:
        data = read.read_bytes(source)  # once: the cache key and the lines come from the same bytes
        readings.keys[source.name] = readings.key(source, data)
        ctx.lines[source.name] = read.read_lines(source, ctx.log, data)



def parse_sources(ctx):
    """Reads: ctx.lines. Writes: ctx.readings, one per source, by the reader of its format; for a source
    read before (same bytes, manifest entry and code; see build/cache.py) the cached reading, already repaired."""
    readings = ctx.store
    cached = {s.name: readings.get(readings.keys[s.name], s) for s in ctx.sources}
    words = {name: entry.words if entry else repair.vocabulary(ctx.lines[name]) for name, entry in cached.items()}
    vocabulary = set().union(*words.values())
    for source in ctx.sources:
        lines, entry = ctx.lines[source.name], cached[source.name]
        if entry is not None and entry.holds_for(vocabulary):
            readings.hits.append(source.name)
            replay(ctx.log, entry.read_log)
        else:
            readings.misses.append(source.name)
            start = len(ctx.log.entries)
            asked = RecordingVocabulary(vocabulary)
            reading = formats.read(lines, source, asked, ctx.log)
            entry = Entry(reading, words[source.name], asked.asked, log_entries(ctx.log, start))
        readings.entries[source.name] = entry
        ctx.readings.append(entry.reading)
        ctx.log.sources.append({"file": source.name, "edition": source.edition, "format": entry.reading.format,
                                "origin": source.origin, "lines": len(lines),
                                "encoding": source.detected})



def repair_text(ctx):
    """Reads: block and note text. Writes: the same, repaired (see repair.py); every change logged.
    A cached reading was repaired when it was read: its repairs are only logged again. Each newly
    repaired reading goes into the cache."""
    readings = ctx.store
    for reading in ctx.readings:
        entry = readings.entries.get(reading.file)
        if reading.file in readings.hits:
            replay(ctx.log, entry.repair_log)
            continue
        start = len(ctx.log.entries)
        flog = ctx.log.for_file(reading.file)
        for block in reading.blocks:
            block.text = repair.repair_text(block.text, block.first_line, flog)
            for note in block.notes:
                note.text = repair.repair_text(note.text, note.lines[0] if note.lines else block.first_line, flog)
        if entry is not None:
            entry.repair_log = log_entries(ctx.log, start)
            readings.put(readings.keys[reading.file], entry)



def build_structure(ctx):
    """Reads: ctx.readings. Writes: ctx.fragments (article trees per source, with IDs and a line ledger)."""
    # One evidence index per edition, built once: rebuilding it per source made the stage quadratic.
    evidence = {}
    for edition in dict.fromkeys(r.edition for r in ctx.readings):
        edition_lines = [line for r in ctx.readings if r.edition == edition for line in ctx.lines[r.file]]
        evidence[edition] = structure.Evidence(edition_lines)
    for reading in ctx.readings:
        ctx.fragments.append(structure.build_fragment(reading, ctx.log, evidence[reading.edition]))



def merge_editions(ctx):
    """Reads: ctx.fragments. Writes: ctx.corpus (one tree per edition, duplicates merged)."""
    ctx.corpus = merge.merge(ctx.fragments, ctx.log)



def finish_corpus(ctx):
    """Reads: ctx.corpus. Writes: note and commentary IDs, gaps (in the tree and the report)."""
    finish.finish(ctx.corpus, ctx.log)



def account_lines(ctx):
    """Reads: ctx.lines, the fragments' ledgers, ctx.corpus. Writes: an error for every non-blank source
    line that is neither in a corpus node nor in the report with a reason."""
    ids_in_corpus = {el.get("id") for el in ctx.corpus.iter() if el.get("id")}
    for fragment in ctx.fragments:
        for line in ctx.lines[fragment.file]:
            if line.blank:
                continue
            where = fragment.ledger.get(line.num)
            if where is None:
                ctx.log.add("error", fragment.file, line.num, f"line is neither in the corpus nor in the report: "
                                                              f"{line.text.strip()[:60]!r}")
            elif "/" in where and " " not in where and where not in ids_in_corpus:
                ctx.log.add("error", fragment.file, line.num, f"line was placed in {where}, which is not in the corpus")



CORPUS_STAGES = [load_sources, read_sources, parse_sources, repair_text, build_structure, merge_editions,
                 corrections.apply_corrections, finish_corpus, account_lines, refs.find_references]


def make_corpus(sources_dir, options=None, store=None):
    """Run the corpus stages (no output) and return their context: `ctx.corpus`, `ctx.log`, `ctx.lines`."""
    ctx = CorpusContext(Path(sources_dir), options or {}, store=store if store is not None else NoStore())
    for stage in CORPUS_STAGES:
        stage(ctx)
    return ctx
