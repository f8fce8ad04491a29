"""All ID rules in one place: the NodeId value object.

An ID is the edition and the citation the law itself uses:
    2017/53      article 53
    2017/53A     section A
    2017/50D2    subsection 2 of section D
    2017/50D2a   item (a) of that subsection
    2017/30B1b.i subitem (i) of item 30B1(b): the item's ID, a dot, the lowercase roman numeral
Notes and commentary hang below their node: 2017/41A/noot1, 2017/54/toelichting1.

The subitem's dot keeps the item letter and the numeral apart for a reader ("b.i", not "bi") and
makes the ID unambiguous (an item is one letter, a subitem a roman numeral i … xxxix). Readers see
the law's own form, `display`: "30B1(b)(i)" (and "50D2(a)" for an item, "47E1" above).

NodeId is the only code that knows the separator "/", the order of the levels and the
words "noot" and "toelichting"; it also makes the forms other outputs need from an ID
(the HTML anchor "50D2a", the footnote anchor "53A-noot1", the Typst label "n2017-50D2a", the
law's own form "30B1(b)(i)").
The module-level functions below are the same rules for callers that hold strings.
"""
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypedDict


class Parts(TypedDict):
    """A citation's parts, level by level (None below the deepest): parse_citation's answer."""
    article: str
    section: str | None
    subsection: str | None
    item: str | None
    subitem: str | None


# A level's place in an order key: (0, value, "") for numbers, (1, 0, letter) for letters (ids.sort_key).
SortKey = tuple[int, int, str]

LEVELS = ("article", "section", "subsection", "item", "subitem")
SEPARATOR = "/"
# A definition of the book's "Definitions": the edition, this word and the term as a slug:
# 2017/def/adjusted-score (definition_id). No citation reaches it; it is law text with a place of its own.
DEFINITION = "def"
# The book's Introduction, which with the Definitions forms part of the Laws: one per edition, 2017/intro
# (introduction_id). NodeId reads it (its notes hang below it, 2017/intro/noot1), but it is no citation:
# parse_citation refuses it, so no reference in the law text resolves to it or is read inside it.
INTRODUCTION = "intro"
# What hangs below a node, by the word its ID uses.
NOTE, COMMENTARY = "noot", "toelichting"
ANNEXES = (NOTE, COMMENTARY)

EDITION = re.compile(r"^\d{4}$", re.ASCII)
# A subitem's numeral: lowercase roman, i to xxxix, written the one way (iv, never iiii); the same
# pattern stands in both schemas.
ROMAN = r"(?:x{1,3}(?:ix|iv|v?i{0,3})|ix|iv|v?i{1,3}|v)"
CITATION = re.compile(rf"^(?P<article>\d+)(?P<section>[A-Z])?(?P<subsection>\d+)?(?P<item>[a-z])?"
                      rf"(?:\.(?P<subitem>{ROMAN}))?$", re.ASCII)
# A definition as a node its notes hang below: "def/alerte" (2017/def/alerte/noot1); no citation reaches it.
DEFINITION_CITE = rf"{DEFINITION}/[^\s/]+"
ID = re.compile(rf"^(?P<edition>\d{{4}})/(?P<cite>{INTRODUCTION}|{DEFINITION_CITE}|\d+(?:[A-Z](?:\d+(?:[a-z](?:\.{ROMAN})?)?)?)?)"
                r"(?:/(?P<annex>noot|toelichting)(?P<n>\d+))?$", re.ASCII)
_TYPST_LABEL = re.compile(r"^n(\d{4})-([0-9A-Za-z.]+)(?:-(noot|toelichting)(\d+))?$", re.ASCII)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10}


@dataclass(frozen=True, slots=True, order=False)
class NodeId:
    """One node of the corpus: edition, the citation's parts, and optionally a note or commentary below it."""
    edition: str
    article: str
    section: str | None = None
    subsection: str | None = None
    item: str | None = None
    subitem: str | None = None  # a lowercase roman numeral: "i", "iii"
    annex: str | None = None  # NOTE or COMMENTARY
    n: int | None = None  # the note's or commentary's number

    # -- reading and writing -----------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | None) -> "NodeId | None":
        """'2017/50D2a' or '2017/41A/noot1' -> NodeId; None when `text` is not a well-formed ID. The outputs ask
        for the same IDs thousands of times a build, and a NodeId never changes: each text is parsed once."""
        return _parsed(text) if cls is NodeId else cls._parse(text)

    @classmethod
    def _parse(cls, text: str | None) -> "NodeId | None":
        m = ID.match(text or "")
        if not m:
            return None
        parts = _node_parts(m.group("cite"))
        if parts is None:
            return None
        n = int(m.group("n")) if m.group("n") else None
        if m.group("annex") is None and parts["article"].startswith(DEFINITION + SEPARATOR):
            return None  # a definition is read as a node only for the notes below it (2017/def/alert/noot1)
        return cls._of_parts(m.group("edition"), parts, annex=m.group("annex"), n=n)

    @classmethod
    def _of_parts(cls, edition: str, parts: Parts, annex: str | None = None, n: int | None = None) -> "NodeId":
        return cls(edition, parts["article"], parts["section"], parts["subsection"], parts["item"], parts["subitem"],
                   annex, n)

    @classmethod
    def of(cls, edition: str | None, cite: str | None) -> "NodeId | None":
        """The node `cite` ('50D2a') of `edition`; None when the citation is malformed."""
        parts = _node_parts(cite)
        if parts is None or edition is None or not EDITION.match(edition):
            return None
        return cls._of_parts(edition, parts)

    @property
    def parts(self) -> dict[str, str | None]:
        return {"article": self.article, "section": self.section, "subsection": self.subsection, "item": self.item,
                "subitem": self.subitem}

    @property
    def cite(self) -> str:
        """The citation as an ID writes it: '50D2a', '30B1b.i' (also the HTML anchor)."""
        return make_citation(*self._levels)

    @property
    def is_introduction(self) -> bool:
        return self.article == INTRODUCTION

    @property
    def is_definition(self) -> bool:
        """A definition of the book's Definitions (2017/def/alerte), read as a node for the notes below it."""
        return self.article.startswith(DEFINITION + SEPARATOR)

    @property
    def display(self) -> str:
        """The citation as the law writes it: '47E1', '50D2(a)', '30B1(b)(i)'."""
        return display_citation(*self._levels)

    @property
    def _levels(self) -> tuple[str, str | None, str | None, str | None, str | None]:
        """The citation's parts in the order of LEVELS."""
        return self.article, self.section, self.subsection, self.item, self.subitem

    def _with_level(self, depth: int, num: str | None) -> "NodeId":
        """The structural node with the part at `depth` (1: section … 4: subitem) set to `num`."""
        below = list(self._levels[1:])
        below[depth - 1] = num
        section, subsection, item, subitem = below
        return NodeId(self.edition, self.article, section, subsection, item, subitem)

    @property
    def _depth(self) -> int:
        """How many levels the citation has: 1 for an article … 5 for a subitem."""
        return sum(1 for part in self._levels if part)

    def __str__(self) -> str:
        node = f"{self.edition}{SEPARATOR}{self.cite}"
        return f"{node}{SEPARATOR}{self.annex}{self.n}" if self.annex else node

    # -- relations ---------------------------------------------------------------------------
    @property
    def level(self) -> str:
        """'article' … 'item' for a structural node; the annex word for a note or commentary."""
        if self.annex:
            return self.annex
        if self.is_introduction:
            return "introduction"
        return LEVELS[self._depth - 1]

    @property
    def node(self) -> "NodeId":
        """The structural node: itself, or the node a note or commentary hangs below."""
        return NodeId(self.edition, *self._levels) if self.annex else self

    @property
    def article_id(self) -> "NodeId":
        return NodeId(self.edition, self.article)

    @property
    def parent(self) -> "NodeId | None":
        """The node one level up (a note's node; None for an article)."""
        if self.annex:
            return self.node
        depth = self._depth
        if depth == 1:
            return None
        return self._with_level(depth - 1, None)

    def ancestors(self) -> Iterator["NodeId"]:
        """This node and every node above it, nearest first."""
        node: NodeId | None = self
        while node is not None:
            yield node
            node = node.parent

    def child(self, num: str) -> "NodeId":
        """The structural child `num` one level down: 53 -> 53A, 53A -> 53A1, 53A1 -> 53A1a, 53A1a -> 53A1a.i."""
        return self._with_level(self._depth, num)

    def note(self, n: int) -> "NodeId":
        return NodeId(self.edition, *self._levels, annex=NOTE, n=n)

    def commentary(self, n: int) -> "NodeId":
        return NodeId(self.edition, *self._levels, annex=COMMENTARY, n=n)

    def in_edition(self, edition: str) -> "NodeId":
        return NodeId(edition, *self._levels, annex=self.annex, n=self.n)

    # -- forms for the outputs ---------------------------------------------------------------
    @property
    def anchor(self) -> str:
        """The HTML/Markdown anchor within an edition's page: '50D2a'; a note's is '53A-noot1'."""
        cite = self.cite.replace(SEPARATOR, "-")  # (a definition's: "def-alerte", as its page anchors it)
        return f"{cite}-{self.annex}{self.n}" if self.annex else cite

    @property
    def typst_label(self) -> str:
        """The Typst label and PDF named destination: 'n2017-47E1', 'n2017-41A-noot1'."""
        label = f"n{self.edition}-{self.cite.replace(SEPARATOR, '-')}"
        return f"{label}-{self.annex}{self.n}" if self.annex else label

    @classmethod
    def from_typst_label(cls, label: str | None) -> "NodeId | None":
        m = _TYPST_LABEL.match(label or "")
        if not m:
            return None
        node = cls.of(m.group(1), m.group(2))
        if node is None or not m.group(3):
            return node
        return node.note(int(m.group(4))) if m.group(3) == NOTE else node.commentary(int(m.group(4)))

    def sort_key(self) -> tuple[object, ...]:
        """Reading order: 2017/9 < 2017/10 < 2017/10A < 2017/10A2 < 2017/10A2b < 2017/10A2b.ii
        < 2017/10A2b.iv (notes after their node)."""
        levels = tuple(sort_key(num, level) if num else (-1, 0, "") for num, level in zip(self._levels, LEVELS))
        return (self.edition, *levels, (self.annex or "", self.n or 0))


# -- the same rules on strings ------------------------------------------------------------------
@functools.lru_cache(maxsize=1 << 16)
def _parsed(text: str | None) -> NodeId | None:
    """NodeId.parse, remembered (a NodeId is frozen, so the one made for a text can be given every time)."""
    return NodeId._parse(text)


def parse(node_id: str | None) -> NodeId | None:
    """NodeId.parse: None for anything that is not an ID."""
    return NodeId.parse(node_id)


# Compiled once: a pattern given to re.fullmatch as a string is looked up in re's cache of 512 on every call,
# and a build compiles more patterns than that, so the lookup missed and compiled it again (0.15 s a rebuild).
_DEFINITION_CITE = re.compile(DEFINITION_CITE)


def _node_parts(cite: str | None) -> Parts | None:
    """parse_citation, and the introduction's "intro" as a node of its own (its parts: the word as article)."""
    if cite == INTRODUCTION or cite is not None and _DEFINITION_CITE.fullmatch(cite):
        return {"article": cite, "section": None, "subsection": None, "item": None, "subitem": None}
    return parse_citation(cite)


def parse_citation(cite: str | None) -> Parts | None:
    """'50D2a' -> {'article': '50', 'section': 'D', 'subsection': '2', 'item': 'a', 'subitem': None};
    None when malformed."""
    m = CITATION.match(cite or "")
    if not m:
        return None
    parts = Parts(article=m["article"], section=m["section"], subsection=m["subsection"], item=m["item"],
                  subitem=m["subitem"])
    # A subsection needs a section, an item needs a subsection: "50a" is no citation.
    if parts["subsection"] and not parts["section"]:
        return None
    if parts["item"] and not parts["subsection"]:
        return None
    if parts["subitem"] and not parts["item"]:
        return None
    return parts


def make_citation(article: str, section: str | None = None, subsection: str | None = None, item: str | None = None,
                  subitem: str | None = None) -> str:
    return f"{article}{section or ''}{subsection or ''}{item or ''}{'.' + subitem if subitem else ''}"


def display_citation(article: str, section: str | None = None, subsection: str | None = None,
                     item: str | None = None, subitem: str | None = None) -> str:
    """The law's own form of a citation: '47E1', '50D2(a)', '30B1(b)(i)'."""
    return f"{article}{section or ''}{subsection or ''}{f'({item})' if item else ''}{f'({subitem})' if subitem else ''}"


def display(node_id: str) -> str:
    """The law's own form of a node's citation: '2017/30B1b.i' -> '30B1(b)(i)'; `node_id` itself when it is no ID."""
    parsed = NodeId.parse(node_id)
    return parsed.display if parsed else node_id


def shown(node_id: str) -> str:
    """The citation the outputs show readers for a node (or note): its cite, as they have always shown
    items ('50D2a'), but a subitem's in the law's own form ('30B1(b)(i)'): its cite '30B1b.i' is the
    ID's form (and the anchor), not the law's."""
    parsed = NodeId.parse(node_id)
    if parsed is None:
        return cite_of(node_id)
    return parsed.display if parsed.subitem else parsed.cite


def make_id(edition: str, article: str, section: str | None = None, subsection: str | None = None,
            item: str | None = None, subitem: str | None = None) -> str:
    return f"{edition}{SEPARATOR}{make_citation(article, section, subsection, item, subitem)}"


def child_id(node_id: str, num: str) -> str:
    """The ID of the structural child `num` of `node_id`: '2017/53A1' + 'b' -> '2017/53A1b',
    '2017/30B1b' + 'i' -> '2017/30B1b.i'."""
    parsed = NodeId.parse(node_id)
    if parsed is None:
        raise ValueError(f"not an ID: {node_id!r}")
    return str(parsed.child(num))


def join(edition: str, cite: str) -> str:
    """'2017', '50D2a' -> '2017/50D2a'."""
    return f"{edition}{SEPARATOR}{cite}"


def definition_id(edition: str, term: str) -> str:
    """'2017', 'Adjusted Score' -> '2017/def/adjusted-score': the term in lower case, its words joined by
    hyphens (letters and digits only); a remark in brackets is no part of it ('Penalty (see also
    "Rectification")' -> '2017/def/penalty'), unless the term is nothing else."""
    bare = re.sub(r"\([^()]*\)", " ", term)
    slug = "-".join(re.findall(r"[^\W_]+", (bare if re.search(r"[^\W_]", bare) else term).lower()))
    return f"{edition}{SEPARATOR}{DEFINITION}{SEPARATOR}{slug}"


def definition_slug(definition_id: str) -> str:
    """'2017/def/adjusted-score' -> 'adjusted-score': the term's part of a definition's ID (its anchor)."""
    return definition_id.rsplit(SEPARATOR, 1)[1]


def introduction_id(edition: str) -> str:
    """'2017' -> '2017/intro': the edition's Introduction (there is at most one)."""
    return f"{edition}{SEPARATOR}{INTRODUCTION}"


def note_id(node_id: str, n: int) -> str:
    return f"{node_id}{SEPARATOR}{NOTE}{n}"


def commentary_id(node_id: str, n: int) -> str:
    return f"{node_id}{SEPARATOR}{COMMENTARY}{n}"


def split_id(node_id: str | None) -> tuple[str, str]:
    """'2017/50D2a' (or '2017/50D2a/noot1') -> ('2017', '50D2a')."""
    edition, _, cite = (node_id or "").partition(SEPARATOR)
    return edition, cite.split(SEPARATOR)[0]


def edition_of(node_id: str | None) -> str:
    return split_id(node_id)[0]


def cite_of(node_id: str | None) -> str:
    """The citation readers know: '57B' for 2017/57B (and for 2017/57B/noot1)."""
    return split_id(node_id)[1]


@functools.lru_cache(maxsize=1 << 16)  # the site and the graph ask it of every reference, again and again
def article_of(node_id: str | None) -> str | None:
    """'2017/50D2a' (or '2017/50D2a/noot1') -> '2017/50'; None when it is no ID."""
    edition, cite = split_id(node_id)
    parts = parse_citation(cite)
    return make_id(edition, parts["article"]) if parts else None


def is_well_formed(node_id: str | None) -> bool:
    """A well-formed ID: a node's, or a note's or commentary's below one."""
    return NodeId.parse(node_id) is not None


def is_annex(node_id: str | None) -> bool:
    """A note's or commentary's ID: 2017/41A/noot1, 2017/54/toelichting1."""
    parsed = NodeId.parse(node_id)
    return parsed is not None and parsed.annex is not None


def parent_citation(cite: str) -> str | None:
    """'50D2a' -> '50D2'; None for an article's citation (and for one that is malformed)."""
    parsed = NodeId.of("0000", cite)
    parent = parsed.parent if parsed is not None else None
    return parent.cite if parent is not None else None


def order_key(node_id: str) -> tuple[tuple[object, ...], str]:
    """Reading order of ID strings; IDs that do not parse sort after, by their text."""
    parsed = NodeId.parse(node_id)
    return (parsed.sort_key() if parsed else (edition_of(node_id), (9, 0, "")), node_id)


def sort_key(num: str, level: str | None = None) -> SortKey:
    """Order of numbers within one level: 1 < 2 < 10, A < B, a < b; at the subitem level roman
    numerals by their value, i < ii < iv < v < ix < x. The introduction comes before the first article."""
    if num == INTRODUCTION and level == "article":
        return (-1, 0, num)
    if num.isdigit():
        return (0, int(num), "")
    if level == "subitem" and re.fullmatch(ROMAN, num):
        return (0, roman_value(num), "")
    return (1, 0, num)


def roman_value(numeral: str) -> int:
    """'iv' -> 4: the value of a lowercase roman numeral."""
    values = [_ROMAN_VALUES[c] for c in numeral]
    return sum(-v if v < w else v for v, w in zip(values, values[1:] + [0]))


def roman(n: int) -> str:
    """4 -> 'iv': the lowercase roman numeral of 1 <= n <= 39."""
    tens, units = divmod(n, 10)
    return "x" * tens + ("", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix")[units]


# The most list numbers a level can hold: an ID writes a section or an item as one letter (A to Z, a to
# z), a subitem as a roman numeral up to xxxix (docs/errors.md, "Numbering past Z").
MOST_NUMBERS = {"section": 26, "item": 26, "subitem": 39}


class NumberPastLetters(ValueError):
    """A list number that no letter (or numeral) of its level can stand for: no ID can name the node."""


# The most digits an article's or a subsection's number may have. The Laws number their articles to 93
# and their subsections to 9; a page of the site is named by its article's number, and a file name holds
# 255 bytes at most (a number of 400 digits ended the build in "File name too long").
MOST_DIGITS = 6


class NumberTooLong(NumberPastLetters):
    """An article's or a subsection's number of more than MOST_DIGITS digits: no ID names such a node."""


def too_long(num: str, level: str) -> NumberTooLong | None:
    """The error for `num`, the number of a node at `level`, when it has more digits than an ID may have."""
    if len(num) <= MOST_DIGITS or not num.isdigit():
        return None
    return NumberTooLong(f"{level} number {num[:8]}… ({len(num)} digits) cannot be written as an ID: a number has "
                         f"at most {MOST_DIGITS} digits (the Laws number their articles to 93)")


def letter_for(n: int, level: str) -> str:
    """List number n (1-based) as the number used at `level`: sections A, B…; items a, b…; subitems i, ii….
    Past MOST_NUMBERS[level] (section 27 would get "[", the character after Z) a NumberPastLetters."""
    most = MOST_NUMBERS[level]
    if not 1 <= n <= most:
        shown = "A to Z" if level == "section" else "a to z" if level == "item" else "i to xxxix"
        raise NumberPastLetters(f"{level} number {n} cannot be written as an ID: a {level} is numbered {shown} "
                                f"({most} at most)")
    if level == "subitem":
        return roman(n)
    letter = chr(ord("A") + n - 1)
    return letter if level == "section" else letter.lower()


# "50d2a", "2017 41B", "2017/50D2(a)", "53", "30B1(b)(i)", "30b1b.i": what a person types for an ID.
_TYPED = re.compile(r"^\s*(?:(?P<edition>\d{4})\s*[/ ]\s*)?(?P<article>\d+)\s*(?P<section>[A-Za-z])?"
                    r"(?P<subsection>\d+)?(?:(?P<item>[A-Za-z])|\((?P<pitem>[A-Za-z])\))?"
                    r"(?:\.(?P<subitem>[ivx]+)|\((?P<psubitem>[ivx]+)\.?\))?"
                    r"(?:\s*/\s*(?P<annex>noot|toelichting)\s*(?P<n>\d+))?\s*$", re.ASCII | re.IGNORECASE)


# "intro", "2017/intro", "2017 Intro/noot1": the introduction as a person types its ID.
_TYPED_INTRODUCTION = re.compile(rf"^\s*(?:(?P<edition>\d{{4}})\s*[/ ]\s*)?{INTRODUCTION}"
                                 r"(?:\s*/\s*(?P<annex>noot|toelichting)\s*(?P<n>\d+))?\s*$", re.ASCII | re.IGNORECASE)


def read_typed(text: str | None) -> tuple[str | None, str] | None:
    """(edition or None, the ID without its edition) for an ID as a person types it: any case, the
    edition left out or set apart by a space, the item and subitem in brackets ("30B1(b)(i)") or the
    subitem after a dot ("30b1b.i"), or the introduction ("2017/intro"). None when it cannot be one."""
    if m := _TYPED_INTRODUCTION.match(text or ""):
        rest = INTRODUCTION + (f"{SEPARATOR}{m.group('annex').lower()}{m.group('n')}" if m.group("annex") else "")
        return m.group("edition"), rest
    m = _TYPED.match(text or "")
    if not m:
        return None
    g = m.groupdict()
    item = g["item"] or g["pitem"]
    subitem = g["subitem"] or g["psubitem"]
    cite = make_citation(g["article"], (g["section"] or "").upper() or None, g["subsection"],
                         item.lower() if item else None, subitem.lower() if subitem else None)
    if parse_citation(cite) is None:
        return None
    rest = f"{cite}{SEPARATOR}{g['annex'].lower()}{g['n']}" if g["annex"] else cite
    return g["edition"], rest


# The book's index (register): one per edition, 2017/index; each headword an entry with the slug of its words,
# 2017/index/adjusted-score (index_entry_id). No citation reaches it: it points at the law, not the other way.
INDEX = "index"


def index_id(edition: str) -> str:
    """'2017' -> '2017/index'."""
    return f"{edition}{SEPARATOR}{INDEX}"


def index_entry_id(edition: str, headword: str) -> str:
    """'2017', 'Adjusted Score' -> '2017/index/adjusted-score': the headword as a definition's term is made a slug."""
    return f"{index_id(edition)}{SEPARATOR}{definition_slug(definition_id(edition, headword))}"
