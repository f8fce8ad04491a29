"""The HTML edition: a static reader's site in build/html/. This module holds its stages (write_html, and
the search index: start_search_index, finish_search_index, write_search_index); the parts are in site/:

    site/model.py       the corpus read once into what the pages show (Site), IDs and links
    site/fragments.py   the templates' _() and the law text's macros (templates/html/fragments.html)
    site/pages.py       the template environment, the edition's pages, write_edition
    site/graph_page.py  the reference graph's layout by Graphviz's dot
    site/editor.py      the editor's page: the report, the corrections, the comparison with the original
    site/reuse.py       what is copied from the previous build (PreviousBuild)
    site/search.py      the citation jump's table and the pagefind command

The file names below are the Dutch book's; a book in another language has its profile's
(core/lang/<code>/rules.py, text.file_names: search.html, editorial.html, references.html, citations.js):

    html/index.html                the editions
    html/<ed>/index.html           table of contents of one edition
    html/<ed>/<num>.html           one page per article (also for an article known only from its commentary)
    html/<ed>/verwijzingen.html    the reference graph of the edition as an SVG picture
    html/redactie.html             the editor's page: the build report, every entry with file and line;
                                   the committee's corrections; with `build --reference` the comparison
                                   with the original (job.alignment, publish/reference.py)
    html/zoeken.html               search: a citation ("53A", "2007 41B") goes straight to it; full text
                                   (pagefind) needs a web server, see serve.py
    html/diff/<old>-<new>.html     the comparison of two consecutive editions, inside the site
    html/lawbook.css, site.js      the one style sheet and the one script (keeps a section when
                                   switching editions; registers the service worker)
    html/citaten.js                every citation of every edition, for the search box's citation jump
    html/sw.js, manifest.webmanifest, icon.svg, 404.html
                                   offline use: after one visit over http the whole site is cached

Every section, subsection and item carries the anchor of its citation, so
2017/50D2a is 2017/50.html#50D2a. Every link is relative and nothing is loaded
from elsewhere, so the site works from any web server, in a subfolder, and (except
full-text search) from file://. Editions are listed newest first: the newest is the one in force.
Readers see law: a reference to an article this edition lacks is set quietly with a legend on the
page; below a section a part's number hangs in the margin of its text ("1.", "(a)"), as the printed
book sets it. Inferred numbering and a missing title are apparatus: absent for readers (neither
seen nor announced), shown by the editor view, a switch on the article page (site.js, remembered
in localStorage); the red marks, file names and English messages are on the editor's page only.
Words a correction of the laws committee replaced, and a part it renumbered, carry a quiet mark
with the sources' words and the basis, linked to the editor's page.
Pages hold no timestamps: the same corpus gives the same bytes. Every word around the law text
and the pages' lang are the language profile's (text.py; the templates' _("…")).
"""
import hashlib
import shutil
from typing import Any

from ..core.memory import collector_paused
from ..core.errors import LawbookError
from ..core.stage import FORK, Stage
from .job import Job
from .keyed import KeyedFiles, key_of, resolved
from .text import file_names, profile_of
from . import diff as diffs
from .site.editor import alignment_view, corrections_view, report_view, unresolved_refs
from .site.model import Site
from .site.original import Originals
from .site.pages import REDLINE_CSS, STATIC, TEMPLATES, comparison_view, edition_pages, environment, write_edition
from .site.reuse import PreviousBuild
from .site.search import SearchIndex, citations_script


@collector_paused
def write_html(job: Job) -> list[str]:
    """Reads: job.corpus (with <ref> when the references stage marked them), job.log, the editions'
    comparisons (job.made.comparisons; made here when there are none) and the comparison with the
    original (job.made.alignment, only with build --reference).
    Writes: html/ — the index of editions, per edition a table of contents, one page per article and
    the reference graph, the editor's page, the search page and the style sheet.
    An edition whose pages would come out as in the previous build (see PreviousBuild) is copied
    from there instead of rendered; of the other pages, each whose key (the template and the values
    it is given, keyed.py) is the one the previous build recorded is copied too.
    Guarantees: relative links only, no external requests, no timestamps; returns the pages written."""
    out = job.tmp / "html"
    out.mkdir(parents=True, exist_ok=True)
    profile = profile_of(job)
    site = Site(job.corpus, job.log, profile)
    site.link_editions()
    env = environment(profile)
    written: list[str] = []

    folders = {out}

    # Each page is copied from the last build when it was made there from the same template and values
    # (keyed.py): an edited article re-renders its own page and those that show what changed.
    keys = KeyedFiles(job, "html", "html")

    def page(path: str, template: str, **values: Any) -> None:
        written.append(path)
        if keys.reuse(path, key_of(template, values)):
            return
        target = out / path
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        target.write_text(env.get_template(template).render(**resolved(values)), encoding="utf-8")

    comparisons = [{"old": old, "new": new, "file": f"diff/{old}-{new}.html"} for old, new in site.comparisons()]
    # Each edition's book, beside html/ in the build (pdf/): "../pdf/spelregels-2017.pdf" from the home page, which
    # `lawbook serve` and the watch server answer at /pdf/ (a link above the site's root is clamped to it).
    books = {ed: None if job.options.no_pdf else f"../{site.files.pdf(ed)}" for ed in site.editions}
    editions: list[dict[str, Any]] = [{"id": ed, "articles": site.articles[ed], "current": ed == site.editions[-1],
                 "comparisons": [c for c in comparisons if ed in (c["old"], c["new"])], "pdf": books[ed]}
                for ed in site.newest_first]
    page("index.html", "index.html", root="", editions=editions, comparisons=comparisons)
    if job.made.alignment is not None:  # build --reference: each article page holds the original beside it
        site.originals = Originals(job.made.alignment, profile)
    previous = PreviousBuild(job, site)
    for ed in editions:
        pages = edition_pages(site, ed["id"])
        if keys.known(pages) and previous.reuse(ed["id"]):  # unchanged: copied whole, keys and all
            written += pages
            keys.carry(pages)
            continue
        write_edition(site, ed["id"], page)
    for c in comparisons:
        result = (job.made.comparisons or {}).get((c["old"], c["new"])) \
            or diffs.compare(site.edition_el(c["old"]), site.edition_el(c["new"]))  # the build's, made once
        page(c["file"], "compare.html", root="../", **comparison_view(site, result, profile))
    # A report entry may name a node that is no longer in the corpus (renumbered by a correction): no link.
    # The comparison with the original is there only when the build was given one (build --reference):
    # the build's reference stage leaves its Alignment in job.made (publish/reference.py).
    alignment = job.made.alignment
    files = file_names(profile)  # in the book's language
    page(files.editor, "editor.html", root="", report=report_view(job.log, profile), refs=unresolved_refs(site),
         nodes=frozenset(site.nodes), corrections=corrections_view(site),
         original=alignment_view(alignment, job.options.reference, profile) if alignment is not None else None)
    page(files.search, "search.html", root="", editions=site.newest_first)
    page("404.html", "404.html", root="")
    (out / files.citations).write_text(citations_script(site), encoding="utf-8")
    page("manifest.webmanifest", "manifest.webmanifest", root="")
    for name in STATIC:
        shutil.copyfile(TEMPLATES / name, out / name)
    written += [files.citations, *STATIC]
    if comparisons:
        shutil.copyfile(REDLINE_CSS, out / "diff" / "redline.css")
        written.append("diff/redline.css")
    # The service worker caches every file above on the first visit; its cache is named after their
    # bytes, so a new build replaces the old cache and an unchanged one keeps it.
    digest = hashlib.sha256()
    for path in sorted(written):
        digest.update(path.encode() + b"\0" + (out / path).read_bytes())
    page("sw.js", "sw.js", root="", files=sorted(written), version=digest.hexdigest()[:16])
    keys.save()
    return written


def start_search_index(job: Job) -> SearchIndex:
    """Reads: html/ (see write_search_index). Starts pagefind over it in a process of its own and
    returns it at once, so the index is made while the build goes on with other outputs on the other
    core; the stage finish_search_index waits for it. Nothing may change html/ in between."""
    site = job.tmp / "html"
    if not site.is_dir():
        raise LawbookError("there is no html/ to index", file=str(site), fix="write_html must run before "
                                                                           "write_search_index", status=1)
    return SearchIndex(site)


def write_search_index(job: Job) -> None:
    """Reads: html/ (article pages mark their text with data-pagefind-body; their lang="…", the profile's
    code, picks the stemming: Dutch for lang="nl").
    Writes: html/pagefind/ — the search index and pagefind's own UI script and style sheet (all local).
    Runs the pagefind binary from the pagefind[bin] wheel and waits for it; no network.
    (A build can instead run start_search_index here and wait for it at its last output stage,
    finish_search_index, so the index is made while the other outputs are written.)"""
    index = start_search_index(job)
    try:
        index.wait()
    finally:
        index.kill()


STAGES = [Stage("write_html", write_html, reads=("corpus", "log", "options", "previous", "profile", "tmp",
                                                 "made.comparisons", "made.alignment"),
                files=("html/", ".lawbook-keys/html.json"), lane=FORK),
          Stage("start_search_index", start_search_index, reads=("tmp",), files=("html/pagefind/",)),
          Stage("finish_search_index", None, waits="start_search_index")]
