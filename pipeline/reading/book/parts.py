"""The parts of a book in one source: which lines are its front matter, introduction, contents list,
definitions, articles, index, annexes and back matter, each found from its own evidence wherever it stands.

Reads: the page stream and its furniture. Writes: [Part], in the order of the source; every line is in
exactly one part (furniture too: each part's reader leaves it out).

Where a part begins (a line's own evidence, never its place in the file; titles in any case):
  contents      the contents title alone on its line ("Table of Contents", "TABLE DES MATIÈRES"), or a
                title above entries with leader dots and page numbers ("Contents", then "Law 1 … 2");
  definitions   the definitions title alone on its line, the next line a definition ("Term: text");
  articles      an article heading outside the contents list ("LAW 1", "Artikel 16", "LOI 1 - LE JEU …");
                also a run of pages numbered in arabic that starts inside an article (a page run);
  index         the index title on a short line outside the contents list, no article heading after it;
  annex         the annex title on a short line after the articles ("ANNEXE I - …");
  introduction  the introduction's title alone on its line, before the articles.
Where a part ends: where the next one begins; besides,
  - the contents list at the first line that is not of a list's shape (an entry "LAW 9 - TITLE", one
    with leader dots and a page number, a section heading, a column of page numbers, a wrapped title: a
    short line, never an article heading alone, never a definition), moved back to the start of that
    line's page over the page's furniture and titles (the next part's title belongs to the next part);
  - the introduction at its first heading-like line after a paragraph (the next title of the front: set
    larger, or where the type is not known, title-shaped, "Promulgating Bodies").
Front matter is what comes before the first part and is not the introduction. Back matter is the
pages after the last one with a page number, where that holds no article heading (a back cover).
"""
import re
from dataclasses import dataclass, field

from .furniture import LETTERED, NUMBERED, Furniture, is_heading_like
from .stream import PageStream, PrintedLine
from .words import BookWords

# A definition's first line: its term (letters, spaces, brackets, quotes, hyphens; a word abbreviated with its
# full stop, "Adv. D") and a colon.
TERM = r"([^\W\d_][\w'\u2019\-]*\.?(?:[ \-][\w'\u2019\-]+\.?|\s*\([^()]{1,40}\))*)"
DEFINITION = re.compile(rf"^{TERM}\s*:\s+(\S.*)$")
TERM_ALONE = re.compile(rf"^{TERM}\s*:$")  # a term on a line of its own, its text on the next
TERM_LENGTH = 60  # the longest term a definition's first line starts with
NUMBER_COLUMN = re.compile(r"^\d+(?:\s+\d+)*$")
ROMAN = re.compile(r"^(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.IGNORECASE)
SENTENCE_END = re.compile(r"[.!?:][)\]\"'\u2019\u201d]*$")
LEADERS = re.compile(r"(?:\.\s*){3,}\s*\d+\s*$")  # a contents entry's leader dots and page number
# The longest heading a reader takes on one line (or wrapped over several).
LONG_HEADING = 160

KINDS = ("front", "introduction", "contents", "definitions", "articles", "index", "annex", "back")
NAMES = {"front": "front matter", "introduction": "the introduction", "contents": "the contents list",
         "definitions": "the definitions", "articles": "articles", "index": "the index", "annex": "an annex",
         "back": "back matter"}


@dataclass
class Part:
    """One part of the book: `kind` one of KINDS; `pages` its lines cut at the book's page breaks (indices
    into the stream's pages kept in `page_index`); `evidence` what its first line showed, for the report."""
    kind: str
    pages: list[list[PrintedLine]] = field(default_factory=list)
    page_index: list[int] = field(default_factory=list)  # the stream page each of `pages` is a piece of
    evidence: str = ""

    @property
    def lines(self) -> list[PrintedLine]:
        return [line for page in self.pages for line in page]


def _plain(text: str) -> str:
    """A title for loose comparison: its letters and digits, in lower case."""
    return "".join(c for c in text.lower() if c.isalnum())


def is_definition(text: str) -> bool:
    m = DEFINITION.match(text)
    return bool(m and len(m.group(1)) <= TERM_LENGTH)


def split(stream: PageStream, furniture: Furniture, words: BookWords, after: tuple[str, ...] = ()) -> list[Part]:
    """The book's parts, in the order of the source (see the module's docstring). `after`: the titles the
    book's contents list gives after its articles ("Toelichtingen", "ANNEXE I - …"): each such title on a
    line of its own after the articles begins a part kept apart from them."""
    titles = {_plain(t) for t in after}
    flat = [(line, p) for p, page in enumerate(stream.pages) for line in page.lines]
    texts = [line.text.strip() for line, _ in flat]
    is_furniture = [line.num in furniture for line, _ in flat]
    heading = [bool(words.heading(t)) for t in texts]

    last_article = max((i for i, t in enumerate(texts) if heading[i] and not is_furniture[i]), default=-1)
    starts: list[tuple[int, str | None, str]] = []  # (index, kind, evidence)
    articles_begun = False  # an introduction stands before the Laws
    past = False  # a part the contents list gives after the articles has begun
    i = 0
    while i < len(flat):
        text = texts[i]
        # (The contents title is looked for among the furniture too: above a column of page numbers at a
        # page top, the furniture rule takes it for a running header.)
        leaders = not words.contents_title.match(text) and not is_furniture[i] and is_heading_like(text) and \
            _leaders_follow(texts, is_furniture, i)
        if words.contents_title.match(text) or leaders:
            end = _contents_end(flat, texts, is_furniture, i, words)
            starts.append((i, "contents", f"the title {text!r} above entries with leader dots and page numbers"
                                          if leaders else f"the contents title {text!r}"))
            if end < len(flat):
                starts.append((end, None, ""))  # what follows is decided by its own evidence below
            i = max(end, i + 1)
            continue
        if is_furniture[i]:
            i += 1
            continue
        if words.definitions_title.match(text) and _next_is_definition(texts, is_furniture, i):
            starts.append((i, "definitions", f"the definitions title {text!r} and a definition after it"))
        elif heading[i] and not past:
            starts.append((i, "articles", f"the article heading {text!r}"))
            articles_begun = True
        elif articles_begun and titles and is_heading_like(text) and _plain(text) in titles:
            kind = "annex" if words.annex_title is not None and words.annex_title.match(text) else \
                "index" if words.index_title.match(text) else "back"
            starts.append((i, kind, f"the title {text!r}, which the contents list gives after the articles"))
            past = True  # what follows is the book's after the articles, whatever looks like a heading in it
        elif words.index_title.match(text) and is_heading_like(text) and i > last_article:
            starts.append((i, "index", f"the index title {text!r}"))
        elif words.annex_title is not None and words.annex_title.match(text) and is_heading_like(text) \
                and articles_begun:
            starts.append((i, "annex", f"the annex title {text!r}"))
        elif words.introduction_title.match(text) and is_heading_like(text) and not articles_begun:
            starts.append((i, "introduction", f"the introduction's title {text!r}"))
        i += 1

    # A part that is already open is not begun again by another line of the same evidence. What follows
    # the contents list and begins no part of its own (a blank page, a foreword) is front matter.
    marks: list[tuple[int, str, str]] = []  # (index, kind, evidence)
    open_kind: str | None = None
    for index, found, evidence in starts:
        if found is not None and found == open_kind and found not in ("contents", "annex"):
            continue
        marks.append((index, found or "front", evidence if found else "after the contents list"))
        open_kind = found
    if not marks or marks[0][0] != 0:
        marks.insert(0, (0, "front", "the lines before the book's first part"))
    ranges = [(index, nxt[0] if nxt else len(flat), kind, evidence)
              for (index, kind, evidence), nxt in zip(marks, [*marks[1:], None])]
    ranges = [r for r in ranges if r[0] < r[1]]
    ranges = _front_pages_in_arabic(ranges, flat, furniture, is_furniture)
    ranges = _introduction_end(ranges, flat, texts, is_furniture)
    ranges = _back_matter(ranges, flat, stream, furniture, heading)
    out: list[Part] = []
    for start, end, kind, evidence in ranges:
        if out and out[-1].kind == kind and kind in ("front", "back"):
            into = out[-1]
        else:
            into = Part(kind, evidence=evidence)
            out.append(into)
        for line, p in flat[start:end]:
            if not into.page_index or into.page_index[-1] != p:
                into.pages.append([])
                into.page_index.append(p)
            into.pages[-1].append(line)
    return out


Flat = list[tuple[PrintedLine, int]]


def _contents_end(flat: Flat, texts: list[str], is_furniture: list[bool], start: int, words: BookWords) -> int:
    """The index of the first line after the contents list that begins at `start`."""
    for j in range(start + 1, len(flat)):
        if is_furniture[j]:
            continue
        if contents_shaped(texts[j], words) and not (
                words.definitions_title.match(texts[j]) and _next_is_definition(texts, is_furniture, j)):
            continue
        # Back to the page's start over what is no entry of the list (its furniture, the next part's
        # title and lead-in): they belong to what follows.
        k, page = j, flat[j][1]
        while k - 1 > start and flat[k - 1][1] == page and (
                is_furniture[k - 1] or not _contents_entry(texts[k - 1], words)):
            k -= 1
        return k
    return len(flat)


def _leaders_follow(texts: list[str], is_furniture: list[bool], i: int) -> bool:
    """The lines after line i are a contents list's entries: of the next five (three at least), most end
    in leader dots and a page number."""
    after = [texts[k] for k in range(i + 1, min(len(texts), i + 12)) if not is_furniture[k]][:5]
    return len(after) >= 3 and sum(bool(LEADERS.search(t)) for t in after) * 2 > len(after)


def _next_is_definition(texts: list[str], is_furniture: list[bool], i: int) -> bool:
    k = next((k for k in range(i + 1, len(texts)) if not is_furniture[k]), None)
    return k is not None and bool(DEFINITION.match(texts[k]))


def _contents_entry(text: str, words: BookWords) -> bool:
    return bool(words.contents_article.match(text) or NUMBER_COLUMN.match(text) or LEADERS.search(text) or
                re.match(r"[A-Z]\.\s", text))


def contents_shaped(text: str, words: BookWords) -> bool:
    """A line a contents list is made of: an entry, a section heading, a page number or a column of
    them, a wrapped title; never an article heading alone, a definition or a paragraph (a long line, or
    a sentence of more than eight words)."""
    if NUMBER_COLUMN.match(text) or ROMAN.match(text) or words.contents_article.match(text) or LEADERS.search(text):
        return True
    if words.heading(text) or DEFINITION.match(text) and len(text) > 80:
        return False
    # A sentence of some length is a paragraph: an entry or a heading ends with no full stop.
    if re.search(r"[.!?][\"'\u2019\u201d)]*$", text) and len(text.split()) > 8:
        return False
    return len(text) <= LONG_HEADING


def _front_pages_in_arabic(ranges: list[tuple[int, int, str, str]], flat: Flat, furniture: Furniture,
                           is_furniture: list[bool]) -> list[tuple[int, int, str, str]]:
    """Lines before the first part on pages numbered in arabic, where articles follow them, are a page run
    that starts inside an article: the articles part, begun on its first such page. (Front matter before
    a contents list or an introduction stays front matter, whatever numerals its pages have.)"""
    if not ranges or ranges[0][2] != "front" or len(ranges) > 1 and ranges[1][2] != "articles":
        return ranges
    start, end, _, _ = ranges[0]
    for i in range(start, end):
        if is_furniture[i]:
            continue
        label = furniture.label(flat[i][1])
        if label and label.isdigit():
            first = next(k for k in range(start, end) if flat[k][1] == flat[i][1])
            head = [(start, first, "front", ranges[0][3])] if first > start else []
            if len(ranges) > 1 and ranges[1][2] == "articles":
                return head + [(first, ranges[1][1], "articles", ranges[1][3])] + ranges[2:]
            return head + [(first, end, "articles", "a page numbered in arabic that starts inside an "
                                                    "article")] + ranges[1:]
    return ranges


def title_shaped(text: str) -> bool:
    """A title as a text without type sizes shows it: its words of four letters or more all begin with a
    capital ("Promulgating Bodies"), or it is in capitals. A paragraph's line that starts a sentence after
    a sentence's end ("The discussions occurred at a number of WBF") has words in lower case."""
    words = [w for w in re.findall(r"[^\W\d_]+", text) if len(w) >= 4]
    return bool(words) and all(w[0].isupper() for w in words)


def _introduction_end(ranges: list[tuple[int, int, str, str]], flat: Flat, texts: list[str],
                      is_furniture: list[bool]) -> list[tuple[int, int, str, str]]:
    """The introduction ends at its first heading-like line after a paragraph that ended (its last line
    ends a sentence; where the type is known, the title set larger than that line; where it is not, the
    title alone on its line and title-shaped): the rest is front."""
    out = []
    for start, end, kind, evidence in ranges:
        if kind == "introduction":
            paragraph = False
            before: PrintedLine | None = None
            for i in range(start + 1, end):
                if is_furniture[i]:
                    continue
                line = flat[i][0]
                # (Where the type is not known, a title stands alone: the line after it starts with a capital.)
                after = next((texts[k] for k in range(i + 1, end) if not is_furniture[k]), "")
                ended = before is not None and bool(SENTENCE_END.search(before.text.strip())) and (
                    line.size > before.size if line.size is not None and before.size is not None
                    else after[:1].isupper() and title_shaped(texts[i]))
                before = line
                if paragraph and ended and is_heading_like(texts[i]):
                    out += [(start, i, kind, evidence), (i, end, "front", f"the title {texts[i]!r} after the "
                                                                          f"introduction")]
                    break
                paragraph = True
            else:
                out.append((start, end, kind, evidence))
        else:
            out.append((start, end, kind, evidence))
    return out


def _back_matter(ranges: list[tuple[int, int, str, str]], flat: Flat, stream: PageStream, furniture: Furniture,
                 heading: list[bool]) -> list[tuple[int, int, str, str]]:
    """The pages after the last page with a page number, holding no article heading, after the articles
    and holding no line of the law's structure ("C. Playing …", "2. …"), nor going on with the text before
    them (their first line in lower case, or the line before ending no sentence): the back matter. A last
    page whose number was not read but that goes on with the law is the law's (never dropped unseen)."""
    if not ranges or len(stream.pages) < 2:
        return ranges
    labelled = [p for p in range(len(stream.pages)) if furniture.label(p)]
    if not labelled or labelled[-1] == len(stream.pages) - 1:
        return ranges
    first = next((i for i, (_, p) in enumerate(flat) if p > labelled[-1]), None)
    if first is None or any(heading[first:]):
        return ranges
    kind_before = next((k for s, e, k, _ in ranges if s < first <= e), None)
    if kind_before == "articles":
        texts = [line.text.strip() for line, _ in flat[first:] if line.num not in furniture]
        before = next((line.text.strip() for line, _ in reversed(flat[:first]) if line.num not in furniture), "")
        if any(LETTERED.match(t) or NUMBERED.match(t) for t in texts) or texts and (
                texts[0][:1].islower() or not SENTENCE_END.search(before)):
            return ranges
    out = [(s, min(e, first), k, ev) for s, e, k, ev in ranges if s < first]
    return out + [(first, len(flat), "back", f"the pages after the last numbered page ({flat[first][0].num})")]
