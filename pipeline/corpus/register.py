"""The book's index in the corpus: one <index> per edition after its Laws, each headword an <entry> with its
citations as <ref>s resolved like the law text's, its sub-entries and its "See" cross-references.

    <index id="2017/index" sources="book.txt:2511-2820">
      <entry id="2017/index/appeal" headword="Appeal" sources="book.txt:2519,2521">
        <ref to="2017/92" status="ok">92</ref> …
        <sub label="Captain" sources="book.txt:2528"><ref to="2017/92A" status="ok">92A</ref> …</sub>
        <see to="2017/index/partnership-understanding">Partnership Understanding</see>
        <remark>Note: …</remark>
      </entry>

A citation is read with the references' citation form (refs.CITE: "12C1(d)" is 2017/12C1d); "Definitions"
names the definition of the entry's words (its sub-entry's, else its headword's), "Introduction" the
Introduction; "93 footnote" cites Law 93. Its status is the law text's (refs.classify): a citation no node of the
corpus holds is reported, with its line, as the law text's dangling references are. The reader
(reading/index.py) reads the index's lines; what it inferred, could not decide or could not read is reported.
"""
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from lxml import etree

from ..core import ids, tree
from ..core.lang import Profile
from ..core.model import Reading
from ..core.options import Options
from ..core.report import BuildLog, FileLog
from ..reading.index import Cited, Entry, read_index
from . import refs


class CorpusContext(Protocol):
    """What read_register asks of stages.CorpusContext (not imported: stages imports this module)."""
    readings: list[Reading]
    corpus: etree._Element
    sources_dir: Path
    options: Options
    profile: Profile
    log: BuildLog


KIND = "index"  # the blocks a reader keeps apart as the book's index (core/model.py APART_KINDS)
PLACES_DEFINITION, PLACES_INTRODUCTION = "def", "intro"


def _sources(file: str, lines: list[int]) -> str:
    return tree.format_sources({file: set(lines)})


def _terms(words: list[str]) -> list[str]:
    """The terms a "Definitions" citation may name, the likeliest first: the entry's words ("Visible" under
    "Card": "Visible Card"), the words in its brackets ("Imp (International Matchpoint)"), then its first words
    ("Withdrawn Action": "Withdrawn")."""
    label, head = words[0], words[-1]
    whole = [label] + ([f"{label} {head}"] if label != head else []) + ([head] if label != head else [])
    out = list(whole)
    for term in whole:
        out += re.findall(r"\(([^()]+)\)", term)
        parts = re.sub(r"\([^()]*\)", " ", term).split()
        out += [" ".join(parts[:n]) for n in range(len(parts) - 1, 0, -1)]
    return out


def _target(cited: Cited, edition: str, words: list[str], places: Mapping[str, str],
            definitions: set[str]) -> tuple[list[str], str | None]:
    """The IDs one citation names, and why it names none."""
    head = cited.words.split()[0]
    place = places.get(head)
    if place == PLACES_INTRODUCTION:
        return [ids.join(edition, ids.INTRODUCTION)], None
    if place == PLACES_DEFINITION:
        for term in _terms(words):
            target = ids.definition_id(edition, term)
            if target in definitions:
                return [target], None
        return [ids.definition_id(edition, words[-1])], None
    m = refs.CITE.fullmatch(head)
    if m is None:
        return [], f"'{head}' is not a citation of an article or a part of one"
    parts = refs.citation_parts(m)
    return [ids.join(edition, ids.make_citation(m.group("article"), *(parts[k] for k in ids.LEVELS[1:])))], None


def _refs(parent: etree._Element, cites: list[Cited], edition: str, words: list[str], places: Mapping[str, str],
          present: set[str], known: dict[str, str], flog: FileLog, where: str) -> None:
    for cited in cites:
        targets, reason = _target(cited, edition, words, places, present)
        ref = etree.SubElement(parent, "ref", {"to": " ".join(targets)})
        ref.text = cited.words
        if reason:
            ref.set("status", "suspect")
            ref.set("reason", reason)
            flog.damage(cited.line, f"the index cites {cited.words!r} under {where}: {reason}",
                        "kept as a suspect reference")
            continue
        if ids.parse_citation(ids.split_id(targets[0])[1]) is None:  # a definition or the Introduction
            status, kind = ("ok", None) if targets[0] in present else ("dangling", "part-absent")
        else:
            status, kind = refs.classify(targets[0], present, known)
        ref.set("status", status)
        if status == "dangling" and kind is not None:  # classify gives every dangling target its kind
            ref.set("kind", kind)
            flog.damage(cited.line, f"the index cites {cited.words!r} under {where}: {targets[0]} is not in the "
                                    f"corpus ({kind})", "kept as a dangling reference")


def _see(parent: etree._Element, targets: list[str], edition: str, headwords: dict[str, str], flog: FileLog,
         line: int) -> None:
    for words in targets:
        el = etree.SubElement(parent, "see")
        el.text = words
        key = ids.index_entry_id(edition, words)
        match = headwords.get(key) or headwords.get(ids.index_entry_id(edition, words.split(",")[0]))
        if match is None:  # "See Communication": the headword "Communication, Tempo and Deception"
            match = next((h for h in headwords if h.startswith(key + "-")), None)
        if match:
            el.set("to", match)
        else:
            flog.damage(line, f"the index sends the reader to {words!r}, which is no headword", "kept without a link")


def entry_element(entry: Entry, edition: str, file: str, headwords: dict[str, str], places: Mapping[str, str],
                  present: set[str], known: dict[str, str], flog: FileLog) -> etree._Element:
    """One headword's <entry>: its own citations and See, its remark, then its sub-entries'."""
    el = etree.Element("entry", {"id": ids.index_entry_id(edition, entry.headword), "headword": entry.headword,
                                 "sources": _sources(file, entry.lines)})
    where = repr(entry.headword)
    _refs(el, entry.cites, edition, [entry.headword], places, present, known, flog, where)
    _see(el, entry.see, edition, headwords, flog, entry.lines[0])
    if entry.note:
        etree.SubElement(el, "remark").text = entry.note
    for sub in entry.subs:
        s = etree.SubElement(el, "sub", {"label": sub.label, "sources": _sources(file, sub.lines)})
        _refs(s, sub.cites, edition, [sub.label, entry.headword], places, present, known, flog,
              f"{entry.headword!r}, {sub.label!r}")
        _see(s, sub.see, edition, headwords, flog, sub.lines[0])
    return el


def index_element(reading: Reading, edition_el: etree._Element, profile: Profile, known: dict[str, str],
                  log: BuildLog) -> etree._Element | None:
    """The <index> of one reading's index blocks, or None when it has none; its findings go to `log`."""
    lines = [(n, b.text) for b in reading.blocks if b.kind == KIND for n in b.lines]
    if not lines:
        return None
    flog = log.for_file(reading.file)
    read = read_index(lines, profile.rules)
    for f in read.findings:
        if f.kind == "unread":
            flog.damage(f.line, f"the index: {f.message}", "kept out of the index's entries")
        else:
            flog.inference(f.line, None, f"the index: {f.message}" + (" (uncertain)" if f.kind == "uncertain" and
                                                                     "uncertain" not in f.message else ""))
    edition = reading.edition
    present = {node_id for el in edition_el.iter() if (node_id := el.get("id")) is not None}
    el = etree.Element("index", {"id": ids.index_id(edition), "sources": _sources(reading.file, [n for n, _ in lines])})
    seen: dict[str, int] = {}
    headwords: dict[str, str] = {}
    # A headword without a letter or digit ("–", a stray mark) names no entry an ID can hold: left out, said.
    for entry in [e for e in read.entries if not ids.definition_slug(ids.index_entry_id(edition, e.headword))]:
        flog.damage(entry.lines[0], f"the index: {entry.headword!r} is no headword (no letter or digit in it)",
                    "kept out of the index's entries")
    read.entries = [e for e in read.entries if ids.definition_slug(ids.index_entry_id(edition, e.headword))]
    for entry in read.entries:
        node_id = ids.index_entry_id(edition, entry.headword)
        if node_id in seen:  # two headwords of one slug ("Deal", "Deal,"): the later one takes a number
            seen[node_id] += 1
            flog.inference(entry.lines[0], node_id, f"the index has {entry.headword!r} twice: the later entry's ID "
                                                    f"is numbered")
        else:
            seen[node_id] = 1
        headwords.setdefault(node_id, node_id)
    seen.clear()
    for entry in read.entries:
        child = entry_element(entry, edition, reading.file, headwords, profile.rules.INDEX_PLACES, present, known, flog)
        node_id = tree.attr(child, "id")
        seen[node_id] = seen.get(node_id, 0) + 1
        if seen[node_id] > 1:
            child.set("id", f"{node_id}-{seen[node_id]}")
        el.append(child)
    return el


def read_register(ctx: "CorpusContext") -> None:
    """Reads: ctx.readings (their index blocks), ctx.corpus, known-missing.toml. Writes: an <index> at the end
    of the edition of each source that has an index. Sources without one (the Dutch ones) change nothing."""
    known = None
    for reading in ctx.readings:
        if not any(b.kind == KIND for b in reading.blocks):
            continue
        edition_el = ctx.corpus.find(f"edition[@id='{reading.edition}']")
        if edition_el is None or edition_el.find("index") is not None:
            continue
        if known is None:
            known = refs.load_known_missing(ctx.sources_dir, ctx.options.known_missing)
        el = index_element(reading, edition_el, ctx.profile, known, ctx.log)
        if el is not None:
            edition_el.append(el)


def references(corpus: etree._Element) -> list[refs.Reference]:
    """Every target of every <ref> of the index, as refs.references gives the law text's (refs.Reference): the
    citing ID is the entry's, the location its line. For the reference check; the graph counts the law's own."""
    out = []
    for entry in corpus.iter("entry"):
        file_lines = tree.parse_sources(entry.get("sources"))
        for holder in (entry, *entry.iterchildren("sub")):
            where = [f"{name}:{min(nums)}" for name, nums in sorted(tree.parse_sources(holder.get("sources")).items())]
            for ref in holder.iterchildren("ref"):
                for target in (ref.get("to") or "").split() or [""]:
                    reference = refs.Reference(tree.attr(entry, "id"), target, ref.text or "", tree.attr(ref, "status"),
                                               locations=where or [f"{n}:{min(v)}" for n, v in file_lines.items()])
                    # A ref has a kind when dangling and a reason when suspect; else the Reference's None stands.
                    kind, reason = ref.get("kind"), ref.get("reason")
                    if kind is not None:
                        reference.kind = kind
                    if reason is not None:
                        reference.reason = reason
                    out.append(reference)
    return out
