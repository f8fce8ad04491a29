"""Footnotes of a printed book: one collector for every form a page marks them in.

Reads: a run of pages of the book (their lines without furniture). Writes: the footnotes printed at the
page feet (notes.Footnote, their lines taken out of the text), and each body line's text with every
marker replaced by NOTE_MARK and its Note (form "print", number as printed). The rule of notes.Footnotes
gives each marker its footnote (the page's own, else the next page's, else, numbered through the book,
the one printed before); the reader reports what stays unmatched.

A footnote's label, and its marker in the text:
  digits     "17 A lead out of turn …" at the foot (or "17" alone on its line, the text below it); the marker
             glued to the word before ("trick17,", "requires13", "ends.5"), raised (the PDF's raised digits),
             or alone on a line inside a paragraph (a print extraction that set the raised digit apart);
             labelled "1) …", the marker with its bracket ("seated1).");
  asterisks  "* The FFB does not …", "** …" at the foot; the marker after a word or punctuation ("exiger*",
             "séance*.") or raised;
  dagger     "† …"; the marker as the asterisks';
  bracketed  "[1] …"; the marker "[1]" after a word.
A marker-shaped run without a footnote of its label on its page, the next or (numbered through) one
before is text, reported as damage ("kept as text").

Where a page's feet begin: in a PDF, at the lines set smaller than the body below its last body line
(each starting with a label, raised or not, or going on with the footnote before); in a text, at the
first line that starts with a label whose marker stands on this page or the one before, to the page's
end. A line holding two footnotes ("13 If … see Law 59. 14 If the partner …") is cut at the next label.
"""
import re
from dataclasses import dataclass, field

from ...core.model import NOTE_MARK, Note, Piece
from ...core.report import FileLog
from .. import notes
from .stream import PrintedLine

# A label at the start of a footnote: digits (with a bracket after them: "1)"), asterisks, a dagger, or a
# number in brackets.
LABEL = r"(\d{1,3}\)|\d{1,3}|\*{1,3}|\u2020{1,2}|\u2021|\[\d{1,3}\])"
FOOT_START = re.compile(rf"^{LABEL}(?:\s+|(?=[^\W\d_]))(\S.*)$")
FOOT_ALONE = re.compile(rf"^{LABEL}$")
# A marker glued to the word before it: "trick17,", "requires13 the", "Declarer10", "ends.5 The".
DIGIT_MARKER = re.compile(r"(?<![\w])([^\W\d_]{2,}[.,;:)]?)(\d{1,2})(?![\w])")
# … with a bracket after it, where the book's footnotes are labelled so ("seated1)." and "1) Or standing."):
# the bracket is the marker's, not text.
PAREN_MARKER = re.compile(r"(?<![\w])([^\W\d_]{2,}[.,;:]?)(\d{1,2})\)(?=[\s.,;:]|$)")
# A marker of asterisks, a dagger or a bracketed number after a word or punctuation: "exiger*", "séance*.".
SENTENCE_END = re.compile(r"[.!?][)\]\"'\u2019\u201d]*$")
PROSE_WORD = re.compile(r"[^\W\d_]{2,}")
SIGN_MARKER = re.compile(r"(?<=[^\s*])(\*{1,3}|\u2020{1,2}|\u2021|\[\d{1,3}\])(?=[\s.,;:)\]]|$)")


@dataclass
class Collected:
    """What the collector found on a run of pages."""
    footnotes: list[notes.Footnote] = field(default_factory=list)
    foot_lines: set[int] = field(default_factory=set)  # the lines of the footnotes (out of the text)
    # Each body line's text with its markers as NOTE_MARK, and its notes: {line number: (text, [Note])}
    marked: dict[int, tuple[str, list[Note]]] = field(default_factory=dict)
    # (page, line, Note) of each marker in the text's order, for notes.Footnotes.match
    markers: list[tuple[int, int, Note]] = field(default_factory=list)
    lone: set[int] = field(default_factory=set)  # lines that are a marker alone (digits inside a paragraph)
    bracketed: bool = False  # the footnotes are labelled "1)": a marker's bracket is the marker's ("word1)")


def labels_in(text: str) -> set[str]:
    """The labels a line's markers may carry, loosely: every glued number and sign, and a glued number with
    its bracket ("1)")."""
    return {m.group(2) for m in DIGIT_MARKER.finditer(text)} | {m.group(1) for m in SIGN_MARKER.finditer(text)} | \
        {m.group(2) + ")" for m in PAREN_MARKER.finditer(text)}


def _raised_labels(line: PrintedLine) -> list[tuple[int, int, str]]:
    out = []
    for start, end in line.raised or ():
        label = line.text[start:end].strip()
        if label and (label.isdigit() or set(label) <= {"*", "\u2020", "\u2021"}):
            out.append((start, end, label))
    return out


def collect(pages: list[list[PrintedLine]], flog: FileLog, body_size: float | None = None) -> Collected:
    """The footnotes and markers of a run of pages (see the module's docstring). `body_size`: the body
    text's size where the adapter knows the type (a PDF), else None."""
    out = Collected()
    per_page: list[list[tuple[str, list[Piece]]]] = [[] for _ in pages]
    if body_size is None:
        glued = [{label for line in page for label in labels_in(line.text)} for page in pages]
        _lone_labels(pages, out, per_page, glued)
    seen: set[str] = set()  # labels in the text of the page before
    last: tuple[str, list[Piece]] | None = None  # the last footnote found, which may go on at the next page's foot
    last_page = 0
    for p, page in enumerate(pages):
        rest = [line for line in page if line.num not in out.foot_lines and line.num not in out.lone]
        here = {label for line in rest for label in labels_in(line.text)} | \
               {label for line in rest for _, _, label in _raised_labels(line)} | \
               ({line.text.strip() for line in page if line.num in out.lone}  # a marker set apart on its line …
                - {label for label, _ in per_page[p]})  # … whose footnote _lone_labels has not found
        found = _pdf_feet(rest, body_size) if body_size is not None else _text_feet(rest, seen | here, flog)
        foot_nums = {n for _, pieces in found for n, _ in pieces}
        text_labels = {label for line in rest if line.num not in foot_nums for label in labels_in(line.text)} | \
                      {label for line in rest if line.num not in foot_nums for _, _, label in _raised_labels(line)}
        found = _doubled_signs(found, text_labels or seen, flog)
        if any(label.endswith(")") for label, _ in found):  # "1) …": numbered footnotes, their markers "word1)"
            out.bracketed = True
            found = [(label.rstrip(")"), pieces) for label, pieces in found]
        seen = text_labels if body_size is not None else here
        if found and not found[0][0] and last is not None:
            # Small type at the foot that starts no footnote, below the body: the footnote before goes on
            # from its page (a footnote too long for the page it was cited on).
            _, pieces = found.pop(0)
            last[1].extend(pieces)
            out.foot_lines.update(n for n, _ in pieces)
            flog.inference(pieces[0][0], None, f"footnote {last[0]} goes on from page {last_page} (small type at the "
                                               f"page foot, no number)")
        if found:
            last, last_page = found[-1], pages[p][0].page if pages[p] else p
        per_page[p] += found
        for _, pieces in found:
            out.foot_lines.update(n for n, _ in pieces)
    out.footnotes = [notes.Footnote(label, p, [n for n, _ in pieces], "\n".join(t for _, t in pieces if t),
                                    [(n, t) for n, t in pieces if t])
                     for p, found in enumerate(per_page) for label, pieces in found]
    feet = notes.Footnotes(out.footnotes)
    for p, page in enumerate(pages):
        for line in page:
            if line.num in out.foot_lines:
                continue
            out.marked[line.num] = _mark(line, p, feet, out, flog)
    return out


def _prose(text: str, words: int) -> bool:
    """A line of running text: `words` words of letters or more."""
    return len(PROSE_WORD.findall(text)) >= words


def _doubled_signs(found: list[tuple[str, list[Piece]]], markers: set[str],
                   flog: FileLog) -> list[tuple[str, list[Piece]]]:
    """A word processor's notes marked with signs may print their label at the page foot with the mark
    twice ("**" for a note marked "*", "******" for "***") or with one sign more ("***" for "**"): where that
    reading gives more of the page's markers (the page before's, where the page has none) a footnote than
    the labels as printed, the page's sign labels are read so, one inference for the page."""
    signed = [k for k, (label, _) in enumerate(found) if label and not label[0].isdigit() and label[0] != "["]
    if not signed:
        return found

    def halved(label: str) -> str:
        label = label.replace(" ", "")
        return label[:len(label) // 2] if len(label) % 2 == 0 and label[:len(label) // 2] * 2 == label else label[:-1]

    printed = {found[k][0].replace(" ", "") for k in signed}
    read = {halved(found[k][0]) for k in signed}
    if len(read & markers) <= len(printed & markers):
        return [(label.replace(" ", "") if k in signed else label, pieces) for k, (label, pieces) in enumerate(found)]
    out = [(halved(label) if k in signed else label, pieces) for k, (label, pieces) in enumerate(found)]
    flog.inference(found[signed[0]][1][0][0], None, "the notes' labels at this page's foot print their mark twice or "
                   "with a sign more than the markers in the text (" + ", ".join(
                       f"{found[k][0]!r} for {out[k][0]!r}" for k in signed) + "): read as the notes of those markers")
    return out


def _lone_labels(pages: list[list[PrintedLine]], out: Collected, per_page: list[list[tuple[str, list[Piece]]]],
                 glued: list[set[str]]) -> None:
    """A print extraction that set the raised digits apart: a number alone on a line (one or two digits) is
    the footnote itself where a marker of its number waits (seen, its footnote not yet) and a line of
    running text follows it (its text: the lines after it to the next number alone or the page's end);
    else, inside running text (a line of words before it, and one after it (or the punctuation after the
    marker), a footnote, or the page's end after it, no blank line above or below it), the marker, its footnote to come (one whose
    footnote never comes is a marker without its note: an error). A table flattened into lines, a number or
    a cell each, stands apart by blank lines. A number whose marker is glued to a word on its page or the
    one before is that footnote's label (_text_feet), never a marker of its own."""
    waiting: dict[str, int] = {}  # label -> the line of its marker
    for p, page in enumerate(pages):
        texts = [line.text.strip() for line in page]
        k = 0
        while k < len(page):
            line, text = page[k], texts[k]
            if not (FOOT_ALONE.match(text) and text.isdigit() and len(text) <= 2) or \
                    text in glued[p] or p and text in glued[p - 1]:
                k += 1
                continue
            after = texts[k + 1] if k + 1 < len(page) else None
            if text in waiting and after is not None and _prose(after, 1):
                body = [(line.num, "")]
                k += 1
                while k < len(page) and not FOOT_ALONE.match(texts[k]):
                    body.append((page[k].num, texts[k]))
                    k += 1
                per_page[p].append((text, body))
                out.foot_lines.update(n for n, _ in body)
                out.lone.add(waiting.pop(text))
                continue
            before = texts[k - 1] if k else (pages[p - 1][-1].text.strip() if p and pages[p - 1] else "")
            apart = line.space_before or (k + 1 < len(page) and page[k + 1].space_before)
            if k and line.x is not None and page[k - 1].x is not None and page[k - 1].right is not None:
                # Set out as on the page: a raised digit set apart stands at the line before's end or start,
                # never out in a column of its own (a table's cell).
                prior = page[k - 1]
                apart = apart or not (abs(line.x - (prior.x or 0.0)) <= 4 or abs(line.x - (prior.right or 0.0)) <= 4)
            if _prose(before, 1) and (after is None or _prose(after, 1) or FOOT_ALONE.match(after)
                                      or re.match(r"[.,;:!?)\]]", after)) and not apart:
                if text in waiting:  # an earlier marker of this number never found its footnote
                    out.lone.add(waiting[text])
                waiting[text] = line.num
            k += 1
    # A marker inside running text whose footnote never comes is still one: its note is an error (body.attach),
    # never a number left in the law's text.
    out.lone.update(waiting.values())


def _text_feet(page: list[PrintedLine], candidates: set[str], flog: FileLog) -> list[tuple[str, list[Piece]]]:
    """A text page's footnotes: from the first line (not the page's first) that starts with a label of a
    marker on this page or the one before, or is such a label alone (pdftotext sets a raised label on a
    line of its own), every line to the page end; a line holding two is cut at the next label.

    Labels alone in a row ("13", "14", then their texts) take the texts after them in order, each text one
    or more sentences: the next begins at a line that starts with a capital after one that ends a sentence.
    A label alone at the page's end with no text after it was set apart from its footnote (pdftotext puts
    the first of a page's raised labels last): its text is the lines before the page's first label, from
    the last that starts with a capital; an inference in the report."""
    texts = [line.text.strip() for line in page]

    def alone(i: int) -> str | None:
        m = FOOT_ALONE.match(texts[i])
        return m.group(1) if m and m.group(1) in candidates else None

    start = next((i for i, text in enumerate(texts) if i and ((m := FOOT_START.match(text)) and m.group(1) in candidates
                                                            or alone(i) and i + 1 < len(texts))), None)
    if start is None:
        return []
    found: list[tuple[str, list[Piece]]] = []
    end = len(texts)
    trailing = alone(end - 1)
    if trailing is not None and end - 1 > start and SENTENCE_END.search(texts[start - 1]):
        k = start - 1
        while k > 0 and not texts[k][:1].isupper():
            k -= 1
        if k > 0:
            found.append((trailing, [(page[end - 1].num, "")] + [(page[j].num, texts[j]) for j in range(k, start)]))
            first = FOOT_START.match(texts[start])
            flog.inference(page[end - 1].num, None, f"footnote {trailing}: its number stands at the page's end, apart "
                                                    f"from its text, which is the footnote before footnote "
                                                    f"{alone(start) or (first.group(1) if first else '?')} "
                                                    f"(line {page[k].num}, {texts[k][:30]!r}…)")
            end -= 1
    target: int | None = None  # the footnote the next line of text goes to
    for i in range(start, end):
        line, text = page[i], texts[i]
        m = FOOT_START.match(text)
        if (label := alone(i)) is not None:
            found.append((label, [(line.num, "")]))
            continue
        if m and m.group(1) in candidates:
            label, rest = m.group(1), m.group(2)
            while cut := next((c for c in re.finditer(rf"(?<=[.!?])\s+{LABEL}\s+(?=\S)", rest)
                               if c.group(1) in candidates and c.group(1) != label), None):
                found.append((label, [(line.num, rest[:cut.start()])]))
                label, rest = cut.group(1), rest[cut.end():]
            found.append((label, [(line.num, rest)]))
            target = len(found) - 1
            continue
        if not found:
            continue
        # A line of text: the first footnote still without text takes it, or, where the one being read has
        # ended a sentence and this line starts with a capital, the next one without text.
        waiting = [k for k, (_, pieces) in enumerate(found) if not any(t for _, t in pieces)]
        if target is None or (waiting and waiting[0] > target and text[:1].isupper() and
                              SENTENCE_END.search(next((t for _, t in reversed(found[target][1]) if t), ""))):
            target = waiting[0] if waiting else len(found) - 1
        found[target][1].append((line.num, text))
    return found


def _pdf_feet(page: list[PrintedLine], body: float) -> list[tuple[str, list[Piece]]]:
    """A PDF page's footnotes: the lines in small type below its last body-size line, each starting with
    its label (raised or not) or going on with the footnote before."""
    body_lines = [k for k, line in enumerate(page) if (line.size or 0.0) >= body * 0.95]
    if body_lines:
        last = body_lines[-1]
    elif page and (raised := _raised_labels(page[0])) and raised[0][0] == len(page[0].text) - len(page[0].text.lstrip()):
        last = -1  # a page of footnotes alone: the last ones of the page before, set on a page of their own
    else:  # a page all in small type (a commentary, an index) has no footnotes below its text
        return []
    found: list[tuple[str, list[Piece]]] = []
    for line in page[last + 1:]:
        if (line.size or 0.0) >= body * 0.95:
            continue
        text = line.text
        raised = _raised_labels(line)
        if raised and raised[0][0] == len(text) - len(text.lstrip()):
            start, end, label = raised[0]
            found.append((label, [(line.num, text[end:].strip())]))
            continue
        m = FOOT_START.match(text.strip())
        alone = FOOT_ALONE.match(text.strip())
        if alone:  # the label on a line of its own (set small and raised), its text on the lines after it
            found.append((alone.group(1), [(line.num, "")]))
        elif m and (not found or _next_label(found[-1][0], m.group(1))):
            found.append((m.group(1), [(line.num, m.group(2).strip())]))
        elif found:
            found[-1][1].append((line.num, text.strip()))
        else:
            found.append(("", [(line.num, text.strip())]))  # small type that starts no footnote
    return found


def _next_label(last: str, label: str) -> bool:
    """A footnote's label after `last` at a page foot: the next number, 1 (numbered per page), or signs."""
    if label.isdigit():
        return label == "1" or (last.isdigit() and int(label) == int(last) + 1)
    return not label.isdigit()


def _mark(line: PrintedLine, page: int, feet: notes.Footnotes, out: Collected, flog: FileLog) -> tuple[str, list[Note]]:
    """The line's text with each marker that has a footnote as NOTE_MARK, and its Notes."""
    text = line.text
    found: list[tuple[int, int, str, str]] = []  # (start, end, label, what stays before it)
    raised = _raised_labels(line)
    if raised:
        found += [(start, end, label, "") for start, end, label in raised]
    else:
        stripped = text.strip()
        if line.num in out.lone:  # a marker set apart on its own line inside a paragraph
            start = text.index(stripped)
            found.append((start, start + len(stripped), stripped, ""))
        else:
            bracketed = {m.start(2): m.end(2) + 1 for m in PAREN_MARKER.finditer(text)} if out.bracketed else {}
            for m in DIGIT_MARKER.finditer(text):
                label = m.group(2)
                if feet.has(label, page, line.num):
                    found.append((m.start(2), bracketed.get(m.start(2), m.end(2)), label, ""))
                else:
                    flog.damage(line.num, f"'{m.group()}' looks like a footnote marker, but no footnote {label} "
                                          f"is at the bottom of this page, the next or one before", "kept as text")
            for m in SIGN_MARKER.finditer(text):
                label = m.group(1)
                if feet.has(label, page, line.num):
                    found.append((m.start(1), m.end(1), label, ""))
                else:
                    flog.damage(line.num, f"{label!r} after {text[max(0, m.start() - 12):m.start()]!r} looks like a "
                                          f"footnote marker, but no footnote {label} is at the bottom of this page, "
                                          f"the next or one before", "kept as text")
    if not found:
        return text, []
    found.sort()
    marks: list[Note] = []
    parts: list[str] = []
    cut = 0
    for start, end, label, _ in found:
        parts.append(text[cut:start])
        parts.append(NOTE_MARK)
        cut = end
        note = Note(text="", lines=[line.num], form="print", number=label)
        marks.append(note)
        out.markers.append((page, line.num, note))
    parts.append(text[cut:])
    return "".join(parts), marks
