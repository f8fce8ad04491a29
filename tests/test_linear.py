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
from pipeline.core import report
from pipeline.core.report import BuildLog
from pipeline.core import lang


def logged(function, text, line):
    """(result, [(kind, line, message, before, after)]) of function(text, line, log)."""
    log = BuildLog()
    result = function(text, line, log.for_file("f.txt"))
    return result, [(e.kind, e.line, e.message, e.before, e.after) for e in log.entries]


# -- repair.collapse_duplicates -----------------------------------------------------------------
def test_a_repeated_word_collapses_longest_first_as_before():
    text, log = logged(lambda t, n, lg: repair.collapse_duplicates(t, n, lg, lang.profile("nl")), " ".join(["woord"] * 15), 3)
    assert text == "woord"
    six, four, two = (" ".join(["woord"] * k) for k in (6, 4, 2))
    assert log == [("repair", 3, "duplicated words collapsed", six + " " + six, six),
                   ("repair", 3, "duplicated words collapsed", four + " " + four, four),
                   ("repair", 3, "duplicated words collapsed", two + " " + two, two),
                   ("repair", 3, "duplicated words collapsed", "woord woord", "woord"),
                   ("repair", 3, "duplicated words collapsed", "woord woord", "woord")]


def test_a_removal_that_makes_a_new_repeat_across_its_place_is_collapsed_too():
    # "spel spel" goes first (nothing longer repeats yet); then "het spel het spel" stands across the join.
    text, log = logged(lambda t, n, lg: repair.collapse_duplicates(t, n, lg, lang.profile("nl")), "het spel spel het spel begint", 4)
    assert text == "het spel begint"
    assert log == [("repair", 4, "duplicated words collapsed", "spel spel", "spel"),
                   ("repair", 4, "duplicated words collapsed", "het spel het spel", "het spel")]


def test_longer_phrases_go_first_and_legitimate_doubles_stay():
    text, log = logged(lambda t, n, lg: repair.collapse_duplicates(t, n, lg, lang.profile("nl")), "zie artikel artikel 63A1 en dat dat klopt, de regel de regel.", 5)
    assert text == "zie artikel 63A1 en dat dat klopt, de regel."
    assert log == [("repair", 5, "duplicated words collapsed", "de regel de regel.", "de regel."),
                   ("repair", 5, "duplicated words collapsed", "artikel artikel", "artikel")]


def test_collapsing_keeps_the_spacing_of_what_stays_and_the_note_marks():
    text, log = logged(lambda t, n, lg: repair.collapse_duplicates(t, n, lg, lang.profile("nl")), "  de kaart  kaart" + NOTE_MARK + " blijft", 1)
    assert text == "  de kaart" + NOTE_MARK + " blijft"
    assert log == [("repair", 1, "duplicated words collapsed", "kaart  kaart", "kaart")]


# -- notes --------------------------------------------------------------------------------------
def test_inline_notes_malformed_notes_and_an_unclosed_one_in_one_line():
    line = "A (Noot: een (b) noot) B verbieden Noot: (twee) C (Noot: open (x) D (Noot: drie)"
    (text, found), log = logged(lambda t, n, lg: notes.extract_inline_notes(t, n, lg, lang.profile("nl")), line, 7)
    assert text == f"A{NOTE_MARK} B verbieden{NOTE_MARK} C (Noot: open (x) D{NOTE_MARK}"
    assert found == [Note("een (b) noot", [7], "inline"), Note("twee", [7], "malformed"),
                     Note("drie", [7], "inline")]
    assert log == [("repair", 7, "malformed-note", "Noot: (twee)", "(Noot: twee)"),
                   ("damage", 7, "note opened but never closed: (Noot: open (x) D (Noot: drie)…; "
                                 "left in the text as written", None, None)]


def test_many_notes_in_one_line_each_stand_at_their_marker():
    line = " ".join(f"Tekst {k} (Noot: noot {k}.)" for k in range(200))
    (text, found), log = logged(lambda t, n, lg: notes.extract_inline_notes(t, n, lg, lang.profile("nl")), line, 2)
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
    citations = refs.find_citations(text, lang.profile("nl"))
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


# -- repair.join_print_lines: each line once, each entry an excerpt -------------------------------
def test_a_long_printed_paragraph_joins_to_the_text_and_entries_a_line_at_a_time_gave():
    lines = [(2 * k + 1, f"de regel {k} gaat verder") for k in range(300)]
    text, log = logged(lambda t, n, lg: repair.join_print_lines(t, set(), lg, lang.profile("nl"), [150]), lines, 0)
    assert text == " ".join(t for _, t in lines)
    assert log == [("repair", 149, "paragraph continued across a page break (page furniture at line 150)",
                    "verder\\nde", "verder de")]


def test_hyphen_ended_lines_of_one_word_quote_the_word_s_end_only():
    pieces = ["ab-", "cd-", "ef-"] * 400  # one word of 2,400 letters over 1,200 lines
    lines = [(k + 1, t) for k, t in enumerate(pieces)] + [(1201, "gh.")]
    text, log = logged(lambda t, n, lg: repair.join_print_lines(t, set(), lg, lang.profile("nl")), lines, 0)
    assert text == "abcdef" * 400 + "gh."
    assert len(log) == 1200 and all(e[2] == "line-end hyphen joined" for e in log)
    assert log[0][3:] == ("ab-\\ncd-", "abcd-")  # (the next word as the line gives it, to a space)
    assert max(len(e[3]) + len(e[4]) for e in log) <= 2 * (report.QUOTE_MAX + 1)
    assert log[-1][4].endswith("efgh") and log[-1][3].endswith("ef-\\ngh")


def test_a_word_over_the_tail_is_still_looked_up_where_the_vocabulary_has_its_length():
    left = "ab" * 300  # 600 letters over six lines, each hyphen joined: a word over _TAIL
    vocabulary = {left + "-cd", "x" * 700}
    pieces = [(k + 1, left[k * 100:(k + 1) * 100] + "-") for k in range(6)] + [(7, "cd")]
    text, log = logged(lambda t, n, lg: repair.join_print_lines(t, vocabulary, lg, lang.profile("nl")), pieces, 0)
    assert text == left + "-cd"  # its hyphenated form is in the vocabulary, its joined one is not
    assert log[-1][2] == "kept: the hyphenated form is used elsewhere in the sources"


def test_trailing_each_gives_the_words_the_old_pattern_gave_and_starts_only_at_a_run():
    old = re.compile(r"[\W_]+(?=\s|$)")
    for text in ["a. b", "a . b", "x.. ..  y", "a.b. c", "_x_ y__ . .", "é, ü; 1.2.", "....x ....x", ""]:
        assert repair.TRAILING_EACH.sub("", text).split() == old.sub("", text).split()
    dots = "Zie " + "." * 80_000 + "x"
    assert repair.TRAILING_EACH.sub("", dots) == dots and repair.TRAILING.sub("", "." * 80_000 + "x") != ""


# -- report: an entry quotes an excerpt ------------------------------------------------------------
def test_a_long_before_and_after_are_cut_to_the_change_with_context():
    log = BuildLog()
    before, after = "a" * 500 + "artikel 16C" + "b" * 500, "a" * 500 + "Artikel 16C" + "b" * 500
    log.add("variant", "f.txt", 3, "capitalisation variant", None, before, after)
    entry = log.entries[0]
    assert entry.before == "\u2026" + "a" * 50 + "artikel 16C" + "b" * 40 + "\u2026"
    assert entry.after == "\u2026" + "a" * 50 + "Artikel 16C" + "b" * 40 + "\u2026"
    log.add("repair", "f.txt", 4, "x" * 1500, None, "c" * 300, None)
    assert log.entries[1].message == "x" * 1000 + "\u2026 (500 characters more)"
    assert log.entries[1].before == "c" * 200 + "\u2026"
    log.add("repair", "f.txt", 5, "short", None, "ab", "cd")
    assert (log.entries[2].before, log.entries[2].after) == ("ab", "cd")  # under the bound: whole


# -- flowed: a piece's line, a marker's footnote page ----------------------------------------------
def test_footnote_lookups_are_indexed_and_give_what_a_scan_of_every_footnote_gives():
    """notes.Footnotes looks a marker's number up on its page and the next in an index, and the last one
    before by bisection: the same footnotes a scan of all of them gives, on random layouts."""
    import random
    from pipeline.reading import notes
    rng = random.Random(3)
    for _ in range(300):
        printed = [notes.Footnote(str(rng.randint(1, 4)), p, [rng.randint(1, 30)], "t")
                   for p in rng.sample(range(12), rng.randint(0, 8)) for _ in range(rng.randint(0, 2))]
        book = notes.Footnotes(printed)
        ordered = sorted(printed, key=lambda f: (f.page, f.position))
        for number in "12345":
            for page in range(12):
                position = rng.randint(0, 30)
                scan = [f for f in ordered if f.number == number and f.page == page and f.position > position] or \
                    [f for f in ordered if f.number == number and f.page == page + 1]
                assert book._near(number, page, position) == scan
                before = [f for f in ordered if f.number == number and f.page < page]
                through = all(sum(f.number == n for f in ordered) == 1 for n in {f.number for f in ordered})
                assert book._earlier(number, page) == (before[-1] if before and through else None)


def test_a_block_s_pieces_take_the_line_each_starts_on():
    from pipeline.core.report import BuildLog
    from pipeline.reading.book.markers import Paragraph, Splitter
    from pipeline.reading.book.words import book_words
    joined = "een\ntwee\ndrie\nvier"
    starts = [(0, 10), (4, 11), (9, 13), (14, 14)]
    splitter = Splitter(book_words(lang.profile("nl")), BuildLog().for_file("f"))
    [block] = splitter._blocks(None, None, joined, 2, len(joined), starts, 2, Paragraph([]))
    assert block.pieces == [(10, "n"), (11, "twee"), (13, "drie"), (14, "vier")] and block.lines == [10, 11, 13, 14]


# -- corrections: each <corr> after the ones before -------------------------------------------------
def test_many_corrections_of_one_node_stand_in_their_order_after_its_label():
    from pipeline.corpus import corrections
    article = etree.Element("article", id="2017/1")
    etree.SubElement(article, "title").text = "Titel"
    etree.SubElement(article, "p").text = "Tekst"
    for k in range(50):
        corrections._mark(article, {"kind": "accept", "basis": str(k)})
    assert [c.tag for c in article][:2] == ["title", "corr"] and article[-1].tag == "p"
    assert [c.get("basis") for c in article.iterchildren("corr")] == [str(k) for k in range(50)]
