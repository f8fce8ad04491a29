"""The one reader of printed books: any extractor, any publisher, any language.

An adapter turns a source into a page stream (stream.py): text.py a text extraction of any extractor
(pdftotext plain or -layout, a PDF tool's export, a word processor's text), pdf.py the book's PDF itself
(pdf_glyphs.py the characters of its pages, pdf_lines.py those characters into printed lines).
Shared layers read every stream alike, each using the evidence its lines carry (a field the adapter
does not know is None, and each rule falls back to what the text shows):

    furniture.py   running heads and page numbers, learned from their repetition across the pages
    parts.py       the book's parts: front matter, introduction, contents, definitions, articles, index, annex
    outline.py     the contents list: the articles, titles, sections and pages it promises; it guides the
                   reading of the articles
    footnotes.py   every footnote form: digits glued, raised or alone, asterisks, daggers, brackets
    layout.py      what a line break says: a paragraph going on or a new one
    body.py        the block rules over the articles' lines (article, title, unreadable, continues, paragraph)
    markers.py     a paragraph cut at its markers: sections, subsections, items, sub-items
    matter.py      the introduction, the definitions, what is kept apart
    ends.py        where the source starts or ends inside the book: gaps, page and footnote numbering

The words of a language come from its profile only (words.py). Reads: a source's lines. Writes: a Reading
(core/model.py) with the blocks the structure stage reads, the page furniture as Dropped lines, gaps.
"""
import re
from collections import Counter
from collections.abc import Callable

from ...core import lang
from ...core.model import Block, Dropped, Line, Reading, Rules
from ...core.report import BuildLog, FileLog
from . import ends, footnotes, furniture, matter, outline, parts, text
from .body import Articles, attach
from .layout import Layout
from .stream import Page, PageStream, PrintedLine
from .words import BookWords, book_words

NUMBERS = re.compile(r"\d+(?:\s+\d+)*|[ivxlc]+", re.IGNORECASE)  # a contents page's column of page numbers

# The book writes section letters, subsection numbers, item letters and roman sub-items, each the node's own
# as written (a list block's marker says which it is: corpus/structure/ reads a number standing for a letter as
# an inference). A "1." directly under an article stands for a section letter the page did not write. The
# pages come in the book's order.
RULES = Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "source", "subitem": "source"},
              articles_go_up=True)


def is_pdf_lines(lines: list[Line]) -> bool:
    """Lines the PDF adapter made (book/pdf.py): the source was a PDF."""
    return bool(lines) and isinstance(lines[0], PrintedLine) and lines[0].y is not None


def page_stream(lines: list[Line], flog: FileLog, words: BookWords) -> PageStream:
    """The source's page stream: a PDF's lines by their pages, a text's by text.py."""
    if is_pdf_lines(lines):
        by_page: dict[int, list[PrintedLine]] = {}
        hidden: list[tuple[int, str]] = []
        for line in lines:
            assert isinstance(line, PrintedLine)
            if line.hidden:
                hidden.append((line.num, line.hidden))
            elif not line.blank:
                by_page.setdefault(line.page, []).append(line)
        pages = tuple(Page(n, tuple(page)) for n, page in sorted(by_page.items()))
        return PageStream(flog.file, pages, "pdf", tuple(hidden))
    return text.stream(lines, flog, words)


def read(lines: list[Line], source_name: str, edition: str, language: str, fmt: str, log: BuildLog) -> Reading:
    """A printed book's source to a Reading (see the module's docstring)."""
    flog = log.for_file(source_name)
    words = book_words(lang.profile(language))
    reading = Reading(source_name, fmt, edition, [], rules=RULES)
    stream = page_stream(lines, flog, words)
    _report_damage(stream, reading, flog)
    found = furniture.find(stream, words)
    book = parts.split(stream, found, words)
    # The contents list tells its page numbers from its entries' itself: of its pages' furniture only a
    # running head (with or without a page number on its line) is left out, never its title or a number
    # alone (the furniture rule would take its last column of page numbers for the page's number).
    kept = {line.num for part in book if part.kind == "contents" for line in part.lines
            if line.num in found and (words.contents_title.match(line.text) or NUMBERS.fullmatch(line.text.strip()))}
    for part in book:  # the contents list first: it guides the reading of the parts and the articles
        if part.kind == "contents":
            outline.read_contents([[line for line in page if line.num not in found or line.num in kept]
                                   for page in part.pages], reading, words, flog)
    guide = outline.Outline.of(reading.blocks)
    if guide.after:
        book = parts.split(stream, found, words, guide.after)
    body = _body_size(stream)
    reading.dropped += [Dropped(num, reason) for num, reason in sorted(found.reasons.items()) if num not in kept]
    shown = [p for p in book if any(line.num not in found for line in p.lines)]
    if len(shown) > 1:  # a book, not one part of it: say where each part begins and why
        flog.inference(shown[0].lines[0].num, None, "the source holds " + ", ".join(
            f"{parts.NAMES[p.kind]} (from line {p.lines[0].num}: {p.evidence})" for p in shown))
    vocabulary = _Vocabulary(stream)
    for k, part in enumerate(book):
        pages = [[line for line in page if line.num not in found] for page in part.pages]
        if part.kind == "contents" or not any(pages):
            continue
        if part.kind in ("index", "front", "back"):
            matter.read_apart(pages, reading, part.kind, set())
            if part.kind == "index":
                reading.subject = "the book's index: evidence of where the law deals with what, not law text"
            continue
        if part.kind == "articles":
            # Each run of pages without a gap in their numbers is read on its own: a run after missing
            # pages starts inside an article it cannot know (headings.py places it by its page number).
            # Its last article may break off where pages are missing after it or the file ends with it;
            # when another part of the book follows, the page after the articles is there.
            last = not any(p.kind != "articles" and any(p.pages) for p in book[k + 1:])
            runs = ends.page_runs(part, found)
            for r, run in enumerate(runs):
                run_pages = [pages[i] for i in run if pages[i]]
                if run_pages:
                    _articles(reading, run_pages, words, flog, guide, body, vocabulary,
                              [list(stream.pages[part.page_index[i]].lines) for i in run],
                              found.label(part.page_index[run[-1]]), may_break_off=last or r < len(runs) - 1)
            continue
        collected = footnotes.collect(pages, flog, body)
        layout = Layout(pages, body, flog)
        if part.kind == "introduction":
            matter.read_introduction(pages, reading, layout, collected.marked, collected.foot_lines)
        elif part.kind == "definitions":
            matter.read_definitions(pages, reading, words, layout, collected.marked, collected.foot_lines, flog)
        else:  # an annex: kept apart for now, as back matter
            matter.read_apart(pages, reading, "back", set())
            continue
        layout.settle(set())  # (the introduction's and the definitions' paragraphs are not cut after)
        attach(collected, reading, flog)
    ends.check_page_numbers(stream, found, book, reading, flog)
    return reading


def _articles(reading: Reading, pages: list[list[PrintedLine]], words: BookWords, flog: FileLog,
              guide: outline.Outline, body: float | None, vocabulary: Callable[[], set[str]],
              whole: list[list[PrintedLine]], label: str | None, may_break_off: bool) -> None:
    """One run of the articles' pages: footnotes, the block rules, the checks of its numbering."""
    collected = footnotes.collect(pages, flog, body)
    start = len(reading.blocks)
    reading.blocks += Articles(reading, pages, collected, words, flog, guide, body, vocabulary).read()
    attach(collected, reading, flog)
    ends.check_footnote_numbers(collected.footnotes, reading.blocks[start:], flog)
    if may_break_off:
        wrapped = any(Layout(pages, body, flog).wrapped(p) for p in range(len(pages)))
        if wrapped or body is not None:
            ends.cut_off(reading, whole, label, whole[-1][-1].num, flog, words.rules, whole_document=body is not None)
        else:
            ends.cut_off(reading, whole, label, whole[-1][-1].num, flog, words.rules,
                         measure=lambda page: sum(len(line.text.strip()) for line in page), unit="characters")


class _Vocabulary:
    """The book's words in lower case, made when first asked for (a word in capitals hyphenated at a line
    end is joined where the book writes it joined elsewhere)."""

    def __init__(self, stream: PageStream) -> None:
        self.stream = stream
        self.words: set[str] | None = None

    def __call__(self) -> set[str]:
        if self.words is None:
            self.words = {w.lower() for line in self.stream.lines() for w in re.findall(r"\w+(?:-\w+)*", line.text)}
        return self.words


def _body_size(stream: PageStream) -> float | None:
    """The size most characters of the book are set in, where the adapter knows the type."""
    if not stream.geometry:
        return None
    sizes: Counter[float] = Counter()
    for line in stream.lines():
        sizes[line.size or 0.0] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else None


def _report_damage(stream: PageStream, reading: Reading, flog: FileLog) -> None:
    """What the adapter found no reader can take as text: reported, kept as it is or left out."""
    for num, why in stream.set_aside:
        reading.dropped.append(Dropped(num, f"text no reader of the page sees ({why}): left out"))
    for line in stream.lines():
        if "\ufffd" in line.text:
            flog.damage(line.num, f"a character the PDF maps to no text (or to a control or private-use character) "
                                  f"in {line.text.strip()[:50]!r}", "kept as U+FFFD; the character is not guessed")
        for start, end, font in line.damaged:
            flog.damage(line.num, f"{line.text[start:end][:40]!r} is set in the font {font!r}, whose codes map to "
                                  f"no usable text: what it shows is not what the page prints",
                        "kept as the PDF gives it; the text is not guessed")
