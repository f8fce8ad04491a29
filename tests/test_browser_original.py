"""The original beside the translation in a real browser (Debian's Chromium through Playwright): the
toggle "Origineel ernaast" puts each node's original beside its text at 1280 px and below it on a phone,
remembers the reader's choice, and the page passes axe-core with it on.

On test_original's made-up English corpus.json, and once on the real English book (../shared/english,
not part of the project: skipped when absent) against the Dutch sources."""
import json
from pathlib import Path

import pytest

from conftest import AXE, english_book_sources, serious_axe_violations
from pipeline import serve
from pipeline.corpus import align
from pipeline.html_screenshots import CHROMIUM
from pipeline.outputs import html, serialise
from pipeline.outputs.job import Job
from pipeline.publish import run as build
from pipeline.publish.reference import read_corpus
from test_browser_reader import PHONE, Server
from test_original import made_up_original, write_site

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

WIDE = {"width": 1280, "height": 900}

# The boxes of a node's own text and of its original, once paired: [here, original] as {left, right, top, bottom}.
PAIR = """id => {
    const pair = document.getElementById(id).querySelector(':scope > .original-pair');
    return [pair.querySelector('.original-here'), pair.querySelector(':scope > .original')].map(el => {
        const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    });
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    original = tmp_path_factory.mktemp("en-build")
    (original / "corpus.json").write_text(json.dumps(made_up_original()), encoding="utf-8")
    srv = Server(write_site(tmp_path_factory.mktemp("site"), original))
    yield srv.url
    srv.close()


def opened(browser, url: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    pg = context.new_page()
    pg.goto(url)
    return context, pg


def visible_originals(pg) -> list[str]:
    return pg.evaluate("() => [...document.querySelectorAll('.original')].filter(el => el.offsetParent !== null)"
                       ".map(el => el.getAttribute('data-node') || el.getAttribute('data-place'))")


def shown_lines(pg, node: str) -> list[str]:
    """The lines of a node's original block as the reader sees them (no blank lines between paragraphs)."""
    return [line for line in pg.locator(f"[data-node='{node}']").inner_text().splitlines() if line.strip()]


def test_the_toggle_puts_the_original_beside_at_1280_px(browser, server):
    context, pg = opened(browser, f"{server}/2017/41.html", WIDE)
    button = pg.locator("button.original-switch")
    assert button.is_visible() and button.get_attribute("aria-pressed") == "false"
    assert visible_originals(pg) == []  # off by default
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert visible_originals(pg) == ["41", "41A", "41B"]
    here, there = pg.evaluate(PAIR, "41A")
    assert there["left"] >= here["right"] and abs(there["top"] - here["top"]) < 30  # side by side
    assert shown_lines(pg, "41A")[:2] == ["41A komt overeen met het origineel",
                                                                         "Lead Face Down"]
    # 41B, which only the original has, follows the article's own sections, in the right-hand column.
    missing = pg.evaluate("() => { const b = document.querySelector('[data-node=\"41B\"]');"
                          " return [b.parentNode.id, b.previousElementSibling.id, b.getBoundingClientRect().left]; }")
    assert missing[:2] == ["41", "41A"] and missing[2] >= here["right"]
    context.close()


def test_the_toggle_puts_the_original_below_on_a_phone_and_remembers(browser, server):
    context, pg = opened(browser, f"{server}/2017/41.html", PHONE)
    pg.locator("button.original-switch").click()
    here, there = pg.evaluate(PAIR, "41A")
    assert there["top"] >= here["bottom"] and abs(there["left"] - here["left"]) < 1  # one below the other
    assert pg.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [375, 375]
    # Remembered: another page of the site opens with the original on; turned off, it stays off.
    pg.goto(f"{server}/2017/47.html")
    assert pg.locator("button.original-switch").get_attribute("aria-pressed") == "true"
    # In the book's order: 47B, which only the original has, before 47E; 47E2 after 47E1.
    assert visible_originals(pg) == ["47", "47B", "47E", "47E1", "47E1a", "47E2"]
    pg.locator("button.original-switch").click()
    pg.reload()
    assert pg.locator("button.original-switch").get_attribute("aria-pressed") == "false"
    assert visible_originals(pg) == []
    context.close()


def test_an_edition_the_original_lacks_shows_no_toggle(browser, server):
    context, pg = opened(browser, f"{server}/2007/41.html", WIDE)
    assert pg.locator("button.original-switch").count() == 0
    context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is missing: run make axe (npm install into .cache/axe)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_axe_violations_with_the_original_on(browser, server, scheme):
    found = {}
    for viewport in (WIDE, PHONE):
        context, pg = opened(browser, f"{server}/2017/41.html", viewport)
        pg.emulate_media(color_scheme=scheme)
        for path in ("2017/41.html", "2017/47.html", "2017/53.html"):
            pg.goto(f"{server}/{path}")
            if pg.locator("button.original-switch").get_attribute("aria-pressed") == "false":
                pg.locator("button.original-switch").click()
            violations = serious_axe_violations(pg)
            if violations:
                found[(viewport["width"], path)] = violations
        context.close()
    assert found == {}


# -- the real English book beside the Dutch sources

@pytest.fixture(scope="module")
def english_beside(tmp_path_factory):
    """The Dutch site built with the English book's build as its reference."""
    sources = english_book_sources(tmp_path_factory.mktemp("en-sources"))
    english = tmp_path_factory.mktemp("en-build")
    english_corpus = Job.of(build.make_corpus(str(sources)), english).corpus
    (english / "corpus.json").write_text(json.dumps(serialise.to_json(english_corpus)), encoding="utf-8")
    job = Job.of(build.make_corpus("sources"), tmp_path_factory.mktemp("nl-build"))
    job.made.alignment = align.align(serialise.to_json(job.corpus), read_corpus(english))
    html.write_html(job)
    srv = Server(job.tmp / "html")
    yield srv.url
    srv.close()


def test_the_english_book_beside_article_41(browser, english_beside):
    for viewport in (WIDE, PHONE):
        context, pg = opened(browser, f"{english_beside}/2017/41.html", viewport)
        pg.locator("button.original-switch").click()
        assert visible_originals(pg) == ["41", "41A", "41B", "41C", "41D"]
        block = "\n".join(shown_lines(pg, "41A"))
        assert block.startswith("41A komt overeen met het origineel\nFace-down Opening Lead\n")
        assert "makes the opening lead face down9." in block  # the book's note 9, at its marker
        here, there = pg.evaluate(PAIR, "41A")
        if viewport is WIDE:
            assert there["left"] >= here["right"]
        else:
            assert there["top"] >= here["bottom"]
        if AXE.exists():
            assert serious_axe_violations(pg) == []
        context.close()
