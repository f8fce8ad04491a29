"""The book's index read into entries (pipeline/reading/index.py): made-up index pages in a layout of their
own, then the real English book (skipped when ../shared/english is absent)."""

from hypothesis import given, settings, strategies as st

from pipeline.core.lang.en import rules
from pipeline.reading.index import read_index


def _lines(*texts: str) -> list[tuple[int, str]]:
    return [(n, t) for n, t in enumerate(texts, start=1)]


def _accounted(reading) -> set[int]:
    """The lines an entry, a sub-entry or a finding names: every line of the index must be one of them."""
    out = {f.line for f in reading.findings}
    for e in reading.entries:
        out |= set(e.lines) | {n for s in e.subs for n in s.lines}
    return out


def _shape(reading) -> list:
    return [(e.headword, [c.words for c in e.cites], e.see,
             [(s.label, [c.words for c in s.cites], s.see) for s in e.subs]) for e in reading.entries]


def test_a_glued_line_is_split_where_a_citation_list_ends():
    r = read_index(_lines("Quorum 50 See also Tempo Absent member 50A1(b) Late arrival, after the draw 50B2, "
                          "61 footnote Replacement Definitions, 52",
                          "Tempo 7 Fast 7A"), rules)
    assert _shape(r) == [
        ("Quorum", ["50"], ["Tempo"], [("Absent member", ["50A1(b)"], []),
                                       ("Late arrival, after the draw", ["50B2", "61 footnote"], []),
                                       ("Replacement", ["Definitions", "52"], [])]),
        ("Tempo", ["7"], [], [("Fast", ["7A"], [])])]


def test_a_headword_glued_to_its_first_sub_entry_is_split_before_the_last_capitalised_word():
    r = read_index(_lines("Sailing Rules Tacking at speed 3B Gybe 3C", "Wind Definitions"), rules)
    assert _shape(r)[0] == ("Sailing Rules", [], [], [("Tacking at speed", ["3B"], []), ("Gybe", ["3C"], [])])
    assert any(f.kind == "inference" and f.line == 1 and "'Sailing Rules'" in f.message for f in r.findings)


def test_a_citation_list_wrapped_to_the_next_line_continues_the_entry():
    r = read_index(_lines("Harness Lost in the storm", "33C2, 34", "Helm 8"), rules)
    assert _shape(r) == [("Harness", [], [], [("Lost in the storm", ["33C2", "34"], [])]), ("Helm", ["8"], [], [])]
    assert r.entries[0].lines == [1, 2]


def test_a_sub_entry_wrapped_to_the_next_line_keeps_its_words():
    r = read_index(_lines("Zebra 4 Crossing at night, with no", "lights 4A2 Stripes 4B"), rules)
    assert _shape(r) == [("Zebra", ["4"], [], [("Crossing at night, with no lights", ["4A2"], []),
                                               ("Stripes", ["4B"], [])])]


def test_see_targets_are_the_longest_headword_named_and_the_rest_begins_a_sub_entry():
    r = read_index(_lines("Anchor Chain 5", "Boat Definitions See also Anchor Chain Painted hull 6A Rudder See Tiller",
                          "Tiller 9"), rules)
    boat = r.entries[1]
    assert boat.see == ["Anchor Chain"]
    assert [(s.label, [c.words for c in s.cites], s.see) for s in boat.subs] == [
        ("Painted hull", ["6A"], []), ("Rudder", [], ["Tiller"])]


def test_a_see_that_names_no_headword_is_uncertain():
    r = read_index(_lines("Oar See Paddle Blade 3", "Rowlock 4"), rules)
    assert r.entries[0].see == ["Paddle"]
    assert [f.line for f in r.findings if f.kind == "uncertain"] == [1]


def test_one_sub_entry_a_line_is_told_from_headwords_by_the_alphabetical_order():
    r = read_index(_lines("Harbour 12, 13", "Anchorage 12B", "Tug hire 13A", "Wharf dues 13B", "Pilot, fee of",
                          "Hull 3", "Ice 4", "Jetty 5", "Keel 6", "Lamp 7", "Mast 8"), rules)
    assert [e.headword for e in r.entries] == ["Harbour", "Hull", "Ice", "Jetty", "Keel", "Lamp", "Mast"]
    assert [(s.label, [c.words for c in s.cites]) for s in r.entries[0].subs] == [
        ("Anchorage", ["12B"]), ("Tug hire", ["13A"]), ("Wharf dues", ["13B"]), ("Pilot, fee of", [])]
    # "Anchorage" sorts before "Harbour": it may be a headword out of order, and the report says so.
    assert [f.line for f in r.findings if f.kind == "uncertain"] == [2]


def test_an_entry_continued_on_the_next_page_is_one_entry_and_a_note_is_kept():
    r = read_index(_lines("Weather 70 Fog 70A", "Weather (continued on)", "Weather (continued) Rain 70B",
                          "Yacht 2 Note: a yacht is not a dinghy."), rules)
    assert _shape(r) == [("Weather", ["70"], [], [("Fog", ["70A"], []), ("Rain", ["70B"], [])]),
                         ("Yacht", ["2"], [], [])]
    assert r.entries[0].lines == [1, 2, 3]
    assert r.entries[1].note == "Note: a yacht is not a dinghy."


def test_a_headword_that_sends_the_reader_to_itself_belongs_to_the_entry_above():
    r = read_index(_lines("Mooring 3 Fees 3A", "Knot See Knot Speed 3B", "Navigation 4"), rules)
    assert _shape(r)[0] == ("Mooring", ["3"], [], [("Fees", ["3A"], []), ("Knot", [], ["Knot"]),
                                                     ("Speed", ["3B"], [])])


_WORD = st.sampled_from(["alpha", "beta", "gamma", "delta", "omega", "sigma"])
_CITE = st.builds(lambda a, s, n: f"{a}{s}{n}", st.integers(1, 93), st.sampled_from("ABCD"), st.integers(1, 9))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(_WORD, min_size=1, max_size=3), st.lists(_CITE, min_size=1, max_size=3)),
                min_size=1, max_size=6),
       st.integers(0, 40))
def test_every_citation_is_kept_in_order_wherever_the_line_breaks(subs, cut):
    """A headword and sentence-case sub-entries, glued on one line or broken anywhere between words: the same
    entry, every citation once, in order (never a line's break)."""
    text = "Lighthouse 1 " + " ".join(f"{' '.join(w).capitalize()} {', '.join(c)}" for w, c in subs)
    words = text.split()
    # A break where the next line starts with no capital (a label's later word, a citation): a line that starts
    # with a capital is a new line of the index, which the alphabetical order decides.
    breaks = [n for n in range(2, len(words)) if not words[n][:1].isupper()]
    at = breaks[cut % len(breaks)] if breaks else len(words)
    lines = [(1, " ".join(words[:at])), (2, " ".join(words[at:]))] if words[at:] else [(1, text)]
    r = read_index(lines, rules)
    assert [e.headword for e in r.entries] == ["Lighthouse"]
    got = [c.words for c in r.entries[0].cites] + [c.words for s in r.entries[0].subs for c in s.cites]
    assert got == ["1"] + [c for _, cs in subs for c in cs]
    assert _accounted(r) == {n for n, _ in lines}


def test_the_title_and_byline_head_the_index_and_a_quote_continues_a_line():
    r = read_index(_lines("Index of Sailing Terms", "Compiled from the club's notes.",
                          'Dinghy 3 Note: a "dinghy" is not a', '"yacht".', "Ensign 4"), rules)
    assert _shape(r) == [("Dinghy", ["3"], [], []), ("Ensign", ["4"], [], [])]
    assert r.entries[0].note == 'Note: a "dinghy" is not a "yacht".'
    assert [(f.line, f.kind) for f in r.findings if "heads the index" in f.message] == [(1, "inference"),
                                                                                       (2, "inference")]
    assert _accounted(r) == {1, 2, 3, 4, 5}
