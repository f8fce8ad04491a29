"""A book compiled in parts (pipeline/outputs/pdf_parts.py) is the same book: the PDF tests of the
real sources run again on their editions compiled three articles to a part and joined."""
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from pypdf import PdfReader

from pipeline.publish import run as build
from pipeline.outputs import pdf, pdf_parts
from pipeline.outputs.book import source as pdf_source
from pipeline.outputs.job import Job
from pipeline.core import lang, tree

from test_pdf import (ROOT, dest_pages, links, outline_titles, page_texts, squash,  # noqa: F401 (tests, run again)
                      test_real_colophon_names_every_source_by_its_description_and_the_source_date,
                      test_real_colophon_has_no_file_names_and_no_english,
                      test_real_contents_print_the_page_each_entry_links_to,
                      test_real_first_article_starts_on_a_right_hand_page_after_a_blank_one_without_folio,
                      test_real_folios_stand_in_the_head_on_every_numbered_page,
                      test_real_contents_start_on_a_right_hand_page, test_real_each_gap_is_said_once,
                      test_real_law_text_has_no_page_numbers_after_references,
                      test_real_links_land_on_the_page_of_their_target, test_real_outline_lists_every_article,
                      test_real_page_one_names_edition_and_language_is_dutch,
                      test_real_running_heads_name_the_first_and_last_article_of_the_page,
                      test_real_bookmarks_name_the_title_page_colophon_contents_and_every_article,
                      test_real_book_opens_with_its_bookmarks_shown, test_real_text_holds_no_word_joiner_on_any_page,
                      test_real_contents_and_outline_name_an_untitled_article_by_its_number_alone)

NL = lang.profile("nl")  # the Dutch book's file names

PART = 2


@pytest.fixture(scope="module")
def real_books(tmp_path_factory):
    """The real sources' two editions, compiled PART articles to a part (the variable the tests lower)."""
    ctx = Job.of(build.make_corpus(ROOT / "sources"), tmp_path_factory.mktemp("build"))
    os.environ["LAWBOOK_PDF_PART_ARTICLES"] = str(PART)
    try:
        pdf.write_pdf(ctx)
    finally:
        del os.environ["LAWBOOK_PDF_PART_ARTICLES"]
    books = {}
    for edition in ctx.corpus.iterchildren("edition"):
        reader = PdfReader(ctx.tmp / pdf.pdf_name(edition.get("id"), NL))
        books[edition.get("id")] = (edition, reader, page_texts(reader))
    books["folder"] = ctx.tmp
    return books


def test_the_sizes_come_from_the_variable(monkeypatch):
    monkeypatch.delenv("LAWBOOK_PDF_PART_ARTICLES", raising=False)
    assert pdf_parts.part_articles() == (pdf_parts.PART_ARTICLES, pdf_parts.PARTS_ABOVE)
    monkeypatch.setenv("LAWBOOK_PDF_PART_ARTICLES", "7")
    assert pdf_parts.part_articles() == (7, 7)
    monkeypatch.setenv("LAWBOOK_PDF_PART_ARTICLES", "zero")
    assert pdf_parts.part_articles() == (pdf_parts.PART_ARTICLES, pdf_parts.PARTS_ABOVE)


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_each_part_is_kept_beside_the_pdf_with_the_inputs_it_was_compiled_with(real_books, edition_id):
    edition, reader, _ = real_books[edition_id]
    folder = real_books["folder"] / pdf.parts_name(edition_id, NL)
    articles = sum(1 for _ in edition.iterchildren("article"))
    parts = sorted(p.name for p in folder.glob("part-*.typ"))
    assert parts == [f"part-{k:02d}.typ" for k in range(1, -(-articles // PART) + 1)]
    assert (folder / "front.typ").exists() and not (real_books["folder"] / pdf.typ_name(edition_id, NL)).exists()
    used = json.loads((folder / "inputs.json").read_text(encoding="utf-8"))
    # Each part starts on the page after the last one before it, the first after the contents.
    page_of = dest_pages(reader)
    for k in range(1, len(parts) + 1):
        first_article = next(a for a in list(edition.iterchildren("article"))[(k - 1) * PART:])
        assert used[f"part-{k:02d}"]["first"] == page_of[pdf_source.label_name(first_article.get("id"))] + 1
    assert not list((real_books["folder"] / "pdf").glob(".work-*"))  # the parts' PDFs are gone


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_the_joined_book_is_dutch_pdfa_with_its_metadata_and_page_count(real_books, edition_id):
    _, reader, _ = real_books[edition_id]
    assert reader.trailer["/Root"]["/Lang"] == "nl-NL"
    assert reader.metadata.title == f"Spelregels voor Wedstrijdbridge {edition_id}"
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
    assert "<pdfaid:part>2</pdfaid:part>" in xmp and "<pdfaid:conformance>B</pdfaid:conformance>" in xmp
    assert f"<xmpTPg:NPages>{len(reader.pages)}</xmpTPg:NPages>" in xmp


def test_footnotes_number_on_across_parts(real_books):
    edition, _, texts = real_books["2017"]
    notes = [" ".join(tree.plain_text(n).split()[:3]) for n in edition.iter("note")]
    assert len(notes) > PART
    # Every note is printed once, and the numbers of the footnotes on the pages run 1, 2, 3, … in order.
    text = squash(" ".join(texts))
    for words in notes:
        assert squash(words) in text, words


def test_every_node_has_one_destination_and_no_stub_is_one(real_books):
    edition, reader, texts = real_books["2017"]
    page_of = dest_pages(reader)
    expected = {pdf_source.label_name(el.get("id")) for el in edition.iter(*tree.NODE_TAGS)} | {"title-page", "colophon",
                                                                                                 "contents"}
    assert set(page_of) - {"toelichtingen"} == expected
    assert {name for _, name in links(reader)} <= set(page_of)


# -- the first round's estimate of the contents' page numbers -----------------------------------------

def test_estimated_pages_follow_the_characters_before_each_heading(monkeypatch):
    monkeypatch.setattr(pdf_parts, "FRONT_CHARACTERS_PER_PAGE", 100)
    monkeypatch.setattr(pdf_parts, "PART_CHARACTERS_PER_PAGE", 10)
    # A made-up book: a front of 4 pages (400 characters), two parts whose house style takes the
    # first 50 characters; the second part's last label is not set where found (placed by its rank).
    parts = [{"chars": 250, "own": ["nA", "nA-1", "nB"], "at": {"nA": 50, "nA-1": 75, "nB": 150}},
             {"chars": 150, "own": ["nC", "nD"], "at": {"nC": 50}}]
    assert pdf_parts.estimated_pages(400, parts) == {"nA": 5, "nA-1": 7, "nB": 15, "nC": 25, "nD": 30}


def test_label_offsets_are_where_an_own_heading_is_set_not_a_stub_or_a_reference():
    source = ('#xref(<n7-2>, "art. 2")\n#heading(level: 1)[#"Stub";] <n7-9>\n'
              '#heading(level: 1)[#"Two";] <n7-2>\n#heading(level: 2)[#"A.";] <n7-2A>\n')
    assert pdf_parts._label_offsets(source, ["n7-2", "n7-2A", "toelichtingen"]) == {
        "n7-2": source.index('] <n7-2>'), "n7-2A": source.index('] <n7-2A>')}


@given(st.lists(st.tuples(st.integers(1, 5000), st.lists(st.integers(0, 4000), max_size=6)), min_size=1, max_size=5),
       st.integers(0, 50_000))
def test_estimated_pages_run_on_through_the_book(shape, front_chars):
    """Whatever the sizes, every own label has a page of at least 1, and the pages never go back."""
    parts, order = [], []
    for k, (chars, offsets) in enumerate(shape):
        offsets = sorted(min(o, chars) for o in offsets)
        own = [f"n{k}-{i}" for i in range(len(offsets))]
        parts.append({"chars": chars, "own": own, "at": dict(zip(own, offsets))})
        order += own
    pages = pdf_parts.estimated_pages(front_chars, parts)
    assert list(pages) == order
    assert all(page >= 1 for page in pages.values())
    assert [pages[label] for label in order] == sorted(pages[label] for label in order)


def _compiles_of_a_book_in_parts(tmp_path, monkeypatch, size):
    """The 2017 edition of the real sources compiled `size` articles to a part, in this process:
    (the PDF's bytes, [the file compiled, in order], the number of parts)."""
    ctx = Job.of(build.make_corpus(ROOT / "sources"), tmp_path)
    monkeypatch.setenv("LAWBOOK_PDF_PART_ARTICLES", str(size))
    book = next(b for b in pdf._prepare(ctx) if b.name == "2017")
    plan = json.loads(book.typ.read_text(encoding="utf-8"))
    compiled, real = [], pdf_parts._compile
    monkeypatch.setattr(pdf_parts, "_compile", lambda plan, typ, out, inputs: (compiled.append(typ),
                                                                                real(plan, typ, out, inputs)))
    pdf_parts.build_parts(plan)
    return book.out.read_bytes(), [os.path.basename(typ) for typ in compiled], len(plan["parts"])


def test_the_front_is_compiled_twice_and_each_part_once_when_the_estimate_holds(tmp_path, monkeypatch):
    _, compiled, parts = _compiles_of_a_book_in_parts(tmp_path, monkeypatch, PART)
    assert parts == 4
    assert compiled == ["front.typ", "part-01.typ", "part-02.typ", "part-03.typ", "part-04.typ", "front.typ"]


def test_a_wrong_estimate_goes_round_again_and_gives_the_same_book(tmp_path, monkeypatch):
    right, _, _ = _compiles_of_a_book_in_parts(tmp_path / "right", monkeypatch, PART)
    # What an estimate far from the real page numbers does: the first front is pages longer than the real
    # one (its entries take lines more), so the parts start on the wrong page. Made here by the first front's
    # page count read two pages long: the contents set a page number on its leaders' line whatever its
    # width, so no estimate of digits lengthens the real sources' front by the two pages that would move
    # the first article's right-hand page.
    pages, first_front = pdf_parts._pages, []

    def longer_first_front(pdf_path, labels, lead):
        count, found = pages(pdf_path, labels, lead)
        if Path(pdf_path).name == "front.pdf" and not first_front:
            first_front.append(pdf_path)
            return count + 2, {label: index + 2 for label, index in found.items()}
        return count, found

    monkeypatch.setattr(pdf_parts, "_pages", longer_first_front)
    wrong, compiled, parts = _compiles_of_a_book_in_parts(tmp_path / "wrong", monkeypatch, PART)
    every = [f"part-{k:02d}.typ" for k in range(1, parts + 1)]
    assert compiled == ["front.typ"] + every + ["front.typ"] + every + ["front.typ"]
    assert wrong == right
