"""The HTML edition in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium).

One site (built from sources/ with the search index), one server on 127.0.0.1 and one browser
for the whole module. Every request any page makes is recorded; anything that is not
127.0.0.1 or file:// is aborted and fails the test.
"""
import threading
from pathlib import Path
from urllib.parse import urlparse

import lxml.html
import pytest

from pipeline import serve
from pipeline.html_screenshots import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")


@pytest.fixture(scope="module")
def site(dutch_site):
    """build/html from the real sources: pages, search index (conftest.dutch_site)."""
    return dutch_site


@pytest.fixture(scope="module")
def server(site):
    srv = serve.make_server(site, 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def page(browser):
    """A fresh page whose every request must stay on this machine."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    requests, leaving = [], []

    def guard(route):
        url = route.request.url
        requests.append(url)
        if urlparse(url).scheme == "file" or urlparse(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            leaving.append(url)
            route.abort()
    context.route("**/*", guard)
    pg = context.new_page()
    pg.requests = requests
    yield pg
    context.close()
    assert leaving == [], f"requests left the machine: {leaving}"
    assert requests, "the guard saw no request at all"


def test_reference_in_53_lands_on_the_anchor_of_47E1(page, site):
    page.goto((site / "2017" / "53.html").as_uri())
    page.click("section[id='53A'] a.ref[href='../2017/47.html#47E1']")
    page.wait_for_url("**/2017/47.html#47E1")
    target = page.locator("[id='47E1']")
    assert target.evaluate("el => el.matches(':target')")
    top = target.evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < 50  # scrolled to the anchor


def test_missing_reference_is_quiet_for_readers_with_a_legend(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    missing = page.locator("article p span.ref.missing").first
    assert missing.evaluate("el => el.closest('a') === null")
    # Law text's colour, a dotted grey rule, nothing added after it; the legend on the page says what it means.
    style = missing.evaluate("""el => [getComputedStyle(el).color, getComputedStyle(document.body).color,
        getComputedStyle(el).textDecorationStyle, getComputedStyle(el, '::after').content]""")
    assert style == ["rgb(29, 29, 31)", "rgb(29, 29, 31)", "dotted", "none"]
    legend = page.locator("ul.legend li").first
    assert legend.is_visible()
    assert legend.inner_text() == "artikel verwijst naar een artikel dat niet in deze uitgave staat"
    assert page.locator(".ref.dangling").count() == 0
    # The editor's page keeps the red mark.
    page.goto((site / "redactie.html").as_uri())
    red = page.locator("#verwijzingen span.ref.dangling").first
    assert red.evaluate("el => getComputedStyle(el).color") == "rgb(162, 59, 28)"


def test_article_page_starts_with_its_sections_and_keeps_the_section_in_the_other_edition(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    links = page.locator("nav.sections a")
    assert links.evaluate_all("els => els.map(a => a.getAttribute('href'))") == ["#41A", "#41B", "#41C", "#41D"]
    top = page.locator("nav.sections").evaluate("el => el.getBoundingClientRect().top")
    assert top < 740  # on the first screen of a phone
    page.click("nav.sections summary")  # folded on a phone: one tap opens it
    links.nth(1).click()
    page.wait_for_url("**#41B")
    page.click("a.same-place")
    page.wait_for_url("**/2007/41.html#41B")
    assert page.locator("[id='41B']").evaluate("el => el.matches(':target')")


def test_tap_targets_are_at_least_40px(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    page.click("nav.sections summary")  # the section list, folded on a phone
    for selector in ["sup.noteref a", "a.cite", "nav.sections a", "ul.editions a", "ul.pager a", "footer a"]:
        sizes = page.locator(selector).evaluate_all(
            "els => els.map(a => { const r = a.getBoundingClientRect(); return [r.width, r.height]; })")
        assert sizes and all(w >= 40 and h >= 40 for w, h in sizes), (selector, sizes)


def test_note_marker_in_41A_jumps_to_the_note_and_back(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    page.click("section[id='41A'] sup.noteref a")
    page.wait_for_url("**#41A-noot1")
    note = page.locator("[id='41A-noot1']")
    assert note.evaluate("el => el.matches(':target')")
    assert note.inner_text().startswith("41A Het Bondsbestuur mag voorschrijven")
    note.locator("a.backref").click()
    page.wait_for_url("**#ref-41A-noot1")
    assert page.locator("[id='ref-41A-noot1']").evaluate("el => el.closest('section').id") == "41A"


def search_hits(page):
    page.wait_for_selector("ol.search-results li", timeout=10000)
    return page.locator("ol.search-results li").evaluate_all(
        "els => els.map(li => [li.querySelector('.hit-edition').textContent, li.querySelector('a.hit').getAttribute('href'),"
        " li.querySelector('a.hit').textContent, Boolean(li.querySelector('.hit-commentary'))])")


def test_search_hits_name_their_edition_newest_first_with_citation_anchors(page, server):
    page.goto(f"{server}/zoeken.html?q=strafkaart")
    hits = search_hits(page)
    assert hits and all(edition == "Uitgave 2017" for edition, _, _, _ in hits)  # the edition in force by default
    assert any(url.startswith("2017/50.html#50") for _, url, _, _ in hits)
    assert all(not url.startswith("/") and "#h-" not in url for _, url, _, _ in hits)  # relative, citation anchors
    assert all("°" not in title and title.startswith("Artikel 50 · 50") for _, url, title, _ in hits if "50.html#50" in url)
    page.check("input[name=uitgave][value=alle]")
    page.wait_for_function("document.querySelectorAll('ol.search-results .hit-edition').length > 0 && "
                           "[...document.querySelectorAll('.hit-edition')].some(e => e.textContent.endsWith('2007'))")
    hits = search_hits(page)
    editions = [edition for edition, _, _, _ in hits]
    assert editions == sorted(editions, reverse=True) and "Uitgave 2007" in editions  # 2017 first
    assert all(urlparse(u).hostname == "127.0.0.1" for u in page.requests)


def test_search_marks_commentary_as_not_law(page, server):
    page.goto(f"{server}/zoeken.html?q=persoonlijke")
    hits = search_hits(page)
    assert [(url, commentary) for _, url, _, commentary in hits if "54.html" in url] and \
        all(commentary for _, url, _, commentary in hits if "54.html" in url)


@pytest.mark.parametrize("query, target", [("53A", "/2017/53.html#53A"), ("50d2a", "/2017/50.html#50D2a"),
                                           ("2007 41B", "/2007/41.html#41B"), ("art. 16C", "/2017/16.html#16C")])
def test_typing_a_citation_goes_straight_to_it(page, server, query, target):
    page.goto(f"{server}/2017/24.html")
    page.fill("header.site input[type=search]", query)
    page.press("header.site input[type=search]", "Enter")
    page.wait_for_url(f"**{target}")
    assert page.locator(f"[id='{target.split('#')[1]}']").evaluate("el => el.matches(':target')")


def test_citation_jump_works_from_disk_too(page, site):
    page.goto((site / "zoeken.html").as_uri() + "?q=2007%2041B")
    page.wait_for_url("**/2007/41.html#41B")


def page_files(site):
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if "pagefind" not in p.parts)


def test_every_link_and_anchor_of_every_page_resolves(page, server, site):
    """Crawls every page of the site in the browser: each link must reach a file of the site, and its
    #anchor an element on that page."""
    ids = {}
    broken = []
    for path in page_files(site):
        page.goto(f"{server}/{path}")
        links = page.locator("a[href], link[href], script[src]").evaluate_all(
            "els => els.map(e => new URL(e.getAttribute('href') || e.getAttribute('src'), document.baseURI).href)")
        for url in links:
            parts = urlparse(url)
            assert parts.hostname == "127.0.0.1", (path, url)
            target = site / parts.path.lstrip("/")
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append((path, url))
                continue
            if parts.fragment:
                if target not in ids:
                    ids[target] = set(lxml.html.fromstring(target.read_bytes()).xpath("//@id"))
                if parts.fragment not in ids[target]:
                    broken.append((path, url))
    assert len(page_files(site)) == 20  # 17 article pages and contents, graphs, comparison, root pages
    assert broken == []


def test_comparison_fits_a_phone_and_is_part_of_the_site(page, site):
    context = page.context
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto((site / "diff" / "2007-2017.html").as_uri())
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width == [375, 375]
    assert page.locator("header.site form[role=search]").is_visible()
    assert page.locator("#art-53 .badge").first.inner_text() == "niet te vergelijken: ontbreekt in de bronnen van 2007"
    page.click("#art-41 .article-places a >> text=2007")
    page.wait_for_url("**/2007/41.html")


def test_the_site_works_offline_after_one_visit(browser, site):
    """A service worker caches the site: serve it, visit one page, stop the server, reload and open another."""
    srv = serve.make_server(site, 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{srv.server_address[1]}"
    # No request routing here: a routed context bypasses service workers. Requests are still watched.
    context = browser.new_context(viewport={"width": 375, "height": 740})
    seen = []
    context.on("request", lambda request: seen.append(request.url))
    try:
        pg = context.new_page()
        pg.goto(f"{base}/2017/41.html")
        pg.wait_for_function("navigator.serviceWorker.controller !== null || "
                             "navigator.serviceWorker.ready.then(() => true)", timeout=10000)
        pg.evaluate("navigator.serviceWorker.ready")
        pg.reload()  # now controlled by the service worker
        pg.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10000)
        srv.shutdown()
        srv.server_close()
        pg.reload()
        assert pg.locator("h1").inner_text().startswith("Artikel 41")
        pg.goto(f"{base}/2017/53.html#53A")  # never visited: cached on the first visit too
        assert pg.locator("[id='53A']").count() == 1
        pg.goto(f"{base}/zoeken.html?q=50d2a")  # the citation jump needs no server either
        pg.wait_for_url("**/2017/50.html#50D2a")
    finally:
        context.close()
        srv.server_close()
    assert all(urlparse(u).hostname == "127.0.0.1" for u in seen), seen


def test_pages_have_no_horizontal_scroll_at_360px(page, site):
    for path in ["2017/53.html", "2017/50.html", "2017/41.html", "2017/54.html", "2007/24.html",
                 "2017/verwijzingen.html", "redactie.html", "diff/2007-2017.html", "zoeken.html", "index.html"]:
        page.goto((site / path).as_uri())
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width == [360, 360], path


def test_an_article_prints_without_the_sites_navigation(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    page.emulate_media(media="print")
    hidden = page.evaluate("""['header.site', 'nav.sections', 'nav.related', 'footer.site', 'ul.editions']
        .map(s => getComputedStyle(document.querySelector(s)).display)""")
    assert hidden == ["none"] * 5
    assert page.locator("[id='41A']").is_visible() and page.locator("section.notes").is_visible()


def test_a_correction_is_marked_on_screen_and_in_print_and_links_to_the_editors_page(page, site):
    page.goto((site / "2017" / "24.html").as_uri())
    words = page.locator("[id='corr-24E-1']")
    assert words.inner_text() == "artikel 50 en artikel 51"
    mark = page.locator("a.corr-mark[href='../redactie.html#corr-2017-24E-1']")
    style = "el => [getComputedStyle(el).borderBottomStyle, getComputedStyle(el, '::before').content]"
    assert words.evaluate(style)[0] == "dotted" and mark.evaluate(style)[1] == '"*"'
    box = mark.bounding_box()
    assert box["width"] >= 40 and box["height"] >= 40
    page.emulate_media(media="print")
    assert words.evaluate(style)[0] == "dotted" and mark.is_visible() and mark.evaluate(style)[1] == '"*"'
    page.emulate_media(media="screen")
    mark.click()
    page.wait_for_url("**/redactie.html#corr-2017-24E-1")
    entry = page.locator("[id='corr-2017-24E-1']")
    assert entry.evaluate("el => el.matches(':target')")
    entry.locator("a.node-id").click()
    page.wait_for_url("**/2017/24.html#corr-24E-1")
    assert words.evaluate("el => el.matches(':target')")
