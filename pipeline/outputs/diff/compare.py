"""Compare two editions article by article: match nodes, diff their words, find moved sentences and
changed references.

Reads: two <edition> elements of the corpus tree (never changed).
Writes: nothing; returns the comparison as plain dicts and lists (the JSON output as is), which the
renderers turn into HTML and text.
Guarantees: the same two editions always give the same result, in the order of the new edition (nodes
only in the old edition stand after their old predecessor).
"""
import pickle
from collections.abc import Iterator
from typing import Any

from lxml import etree

from . import words as w
from .segments import label_segments, segments, table_pairs, text_of
from ...core import ids, tree
from ...core.memo import Memo, digest
from ...core.tree import Element
from ...core.view import element_id
from .segments import Segment, TableDiff

# The comparison of two editions as JSON (Comparison.run), and of one article or node in it (as_dict).
Result = dict[str, Any]
# Two nodes paired by match(): (old, new, how), how 'citation', 'text' (renumbered) or None (one side only).
Pair = tuple[Element | None, Element | None, str | None]

# Matching (see docs/diff.md). Scores are difflib ratios over the words of a node and everything below it.
SAME_NUM_MIN = 0.3  # same citation: paired unless the texts share less than this
RENUMBERED_MIN = 0.6  # different citation: paired (as renumbered) only when the texts share at least this
ID_BONUS = 0.25  # the citation counts as evidence: B↔B at 0.5 beats B↔C at 0.7, not B↔C at 0.8
SETTLED = 0.8  # a same-citation pair this similar is not weighed against other candidates
WEIGH_ALL_MAX = 400  # up to 20 × 20 nodes (sections of an article) every pair is weighed; beyond, see match()
# Moves: a sentence that lost at least half its words at its place and one that is new at another place
# are the same rule moved when their words agree this much (article 24: 0.67 and 0.57; wrong pairs 0.40).
MOVE_MIN = 0.5
MOVE_MIN_WORDS = 5  # "Zie B." is no evidence of a move
KEPT_MIN = 0.5  # a sentence keeping this share of its words in place has not moved
# The status of an article that one edition's sources lack ("missing_from" names that edition).
NOT_COMPARABLE = "not-comparable"
# The status of a node (and an article) whose text differs only in accents or spacing (docs/diff.md,
# "Accents and spacing"): shown, counted apart, never a change of content. Its summary key is ACCENTS_SPACING.
FORM_ONLY = w.FORM
ACCENTS_SPACING = "accents_spacing"
# Statuses of a child that make its parent changed: a change of content, or a renumbering.
CHILD_CHANGES = ("changed", "added", "removed", "renumbered")


def cite(el: Element | None) -> str | None:
    return ids.split_id(element_id(el))[1] if el is not None else None


def label_text(el: Element | None) -> str:
    """The article title or section heading, '' when there is none."""
    if el is None:
        return ""
    label = el.find("title" if el.tag == "article" else "heading")
    return " ".join(tree.plain_text(label).split()) if label is not None else ""  # its words, not its notes


def own_paragraphs(el: Element | None) -> list[Element]:
    return [] if el is None else [c for c in el if c.tag == "p"]


def own_tables(el: Element | None) -> list[Element]:
    return [] if el is None else [c for c in el if c.tag == "table"]


def gaps(el: Element | None) -> list[str | None]:
    return [] if el is None else [g.get("reason") for g in el.iterchildren("gap")]


def cited_targets(el: Element) -> tuple[list[str], dict[str, str]]:
    """The citations a node's own text cites (its <p> and their notes; not its children), edition stripped,
    in order of first citation: from the <ref to="2017/47E 2017/54"> elements the references stage adds."""
    targets: list[str] = []
    words_by_target: dict[str, str] = {}
    for p in own_paragraphs(el) + own_tables(el):  # (in a table, the refs of its cells, row after row)
        for ref in p.iter("ref"):
            for target in (ref.get("to") or "").split():
                c = ids.split_id(target)[1] if "/" in target else target
                if c not in words_by_target:
                    targets.append(c)
                    words_by_target[c] = " ".join("".join(ref.itertext()).split())  # type: ignore[arg-type]  # (lxml's stubs: str or bytes; a tree of str gives str)
    return targets, words_by_target


class Comparison:
    """One comparison of two editions; caches the words of each node so every node is read once."""

    def __init__(self, old_edition: Element, new_edition: Element) -> None:
        self.old = old_edition
        self.new = new_edition
        self._words: dict[Element, list[str]] = {}

    def node_words(self, el: Element) -> list[str]:
        """Words of a node's label and of every paragraph and table cell below it (notes left out), read once
        (keyed by the element: the dict keeps lxml's proxy, so identity holds)."""
        out = self._words.get(el)
        if out is None:
            out = w.words(w.tokenise(label_text(el)))
            for p in el.iter("p", "cell"):
                words = self._words.get(p)
                if words is None:
                    words = self._words[p] = w.paragraph_words(p)
                out.extend(words)
            self._words[el] = out
        return out

    # -- matching ------------------------------------------------------------------------------------
    def match(self, old_nodes: list[Element], new_nodes: list[Element]) -> list[Pair]:
        """Pairs (old, new, how) in display order; how is 'citation', 'text' (renumbered) or None
        (only on one side). Same-citation pairs first; the rest by text similarity."""
        sims: dict[tuple[int, int], float] = {}

        def sim(i: int, j: int, floor: float) -> float:
            if (i, j) not in sims:
                sims[(i, j)] = w.similarity(self.node_words(old_nodes[i]), self.node_words(new_nodes[j]), floor)
            return sims[(i, j)]

        new_by_num = {(n.tag, n.get("num")): j for j, n in enumerate(new_nodes)}
        weigh_all = len(old_nodes) * len(new_nodes) <= WEIGH_ALL_MAX
        partners = [new_by_num.get((o.tag, o.get("num"))) for o in old_nodes]
        found = [j for j in partners if j is not None]
        # Beyond WEIGH_ALL_MAX, with no two nodes after the same partner, every same-citation candidate
        # is paired whatever its score (the others look only among nodes without one): a pair with the
        # same label is a candidate without its similarity being worked out.
        scores_matter = weigh_all or len(set(found)) < len(found)
        settled_old: set[int] = set()
        settled_new: set[int] = set()
        candidates: list[tuple[float, int, int]] = []
        for i, o in enumerate(old_nodes):
            j = partners[i]
            if j is None:
                continue
            same_label = label_text(o) and label_text(o) == label_text(new_nodes[j])
            if same_label and not scores_matter:
                candidates.append((-ID_BONUS, i, j))
                continue
            s = sim(i, j, SAME_NUM_MIN)
            if s >= SETTLED:
                settled_old.add(i)
                settled_new.add(j)
            if s >= SAME_NUM_MIN or same_label:
                candidates.append((-(s + ID_BONUS), i, j))
        if not weigh_all:
            # A book's articles: only nodes without a same-citation partner look for one by text.
            paired_nums = {c[1] for c in candidates}, {c[2] for c in candidates}
            settled_old |= paired_nums[0]
            settled_new |= paired_nums[1]
        for i, o in enumerate(old_nodes):
            if i in settled_old:
                continue
            for j, n in enumerate(new_nodes):
                if j in settled_new or n.tag != o.tag or n.get("num") == o.get("num"):
                    continue
                s = sim(i, j, RENUMBERED_MIN)
                if s >= RENUMBERED_MIN:
                    candidates.append((-s, i, j))
        pair_of_old: dict[int, int] = {}
        pair_of_new: dict[int, int] = {}
        for _, i, j in sorted(candidates):
            if i not in pair_of_old and j not in pair_of_new:
                pair_of_old[i], pair_of_new[j] = j, i
        pairs: list[Pair] = []
        flushed = 0
        for j, n in enumerate(new_nodes):
            if j in pair_of_new:
                i = pair_of_new[j]
                while flushed < i:
                    if flushed not in pair_of_old:
                        pairs.append((old_nodes[flushed], None, None))
                    flushed += 1
                flushed = max(flushed, i + 1)
                o = old_nodes[i]
                pairs.append((o, n, "citation" if o.get("num") == n.get("num") else "text"))
            else:
                pairs.append((None, n, None))
        for i in range(flushed, len(old_nodes)):
            if i not in pair_of_old:
                pairs.append((old_nodes[i], None, None))
        return pairs

    # -- the whole comparison ------------------------------------------------------------------------
    def run(self) -> Result:
        """The comparison as a dict: editions, summary, and one entry per article."""
        pairs = self.match(list(self.old.iterchildren("article")), list(self.new.iterchildren("article")))
        new_nums = {a.get("num") for a in self.new.iterchildren("article")}
        articles = []
        for o, n, how in pairs:
            shown = n if n is not None else o
            assert shown is not None  # (a pair has a node on one side at least)
            anchor = f"art-{shown.get('num')}"
            if n is None and shown.get("num") in new_nums:
                anchor += f"-{element_id(self.old)}"
            articles.append(self.article(o, n, how, anchor))
        summary: dict[str, list[Any]] = {"changed": [], ACCENTS_SPACING: [], "unchanged": [], "missing_from_old": [],
                   "missing_from_new": [], "renumbered": []}
        for a in articles:
            if a["status"] == NOT_COMPARABLE:
                side = "old" if a["missing_from"] == element_id(self.old) else "new"
                summary[f"missing_from_{side}"].append(a["new"] or a["old"])
            elif a["status"] == FORM_ONLY:
                summary[ACCENTS_SPACING].append(a["new"] or a["old"])
            else:
                summary[a["status"]].append(a["new"] or a["old"])
            if a["renumbered"]:
                summary["renumbered"].append([a["old"], a["new"]])
        return {"format": "lawbook-diff", "version": 1, "old": element_id(self.old), "new": element_id(self.new),
                "summary": summary, "articles": articles}


    def article(self, old: Element | None, new: Element | None, how: str | None, anchor: str) -> Result:
        """ArticleDiff(…).as_dict() of one article pair, exactly: taken from the memo of this process where
        the same two articles (their XML), paired the same way under the same anchor between editions of
        the same names, were compared before. An article pair's comparison reads nothing outside the two
        articles (its sections are matched, and its sentences found moved, within them)."""
        key = digest(_xml(old), _xml(new), how, anchor, element_id(self.old), element_id(self.new))
        found = ARTICLES.get(key)
        if found is not None:
            ARTICLES.reused += 1
            kept: Result = pickle.loads(found)  # a new dict each time: a caller may change what it is given
            return kept
        data = ArticleDiff(self, old, new, how, anchor).as_dict()
        ARTICLES.put(key, pickle.dumps(data, protocol=5))
        return data


# The article pairs compared in this process (Comparison.article), pickled.
ARTICLES: Memo[bytes] = Memo("diff")


def _xml(el: Element | None) -> bytes | None:
    """An article's own XML (not the whitespace after it), or None."""
    return etree.tostring(el, with_tail=False) if el is not None else None


class NodePair:
    """A node of the old edition and its match in the new (either may be None), diffed word by word."""

    def __init__(self, old: Element | None, new: Element | None, how: str | None, old_edition: str | None) -> None:
        self.old, self.new, self.how = old, new, how
        self.old_edition = old_edition
        self.old_tokens = w.node_text_tokens(own_paragraphs(old))
        self.new_tokens = w.node_text_tokens(own_paragraphs(new))
        self.ops = w.diff_tokens(self.old_tokens, self.new_tokens)
        self.old_group: dict[int, int] = {}
        self.new_group: dict[int, int] = {}
        self.old_kept: set[int] = set()
        self.new_kept: set[int] = set()
        for k, (tag, i1, i2, j1, j2) in enumerate(self.ops):
            if tag in ("equal", "form"):  # a word with other accents has not left its place
                self.old_kept.update(range(i1, i2))
                self.new_kept.update(range(j1, j2))
            else:
                self.old_group.update(dict.fromkeys(range(i1, i2), k))
                self.new_group.update(dict.fromkeys(range(j1, j2), k))
        self.children: list[NodePair] = []
        self.moved_out: dict[int, str | None] = {}  # old sentence index -> where it went (citation)
        self.moved_in: dict[int, tuple[NodePair, int]] = {}  # new sentence index -> (source NodePair, old sentence index)
        # Worked out once, when first asked.
        self._status: str | None = None
        self._refs_changed: tuple[Result | None] | None = None
        self._own_kind: str | None = None
        self.tables = table_pairs(own_tables(old), own_tables(new))

    @property
    def citation(self) -> str | None:
        return cite(self.new) or cite(self.old)

    @property
    def anchor(self) -> str:
        return f"c-{cite(self.new)}" if self.new is not None else f"c-{cite(self.old)}-{self.old_edition}"

    def walk(self) -> Iterator["NodePair"]:
        yield self
        for child in self.children:
            yield from child.walk()

    def sentences(self, side: str) -> list[tuple[int, list[w.Token], list[int]]]:
        """(sentence index, its tokens, its token indices) of one side's own text."""
        tokens = self.old_tokens if side == "old" else self.new_tokens
        out: dict[int, list[int]] = {}
        for k, t in enumerate(tokens):
            out.setdefault(t.sentence, []).append(k)
        return [(s, [tokens[k] for k in ks], ks) for s, ks in sorted(out.items())]

    def notes_kind(self) -> str:
        """How this node's own notes differ (words.classify, note by note in their order): SAME, FORM or
        CONTENT (a note more or fewer is CONTENT)."""
        old_notes = [tree.plain_text(t.note) for t in self.old_tokens if t.key == w.NOTE and t.note is not None]
        new_notes = [tree.plain_text(t.note) for t in self.new_tokens if t.key == w.NOTE and t.note is not None]
        if len(old_notes) != len(new_notes):
            return w.CONTENT
        return w.worst(w.classify(a, b) for a, b in zip(old_notes, new_notes))

    # own_kind, status and refs_changed are asked for every node at several levels: each is worked
    # out once (moves found later change neither: they only add segments).
    def own_kind(self) -> str:
        """How this node's own heading, text, notes and tables differ (children not counted): words.SAME,
        FORM (accents or spacing only) or CONTENT."""
        if self._own_kind is None:
            if self.old is None or self.new is None:
                self._own_kind = w.CONTENT
            else:
                ops = {op[0] for op in self.ops}
                text = w.CONTENT if ops - {"equal", "form"} else w.FORM if "form" in ops else w.SAME
                tables = {t["status"] for t in self.tables}
                table = (w.CONTENT if tables - {"unchanged", FORM_ONLY} else w.FORM if FORM_ONLY in tables
                         else w.SAME)
                self._own_kind = w.worst((w.classify(label_text(self.old), label_text(self.new)), text,
                                          self.notes_kind(), table))
        return self._own_kind

    def own_change(self) -> bool:
        """Whether this node's own heading, text, notes or tables differ in their words (children not
        counted); a difference of accents or spacing only is not one (own_kind says FORM)."""
        return self.own_kind() == w.CONTENT

    def status(self) -> str:
        if self._status is None:
            self._status = self._work_out_status()
        return self._status

    def _work_out_status(self) -> str:
        if self.old is None:
            return "added"
        if self.new is None:
            return "removed"
        if self.own_change() or self.refs_changed() or any(c.status() in CHILD_CHANGES or c.how == "text"
                                                           for c in self.children):
            return "changed"
        if self.own_kind() == w.FORM or any(c.status() == FORM_ONLY for c in self.children):
            return FORM_ONLY
        return "renumbered" if self.how == "text" else "unchanged"

    def refs_changed(self) -> Result | None:
        """The change of the targets this node's own text cites, or None; worked out once."""
        if self._refs_changed is None:
            self._refs_changed = (self._work_out_refs_changed(),)
        return self._refs_changed[0]

    def _work_out_refs_changed(self) -> Result | None:
        if self.old is None or self.new is None:
            return None
        old_targets, old_words = cited_targets(self.old)
        new_targets, new_words = cited_targets(self.new)
        if set(old_targets) == set(new_targets):
            return None
        return {"node": self.citation, "old": old_targets, "new": new_targets,
                "removed": [t for t in old_targets if t not in new_targets],
                "added": [t for t in new_targets if t not in old_targets],
                "old_words": [old_words[t] for t in old_targets], "new_words": [new_words[t] for t in new_targets]}

    # -- segments ------------------------------------------------------------------------------------
    def paragraphs(self) -> list[list[Segment]]:
        """The redline of this node's own text: a list of paragraphs, each a list of segments
        (equal / delete / insert / note / moved-out / moved-in)."""
        return segments(self.old_tokens, self.new_tokens, self.ops, self)

    def as_dict(self) -> Result:
        node = self.new if self.new is not None else self.old
        assert node is not None  # (a pair has a node on one side at least)
        data: Result = {"level": node.tag,
                "old": cite(self.old), "new": cite(self.new), "status": self.status(),
                "renumbered": self.how == "text", "anchor": self.anchor}
        old_label, new_label = label_text(self.old), label_text(self.new)
        if old_label or new_label:
            data["label"] = {"old": old_label if self.old is not None else None,
                             "new": new_label if self.new is not None else None,
                             "segments": label_segments(old_label, new_label)}
        data["paragraphs"] = self.paragraphs()
        if self.tables:  # (only a node with a table on either side: the comparison of a book without is as it was)
            data["tables"] = [dict(t, after=min(t["after"], len(data["paragraphs"]))) for t in self.tables]
        gap_notes = [{"edition": ed, "reason": r} for ed, el in (("old", self.old), ("new", self.new))
                     for r in gaps(el)]
        if gap_notes:
            data["gaps"] = gap_notes
        data["children"] = [c.as_dict() for c in self.children]
        return data


class ArticleDiff:
    """One article pair: its node tree, moved sentences and changed references."""

    def __init__(self, comparison: Comparison, old: Element | None, new: Element | None, how: str | None,
                 anchor: str) -> None:
        self.comparison = comparison
        self.anchor = anchor
        self.root = self._pair(old, new, how)
        self.root_anchor = anchor
        self.moves = self._find_moves() if old is not None and new is not None else []

    def _pair(self, old: Element | None, new: Element | None, how: str | None) -> NodePair:
        pair = NodePair(old, new, how, element_id(self.comparison.old))
        if old is not None and new is not None:
            for o, n, h in self.comparison.match(tree.child_nodes(old), tree.child_nodes(new)):
                pair.children.append(self._pair(o, n, h))
        else:
            node = old if old is not None else new
            assert node is not None  # (a pair has a node on one side at least)
            for child in tree.child_nodes(node):
                pair.children.append(self._pair(child if old is not None else None,
                                                child if new is not None else None, None))
        return pair

    def _find_moves(self) -> list[dict[str, Any]]:
        """Pair sentences that left their place with sentences new at another place, by word similarity
        (greedy, best first). Marks them on the NodePairs; returns the moves in order of the new text."""
        gone: list[tuple[int, int, NodePair, list[w.Token], set[int]]] = []
        arrived: list[tuple[int, int, NodePair, list[w.Token], set[int]]] = []
        for order, pair in enumerate(self.root.walk()):
            for side, out, kept, group in (("old", gone, pair.old_kept, pair.old_group),
                                           ("new", arrived, pair.new_kept, pair.new_group)):
                if not group:
                    continue  # every token of this side is kept in place: no sentence of it has moved
                for s, toks, idx in pair.sentences(side):
                    word_idx = [k for k, t in zip(idx, toks) if t.is_word]
                    if len(word_idx) < MOVE_MIN_WORDS:
                        continue
                    if sum(k in kept for k in word_idx) / len(word_idx) >= KEPT_MIN:
                        continue
                    out.append((order, s, pair, toks, {group[k] for k in idx if k in group}))
        candidates: list[tuple[float, int, int, int, int, int, int]] = []
        for a, (o_order, o_s, o_pair, o_toks, o_groups) in enumerate(gone):
            for b, (n_order, n_s, n_pair, n_toks, n_groups) in enumerate(arrived):
                if o_pair is n_pair and o_groups & n_groups:
                    continue  # rewritten in place: the word diff shows it
                ratio = w.similarity(w.words(o_toks), w.words(n_toks), MOVE_MIN)
                if ratio >= MOVE_MIN:
                    candidates.append((-ratio, n_order, n_s, o_order, o_s, a, b))
        used_a: set[int] = set()
        used_b: set[int] = set()
        moves: list[dict[str, Any]] = []
        for neg_ratio, *_, a, b in sorted(candidates, key=lambda c: c[:5]):
            if a in used_a or b in used_b:
                continue
            used_a.add(a)
            used_b.add(b)
            _, o_s, o_pair, o_toks, _ = gone[a]
            _, n_s, n_pair, n_toks, _ = arrived[b]
            o_pair.moved_out[o_s] = n_pair.citation
            n_pair.moved_in[n_s] = (o_pair, o_s)
            moves.append({"from": o_pair.citation, "to": n_pair.citation, "similarity": round(-neg_ratio, 2),
                          "old": text_of(o_toks), "new": text_of(n_toks),
                          "from_anchor": o_pair.anchor, "to_anchor": n_pair.anchor,
                          "_order": (b,)})
        moves.sort(key=lambda m: m.pop("_order"))
        return moves

    def as_dict(self) -> Result:
        root = self.root
        data = root.as_dict()
        if root.old is None or root.new is None:
            # The sources may hold part of an edition: an article in one edition's sources only is not
            # new or dropped, it cannot be compared. Every output says so (render.py, templates/diff/).
            data["status"] = NOT_COMPARABLE
            data["missing_from"] = element_id(self.comparison.old if root.old is None else self.comparison.new)
        data["anchor"] = self.anchor
        data["title"] = label_text(root.new) or label_text(root.old)
        sections: dict[str, list[Any]] = {"added": [], "removed": [], "renumbered": [], "changed": [], ACCENTS_SPACING: []}
        references: list[Result] = []
        both = root.old is not None and root.new is not None
        for pair in list(root.walk())[1:] if both else []:  # an article on one side only has no changes
            st = pair.status()
            if st in ("added", "removed"):
                sections[st].append(pair.citation if st == "added" else cite(pair.old))
                continue
            if pair.how == "text":
                sections["renumbered"].append([cite(pair.old), cite(pair.new)])
            if pair.own_change() or pair.refs_changed():
                sections["changed"].append(cite(pair.new))
            elif pair.own_kind() == w.FORM:
                sections[ACCENTS_SPACING].append(cite(pair.new))
        for pair in root.walk():
            change = pair.refs_changed()
            if change:
                references.append(change)
        data["changes"] = {
            "title": ({"old": label_text(root.old), "new": label_text(root.new)}
                      if root.old is not None and root.new is not None
                      and w.classify(label_text(root.old), label_text(root.new)) == w.CONTENT else None),
            "sections": sections, "references": references, "moved": self.moves}
        return data
