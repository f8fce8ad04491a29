"""The parts of a source besides its articles: definitions, the introduction, tables outside an article,
commentary with its author, an article shown twice, and what is kept apart (contents, index, front and
back matter).
"""
import re
from collections.abc import Mapping

from lxml import etree

from ...core import ids, lang, tree
from ...core.model import NOTE_MARK, Accounted, Block, Placed, Reading
from ...core.report import BuildLog, FileLog
from ...core.tree import Element
from .. import merge
from .fragment import Fragment


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


def definition_of(reading: Reading, block: Block, fragment: Fragment) -> Element:
    """One definition of the book's Definitions: <definition id="2017/def/alert" term="Alert"> with its text."""
    term = block.cite
    if term is None:
        raise ValueError(f"the definition at line {block.first_line} of {reading.file} has no term, which every "
                         f"reader gives a definition block")
    node_id = ids.definition_id(reading.edition, term)
    el = etree.Element("definition", id=node_id, term=term)
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


def part_table(reading: Reading, block: Block, fragment: Fragment, flog: FileLog, part: str) -> None:
    """A table right after a definition or among the introduction's paragraphs: the definition's (the last
    one read) or the introduction's, after its paragraphs so far. A table in a second introduction, or
    before the introduction's title, is set aside with it (as its paragraphs are: add_introduction)."""
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


def add_introduction(reading: Reading, block: Block, fragment: Fragment, flog: FileLog) -> None:
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


def merge_repeat(first: tuple[Element, int], article: Element, anchor: Block, fragment: Fragment, log: BuildLog,
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
    if anchor.cite is None:
        raise ValueError(f"the article heading at line {anchor.first_line} has no number: build_fragment sets it aside")
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


def write_node_sources(fragment: Fragment) -> None:
    """Each node's `sources` attribute, from the lines collected while building (one write per node)."""
    for article in fragment.articles:
        for el in article.iter(*tree.NODE_TAGS):
            lines = fragment.node_lines.get(tree.attr(el, "id"))
            if lines:
                el.set("sources", tree.format_sources({fragment.file: lines}))


def num_in(articles: Mapping[str, object], cite: str) -> bool:
    parts = ids.parse_citation(cite)
    return parts is not None and parts["article"] in articles


@lang.compiled
def _author(rules: lang.LanguageRules) -> re.Pattern[str]:
    """The author's name in a commentary's attribution line (group 1)."""
    return re.compile(rules.COMMENTARY_AUTHOR)


def remarks_of(blocks: list[Block]) -> list[list[Block]]:
    """The commentary blocks of a source as one run per remark: each attribution line begins one. The
    reader ends a remark at the next article heading, so two remarks on one page are two runs."""
    runs: list[list[Block]] = []
    for block in blocks:
        if block.kind == "attribution" or not runs:
            runs.append([])
        runs[-1].append(block)
    return runs


def commentary_of(reading: Reading, blocks: list[Block], fragment: Fragment, flog: FileLog,
                profile: lang.Profile) -> Element:
    """A personal remark: kept whole, attributed (by the attribution words of `profile`), on the
    page's article; never law text."""
    attribution = blocks[0]
    m = _author(profile).search(attribution.text)
    author = m.group(1) if m else ""
    if not author:
        flog.damage(attribution.first_line, "commentary without a named author", "kept without author")
    subject = attribution.cite or reading.subject  # (a Markdown master says which article each remark is on)
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
