"""Reader for the printed book's PDF itself: the characters of its text layer, with their font, size,
weight and position (pypdfium2; docs/pdf-source.md gives the measurements behind the choice).

Reads: a source's bytes that start with "%PDF" (decode.read_source hands them to page_lines()).
Writes: one PageLine per printed line (its text and the layout evidence of its characters), and from
those a Reading with the same blocks as the text readers (read()).

Where a line is: Line.num is page * 1000 + the line's place on its page (counted from the top, 1-based);
the report and every message show it as "book.pdf:p31:5", page 31, line 5 (core/report.py location); a
page holds at most MAX_PAGE_LINES lines.

Evidence read from the page, never guessed from the text:
  - page furniture: a line at the top or the foot of a page at the same height on a third of the pages
    or more, in another size than the body text or a page number (running heads, page numbers, alternating
    or not);
  - an article heading: the article word and its number alone on a line ("Law 17"; small capitals read as
    the letters they show); its title: the lines after it set larger than the body;
  - a section heading: a bold line that starts with a letter and a full stop ("D. Extraneous …");
  - a heading run in at the start of a paragraph: the line starts in bold with a section letter ("B. Late
    Play") or a subsection number and words ("1. Single Result") and goes on in the regular weight: the
    bold is the heading, the rest its text (the font weight decides, never the capitals);
  - a definition: a bold term at a line's start followed by a colon;
  - a list entry: a line that starts with a number "1.", a letter "(a)" or a roman numeral "(i)"; its
    level from the marker's indent (an "(i)" indented as the item markers is the item after (h), one
    indented deeper is a sub-item);
  - a paragraph: the lines after it at no larger spacing than the body's leading and at its text's indent
    (a line set in from the paragraph before begins a paragraph: a first-line indent);
    over a page break it goes on, unless the page is set justified and its last line ends a sentence
    short of the right edge (then the paragraph ends with the page); on a page set ragged a sentence
    ending the page is read as going on, logged as uncertain;
  - a footnote marker: digits set smaller on a raised baseline; a footnote: the lines in small type below
    the body at the page foot, starting with its number, going on onto the next page;
  - a word hyphenated by the typesetter at a line end: the PDF marks that hyphen as soft (U+FFFE or
    U+00AD): the word is joined, logged; a real hyphen at a line end is kept, the lines joined without a
    space.
The pages before the first part with evidence (title page, colophon) and the index are kept apart as
front or back matter, never law text. The contents list (lines ending in leader dots and a page number)
is kept apart too, each entry read into a contents block as the text readers read it: the evidence the
book check (corpus/book.py) compares the Laws with.

Untrusted input: besides the limits of pages, characters and lines, every stream a page's text needs is
unpacked with a bound before PDFium loads the page (a decompression bomb is refused, _guard_unpacked),
and a page set in two columns is refused (_gutter): the reader reads pages of one column.
"""
from __future__ import annotations

import base64
import ctypes
import io
import re
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import notes
from ...core import lang
from ...core.lang import LanguageRules, Profile
from ...core.errors import LawbookError
from ...core.report import PAGE_LINE_STEP, BuildLog, FileLog
from ...core.model import NO_LEAD_IN, NOTE_MARK, Block, Dropped, Line, Note, Reading, Rules
from .common import LETTERED, Format, ReadSource

if TYPE_CHECKING:  # only a PDF source needs it: imported where one is read
    import pikepdf

# Limits of one PDF source (docs/pdf-source.md): a book has some hundreds of pages of some thousands of
# characters; past these a file is refused rather than read.
MAX_PAGES = 2000
MAX_PAGE_CHARS = 60_000
MAX_CHARS = 1_500_000
MAX_PAGE_LINES = 999  # Line.num = page * 1000 + line
# What a page's compressed streams may unpack to before PDFium is given the page (PDFium unpacks a page's
# content whole when it loads it: a stream of 260 KiB that unpacks to 256 MiB took 1.3 s and 533 MB): the
# English book's fullest page unpacks to 0.2 MiB of content, a page of MAX_PAGE_CHARS characters to some
# 5 MiB. A stream shared by pages (a font) counts once towards the whole.
MAX_PAGE_CONTENT = 16 * 2**20
MAX_CONTENT = 256 * 2**20
LINE_STEP = PAGE_LINE_STEP  # the line numbers the report shows as page and line (report.location)
# How PDF text layers mark a hyphen the typesetter put in at a line end (pdfium: U+0002 or U+FFFE), read
# as a soft hyphen (U+00AD): never a control character or a noncharacter in the text.
SOFT_HYPHENS = {"\ufffe": "\u00ad", "\u0002": "\u00ad"}
SOFT_HYPHEN = "\u00ad"
# Characters a text layer may hold that are never law text (control characters but tab, private use,
# noncharacters, bidirectional controls): each is refused with its page (decode.REFUSED, for text sources).
REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ue000-\uf8ff\ufffe\uffff]")


@dataclass(frozen=True)
class Glyph:
    """One character of the text layer: its text and where and how it is printed."""
    char: str
    x0: float  # left of its box (the loose box: the glyph's advance, so spaces are gaps between boxes)
    x1: float  # right of its box
    y: float  # baseline (origin), from the page's bottom
    bottom: float  # the bottom of the ink (the tight box): a superscript glyph's is high above the baseline
    size: float
    bold: bool
    italic: bool = False


@dataclass(frozen=True)
class PageLine(Line):
    """A printed line: a source's Line (as decode makes them of a text source), with the layout evidence
    of its characters."""
    page: int = 0  # 1-based
    row: int = 0  # the line's place on its page, 1-based
    x: float = 0.0  # the left of its first character
    y: float = 0.0  # its baseline, from the page's bottom
    size: float = 0.0  # the size most of its characters have
    bold: bool = False  # most of its characters are bold
    italic: bool = False  # all its characters but spaces are italic
    bold_head: int = 0  # how many characters at its start are bold (a run-in term or heading)
    # (start, end) of each run of digits set small on a raised baseline: footnote markers
    raised: tuple[tuple[int, int], ...] = ()
    right: float = 0.0  # the right of its last character but spaces


def page_lines(data: bytes, path: str, file: str) -> list[PageLine]:
    """The PageLines of a PDF's text layer; every problem is one LawbookError naming the file and page."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]  # (no type information); only a PDF source needs it
    import pypdfium2.raw as raw  # type: ignore[import-untyped]

    if b"%%EOF" not in data[-2048:]:
        # A PDF ends with its trailer and "%%EOF"; without it the file was cut off, and a reader that repairs
        # it would give the pages that survived as if they were the book.
        raise LawbookError("the PDF is cut off: it does not end with the end-of-file marker (%%EOF) a PDF ends "
                           "with", file=path, fix="download or export the PDF again; its end is missing")
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        text = str(e).lower()
        if "password" in text:
            raise LawbookError("the PDF is encrypted (it needs a password): its text cannot be read", file=path,
                               fix="give the PDF without its password protection, or its text export") from None
        raise LawbookError(f"the PDF is damaged or cut off and cannot be opened ({e})", file=path,
                           fix="download or export the PDF again") from None
    try:
        count = len(doc)
        if count == 0:
            raise LawbookError("the PDF has no pages", file=path, fix="download or export the PDF again")
        if count > MAX_PAGES:
            raise LawbookError(f"the PDF has {count} pages, over the limit of {MAX_PAGES} for one source",
                               file=path, fix="split the PDF into parts of the book")
        _guard_unpacked(data, path)

        def text_page_of(p: int) -> tuple[Any, Any]:
            try:
                page = doc[p]
                return page, page.get_textpage()
            except pdfium.PdfiumError as e:
                raise LawbookError(f"page {p + 1} of the PDF is damaged and cannot be read ({e})", file=path,
                                   line=(p + 1) * LINE_STEP, paged=True,
                                   fix="download or export the PDF again") from None

        # The limits of characters are checked on every page before any page is read: PDFium counts a page's
        # characters as it loads it, in a fraction of the time reading them takes (1,999 pages of 800
        # characters: 2.0 s to count, 30 s to read), so a PDF past them is refused in that time, never
        # after reading the pages up to the limit.
        total = 0
        for p in range(count):
            page, text_page = text_page_of(p)
            try:
                n = raw.FPDFText_CountChars(text_page.raw)
            finally:
                text_page.close()
                page.close()
            if n > MAX_PAGE_CHARS:
                raise LawbookError(f"page {p + 1} holds {n} characters, over the limit of {MAX_PAGE_CHARS} "
                                   f"for one page: no printed page of a book holds that many", file=path,
                                   line=(p + 1) * LINE_STEP, paged=True,
                                   fix="check the PDF; it is not a book's pages")
            total += max(n, 0)
            if total > MAX_CHARS:
                raise LawbookError(f"the PDF holds more than {MAX_CHARS} characters (at page {p + 1}), over "
                                   f"the limit for one source", file=path, line=(p + 1) * LINE_STEP, paged=True,
                                   fix="split the PDF into parts of the book")
        lines: list[PageLine] = []
        with_text = 0
        for p in range(count):
            page, text_page = text_page_of(p)
            try:
                glyphs = _glyphs(text_page.raw, raw.FPDFText_CountChars(text_page.raw), raw)
            finally:
                text_page.close()
                page.close()
            with_text += bool(glyphs)
            page_rows = _rows(glyphs)
            if (gutter := _gutter(page_rows)) is not None:
                x, to_left, to_right = gutter
                raise LawbookError(f"page {p + 1} is set in two columns (an empty band at {x:.0f} pt from the page's "
                                   f"left edge, {to_left} lines of text to its left and {to_right} to its right): "
                                   f"the reader reads pages of one column, not columns", file=path,
                                   line=(p + 1) * LINE_STEP, paged=True,
                                   fix="give the book's PDF set in one column, or its text export")
            if len(page_rows) > MAX_PAGE_LINES:
                raise LawbookError(f"page {p + 1} has {len(page_rows)} lines, over the limit of {MAX_PAGE_LINES}",
                                   file=path, line=(p + 1) * LINE_STEP, paged=True,
                                   fix="check the PDF; it is not a book's pages")
            for r, row in enumerate(page_rows, 1):
                lines.append(_page_line(file, p + 1, r, row))
        if not with_text:
            raise LawbookError(f"the PDF has no text layer ({count} page(s) of images, as a scan gives): its text "
                               f"cannot be read; OCR is not done", file=path,
                               fix="give a PDF with a text layer (run OCR on it first) or the book's text export")
        return lines
    finally:
        doc.close()


# The filters PDF streams are packed with whose output is bounded here while it is unpacked; for the others
# (LZW, run length) the most their packed bytes can give: LZW codes of 12 bits a string of up to 3,839 bytes
# each, a run-length pair 128 bytes.
INFLATE = ("/FlateDecode", "/Fl")
MOST_PER_BYTE = {"/LZWDecode": 2560, "/LZW": 2560, "/RunLengthDecode": 64, "/RL": 64}


def _guard_unpacked(data: bytes, path: str) -> None:
    """Refuses a PDF whose pages' compressed streams unpack to more than MAX_PAGE_CONTENT (one page) or
    MAX_CONTENT (all pages; a stream shared by pages, a font, counts once): a decompression bomb. The
    streams a page's text needs are unpacked with that bound (its content, and the forms, fonts and
    patterns its resources name; not its images, which PDFium leaves packed for the text) before PDFium,
    which unpacks a page whole, is given it."""
    import pikepdf  # only a PDF source needs it

    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PdfError as e:
        # qpdf names a PDF read from memory by the repr of its stream ("stream <_io.BytesIO object at 0x…>"):
        # the message names the file, so that is left out.
        said = re.sub(r"^stream <[^>]*>:? ?", "", str(e))
        if loop := re.search(r"\(object (\d+) (\d+)\):? Loop detected in /Pages", said):
            raise LawbookError(f"the PDF is damaged: its page tree loops (object {loop[1]} {loop[2]} is found "
                               f"again below itself), so its pages cannot be counted", file=path,
                               fix="download or export the PDF again") from None
        raise LawbookError(f"the PDF is damaged and cannot be opened ({said})", file=path,
                           fix="download or export the PDF again") from None
    with pdf:
        sizes: dict[tuple[int, int], int] = {}  # a stream's object number -> what it unpacks to
        total = 0
        for p, page in enumerate(pdf.pages, 1):
            own = 0
            for stream in _page_streams(page.obj):
                size = sizes.get(stream.objgen)
                if size is None:
                    size = sizes[stream.objgen] = _unpacked_size(stream, MAX_PAGE_CONTENT, path, p)
                    total += size
                own += size
                if own > MAX_PAGE_CONTENT:
                    raise LawbookError(f"page {p}'s compressed content unpacks to more than "
                                       f"{MAX_PAGE_CONTENT // 2**20} MiB, over the limit for one page (a printed "
                                       f"page needs some hundreds of KiB): it is not unpacked (a decompression "
                                       f"bomb, or not a book's page)", file=path, line=p * LINE_STEP, paged=True,
                                       fix="check the PDF; export the book's PDF again")
            if total > MAX_CONTENT:
                raise LawbookError(f"the PDF's compressed content unpacks to more than {MAX_CONTENT // 2**20} MiB "
                                   f"(at page {p}), over the limit for one source", file=path, line=p * LINE_STEP,
                                   paged=True, fix="split the PDF into parts of the book")


def _page_streams(page: pikepdf.Object) -> list[pikepdf.Stream]:
    """The streams PDFium unpacks to load a page: its content and every stream its resources reach
    (forms, fonts, patterns, soft masks), but images; the page tree above it is not followed."""
    import pikepdf

    roots: list[pikepdf.Object | None] = [page.get("/Contents")]
    node: pikepdf.Object | None = page
    above: set[tuple[int, int]] = set()
    while node is not None and node.objgen not in above:  # resources are inherited from the page tree (a
        above.add(node.objgen)  # damaged one may loop)
        roots.append(node.get("/Resources"))
        node = node.get("/Parent")
    out: list[pikepdf.Stream] = []
    seen: set[tuple[int, int]] = set()
    todo = [r for r in roots if r is not None]
    while todo:
        obj = todo.pop()
        if not isinstance(obj, (pikepdf.Stream, pikepdf.Dictionary, pikepdf.Array)):
            continue  # a number, a name, a string: no stream below it
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, pikepdf.Stream):
            if obj.get("/Subtype") == pikepdf.Name.Image:
                continue
            out.append(obj)
            todo += [v for k, v in obj.stream_dict.items() if k not in ("/Parent", "/P")]
        elif isinstance(obj, pikepdf.Dictionary):
            todo += [v for k, v in obj.items() if k not in ("/Parent", "/P")]
        elif isinstance(obj, pikepdf.Array):
            todo += list(obj)
    return out


def _unpacked_size(stream: pikepdf.Stream, limit: int, path: str, page: int) -> int:
    """What a stream unpacks to, counted up to limit + 1: its filters applied in turn, each bounded."""
    raw = stream.get("/Filter")
    import pikepdf

    names = [str(f) for f in raw] if isinstance(raw, pikepdf.Array) else [str(raw)] if raw is not None else []
    data = bytes(stream.read_raw_bytes())
    for name in names:
        if name in INFLATE:
            data = _inflate(data, limit)
        elif name in ("/ASCII85Decode", "/A85"):
            try:
                data = base64.a85decode(data.split(b"~>")[0], ignorechars=b" \t\n\r\x0c\x00")
            except ValueError:
                data = b""  # damaged: PDFium gives no more than what it could read
        elif name in ("/ASCIIHexDecode", "/AHx"):
            digits = re.sub(rb"\s", b"", data.split(b">")[0])
            try:
                data = bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))
            except ValueError:
                data = b""
        elif name in MOST_PER_BYTE and len(data) * MOST_PER_BYTE[name] <= limit:
            data = bytes(stream.read_bytes())  # bounded by its packed size
            break
        else:
            raise LawbookError(f"page {page} has a stream packed with {name[1:]} of {len(data)} bytes, which could "
                               f"unpack to more than {limit // 2**20} MiB, the limit for one page: it is not "
                               f"unpacked", file=path, line=page * LINE_STEP, paged=True,
                               fix="export the PDF again (a PDF writer of today packs with FlateDecode)")
        if len(data) > limit:
            break
    return len(data)


def _inflate(data: bytes, limit: int) -> bytes:
    """A FlateDecode stream unpacked to at most limit + 1 bytes; a damaged one as far as it goes."""
    unpack = zlib.decompressobj()
    out = bytearray()
    try:
        while data and len(out) <= limit and not unpack.eof:
            out += unpack.decompress(data, limit + 1 - len(out))
            data = unpack.unconsumed_tail
    except zlib.error:
        pass  # what came before the damage is what PDFium reads too
    return bytes(out)


def _glyphs(text_page: Any, n: int, raw: Any) -> list[Glyph]:
    """The page's characters, without the spaces and line ends the text layer generates (spaces are
    placed again from the gaps between the characters: the generated ones are missing after a bold
    run-in)."""
    buf = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    tight = [ctypes.byref(v) for v in (left, right, bottom, top)]
    ox, oy = ctypes.c_double(), ctypes.c_double()
    origin = (ctypes.byref(ox), ctypes.byref(oy))
    loose = raw.FS_RECTF()
    loose_ref = ctypes.byref(loose)
    by_object: dict[int, tuple[float, bool, bool]] = {}  # a text object's address -> (size, bold, italic): its
    # characters share its font
    fonts: dict[tuple[bytes, int], tuple[bool, bool]] = {}
    out: list[Glyph] = []
    codes = _codes(text_page, n, raw)
    for i in range(n):
        code = codes[i]
        # The spaces and line ends the text layer generates are left out: spaces are put back from the gaps
        # between the glyphs (_page_line); a space the PDF itself has is kept.
        if code in (32, 10, 13, 9) and (code != 32 or raw.FPDFText_IsGenerated(text_page, i)):
            continue
        char = chr(code) if 0 < code < 0x110000 else "\ufffd"
        char = SOFT_HYPHENS.get(char, char)
        if REFUSED.match(char):
            char = "\ufffd"  # reported by the reader with its page and line
        key = ctypes.cast(raw.FPDFText_GetTextObject(text_page, i), ctypes.c_void_p).value or 0
        style = by_object.get(key)
        if style is None:
            size = raw.FPDFText_GetFontSize(text_page, i)
            weight = raw.FPDFText_GetFontWeight(text_page, i)
            raw.FPDFText_GetFontInfo(text_page, i, buf, len(buf), ctypes.byref(flags))
            name = buf.value
            face = fonts.get((name, weight))
            if face is None:
                lower = name.lower()
                face = fonts[(name, weight)] = (weight >= 600 or b"bold" in lower or b"black" in lower,
                                                b"italic" in lower or b"oblique" in lower)
            style = (round(size, 2), *face)
            if key:
                by_object[key] = style
        raw.FPDFText_GetCharOrigin(text_page, i, *origin)
        raw.FPDFText_GetLooseCharBox(text_page, i, loose_ref)
        ink = oy.value
        if char.isdigit():  # only a digit may be a footnote marker: where its ink starts tells
            raw.FPDFText_GetCharBox(text_page, i, *tight)
            ink = bottom.value
        out.append(Glyph(char, loose.left, loose.right, oy.value, ink, *style))
    return out


def _codes(text_page: Any, n: int, raw: Any) -> list[int]:
    """The Unicode code of each of the page's n characters: in one call when each is one UTF-16 unit
    (the usual case), else one call a character."""
    buffer = (ctypes.c_ushort * (n + 1))()
    written = raw.FPDFText_GetText(text_page, 0, n, buffer)
    units = list(buffer[:max(written - 1, 0)])
    if len(units) == n and not any(0xD800 <= u < 0xE000 for u in units):
        return units
    return [raw.FPDFText_GetUnicode(text_page, i) for i in range(n)]


def _rows(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """The characters in printed lines, top to bottom: a character on a raised baseline in a smaller size
    (a footnote marker) stays on the line it is raised above."""
    rows: list[_Row] = []
    for g in glyphs:
        placed = False
        for row in reversed(rows[-3:]):
            base, size = row.baseline, row.size
            if abs(g.y - base) <= 0.25 * max(size, g.size) or (g.size < size and 0 < g.y - base < 0.6 * size):
                row.glyphs.append(g)
                if g.size > size and abs(g.y - base) <= 0.25 * g.size:
                    row.baseline, row.size = g.y, g.size
                placed = True
                break
        if not placed:
            rows.append(_Row(g.y, g.size, [g]))
    rows.sort(key=lambda r: -r.baseline)
    return [sorted(row.glyphs, key=lambda g: g.x0) for row in rows]


@dataclass
class _Row:
    """A printed line while its characters are gathered: the baseline and size of its largest ones."""
    baseline: float
    size: float
    glyphs: list[Glyph]


def _gutter(rows: list[list[Glyph]]) -> tuple[float, int, int] | None:
    """(x, lines to its left, lines to its right) of the gutter of a page set in two columns, else None:
    a band a body character wide or more in the middle half of the page's text that at most a quarter of
    the lines go through (a title over both columns), with three lines or more on either side of it. A
    line's text runs through the spaces between its words (narrower than a character), never through a
    wider gap: the columns' lines may share a baseline or not."""
    if len(rows) < 6:
        return None
    left, right = min(row[0].x0 for row in rows), max(row[-1].x1 for row in rows)
    low, high = left + (right - left) * 0.25, left + (right - left) * 0.75
    size = Counter(g.size for row in rows for g in row).most_common(1)[0][0]
    runs = []  # (left, right) of each run of text: a line split where its gap is a character wide or more
    # (lines in small type, a page number, a footnote, may stand anywhere)
    for row in [row for row in rows if row[0].size >= 0.95 * size]:
        start = row[0].x0
        for a, b in zip(row, row[1:]):
            if b.x0 - a.x1 >= size:
                runs.append((start, a.x1))
                start = b.x0
        runs.append((start, row[-1].x1))
    events = sorted([(a, 1) for a, _ in runs] + [(b, -1) for _, b in runs])
    best: tuple[float, int, int] | None = None
    through, before = 0, None
    for x, change in events:
        if before is not None and x - before >= size and through * 4 <= len(rows) and low <= (x + before) / 2 <= high:
            mid = (x + before) / 2
            to_left, to_right = sum(1 for _, b in runs if b <= mid), sum(1 for a, _ in runs if a >= mid)
            if to_left >= 3 and to_right >= 3 and (best is None or to_left + to_right > best[1] + best[2]):
                best = (mid, to_left, to_right)
        through += change
        before = x
    return best


def _page_line(file: str, page: int, row: int, chars: list[Glyph]) -> PageLine:
    """One printed line: its text with the spaces put back from the gaps, and its evidence."""
    size = Counter(g.size for g in chars).most_common(1)[0][0]
    base = Counter(round(g.y, 1) for g in chars if g.size == size).most_common(1)[0][0]
    text: list[str] = []
    raised: list[tuple[int, int]] = []
    bold_head, head_open, last = 0, True, None
    for g in chars:
        if last is not None and g.char != " " and text and text[-1] != " " and \
                g.x0 - last.x1 > 0.18 * min(g.size, last.size) and text[-1] != SOFT_HYPHEN:
            text.append(" ")
            if head_open and not g.bold:
                head_open = False
        # A footnote marker: a digit set smaller on a raised baseline, or a superscript glyph of the font
        # (its ink starts high above the baseline; an ordinary digit's sits on it or below).
        is_raised = g.char.isdigit() and (g.size < 0.85 * size and g.y - base > 0.15 * size
                                          or g.bottom - g.y > 0.25 * g.size)
        if is_raised:
            if raised and raised[-1][1] == len(text):
                raised[-1] = (raised[-1][0], len(text) + 1)
            else:
                raised.append((len(text), len(text) + 1))
        text.append(g.char if g.char != "\u00a0" else " ")
        if head_open:
            if g.bold:
                bold_head = len(text)
            elif g.char != " ":
                head_open = False
        last = g
    line = "".join(text)
    if line.endswith(SOFT_HYPHEN):  # a line-end hyphen: the repair stage decides whether it is a real one
        line = line[:-1] + "-"
    bold = sum(g.bold for g in chars) * 2 > len(chars)
    right = max((g.x1 for g in chars if not g.char.isspace()), default=chars[-1].x1)
    italic = all(g.italic for g in chars if not g.char.isspace())
    return PageLine(file, page * LINE_STEP + row, line, page_break=row == 1, page=page, row=row,
                    x=chars[0].x0, y=base, size=size, bold=bold, italic=italic, bold_head=bold_head, raised=tuple(raised), right=right)


# -- the reader ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Words:
    """The article heading and the part titles as the reader looks for them, in the book's language."""
    article: re.Pattern[str]  # "Law 12" alone on its line
    contents_article: re.Pattern[str]  # a contents entry's article: "Law 12 DIRECTOR'S POWERS", "LAW 12 - …"
    definitions: str  # the definitions' title, lower case
    introduction: re.Pattern[str]
    index: re.Pattern[str]
    contents: str  # the contents list's title


@lang.compiled
def patterns(rules: LanguageRules) -> Words:
    """The article heading and the part titles, in the words of a language's rules."""
    word = re.escape(rules.ARTICLE_WORD_PRINTED)
    return Words(article=re.compile(rf"^{word}[\s\u00a0]+(\d+)\s*$", re.IGNORECASE),
                 contents_article=re.compile(rf"^{word}[\s\u00a0]+(\d+)(?:[\s\u00a0]*[-\u2013\u2014]|[\s\u00a0])"
                                             rf"[\s\u00a0]*(.*)$", re.IGNORECASE),
                 definitions=rules.DEFINITIONS_TITLE.lower(), introduction=re.compile(rules.INTRODUCTION_TITLE),
                 index=re.compile(rules.INDEX_TITLE), contents=rules.CONTENTS_TITLE)


SUBSECTION = re.compile(r"^(\d{1,2})\.\s*(?=\S)")
ITEM = re.compile(r"^\(([a-z])\)\s*(?=\S)")
SUBITEM = re.compile(r"^\((i{1,3}|iv|vi{0,3}|ix|xi{0,2})\.?\)\s*(?=\S)")
ROMAN_NUMBERS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")
LEADER = re.compile(r"\s*(?:\.\s*){3,}\s*(\d+)\s*$")  # a contents entry's leader dots and page number
# … or fewer dots (a long title leaves room for two, or none), the number ending at the right edge the
# page's other entries end at
SHORT_LEADER = re.compile(r"\s*(?:\.\s*)*\s(\d+)\s*$")
PAGE_NUMBER = re.compile(r"\d{1,4}|[ivxlc]{1,7}", re.IGNORECASE)
CONTENTS_SECTION = re.compile(r"^([A-Z])\.(?:\s+(.*))?$")  # a section's contents entry: "A. Rank of Cards", "A." alone
FOOTNOTE = re.compile(r"^(\d{1,3})\s*(?=\S)")
BARE_LETTER = re.compile(r"^([A-Z])(\d*)\.$")
DEFINITION_COLON = re.compile(r"^\s*:\s*")


def read(source_lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    """The PageLines of a PDF (page_lines) to a Reading: furniture dropped by position, the parts of the
    book by their titles and the shapes of their lines, the articles by the fonts and indents."""
    flog = log.for_file(source.name)
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    kept_lines = [line for line in source_lines if not line.blank]
    lines = [line for line in kept_lines if isinstance(line, PageLine)]
    if len(lines) != len(kept_lines):  # lines of a text source: page_lines() made none of them
        raise LawbookError("format = \"pdf\" is set for a file that is not a PDF", file=source.name,
                           fix="leave format out for this file, or give the PDF itself")
    if not lines:
        return reading
    words = patterns(lang.profile(source.language))
    for line in lines:
        if "\ufffd" in line.text:
            flog.damage(line.num, f"a character the PDF maps to no text (or to a "
                                  f"control or private-use character) in {line.text.strip()[:50]!r}",
                        "kept as U+FFFD; the character is not guessed")
    body = _body_size(lines)
    furniture = _furniture(lines, body)
    reading.dropped += [Dropped(num, reason) for num, reason in sorted(furniture.items())]
    kept = [line for line in lines if line.num not in furniture]
    _Pages(reading, kept, body, words, flog).read()
    return reading


def _body_size(lines: list[PageLine]) -> float:
    """The size most characters of the book are set in: its body text."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0]


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", text)


def _furniture(lines: list[PageLine], body: float) -> dict[int, str]:
    """{line number: reason} for the running heads and page numbers: the first or last line of a page at a
    height that the first (last) line of a third of the pages or more has, set in another size than the
    body text, or a page number alone, or a text whose shape stands there on another page too."""
    pages: dict[int, list[PageLine]] = {}
    for line in lines:
        pages.setdefault(line.page, []).append(line)
    if len(pages) < 3:
        return {}
    out: dict[int, str] = {}
    for where, pick in (("top", 0), ("foot", -1)):
        ends = [page[pick] for page in pages.values()]
        heights = Counter(round(line.y) for line in ends)
        shapes = Counter(_shape(line.text.strip()) for line in ends)
        for line in ends:
            held = heights[round(line.y)]
            if held * 3 < len(pages) or held < 3 or _goes_on(line, pages[line.page], pick):
                continue
            text = line.text.strip()
            if line.size != body or re.fullmatch(r"\d{1,4}|[ivxlc]+", text) or shapes[_shape(text)] > 1:
                out[line.num] = (f"running head or page number {text[:50]!r} at the page "
                                 f"{where} (the same height on {held} of {len(pages)} pages)")
    return out


def _goes_on(line: PageLine, page: list[PageLine], pick: int) -> bool:
    """A line at a page's end that is no furniture: a footnote (its number raised at its start), or a line
    within a line's distance of the line next to it (a paragraph, a footnote or a heading going on: an
    article heading at each page's top is at the same height on every page, but its title follows
    closely; a running head or page number stands apart)."""
    if line.raised and line.raised[0][0] == 0:
        return True
    if len(page) < 2:
        return False
    other = page[1] if pick == 0 else page[-2]
    return abs(other.y - line.y) < 1.6 * max(line.size, other.size)


class _Pages:
    """The kept lines of the book, part by part."""

    def __init__(self, reading: Reading, lines: list[PageLine], body: float, words: Words,
                 flog: FileLog) -> None:
        self.reading, self.lines, self.body, self.words, self.flog = reading, lines, body, words, flog
        self.part = "front"
        self.block: Block | None = None  # the block the next line may continue
        self.last_line: PageLine | None = None
        self.leading = self._leading()
        self.marker_offsets: dict[int, float] = {}  # list level -> the indent of its markers from the page's margin
        self.footnotes: list[notes.Footnote] = []
        self.notes: list[tuple[int, Note]] = []  # (page, Note) in the order of their markers
        self.margins: dict[int, float] = {}  # page -> the left of its body text
        # page -> the right edge its body lines are justified to (pages set ragged: none)
        self.right_edges: dict[int, float] = {}
        self.page_tops_logged: set[int] = set()  # page tops whose reading after the page before is in the report
        self.indented: Block | None = None  # the paragraph that began with a line set in (_indented_first_line)
        self.set_in: int | None = None  # the number of the last line read as a paragraph's first line by its indent
        self.pages: dict[int, list[PageLine]] = {}  # page -> its kept lines
        self.remark: list[PageLine] = []  # the lines of an editorial remark not yet closed
        self.vocabulary: set[str] | None = None  # the book's words, lower case (words_of_book)
        self.contents_article: str | None = None  # the article whose sections the contents list names now
        self.contents_wrapped: list[PageLine] = []  # a contents entry's lines before its leader dots

    def _leading(self) -> float:
        """The distance of two lines of one paragraph: the most common distance of two body lines."""
        gaps: Counter[float] = Counter()
        for a, b in zip(self.lines, self.lines[1:]):
            if a.page == b.page and a.size == b.size == self.body:
                gaps[round(a.y - b.y, 1)] += 1
        return gaps.most_common(1)[0][0] if gaps else self.body * 1.2

    def margin(self, page: int) -> float:
        """The left of the body text on a page (pages alternate their margins)."""
        return self.margins.get(page, 0.0)

    def read(self) -> None:
        for line in self.lines:
            self.pages.setdefault(line.page, []).append(line)
        for number, page in self.pages.items():
            xs = [line.x for line in page if line.size == self.body]
            self.margins[number] = min(xs) if xs else 0.0
            self._right_edge(number, page)
        for number, page in self.pages.items():
            foot = self._foot(page)
            for line in page:
                if line.num in foot and self.part == "articles":
                    self._footnote_line(line)
                else:
                    self._line(line)
        self._contents_end()
        self._attach()

    def _foot(self, page: list[PageLine]) -> set[int]:
        """The footnote lines of a page: those below its last body-size line, set smaller than the body."""
        body_lines = [k for k, line in enumerate(page) if line.size >= self.body * 0.95]
        last = body_lines[-1] if body_lines else -1
        return {line.num for line in page[last + 1:] if line.size < self.body * 0.95}

    # -- parts ------------------------------------------------------------------------------------------
    def _part_of(self, line: PageLine) -> str | None:
        """The part a line begins, from its own evidence, or None."""
        text = line.text.strip()
        if self.words.article.match(text) and line.size >= self.body * 0.95:
            return "articles"
        if line.size > self.body * 1.1:
            if text.lower() == self.words.definitions:
                return "definitions"
            if self.words.introduction.match(text) and self.part in ("front", "contents"):
                return "introduction"
            if self.words.index.match(text) and self.part not in ("front",):
                return "index"
            if text == self.words.contents or self._next_are_leaders(line):
                return "contents"
        return None

    def _next_are_leaders(self, line: PageLine) -> bool:
        after = [other for other in self.pages.get(line.page, ()) if other.num > line.num][:5]
        return len(after) >= 3 and sum(bool(LEADER.search(o.text)) for o in after) * 2 > len(after)

    def _line(self, line: PageLine) -> None:
        part = self._part_of(line)
        if part and part != self.part:
            if part != "articles":
                self.flog.inference(line.num, None, f"{line.text.strip()[:40]!r} set in "
                                                    f"{line.size:g} pt begins the {part}")
            self._contents_end()
            self.part, self.block = part, None
        if self.part == "contents":
            self._contents_line(line)
        elif self.part in ("front", "index", "back"):
            kind = {"front": "front", "index": "index", "back": "back"}[self.part]
            self.reading.blocks.append(Block(kind, line.text.strip(), [line.num]))
            self.block = None
        elif self.part == "introduction":
            self._introduction(line)
        elif self.part == "definitions":
            self._definition(line)
        else:
            self._article_line(line)
        self.last_line = line

    # -- the contents list ------------------------------------------------------------------------------
    def _contents_line(self, line: PageLine) -> None:
        """A line of the contents list, read as evidence as the text readers read one (formats/flowed.py): an
        entry is its text, leader dots and page number. An article's entry ("Law 12 DIRECTOR'S POWERS …… 24")
        is a contents block with the article's number as its cite, a section's ("A. Power to Award …… 24")
        one with the article's number and its letter, any other (the introduction, the definitions, the
        index) one without a cite; each with its page (Block.number). A line without the leader dots is an
        entry wrapped onto the next line; a line set larger than the body without them is the list's title.
        The book check (corpus/book.py) compares the Laws with these."""
        text = line.text.strip()
        leader = LEADER.search(text) or (SHORT_LEADER.search(text) if self._at_contents_edge(line) else None)
        if leader is None and PAGE_NUMBER.fullmatch(text):  # the list's own page number, at a page's foot
            self.reading.dropped.append(Dropped(line.num, f"the contents list's page number "
                                                          f"{text!r}"))
            return
        if leader is None:
            if line.size > self.body * 1.1 and not self.contents_wrapped:
                self.reading.dropped.append(Dropped(line.num, f"the contents list's title "
                                                              f"{text[:40]!r}"))
            else:
                self.contents_wrapped.append(line)
            return
        lines = [*self.contents_wrapped, line]
        self.contents_wrapped = []
        entry = " ".join([other.text.strip() for other in lines[:-1]] + [text[:leader.start()].strip()])
        page, nums = int(leader.group(1)), [other.num for other in lines]
        if m := self.words.contents_article.match(entry):
            self.contents_article = m.group(1)
            block = Block("contents", m.group(2).strip(), nums, cite=m.group(1), number=page)
        elif self.contents_article and (m := CONTENTS_SECTION.match(entry)):
            block = Block("contents", (m.group(2) or "").strip(), nums, cite=self.contents_article + m.group(1),
                          number=page)
        else:  # the introduction, the definitions, the index: no article's
            self.contents_article = None
            block = Block("contents", entry, nums, number=page)
        self.reading.blocks.append(block)

    def _at_contents_edge(self, line: PageLine) -> bool:
        """The line ends where most entries on its page with leader dots end: at the page numbers' column."""
        rights = Counter(round(other.right) for other in self.pages.get(line.page, ()) if LEADER.search(other.text))
        return bool(rights) and abs(line.right - rights.most_common(1)[0][0]) <= 1

    def _contents_end(self) -> None:
        """Lines at the contents list's end that no leader dots closed: kept apart as front matter."""
        for line in self.contents_wrapped:
            self.reading.blocks.append(Block("front", line.text.strip(), [line.num]))
        self.contents_wrapped = []

    def _right_edge(self, number: int, page: list[PageLine]) -> None:
        """The right edge a page's text is justified to: its long body lines (within three characters' size
        of the longest) nearly all end at one place, two thirds of them and at least three (punctuation may
        hang a little past it). Text set ragged ends its long lines spread over a word's width: no edge."""
        rights = [line.right for line in page if line.size == self.body]
        if not rights:
            return
        long = [r for r in rights if r >= max(rights) - 3 * self.body]
        edge = Counter(round(r) for r in long).most_common(1)[0][0]
        at_edge = sum(abs(r - edge) <= 2 for r in long)
        if at_edge >= 3 and at_edge * 3 >= len(long) * 2:
            self.right_edges[number] = float(edge)

    def _ends_at_page_foot(self, before: PageLine, line: PageLine) -> bool:
        """The paragraph ends with the page: on a page set justified its last line stops short of the right
        edge by more than two of its characters' size and ends a sentence (logged). Else the text at the next
        page's top goes on with it: a full line goes on; a sentence ended on a page set ragged may end its
        paragraph or not, so that reading is logged as uncertain."""
        if not re.search(r"[.:;!?][\"')\u2019\u201d]?$", before.text.rstrip()):
            return False
        edge = self.right_edges.get(before.page)
        short = edge - before.right if edge is not None else 0.0
        ends = edge is not None and short > 2 * before.size
        if line.num not in self.page_tops_logged and (ends or edge is None):
            self.page_tops_logged.add(line.num)
            if ends:
                self.flog.inference(line.num, None, f"a new paragraph: the last line of page {before.page} "
                                                    f"ends a sentence {short:.0f} pt short of the right edge its text "
                                                    f"is justified to, so its paragraph ends with the page")
            else:
                self.flog.inference(line.num, None, f"uncertain: read as going on with the paragraph at the "
                                                    f"foot of page {before.page}, whose last line ends a sentence; "
                                                    f"the page is not set justified, so no right edge tells whether "
                                                    f"that paragraph ended there")
        return ends

    def _indented_first_line(self, before: PageLine, line: PageLine) -> bool:
        """A paragraph's first line set in from the lines of the paragraph before (a layout that marks
        paragraphs by a first-line indent, not by space between them): by half its size or more from the
        margin of its page (pages alternate their margins); or, after a paragraph of one line that began so,
        set in as far as that one (a paragraph's second line goes back to the margin). A list entry's lines
        after its marker are set in too (a hanging indent): only a paragraph's are compared."""
        if self.block is None or self.block.kind not in ("para", "introduction") or abs(line.size - before.size) >= 0.5:
            return False
        offset, before_offset = line.x - self.margin(line.page), before.x - self.margin(before.page)
        if offset > before_offset + 0.5 * line.size:
            return True
        return (self.block is self.indented and len(self.block.lines) == 1 and offset > 0.5 * line.size
                and abs(offset - before_offset) < 0.5)

    def _wrapped(self, line: PageLine) -> bool:
        """The line goes to (near) the right of the page's text: a heading on it was broken there."""
        rights = [other.right for other in self.pages.get(line.page, ()) if other.size == self.body]
        edge = self.right_edges.get(line.page, max(rights, default=line.right))
        return line.right >= edge - 3 * line.size

    def _continues(self, line: PageLine) -> bool:
        """The line goes on with the block before: close below it on the same page, or the first line of a
        page after a line of the previous page that does not end its paragraph; never a line that starts a
        structure."""
        before = self.last_line
        if self.block is None or before is None:
            return False
        if self._indented_first_line(before, line):
            self.set_in = line.num
            return False
        if before.page != line.page:
            return not self._ends_at_page_foot(before, line)
        # The body's leading; a line in another size (a title) at its own: up to 1.6 times its size.
        step = self.leading * 1.15 if abs(line.size - self.body) < 0.5 else 1.6 * line.size
        return before.y - line.y <= step and abs(before.size - line.size) < 0.5

    def _introduction(self, line: PageLine) -> None:
        text = line.text.strip()
        if line.size > self.body * 1.1 and not any(b.kind == "introduction" for b in self.reading.blocks):
            self.reading.blocks.append(Block("introduction", text, [line.num], cite="title"))
            self.block = None
            return
        if self.block is not None and self._continues(line) and self.block.kind == "introduction":
            self._join(self.block, line, text)
        else:
            self.block = Block("introduction", text, [line.num])
            self.indented = self.block if self.set_in == line.num else None
            self.reading.blocks.append(self.block)

    def _definition(self, line: PageLine) -> None:
        text = line.text.strip()
        if line.size > self.body * 1.1 and text.lower() == self.words.definitions:
            self.reading.blocks.append(Block("part-title", text, [line.num]))
            self.block = None
            return
        if line.bold_head:
            term, rest = line.text[:line.bold_head].strip(), line.text[line.bold_head:]
            if m := DEFINITION_COLON.match(rest):
                self.block = Block("definition", rest[m.end():], [line.num], cite=term)
                self.reading.blocks.append(self.block)
                return
        if self.block is not None and self.block.kind == "definition" and self._continues(line):
            self._join(self.block, line, text)
            return
        self.flog.damage(line.num, f"{text[:40]!r} starts no definition (no bold term and "
                                   f"colon)", "kept as a paragraph")
        self.block = Block("para", text, [line.num])
        self.reading.blocks.append(self.block)

    # -- the articles ------------------------------------------------------------------------------------
    def _article_line(self, line: PageLine) -> None:
        text, notes = self._marked(line)
        stripped = text.strip()
        if self._remark(line, stripped):
            return
        if m := self.words.article.match(stripped):
            self.block = Block("article", stripped, [line.num], cite=m.group(1))
            self.reading.blocks.append(self.block)
            self.marker_offsets = {}
            return
        if line.size > self.body * 1.1:  # an article's title, set larger than the body
            if self.block is not None and self.block.kind == "title" and self._continues(line):
                self._join(self.block, line, stripped, notes)
            elif self.block is None or self.block.kind != "article":
                # Set as a title, but after no article heading: a part of the book after the articles
                # (commentaries, an appendix), kept apart.
                self.flog.inference(line.num, None, f"{stripped[:40]!r} set in {line.size:g} pt "
                                                    f"after no article heading begins a part after the articles: "
                                                    f"kept apart as back matter")
                self.part, self.block = "back", None
                self.reading.blocks.append(Block("back", stripped, [line.num]))
            else:
                self.block = Block("title", stripped, [line.num], notes=notes)
                self.reading.blocks.append(self.block)
            return
        if self._run_in(line, text, notes):
            return
        if line.bold and (m := BARE_LETTER.match(stripped)):  # "A." alone: a section the book gives no heading
            self.block = Block("heading", "", [line.num], cite=m.group(1) + m.group(2), notes=notes)
            self.reading.blocks.append(self.block)
            self.block = None  # its text is a paragraph of its own
            return
        if line.bold and (m := LETTERED.match(stripped)):
            self.block = Block("heading", m.group(3), [line.num], cite=m.group(1) + m.group(2), notes=notes)
            self.reading.blocks.append(self.block)
            return
        if line.bold and self.block is not None and self.block.kind == "heading" and self._continues(line):
            self._join(self.block, line, stripped, notes)
            return
        marker = self._list_marker(line, stripped)
        if marker is not None:
            level, number, rest = marker
            # "1. (a) text": the subsection's number right before its first item's marker (and "(a) (i)"):
            # the book writes no lead-in there (model.NO_LEAD_IN).
            first = {0: ITEM, 1: SUBITEM}.get(level)
            inner = first.match(rest) if first else None
            if inner and inner.group(1) in ("a", "i"):
                self.reading.blocks.append(Block("list", "", [line.num], cite=NO_LEAD_IN, number=number, level=level))
                self.flog.inference(line.num, None, f"'{stripped[:len(stripped) - len(rest)]}"
                                                    f"{inner.group()}' read as a list number without a lead-in "
                                                    f"and the first entry of the level below it")
                level, number, rest = level + 1, 1, rest[inner.end():]
                self.marker_offsets.setdefault(level, line.x - self.margin(line.page) + 16)
            self.block = Block("list", rest, [line.num], number=number, level=level, notes=notes)
            self.reading.blocks.append(self.block)
            return
        if self.block is not None and self._continues(line) and self.block.kind in ("para", "list"):
            self._join(self.block, line, stripped, notes)
            return
        self.block = Block("para", stripped, [line.num], notes=notes)
        self.indented = self.block if self.set_in == line.num else None
        self.reading.blocks.append(self.block)

    def _run_in(self, line: PageLine, text: str, notes: list[Note]) -> bool:
        """A heading run in at the start of a paragraph: the line starts in bold and goes on in the regular
        weight on the same line ("B. Late Play A player who …", "1. Single Result In team …"). The font
        weight tells where the heading ends, not the capitals. A section heading gives a heading block and
        the rest a paragraph; a subsection's gives its list block and a heading block without a cite after
        it (structure gives that to the subsection just opened). The end of a bold heading that wrapped
        onto this line goes to the heading above. Logged with the page and the line on it."""
        if not line.bold_head or not line.text[line.bold_head:].strip():
            return False
        cut = _marked_offset(line, line.bold_head)
        head, rest = text[:cut].strip(), text[cut:].strip()
        marks = head.count(NOTE_MARK)
        head_notes, rest_notes = list(notes[:marks]), list(notes[marks:])
        shown = head.replace(NOTE_MARK, "")
        if (self.block is not None and self.block.kind == "heading" and self.block.text and self.last_line is not None
                and self.last_line.bold and self._wrapped(self.last_line) and self._continues(line)
                and not LETTERED.match(head)
                and not SUBSECTION.match(head)):
            self._join(self.block, line, head, head_notes)
            self.flog.inference(line.num, None, f"bold {shown!r} at the line's start ends the heading "
                                                f"{self.block.cite}. above, run in before its text (its font weight)")
            self.block = Block("para", rest, [line.num], notes=rest_notes)
            self.reading.blocks.append(self.block)
            return True
        if m := LETTERED.match(head):
            cite, title, what = m.group(1) + m.group(2), m.group(3), "section"
            heading = Block("heading", title, [line.num], cite=cite, notes=head_notes)
            self.block = Block("para", rest, [line.num], notes=rest_notes)
            blocks = [heading, self.block]
        elif (m := SUBSECTION.match(head)) and head[m.end():].strip():
            cite, title, what = m.group(1), head[m.end():].strip(), "subsection"
            self.marker_offsets.setdefault(0, line.x - self.margin(line.page))
            self.block = Block("list", rest, [line.num], number=int(m.group(1)), level=0, notes=rest_notes)
            blocks = [self.block, Block("heading", title, [line.num], notes=head_notes)]
        else:
            return False
        self.reading.blocks += blocks
        self.flog.inference(line.num, None, f"bold {shown!r} at the line's start, followed by text in the "
                                            f"regular weight, read as the heading of {what} {cite} run in before "
                                            f"its text (its font weight)")
        return True

    def _remark(self, line: PageLine, text: str) -> bool:
        """An editorial remark of the book's maker: italic lines in square brackets ("[title missing]",
        "[Editor: the text of 57B is missing …]"): not law text, dropped with the reason."""
        if not line.italic or not (self.remark or text.startswith("[")):
            self.remark = []
            return False
        self.remark.append(line)
        if text.endswith("]"):
            said = " ".join(other.text.strip() for other in self.remark)
            for other in self.remark:
                self.reading.dropped.append(Dropped(other.num, f"an editorial remark of the "
                                                               f"book's maker, in italics in square brackets: "
                                                               f"{said[:60]!r}"))
            self.remark, self.block = [], None
        return True

    def _list_marker(self, line: PageLine, text: str) -> tuple[int, int, str] | None:
        """(level, number, the text after the marker) of a line that starts with a list marker, else None.
        The level is the marker's: numbers are subsections (0), letters items (1), roman numerals sub-items
        (2); a roman numeral indented as the item markers before it is an item ("(i)" after "(h)")."""
        offset = line.x - self.margin(line.page)
        found = None
        if m := SUBSECTION.match(text):
            found = (0, int(m.group(1)), m)
        elif (ms := SUBITEM.match(text)) and self._deeper_than_items(offset, ms):
            found = (2, ROMAN_NUMBERS.index(ms.group(1)) + 1, ms)
            if ITEM.match(text):  # "(i)", "(v)", "(x)": an item letter too; the indent decides
                self.flog.inference(line.num, None, f"'({ms.group(1)})' read as a sub-item: "
                                                    f"its marker is indented deeper than the item markers")
        elif m := ITEM.match(text):
            found = (1, ord(m.group(1)) - 96, m)
        if found is None:
            return None
        level, number, m = found
        self.marker_offsets.setdefault(level, offset)
        return level, number, text[m.end():]

    def _deeper_than_items(self, offset: float, m: re.Match[str]) -> bool:
        """A roman numeral's marker indented deeper than the item markers of the article so far."""
        items = self.marker_offsets.get(1)
        return items is not None and offset > items + 2

    def _join(self, block: Block, line: PageLine, text: str, notes: list[Note] | tuple[()] = ()) -> None:
        """The line added to the block's lines as the page broke them (Block.pieces): the repair stage joins
        them as it joins a text extraction's, deciding each line-end hyphen with the book's vocabulary (the
        text layer cannot tell a hyphen the typesetter put in from a real one at a line end)."""
        if not block.pieces:
            block.pieces = [(block.lines[0], block.text)]
        text = self._capitals_hyphen(block, line, text)
        if text:
            block.pieces.append((line.num, text))
        block.text = "\n".join(t for _, t in block.pieces)
        block.lines.append(line.num)
        block.notes = list(block.notes) + list(notes)

    def _capitals_hyphen(self, block: Block, line: PageLine, text: str) -> str:
        """A word in capitals hyphenated at a line end ("CON-" / "TEST"): the repair stage keeps a hyphen
        before a capital, so here the book's own words decide: the word joined is written elsewhere in
        the book and the hyphenated form is not. The word goes onto the line before; logged."""
        num, before = block.pieces[-1]
        head = re.search(r"([A-Z]+)-$", before)
        tail = re.match(r"([A-Z]+)(?=\W|$)", text)
        if not (head and tail):
            return text
        joined, hyphenated = (head.group(1) + tail.group(1)).lower(), f"{head.group(1)}-{tail.group(1)}".lower()
        words = self.words_of_book()
        if joined not in words or hyphenated in words:
            return text
        block.pieces[-1] = (num, before[:-1] + tail.group(1))
        self.flog.repair(line.num, f"a word in capitals hyphenated at the line end joined: the "
                                   f"book writes {joined!r} elsewhere and never {hyphenated!r}",
                         f"{head.group()} | {tail.group()}", head.group(1) + tail.group(1))
        return text[tail.end():].strip()

    def words_of_book(self) -> set[str]:
        if self.vocabulary is None:
            self.vocabulary = {w.lower() for line in self.lines for w in re.findall(r"\w+(?:-\w+)*", line.text)}
        return self.vocabulary

    def _marked(self, line: PageLine) -> tuple[str, list[Note]]:
        """The line's text with each raised digit run (a footnote marker) as NOTE_MARK, and its Notes."""
        if not line.raised:
            return line.text, []
        text, notes, cut = line.text, [], 0
        out = []
        for start, end in line.raised:
            number = text[start:end]
            if not number.isdigit():
                continue
            out.append(text[cut:start])
            out.append(NOTE_MARK)
            cut = end
            note = Note(text="", lines=[line.num], form="print", number=number)
            notes.append(note)
            self.notes.append((line.page, note))
        out.append(text[cut:])
        return "".join(out), notes

    # -- footnotes ------------------------------------------------------------------------------------
    def _footnote_line(self, line: PageLine) -> None:
        text = line.text
        m = FOOTNOTE.match(text)
        raised_first = bool(line.raised) and line.raised[0][0] == 0
        if raised_first or m is not None and self._starts_note(line, m):
            end = line.raised[0][1] if raised_first else m.end() if m is not None else 0
            number = text[:end].strip()
            self.footnotes.append(notes.Footnote(number, line.page, [line.num], text[end:].strip()))
            return
        if self.footnotes:
            note = self.footnotes[-1]
            fake = Block("para", note.text, note.lines, pieces=note.pieces)
            self._join(fake, line, text.strip())
            note.text, note.pieces = fake.text, fake.pieces
            if note.page != line.page:
                self.flog.inference(line.num, None, f"footnote {note.number} goes on from page "
                                                    f"{note.page} (small type at the page foot, no number)")
            return
        self.flog.damage(line.num, f"{text.strip()[:40]!r} in small type at the page foot "
                                   f"starts no footnote", "kept as a paragraph")
        self.reading.blocks.append(Block("para", text.strip(), [line.num]))

    def _starts_note(self, line: PageLine, m: re.Match[str]) -> bool:
        """A footnote's number: the next one after the last footnote, or 1 (numbered per page)."""
        if not self.footnotes:
            return True
        last = self.footnotes[-1].number
        return m.group(1) == "1" or (last.isdigit() and int(m.group(1)) == int(last) + 1)

    def _attach(self) -> None:
        """Every marker its footnote, by the rule of notes.Footnotes (its page's foot, else the next
        page's, else, a note cited twice, an earlier one); a marker without one and a footnote without a
        marker are errors."""
        matched = notes.Footnotes(self.footnotes).match([(page, note.lines[0], note) for page, note in self.notes])
        notes.give_texts(matched, self.flog)
        for note in matched.unmatched:
            self.flog.error(note.lines[0], f"footnote marker {note.number} has no "
                                           f"footnote at the foot of its page or the next")
        for f in matched.unused:
            self.flog.error(f.lines[0], f"footnote {f.number} has no marker in the text")
            self.reading.blocks.append(Block("para", f.text, list(f.lines), pieces=list(f.pieces)))


def _marked_offset(line: PageLine, offset: int) -> int:
    """An offset into line.text as an offset into its marked text (_Pages._marked: each raised digit run
    before it is one NOTE_MARK there)."""
    return offset - sum(end - start - 1 for start, end in line.raised if end <= offset and line.text[start:end].isdigit())


def is_pdf_lines(lines: Sequence[Line]) -> bool:
    """Lines made by page_lines(): the source was a PDF."""
    return bool(lines) and isinstance(lines[0], PageLine)


def _no_sign(texts: list[str], profile: Profile) -> bool:
    """A PDF has no sign in its text: detection never names it (its first bytes do, decode.read_source)."""
    return False


FORMAT = Format(
    # No sign in the text: a PDF is known by its first bytes (decode.read_source) and its lines (is_pdf_lines).
    "pdf", read, signs=((0, _no_sign),), notes=("print",),
    # The page writes section letters, subsection numbers, item letters and roman sub-items: each as the
    # node's own.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "source",
                              "subitem": "source"},
                articles_go_up=True))
