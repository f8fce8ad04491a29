"""The parts of a book in one file: which lines are its front matter, introduction, contents list,
definitions, articles, index and back matter, each found from its own evidence wherever it stands.

Reads: a source's pages as printed.pages() cut them (every non-blank line, the page furniture).
Writes: [Part], in the order of the file; every non-blank line is in exactly one part. This module
only says where each part begins and ends; the flowed reader reads each part (flowed.py).

Where a part begins (a line's own evidence, never its place in the file):
  contents      the contents title alone on its line ("Table of Contents");
  definitions   the definitions title alone on its line, the next line a definition ("Term: text");
  articles      an article heading alone on its line ("LAW 1") outside the contents list; also a run
                of pages numbered in arabic that starts inside an article (a page run of the book);
  index         the index title on a short line outside the contents list, no article heading after it;
  introduction  the introduction's title alone on its line, before the articles.
Where a part ends: where the next one begins; besides,
  - the contents list at the first line that is not of a list's shape (an entry "LAW 9 - TITLE", a
    section heading, a column of page numbers, a wrapped title: a short line, never an article
    heading alone, never a definition), moved back to the start of that line's page over the page's
    furniture and titles (the next part's title belongs to the next part);
  - the introduction at its first heading-like line after a paragraph (the next title of the front).
Front matter is what comes before the first part and is not the introduction. Back matter is the
pages after the last one with a page number, where that holds no article heading (a back cover).
"""
import re
from dataclasses import dataclass, field

from ..decode import Line
from .common import LONG_HEADING, is_heading_like
from . import printed

# A definition's first line: its term (letters, spaces, brackets, quotes, hyphens) and a colon.
DEFINITION = re.compile(r"^([A-Z][\w'\u2019\-]*(?:[ \-][\w'\u2019\-]+|\s*\([^()]{1,40}\))*)\s*:\s+(\S.*)$")
TERM_LENGTH = 60  # the longest term a definition's first line starts with
NUMBER_COLUMN = re.compile(r"^\d+(?:\s+\d+)*$")


@dataclass
class Part:
    """One part of the book: `kind` is front, introduction, contents, definitions, articles, index or
    back; `pages` its lines cut at the book's page breaks (indices into the source's pages kept in
    `page_index`); `evidence` what its first line showed, for the report."""
    kind: str
    pages: list[list[Line]] = field(default_factory=list)
    page_index: list[int] = field(default_factory=list)  # the source page each of `pages` is a piece of
    evidence: str = ""

    @property
    def lines(self) -> list[Line]:
        return [line for page in self.pages for line in page]


def split(cut: list[list[Line]], furniture: dict[int, str], words: dict, own: dict) -> list[Part]:
    """The book's parts, in the order of the file (see the module's docstring)."""
    flat = [(line, p) for p, page in enumerate(cut) for line in page]
    texts = [line.text.strip() for line, _ in flat]
    is_furniture = [line.num in furniture for line, _ in flat]
    article = words["article"]

    last_article = max((i for i, t in enumerate(texts) if article.match(t) and not is_furniture[i]), default=-1)
    starts: list[tuple[int, str | None, str]] = []  # (index, kind, evidence)
    articles_begun = False  # an introduction stands before the Laws
    i = 0
    while i < len(flat):
        text = texts[i]
        # (The contents title is looked for among the furniture too: above a column of page numbers at a
        # page top, the furniture rule takes it for a running header.)
        if is_furniture[i] and text != own["contents_title"]:
            i += 1
            continue
        if text == own["contents_title"]:
            end = _contents_end(flat, texts, is_furniture, i, words, own)
            starts.append((i, "contents", f"the contents title {text!r}"))
            if end < len(flat):
                starts.append((end, None, ""))  # what follows is decided by its own evidence below
            i = max(end, i + 1)
            continue
        if text == own["definitions_title"] and _next_is_definition(texts, is_furniture, i):
            starts.append((i, "definitions", f"the definitions title {text!r} and a definition after it"))
        elif article.match(text):
            starts.append((i, "articles", f"the article heading {text!r}"))
            articles_begun = True
        elif own["index_title"].match(text) and is_heading_like(text) and \
                i > last_article:
            starts.append((i, "index", f"the index title {text!r}"))
        elif own["introduction_title"].match(text) and is_heading_like(text) and not articles_begun:
            starts.append((i, "introduction", f"the introduction's title {text!r}"))
        i += 1

    # A part that is already open is not begun again by another line of the same evidence.
    parts: list[list] = []  # [index, kind, evidence], the kind settled below where it is None
    open_kind = None
    for index, kind, evidence in starts:
        if kind is not None and kind == open_kind and kind != "contents":
            continue
        parts.append([index, kind, evidence])
        open_kind = kind
    if not parts or parts[0][0] > 0:
        parts.insert(0, [0, "front", "the lines before the book's first part"])
    # What follows the contents list and begins no part of its own (a blank page, a foreword) is front matter.
    for part in parts:
        if part[1] is None:
            part[1], part[2] = "front", "after the contents list"
    ranges = [(a[0], b[0] if b else len(flat), a[1], a[2]) for a, b in zip(parts, parts[1:] + [None])]
    ranges = [r for r in ranges if r[0] < r[1]]
    ranges = _front_pages_in_arabic(ranges, flat, cut, furniture, is_furniture)
    ranges = _introduction_end(ranges, texts, is_furniture)
    ranges = _back_matter(ranges, flat, cut, furniture, texts, article)
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


def _contents_end(flat: list, texts: list, is_furniture: list, start: int, words: dict, own: dict) -> int:
    """The index of the first line after the contents list that begins at `start`."""
    for j in range(start + 1, len(flat)):
        if is_furniture[j]:
            continue
        if _contents_shaped(texts[j], words, own) and not (
                texts[j] == own["definitions_title"] and _next_is_definition(texts, is_furniture, j)):
            continue
        # Back to the page's start over what is no entry of the list (its furniture, the next part's
        # title and lead-in): they belong to what follows.
        k, page = j, flat[j][1]
        while k - 1 > start and flat[k - 1][1] == page and (
                is_furniture[k - 1] or not _contents_entry(texts[k - 1], own)):
            k -= 1
        return k
    return len(flat)


def _next_is_definition(texts: list, is_furniture: list, i: int) -> bool:
    k = next((k for k in range(i + 1, len(texts)) if not is_furniture[k]), None)
    return k is not None and bool(DEFINITION.match(texts[k]))


def _contents_entry(text: str, own: dict) -> bool:
    return bool(own["contents_article"].match(text) or NUMBER_COLUMN.match(text) or
                re.match(r"[A-Z]\.\s", text))


def _contents_shaped(text: str, words: dict, own: dict) -> bool:
    """A line a contents list is made of: an entry, a section heading, a page number or a column of
    them, a wrapped title; never an article heading alone, a definition or a paragraph (a long line, or
    a sentence of more than eight words)."""
    if NUMBER_COLUMN.match(text) or printed.ROMAN.match(text) or own["contents_article"].match(text):
        return True
    if words["article"].match(text) or DEFINITION.match(text) and len(text) > 80:
        return False
    # A sentence of some length is a paragraph: an entry or a heading ends with no full stop.
    if re.search(r"[.!?][\"'\u2019\u201d)]*$", text) and len(text.split()) > 8:
        return False
    return len(text) <= LONG_HEADING


def _front_pages_in_arabic(ranges: list, flat: list, cut: list, furniture: dict, is_furniture: list) -> list:
    """Lines before the first part on pages numbered in arabic are a page run that starts inside an
    article: the articles part, begun on its first such page."""
    if not ranges or ranges[0][2] != "front":
        return ranges
    start, end, _, _ = ranges[0]
    for i in range(start, end):
        if is_furniture[i]:
            continue
        label = printed.page_label(cut[flat[i][1]], furniture)
        if label and label.isdigit():
            first = next(k for k in range(start, end) if flat[k][1] == flat[i][1])
            head = [(start, first, "front", ranges[0][3])] if first > start else []
            if len(ranges) > 1 and ranges[1][2] == "articles":
                return head + [(first, ranges[1][1], "articles", ranges[1][3])] + ranges[2:]
            return head + [(first, end, "articles", "a page numbered in arabic that starts inside an "
                                                    "article")] + ranges[1:]
    return ranges


def _introduction_end(ranges: list, texts: list, is_furniture: list) -> list:
    """The introduction ends at its first heading-like line after a paragraph: the rest is front."""
    out = []
    for start, end, kind, evidence in ranges:
        if kind == "introduction":
            paragraph = False
            for i in range(start + 1, end):
                if is_furniture[i]:
                    continue
                if paragraph and is_heading_like(texts[i]):
                    out += [(start, i, kind, evidence), (i, end, "front", f"the title {texts[i]!r} after the "
                                                                          f"introduction")]
                    break
                paragraph = True
            else:
                out.append((start, end, kind, evidence))
        else:
            out.append((start, end, kind, evidence))
    return out


def _back_matter(ranges: list, flat: list, cut: list, furniture: dict, texts: list, article: re.Pattern) -> list:
    """The pages after the last page with a page number, holding no article heading: the back matter."""
    if not ranges or len(cut) < 2:
        return ranges
    labelled = [p for p in range(len(cut)) if printed.page_label(cut[p], furniture)]
    if not labelled or labelled[-1] == len(cut) - 1:
        return ranges
    first = next((i for i, (_, p) in enumerate(flat) if p > labelled[-1]), None)
    if first is None or any(article.match(t) for t in texts[first:]):
        return ranges
    out = [(s, min(e, first), k, ev) for s, e, k, ev in ranges if s < first]
    return out + [(first, len(flat), "back", f"the pages after the last numbered page ({flat[first][0].num})")]
