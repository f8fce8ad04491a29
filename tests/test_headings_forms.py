"""The headings stage (reading/headings.py) on made-up flowed pages: a section heading matched with the
contents list's although the two write it with other hyphens, spaces, case or lost ligatures."""
import re

from hypothesis import given, settings, strategies as st

from pipeline.core import lang
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


def test_the_english_books_6d_has_its_heading_from_the_contents_list(tmp_path):
    """On the whole English book, where it is at hand (../shared/english; never copied into the project)."""
    import pytest
    from pathlib import Path
    import subprocess
    book = Path(__file__).resolve().parents[1].parent / "shared" / "english" / "laws2017-en.txt"
    cut = Path("/work/tools/cut5.py")
    if not (book.is_file() and cut.is_file()):
        pytest.skip("the whole English book and its hand-cut sources are not at hand")
    subprocess.run(["python3", str(cut), str(tmp_path / "src")], check=True, capture_output=True)
    ctx = stages.make_corpus(tmp_path / "src")
    assert heading(ctx, "6D") == "New Shuffle and Redeal"
    assert re.search(r"the contents list writes 'Re-deal' where the text writes 'Redeal'", "\n".join(said(ctx)))
