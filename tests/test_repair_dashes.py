"""A hyphen typed with a space on either side between words is the parenthetical dash, written as the
profile's SPACED_DASH (an en dash in Dutch and English) and logged with file and line; never inside a
range or a compound. Made-up text; the Dutch sources at the end."""
from hypothesis import given, settings, strategies as st

from pipeline.core import lang
from pipeline.core.report import BuildLog
from pipeline.reading import repair

NL = lang.profile("nl")
EN = lang.profile("en")
PROPERTY = settings(max_examples=80, deadline=None, derandomize=True, database=None)


def dashed(text, profile=NL):
    """(the text after the dash rule alone, the number of repairs logged): the property tests' view, free of
    the other repairs (a word typed twice is collapsed by another rule)."""
    log = BuildLog()
    out = repair.spaced_dashes(text, 7, log.for_file("verzonnen.txt"), profile)
    return out, len(log.entries)


def repaired(text, profile=NL):
    """(the repaired text, [(line, message, before, after)]) of repair_text on `text` at line 7."""
    log = BuildLog()
    out = repair.repair_text(text, 7, log.for_file("verzonnen.txt"), profile)
    return out, [(e.file, e.line, e.message, e.before, e.after) for e in log.entries]


def test_a_parenthetical_pair_of_spaced_hyphens_becomes_en_dashes_each_logged():
    text, log = repaired("De kaartgever mag - tenzij regel 9B anders zegt - opnieuw schudden.")
    assert text == "De kaartgever mag \u2013 tenzij regel 9B anders zegt \u2013 opnieuw schudden."
    assert log == [("verzonnen.txt", 7, "spaced hyphen read as a dash", "mag - tenzij", "mag \u2013 tenzij"),
                   ("verzonnen.txt", 7, "spaced hyphen read as a dash", "zegt - opnieuw", "zegt \u2013 opnieuw")]


def test_after_a_citation_and_before_a_bracket_or_quote():
    assert repaired("zie regel 12 - (in dat geval) verder")[0] == "zie regel 12 \u2013 (in dat geval) verder"
    assert repaired("the Law 4B - \u201cfirst\u201d words", EN)[0] == "the Law 4B \u2013 \u201cfirst\u201d words"


def test_ranges_compounds_and_list_dashes_stay_as_they_are():
    for text in ("de spellen 1-3 en 4 - 6", "Noord-Zuid speelt", "bied- en speelperiode", "- een opsomming",
                 "waarden 10 - 20", "een -- dubbel", "de punt . - hier"):
        assert repaired(text) == (text, []), text


WORDS = st.text(alphabet="abcdeé", min_size=1, max_size=6)


@PROPERTY
@given(st.lists(WORDS, min_size=2, max_size=6), st.data())
def test_every_spaced_hyphen_between_words_and_nothing_else_changes(words, data):
    joins = [data.draw(st.sampled_from([" ", " - ", "-"])) for _ in words[1:]]
    text = words[0] + "".join(j + w for j, w in zip(joins, words[1:]))
    out, logged = dashed(text)
    assert out == text.replace(" - ", " \u2013 ")
    assert logged == joins.count(" - ")
    assert out.count("-") == joins.count("-")  # a hyphen inside a compound is kept


@PROPERTY
@given(st.lists(st.integers(0, 999).map(str), min_size=2, max_size=5))
def test_numbers_with_a_spaced_hyphen_are_a_range_and_stay(numbers):
    text = " - ".join(numbers)
    assert dashed(text) == (text, 0)


def test_the_dutch_sources_read_their_parenthetical_dashes(tmp_path):
    from pipeline.publish.run import make_corpus
    from conftest import ROOT

    ctx = make_corpus(ROOT / "sources")
    said = [(e.file, e.line, e.before, e.after) for e in ctx.log.entries if e.message == "spaced hyphen read as a dash"]
    assert said == [(file, 12, before, before.replace(" - ", " \u2013 "))
                    for file in ("000_8d35bcdf16b9ca3e.txt", "001_0c222c0b6955047f.txt")
                    for before in ("speler - behoudens", "53A - een")]
    text = "".join(ctx.corpus.xpath("//section[@id='2017/53B']//text()"))
    assert "speler \u2013 behoudens wat bepaald wordt in artikel 53A \u2013 een kaart" in text
    assert " - " not in text
