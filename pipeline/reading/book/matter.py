"""The parts of a book around its articles: the introduction, the definitions, and what is kept apart.

Reads: a part's pages (their lines without furniture), with their footnotes marked (footnotes.py).
Writes: the reading's blocks:
  - the introduction: its title (cite "title"), then one "introduction" block per paragraph (a line goes on
    with the paragraph before by the evidence of the layout, layout.py);
  - the definitions: "Term: text", the term with its brackets and quotes as the book writes it
    ("International Matchpoint (IMP):", "Adversaire :"), or a term set bold at the line's start and a
    colon (a PDF); a line that starts no term goes on with the one before; the part's title a "part-title";
  - the front and back matter and the index: one block of their kind per line, kept apart from the law
    (the index is read again by reading/index.py, as evidence of where the law deals with what).
"""
import re

from ...core.model import Block, Note, Reading
from ...core.report import FileLog
from .layout import Layout, Placed
from .body import continues_heading
from .parts import DEFINITION, TERM_ALONE, TERM_LENGTH
from .stream import PrintedLine
from .words import BookWords

DEFINITION_COLON = re.compile(r"^\s*:\s*")

Marked = dict[int, tuple[str, list[Note]]]


def _lines(pages: list[list[PrintedLine]], marked: Marked, skip: set[int]) -> list[tuple[Placed, list[Note]]]:
    out = []
    for p, page in enumerate(pages):
        for line in page:
            if line.num not in skip:
                text, notes = marked.get(line.num, (line.text, []))
                out.append((Placed(line, text, p), notes))
    return out


def read_introduction(pages: list[list[PrintedLine]], reading: Reading, layout: Layout, marked: Marked,
                      skip: set[int]) -> None:
    """The introduction: its title (wrapped onto lines that start in lower case, or set as large), then one
    block per paragraph."""
    before: Placed | None = None
    for placed, notes in _lines(pages, marked, skip):
        text = placed.text.strip()
        if before is None:
            reading.blocks.append(Block("introduction", text, [placed.printed.num], cite="title", notes=notes))
            before = placed
            continue
        last = reading.blocks[-1]
        if last.kind == "introduction" and last.cite == "title" and len(reading.blocks[-1].lines) < 3 and (
                placed.printed.size == before.printed.size if placed.printed.size is not None
                else continues_heading(text)):
            last.text += " " + text
            last.lines.append(placed.printed.num)
            last.notes += notes
            before = placed
            continue
        if last.kind == "introduction" and last.cite != "title" and layout.goes_on(before, placed, last.pieces[-1][1]):
            last.text += "\n" + text
            last.lines.append(placed.printed.num)
            last.pieces.append((placed.printed.num, text))
            last.notes += notes
        else:
            reading.blocks.append(Block("introduction", text, [placed.printed.num], pieces=[(placed.printed.num, text)],
                                        notes=notes))
        before = placed


def read_definitions(pages: list[list[PrintedLine]], reading: Reading, words: BookWords, layout: Layout,
                     marked: Marked, skip: set[int], flog: FileLog) -> None:
    """The definitions (see the module's docstring)."""
    started = False
    before: Placed | None = None
    lines = _lines(pages, marked, skip)
    # The book sets its terms bold (three lines or more start with a bold term and its colon): a line whose
    # start is not bold is then no definition's first, whatever colon it holds.
    bold_terms = sum(1 for placed, _ in lines if placed.printed.bold_head and _term(placed.printed, placed.text, True))
    for placed, notes in lines:
        line, text = placed.printed, placed.text.strip()
        first, started = not started, True
        if first and words.definitions_title.match(text):
            reading.blocks.append(Block("part-title", text, [line.num]))
            before = None
            continue
        term = _term(line, placed.text, bold_terms >= 3)
        last = reading.blocks[-1] if reading.blocks else None
        if term is not None:
            name, rest = term
            reading.blocks.append(Block("definition", rest, [line.num], cite=name, pieces=[(line.num, rest)] if rest else [],
                                        notes=notes))
        elif last is not None and last.kind == "definition" and before is not None and \
                (not layout.geometry or layout.goes_on(before, placed, last.pieces[-1][1] if last.pieces else "",
                                                       hanging=True)):
            last.pieces.append((line.num, text))
            last.lines.append(line.num)
            last.notes += notes
        else:
            flog.damage(line.num, f"{text[:40]!r} starts no definition", "kept as a paragraph")
            reading.blocks.append(Block("para", text, [line.num], pieces=[(line.num, text)], notes=notes))
        before = placed


def _term(line: PrintedLine, text: str, bold_terms: bool) -> tuple[str, str] | None:
    """(term, the text after its colon) of a line that starts a definition, else None: a bold term and a colon
    where the book sets its terms bold (`bold_terms`), else "Term: text" with the term capitalised."""
    if line.bold_head:
        term, rest = text[:line.bold_head].strip(), text[line.bold_head:]
        if term.endswith(":"):
            return term[:-1].strip(), rest.strip()
        if m := DEFINITION_COLON.match(rest):
            return term, rest[m.end():]
        # (A term's bracketed part may be set in the regular weight: "Psychic call (commonly …):".)
    elif bold_terms:
        return None  # the book sets its terms bold and nothing at this line's start is: no term
    stripped = text.strip()
    m = DEFINITION.match(stripped) or TERM_ALONE.match(stripped)  # (a term alone: its text on the next line)
    if m and len(m.group(1)) <= TERM_LENGTH and stripped[:1].isupper():
        return m.group(1), m.group(2) if m.re is DEFINITION else ""
    return None


def read_apart(pages: list[list[PrintedLine]], reading: Reading, kind: str, skip: set[int]) -> None:
    """Every line as one block of `kind`, kept out of the law text (front and back matter, the index)."""
    for page in pages:
        for line in page:
            if line.num not in skip:
                reading.blocks.append(Block(kind, line.text.strip(), [line.num]))
