"""The headings stage: a section heading the extraction glued to its text is split from it, and a page
that starts inside an article is placed in it, both with the book's contents list as evidence.

Reads: every Reading (the flowed reader's "heading-text" blocks: "Lead Out of Turn Treated as Correct
Lead Prior to the thirteenth trick…"; its "contents" blocks: each article's title and each section's
heading with the page it starts on), the book's profile (HEADING_SMALL_WORDS, SENTENCE_OPENERS).
Writes: each "heading-text" block replaced by a "heading" block and a "para" block with the rest
(its notes with it); an anchor block ("article" with cite "23A") before the text at the top of a
page that starts inside an article. Every split and placement is an inference in the report, with
what it rests on:
  - the contents list: the heading it gives for the section, where the text starts with it (in any
    case: the text's own words are kept);
  - no contents entry: the run of capitalised words (and the profile's small words) the text starts
    with, up to the last capitalised word before the text; "uncertain" where the word the text would
    start with is not one a sentence starts with, naming the other reading;
  - the contents list gives the article but no section headings (Laws 35, 56): the section has none.
A page's top is placed by its page number: the last contents entry that starts on an earlier page.
"""
import re

from ..core.model import NOTE_MARK, Block, Gap

PAGE = re.compile(r"^page number (\S+)")


def split_headings(readings, log, profile):
    """The stage, over all readings of the book (the contents list is one of them)."""
    rules = profile.rules
    contents = _contents(readings)
    for reading in readings:
        flog = log.for_file(reading.file)
        _place_page_top(reading, contents.get(reading.edition, {}), flog)
        if not any(b.kind == "heading-text" for b in reading.blocks):
            continue
        blocks, article = [], None
        for block in reading.blocks:
            if block.kind == "article":
                article = re.match(r"\d+", block.cite or "")
                article = article.group() if article else None
            if block.kind != "heading-text":
                blocks.append(block)
                continue
            blocks += _split(block, article, contents.get(reading.edition, {}), rules, flog, reading.edition)
        reading.blocks = blocks


def _contents(readings):
    """{edition: {cite: (Block, file)}} of every contents entry."""
    out = {}
    for reading in readings:
        for block in reading.blocks:
            if block.kind == "contents" and block.cite:
                out.setdefault(reading.edition, {})[block.cite] = (block, reading.file)
    return out


def _split(block, article, contents, rules, flog, edition):
    cite = f"{article}{block.cite}" if article else None
    node = f"{edition}/{cite}" if cite else None
    text = block.text.replace("\n", " ")
    entry = contents.get(cite) if cite else None
    where = f"{entry[1]}:{entry[0].first_line}" if entry else None
    split, why = None, None
    if entry and _starts_with(text, entry[0].text):
        split = len(entry[0].text)
        why = f"the contents list's heading for {cite} ({where})"
    elif entry:
        flog.damage(block.first_line, f"the contents list gives {entry[0].text!r} as the heading of {cite} ({where}), "
                                      f"but the text starts {text[:len(entry[0].text) + 10]!r}",
                    "the heading is read from the capitals of the text instead")
    elif article and article in contents and not any(c.startswith(article) and c[len(article):].isalpha()
                                                      for c in contents):
        flog.inference(block.first_line, node, f"{cite} has no heading: the contents list gives none for the "
                                               f"sections of Law {article} ({contents[article][1]}:"
                                               f"{contents[article][0].first_line}), so its text is all text")
        return [Block("heading", "", [block.first_line], cite=block.cite), _rest(block, 0)]
    if split is None:
        split, why = _by_capitals(text, rules, cite or block.cite, flog, block.first_line)
    if split is None:
        return [Block("heading", "", [block.first_line], cite=block.cite), _rest(block, 0)]
    heading = text[:split].strip()
    if NOTE_MARK in heading:
        flog.damage(block.first_line, f"a footnote marker stands in the heading of {cite or block.cite}",
                    "the note is kept at the start of the text after it")
    rest = _rest(block, split)
    if why and rest.text:
        flog.inference(block.first_line, node, f"the heading {heading.replace(NOTE_MARK, '')!r} of "
                                               f"{cite or block.cite} split from its text at "
                                               f"{rest.text.replace(NOTE_MARK, '')[:30]!r}… by {why}")
    head = Block("heading", heading.replace(NOTE_MARK, ""), sorted({n for n, _ in block.pieces[:1]} | {block.first_line}),
                 cite=block.cite)
    marks = NOTE_MARK * heading.count(NOTE_MARK)
    if marks:  # the heading's notes stay, at the start of the text after it
        line, first = rest.pieces[0] if rest.pieces else (block.first_line, "")
        rest.pieces = [(line, marks + first)] + rest.pieces[1:]
        rest.text = "\n".join(t for _, t in rest.pieces)
    return [head, rest] if rest.text or rest.notes else [head]


def _starts_with(text, heading):
    return " ".join(text.split()).casefold().startswith(" ".join(heading.split()).casefold())


def _by_capitals(text, rules, cite, flog, line):
    """Where a heading without a contents entry ends: (offset, why), or (None, None) when the text
    starts with no capitalised run (a section without a heading). A text capitalised throughout that
    ends no sentence ("Players' Use of Information", before its first subsection) is all heading."""
    tokens = list(re.finditer(r"\S+", text))
    run = []
    for t in tokens:
        word = t.group().strip("()'\"")
        if word[:1].isupper() or word.lower() in rules.HEADING_SMALL_WORDS:
            run.append(t)
            continue
        break
    if run and len(run) == len(tokens) and tokens[0].group()[:1].isupper() and \
            not re.search(r"[.:;,!?]$", text.replace(NOTE_MARK, "").strip()):
        flog.inference(line, None, f"{text.replace(NOTE_MARK, '').strip()!r} read as the heading of {cite}: all its "
                                   f"words are capitalised and it ends no sentence (no contents entry)")
        return len(text), None
    while run and run[-1].group().lower() in rules.HEADING_SMALL_WORDS:
        run.pop()
    if len(run) < 2 or len(run) == len(tokens):
        return None, None
    opener = run[-1]
    heading = text[:opener.start()].strip()
    if opener.group() in rules.SENTENCE_OPENERS:
        return opener.start(), f"the capitals of its words, up to {opener.group()!r}, which starts a sentence " \
                               f"(no contents entry)"
    flog.inference(line, None, f"the heading of {cite} is uncertain (no contents entry): read as {heading!r}, with the "
                               f"text starting at {opener.group()!r}; it could also be "
                               f"{text[:opener.end()].strip()!r}")
    return opener.start(), None


def _rest(block, split):
    """The block's text from `split` on, as a paragraph with its pieces, lines and notes."""
    pieces, offset = [], 0
    for line, part in block.pieces:
        end = offset + len(part)
        if end > split:
            piece = part[max(0, split - offset):].strip()
            if piece:
                pieces.append((line, piece))
        offset = end + 1  # the "\n" between pieces
    text = "\n".join(p for _, p in pieces)
    lines = sorted({n for n, _ in pieces}) or [block.first_line]
    return Block("para", text, lines, notes=list(block.notes), pieces=pieces)


def _place_page_top(reading, contents, flog):
    """The text before the first article heading of each run of pages that starts inside an article (the
    reader's gap with no article says where): placed in the section (or article) whose contents entry is
    the last to start on an earlier page than the run's first page."""
    if not contents:
        return
    tops = {g.line for g in reading.gaps if g.cite is None}
    if not tops:
        return
    pages = sorted((d.line, m.group(1)) for d in reading.dropped if (m := PAGE.match(d.reason)))
    placed = {}  # line of the run's first block -> the cite it is placed in
    for k, block in enumerate(reading.blocks):
        line = block.first_line
        # Only where the reader found a page starting inside an article (not the index, say), at the
        # first block of that page.
        if line not in tops or block.kind == "article":
            continue
        tops.discard(line)
        page = next((p for n, p in reversed(pages) if n <= line), None)
        if page is None or not page.isdigit():
            continue
        earlier = [(b.number, cite, file, b) for cite, (b, file) in contents.items()
                   if b.number is not None and b.number < int(page) and re.match(r"\d+[A-Z]?$", cite)]
        if not earlier:
            continue
        number, cite, file, entry = max(earlier, key=lambda e: (e[0], _order(e[1])))
        flog.inference(line, f"{reading.edition}/{cite}",
                       f"page {page} starts inside Law {re.match(r'[0-9]+', cite).group()}: its first lines are read "
                       f"as the text of {cite}, the last entry of the contents list to start on an earlier page (page "
                       f"{number}, {file}:{entry.first_line})")
        placed[k] = cite
    for k in sorted(placed, reverse=True):
        line = reading.blocks[k].first_line
        reading.blocks.insert(k, Block("article", "", [line], cite=placed[k]))
    at = {reading.blocks[k + i].first_line: c for i, (k, c) in enumerate(sorted(placed.items()))}
    reading.gaps = [Gap(g.line, re.match(r"\d+", at[g.line]).group(), g.message, g.reason)
                    if g.cite is None and g.line in at else g for g in reading.gaps]


def _order(cite):
    m = re.match(r"(\d+)([A-Z]?)", cite)
    return (int(m.group(1)), m.group(2))
