"""A PDF page's characters into its printed lines, in the order a reader reads them (docs/pdf-source.md
gives the measurements behind every rule). A part of the PDF adapter (pdf.py).

Reads: a page's Glyphs (pdf_glyphs.py), those a reader sees and those no reader sees with why. Writes: the
page's PageLines (lay_out): one a printed line, its text with the spaces put back from the gaps between
its characters, and the layout evidence of its characters (position, size, weight, raised markers, runs,
column, damage); then one with `hidden` set for each line no reader sees.

How the characters become lines (sizes in ems of the line's type size):
  - direction: a page's lines of one direction (Glyph.turn) are read together, the direction most of its
    characters have first;
  - lines: characters on one baseline (a quarter of their size apart at most), a marker set smaller on a
    raised baseline staying on the line it is raised above (before or after its text);
  - runs: a line is cut into runs where the ink of two characters is RUN_GAP (0.7 em) apart or more (a
    word space is 0.67 em at most in the books measured, a table's cells, an index entry's references, a
    contents entry's page number 0.72 em or more); a page number that ends where three or more of the
    page's page-number runs end is a run of its own from NUMBER_GAP (0.4 em) on (a long contents entry
    leaves less before it); in three rows or more of three runs or more (a table), a run of numbers a word
    space apart is cut where every row leaves the space between two of them empty (figures set close in
    columns);
  - columns: a page's rows are read top to bottom, each one line with its runs (the cells of a table,
    an entry and its page number), unless a stretch of consecutive rows is set in two columns of text: no
    run of those rows crosses a vertical band, three runs or more stand on either side, neither side is
    mostly numbers (page numbers, references, scores: then the rows are a table or a list of entries), no
    side holds a second band of its own (then the rows are a table of three columns or more), the two
    sides are alike in width (the narrower at least COLUMN_WIDTHS of the wider) and the band lies in the
    middle three fifths. Such a stretch is read column by column: the first column's lines top to bottom,
    then the second's, each with `column` set (0, 1); the rows above and below it (a title over both
    columns) keep their places;
  - right to left: the characters of a run that holds Hebrew or Arabic letters are put in their logical
    order (the Unicode bidirectional classes: the stretches of right-to-left letters are turned, numbers
    and left-to-right words in them keep their order, brackets in them mirrored);
  - raised markers: digits, *, **, †, ‡ set smaller on a raised baseline (digits also: a superscript glyph,
    its ink starting high above the baseline) are `raised` runs.
"""
from __future__ import annotations

import bisect
import functools
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ...core.report import PAGE_LINE_STEP
from .pdf_glyphs import SOFT_HYPHEN, Glyph
from .stream import PrintedLine, Run

LINE_STEP = PAGE_LINE_STEP  # the line numbers the report shows as page and line (report.location)
# The layout's thresholds, in ems of the line's type size (the measurements: docs/pdf-source.md).
RUN_GAP = 0.7  # the ink of two runs is this far apart or more; a word space never is
NUMBER_GAP = 0.4  # a page number standing where the page's other page numbers end is a run from this on
COLUMN_WIDTHS = 0.4  # the narrower of two columns of text is at least this part of the wider
MOST_BANDS = 8  # the widest empty bands of a page a stretch of two columns is looked for at
MARKERS = "*†‡"  # besides digits, the marks a raised note marker is made of
PAGE_NUMBER = re.compile(r"\d{1,4}|[ivxlcdm]{1,7}", re.IGNORECASE)
# Where the scripts written right to left are (Hebrew to N'Ko and beyond, their presentation forms, the
# historic ones): only a run with one of these characters is looked at by its bidirectional classes.
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]")
# The bidirectional classes runs are put in order by, as unicodedata names them: letters written left to
# right (L), right to left (R: Hebrew; AL: Arabic), numbers (EN: European digits; AN: Arabic-Indic ones).
LTR_LETTERS = frozenset({unicodedata.bidirectional("a")})
RTL_LETTERS = frozenset({unicodedata.bidirectional("\u05d0"), unicodedata.bidirectional("\u0627")})
NUMBERS = frozenset({unicodedata.bidirectional("0"), unicodedata.bidirectional("\u0660")})
MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹"))


@dataclass
class _Piece:
    """A run of a row while the page is laid out: its glyphs and where its ink starts and ends."""
    glyphs: list[Glyph]
    x0: float
    x1: float

    @functools.cached_property
    def text(self) -> str:
        return "".join(g.char for g in self.glyphs).strip()

    @functools.cached_property
    def value(self) -> bool:
        """Whether it is a number or a reference more than words (_value)."""
        return _value(self.text)


@dataclass(frozen=True)
class PageLine(PrintedLine):
    """A PDF's printed line: a PrintedLine whose evidence fields are all set (the PDF's text layer gives
    them all; `column` and `hidden` stay None where the line is in no column and seen)."""
    x: float = 0.0
    right: float = 0.0
    y: float = 0.0
    size: float = 0.0
    bold: bool = False
    italic: bool = False
    bold_head: int = 0
    raised: tuple[tuple[int, int], ...] = ()
    runs: tuple[Run, ...] = ()


def lay_out(file: str, page: int, glyphs: list[Glyph], hidden: list[tuple[Glyph, str]]) -> list[PageLine]:
    """A page's lines in reading order: for each direction its characters take (the commonest first), its
    rows cut into runs and read row by row or column by column (_layout); then the lines no reader sees."""
    turns = Counter(g.turn for g in glyphs)
    parts: list[tuple[list[_Piece], int | None, str | None]] = []
    for turn, _ in turns.most_common():
        rows = _rows([g for g in glyphs if g.turn == turn])
        pieced = [_pieces(row, _line_size(row)) for row in rows]
        _number_runs(pieced)
        _table_cells(pieced)
        size = Counter(g.size for g in glyphs if g.turn == turn).most_common(1)[0][0]
        parts += [(pieces, column, None) for pieces, column in _layout(pieced, size)]
    why = {id(g): reason for g, reason in hidden}
    for turn in dict.fromkeys(g.turn for g, _ in hidden):
        for row in _rows([g for g, _ in hidden if g.turn == turn]):
            reasons = "; ".join(dict.fromkeys(why[id(g)] for g in row))
            parts.append((_pieces(row, _line_size(row)), None, reasons))
    return [_page_line(file, page, k, [g for p in pieces for g in p.glyphs], pieces, column, reason)
            for k, (pieces, column, reason) in enumerate(parts, 1)]


def _line_size(chars: list[Glyph]) -> float:
    """The size most of a line's characters have."""
    first = chars[0].size
    if all(g.size == first for g in chars):
        return first
    return Counter(g.size for g in chars).most_common(1)[0][0]


def _rows(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """The characters in printed lines, top to bottom: a character on a raised baseline in a smaller size
    (a footnote marker) stays on the line it is raised above, whether it comes before or after the line's
    text; rows the characters' order left apart on one baseline (a table drawn column by column) are one."""
    rows: list[_Row] = []
    for g in glyphs:
        placed = False
        for row in reversed(rows[-3:]):
            base, size = row.baseline, row.size
            if abs(g.y - base) <= 0.25 * max(size, g.size) or (g.size < size and 0 < g.y - base < 0.6 * size):
                row.glyphs.append(g)
                if g.size > size and abs(g.y - base) <= 0.25 * g.size:
                    row.baseline, row.size = g.y, g.size
                placed = True
                break
            if g.size > size and 0 < base - g.y < 0.6 * g.size and all(h.size < 0.85 * g.size for h in row.glyphs):
                row.glyphs.append(g)  # the row so far is a marker raised above this character's line
                row.baseline, row.size = g.y, g.size
                placed = True
                break
        if not placed:
            rows.append(_Row(g.y, g.size, [g]))
    rows.sort(key=lambda r: -r.baseline)
    merged: list[_Row] = []
    for row in rows:
        before = merged[-1] if merged else None
        if before is not None and abs(before.baseline - row.baseline) <= 0.1 * max(before.size, row.size) and \
                0.85 <= before.size / row.size <= 1 / 0.85 and _apart(before.glyphs, row.glyphs):
            before.glyphs += row.glyphs
        else:
            merged.append(row)
    return [sorted(row.glyphs, key=lambda g: g.x0) for row in merged]


def _apart(a: list[Glyph], b: list[Glyph]) -> bool:
    """Two sets of characters on one baseline that do not overlap (not one text printed twice)."""
    return min(g.x0 for g in b) >= max(g.x1 for g in a) - 0.5 or min(g.x0 for g in a) >= max(g.x1 for g in b) - 0.5


@dataclass
class _Row:
    """A printed line while its characters are gathered: the baseline and size of its largest ones."""
    baseline: float
    size: float
    glyphs: list[Glyph]


def _pieces(row: list[Glyph], size: float) -> list[_Piece]:
    """A row cut into runs where the ink of two characters is RUN_GAP ems apart or more (the spaces the PDF
    holds itself go with the run before them)."""
    pieces: list[list[Glyph]] = [[]]
    last: Glyph | None = None
    for g in row:
        if g.char.strip():
            if last is not None and g.x0 - last.x1 >= RUN_GAP * size:
                pieces.append([])
            last = g
        pieces[-1].append(g)
    return [_piece(p) for p in pieces if p]


def _piece(glyphs: list[Glyph]) -> _Piece:
    ink = [g for g in glyphs if g.char.strip()] or glyphs
    return _Piece(glyphs, min(g.x0 for g in ink), max(g.x1 for g in ink))


def _number_runs(rows: list[list[_Piece]]) -> None:
    """A page number ending where three or more of the page's page-number runs end (a contents page's
    column of numbers at the right margin) is a run of its own when NUMBER_GAP ems or more part it from
    the entry: a long entry leaves less than a run's gap before it."""
    ends = sorted(row[-1].x1 for row in rows if len(row) > 1 and PAGE_NUMBER.fullmatch(row[-1].text))
    edges = [e for e in ends if bisect.bisect_right(ends, e + 1.5) - bisect.bisect_left(ends, e - 1.5) >= 3]
    if not edges:
        return
    for row in rows:
        last = row[-1]
        if not any(abs(last.x1 - e) <= 1.5 for e in edges) or (len(row) > 1 and PAGE_NUMBER.fullmatch(last.text)):
            continue
        ink = [k for k, g in enumerate(last.glyphs) if g.char.strip()]
        size = _line_size(last.glyphs)
        for a, b in zip(reversed(ink[:-1]), reversed(ink[1:])):
            if last.glyphs[b].x0 - last.glyphs[a].x1 > 0.18 * size:  # the last word's start
                if last.glyphs[b].x0 - last.glyphs[a].x1 >= NUMBER_GAP * size and \
                        PAGE_NUMBER.fullmatch("".join(g.char for g in last.glyphs[b:]).strip()):
                    row[-1:] = [_piece(last.glyphs[:b]), _piece(last.glyphs[b:])]
                break


def _table_cells(rows: list[list[_Piece]]) -> None:
    """In three or more consecutive rows of three runs or more (a table), a run of numbers parted by word
    spaces (right-aligned figures set close: "5 9 13") is cut where every row of the table leaves the
    space between two of its numbers empty: the numbers are cells of columns."""
    k = 0
    while k < len(rows):
        end = k
        while end < len(rows) and len(rows[end]) >= 3:
            end += 1
        if end - k >= 3:
            covered = _union([(w0, w1) for row in rows[k:end] for p in row for w0, w1, _ in _words(p.glyphs)])
            for row in rows[k:end]:
                cut: list[_Piece] = []
                for piece in row:
                    spans = _words(piece.glyphs) if _is_value(piece) else []
                    start = 0
                    for j in [j for _, _, j in spans[1:]]:
                        lo = max(g.x1 for g in piece.glyphs[:j] if g.char.strip())
                        if _free(covered, lo, piece.glyphs[j].x0):
                            cut.append(_piece(piece.glyphs[start:j]))
                            start = j
                    cut.append(_piece(piece.glyphs[start:]))
                row[:] = cut
        k = max(end, k + 1)


def _words(glyphs: list[Glyph]) -> list[tuple[float, float, int]]:
    """(left, right, index of its first glyph) of each word of a run: ink parted by more than a fifth of
    an em (where the line gets a space)."""
    out: list[tuple[float, float, int]] = []
    last: Glyph | None = None
    for k, g in enumerate(glyphs):
        if not g.char.strip():
            continue
        if last is None or g.x0 - last.x1 > 0.18 * min(g.size, last.size):
            out.append((g.x0, g.x1, k))
        else:
            out[-1] = (out[-1][0], g.x1, out[-1][2])
        last = g
    return out


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stretches of x that spans cover, apart and left to right."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _free(covered: list[tuple[float, float]], lo: float, hi: float) -> bool:
    """Whether some stretch of (lo, hi) a tenth of a point wide or more is not covered (_union)."""
    k = bisect.bisect_left(covered, (lo, -math.inf))
    edge = max(lo, covered[k - 1][1]) if k else lo
    for a, b in covered[k:]:
        if a >= hi:
            break
        if a - edge >= 0.1:
            return True
        edge = max(edge, b)
    return hi - edge >= 0.1


def _layout(rows: list[list[_Piece]], size: float) -> list[tuple[list[_Piece], int | None]]:
    """The page's rows in reading order, each with the column it is in: row by row (a table's rows, a
    contents page's entries with their page numbers, one column of text), but for the stretches set in
    two columns of text (_two_columns), read column by column."""
    out: list[tuple[list[_Piece], int | None]] = []
    at = 0
    for start, splits in _two_columns(rows, size):
        end = start + len(splits)
        out += [(row, None) for row in rows[at:start]]
        for side in (0, 1):
            for row, x in zip(rows[start:end], splits):
                part = [p for p in row if (p.x1 <= x) == (side == 0)]
                if part:
                    out.append((part, side))
        at = end
    out += [(row, None) for row in rows[at:]]
    return out


def _two_columns(rows: list[list[_Piece]], size: float) -> list[tuple[int, list[float]]]:
    """(first row, where each row of the stretch is parted) of each stretch of rows set in two columns of
    text, top to bottom (_stretch finds the stretches, _text_columns tells text columns from a table)."""
    pieces = [p for row in rows for p in row]
    if len(pieces) < 6:
        return []
    # Where a stretch may start: each gap between two runs of a row, and (columns whose lines stand on
    # baselines of their own: no row is parted) each row the MOST_BANDS widest bands few runs cross leave
    # empty
    starts: list[tuple[int, float]] = [(k, (a.x1 + b.x0) / 2) for k, row in enumerate(rows) for a, b in zip(row, row[1:])]
    lefts, rights = sorted(p.x0 for p in pieces), sorted(p.x1 for p in pieces)
    edges = sorted(set(lefts) | set(rights))
    bands = []
    for u, v in zip(edges, edges[1:]):
        mid = (u + v) / 2
        through = bisect.bisect_left(lefts, mid) - bisect.bisect_right(rights, mid)  # runs over mid
        if v - u >= RUN_GAP * size and through * 4 <= len(rows):
            bands.append((v - u, mid))
    for _, x in sorted(bands, reverse=True)[:MOST_BANDS]:
        starts += [(k, x) for k, row in enumerate(rows) if not _crosses(row, x, size)]
    text = (lefts[0], max(rights))
    gaps = [_gaps(row, size) for row in rows]
    found: dict[tuple[int, int], tuple[int, list[float]]] = {}  # (first row, row after) -> (runs, splits)
    tried: set[tuple[int, tuple[float, float]]] = set()  # (row, its gap) a stretch was grown from
    for start, x in starts:
        gap = next((g for g in gaps[start] if g[0] <= x <= g[1]), None)
        if gap is None or (start, gap) in tried:  # a stretch grows from a row's gap the same wherever x is in it
            continue
        tried.add((start, gap))
        first, splits = _stretch(rows, gaps, start, x, gap, text)
        end = first + len(splits)
        for k, split in enumerate(splits, first):  # grown from any of its rows' gaps, the stretch is this one
            tried.update((k, g) for g in gaps[k] if g[0] <= split <= g[1])
        if (first, end) not in found and _text_columns(rows[first:end], splits):
            found[(first, end)] = (sum(len(r) for r in rows[first:end]), splits)
    chosen: list[tuple[int, list[float]]] = []
    for (first, end), (_, splits) in sorted(found.items(), key=lambda f: (-f[1][0], f[0])):
        if all(end <= s or first >= s + len(sp) for s, sp in chosen):
            chosen.append((first, splits))
    return sorted(chosen, key=lambda c: c[0])


def _crosses(row: list[_Piece], x: float, size: float) -> bool:
    """Whether a run of the row stands over x (or within a fifth of an em of it)."""
    return any(p.x0 - 0.2 * size < x < p.x1 + 0.2 * size for p in row)


def _gaps(row: list[_Piece], size: float) -> list[tuple[float, float]]:
    """The stretches of x a row leaves empty (its runs widened by a fifth of an em), its margins too."""
    edges = [-math.inf] + [e for p in row for e in (p.x0 - 0.2 * size, p.x1 + 0.2 * size)] + [math.inf]
    return [(a, b) for a, b in zip(edges[::2], edges[1::2]) if b > a]


def _stretch(rows: list[list[_Piece]], gaps: list[list[tuple[float, float]]], at: int, x: float,
             start: tuple[float, float], text: tuple[float, float]) -> tuple[int, list[float]]:
    """(first row, where each row is parted) of the rows around row `at` that part into a left and a right
    side: going up and down from x in row `at` (in its gap `start`; `gaps`: every row's, _gaps), each row
    parts where its gap overlaps the one of the row before it (columns whose lines start at some tabs, not
    at one edge), a row of one side only where it leaves the gap before it empty (a run standing inside
    the gap, a page number centred under two columns, ends the stretch). A band read from a few rows of a
    table (an index's short entries and their references) so grows over the whole table. A gap counts
    where it lies within the page's text (`text`, its left and right edge): the margins part no columns."""
    splits = {at: x}
    for step in (1, -1):
        gap, k = start, at + step
        while 0 <= k < len(rows):
            overlaps = [(max(a, gap[0], text[0]), min(b, gap[1], text[1]), (a, b)) for a, b in gaps[k]]
            overlaps = [o for o in overlaps if o[1] - o[0] > 0]
            if not overlaps:
                break
            lo, hi, own = max(overlaps, key=lambda o: o[1] - o[0])
            both = any(p.x1 <= lo for p in rows[k]) and any(p.x0 >= hi for p in rows[k])
            if not both and math.isfinite(gap[0] + gap[1]) and any(p.x0 >= gap[0] and p.x1 <= gap[1] for p in rows[k]):
                break  # a run inside the gap (a page number centred under the columns) is in neither column
            gap = own if both else (lo, hi)  # a row of one side narrows the gap, a parted row sets it
            splits[k] = (lo + hi) / 2
            k += step
    first = min(splits)
    ks = range(first, max(splits) + 1)
    parted = {k: g for k in ks for g in gaps[k] if g[0] < splits[k] < g[1] and
              any(p.x1 <= g[0] for p in rows[k]) and any(p.x0 >= g[1] for p in rows[k])}
    if parted:  # a row of one side standing inside the gap of the nearest parted row is in no column
        order = sorted(parted)
        for k in ks:
            if k in parted:
                continue
            place = bisect.bisect(order, k)
            near = min(order[max(place - 1, 0):place + 1], key=lambda j: abs(j - k))
            if any(p.x0 >= parted[near][0] and p.x1 <= parted[near][1] for p in rows[k]):
                return at, [x]
    return first, [splits[k] for k in ks]


def _text_columns(rows: list[list[_Piece]], splits: list[float]) -> bool:
    """Whether rows parted at splits are two columns of text: three lines or more on either side, neither
    side mostly numbers (page numbers, references, scores: the rows are entries or a table's rows), no
    side parted again in a quarter of the rows (a table of three columns or more), every line of the first
    column starting and ending left of where every line of the second starts and ends, the sides alike in
    width (the narrower at least COLUMN_WIDTHS of the wider), the parting in the middle three fifths."""
    left = [p for row, x in zip(rows, splits) for p in row if p.x1 <= x]
    right = [p for row, x in zip(rows, splits) for p in row if p.x0 >= x]
    if sum(any(p.x1 <= x for p in row) for row, x in zip(rows, splits)) < 3 or \
            sum(any(p.x0 >= x for p in row) for row, x in zip(rows, splits)) < 3:
        return False  # a column has three lines or more
    if sum(map(_is_value, left)) * 2 >= len(left) or sum(map(_is_value, right)) * 2 >= len(right):
        return False
    split = sum(1 for row, x in zip(rows, splits) if sum(p.x1 <= x for p in row) > 1 or sum(p.x0 >= x for p in row) > 1)
    if split >= 2 and split * 4 >= len(rows):
        return False
    if max(p.x0 for p in left) >= min(p.x0 for p in right) or max(p.x1 for p in left) >= min(p.x1 for p in right):
        return False  # a line of the first column starts or ends where one of the second does
    wide_left = max(p.x1 for p in left) - min(p.x0 for p in left)
    wide_right = max(p.x1 for p in right) - min(p.x0 for p in right)
    if min(wide_left, wide_right) < COLUMN_WIDTHS * max(wide_left, wide_right):
        return False
    start, end = min(p.x0 for p in left), max(p.x1 for p in right)
    middle = (max(p.x1 for p in left) + min(p.x0 for p in right)) / 2
    return start + 0.2 * (end - start) <= middle <= start + 0.8 * (end - start)


def _is_value(piece: _Piece) -> bool:
    """A run that is a number or a reference (a page number, "12C1(d), 86B2", a score) more than words."""
    return piece.value


def _value(text: str) -> bool:
    """A page number, or a text of as many digits as letters or more."""
    if PAGE_NUMBER.fullmatch(text):
        return True
    digits = sum(c.isdigit() for c in text)
    return digits > 0 and digits >= sum(c.isalpha() for c in text)


def _page_line(file: str, page: int, row: int, chars: list[Glyph], pieces: list[_Piece] | None = None,
               column: int | None = None, hidden: str | None = None) -> PageLine:
    """One printed line: its text with the spaces put back from the gaps, each run in its logical order,
    and its evidence."""
    size = _line_size(chars)
    ys = [round(g.y, 1) for g in chars if g.size == size]
    base = ys[0] if all(y == ys[0] for y in ys) else Counter(ys).most_common(1)[0][0]
    if pieces is None:
        pieces = _pieces(chars, size)
    seq: list[tuple[str, Glyph | None]] = []  # the line's characters, with the spaces put back (no glyph)
    spans: list[tuple[int, int, float, float]] = []
    last: Glyph | None = None
    for piece in pieces:
        part: list[tuple[str, Glyph | None]] = []
        for g in piece.glyphs:
            before = part[-1][0] if part else seq[-1][0] if seq else None
            if last is not None and g.char != " " and before is not None and before not in (" ", SOFT_HYPHEN) and \
                    g.x0 - last.x1 > 0.18 * min(g.size, last.size):
                (part if part else seq).append((" ", None))
            part.append((g.char if g.char != "\u00a0" else " ", g))
            last = g
        start = len(seq)
        seq += _logical(part)
        first, end = start, len(seq)
        while first < end and seq[first][0] == " ":
            first += 1
        while end > first and seq[end - 1][0] == " ":
            end -= 1
        spans.append((first, end, piece.x0, piece.x1))
    raised: list[tuple[int, int]] = []
    damaged: list[tuple[int, int, str]] = []
    bold_head, head_open = 0, True
    for k, (char, item) in enumerate(seq):
        if item is None:
            continue
        g = item
        if _raised(g, size, base):
            if raised and raised[-1][1] == k:
                raised[-1] = (raised[-1][0], k + 1)
            elif char != " ":
                raised.append((k, k + 1))
        if g.damaged:
            if damaged and damaged[-1][2] == g.font and all(c == " " for c, _ in seq[damaged[-1][1]:k]):
                damaged[-1] = (damaged[-1][0], k + 1, g.font)
            else:
                damaged.append((k, k + 1, g.font))
        if head_open:
            if g.bold:
                bold_head = k + 1
            elif char != " ":
                head_open = False
    raised = [(a, a + len("".join(c for c, _ in seq[a:b]).rstrip())) for a, b in raised]
    line = "".join(char for char, _ in seq)
    if line.endswith(SOFT_HYPHEN):  # a line-end hyphen: the repair stage decides whether it is a real one
        line = line[:-1] + "-"
    bold = sum(g.bold for g in chars) * 2 > len(chars)
    right = max((g.x1 for g in chars if not g.char.isspace()), default=chars[-1].x1)
    italic = all(g.italic for g in chars if not g.char.isspace())
    runs = tuple(Run(a, b, round(x0, 2), round(x1, 2)) for a, b, x0, x1 in spans)
    return PageLine(file, page * LINE_STEP + row, line, page_break=row == 1, page=page, x=chars[0].x0, y=base,
                       size=size, bold=bold, italic=italic, bold_head=bold_head, raised=tuple(raised), right=right,
                       runs=runs, column=column, damaged=tuple(damaged), hidden=hidden)


def _raised(g: Glyph, size: float, base: float) -> bool:
    """A character of a note marker: a digit, *, † or ‡ (or a space between them) set smaller on a raised
    baseline, or a superscript digit glyph (its ink starts high above the baseline; an ordinary digit's
    sits on it or below)."""
    small_and_raised = g.size < 0.85 * size and g.y - base > 0.15 * size
    if g.char.isdigit():
        return small_and_raised or g.bottom - g.y > 0.25 * g.size
    return (g.char in MARKERS or g.char == " ") and small_and_raised


def _logical(part: list[tuple[str, Glyph | None]]) -> list[tuple[str, Glyph | None]]:
    """A run's characters, read left to right on the page, in their logical order: where it holds
    right-to-left letters (Hebrew, Arabic: bidirectional class R or AL) their stretches are turned, the
    numbers and left-to-right words inside them keeping their order and brackets in them mirrored; a run
    mostly of right-to-left letters is turned whole, its left-to-right stretches keeping theirs."""
    if not any(RIGHT_TO_LEFT.match(c) for c, _ in part):
        return part
    kinds = [unicodedata.bidirectional(c) for c, _ in part]
    if not any(k in RTL_LETTERS for k in kinds):
        return part
    strong = [k for k in kinds if k in RTL_LETTERS or k in LTR_LETTERS]
    if sum(k in RTL_LETTERS for k in strong) * 2 > len(strong):  # the run reads right to left
        order, kept = _keep_order(list(range(len(part)))[::-1], kinds, LTR_LETTERS | NUMBERS, RTL_LETTERS)
        turned = set(range(len(part))) - kept
    else:
        order, turned = _turn(list(range(len(part))), kinds)
    return [(MIRRORED.get(part[k][0], part[k][0]) if k in turned else part[k][0], part[k][1]) for k in order]


def _turn(order: list[int], kinds: list[str]) -> tuple[list[int], set[int]]:
    """In a left-to-right run: each stretch from a right-to-left letter to the last one before a
    left-to-right letter turned, the numbers in it keeping their order; and the characters turned."""
    out: list[int] = []
    turned: set[int] = set()
    k = 0
    while k < len(order):
        if kinds[order[k]] in RTL_LETTERS:
            end = k
            for j in range(k, len(order)):
                if kinds[order[j]] in LTR_LETTERS:
                    break
                if kinds[order[j]] in RTL_LETTERS:
                    end = j
            stretch, kept = _keep_order(order[k:end + 1][::-1], kinds, NUMBERS, RTL_LETTERS | LTR_LETTERS)
            out += stretch
            turned |= set(order[k:end + 1]) - kept
            k = end + 1
        else:
            out.append(order[k])
            k += 1
    return out, turned


def _keep_order(order: list[int], kinds: list[str], keep: frozenset[str],
                stop: frozenset[str]) -> tuple[list[int], set[int]]:
    """order (turned) with each stretch that starts and ends with a character of a class in keep, and holds
    none of a class in stop, turned back (the stretches that read left to right); and those characters."""
    out = list(order)
    kept: set[int] = set()
    k = 0
    while k < len(out):
        if kinds[out[k]] in keep:
            end = k
            for j in range(k, len(out)):
                if kinds[out[j]] in stop:
                    break
                if kinds[out[j]] in keep:
                    end = j
            out[k:end + 1] = out[k:end + 1][::-1]
            kept |= set(out[k:end + 1])
            k = end + 1
        else:
            k += 1
    return out, kept
