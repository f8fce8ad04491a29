"""The page stream: one form for every printed book, whatever gave its text.

An adapter turns a source into a PageStream (text.py: a text extraction, from any extractor; pdf.py:
the book's PDF itself). Every layer after it (furniture, parts, outline, block rules, footnotes) reads
the stream, never the source: adding an extractor is one adapter.

Each PrintedLine is a source Line (its file, its number as the report shows it, its text) with the
layout evidence its extractor knows; a field the extractor does not know is None, and every rule that
reads it falls back to what the text alone shows:
  - x, right: where the line starts and ends (points on a PDF page, from its left edge as the line's
    direction has it: a turned page's as shown; character columns in a text set out as the page is,
    pdftotext -layout; None in a text whose lines lost their place);
  - y: its baseline from the page's bottom, in points (PDF only; the bottom as the line's direction has it);
  - size, bold, italic, bold_head: its type (PDF only): the size most of its characters have, whether
    most are bold, all italic, and how many characters at its start are bold (a run-in heading or term);
  - raised: the runs of characters set small on a raised baseline (note markers: digits, *, †), as
    (start, end) offsets into the text (PDF only);
  - runs: the line's pieces between wide gaps (table cells, a column of page numbers at the right), as
    (start, end) offsets into the text, with their x where known;
  - space_before: a blank line stands above it (a text; None where the adapter does not say);
  - column: in a stretch of a page set in two columns, which one the line is in (0 the first, whose
    lines come before the second's); None on a page of one, and for a line over both (a title);
  - damaged: the stretches of its text set in a font whose codes map to no usable Unicode (the text
    shown is not the text printed), as (start, end, the font's name);
  - hidden: set when the line holds only text no reader of the page sees (white, invisible, under 2 pt,
    outside the page): why; the reader leaves it out and the report says so. A PDF's hidden lines come
    after its page's other lines.
"""
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...core.model import Line


@dataclass(frozen=True)
class Run:
    """A piece of a printed line between wide gaps: a table's cell, an entry's page number at the margin."""
    start: int  # offset into the line's text
    end: int
    x0: float | None = None  # where it starts and ends on the page, where the extractor knows it
    x1: float | None = None


@dataclass(frozen=True)
class PrintedLine(Line):
    """A printed line: a source Line with the layout evidence of its extractor (None: not known)."""
    page: int = 0  # the number of its page in the source: 1 for the first page the source holds
    x: float | None = None
    right: float | None = None
    y: float | None = None
    size: float | None = None
    bold: bool | None = None
    italic: bool | None = None
    bold_head: int | None = None
    raised: tuple[tuple[int, int], ...] | None = None
    runs: tuple[Run, ...] | None = None
    space_before: bool | None = None
    column: int | None = None
    damaged: tuple[tuple[int, int, str], ...] = ()
    hidden: str | None = None


@dataclass(frozen=True)
class Page:
    """One page as the source holds it: its lines in reading order (blank lines left out)."""
    number: int  # 1 for the first page the source holds (never the number printed on it: furniture.py)
    lines: tuple[PrintedLine, ...]
    width: float | None = None  # points (PDF); None where the extractor does not say
    height: float | None = None


@dataclass(frozen=True)
class PageStream:
    """The pages of one source, and what its adapter could tell of them."""
    file: str
    pages: tuple[Page, ...]
    adapter: str  # "text", "layout" (a text set out in columns as on the page) or "pdf"
    # Lines of the source that are on no page: blank lines, and what the adapter set aside with a reason
    # (text no reader sees); the report accounts for them.
    set_aside: tuple[tuple[int, str], ...] = field(default=())

    @property
    def geometry(self) -> bool:
        """The lines' positions and type are known (a PDF)."""
        return self.adapter == "pdf"

    def lines(self) -> Iterator[PrintedLine]:
        for page in self.pages:
            yield from page.lines
