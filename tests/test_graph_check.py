"""The reference graph (refs.graphml, refs.json) and `python -m pipeline check` on the real sources."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from pipeline.publish import run as build
from pipeline import cli
from pipeline.outputs import graph
from pipeline.corpus import refs
from pipeline.outputs.job import Job

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
F000, F001, F002, F003, F004 = sorted(p.name for p in SOURCES.glob("*.txt"))

# The articles the sources cite but do not hold.
ABSENT = ["2007/16", "2007/20", "2007/23", "2007/47", "2007/54",
          "2017/12", "2017/20", "2017/49", "2017/51", "2017/54", "2017/58", "2017/59", "2017/63", "2017/72"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    ctx = Job.of(build.make_corpus(SOURCES), tmp_path_factory.mktemp("out"))
    graph.write_graph(ctx)
    return ctx.tmp


@pytest.fixture(scope="module")
def g(written):
    return nx.read_graphml(written / "refs.graphml", force_multigraph=True)


@pytest.fixture(scope="module")
def data(written):
    return json.loads((written / "refs.json").read_text(encoding="utf-8"))


def copy_sources(tmp_path, known_missing=None, corrected=False):
    """A copy of sources/, by default without corrections.toml: the check of the sources as they are
    (24E's duplicated target, 47E1a); corrected=True keeps the committee's corrections."""
    folder = tmp_path / "sources"
    shutil.copytree(SOURCES, folder)
    if not corrected:
        (folder / "corrections.toml").unlink()
    if known_missing is not None:
        (folder / "known-missing.toml").write_text(known_missing, encoding="utf-8")
    return folder


def known_missing_toml(targets):
    return "".join(f'[[missing]]\nid = "{t}"\nreason = "not in the sources of this book"\n\n' for t in targets)


def run_check(capsys, *args):
    status = cli.main(["check", *args])
    out, err = capsys.readouterr()
    return status, out, err


# -- the graph ------------------------------------------------------------------------
def test_graph_has_every_level_and_containment(g):
    types = {d["type"] for _, d in g.nodes(data=True)}
    assert types == {"edition", "article", "section", "subsection", "item", "note", "commentary", "absent"}
    contains = {(u, v) for u, v, d in g.edges(data=True) if d["kind"] == "contains"}
    assert {("2017", "2017/50"), ("2017/50", "2017/50D"), ("2017/50D", "2017/50D2"),
            ("2017/50D2", "2017/50D2a"), ("2017/50D2a", "2017/50D2a/noot1"),
            ("2017", "2017/54/toelichting1")} <= contains
    assert ("2017/54/toelichting1", "2017/54") in {(u, v) for u, v, d in g.edges(data=True)
                                                   if d["kind"] == "comments-on"}


def test_graph_reference_edges_carry_words_and_place(g):
    refers = [(u, v, d) for u, v, d in g.edges(data=True) if d["kind"] == "refers"]
    assert len(refers) == 54  # 24C twice and 47B cite their article ("dit artikel")
    edge = next(d for u, v, d in refers if (u, v) == ("2017/16C3", "2017/16C2"))
    assert (edge["words"], edge["status"], edge["source"]) == ("C2 hierboven", "ok", f"{F002}:23")
    absent = g.nodes["2017/54"]
    assert (absent["present"], absent["status"], absent["kind"]) == (False, "dangling", "article-absent")


def test_refs_json_cited_by(data):
    nodes = {n["id"]: n for n in data["nodes"]}
    assert [c["from"] for c in nodes["2017/53B"]["cited_by"]] == ["2017/53A", "2017/53C"]
    # The graph of the corrected corpus: 47E1a is 2017/47E2a (sources/corrections.toml).
    assert sorted(c["from"] for c in nodes["2017/16C"]["cited_by"]) == ["2017/24", "2017/47E1", "2017/47E2a",
                                                                        "2017/53B"]
    assert nodes["2017/53A"]["refers_to"] == ["2017/47B", "2017/47E1", "2017/53B"]
    assert nodes["2017/57A1"]["cited_by"] == []
    # Corrected, 24E cites 50 and 51 (not in the corpus) instead of 50 twice (suspect).
    assert data["summary"] == {"refs": 54, "ok": 25, "known-missing": 0, "dangling": 29, "suspect": 0}


# -- check ------------------------------------------------------------------------
def test_check_fails_on_the_sources_and_names_file_and_line(tmp_path, capsys):
    status, out, _ = run_check(capsys, "--sources", str(copy_sources(tmp_path)))
    assert status == 1
    assert out.splitlines()[0] == "54 references: 25 ok, 28 dangling, 0 known missing, 1 suspect"
    assert f"  {F000}:23: 2017/41A cites 2017/54 ('artikel 54')" in out
    assert f"  {F003}:4: 2007/41A cites 2007/47E2 ('artikel 47E2')" in out
    # A printed paragraph: the citation stands on the second of its lines.
    assert f"  {F004}:25: 2007/24B cites 2007/23 ('artikel 23')" in out
    # A paragraph both wiki pages show: both places are named.
    assert f"  {F000}:71, {F001}:27: 2017/50D2 cites 2017/49 ('artikel 49')" in out
    assert "suspect: duplicated or malformed (1):" in out
    assert f"  {F000}:60: 2017/24E cites 2017/50 ('artikel 50'): duplicated target" in out
    assert "part absent" not in out  # no such reference in these sources


def test_check_json(tmp_path, capsys):
    status, out, _ = run_check(capsys, "--sources", str(copy_sources(tmp_path)), "--json")
    assert status == 1
    entries = json.loads(out)["refs"]
    assert len(entries) == 54
    assert all({"from", "to", "words", "status", "source"} <= set(e) for e in entries)
    assert {e["status"] for e in entries} == {"ok", "dangling", "suspect"}
    assert {"from": "2017/53A", "to": "2017/53B", "words": "B", "status": "ok",
            "source": f"{F000}:8", "sources": [f"{F000}:8", f"{F001}:8"]} in entries
    dangling = {e["to"] for e in entries if e["status"] == "dangling"}
    assert all(refs.covered(t, set(ABSENT)) for t in dangling)
    assert {t for t in dangling if t in ABSENT} == set(ABSENT) - {"2007/20", "2007/47", "2007/54", "2017/12",
                                                                  "2017/20", "2017/63", "2017/72"}


def test_check_passes_when_absent_articles_are_known(tmp_path, capsys):
    folder = copy_sources(tmp_path, known_missing_toml(ABSENT))
    status, out, _ = run_check(capsys, "--sources", str(folder))
    assert status == 0, out
    assert out.splitlines()[0] == "54 references: 25 ok, 0 dangling, 28 known missing, 1 suspect"
    assert f"  {F000}:23: 2017/41A cites 2017/54 ('artikel 54')" in out.split("known missing: ")[1]
    # Suspects are reported, and fail only a strict check.
    assert run_check(capsys, "--sources", str(folder), "--strict")[0] == 1
    status, out, _ = run_check(capsys, "--sources", str(folder), "--json")
    assert {e["status"] for e in json.loads(out)["refs"]} == {"ok", "known-missing", "suspect"}


def test_check_fails_while_one_absent_article_is_not_listed(tmp_path, capsys):
    folder = copy_sources(tmp_path, known_missing_toml([a for a in ABSENT if a != "2007/23"]))
    status, out, _ = run_check(capsys, "--sources", str(folder))
    assert status == 1
    assert out.splitlines()[0] == "54 references: 25 ok, 2 dangling, 26 known missing, 1 suspect"


def test_part_absent(tmp_path, capsys):
    folder = copy_sources(tmp_path)
    path = folder / F000
    text = path.read_text(encoding="utf-8")
    cited = "(zie artikel\u00a047E en artikel\u00a054)"  # the wiki export writes non-breaking spaces
    assert text.count(cited) == 1
    path.write_text(text.replace(cited, cited.replace("47E", "47E2")), encoding="utf-8")
    status, out, _ = run_check(capsys, "--sources", str(folder))
    assert status == 1
    part = out.split("part absent: the article is in the corpus, the cited part is not (1):\n")[1]
    assert part.splitlines()[0] == f"  {F000}:23: 2017/41A cites 2017/47E2 ('artikel 47E2')"


def test_known_missing_entries_that_are_present_or_unused_are_named(tmp_path, capsys):
    folder = copy_sources(tmp_path, known_missing_toml(ABSENT + ["2017/53", "2017/99"]))
    status, out, _ = run_check(capsys, "--sources", str(folder))
    assert status == 0
    assert "listed in known-missing.toml but in the corpus (remove these entries):\n  2017/53" in out
    assert "listed in known-missing.toml but cited nowhere:\n  2017/99" in out


@pytest.mark.parametrize("content, message", [
    ("[[missing]]\nid = 2017/54\n", "not valid TOML"),
    ('[[missing]]\nid = "54"\n', "[[missing]] number 1 has no valid id ('54')"),
    ('missing = ["2017/54"]\n', "[[missing]] number 1 has no valid id (None)"),
    ('[[missng]]\nid = "2017/54"\n', "unexpected key 'missng'"),
])
def test_bad_known_missing_file_is_one_message(tmp_path, capsys, content, message):
    folder = copy_sources(tmp_path, content)
    status, out, err = run_check(capsys, "--sources", str(folder))
    assert status == 2
    assert err.startswith(f"lawbook: error: {folder / 'known-missing.toml'}")
    assert message in err


def test_known_missing_option_names_another_file(tmp_path, capsys):
    listing = tmp_path / "elsewhere.toml"
    listing.write_text(known_missing_toml(ABSENT), encoding="utf-8")
    assert run_check(capsys, "--sources", str(SOURCES), "--known-missing", str(listing))[0] == 0
    status, _, err = run_check(capsys, "--sources", str(SOURCES), "--known-missing", str(tmp_path / "none.toml"))
    assert status == 2 and "the known-missing file does not exist" in err


def test_the_repo_ships_no_known_missing_file():
    assert not (SOURCES / "known-missing.toml").exists()


def test_python_m_pipeline_check_exit_status():
    result = subprocess.run([sys.executable, "-m", "pipeline", "check", "--sources", str(SOURCES)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert f"{F000}:23: 2017/41A cites 2017/54" in result.stdout


def test_check_fails_on_a_corpus_the_build_would_refuse(tmp_path):
    """A conflict between two sources is printed with its file and line, and check exits 1."""
    import shutil
    import subprocess
    import sys

    copy = tmp_path / "sources"
    shutil.copytree(ROOT / "sources", copy)
    second = sorted(copy.glob("001_*.txt"))[0]
    second.write_text(second.read_text(encoding="utf-8").replace("abusievelijk", "per ongeluk"), encoding="utf-8")
    (copy / "known-missing.toml").write_text("", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pipeline", "check", "--sources", str(copy)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1
    assert f"lawbook: error: {second.name}:12: 2017/53B reads differently" in result.stderr


def test_the_example_known_missing_file_is_valid_and_not_a_source(tmp_path):
    """sources/known-missing.example.toml reads as a known-missing list, and the build leaves it alone."""
    from pipeline.corpus import refs as refs_mod

    known = refs_mod.load_known_missing(ROOT / "sources", ROOT / "sources" / "known-missing.example.toml")
    assert known == {"2017/54": "article 54 is not in the sources; only a commentary on it is",
                     "2017/59": "article 59 (cited by the notes of 50D2a) is not in the sources",
                     "2007/23": "the 2007 sources hold articles 24, 25 and 41 only"}


def test_refs_graphml_reads_back_as_the_graph_even_with_words_it_must_escape(tmp_path):
    """refs.graphml is networkx's GraphML: read back, it is the same graph, escaped words and all."""
    g = nx.MultiDiGraph()
    g.add_node('2017/1 "A" & <b>', type="article", present=True, label="tab\tline\nreturn\r'quote' & <x>")
    g.add_node("2017/2", type="absent", present=False, label="")
    g.add_node("2017/3")  # a node without values: an empty element
    g.add_edge('2017/1 "A" & <b>', "2017/2", kind="refers", words="artikel 2 & 3", source="f.txt:4")
    g.add_edge('2017/1 "A" & <b>', "2017/2", kind="refers", words="zie <2>", source="f.txt:5")
    graph.write_graphml(g, tmp_path / "refs.graphml")
    text = (tmp_path / "refs.graphml").read_bytes()
    assert b'<node id="2017/1 &quot;A&quot; &amp; &lt;b&gt;">' in text and b'<node id="2017/3"/>' in text
    back = nx.read_graphml(tmp_path / "refs.graphml", force_multigraph=True)
    assert list(back.nodes(data=True)) == list(g.nodes(data=True))
    assert [(u, v, int(k), d) for u, v, k, d in back.edges(keys=True, data=True)] == list(g.edges(keys=True, data=True))
