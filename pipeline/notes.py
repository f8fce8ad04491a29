"""Notes: every way the sources write a footnote becomes one Note at its marker.

The forms:
    inline     "… slag (Noot: Een voor de beurt …) kan …"      wiki export
    malformed  "… verbieden Noot: (Zie artikel 59, …) in …"      wiki export
    numbered   "… naar beneden 1). …" + a line "1) Het …"        MediaWiki template
    print      a line "1" inside a paragraph + "1" + text at the page bottom

Each function leaves NOTE_MARK where the marker stood, with the space before
the marker removed, so the same note written in two forms lands at the same
character offset of the same text.
"""
import re

from .model import NOTE_MARK, Note

INLINE = re.compile(r"\s*\(Noot:\s*")
MALFORMED = re.compile(r"\s*(?<!\()Noot:\s*\(")
NUMBERED_MARKER = re.compile(r"\s+(\d{1,2})\)(?=[\s.,;:]|$)")
NUMBERED_BODY = re.compile(r"^(\d{1,2})\)\s+(.*)$")


def _closing_paren(text, start):
    """Index of the ')' that closes the '(' at text[start-1] (depth 1 at start); -1 if none."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def extract_inline_notes(text, line, log):
    """Take "(Noot: …)" and the malformed "Noot: (…)" out of `text`.

    Returns (text with NOTE_MARK at each marker, [Note]). An unclosed note is
    left in the text and logged as damage, never guessed at.
    """
    notes = []
    pos = 0
    while True:
        m_inline = INLINE.search(text, pos)
        m_bad = MALFORMED.search(text, pos)
        m = min((x for x in (m_inline, m_bad) if x), key=lambda x: x.start(), default=None)
        if m is None:
            return text, notes
        end = _closing_paren(text, m.end())
        if end < 0:
            log.damage(line, f"note opened but never closed: {text[m.start():m.start() + 40].strip()}…",
                       "left in the text as written")
            pos = m.end()
            continue
        body = " ".join(text[m.end():end].split())
        form = "inline" if m is m_inline else "malformed"
        if form == "malformed":
            log.repair(line, "malformed-note", text[m.start():end + 1].strip(), f"(Noot: {body})")
        notes.append(Note(text=body, lines=[line], form=form))
        text = text[:m.start()] + NOTE_MARK + text[end + 1:]
        pos = m.start() + 1


def open_parens(text):
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
    return depth


def extract_numbered_markers(text, numbers):
    """Replace " 1)" markers by NOTE_MARK when a footnote body with that number exists.

    "(onderworpen aan artikel 16)" is not a marker: that ')' closes an open '('.
    Returns (text, [numbers in marker order]).
    """
    found = []

    def replace(m):
        if m.group(1) not in numbers or open_parens(text[: m.start()]) > 0:
            return m.group(0)
        found.append(m.group(1))
        return NOTE_MARK

    return NUMBERED_MARKER.sub(replace, text), found
