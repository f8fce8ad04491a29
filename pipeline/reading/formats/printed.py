"""Reader for a text extraction of the printed book (one or more pages).

The extraction keeps the page layout, which this reader takes apart:
  - a running header and the page number at the top of a page (dropped);
  - "ARTIKEL 24" on its own line, then the title on one or more short lines
    (a continuation line starts in lower case);
  - "A. heading" section headings, "1. text" subsections;
  - paragraph text broken into short lines, words hyphenated at line ends;
  - a footnote marker: a digit alone on a line inside a paragraph; the footnote
    itself: the same digit alone on a line near the page bottom, then its text.
The last article on the last page may continue on a page that is not in the
sources: that is reported as a gap, never filled.
A paragraph's lines stay as the page broke them (Block.pieces): the repair stage joins them,
deciding each line-end hyphen with the book's vocabulary.
"""
import re

from ...core.model import NOTE_MARK, Block, Dropped, Gap, Note, Reading, Rules
from .common import LETTERED, NUMBERED, Format, is_heading_like, looks_like_article

KEYWORD = "ARTIKEL"
ARTICLE = re.compile(rf"^{KEYWORD}[\s\u00a0]+(\d+)\s*$")
DIGITS = re.compile(r"^\d{1,4}$")


def read(lines, source, log):
    flog = log.for_file(source.name)
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    texts = [line for line in lines if not line.blank]
    k = 0
    # Page top: running header lines, then the page number.
    top = next((i for i, line in enumerate(texts[:4]) if DIGITS.match(line.text.strip())), None)
    page = None
    if top is not None:
        for line in texts[:top]:
            reading.dropped.append(Dropped(line.num, f"running header {line.text.strip()!r}: page layout, not law text"))
        page = texts[top].text.strip()
        reading.dropped.append(Dropped(texts[top].num, f"page number {page}"))
        k = top + 1
    if k < len(texts) and not looks_like_article(texts[k].text, KEYWORD):
        reading.gaps.append(Gap(texts[k].num, None, "the page starts inside an article whose beginning is "
                                                    "on an earlier page, which is not in the sources"))

    markers = set()  # footnote numbers whose marker has been seen
    paragraph = []  # (line number, text) of the paragraph being collected
    current = None  # the Block the paragraph belongs to

    def flush():
        nonlocal paragraph
        if current is not None and paragraph:
            current.pieces = paragraph
            current.text = "\n".join(text for _, text in paragraph)
            current.lines = sorted(set(current.lines) | {n for n, _ in paragraph})
        paragraph = []

    while k < len(texts):
        line = texts[k]
        text = line.text.strip()
        k += 1
        if m := ARTICLE.match(text):
            flush()
            reading.blocks.append(Block("article", text, [line.num], cite=m.group(1)))
            title = []
            while k < len(texts):
                t = texts[k].text.strip()
                if LETTERED.match(t) or NUMBERED.match(t) or looks_like_article(t, KEYWORD) or DIGITS.match(t):
                    break
                # The title's first line is heading-like; a continuation line starts in lower case.
                if not (is_heading_like(t) if not title else
                        t[:1].islower() and len(t) <= 90 and not re.search(r"[.:;,]$", t)):
                    break
                title.append(texts[k])
                k += 1
            if title:
                reading.blocks.append(Block("title", " ".join(t.text.strip() for t in title),
                                            [t.num for t in title]))
            current = None
            continue
        if looks_like_article(text, KEYWORD):
            flush()
            flog.error(line.num, f"{text!r} looks like an article heading but does not read as one: a heading is "
                                 f"'{KEYWORD}' and the article number alone on its line, as in '{KEYWORD} 24'; "
                                 f"the text up to the next heading is not read until the line is corrected")
            reading.blocks.append(Block("article", text, [line.num]))
            current = None
            continue
        if DIGITS.match(text):
            number = text
            if number in markers:
                # The footnote itself: its text runs to the next footnote or the page end.
                flush()
                body = []
                while k < len(texts) and not DIGITS.match(texts[k].text.strip()):
                    body.append((texts[k].num, texts[k].text))
                    k += 1
                _attach_footnote(reading, number, body, line.num, flog)
                markers.discard(number)
                current = None
                continue
            if current is not None and paragraph:
                markers.add(number)
                num, last = paragraph[-1]
                paragraph[-1] = (num, last + NOTE_MARK)
                current.notes.append(Note(text="", lines=[line.num], form="print", number=number))
                continue
            flush()
            current = Block("para", "", [line.num])
            reading.blocks.append(current)
            paragraph = [(line.num, text)]
            flog.damage(line.num, f"a number {text!r} alone on a line, neither page number nor footnote",
                        "kept as text")
            continue
        if (m := LETTERED.match(text)) and is_heading_like(m.group(3)):
            flush()
            reading.blocks.append(Block("heading", m.group(3), [line.num], cite=m.group(1) + m.group(2)))
            current = None
            continue
        if m := NUMBERED.match(text):
            flush()
            current = Block("list", "", [line.num], number=int(m.group(2)))
            reading.blocks.append(current)
            paragraph = [(line.num, m.group(3))]
            continue
        if current is None:
            current = Block("para", "", [line.num])
            reading.blocks.append(current)
        paragraph.append((line.num, text))
    flush()

    for block in reading.blocks:
        for note in block.notes:
            if note.form == "print" and not note.pieces:
                flog.error(note.lines[0], f"footnote marker {note.number} has no footnote text on this page")
    last_article = next((b for b in reversed(reading.blocks) if b.kind == "article"), None)
    if last_article is not None and last_article.cite:  # (an unreadable heading is an error already)
        where, waar = (f"page {page}", f"pagina {page}") if page else ("the extraction", "de tekst")
        reading.gaps.append(Gap(texts[-1].num, last_article.cite,
                                f"article {last_article.cite} is cut off at the end of {where}: "
                                f"the rest is on a page that is not in the sources",
                                f"Artikel {last_article.cite} breekt af aan het eind van {waar}; het vervolg "
                                f"staat op een pagina die niet in de bronnen zit."))
    return reading


def _attach_footnote(reading, number, body, line, flog):
    """Give the footnote's lines to the nearest earlier marker `number` that has none yet."""
    for block in reversed(reading.blocks):
        for note in block.notes:
            if note.number == number and not note.pieces:
                note.pieces = body
                note.text = "\n".join(text.strip() for _, text in body)
                note.lines = note.lines + [line] + [n for n, _ in body]
                return
    flog.error(line, f"footnote {number} has no marker in the text before it")


def has_page_layout(texts):
    """A page number among the first lines, or words hyphenated at three or more line ends."""
    hyphen_ends = sum(1 for t in texts if re.search(r"[^\W\d_]-$", t))
    return any(DIGITS.match(t.strip()) for t in texts[:4]) or hyphen_ends >= 3


FORMAT = Format(
    "print", read, signs=((20, has_page_layout),), notes=("print",),
    # The book prints section letters "A." and subsection numbers "1."; a list number where a letter
    # belongs (directly under an article, or under a subsection) is not what the page wrote, so it is
    # restored from evidence. The pages come in the book's order.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "inferred"},
                articles_go_up=True))
