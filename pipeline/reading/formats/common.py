"""What a format declares (Format), and the line shapes shared by the readers."""
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ...core.lang import Profile
from ...core.model import Block, Line, Reading, Rules
from ...core.report import BuildLog, FileLog


class ReadSource(Protocol):
    """What a reader asks of its source (manifest.Source, which imports the readers, has it)."""
    @property
    def name(self) -> str: ...
    @property
    def edition(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def format(self) -> str | None: ...


# A format's reader: read(lines, source, log) -> Reading, text not yet repaired.
Reader = Callable[[list[Line], ReadSource, BuildLog], Reading]
# A sign of a format: test(texts, profile) on the source's non-blank line texts, in the book's language.
Sign = Callable[[list[str], Profile], bool]


@dataclass(frozen=True)
class Format:
    """One source format, as the registry (formats/__init__.py) lists it.

    signs: (priority, test) pairs; test(texts) looks at the source's non-blank line texts. Detection
    tries the signs of all formats, lowest priority first, and the first that holds names the format.
    """
    name: str
    read: Reader
    signs: tuple[tuple[int, Sign], ...]
    notes: tuple[str, ...]  # the Note.form values its reader produces
    rules: Rules

# "B. Om een onreglementair spelen te herstellen", "E1. Wijziging …", "D.\u00a0\u00a0Behandeling …"
LETTERED = re.compile(r"^([A-Z])(\d*)\.[\s\u00a0]+(\S.*)$")
# "1. 1. Met uitzondering …" (subsection and its first item on one line)
# A list number has at most 6 digits (ids.MOST_DIGITS): a line that starts with a longer number is text
# (and int() refuses a number of more than 4,300 digits: a list number of 5,000 was an internal error).
DOUBLE = re.compile(r"^(\s*)(\d{1,6})\.[\s\u00a0]+(\d{1,6})\.[\s\u00a0]+(\S.*)$")
NUMBERED = re.compile(r"^(\s*)(\d{1,6})\.[\s\u00a0]+(\S.*)$")


# The longest heading a reader takes on one line (or wrapped over several): the law's longest
# ("De verkeerde tegenspeler speelt een kaart bij na een onregelmatig voorspelen door de leider", 53C)
# is 91 characters; a line past this is running text, however it ends.
LONG_HEADING = 160


def is_heading_like(text: str, max_length: int = 90) -> bool:
    """A heading or title: one short line, capitalised, without closing punctuation."""
    text = text.strip()
    return (0 < len(text) <= max_length and text[0].isupper() and not re.search(r"[.:;,!?)]$", text)
            and "\ue000" not in text)


def continues_heading(text: str) -> bool:
    """A wrapped title's or heading's next line: it starts in lower case and does not end a sentence
    or a clause (a paragraph's first line starts with a capital)."""
    text = text.strip()
    return text[:1].islower() and not re.search(r"[.:;,!?]$", text) and "\ue000" not in text


def indent_level(indent: str) -> int:
    """Wiki exports indent nested list numbers by three spaces a level."""
    width = len(indent.replace("\t", "   "))
    return (width + 1) // 3


def unreadable_heading(flog: FileLog, num: int, text: str, form: str, group: int = 0) -> Block:
    """A line that starts like an article heading but does not read as one (looks_like_article): one
    error naming the heading's form as the format writes it (`form`: "'ARTIKEL' and the article number
    alone on its line, as in 'ARTIKEL 24'"), and an article block without a number, so that the text up
    to the next heading is set aside (corpus/structure/), never read into the article before."""
    flog.error(num, f"{text!r} looks like an article heading but does not read as one: a heading is {form}; the "
                    f"text up to the next heading is not read until the line is corrected")
    return Block("article", text, [num], group=group)


def looks_like_article(text: str, keyword: str) -> bool:
    """A line that starts like an article heading: the reader's keyword, capitalised or in capitals,
    then a digit ("Artikel 41AA", "ARTIKEL 41 A", "Artikel41x", "Artikel 4 1").

    Running text that starts with a citation is not one: its first word after the number starts in
    lower case ("Artikel 16 is van toepassing.", "Artikel 12C1 (zie ook …)", "Artikel 50 en 51 …").
    """
    m = re.match(rf"\s*({keyword})[\s\u00a0]*\d\w*(.*)", text, re.IGNORECASE)
    if not m or not m.group(1)[0].isupper():
        return False
    word = re.search(r"[^\W\d_]{2,}", m.group(2))
    return word is None or not word.group()[0].islower()
