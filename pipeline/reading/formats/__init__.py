"""The registry of source formats: each reader's module declares its Format (common.Format):
its name, the signs that detect it, its reader, the note forms it produces and its numbering
rules (core.model.Rules), which the structure stage asks instead of the format's name.

    wiki      a wiki's page export: "Artikel 53" headings, list numbers for letters,
              inline "(Noot: …)" notes, a page title on the first line
    template  a MediaWiki template: "Sjabloon:…", "ARTIKEL 41 title", "A. heading",
              numbered footnotes "1)"
    print     a text extraction of the printed book, from any extractor and in any layout (one page,
              some pages or the whole book: its front matter, contents list, definitions, index …),
              read by the one reader of printed books (reading/book/); "flowed" is read the same
    pdf       the printed book's PDF itself, read by the same reader from its characters with their
              font, size and position (reading/book/pdf.py); a file that starts with "%PDF" is read by it
    markdown  the Markdown master: an edition as the build writes it (build/<edition>/lawbook.md), kept and
              edited by the committee as its own source (markdown.py; `lawbook convert` writes one per edition)
    docx      a Word file: headings, Word's numbering and typed numbers, footnotes and comments (docx.py); a file
              that starts as a zip whose [Content_Types].xml says it is a Word document is read by it
              (reading/docx_package.py opens and checks the package)

Adding a format: one module with its reader and FORMAT, and its FORMAT in REGISTRY. Adding an extractor
of printed books is no format: its output is a text extraction, or it is an adapter (reading/book/).

Before a reader sees them, the heads of the lines (article headings, list and section numbers,
page titles) are normalised (normalise.py). A line that starts like an article heading but
does not read as one is an error, never text of the article before it.
A reader repairs no text: the repair stage (repair.py) does, after every reader.

detect() picks the format from the content; the manifest can force one.
"""
from .. import normalise
from ...core import lang
from ...core.errors import LawbookError
from ...core.model import Reading
from ...core.report import BuildLog
from ..book import is_pdf_lines
from ..decode import Line
from ..docx_package import is_docx_lines
from .common import ReadSource
from . import book, docx, markdown, template, wiki

REGISTRY = (wiki.FORMAT, template.FORMAT, book.PRINT, book.FLOWED, book.PDF, markdown.FORMAT, docx.FORMAT)
FORMATS = {f.name: f for f in REGISTRY}
NAMES = tuple(FORMATS)  # the manifest's allowed `format = …` values
# Every sign of every format, tried in order of priority.
SIGNS = sorted(((priority, f.name, test) for f in REGISTRY for priority, test in f.signs), key=lambda s: s[0])


def detect(lines: list[Line], name: str, profile: lang.Profile) -> str:
    """The format of a source, from its content (read in the words of `profile`, the book's language)."""
    texts = [line.text for line in lines if not line.blank]
    if not texts:
        raise LawbookError("the file is empty", file=name, fix="put the exported text in the file")
    for _, fmt, test in SIGNS:
        if test(texts, profile):
            return fmt
    # A PDF and a Word file are told by their bytes.
    text_formats = [n for n in NAMES if n not in (book.PDF.name, book.FLOWED.name, docx.FORMAT.name)]
    quoted = ", ".join(f'"{n}"' for n in text_formats[:-1]) + f' or "{text_formats[-1]}"'
    keyword = profile.rules.ARTICLE_WORD
    raise LawbookError(f"cannot tell the format of this file: no '{keyword} N' heading, template name or page "
                       f"layout found",
                       file=name, line=lines[0].num, fix=f"set format = {quoted} for this file in sources.toml")


def read(lines: list[Line], source: ReadSource, log: BuildLog) -> Reading:
    """Lines to a Reading by the reader of the source's format (text not yet repaired)."""
    profile = lang.profile(source.language)
    lines = normalise.lines(lines, log.for_file(source.name), profile)
    # A PDF's lines are its own (book/pdf.py), and so are a Word file's (docx_package.py): no sign in their text is
    # needed to tell them.
    fmt = source.format or (book.PDF.name if is_pdf_lines(lines) else docx.FORMAT.name if is_docx_lines(lines)
                            else detect(lines, source.name, profile))
    return FORMATS[fmt].read(lines, source, log)
