"""What the reader's site is made of, without a browser, on a made-up corpus of two editions (2010 and
2020, numbered unlike the real book): the banner of an edition not in force, previous/next at the top,
citations of renumbered IDs, what search leaves out, one search box on the search page, a heading per
article on the contents page, and the search index's file list for the service worker."""
import json

import lxml.html
import pytest
from lxml import etree

from pipeline.core.report import BuildLog
from pipeline.outputs import html
from pipeline.core import lang
from pipeline.outputs.job import Job
from pipeline.outputs.site.search import SearchIndex

CORPUS = """<corpus>
<edition id="2010">
  <article id="2010/3" num="3"><title>Oude regel</title>
    <section id="2010/3C" num="C"><heading>Alleen oud</heading><p>Vervallen tekst.</p></section>
  </article>
  <article id="2010/8" num="8"><title>Bieden</title>
    <section id="2010/8B" num="B"><heading>Te laat</heading><p>Eerdere woorden.</p></section>
  </article>
</edition>
<edition id="2020">
  <article id="2020/8" num="8"><title>Bieden</title>
    <section id="2020/8B" num="B"><heading>Te laat</heading>
      <p>Een bod<note form="inline" id="2020/8B/noot1">Een noot.</note>. Daarna verder.</p>
      <subsection id="2020/8B4" num="4" numbering="inferred" evidence="made up">
        <corr kind="renumber" was="2020/8B3" line="3" basis="made up"/>
        <p>Nieuw genummerd.</p>
      </subsection>
    </section>
  </article>
  <article id="2020/9" num="9"><title>Spelen</title>
    <section id="2020/9A" num="A"><p>Spelen.</p></section>
  </article>
  <article id="2020/11" num="11"><title>Einde</title>
    <section id="2020/11A" num="A"><p>Einde.</p></section>
  </article>
</edition>
</corpus>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("site")
    html.write_html(Job.of_tree(etree.fromstring(CORPUS), tmp, lang.profile("nl"), BuildLog()))

    def page(path: str):
        return lxml.html.fromstring((tmp / "html" / path).read_bytes())
    page.root = tmp / "html"
    return page


def test_an_edition_not_in_force_names_the_one_in_force_on_every_page(site):
    banner = site("2010/8.html").xpath("//p[@class='superseded']")[0]
    assert banner.xpath("string(strong)") == "Uitgave 2010 is niet de geldende uitgave."
    link = banner.xpath("a")[0]
    assert (link.get("class"), link.get("href"), link.text) == (
        "same-place", "../2020/8.html", "Dit artikel in de geldende uitgave (2020)")
    assert banner.get("data-pagefind-ignore") is not None
    # An article the edition in force lacks: its contents instead.
    assert site("2010/3.html").xpath("//p[@class='superseded']/a/@href") == ["../2020/index.html"]
    assert site("2010/index.html").xpath("//p[@class='superseded']/a/@href") == ["../2020/index.html"]
    for path in ("2020/8.html", "2020/index.html"):
        assert site(path).xpath("//p[@class='superseded']") == []


def test_previous_and_next_stand_at_the_top_of_an_article(site):
    top = site("2020/9.html").xpath("//nav[@class='pager-top']")[0]
    assert [(a.get("rel"), a.get("href"), a.text_content()) for a in top.iter("a")] == [
        ("prev", "8.html", "← Artikel 8"), ("next", "11.html", "Artikel 11 →")]
    assert [a.get("rel") for a in site("2020/8.html").xpath("//nav[@class='pager-top']//a")] == ["next"]


def test_a_renumbered_id_is_a_citation_of_its_new_place(site):
    script = (site.root / "citaten.js").read_text(encoding="utf-8")
    table = json.loads(script.removeprefix("window.LAWBOOK_CITATIONS = ").rstrip().rstrip(";"))
    assert table["2020"]["8B3"] == "2020/8.html#8B4"
    assert table["2020"]["8B4"] == "2020/8.html#8B4"
    assert "8B3" not in table["2010"]


def test_search_leaves_out_labels_markers_and_back_links(site):
    doc = site("2020/8.html")
    ignored = {(el.tag, el.get("class")) for el in doc.xpath("//main//*[@data-pagefind-ignore]")}
    assert {("sup", "noteref"), ("span", "note-cite"), ("a", "backref"), ("nav", "pager-top")} <= ignored
    # The words the marker's number leaves: "bod. Daarna", never "bod1. Daarna" in an excerpt.
    for el in doc.xpath("//main//*[@data-pagefind-ignore]"):
        el.drop_tree()
    text = " ".join(doc.xpath("string(//section[@id='8B']/p)").split())
    assert text == "Een bod. Daarna verder."
    # The inferred-numbering mark names itself as an image: no words in the text.
    mark = site("2020/8.html").xpath("//section[@id='8B4']/h3/abbr")[0]
    assert (mark.get("role"), mark.get("aria-label"), mark.text_content()) == ("img", "nummering afgeleid", "")


def test_the_search_page_has_one_search_box_and_other_pages_the_headers(site):
    search = site("zoeken.html")
    assert len(search.xpath("//input[@type='search']")) == 1 and len(search.xpath("//*[@role='search']")) == 1
    assert search.xpath("//input[@type='search']/@id") == ["zoekterm"]
    assert site("2020/9.html").xpath("//header//input[@type='search']/@id") == ["q"]


def test_contents_pages_have_a_heading_per_article(site):
    assert [" ".join(h.text_content().split()) for h in site("2020/index.html").xpath("//ol[@class='toc']/li/h2")] == [
        "Artikel 8 Bieden", "Artikel 9 Spelen", "Artikel 11 Einde"]


def test_the_search_index_lists_its_files_for_the_service_worker(tmp_path):
    """The search index's process, once done, writes pagefind/files.json: every file of the index, from the
    site's root."""
    site = tmp_path / "html"
    index = site / "pagefind"
    (index / "fragment").mkdir(parents=True)
    for name in ("pagefind.js", "pagefind-ui.js", "fragment/nl_1.pf_fragment"):
        (index / name).write_text("x", encoding="utf-8")

    class Done:
        returncode = 0

        def communicate(self):
            return "", ""
    process = SearchIndex.__new__(SearchIndex)  # pagefind itself not run: its index is made above
    process.site, process.process = site, Done()
    process.wait()
    assert json.loads((index / "files.json").read_text(encoding="utf-8")) == [
        "pagefind/fragment/nl_1.pf_fragment", "pagefind/pagefind-ui.js", "pagefind/pagefind.js"]
