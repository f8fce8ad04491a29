"""Unit tests of the structure stage on hand-made Blocks: numbering taken as written or restored
from evidence, as the format's rules (reading.rules) say, never by the format's name.

test_corpus.py pins the same rules on the five real sources; these pin each rule on its own.
"""
from pathlib import Path

from pipeline.core.model import Accounted, Block, Dropped, Placed, Reading, Rules
from pipeline.core.report import BuildLog
from pipeline.corpus import structure
from pipeline.reading import formats, repair
from pipeline.reading.decode import Line
from pipeline.reading.manifest import Source
from pipeline.core import lang


def build(blocks, fmt="wiki", lines=(), edition="2017", rules=None):
    """The fragment and log of `blocks` read as format `fmt` (or with `rules`); `lines`: (number, text)
    of the source, the evidence citations are looked up in."""
    log = BuildLog()
    reading = Reading("f.txt", fmt, edition, blocks, rules=rules or formats.FORMATS[fmt].rules)
    fragment = structure.build_fragment(reading, log, structure.Evidence([Line("f.txt", n, t) for n, t in lines], lang.profile("nl")))
    return fragment, log


def nodes(fragment):
    """(id, numbering, evidence) of every node, in document order."""
    return [(el.get("id"), el.get("numbering"), el.get("evidence"))
            for article in fragment.articles for el in article.iter("article", "section", "subsection", "item")]


def entries(log, kind=None):
    return [(e.kind, e.line, e.node, e.message) for e in log.entries if kind in (None, e.kind)]


def test_the_structure_stage_never_names_a_format():
    text = "".join(p.read_text(encoding="utf-8") for p in Path(structure.__file__).parent.glob("*.py"))
    assert not any(f'"{name}"' in text for name in formats.FORMATS)


PRINT_PAGE = """SPELREGELS
44
ARTIKEL 30
Een titel
1. Een speler mag dit
niet doen.
2. Anders geldt (maar zie A)
het niet."""


def test_a_print_list_number_directly_under_an_article_is_a_section_restored_from_evidence():
    """The book prints section letters "A."; a "1." directly under an article is not a letter it wrote."""
    lines = [Line("p.txt", n, t) for n, t in enumerate(PRINT_PAGE.split("\n"), 1)]
    log = BuildLog()
    reading = formats.read(lines, Source(path=Path("p.txt"), edition="2007", language="nl"), log)
    repair.repair_reading(reading, repair.vocabulary(lines), log, lang.profile("nl"))
    fragment = structure.build_fragment(reading, log, structure.Evidence(lines, lang.profile("nl")))
    a = "section A of 2007/30 inferred from list number 1.; confirmed by 'maar zie A' (p.txt:7)"
    b = "section B of 2007/30 inferred from list number 2.; no citation in the sources confirms it"
    assert nodes(fragment) == [("2007/30", None, None), ("2007/30A", "inferred", a), ("2007/30B", "inferred", b)]
    assert entries(log, "inference") == [("inference", 5, "2007/30A", a), ("inference", 7, "2007/30B", b)]
    assert fragment.articles[0].find("section/p").text == "Een speler mag dit niet doen."


def test_print_letters_and_subsection_numbers_are_as_written():
    fragment, log = build([Block("article", "ARTIKEL 25", [1], cite="25"),
                           Block("heading", "Niet bedoelde bieding", [2], cite="A"),
                           Block("list", "Tot zijn partner een bieding doet.", [3], number=1)], "print", edition="2007")
    assert nodes(fragment) == [("2007/25", None, None), ("2007/25A", None, None), ("2007/25A1", None, None)]
    assert entries(log, "inference") == []
    assert fragment.ledger == {1: Placed("2007/25"), 2: Placed("2007/25A"), 3: Placed("2007/25A1")}


def test_a_template_list_number_is_a_subsection_as_written_under_a_section_and_restored_under_an_article():
    fragment, log = build([Block("article", "ARTIKEL 41", [1], cite="41"),
                           Block("list", "Eerste", [2], number=1),
                           Block("heading", "Tweede", [3], cite="B"),
                           Block("list", "Lid een", [4], number=1)], "template", lines=[(5, "zie artikel 41A")],
                          edition="2007")
    a = "section A of 2007/41 inferred from list number 1.; confirmed by 'artikel 41A' (f.txt:5)"
    assert nodes(fragment) == [("2007/41", None, None), ("2007/41A", "inferred", a), ("2007/41B", None, None),
                               ("2007/41B1", None, None)]


def test_wiki_list_numbers_are_all_restored():
    fragment, log = build([Block("article", "Artikel 50D", [1], cite="50D"),
                           Block("list", "Een", [2], number=1), Block("list", "Twee", [3], number=2)])
    assert nodes(fragment) == [
        ("2017/50", None, None), ("2017/50D", None, None),
        ("2017/50D1", "inferred", "subsection 1 of 2017/50D inferred from list number 1.; no citation in the "
                                  "sources confirms it"),
        ("2017/50D2", "inferred", "subsection 2 of 2017/50D inferred from list number 2.; no citation in the "
                                  "sources confirms it")]


def test_the_47E_style_heading_opens_section_and_subsection():
    fragment, log = build([Block("article", "Artikel 47E1", [1], cite="47E1"),
                           Block("heading", "Wijziging van het spelen", [2], cite="E1"),
                           Block("para", "Wie voor de beurt.", [3]),
                           Block("list", "Een speler mag.", [4], number=1),
                           Block("list", "Te laat volgens (a).", [5], number=2)],
                          lines=[(5, "Te laat volgens (a).")])
    assert nodes(fragment) == [
        ("2017/47", None, None), ("2017/47E", None, None), ("2017/47E1", None, None),
        ("2017/47E1a", "inferred", "item a of 2017/47E1 inferred from list number 1.; confirmed by "
                                   "'volgens (a)' (f.txt:5)"),
        ("2017/47E1b", "inferred", "item b of 2017/47E1 inferred from list number 2.; no citation in the "
                                   "sources confirms it")]
    assert entries(log)[0] == ("inference", 2, "2017/47E", "'E1. Wijziging van het spelen' read as the heading "
                                                           "of section E, followed by subsection E1")
    assert fragment.articles[0].find("section/heading").text == "Wijziging van het spelen"


def test_an_E1_heading_under_a_whole_article_is_section_and_subsection_as_written():
    fragment, log = build([Block("article", "Artikel 47", [1], cite="47"),
                           Block("heading", "Wijziging", [2], cite="E1"), Block("para", "Tekst.", [3])])
    assert nodes(fragment) == [("2017/47", None, None), ("2017/47E", None, None), ("2017/47E1", None, None)]
    assert entries(log) == []


GROUPED = [Block("article", "Artikel 16", [1], cite="16"),
           Block("heading", "Informatie", [2], cite="C"),
           Block("para", "Ingeval geldt:", [4], group=1),
           Block("para", "Voor een niet-overtredende partij.", [6], group=2),
           Block("para", "Voor een overtredende partij.", [7], group=2),
           Block("para", "Een overtreding van C2 hierboven.", [8], group=2)]


def test_paragraphs_standing_together_under_a_section_heading_are_its_subsections_where_the_rules_say_so():
    fragment, log = build([Block(**vars(b)) for b in GROUPED], lines=[(8, "Een overtreding van C2 hierboven.")])
    n = "of 2017/16C inferred from paragraph {} of 3 standing together under the section heading"
    assert nodes(fragment)[2:] == [
        ("2017/16C1", "inferred", f"subsection 1 {n.format(1)}; no citation in the sources confirms it"),
        ("2017/16C2", "inferred", f"subsection 2 {n.format(2)}; confirmed by 'van C2 hierboven' (f.txt:8)"),
        ("2017/16C3", "inferred", f"subsection 3 {n.format(3)}; no citation in the sources confirms it")]
    assert [p.text for p in fragment.articles[0].find("section").iterchildren("p")] == ["Ingeval geldt:"]
    # A template writes subsection numbers: the same paragraphs stay paragraphs of the section.
    fragment, log = build([Block(**vars(b)) for b in GROUPED], "template")
    assert nodes(fragment)[2:] == [] and entries(log) == []
    assert len(fragment.articles[0].findall("section/p")) == 4


def test_one_one_is_a_subsection_and_its_first_item():
    fragment, log = build([Block("article", "Artikel 50D", [1], cite="50D"),
                           Block("list", "Met uitzondering van", [2], number=1, extra_number=1),
                           Block("list", "of de blinde", [3], number=2, level=1)])
    assert nodes(fragment)[2:] == [
        ("2017/50D1", "inferred", "subsection 1 of 2017/50D inferred from list number 1.; no citation in the "
                                  "sources confirms it"),
        ("2017/50D1a", "inferred", "item a of 2017/50D1 inferred from the second list number in '1. 1.'; no "
                                   "citation in the sources confirms it"),
        ("2017/50D1b", "inferred", "item b of 2017/50D1 inferred from list number 2. indented 1 level(s); no "
                                   "citation in the sources confirms it")]


def test_a_list_number_nested_deeper_than_an_item_is_kept_as_text_with_a_damage_entry():
    fragment, log = build([Block("article", "Artikel 50D1", [1], cite="50D1"),
                           Block("list", "een item", [2], number=1),
                           Block("list", "te diep", [3], number=2, level=1)])
    assert [n[0] for n in nodes(fragment)] == ["2017/50", "2017/50D", "2017/50D1", "2017/50D1a"]
    assert entries(log, "damage") == [("damage", 3, None, "list number 2. nested deeper than an item; kept as a "
                                                          "paragraph with its number")]
    assert [p.text for p in fragment.articles[0].iter("p")] == ["een item", "2. te diep"]
    assert fragment.ledger[3] == Placed("2017/50D1a")


def test_lone_headings_are_the_next_sections_only_where_the_rules_say_so():
    blocks = [Block("article", "Artikel 57", [1], cite="57"), Block("title", "Voortijdig", [2]),
              Block("para", "Partner van de overtreder", [4], group=1),
              Block("para", "Leider heeft gespeeld", [6], group=2)]
    fragment, log = build([Block(**vars(b)) for b in blocks])
    assert [n[:2] for n in nodes(fragment)] == [("2017/57", None), ("2017/57A", "inferred"), ("2017/57B", "inferred")]
    assert entries(log)[0][3] == ("section A of 2017/57 inferred from the order of the headings (the source has no "
                                  "letters); no citation in the sources confirms it")
    fragment, log = build([Block(**vars(b)) for b in blocks], rules=Rules(list_numbers={}))
    assert nodes(fragment) == [("2017/57", None, None)] and entries(log) == []


def test_dropped_lines_and_unreadable_headings_are_accounted_with_a_reason():
    reading_blocks = [Block("article", "Artikel 5x", [2]), Block("para", "tekst", [3])]
    log = BuildLog()
    reading = Reading("f.txt", "wiki", "2017", reading_blocks, rules=formats.FORMATS["wiki"].rules)
    reading.dropped = [Dropped(1, "page title 'X': page context, not law text")]
    fragment = structure.build_fragment(reading, log, structure.Evidence([], lang.profile("nl")))
    reason = Accounted("under the article heading at line 2, which does not read (error)")
    assert fragment.ledger == {1: Accounted("page title 'X': page context, not law text"), 2: reason, 3: reason}
    assert entries(log) == [("dropped", 1, None, "page title 'X': page context, not law text")]
