"""Files reused one by one by the key of what they are made from (pipeline/outputs/keyed.py): an edit of one
article re-renders the pages that show it, copies the rest, and the build is byte for byte a full build's.

Asserts on which files were made and on bytes, never on times. The fixture `book`, the spies and the
byte-for-byte comparison are test_incremental_outputs.py's (no search index, no PDF).
"""
import json
from pathlib import Path

import pytest
from lxml import etree

from pipeline.outputs import graph, keyed
from pipeline.outputs.site.model import ArticlePage
from pipeline.publish import run as build

from test_incremental_outputs import assert_same_as_full_build, book, change_sentence, last_source_of  # noqa: F401


@pytest.fixture()
def made(monkeypatch):
    """The files each build made (not copied from the last build), by output: {"html": [...], "graph": [...]}."""
    out = {"html": [], "graph": []}
    reuse = keyed.KeyedFiles.reuse

    def spy(self, path, key):
        copied = reuse(self, path, key)
        if not copied:
            out[self.output].append(path)
        return copied
    monkeypatch.setattr(keyed.KeyedFiles, "reuse", spy)
    monkeypatch.setenv("LAWBOOK_NO_FORK", "1")  # the site in this process, where the spy sees it
    return out


def recorded_keys(out: Path) -> dict[str, str]:
    """The keys of html/ the build in `out` recorded: every page the site has."""
    return json.loads((out / keyed.KEYS_DIR / "html.json").read_text(encoding="utf-8"))


def article_of_line(src: Path, edition_source: str) -> str:
    """The number of the article whose text the first paragraph line of `edition_source` is (the line
    change_sentence edits): the last heading "Artikel N" above it."""
    number = None
    for line in (src / edition_source).read_text(encoding="utf-8").split("\n"):
        words = line.split()
        if len(words) >= 2 and words[0].lower() == "artikel" and words[1].isdigit():
            number = words[1]
        if len(line) > 40 and line.rstrip().endswith("."):
            return number
    raise AssertionError("no paragraph line")


def test_one_changed_sentence_renders_its_article_and_what_shows_it(book, made):
    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, options)
    assert len(made["html"]) > 20 and sorted(made["graph"]) == ["refs.graphml", "refs.json"]  # nothing to copy yet
    source = last_source_of(src, "2017").name
    number = article_of_line(src, source)
    change_sentence(src / source)
    made["html"].clear()
    made["graph"].clear()
    build.build(src, out, options)
    # Its page; the comparison 2007-2017, which shows the changed words; the service worker, which names
    # the bytes of every file. Nothing else: not the contents (no title or section changed), not the
    # other 2017 articles, not a 2007 page, not the editor's page (no new report entry).
    assert sorted(made["html"]) == sorted([f"2017/{number}.html", "diff/2007-2017.html", "sw.js"])
    assert made["graph"] == []  # the sentence cites nothing: the graph is the last build's
    assert_same_as_full_build(src, tmp_path, options, out)


def test_a_new_reference_makes_the_graph_and_the_pages_it_shows_on_again(book, made):
    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, options)
    path = src / last_source_of(src, "2017").name
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(k for k, line in enumerate(lines) if len(line) > 40 and line.rstrip().endswith("."))
    lines[at] = lines[at].rstrip() + " Zie ook artikel 1."
    path.write_text("\n".join(lines), encoding="utf-8")
    made["html"].clear()
    made["graph"].clear()
    build.build(src, out, options)
    assert sorted(made["graph"]) == ["refs.graphml", "refs.json"]
    # Article 1's page lists who cites it; the reference graph's page of 2017 draws the new edge.
    assert "2017/1.html" in made["html"] and "2017/verwijzingen.html" in made["html"]
    assert not [p for p in made["html"] if p.startswith("2007/")]
    assert_same_as_full_build(src, tmp_path, options, out)


def test_keys_made_with_other_settings_are_not_offered(book, made):
    """Without commentary the pages differ though the values may not say why: the keys hold neither the
    code nor the settings, so a build with other settings copies nothing by key."""
    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, dict(options, no_commentary=True))
    made["html"].clear()
    build.build(src, out, options)
    assert sorted(made["html"]) == sorted(recorded_keys(out)) and "2007/1.html" in made["html"]
    assert_same_as_full_build(src, tmp_path, options, out)


def test_a_changed_keys_file_is_not_trusted(book, made):
    """Keys edited after the build (here: every page given the key of the first) are not the file the
    build recorded: nothing is copied by them, and no page comes out stale."""
    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, options)
    keys_file = out / keyed.KEYS_DIR / "html.json"
    keys = json.loads(keys_file.read_text(encoding="utf-8"))
    first = keys[sorted(keys)[0]]
    keys_file.write_text(json.dumps({path: first for path in keys}), encoding="utf-8")
    change_sentence(src / last_source_of(src, "2017").name)
    made["html"].clear()
    build.build(src, out, options)
    # Every page, 2007's too: an unchanged edition is copied whole only with the keys of its pages.
    assert sorted(made["html"]) == sorted(recorded_keys(out)) and "2007/1.html" in made["html"]
    assert_same_as_full_build(src, tmp_path, options, out)


def test_a_damaged_page_with_a_matching_key_is_made_again(book, made):
    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, options)
    page = out / "html" / "2017" / "1.html"
    page.write_bytes(page.read_bytes().replace(b"</p>", b" BESCHADIGD</p>", 1))
    change_sentence(src / last_source_of(src, "2017").name)
    made["html"].clear()
    build.build(src, out, options)
    assert "2017/1.html" in made["html"] and b"BESCHADIGD" not in page.read_bytes()
    assert_same_as_full_build(src, tmp_path, options, out)


def test_a_key_holds_every_value_or_refuses():
    assert keyed.key_of("a.html", {"n": 1}) == keyed.key_of("a.html", {"n": 1})
    assert keyed.key_of("a.html", {"n": 1}) != keyed.key_of("b.html", {"n": 1})
    assert keyed.key_of("a.html", {"n": 1}) != keyed.key_of("a.html", {"n": "1"})
    with pytest.raises(TypeError, match="cannot hold a _Element"):
        keyed.key_of("a.html", {"el": etree.Element("p")})
    # A Later value is keyed by what it is made from and made only when the file is made.
    calls = []
    later = keyed.Later({"edges": [["1", "2"]]}, lambda: calls.append(1) or "drawn")
    assert keyed.key_of("g.html", {"graph": later}) == keyed.key_of("g.html", {"graph": {"later": {"edges": [["1", "2"]]}}})
    assert calls == []
    assert keyed.resolved({"graph": later, "n": 1}) == {"graph": "drawn", "n": 1} and calls == [1]


def test_an_article_pages_key_holds_its_neighbours_links_not_their_text():
    a = ArticlePage("2017/1", "2017", "1", "Kaarten", element=etree.Element("article"))
    b = ArticlePage("2017/2", "2017", "2", "Tafel", node={"content": ["lang"]})
    a.next, b.prev = b, a
    before = keyed.key_of("article.html", {"article": a})
    b.node = {"content": ["anders"]}  # the neighbour's text: not on a's page
    assert keyed.key_of("article.html", {"article": a}) == before
    b.title = "Spelers"  # the neighbour's title: shown in a's link to it
    assert keyed.key_of("article.html", {"article": a}) != before
    before = keyed.key_of("article.html", {"article": a})
    a.cited_by = [("2017/3A", "2017/1")]  # a new citation of it: its cited-by list
    assert keyed.key_of("article.html", {"article": a}) != before


def test_a_file_as_recorded_is_linked_and_a_changed_one_is_checked_by_its_bytes(tmp_path):
    """copy_previous links a file whose stat is the one the previous build's marker records (no bytes
    read), reads and checks a file whose stat differs, and copies nothing when one fails its check."""
    import os
    import time

    from pipeline.publish import cache, outdir

    old = tmp_path / "build"
    (old / "html").mkdir(parents=True)
    (old / "html" / "a.html").write_text("<p>een</p>", encoding="utf-8")
    (old / "html" / "b.html").write_text("<p>twee</p>", encoding="utf-8")
    time.sleep(0.01)  # the marker is written after the files (their times must be older than its own)
    outdir.record(old)
    marker = outdir.verified_marker(old)
    recorded = marker["files"]
    new = tmp_path / "new"
    new.mkdir()
    assert cache.copy_previous(old, new, ["html/a.html"], recorded, marker)
    assert os.stat(new / "html" / "a.html").st_ino == os.stat(old / "html" / "a.html").st_ino

    # Rewritten with other bytes of the same length: its stat differs, its bytes are read and refused.
    (old / "html" / "b.html").write_text("<p>drie</p>", encoding="utf-8")
    assert not cache.copy_previous(old, new, ["html/b.html"], recorded, marker)
    assert not (new / "html" / "b.html").exists()
    # Rewritten with its own bytes: read, found to be the recorded file, copied (a file of its own).
    (old / "html" / "b.html").write_text("<p>twee</p>", encoding="utf-8")
    assert cache.copy_previous(old, new, ["html/b.html"], recorded, marker)
    assert (new / "html" / "b.html").read_text(encoding="utf-8") == "<p>twee</p>"
    assert os.stat(new / "html" / "b.html").st_ino != os.stat(old / "html" / "b.html").st_ino


def test_after_a_rebuild_every_file_is_known_by_its_stat(book):
    """Removing the previous build changes the ctime of the files the new one linked from it; the build
    records their stats anew (outdir.restat, after hashing them), so the next build links them again and
    the no-op check need not hash them."""
    import os

    from pipeline.publish import outdir

    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, options)
    change_sentence(src / last_source_of(src, "2017").name)
    build.build(src, out, options)
    marker = outdir.verified_marker(out)
    shared = [rel for rel in marker["files"] if os.stat(out / rel).st_nlink == 1]
    assert len(shared) == len(marker["files"])  # the previous build is gone: no second name left
    assert [rel for rel in marker["files"] if not outdir.as_recorded(out, marker, rel)] == []
    page = out / "html" / "2007" / "1.html"  # copied (linked) from the first build
    page.write_bytes(page.read_bytes() + b" ")
    marker = outdir.verified_marker(out)
    assert not outdir.as_recorded(out, marker, "html/2007/1.html")
    assert not build.up_to_date(src, out, options)


def test_a_file_changed_in_place_while_the_build_took_it_fails_the_build(book, monkeypatch):
    """A file linked from the last build is that build's file: written into in place while this build
    runs, it would hold what neither build made. The build says so and leaves the last build where it
    is; built again, the page is made anew."""
    from pipeline.core.errors import LawbookError

    src, tmp_path, options, _ = book
    out = tmp_path / "build"
    build.build(src, out, options)
    page = out / "html" / "2007" / "1.html"
    change_sentence(src / last_source_of(src, "2017").name)  # 2007 unchanged: its pages are linked
    write_diff = build.OUTPUTS["write_diff"]

    def meddle(job):  # after the site was written: the old page gets a word more, in place
        with open(page, "r+b") as f:
            f.seek(0, 2)
            f.write(b" ")
        return write_diff.run(job)
    from dataclasses import replace
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.replace(replace(write_diff, run=meddle)))
    with pytest.raises(LawbookError, match=r"changed while this build took them from it, first html/2007/1.html"):
        build.build(src, out, options)
    assert page.read_bytes().endswith(b" ")  # the last build as the user left it
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.replace(write_diff))
    build.build(src, out, options)
    assert not page.read_bytes().endswith(b" ")
    assert_same_as_full_build(src, tmp_path, options, out)
