"""The headings stage (reading/headings.py) on made-up flowed pages: a section heading matched with the
contents list's although the two write it with other hyphens, spaces, case or lost ligatures, and the
run-in headings of subsections ("1. Single Result Obtained In team play …") split from their text."""
from hypothesis import given, settings, strategies as st

from pipeline.core import lang
from pipeline.core.model import Block, Reading
from pipeline.core.report import BuildLog
from pipeline.corpus import stages
from pipeline.reading import headings

EN = lang.profile("en")
NL = lang.profile("nl")
# Running text long enough that a made-up page reads as the flowed layout (a paragraph per line).
LONG = "and the words of a made-up rule run on long enough to make this a flowed paragraph line " * 2


def made_up_book(tmp_path, contents, page):
    """A made-up English book of two flowed sources: its contents list and one page of its Laws."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "contents.txt").write_text(contents, encoding="utf-8")
    (folder / "page.txt").write_text(page, encoding="utf-8")
    (folder / "sources.toml").write_text(
        'language = "en"\n' + "".join(f'[[source]]\nfile = "{name}"\nedition = "2017"\nformat = "flowed"\n'
                                      for name in ("contents.txt", "page.txt")), encoding="utf-8")
    return stages.make_corpus(folder)


def heading(ctx, node):
    return ctx.corpus.xpath(f'//*[@id="2017/{node}"]')[0].findtext("heading")


def first_text(ctx, node):
    return ctx.corpus.xpath(f'//*[@id="2017/{node}"]')[0].findtext("p")


def said(ctx, word="heading"):
    return [e.message for e in ctx.log.entries if e.kind in ("inference", "damage") and word in e.message]


CONTENTS = "Table of Contents\nLAW 7 - MADE-UP PROCEDURES 7\nA. New Shuffle and {a} 7\nB. Orderly Conduct 7\n"


# -- the contents list's heading, written otherwise in the text ------------------------------------------
def test_a_hyphen_the_contents_list_writes_and_the_text_does_not_keeps_the_texts_words(tmp_path):
    ctx = made_up_book(tmp_path, CONTENTS.format(a="Re-deal"),
                       f"7\nLAW 7\nMADE-UP PROCEDURES\nA. New Shuffle and Redeal If the cards {LONG}\n"
                       f"B. Orderly Conduct When a player {LONG}\n")
    assert heading(ctx, "7A") == "New Shuffle and Redeal"
    assert first_text(ctx, "7A").startswith("If the cards and the words")
    assert said(ctx)[0] == (
        "the heading 'New Shuffle and Redeal' of 7A split from its text at 'If the cards and the words of '… by "
        "the contents list's heading for 7A (contents.txt:3); the contents list writes 'Re-deal' where the text "
        "writes 'Redeal' (the text's words are kept)")
    assert heading(ctx, "7B") == "Orderly Conduct"
    assert said(ctx)[1].endswith("by the contents list's heading for 7B (contents.txt:4)")  # the same: nothing said


def test_a_hyphen_the_text_writes_and_the_contents_list_does_not(tmp_path):
    ctx = made_up_book(tmp_path, CONTENTS.format(a="Redeal"),
                       f"7\nLAW 7\nMADE-UP PROCEDURES\nA. New  Shuffle and re-deal 1. If the cards {LONG}\n"
                       f"B. Orderly Conduct When a player {LONG}\n")
    assert heading(ctx, "7A") == "New Shuffle and re-deal"
    assert said(ctx)[0] == (
        "'New  Shuffle and re-deal', all the text before the subsections of 7A, read as its heading by the "
        "contents list's heading for 7A (contents.txt:3); the contents list writes 'Redeal' where the text writes "
        "'re-deal' (the text's words are kept)")
    assert first_text(ctx, "7A1").startswith("If the cards")


def test_a_ligature_lost_on_one_side_only_still_matches(tmp_path):
    # "Shu e": the extraction lost the "ffl" of "Shuffle" in the contents list, not in the text
    ctx = made_up_book(tmp_path, "Table of Contents\nLAW 7 - MADE-UP PROCEDURES 7\nA. New Shu e 7\n",
                       f"7\nLAW 7\nMADE-UP PROCEDURES\nA. New Shuffle If the cards {LONG}\n")
    assert heading(ctx, "7A") == "New Shuffle"
    assert "the contents list writes 'Shu e' where the text writes 'Shuffle'" in said(ctx)[0]


def test_a_heading_that_stops_inside_a_word_of_the_text_is_no_match(tmp_path):
    ctx = made_up_book(tmp_path, "Table of Contents\nLAW 7 - MADE-UP PROCEDURES 7\nA. The Deal 7\n",
                       f"7\nLAW 7\nMADE-UP PROCEDURES\nA. The Dealer Reports If the cards {LONG}\n")
    assert said(ctx)[0] == ("the contents list gives 'The Deal' as the heading of 7A (contents.txt:3), but the text "
                            "starts 'The Dealer Reports'; the heading is read from the capitals of the text instead")
    assert said(ctx)[1].endswith("by the capitals of its words, up to 'If', which starts a sentence (the contents "
                                 "entry does not match)")
    assert heading(ctx, "7A") == "The Dealer Reports"


JOINER = st.sampled_from(["", "-", "\u00ad", "\u2013", " ", "  "])
WORD = st.text(alphabet="abcdegh", min_size=2, max_size=7)  # no "f": no ligature here


@settings(max_examples=150, deadline=None)
@given(words=st.lists(WORD, min_size=1, max_size=4), cuts=st.lists(st.tuples(st.integers(1, 6), JOINER), max_size=3),
       upper=st.booleans())
def test_a_heading_matches_with_any_hyphens_dashes_spaces_or_case(words, cuts, upper):
    listed = " ".join(w.capitalize() for w in words)
    written = [w.upper() if upper else w for w in words]
    for at, joiner in cuts:  # a joiner put inside a word of the text
        k = at % len(written)
        w = written[k]
        written[k] = w[:1] + joiner + w[1:]
    head = " ".join(written)
    text = f"{head} Then the text goes on"
    assert headings._heading_at_start(text, listed, EN.rules) == len(head)
    assert headings._heading_at_start(text, listed + "x", EN.rules) is None


def test_dutch_has_no_ligatures_to_match():
    assert headings._heading_at_start("De Shu e van het spel", "De Shuffle", NL.rules) is None
    assert headings._heading_at_start("De Shu e van het spel", "De Shuffle", EN.rules) == len("De Shu e")


# -- run-in headings of subsections --------------------------------------------------------------------
PAGE = ("7\nLAW 7\nMADE-UP PROCEDURES\nA. Results Found Elsewhere 1. Single Result Obtained In team play {long} "
        "2. Several Results Found at Tables When two results {long} 3. The Director may vary {long}\n"
        "B. Orderly Conduct The Director keeps order 1. The Director shall see {long} 2. Any contestant may ask "
        "{long}\nC. Lone Matter 1. Single Result Obtained In team play {long} 2. The Director shall see {long}\n"
        "D. Mixed Matter 1. Alpha Beta When one {long} 2. Gamma Delta Epsilon players may {long}\n")
RUN_IN_CONTENTS = ("Table of Contents\nLAW 7 - MADE-UP PROCEDURES 7\nA. Results Found Elsewhere 7\n"
                   "B. Orderly Conduct 7\nC. Lone Matter 7\nD. Mixed Matter 7\n")


def test_run_in_headings_of_subsections_are_split_where_the_section_writes_them(tmp_path):
    ctx = made_up_book(tmp_path, RUN_IN_CONTENTS, PAGE.format(long=LONG))
    assert [heading(ctx, f"7A{n}") for n in (1, 2, 3)] == ["Single Result Obtained", "Several Results Found at Tables",
                                                           None]
    assert first_text(ctx, "7A1").startswith("In team play and the words")
    assert first_text(ctx, "7A2").startswith("When two results")
    assert first_text(ctx, "7A3").startswith("The Director may vary")
    assert heading(ctx, "7A") == "Results Found Elsewhere"
    assert sorted(m for m in said(ctx, "7A") if "run-in" in m) == [
        "the heading 'Several Results Found at Tables' of 7A2 split from its text at 'When two results and the words'… "
        "by the capitals of its words, up to 'When', which starts a sentence, as in the run-in headings of 7A1 (no "
        "contents entry)",
        "the heading 'Single Result Obtained' of 7A1 split from its text at 'In team play and the words of '… by the "
        "capitals of its words, up to 'In', which starts a sentence, as in the run-in headings of 7A2 (no contents "
        "entry)"]


def test_a_subsections_ordinary_text_is_never_split(tmp_path):
    ctx = made_up_book(tmp_path, RUN_IN_CONTENTS, PAGE.format(long=LONG))
    assert [heading(ctx, f"7B{n}") for n in (1, 2)] == [None, None]
    assert first_text(ctx, "7B1").startswith("The Director shall see")
    assert first_text(ctx, "7B2").startswith("Any contestant may ask")
    assert said(ctx, "7B1") == [] and said(ctx, "7B2") == []


def test_a_run_in_heading_alone_in_its_section_is_kept_as_text_and_called_uncertain(tmp_path):
    ctx = made_up_book(tmp_path, RUN_IN_CONTENTS, PAGE.format(long=LONG))
    assert heading(ctx, "7C1") is None
    assert first_text(ctx, "7C1").startswith("Single Result Obtained In team play")
    assert said(ctx, "7C1") == [
        "the run-in heading of 7C1 is uncertain: read as text from its start, 'Single Result Obtained In'…, as no "
        "other subsection of 7C has a run-in heading; it could also be the heading 'Single Result Obtained', with "
        "the text starting at 'In'"]


def test_a_run_in_heading_without_a_sentence_opener_after_it_is_uncertain_among_sure_ones(tmp_path):
    page = PAGE.format(long=LONG).replace("D. Mixed Matter 1. Alpha Beta When one",
                                          "D. Mixed Matter 1. Alpha Beta When one {long} 2. Zeta Eta If one".format(
                                              long=LONG)).replace("2. Gamma Delta", "3. Gamma Delta")
    ctx = made_up_book(tmp_path, RUN_IN_CONTENTS, page)
    assert [heading(ctx, f"7D{n}") for n in (1, 2, 3)] == ["Alpha Beta", "Zeta Eta", "Gamma Delta"]
    assert first_text(ctx, "7D3").startswith("Epsilon players may")
    assert said(ctx, "7D3") == [
        "the run-in heading of 7D3 is uncertain (no contents entry): read as 'Gamma Delta', with the text starting "
        "at 'Epsilon', as 7D1, 7D2 have run-in headings; it could also be 'Gamma Delta Epsilon'"]


def test_the_contents_lists_subsection_heading_is_evidence_on_its_own():
    """A contents list that gives a subsection's heading ("7A1"): split by it, even alone in its section."""
    contents = Reading("contents.txt", "flowed", "2017", [Block("contents", "Made-up Heading", [3], cite="7A1")])
    page = Reading("page.txt", "flowed", "2017", [
        Block("article", "LAW 7", [1], cite="7"),
        Block("heading-text", "Orderly Conduct The Director keeps order", [2], cite="A",
              pieces=[(2, "Orderly Conduct The Director keeps order")]),
        Block("list", "Made-Up Heading The Director shall see", [2], number=1,
              pieces=[(2, "Made-Up Heading The Director shall see")]),
        Block("list", "The Director shall see", [2], number=2, pieces=[(2, "The Director shall see")])])
    log = BuildLog()
    headings.split_headings([contents, page], log, EN)
    assert [(b.kind, b.cite, b.number, b.text) for b in page.blocks] == [
        ("article", "7", None, "LAW 7"), ("heading", "A", None, "Orderly Conduct"),
        ("para", None, None, "The Director keeps order"), ("list", None, 1, "The Director shall see"),
        ("heading", None, None, "Made-Up Heading"), ("list", None, 2, "The Director shall see")]
    assert [e.message for e in log.entries if "7A1" in e.message] == [
        "the heading 'Made-Up Heading' of 7A1 split from its text at 'The Director shall see'… by the contents "
        "list's heading for 7A1 (contents.txt:3); the contents list writes 'Made-up' where the text writes "
        "'Made-Up' (the text's words are kept)"]


def test_without_a_contents_entry_a_capitalised_small_word_may_start_the_text_and_a_subject_follow_it(tmp_path):
    ctx = made_up_book(tmp_path, "Table of Contents\nLAW 8 - OTHER 7\n",
                       f"7\nLAW 7\nMADE-UP PROCEDURES\nA. Single Result Obtained In team play {LONG}\n"
                       f"B. Orderly Conduct The Director keeps order {LONG}\n")
    assert [heading(ctx, f"7{s}") for s in "AB"] == ["Single Result Obtained", "Orderly Conduct"]
    assert said(ctx) == [
        "the heading 'Single Result Obtained' of 7A split from its text at 'In team play and the words of '… by the "
        "capitals of its words, up to 'In', which starts a sentence (no contents entry)",
        "the heading of 7B is uncertain (no contents entry): read as 'Orderly Conduct', with the text starting at "
        "'The'; it could also be 'Orderly Conduct The'"]
