"""The PDF adapter: a book's PDF itself, read from the characters of its text layer with their font,
size, weight and position (pypdfium2; docs/pdf-source.md gives the measurements behind every rule).

Reads: a source's bytes that start with "%PDF" (decode.read_source hands them to page_lines()).
Writes: one PrintedLine (stream.py) per printed line, in the order a reader reads them: its text and the
layout evidence of its characters (position, size, weight, raised markers, runs, column, damage), which
every layer of the book reader reads; and one PrintedLine with `hidden` set for each line of text no
reader of the page sees.

Where a line is: Line.num is the page's number * 1000 + the line's place on its page in reading order
(1-based; the lines no reader sees come after the page's other lines); the report and every message
show it as "book.pdf:p31:5", page 31, line 5 (core/report.py location); a page holds at most
MAX_PAGE_LINES lines.

The adapter is three modules, one job each:
  - pdf.py (this one): the PDF opened page by page, the limits of one source, and the PDF refused where it
    cannot be read (cut off, damaged, encrypted, no text layer, its text all hidden, every font unusable);
  - pdf_glyphs.py: the characters of a page: their direction, size, weight and slant, their text where a
    font maps it to no Unicode (read from the glyph's name, else marked damaged), and the text no reader
    sees (white, invisible, too small, outside the page);
  - pdf_lines.py: the characters into printed lines: rows, runs, tables' cells, two columns read column by
    column, right-to-left runs in their logical order, raised note markers.

Untrusted input: besides the limits of pages, characters and lines, every stream a page's text needs is
unpacked with a bound before PDFium loads the page (a decompression bomb is refused, _guard_unpacked); a
PDF whose every font maps its codes to no Unicode is refused, naming the fonts.
"""
from __future__ import annotations

import base64
import io
import re
import zlib
from typing import TYPE_CHECKING, Any

from ...core.errors import LawbookError
from .pdf_glyphs import Fonts, GlyphNames, page_glyphs
from .pdf_lines import LINE_STEP, PageLine, lay_out

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
        names = GlyphNames(data)
        fonts = Fonts(raw)
        lines: list[PageLine] = []
        with_text, seen = 0, 0
        for p in range(count):
            page, text_page = text_page_of(p)
            try:
                n = raw.FPDFText_CountChars(text_page.raw)
                box = tuple(float(v) for v in page.get_bbox())
                fonts.fonts.clear()  # PDFium may free a page's fonts with the page: an address is one page's
                names.digests.clear()
                glyphs, hidden = page_glyphs(page.raw, text_page.raw, n, raw, box, fonts, names)
            finally:
                text_page.close()
                page.close()
            with_text += bool(glyphs or hidden)
            seen += bool(glyphs)
            page_lines_ = lay_out(file, p + 1, glyphs, hidden)
            if len(page_lines_) > MAX_PAGE_LINES:
                raise LawbookError(f"page {p + 1} has {len(page_lines_)} lines, over the limit of {MAX_PAGE_LINES}",
                                   file=path, line=(p + 1) * LINE_STEP, paged=True,
                                   fix="check the PDF; it is not a book's pages")
            lines += page_lines_
        if not with_text:
            raise LawbookError(f"the PDF has no text layer ({count} page(s) of images, as a scan gives): its text "
                               f"cannot be read; OCR is not done", file=path,
                               fix="give a PDF with a text layer (run OCR on it first) or the book's text export")
        if not seen:
            reasons = ", ".join(sorted({line.hidden for line in lines if line.hidden}))
            raise LawbookError(f"the PDF's text is all hidden from its readers ({reasons}): what its pages show is "
                               f"not in its text layer", file=path,
                               fix="give the book's PDF as its publisher made it, or the book's text export")
        _refuse_unreadable_fonts(fonts, path)
        return lines
    finally:
        doc.close()


def _refuse_unreadable_fonts(fonts: Fonts, path: str) -> None:
    """Refuses a PDF whose every font that prints visible text maps most of its codes to no Unicode: its
    text layer is not its text (a font without a usable ToUnicode map, in every font)."""
    used = {name: counts for name, counts in fonts.printed.items() if counts[0]}
    if not used or any(damaged * 2 < printed for printed, damaged in used.values()):
        return
    named = ", ".join(sorted(used))
    raise LawbookError(f"the PDF's text cannot be read: none of its fonts ({named}) maps the codes of its "
                       f"characters to Unicode (no usable ToUnicode map and an encoding that names no characters), "
                       f"so its text layer does not hold the text it prints", file=path,
                       fix="export the PDF again with its fonts embedded with their Unicode maps, or give the "
                           "book's text export")


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

