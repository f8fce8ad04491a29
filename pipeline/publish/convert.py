"""`lawbook convert`: the current sources turned into the committee's own source, one Markdown master per edition
(reading/formats/markdown.py reads it) and a manifest that lists them, in a new folder; the old sources are
left alone.

Reads: SOURCES (its manifest, its sources, corrections.toml, known-missing.toml) through the corpus stages.
Writes: OUT/<edition>.md per edition (the build's Markdown edition: the corrected text, each node's origin, the
corrections' records), OUT/sources.toml and, when SOURCES has one, a copy of known-missing.toml. OUT must be
missing or empty. corrections.toml is not copied: its corrections are in the masters' text now, and their
records stand below the nodes they corrected (docs/sources.md, "The Markdown master").

The masters are read back before the folder is given: the corpus they make must hold the same nodes, words
and notes as the corpus of the old sources, and each node's origin must be the old sources' lines, or the
conversion fails naming the first difference and OUT is not made.
"""
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..core import tree
from ..core.errors import BuildFailed, LawbookError
from ..core.options import Options
from ..corpus.stages import CorpusContext, made_tree
from ..outputs import markdown
from ..reading import manifest
from .run import make_corpus

KNOWN_MISSING = "known-missing.toml"


@dataclass(frozen=True)
class Converted:
    """What `convert` wrote: the folder and each edition's master (file name, edition), in edition order."""
    folder: Path
    masters: tuple[tuple[str, str], ...]


def master_name(edition: str) -> str:
    """The file of one edition's master: '2017.md'."""
    return f"{edition}.md"


def convert(sources: Path, out: Path, options: Options | None = None) -> Converted:
    """Writes the masters of the corpus of `sources` into `out` (missing or empty), checked by reading them back."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise LawbookError("the folder for the masters is not empty", file=str(out),
                           fix="give a new folder (convert never writes over files), or empty this one")
    if out.resolve() == sources.resolve():
        raise LawbookError("the masters cannot be written into the sources folder", file=str(out),
                           fix="give a new folder; the old sources stay where they are")
    ctx = make_corpus(sources, options or Options())
    if ctx.log.errors:
        # (a master of a book that does not build would carry its errors into the committee's source)
        raise BuildFailed(ctx.log.errors, "the report.txt of `lawbook build`", out)
    old = manifest.load_manifest(sources)
    corpus = made_tree(ctx)
    editions = [str(e.get("id")) for e in corpus.iterchildren("edition")]
    masters = tuple((master_name(edition), edition) for edition in editions)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, edition in masters:
            (staging / name).write_text(markdown.render(corpus, edition, ctx.profile), encoding="utf-8")
        (staging / manifest.MANIFEST).write_text(manifest_text(old, masters, sources), encoding="utf-8")
        if (sources / KNOWN_MISSING).is_file():
            shutil.copyfile(sources / KNOWN_MISSING, staging / KNOWN_MISSING)
        differences = compare(ctx, make_corpus(staging, Options(cache_dir=(options or Options()).cache_dir)))
        if differences:
            raise LawbookError(f"the masters do not read back to the same corpus: {differences[0]}"
                               + (f" (and {len(differences) - 1} more differences)" if len(differences) > 1 else ""),
                               file=str(sources), fix="report this: the Markdown writer or reader lost something")
        if out.exists():
            out.rmdir()  # (empty: checked above)
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # only the folder this call made
        raise
    return Converted(out, masters)


def manifest_text(old: manifest.Manifest, masters: tuple[tuple[str, str], ...], sources: Path) -> str:
    """The masters' sources.toml: the book's language, publisher and copyright as before; one entry per master,
    its origin and description naming the old sources it was made from."""
    def value(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string

    book = old.sources[0] if old.sources else None
    lines = ["# The committee's Markdown masters, one per edition, written by `lawbook convert` from "
             f"{sources.name}/ (docs/sources.md).",
             "# Edit them, not the old sources: `make` and `lawbook serve --watch` read them like any source.",
             "# The corrections of the old corrections.toml are in their text; each one's record stands below its "
             "node's heading.",
             f"language = {value(old.language)}"]
    if book is not None and book.publisher:
        lines.append(f"publisher = {value(book.publisher)}")
    if book is not None and book.copyright:
        lines.append(f"copyright = {value(book.copyright)}")
    for name, edition in masters:
        made_from = [s for s in old.sources if s.edition == edition]
        origin = "Markdown master of edition " + edition + ", made by lawbook convert from: " + \
            "; ".join(f"{s.path.name} ({s.origin})" if s.origin else s.path.name for s in made_from)
        description = "; ".join(s.description for s in made_from if s.description)
        lines += ["", "[[source]]", f"file = {value(name)}", f"edition = {value(edition)}", 'format = "markdown"',
                  f"origin = {value(origin)}"]
        if description:
            lines.append(f"description = {value(description)}")
    return "\n".join(lines) + "\n"


def compare(old: CorpusContext, new: CorpusContext) -> list[str]:
    """The differences between two corpora in what a master must keep: each node's ID, level, number, label
    and text with its notes' places, numbers and words, gaps, commentary, corrections' records, and where each
    node of the law first came from (the new node's origin against the old node's sources). Empty when they agree."""
    a, b = nodes_of(made_tree(old)), nodes_of(made_tree(new))
    out = [f"{key} is missing" for key in a if key not in b] + [f"{key} is new" for key in b if key not in a]
    for key, (what, sources) in a.items():
        if key in b and b[key][0] != what:
            out.append(f"{key} reads differently")
        elif key in b and b[key][1] is not None and sources and b[key][1] != sources:
            out.append(f"{key} names another origin ({b[key][1]} for {sources})")
    return out


def nodes_of(corpus: etree._Element) -> dict[str, tuple[tuple[object, ...], str | None]]:
    """{ID: ((tag, num, author, on, the content: (tag, words with [note], notes, references, reason, record)),
    where from)} for every node, introduction, definition and commentary."""
    out: dict[str, tuple[tuple[object, ...], str | None]] = {}
    for el in corpus.iter("article", *tree.NODE_TAGS, "introduction", "definition", "commentary"):
        content = tuple((c.tag, _words(c), tuple((n.get("num"), tree.plain_text(n)) for n in c.iter("note")),
                         tuple((r.get("to"), r.get("status"), tree.plain_text(r)) for r in c.iter("ref")),
                         c.get("reason"), tuple(sorted((k, v) for k, v in c.attrib.items() if k != "sources"))
                         if c.tag == "corr" else ())
                        for c in el if c.tag in ("title", "heading", "p", "table", "gap", "attribution", "corr"))
        key = str(el.get("id"))
        # (a node's heading keeps its origin; commentary, the introduction and definitions name the master's lines)
        out[key] = ((el.tag, el.get("num"), el.get("author"), el.get("on"), content),
                    (el.get("origin") or el.get("sources")) if el.tag in tree.NODE_TAGS else None)
    return out


def _words(el: etree._Element) -> str:
    """The words of a text element with '[note]' where each note stands."""
    parts: list[str] = []

    def walk(e: etree._Element) -> None:
        if e.text:
            parts.append(e.text)
        for child in e:
            if child.tag == "note":
                parts.append("[note]")
            else:
                walk(child)
            if child.tail:
                parts.append(child.tail)
    walk(el)
    return "".join(parts)
