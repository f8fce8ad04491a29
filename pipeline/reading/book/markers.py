"""A paragraph of an article cut into blocks at its markers: sections, subsections, items, sub-items.

Reads: one paragraph (its lines as the page broke them, with their notes) and the numbering open in its
article. Writes: its blocks: "heading-text" for a section (its heading still glued to its text; the
headings stage splits it, reading/headings.py) or "heading" and "para" where the layout shows where the
heading ends (the font's weight), "list" for a subsection, item or sub-item (level 0, 1, 2 below the
section; Block.marker the marker's form), "para" for text.

A marker is read only where it is the next number of its level (B after A, 2 after 1, (b) after (a)),
stands at the paragraph's start or after a space, and is not part of a citation ("by Law" / "19. Law 36
applies": the "19." of a citation wrapped onto the next line is never a subsection), also with missing
spaces ("1.A player", "(a)it", "3.(a) Notwithstanding"). A subsection's text may start in lower case at
a line's start, after punctuation or "or"/"and" that leads into a list, and as a section's first; sections
written inline after a colon may start in lower case ("The auction ends when: A. one or more …").
A roman "(i)" after item (h) is item (i) or the first sub-item of (h): the markers' indents decide where
the adapter knows them; else what follows (item (j) after it), and where nothing decides, "uncertain"
names both readings (resolve_items).
"""
import bisect
import itertools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ...core.model import CLOSES_LIST, NO_LEAD_IN, NOTE_MARK, Block, Note, Piece
from ...core.report import FileLog
from .words import BookWords

ROMAN_NUMBERS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")
LIST_LEVELS = ("subsection", "item", "subitem")  # a list block's level, below the section it stands in
MARKER_FORMS = {"subsection": "number", "item": "letter", "subitem": "roman"}
SECTION = re.compile(r"([A-Z])\.\s+(?=\S)")
BARE_SECTION = re.compile(r"([A-Z])\.\s*$")  # "A." alone: a section the book gives no heading
SUBSECTION = re.compile(r"(\d{1,2})\.(?=\s*[A-Z(\[\u2018'\"]|\s*$)")
LINE_SUBSECTION = re.compile(r"(\d{1,2})\.(?=\s*\S)")
ITEM = re.compile(r"\(([a-z])\)\s*(?=\S)")
SUBITEM = re.compile(r"\((i{1,3}|iv|vi{0,3}|ix|xi{0,2})\.?\)\s*(?=\S)")
INLINE_LEAD = re.compile(r":\s*$")


@dataclass
class Numbering:
    """The numbers open inside the current article, for "the next number of its level"."""
    section: str | None = None
    subsection: str | None = None
    item: str | None = None
    subitem: str | None = None
    inline: bool = False  # its sections are written inline after a lead-in ("… ends when: A. …")
    item_indent: float | None = None  # where the last item marker at a line's start stands (x), where known


class Marker(NamedTuple):
    """A marker that opens a block: where it starts and ends in the paragraph, its level and number (None
    for the paragraph's start and end)."""
    start: int
    end: int
    level: str | None
    number: str | None


class Ambiguous(NamedTuple):
    """A "(i)" after item (h): read as item (i), perhaps the first sub-item of (h)."""
    line: int
    letter: str
    before: str | None


@dataclass
class Paragraph:
    """Lines of one paragraph as the page broke them, with the layout's evidence per line: how much of its
    start is bold (in the marked text's offsets), and its indent from the page's margin."""
    pieces: list[Piece]
    notes: list[Note] = field(default_factory=list)
    bold: dict[int, int] = field(default_factory=dict)  # line -> bold characters at its start
    indent: dict[int, float] = field(default_factory=dict)  # line -> its x from the page's margin
    page: int = 0
    set_in: bool = False  # its first line is set in from the line before it (a first-line indent)


class Splitter:
    """The blocks of an article's paragraphs, in order (one per article run: the numbering is its)."""

    def __init__(self, words: BookWords, flog: FileLog, bold_sections: bool = False, step: float = 1.5) -> None:
        self.words, self.flog = words, flog
        self.step = step  # how much deeper a marker is set in than the item markers to be a level below them
        # The book sets its section letters bold (where the adapter knows the weights): a letter at a line's
        # start in the regular weight is text ("E. Capitals In The Regular Weight …").
        self.bold_sections = bold_sections
        self.state = Numbering()
        self.ambiguous: list[Ambiguous] = []
        self.last_text = ""  # the end of the paragraph before, in this article

    def new_article(self) -> None:
        self.state = Numbering()
        self.last_text = ""

    def split(self, paragraph: Paragraph) -> list[Block]:
        """The blocks of one paragraph, cut at each marker that is the next number of its level; the
        notes go to the blocks that hold their marks."""
        pieces, notes = paragraph.pieces, list(paragraph.notes)
        joined = ""
        starts: list[tuple[int, int]] = []  # (offset in the paragraph, line) of each piece
        for num, text in pieces:
            starts.append((len(joined) + (1 if joined else 0), num))
            joined = f"{joined}\n{text}" if joined else text
        cuts = self._markers(joined, pieces[0][0], paragraph, starts)
        self.last_text = joined[-80:]
        bounds = [Marker(0, 0, None, None)] + cuts
        blocks: list[Block] = []
        for (s0, e0, level, number), nxt in zip(bounds, bounds[1:] + [Marker(len(joined), len(joined), None, None)]):
            if level is None and e0 == nxt.start:
                continue
            blocks += self._blocks(level, number, joined, e0, nxt.start, starts, s0, paragraph)
        for block in blocks:
            count = block.text.count(NOTE_MARK)
            block.notes, notes = notes[:count], notes[count:]
        return blocks

    def _blocks(self, level: str | None, number: str | None, joined: str, start: int, end: int,
                starts: list[tuple[int, int]], marker_start: int, paragraph: Paragraph) -> list[Block]:
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
        if level == "section" and number is not None:
            return self._section(number, pieces, lines, marker_start, start, starts, paragraph)
        if level is None or number is None:
            return [Block("para", text, lines, pieces=pieces)]
        value = int(number) if level == "subsection" else \
            ord(number) - 96 if level == "item" else ROMAN_NUMBERS.index(number) + 1
        block = Block("list", text, lines, number=value, level=LIST_LEVELS.index(level), pieces=pieces,
                      marker=MARKER_FORMS[level])
        run_in = self._bold_run_in(block, marker_start, start, starts, paragraph) if level == "subsection" else None
        return [block, run_in] if run_in is not None else [block]

    def _bold_span(self, marker_start: int, start: int, starts: list[tuple[int, int]],
                   paragraph: Paragraph) -> int | None:
        """How many characters after a marker at a line's start the font sets bold (the heading), where
        the adapter knows the weights; None where it does not, or the marker is inside a line."""
        line = next((num for offset, num in starts if offset == marker_start), None)
        if line is None or line not in paragraph.bold:
            return None
        return max(paragraph.bold[line] - (start - marker_start), 0)

    def _section(self, letter: str, pieces: list[Piece], lines: list[int], marker_start: int, start: int,
                 starts: list[tuple[int, int]], paragraph: Paragraph) -> list[Block]:
        """A section's block: its heading and text glued ("heading-text", split by the headings stage)
        where the layout does not show where the heading ends; where the font's weight shows it, the
        heading (the bold words, and the bold lines that go on with them) and a paragraph of the rest."""
        text = "\n".join(t for _, t in pieces)
        bold = self._bold_span(marker_start, start, starts, paragraph)
        if bold is None:
            return [Block("heading-text", text, lines, cite=letter, pieces=pieces)]
        head: list[Piece] = []
        rest: list[Piece] = []
        for k, (num, piece) in enumerate(pieces):
            if rest:
                rest.append((num, piece))
                continue
            cut = bold if k == 0 else paragraph.bold.get(num, 0)
            if cut >= len(piece) and (k == 0 or head):
                head.append((num, piece))
            elif cut > 0 and (k == 0 or head):
                head.append((num, piece[:cut].strip()))
                if piece[cut:].strip():
                    rest.append((num, piece[cut:].strip()))
            else:
                rest.append((num, piece))
        head = [(n, t) for n, t in head if t]
        heading = Block("heading", " ".join(t for _, t in head), sorted({n for n, _ in head} | {lines[0]}),
                        cite=letter, pieces=head)
        out = [heading]
        if head and rest and rest[0][0] == head[-1][0]:
            shown = f"{letter}. {heading.text}".replace(NOTE_MARK, "")
            self.flog.inference(head[-1][0], None, f"bold {shown!r} at the line's start, followed by text in the "
                                                   f"regular weight, read as the heading of section {letter} run in "
                                                   f"before its text (its font weight)")
        if rest:
            out.append(Block("para", "\n".join(t for _, t in rest), [n for n, _ in rest], pieces=rest))
        return out

    def _bold_run_in(self, block: Block, marker_start: int, start: int, starts: list[tuple[int, int]],
                     paragraph: Paragraph) -> Block | None:
        """A subsection's heading run in before its text in bold ("1. Single Result In team play …"): its
        heading block (without a cite: structure gives it to the subsection), cut from the block's text."""
        bold = self._bold_span(marker_start, start, starts, paragraph)
        if not bold or not block.pieces or bold >= len(block.pieces[0][1]):
            return None
        num, first = block.pieces[0]
        head, rest = first[:bold].strip(), first[bold:].strip()
        if not head or not rest or not head[:1].isupper():
            return None
        block.pieces[0] = (num, rest)
        block.text = "\n".join(t for _, t in block.pieces)
        self.flog.inference(num, None, f"bold '{block.number}. {head.replace(NOTE_MARK, '')}' at the line's start, "
                                       f"followed by text in the regular weight, read as the heading of subsection "
                                       f"{block.number} run in before its text (its font weight)")
        return Block("heading", head, [num], pieces=[(num, head)])

    def _markers(self, text: str, line: int, paragraph: Paragraph, starts: list[tuple[int, int]]) -> list[Marker]:
        """The markers in `text` that are the next number of their level, in order: each at the start or
        after a space (or right after another marker: "3.(a)")."""
        out: list[Marker] = []
        line_starts = {offset: num for offset, num in starts}
        # The lines set wholly in bold, or a section's heading alone on its line where the weights are not known:
        # a citation keyword ending one ("B. Infraction of Law") cites nothing on the next line ("1. A player …").
        pieces = dict(paragraph.pieces)
        headings = {num for num, text in pieces.items() if paragraph.bold.get(num, 0) >= len(text.rstrip())
                    or num not in paragraph.bold and SECTION.match(text) and _heading_line(text)}
        previous = {offset: starts[k - 1][1] for k, (offset, _) in enumerate(starts) if k}
        pos = 0
        while pos < len(text):
            if pos == 0 or text[pos - 1].isspace() or (out and out[-1].end == pos):
                indent = paragraph.indent.get(line_starts[pos]) if pos in line_starts else None
                bold = paragraph.bold.get(line_starts[pos]) if pos in line_starts else None
                after_heading = previous.get(pos) in headings
                found = self._marker_at(text, pos, line_starts.get(pos, line), indent, pos in line_starts, bold,
                                        after_heading)
                if found:
                    out.append(found)
                    pos = found.end
                    continue
            pos += 1
        return out

    def _marker_at(self, text: str, pos: int, line: int, indent: float | None, line_start: bool,
                   bold: int | None = None, after_heading: bool = False) -> Marker | None:
        """The marker at `pos`, if one opens a block there. At the paragraph's start any marker does; at a
        line's start the next number of its level does, its text in either case; inside a line the next
        number whose text starts as the level's text does."""
        state, at_start, before = self.state, pos == 0, text[max(0, pos - 80):pos]
        words = self.words
        bare = BARE_SECTION.match(text, pos) if at_start and "\n" not in text else None
        # Sections listed after a lead-in ("The auction ends when: A. one or more … B. all four …"): their
        # letters may be set in the regular weight in a book that sets its headed sections' letters bold.
        context = before if pos else self.last_text  # (a paragraph's start: the paragraph before leads in)
        led = bool(INLINE_LEAD.search(context) or state.inline and words.leads_in.search(context))
        regular = self.bold_sections and line_start and bold is not None and bold < 2 and not led
        if (m := SECTION.match(text, pos) or bare) and not regular:
            expected = chr(ord(state.section) + 1) if state.section else "A"
            follows = text[m.end():m.end() + 1]
            lower_ok = led or line_start
            if at_start or (m.group(1) == expected and (follows.isupper() or lower_ok)
                            and not words.citing.search(before)):
                inline = led or (not at_start and not follows.isupper())
                self.state = state = Numbering(section=m.group(1), inline=inline)
                if inline and not line_start:
                    self.flog.inference(line, None, f"'{m.group().strip()} {text[m.end():m.end() + 20]}…' read as "
                                                    f"section {m.group(1)}, written inline after a lead-in")
                return Marker(pos, m.end(), "section", m.group(1))
        subsection_lower_ok = at_start or line_start or words.leads_in.search(before) or state.subsection is None
        if m := (LINE_SUBSECTION if subsection_lower_ok else SUBSECTION).match(text, pos):
            expected = str(int(state.subsection) + 1) if state.subsection else "1"
            cited = not after_heading and (words.citing.search(before) or words.citing_list.search(before))
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
                return Marker(pos, end, "subsection", m.group(1))
        m_item, m_sub = ITEM.match(text, pos), SUBITEM.match(text, pos)
        marker = m_item or m_sub
        if marker is None:
            return None
        # "see (a)", "(d) hereunder": a citation of an item, not one; a citation never writes the
        # numeral with a dot, so "(iv.) following a …" is the sub-item.
        # At a line's start the next number of its level is the marker whatever word follows it ("(iv)
        # following an opponent's request …").
        expected_item = chr(ord(state.item) + 1) if state.item else "a"
        expected_sub = ROMAN_NUMBERS[ROMAN_NUMBERS.index(state.subitem) + 1] if state.subitem else "i"
        next_at_line_start = line_start and (bool(m_item and m_item.group(1) == expected_item and state.subsection)
                                             or bool(m_sub and state.item and m_sub.group(1) == expected_sub))
        dotted = bool(m_sub and ".)" in m_sub.group())
        if not dotted and not next_at_line_start and (words.relative.search(before)
                                                      or words.direction.match(text, marker.end())):
            return None
        as_sub = bool(m_sub and state.item and m_sub.group(1) == expected_sub)
        as_item = bool(m_item and state.subsection and (
            m_item.group(1) == expected_item or (at_start and not as_sub)))
        if as_item and as_sub and m_item and indent is not None and state.item_indent is not None:
            # The markers' indents decide: "(i)" set in deeper than the item markers is a sub-item.
            deeper = indent > state.item_indent + self.step
            self.flog.inference(line, None, f"'({m_item.group(1)})' after item ({state.item}) read as "
                                            + (f"a sub-item: its marker is set in deeper than the item markers"
                                               if deeper else f"item ({m_item.group(1)}): its marker stands where "
                                                               f"the item markers stand"))
            as_item, as_sub = not deeper, deeper
        elif as_item and as_sub and m_item:  # decided by what follows, once the article is read (resolve_items)
            self.ambiguous.append(Ambiguous(line, m_item.group(1), state.item))
        if as_item and m_item:
            state.item, state.subitem = m_item.group(1), None
            if indent is not None:  # (the last item's: a page's margin may differ from the first item's page)
                state.item_indent = indent
            return Marker(pos, m_item.end(), "item", m_item.group(1))
        if as_sub and m_sub:
            state.subitem = m_sub.group(1)
            return Marker(pos, m_sub.end(), "subitem", m_sub.group(1))
        return None


def _heading_line(text: str) -> bool:
    """A section's heading on a line of its own: short, ending no sentence or clause ("B. Infraction of Law")."""
    return len(text) <= 90 and not re.search(r"[.:;,!?)]$", text.strip())


def resolve_items(blocks: list[Block], ambiguous: list[Ambiguous], flog: FileLog) -> None:
    """"(i)" after item (h) was read as item (i): where the next marker of the list is item (j), the
    book says so; where it is "(ii)", or there is none, both readings fit: "uncertain"."""
    if not ambiguous:
        return
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
    for line, letter, before in ambiguous:
        value = ord(letter) - 96
        at = items.get((value, line))
        after = None if at is None else following[at]
        after = after if after is not None and after.kind == "list" else None
        if after is not None and after.level == 1 and after.number == value + 1:
            flog.inference(line, None, f"'({letter})' after item ({before}) read as item ({letter}), not as "
                                       f"the first sub-item of ({before}): item ({chr(96 + value + 1)}) "
                                       f"follows it (line {after.first_line})")
        else:
            flog.inference(line, None, f"'({letter})' after item ({before}) is uncertain: read as item "
                                       f"({letter}), the next letter; it could be the first sub-item (i) "
                                       f"of ({before})")


def mark_closing(blocks: list[Block], starts: set[int], indents: dict[int, tuple[int, float]], step: float,
                 flog: FileLog) -> None:
    """A paragraph of its own right after a list's last entry (no entry of the same level with the next
    number follows it before the next heading) closes the list: its block says so (cite CLOSES_LIST,
    level the list's), and corpus/structure/ makes it text of the list's parent. Where the list goes on after
    it, it is the entry's own second paragraph (a page break inside an item). Where the layout gives the
    lines' indents (`indents`: line -> its page and its x from the page's margin), a paragraph set on the
    entry's page where the last entry's own lines stand (within `step`) is that entry's second paragraph;
    one set further out closes the list.
    Where no indent tells, the paragraph closes the list and the report says that reading is uncertain."""
    for k, block in enumerate(blocks):
        if block.kind != "para" or id(block) not in starts or not k or blocks[k - 1].kind != "list":
            continue
        last = blocks[k - 1]
        after = next((b for b in blocks[k + 1:] if b.kind in ("list", "heading-text", "heading", "article")), None)
        goes_on = after is not None and after.kind == "list" and (
            after.level > last.level or after.level == last.level and last.number is not None
            and after.number == last.number + 1)
        if goes_on:
            continue
        here = indents.get(block.first_line)
        entry = indents.get(last.lines[1]) if len(last.lines) > 1 else None  # the entry's own lines' indent
        if here is not None and entry is not None and here[0] == entry[0]:
            if here[1] >= entry[1] - step:
                continue  # set as the entry's own lines are: its second paragraph
        else:
            words = " ".join(block.text.split()[:6]).replace(NOTE_MARK, "")
            flog.inference(block.first_line, None, f"uncertain: the paragraph '{words} …' after the list's last "
                                                   f"entry read as closing the list (text of what the list "
                                                   f"belongs to), not as that entry's own paragraph: no indent "
                                                   f"tells which")
        block.cite, block.level = CLOSES_LIST, last.level


def mark_no_lead_in(blocks: list[Block]) -> None:
    """A list number written right before the next level's first marker ("1.(a) if …", "(g) (i) to …")
    has no text of its own: the book writes no lead-in there, so none is missing (finish.py makes no
    gap for it). Its block says so with cite NO_LEAD_IN."""
    for block, after in zip(blocks, blocks[1:]):
        if block.kind == "list" and not block.text.strip() and not block.notes and after.kind == "list" \
                and after.level == block.level + 1 and after.number == 1:
            block.cite = NO_LEAD_IN
