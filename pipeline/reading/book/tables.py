"""Tables on a book's pages: the rows and cells of a table the adapter saw set in columns.

Reads: a run of body lines, each its printed line (with its runs: the pieces of its text that stand apart
by wide gaps, where the adapter knows them) and its text as read (footnote markers as NOTE_MARK). Writes:
Tables, each the lines it spans and its rows of cells, left to right, one cell per column.

A table is found from its cells, never from its words:
  - a full row is a line of two runs or more whose first run is no list marker alone ("1." set apart
    by a tab is an entry, not a cell);
  - a table is two full rows or more on one page, with at most MAX_BETWEEN lines between two of them,
    whose runs stand in the same columns (all runs of a row but one at most overlap a column of the
    rows before: a head row may lack the column of the labels);
  - its columns are the runs of its rows with the most runs; any other run is in the column it overlaps
    most (a heading cell set over two columns is in the first);
  - the lines of the table that are not full rows stand in clusters, a line nearer to the one before
    than the body's leading in the same one (a label wrapped over lines, a value set between two lines
    of its label); a cluster is part of the full row next to it where it stands that near to it (where
    the adapter gives the lines' heights), else a row of its own;
  - a line just before the first full row or just after the last one is the table's where it is part of
    that row by the same rule.
A text without the runs of its lines (a plain extraction) has no table: its flattened rows stay text,
and the reader reports them as damage (body.py).
"""
import difflib
import re
from dataclasses import dataclass, field

from ...core.model import NOTE_MARK, TableRow
from .stream import PrintedLine

MAX_BETWEEN = 3  # lines between two full rows of one table (a row's label wrapped over lines, a sub-head)
LIST_MARKER = re.compile(r"^(?:\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\([ivx]{1,5}\.?\)|[A-Z]\.)$")


@dataclass
class Table:
    """A table found on a page: the indices of its first and last line in the run, its rows, and its
    footnote markers in the order its cells are read (row by row, cell by cell): (the index of the marker's
    line in the run, the marker's place among that line's markers)."""
    first: int
    last: int
    rows: list[TableRow] = field(default_factory=list)
    marks: list[tuple[int, int]] = field(default_factory=list)

    def text(self) -> str:
        """The table's words as text, a row a line (for the line ledger, the repairs and the fidelity check)."""
        return "\n".join(" ".join(cell for cell in row.cells if cell) for row in self.rows)


@dataclass
class _Line:
    printed: PrintedLine
    text: str  # as read: markers as NOTE_MARK
    cells: list[tuple[float, float, str]]  # its runs: x0, x1 and their text as read
    marks_before: list[int] = field(default_factory=list)  # per run: the line's markers before it


def find(lines: list[tuple[PrintedLine, str]], leading: float | None) -> list[Table]:
    """The tables among `lines` (each its printed line and its text as read), in order (the module's
    docstring); `leading` the body's line distance where the adapter gives the lines' heights."""
    pieces = [_Line(printed, text, *_cells(printed, text)) for printed, text in lines]
    full = [len(p.cells) >= 2 and not LIST_MARKER.match(p.cells[0][2].strip()) for p in pieces]
    tables: list[Table] = []
    k = 0
    while k < len(pieces):
        if not full[k]:
            k += 1
            continue
        rows = [k]
        columns = [(x0, x1) for x0, x1, _ in pieces[k].cells]
        j = k + 1
        while j < len(pieces) and j - rows[-1] <= MAX_BETWEEN + 1 and pieces[j].printed.page == pieces[k].printed.page:
            if full[j]:
                if not _same_columns(pieces[j], columns):
                    break
                rows.append(j)
                if len(pieces[j].cells) > len(columns):
                    columns = [(x0, x1) for x0, x1, _ in pieces[j].cells]
            elif _paragraph(pieces[j].text):
                break
            j += 1
        if len(rows) < 2:
            k += 1
            continue
        tables.append(_table(pieces, full, rows, leading))
        k = tables[-1].last + 1
    return tables


def _table(pieces: list[_Line], full: list[bool], rows: list[int], leading: float | None) -> Table:
    most = max(len(pieces[r].cells) for r in rows)
    columns = _columns([pieces[r] for r in rows if len(pieces[r].cells) == most])
    # The least distance of two full rows not stacked in one row: the table's row pitch (its rows may be
    # further apart, a label wrapped over lines around its figures).
    ys = [pieces[r].printed.y for r in rows]
    steps = [a - b for a, b in zip(ys, ys[1:]) if a is not None and b is not None
             and (leading is None or a - b >= 0.75 * leading)]
    pitch = min(steps) if steps else None
    first, last = rows[0], rows[-1]
    # A line just before the first full row or just after the last is the table's where it is part of a row.
    while first > 0 and rows[0] - first < MAX_BETWEEN and _fits(pieces[first - 1], columns) and \
            _one_row(pieces, full, first - 1, first, leading, pitch):
        first -= 1
    while last + 1 < len(pieces) and last - rows[-1] < MAX_BETWEEN and _fits(pieces[last + 1], columns) and \
            _one_row(pieces, full, last, last + 1, leading, pitch):
        last += 1
    # The lines into rows, top to bottom: a line is in the row of the line before where the two are one row's
    # (_one_row), and a row holds one full row at most unless its lines are set closer than a paragraph's.
    bands: list[list[int]] = []
    for i in range(first, last + 1):
        if bands and _one_row(pieces, full, i - 1, i, leading, pitch) and not (
                full[i] and any(full[b] for b in bands[-1]) and not _tight(pieces[i - 1], pieces[i], leading)):
            bands[-1].append(i)
        else:
            bands.append([i])
    table = Table(first, last)
    for band in bands:
        cells = [""] * len(columns)
        marks: list[list[tuple[int, int]]] = [[] for _ in columns]
        for i in band:
            for (x0, x1, text), before in zip(pieces[i].cells, pieces[i].marks_before):
                c = _column_of(columns, x0, x1, nearest=True)
                assert c is not None
                cells[c] = f"{cells[c]} {text}" if cells[c] else text
                marks[c] += [(i, before + k) for k in range(text.count(NOTE_MARK))]
        anchor = next((i for i in band if full[i]), band[0])
        table.rows.append(TableRow(pieces[anchor].printed.num, cells))
        table.marks += [mark for column in marks for mark in column]
    return table


def _one_row(pieces: list[_Line], full: list[bool], a: int, b: int, leading: float | None,
             pitch: float | None) -> bool:
    """Lines a and b (b below a) are of one row: set closer than a paragraph's lines (three quarters of the
    leading: lines stacked in a row's cells), or, one of them no full row, within the leading and closer
    than the table's full rows stand (a label wrapped over lines around its row's figures)."""
    x, y = pieces[a], pieces[b]
    if leading is None or x.printed.y is None or y.printed.y is None or x.printed.page != y.printed.page:
        return False
    distance = x.printed.y - y.printed.y
    if _tight(x, y, leading):
        return True
    return (not full[a] or not full[b]) and distance <= leading * 1.15 and (pitch is None or distance < 0.85 * pitch)


def _tight(x: _Line, y: _Line, leading: float | None) -> bool:
    if leading is None or x.printed.y is None or y.printed.y is None:
        return False
    return abs(x.printed.y - y.printed.y) < 0.75 * leading


def _paragraph(text: str) -> bool:
    """A line of running text between two rows ends the table: it ends a sentence and has eight words or more."""
    text = text.strip()
    return len(text.split()) >= 8 and bool(re.search(r"[.!?][)\]\"'\u2019\u201d]*$", text))


def _cells(printed: PrintedLine, text: str) -> tuple[list[tuple[float, float, str]], list[int]]:
    """The line's runs with their text as read (the offsets of the printed text moved onto the text as read,
    where footnote markers became NOTE_MARK), and for each how many of the line's markers stand before it."""
    if not printed.runs or any(r.x0 is None or r.x1 is None for r in printed.runs):
        return [], []
    moved = _offsets(printed.text, text)
    cells, before = [], []
    for run in printed.runs:
        start, end = moved[run.start], moved[run.end]
        if text[start:end].strip():
            cells.append((float(run.x0 or 0.0), float(run.x1 or 0.0), text[start:end].strip()))
            before.append(text[:start].count(NOTE_MARK))
    return cells, before


def _offsets(printed: str, read: str) -> list[int]:
    """For each offset of the printed text (and its end), the offset in the text as read: a changed piece
    (a marker that became NOTE_MARK) maps to where its replacement starts, its end to where that ends."""
    moved = [0] * (len(printed) + 1)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=printed, b=read, autojunk=False).get_opcodes():
        for k in range(i1, i2):
            moved[k] = j1 + (k - i1) if tag == "equal" else j1
        moved[i2] = j2
    return moved


def _columns(full_rows: list[_Line]) -> list[tuple[float, float]]:
    """The table's columns: the widest extent of the k-th run over the rows with the most runs."""
    count = len(full_rows[0].cells)
    return [(min(r.cells[c][0] for r in full_rows), max(r.cells[c][1] for r in full_rows)) for c in range(count)]


def _column_of(columns: list[tuple[float, float]], x0: float, x1: float, nearest: bool = False) -> int | None:
    """The column a run is in: the one it overlaps most; where it overlaps none, the nearest (`nearest`)
    or None."""
    overlaps = [min(x1, b) - max(x0, a) for a, b in columns]
    best = max(range(len(columns)), key=lambda c: overlaps[c])
    if overlaps[best] > 0:
        return best
    if not nearest:
        return None
    centre = (x0 + x1) / 2
    return min(range(len(columns)), key=lambda c: abs((columns[c][0] + columns[c][1]) / 2 - centre))


def _same_columns(line: _Line, columns: list[tuple[float, float]]) -> bool:
    """A full row of the table so far: all its runs but one at most stand in its columns (a row may add the
    column of its labels to a head row that has none), or it has a run under each of its columns but one
    at most (a head row set over the figures of a row with more columns)."""
    inside = sum(_column_of(columns, x0, x1) is not None for x0, x1, _ in line.cells)
    under = sum(any(min(x1, b) > max(x0, a) for x0, x1, _ in line.cells) for a, b in columns)
    return inside >= 1 and (inside >= len(line.cells) - 1 or under >= len(columns) - 1)


def _fits(line: _Line, columns: list[tuple[float, float]]) -> bool:
    """A line that can be part of a row: it has runs, each within a column."""
    return bool(line.cells) and all(_column_of(columns, x0, x1) is not None for x0, x1, _ in line.cells)
