"""`lawbook align`: the Dutch book against a reference made from the Dutch build itself.

The reference is the --no-corrections corpus.json with what the English 2017 Laws have where the
Dutch sources are wrong or short: 47E1a/47E1b as 47E2a/47E2b under a new 47E2, 24E citing 50 and 51,
text in 57B and 57D, sections and articles the Dutch sources lack (16A, 57E, 54, 59), and no 2007
edition (the English book is one edition).
"""
import copy
import json
import shutil

import pytest
from hypothesis import given, strategies as st

from conftest import SOURCES, run_lawbook, validate_json_reference
from pipeline.core import ids
from pipeline.corpus import align
from pipeline.outputs import serialise

F000, F002 = "000_8d35bcdf16b9ca3e.txt", "002_2f2ff1709dbc3ec0.txt"


def find(data, node_id):
    """The node `node_id` of a corpus.json, and the list that holds it."""
    def walk(items):
        for item in items:
            if item.get("id") == node_id:
                return item, items
            if "content" in item and item.get("type") != "p":
                found = walk(item["content"])
                if found:
                    return found
        return None
    for edition in data["editions"]:
        found = walk(edition["articles"])
        if found:
            return found
    raise KeyError(node_id)


def paragraph(text, refs=(), line=1, file="en.txt", status="ok"):
    """A paragraph of the reference; refs as (words, target): each found in the text."""
    out = [{"words": w, "start": text.index(w), "end": text.index(w) + len(w), "to": t, "status": status}
           for w, t in refs]
    return {"type": "p", "text": text, "notes": [], "refs": out, "sources": [{"file": file, "lines": [line]}]}


def node(node_id, kind, num, content, heading=None, line=1, file="en.txt"):
    data = {"id": node_id, "type": kind, "num": num, "sources": [{"file": file, "lines": [line]}]}
    if heading:
        data["title" if kind == "article" else "heading"] = heading
    data["content"] = content
    return data


def make_reference(dutch):
    ref = copy.deepcopy(dutch)
    ref["editions"] = [e for e in ref["editions"] if e["id"] == "2017"]
    # 47E: E1 is one paragraph, E2 has the items (a) and (b).
    e1, _ = find(ref, "2017/47E1")
    items = [c for c in e1["content"] if c.get("type") == "item"]
    e1["content"] = [c for c in e1["content"] if c.get("type") != "item"]
    for item in items:
        item["id"] = item["id"].replace("47E1", "47E2")
        for p in item["content"]:
            for r in p["refs"]:
                r["to"] = r["to"].replace("2017/47E1a", "2017/47E2a")
    e, _ = find(ref, "2017/47E")
    e["content"].append(node("2017/47E2", "subsection", "2", items, line=40))
    # 24E: "Laws 50 and 51".
    e24, _ = find(ref, "2017/24E")
    [p24] = [c for c in e24["content"] if c["type"] == "p"]
    p24["refs"][1].update(to="2017/51", status="ok")
    p24["refs"][1].pop("reason")
    # 57B and 57D have text; 57E is a section the Dutch page does not give.
    for cite, text, refs in (("57B", "If partner cannot comply, see A above and Law 59.", [("Law 59", "2017/59")]),
                             ("57D", "See Law 16 for unauthorised information.", [("Law 16", "2017/16")])):
        section, _ = find(ref, f"2017/{cite}")
        section.update(content=[paragraph(text, refs, line=50)], sources=[{"file": "en.txt", "lines": [50]}])
    article57, _ = find(ref, "2017/57")
    article57["content"].append(node("2017/57E", "section", "E", [paragraph("A card played too early.")], "Later"))
    # 16A: a section the page "Artikel 16C" does not show.
    article16, _ = find(ref, "2017/16")
    article16["content"].insert(0, node("2017/16A", "section", "A", [paragraph("Players may use information.")],
                                        "Extraneous information"))
    # Articles the Dutch sources lack: 54 and 59 (cited by 41A and 50D2a).
    articles = ref["editions"][0]["articles"]
    articles.append(node("2017/54", "article", "54", [paragraph("Faced opening lead out of turn.")], "Opening lead"))
    articles.append(node("2017/59", "article", "59", [paragraph("Inability to lead or play as required.")],
                         "Inability"))
    articles.sort(key=lambda a: int(a["num"]))
    assert serialise.validate_json(ref) == [] and validate_json_reference(ref) == []
    return ref


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    folder = tmp_path_factory.mktemp("align")
    result = run_lawbook("build", "--sources", SOURCES, "--out", folder / "nl", "--no-pdf", "--no-corrections")
    assert result.returncode == 0, result.stderr
    dutch = json.loads((folder / "nl" / "corpus.json").read_text(encoding="utf-8"))
    (folder / "en.json").write_text(json.dumps(make_reference(dutch)), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def aligned(books):
    result = run_lawbook("align", books / "nl", books / "en.json", "--json")
    assert result.returncode == 1, result.stderr
    return json.loads(result.stdout)


def statuses(data):
    return {n["id"]: n["status"] for n in data["nodes"]}


def test_the_three_defects_and_what_matches(aligned):
    status = statuses(aligned)
    assert {i: status[i] for i in ("2017/24E", "2017/47E1a", "2017/47E1b", "2017/47E2", "2017/47E2a", "2017/47E2b",
                                   "2017/57B", "2017/57D", "2017/41A", "2017/53A", "2017/47E1", "2017/16C2")} == {
        "2017/24E": "refs-differ", "2017/47E1a": "extra", "2017/47E1b": "extra", "2017/47E2": "missing",
        "2017/47E2a": "missing", "2017/47E2b": "missing", "2017/57B": "gap", "2017/57D": "gap",
        "2017/41A": "match", "2017/53A": "match", "2017/47E1": "match", "2017/16C2": "match"}
    # 57 is shown whole (its title is in the sources); 16 only as its section C.
    assert (status["2017/57E"], status["2017/16A"]) == ("missing", "not-in-sources")
    # 57A: both have a gap before 57A1 (the reference was made from the Dutch), so it matches.
    assert status["2017/57A"] == "match"
    failing = {i for i, s in status.items() if s in align.FAILING}
    assert failing == {"2017/24E", "2017/47E1a", "2017/47E1b", "2017/47E2", "2017/47E2a", "2017/47E2b",
                       "2017/57B", "2017/57D", "2017/57E"}
    assert aligned["articles"] == {"only_in_translation": [], "only_in_reference": ["2017/54", "2017/59"]}
    # Nine articles of 59 (the pages of the English book the Dutch pages show): a set of pages.
    assert aligned["editions"] == {"compared": ["2017"], "not_in_reference": ["2007"], "reference_whole": {},
                                   "reference_pages": {"2017": "no article 1-15, 17-23, 25-40, 42-46, 48-49, "
                                                               "51-52, 55-56, 58 of 1-59"}}


def test_json_gives_both_sides(aligned):
    e24 = next(n for n in aligned["nodes"] if n["id"] == "2017/24E")
    assert e24["translation"] == {"refs": ["2017/50", "2017/50"], "notes": 0, "source": f"{F000}:59"}
    assert e24["reference"]["refs"] == ["2017/50", "2017/51"]
    assert e24["suggestion"]["text"] == "replace 'en artikel 50' by 'en artikel 51'"
    missing = next(n for n in aligned["nodes"] if n["id"] == "2017/47E2a")
    assert missing["translation"] is None and missing["reference"]["refs"] == ["2017/16C"]
    extra = next(n for n in aligned["nodes"] if n["id"] == "2017/47E1b")
    assert extra["reference"] is None and extra["suggestion"]["corrections"] == [
        {"kind": "renumber", "node": "2017/47E1b", "to": "2017/47E2b", "basis": f"reference 2017/47E2b ({F002}:9)"}]


def test_every_dangling_reference_is_classified(aligned):
    dangling = aligned["dangling"]
    assert len(dangling) == 28  # those `lawbook check` counts on the sources as they are
    kinds = {(d["from"], d["to"]): d["class"] for d in dangling}
    assert kinds[("2017/41A", "2017/54")] == "in-reference"
    assert kinds[("2017/50D2a", "2017/59")] == "in-reference"
    # The reference is a set of pages: what it lacks may be on a page it does not hold.
    assert kinds[("2017/47B", "2017/49")] == "not-in-reference-pages"
    assert kinds[("2017/54/toelichting1", "2017/54A")] == "not-in-reference-pages"  # it has 54, not 54A
    assert kinds[("2007/41A", "2007/47E2")] == "edition-absent"
    counts = {c: sum(d["class"] == c for d in dangling) for c in align.CLASSES}
    assert counts == {"in-reference": 4, "nowhere": 0, "not-in-reference-pages": 17, "edition-absent": 7}
    assert all(d["source"] for d in dangling)


def test_text_groups_by_status_with_file_and_line(books):
    result = run_lawbook("align", books / "nl", books / "en.json")
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert f"\nrefs-differ (1):\n  {F000}:59: 2017/24E cites 2017/50, 2017/50; the reference 2017/50, 2017/51  " \
           f"-> replace 'en artikel 50' by 'en artikel 51'\n" in out
    assert f"\nextra (2):\n  {F002}:8: 2017/47E1a  -> renumber 2017/47E1a to 2017/47E2a\n" in out
    assert f"\ngap (2):\n  {F002}:36: 2017/57B: a gap where the reference has text (en.txt:50)\n" in out
    assert "  reference en.txt:40: 2017/47E2  -> made by renumbering 2017/47E1a, 2017/47E1b\n" in out
    assert "articles only in the reference (2, not compared): 2017/54, 2017/59" in out
    assert f"  {F000}:23: 2017/41A cites 2017/54 ('artikel 54'): in-reference" in out
    assert out.splitlines()[2] == ("the reference's 2017 is only a set of pages (no article 1-15, 17-23, 25-40, "
                                   "42-46, 48-49, 51-52, 55-56, 58 of 1-59): a target it lacks is "
                                   "not-in-reference-pages, not nowhere")
    assert "\ndangling references of the translation (28: 4 in-reference, 17 not-in-reference-pages, " \
           "7 edition-absent):\n" in out


def test_the_proposals_pasted_make_24E_and_47E_match(books, tmp_path):
    proposed = run_lawbook("align", books / "nl", books / "en.json", "--propose")
    assert proposed.returncode == 1, proposed.stderr
    assert proposed.stdout.count("[[correction]]") == 3
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    (sources / "corrections.toml").write_text(proposed.stdout, encoding="utf-8")
    built = run_lawbook("build", "--sources", sources, "--out", tmp_path / "nl", "--no-pdf")
    assert built.returncode == 0, built.stderr
    result = run_lawbook("align", tmp_path / "nl", books / "en.json", "--json")
    assert result.returncode == 1  # 57B, 57D and 57E remain: no correction can give their text
    status = statuses(json.loads(result.stdout))
    assert {i: s for i, s in status.items() if i.startswith(("2017/24", "2017/47"))} == {
        i: "match" for i in ("2017/24", "2017/24A", "2017/24B", "2017/24C", "2017/24D", "2017/24E", "2017/47",
                             "2017/47B", "2017/47E", "2017/47E1", "2017/47E2", "2017/47E2a", "2017/47E2b")}
    assert {i for i, s in status.items() if s in align.FAILING} == {"2017/57B", "2017/57D", "2017/57E"}


def test_accepted_differences_let_align_pass(books, tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    with open(sources / "corrections.toml", "a", encoding="utf-8") as f:
        for cite in ("57B", "57D"):
            f.write(f'\n[[correction]]\nkind = "accept"\nnode = "2017/{cite}"\n'
                    f'basis = "the Dutch page gives only the heading; text follows in the next print"\n')
    built = run_lawbook("build", "--sources", sources, "--out", tmp_path / "nl", "--no-pdf")
    assert built.returncode == 0, built.stderr
    reference = json.loads((books / "en.json").read_text(encoding="utf-8"))
    article57, _ = find(reference, "2017/57")
    article57["content"].pop()  # without 57E, which no correction can account for
    (tmp_path / "en.json").write_text(json.dumps(reference), encoding="utf-8")
    result = run_lawbook("align", tmp_path / "nl", tmp_path / "en.json", "--json")
    data = json.loads(result.stdout)
    assert {i for i, s in statuses(data).items() if s != "match" and s != "not-in-sources"} == {"2017/57B", "2017/57D"}
    assert statuses(data)["2017/57B"] == "accepted"
    assert result.returncode == 0, result.stdout


def test_a_book_against_itself_matches(books):
    result = run_lawbook("align", books / "nl" / "corpus.json", books / "nl")
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[1] == "58 match"


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("{", "not JSON: Expecting property name enclosed in double quotes"),
    ('{"format": "other"}', 'not a lawbook corpus (no "format": "lawbook-corpus")'),
    ('{"format": "lawbook-corpus", "version": 1, "editions": [{"id": "17"}]}', "not a valid corpus: "),
])
def test_a_file_that_is_not_a_corpus_is_one_message(tmp_path, books, content, message):
    path = tmp_path / "corpus.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = run_lawbook("align", books / "nl", path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    where = f"{path}:1: " if content == "{" else f"{path}: "
    assert lines[0].startswith(f"lawbook: error: {where}{message}"), result.stderr
    assert lines[1] == "  fix: give a build folder, or the corpus.json that `lawbook build` wrote" or \
        lines[1].startswith("  fix: give a corpus.json written by `lawbook build`")
    assert len(lines) == 2


# -- small made-up books -------------------------------------------------------------------------------
def corpus(*editions):
    """A corpus.json of `editions`: (edition ID, articles)."""
    data = {"format": "lawbook-corpus", "version": 1,
            "editions": [{"id": e, "definitions": [], "articles": list(articles), "commentary": []}
                         for e, articles in editions]}
    assert serialise.validate_json(data) == [] and validate_json_reference(data) == []
    return data


def book_of_laws(*nums, untitled=()):
    """A reference that holds Laws `nums`, each a title and one sentence; those in `untitled` without title."""
    return corpus(("2017", [node(f"2017/{n}", "article", str(n), [paragraph(f"Rule {n} applies.", line=n)],
                                 None if n in untitled else f"Law {n} title", line=n) for n in nums]))


def law_7(opening, title=None, gap=False):
    """Law 7 of a made-up translation whose page shows only 7B; `opening`: 7's own text, if any."""
    content = ([{"type": "gap", "reason": "tekst ontbreekt"}] if gap else []) + (
        [paragraph(opening, [("artikel 3", "2017/3")], line=2, file="nl.txt", status="dangling")] if opening else [])
    section = node("2017/7B", "section", "B", [paragraph("Tweede regel.", line=5, file="nl.txt")], "Tweede",
                   line=4, file="nl.txt")
    return corpus(("2017", [node("2017/7", "article", "7", content + [section], title, line=1, file="nl.txt")]))


REFERENCE_7 = corpus(("2017", [node("2017/7", "article", "7", [
    paragraph("Opening rule, see Law 3 and Law 5.", [("Law 3", "2017/3"), ("Law 5", "2017/5")], line=11),
    node("2017/7A", "section", "A", [paragraph("First rule.", line=13)], "First", line=12),
    node("2017/7B", "section", "B", [paragraph("Second rule.", line=15)], "Second", line=14)], "Seven", line=10)]))


@pytest.mark.parametrize("translation, expected", [
    # The page shows 7B only: 7's opening text and what it cites are not in the sources, nor is 7A.
    (law_7(None), {"2017/7": "not-in-sources", "2017/7A": "not-in-sources", "2017/7B": "match"}),
    # 7's title is in the sources but its text is not: text lost where the sources show it.
    (law_7(None, title="Zeven"), {"2017/7": "gap", "2017/7A": "missing", "2017/7B": "match"}),
    (law_7(None, gap=True), {"2017/7": "gap", "2017/7A": "not-in-sources", "2017/7B": "match"}),
    # Both have the opening text: its references are compared.
    (law_7("Openingsregel, zie artikel 3."), {"2017/7": "refs-differ", "2017/7A": "not-in-sources",
                                              "2017/7B": "match"}),
])
def test_references_are_compared_only_where_both_have_the_text(translation, expected):
    result = align.align(translation, REFERENCE_7)
    assert {a.id: a.status for a in result.nodes} == expected
    assert result.status == (1 if any(s in align.FAILING for s in expected.values()) else 0)


def test_a_node_without_text_of_its_own_is_listed_with_the_references_text(tmp_path):
    (tmp_path / "nl.json").write_text(json.dumps(law_7(None)), encoding="utf-8")
    (tmp_path / "en.json").write_text(json.dumps(REFERENCE_7), encoding="utf-8")
    result = run_lawbook("align", tmp_path / "nl.json", tmp_path / "en.json")
    assert result.returncode == 0, result.stdout
    assert "\nnot-in-sources (2):\n  nl.txt:1: 2017/7: no text of its own where the reference has text " \
           "(en.txt:10)\n  reference en.txt:12: 2017/7A\n" in result.stdout
    data = json.loads(run_lawbook("align", tmp_path / "nl.json", tmp_path / "en.json", "--json").stdout)
    seven = data["nodes"][0]
    assert (seven["id"], seven["status"], seven["translation"]["refs"], seven["reference"]["refs"]) == (
        "2017/7", "not-in-sources", [], ["2017/3", "2017/5"])
    assert data["summary"]["not-in-sources"] == 2 and data["summary"]["refs-differ"] == 0


def citing(*targets):
    """A made-up translation: Law 1 of 2017 cites each of `targets`, which it does not hold (dangling)."""
    words = [f"artikel {ids.cite_of(t)} ({ids.edition_of(t)})" for t in targets]
    text = "Zie " + ", ".join(words) + "."
    return corpus(("2017", [node("2017/1", "article", "1", [paragraph(text, list(zip(words, targets)),
                                                                       file="nl.txt", status="dangling")],
                                 "Een", file="nl.txt")]))


@pytest.mark.parametrize("reference, pages, nowhere", [
    (book_of_laws(1, 2, 3), None, "nowhere"),
    (book_of_laws(2, 3), "no article 1 of 1-3", "not-in-reference-pages"),
    (book_of_laws(1, 2, 3, 7, 8, 10), "no article 4-6, 9 of 1-10", "not-in-reference-pages"),
    (book_of_laws(1, 2, 3, untitled=(1, 3)), "no title for 2017/1, 2017/3", "not-in-reference-pages"),
])
def test_nowhere_is_said_only_against_the_whole_book(reference, pages, nowhere, tmp_path):
    result = align.align(citing("2017/2", "2017/12", "2017/2B", "2007/2"), reference)
    assert [(d["to"], d["class"]) for d in result.dangling] == [
        ("2017/2", "in-reference"), ("2017/12", nowhere), ("2017/2B", nowhere), ("2007/2", "edition-absent")]
    editions = result.to_json()["editions"]
    assert editions["reference_pages"] == ({"2017": pages} if pages else {})
    assert editions["reference_whole"] == ({} if pages else {"2017": "articles 1-3, each with its title"})
    (tmp_path / "nl.json").write_text(json.dumps(citing("2017/12")), encoding="utf-8")
    (tmp_path / "en.json").write_text(json.dumps(reference), encoding="utf-8")
    out = run_lawbook("align", tmp_path / "nl.json", tmp_path / "en.json").stdout.splitlines()
    assert out[2] == (f"the reference's 2017 is only a set of pages ({pages}): a target it lacks is "
                      f"not-in-reference-pages, not nowhere" if pages else
                      "the reference's 2017 is the whole book (articles 1-3, each with its title; a run of pages "
                      "from article 1 to the end of an article would read the same): a target it lacks is nowhere")
    assert out[-1] == f"  nl.txt:1: 2017/1 cites 2017/12 ('artikel 12 (2017)'): {nowhere}"


def laws(numbers, untitled=frozenset()):
    return {f"2017/{n}": align.Node(f"2017/{n}", "article", n not in untitled, [], 0, True, False, [], "", [])
            for n in numbers}


def spans_read(text):
    """'1-3, 5' -> [1, 2, 3, 5]."""
    out = []
    for span in text.split(", "):
        first, _, last = span.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


@given(st.sets(st.integers(1, 40), min_size=1), st.sets(st.integers(1, 40)))
def test_a_reference_is_whole_exactly_when_its_laws_run_from_1_without_a_hole_and_all_have_titles(numbers, untitled):
    why = align.reference_pages(laws(numbers, untitled))
    holes = sorted(set(range(1, max(numbers) + 1)) - numbers)
    if holes:
        assert why.startswith("no article ") and why.endswith(f" of 1-{max(numbers)}")
        assert spans_read(why[len("no article "):-len(f" of 1-{max(numbers)}")]) == holes
    elif untitled & numbers:
        assert why == "no title for " + ", ".join(f"2017/{n}" for n in sorted(untitled & numbers))
    else:
        assert why is None
