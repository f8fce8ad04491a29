"""The outline: the book's contents list, read into what it promises (articles, titles, sections, pages).

Reads: the contents part's lines (parts.py). Writes: contents blocks (one per article, cite "53", text its
title; one per section, cite "53A", text its heading; one per other entry, the introduction, the
definitions, the index, without a cite; each with the page it starts on in Block.number where the list
gives it), and the Outline made of them, which guides the reading of the articles (body.py) and which the
book check compares the corpus with (corpus/book.py).

The list's layouts, any of them on any page:
  - an article's entry "LAW 9 - PROCEDURE FOLLOWING" or "LOI 1 - Le jeu de cartes", its title wrapped
    onto the next line (in capitals, or starting in lower case);
  - section headings one per line ("A. Rank of Cards"), wrapped onto the next line, or several on one
    line ("A. The Shuffle B. The Deal");
  - the page number after each entry: after a space, after leader dots ("…… 17"), at the right margin
    (a run of its own where the adapter knows them), or all of a page's numbers in a column of their own
    ("7 7 7 7", or one a line after the entries): they are given to the entries in order.
"""
import re
from dataclasses import dataclass, field

from ...core.model import Block, Dropped, Reading
from ...core.report import FileLog
from .parts import ROMAN
from .stream import PrintedLine
from .words import BookWords

NUMBER_COLUMN = re.compile(r"\d+(?:\s+\d+)*")
# A contents line and the page number it may end with: "The Shuffle 7", "Le jeu de cartes ....... 17".
PAGE_NUMBER_AFTER = re.compile(r"(.*?)(?:(?:\s*\.{2,}\s*|\s+)(\d+))?\s*$")
LEADER_DOTS = re.compile(r"\s*\.{2,}\s*$")


@dataclass(frozen=True)
class Section:
    letter: str
    heading: str
    page: int | None


@dataclass(frozen=True)
class Entry:
    """One article as the contents list gives it."""
    number: str
    title: str
    page: int | None
    line: int
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Outline:
    """The articles a contents list promises, in its order, and the titles of the parts it lists after
    them ("Toelichtingen", "Index", "ANNEXE I - …")."""
    entries: tuple[Entry, ...] = ()
    by_number: dict[str, Entry] = field(default_factory=dict, compare=False)
    after: tuple[str, ...] = ()

    @classmethod
    def of(cls, blocks: list[Block]) -> "Outline":
        """The outline of a reading's contents blocks."""
        entries: list[Entry] = []
        sections: dict[str, list[Section]] = {}
        after: list[str] = []
        for b in blocks:
            if b.kind == "contents" and not b.cite and entries:
                after.append(b.text)
            if b.kind != "contents" or not b.cite:
                continue
            m = re.fullmatch(r"(\d+)([A-Z]?)", b.cite)
            if not m:
                continue
            if m.group(2):
                sections.setdefault(m.group(1), []).append(Section(m.group(2), b.text, b.number))
            else:
                entries.append(Entry(m.group(1), b.text, b.number, b.first_line))
        done = tuple(Entry(e.number, e.title, e.page, e.line, tuple(sections.get(e.number, ()))) for e in entries)
        return cls(done, {e.number: e for e in done}, tuple(after))

    def __bool__(self) -> bool:
        return bool(self.entries)

    def index(self, number: str) -> int | None:
        """The place of article `number` in the list, or None."""
        entry = self.by_number.get(number)
        return None if entry is None else self.entries.index(entry)


def read_contents(pages: list[list[PrintedLine]], reading: Reading, words: BookWords, flog: FileLog) -> None:
    """The contents blocks of the contents part (see the module's docstring), appended to the reading;
    the list's own title and page numbers dropped with their reason."""
    entries: list[Block] = []
    waiting: list[Block] = []  # the entries still without their page number
    article: str | None = None
    letter: str | None = None
    # Articles whose column of page numbers listed more pages than entries stood before it: the pages of its
    # sections, whose entries the extraction prints after other articles' (pdftotext sets a page's indented
    # entries apart): [article, [(page, line)]], in the list's order.
    pending: list[tuple[str, list[tuple[int, int]]]] = []
    fresh = False  # the last line read was an article's entry (its own sections may follow it)
    for page in pages:
        for line in page:
            text = line.text.strip()
            if NUMBER_COLUMN.fullmatch(text):  # page numbers, given to the entries in order
                fresh = False
                given: list[Block] = []
                numbers = text.split()
                for page_number in numbers:
                    if waiting:
                        given.append(waiting.pop(0))
                        given[-1].number = int(page_number)
                        given[-1].lines.append(line.num)
                    elif article is not None and letter is None and entries and entries[-1].cite == article:
                        if not pending or pending[-1][0] != article:
                            pending.append((article, []))
                        pending[-1][1].append((int(page_number), line.num))
                        given.append(entries[-1])  # (counted: the number has its entry, to come)
                if len(given) < len(numbers):
                    flog.damage(line.num, f"contents page numbers {text!r} with {len(given)} entries waiting for them",
                                "the numbers without an entry are not used")
                    reading.dropped.append(Dropped(line.num, "contents page numbers without an entry"))
                continue
            first = not entries and line is page[0] and page is pages[0]
            if ROMAN.match(text) or words.contents_title.match(text) or first:
                what = f"page number {text}" if ROMAN.match(text) else f"title {text!r}" if first else "title"
                reading.dropped.append(Dropped(line.num, f"the contents list's {what}"))
                continue
            if words.index_title.match(text):  # the index's entry, after the last Law's
                article, letter = None, None
                more, number = and_page_number(text)
                entries.append(Block("contents", more, [line.num], number=number))
                if number is None:
                    waiting.append(entries[-1])
                continue
            m = words.contents_article.match(text)
            if m:
                article, letter, fresh = m.group(1), None, True
                title, number = and_page_number(m.group(2))
                block = Block("contents", title.strip(), [line.num], cite=article, number=number)
                entries.append(block)
                if number is None:
                    waiting.append(block)
                continue
            # Section headings: the line's own, or after the end of a wrapped one ("Lead by Declarer C. Play …").
            # (A section's entry after one that has its page number may skip letters: the book's sources may
            # lack sections, as lawbook's own book gives only those it holds.)
            # A run of section entries from "A." that does not follow its article's entry directly (a column of
            # page numbers, or another article's sections, stands between) is the first pending article's.
            if pending and text.startswith("A. ") and not fresh and (article, letter) != (pending[0][0], None):
                flog.inference(line.num, None, f"the section entries from {text[:30]!r} are Law {pending[0][0]}'s: "
                                               f"its column of page numbers (line {pending[0][1][0][1]}) lists "
                                               f"{len(pending[0][1])} more page(s) than entries stand before it, "
                                               f"and the list prints its sections' entries apart from it")
                article, letter = pending[0][0], None
            heads = _headings(text, letter, skip=bool(entries) and entries[-1] not in waiting) if article else []
            inline = None if heads or not (letter and entries) else \
                re.search(rf"(?:^|\s)({chr(ord(letter) + 1)})\.\s", text)
            if inline:
                heads = _headings(text[inline.start(1):], letter)
                entries[-1].text += " " + text[:inline.start()].strip()
                entries[-1].lines.append(line.num)
            if heads:
                fresh = False
                for head, number in heads:
                    letter = head[0]
                    block = Block("contents", head[3:].strip(), [line.num], cite=f"{article}{letter}", number=number)
                    entries.append(block)
                    if number is None and pending and pending[0][0] == article and pending[0][1]:
                        block.number, at = pending[0][1].pop(0)
                        block.lines.append(at)
                        if not pending[0][1]:
                            pending.pop(0)
                    elif number is None:
                        waiting.append(block)
                continue
            if entries and entries[-1] in waiting:  # a wrapped title or heading goes on, to its page number
                last = entries[-1]
                more, page_number_after = and_page_number(text)
                last.text += " " + more
                last.lines.append(line.num)
                if page_number_after is not None and last in waiting:
                    waiting.remove(last)
                    last.number = page_number_after
            else:  # "Definitions", "Introduction …", an annex: no article's
                article, letter = None, None
                more, number = and_page_number(text)
                block = Block("contents", more, [line.num], number=number)
                entries.append(block)
                if number is None:
                    waiting.append(block)
    for _, left in pending:  # pages listed for entries that never came
        for _, at in left:
            flog.damage(at, f"a page number of the contents list for a section entry the list does not print",
                        "not used")
            reading.dropped.append(Dropped(at, "contents page number without an entry"))
    for block in entries:
        block.text = LEADER_DOTS.sub("", block.text).strip()
    reading.blocks += entries


def and_page_number(text: str) -> tuple[str, int | None]:
    """A contents line's words, and the page number it ends with (None where it ends with none)."""
    m = PAGE_NUMBER_AFTER.match(text)
    if m is None:  # (never: the pattern matches every text)
        return text, None
    return m.group(1), int(m.group(2)) if m.group(2) else None


def _headings(text: str, letter: str | None, skip: bool = False) -> list[tuple[str, int | None]]:
    """The section headings on one contents line, each with its page number or None: "A. Rank of Cards
    B. The Face of the Cards" -> [("A. Rank of Cards", None), ("B. The Face of the Cards", None)]. The
    first is the next letter, or A; with `skip`, any later letter."""
    if not re.match(r"[A-Z]\.\s", text):
        return []
    expected = chr(ord(letter) + 1) if letter else None
    if expected and text[0] != expected and text[0] != "A" and not (skip and letter and text[0] > letter):
        return []
    heads: list[str] = []
    start, current = 0, text[0]
    for m in re.finditer(r"\s([A-Z])\.\s", text):
        if m.group(1) == chr(ord(current) + 1):
            heads.append(text[start:m.start()])
            start, current = m.start() + 1, m.group(1)
    heads.append(text[start:])
    return [and_page_number(head) for head in heads]
