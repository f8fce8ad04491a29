"""The director's path through the site, without a browser: the home page lists the edition in force by number
and title and says what to type, the search box invites a number or a word in the book's words, the citation
jump reads every profile's words before an article's number (as data in the page, not a list in the script),
the article page's sections and menu are <details>, a renumbering mark stands outside its heading, and the
graph scrolls in its own region. The same in a browser: tests/test_browser_director.py."""
import re
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from conftest import ROOT
from pipeline.core import lang
from pipeline.core.report import BuildLog
from pipeline.outputs import html, text
from pipeline.outputs.job import Job
from pipeline.outputs.site import search
from test_html import CORRECTED, SAMPLE

TEMPLATES = ROOT / "templates" / "html"


def write_site(tmp: Path, corpus: str, code: str = "nl") -> Path:
    html.write_html(Job.of_tree(etree.fromstring(corpus), tmp, lang.profile(code), BuildLog()))
    return tmp / "html"


def pages_of(root: Path):
    """page(path) -> the parsed page at `path` of the site in `root`."""
    def page(path: str) -> lxml.html.HtmlElement:
        return lxml.html.fromstring((root / path).read_bytes())
    return page


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return pages_of(write_site(tmp_path_factory.mktemp("sample"), SAMPLE))


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    return pages_of(write_site(tmp_path_factory.mktemp("corrected"), CORRECTED))


def words(el) -> str:
    return " ".join(el.text_content().split())


# -- the citation jump's words ----------------------------------------------------------------------

def test_the_jump_reads_each_languages_words_before_an_articles_number_the_books_first():
    assert search.article_words(lang.profile("nl").rules) == ["artikel", "artikelen", "art", "wet"]
    assert search.article_words(lang.profile("en").rules) == ["law", "laws", "article", "art"]
    assert search.article_words(lang.profile("fr").rules) == ["loi", "lois", "article", "art"]
    dutch = search.jump_words(lang.profile("nl"))
    assert set(dutch) == {"artikel", "artikelen", "art", "wet", "law", "laws", "article", "loi", "lois"}
    # The longest first: "artikelen 53" is not read as "artikel" + "en 53"; each word once, no full stop.
    assert dutch == sorted(dutch, key=lambda w: (-len(w), w)) and len(dutch) == len(set(dutch))
    assert not [w for w in dutch if w.endswith(".")]
    assert set(search.jump_words(lang.profile("fr"))) == set(dutch)


def test_the_search_page_gets_the_words_as_data_and_the_script_lists_none(sample, tmp_path):
    source = (TEMPLATES / "search.html").read_text(encoding="utf-8")
    assert "art(?:ikel)?" not in source and "{{ jump_words|tojson }}" in source
    [script] = [s for s in sample("zoeken.html").xpath("//script[not(@src)]") if "articleWords" in s.text]
    [data] = re.findall(r"var articleWords = (\[.*?\]);", script.text)
    assert data == '["artikelen", "article", "artikel", "laws", "lois", "art", "law", "loi", "wet"]'


@pytest.mark.parametrize("code, said", [("nl", "Artikel (53A) of woord"), ("en", "Law (53A) or word"),
                                        ("fr", "Loi (53A) ou mot")])
def test_the_search_box_invites_a_number_or_a_word_in_the_books_words(tmp_path, code, said):
    root = write_site(tmp_path, SAMPLE, code)
    article = lxml.html.fromstring((root / "2017" / "41.html").read_bytes())
    assert article.xpath("//header[@class='site']//input[@type='search']/@placeholder") == [said]
    doc = lxml.html.fromstring((root / text.file_names(lang.profile(code)).search).read_bytes())
    assert doc.xpath("//input[@type='search']/@placeholder") == [said]


# -- home page and contents ---------------------------------------------------------------------

def test_the_home_page_lists_the_edition_in_force_by_number_and_title_and_says_what_to_type(sample):
    doc = sample("index.html")
    [lead] = doc.xpath("//p[@class='lead']")
    assert ".html" not in words(lead) and "2017/50" not in words(lead)
    assert lead.xpath("kbd/text()") == ["53A", "50D2(a)"]
    assert "Typ het nummer" in words(lead)
    [current, older] = doc.xpath("//ul[@class='edition-list']/li")
    entries = current.xpath(".//ol[contains(@class, 'toc')]/li/a[@class='toc-article']")
    assert [(a.get("href"), words(a)) for a in entries] == [
        ("2017/41.html", "Artikel 41 Het begin van het spelen"),
        ("2017/47.html", "Artikel 47 titel ontbreekt"),  # the missing title is the editor view's (apparatus)
        ("2017/53.html", "Artikel 53 Accepteren van voor de beurt voorspelen"),
        ("2017/54.html", "Artikel 54 alleen toelichting")]
    # Number and title are two elements with a space between them, never glued.
    for a in entries:
        num, title = a.xpath("span[@class='num']")[0], a.xpath("span[@class='toc-title']")[0]
        assert num.tail == " " and num.getnext() is title
    # An earlier edition: its count and its contents, one tap; no bare numbers.
    assert not older.xpath(".//ol")
    assert [(a.get("href"), words(a)) for a in older.xpath(".//p[@class='more']/a")] == [
        ("2007/index.html", "Inhoud van uitgave 2007"), ("2007/verwijzingen.html", "Verwijzingen tussen de artikelen (grafiek)"),
        ("../pdf/spelregels-2007.pdf", "Het boek als pdf")]


def test_a_contents_entry_has_its_number_and_title_apart(sample):
    entries = sample("2017/index.html").xpath("//ol[@class='toc']//a[@class='toc-article']")
    assert words(entries[0]) == "Artikel 41 Het begin van het spelen"
    assert all(a[0].get("class") == "num" and a[0].tail == " " and a[1].get("class") == "toc-title" for a in entries)


# -- the article page --------------------------------------------------------------------------

def test_the_article_pages_sections_fold_and_its_menu_holds_the_editor_view(sample):
    doc = sample("2017/41.html")
    [menu] = doc.xpath("//header[@class='site']/details[@class='menu']")
    assert menu.get("open") is None
    assert words(menu.xpath("summary")[0]) == "Menu"
    assert menu.xpath(".//a/@href") == ["index.html", "verwijzingen.html"]
    assert menu.xpath(".//p[@class='editor-toggle']/button/@id") == ["editor-view"]
    assert not doc.xpath("//main//*[@id='editor-view']")  # no line of the article's head
    [sections] = doc.xpath("//nav[@class='sections']/details")
    assert sections.get("open") is None and words(sections.xpath("summary")[0]) == "Onderdelen (1)"
    assert sections.xpath(".//a/@href") == ["#41A"]
    # Open where the screen is wide: site.js opens it (no script of its own on an article page).
    assert not doc.xpath("//script[not(@src)]")
    assert 'getElementById("sections-list")' in (TEMPLATES / "site.js").read_text(encoding="utf-8")


def test_a_renumbering_mark_stands_after_its_heading_and_explains_itself_on_a_tap(corrected):
    doc = corrected("2017/47.html")
    [h4] = doc.xpath("//section[@id='47E2a']/h4")
    assert words(h4) == "47E2a" and h4.get("class") == "hang"  # the heading is named by its label alone
    assert [(el.tag, el.get("class")) for el in h4] == [("a", "cite hang")]
    mark = h4.getnext()
    assert (mark.tag, mark.get("class"), mark.get("id"), mark.get("data-pagefind-ignore")) == (
        "details", "renumbered", "corr-47E2a-1", "")
    assert words(mark.xpath("summary")[0]) == "was 47E1a"
    [why] = mark.xpath("p")
    assert words(why) == ("vernummerd door de regelcommissie naar het origineel; de bronnen nummeren het 47E1a; "
                          "grond: WBF Laws 2017, Law 47E2(a). De vermelding op de redactiepagina")
    assert why.xpath("a/@href") == ["../redactie.html#corr-2017-47E2a-1"]
    assert not doc.xpath("//h1//*[contains(@class, 'renumbered')]|//h2//*[contains(@class, 'renumbered')]"
                         "|//h3//*[contains(@class, 'renumbered')]|//h4//*[contains(@class, 'renumbered')]")


# -- the graph page ---------------------------------------------------------------------------

def test_the_graph_scrolls_in_its_own_region_and_says_so(sample):
    doc = sample("2017/verwijzingen.html")
    [region] = doc.xpath("//figure[@class='graph']/div[@class='graph-scroll']")
    assert (region.get("role"), region.get("tabindex"), region.get("aria-describedby")) == ("region", "0", "graph-hint")
    assert region.get("aria-label") == "Verwijzingen tussen de artikelen van uitgave 2017"
    [hint] = doc.xpath("//p[@id='graph-hint']")
    assert hint.get("hidden") is not None  # site.js shows it while the picture is wider than its region
    assert words(hint) == "De figuur is breder dan het scherm: veeg haar opzij om alles te zien."
    assert region.xpath("*[local-name()='svg']")
