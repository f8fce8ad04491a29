"""The HTML edition: a static reader's site in build/html/.

    html/index.html                the editions
    html/<ed>/index.html           table of contents of one edition
    html/<ed>/<num>.html           one page per article (also for an article known only from its commentary)
    html/<ed>/verwijzingen.html    the reference graph of the edition as an SVG picture
    html/redactie.html             the editor's page: the build report, every entry with file and line
    html/zoeken.html               full-text search (pagefind; needs a web server, see serve.py)
    html/lawbook.css               the one style sheet

Every section, subsection and item carries the anchor of its citation, so
2017/50D2a is 2017/50.html#50D2a. Every link is relative and nothing is loaded
from elsewhere, so the site works from any web server and (except search) from file://.
Pages hold no timestamps: the same corpus gives the same bytes. Every word around the law text
and the pages' lang are the language profile's (text.py; the templates' _("…")).
"""
import gc
import math
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from lxml import etree

from ..core import ids, lang, tree
from ..core.memory import collector_paused
from ..core.errors import LawbookError
from ..core.report import KINDS
from .text import UNRESOLVED, per_profile, profile_of, say
from . import text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "html"
STYLESHEET = "lawbook.css"
NOT_IN_CORPUS = "not in this corpus"


# ---------------------------------------------------------------- IDs and links

order_key = ids.order_key
article_of = ids.article_of


def href(node_id, root="../"):
    """The relative URL of a node from a page `root` below html/: 2017/47E1 -> ../2017/47.html#47E1."""
    node = ids.NodeId.parse(node_id)
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


# ---------------------------------------------------------------- the site model

@dataclass
class Footnote:
    number: int
    anchor: str
    cite: str
    pieces: list


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
    prev: "ArticlePage | None" = None
    next: "ArticlePage | None" = None

    @property
    def file(self):
        return f"{self.num}.html"


def circle_layout(nodes, radius, centre):
    """Positions on a circle, first node at twelve o'clock, clockwise: the geometry of nx.circular_layout
    without its numpy dependency, rounded so the SVG is byte-identical on every build."""
    if len(nodes) == 1:
        return {nodes[0]: (centre, centre)}
    step = 2 * math.pi / max(len(nodes), 1)
    return {n: (round(centre + radius * math.sin(i * step), 1), round(centre - radius * math.cos(i * step), 1))
            for i, n in enumerate(nodes)}


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
        self._filled = set()

    # -- references

    def refs(self, edition=None):
        """Every <ref> with the ID of the node that cites and its targets, in document order."""
        scope = self.corpus if edition is None else self.edition_el(edition)
        for ref in scope.iter("ref"):
            node = citing_node(ref)
            yield ref, (node.get("id") if node is not None else None), (ref.get("to") or "").split()

    def _cited_by(self):
        """article ID -> sorted [(citing ID, cited ID)], from the refs in the tree (not from file order)."""
        out = {}
        for ref, citing, targets in self.refs():
            for target in targets:
                if target in self.nodes and citing:
                    out.setdefault(article_of(target), set()).add((citing, target))
        return {k: sorted(v, key=lambda pair: (order_key(pair[0]), order_key(pair[1]))) for k, v in out.items()}

    def resolves(self, ref):
        targets = (ref.get("to") or "").split()
        return bool(targets) and targets[0] in self.nodes and ref.get("status") not in UNRESOLVED

    # -- text

    def pieces(self, el, notes, root="../"):
        """Mixed content of a <p>, <note> or <attribution> as pieces for the templates:
        {'text'}, {'ref', 'href' or None, 'title', 'status'}, {'note', 'number', 'anchor'}.
        Each note met is appended to `notes` (a Footnote) so the page lists it at the end."""
        out = []
        for kind, words, child in tree.inline(el):
            if kind == tree.NOTE:
                anchor = note_anchor(child.get("id") or ids.note_id(el.get("id", ""), len(notes) + 1))
                number = len(notes) + 1
                notes.append(Footnote(number, anchor, ids.cite_of(child.get("id") or "x/?"),
                                      self.pieces(child, notes, root)))
                out.append({"note": True, "number": number, "anchor": anchor})
            elif kind == tree.REF:
                out.append(self.ref_piece(child, root))
            else:
                out.append({"text": words})
        return out

    def ref_piece(self, ref, root):
        targets = (ref.get("to") or "").split()
        status = ref.get("status") or "ok"
        text = tree.plain_text(ref)
        if self.resolves(ref):
            title = None
            if len(targets) > 1:
                title = say(self.profile, "also: %(cites)s", cites=", ".join(ids.cite_of(t) for t in targets[1:]))
            if status == "suspect":
                title = say(self.profile, "reference uncertain") + (f"; {title}" if title else "")
            return {"ref": text, "href": href(targets[0], root), "title": title, "status": status}
        return {"ref": text, "href": None, "title": say(self.profile, NOT_IN_CORPUS), "status": "dangling"}

    def node_view(self, el, notes):
        """A node as nested dicts: id, cite, tag, num, heading, inferred evidence, content blocks."""
        view = {"id": el.get("id"), "cite": ids.cite_of(el.get("id")), "tag": el.tag, "num": el.get("num"),
                "heading": tree.label_text(el),
                "inferred": el.get("evidence") if el.get("numbering") == "inferred" else None,
                "content": []}
        for child in el:
            if child.tag == "p":
                view["content"].append({"kind": "p", "pieces": self.pieces(child, notes)})
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
            if page.element is not None:
                page.node = self.node_view(page.element, notes)
            page.footnotes = notes
            page.commentary = [self.commentary_view(c, notes) for c in commentary.get(page.id, [])]
            page.cited_by = self.cited_by.get(page.id, [])

    def link_editions(self):
        """Each article page learns where the same article stands in the other editions."""
        by_num = {}
        for ed, pages in self.articles.items():
            for page in pages:
                if page.element is not None:
                    by_num.setdefault(page.num, []).append(page)
        for pages in by_num.values():
            for page in pages:
                for other in pages:
                    if other is page:
                        continue
                    old, new = sorted([page.edition, other.edition])
                    page.other_editions.append({
                        "edition": other.edition, "href": f"../{other.edition}/{other.file}",
                        "diff": f"../diff/{old}-{new}.html#art-{page.num}"})

    def graph(self, edition):
        """The article-level reference graph of an edition, laid out on a circle, as SVG geometry.

        Nodes are the articles in the edition plus every article cited but missing; nodes are
        added in article order, so the layout (and the SVG) is the same on every build."""
        present = {p.num for p in self.articles[edition] if p.element is not None}
        edges = {}
        for ref, citing, targets in self.refs(edition):
            if not citing:
                continue
            source = ids.cite_of(article_of(citing))
            # One edge per reference and cited article, however many of its nodes the words name.
            cited = {ids.cite_of(article_of(t)) for t in targets if article_of(t)}
            for num in cited - {source}:  # references within an article are no edge of the picture
                edges[(source, num)] = edges.get((source, num), 0) + 1
        order = sorted(present | {n for edge in edges for n in edge}, key=ids.sort_key)
        size, radius, r = 600, 250, 27
        pos = circle_layout(order, radius, size / 2)
        in_degree, out_edges = {}, {}
        for (a, b), count in sorted(edges.items()):
            in_degree[b] = in_degree.get(b, 0) + 1
            out_edges.setdefault(a, []).append((b, count))
        nodes = [{"num": n, "x": round(float(pos[n][0]), 1), "y": round(float(pos[n][1]), 1),
                  "present": n in present, "degree": in_degree.get(n, 0)} for n in order]
        lines = []
        # Edges by citing article in reading order, then by cited number as text (the order a
        # directed graph built node by node, edges sorted, gives them).
        for a, b, count in ((a, b, count) for a in order for b, count in out_edges.get(a, ())):
            (x1, y1), (x2, y2) = pos[a], pos[b]
            dx, dy = x2 - x1, y2 - y1
            length = (dx * dx + dy * dy) ** 0.5 or 1
            # Shorten each line to the circles' rims so the arrowhead is visible.
            lines.append({"from": a, "to": b, "count": count, "from_present": a in present,
                          "to_present": b in present,
                          "x1": round(float(x1 + dx / length * r), 1), "y1": round(float(y1 + dy / length * r), 1),
                          "x2": round(float(x2 - dx / length * (r + 4)), 1),
                          "y2": round(float(y2 - dy / length * (r + 4)), 1)})
        return {"size": size, "r": r, "nodes": nodes, "edges": lines}

    def unresolved_refs(self):
        """References the editor must look at: targets not in the corpus, or marked suspect."""
        out = []
        for ref, citing, targets in self.refs():
            status = ref.get("status") or "ok"
            if status != "ok" or not self.resolves(ref):
                file, line = source_of(ref)
                out.append({"file": file, "line": line, "node": citing, "text": tree.plain_text(ref),
                            "to": " ".join(targets), "status": status if status != "ok" else "dangling"})
        return sorted(out, key=lambda r: (r["file"], r["line"], r["text"]))


# ---------------------------------------------------------------- rendering

@per_profile
def environment(profile):
    """The jinja2 environment over templates/html/, autoescaping every page (law text is data, not markup),
    its words and lang="…" from `profile` (Dutch when none is given; see text.install).
    One per process and profile: each template is compiled once and never checked again on disk (the
    templates are part of the code version, so a change to them means a new process anyway)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, auto_reload=False, cache_size=-1)
    text.install(env, profile)
    env.globals.update(stylesheet=STYLESHEET, node_href=href)
    env.filters["cite"] = lambda node_id: ids.cite_of(node_id) if node_id else ""
    return env


# The editor's page: report kinds with a section of their own, its title and introduction (profile words).
REPORT_SECTIONS = [
    ("repair", "Repairs", "Text the pipeline has mended (before → after)."),
    ("inference", "Inferred numbering", "Numbering or structure the source does not state but that was inferred."),
    ("variant", "Variants", "Sources that give the same text slightly differently; which reading was chosen."),
    ("gap", "Missing text", "Text the law has but the sources do not."),
]


def report_view(log, profile=None):
    """The build report grouped for the editor's page: the sections above, then every other kind."""
    profile = profile or lang.profile()
    data = log.to_json()
    # Every entry with every field, so the template need not guess which ones a kind has.
    entries = [{"line": None, "node": None, "before": None, "after": None, **e} for e in data["entries"]]
    sections = [{"kind": kind, "title": say(profile, title), "intro": say(profile, intro),
                 "entries": [e for e in entries if e["kind"] == kind]}
                for kind, title, intro in REPORT_SECTIONS]
    shown = {kind for kind, _, _ in REPORT_SECTIONS}
    others = [e for e in entries if e["kind"] not in shown]
    others.sort(key=lambda e: (KINDS.index(e["kind"]) if e["kind"] in KINDS else len(KINDS), e["file"],
                               e.get("line") or 0))
    return {"sources": data["sources"], "summary": data["summary"], "sections": sections, "others": others}


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

    editions = [{"id": ed, "articles": site.articles[ed]} for ed in site.editions]
    page("index.html", "index.html", root="", editions=editions)
    previous = PreviousBuild(job, site)
    for ed in editions:
        if previous.reuse(ed["id"]):
            written += edition_pages(site, ed["id"])
            continue
        write_edition(site, ed["id"], page)
    page("redactie.html", "editor.html", root="", report=report_view(job.log, profile), refs=site.unresolved_refs())
    page("zoeken.html", "search.html", root="")
    shutil.copyfile(TEMPLATES / STYLESHEET, out / STYLESHEET)
    return written


def edition_pages(site, edition):
    """The paths (below html/) of one edition's pages, in the order write_edition writes them."""
    return [f"{edition}/index.html", f"{edition}/verwijzingen.html",
            *(f"{edition}/{article.file}" for article in site.articles[edition])]


def write_edition(site, edition, page):
    """Render html/<edition>/: table of contents, reference graph, one page per article."""
    site.fill(edition)
    articles = site.articles[edition]
    page(f"{edition}/index.html", "edition.html", root="../", edition=edition, articles=articles)
    page(f"{edition}/verwijzingen.html", "graph.html", root="../", edition=edition, graph=site.graph(edition))
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
