"""The data every stage shares before the tree exists: blocks and notes.

A reader turns a source's lines into Blocks: one per paragraph, heading, list
entry or page furniture, each with the source lines it came from. The structure
stage turns blocks into the corpus tree (lxml), which from then on is the model.

A note's marker stands in block text as NOTE_MARK; block.notes holds the notes in
the order of their markers. Text repairs never touch NOTE_MARK.
"""
from dataclasses import dataclass, field

NOTE_MARK = "\ue000"


@dataclass
class Note:
    text: str
    lines: list
    form: str  # how the source wrote it: inline "(Noot: …)", malformed "Noot: (…)", numbered "1)", print digit
    number: str | None = None  # the footnote number in the source, where it had one


@dataclass
class Block:
    kind: str  # article, title, heading, para, list, commentary, attribution
    text: str
    lines: list
    # article block: "50D" (None: a line that starts like an article heading but does not read as one,
    # already reported as an error); lettered heading: "D", "E1"
    cite: str | None = None
    number: int | None = None  # list number as written ("2." -> 2)
    level: int = 0  # list nesting (0 = outermost)
    group: int = 0  # blocks separated by blank lines have different groups
    notes: list = field(default_factory=list)
    extra_number: int | None = None  # "1. 1." : the inner number

    @property
    def first_line(self):
        return self.lines[0]


@dataclass
class Reading:
    """What a reader makes of one source."""
    file: str
    format: str
    edition: str
    blocks: list
    dropped: list = field(default_factory=list)  # (line, reason): page furniture, never law text
    subject: str | None = None  # the article a page is about ("ARTIKEL 54"), for commentary
    # (line, cite or None, message for the report, reason for readers in Dutch or None)
    gaps: list = field(default_factory=list)
