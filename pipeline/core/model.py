"""The data every stage shares before the tree exists: blocks, notes and the records about them.

A reader turns a source's lines into Blocks: one per paragraph, heading, list
entry or page furniture, each with the source lines it came from. The repair stage
repairs their text; the structure stage turns blocks into the corpus tree (lxml),
which from then on is the model.

A note's marker stands in block text as NOTE_MARK; block.notes holds the notes in
the order of their markers. Text repairs never touch NOTE_MARK.
"""
from dataclasses import dataclass, field

from .records import NOT_STORED

NOTE_MARK = "\ue000"

# A printed line as the page broke it: (its number in the source, its text).
Piece = tuple[int, str]


@dataclass(frozen=True)
class Line:
    """One line of a source as an editor numbers it (reading/decode.py makes them)."""
    file: str
    num: int
    text: str
    page_break: bool = False  # the line held a form feed or vertical tab: a printed page starts here

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@dataclass
class Note:
    text: str
    lines: list[int]
    form: str  # how the source wrote it: inline "(Noot: …)", malformed "Noot: (…)", numbered "1)", print digit
    number: str | None = None  # the footnote number in the source, where it had one
    # A printed footnote's lines as the page broke them, (line, text): the repair stage joins them into text.
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class TableRow:
    """One row of a table as the page prints it: its line and its cells' texts, left to right."""
    line: int
    cells: list[str] = field(default_factory=list)


@dataclass
class Block:
    kind: str  # article, title, heading, para, list, commentary, attribution
    text: str
    lines: list[int]
    # article block: "50D" (None: a line that starts like an article heading but does not read as one,
    # already reported as an error); lettered heading: "D", "E1"
    cite: str | None = None
    number: int | None = None  # list number as written ("2." -> 2)
    level: int = 0  # list nesting (0 = outermost)
    group: int = 0  # blocks separated by blank lines have different groups
    notes: list[Note] = field(default_factory=list)
    extra_number: int | None = None  # "1. 1." : the inner number
    # A printed paragraph's lines as the page broke them, (line, text); until the repair stage joins
    # them (line-end hyphens need the book's vocabulary), text is these lines joined by "\n".
    pieces: list[Piece] = field(default_factory=list)
    # A list block's marker as the page wrote it: "number" ("1."), "letter" ("(a)"), "roman" ("(i)"); None
    # where the format does not tell (a wiki's list numbers stand for whatever its level is).
    marker: str | None = None
    # A table's rows (kind "table"): its text is the rows' cells joined, for the line ledger and the repairs.
    rows: list[TableRow] = field(default_factory=list)
    # Where a node's text first came from, as a Markdown master records it ("004_x.txt:4-30", the `sources` of
    # the build it was written from): the node opened by this block keeps it as its `origin`. None elsewhere.
    origin: str | None = None
    # The evidence a Markdown master records for a number the first build inferred (the node's `evidence`): the
    # node opened by this block is marked inferred again, with it, and the report says so again.
    evidence: str | None = None

    @property
    def first_line(self) -> int:
        return self.lines[0]


# The kinds of block a reader keeps apart from the law text (a book's contents list, index, front and back
# matter, the title of a part): accounted for in the report, never in the corpus.
APART_KINDS = ("contents", "index", "front", "back", "part-title")
# … and of those, the ones no stage reads after the reader: not repaired (the contents list is, as evidence).
UNREAD_KINDS = ("index", "front", "back", "part-title")

# A list block's cite when the source writes its number right before the first marker of the next level
# ("1.(a) if …"): the node has no text of its own there, and no lead-in is missing.
NO_LEAD_IN = "no-lead-in"


# A paragraph block's cite when it stands on its own after the last entry of a list (its level the list's):
# it closes the list and is text of the list's parent ("… (b) …. / The Director then rules."), not of
# the last entry.
CLOSES_LIST = "closes-list"


# A Gap's cite when pages of the book are missing between two pages the source has (its page numbers jump).
PAGES_GAP = ""


@dataclass(frozen=True)
class Gap:
    """Text the law has that the source lacks (a page that starts or ends inside an article)."""
    line: int
    cite: str | None  # the article cut off, when known; PAGES_GAP: pages of the book, no article known
    message: str  # for the report
    reason: str | None = None  # for readers of the book, in its language; None: no <gap> in the tree


@dataclass(frozen=True)
class Dropped:
    """A source line that is not law text (page title, page number, running header), and why."""
    line: int
    reason: str


@dataclass(frozen=True)
class Placed:
    """Ledger entry: the line is in the corpus node with this ID (which must survive the merge)."""
    node: str


@dataclass(frozen=True)
class Accounted:
    """Ledger entry: the line is in no node, for this reason (in the report, or commentary)."""
    reason: str


@dataclass(frozen=True)
class Detected:
    """How a source was read: its format (forced in the manifest or detected) and its encoding."""
    format: str
    encoding: str


@dataclass(frozen=True)
class Rules:
    """How a source format writes the law's numbering: what structure may take as written and what it
    must restore from evidence (and log as an inference). Declared by each format (reading/formats)."""
    # For a list number ("1.") at each level: "source" when the number as written is the node's
    # number, "inferred" when it stands for a letter or number the layout did not write. A level
    # left out is one the layout never writes as a list number: a list nested that deep is damage,
    # kept as text (the Dutch formats leave out "subitem", the roman level below items).
    list_numbers: dict[str, str]
    # A lone unlettered heading-like line directly under an article with a title: its next section.
    headings_are_sections: bool = False
    # Unnumbered paragraphs standing together (no blank line) under a section heading: its subsections.
    paragraphs_are_subsections: bool = False
    # The source is the book's pages in order, so its article numbers go up.
    articles_go_up: bool = False


@dataclass(frozen=True)
class KeptRecord:
    """A record a Markdown master keeps for one node: a <corr> of the corrections applied in the build the master
    was written from (its attributes as they were), put back in the node so the corpus still says what its first
    source said there and why it was corrected."""
    line: int
    cite: str
    attributes: list[tuple[str, str]]


@dataclass
class Reading:
    """What a reader makes of one source."""
    file: str
    format: str
    edition: str
    blocks: list[Block]
    dropped: list[Dropped] = field(default_factory=list)  # page furniture, never law text
    subject: str | None = None  # the article a page is about ("ARTIKEL 54"), for commentary
    gaps: list[Gap] = field(default_factory=list)
    records: list[KeptRecord] = field(default_factory=list)  # (a Markdown master's corrections' records)
    # The format's, set by formats.read; not stored with a reading (the cache sets it from the format).
    rules: Rules | None = field(default=None, compare=False, metadata=NOT_STORED)
