"""The printed book as a source format: its text extraction ("print") and its PDF ("pdf"), both read by
the one reader of printed books (reading/book/). "flowed", the name an earlier reader of one extraction's
layout had, is read the same as "print".

Detection: a text source is a print extraction by its page layout (a page number among its first lines,
words hyphenated at line ends) or by a book's signs (the contents title followed by an article's entry;
paragraphs of one long line between page numbers). A PDF is told by its bytes (decode.read_source), never
by a sign in its text.
"""
import re

from ...core import lang
from ...core.model import Line, Reading
from ...core.report import BuildLog
from .. import book
from ..book.furniture import beside_head, is_page_number, page_value
from ..book.text import set_out
from ..book.words import BookWords, book_words
from .common import Format, ReadSource

SECTION = re.compile(r"([A-Z])\.\s+(?=\S)")


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    fmt = PDF.name if book.is_pdf_lines(lines) else PRINT.name
    return book.read(lines, source.name, source.edition, source.language, fmt, log)


def read_pdf(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    if not book.is_pdf_lines([line for line in lines if not line.blank]):
        from ...core.errors import LawbookError
        raise LawbookError("format = \"pdf\" is set for a file that is not a PDF", file=source.name,
                           fix="leave format out for this file, or give the PDF itself")
    return book.read(lines, source.name, source.edition, source.language, PDF.name, log)


def has_page_layout(texts: list[str], profile: lang.Profile) -> bool:
    """A page number among the first lines, page numbers in any form that go up, alone on their lines or
    beside a running head ("v", "vi"; "- 5 -", "- 6 -"; "5 | Title", "6 | Title"), words hyphenated at three or more line ends, or lines set out as on the page
    (indented, their pieces apart by runs of spaces: pdftotext -layout)."""
    hyphen_ends = sum(1 for t in texts if re.search(r"[^\W\d_]-$", t))
    words = book_words(profile)
    values = [v for t in texts if (v := _folio_value(t.strip(), words)) is not None]
    going_up = sum(b == a + 1 for a, b in zip(values, values[1:]))
    return any(re.match(r"^\d{1,4}$", t.strip()) for t in texts[:4]) or going_up >= 2 or hyphen_ends >= 3 \
        or set_out(texts)


def _folio_value(text: str, words: BookWords) -> int | None:
    """The value of the page number a line is or holds beside a running head, else None."""
    if (value := page_value(text)) is not None:
        return value
    beside = beside_head(text, words)
    return page_value(beside[0][0]) if beside else None


def has_book_signs(texts: list[str], profile: lang.Profile) -> bool:
    """From the whole file, never its first page alone: the book's contents list (its title followed by an
    entry "LAW 1 - TITLE"), or page numbers alone on their lines and paragraphs of one long line each (a
    quarter of the lines over 160 characters, or a section marker with its text on one long line)."""
    words = book_words(profile)
    for i, t in enumerate(texts):
        if words.contents_title.match(t) and any(words.contents_article.match(u.strip()) for u in texts[i + 1:i + 4]):
            return True
    if not any(is_page_number(t.strip()) for t in texts):
        return False
    long_lines = sum(1 for t in texts if len(t) > 160)
    return long_lines >= 2 and long_lines * 4 >= len(texts) or any(len(t) > 160 and SECTION.match(t) for t in texts)


def _no_sign(texts: list[str], profile: lang.Profile) -> bool:
    """A PDF has no sign in its text: detection never names it (its first bytes do, decode.read_source)."""
    return False


PRINT = Format("print", read, signs=((19, has_book_signs), (20, has_page_layout)), notes=("print",), rules=book.RULES)
# The name of an earlier reader of one extraction's layout: accepted in a manifest, read as "print".
FLOWED = Format("flowed", read, signs=(), notes=("print",), rules=book.RULES)
PDF = Format("pdf", read_pdf, signs=((0, _no_sign),), notes=("print",), rules=book.RULES)
