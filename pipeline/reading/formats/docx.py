"""Reader for a Word file (.docx): a translator's document of the law (docs/sources.md, "Word files (.docx)").

The package is opened, checked and turned into lines by reading/docx_package.py (decode.read_source hands it
a file that starts as a zip): one line per paragraph, with its style, heading level, Word's automatic number
as the reader sees it and its footnote markers. This reader reads the law's structure from them:
  - an article is a paragraph that reads "Artikel 53 Title" in the book's words (its number typed, or Word's
    numbering "Artikel %1"), in a heading style or standing as a heading does; a heading style's paragraph
    that starts like an article heading but does not read as one is an error; another paragraph in a heading
    style at the article's level or above is the title of a part of the book, kept apart;
  - a section is a lettered paragraph, "A. Heading" typed or Word's upperLetter numbering ("E1." opens
    subsection E1 under its heading); a paragraph in the heading style below the article's without a letter
    is lettered by its place among the article's sections, and the report says so;
  - the lists are Word's numbering (decimal, lowerLetter, lowerRoman) or typed numbers ("1. ", "(a) ",
    "(ii) "): subsection numbers, item letters and roman sub-items, each the node's own as written (a
    number directly under an article stands for its section, inferred from evidence as for every format);
  - a footnote is a Note at its marker, with its own text from footnotes.xml; a table is a table;
  - a comment is commentary on the article it is anchored in, with its author;
  - the document's title and Word's table of contents are dropped; hidden text and text boxes are not
    read (the report says so).
"""
import re
from typing import TypedDict

from ...core import ids, lang
from ...core.errors import LawbookError
from ...core.model import NOTE_MARK, Block, Dropped, Note, Reading, Rules, TableRow
from ...core.report import BuildLog, FileLog
from ..decode import Line
from ..docx_package import DocxLine, is_docx_lines
from .common import LETTERED, LONG_HEADING, NUMBERED, Format, ReadSource, is_heading_like, looks_like_article, \
    unreadable_heading

BARE_LETTER = re.compile(r"^([A-Z])(\d*)\.$")  # a section's letter typed alone: "A.", "E1."
WORD_SUBSECTION = re.compile(r"^([A-Z])(\d+)\.?$")  # Word's number of a subsection under its letter: "E1."
TYPED_ITEM = re.compile(r"^\(([a-z]{1,6})\)[\s\u00a0]+(\S.*)$")  # "(a) …", "(ii) …"
ROMAN = re.compile(r"^(?:x{0,3})(?:ix|iv|v?i{0,3})$")  # the numerals of sub-items, i to xxxix
LEVELS = {"number": "subsection", "letter": "item", "roman": "subitem"}
FORMATS = {"decimal": "number", "decimalZero": "number", "lowerLetter": "letter", "lowerRoman": "roman"}


class Patterns(TypedDict):
    keyword: str
    article: re.Pattern[str]


@lang.compiled
def patterns(rules: lang.LanguageRules) -> Patterns:
    """The article heading in the words of a language's rules: "Artikel 53 Title", "ARTIKEL 50D"."""
    words = "|".join(map(re.escape, dict.fromkeys((rules.ARTICLE_WORD, rules.ARTICLE_WORD_PRINTED))))
    return {"keyword": rules.ARTICLE_WORD,
            "article": re.compile(rf"^(?:{words})[\s\u00a0]+(\d+(?:[A-Z](?:\d+[a-z]?)?)?)({NOTE_MARK}*)"
                                  rf"(?:[\s\u00a0]+(\S.*))?$")}


class _Reader:
    def __init__(self, lines: list[DocxLine], source: ReadSource, log: BuildLog) -> None:
        self.lines, self.source = lines, source
        self.flog: FileLog = log.for_file(source.name)
        self.profile = lang.profile(source.language)
        self.words = patterns(self.profile)
        self.reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
        self.footnotes: dict[str, list[DocxLine]] = {}
        self.comments: dict[str, list[DocxLine]] = {}
        self.article: str | None = None  # the article in force, as its heading cites it
        self.article_level = 0  # the heading level of the last article heading
        self.context = "article"  # the level the last heading opened: article, section or subsection
        self.sections: list[str] = []  # the section letters of the article so far
        self.last_item: str | None = None  # the last item letter of the open subsection
        self.article_at: dict[int, str | None] = {}  # body line -> the article in force there

    def read(self) -> Reading:
        body: list[DocxLine] = []
        for line in self.lines:
            if line.part == "footnote":
                self.footnotes.setdefault(line.owner, []).append(line)
            elif line.part == "comment":
                self.comments.setdefault(line.owner, []).append(line)
            else:
                body.append(line)
        k = 0
        while k < len(body):
            line = body[k]
            self.article_at[line.num] = self.article
            if line.part == "table":
                rows = [line]
                while k + 1 < len(body) and body[k + 1].part == "table" and body[k + 1].table == line.table:
                    k += 1
                    rows.append(body[k])
                    self.article_at[body[k].num] = self.article
                self.table(rows)
            else:
                rows = [line]
                self.paragraph(line)
                self.article_at[line.num] = self.article
            for row in rows:
                self.left_out(row)
            k += 1
        self.commentary()
        return self.reading

    # -- what the document holds besides the law ----------------------------------------------------------
    def left_out(self, line: DocxLine) -> None:
        if line.hidden:
            self.flog.dropped(line.num, f"hidden text {line.hidden[:60]!r} (Word's hidden font): not shown, not read")
        for what in line.left_out:
            self.flog.damage(line.num, f"paragraph {line.num} holds {what}, whose text is not read",
                             "left out; put the text in the paragraph itself if it is law text")

    # -- blocks ------------------------------------------------------------------------------------------
    def add(self, block: Block) -> None:
        self.reading.blocks.append(block)

    def notes(self, text: str, line: DocxLine, used: int) -> list[Note]:
        """The Notes of the markers in `text`, the markers of `line` from its `used`-th on."""
        made = []
        for note_id, number in line.notes[used:used + text.count(NOTE_MARK)]:
            feet = [f for f in self.footnotes.get(note_id, []) if not f.blank]
            if not feet:
                self.flog.error(line.num, f"footnote marker {number} has no footnote text in footnotes.xml")
            made.append(Note(" ".join(f.text for f in feet), [f.num for f in feet], "footnote", number=number))
        return made

    def block(self, kind: str, text: str, line: DocxLine, used: int = 0, **keys: object) -> Block:
        block = Block(kind, text, [line.num], **keys)  # type: ignore[arg-type]
        block.notes = self.notes(text, line, used)
        return block

    def paragraph(self, line: DocxLine) -> None:
        text = line.text
        if line.blank and not line.label:
            return
        if line.title or line.contents:
            what = "the document's title" if line.title else "an entry of Word's table of contents"
            self.reading.dropped.append(Dropped(line.num, f"{what} {text.strip()[:60]!r}: not law text"))
            return
        full = f"{line.label} {text}".strip() if line.label else text
        if self.article_heading(line, full):
            return
        if line.heading is not None and line.heading <= self.article_level and not line.label:
            self.add(self.block("part-title", text, line))
            return
        if self.numbered(line):
            return
        if not line.label and self.typed(line):
            return
        if line.heading == self.article_level + 1 and self.article is not None:
            return self.unlettered_section(line)
        if line.label and line.label_format not in ("bullet", ""):  # a number the law's levels do not use: its text
            self.add(self.block("para", full, line))
            return
        self.add(self.block("para", text, line))

    def article_heading(self, line: DocxLine, full: str) -> bool:
        """An article heading ("Artikel 53 Title"), or one that does not read as one: True where it is."""
        keyword = self.words["keyword"]
        m = self.words["article"].match(full)
        styled = line.heading is not None
        if m and (styled or looks_like_article(full, keyword) and (m.group(3) is None
                                                                  or is_heading_like(m.group(3), LONG_HEADING))):
            cite, marks, title = m.group(1), m.group(2), m.group(3)
            self.add(Block("article", full.replace(NOTE_MARK, ""), [line.num], cite=cite))
            parts = ids.parse_citation(cite)
            section, subsection = (parts["section"], parts["subsection"]) if parts else (None, None)
            if title or marks:
                # "Artikel 50D Title" is the heading of section 50D; below a subsection the words are its text.
                kind = "title" if not section else "para" if subsection else "heading"
                self.add(self.block(kind, (marks + (title or "")).strip(), line,
                                    cite=section if kind == "heading" else None))
            self.article = cite
            self.article_level = line.heading if styled and line.heading is not None else self.article_level
            self.context = "subsection" if subsection else "section" if section else "article"
            self.sections = [section] if section else []
            self.last_item = None
            return True
        if looks_like_article(full, keyword) and (styled or line.label):
            self.add(unreadable_heading(self.flog, line.num, full.replace(NOTE_MARK, ""),
                                        f"'{keyword}', the article number and the title, as in '{keyword} 53 "
                                        f"Title'"))
            self.article = None
            return True
        return False

    def section(self, letter: str, digits: str, text: str, line: DocxLine, used: int = 0) -> None:
        """Section `letter` (subsection `digits` of it, where given) with its heading `text`."""
        if line.heading is not None or not text or is_heading_like(text, LONG_HEADING):
            self.add(self.block("heading", text, line, used, cite=letter + digits))
        else:  # a lettered paragraph of text: the section has no heading
            self.add(Block("heading", "", [line.num], cite=letter + digits))
            self.add(self.block("para", text, line, used))
        self.context = "subsection" if digits else "section"
        self.sections.append(letter)
        self.last_item = None

    def unlettered_section(self, line: DocxLine) -> None:
        """A heading one level below the article's, without a letter: the article's next section, lettered by
        its place (the report says so)."""
        after = self.sections[-1] if self.sections else None
        n = (ord(after) - ord("A") + 2) if after else 1
        try:
            letter = ids.letter_for(n, "section")
        except ids.NumberPastLetters as past:
            self.flog.error(line.num, f"{past}; give the headings their letters")
            self.add(self.block("para", line.text, line))
            return
        parts = ids.parse_citation(self.article)
        node = ids.make_id(self.source.edition, parts["article"] + letter) if parts else None
        self.flog.inference(line.num, node, f"section {letter} read from a heading without a letter "
                                            f"({line.style or 'a heading style'}), by its place after "
                                            f"{('section ' + after) if after else 'the article heading'}; type the "
                                            f"letter ('{letter}. …') or number the heading style with letters to say "
                                            f"it")
        self.section(letter, "", line.text, line)

    def numbered(self, line: DocxLine) -> bool:
        """A paragraph Word numbers: its number read by its format (a section's letter, a subsection's number,
        an item's letter, a sub-item's numeral)."""
        if not line.label or line.label_value is None:
            return False
        if line.label_format == "upperLetter":
            if not 1 <= line.label_value <= 26:
                self.flog.error(line.num, f"section number {line.label!r}: a section is lettered A to Z; give the "
                                          f"list fewer levels or restart it")
                self.add(self.block("para", f"{line.label} {line.text}", line))
                return True
            self.section(chr(ord("A") + line.label_value - 1), "", line.text, line)
            return True
        if m := WORD_SUBSECTION.match(line.label):
            self.section(m.group(1), m.group(2), line.text, line)
            return True
        marker = FORMATS.get(line.label_format)
        if marker is None:
            return False
        self.entry(marker, line.label_value, line.text, line)
        return True

    def typed(self, line: DocxLine) -> bool:
        """A paragraph that starts with its number typed: "A. ", "E1. ", "1. ", "(a) ", "(ii) "."""
        text = line.text
        if m := LETTERED.match(text):
            self.section(m.group(1), m.group(2), m.group(3), line)
            return True
        if m := BARE_LETTER.match(text.strip()):
            self.section(m.group(1), m.group(2), "", line)
            return True
        if m := NUMBERED.match(text):
            self.entry("number", int(m.group(2)), m.group(3), line)
            return True
        if m := TYPED_ITEM.match(text):
            token = m.group(1)
            successor = self.last_item is not None and len(token) == 1 and ord(token) == ord(self.last_item) + 1
            if ROMAN.match(token) and not successor and (len(token) > 1 or self.last_item is not None):
                self.entry("roman", ids.roman_value(token), m.group(2), line)
            elif len(token) == 1:
                self.entry("letter", ord(token) - ord("a") + 1, m.group(2), line)
            else:
                return False
            return True
        return False

    def entry(self, marker: str, number: int, text: str, line: DocxLine) -> None:
        """A list entry: its level below the heading in force is the law's level its marker writes (a number
        directly under an article stands for a section)."""
        level = "section" if marker == "number" and self.context == "article" else LEVELS[marker]
        depth = ids.LEVELS.index(level) - ids.LEVELS.index(self.context) - 1
        if depth < 0:
            shown = line.label or f"{number}."
            self.flog.damage(line.num, f"list number {shown!r} in {self.context} {self.article}: a {level}'s number, "
                                       f"which no {self.context} holds",
                             "kept as a paragraph with its number")
            self.add(self.block("para", f"{line.label} {text}".strip() if line.label else line.text, line))
            return
        if marker == "letter":
            self.last_item = chr(ord("a") + number - 1) if 0 < number <= 26 else None
        elif marker == "number":
            self.last_item = None
        self.add(self.block("list", text, line, number=number, level=depth, marker=marker))

    def table(self, rows: list[DocxLine]) -> None:
        notes: list[Note] = []
        for row in rows:
            notes += self.notes(NOTE_MARK * len(row.notes), row, 0)
        text = " ".join(cell for row in rows for cell in row.cells if cell)
        self.add(Block("table", text, [row.num for row in rows], notes=notes,
                       rows=[TableRow(row.num, list(row.cells)) for row in rows]))

    def commentary(self) -> None:
        """Each comment: commentary on the article it is anchored in, attributed to its author."""
        for comment_id, paragraphs in self.comments.items():
            said = [p for p in paragraphs if not p.blank]
            if not said:
                self.flog.dropped(paragraphs[0].anchor if paragraphs else None,
                                  f"an empty comment by {paragraphs[0].author if paragraphs else '?'}: nothing to keep")
                continue
            author = " ".join(said[0].author.split())
            cite = self.article_at.get(said[0].anchor)
            parts = ids.parse_citation(cite) if cite else None
            article = parts["article"] if parts else None
            if self.reading.subject is None:
                self.reading.subject = article
            attribution = self.profile.rules.COMMENT_ATTRIBUTION.format(author=author)
            self.add(Block("attribution", attribution, [said[0].num], cite=article))
            for p in said:
                self.add(Block("commentary", p.text.replace(NOTE_MARK, ""), [p.num]))


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    if not is_docx_lines(lines):
        raise LawbookError('the manifest says format = "docx", but this file is not a Word document', file=source.name,
                           fix='give the Word file (.docx) itself, or remove format = "docx" from its entry in '
                               'sources.toml to have its format detected')
    return _Reader([line for line in lines if isinstance(line, DocxLine)], source, log).read()


FORMAT = Format(
    "docx", read, signs=(), notes=("footnote",),
    # Word writes the law's letters and numbers (typed or as its numbering shows them): each the node's own.
    # A number directly under an article stands for a section letter the document did not write.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "source", "subitem": "source"}))
