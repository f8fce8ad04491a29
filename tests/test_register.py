"""The book's index in the corpus (pipeline/corpus/register.py), the site (outputs/site/register.py) and the PDF
(outputs/book/register.py): a made-up index against a made-up edition, then the real English book (skipped
when ../shared/english is absent)."""
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from pipeline.core import ids, lang
from pipeline.core.model import Block, Reading
from pipeline.core.report import BuildLog
from pipeline.corpus import register
from pipeline.outputs import serialise
from pipeline.outputs.book import register as register_pdf
from pipeline.outputs.site import register as register_html
from pipeline.outputs.site.model import href

EN = lang.profile("en")


def _edition() -> etree._Element:
    """An edition of Laws 3 (3A, 3A1, 3A1b) and 9, a definition of "Knot" and an Introduction."""
    corpus = etree.fromstring(
        '<corpus><edition id="2017"><introduction id="2017/intro" sources="b.txt:1"><title sources="b.txt:1">I</title>'
        '</introduction><definitions><definition id="2017/def/knot" term="Knot" sources="b.txt:2"><p sources="b.txt:2">'
        'k</p></definition></definitions><article id="2017/3" num="3" sources="b.txt:3"><section id="2017/3A" num="A" '
        'sources="b.txt:3"><subsection id="2017/3A1" num="1" sources="b.txt:3"><item id="2017/3A1b" num="b" '
        'sources="b.txt:3"/></subsection></section></article><article id="2017/9" num="9" sources="b.txt:4"/>'
        '</edition></corpus>')
    return corpus.find("edition")


def _reading(*texts: str) -> Reading:
    reading = Reading("b.txt", "flowed", "2017", [])
    reading.blocks = [Block("index", t, [100 + n]) for n, t in enumerate(texts)]
    return reading


def test_entries_get_ids_in_the_citation_form_and_their_citations_resolve_like_the_law_texts():
    log = BuildLog()
    el = register.index_element(_reading("Knot Definitions Tied 3A1(b), 9 See also Mooring Line",
                                         "Mooring Line 3A Loose 12C", "Usage Introduction"),
                                _edition(), EN, {}, log)
    assert el.get("id") == "2017/index"
    assert [(e.get("id"), e.get("headword")) for e in el] == [
        ("2017/index/knot", "Knot"), ("2017/index/mooring-line", "Mooring Line"), ("2017/index/usage", "Usage")]
    knot = el[0]
    assert [(r.text, r.get("to"), r.get("status")) for r in knot.iter("ref")] == [
        ("Definitions", "2017/def/knot", "ok"), ("3A1(b)", "2017/3A1b", "ok"), ("9", "2017/9", "ok")]
    assert [(s.text, s.get("to")) for s in knot.iter("see")] == [("Mooring Line", "2017/index/mooring-line")]
    loose = el[1].find("sub")
    assert (loose.get("label"), loose.find("ref").get("to"), loose.find("ref").get("status"),
            loose.find("ref").get("kind")) == ("Loose", "2017/12C", "dangling", "article-absent")
    assert [(r.get("to"), r.get("status")) for r in el[2].iter("ref")] == [("2017/intro", "ok")]
    # The dangling citation is reported with its line, as a damage the reader can check in the book.
    assert [(e.kind, e.line) for e in log.entries if "12C" in e.message] == [("damage", 101)]
    refs = register.references(el.getroottree().getroot() if el.getparent() is not None else el)
    assert [(r.source_id, r.target, r.status) for r in refs if r.status != "ok"] == [
        ("2017/index/mooring-line", "2017/12C", "dangling")]


def test_a_citation_that_is_no_citation_is_suspect_and_a_see_to_no_headword_has_no_link():
    log = BuildLog()
    el = register.index_element(_reading("Oar 3A1(C) See Paddle"), _edition(), EN, {}, log)
    ref = el.find("entry/ref")
    assert (ref.get("status"), ref.get("reason")) == ("suspect", "'3A1(C)' is not a citation of an article or a "
                                                                 "part of one")
    assert el.find("entry/see").get("to") is None
    assert sorted(e.line for e in log.entries if e.kind == "damage") == [100, 100]


def test_an_edition_without_index_blocks_gets_no_index():
    assert register.index_element(Reading("b.txt", "flowed", "2017", []), _edition(), EN, {}, BuildLog()) is None


def test_the_page_and_the_pdf_section_link_each_citation_to_its_node():
    edition = _edition()
    edition.append(register.index_element(_reading("Knot Definitions Tied 3A1(b) See also Mooring Line",
                                                   "Mooring Line 3A Loose 12C"), edition, EN, {}, BuildLog()))
    view = register_html.register_view(edition, href)
    knot = view["letters"][0]["entries"][0]
    assert [(r["words"], r["href"]) for r in knot["refs"]] == [("Definitions", "index.html#def-knot")]
    assert [(r["words"], r["href"]) for r in knot["subs"][0]["refs"]] == [("3A1(b)", "../2017/3.html#3A1b")]
    # A See after a sub-entry's citations sends the reader on from that sub-entry.
    assert knot["see"] == [] and knot["subs"][0]["see"] == [{"words": "Mooring Line", "anchor": "mooring-line"}]
    loose = view["letters"][1]["entries"][0]["subs"][0]["refs"][0]
    assert (loose["href"], loose["status"]) == (None, "dangling")
    targets = {el.get("id") for el in edition.iter("article", "section", "subsection", "item")}
    pdf = register_pdf.register_view(edition, targets, EN)
    assert [c["label"] for c in pdf["entries"][0]["subs"][0]["cites"]] == ["n2017-3A1b"]
    assert [c["label"] for c in pdf["entries"][1]["subs"][0]["cites"]] == [None]
    assert pdf["entries"][0]["subs"][0]["see"] == [{"words": "Mooring Line", "label": "i2017-index-mooring-line"}]


ENGLISH = Path(__file__).resolve().parents[1].parent / "shared" / "english" / "laws2017-en.txt"


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    if not ENGLISH.is_file():
        pytest.skip(f"the English book is not in {ENGLISH.parent} (it is not part of the project)")
    from pipeline.corpus import stages
    from tests.test_english_book import one_source
    return stages.make_corpus(one_source(tmp_path_factory.mktemp("index"), ENGLISH.read_bytes()))


@pytest.mark.book
def test_the_real_index_headwords_sub_entries_and_citations(book):
    index = book.corpus.find("edition/index")
    refs = index.findall(".//ref")
    assert (len(index.findall("entry")), len(index.findall(".//sub")), len(refs)) == (184, 615, 953)
    assert Counter(r.get("status") for r in refs) == {"ok": 949, "dangling": 3, "suspect": 1}
    assert len(index.findall(".//see")) == 34 and all(s.get("to") for s in index.iter("see"))
    appeal = index.find("entry[@id='2017/index/appeal']")
    assert [r.get("to") for r in appeal.iterchildren("ref")] == ["2017/92", "2017/93"]
    body = appeal.find("sub[@label='Regulating Authority, assign to specified tournament body']")
    assert [r.get("to") for r in body.iter("ref")] == ["2017/93C3a"]
    adjusted = index.find("entry[@id='2017/index/adjusted-score']")
    assert [r.get("to") for r in adjusted.find("sub[@label='Artificial adjusted score']").iter("ref")] == [
        "2017/12C1d", "2017/12C2", "2017/86B2"]
    assert index.find("entry[@id='2017/index/agreement']/see").get("to") == "2017/index/partnership-understanding"
    # The page numbers between the index's pages (104-131) are furniture, never a citation: the Laws stop at 93.
    laws = [ids.NodeId.parse(r.get("to")) for r in refs if r.get("to")]
    assert max(int(n.article) for n in laws if n is not None and n.article.isdigit()) == 93


def test_the_real_index_dangling_citations_are_reported_with_their_lines(book):
    off = [(r.getparent().get("label") or r.getparent().get("headword"), r.text, r.get("status"))
           for r in book.corpus.iter("ref") if r.getparent().tag in ("entry", "sub") and r.get("status") != "ok"]
    assert off == [("Play is suspended", "70D3", "dangling"), ("Play is suspended", "70D3", "dangling"),
                   ("National Bridge Organization, Auspices", "80A1(C)", "suspect"),
                   ("Extraneous information", "16A3", "dangling")]
    said = [e.message for e in book.log.entries if e.kind == "damage" and e.message.startswith("the index cites")]
    assert len(said) == 4 and "'16A3' under 'Unauthorized Information', 'Extraneous information'" in said[-1]
    uncertain = [e for e in book.log.entries if "uncertain" in e.message and e.message.startswith("the index: ")]
    assert len(uncertain) == 20


@pytest.mark.book
def test_the_real_index_is_valid_in_both_schemas(book):
    assert serialise.validate_xml(book.corpus) == []
    assert serialise.validate_json(serialise.to_json(book.corpus)) == []
