"""Readers see law, editors see apparatus, in a real browser (Debian's Chromium through Playwright).

- Sub-levels hang their "1." and "(a)" in the margin of their text, on the line of its first words, and the
  text wraps under the text: at 375 and at 1280 px.
- Inferred numbering, a missing title and their legend are neither seen nor announced by readers; the editor
  view (a switch on the article page, remembered in localStorage, off by default) shows them.
- A correction mark stands tight against the corrected words and the punctuation after them.
- One type family per role: a link is set in the family of the text around it; a wrapped contents title is
  not double-spaced.

Built once from sources/ (the Dutch book, in which 50D1 and 50D1a are inferred); the English book from
../shared/english where it is present (it is not part of the project). axe-core from .cache/axe (make axe)."""
from pathlib import Path

import pytest

from conftest import AXE, english_book_sources, serious_axe_violations
from pipeline.html_screenshots import CHROMIUM
from pipeline.outputs import html
from pipeline.outputs.job import Job
from pipeline.publish import run as build

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

WIDTHS = (375, 1280)
INFERRED = "nummering afgeleid"  # the Dutch profile's words for the mark


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    job = Job.of(build.make_corpus("sources"), tmp_path_factory.mktemp("build"))
    html.write_html(job)
    return job.tmp / "html"


@pytest.fixture(scope="module")
def english_site(tmp_path_factory) -> Path:
    sources = english_book_sources(tmp_path_factory.mktemp("en-sources"))
    job = Job.of(build.make_corpus(str(sources)), tmp_path_factory.mktemp("en-build"))
    html.write_html(job)
    return job.tmp / "html"


# The boxes of a hanging label and of its text: the label's box (its number, drawn by the style sheet), the
# line boxes of the first paragraph below it (its own, or its first sub-level's) and that paragraph's start.
HANGING = """id => {
    const section = document.getElementById(id);
    const cite = section.querySelector(':scope > .hang > a.cite'), style = getComputedStyle(cite);
    const target = cite.getBoundingClientRect();  // the box with its padding: the target a finger hits
    const label = {top: target.top, bottom: target.bottom, left: target.left + parseFloat(style.paddingLeft),
                   right: target.right - parseFloat(style.paddingRight)};
    const p = section.querySelector('p');
    const words = document.createRange(); words.selectNodeContents(p);
    // the range's boxes are one per text run and link; a line is the boxes of one top, its left their least
    const byTop = new Map();
    for (const r of [...words.getClientRects()].filter(r => r.width > 0)) {
        const top = Math.round(r.top), line = byTop.get(top);
        byTop.set(top, line ? {top: r.top, bottom: Math.max(line.bottom, r.bottom), left: Math.min(line.left, r.left)} : r);
    }
    const lines = [...byTop.values()].sort((x, y) => x.top - y.top);
    return {target: [target.width, target.height], labelMiddle: (label.top + label.bottom) / 2, labelLeft: label.left, labelRight: label.right,
            firstTop: lines[0].top, firstBottom: lines[0].bottom,
            firstLeft: lines[0].left, lefts: lines.map(r => Math.round(r.left)), count: lines.length,
            parentLeft: section.getBoundingClientRect().left,
            rules: [section, ...section.querySelectorAll('section')].map(s => getComputedStyle(s).borderLeftStyle)};
}"""


def hanging(page, node: str) -> dict:
    return page.evaluate(HANGING, node)


@pytest.mark.parametrize("width", WIDTHS)
def test_50D1_and_50D1a_hang_their_numbers_on_the_line_of_their_first_words(open_page, site, width):
    page = open_page((site / "2017" / "50.html").as_uri(), width)
    one, a = hanging(page, "50D1"), hanging(page, "50D1a")
    for box in (one, a):
        # the label's middle lies within the first line of the text: the same line
        assert box["firstTop"] <= box["labelMiddle"] <= box["firstBottom"], (width, box)
        assert box["labelRight"] <= box["firstLeft"]  # in the margin, left of the text
        assert box["count"] >= 2 and len(set(box["lefts"])) == 1  # wrapped lines under the text, not the label
        assert set(box["rules"]) == {"none"}  # no nested rules
        assert min(box["target"]) >= 40  # a 40 × 40 px target, as every label
    assert one["labelLeft"] < a["labelLeft"] < a["firstLeft"]  # "1.  (a)  Met …", as the printed book
    assert page.evaluate("[...document.querySelectorAll('[id=\"50D1\"] a.cite')].map(a => a.dataset.mark)") == [
        "1.", "(a)", "(b)"]
    # the words read and copied are the full citation, the number is drawn
    assert page.locator("[id='50D1a'] > h4 a.cite").inner_text() == "50D1a"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_english_book_hangs_50D1_and_50D1a_alike(open_page, english_site, width):
    page = open_page((english_site / "2017" / "50.html").as_uri(), width)
    one, a = hanging(page, "50D1"), hanging(page, "50D1a")
    for box in (one, a):
        assert box["firstTop"] <= box["labelMiddle"] <= box["firstBottom"], (width, box)
        assert box["labelRight"] <= box["firstLeft"] and len(set(box["lefts"])) == 1
    assert page.locator("[id='50D1a'] > h4 a.cite").get_attribute("data-mark") == "(a)"


# What of the apparatus a reader sees or hears: the rendered elements that name inferred numbering (by
# aria-label or text), the rendered boxes on a missing title, the rendered legend lines.
APPARATUS = """words => {
    const shown = el => el.getClientRects().length > 0;
    const named = [...document.querySelectorAll('[aria-label]')].filter(el => el.getAttribute('aria-label') === words);
    return {
        announced: named.filter(shown).length,
        marks: named.length,
        legend: [...document.querySelectorAll('ul.legend li')].filter(shown).map(li => li.textContent.trim()),
        titleBox: [...document.querySelectorAll('.article-head p.gap')].filter(shown).length,
        editorView: document.documentElement.classList.contains('editor-view'),
        pressed: document.getElementById('editor-view').getAttribute('aria-pressed'),
        switchShown: !document.querySelector('p.editor-toggle').hidden,  // in the header's menu, shown by site.js
    };
}"""


def switch_editor_view(page) -> None:
    """A tap on the editor view's switch, in the header's menu (a <details>, opened first when closed)."""
    if not page.evaluate("document.querySelector('details.menu').open"):
        page.click("details.menu > summary")
    page.click("#editor-view")


def test_readers_neither_see_nor_hear_the_apparatus_and_the_editor_view_shows_it_and_is_remembered(
        open_page, site):
    page = open_page((site / "2017" / "50.html").as_uri())
    reader = page.evaluate(APPARATUS, INFERRED)
    assert reader["marks"] >= 6  # 50D1, 50D1a, 50D1b, 50D2, 50D2a, 50D2b … are inferred in the Dutch book
    # The one legend line a reader needs here: the quiet style of a reference to a missing article.
    legend = ["artikel verwijst naar een artikel dat niet in deze uitgave staat"]
    assert reader == {"announced": 0, "marks": reader["marks"], "legend": legend, "titleBox": 0,
                      "editorView": False, "pressed": "false", "switchShown": True}
    # Nothing of it in what a screen reader reads of the headings either.
    assert INFERRED not in page.locator("article.law").aria_snapshot()

    switch_editor_view(page)
    editor = page.evaluate(APPARATUS, INFERRED)
    assert (editor["announced"], editor["titleBox"], editor["editorView"], editor["pressed"]) == (
        reader["marks"], 1, True, "true")
    assert editor["legend"] == legend + [
        "nummering afgeleid: de bronnen schrijven dit nummer niet, de volgorde van de tekst geeft het"]
    assert page.evaluate("localStorage.getItem('lawbook-editor-view')") == "on"

    # Remembered: on another article page of the same site, and after a reload.
    page.goto((site / "2017" / "41.html").as_uri())
    assert page.evaluate(APPARATUS, INFERRED)["editorView"] is True
    page.reload()
    assert page.evaluate(APPARATUS, INFERRED)["pressed"] == "true"
    switch_editor_view(page)
    page.goto((site / "2017" / "50.html").as_uri())
    assert page.evaluate(APPARATUS, INFERRED)["announced"] == 0


def test_a_hanging_label_with_the_mark_of_the_editor_view_stays_in_its_margin(open_page, site):
    page = open_page((site / "2017" / "50.html").as_uri())
    switch_editor_view(page)
    for node in ("50D1", "50D1a", "50D2b"):
        mark = page.locator(f"[id='{node}'] > .hang abbr.inferred").bounding_box()
        assert mark["x"] + mark["width"] <= hanging(page, node)["firstLeft"], node


# The corrected words, the mark's glyph (its box less its padding) and the first character after it.
TIGHT = """() => [...document.querySelectorAll('a.corr-mark:not(.renumbered)')].map(mark => {
    const words = document.createRange(); words.selectNodeContents(mark.previousElementSibling);
    const said = [...words.getClientRects()].pop();
    const box = mark.getBoundingClientRect(), style = getComputedStyle(mark);
    const glyph = {left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight)};
    const next = mark.nextSibling, after = document.createRange();
    after.setStart(next, 0); after.setEnd(next, 1);
    const stop = after.getClientRects()[0];
    return {before: glyph.left - said.right, after: stop.left - glyph.right, char: next.data[0]};
})"""


@pytest.mark.parametrize("width", WIDTHS)
def test_a_correction_mark_stands_tight_between_the_words_and_the_punctuation(open_page, site, width):
    page = open_page((site / "2017" / "24.html").as_uri(), width)
    gaps = page.evaluate(TIGHT)
    assert [g["char"] for g in gaps] == [")"]  # "… en artikel 51*)."
    for gap in gaps:
        assert -1 <= gap["before"] <= 1 and -1 <= gap["after"] <= 1.5, gap


# Every link and the text around it (its parent's): the first family of each (the one that sets it).
FAMILIES = """() => [...document.querySelectorAll('main a')].filter(a => a.getClientRects().length).map(a => {
    const first = el => getComputedStyle(el).fontFamily.split(',')[0].trim();
    return {href: a.getAttribute('href'), link: first(a), text: first(a.parentElement),
            main: first(document.querySelector('main'))};
})"""


def test_links_take_the_family_of_their_text_and_pages_without_law_are_sans(open_page, site):
    for path in ("index.html", "2017/index.html", "2007/index.html", "redactie.html", "diff/2007-2017.html",
                 "2017/41.html"):
        page = open_page((site / path).as_uri())
        links = page.evaluate(FAMILIES)
        assert links, path
        assert [ln for ln in links if ln["link"] != ln["text"]] == [], path
        if path in ("index.html", "2017/index.html", "redactie.html"):
            assert {ln["main"] for ln in links} == {"system-ui"}, path
    # The contents page's own links (the index, the graph) are the sans of the page around them.
    page = open_page((site / "2017" / "index.html").as_uri())
    assert page.evaluate("getComputedStyle(document.querySelector('main > p:last-of-type a')).fontFamily"
                         ).startswith("system-ui")


# The line boxes of each wrapped contents title: the distance between its lines against its font size.
TOC_LINES = """() => [...document.querySelectorAll('ol.toc a.toc-article')].map(a => {
    const r = document.createRange(); r.selectNodeContents(a);
    const tops = [...new Set([...r.getClientRects()].map(x => Math.round(x.top)))].sort((x, y) => x - y);
    return {text: a.textContent, tops, size: parseFloat(getComputedStyle(a).fontSize), height: a.getBoundingClientRect().height};
})"""


def test_wrapped_contents_titles_are_not_double_spaced(open_page, site, english_site):
    for root in (site, english_site):
        page = open_page((root / "2017" / "index.html").as_uri())
        titles = page.evaluate(TOC_LINES)
        wrapped = [t for t in titles if len(t["tops"]) > 1]
        assert wrapped, root
        for t in wrapped:
            steps = {b - a for a, b in zip(t["tops"], t["tops"][1:])}
            assert max(steps) <= 1.5 * t["size"], t
        assert min(t["height"] for t in titles) >= 40  # still a 40 px target


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is missing: run make axe (npm install into .cache/axe)")
@pytest.mark.parametrize("view", ["reader", "editor"])
def test_no_serious_or_critical_axe_violations_in_either_view(open_page, site, view):
    found = {}
    for path in ("2017/50.html", "2017/41.html", "2017/24.html", "2017/index.html"):
        page = open_page((site / path).as_uri(), 375)
        if view == "editor" and page.locator("#editor-view").count():
            switch_editor_view(page)
        violations = serious_axe_violations(page)
        if violations:
            found[path] = violations
    assert found == {}
