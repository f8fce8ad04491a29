"""Reader for a text extraction of the printed book: one page, some pages or the whole book.

Reads: a source's Lines (after read.py and normalise.py). Writes: a Reading: blocks, the page furniture
as Dropped lines (each with its reason, for the report), gaps where the extraction starts or ends inside
an article.

The pages. A page starts at a line that held a form feed (read.py reads it as a space and logs it); in an
extraction without any form feed, at a running head beside a page number (above or below it) whose text
or shape stands beside a page number twice or more, the numbers going up; or at the numbers alone that
stand once and go up (at the foot, a page starts after its number). Page furniture, dropped, is learned
from the pages themselves, never from where the extraction starts (pages()):
  - the page number: at the top, within its first four lines, or the page's last line (under the
    footnotes), arabic ("32") or roman ("xiv"), alone or on one line with the running head ("12
    Spelregels voor Wedstrijdbridge", "Artikel 41  13"); it is the line whose number goes up by one from
    page to page, so a footnote marker near a page's top or end is never taken for it. A page whose
    number runs with no other page's (one page, pages far apart) has a number alone at its top below
    nothing but running heads, or its last line when none is at its top;
  - the running heads: every line above the page number at a page's top, and the lines at the page tops
    whose text or shape stands in the same place on half the pages of one parity or more: the book's
    title on the even pages, "Artikel 41" (the article on the page) on the odd ones, each above or below
    the number, which may be printed first on one side and last on the other.
On the pages:
  - "ARTIKEL 24" on its own line, then the title on one or more short lines (a continuation line
    starts in lower case);
  - "A. heading" section headings, on one line of up to LONG_HEADING characters or wrapped onto
    continuation lines that start in lower case; "1. text" subsections;
  - paragraph text broken into short lines, words hyphenated at line ends;
  - a footnote marker: a number alone on a line inside a paragraph; the footnote itself: the same number
    alone on a line at a page bottom after the marker (while a marker of its number waits), then its
    text, to the next footnote or the page end. The numbers may start again on each page or run through
    the book. Markers and footnotes are matched by the rule of notes.Footnotes.
A paragraph goes on across a page break, past the footnotes at the page bottom and the furniture:
its lines stay as the pages broke them (Block.pieces), and the repair stage joins them, deciding each
line-end hyphen with the book's vocabulary and logging every join across a page (repair.py).
Where the extraction starts or ends inside an article, that is a gap, never filled (see cut_off).
"""
import re
from collections import Counter
from typing import NamedTuple

from .. import notes
from ...core import ids, lang
from collections.abc import Callable, Sized

from ...core.model import NOTE_MARK, Block, Dropped, Gap, Note, Piece, Reading, Rules
from ...core.report import BuildLog, FileLog
from ..decode import Line
from .common import (ReadSource, LETTERED, LONG_HEADING, NUMBERED, Format, continues_heading, is_heading_like,
                     looks_like_article, unreadable_heading)



@lang.compiled
def patterns(rules: lang.LanguageRules) -> dict:
    """The article heading pattern, and the words of a cut-off, in the words of a language's rules."""
    return {"keyword": rules.ARTICLE_WORD_PRINTED, "rules": rules,
            "article": re.compile(rf"^{re.escape(rules.ARTICLE_WORD_PRINTED)}[\s\u00a0]+(\d+)\s*$")}


DIGITS = re.compile(r"^\d{1,4}$")
# i … cccxcix, in either case: the numbers of the pages before the first arabic one.
ROMAN = re.compile(r"^(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.IGNORECASE)
TOP = 4  # the lines at a page top that may be furniture: up to three header lines and the number
# A page number on one line with the running head, printed at the other side of the page: first on the
# line ("12  Spelregels voor Wedstrijdbridge", an even page) or last ("Artikel 41  13", an odd page).
FOLIO_FIRST = re.compile(r"^(\d{1,4}|[ivxlc]+)\s+(\S.*)$")
FOLIO_LAST = re.compile(r"^(.*\S)\s+(\d{1,4}|[ivxlc]+)$")
ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def is_page_number(text: str) -> bool:
    return bool(DIGITS.match(text) or ROMAN.match(text))


def roman_value(label: str) -> int:
    """The value of a roman page number ("xiv" is 14)."""
    values = [ROMAN_VALUES[c] for c in label.lower()]
    return sum(-v if k + 1 < len(values) and values[k + 1] > v else v for k, v in enumerate(values))


def _is_structure(text: str, words: dict) -> bool:
    return bool(words["article"].match(text) or LETTERED.match(text) or NUMBERED.match(text)
                or looks_like_article(text, words["keyword"]))


def _is_law_line(text: str, words: dict) -> bool:
    """A line of the law's own structure as the page prints it: "ARTIKEL 24", "A. heading", "1. text".
    (A running head such as "Artikel 41", the article on the page, only looks like a heading.)"""
    return bool(words["article"].match(text) or LETTERED.match(text) or NUMBERED.match(text))


# A number or a range of them, with citation letters: "41", "41A", "12C1", "41–42", "24, 25".
NUMBERS = re.compile(r"\d[\dA-Za-z]*(?:\s*[-\u2013,]\s*\d[\dA-Za-z]*)*")


def shape(text: str) -> str:
    """A line with its numbers as '#': the running heads "Artikel 41", "Artikel 42" and "Artikel 42–43"
    (the articles on the page) have one shape."""
    return NUMBERS.sub("#", text)


class Folio(NamedTuple):
    """A line at a page's top or foot that is, or holds, a page number."""
    page: int  # the page's index in the extraction
    at: int  # the line's index on the page
    label: str  # the number as printed: "32", "xiv"
    head: str  # the running head printed on the same line, "" when the number stands alone
    foot: bool  # the page's last line
    repeated: bool = False  # the number stands alone on another line of the page too: as a footnote marker does

    @property
    def kind(self) -> str:
        return "arabic" if self.label.isdigit() else "roman"

    @property
    def value(self) -> int:
        return int(self.label) if self.label.isdigit() else roman_value(self.label)


def pages(lines: list[Line], words: dict) -> tuple[list[list[Line]], dict[int, str]]:
    """The non-blank lines cut into pages, and the furniture of each: ([[Line]], {line number: reason}).
    `words`: patterns(profile) of the book's language.

    The furniture is learned from the pages, never from where the extraction starts: the page numbers
    are the lines at the page tops or feet whose numbers go up by one from page to page (_chain, and
    _lone_numbers for a page whose number runs with no other's); the running heads are the lines above
    a page number at a page's top, and those whose text or shape stands in the same place on half the
    pages of their parity (_Heads): the book's title on the even pages, "Artikel 41", "Artikel 42" … on
    the odd ones."""
    texts: list[Line] = []
    starts, pending = [0], False
    for line in lines:
        pending = pending or line.page_break
        if not line.blank:
            if pending and texts:
                starts.append(len(texts))
            pending = False
            texts.append(line)
    strip = [line.text.strip() for line in texts]
    if len(starts) == 1:  # form feeds mark the pages; without any, the heads beside the numbers, or the numbers
        by_heads, by_numbers = _starts_without_form_feeds(strip, words), _starts_at_numbers(strip)
        starts = sorted(set(starts) | (by_numbers if len(by_numbers) > len(by_heads) else by_heads))
    cut = [texts[a:b] for a, b in zip(starts, starts[1:] + [len(texts)])]
    page_texts = [[line.text.strip() for line in page] for page in cut]
    folios = [f for p, page in enumerate(page_texts) for f in _folios(page, p, words)]
    numbers = _chain(folios)
    numbers.update(_lone_numbers(page_texts, folios, numbers))
    heads = _Heads(page_texts, numbers, words)
    furniture: dict[int, str] = {}
    for p, page in enumerate(cut):
        furniture.update(_furniture(page, page_texts[p], p, numbers.get(p), heads))
    return cut, furniture


def _folios(strip: list, p: int, words: dict) -> list:
    """The page's lines that may be its number: at its top, below nothing but lines a running head may
    be (short and capitalised, not law text), a number alone or beside a running head on its line; its
    last line, a number alone."""
    found = []
    for i, text in enumerate(strip[:TOP]):
        if is_page_number(text):
            found.append(Folio(p, i, text, "", False))
        else:
            found += [Folio(p, i, label, head, False) for label, head in _beside_head(text, words)]
        if not _may_be_head(text, words):
            break
    if strip and is_page_number(strip[-1]) and not any(f.at == len(strip) - 1 for f in found):
        found.append(Folio(p, len(strip) - 1, strip[-1], "", True))
    return [f._replace(repeated=strip.count(f.label) > (0 if f.head else 1)) for f in found]


def _beside_head(text: str, words: dict) -> list:
    """[(page number, running head)] a line may hold: the number first or last, the head on the rest.
    Not a line of the law ("ARTIKEL 24"), nor an article word and its number ("Artikel 24": the number
    is the article's)."""
    if _is_law_line(text, words):
        return []
    found = []
    for m, label, head in ((FOLIO_FIRST.match(text), 1, 2), (FOLIO_LAST.match(text), 2, 1)):
        if m and is_page_number(m.group(label)) and _may_be_head(m.group(head), words) and not (
                head == 1 and m.group(head).lower().endswith(words["keyword"].lower())):
            found.append((m.group(label), m.group(head)))
    return found


def _may_be_head(text: str, words: dict) -> bool:
    """A line a running head may be: short and capitalised as a head is, and not the law's structure."""
    return is_heading_like(text) and not _is_law_line(text, words)


def _chain(folios: list) -> dict:
    """{page index: Folio}: the page numbers, the candidates whose numbers go up by one with the pages
    (the same number minus the page's index, in the same numerals) on two pages or more where the number
    stands once on its page. A footnote marker stands twice (at its word and at its footnote): markers
    numbered through the book, one near each page's top, go up with the pages too, but never win. The run
    on the most pages is taken first; a page keeps one number (a lone number before one beside a head,
    the top before the foot)."""
    runs: dict[tuple, list] = {}
    for f in folios:
        runs.setdefault((f.kind, f.value - f.page), []).append(f)

    def pages(run: list) -> tuple[int, int]:
        return len({f.page for f in run}), len({f.page for f in run if not f.repeated})

    numbers: dict = {}
    for key in sorted(runs, key=lambda k: (-pages(runs[k])[1], -pages(runs[k])[0], k)):
        free = sorted((f for f in runs[key] if f.page not in numbers), key=lambda f: (f.page, f.head != "", f.foot))
        if pages(free)[1] < 2:
            continue
        for f in free:
            numbers.setdefault(f.page, f)
    return numbers


def _lone_numbers(page_texts: list, folios: list, numbers: dict) -> dict:
    """{page index: Folio} of the pages whose number goes up with no other page's (one page, pages far
    apart, a page whose number is not in its place): a number alone at a page's top below nothing but
    running heads (any lines a head may be when the extraction is one page; else heads standing above a
    number on two pages or more); on a page with none at its top, the last line when it is a number
    (not standing twice on the page, as a footnote marker does)."""
    above: dict = {}
    for p, page in enumerate(page_texts):
        f = next((f for f in folios if f.page == p and not f.foot and not f.head), None)
        for text in page[:f.at] if f else []:
            above.setdefault(text, set()).add(p)
            above.setdefault("\0" + shape(text), set()).add(p)
    found = {}
    for p, page in enumerate(page_texts):
        if p in numbers:
            continue
        top = next((f for f in folios if f.page == p and not f.foot and not f.head and not f.repeated), None)
        foot = next((f for f in folios if f.page == p and f.foot and not f.repeated), None)
        if top and (len(page_texts) == 1 or all(max(len(above[t]), len(above["\0" + shape(t)])) > 1
                                                for t in page[:top.at])):
            found[p] = top
        elif len(page_texts) > 1 and foot:
            found[p] = foot
    return found


class _Heads:
    """The running heads: lines at the page tops whose text, or shape, stands in the same place on half
    the pages of one parity or more (two pages at least): the book's title on the even pages, "Artikel
    41", "Artikel 42" … on the odd ones. The place is the page's first lines (above its number, or on a
    page numbered at its foot) or the lines below a number printed first. Not law text ("ARTIKEL 24",
    "A. …", "1. …"), and short and capitalised as a head is. (A line above the page number at a page's
    top is furniture whatever it says: _furniture.)"""

    def __init__(self, page_texts: list, numbers: dict, words: dict):
        self.words = words
        self.where: dict = {}
        self.parity = [sum(1 for p in range(len(page_texts)) if p % 2 == k) for k in (0, 1)]
        for p, page in enumerate(page_texts):
            for i in self._places(page, numbers.get(p)):
                for key in (page[i], "\0" + shape(page[i])):
                    self.where.setdefault((key, self.place(p, numbers.get(p))), set()).add(p)

    @staticmethod
    def place(p: int, number: Folio | None) -> tuple:
        """(the page's parity, "below" the number printed first at its top, or at the "top")."""
        return p % 2, "below" if number is not None and not number.foot else "top"

    @staticmethod
    def _places(page: list, number: Folio | None) -> range:
        """The indexes of the page's lines where a running head may stand."""
        if number is not None and not number.foot:
            return range(number.at + 1, min(TOP, len(page)))
        return range(min(TOP - 1, len(page) - (1 if number is not None else 0)))

    def evidence(self, text: str, p: int, number: Folio | None) -> int:
        """On how many pages `text` (on page `p`, whose number is `number`), or a line of its shape, stands
        in its place, when that makes it a running head; else 0."""
        if not _may_be_head(text, self.words):
            return 0
        place = self.place(p, number)
        least = max(2, (self.parity[p % 2] + 1) // 2)
        seen = max(len(self.where.get((key, place), ())) for key in (text, "\0" + shape(text)))
        return seen if seen >= least else 0


WINDOW = 64


def _starts_without_form_feeds(strip: list, words: dict) -> set:
    """Where pages start in an extraction without form feeds: at a running head beside a page number
    (above or below it, or on its line) whose text or shape stands beside a page number twice or more,
    the numbers going up through the extraction (a footnote marker above a head at the next page's top
    is not one). A number alone on its line counts only where it stands once in the extraction: a
    footnote's number stands again at its marker, and a footnote's text below it is no head, even when
    the same text stands below another footnote number."""
    pairs = []  # (first line, last line, the number and its head)
    times = Counter(text for text in strip if is_page_number(text))
    for i, text in enumerate(strip):
        pairs += [(i, i, Folio(0, i, label, head, False)) for label, head in _beside_head(text, words)]
        for head, number, at in ((text, strip[i + 1], i + 1), (strip[i + 1], text, i)) if i + 1 < len(strip) else ():
            if is_page_number(number) and times[number] == 1 and not is_page_number(head) and \
                    _may_be_head(head, words):
                pairs.append((i, i + 1, Folio(0, at, number, head, False)))
    seen: dict = {}
    for i, _, f in pairs:
        seen.setdefault(f.head, set()).add(i)
        seen.setdefault("\0" + shape(f.head), set()).add(i)
    pairs = [pair for pair in pairs if len(seen[pair[2].head]) > 1 or len(seen["\0" + shape(pair[2].head)]) > 1]
    # The longest run of pairs, in the order of the lines, whose numbers go up (in the same numerals).
    # (A run is looked for among the WINDOW pairs before each: a page holds few of them.)
    best: list = []
    for k, (first, _, f) in enumerate(pairs):
        before = [best[j] for j in range(max(0, k - WINDOW), k) if pairs[j][1] < first
                  and pairs[j][2].kind == f.kind and pairs[j][2].value < f.value]
        best.append(max(before, key=len, default=[]) + [k])
    run = [pairs[k] for k in max(best, key=len, default=[])]
    if len(run) < 2:
        return set()
    # Numbers at the foot, each above the next page's head: the extraction ends with the next number.
    last = Folio(0, len(strip) - 1, strip[-1], "", False) if is_page_number(strip[-1]) else None
    if last and last.kind == run[-1][2].kind and last.value == run[-1][2].value + 1 and \
            all(f.at == first < last_line for first, last_line, f in run):
        return {f.at + 1 for _, _, f in run}
    return {first for first, _, _ in run}


def _starts_at_numbers(strip: list) -> set:
    """Where pages start in an extraction without form feeds, by its page numbers alone (taken where they
    make more pages than the heads beside numbers do: a head may stand beside one number only): the
    numbers alone on their lines that stand once in the extraction (a footnote marker's number stands
    again at its footnote) and go up through it, by one or, past a number that also stands elsewhere, by
    two or three; three pages or more. Printed at the foot when the extraction ends with one and does not
    start with one: a page starts after its number; else at it."""
    lone = [(i, Folio(0, i, t, "", False)) for i, t in enumerate(strip) if is_page_number(t)]
    times = Counter(f.label for _, f in lone)
    once = [(i, f) for i, f in lone if times[f.label] == 1]
    runs: dict[tuple[str, int], list[int]] = {}  # (numerals, value) -> the longest run ending at that value: [line index]
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


def _furniture(page: list[Line], strip: list, p: int, number: Folio | None, heads: _Heads) -> dict:
    """{line number: reason} of the page's running heads and page number."""
    found: dict[int, str] = {}

    def head(i: int, seen: int = 0) -> None:
        found[page[i].num] = f"running header {strip[i]!r}" + (
            f", as in its place on {seen} pages" if seen else "") + ": page layout, not law text"

    top = number if number is not None and not number.foot else None
    if top is not None:
        for i in range(top.at):  # nothing but furniture stands above the page number at a page's top
            head(i)
        found[page[top.at].num] = f"page number {top.label}" + (
            f" beside the running header {top.head!r}: page layout, not law text" if top.head else "")
        k = top.at + 1
    else:
        k = 0
    end = min(TOP, len(strip) - (1 if number is not None and number.foot else 0))
    while k < end and (seen := heads.evidence(strip[k], p, number)):  # a head learned from the pages
        head(k, seen)
        k += 1
    if number is not None and number.foot:
        found[page[-1].num] = f"page number {number.label} (at the page bottom)"
    return found


def page_label(page: list[Line], furniture: dict[int, str]) -> str | None:
    """The page's printed number, or None."""
    return next((furniture[line.num].split()[2] for line in page
                 if furniture.get(line.num, "").startswith("page number")), None)


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    flog = log.for_file(source.name)
    words = patterns(lang.profile(source.language))
    ARTICLE, KEYWORD = words["article"], words["keyword"]
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    cut, furniture = pages(lines, words)
    # The text lines, each with the index of its page; the furniture goes to the report.
    body: list[tuple[Line, int]] = []
    for p, page_lines in enumerate(cut):
        for line in page_lines:
            if line.num in furniture:
                reading.dropped.append(Dropped(line.num, furniture[line.num]))
            else:
                body.append((line, p))
    if body and not looks_like_article(body[0][0].text, KEYWORD):
        reading.gaps.append(Gap(body[0][0].num, None, "the page starts inside an article whose beginning is "
                                                      "on an earlier page, which is not in the sources"))

    markers: set[str] = set()  # footnote numbers whose marker has been seen and whose footnote has not
    marked: list[tuple[int, int, Note]] = []  # (page, line, Note) of each marker, for notes.Footnotes.match
    feet: list[notes.Footnote] = []  # the footnotes at the page bottoms
    paragraph: list[Piece] = []  # (line number, text) of the paragraph being collected
    current: Block | None = None  # the Block the paragraph belongs to
    k = 0  # the index in `body` of the next line to read (wrapped() moves it on)

    def flush() -> None:
        nonlocal paragraph
        if current is not None and paragraph:
            current.pieces = paragraph
            current.text = "\n".join(text for _, text in paragraph)
            current.lines = sorted(set(current.lines) | {n for n, _ in paragraph})
        paragraph = []

    def wrapped(first: str) -> tuple[str, list[Line]]:
        """The lines that continue a title or heading whose text so far is `first` (k moves past them)."""
        nonlocal k
        taken: list[Line] = []
        text = first
        while k < len(body):
            t = body[k][0].text.strip()
            if _is_structure(t, words) or DIGITS.match(t) or not continues_heading(t) or \
                    len(text) + 1 + len(t) > LONG_HEADING:
                break
            taken.append(body[k][0])
            text += " " + t
            k += 1
        return text, taken

    while k < len(body):
        line, page = body[k]
        text = line.text.strip()
        k += 1
        if m := ARTICLE.match(text):
            flush()
            reading.blocks.append(Block("article", text, [line.num], cite=m.group(1)))
            if k < len(body) and not _is_structure(t := body[k][0].text.strip(), words) and not DIGITS.match(t) \
                    and is_heading_like(t, LONG_HEADING):
                first = body[k][0]
                k += 1
                title, more = wrapped(t)
                reading.blocks.append(Block("title", title, [first.num] + [x.num for x in more]))
            current = None
            continue
        if looks_like_article(text, KEYWORD):
            flush()
            reading.blocks.append(unreadable_heading(
                flog, line.num, text, f"'{KEYWORD}' and the article number alone on its line, as in '{KEYWORD} 24'"))
            current = None
            continue
        if DIGITS.match(text):
            number = text
            if number in markers:
                # The footnote itself, at a page bottom: its text runs to the next footnote or the page end.
                # The paragraph it interrupts (if any) goes on at the top of the next page.
                body_lines = []
                while k < len(body) and body[k][1] == page and not DIGITS.match(body[k][0].text.strip()):
                    body_lines.append((body[k][0].num, body[k][0].text))
                    k += 1
                feet.append(notes.Footnote(number, page, [line.num] + [n for n, _ in body_lines],
                                           "\n".join(text.strip() for _, text in body_lines), body_lines))
                markers.discard(number)
                continue
            if current is not None and paragraph:
                markers.add(number)
                num, last = paragraph[-1]
                paragraph[-1] = (num, last + NOTE_MARK)
                current.notes.append(Note(text="", lines=[line.num], form="print", number=number))
                marked.append((page, line.num, current.notes[-1]))
                continue
            flush()
            current = Block("para", "", [line.num])
            reading.blocks.append(current)
            paragraph = [(line.num, text)]
            flog.damage(line.num, f"a number {text!r} alone on a line, neither page number nor footnote",
                        "kept as text")
            continue
        if (m := LETTERED.match(text)) and is_heading_like(m.group(3), LONG_HEADING):
            flush()
            heading, more = wrapped(m.group(3))
            reading.blocks.append(Block("heading", heading, [line.num] + [x.num for x in more],
                                        cite=m.group(1) + m.group(2)))
            current = None
            continue
        if m := NUMBERED.match(text):
            flush()
            current = Block("list", "", [line.num], number=int(m.group(2)))
            reading.blocks.append(current)
            paragraph = [(line.num, m.group(3))]
            continue
        if current is None:
            current = Block("para", "", [line.num])
            reading.blocks.append(current)
        paragraph.append((line.num, text))
    flush()

    matched = notes.Footnotes(feet).match(marked)
    notes.give_texts(matched, flog)
    for footnote in matched.unused:
        # Kept where it stands, as a paragraph: no source line is lost.
        flog.error(footnote.position, f"footnote {footnote.number} has no marker in the text before it")
        at = next((k for k, b in enumerate(reading.blocks) if b.first_line > footnote.position), len(reading.blocks))
        reading.blocks.insert(at, Block("para", footnote.text, list(footnote.lines), pieces=list(footnote.pieces)))
    for block in reading.blocks:
        for note in block.notes:
            if note.form == "print" and not note.pieces:
                flog.error(note.lines[0], f"footnote marker {note.number} has no footnote text at the bottom "
                                          f"of its page or the next")
    if body:
        cut_off(reading, cut, furniture, cut[-1][-1].num, flog, words["rules"])
    return reading


# How a last line ends: a sentence (after its closing brackets and quotes), or not.
SENTENCE_END = re.compile(r"[.!?][)\]\"'\u2019\u201d]*$")
HYPHENATED = re.compile(r"[^\W\d_]-$")


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


def cut_off(reading: Reading, cut: list[list[Line]], furniture: dict[int, str], line: int, flog: FileLog,
            rules: lang.LanguageRules, measure: Callable[[list[Line]], int] = len, unit: str = "lines") -> None:
    """The gap at the end of the extraction, by these rules: the last article is cut off when its text
    stops mid-sentence or mid-structure (_ending); when it ends with a full sentence and leaves nothing
    open, it is complete if its page is shorter than every page before it (the text ends there), and
    may be cut off ("uncertain") if the page is as full as one the text went on from, or the extraction
    is this one page. A page's fullness is measure(page) in `unit` (lines; characters where a
    paragraph is one line)."""
    at = next((i for i in range(len(reading.blocks) - 1, -1, -1) if reading.blocks[i].kind == "article"), None)
    cite = reading.blocks[at].cite if at is not None else None
    if at is None or not cite:  # (an unreadable heading is an error already)
        return
    blocks = reading.blocks[at:]
    page = page_label(cut[-1], furniture)
    where, waar = (f"page {page}", rules.CUT_OFF_PAGE.format(page=page)) if page else \
        ("the extraction", rules.CUT_OFF_EXTRACTION)
    ending = _ending(blocks)
    if ending is not None:
        reading.gaps.append(Gap(line, cite, f"article {cite} is cut off at the end of {where}: "
                                            f"the rest is on a page that is not in the sources",
                                rules.CUT_OFF.format(cite=cite, where=waar)))
        return
    sizes = [measure(p) for p in cut]
    if len(cut) > 1 and sizes[-1] < min(sizes[:-1]):
        flog.inference(line, ids.join(reading.edition, cite),
                       f"article {cite} is read as complete at the end of {where}: its text ends with a full "
                       f"sentence, leaves no section or numbered part open, and the page holds {sizes[-1]} {unit}, "
                       f"fewer than any page before it ({min(sizes[:-1])} or more), so the text ends there")
        return
    why = ("the extraction is this one page, so nothing shows whether the article goes on overleaf"
           if len(cut) == 1 else
           f"the page holds {sizes[-1]} {unit}, as many as a page the text went on from "
           f"({min(sizes[:-1])}), so it may go on overleaf")
    reading.gaps.append(Gap(line, cite, f"article {cite} may be cut off at the end of {where} (uncertain): its "
                                        f"text ends with a full sentence and leaves no section or numbered part "
                                        f"open, but {why}",
                            rules.MAYBE_CUT_OFF.format(cite=cite, where=waar)))


def has_page_layout(texts: list[str], profile: lang.Profile) -> bool:
    """A page number among the first lines, or words hyphenated at three or more line ends."""
    hyphen_ends = sum(1 for t in texts if re.search(r"[^\W\d_]-$", t))
    return any(DIGITS.match(t.strip()) for t in texts[:4]) or hyphen_ends >= 3


FORMAT = Format(
    "print", read, signs=((20, has_page_layout),), notes=("print",),
    # The book prints section letters "A." and subsection numbers "1."; a list number where a letter
    # belongs (directly under an article, or under a subsection) is not what the page wrote, so it is
    # restored from evidence. The pages come in the book's order.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "inferred"},
                articles_go_up=True))
