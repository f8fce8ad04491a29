"""The pdf source format: a book's PDF read from its characters (pipeline/reading/book/pdf.py, the adapter, and the reader of printed books).

Round trips: the PDFs lawbook writes, read back as sources, give the corpus they were printed from (node
IDs and texts word for word). Made-up layouts compiled with Typst here give the expected nodes. PDFs that
are untrusted input (cut off, damaged, encrypted, without text, too many pages or characters) each give
one message and a non-zero exit.
"""
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
import typst
from hypothesis import given, settings, strategies as st
from lxml import etree

from conftest import ROOT, SOURCES, run_lawbook
from pipeline.reading.book import pdf as pdfadapter, pdf_glyphs, pdf_lines

ENGLISH = ROOT.parent / "shared" / "english" / "laws2017-en.txt"


def nodes(corpus: Path) -> dict:
    """{node ID: its own text (title, heading and paragraphs, notes inline), words joined by one space};
    the introduction and each definition with all their text."""
    out = {}
    for el in etree.parse(str(corpus)).iter():
        node = el.get("id") or ""
        if "/def/" in node or node.endswith("/intro"):
            out[node] = " ".join(" ".join(el.itertext()).split())
        elif node and el.tag in ("article", "section", "subsection", "item", "subitem", "note"):
            words = " ".join(el.itertext() if el.tag == "note" else
                             el.xpath("./*[self::p or self::title or self::heading]//text()"))
            out[el.get("id")] = " ".join(words.split())
    return out


def paragraphs(corpus: Path) -> dict:
    """{node ID: how many paragraphs of its own it has}: the paragraph breaks, which nodes() joins over."""
    return {el.get("id"): len(el.findall("p")) for el in etree.parse(str(corpus)).iter()
            if el.tag in ("article", "section", "subsection", "item", "subitem") and el.get("id")}


def build(folder: Path, out: Path, *extra) -> object:
    result = run_lawbook("build", "--no-pdf", *extra, "--sources", folder, "--out", out)
    assert "Traceback" not in result.stderr
    return result


def pdf_source(tmp_path: Path, name: str, data: bytes, edition: str = "2017", language: str = "en") -> Path:
    folder = tmp_path / f"src-{name}"
    folder.mkdir()
    (folder / name).write_bytes(data)
    (folder / "sources.toml").write_text(f'language = "{language}"\n\n[[source]]\nfile = "{name}"\n'
                                         f'edition = "{edition}"\n', encoding="utf-8")
    return folder


def read_back(tmp_path: Path, name: str, data: bytes, **keys) -> dict:
    folder = pdf_source(tmp_path, name, data, **keys)
    result = build(folder, tmp_path / f"out-{name}")
    assert result.returncode == 0, result.stderr
    return nodes(tmp_path / f"out-{name}" / "corpus.xml")


def compile_typst(source: str) -> bytes:
    return typst.compile(source.encode("utf-8"), ignore_system_fonts=True)


def assert_same(printed: dict, read: dict) -> None:
    assert sorted(read) == sorted(printed)
    differ = {k: (printed[k], read[k]) for k in printed if printed[k] != read[k]}
    assert not differ


# -- round trips --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dutch_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("nl") / "out"
    result = run_lawbook("build", "--sources", SOURCES, "--out", out, timeout=600)
    assert result.returncode == 0, result.stderr
    return out


# The Dutch edition is printed from five fragments: its contents list names only the articles they hold, and
# the book check, reading that list, finds the article numbers in between in neither the list nor the
# corpus: the one error of each edition's PDF, a true one (the text sources have no contents list to check).
DUTCH_SKIPS = {"2017": "1-15, 17-23, 25-40, 42-46, 48-49, 51-52, 54-56", "2007": "1-23, 26-40"}


@pytest.mark.parametrize("edition", ["2017", "2007"])
def test_dutch_pdf_reads_back_as_its_corpus(dutch_build, tmp_path, edition):
    from pipeline.core.options import Options
    from pipeline.publish import run

    printed = {k: v for k, v in nodes(dutch_build / "corpus.xml").items() if k.startswith(edition + "/")}
    name = f"spelregels-{edition}.pdf"
    folder = pdf_source(tmp_path, name, (dutch_build / "pdf" / name).read_bytes(), edition=edition, language="nl")
    ctx = run.make_corpus(folder, Options())  # the corpus stages: the book check's error stops a build
    assert [(e.file, e.line, e.message) for e in ctx.log.errors] == [
        (name, 3003, f"the article numbers of edition {edition} skip {DUTCH_SKIPS[edition]}: neither the contents "
                     f"list nor the corpus has them")]
    corpus = tmp_path / "corpus.xml"
    etree.ElementTree(ctx.corpus).write(str(corpus), encoding="utf-8")
    read = nodes(corpus)
    assert_same(printed, read)
    printed_paragraphs = {k: v for k, v in paragraphs(dutch_build / "corpus.xml").items() if k.startswith(edition + "/")}
    assert paragraphs(corpus) == printed_paragraphs
    assert any("/noot" in k for k in read)


@pytest.mark.skipif(not ENGLISH.exists(), reason="the English book (../shared/english/laws2017-en.txt) is absent")
def test_english_pdf_reads_back_as_its_corpus(tmp_path):
    folder = tmp_path / "en"
    folder.mkdir()
    shutil.copy(ENGLISH, folder)
    (folder / "sources.toml").write_text('language = "en"\n\n[[source]]\nfile = "laws2017-en.txt"\n'
                                         'edition = "2017"\n', encoding="utf-8")
    out = tmp_path / "en-out"
    result = run_lawbook("build", "--sources", folder, "--out", out, timeout=900)
    assert result.returncode == 0, result.stderr
    printed = nodes(out / "corpus.xml")
    folder = pdf_source(tmp_path, "laws2017-en.pdf", (out / "pdf" / "laws-2017.pdf").read_bytes())
    result = build(folder, tmp_path / "out-laws2017-en.pdf")
    assert result.returncode == 0, result.stderr
    read = nodes(tmp_path / "out-laws2017-en.pdf" / "corpus.xml")
    assert_same(printed, read)
    # The book's own contents list, read from its pages, is what the Laws are checked against.
    assert "2017: 93 articles, 271 sections, 66 definitions, 28 footnotes and 1 note marked *: as the contents list " \
           "gives them" in \
        result.stdout
    # Every paragraph break too (35D's text ends at a page foot, "Law 39 applies." heads the next page).
    assert paragraphs(tmp_path / "out-laws2017-en.pdf" / "corpus.xml") == paragraphs(out / "corpus.xml")
    assert len([k for k in read if re.fullmatch(r"2017/\d+", k)]) == 93
    assert len([k for k in read if "/def/" in k]) == 66 and "2017/intro" in read
    assert read["2017/12C1"] == "" and read["2017/12C1a"].startswith("When after an irregularity")


# -- a layout of our own -------------------------------------------------------------------------------
MADE_UP = r"""
#set page(width: WIDTH, height: HEIGHT, margin: (x: 1.6cm, y: 2cm),
  header: context { set text(size: 7pt); if calc.even(here().page()) [Rules of Quiet Play] else [Made-up Laws] },
  footer: context { set text(size: 7pt); align(center, counter(page).display()) })
#set text(size: 9.5pt, lang: "en")
#set par(justify: true)
#let law(n, title) = block(above: 1.8em, below: 0.8em)[LAW #n \ #text(size: 12.5pt)[#title]]
#let section(s) = block(above: 1em, below: 0.5em, strong(s))
#set enum(indent: 0pt, body-indent: 0.6em)

#law(1)[THE TABLE]
#section[A. Shape of the Table]
#enum(numbering: "1.",
  [The table is square, of an official size, and its top is affixed firmly.],
  [A player may ask:#footnote[Only before the first card is played.]
   #enum(numbering: "(a)", [for a difficult chair to be replaced;], [for more light.])])
#section[B. Cloth]
The cloth is green. It is not removed during a session, whatever the players say about its colour or its
texture, and it is cleaned between sessions by the staff of the club.
#pagebreak()
#law(2)[THE CHAIRS]
#section[A. Number]
Four chairs stand at each table, one for each player, and none is taken away while a board is played.
#section[B. Height]
#enum(numbering: "1.", [Chairs are of equal height.], [A cushion may be used.])
#pagebreak()
#law(3)[THE ROOM]
Silence is kept in the room while the boards are played; the affable director sees to it.
"""


@pytest.fixture(scope="module", params=[("13cm", "17cm"), ("21.6cm", "27.9cm")], ids=["small", "letter"])
def made_up(tmp_path_factory, request):
    width, height = request.param
    tmp = tmp_path_factory.mktemp("made-up")
    return read_back(tmp, "rules.pdf", compile_typst(MADE_UP.replace("WIDTH", width).replace("HEIGHT", height)))


def test_made_up_layout_gives_its_nodes(made_up):
    assert sorted(made_up) == ["2017/1", "2017/1A", "2017/1A1", "2017/1A2", "2017/1A2/noot1", "2017/1A2a",
                               "2017/1A2b", "2017/1B", "2017/2", "2017/2A", "2017/2B", "2017/2B1", "2017/2B2",
                               "2017/3"]
    assert made_up["2017/1"] == "THE TABLE"
    assert made_up["2017/1A"] == "Shape of the Table"
    # "ffi", "ff" ligatures read as their letters
    assert made_up["2017/1A1"] == "The table is square, of an official size, and its top is affixed firmly."
    assert made_up["2017/1A2a"] == "for a difficult chair to be replaced;"
    assert made_up["2017/1A2/noot1"] == "Only before the first card is played."
    assert made_up["2017/1A2"] == "A player may ask: Only before the first card is played."
    assert made_up["2017/3"].endswith("the affable director sees to it.")


def test_made_up_layout_running_heads_and_page_numbers_are_dropped(made_up):
    texts = " ".join(made_up.values())
    assert "Made-up Laws" not in texts and "Rules of Quiet Play" not in texts
    assert not any(text.split()[-1:] in (["1"], ["2"], ["3"]) for text in made_up.values())


PREAMBLE = r"""
#set page(width: 12cm, height: 12cm, margin: 1.5cm, FOOTER)
#set text(size: 10pt, lang: "en")
#set par(justify: true)
#let law(n, title) = block(above: 1.8em, below: 0.8em)[LAW #n \ #text(size: 13pt)[#title]]
#set enum(indent: 0pt, body-indent: 0.6em)
"""


def layout(body: str, footer: str = "footer: context align(center, text(size: 8pt, counter(page).display()))") -> bytes:
    return compile_typst(PREAMBLE.replace("FOOTER", footer) + body)


def test_footnotes_numbered_per_page_go_to_their_own_page(tmp_path):
    # The counter starts again on each page: two footnotes "1", each at the foot of its marker's page.
    footer = ("header: context counter(footnote).update(0), "
              "footer: context align(center, text(size: 8pt, counter(page).display()))")
    body = ("#law(1)[FIRST]\nThe first rule.#footnote[The note of the first page.]\n#pagebreak()\n"
            "#law(2)[SECOND]\nThe second rule.#footnote[The note of the second page.]\n#pagebreak()\n"
            "#law(3)[THIRD]\nThe third rule.\n")
    read = read_back(tmp_path, "notes.pdf", layout(body, footer))
    assert read["2017/1/noot1"] == "The note of the first page."
    assert read["2017/2/noot1"] == "The note of the second page."


def test_roman_numeral_indented_deeper_is_a_subitem_and_at_the_items_indent_the_item(tmp_path):
    items = ", ".join(f"[item {c};]" for c in "abcdefgh")
    body = (f"#law(1)[LETTERS]\n#strong[A. Letters]\n\n#enum(numbering: \"1.\", [A list:\n#enum(numbering: \"(a)\", {items}, "
            f"[item i, with:\n#enum(numbering: \"(i)\", [first;], [second.])])])\n#pagebreak()\n"
            f"#law(2)[MORE]\nText.\n#pagebreak()\n#law(3)[LAST]\nText.\n")
    read = read_back(tmp_path, "roman.pdf", layout(body))
    assert read["2017/1A1h"] == "item h;"
    assert read["2017/1A1i"] == "item i, with:"
    assert read["2017/1A1i.i"] == "first;" and read["2017/1A1i.ii"] == "second."


def test_paragraph_over_a_page_break_is_one_paragraph_word_for_word(tmp_path):
    words = ("Whenever an irregularity occurs the director rectifies it according to these made-up laws "
             "and explains the rectification to the players concerned, who accept it graciously. ") * 9
    body = f"#law(1)[LONG]\n{words}\n\nA last sentence.\n#pagebreak()\n#law(2)[TWO]\nText.\n"
    read = read_back(tmp_path, "long.pdf", layout(body))
    assert read["2017/1"] == "LONG " + words.strip() + " A last sentence."


RUN_IN = r"""
#set page(width: 14cm, height: 16cm, margin: (x: 2cm, y: 1.8cm),
  footer: context align(right, text(size: 8pt, counter(page).display("1"))))
#set text(size: 10pt, lang: "en")
#set par(justify: true)
#let law(n, title) = align(center, block(above: 2em, below: 1em)[#smallcaps[Law #n] \ #text(size: 13pt, weight: "bold")[#title]])

#law(1)[LATENESS]
#strong[A. Early Arrival] A player who arrives before the start of the session takes a seat.

#strong[B. Late Play] A player who arrives late loses the right to choose a seat, and the director may
assign one at a table where a place is free.

#strong[1\. Single Result] In team play a late arrival is not penalised for the first board.

#strong[2\. Several Results] In pair play the late pair scores the average of the room.

#strong[C. Seating Arrangements for Players Who Arrive After the Start of Play] The director seats them.

#strong[D. Witnesses#footnote[A witness is any person at the table.]] A player may call a witness.

#strong[Never] may a player leave before the round ends.

E. Capitals In The Regular Weight Are Text and stay the text of the section above.
#pagebreak()
#law(2)[LEAVING]
#strong[A. Departure] Short.
#pagebreak()
#law(3)[RETURNING]
Text.
"""


def headings(corpus: Path) -> dict:
    """{node ID: its heading's own text} of every node with a heading."""
    return {el.getparent().get("id"): "".join(el.xpath("./text()")).strip()
            for el in etree.parse(str(corpus)).iter("heading")}


def test_bold_heading_run_in_before_its_text_is_read_by_its_weight(tmp_path):
    read = read_back(tmp_path, "runin.pdf", compile_typst(RUN_IN))
    assert sorted(read) == ["2017/1", "2017/1A", "2017/1B", "2017/1B1", "2017/1B2", "2017/1C", "2017/1D",
                            "2017/1D/noot1", "2017/2", "2017/2A", "2017/3"]
    assert headings(tmp_path / "out-runin.pdf" / "corpus.xml") == {
        "2017/1A": "Early Arrival", "2017/1B": "Late Play", "2017/1B1": "Single Result",
        "2017/1B2": "Several Results",
        "2017/1C": "Seating Arrangements for Players Who Arrive After the Start of Play",
        "2017/1D": "Witnesses", "2017/2A": "Departure"}
    assert read["2017/1B"] == ("Late Play A player who arrives late loses the right to choose a seat, and the "
                               "director may assign one at a table where a place is free.")
    assert read["2017/1B1"] == "Single Result In team play a late arrival is not penalised for the first board."
    assert read["2017/1C"] == "Seating Arrangements for Players Who Arrive After the Start of Play The director seats them."
    # The footnote marked in the heading stays the heading's; a bold word that is no numbered heading, and
    # capitals in the regular weight, stay text.
    assert read["2017/1D/noot1"] == "A witness is any person at the table."
    assert read["2017/1D"] == ("Witnesses A witness is any person at the table. A player may call a witness. Never "
                               "may a player leave before the round ends. E. Capitals In The Regular Weight Are Text "
                               "and stay the text of the section above.")
    assert read["2017/2A"] == "Departure Short."
    report = (tmp_path / "out-runin.pdf" / "report.txt").read_text(encoding="utf-8")
    assert ("     p1:5  inference bold 'B. Late Play' at the line's start, followed by text in the "
            "regular weight, read as the heading of section B run in before its text (its font weight)") in report
    assert "     p1:7  inference bold '1. Single Result' at the line's start" in report
    assert "read as the heading of subsection 1 run in" in report
    assert "     p2:3  inference bold 'A. Departure'" in report


# Paragraphs marked by a first-line indent and no space between them (pages with alternating margins, the
# page number at the head's outer corner); a short bold heading followed by a paragraph that starts with a
# bold word; a paragraph that ends at a page foot and one that begins, set in, at the next page's top.
INDENTED = r"""
#set page(width: 10cm, height: 9cm, margin: (inside: 2cm, outside: 1.2cm, y: 1.5cm),
  header: context align(if calc.odd(here().page()) { right } else { left }, text(size: 7pt)[#counter(page).display()]))
#set text(size: 9pt, lang: "en")
#set par(justify: true, first-line-indent: 1.5em, spacing: 0.65em)
#let law(n, title) = block(above: 1.5em, below: 0.65em)[#text(size: 11pt)[Law #n] \ #text(size: 11pt, weight: "bold")[#title]]

#law(1)[SEATS]
#strong[A. Places]

#strong[Never] may a player take another's seat once the round has begun.

The director assigns the seats of latecomers.

He may move a pair to another table when the room is full, and he tells the other players why.

#strong[B. Moving]

A pair that moves takes its boards with it, and the scores of the boards already played stand as they were entered on the travelling score sheets of the section. Nobody disputes that.

Each player checks the board numbers before the next round starts.
#pagebreak()
#law(2)[ROUNDS]
A round lasts as long as the director says.
#pagebreak()
#law(3)[END]
The session ends.
"""


def own_paragraphs(corpus: Path) -> dict:
    """{node ID: the texts of its own paragraphs} of every node with paragraphs."""
    return {el.get("id"): [" ".join("".join(p.itertext()).split()) for p in el.findall("p")]
            for el in etree.parse(str(corpus)).iter() if el.get("id") and el.findall("p")}


def test_paragraphs_marked_by_a_first_line_indent_are_told_apart(tmp_path):
    read_back(tmp_path, "indented.pdf", compile_typst(INDENTED))
    assert own_paragraphs(tmp_path / "out-indented.pdf" / "corpus.xml") == {
        "2017/1A": ["Never may a player take another’s seat once the round has begun.",
                    "The director assigns the seats of latecomers.",
                    "He may move a pair to another table when the room is full, and he tells the other players why."],
        "2017/1B": ["A pair that moves takes its boards with it, and the scores of the boards already played stand "
                    "as they were entered on the travelling score sheets of the section. Nobody disputes that.",
                    "Each player checks the board numbers before the next round starts."],
        "2017/2": ["A round lasts as long as the director says."], "2017/3": ["The session ends."]}
    assert headings(tmp_path / "out-indented.pdf" / "corpus.xml") == {"2017/1A": "Places", "2017/1B": "Moving"}


# A page 7.55 cm high breaks the first paragraph after "circum-" (hyphenated by the typesetter) and the
# second after "left-" (a real hyphen; the book writes "left-hand" elsewhere): the test checks both breaks
# in the PDF before it checks the nodes.
PAGE_BREAK_HYPHENS = r"""
#set page(width: 9cm, height: 7.55cm, margin: (x: 1.4cm, top: 1.5cm, bottom: 1.8cm),
  footer: context align(center, text(size: 8pt)[— #counter(page).display() —]))
#set text(size: 10pt, lang: "en")
#set par(justify: true)
#let law(n, title) = block(above: 1.5em, below: 0.8em)[LAW #n \ #text(size: 12pt)[#title]]

#law(1)[PLAY]
FIRST
#pagebreak()
#law(2)[DUMMY]
#text(hyphenate: false)[SECOND]
#pagebreak()
#law(3)[LAST]
The left-hand opponent leads.
"""
HYPHENATED = ("Each player plays a card in turn, and the director watches the table so that no card is played too "
              "early and none too late. A player who plays out of turn is corrected by the director with "
              "understanding patience, and the irregularity is rectified according to the laws of the game, "
              "whatever the circumstances of the session, the standing of the players concerned or the importance "
              "of the event in which they compete. The rectification is explained to both sides, who accept it "
              "graciously and continue the board without further discussion.")
REAL_HYPHEN = ("When the auction is over the player on the declarer’s left makes the opening lead, face down, and "
               "his partner asks whether it is his turn. The dummy is spread in four columns with the trumps to its "
               "declarer’s right, and the declarer plays both hands. A defender who sees a card of the dummy’s "
               "left-hand opponent exposed asks the director to rule, and the director rules after hearing "
               "everybody at the table, whatever the stage of the play.")


def test_word_hyphenated_across_a_page_break_is_joined_and_a_real_hyphen_kept(tmp_path):
    data = compile_typst(PAGE_BREAK_HYPHENS.replace("FIRST", HYPHENATED).replace("SECOND", REAL_HYPHEN))
    lines = pdfadapter.page_lines(data, "breaks.pdf", "breaks.pdf")
    last = {page: [line.text.strip() for line in lines if line.page == page][-2] for page in (1, 3)}  # above the page number
    first = {page: [line.text for line in lines if line.page == page][0] for page in (2, 4)}
    assert last[1].endswith("whatever the circum-") and first[2].startswith("stances of the session")
    assert last[3].endswith("the dummy’s left-") and first[4].startswith("hand opponent exposed")
    read = read_back(tmp_path, "breaks.pdf", data)
    assert read == {"2017/1": "PLAY " + HYPHENATED, "2017/2": "DUMMY " + REAL_HYPHEN,
                    "2017/3": "LAST The left-hand opponent leads."}
    report = (tmp_path / "out-breaks.pdf" / "report.txt").read_text(encoding="utf-8")
    assert re.search(r"p1:\d+  repair    line-end hyphen joined across a page break \(page furniture at line "
                     r"p1:\d+\)\n\s+'circum-\\\\nstances' -> 'circumstances'", report)
    assert re.search(r"p3:\d+  repair    kept: the hyphenated form is used elsewhere in the sources across a "
                     r"page break \(page furniture at line p3:\d+\)\n\s+'left-\\\\nhand' -> 'left-hand'", report)


# Footnotes numbered through the book (1, 2 on page 1, 3 on page 3), page numbers at the foot below them;
# on a page 7.5 cm high footnote 2 goes on at the foot of page 2, under the text there.
NOTES_THROUGH = r"""
#set page(width: 11cm, height: 7.5cm, margin: (left: 2.2cm, right: 1.2cm, top: 1.4cm, bottom: 2cm),
  footer: context align(left, text(size: 7.5pt)[Page #counter(page).display()]))
#set text(size: 9pt, lang: "en")
#set par(justify: JUSTIFY)
#let law(n, title) = block(above: 1.5em, below: 0.8em)[#text(weight: "bold")[Law #n] \ #text(size: 11pt)[#title]]

#law(1)[OPENING]
The session opens at the time announced.#footnote[Announced by the organiser in the programme.] Players who
are late are dealt with under the law on lateness, and the director records the time of their
arrival.#footnote[LONG] The boards are then played in order.

A board is played at each table in turn, and the scores are entered on the travelling score sheet of the
board before it moves on.
#pagebreak()
#law(2)[CLOSING]
The session closes when the last board is scored.#footnote[Or when the director closes it.]
#pagebreak()
#law(3)[RESULTS]
Results are published.
"""
LONG_NOTE = ("The record is kept with the scores of the session, and it is shown to any player who asks to see it "
             "before the end of the session; it is destroyed after the time for appeals has run out, unless an "
             "appeal was lodged, in which case it is kept until the appeal is decided by the committee.")


@pytest.mark.parametrize("justify", ["true", "false"])
def test_footnotes_numbered_through_the_book_one_going_on_to_the_next_page(tmp_path, justify):
    data = compile_typst(NOTES_THROUGH.replace("LONG", LONG_NOTE).replace("JUSTIFY", justify))
    lines = pdfadapter.page_lines(data, "through.pdf", "through.pdf")
    page2 = [line.text.strip() for line in lines if line.page == 2]
    assert page2[0].startswith("A board is played") and page2[-3].startswith("was lodged") and page2[-1] == "Page 2"
    read = read_back(tmp_path, "through.pdf", data)
    assert sorted(read) == ["2017/1", "2017/1/noot1", "2017/1/noot2", "2017/2", "2017/2/noot1", "2017/3"]
    assert read["2017/1/noot1"] == "Announced by the organiser in the programme."
    assert read["2017/1/noot2"] == LONG_NOTE
    assert read["2017/2/noot1"] == "Or when the director closes it."
    assert read["2017/3"] == "RESULTS Results are published."
    corpus = etree.parse(str(tmp_path / "out-through.pdf" / "corpus.xml"))
    assert [(n.get("id"), n.get("num")) for n in corpus.iter("note")] == [
        ("2017/1/noot1", "1"), ("2017/1/noot2", "2"), ("2017/2/noot1", "3")]
    # The page numbers at the foot are furniture, never a footnote's text or the law's.
    assert not any("Page" in text for text in read.values())
    report = (tmp_path / "out-through.pdf" / "report.txt").read_text(encoding="utf-8")
    assert "inference footnote 2 goes on from page 1 (small type at the page foot, no number)" in report
    starts = ["".join(p.xpath("./text()")).split()[:3] for p in corpus.find(".//article").iter("p")]
    if justify == "true":
        # The paragraph that ends at the foot of page 1 (short of the justified right edge, a sentence ended)
        # and the one at the top of page 2 stay two paragraphs.
        assert starts == [["The", "session", "opens"], ["A", "board", "is"]]
        assert ("     p2:1  inference a new paragraph: the last line of page 1 ends a sentence"
                in report and "pt short of the right edge its text is justified to, so its paragraph ends with "
                              "the page" in report)
    else:
        # Set ragged, the page does not tell: read as going on, and the report says the reading is uncertain.
        assert starts == [["The", "session", "opens"]]
        assert ("     p2:1  inference uncertain: read as going on with the paragraph at the foot of "
                "page 1, whose last line ends a sentence; the page is not set justified" in report)


# A page set ragged that ends a numbered entry with a sentence, and the next entry at the next page's top.
RAGGED_ENTRIES = r"""
#set page(width: 11cm, height: 6cm, margin: (left: 2.2cm, right: 1.2cm, top: 1.4cm, bottom: 2cm),
  footer: context align(left, text(size: 7.5pt)[Page #counter(page).display()]))
#set text(size: 9pt, lang: "en")
#set par(justify: false)
#block[#text(weight: "bold")[Law 1] \ #text(size: 11pt)[OPENING]]
1. The session opens at the time announced by the organiser in the programme of the event.
#pagebreak()
2. Players who are late are dealt with under the law on lateness.
"""


def test_a_ragged_page_break_before_a_numbered_entry_is_no_uncertain_reading(tmp_path):
    # Whether the line at page 2's top goes on with page 1's last paragraph does not matter: its number cuts
    # the paragraph there either way, so the report holds no "uncertain" reading of that page break.
    read = read_back(tmp_path, "ragged.pdf", compile_typst(RAGGED_ENTRIES))
    assert read["2017/1A"] == "The session opens at the time announced by the organiser in the programme of the event."
    assert read["2017/1B"] == "Players who are late are dealt with under the law on lateness."
    report = (tmp_path / "out-ragged.pdf" / "report.txt").read_text(encoding="utf-8")
    assert "uncertain: read as going on" not in report


# Numbered entries with a hanging indent, set at the leading of the text: Law 1's last paragraph stands set out
# at the margin (the text of the article), Law 2's is set in with the entry's lines (its second paragraph).
HANGING_ENTRIES = r"""
#set page(width: 11cm, height: 12cm, margin: (left: 2.2cm, right: 1.2cm, top: 1.4cm, bottom: 2cm),
  footer: context align(left, text(size: 7.5pt)[Page #counter(page).display()]))
#set text(size: 9pt, lang: "en")
#set par(justify: false, spacing: 0.65em)
#set enum(spacing: 0.65em, indent: 0.6em, body-indent: 0.6em)
#block[#text(weight: "bold")[Law 1] \ #text(size: 11pt)[SEATING]]
1. A player may sit down when he is called to his table by the Director of the session.
2. A player may stand up when the round ends at his table and the boards have moved on.
The Director rules on any doubt about where a player sits.
#pagebreak()
#block[#text(weight: "bold")[Law 2] \ #text(size: 11pt)[LEAVING]]
1. A player may leave when the session ends and his scores have been entered on the sheet.
2. A player may leave early when the Director allows it and his partner agrees to it.
   #parbreak() He tells the Director before he leaves the table.
"""


def test_a_paragraph_set_out_from_the_last_entry_closes_the_list(tmp_path):
    read = read_back(tmp_path, "hanging.pdf", compile_typst(HANGING_ENTRIES))
    assert read["2017/1B"] == "A player may stand up when the round ends at his table and the boards have moved on."
    assert read["2017/1"] == "SEATING The Director rules on any doubt about where a player sits."
    assert read["2017/2B"] == ("A player may leave early when the Director allows it and his partner agrees to it. "
                               "He tells the Director before he leaves the table.")


def test_bench_reads_the_dutch_pdf_beside_its_text_sources(tmp_path):
    # `make bench`'s PDF section on the Dutch sources only (the other measurements left out).
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "pipeline.bench", "--out", str(tmp_path / "bench"), "--books", "",
                           "--ratios", "0", "--hostile", "", "--scaling", "", "--pdf-books", "sources"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    [book] = json.loads((tmp_path / "bench" / "bench.json").read_text(encoding="utf-8"))["pdf_books"]
    assert book["book"] == "sources" and book["pdf"]["formats"] == ["pdf"] and book["pdf"]["pages"] > 0
    assert book["text"]["formats"] == ["print", "template", "wiki"]
    # The PDFs' contents lists name only the articles of the five fragments: one error of the book check per
    # edition (test_dutch_pdf_reads_back_as_its_corpus); the text sources have no contents list.
    assert book["pdf"]["errors"] == 2 and book["text"]["errors"] == 0
    assert book["pdf"]["timings"]["read_sources"] > 0 and "Reading a book's PDF" in proc.stdout


# -- untrusted input -----------------------------------------------------------------------------------
def refused(tmp_path: Path, name: str, data: bytes) -> str:
    """The build's error output for a PDF source that must be refused (non-zero exit, no traceback)."""
    folder = pdf_source(tmp_path, name, data)
    result = build(folder, tmp_path / "out", )
    assert result.returncode != 0
    assert name in result.stderr
    return result.stderr


def small_pdf() -> bytes:
    return compile_typst("#set page(width: 10cm, height: 10cm)\nLAW 1\n\nText of the law.")


def test_cut_off_pdf_is_refused(tmp_path):
    data = small_pdf()
    assert "cut off" in refused(tmp_path, "cut.pdf", data[:len(data) * 2 // 3])


def test_damaged_pdf_is_refused(tmp_path):
    assert "damaged" in refused(tmp_path, "bad.pdf", b"%PDF-1.7\n" + b"\x00garbage\n" * 50 + b"%%EOF\n")


def test_encrypted_pdf_is_refused(tmp_path):
    with pikepdf.open(io.BytesIO(small_pdf())) as pdf:
        buffer = io.BytesIO()
        pdf.save(buffer, encryption=pikepdf.Encryption(owner="owner", user="secret"))
    assert "encrypted" in refused(tmp_path, "locked.pdf", buffer.getvalue())


def test_pdf_without_text_says_no_ocr_is_done(tmp_path):
    data = compile_typst("#rect(width: 4cm, height: 4cm, fill: gray)\n#pagebreak()\n#rect(width: 2cm)")
    err = refused(tmp_path, "scan.pdf", data)
    assert "no text layer" in err and "OCR is not done" in err


def test_pdf_of_thousands_of_pages_is_refused(tmp_path):
    pdf = pikepdf.new()
    for _ in range(2500):
        pdf.add_blank_page(page_size=(200, 200))
    buffer = io.BytesIO()
    pdf.save(buffer)
    assert "2500 pages, over the limit" in refused(tmp_path, "long.pdf", buffer.getvalue())


def test_page_of_millions_of_characters_is_refused(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(600, 800))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    page = pdf.pages[0]
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    # Two million characters in strings of 20,000 (the PDF reader takes at most 32,767 from one string).
    line = b"(" + b"x" * 20_000 + b") Tj 0 1 Td "
    page.obj.Contents = pdf.make_stream(b"BT /F1 1 Tf 10 10 Td " + line * 100 + b"ET")
    buffer = io.BytesIO()
    pdf.save(buffer, compress_streams=True)
    err = refused(tmp_path, "dense.pdf", buffer.getvalue())
    assert "page 1 holds" in err and "characters, over the limit" in err
    assert err.count("error:") == 1


# -- characters to lines (made-up glyphs) -----------------------------------------------------------------
WORDS = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,;:()", min_size=1,
                         max_size=9), min_size=1, max_size=12)


def set_line(words: list, y: float, size: float = 10.0, gap: float = 0.3) -> list:
    """Glyphs of `words` on one baseline: each glyph half its size wide, words `gap` sizes apart."""
    glyphs, x = [], 50.0
    for word in words:
        for char in word:
            glyphs.append(pdf_glyphs.Glyph(char, x, x + size / 2, y, y, size, False))
            x += size / 2
        x += gap * size
    return glyphs


@settings(max_examples=60, deadline=None)
@given(WORDS, st.sampled_from([8.0, 10.0, 12.5]))
def test_spaces_are_put_back_from_the_gaps_between_glyphs(words, size):
    line = pdf_lines._page_line("f.pdf", 3, 7, set_line(words, 400.0, size))
    assert line.text == " ".join(words)
    assert (line.num, line.page) == (3007, 3)


@settings(max_examples=40, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8))
def test_lines_come_top_to_bottom_whatever_order_the_glyphs_have(lines):
    glyphs = [g for k, words in enumerate(lines) for g in set_line(words, 500.0 - 14 * k)]
    rows = pdf_lines._rows(list(reversed(glyphs)))
    assert ["".join(g.char for g in row if g.char != " ") for row in rows] == ["".join(w) for w in lines]


def test_a_raised_digit_is_a_footnote_marker_and_a_digit_on_the_baseline_is_text():
    glyphs = set_line(["trick"], 300.0, gap=0)
    x = glyphs[-1].x1
    glyphs.append(pdf_glyphs.Glyph("7", x, x + 3, 300.0, 304.0, 10.0, False))  # a superscript glyph's ink
    glyphs += [pdf_glyphs.Glyph(c, x + 3 + 3 * k, x + 6 + 3 * k, 300.0, 300.0, 10.0, False)
               for k, c in enumerate(", 12")]
    line = pdf_lines._page_line("f.pdf", 1, 1, glyphs)
    assert line.text == "trick7, 12"
    assert line.raised == ((5, 6),)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=9),
                min_size=1, max_size=5), WORDS, st.booleans())
def test_the_bold_at_a_line_start_ends_where_the_weight_changes(head, rest, marker):
    """A run-in heading's end is where the bold ends (bold_head), whatever the words; a footnote marker
    raised in the bold is the heading's, and its offset in the marked text is one NOTE_MARK."""
    glyphs = [pdf_glyphs.Glyph(g.char, g.x0, g.x1, g.y, g.bottom, g.size, True) for g in set_line(head, 300.0)]
    x = glyphs[-1].x1
    if marker:
        glyphs.append(pdf_glyphs.Glyph("1", x, x + 3, 303.0, 303.0, 6.0, True))
        glyphs.append(pdf_glyphs.Glyph("2", x + 3, x + 6, 303.0, 303.0, 6.0, True))
        x += 6
    glyphs += [pdf_glyphs.Glyph(g.char, g.x0 + x, g.x1 + x, g.y, g.bottom, g.size, False)
               for g in set_line(rest, 300.0)]
    line = pdf_lines._page_line("f.pdf", 2, 4, glyphs)
    heading = " ".join(head) + ("12" if marker else "")
    assert line.text[:line.bold_head] == heading
    assert line.text[line.bold_head:].strip() == " ".join(rest)
    assert line.raised == (((len(heading) - 2, len(heading)),) if marker else ())
    marked = line.bold_head - sum(end - start - 1 for start, end in line.raised if end <= line.bold_head)
    assert marked == len(heading) - (1 if marker else 0)


def test_pdf_format_forced_on_a_text_file_is_one_error(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "rules.txt").write_text("LAW 1\nTHE TABLE\nText.\n", encoding="utf-8")
    (folder / "sources.toml").write_text('language = "en"\n\n[[source]]\nfile = "rules.txt"\nedition = "2017"\n'
                                         'format = "pdf"\n', encoding="utf-8")
    result = build(folder, tmp_path / "out")
    assert result.returncode != 0
    assert 'format = "pdf" is set for a file that is not a PDF' in result.stderr
