"""The original beside the translation: with `build --reference`, each article page of an edition the
reference aligns with holds, node by node, the original's words and align's status for that node
(templates/html/article.html, its block "original"; site.js's originalBeside puts each beside its node
when the reader turns the toggle on, off by default).

Reads: the Alignment the reference stage left on the job (job.made.alignment, corpus/align.py); its
reference Nodes carry the original's label, paragraphs and notes as the reference's corpus.json gives them.
Writes nothing: the template's values. No word of the original is in the project: it comes from the
reference build given at build time, and the templates escape it (autoescape).
"""
from dataclasses import dataclass, field, replace

from ...core import ids
from ...core.lang import Profile
from ...corpus.align import Aligned, Alignment, Node
from ..text import say

# What align's status says of a node, as the reader sees it beside the original (profile words).
STATUS_WORDS = {
    "match": "matches the original",
    "refs-differ": "references differ from the original",
    "notes-differ": "a different number of notes than the original",
    "table-differs": "a table differs from the original's",
    "gap": "the sources have a gap where the original has text",
    "extra": "not in the original",
    "missing": "in the original, missing here",
    "accepted": "different from the original on purpose (a correction)",
    "not-in-sources": "in the original; not in the sources of this translation",
}


@dataclass(frozen=True)
class OriginalParagraph:
    """One paragraph of the original: its words in pieces, each plain text or a note's printed number."""
    pieces: list[dict[str, str]]
    notes: list[dict[str, str]]  # {"number", "text"} in the order of their markers


@dataclass(frozen=True)
class OriginalTable:
    """One table of the original: its rows of cells, each cell as a paragraph (its words, its notes' numbers
    at their markers); `after`, how many of the node's shown paragraphs stand before it."""
    after: int
    rows: list[list[OriginalParagraph]]

    @property
    def notes(self) -> list[dict[str, str]]:
        """The notes of its cells, row after row: listed after the table, as a paragraph's after it."""
        return [note for row in self.rows for cell in row for note in cell.notes]


@dataclass(frozen=True)
class OriginalNode:
    """One node of the original beside the translation's node with the same ID."""
    id: str
    cite: str  # the anchor of the node on the page: 41A
    shown: str  # the citation a reader sees: 41A, 30B1(b)(i)
    place: str  # the anchor the block goes with: the node itself, or for a node the page lacks its nearest ancestor there
    here: bool  # the translation has it
    status: str
    status_words: str
    label: str  # the original's title or heading
    paragraphs: list[OriginalParagraph]
    # For a node the page lacks: the anchor of the node of the page it goes before (the next in the book's
    # order below the same ancestor), so 47A stands before 47B; "" at the end of its ancestor.
    before: str = ""
    tables: list[OriginalTable] = field(default_factory=list)  # its own tables, each placed among its paragraphs


def paragraph(text: str, notes: list[tuple[int, str, str]]) -> OriginalParagraph:
    """A paragraph's plain text cut at its notes' offsets, so each note's number stands at its marker;
    a note without a printed number is numbered by its place among the paragraph's notes."""
    pieces: list[dict[str, str]] = []
    shown: list[dict[str, str]] = []
    at = 0
    for n, (offset, number, words) in enumerate(sorted(notes, key=lambda note: note[0]), start=1):
        offset = min(max(offset, at), len(text))
        if offset > at:
            pieces.append({"text": text[at:offset]})
        pieces.append({"note": number or str(n)})
        shown.append({"number": number or str(n), "text": words})
        at = offset
    if at < len(text):
        pieces.append({"text": text[at:]})
    return OriginalParagraph(pieces, shown)


def original_node(aligned: Aligned, on_page: set[str], profile: Profile) -> OriginalNode:
    """The values of one node's block: the reference's words (none for a node only the translation has)."""
    node_id = ids.parse(aligned.id)
    assert node_id is not None  # align compares IDs of the corpus
    place = node_id
    while place.cite not in on_page and (up := place.parent) is not None:
        place = up
    reference: Node | None = aligned.reference
    paragraphs = [] if reference is None else [
        paragraph(text, reference.notes_of[i] if i < len(reference.notes_of) else [])
        for i, (text, _refs, _offsets, _source) in enumerate(reference.paragraphs) if text.strip()]
    return OriginalNode(aligned.id, node_id.anchor, ids.shown(aligned.id), place.anchor,
                        aligned.translation is not None, aligned.status,
                        say(profile, STATUS_WORDS.get(aligned.status, aligned.status)),
                        reference.label if reference is not None else "", paragraphs,
                        tables=original_tables(reference) if reference is not None else [])


def original_tables(reference: Node) -> list[OriginalTable]:
    """The reference node's own tables, each with its cells as paragraphs and its place among the node's
    paragraphs with words (those original_node shows)."""
    out: list[OriginalTable] = []
    shown = tables = 0
    paragraphs = iter(reference.paragraphs)
    for kind in reference.order:
        if kind == "p":
            text = next(paragraphs, ("",))[0]
            shown += bool(text.strip())
            continue
        cells, notes = reference.tables[tables], reference.table_notes[tables]
        out.append(OriginalTable(shown, [[paragraph(text, notes[r][c]) for c, text in enumerate(row)]
                                         for r, row in enumerate(cells)]))
        tables += 1
    return out


def next_below(node: OriginalNode, later: list[OriginalNode], on_page: set[str]) -> str:
    """The anchor of the first node after `node` in the book's order that the page holds as a child of
    the node `node`'s block goes in; "" when there is none."""
    for other in later:
        parent = ids.parse(other.id)
        parent = parent.parent if parent is not None else None
        if other.here and other.cite in on_page and parent is not None and parent.anchor == node.place:
            return other.cite
    return ""


class Originals:
    """The alignment read once per build, for the article pages: `of(article_id, anchors)` gives a page's
    values, or None for an article of an edition the reference does not hold (the page shows nothing)."""

    def __init__(self, alignment: Alignment, profile: Profile) -> None:
        self.profile = profile
        self.language = alignment.reference_language  # the original's words are in its own language
        self.editions = set(alignment.editions)
        self.only_here = set(alignment.only_in_translation)
        self.by_article: dict[str, list[Aligned]] = {}
        for aligned in alignment.nodes:
            self.by_article.setdefault(ids.article_of(aligned.id) or "", []).append(aligned)

    def of(self, article_id: str, anchors: list[str]) -> dict[str, object] | None:
        """{"nodes": [OriginalNode, …] in the book's order, "absent": the original lacks the article};
        `anchors`: the citations the page holds (ArticlePage.anchors)."""
        if ids.edition_of(article_id) not in self.editions:
            return None
        on_page = set(anchors)
        nodes = [original_node(a, on_page, self.profile) for a in self.by_article.get(article_id, [])]
        nodes = [replace(n, before=next_below(n, nodes[i + 1:], on_page)) if not n.here else n
                 for i, n in enumerate(nodes)]
        return {"nodes": nodes, "absent": article_id in self.only_here, "language": self.language}
