"""Finding a node of the corpus by what a person types (`lawbook show`): the ID's edition and citation, the
newest edition that holds it, an ID a correction renumbered, and the message for one that is not there with
the IDs near it.
"""
import re
from collections.abc import Iterable

from lxml.etree import _Element as Element

from ..core import ids, tree
from ..core.errors import LawbookError
from ..core.lang import Profile


def renumbered_to(corpus: Element, node_id: str) -> tuple[Element, str | None] | None:
    """(the node, the line of corrections.toml) for an ID a renumbering correction gave up, else None."""
    found = corpus.xpath("//corr[@kind='renumber'][@was=$id]", id=node_id)
    if not isinstance(found, list) or not found:
        return None
    corr: Element = found[0]  # type: ignore[assignment]  # (an element path gives elements)
    parent = corr.getparent()
    return (parent, corr.get("line")) if parent is not None else None


def commentary_only(corpus: Element) -> frozenset[str]:
    """The articles whose text is in none of the sources but whose commentary is: each has a page of its own."""
    return frozenset(on for c in corpus.iter("commentary")
                     if (on := c.get("on")) and corpus.xpath("count(//*[@id=$id])", id=on) == 0)


def typed_id(text: str, profile: Profile) -> tuple[str | None, str]:
    """(edition or None, citation) for an ID as typed; the book's citation keyword before it is allowed,
    as search allows it: "artikel 53A" in a Dutch book, "Law 53A" in an English one."""
    typed = ids.read_typed(without_keyword(text, profile))
    if typed is None:
        raise LawbookError(f"{text!r} is not an ID", fix="give an edition and a citation, e.g. 2017/50D2a, "
                                                         "or a citation alone, e.g. 53A")
    return typed


def without_keyword(text: str, profile: Profile) -> str:
    """`text` without a leading citation keyword of `profile` ("artikel", "Law"; any case), the rest as it is."""
    words = {profile.rules.ARTICLE, profile.rules.ARTICLE_WORD}
    m = re.match(r"\s*(\S+)\s+(?=\d)", text)
    return text[m.end():] if m and m.group(1).lower() in {w.lower() for w in words} else text


def unknown_edition(edition: str, editions: Iterable[str], where: str | None = None) -> LawbookError:
    """The one message for an edition the corpus does not hold, from `show` and `diff` alike (status 2)."""
    return LawbookError(f"edition {edition} is not in the corpus", file=where, status=2,
                        fix=f"the editions are {', '.join(editions) or 'none'}")


def find_node(corpus: Element, edition: str | None, rest: str,
              typed_as: str = "") -> tuple[str, Element | None, str | None]:
    """(ID, element or None, what to tell the reader or None) for a typed ID: its edition, or without one the
    newest edition holding it ("showing 2017/53A: 2017 is the newest edition that holds 53A"). An edition the
    corpus does not hold is a LawbookError (status 2) that lists the ones it does."""
    editions = [str(e.get("id")) for e in corpus.iterchildren("edition")]
    if edition is not None and edition not in editions:
        raise unknown_edition(edition, editions)
    for candidate in ([edition] if edition else reversed(editions)):
        node_id = ids.join(candidate, rest)
        el = tree.node_by_id(corpus, node_id)
        if el is not None:
            said = (f"showing {node_id}: {candidate} is the newest edition that holds {rest}" if edition is None
                    else f"showing {node_id}" if node_id != typed_as else None)
            return node_id, el, said
    return ids.join(edition or (editions[-1] if editions else "?"), rest), None, None


# A suggestion differs from the typed citation by at most this many letters or digits ("47E1c" -> "47E1a").
NEAR_EDITS = 2


def not_in_corpus(corpus: Element, node_id: str) -> LawbookError:
    """The error for an ID the corpus does not hold (status 1), with suggestions only near it: IDs of the same
    article within NEAR_EDITS edits of its citation; for an article the edition lacks, that it lacks it."""
    edition, cite = ids.split_id(node_id)
    article = ids.article_of(node_id)
    held = [str(el.get("id")) for ed in corpus.iterchildren("edition") if ed.get("id") == edition
            for el in ed.iter(*tree.NODE_TAGS)]
    if article is not None and article not in held:
        elsewhere = [str(ed.get("id")) for ed in corpus.iterchildren("edition")
                     if tree.node_by_id(ed, ids.join(str(ed.get("id")), cite)) is not None]
        articles = [ids.cite_of(a) for a in held if ids.article_of(a) == a]
        listed = ", ".join(articles[:12]) + (" …" if len(articles) > 12 else "")
        fix = (f"edition {', '.join(elsewhere)} holds {cite}" if elsewhere else
               f"the articles of edition {edition} are {listed}" if articles else f"edition {edition} holds no articles")
        return LawbookError(f"{node_id} is not in the corpus: edition {edition} holds no article "
                            f"{ids.cite_of(article)}", status=1, fix=fix)
    from rapidfuzz.distance import Levenshtein

    near = sorted((Levenshtein.distance(cite.lower(), ids.cite_of(other).lower()), n)
                  for n, other in enumerate(held) if ids.article_of(other) == article and other != node_id)
    shown = [held[n] for distance, n in near if distance <= NEAR_EDITS][:3]
    fix = (f"did you mean {', '.join(shown)}?" if shown else
           f"`lawbook show {article}` lists the IDs below it")
    return LawbookError(f"{node_id} is not in the corpus", status=1, fix=fix)
