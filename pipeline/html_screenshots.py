"""Screenshots of the HTML edition: one article page at phone and at desktop width.

    python -m pipeline.html_screenshots [BUILD]      (the Makefile's `screenshots` target)

Reads: BUILD/html/2017/53.html (opened from file://: an article page needs no server).
Writes: BUILD/screenshots/article-53-phone.png (360 px wide) and article-53-desktop.png (1280 px wide),
whole pages. Drives Debian's Chromium (/usr/bin/chromium) through Playwright; downloads nothing.
"""
import sys
from pathlib import Path

from .core.errors import LawbookError

CHROMIUM = "/usr/bin/chromium"
# Offline, quiet, as root in CI: no sandbox, no background traffic.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTICLE = "2017/53.html"
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}


def launch(playwright):
    """Debian's Chromium with the arguments every browser session of the project uses."""
    if not Path(CHROMIUM).exists():
        raise LawbookError(f"{CHROMIUM} is missing", fix="run scripts/install-browser.sh (make browser)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def take(build_dir, article=ARTICLE, name="article-53"):
    """Writes BUILD/screenshots/<name>-phone.png and -desktop.png; returns their paths."""
    from playwright.sync_api import sync_playwright

    build_dir = Path(build_dir).resolve()
    page_file = build_dir / "html" / article
    if not page_file.exists():
        raise LawbookError(f"{page_file} does not exist", fix="run `make build` first")
    out = build_dir / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            for label, viewport in VIEWPORTS.items():
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                page.goto(page_file.as_uri())
                target = out / f"{name}-{label}.png"
                page.screenshot(path=str(target), full_page=True)
                written.append(target)
                context.close()
        finally:
            browser.close()
    return written


def main(argv=None):
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
