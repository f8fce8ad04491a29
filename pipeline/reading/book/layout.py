"""What a page's layout says about its line breaks: whether a line goes on with the paragraph before.

Reads: a run of pages (PrintedLines) and the body text's size where the adapter knows the type. Writes
nothing: Layout answers goes_on(before, line) for every part's reader (the articles, the introduction,
the definitions), each from the evidence its lines have:
  - a PDF: the line stands within the body's leading below the line before, in the same size and not set
    in (a first-line indent begins a paragraph); over a page break it goes on, unless the page's last line
    ends a sentence short of the right edge the page is justified to (on a page set ragged, that reading
    is uncertain, and logged by settle() where the line does not begin a block of its own anyway);
  - a text: the line starts in lower case, or the line before stopped mid-sentence, or (a text wrapped at
    a measure) the line before ends a sentence but is full: the next line's first word would not have
    fitted on it, so the break is the measure's, not the paragraph's end; in a wrapped text a paragraph
    goes on over a page break (the page ended where it was full; the repair stage reports each join
    across a page).
"""
import re
from collections import Counter
from dataclasses import dataclass, field

from ...core.report import FileLog
from .stream import PrintedLine

SENTENCE_END = re.compile(r"[.!?:][)\]\"'\u2019\u201d]*$")
LONG_LINE = 160  # past this many characters a text's lines are paragraphs, not wrapped lines


@dataclass
class Placed:
    """A line as Layout is asked about it: the printed line, its text as read, its page's place in the run."""
    printed: PrintedLine
    text: str
    page: int


@dataclass
class Layout:
    """The layout of a run of pages (see the module's docstring)."""
    pages: list[list[PrintedLine]]
    body_size: float | None
    flog: FileLog
    skip: set[int] = field(default_factory=set)  # lines that are not running text (footnotes)
    margins: list[float] = field(init=False)
    measures: list[float | None] = field(init=False)
    right_edges: list[float | None] = field(init=False)
    leading: float = field(init=False)
    short: bool = field(init=False)
    run_measure: float | None = field(init=False)
    logged: set[int] = field(default_factory=set)  # page tops whose reading is in the report
    # Page tops read as going on where the evidence allows both readings: reported by settle(), once the
    # reader knows whether the reading mattered (a line that begins a block of its own was cut there anyway).
    undecided: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        body = self.body_size
        self.margins = [min((line.x for line in page if line.x is not None and (body is None or line.size == body)),
                            default=0.0) for page in self.pages]
        self.measures = [measure(page) for page in self.pages]
        self.run_measure = measure([line for page in self.pages for line in page if line.num not in self.skip])
        # Wrapped: nearly all its lines are short and most stop mid-sentence; a text whose paragraphs stand one
        # a line has long lines, or lines that nearly all end a sentence.
        texts = [line.text.strip() for page in self.pages for line in page if line.num not in self.skip]
        widths = sorted(len(t) for t in texts)
        long = [t for t in texts if len(t) >= 20]
        ending = sum(bool(SENTENCE_END.search(t)) for t in long)
        self.short = bool(widths) and widths[int(len(widths) * 0.95)] <= LONG_LINE and ending < 0.6 * len(long) \
            if long else True
        self.right_edges = [right_edge(page, body) for page in self.pages]
        self.leading = leading(self.pages, body)

    @property
    def geometry(self) -> bool:
        return self.body_size is not None

    def indent(self, line: PrintedLine, page: int) -> float | None:
        """The line's x from its page's margin, where the adapter knows it."""
        return None if line.x is None else line.x - self.margins[page]

    def wrapped(self, page: int) -> bool:
        """The page's text is wrapped (its line breaks are the measure's, not its paragraphs' ends): its
        lines cluster at a measure, or the run's lines are short."""
        return self.measures[page] is not None or self.short

    def goes_on(self, before: Placed, line: Placed, before_text: str, hanging: bool = False, single: bool = False) -> bool:
        """The line goes on with the paragraph whose last line is `before` (its text as read so far
        `before_text`); `hanging`: the paragraph is a list entry, whose lines after its marker's are set in
        (a hanging indent, no first line's); `single`: the paragraph is one line so far."""
        if self.geometry and before.printed.y is not None and line.printed.y is not None:
            return self._on_page(before, line, hanging, single)
        text = line.text.strip()
        if text[:1].islower() or not SENTENCE_END.search(before_text):
            return True
        if not self.wrapped(before.page):
            return False  # a text whose paragraphs stand one a line: a line that ends a sentence ends it
        if before.page != line.page:
            return True  # a wrapped text's page ends where the page is full, whatever its last line says
        return self.full(before, line, default=True)

    def full(self, before: Placed, line: Placed, default: bool = False) -> bool:
        """A text wrapped at a measure: the line before may be full, the next line's first word would not have
        fitted on it (so its sentence end is no paragraph's end). The measure is at least as wide as the
        widest line the page breaks inside a sentence (the next line going on in lower case): where the word
        and the line before stay within that, the word would have fitted, and the break is the paragraph's
        end. Where no such line is known, `default`: a wrapped text goes on, a line break being no evidence
        of a paragraph's end."""
        width = self.measures[before.page] or self.run_measure
        if width is None:
            return default
        b = before.printed
        end = b.right if b.right is not None else len(b.text.strip())
        word = line.text.split()[0] if line.text.split() else ""
        return end + 1 + len(word) > width

    def _on_page(self, before: Placed, line: Placed, hanging: bool, single: bool) -> bool:
        b, n = before.printed, line.printed
        if not hanging and self.indented_first_line(before, line, single):
            return False
        if before.page != line.page:
            return not self._ends_at_page_foot(before, line)
        size, body = n.size or 0.0, self.body_size or 0.0
        step = self.leading * 1.15 if abs(size - body) < 0.5 else 1.6 * size
        return (b.y or 0.0) - (n.y or 0.0) <= step and abs((b.size or 0.0) - size) < 0.5

    def indented_first_line(self, before: Placed, line: Placed, single: bool = False) -> bool:
        """A paragraph's first line set in from the lines of the paragraph before, by half its size or more
        from the margin of its page (pages alternate their margins); or, after a paragraph of one line that
        began so, set in as far as that one (a paragraph's second line goes back to the margin)."""
        b, n = before.printed, line.printed
        if n.x is None or b.x is None or abs((n.size or 0.0) - (b.size or 0.0)) >= 0.5:
            return False
        size = n.size or 0.0
        offset, before_offset = n.x - self.margins[line.page], b.x - self.margins[before.page]
        if offset > before_offset + 0.5 * size:
            return True
        return single and offset > 0.5 * size and abs(offset - before_offset) < 0.5

    def _ends_at_page_foot(self, before: Placed, line: Placed) -> bool:
        """The paragraph ends with the page: on a page set justified its last line stops short of the right
        edge by more than two of its characters' size and ends a sentence (logged). Else the text at the next
        page's top goes on with it: a full line goes on; a sentence ended on a page set ragged may end its
        paragraph or not, so that reading is logged as uncertain."""
        b = before.printed
        if not re.search(r"[.:;!?][\"')\u2019\u201d]?$", b.text.rstrip()):
            return False
        edge = self.right_edges[before.page]
        short = edge - (b.right or 0.0) if edge is not None else 0.0
        ends = edge is not None and short > 2 * (b.size or 0.0)
        num = line.printed.num
        if num not in self.logged and (ends or edge is None):
            self.logged.add(num)
            if ends:
                self.flog.inference(num, None, f"a new paragraph: the last line of page {b.page} ends a sentence "
                                               f"{short:.0f} pt short of the right edge its text is justified to, "
                                               f"so its paragraph ends with the page")
            else:
                self.undecided[num] = (f"uncertain: read as going on with the paragraph at the foot of page {b.page}, "
                                       f"whose last line ends a sentence; the page is not set justified, so no right "
                                       f"edge tells whether that paragraph ended there")
        return ends

    def settle(self, starts: set[int]) -> None:
        """Report the undecided page tops, except those whose line begins a block of its own (`starts`: a
        numbered entry's marker cut the paragraph there, so either reading gives the same blocks)."""
        for num, message in sorted(self.undecided.items()):
            if num not in starts:
                self.flog.inference(num, None, message)
        self.undecided.clear()


def measure(page: list[PrintedLine]) -> float | None:
    """The least the width a page's text is wrapped at can be (characters, or the adapter's units): the
    widest of its lines that the page breaks inside a sentence, the next line going on in lower case (a
    break the measure forced; a line ending in a hyphen is left out, a hyphen may hang past the measure).
    None where the page has none, or its lines are paragraphs (over LONG_LINE characters)."""
    forced = [line.right if line.right is not None else len(line.text.strip())
              for line, after in zip(page, page[1:])
              if not SENTENCE_END.search(line.text.strip()) and not line.text.rstrip().endswith("-")
              and after.text.strip()[:1].islower()]
    if not forced:
        return None
    top = max(forced)
    return None if page[0].right is None and top > LONG_LINE else top


def leading(pages: list[list[PrintedLine]], body: float | None) -> float:
    """The distance of two lines of one paragraph: the most common distance of two body lines that is no
    more than 1.6 times their size (a book of short paragraphs apart by an empty line has more distances of
    two lines than of one)."""
    gaps: Counter[float] = Counter()
    for page in pages:
        for a, b in zip(page, page[1:]):
            if a.y is not None and b.y is not None and a.size == b.size == body and \
                    0 < a.y - b.y <= 1.6 * (body or 0.0):
                gaps[round(a.y - b.y, 1)] += 1
    return gaps.most_common(1)[0][0] if gaps else (body or 10.0) * 1.2


def right_edge(page: list[PrintedLine], body: float | None) -> float | None:
    """The right edge a page's text is justified to: its long body lines (within three characters' size
    of the longest) nearly all end at one place, two thirds of them and at least three. Text set ragged
    ends its long lines spread over a word's width: no edge."""
    if body is None:
        return None
    rights = [line.right for line in page if line.size == body and line.right is not None]
    if not rights:
        return None
    long = [r for r in rights if r >= max(rights) - 3 * body]
    edge = Counter(round(r) for r in long).most_common(1)[0][0]
    at_edge = sum(abs(r - edge) <= 2 for r in long)
    return float(edge) if at_edge >= 3 and at_edge * 3 >= len(long) * 2 else None
