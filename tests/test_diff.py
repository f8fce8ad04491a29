"""Edition diffs: on the five sources (2007 → 2017) and on small hand-made trees."""
import json

import pytest
from lxml import etree

from pipeline.outputs import serialise
from pipeline.publish.run import make_corpus
from pipeline.cli import main
from pipeline.outputs.diff import compare, render, write_diff
from pipeline.outputs.diff import words as w
from pipeline.outputs.diff.compare import cited_targets
from pipeline.outputs.job import Job
from pipeline.core import lang

NL = lang.profile("nl")


@pytest.fixture(scope="module")
def corpus(five_sources):
    return five_sources.corpus


def edition(corpus, edition_id):
    return corpus.xpath("edition[@id=$id]", id=edition_id)[0]


@pytest.fixture(scope="module")
def result(corpus):
    return compare(edition(corpus, "2007"), edition(corpus, "2017"))


def article(result, num):
    return next(a for a in result["articles"] if (a["new"] or a["old"]) == num)


def node(tree_dict, cite):
    if (tree_dict["new"] or tree_dict["old"]) == cite:
        return tree_dict
    for child in tree_dict["children"]:
        found = node(child, cite)
        if found:
            return found
    return None


def flat(segs):
    """All segments, with those inside moved-in and note segments, in order."""
    for s in segs:
        yield s
        yield from flat(s.get("segments", []))


# -- the five sources --------------------------------------------------------------------------------
def test_articles_in_both_editions_are_changed_the_others_not_comparable(result):
    assert result["summary"] == {"changed": ["24", "41"], "accents_spacing": [], "unchanged": [],
                                 "missing_from_old": ["16", "47", "50", "53", "57"], "missing_from_new": ["25"],
                                 "renumbered": []}
    only = article(result, "25")
    assert (only["status"], only["missing_from"], only["anchor"]) == ("not-comparable", "2017", "art-25")
    assert only["changes"]["sections"] == {"added": [], "removed": [], "renumbered": [], "changed": [],
                                           "accents_spacing": []}
    assert (article(result, "16")["status"], article(result, "16")["missing_from"]) == ("not-comparable", "2007")


def test_json_text_and_html_say_the_same_of_every_article(result):
    """One truth: an article one edition's sources lack is "not comparable" in all three outputs, and a
    changed reference names the same articles in the HTML's table and in its article's list."""
    import re
    from pipeline.core import lang

    text = render.to_text(result, NL).splitlines()
    assert text[1:5] == ["articles: 2 changed, 0 accents or spacing only, 0 unchanged, 6 not comparable",
                         "  changed: 24, 41",
                         "  not comparable, missing from the sources of 2007: 16, 47, 50, 53, 57",
                         "  not comparable, missing from the sources of 2017: 25"]
    page = render.to_html(result, lang.profile("nl"))
    badges = dict(re.findall(r'<section class="article [a-z-]+" id="art-(\w+)">.*?<span class="badge [a-z-]+">'
                             r'([^<]+)</span></h2>', page, re.S))
    assert badges == {"16": "niet te vergelijken: ontbreekt in de bronnen van 2007", "24": "gewijzigd",
                      "25": "niet te vergelijken: ontbreekt in de bronnen van 2017", "41": "gewijzigd",
                      **{n: "niet te vergelijken: ontbreekt in de bronnen van 2007" for n in ("47", "50", "53", "57")}}
    table = re.search(r'<tr><td><a href="#c-24C">24C</a></td>\s*<td>(.*?)</td>\s*<td>(.*?)</td></tr>', page).groups()
    listed = re.search(r'Verwijzing in <a href="#c-24C">24C</a>: (.*?) → (.*?)</li>', page).groups()
    assert table == listed == ('<del title="dit artikel, artikel 23">24 en 23</del>',
                               '<ins title="dit artikel, artikel 72C">24 en 72C</ins>')
    assert "  reference in 24C: 24 en 23 → 24 en 72C" in text


def test_article_24_title_and_new_sections(result):
    changes = article(result, "24")["changes"]
    assert changes["title"] == {"old": "Getoonde of voorgespeelde kaart voor het begin van de speelperiode",
                                "new": "Getoonde of voorgespeelde kaart tijdens het bieden"}
    label = article(result, "24")["label"]["segments"]
    assert [s for s in label if s["op"] != "equal"] == [{"op": "delete", "text": "voor het begin van de speelperiode"},
                                                        {"op": "insert", "text": "tijdens het bieden"}]
    assert changes["sections"] == {"added": ["24D", "24E"], "removed": [], "renumbered": [],
                                   "changed": ["24A", "24B", "24C"], "accents_spacing": []}


def test_article_24_references_23_became_72C(result):
    refs = {r["node"]: (r["old"], r["new"]) for r in article(result, "24")["changes"]["references"]}
    assert refs["24B"] == (["23"], ["72C"])
    assert refs["24C"] == (["24", "23"], ["24", "72C"])  # "dit artikel" cites 24 in both
    segs = node(article(result, "24"), "24B")["paragraphs"][0]
    assert [s["text"] for s in segs if s["op"] in ("delete", "insert")] == ["23", "72C"]


def test_41A_reference_change_with_the_words_around_it_unchanged(result):
    refs = article(result, "41")["changes"]["references"]
    assert [(r["node"], r["old"], r["new"]) for r in refs] == [("41A", ["47E2"], ["47E", "54"])]
    segs = node(article(result, "41"), "41A")["paragraphs"][0]
    changed = [(s["op"], s["text"]) for s in segs if s["op"] in ("delete", "insert")]
    assert changed == [("delete", "47E2"), ("insert", "47E en artikel 54")]
    i = next(k for k, s in enumerate(segs) if s["op"] == "delete")
    assert segs[i - 1]["op"] == "equal" and segs[i - 1]["text"].endswith("worden teruggenomen (zie artikel ")
    assert segs[i + 2]["op"] == "equal" and segs[i + 2]["text"].startswith("); de teruggenomen kaart moet weer")


def test_moved_sentences_of_24_go_to_D_and_E(result):
    moves = article(result, "24")["changes"]["moved"]
    assert [(m["from"], m["to"]) for m in moves] == [("24", "24D"), ("24", "24E")]
    assert moves[0]["old"] == "Als de overtreder leider of blinde wordt, wordt elke zodanige kaart opnieuw toegevoegd aan de hand."
    assert moves[1]["old"] == "Als de overtreder tegenspeler wordt, wordt elke zodanige kaart een strafkaart."
    opening = article(result, "24")["paragraphs"][0]
    assert [(s["to"], s["text"][:40]) for s in opening if s["op"] == "moved-out"] == [
        ("24D", "Als de overtreder leider of blinde wordt"), ("24E", "Als de overtreder tegenspeler wordt, wor")]
    d = node(article(result, "24"), "24D")
    assert d["status"] == "added"
    moved_in = d["paragraphs"][0][0]
    assert moved_in["op"] == "moved-in" and moved_in["from"] == "24"
    assert [(s["op"], s["text"]) for s in moved_in["segments"] if s["op"] != "equal"] == [
        ("delete", "wordt elke zodanige kaart opnieuw"), ("insert", "worden de kaarten opgepakt en weer")]
    # a moved sentence is not also shown as deleted and inserted
    assert not any(s["op"] == "delete" and "leider of blinde" in s["text"] for s in opening)


def test_41B_note_new_in_2017_is_compared_at_its_place(result):
    segs = node(article(result, "41"), "41B")["paragraphs"][0]
    notes = [(s["status"], s["old_id"], s["new_id"]) for s in segs if s["op"] == "note"]
    assert notes == [("unchanged", "2007/41B/noot1", "2017/41B/noot1"), ("added", None, "2017/41B/noot2")]
    k = next(k for k, s in enumerate(segs) if s["op"] == "note" and s["status"] == "added")
    assert segs[k - 1]["text"].endswith("maar alleen als het hun") and segs[k + 1]["text"] == " beurt is om te spelen."


def test_same_diff_twice_is_byte_identical_and_an_edition_against_itself_has_no_change(corpus, result):
    again = compare(edition(make_corpus("sources").corpus, "2007"), edition(make_corpus("sources").corpus, "2017"))
    assert render.to_json(again) == render.to_json(result)
    assert render.to_html(again, NL) == render.to_html(result, NL)
    assert render.to_text(again, NL) == render.to_text(result, NL)
    same = compare(edition(corpus, "2017"), edition(corpus, "2017"))
    assert same["summary"]["changed"] == [] and same["summary"]["unchanged"] == ["16", "24", "41", "47", "50", "53", "57"]
    ops = {s["op"] for a in same["articles"] for n in walk(a) for p in n["paragraphs"] for s in flat(p)}
    assert ops <= {"equal", "note"}


def walk(n):
    yield n
    for c in n["children"]:
        yield from walk(c)


def test_html_gives_each_article_its_anchor_and_escapes_text(result):
    page = render.to_html(result, NL)
    assert 'id="art-24"' in page and 'id="art-41"' in page and 'id="art-25"' in page
    assert "<del>23</del>" in page and "<ins>72C</ins>" in page
    assert '<del class="moved"' in page and 'href="#c-24D"' in page


# -- hand-made trees ---------------------------------------------------------------------------------
SRC = 'sources="x.txt:1"'


def make_edition(edition_id, body):
    return etree.fromstring(f'<edition id="{edition_id}">{body}</edition>')


def section(ed, art, num, heading, text):
    return (f'<section id="{ed}/{art}{num}" num="{num}" {SRC}><heading {SRC}>{heading}</heading>'
            f'<p {SRC}>{text}</p></section>')


def test_a_section_renumbered_from_B_to_C_is_matched_by_its_text():
    a = "Als de leider voor de beurt voorspeelt, mag elke tegenspeler het voorspelen accepteren of weigeren."
    b = "Een kaart die door de blinde is aangeraakt, geldt als gespeeld tenzij de leider iets anders bedoelde."
    new_b = "De wedstrijdleider mag in elk geval een arbitrale score toekennen na een onregelmatigheid."
    old = make_edition("2007", f'<article id="2007/7" num="7" {SRC}>'
                               + section("2007", 7, "A", "Voorspelen", a) + section("2007", 7, "B", "Blinde", b)
                               + "</article>")
    new = make_edition("2017", f'<article id="2017/7" num="7" {SRC}>'
                               + section("2017", 7, "A", "Voorspelen", a) + section("2017", 7, "B", "Score", new_b)
                               + section("2017", 7, "C", "Blinde", b) + "</article>")
    changes = compare(old, new)["articles"][0]["changes"]
    assert changes["sections"] == {"added": ["7B"], "removed": [], "renumbered": [["7B", "7C"]], "changed": [],
                                   "accents_spacing": []}


def test_references_compare_cited_targets_without_edition():
    old = etree.fromstring(f'<section id="2007/9A" num="A"><p {SRC}>zie <ref to="2007/47E2" status="ok">artikel '
                           f'47E2</ref> en <ref to="2007/16" status="ok">16</ref></p></section>')
    new = etree.fromstring(f'<section id="2017/9A" num="A"><p {SRC}>zie <ref to="2017/47E 2017/54" status="ok">'
                           f'artikel 47E en 54</ref> en <ref to="2017/16" status="ok">16</ref></p></section>')
    assert cited_targets(old) == (["47E2", "16"], {"47E2": "artikel 47E2", "16": "16"})
    assert cited_targets(new)[0] == ["47E", "54", "16"]
    ed_old = make_edition("2007", f'<article id="2007/9" num="9" {SRC}>{etree.tostring(old, encoding=str)}</article>')
    ed_new = make_edition("2017", f'<article id="2017/9" num="9" {SRC}>{etree.tostring(new, encoding=str)}</article>')
    refs = compare(ed_old, ed_new)["articles"][0]["changes"]["references"]
    assert [(r["node"], r["removed"], r["added"]) for r in refs] == [("9A", ["47E2"], ["47E", "54"])]


def test_a_sentence_rewritten_in_place_is_not_reported_as_moved():
    old = make_edition("2007", f'<article id="2007/3" num="3" {SRC}><p {SRC}>Eerste zin blijft gelijk. Als de '
                               f'overtreder leider wordt, wordt elke kaart opnieuw toegevoegd aan de hand.</p></article>')
    new = make_edition("2017", f'<article id="2017/3" num="3" {SRC}><p {SRC}>Eerste zin blijft gelijk. Als de '
                               f'overtreder leider wordt, worden de kaarten opgepakt en toegevoegd aan de hand.</p></article>')
    assert compare(old, new)["articles"][0]["changes"]["moved"] == []


def test_sentences_split_on_a_stop_before_a_capital_only():
    text = ("Zie art. 58 voor de regel. Als de leider speelt (maar zie B.) Dan geldt dit. "
            "1. zijn partner speelt. Wat nu? Niets!")
    assert w.sentences(text) == ["Zie art. 58 voor de regel.", "Als de leider speelt (maar zie B.)",
                                 "Dan geldt dit. 1. zijn partner speelt.", "Wat nu?", "Niets!"]


def test_short_equal_runs_between_changes_are_folded_into_one_replacement():
    old, new = w.tokenise("kaart voor het begin van de speelperiode"), w.tokenise("kaart tijdens het bieden")
    assert w.diff_tokens(old, new) == [("equal", 0, 1, 0, 1), ("replace", 1, 7, 1, 4)]


# -- the command and the build stage -----------------------------------------------------------------
def test_diff_command_writes_json_and_refuses_an_ambiguous_corpus_file(tmp_path, capsys):
    out = tmp_path / "d.json"
    assert main(["diff", "2007", "2017", "--format", "json", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["old"] == "2007" and data["summary"]["changed"] == ["24", "41"]
    corpus_file = tmp_path / "corpus.xml"
    corpus_file.write_bytes(etree.tostring(make_corpus("sources").corpus))
    assert main(["diff", str(corpus_file), "2017"]) == 2
    assert "holds 2 editions (2007, 2017)" in capsys.readouterr().err
    assert main(["diff", str(corpus_file), str(corpus_file), "--old-edition", "2007", "--new-edition", "2017"]) == 0
    assert capsys.readouterr().out.startswith("Editions 2007 → 2017\narticles: 2 changed")


def test_the_diff_of_corpus_files_is_in_the_language_they_record(corpus, tmp_path, capsys):
    """A corpus records its book's language: the diff of two corpus.xml files is written in it; a file that
    records none, or files of two languages, are refused rather than read in a language they may not be in."""
    english, dutch, unmarked = (tmp_path / name for name in ("en.xml", "nl.xml", "none.xml"))
    assert corpus.get("language") == "nl"
    dutch.write_bytes(serialise.to_xml(corpus))
    made_up = etree.fromstring(serialise.to_xml(corpus))
    made_up.set("language", "en")
    english.write_bytes(serialise.to_xml(made_up))
    del made_up.attrib["language"]
    unmarked.write_bytes(serialise.to_xml(made_up))
    pair = ["--old-edition", "2007", "--new-edition", "2017", "--format", "html"]
    assert main(["diff", str(english), str(english), *pair]) == 0
    assert '<html lang="en">' in capsys.readouterr().out
    assert main(["diff", str(dutch), "2017", "--old-edition", "2007", "--format", "html"]) == 0
    assert '<html lang="nl">' in capsys.readouterr().out
    assert main(["diff", str(english), str(dutch), *pair]) == 2
    assert capsys.readouterr().err == ("lawbook: error: the editions come from books in different languages (en, nl)\n"
                                       "  fix: compare editions of one book\n")
    assert main(["diff", str(unmarked), str(english), *pair]) == 2
    assert capsys.readouterr().err == (f"lawbook: error: {unmarked}: the corpus.xml does not record the book's "
                                       f"language (it was written by an earlier lawbook)\n"
                                       f"  fix: build it again from its sources\n")


def test_build_stage_writes_one_diff_per_pair_of_consecutive_editions(corpus, tmp_path):
    write_diff(Job.of_tree(corpus, tmp_path, lang.profile("nl")))
    assert sorted(p.name for p in (tmp_path / "diff").iterdir()) == ["2007-2017.html", "2007-2017.json"]


def test_a_corpus_file_that_is_not_valid_is_refused_at_its_line(tmp_path, capsys):
    corpus = make_corpus("sources").corpus
    del corpus.xpath("//article[@id='2017/41']")[0].attrib["id"]
    corpus.xpath("//section[@id='2017/53B']")[0].set("id", "53B")
    text = serialise.to_xml(corpus).decode("utf-8")
    bad = tmp_path / "corpus.xml"
    bad.write_text(text, encoding="utf-8")
    line = 1 + text[:text.index('<article num="41"')].count("\n")
    assert main(["diff", str(bad), "2017", "--old-edition", "2017"]) == 2
    err = capsys.readouterr().err
    assert err == (f"lawbook: error: {bad}:{line}: not a valid corpus: the <article> 41 has no id\n"
                   "  fix: give a corpus.xml written by `lawbook build`, or rebuild it from its sources\n")
    corpus.xpath("//article[@num='41' and not(@id)]")[0].set("id", "2017/41")
    text = serialise.to_xml(corpus).decode("utf-8")
    bad.write_text(text, encoding="utf-8")
    line = 1 + text[:text.index('id="53B"')].count("\n")
    assert main(["diff", str(bad), "2017", "--old-edition", "2017"]) == 2
    assert capsys.readouterr().err.startswith(f"lawbook: error: {bad}:{line}: not a valid corpus: ")
