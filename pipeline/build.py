"""The build: an ordered list of small stages over one shared BuildContext.

Each stage's docstring says what it reads and writes. Output goes to a fresh
folder beside the target (build.tmp-…) and is swapped in only when every stage
succeeded, so a failed or interrupted build leaves the previous build/ as it was.
"""
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import diff, finish, formats, graph, html, manifest, markdown, merge, pdf, read, refs, repair, serialise, structure
from .errors import LawbookError
from .report import BuildLog


@dataclass
class BuildContext:
    sources_dir: Path
    out_dir: Path
    options: dict = field(default_factory=dict)
    log: BuildLog = field(default_factory=BuildLog)
    sources: list = field(default_factory=list)
    lines: dict = field(default_factory=dict)  # file -> [Line]
    readings: list = field(default_factory=list)
    fragments: list = field(default_factory=list)
    corpus: object = None
    json: dict = None
    tmp: Path = None  # the folder being written
    timings: dict = field(default_factory=dict)


def load_sources(ctx):
    """Reads: sources/sources.toml. Writes: ctx.sources."""
    ctx.sources = manifest.load_manifest(ctx.sources_dir)


def read_sources(ctx):
    """Reads: each source file's bytes. Writes: ctx.lines (decoded, line endings normalised)."""
    for source in ctx.sources:
        ctx.lines[source.name] = read.read_lines(source)


def parse_sources(ctx):
    """Reads: ctx.lines. Writes: ctx.readings, one per source, by the reader of its format."""
    all_lines = [line for lines in ctx.lines.values() for line in lines]
    vocabulary = repair.vocabulary(all_lines)
    for source in ctx.sources:
        lines = ctx.lines[source.name]
        reading = formats.read(lines, source, vocabulary, ctx.log)
        ctx.readings.append(reading)
        ctx.log.sources.append({"file": source.name, "edition": source.edition, "format": reading.format,
                                "origin": source.origin, "lines": len(lines),
                                "encoding": read.decode(source.path.read_bytes(), source.name, source.encoding)[1]})


def repair_text(ctx):
    """Reads: block and note text. Writes: the same, repaired (see repair.py); every change logged."""
    for reading in ctx.readings:
        flog = ctx.log.for_file(reading.file)
        for block in reading.blocks:
            block.text = repair.repair_text(block.text, block.first_line, flog)
            for note in block.notes:
                note.text = repair.repair_text(note.text, note.lines[0] if note.lines else block.first_line, flog)


def build_structure(ctx):
    """Reads: ctx.readings. Writes: ctx.fragments (article trees per source, with IDs and a line ledger)."""
    for reading in ctx.readings:
        edition_lines = [line for r in ctx.readings if r.edition == reading.edition for line in ctx.lines[r.file]]
        evidence = structure.Evidence(edition_lines)
        ctx.fragments.append(structure.build_fragment(reading, ctx.log, evidence))


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


def write_corpus(ctx):
    """Reads: ctx.corpus. Writes: corpus.xml, corpus.json (both schema-validated)."""
    errors = serialise.validate_xml(ctx.corpus)
    ctx.json = serialise.to_json(ctx.corpus)
    errors += serialise.validate_json(ctx.json)
    if errors:
        raise LawbookError("the corpus does not validate against its schema: " + "; ".join(errors[:5]),
                           file="schema/", fix="this is a bug in the pipeline; run with --debug and report it",
                           status=1)
    (ctx.tmp / "corpus.xml").write_bytes(serialise.to_xml(ctx.corpus))
    (ctx.tmp / "corpus.json").write_text(serialise.dump_json(ctx.json), encoding="utf-8")


def write_report(ctx):
    """Reads: ctx.log. Writes: report.json, report.txt."""
    ctx.log.write(ctx.tmp)


# The corpus in memory: what `show`, `check` and `diff` need.
CORPUS_STAGES = [load_sources, read_sources, parse_sources, repair_text, build_structure, merge_editions,
                 finish_corpus, account_lines, refs.find_references]
# Everything written to build/.
OUTPUT_STAGES = [write_corpus, write_report, graph.write_graph, markdown.write_markdown, html.write_html,
                 html.write_search_index, pdf.write_pdf, diff.write_diff]


def stages():
    """All stages in order."""
    return CORPUS_STAGES + OUTPUT_STAGES


def make_corpus(sources_dir, options=None):
    """Run the corpus stages only (no output): for `show`, tests and other commands."""
    ctx = BuildContext(Path(sources_dir), Path("."), options or {})
    for stage in CORPUS_STAGES:
        stage(ctx)
    return ctx


def build(sources_dir, out_dir, options=None):
    """Run every stage; swap the new output in only when all succeeded. Returns the context."""
    out_dir = Path(out_dir).resolve()
    ctx = BuildContext(Path(sources_dir), out_dir, options or {})
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    ctx.tmp = Path(tempfile.mkdtemp(prefix=out_dir.name + ".tmp-", dir=out_dir.parent))
    try:
        for stage in stages():
            start = time.perf_counter()
            stage(ctx)
            ctx.timings[stage.__name__] = time.perf_counter() - start
        _swap(ctx.tmp, out_dir)
    finally:
        if ctx.tmp.exists():
            shutil.rmtree(ctx.tmp, ignore_errors=True)
    return ctx


def _swap(new, target):
    """Replace `target` by `new` with renames only, so `target` is never half-written."""
    old = None
    if target.exists():
        old = target.with_name(f"{target.name}.old-{os.getpid()}")
        os.rename(target, old)
    os.rename(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
