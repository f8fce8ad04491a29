"""The book's index as a section of the PDF after the Laws (templates/pdf/register.typ.j2): each headword and
sub-entry with its citations, a citation of a node printed in the book a link to it (as the law text's are,
pdf.inline_markup), a "See" a link to the headword it names. An edition without an index has none.

The values are data: the template prints every word as a Typst string (pdf._finalize); only labels, made here
from IDs (never from the book's words), are code (markupsafe.Markup, which the template prints as is)."""
from typing import Any

from lxml import etree
from markupsafe import Markup

from ...core import ids, tree
from ...core.lang import Profile
from ..text import say


def entry_label(entry_id: str) -> Markup:
    """The Typst label of an index entry: '2017/index/appeal' -> 'i2017-index-appeal' (its slug: a-z, 0-9, -)."""
    return Markup("i" + entry_id.replace(ids.SEPARATOR, "-"))


def _cites(el: etree._Element, targets: set[str]) -> dict[str, Any]:
    """An entry's or sub-entry's citations (words, and the label of the node where the book prints it) and
    its See cross-references (words, and the label of the entry it names)."""
    cites: list[dict[str, Any]] = []
    for ref in el.iterchildren("ref"):
        first = (ref.get("to") or "").split()[:1]
        label = None
        if first and first[0] in targets and ref.get("status") == "ok":
            node = ids.NodeId.parse(first[0])
            if node is None:
                raise ValueError(f"not an ID: {first[0]!r}")
            label = Markup(node.typst_label)
        cites.append({"words": ref.text or "", "label": label})
    see = [{"words": s.text or "", "label": entry_label(to) if (to := s.get("to")) else None}
           for s in el.iterchildren("see")]
    return {"cites": cites, "see": see}


def register_view(edition: etree._Element, targets: set[str], profile: Profile) -> dict[str, Any] | None:
    """The values of register.typ.j2 for one <edition>: title and entries; None when it has no index."""
    index = edition.find("index")
    if index is None:
        return None
    entries = [{"label": entry_label(tree.attr(e, "id")), "headword": e.get("headword"), "remark": e.findtext("remark"),
                **_cites(e, targets),
                "subs": [{"label": s.get("label"), **_cites(s, targets)} for s in e.iterchildren("sub")]}
               for e in index.iterchildren("entry")]
    return {"title": say(profile, "Index"), "see": say(profile, "see"), "entries": entries}
