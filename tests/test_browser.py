"""The HTML edition in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium).

One site (built from sources/ with the search index), one server on 127.0.0.1 and one browser
for the whole module. Every request any page makes is recorded; anything that is not
127.0.0.1 or file:// is aborted and fails the test.
"""
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

from pipeline.build import run as build
from pipeline import serve
from pipeline.outputs import html, markdown
from pipeline.html_screenshots import CHROMIUM, launch

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """build/html from the real sources: pages, search index."""
    ctx = build.make_corpus("sources")
    ctx.tmp = tmp_path_factory.mktemp("build")
    markdown.write_markdown(ctx)
    html.write_html(ctx)
    html.write_search_index(ctx)
    return ctx.tmp / "html"


@pytest.fixture(scope="module")
def server(site):
    srv = serve.make_server(site, 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


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


def test_dangling_reference_is_marked_and_not_a_link(page, site):
    page.goto((site / "2017" / "41.html").as_uri())
    dangling = page.locator("span.ref.dangling").first
    assert dangling.get_attribute("title") == "niet in dit corpus"
    assert dangling.evaluate("el => el.closest('a') === null")
    # Visibly marked: its own colour and a wavy underline, unlike law text.
    style = dangling.evaluate("el => [getComputedStyle(el).textDecorationStyle, getComputedStyle(el).color]")
    assert style == ["wavy", "rgb(162, 59, 28)"]


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


def test_search_for_strafkaart_lists_article_50(page, server):
    page.goto(f"{server}/zoeken.html?q=strafkaart")
    page.wait_for_selector(".pagefind-ui__result-link", timeout=10000)
    links = page.locator(".pagefind-ui__result-link").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert "/2017/50.html" in links
    assert all(urlparse(u).hostname == "127.0.0.1" for u in page.requests)


def test_article_pages_have_no_horizontal_scroll_at_360px(page, site):
    for path in ["2017/53.html", "2017/50.html", "2017/41.html", "2017/54.html", "2007/24.html",
                 "2017/verwijzingen.html", "redactie.html"]:
        page.goto((site / path).as_uri())
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width == [360, 360], path
