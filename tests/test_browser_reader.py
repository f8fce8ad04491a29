"""The reader's site in a real browser (Debian's Chromium through Playwright): offline search, the
edition in force, search a director can trust, the note marker's line, dark mode, keys and links,
and axe-core's accessibility rules on every page.

Built once from sources/ with the search index; one server on 127.0.0.1 for the module. axe-core
comes from the npm package `make axe` installs into .cache/axe (never from a CDN)."""
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import AXE, english_book_sources, serious_axe_violations, stay_on_this_machine
from pipeline.outputs.job import Job
from pipeline import serve
from pipeline.html_screenshots import CHROMIUM
from pipeline.outputs import html, markdown
from pipeline.publish import run as build

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

PHONE = {"width": 375, "height": 740}


@pytest.fixture(scope="module")
def site(dutch_site):
    """build/html from the real sources: pages, search index (conftest.dutch_site)."""
    return dutch_site


class Server:
    """The site on 127.0.0.1 in a thread; `delay` seconds before every answer, to play slow Wi-Fi."""

    def __init__(self, site: Path) -> None:
        self.srv = serve.make_server(site, 0, quiet=True)
        self.delay = 0.0
        handler = self.srv.RequestHandlerClass

        def slow(*args, **kwargs):
            if self.delay:
                time.sleep(self.delay)
            return handler(*args, **kwargs)
        self.srv.RequestHandlerClass = slow
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.srv.server_address[1]}"

    def close(self) -> None:
        self.srv.shutdown()
        self.srv.server_close()


@pytest.fixture(scope="module")
def server(site):
    srv = Server(site)
    yield srv.url
    srv.close()


@pytest.fixture
def page(browser):
    """A fresh phone-sized page whose every request must stay on this machine."""
    context = browser.new_context(viewport=PHONE)
    leaving = stay_on_this_machine(context)
    pg = context.new_page()
    yield pg
    context.close()
    assert leaving == [], f"requests left the machine: {leaving}"


def article_files(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.glob("*/*.html")
                  if p.parent.name.isdigit() and p.stem.isdigit())


# Each note marker followed by punctuation: whether that character is set on the marker's line, to its right.
MARKER_LINES = """() => [...document.querySelectorAll('sup.noteref')].map(sup => {
    const next = sup.nextSibling;
    if (!next || next.nodeType !== 3 || !/^[.,;:!?)\\]]/.test(next.data)) return null;
    const mark = document.createRange(); mark.selectNodeContents(sup.querySelector('a'));
    const stop = document.createRange(); stop.setStart(next, 0); stop.setEnd(next, 1);
    const m = [...mark.getClientRects()].pop(), s = stop.getClientRects()[0];
    return {id: sup.querySelector('a').id, sameLine: s.left >= m.right - 1 && Math.abs(s.bottom - m.bottom) < 20};
}).filter(Boolean)"""


def search_hits(page) -> list[dict]:
    page.wait_for_selector("ol.search-results li", timeout=10000)
    return page.locator("ol.search-results li").evaluate_all(
        "els => els.map(li => ({edition: li.querySelector('.hit-edition').textContent,"
        " url: li.querySelector('a.hit').getAttribute('href'), title: li.querySelector('a.hit').textContent,"
        " excerpt: li.querySelector('.excerpt').textContent}))")


# -- 1. offline means offline

def controlled_context(browser, base: str):
    """A context (not routed: routing bypasses service workers) whose page has visited one article and is
    controlled by the service worker, which has cached the site and its search index by then."""
    context = browser.new_context(viewport=PHONE)
    pg = context.new_page()
    pg.goto(f"{base}/2017/41.html")
    pg.evaluate("navigator.serviceWorker.ready.then(() => true)")
    pg.reload()
    pg.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10000)
    return context, pg


def test_search_works_offline_after_one_visit(browser, site):
    srv = Server(site)
    seen = []
    context, pg = controlled_context(browser, srv.url)
    context.on("request", lambda request: seen.append(request.url))
    try:
        context.set_offline(True)
        srv.close()
        pg.goto(f"{srv.url}/zoeken.html?q=strafkaart")  # never visited, never searched
        hits = search_hits(pg)
        assert any(h["url"].startswith("2017/50.html#50D") for h in hits)
        assert pg.locator("#zoeken-kapot").is_hidden() and pg.locator("#zoeken-uit").is_hidden()
        pg.fill("#zoekterm", "47E1a")  # the citation jump, a renamed ID, offline too
        pg.press("#zoekterm", "Enter")
        pg.wait_for_url("**/2017/47.html#47E2a")
    finally:
        context.close()
    assert all(urlparse(u).hostname == "127.0.0.1" for u in seen), seen


def test_a_slow_network_does_not_stall_a_cached_page(browser, site):
    srv = Server(site)
    context, pg = controlled_context(browser, srv.url)
    try:
        srv.delay = 5.0
        start = time.monotonic()
        pg.goto(f"{srv.url}/2017/53.html", timeout=20000)
        took = time.monotonic() - start
        assert pg.locator("h1").inner_text().startswith("Artikel 53")
        assert took < 3.5, took  # the cache answers after about a second, not the server after five
    finally:
        srv.delay = 0.0
        context.close()
        srv.close()


# -- 2. the edition in force

def test_a_page_of_an_earlier_edition_names_the_edition_in_force_and_links_to_the_same_place(page, site):
    page.goto((site / "2007" / "41.html").as_uri() + "#41B")
    banner = page.locator("p.superseded")
    assert banner.is_visible()
    assert banner.locator("strong").inner_text() == "Uitgave 2007 is niet de geldende uitgave."
    link = banner.locator("a")
    assert link.inner_text() == "Dit artikel in de geldende uitgave (2017)"
    assert link.get_attribute("href") == "../2017/41.html#41B"  # the section in view goes along
    assert banner.evaluate("el => el.getBoundingClientRect().top") < 300  # on the first screen
    link.click()
    page.wait_for_url("**/2017/41.html#41B")
    assert page.locator("p.superseded").count() == 0  # the edition in force has no banner
    page.goto((site / "2007" / "index.html").as_uri())
    assert page.locator("p.superseded a").get_attribute("href") == "../2017/index.html"


def test_a_citation_jump_into_an_earlier_edition_lands_under_the_banner(page, server):
    # 25A is only in 2007: asked with the edition in force chosen, the page it lands on says so.
    page.goto(f"{server}/zoeken.html?q=25A&uitgave=2017")
    page.wait_for_url("**/2007/25.html#25A")
    banner = page.locator("p.superseded")
    assert banner.is_visible() and "niet de geldende uitgave" in banner.inner_text()
    assert banner.locator("a").get_attribute("href") == "../2017/index.html"  # 2017 has no article 25


# -- 5. search a director can trust

def test_search_excerpts_are_the_texts_words_one_hit_per_node_titled_alike(page, server):
    page.goto(f"{server}/zoeken.html?q=strafkaart")
    hits = search_hits(page)
    urls = [h["url"] for h in hits]
    assert len(urls) == len(set(urls))  # one hit per node
    assert "2017/50.html#50D2b" in urls
    for h in hits:
        assert "↩" not in h["excerpt"], h
        assert "nummering afgeleid" not in h["excerpt"], h
        assert not h["excerpt"].lstrip().startswith(("1.", "2.", "3.")), h  # a note marker's number
        assert "Noten" not in h["title"] and "nummering afgeleid" not in h["title"], h
        anchor = h["url"].partition("#")[2]
        article = h["url"].split("/")[1].split(".")[0]
        if "toelichting" in anchor:  # commentary: the article, then whose commentary it is
            assert h["title"].startswith(f"Artikel {article} · Toelichting — "), h
        elif anchor:  # "Artikel 50 · 50D2(b) …": the article, then the node's citation as the law writes it
            prefix = f"Artikel {article} · "
            label = h["title"].removeprefix(prefix).split(" ")[0]
            assert h["title"].startswith(prefix) and label.replace("(", "").replace(")", "") == anchor, h
            assert not h["excerpt"].startswith(label), h  # the title gives it
        else:
            assert h["title"].startswith("Artikel "), h


def test_a_misspelt_word_gets_a_suggestion(page, server):
    page.goto(f"{server}/zoeken.html?q=strafkart")
    suggestion = page.locator("#zoeksuggestie a")
    suggestion.wait_for(timeout=10000)
    assert page.locator("#zoekstatus").inner_text() == "Geen resultaten."
    assert page.locator("#zoeksuggestie").inner_text() == "Bedoelde u: strafkaart"
    suggestion.click()
    assert any("50.html" in h["url"] for h in search_hits(page))


def test_an_article_the_edition_lacks_is_said_so(page, server):
    page.goto(f"{server}/zoeken.html?q=99")
    page.wait_for_function("document.getElementById('zoekstatus').textContent !== ''")
    assert page.locator("#zoekstatus").inner_text() == "Artikel 99 staat niet in deze uitgave."
    page.goto(f"{server}/zoeken.html?q=2007%2053A")
    page.wait_for_function("document.getElementById('zoekstatus').textContent !== ''")
    assert page.locator("#zoekstatus").inner_text() == \
        "Artikel 53A staat niet in deze uitgave; het staat in uitgave 2017."
    assert page.locator("a.hit").get_attribute("href") == "2017/53.html#53A"


def test_a_renumbered_id_goes_to_its_new_place(page, server):
    page.goto(f"{server}/2017/24.html")
    page.fill("header.site input[type=search]", "47E1a")
    page.press("header.site input[type=search]", "Enter")
    page.wait_for_url("**/2017/47.html#47E2a")
    assert page.locator("[id='47E2a']").evaluate("el => el.matches(':target')")


def test_the_search_page_has_one_search_box(page, site):
    page.goto((site / "zoeken.html").as_uri())
    assert page.locator("input[type=search]").count() == 1
    assert page.locator("[role=search], search").count() == 1


# -- 4. the note marker's line, dark mode

def test_no_line_starts_with_the_punctuation_after_a_note_marker(page, site):
    """Every article page at 375 px: the character after each marker, when it is punctuation, is set on
    the marker's line, to its right."""
    checked = 0
    for path in article_files(site):
        page.goto((site / path).as_uri())
        found = page.evaluate(MARKER_LINES)
        assert all(f["sameLine"] for f in found), (path, [f for f in found if not f["sameLine"]])
        checked += len(found)
    assert checked >= 3  # 50D2b's note before ". Als de leider…", and more


def test_note_markers_stay_40px_tap_targets(page, site):
    page.goto((site / "2017" / "50.html").as_uri())
    sizes = page.locator("sup.noteref a").evaluate_all(
        "els => els.map(a => { const r = a.getBoundingClientRect(); return [r.width, r.height]; })")
    assert sizes and all(w >= 40 and h >= 40 for w, h in sizes), sizes


def test_dark_mode_follows_the_system(page, site):
    page.emulate_media(color_scheme="dark")
    page.goto((site / "2017" / "41.html").as_uri())
    colours = page.evaluate("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
    assert colours == ["rgb(22, 23, 26)", "rgb(230, 230, 233)"]
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"


# -- 9. previous/next, keys, copy link

def test_previous_and_next_at_the_top_of_an_article(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    top = page.locator("nav.pager-top")
    assert top.locator("a[rel=prev]").inner_text() == "← Artikel 24"
    assert top.locator("a[rel=next]").inner_text() == "Artikel 47 →"
    assert top.evaluate("el => el.getBoundingClientRect().bottom") < 300


def test_keys_slash_searches_arrows_turn_the_page_but_not_while_typing(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.press("ArrowRight")  # typing in the box: the page stays
    page.keyboard.type("50")
    assert page.url.endswith("/2017/41.html") and page.input_value("#q") == "50"
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/2017/47.html")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/2017/41.html")
    page.goto((site / "zoeken.html").as_uri())
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "zoekterm"


def test_each_section_has_a_button_that_copies_its_link(browser, server):
    context = browser.new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    try:
        pg = context.new_page()
        pg.goto(f"{server}/2017/41.html")
        buttons = pg.locator("button.copy-link")
        assert buttons.evaluate_all("els => els.map(b => b.dataset.anchor)")[:2] == ["41A", "41B"]
        button = pg.locator("[id='41B'] > h2 button.copy-link")
        assert button.get_attribute("aria-label") == "Kopieer de link naar 41B"
        box = button.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40
        button.click()
        assert pg.evaluate("navigator.clipboard.readText()") == f"{server}/2017/41.html#41B"
        assert button.get_attribute("aria-label") == "Link gekopieerd"
    finally:
        context.close()


# -- 10. accessibility

def test_contents_pages_have_a_heading_per_article(page, site):
    for edition in ("2017", "2007"):
        page.goto((site / edition / "index.html").as_uri())
        headings = page.locator("ol.toc h2").evaluate_all("els => els.map(h => h.textContent.trim())")
        assert len(headings) == len(list((site / edition).glob("[0-9]*.html")))
        assert all(h.startswith("Artikel ") for h in headings)


def test_the_graphs_articles_are_44px_targets_on_a_phone(page, site):
    for edition in ("2017", "2007"):
        page.goto((site / edition / "verwijzingen.html").as_uri())
        sizes = page.locator("a.node circle").evaluate_all(
            "els => els.map(c => { const r = c.getBoundingClientRect(); return [r.width, r.height]; })")
        assert sizes and all(w >= 43.5 and h >= 43.5 for w, h in sizes), (edition, sizes)
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width == [375, 375]  # the figure scrolls sideways, not the page


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is missing: run make axe (npm install into .cache/axe)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_axe_violations_on_any_page(page, site, scheme):
    page.emulate_media(color_scheme=scheme)
    found = {}
    paths = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if "pagefind" not in p.parts)
    for path in paths:
        page.goto((site / path).as_uri())
        violations = serious_axe_violations(page)
        if violations:
            found[path] = violations
    assert len(paths) == 20
    assert found == {}


# -- the whole English book (../shared/english, not part of the project: skipped when absent)



@pytest.fixture(scope="module")
def english_site(tmp_path_factory):
    sources = english_book_sources(tmp_path_factory.mktemp("en-sources"))
    ctx = Job.of(build.make_corpus(str(sources)), tmp_path_factory.mktemp("en-build"))
    markdown.write_markdown(ctx)
    html.write_html(ctx)
    return ctx.tmp / "html"



@pytest.mark.skipif(not AXE.exists(), reason="axe-core is missing: run make axe (npm install into .cache/axe)")
def test_every_page_of_the_english_book_passes_axe_and_keeps_punctuation_with_its_marker(page, english_site):
    found, lines, markers = {}, [], 0
    paths = sorted(p.relative_to(english_site).as_posix() for p in english_site.rglob("*.html"))
    for path in paths:
        page.goto((english_site / path).as_uri())
        violations = serious_axe_violations(page)
        if violations:
            found[path] = violations
        marks = page.evaluate(MARKER_LINES)
        markers += len(marks)
        lines += [(path, m["id"]) for m in marks if not m["sameLine"]]
    assert len(paths) > 95 and markers >= 5
    assert found == {} and lines == []
