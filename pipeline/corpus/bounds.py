"""The bounds of one edition: at most MAX_ARTICLES articles and MAX_NODES nodes.

Reads: the readings (count_articles, right after the readers: the article headings of each edition) and
the fragments (count_nodes, right after the structure stage: the nodes of each edition, a node shown by
two sources once). Writes nothing: an edition past a bound is one LawbookError (status 2, as the other
limits of the input) naming the source and the line where it passed it.

The sizes of the sources are bounded already (reading/manifest.py, decode.py: 8 MiB a file, 16 MiB all),
but not what they hold: 16 MiB of "Artikel N" and a sentence are some 350,000 articles, and every stage
and output grows with the articles and nodes (100,000 such articles took 474 s and 3 GB to build). The
bounds are set far above any real book (the Laws have 93 articles and some thousands of nodes; the
fuzz tests' largest build, one source at the 8 MiB limit, has 15,258 articles and 45,774 nodes), and
are checked as early as each can be: a book past them is refused in the time its sources take to read
(docs/errors.md, "Limits").
"""
import re
from collections.abc import Sequence
from typing import Protocol

from ..core import ids, tree
from ..core.errors import LawbookError
from ..core.model import Reading
from ..core.report import BuildLog
from ..reading.manifest import Source
from .structure import Fragment

MAX_ARTICLES = 20_000
MAX_NODES = 100_000
FIX = ("check the sources: no book has that many (the Laws have 93 articles), so they are not a book's law text "
       "(a generated or damaged export?); a book that really has more is built in parts, each from a sources "
       "folder of its own")


class Counted(Protocol):
    """What the two stages read of the corpus stages' context (stages.CorpusContext)."""
    sources: Sequence[Source]
    readings: list[Reading]
    fragments: list[Fragment]
    log: BuildLog


def _paths(ctx: Counted) -> dict[str, str]:
    """The path of each source by its name: the errors of a source name it by its path."""
    return {source.name: str(source.path) for source in ctx.sources}


def count_articles(ctx: Counted) -> None:
    """Reads: ctx.readings. Raises when an edition's article headings name more than MAX_ARTICLES articles
    (an article shown twice counts once), at the heading of the first past the bound."""
    seen: dict[str, set[str]] = {}
    paths, paged = _paths(ctx), ctx.log.paged()
    for reading in ctx.readings:
        articles = seen.setdefault(reading.edition, set())
        for block in reading.blocks:
            if block.kind != "article" or not block.cite:
                continue
            number = re.match(r"\d+", block.cite)
            articles.add(number.group() if number else block.cite)
            if len(articles) > MAX_ARTICLES:
                raise LawbookError(f"edition {reading.edition} has more than {MAX_ARTICLES:,} articles, the limit "
                                   f"for one edition: article {block.cite} here is one too many",
                                   file=paths.get(reading.file, reading.file), line=block.first_line, fix=FIX,
                                   paged=reading.file in paged)


def count_nodes(ctx: Counted) -> None:
    """Reads: ctx.fragments. Raises when an edition holds more than MAX_NODES nodes (articles, sections,
    subsections, items and sub-items; a node two sources show counts once), at the first past the bound."""
    seen: dict[str, set[str]] = {}
    paths, paged = _paths(ctx), ctx.log.paged()
    for fragment in ctx.fragments:
        nodes = seen.setdefault(fragment.edition, set())
        for article in fragment.articles:
            for el in article.iter(*tree.NODE_TAGS):
                nodes.add(tree.attr(el, "id"))
                if len(nodes) > MAX_NODES:
                    file, line = tree.first_line(el)
                    raise LawbookError(f"edition {fragment.edition} has more than {MAX_NODES:,} nodes (articles, "
                                       f"sections, subsections, items and sub-items), the limit for one edition: "
                                       f"{ids.display(tree.attr(el, 'id'))} here is one too many",
                                       file=paths.get(file or fragment.file, file or fragment.file), line=line,
                                       fix=FIX.replace("(the Laws have 93 articles)",
                                                       "(the Laws have some thousands of nodes)"),
                                       paged=(file or fragment.file) in paged)
