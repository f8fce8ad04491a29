"""Search in the site: the citation jump (the citations script, edition -> citation -> page) and the
command of the full-text index (pagefind), which html.py's start_search_index runs.

Reads: the Site (model.py), or html/ for pagefind. Writes nothing itself.
"""
import json
import sys

from ...core import ids, tree
from .model import Site, href

# Pages with data-pagefind-body: the article pages, all in html/<edition>/. Naming them spares pagefind
# reading the root pages, the editor's page above all (half a megabyte for a book), only to skip them.
SEARCHED_PAGES = "*/*.html"


def pagefind_command(site) -> list[str]:
    """The command that indexes `site`: the pagefind binary of the pagefind[bin] wheel run directly
    (`python -m pagefind` would start an interpreter only to exec it), else through that module."""
    try:
        from pagefind_bin import get_executable

        program = [str(get_executable())]
    except (ImportError, OSError):
        program = [sys.executable, "-m", "pagefind"]
    return program + ["--site", str(site), "--output-subdir", "pagefind", "--glob", SEARCHED_PAGES, "--quiet"]


def citations_script(site: Site) -> str:
    """html/<citations script> (citaten.js for a Dutch book): edition -> citation -> page (and anchor), newest edition first, for the citation
    jump of the search box: "53A", "2007 41B", "art. 16C" go straight to the node."""
    table = {}
    for ed in site.newest_first:
        cites = table[ed] = {}
        for el in site.edition_el(ed).iter(*tree.NODE_TAGS):
            cites[ids.cite_of(el.get("id"))] = href(el.get("id"), "")
        for page in site.articles[ed]:
            cites.setdefault(page.num, f"{ed}/{page.file}")
    return "window.LAWBOOK_CITATIONS = " + json.dumps(table, ensure_ascii=False, indent=0) + ";\n"

