"""The Markdown edition: build/<edition>/lawbook.md, for wikis and other tools, and the committee's master:
reading/formats/markdown.py reads it back to the corpus it was written from (docs/sources.md).

One file per edition, CommonMark with two widely supported extensions:

    # Spelregels voor Wedstrijdbridge — uitgave 2017
    ## Artikel 53 Accepteren van voor de beurt voorspelen {#53}
    ### 53A Voor de beurt voorspelen behandeld als juist voorgespeeld {#53A}
    #### 50D2 {#50D2}                      (subsection: heading level 4)
    ##### 50D2a {#50D2a}                   (item: heading level 5)
    ###### 30B1(b)(i) {#30B1b.i}           (subitem: heading level 6, the law's own form)
    text with [artikel 47E1](#47E1) and a note[^53A-noot1].

    [^53A-noot1]: the note's text
    text with a note the book numbers[^17].             (its label: the book's number)

    [^17]: the note's text

Heading attributes ({#53A}: pandoc, kramdown, Hugo, MkDocs attr_list) give every
node its citation as anchor, so references are links within the file, and what only the master says
(heading_attributes: origin="…", evidence="…", lead-in="none"; a correction's record and "text of"
as comments, which no Markdown tool shows); footnotes
([^…]) follow each article. A note the book numbers has the book's number as its label ([^17]; a note
cited twice is one footnote cited twice); in an edition whose sources number notes per article, the
article's number and it ([^41-1]); a note without a number keeps its place's label ([^53A-noot1]), and a number
that names two notes of one article follows that label ([^20F1-noot2-*]). A note
marked in a title or heading stands there ("## Law 9 Penalty Cards[^2] {#9}"). A reference the corpus cannot resolve stays plain text.
A gap is an emphasised editorial remark naming its node ("*[Redactie bij 57B: …]*"); commentary is a block
quote headed "**Toelichting — Peter**", never a heading, so it is never read as law.
A table is a pipe table (the GFM extension: pandoc, GitHub, MkDocs, markdown-it-py's "gfm-like"), its first
row the header row (the corpus does not say which row is the head; the printed tables of the Laws start
with one), every row padded to the widest with empty cells; a cell's note is a footnote like a
paragraph's, and a "|" in a cell is escaped.
Each paragraph is one line. Characters Markdown would read as markup are escaped,
so reading the file back (markdown-it-py) gives exactly the corpus text. The words around the law
text (headings, remarks) are the language profile's (text.py), escaped like the text.
"""
import re
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import ids, lang, tree
from ..core.stage import SIDE, Stage
from ..core.view import CorpusView, Edition, Node, Note, optional_id
from .text import UNRESOLVED, profile_of, title

if TYPE_CHECKING:
    from .job import Job

HEADING_LEVEL = {"article": 2, "section": 3, "subsection": 4, "item": 5, "subitem": 6}

# Inline markup characters: emphasis, links, code, HTML, heading attributes, tables, strikethrough.
_INLINE = re.compile(r"([\\`*_\[\]<>{}|~])")
# Entity-like text (&amp; &#38;) would be decoded by a reader; the & is escaped so it stays as written.
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
# What would open a block at the start of a line: heading, quote, list, rule, setext underline.
_BLOCK_START = re.compile(r"^(#|>|[-+*=]|\d+[.)])")


def escape(text: str, line_start: bool = False) -> str:
    """`text` as Markdown that renders as exactly `text`."""
    out = _INLINE.sub(r"\\\1", text)
    out = _ENTITY.sub(r"\\&", out)
    out = out.replace("!\\[", "\\!\\[")
    if line_start:
        out = out.lstrip(" \t")  # leading blanks would be dropped (or make code) anyway
        m = _BLOCK_START.match(out)
        if m:
            token = m.group(1)
            out = (token[:-1] + "\\" + token[-1]) + out[len(token):]
    return out


def _parsed(node_id: str) -> ids.NodeId:
    """The NodeId of an ID the corpus wrote as a value (a reference's target, the `on` of a commentary)."""
    parsed = ids.NodeId.parse(node_id)
    if parsed is None:
        raise ValueError(f"not an ID: {node_id!r}")
    return parsed


def _one_line(text: str) -> str:
    """Running text on one line: line breaks inside a paragraph are spaces to a reader."""
    return re.sub(r"[ \t]*\n[ \t]*", " ", text)


class Writer:
    """Writes one edition in the words of `profile`, the book's language; collects each article's
    footnotes to place them after the article."""

    def __init__(self, corpus: tree.Element, edition: str, profile: lang.Profile) -> None:
        self.edition = edition
        self.profile = profile
        self.corpus = CorpusView(corpus)  # (its nodes: what a reference may link to, in any edition)
        self.lines: list[str] = []
        self.footnotes: list[tuple[str, tree.Element]] = []
        self.defined: set[str] = set()  # the labels whose footnote is written (a note cited twice is written once)
        self.labels = book_number_labels(corpus, edition)

    def inline(self, el: tree.Element, line_start: bool = True) -> str:
        """Mixed content of <p>, <note> or <attribution>: text escaped, refs as links, notes as [^label]."""
        parts: list[str] = []
        first = True
        after_note = False

        def text(s: str | None) -> None:
            nonlocal first, after_note
            if s:
                out = escape(_one_line(s), line_start and first)
                if after_note and out.startswith("("):
                    out = "\\" + out  # '[^n](…' would read as a link
                parts.append(out)
                first = after_note = False

        for kind, words, child in tree.inline(el):
            if kind == tree.NOTE:
                assert child is not None  # (a note's event is its element: tree.inline)
                label = self.note_label(child)
                self.footnotes.append((label, child))
                parts.append(f"[^{label}]")
                first = False
                after_note = True
            elif kind == tree.REF:
                assert child is not None and words is not None  # (a reference's event has its element and words)
                targets = (child.get("to") or "").split()
                shown = escape(_one_line(words), line_start and first)
                if targets and targets[0] in self.corpus and child.get("status") not in UNRESOLVED:
                    parts.append(f"[{shown}]({self.anchor(targets[0])})")
                else:
                    parts.append(shown)
                first = after_note = False
            else:
                text(words)
        return "".join(parts).strip()

    def anchor(self, node_id: str) -> str:
        """A link target: '#47E1' within this edition's file, '../2007/lawbook.md#41A' across editions."""
        target = _parsed(node_id)
        if target.edition == self.edition:
            return f"#{target.anchor}"
        return f"../{target.edition}/lawbook.md#{target.anchor}"

    def note_label(self, note: tree.Element) -> str:
        """The book's number where the note has one ('17', see book_number_labels); else its ID's
        anchor, 2017/53A/noot1 -> '53A-noot1': unique in the edition, readable in the source; and a number
        that names two notes of one article after it, '20F1-noot2-*', so that reading the file back keeps it."""
        if label := self.labels.get(Note(note).id):
            return label
        anchor = Note(note).node_id.anchor
        number = tree.note_number(note)
        return f"{anchor}-{number}" if number else anchor

    def block(self, text: str) -> None:
        self.lines += [text, ""]

    def table(self, el: tree.Element) -> str:
        """A <table> as a pipe table: the first row its header row, a delimiter row, then the other rows; each
        row as wide as the widest (empty cells added); each cell's content inline, on one line."""
        rows = [[self.inline(cell, line_start=False) for cell in row] for row in tree.cells(el)]
        width = max(len(row) for row in rows)
        lines = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in rows]
        lines.insert(1, "|" + "|".join(["---"] * width) + "|")
        return "\n".join(lines)

    def text_block(self, el: tree.Element) -> str:
        """A paragraph (one line) or a table (a pipe table) of a node, the introduction or a definition."""
        return self.table(el) if el.tag == "table" else self.inline(el)

    def say(self, english: str, **values: str) -> str:
        """The profile's words for `english`, escaped, with `values` (Markdown already) put in."""
        return escape(self.profile.word(english)) % values

    def node(self, el: tree.Element) -> None:
        node_id = Node(el).id
        cite = ids.cite_of(node_id)
        shown = ids.shown(node_id)
        label = tree.label(el)
        words = self.say("Article %(num)s", num=cite) if el.tag == "article" else shown
        if label is not None and (label.text or len(label)):
            words += " " + self.inline(label, line_start=False)  # its words, and a note marked in them
        self.block(f"{'#' * HEADING_LEVEL[el.tag]} {words} {{#{cite}{heading_attributes(el)}}}")
        for corr in el.iterchildren("corr"):  # what the source said before a correction, and why: kept, unseen
            self.block(f"{CORRECTION} " + " ".join(f'{k!s}="{comment_value(str(v))}"' for k, v in corr.attrib.items())
                       + " -->")
        after_child = False  # text after a child node is the node's own: said so, or a reader gives it to the child
        for child in el:
            if child.tag in tree.TEXT_TAGS:
                if after_child:
                    self.block(f"{TEXT_OF} {cite} -->")
                self.block(self.text_block(child))
            elif child.tag == "gap":
                # The remark names its node: after subsections it would otherwise read as the last one's.
                remark = self.say("Editorial note on %(cite)s: %(text)s", cite=shown,
                                  text=escape(_one_line(tree.attr(child, "reason"))))
                self.block(f"*\\[{remark}\\]*")
            elif child.tag in tree.NODE_TAGS:
                self.node(child)
                after_child = True

    def commentary(self, el: tree.Element) -> None:
        attribution = el.find("attribution")
        quote = [f"**{self.say('Commentary — %(author)s', author=escape(el.get('author') or ''))}**"]
        if attribution is not None:
            quote.append(f"*{self.inline(attribution)}*")
        quote += [self.inline(p) for p in el.iterchildren("p")]
        self.block("\n>\n".join(f"> {q}" for q in quote))

    def flush_footnotes(self) -> None:
        for label, note in self.footnotes:
            if label not in self.defined:
                self.defined.add(label)
                self.block(f"[^{label}]: {self.inline(note)}")
        self.footnotes = []

    def write(self, edition_el: tree.Element) -> str:
        """The whole edition: articles in order, each followed by its commentary, then its footnotes.
        Commentary on an article the sources lack gets a heading of its own (never an article heading)."""
        self.block(f"# {escape(title(self.profile))} — {self.say('edition %(edition)s', edition=self.edition)}")
        edition = Edition(edition_el)
        introduction = edition.introduction
        if introduction is not None:  # the book's Introduction, before its Definitions
            self.block(f"## {escape(_one_line(introduction.title or ''))} {{#{introduction.node_id.anchor}}}")
            for p in introduction.texts:
                self.block(self.text_block(p))
            self.flush_footnotes()
        if edition_el.find("definitions") is not None:  # the book's Definitions, before its first article
            self.block(f"## {self.say('Definitions')} {{#definitions}}")
            for d in edition.definitions:
                self.block(f"[**{escape(d.term)}**]{{#def-{d.slug}}}: "
                           + " ".join(self.inline(p) for p in d.element.iter("p")))
                for table in d.element.iterchildren("table"):  # after the term's line, as its own block
                    self.block(self.table(table))
            self.flush_footnotes()
        commentary: dict[str, list[tree.Element]] = {}
        for remark in edition.commentary:
            article = _parsed(remark.target).article_id.in_edition(self.edition)
            commentary.setdefault(str(article), []).append(remark.element)
        articles = {a.id: a.element for a in edition.articles}
        order = sorted(set(articles) | set(commentary), key=lambda i: ids.sort_key(ids.cite_of(i)))
        for article_id in order:
            if article_id in articles:
                self.node(articles[article_id])
            else:
                num = ids.cite_of(article_id)
                self.block(f"## {self.say('Commentary on article %(num)s', num=num)} {{#{num}-toelichting}}")
                missing = self.say("the law text of article %(num)s is in none of the sources.", num=num)
                self.block(f"*\\[{self.say('Editorial note on %(cite)s: %(text)s', cite=num, text=missing)}\\]*")
            for c in commentary.get(article_id, []):
                self.commentary(c)
            self.flush_footnotes()
        return "\n".join(self.lines).rstrip("\n") + "\n"


# The comment before a paragraph that is text of a node after its children ("The Director then rules." after
# the last item of a list): invisible where the file is shown, read back by reading/formats/markdown.py.
TEXT_OF = "<!-- text of"


# The comment that keeps a correction's record (<corr>) below its node's heading, read back by the master's reader.
CORRECTION = "<!-- correction"


# What an attribute's value never holds as itself: what would end the value or the comment, and Markdown's markup
# ("_" stays: inside a word, as in a file name, it is no emphasis, and the evidence names files).
_NOT_IN_VALUE = re.compile(r'[&"<>{}*\[\]\\`~|#]')


def comment_value(value: str) -> str:
    """An attribute's value in a heading or a comment, every character that would end it or be markup ('&', '"',
    '<', '>', '{', '*', '[' …) as its numeric entity ('&#42;'), which reading the file back decodes."""
    return _NOT_IN_VALUE.sub(lambda m: f"&#{ord(m.group())};", value)


def markup_free(sources: str) -> str:
    """A `sources` value with every character of its file names but letters, digits and '.:,-_~' as the percent
    escape of its UTF-8 bytes, as the value's own escapes are (tree.format_sources): a name holds no markup
    in the file ('<b>', '&amp;', '"', '}' …), and reading the value gives the same files and lines."""
    return " ".join(urllib.parse.quote(token, safe=":,-._~%") for token in sources.split(" "))


def heading_attributes(el: tree.Element) -> str:
    """A heading's attributes after its citation, what a reader of the file could not tell from its text:
    ' origin="004_x.txt:4-30"', where the node's text first came from (its `origin` when it was read from a master
    that says so, else its `sources`; its file names free of markup, markup_free); for a number the build inferred, its evidence
    (' evidence="…"', written as comment_value writes), so a build from the file still says the number was
    inferred, and from what; ' lead-in="none"' where the source wrote the node's number right before its first
    child's ("1.(a) if …", corpus/finish.py): the node has no text of its own, and none is missing."""
    where = el.get("origin") or el.get("sources")
    out = f' origin="{markup_free(where)}"' if where else ""
    if el.get("numbering") == "inferred" and (evidence := el.get("evidence")):
        out += f' evidence="{comment_value(evidence)}"'
    if el.tag != "article" and _without_lead_in(el):
        out += ' lead-in="none"'
    return out


def _without_lead_in(el: tree.Element) -> bool:
    """No text and no gap of its own before its first child, whose text starts in lower case: what the build
    reads as a node without lead-in (else it would have written the gap of its missing lead-in)."""
    if any(c.tag in (*tree.TEXT_TAGS, "gap") for c in el):
        return False
    children = tree.child_nodes(el)
    p = children[0].find("p") if children else None
    return p is not None and tree.plain_text(p).strip()[:1].islower()


def book_number_labels(corpus: tree.Element, edition_id: str) -> dict[str, str]:
    """{note ID: label} for the notes of one edition that the book numbers. A book that numbers its
    notes through (every number names one note; a footnote cited twice is one footnote): the number
    itself, '17'. A source that numbers them per article (the same number names different notes):
    the article's number and it, '41-1', for every numbered note of the edition alike; a number that
    names two notes within one article gets no label here (the note keeps its ID's)."""
    notes = CorpusView(corpus).edition(edition_id).notes()
    # (the Introduction's notes have no article: their part of the book, "intro", stands for it)
    numbered = [(note_id, ids.cite_of(ids.article_of(note_id) or note_id), number, " ".join(n.text.split()))
                for n in notes if (number := n.number) and (note_id := optional_id(n.element))]
    texts: dict[str, set[str]] = {}
    in_article: dict[tuple[str, str], set[str]] = {}
    for _, article, number, text in numbered:
        texts.setdefault(number, set()).add(text)
        in_article.setdefault((article, number), set()).add(text)
    if all(len(said) == 1 for said in texts.values()):
        return {note_id: number for note_id, _, number, _ in numbered}
    return {note_id: f"{article}-{number}" for note_id, article, number, _ in numbered
            if len(in_article[(article, number)]) == 1}


def render(corpus: tree.Element, edition_id: str, profile: lang.Profile) -> str:
    """The Markdown text of one edition of the corpus tree, in the words of `profile`, the book's language."""
    return Writer(corpus, edition_id, profile).write(CorpusView(corpus).edition(edition_id).element)


def write_markdown(job: "Job") -> list[Path]:
    """Reads: job.corpus (with <ref> when the references stage marked them).
    Writes: <edition>/lawbook.md per edition (UTF-8, LF, no timestamps); returns the files written.
    An edition unchanged since the last build is copied from there (job.previous): its file depends
    on that edition alone, as every reference resolves within its own edition."""
    written = []
    for edition in CorpusView(job.corpus).editions:
        edition_id = edition.id
        target = job.tmp / edition_id / "lawbook.md"
        if job.previous.reuse(edition_id, [f"{edition_id}/lawbook.md"]):
            written.append(target)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(job.corpus, edition_id, profile_of(job)), encoding="utf-8")
        written.append(target)
    return written


STAGES = [Stage("write_markdown", write_markdown, reads=("corpus", "previous", "profile", "tmp"),
                files=("<edition>/lawbook.md",), lane=SIDE)]
