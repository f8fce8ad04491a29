"""Reader for a text extraction of the printed book in which each paragraph came out as one line: the
layout of the English original's PDF extraction (the WBF Laws of Duplicate Bridge 2017).

Reads: a source's Lines (after read.py and normalise.py). Writes: a Reading whose blocks are the
articles' headings, titles, sections, subsections, items and paragraphs, with the footnotes as notes;
the page furniture as Dropped lines; gaps where the extraction starts or ends inside an article.

What the extraction does, and how each is undone (every decision in the report):
  - page furniture: a form feed and the page number at each page top (printed.pages());
  - "LAW 53" alone on a line, then the title on one line in capitals;
  - a section, its subsections and items on one line: "A. Heading text 1. text (a) text (b) text 2. …",
    also with missing spaces ("1.A player", "(a)it", "3.(a) Notwithstanding"). A marker is read only
    where it is the next number of its level (B after A, 2 after 1, (b) after (a)), stands after a space
    or at the line start, and is not part of a citation ("by Law" / "19. Law 36 applies": the "19." of a
    citation wrapped onto the next line is never a subsection). A section's heading stays glued to its
    text here (kind "heading-text"); the headings stage splits it (reading/headings.py), with the
    book's contents list as evidence;
  - a paragraph wrapped over short lines, or going on at the top of the next page: a line that starts
    no structure continues the paragraph before it when that one stops mid-sentence;
  - footnotes numbered through the book: the marker glued to the word before ("trick17,",
    "requires13", "ends.5"), the text at the page bottom ("17 A lead out of turn …"), sometimes two on
    one line, wrapped, in lower case, after the next article's heading; a note cited twice gets its
    text at both markers; a digit glued to a word with no footnote of that number on its page, the next
    or one before is text, reported (the rule of notes.Footnotes);
  - roman sub-items "(i)", "(ii.)" below an item: where "(i)" could be the item after (h) or the first
    sub-item, the report says "uncertain" and names both readings;
  - the front matter: a source whose first line is the contents title is the contents list (kept as
    "contents" blocks: evidence for the headings and for the page each article starts on), the index
    is kept apart ("index" blocks, not law text), the definitions are read as "definition" blocks.
"""
import bisect
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from ...core import lang
from ...core.report import BuildLog, FileLog, number_ranges
from ...core.model import CLOSES_LIST, NO_LEAD_IN, NOTE_MARK, PAGES_GAP, Block, Dropped, Gap, Note, Reading, Rules
from .. import notes
from ...core.model import Piece
from ..decode import Line
from . import parts, printed
from .common import Format, ReadSource, looks_like_article, unreadable_heading

ROMAN_NUMBERS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")


@lang.compiled
def patterns(rules: lang.LanguageRules) -> dict:
    """The patterns of the flowed layout, in the words of a language's rules."""
    keywords = "|".join(re.escape(w) for w in (rules.ARTICLES, rules.ARTICLE))
    return {
        "rules": rules,
        # "LAW 22 - END OF AUCTION" / "LAW 12 - DIRECTOR'S DISCRETIONARY POWERS 15" (contents list)
        "contents_article": re.compile(rf"^{re.escape(rules.ARTICLE_WORD_PRINTED)}\s+(\d+)\s*[-\u00ad\u2013\u2014]\s*"
                                       rf"(.*?)(?:\s+(\d+))?\s*$"),
        # The words before a marker that make it part of a citation: "by Law" + "19. Law 36 applies".
        "citing": re.compile(rf"\b(?:{keywords})\s*$", re.IGNORECASE),
        # … and before a number, a citation list going on: "Laws 4, 12C2 and 91."
        "citing_list": re.compile(rf"\b(?:{keywords})\s+\d[\dA-Za-z()]*(?:\s*,\s*\d[\dA-Za-z()]*)*\s*"
                                  rf"(?:,|{'|'.join(map(re.escape, rules.LIST_WORDS))})\s*$", re.IGNORECASE),
        "relative": re.compile(rf"\b(?:{'|'.join(map(re.escape, rules.RELATIVE))})\s*$", re.IGNORECASE),
        # After an item marker, the words that make it a citation of the item: "(d) hereunder".
        "direction": re.compile(rf"\s*(?:{'|'.join(map(re.escape, (*rules.ABOVE, *rules.BELOW)))})\b", re.IGNORECASE),
        "contents_title": rules.CONTENTS_TITLE, "index_title": re.compile(rules.INDEX_TITLE),
        "definitions_title": rules.DEFINITIONS_TITLE, "introduction_title": re.compile(rules.INTRODUCTION_TITLE),
    }


# One footnote's start at a page bottom: "17 A lead out of turn …", "18 as by a gesture or nod".
FOOTNOTE = re.compile(r"^(\d{1,2})\s+(\S.*)$")
# A footnote marker glued to the word before it: "trick17,", "requires13 the", "Declarer10", "ends.5 The".
MARKER = re.compile(r"(?<![\w])([^\W\d_]{2,}[.,;:)]?)(\d{1,2})(?![\w])")
# The inline markers: a section "B. ", a subsection "2. " / "1.A" / "3.(a)", an item "(b)", a sub-item "(ii.)".
SECTION = re.compile(r"([A-Z])\.\s+(?=\S)")
SUBSECTION = re.compile(r"(\d{1,2})\.(?=\s*[A-Z(\[\u2018'\"]|\s*$)")
# A subsection's text may start in lower case at a line's start ("2. defines a subset …", 23A), after
# punctuation or "or"/"and" that leads into a list ("He may: 1. require …; 2. forbid …", 57A), and as
# a section's first subsection ("B. … 1. any double …").
LEADS_IN = re.compile(r"(?:[:;,.]|\s(?:or|and))\s*$")
# What leads in to sections written inline: a colon ("The auction ends when: A. one or more …").
INLINE_LEAD = re.compile(r":\s*$")
# A line of a flattened table: six or more tokens, most of them numbers ("0–10 0 10–40 1 …").
TABLE_ROW = re.compile(r"[\d\u2013\u00ad.,–-]+")
# Brackets with nothing in them: a symbol the extraction lost ("spades ()": a suit symbol).
LOST_SYMBOL = re.compile(r"\(\s*\)")
LINE_SUBSECTION = re.compile(r"(\d{1,2})\.(?=\s*\S)")
ITEM = re.compile(r"\(([a-z])\)\s*(?=\S)")
SUBITEM = re.compile(r"\((i{1,3}|iv|vi{0,3}|ix|xi{0,2})\.?\)\s*(?=\S)")
SENTENCE_END = re.compile(r"[.!?:][)\]\"'\u2019\u201d]*$")


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    """The book's parts (parts.py), each read by its own reader below; then the book's numbering of
    pages and footnotes checked against itself."""
    flog = log.for_file(source.name)
    profile = lang.profile(source.language)
    words = printed.patterns(profile)
    own = patterns(profile)
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    cut, furniture = printed.pages(_joined_page_starts(lines, flog, words["article"]), words)
    book = parts.split(cut, furniture, words, own)
    contents_lines = {line.num for part in book if part.kind == "contents" for line in part.lines}
    # The contents list tells its page numbers from its entries' itself (the furniture rule would take
    # its title for a running header, and its last column of page numbers for the page's number).
    reading.dropped += [Dropped(num, reason) for num, reason in sorted(furniture.items()) if num not in contents_lines]
    shown = [p for p in book if any(line.num not in furniture for line in p.lines)]
    if len(shown) > 1:  # a book, not one part of it: say where each part begins and why
        flog.inference(shown[0].lines[0].num, None, "the source holds " + ", ".join(
            f"{_PART_NAMES[p.kind]} (from line {p.lines[0].num}: {p.evidence})" for p in shown))
    for k, part in enumerate(book):
        pages = [[line for line in page if line.num not in furniture] for page in part.pages]
        if part.kind == "contents":
            _read_contents(part.pages, reading, own, flog)
        elif part.kind == "index":
            _read_apart(pages, reading, "index", "the book's index: evidence of where the law deals with what, "
                                                 "not law text")
        elif part.kind == "definitions":
            _read_definitions(pages, reading, own, flog)
        elif part.kind == "introduction":
            _read_introduction(pages, reading)
        elif part.kind in ("front", "back"):
            reading.blocks += [Block(part.kind, line.text.strip(), [line.num]) for page in pages for line in page]
        elif any(pages):
            # Each run of pages without a gap in their numbers is read on its own: a run after missing
            # pages starts inside an article it cannot know (headings.py places it by its page number).
            # Its last article may break off where pages are missing after it or the file ends with it;
            # when another part of the book follows, the page after the articles is there.
            last = not any(p.kind != "articles" and any(p.pages) for p in book[k + 1:])
            runs = _page_runs(part, cut, furniture)
            for r, run in enumerate(runs):
                run_pages = [pages[i] for i in run if pages[i]]
                if run_pages:
                    _Body(reading, run_pages, words, own, flog, [cut[part.page_index[i]] for i in run], furniture,
                          may_break_off=last or r < len(runs) - 1).read()
    _check_page_numbers(cut, furniture, book, reading, flog)
    return reading


def _page_runs(part: parts.Part, cut: list[list[Line]], furniture: dict[int, str]) -> list[list[int]]:
    """The part's pages (indices into part.pages) cut where the printed page numbers jump ahead: pages
    missing (the same jumps _check_page_numbers reports)."""
    starts = {p for (p0, before), (p, number) in _jumps(_numbered(cut, furniture, part.page_index))
              if number > before + (p - p0)}
    runs: list[list[int]] = []
    for i, p in enumerate(part.page_index):
        if not runs or p in starts:
            runs.append([])
        runs[-1].append(i)
    return runs


def _joined_page_starts(lines: list[Line], flog: FileLog, article: re.Pattern[str]) -> list[Line]:
    """A page number alone on its line after a blank line starts a page where the form feed is missing
    (each such start an inference):
      - in a source whose pages start with a form feed (a file made by joining page files lost the one
        before each file's first page): a number higher than the page before, before an article heading,
        or after a line that ends a sentence and before a paragraph (a number in a table, between its
        headings and cells, is not one);
      - in a source without any form feed: the first such number as above, then each next number in
        turn (the page after the one before, and no bare number after it: a table's column is not one).
    """
    sequence = not any(line.page_break for line in lines)
    texts = [line.text.strip() for line in lines]
    filled = [i for i, t in enumerate(texts) if t]
    around: dict[int, tuple[str, str]] = {}  # line index -> (the non-blank text before, after)
    for k, i in enumerate(filled):
        around[i] = (texts[filled[k - 1]] if k else "", texts[filled[k + 1]] if k + 1 < len(filled) else "")
    out: list[Line] = []
    last: int | None = None
    top = False
    roman = 0  # without form feeds, the last page numbered in roman (the front matter's i, ii, …)
    for i, line in enumerate(lines):
        text = texts[i]
        top = top or line.page_break
        if sequence and i and not texts[i - 1] and printed.ROMAN.match(text) and _roman(text) == roman + 1 \
                and not printed.ROMAN.match(around[i][1]):
            flog.inference(line.num, None, f"page {text} starts here without a form feed: a page number alone "
                                           f"after a blank line, after page {_roman(text) - 1 or 'none'} in roman")
            line, roman = replace(line, page_break=True), roman + 1
        elif text.isdigit() and len(text) <= 4:
            before, after = around[i]
            in_context = bool(article.match(after) or SENTENCE_END.search(before) and
                              (len(after) > 40 or after[:1].islower()))
            if top:
                last = int(text)
            elif i and not texts[i - 1] and (
                    (int(text) == last + 1 and not after.isdigit() if last is not None else in_context) if sequence
                    else last is not None and int(text) > last and in_context):
                flog.inference(line.num, None, f"page {text} starts here without a form feed: a page number alone "
                                               f"after a blank line" + (f", after page {last}" if last else ""))
                line, last = replace(line, page_break=True), int(text)
        if text:
            top = False
        out.append(line)
    return out


def _roman(text: str) -> int:
    """'xiv' -> 14 (a page number in roman; printed.ROMAN says it is one)."""
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    digits = [values[c] for c in text.lower()]
    return sum(-d if k + 1 < len(digits) and d < digits[k + 1] else d for k, d in enumerate(digits))


_PART_NAMES = {"front": "front matter", "introduction": "the introduction", "contents": "the contents list",
               "definitions": "the definitions", "articles": "articles", "index": "the index",
               "back": "back matter"}


def _numbered(cut: list[list[Line]], furniture: dict[int, str], pages: list[int]) -> list[tuple[int, int]]:
    """(page index, printed number) of each of `pages` (indices into cut, in order) numbered in arabic."""
    out: list[tuple[int, int]] = []
    for p in pages:
        label = printed.page_label(cut[p], furniture)
        if label and label.isdigit():
            out.append((p, int(label)))
    return out


def _jumps(numbered: list[tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """((page index, number) before, (page index, number)) wherever a page's number is not the one its
    place after the numbered page before gives: pages missing between them, or out of order."""
    return [(a, b) for a, b in zip(numbered, numbered[1:]) if b[1] != a[1] + (b[0] - a[0])]


def _check_page_numbers(cut: list[list[Line]], furniture: dict[int, str], book: list[parts.Part], reading: Reading,
                        flog: FileLog) -> None:
    """The pages numbered in arabic go up by one through the book: a jump is pages the source lacks (a
    gap of the book's pages; the book check (corpus/book.py) then reports what they held as missing).
    (The contents list and the front matter are left out: their numbers are the list's own or roman.)"""
    listed = sorted({p for part in book if part.kind not in ("contents", "front") for p in part.page_index})
    for (p0, before), (p, number) in _jumps(_numbered(cut, furniture, listed)):
        line, line0 = cut[p][0].num, cut[p0][0].num
        if number > before + 1:  # a gap in the book's pages, not in one article's text
            missing = f"{before + 1}" if number == before + 2 else f"{before + 1}-{number - 1}"
            reading.gaps.append(Gap(line, PAGES_GAP, f"page {number} follows page {before} (line {line0}): the "
                                                     f"book's page(s) {missing} are not in this source"))
        else:
            flog.error(line, f"page {number} comes after page {before} (line {line0}): the pages are out of order "
                             f"or a page number is damaged")


def _read_introduction(pages: list[list[Line]], reading: Reading) -> None:
    """The introduction: its title, then one block per paragraph (a line that starts in lower case or
    continues a sentence the line before left open goes on with it)."""
    started = False
    for page in pages:
        for line in page:
            text = line.text.strip()
            if not started:
                reading.blocks.append(Block("introduction", text, [line.num], cite="title"))
                started = True
                continue
            last = reading.blocks[-1]
            if last.kind == "introduction" and last.cite != "title" and (
                    text[:1].islower() or not SENTENCE_END.search(last.text)):
                last.text += "\n" + text
                last.lines.append(line.num)
                last.pieces.append((line.num, text))
            else:
                reading.blocks.append(Block("introduction", text, [line.num], pieces=[(line.num, text)]))


# -- the contents list ------------------------------------------------------------------------------
def _read_contents(pages: list[list[Line]], reading: Reading, own: dict, flog: FileLog) -> None:
    """Contents blocks: one per article ("contents", cite "53", text its title) and per section (cite
    "53A", text its heading), each with the page it starts on (Block.number) where the list gives it.

    The list's layout: an article's line ("LAW 9 - PROCEDURE FOLLOWING", its title wrapped onto a line
    in capitals), section headings one per line (wrapped onto the next line) or several on one line
    ("A. The Shuffle B. The Deal"), and the page numbers after each entry or in a column of their own
    ("7 7 7 7"): they are given to the entries in order."""
    entries: list[Block] = []
    waiting: list[Block] = []  # the entries still without their page number
    article: str | None = None
    letter: str | None = None
    for page in pages:
        for line in page:
            text = line.text.strip()
            if re.fullmatch(r"\d+(?:\s+\d+)*", text):  # page numbers, given to the entries in order
                given: list[Block] = []
                for page_number in text.split():
                    if waiting:
                        given.append(waiting.pop(0))
                        given[-1].number = int(page_number)
                        given[-1].lines.append(line.num)
                if len(given) < len(text.split()):
                    flog.damage(line.num, f"contents page numbers {text!r} with {len(given)} entries waiting for them",
                                "the numbers without an entry are not used")
                    reading.dropped.append(Dropped(line.num, "contents page numbers without an entry"))
                continue
            if printed.ROMAN.match(text) or text == own["contents_title"]:
                what = "title" if text == own["contents_title"] else f"page number {text}"
                reading.dropped.append(Dropped(line.num, f"the contents list's {what}"))
                continue
            if own["index_title"].match(text):  # the index's entry, after the last Law's
                article, letter = None, None
                entries.append(Block("contents", text, [line.num]))
                waiting.append(entries[-1])
                continue
            m = own["contents_article"].match(text)
            if m:
                article, letter = m.group(1), None
                block = Block("contents", m.group(2).strip(), [line.num], cite=article)
                entries.append(block)
                waiting.append(block)
                if m.group(3):
                    waiting.remove(block)
                    block.number = int(m.group(3))
                continue
            # Section headings: the line's own, or after the end of a wrapped one ("Lead by Declarer C. Play …").
            heads = _contents_headings(text, letter) if article else []
            inline = None if heads or not (letter and entries) else \
                re.search(rf"(?:^|\s)({chr(ord(letter) + 1)})\.\s", text)
            if inline:
                heads = _contents_headings(text[inline.start(1):], letter)
                entries[-1].text += " " + text[:inline.start()].strip()
                entries[-1].lines.append(line.num)
            if heads:
                for head, number in heads:
                    letter = head[0]
                    block = Block("contents", head[3:].strip(), [line.num], cite=f"{article}{letter}", number=number)
                    entries.append(block)
                    if number is None:
                        waiting.append(block)
                continue
            if entries:  # a wrapped title or heading goes on
                last = entries[-1]
                more, page_number_after = _and_page_number(text)
                last.text += " " + more
                last.lines.append(line.num)
                if page_number_after is not None and last in waiting:
                    waiting.remove(last)
                    last.number = page_number_after
            else:  # "Definitions", before the first article
                block = Block("contents", text, [line.num])
                entries.append(block)
                waiting.append(block)
    reading.blocks += entries


def _and_page_number(text: str) -> tuple[str, int | None]:
    """A contents line's words, and the page number it ends with (None where it ends with none)."""
    m = PAGE_NUMBER_AFTER.match(text)
    if m is None:  # (never: the pattern matches every text)
        return text, None
    return m.group(1), int(m.group(2)) if m.group(2) else None


# A contents line and the page number it may end with: "The Shuffle 7".
PAGE_NUMBER_AFTER = re.compile(r"(.*?)(?:\s+(\d+))?\s*$")


def _contents_headings(text: str, letter: str | None) -> list[tuple[str, int | None]]:
    """The section headings on one contents line, each with its page number or None: "A. Rank of Cards
    B. The Face of the Cards" -> [("A. Rank of Cards", None), ("B. The Face of the Cards", None)]."""
    if not re.match(r"[A-Z]\.\s", text):
        return []
    expected = chr(ord(letter) + 1) if letter else None
    if expected and text[0] != expected and text[0] != "A":
        return []
    heads: list[str] = []
    start, current = 0, text[0]
    for m in re.finditer(r"\s([A-Z])\.\s", text):
        if m.group(1) == chr(ord(current) + 1):
            heads.append(text[start:m.start()])
            start, current = m.start() + 1, m.group(1)
    heads.append(text[start:])
    return [_and_page_number(head) for head in heads]


def _read_apart(pages: list[list[Line]], reading: Reading, kind: str, why: str) -> None:
    """Every line of the source as one block of `kind`, kept out of the law text (the index)."""
    for page in pages:
        for line in page:
            reading.blocks.append(Block(kind, line.text.strip(), [line.num]))
    reading.subject = why


def _read_definitions(pages: list[list[Line]], reading: Reading, own: dict, flog: FileLog) -> None:
    """The definitions: "Term: text", one per line, the term with its brackets and quotes as the book
    writes it ("International Matchpoint (IMP):", 'Penalty (see also "Rectification"):'); a line that
    starts no term continues the one before."""
    started = False
    for page in pages:
        for line in page:
            text = line.text.strip()
            first, started = not started, True
            if text == own["definitions_title"] and first:
                reading.blocks.append(Block("part-title", text, [line.num]))
                continue
            m = parts.DEFINITION.match(text)
            if m and len(m.group(1)) <= parts.TERM_LENGTH:
                reading.blocks.append(Block("definition", m.group(2), [line.num], cite=m.group(1),
                                            pieces=[(line.num, m.group(2))]))
            elif reading.blocks and reading.blocks[-1].kind == "definition":
                reading.blocks[-1].pieces.append((line.num, text))
                reading.blocks[-1].lines.append(line.num)
            else:
                flog.damage(line.num, f"{text[:40]!r} starts no definition", "kept as a paragraph")
                reading.blocks.append(Block("para", text, [line.num], pieces=[(line.num, text)]))


# -- the articles -----------------------------------------------------------------------------------
@dataclass
class _Numbering:
    """The numbers open inside the current article, for "the next number of its level"."""
    section: str | None = None
    subsection: str | None = None
    item: str | None = None
    subitem: str | None = None
    inline: bool = False  # its sections are written inline after a lead-in ("… ends when: A. …")


class _Paragraph(NamedTuple):
    """An article heading, title or paragraph of the page's lines (kind article, unreadable, title or para)."""
    kind: str
    cite: str | None
    pieces: list[Piece]
    page: int


class _Marker(NamedTuple):
    """A marker that opens a block: where it starts and ends in the paragraph, its level and number (None
    for the paragraph's start and end)."""
    start: int
    end: int
    level: str | None
    number: str | None


class _Ambiguous(NamedTuple):
    """A "(i)" after item (h): read as item (i), perhaps the first sub-item of (h)."""
    line: int
    letter: str
    before: str | None  # the item before it


class _Body:
    """The articles of a run of pages: lines to paragraphs (with their footnotes), paragraphs to
    blocks at their inline markers."""

    def __init__(self, reading: Reading, pages: list[list[Line]], words: dict, own: dict, flog: FileLog,
                 cut: list[list[Line]], furniture: dict[int, str], may_break_off: bool = True) -> None:
        self.reading, self.pages, self.words, self.own, self.flog = reading, pages, words, own, flog
        self.cut, self.furniture, self.may_break_off = cut, furniture, may_break_off
        # The numbering inside the current article, for "the next number of its level". A page that
        # starts inside an article starts with nothing open.
        self.state = _Numbering()
        self.ambiguous: list[_Ambiguous] = []  # "(i)" after "(h)", item or sub-item
        self.paragraph_starts: set[int] = set()  # id() of each block that begins a paragraph of the page

    def read(self) -> None:
        self.start = len(self.reading.blocks)  # this run's blocks are the ones from here on
        footnotes = self._footnotes()  # {page: [(number, [(line, text)])]}
        self.feet = notes.Footnotes([notes.Footnote(number, p, [n for n, _ in pieces], "\n".join(t for _, t in pieces),
                                                    list(pieces))
                                     for p in sorted(footnotes) for number, pieces in footnotes[p]])
        self.marked: list[tuple[int, int, Note]] = []  # (page, line, Note) of each marker, in the text's order
        note_lines = {n for notes in footnotes.values() for _, pieces in notes for n, _ in pieces}
        body = [(line, p) for p, page in enumerate(self.pages) for line in page if line.num not in note_lines]
        reading = self.reading
        if body and not self.words["article"].match(body[0][0].text.strip()):
            reading.gaps.append(Gap(body[0][0].num, None, "the page starts inside an article whose beginning is "
                                                          "on an earlier page, which is not in the sources"))
        for kind, cite, pieces, page in self._paragraphs(body):
            if kind == "article":
                self.state = _Numbering()
                reading.blocks.append(Block("article", pieces[0][1], [pieces[0][0]], cite=cite))
            elif kind == "unreadable":
                keyword = self.words["keyword"]
                reading.blocks.append(unreadable_heading(
                    self.flog, pieces[0][0], pieces[0][1],
                    f"'{keyword}' and the number alone on its line, as in '{keyword} 53'"))
            elif kind == "title":
                # A footnote marker glued to the title ("… CARDS2") is the title's own note.
                pieces, marks = self._mark_notes(pieces, page)
                reading.blocks.append(Block("title", " ".join(t for _, t in pieces), [n for n, _ in pieces],
                                            notes=marks))
            else:
                pieces, marks = self._mark_notes(pieces, page)
                split = self._split(pieces, marks)
                if split:
                    self.paragraph_starts.add(id(split[0]))
                reading.blocks += split
        self._attach()
        self._check_footnote_numbers(footnotes)
        self._resolve_items()
        _mark_no_lead_in(reading.blocks[self.start:])
        _mark_closing(reading.blocks[self.start:], self.paragraph_starts)
        if body and self.may_break_off:
            printed.cut_off(reading, self.cut, self.furniture, self.cut[-1][-1].num, self.flog, self.own["rules"],
                             measure=lambda page: sum(len(line.text.strip()) for line in page), unit="characters")

    # -- footnotes ---------------------------------------------------------------------------------
    def _footnotes(self) -> dict[int, list[tuple[str, list[Piece]]]]:
        """The footnotes at each page's bottom: from the first line that starts with the number of a
        marker seen on this page or the one before, every line to the page end. A line holding two
        ("13 If … see Law 59. 14 If the partner …") is cut at the next such number."""
        found: dict[int, list[tuple[str, list[Piece]]]] = {}
        seen: set[str] = set()  # marker numbers in the text of the page before
        for p, page in enumerate(self.pages):
            here = {m.group(2) for line in page for m in MARKER.finditer(line.text)}
            candidates = seen | here
            seen = here
            start = next((i for i, line in enumerate(page)
                          if (m := FOOTNOTE.match(line.text.strip())) and m.group(1) in candidates), None)
            if start is None:
                continue
            notes: list[tuple[str, list[Piece]]] = []
            for line in page[start:]:
                text = line.text.strip()
                m = FOOTNOTE.match(text)
                if not (m and (not notes or m.group(1) in candidates)):
                    notes[-1][1].append((line.num, text))  # the footnote before, wrapped
                    continue
                number, rest = m.group(1), m.group(2)
                while cut := next((c for c in re.finditer(r"(?<=[.!?])\s+(\d{1,2})\s+(?=\S)", rest)
                                   if c.group(1) in candidates and c.group(1) != number), None):
                    notes.append((number, [(line.num, rest[:cut.start()])]))
                    number, rest = cut.group(1), rest[cut.end():]
                notes.append((number, [(line.num, rest)]))
            found[p] = notes
        return found

    def _resolve_items(self) -> None:
        """"(i)" after item (h) was read as item (i): where the next marker of the list is item (j), the
        book says so; where it is "(ii)", or there is none, both readings fit: "uncertain"."""
        if not self.ambiguous:
            return
        blocks = self.reading.blocks[self.start:]
        # One pass each way: where each item stands (by its number and lines), and the list marker or article
        # heading that follows each block (a scan per "(i)" made a page of them quadratic).
        items: dict[tuple[int | None, int], int] = {}
        for k, b in enumerate(blocks):
            if b.kind == "list" and b.level == 1:
                for n in b.lines:
                    items.setdefault((b.number, n), k)
        following: list[Block | None] = [None] * len(blocks)
        seen: Block | None = None
        for k in range(len(blocks) - 1, -1, -1):
            following[k] = seen
            b = blocks[k]
            if b.kind == "article" or b.kind == "list" and b.level in (1, 2):
                seen = b
        for line, letter, before in self.ambiguous:
            value = ord(letter) - 96
            at = items.get((value, line))
            after = None if at is None else following[at]
            after = after if after is not None and after.kind == "list" else None
            if after is not None and after.level == 1 and after.number == value + 1:
                self.flog.inference(line, None, f"'({letter})' after item ({before}) read as item ({letter}), not as "
                                                f"the first sub-item of ({before}): item ({chr(96 + value + 1)}) "
                                                f"follows it (line {after.first_line})")
            else:
                self.flog.inference(line, None, f"'({letter})' after item ({before}) is uncertain: read as item "
                                                f"({letter}), the next letter; it could be the first sub-item (i) "
                                                f"of ({before})")

    def _check_footnote_numbers(self, footnotes: dict) -> None:
        """The book numbers its footnotes through: each number from the first to the last is printed
        (from 1 where these pages start with the book's first article)."""
        printed_at = {int(n): pieces[0][0] for notes in footnotes.values() for n, pieces in notes}
        if not printed_at:
            return
        first_article = next((b for b in self.reading.blocks[self.start:] if b.kind == "article" and b.cite), None)
        low = 1 if first_article is not None and first_article.cite == "1" else min(printed_at)
        missing = [n for n in range(low, max(printed_at) + 1) if n not in printed_at]
        if missing:
            after = max((n for n in printed_at if n < missing[0]), default=None)
            where = f" (after footnote {after} at line {printed_at[after]})" if after else ""
            self.flog.error(printed_at[min(n for n in printed_at if n > missing[0])],
                            f"the book's footnote(s) {number_ranges(missing)} are printed at no page foot{where}: "
                            f"the book numbers its footnotes through, so a page or a footnote is missing")

    def _mark_notes(self, pieces: list[Piece], page: int) -> tuple[list[Piece], list[Note]]:
        """(the pieces with each marker replaced by NOTE_MARK, the Notes in order). A digit glued to a word is
        a marker where the rule of notes.Footnotes finds it a footnote of its number (at the bottom of its
        page, the next or, a note cited twice, an earlier one); without one it stays text, reported."""
        out: list[Piece] = []
        marks: list[Note] = []
        for num, text in pieces:
            def mark(m: re.Match[str]) -> str:
                number = m.group(2)
                if not self.feet.has(number, page, num):
                    self.flog.damage(num, f"'{m.group()}' looks like a footnote marker, but no footnote {number} "
                                          f"is at the bottom of this page, the next or one before", "kept as text")
                    return m.group()
                marks.append(Note(text="", lines=[num], form="print", number=number))
                self.marked.append((page, num, marks[-1]))
                return m.group(1) + NOTE_MARK
            out.append((num, MARKER.sub(mark, text)))
        return out, marks

    def _attach(self) -> None:
        """Every note its footnote's text by the rule of notes.Footnotes (a footnote cited twice at both
        markers); a footnote without a marker is an error, and its text is kept as a paragraph."""
        seen: set[str] = set()
        for f in self.feet.all:
            if f.number in seen:
                self.flog.error(f.position, f"footnote {f.number} is printed twice")
            seen.add(f.number)
        matched = self.feet.match(self.marked)
        notes.give_texts(matched, self.flog)
        for note in matched.unmatched:
            self.flog.error(note.lines[0], f"footnote marker {note.number} has no footnote at the bottom of its "
                                           f"page or the next")
        for footnote in matched.unused:
            self.flog.error(footnote.position, f"footnote {footnote.number} has no marker in the text before it")
            self.reading.blocks.append(Block("para", footnote.text, list(footnote.lines), pieces=list(footnote.pieces)))

    # -- lines to paragraphs -----------------------------------------------------------------------
    def _paragraphs(self, body: list[tuple[Line, int]]) -> list[_Paragraph]:
        """(kind, cite, pieces, page) per article heading, title and paragraph. A line continues the
        paragraph before when it starts in lower case, or starts no structure and the paragraph stopped
        mid-sentence, or the paragraph stopped at a citation keyword ("by Law" / "19. Law 36 applies":
        the number ends the citation, it starts no subsection); else it is a paragraph of its own."""
        out: list[_Paragraph] = []
        k = 0
        while k < len(body):
            line, page = body[k]
            text = line.text.strip()
            k += 1
            self._report_damage(line.num, text)
            if m := self.words["article"].match(text):
                out.append(_Paragraph("article", m.group(1), [(line.num, text)], page))
                if k < len(body) and (t := body[k][0].text.strip()).isupper() and not self._starts_structure(t):
                    out.append(_Paragraph("title", None, [(body[k][0].num, t)], page))
                    k += 1
                continue
            if looks_like_article(text, self.words["keyword"]):  # "LAW 41A", "LAW41x": never text of the Law before
                out.append(_Paragraph("unreadable", None, [(line.num, text)], page))
                continue
            last = out[-1] if out else None
            if last and last.kind == "para":
                before = last.pieces[-1][1]
                if self.own["citing"].search(before) or text[:1].islower() or (
                        not self._starts_structure(text) and not SENTENCE_END.search(before)):
                    last.pieces.append((line.num, text))
                    continue
            out.append(_Paragraph("para", None, [(line.num, text)], page))
        return out

    def _report_damage(self, num: int, text: str) -> None:
        """What the extraction lost and no repair can restore: reported, the text kept as it is."""
        tokens = text.split()
        if len(tokens) >= 6 and sum(bool(TABLE_ROW.fullmatch(t)) for t in tokens) * 5 >= len(tokens) * 3:
            self.flog.damage(num, f"{text[:60]!r} looks like a row of a flattened table", "kept as text, not repaired")
        for m in LOST_SYMBOL.finditer(text):
            self.flog.damage(num, f"empty brackets in {text[max(0, m.start() - 20):m.end()]!r}: a symbol the "
                                  f"extraction lost (a suit symbol?)", "kept as text; the symbol is not guessed")

    def _starts_structure(self, text: str) -> bool:
        return bool(self.words["article"].match(text) or SECTION.match(text) or LINE_SUBSECTION.match(text)
                    or ITEM.match(text) or SUBITEM.match(text))

    # -- paragraphs to blocks at their markers ------------------------------------------------------
    def _split(self, pieces: list[Piece], notes: list[Note]) -> list[Block]:
        """The blocks of one paragraph, cut at each marker that is the next number of its level; the
        notes go to the blocks that hold their marks."""
        joined = ""
        starts: list[tuple[int, int]] = []  # (offset in the paragraph, line) of each piece
        for num, text in pieces:
            starts.append((len(joined) + (1 if joined else 0), num))
            joined = f"{joined}\n{text}" if joined else text
        cuts = self._markers(joined, pieces[0][0])
        bounds = [_Marker(0, 0, None, None)] + cuts
        blocks = []
        for (s0, e0, level, number), nxt in zip(bounds, bounds[1:] + [_Marker(len(joined), len(joined), None, None)]):
            if level is None and e0 == nxt.start:
                continue
            blocks.append(self._block(level, number, joined, e0, nxt.start, starts, s0))
        for block in blocks:
            count = block.text.count(NOTE_MARK)
            block.notes, notes = notes[:count], notes[count:]
        return blocks

    @staticmethod
    def _block(level: str | None, number: str | None, joined: str, start: int, end: int, starts: list[tuple[int, int]],
               marker_start: int) -> Block:
        # The highest line number among the starts at or before an offset, by bisection over the starts
        # (the offsets go up): a search of all of them per piece made a paragraph of many lines quadratic.
        offsets = [s for s, _ in starts]
        highest = list(itertools.accumulate((n for _, n in starts), max))

        def line_at(offset: int) -> int:
            k = bisect.bisect_right(offsets, offset)
            return highest[k - 1] if k else starts[0][1]
        pieces: list[Piece] = []
        offset = start
        for part in joined[start:end].split("\n"):
            if part.strip():
                pieces.append((line_at(offset), part.strip()))
            offset += len(part) + 1
        lines = sorted({line_at(marker_start)} | {n for n, _ in pieces})
        text = "\n".join(t for _, t in pieces)
        if level == "section":
            return Block("heading-text", text, lines, cite=number, pieces=pieces)
        if level is None or number is None:
            return Block("para", text, lines, pieces=pieces)
        value = int(number) if level == "subsection" else \
            ord(number) - 96 if level == "item" else ROMAN_NUMBERS.index(number) + 1
        return Block("list", text, lines, number=value, level=LIST_LEVELS.index(level), pieces=pieces)

    def _markers(self, text: str, line: int) -> list[_Marker]:
        """The markers in `text` that are the next number of their level, in order: each at the start or
        after a space (or right after another marker: "3.(a)")."""
        out: list[_Marker] = []
        pos = 0
        while pos < len(text):
            if pos == 0 or text[pos - 1].isspace() or (out and out[-1].end == pos):
                found = self._marker_at(text, pos, line)
                if found:
                    out.append(found)
                    pos = found.end
                    continue
            pos += 1
        return out

    def _marker_at(self, text: str, pos: int, line: int) -> _Marker | None:
        state, at_start, before = self.state, pos == 0, text[max(0, pos - 80):pos]
        if m := SECTION.match(text, pos):
            expected = chr(ord(state.section) + 1) if state.section else "A"
            # Sections written inline after a colon may start in lower case ("… ends when: A. one or
            # more … B. all four …"); so may the next ones, once the first did.
            lower_ok = INLINE_LEAD.search(before) or (state.inline and LEADS_IN.search(before))
            if at_start or (m.group(1) == expected and (text[m.end()].isupper() or lower_ok)
                            and not self.own["citing"].search(before)):
                inline = not at_start and not text[m.end()].isupper()
                self.state = state = _Numbering(section=m.group(1), inline=inline)
                if inline:
                    self.flog.inference(line, None, f"'{m.group().strip()} {text[m.end():m.end() + 20]}…' read as "
                                                    f"section {m.group(1)}, written inline after a lead-in")
                return _Marker(pos, m.end(), "section", m.group(1))
        subsection_lower_ok = at_start or LEADS_IN.search(before) or state.subsection is None
        if m := (LINE_SUBSECTION if subsection_lower_ok else SUBSECTION).match(text, pos):
            expected = str(int(state.subsection) + 1) if state.subsection else "1"
            cited = self.own["citing"].search(before) or self.own["citing_list"].search(before)
            if cited and m.group(1) == expected and SUBSECTION.match(text, pos) and \
                    re.search(rf"(?:^|\s){int(m.group(1)) + 1}\.\s*[A-Z(]", text[m.end():]):
                # "… Infraction of Law 1. A player … 2. In general …": the next number follows, so this
                # one is the subsection, not the end of a citation.
                self.flog.inference(line, None, f"'{m.group(1)}.' after {before.split()[-1]!r} read as subsection "
                                                f"{m.group(1)}, not as a citation: subsection "
                                                f"{int(m.group(1)) + 1} follows it")
                cited = None
            if (at_start or m.group(1) == expected) and not cited:
                state.subsection, state.item, state.subitem = m.group(1), None, None
                end = m.end()
                while end < len(text) and text[end] == " ":
                    end += 1
                return _Marker(pos, end, "subsection", m.group(1))
        m_item, m_sub = ITEM.match(text, pos), SUBITEM.match(text, pos)
        marker = m_item or m_sub
        if marker is None:
            return None
        # "see (a)", "(d) hereunder": a citation of an item, not one; a citation never writes the
        # numeral with a dot, so "(iv.) following a …" is the sub-item.
        dotted = bool(m_sub and ".)" in m_sub.group())
        if not dotted and (self.own["relative"].search(before)
                           or self.own["direction"].match(text, marker.end())):
            return None
        expected_item = chr(ord(state.item) + 1) if state.item else "a"
        expected_sub = ROMAN_NUMBERS[ROMAN_NUMBERS.index(state.subitem) + 1] if state.subitem else "i"
        as_sub = bool(m_sub and state.item and m_sub.group(1) == expected_sub)
        as_item = bool(m_item and state.subsection and (
            m_item.group(1) == expected_item or (at_start and not as_sub)))
        if as_item and as_sub and m_item:  # decided by what follows, once the article is read (_resolve_items)
            self.ambiguous.append(_Ambiguous(line, m_item.group(1), state.item))
        if as_item and m_item:
            state.item, state.subitem = m_item.group(1), None
            return _Marker(pos, m_item.end(), "item", m_item.group(1))
        if as_sub and m_sub:
            state.subitem = m_sub.group(1)
            return _Marker(pos, m_sub.end(), "subitem", m_sub.group(1))
        return None


def _mark_closing(blocks: list[Block], starts: set[int]) -> None:
    """A paragraph of its own right after a list's last entry (no entry of the same level with the next
    number follows it before the next heading) closes the list: its block says so (cite CLOSES_LIST,
    level the list's), and structure.py makes it text of the list's parent. Where the list goes on after
    it, it is the entry's own second paragraph (a page break inside an item)."""
    for k, block in enumerate(blocks):
        if block.kind != "para" or id(block) not in starts or not k or blocks[k - 1].kind != "list":
            continue
        last = blocks[k - 1]
        after = next((b for b in blocks[k + 1:] if b.kind in ("list", "heading-text", "article")), None)
        goes_on = after is not None and after.kind == "list" and (
            after.level > last.level or after.level == last.level and last.number is not None
            and after.number == last.number + 1)
        if not goes_on:
            block.cite, block.level = CLOSES_LIST, last.level


def _mark_no_lead_in(blocks: list[Block]) -> None:
    """A list number written right before the next level's first marker ("1.(a) if …", "(g) (i) to …")
    has no text of its own: the book writes no lead-in there, so none is missing (finish.py makes no
    gap for it). Its block says so with cite NO_LEAD_IN."""
    for block, after in zip(blocks, blocks[1:]):
        if block.kind == "list" and not block.text.strip() and not block.notes and after.kind == "list" \
                and after.level == block.level + 1 and after.number == 1:
            block.cite = NO_LEAD_IN


LIST_LEVELS = ("subsection", "item", "subitem")  # a list block's level, below the section it stands in


def has_flowed_layout(texts: list[str], profile: lang.Profile) -> bool:
    """From the whole file, never its first page alone: the book's contents list (its title followed by an
    entry "LAW 1 - TITLE"), or page numbers alone on their lines and paragraphs of one long line each (a
    quarter of the lines over 160 characters, or a section marker with its text on one long line)."""
    own = patterns(profile)
    title, entry = own["contents_title"], own["contents_article"]
    for i, t in enumerate(texts):
        if t.strip() == title and any(entry.match(u.strip()) for u in texts[i + 1:i + 4]):
            return True
    if not any(printed.is_page_number(t.strip()) for t in texts):
        return False
    long_lines = sum(1 for t in texts if len(t) > 160)
    return long_lines >= 2 and long_lines * 4 >= len(texts) or any(len(t) > 160 and SECTION.match(t) for t in texts)


FORMAT = Format(
    "flowed", read, signs=((19, has_flowed_layout),), notes=("print",),
    # The book writes section letters, subsection numbers and item letters: each is the node's as
    # written. A "1." directly under an article stands for a section letter the page did not write.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "source",
                              "subitem": "source"},
                articles_go_up=True))
