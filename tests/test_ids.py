"""The ID type: parse, format, relations and the forms the outputs use; the schemas agree with it."""
import json
import re

from hypothesis import given, strategies as st
from lxml import etree

from conftest import ROOT
from pipeline.core import ids
from pipeline.core.ids import NodeId


def test_parse_and_format_every_level():
    node = NodeId.parse("2017/50D2a")
    assert (node.edition, node.article, node.section, node.subsection, node.item) == ("2017", "50", "D", "2", "a")
    assert node.level == "item" and node.cite == "50D2a" and str(node) == "2017/50D2a"
    assert [str(a) for a in node.ancestors()] == ["2017/50D2a", "2017/50D2", "2017/50D", "2017/50"]
    assert str(NodeId.parse("2017/53").child("A")) == "2017/53A"
    assert str(NodeId.parse("2017/53A").child("1")) == "2017/53A1"
    assert str(NodeId.parse("2017/53A1").child("b")) == "2017/53A1b"


def test_a_subitem_is_its_items_id_a_dot_and_a_lowercase_roman_numeral():
    node = NodeId.parse("2017/30B1b.i")
    assert (node.article, node.section, node.subsection, node.item, node.subitem) == ("30", "B", "1", "b", "i")
    assert node.level == "subitem" and node.cite == "30B1b.i" and str(node) == "2017/30B1b.i"
    assert [str(a) for a in node.ancestors()] == ["2017/30B1b.i", "2017/30B1b", "2017/30B1", "2017/30B", "2017/30"]
    assert str(NodeId.parse("2017/40B2a").child("iii")) == "2017/40B2a.iii"
    assert ids.child_id("2017/40B2a", "iii") == "2017/40B2a.iii" and ids.child_id("2017/40B", "2") == "2017/40B2"
    assert ids.parse_citation("40B2a.iii") == {"article": "40", "section": "B", "subsection": "2", "item": "a",
                                               "subitem": "iii"}
    assert ids.parent_citation("40B2a.iii") == "40B2a" and ids.article_of("2017/40B2a.iii/noot1") == "2017/40"
    assert ids.make_id("2017", "30", "B", "1", "b", "i") == "2017/30B1b.i"
    note = node.note(1)
    assert str(note) == "2017/30B1b.i/noot1" and note.anchor == "30B1b.i-noot1" and note.parent == node
    assert node.anchor == "30B1b.i" and node.typst_label == "n2017-30B1b.i"
    assert NodeId.from_typst_label("n2017-30B1b.i") == node
    assert NodeId.from_typst_label("n2017-30B1b.i-noot1") == note
    assert str(node.in_edition("2007")) == "2007/30B1b.i"


def test_display_is_the_laws_own_form():
    assert NodeId.parse("2017/30B1b.i").display == "30B1(b)(i)"
    assert [ids.display(i) for i in ("2017/40B2a.iii", "2017/50D2a", "2017/47E1", "2017/47E", "2017/47",
                                     "2017/41A/noot1")] == ["40B2(a)(iii)", "50D2(a)", "47E1", "47E", "47", "41A"]
    # What the outputs show: the cite they have always shown, but a subitem in the law's form.
    assert [ids.shown(i) for i in ("2017/30B1b.i", "2017/50D2a", "2017/47E1", "2017/30B1b.i/noot1")] == \
        ["30B1(b)(i)", "50D2a", "47E1", "30B1(b)(i)"]


def test_roman_numerals_count_in_their_value():
    assert [ids.roman(n) for n in (1, 2, 3, 4, 5, 6, 9, 10, 11, 14, 19, 39)] == \
        ["i", "ii", "iii", "iv", "v", "vi", "ix", "x", "xi", "xiv", "xix", "xxxix"]
    assert [ids.letter_for(n, "subitem") for n in (1, 4, 9)] == ["i", "iv", "ix"]
    assert [ids.letter_for(n, "item") for n in (1, 9)] == ["a", "i"]
    order = ["2017/30B1b", "2017/30B1b.i", "2017/30B1b.ii", "2017/30B1b.iii", "2017/30B1b.iv", "2017/30B1b.v",
             "2017/30B1b.ix", "2017/30B1b.x", "2017/30B1b.xi", "2017/30B1c", "2017/30B1c.i", "2017/30B2"]
    assert sorted(reversed(order), key=ids.order_key) == order
    # As an item's letter, "i" is the ninth, after "h" and before "v"; as a subitem's numeral "v" is before "ix".
    assert ids.sort_key("h", "item") < ids.sort_key("i", "item") < ids.sort_key("v", "item")
    assert ids.sort_key("v", "subitem") < ids.sort_key("ix", "subitem")


def test_read_typed_reads_a_subitem_in_the_laws_form_and_in_the_ids():
    assert ids.read_typed("30B1(b)(i)") == (None, "30B1b.i")
    assert ids.read_typed("30b1b.i") == (None, "30B1b.i")
    assert ids.read_typed("2017/30B1b.i") == ("2017", "30B1b.i")
    assert ids.read_typed("2017 40b2(a)(iii)") == ("2017", "40B2a.iii")
    assert ids.read_typed("30B1b(ii.)") == (None, "30B1b.ii")  # as the text writes the numeral
    assert ids.read_typed("30B1b.i/noot2") == (None, "30B1b.i/noot2")
    for bad in ("30b1bi", "30B1.i", "30B1(b)(b)", "30B1b.iiii", "30B1b.vx", "30B.i"):
        assert ids.read_typed(bad) is None, bad


def test_notes_and_commentary_hang_below_their_node():
    note = NodeId.parse("2017/41A").note(1)
    assert str(note) == "2017/41A/noot1" and note.level == "noot" and str(note.parent) == "2017/41A"
    assert note.anchor == "41A-noot1" and note.typst_label == "n2017-41A-noot1"
    assert str(NodeId.parse("2017/54").commentary(2)) == "2017/54/toelichting2"
    assert ids.is_annex("2017/54/toelichting1") and not ids.is_annex("2017/54")


def test_malformed_ids_are_refused():
    for bad in ("53", "2017/", "2017/50a", "2017/50D2aa", "17/53", "2017/53/noot", "2017/53/voetnoot1",
                "2017/５３", "2017/53 ", " 2017/53", "2017/53a", "2017/30B1b.", "2017/30B1bi", "2017/30B1.i",
                "2017/30B1b.I", "2017/30B1b.iiii", "2017/30B1b.vx", "2017/30B1b.l", "2017/30B1b.i.i",
                "2017/30B1(b)(i)"):
        assert NodeId.parse(bad) is None, bad
        assert not ids.is_well_formed(bad), bad


def test_output_forms():
    node = NodeId.parse("2017/47E1")
    assert node.anchor == "47E1" and node.typst_label == "n2017-47E1"
    assert NodeId.from_typst_label("n2017-47E1") == node
    assert str(node.article_id) == "2017/47" and str(node.in_edition("2007")) == "2007/47E1"
    assert ids.article_of("2017/50D2a/noot1") == "2017/50"


def test_reading_order():
    order = ["2017/9", "2017/10", "2017/10A", "2017/10A2", "2017/10A2b", "2017/10B", "2017/11"]
    assert sorted(reversed(order), key=ids.order_key) == order


romans = st.integers(1, 39).map(ids.roman)
citations = st.builds(
    lambda a, s, sub, it, si, depth: ids.make_citation(a, *([s, sub, it, si][:depth])),
    st.integers(1, 120).map(str), st.sampled_from("ABCDEFGH"), st.integers(1, 12).map(str),
    st.sampled_from("abcdefgi"), romans, st.integers(0, 4))
node_ids = st.builds(ids.join, st.sampled_from(["2007", "2017"]), citations)
any_text = st.text(alphabet="0123456789/.ABCDabcdnotlichgvxr ", max_size=24)
# The introduction's ID and its near misses: NodeId takes "2017/intro" and the notes below it only.
introduction_ids = st.sampled_from(["2017/intro", "2017/intro/noot2", "2017/intro/toelichting1", "2017/introA",
                                    "2017/intro1", "2017/Intro", "2017/introduction", "intro", "2017/intro/"])


@given(node_ids, st.integers(1, 30))
def test_round_trip(node_id, n):
    node = NodeId.parse(node_id)
    assert str(node) == node_id
    assert NodeId.parse(str(node.note(n))) == node.note(n)
    assert NodeId.from_typst_label(node.typst_label) == node


@given(node_ids, node_ids)
def test_reading_order_is_the_order_of_the_parts(a, b):
    """Two IDs sort as their parts do: edition, then level by level numbers by value (roman numerals too),
    a node before the nodes below it."""
    x, y = NodeId.parse(a), NodeId.parse(b)

    def value(level, num):
        if num is None:
            return (-1, 0)
        if level == "subitem":
            return (0, ids.roman_value(num))
        return (0, int(num)) if num.isdigit() else (1, ord(num))
    expected = [x.edition] + [value(k, x.parts[k]) for k in ids.LEVELS], \
        [y.edition] + [value(k, y.parts[k]) for k in ids.LEVELS]
    assert (x.sort_key() < y.sort_key()) == (expected[0] < expected[1])
    assert (x.sort_key() == y.sort_key()) == (a == b)


@given(st.integers(1, 39), st.integers(1, 39))
def test_subitem_numerals_sort_by_their_value(m, n):
    assert ids.roman_value(ids.roman(n)) == n
    assert (ids.sort_key(ids.roman(m), "subitem") < ids.sort_key(ids.roman(n), "subitem")) == (m < n)
    assert ids.read_typed(f"30B1(b)({ids.roman(n)})") == (None, f"30B1b.{ids.roman(n)}")


def _schema_patterns():
    """The ID patterns of both schemas: (node pattern, note pattern) from RELAX NG and from JSON Schema."""
    rng = etree.parse(str(ROOT / "schema" / "corpus.rng"))
    params = [p.text for p in rng.iter("{*}param") if p.get("name") == "pattern" and "\\d{4}/" in p.text
              and "/def/" not in p.text and "/index" not in p.text and not _introductions_own(p.text)]
    schema = json.loads((ROOT / "schema" / "corpus.schema.json").read_text(encoding="utf-8"))
    found = []

    def walk(o):
        if isinstance(o, dict):
            if "/" in o.get("pattern", "") and "\\d{4}" in o.get("pattern", "") and "/def/" not in o["pattern"] \
                    and "/index" not in o["pattern"] \
                    and not _introductions_own(o["pattern"]):
                found.append(o["pattern"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(schema)
    return params, found


def _introductions_own(pattern):
    """The <introduction> element's own ID pattern (2017/intro only), beside the node and note patterns."""
    return re.fullmatch(r"\^?\\d\{4\}/intro\$?", pattern) is not None


@given(st.one_of(node_ids, node_ids.map(lambda i: i + "/noot1"), introduction_ids, any_text))
def test_schema_patterns_accept_exactly_the_ids_the_type_accepts(text):
    rng_patterns, json_patterns = _schema_patterns()
    node = NodeId.parse(text)
    is_node = node is not None and node.annex is None
    is_note = node is not None and node.annex == ids.NOTE
    rng_node, rng_note = (re.compile(f"^(?:{p})$") for p in rng_patterns)
    json_node, json_note = (re.compile(p) for p in json_patterns)
    assert bool(rng_node.match(text)) == bool(json_node.search(text)) == is_node, text
    assert bool(rng_note.match(text)) == bool(json_note.search(text)) == is_note, text


def test_a_definitions_id_is_its_term_in_lower_case_with_hyphens_and_both_schemas_take_it():
    assert ids.definition_id("2017", "Adjusted Score") == "2017/def/adjusted-score"
    assert ids.definition_id("2017", "Artificial call") == "2017/def/artificial-call"
    assert NodeId.parse("2017/def/alert") is None  # no citation reaches a definition
    rng = etree.parse(str(ROOT / "schema" / "corpus.rng"))
    [rng_pattern] = [p.text for p in rng.iter("{*}param") if p.get("name") == "pattern" and "/def/" in p.text]
    schema = json.loads((ROOT / "schema" / "corpus.schema.json").read_text(encoding="utf-8"))
    json_pattern = schema["definitions"]["definition"]["properties"]["id"]["pattern"]
    for text, ok in (("2017/def/adjusted-score", True), ("2017/def/a/b", False), ("2017/53A", False)):
        assert bool(re.fullmatch(rng_pattern, text)) == bool(re.search(json_pattern, text)) == ok, text


def test_an_index_entrys_id_is_its_headword_in_lower_case_with_hyphens_and_both_schemas_take_it():
    """The book's index (corpus/register.py): 2017/index and its entries, 2017/index/<the headword's slug>."""
    assert ids.index_id("2017") == "2017/index"
    assert ids.index_entry_id("2017", "Communication, Tempo and Deception") == \
        "2017/index/communication-tempo-and-deception"
    assert ids.index_entry_id("2017", "Imp (International Matchpoint)") == "2017/index/imp"
    rng = etree.parse(str(ROOT / "schema" / "corpus.rng"))
    entry = [p.text for p in rng.iter("{*}param") if p.get("name") == "pattern" and "/index/" in p.text]
    schema = json.loads((ROOT / "schema" / "corpus.schema.json").read_text(encoding="utf-8"))
    json_entry = schema["definitions"]["index_entry"]["properties"]["id"]["pattern"]
    for text, ok in (("2017/index/appeal", True), ("2017/index/a/b", False), ("2017/appeal", False)):
        assert all(bool(re.fullmatch(p, text)) == ok for p in entry), text
        assert bool(re.search(json_entry, text)) == ok, text
