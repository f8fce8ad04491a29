"""Reader for the wiki page export (keesboek-style MediaWiki pages).

What the export did to the law, and what this reader undoes:
  - the first line is the page title ("ARTIKEL 54", "Art.53 …"): page context, dropped;
  - each shown article starts with "Artikel\u00a0N" (or "Artikel 50D", "Artikel 47E1"
    when the page shows only a part);
  - section letters became list numbers "1. 2. 3.", items (a) (b) became indented
    numbers; "1. 1." is a subsection and its first item on one line;
  - notes are inline "(Noot: …)", once malformed as "Noot: (…)";
  - a personal remark starts with "* Deze opmerking … persoonlijke titel … van NAME."
    and runs to the next article heading, the next remark or the end of the page: it is
    commentary on the page's article. An article heading ends it (the law resumes there, and
    the report says so); a line inside it that starts like a heading but does not read as
    one is an error naming both lines, never commentary.
Numbers stay numbers here; the structure stage decides what they stand for.
"""
import re
from typing import TypedDict

from .. import notes
from ...core import lang
from ...core.model import Block, Dropped, Reading, Rules
from ...core.report import BuildLog, FileLog
from ..decode import Line
from .common import ReadSource, DOUBLE, LETTERED, NUMBERED, Format, indent_level, looks_like_article, unreadable_heading



class Patterns(TypedDict):
    keyword: str
    article: re.Pattern[str]
    subject: re.Pattern[str]
    commentary: re.Pattern[str]


@lang.compiled
def patterns(rules: lang.LanguageRules) -> Patterns:
    """The heading, page-title and remark patterns in the words of a language's rules."""
    word = re.escape(rules.ARTICLE_WORD)
    return {"keyword": rules.ARTICLE_WORD,
            "article": re.compile(rf"^{word}[\s\u00a0]+(\d+(?:[A-Z](?:\d+[a-z]?)?)?)\s*$"),
            "subject": re.compile(rf"^{rules.PAGE_SUBJECT}[\s\u00a0]*(\d+)"),
            "commentary": re.compile(rf"^\*\s*(.*{rules.COMMENTARY_MARK}.*)$")}


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    flog = log.for_file(source.name)
    profile = lang.profile(source.language)
    words = patterns(profile)
    ARTICLE, PAGE_SUBJECT, COMMENTARY, KEYWORD = words["article"], words["subject"], words["commentary"], words["keyword"]
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    group = 0
    commentary_from: int | None = None  # the attribution line of the open commentary
    seen_text = False
    for line in lines:
        if line.blank:
            group += 1
            continue
        text = line.text.rstrip()
        if not seen_text:
            seen_text = True
            if not ARTICLE.match(text):
                reading.dropped.append(Dropped(line.num, f"page title {text.strip()!r}: page context, not law text"))
                m = PAGE_SUBJECT.match(text.strip())
                reading.subject = m.group(1) if m else None
                continue
        m = COMMENTARY.match(text.strip())
        if commentary_from is not None and not m:  # (another remark's first line begins a remark of its own)
            ends = _commentary_end(text, line.num, commentary_from, words, flog, group)
            if ends is not None:
                commentary_from = None
            reading.blocks.append(ends or Block("commentary", text.strip(), [line.num], group=group))
            continue
        if m:
            commentary_from = line.num
            reading.blocks.append(Block("attribution", m.group(1), [line.num], group=group))
            continue
        m = ARTICLE.match(text)
        if m:
            reading.blocks.append(Block("article", text.strip(), [line.num], cite=m.group(1), group=group))
            continue
        if looks_like_article(text, KEYWORD):
            reading.blocks.append(unreadable_heading(
                flog, line.num, text.strip(), f"'{KEYWORD}' and the citation alone on its line, as in '{KEYWORD} 41', "
                                              f"'{KEYWORD} 50D' or '{KEYWORD} 47E1'", group))
            continue
        if m := DOUBLE.match(text):
            block = Block("list", m.group(4), [line.num], number=int(m.group(2)),
                          extra_number=int(m.group(3)), level=indent_level(m.group(1)), group=group)
        elif m := NUMBERED.match(text):
            block = Block("list", m.group(3), [line.num], number=int(m.group(2)),
                          level=indent_level(m.group(1)), group=group)
        elif m := LETTERED.match(text.strip()):
            block = Block("heading", m.group(3), [line.num], cite=m.group(1) + m.group(2), group=group)
        else:
            block = Block("para", text.strip(), [line.num], group=group)
        block.text, block.notes = notes.extract_inline_notes(block.text, line.num, flog, profile)
        reading.blocks.append(block)
    return reading


def _commentary_end(text: str, num: int, start: int, words: Patterns, flog: FileLog, group: int) -> Block | None:
    """The article block that ends the commentary begun at line `start`, where line `num` is a heading;
    None where the line is commentary. A remark is written between articles, never across one: a heading
    after it is the law again, whatever the remark said before. A line that starts like a heading but does
    not read as one is an error naming both lines, and an article block without a number, so that neither
    it nor what follows is kept as commentary (structure.py sets it aside)."""
    keyword = words["keyword"]
    if m := words["article"].match(text):
        flog.inference(num, None, f"the commentary that begins at line {start} ends at line {num}, at the article "
                                  f"heading {text.strip()!r}: the law resumes there")
        return Block("article", text.strip(), [num], cite=m.group(1), group=group)
    if looks_like_article(text, keyword):
        flog.error(num, f"{text.strip()!r} at line {num}, inside the commentary that begins at line {start}, looks "
                        f"like an article heading but does not read as one: a heading is '{keyword}' and the "
                        f"citation alone on its line, as in '{keyword} 41', '{keyword} 50D' or '{keyword} 47E1'; "
                        f"it is not read as commentary, and the text up to the next heading is not read until the "
                        f"line is corrected")
        return Block("article", text.strip(), [num], group=group)
    return None


def has_heading(texts: list[str], profile: lang.Profile) -> bool:
    article = patterns(profile)["article"]
    return any(article.match(t) for t in texts)


FORMAT = Format(
    "wiki", read, signs=((30, has_heading),), notes=("inline", "malformed"),
    # The export's list markup numbers every level "1. 2. 3.": the law's letters (A, a) and even its
    # subsection numbers were rendered by the wiki, never typed, so each is restored from evidence.
    # Sections shown without letters are unlettered headings; subsections, paragraphs on one line each.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "inferred", "item": "inferred"},
                headings_are_sections=True, paragraphs_are_subsections=True))
