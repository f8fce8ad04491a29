"""The PDF adapter (pipeline/reading/book/pdf.py) on PDFs made here, page by page: the lines it makes of
a PDF's text layer as a reader sees the page. Weight from the font's name, runs (a table's cells, a
contents entry's page number), pages in two columns read column by column and tables row by row, rotated
pages and rotated text, text no reader sees left out with its reason, fonts without a usable Unicode map
marked (and a PDF of nothing else refused), right-to-left words in their logical order, raised note
markers. Then the real books (the ACBL's English book and the FFB's French one, read from ../shared/ and
skipped where absent): every page read, as a reader reads them.

The PDFs are made with Typst (as tests/test_pdf_source.py does) or written by hand with pikepdf (content
streams of the standard fonts Helvetica and Courier, a Type 3 font, a page's /Rotate)."""
import io
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest

from conftest import ROOT
from pipeline.core.errors import LawbookError
from pipeline.reading.book import pdf as pdfadapter, pdf_glyphs
from test_pdf_source import build, compile_typst, pdf_source

ENGLISH_PDF = ROOT.parent / "shared" / "english" / "laws2017-en.pdf"
FRENCH_PDF = ROOT.parent / "shared" / "french" / "code2017-fr.pdf"

Font = Callable[[pikepdf.Pdf], pikepdf.Dictionary]


def standard(name: str) -> Font:
    """One of the PDF's standard fonts (Helvetica, Courier …), in WinAnsi: every reader maps its codes."""
    return lambda pdf: pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                          BaseFont=pikepdf.Name("/" + name), Encoding=pikepdf.Name.WinAnsiEncoding)


HELVETICA = {"/F1": standard("Helvetica"), "/F2": standard("Helvetica-Bold"), "/F3": standard("Helvetica-Oblique"),
             "/C1": standard("Courier")}


def one_page(content: bytes, fonts: dict[str, Font] | None = None, size: tuple[float, float] = (300, 400),
             rotate: int = 0, crop: list[float] | None = None, alpha: bool = False) -> bytes:
    """A PDF of one page drawing `content` with `fonts` (resource name -> font)."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=size)
    page = pdf.pages[0]
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(
        {name: pdf.make_indirect(font(pdf)) for name, font in (fonts or HELVETICA).items()}))
    if alpha:  # /GS1 gs: text filled with no opacity
        resources.ExtGState = pikepdf.Dictionary(GS1=pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.0))
    page.obj.Resources = resources
    page.obj.Contents = pdf.make_stream(content)
    if rotate:
        page.obj.Rotate = rotate
    if crop:
        page.obj.CropBox = pikepdf.Array(crop)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def text(font: str, size: float, x: float, y: float, words: str) -> bytes:
    """Words set at (x, y) in a font of HELVETICA (a string of the PDF: ( ) and \\ escaped)."""
    escaped = words.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /{font} {size:g} Tf {x:g} {y:g} Td ({escaped}) Tj ET\n".encode("latin-1")


def lines_of(data: bytes) -> list[pdfadapter.PageLine]:
    return pdfadapter.page_lines(data, "probe.pdf", "probe.pdf")


def texts(data: bytes) -> list[str]:
    return [line.text for line in lines_of(data) if line.hidden is None]


def cells(line: pdfadapter.PageLine) -> list[str]:
    return [line.text[run.start:run.end] for run in line.runs]


# -- weight and slant -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, weight, flags, bold", [
    ("Calibri", 640, 4, False),  # the French book's regular text: PDFium makes its weight 640 from its stems
    ("Calibri,Bold", 660, 4, True), ("Calibri,BoldItalic", 655, 4, True), ("Verdana", 655, 4, False),
    ("Gotham-Book", 400, 4, False), ("Gotham-Medium", 500, 4, False), ("Sentinel-Bold", 700, 6, True),
    ("MinionPro-Semibold", 600, 6, True), ("Arial-BlackItalic", 900, 68, True), ("Futura-Heavy", 800, 4, True),
    ("HelveticaNeue-DemiBold", 600, 4, True), ("Gotham-Light", 700, 4, False),  # the name says Light
    ("F1", 700, 4, True), ("F1", 690, 4, False), ("F1", 400, 1 << 18, True),  # no weight in the name
])
def test_bold_is_read_from_the_fonts_name_first_and_its_weight_where_the_name_says_nothing(name, weight, flags,
                                                                                          bold):
    assert pdf_glyphs.font_bold(name, weight, flags) is bold


def calibri(name: str) -> Font:
    """A TrueType font not embedded, named as a word processor names it, its weight only in its stems:
    PDFium gives it the weight 640, as the French book's regular Calibri."""
    def font(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
        descriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/" + name), Flags=32,
                                        FontBBox=[0, -250, 1000, 750], ItalicAngle=0, Ascent=750, Descent=-250,
                                        CapHeight=700, StemV=128)
        return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType,
                                  BaseFont=pikepdf.Name("/" + name), Encoding=pikepdf.Name.WinAnsiEncoding,
                                  FirstChar=32, LastChar=126, Widths=[500] * 95,
                                  FontDescriptor=pdf.make_indirect(descriptor))
    return font


def test_a_pdfs_lines_are_bold_and_italic_as_their_fonts_names_and_matrices_say():
    content = (text("F1", 10, 40, 360, "Regular Helvetica") + text("F2", 10, 40, 340, "Bold Helvetica")
               + text("F3", 10, 40, 320, "Oblique Helvetica") + text("R1", 10, 40, 300, "Regular Calibri")
               + text("B1", 10, 40, 280, "Bold Calibri")
               + b"BT /F1 10 Tf 1 0 0.3 1 40 260 Tm (Slanted by its matrix) Tj ET\n")
    lines = lines_of(one_page(content, {**HELVETICA, "/R1": calibri("Calibri"), "/B1": calibri("Calibri,Bold")}))
    assert [(line.text, line.bold, line.italic) for line in lines] == [
        ("Regular Helvetica", False, False), ("Bold Helvetica", True, False), ("Oblique Helvetica", False, True),
        ("Regular Calibri", False, False), ("Bold Calibri", True, False), ("Slanted by its matrix", False, True)]


def test_the_type_size_is_the_fonts_size_times_the_text_matrix():
    # InDesign sets its text in 1 pt, scaled by the matrix to 9 pt: the line's size is 9.
    content = b"BT /F1 1 Tf 8.82 0 0 9 40 300 Tm (Scaled text) Tj ET\n" + text("F1", 9, 40, 280, "Plain text")
    assert [(line.text, line.size) for line in lines_of(one_page(content))] == [("Scaled text", 9.0),
                                                                                ("Plain text", 9.0)]


# -- runs: a table's cells, a contents entry's page number ------------------------------------------------
BOARDS = [("North Dealer", "1", "5", "9", "13"), ("East Dealer", "2", "6", "10", "14"),
          ("South Dealer", "3", "7", "11", "15"), ("West Dealer", "4", "8", "12", "16")]


def courier_right(x: float, y: float, words: str, size: float = 10) -> bytes:
    """Words in Courier (every glyph 0.6 em wide) ending at x."""
    return text("C1", size, x - 0.6 * size * len(words), y, words)


def test_a_tables_rows_are_lines_and_their_cells_runs_top_to_bottom():
    # Four rows of five cells, the numbers right-aligned in their columns (set close, as the ACBL's board
    # table: a word space apart, at the same places in every row): each row one line, its cells its runs.
    content = b""
    for k, (label, *numbers) in enumerate(BOARDS):
        y = 300 - 14 * k
        content += text("F1", 10, 40, y, label) + text("F1", 10, 130, y, "Boards")
        for right, number in zip((186, 201, 216, 231), numbers):
            content += courier_right(right, y, number)
    lines = lines_of(one_page(content))
    assert [cells(line) for line in lines] == [[label, "Boards", *numbers] for label, *numbers in BOARDS]
    assert [line.text for line in lines] == [" ".join([label, "Boards", *numbers]) for label, *numbers in BOARDS]
    assert {line.column for line in lines} == {None}
    first = lines[0].runs
    assert (first[0].x0, first[1].x0, first[-1].x1) == (40.0, 130.0, 231.0)


CONTENTS = [("Definitions", "1"), ("LAW 1 - THE PACK", "7"), ("A. Rank of Cards and Suits", "7"),
            ("LAW 2 - THE DUPLICATE BOARDS", "7"), ("LAW 3 - ARRANGEMENT OF TABLES", "8")]


def test_a_contents_page_is_one_column_whose_entries_end_in_their_page_numbers():
    # Entries at the left margin, their page numbers right-aligned at the right one; the last entry is long
    # and leaves six tenths of an em before its number (less than a run's gap, a word space in Courier):
    # its number stands where the page's other numbers end, so it is a run of its own too.
    content = text("F2", 12, 90, 370, "Table of Contents")
    for k, (entry, page) in enumerate(CONTENTS):
        content += text("C1", 10, 40, 340 - 14 * k, entry) + courier_right(262, 340 - 14 * k, page)
    long_entry = "LAW 12 - DIRECTOR'S POWERS AGAIN"  # 32 characters: it ends at 232, its number starts at 238
    content += text("C1", 10, 40, 270, long_entry) + courier_right(262, 270, "15")
    lines = lines_of(one_page(content))
    assert [line.text for line in lines] == ["Table of Contents", *(f"{e} {p}" for e, p in CONTENTS),
                                             f"{long_entry} 15"]
    assert [cells(line) for line in lines[1:]] == [[e, p] for e, p in CONTENTS] + [[long_entry, "15"]]
    assert {line.column for line in lines} == {None}


def test_an_index_is_read_entry_by_entry_with_its_references_as_runs():
    # Terms at the left, their references in a column of their own: entries, not two columns of text.
    entries = [("Adjusted Score", "Definitions"), ("Application of player", "12A"), ("Artificial", "12C1(d), 12C2"),
               ("Assigned", "12C1, 86B1"), ("Average", "12C2(a)"), ("Awarding", "12C")]
    content = b"".join(text("F1", 9, 40, 350 - 11 * k, term) + text("F1", 9, 160, 350 - 11 * k, refs)
                       for k, (term, refs) in enumerate(entries))
    lines = lines_of(one_page(content))
    assert [cells(line) for line in lines] == [list(entry) for entry in entries]
    assert {line.column for line in lines} == {None}


# -- two columns -----------------------------------------------------------------------------------------
LEFT = ["The director sees to it", "that every player knows", "this before the first", "board is played and",
        "that it holds until the"]
RIGHT = ["last board of the session", "has been scored by the", "scorer at the end of the", "round, whoever may",
         "have played it before."]


def test_a_stretch_set_in_two_columns_is_read_column_by_column_under_its_title():
    content = text("F2", 12, 100, 370, "LAW 1 - THE TABLE")
    for k, (left, right) in enumerate(zip(LEFT, RIGHT)):
        content += text("F1", 9, 30, 340 - 11 * k, left) + text("F1", 9, 160, 340 - 11 * k, right)
    content += text("F1", 9, 30, 270, "A line of one column below them both, as wide as the page is.")
    lines = lines_of(one_page(content))
    assert [(line.text, line.column) for line in lines] == [
        ("LAW 1 - THE TABLE", None), *((left, 0) for left in LEFT), *((right, 1) for right in RIGHT),
        ("A line of one column below them both, as wide as the page is.", None)]
    assert [line.num for line in lines] == list(range(1001, 1001 + len(lines)))


def test_a_list_of_names_in_two_columns_set_at_tabs_is_read_column_by_column():
    # The French book's committee: the second column's names start where tabs put them, not at one edge
    # (one name of the first column reaches past where two of the second start).
    names = [("Max Bavin", 146), ("Maurizio Di Sacco", 164), ("David Harris", 146), ("Alvin Levy", 128),
             ("Chip Martel", 128)]
    right = ["Howard Weinstein", "John Wignall", "Adam Wildavsky", "Laurie Kelso (Secretary)", "Ton Kooijman (Chairman)"]
    content = text("F2", 11, 40, 360, "The drafting committee:")
    for k, ((name, x), other) in enumerate(zip(names, right)):
        content += text("F1", 11, 40, 340 - 13 * k, name) + text("F1", 11, x, 340 - 13 * k, other)
    lines = lines_of(one_page(content))
    assert [(line.text, line.column) for line in lines] == [
        ("The drafting committee:", None), *((name, 0) for name, _ in names), *((other, 1) for other in right)]


def test_a_table_of_three_columns_of_words_is_read_row_by_row():
    rows = [("Contract", "Not Vulnerable", "Vulnerable"), ("Undoubled", "Trick Value", "Trick Value"),
            ("Doubled", "Double Value", "Double Value"), ("Redoubled", "Four Times", "Four Times")]
    content = b"".join(text("F1", 9, 30, 340 - 12 * k, a) + text("F1", 9, 110, 340 - 12 * k, b)
                       + text("F1", 9, 200, 340 - 12 * k, c) for k, (a, b, c) in enumerate(rows))
    lines = lines_of(one_page(content))
    assert [cells(line) for line in lines] == [list(row) for row in rows]
    assert {line.column for line in lines} == {None}


# -- rotation ----------------------------------------------------------------------------------------------
SECTIONS = [(f"{letter}. Heading {letter}", f"The text of section {letter}, set below its heading.")
            for letter in "ABCDEFGHIJ"]


def sections(width: float, height: float) -> bytes:
    """Ten bold section headings, each with a line of text, on a page of width x height as it is shown."""
    out = b""
    y = height - 30
    for heading, body in SECTIONS:
        out += text("F2", 9, 30, y, heading) + text("F1", 9, 40, y - 11, body)
        y -= 28
    return out


# How a page drawn upright in the frame it is shown in is put on a page the viewer turns by /Rotate
# (width, height: the page as drawn, not turned): the matrix from the shown frame to the page's own.
TURNS = {90: lambda w, h: f"0 1 -1 0 {w:g} 0", 180: lambda w, h: f"-1 0 0 -1 {w:g} {h:g}",
         270: lambda w, h: f"0 -1 1 0 0 {h:g}"}


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_page_the_viewer_turns_is_read_in_its_lines_direction_top_to_bottom_as_shown(rotate):
    width, height = 300.0, 320.0  # the page in its own frame (MediaBox)
    shown = (height, width) if rotate in (90, 270) else (width, height)
    content = f"q {TURNS[rotate](width, height)} cm\n".encode() + sections(*shown) + b"Q\n"
    lines = lines_of(one_page(content, size=(width, height), rotate=rotate))
    assert [(line.text, line.bold) for line in lines] == [
        (t, bold) for heading, body in SECTIONS for t, bold in ((heading, True), (body, False))]
    assert [round(line.x) for line in lines[:4]] == [30, 40, 30, 40]  # from the shown page's left edge
    assert round(lines[0].y) == round(shown[1] - 30)


def test_text_drawn_turned_on_an_upright_page_is_read_along_its_own_lines():
    # The page's text upright, and a side note drawn turned a quarter (bottom to top) in the right margin:
    # the upright lines first (most of the page's characters), then the turned ones, each whole.
    content = text("F1", 10, 30, 360, "An upright line of the page.") + text("F1", 10, 30, 346, "And another one.")
    content += b"BT /F1 8 Tf 0 1 -1 0 270 40 Tm (A side note drawn turned) Tj ET\n"
    content += b"BT /F1 8 Tf 0 1 -1 0 280 40 Tm (in two lines) Tj ET\n"
    assert texts(one_page(content)) == ["An upright line of the page.", "And another one.",
                                        "A side note drawn turned", "in two lines"]


# -- text no reader sees -----------------------------------------------------------------------------------
def test_text_no_reader_sees_is_left_out_of_the_lines_and_given_with_why():
    content = (text("F1", 10, 30, 360, "Seen text.")
               + b"1 1 1 rg\n" + text("F1", 10, 30, 340, "White on white.") + b"0 g\n"
               + b"0 g 20 310 200 20 re f 1 1 1 rg\n" + text("F1", 10, 30, 316, "White on a black band.") + b"0 g\n"
               + b"0.95 g\n" + text("F1", 10, 30, 290, "Very light grey.") + b"0 g\n"
               + b"BT 3 Tr /F1 10 Tf 30 270 Td (Invisible words.) Tj 0 Tr ET\n"
               + text("F1", 1, 30, 250, "Tiny words.")
               + text("F1", 10, 30, 450, "Above the page.")
               + b"/GS1 gs\n" + text("F1", 10, 30, 230, "Transparent words.")
               )
    lines = lines_of(one_page(content, alpha=True))
    assert [line.text for line in lines if line.hidden is None] == ["Seen text.", "White on a black band."]
    assert {line.text: line.hidden for line in lines if line.hidden} == {
        "White on white.": "white text on the page's white",
        "Very light grey.": "very light (#f2f2f2) text on the page's white",
        "Invisible words.": "invisible text (text render mode 3)",
        "Tiny words.": "text set in 1 pt, under 2 pt",
        "Above the page.": "text outside the page (beyond its crop box or media box)",
        "Transparent words.": "transparent text (opacity 0%)"}
    assert [line.num for line in lines[2:]] == list(range(1003, 1003 + len(lines) - 2))  # after the seen lines


def test_white_words_among_seen_ones_are_never_part_of_their_line():
    content = (text("F1", 10, 30, 360, "Seen words") + b"1 1 1 rg\n" + text("F1", 10, 90, 360, "hidden words")
               + b"0 g\n" + text("F1", 10, 160, 360, "and more."))
    lines = lines_of(one_page(content))
    assert [(line.text, line.hidden) for line in lines] == [
        ("Seen words and more.", None), ("hidden words", "white text on the page's white")]


def test_light_text_on_a_dark_band_of_a_form_and_invisible_text_on_a_scan_are_seen():
    # A form (placed by its matrix) of a black band with white text on it; a scanned page's image with its
    # OCR layer (invisible text, render mode 3) over it: what the image shows is what the text says.
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(300, 400))
    page = pdf.pages[0]
    fonts = pikepdf.Dictionary({name: pdf.make_indirect(font(pdf)) for name, font in HELVETICA.items()})
    form = pdf.make_stream(b"0 g 0 0 200 20 re f 1 1 1 rg " + text("F1", 10, 10, 6, "White in a form on black.")
                           + b" 0 g", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 200, 20],
                           Resources=pikepdf.Dictionary(Font=fonts))
    scan = pdf.make_stream(b"\x80", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=1, Height=1,
                           ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
    page.obj.Resources = pikepdf.Dictionary(Font=fonts, XObject=pikepdf.Dictionary(Fm1=form, Im1=scan))
    page.obj.Contents = pdf.make_stream(
        b"q 1 0 0 1 50 300 cm /Fm1 Do Q q 200 0 0 100 20 50 cm /Im1 Do Q\n"
        b"BT 3 Tr /F1 10 Tf 30 90 Td (OCR words on the scan.) Tj 0 Tr ET\n"
        b"BT 3 Tr /F1 10 Tf 30 200 Td (Invisible words off the scan.) Tj 0 Tr ET\n"
        b"1 1 1 rg " + text("F1", 10, 30, 250, "White off the band.") + b" 0 g\n")
    out = io.BytesIO()
    pdf.save(out)
    assert [(line.text, line.hidden) for line in lines_of(out.getvalue())] == [
        ("White in a form on black.", None), ("OCR words on the scan.", None),
        ("White off the band.", "white text on the page's white"),
        ("Invisible words off the scan.", "invisible text (text render mode 3)")]


def test_a_pdf_whose_every_line_is_hidden_is_refused_with_why():
    data = one_page(b"1 1 1 rg\n" + text("F1", 10, 30, 360, "White words.") + text("F1", 1, 30, 340, "Tiny words."))
    with pytest.raises(LawbookError) as refused:
        lines_of(data)
    assert "the PDF's text is all hidden from its readers (text set in 1 pt, under 2 pt, white text on the page's " \
           "white): what its pages show is not in its text layer" in str(refused.value)


def test_text_outside_the_crop_box_is_left_out():
    content = text("F1", 10, 30, 200, "Inside the crop box.") + text("F1", 10, 30, 380, "Cropped away.")
    lines = lines_of(one_page(content, crop=[0, 0, 300, 300]))
    assert [(line.text, line.hidden) for line in lines] == [
        ("Inside the crop box.", None), ("Cropped away.", "text outside the page (beyond its crop box or media box)")]


# -- fonts without a usable Unicode map -------------------------------------------------------------------
def cipher(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
    """A Type 3 font whose glyphs have names of no meaning (g0, g1 …) and no ToUnicode map: a PDF reader
    can only show its codes, which are each letter's code plus one ("Uijt" prints "This")."""
    procs = {f"/g{k}": pdf.make_stream(b"500 0 0 0 400 700 d1 0 0 400 700 re f") for k in range(95)}
    return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 500, 700],
                              FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=pikepdf.Dictionary(procs),
                              Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                                          Differences=[32, *(pikepdf.Name(k) for k in procs)]),
                              FirstChar=32, LastChar=126, Widths=[500] * 95, Resources=pikepdf.Dictionary())


def test_a_font_whose_codes_map_to_no_unicode_is_marked_damaged_where_it_prints():
    content = text("F1", 10, 30, 360, "Plain words, then") + text("T3", 10, 30, 346, "Uijt jt dJqifsfe") \
        + text("F1", 10, 30, 332, "and plain words again.")
    lines = lines_of(one_page(content, {**HELVETICA, "/T3": cipher}))
    assert [(line.text, line.damaged) for line in lines] == [
        ("Plain words, then", ()), ("Uijt jt dJqifsfe", ((0, 16, "unnamed font"),)), ("and plain words again.", ())]


def test_a_pdf_whose_every_font_maps_no_unicode_is_refused_naming_the_fonts():
    data = one_page(text("T3", 10, 30, 360, "Uijt jt ufyu") + text("T3", 10, 30, 340, "Npsf ufyu"), {"/T3": cipher})
    with pytest.raises(LawbookError) as refused:
        lines_of(data)
    assert "the PDF's text cannot be read: none of its fonts (unnamed font) maps the codes of its characters to " \
           "Unicode" in str(refused.value)


def test_a_pdf_whose_every_font_maps_no_unicode_is_one_error_of_the_build(tmp_path):
    data = one_page(text("T3", 10, 30, 360, "Uijt jt ufyu") + text("T3", 10, 30, 340, "Npsf ufyu"), {"/T3": cipher})
    result = build(pdf_source(tmp_path, "cipher.pdf", data), tmp_path / "out")
    assert result.returncode != 0 and result.stderr.count("error:") == 1
    assert "cipher.pdf: the PDF's text cannot be read: none of its fonts (unnamed font)" in result.stderr


def test_the_bold_font_without_its_tounicode_map_is_marked_and_the_other_read():
    # lawbook's own kind of PDF, its bold font's ToUnicode map taken away: PDFium can map none of its glyphs.
    data = compile_typst("#set page(width: 12cm, height: 6cm, margin: 1cm)\n#set text(size: 10pt)\n"
                         "Plain text here. *Bold words here.*\n")
    pdf = pikepdf.open(io.BytesIO(data))
    for font in pdf.pages[0].Resources.Font.values():
        if "Bold" in str(font.BaseFont):
            del font["/ToUnicode"]
    out = io.BytesIO()
    pdf.save(out)
    [line] = lines_of(out.getvalue())
    assert line.text.startswith("Plain text here. ") and not any(c in line.text for c in "\t\n\r")
    assert "\ufffd" in line.text[17:]  # its glyphs' codes 1 to 31 are no text
    assert line.damaged == ((17, len(line.text), "LibertinusSerif-Bold"),)


def mapped_to(target: str) -> Font:
    """Helvetica with a ToUnicode map that maps A, B and C to `target` (four hex digits)."""
    def font(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
        cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange "
                f"<00> <FF> endcodespacerange 3 beginbfchar <41> <{target}> <42> <{target}> <43> <{target}> endbfchar "
                "endcmap CMapName currentdict /CMap defineresource pop end end").encode()
        return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                                  Encoding=pikepdf.Name.WinAnsiEncoding, ToUnicode=pdf.make_stream(cmap))
    return font


@pytest.mark.parametrize("target", ["E000", "FFFD"])
def test_a_tounicode_map_to_private_use_or_the_replacement_character_is_damage(target):
    lines = lines_of(one_page(text("F1", 10, 30, 360, "Plain text") + text("P1", 10, 30, 340, "ABC"),
                              {**HELVETICA, "/P1": mapped_to(target)}))
    assert [(line.text, line.damaged) for line in lines] == [("Plain text", ()),
                                                             ("\ufffd" * 3, ((0, 3, "Helvetica"),))]


def ligatures(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
    """Helvetica whose codes 1 and 2 are the ligatures named as the Adobe Glyph List names them (f_f_l,
    f_f), as the ACBL's fonts have them: PDFium knows no Unicode for these names."""
    encoding = pikepdf.Dictionary(Type=pikepdf.Name.Encoding, BaseEncoding=pikepdf.Name.WinAnsiEncoding,
                                  Differences=[1, pikepdf.Name("/f_f_l"), pikepdf.Name("/f_f")])
    return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                              Encoding=encoding)


def test_a_ligature_glyph_pdfium_cannot_map_is_read_from_its_name():
    lines = lines_of(one_page(b"BT /L1 10 Tf 30 360 Td (The Shu\\001e and the O\\002ending Side) Tj ET\n",
                              {"/L1": ligatures}))
    assert [(line.text, line.damaged) for line in lines] == [("The Shuffle and the Offending Side", ())]


# -- right to left -------------------------------------------------------------------------------------------
def test_hebrew_is_read_in_its_logical_order_with_its_numbers_and_brackets():
    data = compile_typst("#set page(width: 12cm, height: 6cm, margin: 1cm)\n#set text(size: 10pt)\n"
                         "#text(lang: \"he\", dir: rtl)[שלום עולם (כאן) 123]\n\n"
                         "mixed: abc שלום def\n")
    assert texts(data) == ["שלום עולם (כאן) 123", "mixed: abc שלום def"]


# -- raised markers --------------------------------------------------------------------------------------
def test_raised_asterisks_and_daggers_are_marker_runs_and_a_notes_marker_starts_its_line():
    # (Helvetica's widths: "exiger" in 11 pt ends at 59.95, "autorise" at 69.13, "a dagger" at 73.42)
    content = (text("F1", 11, 30, 360, "exiger") + b"BT /F1 7 Tf 60 364 Td (*) Tj ET\n"
               + text("F1", 11, 68, 360, "que la face")
               + text("F1", 11, 30, 340, "autorise") + b"BT /F1 7 Tf 69.2 344 Td (**) Tj ET\n"
               + text("F1", 11, 30, 320, "a dagger") + b"BT /F1 7 Tf 73.5 324 Td (\x86) Tj ET\n"
               + text("F1", 11, 30, 300, "a star * on the line")
               + b"BT /F1 6.5 Tf 30 77 Td (*) Tj ET\n" + text("F1", 10, 34, 73.5, "La FFB ne l'exige pas."))
    lines = lines_of(one_page(content))
    assert [(line.text, line.raised) for line in lines] == [
        ("exiger* que la face", ((6, 7),)), ("autorise**", ((8, 10),)), ("a dagger\u2020", ((8, 9),)),
        ("a star * on the line", ()), ("* La FFB ne l'exige pas.", ((0, 1),))]


# -- the real books ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def english() -> list[pdfadapter.PageLine]:
    if not ENGLISH_PDF.exists():
        pytest.skip(f"the ACBL's English book is not at {ENGLISH_PDF}: the tests on a real publisher's PDF are skipped")
    return pdfadapter.page_lines(ENGLISH_PDF.read_bytes(), str(ENGLISH_PDF), ENGLISH_PDF.name)


@pytest.fixture(scope="module")
def french() -> list[pdfadapter.PageLine]:
    if not FRENCH_PDF.exists():
        pytest.skip(f"the FFB's French book is not at {FRENCH_PDF}: the tests on a real publisher's PDF are skipped")
    return pdfadapter.page_lines(FRENCH_PDF.read_bytes(), str(FRENCH_PDF), FRENCH_PDF.name)


def page(lines: list[pdfadapter.PageLine], number: int) -> list[pdfadapter.PageLine]:
    return [line for line in lines if line.page == number]


def test_the_english_book_is_read_whole_its_contents_pages_as_one_column(english):
    assert {line.page for line in english} == set(range(1, 158)) - {2, 156}  # two pages are blank
    contents = page(english, 11)
    entry = next(line for line in contents if line.text == "LAW 1 - THE PACK 7")
    assert cells(entry) == ["LAW 1 - THE PACK", "7"]
    numbered = [line for line in contents if line.text[-1].isdigit() and line.text != "vii"]
    assert len(numbered) == 27 and all(cells(line)[-1] == line.text.split()[-1] for line in numbered)
    assert "A. The Shuffle 9" in [line.text for line in contents]  # its ligature's glyph name read
    assert all(line.column is None for p in range(11, 24) for line in page(english, p))


def test_the_english_committee_lists_are_read_column_by_column(english):
    lines = [(line.text, line.column) for line in page(english, 9)]
    first = lines.index(("Max Bavin (England)", 0))
    assert lines[first:first + 8] == [
        ("Max Bavin (England)", 0), ("Maurizio Di Sacco (Italy)", 0), ("David Harris (England)", 0),
        ("Alvin Levy (USA)", 0), ("Chip Martel (USA)", 1), ("Howard Weinstein (USA)", 1),
        ("John Wignall (New Zealand)", 1), ("Adam Wildavsky (USA)", 1)]


def test_the_english_tables_rows_keep_their_cells(english):
    imps = [cells(line) for line in page(english, 114) if line.text.startswith("0–10")]
    assert imps == [["0–10", "0", "370–420", "9", "1500–1740", "17"]]
    boards = [cells(line) for line in page(english, 31) if "Boards" in line.text]
    assert boards[0] == ["North Dealer", "Boards", "1", "5", "9", "13"] and len(boards) == 8


def test_no_line_of_the_english_book_is_damaged_or_hidden(english):
    # Its fonts have no ToUnicode maps; their encodings name every glyph (the ligatures f_f, f_f_i, f_f_l by
    # the Adobe Glyph List's rule); its white text stands on dark bands (the cover, the scoring tables' heads).
    assert [line.num for line in english if line.damaged or line.hidden] == []
    assert "\ufffd" not in "".join(line.text for line in english)
    heads = [line.text for line in page(english, 112)]
    assert "At a Notrump Contract" in heads


def test_the_french_book_is_read_whole_its_regular_text_not_bold(french):
    assert len({line.page for line in french}) == 126
    body = [line for line in page(french, 19) if line.text.startswith("Le Bridge est joué en tournoi")]
    assert len(body) == 1 and body[0].bold is False and body[0].bold_head == 0
    heading = next(line for line in page(french, 19) if line.text.startswith("LOI 2 - LES ÉTUIS DE TOURNOI"))
    assert heading.bold is True
    assert sum(line.bold for line in french) * 4 < len(french)


def test_the_french_board_table_gives_eight_rows_of_cells(french):
    rows = [cells(line) for line in page(french, 19) if "Étuis" in line.text and len(line.runs) > 2]
    assert rows == [[label, "Étuis", *numbers] for label, *numbers in [
        ("Nord donneur", "1", "5", "9", "13"), ("Est donneur", "2", "6", "10", "14"),
        ("Sud donneur", "3", "7", "11", "15"), ("Ouest donneur", "4", "8", "12", "16"),
        ("Personne vulnérable", "1", "8", "11", "14"), ("Nord-Sud vulnérable", "2", "5", "12", "15"),
        ("Est-Ouest vulnérable", "3", "6", "9", "16"), ("Tous vulnérables", "4", "7", "10", "13")]]


def test_the_french_scoring_tables_and_index_are_read_row_by_row(french):
    assert all(line.column is None for p in (92, 93, 94, *range(108, 127)) for line in page(french, p))
    row = next(line for line in page(french, 93) if line.text.startswith("Pour la première levée de chute"))
    assert cells(row) == ["Pour la première levée de chute", "50", "100", "200", "100", "200", "400"]
    entry = next(line for line in page(french, 108) if line.text.startswith("Carte, reprise"))
    assert cells(entry) == ["Carte, reprise", "47"]


def test_the_french_committee_is_read_column_by_column(french):
    names = [(line.text.strip(), line.column) for line in page(french, 5) if line.column is not None]
    assert names == [("Max Bavin", 0), ("Maurizio Di Sacco", 0), ("David Harris", 0), ("Alvin Levy", 0),
                     ("Chip Martel", 0), ("Howard Weinstein", 1), ("John Wignall", 1), ("Adam Wildavsky", 1),
                     ("Laurie Kelso (Secretary)", 1), ("Ton Kooijman (Chairman)", 1)]


def test_the_french_note_markers_are_raised_and_no_line_damaged_or_hidden(french):
    line = next(line for line in page(french, 19) if "exiger*" in line.text)
    start = line.text.index("*")
    assert line.raised == ((start, start + 1),)
    note = next(line for line in page(french, 19) if "La FFB ne l’exige pas." in line.text)
    assert note.raised and note.raised[0][0] == 0
    assert [line.num for line in french if line.damaged or line.hidden] == []
