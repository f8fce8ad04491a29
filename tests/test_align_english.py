"""`lawbook align` of the five Dutch sources against the English original's pages (../shared/english/,
read as a book of its own: see test_english.py). Skips when the pages are absent."""
import json
import shutil

import pytest

from conftest import SOURCES, run_lawbook
from pipeline.corpus import align
from test_english import ENGLISH, PAGES, english_book

pytestmark = pytest.mark.skipif(not all((ENGLISH / p).is_file() for p in PAGES),
                                reason=f"the English original's pages are not in {ENGLISH}")


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    folder = tmp_path_factory.mktemp("align-en")
    for args in (("--sources", SOURCES, "--out", folder / "nl", "--no-corrections"),
                 ("--sources", english_book(folder / "en-sources"), "--out", folder / "en")):
        built = run_lawbook("build", *args, "--no-pdf")
        assert built.returncode == 0, built.stderr
    return folder


def statuses(result):
    return {n["id"]: n["status"] for n in json.loads(result.stdout)["nodes"]}


def test_the_dutch_sources_against_the_english_pages(books):
    result = run_lawbook("align", books / "nl", books / "en", "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    status = {n["id"]: n["status"] for n in data["nodes"]}
    assert {i: status[i] for i in ("2017/24E", "2017/47E1a", "2017/47E1b", "2017/47E2a", "2017/47E2b", "2017/57B",
                                   "2017/57D", "2017/41A", "2017/53A", "2017/16C1", "2017/16C3")} == {
        "2017/24E": "refs-differ", "2017/47E1a": "extra", "2017/47E1b": "extra", "2017/47E2a": "missing",
        "2017/47E2b": "missing", "2017/57B": "gap", "2017/57D": "gap", "2017/41A": "match", "2017/53A": "match",
        "2017/16C1": "match", "2017/16C3": "match"}
    e24 = next(n for n in data["nodes"] if n["id"] == "2017/24E")
    assert e24["reference"]["refs"] == ["2017/50", "2017/51"]
    assert e24["reference"]["source"] == "laws2017-en_p32-34.txt:15"
    # 16A and 16B are in the English pages, not in the Dutch page "Artikel 16C".
    assert status["2017/16A"] == status["2017/16B"] == "not-in-sources"
    # The Dutch sources lack 50's opening text (the pages "ARTIKEL 54" and "56" show 50D only): what the
    # English opening cites is not compared.
    assert status["2017/50"] == "not-in-sources"
    fifty = next(n for n in data["nodes"] if n["id"] == "2017/50")
    assert fifty["translation"]["refs"] == [] and "2017/72C" in fifty["reference"]["refs"]
    # The pages are not the whole book: a target they lack is not in them, not "nowhere".
    assert data["editions"]["reference_whole"] == {}
    assert data["editions"]["reference_pages"]["2017"].startswith("no article 1-15, ")
    # Every dangling reference of the Dutch book is classified against the original: in-reference
    # exactly where the English pages hold the node it cites.
    english = {n for n in align.read_book(json.loads((books / "en" / "corpus.json").read_text("utf-8")))["2017"]}
    classes = {(d["from"], d["to"]): d["class"] for d in data["dangling"]}
    assert len(data["dangling"]) == 28
    assert classes[("2017/41A", "2017/54")] == "in-reference"
    assert classes[("2017/47B", "2017/49")] == "not-in-reference-pages"
    assert all((c == "in-reference") == (to in english) for (_, to), c in classes.items())
    assert {c for (_, to), c in classes.items() if to not in english} == {"not-in-reference-pages",
                                                                          "edition-absent"}


def test_the_proposals_from_the_english_pages_make_24e_and_47e_match(books, tmp_path):
    proposed = run_lawbook("align", books / "nl", books / "en", "--propose")
    assert proposed.returncode == 1, proposed.stderr
    assert 'node = "2017/47E1a"\nto = "2017/47E2a"' in proposed.stdout
    assert 'node = "2017/24E"\nwords = "en artikel 50"\nby = "en artikel 51"' in proposed.stdout
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    (sources / "corrections.toml").write_text(proposed.stdout, encoding="utf-8")
    built = run_lawbook("build", "--sources", sources, "--out", tmp_path / "nl", "--no-pdf")
    assert built.returncode == 0, built.stderr
    status = statuses(run_lawbook("align", tmp_path / "nl", books / "en", "--json"))
    assert {i: status[i] for i in ("2017/24E", "2017/47E", "2017/47E1", "2017/47E2", "2017/47E2a", "2017/47E2b")} \
        == dict.fromkeys(("2017/24E", "2017/47E", "2017/47E1", "2017/47E2", "2017/47E2a", "2017/47E2b"), "match")
    assert "2017/47E1a" not in status


def test_the_shipped_corrections_make_24e_and_47e_match(books, tmp_path):
    built = run_lawbook("build", "--sources", SOURCES, "--out", tmp_path / "nl", "--no-pdf")
    assert built.returncode == 0, built.stderr
    status = statuses(run_lawbook("align", tmp_path / "nl", books / "en", "--json"))
    assert status["2017/24E"] == status["2017/47E2a"] == status["2017/47E2b"] == "match"
