"""The roman subitem, 30B1(b)(i) (ID 2017/30B1b.i), through the stages: structure makes it where a
format's rules read list numbers at that level, both schemas take it, and every output labels it as
the law does, "(i)", anchors it by its ID's citation and shows readers its citation in the law's form."""
import json

from lxml import etree

from pipeline.core import ids, lang, tree
from pipeline.core.model import Block, Reading, Rules
from pipeline.core.report import BuildLog
from pipeline.corpus import structure
from pipeline.outputs import markdown, serialise
from pipeline.outputs.book import source as pdf_source, view as pdf_view
from pipeline.outputs.site import model, pages
from pipeline.reading.decode import Line

SOURCES = "a.txt:1"


def corpus_with_subitems():
    """Law 30 of 2017 with item 30B1(b) and its subitems (i) and (ii); 30B1(b)(ii) cites (i)."""
    corpus = tree.new_corpus()
    ed = tree.edition(corpus, "2017")
    article = tree.add_child(ed, "article", "30", "2017/30")
    etree.SubElement(article, "title", sources=SOURCES).text = "Pass out of rotation"
    node = article
    for level, num in (("section", "B"), ("subsection", "1"), ("item", "b")):
        node = tree.add_child(node, level, num, ids.child_id(node.get("id"), num))
    node.set("sources", SOURCES)
    for num, text in (("ii", "the second; see "), ("i", "the first.")):
        sub = tree.add_child(node, "subitem", num, ids.child_id(node.get("id"), num))
        p = etree.SubElement(sub, "p", sources=SOURCES)
        p.text = text
    for el in corpus.iter(*tree.NODE_TAGS):
        el.set("sources", SOURCES)
    ref = etree.SubElement(corpus.find(".//subitem[@num='ii']/p"), "ref", to="2017/30B1b.i", status="ok")
    ref.text = "Law 30B1(b)(i)"
    return corpus


def test_subitems_stand_in_number_order_with_their_ids():
    corpus = corpus_with_subitems()
    assert [(el.get("id"), el.get("num")) for el in corpus.iter("subitem")] == [("2017/30B1b.i", "i"),
                                                                              ("2017/30B1b.ii", "ii")]
    assert [tree.mark(el) for el in corpus.iter("section", "subsection", "item", "subitem")] == \
        ["B.", "1.", "(b)", "(i)", "(ii)"]


def test_both_schemas_take_a_subitem_and_the_json_names_its_type():
    corpus = corpus_with_subitems()
    serialise.validate_xml(corpus)
    data = serialise.to_json(corpus)
    serialise.validate_json(data)
    item = data["editions"][0]["articles"][0]["content"][0]["content"][0]["content"][0]
    assert [(n["id"], n["type"], n["num"]) for n in item["content"]] == [("2017/30B1b.i", "subitem", "i"),
                                                                         ("2017/30B1b.ii", "subitem", "ii")]
    bad = etree.fromstring(etree.tostring(corpus))
    bad.find(".//subitem").set("id", "2017/30B1bi")
    assert not serialise.relaxng().validate(bad)
    assert '"to": "2017/30B1b.i"' in json.dumps(data)


def test_markdown_heads_a_subitem_in_the_laws_form_anchored_by_its_id():
    text = markdown.render(corpus_with_subitems(), "2017", lang.profile("nl"))
    assert "###### 30B1(b)(i) {#30B1b.i origin=\"a.txt:1\"}" in text
    assert "[Law 30B1(b)(i)](#30B1b.i)" in text


def test_html_labels_a_subitem_in_the_laws_form_anchored_by_its_id():
    site = model.Site(corpus_with_subitems(), BuildLog(), lang.profile("nl"))
    view = site.node_view(tree.node_by_id(site.corpus, "2017/30B1b.i"), [])
    assert (view["cite"], view["shown"], view["tag"]) == ("30B1b.i", "30B1(b)(i)", "subitem")
    section = str(pages.environment(lang.profile("nl")).get_template("fragments.html").module.child(view))
    assert '<section class="subitem" id="30B1b.i"' in section
    # its number hangs as the law prints it, "(i)"; the words read are the law's form of its citation
    assert ('<h5 id="h-30B1b.i" class="hang"><a class="cite hang" href="#30B1b.i" data-mark="(i)">'
            '<span class="visually-hidden">30B1(b)(i)</span></a>') in section


def test_the_pdf_marks_a_subitem_as_the_law_does_and_labels_it_by_its_id():
    corpus = corpus_with_subitems()
    view = pdf_view.node_view(tree.node_by_id(corpus, "2017/30B1b.i"), set(), lang.profile("nl"))
    assert (view["mark"], str(view["label"]), str(view["level"])) == ("(i)", "n2017-30B1b.i", "5")
    assert pdf_source.node_id_of_label("n2017-30B1b.i") == "2017/30B1b.i"


def build(blocks, list_numbers):
    log = BuildLog()
    reading = Reading("f.txt", "wiki", "2017", blocks, rules=Rules(list_numbers=list_numbers))
    return structure.build_fragment(reading, log, structure.Evidence([Line("f.txt", 4, "(but see (ii))")], lang.profile("nl"))), log


def test_a_format_that_reads_list_numbers_at_the_subitem_level_gets_subitems():
    blocks = [Block("article", "Artikel 50D1", [1], cite="50D1"), Block("list", "an item", [2], number=1),
              Block("list", "first", [3], number=1, level=1), Block("list", "second", [4], number=2, level=1)]
    levels = {"section": "inferred", "subsection": "source", "item": "inferred"}
    fragment, _ = build(blocks, dict(levels, subitem="inferred"))
    subitems = [(el.get("id"), el.get("evidence")) for el in fragment.articles[0].iter("subitem")]
    assert subitems == [
        ("2017/50D1a.i", "subitem i of 2017/50D1a inferred from list number 1. indented 1 level(s); no citation "
                         "in the sources confirms it"),
        ("2017/50D1a.ii", "subitem ii of 2017/50D1a inferred from list number 2. indented 1 level(s); confirmed "
                          "by 'see (ii)' (f.txt:4)")]
    # Where the format does not read that level (the Dutch ones), the list stays text.
    fragment, log = build(blocks, levels)
    assert list(fragment.articles[0].iter("subitem")) == []
    assert [e.message for e in log.of_kind("damage")] == [
        f"list number {n}. nested deeper than an item; kept as a paragraph with its number" for n in (1, 2)]
