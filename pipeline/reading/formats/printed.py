"""Reader for a text extraction of the printed book: one page, some pages or the whole book.

Reads: a source's Lines (after read.py and normalise.py). Writes: a Reading: blocks, the page furniture
as Dropped lines (each with its reason, for the report), gaps where the extraction starts or ends inside
an article.

The pages. A page starts at a line that held a form feed (read.py reads it as a space and logs it) and,
in an extraction without form feeds, at a running header above a page number ("Spelregels voor
Wedstrijdbridge 2017" above "32") whose header the first page showed. Page furniture, dropped:
  - at the top of every page, within its first four lines: the running header lines, then the page
    number, arabic ("32") or roman ("xiv"); a known running header also after the number or alone;
  - the last line of a page that has no number at its top, when it is a page number.
On the pages:
  - "ARTIKEL 24" on its own line, then the title on one or more short lines (a continuation line
    starts in lower case);
  - "A. heading" section headings, on one line of up to LONG_HEADING characters or wrapped onto
    continuation lines that start in lower case; "1. text" subsections;
  - paragraph text broken into short lines, words hyphenated at line ends;
  - a footnote marker: a number alone on a line inside a paragraph; the footnote itself: the same number
    alone on a line at the bottom of the marker's page or a later one, then its text, to the next
    footnote or the page end. The numbers may start again on each page or run through the book.
A paragraph goes on across a page break, past the footnotes at the page bottom and the furniture:
its lines stay as the pages broke them (Block.pieces), and the repair stage joins them, deciding each
line-end hyphen with the book's vocabulary and logging every join across a page (repair.py).
Where the extraction starts or ends inside an article, that is a gap, never filled (see _cut_off).
"""
import re

from ...core import lang
from ...core.model import NOTE_MARK, Block, Dropped, Gap, Note, Reading, Rules
from .common import (LETTERED, LONG_HEADING, NUMBERED, Format, continues_heading, is_heading_like,
                     looks_like_article, unreadable_heading)



@lang.compiled
def patterns(rules):
    """The article heading pattern, and the words of a cut-off, in the words of a language's rules."""
    return {"keyword": rules.ARTICLE_WORD_PRINTED, "rules": rules,
            "article": re.compile(rf"^{re.escape(rules.ARTICLE_WORD_PRINTED)}[\s\u00a0]+(\d+)\s*$")}


DIGITS = re.compile(r"^\d{1,4}$")
# i … cccxcix, in either case: the numbers of the pages before the first arabic one.
ROMAN = re.compile(r"^(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.IGNORECASE)
TOP = 4  # the lines at a page top that may be furniture: up to three header lines and the number


def is_page_number(text):
    return bool(DIGITS.match(text) or ROMAN.match(text))


def _is_structure(text, words):
    return bool(words["article"].match(text) or LETTERED.match(text) or NUMBERED.match(text)
                or looks_like_article(text, words["keyword"]))


def pages(lines, words=None):
    """The non-blank lines cut into pages, and the furniture of each: ([[Line]], {line number: reason}).
    `words`: patterns(profile) of the book's language (the default language's when None)."""
    words = words or patterns()
    texts, starts, pending = [], [0], False
    for line in lines:
        pending = pending or line.page_break
        if not line.blank:
            if pending and texts:
                starts.append(len(texts))
            pending = False
            texts.append(line)
    strip = [line.text.strip() for line in texts]
    # The running header, as the first page's top shows it (the lines above its page number).
    top = next((i for i in range(min(TOP, len(strip))) if is_page_number(strip[i])), None)
    headers = {t for t in strip[:top] if not _is_structure(t, words)} if top else set()
    if headers:  # without form feeds: the header above a page number starts a page, as on the first page
        known = set(starts)
        for i in range(1, len(strip) - 1):
            # (Not a number above the header: that number may be a footnote marker at the page end.)
            if strip[i] in headers and is_page_number(strip[i + 1]) and not any(i - TOP < s <= i for s in known):
                starts.append(i)
                known.add(i)
    starts = sorted(set(starts))
    cut = [texts[a:b] for a, b in zip(starts, starts[1:] + [len(texts)])]
    furniture, expected = {}, None
    for p, page in enumerate(cut):
        found, number = _furniture(page, headers, p == 0, expected, many=len(cut) > 1, words=words)
        furniture.update(found)
        expected = str(int(number) + 1) if number and number.isdigit() else None
    return cut, furniture


def _furniture(page, headers, first, expected, many, words):
    """({line number: reason} of the page's running header and page number, the page number or None).

    Above the number: on the first page any lines that are not law structure; on a later page the known
    running header, or (an even page's other header) heading-like lines when the number is the one
    the page before leads to."""
    strip = [line.text.strip() for line in page]
    found = {}
    number = next((i for i in range(min(TOP, len(strip))) if is_page_number(strip[i])), None)
    above = strip[:number] if number is not None else []
    if number is not None and not any(_is_structure(t, words) for t in above) and (
            first or all(t in headers for t in above)
            or (strip[number] == expected and all(is_heading_like(t) for t in above))):
        headers.update(above)
        k = number + 1
        while k < len(strip) and k < TOP and strip[k] in headers:  # a header printed below the number
            k += 1
    else:
        number, k = None, 0
        while k < len(strip) and k < TOP - 1 and strip[k] in headers:
            k += 1
    for i in range(k):
        found[page[i].num] = f"page number {strip[i]}" if i == number else \
            f"running header {strip[i]!r}: page layout, not law text"
    label = strip[number] if number is not None else None
    # A number printed at the page bottom instead (only where the extraction has pages to tell it by).
    if number is None and many and len(strip) > k and is_page_number(strip[-1]):
        found[page[-1].num] = f"page number {strip[-1]} (at the page bottom)"
        label = strip[-1]
    return found, label


def page_label(page, furniture):
    """The page's printed number, or None."""
    return next((furniture[line.num].split()[2] for line in page
                 if furniture.get(line.num, "").startswith("page number")), None)


def read(lines, source, log):
    flog = log.for_file(source.name)
    words = patterns(lang.profile(source.language))
    ARTICLE, KEYWORD = words["article"], words["keyword"]
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    cut, furniture = pages(lines, words)
    # The text lines, each with the index of its page; the furniture goes to the report.
    body = []
    for p, page in enumerate(cut):
        for line in page:
            if line.num in furniture:
                reading.dropped.append(Dropped(line.num, furniture[line.num]))
            else:
                body.append((line, p))
    if body and not looks_like_article(body[0][0].text, KEYWORD):
        reading.gaps.append(Gap(body[0][0].num, None, "the page starts inside an article whose beginning is "
                                                      "on an earlier page, which is not in the sources"))

    markers = set()  # footnote numbers whose marker has been seen and whose footnote has not
    paragraph = []  # (line number, text) of the paragraph being collected
    current = None  # the Block the paragraph belongs to

    def flush():
        nonlocal paragraph
        if current is not None and paragraph:
            current.pieces = paragraph
            current.text = "\n".join(text for _, text in paragraph)
            current.lines = sorted(set(current.lines) | {n for n, _ in paragraph})
        paragraph = []

    def wrapped(first):
        """The lines that continue a title or heading whose text so far is `first` (k moves past them)."""
        nonlocal k
        taken, text = [], first
        while k < len(body):
            t = body[k][0].text.strip()
            if _is_structure(t, words) or DIGITS.match(t) or not continues_heading(t) or \
                    len(text) + 1 + len(t) > LONG_HEADING:
                break
            taken.append(body[k][0])
            text += " " + t
            k += 1
        return text, taken

    k = 0
    while k < len(body):
        line, page = body[k]
        text = line.text.strip()
        k += 1
        if m := ARTICLE.match(text):
            flush()
            reading.blocks.append(Block("article", text, [line.num], cite=m.group(1)))
            if k < len(body) and not _is_structure(t := body[k][0].text.strip(), words) and not DIGITS.match(t) \
                    and is_heading_like(t, LONG_HEADING):
                first = body[k][0]
                k += 1
                title, more = wrapped(t)
                reading.blocks.append(Block("title", title, [first.num] + [x.num for x in more]))
            current = None
            continue
        if looks_like_article(text, KEYWORD):
            flush()
            reading.blocks.append(unreadable_heading(
                flog, line.num, text, f"'{KEYWORD}' and the article number alone on its line, as in '{KEYWORD} 24'"))
            current = None
            continue
        if DIGITS.match(text):
            number = text
            if number in markers:
                # The footnote itself, at a page bottom: its text runs to the next footnote or the page end.
                # The paragraph it interrupts (if any) goes on at the top of the next page.
                body_lines = []
                while k < len(body) and body[k][1] == page and not DIGITS.match(body[k][0].text.strip()):
                    body_lines.append((body[k][0].num, body[k][0].text))
                    k += 1
                _attach_footnote(reading, number, body_lines, line.num, flog)
                markers.discard(number)
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
        if (m := LETTERED.match(text)) and is_heading_like(m.group(3), LONG_HEADING):
            flush()
            heading, more = wrapped(m.group(3))
            reading.blocks.append(Block("heading", heading, [line.num] + [x.num for x in more],
                                        cite=m.group(1) + m.group(2)))
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
                flog.error(note.lines[0], f"footnote marker {note.number} has no footnote text at the bottom "
                                          f"of its page or a later one")
    if body:
        _cut_off(reading, cut, furniture, cut[-1][-1].num, flog, words["rules"])
    return reading


def _attach_footnote(reading, number, body, line, flog):
    """Give the footnote's lines to the first marker `number` that has none yet: a marker whose footnote
    did not fit on its page has it at the bottom of the next, before that page's own footnotes."""
    for block in reading.blocks:
        for note in block.notes:
            if note.number == number and not note.pieces:
                note.pieces = body
                note.text = "\n".join(text.strip() for _, text in body)
                note.lines = note.lines + [line] + [n for n, _ in body]
                return
    flog.error(line, f"footnote {number} has no marker in the text before it")


# How a last line ends: a sentence (after its closing brackets and quotes), or not.
SENTENCE_END = re.compile(r"[.!?][)\]\"'\u2019\u201d]*$")
HYPHENATED = re.compile(r"[^\W\d_]-$")


def _ending(blocks):
    """Why the last article (its blocks after the heading) stops before its end, or None when nothing
    shows it does: (reason, certain)."""
    last = blocks[-1]
    if last.kind in ("article", "title", "heading") or (last.kind == "heading-text" and not last.text):
        return "its last line is a title or heading with no text after it", True
    end = (last.pieces[-1][1] if last.pieces else last.text).replace(NOTE_MARK, "").rstrip()
    if HYPHENATED.search(end):
        return "its last line ends in a hyphenated word", True
    if end.endswith(":"):
        return "its last line ends in a colon, which leads in to text that is not there", True
    if end.endswith(";"):
        return "its last line ends in a semicolon: the list it is in goes on", True
    if not SENTENCE_END.search(end):
        return "its last sentence stops without a full stop", True
    # The book letters and numbers parts only where there are two or more: a lone "A." or "1." is open.
    letters = [b.cite[0] for b in blocks if b.kind in ("heading", "heading-text")]
    if letters and letters[-1] == "A":
        return "its sections stop at A", True
    numbers = [b.number for b in blocks if b.kind == "list"]
    if numbers and numbers[-1] == 1:
        return "its numbered parts stop at 1.", True
    return None


def _cut_off(reading, cut, furniture, line, flog, rules, measure=len, unit="lines"):
    """The gap at the end of the extraction, by these rules: the last article is cut off when its text
    stops mid-sentence or mid-structure (_ending); when it ends with a full sentence and leaves nothing
    open, it is complete if its page is shorter than every page before it (the text ends there), and
    may be cut off ("uncertain") if the page is as full as one the text went on from, or the extraction
    is this one page. A page's fullness is measure(page) in `unit` (lines; characters where a
    paragraph is one line)."""
    at = next((i for i in range(len(reading.blocks) - 1, -1, -1) if reading.blocks[i].kind == "article"), None)
    if at is None or not reading.blocks[at].cite:  # (an unreadable heading is an error already)
        return
    cite, blocks = reading.blocks[at].cite, reading.blocks[at:]
    page = page_label(cut[-1], furniture)
    where, waar = (f"page {page}", rules.CUT_OFF_PAGE.format(page=page)) if page else \
        ("the extraction", rules.CUT_OFF_EXTRACTION)
    ending = _ending(blocks)
    if ending is not None:
        reading.gaps.append(Gap(line, cite, f"article {cite} is cut off at the end of {where}: "
                                            f"the rest is on a page that is not in the sources",
                                rules.CUT_OFF.format(cite=cite, where=waar)))
        return
    sizes = [measure(p) for p in cut]
    if len(cut) > 1 and sizes[-1] < min(sizes[:-1]):
        flog.inference(line, f"{reading.edition}/{cite}",
                       f"article {cite} is read as complete at the end of {where}: its text ends with a full "
                       f"sentence, leaves no section or numbered part open, and the page holds {sizes[-1]} {unit}, "
                       f"fewer than any page before it ({min(sizes[:-1])} or more), so the text ends there")
        return
    why = ("the extraction is this one page, so nothing shows whether the article goes on overleaf"
           if len(cut) == 1 else
           f"the page holds {sizes[-1]} {unit}, as many as a page the text went on from "
           f"({min(sizes[:-1])}), so it may go on overleaf")
    reading.gaps.append(Gap(line, cite, f"article {cite} may be cut off at the end of {where} (uncertain): its "
                                        f"text ends with a full sentence and leaves no section or numbered part "
                                        f"open, but {why}",
                            rules.MAYBE_CUT_OFF.format(cite=cite, where=waar)))


def has_page_layout(texts, profile=None):
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
