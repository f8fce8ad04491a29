"""The Typst source of the PDF edition: escaping (TypstCode, typst_string, markup_words), the labels of
nodes (label_name), a paragraph's markup with its notes and links (inline_markup), a table's (table_markup)
and the template
environment over templates/pdf/ that escapes every printed value.

Escaping is this module's job: every value a template prints is a Typst string literal unless it is
`TypstCode`, and only this module (and the view it is given to) makes `TypstCode`, from fixed markup,
labels it has checked, and paragraph markup built from escaped text.
"""
import hashlib
import re
from collections.abc import Collection
from pathlib import Path

import jinja2
import markupsafe

from ...core import tree
from ...core.tree import Element
from ...core.errors import LawbookError
from ...core.lang import Profile
from .. import text

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "pdf"
_MARKUP_SPECIAL = re.compile(r"([\\*_`#$<>@\[\]~=+\-/'\"])")
_LABEL_SAFE_ID = re.compile(r"^[0-9A-Za-z/.]+$")
_WHITESPACE = re.compile(r"\s+")


class TypstCode(markupsafe.Markup):
    """Typst source that a template prints as is. Never build one from corpus text.

    A Markup subclass so that the template engine treats it, like the output of a template
    macro, as already safe."""


# What a Typst string literal escapes: the backslash, the quote, and each control character as \u{…}.
_STRING_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"',
                   **{code: f"\\u{{{code:x}}}" for code in (*range(0x20), 0x7F)}}


def typst_string(text: object) -> str:
    """`text` as a Typst string literal: it prints exactly these characters, never markup."""
    return '"' + str(text).translate(_STRING_ESCAPES) + '"'


def markup_words(text: object) -> "TypstCode":
    """`text` as Typst markup that prints exactly these characters: the profile's words where the
    templates write markup (`[Inhoud]`), every character markup would read escaped."""
    return TypstCode(_MARKUP_SPECIAL.sub(r"\\\1", str(text)))


def markup_text(text: str) -> str:
    """`text` placed in markup: an embedded string, closed by `;` so nothing after it can extend it."""
    return f"#{typst_string(text)};" if text else ""


def label_name(node_id: str | None, el: Element | None = None) -> str:
    """The Typst label (and PDF named destination) of a node: '2017/47E1' -> 'n2017-47E1'.
    An ID of other characters (full-width digits, say) is refused, naming the source line of `el`."""
    if node_id is None or not _LABEL_SAFE_ID.match(node_id):
        file, line = source_line(el) if el is not None else (None, None)
        raise LawbookError(f"the node ID {node_id!r} cannot be a link target in the PDF edition: an ID holds "
                           f"only the letters A-Z and a-z, the digits 0-9, '/' and '.'", file=file, line=line,
                           fix="write the article number and its parts with the digits 0-9 and letters a-z",
                           status=1)
    return "n" + node_id.replace("/", "-")


def source_line(el: Element) -> tuple[str | None, int | None]:
    """(file, line) where `el`, or the nearest element around it that records its sources, starts."""
    for holder in (el, *el.iterancestors()):
        if holder.get("sources"):
            return tree.first_line(holder)
    return None, None


def node_id_of_label(name: str) -> str:
    """The inverse of label_name: 'n2017-47E1' -> '2017/47E1'."""
    return name[1:].replace("-", "/")


def _finalize(value: object) -> markupsafe.Markup:
    # Every printed value is a string literal unless it is code: TypstCode from this module,
    # or the output of a template macro (Markup, which autoescaping gives it).
    if isinstance(value, markupsafe.Markup):
        return value
    return TypstCode(typst_string("" if value is None else value))


@text.per_profile
def template_environment(profile: Profile) -> jinja2.Environment:
    """The jinja2 environment for templates/pdf/: escapes every printed value (see _finalize); its
    words, lang and region from `profile`: `{{ _("Contents") }}` prints a string
    literal, `{{ _("Contents")|markup }}` escaped markup (markup_words).
    One per process and profile: it caches the compiled templates."""
    # Old-style _(): the plain words, so that _finalize escapes them like any other value.
    env = text.environment(__file__, [TEMPLATES], profile, newstyle=False, finalize=_finalize,
                           keep_trailing_newline=True)
    env.filters["markup"] = markup_words
    return env


def inline_markup(el: Element, targets: Collection[str], cited_again: frozenset[str] = frozenset(),
                  in_heading: bool = False) -> TypstCode:
    """The mixed content of a <p> or <note> (or a <title>, <heading>) as Typst markup.

    Text is embedded as string literals with whitespace runs collapsed; a <note> becomes a
    footnote where its marker stands, numbered with the book's number where it has one (else by
    the footnote counter, as before); a <ref> whose first target is in `targets` (the node
    IDs printed in this book) becomes a link on its words, with no page number (a law book
    is navigated by citation), any other ref prints as its words only. Elements of other
    kinds print their words.
    `cited_again`: the keys (note_key) of notes the book cites more than once: such a citation's entry
    is printed once a page (book-note in style.typ). `in_heading`: the markup of an article's or
    section's heading, whose notes are heading-note()s (footnotes where the heading is set, nothing in
    the contents and the bookmarks, which read the same heading).
    """
    parts = [markup_text(_WHITESPACE.sub(" ", el.text or ""))]
    for child in el:
        if child.tag == "note":
            parts.append(note_markup(child, targets, cited_again, in_heading))
        elif child.tag == "ref":
            words = _WHITESPACE.sub(" ", tree.plain_text(child))
            first = (child.get("to") or "").split()[:1]
            if first and first[0] in targets:
                parts.append(f"#xref(<{label_name(first[0], child)}>, {typst_string(words)});")
            else:
                parts.append(markup_text(words))
        else:
            parts.append(markup_text(_WHITESPACE.sub(" ", tree.plain_text(child))))
        parts.append(markup_text(_WHITESPACE.sub(" ", child.tail or "")))
    return TypstCode(_strip_outer_space("".join(parts)))


def table_markup(el: Element, targets: Collection[str], cited_again: frozenset[str] = frozenset()) -> TypstCode:
    """A <table> as a Typst `table` in a block of its own: as many columns as its widest row (a shorter row
    ends in empty cells), its first row the table's head (`table.header`, repeated where the table goes on
    to a new page, set in bold: the corpus does not say which row is the head; the printed tables of the
    Laws start with one), each cell's content as a paragraph's (inline_markup: its notes, its links)."""
    rows = [[inline_markup(cell, targets, cited_again) for cell in row] for row in tree.cells(el)]
    width = max((len(row) for row in rows), default=1)
    rows = [row + [TypstCode("")] * (width - len(row)) for row in rows]
    head = ", ".join(f"[#strong[{cell}]]" for cell in rows[0]) if rows else ""
    body = "".join(f", [{cell}]" for row in rows[1:] for cell in row)
    return TypstCode(f"#law-table(table(columns: {width}, table.header({head}){body}));")


def note_key(note: Element) -> str:
    """What makes two citations one note: the book's number and the note's words."""
    return f"{note.get('num')} {' '.join(tree.plain_text(note).split())}"


def note_markup(note: Element, targets: Collection[str], cited_again: frozenset[str] = frozenset(),
                in_heading: bool = False) -> str:
    """A <note> as a footnote where its marker stands: Typst's own (numbered by its counter) where the
    note has no number, else shown with the book's number ("17") in the text and at the page foot."""
    body = inline_markup(note, targets).strip()
    number = tree.note_number(note)
    if in_heading:
        return f"#heading-note({typst_string(number) if number else 'none'}, [{body}]);"
    if number is None:
        return f"#footnote[{body}];"
    if note_key(note) in cited_again:
        key = hashlib.sha1(note_key(note).encode("utf-8")).hexdigest()[:12]
        return f"#book-note({typst_string(number)}, {typst_string(key)}, [{body}]);"
    return f"#footnote(numbering: book-number({typst_string(number)}))[{body}];"


def _strip_outer_space(markup: str) -> str:
    # A paragraph's first and last string literal lose the space a line break in the source left.
    markup = re.sub(r'^#" ', '#"', markup)
    return re.sub(r' ";$', '";', markup)

