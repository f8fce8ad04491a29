"""English citations: every form the WBF Laws of Duplicate Bridge 2017 cite by, read with the English
profile on a small hand-made corpus (exact words, offsets, targets and statuses); the evidence an
English source gives for an inferred number; and the pages of the English book, where present."""
import types
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from lxml import etree

from pipeline.core import ids, lang, tree
from pipeline.corpus import refs, structure

EN = lang.profile("en")
ENGLISH = Path(__file__).resolve().parents[1].parent / "shared" / "english"

# The nodes of the little English corpus: every node a case below cites or stands in.
NODES = ["4", "12C1b", "12C2", "12C3", "16B", "16C2", "16D2a", "16D2c", "16D2d", "16D3", "17D1", "19", "22A",
         "24A", "24E", "27B1b", "30B1b.i", "30B1b.ii", "31A2a", "40B2c", "40B3", "41C", "47B", "47E1", "49",
         "50D1a", "50D1b", "50D2a", "50E1", "50E3", "51", "53A", "53B", "55C", "57A", "57B"]


def corpus_of(cites, edition="2017"):
    """A corpus whose edition holds the nodes `cites` and every node above them, in reading order."""
    corpus = tree.new_corpus()
    ed = tree.edition(corpus, edition)
    for cite in cites:
        parent = ed
        for node in reversed(list(ids.NodeId.of(edition, cite).ancestors())):
            el = tree.find_child(parent, node.parts[node.level]) if parent is not ed else next(
                (a for a in ed.iterchildren("article") if a.get("num") == node.article), None)
            if el is None:
                el = tree.add_child(parent, node.level, node.parts[node.level], str(node))
            parent = el
    return corpus


CORPUS = corpus_of(NODES)


def mark(text, node="2017/53A"):
    """(offset, words, to, status and kind or reason) of every <ref> a paragraph `text` gets, standing
    in `node` of a copy of CORPUS; the paragraph's text is checked to be unchanged by the markup."""
    corpus = etree.fromstring(etree.tostring(CORPUS))
    index = [el.get("id") for el in corpus.iter(*tree.NODE_TAGS)]
    p = etree.SubElement(tree.node_by_id(corpus, node), "p", sources="a.txt:1")
    p.text = text
    refs.mark_container(p, set(index), {}, refs.node_order(index), EN)
    assert tree.plain_text(p) == text
    out, offset = [], 0
    for kind, words, el in tree.inline(p):
        if kind == tree.REF:
            extra = el.get("kind") or el.get("reason")
            out.append((offset, words, el.get("to"), el.get("status") + (f" {extra}" if extra else "")))
        offset += len(words)
    return out


def at(text, words, occurrence=0):
    """The offset of the `occurrence`-th `words` in `text`."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(words, start + 1)
    return start


# (text, the node it stands in, [(words, occurrence of the words in the text, targets, status)])
CASES = [
    # a Law and its parts, down to the subitem
    ("see Law 47E1", "2017/53A", [("Law 47E1", 0, "2017/47E1", "ok")]),
    ("he shall award an adjusted score [see Law 12C1(b)].", "2017/53B", [("Law 12C1(b)", 0, "2017/12C1b", "ok")]),
    ("returned to hand [as per Law 50D2(a)] is unauthorized", "2017/50E3", [("Law 50D2(a)", 0, "2017/50D2a", "ok")]),
    ("a comparable call [see Laws 27B1(b), 30B1(b)(i), 31A2(a) and 32A2(a)] the Director", "2017/53B",
     [("Laws 27B1(b)", 0, "2017/27B1b", "ok"), ("30B1(b)(i)", 0, "2017/30B1b.i", "ok"),
      ("31A2(a)", 0, "2017/31A2a", "ok"), ("32A2(a)", 0, "2017/32A2a", "dangling article-absent")]),
    ("becomes a penalty card (see Laws 50 and 51).", "2017/24E",
     [("Laws 50", 0, "2017/50", "ok"), ("51", 0, "2017/51", "ok")]),
    ("Laws 4, 12C2 and 91 apply", "2017/53A",
     [("Laws 4", 0, "2017/4", "ok"), ("12C2", 0, "2017/12C2", "ok"), ("91", 0, "2017/91", "dangling article-absent")]),
    ("as required by Law 50 or Law 51, he may not", "2017/53B",
     [("Law 50", 0, "2017/50", "ok"), ("Law 51", 0, "2017/51", "ok")]),
    ("an adjusted score [see Law 12C2]", "2017/16C2", [("Law 12C2", 0, "2017/12C2", "ok")]),
    ("(for defenders, see Law 49 - penalty card)", "2017/53A", [("Law 49", 0, "2017/49", "ok")]),
    ("through his infraction, Law 16 applies.", "2017/55C", [("Law 16", 0, "2017/16", "ok")]),
    ("subsequent to the end of the auction as in Law 22A, either", "2017/17D1", [("Law 22A", 0, "2017/22A", "ok")]),
    ("LAW 16 and law 22A", "2017/53A", [("LAW 16", 0, "2017/16", "ok"), ("law 22A", 0, "2017/22A", "ok")]),
    ("Laws 30B1(b)(i) to 30B1(b)(ii)", "2017/53A",
     [("Laws 30B1(b)(i) to 30B1(b)(ii)", 0, "2017/30B1b.i 2017/30B1b.ii", "ok")]),
    # relative: in the current Law, section and subsection, where the words stand
    ("(see B)", "2017/41C", [("B", 0, "2017/41B", "dangling part-absent")]),
    ("treated as a correct lead (but see B).", "2017/53A", [("B", 0, "2017/53B", "ok")]),
    ("rectification selected by declarer (see A above)", "2017/57B", [("A above", 0, "2017/57A", "ok")]),
    ("the conditions described in A1 above are met", "2017/53B", [("A1 above", 0, "2017/53A1", "dangling part-absent")]),
    ("as the case may be (see C2 below)", "2017/16B", [("C2 below", 0, "2017/16C2", "ok")]),
    ("no further rectification (but see E following).", "2017/24A", [("E following", 0, "2017/24E", "ok")]),
    ("except as provided in (d) hereunder", "2017/16D2a", [("(d) hereunder", 0, "2017/16D2d", "ok")]),
    ("Except as provided in (b) below, a major penalty card", "2017/50D1a", [("(b) below", 0, "2017/50D1b", "ok")]),
    ("(For a penalty card which has not yet been played, see E1 above.)", "2017/50E3",
     [("E1 above", 0, "2017/50E1", "ok")]),
    # a subsection's number, only before a direction word: the current section's
    ("the Director proceeds as in 2(c) or 2(d) above.", "2017/16D3",
     [("2(c)", 0, "2017/16D2c", "ok"), ("2(d) above", 0, "2017/16D2d", "ok")]),
    ("as in 2(c) above", "2017/40B3", [("2(c) above", 0, "2017/40B2c", "ok")]),
    ("Notwithstanding 1 and 2 above, the Director", "2017/12C3",
     [("1", 0, "2017/12C1", "ok"), ("2 above", 0, "2017/12C2", "ok")]),
    # the current Law by its words
    ("(for defenders, except as this Law provides, see Law 49 - penalty card)", "2017/47B",
     [("this Law", 0, "2017/47", "ok"), ("Law 49", 0, "2017/49", "ok")]),
    ("Except as This Law specifies", "2017/47E1", [("This Law", 0, "2017/47", "ok")]),
    # damage, and relative words pointing the wrong way
    ("as the case may be (see C2 above)", "2017/16B",
     [("C2 above", 0, "2017/16C2", "suspect 'above' but 2017/16C2 stands below 2017/16B")]),
    ("(but see A following)", "2017/24E", [("A following", 0, "2017/24A",
                                            "suspect 'following' but 2017/24A stands above 2017/24E")]),
    ("Notwithstanding 1 and 2 above", "2017/12",
     [("1", 0, "", "suspect '1' names a subsection, but 2017/12 is not in a section"),
      ("2 above", 0, "", "suspect '2' names a subsection, but 2017/12 is not in a section")]),
    # never a citation
    ("the laws and regulations", "2017/53A", []),
    ("an infraction of law has resulted, by law", "2017/53A", []),
    ("When a call has been withdrawn as these laws provide:", "2017/16C2", []),
    ("after the first 13 tricks, 2 players", "2017/53A", []),
    ("Law, laws and this Law's reach", "2017/53A", [("this Law", 0, "2017/53", "ok")]),
    ("see a doctor", "2017/53A", []),
    ("see also Law 13A", "2017/53A", [("Law 13A", 0, "2017/13A", "dangling article-absent")]),
    ("Laws 50 and 51 above", "2017/24E", [("Laws 50", 0, "2017/50", "ok"), ("51", 0, "2017/51", "ok")]),
    # a page's line break inside a paragraph: "Law" at the end of one line, "19." opening the next
    ("not permitted by Law 19. Law 36 applies.", "2017/53A",
     [("Law 19", 0, "2017/19", "ok"), ("Law 36", 0, "2017/36", "dangling article-absent")]),
    ("not permitted by Law\n19. Law 36 applies.", "2017/53A",
     [("Law\n19", 0, "2017/19", "ok"), ("Law 36", 0, "2017/36", "dangling article-absent")]),
]


@pytest.mark.parametrize("text, node, expected", CASES, ids=[c[0] for c in CASES])
def test_english_citation(text, node, expected):
    assert mark(text, node) == [(at(text, w, n), w, to, status) for w, n, to, status in expected]


def test_the_dutch_words_are_no_citations_in_english():
    assert mark("zie artikel 47E1, hierboven, dit artikel", "2017/16B") == []
    # (a bare designation is English: "C2 hierboven" cites C2 by its designation alone)
    assert mark("C2 hierboven", "2017/16B") == [(0, "C2", "2017/16C2", "ok")]


def test_a_bare_designation_cites_a_part_of_the_current_law():
    assert refs.find_citations("if a violation of C2 has damaged", EN)[0].relative == "C2"
    assert [c.relative for c in refs.find_citations("the application of E1 and C2(a) applies", EN)] == ["E1", "C2a"]
    # never inside a citation, an ID or a word, and not in Dutch
    assert [(c.relative, c.parts and c.parts["section"]) for c in refs.find_citations("Laws 20F2 and F3", EN)] == [
        (None, "F"), (None, "F")]
    assert refs.find_citations("12C2 LHO x/C2 AC2", EN) == []
    assert refs.find_citations("een schending van C2", lang.profile("nl")) == []


def test_find_citations_gives_the_parts_down_to_the_subitem():
    [c] = refs.find_citations("see Law 40B2(a)(iii).", EN)
    assert (c.start, c.end, c.parts) == (4, 20, {"article": "40", "section": "B", "subsection": "2", "item": "a",
                                                 "subitem": "iii"})
    # "(iiii)" is no numeral: the citation stops at the item
    [c] = refs.find_citations("Law 40B2(a)(iiii)", EN)
    assert c.parts["subitem"] is None and c.end == len("Law 40B2(a)")


def test_an_inferred_number_is_confirmed_by_the_english_relative_citations():
    lines = [types.SimpleNamespace(file="a.txt", num=n, text=t) for n, t in enumerate([
        "treated as a correct lead (but see B).", "the conditions described in A above are met",
        "a lead restriction, see C2 below", "except as provided in (a) hereunder", "see Law 53A"], 1)]
    evidence = structure.Evidence(lines, EN)
    every = {("a.txt", n) for n in range(1, 6)}
    assert evidence.find(every, "2017/53B", "section", "B") == ["'but see B' (a.txt:1)"]
    assert evidence.find(every, "2017/53A", "section", "A") == ["'Law 53A' (a.txt:5)", "'in A above' (a.txt:2)"]
    assert evidence.find(every, "2017/53C2", "subsection", "2") == ["'see C2 below' (a.txt:3)"]
    assert evidence.find(every, "2017/53C2a", "item", "a") == ["'in (a) hereunder' (a.txt:4)"]
    assert evidence.find(every, "2017/53D", "section", "D") == []


# -- any text of citation words ------------------------------------------------------------------
WORDS = ["Law", "Laws", "law", "LAW", "see", "also", "but", "above", "below", "following", "hereunder", "this Law",
         "and", "or", "to", "through", "as in", ",", "(", ")", "[", "]", ".", "-", "\n", "12", "4", "19.",
         "30B1(b)(i)", "50D2(a)", "B", "C2", "E1a", "(a)", "(ii)", "(iiii)", "2(c)", "1", "A", "a", "47 E2"]
texts = st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(["2017/16D3", "2017/16", "2017/30B1b.i", "2017/50D1a"]))
def test_any_english_text_is_read_without_error_and_without_overlap(text, node):
    citations = refs.find_citations(text, EN)
    ends = [(c.start, c.end) for c in citations]
    assert all(0 <= a < b <= len(text) for a, b in ends)
    assert all(b <= a2 for (_, b), (a2, _) in zip(ends, ends[1:]))
    resolved = refs.resolve_phrase(text, citations, "2017", node, set(NODES), {}, {}, EN)
    for r in resolved:
        assert r.reason or all(ids.is_well_formed(t) for t in r.targets)


# -- the English book's pages ---------------------------------------------------------------------
def pages():
    if not ENGLISH.is_dir():
        pytest.skip(f"the English original is not at {ENGLISH} (it is not part of the project)")
    return {p.name: p.read_bytes().decode("cp1252") for p in sorted(ENGLISH.glob("laws2017-en_p*.txt"))}


def test_every_law_with_a_number_on_the_english_pages_starts_a_citation():
    import re
    missed, count = [], 0
    for name, text in pages().items():
        starts = {c.start for c in refs.find_citations(text, EN)}
        for m in re.finditer(r"(?<!\w)Laws?\s*\d", text, re.IGNORECASE):
            count += 1
            if m.start() not in starts:
                missed.append(f"{name}: {text[m.start():m.start() + 20]!r}")
    assert missed == [] and count > 50


def test_the_english_pages_cite_what_the_law_cites():
    text = pages()["laws2017-en_p32-34.txt"]
    found = [text[c.start:c.end] for c in refs.find_citations(text, EN)]
    assert ["Laws 27B1(b)", "30B1(b)(i)", "31A2(a)", "32A2(a)"] == found[found.index("Laws 27B1(b)"):][:4]
    assert "C following" in found and "E following" in found and "A1 above" in found
