"""The book of one edition as plain data for templates/pdf/book.typ.j2 (book_view): its articles as
node views (text stays str, paragraphs become Typst markup from source.py), the commentary, the
Introduction and Definitions, the title page and colophon in the words of the book's profile.

Reads: an <edition> of the corpus tree, the edition's manifest entries, the language profile.
Writes nothing.
"""
import collections
import datetime
import importlib.metadata
import tomllib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from ...core import ids, tree
from ...core.lang import Profile
from ...core.tree import Element
from ...core.view import element_id
from ...reading.manifest import Source
from .. import text
from ..text import say
from . import register
from .source import TypstCode, inline_markup, label_name, note_key, table_markup

PUBLISHER = "Dutch Bridge Federation"  # a profile word, like the months
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")

# Hanging-label column of a subsection ("1."), an item ("(a)") and a subitem ("(iii)"), and their heading levels.
LABEL_COLUMN = {"subsection": "1.6em", "item": "1.9em", "subitem": "2.4em"}
HEADING_LEVEL = {"subsection": 3, "item": 4, "subitem": 5}

# The colophon lists up to this many source files in one column, more in two.
COLOPHON_ONE_COLUMN = 10
DISTRIBUTION = "lawbook"  # the package whose version the colophon prints (pyproject.toml's name)
PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"


def lawbook_version() -> str:
    """The version of lawbook that makes the book, as the colophon prints it: the installed package's
    (importlib.metadata), else pyproject.toml's beside the code (a checkout run without installing)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pass
    try:
        return str(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "?"


def _mark(el: Element) -> str:
    """The label as the law writes it: sections 'A.', subsections '1.', items '(a)', subitems '(i)'."""
    return tree.mark(el)


def introduction_view(el: Element | None, targets: Collection[str],
                      cited_again: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """The book's Introduction, a chapter of its own: its title, label (n2017-intro) and paragraphs."""
    if el is None:
        return None
    return {"title": el.findtext("title"), "label": TypstCode(label_name(element_id(el), el)),
            "paragraphs": [text_markup(p, targets, cited_again) for p in el.iterchildren(*tree.TEXT_TAGS)]}


def text_markup(el: Element, targets: Collection[str], cited_again: frozenset[str] = frozenset()) -> TypstCode:
    """The markup of a paragraph (inline_markup) or a table (table_markup)."""
    if el.tag == "table":
        return table_markup(el, targets, cited_again)
    return inline_markup(el, targets, cited_again)


def node_view(el: Element, targets: Collection[str], profile: Profile,
              cited_again: frozenset[str] = frozenset()) -> dict[str, Any]:
    """One article, section, subsection or item with everything below it, in corpus order. Its title
    or heading is markup (None when it has none or it is empty): its words, and a note marked in them."""
    label = tree.label(el)
    words = None
    if label is not None and tree.text_with_marks(label).strip():
        words = inline_markup(label, targets, cited_again, in_heading=el.tag in ("article", "section"))
    children: list[dict[str, Any]] = []
    for child in el:
        if child.tag == "p":
            children.append({"kind": "p", "markup": inline_markup(child, targets, cited_again)})
        elif child.tag == "table":  # printed as a paragraph is: its markup where it stands
            children.append({"kind": "table", "markup": table_markup(child, targets, cited_again)})
        elif child.tag == "gap":
            children.append({"kind": "gap", "remark": _gap_remark(child, profile)})
        elif child.tag in tree.NODE_TAGS:
            children.append(node_view(child, targets, profile, cited_again))
    node_id = element_id(el)
    view: dict[str, Any] = {"kind": el.tag, "id": node_id, "label": TypstCode(label_name(node_id, el)),
                            "children": children}
    if el.tag == "article":
        view.update(num=el.get("num"), number=say(profile, "Article %(num)s", num=el.get("num")),
                    title=words, commentary=[])
    elif el.tag == "section":
        view.update(mark=_mark(el), heading=words)
    else:
        view.update(mark=_mark(el), heading=words, level=TypstCode(HEADING_LEVEL[el.tag]),
                    column=TypstCode(LABEL_COLUMN[el.tag]))
    return view


def _gap_remark(el: Element, profile: Profile) -> str:
    """What a gap prints: its reason, which says what is missing, once; the profile's words only when
    the corpus gives no reason."""
    return " ".join((el.get("reason") or "").split()) or say(profile, "text missing from the sources")


def commentary_view(el: Element, targets: Collection[str], profile: Profile,
                    cited_again: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A commentary: what it is on, who wrote it (the disclaimer that it is no law text, printed
    first), its paragraphs as markup."""
    _, cite = ids.split_id(el.get("on") or "")
    title = say(profile, "Commentary on article %(num)s", num=cite) if cite else say(profile, "Commentary")
    if el.get("author"):
        title += f" ({el.get('author')})"
    return {"id": element_id(el), "title": title, "attribution": el.findtext("attribution") or "",
            "paragraphs": [inline_markup(p, targets, cited_again) for p in el.iterchildren("p")]}


def date_words(day: datetime.date, profile: Profile) -> str:
    """The date as the profile writes it: '30 november 2025' in Dutch."""
    return say(profile, "%(month)s %(day)s, %(year)s", day=day.day, month=profile.word(MONTHS[day.month - 1]),
               year=day.year)


def book_view(edition: Element, built: datetime.date, with_commentary: bool = True, *, profile: Profile,
              sources: Sequence[Source] = (), sources_digest: str | None = None) -> dict[str, Any]:
    """The book of one <edition> as data for book.typ.j2, in the words of `profile`, the book's language.

    `built` is the date of the edition's sources (build_timestamp), printed on the title page and
    in the colophon; `sources` are the edition's manifest entries (name and origin), which the
    colophon names, and `sources_digest` their digest (compiling.sources_digest), which it prints
    where given. Commentary follows the article it is on; commentary on an article this
    edition does not hold goes to a closing chapter.
    """
    edition_id = element_id(edition)
    series = text.title(profile)
    targets = {tree.attr(el, "id") for el in edition.iter(*tree.NODE_TAGS)}
    # The notes the book cites more than once (the same number and words): printed once a page.
    cited = collections.Counter(note_key(n) for n in edition.iter("note") if tree.note_number(n))
    cited_again = frozenset(key for key, times in cited.items() if times > 1)
    articles = [node_view(a, targets, profile, cited_again) for a in edition.iterchildren("article")]
    by_number = {a["id"]: a for a in articles}
    loose: list[dict[str, Any]] = []
    if with_commentary:
        for el in edition.iterchildren("commentary"):
            view = commentary_view(el, targets, profile, cited_again)
            article_id = ids.article_of(el.get("on") or "")
            if article_id in by_number:
                by_number[article_id]["commentary"].append(view)
            else:
                loose.append(view)
    description = (f"{series}, {say(profile, 'printed edition %(edition)s', edition=edition_id)}"
                   + ("" if with_commentary else say(profile, ", without commentary")))
    date_line = say(profile, "Sources as of %(date)s", date=date_words(built, profile))
    # The manifest's publisher (the English original's: the WBF), else the profile's word for the NBB.
    publisher = next((s.publisher for s in sources if getattr(s, "publisher", "")), "") or profile.word(PUBLISHER)
    return {
        "edition": edition_id,
        "title": f"{series} {edition_id}",
        "series": series,
        "publisher": publisher,
        # The book's Introduction (where its sources hold it), before the Definitions.
        "introduction": introduction_view(edition.find("introduction"), targets, cited_again),
        # The book's Definitions (where its sources hold them), before the first article.
        "definitions": [{"term": d.get("term"), "markup": inline_markup(tree.child(d, "p"), targets, cited_again),
                         "tables": [table_markup(t, targets, cited_again) for t in d.iterchildren("table")]}
                        for d in edition.iterfind("definitions/definition")],
        "definitions_title": say(profile, "Definitions"),
        "description": description,
        "keywords": [profile.word("bridge"), profile.word("laws"),
                     say(profile, "printed edition %(edition)s", edition=edition_id)],
        "edition_line": say(profile, "Printed edition %(edition)s", edition=edition_id),
        "date_line": date_line,
        "with_commentary": with_commentary,
        "without_commentary_line": say(profile, "Official text, without commentary"),
        "colophon": colophon_view(profile, description, publisher, date_line, sources, with_commentary,
                                  sources_digest),
        "book_index": register.register_view(edition, targets, profile),  # the book's index, after the Laws
        "articles": articles,
        # The contents' page numbers from sys.inputs, not from the page counter: set for the front of
        # a book in parts (pdf_parts.front_source).
        "contents_pages": False,
        "loose_commentary": loose,
        "loose_commentary_title": say(profile, "Commentaries"),
        "loose_commentary_intro": say(profile, "Commentary on articles that are not in this edition."),
    }


def colophon_view(profile: Profile, description: str, publisher: str, date_line: str, sources: Sequence[Source],
                  with_commentary: bool = True, sources_digest: str | None = None) -> dict[str, Any]:
    """The colophon, for readers and in the book's language: the edition, the publisher, the manifest's
    copyright line, the date, and each source by its description (sources.toml); a file name and the
    editor's origin note stay on the editor's page. Sources without a description are counted. Last, what
    made the book: the version of lawbook and, where given, the digest of the sources' bytes, so that a
    reader can tell which sources a copy was made from. Nothing of the day of the build."""
    described = [s.description for s in sources if getattr(s, "description", "")]
    undescribed = len(sources) - len(described)
    copyright_line = next((s.copyright for s in sources if getattr(s, "copyright", "")), "")
    return {
        "lines": [description, publisher] + ([copyright_line] if copyright_line else []) + [date_line],
        "sources_intro": say(profile, "This edition is compiled from these sources:") if described else "",
        "sources": [{"description": d} for d in described],
        "undescribed": (say(profile, "Sources without a description in the manifest: %(count)s.", count=undescribed)
                        if undescribed else ""),
        # A long list in two columns, so that it stays on the back of the title page longer.
        "columns": TypstCode(2 if len(described) > COLOPHON_ONE_COLUMN else 1),
        "notes": [say(profile, "Where the sources lack text or a title, an editorial remark in square "
                               "brackets says so.")]
                 # Without commentary the first line says so already ("…, zonder toelichtingen").
                 + ([say(profile, "The commentaries are not part of the official text; each says who wrote "
                                  "it.")] if with_commentary else [])
                 + [say(profile, "Set in Libertinus Serif with Typst.")],
        "made": [say(profile, "Made with lawbook %(version)s.", version=lawbook_version())]
                + ([say(profile, "Digest of the sources (SHA-256): %(digest)s.", digest=sources_digest)]
                   if sources_digest else []),
    }
