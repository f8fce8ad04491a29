"""Edition diffs: a change of accents or spacing only is shown and counted as such, never as a change of
content (docs/diff.md, "Accents and spacing"); the overview lists the changes of content first.

The comparison function (words.classify) on made-up pairs and, with hypothesis, on accent and whitespace
variants of any text; the word diff's `form` ops; a made-up pair of editions through JSON, text and HTML;
the five Dutch sources' overview order.
"""
import re
import unicodedata

import lxml.html
import pytest
from hypothesis import given, settings, strategies as st
from lxml import etree

from pipeline.core import lang
from pipeline.outputs.diff import compare, render
from pipeline.outputs.diff import words as w
from pipeline.publish.run import make_corpus

NL = lang.profile("nl")
SRC = 'sources="x.txt:1"'


# -- the comparison function ----------------------------------------------------------------------------
@pytest.mark.parametrize("old, new, kind", [
    ("Één honneur", "Een honneur", w.FORM),  # accents
    ("de beeldzijde van één of meer", "de beeldzijde van een of meer", w.FORM),
    ("zie art.58 hieronder", "zie art. 58 hieronder", w.FORM),  # a space beside a mark
    ("de partij .", "de partij.", w.FORM),
    ("café", "cafe\u0301", w.FORM),  # é as one character and as e with a combining accent
    ("Één honneur,zie art.58", "Een honneur, zie art. 58", w.FORM),  # both at once
    ("twee  kaarten\n worden", "twee kaarten worden", w.SAME),  # a run of whitespace is one space
    ("  twee kaarten ", "twee kaarten", w.SAME),  # whitespace at either end is nothing
    ("twee\u00a0kaarten", "twee kaarten", w.SAME),  # a no-break space is a space
    ("twee kaarten", "twee kaarten", w.SAME),
    ("de speel periode", "de speelperiode", w.CONTENT),  # a word split or joined: other words
    ("Een kaart", "een kaart", w.CONTENT),  # a capital is a letter
    ("één kaart", "twee kaarten", w.CONTENT),
    ("zie 24", "zie 24.", w.CONTENT),  # a mark more
])
def test_classify_tells_accents_and_spacing_from_content(old, new, kind):
    assert w.classify(old, new) == kind
    assert w.classify(new, old) == kind


LETTERS = "abcdefghijklmnopqrstuvwxyzEIOU"
ACCENTS = ["\u0301", "\u0300", "\u0308", "\u0302"]  # acute, grave, diaeresis, circumflex
WHITESPACE = [" ", "  ", "\t", "\n", "\u00a0", " \n "]


@st.composite
def texts_and_variants(draw):
    """A text of words and marks, and a variant of it: other accents on its letters (composed or not),
    other whitespace between its words, and spaces added or taken away beside its marks."""
    words = draw(st.lists(st.text(LETTERS, min_size=1, max_size=8), min_size=1, max_size=8))
    marks = draw(st.lists(st.sampled_from(["", ",", ".", ":", ";", "(", ")"]), min_size=len(words), max_size=len(words)))
    text = " ".join(word + mark for word, mark in zip(words, marks))
    variant = []
    for word, mark in zip(words, marks):
        letters = "".join(c + draw(st.sampled_from([""] + ACCENTS)) for c in word)
        if draw(st.booleans()):
            letters = unicodedata.normalize("NFC", letters)
        space = draw(st.sampled_from(["", " "])) if mark else ""
        variant.append(letters + space + mark)
    joined = variant[0]
    for piece in variant[1:]:
        joined += draw(st.sampled_from(WHITESPACE)) + piece
    return text, draw(st.sampled_from(["", " ", "\n"])) + joined


@settings(max_examples=200, deadline=None)
@given(texts_and_variants())
def test_accent_and_whitespace_variants_of_a_text_always_classify_as_such(pair):
    text, variant = pair
    assert w.classify(text, variant) in (w.SAME, w.FORM)
    # … and the word diff agrees: nothing in it but equal and form runs.
    old, new = w.tokenise(text), w.tokenise(variant)
    assert {op[0] for op in w.diff_tokens(old, new)} <= {"equal", "form"}


@settings(max_examples=100, deadline=None)
@given(texts_and_variants(), st.sampled_from("bdfgkmpt"))
def test_another_letter_is_always_a_change_of_content(pair, letter):
    text, _ = pair
    changed = re.sub(r"[aeiou]", letter, text, count=1)
    if changed != text:
        assert w.classify(text, changed) == w.CONTENT


def test_the_word_diff_marks_accents_and_spacing_as_form_runs():
    old, new = w.tokenise("Één kaart, zie art.58 of meer"), w.tokenise("Een kaart, zie art. 58 of minder")
    ops = w.diff_tokens(old, new)
    assert [(tag, [t.text for t in old[i1:i2]], [t.text for t in new[j1:j2]]) for tag, i1, i2, j1, j2 in ops] == [
        ("form", ["Één "], ["Een "]), ("equal", ["kaart", ", ", "zie "], ["kaart", ", ", "zie "]),
        ("form", ["art", ".", "58 "], ["art", ". ", "58 "]), ("equal", ["of "], ["of "]),
        ("replace", ["meer"], ["minder"])]


# -- a made-up pair of editions ---------------------------------------------------------------------------
def article(ed, num, title, text):
    return (f'<article id="{ed}/{num}" num="{num}" {SRC}><title {SRC}>{title}</title>'
            f'<p {SRC}>{text}</p></article>')


def editions():
    """Three articles in both editions: 1 differs in accents and spacing only, 2 in a word, 3 not at all;
    article 4 is in the new edition's sources only."""
    old = etree.fromstring('<edition id="2007">' + article("2007", 1, "Één kaart", "Één kaart, zie art.58.")
                           + article("2007", 2, "Twee kaarten", "Twee kaarten worden getoond.")
                           + article("2007", 3, "Drie", "Drie kaarten.") + "</edition>")
    new = etree.fromstring('<edition id="2017">' + article("2017", 1, "Een kaart", "Een kaart, zie art. 58.")
                           + article("2017", 2, "Twee kaarten", "Twee kaarten worden gespeeld.")
                           + article("2017", 3, "Drie", "Drie kaarten.")
                           + article("2017", 4, "Vier", "Vier kaarten.") + "</edition>")
    return old, new


def test_an_article_that_differs_in_accents_and_spacing_only_is_counted_apart():
    result = compare(*editions())
    assert result["summary"] == {"changed": ["2"], "accents_spacing": ["1"], "unchanged": ["3"],
                                 "missing_from_old": ["4"], "missing_from_new": [], "renumbered": []}
    one = result["articles"][0]
    assert one["status"] == "accents-spacing" and one["changes"]["title"] is None
    assert one["label"]["segments"] == [{"op": "form", "old": "Één", "text": "Een"},
                                        {"op": "equal", "text": " kaart"}]
    # The space and what is written together with it on either side: "art.58." → "art. 58.".
    assert one["paragraphs"] == [[{"op": "form", "old": "Één", "text": "Een"}, {"op": "equal", "text": " kaart, zie "},
                                  {"op": "form", "old": "art.58.", "text": "art. 58."}]]
    text = render.to_text(result, NL)
    assert "articles: 1 changed, 1 accents or spacing only, 1 unchanged, 1 not comparable" in text
    assert "  accents or spacing only: 1" in text
    assert "{~Één~>Een~} kaart, zie {~art.58.~>art. 58.~}" in text


def test_the_page_lists_changes_first_and_labels_accents_and_spacing_in_the_books_language():
    page = lxml.html.fromstring(render.to_html(compare(*editions()), NL))
    rows = [(tr.get("class"), tr.xpath("string(td[1])").strip(), tr.xpath("string(td[3])").strip())
            for tr in page.xpath("//section[@class='summary']//tbody/tr")]
    assert rows == [("changed", "2", "gewijzigd"), ("accents-spacing", "1", "alleen accenten/spaties"),
                    ("unchanged", "3", "ongewijzigd"),
                    ("not-comparable", "4", "niet te vergelijken: ontbreekt in de bronnen van 2007")]
    assert [s.get("id") for s in page.xpath("//section[contains(@class, 'article')]")] == [
        "art-2", "art-1", "art-3", "art-4"]
    counts = " ".join(page.xpath("string(//p[@class='counts'])").split())
    assert counts.startswith("1 gewijzigd · 1 alleen accenten/spaties · 1 ongewijzigd")
    [form] = page.xpath("//section[@id='art-1']//p/span[@class='form'][1]")
    assert (form.xpath("string(del)"), form.xpath("string(ins)"), form.xpath("string(small)")) == (
        "Één", "Een", "(alleen accenten/spaties)")
    english = lxml.html.fromstring(render.to_html(compare(*editions()), lang.profile("en")))
    assert english.xpath("//section[@id='art-1']//span[contains(@class, 'badge')]/text()") == [
        "accents or spacing only"]


# -- the five Dutch sources ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dutch():
    corpus = make_corpus("sources", {"no_corrections": True}).corpus
    return compare(*corpus.iterchildren("edition"))


def test_the_overview_of_the_five_sources_lists_articles_24_and_41_first(dutch):
    page = lxml.html.fromstring(render.to_html(dutch, NL))
    rows = [(tr.xpath("string(td[1])").strip(), tr.xpath("string(td[3])").strip())
            for tr in page.xpath("//section[@class='summary']//tbody/tr")]
    assert rows == [("24", "gewijzigd"), ("41", "gewijzigd"),
                    *[(n, "niet te vergelijken: ontbreekt in de bronnen van 2007") for n in ("16", "47", "50", "53", "57")],
                    ("25", "niet te vergelijken: ontbreekt in de bronnen van 2017")]
    assert [s.get("id") for s in page.xpath("//section[contains(@class, 'article')]")][:2] == ["art-24", "art-41"]


def test_the_accent_changes_of_article_24_are_shown_as_such_and_it_stays_changed(dutch):
    a24 = next(a for a in dutch["articles"] if a["new"] == "24")
    assert a24["status"] == "changed"  # its words changed too
    forms = [s for p in a24["paragraphs"] for s in p if s["op"] == "form"]
    assert forms == [{"op": "form", "old": "één", "text": "een"}]
    b = next(c for c in a24["children"] if c["new"] == "24B")
    assert [s for s in b["label"]["segments"] if s["op"] != "equal"] == [{"op": "form", "old": "Eén", "text": "Een"}]
    assert "24B" in a24["changes"]["sections"]["changed"]  # its reference changed (23 → 72C)
