"""The director's path in a real browser (Debian's Chromium through Playwright), on a phone (375 × 812) and a
desktop (1280 × 900): a rule looked up at the table. The contents and the home page set number and title apart
with 44 px targets; the citation jump reads "Law 53A" and "wet 53"; an article's first law text is on a phone's
first screen, its sections folded and the editor view in the header's menu; a renumbering mark is no part of a
heading nor of a search title and explains itself on a tap; the graph scrolls visibly; axe-core finds nothing.

Built once from sources/ with the search index (conftest.dutch_site); one server on 127.0.0.1 for search."""
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import AXE, SIZES
from pipeline import serve
from pipeline.html_screenshots import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

PHONE, DESKTOP = SIZES["phone"], SIZES["desktop"]


@pytest.fixture(scope="module")
def site(dutch_site: Path) -> Path:
    """build/html from the real sources: pages, search index (conftest.dutch_site)."""
    return dutch_site


@pytest.fixture(scope="module")
def server(site: Path):
    srv = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def article_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for ed in ("2007", "2017") for p in (site / ed).glob("*.html")
                  if p.stem.isdigit())


# -- 1. contents and home: number and title apart, 44 px targets -----------------------------------

# Each contents entry: its text as read (innerText), and the boxes of its number and title.
ENTRIES = """() => [...document.querySelectorAll('a.toc-article')].filter(a => a.getClientRects().length).map(a => {
    const box = el => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    const title = a.querySelector('.toc-title');
    const said = el => el.innerText.replace(/\\s+/g, ' ').trim();
    return {text: said(a), said: [said(a.querySelector('.num')), title.getClientRects().length ? said(title) : ''],
            num: box(a.querySelector('.num')),
            title: title.getClientRects().length ? box(title) : null, height: a.getBoundingClientRect().height};
})"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", ["index.html", "2017/index.html", "2007/index.html"])
def test_contents_entries_set_number_and_title_apart(open_page, site, path, size):
    entries = open_page((site / path).as_uri(), size).evaluate(ENTRIES)
    assert len(entries) >= 3, path
    texts = [e["text"] for e in entries]
    if path == "index.html":  # the edition in force, as the home page lists it
        assert texts == ["Artikel 16", "Artikel 24 Getoonde of voorgespeelde kaart tijdens het bieden",
                         "Artikel 41 Het begin van het spelen", "Artikel 47", "Artikel 50",
                         "Artikel 53 Accepteren van voor de beurt voorspelen", "Artikel 54 alleen toelichting",
                         "Artikel 57 Voortijdig voorspelen of spelen"]
    if path == "2017/index.html":
        assert "Artikel 24 Getoonde of voorgespeelde kaart tijdens het bieden" in texts
        assert "Artikel 54 alleen toelichting" in texts
    for e in entries:
        assert e["height"] >= 44, e
        if not e["said"][1]:
            continue  # no title known (16, 47, 50: the editor view says so)
        assert e["text"] == e["said"][0] + " " + e["said"][1], e  # "Artikel 24 Getoonde …", a space between
        num, title = e["num"], e["title"]
        # Never overlapping: the title starts right of the number, a space apart, on the number's line.
        assert title["left"] >= num["right"] + 3, e
        assert title["top"] < num["bottom"] and num["top"] < title["bottom"], e


TARGETS = """selector => [...document.querySelectorAll(selector)].filter(el => el.getClientRects().length)
    .map(el => { const r = el.getBoundingClientRect(); return [el.textContent.trim().slice(0, 40), r.height]; })"""


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_and_contents_have_44px_targets(open_page, site, size):
    for path in ("index.html", "2017/index.html", "2007/index.html"):
        page = open_page((site / path).as_uri(), size)
        targets = page.evaluate(TARGETS, "main a, footer a")
        assert len(targets) >= 5, path
        assert [t for t in targets if t[1] < 44] == [], path


@pytest.mark.parametrize("size", SIZES)
def test_the_article_pages_controls_are_44px_targets(open_page, site, size):
    page = open_page((site / "2017" / "47.html").as_uri(), size)
    if size == "phone":
        page.click("nav.sections summary")
    page.click("details.menu > summary")
    selectors = ("details.menu > summary, .menu-panel a, #editor-view, nav.sections summary, nav.sections a, "
                 "details.renumbered > summary, ul.pager a, nav.crumbs a, footer a")
    targets = page.evaluate(TARGETS, selectors)
    assert len(targets) >= 12
    assert [t for t in targets if t[1] < 44] == []


# -- 2. the citation jump and the search box's words ------------------------------------------------

@pytest.mark.parametrize("query, target", [
    ("Law 53A", "2017/53.html#53A"), ("wet 53", "2017/53.html"), ("art. 53a", "2017/53.html#53A"),
    ("Artikel 53 A", "2017/53.html#53A"), ("Loi 53A", "2017/53.html#53A"), ("article 53", "2017/53.html"),
    ("LAW 50D2(a)", "2017/50.html#50D2a"), ("wet 2007 41B", None), ("2007 wet 41B", "2007/41.html#41B"),
    ("artikelen 24", "2017/24.html"), ("Law 47E1a", "2017/47.html#47E2a")])
def test_the_citation_jump_reads_every_languages_words_before_the_number(open_page, site, query, target):
    page = open_page((site / "zoeken.html").as_uri() + "?q=" + quote(query))
    if target is None:  # no citation: a word search, which from disk says it needs a server
        page.wait_for_selector("#zoeken-uit:not([hidden])")
        assert page.url.split("/")[-1].startswith("zoeken.html")
        return
    page.wait_for_url("**/" + target)
    assert page.url == (site / target.split("#")[0]).as_uri() + ("#" + target.split("#")[1] if "#" in target else "")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query, target", [("Law 53A", "/2017/53.html#53A"), ("wet 53", "/2017/53.html")])
def test_law_53A_and_wet_53_typed_in_the_header_jump(open_page, server, size, query, target):
    page = open_page(f"{server}/2017/24.html", size)
    box = page.locator("header.site input[type=search]")
    assert box.get_attribute("placeholder") == "Artikel (53A) of woord"
    box.fill(query)
    box.press("Enter")
    page.wait_for_url(f"**{target}")
    assert page.url == f"{server}{target}"
    if "#" in target:
        assert page.locator(f"[id='{target.split('#')[1]}']").evaluate("el => el.matches(':target')")
    else:
        assert page.locator("h1").inner_text().startswith("Artikel 53")


# What part of the placeholder shows: its width in the box's font against the box's inner width.
PLACEHOLDER = """selector => { const box = document.querySelector(selector), style = getComputedStyle(box);
    const c = document.createElement('canvas').getContext('2d'); c.font = style.font;
    return [c.measureText(box.placeholder).width,
            box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)]; }"""


@pytest.mark.parametrize("size", SIZES)
def test_the_search_boxes_show_their_whole_invitation(open_page, site, size):
    for path, selector in (("2017/47.html", "#q"), ("index.html", "#q"), ("zoeken.html", "#zoekterm")):
        page = open_page((site / path).as_uri(), size)
        needed, room = page.evaluate(PLACEHOLDER, selector)
        assert needed <= room, (path, needed, room)


# -- 3. the article page on a phone -------------------------------------------------------------------

# The first paragraph of law text: in the article, not in its head, no editorial remark.
FIRST_TEXT = """() => { const p = [...document.querySelectorAll('article.law p')]
        .find(p => !p.closest('header') && !p.classList.contains('gap') && !p.closest('details') && p.getClientRects().length);
    if (!p) { return null; }
    const r = p.getBoundingClientRect();
    return {top: r.top, firstLine: r.top + parseFloat(getComputedStyle(p).lineHeight), text: p.textContent.slice(0, 30)}; }"""


def test_an_articles_first_law_text_is_on_a_phones_first_screen(open_page, site):
    seen = 0
    for path in article_pages(site):
        page = open_page((site / path).as_uri(), "phone")
        first = page.evaluate(FIRST_TEXT)
        if first is None:
            assert path == "2017/54.html"  # commentary only: no law text
            continue
        seen += 1
        assert first["firstLine"] <= PHONE["height"], (path, first)
        page.context.close()
    assert seen >= 9


@pytest.mark.parametrize("size", SIZES)
def test_the_section_list_folds_on_a_phone_and_stays_open_on_a_desktop(open_page, site, size):
    page = open_page((site / "2017" / "41.html").as_uri(), size)
    details = page.locator("nav.sections details")
    assert details.evaluate("el => el.open") is (size == "desktop")
    if size == "phone":
        assert not page.locator("nav.sections a").first.is_visible()
        page.click("nav.sections summary")
    page.locator("nav.sections a").nth(1).click()
    page.wait_for_url("**#41B")
    assert page.locator("[id='41B']").evaluate("el => el.matches(':target')")


@pytest.mark.parametrize("size", SIZES)
def test_the_editor_view_is_switched_in_the_headers_menu(open_page, site, size):
    page = open_page((site / "2017" / "50.html").as_uri(), size)
    assert not page.locator("#editor-view").is_visible()  # the menu is closed: no line above the law
    page.click("details.menu > summary")
    assert page.locator("#editor-view").is_visible()
    page.click("#editor-view")
    assert page.evaluate("document.documentElement.classList.contains('editor-view')")
    assert page.locator("#editor-view").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert page.evaluate("document.querySelector('details.menu').open") is False
    assert page.evaluate("document.activeElement.matches('details.menu > summary')")
    page.click("details.menu > summary")
    page.mouse.click(5, SIZES[size]["height"] - 5)  # a tap elsewhere closes it
    assert page.evaluate("document.querySelector('details.menu').open") is False
    page.reload()  # remembered
    assert page.evaluate("document.documentElement.classList.contains('editor-view')")


# -- 4. renumbering marks -------------------------------------------------------------------------------

def search_titles(page) -> list[tuple[str, str]]:
    page.wait_for_selector("ol.search-results li", timeout=10000)
    return [tuple(t) for t in page.locator("a.hit").evaluate_all("els => els.map(a => [a.getAttribute('href'), a.textContent])")]


def test_search_titles_hold_no_renumbering_mark(open_page, server):
    page = open_page(f"{server}/zoeken.html?q=terugnemen")
    titles = search_titles(page)
    assert ("2017/47.html#47E2a", "Artikel 47 · 47E2a") in titles
    assert [t for t in titles if "was " in t[1] or "47E1" in t[1]] == []


@pytest.mark.parametrize("size", SIZES)
def test_a_renumbering_mark_is_apart_from_its_heading_and_explained_on_a_tap(open_page, site, size):
    page = open_page((site / "2017" / "47.html").as_uri() + "#47E2", size)
    heading = page.locator("[id='h-47E2a']")
    assert heading.evaluate("el => el.textContent") == "47E2a"
    assert page.get_by_role("heading", name="47E2a", exact=True).count() == 1  # its name: the label alone
    mark = page.locator("[id='corr-47E2a-1']")
    summary = mark.locator("summary")
    assert summary.inner_text().startswith("was 47E1a")
    label = page.locator("[id='47E2a'] > h4 a.cite").evaluate(
        "a => { const r = document.createRange(); r.selectNodeContents(a); const b = a.getBoundingClientRect();"
        " return {right: b.right - parseFloat(getComputedStyle(a).paddingRight)}; }")
    words = summary.evaluate("s => { const r = document.createRange(); r.selectNodeContents(s); return r.getBoundingClientRect().left; }")
    assert words >= label["right"] + 8  # "(a)   was 47E1a", never "(a)was 47E1a"
    why = mark.locator("p")
    assert not why.is_visible()
    summary.click()  # a tap, not a hover
    assert why.is_visible()
    assert why.inner_text().startswith("vernummerd door de regelcommissie naar het origineel; de bronnen nummeren het 47E1a")
    assert why.locator("a").get_attribute("href") == "../redactie.html#corr-2017-47E2a-1"


def test_the_editors_page_link_to_a_mark_opens_it(open_page, site):
    page = open_page((site / "2017" / "47.html").as_uri() + "#corr-47E2a-1")
    assert page.locator("[id='corr-47E2a-1'] p").is_visible()


# -- 5. the graph ----------------------------------------------------------------------------------

GRAPH = """() => { const region = document.querySelector('.graph-scroll'), style = getComputedStyle(region);
    const circle = document.querySelector('svg a.node circle').getBoundingClientRect();
    return {scrolls: region.scrollWidth > region.clientWidth, overflow: style.overflowX,
            shadows: (style.backgroundImage.match(/gradient/g) || []).length,
            hint: !document.getElementById('graph-hint').hidden && document.getElementById('graph-hint').getClientRects().length > 0,
            page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
            circle: Math.min(circle.width, circle.height), focusable: region.tabIndex === 0}; }"""


def test_the_graph_scrolls_visibly_on_a_phone_and_fits_a_desktop(open_page, site):
    phone = open_page((site / "2017" / "verwijzingen.html").as_uri(), "phone").evaluate(GRAPH)
    assert phone["scrolls"] and phone["overflow"] == "auto" and phone["hint"] and phone["focusable"], phone
    assert phone["shadows"] == 4 and phone["circle"] >= 44, phone
    assert phone["page"][0] == phone["page"][1] == PHONE["width"]  # the page itself never scrolls sideways
    desktop = open_page((site / "2017" / "verwijzingen.html").as_uri(), "desktop").evaluate(GRAPH)
    assert not desktop["scrolls"] and not desktop["hint"] and desktop["circle"] >= 44, desktop


# -- axe-core on the pages changed, at both sizes ------------------------------------------------------

def axe_violations(page) -> list[str]:
    """Every violation axe-core finds on the page as it stands, whatever its impact."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))""")


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is missing: run make axe (npm install into .cache/axe)")
@pytest.mark.parametrize("size", SIZES)
def test_no_axe_violations_on_the_directors_pages(open_page, site, size):
    found = {}
    for path in ("index.html", "2017/index.html", "2007/index.html", "2017/41.html", "2017/47.html",
                 "2007/41.html", "2017/verwijzingen.html", "zoeken.html"):
        page = open_page((site / path).as_uri(), size)
        for opened in ("", "details.menu > summary", "nav.sections summary", "details.renumbered > summary"):
            if opened and page.locator(opened).count():
                page.locator(opened).first.click()
            violations = axe_violations(page)
            if violations:
                found[(path, opened)] = violations
        page.context.close()
    assert found == {}


# -- the committee's comparison: changes of content first, on a phone and a desktop ----------------------------

@pytest.mark.parametrize("size", SIZES)
def test_the_comparisons_overview_lists_changed_articles_first(open_page, site, size):
    """The summary table as a reader sees it: the two articles whose content changed (24 and 41) lead, the
    articles one edition's sources lack come last; the rows fit the screen or scroll in their own box."""
    page = open_page((site / "diff" / "2007-2017.html").as_uri(), size)
    rows = page.evaluate("""() => [...document.querySelectorAll('section.summary tbody tr')].map(tr =>
        [tr.className, tr.querySelector('td').innerText.trim()])""")
    statuses = [status for status, _ in rows]
    assert statuses[:2] == ["changed", "changed"] and sorted(n for _, n in rows[:2]) == ["24", "41"]
    assert "not-comparable" not in statuses[:2]
    first_missing = statuses.index("not-comparable")
    assert set(statuses[first_missing:]) == {"not-comparable"}  # the ones that cannot be compared, last
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if AXE.exists():
        assert axe_violations(page) == []
