"""The outputs of an English book: the English original's pages (../shared/english/, skipped when
absent) built whole, PDF included, in the English profile's words and language."""
import re

import pytest
from pypdf import PdfReader

from conftest import run_lawbook
from test_english import ENGLISH, PAGES, english_book

pytestmark = pytest.mark.skipif(not all((ENGLISH / p).is_file() for p in PAGES),
                                reason=f"the English original's pages are not in {ENGLISH}")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("en-out")
    result = run_lawbook("build", "--sources", english_book(folder / "sources"), "--out", folder / "build")
    assert result.returncode == 0, result.stderr
    return folder / "build"


def test_the_site_is_english(built):
    page = (built / "html" / "2017" / "53.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in page
    assert re.search(r"Law 53\b", page) and "Artikel" not in page
    assert "Lead Out of Turn Treated as Correct Lead" in page
    contents = (built / "html" / "2017" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="definitions-title">Definitions</h2>' in contents
    assert '<dt id="def-alert">Alert</dt>' in contents


def test_the_markdown_is_english(built):
    text = (built / "2017" / "lawbook.md").read_text(encoding="utf-8")
    assert text.startswith("# Laws of Duplicate Bridge — edition 2017\n")
    assert "## Definitions {#definitions}" in text
    assert "Law 53" in text and "Artikel" not in text


def test_the_pdf_is_english(built):
    reader = PdfReader(built / "pdf" / "laws-2017.pdf")
    assert reader.trailer["/Root"]["/Lang"] == "en-US"
    first = reader.pages[0].extract_text()
    assert first.split("\n")[:3] == ["World Bridge Federation", "Laws of Duplicate Bridge", "Printed edition 2017"]
    outline = [item.title for item in reader.outline if not isinstance(item, list)]
    assert outline[:7] == ["Title page", "Colophon", "Contents", "Definitions",
                           "Law 16 AUTHORIZED AND UNAUTHORIZED INFORMATION", "Law 17 THE AUCTION PERIOD", "Law 23"]
    assert "Law 53 LEAD OUT OF TURN ACCEPTED" in outline and "Definitions" in outline
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Adjusted Score: A score awarded by the Director (see Law 12)." in " ".join(text.split())
