"""The page layouts of printed books, read from the pages themselves.

The fixture is made here from two Dutch sources of the 2007 edition: the print extraction of page 44
(article 24 and the start of 25, cut off where the page ends) and the template of article 41 (its
footnotes). Their corpus nodes are laid out again as the pages of a book (`lay_out`) in two layouts
real books use:

  1. running heads that alternate: the book's title on the even pages, the article on the page
     ("Artikel 24") on the odd ones; the page number printed first on an even page and last on an odd
     one, on a line of its own or on the head's line; footnotes numbered per page;
  2. page numbers at the foot, under the footnotes, which are numbered through the book.

Each book is two extractions (the pages of articles 24–25, and those of 41, further on in the book),
both starting on an odd page, whose head ("Artikel 24", or "Artikel 24–25" for the articles on the
page) stands above the number on the first page; with form feeds between the pages, or without. Read
again, a book must give the nodes and words the sources give, every footnote at its marker, and drop
exactly the furniture lines, each with its reason. Small pages made up here pin the rules one by one.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pipeline.publish import run as build
from pipeline.core import tree
from pipeline.core.model import NOTE_MARK
from pipeline.core.report import BuildLog
from pipeline.reading import formats, manifest
from pipeline.reading.decode import Line
from pipeline.reading.book.furniture import is_page_number

from test_print_book import wrap

SOURCES = Path(__file__).resolve().parent.parent / "sources"
PRINT_PAGE, TEMPLATE = "004_971f733aa3ecb59f.txt", "003_6f949f908cd1d87e.txt"  # see sources/sources.toml
TITLE = "Spelregels voor Wedstrijdbridge"  # the even pages' running head
RUNS = (("24", "25"), ("41",))  # the articles of each extraction, in the book's order


# -- the reference: the two sources as the pipeline reads them ------------------------------------

@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ref")
    manifest_text = (SOURCES / "sources.toml").read_text(encoding="utf-8")
    entries = [e for e in manifest_text.split("[[source]]")[1:] if PRINT_PAGE in e or TEMPLATE in e]
    assert len(entries) == 2
    (folder / "sources.toml").write_text("".join("[[source]]" + e for e in entries), encoding="utf-8")
    for name in (PRINT_PAGE, TEMPLATE):
        (folder / name).write_bytes((SOURCES / name).read_bytes())
    ctx = build.make_corpus(folder)
    assert ctx.log.errors == []
    return ctx.corpus


def nodes(corpus):
    """{node ID: (label, [(paragraph with NOTE_MARKs, [(note ID, note text)])])} of the 2007 articles."""
    out = {}
    for article in corpus.iter("article"):
        for el in [article] + [e for e in article.iterdescendants() if e.tag in tree.NODE_TAGS]:
            out[el.get("id")] = (tree.label_text(el),
                                 [(tree.text_with_marks(p), [(n.get("id"), tree.plain_text(n)) for n in p.iter("note")])
                                  for p in el.iterchildren("p")])
    return out


# -- the layout -----------------------------------------------------------------------------------

def stream(corpus, articles):
    """The articles as printed lines: ("head", text) for an article's heading, its title (broken after
    four words, the rest starting in lower case) and a section heading; ("line", text) for running text,
    a subsection's first line starting "1. "; ("marker", (note text, article)) for a footnote marker.
    Each item carries the article it belongs to."""
    out = []
    found = nodes(corpus)
    for num in articles:
        def paragraphs(node, prefix=""):
            for marked, notes in found[node][1]:
                parts = marked.split(NOTE_MARK)
                for k, part in enumerate(parts):
                    out.extend(("line", t, num) for t in wrap((prefix + part).strip() if k == 0 else part.strip()))
                    if k < len(notes):
                        out.append(("marker", notes[k][1], num))
                prefix = ""

        title = found[f"2007/{num}"][0].split()
        out.append(("head", f"ARTIKEL {num}", num))
        out += [("head", " ".join(title[:4]), num)] + ([("head", " ".join(title[4:]), num)] if title[4:] else [])
        paragraphs(f"2007/{num}")
        for node in found:
            part = node.split("/")[1][len(num):]
            if node.startswith(f"2007/{num}") and part:
                if part.isalpha():  # a section: its heading on a line of its own
                    out.append(("head", f"{part}. {found[node][0]}", num))
                    paragraphs(node)
                else:  # a subsection: its number before its text
                    paragraphs(node, prefix=f"{part[-1]}. ")
    return out


@dataclass
class Page:
    number: int
    label: str  # as printed: "45", or "xlv" in roman
    article: str  # the article of the page's first line
    last_article: str = ""  # the article of its last line
    body: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # the footnotes at the page bottom: number, then text lines
    last: str = ""  # the kind of the page's last item so far


def roman(n):
    out = ""
    for value, digits in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"),
                          (1, "i")):
        while n >= value:
            out, n = out + digits, n - value
    return out


def lay_out(items, first_page, lines_per_page, first_note=None, numerals=str):
    """The items as pages of `lines_per_page` text lines from page `first_page` on; a page never ends on
    a heading. The footnotes are at the bottom of their marker's page, numbered from `first_note` on
    through the book, or from 1 on each page when None."""
    out, note = [], first_note or 1
    for kind, text, article in items:
        if not out or (len(out[-1].body) >= lines_per_page and out[-1].last != "head"):
            number = first_page + len(out)
            out.append(Page(number, numerals(number), article))
            if first_note is None:
                note = 1
        page = out[-1]
        if kind == "marker":
            page.body.append(str(note))
            page.notes += [str(note)] + wrap(text)
            note += 1
        else:
            page.body.append(text)
        page.last, page.last_article = kind, article
    return out


def odd_head(page):
    """The odd pages' running head: the articles on the page ("Artikel 24", "Artikel 24–25")."""
    if page.last_article != page.article:
        return f"Artikel {page.article}\u2013{page.last_article}"
    return f"Artikel {page.article}"


def alternating(page, one_line=False):
    """Layout 1: on an even page the number first, then the book's title; on an odd page the article
    on the page, then the number; on two lines, or on one line at the two sides of the page."""
    if page.number % 2 == 0:
        top = [f"{page.label}    {TITLE}"] if one_line else [page.label, TITLE]
    else:
        top = [f"{odd_head(page)}    {page.label}"] if one_line else [odd_head(page), page.label]
    return top, page.body + page.notes, []


def at_foot(page, heads=False):
    """Layout 2: the page number at the foot, under the footnotes; with `heads`, the running heads of
    layout 1 at the top (the book's title on an even page, the article on an odd one)."""
    top = [TITLE if page.number % 2 == 0 else odd_head(page)] if heads else []
    return top, page.body + page.notes, [page.label]


def write(pages, furnish, form_feeds=True):
    """The extraction, and its furniture: [(line number, reason)] as the reader must drop it. A head
    above the page number is furniture whatever it says; one below it, or on a page numbered at its
    foot, is learned from the pages of its parity, which all have it."""
    text, furniture = [], []
    parity = [sum(1 for p in pages if p.number % 2 == k) for k in (0, 1)]
    for k, page in enumerate(pages):
        top, body, foot = furnish(page)
        at = len(text) + 1
        for i, line in enumerate(top):
            if line == page.label:
                furniture.append((at + i, f"page number {page.label}"))
            elif re.fullmatch(rf"\S+ +{TITLE}|Artikel \S+ +\S+", line):
                head = TITLE if line.endswith(TITLE) else line.rsplit(None, 1)[0].strip()
                furniture.append((at + i, f"page number {page.label} beside the running header {head!r}: page "
                                          f"layout, not law text"))
            elif page.label in top[i:]:  # above the number
                furniture.append((at + i, f"running header {line!r}: page layout, not law text"))
            else:
                furniture.append((at + i, f"running header {line!r}, as in its place on {parity[page.number % 2]} "
                                          f"pages: page layout, not law text"))
        if foot:
            furniture.append((at + len(top) + len(body), f"page number {page.label} (at the page bottom)"))
        lines = top + body + foot
        if k and form_feeds:
            lines[0] = "\f" + lines[0]
        text += lines
    return "\n".join(text) + "\n", furniture


def book(folder, extractions):
    """A sources folder of the 2007 book's extractions: [(file name, text)]."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for name, text in extractions:
        (folder / name).write_text(text, encoding="utf-8")
        entries.append(f'[[source]]\nfile = "{name}"\nedition = "2007"\norigin = "Text extraction of the printed '
                       f'2007 book"\nformat = "print"\n')
    (folder / "sources.toml").write_text("\n".join(entries), encoding="utf-8")
    return build.make_corpus(folder)


PAGES = 11  # text lines on a page
FILES = ("boek-p45.txt", "boek-p71.txt")


def make(reference, tmp_path, furnish, first_notes=(None, None), first_pages=(45, 71), lines=PAGES, numerals=str,
         form_feeds=True):
    """The book in one layout: ((its corpus context), {file: (pages, furniture)})."""
    laid = {}
    for name, articles, first, note in zip(FILES, RUNS, first_pages, first_notes):
        pages = lay_out(stream(reference, articles), first, lines, note, numerals)
        laid[name] = (pages, *write(pages, furnish, form_feeds))
    ctx = book(tmp_path / "boek", [(name, text) for name, (_, text, _) in laid.items()])
    return ctx, {name: (pages, furniture) for name, (pages, _, furniture) in laid.items()}


def dropped(ctx, name):
    return [(e.line, e.message) for e in ctx.log.entries if e.kind == "dropped" and e.file == name]


def gaps(ctx):
    return [(e.file, e.node, e.message) for e in ctx.log.of_kind("gap")]


CUT_OFF_25 = "article 25 is cut off at the end of page {}: the rest is on a page that is not in the sources"


# -- the fixture holds what the test needs ----------------------------------------------------------

def test_the_layouts_hold_what_the_tests_need(reference):
    pages = lay_out(stream(reference, RUNS[0]), 45, PAGES)
    assert [p.number for p in pages] == [45, 46, 47, 48]
    assert [p.article for p in pages] == ["24", "24", "24", "25"]
    assert [odd_head(p) for p in pages if p.number % 2] == ["Artikel 24", "Artikel 24\u201325"]
    assert pages[0].body[:3] == ["ARTIKEL 24", "Getoonde of voorgespeelde kaart", "voor het begin van de speelperiode"]
    notes = lay_out(stream(reference, RUNS[1]), 71, PAGES, first_note=7)
    # 41's three footnotes on three pages, numbered through the book.
    assert [(p.number, [t for t in p.notes if t.isdigit()]) for p in notes] == [
        (71, ["7"]), (72, ["8"]), (73, []), (74, ["9"]), (75, [])]
    assert sum(p.body[-1].endswith("-") for p in pages + notes) >= 2  # a word split across a page break
    # No text line reads as a page number, a running head or the law's structure by accident.
    texts = [t for p in pages + notes for t in p.body if not t.isdigit()]
    assert not any(is_page_number(t) or t.startswith(("Artikel", TITLE)) for t in texts)


# -- layout 1: alternating running heads, the number first on even pages ---------------------------

@pytest.mark.parametrize("one_line", [False, True], ids=["number-on-its-own-line", "number-beside-the-head"])
def test_alternating_heads_with_the_number_first_on_even_pages(reference, tmp_path, one_line):
    ctx, laid = make(reference, tmp_path, lambda page: alternating(page, one_line))
    assert ctx.log.errors == []  # no "text before the first article heading", no stray "Artikel 24" heading
    assert [a.get("id") for a in ctx.corpus.iter("article")] == ["2007/24", "2007/25", "2007/41"]
    assert nodes(ctx.corpus) == nodes(reference)
    # The first page of each extraction: the head of an odd page, above its number.
    [(pages, furniture)] = [laid[FILES[0]]]
    if one_line:
        assert furniture[0] == (1, "page number 45 beside the running header 'Artikel 24': page layout, not law text")
        assert furniture[1] == (13, f"page number 46 beside the running header {TITLE!r}: page layout, not law text")
    else:
        assert furniture[:4] == [(1, "running header 'Artikel 24': page layout, not law text"),
                                 (2, "page number 45"), (14, "page number 46"),
                                 (15, f"running header {TITLE!r}, as in its place on 2 pages: page layout, not "
                                      f"law text")]
    for name in FILES:
        assert dropped(ctx, name) == laid[name][1], name
    assert gaps(ctx)[0] == (FILES[0], "2007/25", CUT_OFF_25.format(48))


def test_footnotes_numbered_per_page_are_notes_at_their_markers(reference, tmp_path):
    ctx, laid = make(reference, tmp_path, alternating)
    found = nodes(ctx.corpus)
    assert found["2007/24B"][0] == "Eén honneur of een voortijdig voorgespeelde kaart"
    [(marked, notes)] = found["2007/41B"][1]
    assert f"(zie artikel 20F2 en 20F3). De leider{NOTE_MARK} en beide tegenspelers mogen" in marked
    assert notes == [("2007/41B/noot1", "De eerste keer dat de leider aan de beurt is om te spelen vanuit de "
                                        "blinde, tenzij hij een uitkomst voor de beurt accepteert.")]
    [(marked, notes)] = found["2007/25A1"][1]
    assert marked.startswith(f"Tot zijn partner een bieding doet, mag een speler een niet bedoelde bieding "
                             f"vervangen door zijn voorgenomen bieding{NOTE_MARK} maar alléén als hij dit doet")
    assert notes == [("2007/25A1/noot1", "Een speler mag een niet bedoelde bieding wijzigen zolang aan de "
                                         "voorwaarden van artikel 25A is voldaan, ongeacht de manier waarop hij "
                                         "zich van zijn fout bewust wordt.")]
    # Each page starts its footnotes at 1.
    assert [[t for t in p.notes if t.isdigit()] for p in laid[FILES[1]][0]] == [["1"], ["1"], [], ["1"], []]


@pytest.mark.parametrize("layout", ["alternating", "foot"])
def test_without_form_feeds_the_heads_beside_the_numbers_or_the_numbers_start_the_pages(reference, tmp_path, layout):
    furnish = alternating if layout == "alternating" else lambda page: at_foot(page, heads=True)
    ctx, laid = make(reference, tmp_path, furnish, form_feeds=False)
    assert ctx.log.errors == []
    assert nodes(ctx.corpus) == nodes(reference)
    for name in FILES:
        assert dropped(ctx, name) == laid[name][1], name


# -- layout 2: numbers at the foot, footnotes through the book -------------------------------------

@pytest.mark.parametrize("heads", [False, True], ids=["no-heads", "heads-at-the-top"])
def test_numbers_at_the_foot_under_footnotes_numbered_through_the_book(reference, tmp_path, heads):
    ctx, laid = make(reference, tmp_path, lambda page: at_foot(page, heads), first_notes=(6, 7))
    assert ctx.log.errors == []
    assert [a.get("id") for a in ctx.corpus.iter("article")] == ["2007/24", "2007/25", "2007/41"]
    assert nodes(ctx.corpus) == nodes(reference)
    pages, furniture = laid[FILES[1]]
    # Footnote 7 on page 71, 8 on 72, 9 on 74; each page's number is its last line, under them.
    assert [(p.label, p.notes[0], p.notes[-1]) for p in pages if p.notes] == [
        ("71", "7", "naar beneden.)"), ("72", "8", "accepteert."), ("74", "9", "of vanuit zijn eigen hand.")]
    lines = ctx.lines[FILES[1]]
    numbers = [(n, reason) for n, reason in furniture if reason.startswith("page number")]
    assert [(n, lines[n - 1].text.strip()) for n, _ in numbers] == [(n, p.label) for (n, _), p in zip(numbers, pages)]
    assert numbers[0][1] == "page number 71 (at the page bottom)"
    if heads:  # the odd pages' heads: the articles on the page, learned by their shape
        assert furniture[:2] == [
            (1, "running header 'Artikel 41', as in its place on 3 pages: page layout, not law text"), numbers[0]]
        assert "running header 'Artikel 24\u201325', as in its place on 2 pages: page layout, not law text" in [
            r for _, r in dropped(ctx, FILES[0])]
    for name in FILES:
        assert dropped(ctx, name) == laid[name][1], name
    found = nodes(ctx.corpus)
    assert [note for node, (_, paras) in found.items() if node.startswith("2007/41") for _, notes in paras
            for note, _ in notes] == ["2007/41A/noot1", "2007/41B/noot1", "2007/41C/noot1"]
    assert found["2007/41C"][1][0][1] == [("2007/41C/noot1", "De leider mag uitleg vragen als hij speelt vanuit de "
                                                             "blinde of vanuit zijn eigen hand.")]
    assert f"als het hun{NOTE_MARK} beurt is om te spelen" in found["2007/41C"][1][0][0]
    assert gaps(ctx)[0] == (FILES[0], "2007/25", CUT_OFF_25.format(48))


# -- any page size, first page and numerals read the same book -------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.integers(min_value=7, max_value=11), first=st.integers(min_value=2, max_value=300),
       layout=st.sampled_from(["alternating", "one-line", "foot", "foot-and-heads"]),
       numerals=st.sampled_from(["arabic", "roman"]), first_note=st.one_of(st.none(), st.integers(1, 60)),
       form_feeds=st.booleans())
def test_any_page_size_first_page_and_numerals_read_the_same_corpus(reference, tmp_path_factory, lines, first,
                                                                       layout, numerals, first_note, form_feeds):
    """Each extraction has two pages of each parity or more (7 to 11 lines a page), so that its heads
    repeat; without form feeds, the pages are found by the heads beside the numbers, or by the numbers
    alone (at the foot), which must then differ from the footnotes' numbers (pages 100 to 340; a
    roman number goes up to cccxcix)."""
    if not form_feeds and layout.startswith("foot"):
        first = 100 + first % 200
    furnish = {"alternating": alternating, "one-line": lambda page: alternating(page, True), "foot": at_foot,
               "foot-and-heads": lambda page: at_foot(page, True)}[layout]
    ctx, laid = make(reference, tmp_path_factory.mktemp("any"), furnish, first_notes=(first_note, first_note),
                     first_pages=(first, first + 30), lines=lines, numerals=str if numerals == "arabic" else roman,
                     form_feeds=form_feeds)
    assert ctx.log.errors == []
    assert nodes(ctx.corpus) == nodes(reference)
    for name in FILES:
        assert dropped(ctx, name) == laid[name][1], name
    last = laid[FILES[0]][0][-1].label
    assert gaps(ctx)[0] == (FILES[0], "2007/25", CUT_OFF_25.format(last))


# -- the rules, on pages made up here ---------------------------------------------------------------

def read(text):
    lines = [Line("p.txt", n, t.replace("\f", " "), "\f" in t) for n, t in enumerate(text.split("\n"), 1)]
    log = BuildLog()
    reading = formats.read(lines, manifest.Source(path=Path("p.txt"), edition="2017", language="nl", format="print"), log)
    return reading, log


def test_a_marker_near_a_page_top_is_not_the_page_number_when_the_numbers_run_at_the_foot():
    """Footnotes numbered through the book: "4" below the first line of a page is a marker, however the
    page starts; the numbers that go up by one from page to page are at the foot."""
    reading, log = read("De leider\n3\nspeelt.\n3\nNoot drie.\n12\n"
                        "\fDe tegenspeler\n4\nbekent.\n4\nNoot vier.\n13\n"
                        "\fDe blinde\n5\nvolgt.\n5\nNoot vijf.\n14")
    assert [(d.line, d.reason) for d in reading.dropped] == [
        (6, "page number 12 (at the page bottom)"), (12, "page number 13 (at the page bottom)"),
        (18, "page number 14 (at the page bottom)")]
    assert [(b.kind, b.text) for b in reading.blocks] == [
        ("para", f"De leider{NOTE_MARK}\nspeelt.\nDe tegenspeler{NOTE_MARK}\nbekent.\nDe blinde{NOTE_MARK}\nvolgt.")]
    assert [(n.number, n.text) for n in reading.blocks[0].notes] == [("3", "Noot drie."), ("4", "Noot vier."),
                                                                    ("5", "Noot vijf.")]
    assert not log.errors


def test_without_form_feeds_numbers_that_stand_once_and_go_up_are_the_page_numbers():
    """Numbers at the foot, no form feeds, no heads: the footnotes' numbers stand twice (marker and
    footnote), the page numbers once, going up; the extraction ends with one, so they are at the foot."""
    reading, log = read("ARTIKEL 5\nTitel\nDe leider\n1\nspeelt.\n1\nNoot een.\n31\n"
                        "De tegenspeler\n2\nbekent.\n2\nNoot twee.\n32\nDe blinde volgt.\n33")
    assert [(d.line, d.reason) for d in reading.dropped] == [
        (8, "page number 31 (at the page bottom)"), (14, "page number 32 (at the page bottom)"),
        (16, "page number 33 (at the page bottom)")]
    assert [(n.number, n.text) for n in reading.blocks[2].notes] == [("1", "Noot een."), ("2", "Noot twee.")]
    assert reading.blocks[2].text == (f"De leider{NOTE_MARK}\nspeelt.\nDe tegenspeler{NOTE_MARK}\nbekent.\n"
                                      f"De blinde volgt.")
    assert not log.errors


def test_a_head_seen_on_one_page_only_is_text_but_one_above_the_number_is_furniture():
    """Heads are learned from repetition at the same place on the pages of one parity; a line above the
    page number at a page's top is furniture whatever it says."""
    reading, _ = read("Een kop\n7\nARTIKEL 5\nTitel\nTekst die doorloopt\n\f8\nVoorbeeld van een regel\n"
                      "en nog meer.")
    assert [(d.line, d.reason) for d in reading.dropped] == [
        (1, "running header 'Een kop': page layout, not law text"), (2, "page number 7"), (6, "page number 8")]
    assert reading.blocks[2].text == "Tekst die doorloopt\nVoorbeeld van een regel\nen nog meer."


def test_the_pages_tell_the_furniture_not_where_the_extraction_starts():
    """The same pages read the same from their second page on: the heads and numbers of a page do not
    depend on the pages before it being in the extraction."""
    pages = ["Artikel 5\n7\nARTIKEL 5\nTitel\nDe leider speelt een", "8\nSpelregels\nkaart en de",
             "Artikel 5\n9\nblinde", "10\nSpelregels\nvolgt.", "Artikel 6\n11\nARTIKEL 6\nTitel\nTekst."]
    whole, _ = read("\n\f".join(pages))
    later, _ = read("\n\f".join(pages[1:]))
    learned = "running header 'Spelregels', as in its place on 2 pages: page layout, not law text"
    assert [d.reason for d in whole.dropped][2:] == [d.reason for d in later.dropped] == [
        "page number 8", learned, "running header 'Artikel 5': page layout, not law text", "page number 9",
        "page number 10", learned, "running header 'Artikel 6': page layout, not law text", "page number 11"]


def test_a_footnote_text_repeated_below_its_numbers_is_no_running_head():
    """One page, no form feed: footnotes 1 and 2 hold the same text. Each footnote number stands twice
    (marker and footnote), so neither is a page number with that text as its head beside it: the page is
    one page, numbered 12 at its top, and both footnotes are notes at their markers."""
    reading, log = read("Kop van het boek\n\n12\nARTIKEL 5\nTitel\nDe leider speelt\n1\nde kaart en de\n"
                        "blinde\n2\nvolgt de kleur.\n1\nZie de regels van de bond voor\nde uitzonderingen.\n"
                        "2\nZie de regels van de bond voor\nde uitzonderingen.")
    assert [(d.line, d.reason) for d in reading.dropped] == [
        (1, "running header 'Kop van het boek': page layout, not law text"), (3, "page number 12")]
    assert reading.blocks[2].text == f"De leider speelt{NOTE_MARK}\nde kaart en de\nblinde{NOTE_MARK}\nvolgt de kleur."
    assert [(n.number, n.text) for n in reading.blocks[2].notes] == [
        ("1", "Zie de regels van de bond voor\nde uitzonderingen."),
        ("2", "Zie de regels van de bond voor\nde uitzonderingen.")]
    assert not log.errors


@pytest.mark.xfail(strict=True, reason="known limit of the printed-page reader (issue 'One reader of printed "
                   "books'): without form feeds, when the first page is numbered 2 and the page number 3 stands "
                   "alone under its running head where footnote 3 could stand, page 3's number is read as "
                   "footnote 3's label; the build fails with errors at lines 2 and 11 (never a quiet book)")
def test_a_page_number_equal_to_a_footnote_number_near_the_books_start_reads_the_same_corpus(reference, tmp_path):
    """The case the property test above found (lines=7, first=2, alternating, arabic, first_note=3, no form
    feeds), kept so that it is not lost between runs: it must read as the other layouts do."""
    ctx, laid = make(reference, tmp_path, alternating, first_notes=(3, 3), first_pages=(2, 32), lines=7,
                     form_feeds=False)
    assert ctx.log.errors == []
    assert nodes(ctx.corpus) == nodes(reference)
