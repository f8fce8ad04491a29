"""Three forms of extraction damage the repair stage reads by general rules, each on made-up text:
U+00AD as the dash of a number range (also at the head of a line, where normalise.py once took it
for a soft hyphen), repeated words that are cells of a flattened table, and a ligature lost at a
word's end ("sta and" for "staff and"). The last test runs the rules over the English original
where it is present."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.core import lang
from pipeline.core.report import BuildLog
from pipeline.reading import normalise, repair

EN = lang.profile("en")
NL = lang.profile("nl")
DASH = EN.rules.DASH
BOOK = Path(__file__).resolve().parents[1].parent / "shared" / "english" / "laws2017-en.txt"
PROPERTY = settings(max_examples=60, deadline=None, derandomize=True, database=None)


def repaired(text, profile=EN, vocabulary=frozenset()):
    """(the repaired text, [(kind, message, before, after)]) of repair_text on `text`."""
    log = BuildLog()
    out = repair.repair_text(text, 3, log.for_file("made-up.txt"), profile, vocabulary)
    return out, [(e.kind, e.message, e.before, e.after) for e in log.entries]


# -- 1. U+00AD: the dash between digits or spaces, a soft hyphen inside a word ---------------------------
def test_a_range_at_the_head_of_a_line_keeps_its_dash_for_the_repair_stage():
    log = BuildLog()
    flog = log.for_file("made-up.txt")
    assert normalise.head("0\u00ad15 3", 1, flog, dashes=True) == "0\u00ad15 3"
    assert normalise.head("2500\u00ad 2750 9", 2, flog, dashes=True) == "2500\u00ad 2750 9"
    assert normalise.head("\u00ad 40", 3, flog, dashes=True) == "\u00ad 40"
    assert log.entries == []
    # Inside a word it is a soft hyphen there too, and without a dash (Dutch) it is one everywhere.
    assert normalise.head("Cha\u00adpter 4 text", 4, flog, dashes=True) == "Chapter 4 text"
    assert normalise.head("0\u00ad15 3", 5, flog) == "015 3"
    assert [(e.line, e.before, e.after) for e in log.entries] == [(4, "Cha\u00adpter 4", "Chapter 4"),
                                                                  (5, "0\u00ad15", "015")]


def test_the_dash_is_read_in_a_range_beside_a_space_and_between_spaces_and_dropped_in_a_word():
    text, log = repaired("Score 0\u00ad15 2 and 2500\u00ad 2750 9; SECTION 4 \u00ad END of the re\u00adpair")
    assert text == f"Score 0{DASH}15 2 and 2500{DASH} 2750 9; SECTION 4 {DASH} END of the repair"
    assert log == [("repair", "U+00AD read as a dash", "0\u00ad15", f"0{DASH}15"),
                   ("repair", "U+00AD read as a dash", "2500\u00ad 2750", f"2500{DASH} 2750"),
                   ("repair", "U+00AD read as a dash", "4 \u00ad END", f"4 {DASH} END"),
                   ("repair", "soft-hyphen mark dropped", "re\u00adpair", "repair")]


def test_without_a_dash_in_the_profile_every_u00ad_is_a_soft_hyphen():
    assert repaired("0\u00ad15 re\u00adpair", NL) == ("015 repair", [
        ("repair", "soft-hyphen mark dropped", "0\u00ad15", "015"),
        ("repair", "soft-hyphen mark dropped", "re\u00adpair", "repair")])


@PROPERTY
@given(low=st.integers(0, 9999), high=st.integers(0, 99999), space=st.sampled_from(["", " "]),
       at_head=st.booleans())
def test_any_range_reads_as_low_dash_high_wherever_it_stands(low, high, space, at_head):
    line = f"{low}\u00ad{space}{high} 7" if at_head else f"Points {low}\u00ad{space}{high} 7"
    log = BuildLog()
    flog = log.for_file("made-up.txt")
    text = repair.repair_text(normalise.head(line, 1, flog, dashes=True), 1, flog, EN)
    assert text == line.replace("\u00ad", DASH)
    assert [e.message for e in log.entries] == ["U+00AD read as a dash"]


def test_a_made_up_table_page_keeps_its_ranges(tmp_path):
    from pipeline.reading import decode, formats, manifest
    folder = tmp_path / "src"
    folder.mkdir()
    long = "Words of a made-up law that run on long enough to make this a flowed paragraph line " * 2
    (folder / "page.txt").write_text(f"7\nLAW 90\nMADE-UP SCALE\nA. {long}\nMargin Points\n0\u00ad15\n0\n"
                                     f"20\u00ad45 1\n", encoding="utf-8")
    (folder / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "page.txt"\nedition = "2017"\n'
                                         'format = "flowed"\n', encoding="utf-8")
    log = BuildLog()
    source = manifest.load_manifest(folder)[0]
    lines, _ = decode.read_source(source, log, decode.read_bytes(source))
    reading = formats.read(lines, source, log)
    repair.repair_reading(reading, set(), log, EN)
    text = " ".join(b.text for b in reading.blocks)
    assert f"Margin Points 0{DASH}15 0 20{DASH}45 1" in text
    assert [(e.line, e.before, e.after) for e in log.entries if "U+00AD" in e.message] == [
        (4, "0\u00ad15", f"0{DASH}15"), (4, "20\u00ad45", f"20{DASH}45")]


# -- 2. a flattened table's cells are never collapsed -------------------------------------------------
def test_header_cells_that_end_alike_are_kept_and_reported():
    row = "Bonus for a made-up feat Not Doubled Doubled Small Feat 300 450"
    assert repaired(row) == (row, [
        ("damage", "'Doubled Doubled' looks like the header cells 'Not Doubled' and 'Doubled' of a flattened "
                   "table, not a repeat; kept as text, not collapsed", None, None)])


def test_cells_between_numbers_are_kept_and_reported():
    row = "Penalty Scale Tier 50 Major Major 100 Tier 70"
    assert repaired(row) == (row, [
        ("damage", "'Major Major' looks like cells of a flattened table between the numbers '50' and '100', not "
                   "a repeat; kept as text, not collapsed", None, None)])


def test_header_cells_without_figures_after_them_are_uncertain_and_kept():
    heading = "Appeal of Both Halves Halves"
    assert repaired(heading) == (heading, [
        ("damage", "'Halves Halves' is uncertain: the header cells 'Both Halves' and 'Halves' of a flattened "
                   "table, or a doubled word (no figure follows within 12 words); kept as text, not collapsed",
         None, None)])


def test_a_doubling_of_the_extraction_still_collapses():
    assert repaired("the the Director") == ("the Director", [
        ("repair", "duplicated words collapsed", "the the", "the")])
    assert repaired("see Rule Rule 12") == ("see Rule 12", [
        ("repair", "duplicated words collapsed", "Rule Rule", "Rule")])
    assert repaired("Return of Cards Cards") == ("Return of Cards", [
        ("repair", "duplicated words collapsed", "Cards Cards", "Cards")])


@PROPERTY
@given(cells=st.lists(st.sampled_from(["Single", "Double", "Triple", "Long", "Short", "Scale", "Game"]),
                      min_size=2, max_size=3, unique=True),
       figures=st.lists(st.integers(0, 5000).map(str), min_size=1, max_size=6, unique=True))
def test_a_header_row_of_made_up_cells_is_read_as_written(cells, figures):
    """Header cells "Not X" then "X" (or "A B" then "B") before the table's figures: never collapsed."""
    row = " ".join(["Scores"] + cells + [cells[-1]] + figures)
    text, log = repaired(row)
    assert text == row
    assert [kind for kind, *_ in log] == ["damage"]


# -- 3. a ligature lost at a word's end -----------------------------------------------------------------
def test_a_piece_that_is_no_word_gets_its_ligature_back_at_its_end():
    assert repaired("the club hired more sta and paid them") == ("the club hired more staff and paid them", [
        ("repair", "lost ligature restored", "sta and", "staff and")])
    assert repaired("take o the cover") == ("take off the cover", [
        ("repair", "lost ligature restored", "o the", "off the")])
    assert repaired("a bold blu.") == ("a bold bluff.", [("repair", "lost ligature restored", "blu.", "bluff.")])
    assert repaired("call it a blu") == ("call it a bluff", [("repair", "lost ligature restored", "blu", "bluff")])


def test_a_piece_that_is_a_word_or_a_label_is_read_as_written():
    for text in ["do not go to the logo or see B. and B above", "(o) the made-up item", "of the board"]:
        assert repaired(text) == (text, [])


def test_the_joined_reading_goes_first():
    assert repaired("the o ender di ers3 from") == ("the offender differs3 from", [
        ("repair", "lost ligature restored", "o ender", "offender"),
        ("repair", "lost ligature restored", "di ers", "differs")])


def test_two_readings_are_uncertain_and_kept():
    # Before a capital the gap may be a name's particle.
    assert repaired("signed by Di Rossi") == ("signed by Di Rossi", [
        ("damage", "'Di Rossi' may have lost a ligature; uncertain: it reads as 'Di Rossi' or as 'Diff Rossi'; "
                   "kept as text, not repaired", None, None)])
    # Two ligatures that each make a word of the book.
    assert repaired("the sna was", vocabulary=frozenset({"snaff", "snaffl"})) == ("the sna was", [
        ("damage", "'sna was' may have lost a ligature; uncertain: it reads as 'snaff was' or as 'snaffl was'; "
                   "kept as text, not repaired", None, None)])
    assert repaired("a gru ness", vocabulary=frozenset({"gruffness", "gruffiness"})) == ("a gru ness", [
        ("damage", "'gru ness' may have lost a ligature; uncertain: it reads as 'gruffiness' or as 'gruffness'; "
                   "kept as text, not repaired", None, None)])


def test_the_dutch_profile_restores_no_ligatures():
    assert repaired("meer sta en", NL) == ("meer sta en", [])


# -- the English original, where present ----------------------------------------------------------------
@pytest.mark.skipif(not BOOK.is_file(), reason=f"the English original is not at {BOOK} (it is not part of the "
                                                f"project: put the shared folder beside it to run this test)")
@pytest.mark.book
def test_the_english_original_keeps_its_ranges_and_restores_staff():
    log = BuildLog()
    flog = log.for_file(BOOK.name)
    out = []
    for num, line in enumerate(BOOK.read_text(encoding="cp1252").split("\n"), 1):
        out.append(repair.repair_text(normalise.head(line.replace("\f", " "), num, flog, dashes=True), num, flog, EN))
    text = "\n".join(out)
    assert "\u00ad" not in text
    assert f"0{DASH}10" in text and f"1500{DASH}1740" in text and "\n010\n" not in f"\n{text}\n"
    assert "other staff and prescribe" in text
    # Restored at a word's end: the word after the piece is still there ("sta and" -> "staff and").
    ends = [(e.before, e.after) for e in log.entries if e.message == "lost ligature restored" and
            e.after.count(" ") == e.before.count(" ")]
    assert ends == [("sta and", "staff and"), ("sta 80B2(g)(ii)", "staff 80B2(g)(ii)")]
    assert [e.message.split(";")[0] for e in log.entries if "ligature; uncertain" in e.message] == [
        "'Je Polisner,' may have lost a ligature", "'Di Sacco' may have lost a ligature"]
