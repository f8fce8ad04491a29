"""Blocks to article trees: restore the law's numbering and give every node its ID.

Reads: a Reading (blocks of one source, text already repaired) and its format's Rules
(reading.rules, declared in reading/formats): what the layout writes and what must be restored.
Writes: a Fragment: the articles and commentary this source shows, as lxml
elements (see tree.py), plus a ledger line -> Placed(node ID) or Accounted(reason)
for every line used.
Guarantees:
  - a shown article belongs to its own number, whatever page shows it;
  - list numbers become the letters/numbers of the level they stand for, from the
    evidence of the page ("Artikel 50D" then "1." = subsection 50D1) and the
    indentation; a number the format's rules do not take as written (Rules.list_numbers)
    is logged as an inference with the citations in the sources that confirm it
    ("artikel 53A", "(maar zie B)", "C2 hierboven");
  - every block ends up in exactly one node, or in the ledger with a reason;
  - a table block (kind "table", its rows) is a <table> in the node open where it stands (after a
    definition: that definition's; among the introduction's paragraphs: the introduction's), in order
    among the node's paragraphs; its lines, its rows' and its notes' are the node's, in its sources and
    the ledger;
  - numbering never goes back inside one showing of an article (a section, subsection
    or item that begins again, or comes after a later one, is an error: it is how the
    text of an article whose heading line was not recognised shows up), and an article
    whose sections are numbered gets no section from a lone heading-like line (where the
    rules read such lines as sections at all);
  - where the rules say the source is the book's pages in order, the article numbers go up;
  - one article shown twice in one source is merged as merge.py merges two sources:
    the same text once (the repeat logged), different text a conflict.
"""
import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from lxml import etree

from ..core import ids, lang, report, tree
from ..core.memo import Memo, digest as memo_digest
from ..core.model import APART_KINDS, CLOSES_LIST, NO_LEAD_IN, NOTE_MARK, Accounted, Block, Placed, Reading, Rules
from ..core.report import BuildLog, FileLog
from ..core.tree import Element
from ..reading.decode import Line
from . import merge
from ..reading.formats.common import is_heading_like

LEVEL_INDEX = {level: i for i, level in enumerate(ids.LEVELS)}

# The words of an inferred node's evidence (its `evidence` attribute and its report entry) that say what it
# rests on: a level read from the indentation of its list number, and whether a citation confirms it. The
# fidelity check (fidelity.py) reads them back with rests_on_indentation().
INDENTED = " indented {levels} level(s)"
CONFIRMED = "; confirmed by "
UNCONFIRMED = "; no citation in the sources confirms it"
_INDENTED = re.compile(r"\blist number (\d+)\." + re.escape(INDENTED).replace(r"\{levels\}", r"\d+"))


def rests_on_indentation(evidence: str) -> tuple[int, bool] | None:
    """Where an inferred node's evidence reads its level from the indentation of its list number: (the list
    number as written, whether no citation confirms it); None where its level is not read from indentation."""
    m = _INDENTED.search(evidence)
    if not m:
        return None
    return int(m.group(1)), evidence.endswith(UNCONFIRMED)


@dataclass
class Fragment:
    file: str
    edition: str
    articles: list[Element] = field(default_factory=list)
    commentary: list[Element] = field(default_factory=list)
    definitions: list[Element] = field(default_factory=list)  # <definition> elements, in the order of the source
    introduction: etree._Element | None = None  # the book's <introduction>, where this source holds it
    second_introduction: bool = False  # a second title was read: the paragraphs after it are set aside
    ledger: dict[int, Placed | Accounted] = field(default_factory=dict)  # line -> Placed(node id) or Accounted(reason)
    node_lines: dict[str, set[int]] = field(default_factory=dict)  # node id -> source lines, written out once at the end
    no_lead_in: set[str] = field(default_factory=set)  # node ids the source writes with no text before their list


class Evidence:
    """Citations in the sources that confirm an inferred number.

    The lines are indexed once (citation -> lines citing it, line -> text), so a
    lookup costs the citations and article lines it touches, not all the
    edition's lines: building stays linear in the size of the sources. What cites
    and confirms is the book's language's (its profile's EVIDENCE_* patterns).
    """

    def __init__(self, lines: Iterable[Line], profile: lang.Profile) -> None:
        self.profile = profile
        self.rules = self.profile.rules
        self.text: dict[tuple[str, int], str] = {}  # (file, line) -> text
        self.citing: dict[str, list[tuple[str, int, str]]] = {}  # citation -> [(file, line, matched words)], in line order, first match per line
        for line in lines:
            text = line.text.replace("\u00a0", " ")
            self.text[(line.file, line.num)] = text
            seen = set()
            for m in _citing(self.profile).finditer(text):
                if m.group(1) not in seen:
                    seen.add(m.group(1))
                    self.citing.setdefault(m.group(1), []).append((line.file, line.num, m.group()))

    @classmethod
    def of_sources(cls, sources: Iterable[tuple[bytes, Sequence[Line]]], profile: lang.Profile) -> "Evidence":
        """The evidence of an edition's sources, given as (the digest of a source's lines, the lines) in the
        order of the book: each source's index taken from the memo of this process where the same lines were
        indexed before, and put together as one index of all their lines would be."""
        evidence = cls([], profile)
        memo = Evidence.memo(profile)
        for key, lines in sources:
            found = memo.get(key)
            if found is None:
                found = cls(lines, profile)
                memo.put(key, found)
            else:
                memo.reused += 1
            evidence.text.update(found.text)
            for cite, citing in found.citing.items():
                evidence.citing.setdefault(cite, []).extend(citing)
        return evidence

    @staticmethod
    @lang.per_profile
    def memo(profile: lang.Profile) -> "Memo[Evidence]":
        """Each source's evidence (its lines indexed) made in this process, by lines_digest()."""
        return Memo("evidence")

    def citations(self, cite: str) -> list[tuple[str, int, str]]:
        """The first three lines that cite `cite`: (file, line, the citing words)."""
        return self.citing.get(cite, [])[:3]

    def line_text(self, file: str, num: int) -> str | None:
        return self.text.get((file, num))

    def find(self, article_lines: "RelativePlaces | Iterable[tuple[str, int]]", node_id: str, level: str,
             num: str) -> list[str]:
        """The first three places that confirm node `node_id` (a `level` numbered `num`): the lines that cite
        it (citations()), then those of its showing, `article_lines` ((file, line) pairs, or the RelativePlaces
        a builder made of them once for all its nodes), that cite it relatively ("maar zie B", "C2 hierboven",
        "volgens (a)")."""
        if not isinstance(article_lines, RelativePlaces):
            article_lines = RelativePlaces(article_lines)
        edition, cite = ids.split_id(node_id)
        found = [f"'{words}' ({report.location(file, n)})" for file, n, words in self.citations(cite)]
        if len(found) >= 3:
            return found
        section = cite.lstrip("0123456789")[:1] if level == "subsection" else ""  # "50D2" -> "D"
        return (found + article_lines.of(self, level, section + num))[:3]


# What a relative citation may cite, per level, in the place of its number in the EVIDENCE_* patterns.
ANY_NUMBER = {"section": "([A-Z])", "subsection": "(\\d+)", "item": "([a-z]+)"}


class RelativePlaces:
    """The lines of one showing of an article, and the places in them that cite a number of it relatively
    (the profile's EVIDENCE_SECTION, _SUBSECTION, _ITEM patterns: "maar zie B", "C2 hierboven", "volgens
    (a)"), found for every number of a level in one pass over the lines when that level is first asked:
    asking for each node in turn was a pass per node, quadratic in a long list (10,000 subsections of one
    section took 334 s)."""

    def __init__(self, lines: Iterable[tuple[str, int]]) -> None:
        self.lines = sorted(set(lines))
        self.found: dict[str, dict[str, list[str]]] = {}  # level -> number ("B", "D2", "a") -> its places, in order

    def of(self, evidence: Evidence, level: str, number: str) -> list[str]:
        """The first three places of the showing that cite `number` (a section's letter, a subsection's section
        letter and number, an item's letter) relatively, quoted with the word before them."""
        kind = level if level in ("section", "subsection") else "item"
        if kind not in self.found:
            self.found[kind] = self._index(evidence, kind)
        return self.found[kind].get(number, [])

    def _index(self, evidence: Evidence, kind: str) -> dict[str, list[str]]:
        rules = evidence.rules
        if kind == "section":
            pattern, specific = rules.EVIDENCE_SECTION.format(num=ANY_NUMBER["section"]), rules.EVIDENCE_SECTION
        elif kind == "subsection":
            pattern = rules.EVIDENCE_SUBSECTION.format(section=ANY_NUMBER["section"], num=ANY_NUMBER["subsection"])
            specific = rules.EVIDENCE_SUBSECTION
        else:
            pattern, specific = rules.EVIDENCE_ITEM.format(num=ANY_NUMBER["item"]), rules.EVIDENCE_ITEM
        generic = re.compile(pattern)
        out: dict[str, list[str]] = {}
        for file, n in self.lines:
            text = evidence.line_text(file, n)
            if text is None:
                continue
            numbers = dict.fromkeys("".join(g for g in m.groups() if g) for m in generic.finditer(text))
            for number in numbers:
                places = out.setdefault(number, [])
                if len(places) >= 3:
                    continue
                # The words as the pattern of this very number finds them first on the line (as find() quoted
                # them when it searched each number's pattern).
                if kind == "subsection":
                    one = specific.format(section=number[0], num=number[1:])
                else:
                    one = specific.format(num=number)
                if (m := re.search(one, text)) is None:
                    continue
                # Quote the word before "(a)" too ("volgens (a)"); found by looking back from the
                # match, since a pattern starting with an optional word is slow on long lines.
                before = re.search(r"\w+\s+$", text[max(0, m.start() - 40):m.start()])
                places.append(f"'{before.group() if before else ''}{m.group()}' ({report.location(file, n)})")
        return out


class AskedEvidence(Evidence):
    """The evidence of an edition as the building of one source's fragment asks it: every answer is kept
    (the citations of each cited node; the text of a line of another source, where one is asked: the
    source's own lines are part of the fragment's key), so that a fragment built with these answers is
    known to be the fragment of any book that gives the same ones (fragment())."""

    def __init__(self, evidence: Evidence, file: str) -> None:  # (the index is the evidence's, not made again)
        self.evidence = evidence
        self.profile = evidence.profile
        self.rules = evidence.rules
        self.file = file
        self.cited: dict[str, tuple[tuple[str, int, str], ...]] = {}
        self.texts: dict[tuple[str, int], str | None] = {}

    def citations(self, cite: str) -> list[tuple[str, int, str]]:
        found = self.evidence.citations(cite)
        self.cited[cite] = tuple(found)
        return found

    def line_text(self, file: str, num: int) -> str | None:
        text = self.evidence.line_text(file, num)
        if file != self.file:
            self.texts[(file, num)] = text
        return text


class ArticleBuilder:
    """Builds the nodes of one shown article (or part of one) from its blocks."""

    def __init__(self, fragment: Fragment, flog: FileLog, evidence: Evidence, rules: Rules, article_el: Element,
                 anchor_block: Block) -> None:
        self.fragment = fragment
        self.flog = flog
        self.evidence = evidence
        self.rules = rules
        self.article = article_el
        self.article_lines: set[int] = set()
        self.open: dict[str, Element] = {"article": article_el}  # the open node at each level
        self.context = article_el  # deepest node opened by the page anchor or a heading
        self.anchor_lines = anchor_block.lines
        self.heading_sections: set[str] = set()  # sections numbered from the order of lone headings
        self.relative: RelativePlaces | None = None  # the showing's lines, indexed when a node first asks
        self.numbers: dict[Element, _Numbers] = {}  # each parent's children, by number (node())

    # -- nodes ----------------------------------------------------------------
    def node(self, parent: Element, level: str, num: str, block: "Block | _AnchorBlock", how: str,
             basis: str | None = None) -> Element:
        """The new child `num` at `level` below `parent`; `how` is 'source' or 'inferred'. A child that exists
        already, or a higher sibling, is a structure error (the rest of the showing is set aside)."""
        if past := ids.too_long(num, level):  # a list or a heading numbered so far: refused by its line (run())
            raise past
        numbers = self.numbers.get(parent)
        if numbers is None:
            numbers = self.numbers[parent] = _Numbers(parent)
        existing = numbers.child(num)
        later = numbers.after(level, num)
        if existing is not None or later is not None:
            node_id = ids.child_id(parent.get("id"), num)
            other = existing if existing is not None else later
            first = min(self.fragment.node_lines.get(other.get("id"), [block.first_line]))
            self.structure_error(block.first_line,
                                 (f"{node_id} begins a second time at line {block.first_line} (first at line {first})"
                                  if existing is not None else
                                  f"{node_id} at line {block.first_line} comes after {other.get('id')} (line {first})")
                                 + ", but numbering does not go back inside one article")
        el = numbers.add(level, num, ids.child_id(parent.get("id"), num))
        if how == "inferred":
            el.set("numbering", "inferred")
            if set(block.lines) <= self.article_lines:  # the showing's lines: indexed once for all its nodes
                if self.relative is None:
                    self.relative = RelativePlaces((self.fragment.file, n) for n in self.article_lines)
                places = self.relative
            else:  # the page anchor's lines too, for this node alone
                places = RelativePlaces((self.fragment.file, n) for n in self.article_lines | set(block.lines))
            found = self.evidence.find(places, el.get("id"), level, num)
            message = f"{level} {num} of {parent.get('id')} inferred from {basis}"
            message += CONFIRMED + ", ".join(found) if found else UNCONFIRMED
            el.set("evidence", message)
            self.flog.inference(block.first_line, el.get("id"), message)
        self.open[level] = el
        for deeper in ids.LEVELS[LEVEL_INDEX[level] + 1:]:
            self.open.pop(deeper, None)
        self.touch(el, block.lines)
        return el

    def structure_error(self, line: int, what: str) -> NoReturn:
        """Numbering that contradicts itself inside one showing of an article: the sign that the text
        of another article was read into this one. Reported once, then raises _Derailed: run() sets the
        rest of the showing aside, so that nothing of it is read into the wrong article."""
        self.flog.error(line, f"{what}: the text from here on is probably another article's, whose heading line "
                              f"was not recognised, and is set aside; check the lines above for a damaged article "
                              f"heading", self.article.get("id"))
        raise _Derailed(line)

    def touch(self, el: Element, lines: Iterable[int]) -> None:
        """Record that `lines` belong to `el` (and so to all its ancestors)."""
        for ancestor in [el] + list(el.iterancestors()):
            if ancestor.tag in tree.NODE_TAGS:
                self.fragment.node_lines.setdefault(ancestor.get("id"), set()).update(lines)
        placed = Placed(el.get("id"))
        for n in lines:
            self.fragment.ledger[n] = placed

    def deepest_open(self) -> Element | None:
        for level in reversed(ids.LEVELS):
            if level in self.open:
                return self.open[level]
        return None

    def paragraph(self, el: Element, block: Block, tag: str = "p") -> None:
        if not block.text and not block.notes:
            return
        el.append(tree.make_paragraph(block.text, block.notes, self.fragment.file, block.lines, tag))
        self.touch(el, block.lines + [n for note in block.notes for n in note.lines])

    def table(self, el: Element, block: Block) -> None:
        """A table block in the node open where it stands, after what that node holds so far (in order among
        its paragraphs); its lines, its rows' and its notes' are the node's."""
        made = table_element(block, self.fragment.file, self.flog, el.get("id"))
        if made is None:
            return self.paragraph(el, block)
        el.append(made)
        self.touch(el, table_lines(block))

    def heading(self, el: Element, block: Block, tag: str = "heading") -> None:
        if el.find(tag) is not None:
            self.flog.damage(block.first_line, f"{el.get('id')} has a second {tag}", "kept as a paragraph")
            return self.paragraph(el, block)
        # A note marked in the title or heading stays there, where the book marks it ("… CARDS²").
        h = tree.make_paragraph(block.text, block.notes, self.fragment.file, block.lines, tag)
        # Heading first, before any paragraph or child.
        el.insert(0, h)
        self.touch(el, block.lines + [n for note in block.notes for n in note.lines])

    # -- blocks ---------------------------------------------------------------
    def anchor(self, cite: str, blocks: list[Block]) -> list[Block]:
        """The page anchor "Artikel 50D": open its section/subsection; the next line may be its heading."""
        parts = ids.parse_citation(cite)
        anchor_block = blocks[0] if blocks else None
        if parts["section"]:
            sec = self.node(self.article, "section", parts["section"], _AnchorBlock(self.anchor_lines), "source")
            self.context = sec
            if parts["subsection"]:
                self.context = self.node(sec, "subsection", parts["subsection"], _AnchorBlock(self.anchor_lines),
                                         "source")
            if anchor_block is not None and anchor_block.kind == "heading":
                letter, digits = anchor_block.cite[0], anchor_block.cite[1:]
                if letter != parts["section"] or (digits and digits != (parts["subsection"] or "")):
                    self.flog.damage(anchor_block.first_line,
                                     f"heading '{anchor_block.cite}.' does not match the page anchor 'Artikel {cite}'",
                                     "the anchor's number is used")
                self.heading(sec, anchor_block)
                if digits:
                    self.flog.inference(anchor_block.first_line, sec.get("id"),
                                        f"'{anchor_block.cite}. {anchor_block.text}' read as the heading of section "
                                        f"{letter}, followed by subsection {letter}{digits}")
                return blocks[1:]
            return blocks
        if anchor_block is not None and anchor_block.kind in ("para", "title") and is_heading_like(anchor_block.text):
            self.heading(self.article, anchor_block, tag="title")
            return blocks[1:]
        return blocks

    def run(self, cite: str, blocks: list[Block]) -> None:
        blocks = self.anchor(cite, blocks)
        self.base = self.context
        for block in blocks:
            self.article_lines.update(block.lines)
        groups = _groups(blocks)
        try:
            for group in groups:
                if self._group_as_subsections(group):
                    continue
                for block in group:
                    try:
                        self.block(block, single=len(group) == 1)
                    except ids.NumberPastLetters as past:  # section 27: refused by its line, the rest set aside
                        self.flog.error(block.first_line, f"{past}; split the list or number it as the book does",
                                        self.article.get("id"))
                        raise _Derailed(block.first_line) from None
        except _Derailed as derailed:
            # The rest of this showing is set aside, from the block that derailed it on (never guessed into
            # this article); the error names the line.
            reason = Accounted(f"set aside after the structure error at line {derailed.line} (error)")
            rest = [b for b in blocks if b.first_line >= derailed.line]
            for block in rest:
                self.fragment.ledger.update({n: reason for n in block.lines + [n for note in block.notes
                                                                                  for n in note.lines]})

    def block(self, block: Block, single: bool) -> None:
        if block.kind == "title":
            return self.heading(self.article, block, tag="title")
        if block.kind == "heading" and block.cite is None:  # a run-in heading of the node just opened (headings.py)
            return self.heading(self.deepest_open(), block)
        if block.kind == "heading":
            letter, digits = block.cite[0], block.cite[1:]
            sec = self.node(self.article, "section", letter, block, "source")
            if block.text:  # (a section the book gives no heading: Laws 35 and 56)
                self.heading(sec, block)
            self.context = sec
            if digits:
                self.context = self.node(sec, "subsection", digits, block, "source")
            return
        if block.kind == "list":
            return self.list_entry(block)
        if block.kind == "table" and block.cite != CLOSES_LIST:  # in the node open here, among its paragraphs
            return self.table(self.deepest_open(), block)
        if block.kind == "table":  # standing on its own after a list's last entry, as a paragraph may
            return self.closing_paragraph(block)
        # A lone heading-like line in an article shown whole, without numbers: the next section.
        if (self.rules.headings_are_sections and single and self.base.tag == "article" and is_heading_like(block.text)
                and not block.notes and self.article.find("title") is not None):
            sections = [c for c in tree.child_nodes(self.article) if c.tag == "section"]
            numbered = [c.get("num") for c in sections if c.get("num") not in self.heading_sections]
            if numbered:
                # Sections numbered in the source and then one without a number: not a section of this article.
                self.structure_error(block.first_line,
                                     f"{block.text!r} stands alone like a section heading, but the sections of "
                                     f"{self.article.get('id')} are numbered in the source ({', '.join(numbered)})")
            num = ids.letter_for(len(sections) + 1, "section")
            sec = self.node(self.article, "section", num, block,
                            "inferred", "the order of the headings (the source has no letters)")
            self.heading_sections.add(num)
            self.heading(sec, block)
            self.context = sec
            return
        if block.cite == CLOSES_LIST:
            return self.closing_paragraph(block)
        self.paragraph(self.deepest_open(), block)

    def closing_paragraph(self, block: Block) -> None:
        """A paragraph the reader found after the last entry of a list (model.CLOSES_LIST, its level the
        list's): text of the list's parent, which it applies to, not of the last entry."""
        index = LEVEL_INDEX[self.context.tag] + 1 + block.level
        parent = self.open.get(ids.LEVELS[index - 1]) if 0 < index <= len(ids.LEVELS) else None
        last = self.open.get(ids.LEVELS[index]) if index < len(ids.LEVELS) else None
        place = self.table if block.kind == "table" else self.paragraph  # (a table may close a list too)
        if parent is None or last is None:
            return place(self.deepest_open(), block)
        what = "table" if block.kind == "table" else "paragraph"
        self.flog.inference(block.first_line, parent.get("id"),
                            f"the {what} at line {block.first_line} stands on its own after {last.get('id')}, the "
                            f"last entry of its list: read as text of {parent.get('id')}, which the list belongs to")
        for deeper in ids.LEVELS[index:]:
            self.open.pop(deeper, None)
        place(parent, block)

    def list_entry(self, block: Block) -> None:
        base = LEVEL_INDEX[self.context.tag]
        index = base + 1 + block.level
        if index >= len(ids.LEVELS) or ids.LEVELS[index] not in self.rules.list_numbers:
            self.flog.damage(block.first_line, f"list number {block.number}. nested deeper than an item",
                             "kept as a paragraph with its number")
            block.text = f"{block.number}. {block.text}"
            return self.paragraph(self.deepest_open(), block)
        level = ids.LEVELS[index]
        parent = self.open.get(ids.LEVELS[index - 1])
        if parent is None:
            self.flog.damage(block.first_line, f"list number {block.number}. at {level} level without a parent",
                             "kept as a paragraph with its number")
            block.text = f"{block.number}. {block.text}"
            return self.paragraph(self.deepest_open(), block)
        num = str(block.number) if level == "subsection" else ids.letter_for(block.number, level)
        # Whether this layout writes a list number at this level as the node's number, or the number
        # stands for a letter it did not write ("1." directly under an article: section A).
        how = self.rules.list_numbers[level]
        basis = f"list number {block.number}." + (INDENTED.format(levels=block.level) if block.level else "")
        el = self.node(parent, level, num, block, how, basis)
        if block.cite == NO_LEAD_IN:
            self.fragment.no_lead_in.add(el.get("id"))
        if block.extra_number and index + 1 < len(ids.LEVELS) and ids.LEVELS[index + 1] in self.rules.list_numbers:
            inner = ids.LEVELS[index + 1]
            inner_num = str(block.extra_number) if inner == "subsection" else ids.letter_for(block.extra_number, inner)
            el = self.node(el, inner, inner_num, block,
                           "inferred", f"the second list number in '{block.number}. {block.extra_number}.'")
        elif block.extra_number:
            self.flog.damage(block.first_line, f"list number {block.extra_number}. nested deeper than an item",
                             "kept as a paragraph with its number")
            block.text = f"{block.extra_number}. {block.text}"
        # "1. Gedekte uitkomst" followed by its text: the number stands for a section with a heading.
        if level == "section" and is_heading_like(block.text, max_length=160):
            self.heading(el, block)
        else:
            self.paragraph(el, block)

    def _group_as_subsections(self, group: list[Block]) -> bool:
        """Several unnumbered paragraphs in one block under a section heading: its subsections 1, 2, …

        (16C: "Voor een niet-overtredende partij …" / "Voor een overtredende partij …" /
        "… C2 hierboven …"). Only where the rules say so (a wiki export, where each paragraph is one line).
        """
        if not self.rules.paragraphs_are_subsections or len(group) < 2 or any(b.kind != "para" for b in group):
            return False
        sec = self.context
        if sec.tag != "section" or any(c.tag == "subsection" for c in tree.child_nodes(sec)):
            return False
        for n, block in enumerate(group, 1):
            sub = self.node(sec, "subsection", str(n), block, "inferred",
                            f"paragraph {n} of {len(group)} standing together under the section heading")
            self.paragraph(sub, block)
        self.context = sec
        return True


class _Numbers:
    """The structural children of one parent by number, for node(): whether a number is there already and
    the first sibling of a level numbered after one, each in constant time, where a look through every
    child was quadratic in a long list. Every child a builder adds comes through add()."""

    def __init__(self, parent: Element) -> None:
        self.parent = parent
        self.by_number: dict[str, Element] = {}
        self.keys: dict[str, list[ids.SortKey]] = {}  # level -> its children's keys, in number order
        self.children: dict[str, list[Element]] = {}  # level -> its children, in the same order
        for c in tree.child_nodes(parent):
            self.by_number.setdefault(tree.attr(c, "num"), c)
            self.keys.setdefault(c.tag, []).append(ids.sort_key(tree.attr(c, "num"), c.tag))
            self.children.setdefault(c.tag, []).append(c)
        for level in self.keys:
            pairs = sorted(zip(self.keys[level], range(len(self.keys[level]))))
            self.children[level] = [self.children[level][i] for _, i in pairs]
            self.keys[level] = [key for key, _ in pairs]

    def child(self, num: str) -> Element | None:
        """The first child numbered `num`, at any level (tree.find_child)."""
        return self.by_number.get(num)

    def after(self, level: str, num: str) -> Element | None:
        """The first child at `level` numbered after `num`, or None."""
        keys = self.keys.get(level, [])
        at = bisect.bisect_right(keys, ids.sort_key(num, level))
        return self.children[level][at] if at < len(keys) else None

    def add(self, level: str, num: str, node_id: str) -> Element:
        """A new child numbered `num` at `level`, in number order among its siblings (tree.add_child)."""
        el = tree.add_child(self.parent, level, num, node_id) if self.after(level, num) is not None \
            else tree.append_child(self.parent, level, num, node_id)
        key = ids.sort_key(num, level)
        keys, children = self.keys.setdefault(level, []), self.children.setdefault(level, [])
        at = bisect.bisect_right(keys, key)
        keys.insert(at, key)
        children.insert(at, el)
        self.by_number.setdefault(num, el)
        return el


class _Derailed(Exception):
    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class _AnchorBlock:
    """The page anchor's lines, standing for a block where a node opens at the anchor."""
    def __init__(self, lines: list[int]) -> None:
        self.lines = lines
        self.first_line = lines[0]


def _groups(blocks: list[Block]) -> list[list[Block]]:
    """Runs of blocks the source wrote without a blank line between them."""
    groups: list[list[Block]] = []
    for block in blocks:
        if groups and groups[-1][-1].group == block.group:
            groups[-1].append(block)
        else:
            groups.append([block])
    return groups


def build_fragment(reading: Reading, log: BuildLog, evidence: Evidence) -> Fragment:
    """All articles and commentary of one Reading."""
    flog = log.for_file(reading.file)
    fragment = Fragment(reading.file, reading.edition)
    for dropped in reading.dropped:
        fragment.ledger[dropped.line] = Accounted(dropped.reason)
        flog.dropped(dropped.line, dropped.reason)

    segments: list[tuple[Block, list[Block]]] = []  # (the article block, the blocks after it)
    current: tuple[Block, list[Block]] | None = None
    commentary: list[Block] = []
    apart: dict[str, list[int]] = {}  # kind -> the lines of its blocks: one report entry per kind, with its lines
    part: str | None = None  # the part of the book the last block of law text stood in: a table there is its
    for block in reading.blocks:
        if block.kind == "table" and part in ("definition", "introduction") and current is None:
            _part_table(reading, block, fragment, flog, part)
            continue
        if block.kind in ("definition", "introduction", "article"):
            part = block.kind
        if block.kind == "definition":
            fragment.definitions.append(_definition(reading, block, fragment))
        elif block.kind == "introduction":
            _introduction(reading, block, fragment, flog)
        elif block.kind in APART_KINDS or (block.kind == "title" and not any(b.kind == "article" for b in reading.blocks)):
            reason = Accounted(APART[block.kind if block.kind in APART else "title"].format(cite=block.cite, part=block.text))
            fragment.ledger.update({n: reason for n in block.lines})
            apart.setdefault(block.kind, []).extend(block.lines)
        elif block.kind in ("attribution", "commentary"):
            commentary.append(block)
        elif block.kind == "article":
            current = (block, [])
            segments.append(current)
        elif current is None:
            flog.error(block.first_line, "text before the first article heading: it cannot be placed")
            fragment.ledger.update({n: Accounted("unplaced text before the first article (error)")
                                    for n in block.lines})
        else:
            current[1].append(block)

    articles = {}  # article number -> (its element, line of the heading that first showed it)
    previous = None  # (number, line) of the article heading before, where articles go up
    for anchor, blocks in segments:
        cite = anchor.cite
        parts = ids.parse_citation(cite) if cite else None
        if parts is None:
            if cite:
                flog.error(anchor.first_line, f"'{anchor.text}' is not a citation of an article or part of one")
            # The reader reported the heading; its text belongs to no article we know, never to the one before.
            reason = Accounted(f"under the article heading at line {anchor.first_line}, which does not read (error)")
            for block in [anchor] + blocks:
                fragment.ledger.update({n: reason for n in block.lines + [n for note in block.notes for n in note.lines]})
            continue
        past = next((e for level in ("article", "subsection") if (e := ids.too_long(parts[level] or "", level))), None)
        if past is not None:  # refused by its line, and its text with it: no ID can name the article
            flog.error(anchor.first_line, f"{past}; give the article the number the book gives it")
            reason = Accounted(f"under the article heading at line {anchor.first_line}, whose number is too long (error)")
            for block in [anchor] + blocks:
                fragment.ledger.update({n: reason for n in block.lines + [n for note in block.notes for n in note.lines]})
            continue
        num = parts["article"]
        if reading.rules.articles_go_up:
            if previous and ids.sort_key(num) < ids.sort_key(previous[0]):
                flog.error(anchor.first_line, f"article {num} at line {anchor.first_line} comes after article "
                                              f"{previous[0]} at line {previous[1]}: a printed book's articles go "
                                              f"up, so a heading or the order of the pages is damaged")
            previous = (num, anchor.first_line)
        article = etree.Element("article", id=ids.make_id(reading.edition, num), num=num)
        builder = ArticleBuilder(fragment, flog, evidence, reading.rules, article, anchor)
        builder.touch(article, anchor.lines)
        builder.run(cite, blocks)
        if num not in articles:
            articles[num] = (article, anchor.first_line)
            fragment.articles.append(article)
        else:
            _merge_repeat(articles[num], article, anchor, fragment, log, flog)

    for kind, lines in apart.items():
        span = f"line {flog.place(min(lines))}" if len(set(lines)) == 1 else \
            f"lines {flog.place(min(lines))}-{flog.place(max(lines))}"
        flog.dropped(min(lines), f"{APART_SUMMARY.get(kind, 'the title of a part of the book')} ({span}): kept "
                                 f"apart, not law text")
    for remark in _remarks(commentary):
        fragment.commentary.append(_commentary(reading, remark, fragment, flog, evidence.profile))
    for g in reading.gaps:
        node = ids.make_id(reading.edition, g.cite) if g.cite else None
        flog.gap(g.line, node, g.message)
        if node and num_in(articles, g.cite):
            gap = etree.SubElement(articles[ids.parse_citation(g.cite)["article"]][0], "gap",
                                   reason=g.reason or g.message)
            tree.add_sources(gap, reading.file, [g.line])
    _write_node_sources(fragment)
    return fragment


# What a book holds besides its articles, kept out of the law text (the flowed reader's blocks): each
# line is accounted for with this reason.
APART = {"contents": "the contents list: evidence for the heading and first page of {cite}",
         "index": "the book's index: where the law deals with what, not law text",
         "front": "the book's front matter (a page numbered in roman before the first Law): not law text",
         "back": "the book's back matter (a page after the last numbered page): not law text",
         "title": "the title of {part}", "part-title": "the title of {part}"}
# The report's one entry per source for each kind kept apart.
APART_SUMMARY = {"contents": "the contents list, evidence for the headings and pages of the Laws",
                 "index": "the book's index", "front": "the book's front matter", "back": "the book's back matter"}


def _definition(reading: Reading, block: Block, fragment: Fragment) -> Element:
    """One definition of the book's Definitions: <definition id="2017/def/alert" term="Alert"> with its text."""
    node_id = ids.definition_id(reading.edition, block.cite)
    el = etree.Element("definition", id=node_id, term=block.cite)
    tree.add_sources(el, reading.file, block.lines)
    el.append(tree.make_paragraph(block.text, block.notes, reading.file, block.lines))
    placed = Placed(node_id)
    fragment.ledger.update({n: placed for n in block.lines + [n for note in block.notes for n in note.lines]})
    return el


def table_lines(block: Block) -> list[int]:
    """Every line of a table block: its own, its rows' and its notes'."""
    return list(dict.fromkeys(block.lines + [row.line for row in block.rows]
                              + [n for note in block.notes for n in note.lines]))


def table_element(block: Block, file: str, flog: FileLog, node: str | None) -> Element | None:
    """The <table> of a table block (tree.make_table), in the node `node`; None for a block without rows,
    whose text stays a paragraph (reported). Notes the cells hold no marker for stand at the end of the
    last cell, markers without a note are left out: each reported."""
    if not block.rows:
        flog.damage(block.first_line, f"a table at line {block.first_line} without rows", "its text kept as a "
                                      "paragraph", node)
        return None
    marks = sum(cell.count(NOTE_MARK) for row in block.rows for cell in row.cells)
    if marks < len(block.notes):
        flog.damage(block.first_line, f"the table at line {block.first_line} has {len(block.notes)} notes but its "
                                      f"cells mark {marks}", "the notes without a marker are kept at the end of its "
                                      "last cell", node)
    elif marks > len(block.notes):
        flog.damage(block.first_line, f"the table at line {block.first_line} marks {marks} notes in its cells but "
                                      f"has {len(block.notes)}", "the markers without a note are left out", node)
    return tree.make_table([(row.line, row.cells) for row in block.rows], block.notes, file, block.lines)


def _part_table(reading: Reading, block: Block, fragment: Fragment, flog: FileLog, part: str) -> None:
    """A table right after a definition or among the introduction's paragraphs: the definition's (the last
    one read) or the introduction's, after its paragraphs so far. A table in a second introduction, or
    before the introduction's title, is set aside with it (as its paragraphs are: _introduction)."""
    lines = table_lines(block)
    holder = fragment.definitions[-1] if part == "definition" else fragment.introduction
    if holder is None or (part == "introduction" and fragment.second_introduction):
        where = "before the introduction's title" if holder is None else "in the second introduction"
        flog.error(block.first_line, f"a table of the introduction {where}: it cannot be placed",
                   ids.introduction_id(reading.edition))
        fragment.ledger.update({n: Accounted(f"an introduction table {where} (error)") for n in lines})
        return
    node_id = tree.attr(holder, "id")
    made = table_element(block, reading.file, flog, node_id)
    holder.append(made if made is not None else tree.make_paragraph(block.text, block.notes, reading.file,
                                                                    block.lines))
    tree.add_sources(holder, reading.file, lines)
    fragment.ledger.update({n: Placed(node_id) for n in lines})


def _introduction(reading: Reading, block: Block, fragment: Fragment, flog: FileLog) -> None:
    """One block of the book's Introduction: its title line (cite "title") opens <introduction
    id="2017/intro"> with a <title>; each block after it is one of its paragraphs. An edition has one
    Introduction: a second title is an error naming both lines, and its text is set aside with it."""
    node_id = ids.introduction_id(reading.edition)
    lines = block.lines + [n for note in block.notes for n in note.lines]
    intro = fragment.introduction
    if block.cite == "title":
        if intro is not None:
            first = tree.first_line(intro)[1]
            flog.error(block.first_line, f"a second introduction at line {block.first_line}: the edition's "
                                         f"introduction begins at line {first}", node_id)
            fragment.second_introduction = True
            fragment.ledger.update({n: Accounted(f"a second introduction; the first begins at line {first} "
                                                 f"(error)") for n in lines})
            return
        intro = fragment.introduction = etree.Element("introduction", id=node_id)
        title = etree.SubElement(intro, "title")
        title.text = block.text.replace(NOTE_MARK, "")
        tree.add_sources(title, reading.file, block.lines)
        if block.notes:  # a title holds no note: the build stops here rather than lose the note's text
            flog.error(block.first_line, "a note in the introduction's title line: a title holds none", node_id)
            fragment.ledger.update({n: Accounted("a note in the introduction's title (error)")
                                    for note in block.notes for n in note.lines})
            lines = block.lines
    elif intro is None or fragment.second_introduction:
        what = "before the introduction's title" if intro is None else "in the second introduction"
        flog.error(block.first_line, f"a paragraph of the introduction {what}: it cannot be placed", node_id)
        fragment.ledger.update({n: Accounted(f"an introduction paragraph {what} (error)") for n in lines})
        return
    else:
        intro.append(tree.make_paragraph(block.text, block.notes, reading.file, block.lines))
    tree.add_sources(intro, reading.file, lines)
    fragment.ledger.update({n: Placed(node_id) for n in lines})


def _merge_repeat(first: tuple[Element, int], article: Element, anchor: Block, fragment: Fragment, log: BuildLog,
                  flog: FileLog) -> None:
    """A second showing of an article in one source: merged into the first exactly as merge.py merges
    the same article from two sources. Another part of it (50D, then 50E) is simply added; a node
    shown in both is logged: kept once when both read the same, else the variant or conflict merge logs."""
    earlier, earlier_line = first
    repeated = _with_text(earlier) & _with_text(article)
    start = len(log.entries)
    merge.merge_node(earlier, article, fragment.file, log)
    if not repeated:
        return
    kinds = {e.kind for e in log.entries[start:]}
    node = ids.make_id(ids.split_id(article.get("id"))[0], anchor.cite)
    if "conflict" in kinds:
        outcome = "the two differ: see the conflict"
    elif "variant" in kinds:
        outcome = "they differ in capitals, punctuation or spacing only: see the variant"
    else:
        outcome = "both read the same, so it is kept once"
    flog.damage(anchor.first_line, f"{node} is shown twice in this source, at line {earlier_line} and again at "
                                   f"line {anchor.first_line}", outcome, node)


def _with_text(article: Element) -> set[str | None]:
    """IDs of the nodes of `article` that have a title, heading or paragraph of their own."""
    return {el.get("id") for el in article.iter(*tree.NODE_TAGS)
            if any(c.tag in ("title", "heading", *tree.TEXT_TAGS) for c in el)}


def _write_node_sources(fragment: Fragment) -> None:
    """Each node's `sources` attribute, from the lines collected while building (one write per node)."""
    for article in fragment.articles:
        for el in article.iter(*tree.NODE_TAGS):
            lines = fragment.node_lines.get(el.get("id"))
            if lines:
                el.set("sources", tree.format_sources({fragment.file: lines}))


def num_in(articles: Mapping[str, object], cite: str) -> bool:
    parts = ids.parse_citation(cite)
    return parts is not None and parts["article"] in articles


@lang.compiled
def _citing(rules: lang.LanguageRules) -> re.Pattern[str]:
    """A citation in a source line, as Evidence indexes it (the citation in group 1)."""
    return re.compile(rules.EVIDENCE_CITING)


@lang.compiled
def _author(rules: lang.LanguageRules) -> re.Pattern[str]:
    """The author's name in a commentary's attribution line (group 1)."""
    return re.compile(rules.COMMENTARY_AUTHOR)


def _remarks(blocks: list[Block]) -> list[list[Block]]:
    """The commentary blocks of a source as one run per remark: each attribution line begins one. The
    reader ends a remark at the next article heading, so two remarks on one page are two runs."""
    runs: list[list[Block]] = []
    for block in blocks:
        if block.kind == "attribution" or not runs:
            runs.append([])
        runs[-1].append(block)
    return runs


def _commentary(reading: Reading, blocks: list[Block], fragment: Fragment, flog: FileLog,
                profile: lang.Profile) -> Element:
    """A personal remark: kept whole, attributed (by the attribution words of `profile`), on the
    page's article; never law text."""
    attribution = blocks[0]
    m = _author(profile).search(attribution.text)
    author = m.group(1) if m else ""
    if not author:
        flog.damage(attribution.first_line, "commentary without a named author", "kept without author")
    subject = reading.subject
    on = ids.make_id(reading.edition, subject) if subject else ""
    if not subject:
        flog.damage(attribution.first_line, "commentary on a page without an article number",
                    "kept without the article it is about")
    el = etree.Element("commentary", on=on, author=author)
    att = etree.SubElement(el, "attribution")
    att.text = attribution.text
    for block in blocks[1:]:
        p = tree.make_paragraph(block.text, block.notes, reading.file, block.lines)
        el.append(p)
    lines = [n for b in blocks for n in b.lines]
    tree.add_sources(el, reading.file, lines)
    accounted = Accounted(f"commentary on {on}")
    for n in lines:
        fragment.ledger[n] = accounted
    return el


@dataclass(frozen=True)
class Built:
    """One fragment as the memo keeps it (fragment()): the answers of the evidence it was built with, its
    trees as XML, its ledger and node lines, the report entries it made and the text of each block after
    building (a list number kept as text is written into its block)."""
    cited: dict[str, tuple[tuple[str, int, str], ...]]  # AskedEvidence's answers
    texts_asked: dict[tuple[str, int], str | None]
    articles: tuple[bytes, ...]
    commentary: tuple[bytes, ...]
    definitions: tuple[bytes, ...]
    introduction: bytes | None
    second_introduction: bool
    ledger: dict[int, Placed | Accounted]
    # (tuples, not lists and sets: the memo's entries live long, and tuples of numbers and strings are no work
    # for the collector)
    node_lines: tuple[tuple[str, tuple[int, ...]], ...]
    no_lead_in: frozenset[str]
    entries: list[report.Entry]
    texts: tuple[str, ...]

    def holds(self, evidence: Evidence) -> bool:
        """Whether `evidence` gives every answer the building was given (for lines of other sources, the text)."""
        return all(tuple(evidence.citations(cite)) == found for cite, found in self.cited.items()) and \
            all(evidence.line_text(file, num) == text for (file, num), text in self.texts_asked.items())

    def fragment(self, file: str, edition: str) -> Fragment:
        """A new Fragment, its trees new elements (later stages change them)."""
        return Fragment(file, edition, [_element(x) for x in self.articles], [_element(x) for x in self.commentary],
                        [_element(x) for x in self.definitions],
                        _element(self.introduction) if self.introduction is not None else None,
                        self.second_introduction, dict(self.ledger),
                        {node: set(lines) for node, lines in self.node_lines}, set(self.no_lead_in))


# A text may be as long as a source allows: past libxml2's default limit on one text node.
_PARSER = etree.XMLParser(huge_tree=True, remove_blank_text=False, resolve_entities=False)


def _element(xml: bytes) -> Element:
    return etree.fromstring(xml, _PARSER)


def lines_digest(lines: Sequence[Line]) -> bytes:
    """The digest of a source's lines (file, number and text of each): part of the key of what is made of them."""
    return memo_digest([(line.file, line.num, line.text) for line in lines])


@lang.per_profile
def fragments(profile: lang.Profile) -> Memo[Built]:
    """The fragments built in this process, by the digest of the source's repaired reading and lines."""
    return Memo("structure")


def fragment(reading: Reading, lines_key: bytes, log: BuildLog, evidence: Evidence, paged: bool) -> Fragment:
    """build_fragment(), exactly, taken from the memo where the same repaired reading of the same lines was
    built before (`lines_key`: lines_digest() of the source's lines) and this edition's `evidence` answers
    each question that building asked as it was answered then; else built, and kept. `paged`: whether the
    report shows the source's lines as pages and lines (its file in log.paged())."""
    memo = fragments(evidence.profile)
    key = memo_digest(reading, lines_key, paged)
    known = memo.get(key)
    if known is not None and known.holds(evidence):
        memo.reused += 1
        for block, text in zip(reading.blocks, known.texts):
            block.text = text
        log.entries.extend(known.entries)  # (a report entry is never changed once made: shared)
        return known.fragment(reading.file, reading.edition)
    asking = AskedEvidence(evidence, reading.file)
    start = len(log.entries)
    made = build_fragment(reading, log, asking)
    memo.put(key, Built(asking.cited, asking.texts, tuple(etree.tostring(a) for a in made.articles),
                        tuple(etree.tostring(c) for c in made.commentary),
                        tuple(etree.tostring(d) for d in made.definitions),
                        etree.tostring(made.introduction) if made.introduction is not None else None,
                        made.second_introduction, dict(made.ledger),
                        tuple((node, tuple(lines)) for node, lines in made.node_lines.items()),
                        frozenset(made.no_lead_in), log.entries[start:], tuple(b.text for b in reading.blocks)))
    return made
