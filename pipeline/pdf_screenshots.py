"""PNG pictures of the printed book, for a person to look at: `python -m pipeline.pdf_screenshots build`.

Reads: <build>/pdf/spelregels-<edition>.pdf (the Dutch book, as `make build` makes it) and <build>/corpus.xml
(to find a page with a footnote).
Writes: <build>/screenshots/pdf-<edition>-<page>.png for the title page (titelpagina), the colophon
(colofon), the first contents page (inhoud), the first page whose running head names two articles
(kopregel), the first page with a footnote (voetnoot) and the first with a commentary (toelichting).
"""
import re
import struct
import sys
import zlib
from pathlib import Path

from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]  # (no type information)
from lxml import etree

from .core import lang, tree
from .outputs.book.source import label_name
from .outputs.pdf import pdf_name

SCALE = 2.0  # 144 dpi: sharp enough to judge the typesetting
DUTCH = lang.profile("nl")  # the pictures are of the Dutch book: its file names and its pages' words


def png_bytes(width: int, height: int, rgb: bytes, stride: int) -> bytes:
    """A PNG of 8-bit RGB rows (`stride` bytes apart), written with the standard library only."""
    raw = b"".join(b"\x00" + rgb[y * stride:y * stride + width * 3] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def render_page(document: Any, index: int, scale: float = SCALE) -> bytes:
    """Page `index` (0-based) of an open pdfium document as PNG bytes on white."""
    bitmap = document[index].render(scale=scale, rev_byteorder=True, fill_color=(255, 255, 255, 255),
                                    force_bitmap_format=pdfium.raw.FPDFBitmap_BGR)
    return png_bytes(bitmap.width, bitmap.height, bytes(bitmap.buffer), bitmap.stride)


def _words(text: str) -> str:
    # Page text as pdfium gives it: lines broken, words hyphenated at line ends.
    return re.sub(r"\s+", " ", re.sub(r"-\r?\n", "", text)).strip()


def page_texts(document: Any) -> list[str]:
    return [_words(document[i].get_textpage().get_text_range()) for i in range(len(document))]


def named_page(document: Any, name: str) -> int | None:
    """The page (0-based) of the PDF named destination `name` (a Typst label), or None."""
    dest = pdfium.raw.FPDF_GetNamedDestByName(document.raw, name.encode("utf-8"))
    index = pdfium.raw.FPDFDest_GetDestPageIndex(document.raw, dest) if dest else -1
    return int(index) if index >= 0 else None


def footnote_page(texts: list[str], edition: etree._Element, start: int = 2) -> int | None:
    """The first page (0-based) from `start` (the first page of the articles) that shows one of the
    edition's notes, or None."""
    openings = [" ".join(tree.plain_text(n).split()[:4]) for n in edition.iter("note")]
    for index, text in enumerate(texts[start:], start=start):
        if any(opening and opening in text for opening in openings):
            return index
    return None


def commentary_page(texts: list[str], edition: etree._Element, start: int = 2) -> int | None:
    """The first page (0-based) from `start` that shows the opening words of a commentary, or None."""
    openings = [" ".join(tree.plain_text(p).split()[:5]) for c in edition.iter("commentary") for p in c.iter("p")]
    for index, text in enumerate(texts[start:], start=start):
        if any(opening and opening in text for opening in openings):
            return index
    return None


def running_head_page(texts: list[str], start: int = 2) -> int | None:
    """The first page (0-based) from `start` whose running head names a range of articles
    ("Artikel 24–41"), or None."""
    for index, text in enumerate(texts[start:], start=start):
        if re.match(r"^\d*\s*\S+ \w+–\w+", text):
            return index
    return None


def screenshots(build_dir: str | Path) -> list[Path]:
    """Render the pages named in the module docstring of every edition's PDF."""
    build_dir = Path(build_dir)
    out = build_dir / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    corpus = etree.parse(str(build_dir / "corpus.xml")).getroot()
    written: list[Path] = []
    for edition in corpus.iterchildren("edition"):
        path = build_dir / pdf_name(tree.attr(edition, "id"), DUTCH)
        document = pdfium.PdfDocument(str(path))
        try:
            texts = page_texts(document)
            first_article = next((named_page(document, label_name(tree.attr(a, "id")))
                                  for a in edition.iterchildren("article")), None) or 2
            pages = {"titelpagina": 0, "colofon": 1, "inhoud": named_page(document, "contents"),
                     "kopregel": running_head_page(texts, first_article),
                     "voetnoot": footnote_page(texts, edition, first_article),
                     "toelichting": commentary_page(texts, edition, first_article)}
            for name, index in pages.items():
                if index is None:
                    continue
                target = out / f"pdf-{edition.get('id')}-{name}.png"
                target.write_bytes(render_page(document, index))
                written.append(target)
        finally:
            document.close()
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    build_dir = argv[0] if argv else "build"
    for path in screenshots(build_dir):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
