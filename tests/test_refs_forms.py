"""The general citation forms of a law book, each on made-up sentences: a list of numbers after one
citation keyword ("Law 61, 62 or 64"), a designation down to its subitem and the relative words
around it ("[unless B1(b)(ii) above applies]", "(compare 1 preceding)", "(ii) above"), and the
citations in a node's title or heading ("Lost Rights under Laws 16B and 72C"), which count as the
node's references in refs.json and the graph; then the English book itself, where present."""
import types

import pytest
from hypothesis import given, settings, strategies as st
from lxml import etree

from pipeline.core import lang, tree
from pipeline.core.report import BuildLog
from pipeline.corpus import check, refs
from pipeline.outputs import graph, serialise

EN = lang.profile("en")
NL = lang.profile("nl")
from test_refs_en import ENGLISH, corpus_of  # the made-up corpus builder, one for both

from conftest import assert_validates

# The nodes of a little made-up book: every node a case below cites or stands in.
NODES = ["4", "12C2", "14", "16B", "17", "40", "57", "61", "62", "64", "70B1a", "70B1b.i", "70B1b.ii", "70B2a",
         "70C1a.i", "70C1a.ii", "70C1a.iii", "70C1b", "70C2", "70C3", "70D1h", "70D1i", "72C", "80B2b.i", "80B3"]


CORPUS = corpus_of(NODES)
INDEX = [el.get("id") for el in CORPUS.iter(*tree.NODE_TAGS)]


def mark(text, node, profile=EN):
    """(words, to, status and kind or reason) of every <ref> a paragraph `text` gets in `node` of a copy of
    CORPUS; the paragraph's text is checked to be unchanged by the markup."""
    corpus = etree.fromstring(etree.tostring(CORPUS))
    p = etree.SubElement(tree.node_by_id(corpus, node), "p", sources="a.txt:1")
    p.text = text
    refs.mark_container(p, set(INDEX), {}, refs.node_order(INDEX), profile)
    assert tree.plain_text(p) == text
    return [(words, el.get("to"), el.get("status") + (f" {el.get('kind') or el.get('reason')}"
                                                      if el.get("kind") or el.get("reason") else ""))
            for kind, words, el in tree.inline(p) if kind == tree.REF]


# -- 1. a list of numbers after one keyword ---------------------------------------------------------
LISTS = [
    ("the rules of Law 61, 62 or 64 then apply", [("Law 61", "2017/61", "ok"), ("62", "2017/62", "ok"),
                                                  ("64", "2017/64", "ok")]),
    ("in which event Law 14 or 17 governs.", [("Law 14", "2017/14", "ok"), ("17", "2017/17", "ok")]),
    ("as Law 14 and 17 say", [("Law 14", "2017/14", "ok"), ("17", "2017/17", "ok")]),
    ("under Law 14, 17 or Law 40", [("Law 14", "2017/14", "ok"), ("17", "2017/17", "ok"),
                                    ("Law 40", "2017/40", "ok")]),
    ("(Law 12C2, 14 or 16B)", [("Law 12C2", "2017/12C2", "ok"), ("14", "2017/14", "ok"),
                               ("16B", "2017/16B", "ok")]),
    # the plural as before
    ("Laws 4, 12C2 and 91 apply", [("Laws 4", "2017/4", "ok"), ("12C2", "2017/12C2", "ok"),
                                   ("91", "2017/91", "dangling article-absent")]),
    ("Laws 61 and 62", [("Laws 61", "2017/61", "ok"), ("62", "2017/62", "ok")]),
    # numbers that are no list of Laws: falling, counting things, or a comma list without a list word
    ("under Law 12, 3 or 4 boards are played", [("Law 12", "2017/12", "ok")]),
    ("Law 57 and 3 cards", [("Law 57", "2017/57", "ok")]),
    ("Law 61 or 14", [("Law 61", "2017/61", "ok")]),
    ("after Law 14, 17 boards remain", [("Law 14", "2017/14", "ok")]),
    ("Law 14, 17, 40 in turn", [("Law 14", "2017/14", "ok")]),
    # a range stays a range
    ("Law 61 to 64", [("Law 61 to 64", "2017/61 2017/62 2017/63 2017/64", "dangling article-absent")]),
]


@pytest.mark.parametrize("text, expected", LISTS, ids=[c[0] for c in LISTS])
def test_a_list_after_one_keyword(text, expected):
    assert mark(text, "2017/70C2") == expected


def test_a_list_after_one_dutch_keyword():
    assert mark("dan is artikel 61, 62 of 64 van toepassing", "2017/70C2", NL) == [
        ("artikel 61", "2017/61", "ok"), ("62", "2017/62", "ok"), ("64", "2017/64", "ok")]
    assert mark("artikel 57 en 3 kaarten", "2017/70C2", NL) == [("artikel 57", "2017/57", "ok")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 99), min_size=2, max_size=6, unique=True), st.sampled_from(["or", "and"]),
       st.sampled_from(["Law", "law", "LAW"]))
def test_a_rising_list_is_one_citation_per_number_and_any_other_is_one(numbers, word, keyword):
    text = f"{keyword} {', '.join(map(str, numbers[:-1]))} {word} {numbers[-1]} applies"
    found = [(text[c.start:c.end], c.parts["article"]) for c in refs.find_citations(text, EN)]
    if numbers == sorted(numbers):
        assert found == [(f"{keyword} {numbers[0]}", str(numbers[0]))] + [(str(n), str(n)) for n in numbers[1:]]
    else:
        assert found == [(f"{keyword} {numbers[0]}", str(numbers[0]))]


# -- 2. relative designations, down to the subitem ------------------------------------------------
# (text, the node it stands in, [(words, to, status)])
RELATIVE = [
    # a direction word like "above": "preceding"
    ("(compare 1 preceding), the Director", "2017/70C2", [("1 preceding", "2017/70C1", "ok")]),
    ("when B1(a) preceding then applies", "2017/70B2a", [("B1(a) preceding", "2017/70B1a", "ok")]),
    ("as in 1 preceding", "2017/70C1b", [("1 preceding", "2017/70C1", "ok")]),
    ("(compare 2 preceding)", "2017/70C1b", [("2 preceding", "2017/70C2",
                                              "suspect 'preceding' but 2017/70C2 stands below 2017/70C1b")]),
    # one designation with its item and subitem in brackets
    ("[unless B1(b)(ii) above applies]", "2017/70C1a.i", [("B1(b)(ii) above", "2017/70B1b.ii", "ok")]),
    ("(see B1(b)(i) above)", "2017/70C2", [("B1(b)(i) above", "2017/70B1b.i", "ok")]),
    ("see C1(a)(iii) below", "2017/70B2a", [("C1(a)(iii) below", "2017/70C1a.iii", "ok")]),
    ("a breach of B1(b)(i) may", "2017/70C2", [("B1(b)(i)", "2017/70B1b.i", "ok")]),
    ("as in 2(b)(i) above", "2017/80B3", [("2(b)(i) above", "2017/80B2b.i", "ok")]),
    ("(a)(ii) above", "2017/70C1b", [("(a)(ii) above", "2017/70C1a.ii", "ok")]),
    ("[B1(b)(ii) below]", "2017/70C2",
     [("B1(b)(ii) below", "2017/70B1b.ii", "suspect 'below' but 2017/70B1b.ii stands above 2017/70C2")]),
    # a subitem of the current item, alone in brackets
    ("proceed as in (ii) above", "2017/70C1a.iii", [("(ii) above", "2017/70C1a.ii", "ok")]),
    ("except as in (i) above", "2017/70C1a.ii", [("(i) above", "2017/70C1a.i", "ok")]),
    ("except as in (iii) below", "2017/70C1a", [("(iii) below", "2017/70C1a.iii", "ok")]),
    # "(i)" is a letter too: an item where only the item is in the book
    ("except as in (i) below", "2017/70D1h", [("(i) below", "2017/70D1i", "ok")]),
    ("except as in (ii) below", "2017/70C2", [("(ii) below", "", "suspect '(ii)' names a subitem, but 2017/70C2 "
                                                                  "is not in an item")]),
    # "as in" before a designation, as "see" is
    ("otherwise, as in (a), the call stands", "2017/70C1b", [("(a)", "2017/70C1a", "ok")]),
    ("As in B the claim is void.", "2017/70C2", [("B", "2017/70B", "ok")]),
    ("as in a duplicate game", "2017/70C2", []),
    # the same words that are no citation
    ("A preceding bid is cancelled.", "2017/70C2", []),
    ("Once play ends. A following trick", "2017/70C2", []),
    ("the last preceding call", "2017/70C2", []),
]


@pytest.mark.parametrize("text, node, expected", RELATIVE, ids=[c[0] for c in RELATIVE])
def test_a_relative_designation(text, node, expected):
    assert mark(text, node) == expected


def marked_with_log(text, node, corpus):
    """The refs (words, to, status) a paragraph `text` on line 7 of a.txt gets in `node` of `corpus`, and the
    report entries (kind, file, line, message) the marking logs."""
    p = etree.SubElement(tree.node_by_id(corpus, node), "p", sources="a.txt:7")
    p.text = text
    index = [el.get("id") for el in corpus.iter(*tree.NODE_TAGS)]
    log = BuildLog()
    refs.mark_container(p, set(index), {}, refs.node_order(index), EN, log)
    return ([(r.text, r.get("to"), r.get("status")) for r in p],
            [(e.kind, e.file, e.line, e.message) for e in log.entries])


def test_a_letter_that_is_a_numeral_too_is_uncertain_where_both_readings_are_in_the_book():
    # in item 2017/90D1h, "(i)" is subitem 2017/90D1h.i and item 2017/90D1i: both are in this book
    assert marked_with_log("as in (i) below", "2017/90D1h", corpus_of(["90D1h.i", "90D1i"])) == (
        [("(i) below", "2017/90D1h.i", "ok")],
        [("inference", "a.txt", 7, "'(i) below' in 2017/90D1h is uncertain: read as 2017/90D1h.i, but 2017/90D1i "
                                   "is in the corpus too")])
    # where only one reading's target is there, nothing is uncertain
    assert marked_with_log("as in (i) below", "2017/90D1h", corpus_of(["90D1h", "90D1i"])) == (
        [("(i) below", "2017/90D1i", "ok")], [])
    assert marked_with_log("as in (ii) below", "2017/90D1h", corpus_of(["90D1h.ii", "90D1i"])) == (
        [("(ii) below", "2017/90D1h.ii", "ok")], [])


def test_a_relative_designation_gives_its_parts_and_span():
    text = "provided that [but see B1(b)(ii) above]. Then"
    [c] = refs.find_citations(text, EN)
    assert (text[c.start:c.end], c.relative, c.direction) == ("B1(b)(ii) above", "B1(b)(ii)", "above")
    assert refs.resolve(c, "2017", "2017/70C2") == (["2017/70B1b.ii"], None)


# -- 3. citations in titles and headings ------------------------------------------------------------
BOOK = """<corpus><edition id="2017">
  <article id="2017/16" num="16" sources="a.txt:1-2"><section id="2017/16B" num="B" sources="a.txt:2">
    <p sources="a.txt:2">Made-up text.</p></section></article>
  <article id="2017/38" num="38" sources="a.txt:3-8">
    <title sources="a.txt:3">Lost Claims (see also Law 16)</title>
    <section id="2017/38C" num="C" sources="a.txt:4-5"><heading sources="a.txt:4">Nothing Cited Here</heading>
      <p sources="a.txt:5">See D below.</p></section>
    <section id="2017/38D" num="D" sources="a.txt:6-8"><heading sources="a.txt:6-7">Lost Rights under
Laws 16B and 72C, and C above</heading>
      <p sources="a.txt:8">Law 16B may apply.</p></section></article>
</edition></corpus>"""
LINES = ["LAW 16", "B. Made-up text.", "LAW 38 Lost Claims (see also Law 16)", "C. Nothing Cited Here",
         "See D below.", "D. Lost Rights under", "Laws 16B and 72C, and C above", "Law 16B may apply."]


@pytest.fixture
def book(tmp_path):
    ctx = types.SimpleNamespace(corpus=etree.fromstring(BOOK), sources_dir=tmp_path, profile=EN, log=BuildLog(),
                                options=types.SimpleNamespace(known_missing=None),
                                lines={"a.txt": [types.SimpleNamespace(file="a.txt", num=n, text=t)
                                                 for n, t in enumerate(LINES, 1)]})
    refs.find_references(ctx)
    return ctx


def test_a_heading_and_a_title_cite_as_their_node(book):
    found = [(r.source_id, r.target, r.words, r.status, r.kind, r.locations) for r in refs.references(book)]
    assert found == [
        ("2017/38", "2017/16", "Law 16", "ok", None, ["a.txt:3"]),
        ("2017/38C", "2017/38D", "D below", "ok", None, ["a.txt:5"]),
        ("2017/38D", "2017/16B", "Laws 16B", "ok", None, ["a.txt:7"]),
        ("2017/38D", "2017/72C", "72C", "dangling", "article-absent", ["a.txt:7"]),
        ("2017/38D", "2017/38C", "C above", "ok", None, ["a.txt:7"]),
        ("2017/38D", "2017/16B", "Law 16B", "ok", None, ["a.txt:8"]),
    ]


def test_a_heading_keeps_its_text_and_the_corpus_its_schema(book):
    heading = book.corpus.find(".//section[@id='2017/38D']/heading")
    assert len(heading) == 0 and heading.text == "Lost Rights under\nLaws 16B and 72C, and C above"
    assert book.corpus.find(".//article/title").text == "Lost Claims (see also Law 16)"
    assert_validates(book.corpus, serialise.to_json(book.corpus))


def test_a_heading_reference_is_in_the_graph_and_the_check(book):
    references = refs.references(book)
    g = graph.build_graph(book.corpus, references)
    assert [(d["words"], d["status"], d["source"]) for d in g.succ["2017/38D"]["2017/72C"].values()] == [
        ("72C", "dangling", "a.txt:7")]
    data = graph.graph_json(g, references)
    node_72c = next(n for n in data["nodes"] if n["id"] == "2017/72C")
    assert node_72c["present"] is False and [c["from"] for c in node_72c["cited_by"]] == ["2017/38D"]
    assert check.summary(references) == {"refs": 6, "ok": 5, "known-missing": 0, "dangling": 1, "suspect": 0}


def test_a_label_outside_a_node_is_not_read(book):
    # (only a node's title or heading is its label; a commentary's attribution is no heading)
    assert refs.LABEL_TAGS == ("title", "heading")
    assert all(r.source_id.startswith("2017/") for r in refs.references(book))


# -- the English book, where present --------------------------------------------------------------
def whole_book():
    path = ENGLISH / "laws2017-en.txt"
    if not path.is_file():
        pytest.skip(f"the English original is not at {path} (it is not part of the project)")
    return path.read_bytes().decode("cp1252", errors="replace")


def test_the_english_book_cites_each_number_of_its_lists_and_its_subitems():
    text = whole_book()
    found = [text[c.start:c.end] for c in refs.find_citations(text, EN)]
    for words in (["Law 30", "31", "32"], ["Law 53", "56"], ["Laws 4", "12C2", "91"]):
        at = found.index(words[0])
        assert found[at:at + len(words)] == words
    assert "B2(a)(v) above" in found and "1 preceding" in found and "B1(a) preceding" in found
    assert "(v) above" not in found  # read as part of "B2(a)(v) above", not as an item of its own
