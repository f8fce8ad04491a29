"""One reader per source format; each turns Lines into a Reading of Blocks.

    wiki      a wiki's page export: "Artikel 53" headings, list numbers for letters,
              inline "(Noot: …)" notes, a page title on the first line
    template  a MediaWiki template: "Sjabloon:…", "ARTIKEL 41 title", "A. heading",
              numbered footnotes "1)"
    print     a text extraction of the printed book: running header, page number,
              "ARTIKEL 24", short lines with line-end hyphens, bare footnote digits

Before a reader sees them, the heads of the lines (article headings, list and section numbers,
page titles) are normalised (normalise.py). A line that starts like an article heading but
does not read as one is an error, never text of the article before it (common.looks_like_article).

detect() picks the format from the content; the manifest can force one.
"""
import re

from .. import normalise
from ...core.errors import LawbookError
from . import printed, template, wiki

READERS = {"wiki": wiki.read, "template": template.read, "print": printed.read}


def detect(lines, name):
    """The format of a source, from its content."""
    texts = [line.text for line in lines if not line.blank]
    if not texts:
        raise LawbookError("the file is empty", file=name, fix="put the exported text in the file")
    if texts[0].startswith(("Sjabloon:", "Template:")):
        return "template"
    hyphen_ends = sum(1 for t in texts if re.search(r"[^\W\d_]-$", t))
    if any(re.fullmatch(r"\d{1,4}", t.strip()) for t in texts[:4]) or hyphen_ends >= 3:
        return "print"
    if any(wiki.ARTICLE.match(t) for t in texts):
        return "wiki"
    if any(template.ARTICLE.match(t) for t in texts):
        return "template"
    raise LawbookError("cannot tell the format of this file: no 'Artikel N' heading, template name or page layout found",
                       file=name, line=lines[0].num,
                       fix='set format = "wiki", "template" or "print" for this file in sources.toml')


def read(lines, source, vocabulary, log):
    lines = normalise.lines(lines, log.for_file(source.name))
    fmt = source.format or detect(lines, source.name)
    return READERS[fmt](lines, source, vocabulary, log)
