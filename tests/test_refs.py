"""Cross-references: the phrase table, and the references in the five real sources."""
import copy
import json
import re
from pathlib import Path

import pytest
from lxml import etree

from pipeline.publish import run as build
from pipeline import cli
from pipeline.corpus import refs, stages
from pipeline.outputs import serialise
from pipeline.core import tree
from pipeline.core import lang

from conftest import assert_validates

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
F000, F001, F002, F003, F004 = sorted(p.name for p in SOURCES.glob("*.txt"))


def read(phrase, node="2017/53A", order=None):
    """(words, targets or 'suspect') of every citation in `phrase`, read as if it stood in `node`."""
    edition = node.split("/")[0]
    citations = refs.find_citations(phrase, lang.profile("nl"))
    resolved = refs.resolve_phrase(phrase, citations, edition, node, set(), {}, order or {}, lang.profile("nl"))
    return [(phrase[c.start:c.end], "suspect" if r.reason else " ".join(r.targets))
            for c, r in zip(citations, resolved)]


# (phrase, the node it stands in, expected (words, targets) in order)
PHRASES = [
    # plain
    ("zie artikel 47E1", "2017/53A", [("artikel 47E1", "2017/47E1")]),
    ("Artikel 16C is van toepassing.", "2017/53B", [("Artikel 16C", "2017/16C")]),
    ("zie artikel\u00a047E1", "2017/53A", [("artikel\u00a047E1", "2017/47E1")]),
    ("(zie artikel 47 E2)", "2017/41A", [("artikel 47 E2", "2017/47E2")]),
    ("(zie artikel 16C).", "2017/24", [("artikel 16C", "2017/16C")]),
    ("zie artikel 50D2a", "2017/24", [("artikel 50D2a", "2017/50D2a")]),
    ("zie artikel 50D2(a) voor", "2017/24", [("artikel 50D2(a)", "2017/50D2a")]),
    ("(zie artikel 12C1) als", "2017/16C3", [("artikel 12C1", "2017/12C1")]),
    ("ARTIKEL 54 geldt", "2017/41A", [("ARTIKEL 54", "2017/54")]),
    ("Zie artikel 59, als de speler", "2017/50D2a", [("artikel 59", "2017/59")]),
    # lists and pairs
    ("(zie artikel 20F2 en 20F3)", "2007/41B", [("artikel 20F2", "2007/20F2"), ("20F3", "2007/20F3")]),
    ("(zie artikel 20F2 en artikel 20F3)", "2017/41B",
     [("artikel 20F2", "2017/20F2"), ("artikel 20F3", "2017/20F3")]),
    ("artikel 20F2 en F3", "2017/41B", [("artikel 20F2", "2017/20F2"), ("F3", "2017/20F3")]),
    ("artikelen 50 en 51", "2017/24E", [("artikelen 50", "2017/50"), ("51", "2017/51")]),
    ("de artikelen 42, 43 en 44", "2017/41A",
     [("artikelen 42", "2017/42"), ("43", "2017/43"), ("44", "2017/44")]),
    ("artikel 16C of 16D", "2017/24", [("artikel 16C", "2017/16C"), ("16D", "2017/16D")]),
    # ranges: every article in between is a target
    ("artikelen 12 t/m 14", "2017/16C3", [("artikelen 12 t/m 14", "2017/12 2017/13 2017/14")]),
    ("artikelen 12 tot en met 14", "2017/16C3", [("artikelen 12 tot en met 14", "2017/12 2017/13 2017/14")]),
    ("artikelen 12 t/m 14 en 16", "2017/24",
     [("artikelen 12 t/m 14", "2017/12 2017/13 2017/14"), ("16", "2017/16")]),
    ("artikel 12A t/m C", "2017/24", [("artikel 12A t/m C", "2017/12A 2017/12B 2017/12C")]),
    # verb forms around the citation: only the citation is the ref
    ("is artikel 57 van toepassing", "2017/53C", [("artikel 57", "2017/57")]),
    ("behoudens wat bepaald wordt in artikel 53A -", "2017/53B", [("artikel 53A", "2017/53A")]),
    ("De tegenspelers (onderworpen aan artikel 16)", "2017/41B", [("artikel 16", "2017/16")]),
    ("in overeenstemming met artikel 41", "2017/24", [("artikel 41", "2017/41")]),
    # abbreviations
    ("dan geldt art. 58.", "2017/47B", [("art. 58", "2017/58")]),
    ("Art.53 Accepteren", "2017/47B", [("Art.53", "2017/53")]),
    ("dan geldt art 58. De juiste", "2017/54", [("art 58", "2017/58")]),
    # inside the same article, section or subsection
    ("(maar zie B)", "2017/53A", [("B", "2017/53B")]),
    ("(maar zie b)", "2017/53A", [("b", "2017/53B")]),  # a lowercase section letter is read as the section
    ("zie c2 hierboven", "2017/16C3", [("c2 hierboven", "2017/16C2")]),
    ("Volgens e1a moet", "2017/47B", [("e1a", "2017/47E1a")]),
    ("(zie B), hebben", "2007/41C", [("B", "2007/41B")]),
    ("(zie echter B)", "2017/53C", [("B", "2017/53B")]),
    ("(maar zie E hieronder)", "2017/24A", [("E hieronder", "2017/24E")]),
    ("een overtreding van C2 hierboven de", "2017/16C3", [("C2 hierboven", "2017/16C2")]),
    ("de bepaling in (b) hieronder moet", "2017/50D1a", [("(b) hieronder", "2017/50D1b")]),
    ("herstel volgens (a), kan", "2017/47E1b", [("(a)", "2017/47E1a")]),
    ("de voorwaarden A t/m E gelden", "2017/54",
     [("A t/m E", "2017/54A 2017/54B 2017/54C 2017/54D 2017/54E")]),
    # edition-aware: the same words cite into the edition where they stand
    ("(zie artikel 47E2)", "2007/41A", [("artikel 47E2", "2007/47E2")]),
    # damage
    ("en artikel artikel 63A1 is niet", "2017/47E1", [("artikel artikel 63A1", "2017/63A1")]),
    ("(zie de artikel 50 en artikel 50)", "2017/24E", [("artikel 50", "2017/50"), ("artikel 50", "suspect")]),
    ("zie artikel 50a", "2017/24", [("artikel 50a", "suspect")]),
    ("zie C2A", "2017/16C3", [("C2A", "suspect")]),  # an item letter is never a capital
    ("artikelen 14 t/m 12", "2017/24", [("artikelen 14 t/m 12", "suspect")]),
    ("volgens (a)", "2017/53A", [("(a)", "suspect")]),  # a section has no items to resolve against
    # the current article by its words ("as this Law provides")
    ("zoals in dit artikel beschreven", "2017/24C", [("dit artikel", "2017/24")]),
    ("in dit artikel, zie artikel 49 -strafkaart", "2017/47B", [("dit artikel", "2017/47"), ("artikel 49", "2017/49")]),
    ("Dit artikel 12 geldt", "2017/47B", [("artikel 12", "2017/12")]),  # before a number, "artikel" is the keyword
    # before a direction word: a list of designations, a subsection's bare number
    ("zie A en B hierboven", "2017/53C", [("A", "2017/53A"), ("B hierboven", "2017/53B")]),
    ("ondanks 1 en 2 hierboven", "2017/12C3", [("1", "2017/12C1"), ("2 hierboven", "2017/12C2")]),
    ("de artikelen 50 en 51 hierboven", "2017/24E", [("artikelen 50", "2017/50"), ("51", "2017/51")]),
    ("artikel 30B1(b)(i) geldt", "2017/24E", [("artikel 30B1(b)(i)", "2017/30B1b.i")]),
    # not citations
    ("is zij onderworpen aan het toepasselijke artikel.", "2007/25A1", []),
    ("de 13 slagen hierboven", "2017/53A", []),  # a number is a designation only just before the word
    ("artikel 57 en 3 kaarten", "2017/53C", [("artikel 57", "2017/57")]),  # "en 3" is no second article
    ("onderworpen aan artikel 16 De leider", "2017/41B", [("artikel 16", "2017/16")]),  # "De" is no section
    ("De hierboven genoemde kaart", "2017/24A", []),
    ("welke van de mogelijkheden, hieronder genoemd, hij", "2017/50D2", []),
    ("zie de leider", "2017/53A", []),
    ("zie ook de regels", "2017/53A", []),
    ("volgens u is dat juist", "2017/53A", []),  # the pronoun, not section U
    ("zie o.a. artikel 12", "2017/53A", [("artikel 12", "2017/12")]),  # an abbreviation, not section O
    ("voor zijn RT heeft gespeeld", "2017/57C2", []),
    ("de start 5 minuten later", "2017/53A", []),
    ("de laatste 13 slagen en 2 kaarten", "2017/53A", []),
    ("gelijktijdig/gelijktijdig gesloten uit", "2017/54", []),
]


@pytest.mark.parametrize("phrase, node, expected", PHRASES, ids=[p for p, _, _ in PHRASES])
def test_phrase(phrase, node, expected):
    assert read(phrase, node) == expected


def test_the_table_is_large_enough():
    assert len(PHRASES) >= 40
    assert sum(1 for _, _, expected in PHRASES if not expected) >= 8


def test_hierboven_pointing_down_is_suspect():
    order = {"2017/16C1": 0, "2017/16C2": 1, "2017/16C3": 2}
    assert read("van C2 hierboven", "2017/16C3", order) == [("C2 hierboven", "2017/16C2")]
    assert read("van C3 hierboven", "2017/16C1", order) == [("C3 hierboven", "suspect")]


# -- the five real sources ----------------------------------------------------------
@pytest.fixture(scope="module")
def ctx(five_sources_as_read):
    """The corpus as the sources say it: without sources/corrections.toml (tests/test_corrections.py
    has the corrected corpus), so 47E's items are 47E1a and 47E1b as the sources number them."""
    return five_sources_as_read


@pytest.fixture(scope="module")
def corpus(ctx):
    return ctx.corpus


@pytest.fixture(scope="module")
def found(ctx):
    return refs.references(ctx)


def cited(found, source_id):
    """(words, target, status) cited from `source_id`, in text order."""
    return [(r.words, r.target, r.status) for r in found if r.source_id == source_id]


def test_2017_41A_cites_47E_and_the_absent_54(found):
    assert cited(found, "2017/41A") == [("artikel 47E", "2017/47E", "ok"),
                                        ("artikel 54", "2017/54", "dangling")]
    assert [r.kind for r in found if r.target == "2017/54" and r.source_id == "2017/41A"] == ["article-absent"]


def test_2007_41A_cites_2007_47E2(found):
    assert cited(found, "2007/41A") == [("artikel 47E2", "2007/47E2", "dangling")]


def test_2017_53A(found):
    assert cited(found, "2017/53A") == [("artikel 47E1", "2017/47E1", "ok"), ("B", "2017/53B", "ok"),
                                        ("artikel 47B", "2017/47B", "ok")]


def test_2007_41B_pair_gives_both_targets(found):
    assert cited(found, "2007/41B")[:2] == [("artikel 20F2", "2007/20F2", "dangling"),
                                            ("20F3", "2007/20F3", "dangling")]


def test_relative_references(found):
    assert cited(found, "2017/16C3") == [("artikel 12C1", "2017/12C1", "dangling"),
                                         ("C2 hierboven", "2017/16C2", "ok")]
    assert cited(found, "2017/24A") == [("E hieronder", "2017/24E", "ok")]
    assert cited(found, "2017/50D1a") == [("(b) hieronder", "2017/50D1b", "ok")]
    assert cited(found, "2017/47E1b") == [("(a)", "2017/47E1a", "ok")]
    assert cited(found, "2017/53C") == [("B", "2017/53B", "ok"), ("artikel 57", "2017/57", "ok")]


def test_artikel_artikel_63A1_is_one_reference(ctx, corpus, found):
    # The repair stage collapsed the doubled word in the text and logged it; one ref remains.
    repairs = [e for e in ctx.log.of_kind("repair") if e.before == "artikel artikel"]
    assert [(e.file, e.line) for e in repairs] == [(F002, 7)]
    p = tree.node_by_id(corpus, "2017/47E1").find("p")
    assert "artikel 63A1 is niet van toepassing" in tree.plain_text(p)
    assert [(r.text, r.get("to")) for r in p.iter("ref") if "63A1" in r.get("to")] == [("artikel 63A1",
                                                                                         "2017/63A1")]


def test_duplicated_target_in_24E_is_suspect(corpus, found):
    p = tree.node_by_id(corpus, "2017/24E").find("p")
    assert [(r.text, dict(r.attrib)) for r in p.iter("ref")] == [
        ("artikel 50", {"to": "2017/50", "status": "ok"}),
        ("artikel 50", {"to": "2017/50", "status": "suspect",
                        "reason": "duplicated target: 2017/50 is already cited by 'artikel 50' just before"})]
    assert cited(found, "2017/24E")[1] == ("artikel 50", "2017/50", "suspect")


def test_24B_cites_within_its_edition(found):
    assert cited(found, "2007/24B") == [("artikel 23", "2007/23", "dangling")]
    assert cited(found, "2017/24B") == [("artikel 72C", "2017/72C", "dangling")]


def test_notes_cite_under_their_own_id(corpus, found):
    assert cited(found, "2017/50D2a/noot1") == [("artikel 59", "2017/59", "dangling")]
    assert cited(found, "2017/50D2b/noot1") == [("artikel 50D2", "2017/50D2", "ok")]
    assert cited(found, "2007/25A1/noot1") == [("artikel 25A", "2007/25A", "ok")]
    note = corpus.xpath("//note[@id='2017/50D2b/noot1']")[0]
    assert note.find("ref").getparent() is note  # inside the note, not across it


def test_commentary_citations(corpus, found):
    assert cited(found, "2017/54/toelichting1") == [
        ("artikel 54", "2017/54", "dangling"),
        *[("A t/m E", f"2017/54{s}", "dangling") for s in "ABCDE"],
        ("art 58", "2017/58", "dangling")]


def test_commentary_examples_are_left_alone(corpus):
    # The commentator's numbered examples ("1. zijn partner verricht geen handeling.")
    # are his own list, not subsections of article 54; the attribution names no article.
    commentary = corpus.find(".//commentary")
    unmarked = [tree.plain_text(p)[:2] for p in commentary.iterchildren("p") if p.find("ref") is None]
    assert unmarked == ["Vo", "1.", "2.", "3."]
    assert commentary.find("attribution").find("ref") is None


def test_every_artikel_with_a_number_is_a_reference_or_explained(ctx, corpus):
    """Count "artikel"/"art." + number in the raw sources, file by file.

    Explained without a ref: lines dropped as page furniture (page titles "ARTIKEL 54",
    "Art.53 …") and article anchors and headings ("Artikel 53", "ARTIKEL 24"). Every
    other one is a keyword inside the words of a <ref> in a paragraph or note from
    that file ("artikel artikel 63A1" has one number: it counts once, as its one ref).
    """
    keyword = re.compile(r"(?<!\w)(?:artikel(?:en)?|art\.?)\s*\d", re.IGNORECASE)
    dropped = {(e.file, e.line) for e in ctx.log.of_kind("dropped")}
    article_lines = {(name, n) for a in corpus.iter("article")
                     for name, nums in tree.parse_sources(a.get("sources")).items() for n in nums}
    text_lines = {(name, n) for c in corpus.iter("p", "note")
                  for name, nums in tree.parse_sources(c.get("sources")).items() for n in nums}
    totals = {}
    for name, lines in ctx.lines.items():
        in_text = explained = 0
        for line in lines:
            hits = len(keyword.findall(line.text))
            if not hits:
                continue
            if (name, line.num) in text_lines:
                in_text += hits
            else:
                assert (name, line.num) in dropped or (
                    (name, line.num) in article_lines and re.match(r"(?i)art(ikel|\.)\s*\d+[A-Z]?\d*(\s|$)", line.text)
                ), f"{name}:{line.num}: {line.text!r}"
                explained += hits
        # A keyword with its number in the words of a ref ("dit artikel" is a ref without one).
        marked = sum(len(keyword.findall(r.text)) for c in corpus.iter("p", "note")
                     if name in tree.parse_sources(c.get("sources")) for r in c if r.tag == "ref")
        assert in_text == marked, name
        totals[name] = (in_text, explained)
    assert totals == {F000: (24, 5), F001: (11, 3), F002: (6, 5), F003: (4, 1), F004: (3, 2)}


def test_plain_text_is_unchanged_by_ref_markup():
    ctx = stages.make_corpus(SOURCES, chain=stages.CORPUS.disable("find_references"))
    before = [tree.plain_text(c) for c in ctx.corpus.iter("p", "note")]
    marks = [tree.text_with_marks(c) for c in ctx.corpus.iter("p")]
    refs.find_references(ctx)
    assert ctx.corpus.find(".//ref") is not None
    assert [tree.plain_text(c) for c in ctx.corpus.iter("p", "note")] == before
    assert [tree.text_with_marks(c) for c in ctx.corpus.iter("p")] == marks


def test_running_the_stage_again_changes_nothing(ctx):
    again = copy.deepcopy(ctx.corpus)
    first = serialise.to_xml(ctx.corpus)
    rerun = stages.CorpusContext(SOURCES, corpus=again, known_profile=ctx.profile)
    refs.find_references(rerun)
    assert serialise.to_xml(again) == first


def test_json_refs_are_spans_of_the_paragraph_text(corpus):
    data = serialise.to_json(corpus)
    assert_validates(corpus, data)
    spans = []

    def walk(node):
        if isinstance(node, dict):
            if "refs" in node and "text" in node:
                for r in node["refs"]:
                    assert node["text"][r["start"]:r["end"]] == r["words"]
                    spans.append(r)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data)
    assert len(spans) == len(corpus.findall(".//ref")) == 50  # 47, and "dit artikel" three times
    quoted = next(r for r in spans if r["words"] == "C2 hierboven")
    assert quoted == {"status": "ok", "to": "2017/16C2", "words": "C2 hierboven", "start": 120, "end": 132}


def test_xml_ref_markup(corpus):
    p = tree.node_by_id(corpus, "2017/53A").find("p")
    assert etree.tostring(p.find("ref"), encoding="unicode", with_tail=False) == \
        '<ref to="2017/47E1" status="ok">artikel 47E1</ref>'
    assert serialise.validate_xml(corpus) == []


def test_lowercase_section_letters_in_the_sources_build_and_log_nothing_extra(sources_copy, tmp_path, capsys):
    """"(maar zie b)" in both wiki pages of 53: the ref reads section B; the report counts what it
    counted before (the structure stage no longer takes the lowercase letter as evidence for B, and
    says so in the inference it logs either way)."""
    assert cli.main(["build", "--sources", str(sources_copy), "--out", str(tmp_path / "before"), "--no-pdf"]) == 0
    for name in (F000, F001):
        path = sources_copy / name
        path.write_text(path.read_text(encoding="utf-8").replace("(maar zie B)", "(maar zie b)"), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["build", "--sources", str(sources_copy), "--out", str(tmp_path / "out"), "--no-pdf"]) == 0
    assert capsys.readouterr().err == ""
    corpus = serialise.parse_xml((tmp_path / "out" / "corpus.xml").read_bytes())
    refs_53 = [(r.text, r.get("to"), r.get("status")) for r in corpus.xpath("//*[@id='2017/53A' or "
                                                                            "@id='2017/53C']/p/ref")]
    assert ("b", "2017/53B", "ok") in refs_53 and ("B", "2017/53B", "ok") not in refs_53
    summary = lambda folder: json.loads((tmp_path / folder / "report.json").read_text(encoding="utf-8"))["summary"]
    assert summary("out") == summary("before")
