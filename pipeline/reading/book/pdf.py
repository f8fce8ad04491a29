"""The PDF adapter: a book's PDF itself, read from the characters of its text layer with their font,
size, weight and position (pypdfium2; docs/pdf-source.md gives the measurements behind the choice).

Reads: a source's bytes that start with "%PDF" (decode.read_source hands them to page_lines()).
Writes: one PrintedLine (stream.py) per printed line: its text and the layout evidence of its characters
(position, size, weight, raised digits), which every layer of the book reader reads.

Where a line is: Line.num is the page's number * 1000 + the line's place on its page (counted from the
top, 1-based); the report and every message show it as "book.pdf:p31:5", page 31, line 5 (core/report.py
location); a page holds at most MAX_PAGE_LINES lines.

Untrusted input: besides the limits of pages, characters and lines, every stream a page's text needs is
unpacked with a bound before PDFium loads the page (a decompression bomb is refused, _guard_unpacked).
"""
from __future__ import annotations

import base64
import ctypes
import io
import re
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.errors import LawbookError
from ...core.report import PAGE_LINE_STEP
from .stream import PrintedLine

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


# A PDF's printed line: a PrintedLine whose evidence fields are all set.
PageLine = PrintedLine


def page_lines(data: bytes, path: str, file: str) -> list[PrintedLine]:
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
        lines: list[PrintedLine] = []
        total, with_text = 0, 0
        for p in range(count):
            try:
                page = doc[p]
                text_page = page.get_textpage()
            except pdfium.PdfiumError as e:
                raise LawbookError(f"page {p + 1} of the PDF is damaged and cannot be read ({e})", file=path,
                                   line=(p + 1) * LINE_STEP, paged=True,
                                   fix="download or export the PDF again") from None
            try:
                n = raw.FPDFText_CountChars(text_page.raw)
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
                glyphs = _glyphs(text_page.raw, n, raw)
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
        raise LawbookError(f"the PDF is damaged and cannot be opened ({e})", file=path,
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


def _page_line(file: str, page: int, row: int, chars: list[Glyph]) -> PrintedLine:
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
    return PrintedLine(file, page * LINE_STEP + row, line, page_break=row == 1, page=page, x=chars[0].x0, y=base,
                       size=size, bold=bold, italic=italic, bold_head=bold_head, raised=tuple(raised), right=right)


