"""Never a quietly wrong book: the corpus, once read, against what law text cannot contain.

Reads: the corpus (after the book check, before the references: no <ref> stands in it yet, so a citation
is found as the references stage finds it, refs.find_citations), the readings (the page furniture their
readers dropped), every source's lines (the line a finding stands on; the book's vocabulary,
repair.book_vocabulary), the book's profile (its citation words, its conjunctions) and the report so far
(what a reader reported already). Writes: an error in the report for each finding, so that the build
fails, or an "uncertain" inference where two readings fit; each names the file and line and the node.

Law text is what the nodes hold (articles and their parts, the introduction, the definitions): their
paragraphs, titles and headings and the notes in them. A commentary is a personal remark, not law text,
and is not checked. The checks:

  1. marker       a footnote marker's form left in a paragraph's own text (outside its notes): a word of two
                  letters or more, not all capitals, with one or two digits glued after it ("leider2",
                  "beneden1."), or a sign glued after a word or its punctuation ("exiger*", "séance*.",
                  "woord†", "woord[1]", "woord¹"). Never a citation ("artikel 12C1", "40B2(a)", "Law12": as
                  the references stage reads them), a call ("4NT", "1NT", "2♠"), a card holding in capitals
                  ("AQ2"), an ordinal ("1e", "2nd"), an ID ("2017/41A/noot1") or an address.
  2. notes        a note without text (its marker stands, the footnote it marks says nothing); a paragraph
                  that is a footnote's body kept as law text: it starts with a footnote's label ("1) Het …",
                  "[1] …", "¹ …", "↑ …"): an error where a marker of that number stands in its article's
                  text, else uncertain (a list entry numbered "1)" reads so too); a paragraph that goes on
                  with the next label ("1) The process … 2) The aggregate …", a definition's senses) is a
                  list. What a reader already reported as an error at the same line (a footnote without a
                  marker, a marker without a footnote) is not reported again.
  3. furniture    the running heads and feet of the source's pages (the readers' dropped entries name them)
                  of HEAD_LENGTH characters or more inside a paragraph, and the source's own page number
                  forms with a word ("Page 12"): an error where the source line it stands on holds nothing
                  else (a page break the reader did not see), else uncertain (the book's title may be cited
                  in its text); a page number between dashes between words ("kaart - 28 - wordt"): always an
                  error. A running head that cites ("Artikel 41") is the law's words too: never looked for.
  4. hyphens      a soft hyphen (U+00AD) left in law text: always an error; a word split by a line-end hyphen
                  and a space ("voor- spelen", "ove- rtredende": the word after it in lower case, no
                  conjunction: "bied- of speelwijze" is an elliptic compound): an error where the book's
                  vocabulary has the joined word and not the hyphenated one (or the hyphenated one alone),
                  uncertain where it has both, nothing where it has neither; a compound written joined where
                  the edition writes it hyphenated more often ("nonoffending", "non-offending": an extraction
                  that joins a word broken at a line's end drops the hyphen of a compound broken there too):
                  uncertain, the word kept as the source has it.
  5. indentation  nodes whose level rests on a source's indentation alone (structure.rests_on_indentation:
                  "list number N. indented k level(s)" and no citation confirming it) and whose list number
                  reads as a wrapped line's: it is not the number of its place in the list ("16." where item
                  (a) would stand), or its line goes on from the line before (which ends in no punctuation,
                  no list word and is no heading). A plain-text export whose wrapped lines are indented reads
                  so; a wiki's lists, nested by indentation, numbered in order after an entry that ends, do not
                  (the wiki's 50D, the generated books). Where one source gives MANY_INDENTED or more, one error
                  naming the first and how many; fewer, uncertain.
  6. no notes     an edition without any note whose text holds LOST_NOTES or more marker forms (check 1's):
                  one error, the readers lost its footnotes.

A paragraph's first finding of each kind is reported with how many more of that kind stand in it: the
report grows with the paragraphs, never with what one paragraph holds. Each check is one pass over the
text (a running head is looked up by its first word, never searched for in every paragraph).
"""
import ast
import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ..core import ids, lang, tree
from ..core.model import Line, Reading
from ..core.report import ERROR_KINDS, BuildLog
from ..core.tree import Element
from ..reading import notes as note_forms, repair
from ..reading.book.furniture import page_number
from . import refs
from .structure import rests_on_indentation

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


def check_fidelity(corpus: Element, readings: Sequence[Reading], lines: Mapping[str, Sequence[Line]],
                   log: BuildLog, profile: lang.Profile) -> list[Finding]:
    """The stage's work (corpus/stages.py check_fidelity): every finding, each added to `log` too."""
    reported = {(e.file, e.line) for e in log.entries if e.kind in ERROR_KINDS}
    check = Check(Sources(lines), profile, reported, lambda: repair.book_vocabulary(lines, profile), log.location)
    for edition in corpus.iterchildren("edition"):
        check.edition(edition, [r for r in readings if r.edition == edition.get("id")])
    for f in check.findings:
        log.add(f.kind, f.file, f.line, f.message, f.node)
    return check.findings


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


class Check:
    """The checks over the editions of one corpus (check_fidelity)."""

    def __init__(self, sources: Sources, profile: lang.Profile, reported: set[Place],
                 vocabulary: Callable[[], set[str]], location: Callable[[str | None, int | None], str]) -> None:
        self.sources = sources
        self.profile = profile
        self.reported = reported  # (file, line) of every error the readers and stages before reported
        self.make_vocabulary = vocabulary
        self.location = location
        self.known: set[str] | None = None
        self.hyphenated: dict[str, str] | None = None
        # Check 4b, per edition: how often each form stands, joined or hyphenated ("nonoffending",
        # "non-offending"), and where each joined one stands (its text, part, owner, node)
        self.joined: Counter[str] = Counter()
        self.pending: list[tuple[str, str, Element, str | None]] = []
        self.conjunctions = frozenset(w.lower() for w in profile.rules.CONJUNCTIONS)
        # The words after which a list's entry follows on the next line ("…, of", "… en"): a line that ends in
        # one does not go on into the next.
        self.list_words = self.conjunctions | {w.lower() for w in profile.rules.LIST_WORDS}
        self.findings: list[Finding] = []
        self.holders: dict[Element, dict[str, list[Element]]] = {}  # article -> marker number -> its <p>s

    def add(self, kind: str, where: Place, message: str, node: str | None) -> Finding:
        if kind == "uncertain":
            kind, message = "inference", f"uncertain: {message}"
        found = Finding(kind, where[0], where[1], message, node)
        self.findings.append(found)
        return found

    @property
    def vocabulary(self) -> set[str]:
        """The book's word forms, lower-cased (repair.book_vocabulary), made when a check first asks."""
        if self.known is None:
            self.known = self.make_vocabulary()
        return self.known

    def edition(self, edition: Element, readings: list[Reading]) -> None:
        furniture = {r.file: Furniture.of(r, self.sources, self.profile) for r in readings}
        markers = 0  # check 1's forms in the edition's text
        first_marker: Finding | None = None
        for node in edition.iter(*LAW_NODES):
            node_id = node.get("id")
            for el in node.iterchildren(*PARTS):
                text = tree.plain_text(el)
                for note in el.iter("note"):
                    self.note(note, node_id)
                self.hyphens(el, text, PARTS[el.tag], node_id)
                if el.tag != "p":
                    continue
                found, count = self.markers(el, node_id)
                markers += count
                first_marker = first_marker or found
                self.body(el, text, node_id, holder_of(node))
                self.heads(el, text, node_id, furniture)
                self.folios(el, text, node_id, furniture)
        self.joined_findings()
        self.indentation(edition)
        if first_marker is not None and markers >= LOST_NOTES and edition.find(".//note") is None:
            self.add("error", (first_marker.file, first_marker.line),
                     f"edition {edition.get('id')} has no footnote at all, but {markers} footnote markers' forms stand "
                     f"in its text (the first in {first_marker.node}, at "
                     f"{self.location(first_marker.file, first_marker.line)}): the readers lost its footnotes",
                     first_marker.node)

    # -- 1. a marker's form --------------------------------------------------------------------------
    def markers(self, p: Element, node_id: str | None) -> tuple[Finding | None, int]:
        """Check 1 on a paragraph: (its first finding or None, how many forms it holds)."""
        found = [(text, form) for text in own_runs(p) for form in marker_forms(text, self.profile)]
        if not found:
            return None, 0
        text, form = found[0]
        where = self.sources.containing(p, text[form.start:form.end])
        what = (f"a word with the digit{'s' if len(form.glued) > 1 else ''} {form.glued} glued to it is a footnote "
                f"marker's form, never law text (the law writes a number apart from its word)"
                if form.glued.isdigit() else
                f"the sign {form.glued!r} glued to the word is a footnote marker's form, never law text (the law's "
                f"words carry no sign)")
        return self.add("error", where, f"{shown(form.token)!r} in the text of {node_id}: {what}; the readers did not "
                                        f"take it for a marker, so its footnote is lost or stands elsewhere as text"
                                        f"{more(len(found) - 1)}", node_id), len(found)

    # -- 2. a note without text, a footnote's body kept as law text ----------------------------------
    def note(self, note: Element, node_id: str | None) -> None:
        if tree.plain_text(note).strip():
            return
        sources = tree.parse_sources(note.get("sources"))
        if any((file, num) in self.reported for file, nums in sources.items() for num in nums):
            return  # its reader said so, at its line
        note_id = note.get("id") or node_id
        number = f" (numbered {note.get('num')})" if note.get("num") else ""
        self.add("error", tree.first_line(note),
                 f"{note_id} has no text: its marker{number} stands in the text of {node_id}, but the note says nothing "
                 f"(its footnote's text was not found, or the source's note is empty)", note_id)

    def body(self, p: Element, text: str, node_id: str | None, holder: Element) -> None:
        m = BODY.match(text)
        if not m:
            return
        where = tree.first_line(p)
        if where in self.reported:
            return  # a reader kept it so, and said so at its line
        label = m.group().strip()
        number = m.group(1) or m.group(2) or (number_of(m.group(3)) if m.group(3) else None)
        if m.group(1) and re.search(rf"\s{int(m.group(1)) + 1}\)\s", text):
            return  # "1) The process …. 2) The aggregate …": a definition's senses, a list in one paragraph
        marked = self.marked(holder, p, number) if number else None
        if marked is not None:
            self.add("error", where, f"{shown(text)!r} in {node_id} is a footnote's text kept as law text: it starts "
                                     f"with the footnote label {label!r}, and a marker {number} stands in the text of "
                                     f"{marked}; neither was read as a note", node_id)
        else:
            self.add("uncertain", where, f"{shown(text)!r} in {node_id} starts with {label!r}: a footnote's text kept "
                                         f"as law text, or a list entry numbered so; no marker"
                                         f"{' ' + number if number else ''} stands in the text of "
                                         f"{holder.get('id')}", node_id)

    def marked(self, holder: Element, body: Element, number: str) -> str | None:
        """The node in whose text (outside `body`) a marker `number` stands in `holder`, the article: check 1's
        forms ("leider1", "woord[1]", "woord¹") and the template's " 1)"."""
        found = self.holders.get(holder)
        if found is None:
            found = self.holders[holder] = {}
            for p in holder.iter("p"):
                for text in own_runs(p):
                    numbers = [n for form in marker_forms(text, self.profile) if (n := number_of(form.glued))]
                    numbers += template_markers(text)
                    for n in numbers:
                        found.setdefault(n, []).append(p)
        holding = next((p for p in found.get(number, ()) if p is not body), None)
        return node_of(holding) if holding is not None else None

    # -- 3. page furniture -------------------------------------------------------------------------
    def heads(self, p: Element, text: str, node_id: str | None, furniture: Mapping[str, Furniture]) -> None:
        """A running head or foot of the paragraph's sources in its text."""
        heads = sorted((at, head, what, line, file) for file in sorted(tree.parse_sources(p.get("sources")))
                       if file in furniture for at, head, what, line in furniture[file].heads_in(text))
        if not heads:
            return
        _, head, what, dropped, file = heads[0]
        where, alone = self.sources.line_of(p, lambda t: _alone(t, head))
        said = (f"{head!r} in the text of {node_id} is the {what} of the source's pages (dropped as page furniture "
                f"at {self.location(file, dropped)})")
        if alone:
            self.add("error", where, f"{said}, and stands alone on its line: page furniture read into the paragraph "
                                     f"at a page break the reader did not see; law text never holds it"
                                     f"{more(len(heads) - 1)}", node_id)
        else:
            self.add("uncertain", self.sources.containing(p, head),
                     f"{said}: page furniture read into the paragraph, or the words cited in the law's text"
                     f"{more(len(heads) - 1)}", node_id)

    def folios(self, p: Element, text: str, node_id: str | None, furniture: Mapping[str, Furniture]) -> None:
        """A page number's form in the paragraph's text: between dashes between words, or as the paragraph's
        sources print their page numbers."""
        if page_number(text.strip()) is not None:
            self.add("error", tree.first_line(p), f"the text of {node_id} is {text.strip()!r}, a page number alone: "
                                                  f"page furniture kept as a paragraph; law text never holds it",
                     node_id)
            return
        dashed = [m for m in DASHED_FOLIO.finditer(text)]
        if dashed:
            number = re.escape(re.sub(r"\D", "", dashed[0].group()))
            where = self.sources.line_of(p, lambda t: bool(re.search(rf"[-\u2013\u2014]\s?{number}\s?[-\u2013\u2014]", t)))[0]
            self.add("error", where, f"{dashed[0].group().strip()!r} in the text of {node_id} is a page number's form "
                                     f"inside a sentence: page furniture read into the paragraph at a page break the "
                                     f"reader did not see; law text never holds it{more(len(dashed) - 1)}", node_id)
        found = sorted((m.start(), m.group(), pattern, file, line)
                       for file in sorted(tree.parse_sources(p.get("sources"))) if file in furniture
                       for pattern, line in furniture[file].folios for m in pattern.finditer(text))
        if not found:
            return
        _, form, pattern, file, dropped = found[0]
        where, alone = self.sources.line_of(p, lambda t: bool(pattern.fullmatch(t.strip())))
        said = (f"{form!r} in the text of {node_id} is a page number's form inside a sentence, as the source prints "
                f"its page numbers ({self.location(file, dropped)})")
        if alone:
            self.add("error", where, f"{said}, alone on its line: page furniture read into the paragraph at a page "
                                     f"break the reader did not see; law text never holds it{more(len(found) - 1)}",
                     node_id)
        else:
            self.add("uncertain", self.sources.containing(p, form),
                     f"{said}: page furniture read into the paragraph, or the words of the law's text"
                     f"{more(len(found) - 1)}", node_id)

    # -- 4. a word split by a hyphen ---------------------------------------------------------------
    def hyphens(self, el: Element, text: str, part: str, node_id: str | None) -> None:
        """Check 4 on a paragraph, title or heading (its own words) and on each of its notes."""
        texts = [(text, part, el, node_id)] + [(tree.plain_text(n), "note", n, n.get("id") or node_id)
                                                for n in el.iter("note")]
        for words, what, owner, where_id in texts:
            if SOFT_HYPHEN in words:
                at = words.index(SOFT_HYPHEN)
                first, last = Run(words).token(at, at + 1)
                token = words[max(first, at - NEAR):min(last, at + NEAR)]
                self.add("error", self.sources.containing(owner, token),
                         f"a soft hyphen (U+00AD) in {shown(token)!r} in the {what} of {where_id}: an invisible "
                         f"hyphenation point left in the law text, which splits the word for search and comparison"
                         f"{more(words.count(SOFT_HYPHEN) - 1)}", where_id)
            if "- " in words:
                self.split_words(words, what, owner, where_id)
            self.joined_compounds(words, what, owner, where_id)

    @property
    def compounds(self) -> dict[str, str]:
        """{a hyphenated word of the book without its hyphens: that word} ("nonoffending": "non-offending")."""
        if self.hyphenated is None:
            self.hyphenated = {w.replace("-", ""): w for w in self.vocabulary if "-" in w.strip("-")}
        return self.hyphenated

    def joined_compounds(self, text: str, what: str, owner: Element, node_id: str | None) -> None:
        """Check 4b's candidates in one part's text: its compounds the book writes hyphenated elsewhere, and
        how often the edition writes each form; `joined_findings` weighs them once the edition is read."""
        for m in COMPOUND.finditer(text):
            word = m.group().lower()
            if word in self.compounds:
                self.joined[word] += 1
                self.pending.append((m.group(), what, owner, node_id))
        if "-" in text:
            for m in HYPHENATED.finditer(text):
                self.joined[m.group().lower()] += 1

    def joined_findings(self) -> None:
        """A compound written joined where the edition writes it with its hyphen more often ("nonoffending"
        and "non-offending"): an extraction that joins a word broken at a line's end drops the hyphen of a
        compound broken there too. Where the joined form is as common or more, it is the book's own
        spelling. Uncertain (a book may write a word both ways): kept as the source has it."""
        for word, what, owner, node_id in self.pending:
            hyphenated = self.compounds[word.lower()]
            joined, with_hyphen = self.joined[word.lower()], self.joined[hyphenated]
            if joined < with_hyphen:
                self.add("uncertain", self.sources.containing(owner, word),
                         f"{word!r} in the {what} of {node_id}: the edition writes {hyphenated!r} {times(with_hyphen)} "
                         f"and the word joined {times(joined)}; an extraction that joins a word broken at a line's "
                         f"end drops the hyphen of a compound broken there too; kept as the source has it", node_id)
        self.pending.clear()
        self.joined.clear()

    def split_words(self, text: str, what: str, owner: Element, node_id: str | None) -> None:
        found: list[tuple[str, str, str, str]] = []  # (kind, form, joined, hyphenated)
        for m in SPLIT.finditer(text):
            first, second = m.groups()
            if not second[0].islower() or second.lower() in self.conjunctions:
                continue
            joined, hyphenated = (first + second).lower(), f"{first}-{second}".lower()
            has_joined, has_hyphenated = joined in self.vocabulary, hyphenated in self.vocabulary
            if has_joined or has_hyphenated:
                found.append(("uncertain" if has_joined and has_hyphenated else "error", m.group(), joined, hyphenated))
        if not found:
            return
        kind, form, joined, hyphenated = found[0]
        said = f"{shown(form)!r} in the {what} of {node_id}"
        if kind == "uncertain":
            message = (f"{said}: the book writes both {joined!r} and {hyphenated!r}: a word split at a line end, or "
                       f"the hyphenated word with a space left after its hyphen")
        elif joined in self.vocabulary:
            message = (f"{said} is a word split by a line-end hyphen, the space left: the book writes {joined!r} "
                       f"elsewhere, never {hyphenated!r}")
        else:
            message = (f"{said} is a word split after its hyphen, the space left: the book writes {hyphenated!r} "
                       f"elsewhere, never {joined!r}")
        self.add(kind, self.sources.containing(owner, form), message + more(len(found) - 1), node_id)

    # -- 5. structure from indentation alone -------------------------------------------------------
    def indentation(self, edition: Element) -> None:
        """The nodes whose level rests on indentation alone and whose list number reads as a wrapped line's
        (wrapped()), per source: from MANY_INDENTED on an error, fewer uncertain; each source once."""
        found: dict[str, list[tuple[Element, int, str]]] = {}  # file -> (node, its line, why it reads wrapped)
        for node in edition.iter(*ids.LEVELS[1:]):
            if node.get("numbering") != "inferred":
                continue
            basis = rests_on_indentation(node.get("evidence") or "")
            if basis is None or not basis[1]:
                continue
            for file, nums in tree.parse_sources(node.get("sources")).items():
                why = self.wrapped(node, basis[0], file, min(nums))
                if why:
                    found.setdefault(file, []).append((node, min(nums), why))
        for file, nodes in found.items():
            node, line, why = nodes[0]
            what = f"{node.get('id')} ({node.get('evidence')!r}), whose {why}"
            if len(nodes) >= MANY_INDENTED:
                self.add("error", (file, line),
                         f"{len(nodes)} nodes of this source rest on its indentation alone, no citation confirming "
                         f"them, with list numbers that read as wrapped lines, the first {what}: lines indented "
                         f"because they wrap read as lists nested so, and the structure is made up", node.get("id"))
            else:
                self.add("uncertain", (file, line),
                         f"{what}: {'it rests' if len(nodes) == 1 else f'it and {len(nodes) - 1} more rest'} on the "
                         f"source's indentation alone, no citation confirming {'it' if len(nodes) == 1 else 'them'}: "
                         f"a line indented because it wraps, or a list nested so", node.get("id"))

    def wrapped(self, node: Element, number: int, file: str, line: int) -> str | None:
        """Why a node's list number reads as a line of wrapped text, or None: its number is not the next of its
        level (a wrapped line that starts with "16." under no item a–o), or the source line before it goes on
        into it (it ends in no punctuation and no list word, and is no heading)."""
        place = sum(1 for _ in node.itersiblings(node.tag, preceding=True)) + 1
        if number != place:
            return f"number {number} stands where the list's number {place} would"
        before = (self.sources.text(file, line - 1) or "").strip()
        if not before or before[-1] in ".:;!?)]\u2026\"'\u2019\u201d" or \
                before.split()[-1].lower() in self.list_words or self.labels(node, file, line - 1):
            return None
        return f"line goes on from the line before, which ends mid-sentence ({shown_end(before)!r})"

    def labels(self, node: Element, file: str, line: int) -> bool:
        """Whether `line` of `file` is the title or heading of an ancestor of `node` (or its previous sibling's)."""
        for el in [*node.iterancestors(*LAW_NODES), *node.itersiblings(node.tag, preceding=True)]:
            label = tree.label(el)
            if label is not None and line in tree.parse_sources(label.get("sources")).get(file, ()):
                return True
        return False


def _alone(line: str, head: str) -> bool:
    """A source line that holds the running head and nothing else (but a page number beside it)."""
    text = line.strip()
    if not (text.startswith(head) or text.endswith(head)):
        return False
    rest = text.replace(head, "", 1).strip()
    return not rest or bool(FOLIO_BESIDE.fullmatch(rest))
