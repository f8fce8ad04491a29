"""Unit tests of the corpus stages on small hand-made input: merge and finish.

The end-to-end tests (test_corpus.py) run every stage on the five real sources; these pin what
each stage guarantees on its own, with trees built here in a few lines.
"""
from lxml import etree

from pipeline.corpus import finish, merge
from pipeline.core import tree
from pipeline.core.model import NOTE_MARK, Note
from pipeline.core.report import BuildLog
from pipeline.corpus.structure import Fragment
from pipeline.core import lang


def article(edition, num, *children, title=None, file="a.txt", line=1):
    """<article> with an optional <title> and (tag, num, text) children, each with one source line."""
    el = etree.Element("article", id=f"{edition}/{num}", num=num)
    tree.add_sources(el, file, [line])
    if title:
        t = etree.SubElement(el, "title")
        t.text = title
    for n, (tag, child_num, text) in enumerate(children, 1):
        child = etree.SubElement(el, tag, id=f"{edition}/{num}{child_num}", num=child_num)
        tree.add_sources(child, file, [line + n])
        if text is not None:
            child.append(tree.make_paragraph(text, [], file, [line + n]))
    return el


def fragment(file, edition, *articles):
    return Fragment(file, edition, articles=list(articles))


def test_merge_one_article_from_two_sources_is_one_article_with_both_provenances():
    log = BuildLog()
    a = article("2017", "53", ("section", "A", "Een voor de beurt voorgespeelde kaart."), title="Accepteren")
    b = article("2017", "53", ("section", "A", "Een voor de beurt voorgespeelde kaart."), title="Accepteren",
                file="b.txt", line=10)
    corpus = merge.merge([fragment("a.txt", "2017", a), fragment("b.txt", "2017", b)], log)
    articles = corpus.findall("edition/article")
    assert [x.get("id") for x in articles] == ["2017/53"]
    assert articles[0].get("sources") == "a.txt:1 b.txt:10"
    assert articles[0].find("section").get("sources") == "a.txt:2 b.txt:11"
    assert log.entries == []


def test_merge_keeps_editions_apart_and_articles_in_number_order():
    log = BuildLog()
    corpus = merge.merge([fragment("a.txt", "2017", article("2017", "53"), article("2017", "9")),
                          fragment("b.txt", "2007", article("2007", "41", file="b.txt"))], log)
    assert [(e.get("id"), [a.get("num") for a in e.iterchildren("article")]) for e in corpus] == \
        [("2007", ["41"]), ("2017", ["9", "53"])]


def test_merge_capitalisation_variant_keeps_the_capitalised_reading_and_logs_both():
    log = BuildLog()
    a = article("2017", "53", ("section", "B", "artikel 16C is van toepassing."))
    b = article("2017", "53", ("section", "B", "Artikel 16C is van toepassing."), file="b.txt", line=5)
    corpus = merge.merge([fragment("a.txt", "2017", a), fragment("b.txt", "2017", b)], log)
    assert tree.plain_text(corpus.find(".//section/p")) == "Artikel 16C is van toepassing."
    [entry] = log.entries
    assert (entry.kind, entry.file, entry.line, entry.node) == ("variant", "b.txt", 6, "2017/53B")
    assert (entry.before, entry.after) == ("artikel 16C is van toepassing.", "Artikel 16C is van toepassing.")


def test_merge_different_words_are_a_conflict_and_the_first_reading_is_kept():
    log = BuildLog()
    a = article("2017", "53", ("section", "A", "De leider speelt."))
    b = article("2017", "53", ("section", "A", "De tegenspeler speelt."), file="b.txt", line=5)
    corpus = merge.merge([fragment("a.txt", "2017", a), fragment("b.txt", "2017", b)], log)
    assert tree.plain_text(corpus.find(".//section/p")) == "De leider speelt."
    [entry] = log.errors
    assert (entry.kind, entry.file, entry.line, entry.node) == ("conflict", "b.txt", 6, "2017/53A")
    assert "'leider' / 'tegenspeler'" in entry.message


def test_merge_the_same_note_in_two_sources_is_one_note():
    log = BuildLog()
    paras = []
    for file in ("a.txt", "b.txt"):
        el = article("2017", "41", file=file)
        sec = etree.SubElement(el, "section", id="2017/41A", num="A")
        sec.append(tree.make_paragraph(f"Na de slag{NOTE_MARK} volgt het spel.",
                                       [Note("Zie artikel 54.", [3], "inline")], file, [2]))
        paras.append(fragment(file, "2017", el))
    corpus = merge.merge(paras, log)
    notes = corpus.findall(".//note")
    assert len(notes) == 1 and notes[0].get("sources") == "a.txt:3 b.txt:3"
    assert log.entries == []


def test_finish_numbers_notes_per_node_and_commentary_per_article():
    log = BuildLog()
    el = article("2017", "41", title="Titel")
    sec = etree.SubElement(el, "section", id="2017/41A", num="A")
    sec.append(tree.make_paragraph(f"Een{NOTE_MARK} twee{NOTE_MARK}.",
                                   [Note("x", [1], "inline"), Note("y", [1], "inline")], "a.txt", [1]))
    corpus = merge.merge([fragment("a.txt", "2017", el)], log)
    edition = corpus.find("edition")
    for _ in range(2):
        etree.SubElement(edition, "commentary", on="2017/54", author="Peter")
    finish.finish(corpus, log, lang.profile("nl"))
    assert [n.get("id") for n in corpus.iter("note")] == ["2017/41A/noot1", "2017/41A/noot2"]
    assert [c.get("id") for c in corpus.iter("commentary")] == ["2017/54/toelichting1", "2017/54/toelichting2"]


def test_finish_reports_a_section_with_only_its_heading_as_a_gap_in_two_languages():
    log = BuildLog()
    el = article("2017", "57", ("section", "B", None), title="Voortijdig voorspelen")
    heading = etree.SubElement(el.find("section"), "heading")
    heading.text = "Voortijdig spelen"
    corpus = merge.merge([fragment("a.txt", "2017", el)], log)
    finish.finish(corpus, log, lang.profile("nl"))
    gap = corpus.find(".//section/gap")
    assert gap.get("reason") == "De tekst van 57B ontbreekt in de bronnen; alleen het opschrift is overgeleverd."
    [entry] = log.of_kind("gap")
    assert (entry.file, entry.line, entry.node) == ("a.txt", 2, "2017/57B")
    assert entry.message == "2017/57B has only its heading: its text is in none of the sources"


def test_finish_reports_a_missing_lead_in_before_the_first_subsection():
    log = BuildLog()
    el = article("2017", "57", ("section", "A", None), title="T")
    sec = el.find("section")
    sub = etree.SubElement(sec, "subsection", id="2017/57A1", num="1")
    sub.append(tree.make_paragraph("met een kaart die hij niet mocht spelen;", [], "a.txt", [3]))
    corpus = merge.merge([fragment("a.txt", "2017", el)], log)
    finish.finish(corpus, log, lang.profile("nl"))
    assert [c.tag for c in corpus.find(".//section")] == ["gap", "subsection"]
    assert corpus.find(".//section/gap").get("reason") == \
        "De inleidende tekst van 57A, vóór 57A1, ontbreekt in de bronnen."


def test_finish_reports_an_article_without_title():
    log = BuildLog()
    corpus = merge.merge([fragment("a.txt", "2017", article("2017", "16", ("section", "C", "Tekst.")))], log)
    finish.finish(corpus, log, lang.profile("nl"))
    [entry] = log.of_kind("gap")
    assert (entry.node, entry.message) == ("2017/16", "the title of 2017/16 is in none of the sources")
