"""No article vanishes in silence: damaged heading lines, confusable letters, other scripts' digits,
and one article shown twice in one source.

The damage is done to the real sources: the heading "Artikel 41" is line 18 of the wiki export
000 (2017), between article 53 (lines 3-16, sections A-C) and article 24 (from line 37).
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.publish import run as build
from pipeline.reading import normalise
from pipeline.outputs import serialise
from pipeline.core import tree
from pipeline.reading.formats.common import looks_like_article
from pipeline.core.report import BuildLog

from conftest import PRINT_44, SOURCES, TEMPLATE_41, WIKI_54, run_lawbook, snapshot

HEADING_41 = 18  # "Artikel\u00a041" in WIKI_54


def corpus(folder, tmp_path):
    return build.make_corpus(folder, {"cache_dir": str(tmp_path / "cache")})


@pytest.fixture(scope="module")
def undamaged(tmp_path_factory):
    return corpus(SOURCES, tmp_path_factory.mktemp("undamaged"))


def set_line(folder, name, number, text):
    """Replace line `number` (1-based) of source `name` by `text`."""
    path = folder / name
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[number - 1] = text
    path.write_text("\n".join(lines), encoding="utf-8")


def xml(ctx, node_id):
    return serialise.etree.tostring(tree.node_by_id(ctx.corpus, node_id))


def without_evidence(ctx, node_id):
    """The node's XML without its inference evidence (which quotes every citation in the lines of the
    article as written, even those set aside after an error)."""
    el = serialise.etree.fromstring(xml(ctx, node_id))
    for node in el.iter():
        node.attrib.pop("evidence", None)
    return serialise.etree.tostring(el)


def entries(ctx, kind, line=None, file=WIKI_54):
    return [e for e in ctx.log.entries if e.kind == kind and e.file == file and (line is None or e.line == line)]


def errors(ctx):
    return [(e.file, e.line, e.message) for e in ctx.log.errors]


def section_nums(ctx, node_id):
    return [c.get("num") for c in tree.node_by_id(ctx.corpus, node_id).iterchildren("section")]


# -- invisible characters and other scripts' digits: repaired, logged, nothing lost ----------

@pytest.mark.parametrize("heading, removed", [
    ("Art\u200bikel\u00a041", "invisible character U+200B ZERO WIDTH SPACE removed from"),
    ("\ufeffArtikel\u00a041", "invisible character U+FEFF ZERO WIDTH NO-BREAK SPACE removed from"),
    ("Ar\u00adtikel\u00a041", "invisible character U+00AD SOFT HYPHEN removed from"),
    ("Artikel\u00a04\u2060\u200c1\u200d", "invisible characters U+2060 WORD JOINER, U+200C ZERO WIDTH NON-JOINER, "
                                           "U+200D ZERO WIDTH JOINER removed from"),
])
def test_invisible_characters_in_a_heading_are_removed_and_logged(sources_copy, tmp_path, undamaged, heading,
                                                                   removed):
    set_line(sources_copy, WIKI_54, HEADING_41, heading)
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == []
    [repair] = entries(ctx, "repair", HEADING_41)
    assert repair.message == f"{removed} the heading or number that starts the line"
    assert (repair.before, repair.after) == (heading, "Artikel\u00a041")
    assert xml(ctx, "2017/41") == xml(undamaged, "2017/41")
    assert section_nums(ctx, "2017/41") == ["A", "B", "C", "D"]
    assert section_nums(ctx, "2017/53") == ["A", "B", "C"]
    assert serialise.to_xml(ctx.corpus) == serialise.to_xml(undamaged.corpus)


def test_full_width_digits_are_read_as_ascii(sources_copy, tmp_path, undamaged):
    set_line(sources_copy, WIKI_54, HEADING_41, "Artikel\u00a0\uff14\uff11")
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == []
    [repair] = entries(ctx, "repair", HEADING_41)
    assert repair.message == ("U+FF14 FULLWIDTH DIGIT FOUR, U+FF11 FULLWIDTH DIGIT ONE read as ASCII digits in "
                              "the heading or number that starts the line")
    assert (repair.before, repair.after) == ("Artikel\u00a0\uff14\uff11", "Artikel\u00a041")
    assert serialise.to_xml(ctx.corpus) == serialise.to_xml(undamaged.corpus)


def test_arabic_indic_digits_in_a_printed_heading_and_a_list_number(sources_copy, tmp_path, undamaged):
    set_line(sources_copy, PRINT_44, 4, "ARTIKEL \u0662\u0664")
    set_line(sources_copy, PRINT_44, 34, "\u0661. Tot zijn partner een bieding doet, mag een speler een niet bedoel-")
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == []
    assert [(e.line, e.before, e.after) for e in entries(ctx, "repair", file=PRINT_44) if "ASCII" in e.message] == [
        (4, "ARTIKEL \u0662\u0664", "ARTIKEL 24"), (34, "\u0661.", "1.")]
    assert serialise.to_xml(ctx.corpus) == serialise.to_xml(undamaged.corpus)


def test_full_width_article_number_builds_every_output(sources_copy, tmp_path):
    """Before, '４１' reached the IDs and the PDF stage failed with an internal error."""
    set_line(sources_copy, WIKI_54, HEADING_41, "Artikel\u00a0\uff14\uff11")
    result = run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "pdf" / "spelregels-2017.pdf").exists()
    assert (tmp_path / "out" / "html" / "2017" / "41.html").exists()


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inserts=st.lists(st.tuples(st.integers(0, len("Artikel\u00a041")), st.sampled_from(normalise.INVISIBLE)),
                        min_size=1, max_size=3))
def test_any_invisible_character_anywhere_in_the_heading_gives_the_same_corpus(sources_copy, tmp_path, undamaged,
                                                                               inserts):
    heading = "Artikel\u00a041"
    for position, char in sorted(inserts, reverse=True):
        heading = heading[:position] + char + heading[position:]
    set_line(sources_copy, WIKI_54, HEADING_41, heading)
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == []
    [repair] = entries(ctx, "repair", HEADING_41)
    assert repair.after == "Artikel\u00a041"
    assert serialise.to_xml(ctx.corpus) == serialise.to_xml(undamaged.corpus)


def test_dutch_letters_and_spaces_are_left_alone():
    log = BuildLog()
    for text in ["Één honneur of een voortijdig voorgespeelde kaart", "D.\u00a0\u00a0Behandeling van grote strafkaart",
                 "1. Financiële – en overige regels", "Artikel\u00a041", "Art.53 Accepteren van voor de beurt",
                 "   2. ervan afzien", "\u0421\u0442\u0430\u0442\u044c\u044f 41"]:
        assert normalise.head(text, 1, log.for_file("x.txt")) == text
    assert log.entries == []


def test_a_long_run_of_invisible_characters_is_read_in_one_pass():
    """The head is matched on the line without its invisible characters: a pattern that allowed them
    between its parts backtracked without end on such a run (this test then never finished)."""
    log = BuildLog()
    assert normalise.head("\u200b" * 20000 + "x", 1, log.for_file("x.txt")) == "\u200b" * 20000 + "x"
    assert normalise.head("\u200b" * 20000 + "41. x", 1, log.for_file("x.txt")) == "41. x"
    assert [e.after for e in log.entries] == ["41."]


# -- confusable letters: an error naming the line and the character -----------------------------

def test_cyrillic_letter_in_a_heading_fails_the_build_and_leaves_build_alone(sources_copy, tmp_path):
    out = tmp_path / "out"
    assert run_lawbook("build", "--sources", sources_copy, "--out", out, "--no-pdf").returncode == 0
    before = snapshot(out)
    set_line(sources_copy, WIKI_54, HEADING_41, "\u0410rtikel\u00a041")
    result = run_lawbook("build", "--sources", sources_copy, "--out", out, "--no-pdf")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        f"lawbook: error: {WIKI_54}:18: Cyrillic letter U+0410 CYRILLIC CAPITAL LETTER A in '\u0410rtikel', in the "
        f"heading or number that starts the line: it looks like the Latin letter 'A' but is not one; retype it as 'A'")
    assert "the build found 1 error; out/ was left as it was" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(out) == before


@pytest.mark.parametrize("name, number, text, message", [
    (WIKI_54, HEADING_41, "Artikel\u00a041\u0410",
     "Cyrillic letter U+0410 CYRILLIC CAPITAL LETTER A in '41\u0410', in the heading or number that starts the line: "
     "it looks like the Latin letter 'A' but is not one; retype it as 'A'"),
    (TEMPLATE_41, 3, "\u0410. Gedekte uitkomst",
     "Cyrillic letter U+0410 CYRILLIC CAPITAL LETTER A in '\u0410', in the heading or number that starts the line: "
     "it looks like the Latin letter 'A' but is not one; retype it as 'A'"),
    (PRINT_44, 4, "ARTIK\u0395L 24",
     "Greek letter U+0395 GREEK CAPITAL LETTER EPSILON in 'ARTIK\u0395L', in the heading or number that starts the "
     "line: it looks like the Latin letter 'E' but is not one; retype it as 'E'"),
])
def test_confusable_letter_is_one_error(sources_copy, tmp_path, name, number, text, message):
    set_line(sources_copy, name, number, text)
    assert errors(corpus(sources_copy, tmp_path)) == [(name, number, message)]


# -- a line that starts like a heading but does not read: an error, never text of 53 -------------

WIKI_HEADING = ("looks like an article heading but does not read as one: a heading is 'Artikel' and the citation "
                "alone on its line, as in 'Artikel 41', 'Artikel 50D' or 'Artikel 47E1'; the text up to the next "
                "heading is not read until the line is corrected")


@pytest.mark.parametrize("heading", ["Artikel 41AA", "Artikel 4 1", "Artikel41x", "ARTIKEL 41 A", "Artikel 41:",
                                     "Artikel 41 Het begin van het spelen"])
def test_heading_that_does_not_read_is_an_error(sources_copy, tmp_path, undamaged, heading):
    set_line(sources_copy, WIKI_54, HEADING_41, heading)
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == [(WIKI_54, HEADING_41, f"{heading!r} {WIKI_HEADING}")]
    assert xml(ctx, "2017/53") == xml(undamaged, "2017/53")  # nothing of 41 was read into 53
    assert tree.node_by_id(ctx.corpus, "2017/41") is None


def test_template_and_print_headings_that_do_not_read(sources_copy, tmp_path):
    set_line(sources_copy, TEMPLATE_41, 2, "ARTIKEL 41AA Het begin van het spelen")
    set_line(sources_copy, PRINT_44, 31, "ARTIKEL 2S")
    assert errors(corpus(sources_copy, tmp_path)) == [
        (TEMPLATE_41, 2, "'ARTIKEL 41AA Het begin van het spelen' looks like an article heading but does not read "
                         "as one: a heading is 'ARTIKEL', the article number and the title, as in 'ARTIKEL 41' "
                         "followed by the title; the text up to the next heading is not read until the line is "
                         "corrected"),
        (PRINT_44, 31, "'ARTIKEL 2S' looks like an article heading but does not read as one: a heading is 'ARTIKEL' "
                       "and the article number alone on its line, as in 'ARTIKEL 24'; the text up to the next "
                       "heading is not read until the line is corrected")]


def test_running_text_that_starts_with_a_citation_is_text(sources_copy, tmp_path):
    set_line(sources_copy, WIKI_54, 41, "Artikel 16 is van toepassing.")
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == []
    assert tree.plain_text(tree.node_by_id(ctx.corpus, "2017/24").find("p")) == "Artikel 16 is van toepassing."


def test_what_looks_like_an_article_heading():
    headings = ["Artikel 41AA", "Artikel 4 1", "Artikel41x", "ARTIKEL 41 A", "Artikel 41 Het begin", "ARTIKEL 24",
                "  Artikel 50D2 (a)"]
    text = ["Artikel 16 is van toepassing.", "Artikel 12C1 (zie ook artikel 12)", "Artikel 50 en 51 zijn",
            "artikel 23 ingeval een pas", "Artikelen 1 tot 5", "Art.53 Accepteren", "Artikel zonder nummer"]
    assert [looks_like_article(t, "Artikel") for t in headings + text] == [True] * len(headings) + [False] * len(text)


# -- the structure check: what slips through the heading checks ----------------------------------

SET_ASIDE = ("the text from here on is probably another article's, whose heading line was not recognised, and is set "
             "aside; check the lines above for a damaged article heading")


def test_misspelt_keyword_is_caught_by_the_structure_check(sources_copy, tmp_path, undamaged):
    set_line(sources_copy, WIKI_54, HEADING_41, "Atrikel 41")
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == [(WIKI_54, HEADING_41, "'Atrikel 41' stands alone like a section heading, but the sections "
                                                 f"of 2017/53 are numbered in the source (A, B, C): {SET_ASIDE}")]
    assert without_evidence(ctx, "2017/53") == without_evidence(undamaged, "2017/53")


def test_lost_heading_lines_are_caught_by_numbering_that_starts_again(sources_copy, tmp_path, undamaged):
    set_line(sources_copy, WIKI_54, HEADING_41, "")
    set_line(sources_copy, WIKI_54, 20, "")  # the title "Het begin van het spelen" too
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == [(WIKI_54, 22, "2017/53A begins a second time at line 22 (first at line 7), but numbering "
                                         f"does not go back inside one article: {SET_ASIDE}")]
    assert without_evidence(ctx, "2017/53") == without_evidence(undamaged, "2017/53")


def test_printed_article_numbers_go_up_and_sections_do_not_start_again(sources_copy, tmp_path):
    set_line(sources_copy, PRINT_44, 31, "ARTIKEL 23")
    assert errors(corpus(sources_copy, tmp_path)) == [
        (PRINT_44, 31, "article 23 at line 31 comes after article 24 at line 4: a printed book's articles go up, "
                       "so a heading or the order of the pages is damaged")]
    set_line(sources_copy, PRINT_44, 31, "ARTlKEL 25")  # a lower-case L for the I: no heading at all
    assert errors(corpus(sources_copy, tmp_path)) == [
        (PRINT_44, 33, "2007/24A begins a second time at line 33 (first at line 18), but numbering does not go back "
                       f"inside one article: {SET_ASIDE}")]


# -- one article twice in one source: as merge treats two sources ---------------------------------

def show_53_twice(folder, change=lambda line: line):
    path = folder / WIKI_54
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[17:17] = [change(line) for line in lines[2:16]] + [""]  # lines 3-16 again, as lines 18-31
    path.write_text("\n".join(lines), encoding="utf-8")


def test_article_twice_in_one_source_the_same_is_kept_once(sources_copy, tmp_path, undamaged):
    show_53_twice(sources_copy)
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == []
    assert [e.message for e in entries(ctx, "damage")] == [
        "2017/53 is shown twice in this source, at line 3 and again at line 18; both read the same, so it is kept once"]
    a = tree.node_by_id(ctx.corpus, "2017/53A")
    assert len(a.findall("p")) == 1
    assert tree.plain_text(tree.node_by_id(ctx.corpus, "2017/53")) == \
        tree.plain_text(tree.node_by_id(undamaged.corpus, "2017/53"))
    assert tree.parse_sources(a.find("p").get("sources"))[WIKI_54] == {8, 23}


def test_article_twice_in_one_source_differently_is_a_conflict(sources_copy, tmp_path):
    show_53_twice(sources_copy, lambda line: line.replace("dertiende slag (Noot", "twaalfde slag (Noot"))
    result = run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out", "--no-pdf")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        f"lawbook: error: {WIKI_54}:23: 2017/53A reads differently in {WIKI_54}:8 and {WIKI_54}:23: 'dertiende' / "
        f"'twaalfde'; the first reading is kept until a source is corrected")
    assert "the build found 1 error" in result.stderr
    report = (tmp_path / "out.failed" / "report.txt").read_text(encoding="utf-8")
    assert ("2017/53 is shown twice in this source, at line 3 and again at line 18; the two differ: see the conflict"
            in report)
    assert not (tmp_path / "out").exists()


def test_parts_of_one_article_shown_apart_are_no_repeat(sources_copy, tmp_path):
    """'Artikel 50D' then 'Artikel 50E' in one export: two parts of 50, nothing repeated, nothing logged."""
    path = sources_copy / WIKI_54
    path.write_text(path.read_text(encoding="utf-8").replace(
        "\n\n* Deze opmerking", "\nArtikel 50E\n\nE. Een kop\n\nDe tekst van E.\n\n* Deze opmerking"), encoding="utf-8")
    ctx = corpus(sources_copy, tmp_path)
    assert errors(ctx) == [] and entries(ctx, "damage") == []
    assert section_nums(ctx, "2017/50") == ["D", "E"]
