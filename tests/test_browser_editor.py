"""The editor's page on a phone (375 × 812), in Debian's Chromium through Playwright: its sections fold
(<details>, closed until opened), the page's first heading is on the first screen with every section's
heading under it, a link to an entry opens the section it is in, and axe-core finds no violation at all,
folded or open, in either colour scheme. The site is the five Dutch sources' (conftest.dutch_site)."""
from pathlib import Path

import pytest

from pipeline.html_screenshots import CHROMIUM

from conftest import AXE, stay_on_this_machine

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

PHONE = {"width": 375, "height": 812}
SECTIONS = ["repair", "inference", "variant", "gap", "correcties", "verwijzingen", "overig", "bronnen"]


@pytest.fixture
def page(browser):
    """A page at phone size whose every request stays on this machine (file:// here)."""
    context = browser.new_context(viewport=PHONE)
    leaving = stay_on_this_machine(context)
    yield context.new_page()
    context.close()
    assert leaving == [], f"requests left the machine: {leaving}"


def all_axe_violations(page) -> list[str]:
    """Every axe-core violation on the page as it stands, whatever its impact: its rule and elements."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))""")


def test_the_sections_are_folded_and_the_first_heading_is_on_the_first_screen(page, dutch_site):
    page.goto((dutch_site / "redactie.html").as_uri())
    sections = page.locator("main details.report")
    assert sections.evaluate_all("els => els.map(d => [d.id, d.open])") == [[s, False] for s in SECTIONS]
    heading = page.locator("main h1")
    assert heading.is_visible()
    box = heading.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    # Each section's heading is its summary: a line to tap, 44 px at least; what it holds is hidden.
    summaries = page.locator("main details.report > summary")
    assert summaries.count() == len(SECTIONS)
    for k in range(len(SECTIONS)):
        assert summaries.nth(k).is_visible()
        assert summaries.nth(k).bounding_box()["height"] >= 44
    assert not page.locator("#repair ol.entries li").first.is_visible()
    assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [375, 375]
    # A tap opens a section; its sources by origin, the entries visible, and nothing scrolls sideways.
    summaries.first.click()
    assert page.locator("#repair").evaluate("d => d.open")
    assert page.locator("#repair h3.source").first.inner_text().startswith("Wiki page export 'ARTIKEL 54'")
    assert page.locator("#repair ol.entries li").first.is_visible()
    assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [375, 375]


def test_a_link_to_an_entry_opens_its_section(page, dutch_site):
    page.goto((dutch_site / "redactie.html").as_uri() + "#corr-2017-24E-1")
    entry = page.locator("[id='corr-2017-24E-1']")
    entry.wait_for(state="visible", timeout=5_000)
    assert page.locator("#correcties").evaluate("d => d.open")
    assert entry.evaluate("el => el.matches(':target')")


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is missing: run make axe (npm install into .cache/axe)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_the_editors_page_folded_or_open(page, dutch_site, scheme):
    page.emulate_media(color_scheme=scheme)
    page.goto((dutch_site / "redactie.html").as_uri())
    assert all_axe_violations(page) == []
    page.evaluate("document.querySelectorAll('details.report').forEach(d => { d.open = true; })")
    assert all_axe_violations(page) == []
