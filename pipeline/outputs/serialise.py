"""Serialise the corpus tree: corpus.xml and corpus.json, both validated.

Reads: the corpus tree.
Writes: XML bytes and a JSON-ready dict with the same content.
Guarantees: deterministic output (same tree, same bytes); both validate against
the schemas in schema/ (RELAX NG for XML, JSON Schema for JSON), compiled once.
In JSON, notes and references inside a paragraph are given as character offsets
into the paragraph's plain text (the text without the notes); a note's `num` is the number the
book prints at its marker, where it prints one. A title's or heading's notes are `title_notes` /
`heading_notes` beside its words, the same way. A table is a content item among the paragraphs,
{"type": "table", "sources", "rows": [{"sources", "cells": [{"text", "notes", "refs"}, …]}, …]}: each
cell as a paragraph's text, notes and refs (offsets into the cell's text).
"""
import copy
import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..core import tree
from ..core.errors import LawbookError
from ..core.stage import SIDE, Stage
from ..core.view import Edition, element_id, optional_id

if TYPE_CHECKING:
    from .job import Job

# A JSON object of corpus.json (the corpus, an edition, a node, a paragraph …), as json.dumps writes it.
Json = dict[str, Any]

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schema"
# Parsing never resolves entities or touches the network.
SAFE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


@lru_cache(maxsize=None)
def relaxng() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMA_DIR / "corpus.rng"), SAFE_PARSER))


def json_schema() -> Json:
    schema: Json = json.loads((SCHEMA_DIR / "corpus.schema.json").read_text(encoding="utf-8"))
    return schema


@lru_cache(maxsize=None)
def json_validator() -> Callable[[Json], object]:
    """The JSON Schema compiled by fastjsonschema, as it comes, once per process: on the English book
    0.09 s to compile and 0.13 s to validate, where jsonschema, the reference implementation the
    tests also run, takes 0.5 s. Cheap enough for every build (docs/performance.md)."""
    import fastjsonschema

    return fastjsonschema.compile(json_schema())


def validate_xml(corpus: tree.Element) -> list[str]:
    """Errors as strings; empty when valid."""
    schema = relaxng()
    if schema.validate(corpus):
        return []
    return [f"line {e.line}: {e.message}" for e in schema.error_log]


@lru_cache(maxsize=None)
def split_validators() -> tuple[Callable[[Json], object], Callable[[Json], object]]:
    """The same schema as two validators: the corpus with each article taken as any object, and one
    article (its definition, `node`, with everything it refers to). An article is valid or not whatever
    stands around it, so validate_json checks each article once per process (a rebuild after an edit
    checks the articles that changed, not the book)."""
    import fastjsonschema

    schema = json_schema()
    frame = copy.deepcopy(schema)
    frame["definitions"]["edition"]["properties"]["articles"]["items"] = {"type": "object"}
    # The same $id: "#/definitions/node" is resolved in this document, never looked up elsewhere.
    article = {"$schema": schema["$schema"], "$id": schema["$id"], "$ref": "#/definitions/node",
               "definitions": schema["definitions"]}
    return fastjsonschema.compile(frame), fastjsonschema.compile(article)


# sha256 of the JSON text of each article found valid in this process, oldest first (at most VALID_KEPT).
_valid_articles: dict[bytes, None] = {}
VALID_KEPT = 1 << 16


def validate_json(data: Json) -> list[str]:
    """Errors as strings (the first one found, as the whole schema's validator words it); empty when valid.
    An article found valid before in this process (the same JSON text) is not checked again."""
    import fastjsonschema

    frame, article = split_validators()
    try:
        frame(data)
        for edition in data["editions"]:
            for art in edition["articles"]:
                key = hashlib.sha256(json.dumps(art, ensure_ascii=False, separators=(",", ":")).encode()).digest()
                if key in _valid_articles:
                    continue
                article(art)
                _valid_articles[key] = None
                if len(_valid_articles) > VALID_KEPT:
                    del _valid_articles[next(iter(_valid_articles))]
    except fastjsonschema.JsonSchemaValueException as split:  # (what a compiled validator raises)
        try:  # the message with its place in the whole corpus
            json_validator()(data)
        except fastjsonschema.JsonSchemaValueException as e:
            return [e.message]
        return [split.message]
    return []


def to_xml(corpus: tree.Element) -> bytes:
    return etree.tostring(corpus, encoding="UTF-8", xml_declaration=True, pretty_print=True)


def parse_xml(data: bytes | str) -> tree.Element:
    return etree.fromstring(data, SAFE_PARSER)


# -- JSON ---------------------------------------------------------------------
def source_lines(el: tree.Element, attribute: str = "sources") -> list[Json]:
    """The source lines a node was read from (its `origin`: first came from), as JSON: [{"file": name, "lines":
    [numbers]}] by file name."""
    return [{"file": name, "lines": sorted(lines)} for name, lines in sorted(tree.parse_sources(el.get(attribute)).items())]


def inline_json(el: tree.Element) -> Json:
    """Plain text of a mixed-content element, with notes and refs as offsets into it."""
    text: list[str] = []
    notes: list[Json] = []
    refs: list[Json] = []
    length = 0
    for kind, words, child in tree.inline(el):
        if kind == tree.NOTE:
            assert child is not None  # (a note's event is its element: tree.inline)
            note = inline_json(child)
            entry: Json = {"id": element_id(child), "offset": length, "form": child.get("form")}
            if child.get("num"):
                entry["num"] = child.get("num")
            entry.update(text=note["text"], sources=source_lines(child))
            if note["refs"]:
                entry["refs"] = note["refs"]
            notes.append(entry)
            continue
        assert words is not None  # (every other event has its words)
        if kind == tree.REF:
            assert child is not None  # (a reference's event has its element)
            ref: Json = {k: v for k, v in sorted(child.attrib.items())}  # type: ignore[misc]  # (lxml's stubs: str or bytes; a parsed tree's are str)
            ref.update({"words": words, "start": length, "end": length + len(words)})
            refs.append(ref)
        text.append(words)
        length += len(words)
    return {"text": "".join(text), "notes": notes, "refs": refs}


def paragraph_json(p: tree.Element) -> Json:
    data: Json = {"type": "p"}
    data.update(inline_json(p))
    if p.get("num"):
        data["num"] = p.get("num")
    data["sources"] = source_lines(p)
    return data


def table_json(table: tree.Element) -> Json:
    """A <table> (schema: table): its rows, each with its sources and its cells, each cell's text with its
    notes and refs as offsets into it (inline_json, as a paragraph's)."""
    return {"type": "table", "sources": source_lines(table),
            "rows": [{"sources": source_lines(row), "cells": [inline_json(cell) for cell in row.iterchildren("cell")]}
                     for row in table.iterchildren("row")]}


def text_json(el: tree.Element) -> Json:
    """A paragraph or a table of a node, the introduction or a definition, as its content item."""
    return table_json(el) if el.tag == "table" else paragraph_json(el)


def node_json(el: tree.Element) -> Json:
    data: Json = {"id": element_id(el), "type": el.tag, "num": el.get("num")}
    label = tree.label(el)
    if label is not None:
        # The words stay a string; a note marked in them is given beside them, at its offset in them.
        words = inline_json(label)
        data[label.tag] = words["text"]
        if words["notes"]:
            data[f"{label.tag}_notes"] = words["notes"]
    if el.get("numbering"):
        data["numbering"] = {"inferred": True, "evidence": el.get("evidence", "")}
    data["sources"] = source_lines(el)
    if el.get("origin"):  # (read from a Markdown master: where the text first came from)
        data["origin"] = source_lines(el, "origin")
    content: list[Json] = []
    for child in el:
        if child.tag in tree.TEXT_TAGS:
            content.append(text_json(child))
        elif child.tag == "gap":
            content.append({"type": "gap", "reason": child.get("reason")})
        elif child.tag in tree.NODE_TAGS:
            content.append(node_json(child))
        elif child.tag == "corr":
            content.append(corr_json(child))
    data["content"] = content
    return data


CORR_NUMBERS = ("paragraph", "start", "end", "line")


def corr_json(el: tree.Element) -> Json:
    """A correction applied to the node (schema: corr): its attributes, the numbers as numbers."""
    data: Json = {"type": "corr"}
    for key in ("kind", "was", "now", "paragraph", "start", "end", "basis", "line"):
        if (value := el.get(key)) is not None:
            data[key] = int(value) if key in CORR_NUMBERS else value
    return data


def commentary_json(el: tree.Element) -> Json:
    return {"id": element_id(el), "type": "commentary", "on": el.get("on"), "author": el.get("author"),
            "attribution": el.findtext("attribution"), "sources": source_lines(el),
            "content": [paragraph_json(p) for p in el.iterchildren("p")]}


def definition_json(el: tree.Element) -> Json:
    return {"id": element_id(el), "type": "definition", "term": el.get("term"), "sources": source_lines(el),
            "content": [text_json(p) for p in el.iterchildren(*tree.TEXT_TAGS)]}


def introduction_json(el: tree.Element) -> Json:
    """The book's Introduction (schema: introduction): its title, paragraphs and tables."""
    return {"id": element_id(el), "type": "introduction", "title": el.findtext("title"), "sources": source_lines(el),
            "content": [text_json(p) for p in el.iterchildren(*tree.TEXT_TAGS)]}


def edition_json(el: tree.Element) -> Json:
    ed = Edition(el)
    out: Json = {"id": ed.id}
    if (introduction := ed.introduction) is not None:  # (only a book whose sources hold its Introduction)
        out["introduction"] = introduction_json(introduction.element)
    definitions = el.find("definitions")
    if definitions is not None:  # (only a book whose sources hold its Definitions)
        out["definitions"] = [definition_json(d) for d in definitions]
    out["articles"] = [node_json(a.element) for a in ed.articles]
    out["commentary"] = [commentary_json(c.element) for c in ed.commentary]
    if (index := ed.index) is not None:  # (only a book whose sources hold its index)
        out["index"] = index_json(index.element)
    return out


def _index_refs(el: tree.Element) -> Json:
    """The refs and See cross-references of an index entry or sub-entry (schema: index_entry)."""
    ref_keys = ("to", "status", "kind", "reason")
    return {"refs": [{"words": r.text or "", **{k: r.get(k) for k in ref_keys if r.get(k) is not None}}
                     for r in el.iterchildren("ref")],
            "see": [{"words": s.text or "", **({"to": s.get("to")} if s.get("to") else {})}
                    for s in el.iterchildren("see")]}


def index_json(el: tree.Element) -> Json:
    """The book's index (schema: index): its entries, each with its refs, See and sub-entries."""
    entries: list[Json] = []
    for e in el.iterchildren("entry"):
        entry: Json = {"id": element_id(e), "headword": e.get("headword"), "sources": source_lines(e), **_index_refs(e)}
        if e.findtext("remark") is not None:
            entry["remark"] = e.findtext("remark")
        entry["subs"] = [{"label": s.get("label"), "sources": source_lines(s), **_index_refs(s)}
                         for s in e.iterchildren("sub")]
        entries.append(entry)
    return {"id": element_id(el), "sources": source_lines(el), "entries": entries}


def to_json(corpus: tree.Element) -> Json:
    language = {"language": corpus.get("language")} if corpus.get("language") else {}
    return {"format": "lawbook-corpus", "version": 1, **language,
            "editions": [edition_json(ed) for ed in corpus.iterchildren("edition")]}


def dump_json(data: Json) -> str:
    """Compact: the C encoder only runs without indentation (ten times faster on a large book).
    For reading by eye there are corpus.xml and `python -m pipeline show ID --json`."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_corpus(path: Path) -> tree.Element:
    """A corpus.xml file, parsed with the safe parser (no entities, no network) and valid against
    schema/corpus.rng: the comparison reads IDs, numbers and sources as the schema gives them, so a
    file that is not (an article without its id, a hand-edited file) is refused at its first fault."""
    try:
        root = parse_xml(path.read_bytes())
    except OSError as e:
        raise LawbookError(f"cannot read: {e.strerror}", file=str(path)) from None
    except etree.XMLSyntaxError as e:
        raise LawbookError(f"not well-formed XML: {e.msg}", file=str(path), line=e.lineno,
                           fix="give a corpus.xml written by `lawbook build`") from None
    if root.tag != "corpus":
        raise LawbookError(f"not a corpus (the root element is <{root.tag}>)", file=str(path),
                           fix="give a corpus.xml written by `lawbook build`")
    for el in root.iter("edition", *tree.NODE_TAGS, "note", "commentary"):
        if not optional_id(el):  # the fault a hand edit makes most; the schema would only say "attributes"
            num = f" {el.get('num')}" if el.get("num") else ""
            raise LawbookError(f"not a valid corpus: the <{el.tag}>{num} has no id", file=str(path),
                               line=el.sourceline,  # type: ignore[arg-type]  # (lxml's stubs: the line is an int or None)
                               fix="give a corpus.xml written by `lawbook build`, or rebuild it from its sources")
    schema = relaxng()
    if not schema.validate(root):
        fault = schema.error_log[0]
        raise LawbookError(f"not a valid corpus: {fault.message}", file=str(path), line=fault.line or None,
                           fix="give a corpus.xml written by `lawbook build`, or rebuild it from its sources")
    return root


def write_corpus(job: "Job") -> None:
    """Reads: job.corpus. Writes: corpus.xml, corpus.json (both schema-validated). The JSON object is not
    kept for other stages: at 930 articles x 2 it held a hundred MB for the rest of the build."""
    errors = validate_xml(job.corpus)
    data: Json = {}
    if not errors:  # (an element without the ID the schema promises has no JSON object: the XML's errors say so)
        data = to_json(job.corpus)
        errors = validate_json(data)
    if errors:
        raise LawbookError("the corpus does not validate against its schema: " + "; ".join(errors[:5]),
                           file="schema/", fix="this is a bug in the pipeline; run with --debug and report it",
                           status=1)
    (job.tmp / "corpus.xml").write_bytes(to_xml(job.corpus))
    (job.tmp / "corpus.json").write_text(dump_json(data), encoding="utf-8")


STAGES = [Stage("write_corpus", write_corpus, reads=("corpus", "tmp"),
                files=("corpus.xml", "corpus.json"), lane=SIDE)]
