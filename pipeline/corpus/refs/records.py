"""The references read back from the marked-up corpus: for the graph, `check` and the register.

Reads: the <ref> elements of the corpus, the citations of nodes' titles and headings (read as a paragraph's,
not marked up), the source lines. Gives: one Reference per target, with its status and the "file:line" of
every source that has the citing words (locate.py).
"""
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from ...core import lang, tree
from ...core.tree import Element
from .grammar import find_citations
from .locate import find_wordings, locate, source_texts
from .markup import CONTAINERS, ref_attributes
from .resolve import classify, context_of, load_known_missing, node_order, resolve_phrase
from .stage import CorpusOf

# The elements that name a node: they hold text only (schema/corpus.rng), so their citations are read here,
# not marked up, and count as the node's own references.
LABEL_TAGS = ("title", "heading")


@dataclass(frozen=True)
class LabelRef:
    """A citation in a node's title or heading, read as a <ref> would be: its words and the attributes a
    <ref> would have (references() reads both alike: .text, .get)."""
    text: str
    attrib: Mapping[str, str]

    def get(self, name: str) -> str | None:
        return self.attrib.get(name)


@dataclass
class Reference:
    """One target of one <ref>, with where it came from."""
    source_id: str  # the citing ID: a node, a note or a commentary
    target: str
    words: str
    status: str
    kind: str | None = None
    reason: str | None = None
    locations: list[str] = field(default_factory=list)  # "file:line" for every source that has the words

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"from": self.source_id, "to": self.target, "words": self.words, "status": self.status,
               "source": self.locations[0] if self.locations else ""}
        if self.kind:
            out["kind"] = self.kind
        if self.reason:
            out["reason"] = self.reason
        if len(self.locations) > 1:
            out["sources"] = self.locations
        return out


def references(ctx: CorpusOf, known: Collection[str] | None = None) -> list[Reference]:
    """Every target of every <ref> in ctx.corpus, in document order, with status and source lines.

    Per-target status is recomputed from the tree (a range can hold present and
    absent articles); a suspect ref makes each of its targets suspect.
    """
    if known is None:
        known = load_known_missing(ctx.sources_dir, ctx.options.known_missing)
    index = {tree.attr(el, "id") for el in ctx.corpus.iter(*tree.NODE_TAGS)}
    lines = {(line.file, line.num): line.text for lines in ctx.lines.values() for line in lines}
    order: dict[str, int] | None = None
    out: list[Reference] = []
    for container in ctx.corpus.iter(*CONTAINERS, *LABEL_TAGS):
        if container.tag in LABEL_TAGS:
            if tree.parent(container).tag not in tree.NODE_TAGS:
                continue
            if order is None:
                order = node_order([tree.attr(el, "id") for el in ctx.corpus.iter(*tree.NODE_TAGS)])
            refs: Sequence[LabelRef | Element] = label_refs(container, index, known, order, ctx.profile)  # read like <ref>s: text, get
        else:
            refs = [r for r in container if r.tag == "ref"]
        if not refs:
            continue
        _, _, citing = context_of(container)
        seen_words: dict[str, int] = {}
        wordings = {ref.text or "" for ref in refs}
        # Each source's text is searched once per container for all its refs' words, not once per ref.
        found = [(name, nums, starts, find_wordings(text, wordings))
                 for name, nums, text, starts in source_texts(container, lines)]
        for ref in refs:
            words = ref.text or ""
            occurrence = seen_words.get(words, 0)
            seen_words[words] = occurrence + 1
            where = locate(found, words, occurrence)
            targets = (ref.get("to") or "").split()
            if ref.get("status") == "suspect":
                out += [Reference(citing, t, words, "suspect", reason=ref.get("reason"), locations=where)
                        for t in targets or [""]]
                continue
            for t in targets:
                status, kind = classify(t, index, known)
                out.append(Reference(citing, t, words, status, kind, locations=where))
    return out


def label_refs(label: Element, index: Collection[str], known: Collection[str], order: Mapping[str, int],
               profile: lang.Profile) -> list[LabelRef]:
    """The references of a node's title or heading ("Possible Lack of Recourse to Laws 26B and 72C"), read as
    mark_container reads a paragraph, each with the words and the attributes a <ref> would have (`text`, `get`)."""
    text = label.text or ""
    citations = find_citations(text, profile) if text else []
    if not citations:
        return []
    edition, node_id, _ = context_of(label)
    resolved = resolve_phrase(text, citations, edition, node_id, index, known, order, profile)
    return [LabelRef(text[c.start:c.end], ref_attributes(r, text[c.start:c.end]))
            for c, r in zip(citations, resolved)]
