"""The site model: the corpus read once into what the pages show (Site), with the IDs and links every
page uses (href, note_anchor) and the corrections a node carries (corrections_of, wrap_correction).

Reads: the corpus tree, the build log, the book's language profile. Writes nothing: the page modules
(pages.py, editor.py, graph_page.py, search.py) and the templates read it.
"""
import functools
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ...core import ids, tree
from ...core.lang import Profile
from ...core.report import BuildLog
from ...core.view import Commentary, element_id, optional_id, parsed_id
from ..keyed import Later
from ..text import UNRESOLVED, file_names, say
from . import graph_page

if TYPE_CHECKING:
    from .original import Originals

Element = tree.Element
# What the templates read, as nested dicts: a piece of mixed content ({'text'}, {'ref', 'href', 'title',
# 'status'}, {'note', 'number', 'anchor', 'marker'} or {'corr', 'pieces'}), and a view of a node, a table,
# a paragraph or a commentary.
Piece = dict[str, Any]
View = dict[str, Any]
# One <corr> record as corrections_of gives it: kind, basis, was, now, paragraph, start, end, line, id, …
Correction = dict[str, Any]
# A piece of a paragraph with where it stands in the paragraph's plain text: (start, end, piece).
Span = tuple[int, int, Piece]

order_key = ids.order_key
article_of = ids.article_of


@functools.lru_cache(maxsize=1 << 16)  # a page links the same nodes again and again; parsing an ID is not free
def href(node_id: str, root: str = "../") -> str:
    """The relative URL of a node from a page `root` below html/: 2017/47E1 -> ../2017/47.html#47E1."""
    node = ids.NodeId.parse(node_id)
    if node is None:
        raise ValueError(f"not an ID: {node_id!r}")
    if node.is_introduction:  # a section of the edition's contents page: ../2017/index.html#intro
        return f"{root}{node.edition}/index.html#{node.anchor}"
    page = f"{root}{node.edition}/{node.article}.html"
    return page if node.level == "article" else f"{page}#{node.anchor}"


def note_anchor(note_id: str) -> str:
    """2017/53A/noot1 -> '53A-noot1' (the footnote); the marker in the text is 'ref-53A-noot1'."""
    node = ids.NodeId.parse(note_id)
    if node is None:
        raise ValueError(f"not an ID: {note_id!r}")
    return node.anchor


def citing_node(el: Element) -> Element | None:
    """The node (article … item, or commentary) whose text holds `el`."""
    for anc in el.iterancestors():
        if anc.tag in tree.NODE_TAGS or anc.tag == "commentary":
            return anc
    return None


def source_of(el: Element) -> tuple[str | None, int | None]:
    """(file, line) where `el` (or the nearest element around it with provenance) starts in the sources."""
    for anc in [el, *el.iterancestors()]:
        if anc.get("sources"):
            return tree.first_line(anc)
    return "", 0


def corrections_of(el: Element, editor_page: str) -> list[Correction]:
    """The corrections applied to node `el` (its <corr> records, sources/corrections.toml), in order, as
    dicts: kind, basis, line, was (cited: `was_cite`), now, paragraph/start/end (numbers), `anchor` (the
    mark on the article page: corr-24E-1, the n-th correction of 24E), `editor` (its entry on the
    editor's page, `editor_page`: corr-2017-24E-1) and `href`, the link from an article page to that entry."""
    records = list(el.iterchildren("corr"))
    if not records:
        return []  # most nodes: their ID is not even read
    node = parsed_id(el)
    out = []
    for n, corr in enumerate(records, 1):
        data: Correction = {key: corr.get(key) for key in ("kind", "basis", "was", "now")}
        data.update({key: int(value) if (value := corr.get(key)) else None
                     for key in ("paragraph", "start", "end", "line")})
        data.update(id=element_id(el), was_cite=ids.cite_of(data["was"]) if data["kind"] == "renumber" else None,
                    anchor=f"corr-{node.anchor}-{n}", editor=f"corr-{node.edition}-{node.anchor}-{n}")
        data["href"] = f"../{editor_page}#{data['editor']}"
        out.append(data)
    return out


def wrap_correction(spans: list[Span], start: int, end: int, correction: Correction) -> list[Span]:
    """`spans` (start, end, piece) with the pieces between `start` and `end` gathered into one
    {'corr', 'pieces'}: text is cut at the two offsets; a reference (or an earlier correction) that
    reaches over one of them is taken in whole, so the mark never cuts a link in two. A note marker at
    either end stays outside."""
    for a, b, piece in spans:
        if "text" not in piece and a < start < b:
            start = a
        if "text" not in piece and a < end < b:
            end = b
    cut: list[Span] = []
    for a, b, piece in spans:
        if "text" in piece:
            edges = sorted({a, b} | {x for x in (start, end) if a < x < b})
            cut += [(x, y, {"text": piece["text"][x - a:y - a]}) for x, y in zip(edges, edges[1:])]
        else:
            cut.append((a, b, piece))
    inside = [i for i, (a, b, _) in enumerate(cut) if start <= a and b <= end and (a < b or start < a < end)]
    if not inside:
        return spans
    first, last = inside[0], inside[-1]
    group = {"corr": correction, "pieces": [piece for _, _, piece in cut[first:last + 1]]}
    return cut[:first] + [(start, end, group)] + cut[last + 1:]


@dataclass
class Footnote:
    number: int | str  # the book's number where the note has one ("17"), else its place on the page
    anchor: str
    cite: str
    pieces: list[Piece]
    book: tuple[str, str] | None = None  # (number, words) of a note the book numbers: a second citation is the same note


@dataclass
class ArticlePage:
    """What one article page shows; `content` is the article element's own blocks, nodes nested.
    `node`, `footnotes`, `commentary` and `cited_by` are filled by Site.fill(), once per edition,
    just before the edition is rendered (an edition reused from the previous build never needs them)."""
    id: str
    edition: str
    num: str
    title: str | None
    element: Element | None = None  # the <article>; None when only commentary is known
    node: View | None = None  # the article as a node view (after fill); None when only commentary is known
    footnotes: list[Footnote] = field(default_factory=list)
    commentary: list[View] = field(default_factory=list)
    cited_by: list[tuple[str, str]] = field(default_factory=list)
    other_editions: list[dict[str, str]] = field(default_factory=list)
    diffs: list[dict[str, str]] = field(default_factory=list)  # {"editions": "2007–2017", "href": …}: comparisons holding it
    marks: set[str] = field(default_factory=set)  # "missing", "inferred": which legends the page needs
    prev: "ArticlePage | None" = None
    next: "ArticlePage | None" = None

    @property
    def file(self) -> str:
        return f"{self.num}.html"

    def key_of(self) -> dict[str, Any]:
        """What of this page its own page and the others can show, for a page's key (outputs/keyed.py):
        every field but the element (the node view holds what is shown of it); of the neighbours, what
        their links say."""
        shallow = ("id", "edition", "num", "title")
        return {**{f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("element", "prev", "next")},
                "has_text": self.element is not None,
                "prev": {name: getattr(self.prev, name) for name in shallow} if self.prev else None,
                "next": {name: getattr(self.next, name) for name in shallow} if self.next else None}

    @property
    def sections(self) -> list[tuple[str, str | None]]:
        """The article's sections as [(cite, heading)], for the list at the top of its page."""
        if self.node is None:
            return []
        return [(b["node"]["cite"], b["node"]["heading"]) for b in self.node["content"] if b["kind"] == "node"]

    def anchors(self) -> list[str]:
        """Every citation anchor on the page: 41, 41A, 41A1, …"""
        out: list[str] = []
        todo = [self.node] if self.node else []
        while todo:
            node = todo.pop(0)
            out.append(node["cite"])
            todo[:0] = [b["node"] for b in node["content"] if b["kind"] == "node"]
        return out


class Site:
    """The corpus read once into what the pages show: articles, notes, references both ways.

    Built in one pass over the corpus: the node index, who cites what, and per edition its article
    pages in order. Each page's content (node views, notes, commentary) is read by fill() for the
    editions actually rendered. The words it adds (a reference's title) and the editor's page it links
    to are `profile`'s, the book's language."""

    def __init__(self, corpus: Element, log: BuildLog, profile: Profile) -> None:
        self.corpus = corpus
        self.log = log
        self.profile = profile
        self.files = file_names(profile)  # the site's file names, in the book's language
        # Only structural nodes are link targets: they are the anchors the pages carry.
        self.nodes = {tree.attr(el, "id"): el for el in corpus.iter(*tree.NODE_TAGS)}
        self._editions = {tree.attr(e, "id"): e for e in corpus.iterchildren("edition")}
        self.editions = list(self._editions)
        self.cited_by = self._cited_by()
        self._commentary: dict[str, dict[str | None, list[Element]]] = {}
        self.articles = {ed: self._edition_pages(ed) for ed in self.editions}
        self.pages = {page.id: page for pages in self.articles.values() for page in pages}
        self._filled: set[str] = set()
        self._page: ArticlePage | None = None  # the page being filled: its legends are collected as its text is read
        # The original beside the translation (site/original.py's Originals), set by write_html with build --reference.
        self.originals: Originals | None = None

    @property
    def newest_first(self) -> list[str]:
        """The editions as readers are offered them: the newest, the one in force, first."""
        return list(reversed(self.editions))

    # -- references

    def refs(self, edition: str | None = None) -> Iterator[tuple[Element, str | None, list[str]]]:
        """Every <ref> with the ID of the node that cites and its targets, in document order."""
        scope = self.corpus if edition is None else self.edition_el(edition)
        for ref in scope.iter("ref"):
            node = citing_node(ref)
            yield ref, (element_id(node) if node is not None else None), (ref.get("to") or "").split()

    def _cited_by(self) -> dict[str | None, list[tuple[str, str]]]:
        """article ID -> sorted [(citing ID, cited ID)], from the refs in the tree (not from file order).
        An article's references to its own sections are its text, not a citation from elsewhere: left out.
        The commentary on an article that has no text of its own does cite it (54's remark on 54) only when
        it names another article; its own number is the page it stands on."""
        out: dict[str | None, set[tuple[str, str]]] = {}
        for ref, citing, targets in self.refs():
            for target in targets:
                if target in self.nodes and citing and article_of(citing) != article_of(target):
                    out.setdefault(article_of(target), set()).add((citing, target))
        return {k: sorted(v, key=lambda pair: (order_key(pair[0]), order_key(pair[1]))) for k, v in out.items()}

    def resolves(self, ref: Element) -> bool:
        targets = (ref.get("to") or "").split()
        return bool(targets) and targets[0] in self.nodes and ref.get("status") not in UNRESOLVED

    # -- text

    def pieces(self, el: Element, notes: list[Footnote], root: str = "../",
               corrected: Sequence[tuple[int, int, Correction]] = ()) -> list[Piece]:
        """Mixed content of a <p>, <note> or <attribution> as pieces for the templates:
        {'text'}, {'ref', 'href' or None, 'title', 'status'}, {'note', 'number', 'anchor'}, and
        {'corr', 'pieces'} around the words a correction put there (`corrected`: (start, end, correction)
        in the plain text's offsets, as <corr> records them).
        Each note met is appended to `notes` (a Footnote) so the page lists it at the end. A note shows the
        book's number where it has one (a note the book cites twice is listed once, both markers linking
        to it); a note without one, its place among the page's notes."""
        spans: list[Span] = []  # (start, end, piece) in the plain text; a note is where its marker stands
        offset = 0
        for kind, words, child in tree.inline(el):
            if kind == tree.NOTE:
                assert child is not None  # (a note's event is its element: tree.inline)
                own = note_anchor(optional_id(child) or ids.note_id(optional_id(el) or "", len(notes) + 1))
                number = tree.note_number(child)
                book = (number, " ".join(tree.plain_text(child).split())) if number else None
                cited = next((f for f in notes if book and f.book == book), None)
                if cited is None:
                    cited = Footnote(book[0] if book else len(notes) + 1, own, ids.shown(optional_id(child) or "x/?"),
                                     self.pieces(child, notes, root), book)
                    notes.append(cited)
                # "marker": this marker's own anchor (ref-…), the footnote's back-link target when it is the first
                spans.append((offset, offset, {"note": True, "number": cited.number, "anchor": cited.anchor,
                                               "marker": own}))
                continue
            assert words is not None  # (every other event has its words: tree.inline)
            if kind == tree.REF:
                assert child is not None  # (a reference's event has its element)
                piece = self.ref_piece(child, root)
            else:
                piece = {"text": words}
            spans.append((offset, offset + len(words), piece))
            offset += len(words)
        plain = "".join(piece.get("text") or piece.get("ref") or "" for _, _, piece in spans)
        for start, end, correction in corrected:
            if plain[start:end] == correction["now"]:  # else the record is not of this text: no mark, not a wrong one
                spans = wrap_correction(spans, start, end, correction)
                if self._page is not None:
                    self._page.marks.add("replace")
        return [piece for _, _, piece in spans]

    def ref_piece(self, ref: Element, root: str) -> Piece:
        targets = (ref.get("to") or "").split()
        status = ref.get("status") or "ok"
        text = tree.plain_text(ref)
        if self.resolves(ref):
            title = None
            if len(targets) > 1:
                title = say(self.profile, "also: %(cites)s", cites=", ".join(ids.shown(t) for t in targets[1:]))
            if status == "suspect":
                title = say(self.profile, "reference uncertain") + (f"; {title}" if title else "")
            return {"ref": text, "href": href(targets[0], root), "title": title, "status": status}
        article = article_of(targets[0]) if targets else None
        page = self.pages.get(article) if article is not None else None
        if article is not None and page is not None and page.element is None and targets[0] == page.id:
            # An article known only from its commentary still has a page (2017/54): the reader goes there.
            return {"ref": text, "href": href(article, root), "title": None, "status": "ok"}
        if self._page is not None:
            self._page.marks.add("missing")
        # Quiet for readers: not a link, and the page's legend says what the style means.
        return {"ref": text, "href": None, "title": say(self.profile, "refers to an article that is not in this edition"),
                "status": "missing"}

    def node_view(self, el: Element, notes: list[Footnote]) -> View:
        """A node as nested dicts: id, cite, tag, num, mark (its number as the law prints it: "1.", "(a)"), heading, inferred evidence, the correction that
        renumbered it (`renumbered`), content blocks (a paragraph with the words a correction replaced)."""
        # Readers learn that a number is inferred (a legend says what ° means); the evidence, in English
        # and with file names, is on the editor's page.
        inferred = el.get("numbering") == "inferred"
        if inferred and self._page is not None:
            self._page.marks.add("inferred")
        # "cite" is the anchor (30B1b.i); "shown" what the label reads (30B1(b)(i) for a subitem).
        node_id = element_id(el)
        view: View = {"id": node_id, "cite": ids.cite_of(node_id), "shown": ids.shown(node_id),
                "tag": el.tag, "num": el.get("num"), "mark": tree.mark(el),
                "heading": tree.label_text(el), "inferred": inferred, "renumbered": None, "content": []}
        # A note marked in the title or heading: its words with the marker, read before the text so that
        # the page's notes stay in reading order (None: the words alone, as "heading").
        label = tree.label(el)
        view["heading_pieces"] = self.pieces(label, notes) if label is not None and len(label) else None
        corrected: dict[int | None, list[tuple[int, int, Correction]]] = {}  # paragraph number -> [(start, end, correction)]
        for correction in corrections_of(el, self.files.editor):
            if correction["kind"] == "renumber":
                view["renumbered"] = correction
                if self._page is not None:
                    self._page.marks.add("renumber")
            elif correction["kind"] == "replace":
                corrected.setdefault(correction["paragraph"], []).append(
                    (correction["start"], correction["end"], correction))
        paragraph = 0
        for child in el:
            if child.tag == "p":
                paragraph += 1
                view["content"].append({"kind": "p", "pieces": self.pieces(child, notes,
                                                                             corrected=corrected.get(paragraph, ()))})
            elif child.tag == "table":
                view["content"].append(self.table_view(child, notes, view["shown"]))
            elif child.tag == "gap":
                view["content"].append({"kind": "gap", "reason": child.get("reason")})
            elif child.tag in tree.NODE_TAGS:
                view["content"].append({"kind": "node", "node": self.node_view(child, notes)})
        return view

    def table_view(self, el: Element, notes: list[Footnote], place: str | None) -> View:
        """A <table> for the templates: {'kind': 'table', 'place' (the citation it stands in, which names the
        table for a screen reader), 'head' (the first row's cells), 'rows' (the others)}, each cell its pieces
        (a cell's notes go to `notes` as a paragraph's do)."""
        rows = [[self.pieces(cell, notes) for cell in row] for row in tree.cells(el)]
        return {"kind": "table", "place": place, "head": rows[0] if rows else [], "rows": rows[1:]}

    def text_view(self, el: Element, notes: list[Footnote], place: str | None) -> View:
        """A paragraph ({'kind': 'p', 'pieces'}) or a table (table_view) of the introduction or a definition."""
        if el.tag == "table":
            return self.table_view(el, notes, place)
        return {"kind": "p", "pieces": self.pieces(el, notes)}

    def commentary_view(self, el: Element, notes: list[Footnote]) -> View:
        attribution = el.find("attribution")
        commentary_id = optional_id(el)
        return {"anchor": note_anchor(commentary_id) if commentary_id else "toelichting",
                "author": el.get("author"),
                "attribution": self.pieces(attribution, notes) if attribution is not None else [],
                "paragraphs": [self.pieces(p, notes) for p in el.iterchildren("p")]}

    # -- pages

    def edition_el(self, edition: str) -> Element:
        return self._editions[edition]

    def _edition_pages(self, edition: str) -> list[ArticlePage]:
        """The pages of one edition in reading order, linked prev/next; content not read yet."""
        ed = self.edition_el(edition)
        commentary: dict[str | None, list[Element]] = {}
        self._commentary[edition] = commentary
        for c in ed.iterchildren("commentary"):
            commentary.setdefault(Commentary(c).on_article, []).append(c)
        pages: dict[str, ArticlePage] = {}
        for article in ed.iterchildren("article"):
            article_id = tree.attr(article, "id")
            pages[article_id] = ArticlePage(article_id, edition, tree.attr(article, "num"),
                                            tree.label_text(article), article)
        # Commentary on an article the sources lack still gets its page, marked as such.
        for on in commentary:
            if on and on not in pages:
                pages[on] = ArticlePage(on, edition, ids.cite_of(on), None)
        ordered = sorted(pages.values(), key=lambda p: order_key(p.id))
        for prev, nxt in zip(ordered, ordered[1:]):
            prev.next, nxt.prev = nxt, prev
        return ordered

    def fill(self, edition: str, only: Collection[str] | None = None) -> None:
        """Read the content of every page of `edition`: node views, footnotes (text first, then
        commentary), commentary, cited-by. Once per edition; later calls do nothing. `only`: the pages
        (files below the edition's folder, "41.html") to read now, the others left unread (watch mode
        renders the open page first: a page's content depends on no other page's)."""
        if edition in self._filled:
            return
        if only is None:
            self._filled.add(edition)
        commentary = self._commentary[edition]
        for page in self.articles[edition]:
            if only is not None and page.file not in only:
                continue
            notes: list[Footnote] = []
            self._page = page
            if page.element is not None:
                page.node = self.node_view(page.element, notes)
            page.footnotes = notes
            page.commentary = [self.commentary_view(c, notes) for c in commentary.get(page.id, [])]
            page.cited_by = self.cited_by.get(page.id, [])
            self._page = None

    def link_editions(self) -> None:
        """Each article page learns where the same article stands in the other editions."""
        by_num: dict[str, list[ArticlePage]] = {}
        for ed in self.newest_first:
            for page in self.articles[ed]:
                if page.element is not None:
                    by_num.setdefault(page.num, []).append(page)
        pairs = {(old, new) for old, new in self.comparisons()}
        for pages in by_num.values():
            for page in pages:
                for other in pages:
                    if other is page:
                        continue
                    page.other_editions.append({"edition": other.edition, "href": f"../{other.edition}/{other.file}"})
                    old, new = sorted([page.edition, other.edition])
                    if (old, new) in pairs:
                        page.diffs.append({"editions": f"{old}–{new}",
                                           "href": f"../diff/{old}-{new}.html#art-{page.num}"})

    def comparisons(self) -> list[tuple[str, str]]:
        """(old, new) for every pair of consecutive editions: each has its comparison page."""
        return list(zip(self.editions, self.editions[1:]))

    def graph(self, edition: str) -> View:
        """The article-level reference graph of `edition`, as the graph page draws it (graph_page.py)."""
        return graph_page.graph_view(self, edition)

    def graph_later(self, edition: str) -> Later:
        """The same, laid out only when the page is made, keyed by what it is drawn from (outputs/keyed.py)."""
        drawn = graph_page.graph_input(self, edition)
        return Later(drawn, lambda: graph_page.graph_view(self, edition, drawn))
