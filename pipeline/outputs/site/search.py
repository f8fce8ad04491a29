"""Search in the site: the citation jump (the citations script, edition -> citation -> page) and the
command of the full-text index (pagefind), which html.py's start_search_index runs.

Reads: the Site (model.py), or html/ for pagefind. Writes nothing itself.
"""
import json
import subprocess
import sys
from pathlib import Path

from ...core import ids, tree
from ...core.errors import LawbookError
from ...core.lang import LanguageRules, Profile, codes
from ...core.lang import profile as profile_of
from ...core.view import element_id
from .model import Site, corrections_of, href

# Pages with data-pagefind-body: the article pages, all in html/<edition>/. Naming them spares pagefind
# reading the root pages, the editor's page above all (half a megabyte for a book), only to skip them.
SEARCHED_PAGES = "*/*.html"


# The list of the index's files, in html/pagefind/, for the service worker.
SEARCH_FILES = "files.json"


def pagefind_command(site: Path) -> list[str]:
    """The command that indexes `site`: the pagefind binary of the pagefind[bin] wheel run directly
    (`python -m pagefind` would start an interpreter only to exec it), else through that module."""
    try:
        from pagefind_bin import get_executable  # type: ignore[import-untyped]  # (no type information)

        program = [str(get_executable())]
    except (ImportError, OSError):
        program = [sys.executable, "-m", "pagefind"]
    return program + ["--site", str(site), "--output-subdir", "pagefind", "--glob", SEARCHED_PAGES, "--quiet"]


def article_words(rules: LanguageRules) -> list[str]:
    """The words one language writes or types before an article's number (its keyword, plural, abbreviations
    and ARTICLE_TYPED), lowercased, without the full stop an abbreviation may end in: ["artikel", "art", "wet"]."""
    words = (rules.ARTICLE, rules.ARTICLES, *rules.ARTICLE_SHORT, *rules.ARTICLE_TYPED)
    return list(dict.fromkeys(w.lower().rstrip(".") for w in words))


def jump_words(profile: Profile) -> list[str]:
    """The words the search page's citation jump reads before an article's number ("wet 53", "Law 53A",
    "art. 53a", "Loi 16C"), as data for the page: the book's own language's, then every other profile's (a
    director types "Law 53A" in a Dutch book too), each once, the longest first so that "artikelen" is
    read before "artikel"."""
    words = article_words(profile.rules)
    for code in codes():
        if code != profile.code:
            words += article_words(profile_of(code).rules)
    return sorted(dict.fromkeys(words), key=lambda w: (-len(w), w))


def citations_script(site: Site) -> str:
    """html/<citations script> (citaten.js for a Dutch book): edition -> citation -> page (and anchor), newest edition first, for the citation
    jump of the search box: "53A", "2007 41B", "art. 16C" go straight to the node."""
    table: dict[str, dict[str, str]] = {}
    for ed in site.newest_first:
        cites: dict[str, str] = {}
        table[ed] = cites
        for el in site.edition_el(ed).iter(*tree.NODE_TAGS):
            node_id = element_id(el)
            cites[ids.cite_of(node_id)] = href(node_id, "")
        # A number the laws committee corrected (corrections.toml) still finds its node: 47E1a -> 47E2a.
        for el in site.edition_el(ed).iter(*tree.NODE_TAGS):
            for corr in corrections_of(el, ""):
                if corr["kind"] == "renumber":
                    cites.setdefault(corr["was_cite"], href(tree.attr(el, "id"), ""))
        for page in site.articles[ed]:
            cites.setdefault(page.num, f"{ed}/{page.file}")
    return "window.LAWBOOK_CITATIONS = " + json.dumps(table, ensure_ascii=False, indent=0) + ";\n"



class SearchIndex:
    """The pagefind process indexing html/ (html.start_search_index): wait() collects it, kill() stops it."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.process: subprocess.Popen[str] | None = subprocess.Popen(
            pagefind_command(site), stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
            text=True)

    def wait(self) -> None:
        """Waits for pagefind. Writes: html/pagefind/. Raises LawbookError when pagefind failed or wrote
        no index."""
        process, self.process = self.process, None
        if process is None:
            return
        stdout, stderr = process.communicate()
        if process.returncode != 0 or not (self.site / "pagefind" / "pagefind-ui.js").exists():
            raise LawbookError(f"pagefind could not index the site: {(stderr or stdout).strip()[:400]}",
                               file=str(self.site), fix="check that pagefind[bin] is installed in the environment "
                                                        "(pip install -e '.[test]')", status=1)
        # The service worker (sw.js) caches the index's files on the first visit, so search works offline;
        # their names are pagefind's hashes, known only now.
        index = self.site / "pagefind"
        files = sorted(p.relative_to(self.site).as_posix() for p in index.rglob("*") if p.is_file())
        (index / SEARCH_FILES).write_text(json.dumps(files, indent=0) + "\n", encoding="utf-8")

    def kill(self) -> None:
        """Stops pagefind if it still runs (a stage failed meanwhile) and reaps it."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.communicate()
