"""A book read as a book: one file with its front matter, introduction, contents list, definitions,
articles, index and back matter (reading/formats/parts.py, flowed.py), and the book's check of itself
against its own contents list and numbering (corpus/book.py). Every case is a made-up book in a
layout of its own; the real English book is tested in test_english_book.py."""
import pytest
from hypothesis import given, settings, strategies as st

from pipeline.core.report import BuildLog
from pipeline.core import lang
from pipeline.corpus import stages
from pipeline.reading.book import furniture, parts, text as text_adapter
from pipeline.reading.book.words import book_words
from tests.conftest import run_lawbook

RUN_ON = "and the made-up words run on for long enough to make this one flowed paragraph line of the page"
FF = "\f"


def page(number, *lines):
    """One page: a form feed, its number at the top (None: no number), its lines."""
    return FF + (f"{number}\n" if number is not None else "") + "\n".join(lines) + "\n"


TITLE = page(None, "Rules of Made-up Tabletop", "Second Edition")
PREFACE = page("i", "Preface to the Made-up Rules", f"These rules were gathered by a committee {RUN_ON}.",
               f"Thanks go to every reader who wrote in {RUN_ON}.")
INTRODUCTION = page("ii", "Introduction to the Made-up Rules", f"The game changes over the years {RUN_ON}.",
                    f"Words such as may and must are used with care {RUN_ON}.")
COMMITTEE = page("iii", "Drafting Committee", "Ann Example, Chair", "Bob Sample, Secretary")
CONTENTS = (page(None, "Table of Contents", "Definitions", "LAW 1 - FIRST THINGS", "A. Opening B. Closing",
                 "LAW 2 - SECOND THINGS", "LAW 3 - THIRD THINGS", "A. Early Play B. Late Play C. Last Play",
                 "Index to the Rules", "iv", "1", "2 2 2", "3", "4 4 4 4", "5"))
DEFINITIONS = page("1", "Definitions", f"Board: The tray that holds the cards of one deal {RUN_ON}.",
                   "Matchpoint (MP): A unit of scoring.",
                   'Penalty (see also "Rectification"): What an offender receives for an infraction.',
                   "Trick: Four cards, one from each hand.")
LAW_1 = page("2", "LAW 1", "FIRST THINGS", f"A. Opening The game opens when every player is seated{RUN_ON}1.",
             f"B. Closing The game closes when the last board is scored {RUN_ON}.",
             "1 A made-up footnote about seating.")
LAW_2 = page("3", "LAW 2", "SECOND THINGS",
             f"A player whose turn it is may act when: A. one card is led {RUN_ON}. B. two cards are led {RUN_ON}.")
LAW_3 = page("4", "LAW 3", "THIRD THINGS",
             f"A. Early Play A player who plays early is subject to Law 2. B. Late Play A player who plays late "
             f"{RUN_ON}2.", f"C. Last Play The last play ends the deal {RUN_ON}.",
             "2 Another made-up footnote.")
INDEX = page("5", "Index to the Rules", "Board Definitions, 1A", "Closing 1B", "Late Play 3B")
BACK = page(None, "Printed for the made-up federation", "ISBN 000-0-000000-00-0")
BOOK = [TITLE, PREFACE, INTRODUCTION, COMMITTEE, CONTENTS, DEFINITIONS, LAW_1, LAW_2, LAW_3, INDEX, BACK]


def build(folder, pages, fmt=None):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.txt").write_text("".join(pages).lstrip(FF), encoding="utf-8")
    forced = f'format = "{fmt}"\n' if fmt else ""
    (folder / "sources.toml").write_text(f'language = "en"\n[[source]]\nfile = "book.txt"\nedition = "2017"\n{forced}',
                                         encoding="utf-8")
    return stages.make_corpus(folder)


def errors(ctx):
    return [e.message for e in ctx.log.entries if e.kind == "error"]


def ids_of(ctx, tag):
    return [el.get("id") for el in ctx.corpus.iter(tag)]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    return build(tmp_path_factory.mktemp("whole"), BOOK)


def test_the_whole_book_is_detected_and_read_part_by_part(whole):
    assert whole.detected["book.txt"].format == "print"
    assert errors(whole) == []
    assert ids_of(whole, "article") == ["2017/1", "2017/2", "2017/3"]
    assert ids_of(whole, "section") == ["2017/1A", "2017/1B", "2017/2A", "2017/2B", "2017/3A", "2017/3B", "2017/3C"]
    said = next(e.message for e in whole.log.entries if e.message.startswith("the source holds"))
    assert [part.split(" (from")[0] for part in said[len("the source holds "):].split("), ")] == [
        "front matter", "the introduction", "front matter", "the contents list", "the definitions", "articles",
        "the index", "back matter"]


def test_the_introduction_is_text_of_its_own(whole):
    intro = whole.corpus.xpath('//*[@id="2017/intro"]')[0]
    assert intro.findtext("title") == "Introduction to the Made-up Rules"
    assert [p.text[:32] for p in intro.iter("p")] == ["The game changes over the years ", "Words such as may and must are u"]


def test_a_definitions_term_may_hold_brackets_and_quotes(whole):
    terms = {d.get("id"): d.get("term") for d in whole.corpus.iter("definition")}
    assert terms == {"2017/def/board": "Board", "2017/def/matchpoint": "Matchpoint (MP)",
                     "2017/def/penalty": 'Penalty (see also "Rectification")', "2017/def/trick": "Trick"}


def test_front_back_index_and_contents_are_kept_apart_with_a_reason(whole):
    kept = {e.message.split(" (lines")[0].split(" (line")[0] for e in whole.log.entries if e.kind == "dropped"
            and "kept apart" in e.message}
    assert kept == {"the book's front matter", "the contents list, evidence for the headings and pages of the Laws",
                    "the book's index", "the book's back matter", "the title of a part of the book"}


def test_the_book_checks_itself_and_says_so(whole):
    assert whole.checked.said == ["2017: 3 articles, 7 sections, 4 definitions, 2 footnotes: as the contents list "
                                  "gives them"]
    assert [e for e in whole.log.entries if e.kind == "gap"] == []


def test_inline_sections_after_a_colon(whole):
    a = whole.corpus.xpath('//*[@id="2017/2A"]/p')[0]
    assert a.text.startswith("one card is led and the made-up words")
    assert whole.corpus.xpath('//*[@id="2017/2"]/p')[0].text == "A player whose turn it is may act when:"


def renumber(pg, number):
    """The page with another page number."""
    return pg.replace(pg.split("\n", 1)[0], FF + str(number), 1)


def test_the_same_book_in_another_order_reads_the_same(tmp_path, whole):
    # Contents first, then the introduction and the committee, the definitions after the Laws.
    ctx = build(tmp_path / "b", [CONTENTS, INTRODUCTION, COMMITTEE, renumber(LAW_1, 1), renumber(LAW_2, 2),
                                 renumber(LAW_3, 3), renumber(DEFINITIONS, 4), INDEX])
    assert errors(ctx) == []
    assert ids_of(ctx, "section") == ids_of(whole, "section")
    assert sorted(ids_of(ctx, "definition")) == sorted(ids_of(whole, "definition"))
    assert ids_of(ctx, "introduction") == ["2017/intro"]


def test_the_book_from_its_contents_list_on_reads_every_law(tmp_path, whole):
    ctx = build(tmp_path / "b", BOOK[4:])
    assert errors(ctx) == []
    assert ids_of(ctx, "article") == ids_of(whole, "article")


def test_the_book_cut_after_its_contents_list_fails_naming_what_is_missing(tmp_path):
    ctx = build(tmp_path / "b", BOOK[:5])
    assert errors(ctx) == [
        "edition 2017: no article was found in its sources (0 definitions): the readers found none of the law's "
        "articles (are their pages in the sources? is the format right? sources.toml may force one)",
        "the contents list names 3 article(s) that the corpus does not hold: 1-3 (the first at book.txt:17); "
        "their pages are missing from the sources, or their headings were not read"]


def test_the_book_without_its_law_pages_fails(tmp_path):
    folder = tmp_path / "b"
    build(folder, [CONTENTS, DEFINITIONS, INDEX])
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert "no article was found in its sources (4 definitions)" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_law_the_contents_list_names_and_the_whole_book_lacks_is_an_error(tmp_path):
    contents = CONTENTS.replace("Index to the Rules", "LAW 4 - FOURTH THINGS\nIndex to the Rules").replace(
        "4 4 4 4\n5", "4 4 4 4\n4\n5")
    ctx = build(tmp_path / "b", [contents, DEFINITIONS, LAW_1, LAW_2, LAW_3, INDEX])
    assert errors(ctx) == ["the contents list names 1 article(s) that the corpus does not hold: 4 (the first at "
                           "book.txt:8); their pages are missing from the sources, or their headings were not read"]
    assert ctx.checked.said == ["2017: 3 articles, 7 sections, 4 definitions, 2 footnotes: 1 difference(s) from the "
                                "contents list and the book's numbering: see the report"]


def test_a_section_the_contents_list_gives_and_the_text_lacks_is_an_error(tmp_path):
    ctx = build(tmp_path / "b", [CONTENTS, DEFINITIONS, LAW_1, LAW_2,
                                 LAW_3.replace(f"C. Last Play The last play ends the deal {RUN_ON}.\n", "")])
    assert errors(ctx) == ["the contents list gives 2017/3 the sections A, B, C, but the corpus lacks C"]


def test_page_runs_joined_into_one_file_are_read_as_runs_and_the_missing_pages_are_a_gap(tmp_path):
    # Page 3 (Law 2's first page) is missing, and the join lost the form feed before page 4, which starts
    # inside Law 2.
    page_4 = page("4", f"the rest of the second law's made-up text {RUN_ON}.", *LAW_3.split("\n")[1:])
    joined = CONTENTS + DEFINITIONS + LAW_1 + "\n" + page_4.lstrip(FF)
    ctx = build(tmp_path / "b", [joined])
    assert errors(ctx) == []
    assert ids_of(ctx, "article") == ["2017/1", "2017/2", "2017/3"]
    said = [e.message for e in ctx.log.entries]
    assert any(m.startswith("page 4 starts here without a form feed") for m in said)
    gaps = [e.message for e in ctx.log.entries if e.kind == "gap"]
    assert any(m.startswith("page 4 follows page 2 (line") and m.endswith("the book's page(s) 3 are not in this source")
               for m in gaps)
    assert any(m.startswith("page 4 starts inside Law 2: its first lines are read as the text of 2") for m in said)
    assert ctx.corpus.xpath('//*[@id="2017/2"]/p')[0].text.startswith("the rest of the second law's")
    assert ctx.checked.said == ["2017: 3 articles, 5 sections, 4 definitions, 2 footnotes: as the contents list "
                                "gives them where the sources have the pages; they lack pages of the book (5 gap(s) "
                                "in the report)"]


def test_a_footnote_number_the_book_skips_is_an_error(tmp_path):
    ctx = build(tmp_path / "b", [CONTENTS, DEFINITIONS, LAW_1.replace("seated" + RUN_ON + "1.", "seated" + RUN_ON + "."
                                                                     ).replace("1 A made-up footnote about seating.\n", ""),
                                 LAW_2, LAW_3])
    assert any(m.startswith("the book's footnote(s) 1 are printed at no page foot") for m in errors(ctx))


def test_no_lead_in_gap_where_the_book_writes_the_first_marker_right_after_the_number(tmp_path):
    law = page("2", "LAW 1", "FIRST THINGS", f"A. Opening 1.(a) if a player is seated {RUN_ON}. (b) if none is "
                                             f"seated {RUN_ON}.", f"B. Closing The game closes {RUN_ON}.")
    ctx = build(tmp_path / "b", [CONTENTS.replace("LAW 2 - SECOND", "LAW 2 - SECOND").split("LAW 2")[0] + "1\n2 2 2\n",
                                 law])
    assert [e.message for e in ctx.log.entries if e.kind == "gap" and "leads in" in e.message] == []
    assert "2017/1A1 has no lead-in to 2017/1A1a: the source writes the first marker right after the number" in \
        [e.message for e in ctx.log.entries]


def test_a_subsection_after_a_heading_ending_in_the_citation_word(tmp_path):
    law = page("2", "LAW 1", "FIRST THINGS", f"A. Breach of Law 1. A player must not {RUN_ON}. 2. A player need "
                                             f"not {RUN_ON}.", f"B. Closing See Law 1. {RUN_ON}.")
    ctx = build(tmp_path / "b", [law])
    assert ids_of(ctx, "subsection") == ["2017/1A1", "2017/1A2"]
    assert ctx.corpus.xpath('//*[@id="2017/1A"]/heading')[0].text == "Breach of Law"


def test_a_dotted_sub_item_after_a_direction_word_is_a_sub_item(tmp_path):
    law = page("2", "LAW 1", "FIRST THINGS", f"A. Opening 1. A player may look: (a) at his cards: (i.) before the "
                                             f"deal, (ii.) during the deal, and (iii.) following the deal {RUN_ON}.")
    ctx = build(tmp_path / "b", [law])
    assert ids_of(ctx, "subitem") == ["2017/1A1a.i", "2017/1A1a.ii", "2017/1A1a.iii"]
    assert ctx.corpus.xpath('//*[@id="2017/1A1a.iii"]/p')[0].text.startswith("following the deal")


def test_item_i_after_h_is_settled_by_item_j_after_it(tmp_path):
    items = " ".join(f"({c}) item {c} {RUN_ON}." for c in "abcdefghij")
    ctx = build(tmp_path / "b", [page("2", "LAW 1", "FIRST THINGS", f"A. Opening 1. The duties are: {items}")])
    assert ids_of(ctx, "item")[-2:] == ["2017/1A1i", "2017/1A1j"]
    said = [e.message for e in ctx.log.entries if "'(i)' after item (h)" in e.message]
    assert said == ["'(i)' after item (h) read as item (i), not as the first sub-item of (h): item (j) follows it "
                    "(line 4)"]


# -- parts.split as a property: every line in exactly one part, in order ---------------------------
PIECES = {"title": TITLE, "preface": PREFACE, "introduction": INTRODUCTION, "committee": COMMITTEE,
          "contents": CONTENTS, "definitions": DEFINITIONS, "law1": LAW_1, "law2": LAW_2, "law3": LAW_3,
          "index": INDEX, "back": BACK}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(PIECES)), min_size=1, max_size=8))
def test_every_line_is_in_exactly_one_part_in_the_files_order(names):
    from pipeline.reading.decode import Line
    text = "".join(PIECES[n] for n in names).lstrip(FF)
    lines = [Line("b.txt", n, t.replace(FF, ""), FF in t) for n, t in enumerate(text.split("\n"), 1)]
    profile = lang.profile("en")
    words = book_words(profile)
    stream = text_adapter.stream(lines, BuildLog().for_file("b.txt"), words)
    book = parts.split(stream, furniture.find(stream, words), words)
    seen = [line.num for part in book for line in part.lines]
    assert seen == [line.num for line in lines if not line.blank]
    # A part with an article heading in it is the articles part: nothing with a Law is kept apart.
    for part in book:
        if part.kind != "articles":
            assert not any(words.article.match(line.text.strip()) for line in part.lines)


def test_a_closing_sentence_after_a_list_is_text_of_the_lists_parent(tmp_path):
    law = page("2", "LAW 1", "FIRST THINGS", f"A. Opening 1. A player may: (a) look at his cards {RUN_ON}. (b) wait "
                                             f"for his turn {RUN_ON}.", f"The Director rules on any doubt {RUN_ON}.",
               f"B. Closing The game closes {RUN_ON}.")
    ctx = build(tmp_path / "b", [law], fmt="flowed")
    assert [p.text[:31] for p in ctx.corpus.xpath('//*[@id="2017/1A1"]/p')] == [
        "A player may:", "The Director rules on any doubt"]
    assert len(ctx.corpus.xpath('//*[@id="2017/1A1b"]/p')) == 1
    assert "the paragraph at line 5 stands on its own after 2017/1A1b, the last entry of its list: read as text " \
           "of 2017/1A1, which the list belongs to" in [e.message for e in ctx.log.entries]


def test_a_paragraph_inside_a_list_that_goes_on_stays_with_its_entry(tmp_path):
    # A page break inside item (a): its second paragraph, then (b) follows.
    first = page("2", "LAW 1", "FIRST THINGS", f"A. Opening 1. A player may: (a) look at his cards {RUN_ON}.")
    second = page("3", f"He may look again when asked {RUN_ON}.", f"(b) wait for his turn {RUN_ON}.")
    ctx = build(tmp_path / "b", [first, second], fmt="flowed")
    assert [p.text[:28] for p in ctx.corpus.xpath('//*[@id="2017/1A1a"]/p')] == [
        "look at his cards and the ma", "He may look again when asked"]


def test_a_closing_paragraph_without_indents_says_its_reading_is_uncertain(tmp_path):
    # Without the lines' places (a plain text), a paragraph after the list's last entry may be that entry's
    # second paragraph or the text the list belongs to: read as the latter, and said to be uncertain.
    law = page("2", "LAW 1", "FIRST THINGS", f"A. Opening 1. A player may: (a) look at his cards {RUN_ON}. (b) wait "
                                             f"for his turn {RUN_ON}.", f"The Director rules on any doubt {RUN_ON}.",
               f"B. Closing The game closes {RUN_ON}.")
    ctx = build(tmp_path / "b", [law], fmt="flowed")
    assert ("uncertain: the paragraph 'The Director rules on any doubt …' after the list's last entry read as "
            "closing the list (text of what the list belongs to), not as that entry's own paragraph: no indent "
            "tells which") in [e.message for e in ctx.log.entries if e.line == 5]


# A text set out as on the page (pdftotext -layout): entries with a hanging indent, a running head beside its
# page number apart by spaces. Law 1's closing paragraph stands where the entries' own lines stand; Law 2's
# stands set out at the section's margin.
LAYOUT_PAGES = [
    FF + "Rules of Made-up Play                              2\n" + "\n".join([
        "LAW 1", "FIRST THINGS",
        "A. Opening",
        "   1. A player may look at his cards when",
        "      the deal begins and not before.",
        "   2. A player may wait for his turn when",
        "      the deal goes on at his table.",
        "      He may look again when he is asked.",
        "B. Closing",
        "   The game closes when the boards are scored."]) + "\n",
    FF + "Rules of Made-up Play                              3\n" + "\n".join([
        "LAW 2", "SECOND THINGS",
        "A. Seating",
        "   1. A player may sit down when he is",
        "      called to his table by the Director.",
        "   2. A player may stand up when the",
        "      round ends at his table.",
        "The Director rules on any doubt about it.",
        "B. Leaving",
        "   The players leave when the session ends."]) + "\n"]


def test_a_layouts_indents_say_whether_a_paragraph_closes_the_list(tmp_path):
    ctx = build(tmp_path / "b", LAYOUT_PAGES)
    assert errors(ctx) == []
    text = {el.get("id"): [" ".join(p.text.split()) for p in el.findall("p")] for el in ctx.corpus.iter()
            if el.get("id")}
    # Set where entry 2's own lines stand: its second paragraph.
    assert text["2017/1A2"] == ["A player may wait for his turn when the deal goes on at his table.",
                                "He may look again when he is asked."]
    # Set out at the section's margin: the list is closed, the paragraph is the section's text.
    assert text["2017/2A2"] == ["A player may stand up when the round ends at his table."]
    assert text["2017/2A"] == ["The Director rules on any doubt about it."]
    assert not [e for e in ctx.log.entries if e.message.startswith("uncertain: the paragraph")]


def test_the_introduction_ends_at_a_title_not_at_a_sentence_that_starts_a_line(tmp_path):
    # A wrapped text without type sizes: a line that starts a sentence after a sentence's end ("The talks
    # went on …", words in lower case) is the introduction's; "Drafting Committee" (title-shaped) ends it.
    intro = page("ii", "Introduction to the Made-up Rules", "The rules were read again by the",
                 "committee, which then kept them or", "changed them where it had to.",
                 "The talks went on at a number of", "meetings over a period of five", "years and more.",
                 "The purpose of the rules stays", "the same as it was before.")
    ctx = build(tmp_path / "b", [TITLE, intro, COMMITTEE, CONTENTS, DEFINITIONS, LAW_1, LAW_2, LAW_3, INDEX, BACK])
    assert errors(ctx) == []
    words = " ".join(" ".join(ctx.corpus.xpath('//*[@id="2017/intro"]//p//text()')).split())
    assert words.endswith("The talks went on at a number of meetings over a period of five years and more. "
                          "The purpose of the rules stays the same as it was before.")
    assert "Drafting Committee" not in words and "Ann Example" not in words
    said = [e.message for e in ctx.log.entries if e.message.startswith("the source holds")]
    assert "front matter (from line 14: the title 'Drafting Committee' after the introduction)" in said[0]


def test_the_book_without_form_feeds_reads_the_same(tmp_path, whole):
    ctx = build(tmp_path / "b", [p.replace(FF, "\n") for p in BOOK])
    assert errors(ctx) == []
    assert ids_of(ctx, "section") == ids_of(whole, "section")
    assert [p.text for p in ctx.corpus.iter("p")] == [p.text for p in whole.corpus.iter("p")]
    found = [e.message.split()[1] for e in ctx.log.entries if "starts here without a form feed" in e.message]
    # (Page 1 stands after the contents list's column of numbers and before a part's title: no evidence
    # tells it from one more number of the column, so it is read with the list: the law is the same.)
    assert found == ["i", "ii", "iii", "2", "3", "4", "5"]


def test_a_contents_list_at_the_back_of_the_book_is_read_there(tmp_path, whole):
    ctx = build(tmp_path / "b", [TITLE, PREFACE, INTRODUCTION, COMMITTEE, DEFINITIONS, LAW_1, LAW_2, LAW_3, INDEX,
                                 CONTENTS.replace("iv\n", ""), BACK])
    assert errors(ctx) == []
    assert ids_of(ctx, "section") == ids_of(whole, "section")
    assert ctx.checked.said == whole.checked.said


# -- a Dutch book: a contents list, title-case "Artikel N" headings, running heads and "- N -" folios --------
def dutch_page(number, *lines, head="Spelregels voor Wedstrijdbridge 2017"):
    return FF + "\n".join(([head] if head else []) + list(lines) + ([f"- {number} -"] if number else [])) + "\n"


DUTCH_BOOK = [
    dutch_page(None, "Spelregels voor Wedstrijdbridge", "Uitgave 2017", head=None),
    dutch_page(1, "Inhoudsopgave", "Begripsomschrijvingen .......... 2", "Artikel 1 - Het spel kaarten .......... 3",
               "A. Rangorde van kaarten en kleuren", "B. De achterkant", "Artikel 2 - De spelmappen .......... 3",
               "Artikel 3 - Het opstellen van de tafels .......... 4"),
    dutch_page(2, "Begripsomschrijvingen", "Arbiter: De persoon die de wedstrijd leidt en de regels toepast.",
               "Kaart: Een van de tweeënvijftig kaarten van het spel."),
    dutch_page(3, "Artikel 1", "Het spel kaarten", "A. Rangorde van kaarten en kleuren",
               "Wedstrijdbridge wordt gespeeld met een spel van 52 kaarten, bestaande uit dertien",
               "kaarten in elk van vier kleuren.*", "B. De achterkant",
               "De achterkanten van alle 52 kaarten moeten gelijk zijn.",
               "Artikel 2", "De spelmappen", "Voor elk te spelen spel is een spelmap beschikbaar met vier",
               "vakken voor de vier handen.", "* De bond kan andere spellen toestaan."),
    dutch_page(4, "Artikel 3", "Het opstellen van de tafels", "De organisatie zet de tafels klaar voordat de zitting",
               "begint, en de arbiter controleert dit."),
]


def dutch_build(folder, pages):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "boek.txt").write_text("".join(pages).lstrip(FF), encoding="utf-8")
    (folder / "sources.toml").write_text('language = "nl"\n[[source]]\nfile = "boek.txt"\nedition = "2017"\n',
                                         encoding="utf-8")
    return stages.make_corpus(folder)


def test_a_dutch_book_with_title_case_headings_reads_as_a_book(tmp_path):
    ctx = dutch_build(tmp_path / "b", DUTCH_BOOK)
    assert ctx.detected["boek.txt"].format == "print"
    assert errors(ctx) == []
    assert ids_of(ctx, "article") == ["2017/1", "2017/2", "2017/3"]
    assert ids_of(ctx, "section") == ["2017/1A", "2017/1B"]
    assert ids_of(ctx, "definition") == ["2017/def/arbiter", "2017/def/kaart"]
    assert [t.text for t in ctx.corpus.iter("title")] == ["Het spel kaarten", "De spelmappen",
                                                         "Het opstellen van de tafels"]
    note = ctx.corpus.xpath('//*[@id="2017/1A/noot1"]')[0]
    assert (note.get("num"), note.text) == ("*", "De bond kan andere spellen toestaan.")
    assert ctx.checked.said == ["2017: 3 articles, 2 sections, 2 definitions, 0 footnotes and 1 note marked *: "
                                "as the contents list gives them"]
    # The running heads and the "- N -" folios are furniture, never law text.
    words = " ".join(ctx.corpus.itertext())
    assert "Spelregels voor Wedstrijdbridge" not in words and "- 3 -" not in words


def test_a_dutch_book_that_lacks_an_article_its_contents_list_gives_fails(tmp_path):
    pages = list(DUTCH_BOOK)
    pages[3] = pages[3].replace("Artikel 2\nDe spelmappen\nVoor elk te spelen spel is een spelmap beschikbaar met "
                                "vier\nvakken voor de vier handen.\n", "")
    ctx = dutch_build(tmp_path / "b", pages)
    assert ids_of(ctx, "article") == ["2017/1", "2017/3"]
    assert errors(ctx) == ["the contents list names 1 article(s) that the corpus does not hold: 2 (the first at "
                           "boek.txt:9); their pages are missing from the sources, or their headings were not read"]


# -- page furniture in any form, learned from its repetition across pages ---------------------------------
def furnished(form, number):
    """A page's head and foot lines in `form`, for page `number`."""
    roman = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"][number]
    return {"arabic at the top": ([str(number)], []),
            "roman at the top": ([roman], []),
            "dashes at the foot": ([], [f"- {number} -"]),
            "number beside a bar and the head": ([f"{number} | Rules of Made-up Play"], []),
            "a footer line and a number": ([], ["Rules of Made-up Play, second edition", str(number)]),
            "head above, number at the foot": (["Rules of Made-up Play"], [str(number)])}[form]


FORMS = ["arabic at the top", "roman at the top", "dashes at the foot", "number beside a bar and the head",
         "a footer line and a number", "head above, number at the foot"]


@pytest.mark.parametrize("form", FORMS)
def test_page_furniture_in_any_form_is_left_out_of_the_law(tmp_path, form):
    bodies = [["LAW 1", "FIRST THINGS", f"A. Opening The game opens when every player is seated {RUN_ON}.",
               f"B. Closing The game closes when the last board is scored {RUN_ON}."],
              ["LAW 2", "SECOND THINGS", f"A player whose turn it is may act when he is ready {RUN_ON}."],
              ["LAW 3", "THIRD THINGS", f"A player who plays early is subject to Law 2 {RUN_ON}."],
              ["LAW 4", "FOURTH THINGS", f"A player who plays late is warned by the Director {RUN_ON}."]]
    pages = []
    for k, body in enumerate(bodies, start=5):
        head, foot = furnished(form, k)
        pages.append(FF + "\n".join(head + body + foot) + "\n")
    ctx = build(tmp_path / "b", pages)
    assert errors(ctx) == []
    assert ids_of(ctx, "article") == ["2017/1", "2017/2", "2017/3", "2017/4"]
    assert [t.text for t in ctx.corpus.iter("title")] == ["FIRST THINGS", "SECOND THINGS", "THIRD THINGS",
                                                         "FOURTH THINGS"]
    words = " ".join(" ".join(ctx.corpus.itertext()).split())
    assert "Made-up Play" not in words and " - 6 - " not in words
    for k in (5, 6, 7, 8):  # no page's number is left in the text, before or after it
        assert not any(p.text.split()[-1] == str(k) or p.text.split()[0] == str(k)
                       for p in ctx.corpus.iter("p"))
    dropped = [e.message for e in ctx.log.entries if e.kind == "dropped"]
    assert len([m for m in dropped if m.startswith("page number")]) == 4, dropped


# -- footnote markers in every form, one collector ------------------------------------------------------
MARKER_FORMS = {"digits glued to the word": ("seated1.", "1 Or standing."),
                "an asterisk": ("seated*.", "* Or standing."),
                "a dagger": ("seated\u2020.", "\u2020 Or standing."),
                "a number in brackets": ("seated[1].", "[1] Or standing."),
                "digits and a bracket": ("seated1).", "1) Or standing."),
                "digits set apart on their own line": ("seated\n1\n.", "1 Or standing.")}


@pytest.mark.parametrize("form", sorted(MARKER_FORMS))
def test_a_footnote_marker_in_any_form_is_a_note_at_its_marker(tmp_path, form):
    marker, foot = MARKER_FORMS[form]
    pages = [page("2", "LAW 1", "FIRST THINGS", f"A. Opening The game opens when every player is {marker}",
                  f"B. Closing The game closes when the last board is scored {RUN_ON}.", foot),
             page("3", "LAW 2", "SECOND THINGS", f"A player acts when he is ready {RUN_ON}.")]
    ctx = build(tmp_path / "b", pages)
    assert errors(ctx) == []
    label = {"an asterisk": "*", "a dagger": "\u2020", "a number in brackets": "[1]"}.get(form, "1")
    assert [(n.get("id"), n.get("num"), n.text) for n in ctx.corpus.iter("note")] == [
        ("2017/1A/noot1", label, "Or standing.")]
    p = ctx.corpus.xpath('//*[@id="2017/1A"]/p')[0]
    assert (p.text, p[0].tail) == ("The game opens when every player is seated", ".")
    # The footnote's text is in the note alone: never in the law text after it.
    assert "Or standing" not in " ".join(" ".join(q.xpath("./text()")) for q in ctx.corpus.iter("p"))


def test_two_notes_marked_with_one_and_two_asterisks_on_one_page(tmp_path):
    pages = [page("2", "LAW 1", "FIRST THINGS", "A. Opening The game opens when every player is seated*.",
                  "B. Closing The game closes when the last board is scored**.", "* Or standing.",
                  "** Or when the Director closes it."),
             page("3", "LAW 2", "SECOND THINGS", f"A player acts when he is ready {RUN_ON}.")]
    ctx = build(tmp_path / "b", pages)
    assert errors(ctx) == []
    assert [(n.get("id"), n.get("num"), n.text) for n in ctx.corpus.iter("note")] == [
        ("2017/1A/noot1", "*", "Or standing."), ("2017/1B/noot1", "**", "Or when the Director closes it.")]


def test_a_last_page_without_its_number_that_goes_on_with_the_law_is_no_back_matter(tmp_path):
    # The folio of the last page was not read: its sections C and D are still Law 2's, never back matter.
    pages = [FF + "\n".join(["LAW 1", "FIRST THINGS", f"A. Opening The game opens when every player is seated {RUN_ON}.",
                             "5"]) + "\n",
             FF + "\n".join(["LAW 2", "SECOND THINGS", f"A. Dealing The cards are dealt {RUN_ON}.",
                             f"B. Bidding The bids go round {RUN_ON}.", "6"]) + "\n",
             FF + "\n".join([f"C. Playing The cards are played {RUN_ON}.",
                             f"D. Scoring The score is written down {RUN_ON}."]) + "\n"]
    ctx = build(tmp_path / "b", pages)
    assert errors(ctx) == []
    assert ids_of(ctx, "section") == ["2017/1A", "2017/2A", "2017/2B", "2017/2C", "2017/2D"]
    # A back cover after the last numbered page is back matter still.
    ctx = build(tmp_path / "c", pages[:2] + [page(None, "Printed for the made-up federation", "ISBN 000-0-000000-00-0")])
    assert ids_of(ctx, "section") == ["2017/1A", "2017/2A", "2017/2B"]
    assert "the book's back matter (lines 10-11): kept apart, not law text" in [e.message for e in ctx.log.entries]
