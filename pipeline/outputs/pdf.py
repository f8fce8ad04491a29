"""The PDF edition: a print-ready book per edition, typeset with Typst. This module holds its stages
(start_pdf, finish_pdf, write_pdf), the book's Typst source (typst_source) and its file names; the
parts are in book/:

    book/view.py        the book of one edition as plain data (book_view, node_view, …)
    book/source.py      Typst source: escaping (TypstCode, typst_string), labels, paragraph markup,
                        the template environment over templates/pdf/
    book/compiling.py   the compilers: Compiles, compile_books, parallel_limit, the book's date
    book/printable.py   text the fonts cannot set, found before compiling
    pdf_parts.py        a big book compiled in parts and joined

    corpus tree ──book_view──> the book as plain data (text stays str, paragraphs become Typst markup)
                ──templates/pdf/*.j2──> Typst source ──typst──> PDF/A-2b

Escaping is the template environment's job: every value a template prints is a Typst
string literal unless it is `TypstCode`, and only book/ makes `TypstCode` (from
fixed markup, labels it has checked, and paragraph markup it built from escaped text).
So no law text can ever act as markup, whatever characters it holds. The book's own words
(title page, colophon, headings, running heads, the date) are the language profile's (text.py), and so
are its lang and region. The book's date is the date of its sources (build_timestamp), never the build's;
its colophon names their digest (sources_digest). Each compiled book opens with its bookmarks shown
(open_with_bookmarks, once its compiler is done: OpenWithBookmarks).
"""
import datetime
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import pdf_parts
from ..reading import manifest
from .book.bookmarks import open_with_bookmarks
from .book.compiling import (COMPILE_CHILD, Book, Compiles, build_timestamp, compile_books, compile_failure,
                             sources_digest)
from .book.printable import unprintable, unprintable_sources
from .book.source import TypstCode, template_environment
from .book.view import book_view
from ..core import tree
from ..core.lang import Profile
from ..core.stage import Stage
from .job import Job
from .text import file_names, profile_of


def typst_source(edition: tree.Element, built: datetime.date, with_commentary: bool = True, *, profile: Profile,
                 sources: Sequence[manifest.Source] = (), digest: str | None = None) -> str:
    """The complete Typst source of one edition's book, in the words of `profile`, the book's language;
    `sources` (the edition's manifest entries) and `digest` (their sources_digest) for the colophon."""
    template = template_environment(profile).get_template("book.typ.j2")
    return template.render(book=book_view(edition, built, with_commentary, profile=profile, sources=sources,
                                          sources_digest=digest))


def pdf_name(edition_id: str, profile: Profile) -> str:
    """The book's path in the build folder, named in the book's language: pdf/spelregels-2017.pdf in
    Dutch, pdf/laws-2017.pdf in English."""
    return file_names(profile).pdf(edition_id)


def typ_name(edition_id: str, profile: Profile) -> str:
    """The book's Typst source, kept beside its PDF so that anyone can compile it again or compare."""
    return file_names(profile).typ(edition_id)


def parts_name(edition_id: str, profile: Profile) -> str:
    """The Typst sources of a book compiled in parts (pdf_parts.py), kept beside its PDF."""
    return file_names(profile).parts(edition_id)


def _prepare(job: Job) -> list[Book]:
    """The editions of job.corpus to compile, each written as Typst source below job.tmp: a list of
    Book (the book's own .typ, or a book in parts: its parts' sources and the plan, see pdf_parts).
    An edition unchanged since the previous build is copied from it instead. Text the compiler cannot
    set is a build error at its source line (and then nothing is prepared)."""
    out = job.tmp / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    profile = profile_of(job)
    with_commentary = not job.options.no_commentary
    size, above = pdf_parts.part_articles()
    in_parts = {tree.attr(e, "id") for e in job.corpus.iterchildren("edition")
                if sum(1 for _ in e.iterchildren("article")) > above}
    names = file_names(profile)
    # The colophon's digest of each edition's own source files (none for a corpus without sources).
    paths = {tree.attr(e, "id"): [s.path for s in job.sources if s.edition == tree.attr(e, "id")]
             for e in job.corpus.iterchildren("edition")}
    digests = {edition_id: sources_digest(files) if files else None for edition_id, files in paths.items()}
    todo = [e for e in job.corpus.iterchildren("edition")
            if not _reused(job, tree.attr(e, "id"), tree.attr(e, "id") in in_parts, digests[tree.attr(e, "id")])]
    # Text the compiler cannot set is a build error at its source line, found before compiling.
    lines = {(name, line.num): line.text for name, file_lines in job.lines.items() for line in file_lines}
    manifest_path = Path(job.sources_dir or ".") / manifest.MANIFEST
    for edition in todo:
        own = [s for s in job.sources if s.edition == tree.attr(edition, "id")]
        for file, line, node, message in unprintable(edition, lines) + unprintable_sources(own, manifest_path):
            job.log.add("error", file, line, message, node)
    if job.log.errors:
        return []
    books: list[Book] = []
    for edition in todo:
        edition_id = tree.attr(edition, "id")
        own = [s for s in job.sources if s.edition == edition_id]
        timestamp = build_timestamp([s.path for s in own])
        pdf_file = job.tmp / names.pdf(edition_id)
        if edition_id in in_parts:
            view = book_view(edition, timestamp.date(), with_commentary, profile=profile, sources=own,
                             sources_digest=digests[edition_id])
            plan = pdf_parts.write_sources(view, edition, job.tmp / names.parts(edition_id), size,
                                           template_environment(profile), TypstCode)
            work = job.tmp / "pdf" / f".work-{edition_id}"  # the parts' PDFs, removed once joined
            work.mkdir()
            plan.update(child=COMPILE_CHILD, out=str(pdf_file), work=str(work),
                        timestamp=int(timestamp.timestamp()))
            (work / "plan.json").write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
            books.append(Book(work / "plan.json", pdf_file, timestamp, edition_id, plan["weight"], parts=True))
            continue
        source = typst_source(edition, timestamp.date(), with_commentary, profile=profile, sources=own,
                              digest=digests[edition_id])
        typ_file = job.tmp / names.typ(edition_id)
        typ_file.write_text(source, encoding="utf-8")
        books.append(Book(typ_file, pdf_file, timestamp, edition_id, len(source)))
    return books


def _reused(job: Job, edition_id: str, in_parts: bool, digest: str | None) -> bool:
    """Whether the edition's book was copied from the previous build (job.previous.reuse: its content is
    unchanged). Not when the copy's colophon names other sources' digest: a source whose bytes changed
    and the edition's content did not (its line ends, say) gives a book compiled afresh, so that a book
    never names other sources than its own. The copy is then overwritten."""
    names = file_names(profile_of(job))
    source = names.parts(edition_id) if in_parts else names.typ(edition_id)
    if not job.previous.reuse(edition_id, [names.pdf(edition_id), source]):
        return False
    if digest is None:
        return True
    typ = job.tmp / source / "front.typ" if in_parts else job.tmp / source
    try:
        return digest in typ.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return False


class OpenWithBookmarks:
    """The compilers of start_pdf (Compiles, or watch mode's warm ones), and once they are done, each book
    compiled whole made to open with its bookmarks shown (open_with_bookmarks); a book in parts is when
    its parts are joined (pdf_parts.join). What the build waits for (wait) and stops (kill)."""

    def __init__(self, compiles: Any, books: list[Book]) -> None:
        self.compiles, self.books = compiles, books

    def wait(self) -> None:
        self.compiles.wait()
        for book in self.books:
            if not book.parts:
                open_with_bookmarks(book.out)

    def kill(self) -> None:
        self.compiles.kill()


def start_pdf(job: Job) -> OpenWithBookmarks | None:
    """Reads: job.corpus, job.sources (each edition's files and their dates),
    job.options.no_commentary, and the previous build (job.previous).
    Writes: pdf/<book>.typ (or .parts/) for every edition to compile, and starts the compilers, which
    write pdf/<book>.pdf while the build makes its other outputs; <book> is the profile's name (pdf_name:
    spelregels-2017, laws-2017). Returns the compilers (in OpenWithBookmarks) for the stage finish_pdf to
    wait for, None when there is nothing to compile. An edition unchanged since the previous build is copied from
    it, not compiled."""
    books = _prepare(job)
    compiles = job.compiles or Compiles  # watch mode's warm compilers (publish/watch.py)
    return OpenWithBookmarks(compiles(books), books) if books else None


def write_pdf(job: Job) -> None:
    """Reads and writes what start_pdf does, and waits for the books: every edition's PDF, compiled and
    written (for callers outside the build, which starts the compilers early: start_pdf, finish_pdf).
    Books compiled whole go through compile_books."""
    books = _prepare(job)
    whole = [b for b in books if not b.parts]
    data = compile_books([(b.typ.read_text(encoding="utf-8"), b.timestamp) for b in whole], [b.name for b in whole])
    for book, pdf_bytes in zip(whole, data):
        book.out.write_bytes(pdf_bytes)
        open_with_bookmarks(book.out)
    compiles = Compiles([b for b in books if b.parts])
    try:
        compiles.wait()
    finally:
        compiles.kill()


STAGES = [Stage("start_pdf", start_pdf, reads=("corpus", "options", "sources", "lines", "sources_dir",
                                               "previous", "profile", "tmp", "compiles"), writes=("log",),
                files=("pdf/<book>.pdf", "pdf/<book>.typ"), unless=("no_pdf",)),
          Stage("finish_pdf", None, waits="start_pdf", unless=("no_pdf",))]
