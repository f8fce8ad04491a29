"""The English original as a book of its own: the pages of the Laws of Duplicate Bridge 2017 in
../shared/english/ (a PDF text extraction; copyrighted, never copied into the project), read with
the English profile and the flowed print reader.

The pages are copied into a temporary sources folder with a manifest `language = "en"`; the tests
skip with a message when the folder is absent.
"""
import re
import shutil
from pathlib import Path

import pytest

from pipeline.core import lang, tree
from pipeline.core.report import BuildLog
from pipeline.corpus import stages
from pipeline.reading import repair
from pipeline.reading import formats

ENGLISH = Path(__file__).resolve().parents[1].parent / "shared" / "english"
PAGES = ["laws2017-en_contents.txt", "laws2017-en_definitions.txt", "laws2017-en_p22-25.txt",
         "laws2017-en_p32-34.txt", "laws2017-en_p48-49.txt", "laws2017-en_p55-56.txt", "laws2017-en_p58-60.txt",
         "laws2017-en_p62-63.txt", "laws2017-en_p65-66.txt", "laws2017-en_index.txt"]
EN = lang.profile("en")

needs_pages = pytest.mark.skipif(not all((ENGLISH / p).is_file() for p in PAGES),
                                 reason=f"the English original's pages are not in {ENGLISH} (they are not part of "
                                        f"the project: put the shared folder beside it to run these tests)")


def english_book(folder):
    """A sources folder of the English pages, in the book's order, with its manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = ['language = "en"', 'publisher = "World Bridge Federation"', ""]
    for name in PAGES:
        shutil.copyfile(ENGLISH / name, folder / name)
        entries += ["[[source]]", f'file = "{name}"', 'edition = "2017"', ""]
    (folder / "sources.toml").write_text("\n".join(entries), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    if not all((ENGLISH / p).is_file() for p in PAGES):
        pytest.skip(f"the English original's pages are not in {ENGLISH}")
    return stages.make_corpus(english_book(tmp_path_factory.mktemp("en") / "sources"))


def node(book, node_id):
    found = book.corpus.xpath(f'//*[@id="{node_id}"]')
    assert found, f"{node_id} is not in the corpus"
    return found[0]


def text_of(el):
    """The node's own paragraphs, as readers read them (notes left out)."""
    return " ".join(tree.plain_text(p) for p in el.findall("p"))


def targets(book, node_id):
    return [r.get("to") for p in node(book, node_id).findall("p") for r in p.iter("ref")]


def children(book, node_id):
    return [c.get("id") for c in tree.child_nodes(node(book, node_id))]


@needs_pages
def test_law_53_has_its_sections_with_the_contents_lists_headings(book):
    assert children(book, "2017/53") == ["2017/53A", "2017/53B", "2017/53C"]
    assert [node(book, f"2017/53{s}").findtext("heading") for s in "ABC"] == [
        "Lead Out of Turn Treated as Correct Lead", "Proper Lead Made Subsequent to Irregular Lead",
        "Wrong Defender Plays Card to Declarer's Irregular Lead"]
    assert node(book, "2017/53").findtext("title") == "LEAD OUT OF TURN ACCEPTED"
    split = [e.message for e in book.log.entries if e.kind == "inference" and e.node == "2017/53A"]
    assert split == ["the heading 'Lead Out of Turn Treated as Correct Lead' of 53A split from its text at 'Prior "
                     "to the thirteenth trick,'… by the contents list's heading for 53A "
                     "(laws2017-en_contents.txt:760)"]


@needs_pages
def test_footnote_17_is_a_note_after_thirteenth_trick_and_nowhere_in_the_law_text(book):
    p = node(book, "2017/53A").find("p")
    note = p.find("note")
    assert note.get("id") == "2017/53A/noot1"
    assert "".join(note.itertext()) == "A lead out of turn at trick thirteen must be retracted."
    assert (p.text or "").endswith("Prior to the thirteenth trick") and note.tail.startswith(", any lead faced")
    law = "".join(t for el in book.corpus.iter("p") for t in [el.text or ""] + [c.tail or "" for c in el])
    assert "trick thirteen must be retracted" not in law


@needs_pages
def test_53a_cites_47e1_53b_and_47b(book):
    assert targets(book, "2017/53A") == ["2017/47E1", "2017/53B", "2017/47B"]


@needs_pages
def test_law_47_has_e1_and_e2_with_its_items(book):
    assert children(book, "2017/47E") == ["2017/47E1", "2017/47E2"]
    assert children(book, "2017/47E2") == ["2017/47E2a", "2017/47E2b"]
    assert text_of(node(book, "2017/47E2b")) == \
        "When it is too late to correct a play under (a) the Director may award an adjusted score."


@needs_pages
def test_41a_cites_47e_and_54_and_24e_cites_50_and_51(book):
    assert targets(book, "2017/41A") == ["2017/47E", "2017/54"]
    assert targets(book, "2017/24E") == ["2017/50", "2017/51"]
    assert text_of(node(book, "2017/24E")).endswith("every such card becomes a penalty card (see Laws 50 and 51).")


@needs_pages
def test_16c_has_c1_to_c3_across_the_page_break(book):
    assert children(book, "2017/16C") == ["2017/16C1", "2017/16C2", "2017/16C3"]
    assert text_of(node(book, "2017/16C")) == "When a call or play has been withdrawn as these laws provide:"
    assert text_of(node(book, "2017/16C1")).startswith("For a non-offending side, all information arising")


@needs_pages
def test_lost_ligatures_are_restored_throughout_and_logged(book):
    law = " ".join(" ".join(el.itertext()) for el in book.corpus.iter("p", "heading", "title"))
    assert not re.search(r"\b[Oo] (?:ender|ending)|\b[Ii]nsu cient|\b[Ss]hu e|\bdi erent", law)
    assert "offender" in law and "non-offending" in law
    assert node(book, "2017/51A").findtext("heading") == "Offender to Play"
    restored = [(e.before, e.after) for e in book.log.entries if e.message == "lost ligature restored"]
    assert ("O ender", "Offender") in restored and ("o ending", "offending") in restored
    assert len(restored) >= 30


@needs_pages
def test_a_footnote_cited_twice_is_at_both_markers(book):
    a = node(book, "2017/50D2a").find(".//note")
    b = node(book, "2017/51B1a").find(".//note")
    assert "".join(a.itertext()) == "".join(b.itertext()) == "If the player is unable to lead as required see Law 59."


@needs_pages
def test_the_page_top_inside_an_article_is_placed_by_the_contents_list(book):
    assert children(book, "2017/23A") == ["2017/23A2", "2017/23A3"]
    assert text_of(node(book, "2017/23A2")).startswith("defines a subset of the possible meanings")
    placed = [e.message for e in book.log.entries if e.kind == "inference" and e.node == "2017/23A"]
    assert placed == ["page 32 starts inside Law 23: its first lines are read as the text of 23A, the last entry "
                      "of the contents list to start on an earlier page (page 31, laws2017-en_contents.txt:286)"]


@needs_pages
def test_sections_without_a_heading_in_the_contents_list_have_none(book):
    assert children(book, "2017/56") == ["2017/56A", "2017/56B"]
    assert node(book, "2017/56A").find("heading") is None
    assert text_of(node(book, "2017/56A")) == "Accept the irregular lead as provided in Law 53, or"


@needs_pages
def test_every_non_blank_line_of_every_page_is_accounted_for(book):
    assert [e for e in book.log.entries if e.kind == "error"] == []
    for fragment in book.fragments:
        missing = [line.num for line in book.lines[fragment.file] if not line.blank and line.num not in fragment.ledger]
        assert missing == [], fragment.file


@needs_pages
def test_the_contents_index_and_definitions_are_kept_out_of_the_articles(book):
    articles = {a.get("num") for a in book.corpus.iter("article")}
    assert articles == {"16", "17", "23", "24", "25", "26", "41", "42", "43", "46", "47", "50", "51", "52", "53",
                        "54", "55", "56", "57", "58"}
    contents = [f for f in book.fragments if f.file == "laws2017-en_contents.txt"][0]
    assert str(contents.ledger[760]) .startswith("Accounted(reason='the contents list: evidence for the heading")


@needs_pages
def test_the_soft_hyphen_of_the_extraction_is_a_dash_in_the_contents_list(book):
    reading = [r for r in book.readings if r.file == "laws2017-en_contents.txt"][0]
    titles = {b.cite: b.text for b in reading.blocks if b.kind == "contents"}
    assert titles["22"] == "END OF AUCTION" and titles["26"] == "CALL WITHDRAWN, LEAD RESTRICTIONS"
    assert titles["23C"] == "Non-Offending Side Damaged"


# -- the reader and the repairs, on text made up here -------------------------------------------------
# Running text long enough that a made-up page reads as the flowed layout (a paragraph per line).
FILLER = "Words of a made-up law that run on long enough to make this a flowed paragraph line " * 2


def one_page_book(folder, text, fmt=None):
    """A sources folder of one made-up English page, page.txt, in edition 2017 (`fmt`: forced format)."""
    folder.mkdir()
    (folder / "page.txt").write_text(text, encoding="utf-8")
    forced = f'format = "{fmt}"\n' if fmt else ""
    (folder / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "page.txt"\nedition = "2017"\n'
                                         + forced, encoding="utf-8")
    return folder


def flowed_reading(tmp_path, text):
    from pipeline.reading import decode, formats, manifest
    folder = one_page_book(tmp_path / "src", text, "flowed")
    log = BuildLog()
    source = manifest.load_manifest(folder)[0]
    lines, _ = decode.read_source(source, log, decode.read_bytes(source))
    return formats.read(lines, source, log), log


def test_a_citation_wrapped_before_its_number_is_not_a_subsection(tmp_path):
    long = "This is a made-up section with enough words to be a long flowed line of text " * 2
    reading, _ = flowed_reading(tmp_path, f"7\nLAW 35\nMADE-UP TITLE\nA. {long}but it is not permitted by Law\n"
                                          f"19. Law 36 applies.\nB. {long}\n")
    lists = [b for b in reading.blocks if b.kind == "list"]
    assert lists == []
    sections = [b for b in reading.blocks if b.kind == "heading-text"]
    assert [s.cite for s in sections] == ["A", "B"]
    assert sections[0].text.endswith("not permitted by Law\n19. Law 36 applies.")


def test_inline_subsections_and_items_are_read_only_in_order(tmp_path):
    long = FILLER
    reading, _ = flowed_reading(tmp_path, f"7\nLAW 9\nMADE-UP\nA. Heading {long}1.A player may (a)it runs "
                                          f"(b) see (a) above and 3. not a number 2. Second 3.(a) Third (b) more\n"
                                          f"B. {long}\n")
    shape = [(b.kind, b.number, b.level) for b in reading.blocks if b.kind == "list"]
    assert shape == [("list", 1, 0), ("list", 1, 1), ("list", 2, 1), ("list", 2, 0), ("list", 3, 0), ("list", 1, 1),
                     ("list", 2, 1)]
    items = [b.text for b in reading.blocks if b.kind == "list"]
    assert items[2] == "see (a) above and 3. not a number"


def test_an_item_i_after_h_is_uncertain_and_names_both_readings(tmp_path):
    long = FILLER
    items = " ".join(f"({c}) item {c}" for c in "abcdefgh")
    _, log = flowed_reading(tmp_path, f"7\nLAW 9\nMADE-UP\nA. {long}1. List {items} (i) which one\n")
    assert [e.message for e in log.entries if "uncertain" in e.message] == [
        "'(i)' after item (h) is uncertain: read as item (i), the next letter; it could be the first sub-item (i) "
        "of (h)"]


def test_the_english_repeat_repair_keeps_a_heading_before_its_text_and_a_table_row():
    log = BuildLog().for_file("x")
    assert repair.collapse_duplicates("To Supersede a Bid A bid supersedes", 1, log, EN) == \
        "To Supersede a Bid A bid supersedes"
    assert repair.collapse_duplicates("Boards Boards Boards Boards", 2, log, EN) == "Boards Boards Boards Boards"
    assert repair.collapse_duplicates("the the offender", 3, log, EN) == "the offender"
    assert [e.message for e in log.log.entries if e.kind == "damage"] == [
        "'Boards Boards Boards Boards' looks like a row of a flattened table; kept as text, not repaired"]


def test_the_dash_and_the_ligatures_are_english_repairs_only():
    log = BuildLog().for_file("x")
    assert repair.repair_text("LAW 22 \u00ad END 0\u00ad10 co\u00adoperate", 1, log, EN) == "LAW 22 \u2013 END 0\u201310 cooperate"
    assert repair.repair_text("the o ender and the Shu e", 1, log, EN) == "the offender and the Shuffle"
    assert repair.repair_text("the o ender", 1, log, lang.profile("nl")) == "the o ender"
    assert formats.FORMATS["flowed"].read is formats.FORMATS["print"].read


@needs_pages
def test_check_strict_fails_on_a_reading_the_report_calls_uncertain(tmp_path):
    from conftest import run_lawbook
    sources = english_book(tmp_path / "sources")
    result = run_lawbook("check", "--sources", sources, "--strict")
    assert result.returncode == 1
    uncertain = [line for line in result.stderr.splitlines() if line.startswith("lawbook: uncertain: ")]
    assert "lawbook: uncertain: laws2017-en_p62-63.txt:19: article 54 may be cut off at the end of page 63 " \
           "(uncertain)" in "\n".join(uncertain)


@needs_pages
def test_a_list_led_in_by_a_colon_is_read_in_lower_case(book):
    assert children(book, "2017/57A") == ["2017/57A1", "2017/57A2", "2017/57A3", "2017/57A4"]
    assert text_of(node(book, "2017/57A4")) == "forbid offender's partner to play a card of another suit " \
                                               "specified by declarer."


def test_roman_sub_items_get_the_fifth_level(tmp_path):
    folder = one_page_book(tmp_path / "book", f"7\nLAW 30\nMADE-UP\nA. Heading {FILLER}1. First (a) an item (b) "
                                              f"with sub-items: (i) one (ii.) two (c) third\n")
    ctx = stages.make_corpus(folder)
    b = ctx.corpus.xpath('//*[@id="2017/30A1b"]')[0]
    assert [c.get("id") for c in tree.child_nodes(b)] == ["2017/30A1b.i", "2017/30A1b.ii"]
    assert tree.plain_text(ctx.corpus.xpath('//*[@id="2017/30A1b.ii"]')[0].find("p")) == "two"
    assert [c.get("id") for c in tree.child_nodes(ctx.corpus.xpath('//*[@id="2017/30A1"]')[0])] == [
        "2017/30A1a", "2017/30A1b", "2017/30A1c"]


@needs_pages
def test_the_definitions_are_law_text_with_ids_of_their_own(book):
    definitions = book.corpus.xpath('//edition[@id="2017"]/definitions/definition')
    assert [d.get("id") for d in definitions][:4] == ["2017/def/adjusted-score", "2017/def/alert",
                                                     "2017/def/artificial-call", "2017/def/auction"]
    assert len(definitions) == 9
    first = definitions[0]
    assert first.get("term") == "Adjusted Score" and first.get("sources") == "laws2017-en_definitions.txt:3"
    assert tree.plain_text(first.find("p")) == ('A score awarded by the Director (see Law 12). It is either '
                                                '"artificial" or "assigned".')
    assert [r.get("to") for r in first.iter("ref")] == ["2017/12"]
    # "the effect": a lost ligature in a definition is restored as anywhere else.
    assert "to the effect that" in tree.plain_text(definitions[1].find("p"))


@needs_pages
def test_the_contents_list_gives_every_heading_with_its_page(book):
    reading = [r for r in book.readings if r.file == "laws2017-en_contents.txt"][0]
    entries = {b.cite: (b.text, b.number) for b in reading.blocks if b.kind == "contents" and b.cite}
    assert entries["53A"] == ("Lead Out of Turn Treated as Correct Lead", 62)
    assert entries["12"] == ("DIRECTOR'S DISCRETIONARY POWERS", 15)
    # wrapped over two lines, with the next heading after its end: "Lead by Declarer C. Play by …"
    assert entries["60B"] == ("Defender Plays before Required Lead by Declarer", 68)
    assert entries["60C"] == ("Play by Offending Side before Assessment of Rectification", 68)
    assert entries["93"] == ("PROCEDURES OF APPEAL", 102) and entries["92D"] == ("Concurrence of Appellants", 102)
    # the index's entry after the last Law's is its own, with its page, not the end of 93C's heading
    assert entries["93C"] == ("Further Possibilities of Appeal", 103)
    assert [(b.text, b.number) for b in reading.blocks if b.kind == "contents" and not b.cite] == [
        ("Definitions", 1), ("Index to Duplicate Laws", 104)]
    assert sorted({c for c in entries if c.isdigit()}, key=int) == [str(n) for n in range(1, 94)]
    assert [e for e in book.log.entries if e.kind == "damage" and e.file == reading.file] == []


def test_the_manifest_names_the_books_publisher(tmp_path):
    from pipeline.core.errors import LawbookError
    from pipeline.reading import manifest
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    (tmp_path / "sources.toml").write_text('publisher = "World Bridge Federation"\n[[source]]\nfile = "a.txt"\n'
                                           'edition = "2017"\n', encoding="utf-8")
    assert [s.publisher for s in manifest.load_manifest(tmp_path)] == ["World Bridge Federation"]
    (tmp_path / "sources.toml").write_text('publisher = 3\n[[source]]\nfile = "a.txt"\nedition = "2017"\n',
                                           encoding="utf-8")
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(tmp_path)
    assert (caught.value.message, caught.value.line) == ("the manifest's publisher must be a string", 1)


def test_front_matter_before_the_first_law_is_kept_apart(tmp_path):
    long = FILLER
    reading, log = flowed_reading(tmp_path, f"v\nForeword\nA made-up foreword of the book, {long}\n\f1\nLAW 1\n"
                                            f"MADE-UP\nA. Heading {long}\n")
    assert [(b.kind, b.text[:8]) for b in reading.blocks[:2]] == [("front", "Foreword"), ("front", "A made-u")]
    assert [b.kind for b in reading.blocks[2:4]] == ["article", "title"]
    assert [g.message for g in reading.gaps if "starts inside" in g.message] == []
    ctx = stages.make_corpus(tmp_path / "src")
    assert [e.message for e in ctx.log.entries if e.kind == "error"] == []
    assert [e.message for e in ctx.log.entries if e.kind == "dropped" and e.line == 2] == [
        "the book's front matter (lines 2-3): kept apart, not law text"]


def test_a_sections_first_subsection_may_start_in_lower_case(tmp_path):
    long = FILLER
    reading, _ = flowed_reading(tmp_path, f"7\nLAW 19\nMADE-UP\nA. {long}\nB. Redoubles 1. any double may be "
                                          f"redoubled, and 2. the offender may not, but not 3. three\n")
    lists = [(b.number, b.text) for b in reading.blocks if b.kind == "list"]
    assert lists == [(1, "any double may be redoubled, and"), (2, "the offender may not, but not 3. three")]


def test_tables_and_lost_symbols_are_reported_and_kept(tmp_path):
    long = FILLER
    reading, log = flowed_reading(tmp_path, f"7\nLAW 78\nMADE-UP\nA. {long} lead the spades () first\n"
                                            f"0\u201310 0 20\u201340 1 50\u201380 2\n")
    damage = [(e.line, e.message) for e in log.entries if e.kind == "damage"]
    assert damage == [(4, "empty brackets in 'ne  lead the spades ()': a symbol the extraction lost (a suit symbol?); "
                          "kept as text; the symbol is not guessed"),
                      (5, "'0\u201310 0 20\u201340 1 50\u201380 2' looks like a row of a flattened table; kept as "
                          "text, not repaired")]
    assert "0\u201310 0 20\u201340 1 50\u201380 2" in "\n".join(b.text for b in reading.blocks)


def test_without_a_contents_entry_the_heading_is_split_by_its_capitals_and_says_so(tmp_path):
    long = "and the words of a made-up law run on long enough to make this a flowed paragraph line " * 2
    folder = one_page_book(tmp_path / "book", f"7\nLAW 9\nMADE-UP\nA. Lead Out of Turn If a player leads {long}\n"
                                              f"B. Review of Auction Partner may ask {long}\n")
    ctx = stages.make_corpus(folder)
    headings = [ctx.corpus.xpath(f'//*[@id="2017/9{s}"]')[0].findtext("heading") for s in "AB"]
    assert headings == ["Lead Out of Turn", "Review of Auction"]
    said = [e.message for e in ctx.log.entries if e.kind == "inference" and "heading" in e.message]
    assert said == [
        "the heading 'Lead Out of Turn' of 9A split from its text at 'If a player leads and the word'… by the "
        "capitals of its words, up to 'If', which starts a sentence (no contents entry)",
        "the heading of 9B is uncertain (no contents entry): read as 'Review of Auction', with the text starting at "
        "'Partner'; it could also be 'Review of Auction Partner'"]


def test_a_marker_on_one_page_with_its_footnote_at_the_bottom_of_the_next(tmp_path):
    long = FILLER
    reading, log = flowed_reading(tmp_path, f"7\nLAW 9\nMADE-UP\nA. Heading {long}the last trick4 of the page\n"
                                            f"\f8\nB. Other {long}\n4 A made-up footnote.\n")
    notes = [n for b in reading.blocks for n in b.notes]
    assert [(n.number, n.text, n.lines) for n in notes] == [("4", "A made-up footnote.", [4, 7])]
    assert [e for e in log.entries if e.kind in ("error", "damage")] == []


@needs_pages
def test_show_prints_a_definition_by_its_id(tmp_path):
    from conftest import run_lawbook
    sources = english_book(tmp_path / "sources")
    result = run_lawbook("show", "2017/def/alert", "--sources", sources)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "2017/def/alert  Alert"
    assert result.stdout.splitlines()[2] == "sources: laws2017-en_definitions.txt:4"
    missing = run_lawbook("show", "2017/def/nothing", "--sources", sources)
    assert missing.returncode == 1
    assert missing.stderr.splitlines()[0] == "lawbook: error: 2017/def/nothing is not in the corpus"


def test_a_damaged_law_heading_is_one_error_and_its_text_is_set_aside(tmp_path):
    folder = one_page_book(tmp_path / "book", f"7\nLAW 9\nMADE-UP\nA. Heading {FILLER}\nLAW 10A\nOTHER\n"
                                              f"A. Heading {FILLER}\n")
    ctx = stages.make_corpus(folder)
    assert [(e.line, e.message) for e in ctx.log.entries if e.kind == "error"] == [
        (5, "'LAW 10A' looks like an article heading but does not read as one: a heading is 'LAW' and the article number "
            "alone on its line, as in 'LAW 24'; the text up to the next heading is not read until the line is "
            "corrected")]
    assert [a.get("id") for a in ctx.corpus.iter("article")] == ["2017/9"]
    assert children_of(ctx, "2017/9") == ["2017/9A"]


def children_of(ctx, node_id):
    return [c.get("id") for c in tree.child_nodes(ctx.corpus.xpath(f'//*[@id="{node_id}"]')[0])]


def test_a_heading_alone_before_its_subsections_and_a_note_in_a_heading(tmp_path):
    folder = one_page_book(tmp_path / "book", f"7\nLAW 9\nMADE-UP\nA. Penalty Cards2 1. When a card {FILLER}\n"
                                              f"B. Dummy's Rights 1.A player may {FILLER}\n2 A made-up note.\n")
    ctx = stages.make_corpus(folder)
    assert [tree.label_text(ctx.corpus.xpath(f'//*[@id="2017/9{s}"]')[0]) for s in "AB"] == [
        "Penalty Cards", "Dummy's Rights"]
    # The note marked in the heading stays in the heading, after its last word, with the book's number.
    heading = ctx.corpus.xpath('//*[@id="2017/9A"]/heading')[0]
    assert heading.text == "Penalty Cards" and not heading.find("note").tail
    assert (heading.find("note").get("num"), heading.find("note").text) == ("2", "A made-up note.")
    assert ctx.corpus.xpath('//*[@id="2017/9A"]/p') == []
    said = [e.message for e in ctx.log.entries if e.kind in ("inference", "damage") and "heading" in e.message]
    assert said == ["'Penalty Cards' read as the heading of 9A: all its words are capitalised and it ends no sentence "
                    "(no contents entry)",
                    "the heading of 9A keeps the footnote marked in it (2), where the book marks it",
                    "\"Dummy's Rights\" read as the heading of 9B: all its words are capitalised and it ends no "
                    "sentence (no contents entry)"]
    assert [e for e in ctx.log.entries if e.kind == "error"] == []


def test_a_page_top_is_placed_though_the_page_holds_no_section(tmp_path):
    folder = one_page_book(tmp_path / "book", f"7\nthe rest of a made-up law, {FILLER}.\nLAW 10\nOTHER\n"
                                              f"The text of a made-up law without sections, {FILLER}.\n")
    (folder / "contents.txt").write_text("Table of Contents\nLAW 9 - MADE-UP\n6\nLAW 10 - OTHER\n7\n", encoding="utf-8")
    (folder / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "contents.txt"\nedition = "2017"\n'
                                         '[[source]]\nfile = "page.txt"\nedition = "2017"\n', encoding="utf-8")
    ctx = stages.make_corpus(folder)
    assert [e for e in ctx.log.entries if e.kind == "error"] == []
    assert tree.plain_text(ctx.corpus.xpath('//*[@id="2017/9"]/p')[0]).startswith("the rest of a made-up law")
