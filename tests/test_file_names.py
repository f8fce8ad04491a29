"""Source file names: every name sources.toml accepts (spaces, a tab, a line break, a space at either end,
a "%", a colon, any letter) builds, and comes back from every output as the very name; a name with a
character a source's text may not hold is refused at its line in the manifest.

The corpus writes a name in its `sources` attribute with "%", whitespace and control characters as
percent escapes (core/tree.py); the texts for people (report.txt, the terminal, the editor's page) show
an odd name in quotes with its escapes (report.shown_name); JSON carries the name itself.
"""
import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from lxml import etree

from pipeline.core import report, tree
from pipeline.core.errors import LawbookError
from pipeline.reading import manifest

from conftest import PRINT_44, ROOT, SOURCES, TEMPLATE_41, WIKI_54, WIKI_56, run_lawbook

WIKI_53 = "002_2f2ff1709dbc3ec0.txt"
# The five sources renamed: each odd form once (PRINT_44, the one source of 2007/24, gets the line break).
NAMES = {WIKI_54: " mijn bron.txt", WIKI_56: "kopie\tbron.txt ", WIKI_53: "per%20cent:3 ÿ€😀 <b>&amp;.txt",
         TEMPLATE_41: ".verborgen\u00a0bron.txt~", PRINT_44: "regel\neinde.txt"}


def renamed_sources(folder: Path, names: dict[str, str]) -> Path:
    """A copy of the five sources with each file renamed (and its manifest entry, in JSON's escapes,
    which are TOML's)."""
    shutil.copytree(SOURCES, folder)
    text = (folder / "sources.toml").read_text(encoding="utf-8")
    for old, new in names.items():
        (folder / old).rename(folder / new)
        text = text.replace(f'file = "{old}"', f"file = {json.dumps(new, ensure_ascii=False)}")
    (folder / "sources.toml").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def odd_build(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    sources = renamed_sources(folder / "sources", NAMES)
    done = run_lawbook("build", "--sources", sources, "--out", folder / "build", timeout=600)
    assert done.returncode == 0, done.stderr
    return folder / "build"


def test_the_corpus_xml_writes_each_name_escaped_and_gives_it_back(odd_build):
    corpus = etree.parse(str(odd_build / "corpus.xml"))
    article_24 = corpus.xpath("//article[@id='2007/24']")[0]
    assert article_24.get("sources").startswith("regel%0Aeinde.txt:")
    names = {name for el in corpus.iter() if el.get("sources") for name in tree.parse_sources(el.get("sources"))}
    assert names == set(NAMES.values())
    article_53 = corpus.xpath("//article[@id='2017/53']")[0]
    assert sorted(tree.parse_sources(article_53.get("sources"))) == [" mijn bron.txt", "kopie\tbron.txt "]
    assert article_53.get("sources").split(" ")[0].startswith("%20mijn%20bron.txt:")


def test_corpus_json_and_report_json_carry_the_names_themselves(odd_build):
    data = json.loads((odd_build / "corpus.json").read_text(encoding="utf-8"))
    files = set(re.findall(r'"file": ?("(?:[^"\\]|\\.)*")', (odd_build / "corpus.json").read_text(encoding="utf-8")))
    assert {json.loads(f) for f in files} == set(NAMES.values())
    [ed2007] = [ed for ed in data["editions"] if ed["id"] == "2007"]
    assert {s["file"] for a in ed2007["articles"] for s in a["sources"]} == {NAMES[TEMPLATE_41], NAMES[PRINT_44]}
    built = json.loads((odd_build / "report.json").read_text(encoding="utf-8"))
    assert [s["file"] for s in built["sources"]] == [NAMES[k] for k in (WIKI_54, WIKI_56, WIKI_53, TEMPLATE_41, PRINT_44)]


def test_report_txt_shows_an_odd_name_in_quotes_and_never_breaks_a_line_inside_one(odd_build):
    text = (odd_build / "report.txt").read_text(encoding="utf-8")
    headers = [line for line in text.split("\n") if line.endswith(" lines)") and not line.startswith(" ")]
    assert [h.split("  (")[0] for h in headers] == [
        "' mijn bron.txt'", "'kopie\\tbron.txt '", "per%20cent:3 ÿ€😀 <b>&amp;.txt", "'.verborgen\\xa0bron.txt~'",
        "'regel\\neinde.txt'"]
    assert "'regel\\neinde.txt'  (print, edition 2007, utf-8, 44 lines)" in headers
    assert "\neinde.txt" not in text and "\t" not in text
    assert "confirmed by 'artikel 53A' (' mijn bron.txt':12), 'artikel 53A' ('kopie\\tbron.txt ':12)" in text


def test_the_editors_page_shows_each_name_as_the_report_does(odd_build):
    page = (odd_build / "html" / "redactie.html").read_text(encoding="utf-8")
    # Each source by its origin, its file name beside it as report.txt shows the name.
    shown = re.findall(r'<li><span class="origin">[^<]*</span> <span class="file">([^<]*)</span>: uitgave', page)
    assert shown == ["&#39; mijn bron.txt&#39;", "&#39;kopie\\tbron.txt &#39;", "per%20cent:3 ÿ€😀 &lt;b&gt;&amp;amp;.txt",
                     "&#39;.verborgen\\xa0bron.txt~&#39;", "&#39;regel\\neinde.txt&#39;"]
    assert re.findall(r'<h3 class="source"><span class="origin">[^<]*</span> <span class="file">([^<]*)</span>',
                      page)[:1] == ["&#39; mijn bron.txt&#39;"]


def test_the_graph_writes_its_places_as_the_corpus_does(odd_build):
    graph = json.loads((odd_build / "refs.json").read_text(encoding="utf-8"))
    places = {c["source"] for node in graph["nodes"] for c in node["cited_by"]}
    assert "%20mijn%20bron.txt:12 kopie%09bron.txt%20:12" in places
    assert all(name in NAMES.values() for r in graph["refs"] for name in
               [r["source"].rpartition(":")[0]] if r["source"])
    assert "%20mijn%20bron.txt:12 kopie%09bron.txt%20:12" in (odd_build / "refs.graphml").read_text(encoding="utf-8")


def test_the_markdown_names_files_only_escaped_and_the_pdf_prints_the_descriptions(odd_build):
    from pypdf import PdfReader

    for edition in ("2007", "2017"):
        markdown = (odd_build / edition / "lawbook.md").read_text(encoding="utf-8")
        # (an inferred number's evidence quotes the citation that confirms it with its place, as the report does)
        evidence = re.findall(r' evidence="([^"]*)"', markdown)
        assert not any(name.strip() in re.sub(r' evidence="[^"]*"', "", markdown) for name in NAMES.values())
        assert "<b>" not in markdown and not any(re.search(r"[<>*\[\]{}]", e) for e in evidence)
        # Where a node came from, escaped, reads back as the names themselves (the Markdown master's origin).
        origins = set().union(*(tree.parse_sources(v) for v in re.findall(r' origin="([^"]*)"', markdown)))
        assert origins == {NAMES[f] for f in (WIKI_54, WIKI_56, WIKI_53, TEMPLATE_41, PRINT_44)
                           if edition == ("2007" if f in (TEMPLATE_41, PRINT_44) else "2017")}
    colophon = PdfReader(str(odd_build / "pdf" / "spelregels-2007.pdf")).pages[1].extract_text()
    assert "Bladzijde 44 van het gedrukte boek van 2007" in colophon
    assert "einde.txt" not in colophon


def test_show_and_check_print_the_names_escaped(odd_build, tmp_path):
    sources = renamed_sources(tmp_path / "sources", NAMES)
    shown = run_lawbook("show", "2007/24", "--sources", sources)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.rstrip("\n").split("\n")[-1].startswith("sources: regel%0Aeinde.txt:")
    checked = run_lawbook("check", "--sources", sources)
    assert "  'regel\\neinde.txt':" in checked.stdout and "\neinde.txt" not in checked.stdout


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(min_size=1), st.sets(st.integers(1, 10**6), min_size=1), min_size=1, max_size=4))
def test_the_sources_attribute_gives_back_every_name_and_line(sources):
    value = tree.format_sources(sources)
    assert tree.parse_sources(value) == sources
    assert "  " not in value and not re.search(r"[\t\n\r\x0b\x0c\x85\xa0\u2028\u3000]", value)


def sources_pattern() -> etree.RelaxNG:
    """An element with only the `sources` attribute, checked by corpus.rng's own definition of it."""
    rng = etree.parse(str(ROOT / "schema" / "corpus.rng"))
    [define] = [d for d in rng.iter("{*}define") if d.get("name") == "sources"]
    ns = "http://relaxng.org/ns/structure/1.0"
    schema = etree.fromstring(f'<grammar xmlns="{ns}" datatypeLibrary="http://www.w3.org/2001/XMLSchema-datatypes">'
                              '<start><element name="x"><attribute name="sources"><ref name="sources"/></attribute>'
                              '</element></start></grammar>')
    schema.append(define)
    return etree.RelaxNG(schema)


ACCEPTED_NAME = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/"), min_size=1).filter(
    lambda name: manifest.read.refused_in(name, one_line=False) is None and name not in (".", ".."))


@settings(max_examples=300, deadline=None)
@given(st.lists(ACCEPTED_NAME, min_size=1, max_size=3, unique=True))
def test_corpus_rng_takes_the_attribute_of_every_name_the_manifest_accepts(names):
    valid = sources_pattern()
    el = etree.Element("x", sources=tree.format_sources({name: {3, 4, 9} for name in names}))
    assert valid.validate(el), (el.get("sources"), valid.error_log)


@pytest.mark.parametrize("value", ["a b.txt:3", " a.txt:3", "a%2.txt:3", "a\u00a0b.txt:3", "a.txt:3  b.txt:4",
                                   "a/b.txt:3", "a\u202eb.txt:3"])
def test_corpus_rng_refuses_a_list_that_could_be_misread(value):
    assert not sources_pattern().validate(etree.Element("x", sources=value))


def test_corpus_schema_json_takes_every_name_as_it_is():
    import jsonschema

    schema = json.loads((ROOT / "schema" / "corpus.schema.json").read_text(encoding="utf-8"))
    sources = {"$ref": "#/definitions/sources", "definitions": schema["definitions"]}
    for name in NAMES.values():
        jsonschema.validate([{"file": name, "lines": [3]}], sources)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"file": "", "lines": [3]}], sources)


# -- refused at the manifest's line -------------------------------------------------------------------
REFUSED_NAMES = [
    ("kleur\x1b[31m.txt", "'kleur\\x1b[31m.txt' holds control character U+001B at character 6"),
    ("omgekeerd\u202etxt.exe", "'omgekeerd\\u202etxt.exe' holds bidirectional control U+202E (right-to-left "
                               "override) at character 10: it makes text display in another order than it reads"),
    ("iso\u2066late.txt", "'iso\\u2066late.txt' holds bidirectional control U+2066 (left-to-right isolate) at "
                          "character 4: it makes text display in another order than it reads"),
    ("c1\x85.txt", "'c1\\x85.txt' holds control character U+0085 at character 3"),
    ("pagina\x0c.txt", "'pagina\\x0c.txt' holds control character U+000C at character 7"),
    ("eigen\ue000.txt", "'eigen\\ue000.txt' holds private-use character U+E000 at character 6: no law text uses it"),
]


@pytest.mark.parametrize("name, said", REFUSED_NAMES, ids=[r[0].encode("unicode_escape").decode() for r in REFUSED_NAMES])
def test_a_name_with_a_character_a_source_may_not_hold_is_refused_at_its_line(tmp_path, name, said):
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "sources.toml").write_text(f'# boek\n[[source]]\nedition = "2017"\nfile = {json.dumps(name)}\n',
                                         encoding="utf-8")
    done = run_lawbook("build", "--sources", folder, "--out", tmp_path / "build")
    assert done.returncode == 2
    assert done.stderr == (f"lawbook: error: {folder}/sources.toml:4: [[source]] number 1: the file name {said}\n"
                           "  fix: rename the file without it, and write its new name here\n")


def test_a_file_whose_name_is_not_utf8_is_refused_by_name(tmp_path):
    folder = tmp_path / "sources"
    shutil.copytree(SOURCES, folder)
    open(bytes(folder) + b"/oud\xe9.txt", "wb").close()
    done = run_lawbook("build", "--sources", folder, "--out", tmp_path / "build")
    assert done.returncode == 2
    assert done.stderr == (f"lawbook: error: '{folder}/oud\\udce9.txt': the name of this file holds byte 0xe9, which "
                           "is not UTF-8, so sources.toml cannot list it\n  fix: rename it in UTF-8 (e.g. convmv -f "
                           "cp1252 -t utf-8 --notest FILE), or move it out of the folder\n")


@pytest.mark.parametrize("key", ["origin", "description"])
def test_a_bidirectional_override_in_an_origin_or_description_is_refused_as_in_corrections(tmp_path, key):
    folder = tmp_path / "sources"
    shutil.copytree(SOURCES, folder)
    text = (folder / "sources.toml").read_text(encoding="utf-8")
    (folder / "sources.toml").write_text(text.replace(f'{key} = "', f'{key} = "\\u202e', 1), encoding="utf-8")
    line = next(n for n, row in enumerate(text.split("\n"), 1) if row.startswith(f"{key} = "))
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(folder)
    assert (caught.value.line, caught.value.message, caught.value.fix) == (
        line, f"[[source]] number 1 ({WIKI_54}): {key} holds bidirectional control U+202E (right-to-left override) "
              "at character 1 of its value: it makes text display in another order than it reads",
        "remove it; law text needs no direction controls")


def test_shown_name_quotes_only_what_would_not_read_as_it_is():
    assert report.shown_name("mijn bron.txt") == "mijn bron.txt"
    assert report.shown_name("ÿ€😀 <b>.txt") == "ÿ€😀 <b>.txt"
    assert report.shown_name(" bron.txt") == "' bron.txt'"
    assert report.shown_name("a\nb'c.txt") == "\"a\\nb'c.txt\""
    assert report.location("a\tb.txt", 12) == "'a\\tb.txt':12"
