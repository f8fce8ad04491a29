"""The typed view of the corpus tree (pipeline/core/view.py), on a small tree made by hand: exact IDs, exact
words, the tree itself behind every view, and a missing ID named where the schema promises one."""
import pytest
from lxml import etree

from pipeline.core import ids, view
from pipeline.core.view import CorpusView

CORPUS = """<corpus language="nl">
  <edition id="2007">
    <article id="2007/1" num="1" sources="a.txt:1-2"><title sources="a.txt:1">De kaarten</title>
      <p sources="a.txt:2">Er zijn 52 kaarten.</p></article>
  </edition>
  <edition id="2017">
    <introduction id="2017/intro" sources="b.txt:1-3"><title sources="b.txt:1">Inleiding</title>
      <p sources="b.txt:2">Deze spelregels<note form="print" num="1" id="2017/intro/noot1">Van de bond.</note>.</p>
    </introduction>
    <definitions><definition id="2017/def/alert" term="Alert" sources="b.txt:4"><p>Een waarschuwing.</p>
      </definition></definitions>
    <article id="2017/53" num="53" sources="b.txt:5-9"><title sources="b.txt:5">Voorspelen<note form="inline"
        id="2017/53/noot1">In de titel.</note></title>
      <section id="2017/53A" num="A" numbering="inferred" evidence="b.txt:7 cites 53A" sources="b.txt:6-9">
        <heading sources="b.txt:6">Als juist</heading>
        <p sources="b.txt:7">Zie <ref to="2017/53B 2007/1" status="ok" kind="section">53B</ref>
          en<note form="print" num="17" id="2017/53A/noot1">Een noot.</note> meer.</p>
        <subsection id="2017/53A1" num="1" sources="b.txt:8"><p sources="b.txt:8">Eerst.</p>
          <item id="2017/53A1a" num="a" sources="b.txt:9"><p sources="b.txt:9">een</p>
            <subitem id="2017/53A1a.i" num="i" sources="b.txt:9"><p sources="b.txt:9">twee</p></subitem></item>
        </subsection>
        <gap reason="tekst ontbreekt"/>
      </section>
      <section id="2017/53B" num="B" sources="b.txt:10"><p sources="b.txt:10">Tot slot.</p></section>
    </article>
    <commentary id="2017/53/toelichting1" on="2017/53A" author="Peter"><attribution>Peter</attribution>
      <p>Uitleg<note form="inline" id="2017/53/toelichting1/noot1">Erbij.</note>.</p></commentary>
    <commentary id="2017/54/toelichting1" author="Anna"><p>Alleen toelichting.</p></commentary>
    <index id="2017/index"><entry id="2017/index/alert" headword="Alert" sources="b.txt:11"/></index>
  </edition>
</corpus>"""


@pytest.fixture
def corpus():
    return CorpusView(etree.fromstring(CORPUS, etree.XMLParser(remove_blank_text=True)))


def test_the_editions_and_their_parts(corpus):
    assert [ed.id for ed in corpus.editions] == ["2007", "2017"]
    assert corpus.language == "nl"
    ed = corpus.edition("2017")
    assert [a.id for a in ed.articles] == ["2017/53"]
    assert ed.introduction is not None and ed.introduction.id == "2017/intro"
    assert ed.introduction.title == "Inleiding" and ed.introduction.node_id.anchor == "intro"
    assert [d.id for d in ed.definitions] == ["2017/def/alert"]
    assert ed.definitions[0].term == "Alert" and ed.definitions[0].slug == "alert"
    assert [c.id for c in ed.commentary] == ["2017/53/toelichting1", "2017/54/toelichting1"]
    assert ed.index is not None and ed.index.id == "2017/index"
    assert [(e.id, e.headword) for e in ed.index.entries] == [("2017/index/alert", "Alert")]
    assert corpus.edition("2007").introduction is None and corpus.edition("2007").index is None
    assert corpus.edition("2007").definitions == []
    with pytest.raises(KeyError, match="no edition '1997'"):
        corpus.edition("1997")


def test_a_node_reads_its_element(corpus):
    section = corpus.node("2017/53A")
    assert section.id == "2017/53A" and section.node_id == ids.NodeId.parse("2017/53A")
    assert section.tag == section.level == "section" and section.num == "A" and section.mark == "A."
    assert section.label is not None and section.label.tag == "heading" and section.label_text == "Als juist"
    assert [p.tag for p in section.texts] == ["p"]
    assert [c.id for c in section.children] == ["2017/53A1"]
    assert section.parent is not None and section.parent.id == "2017/53" and corpus.node("2017/53").parent is None
    assert section.inferred and section.evidence == "b.txt:7 cites 53A"
    assert section.sources == {"b.txt": {6, 7, 8, 9}} and section.origin is None
    assert [g.get("reason") for g in section.gaps] == ["tekst ontbreekt"]
    assert [n.id for n in section.iter()] == ["2017/53A", "2017/53A1", "2017/53A1a", "2017/53A1a.i"]
    subitem = corpus.node("2017/53A1a.i")
    assert subitem.mark == "(i)" and subitem.node_id.display == "53A1(a)(i)"
    # The view is the tree: the element itself, never a copy.
    assert section.element is corpus.tree.find("edition[@id='2017']/article/section")


def test_a_nodes_notes_are_its_labels_and_its_texts_not_its_childrens(corpus):
    article = corpus.node("2017/53")
    assert [n.id for n in article.notes] == ["2017/53/noot1"]  # its title's; the section's are its own
    notes = corpus.node("2017/53A").notes
    assert [(n.id, n.number, n.form, n.text) for n in notes] == [("2017/53A/noot1", "17", "print", "Een noot.")]
    assert notes[0].node_id.anchor == "53A-noot1"
    assert [n.id for n in corpus.edition("2017").notes()] == [
        "2017/intro/noot1", "2017/53/noot1", "2017/53A/noot1", "2017/53/toelichting1/noot1"]


def test_a_reference_reads_its_targets_status_kind_and_words(corpus):
    [ref] = corpus.node("2017/53A").references
    assert ref.targets == ["2017/53B", "2007/1"] and ref.target == "2017/53B"
    assert (ref.status, ref.kind, ref.reason, ref.words) == ("ok", "section", None, "53B")
    assert view.Reference(etree.Element("ref")).target is None


def test_commentary_reads_what_it_is_on(corpus):
    first, second = corpus.edition("2017").commentary
    assert (first.on, first.target, first.on_article, first.author) == ("2017/53A", "2017/53A", "2017/53", "Peter")
    assert first.attribution is not None and first.attribution.text == "Peter"
    assert [n.id for n in first.notes] == ["2017/53/toelichting1/noot1"] and len(first.paragraphs) == 1
    assert (second.on, second.target, second.on_article, second.attribution) == (
        None, "2017/54/toelichting1", "2017/54", None)


def test_the_index_of_nodes_holds_every_level_of_every_edition(corpus):
    assert "2017/53A1a.i" in corpus and "2007/1" in corpus
    assert "2017/intro" not in corpus and "2017/53/noot1" not in corpus  # nodes only
    assert corpus.find("2017/99") is None
    with pytest.raises(KeyError, match="no node '2017/99'"):
        corpus.node("2017/99")


def test_a_missing_id_is_named_where_the_schema_promises_one():
    article = etree.fromstring('<article num="12"><p>x</p></article>')
    assert view.optional_id(article) is None
    with pytest.raises(ValueError, match=r"^<article> 12 without its id, which the corpus tree gives every <article> \(line 1\)$"):
        view.element_id(article)
    with pytest.raises(ValueError, match="<article> 12 without its id"):
        view.Node(article).id
    with pytest.raises(ValueError, match="<note> without its id"):
        view.Note(etree.fromstring('<note form="inline" id="">x</note>')).id
    with pytest.raises(ValueError, match=r"<section> with the id 'A', which is not an ID"):
        view.parsed_id(etree.fromstring('<section id="A" num="A"/>'))
    corpus = CorpusView(etree.fromstring('<corpus><edition id="2017"><article num="1"/></edition></corpus>'))
    with pytest.raises(ValueError, match="<article> 1 without its id"):
        corpus.find("2017/1")


def test_nearest_id_is_the_closest_identified_element_around():
    corpus = etree.fromstring(CORPUS)
    note = corpus.find(".//section/p/note")
    assert view.nearest_id(note) == "2017/53A"
    assert view.nearest_id(corpus.find(".//article")) == "2007"
    assert view.nearest_id(corpus) is None
