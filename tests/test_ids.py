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


def test_notes_and_commentary_hang_below_their_node():
    note = NodeId.parse("2017/41A").note(1)
    assert str(note) == "2017/41A/noot1" and note.level == "noot" and str(note.parent) == "2017/41A"
    assert note.anchor == "41A-noot1" and note.typst_label == "n2017-41A-noot1"
    assert str(NodeId.parse("2017/54").commentary(2)) == "2017/54/toelichting2"
    assert ids.is_annex("2017/54/toelichting1") and not ids.is_annex("2017/54")


def test_malformed_ids_are_refused():
    for bad in ("53", "2017/", "2017/50a", "2017/50D2aa", "17/53", "2017/53/noot", "2017/53/voetnoot1",
                "2017/５３", "2017/53 ", " 2017/53", "2017/53a"):
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


citations = st.builds(
    lambda a, s, sub, it, depth: ids.make_citation(a, *([s, sub, it][:depth])),
    st.integers(1, 120).map(str), st.sampled_from("ABCDEFGH"), st.integers(1, 12).map(str),
    st.sampled_from("abcdefg"), st.integers(0, 3))
node_ids = st.builds(ids.join, st.sampled_from(["2007", "2017"]), citations)
any_text = st.text(alphabet="0123456789/ABCDabcdnotlichg ", max_size=24)


@given(node_ids, st.integers(1, 30))
def test_round_trip(node_id, n):
    node = NodeId.parse(node_id)
    assert str(node) == node_id
    assert NodeId.parse(str(node.note(n))) == node.note(n)
    assert NodeId.from_typst_label(node.typst_label) == node


def _schema_patterns():
    """The ID patterns of both schemas: (node pattern, note pattern) from RELAX NG and from JSON Schema."""
    rng = etree.parse(str(ROOT / "schema" / "corpus.rng"))
    params = [p.text for p in rng.iter("{*}param") if p.get("name") == "pattern" and "/" in p.text]
    schema = json.loads((ROOT / "schema" / "corpus.schema.json").read_text(encoding="utf-8"))
    found = []

    def walk(o):
        if isinstance(o, dict):
            if "/" in o.get("pattern", "") and "\\d{4}" in o.get("pattern", ""):
                found.append(o["pattern"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(schema)
    return params, found


@given(st.one_of(node_ids, node_ids.map(lambda i: i + "/noot1"), any_text))
def test_schema_patterns_accept_exactly_the_ids_the_type_accepts(text):
    rng_patterns, json_patterns = _schema_patterns()
    node = NodeId.parse(text)
    is_node = node is not None and node.annex is None
    is_note = node is not None and node.annex == ids.NOTE
    rng_node, rng_note = (re.compile(f"^(?:{p})$") for p in rng_patterns)
    json_node, json_note = (re.compile(p) for p in json_patterns)
    assert bool(rng_node.match(text)) == bool(json_node.search(text)) == is_node, text
    assert bool(rng_note.match(text)) == bool(json_note.search(text)) == is_note, text
