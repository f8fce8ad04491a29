"""The HTML edition: a static reader's site in build/html/.

    html/index.html                the editions
    html/<ed>/index.html           table of contents of one edition
    html/<ed>/<num>.html           one page per article (also for an article known only from its commentary)
    html/<ed>/verwijzingen.html    the reference graph of the edition as an SVG picture
    html/redactie.html             the editor's page: the build report, every entry with file and line;
                                   the committee's corrections; with `build --reference` the comparison
                                   with the original (job.alignment, publish/reference.py)
    html/zoeken.html               search: a citation ("53A", "2007 41B") goes straight to it; full text
                                   (pagefind) needs a web server, see serve.py
    html/diff/<old>-<new>.html     the comparison of two consecutive editions, inside the site
    html/lawbook.css, site.js      the one style sheet and the one script (keeps a section when
                                   switching editions; registers the service worker)
    html/citaten.js                every citation of every edition, for the search box's citation jump
    html/sw.js, manifest.webmanifest, icon.svg, 404.html
                                   offline use: after one visit over http the whole site is cached

Every section, subsection and item carries the anchor of its citation, so
2017/50D2a is 2017/50.html#50D2a. Every link is relative and nothing is loaded
from elsewhere, so the site works from any web server, in a subfolder, and (except
full-text search) from file://. Editions are listed newest first: the newest is the one in force.
Readers see law: a reference to an article this edition lacks is set quietly with a legend on the
page, inferred numbering has a Dutch legend; the red marks, file names and English messages are
on the editor's page only. Words a correction of the laws committee replaced, and a part it
renumbered, carry a quiet mark with the sources' words and the basis, linked to the editor's page.
Pages hold no timestamps: the same corpus gives the same bytes. Every word around the law text
and the pages' lang are the language profile's (text.py; the templates' _("…")).
"""
import functools
import hashlib
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from lxml import etree
from markupsafe import Markup, escape

from ..core import ids, lang, tree
from ..core.memory import collector_paused
from ..core.errors import LawbookError
from ..core.report import KINDS
from ..corpus.corrections import FILE as CORRECTIONS_FILE
from .text import UNRESOLVED, per_profile, profile_of, say
from . import text
from . import diff as diffs
from .diff import render as diff_render

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "html"
STYLESHEET = "lawbook.css"
# Files copied as they are from templates/html/ into html/.
STATIC = ("lawbook.css", "site.js", "icon.svg")
REDLINE_CSS = TEMPLATES.parent / "diff" / "redline.css"  # the comparison's marks, shared with `lawbook diff`
NOT_IN_CORPUS = "not in this corpus"
EDITOR_PAGE = "redactie.html"


# ---------------------------------------------------------------- IDs and links

order_key = ids.order_key
article_of = ids.article_of


@functools.lru_cache(maxsize=1 << 16)  # a page links the same nodes again and again; parsing an ID is not free
def href(node_id, root="../"):
    """The relative URL of a node from a page `root` below html/: 2017/47E1 -> ../2017/47.html#47E1."""
    node = ids.NodeId.parse(node_id)
    if node.is_introduction:  # a section of the edition's contents page: ../2017/index.html#intro
        return f"{root}{node.edition}/index.html#{node.anchor}"
    page = f"{root}{node.edition}/{node.article}.html"
    return page if node.level == "article" else f"{page}#{node.anchor}"


def note_anchor(note_id):
    """2017/53A/noot1 -> '53A-noot1' (the footnote); the marker in the text is 'ref-53A-noot1'."""
    return ids.NodeId.parse(note_id).anchor


def citing_node(el):
    """The node (article … item, or commentary) whose text holds `el`."""
    for anc in el.iterancestors():
        if anc.tag in tree.NODE_TAGS or anc.tag == "commentary":
            return anc
    return None


def source_of(el):
    """(file, line) where `el` (or the nearest element around it with provenance) starts in the sources."""
    for anc in [el, *el.iterancestors()]:
        if anc.get("sources"):
            return tree.first_line(anc)
    return "", 0


def corrections_of(el):
    """The corrections applied to node `el` (its <corr> records, sources/corrections.toml), in order, as
    dicts: kind, basis, line, was (cited: `was_cite`), now, paragraph/start/end (numbers), `anchor` (the
    mark on the article page: corr-24E-1, the n-th correction of 24E), `editor` (its entry on the
    editor's page: corr-2017-24E-1) and `href`, the link from an article page to that entry."""
    records = list(el.iterchildren("corr"))
    if not records:
        return []  # most nodes: their ID is not even read
    node = ids.NodeId.parse(el.get("id"))
    out = []
    for n, corr in enumerate(records, 1):
        data = {key: corr.get(key) for key in ("kind", "basis", "was", "now")}
        data.update({key: int(corr.get(key)) if corr.get(key) else None
                     for key in ("paragraph", "start", "end", "line")})
        data.update(id=el.get("id"), was_cite=ids.cite_of(data["was"]) if data["kind"] == "renumber" else None,
                    anchor=f"corr-{node.anchor}-{n}", editor=f"corr-{node.edition}-{node.anchor}-{n}")
        data["href"] = f"../{EDITOR_PAGE}#{data['editor']}"
        out.append(data)
    return out


def wrap_correction(spans, start, end, correction):
    """`spans` (start, end, piece) with the pieces between `start` and `end` gathered into one
    {'corr', 'pieces'}: text is cut at the two offsets; a reference (or an earlier correction) that
    reaches over one of them is taken in whole, so the mark never cuts a link in two. A note marker at
    either end stays outside."""
    for a, b, piece in spans:
        if "text" not in piece and a < start < b:
            start = a
        if "text" not in piece and a < end < b:
            end = b
    cut = []
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


# ---------------------------------------------------------------- the site model

@dataclass
class Footnote:
    number: int | str  # the book's number where the note has one ("17"), else its place on the page
    anchor: str
    cite: str
    pieces: list
    book: tuple | None = None  # (number, words) of a note the book numbers: a second citation is the same note


@dataclass
class ArticlePage:
    """What one article page shows; `content` is the article element's own blocks, nodes nested.
    `node`, `footnotes`, `commentary` and `cited_by` are filled by Site.fill(), once per edition,
    just before the edition is rendered (an edition reused from the previous build never needs them)."""
    id: str
    edition: str
    num: str
    title: str | None
    element: object = None  # the <article>; None when only commentary is known
    node: dict | None = None  # the article as a node view (after fill); None when only commentary is known
    footnotes: list = field(default_factory=list)
    commentary: list = field(default_factory=list)
    cited_by: list = field(default_factory=list)
    other_editions: list = field(default_factory=list)
    diffs: list = field(default_factory=list)  # {"editions": "2007–2017", "href": …}: comparisons holding it
    marks: set = field(default_factory=set)  # "missing", "inferred": which legends the page needs
    prev: "ArticlePage | None" = None
    next: "ArticlePage | None" = None

    @property
    def file(self):
        return f"{self.num}.html"

    @property
    def sections(self):
        """The article's sections as [(cite, heading)], for the list at the top of its page."""
        if self.node is None:
            return []
        return [(b["node"]["cite"], b["node"]["heading"]) for b in self.node["content"] if b["kind"] == "node"]

    def anchors(self):
        """Every citation anchor on the page: 41, 41A, 41A1, …"""
        out, todo = [], [self.node] if self.node else []
        while todo:
            node = todo.pop(0)
            out.append(node["cite"])
            todo[:0] = [b["node"] for b in node["content"] if b["kind"] == "node"]
        return out


DOT_TIMEOUT = 600  # seconds: Graphviz's dot lays out a group of the graph in well under one
LAYOUT_GROUP = 60  # articles laid out together on the graph page (grouped_layout)


@dataclass(frozen=True)
class GraphDrawing:
    """A layered drawing by Graphviz's dot, in SVG's coordinates (y down): each node's centre, and per
    edge the path from the citing circle's rim to the cited one's (dot's own curve, cubic Bézier
    pieces), with the size of the picture."""
    width: float
    height: float
    centres: dict[str, tuple[float, float]]
    paths: dict[tuple[str, str], str]


def dot_layout(order: list[str], edges: list[tuple[str, str]], r: float, gap_x: float, gap_y: float,
               margin: float) -> GraphDrawing:
    """The graph laid out by Graphviz's `dot` (rows, citing articles above the articles they cite, few
    crossings: Sugiyama's layered drawing, as dot makes it). Nodes are circles of radius r, at least
    gap_x apart in a row and gap_y between rows (centre to centre). Nodes and edges go to dot in
    `order` under names of their place in it, so the drawing is the same on every build with the same
    Graphviz. Without `dot` the build stops and says how to install it."""
    dot = shutil.which("dot")
    if dot is None:
        raise LawbookError("Graphviz's `dot`, which draws the graph page, is not installed",
                           fix="install Debian's graphviz package (apt-get install graphviz), or run `make test` as root")
    name = {n: f"n{i}" for i, n in enumerate(order)}
    inch = 72  # dot's sizes are in inches, its coordinates in points
    source = ["digraph {",
              f"graph [rankdir=TB, nodesep={(gap_x - 2 * r) / inch:.4f}, ranksep={(gap_y - 2 * r) / inch:.4f}];",
              f'node [shape=circle, fixedsize=true, width={2 * r / inch:.4f}, label=""];',
              "edge [arrowhead=none];",
              *(f"{name[n]};" for n in order),
              *(f"{name[a]} -> {name[b]};" for a, b in edges),
              "}"]
    try:
        done = subprocess.run([dot, "-Tjson"], input="\n".join(source), capture_output=True, text=True,
                              timeout=DOT_TIMEOUT, check=True)
    except subprocess.CalledProcessError as e:
        raise LawbookError(f"Graphviz's `dot` failed on the graph page: {e.stderr.strip()}",
                           fix="this is a bug in the pipeline; run with --debug and report it", status=1) from None
    laid = json.loads(done.stdout)
    x0, y0, x1, y1 = (float(v) for v in laid["bb"].split(","))

    def svg(point: str) -> tuple[float, float]:  # dot's y grows upwards, SVG's downwards
        x, y = (float(v) for v in point.split(","))
        return round(x - x0 + margin, 1), round(y1 - y + margin, 1)
    place = {o["name"]: svg(o["pos"]) for o in laid.get("objects", ())}
    names = [o["name"] for o in laid.get("objects", ())]  # by dot's own index (_gvid)
    curves = {(names[e["tail"]], names[e["head"]]): e["pos"] for e in laid.get("edges", ())}
    paths = {}
    for a, b in edges:
        points = [svg(p) for p in curves[(name[a], name[b])].split()]
        # The start, then (control, control, end) per cubic piece.
        paths[(a, b)] = f"M {points[0][0]} {points[0][1]} " + " ".join(
            "C " + " ".join(f"{x} {y}" for x, y in points[i:i + 3]) for i in range(1, len(points), 3))
    return GraphDrawing(width=round(x1 - x0 + 2 * margin, 1), height=round(y1 - y0 + 2 * margin, 1),
                        centres={n: place[name[n]] for n in order}, paths=paths)


def grouped_layout(order: list[str], edges: list[tuple[str, str]], r: float, gap_x: float, gap_y: float,
                   margin: float, group: int = LAYOUT_GROUP) -> GraphDrawing:
    """dot_layout of groups of `group` consecutive nodes in `order`, each group's drawing below the one
    before, centred; an edge between two groups is one straight line from rim to rim. dot's work grows
    much faster than the graph (an edge from the last of 930 articles to the first passes a place in
    every row between): dot did not finish a generated 930-article book in ten minutes, and lays out
    groups of 60 in about a second. The real books' editions are one group."""
    groups = [order[i:i + group] for i in range(0, len(order), group)] or [[]]
    where = {n: k for k, nodes in enumerate(groups) for n in nodes}
    drawings = [dot_layout(nodes, [(a, b) for a, b in edges if where[a] == where[b] == k], r, gap_x, gap_y, margin)
                for k, nodes in enumerate(groups)]
    if len(drawings) == 1:
        return drawings[0]
    width = max(d.width for d in drawings)
    centres, paths, top = {}, {}, 0.0
    for d in drawings:
        dx, dy = round((width - d.width) / 2, 1), round(top - (margin if top else 0), 1)

        def moved(x: float, y: float) -> tuple[float, float]:
            return round(x + dx, 1), round(y + dy, 1)
        centres.update((n, moved(*c)) for n, c in d.centres.items())
        for edge, path in d.paths.items():
            paths[edge] = _moved_path(path, dx, dy)
        top += d.height - (margin if top else 0)
    for a, b in edges:
        if (a, b) not in paths:
            (x1, y1), (x2, y2) = centres[a], centres[b]
            start, end = rim(x1, y1, x2, y2, r), rim(x2, y2, x1, y1, r)
            third = [(round(start[0] + (end[0] - start[0]) * t, 1), round(start[1] + (end[1] - start[1]) * t, 1))
                     for t in (1 / 3, 2 / 3)]
            paths[(a, b)] = (f"M {start[0]} {start[1]} C " + " ".join(f"{x} {y}" for x, y in (*third, end)))
    return GraphDrawing(width=width, height=round(top, 1), centres=centres, paths=paths)


def _moved_path(path: str, dx: float, dy: float) -> str:
    """SVG path data 'M x y C x y …' moved by (dx, dy)."""
    out, numbers = [], 0
    for word in path.split():
        if word in ("M", "C"):
            out.append(word)
            continue
        out.append(str(round(float(word) + (dy if numbers % 2 else dx), 1)))
        numbers += 1
    return " ".join(out)


def rim(x1: float, y1: float, x2: float, y2: float, r: float) -> tuple[float, float]:
    """The point at distance r from (x1, y1) towards (x2, y2), rounded for byte-identical SVG."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1
    return round(x1 + dx / length * r, 1), round(y1 + dy / length * r, 1)


class Site:
    """The corpus read once into what the pages show: articles, notes, references both ways.

    Built in one pass over the corpus: the node index, who cites what, and per edition its article
    pages in order. Each page's content (node views, notes, commentary) is read by fill() for the
    editions actually rendered. The words it adds (a reference's title) are `profile`'s, Dutch when none."""

    def __init__(self, corpus, log, profile=None):
        self.corpus = corpus
        self.log = log
        self.profile = profile or lang.profile()
        # Only structural nodes are link targets: they are the anchors the pages carry.
        self.nodes = {el.get("id"): el for el in corpus.iter(*tree.NODE_TAGS)}
        self._editions = {e.get("id"): e for e in corpus.iterchildren("edition")}
        self.editions = list(self._editions)
        self.cited_by = self._cited_by()
        self._commentary = {}
        self.articles = {ed: self._edition_pages(ed) for ed in self.editions}
        self.pages = {page.id: page for pages in self.articles.values() for page in pages}
        self._filled = set()
        self._page = None  # the page being filled: its legends are collected as its text is read

    @property
    def newest_first(self):
        """The editions as readers are offered them: the newest, the one in force, first."""
        return list(reversed(self.editions))

    # -- references

    def refs(self, edition=None):
        """Every <ref> with the ID of the node that cites and its targets, in document order."""
        scope = self.corpus if edition is None else self.edition_el(edition)
        for ref in scope.iter("ref"):
            node = citing_node(ref)
            yield ref, (node.get("id") if node is not None else None), (ref.get("to") or "").split()

    def _cited_by(self):
        """article ID -> sorted [(citing ID, cited ID)], from the refs in the tree (not from file order).
        An article's references to its own sections are its text, not a citation from elsewhere: left out.
        The commentary on an article that has no text of its own does cite it (54's remark on 54) only when
        it names another article; its own number is the page it stands on."""
        out = {}
        for ref, citing, targets in self.refs():
            for target in targets:
                if target in self.nodes and citing and article_of(citing) != article_of(target):
                    out.setdefault(article_of(target), set()).add((citing, target))
        return {k: sorted(v, key=lambda pair: (order_key(pair[0]), order_key(pair[1]))) for k, v in out.items()}

    def resolves(self, ref):
        targets = (ref.get("to") or "").split()
        return bool(targets) and targets[0] in self.nodes and ref.get("status") not in UNRESOLVED

    # -- text

    def pieces(self, el, notes, root="../", corrected=()):
        """Mixed content of a <p>, <note> or <attribution> as pieces for the templates:
        {'text'}, {'ref', 'href' or None, 'title', 'status'}, {'note', 'number', 'anchor'}, and
        {'corr', 'pieces'} around the words a correction put there (`corrected`: (start, end, correction)
        in the plain text's offsets, as <corr> records them).
        Each note met is appended to `notes` (a Footnote) so the page lists it at the end. A note shows the
        book's number where it has one (a note the book cites twice is listed once, both markers linking
        to it); a note without one, its place among the page's notes."""
        spans, offset = [], 0  # (start, end, piece) in the plain text; a note is where its marker stands
        for kind, words, child in tree.inline(el):
            if kind == tree.NOTE:
                own = note_anchor(child.get("id") or ids.note_id(el.get("id", ""), len(notes) + 1))
                book = tree.note_number(child)
                book = (book, " ".join(tree.plain_text(child).split())) if book else None
                cited = next((f for f in notes if book and f.book == book), None)
                if cited is None:
                    cited = Footnote(book[0] if book else len(notes) + 1, own, ids.shown(child.get("id") or "x/?"),
                                     self.pieces(child, notes, root), book)
                    notes.append(cited)
                # "marker": this marker's own anchor (ref-…), the footnote's back-link target when it is the first
                spans.append((offset, offset, {"note": True, "number": cited.number, "anchor": cited.anchor,
                                               "marker": own}))
                continue
            piece = self.ref_piece(child, root) if kind == tree.REF else {"text": words}
            spans.append((offset, offset + len(words), piece))
            offset += len(words)
        plain = "".join(piece.get("text") or piece.get("ref") or "" for _, _, piece in spans)
        for start, end, correction in corrected:
            if plain[start:end] == correction["now"]:  # else the record is not of this text: no mark, not a wrong one
                spans = wrap_correction(spans, start, end, correction)
                if self._page is not None:
                    self._page.marks.add("replace")
        return [piece for _, _, piece in spans]

    def ref_piece(self, ref, root):
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
        page = self.pages.get(article_of(targets[0])) if targets else None
        if page is not None and page.element is None and targets[0] == page.id:
            # An article known only from its commentary still has a page (2017/54): the reader goes there.
            return {"ref": text, "href": href(article_of(targets[0]), root), "title": None, "status": "ok"}
        if self._page is not None:
            self._page.marks.add("missing")
        # Quiet for readers: not a link, and the page's legend says what the style means.
        return {"ref": text, "href": None, "title": say(self.profile, "refers to an article that is not in this edition"),
                "status": "missing"}

    def node_view(self, el, notes):
        """A node as nested dicts: id, cite, tag, num, heading, inferred evidence, the correction that
        renumbered it (`renumbered`), content blocks (a paragraph with the words a correction replaced)."""
        # Readers learn that a number is inferred (a legend says what ° means); the evidence, in English
        # and with file names, is on the editor's page.
        inferred = el.get("numbering") == "inferred"
        if inferred and self._page is not None:
            self._page.marks.add("inferred")
        # "cite" is the anchor (30B1b.i); "shown" what the label reads (30B1(b)(i) for a subitem).
        view = {"id": el.get("id"), "cite": ids.cite_of(el.get("id")), "shown": ids.shown(el.get("id")),
                "tag": el.tag, "num": el.get("num"),
                "heading": tree.label_text(el), "inferred": inferred, "renumbered": None, "content": []}
        # A note marked in the title or heading: its words with the marker, read before the text so that
        # the page's notes stay in reading order (None: the words alone, as "heading").
        label = tree.label(el)
        view["heading_pieces"] = self.pieces(label, notes) if label is not None and len(label) else None
        corrected = {}  # paragraph number -> [(start, end, correction)]
        for correction in corrections_of(el):
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
            elif child.tag == "gap":
                view["content"].append({"kind": "gap", "reason": child.get("reason")})
            elif child.tag in tree.NODE_TAGS:
                view["content"].append({"kind": "node", "node": self.node_view(child, notes)})
        return view

    def commentary_view(self, el, notes):
        attribution = el.find("attribution")
        return {"anchor": note_anchor(el.get("id")) if el.get("id") else "toelichting",
                "author": el.get("author"),
                "attribution": self.pieces(attribution, notes) if attribution is not None else [],
                "paragraphs": [self.pieces(p, notes) for p in el.iterchildren("p")]}

    # -- pages

    def edition_el(self, edition):
        return self._editions[edition]

    def _edition_pages(self, edition):
        """The pages of one edition in reading order, linked prev/next; content not read yet."""
        ed = self.edition_el(edition)
        commentary = self._commentary[edition] = {}
        for c in ed.iterchildren("commentary"):
            commentary.setdefault(article_of(c.get("on") or c.get("id")), []).append(c)
        pages = {}
        for article in ed.iterchildren("article"):
            pages[article.get("id")] = ArticlePage(article.get("id"), edition, article.get("num"),
                                                   tree.label_text(article), article)
        # Commentary on an article the sources lack still gets its page, marked as such.
        for on in commentary:
            if on and on not in pages:
                pages[on] = ArticlePage(on, edition, ids.cite_of(on), None)
        ordered = sorted(pages.values(), key=lambda p: order_key(p.id))
        for prev, nxt in zip(ordered, ordered[1:]):
            prev.next, nxt.prev = nxt, prev
        return ordered

    def fill(self, edition):
        """Read the content of every page of `edition`: node views, footnotes (text first, then
        commentary), commentary, cited-by. Once per edition; later calls do nothing."""
        if edition in self._filled:
            return
        self._filled.add(edition)
        commentary = self._commentary[edition]
        for page in self.articles[edition]:
            notes = []
            self._page = page
            if page.element is not None:
                page.node = self.node_view(page.element, notes)
            page.footnotes = notes
            page.commentary = [self.commentary_view(c, notes) for c in commentary.get(page.id, [])]
            page.cited_by = self.cited_by.get(page.id, [])
            self._page = None

    def link_editions(self):
        """Each article page learns where the same article stands in the other editions."""
        by_num = {}
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

    def comparisons(self):
        """(old, new) for every pair of consecutive editions: each has its comparison page."""
        return list(zip(self.editions, self.editions[1:]))

    def graph(self, edition):
        """The article-level reference graph of an edition as SVG geometry, laid out by Graphviz's dot.

        Nodes are the articles with a page in the edition (54, known from its commentary, too) plus every
        article cited but missing; a reference in commentary is the commentary's edge (drawn dashed),
        not the article's. Nodes are added in article order, so the layout (and the SVG) is the same on
        every build."""
        pages = {p.num: p for p in self.articles[edition]}
        edges = {}
        for ref, citing, targets in self.refs(edition):
            if not citing:
                continue
            source = ids.cite_of(article_of(citing))
            kind = "commentary" if getattr(ids.NodeId.parse(citing), "annex", None) == ids.COMMENTARY else "law"
            # One edge per reference and cited article, however many of its nodes the words name.
            cited = {ids.cite_of(article_of(t)) for t in targets if article_of(t)}
            for num in cited - {source}:  # references within an article are no edge of the picture
                edges[(source, num, kind)] = edges.get((source, num, kind), 0) + 1
        order = sorted(set(pages) | {n for a, b, _ in edges for n in (a, b)}, key=ids.sort_key)
        at = {n: i for i, n in enumerate(order)}
        pairs = sorted({(a, b) for a, b, _ in edges}, key=lambda e: (at[e[0]], at[e[1]]))
        r = 27
        drawing = grouped_layout(order, pairs, r=r, gap_x=78, gap_y=100, margin=40)

        def status(n):
            page = pages.get(n)
            return "missing" if page is None else ("present" if page.element is not None else "commentary")
        nodes = [{"num": n, "x": drawing.centres[n][0], "y": drawing.centres[n][1], "status": status(n),
                  "present": n in pages} for n in order]
        lines = []
        for (a, b), kinds in ((pair, [k for k in ("law", "commentary") if (*pair, k) in edges]) for pair in pairs):
            for kind in kinds:
                lines.append({"from": a, "to": b, "count": edges[(a, b, kind)], "kind": kind,
                              "from_present": a in pages, "to_present": b in pages, "d": drawing.paths[(a, b)]})
        return {"width": drawing.width, "height": drawing.height, "r": r, "nodes": nodes, "edges": lines}

    def corrections(self):
        """Every correction applied to the corpus (corrections_of), in the order of corrections.toml, each
        with `at`, the link from the editor's page to its mark (to the node, for a correction without a
        mark), and `marked`, the words (or IDs) before and after with the difference marked."""
        out = []
        for el in self.corpus.iter(*tree.NODE_TAGS):
            for correction in corrections_of(el):
                marked = correction["kind"] in ("renumber", "replace")
                at = href(el.get("id"), "")
                correction["at"] = at.split("#")[0] + "#" + correction["anchor"] if marked else at
                correction["file"] = CORRECTIONS_FILE
                correction["marked"] = (marked_change(correction["was"], correction["now"] or correction["id"])
                                        if marked else None)
                out.append(correction)
        return sorted(out, key=lambda c: (c["line"] is None, c["line"] or 0))

    def unresolved_refs(self):
        """References the editor must look at, counted as `lawbook check` counts them: one entry per
        target that is not in the corpus (dangling or known missing), and every target of a reference
        marked suspect."""
        out = []
        for ref, citing, targets in self.refs():
            status = ref.get("status") or "ok"
            file, line = source_of(ref)
            for target in targets or [""]:
                if status == "suspect":
                    kind = "suspect"
                elif target not in self.nodes:
                    kind = "known-missing" if status == "known-missing" else "dangling"
                else:
                    continue
                out.append({"file": file, "line": line, "node": citing, "text": tree.plain_text(ref),
                            "to": target, "status": kind})
        return sorted(out, key=lambda r: (r["file"], r["line"], r["text"], r["to"]))


# ---------------------------------------------------------------- rendering

# The heading level of a node below the article (h1).
LEVELS = {"section": 2, "subsection": 3, "item": 4, "subitem": 5}


class Fragments:
    """The law text of a page as HTML, written in Python: a paragraph's pieces (`inline`), a node's
    blocks with its nested nodes (`content`) and the mark of a renumbered node (`renumbered`), the
    templates' globals of those names. They were jinja2 macros; a macro call per piece and per node
    went through jinja2's runtime (half the site's rendering), so the same markup is joined here
    instead, byte for byte: every value escaped as the templates' autoescape escapes it, every word
    the profile's, formatted in as the templates' _() does (the words trusted, the values escaped)."""

    def __init__(self, profile):
        self.profile = profile
        self._words = {}

    def word(self, english, **values):
        """What the templates' _(english, **values) gives under autoescape: the profile's words as
        markup, % the escaped values (even with none, so %% is one %)."""
        # Kept by the words and the values when every value is a plain str or int (escaped the same
        # whenever equal): a page names the same articles again and again. Anything else is formatted anew.
        key = (english, *values.items()) if all(type(v) in (str, int) for v in values.values()) else None
        said = self._words.get(key) if key is not None else None
        if said is None:
            said = Markup(self.profile.word(english)) % values
            if key is not None:
                if len(self._words) >= 1 << 16:  # one environment serves every build of a process
                    self._words.clear()
                self._words[key] = said
        return said

    def inline(self, pieces):
        """The inline text of a paragraph, note or attribution: text, references, note markers and the
        words a correction of the laws committee put there (marked, the mark linking to the editor's page)."""
        out = []
        for piece in pieces:
            if "corr" in piece:
                corr = piece["corr"]
                said = self.word("corrected by the laws committee against the original; the sources say: "
                                 "‘%(was)s’; basis: %(basis)s", was=corr["was"], basis=corr["basis"])
                out.append(f'<span class="corr" id="{escape(corr["anchor"])}" title="{said}">'
                           f'{self.inline(piece["pieces"])}</span><a class="corr-mark" href="{escape(corr["href"])}"'
                           f' title="{said}" aria-label="{self.word("correction: what the sources say")}"></a>')
            elif "note" in piece:
                anchor = escape(piece["anchor"])
                out.append(f'<sup class="noteref"><a id="ref-{escape(piece.get("marker", piece["anchor"]))}" href="#{anchor}" role="doc-noteref" '
                           f'aria-label="{self.word("note %(number)s", number=piece["number"])}">'
                           f'{escape(piece["number"])}</a></sup>')
            elif "ref" in piece and piece["href"]:
                suspect = " suspect" if piece["status"] == "suspect" else ""
                title = f' title="{escape(piece["title"])}"' if piece["title"] else ""
                out.append(f'<a class="ref{suspect}" href="{escape(piece["href"])}"{title}>{escape(piece["ref"])}</a>')
            elif "ref" in piece:
                out.append(f'<span class="ref missing" title="{escape(piece["title"])}">{escape(piece["ref"])}</span>')
            else:
                out.append(escape(piece["text"]))
        return Markup("".join(out))

    def label(self, node):
        """The label that names a node: its citation, linkable, marked when the numbering is inferred."""
        out = [f'<a class="cite" href="#{escape(node["cite"])}">{escape(node["shown"])}</a>']
        if node["inferred"]:
            inferred = self.word("numbering inferred")
            out.append(f'<abbr class="inferred" title="{inferred}" aria-label="{inferred}"></abbr>')
        if node["renumbered"]:
            out.append(self.renumbered(node["renumbered"]))
        return "".join(out)  # markup: joined as text (Markup + str would escape the str)

    def renumbered(self, corr):
        """A node a correction renumbered: its number in the sources, small, linking to the editor's page entry."""
        title = self.word("renumbered by the laws committee against the original; the sources number it "
                          "%(cite)s; basis: %(basis)s", cite=corr["was_cite"], basis=corr["basis"])
        return Markup(f'<a class="corr-mark renumbered" id="{escape(corr["anchor"])}" href="{escape(corr["href"])}" '
                      f'title="{title}">{self.word("was %(cite)s", cite=corr["was_cite"])}</a>')

    def content(self, node):
        """The content of a node: paragraphs, editorial gap remarks and nested nodes, in source order,
        each on its own line."""
        out = []
        for block in node["content"]:
            if block["kind"] == "p":
                out.append(f'<p>{self.inline(block["pieces"])}</p>\n')
            elif block["kind"] == "gap":
                reason = escape(block["reason"]) if block["reason"] else self.word("text is missing from the sources here")
                out.append(f'<p class="gap" role="note"><span class="gap-label">{self.word("Editorial note:")}</span> '
                           f'{reason}</p>\n')
            else:
                out.append(f'{self.child(block["node"])}\n')
        return Markup("".join(out))

    def child(self, node):
        level, cite = LEVELS[node["tag"]], escape(node["cite"])
        words = self.inline(node["heading_pieces"]) if node.get("heading_pieces") else escape(node["heading"] or "")
        heading = f' <span class="heading">{words}</span>' if words else ""
        return (f'<section class="{escape(node["tag"])}" id="{cite}" aria-labelledby="h-{cite}">\n'
                f'<h{level} id="h-{cite}">{self.label(node)}{heading}</h{level}>\n{self.content(node)}\n</section>')


@per_profile
def environment(profile):
    """The jinja2 environment over templates/html/, autoescaping every page (law text is data, not markup),
    its words and lang="…" from `profile` (Dutch when none is given; see text.install).
    One per process and profile: each template is compiled once and never checked again on disk (the
    templates are part of the code version, so a change to them means a new process anyway)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([TEMPLATES, TEMPLATES.parent]), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, auto_reload=False, cache_size=-1,
                             bytecode_cache=text.template_cache(__file__, TEMPLATES.parent))
    text.install(env, profile)
    fragments = Fragments(profile)
    # The templates' _() is fragments.word: the i18n extension's _() gives the same, but through two
    # context calls each time (20,000 calls for a book of 93 articles).
    env.globals.update(stylesheet=STYLESHEET, node_href=href, _=fragments.word, inline=fragments.inline,
                       content=fragments.content, renumbered=fragments.renumbered)
    env.filters["cite"] = functools.lru_cache(maxsize=1 << 16)(lambda node_id: ids.shown(node_id) if node_id else "")
    env.filters.update(place=lambda cite: diff_render.place(cite, profile),
                       targets=lambda cites: diff_render.targets(cites, profile))
    return env


# The editor's page: report kinds with a section of their own, its title and introduction (profile words).
REPORT_SECTIONS = [
    ("repair", "Repairs", "Text the pipeline has mended (before → after)."),
    ("inference", "Inferred numbering", "Numbering or structure the source does not state but that was inferred."),
    ("variant", "Variants", "Sources that give the same text slightly differently; which reading was chosen."),
    ("gap", "Missing text", "Text the law has but the sources do not."),
]


def marked_change(before, after):
    """Two readings as pieces [(op, text)], op "equal", "delete" or "insert", word by word (spaces kept),
    so the editor sees where a variant or a repair differs ("artikel" / "Artikel" at the start)."""
    import difflib

    old, new = re.findall(r"\S+|\s+", before or ""), re.findall(r"\S+|\s+", after or "")
    out = {"before": [], "after": []}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            out["before"].append(("equal", "".join(old[i1:i2])))
            out["after"].append(("equal", "".join(new[j1:j2])))
        else:
            if i2 > i1:
                out["before"].append(("delete", "".join(old[i1:i2])))
            if j2 > j1:
                out["after"].append(("insert", "".join(new[j1:j2])))
    return out


def report_view(log, profile=None):
    """The build report grouped for the editor's page: the sections above, then every other kind.
    A repair or variant carries its two readings with the words that differ marked (`marked`); for a
    variant `before` is the reading set aside and `after` the one kept."""
    profile = profile or lang.profile()
    data = log.to_json()
    # Every entry with every field, so the template need not guess which ones a kind has.
    entries = [{"line": None, "node": None, "before": None, "after": None, **e} for e in data["entries"]]
    for e in entries:
        e["marked"] = (marked_change(e["before"], e["after"])
                       if e["before"] is not None or e["after"] is not None else None)
    sections = [{"kind": kind, "title": say(profile, title), "intro": say(profile, intro),
                 "entries": [e for e in entries if e["kind"] == kind]}
                for kind, title, intro in REPORT_SECTIONS]
    shown = {kind for kind, _, _ in REPORT_SECTIONS}
    others = [e for e in entries if e["kind"] not in shown]
    others.sort(key=lambda e: (KINDS.index(e["kind"]) if e["kind"] in KINDS else len(KINDS), e["file"],
                               e.get("line") or 0))
    return {"sources": data["sources"], "summary": data["summary"], "sections": sections, "others": others}


# The comparison with the original: what each status means (profile words), in align's order.
ALIGN_STATUSES = {
    "refs-differ": "Both have it; its references point elsewhere than the original's.",
    "notes-differ": "Both have it, with a different number of notes.",
    "gap": "The sources have a gap where the original has text.",
    "extra": "Here, but not in the original.",
    "missing": "In the original, inside a part the sources show, but not here.",
    "accepted": "Different from the original on purpose: a correction accepts it.",
    "not-in-sources": "In the original, outside every part the sources show.",
}


def alignment_view(alignment, reference, profile=None):
    """The values of the editor's section "Comparison with the original" (templates/html/editor.html):
    the counts per status, the nodes that are not `match` grouped by status (each side's references and
    notes, the source line, the suggestion), the articles only one book holds and the dangling
    references as the original classifies them. `reference`: the path the build was given."""
    from ..corpus import align

    profile = profile or lang.profile()
    data = alignment.to_json()

    def side(node):
        return None if node is None else {"refs": ", ".join(node["refs"]) or "—", "notes": node["notes"]}

    groups = []
    for status, meaning in ALIGN_STATUSES.items():
        nodes = [{"id": n["id"], "where": (n["translation"] or {}).get("source") or "",
                  "reference_where": (n["reference"] or {}).get("source") or "",
                  "here": side(n["translation"]), "there": side(n["reference"]),
                  "suggestion": (n["suggestion"] or {}).get("text")}
                 for n in data["nodes"] if n["status"] == status]
        if nodes:
            groups.append({"status": status, "meaning": say(profile, meaning), "nodes": nodes})
    order = align.CLASSES
    dangling = sorted(data["dangling"], key=lambda d: order.index(d["class"]))  # else in the book's order
    classes = {c: sum(d["class"] == c for d in dangling) for c in order}
    return {"reference": str(reference), "summary": data["summary"], "statuses": align.STATUSES,
            "groups": groups, "editions": data["editions"], "articles": data["articles"],
            "dangling": dangling, "classes": classes, "failing": alignment.status != 0}


@collector_paused
def write_html(job):
    """Reads: job.corpus (with <ref> when the references stage marked them), job.log.
    Writes: html/ — the index of editions, per edition a table of contents, one page per article and
    the reference graph, the editor's page, the search page and the style sheet.
    An edition whose pages would come out as in the previous build (see PreviousBuild) is copied
    from there instead of rendered; the index of editions, the editor's page and the search page
    depend on every edition and are always rendered.
    Guarantees: relative links only, no external requests, no timestamps; returns the pages written."""
    out = job.tmp / "html"
    out.mkdir(parents=True, exist_ok=True)
    profile = profile_of(job)
    site = Site(job.corpus, job.log, profile)
    site.link_editions()
    env = environment(profile)
    written = []

    folders = {out}

    def page(path, template, **values):
        target = out / path
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        target.write_text(env.get_template(template).render(**values), encoding="utf-8")
        written.append(path)

    comparisons = [{"old": old, "new": new, "file": f"diff/{old}-{new}.html"} for old, new in site.comparisons()]
    editions = [{"id": ed, "articles": site.articles[ed], "current": ed == site.editions[-1],
                 "comparisons": [c for c in comparisons if ed in (c["old"], c["new"])]}
                for ed in site.newest_first]
    page("index.html", "index.html", root="", editions=editions, comparisons=comparisons)
    previous = PreviousBuild(job, site)
    for ed in editions:
        if previous.reuse(ed["id"]):
            written += edition_pages(site, ed["id"])
            continue
        write_edition(site, ed["id"], page)
    for c in comparisons:
        result = (getattr(job, "comparisons", None) or {}).get((c["old"], c["new"])) \
            or diffs.compare(site.edition_el(c["old"]), site.edition_el(c["new"]))  # the build's, made once
        page(c["file"], "compare.html", root="../", **comparison_view(site, result, profile))
    # A report entry may name a node that is no longer in the corpus (renumbered by a correction): no link.
    # The comparison with the original is there only when the build was given one (build --reference):
    # the build's reference stage leaves its Alignment on the job (publish/reference.py).
    alignment = getattr(job, "alignment", None)
    page(EDITOR_PAGE, "editor.html", root="", report=report_view(job.log, profile), refs=site.unresolved_refs(),
         nodes=site.nodes, corrections=site.corrections(),
         original=alignment_view(alignment, job.options.reference, profile) if alignment is not None else None)
    page("zoeken.html", "search.html", root="", editions=site.newest_first)
    page("404.html", "404.html", root="")
    (out / "citaten.js").write_text(citations_script(site), encoding="utf-8")
    page("manifest.webmanifest", "manifest.webmanifest", root="")
    for name in STATIC:
        shutil.copyfile(TEMPLATES / name, out / name)
    written += ["citaten.js", *STATIC]
    if comparisons:
        shutil.copyfile(REDLINE_CSS, out / "diff" / "redline.css")
        written.append("diff/redline.css")
    # The service worker caches every file above on the first visit; its cache is named after their
    # bytes, so a new build replaces the old cache and an unchanged one keeps it.
    digest = hashlib.sha256()
    for path in sorted(written):
        digest.update(path.encode() + b"\0" + (out / path).read_bytes())
    page("sw.js", "sw.js", root="", files=sorted(written), version=digest.hexdigest()[:16])
    return written


def citations_script(site):
    """html/citaten.js: edition -> citation -> page (and anchor), newest edition first, for the citation
    jump of the search box: "53A", "2007 41B", "art. 16C" go straight to the node."""
    table = {}
    for ed in site.newest_first:
        cites = table[ed] = {}
        for el in site.edition_el(ed).iter(*tree.NODE_TAGS):
            cites[ids.cite_of(el.get("id"))] = href(el.get("id"), "")
        for page in site.articles[ed]:
            cites.setdefault(page.num, f"{ed}/{page.file}")
    return "window.LAWBOOK_CITATIONS = " + json.dumps(table, ensure_ascii=False, indent=0) + ";\n"


def comparison_view(site, result, profile):
    """The values of templates/html/compare.html: the comparison and, per article and node, where it
    stands in each edition's pages (only where that edition has it, so every link resolves)."""
    old, new = result["old"], result["new"]

    def where(edition, cite):
        if not cite:
            return None
        node_id = ids.join(edition, cite)
        if node_id in site.nodes:
            return href(node_id)
        return f"../{edition}/{cite}.html" if article_of(node_id) in site.pages and cite.isdigit() else None

    def links(node):
        # A copy of each node with its links: the comparison itself is the diff's too (write_diff), unchanged.
        node = dict(node, links=[(ed, where(ed, node.get(side))) for ed, side in ((old, "old"), (new, "new"))])
        if "children" in node:
            node["children"] = [links(child) for child in node["children"]]
        return node
    result = dict(result, articles=[links(article) for article in result["articles"]])
    labels = {status: say(profile, words, old=old, new=new) for status, words in diff_render.STATUS.items()}
    references = [r for a in result["articles"] for r in a["changes"]["references"]]
    return {"diff": result, "labels": labels, "references": references}


def definitions_view(site, edition):
    """The book's Definitions, for the edition's contents page: term, anchor (def-alert) and text."""
    holder = site.edition_el(edition).find("definitions")
    return [{"term": d.get("term"), "anchor": "def-" + ids.definition_slug(d.get("id")),
             "pieces": [piece for p in d.iter("p") for piece in site.pieces(p, [])]}
            for d in (holder if holder is not None else ())]


def introduction_view(site, edition: str) -> dict | None:
    """The book's Introduction, a section of the edition's contents page: its title, anchor (intro),
    paragraphs and the footnotes they hold; None when the sources hold no introduction."""
    el = site.edition_el(edition).find("introduction")
    if el is None:
        return None
    notes = []
    paragraphs = [site.pieces(p, notes) for p in el.iterchildren("p")]
    return {"title": el.findtext("title"), "anchor": ids.NodeId.parse(el.get("id")).anchor,
            "paragraphs": paragraphs, "footnotes": notes}


def edition_pages(site, edition):
    """The paths (below html/) of one edition's pages, in the order write_edition writes them."""
    from . import register_html
    return [f"{edition}/index.html", f"{edition}/verwijzingen.html", *register_html.pages(site, edition),
            *(f"{edition}/{article.file}" for article in site.articles[edition])]


def write_edition(site, edition, page):
    """Render html/<edition>/: table of contents, reference graph, the book's index, one page per article."""
    from . import register_html
    site.fill(edition)
    articles = site.articles[edition]
    comparisons = [{"old": old, "new": new, "file": f"diff/{old}-{new}.html"} for old, new in site.comparisons()
                   if edition in (old, new)]
    page(f"{edition}/index.html", "edition.html", root="../", edition=edition, articles=articles,
         current=edition == site.editions[-1], comparisons=comparisons, definitions=definitions_view(site, edition),
         introduction=introduction_view(site, edition), register=register_html.contents_link(site, edition))
    page(f"{edition}/verwijzingen.html", "graph.html", root="../", edition=edition, graph=site.graph(edition))
    register_html.write_register(site, edition, page, href)  # the book's index, where the sources hold one
    for article in articles:
        page(f"{edition}/{article.file}", "article.html", root="../", edition=edition, article=article)


class PreviousBuild:
    """What write_html may take from the last build (job.previous).

    html/<edition>/ depends on that edition's content and, through the links to the same article in
    the other editions, on which article numbers the other editions have text for. The folder is
    copied when the edition is unchanged (job.previous: same content digest) and those numbers
    are the same as when the previous build was made; otherwise it is rendered. The numbers of an
    edition whose digest is unchanged are known to be the same; for a changed one they are read from
    the previous corpus.xml (once, only then)."""

    def __init__(self, job, site):
        self.previous, self.site = job.previous, site
        self.usable = job.previous.available and job.previous.has("html")
        self._numbers = None  # read when first needed; {} when the previous corpus cannot be read

    def numbers(self, edition):
        """Article numbers with text in `edition`, now."""
        return {p.num for p in self.site.articles.get(edition, []) if p.element is not None}

    def previous_numbers(self):
        """edition -> article numbers with text, in the previous build (from its corpus.xml); None
        when that cannot be read (then nothing is reused that depends on it)."""
        if self._numbers is None:
            from .serialise import parse_xml

            path = self.previous.corpus_file()
            try:
                corpus = parse_xml(path.read_bytes()) if path is not None else None
                self._numbers = {ed.get("id"): {a.get("num") for a in ed.iterchildren("article")}
                                 for ed in corpus.iterchildren("edition")} if corpus is not None else {}
            except (OSError, etree.XMLSyntaxError):
                self._numbers = {}
        return self._numbers or None

    def links_unchanged(self, edition, stamp):
        """Whether each other edition has text for the same of this edition's article numbers as before."""
        own = self.numbers(edition)
        for other in set(stamp) | set(self.site.editions):
            if other == edition:
                continue
            now = self.numbers(other) & own
            if other in stamp and other in self.site.editions and stamp[other] == self.previous.digest(other):
                continue  # an unchanged edition has the same numbers
            before = self.previous_numbers()
            if before is None or before.get(other, set()) & own != now:
                return False
        return True

    def reuse(self, edition):
        """Copy html/<edition>/ from the previous build when that gives what rendering would; True if so."""
        if not self.usable:
            return False
        stamp = self.previous.digests()
        if stamp.get(edition) is None or stamp[edition] != self.previous.digest(edition):
            return False  # changed: reuse would say so too, without the link check's cost
        return self.links_unchanged(edition, stamp) and self.previous.reuse(edition, [f"html/{edition}"])


# ---------------------------------------------------------------- search

# Pages with data-pagefind-body: the article pages, all in html/<edition>/. Naming them spares pagefind
# reading the root pages, the editor's page above all (half a megabyte for a book), only to skip them.
SEARCHED_PAGES = "*/*.html"


def pagefind_command(site):
    """The command that indexes `site`: the pagefind binary of the pagefind[bin] wheel run directly
    (`python -m pagefind` would start an interpreter only to exec it), else through that module."""
    try:
        from pagefind_bin import get_executable

        program = [str(get_executable())]
    except (ImportError, OSError):
        program = [sys.executable, "-m", "pagefind"]
    return program + ["--site", str(site), "--output-subdir", "pagefind", "--glob", SEARCHED_PAGES, "--quiet"]


def start_search_index(job):
    """Reads: html/ (see write_search_index). Starts pagefind over it in a process of its own and
    returns at once, so the index is made while the build goes on with other outputs on the other core;
    finish_search_index waits for it. Nothing may change html/ in between."""
    site = job.tmp / "html"
    if not site.is_dir():
        raise LawbookError("there is no html/ to index", file=str(site), fix="write_html must run before "
                                                                           "write_search_index", status=1)
    job.search_index = subprocess.Popen(pagefind_command(site), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL, text=True)


def finish_search_index(job):
    """Waits for the pagefind process start_search_index started. Writes: html/pagefind/.
    Raises LawbookError when pagefind failed or wrote no index."""
    process = job.search_index
    if process is None:
        return
    job.search_index = None
    stdout, stderr = process.communicate()
    site = job.tmp / "html"
    if process.returncode != 0 or not (site / "pagefind" / "pagefind-ui.js").exists():
        raise LawbookError(f"pagefind could not index the site: {(stderr or stdout).strip()[:400]}",
                           file=str(site), fix="check that pagefind[bin] is installed in the environment "
                                               "(pip install -e '.[test]')", status=1)


def write_search_index(job):
    """Reads: html/ (article pages mark their text with data-pagefind-body; their lang="…", the profile's
    code, picks the stemming: Dutch for lang="nl").
    Writes: html/pagefind/ — the search index and pagefind's own UI script and style sheet (all local).
    Runs the pagefind binary from the pagefind[bin] wheel and waits for it; no network.
    (A build can instead run start_search_index here and finish_search_index as its last output
    stage, so the index is made while the other outputs are written.)"""
    start_search_index(job)
    finish_search_index(job)
