"""The headings stage: a section heading the extraction glued to its text is split from it, and a page
that starts inside an article is placed in it, both with the book's contents list as evidence.

Reads: every Reading (the flowed reader's "heading-text" blocks: "Lead Out of Turn Treated as Correct
Lead Prior to the thirteenth trick…"; its "contents" blocks: each article's title and each section's
heading with the page it starts on), the book's profile (HEADING_SMALL_WORDS, SENTENCE_OPENERS).
Writes: each "heading-text" block replaced by a "heading" block and a "para" block with the rest,
each with the notes marked in it (a marker glued to the heading's last word is the heading's); an
anchor block ("article" with cite "23A") before the text at the top of a page that starts inside an
article. Every split and placement is an inference in the report, with
what it rests on:
  - the contents list: the heading it gives for the section, where the text starts with it, compared
    letter by letter ignoring hyphens, soft hyphens, dashes, spaces, case, the form of an apostrophe
    and a ligature the extraction lost on one side only ("Re-deal" / "Redeal", "Shu e" / "Shuffle"),
    and ending at the end of a word ("The Deal" is not the start of "The Dealer"). The text's own words
    are kept; where they differ from the list's, the report names both;
  - no contents entry (or one the text does not start with, reported as damage): the run of
    capitalised words (and the profile's small words in lower case) the text starts with, up to the
    word the text starts with: the run's last word where it is a sentence opener (certain), else the
    last sentence opener in the run, else the run's last word, each "uncertain", naming the other reading;
  - the contents list gives the article but no section headings (Laws 35, 56): the section has none.
A subsection may have a run-in heading of its own ("B. Result Obtained at Other Table 1. Single Result
Obtained In team play …"): split by the contents list where it gives one ("86B1"), else by the capitals
under a stricter rule, since most subsections start straight with their text (_section_run_ins says
which); the heading follows the subsection's list block as a "heading" block without a cite.
A page's top is placed by its page number: the last contents entry that starts on an earlier page.
"""
import bisect
import re
from dataclasses import replace

from ..core import ids
from ..core.lang import LanguageRules, Profile
from ..core.model import NOTE_MARK, Block, Gap, Piece, Reading
from ..core.report import BuildLog, FileLog, location
from .formats.common import LONG_HEADING, continues_heading, is_heading_like

PAGE = re.compile(r"^page number (\S+)")
ARTICLE_NUMBER = re.compile(r"\d+")
# An edition's contents list: {cite: (its entry's Block, the file)}.
Contents = dict[str, tuple[Block, str]]


def split_headings(readings: list[Reading], log: BuildLog, profile: Profile) -> None:
    """The stage, over all readings of the book (the contents list is one of them)."""
    rules = profile.rules
    contents = _contents(readings)
    for reading in readings:
        flog = log.for_file(reading.file)
        _place_page_top(reading, contents.get(reading.edition, {}), flog)
        if not any(b.kind == "heading-text" for b in reading.blocks):
            continue
        blocks: list[Block] = []
        article = None
        for block in reading.blocks:
            if block.kind == "article":
                m = ARTICLE_NUMBER.match(block.cite or "")
                article = m.group() if m else None
            if block.kind != "heading-text":
                blocks.append(block)
                continue
            blocks += _split(block, article, contents.get(reading.edition, {}), rules, flog, reading.edition)
        reading.blocks = _subsection_headings(blocks, contents.get(reading.edition, {}), rules, flog, reading.edition)


def _contents(readings: list[Reading]) -> dict[str, Contents]:
    """{edition: {cite: (Block, file)}} of every contents entry."""
    out: dict[str, Contents] = {}
    for reading in readings:
        for block in reading.blocks:
            if block.kind == "contents" and block.cite:
                out.setdefault(reading.edition, {})[block.cite] = (block, reading.file)
    return out


def _split(block: Block, article: str | None, contents: Contents, rules: LanguageRules, flog: FileLog,
           edition: str) -> list[Block]:
    cite = f"{article}{block.cite}" if article else None
    node = ids.join(edition, cite) if cite else None
    text = block.text.replace("\n", " ")
    entry = contents.get(cite) if cite else None
    where = f"{entry[1]}:{entry[0].first_line}" if entry else None
    split: int | None = None
    why: str | None = None
    found = _heading_at_start(text, entry[0].text, rules) if entry else None
    if found is not None and entry:
        split = found
        why = f"the contents list's heading for {cite} ({where})" + _difference(entry[0].text, text[:found])
        if not text[found:].strip(NOTE_MARK + " ") and why.endswith("kept)"):
            # all the text is the heading (its subsections follow): no split to log, but the difference is
            flog.inference(block.first_line, node, f"{text[:found].strip()!r}, all the text before the subsections "
                                                   f"of {cite}, read as its heading by {why}")
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
        split, why = _by_line_break(block)
    if split is None:
        split, why = _by_capitals(text, rules, cite or block.cite, flog, block.first_line,
                                  "the contents entry does not match" if entry else "no contents entry")
    if split is None and len(block.pieces) == 1 and is_heading_like(text, LONG_HEADING):
        # A heading alone on its line, its section's text in the blocks after it ("Niet bedoelde bieding").
        split, why = len(text), None
    if split is None:
        return [Block("heading", "", [block.first_line], cite=block.cite), _rest(block, 0)]
    return _cut(block, text, split, why, cite, node, flog)


def _cut(block: Block, text: str, split: int, why: str | None, cite: str | None, node: str | None,
         flog: FileLog) -> list[Block]:
    """[the heading block, the rest as a paragraph]: `block` cut at `split`, logged with `why`; each with
    the notes marked in it."""
    # A marker glued to the heading's last word ends the heading: the note is the heading's, as the
    # book marks it (a split by the contents list ends before it, at the heading's last letter).
    split += len(text[split:]) - len(text[split:].lstrip(NOTE_MARK))
    heading = text[:split].strip()
    rest = _rest(block, split)
    if why and rest.text:
        flog.inference(block.first_line, node, f"the heading {heading.replace(NOTE_MARK, '')!r} of "
                                               f"{cite or block.cite} split from its text at "
                                               f"{rest.text.replace(NOTE_MARK, '')[:30]!r}… by {why}")
    marks = heading.count(NOTE_MARK)
    head = Block("heading", heading, sorted(set(_lines_before(block, split)) | {block.first_line}),
                 cite=block.cite, notes=list(block.notes[:marks]))
    rest.notes = list(block.notes[marks:])
    if marks:
        flog.inference(block.first_line, node, f"the heading of {cite or block.cite} keeps the "
                                               f"footnote{'s' if marks > 1 else ''} marked in it "
                                               f"({', '.join(n.number or '?' for n in head.notes)}), where the "
                                               f"book marks {'them' if marks > 1 else 'it'}")
    return [head, rest] if rest.text or rest.notes else [head]


# What a heading's words may differ in between the contents list and the text and still be the same
# heading: a hyphen, soft hyphen or dash ("Re-deal" / "Redeal"), spaces ("Re deal"), case, the form of
# an apostrophe, and a ligature the extraction lost on one side only ("Shu e" / "Shuffle").
SEPARATOR = re.compile(r"[\s\-\u00ad\u2010-\u2015]")
JOINERS = r"[\s\-\u00ad\u2010-\u2015]*"
APOSTROPHES = "'\u2019\u2018`"


def _heading_at_start(text: str, heading: str, rules: LanguageRules) -> int | None:
    """Where `heading` (the contents list's words) ends at the start of `text`, or None: the two compared
    letter by letter with JOINERS optional between any two letters, ignoring case and the profile's
    LIGATURES where one side lost them; the end at a word's end. The offset is the text's own: the
    text's spelling of the heading is what is kept."""
    # Most headings stand in the text as the list writes them: no pattern to build for those.
    if text[:len(heading)].lower() == heading.lower() and not text[len(heading):len(heading) + 1].isalnum():
        return len(heading)
    ligatures = sorted(rules.LIGATURES, key=len, reverse=True)
    parts, k = [], 0
    while k < len(heading):
        if SEPARATOR.match(heading, k):
            end = k
            while end < len(heading) and SEPARATOR.match(heading, end):
                end += 1
            # between two letters, a gap may be a ligature the contents list lost and the text kept
            if ligatures and 0 < k and end < len(heading) and heading[k - 1].isalpha() and heading[end].isalpha():
                parts.append(f"(?:{'|'.join(map(re.escape, ligatures))}|{JOINERS})")
            k = end
            continue
        lost = next((lig for lig in ligatures if heading.startswith(lig, k)), None)
        if lost:  # as written, or lost in the text: a gap, then what a shorter lost ligature left ("Shu le")
            gaps = [r"\s+" + re.escape(lost[len(lig):]) for lig in ligatures if lost.startswith(lig)]
            parts.append(f"(?:{re.escape(lost)}|{'|'.join(gaps)})")
            k += len(lost)
        else:
            parts.append(f"[{APOSTROPHES}]" if heading[k] in APOSTROPHES else re.escape(heading[k]))
            k += 1
        parts.append(JOINERS)
    if not parts:
        return None
    m = re.match("".join(parts[:-1]) + r"(?![^\W_])", text, re.IGNORECASE)
    return m.end() if m else None


def _difference(listed: str, written: str) -> str:
    """What the contents list writes otherwise than the text, word for word ("" where they differ in
    spacing only), for the report."""
    import difflib
    ours, theirs = written.split(), listed.split()
    if ours == theirs:
        return ""
    said = [f"{' '.join(theirs[i1:i2])!r} where the text writes {' '.join(ours[j1:j2])!r}"
            for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=theirs, b=ours, autojunk=False).get_opcodes()
            if op != "equal"]
    return f"; the contents list writes {'; '.join(said)} (the text's words are kept)"


def _by_line_break(block: Block) -> tuple[int | None, str | None]:
    """Where the page's line breaks show a heading's end: the heading alone on its line(s), the text after it
    starting a line with a capital (a wrapped heading goes on with lines that start in lower case and end no
    clause): (offset, why), or (None, None) where they show none (a heading glued to its text on one line, a
    section without a heading whose text wraps)."""
    pieces = [t for _, t in block.pieces]
    if len(pieces) < 2 or not is_heading_like(pieces[0], LONG_HEADING):
        return None, None
    k = 1
    while k < len(pieces) and continues_heading(pieces[k]):
        k += 1
    if k < len(pieces) and not pieces[k][:1].isupper():
        return None, None
    heading = " ".join(pieces[:k])
    if len(heading) > LONG_HEADING:
        return None, None
    return len(heading), "its line breaks: it stands alone on its line(s), the text after it starts a line"


def _by_capitals(text: str, rules: LanguageRules, cite: str | None, flog: FileLog, line: int,
                 basis: str = "no contents entry") -> tuple[int | None, str | None]:
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
                                   f"words are capitalised and it ends no sentence ({basis})")
        return len(text), None
    while run and run[-1].group() in rules.HEADING_SMALL_WORDS:  # a capitalised "In" may start the text
        run.pop()
    if len(run) < 2 or len(run) == len(tokens):
        return None, None
    opener, sure, other = _text_start(run, rules, 1)
    heading = text[:opener.start()].strip()
    if sure:
        return opener.start(), f"the capitals of its words, up to {opener.group()!r}, which starts a sentence " \
                               f"({basis})"
    flog.inference(line, None, f"the heading of {cite} is uncertain ({basis}): read as {heading!r}, with the "
                               f"text starting at {opener.group()!r}; it could also be "
                               f"{text[:other].strip()!r}")
    return opener.start(), None


def _text_start(run: list[re.Match[str]], rules: LanguageRules, least: int) -> tuple[re.Match[str], bool, int | None]:
    """(the word of a capitalised run the text starts with, whether that is sure, where the other reading's
    heading ends). Sure: the run's last word, a sentence opener ("… of Turn If a player"). Else the last
    sentence opener after the heading's first `least` words, the text's subject after it ("Orderly
    Conduct The Director keeps": the other reading's heading runs to the word before "keeps"); else the
    run's last word (the other reading's heading runs through it)."""
    last = run[-1]
    if last.group() in rules.SENTENCE_OPENERS:
        return last, True, None
    inner = [t for t in run[least:-1] if t.group() in rules.SENTENCE_OPENERS]
    if inner:
        return inner[-1], False, run[-2].end()
    return last, False, last.end()


# -- run-in headings of subsections -------------------------------------------------------------------
def _subsection_headings(blocks: list[Block], contents: Contents, rules: LanguageRules, flog: FileLog,
                         edition: str) -> list[Block]:
    """The blocks with each subsection's run-in heading split from its text: the subsection's list
    block keeps the rest, and a "heading" block without a cite (the heading of the node the block
    before opened) follows it. Only subsections of a lettered section are looked at."""
    sections: dict[tuple[str, str], list[tuple[int, Block]]] = {}  # (article, letter) -> [(index, block)] of its subsections
    article, letter = None, None
    for i, block in enumerate(blocks):
        if block.kind == "article":
            m = re.match(r"(\d+)([A-Z]?)", block.cite or "")
            article, letter = (m.group(1), m.group(2) or None) if m else (None, None)
        elif block.kind == "heading" and block.cite and article:
            letter = block.cite[0]
        elif block.kind == "list" and block.level == 0 and article and letter and block.number is not None:
            sections.setdefault((article, letter), []).append((i, block))
    cut: dict[int, list[Block]] = {}
    for (number, section), subsections in sections.items():
        cut.update(_section_run_ins(f"{number}{section}", subsections, contents, rules, flog, edition))
    return [b for i, block in enumerate(blocks) for b in cut.get(i, [block])]


def _section_run_ins(section: str, subsections: list[tuple[int, Block]], contents: Contents, rules: LanguageRules,
                     flog: FileLog, edition: str) -> dict[int, list[Block]]:
    """{index: the blocks for it} of the subsections of `section` (e.g. "86B") that have a run-in heading.

    A heading given by the contents list ("86B1") is split where the text starts with it. Without one,
    the capitals decide, conservatively, since most subsections start straight with their text: a
    subsection is a candidate where its text starts with a capitalised word that is not a sentence
    opener, and runs on in capitalised words (and the profile's small words) to at least two words; the
    candidate is sure where the word after the run is one of the profile's SENTENCE_OPENERS ("Single
    Result Obtained In team play …"). A section that writes run-in headings writes them for more than one
    subsection, so the capitals split only where at least two subsections of the section have one (by
    the contents list or sure by the capitals); then a candidate whose next word is no sentence opener
    is split too, and called "uncertain" with both readings. A sure candidate alone in its section is
    not split: it is kept as text, and the report calls it "uncertain", naming the heading it could
    have. A subsection that starts with a sentence opener ("The Director shall …") has no heading."""
    # index -> (cite, offset, the contents list's evidence or None, the text's first word, sure, where the other
    # reading's heading ends)
    readings: dict[int, tuple[str, int, str | None, str | None, bool, int | None]] = {}
    for i, block in subsections:
        cite = f"{section}{block.number}"
        text = block.text.replace("\n", " ")
        entry = contents.get(cite)
        found = _heading_at_start(text, entry[0].text, rules) if entry else None
        if found is not None and entry:
            listed = f"the contents list's heading for {cite} ({entry[1]}:{entry[0].first_line})" + \
                _difference(entry[0].text, text[:found])
            readings[i] = (cite, found, listed, None, True, None)
        elif (run_in := _run_in(text, rules)) is not None:
            readings[i] = (cite, run_in[0], None, run_in[1], run_in[2], run_in[3])
    sure = [cite for cite, _, _, _, certain, _ in readings.values() if certain]
    out: dict[int, list[Block]] = {}
    for i, block in subsections:
        if i not in readings:
            continue
        cite, offset, why, word, certain, other = readings[i]
        node = ids.join(edition, cite)
        text = block.text.replace("\n", " ")
        heading = text[:offset].strip().replace(NOTE_MARK, "")
        others = ", ".join(c for c in sure if c != cite)
        if why is None and not others:
            if certain:
                flog.inference(block.first_line, node,
                               f"the run-in heading of {cite} is uncertain: read as text from its start, "
                               f"{text[:offset + len(word or '')].strip()!r}…, as no other subsection of {section} has "
                               f"a run-in heading; it could also be the heading {heading!r}, with the text "
                               f"starting at {word!r}")
            continue
        if why is None and certain:
            why = f"the capitals of its words, up to {word!r}, which starts a sentence, as in the run-in headings " \
                  f"of {others} (no contents entry)"
        elif why is None:
            flog.inference(block.first_line, node,
                           f"the run-in heading of {cite} is uncertain (no contents entry): read as {heading!r}, "
                           f"with the text starting at {word!r}, as {others} have run-in headings; it could also "
                           f"be {text[:other].strip()!r}")
        head, *after = _cut(block, text, offset, why, cite, node, flog)
        rest = after[0] if after else Block("para", "", [block.first_line])
        out[i] = [replace(block, text=rest.text, lines=sorted(set(rest.lines) | {block.first_line}),
                          notes=rest.notes, pieces=rest.pieces), head]
    return out


def _run_in(text: str, rules: LanguageRules) -> tuple[int, str, bool, int | None] | None:
    """(where the text after a run-in heading starts, its first word, whether that is sure, where the
    other reading's heading ends: _text_start), where `text` starts with a capitalised word that is no
    sentence opener and at least two capitalised words (and small words) before the first word of its
    text; else None."""
    tokens = list(re.finditer(r"\S+", text))
    run = []
    for t in tokens:
        word = t.group().strip("()'\"" + NOTE_MARK)
        if not (word[:1].isupper() or word.lower() in rules.HEADING_SMALL_WORDS):
            break
        run.append(t)
        if re.search(r"[.:;,!?]$", t.group().replace(NOTE_MARK, "")):
            return None  # a sentence or clause ends inside the run: text, not a heading
    while run and run[-1].group() in rules.HEADING_SMALL_WORDS:
        run.pop()
    if not run or run[0].group() in rules.SENTENCE_OPENERS or len(run) == len(tokens):
        return None
    opener, sure, other = _text_start(run, rules, 2)
    if sum(t.group()[:1].isupper() for t in run if t.start() < opener.start()) < 2:
        return None
    return opener.start(), opener.group(), sure, other


def _lines_before(block: Block, split: int) -> list[int]:
    """The lines of the block's pieces that hold its text before `split` (a heading wrapped over lines)."""
    out: list[int] = []
    offset = 0
    for line, part in block.pieces:
        if offset < split or not out:
            out.append(line)
        offset += len(part) + 1
    return out


def _rest(block: Block, split: int) -> Block:
    """The block's text from `split` on, as a paragraph with its pieces, lines and notes."""
    pieces: list[Piece] = []
    offset = 0
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


def _place_page_top(reading: Reading, contents: Contents, flog: FileLog) -> None:
    """The text before the first article heading of each run of pages that starts inside an article (the
    reader's gap with no article says where): placed in the section (or article) whose contents entry is
    the last to start on an earlier page than the run's first page."""
    if not contents:
        return
    tops = {g.line for g in reading.gaps if g.cite is None}
    if not tops:
        return
    pages = sorted((d.line, m.group(1)) for d in reading.dropped if (m := PAGE.match(d.reason)))
    page_lines = [n for n, _ in pages]
    # The contents entries that start on a known page, in the order of their pages: the last one before a
    # page is found by bisection, not by a scan of the list for every run of pages.
    entries = sorted(((b.number, _order(cite), cite, file, b) for cite, (b, file) in contents.items()
                      if b.number is not None and re.match(r"\d+[A-Z]?$", cite)), key=lambda e: e[:2])
    numbers = [e[0] for e in entries]
    placed: dict[int, str] = {}  # index of the run's first block -> the cite it is placed in
    at: dict[int, str] = {}  # line of that block -> the cite
    for k, block in enumerate(reading.blocks):
        line = block.first_line
        # Only where the reader found a page starting inside an article (not the index, say), at the
        # first block of that page.
        if line not in tops or block.kind == "article":
            continue
        tops.discard(line)
        i = bisect.bisect_right(page_lines, line)
        page = pages[i - 1][1] if i else None
        if page is None or not page.isdigit():
            continue
        j = bisect.bisect_left(numbers, int(page))
        if not j:
            continue
        number, _, cite, file, entry = entries[j - 1]
        flog.inference(line, ids.join(reading.edition, cite),
                       f"page {page} starts inside Law {_article(cite)}: its first lines are read "
                       f"as the text of {cite}, the last entry of the contents list to start on an earlier page (page "
                       f"{number}, {location(file, entry.first_line)})")
        placed[k], at[line] = cite, cite
    for k in sorted(placed, reverse=True):
        reading.blocks.insert(k, Block("article", "", [reading.blocks[k].first_line], cite=placed[k]))
    reading.gaps = [Gap(g.line, _article(at[g.line]), g.message, g.reason)
                    if g.cite is None and g.line in at else g for g in reading.gaps]


def _article(cite: str) -> str:
    """The article number a contents entry's cite starts with: '41B' -> '41' (every such cite starts with one)."""
    m = ARTICLE_NUMBER.match(cite)
    return m.group() if m else ""


def _order(cite: str) -> tuple[int, str]:
    m = re.match(r"(\d+)([A-Z]?)", cite)
    return (int(m.group(1)), m.group(2)) if m else (0, cite)
