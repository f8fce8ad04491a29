"""Reader for a MediaWiki template ("Sjabloon:2007:41").

Shape: the template name on the first line (dropped: page context), then
"ARTIKEL 41 Het begin van het spelen", lettered section headings "A. …", one
paragraph per line, and numbered footnotes: a marker " 1)" in the text and a
line "1) text" after the paragraph. The footnote becomes a Note at its marker, by the rule of
notes.Footnotes (a template is one page).
"""
import re
from typing import TypedDict

from .. import notes
from ...core import lang
from ...core.model import Block, Dropped, Note, Reading, Rules
from ...core.report import BuildLog
from ..decode import Line
from .common import ReadSource, LETTERED, NUMBERED, Format, looks_like_article, unreadable_heading



class Patterns(TypedDict):
    keyword: str
    names: tuple[str, ...]
    article: re.Pattern[str]
    template: re.Pattern[str]


@lang.compiled
def patterns(rules: lang.LanguageRules) -> Patterns:
    """The heading and template-name patterns in the words of a language's rules."""
    names = "|".join(map(re.escape, rules.TEMPLATE_NAMES))
    return {"keyword": rules.ARTICLE_WORD_PRINTED, "names": tuple(f"{n}:" for n in rules.TEMPLATE_NAMES),
            "article": re.compile(rf"^{re.escape(rules.ARTICLE_WORD_PRINTED)}[\s\u00a0]+(\d+)(?:[\s\u00a0]+(\S.*))?$"),
            "template": re.compile(rf"^(?:{names}):(?:(\d{{4}}):)?(\S*)")}


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    flog = log.for_file(source.name)
    words = patterns(lang.profile(source.language))
    ARTICLE, TEMPLATE_NAME, KEYWORD = words["article"], words["template"], words["keyword"]
    reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
    texts = [line for line in lines if not line.blank]
    bodies = {m.group(1) for line in texts if (m := notes.NUMBERED_BODY.match(line.text.strip()))}
    marked: list[tuple[int, int, Note]] = []  # (page, line, Note) of each marker
    feet: list[notes.Footnote] = []  # the footnotes
    for k, line in enumerate(texts):
        text = line.text.strip()
        if k == 0 and (m := TEMPLATE_NAME.match(text)):
            reading.dropped.append(Dropped(line.num, f"template name {text!r}: page context, not law text"))
            if m.group(1) and m.group(1) != source.edition:
                flog.damage(line.num, f"template name says edition {m.group(1)}, the manifest says {source.edition}",
                            "the manifest's edition is used")
            continue
        if m := ARTICLE.match(text):
            reading.blocks.append(Block("article", text, [line.num], cite=m.group(1)))
            if m.group(2):
                reading.blocks.append(Block("title", m.group(2), [line.num]))
            continue
        if looks_like_article(text, KEYWORD):
            reading.blocks.append(unreadable_heading(
                flog, line.num, text, f"'{KEYWORD}', the article number and the title, as in '{KEYWORD} 41' followed "
                                      f"by the title"))
            continue
        if m := notes.NUMBERED_BODY.match(text):
            feet.append(notes.Footnote(m.group(1), 0, [line.num], m.group(2)))
            continue
        if m := LETTERED.match(text):
            block = Block("heading", m.group(3), [line.num], cite=m.group(1) + m.group(2))
        elif m := NUMBERED.match(text):
            block = Block("list", m.group(3), [line.num], number=int(m.group(2)))
        else:
            block = Block("para", text, [line.num])
        block.text, numbers = notes.extract_numbered_markers(block.text, bodies)
        block.notes = [Note(text="", lines=[], form="numbered", number=n) for n in numbers]
        marked += [(0, line.num, note) for note in block.notes]
        reading.blocks.append(block)
    matched = notes.Footnotes(feet).match(marked)
    notes.give_texts(matched, flog)
    for footnote in matched.unused:
        # Kept where it stands, as the paragraph it is written as.
        flog.error(footnote.position, f"footnote {footnote.number}) has no marker in the text before it")
        at = next((k for k, b in enumerate(reading.blocks) if b.first_line > footnote.position), len(reading.blocks))
        reading.blocks.insert(at, Block("para", f"{footnote.number}) {footnote.text}", [footnote.position]))
    for block in reading.blocks:
        for note in block.notes:
            if not note.lines:
                flog.error(block.first_line, f"note marker {note.number}) has no footnote text")
    return reading


def has_name(texts: list[str], profile: lang.Profile) -> bool:
    return texts[0].startswith(patterns(profile)["names"])


def has_heading(texts: list[str], profile: lang.Profile) -> bool:
    article = patterns(profile)["article"]
    return any(article.match(t) for t in texts)


FORMAT = Format(
    "template", read, signs=((10, has_name), (40, has_heading)), notes=("numbered",),
    # The template writes section letters "A." and subsection numbers "1."; a list number where a
    # letter belongs (a section, an item) is the wiki's list markup, restored from evidence.
    rules=Rules(list_numbers={"section": "inferred", "subsection": "source", "item": "inferred"}))
