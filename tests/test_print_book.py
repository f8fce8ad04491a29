"""A whole printed book, read page by page.

The fixture is made here from the five sources' own text: the 2017 articles 24, 41 and 53 as the
wiki sources give them, laid out as pages of the printed book (a running header and a page number
on every page, form feeds between pages, short lines with line-end hyphens, footnote digits as
markers and the footnotes at each page bottom, a word split across a page break, 53C's heading of
91 characters on one line). Built as its own edition-2017 book, it must give the same nodes and
words as the wiki sources. Small hand-made pages pin the other layouts: no form feeds, roman and
bottom page numbers, footnotes numbered per page, a footnote on the page after its marker, wrapped
headings, and the rules for an article cut off at the end of the extraction.
"""
import json
import re
from pathlib import Path

import pytest

from pipeline.publish import run as build
from pipeline.core import tree
from pipeline.core.model import NOTE_MARK, Accounted, Gap, Placed
from pipeline.core.lang.nl import rules as nl_rules
from pipeline.core.report import BuildLog
from pipeline.reading import formats, headings, manifest, repair
from pipeline.reading.decode import Line
from pipeline.reading.book import ends
from pipeline.core import lang

from conftest import run_lawbook

SOURCES = Path(__file__).resolve().parent.parent / "sources"
ARTICLES = ("24", "41", "53")  # in the order of the book
HEADER = "Spelregels voor Wedstrijdbridge 2017"
WIDTH = 60  # characters of a printed line
PAGE = 16  # lines of text on a page, below the header and the number
FIRST_PAGE = 31
LONG = "De verkeerde tegenspeler speelt een kaart bij na een onregelmatig voorspelen door de leider"  # 53C, 91
STRUCTURE = (re.compile(r"^[A-Z]\d*\.\s"), re.compile(r"^\d+\.\s"), re.compile(r"^\d{1,4}$"),
             re.compile(r"^ARTIKEL\s+\d"))


# -- the fixture: the wiki sources' text as pages of the book -------------------------------------

@pytest.fixture(scope="module")
def wiki(five_sources):
    return five_sources


def nodes(corpus):
    """{node ID: (label, [(paragraph with NOTE_MARKs, [(note ID, note text)])])} for ARTICLES of 2017."""
    out = {}
    for num in ARTICLES:
        article = tree.node_by_id(corpus, f"2017/{num}")
        for el in [article] + [e for e in article.iterdescendants() if e.tag in tree.NODE_TAGS]:
            out[el.get("id")] = (tree.label_text(el),
                                 [(tree.text_with_marks(p), [(n.get("id"), tree.plain_text(n)) for n in p.iter("note")])
                                  for p in el.iterchildren("p")])
    return out


def wrap(text):
    """Short lines; a long lower-case word at a line end is hyphenated where the repair stage joins it."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > WIDTH:
            cut = hyphen_point(word, WIDTH - len(line) - 2)
            if cut:
                lines.append(f"{line} {word[:cut]}-")
                line = word[cut:]
                continue
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


VOWEL = set("aeiouyéëï")


def hyphen_point(word, room):
    """Where a plain lower-case word breaks with room for `room` characters before the hyphen: after a
    vowel, before a consonant ("voorge-speelde"), three letters or more on either side; None if nowhere."""
    if not re.fullmatch(r"[a-zéëï]{8,}", word):
        return None
    cuts = [k for k in range(3, min(room, len(word) - 3) + 1)
            if word[k - 1] in VOWEL and word[k] not in VOWEL
            and word[:k] not in nl_rules.HYPHEN_PREFIXES]
    return cuts[-1] if cuts else None


def stream(corpus):
    """The book's text lines in order: ("line", text), ("head", text) for an article's heading and title
    and a section heading, and ("marker", note text) for a footnote digit."""
    out = []

    def paragraph(marked, notes, prefix=""):
        parts = marked.split(NOTE_MARK)
        for k, part in enumerate(parts):
            text = (prefix + part).strip() if k == 0 else part.strip()
            out.extend(("line", t) for t in wrap(text))
            if k < len(notes):
                out.append(("marker", notes[k][1]))

    found = nodes(corpus)
    for num in ARTICLES:
        title, paras = found[f"2017/{num}"]
        out.append(("head", f"ARTIKEL {num}"))
        words = title.split()
        # A title longer than a short line breaks after its fourth word; the rest starts in lower case.
        out += [("head", " ".join(words[:4])), ("head", " ".join(words[4:]))] if len(title) > 40 else [("head", title)]
        for marked, notes in paras:
            paragraph(marked, notes)
        for node, (heading, paras) in found.items():
            if node.startswith(f"2017/{num}") and node != f"2017/{num}":
                out.append(("head", f"{node.split('/')[1][len(num):]}. {heading}"))  # 53C's on one line, 94 characters
                for marked, notes in paras:
                    paragraph(marked, notes)
    return out


def pages(items):
    """The items laid out as pages: [(page number, [text lines], [footnote lines])]. Footnotes are numbered
    through the book and printed at the bottom of the marker's page. The first page ends at a hyphenated
    line, so a word is split across the page break."""
    out, number, n = [], FIRST_PAGE, 0
    body, notes = [], []
    for kind, text in items:
        if kind == "marker":
            n += 1
            body.append(str(n))
            notes += [str(n)] + wrap(text)
        else:
            body.append(text)
        # A page never ends on a heading or title: its text follows on the same page.
        full = len(body) >= PAGE and (out or body[-1].endswith("-")) and kind != "head"
        if full:
            out.append((number, body, notes))
            number, body, notes = number + 1, [], []
    if body:
        out.append((number, body, notes))
    return out


def write(laid_out):
    """The extraction: form feed, running header and page number at the top of every page."""
    text = []
    for k, (number, body, notes) in enumerate(laid_out):
        text += [("\f" if k else "") + HEADER, str(number), *body, *notes]
    return "\n".join(text) + "\n"


def book(tmp_path, text, name="boek-2017.txt"):
    folder = tmp_path / "boek"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    (folder / "sources.toml").write_text(
        f'[[source]]\nfile = "{name}"\nedition = "2017"\n'
        f'origin = "Text extraction of the printed 2017 book: articles 24, 41 and 53"\n', encoding="utf-8")
    return build.make_corpus(folder)


@pytest.fixture(scope="module")
def laid_out(wiki):
    return pages(stream(wiki.corpus))


@pytest.fixture(scope="module")
def printed_book(laid_out, tmp_path_factory):
    return book(tmp_path_factory.mktemp("print"), write(laid_out))


def test_the_fixture_is_a_printed_book(laid_out):
    """What the layout must hold for the test to prove anything."""
    assert len(laid_out) >= 4
    assert laid_out[0][1][-1].endswith("-")  # a word split across the first page break
    assert sum(bool(notes) for _, _, notes in laid_out) >= 3  # footnotes at the bottom of several pages
    assert max(len(line) for _, body, _ in laid_out for line in body) == len(LONG) + 3 == 94
    assert sum(line.endswith("-") for _, body, _ in laid_out for line in body) >= 5
    # No text line reads as structure or a page number by accident.
    texts = [line for _, body, _ in laid_out for line in body]
    headings = {line for line in texts if STRUCTURE[0].match(line) or STRUCTURE[3].match(line)}
    assert len(headings) == 3 + 5 + 4 + 3
    assert not any(STRUCTURE[1].match(line) for line in texts)
    # The last page is shorter than every page before it: the book ends there.
    sizes = [2 + len(body) + len(notes) for _, body, notes in laid_out]
    assert sizes[-1] < min(sizes[:-1])


def test_the_printed_book_gives_the_nodes_and_words_of_the_wiki_sources(wiki, printed_book):
    assert printed_book.log.errors == []
    expected, found = nodes(wiki.corpus), nodes(printed_book.corpus)
    assert list(found) == list(expected)
    assert [a.get("id") for a in printed_book.corpus.iter("article")] == ["2017/24", "2017/41", "2017/53"]
    for node in expected:
        assert found[node] == expected[node], node
    assert found["2017/53C"][0] == LONG


def test_every_line_of_the_book_is_in_a_node_or_dropped_as_page_furniture(laid_out, printed_book):
    [fragment] = printed_book.fragments
    lines = printed_book.lines["boek-2017.txt"]
    ledger = {n: fragment.ledger.get(n) for n in (line.num for line in lines if not line.blank)}
    assert None not in ledger.values()
    furniture = {n: where.reason for n, where in ledger.items() if isinstance(where, Accounted)}
    # Two lines at the top of every page, the first line of each page after the first with its form feed.
    tops, at = [], 1
    for number, body, notes in laid_out:
        tops.append((at, f"running header {HEADER!r}: page layout, not law text"))
        tops.append((at + 1, f"page number {number}"))
        at += 2 + len(body) + len(notes)
    assert sorted(furniture.items()) == tops
    assert {where.node for where in ledger.values() if isinstance(where, Placed)} <= set(nodes(printed_book.corpus))
    dropped = [(e.line, e.message) for e in printed_book.log.entries if e.kind == "dropped"]
    assert dropped == tops
    breaks = [e.line for e in printed_book.log.entries if e.message == "page break (form feed) read as a space"]
    assert breaks == [line for line, _ in tops[2::2]]


def test_joins_across_a_page_are_logged_and_no_gap_is_invented(laid_out, printed_book):
    log = printed_book.log
    first = 2 + len(laid_out[0][1]) + len(laid_out[0][2])  # the last line of page 1 (its last footnote line)
    last_text = 2 + len(laid_out[0][1])  # the hyphenated line at the end of page 1's text
    left = laid_out[0][1][-1].split()[-1]
    right = laid_out[1][1][0].split()[0]
    assert [(e.line, e.message, e.before, e.after) for e in log.entries
            if e.kind == "repair" and "page break (page" in e.message][0] == (
        last_text, f"line-end hyphen joined across a page break (page furniture at lines {first + 1}–{first + 2})",
        f"{left}\\n{right}", left[:-1] + right)
    crossings = [e for e in log.entries if e.kind == "repair" and "across a page break" in e.message]
    assert len(crossings) == len(laid_out) - 1  # each page break falls inside a paragraph
    assert log.of_kind("gap") == []
    assert [(e.node, e.message) for e in log.entries if e.kind == "inference" and "complete" in e.message] == [
        ("2017/53", f"article 53 is read as complete at the end of page {laid_out[-1][0]}: its text ends with a "
                    f"full sentence, leaves no section or numbered part open, and the page holds "
                    f"{2 + len(laid_out[-1][1]) + len(laid_out[-1][2])} lines, fewer than any page before it "
                    f"({min(2 + len(b) + len(n) for _, b, n in laid_out[:-1])} or more), so the text ends there")]
    assert printed_book.corpus.find(".//gap") is None


def test_show_reads_53C_from_the_printed_book(printed_book, laid_out):
    shown = run_lawbook("show", "2017/53C", "--json", "--sources", printed_book.sources_dir)
    assert shown.returncode == 0, shown.stderr
    node = json.loads(shown.stdout)
    assert node["title"] == LONG
    heading = sum(2 + len(b) + len(n) for _, b, n in laid_out[:-1]) + 2 + laid_out[-1][1].index(
        "C. " + node["title"]) + 1
    last = sum(2 + len(b) + len(n) for _, b, n in laid_out)  # 53C runs to the end of the book
    assert node["sources"] == [{"file": "boek-2017.txt", "lines": list(range(heading, last + 1))}]


def test_the_book_cut_on_its_last_page_mid_sentence_has_its_gap(wiki, tmp_path):
    items = stream(wiki.corpus)
    # Cut after the last text line of 53C's paragraph that ends without a full stop.
    end = max(k for k, (kind, text) in enumerate(items) if kind == "line" and not text.endswith("."))
    laid_out = pages(items[:end + 1])
    assert laid_out[-1][1][-1] == items[end][1]
    ctx = book(tmp_path, write(laid_out))
    assert ctx.log.errors == []
    last = sum(2 + len(b) + len(n) for _, b, n in laid_out)
    assert [(e.line, e.node, e.message) for e in ctx.log.of_kind("gap")] == [
        (last, "2017/53", f"article 53 is cut off at the end of page {laid_out[-1][0]}: the rest is on a page "
                          f"that is not in the sources")]
    assert tree.node_by_id(ctx.corpus, "2017/53").find("gap").get("reason") == (
        f"Artikel 53 breekt af aan het eind van pagina {laid_out[-1][0]}; het vervolg staat op een pagina die "
        f"niet in de bronnen zit.")


# -- hand-made pages --------------------------------------------------------------------------------

def read(text):
    log = BuildLog()
    lines = []
    for n, t in enumerate(text.split("\n"), 1):
        lines.append(Line("p.txt", n, t.replace("\f", " "), "\f" in t))
    reading = formats.read(lines, manifest.Source(path=Path("p.txt"), edition="2017", language="nl", format="print"), log)
    headings.split_headings([reading], log, lang.profile("nl"))  # the stage after the reader: headings split
    repair.repair_reading(reading, set(), log, lang.profile("nl"))
    return reading, log


def texts(reading):
    return [(b.kind, b.cite or b.number, b.text) for b in reading.blocks]


NO_FORM_FEEDS = """Spelregels
xii
ARTIKEL 5
Een titel
Als een speler de kaart toont
1
moet hij haar voor-
Spelregels
xiii
spelen.
1
Een noot die op de volgende
pagina staat."""


def test_without_form_feeds_a_known_header_next_to_a_page_number_starts_a_page():
    """Roman page numbers; a word and a footnote across the page break: the marker on page xii, the
    footnote at the bottom of page xiii."""
    reading, log = read(NO_FORM_FEEDS)
    assert [(d.line, d.reason) for d in reading.dropped] == [
        (1, "running header 'Spelregels': page layout, not law text"), (2, "page number xii"),
        (8, "running header 'Spelregels': page layout, not law text"), (9, "page number xiii")]
    assert texts(reading)[2] == ("para", None, f"Als een speler de kaart toont{NOTE_MARK} moet hij haar voorspelen.")
    assert reading.blocks[2].notes[0].text == "Een noot die op de volgende pagina staat."
    assert reading.blocks[2].notes[0].lines == [6, 11, 12, 13]
    assert [(e.line, e.message, e.before, e.after) for e in log.entries if e.kind == "repair"] == [
        (7, "line-end hyphen joined across a page break (page furniture at lines 8–9)", "voor-\\nspelen",
         "voorspelen")]
    assert reading.gaps == []
    assert [(e.kind, e.line, e.node) for e in log.entries if e.kind == "inference"] == [("inference", 13, "2017/5")]


def test_a_marker_at_a_page_end_is_not_taken_for_the_next_page_number():
    reading, log = read("Spelregels\n12\nARTIKEL 5\nTitel\nDe leider\n1\nSpelregels\n13\nspeelt.\n1\nNoot.")
    assert [d.line for d in reading.dropped] == [1, 2, 7, 8]
    assert texts(reading)[2] == ("para", None, f"De leider{NOTE_MARK} speelt.")
    assert (reading.blocks[2].notes[0].text, log.errors) == ("Noot.", [])


PER_PAGE = """ARTIKEL 6
Titel van het artikel
A. Een kop die over twee regels loopt omdat hij zo
lang is dat de regel vol raakt
De leider
1
speelt de kaart
2
en de blinde volgt.
1
Noot een van pagina 7.
2
Noot twee van pagina 7.
7
\f
De tegenspeler
1
bekent kleur.
B. Korte kop
Tekst.
1
Noot een van pagina 8.
8"""


def test_footnotes_numbered_per_page_page_numbers_at_the_bottom_and_a_wrapped_heading():
    reading, log = read(PER_PAGE)
    assert texts(reading) == [
        ("article", "6", "ARTIKEL 6"), ("title", None, "Titel van het artikel"),
        ("heading", "A", "Een kop die over twee regels loopt omdat hij zo lang is dat de regel vol raakt"),
        ("para", None, f"De leider{NOTE_MARK} speelt de kaart{NOTE_MARK} en de blinde volgt. "
                       f"De tegenspeler{NOTE_MARK} bekent kleur."),
        ("heading", "B", "Korte kop"), ("para", None, "Tekst.")]
    assert reading.blocks[2].lines == [3, 4]
    assert [(n.number, n.text, n.lines) for n in reading.blocks[3].notes] == [
        ("1", "Noot een van pagina 7.", [6, 10, 11]), ("2", "Noot twee van pagina 7.", [8, 12, 13]),
        ("1", "Noot een van pagina 8.", [17, 21, 22])]
    assert [(d.line, d.reason) for d in reading.dropped] == [
        (14, "page number 7 (at the page bottom)"), (23, "page number 8 (at the page bottom)")]
    assert [(e.line, e.message, e.before, e.after) for e in log.entries if e.kind == "repair"] == [
        (9, "paragraph continued across a page break (page furniture at line 14)", "volgt.\\nDe", "volgt. De")]
    assert reading.gaps == [] and not log.errors


@pytest.mark.parametrize("end, reason", [
    ("Een zin die stopt", "its last sentence stops without a full stop"),
    ("Tekst (zie artikel 12)", "its last sentence stops without a full stop"),
    ("In dat geval:", "its last line ends in a colon, which leads in to text that is not there"),
    ("Eerste geval;", "its last line ends in a semicolon: the list it is in goes on"),
    ("Een tekst die af-", "its last line ends in a hyphenated word"),
    ("A. Een kop", "its last line is a title or heading with no text after it"),
    ("A. Een kop\nTekst.", "its sections stop at A"),
    ("Tekst:\n1. Het eerste lid.", "its numbered parts stop at 1."),
])
def test_an_article_that_stops_mid_sentence_or_mid_structure_is_cut_off(end, reason):
    reading, log = read(f"Kop\n12\nARTIKEL 5\nTitel\n{end}")
    assert ends._ending(reading.blocks) == (reason, True)
    assert reading.gaps == [Gap(4 + end.count("\n") + 1, "5", "article 5 is cut off at the end of page 12: the "
                                                               "rest is on a page that is not in the sources",
                                "Artikel 5 breekt af aan het eind van pagina 12; het vervolg staat op een pagina "
                                "die niet in de bronnen zit.")]


@pytest.mark.parametrize("end", ["Tekst.", "A. Kop\nTekst.\nB. Kop\nTekst (zie A).", "Tekst:\n1. Een.\n2. Twee.",
                                 "Hij zei: \u201cNee!\u201d"])
def test_one_page_that_ends_with_a_full_sentence_may_be_cut_off(end):
    reading, _ = read(f"Kop\n12\nARTIKEL 5\nTitel\n{end}")
    assert ends._ending(reading.blocks) is None
    [gap] = reading.gaps
    assert gap.message == ("article 5 may be cut off at the end of page 12 (uncertain): its text ends with a full "
                           "sentence and leaves no section or numbered part open, but the extraction is this one "
                           "page, so nothing shows whether the article goes on overleaf")
