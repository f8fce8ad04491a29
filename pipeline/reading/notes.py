"""Notes: every way the sources write a footnote becomes one Note at its marker.

The forms:
    inline     "… slag (Noot: Een voor de beurt …) kan …"      wiki export
    malformed  "… verbieden Noot: (Zie artikel 59, …) in …"      wiki export
    numbered   "… naar beneden 1). …" + a line "1) Het …"        MediaWiki template
    print      a line "1" inside a paragraph + "1" + text at the page bottom

Each function leaves NOTE_MARK where the marker stood, with the space before
the marker removed, so the same note written in two forms lands at the same
character offset of the same text. The note word ("Noot") is the book's language's
(its profile's NOTE).

Footnotes printed apart from their markers (the print, flowed and PDF readers' page feet, the
template's "1) …" lines after a paragraph) are given to their markers here, by one rule (Footnotes):

    A marker numbered n on page p takes a footnote numbered n printed after it at the foot of page p:
    the first that no marker before it took, else (a note cited twice on one page) the first. Where
    page p's foot prints none, it takes one at the foot of page p + 1 the same way (a footnote that
    did not fit on its page goes on at the next page's foot, before that page's own). Where neither
    prints one and the footnotes are numbered through the book (no number is printed twice), it
    takes the last footnote n printed before page p (a note cited again). A footnote given to a
    second marker is given at both, and the report says so (give_texts). A marker still without a
    footnote, and a footnote no marker took, are the reader's to report, in its words.

A template has no pages: its every line is on one page (0), and its footnotes follow their paragraph.
The rule covers what each form needs: footnotes numbered per page (the same number on every page:
only the page's own or the carried-over footnote, never an earlier page's), numbered through the
book (a note cited twice has its text at both markers, wherever it was printed), a footnote carried
to the next page (taken in print order, so two markers of one number each get their own).
"""
import bisect
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from ..core import lang
from ..core.model import NOTE_MARK, Note, Piece
from ..core.report import FileLog

NUMBERED_MARKER = re.compile(r"\s+(\d{1,2})\)(?=[\s.,;:]|$)")
NUMBERED_BODY = re.compile(r"^(\d{1,2})\)\s+(.*)$")
PARENS = re.compile(r"[()]")
# The colon after the note word, with the space (plain, no-break or narrow no-break) French sets before it.
COLON = "[ \u00a0\u202f]?:"


@dataclass(frozen=True)
class NotePatterns:
    """The inline note forms in one language's words."""
    opens: str  # the note word, in every note of both forms: a text without it has none
    inline: re.Pattern[str]  # "(Noot: …)"
    malformed: re.Pattern[str]  # "Noot: (…)"
    word: str  # the note word as a note is written: written(body)

    def written(self, body: str) -> str:
        """A note as the inline form writes it: "(Noot: body)"."""
        return f"({self.word}: {body})"


@lang.compiled
def _patterns(rules: lang.LanguageRules) -> NotePatterns:
    """The patterns of the inline note forms, from the language's note word. The colon may have a space
    before it, as French typography writes it: "(Note : …)", with a plain or a no-break space."""
    word = re.escape(rules.NOTE) + COLON
    return NotePatterns(opens=rules.NOTE, inline=re.compile(rf"\s*\({word}\s*"),
                        malformed=re.compile(rf"\s*(?<!\(){word}\s*\("), word=rules.NOTE)


def _closing_parens(text: str) -> dict[int, int]:
    """{index of each '(': index of the ')' that closes it}; a '(' never closed is not in it.
    One pass over the brackets: asking per note would scan to the end of the text for every note
    that is never closed."""
    closing: dict[int, int] = {}
    open_at: list[int] = []
    for m in PARENS.finditer(text):
        if m.group() == "(":
            open_at.append(m.start())
        elif open_at:
            closing[open_at.pop()] = m.start()
    return closing


def extract_inline_notes(text: str, line: int, log: FileLog, profile: lang.Profile) -> tuple[str, list[Note]]:
    """Take "(Noot: …)" and the malformed "Noot: (…)" out of `text` (the note word of `profile`).

    Returns (text with NOTE_MARK at each marker, [Note]). An unclosed note is
    left in the text and logged as damage, never guessed at.

    One pass: the text is read left to right and the result put together once at the end, and
    each pattern is searched for again only once the search has passed its last match.
    """
    p = _patterns(profile)
    if p.opens not in text:
        return text, []
    notes: list[Note] = []
    pieces: list[str] = []
    copied = pos = 0
    closing = _closing_parens(text)
    found = {p.inline: p.inline.search(text), p.malformed: p.malformed.search(text)}
    while True:
        for pattern, m in found.items():
            if m is not None and m.start() < pos:
                found[pattern] = pattern.search(text, pos)
        m_inline, m_bad = found[p.inline], found[p.malformed]
        m = min((x for x in (m_inline, m_bad) if x), key=lambda x: x.start(), default=None)
        if m is None:
            return "".join(pieces) + text[copied:], notes
        # The '(' that opens the note: the last character of "Noot: (", or the one of "(Noot:".
        opening = m.end() - 1 if m is m_bad else text.index("(", m.start())
        end = closing.get(opening, -1)
        if end < 0:
            log.damage(line, f"note opened but never closed: {text[m.start():m.start() + 40].strip()}…",
                       "left in the text as written")
            pos = m.end()
            continue
        body = " ".join(text[m.end():end].split())
        form = "inline" if m is m_inline else "malformed"
        if form == "malformed":
            log.repair(line, "malformed-note", text[m.start():end + 1].strip(), p.written(body))
        notes.append(Note(text=body, lines=[line], form=form))
        pieces += [text[copied:m.start()], NOTE_MARK]
        copied = pos = end + 1


def open_parens(text: str, start: int = 0, end: int | None = None, depth: int = 0) -> int:
    """How many '(' of text[start:end] stay open, counting on from `depth` open before it."""
    for m in PARENS.finditer(text, start, len(text) if end is None else end):
        if m.group() == "(":
            depth += 1
        elif depth:
            depth -= 1
    return depth


def extract_numbered_markers(text: str, numbers: Collection[str]) -> tuple[str, list[str]]:
    """Replace " 1)" markers by NOTE_MARK when a footnote body with that number exists.

    "(onderworpen aan artikel 16)" is not a marker: that ')' closes an open '('.
    Returns (text, [numbers in marker order]).
    """
    found: list[str] = []
    counted = [0, 0]  # the brackets before this offset are counted: how many stay open

    def replace(m: re.Match[str]) -> str:
        if m.group(1) not in numbers:
            return m.group(0)
        # Counted on from the last marker, not from the start: the markers come in order.
        counted[1] = open_parens(text, counted[0], m.start(), counted[1])
        counted[0] = m.start()
        if counted[1] > 0:
            return m.group(0)
        found.append(m.group(1))
        return NOTE_MARK

    return NUMBERED_MARKER.sub(replace, text), found


# -- footnotes printed apart from their markers -------------------------------------------------------
@dataclass
class Footnote:
    """One footnote as printed: its number, the page whose foot prints it, its lines (the first is the
    one with its number), its text and its pieces ((line, text) as the page broke them)."""
    number: str
    page: int
    lines: list[int] = field(default_factory=list)
    text: str = ""
    pieces: list[Piece] = field(default_factory=list)

    @property
    def position(self) -> int:
        return self.lines[0]


@dataclass
class Matched:
    """What the rule gave: each marker's footnote (with whether it cites a footnote again), the
    markers left without one and the footnotes no marker took, each in source order."""
    found: list[tuple[Note, Footnote, bool]] = field(default_factory=list)  # (Note, Footnote, cited again)
    unmatched: list[Note] = field(default_factory=list)
    unused: list[Footnote] = field(default_factory=list)


class Footnotes:
    """The footnotes of a run of pages, matched to markers by the rule of this module's docstring."""

    def __init__(self, footnotes: list[Footnote]) -> None:
        self.all = sorted(footnotes, key=lambda f: (f.page, f.position))
        self.by_number: dict[str, list[Footnote]] = {}
        # Each marker looks up its number on its page and the next: indexed once, so a book whose every
        # page prints a footnote 1 costs a lookup per marker, not a scan of every page's footnote 1.
        self.on_page: dict[tuple[str, int], list[Footnote]] = {}
        for f in self.all:
            self.by_number.setdefault(f.number, []).append(f)  # in print order
            self.on_page.setdefault((f.number, f.page), []).append(f)
        self.pages = {number: [f.page for f in found] for number, found in self.by_number.items()}
        # Numbered through the book: every number names one footnote. (Notes marked with signs, "*", "**",
        # start again on every page: they are no numbering, and leave the numbers' through or not.)
        self.through = all(len(found) == 1 for number, found in self.by_number.items() if number.isdigit())

    def _near(self, number: str, page: int, position: int) -> list[Footnote]:
        """The footnotes `number` a marker at (page, position) may take: those printed after it at the foot
        of its page, else those at the foot of the next, in print order."""
        return [f for f in self.on_page.get((number, page), ()) if f.position > position] or \
            list(self.on_page.get((number, page + 1), ()))

    def _earlier(self, number: str, page: int) -> Footnote | None:
        """The last footnote `number` printed before `page`, where the footnotes are numbered through."""
        if not self.through:
            return None
        k = bisect.bisect_left(self.pages.get(number, []), page)
        return self.by_number[number][k - 1] if k else None

    def has(self, number: str, page: int, position: int) -> bool:
        """Whether a marker `number` at (page, position) would find a footnote, taken or not (a reader
        that must decide whether a digit is a marker asks this)."""
        return bool(self._near(number, page, position)) or self._earlier(number, page) is not None

    def match(self, markers: list[tuple[int, int, Note]]) -> Matched:
        """`markers`: (page, position, Note) in source order. Gives each its Footnote by the rule."""
        result, taken = Matched(), set[int]()
        for page, position, note in markers:
            number = note.number or ""  # a marker always has its number
            near = self._near(number, page, position)
            found = next((f for f in near if id(f) not in taken), None)
            if found is None:
                found = near[0] if near else self._earlier(number, page)
            if found is None:
                result.unmatched.append(note)
                continue
            again = id(found) in taken
            taken.add(id(found))
            result.found.append((note, found, again))
        result.unused = [f for f in self.all if id(f) not in taken]
        return result


def give_text(note: Note, footnote: Footnote) -> None:
    """The footnote's text, pieces and lines to the note at its marker."""
    note.text = footnote.text
    note.pieces = list(footnote.pieces)
    note.lines = note.lines + footnote.lines


def give_texts(matched: Matched, flog: FileLog) -> None:
    """Every matched note its footnote's text; a footnote cited again is an inference in the report,
    with the lines of both markers and of the footnote."""
    first: dict[int, int] = {}  # id of a footnote -> the line of the first marker that took it
    for note, footnote, again in matched.found:
        give_text(note, footnote)
        if again:
            flog.inference(note.lines[0], None, f"footnote {note.number} is cited twice, at lines "
                                                f"{first[id(footnote)]} and {note.lines[0]}: its text "
                                                f"(line {footnote.position}) is given at both")
        first.setdefault(id(footnote), note.lines[0])
