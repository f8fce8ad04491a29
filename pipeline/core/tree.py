"""The corpus tree: the one model every stage after `structure` works on (lxml).

    <corpus language="nl">  (the book's language, its profile's code: from finish_corpus on)
      <edition id="2017">
        <introduction id="2017/intro" sources="…"><title>…</title><p>…</p></introduction>  (these two where the sources hold them)
        <definitions><definition id="2017/def/alert" term="Alert" sources="…"><p>…</p></definition></definitions>
        <article id="2017/53" num="53" sources="000_….txt:3-17 001_….txt:3-17">
          <title>Accepteren van voor de beurt voorspelen</title>
          <section id="2017/53A" num="A" numbering="inferred" evidence="…">
            <heading>…</heading>
            <p sources="…">text<note form="inline" id="2017/53A/noot1">…</note> text</p>
            <p sources="…">text<note form="print" num="17" id="2017/53A/noot2">…</note> text</p>
            <subsection …><item …><subitem …/></item></subsection>
          </section>
          <gap reason="…"/>
        </article>
        <commentary id="2017/54/toelichting1" on="2017/54" author="Peter">…</commentary>
      </edition>
    </corpus>

Paragraph text is mixed content: a <note> stands exactly where its marker stood,
and (from the references stage on) <ref> elements wrap the words that cite. A note's `num` is the
number the book prints at its marker ("17"; a note cited twice has the same number both times),
absent where the source numbers none (the wiki's inline notes). A <title> or <heading> holds notes
the same way (a marker at the end of an article's title); its words alone are tree.label_text(el).

A table stands where a <p> may (in a node, the introduction, a definition), in order among them:

    <table sources="…">
      <row sources="…"><cell>Verschil in punten</cell><cell>IMP's</cell></row>
      <row sources="…"><cell>20–40</cell><cell>1<note …>…</note></cell></row>
    </table>

its rows in order, each with the source line it was printed on, each row's cells left to right. A
<cell> is mixed content like a <p> (text, notes where their markers stood, refs) without sources of
its own: its row's are its provenance (tree.provenance). The table's sources hold all its lines, and
its node's sources them too. The corpus does not say which row is the table's head: the outputs set
the first row as its head (the printed tables of the Laws start with one). tree.cells(table) gives
the cells row by row; plain_text(table) is the cells' words joined by single spaces, row after row,
as the reader gives a table's text: what an output that cannot show a table writes. A <table> and a
<row> are no mixed content (inline() walks a cell, never them).
"""

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from urllib.parse import quote, unquote

from lxml import etree

from . import ids
from .model import NOTE_MARK, Note

# An element of the corpus tree.
Element = etree._Element
# What a node's `sources` attribute says: the lines of each source file.
Sources = dict[str, set[int]]

NODE_TAGS = ids.LEVELS  # article, section, subsection, item, subitem


# -- what the tree's shape (above) says is there ------------------------------------------------------
# lxml answers None for an absent attribute, child or parent; these say where the shape promises one,
# and a tree that breaks the promise is a fault in the stage that made it, named here.
def attr(el: Element, name: str) -> str:
    """The attribute `name` that every element like `el` has (a node's id and num, a commentary's on)."""
    value = el.get(name)
    if value is None:
        raise ValueError(f"<{el.tag}> without its {name} attribute, which the corpus tree gives every one")
    return value


def child(el: Element, tag: str) -> Element:
    """The first <tag> child that every element like `el` has (a definition's <p>)."""
    found = el.find(tag)
    if found is None:
        raise ValueError(f"<{el.tag}> {el.get('id', '')} without its <{tag}>, which the corpus tree gives every one")
    return found


def parent(el: Element) -> Element:
    """The parent of an element below the root."""
    found = el.getparent()
    if found is None:
        raise ValueError(f"<{el.tag}> {el.get('id', '')} has no parent")
    return found


def new_corpus() -> Element:
    return etree.Element("corpus")


def edition(corpus: Element, edition_id: str) -> Element:
    for el in corpus.iterchildren("edition"):
        if el.get("id") == edition_id:
            return el
    el = etree.Element("edition", id=edition_id)
    # Editions in chronological order.
    for other in corpus.iterchildren("edition"):
        if (other.get("id") or "") > edition_id:
            other.addprevious(el)
            return el
    corpus.append(el)
    return el


def child_nodes(el: Element) -> list[Element]:
    return [c for c in el if c.tag in NODE_TAGS]


def find_child(parent: Element, num: str) -> Element | None:
    for c in child_nodes(parent):
        if c.get("num") == num:
            return c
    return None


def add_child(parent: Element, tag: str, num: str, node_id: str) -> Element:
    """A new structural child, placed in number order among its siblings."""
    el = etree.Element(tag, id=node_id, num=num)
    key = ids.sort_key(num, tag)
    for sibling in child_nodes(parent):
        if sibling.tag == tag and ids.sort_key(sibling.get("num", ""), tag) > key:
            sibling.addprevious(el)
            return el
    parent.append(el)
    return el


def append_child(parent: Element, tag: str, num: str, node_id: str) -> Element:
    """A new structural child numbered after every sibling of its level (add_child's place for it, found
    without a look at the siblings)."""
    el = etree.SubElement(parent, tag, id=node_id, num=num)
    return el


# In the `sources` attribute a file name is written so that the list cannot be misread, whatever the name
# the manifest accepted: "%" and every character that would split or blur the list (whitespace, which
# separates the files, and control characters) as the percent escapes of its UTF-8 bytes (urllib's
# `quote`, read back by `unquote`: "mijn bron.txt" is "mijn%20bron.txt"); every other character, colons
# and any other letter included, as it is. The names of the five sources hold none of these.
ESCAPED_IN_SOURCES = re.compile(r"[%\s\x00-\x1f\x7f-\x9f]")


def _quote_name(name: str) -> str:
    return ESCAPED_IN_SOURCES.sub(lambda m: quote(m.group(), safe=""), name)


def parse_sources(value: str | None) -> Sources:
    """'a.txt:3-5,9 b.txt:3' -> {'a.txt': {3, 4, 5, 9}, 'b.txt': {3}}; 'mijn%20bron.txt:3' -> {'mijn bron.txt': {3}}"""
    out: Sources = {}
    for token in (value or "").split():
        quoted, _, spans = token.rpartition(":")
        lines = out.setdefault(unquote(quoted, errors="strict"), set())
        for span in spans.split(","):
            a, _, b = span.partition("-")
            lines.update(range(int(a), int(b or a) + 1))
    return out


def format_sources(sources: Mapping[str, Iterable[int]]) -> str:
    """The `sources` attribute of the lines of each file: parse_sources(format_sources(s)) == s for every
    file name (see ESCAPED_IN_SOURCES)."""
    tokens = []
    for name in sorted(sources):
        nums = sorted(sources[name])
        spans: list[str] = []
        start: int | None = None
        for i, n in enumerate(nums):
            if start is None:
                start = n
            if i + 1 == len(nums) or nums[i + 1] != n + 1:
                spans.append(f"{start}-{n}" if n != start else f"{n}")
                start = None
        tokens.append(f"{_quote_name(name)}:{','.join(spans)}")
    return " ".join(tokens)


def format_places(places: Iterable[str]) -> str:
    """"file:line" places (refs.Reference.locations) in one string, as the `sources` attribute writes them:
    each file's name escaped (ESCAPED_IN_SOURCES), the places separated by a space."""
    out = []
    for place in places:
        name, _, line = place.rpartition(":")
        out.append(f"{_quote_name(name)}:{line}")
    return " ".join(out)


def add_sources(el: Element, file: str, lines: Iterable[int]) -> None:
    sources = parse_sources(el.get("sources"))
    sources.setdefault(file, set()).update(lines)
    el.set("sources", format_sources(sources))


def merge_sources(el: Element, other: Element) -> None:
    sources = parse_sources(el.get("sources"))
    for name, lines in parse_sources(other.get("sources")).items():
        sources.setdefault(name, set()).update(lines)
    el.set("sources", format_sources(sources))


def make_paragraph(text: str, notes: list[Note], file: str, lines: list[int], tag: str = "p") -> Element:
    """A <p> (or a <title>, <heading>: `tag`) from text with NOTE_MARK at each marker and the notes in
    marker order; each note keeps the number the source printed at its marker (`num`), where it had one."""
    p = etree.Element(tag)
    add_sources(p, file, lines)
    _fill(p, text, notes, file, lines)
    return p


def _fill(el: Element, text: str, notes: Sequence[Note], file: str, lines: list[int]) -> None:
    """`el`'s mixed content from text with NOTE_MARK at each marker and the notes in marker order."""
    pieces = text.split(NOTE_MARK)
    el.text = pieces[0]
    for note, piece in zip(notes, pieces[1:]):
        n = etree.SubElement(el, "note", form=note.form)
        if note.number:
            n.set("num", note.number)
        n.text = note.text
        add_sources(n, file, note.lines or lines)
        n.tail = piece


def make_table(rows: Sequence[tuple[int, Sequence[str]]], notes: Sequence[Note], file: str,
               lines: list[int]) -> Element:
    """A <table> from its rows, each (its line, its cells' texts left to right), in order; NOTE_MARK at
    each marker in a cell's text and `notes` in the order of the markers, read row after row and cell by
    cell (make_paragraph's rule for each cell). Where the cells hold fewer markers than there are notes,
    the notes left over stand at the end of the last cell, so that no note's text is lost (the structure
    stage reports it); a marker past the last note is left out (its cell's words kept). The table's
    sources are `lines`, each row's its own line."""
    table = etree.Element("table")
    add_sources(table, file, lines)
    places = [line for line, _ in rows] or lines[:1]
    texts = [list(row) for _, row in rows] or [[""]]
    marks = 0
    for row_texts in texts:
        for k, text in enumerate(row_texts):
            keep = max(0, min(text.count(NOTE_MARK), len(notes) - marks))
            if keep < text.count(NOTE_MARK):  # the markers past the last note: out, the words stay
                head, *rest = text.split(NOTE_MARK)
                row_texts[k] = head + "".join((NOTE_MARK if i < keep else "") + piece for i, piece in enumerate(rest))
            marks += keep
    if marks < len(notes):
        if not texts[-1]:
            texts[-1] = [""]
        texts[-1][-1] += NOTE_MARK * (len(notes) - marks)
    left = list(notes)
    for line, row_texts in zip(places, texts):
        row = etree.SubElement(table, "row")
        add_sources(row, file, [line])
        for text in row_texts or [""]:  # (a row the reader gave no cell holds one, empty)
            cell = etree.SubElement(row, "cell")
            count = text.count(NOTE_MARK)
            _fill(cell, text, left[:count], file, [line])
            left = left[count:]
    return table


def cells(table: Element) -> list[list[Element]]:
    """The <cell>s of a <table>, row by row, each row's left to right."""
    return [list(row.iterchildren("cell")) for row in table.iterchildren("row")]


def provenance(el: Element) -> Element | None:
    """The element that records where `el` was read: `el` itself where it has `sources`, else the nearest
    element around it that has (a cell's row); None when none does."""
    for holder in (el, *el.iterancestors()):
        if holder.get("sources"):
            return holder
    return None


# The elements a node holds its text in, in order among each other: paragraphs and tables.
TEXT_TAGS = ("p", "table")


# -- the inline walker ------------------------------------------------------------------------
# The kinds of event inline() yields; every writer (XML/JSON, Markdown, HTML, PDF, diff, `show`)
# walks a paragraph's content through it and only says what to emit for each.
TEXT, NOTE, REF, OTHER = "text", "note", "ref", "other"


# One event of inline(): (kind, text, element).
Event = tuple[str, str | None, Element | None]


def inline(el: Element) -> Iterator[Event]:
    """The mixed content of a <p>, <cell>, <note>, <attribution> or <heading> in reading order, as
    (kind, text, element) events:
        (TEXT, text, None)       a run of running text (el.text and every tail); never empty
        (NOTE, None, <note>)     a note where its marker stands (its own content: inline(note))
        (REF, words, <ref>)      the words of a reference (a ref never holds a note)
        (OTHER, words, element)  any other inline element, by its words without notes
    """
    if el.text:
        yield TEXT, el.text, None
    for child in el:
        if child.tag == "note":
            yield NOTE, None, child
        elif child.tag == "ref":
            yield REF, plain_text(child), child
        else:
            yield OTHER, plain_text(child), child
        if child.tail:
            yield TEXT, child.tail, None


def plain_text(el: Element) -> str:
    """The words of an element without its notes: what a reader reads in the running text. Of a <table>
    (or a <row>), its cells' words joined by single spaces, row after row."""
    if el.tag in ("table", "row"):
        return " ".join(plain_text(cell) for cell in el.iter("cell"))
    return "".join(text or "" for kind, text, _ in inline(el) if kind != NOTE)


def text_with_marks(el: Element) -> str:
    """Text with NOTE_MARK where notes stand: the comparable form of a paragraph. Of a <table>, each row's
    cells' on a line of its own, a tab between two cells (so that two tables compare equal exactly when
    their rows and cells do)."""
    if el.tag == "table":
        return "\n".join("\t".join(text_with_marks(cell) for cell in row) for row in cells(el))
    return "".join(NOTE_MARK if kind == NOTE else text or "" for kind, text, _ in inline(el))


def label(el: Element) -> Element | None:
    """The element that names a node: an article's (or the introduction's) <title>, any other node's <heading>;
    None if absent."""
    return el.find("title" if el.tag in ("article", "introduction") else "heading")


def mark(el: Element) -> str:
    """A node's number as the law writes it before its text: sections 'A.', subsections '1.', items
    '(a)', subitems '(i)'."""
    num = el.get("num")
    return f"({num})" if el.tag in ("item", "subitem") else f"{num}."


def label_text(el: Element) -> str | None:
    """The words of label(el) without its notes; None when the node has no label."""
    found = label(el)
    return plain_text(found) if found is not None else None


def note_number(note: Element) -> str | None:
    """What a note's marker shows: the book's number (`num`), or None where the source numbers none
    (the writers then number it as before, by its place)."""
    return note.get("num") or None


def node_by_id(corpus: Element, node_id: str) -> Element | None:
    found = corpus.xpath("//*[@id=$id]", id=node_id)
    return found[0] if isinstance(found, list) and found and isinstance(found[0], etree._Element) else None


def node_index(corpus: Element) -> dict[str, Element]:
    return {node_id: el for el in corpus.iter() if (node_id := el.get("id"))}



def insert_child(parent: Element, el: Element) -> Element:
    """Place an existing node element among `parent`'s children in number order."""
    key = ids.sort_key(el.get("num", ""), el.tag)
    for sibling in child_nodes(parent):
        if sibling.tag == el.tag and ids.sort_key(sibling.get("num", ""), el.tag) > key:
            sibling.addprevious(el)
            return el
    parent.append(el)
    return el


def first_line(el: Element) -> tuple[str | None, int | None]:
    """(file, line) where an element starts in its first source."""
    sources = parse_sources(el.get("sources"))
    if not sources:
        return None, None
    name = sorted(sources)[0]
    return name, min(sources[name])
