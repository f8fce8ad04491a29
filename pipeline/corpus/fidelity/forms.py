"""What the fidelity checks look for: the forms of footnote markers, page furniture and split words in
law text, the limits of what a message quotes, and where a text stands in its sources.
"""
import ast
import bisect
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ...core import lang, tree
from ...core.model import Line, Reading
from ...core.tree import Element
from ...reading import notes as note_forms
from .. import refs


MANY_INDENTED = 3  # nodes of one source whose level rests on indentation alone: from this many, an error
LOST_NOTES = 3  # marker forms in an edition without notes: from this many, its footnotes were lost
HEAD_LENGTH = 10  # a running head shorter than this is too common a phrase to be told from the law's words
SHOWN = 40  # the characters of a text a message quotes
NEAR = 40  # the characters of a token before a marker's form that tell what it is glued to

LAW_NODES = (*tree.NODE_TAGS, "introduction", "definition")  # what holds law text (finish.number_notes)
HOLDERS = ("article", "introduction", "definition")  # the text a marker and its footnote's body share
PARTS = {"p": "text", "title": "title", "heading": "heading"}

LETTER = r"[^\W\d_]"
TWO_LETTERS = re.compile(rf"{LETTER}\W*{LETTER}")
# Check 1: a word of two letters or more with one or two digits glued after it. The word starts a token or
# follows a hyphen or a quote ("Noord-Zuid2"), never a digit ("12C1"), a slash, a dot or "@" (IDs, addresses).
GLUED = re.compile(rf"(?<![\w./@\\])({LETTER}{{2,}})(\d{{1,2}})(?!\w)")
# … or a sign glued after a letter or after the punctuation that ends a word: "*", "**", "†", "[1]", "¹".
SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
SIGN = re.compile(rf"(?:(?<={LETTER})|(?<=[.,;:!?)\]»\"'\u2019\u201d]))"
                  rf"(\*{{1,3}}|[\u2020\u2021]{{1,2}}|\[\d{{1,2}}\]|[{SUPERSCRIPTS}]{{1,2}})(?![\w*\u2020\u2021\[])")
SIGN_CHARS = frozenset("*\u2020\u2021[" + SUPERSCRIPTS)
OPENING_STARS = re.compile(rf"(?<!\S)(\*+){LETTER}")  # "**Let op**": a markup's emphasis, no marker
ADDRESS = re.compile(r"@|://|\bwww\.|/")
SPACE = re.compile(r"\s")
# A template's footnote marker " 1)" after a word, before punctuation or a word in lower case ("beneden 1). De",
# "de leider 1) en"); never a list's label after a sentence ("… woord. 2) De …") or inside brackets.
TEMPLATE_MARKER = re.compile(rf"(?<={LETTER}) (\d{{1,2}})\)(?=[.,;:]|$|\s+[a-zà-ÿ])")
# Check 2: a footnote's label at a paragraph's start: "1) …", "[1] …", "¹ …", "↑ …" (a wiki's back link).
BODY = re.compile(rf"^(?:(\d{{1,2}})\)\s+|\[(\d{{1,2}})\]\s*|([{SUPERSCRIPTS}]{{1,2}})\s*|\u2191\s*)"
                  rf"(?={LETTER}|[(\"'\u2018\u201c])")
# Check 3: a page number between dashes standing between words ("kaart - 28 - wordt").
DASHED_FOLIO = re.compile(rf"(?<={LETTER}) [-\u2013\u2014] ?\d{{1,4}} ?[-\u2013\u2014] (?={LETTER})")
# The page furniture a reader dropped, by the words of its reason (reading/book/furniture.py, body.py).
FURNITURE = re.compile(r"\b(running header|running foot|running head or page number) "
                       r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")
PAGE_NUMBER = "page number "
FOLIO_SHAPE_MAX = 16  # a page number's line, with its number as "#", of at most this many characters
FOLIO_BESIDE = re.compile(r"[-\u2013\u2014|\s]*(?:\d{1,4}|[ivxlc]{1,8})[-\u2013\u2014|\s]*", re.IGNORECASE)
# Check 4: a word, a hyphen, a space and a word.
SPLIT = re.compile(rf"(?<![\w-])({LETTER}+)- ({LETTER}+)")
SOFT_HYPHEN = "\u00ad"
# Check 4 the other way: a word of six letters or more (a compound joined where the book hyphenates it).
COMPOUND = re.compile(rf"(?<![\w-]){LETTER}{{6,}}(?![\w-])")
HYPHENATED = re.compile(rf"(?<![\w-]){LETTER}+(?:-{LETTER}+)+(?![\w-])")

Place = tuple[str | None, int | None]  # (file, line), as tree.first_line gives it


@dataclass(frozen=True)
class Finding:
    """One thing law text cannot contain, where it stands."""
    kind: str  # "error", or "inference" for an uncertain one (its message starts with "uncertain: ")
    file: str | None
    line: int | None
    message: str
    node: str | None


@dataclass
class Sources:
    """Where a text stands in the sources: the lines of an element's `sources` attribute, as read."""
    lines: Mapping[str, Sequence[Line]]
    by_number: dict[str, dict[int, str]] = field(default_factory=dict)

    def text(self, file: str, num: int) -> str | None:
        numbered = self.by_number.get(file)
        if numbered is None:
            numbered = self.by_number[file] = {line.num: line.text for line in self.lines.get(file, ())}
        return numbered.get(num)

    def line_of(self, el: Element, holds: Callable[[str], bool]) -> tuple[Place, bool]:
        """((file, line), True) of the first line of `el`'s sources whose text `holds`, else (where `el`
        starts, False)."""
        for file, nums in sorted(tree.parse_sources(el.get("sources")).items()):
            for num in sorted(nums):
                text = self.text(file, num)
                if text is not None and holds(text):
                    return (file, num), True
        return tree.first_line(el), False

    def containing(self, el: Element, words: str) -> Place:
        """(file, line) of the first line of `el` that holds `words`, else where `el` starts."""
        return self.line_of(el, lambda text: words in text)[0]


def shown(text: str) -> str:
    """A text as a message quotes it: its first SHOWN characters."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "\u2026"


def shown_end(text: str) -> str:
    """The end of a text as a message quotes it: its last words within SHOWN characters."""
    if len(text) <= SHOWN:
        return text
    end = text[-SHOWN:]
    return "\u2026" + (end.split(" ", 1)[1] if " " in end else end)


def times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def more(count: int) -> str:
    return f" ({count} more like it in this paragraph)" if count else ""


def own_runs(el: Element) -> list[str]:
    """The runs of a paragraph's own text, its notes' and references' words left out, each alone: a form is
    never read across a note's place."""
    return [text for kind, text, _ in tree.inline(el) if kind == tree.TEXT and text]


def node_of(p: Element) -> str | None:
    """The ID of the node a paragraph stands in."""
    parent = p.getparent()
    return parent.get("id") if parent is not None else None


def holder_of(node: Element) -> Element:
    """The article (or introduction, definition) whose text a node's text is part of."""
    for el in [node, *node.iterancestors()]:
        if el.tag in HOLDERS:
            return el
    return node


def number_of(glued: str) -> str | None:
    """The number a marker's form shows: "1" of "1", "[1]" and "¹"; None for a sign ("*", "†")."""
    if glued[0] == "[":
        return glued[1:-1]
    if glued[0] in SUPERSCRIPTS:
        return "".join(str(unicodedata.digit(c)) for c in glued)
    return glued if glued.isdigit() else None


def template_markers(text: str) -> list[str]:
    """The numbers of a template's footnote markers " 1)" in a text (TEMPLATE_MARKER), outside brackets: a ")"
    that closes a "(" is none ("(zie artikel 16)"). The brackets are counted on from one marker to the next."""
    found: list[str] = []
    at = depth = 0
    for m in TEMPLATE_MARKER.finditer(text):
        depth = note_forms.open_parens(text, at, m.start(), depth)
        at = m.start()
        if depth == 0:
            found.append(m.group(1))
    return found


@dataclass(frozen=True)
class Form:
    """A marker's form of check 1 in a run of text."""
    start: int
    end: int
    token: str  # the run without spaces that holds it (its first SHOWN characters and NEAR before it at most)
    glued: str  # the digits or the sign glued to the word


class Run:
    """One run of text, with its tokens' bounds found by halving (a token's start and end cost no scan)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._spaces: list[int] | None = None

    def token(self, start: int, end: int) -> tuple[int, int]:
        if self._spaces is None:
            self._spaces = [m.start() for m in SPACE.finditer(self.text)]
        k = bisect.bisect_left(self._spaces, start)
        first = self._spaces[k - 1] + 1 if k else 0
        j = bisect.bisect_left(self._spaces, end)
        last = self._spaces[j] if j < len(self._spaces) else len(self.text)
        return first, last


def marker_forms(text: str, profile: lang.Profile) -> list[Form]:
    """Each marker's form of check 1 in one run of a paragraph's text (read with `profile`'s citations)."""
    candidates: list[tuple[int, int, int, str]] = []  # (start, end, where the glued part starts, glued)
    for m in GLUED.finditer(text):
        if m.group(1) != m.group(1).upper():
            candidates.append((m.start(), m.end(), m.start(2), m.group(2)))
    if SIGN_CHARS.intersection(text):
        candidates += [(m.start(), m.end(), m.start(), m.group(1)) for m in SIGN.finditer(text)]
    if not candidates:
        return []
    run = Run(text)
    opening = {m.group(1) for m in OPENING_STARS.finditer(text)} if "*" in text else set()
    cited = [(c.start, c.end) for c in refs.find_citations(text, profile)]
    starts = [a for a, _ in cited]
    out = []
    for start, end, glued_at, glued in sorted(candidates):
        first, last = run.token(start, end)
        near = text[max(first, start - NEAR):min(last, end + NEAR)]
        word = text[max(first, glued_at - NEAR):glued_at]
        # Glued to a number ("4NT*": a call), to fewer than two letters ("(a)*"), in an address, or closing a
        # markup's emphasis ("**Let op**"): no marker.
        if ADDRESS.search(near) or (first >= glued_at - NEAR and word[:1].isdigit()) or \
                not TWO_LETTERS.search(word) or glued in opening:
            continue
        k = bisect.bisect_right(starts, start)  # the citations that start before the form and after it
        if k and cited[k - 1][1] > start or k < len(cited) and cited[k][0] < end:
            continue
        out.append(Form(start, end, text[max(first, start - NEAR):min(last, start + SHOWN)], glued))
    return out


@dataclass
class Furniture:
    """The page furniture of one source, as its reader dropped it: each running head or foot (its words, the
    kind the reason names, the line it was dropped at) by its first word, and its page numbers' forms that
    hold a word or a dash ("Page #"), each as a pattern."""
    heads: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)  # first word -> (text, what, line)
    folios: list[tuple[re.Pattern[str], int]] = field(default_factory=list)  # (pattern, line dropped)

    @classmethod
    def of(cls, reading: Reading, sources: Sources, profile: lang.Profile) -> "Furniture":
        out = cls()
        seen: set[str] = set()
        shapes: set[str] = set()
        for dropped in reading.dropped:
            for m in FURNITURE.finditer(dropped.reason):
                text = ast.literal_eval(m.group(2)).strip()
                if text in seen or len(text) < HEAD_LENGTH or not re.search(LETTER, text) or \
                        refs.find_citations(text, profile):
                    continue
                seen.add(text)
                out.heads.setdefault(text.split()[0], []).append((text, m.group(1), dropped.line))
            if dropped.reason.startswith(PAGE_NUMBER):
                shape = re.sub(r"\d{1,4}", "#", (sources.text(reading.file, dropped.line) or "").strip())
                if shape.count("#") != 1 or len(shape) > FOLIO_SHAPE_MAX or shape in shapes or \
                        len(re.findall(rf"{LETTER}+", shape)) > 1 or not re.search(rf"{LETTER}|[-\u2013\u2014|]", shape):
                    continue
                shapes.add(shape)
                pattern = r"\s+".join(r"\d{1,4}".join(map(re.escape, part.split("#"))) for part in shape.split())
                out.folios.append((re.compile(rf"(?<!\w){pattern}(?!\w)"), dropped.line))
        return out

    def heads_in(self, text: str) -> Iterator[tuple[int, str, str, int]]:
        """(offset, head, what, line dropped) of each running head standing in `text`, by its first word."""
        if not self.heads:
            return
        for m in re.finditer(r"\S+", text):
            for head, what, line in self.heads.get(m.group(), ()):
                end = m.start() + len(head)
                if text.startswith(head, m.start()) and (end == len(text) or not text[end].isalnum()):
                    yield m.start(), head, what, line
