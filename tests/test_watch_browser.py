"""Watch mode in a real browser (Playwright driving Debian's Chromium): a page open while `serve --watch`
runs shows an edit of its source without a hand on the keyboard, and a broken edit as an overlay in the
book's language (the last good build served, where, what failed, what to do, the page reloading when
fixed) over the previous text, which stays readable; undoing the edit takes the overlay away.

The server and the watcher run in this process (serve.make_watch_server, serve.watch_sources) on a
copy of the five sources, on 127.0.0.1 and a port the system picks; every request the page makes
must stay on this machine.
"""
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

from pipeline import serve
from pipeline.core import lang
from pipeline.html_screenshots import CHROMIUM, launch
from pipeline.publish import watch

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("watchfiles")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is missing: run make browser")

PAGE = "000_8d35bcdf16b9ca3e.txt"  # holds article 41 of the 2017 edition


@pytest.fixture
def watched(tmp_path):
    """(the sources folder, the site's address, the outcomes seen) while serve --watch runs."""
    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", {"no_pdf": True})
    live = serve.LiveState()
    first = session.rebuild()
    assert first.ok
    live.publish(first.view())
    server = serve.make_watch_server(tmp_path / "build" / "html", live, lang.profile("nl"), 0, quiet=True)
    stop, outcomes = threading.Event(), []
    threads = [threading.Thread(target=server.serve_forever, daemon=True),
               threading.Thread(target=serve.watch_sources, args=(session, live, stop, outcomes.append), daemon=True)]
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
def page():
    with playwright_api.sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": 800, "height": 900})
        leaving = []

        def guard(route):
            url = urlparse(route.request.url)
            if url.hostname == "127.0.0.1":
                route.continue_()
            else:
                leaving.append(route.request.url)
                route.abort()
        context.route("**/*", guard)
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
