"""Align a translation with its original: two books compared node by node, by citation ID.

Reads: two corpora in the corpus.json form (schema/corpus.schema.json), the translation's and the
reference's, of any language: only IDs, structure, references, notes, gaps and tables (their shape and
the numbers in their cells) are compared, never words. A table's cells are text of its node: their
references and notes are the node's.
Writes: nothing; returns an Alignment (`lawbook align` prints it, docs/align.md explains it):
  - every node of an article both books hold, with a status:
        match           the same references, notes, and text where the reference has text
        missing         the reference has it inside a part the translation's sources show
        extra           the translation has it, the reference does not
        refs-differ     both have its text, the reference targets differ
        notes-differ    both have its text, with a different number of notes
        table-differs   both have its text, and its tables differ: in number, in rows, in the cells of a
                        row, or in the numbers a cell holds (the words of a cell a translation keeps as
                        they are: points, tricks, IMPs)
        gap             the translation has a gap, or no text of its own in a part its sources show,
                        where the reference has text
        not-in-sources  the reference has it (or its text), outside every part the translation's sources show
        accepted        a correction marks it as deliberately different (corrections.toml)
    and, where it can explain one, a suggested correction;
  - the articles only one book holds (listed, not compared);
  - each dangling reference of the translation: its target is in the reference (in-reference), in
    neither and the reference is the whole book (nowhere), in neither and the reference is only a set
    of pages (not-in-reference-pages), or in an edition the reference does not hold (edition-absent).

What a translation's sources show: a node with its title or heading shows itself and everything below
it (the page "Artikel 16C" gives 16C's heading: 16C1-3 are compared, 16A is not-in-sources); any other
node shows itself only. A node of the reference the translation lacks is `missing` when one of its
ancestors is shown so, else `not-in-sources`. References and notes are compared only where both books
have the node's text: a node the translation holds without text of its own (2017/50, a container of the
page's 50D) where the reference has text is `not-in-sources` when not shown, `gap` when shown.

When the reference is the whole book (`reference_pages`: its articles are numbered 1 to the highest
without a hole and each has its title), a target it lacks is `nowhere`; a set of pages cannot say so.
"""
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from ..core import ids
from ..core.errors import shown_safely as shown_safely  # the terminal's rule, for this module's text report

# corpus.json data as json.load gives it (schema/corpus.schema.json says its shape).
Json = dict[str, Any]
# One edition of a book as alignment reads it: {node ID: Node}, articles in their order.
Book = dict[str, "Node"]
Paragraph = tuple[str, list[Json], list[int], str]  # an own <p>: its text, refs, notes' offsets and "file:line"
NoteWords = tuple[int, str, str]  # a note: its offset in its <p> or cell, its printed number or "", its text
# A dangling reference of the translation and its class (CLASSES); "from" and "class" are keywords: no class syntax.
Dangling = TypedDict("Dangling", {"from": str, "to": str, "words": str, "source": str, "class": str})


class Proposal(TypedDict):  # one ready [[correction]] entry for corrections.toml, as render_proposals writes it
    kind: str  # "renumber" or "replace"
    node: str
    basis: str
    to: NotRequired[str]  # a renumbering's new ID
    creates: NotRequired[bool]  # a renumbering that makes the parent the translation lacks
    words: NotRequired[str]  # a replacement's words, and what replaces them
    by: NotRequired[str]


class Suggestion(TypedDict):  # what alignment suggests for one node: in words, and as the corrections to make
    text: str
    corrections: list[Proposal]


FAILING = ("refs-differ", "notes-differ", "table-differs", "gap", "extra", "missing")
STATUSES = FAILING + ("accepted", "not-in-sources", "match")
# Dangling references whose target is outside the corpus: not "ok" and not damaged ("suspect").
OUTSIDE = ("dangling", "known-missing")
# How the reference accounts for a dangling target, in the order the outputs group them.
CLASSES = ("in-reference", "nowhere", "not-in-reference-pages", "edition-absent")


@dataclass
class Node:
    """What alignment compares of one node, read from corpus.json."""
    id: str
    type: str
    labelled: bool  # has its title or heading
    refs: list[str]  # every target its own paragraphs and their notes cite, in text order
    notes: int
    text: bool  # has a paragraph of its own with words
    gap: bool
    children: list[str]
    source: str  # "file:line" where it starts, "" when unknown
    accepted: list[str]  # the bases of the accept corrections on it
    paragraphs: list[Paragraph] = field(default_factory=list)  # (text, refs, note offsets, source) of each own <p>
    cited: list[tuple[Json, str]] = field(default_factory=list)  # (ref, "file:line") of every ref of its text
    # Its words, for the original shown beside the translation (outputs/site/original.py); never compared.
    label: str = ""  # its title or heading
    notes_of: list[list[NoteWords]] = field(default_factory=list)  # per own <p>, its notes (NoteWords)
    # Its own tables, each its rows, each its cells' texts (compared by shape and numbers: table_difference).
    tables: list[list[list[str]]] = field(default_factory=list)
    # Where each own paragraph ("p") and table ("table") stands among them, in order (the original's words beside
    # the translation keep that order: outputs/site/original.py).
    order: list[str] = field(default_factory=list)
    table_notes: list[list[list[list[NoteWords]]]] = field(default_factory=list)  # per own table, row and cell

    def shape(self, book: Book) -> tuple[object, ...]:
        return (self.type, self.text, self.gap, self.notes, table_shapes(self),
                tuple(book[c].shape(book) for c in self.children))


def table_shapes(node: "Node") -> tuple[tuple[int, ...], ...]:
    """Each own table of `node` as the number of cells of each of its rows."""
    return tuple(tuple(len(row) for row in table) for table in node.tables)


NUMBER = re.compile(r"\d+")


def table_difference(t: "Node", r: "Node") -> str | None:
    """How the translation's own tables differ from the reference's, in words for the report, or None when
    they agree: as many tables, each with as many rows, each row with as many cells, and each cell holding
    the same numbers in the same order (the digits of "20-40" and "20 – 40" are 20 and 40 alike)."""
    if len(t.tables) != len(r.tables):
        return f"{len(t.tables)} tables; the reference {len(r.tables)}"
    for n, (mine, theirs) in enumerate(zip(t.tables, r.tables), 1):
        if len(mine) != len(theirs):
            return f"table {n} has {len(mine)} rows; the reference's {len(theirs)}"
        for k, (row, other) in enumerate(zip(mine, theirs), 1):
            if len(row) != len(other):
                return f"table {n} row {k} has {len(row)} cells; the reference's {len(other)}"
            for c, (cell, there) in enumerate(zip(row, other), 1):
                if NUMBER.findall(cell) != NUMBER.findall(there):
                    said = " ".join(NUMBER.findall(cell)) or "no number"
                    return (f"table {n} row {k} cell {c} holds {said}; the reference's "
                            f"{' '.join(NUMBER.findall(there)) or 'no number'}")
    return None


def _source(sources: list[Json]) -> str:
    return f"{sources[0]['file']}:{min(sources[0]['lines'])}" if sources else ""


def read_book(data: Json) -> dict[str, Book]:
    """corpus.json data -> {edition: {id: Node}}, articles in their order."""
    book: dict[str, Book] = {}
    for edition in data["editions"]:
        nodes = book.setdefault(edition["id"], {})
        for article in edition["articles"]:
            _read_node(article, nodes)
    return book


def cited_in(data: Json) -> list[tuple[str, str, Json, str]]:
    """Every ref of the book, commentary included: (edition, citing ID, ref, "file:line")."""
    out: list[tuple[str, str, Json, str]] = []
    for edition in data["editions"]:
        nodes: Book = {}
        for article in edition["articles"]:
            _read_node(article, nodes)
        out += [(edition["id"], n.id, ref, source) for n in nodes.values() for ref, source in n.cited]
        for c in edition["commentary"]:
            out += [(edition["id"], c["id"], ref, _source(p["sources"])) for p in c["content"] for ref in p["refs"]]
    return out


def _read_node(data: Json, nodes: Book) -> None:
    refs: list[str] = []
    notes = 0
    paragraphs: list[Paragraph] = []
    children: list[str] = []
    accepted: list[str] = []
    cited: list[tuple[Json, str]] = []
    notes_of: list[list[NoteWords]] = []
    tables: list[list[list[str]]] = []
    table_notes: list[list[list[list[NoteWords]]]] = []
    order: list[str] = []
    text = gap = False
    for item in data["content"]:
        kind = item["type"]
        if kind == "table":  # its cells are text of the node: their words, references and notes are its own
            cells = [cell for row in item["rows"] for cell in row["cells"]]
            text = text or any(cell["text"].strip() for cell in cells)
            own = [r for cell in cells for r in cell["refs"]] + [r for cell in cells for n in cell["notes"]
                                                                  for r in n.get("refs", [])]
            refs += [t for r in own for t in (r.get("to") or "").split()]
            notes += sum(len(cell["notes"]) for cell in cells)
            for row in item["rows"]:
                cited += [(r, _source(row["sources"])) for cell in row["cells"] for r in cell["refs"]]
                cited += [(r, _source(n["sources"])) for cell in row["cells"] for n in cell["notes"]
                          for r in n.get("refs", [])]
            tables.append([[cell["text"] for cell in row["cells"]] for row in item["rows"]])
            table_notes.append([[[(n["offset"], n.get("num", ""), n["text"]) for n in cell["notes"]]
                                 for cell in row["cells"]] for row in item["rows"]])
            order.append("table")
        elif kind == "p":
            order.append("p")
            text = text or bool(item["text"].strip())
            own = list(item["refs"]) + [r for n in item["notes"] for r in n.get("refs", [])]
            refs += [t for r in own for t in (r.get("to") or "").split()]
            notes += len(item["notes"])
            paragraphs.append((item["text"], item["refs"], [n["offset"] for n in item["notes"]],
                               _source(item["sources"])))
            cited += [(r, _source(item["sources"])) for r in item["refs"]]
            notes_of.append([(n["offset"], n.get("num", ""), n["text"]) for n in item["notes"]])
            cited += [(r, _source(n["sources"])) for n in item["notes"] for r in n.get("refs", [])]
        elif kind == "gap":
            gap = True
        elif kind == "corr":
            if item["kind"] == "accept":
                accepted.append(item["basis"])
        else:
            children.append(item["id"])
            _read_node(item, nodes)
    nodes[data["id"]] = Node(data["id"], data["type"], "title" in data or "heading" in data, refs, notes, text,
                             gap, children, _source(data["sources"]), accepted, paragraphs, cited,
                             data.get("title") or data.get("heading") or "", notes_of, tables, order,
                             table_notes)


@dataclass
class Aligned:
    id: str
    status: str
    translation: Node | None
    reference: Node | None
    suggestion: Suggestion | None = None

    def reference_node(self) -> Node:
        """The reference's node: every status has it but extra, and accepted of a node the reference lacks."""
        if self.reference is None:
            raise ValueError(f"{self.id} ({self.status}): the reference lacks the node")
        return self.reference

    def to_json(self) -> Json:
        def side(n: Node | None) -> Json | None:
            if n is None:
                return None
            # (a node's tables, each its rows' numbers of cells, only where it has one)
            return {"refs": n.refs, "notes": n.notes, "source": n.source,
                    **({"tables": [list(t) for t in table_shapes(n)]} if n.tables else {})}
        return {"id": self.id, "status": self.status, "translation": side(self.translation),
                "reference": side(self.reference), "suggestion": self.suggestion}


@dataclass
class Alignment:
    nodes: list[Aligned]
    dangling: list[Dangling]
    only_in_translation: list[str]  # article IDs
    only_in_reference: list[str]
    editions: list[str]  # compared
    not_in_reference: list[str]  # editions only the translation holds
    # Each edition of the reference that is only a set of pages, with why (reference_pages); the
    # others are the whole book.
    reference_pages: dict[str, str] = field(default_factory=dict)
    reference_whole: dict[str, str] = field(default_factory=dict)  # edition -> its evidence: "articles 1-93, each with its title"
    reference_language: str | None = None  # the language the reference's corpus records ("en"), if it records one

    @property
    def status(self) -> int:
        return 1 if any(a.status in FAILING for a in self.nodes) else 0

    def of(self, status: str) -> list[Aligned]:
        return [a for a in self.nodes if a.status == status]

    def to_json(self) -> Json:
        return {"nodes": [a.to_json() for a in self.nodes], "dangling": self.dangling,
                "articles": {"only_in_translation": self.only_in_translation,
                             "only_in_reference": self.only_in_reference},
                "editions": {"compared": self.editions, "not_in_reference": self.not_in_reference,
                             "reference_whole": self.reference_whole, "reference_pages": self.reference_pages},
                "summary": {s: len(self.of(s)) for s in STATUSES}}


def align(translation: Json, reference: Json) -> Alignment:
    """Compare two corpus.json documents; returns an Alignment."""
    t_book, r_book = read_book(translation), read_book(reference)
    editions = [e for e in t_book if e in r_book]
    nodes: list[Aligned] = []
    only_t: list[str] = []
    only_r: list[str] = []
    for edition in editions:
        t, r = t_book[edition], r_book[edition]
        t_articles = {i for i, n in t.items() if n.type == "article"}
        r_articles = {i for i, n in r.items() if n.type == "article"}
        only_t += sorted(t_articles - r_articles, key=ids.order_key)
        only_r += sorted(r_articles - t_articles, key=ids.order_key)
        both = t_articles & r_articles
        found = [i for i in set(t) | set(r) if ids.article_of(i) in both]
        aligned = [_status(i, t.get(i), r.get(i), t) for i in sorted(found, key=ids.order_key)]
        _suggest(aligned, t, r)
        nodes += aligned
    pages = {e: why for e, nodes_of in r_book.items() if (why := reference_pages(nodes_of))}
    whole = {e: f"articles 1-{sum(n.type == 'article' for n in nodes_of.values())}, each with its title"
             for e, nodes_of in r_book.items() if e not in pages}
    language = reference.get("language")
    return Alignment(nodes, _dangling(cited_in(translation), t_book, r_book, pages), only_t, only_r, editions,
                     [e for e in t_book if e not in r_book], pages, whole,
                     language if isinstance(language, str) else None)


def reference_pages(nodes: dict[str, Node]) -> str | None:
    """Why one edition of a reference is only a set of pages, or None when it is the whole book.

    The corpus does not keep the book's contents list, so the test is what the contents list of a
    whole book would agree with: its articles are numbered 1 to the highest without a hole, and each
    has its title (an article without one begins before the first page given, or its title is in none
    of the sources: the build reports that as a gap). A run of pages from article 1 that ends where an
    article ends passes this test too; the text output says which reading `nowhere` rests on."""
    numbers = sorted(int(ids.cite_of(n.id)) for n in nodes.values() if n.type == "article")
    if not numbers:
        return "it holds no article"
    holes = sorted(set(range(1, numbers[-1] + 1)) - set(numbers))
    if holes:
        return f"no article {_spans(holes)} of 1-{numbers[-1]}"
    untitled = sorted((n.id for n in nodes.values() if n.type == "article" and not n.labelled), key=ids.order_key)
    if untitled:
        return f"no title for {', '.join(untitled)}"
    return None


def _spans(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> '1-3, 5'."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def _parsed(node_id: str) -> ids.NodeId:
    """The ID of a node of a book (corpus.json's IDs are well formed: schema/corpus.schema.json)."""
    parsed = ids.NodeId.parse(node_id)
    if parsed is None:
        raise ValueError(f"{node_id!r} is not an ID, which corpus.json gives every node")
    return parsed


def _shown(node_id: str, t: Book) -> bool:
    """Whether the translation's sources show the part of the book that holds `node_id` (see above)."""
    parsed = _parsed(node_id)
    return any(str(a) in t and t[str(a)].labelled for a in list(parsed.ancestors())[1:])


def _status(node_id: str, tn: Node | None, rn: Node | None, t: Book) -> Aligned:
    if tn is None:
        return Aligned(node_id, "missing" if _shown(node_id, t) else "not-in-sources", None, rn)
    if tn.accepted:
        status = "accepted"
    elif rn is None:
        status = "extra"
    elif tn.gap and rn.text:
        status = "gap"
    elif rn.text and not tn.text:
        # The reference's text (and what it cites) is not in the translation's sources: nothing to
        # compare. Under a title or heading the sources give, the text is lost there: an unmarked gap.
        status = "gap" if tn.labelled or _shown(node_id, t) else "not-in-sources"
    elif sorted(tn.refs) != sorted(rn.refs):
        status = "refs-differ"
    elif tn.notes != rn.notes:
        status = "notes-differ"
    elif table_difference(tn, rn) is not None:
        status = "table-differs"
    else:
        status = "match"
    aligned = Aligned(node_id, status, tn, rn)
    if status == "accepted":
        aligned.suggestion = {"text": f"accepted: {'; '.join(tn.accepted)}", "corrections": []}
    return aligned


# -- suggestions -----------------------------------------------------------------------------------
def _suggest(aligned: list[Aligned], t: Book, r: Book) -> None:
    by_id = {a.id: a for a in aligned}
    _suggest_renumbering(by_id, t, r)
    for a in aligned:
        if a.status == "refs-differ":
            a.suggestion = _replacement(a)


def _parent(node_id: str) -> str | None:
    parent = _parsed(node_id).parent
    return str(parent) if parent else None


def _groups(by_id: dict[str, Aligned], status: str, tops_only: bool) -> dict[str | None, list[str]]:
    groups: dict[str | None, list[str]] = {}
    for a in by_id.values():
        parent = _parent(a.id)
        if a.status == status and not (tops_only and parent in by_id and by_id[parent].status == status):
            groups.setdefault(parent, []).append(a.id)
    return groups


def _subtree(book: Book, node_id: str) -> Iterator[Node]:
    yield book[node_id]
    for child in book[node_id].children:
        yield from _subtree(book, child)


def _renamed(target: str, mapping: dict[str, str]) -> str:
    """`target` with a renumbered node's ID (or an ancestor's) replaced by its new one."""
    parsed = ids.NodeId.parse(target)
    for above in (parsed.ancestors() if parsed else ()):
        if str(above) in mapping:
            return mapping[str(above)] + target[len(str(above)):]
    return target


def _suggest_renumbering(by_id: dict[str, Aligned], t: Book, r: Book) -> None:
    """A group of extra siblings that has the shape and the references of a group of missing siblings,
    node for node (the references read with the new numbers): the translation numbered them wrongly."""
    missing = _groups(by_id, "missing", tops_only=False)
    for parent, extra in _groups(by_id, "extra", tops_only=True).items():
        for new_parent, wanted in missing.items():
            if len(wanted) != len(extra) or any(t[a].type != r[b].type for a, b in zip(extra, wanted)):
                continue
            mapping = dict(zip(extra, wanted))
            if all(_same(t, r, a, b, mapping) for a, b in zip(extra, wanted)):
                created: set[str | None] = set()  # the missing parents a renumbering before this one creates
                for old, new in mapping.items():
                    source = r[new].source
                    entry: Proposal = {"kind": "renumber", "node": old, "to": new,
                             "basis": f"reference {new}" + (f" ({source})" if source else "")}
                    parent = _parent(new)
                    if parent not in created and parent in by_id and by_id[parent].status == "missing":
                        # The reference has the parent the translation lacks: the entry says it creates it.
                        entry["creates"] = True
                        created.add(parent)
                    by_id[old].suggestion = {"text": f"renumber {old} to {new}", "corrections": [entry]}
                    by_id[new].suggestion = {"text": f"{old} renumbered", "corrections": []}
                for node in {_parent(n) for n in wanted}:
                    made = by_id.get(node) if node is not None else None
                    if made and made.status == "missing" and not made.reference_node().text:
                        made.suggestion = {"text": f"made by renumbering {', '.join(extra)}", "corrections": []}
                break


def _same(t: Book, r: Book, old: str, new: str, mapping: dict[str, str]) -> bool:
    if t[old].shape(t) != r[new].shape(r):
        return False
    pairs = zip(_subtree(t, old), _subtree(r, new))
    return all(sorted(_renamed(x, mapping) for x in a.refs) == sorted(b.refs) for a, b in pairs)


def _replacement(a: Aligned) -> Suggestion | None:
    """For references that differ by one target each way (24E: 50 and 50 against 50 and 51), the
    words to replace: the citing words of the target the reference lacks, with the citation it has."""
    tn, rn = a.translation, a.reference_node()  # (refs-differ: both books have its text)
    if tn is None:
        raise ValueError(f"{a.id} ({a.status}): the translation lacks the node")
    lacks = list((Counter(tn.refs) - Counter(rn.refs)).elements())
    wants = list((Counter(rn.refs) - Counter(tn.refs)).elements())
    entries: list[Proposal] = []
    for old, new in zip(lacks, wants):
        found = _words_citing(tn, old)
        if found is None:
            continue
        text, start, end, notes = found
        old_cite, new_cite = ids.cite_of(old), ids.cite_of(new)
        words = text[start:end]
        if old_cite not in words or ids.edition_of(old) != ids.edition_of(new):
            continue
        start, end = _unique(tn, text, start, end, notes)
        words = text[start:end]
        cut = words.rindex(old_cite)
        by = words[:cut] + new_cite + words[cut + len(old_cite):]
        entries.append({"kind": "replace", "node": a.id, "words": words, "by": by,
                        "basis": f"reference {a.id} cites {', '.join(rn.refs)}"
                                 + (f" ({rn.source})" if rn.source else "")})
    if not entries or len(entries) != len(lacks) or len(lacks) != len(wants):
        return None
    return {"text": "; ".join(f"replace {e['words']!r} by {e['by']!r}" for e in entries), "corrections": entries}


def _words_citing(node: Node, target: str) -> tuple[str, int, int, list[int]] | None:
    """(paragraph text, start, end, note offsets) of the ref that cites `target` alone; a suspect one
    (a duplicated target) first, else the last."""
    candidates = [(r.get("status") == "suspect", i, text, r, notes)
                  for text, refs, notes, _ in node.paragraphs for i, r in enumerate(refs)
                  if (r.get("to") or "").split() == [target]]
    if not candidates:
        return None
    _, _, text, ref, notes = max(candidates, key=lambda c: (c[0], c[1]))
    return text, ref["start"], ref["end"], notes


def _unique(node: Node, text: str, start: int, end: int, notes: list[int]) -> tuple[int, int]:
    """Widen text[start:end] word by word to the left, then right, until it stands once in the node's
    own text (a replacement must find its words exactly once), never across a note's place."""
    def count(s: int, e: int) -> int:
        return sum(p[0].count(text[s:e]) for p in node.paragraphs)

    while count(start, end) > 1:
        left = text.rfind(" ", 0, max(start - 1, 0))
        new_start = 0 if left == -1 else left + 1
        if new_start < start and not any(new_start < n <= start for n in notes):
            start = new_start
            continue
        right = text.find(" ", end + 1)
        new_end = len(text) if right == -1 else right
        if new_end > end and not any(end <= n < new_end for n in notes):
            end = new_end
            continue
        break
    return start, end


# -- dangling references -----------------------------------------------------------------------------
def _dangling(cited: list[tuple[str, str, Json, str]], t_book: dict[str, Book], r_book: dict[str, Book],
              pages: dict[str, str]) -> list[Dangling]:
    """Each target of the translation's references that is outside it, classified by the reference
    (`pages`: the reference's editions that are only a set of pages, where a lacking target is no
    evidence that the original lacks it)."""
    out: list[Dangling] = []
    for edition, citing, ref, source in cited:
        if ref.get("status") not in OUTSIDE:
            continue
        for target in (ref.get("to") or "").split():
            if target in t_book.get(ids.edition_of(target), {}):
                continue  # a range that holds present and absent targets: only the absent ones dangle
            where = ids.edition_of(target)
            kind = ("edition-absent" if where not in r_book else
                    "in-reference" if target in r_book[where] else
                    "not-in-reference-pages" if where in pages else "nowhere")
            out.append({"from": citing, "to": target, "words": ref["words"], "source": source, "class": kind})
    return out


# -- text --------------------------------------------------------------------------------------------
def render_text(result: Alignment, names: tuple[str, str]) -> str:
    """The text report: each status's nodes with their source file and line, then articles only one book
    holds and the dangling references. `names` = (translation, reference) as given."""
    out = [f"align {names[0]} against {names[1]}: editions compared {', '.join(result.editions) or 'none'}"
           + (f"; not in the reference: {', '.join(result.not_in_reference)}" if result.not_in_reference else "")]
    summary = result.to_json()["summary"]
    out.append(", ".join(f"{n} {s}" for s, n in summary.items() if n) or "no nodes compared")
    for edition in result.editions:
        why = result.reference_pages.get(edition)
        out.append(f"the reference's {edition} is only a set of pages ({why}): a target it lacks is "
                   f"not-in-reference-pages, not nowhere" if why else
                   f"the reference's {edition} is the whole book ({result.reference_whole[edition]}; a run of "
                   f"pages from article 1 to the end of an article would read the same): a target it lacks is "
                   f"nowhere")
    for status in STATUSES:
        group = result.of(status)
        if not group:
            continue
        out += ["", f"{status} ({len(group)}):"]
        for a in group:
            t, r = a.translation, a.reference
            where = t.source if t else f"reference {r.source}" if r and r.source else "?"
            line = f"  {where}: {a.id}"
            if status in ("refs-differ", "notes-differ", "table-differs", "gap", "not-in-sources") and t is not None:
                r = a.reference_node()  # (these statuses compare the node both books hold, or its lack of text)
                if status == "refs-differ":
                    line += f" cites {', '.join(t.refs)}; the reference {', '.join(r.refs)}"
                elif status == "notes-differ":
                    line += f" has {t.notes} notes; the reference {r.notes}"
                elif status == "table-differs":
                    line += f": {table_difference(t, r)}" + (f" ({r.source})" if r.source else "")
                else:
                    line += (": a gap" if t.gap else ": no text of its own") + " where the reference has text" \
                        + (f" ({r.source})" if r.source else "")
            if a.suggestion:
                line += f"  -> {a.suggestion['text']}"
            out.append(line)
    for title, articles in (("articles only in the translation", result.only_in_translation),
                            ("articles only in the reference", result.only_in_reference)):
        if articles:
            out += ["", f"{title} ({len(articles)}, not compared): {', '.join(articles)}"]
    if result.dangling:
        counts = Counter(d["class"] for d in result.dangling)
        out += ["", f"dangling references of the translation ({len(result.dangling)}: "
                    + ", ".join(f"{counts[k]} {k}" for k in CLASSES if counts[k]) + "):"]
        out += [f"  {d['source'] or '?'}: {d['from']} cites {d['to']} ({d['words']!r}): {d['class']}"
                for d in result.dangling]
    return "\n".join(shown_safely(line) for line in out)


def _toml(value: object) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    import json
    return json.dumps(value, ensure_ascii=False)


def render_proposals(result: Alignment) -> str:
    """Ready [[correction]] entries for corrections.toml, one per explained difference. Replacements
    first: they name nodes by the translation's IDs, which a renumbering changes."""
    out: list[str] = []
    found = [(a, s, e) for a in result.nodes if (s := a.suggestion) for e in s["corrections"]]
    for a, suggestion, entry in sorted(found, key=lambda f: f[2]["kind"] != "replace"):
            out.append(f"# {a.id}: {a.status}; {suggestion['text']}")
            out.append("[[correction]]")
            out += [f"{key} = {_toml(entry.get(key))}" for key in ("kind", "node", "to", "creates", "words", "by",
                                                                   "basis") if key in entry]
            out.append("")
    return "\n".join(out)
