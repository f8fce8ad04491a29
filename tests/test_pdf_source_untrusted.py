"""A PDF source as untrusted input: a page whose compressed streams unpack to far more than a page needs (a
decompression bomb) is refused before PDFium unpacks it (pipeline/reading/book/pdf.py,
_guard_unpacked). The PDFs are written by hand here, their streams packed with zlib."""
import io
import time
import zlib

import pikepdf
import pytest
from hypothesis import given, strategies as st

from conftest import run_lawbook
from pipeline.reading.book import pdf as pdfadapter

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def packed_spaces(mib: int) -> bytes:
    """`mib` MiB of spaces, packed with FlateDecode (some KiB)."""
    pack = zlib.compressobj(9)
    chunk = b" " * 2**20
    return b"".join(pack.compress(chunk) for _ in range(mib)) + pack.flush()


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d /Filter /FlateDecode %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def handmade_pdf(objects: list[bytes], pages: list[int]) -> bytes:
    """A PDF of `objects` (numbered from 3: 1 is the catalogue, 2 the page tree) whose pages are the objects
    numbered in `pages`, with its cross-reference table and trailer."""
    kids = b" ".join(b"%d 0 R" % n for n in pages)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages))] + objects
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def page(contents: int, xobjects: bytes = b"") -> bytes:
    return (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 3 0 R >> %s>> "
            b"/Contents %d 0 R >>" % (xobjects, contents))


TEXT = zlib.compress(b"BT /F1 11 Tf 72 500 Td (LAW 1) Tj 0 -20 Td (The text of the law.) Tj ET")


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return packed_spaces(64)


def refused(tmp_path, name: str, data: bytes) -> tuple[str, float]:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / name).write_bytes(data)
    (folder / "sources.toml").write_text(f'language = "en"\n\n[[source]]\nfile = "{name}"\nedition = "2017"\n',
                                         encoding="utf-8")
    start = time.monotonic()
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    took = time.monotonic() - start
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("error:") == 1
    return result.stderr, took


def test_page_content_that_unpacks_to_64_mib_is_refused_unread(tmp_path, bomb):
    # Page 1 is a page of text; page 2's content stream is 64 KiB that unpacks to 64 MiB of spaces.
    data = handmade_pdf([FONT, stream(TEXT), page(4), stream(bomb), page(6)], pages=[5, 7])
    assert len(data) < 100_000
    err, took = refused(tmp_path, "bomb.pdf", data)
    assert "bomb.pdf:p2: page 2's compressed content unpacks to more than 16 MiB, over the limit for one page" in err
    assert took < 10  # PDFium itself would take seconds and the memory of the whole stream


def test_a_form_the_page_draws_that_unpacks_to_64_mib_is_refused(tmp_path, bomb):
    # The page's own content is small; the form XObject it draws (a content stream too) is the bomb.
    form = stream(bomb, b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] ")
    draw = zlib.compress(b"/Fm1 Do")
    data = handmade_pdf([FONT, form, stream(draw), page(5, b"/XObject << /Fm1 4 0 R >> ")], pages=[6])
    err, _ = refused(tmp_path, "form.pdf", data)
    assert "form.pdf:p1: page 1's compressed content unpacks to more than 16 MiB" in err


def test_a_stream_packed_with_lzw_that_could_unpack_past_the_limit_is_refused(tmp_path):
    lzw = b"<< /Length 20000 /Filter /LZWDecode >>\nstream\n" + b"\x80" * 20000 + b"\nendstream"
    data = handmade_pdf([FONT, lzw, page(4)], pages=[5])
    err, _ = refused(tmp_path, "old.pdf", data)
    assert "old.pdf:p1: page 1 has a stream packed with LZWDecode of 20000 bytes, which could unpack to more " \
           "than 16 MiB" in err


@given(st.binary(max_size=3000), st.integers(min_value=0, max_value=4000))
def test_inflate_gives_the_first_limit_and_one_bytes_and_never_more(data, limit):
    assert pdfadapter._inflate(zlib.compress(data), limit) == data[:limit + 1]


@given(st.binary(min_size=1, max_size=3000), st.integers(min_value=1, max_value=200))
def test_inflate_of_a_stream_cut_off_gives_a_start_of_the_text(data, cut):
    packed = zlib.compress(data)
    assert data.startswith(pdfadapter._inflate(packed[:max(len(packed) - cut, 1)], 10_000))


@given(st.binary(max_size=300), st.binary(min_size=1, max_size=300), st.integers(min_value=0, max_value=500))
def test_inflate_of_a_damaged_stream_never_raises_nor_passes_its_limit(data, garbage, limit):
    packed = zlib.compress(data)
    assert len(pdfadapter._inflate(packed[:len(packed) // 2] + garbage, limit)) <= limit + 1


def test_a_page_tree_that_loops_is_walked_once():
    # The page's /Parent points back at the page itself: its resources are looked for up the tree once, and
    # the one stream it needs is its content.
    data = handmade_pdf([FONT, stream(TEXT), page(4).replace(b"/Parent 2 0 R", b"/Parent 5 0 R")], pages=[5])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert [s.objgen for s in pdfadapter._page_streams(pdf.pages[0].obj)] == [(4, 0)]


def many_pages(count: int, rows: int) -> bytes:
    """A PDF of `count` pages that all show one content stream: "LAW 1" and `rows` lines of 70 characters."""
    lines = [b"(" + b"The director shall rule on every case the laws cover as they are written."[:70] + b") Tj T*"] * rows
    content = zlib.compress(b"BT /F1 9 Tf 40 560 Td 12 TL (LAW 1) Tj T* " + b" ".join(lines) + b" ET")
    objects = [FONT, stream(content)] + [page(4)] * count
    return handmade_pdf(objects, pages=list(range(5, 5 + count)))


def test_a_pdf_past_the_character_limit_is_refused_before_any_page_is_read(tmp_path, monkeypatch):
    # 1,999 pages (one under the page limit) of 797 characters: the 1,883rd passes 1,500,000. The characters
    # are counted on every page first; no page's characters are read (before, the first 1,882 were: 20 s).
    data = many_pages(1999, 11)
    read = []
    monkeypatch.setattr(pdfadapter, "page_glyphs", lambda *args: read.append(args) or [])
    with pytest.raises(pdfadapter.LawbookError) as caught:
        pdfadapter.page_lines(data, "boek.pdf", "boek.pdf")
    assert str(caught.value) == ("boek.pdf:p1883: the PDF holds more than 1500000 characters (at page 1883), over "
                                 "the limit for one source\n  fix: split the PDF into parts of the book")
    assert read == []


def test_a_page_past_the_page_limit_of_characters_is_refused_before_any_page_is_read(monkeypatch):
    read = []
    monkeypatch.setattr(pdfadapter, "page_glyphs", lambda *args: read.append(args) or [])
    monkeypatch.setattr(pdfadapter, "MAX_PAGE_CHARS", 100)
    with pytest.raises(pdfadapter.LawbookError) as caught:
        pdfadapter.page_lines(many_pages(3, 2), "boek.pdf", "boek.pdf")
    assert caught.value.message == ("page 1 holds 149 characters, over the limit of 100 for one page: no printed "
                                    "page of a book holds that many")
    assert read == []


def test_a_page_tree_that_loops_is_one_message_naming_the_loop(tmp_path):
    # The page tree's root lists a page list (object 5) whose one kid is the root again.
    data = handmade_pdf([FONT, stream(TEXT), b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>"], pages=[5])
    err, _ = refused(tmp_path, "lus.pdf", data)
    assert err == (f"lawbook: error: {tmp_path / 'src' / 'lus.pdf'}: the PDF is damaged: its page tree loops (object "
                   "2 0 is found again below itself), so its pages cannot be counted\n"
                   "  fix: download or export the PDF again\n")
    assert "BytesIO" not in err
