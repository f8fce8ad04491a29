"""The references stage: every citation of the corpus found, resolved and marked up in place.

Reads: ctx.corpus (the text of paragraphs, table cells and notes), the optional sources/known-missing.toml,
the book's language (ctx.profile). Writes: <ref to="2017/47E1" status="ok">artikel 47E1</ref> around the
citing words, inside <p>, <cell> and <note> (see the ref element in schema/corpus.rng). A node's <title>
or <heading> holds text only: its citations are not marked up but read by records.references().
Guarantees: the plain text of every paragraph and note is unchanged; a ref never spans a note; running
the stage twice gives the same tree.
"""
from collections.abc import Collection, Iterator, Mapping
from typing import NamedTuple

from lxml import etree

from ...core import lang, tree
from ...core.memo import Memo
from ...core.report import BuildLog
from ...core.tree import Element
from .asked import NO_QUESTIONS, Answers, AskedCorpus, answer_of
from .grammar import find_citations
from .resolve import KINDS, STATUSES, Resolved, context_of, load_known_missing, node_order, resolve_phrase
from .stage import CorpusOf

# The elements whose text is read for citations and marked up with <ref>: paragraphs, a table's cells (each
# on its own: no citation runs from one cell into the next) and notes.
CONTAINERS = ("p", "cell", "note")


def _segments(container: Element) -> Iterator[tuple[Element, str]]:
    """(owner, attribute) of every text run of a <p> or <note> outside its notes: the text, then tails."""
    yield container, "text"
    for child in container:
        yield child, "tail"


def _wrap(owner: Element, attr: str, spans: list[tuple[int, int, dict[str, str]]]) -> None:
    """Replace the text run `owner.<attr>` by text and <ref> elements; `spans` are (start, end, attrib),
    sorted and not overlapping. Inserted right to left so the earlier offsets stay valid."""
    text = getattr(owner, attr)
    if attr == "text":
        parent, index = owner, 0
    else:
        parent = tree.parent(owner)
        index = parent.index(owner) + 1
    stop = len(text)  # each piece is cut from the whole text once: cutting it shorter each time was quadratic
    for start, end, attrib in reversed(spans):
        ref = etree.Element("ref", attrib)
        ref.text = text[start:end]
        ref.tail = text[end:stop] or None
        parent.insert(index, ref)
        stop = start
    setattr(owner, attr, text[:stop] or None)


def mark_container(container: Element, index: Collection[str], known: Collection[str], order: Mapping[str, int],
                   profile: lang.Profile, log: BuildLog | None = None) -> int:
    """Find, resolve and mark up the citations in one <p> or <note>, read with the words of `profile`; a
    citation that reads two ways is reported as uncertain in `log`. Returns the number of refs.

    What one container's text gives (_markup()) is taken from the memo of this process (markups()) where the
    same text runs were read in the same node before and this corpus answers what that reading asked (is an
    ID in the corpus, is it known missing, does one node stand below another) as it was answered then."""
    edition, node_id, _ = context_of(container)
    segments = list(_segments(container))
    texts = tuple(getattr(owner, attr) for owner, attr in segments)
    memo = markups(profile)
    key = (edition, node_id, texts)
    known_markup = memo.get(key)
    if known_markup is None or not known_markup.holds(index, known, order):
        known_markup = _markup(texts, edition, node_id, index, known, order, profile)
        if known_markup.answers is not None:
            memo.put(key, known_markup)
    else:
        memo.reused += 1
    count = 0
    for (owner, attr), spans in zip(segments, known_markup.spans):
        if spans:
            _wrap(owner, attr, [(start, end, dict(attrib)) for start, end, attrib in spans])
            count += len(spans)
    if log is not None:
        for message in known_markup.uncertain:
            held = tree.provenance(container)
            file, line = tree.first_line(held if held is not None else container)
            log.add("inference", file, line, message, node=node_id)
    return count


class Markup(NamedTuple):
    """What the reading of one container's text gave (mark_container): the refs of each text run, (start,
    end, attributes), the messages of citations that read two ways, and the answers the corpus gave, as
    AskedCorpus.answers() (None where it was read whole: then the mark-up is not kept).
    Tuples all through: a memo's entries live as long as the process, and a tuple of strings and numbers is
    no work for the garbage collector, which walks every list, dict and object at each full collection."""
    spans: tuple[tuple[tuple[int, int, tuple[tuple[str, str], ...]], ...], ...]
    uncertain: tuple[str, ...]
    answers: Answers | None

    def holds(self, index: Collection[str], known: Collection[str], order: Mapping[str, int]) -> bool:
        """Whether this corpus answers every question the reading asked as it was answered then."""
        if self.answers is None:
            return False
        ids_asked, missing, in_order, below = self.answers
        return (all(answer_of(index, q) == answer for q, answer in ids_asked)
                and all(answer_of(known, q) == answer for q, answer in missing)
                and all((q in order) == answer for q, answer in in_order)
                and all((order[target] > order[node_id]) == answer for (target, node_id), answer in below))


def _markup(texts: tuple[str | None, ...], edition: str, node_id: str, index: Collection[str], known: Collection[str],
            order: Mapping[str, int], profile: lang.Profile) -> Markup:
    """The refs of each text run of one container in node `node_id` (mark_container), the corpus asked
    through an AskedCorpus (made only where a text run cites something), and the messages of the citations
    that read two ways."""
    spans: list[tuple[tuple[int, int, tuple[tuple[str, str], ...]], ...]] = []
    uncertain: list[str] = []
    asked: AskedCorpus | None = None
    for text in texts:
        citations = find_citations(text, profile) if text else []
        if not text or not citations:
            spans.append(())
            continue
        if asked is None:
            asked = AskedCorpus(index, known, order)
        run = []
        resolved = resolve_phrase(text, citations, edition, node_id, asked.index, asked.known, asked.order, profile)
        for c, r in zip(citations, resolved):
            run.append((c.start, c.end, tuple(ref_attributes(r, text[c.start:c.end]).items())))
            if r.other:
                uncertain.append(f"'{text[c.start:c.end]}' in {node_id} is uncertain: read as "
                                 f"{' '.join(r.targets)}, but {r.other} is in the corpus too")
        spans.append(tuple(run))
    return Markup(tuple(spans), tuple(uncertain), NO_QUESTIONS if asked is None else asked.answers())


@lang.per_profile
def markups(profile: lang.Profile) -> Memo[Markup]:
    """The containers read in this process, by their edition, node and text runs."""
    return Memo("references", size=1 << 16)


def ref_attributes(r: Resolved, words: str) -> dict[str, str]:
    """The attributes of one <ref>: to, status, and kind (dangling) or reason (suspect)."""
    attrib = {"to": " ".join(r.targets) if r.targets else "", "status": "suspect"}
    if r.reason:
        attrib["reason"] = r.reason
        return attrib
    attrib["status"] = max(r.statuses, key=STATUSES.index)
    if attrib["status"] == "dangling":
        attrib["kind"] = " ".join(k for k in KINDS if k in r.kinds)
    return attrib


def find_references(ctx: CorpusOf) -> None:
    """Reads: ctx.corpus (text), known-missing.toml, the book's language (ctx.profile). Writes:
    <ref to=… status=…> around the citing words.

    Existing refs are removed first, so the stage can run again on the same tree.
    """
    known = load_known_missing(ctx.sources_dir, ctx.options.known_missing)
    etree.strip_tags(ctx.corpus, "ref")
    node_ids = [tree.attr(el, "id") for el in ctx.corpus.iter(*tree.NODE_TAGS)]
    index, order = set(node_ids), node_order(node_ids)
    for container in list(ctx.corpus.iter(*CONTAINERS)):
        mark_container(container, index, known, order, ctx.profile, ctx.log)
