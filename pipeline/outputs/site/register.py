"""The book's index as a page of the site: html/<edition>/index-of-terms.html (the file name is the language
profile's word for it, PAGE_KEY), each headword with its citations linked to the nodes they cite, its "See"
cross-references linked to the headwords they name. Rendered by templates/html/index-of-terms.html; an edition
without an index (the Dutch sources) has no such page and its contents page no link to one."""
from collections.abc import Callable
from typing import Any, Protocol

from lxml import etree

from ...core import ids, tree
from ...core.lang import Profile


class Site(Protocol):
    """What this module asks of html.Site (not imported: html imports this module)."""
    profile: Profile

    def edition_el(self, edition: str) -> etree._Element: ...

NodeHref = Callable[[str, str], str]  # html.href: a node's relative URL from a page `root` below html/


def _link(target: str, status: str | None, href: NodeHref) -> str | None:
    """The relative URL of a citation's target from html/<edition>/, or None when it does not resolve."""
    if status != "ok" or not target:
        return None
    if f"/{ids.DEFINITION}/" in target:  # a definition: its anchor on the edition's contents page
        return f"index.html#def-{ids.definition_slug(target)}"
    return href(target, "../")


def _anchor(entry_id: str) -> str:
    return entry_id.rsplit(ids.SEPARATOR, 1)[1]


def _holder_view(el: etree._Element, href: NodeHref) -> dict[str, Any]:
    return {"refs": [{"words": r.text or "", "href": _link(r.get("to") or "", r.get("status"), href),
                      "status": r.get("status")} for r in el.iterchildren("ref")],
            "see": [{"words": s.text or "", "anchor": _anchor(to) if (to := s.get("to")) else None}
                    for s in el.iterchildren("see")]}


def register_view(edition_el: etree._Element, href: NodeHref) -> dict[str, Any] | None:
    """The values of templates/html/index-of-terms.html: the entries grouped by initial letter; None without an index."""
    index = edition_el.find("index")
    if index is None:
        return None
    letters: list[dict[str, Any]] = []
    for e in index.iterchildren("entry"):
        entry = {"headword": e.get("headword"), "anchor": _anchor(tree.attr(e, "id")), "remark": e.findtext("remark"),
                 **_holder_view(e, href),
                 "subs": [{"label": s.get("label"), **_holder_view(s, href)} for s in e.iterchildren("sub")]}
        letter = (e.get("headword") or "?")[:1].upper()
        if not letters or letters[-1]["letter"] != letter:
            letters.append({"letter": letter, "entries": []})
        letters[-1]["entries"].append(entry)
    return {"letters": letters}


# The page's file name in the profile's words (nl/words.py): English index-of-terms.html, Dutch register.html.
PAGE_KEY = "index-of-terms.html"


def page_name(site: "Site") -> str:
    return site.profile.word(PAGE_KEY)


def page_path(site: "Site", edition: str) -> str:
    """The index page's path below html/: the edition's folder and the page's file, as pages.py names its pages."""
    return f"{edition}/{page_name(site)}"


def pages(site: "Site", edition: str) -> list[str]:
    """The index page's path below html/, when the edition has an index."""
    return [page_path(site, edition)] if site.edition_el(edition).find("index") is not None else []


def write_register(site: "Site", edition: str, page: Callable[..., None], href: NodeHref) -> None:
    """Render html/<edition>/<page_name> with write_html's `page` and `href`, when the edition has an index."""
    view = register_view(site.edition_el(edition), href)
    if view is not None:
        page(page_path(site, edition), "index-of-terms.html", root="../", edition=edition, register=view)


def contents_link(site: "Site", edition: str) -> str | None:
    """The index page's file name for the edition's contents page, or None when it has no index."""
    return page_name(site) if site.edition_el(edition).find("index") is not None else None
