"""A PDF source's evidence, where the report and the messages show it: every location as the page and the
line on it (`book.pdf:p12:7`, core/report.py location), and the book's contents list read as the text
readers read one, so the book check compares the Laws with it (reading/book/outline.py,
corpus/book.py). The books are made-up layouts compiled with Typst here."""
import json
from pathlib import Path

from conftest import run_lawbook
from pipeline.core.errors import LawbookError
from pipeline.core.report import BuildLog, location, shown_line
from test_pdf_source import compile_typst, pdf_source

# -- the location, shown -------------------------------------------------------------------------------


def test_a_pdf_line_is_shown_as_its_page_and_the_line_on_it():
    assert location("book.pdf", 12007, paged=True) == "book.pdf:p12:7"
    assert location("book.pdf", 3000, paged=True) == "book.pdf:p3"  # the page itself (a page's error)
    assert location("book.txt", 12007) == "book.txt:12007"
    assert location("book.pdf", None, paged=True) == "book.pdf"
    assert shown_line(999_012, True) == "p999:12"


def test_an_error_about_a_pdf_names_its_page():
    assert str(LawbookError("page 3 is damaged", file="book.pdf", line=3000, paged=True)) == \
        "book.pdf:p3: page 3 is damaged"
    assert str(LawbookError("bad line", file="book.txt", line=3000, fix="mend it")) == \
        "book.txt:3000: bad line\n  fix: mend it"


def test_the_report_gives_a_pdf_entry_its_page_and_line_and_keeps_a_text_entry_as_it_was():
    log = BuildLog()
    log.sources += [{"file": "book.pdf", "edition": "2017", "format": "pdf", "encoding": "pdf", "lines": 40},
                    {"file": "book.txt", "edition": "2017", "format": "flowed", "encoding": "utf-8", "lines": 40}]
    log.for_file("book.pdf").inference(31005, None, "read from the page")
    log.for_file("book.txt").inference(31005, None, "read from the text")
    entries = log.to_json()["entries"]
    assert entries == [{"kind": "inference", "file": "book.pdf", "line": 31005, "message": "read from the page",
                        "page": 31, "line_on_page": 5},
                       {"kind": "inference", "file": "book.txt", "line": 31005, "message": "read from the text"}]
    text = log.to_text()
    assert "     p31:5  inference read from the page\n" in text
    assert "line 31005  inference read from the text\n" in text
    assert log.location("book.pdf", 31005) == "book.pdf:p31:5" and log.location("book.txt", 31005) == "book.txt:31005"
    assert log.for_file("book.pdf").place(31005) == "p31:5" and log.for_file("book.txt").place(31005) == "31005"


# -- the contents list as evidence ---------------------------------------------------------------------
# A contents page of our own: each entry its title, leader dots and page number; a section's entry set in;
# the entry of Law 3 wrapped onto a second line (its first without the dots); a page number at the foot.
BOOK = r"""
#set page(width: 12cm, height: 12cm, margin: 1.5cm,
  footer: context align(center, text(size: 8pt, counter(page).display())))
#set text(size: 10pt, lang: "en")
#let law(n, title) = block(above: 1.8em, below: 0.8em)[LAW #n \ #text(size: 13pt)[#title]]
#let entry(indent, left, page) = block(above: 0.6em, below: 0.6em,
  pad(left: indent)[#left #box(width: 1fr, repeat[.]) #page])
#let rule = [The director sees to it that every player at the table knows this rule before the first board
  is played, and that it is kept until the last board of the session has been scored and the results are
  published. ]

#text(size: 13pt)[Contents]
#entry(0pt)[Law 1 THE TABLE][2]
#entry(1em)[A. Shape of the Table][2]
#entry(1em)[B. Cloth][2]
#entry(0pt)[Law 2 THE CHAIRS][3]
#entry(0pt)[Law 3 THE ROOM, ITS LIGHT AND \ ITS SILENCE][4]
LISTED
#pagebreak()
#law(1)[THE TABLE]
#strong[A. Shape of the Table]

The table is square. #rule

#strong[B. Cloth]

The cloth is green. #rule
#pagebreak()
#law(2)[THE CHAIRS]
Four chairs stand at each table. #rule #rule
#pagebreak()
#law(3)[THE ROOM, ITS LIGHT AND ITS SILENCE]
Silence is kept in the room. #rule #rule
"""


def build_book(tmp_path: Path, name: str, listed: str) -> tuple:
    folder = pdf_source(tmp_path, name, compile_typst(BOOK.replace("LISTED", listed)))
    out = tmp_path / f"out-{name}"
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", out)
    assert "Traceback" not in result.stderr
    return result, out


def test_a_contents_list_the_book_matches_is_checked_and_its_entries_kept_apart(tmp_path):
    result, out = build_book(tmp_path, "book.pdf", "")
    assert result.returncode == 0, result.stderr
    assert "2017: 3 articles, 2 sections, 0 definitions, 0 footnotes: as the contents list gives them" in result.stdout
    report = (out / "report.txt").read_text(encoding="utf-8")
    assert "      p1:1  dropped   the contents list's title 'Contents'\n" in report
    assert ("      p1:2  dropped   the contents list, evidence for the headings and pages of the Laws (lines "
            "p1:2-p1:7): kept apart, not law text\n") in report
    # The editor's page shows the same locations, in the book's words, under the source they are in.
    editor = next((out / "html").glob("*.html"), None) and [p for p in (out / "html").glob("*.html")
                                                             if 'class="where"' in p.read_text(encoding="utf-8")]
    assert editor and '<span class="where">page 1, line 1</span>' in editor[0].read_text(encoding="utf-8")


def test_a_law_the_contents_list_names_and_the_book_lacks_is_the_difference(tmp_path):
    result, out = build_book(tmp_path, "missing.pdf", "#entry(0pt)[Law 4 THE LAMPS][4]")
    assert result.returncode == 1
    said = ("missing.pdf:p1:8: the contents list names 1 article(s) that the corpus does not hold: 4 (the first at "
            "missing.pdf:p1:8); their pages are missing from the sources, or their headings were not read")
    assert f"lawbook: error: {said}\n" in result.stderr
    failed = json.loads((tmp_path / "out-missing.pdf.failed" / "report.json").read_text(encoding="utf-8"))
    errors = [e for e in failed["entries"] if e["kind"] == "error"]
    assert errors == [{"kind": "error", "file": "missing.pdf", "line": 1008, "message": said.split(": ", 1)[1],
                       "page": 1, "line_on_page": 8}]


def test_a_section_the_contents_list_names_and_the_book_lacks_is_the_difference(tmp_path):
    folder = pdf_source(tmp_path, "sections.pdf", compile_typst(
        BOOK.replace("#entry(1em)[B. Cloth][2]", "#entry(1em)[B. Cloth][2]\n#entry(1em)[C. Legs][2]")
        .replace("LISTED", "")))
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert ("lawbook: error: sections.pdf:p1:2: the contents list gives 2017/1 the sections A, B, C, but the "
            "corpus lacks C\n") in result.stderr


def test_the_contents_entries_are_read_with_their_cites_titles_and_pages():
    from types import SimpleNamespace

    from pipeline.reading.formats import book
    from pipeline.reading.book import pdf as pdfadapter

    data = compile_typst(BOOK.replace("LISTED", ""))
    source = SimpleNamespace(name="book.pdf", edition="2017", language="en")
    reading = book.read(pdfadapter.page_lines(data, "book.pdf", "book.pdf"), source, BuildLog())
    entries = [(b.cite, b.text, b.number, b.lines) for b in reading.blocks if b.kind == "contents"]
    assert entries == [("1", "THE TABLE", 2, [1002]), ("1A", "Shape of the Table", 2, [1003]),
                       ("1B", "Cloth", 2, [1004]), ("2", "THE CHAIRS", 3, [1005]),
                       # wrapped: its first line has no leader dots
                       ("3", "THE ROOM, ITS LIGHT AND ITS SILENCE", 4, [1006, 1007])]


def test_lawbook_check_names_a_pdf_location_by_page_and_line(tmp_path):
    folder = pdf_source(tmp_path, "missing.pdf", compile_typst(BOOK.replace("LISTED", "#entry(0pt)[Law 4 THE LAMPS][4]")))
    result = run_lawbook("check", "--sources", folder)
    assert result.returncode == 1
    assert result.stderr.startswith("lawbook: error: missing.pdf:p1:8: the contents list names 1 article(s) that the "
                                    "corpus does not hold: 4 (the first at missing.pdf:p1:8)")
