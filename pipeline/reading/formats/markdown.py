"""Reader for the Markdown master: an edition as the build writes it (build/<edition>/lawbook.md, described in
outputs/markdown.py), read back, and the same file edited by hand (docs/sources.md, "The Markdown master").

The file is read with markdown-it-py (CommonMark, its pipe tables) and mdit-py-plugins' footnotes, so what a
Markdown tool shows is what is read. Each node is a heading whose level is its level and whose attributes
give its citation and where its text first came from:

    ## Artikel 53 Accepteren van voor de beurt voorspelen {#53 origin="000_x.txt:4-30"}     (article)
    ### 53A Voor de beurt voorspelen behandeld als juist voorgespeeld {#53A}                (section)
    #### 50D2 {#50D2}   ##### 50D2(a) {#50D2a}   ###### 30B1(b)(i) {#30B1b.i}              (deeper levels)

A heading without {#…} is read from its own words ("### 53F Nieuw kopje"); where both are given they must
agree. The paragraphs and pipe tables after a heading are the node's text until the next heading; a
paragraph after a node's children is the node's own only after "<!-- text of 12C -->". Footnotes
([^17] with "[^17]: text") are notes at their markers; a label of digits is the note's number, "41-1" the
number 1 of article 41. A block quote headed "**Toelichting — NAME**" with its attribution line in italics is
commentary on the article above it; "*[Redactie bij 25: …]*" is a gap in the text of 25. Links are read as
their words: the references stage finds and resolves the citations in the words, as in any source.

Everything the reader cannot place (a list, a code block, an image, HTML, a heading that names no node, a
node outside its parent, a footnote without text or without a marker) is an error at its line with the fix;
its text is never read into another node.
"""
import html
import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin

from ...core import ids, lang, tree
from ...core.model import NO_LEAD_IN, NOTE_MARK, Block, Dropped, Gap, KeptRecord, Note, Reading, Rules, TableRow
from ...core.report import BuildLog, FileLog
from ..decode import Line
from .common import Format, ReadSource

# The level of each heading: "#" is the edition's title, "##" an article (or the introduction, the definitions,
# commentary on an article the sources lack), "###" … "######" the deeper levels.
LEVEL_OF_HEADING = {2: "article", 3: "section", 4: "subsection", 5: "item", 6: "subitem"}
HEADING_OF_LEVEL = {level: n for n, level in LEVEL_OF_HEADING.items()}
# The heading's attributes as the writer writes them, at the end of its raw text: {#53A origin="a.txt:3-5"}.
ATTRIBUTES = re.compile(r'(?<!\\)\{#(?P<anchor>[^\s{}"]+)(?P<pairs>(?:\s+[\w-]+="[^"]*")*)\s*\}\s*$')
PAIR = re.compile(r'([\w-]+)="([^"]*)"')
# A definition as the writer writes it: [**Alert**]{#def-alert}: its text.
DEFINITION = re.compile(r"^\[\*\*(?P<term>.+?)\*\*\]\{#def-[^}\s]+\}:[ \t]*(?P<text>.*)$", re.DOTALL)
FOOTNOTE_MARKER = re.compile(r"\[\^[^\]\s]+\]")
TEXT_OF = re.compile(r"^<!--\s*text of\s+(?P<cite>\S+)\s*-->\s*$")
CORRECTION = re.compile(r'^<!--\s*correction(?P<pairs>(?:\s+[\w-]+="[^"]*")+)\s*-->\s*$')
COMMENT = re.compile(r"^<!--.*-->\s*$", re.DOTALL)
# A footnote label the book numbers: "17"; a source that numbers per article: "41-1" (the article's number, 1).
# A sign the book marks a note with ("*", "**", "†"): a label of no letter or digit is the note's number too.
# Numbered per article, the article's part before it: "41-1", "def-*", "intro-2" (outputs/markdown.py,
# book_number_labels, note_label); a label of the notes' ID form ("53A-noot1") or a word ("nieuw") gives none.
# A number that names two notes of one article follows the note's ID form: "20F1-noot2-*".
BOOK_NUMBER = re.compile(r"^(?:(?P<article>\S+)-)?(?P<number>\d+|[^\w\s]+)$")

INTRODUCTION = "intro"  # the introduction's anchor (NodeId("2017/intro").anchor)
RULES = Rules(list_numbers={"section": "source", "subsection": "source", "item": "source", "subitem": "source"})


def parser() -> MarkdownIt:
    """CommonMark with pipe tables and footnotes: what the Markdown edition is written in."""
    return MarkdownIt("commonmark").use(footnote_plugin).enable("table")


@dataclass
class _Words:
    """The profile's words the writer puts around the law text, as patterns to read them back."""
    article: re.Pattern[str]
    remark: re.Pattern[str]
    commentary_head: re.Pattern[str]
    absent: re.Pattern[str]
    found_by_build: list[re.Pattern[str]]  # the gaps the build finds itself (corpus/finish.py), written again each time


def _template(profile: lang.Profile, english: str, whole: bool = True, **groups: str) -> re.Pattern[str]:
    """The profile's words for `english` ("Editorial note on %(cite)s: %(text)s") as a pattern, each %(name)s
    its group `groups[name]`; `whole`: the words are all the text, else its start."""
    words = profile.word(english)
    out, at = "", 0
    for m in re.finditer(r"%\((\w+)\)s", words):
        out += re.escape(words[at:m.start()]) + f"(?P<{m.group(1)}>{groups[m.group(1)]})"
        at = m.end()
    end = "$" if whole else r"(?=\s|$)"
    return re.compile("^" + out + re.escape(words[at:]) + end, re.DOTALL | re.IGNORECASE)


def _words(profile: lang.Profile) -> _Words:
    return _Words(article=_template(profile, "Article %(num)s", whole=False, num=r"\d+"),
                  remark=_template(profile, "Editorial note on %(cite)s: %(text)s", cite=r"[^\s:]+", text=".*"),
                  commentary_head=_template(profile, "Commentary — %(author)s", author=".*"),
                  absent=_template(profile, "the law text of article %(num)s is in none of the sources.", num=r"\S+"),
                  found_by_build=[_rule(profile.rules.GAP_ONLY_HEADING), _rule(profile.rules.GAP_NO_LEAD_IN)])


def _rule(words: str) -> re.Pattern[str]:
    """A language rule's sentence with {cite} and {first} ("De tekst van {cite} ontbreekt …") as a pattern."""
    parts = re.split(r"\{\w+\}", words)
    return re.compile("^" + r"\S+".join(re.escape(p) for p in parts) + "$")


@dataclass
class _Footnote:
    """One footnote's definition: its text (NOTE_MARK-free) and its lines."""
    text: str
    lines: list[int]
    used: bool = False


@dataclass
class _State:
    """What the reader has open while it walks the tokens."""
    open: dict[str, str] = field(default_factory=dict)  # level -> the citation of the node open there
    part: str | None = None  # "introduction", "definitions", "commentary" (on an absent article) or None
    article: str | None = None  # the article the text since the last article heading belongs to
    text_of: str | None = None  # the node a "<!-- text of … -->" gave the next paragraph to
    skip_absent: str | None = None  # the article whose "none of the sources" remark comes next
    group: int = 0

    def update(self, **values: object) -> None:
        for key, value in values.items():
            setattr(self, key, value)


class _Reader:
    def fix_heading(self) -> str:
        """The fix of a heading that names no node, with the book's own article word."""
        article = self.profile.word("Article %(num)s") % {"num": "53"}
        return (f"write the node's heading as the build writes it, e.g. '### 53A Heading {{#53A}}' (an article "
                f"'## {article} Title {{#53}}'; one '#' more for each level down)")

    def __init__(self, lines: list[Line], source: ReadSource, log: BuildLog) -> None:
        self.lines = lines
        self.source = source
        self.flog: FileLog = log.for_file(source.name)
        self.profile = lang.profile(source.language)
        self.words = _words(self.profile)
        self.reading = Reading(source.name, FORMAT.name, source.edition, [], rules=FORMAT.rules)
        self.md = parser()
        self.env: dict[str, object] = {}
        self.footnotes: dict[str, _Footnote] = {}
        self.state = _State()

    # -- places -----------------------------------------------------------------
    def line(self, token: Token) -> int:
        """The source line of a token's first line (token.map counts the file's lines from 0)."""
        index = token.map[0] if token.map else 0
        return self.lines[min(index, len(self.lines) - 1)].num

    def span(self, token: Token) -> list[int]:
        if not token.map:
            return [self.line(token)]
        start, end = token.map
        return [self.lines[i].num for i in range(start, min(end, len(self.lines))) if not self.lines[i].blank]

    def block(self, kind: str, text: str, lines: list[int], **values: object) -> Block:
        made = Block(kind, text, lines, group=self.state.group, **values)  # type: ignore[arg-type]
        self.reading.blocks.append(made)
        self.state.group += 1  # every Markdown block stands apart: no run of blocks is read as one
        return made

    def apart(self, lines: list[int], reason: str) -> None:
        """Lines that are no law text (the edition's title, the words the writer puts around commentary and gaps):
        in the report, never in a node."""
        self.reading.dropped.extend(Dropped(n, reason) for n in lines)

    # -- inline content -----------------------------------------------------------
    def inline(self, token: Token, line: int) -> tuple[str, list[Note]]:
        """The words of an inline token and its notes: text as written (escapes read), links as their
        words, a footnote marker as NOTE_MARK with its note."""
        out: list[str] = []
        notes: list[Note] = []
        for child in token.children or []:
            kind = child.type
            if kind in ("text", "code_inline"):
                out.append(child.content)
            elif kind in ("softbreak", "hardbreak"):
                out.append(" ")  # a line wrapped by hand: one paragraph, as a reader sees it
            elif kind == "footnote_ref":
                label = str(child.meta["label"])
                note = self.note(label, line)
                if note is not None:
                    out.append(NOTE_MARK)
                    notes.append(note)
            elif kind in ("link_open", "link_close"):
                continue  # a reference is its words: the references stage resolves them
            elif kind in ("em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close"):
                self.flog.damage(line, f"emphasis ({child.markup}) in the law text at line {line}",
                                 "its words are kept, the emphasis is not: the law text has none")
            elif kind == "image":
                self.flog.error(line, "an image in the law text: the corpus holds text only; remove the image or "
                                      "write what it shows in words")
            elif kind == "html_inline":
                self.flog.error(line, f"HTML in the law text ({child.content!r}): it is not law text; remove it, "
                                      "or write '\\<' for a '<' the law says")
            else:
                out.append(child.content)
        text = "".join(out)
        if stray := FOOTNOTE_MARKER.search(text):  # "[^x]" that the plugin left as text: no "[^x]: …" anywhere
            self.flog.error(line, f"a footnote marker without its footnote at line {line} ({stray.group()}): write "
                                  "its text as '[^label]: text' below the article, or remove the marker")
        return text.strip(), notes

    def note(self, label: str, line: int) -> Note | None:
        footnote = self.footnotes.get(label)
        if footnote is None:
            self.flog.error(line, f"footnote [^{label}] has no text: write '[^{label}]: …' below the article")
            return None
        footnote.used = True
        m = BOOK_NUMBER.match(label)
        number = m.group("number") if m else None
        return Note(footnote.text, list(footnote.lines), "footnote", number)

    # -- footnotes ------------------------------------------------------------------
    def collect_footnotes(self, tokens: list[Token]) -> list[Token]:
        """The footnotes' texts by label, taken out of the token stream (the plugin puts them at its end)."""
        body: list[Token] = []
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.type != "footnote_open":
                if token.type not in ("footnote_block_open", "footnote_block_close"):
                    body.append(token)
                i += 1
                continue
            label = str(token.meta["label"])
            j = i + 1
            inlines: list[Token] = []
            first: Token | None = None
            while tokens[j].type != "footnote_close":
                if tokens[j].type == "paragraph_open" and first is None:
                    first = tokens[j]
                if tokens[j].type == "inline":
                    inlines.append(tokens[j])
                j += 1
            line = self.line(first) if first is not None else 1
            if len(inlines) != 1:
                self.flog.error(line, f"footnote [^{label}] at line {line} holds {len(inlines)} paragraphs: a note "
                                      "is one paragraph; join them, or make the rest law text")
            words: list[str] = []
            for inline in inlines:
                text, notes = self.inline(inline, line)
                if notes:
                    self.flog.error(line, f"a footnote marker inside footnote [^{label}]: a note holds no note")
                words.append(text.replace(NOTE_MARK, ""))
            self.footnotes[label] = _Footnote(" ".join(words), self.span(first) if first is not None else [line])
            i = j + 1
        return body

    # -- blocks ---------------------------------------------------------------------
    def read(self) -> Reading:
        text = "\n".join(line.text for line in self.lines)
        tokens = self.collect_footnotes(self.md.parse(text, self.env))
        i = 0
        while i < len(tokens):
            i = self.token(tokens, i)
        footnotes = self.env.get("footnotes")
        refs = footnotes.get("refs", {}) if isinstance(footnotes, dict) else {}
        # (a footnote no marker names is not in the plugin's tokens at all: its line is found by its label)
        unused = [key[1:] for key, n in refs.items() if n == -1]
        for label in unused:
            at = re.compile(r"^\s{0,3}\[\^" + re.escape(label) + r"\]:")
            lines = [line.num for line in self.lines if at.match(line.text)] or [self.lines[0].num]
            self.footnotes[label] = _Footnote("", lines)
        for label, footnote in self.footnotes.items():
            if not footnote.used:
                self.flog.error(footnote.lines[0], f"footnote [^{label}] is marked nowhere: put '[^{label}]' where "
                                                   "the note belongs, or remove the footnote")
                self.apart(footnote.lines, f"footnote [^{label}], marked nowhere (error)")
        return self.reading

    def token(self, tokens: list[Token], i: int) -> int:
        """Reads the block at tokens[i]; returns the index after it."""
        token = tokens[i]
        kind = token.type
        if kind == "heading_open":
            self.heading(token, tokens[i + 1])
            return i + 3
        if kind == "paragraph_open":
            self.paragraph(tokens[i + 1], self.span(token))
            return i + 3
        if kind == "table_open":
            end = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
            self.table(tokens[i:end + 1], token)
            return end + 1
        if kind == "blockquote_open":
            end = self.closing(tokens, i, "blockquote_open", "blockquote_close")
            self.commentary(tokens[i + 1:end], token)
            return end + 1
        if kind == "html_block":
            m = TEXT_OF.match(token.content.strip())
            kept = CORRECTION.match(token.content.strip())
            if m:
                self.state.text_of = m.group("cite")
                self.apart(self.span(token), f"the mark that the text below it is text of {m.group('cite')}")
            elif kept:
                self.correction(kept, self.line(token))
            elif not COMMENT.match(token.content.strip()):
                self.flog.error(self.line(token), "HTML in the Markdown master: it is not law text; remove it")
            return i + 1
        line = self.line(token)
        what = {"bullet_list_open": "a list", "ordered_list_open": "a numbered list", "fence": "a code block",
                "code_block": "a code block (a line indented by four spaces)", "hr": "a horizontal rule"}
        name = what.get(kind, kind.removesuffix("_open").replace("_", " "))
        self.flog.error(line, f"{name} at line {line} cannot be placed: the law's numbering is written as headings "
                              f"('#### 50D2 {{#50D2}}', '##### 50D2(a) {{#50D2a}}') and its text as paragraphs; "
                              "rewrite it so, or escape the character that begins it ('\\-', '1\\.')")
        if kind.endswith("_open"):
            return self.closing(tokens, i, kind, kind.replace("_open", "_close")) + 1
        return i + 1

    @staticmethod
    def closing(tokens: list[Token], i: int, opening: str, closing: str) -> int:
        depth = 0
        for j in range(i, len(tokens)):
            depth += (tokens[j].type == opening) - (tokens[j].type == closing)
            if depth == 0:
                return j
        return len(tokens) - 1

    def heading(self, token: Token, inline: Token) -> None:
        line = self.line(token)
        level = int(token.tag[1])
        raw = inline.content
        attrs = ATTRIBUTES.search(raw)
        anchor = attrs.group("anchor") if attrs else None
        pairs = dict(PAIR.findall(attrs.group("pairs"))) if attrs else {}
        if attrs:  # the words without their attributes: the last text token ends with them
            last = next((c for c in reversed(inline.children or []) if c.type == "text"), None)
            cut = last.content.rfind("{#" + str(anchor)) if last is not None else -1
            if last is not None and cut >= 0:  # (its values read: entities decoded, so cut where it opens)
                last.content = last.content[:cut].rstrip()
        words, notes = self.inline(inline, line)
        self.state.text_of = None
        if level == 1:  # the edition's title: the manifest says which edition the file holds
            self.state.part = None
            return self.apart([line], "the edition's title")
        if anchor == "definitions" and level == 2:
            self.state.update(part="definitions", article=None, open={})
            return self.apart([line], "the heading of the definitions")
        if anchor and anchor.endswith("-toelichting") and level == 2:  # commentary on an article the sources lack
            self.state.update(part="commentary", article=anchor.removesuffix("-toelichting"), open={})
            self.state.skip_absent = self.state.article
            return self.apart([line], f"the heading of the commentary on article {self.state.article}")
        if anchor == INTRODUCTION and level == 2:
            self.state.update(part="introduction", article=None, open={})
            self.block("introduction", words, [line], cite="title", notes=notes)
            return
        if level not in LEVEL_OF_HEADING:
            return self.flog.error(line, f"heading level {level} at line {line}: {self.fix_heading()}")
        node_level = LEVEL_OF_HEADING[level]
        cite, label = self.citation(words, node_level)
        if anchor is not None and cite is not None and cite != anchor:
            return self.flog.error(line, f"the heading at line {line} says {cite} but its anchor is {{#{anchor}}}: "
                                         "make the two the same")
        cite = anchor or cite
        parts = ids.parse_citation(cite) if cite else None
        found = ids.NodeId.of(self.source.edition, cite) if parts else None
        if found is None or found.level != node_level:
            what = f"{cite} is not a citation of {'an' if node_level == 'article' else 'a'} {node_level}" if cite \
                else "the heading names no node"
            self.block_unplaced(line)
            return self.flog.error(line, f"{what} (heading level {level} at line {line}): {self.fix_heading()}")
        origin = self.origin(pairs.get("origin"), line)
        evidence = _entities(pairs["evidence"]) if "evidence" in pairs else None
        self.state.part = None
        if node_level == "article":
            self.state.update(article=found.cite, open={"article": found.cite})
            self.block("article", words, [line], cite=found.cite, origin=origin)  # (an article's number is never inferred)
            if label or notes:
                self.block("title", label, [line], notes=notes)
            return
        parent = found.parent
        parent_level = ids.LEVELS[ids.LEVELS.index(node_level) - 1]
        if parent is None or self.state.open.get(parent_level) != parent.cite:
            where = self.state.open.get(parent_level)
            self.block_unplaced(line)
            return self.flog.error(line, f"{found.cite} at line {line} stands under "
                                         f"{where or 'no ' + parent_level}: move it below the heading of "
                                         f"{parent.cite if parent else 'its article'}, or give it the number of a "
                                         f"node of {where or 'the article above it'}")
        self.state.open = {lvl: c for lvl, c in self.state.open.items()
                           if ids.LEVELS.index(lvl) < ids.LEVELS.index(node_level)}
        self.state.open[node_level] = found.cite
        num = str(found.parts[node_level])
        if node_level == "section":
            self.block("heading", label, [line], cite=num, notes=notes, origin=origin, evidence=evidence)
            return
        # Deeper levels are list entries below the section (structure's list rules, every number as written).
        number = int(num) if node_level == "subsection" else self.ordinal(num, node_level)
        depth = ids.LEVELS.index(node_level) - ids.LEVELS.index("section") - 1
        self.block("list", "", [line], number=number, level=depth, origin=origin, evidence=evidence,
                   cite=NO_LEAD_IN if pairs.get("lead-in") == "none" else None,
                   marker={"subsection": "number", "item": "letter", "subitem": "roman"}[node_level])
        if label or notes:
            self.block("heading", label, [line], notes=notes)  # its heading (cite None: the node just opened)

    def correction(self, kept: re.Match[str], line: int) -> None:
        """'<!-- correction kind="replace" was="…" … -->' below a node's heading: the record of a correction
        applied before the master was written, kept in that node."""
        node = self.deepest()
        if node is None or self.state.part is not None:
            return self.flog.error(line, f"the record of a correction at line {line} stands under no node: put it "
                                         "right below the heading of the node it corrected")
        pairs = [(k, _entities(v)) for k, v in PAIR.findall(kept.group("pairs"))]
        self.reading.records.append(KeptRecord(line, node, pairs))

    def block_unplaced(self, line: int) -> None:
        """After a heading that cannot be placed, its text is set aside until the next heading."""
        self.state.update(open={}, article=None, part="unplaced")
        self.apart([line], "a heading that cannot be placed (error)")

    def citation(self, words: str, level: str) -> tuple[str | None, str]:
        """(the citation the heading's words give, the rest: its title or heading)."""
        if level == "article":
            m = self.words.article.match(words)
            return (m.group("num"), words[m.end():].strip()) if m else (None, words)
        head, _, rest = words.partition(" ")
        typed = ids.read_typed(head)
        return (typed[1] if typed else None), rest.strip()

    @staticmethod
    def ordinal(num: str, level: str) -> int:
        if level == "subitem":
            return ids.roman_value(num)
        return ord(num) - ord("a") + 1

    def origin(self, value: str | None, line: int) -> str | None:
        """The origin="…" attribute: where the node's text first came from, in the form of `sources`."""
        if value is None:
            return None
        try:
            parsed = tree.parse_sources(value)
        except ValueError:
            parsed = {}
        if not parsed:
            self.flog.error(line, f"origin=\"{value}\" at line {line} does not read as a source's lines: write "
                                  "it as the build does (origin=\"file.txt:3-5,9\"), or remove it")
            return None
        return tree.format_sources(parsed)

    def paragraph(self, inline: Token, lines: list[int]) -> None:
        line = lines[0]
        state = self.state
        remark = self.remark(inline)
        if remark is not None:
            return self.gap(*remark, lines)
        text, notes = self.inline(inline, line)
        raw = inline.content.strip()
        if state.part == "unplaced":
            self.apart(lines, "text under a heading that cannot be placed (error)")
            return self.flog.error(line, f"the paragraph at line {line} stands under a heading that cannot be "
                                         "placed: correct that heading")
        if state.part == "definitions":
            m = DEFINITION.match(raw)
            if not m:
                return self.flog.error(line, f"the paragraph at line {line} in the definitions is no definition: "
                                             "write it as '[**Term**]{#def-term}: its text'")
            term, _ = self.inline(self.md.parseInline(m.group("term"), self.env)[0], line)
            body, notes = self.inline(self.md.parseInline(m.group("text"), self.env)[0], line)
            self.block("definition", body, lines, cite=term, notes=notes)
            return
        if state.part == "introduction":
            self.block("introduction", text, lines, notes=notes)
            return
        if state.part == "commentary":
            return self.flog.error(line, f"the paragraph at line {line} stands under the heading of commentary on "
                                         f"article {state.article} outside the commentary's block quote: begin it "
                                         "with '> ', or give it an article heading")
        target = state.text_of
        state.text_of = None
        if target is not None and target not in state.open.values():
            return self.flog.error(line, f"'<!-- text of {target} -->' before line {line}, but {target} is not a "
                                         "node above it: name the node the paragraph belongs to")
        self.block("para", text, lines, notes=notes, cite=target if target and target != self.deepest() else None)

    def gap(self, cite: str, reason: str, lines: list[int]) -> None:
        """An editorial note: a gap the reader of the first source found (kept), or one the build finds itself
        each time from what a node lacks (left to it: text written into the node since makes it go)."""
        line = lines[0]
        state = self.state
        if state.skip_absent and cite == state.skip_absent and self.words.absent.match(reason):
            state.skip_absent = None  # the writer's own words for an article the sources lack
            return self.apart(lines, f"the remark that article {cite} is in none of the sources")
        if any(p.match(reason) for p in self.words.found_by_build):
            return self.apart(lines, f"the editorial note on {cite}: a gap the build finds again from the text")
        typed = ids.read_typed(cite)
        if typed is None or ids.parse_citation(typed[1]) is None:
            example = self.profile.word("Editorial note on %(cite)s: %(text)s") % {"cite": "25", "text": "…"}
            return self.flog.error(line, f"the editorial note at line {line} names no node ({cite!r}): write "
                                         f"'*\\[{example}\\]*' with the node's number")
        self.reading.gaps.append(Gap(line, typed[1], f"gap kept from the Markdown master: {reason}", reason))
        self.apart(lines, f"the editorial note on {cite}: in the corpus as its gap")

    def deepest(self) -> str | None:
        for level in reversed(ids.LEVELS):
            if level in self.state.open:
                return self.state.open[level]
        return None

    def remark(self, inline: Token) -> tuple[str, str] | None:
        """An editorial remark the writer writes ('*\\[Editorial note on 25: …\\]*' in the book's words): (its node,
        its words)."""
        children = inline.children or []
        if len(children) < 3 or children[0].type != "em_open" or children[-1].type != "em_close":
            return None
        words = "".join(c.content for c in children[1:-1] if c.type in ("text", "softbreak"))
        if not (words.startswith("[") and words.endswith("]")):
            return None
        m = self.words.remark.match(words[1:-1])
        return (m.group("cite"), m.group("text")) if m else None

    def table(self, tokens: list[Token], opening: Token) -> None:
        lines = self.span(opening)
        rows: list[TableRow] = []
        notes: list[Note] = []
        row: list[str] | None = None
        index = 0
        for token in tokens:
            if token.type == "tr_open":
                row = []
                line = lines[min(index, len(lines) - 1)]
                index += 1 if index != 0 else 2  # (the delimiter row below the header row is no row)
                rows.append(TableRow(line, row))
            elif token.type == "inline" and row is not None:
                text, cell_notes = self.inline(token, rows[-1].line)
                row.append(text)
                notes.extend(cell_notes)
        if self.state.part == "unplaced":
            return self.flog.error(lines[0], f"the table at line {lines[0]} stands under a heading that cannot be "
                                             "placed: correct that heading")
        for r in rows:  # the writer pads every row to the widest with empty cells: they are not the corpus's
            while r.cells and not r.cells[-1]:
                r.cells.pop()
        target = self.state.text_of
        self.state.text_of = None
        self.block("table", " ".join(c for r in rows for c in r.cells), lines, rows=rows, notes=notes,
                   cite=target if target and target != self.deepest() else None)

    def commentary(self, tokens: list[Token], opening: Token) -> None:
        line = self.line(opening)
        paragraphs = [(tokens[k - 1], t) for k, t in enumerate(tokens) if t.type == "inline"]
        if not paragraphs:
            return None
        article = self.state.article
        head = paragraphs[0][1]
        children = head.children or []
        strong = "".join(c.content for c in children if c.type == "text")
        if not any(c.type == "strong_open" for c in children) or not self.words.commentary_head.match(strong.strip()):
            return self.flog.error(line, f"a block quote at line {line} that is not commentary: commentary begins "
                                         f"'> **{self.profile.word('Commentary — %(author)s') % {'author': 'NAME'}}**'; "
                                         "law text is never quoted")
        if article is None:
            return self.flog.error(line, f"commentary at line {line} before any article: put it below the article "
                                         "it is on")
        rest = paragraphs[1:]
        first_child = (rest[0][1].children or [])[:1] if rest else []
        if not first_child or first_child[0].type != "em_open":
            return self.flog.error(line, f"the commentary at line {line} has no attribution line: write the line "
                                         "that says who wrote it, in italics ('> *…*'), below its heading")
        self.apart([n for n in self.span(opening) if n not in self.span(rest[0][0])
                    and not any(n in self.span(p) for p, _ in rest[1:])],
                   f"the heading and the '>' lines of the commentary on article {article}")
        attribution = "".join(c.content for c in rest[0][1].children or [] if c.type in ("text", "softbreak"))
        self.block("attribution", attribution.strip(), self.span(rest[0][0]), cite=article)
        for opening_p, inline in rest[1:]:
            text, notes = self.inline(inline, self.line(opening_p))
            self.block("commentary", text, self.span(opening_p), notes=notes)


def _entities(value: str) -> str:
    """A value the writer wrote with its markup as entities (outputs/markdown.py, comment_value), as it was."""
    return html.unescape(value)


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    return _Reader(lines, source, log).read()


def is_markdown(texts: list[str], profile: lang.Profile) -> bool:
    """The Markdown edition: its first line the edition's title ("# …"), and article headings with their
    anchors ("## Article 53 … {#53}", in the book's words)."""
    article = re.compile(rf"^##\s+{re.escape(profile.rules.ARTICLE_WORD)}\s+\d+\b.*\{{#\d+[\s}}]", re.IGNORECASE)
    return bool(texts) and texts[0].startswith("# ") and any(article.match(t) for t in texts)


FORMAT = Format("markdown", read, signs=((5, is_markdown),), notes=("footnote",), rules=RULES)
