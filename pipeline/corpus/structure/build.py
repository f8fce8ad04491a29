"""One source's reading to its Fragment: the blocks cut at the article headings, each article built
(articles.py), the other parts placed (parts.py), gaps written (build_fragment).
"""

from lxml import etree

from ...core import ids, tree
from ...core.model import APART_KINDS, Accounted, Block, Placed, Reading, Rules
from ...core.report import BuildLog, FileLog
from .fragment import Fragment
from .evidence import Evidence
from .parts import (APART, APART_SUMMARY, add_introduction, commentary_of, definition_of, merge_repeat, part_table,
    remarks_of, write_node_sources)
from .articles import ArticleBuilder


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
            part_table(reading, block, fragment, flog, part)
            continue
        if block.kind in ("definition", "introduction", "article"):
            part = block.kind
        if block.kind == "definition":
            fragment.definitions.append(definition_of(reading, block, fragment))
        elif block.kind == "introduction":
            add_introduction(reading, block, fragment, flog)
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
        if not cite or parts is None:
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
        rules = _rules(reading)
        if rules.articles_go_up:
            if previous and ids.sort_key(num) < ids.sort_key(previous[0]):
                flog.error(anchor.first_line, f"article {num} at line {anchor.first_line} comes after article "
                                              f"{previous[0]} at line {previous[1]}: a printed book's articles go "
                                              f"up, so a heading or the order of the pages is damaged")
            previous = (num, anchor.first_line)
        article = etree.Element("article", id=ids.make_id(reading.edition, num), num=num)
        if anchor.origin:  # (a Markdown master's record of where the article first came from)
            article.set("origin", anchor.origin)
        builder = ArticleBuilder(fragment, flog, evidence, rules, article, anchor)
        builder.touch(article, anchor.lines)
        builder.run(cite, blocks)
        if num not in articles:
            articles[num] = (article, anchor.first_line)
            fragment.articles.append(article)
        else:
            merge_repeat(articles[num], article, anchor, fragment, log, flog)

    for kind, lines in apart.items():
        span = f"line {flog.place(min(lines))}" if len(set(lines)) == 1 else \
            f"lines {flog.place(min(lines))}-{flog.place(max(lines))}"
        flog.dropped(min(lines), f"{APART_SUMMARY.get(kind, 'the title of a part of the book')} ({span}): kept "
                                 f"apart, not law text")
    for remark in remarks_of(commentary):
        fragment.commentary.append(commentary_of(reading, remark, fragment, flog, evidence.profile))
    for g in reading.gaps:
        node = ids.make_id(reading.edition, g.cite) if g.cite else None
        flog.gap(g.line, node, g.message)
        cut = ids.parse_citation(g.cite) if node else None  # the article cut off, where this source shows it
        if cut is not None and cut["article"] in articles:
            gap = etree.SubElement(articles[cut["article"]][0], "gap", reason=g.reason or g.message)
            tree.add_sources(gap, reading.file, [g.line])
    keep_records(reading, fragment, flog)
    write_node_sources(fragment)
    return fragment


def _rules(reading: Reading) -> Rules:
    """The rules of a reading's format, which its reader gives every reading (and the cache keeps)."""
    if reading.rules is None:
        raise ValueError(f"the reading of {reading.file} has no rules of its format")
    return reading.rules


def keep_records(reading: Reading, fragment: Fragment, flog: FileLog) -> None:
    """The corrections' records a Markdown master keeps (reading.records): each a <corr> in its node, after the
    node's label and the records before it, where corrections.py puts one."""
    if not reading.records:
        return
    nodes = {el.get("id"): el for article in fragment.articles for el in article.iter(*tree.NODE_TAGS)}
    for record in reading.records:
        node = nodes.get(ids.join(reading.edition, record.cite))
        if node is None:
            flog.error(record.line, f"the record of a correction at line {record.line} is in no node (it names "
                                    f"{record.cite}): put it right below the heading of its node")
            continue
        corr = etree.Element("corr", dict(record.attributes))
        last = next(node.iterchildren("corr", reversed=True), None)
        label = tree.label(node)
        if last is not None:
            last.addnext(corr)
        elif label is not None:
            label.addnext(corr)
        else:
            node.insert(0, corr)
        fragment.ledger[record.line] = Placed(tree.attr(node, "id"))
