"""The memos of a rebuild in one process (core/memo.py): repair (reading/repair.py repaired), the evidence and
the fragments (corpus/structure.py Evidence.of_sources, fragment), the references (corpus/refs.py mark_container) and the editions' comparison
(outputs/diff/compare.py Comparison.article).

A rebuild that takes what it can from the memos writes, byte for byte, what a build of a fresh process
writes; and after an edit of one source it makes again only what that source changed.

The book is made up here: two wiki pages and one printed page in a layout of their own, in which each
source depends on another one through the whole book: the printed page's line-end hyphen "zee-" + "egel"
is kept because a wiki page writes "zee-egel"; a wiki page's inferred section 1A is confirmed by a citation
on the printed page; a wiki page cites section 2B, which only the printed page holds.
"""
import importlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pipeline.core import lang, memo
from pipeline.corpus import refs, structure
from pipeline.publish import run
from pipeline.reading import repair


@pytest.fixture(autouse=True)
def memos_on():
    """The memos keep what they are given only in a process that builds again (watch mode switches them on)."""
    memo.keep()
    yield
    memo.clear_all()
    memo.keep(False)

compare = importlib.import_module("pipeline.outputs.diff.compare")  # (the package's `compare` is a function)

OLD_PAGE = """ARTIKEL 1

Artikel 1

Het schudden van de kaarten

1. Schudden voor het spel
Elke speler schudt de kaarten grondig voor het spel (zie artikel 2).

2. Delen van de kaarten
Elke speler krijgt dertien kaarten, een voor een gedeeld.
"""
NEW_PAGE = """ARTIKEL 1

Artikel 1

Het schudden van de kaarten

1. Schudden voor het spel
Elke speler schudt de kaarten grondig voor het spel (zie artikel 2B). Een zee-egel op tafel telt niet als kaart.

2. Delen van de kaarten
Elke speler krijgt dertien kaarten, een voor een gedeeld.

3. Na het delen
Niemand bekijkt zijn kaarten voordat het delen klaar is.
"""
PRINTED = """Mijn Spelboek 2017

7
ARTIKEL 2
Het tellen van
de kaarten
A. Tellen voor het spel
Elke speler telt zijn kaarten voordat hij ze bekijkt. Een zee-
egel op tafel wordt niet meegeteld.
B. Te weinig kaarten
Een speler met te weinig kaarten meldt dat direct aan de
wedstrijdleider (zie artikel 1A).
"""
MANIFEST = """[[source]]
file = "a.txt"
edition = "2007"

[[source]]
file = "b.txt"
edition = "2017"

[[source]]
file = "c.txt"
edition = "2017"
"""
COMPARED = ("corpus.xml", "corpus.json", "report.json", "report.txt", "refs.json", "diff/2007-2017.json",
            "diff/2007-2017.html", "2017/lawbook.md")
OPTIONS = {"no_pdf": True}


def make_book(folder: Path) -> Path:
    folder.mkdir()
    for name, text in (("a.txt", OLD_PAGE), ("b.txt", NEW_PAGE), ("c.txt", PRINTED), ("sources.toml", MANIFEST)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def fresh_build(sources: Path, out: Path) -> Path:
    """What a build in a fresh process writes: every memo emptied, nothing taken from the cache."""
    memo.clear_all()
    run.build(sources, out, dict(OPTIONS, force=True, cache_dir=out.with_name(out.name + "-cache")))
    return out


def outputs(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in COMPARED}


def counts() -> dict[str, int]:
    """How many entries each memo made (what was computed, not taken) for the Dutch profile."""
    nl = lang.profile("nl")
    return {"repair": repair.repairs(nl).made, "evidence": structure.Evidence.memo(nl).made,
            "structure": structure.fragments(nl).made,
            "references": refs.markups(nl).made, "diff": compare.ARTICLES.made}


def node_text(corpus_xml: bytes, node_id: str) -> str:
    from lxml import etree

    [el] = etree.fromstring(corpus_xml).xpath("//*[@id=$id]", id=node_id)
    return " ".join("".join(p.itertext()) for p in el.iterchildren("p"))


def report_messages(out: dict[str, bytes]) -> list[str]:
    return [e["message"] for e in json.loads(out["report.json"])["entries"]]


# Each edit changes one source, and what it changes of another source's part of the build with it.
EDITS = [
    # b's word "zee-egel" goes: the printed page's hyphen is now joined, though c is unchanged
    ("b.txt", "Een zee-egel op tafel telt niet als kaart.", "Een egel op tafel telt niet als kaart.",
     lambda out: "een zeeegel op tafel" in node_text(out["corpus.xml"], "2017/2A").lower()),
    # c's citation of 1A now cites 1B: b's inferred section 1A loses its confirmation, 1B gains one
    ("c.txt", "(zie artikel 1A).", "(zie artikel 1B).",
     lambda out: any(m.startswith("section B of 2017/1 inferred from list number 2.; confirmed by 'artikel 1B' "
                                  "(c.txt:") for m in report_messages(out))),
    # c's section B goes: b's reference to 2B now points outside the corpus
    ("c.txt", "B. Te weinig kaarten\nEen speler met te weinig kaarten meldt dat direct aan de\n"
              "wedstrijdleider (zie artikel 1B).\n", "",
     lambda out: b'to="2017/2B" status="dangling"' in out["corpus.xml"]),
    # the 2007 page's wording: the comparison of article 1 changes
    ("a.txt", "grondig voor het spel", "zorgvuldig voor het spel",
     lambda out: b"zorgvuldig" in out["diff/2007-2017.json"]),
]


def test_a_rebuild_in_one_process_writes_what_a_fresh_build_writes(tmp_path):
    sources = make_book(tmp_path / "book")
    memo.clear_all()
    watched = tmp_path / "watched"
    run.build(sources, watched, OPTIONS)
    first = outputs(watched)
    assert "een zee-egel op tafel" in node_text(first["corpus.xml"], "2017/2A").lower()
    assert outputs(fresh_build(sources, tmp_path / "fresh0")) == first

    for n, (name, old, new, done) in enumerate(EDITS, 1):
        run.build(sources, tmp_path / f"before{n}", OPTIONS)  # the memos hold the book before the edit
        edit(sources / name, old, new)
        run.build(sources, watched, OPTIONS)
        assert sum(m.reused for m in memo.MEMOS) > 0
        rebuilt = outputs(watched)
        assert done(rebuilt), (name, new)
        expected = outputs(fresh_build(sources, tmp_path / f"fresh{n}"))
        assert [f for f in COMPARED if rebuilt[f] != expected[f]] == [], (name, new)


def test_after_an_edit_of_one_source_only_what_it_changed_is_made_again(tmp_path):
    sources = make_book(tmp_path / "book")
    memo.clear_all()
    run.build(sources, tmp_path / "out", OPTIONS)
    built = counts()
    # the first build made every source's repair and fragment, every container and article pair
    # (3 sources, 7 paragraphs, 2 article pairs)
    assert built == {"repair": 3, "evidence": 3, "structure": 3, "references": 7, "diff": 2}

    # one word of one paragraph of the 2017 page: nothing the other sources asked of the book changes
    edit(sources / "b.txt", "voordat het delen klaar is", "voordat het delen af is")
    run.build(sources, tmp_path / "out", OPTIONS)
    made = {name: count - built[name] for name, count in counts().items()}
    assert made == {"repair": 1, "evidence": 1, "structure": 1, "references": 1, "diff": 1}

    # the same sources once more (a forced build): nothing is made, all is taken
    run.build(sources, tmp_path / "out", dict(OPTIONS, force=True))
    assert {name: count - built[name] for name, count in counts().items()} == made


def test_a_repair_is_not_taken_when_the_vocabulary_answers_otherwise():
    nl = lang.profile("nl")
    from pipeline.core.model import Block, Reading
    from pipeline.core.report import BuildLog

    def printed() -> Reading:
        return Reading("p.txt", "printed", "2017", [Block("para", "", [1, 2], pieces=[(1, "een zee-"), (2, "egel ligt")])])

    memo.clear_all()
    results = []
    for vocabulary in ({"zee-egel"}, {"zee-egel", "kaart"}, set(), {"zee-egel"}):
        reading, log = printed(), BuildLog()
        repair.repaired(reading, vocabulary, log, nl, paged=False)
        results.append((reading.blocks[0].text, [e.message for e in log.entries]))
    assert results == [("een zee-egel ligt", ["kept: the hyphenated form is used elsewhere in the sources"])] * 2 + \
        [("een zeeegel ligt", ["line-end hyphen joined"])] + \
        [("een zee-egel ligt", ["kept: the hyphenated form is used elsewhere in the sources"])]
    # "kaart" was never asked: the second repair is the first's. The third is made again, and so is the
    # fourth: the memo keeps one repair of a reading, the last made
    assert (repair.repairs(nl).made, repair.repairs(nl).reused) == (3, 1)


def test_a_memo_drops_its_least_recently_used_entry():
    kept = memo.Memo[int]("test", size=2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)


def test_the_digest_is_of_the_content_alone():
    word = "een woord"
    same = "".join(["een ", "woord"])  # equal, and another object
    assert same is not word
    assert memo.digest([word, word]) == memo.digest([word, same])
    assert memo.digest([word, word]) != memo.digest([word, "een woord."])
    assert memo.digest([word, word]) != memo.digest((word, word))


# A made-up printed paragraph: each line but the last ends in the first part of a word and a hyphen, the
# next starts with its second part; a line may hold a word cut where a lost ligature stood ("o ender"). The
# vocabularies drawn below hold the joined and the hyphenated forms, and the ligature's word, or not.
# ("sur-" is a French prefix that yields to the joined word where the vocabulary has it alone: "surcontre".)
SPLIT_WORDS = [("zee", "egel"), ("ge", "volg"), ("speel", "wijze"), ("niet", "spelen"), ("bied", "of"),
               ("sur", "contre")]
CUT_WORDS = ["", "o ender", "sta and"]
FORMS = ["zee-egel", "zeeegel", "ge-volg", "gevolg", "speel-wijze", "speelwijze", "niet-spelen", "nietspelen",
         "offender", "staff", "sur-contre", "surcontre"]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.tuples(st.sampled_from(SPLIT_WORDS), st.sampled_from(CUT_WORDS)), min_size=1, max_size=4),
       vocabularies=st.lists(st.sets(st.sampled_from(FORMS)), min_size=2, max_size=5),
       code=st.sampled_from(["nl", "en", "fr"]))
def test_a_repair_from_the_memo_is_the_repair_of_its_vocabulary(words, vocabularies, code):
    """Whatever the vocabulary of each build, the memo's repair of a reading (one reading, repaired again
    with each vocabulary in turn) is what repair_reading makes of it with that vocabulary: text and report."""
    from pipeline.core.model import Block, Reading
    from pipeline.core.report import BuildLog

    profile = lang.profile(code)
    texts, start = [], "de"
    for (first, second), cut in words:
        texts.append(f"{start} {cut} {first}-".replace("  ", " "))
        start = second
    texts.append(f"{start} klaar.")
    pieces = list(enumerate(texts, 1))

    def reading() -> Reading:
        return Reading("p.txt", "printed", "2017", [Block("para", "", [n for n, _ in pieces], pieces=list(pieces))])

    repair.repairs(profile).clear()
    for vocabulary in vocabularies:
        fresh, fresh_log = reading(), BuildLog()
        repair.repair_reading(fresh, set(vocabulary), fresh_log, profile)
        taken, taken_log = reading(), BuildLog()
        repair.repaired(taken, set(vocabulary), taken_log, profile, paged=False)
        assert taken == fresh
        assert taken_log.entries == fresh_log.entries


def test_memos_keep_nothing_unless_switched_on():
    """A one-off build keeps nothing (the memos' memory for no reuse): off, a memo counts what was made
    and gives nothing back; watch mode switches them on for its session (publish/watch.py)."""
    box = memo.Memo("test-off", size=4)
    memo.keep(False)
    box.put(b"k", "v")
    assert box.get(b"k") is None and box.made == 1 and not box.entries
    memo.keep()
    box.put(b"k", "v")
    assert box.get(b"k") == "v"


def test_a_watch_session_switches_the_memos_on_for_its_life(tmp_path):
    from pipeline.publish import watch

    memo.keep(False)
    session = watch.Session(tmp_path / "src", tmp_path / "build")
    assert memo.keeping()
    session.close()
    assert not memo.keeping()
