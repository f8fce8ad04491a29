"""Where a source's pages begin and end inside the book, and what its own numbering says it lacks.

Reads: the page stream, its furniture (the number printed on each page), the blocks read. Writes: gaps
(a page run that starts or ends inside an article, pages missing between two), errors (pages out of
order, a footnote number the book skips), inferences (an article read as complete at a page's end).

  - page_runs: an article part's pages cut where the printed page numbers jump ahead (pages missing):
    each run is read on its own, and a run after missing pages starts inside an article it cannot know;
  - check_page_numbers: the pages numbered in arabic go up by one through the book; a jump is pages the
    source lacks (a gap of the book's pages), a step back an error;
  - cut_off: the gap at the end of the extraction, when its last article stops mid-sentence or
    mid-structure (_ending), or may have gone on overleaf ("uncertain");
  - check_footnote_numbers: a book numbering its footnotes through prints each number from the first to
    the last.
"""
import re
from collections.abc import Callable

from ...core import ids, lang
from ...core.model import NOTE_MARK, PAGES_GAP, Block, Gap, Reading
from ...core.report import FileLog, number_ranges
from ..notes import Footnote
from .furniture import Furniture
from .parts import Part
from .stream import PageStream, PrintedLine

SENTENCE_END = re.compile(r"[.!?][)\]\"'\u2019\u201d]*$")
HYPHENATED = re.compile(r"[^\W\d_]-$")


def numbered(furniture: Furniture, pages: list[int]) -> list[tuple[int, int]]:
    """(page index, printed number) of each of `pages` (indices into the stream, in order) numbered in arabic."""
    out: list[tuple[int, int]] = []
    for p in pages:
        label = furniture.label(p)
        if label and label.isdigit():
            out.append((p, int(label)))
    return out


def jumps(numbers: list[tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """((page index, number) before, (page index, number)) wherever a page's number is not the one its
    place after the numbered page before gives: pages missing between them, or out of order."""
    return [(a, b) for a, b in zip(numbers, numbers[1:]) if b[1] != a[1] + (b[0] - a[0])]


def page_runs(part: Part, furniture: Furniture) -> list[list[int]]:
    """The part's pages (indices into part.pages) cut where the printed page numbers jump ahead."""
    starts = {p for (p0, before), (p, number) in jumps(numbered(furniture, part.page_index))
              if number > before + (p - p0)}
    runs: list[list[int]] = []
    for i, p in enumerate(part.page_index):
        if not runs or p in starts:
            runs.append([])
        runs[-1].append(i)
    return runs


def check_page_numbers(stream: PageStream, furniture: Furniture, book: list[Part], reading: Reading,
                       flog: FileLog) -> None:
    """The pages numbered in arabic go up by one through the book: a jump is pages the source lacks (a
    gap of the book's pages; the book check (corpus/book.py) then reports what they held as missing).
    (The contents list and the front matter are left out: their numbers are the list's own or roman.)"""
    listed = sorted({p for part in book if part.kind not in ("contents", "front") for p in part.page_index})
    for (p0, before), (p, number) in jumps(numbered(furniture, listed)):
        line, line0 = stream.pages[p].lines[0].num, stream.pages[p0].lines[0].num
        if number > before + 1:  # a gap in the book's pages, not in one article's text
            missing = f"{before + 1}" if number == before + 2 else f"{before + 1}-{number - 1}"
            reading.gaps.append(Gap(line, PAGES_GAP, f"page {number} follows page {before} (line {line0}): the "
                                                     f"book's page(s) {missing} are not in this source"))
        else:
            flog.error(line, f"page {number} comes after page {before} (line {line0}): the pages are out of order "
                             f"or a page number is damaged")


def check_footnote_numbers(footnotes: list[Footnote], blocks: list[Block], flog: FileLog) -> None:
    """The book numbers its footnotes through: each number from the first to the last is printed (from 1
    where these pages start with the book's first article). Footnotes numbered per page (the same number
    on two pages) and signs are not checked so."""
    printed_at: dict[int, int] = {}
    for f in footnotes:
        if f.number.isdigit():
            if int(f.number) in printed_at:
                return  # numbered per page
            printed_at[int(f.number)] = f.position
    if not printed_at:
        return
    first_article = next((b for b in blocks if b.kind == "article" and b.cite), None)
    low = 1 if first_article is not None and first_article.cite == "1" else min(printed_at)
    missing = [n for n in range(low, max(printed_at) + 1) if n not in printed_at]
    if missing:
        after = max((n for n in printed_at if n < missing[0]), default=None)
        where = f" (after footnote {after} at line {printed_at[after]})" if after else ""
        flog.error(printed_at[min(n for n in printed_at if n > missing[0])],
                   f"the book's footnote(s) {number_ranges(missing)} are printed at no page foot{where}: "
                   f"the book numbers its footnotes through, so a page or a footnote is missing")


def _ending(blocks: list[Block]) -> tuple[str, bool] | None:
    """Why the last article (its blocks after the heading) stops before its end, or None when nothing
    shows it does: (reason, certain)."""
    last = blocks[-1]
    if last.kind in ("article", "title", "heading") or (last.kind == "heading-text" and not last.text):
        return "its last line is a title or heading with no text after it", True
    end = (last.pieces[-1][1] if last.pieces else last.text).replace(NOTE_MARK, "").rstrip()
    if HYPHENATED.search(end):
        return "its last line ends in a hyphenated word", True
    if end.endswith(":"):
        return "its last line ends in a colon, which leads in to text that is not there", True
    if end.endswith(";"):
        return "its last line ends in a semicolon: the list it is in goes on", True
    if not SENTENCE_END.search(end):
        return "its last sentence stops without a full stop", True
    # The book letters and numbers parts only where there are two or more: a lone "A." or "1." is open.
    letters = [b.cite[0] for b in blocks if b.kind in ("heading", "heading-text") and b.cite]
    if letters and letters[-1] == "A":
        return "its sections stop at A", True
    numbers = [b.number for b in blocks if b.kind == "list"]
    if numbers and numbers[-1] == 1:
        return "its numbered parts stop at 1.", True
    return None


def cut_off(reading: Reading, pages: list[list[PrintedLine]], label: str | None, line: int, flog: FileLog,
            rules: lang.LanguageRules, measure: Callable[[list[PrintedLine]], int] = len,
            unit: str = "lines", whole_document: bool = False) -> None:
    """The gap at the end of the extraction, by these rules: the last article is cut off when its text
    stops mid-sentence or mid-structure (_ending); when it ends with a full sentence and leaves nothing
    open, it is complete if its page is shorter than every page before it (the text ends there), and
    may be cut off ("uncertain") if the page is as full as one the text went on from, or the extraction
    is this one page. A page's fullness is measure(page) in `unit` (lines; characters where a
    paragraph is one line). `label`: the number printed on the last page. A whole document (a PDF: its last page
    is the document's last, not a page an extraction stopped at) is cut off only where its text stops
    mid-sentence or mid-structure."""
    at = next((i for i in range(len(reading.blocks) - 1, -1, -1) if reading.blocks[i].kind == "article"), None)
    cite = reading.blocks[at].cite if at is not None else None
    if at is None or not cite:  # (an unreadable heading is an error already)
        return
    blocks = reading.blocks[at:]
    where, waar = (f"page {label}", rules.CUT_OFF_PAGE.format(page=label)) if label else \
        ("the extraction", rules.CUT_OFF_EXTRACTION)
    ending = _ending(blocks)
    if ending is not None:
        reading.gaps.append(Gap(line, cite, f"article {cite} is cut off at the end of {where}: "
                                            f"the rest is on a page that is not in the sources",
                                rules.CUT_OFF.format(cite=cite, where=waar)))
        return
    if whole_document:
        return  # a PDF's last page is the document's: its text ends there unless it stops mid-sentence
    sizes = [measure(p) for p in pages]
    if len(pages) > 1 and sizes[-1] < min(sizes[:-1]):
        flog.inference(line, ids.join(reading.edition, cite),
                       f"article {cite} is read as complete at the end of {where}: its text ends with a full "
                       f"sentence, leaves no section or numbered part open, and the page holds {sizes[-1]} {unit}, "
                       f"fewer than any page before it ({min(sizes[:-1])} or more), so the text ends there")
        return
    why = ("the extraction is this one page, so nothing shows whether the article goes on overleaf"
           if len(pages) == 1 else
           f"the page holds {sizes[-1]} {unit}, as many as a page the text went on from "
           f"({min(sizes[:-1])}), so it may go on overleaf")
    reading.gaps.append(Gap(line, cite, f"article {cite} may be cut off at the end of {where} (uncertain): its "
                                        f"text ends with a full sentence and leaves no section or numbered part "
                                        f"open, but {why}",
                            rules.MAYBE_CUT_OFF.format(cite=cite, where=waar)))
