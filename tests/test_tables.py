"""Tables as tables: a reader's "table" block (its rows, each with its line and cells) through structure,
merge, notes and references to corpus.xml and corpus.json (both schemas), and in every output.

The book here is made up (its own words and layout): an introduction with a table, a definition followed by
a table, and a Law whose section holds a table between two paragraphs, with a note and a citation in its
cells; read as a reader of printed books hands its blocks over (the contract in core/model.py)."""
from pathlib import Path

import pytest
from lxml import etree

from pipeline.core import lang, tree
from pipeline.core.model import CLOSES_LIST, NOTE_MARK, Accounted, Block, Note, Placed, Reading, TableRow
from pipeline.corpus import refs, stages
from pipeline.outputs import serialise
from pipeline.reading import formats
from pipeline.reading.decode import Line

from conftest import assert_validates, validate_json_reference

FILE = "made-up.txt"
TITLE = "Introduction to the Rules of Whist Made Up"
# The source as lines (1-based): what the blocks below were read from.
TEXT = [TITLE,                                      # 1
        "These rules are for four players.",        # 2
        "Tables Players",                           # 3
        "2 8",                                      # 4
        "Dealer: the player who deals the cards.",  # 5
        "Deal Cards",                               # 6
        "first 13",                                 # 7
        "LAW 1 - THE SCORE",                        # 8
        "A. Points",                                # 9
        "Each trick scores as below; see Law 2.",   # 10
        "Tricks Points",                            # 11
        "7 20*",                                    # 12
        "8 and more 30, see Law 2",                 # 13
        "The scorer writes it down.",               # 14
        "LAW 2 - THE DEALER",                       # 15
        "The dealer shuffles and deals.",           # 16
        "* doubled when vulnerable."]               # 17


def table_block(rows, notes=(), lines=None):
    """A table block as the contract says a reader makes it: its rows, all its lines, its text the cells
    joined by single spaces row after row."""
    rows = [TableRow(line, list(cells)) for line, cells in rows]
    return Block("table", " ".join(cell for row in rows for cell in row.cells),
                 lines or [row.line for row in rows], rows=rows, notes=list(notes))


def score_table():
    return table_block([(11, ["Tricks", "Points"]), (12, ["7", "20" + NOTE_MARK]), (13, ["8 and more", "30, see Law 2"])],
                       [Note("doubled when vulnerable.", [17], "print")])


def book_blocks():
    return [Block("introduction", TITLE, [1], cite="title"), Block("introduction", TEXT[1], [2]),
            table_block([(3, ["Tables", "Players"]), (4, ["2", "8"])]),
            Block("definition", "the player who deals the cards.", [5], cite="Dealer"),
            table_block([(6, ["Deal", "Cards"]), (7, ["first", "13"])]),
            Block("article", "LAW 1", [8], cite="1"), Block("title", "The Score", [8]),
            Block("heading", "Points", [9], cite="A"), Block("para", TEXT[9], [10]),
            score_table(),
            Block("para", TEXT[13], [14]),
            Block("article", "LAW 2", [15], cite="2"), Block("title", "The Dealer", [15]),
            Block("para", TEXT[15], [16])]


def corpus_of(readings, lines, profile="en"):
    """The corpus stages from structure on, over hand-made readings."""
    ctx = stages.CorpusContext(Path("made-up-sources"), known_profile=lang.profile(profile))
    ctx.lines = lines
    ctx.readings = readings
    for stage in (stages.build_structure, stages.merge_editions, stages.finish_corpus, stages.account_lines,
                  refs.find_references):
        stage(ctx)
    return ctx


def reading(blocks, file=FILE, edition="2017"):
    return Reading(file, "flowed", edition, blocks, rules=formats.FORMATS["flowed"].rules)


def source_lines(file=FILE, text=TEXT):
    return {file: [Line(file, n, t) for n, t in enumerate(text, 1)]}


@pytest.fixture(scope="module")
def book():
    return corpus_of([reading(book_blocks())], source_lines())


def cells_of(table):
    return [[tree.plain_text(cell) for cell in row] for row in tree.cells(table)]


# -- the corpus --------------------------------------------------------------------------------------

def test_structure_places_the_table_in_the_section_open_where_it_stands_between_its_paragraphs(book):
    section = book.corpus.find("edition/article/section")
    assert section.get("id") == "2017/1A"
    assert [(c.tag, c.get("sources")) for c in section] == [
        ("heading", f"{FILE}:9"), ("p", f"{FILE}:10"), ("table", f"{FILE}:11-13"), ("p", f"{FILE}:14")]
    [table] = section.iterchildren("table")
    assert cells_of(table) == [["Tricks", "Points"], ["7", "20"], ["8 and more", "30, see Law 2"]]
    assert [row.get("sources") for row in table.iterchildren("row")] == [f"{FILE}:11", f"{FILE}:12", f"{FILE}:13"]
    # Its note stands in its cell, numbered below the node; the node's sources hold every line of it.
    [note] = table.iter("note")
    assert (note.getparent().tag, note.get("id"), note.text, note.get("sources")) == \
        ("cell", "2017/1A/noot1", "doubled when vulnerable.", f"{FILE}:17")
    assert section.get("sources") == f"{FILE}:9-14,17"
    assert tree.plain_text(table) == "Tricks Points 7 20 8 and more 30, see Law 2"


def test_every_line_of_a_table_is_in_the_ledger_of_its_node_and_nothing_is_reported(book):
    [fragment] = book.fragments
    assert {n: fragment.ledger[n] for n in (3, 4, 6, 7, 11, 12, 13, 17)} == {
        3: Placed("2017/intro"), 4: Placed("2017/intro"), 6: Placed("2017/def/dealer"), 7: Placed("2017/def/dealer"),
        11: Placed("2017/1A"), 12: Placed("2017/1A"), 13: Placed("2017/1A"), 17: Placed("2017/1A")}
    assert [(e.kind, e.line, e.message) for e in book.log.entries if e.kind in ("error", "damage")] == []


def test_a_table_in_the_introduction_and_after_a_definition_is_theirs(book):
    intro = book.corpus.find("edition/introduction")
    assert [c.tag for c in intro] == ["title", "p", "table"] and intro.get("sources") == f"{FILE}:1-4"
    assert cells_of(intro.find("table")) == [["Tables", "Players"], ["2", "8"]]
    definition = book.corpus.find("edition/definitions/definition")
    assert (definition.get("id"), [c.tag for c in definition], definition.get("sources")) == \
        ("2017/def/dealer", ["p", "table"], f"{FILE}:5-7")
    assert cells_of(definition.find("table")) == [["Deal", "Cards"], ["first", "13"]]


def test_a_citation_in_a_cell_is_a_reference_of_its_node_read_cell_by_cell(book):
    table = book.corpus.find("edition/article/section/table")
    [ref] = table.iter("ref")
    assert (ref.getparent().tag, ref.text, ref.get("to"), ref.get("status")) == ("cell", "Law 2", "2017/2", "ok")
    assert refs.context_of(ref.getparent()) == ("2017", "2017/1A", "2017/1A")
    found = [(r.source_id, r.target, r.words, r.locations) for r in refs.references(book) if r.source_id == "2017/1A"]
    assert found == [("2017/1A", "2017/2", "Law 2", [f"{FILE}:10"]), ("2017/1A", "2017/2", "Law 2", [f"{FILE}:13"])]


def test_a_table_block_in_a_subitem_deep_list_stands_in_the_deepest_node_open():
    text = ["LAW 5", "A. Heading", "1. first", "(a) an item", "x y", "1 2"]
    blocks = [Block("article", "LAW 5", [1], cite="5"), Block("heading", "Heading", [2], cite="A"),
              Block("list", "first", [3], number=1), Block("list", "an item", [4], number=1, level=1),
              table_block([(5, ["x", "y"]), (6, ["1", "2"])])]
    ctx = corpus_of([reading(blocks)], source_lines(text=text))
    [table] = ctx.corpus.iter("table")
    assert table.getparent().get("id") == "2017/5A1a"
    assert ctx.fragments[0].ledger[5] == ctx.fragments[0].ledger[6] == Placed("2017/5A1a")


def test_a_table_the_reader_says_closes_a_list_is_text_of_the_lists_parent():
    text = ["LAW 5", "A. Heading", "1. first", "2. second", "x y"]
    closing = table_block([(5, ["x", "y"])])
    closing.cite = CLOSES_LIST
    blocks = [Block("article", "LAW 5", [1], cite="5"), Block("heading", "Heading", [2], cite="A"),
              Block("list", "first", [3], number=1), Block("list", "second", [4], number=2), closing]
    ctx = corpus_of([reading(blocks)], source_lines(text=text))
    [table] = ctx.corpus.iter("table")
    assert table.getparent().get("id") == "2017/5A" and ctx.fragments[0].ledger[5] == Placed("2017/5A")
    assert [e.message for e in ctx.log.entries if e.line == 5] == [
        "the table at line 5 stands on its own after 2017/5A2, the last entry of its list: read as text of 2017/5A, "
        "which the list belongs to"]


def test_notes_the_cells_mark_no_place_for_end_the_last_cell_and_are_reported():
    text = ["LAW 5", "x y", "* one", "** two"]
    blocks = [Block("article", "LAW 5", [1], cite="5"),
              table_block([(2, ["x", "y"])], [Note("one", [3], "print"), Note("two", [4], "print")])]
    ctx = corpus_of([reading(blocks)], source_lines(text=text))
    [table] = ctx.corpus.iter("table")
    assert [(n.getparent().tag, n.text) for n in table.iter("note")] == [("cell", "one"), ("cell", "two")]
    assert tree.text_with_marks(table) == "x\ty" + NOTE_MARK * 2
    assert [(e.kind, e.line, e.message) for e in ctx.log.entries if e.kind == "damage"] == [
        ("damage", 2, "the table at line 2 has 2 notes but its cells mark 0; the notes without a marker are kept "
                      "at the end of its last cell")]
    assert ctx.log.errors == []


def test_a_table_block_without_rows_keeps_its_text_as_a_paragraph():
    blocks = [Block("article", "LAW 5", [1], cite="5"), Block("table", "x y 1 2", [2])]
    ctx = corpus_of([reading(blocks)], source_lines(text=["LAW 5", "x y 1 2"]))
    assert [(c.tag, tree.plain_text(c)) for c in ctx.corpus.find("edition/article")] == [("p", "x y 1 2")]
    assert [e.message for e in ctx.log.entries if e.kind == "damage"] == [
        "a table at line 2 without rows; its text kept as a paragraph"]


def test_a_table_before_the_introductions_title_is_an_error_and_its_lines_accounted():
    blocks = [table_block([(1, ["x", "y"])]), Block("article", "LAW 1", [2], cite="1"), Block("para", "A.", [3])]
    ctx = corpus_of([reading(blocks)], source_lines(text=["x y", "LAW 1", "A."]))
    assert [(e.line, e.message) for e in ctx.log.errors] == [(1, "text before the first article heading: it cannot "
                                                                 "be placed")]
    assert ctx.fragments[0].ledger[1] == Accounted("unplaced text before the first article (error)")


def test_one_table_in_two_sources_is_one_table_with_both_sources_and_a_different_cell_a_conflict():
    other = "other.txt"
    lines = {**source_lines(), **source_lines(other, TEXT)}
    same = corpus_of([reading(book_blocks()), reading(book_blocks(), other)], lines)
    table = same.corpus.find("edition/article/section/table")
    assert table.get("sources") == f"{FILE}:11-13 {other}:11-13"
    assert [row.get("sources") for row in table.iterchildren("row")] == [f"{FILE}:{n} {other}:{n}" for n in (11, 12, 13)]
    assert [e for e in same.log.entries if e.kind == "conflict"] == []
    changed = book_blocks()
    changed[9].rows[1].cells[0] = "6"
    differ = corpus_of([reading(book_blocks()), reading(changed, other)], lines)
    assert [(e.file, e.line, e.node) for e in differ.log.entries if e.kind == "conflict"] == [(other, 11, "2017/1A")]
    assert cells_of(differ.corpus.find("edition/article/section/table"))[1] == ["7", "20"]  # the first reading


# -- corpus.xml and corpus.json ------------------------------------------------------------------------

def test_corpus_xml_writes_the_table_with_its_rows_and_cells_and_both_schemas_take_the_book(book):
    data = serialise.to_json(book.corpus)
    assert_validates(book.corpus, data)
    text = serialise.to_xml(book.corpus).decode("utf-8")
    start = text.index("<table sources=\"made-up.txt:11-13\">")
    assert text[start:text.index("</table>", start) + len("</table>")] == "\n".join([
        f'<table sources="{FILE}:11-13">',
        f'          <row sources="{FILE}:11">',
        '            <cell>Tricks</cell>',
        '            <cell>Points</cell>',
        '          </row>',
        f'          <row sources="{FILE}:12">',
        '            <cell>7</cell>',
        f'            <cell>20<note form="print" sources="{FILE}:17" id="2017/1A/noot1">doubled when vulnerable.</note></cell>',
        '          </row>',
        f'          <row sources="{FILE}:13">',
        '            <cell>8 and more</cell>',
        '            <cell>30, see <ref to="2017/2" status="ok">Law 2</ref></cell>',
        '          </row>',
        '        </table>'])
    assert serialise.validate_xml(serialise.parse_xml(text.encode("utf-8"))) == []


def test_corpus_json_gives_a_table_as_a_content_item_with_rows_and_cells(book):
    data = serialise.to_json(book.corpus)
    section = data["editions"][0]["articles"][0]["content"][0]
    assert [item["type"] for item in section["content"]] == ["p", "table", "p"]
    assert section["content"][1] == {"type": "table", "sources": [{"file": FILE, "lines": [11, 12, 13]}], "rows": [
        {"sources": [{"file": FILE, "lines": [11]}],
         "cells": [{"text": "Tricks", "notes": [], "refs": []}, {"text": "Points", "notes": [], "refs": []}]},
        {"sources": [{"file": FILE, "lines": [12]}],
         "cells": [{"text": "7", "notes": [], "refs": []},
                   {"text": "20", "notes": [{"id": "2017/1A/noot1", "offset": 2, "form": "print",
                                             "text": "doubled when vulnerable.",
                                             "sources": [{"file": FILE, "lines": [17]}]}], "refs": []}]},
        {"sources": [{"file": FILE, "lines": [13]}],
         "cells": [{"text": "8 and more", "notes": [], "refs": []},
                   {"text": "30, see Law 2", "notes": [],
                    "refs": [{"status": "ok", "to": "2017/2", "words": "Law 2", "start": 8, "end": 13}]}]}]}
    edition = data["editions"][0]
    assert [item["type"] for item in edition["introduction"]["content"]] == ["p", "table"]
    assert [item["type"] for item in edition["definitions"][0]["content"]] == ["p", "table"]
    assert [[c["text"] for c in row["cells"]] for row in edition["definitions"][0]["content"][1]["rows"]] == \
        [["Deal", "Cards"], ["first", "13"]]


def test_the_schemas_refuse_a_table_without_rows_a_row_without_cells_and_a_table_where_none_may_stand(book):
    for damage in (lambda c: [t.remove(r) for t in c.iter("table") for r in list(t)],
                   lambda c: [r.remove(x) for r in c.iter("row") for x in list(r)],
                   lambda c: c.find("edition/article/section/heading").append(etree.Element("table", sources=f"{FILE}:1")),
                   lambda c: c.find("edition/article/section/table/row").set("sources", "")):
        bad = etree.fromstring(etree.tostring(book.corpus))
        damage(bad)
        assert not serialise.relaxng().validate(bad)
    for damage in (lambda t: t.update(rows=[]), lambda t: t["rows"][0].update(cells=[]),
                   lambda t: t["rows"][0]["cells"][0].pop("notes"), lambda t: t.update(caption="x")):
        data = serialise.to_json(book.corpus)
        damage(data["editions"][0]["articles"][0]["content"][0]["content"][1])
        assert serialise.validate_json(data) != [] and validate_json_reference(data) != []


# -- the repair stage --------------------------------------------------------------------------------

def repaired_table():
    return Reading("f.txt", "print", "2017", [Block("table", "speler - behoudens a b bied\u00adverloop 59,als", [3, 4],
                                                     rows=[TableRow(3, ["speler - behoudens", "a\u00a0 b"]),
                                                           TableRow(4, ["bied\u00adverloop", "59,als"])])])


def test_the_repair_stage_repairs_each_cell_at_its_rows_line_and_makes_the_tables_text_of_them():
    from pipeline.core import memo as memo_module
    from pipeline.core.report import BuildLog
    from pipeline.reading import repair

    log = BuildLog()
    table = repaired_table()
    repair.repair_reading(table, set(), log, lang.profile("nl"))
    [block] = table.blocks
    assert [row.cells for row in block.rows] == [["speler – behoudens", "a b"], ["biedverloop", "59, als"]]
    assert block.text == "speler – behoudens a b biedverloop 59, als"
    assert [(e.line, e.message, e.before, e.after) for e in log.entries] == [
        (3, "spaced hyphen read as a dash", "speler - behoudens", "speler – behoudens"),
        (4, "soft-hyphen mark dropped", "bied\u00adverloop", "biedverloop"),
        (4, "space added after comma", "9,als", "9, als")]
    # The same reading repaired again in this process comes from the memo, its cells repaired too.
    memo_module.keep()  # as watch mode does
    try:
        repair.repaired(repaired_table(), set(), BuildLog(), lang.profile("nl"), False)
    finally:
        memo_module.keep(False)
    memo = repair.repairs(lang.profile("nl"))
    reused = memo.reused
    again = repaired_table()
    memo_module.keep()
    try:
        repair.repaired(again, set(), BuildLog(), lang.profile("nl"), False)
        assert memo.reused == reused + 1
    finally:
        memo_module.keep(False)
        memo_module.clear_all()
    assert [row.cells for row in again.blocks[0].rows] == [["speler – behoudens", "a b"], ["biedverloop", "59, als"]]
    assert again.blocks[0].text == block.text


# -- lawbook show ------------------------------------------------------------------------------------

@pytest.fixture
def show(book, monkeypatch, capsys):
    from pipeline import cli
    from pipeline.publish import run

    monkeypatch.setattr(run, "make_corpus", lambda *a, **k: book)

    def shown(*args):
        status = cli.main(["show", *args])
        out = capsys.readouterr()
        return status, out.out, out.err
    return shown


def test_show_prints_a_table_a_row_a_line_between_its_paragraphs_with_its_note(show):
    assert show("2017/1A") == (0, "\n".join([
        "2017/1A  Points",
        "  Each trick scores as below; see Law 2.",
        "  | Tricks | Points |",
        "  | 7 | 20[1] |",
        "  | 8 and more | 30, see Law 2 |",
        "  The scorer writes it down.",
        "  [1] 2017/1A/noot1: doubled when vulnerable.",
        f"sources: {FILE}:9-14,17"]) + "\n", "")
    import json
    status, out, _ = show("2017/1A", "--json")
    data = json.loads(out)
    assert status == 0 and data["text"] == "\n\n".join([
        "Each trick scores as below; see Law 2.", "Tricks Points 7 20 8 and more 30, see Law 2",
        "The scorer writes it down."])
    assert data["tables"] == [[["Tricks", "Points"], ["7", "20"], ["8 and more", "30, see Law 2"]]]
    assert data["notes"] == [{"id": "2017/1A/noot1", "text": "doubled when vulnerable.", "form": "print"}]


def test_show_of_a_definition_prints_its_table(show):
    assert show("2017/def/dealer") == (0, "\n".join([
        "2017/def/dealer  Dealer", "  the player who deals the cards.", "  | Deal | Cards |", "  | first | 13 |",
        f"sources: {FILE}:5-7"]) + "\n", "")


# -- Markdown ----------------------------------------------------------------------------------------

def test_markdown_writes_each_table_as_a_pipe_table_its_first_row_the_header(book):
    from pipeline.outputs import markdown

    text = markdown.render(book.corpus, "2017", lang.profile("en"))
    start = text.index("### 1A Points")
    assert text[start:text.index("## Law 2")] == "\n\n".join([
        '### 1A Points {#1A origin="made-up.txt:9-14,17"}',
        "Each trick scores as below; see [Law 2](#2).",
        "| Tricks | Points |\n|---|---|\n| 7 | 20[^1A-noot1] |\n| 8 and more | 30, see [Law 2](#2) |",
        "The scorer writes it down.",
        "[^1A-noot1]: doubled when vulnerable.", ""])
    assert "These rules are for four players.\n\n| Tables | Players |\n|---|---|\n| 2 | 8 |\n" in text
    assert "[**Dealer**]{#def-dealer}: the player who deals the cards.\n\n| Deal | Cards |\n|---|---|\n| first | 13 |\n" in text


def test_a_pipe_table_reads_back_as_the_tables_cells_its_rows_padded_and_a_bar_escaped():
    from markdown_it import MarkdownIt

    from pipeline.outputs import markdown

    text = ["LAW 5", "a | b c", "1 2 3"]
    blocks = [Block("article", "LAW 5", [1], cite="5"), table_block([(2, ["a | b", "c"]), (3, ["1", "2", "3"])])]
    ctx = corpus_of([reading(blocks)], source_lines(text=text))
    written = markdown.render(ctx.corpus, "2017", lang.profile("en"))
    assert "| a \\| b | c |  |\n|---|---|---|\n| 1 | 2 | 3 |" in written
    tokens = MarkdownIt("commonmark").enable("table").parse(written)
    read = [[], []]
    for i, tok in enumerate(tokens):
        if tok.type == "inline" and tokens[i - 1].type in ("th_open", "td_open"):
            read[tokens[i - 1].type == "td_open"].append(tok.content.replace("\\|", "|"))
    assert read == [["a | b", "c", ""], ["1", "2", "3"]]


# -- HTML --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(book, tmp_path_factory):
    from pipeline.outputs import html
    from pipeline.outputs.job import Job

    out = tmp_path_factory.mktemp("tables-site")
    html.write_html(Job.of(book.frozen(), out))
    return out / "html"


def parsed(path):
    import lxml.html

    return lxml.html.fromstring(path.read_bytes())


def test_the_article_page_shows_the_table_as_a_table_its_head_and_cells_in_a_scrolling_region(site):
    doc = parsed(site / "2017" / "1.html")
    [section] = doc.xpath("//section[@id='1A']")
    assert [el.tag if el.tag != "div" else el.get("class") for el in section.iterchildren()] == [
        "h2", "p", "law-table", "p"]
    [region] = section.xpath("div[@class='law-table']")
    assert (region.get("role"), region.get("tabindex"), region.get("aria-label")) == ("region", "0", "Table in 1A")
    assert [th.text_content() for th in region.xpath("table/thead/tr/th")] == ["Tricks", "Points"]
    assert region.xpath("table/thead/tr/th/@scope") == ["col", "col"]
    assert [[td.text_content() for td in tr.xpath("td")] for tr in region.xpath("table/tbody/tr")] == [
        ["7", "201"], ["8 and more", "30, see Law 2"]]
    # The note in a cell is the page's note 1, the citation a link.
    assert region.xpath(".//td/sup/a/@href") == ["#1A-noot1"]
    assert region.xpath(".//td/a[@class='ref']/@href") == ["../2017/2.html"]
    assert doc.xpath("//section[@class='notes']//li/@id") == ["1A-noot1"]


def test_the_contents_page_shows_the_introductions_and_the_definitions_tables(site):
    doc = parsed(site / "2017" / "index.html")
    [intro] = doc.xpath("//section[@id='intro']")
    assert [el.tag if el.tag != "div" else el.get("class") for el in intro.iterchildren()] == ["h2", "p", "law-table"]
    assert [[c.text_content() for c in tr] for tr in intro.xpath(".//table//tr")] == [["Tables", "Players"], ["2", "8"]]
    assert intro.xpath(".//div[@class='law-table']/@aria-label") == [f"Table in {TITLE}"]
    [dd] = doc.xpath("//dl[@class='definitions']/dd")
    assert [[c.text_content() for c in tr] for tr in dd.xpath(".//table//tr")] == [["Deal", "Cards"], ["first", "13"]]
    assert dd.xpath(".//div[@class='law-table']/@aria-label") == ["Table in Dealer"]


def test_the_style_sheet_lets_a_wide_table_scroll_in_its_region_not_the_page():
    css = (Path(__file__).parent.parent / "templates" / "html" / "lawbook.css").read_text(encoding="utf-8")
    assert ".law-table { margin: .8rem 0; overflow-x: auto; max-width: 100%; }" in css


# -- the PDF -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def book_pdf(book):
    import datetime
    import io

    from pypdf import PdfReader

    from pipeline.outputs import pdf
    from pipeline.outputs.book import compiling

    built = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    source = pdf.typst_source(book.corpus.find("edition"), built.date(), profile=lang.profile("en"))
    return source, PdfReader(io.BytesIO(compiling.render_pdf(source, built)))


def test_the_typst_source_sets_each_table_as_a_typst_table_with_its_head_and_cells(book_pdf):
    source, _ = book_pdf
    assert ('#law-table(table(columns: 2, table.header([#strong[#"Tricks";]], [#strong[#"Points";]]), [#"7";], '
            '[#"20";#footnote[#"doubled when vulnerable.";];], [#"8 and more";], '
            '[#"30, see ";#xref(<n2017-2>, "Law 2");]));') in source
    assert ('#law-table(table(columns: 2, table.header([#strong[#"Tables";]], [#strong[#"Players";]]), '
            '[#"2";], [#"8";]));') in source
    assert ('#strong[#"Dealer";]: #"the player who deals the cards.";\n\n'
            '#law-table(table(columns: 2, table.header([#strong[#"Deal";]], [#strong[#"Cards";]]), '
            '[#"first";], [#"13";]));') in source
    # In order among the section's paragraphs.
    assert source.index('#"Each trick scores') < source.index('[#strong[#"Tricks";]]') < source.index('#"The scorer')


def test_the_pdf_compiles_and_prints_the_cells_with_the_cells_note_at_the_foot(book_pdf):
    _, reader = book_pdf
    dests = {name: reader.get_destination_page_number(d) for name, d in reader.named_destinations.items()}
    page = reader.pages[dests["n2017-1A"]].extract_text()
    for words in ("Tricks", "Points", "8 and more", "30, see Law 2", "doubled when vulnerable."):
        assert words in page, words
    assert page.index("Each trick") < page.index("Tricks") < page.index("The scorer writes it down.")


# -- in a browser: axe-core, and a wide table on a phone ------------------------------------------------

WIDE = ["LAW 3 - THE WIDE TABLE", "Vulnerability Contract Undertricks Doubled Redoubled Honours Slam Total",
        "nonvulnerable fourspadesdoubled threeundertricks fivehundred onethousand onehundredfifty none 1650"]


@pytest.fixture(scope="module")
def wide_site(tmp_path_factory):
    """The made-up book with a Law 3 whose table is wider than a phone's screen, as a site."""
    from pipeline.outputs import html
    from pipeline.outputs.job import Job

    first = len(TEXT) + 1
    blocks = book_blocks() + [Block("article", "LAW 3", [first], cite="3"), Block("title", "The Wide Table", [first]),
                              table_block([(first + 1, WIDE[1].split()), (first + 2, WIDE[2].split())])]
    ctx = corpus_of([reading(blocks)], source_lines(text=TEXT + WIDE))
    assert ctx.log.errors == []
    out = tmp_path_factory.mktemp("wide-site")
    job = Job.of(ctx.frozen(), out)
    html.write_html(job)
    html.write_search_index(job)
    return out / "html"


@pytest.fixture
def phone(browser):
    from urllib.parse import urlparse

    context = browser.new_context(viewport={"width": 360, "height": 740})

    def here(route):  # nothing leaves this machine
        url = urlparse(route.request.url)
        if url.scheme == "file" or url.hostname == "127.0.0.1":
            route.continue_()
        else:
            route.abort()
    context.route("**/*", here)
    yield context.new_page()
    context.close()


def browser_ready():
    from pipeline.html_screenshots import CHROMIUM

    pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is missing: run make browser")


def test_a_wide_table_scrolls_in_its_region_on_a_phone_and_the_page_does_not(wide_site, phone):
    browser_ready()
    phone.goto((wide_site / "2017" / "3.html").as_uri())
    region = phone.locator("div.law-table")
    scroll, client = region.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll > client  # wider than the screen: it scrolls …
    assert phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [360, 360]
    # … by the keyboard too: the region takes the focus, and the arrow key scrolls it.
    region.focus()
    phone.keyboard.press("ArrowRight")
    phone.wait_for_function("document.querySelector('div.law-table').scrollLeft > 0")


def test_pages_with_tables_have_no_serious_or_critical_axe_violations(wide_site, phone):
    browser_ready()
    from conftest import AXE, serious_axe_violations

    if not AXE.exists():
        pytest.skip("axe-core is missing: run make axe (npm install into .cache/axe)")
    found = {}
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        for path in ("2017/1.html", "2017/3.html", "2017/index.html"):
            phone.goto((wide_site / path).as_uri())
            violations = serious_axe_violations(phone)
            if violations:
                found[(scheme, path)] = violations
    assert found == {}


# -- the comparison of two editions --------------------------------------------------------------------

def two_editions():
    """The made-up book as its 2017 edition, and a 2007 edition whose table has a row more and another
    third row (and no citation in it)."""
    old = book_blocks()
    old[9] = table_block([(11, ["Tricks", "Points"]), (12, ["7", "20" + NOTE_MARK]), (13, ["8", "30"]),
                          (14, ["9", "40"])], [Note("doubled when vulnerable.", [17], "print")])
    return corpus_of([reading(book_blocks()), reading(old, "old.txt", "2007")],
                     {**source_lines(), **source_lines("old.txt")})


@pytest.fixture(scope="module")
def comparison():
    from pipeline.outputs import diff

    ctx = two_editions()
    return ctx, diff.compare(*ctx.corpus.iterchildren("edition"))


def test_the_comparison_compares_a_table_row_by_row_and_each_changed_row_cell_by_cell(comparison):
    _, result = comparison
    [section] = result["articles"][0]["children"]
    assert (section["new"], section["status"]) == ("1A", "changed")
    assert result["articles"][0]["changes"]["sections"]["changed"] == ["1A"]
    [table] = section["tables"]
    assert (table["status"], table["after"]) == ("changed", 1)
    assert [row["op"] for row in table["rows"]] == ["equal", "equal", "changed", "delete"]
    assert table["rows"][0]["cells"] == [[{"op": "equal", "text": "Tricks"}], [{"op": "equal", "text": "Points"}]]
    assert table["rows"][1]["cells"][1] == [
        {"op": "equal", "text": "20"},
        {"op": "note", "status": "unchanged", "old_id": "2007/1A/noot1", "new_id": "2017/1A/noot1",
         "segments": [{"op": "equal", "text": "doubled when vulnerable."}]}]
    assert table["rows"][2]["cells"] == [[{"op": "equal", "text": "8 "}, {"op": "insert", "text": "and more"}],
                                         [{"op": "equal", "text": "30"}, {"op": "insert", "text": ", see Law 2"}]]
    assert table["rows"][3]["cells"] == [[{"op": "delete", "text": "9"}], [{"op": "delete", "text": "40"}]]
    # The paragraphs around it are compared as before, and the unchanged Law 2 carries no table.
    assert len(section["paragraphs"]) == 2 and "tables" not in result["articles"][1]


def test_the_comparisons_text_and_html_show_the_table_between_its_paragraphs(comparison):
    import lxml.html

    from pipeline.outputs.diff import render

    _, result = comparison
    text = render.to_text(result, lang.profile("en"))
    assert "\n".join([
        "    1A  Points",
        "      Each trick scores as below; see Law 2.",
        "      table (changed):",
        "        | Tricks | Points |",
        "        | 7 | 20[note: doubled when vulnerable.] |",
        "      ~ | 8 {+and more+} | 30{+, see Law 2+} |",
        "      - | [-9-] | [-40-] |",
        "      The scorer writes it down."]) in text
    doc = lxml.html.fromstring(render.to_html(result, lang.profile("en")))
    [node] = doc.xpath("//div[@id='c-1A']")
    assert [el.tag if el.tag != "div" else el.get("class") for el in node.iterchildren()] == [
        "node-head", "p", "redline-table", "p"]
    [region] = node.xpath("div[@class='redline-table']")
    assert (region.get("role"), region.get("tabindex"), region.get("aria-label")) == ("region", "0", "Table in 1A")
    assert [th.text_content() for th in region.xpath("table/thead/tr/th")] == ["Tricks", "Points"]
    assert region.xpath("table/tbody/tr/@class") == ["row-equal", "row-changed", "row-delete"]
    assert region.xpath("table/tbody/tr[2]/td[1]/ins/text()") == ["and more"]
    assert region.xpath("table/tbody/tr[3]/td/del/text()") == ["9", "40"]


def test_the_comparison_of_two_corpus_xml_files_reads_their_tables_as_the_tree_holds_them(comparison, tmp_path):
    import json

    from pipeline.outputs import diff
    from pipeline.outputs.diff import render

    ctx, result = comparison
    path = tmp_path / "corpus.xml"
    path.write_bytes(serialise.to_xml(ctx.corpus))
    read = serialise.read_corpus(path)
    assert json.loads(render.to_json(diff.compare(*read.iterchildren("edition")))) == \
        json.loads(render.to_json(result))


# -- align: the translation against its original --------------------------------------------------------

def aligned(translation_blocks):
    """align of a translation made of `translation_blocks` against the made-up book as its original."""
    from pipeline.corpus import align

    original = corpus_of([reading(book_blocks())], source_lines())
    translation = corpus_of([reading(translation_blocks, "nl.txt")], source_lines("nl.txt"), profile="nl")
    return align.align(serialise.to_json(translation.corpus), serialise.to_json(original.corpus))


def dutch(cells_of_third_row=("8 en meer", "30, zie artikel 2"), rows=None):
    """The made-up book in Dutch words, its table's numbers as the original's."""
    blocks = book_blocks()
    blocks[8] = Block("para", "Elke slag telt als hieronder; zie artikel 2.", [10])
    blocks[9] = table_block(rows or [(11, ["Slagen", "Punten"]), (12, ["7", "20" + NOTE_MARK]),
                                     (13, list(cells_of_third_row))],
                            [Note("verdubbeld in de kwetsbaarheid.", [17], "print")])
    return blocks


def test_align_matches_a_translated_table_whose_shape_numbers_references_and_notes_are_the_originals():
    result = aligned(dutch())
    [node] = [a for a in result.nodes if a.id == "2017/1A"]
    assert node.status == "match"
    assert (node.translation.refs, node.translation.notes, node.translation.tables) == (
        ["2017/2", "2017/2"], 1, [[["Slagen", "Punten"], ["7", "20"], ["8 en meer", "30, zie artikel 2"]]])
    assert node.to_json()["translation"]["tables"] == [[2, 2, 2]]


@pytest.mark.parametrize("table, status, said", [
    (dutch(("8 en meer", "35, zie artikel 2")), "table-differs",
     "table 1 row 3 cell 2 holds 35 2; the reference's 30 2"),
    (dutch(rows=[(11, ["Slagen", "Punten"]), (12, ["7", "20" + NOTE_MARK]), (13, ["8", "30, zie artikel 2"]),
                 (13, ["9 en meer", "40"])]), "table-differs", "table 1 has 4 rows; the reference's 3"),
    (dutch(("8 en meer 30, zie artikel 2",)), "table-differs", "table 1 row 3 has 1 cells; the reference's 2"),
    (dutch(("8 en meer", "30")), "refs-differ", None)])
def test_align_says_where_a_translated_table_differs_from_the_originals(table, status, said):
    from pipeline.corpus import align

    result = aligned(table)
    [node] = [a for a in result.nodes if a.id == "2017/1A"]
    assert node.status == status and result.status == 1
    if said:
        assert align.table_difference(node.translation, node.reference) == said
        assert f"nl.txt:9: 2017/1A: {said} ({FILE}:9)" in align.render_text(result, ("nl", "en"))


def test_the_original_beside_the_translation_shows_the_originals_table_where_it_stands(tmp_path):
    import lxml.html

    from pipeline.corpus import align
    from pipeline.outputs import html
    from pipeline.outputs.job import Job

    original = corpus_of([reading(book_blocks())], source_lines())
    translation = corpus_of([reading(dutch(), "nl.txt")], source_lines("nl.txt"), profile="nl")
    job = Job.of(translation.frozen(), tmp_path)
    job.made.alignment = align.align(serialise.to_json(translation.corpus), serialise.to_json(original.corpus))
    html.write_html(job)
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "1.html").read_bytes())
    [block] = doc.xpath("//div[@data-node='1A']")
    assert [el.tag if el.tag != "div" else el.get("class") for el in block.iterchildren()] == [
        "p", "p", "p", "law-table original-table", "ul", "p"]
    [region] = block.xpath("div")
    assert (region.get("lang"), region.get("aria-label"), region.get("tabindex")) == ("en", "Tabel van het origineel", "0")
    assert [[c.text_content() for c in tr] for tr in region.xpath("table/tr")] == [
        ["Tricks", "Points"], ["7", "201"], ["8 and more", "30, see Law 2"]]
    assert region.xpath("table/tr[1]/th/@scope") == ["col", "col"]
    assert [li.text_content() for li in block.xpath("ul[@class='original-notes']/li")] == ["1 doubled when vulnerable."]


def test_search_finds_the_words_of_a_tables_cells(wide_site, phone):
    browser_ready()
    import threading

    from pipeline import serve

    srv = serve.make_server(wide_site, 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        phone.goto(f"http://127.0.0.1:{srv.server_address[1]}/search.html?q=fourspadesdoubled")
        phone.wait_for_selector("ol.search-results li", timeout=10000)
        hits = phone.locator("ol.search-results li").evaluate_all(
            "els => els.map(li => [li.querySelector('a.hit').getAttribute('href'),"
            " li.querySelector('.excerpt').textContent])")
    finally:
        srv.shutdown()
        srv.server_close()
    assert [url for url, _ in hits] == ["2017/3.html"]
    assert "fourspadesdoubled" in hits[0][1]


# -- through make_corpus: a reader that sees a table ---------------------------------------------------

PAGE = """ARTIKEL 78

Artikel 78

Scoremethoden

1. Matchpunten
De score van elke slag staat in de tabel hieronder (zie artikel 77).
Slagen | Punten
7 | 20
8 | 30
Daarna telt de wedstrijdleider op.

2. IMP's
Het verschil wordt omgezet.
"""


def test_a_source_whose_reader_gives_a_table_block_is_built_into_the_corpus_with_every_line_accounted(tmp_path,
                                                                                                    monkeypatch):
    """The reader of a made-up wiki page, patched to see the lines with bars as a table (as a reader of
    printed books will see a table's cells): the corpus stages take it from there."""
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "page.txt").write_text(PAGE, encoding="utf-8")
    (folder / "sources.toml").write_text('[[source]]\nfile = "page.txt"\nedition = "2017"\n', encoding="utf-8")
    read = formats.read

    def reader_that_sees_tables(lines, source, log):
        made = read(lines, source, log)
        rows = [b for b in made.blocks if "|" in b.text]
        table = table_block([(b.first_line, [c.strip() for c in b.text.split("|")]) for b in rows])
        at = made.blocks.index(rows[0])
        made.blocks[at:at + len(rows)] = [table]
        return made
    monkeypatch.setattr(formats, "read", reader_that_sees_tables)
    ctx = stages.make_corpus(folder)
    corpus = ctx.corpus
    [table] = corpus.iter("table")
    assert (table.getparent().get("id"), table.get("sources")) == ("2017/78A", "page.txt:9-11")
    assert cells_of(table) == [["Slagen", "Punten"], ["7", "20"], ["8", "30"]]
    assert [c.tag for c in table.getparent()] == ["heading", "p", "table", "p"]
    assert [e for e in ctx.log.entries if e.kind == "error"] == []
    assert {n: ctx.fragments[0].ledger[n] for n in (9, 10, 11)} == {n: Placed("2017/78A") for n in (9, 10, 11)}
    assert_validates(corpus, serialise.to_json(corpus))


# -- the site's comparison of two editions in a browser --------------------------------------------

def test_the_sites_comparison_of_two_editions_with_tables_has_no_serious_or_critical_axe_violations(tmp_path, phone):
    browser_ready()
    from conftest import AXE, serious_axe_violations

    from pipeline.outputs import html
    from pipeline.outputs.job import Job

    if not AXE.exists():
        pytest.skip("axe-core is missing: run make axe (npm install into .cache/axe)")
    html.write_html(Job.of(two_editions().frozen(), tmp_path))
    phone.goto((tmp_path / "html" / "diff" / "2007-2017.html").as_uri())
    assert phone.locator("table.redline tr.row-delete").count() == 1
    assert serious_axe_violations(phone) == []
    assert phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [360, 360]
