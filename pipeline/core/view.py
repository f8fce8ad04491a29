"""A typed, read-only view of the corpus tree (tree.py): what the outputs read of it.

The tree stays the model. Each class here wraps one element of it and reads the element when asked: none
holds a copy of a text, a number or a list of children, so what a view says is what the tree says at that
moment. A view never changes the tree.

    CorpusView(corpus)     the <corpus>: its editions, and every node by its ID (an index made once)
      Edition              an <edition>: its articles, Introduction, Definitions, commentary and index
        Introduction       the <introduction>: its title and text elements
        Definition         a <definition>: its term and text elements
        Node               an <article>, <section>, <subsection>, <item> or <subitem>: its ID, number,
                           label, text elements, child nodes, notes, sources
          Note             a <note>: its ID, the book's number, its form, its words
          Reference        a <ref>: its targets, status, kind and words
        Commentary         a <commentary>: what it is on, who wrote it, its paragraphs
        Index, Entry       the book's <index> and its <entry>s

Every ID comes from an element's `id` attribute through one accessor, element_id, which raises a
ValueError naming the element where the schema (schema/corpus.rng) promises an ID and the element has
none; optional_id is for an element the schema gives no ID (a <p>, a <ref>) or a tree made by hand that
may lack one.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from . import ids, tree
from .tree import Element, Sources

# The elements the schema gives an ID, each its own (schema/corpus.rng).
IDENTIFIED = ("edition", "introduction", "definition", *tree.NODE_TAGS, "note", "commentary", "index", "entry")


# -- the one accessor of an element's ID ------------------------------------------------------------------
def optional_id(el: Element) -> str | None:
    """The `id` attribute of `el`, None where it has none: the one place an ID is read from the tree."""
    return el.get("id")


def element_id(el: Element) -> str:
    """The ID of an element the schema gives one (IDENTIFIED); a ValueError naming the element where it
    has none or an empty one, a fault of the stage that made the tree."""
    value = optional_id(el)
    if not value:
        num = f" {el.get('num')}" if el.get("num") else ""
        raise ValueError(f"<{el.tag}>{num} without its id, which the corpus tree gives every <{el.tag}>"
                         + (f" (line {el.sourceline})" if el.sourceline else ""))
    return value


def parsed_id(el: Element) -> ids.NodeId:
    """element_id(el) as a NodeId (a node's, a note's, a commentary's, the introduction's, a definition's);
    a ValueError where it is no ID."""
    value = element_id(el)
    parsed = ids.NodeId.parse(value)
    if parsed is None:
        raise ValueError(f"<{el.tag}> with the id {value!r}, which is not an ID")
    return parsed


def nearest_id(el: Element) -> str | None:
    """The ID of the nearest element around `el` (not `el` itself) that has one: a node's parent node or its
    edition, a note's node; None at the root."""
    return next((found for a in el.iterancestors() if (found := optional_id(a))), None)


def _notes(elements: Iterable[Element]) -> tuple[Note, ...]:
    """The notes in `elements`, in document order."""
    return tuple(Note(n) for el in elements for n in el.iter("note"))


# -- what a paragraph holds ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Note:
    """A <note>. Reads: its `id`, `num` (the number the book prints at its marker, tree.note_number), `form`
    and `sources`; its words without notes (tree.plain_text). Its content is mixed: tree.inline(note.element)."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def node_id(self) -> ids.NodeId:
        return parsed_id(self.element)

    @property
    def number(self) -> str | None:
        return tree.note_number(self.element)

    @property
    def form(self) -> str | None:
        return self.element.get("form")

    @property
    def text(self) -> str:
        return tree.plain_text(self.element)

    @property
    def sources(self) -> Sources:
        return tree.parse_sources(self.element.get("sources"))


@dataclass(frozen=True, slots=True)
class Reference:
    """A <ref>. Reads: `to` (the IDs it resolves to, first the one it links), `status`, `kind`, `reason`,
    and its words (tree.plain_text)."""
    element: Element

    @property
    def targets(self) -> list[str]:
        return (self.element.get("to") or "").split()

    @property
    def target(self) -> str | None:
        """The first target, the one a link goes to; None where the reference resolved to none."""
        targets = self.targets
        return targets[0] if targets else None

    @property
    def status(self) -> str | None:
        return self.element.get("status")

    @property
    def kind(self) -> str | None:
        return self.element.get("kind")

    @property
    def reason(self) -> str | None:
        return self.element.get("reason")

    @property
    def words(self) -> str:
        return tree.plain_text(self.element)


# -- the law text ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Node:
    """An <article>, <section>, <subsection>, <item> or <subitem>. Reads: its `id`, `num`, `sources`,
    `origin`, `numbering` and `evidence`; its label (tree.label: an article's <title>, any other node's
    <heading>), its text elements (<p> and <table>, tree.TEXT_TAGS) and child nodes in order, its <gap>s
    and <corr>s, and the notes of its label and text (not its children's)."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def node_id(self) -> ids.NodeId:
        return parsed_id(self.element)

    @property
    def tag(self) -> str:
        """The node's level: article, section, subsection, item or subitem."""
        return str(self.element.tag)

    level = tag

    @property
    def num(self) -> str:
        return tree.attr(self.element, "num")

    @property
    def mark(self) -> str:
        """Its number as the law writes it before its text: 'A.', '1.', '(a)', '(i)' (tree.mark)."""
        return tree.mark(self.element)

    @property
    def label(self) -> Element | None:
        return tree.label(self.element)

    @property
    def label_text(self) -> str | None:
        return tree.label_text(self.element)

    @property
    def texts(self) -> list[Element]:
        """Its <p> and <table> elements, in order."""
        return [c for c in self.element if c.tag in tree.TEXT_TAGS]

    @property
    def children(self) -> list[Node]:
        return [Node(c) for c in tree.child_nodes(self.element)]

    @property
    def parent(self) -> Node | None:
        """The node it is part of; None for an article."""
        up = self.element.getparent()
        return Node(up) if up is not None and up.tag in tree.NODE_TAGS else None

    @property
    def notes(self) -> tuple[Note, ...]:
        """The notes of its label, then of its text elements, in reading order."""
        label = self.label
        return _notes(([label] if label is not None else []) + self.texts)

    @property
    def references(self) -> tuple[Reference, ...]:
        """The references of its label and text elements (not its children's), in reading order."""
        label = self.label
        return tuple(Reference(r) for el in ([label] if label is not None else []) + self.texts
                     for r in el.iter("ref"))

    @property
    def gaps(self) -> list[Element]:
        return list(self.element.iterchildren("gap"))

    @property
    def corrections(self) -> list[Element]:
        """Its <corr> records (sources/corrections.toml), in order."""
        return list(self.element.iterchildren("corr"))

    @property
    def sources(self) -> Sources:
        return tree.parse_sources(self.element.get("sources"))

    @property
    def origin(self) -> str | None:
        """Where its text first came from, as the `sources` attribute writes it (a node read from a Markdown
        master that says so); None where it is where it was read."""
        return self.element.get("origin")

    @property
    def inferred(self) -> bool:
        """Whether the build inferred its number (its evidence: `evidence`)."""
        return self.element.get("numbering") == "inferred"

    @property
    def evidence(self) -> str | None:
        return self.element.get("evidence")

    def iter(self) -> Iterator[Node]:
        """The node and every node below it, in document order."""
        return (Node(el) for el in self.element.iter(*tree.NODE_TAGS))


@dataclass(frozen=True, slots=True)
class Commentary:
    """A <commentary> (no law text). Reads: its `id`, `on` (the node it is on), `author` and `sources`, its
    <attribution> and <p>s."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def on(self) -> str | None:
        return self.element.get("on")

    @property
    def target(self) -> str:
        """What it is on: `on`, else its own ID (which names the node it follows)."""
        return self.on or self.id

    @property
    def on_article(self) -> str | None:
        """The ID of the article it is on (ids.article_of its target)."""
        return ids.article_of(self.target)

    @property
    def author(self) -> str | None:
        return self.element.get("author")

    @property
    def attribution(self) -> Element | None:
        return self.element.find("attribution")

    @property
    def paragraphs(self) -> list[Element]:
        return list(self.element.iterchildren("p"))

    @property
    def notes(self) -> tuple[Note, ...]:
        return tuple(Note(n) for n in self.element.iter("note"))


@dataclass(frozen=True, slots=True)
class Definition:
    """A <definition> of the book's Definitions. Reads: its `id`, `term` and `sources`, its text elements."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def term(self) -> str:
        return tree.attr(self.element, "term")

    @property
    def slug(self) -> str:
        """The term's part of its ID, its anchor: 'adjusted-score' (ids.definition_slug)."""
        return ids.definition_slug(self.id)

    @property
    def texts(self) -> list[Element]:
        """Its <p> and <table> elements, in order."""
        return list(self.element.iterchildren(*tree.TEXT_TAGS))


@dataclass(frozen=True, slots=True)
class Introduction:
    """The book's <introduction>. Reads: its `id` and `sources`, its <title> and text elements."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def node_id(self) -> ids.NodeId:
        return parsed_id(self.element)

    @property
    def title(self) -> str | None:
        """The title's text (None when it has no <title>)."""
        return self.element.findtext("title")

    @property
    def label(self) -> Element | None:
        return tree.label(self.element)

    @property
    def texts(self) -> list[Element]:
        """Its <p> and <table> elements, in order."""
        return list(self.element.iterchildren(*tree.TEXT_TAGS))


@dataclass(frozen=True, slots=True)
class Entry:
    """A headword of the book's index. Reads: its `id`, `headword` and `sources`."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def headword(self) -> str | None:
        return self.element.get("headword")


@dataclass(frozen=True, slots=True)
class Index:
    """The book's <index> (register). Reads: its `id` and its <entry>s."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def entries(self) -> list[Entry]:
        return [Entry(e) for e in self.element.iterchildren("entry")]


@dataclass(frozen=True, slots=True)
class Edition:
    """An <edition>. Reads: its `id`; its <introduction>, <definitions>, <article>s, <commentary> and <index>,
    each where the sources hold it."""
    element: Element

    @property
    def id(self) -> str:
        return element_id(self.element)

    @property
    def articles(self) -> list[Node]:
        return [Node(a) for a in self.element.iterchildren("article")]

    @property
    def introduction(self) -> Introduction | None:
        found = self.element.find("introduction")
        return Introduction(found) if found is not None else None

    @property
    def definitions(self) -> list[Definition]:
        return [Definition(d) for d in self.element.iterfind("definitions/definition")]

    @property
    def commentary(self) -> list[Commentary]:
        return [Commentary(c) for c in self.element.iterchildren("commentary")]

    @property
    def index(self) -> Index | None:
        found = self.element.find("index")
        return Index(found) if found is not None else None

    def nodes(self) -> Iterator[Node]:
        """Every node of the edition, in document order."""
        return (Node(el) for el in self.element.iter(*tree.NODE_TAGS))

    def notes(self) -> Iterator[Note]:
        """Every note of the edition (law text, introduction, definitions, commentary), in document order."""
        return (Note(n) for n in self.element.iter("note"))


class CorpusView:
    """The <corpus>: its editions in order, and its nodes by ID. Reads: the tree it is given, never changed;
    the index of nodes is made once, at the first look-up (a view of a tree that changes after is stale)."""
    __slots__ = ("tree", "_nodes")

    def __init__(self, corpus: Element) -> None:
        self.tree = corpus
        self._nodes: dict[str, Element] | None = None

    @property
    def language(self) -> str | None:
        return self.tree.get("language")

    @property
    def editions(self) -> list[Edition]:
        return [Edition(ed) for ed in self.tree.iterchildren("edition")]

    def edition(self, edition_id: str) -> Edition:
        """The edition `edition_id`; a KeyError where the corpus has none."""
        for ed in self.tree.iterchildren("edition"):
            if optional_id(ed) == edition_id:
                return Edition(ed)
        raise KeyError(f"no edition {edition_id!r} in the corpus")

    def _index(self) -> dict[str, Element]:
        if self._nodes is None:
            self._nodes = {element_id(el): el for el in self.tree.iter(*tree.NODE_TAGS)}
        return self._nodes

    def __contains__(self, node_id: object) -> bool:
        """Whether a node (of any edition) has the ID `node_id`."""
        return node_id in self._index()

    def node(self, node_id: str) -> Node:
        """The node `node_id`; a KeyError where the corpus has none."""
        found = self._index().get(node_id)
        if found is None:
            raise KeyError(f"no node {node_id!r} in the corpus")
        return Node(found)

    def find(self, node_id: str) -> Node | None:
        """The node `node_id`; None where the corpus has none."""
        found = self._index().get(node_id)
        return Node(found) if found is not None else None
