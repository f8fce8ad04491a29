"""The reader's pages: the template environment over templates/html/ (environment), the values of the
edition's pages (its contents page with the Introduction and Definitions, the comparison pages) and
the writing of one edition's folder (write_edition).

Reads: the Site (model.py). Writes: html/<edition>/ through the `page` writer write_html gives it.
"""
import functools
from collections.abc import Callable, Collection
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2

from ...core import ids, tree
from ...core.lang import Profile
from ...core.view import Introduction
from .. import text
from ..diff import render as diff_render
from ..text import per_profile, say
from . import fragments, register, search
from .model import ArticlePage, Footnote, Site, View, article_of, href

# What writes one page (write_html's `page`): its path below html/, its template and the template's values.
PageWriter = Callable[..., None]

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "html"
STYLESHEET = "lawbook.css"
# Files copied as they are from templates/html/ into html/.
STATIC = ("lawbook.css", "site.js", "icon.svg")
REDLINE_CSS = TEMPLATES.parent / "diff" / "redline.css"  # the comparison's marks, shared with `lawbook diff`


@per_profile
def environment(profile: Profile) -> jinja2.Environment:
    """The jinja2 environment over templates/html/, autoescaping every page (law text is data, not markup),
    its words, lang="…" and the site's file names from `profile` (see text.install).
    One per process and profile: each template is compiled once and never checked again on disk (the
    templates are part of the code version, so a change to them means a new process anyway)."""
    env = text.environment(__file__, [TEMPLATES, TEMPLATES.parent], profile, cache_in=TEMPLATES.parent,
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.globals.update(stylesheet=STYLESHEET, node_href=href)
    # The pages' addresses in the book's language: a link to the search or editor's page, the graph page
    # of an edition and the citation table are named as write_html names the files.
    files = text.file_names(profile)
    env.globals.update(search_page=files.search, editor_page=files.editor, graph_page=files.graph,
                       citations_script=files.citations, jump_words=search.jump_words(profile))
    env.filters["cite"] = functools.lru_cache(maxsize=1 << 16)(lambda node_id: ids.shown(node_id) if node_id else "")
    env.filters.update(place=lambda cite: diff_render.place(cite, profile),
                       targets=lambda cites: diff_render.targets(cites, profile))
    fragments.install(env, profile)  # last: the law text's macros see every global above
    return env


def comparison_view(site: Site, result: dict[str, Any], profile: Profile) -> View:
    """The values of templates/html/compare.html: the comparison and, per article and node, where it
    stands in each edition's pages (only where that edition has it, so every link resolves)."""
    old, new = result["old"], result["new"]

    def where(edition: str, cite: str | None) -> str | None:
        if not cite:
            return None
        node_id = ids.join(edition, cite)
        if node_id in site.nodes:
            return href(node_id)
        return f"../{edition}/{cite}.html" if article_of(node_id) in site.pages and cite.isdigit() else None

    def links(node: dict[str, Any]) -> dict[str, Any]:
        # A copy of each node with its links: the comparison itself is the diff's too (write_diff), unchanged.
        node = dict(node, links=[(ed, where(ed, node.get(side))) for ed, side in ((old, "old"), (new, "new"))])
        if "children" in node:
            node["children"] = [links(child) for child in node["children"]]
        return node
    result = dict(result, articles=[links(article) for article in result["articles"]])
    labels = {status: say(profile, words, old=old, new=new) for status, words in diff_render.STATUS.items()}
    references = [r for a in result["articles"] for r in a["changes"]["references"]]
    return {"diff": result, "labels": labels, "references": references}


def definitions_view(site: Site, edition: str) -> list[View]:
    """The book's Definitions, for the edition's contents page: term, anchor (def-alert), text and the tables
    that follow it (site.table_view)."""
    holder = site.edition_el(edition).find("definitions")
    return [{"term": d.get("term"), "anchor": "def-" + ids.definition_slug(tree.attr(d, "id")),
             "pieces": [piece for p in d.iter("p") for piece in site.pieces(p, [])],
             "tables": [site.table_view(t, [], d.get("term")) for t in d.iterchildren("table")]}
            for d in (holder if holder is not None else ())]


def introduction_view(site: Site, edition: str) -> View | None:
    """The book's Introduction, a section of the edition's contents page: its title, anchor (intro), its
    paragraphs and tables in order (`content`, site.text_view) and the footnotes they hold; None when the
    sources hold no introduction."""
    el = site.edition_el(edition).find("introduction")
    if el is None:
        return None
    notes: list[Footnote] = []
    title = el.findtext("title")
    content = [site.text_view(p, notes, title) for p in el.iterchildren(*tree.TEXT_TAGS)]
    return {"title": title, "anchor": Introduction(el).node_id.anchor, "content": content,
            "footnotes": notes}


def contents_view(site: Site, edition: str) -> list[View]:
    """The edition's articles as its contents page lists them: file, number, title, whether only commentary
    is known, and the sections (cite, heading). Only what the page shows, so that its key (outputs/keyed.py)
    changes when the contents do, not when an article's text does."""
    return [{"file": a.file, "num": a.num, "title": a.title, "commentary_only": a.node is None,
             "sections": a.sections} for a in site.articles[edition]]


def edition_pages(site: Site, edition: str) -> list[str]:
    """The paths (below html/) of one edition's pages, in the order write_edition writes them."""
    return [f"{edition}/index.html", f"{edition}/{site.files.graph}", *register.pages(site, edition),
            *(f"{edition}/{article.file}" for article in site.articles[edition])]


def write_edition(site: Site, edition: str, page: PageWriter, only: Collection[str] | None = None) -> None:
    """Render html/<edition>/: table of contents, reference graph, the book's index, one page per article.
    `only`: the article pages (paths below html/) to render, and no other page: the pages open in a browser,
    which watch mode renders first, reading those articles alone."""
    if only is not None:
        files = {PurePosixPath(path).name for path in only if PurePosixPath(path).parent == PurePosixPath(edition)}
        site.fill(edition, only=files)
        for article in site.articles[edition]:
            if article.file in files:
                article_page(site, edition, article, page)
        return
    site.fill(edition)
    articles = site.articles[edition]
    comparisons = [{"old": old, "new": new, "file": f"diff/{old}-{new}.html"} for old, new in site.comparisons()
                   if edition in (old, new)]
    page(f"{edition}/index.html", "edition.html", root="../", edition=edition, articles=contents_view(site, edition),
         in_force=site.editions[-1], current=edition == site.editions[-1], comparisons=comparisons,
         definitions=definitions_view(site, edition), introduction=introduction_view(site, edition),
         register=register.contents_link(site, edition))
    page(f"{edition}/{site.files.graph}", "graph.html", root="../", edition=edition, graph=site.graph_later(edition))
    register.write_register(site, edition, page, href)  # the book's index, where the sources hold one
    for article in articles:
        article_page(site, edition, article, page)


def article_page(site: Site, edition: str, article: ArticlePage, page: PageWriter) -> None:
    """One article's page, html/<edition>/<file> (its content read: Site.fill)."""
    page(f"{edition}/{article.file}", "article.html", root="../", edition=edition, article=article,
         in_force=site.editions[-1],
         original=site.originals.of(article.id, article.anchors()) if site.originals is not None else None)

