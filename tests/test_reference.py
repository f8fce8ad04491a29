"""`build --reference PATH`: the editor's page compares the book with the original (docs/align.md).

The original is the reference of tests/test_align.py (the Dutch --no-corrections corpus with what the
English 2017 Laws have where the Dutch sources are wrong or short), written as a corpus.json."""
import dataclasses
import json
import shutil

import lxml.html
import pytest

from conftest import SOURCES, run_lawbook, snapshot
from test_align import make_reference
from pipeline.publish import outdir, run as build
from pipeline.core import lang
from pipeline.corpus import align
from pipeline.outputs import html, serialise
from pipeline.outputs.site import editor as editor_page
from pipeline.outputs.job import Job

F000, F002 = "000_8d35bcdf16b9ca3e.txt", "002_2f2ff1709dbc3ec0.txt"


def copy_of_build(built, out):
    """A copy of the module's build at `out`, its marker saying it belongs there (as a build made there
    would say): a copy the marker does not claim is the user's, and the build refuses it."""
    shutil.copytree(built, out)
    marker = json.loads((out / outdir.MARKER).read_text(encoding="utf-8"))
    marker.update(path=outdir.place(out), made=outdir.place(out))
    (out / outdir.MARKER).write_text(json.dumps(marker), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """The original's corpus.json, in a build folder of its own (as `lawbook build` of it would leave it)."""
    folder = tmp_path_factory.mktemp("original") / "en"
    folder.mkdir()
    plain = build.make_corpus(SOURCES, {"no_corrections": True})
    (folder / "corpus.json").write_text(json.dumps(make_reference(serialise.to_json(plain.corpus))), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def built(original, tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "build"
    result = run_lawbook("build", "--sources", SOURCES, "--out", out, "--no-pdf", "--reference", original)
    assert result.returncode == 0, result.stderr
    return out


def editor(folder, name="redactie.html"):
    """The editor's page of a build: redactie.html, the Dutch book's name (an English book's: editorial.html)."""
    return lxml.html.fromstring((folder / "html" / name).read_bytes())


def lines(elements):
    return [" ".join(el.text_content().split()) for el in elements]


def test_the_editors_page_compares_the_book_with_the_original(built, original):
    doc = editor(built)
    [section] = doc.xpath("//details[@id='origineel']")
    assert section.findtext("summary/h2") == "Vergelijking met het origineel"
    assert lines(section.xpath("p[1]")) == [
        f"Het boek onderdeel voor onderdeel vergeleken met het origineel, {original}, zoals lawbook align ze "
        f"vergelijkt: vindplaatsen, structuur, verwijzingen, noten en gaten, nooit woorden. Vergeleken uitgaven: "
        f"2017. Niet in het origineel: 2007."]
    # The shipped corrections make 24E and 47 match: what is left is what the Dutch sources lack.
    assert lines(section.xpath("ul[@class='counts']/li")) == [
        "verwijzingen anders 0", "noten anders 0", "een tabel anders 0", "leemte 2", "alleen hier 0",
        "ontbreekt hier 1", "aanvaard 0", "niet in de bronnen 1", "gelijk 45"]
    assert [h.get("id") for h in section.xpath("h3")] == ["origineel-gap", "origineel-missing",
                                                         "origineel-not-in-sources", "origineel-verwijzingen"]
    assert lines(section.xpath("h3[@id='origineel-gap']/following-sibling::ol[1]/li")) == [
        f"{F002}:36 2017/57B verwijzingen hier —, in het origineel 2017/59; noten hier 0, in het origineel 0",
        f"{F002}:44 2017/57D verwijzingen hier —, in het origineel 2017/16; noten hier 0, in het origineel 0"]
    assert section.xpath("h3[@id='origineel-gap']/following-sibling::ol[1]/li[1]/a/@href") == ["2017/57.html#57B"]
    # A node only the original has: its line in the original, and no link (it is not in the site).
    [missing] = section.xpath("h3[@id='origineel-missing']/following-sibling::ol[1]/li")
    assert lines([missing]) == ["origineel en.txt:1 2017/57E verwijzingen hier —, in het origineel —; "
                                "noten hier —, in het origineel 0"]
    assert not missing.xpath(".//a")
    assert lines(section.xpath("p[contains(., 'alleen in het origineel')]")) == [
        "Artikelen alleen in het origineel, niet vergeleken: 2017/54, 2017/59."]
    # The original here is a set of pages (nine of its 59 articles): what it lacks is not "nowhere".
    [counts] = lines(section.xpath("h3[@id='origineel-verwijzingen']/following-sibling::p[1]"))
    assert counts.startswith("Elke genoemde plaats die niet in dit boek staat: 4 in het origineel (de bronnen "
                             "missen haar), 0 nergens ")
    assert counts.endswith(" 18 niet in de gegeven bladzijden van het origineel (die zijn niet het hele boek: of "
                           "het ze heeft, is onbekend).")
    dangling = lines(section.xpath("h3[@id='origineel-verwijzingen']/following-sibling::ol[1]/li"))
    assert len(dangling) == 29
    assert dangling[0] == f"{F000}:23 2017/41A ‘artikel 54’ → 2017/54 (in het origineel)"
    assert f"{F000}:60 2017/24E ‘artikel 51’ → 2017/51 (niet in de gegeven bladzijden van het origineel)" in dangling
    assert dangling[-1].endswith("(in een uitgave die het origineel niet heeft)")
    assert not section.get("open")  # folded, as every section of the page


def test_without_the_corrections_the_page_gives_the_differences_and_their_suggestions(original, tmp_path):
    """The library call the build makes, on the book as the sources say: 24E and 47E differ."""
    ctx = Job.of(build.make_corpus(SOURCES, {"no_corrections": True, "reference": str(original)}), tmp_path)
    build.reference.align_reference(ctx)
    html.write_html(ctx)
    [section] = editor(tmp_path).xpath("//details[@id='origineel']")
    assert lines(section.xpath("h3[@id='origineel-refs-differ']/following-sibling::ol[1]/li")) == [
        f"{F000}:59 2017/24E verwijzingen hier 2017/50, 2017/50, in het origineel 2017/50, 2017/51; noten hier 0, "
        f"in het origineel 0 → 'en artikel 50' vervangen door 'en artikel 51'"]
    assert lines(section.xpath("h3[@id='origineel-extra']/following-sibling::ol[1]/li")) == [
        f"{F002}:8 2017/47E1a verwijzingen hier 2017/16C, in het origineel —; noten hier 0, in het origineel — "
        f"→ 2017/47E1a vernummeren tot 2017/47E2a",
        f"{F002}:9 2017/47E1b verwijzingen hier 2017/47E1a, in het origineel —; noten hier 0, in het origineel — "
        f"→ 2017/47E1b vernummeren tot 2017/47E2b"]
    assert section.xpath("h3[@id='origineel-extra']/following-sibling::ol[1]/li/a/@href") == [
        "2017/47.html#47E1a", "2017/47.html#47E1b"]


def test_without_a_reference_the_page_has_no_comparison(tmp_path):
    ctx = Job.of(build.make_corpus(SOURCES), tmp_path)
    build.reference.align_reference(ctx)
    assert ctx.made.alignment is None
    html.write_html(ctx)
    doc = editor(tmp_path)
    assert not doc.xpath("//details[@id='origineel']") and not doc.xpath("//a[@href='#origineel']")
    assert "origineel" not in doc.xpath("string(//main)").replace("naar het origineel", "")


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("{", "not JSON: Expecting property name enclosed in double quotes"),
    ('{"format": "other"}', 'not a lawbook corpus (no "format": "lawbook-corpus")'),
    ('{"format": ' + "7" * 5000 + "}", "not JSON: Exceeds the limit (4300 digits) for integer string conversion: "
                                      "value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"),
])
def test_a_reference_that_cannot_be_read_is_one_message_and_leaves_the_build_alone(built, tmp_path, content,
                                                                                    message):
    out = copy_of_build(built, tmp_path / "build")
    before = snapshot(out)
    folder = tmp_path / "en"
    folder.mkdir()
    if content is not None:
        (folder / "corpus.json").write_text(content, encoding="utf-8")
    result = run_lawbook("build", "--sources", SOURCES, "--out", out, "--no-pdf", "--reference", folder)
    assert result.returncode == 2
    where = f"{folder / 'corpus.json'}:1" if content == "{" else f"{folder / 'corpus.json'}"
    assert result.stderr.splitlines() == [
        f"lawbook: error: {where}: {message}",
        "  fix: give --reference the build folder of the original, or the corpus.json its build wrote"]
    assert snapshot(out) == before
    assert not (tmp_path / "build.failed").exists()


def test_a_changed_reference_rebuilds_the_site_and_an_unchanged_one_does_not(built, original, tmp_path):
    out = copy_of_build(built, tmp_path / "build")
    moved = tmp_path / "en"
    shutil.copytree(original, moved)
    args = ("build", "--sources", SOURCES, "--out", out, "--no-pdf", "--reference")
    # The same bytes at another path: the page names the path, so that is a change too.
    assert run_lawbook(*args, moved).stdout.startswith(f"built {out}/")
    assert run_lawbook(*args, moved).stdout == f"{out}/ is up to date\n"
    data = json.loads((moved / "corpus.json").read_text(encoding="utf-8"))
    data["editions"][0]["articles"] = [a for a in data["editions"][0]["articles"] if a["num"] != "59"]
    (moved / "corpus.json").write_text(json.dumps(data), encoding="utf-8")
    assert run_lawbook(*args, moved).stdout.startswith(f"built {out}/")
    assert lines(editor(out).xpath("//details[@id='origineel']/p[contains(., 'alleen in het origineel')]")) == [
        "Artikelen alleen in het origineel, niet vergeleken: 2017/54."]
    # Leaving the reference out is a change as well: the section goes.
    assert run_lawbook("build", "--sources", SOURCES, "--out", out, "--no-pdf").stdout.startswith(f"built {out}/")
    assert not editor(out).xpath("//details[@id='origineel']")


def test_the_section_speaks_the_profiles_words(original, tmp_path):
    ctx = build.make_corpus(SOURCES)
    job = Job.of(dataclasses.replace(ctx.frozen(), profile=lang.profile("en")), tmp_path)
    job.made.alignment = align.align(serialise.to_json(ctx.corpus),
                                json.loads((original / "corpus.json").read_text(encoding="utf-8")))
    html.write_html(job)
    [section] = editor(tmp_path, "editorial.html").xpath("//details[@id='origineel']")
    assert section.findtext("summary/h2") == "Comparison with the original"
    assert lines(section.xpath("h3[@id='origineel-gap']/following-sibling::p[1]")) == [
        "The sources have a gap where the original has text."]
    assert lines(section.xpath("p[contains(., 'only in the original')]")) == [
        "Laws only in the original, not compared: 2017/54, 2017/59."]
    dutch = lang.profile("nl")
    assert all(meaning in dutch.words for meaning in editor_page.ALIGN_STATUSES.values())
