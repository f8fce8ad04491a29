"""Footnotes as the book numbers them, and notes marked in a title or heading, in the corpus and every output.

All on made-up input: a flowed page of a made-up law whose notes are numbered through a book (3 on a
section heading, 4 cited twice), Readings built by hand for a note on an article's title, and a corpus
whose sources number notes per article.
"""
import datetime
import io
import json

import lxml.html
import pytest
from hypothesis import given, settings, strategies as st
from lxml import etree
from pypdf import PdfReader

from pipeline.outputs import show
from pipeline.core import lang, tree
from pipeline.core.model import NOTE_MARK, Block, Note, Reading
from pipeline.core.report import BuildLog
from pipeline.corpus import stages
from pipeline.outputs import html, markdown, pdf, serialise
from pipeline.outputs.book import compiling
from pipeline.outputs.job import Job
from pipeline.reading import formats, headings

from conftest import assert_validates

# A made-up page in the flowed layout: page number, law heading, title, each section on one line with its
# heading glued to its text, the footnotes at the page foot. "Cards3" marks note 3 on the heading of A;
# note 4 is cited twice, in A1 and A2.
PAGE = """12
LAW 9
MADE-UP RULES
A. Penalty Cards3 1. When a card is shown too early4 the made-up rule applies with words enough to make this line long and flowed, and it goes on further still.
2. A second rule cites the same note4 again, with words enough to make this line long and flowed as the first, and more.
B. Other Rights 1.A player may do a made-up thing with words enough to make this line long and flowed, and then some more.
3 A made-up heading note.
4 A made-up note cited twice.
"""


def write_book(folder, text=PAGE):
    folder.mkdir(parents=True)
    (folder / "page.txt").write_text(text, encoding="utf-8")
    (folder / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "page.txt"\nedition = "2017"\n'
                                         'format = "flowed"\n', encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return stages.make_corpus(write_book(tmp_path_factory.mktemp("notes") / "src"))


def node(corpus, node_id):
    return corpus.xpath("//*[@id=$id]", id=node_id)[0]


# --- the corpus -------------------------------------------------------------------------------

def test_a_heading_keeps_the_note_marked_at_its_end_and_notes_keep_the_books_numbers(book):
    corpus = book.corpus
    heading = node(corpus, "2017/9A").find("heading")
    assert (heading.text, [(n.get("id"), n.get("num"), n.text) for n in heading.iter("note")]) == (
        "Penalty Cards", [("2017/9A/noot1", "3", "A made-up heading note.")])
    assert tree.label_text(node(corpus, "2017/9A")) == "Penalty Cards"
    assert [(n.get("id"), n.get("num"), n.text) for n in corpus.xpath("//p/note")] == [
        ("2017/9A1/noot1", "4", "A made-up note cited twice."), ("2017/9A2/noot1", "4", "A made-up note cited twice.")]
    # The section's text starts with its own words, not with the heading's note.
    assert tree.text_with_marks(node(corpus, "2017/9A1").find("p")).startswith("When a card is shown too early")
    assert "the heading of 9A keeps the footnote marked in it (3), where the book marks it" in [
        e.message for e in book.log.entries if e.kind == "inference"]
    assert [e for e in book.log.entries if e.kind == "error"] == []
    assert_validates(corpus=corpus, data=serialise.to_json(corpus))


def test_corpus_json_gives_the_books_numbers_and_the_headings_note_beside_its_words(book):
    data = json.loads(serialise.dump_json(serialise.to_json(book.corpus)))
    section = data["editions"][0]["articles"][0]["content"][0]
    assert section["heading"] == "Penalty Cards"
    assert section["heading_notes"] == [{"id": "2017/9A/noot1", "offset": 13, "form": "print", "num": "3",
                                         "text": "A made-up heading note.",
                                         "sources": [{"file": "page.txt", "lines": [4, 7]}]}]
    notes = [n for s in section["content"] for p in s["content"] for n in p["notes"]]
    assert [(n["id"], n["num"], n["offset"]) for n in notes] == [("2017/9A1/noot1", "4", 30), ("2017/9A2/noot1", "4", 33)]
    assert "heading_notes" not in data["editions"][0]["articles"][0]["content"][1]  # 9B: a heading without notes


def test_the_xml_schema_refuses_a_note_number_with_a_space_and_an_element_in_a_heading():
    def corpus(heading):
        return etree.fromstring(f'<corpus><edition id="2017"><article id="2017/9" num="9" sources="a.txt:1">'
                                f'<section id="2017/9A" num="A" sources="a.txt:1"><heading sources="a.txt:1">'
                                f'{heading}</heading></section></article></edition></corpus>')
    note = '<note id="2017/9A/noot1" form="print" num="{num}" sources="a.txt:1">A note.</note>'
    assert serialise.validate_xml(corpus("Cards" + note.format(num="3"))) == []
    assert serialise.validate_xml(corpus("Cards" + note.format(num="3 4")))
    assert serialise.validate_xml(corpus('Cards<ref to="2017/1">1</ref>'))


def test_a_marker_the_contents_split_leaves_after_the_heading_stays_in_the_heading():
    """The contents list gives the heading's words; the marker glued to its last word comes after them."""
    contents = Reading("contents.txt", "flowed", "2017", [Block("contents", "Made-Up Heading", [2], cite="9A")])
    text = "Made-Up Heading" + NOTE_MARK + " The text of the section" + NOTE_MARK + " goes on."
    glued = Block("heading-text", text, [5], cite="A", pieces=[(5, text)],
                  notes=[Note("On the heading.", [9], "print", number="6"), Note("On the text.", [9], "print", number="7")])
    page = Reading("page.txt", "flowed", "2017", [Block("article", "", [4], cite="9"), glued])
    log = BuildLog()
    headings.split_headings([contents, page], log, lang.profile("en"))
    head, rest = page.blocks[1:]
    assert (head.kind, head.text, [n.number for n in head.notes]) == ("heading", "Made-Up Heading" + NOTE_MARK, ["6"])
    assert (rest.kind, rest.text, [n.number for n in rest.notes]) == (
        "para", "The text of the section" + NOTE_MARK + " goes on.", ["7"])
    assert "the heading of 9A keeps the footnote marked in it (6), where the book marks it" in [
        e.message for e in log.entries]


@pytest.fixture(scope="module")
def titled():
    """The corpus of a reading whose "title" Block carries a note, as a "para" block carries one."""
    profile = lang.profile("en")
    reading = Reading("page.txt", "flowed", "2017", [
        Block("article", "", [1], cite="9"),
        Block("title", "MADE-UP CARDS" + NOTE_MARK, [2], notes=[Note("A made-up title note.", [6], "print", number="2")]),
        Block("para", "A made-up text" + NOTE_MARK + " of the law.", [3],
              notes=[Note("A made-up text note.", [6], "print", number="3")])],
        rules=formats.FORMATS["flowed"].rules)
    ctx = stages.CorpusContext(sources_dir=None, known_profile=profile)
    ctx.readings, ctx.lines = [reading], {"page.txt": []}
    for stage in (stages.build_structure, stages.merge_editions, stages.finish_corpus):
        stage(ctx)
    return ctx


def test_a_title_block_with_a_note_keeps_it_in_the_title(titled):
    ctx = titled
    article = node(ctx.corpus, "2017/9")
    title = article.find("title")
    assert (title.text, [(n.get("id"), n.get("num"), n.text, n.get("sources")) for n in title]) == (
        "MADE-UP CARDS", [("2017/9/noot1", "2", "A made-up title note.", "page.txt:6")])
    assert tree.label_text(article) == "MADE-UP CARDS"
    assert [n.get("id") for n in article.iter("note")] == ["2017/9/noot1", "2017/9/noot2"]
    assert json.loads(serialise.dump_json(serialise.to_json(ctx.corpus)))["editions"][0]["articles"][0][
        "title_notes"][0]["num"] == "2"
    assert show.render_text(article).splitlines()[:4] == [
        "2017/9  MADE-UP CARDS[2]", "  A made-up text[3] of the law.",
        "  [2] 2017/9/noot1: A made-up title note.", "  [3] 2017/9/noot2: A made-up text note."]
    summary = show.node_summary(article)
    assert (summary["title"], [(n["id"], n["num"]) for n in summary["notes"]]) == (
        "MADE-UP CARDS", [("2017/9/noot1", "2"), ("2017/9/noot2", "3")])


# --- the outputs ------------------------------------------------------------------------------

def test_markdown_labels_notes_by_the_books_number_and_writes_a_note_cited_twice_once(book):
    lines = markdown.render(book.corpus, "2017", lang.profile("en")).splitlines()
    assert '### 9A Penalty Cards[^3] {#9A origin="page.txt:4-5,7-8"}' in lines
    assert any(line.startswith("When a card is shown too early[^4] the made-up rule") for line in lines)
    assert any(line.startswith("A second rule cites the same note[^4] again") for line in lines)
    assert [line for line in lines if line.startswith("[^")] == [
        "[^3]: A made-up heading note.", "[^4]: A made-up note cited twice."]


def test_markdown_html_and_pdf_show_a_titles_note_on_the_title(titled, tmp_path):
    profile = lang.profile("en")
    lines = markdown.render(titled.corpus, "2017", profile).splitlines()
    assert '## Law 9 MADE-UP CARDS[^2] {#9 origin="page.txt:1-3,6"}' in lines and "[^2]: A made-up title note." in lines
    html.write_html(Job.of_tree(titled.corpus, tmp_path, lang.profile("nl"), titled.log))
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "9.html").read_bytes())
    assert doc.xpath("//h1/span[@class='title']")[0].text_content() == " MADE-UP CARDS2"
    assert " 9 – MADE-UP CARDS (2017) · " in doc.findtext(".//title")  # the words alone
    assert [(a.text, a.get("href")) for a in doc.xpath("//sup[@class='noteref']/a")] == [("2", "#9-noot1"),
                                                                                      ("3", "#9-noot2")]
    built = datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)
    reader = PdfReader(io.BytesIO(compiling.render_pdf(pdf.typst_source(titled.corpus.find("edition"), built.date(),
                                                                        profile=profile), built)))
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    page = next(t for t in texts if "A made-up text" in t)
    assert "MADE-UP CARDS2 A made-up text3 of the law." in page
    assert page.endswith("2 A made-up title note. 3 A made-up text note.")
    assert [o.title for o in reader.outline] == ["Title page", "Colophon", "Contents", "Law 9 MADE-UP CARDS"]


def test_markdown_labels_notes_numbered_per_article_by_article_and_number():
    corpus = etree.fromstring(
        '<corpus><edition id="2007">'
        '<article id="2007/1" num="1" sources="a.txt:1"><p sources="a.txt:1">One<note id="2007/1/noot1" form="numbered" '
        'num="1" sources="a.txt:2">First of one.</note>.</p></article>'
        '<article id="2007/2" num="2" sources="a.txt:3"><p sources="a.txt:3">Two<note id="2007/2/noot1" form="numbered" '
        'num="1" sources="a.txt:4">First of two.</note> and<note id="2007/2/noot2" form="inline" sources="a.txt:3">'
        'Unnumbered.</note>.</p></article></edition></corpus>')
    lines = markdown.render(corpus, "2007", lang.profile("nl")).splitlines()
    assert [line for line in lines if line.startswith("[^")] == [
        "[^1-1]: First of one.", "[^2-1]: First of two.", "[^2-noot2]: Unnumbered."]


def test_html_shows_the_books_numbers_and_lists_a_note_cited_twice_once(book, tmp_path):
    html.write_html(Job.of_tree(book.corpus, tmp_path, lang.profile("nl"), book.log))
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "9.html").read_bytes())
    heading = doc.xpath("//section[@id='9A']/h2/span[@class='heading']")[0]
    assert heading.text_content() == "Penalty Cards3"
    markers = doc.xpath("//sup[@class='noteref']/a")
    assert [(m.text, m.get("id"), m.get("href")) for m in markers] == [
        ("3", "ref-9A-noot1", "#9A-noot1"), ("4", "ref-9A1-noot1", "#9A1-noot1"), ("4", "ref-9A2-noot1", "#9A1-noot1")]
    entries = doc.xpath("//section[@class='notes']//li")
    assert [(li.get("id"), li.get("value"), " ".join(li.text_content().split())) for li in entries] == [
        ("9A-noot1", "3", "9A A made-up heading note. ↩"), ("9A1-noot1", "4", "9A1 A made-up note cited twice. ↩")]
    # The page's title, the contents list and the search metadata read the heading's words alone.
    assert doc.xpath("//ul//a[@href='#9A']")[0].text_content() == "9A Penalty Cards"


def test_pdf_numbers_footnotes_by_the_book_and_sets_a_heading_note_on_the_heading(book):
    built = datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)
    source = pdf.typst_source(book.corpus.find("edition"), built.date(), profile=lang.profile("en"))
    reader = PdfReader(io.BytesIO(compiling.render_pdf(source, built)))
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    page = next(t for t in texts if "Penalty Cards" in t and "When a card" in t)
    assert "Penalty Cards3" in page
    assert "shown too early4 the made-up rule" in page and "the same note4 again" in page
    # The page foot: each note once, by the book's number (not 1, 2, 3 by occurrence).
    assert page.endswith("3 A made-up heading note. 4 A made-up note cited twice.")
    assert page.count("A made-up note cited twice.") == 1
    # The contents and the bookmarks read the heading's words; the note is printed once in the book.
    titles = []

    def walk(items):
        for item in items:
            walk(item) if isinstance(item, list) else titles.append(item.title)
    walk(reader.outline)
    assert titles == ["Title page", "Colophon", "Contents", "Law 9 MADE-UP RULES", "A. Penalty Cards",
                      "B. Other Rights"]
    assert sum(t.count("A made-up heading note.") for t in texts) == 1
    contents = next(t for t in texts if t.startswith("3 Contents"))  # its folio in the head
    assert "A. Penalty Cards . ." in contents and "A made-up" not in contents
    # Still PDF/A-2b, and every marker is a link.
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
    assert "<pdfaid:part>2</pdfaid:part>" in xmp and "<pdfaid:conformance>B</pdfaid:conformance>" in xmp
    marker_links = [a.get_object() for p in reader.pages for a in (p.get("/Annots") or [])
                    if a.get_object().get("/Subtype") == "/Link"]
    assert len(marker_links) >= 3


def test_pdf_prints_a_note_cited_again_on_a_later_page_on_that_page_too():
    """Once a page: the second citation on another page has the note at its own page's foot."""
    filler = " ".join(["Made-up words of a long law that fill the page."] * 12)
    corpus = etree.fromstring(
        '<corpus><edition id="2017"><article id="2017/1" num="1" sources="a.txt:1">'
        '<title sources="a.txt:1">ONE</title><p sources="a.txt:1">First citation<note id="2017/1/noot1" form="print" '
        'num="5" sources="a.txt:2">The note cited twice.</note>.</p>'
        + f'<p sources="a.txt:1">{filler}</p>' * 12 +
        '</article><article id="2017/2" num="2" sources="a.txt:3"><title sources="a.txt:3">TWO</title>'
        '<p sources="a.txt:3">Second citation<note id="2017/2/noot1" form="print" num="5" sources="a.txt:4">The note '
        'cited twice.</note> and another<note id="2017/2/noot2" form="print" num="6" sources="a.txt:4">Once.</note>.'
        '</p></article></edition></corpus>')
    built = datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)
    reader = PdfReader(io.BytesIO(compiling.render_pdf(pdf.typst_source(corpus.find("edition"), built.date(),
                                                                        profile=lang.profile("en")), built)))
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    first = next(i for i, t in enumerate(texts) if "First citation5." in t)
    second = next(i for i, t in enumerate(texts) if "Second citation5 and another6." in t)
    assert second > first
    assert texts[first].endswith("5 The note cited twice.")
    assert texts[second].endswith("5 The note cited twice. 6 Once.")


@settings(max_examples=60, deadline=None)
@given(heading=st.lists(st.sampled_from(["Made", "Up", "Heading", "Cards", "Rights"]), min_size=1, max_size=4),
       glued=st.integers(0, 2),
       rest=st.lists(st.tuples(st.sampled_from(["the", "made", "up", "text", "runs", "on."]), st.booleans()),
                     min_size=1, max_size=8))
def test_a_split_heading_and_its_text_share_the_notes_by_their_markers(heading, glued, rest):
    """Whatever the words: the heading keeps the markers glued to its last word, the text the others, each
    block its notes in marker order, and no note is lost or doubled."""
    words = " ".join(heading)
    text = words + NOTE_MARK * glued + " " + " ".join(w + (NOTE_MARK if marked else "") for w, marked in rest)
    notes = [Note(f"Note {i}.", [9], "print", number=str(i + 1)) for i in range(text.count(NOTE_MARK))]
    contents = Reading("contents.txt", "flowed", "2017", [Block("contents", words, [2], cite="9A")])
    page = Reading("page.txt", "flowed", "2017", [Block("article", "", [4], cite="9"),
                                                   Block("heading-text", text, [5], cite="A", pieces=[(5, text)],
                                                         notes=list(notes))])
    headings.split_headings([contents, page], BuildLog(), lang.profile("en"))
    head, body = page.blocks[1:]
    assert head.text == words + NOTE_MARK * glued
    assert [n.number for n in head.notes] == [str(i + 1) for i in range(glued)]
    assert body.text.count(NOTE_MARK) == len(body.notes)
    assert head.notes + body.notes == notes
