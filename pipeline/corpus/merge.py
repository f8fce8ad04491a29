"""Merge: the articles of every source into one tree per edition.

Reads: Fragments, in manifest order.
Writes: the corpus tree (<corpus><edition>…).
Guarantees:
  - editions are never mixed: an article merges only with the same article of
    the same edition;
  - one article shown by several sources is one article whose `sources` lists
    every file and line span (one article shown twice in one source is merged the
    same way, by the structure stage, with merge_node);
  - the same note in two sources is one note (it sits at the same place of the
    same text, so the paragraphs compare equal);
  - wording variants are logged with both readings and the one kept; a real
    conflict is logged as an error and the first source's reading is kept,
    never silently.
"""
import bisect
import difflib
import re
from typing import Protocol, Sequence

from ..core import ids, tree
from ..core.report import BuildLog
from ..core.tree import Element


class Fragment(Protocol):
    """What merging asks of one source's fragment (structure.Fragment, which imports this module)."""
    @property
    def file(self) -> str: ...
    @property
    def edition(self) -> str: ...
    @property
    def articles(self) -> list[Element]: ...
    @property
    def commentary(self) -> list[Element]: ...
    @property
    def definitions(self) -> list[Element]: ...
    @property
    def introduction(self) -> Element | None: ...

SENTENCE_START_LOWER = re.compile(r"(?:^|[.!?]\s+)[a-z]")


def merge(fragments: Sequence[Fragment], log: BuildLog) -> Element:
    corpus = tree.new_corpus()
    # Per edition: num -> article, and the articles in number order. Looking an article up by
    # scanning the edition made merging quadratic in the number of articles.
    by_num: dict[tuple[str, str | None], Element] = {}
    ordered: dict[str, tuple[list[ids.SortKey], list[Element]]] = {}
    for fragment in fragments:
        edition = tree.edition(corpus, fragment.edition)
        for article in fragment.articles:
            key = (fragment.edition, article.get("num"))
            existing = by_num.get(key)
            if existing is None:
                _insert_article(edition, article, ordered.setdefault(fragment.edition, ([], [])))
                by_num[key] = article
            else:
                merge_node(existing, article, fragment.file, log)
        for commentary in fragment.commentary:
            edition.append(commentary)
        if fragment.definitions:
            _add_definitions(edition, fragment, log)
        if fragment.introduction is not None:
            _add_introduction(edition, fragment, log)
    return corpus


def _add_introduction(edition: Element, fragment: Fragment, log: BuildLog) -> None:
    """The fragment's introduction at the head of the edition, before its definitions; an edition has one,
    so a second (from another source) is an error naming both, and the first is kept."""
    introduction = fragment.introduction
    if introduction is None:
        return
    first = edition.find("introduction")
    if first is None:
        edition.insert(0, introduction)
        return
    where = ":".join(str(x) for x in tree.first_line(first))
    log.add("error", fragment.file, tree.first_line(introduction)[1],
            f"a second introduction of edition {edition.get('id')}: the first begins at {where}; the first is kept",
            first.get("id"))


def _add_definitions(edition: Element, fragment: Fragment, log: BuildLog) -> None:
    """The fragment's definitions into the edition's <definitions>, which stands before its articles; a
    term defined again (in another source) is kept once, the second reading logged."""
    holder = edition.find("definitions")
    if holder is None:
        holder = edition.makeelement("definitions", {})
        edition.insert(0, holder)
    have = {d.get("id"): d for d in holder}
    for definition in fragment.definitions:
        first = have.get(definition.get("id"))
        if first is None:
            holder.append(definition)
            have[definition.get("id")] = definition
            continue
        same = tree.plain_text(tree.child(first, "p")) == tree.plain_text(tree.child(definition, "p"))
        line = tree.first_line(definition)[1]
        log.add("variant" if same else "conflict", fragment.file, line,
                f"{definition.get('id')} is defined again"
                + ("; both read the same, so it is kept once" if same else ": the first reading is kept"),
                definition.get("id"))


def _insert_article(edition: Element, article: Element, ordered: tuple[list[ids.SortKey], list[Element]]) -> None:
    """Place `article` among the edition's articles in number order, before any commentary.

    `ordered` is (sort keys, articles) of the edition so far, kept sorted.
    """
    keys, articles = ordered
    key = ids.sort_key(tree.attr(article, "num"))
    i = bisect.bisect_right(keys, key)
    if i < len(articles):
        articles[i].addprevious(article)
    else:
        commentary = edition.find("commentary")
        if commentary is not None:
            commentary.addprevious(article)
        else:
            edition.append(article)
    keys.insert(i, key)
    articles.insert(i, article)


def _own(el: Element, tags: tuple[str, ...] = ("title", "heading", *tree.TEXT_TAGS, "gap")) -> list[Element]:
    return [c for c in el if c.tag in tags]


def _comparable(el: Element) -> tuple[str, tuple[str, ...]]:
    """What must agree between two sources: the words, the note positions and the note texts."""
    return tree.text_with_marks(el), tuple(" ".join((n.text or "").split()) for n in el.iter("note"))


def merge_node(a: Element, b: Element, file: str, log: BuildLog) -> None:
    """Merge node `b` (read from `file`) into node `a`, the same node read earlier: its sources, its
    headings and paragraphs (variants and conflicts logged) and, child by child, its children.
    Used for one node in two sources and for one node shown twice in one source (structure/parts.py)."""
    tree.merge_sources(a, b)
    own_a, own_b = _own(a), _own(b)
    if not own_a and own_b:
        anchor = next(iter(tree.child_nodes(a)), None)
        for el in own_b:
            if anchor is not None:
                anchor.addprevious(el)
            else:
                a.append(el)
    elif own_a and own_b:
        _merge_own(a, own_a, own_b, file, log)
    for child in tree.child_nodes(b):
        existing = tree.find_child(a, tree.attr(child, "num"))
        if existing is None:
            tree.insert_child(a, child)
        else:
            merge_node(existing, child, file, log)


def _merge_own(a: Element, own_a: list[Element], own_b: list[Element], file: str, log: BuildLog) -> None:
    node = a.get("id")
    by_tag_a = [(el.tag, el) for el in own_a]
    by_tag_b = [(el.tag, el) for el in own_b]
    if [t for t, _ in by_tag_a] != [t for t, _ in by_tag_b]:
        # Different shape: one source has a heading or paragraph the other lacks.
        _, line = tree.first_line(own_b[0])
        file_a, line_a = tree.first_line(own_a[0])
        log.add("conflict", file, line,
                f"{node} has a different structure here ({', '.join(t for t, _ in by_tag_b)}) than in "
                f"{log.location(file_a, line_a)} ({', '.join(t for t, _ in by_tag_a)}); the earlier text is kept", node)
        return
    for (_, x), (_, y) in zip(by_tag_a, by_tag_b):
        tree.merge_sources(x, y)
        if _comparable(x) == _comparable(y):
            for nx, ny in zip(x.iter("note", "row"), y.iter("note", "row")):  # (a table's rows: the same count)
                tree.merge_sources(nx, ny)
            continue
        _variant_or_conflict(x, y, file, log, node)


def _variant_or_conflict(x: Element, y: Element, file: str, log: BuildLog, node: str | None) -> None:
    text_x, text_y = tree.text_with_marks(x), tree.text_with_marks(y)
    file_x, line_x = tree.first_line(x)
    _, line_y = tree.first_line(y)
    change = _word_change(tree.plain_text(x), tree.plain_text(y))
    if text_x.lower() == text_y.lower() and _comparable(x)[1] == _comparable(y)[1]:
        # A case variant: keep the reading that starts its sentences with a capital.
        keep_y = len(SENTENCE_START_LOWER.findall(text_y)) < len(SENTENCE_START_LOWER.findall(text_x))
        kept = "the second" if keep_y else "the first"
        # before: the reading set aside; after: the one kept (read before x takes y's content).
        rejected, chosen = (tree.plain_text(x), tree.plain_text(y)) if keep_y else \
            (tree.plain_text(y), tree.plain_text(x))
        if keep_y:
            _replace_content(x, y)
        here, there = log.location(file_x, line_x), log.location(file, line_y)
        log.add("variant", file, line_y,
                f"capitalisation variant in {node}: {change} ({here} / {there}); "
                f"kept {kept} reading, which starts its sentences with a capital", node,
                before=rejected, after=chosen)
        return
    if _squashed(text_x) == _squashed(text_y):
        log.add("variant", file, line_y,
                f"punctuation or spacing variant in {node}: {change} ({log.location(file_x, line_x)} / "
                f"{log.location(file, line_y)}); kept the first reading", node)
        return
    log.add("conflict", file, line_y,
            f"{node} reads differently in {log.location(file_x, line_x)} and {log.location(file, line_y)}: {change}; "
            f"the first reading is kept until a source is corrected", node)


def _squashed(text: str) -> str:
    """The text's letters and digits alone, in lower case: what a punctuation or spacing variant keeps."""
    return re.sub(r"[\W_]+", "", text.lower())


def _replace_content(x: Element, y: Element) -> None:
    sources = tree.attr(x, "sources")
    x.text = y.text
    for child in list(x):
        x.remove(child)
    for child in list(y):
        x.append(child)
    x.set("sources", sources)


def _word_change(a: str, b: str) -> str:
    wa, wb = a.split(), b.split()
    parts = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if op != "equal":
            parts.append(f"'{' '.join(wa[i1:i2])}' / '{' '.join(wb[j1:j2])}'")
    return "; ".join(parts[:3]) or "(note texts differ)"
