"""The book's Introduction, law text with a place and an ID of its own (2017/intro), like the Definitions:
from a reader's "introduction" blocks through structure, merge, notes and references to corpus.xml and
corpus.json (both schemas), `lawbook show`, the graph, the HTML contents page, Markdown and the PDF.

The book here is made up (its own words and layout): an introduction with a note and two citations,
one definition and two Laws, read as the flowed reader hands them over."""
import datetime
import io
import json
import re
from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, strategies as st
from lxml import etree
from pypdf import PdfReader

from pipeline import cli
from pipeline.publish import run
from pipeline.core import ids, lang, tree
from pipeline.core.ids import NodeId
from pipeline.core.model import NOTE_MARK, Accounted, Block, Note, Placed, Reading
from pipeline.corpus import refs, stages
from pipeline.outputs import graph, html, markdown, pdf, serialise
from pipeline.outputs.book import compiling
from pipeline.outputs.site import model
from pipeline.outputs.job import Job
from pipeline.reading import formats
from pipeline.reading.decode import Line

from test_ids import _schema_patterns

from conftest import assert_validates, validate_json_reference

FILE = "made-up.txt"
TITLE = "Introduction to the Rules of Whist Made Up"
# The source as lines (1-based): what the blocks below were read from.
TEXT = [TITLE,
        "These rules govern a game for four" + NOTE_MARK + " at two tables.",
        "Law 2 names the dealer; the order of play is in A above.",
        "Dealer: the player who deals the cards.",
        "LAW 1 - THE CARDS",
        "A pack holds fifty-two cards.",
        "LAW 2 - THE DEALER",
        "The dealer shuffles and deals.",
        "* or more, by agreement."]


def intro_blocks(title_line=1, first=2):
    return [Block("introduction", TITLE, [title_line], cite="title"),
            Block("introduction", TEXT[1], [first], notes=[Note("or more, by agreement.", [9], "print")]),
            Block("introduction", TEXT[2], [first + 1])]


def book_blocks():
    return [*intro_blocks(),
            Block("definition", "the player who deals the cards.", [4], cite="Dealer"),
            Block("article", "LAW 1", [5], cite="1"), Block("title", "The Cards", [5]),
            Block("para", TEXT[5], [6]),
            Block("article", "LAW 2", [7], cite="2"), Block("title", "The Dealer", [7]),
            Block("para", TEXT[7], [8])]


def corpus_of(readings, lines):
    """The corpus stages from structure on, over hand-made readings of the English profile."""
    ctx = stages.CorpusContext(Path("made-up-sources"), known_profile=lang.profile("en"))
    ctx.lines = lines
    ctx.readings = readings
    for stage in (stages.build_structure, stages.merge_editions, stages.finish_corpus, stages.account_lines,
                  refs.find_references):
        stage(ctx)
    return ctx


def reading(blocks, file=FILE, edition="2017"):
    return Reading(file, "flowed", edition, blocks, rules=formats.FORMATS["flowed"].rules)


def source_lines(file=FILE, text=TEXT):
    return {file: [Line(file, n, t.replace(NOTE_MARK, "*")) for n, t in enumerate(text, 1)]}


@pytest.fixture(scope="module")
def book():
    return corpus_of([reading(book_blocks())], source_lines())


def intro_of(ctx):
    return ctx.corpus.find("edition/introduction")


# -- the ID ------------------------------------------------------------------------------------------

def test_the_introductions_id_is_the_edition_and_intro_and_its_notes_hang_below_it():
    assert ids.introduction_id("2017") == "2017/intro"
    node = NodeId.parse("2017/intro")
    assert (str(node), node.level, node.cite, node.display, node.anchor, node.typst_label, node.parent) == \
        ("2017/intro", "introduction", "intro", "intro", "intro", "n2017-intro", None)
    assert node.is_introduction and not NodeId.parse("2017/1").is_introduction
    assert NodeId.from_typst_label("n2017-intro") == node
    note = NodeId.parse("2017/intro/noot2")
    assert (note.level, note.parent, note.anchor, str(node.note(2))) == ("noot", node, "intro-noot2", "2017/intro/noot2")
    assert ids.shown("2017/intro/noot2") == "intro" and str(node.in_edition("2007")) == "2007/intro"
    # Typed as a person types it, for `lawbook show`.
    assert [ids.read_typed(t) for t in ("intro", "2017/intro", "2017 Intro", "INTRO/noot1", "2017/introA")] == \
        [(None, "intro"), ("2017", "intro"), ("2017", "intro"), (None, "intro/noot1"), None]
    # It is no citation: no reference in the law resolves to it, none is read relative to it.
    assert ids.parse_citation("intro") is None and ids.article_of("2017/intro") is None
    for bad in ("2017/introA", "2017/intro1", "2017/Intro", "2017/introduction", "2017/intro/", "intro"):
        assert NodeId.parse(bad) is None, bad


def test_the_introduction_comes_before_the_first_article_in_reading_order():
    order = ["2007/12", "2017/intro", "2017/intro/noot1", "2017/1", "2017/1A"]
    assert sorted(reversed(order), key=ids.order_key) == order


@given(st.integers(1000, 9999).map(str))
def test_every_editions_introduction_id_round_trips_and_both_schemas_take_it(edition):
    node_id = ids.introduction_id(edition)
    assert str(NodeId.parse(node_id)) == node_id and str(NodeId.parse(node_id).note(3)) == f"{node_id}/noot3"
    (rng_node, rng_note), (json_node, json_note) = _schema_patterns()
    assert re.fullmatch(rng_node, node_id) and re.search(json_node, node_id)
    assert re.fullmatch(rng_note, f"{node_id}/noot3") and re.search(json_note, f"{node_id}/noot3")
    # The <introduction> element's own pattern takes the introduction's ID and nothing else.
    rng_own, json_own = own_patterns()
    assert re.fullmatch(rng_own, node_id) and re.search(json_own, node_id)
    for other in (f"{edition}/1", f"{edition}/def/intro", f"{edition}/intro/noot1"):
        assert not re.fullmatch(rng_own, other) and not re.search(json_own, other), other


def own_patterns():
    """The <introduction> element's own ID pattern in RELAX NG and in JSON Schema."""
    rng = etree.parse(str(Path(__file__).parent.parent / "schema" / "corpus.rng"))
    [rng_own] = [p.text for el in rng.iter("{*}element") if el.get("name") == "introduction"
                 for p in el.iter("{*}param") if "intro" in p.text]
    schema = json.loads((Path(__file__).parent.parent / "schema" / "corpus.schema.json").read_text(encoding="utf-8"))
    return rng_own, schema["definitions"]["introduction"]["properties"]["id"]["pattern"]


# -- the corpus --------------------------------------------------------------------------------------

def test_the_introduction_stands_first_in_the_edition_with_its_title_paragraphs_and_note(book):
    edition = book.corpus.find("edition")
    assert [el.tag for el in edition] == ["introduction", "definitions", "article", "article"]
    intro = intro_of(book)
    assert (intro.get("id"), intro.get("sources")) == ("2017/intro", f"{FILE}:1-3,9")
    assert [(c.tag, c.get("sources")) for c in intro] == [("title", f"{FILE}:1"), ("p", f"{FILE}:2"),
                                                          ("p", f"{FILE}:3")]
    assert intro.findtext("title") == TITLE and tree.label_text(intro) == TITLE
    assert [tree.plain_text(p) for p in intro.iter("p")] == ["These rules govern a game for four at two tables.",
                                                             "Law 2 names the dealer; the order of play is in A above."]
    [note] = intro.iter("note")
    assert (note.get("id"), note.text, note.get("sources")) == ("2017/intro/noot1", "or more, by agreement.", f"{FILE}:9")


def test_every_line_of_the_introduction_is_placed_in_it_and_nothing_is_lost(book):
    [fragment] = book.fragments
    assert {n: fragment.ledger[n] for n in (1, 2, 3, 9)} == {n: Placed("2017/intro") for n in (1, 2, 3, 9)}
    assert book.log.errors == []


def test_its_citations_are_read_as_in_a_definition_no_part_of_a_law(book):
    found = [(r.text, r.get("to"), r.get("status"), r.get("reason")) for r in intro_of(book).iter("ref")]
    assert found == [("Law 2", "2017/2", "ok", None),
                     ("A above", "", "suspect", "2017/intro is not a node a relative citation can be read in")]
    assert refs.context_of(intro_of(book).find("p")) == ("2017", "2017/intro", "2017/intro")


def test_a_second_introduction_in_one_source_is_an_error_naming_both_lines():
    text = TEXT[:3] + ["Another Introduction", "Its only paragraph.", "LAW 1", "A pack.", "", TEXT[8]]
    blocks = [*intro_blocks(), Block("introduction", "Another Introduction", [4], cite="title"),
              Block("introduction", "Its only paragraph.", [5]),
              Block("article", "LAW 1", [6], cite="1"), Block("para", "A pack.", [7])]
    ctx = corpus_of([reading(blocks)], source_lines(text=text))
    assert [(e.kind, e.line, e.message) for e in ctx.log.errors] == [
        ("error", 4, "a second introduction at line 4: the edition's introduction begins at line 1"),
        ("error", 5, "a paragraph of the introduction in the second introduction: it cannot be placed")]
    [fragment] = ctx.fragments
    assert fragment.ledger[4] == Accounted("a second introduction; the first begins at line 1 (error)")
    assert fragment.ledger[5] == Accounted("an introduction paragraph in the second introduction (error)")
    assert intro_of(ctx).findtext("title") == TITLE and len(intro_of(ctx).findall("p")) == 2


def test_a_second_introduction_of_the_edition_in_another_source_is_an_error_naming_both():
    other = "other.txt"
    lines = {**source_lines(), **source_lines(other, [TITLE, "A paragraph of its own.", "x", "y", "z"])}
    second = [Block("introduction", TITLE, [1], cite="title"), Block("introduction", "A paragraph of its own.", [2])]
    ctx = corpus_of([reading(book_blocks()), reading(second, other)], lines)
    assert [(e.file, e.line, e.message) for e in ctx.log.errors if e.file == other][:1] == [
        (other, 1, f"a second introduction of edition 2017: the first begins at {FILE}:1; the first is kept")]
    assert [tree.plain_text(p) for p in intro_of(ctx).iter("p")][0].startswith("These rules")


def test_a_paragraph_before_the_introductions_title_is_an_error():
    ctx = corpus_of([reading([Block("introduction", "Stray words.", [1]), Block("article", "LAW 1", [2], cite="1"),
                              Block("para", "A pack.", [3])])],
                    source_lines(text=["Stray words.", "LAW 1", "A pack."]))
    assert [(e.line, e.message) for e in ctx.log.errors] == [
        (1, "a paragraph of the introduction before the introduction's title: it cannot be placed")]
    assert intro_of(ctx) is None


def test_an_introduction_of_one_edition_stays_in_it():
    lines = {**source_lines(), **source_lines("old.txt", [TITLE, "Older words.", "LAW 1", "Old pack."])}
    old = [Block("introduction", TITLE, [1], cite="title"), Block("introduction", "Older words.", [2]),
           Block("article", "LAW 1", [3], cite="1"), Block("para", "Old pack.", [4])]
    ctx = corpus_of([reading(book_blocks()), reading(old, "old.txt", "2007")], lines)
    assert [(e.getparent().get("id"), e.get("id")) for e in ctx.corpus.iter("introduction")] == \
        [("2007", "2007/intro"), ("2017", "2017/intro")]
    assert ctx.log.errors == []


# -- corpus.json and corpus.xml ----------------------------------------------------------------------

def test_corpus_json_holds_the_introduction_before_the_definitions_and_both_schemas_take_it(book):
    data = serialise.to_json(book.corpus)
    assert_validates(book.corpus, data)
    edition = data["editions"][0]
    assert list(edition) == ["id", "introduction", "definitions", "articles", "commentary"]
    intro = edition["introduction"]
    assert (intro["id"], intro["type"], intro["title"], intro["sources"]) == \
        ("2017/intro", "introduction", TITLE, [{"file": FILE, "lines": [1, 2, 3, 9]}])
    first, second = intro["content"]
    assert (first["text"], first["notes"]) == ("These rules govern a game for four at two tables.", [
        {"id": "2017/intro/noot1", "offset": 34, "form": "print", "text": "or more, by agreement.",
         "sources": [{"file": FILE, "lines": [9]}]}])
    assert second["text"] == "Law 2 names the dealer; the order of play is in A above."
    assert [(r["words"], r["status"]) for r in second["refs"]] == [("Law 2", "ok"), ("A above", "suspect")]


def test_corpus_xml_writes_the_introduction_as_the_tree_holds_it(book):
    text = serialise.to_xml(book.corpus).decode("utf-8")
    start = text.index("<introduction")
    assert text[start:text.index("</introduction>") + len("</introduction>")] == "\n      ".join([
        f'<introduction id="2017/intro" sources="{FILE}:1-3,9">',
        f'<title sources="{FILE}:1">{TITLE}</title>',
        f'<p sources="{FILE}:2">These rules govern a game for four<note form="print" sources="{FILE}:9" '
        'id="2017/intro/noot1">or more, by agreement.</note> at two tables.</p>',
        f'<p sources="{FILE}:3"><ref to="2017/2" status="ok">Law 2</ref> names the dealer; the order of play is '
        'in <ref to="" status="suspect" reason="2017/intro is not a node a relative citation can be read in">'
        'A above</ref>.</p>']) + "\n    </introduction>"
    assert serialise.validate_xml(serialise.parse_xml(text.encode("utf-8"))) == []


def test_the_schemas_refuse_an_introduction_with_another_id_or_without_its_title(book):
    for damage in (lambda el: el.set("id", "2017/1"), lambda el: el.remove(el.find("title"))):
        bad = etree.fromstring(etree.tostring(book.corpus))
        damage(bad.find("edition/introduction"))
        assert not serialise.relaxng().validate(bad)
    data = serialise.to_json(book.corpus)
    data["editions"][0]["introduction"]["id"] = "2017/intro1"
    assert serialise.validate_json(data) != [] and validate_json_reference(data) == [
        "editions/0/introduction/id: '2017/intro1' does not match '^\\\\d{4}/intro$'"]


# -- lawbook show ------------------------------------------------------------------------------------

@pytest.fixture
def show(book, monkeypatch, capsys):
    monkeypatch.setattr(run, "make_corpus", lambda *a, **k: book)

    def shown(*args):
        status = cli.main(["show", *args])
        out = capsys.readouterr()
        return status, out.out, out.err
    return shown


def test_show_prints_the_introduction_its_note_and_sources(show):
    assert show("2017/intro") == (0, "\n".join([
        f"2017/intro  {TITLE}",
        "  These rules govern a game for four[1] at two tables.",
        "  Law 2 names the dealer; the order of play is in A above[?].",
        "  [1] 2017/intro/noot1: or more, by agreement.",
        "  [?] 'A above' -> ?: suspect",
        f"sources: {FILE}:1-3,9"]) + "\n", "")
    status, out, err = show("intro", "--json")
    assert status == 0 and err == "showing 2017/intro: 2017 is the newest edition that holds intro\n"
    data = json.loads(out)
    assert (data["id"], data["type"], data["title"], data["children"], data["notes"]) == \
        ("2017/intro", "introduction", TITLE, [],
         [{"id": "2017/intro/noot1", "text": "or more, by agreement.", "form": "print"}])


# -- the reference graph -----------------------------------------------------------------------------

def test_the_graph_holds_the_introduction_with_its_note_and_its_citation(book):
    g = graph.build_graph(book.corpus, refs.references(book))
    assert g.nodes["2017/intro"]["type"] == "introduction" and g.nodes["2017/intro"]["label"] == TITLE
    assert g.nodes["2017/intro/noot1"]["type"] == "note"
    assert [(v, d["kind"]) for v, keyed in g.succ["2017/intro"].items() for d in keyed.values()] == \
        [("2017/intro/noot1", "contains"), ("2017/2", "refers")]


# -- HTML, Markdown, PDF -----------------------------------------------------------------------------

def test_the_edition_contents_page_holds_the_introduction_as_a_section_before_the_definitions(book, tmp_path):
    html.write_html(Job.of(book, tmp_path))
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "index.html").read_bytes())
    main = doc.find(".//main")
    assert [s.get("id") for s in main.iterchildren("section")] == ["intro", "definitions"]
    [section] = doc.xpath("//section[@id='intro']")
    assert section.xpath("h2/text()") == [TITLE] and section.get("aria-labelledby") == "intro-title"
    assert [p.text_content() for p in section.xpath("p")] == [
        "These rules govern a game for four1 at two tables.",
        "Law 2 names the dealer; the order of play is in A above."]
    assert section.xpath("p[1]/sup/a/@href") == ["#intro-noot1"]
    assert section.xpath("p[2]/a[@class='ref']/@href") == ["../2017/2.html"]
    assert [li.get("id") for li in section.xpath(".//section[@class='notes']//li")] == ["intro-noot1"]
    assert section.xpath(".//li[@id='intro-noot1']")[0].text_content().startswith("or more, by agreement.")
    # A link to the introduction lands on that section.
    assert model.href("2017/intro") == "../2017/index.html#intro"


def test_markdown_puts_the_introduction_first_anchored_by_its_id(book):
    text = markdown.render(book.corpus, "2017", lang.profile("en"))
    start = text.index(f"## {TITLE}")
    assert text[start:text.index("## Definitions")] == "\n\n".join([
        f"## {TITLE} {{#intro}}",
        "These rules govern a game for four[^intro-noot1] at two tables.",
        "[Law 2](#2) names the dealer; the order of play is in A above.",
        "[^intro-noot1]: or more, by agreement.", ""])


# The bookmarks of an English book's front matter, before its introduction (docs/pdf.md).
FRONT = ["Title page", "Colophon", "Contents"]


def outline(reader, items=None):
    out = []
    for item in reader.outline if items is None else items:
        out += outline(reader, item) if isinstance(item, list) else [(item.title,
                                                                      reader.get_destination_page_number(item))]
    return out


@pytest.fixture(scope="module")
def book_pdf(book):
    built = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    source = pdf.typst_source(book.corpus.find("edition"), built.date(), profile=lang.profile("en"))
    return source, PdfReader(io.BytesIO(compiling.render_pdf(source, built)))


def test_the_pdf_sets_the_introduction_as_the_first_chapter_in_the_outline(book_pdf):
    source, reader = book_pdf
    assert f'#heading(level: 1, supplement: none)[#"{TITLE}";] <n2017-intro>' in source
    dests = {name: reader.get_destination_page_number(d) for name, d in reader.named_destinations.items()}
    front, entries = outline(reader)[:3], outline(reader)[3:]
    assert [title for title, _ in front] == FRONT  # the book's front matter first
    assert [title for title, _ in entries] == [TITLE, "Definitions", "Law 1 The Cards", "Law 2 The Dealer"]
    assert entries[0][1] == dests["n2017-intro"] < entries[1][1] < dests["n2017-1"]
    page = reader.pages[dests["n2017-intro"]].extract_text()
    assert "These rules govern a game for four" in page and "or more, by agreement." in page


def test_a_book_in_parts_bookmarks_the_introduction_and_the_definitions_before_the_articles(book, tmp_path,
                                                                                            monkeypatch):
    monkeypatch.setenv("LAWBOOK_PDF_PART_ARTICLES", "1")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    pdf.write_pdf(Job.of(book, tmp_path))
    reader = PdfReader(tmp_path / pdf.pdf_name("2017", lang.profile("en")))
    assert (tmp_path / pdf.parts_name("2017", lang.profile("en")) / "part-02.typ").exists()  # it was compiled in parts
    dests = {name: reader.get_destination_page_number(d) for name, d in reader.named_destinations.items()}
    assert [title for title, _ in outline(reader)[:3]] == FRONT
    assert outline(reader)[3:] == [(TITLE, dests["n2017-intro"]), ("Definitions", dests["n2017-intro"] + 1),
                               ("Law 1 The Cards", dests["n2017-1"]), ("Law 2 The Dealer", dests["n2017-2"])]
