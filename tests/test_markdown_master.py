"""The Markdown master (reading/formats/markdown.py, publish/convert.py): the build's Markdown edition read back
as a source, `lawbook convert`, hand edits of a master, and every error the reader gives."""
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ENGLISH_BOOK, ROOT, run_lawbook
from pipeline.bench import generate
from pipeline.core import tree
from pipeline.core.options import Options
from pipeline.outputs import markdown
from pipeline.publish import convert
from pipeline.publish.run import make_corpus

SOURCES = ROOT / "sources"
MANIFEST = ('language = "nl"\n\n[[source]]\nfile = "2017.md"\nedition = "2017"\n')


def masters_of(sources: Path, folder: Path, options: Options | None = None) -> tuple[object, object]:
    """(the corpus of `sources`, the corpus of its Markdown masters written into `folder` without convert's own
    check): the two a round trip compares."""
    old = make_corpus(sources, options or Options())
    folder.mkdir(parents=True)
    masters = tuple((convert.master_name(e.get("id")), e.get("id")) for e in old.corpus.iterchildren("edition"))
    for name, edition in masters:
        (folder / name).write_text(markdown.render(old.corpus, edition, old.profile), encoding="utf-8")
    from pipeline.reading import manifest
    (folder / "sources.toml").write_text(convert.manifest_text(manifest.load_manifest(sources), masters, sources),
                                         encoding="utf-8")
    return old, make_corpus(folder, Options())


def node(ctx, node_id):
    return next(el for el in ctx.corpus.iter() if el.get("id") == node_id)


def text_of(ctx, node_id):
    return [tree.plain_text(p) for p in node(ctx, node_id).iterchildren("p")]


def errors(ctx) -> list[str]:
    return [f"{e.file}:{e.line}: {e.message}" for e in ctx.log.errors]


# -- the round trip -------------------------------------------------------------------------------------------
def test_the_five_sources_read_back_from_their_markdown_are_the_same_corpus(tmp_path):
    old, new = masters_of(SOURCES, tmp_path / "masters")
    assert errors(new) == []
    assert convert.compare(old, new) == []
    assert len(convert.nodes_of(new.corpus)) == 60  # (47E2 among them, made by a correction)
    # Where each node came from is kept: the node's origin is the old sources' lines; its sources name the master.
    assert node(new, "2017/53A").get("origin") == node(old, "2017/53A").get("sources") \
        == "000_8d35bcdf16b9ca3e.txt:7-8 001_0c222c0b6955047f.txt:7-8"
    assert node(new, "2017/53A").get("sources").startswith("2017.md:")
    # The notes at their markers, with the book's numbers; the commentary with its author; the gap.
    assert node(new, "2007/41B/noot1").get("num") == "2" and node(new, "2007/41B/noot1").get("form") == "footnote"
    assert node(new, "2017/54/toelichting1").get("author") == "Peter"
    assert node(new, "2007/25").find("gap").get("reason").startswith("Artikel 25 breekt af aan het eind van pagina 44")
    # An inferred number stays inferred, with its evidence, and the report says so again.
    assert node(new, "2017/24A").get("numbering") == "inferred"
    assert node(new, "2017/24A").get("evidence") == node(old, "2017/24A").get("evidence")
    assert any(e.kind == "inference" and e.node == "2017/24A" for e in new.log.entries)


def test_the_corrections_records_come_back_with_the_corrected_text(tmp_path):
    old, new = masters_of(SOURCES, tmp_path / "masters")
    corr = node(new, "2017/24E").find("corr")
    assert (corr.get("kind"), corr.get("was"), corr.get("now")) == ("replace", "artikel 50 en artikel 50",
                                                                    "artikel 50 en artikel 51")
    assert "artikel 50 en artikel 51" in text_of(new, "2017/24E")[0]
    assert node(new, "2017/47E2a").find("corr").get("was") == "2017/47E1a"


def test_the_writers_own_words_are_accounted_for_and_never_law_text(tmp_path):
    _, new = masters_of(SOURCES, tmp_path / "masters")
    dropped = {e.message for e in new.log.entries if e.kind == "dropped" and e.file == "2017.md"}
    assert "the edition's title" in dropped
    assert "the remark that article 54 is in none of the sources" in dropped
    assert "the editorial note on 57B: a gap the build finds again from the text" in dropped
    assert not any(el.get("id") == "2017/54" for el in new.corpus.iter("article"))


def test_the_markdown_the_build_writes_from_a_master_is_the_master(tmp_path):
    """A fixed point: a build from the masters writes them again byte for byte (origins stay the old sources')."""
    folder = tmp_path / "masters"
    masters_of(SOURCES, folder)
    again = make_corpus(folder, Options())
    for edition in ("2007", "2017"):
        assert markdown.render(again.corpus, edition, again.profile) == (folder / f"{edition}.md").read_text("utf-8")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(articles=st.integers(2, 12), editions=st.integers(1, 2), seed=st.integers(0, 10_000))
def test_a_generated_book_read_back_from_its_markdown_is_the_same_corpus(tmp_path_factory, articles, editions,
                                                                          seed):
    """corpus → Markdown → corpus is the identity on generated books (IDs, words, notes at their markers,
    commentary, gaps, references and where each node came from)."""
    folder = tmp_path_factory.mktemp("generated")
    generate.generate(folder / "sources", articles=articles, editions=editions, seed=seed)
    old, new = masters_of(folder / "sources", folder / "masters")
    assert errors(new) == []
    assert convert.compare(old, new) == []
    assert sum(1 for _ in new.corpus.iter("article")) >= articles


@pytest.mark.book
def test_the_english_book_read_back_from_its_markdown_is_the_same_corpus(tmp_path):
    """The whole book: introduction, definitions, tables, sub-items, text after a list, signed notes."""
    if not ENGLISH_BOOK.is_file():
        pytest.skip(f"the English book is not at {ENGLISH_BOOK} (it is not part of the project)")
    (tmp_path / "en").mkdir()
    shutil.copyfile(ENGLISH_BOOK, tmp_path / "en" / "book.txt")
    (tmp_path / "en" / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "book.txt"\nedition = "2017"\n')
    old, new = masters_of(tmp_path / "en", tmp_path / "masters")
    assert errors(new) == []
    assert convert.compare(old, new) == []
    assert sum(1 for _ in new.corpus.iter("article")) == 93
    assert new.corpus.find(".//introduction") is not None and len(new.corpus.findall(".//definition")) > 20


# -- lawbook convert ----------------------------------------------------------------------------------------
@pytest.mark.slow
def test_convert_writes_the_masters_and_a_manifest_and_make_builds_the_same_corpus(tmp_path):
    out = tmp_path / "masters"
    done = run_lawbook("convert", "--sources", SOURCES, "--out", out)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["2007.md", "2017.md", "sources.toml"]
    manifest = (out / "sources.toml").read_text("utf-8")
    assert manifest.count('format = "markdown"') == 2 and 'language = "nl"' in manifest
    assert "made by lawbook convert from: 003_6f949f908cd1d87e.txt" in manifest
    # corrections.toml is applied, not copied: building the masters with it would correct twice.
    assert not (out / "corrections.toml").exists()
    built = run_lawbook("build", "--sources", out, "--out", tmp_path / "build", "--no-pdf")
    assert built.returncode == 0, built.stderr
    assert convert.compare(make_corpus(SOURCES, Options()), make_corpus(out, Options())) == []
    assert sorted(p.name for p in SOURCES.iterdir()) == sorted(p.name for p in (ROOT / "sources").iterdir())


def test_convert_refuses_a_folder_that_holds_files_and_leaves_it_alone(tmp_path):
    out = tmp_path / "masters"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(Exception) as caught:
        convert.convert(SOURCES, out)
    assert "not empty" in str(caught.value)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["masters"]  # no staging folder left behind


def test_convert_refuses_sources_that_do_not_build(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    # A Cyrillic "А" in an article heading: an error of the build (reading/normalise.py).
    page = sources / "000_8d35bcdf16b9ca3e.txt"
    page.write_text(page.read_text("utf-8").replace("Artikel\u00a053", "\u0410rtikel\u00a053", 1), encoding="utf-8")
    done = run_lawbook("convert", "--sources", sources, "--out", tmp_path / "masters")
    assert done.returncode == 1
    assert "lawbook: error: 000_8d35bcdf16b9ca3e.txt:3:" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "masters").exists()


# -- hand edits of a master --------------------------------------------------------------------------------
@pytest.fixture
def master(tmp_path) -> Path:
    folder = tmp_path / "masters"
    convert.convert(SOURCES, folder)
    return folder


def edit(folder: Path, edition: str, old: str, new: str) -> None:
    path = folder / f"{edition}.md"
    text = path.read_text("utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_word_changed_in_the_master_is_the_corpus_word(master):
    edit(master, "2017", "geen verdere rechtzetting", "geen enkele verdere rechtzetting")
    ctx = make_corpus(master, Options())
    assert errors(ctx) == []
    assert text_of(ctx, "2017/24A") == ["Als het één kaart betreft, lager dan een honneur, en niet voortijdig "
                                        "voorgespeeld, is er geen enkele verdere rechtzetting (maar zie E hieronder)."]
    assert node(ctx, "2017/24A").find(".//ref").get("to") == "2017/24E"  # the reference found again in the words


def test_a_new_section_written_in_the_master_is_a_node_with_its_heading_and_text(master):
    edit(master, "2017", "## Artikel 41 Het begin van het spelen", "### 24F Nieuwe bepaling\n\nDe nieuwe tekst van "
         "24F, zie artikel 41A.\n\n## Artikel 41 Het begin van het spelen")
    ctx = make_corpus(master, Options())
    assert errors(ctx) == []
    new = node(ctx, "2017/24F")
    assert tree.plain_text(new.find("heading")) == "Nieuwe bepaling"
    assert text_of(ctx, "2017/24F") == ["De nieuwe tekst van 24F, zie artikel 41A."]
    assert new.get("origin") is None and new.get("sources").startswith("2017.md:")
    assert new.find(".//ref").get("to") == "2017/41A"


def test_a_new_footnote_written_in_the_master_is_a_note_at_its_marker(master):
    edit(master, "2017", "wordt de uitkomst opengelegd.", "wordt de uitkomst[^nieuw] opengelegd.")
    edit(master, "2017", "[^41C-noot1]:", "[^nieuw]: Een nieuwe voetnoot.\n\n[^41C-noot1]:")
    ctx = make_corpus(master, Options())
    assert errors(ctx) == []
    p = node(ctx, "2017/41C").find("p")
    notes = p.findall("note")
    assert [tree.plain_text(n) for n in notes][0] == "Een nieuwe voetnoot."
    assert notes[0].get("num") is None and notes[0].get("id") == "2017/41C/noot1"
    assert p.text.endswith("wordt de uitkomst")


def test_an_article_moved_in_the_master_gives_the_same_corpus(master):
    path = master / "2007.md"
    text = path.read_text("utf-8")
    start, end = text.index("## Artikel 41 "), len(text)
    moved = text[:text.index("## Artikel 24 ")] + text[start:end] + "\n" + text[text.index("## Artikel 24 "):start]
    path.write_text(moved, encoding="utf-8")
    ctx = make_corpus(master, Options())
    assert errors(ctx) == []
    assert convert.compare(make_corpus(SOURCES, Options()), ctx) == []


# -- what the reader refuses --------------------------------------------------------------------------------
BOOK = """# Spelregels voor Wedstrijdbridge — uitgave 2017

## Artikel 53 Accepteren {#53}

### 53A Voor de beurt {#53A}

De tekst van 53A.

"""


def read_master(tmp_path: Path, body: str):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "sources.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "2017.md").write_text(BOOK + body, encoding="utf-8")
    return make_corpus(folder, Options())


def test_a_small_master_reads_without_errors(tmp_path):
    ctx = read_master(tmp_path, "#### 53A1 {#53A1}\n\nEen lid[^1].\n\n[^1]: De noot.\n")
    assert errors(ctx) == []
    assert text_of(ctx, "2017/53A") == ["De tekst van 53A."]
    assert [tree.plain_text(n) for n in node(ctx, "2017/53A1").iter("note")] == ["De noot."]
    assert node(ctx, "2017/53A1/noot1").get("num") == "1"


@pytest.mark.parametrize("body, line, expected", [
    ("- een lijst\n", 9, "a list at line 9 cannot be placed"),
    ("1. een lijst\n", 9, "a numbered list at line 9 cannot be placed"),
    ("```\ncode\n```\n", 9, "a code block at line 9 cannot be placed"),
    ("    ingesprongen\n", 9, "a code block (a line indented by four spaces) at line 9 cannot be placed"),
    ("<div>x</div>\n", 9, "HTML in the Markdown master"),
    ("Een ![beeld](x.png) hier.\n", 9, "an image in the law text"),
    ("Een <b>vet</b> woord.\n", 9, "HTML in the law text ('<b>')"),
    ("### Geen nummer\n", 9, "the heading names no node"),
    ("#### 53B2 {#53B2}\n\nTekst.\n", 9, "53B2 at line 9 stands under 53A"),
    ("### 53B Kop {#53C}\n", 9, "the heading at line 9 says 53B but its anchor is {#53C}"),
    ("#### 53B {#53B}\n", 9, "53B is not a citation of a subsection"),
    ("Tekst[^x].\n", 9, "a footnote marker without its footnote at line 9 ([^x])"),
    ("Tekst.\n\n[^y]: Een noot die niemand noemt.\n", 11, "footnote [^y] is marked nowhere"),
    ("Tekst[^z].\n\n[^z]: Eerste alinea.\n\n    Tweede alinea.\n", 11, "footnote [^z] at line 11 holds 2 paragraphs"),
    ("> een citaat\n", 9, "a block quote at line 9 that is not commentary"),
    ("> **Toelichting — Peter**\n>\n> Tekst zonder regel.\n", 9, "has no attribution line"),
    ("<!-- text of 12C -->\n\nTekst.\n", 11, "'<!-- text of 12C -->' before line 11, but 12C is not a node above it"),
    ("### 53B Kop {#53B origin=\"geen bron\"}\n", 9, 'origin="geen bron" at line 9 does not read'),
    ("---\n", 9, "a horizontal rule at line 9 cannot be placed"),
])
def test_each_thing_the_reader_cannot_place_is_an_error_at_its_line_with_the_fix(tmp_path, body, line, expected):
    ctx = read_master(tmp_path, body)
    found = [e for e in ctx.log.errors if e.file == "2017.md" and e.line == line]
    assert any(expected in e.message for e in found), errors(ctx)
    assert all(":" in e.message or "write" in e.message or "remove" in e.message for e in found)


def test_text_under_a_heading_that_cannot_be_placed_is_set_aside_never_read_into_the_node_before(tmp_path):
    ctx = read_master(tmp_path, "### Geen nummer\n\nDeze tekst hoort nergens bij.\n")
    assert any("stands under a heading that cannot be placed" in e.message and e.line == 11 for e in ctx.log.errors)
    assert text_of(ctx, "2017/53A") == ["De tekst van 53A."]


def test_emphasis_typed_into_the_law_text_keeps_its_words_and_is_reported(tmp_path):
    ctx = read_master(tmp_path, "#### 53A1 {#53A1}\n\nEen *nadruk* hier.\n")
    assert errors(ctx) == []
    assert text_of(ctx, "2017/53A1") == ["Een nadruk hier."]
    assert any(e.kind == "damage" and e.line == 11 and "emphasis" in e.message for e in ctx.log.entries)


def test_a_bad_master_fails_the_build_with_one_message_per_error_and_no_traceback(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "sources.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "2017.md").write_text(BOOK + "- een lijst\n", encoding="utf-8")
    done = run_lawbook("build", "--sources", folder, "--out", tmp_path / "out", "--no-pdf")
    assert done.returncode == 1
    assert "lawbook: error: 2017.md:9: a list at line 9 cannot be placed" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


def test_the_format_is_detected_from_the_file(tmp_path):
    ctx = read_master(tmp_path, "")
    assert [s["format"] for s in ctx.log.sources] == ["markdown"]


@pytest.mark.slow
def test_watching_a_master_rebuilds_its_edit_as_a_full_build_would(tmp_path):
    """serve --watch works on a master as on any source: after an edit the watched folder is a fresh build."""
    from pipeline.publish import run, watch
    from test_watch import differences

    convert.convert(SOURCES, tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build")
    try:
        assert session.rebuild().ok
        edit(tmp_path / "src", "2017", "geen verdere rechtzetting", "geen enkele verdere rechtzetting")
        outcome = session.rebuild()
        assert outcome.ok and outcome.error is None and "html/2017/24.html" in outcome.changed
    finally:
        session.close()
    fresh = tmp_path / "fresh"
    run.build(tmp_path / "src", fresh, {"force": True, "cache_dir": str(tmp_path / "cache")})
    assert differences(tmp_path / "build", fresh) == []
    assert "geen enkele verdere rechtzetting" in (fresh / "2017" / "lawbook.md").read_text("utf-8")
