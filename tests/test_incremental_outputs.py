"""Incremental rebuilds of the HTML and Markdown editions: an unchanged edition's html/<edition>/ and
<edition>/lawbook.md are copied from the previous build, and the result is what a full build writes.

Asserts on which editions were rendered and on bytes, never on times. The search index and the PDF
are left out of these builds: the index is always made anew over the whole site (and pagefind orders
filter values differently from run to run, see docs/html.md); the PDF has its own tests.
"""
import json
import re
import shutil

import pytest

from pipeline.publish import cache, outdir, run as build
from pipeline.outputs import html, markdown
from pipeline.reading import manifest
from pipeline.bench import generate

STAGES = build.OUTPUTS.only("write_corpus", "write_report", "write_graph", "write_markdown", "write_html",
                            "write_diff", "write_stamp")


@pytest.fixture()
def book(tmp_path, monkeypatch):
    """A small two-edition book; builds run without the search index and the PDF; `rendered` records
    which editions the HTML and Markdown writers render (not copy)."""
    src = tmp_path / "src"
    generate.generate(src, articles=6, editions=2, seed=2)
    monkeypatch.setattr(build, "OUTPUTS", STAGES)
    rendered = {"html": [], "markdown": []}
    write_edition, render = html.write_edition, markdown.render

    def spy_write_edition(site, edition, page):
        rendered["html"].append(edition)
        return write_edition(site, edition, page)

    def spy_render(corpus, edition_id, *profile):
        rendered["markdown"].append(edition_id)
        return render(corpus, edition_id, *profile)

    monkeypatch.setattr(html, "write_edition", spy_write_edition)
    monkeypatch.setattr(markdown, "render", spy_render)
    return src, tmp_path, {"cache_dir": str(tmp_path / "cache")}, rendered


def files(folder):
    """Every file's bytes; of the marker all but the files' stats (their times and inodes are this build's)
    and its place (where and by which process this build wrote it); of the stamp all but the stats it
    records of the files it hashed ("hashed": a file changed in the two seconds before is not recorded,
    so two builds of the same inputs record more or fewer of them by how long after the edit each ran).
    The marker's digest of the stamp goes with those."""
    this_builds = {"stats", "path", "made", "id", "pid", "started"}

    def content(p):
        if p.name == cache.STAMP:
            return json.dumps({k: v for k, v in json.loads(p.read_bytes()).items() if k != "hashed"}, sort_keys=True)
        if p.name != outdir.MARKER:
            return p.read_bytes()
        marker = {k: v for k, v in json.loads(p.read_bytes()).items() if k not in this_builds}
        marker["files"] = {name: sha for name, sha in marker.get("files", {}).items() if name != cache.STAMP}
        return json.dumps(marker, sort_keys=True)
    return {p.relative_to(folder): content(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def last_source_of(src, edition):
    return [s for s in manifest.load_manifest(src) if s.edition == edition][-1]


def change_sentence(path):
    """Add a sentence to the first paragraph line of a source: a change of that edition's text only."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for k, line in enumerate(lines):
        if len(line) > 40 and line.rstrip().endswith(".") and not re.match(r"\s*\d+\.", line):
            lines[k] = line.rstrip() + " Dit geldt ook voor de blinde."
            break
    else:
        raise AssertionError(f"no paragraph line in {path.name}")
    path.write_text("\n".join(lines), encoding="utf-8")


def assert_same_as_full_build(src, tmp_path, options, out):
    full = tmp_path / "full"
    build.build(src, full, dict(options, force=True))
    assert files(out) == files(full)


def test_a_changed_2017_source_reuses_the_2007_outputs(book):
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    assert sorted(rendered["html"]) == sorted(rendered["markdown"]) == ["2007", "2017"]

    change_sentence(src / last_source_of(src, "2017").name)
    rendered["html"].clear()
    rendered["markdown"].clear()
    ctx = build.build(src, out, options)
    assert rendered == {"html": ["2017"], "markdown": ["2017"]}
    assert not ctx.log.errors
    assert (out / "html" / "2007" / "index.html").is_file() and (out / "2007" / "lawbook.md").is_file()
    assert_same_as_full_build(src, tmp_path, options, out)


def test_articles_gone_from_2017_rerender_the_2007_pages_that_linked_to_them(book):
    """The 2007 article pages link to the same article in 2017: when 2017 loses articles those links
    change, so html/2007/ is rendered again, while 2007/lawbook.md (2007 alone) is still copied."""
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    dropped = last_source_of(src, "2017").name
    toml = (src / manifest.MANIFEST).read_text(encoding="utf-8")
    entry = re.search(rf'\[\[source\]\]\nfile = "{re.escape(dropped)}"\n(?:[^\[].*\n?)*', toml).group()
    (src / manifest.MANIFEST).write_text(toml.replace(entry, ""), encoding="utf-8")
    (src / dropped).unlink()
    rendered["html"].clear()
    rendered["markdown"].clear()
    build.build(src, out, options)
    assert sorted(rendered["html"]) == ["2007", "2017"]
    assert rendered["markdown"] == ["2017"]
    assert_same_as_full_build(src, tmp_path, options, out)


def test_a_forced_build_renders_every_edition(book):
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    rendered["html"].clear()
    rendered["markdown"].clear()
    build.build(src, out, dict(options, force=True))
    assert sorted(rendered["html"]) == sorted(rendered["markdown"]) == ["2007", "2017"]


def test_a_removed_html_folder_is_built_again(book):
    """The no-op check verifies the outputs, not only the stamp: after `rm -rf build/html` the build runs."""
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    assert build.up_to_date(src, out, options)
    shutil.rmtree(out / "html")
    assert not build.up_to_date(src, out, options)
    rendered["html"].clear()
    build.build(src, out, options)
    assert sorted(rendered["html"]) == ["2007", "2017"]  # nothing to copy from: rendered
    assert build.up_to_date(src, out, options)
    assert_same_as_full_build(src, tmp_path, options, out)


def test_a_damaged_page_of_an_unchanged_edition_is_not_copied_forward(book):
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    page = sorted((out / "html" / "2007").glob("*.html"))[-1]
    damaged = page.read_bytes().replace(b"</p>", b" BESCHADIGD</p>", 1)
    assert b"BESCHADIGD" in damaged
    page.write_bytes(damaged)
    md = out / "2007" / "lawbook.md"
    md.write_bytes(md.read_bytes()[:-20])
    change_sentence(src / last_source_of(src, "2017").name)  # 2007 unchanged: its files would be copied
    rendered["html"].clear()
    rendered["markdown"].clear()
    build.build(src, out, options)
    assert sorted(rendered["html"]) == sorted(rendered["markdown"]) == ["2007", "2017"]
    assert b"BESCHADIGD" not in page.read_bytes()
    assert_same_as_full_build(src, tmp_path, options, out)


def test_nothing_is_copied_from_a_build_whose_corpus_changed(book):
    """The reuse decisions read the previous corpus.xml and stamp: when either is not the one recorded,
    every edition is rendered."""
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    corpus = out / "corpus.xml"
    corpus.write_bytes(corpus.read_bytes().replace(b'num="1"', b'num="9"', 1))
    change_sentence(src / last_source_of(src, "2017").name)
    rendered["html"].clear()
    rendered["markdown"].clear()
    build.build(src, out, options)
    assert sorted(rendered["html"]) == sorted(rendered["markdown"]) == ["2007", "2017"]
    assert_same_as_full_build(src, tmp_path, options, out)


def test_an_edition_gone_renders_the_older_ones_again_without_their_banner(book):
    """2007's pages name the edition in force (2017) in a banner. When the sources hold 2017 no more, 2007
    is in force: its pages are rendered again, with no banner, though 2007's own content is unchanged."""
    src, tmp_path, options, rendered = book
    out = tmp_path / "build"
    build.build(src, out, options)
    page = sorted(p for p in (out / "html" / "2007").glob("*.html") if p.stem.isdigit())[0]
    assert b'class="superseded"' in page.read_bytes()
    head, *entries = (src / manifest.MANIFEST).read_text(encoding="utf-8").split("[[source]]")
    kept = [e for e in entries if 'edition = "2017"' not in e]
    (src / manifest.MANIFEST).write_text("[[source]]".join([head, *kept]), encoding="utf-8")
    for source in entries:
        if source not in kept:
            (src / re.search(r'file = "([^"]+)"', source).group(1)).unlink()
    rendered["html"].clear()
    build.build(src, out, options)
    assert rendered["html"] == ["2007"]
    assert b'class="superseded"' not in page.read_bytes()
    assert_same_as_full_build(src, tmp_path, options, out)
