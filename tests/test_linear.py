"""The functions that once took quadratic time on hostile input, each on small inputs with the
exact results (text and report entries) the quadratic versions gave. Their cost is measured by
`make bench` (hostile sizes), never here."""
import re

from lxml import etree

from pipeline.reading import notes, repair
from pipeline.corpus import refs
from pipeline.outputs import serialise
from pipeline.outputs.diff import words as w
from pipeline.outputs.diff.compare import segments
from pipeline.core.model import NOTE_MARK, Note
from pipeline.core.report import BuildLog


def logged(function, text, line):
    """(result, [(kind, line, message, before, after)]) of function(text, line, log)."""
    log = BuildLog()
    result = function(text, line, log.for_file("f.txt"))
    return result, [(e.kind, e.line, e.message, e.before, e.after) for e in log.entries]


# -- repair.collapse_duplicates -----------------------------------------------------------------
def test_a_repeated_word_collapses_longest_first_as_before():
    text, log = logged(repair.collapse_duplicates, " ".join(["woord"] * 15), 3)
    assert text == "woord"
    six, four, two = (" ".join(["woord"] * k) for k in (6, 4, 2))
    assert log == [("repair", 3, "duplicated words collapsed", six + " " + six, six),
                   ("repair", 3, "duplicated words collapsed", four + " " + four, four),
                   ("repair", 3, "duplicated words collapsed", two + " " + two, two),
                   ("repair", 3, "duplicated words collapsed", "woord woord", "woord"),
                   ("repair", 3, "duplicated words collapsed", "woord woord", "woord")]


def test_a_removal_that_makes_a_new_repeat_across_its_place_is_collapsed_too():
    # "spel spel" goes first (nothing longer repeats yet); then "het spel het spel" stands across the join.
    text, log = logged(repair.collapse_duplicates, "het spel spel het spel begint", 4)
    assert text == "het spel begint"
    assert log == [("repair", 4, "duplicated words collapsed", "spel spel", "spel"),
                   ("repair", 4, "duplicated words collapsed", "het spel het spel", "het spel")]


def test_longer_phrases_go_first_and_legitimate_doubles_stay():
    text, log = logged(repair.collapse_duplicates, "zie artikel artikel 63A1 en dat dat klopt, de regel de regel.", 5)
    assert text == "zie artikel 63A1 en dat dat klopt, de regel."
    assert log == [("repair", 5, "duplicated words collapsed", "de regel de regel.", "de regel."),
                   ("repair", 5, "duplicated words collapsed", "artikel artikel", "artikel")]


def test_collapsing_keeps_the_spacing_of_what_stays_and_the_note_marks():
    text, log = logged(repair.collapse_duplicates, "  de kaart  kaart" + NOTE_MARK + " blijft", 1)
    assert text == "  de kaart" + NOTE_MARK + " blijft"
    assert log == [("repair", 1, "duplicated words collapsed", "kaart  kaart", "kaart")]


# -- notes --------------------------------------------------------------------------------------
def test_inline_notes_malformed_notes_and_an_unclosed_one_in_one_line():
    line = "A (Noot: een (b) noot) B verbieden Noot: (twee) C (Noot: open (x) D (Noot: drie)"
    (text, found), log = logged(notes.extract_inline_notes, line, 7)
    assert text == f"A{NOTE_MARK} B verbieden{NOTE_MARK} C (Noot: open (x) D{NOTE_MARK}"
    assert found == [Note("een (b) noot", [7], "inline"), Note("twee", [7], "malformed"),
                     Note("drie", [7], "inline")]
    assert log == [("repair", 7, "malformed-note", "Noot: (twee)", "(Noot: twee)"),
                   ("damage", 7, "note opened but never closed: (Noot: open (x) D (Noot: drie)…; "
                                 "left in the text as written", None, None)]


def test_many_notes_in_one_line_each_stand_at_their_marker():
    line = " ".join(f"Tekst {k} (Noot: noot {k}.)" for k in range(200))
    (text, found), log = logged(notes.extract_inline_notes, line, 2)
    assert text == " ".join(f"Tekst {k}{NOTE_MARK}" for k in range(200))
    assert [n.text for n in found] == [f"noot {k}." for k in range(200)] and log == []


def test_numbered_markers_inside_brackets_are_not_markers():
    assert notes.extract_numbered_markers("tekst 1) en (zie 2) hier) en 2). Slot 3)", {"1", "2"}) == \
        (f"tekst{NOTE_MARK} en (zie 2) hier) en{NOTE_MARK}. Slot 3)", ["1", "2"])
    assert notes.open_parens("a (b (c) d") == 1 and notes.open_parens(") (") == 1


# -- refs: finding every wording of a paragraph in its source lines at once ----------------------
def finditer_starts(text, wording):
    """What locate did before: one search of the whole text per wording."""
    pattern = r"(?<!\w)" + r"\s+".join(map(re.escape, wording.split())) + r"(?!\w)"
    return [m.start() for m in re.finditer(pattern, text)]


def test_find_wordings_gives_the_matches_a_search_per_wording_gives():
    text = ("zie artikel 12 en artikel\n12(a), (zie B) B) en (B, xB B_ artikel 12B; artikel  12. "
            "B B B en 50D2(a)")
    wordings = ["artikel 12", "artikel 12(a)", "B", "(B", "B B", "artikel 12B", "12", "50D2(a)", "50D2", "C"]
    found = refs.find_many_wordings(text, set(wordings))
    assert found == {w: finditer_starts(text, w) for w in wordings} == refs.find_wordings(text, set(wordings))
    assert found["artikel 12"] == [4, 18, 70]  # across a line break and a double space, not in "12B"
    assert found["B B"] == [83]  # matches do not overlap: "B B B" holds one
    assert found["C"] == []


def test_locate_names_the_line_of_each_occurrence():
    lines = {("a.txt", 3): "zie B en", ("a.txt", 4): "zie B.", ("b.txt", 9): "geen"}
    p = etree.Element("p", sources="a.txt:3-4 b.txt:9")
    found = [(name, nums, starts, refs.find_many_wordings(text, {"B"}))
             for name, nums, text, starts in refs.source_texts(p, lines)]
    assert refs.locate(found, "B", 0) == ["a.txt:3", "b.txt:9"]
    assert refs.locate(found, "B", 1) == ["a.txt:4", "b.txt:9"]
    assert refs.locate(found, "B", 5) == ["a.txt:4", "b.txt:9"]  # past the last: the last one


def test_many_references_in_one_paragraph_are_all_marked():
    text = " ".join(f"Zie artikel {k}B en C t/m E." for k in range(1, 301))
    citations = refs.find_citations(text)
    assert [text[c.start:c.end] for c in citations] == [
        words for k in range(1, 301) for words in (f"artikel {k}B", "C t/m E")]


# -- diff: the redline's runs ---------------------------------------------------------------------
def test_segments_join_each_run_into_one_text():
    old = w.mark_sentences(w.tokenise("De leider speelt een kaart van de blinde."))
    new = w.mark_sentences(w.tokenise("De leider legt een kaart van zijn eigen hand."))
    assert segments(old, new, w.diff_tokens(old, new), None) == [[
        {"op": "equal", "text": "De leider "}, {"op": "delete", "text": "speelt"}, {"op": "equal", "text": " "},
        {"op": "insert", "text": "legt"}, {"op": "equal", "text": " een kaart van "},
        {"op": "delete", "text": "de blinde"}, {"op": "insert", "text": "zijn eigen hand"},
        {"op": "equal", "text": "."}]]
    many = w.tokenise(" ".join(f"w{k}" for k in range(500)))
    assert segments([], many, w.diff_tokens([], many), None) == [
        [{"op": "insert", "text": " ".join(f"w{k}" for k in range(500))}]]


# -- serialise: a paragraph's text with notes and refs as offsets ---------------------------------
def test_inline_json_offsets_of_many_notes_and_refs():
    p = etree.Element("p", sources="f.txt:1")
    p.text = "Begin "
    for k in range(100):
        ref = etree.SubElement(p, "ref", to=f"2017/{k}", status="ok")
        ref.text = f"artikel {k}"
        ref.tail = " en"
        note = etree.SubElement(p, "note", id=f"2017/1/noot{k + 1}", form="inline", sources="f.txt:1")
        note.text = "noot"
        note.tail = " verder "
    data = serialise.inline_json(p)
    assert data["text"] == "Begin " + "".join(f"artikel {k} en verder " for k in range(100))
    for k, (ref, note) in enumerate(zip(data["refs"], data["notes"])):
        assert data["text"][ref["start"]:ref["end"]] == ref["words"] == f"artikel {k}"
        assert note["offset"] == ref["end"] + len(" en")
