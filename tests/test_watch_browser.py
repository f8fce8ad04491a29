"""Watch mode in a real browser (Playwright driving Debian's Chromium): a page open while `serve --watch`
runs shows an edit of its source without a hand on the keyboard, and a broken edit as an overlay in the
book's language (the last good build served, where, what failed, what to do, the page reloading when
fixed) over the previous text, which stays readable; undoing the edit takes the overlay away.

The server and the watcher run in this process (watch_server.make_watch_server, watch_server.watch_sources) on a
copy of the five sources, on 127.0.0.1 and a port the system picks; every request the page makes
must stay on this machine.
"""
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

from pipeline import watch_server
from pipeline.core import lang
from pipeline.html_screenshots import CHROMIUM, launch
from pipeline.publish import watch

from conftest import stay_on_this_machine

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("watchfiles")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

PAGE = "000_8d35bcdf16b9ca3e.txt"  # holds article 41 of the 2017 edition


def serving(tmp_path: Path, options: dict, steps: list | None = None):
    """(the sources folder, the site's address, the outcomes seen) while serve --watch runs with `options`;
    the steps before each outcome go to `steps`."""
    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", options)
    live = watch_server.LiveState(session.overlay)
    first = session.rebuild()
    assert first.ok
    live.publish(first.view())
    server = watch_server.make_watch_server(tmp_path / "build" / "html", live, lang.profile("nl"), 0, quiet=True)
    stop, outcomes = threading.Event(), []
    on_step = steps.append if steps is not None else None
    threads = [threading.Thread(target=server.serve_forever, daemon=True),
               threading.Thread(target=watch_server.watch_sources, args=(session, live, stop, outcomes.append, on_step),
                                daemon=True)]
    for thread in threads:
        thread.start()
    try:
        yield tmp_path / "src", f"http://127.0.0.1:{server.server_address[1]}", outcomes
    finally:
        stop.set()
        server.stopping = True
        server.shutdown()
        server.server_close()
        threads[1].join(10)
        session.close()


@pytest.fixture
def watched(tmp_path):
    """(the sources folder, the site's address, the outcomes seen) while serve --watch runs."""
    yield from serving(tmp_path, {"no_pdf": True})


@pytest.fixture
def watched_with_pdf(tmp_path):
    """As `watched`, with the PDF, and the steps seen before each outcome."""
    steps: list[watch.Step] = []
    for src, site, outcomes in serving(tmp_path, {}, steps):
        yield src, site, outcomes, steps


@pytest.fixture
def page():
    with playwright_api.sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": 800, "height": 900})
        leaving = stay_on_this_machine(context, files=False)
        yield context.new_page()
        browser.close()
        assert leaving == [], f"requests left the machine: {leaving}"


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edit_shows_in_the_open_page_and_a_broken_one_as_an_overlay(watched, page):
    src, site, outcomes = watched
    page.goto(f"{site}/2017/41.html")
    heading = page.locator("h1")
    assert "Het begin van het spelen" in heading.inner_text()
    page.wait_for_function("() => document.querySelector('script[src=\"/__lawbook/live.js\"]') !== null")
    page.wait_for_timeout(300)  # the event stream is open

    replace(src / PAGE, "Het begin van het spelen", "Het begin van het afspelen")
    page.wait_for_function("() => document.querySelector('h1').innerText.includes('afspelen')", timeout=20_000)
    for _ in range(200):  # the page comes first (from the overlay), the whole build after it
        if outcomes:
            break
        page.wait_for_timeout(100)
    assert outcomes and outcomes[-1].ok

    replace(src / PAGE, "1. Gedekte uitkomst", "1. Gedekte uitkomst\n1. Gedekte uitkomst")
    overlay = page.locator("#lawbook-watch-error")
    overlay.wait_for(state="visible", timeout=20_000)
    text = overlay.inner_text()
    # In the book's language: the last good build is served, where (the source by its origin), what, what to
    # do, and that the page reloads by itself.
    assert "Deze wijziging bouwt niet: de site toont nog de laatste build die wel lukte." in text
    assert "Waar: Wiki page export 'ARTIKEL 54'" in text and f"({PAGE}), regel " in text
    assert "Wat misging: 2017/41A begint een tweede keer op regel" in text
    assert "Wat te doen: verbeter de bron op die regel en sla haar op" in text
    assert "Zodra de bron weer bouwt, laadt deze pagina vanzelf opnieuw met de nieuwe build." in text
    assert overlay.locator("strong").inner_text().startswith("Deze wijziging bouwt niet")
    # The previous build stays on screen and readable beside the overlay.
    assert "Het begin van het afspelen" in heading.inner_text()
    assert heading.is_visible()
    assert overlay.evaluate("el => el.getBoundingClientRect().height") <= 0.4 * 900 + 1

    replace(src / PAGE, "1. Gedekte uitkomst\n1. Gedekte uitkomst", "1. Gedekte uitkomst")
    overlay.wait_for(state="detached", timeout=20_000)
    assert outcomes[-1].ok and outcomes[-1].recovered
    assert not (src.parent / "build.failed").exists()


def test_the_open_page_comes_first_in_its_place_then_the_pdf_then_the_whole_build(watched_with_pdf, page, monkeypatch):
    """Page first: the page open in the browser reloads with its new words, at the place the reader had
    scrolled to, while the whole rebuild (its search index made slowly here, on purpose) is still under way;
    the events say "page", then "pdf", then "all", and the page does not reload a second time."""
    import time

    from pipeline.bench.watch import Events
    from pipeline.outputs.site import search

    src, site, outcomes, steps = watched_with_pdf
    build = src.parent / "build"
    wait = search.SearchIndex.wait

    def slow(self):  # the search index takes its time: the page must not wait for it
        time.sleep(2.0)
        return wait(self)
    monkeypatch.setattr(search.SearchIndex, "wait", slow)
    page.set_viewport_size({"width": 800, "height": 300})
    page.goto(f"{site}/2017/41.html")
    page.wait_for_function("() => document.querySelector('script[src=\"/__lawbook/live.js\"]') !== null")
    y = page.evaluate("() => { window.scrollTo(0, Math.min(400, document.documentElement.scrollHeight - innerHeight));"
                      " return window.scrollY; }")
    assert y > 0
    loads = []
    page.on("load", lambda _: loads.append(time.perf_counter()))
    events = Events(int(urlparse(site).port))
    try:
        events.until(lambda name, data: name == "state")
        page.wait_for_timeout(300)  # the page's event stream is open: the server knows it is shown
        replace(src / PAGE, "Het begin van het spelen", "Het begin van het afspelen")
        page.wait_for_function("() => document.querySelector('h1').innerText.includes('afspelen')", timeout=20_000)
        # Served from the overlay: build/ (its search index with it) is not yet the new build.
        assert "afspelen" not in (build / "html" / "2017" / "41.html").read_text(encoding="utf-8")
        assert not outcomes
        page.wait_for_function(f"() => Math.abs(window.scrollY - {y}) <= 1", timeout=5_000)
        names = [events.until(lambda name, data: name in ("page", "pdf", "all"))[1] for _ in range(3)]
        assert names == ["page", "pdf", "all"]
        assert [step.kind for step in steps] == ["page", "pdf"] and steps[0].paths == ["2017/41.html"]
        assert outcomes[-1].ok and "afspelen" in (build / "html" / "2017" / "41.html").read_text(encoding="utf-8")
        page.wait_for_timeout(500)
        assert len(loads) == 1  # reloaded once, at "page": the whole build brought it nothing new
        assert "afspelen" in page.locator("h1").inner_text()
    finally:
        events.close()
