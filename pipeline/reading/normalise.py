"""Headings and citations made plain before a reader reads the structure from them.

Reads: a source's Lines (after read.py), before its reader sees them.
Writes: the same Lines with the head of each line normalised; every change is logged
(kind repair, with before and after), every confusable letter is logged as an error.

The head of a line is what the readers take the structure from: an optional first
word and the number after it with its citation letters ("Artikel 41", "ARTIKEL 24",
"Art.53", "Sjabloon:2007"), a list number ("1.", "1. 1.") or a section letter
("A.", "E1."). The rest of the line is law text, which the repair stage handles.
In the head:
  - invisible characters (zero-width space, ZWNJ, ZWJ, word joiner, soft hyphen,
    BOM) are removed: no editor shows them, yet "Art\u200bikel 41" matches no heading
    pattern, and the article's text would be read as part of the one before it. Where the
    language profile writes its dashes as U+00AD (rules.DASH), one between digits or spaces
    ("0\u00ad10", "LAW 22 \u00ad END") is no soft hyphen but that dash: it is kept, and the
    repair stage reads it as the dash, as anywhere else in the line (repair.read_dashes);
  - a decimal digit of another script ("４１", "٤١") is read as its ASCII digit
    (unicodedata.decimal): IDs and citations are ASCII, and Python's \\d matches
    them all, so they would otherwise reach the IDs;
  - a Cyrillic or Greek letter inside a Latin word or a citation ("Аrtikel", "41А"),
    or standing as a section letter ("А."), is an error: it looks like a Latin
    letter but is not one. Where it has a Latin look-alike the line is read with
    that letter, so the rest of the source is read as meant, and the build fails
    until the source is corrected.
Everything else is left as written (é, ë, ï, an en dash, a non-breaking space).
"""
import dataclasses
import re
import unicodedata

from ..core.lang import Profile
from ..core.report import FileLog
from .decode import Line

INVISIBLE = "\u200b\u200c\u200d\u2060\u00ad\ufeff"
# The head, matched on the line without its invisible characters (a pattern that allowed them
# everywhere would backtrack without end on a run of them); each part is followed by one that
# cannot match the same character, so a match costs the length of the line.
HEAD = re.compile(
    # a first word, its separator and a number with its citation letters: "Artikel 41", "Art.53", "1. 1."
    r"\s*(?:(?:[^\W\d_]+\s*(?:[.:]\s*)?)?\d+[^\W_]*\.?(?:\s+\d+\.)*"
    # a section letter: "A.", "E1."
    r"|[^\W\d_]\d*\.)")
REMOVE = re.compile(f"[{INVISIBLE}]")
# U+00AD where a profile with a DASH reads it as that dash: between digits or spaces, or a digit or space and
# the line's start or end ("0\u00ad10", "1500\u00ad 1740", "22 \u00ad END"); repair.read_dashes uses the same place.
DASH_PLACE = r"(?:(?<=[\s\d])|^)\u00ad(?=[\s\d]|$)"
# The invisible characters when U+00AD in DASH_PLACE is a dash: the others, and U+00AD next to anything else.
REMOVE_BUT_DASHES = re.compile("[" + INVISIBLE.replace("\u00ad", "") + "]|(?!" + DASH_PLACE + ")\u00ad")
TOKEN = re.compile(r"[^\W_]+")
# Cyrillic and Greek letters that look like a Latin letter, and that letter.
LOOK_ALIKES = dict(zip("АВЕЅІЈКМНОРСТХУаеѕіјорсхуһԁԛԝ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυχ",
                       "ABESIJKMHOPCTXYaesijopcxyhdqw" "ABEZHIKMNOPTYXaikvopux"))


def _script(char: str) -> str | None:
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name.startswith(("CYRILLIC", "GREEK", "LATIN")) else None


def _code(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, '')}"


def head(text: str, line: int, flog: FileLog, dashes: bool = False) -> str:
    """`text` (line `line` of a source) with its head normalised; changes logged to `flog`. `dashes`: the
    language writes its dashes as U+00AD, so one in DASH_PLACE is kept for the repair stage to read."""
    remove = REMOVE_BUT_DASHES if dashes else REMOVE
    m = HEAD.match(remove.sub("", text))
    if not m:
        return text
    # The same head in the line as written: as many visible characters, and the invisible ones among
    # and right after them (which U+00AD is invisible depends on its neighbours, so on the whole line).
    gone = {k.start() for k in remove.finditer(text)}
    end, visible = 0, 0
    while end < len(text) and (visible < m.end() or end in gone):
        visible += end not in gone
        end += 1
    raw = text[:end]
    clean = "".join(c for k, c in enumerate(raw) if k not in gone)
    removed = list(dict.fromkeys(c for k, c in enumerate(raw) if k in gone))
    digits = list(dict.fromkeys(c for c in clean if c.isdecimal() and not c.isascii()))
    clean = "".join(str(unicodedata.decimal(c)) if c in digits else c for c in clean)
    if removed or digits:
        what: list[str] = []
        if removed:
            what.append("invisible character" + ("s " if len(removed) > 1 else " ")
                        + ", ".join(_code(c) for c in removed) + " removed from")
        if digits:
            what.append(", ".join(_code(c) for c in digits) + " read as ASCII digit" + ("s" if len(digits) > 1 else "")
                        + " in")
        flog.repair(line, "; ".join(what) + " the heading or number that starts the line",
                    raw.strip(), clean.strip())
    clean = _confusables(clean, line, flog)
    return clean + text[end:]


def _confusables(head_text: str, line: int, flog: FileLog) -> str:
    """Report each Cyrillic or Greek letter in a Latin word or citation of the head, or standing as a
    section letter; replace it by its Latin look-alike where it has one."""
    chars = list(head_text)
    for token in TOKEN.finditer(head_text):
        word = token.group()
        if not (len(word) == 1 or "LATIN" in {_script(c) for c in word} or any(c.isdigit() for c in word)):
            continue  # a word wholly in another script is not a look-alike of a Latin one
        for k, char in enumerate(word):
            script = _script(char)
            if script is None or script not in ("CYRILLIC", "GREEK"):
                continue
            latin = LOOK_ALIKES.get(char)
            if latin:
                chars[token.start() + k] = latin
                fix = f"it looks like the Latin letter {latin!r} but is not one; retype it as {latin!r}"
            else:
                fix = "no Latin letter looks like it; retype the word in Latin letters"
            flog.error(line, f"{script.capitalize()} letter {_code(char)} in {word!r}, in the heading or "
                             f"number that starts the line: {fix}")
    return "".join(chars)


def lines(source_lines: list[Line], flog: FileLog, profile: Profile) -> list[Line]:
    """Every line of a source with its head normalised (see the module docstring); `profile`: the source's
    language profile, whose rules.DASH says whether U+00AD may be a dash (None: a soft hyphen only)."""
    dashes = bool(profile.rules.DASH)
    out: list[Line] = []
    for line in source_lines:
        text = head(line.text, line.num, flog, dashes) if not line.blank else line.text
        out.append(line if text == line.text else dataclasses.replace(line, text=text))
    return out
