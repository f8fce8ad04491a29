"""Page furniture: the running heads and page numbers of a book, learned from the pages themselves.

Reads: a PageStream (any adapter). Writes: a Furniture: {line: why it is no law text} and the number
printed on each page, never guessed from where the source starts or ends.

The page numbers (folios), in any form a book prints them: "32", "xiv", "- 28 -", "– vii –", beside a
running head on one line ("12  Spelregels voor Wedstrijdbridge", "Artikel 41  13", "2 | Page",
"Code International du Bridge 2017 - 19 -"), at the page's top (within its first TOP lines, below
nothing but running heads) or its foot (its last FOOT lines, below the footnotes). A folio is the line
whose number goes up by one from page to page in the same numerals (_chain), so a footnote marker near
a page's top or end is never one; a page whose number runs with no other page's (one page, pages far
apart) has a number alone at its top below nothing but running heads, or its last line (_lone_numbers).

The running heads: every line above the page number at a page's top, and the lines at the page tops
(or feet) whose text or shape (its numbers as '#') stands in the same place on half the pages of one
parity or more, two at least: the book's title on the even pages, "Artikel 41", "Artikel 42" … on the
odd ones. Never a line of the law's own structure ("ARTIKEL 24", "A. …", "1. …").

Where the adapter knows the lines' heights (a PDF), the first or last line of a page at a height that
the first (last) line of a third of the pages or more has is furniture too when it is set smaller than
the body, is a page number, or its shape stands there on another page (_by_height); a line close to the
line next to it (a paragraph or a title going on) never is, nor an article's heading (a book that starts
its articles at page tops), nor a line set larger than the body and said once (a part's title at its
page's top).
"""
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from .stream import Page, PageStream, PrintedLine
from .words import BookWords

DIGITS = re.compile(r"^\d{1,4}$")
# i … cccxcix, in either case: the numbers of the pages before the first arabic one.
ROMAN = re.compile(r"^(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.IGNORECASE)  # (its own, for others)
ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
TOP = 4  # the lines at a page top that may be furniture: up to three header lines and the number
FOOT = 2  # the lines at a page foot that may be: a running foot and the number
# A page number as printed alone: "32", "xiv", "- 28 -", "– vii –".
ROMAN_NUMBER = r"(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
NUMBER = rf"(\d{{1,4}}|{ROMAN_NUMBER})"
DASHES = "-\u2013\u2014"
ALONE = re.compile(rf"^(?:[{DASHES}]\s*{NUMBER}\s*[{DASHES}]|{NUMBER})$", re.IGNORECASE)
# Between a page number and the running head on its line: spaces, a bar or a dot.
SEPARATOR = r"(?:\s*[|\u00b7\u2022]\s*|\s+)"
LABEL = rf"(?:[{DASHES}]\s*{NUMBER}\s*[{DASHES}]|{NUMBER})"
# The number first on the line ("12  Spelregels", "2 | Page"), or last ("Artikel 41  13", "… 2017 - 19 -").
FOLIO_FIRST = re.compile(rf"^{LABEL}{SEPARATOR}(\S.*)$", re.IGNORECASE)
FOLIO_LAST = re.compile(rf"^(.*?\S){SEPARATOR}{LABEL}$", re.IGNORECASE)
# A number or a range of them, with citation letters: "41", "41A", "12C1", "41–42", "24, 25".
NUMBERS = re.compile(r"\d[\dA-Za-z]*(?:\s*[-\u2013,]\s*\d[\dA-Za-z]*)*")
LETTERED = re.compile(r"^([A-Z])(\d*)\.[\s\u00a0]+(\S.*)$")
NUMBERED = re.compile(r"^(\s*)(\d+)\.[\s\u00a0]+(\S.*)$")


def page_number(text: str) -> str | None:
    """The label of a page number printed alone ("32", "xiv", "- 28 -" gives "28"), else None."""
    m = ALONE.match(text.strip())
    return (m.group(1) or m.group(2)) if m else None


def is_page_number(text: str) -> bool:
    return page_number(text) is not None


def page_value(text: str) -> int | None:
    """The value of a page number alone on its line in any form ("7", "vii", "- 7 -"), else None."""
    label = page_number(text)
    if label is None:
        return None
    return int(label) if label.isdigit() else roman_value(label)


def roman_value(label: str) -> int:
    """The value of a roman page number ("xiv" is 14)."""
    values = [ROMAN_VALUES[c] for c in label.lower()]
    return sum(-v if k + 1 < len(values) and values[k + 1] > v else v for k, v in enumerate(values))


def shape(text: str) -> str:
    """A line with its numbers as '#': the running heads "Artikel 41", "Artikel 42" and "Artikel 42–43"
    (the articles on the page) have one shape."""
    return NUMBERS.sub("#", text)


def is_heading_like(text: str, max_length: int = 90) -> bool:
    """A heading or title: one short line, capitalised, without closing punctuation."""
    text = text.strip()
    return (0 < len(text) <= max_length and text[0].isupper() and not re.search(r"[.:;,!?)]$", text)
            and "\ue000" not in text)


def is_law_line(text: str, words: BookWords) -> bool:
    """A line of the law's own structure as a page prints it: an article heading in the printed capitals
    ("ARTIKEL 24", "LOI 1 - LE JEU DE CARTES"), "A. heading", "1. text". (A running head such as "Artikel
    41", the article on the page, only looks like a heading: the body's rules know the heading of the
    article open again when it is one, body.py.)"""
    heading = words.heading(text)
    return bool(heading and (words.capitals.match(text) or heading[1] is not None and text.isupper())
                or LETTERED.match(text) or NUMBERED.match(text))


def may_be_head(text: str, words: BookWords) -> bool:
    """A line a running head may be: short and capitalised as a head is, and not the law's structure."""
    return is_heading_like(text) and not is_law_line(text, words)


class Folio(NamedTuple):
    """A line at a page's top or foot that is, or holds, a page number."""
    page: int  # the page's index in the stream
    at: int  # the line's index on the page
    label: str  # the number as printed: "32", "xiv"
    head: str  # the running head printed on the same line, "" when the number stands alone
    foot: bool  # at the page's foot
    repeated: bool = False  # the number stands alone on another line of the page too: as a footnote marker does

    @property
    def kind(self) -> str:
        return "arabic" if self.label.isdigit() else "roman"

    @property
    def value(self) -> int:
        return int(self.label) if self.label.isdigit() else roman_value(self.label)


def beside_head(text: str, words: BookWords) -> list[tuple[str, str]]:
    """[(page number, running head)] a line may hold: the number first or last, the head on the rest.
    Not a line of the law ("ARTIKEL 24"), nor an article word and its number ("Artikel 24": the number
    is the article's)."""
    if is_law_line(text, words):
        return []
    found = []
    for m, first in ((FOLIO_FIRST.match(text), True), (FOLIO_LAST.match(text), False)):
        if not m:
            continue
        groups = [g for g in m.groups() if g is not None]
        label, head = (groups[0], groups[-1]) if first else (groups[-1], groups[0])
        head = head.strip(f" {DASHES}|\u00b7\u2022")
        if head and may_be_head(head, words) and not (not first and head.lower().endswith(words.keyword.lower())):
            found.append((label, head))
    return found


@dataclass
class Furniture:
    """What of the stream is page furniture: {line number: reason}, and the number printed on each page
    ({page index: label})."""
    reasons: dict[int, str] = field(default_factory=dict)
    labels: dict[int, str] = field(default_factory=dict)

    def __contains__(self, num: object) -> bool:
        return num in self.reasons

    def label(self, page: int) -> str | None:
        """The number printed on page `page` (its index in the stream), or None."""
        return self.labels.get(page)


def find(stream: PageStream, words: BookWords) -> Furniture:
    """The stream's furniture (see the module's docstring)."""
    page_texts = [[line.text.strip() for line in page.lines] for page in stream.pages]
    folios = [f for p, texts in enumerate(page_texts) for f in _folios(texts, p, words)]
    numbers = _chain(folios)
    numbers.update(_lone_numbers(page_texts, folios, numbers))
    heads = _Heads(page_texts, numbers, words)
    out = Furniture()
    if stream.geometry:  # a PDF's furniture by its height first: the reason the page itself gives
        out.reasons.update(_by_height(stream, words))
    for p, page in enumerate(stream.pages):
        for num, reason in _furniture(page, page_texts[p], p, numbers.get(p), heads).items():
            out.reasons.setdefault(num, reason)
        if p in numbers:
            out.labels[p] = numbers[p].label
    return out


def _folios(strip: list[str], p: int, words: BookWords) -> list[Folio]:
    """The page's lines that may be its number: at its top, below nothing but lines a running head may
    be, a number alone or beside a running head on its line; at its foot, its last lines likewise."""
    found = []
    for i, text in enumerate(strip[:TOP]):
        if (label := page_number(text)) is not None:
            found.append(Folio(p, i, label, "", False))
        else:
            found += [Folio(p, i, label, head, False) for label, head in beside_head(text, words)]
        if not may_be_head(text, words):
            break
    for i in range(len(strip) - 1, max(len(strip) - 1 - FOOT, -1), -1):
        if any(f.at == i for f in found):
            break
        text = strip[i]
        if (label := page_number(text)) is not None:
            found.append(Folio(p, i, label, "", True))
            break
        if beside := beside_head(text, words):
            found += [Folio(p, i, label, head, True) for label, head in beside]
            break
        if not may_be_head(text, words):  # only a running foot stands below the number
            break
    labels = [page_number(t) for t in strip]
    return [f._replace(repeated=labels.count(f.label) > (0 if f.head else 1)) for f in found]


def _chain(folios: list[Folio]) -> dict[int, Folio]:
    """{page index: Folio}: the page numbers, the candidates whose numbers go up by one with the pages
    (the same number minus the page's index, in the same numerals) on two pages or more where the number
    stands once on its page. A footnote marker stands twice (at its word and at its footnote): markers
    numbered through the book, one near each page's top, go up with the pages too, but never win. The run
    on the most pages is taken first; a page keeps one number (a lone number before one beside a head,
    the top before the foot)."""
    runs: dict[tuple[str, int], list[Folio]] = {}
    for f in folios:
        runs.setdefault((f.kind, f.value - f.page), []).append(f)

    def pages(run: list[Folio]) -> tuple[int, int]:
        return len({f.page for f in run}), len({f.page for f in run if not f.repeated})

    numbers: dict[int, Folio] = {}
    for key in sorted(runs, key=lambda k: (-pages(runs[k])[1], -pages(runs[k])[0], k)):
        free = sorted((f for f in runs[key] if f.page not in numbers), key=lambda f: (f.page, f.head != "", f.foot))
        if pages(free)[1] < 2:
            continue
        for f in free:
            numbers.setdefault(f.page, f)
    return numbers


def _lone_numbers(page_texts: list[list[str]], folios: list[Folio], numbers: dict[int, Folio]) -> dict[int, Folio]:
    """{page index: Folio} of the pages whose number goes up with no other page's (one page, pages far
    apart, a page whose number is not in its place): a number alone (or beside the head the chained numbers
    are printed beside, "Pagina 47") at a page's top below nothing but running heads (any lines a head may
    be when the extraction is one page; else heads standing above a number on two pages or more); on a
    page with none at its top, the last line when it is a number (not standing twice on the page, as a
    footnote marker does)."""
    # The heads printed beside the numbers of two pages or more ("Pagina 44", "Pagina 45"): a number beside
    # one of them is a page number wherever the page stands.
    beside = Counter(f.head for f in numbers.values() if f.head)
    heads = {head for head, count in beside.items() if count >= 2}
    above: dict[str, set[int]] = {}
    for p, page in enumerate(page_texts):
        f = next((f for f in folios if f.page == p and not f.foot and (not f.head or f.head in heads)), None)
        for text in page[:f.at] if f else []:
            above.setdefault(text, set()).add(p)
            above.setdefault("\0" + shape(text), set()).add(p)
    found = {}
    for p, page in enumerate(page_texts):
        if p in numbers:
            continue
        top = next((f for f in folios if f.page == p and not f.foot and (not f.head or f.head in heads)
                    and not f.repeated), None)
        foot = next((f for f in folios if f.page == p and f.foot and not f.head and not f.repeated
                     and f.at == len(page) - 1), None)
        if top and (len(page_texts) == 1 or all(max(len(above.get(t, ())), len(above.get("\0" + shape(t), ())))
                                                > 1 for t in page[:top.at])):
            found[p] = top
        elif len(page_texts) > 1 and foot:
            found[p] = foot
    return found


class _Heads:
    """The running heads: lines at the page tops (or feet) whose text, or shape, stands in the same place
    on half the pages of one parity or more (two pages at least). The place is the page's first lines
    (above its number, or on a page numbered at its foot), the lines below a number printed first, or its
    last lines. Not law text, and short and capitalised as a head is. (A line above the page number at a
    page's top is furniture whatever it says: _furniture.)"""

    def __init__(self, page_texts: list[list[str]], numbers: dict[int, Folio], words: BookWords) -> None:
        self.words = words
        self.where: dict[tuple[str, tuple[int, str]], set[int]] = {}
        self.parity = [sum(1 for p in range(len(page_texts)) if p % 2 == k) for k in (0, 1)]
        for p, page in enumerate(page_texts):
            number = numbers.get(p)
            for i in self.places(page, number):
                for key in (page[i], "\0" + shape(page[i])):
                    for place in self.place(p, number, i, len(page)):
                        self.where.setdefault((key, place), set()).add(p)

    @staticmethod
    def place(p: int, number: Folio | None, i: int, length: int) -> list[tuple[int, str]]:
        """The places of line i: (the page's parity, "below" the number printed first at its top, the "top"
        or the "foot"). On a short page a line may be near its top and its foot both."""
        places = []
        if i >= length - FOOT and (i >= TOP or length <= 2 * TOP):
            places.append((p % 2, "foot"))
        if i < TOP or not places:
            places.append((p % 2, "below" if number is not None and not number.foot else "top"))
        return places

    @staticmethod
    def places(page: list[str], number: Folio | None) -> list[int]:
        """The indexes of the page's lines where a running head may stand."""
        if number is not None and not number.foot:
            top = range(number.at + 1, min(TOP, len(page)))
        else:
            top = range(min(TOP - 1, len(page) - (1 if number is not None else 0)))
        end = number.at if number is not None and number.foot else len(page)
        foot = range(max(end - (FOOT - 1), TOP if len(page) > 2 * TOP else 0), end)
        return sorted(set(top) | set(foot))

    def evidence(self, text: str, p: int, number: Folio | None, i: int, length: int, after: str = "") -> int:
        """On how many pages `text` (line i of page p, whose number is `number`), or a line of its shape,
        stands in its place, when that makes it a running head; else 0. An article's heading followed by a
        title (`after` in capitals) is the heading of an article that begins at the page's top, however many
        pages begin so."""
        if not may_be_head(text, self.words) or self.words.heading(text) and after.isupper() and \
                not self.words.heading(after):
            return 0
        least = max(2, (self.parity[p % 2] + 1) // 2)
        seen = max(len(self.where.get((key, place), ())) for key in (text, "\0" + shape(text))
                   for place in self.place(p, number, i, length))
        return seen if seen >= least else 0


def _furniture(page: Page, strip: list[str], p: int, number: Folio | None, heads: _Heads) -> dict[int, str]:
    """{line number: reason} of the page's running heads and page number."""
    found: dict[int, str] = {}
    lines = page.lines

    def head(i: int, seen: int = 0) -> None:
        found[lines[i].num] = f"running header {strip[i]!r}" + (
            f", as in its place on {seen} pages" if seen else "") + ": page layout, not law text"

    top = number if number is not None and not number.foot else None
    if top is not None:
        for i in range(top.at):  # nothing but furniture stands above the page number at a page's top
            head(i)
        found[lines[top.at].num] = f"page number {top.label}" + (
            f" beside the running header {top.head!r}: page layout, not law text" if top.head else "")
        k = top.at + 1
    else:
        k = 0
    end = min(TOP, len(strip) - (1 if number is not None and number.foot else 0))
    while k < end and (seen := heads.evidence(strip[k], p, number, k, len(strip),
                                              strip[k + 1] if k + 1 < len(strip) else "")):  # learned from the pages
        head(k, seen)
        k += 1
    if number is not None and number.foot:
        found[lines[number.at].num] = f"page number {number.label} (at the page bottom)" + (
            f" beside the running foot {number.head!r}" if number.head else "")
        for i in range(number.at + 1, len(strip)):  # nothing but furniture stands below it
            found[lines[i].num] = f"running foot {strip[i]!r} below the page number: page layout, not law text"
    last = number.at if number is not None and number.foot else len(strip)
    for i in range(last - 1, max(last - FOOT, TOP - 1 if len(strip) > 2 * TOP else -1, k - 1), -1):
        if lines[i].num in found or not (seen := heads.evidence(strip[i], p, number, i, len(strip))):
            break
        found[lines[i].num] = f"running foot {strip[i]!r}, as in its place on {seen} pages: page layout, not law text"
    return found


def _by_height(stream: PageStream, words: BookWords) -> dict[int, str]:
    """{line number: reason} for the running heads and page numbers of a PDF: the first or last line of a
    page at a height that the first (last) line of a third of the pages or more has, set smaller than the
    body, a page number alone or a text whose shape stands there on another page too."""
    pages = [page for page in stream.pages if page.lines]
    if len(pages) < 3:
        return {}
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            sizes[line.size or 0.0] += len(line.text)
    body = sizes.most_common(1)[0][0]
    out: dict[int, str] = {}
    for where, pick in (("top", 0), ("foot", -1)):
        ends = [page.lines[pick] for page in pages]
        heights = Counter(round(line.y or 0.0) for line in ends)
        shapes = Counter(shape(line.text.strip()) for line in ends)
        for page, line in zip(pages, ends):
            held = heights[round(line.y or 0.0)]
            if held * 3 < len(pages) or held < 3 or _goes_on(line, page.lines, pick) or words.heading(line.text):
                continue  # (an article's heading at a page's top, as on other pages, is no furniture)
            text = line.text.strip()
            if (line.size or body) < body or is_page_number(text) or shapes[shape(text)] > 1:  # (a larger one: a title)
                out[line.num] = (f"running head or page number {text[:50]!r} at the page "
                                 f"{where} (the same height on {held} of {len(pages)} pages)")
    return out


def _goes_on(line: PrintedLine, page: tuple[PrintedLine, ...], pick: int) -> bool:
    """A line at a page's end that is no furniture: a footnote (its number raised at its start), or a line
    within a line's distance of the line next to it (a paragraph, a footnote or a heading going on: an
    article heading at each page's top is at the same height on every page, but its title follows
    closely; a running head or page number stands apart)."""
    if line.raised and line.raised[0][0] == 0:
        return True
    if len(page) < 2:
        return False
    other = page[1] if pick == 0 else page[-2]
    size = max(line.size or 0.0, other.size or 0.0)
    return abs((other.y or 0.0) - (line.y or 0.0)) < 1.6 * size
