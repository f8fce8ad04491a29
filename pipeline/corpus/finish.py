"""Post-processing on the merged corpus: IDs for notes and commentary, gaps.

Reads: the corpus tree after merge.
Writes: the same tree, with
  - every <note> given an ID below the node its marker stands in (2017/41A/noot1);
  - every <commentary> given an ID below the article it is on (2017/54/toelichting1);
  - a <gap> where the law has text the sources lack (a section with only a
    heading, a list whose lead-in is missing), and a report entry for each,
    and for each article whose title no source gives.
Never invents text: a gap says what is missing and where, nothing more. What a gap says to
readers is in the book's language (its profile's GAP_* texts); the report entry is English.
"""
from collections.abc import Collection

from lxml import etree

from ..core import ids, lang, tree
from ..core.report import BuildLog
from ..core.tree import Element


def number_notes(corpus: Element) -> None:
    """Notes are numbered per node, in reading order (the introduction's and a definition's too:
    2017/intro/noot1, 2017/def/alert/noot1)."""
    for node in corpus.iter(*tree.NODE_TAGS, "introduction", "definition"):
        n = 0
        for p in node.iterchildren("heading", "title", *tree.TEXT_TAGS):  # (a table's notes cell by cell)
            for note in p.iter("note"):
                n += 1
                note.set("id", ids.note_id(tree.attr(node, "id"), n))


def number_commentary(corpus: Element) -> None:
    counts: dict[str, int] = {}
    for c in corpus.iter("commentary"):
        on = c.get("on") or tree.attr(tree.parent(c), "id")
        counts[on] = counts.get(on, 0) + 1
        c.set("id", ids.commentary_id(on, counts[on]))


def find_gaps(corpus: Element, log: BuildLog, profile: lang.Profile, no_lead_in: Collection[str] = frozenset()) -> None:
    """`no_lead_in`: the nodes a source writes with their first child's marker right after their own
    ("1.(a) if …"): the book has no lead-in there, so none is missing."""
    rules = profile.rules
    for article in corpus.iter("article"):
        if article.find("title") is None:
            file, line = tree.first_line(article)
            log.add("gap", file, line, f"the title of {article.get('id')} is in none of the sources",
                    article.get("id"))
    for node in corpus.iter("section", "subsection", "item"):
        own = [c for c in node if c.tag in (*tree.TEXT_TAGS, "gap")]
        children = tree.child_nodes(node)
        file, line = tree.first_line(node)
        if not own and not children:
            _gap(node, None, f"{node.get('id')} has only its heading: its text is in none of the sources",
                 rules.GAP_ONLY_HEADING.format(cite=cite(node)),
                 log, file, line)
        elif not own and children:
            first = children[0]
            p = first.find("p")
            text = tree.plain_text(p).strip() if p is not None else ""
            if text[:1].islower() and node.get("id") in no_lead_in:
                log.add("inference", file, line, f"{node.get('id')} has no lead-in to {first.get('id')}: the source "
                                                 f"writes the first marker right after the number", node.get("id"))
            elif text[:1].islower():
                _gap(node, first, f"{node.get('id')}: the text that leads in to {first.get('id')} "
                                  f"('{text[:30]}…') is in none of the sources",
                     rules.GAP_NO_LEAD_IN.format(cite=cite(node), first=cite(first)),
                     log, file, line)


def cite(node: Element) -> str:
    """The citation readers know: '57B' for 2017/57B."""
    return ids.split_id(node.get("id"))[1]


def _gap(node: Element, before: Element | None, message: str, reason: str, log: BuildLog, file: str | None,
         line: int | None) -> None:
    """A <gap> for readers (`reason`, in the language of the book) and a report entry (`message`, English)."""
    gap = etree.Element("gap", reason=reason)
    if before is not None:
        before.addprevious(gap)
    else:
        node.append(gap)
    log.add("gap", file, line, message, node.get("id"))


def finish(corpus: Element, log: BuildLog, profile: lang.Profile, no_lead_in: Collection[str] = frozenset()) -> Element:
    """Gaps (their texts in `profile`'s language), then note and commentary IDs."""
    find_gaps(corpus, log, profile, no_lead_in)
    number_notes(corpus)
    number_commentary(corpus)
    return corpus
