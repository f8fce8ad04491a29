"""`make screenshots` (pipeline/html_screenshots.py): the home page, the contents and an article, at a phone's
size too, as PNG files of the sizes a reviewer expects."""
import struct
from pathlib import Path

import pytest

from pipeline import html_screenshots
from pipeline.html_screenshots import CHROMIUM


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_the_director_pages_are_shot_at_phone_and_desktop_size(dutch_site: Path) -> None:
    pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: run make browser")
    assert {"home", "contents", "article-53"} <= set(html_screenshots.PAGES)
    pages = {name: html_screenshots.PAGES[name] for name in ("home", "contents", "article-53")}
    written = html_screenshots.take(dutch_site.parent, pages)
    out = dutch_site.parent / "screenshots"
    assert sorted(p.name for p in written) == sorted(
        f"{name}-{label}.png" for name in pages for label in ("phone", "phone-screen", "desktop"))
    for name in pages:
        assert png_size(out / f"{name}-phone-screen.png") == (375, 812)  # the first screen, no scrolling
        width, height = png_size(out / f"{name}-phone.png")
        assert width == 375 and height >= 812  # the whole page
        assert png_size(out / f"{name}-desktop.png")[0] == 1280
