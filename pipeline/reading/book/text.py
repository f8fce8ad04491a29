"""The text adapter: a text extraction of a printed book, from any extractor, as a page stream.

Reads: a source's Lines (decode.py, normalise.py). Writes: a PageStream of PrintedLines (stream.py).

The pages. A page starts at a line that held a form feed (decode.py reads it as a space and logs it).
Where the form feed is missing, a page number alone on its line after a blank line starts one (each such
start an inference, _joined_page_starts). In an extraction without any form feed, a page starts at a
running head beside a page number (above or below it, or on its line) whose text or shape stands beside a
page number twice or more, the numbers going up; or at the numbers alone that stand once and go up (at
the foot, a page starts after its number) (_starts_without_form_feeds, _starts_at_numbers).

The layout. A text set out in columns as on the page (pdftotext -layout: lines indented, cells and page
numbers apart by runs of spaces) gives each line its place: x is its indent in characters, right the
column after its last character, runs its pieces apart by three spaces or more. Any other text gives
none (x, right and runs None): its lines lost their place on the page.
"""
import re
from collections import Counter
from dataclasses import replace

from ...core.model import Line
from ...core.report import FileLog
from .furniture import Folio, beside_head, is_page_number, may_be_head, page_number, roman_value
from .stream import Page, PageStream, PrintedLine, Run
from .words import BookWords

SENTENCE_END = re.compile(r"[.!?:][)\]\"'\u2019\u201d]*$")
ROMAN = re.compile(r"^(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.IGNORECASE)
GAP = re.compile(r" {3,}")  # between the runs of a line set out as on the page
WINDOW = 64


def stream(lines: list[Line], flog: FileLog, words: BookWords) -> PageStream:
    """The source's pages (see the module's docstring)."""
    lines = _joined_page_starts(lines, flog, words)
    kept: list[Line] = []
    spaced: set[int] = set()  # the lines with a blank line above them
    starts, pending, blank = [0], False, False
    for line in lines:
        pending = pending or line.page_break
        if not line.blank:
            if pending and kept:
                starts.append(len(kept))
            if blank:
                spaced.add(line.num)
            pending, blank = False, False
            kept.append(line)
        else:
            blank = True
    strip = [line.text.strip() for line in kept]
    if len(starts) == 1:  # form feeds mark the pages; without any, the heads beside the numbers, or the numbers
        by_heads, by_numbers = _starts_without_form_feeds(strip, words), _starts_at_numbers(strip)
        starts = sorted(set(starts) | (by_numbers if len(by_numbers) > len(by_heads) else by_heads))
    layout = is_layout(kept)
    pages = []
    for n, (a, b) in enumerate(zip(starts, starts[1:] + [len(kept)]), 1):
        pages.append(Page(n, tuple(_printed(line, n, layout, line.num in spaced) for line in kept[a:b])))
    return PageStream(flog.file, tuple(pages), "layout" if layout else "text")


def is_layout(lines: list[Line]) -> bool:
    """A text set out as on the page (see set_out)."""
    return set_out([line.text for line in lines])


def set_out(texts: list[str]) -> bool:
    """Texts set out as on the page: a quarter of the lines or more indented, and one in twenty or more
    whose pieces stand apart by runs of spaces (pdftotext -layout). An export whose wrapped lines are
    indented has no runs."""
    texts = [t for t in texts if t.strip()]
    if not texts:
        return False
    indented = sum(1 for t in texts if t[:1] == " ")
    apart = sum(1 for t in texts if GAP.search(t.strip()))
    return indented * 4 >= len(texts) and apart * 20 >= len(texts)


def _printed(line: Line, page: int, layout: bool, spaced: bool) -> PrintedLine:
    if not layout:
        return PrintedLine(line.file, line.num, line.text, line.page_break, page=page, space_before=spaced)
    text = line.text.rstrip()
    x = len(text) - len(text.lstrip())
    runs = []
    start = x
    for m in GAP.finditer(text, x):
        runs.append(Run(start, m.start(), float(start), float(m.start())))
        start = m.end()
    runs.append(Run(start, len(text), float(start), float(len(text))))
    return PrintedLine(line.file, line.num, line.text, line.page_break, page=page, x=float(x), right=float(len(text)),
                       runs=tuple(runs), space_before=spaced)


def _joined_page_starts(lines: list[Line], flog: FileLog, words: BookWords) -> list[Line]:
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
    read = False  # text came before on this page that no running head is: a number after it starts a page
    for i, line in enumerate(lines):
        text = texts[i]
        top = top or line.page_break
        if line.page_break:
            read = False
        if sequence and i and not texts[i - 1] and ROMAN.match(text) and roman_value(text) == roman + 1 \
                and not ROMAN.match(around[i][1]):
            flog.inference(line.num, None, f"page {text} starts here without a form feed: a page number alone "
                                           f"after a blank line, after page {roman_value(text) - 1 or 'none'} in "
                                           f"roman")
            line, roman = replace(line, page_break=True), roman + 1
        elif text.isdigit() and len(text) <= 4:
            before, after = around[i]
            in_context = bool(words.article.match(after) or SENTENCE_END.search(before) and
                              (len(after) > 40 or after[:1].islower()))
            if top:
                last = int(text)
            elif i and not texts[i - 1] and read and (
                    (int(text) == last + 1 and not after.isdigit() if last is not None else in_context) if sequence
                    else last is not None and int(text) > last and in_context):
                flog.inference(line.num, None, f"page {text} starts here without a form feed: a page number alone "
                                               f"after a blank line" + (f", after page {last}" if last else ""))
                line, last, read = replace(line, page_break=True), int(text), False
        if text:
            top = False
            read = read or not may_be_head(text, words)
        out.append(line)
    return out


def _starts_without_form_feeds(strip: list[str], words: BookWords) -> set[int]:
    """Where pages start in an extraction without form feeds: at a running head beside a page number
    (above or below it, or on its line) whose text or shape stands beside a page number twice or more,
    the numbers going up through the extraction (a footnote marker above a head at the next page's top
    is not one). A number alone on its line counts only where it stands once in the extraction: a
    footnote's number stands again at its marker, and a footnote's text below it is no head, even when
    the same text stands below another footnote number."""
    from .furniture import shape

    pairs: list[tuple[int, int, Folio]] = []  # (first line, last line, the number and its head)
    labels = [page_number(text) for text in strip]
    times = Counter(label for label in labels if label is not None)
    for i, text in enumerate(strip):
        pairs += [(i, i, Folio(0, i, label, head, False)) for label, head in beside_head(text, words)]
        for head, number, at in ((text, i + 1, i + 1), (strip[i + 1], i, i)) if i + 1 < len(strip) else ():
            label = labels[number]
            if label is not None and times[label] == 1 and not is_page_number(head) and may_be_head(head, words):
                pairs.append((i, i + 1, Folio(0, at, label, head, False)))
    seen: dict[str, set[int]] = {}
    for i, _, f in pairs:
        seen.setdefault(f.head, set()).add(i)
        seen.setdefault("\0" + shape(f.head), set()).add(i)
    pairs = [pair for pair in pairs if len(seen[pair[2].head]) > 1 or len(seen["\0" + shape(pair[2].head)]) > 1]
    # The longest run of pairs, in the order of the lines, whose numbers go up (in the same numerals).
    # (A run is looked for among the WINDOW pairs before each: a page holds few of them.)
    best: list[list[int]] = []
    for k, (first, _, f) in enumerate(pairs):
        before = [best[j] for j in range(max(0, k - WINDOW), k) if pairs[j][1] < first
                  and pairs[j][2].kind == f.kind and pairs[j][2].value < f.value]
        best.append(max(before, key=len, default=[]) + [k])
    run = [pairs[k] for k in max(best, key=len, default=[])]
    if len(run) < 2:
        return set()
    # Numbers at the foot, each above the next page's head: the extraction ends with the next number.
    end = page_number(strip[-1])
    last = Folio(0, len(strip) - 1, end, "", False) if end is not None else None
    if last and last.kind == run[-1][2].kind and last.value == run[-1][2].value + 1 and \
            all(f.at == first < last_line for first, last_line, f in run):
        return {f.at + 1 for _, _, f in run}
    return {first for first, _, _ in run}


def _starts_at_numbers(strip: list[str]) -> set[int]:
    """Where pages start in an extraction without form feeds, by its page numbers alone (taken where they
    make more pages than the heads beside numbers do: a head may stand beside one number only): the
    numbers alone on their lines that stand once in the extraction (a footnote marker's number stands
    again at its footnote) and go up through it, by one or, past a number that also stands elsewhere, by
    two or three; three pages or more. Printed at the foot when the extraction ends with one and does not
    start with one: a page starts after its number; else at it."""
    lone = [(i, Folio(0, i, label, "", False)) for i, t in enumerate(strip) if (label := page_number(t)) is not None]
    times = Counter(f.label for _, f in lone)
    once = [(i, f) for i, f in lone if times[f.label] == 1]
    runs: dict[tuple[str, int], list[int]] = {}  # (numerals, value) -> the longest run ending at that value
    for i, f in once:
        run = max((runs.get((f.kind, f.value - step), []) for step in (1, 2, 3)), key=len) + [i]
        if len(run) > len(runs.get((f.kind, f.value), [])):
            runs[(f.kind, f.value)] = run
    run = max(runs.values(), key=len, default=[])
    if len(run) < 3:
        return set()
    if run[-1] == len(strip) - 1 and run[0] != 0:
        return {m + 1 for m in run[:-1]}
    return set(run) - {0}
