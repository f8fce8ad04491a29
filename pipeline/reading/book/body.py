"""The articles of a book: its lines read by an ordered list of block rules into paragraphs, headings and
titles, and the paragraphs cut into blocks at their markers (markers.py).

Reads: a run of pages of the articles part (their lines without furniture), the footnotes collected on
them (footnotes.py), the outline of the book's contents list where the source has one (outline.py).
Writes: the reading's blocks: "article" (cite its number; without a cite a line that starts like a
heading but does not read as one, an error), "title", "heading-text" / "heading", "list", "para", "table".

The rules (RULES, in order; the first that takes a line wins; each uses the evidence its line has and
falls back where the adapter left a field None):
  table        a table the page sets in columns (tables.py: a PDF's or a -layout text's runs): one block of
               its rows and cells, "table";
  remark       an editorial remark of the book's maker: italic lines in square brackets (a PDF);
  article      an article heading: "LAW 16", "Artikel 16", "LOI 1 - LE JEU DE CARTES"; where the book has a
               contents list, the next article it gives (the outline guides: a citation at a line's start,
               "Law 26B).", is never a heading, and the heading of the article already open again is its
               running head);
  title        the lines after a heading that are its title: the outline's title, matched loosely; else set
               larger than the body (a PDF), in capitals, or a short capitalised line and its wrapped lines;
  unreadable   a line in the form of a heading that does not read as one ("LAW 41A", "ARTIKEL 24 Getoonde …"):
               an error, the text up to the next heading set aside (corpus/structure/);
  continues    the line goes on with the paragraph before (continues());
  paragraph    a new paragraph.
A line goes on with the paragraph before (continues) when nothing starts on it (an article heading, a
section letter, a list marker) and
  - a PDF: it stands within the body's leading below the line before, in the same size and not set in
    (a first-line indent begins a paragraph); over a page break, unless the page's last line ends a
    sentence short of the right edge the page is justified to (on a page set ragged, uncertain: logged);
  - a text: it starts in lower case, or the line before stopped mid-sentence or at a citation keyword
    ("by Law" / "19. Law 36 applies"), or (a text wrapped at a measure) the line before ends a sentence but
    is full: the next line's first word would not have fitted on it.
"""
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.model import NOTE_MARK, Block, Dropped, Gap, Note, Piece, Reading
from ...core.report import FileLog
from .. import notes
from . import markers, tables
from .footnotes import Collected
from .furniture import is_heading_like
from .layout import Layout, Placed
from .markers import BARE_SECTION, ITEM, LINE_SUBSECTION, SECTION, SUBITEM, Paragraph, Splitter
from .outline import Outline
from .parts import LONG_HEADING
from .stream import PrintedLine
from .words import BookWords

# A line of a flattened table: six or more tokens, most of them numbers ("0–10 0 10–40 1 …").
TABLE_ROW = re.compile(r"[\d\u2013\u00ad.,–-]+")
# Brackets with nothing in them: a symbol the extraction lost ("spades ()": a suit symbol).
LOST_SYMBOL = re.compile(r"\(\s*\)")
SECTION_START = re.compile(r"[A-Z]\.\s+(\w)")  # a section's letter and a word (capitalised: section_start)
_LIST_START = re.compile(rf"(?:{LINE_SUBSECTION.pattern}|{ITEM.pattern}|{SUBITEM.pattern})")
# A line that starts with a bullet or a dash before its text ("-ne pas attaquer …", "• …"): its next lines
# hang, set in as far as its text.
BULLET = re.compile(r"[-\u2013\u2022]\s?[^\W\d_]")
CITATION_TAIL = re.compile(r"[A-Z]?\d*(?:\s*\(\w{1,4}\))*\s*[).,;:\]]")
WORD = re.compile(r"[^\W\d_]{2,}")


def continues_heading(text: str) -> bool:
    """A wrapped title's or heading's next line: it starts in lower case and does not end a sentence
    or a clause (a paragraph's first line starts with a capital)."""
    text = text.strip()
    return text[:1].islower() and not re.search(r"[.:;,!?]$", text) and NOTE_MARK not in text


def _plain(text: str) -> str:
    """A text for loose comparison: letters and digits only, lower case, accents and ligatures as letters."""
    text = unicodedata.normalize("NFKD", text.replace(NOTE_MARK, ""))
    return "".join(c for c in text.lower() if c.isalnum())


@dataclass
class BodyLine(Placed):
    """A body line as the rules see it: the printed line, its text with markers as NOTE_MARK (layout.Placed),
    its notes and how many characters at its start are set bold (in the text's offsets)."""
    notes: list[Note] = field(default_factory=list)
    bold: int = 0

    @property
    def num(self) -> int:
        return self.printed.num


@dataclass
class State:
    """What the rules share while they read a run of pages."""
    lines: list[BodyLine]
    pos: int = 0
    paragraph: Paragraph | None = None
    last: BodyLine | None = None  # the paragraph's last line
    title: Block | None = None  # a title still open (its lines may go on)
    expect_title: bool = False
    article: str | None = None  # the article open
    next_entry: int = 0  # the outline's next article
    blocks: list[Block] = field(default_factory=list)


Rule = Callable[["Articles", State, "BodyLine"], bool]


class Articles:
    """The articles of a run of pages (see the module's docstring)."""

    def __init__(self, reading: Reading, pages: list[list[PrintedLine]], collected: Collected, words: BookWords,
                 flog: FileLog, outline: Outline, body_size: float | None, vocabulary: Callable[[], set[str]]) -> None:
        self.reading, self.words, self.flog, self.outline = reading, words, flog, outline
        self.pages, self.collected, self.body_size, self.vocabulary = pages, collected, body_size, vocabulary
        # (A marker set in by less than half a character's size stands where the markers of its level do: the
        # widths of "(a)" and "(i)" differ.)
        self.splitter = Splitter(words, flog, _bold_sections(pages), step=0.5 * body_size if body_size else 1.5)
        self.layout = Layout(pages, body_size, flog, collected.foot_lines | collected.lone)
        self.paragraph_starts: set[int] = set()
        self.remark_lines: list[BodyLine] = []
        self.lines_by_num: dict[int, BodyLine] = {}
        self.tables: dict[int, tables.Table] = {}

    # -- the run --------------------------------------------------------------------------------------
    def read(self) -> list[Block]:
        lines = []
        for p, page in enumerate(self.pages):
            for printed in page:
                if printed.num in self.collected.foot_lines:
                    continue
                text, marks = self.collected.marked.get(printed.num, (printed.text, []))
                bold = printed.bold_head or 0
                if bold and printed.raised:  # the offsets of the marked text: each raised run one NOTE_MARK
                    bold -= sum(end - start - 1 for start, end in printed.raised if end <= bold)
                lines.append(BodyLine(printed, text, p, marks, bold))
        # The tables the pages set in columns (tables.py), by the index of their first line.
        found = tables.find([(line.printed, line.text) for line in lines],
                            self.layout.leading if self.layout.geometry else None)
        self.tables = {table.first: table for table in found}
        in_tables = {lines[i].num for table in found for i in range(table.first, table.last + 1)}
        for line in lines:
            if line.num not in in_tables:  # (a table read as one is no flattened table)
                self._report_damage(line.num, line.text.strip())
        self.lines_by_num = {line.num: line for line in lines}
        state = State(lines)
        if lines and not self.words.heading(lines[0].text.strip()):
            self.reading.gaps.append(Gap(lines[0].num, None, "the page starts inside an article whose beginning is "
                                                             "on an earlier page, which is not in the sources"))
        while state.pos < len(lines):
            line = lines[state.pos]
            state.pos += 1
            for _, rule in RULES:
                if rule(self, state, line):
                    break
            else:  # (never: the last rule takes every line)
                raise AssertionError(f"no rule took line {line.num}")
        self._close(state)
        markers.resolve_items(state.blocks, self.splitter.ambiguous, self.flog)
        markers.mark_no_lead_in(state.blocks)
        indents = {line.num: (line.page, x) for line in lines
                   if (x := self.layout.indent(line.printed, line.page)) is not None}
        markers.mark_closing(state.blocks, self.paragraph_starts, indents, self.splitter.step, self.flog)
        # (A block that begins inside a line shares it with the block before: that line's start went on.)
        self.layout.settle({block.first_line for before, block in zip([None, *state.blocks], state.blocks)
                            if block.lines and (before is None or block.first_line not in before.lines)})
        return state.blocks

    def _close(self, state: State) -> None:
        """The open paragraph into blocks at its markers."""
        if state.paragraph is not None:
            split = self.splitter.split(state.paragraph)
            if split:
                self.paragraph_starts.add(id(split[0]))
            state.blocks += split
        state.paragraph, state.last, state.title = None, None, None

    def _report_damage(self, num: int, text: str) -> None:
        """What the extraction lost and no repair can restore: reported, the text kept as it is."""
        tokens = text.split()
        if len(tokens) >= 6 and sum(bool(TABLE_ROW.fullmatch(t)) for t in tokens) * 5 >= len(tokens) * 3:
            self.flog.damage(num, f"{text[:60]!r} looks like a row of a flattened table", "kept as text, not repaired")
        for m in LOST_SYMBOL.finditer(text):
            self.flog.damage(num, f"empty brackets in {text[max(0, m.start() - 20):m.end()]!r}: a symbol the "
                                  f"extraction lost (a suit symbol?)", "kept as text; the symbol is not guessed")

    # -- the rules ------------------------------------------------------------------------------------
    def table(self, state: State, line: BodyLine) -> bool:
        """A table the page sets in columns (tables.py): one block of its rows and cells, its lines and its
        footnote markers in the order its cells are read."""
        found = self.tables.get(state.pos - 1)
        if found is None:
            return False
        self._close(state)
        span = state.lines[found.first:found.last + 1]
        notes = [span[i - found.first].notes[k] for i, k in found.marks]
        text = " ".join(cell for row in found.rows for cell in row.cells if cell)
        state.blocks.append(Block("table", text, [line.num for line in span], notes=notes, rows=found.rows))
        state.pos = found.last + 1
        return True

    def remark(self, state: State, line: BodyLine) -> bool:
        """An editorial remark of the book's maker: italic lines in square brackets ("[title missing]"):
        not law text, dropped with the reason."""
        text = line.text.strip()
        if not line.printed.italic or not (self.remark_lines or text.startswith("[")):
            self.remark_lines = []
            return False
        self.remark_lines.append(line)
        if text.endswith("]"):
            said = " ".join(other.text.strip() for other in self.remark_lines)
            for other in self.remark_lines:
                self.reading.dropped.append(Dropped(other.num, f"an editorial remark of the book's maker, in "
                                                               f"italics in square brackets: {said[:60]!r}"))
            self.remark_lines = []
            self._close(state)
        return True

    def article(self, state: State, line: BodyLine) -> bool:
        text = line.text.strip()
        found = self.words.heading(text)
        if found is None:
            return False
        number, title = found
        if self.outline:
            k = self.outline.index(number)
            if number == state.article and self._repeat(state, line, text):
                return True
            if k is None and not self.words.capitals.match(text) and title is None:
                return False  # "Law 12" alone, no article of the list: a citation wrapped onto a line of its own
            if k is not None and k < state.next_entry:
                self.flog.error(line.num, f"{text!r} is the heading of article {number}, which the contents list "
                                          f"gives before the article read last ({state.article}): the pages are out "
                                          f"of order, or the line is no heading")
            if k is not None:
                state.next_entry = max(state.next_entry, k + 1)
        self._close(state)
        self.splitter.new_article()
        state.article = number
        heading = text if title is None else text[:text.index(title)].rstrip(" -\u2013\u2014\u00ad")
        state.blocks.append(Block("article", heading, [line.num], cite=number))
        if title is not None:
            block = Block("title", title, [line.num], notes=list(line.notes))
            state.blocks.append(block)
            state.title, state.expect_title = block, False
        else:
            state.expect_title = True
        return True

    def _repeat(self, state: State, line: BodyLine, text: str) -> bool:
        """The heading of the article open again, at a page's top: the page's running head."""
        previous = self.pages[line.page][0] if line.page < len(self.pages) else None
        if previous is None or previous.num != line.num:
            return False
        self.reading.dropped.append(Dropped(line.num, f"running header {text!r}: the heading of article "
                                                      f"{state.article}, open since an earlier page, repeated at "
                                                      f"the page's top"))
        return True

    def title(self, state: State, line: BodyLine) -> bool:
        text = line.text.strip()
        if state.expect_title:
            state.expect_title = False
            if self._starts_structure(text) or not self._is_title(state, line, text, first=True):
                return False
            state.title = Block("title", text, [line.num], notes=list(line.notes))
            state.blocks.append(state.title)
            return True
        block = state.title
        if block is None or self._starts_structure(text) or not self._is_title(state, line, text, first=False):
            state.title = None
            return False
        joined = self._capitals_joined(block.text, line, text)
        block.text = joined if joined is not None else f"{block.text} {text}"
        block.lines.append(line.num)
        block.notes += line.notes
        return True

    def _is_title(self, state: State, line: BodyLine, text: str, first: bool) -> bool:
        """The line is (the next line of) the title of the article just begun: the outline's title, matched
        loosely; else set larger than the body; else in capitals, or short and capitalised (and its wrapped
        lines in capitals after capitals, or starting in lower case)."""
        entry = self.outline.by_number.get(state.article or "") if self.outline else None
        if entry is not None and entry.title:
            want = _plain(entry.title)
            have = _plain(("" if first or state.title is None else state.title.text + " ") + text)
            if want.startswith(have) or have.startswith(want):
                return bool(have) and (first or len(_plain(state.title.text if state.title else "")) < len(want))
            if not first:
                return False
        if line.printed.size is not None and self.body_size is not None:
            return line.printed.size > self.body_size * 1.1
        if first:
            return (text.isupper() or is_heading_like(text, LONG_HEADING)) and NOTE_MARK not in text[:-1]
        before = state.title.text if state.title is not None else ""
        if len(before) + 1 + len(text) > LONG_HEADING:
            return False
        return (before.isupper() and text.isupper()) or continues_heading(text)

    def unreadable(self, state: State, line: BodyLine) -> bool:
        """A line in the form of an article heading that does not read as one: an error, never text of the
        article before (the text up to the next heading is set aside)."""
        text = line.text.strip()
        if not self._looks_like_heading(text):
            return False
        keyword = self.words.keyword
        self._close(state)
        self.flog.error(line.num, f"{text!r} looks like an article heading but does not read as one: a heading is "
                                  f"'{keyword}' and the article number alone on its line, as in '{keyword} 24'; the text up "
                                  f"to the next heading is not read until the line is corrected")
        state.blocks.append(Block("article", text, [line.num]))
        state.article = None
        return True

    def _looks_like_heading(self, text: str) -> bool:
        """The article word, capitalised or in capitals, then a digit ("LAW 41A", "Artikel41x", "ARTIKEL 24
        Getoonde …"). Running text that starts with a citation is not one: after the word in the printed
        capitals nothing is, but after the word capitalised, a citation ending in punctuation ("Law 26B).",
        "Law 43B2(b)].") or any word in lower case ("Law 45E (Fifth Card Played to a Trick) or Law") is."""
        m = self.words.start.match(text)
        if not m or not m.group(1)[0].isupper():
            return False
        if m.group(1) == self.words.keyword:
            return True
        rest = text[m.end() - 1:].lstrip("0123456789")
        if CITATION_TAIL.match(rest):
            return False
        return not any(w.group()[0].islower() for w in WORD.finditer(rest))

    def continues(self, state: State, line: BodyLine) -> bool:
        if line.num in self.collected.lone:
            return self._lone_marker(state, line)
        if state.paragraph is None or state.last is None:
            return False
        text, before_line = line.text.strip(), state.last
        before = state.paragraph.pieces[-1][1]
        if BARE_SECTION.fullmatch(before.strip()):  # "A." alone: its heading is on the next line
            self._join(state, line)
            return True
        if self.words.citing.search(before) and not self.words.heading(text):
            self._join(state, line)
            return True
        # A section's letter and a capitalised word at the line's start begin a paragraph, whatever the letter
        # (a letter out of its order is then the structure stage's error, never text of the section before),
        # unless the book sets its section letters bold and this one is not. Any other marker at the line's
        # start opens nothing here: the paragraph is cut at its markers once it is whole, where each is the
        # next number of its level (markers.py), so a citation wrapped onto the line's start ("… under
        # either" / "(a) or (b) any …") stays text.
        start = SECTION_START.match(text)
        if start and start.group(1).isupper() and not (self.splitter.bold_sections and
                                                       line.printed.bold_head is not None and line.bold < 2):
            return False
        hanging = any(_LIST_START.match(t) or BULLET.match(t) for _, t in state.paragraph.pieces)
        if hanging and not _LIST_START.match(text) and self._set_out(state.paragraph, line):
            return False
        single = len(state.paragraph.pieces) == 1 and state.paragraph.set_in
        goes_on = self.layout.goes_on(before_line, line, before, hanging, single)
        if goes_on:
            self._join(state, line)
        return goes_on

    def _set_out(self, paragraph: Paragraph, line: BodyLine) -> bool:
        """The line stands left of the lines of the paragraph's last list entry (by the splitter's step or
        more, where the layout gives the indents, on the page of the entry's line before it): it is no text of
        that entry, it begins a paragraph (which closes the list, markers.mark_closing). An entry of one line
        so far gives no evidence (its marker may stand set in from its text's margin), nor a line in lower
        case (its sentence goes on), nor a line on another page (its margin is another)."""
        here = self.layout.indent(line.printed, line.page)
        before = self.lines_by_num.get(paragraph.pieces[-1][0])
        if here is None or line.text.strip()[:1].islower() or before is None or before.page != line.page:
            return False
        nums = [num for num, text in paragraph.pieces]
        last = max((k for k, (_, text) in enumerate(paragraph.pieces) if _LIST_START.match(text)), default=None)
        if last is None or last + 1 >= len(nums):
            return False
        entry = paragraph.indent.get(nums[last + 1])
        return entry is not None and here < entry - self.splitter.step

    def _lone_marker(self, state: State, line: BodyLine) -> bool:
        """A footnote marker set apart on a line of its own: it goes to the end of the paragraph's last line,
        or of the title or heading just read."""
        if state.paragraph is not None:
            num, last = state.paragraph.pieces[-1]
            state.paragraph.pieces[-1] = (num, last + NOTE_MARK)
            state.paragraph.notes += line.notes
            return True
        block = state.blocks[-1] if state.blocks else None
        if block is None or block.kind not in ("title", "article"):
            raise AssertionError(f"a marker alone at line {line.num} after no text")  # footnotes._lone_labels
        if block.kind == "article":
            block = Block("title", "", [line.num])
            state.blocks.append(block)
        block.text += NOTE_MARK
        block.lines.append(line.num)
        block.notes += line.notes
        return True

    def paragraph(self, state: State, line: BodyLine) -> bool:
        set_in = state.last is not None and self.layout.indented_first_line(state.last, line)
        self._close(state)
        state.paragraph = Paragraph([(line.num, line.text.strip())], list(line.notes), page=line.page, set_in=set_in)
        self._evidence(state.paragraph, line)
        state.last = line
        return True

    def _join(self, state: State, line: BodyLine) -> None:
        paragraph = state.paragraph
        assert paragraph is not None
        text = self._capitals_hyphen(paragraph, line, line.text.strip())
        if text:
            paragraph.pieces.append((line.num, text))
        paragraph.notes += line.notes
        self._evidence(paragraph, line)
        state.last = line

    def _evidence(self, paragraph: Paragraph, line: BodyLine) -> None:
        if line.printed.bold_head is not None:
            lead = len(line.text) - len(line.text.lstrip())
            paragraph.bold[line.num] = max(line.bold - lead, 0)
        if (indent := self.layout.indent(line.printed, line.page)) is not None:
            paragraph.indent[line.num] = indent

    def _starts_structure(self, text: str) -> bool:
        return bool(self.words.heading(text) or SECTION.match(text) or BARE_SECTION.fullmatch(text)
                    or LINE_SUBSECTION.match(text) or ITEM.match(text) or SUBITEM.match(text))

    def _capitals_hyphen(self, paragraph: Paragraph, line: BodyLine, text: str) -> str:
        """The line's text after a word in capitals hyphenated at the paragraph's line end is joined onto
        that line (_capitals_joined), else the line's text."""
        num, before = paragraph.pieces[-1]
        joined = self._capitals_joined(before, line, text, keep_rest=False)
        if joined is None:
            return text
        paragraph.pieces[-1] = (num, joined)
        return text[len(joined) - len(before) + 1:].strip()

    def _capitals_joined(self, before: str, line: BodyLine, text: str, keep_rest: bool = True) -> str | None:
        """A word in capitals hyphenated at a line end ("CON-" / "TEST"): the repair stage keeps a hyphen
        before a capital, so here the book's own words decide: the word joined is written elsewhere in
        the book and the hyphenated form is not. `before` with the word joined (and, `keep_rest`, the rest
        of the line after a space), or None; logged."""
        head = re.search(r"([A-Z]+)-$", before)
        tail = re.match(r"([A-Z]+)(?=\W|$)", text)
        if not (head and tail):
            return None
        joined, hyphenated = (head.group(1) + tail.group(1)).lower(), f"{head.group(1)}-{tail.group(1)}".lower()
        words = self.vocabulary()
        if joined not in words or hyphenated in words:
            return None
        self.flog.repair(line.num, f"a word in capitals hyphenated at the line end joined: the "
                                   f"book writes {joined!r} elsewhere and never {hyphenated!r}",
                         f"{head.group()} | {tail.group()}", head.group(1) + tail.group(1))
        rest = text[tail.end():].strip()
        return before[:-1] + tail.group(1) + (f" {rest}" if keep_rest and rest else "")


RULES: tuple[tuple[str, Rule], ...] = (
    ("table", Articles.table),
    ("remark", Articles.remark),
    ("article", Articles.article),
    ("title", Articles.title),
    ("unreadable", Articles.unreadable),
    ("continues", Articles.continues),
    ("paragraph", Articles.paragraph),
)


def _bold_sections(pages: list[list[PrintedLine]]) -> bool:
    """The book sets the letters of its sections bold: most lines that start with a section letter start
    with it in bold (where the adapter knows the weights)."""
    starts = [line for page in pages for line in page if line.bold_head is not None and SECTION.match(line.text.lstrip())]
    bold = sum(1 for line in starts if (line.bold_head or 0) >= 2)
    return bool(starts) and bold * 2 > len(starts)


def attach(collected: Collected, reading: Reading, flog: FileLog) -> None:
    """Every marker its footnote by the rule of notes.Footnotes (a footnote cited twice at both markers); a
    marker without one and a footnote without a marker are errors, the footnote's text kept as a paragraph
    (never lost)."""
    seen: set[tuple[int, str]] = set()
    for f in collected.footnotes:
        if f.number.isdigit() and (f.page, f.number) in seen:
            flog.error(f.position, f"footnote {f.number} is printed twice on its page")
        seen.add((f.page, f.number))
    matched = notes.Footnotes([f for f in collected.footnotes if f.number]).match(collected.markers)
    notes.give_texts(matched, flog)
    for note in matched.unmatched:
        flog.error(note.lines[0], f"footnote marker {note.number} has no footnote text at the bottom of its page or the "
                                  f"next")
    for footnote in matched.unused + [f for f in collected.footnotes if not f.number]:
        if footnote.number:
            flog.error(footnote.position, f"footnote {footnote.number} has no marker in the text before it")
        else:
            flog.damage(footnote.position, f"{footnote.text[:40]!r} in small type at the page foot starts no "
                                           f"footnote", "kept as a paragraph")
        at = next((k for k, b in enumerate(reading.blocks) if b.first_line > footnote.position), len(reading.blocks))
        reading.blocks.insert(at, Block("para", footnote.text, list(footnote.lines), pieces=list(footnote.pieces)))


def pieces_text(pieces: list[Piece]) -> str:
    return "\n".join(t for _, t in pieces)
