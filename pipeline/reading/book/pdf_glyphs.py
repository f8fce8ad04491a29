"""The characters of a PDF's page: each with its text and where and how it is printed (pypdfium2;
docs/pdf-source.md gives the measurements behind every rule). A part of the PDF adapter (pdf.py).

Reads: one page of the PDF as PDFium loaded it (its page and its text page), and the PDF's bytes where a
font's glyph names are needed. Writes: the page's Glyphs a reader sees and the ones no reader sees, each
with why (page_glyphs; pdf_lines.py makes lines of them); and, in Fonts, how many characters each font
printed visibly and how many of those damaged (pdf.py refuses a PDF whose every font is unusable so).

How a character is read (sizes in points; the measurements are in docs/pdf-source.md):
  - direction: every character is read in the frame of its own baseline (its text matrix, the page's
    /Rotate left aside: it turns the page, not the lines): x along the line, y up from it, both from the
    page box's corner in that frame (Glyph.turn: the baseline's direction);
  - size: PDFium's font size times the text matrix's scale across the baseline;
  - weight and slant: bold when the font's name says so (Bold, Black, Heavy, Semibold, Demi, ExtraBold,
    UltraBold); when its name names another weight (Regular, Book, Roman, Light, Medium, Thin …) it is not;
    when the name says nothing, when its weight is BOLD_WEIGHT (700) or more, it is flagged ForceBold, or
    its text is filled and stroked (render mode 2, a word processor's made-up bold). Italic when the name
    says Italic, Oblique or It, the font is flagged italic or slanted, or the text matrix slants it;
  - a digit's ink: where it starts (Glyph.bottom), so a superscript digit glyph tells itself from an
    ordinary one (pdf_lines.py reads the raised markers);
  - text no reader sees is given apart, with why: text filled white or very light (contrast with white
    under LIGHT_CONTRAST) that no filled shape or image lies under, transparent or invisible text (render
    mode 3 or 7) that no image lies under (on a scan's image it is the scan's OCR layer: what the image
    shows), characters under MIN_SIZE (2 pt), characters outside the page's box (its CropBox within its
    MediaBox);
  - damaged text: a character whose code the font maps to no Unicode (PDFium's map error: no ToUnicode
    map and an encoding it cannot read, so the code itself is shown) is read from its glyph's name by the
    Adobe Glyph List rules where the font's encoding names one (ligatures named f_f_l), else marked
    `damaged` with its font's name, as is a character mapped to U+FFFD, to private use or to a control
    character.
"""
from __future__ import annotations

import ctypes
import hashlib
import io
import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only a PDF source needs it: imported where one is read
    import pikepdf

# How PDF text layers mark a hyphen the typesetter put in at a line end (pdfium: U+0002 or U+FFFE), read
# as a soft hyphen (U+00AD): never a control character or a noncharacter in the text.
SOFT_HYPHENS = {"\ufffe": "\u00ad", "\u0002": "\u00ad"}
SOFT_HYPHEN = "\u00ad"
# Characters a text layer may hold that are never law text (control characters but tab, private use,
# noncharacters, bidirectional controls): each is refused with its page (decode.REFUSED, for text sources).
REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ue000-\uf8ff\ufffe\uffff]")
MIN_SIZE = 2.0  # points: a character set smaller is read by no one
LIGHT_CONTRAST = 1.25  # a fill whose contrast with white is under this is white or very light
BOLD_WEIGHT = 700  # a font's weight number from which it is bold, where its name says nothing
# The weights a font's name may give: bold, or another (a name with neither says nothing).
BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|extrabold|ultrabold", re.IGNORECASE)
OTHER_WEIGHT = re.compile(r"regular|book|roman|light|thin|medium|normal|plain|hairline", re.IGNORECASE)
ITALIC_NAME = re.compile(r"italic|oblique|slanted|inclined|kursiv", re.IGNORECASE)
ITALIC_ABBREVIATION = re.compile(r"(?<=[a-z,-])It(?=$|[A-Z,-])")  # MinionPro-It, MinionPro-BoldIt
SUBSET = re.compile(r"^[A-Z]{6}\+")  # the tag of an embedded subset: YLXNWP+Gotham-Book
FORCE_BOLD, ITALIC_FLAG = 1 << 18, 1 << 6  # a font descriptor's /Flags


@dataclass(frozen=True)
class Glyph:
    """One character of the text layer: its text and where and how it is printed, in the frame of its
    baseline (x along the line from the page box's edge, y up from its foot)."""
    char: str
    x0: float  # left of its box (the loose box: the glyph's advance, so spaces are gaps between boxes)
    x1: float  # right of its box
    y: float  # baseline (origin), from the page's bottom
    bottom: float  # the bottom of the ink (the tight box): a superscript glyph's is high above the baseline
    size: float
    bold: bool
    italic: bool = False
    font: str = ""  # its font's name, without a subset's tag
    damaged: bool = False  # its font maps its code to no usable Unicode: the text is not what is printed
    turn: int = 0  # the direction of its baseline, degrees counterclockwise on the page


@dataclass(frozen=True)
class _Font:
    """What the reader takes from one font: its name and whether it is bold or italic."""
    name: str
    bold: bool
    italic: bool
    handle: Any  # PDFium's FPDF_FONT, to read its data where a glyph's name is looked up


@dataclass(frozen=True)
class _Style:
    """What the characters of one text object share: their font, size, direction and colour."""
    font: _Font | None
    size: float
    bold: bool
    italic: bool
    turn: int
    hidden: str | None  # why no reader sees them (too small), or None
    # Why no reader sees them unless they stand on what is printed under them: ("light", "white text") is
    # seen on a dark shape or an image; ("unseen", "invisible text …") only on an image (a scan's OCR layer)
    pending: tuple[str, str] | None


class Fonts:
    """The fonts of a PDF as PDFium gives them, each read once; and how many characters each printed
    visibly and how many of those it printed damaged (pdf.py's _refuse_unreadable_fonts)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.fonts: dict[int, _Font] = {}
        self.printed: dict[str, list[int]] = {}  # font name -> [visible characters, damaged ones]

    def font(self, handle: Any) -> _Font | None:
        key = ctypes.cast(handle, ctypes.c_void_p).value
        if not key:
            return None
        font = self.fonts.get(key)
        if font is None:
            raw = self.raw
            size = raw.FPDFFont_GetBaseFontName(handle, None, 0)
            buf = ctypes.create_string_buffer(max(size, 1))
            raw.FPDFFont_GetBaseFontName(handle, buf, size)
            name = SUBSET.sub("", buf.value.decode("latin-1"))
            if not name:  # a Type 3 font has no name of its own; its family, if it gives one
                size = raw.FPDFFont_GetFamilyName(handle, None, 0)
                buf = ctypes.create_string_buffer(max(size, 1))
                raw.FPDFFont_GetFamilyName(handle, buf, size)
                name = buf.value.decode("latin-1") or "unnamed font"
            flags = raw.FPDFFont_GetFlags(handle)
            angle = ctypes.c_int()
            raw.FPDFFont_GetItalicAngle(handle, ctypes.byref(angle))
            bold = font_bold(name, raw.FPDFFont_GetWeight(handle), flags)
            italic = bool(ITALIC_NAME.search(name) or ITALIC_ABBREVIATION.search(name) or flags & ITALIC_FLAG
                          or abs(angle.value) >= 5)
            font = self.fonts[key] = _Font(name, bold, italic, handle)
        return font


def font_bold(name: str, weight: int, flags: int) -> bool:
    """Whether a font is bold: its name first (Bold, Black, Semibold …; another weight named, Regular, Book,
    Light, Medium …, is not bold); where the name says nothing, its weight number (PDFium's: the font
    descriptor's /FontWeight, else one made from its stems, 640 for a regular Calibri) or its ForceBold flag."""
    if BOLD_NAME.search(name):
        return True
    if OTHER_WEIGHT.search(name):
        return False
    return weight >= BOLD_WEIGHT or bool(flags & FORCE_BOLD)


class GlyphNames:
    """The glyph names a PDF's simple fonts give their codes (their encoding's /Differences), looked up
    where PDFium maps a code to no Unicode: a name of the Adobe Glyph List's form (f_f_l, uni00E9) gives its
    text. Read from the PDF (pikepdf) only when a character needs it; a font is found by its embedded
    program's digest (PDFium's font data is the PDF's font file), else by its name."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.by_digest: dict[bytes, list[dict[int, str]]] | None = None
        self.by_name: dict[str, list[dict[int, str]]] = {}
        self.digests: dict[int, bytes] = {}

    def text(self, font: _Font | None, code: int, raw: Any) -> str | None:
        """The text of the glyph a font prints for a code, from its name; None where no name gives one."""
        if font is None or not 0 <= code < 256:
            return None
        if self.by_digest is None:
            self._read()
        assert self.by_digest is not None
        candidates = self.by_digest.get(self._digest(font, raw)) or self.by_name.get(font.name) or []
        glyph_names = {names[code] for names in candidates if code in names}
        if len(glyph_names) != 1:
            return None
        from fontTools import agl  # type: ignore[import-untyped]  # only a font without a usable map needs it

        text: str = agl.toUnicode(glyph_names.pop())
        return text if text and not REFUSED.search(text) and "\ufffd" not in text else None

    def _digest(self, font: _Font, raw: Any) -> bytes:
        key = ctypes.cast(font.handle, ctypes.c_void_p).value or 0
        digest = self.digests.get(key)
        if digest is None:
            size = ctypes.c_ulong()
            raw.FPDFFont_GetFontData(font.handle, None, 0, ctypes.byref(size))
            buf = (ctypes.c_ubyte * max(size.value, 1))()
            raw.FPDFFont_GetFontData(font.handle, buf, size.value, ctypes.byref(size))
            digest = self.digests[key] = hashlib.sha256(bytes(buf[:size.value])).digest() if size.value else b""
        return digest

    def _read(self) -> None:
        import pikepdf

        self.by_digest = {}
        with pikepdf.open(io.BytesIO(self.data)) as pdf:
            for font in _page_fonts(pdf):
                encoding = font.get("/Encoding")
                if not isinstance(encoding, pikepdf.Dictionary) or "/Differences" not in encoding:
                    continue
                names: dict[int, str] = {}
                code = 0
                for item in encoding.Differences:
                    if isinstance(item, pikepdf.Name):
                        names[code] = str(item)[1:]
                        code += 1
                    else:
                        code = int(item)
                self.by_name.setdefault(SUBSET.sub("", str(font.get("/BaseFont", "/"))[1:]), []).append(names)
                descriptor = font.get("/FontDescriptor")
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    stream = descriptor.get(key) if isinstance(descriptor, pikepdf.Dictionary) else None
                    if isinstance(stream, pikepdf.Stream):
                        try:
                            digest = hashlib.sha256(bytes(stream.read_bytes())).digest()
                        except pikepdf.PdfError:
                            continue  # a damaged font file: PDFium reads no names from it either
                        self.by_digest.setdefault(digest, []).append(names)


def _page_fonts(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    """The fonts the pages' resources reach (forms' and patterns' resources too): the streams they hold
    are the ones pdf.py's _guard_unpacked bounded."""
    import pikepdf

    out: list[pikepdf.Dictionary] = []
    seen: set[tuple[int, int]] = set()
    for page in pdf.pages:
        todo: list[Any] = [page.obj.get("/Resources")]
        while todo:
            obj = todo.pop()
            if isinstance(obj, pikepdf.Stream):
                obj = obj.stream_dict
            if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Array)):
                continue
            if obj.is_indirect:
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
            if isinstance(obj, pikepdf.Array):
                todo += list(obj)
            elif obj.get("/Type") == pikepdf.Name.Font:
                out.append(obj)
                todo.append(obj.get("/Resources"))  # a Type3 font's glyphs may use fonts of their own
            else:
                todo += [v for k, v in obj.items() if k not in ("/Parent", "/P")]
    return out


def page_glyphs(page: Any, text_page: Any, n: int, raw: Any, box: tuple[float, ...], fonts: Fonts,
                names: GlyphNames) -> tuple[list[Glyph], list[tuple[Glyph, str]]]:
    """The page's visible characters, without the spaces and line ends the text layer generates (spaces
    are placed again from the gaps between the characters: the generated ones are missing after a bold
    run-in); and the characters no reader sees, each with why."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    tight = [ctypes.byref(v) for v in (left, right, bottom, top)]
    ox, oy = ctypes.c_double(), ctypes.c_double()
    origin = (ctypes.byref(ox), ctypes.byref(oy))
    loose = raw.FS_RECTF()
    loose_ref = ctypes.byref(loose)
    styles: dict[int, _Style] = {}  # a text object's address -> its style: its characters share it
    frames: dict[int, tuple[float, float, float, float]] = {}
    out: list[Glyph] = []
    hidden: list[tuple[Glyph, str]] = []
    pending: list[tuple[Glyph, tuple[str, str], float, float]] = []  # glyphs seen only on something, with
    # their centre on the page
    codes = _codes(text_page, n, raw)
    map_error = raw.FPDFText_HasUnicodeMapError
    text_object = raw.FPDFText_GetTextObject
    tally: Counter[tuple[str, bool]] = Counter()
    for i in range(n):
        code = codes[i]
        # The spaces and line ends the text layer generates are left out: spaces are put back from the gaps
        # between the glyphs (pdf_lines.py); a space the PDF itself has is kept.
        if code in (32, 10, 13, 9) and (code != 32 or raw.FPDFText_IsGenerated(text_page, i)) and \
                not map_error(text_page, i):  # (a code of a font without a usable map shows as itself)
            continue
        obj = text_object(text_page, i)
        key = ctypes.addressof(obj.contents) if obj else 0
        style = styles.get(key) if key else None
        if style is None:
            style = _style(text_page, i, obj, raw, fonts)
            if key:
                styles[key] = style
        chars = chr(code) if 0 < code < 0x110000 else "\ufffd"
        chars = SOFT_HYPHENS.get(chars, chars)
        damaged = False
        if map_error(text_page, i):
            # PDFium found no Unicode for the code and shows the code itself: the glyph's name may tell
            named = names.text(style.font, code, raw)
            chars, damaged = (named, False) if named else (chars, True)
        if REFUSED.match(chars) or chars in ("\ufffd", "\t", "\n", "\r"):  # (a tab or line end left here is a
            chars, damaged = "\ufffd", True  # code shown as itself) reported by the reader with its page and line
        raw.FPDFText_GetCharOrigin(text_page, i, *origin)
        raw.FPDFText_GetLooseCharBox(text_page, i, loose_ref)
        turn = style.turn
        frame = frames.get(turn)
        if frame is None:
            frame = frames[turn] = _frame(turn, box)
        cos, sin, fx, fy = frame
        if turn == 0:
            x0, x1, y = loose.left - fx, loose.right - fx, oy.value - fy
        else:
            xs = [x * cos + yy * sin - fx for x in (loose.left, loose.right) for yy in (loose.bottom, loose.top)]
            x0, x1, y = min(xs), max(xs), -ox.value * sin + oy.value * cos - fy
        ink = y
        if chars.isdigit():  # only a digit may be a footnote marker in a superscript glyph: where its ink starts
            raw.FPDFText_GetCharBox(text_page, i, *tight)
            ink = min(-x * sin + yy * cos - fy for x in (left.value, right.value) for yy in (bottom.value, top.value))
        font_name = style.font.name if style.font else ""
        glyph = Glyph(chars, x0, x1, y, ink, style.size, style.bold, style.italic, font_name, damaged, turn)
        parts = [glyph] if len(chars) == 1 else [
            replace(glyph, char=c, x0=x0 + (x1 - x0) * k / len(chars), x1=x0 + (x1 - x0) * (k + 1) / len(chars))
            for k, c in enumerate(chars)]  # a ligature's name gives its letters: each a share of its box
        why = style.hidden
        cx, cy = (loose.left + loose.right) / 2, (loose.bottom + loose.top) / 2
        if why is None and not (box[0] - 1 <= cx <= box[2] + 1 and box[1] - 1 <= cy <= box[3] + 1):
            why = "text outside the page (beyond its crop box or media box)"
        for part in parts:
            if why is not None:
                hidden.append((part, why))
            elif style.pending is not None:
                pending.append((part, style.pending, cx, cy))
            else:
                out.append(part)
                if code != 32:
                    tally[(font_name, damaged)] += 1
    if pending:
        under = _backdrops(page, raw)
        for glyph, (kind, why), cx, cy in pending:
            if any(l <= cx <= r and b <= cy <= t and (image or kind == "light") for l, b, r, t, image in under):
                out.append(glyph)  # light text on a dark shape or an image, invisible text on a scan: seen
                tally[(glyph.font, glyph.damaged)] += glyph.char != " "
            else:
                hidden.append((glyph, why))
    for (font_name, damaged), k in tally.items():
        counts = fonts.printed.setdefault(font_name, [0, 0])
        counts[0] += k
        counts[1] += k if damaged else 0
    return out, hidden


def _frame(turn: int, box: tuple[float, ...]) -> tuple[float, float, float, float]:
    """(cos, sin, x, y): a point of the page turned by -turn degrees (so a baseline of that direction
    runs along x), less the corner of the page box turned so: x from the box's edge, y from its foot."""
    if turn == 0:
        return 1.0, 0.0, box[0], box[1]
    t = math.radians(turn)
    cos, sin = math.cos(t), math.sin(t)
    corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]
    return cos, sin, min(x * cos + y * sin for x, y in corners), min(-x * sin + y * cos for x, y in corners)


def _style(text_page: Any, i: int, obj: Any, raw: Any, fonts: Fonts) -> _Style:
    """The style of the text object character i belongs to: size and direction from its matrix (the font
    size times the matrix's scale across the baseline: InDesign sets 1 pt text scaled up), weight and slant
    from its font (and its render mode, its matrix's slant), and whether a reader sees it."""
    matrix = raw.FS_MATRIX()
    raw.FPDFText_GetMatrix(text_page, i, ctypes.byref(matrix))
    a, b, c, d = matrix.a, matrix.b, matrix.c, matrix.d
    along, across = math.hypot(a, b), math.hypot(c, d)
    size = raw.FPDFText_GetFontSize(text_page, i) * (abs(a * d - b * c) / along if along else 1.0)
    turn = round(math.degrees(math.atan2(b, a))) % 360 if along else 0
    slanted = bool(along and across and abs(a * c + b * d) / (along * across) > 0.14)  # 8 degrees or more
    font = fonts.font(raw.FPDFTextObj_GetFont(obj)) if obj else None
    mode = raw.FPDFTextObj_GetTextRenderMode(obj) if obj else 0
    bold = bool(font and font.bold)
    if mode == 2 and not bold:  # filled and stroked: a made-up bold, when the stroke has a width
        width = ctypes.c_float()
        bold = bool(raw.FPDFPageObj_GetStrokeWidth(obj, ctypes.byref(width))) and width.value > 0.01 * size
    hidden: str | None = None
    pending: tuple[str, str] | None = None
    if size < MIN_SIZE:
        hidden = f"text set in {size:.2g} pt, under {MIN_SIZE:g} pt"
    elif mode in (3, 7):  # (a scan's OCR layer is so: on its page's image it is what the image shows)
        pending = ("unseen", f"invisible text (text render mode {mode})")
    elif obj:
        rgba = [ctypes.c_uint() for _ in range(4)]
        get = raw.FPDFPageObj_GetStrokeColor if mode in (1, 5) else raw.FPDFPageObj_GetFillColor
        if get(obj, *(ctypes.byref(v) for v in rgba)):
            r, g, b_, alpha = (v.value for v in rgba)
            if alpha < 26:
                pending = ("unseen", f"transparent text (opacity {alpha * 100 // 255}%)")
            elif _contrast_with_white(r, g, b_) < LIGHT_CONTRAST:
                shade = "white" if (r, g, b_) == (255, 255, 255) else f"very light (#{r:02x}{g:02x}{b_:02x})"
                pending = ("light", f"{shade} text on the page's white")
    return _Style(font, round(size, 2), bold, bool(font and font.italic) or slanted, turn, hidden, pending)


def _contrast_with_white(r: int, g: int, b: int) -> float:
    """The contrast ratio of a colour with white (WCAG's: 1 for white, 21 for black)."""
    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 1.05 / (0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b) + 0.05)


def _backdrops(page: Any, raw: Any) -> list[tuple[float, float, float, float, bool]]:
    """The boxes (left, bottom, right, top, on the page, and whether an image) of the page's filled shapes
    that are not light, its images and its shadings: what light text may be printed on and be seen."""
    out: list[tuple[float, float, float, float, bool]] = []
    todo: list[tuple[Any, tuple[float, ...] | None]] = [
        (raw.FPDFPage_GetObject(page, k), None) for k in range(raw.FPDFPage_CountObjects(page))]
    box = [ctypes.c_float() for _ in range(4)]
    count = 0
    while todo and count < 100_000:
        obj, matrix = todo.pop()
        count += 1
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == raw.FPDF_PAGEOBJ_FORM:
            m = raw.FS_MATRIX()
            raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(m))
            inner = (m.a, m.b, m.c, m.d, m.e, m.f) if matrix is None else _times((m.a, m.b, m.c, m.d, m.e, m.f), matrix)
            todo += [(raw.FPDFFormObj_GetObject(obj, k), inner) for k in range(raw.FPDFFormObj_CountObjects(obj))]
            continue
        if kind == raw.FPDF_PAGEOBJ_PATH:
            fill, stroke = ctypes.c_int(), ctypes.c_int()
            rgba = [ctypes.c_uint() for _ in range(4)]
            if not raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke)) or not fill.value or \
                    not raw.FPDFPageObj_GetFillColor(obj, *(ctypes.byref(v) for v in rgba)) or \
                    _contrast_with_white(*(v.value for v in rgba[:3])) < LIGHT_CONTRAST:
                continue
        elif kind not in (raw.FPDF_PAGEOBJ_IMAGE, raw.FPDF_PAGEOBJ_SHADING):
            continue
        if raw.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in box)):
            l, b, r, t = (v.value for v in box)
            if matrix is not None:  # an object of a form: its box is in the form's space
                xs_ys = [_apply(matrix, x, y) for x in (l, r) for y in (b, t)]
                l, r = min(p[0] for p in xs_ys), max(p[0] for p in xs_ys)
                b, t = min(p[1] for p in xs_ys), max(p[1] for p in xs_ys)
            out.append((l, b, r, t, kind == raw.FPDF_PAGEOBJ_IMAGE))
    return out


def _times(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix m then n (PDF's row-vector convention)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _codes(text_page: Any, n: int, raw: Any) -> list[int]:
    """The Unicode code of each of the page's n characters: in one call when each is one UTF-16 unit
    (the usual case), else one call a character."""
    buffer = (ctypes.c_ushort * (n + 1))()
    written = raw.FPDFText_GetText(text_page, 0, n, buffer)
    units = list(buffer[:max(written - 1, 0)])
    if len(units) == n and not any(0xD800 <= u < 0xE000 for u in units):
        return units
    return [raw.FPDFText_GetUnicode(text_page, i) for i in range(n)]

