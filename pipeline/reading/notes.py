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
"""
import re
from types import SimpleNamespace

from ..core import lang
from ..core.model import NOTE_MARK, Note

NUMBERED_MARKER = re.compile(r"\s+(\d{1,2})\)(?=[\s.,;:]|$)")
NUMBERED_BODY = re.compile(r"^(\d{1,2})\)\s+(.*)$")
PARENS = re.compile(r"[()]")


@lang.compiled
def _patterns(rules):
    """The patterns of the inline note forms, from the language's note word."""
    word = re.escape(rules.NOTE)
    return SimpleNamespace(
        opens=f"{rules.NOTE}:",  # in every note of both forms: a text without it has none
        inline=re.compile(rf"\s*\({word}:\s*"),  # "(Noot: …)"
        malformed=re.compile(rf"\s*(?<!\(){word}:\s*\("),  # "Noot: (…)"
        written=lambda body: f"({rules.NOTE}: {body})")


def _closing_parens(text):
    """{index of each '(': index of the ')' that closes it}; a '(' never closed is not in it.
    One pass over the brackets: asking per note would scan to the end of the text for every note
    that is never closed."""
    closing, open_at = {}, []
    for m in PARENS.finditer(text):
        if m.group() == "(":
            open_at.append(m.start())
        elif open_at:
            closing[open_at.pop()] = m.start()
    return closing


def extract_inline_notes(text, line, log, profile=None):
    """Take "(Noot: …)" and the malformed "Noot: (…)" out of `text` (the note word of `profile`, the
    default language's when None).

    Returns (text with NOTE_MARK at each marker, [Note]). An unclosed note is
    left in the text and logged as damage, never guessed at.

    One pass: the text is read left to right and the result put together once at the end, and
    each pattern is searched for again only once the search has passed its last match.
    """
    p = _patterns(profile)
    if p.opens not in text:
        return text, []
    notes, pieces, copied, pos = [], [], 0, 0
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


def open_parens(text, start=0, end=None, depth=0):
    """How many '(' of text[start:end] stay open, counting on from `depth` open before it."""
    for m in PARENS.finditer(text, start, len(text) if end is None else end):
        if m.group() == "(":
            depth += 1
        elif depth:
            depth -= 1
    return depth


def extract_numbered_markers(text, numbers):
    """Replace " 1)" markers by NOTE_MARK when a footnote body with that number exists.

    "(onderworpen aan artikel 16)" is not a marker: that ')' closes an open '('.
    Returns (text, [numbers in marker order]).
    """
    found = []
    counted = [0, 0]  # the brackets before this offset are counted: how many stay open

    def replace(m):
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
