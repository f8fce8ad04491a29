"""Screenshots of the HTML edition: an article, the comparison and the search page, at phone and desktop width.

    python -m pipeline.html_screenshots [BUILD]      (the Makefile's `screenshots` target)

Reads: BUILD/html/ (the article and the comparison from file://; the search page through
serve.make_server on 127.0.0.1, since full-text search needs a web server).
Writes: BUILD/screenshots/<page>-phone.png (375 px wide) and <page>-desktop.png (1280 px wide), whole
pages, and <page>-phone-screen.png, what a 375 × 812 phone shows before any scrolling, for home
(index.html), contents (2017/index.html), article-53, vergelijking (diff/2007-2017.html) and search
(zoeken.html?q=uitkomst).
Drives Debian's Chromium (/usr/bin/chromium) through Playwright; downloads nothing.
"""
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright, ViewportSize

from .core import lang
from .core.errors import LawbookError
from .outputs.text import file_names

CHROMIUM = "/usr/bin/chromium"
# Offline, quiet, as root in CI: no sandbox, no background traffic.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTICLE = "2017/53.html"
# The Dutch book's search page (`make build` builds the Dutch sources), named by its profile.
SEARCH = file_names(lang.profile("nl")).search
# name -> page below html/; pages with a query are taken over http (search needs a server).
PAGES = {"home": "index.html", "contents": "2017/index.html", "article-53": ARTICLE,
         "vergelijking": "diff/2007-2017.html", "search": f"{SEARCH}?q=uitkomst"}
# The sizes the browser tests use: a phone's screen, and a laptop's.
VIEWPORTS: dict[str, "ViewportSize"] = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1280, "height": 900}}


def launch(playwright: "Playwright") -> "Browser":
    """Debian's Chromium with the arguments every browser session of the project uses."""
    if not Path(CHROMIUM).exists():
        raise LawbookError(f"{CHROMIUM} is missing", fix="run make browser (it installs Debian's chromium)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def take(build_dir: str | Path, pages: dict[str, str] | None = None) -> list[Path]:
    """Writes BUILD/screenshots/<name>-phone.png and -desktop.png for each page; returns their paths."""
    import threading

    from playwright.sync_api import sync_playwright

    from . import serve

    build_dir = Path(build_dir).resolve()
    site = build_dir / "html"
    pages = pages or PAGES
    for page_path in pages.values():
        if not (site / page_path.split("?")[0]).exists():
            raise LawbookError(f"{site / page_path.split('?')[0]} does not exist", fix="run `make build` first")
    out = build_dir / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    server = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    written: list[Path] = []
    try:
        with sync_playwright() as p:
            browser = launch(p)
            try:
                for name, page_path in pages.items():
                    for label, viewport in VIEWPORTS.items():
                        context = browser.new_context(viewport=viewport, device_scale_factor=1)
                        page = context.new_page()
                        if "?" in page_path:
                            page.goto(f"{base}/{page_path}")
                            page.wait_for_selector("ol.search-results li", timeout=10000)
                        else:
                            page.goto((site / page_path).as_uri())
                        target = out / f"{name}-{label}.png"
                        page.screenshot(path=str(target), full_page=True)
                        written.append(target)
                        if label == "phone":  # the first screen: what a director sees without scrolling
                            screen = out / f"{name}-{label}-screen.png"
                            page.screenshot(path=str(screen))
                            written.append(screen)
                        context.close()
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    build_dir = argv[0] if argv else "build"
    try:
        for path in take(build_dir):
            print(f"wrote {path}")
    except LawbookError as e:
        print(f"lawbook: error: {e}", file=sys.stderr)
        return e.status
    return 0


if __name__ == "__main__":
    sys.exit(main())
