"""Reuse of the previous build's pages: an edition's folder html/<edition>/ is copied from the last
build when rendering it would give the same bytes (PreviousBuild).

Reads: job.previous (the last build's digests and corpus.xml), the Site (model.py). Writes: html/<edition>/,
copied, through job.previous.reuse.
"""
from typing import TYPE_CHECKING

from lxml import etree

from ...core.view import optional_id

if TYPE_CHECKING:
    from ..job import Job
    from .model import Site

class PreviousBuild:
    """What write_html may take from the last build (job.previous).

    html/<edition>/ depends on that edition's content, on the edition in force (named on the pages of
    the older ones), and, through the links to the same article in the other editions, on which
    article numbers the other editions have text for. The folder is copied when the edition is
    unchanged (job.previous: same content digest), the book has the same editions, and those numbers
    are the same as when the previous build was made; otherwise it is rendered. The numbers of an
    edition whose digest is unchanged are known to be the same; for a changed one they are read from
    the previous corpus.xml (once, only then)."""

    def __init__(self, job: "Job", site: "Site") -> None:
        self.previous, self.site = job.previous, site
        self.usable = job.previous.available and job.previous.has("html")
        self._numbers: dict[str | None, set[str | None]] | None = None  # read when first needed; {} when the previous corpus cannot be read

    def numbers(self, edition: str) -> set[str]:
        """Article numbers with text in `edition`, now."""
        return {p.num for p in self.site.articles.get(edition, []) if p.element is not None}

    def previous_numbers(self) -> dict[str | None, set[str | None]] | None:
        """edition -> article numbers with text, in the previous build (from its corpus.xml); None
        when that cannot be read (then nothing is reused that depends on it)."""
        if self._numbers is None:
            from ..serialise import parse_xml

            path = self.previous.corpus_file()
            try:
                corpus = parse_xml(path.read_bytes()) if path is not None else None
                self._numbers = {optional_id(ed): {a.get("num") for a in ed.iterchildren("article")}
                                 for ed in corpus.iterchildren("edition")} if corpus is not None else {}
            except (OSError, etree.XMLSyntaxError):
                self._numbers = {}
        return self._numbers or None

    def links_unchanged(self, edition: str, stamp: dict[str, str]) -> bool:
        """Whether each other edition has text for the same of this edition's article numbers as before."""
        own = self.numbers(edition)
        for other in set(stamp) | set(self.site.editions):
            if other == edition:
                continue
            now = self.numbers(other) & own
            if other in stamp and other in self.site.editions and stamp[other] == self.previous.digest(other):
                continue  # an unchanged edition has the same numbers
            before = self.previous_numbers()
            if before is None or before.get(other, set()) & own != now:
                return False
        return True

    def reuse(self, edition: str) -> bool:
        """Copy html/<edition>/ from the previous build when that gives what rendering would; True if so."""
        if not self.usable:
            return False
        stamp = self.previous.digests()
        if stamp.get(edition) is None or stamp[edition] != self.previous.digest(edition):
            return False  # changed: reuse would say so too, without the link check's cost
        if set(stamp) != set(self.site.editions):
            return False  # an edition came or went: which one is in force (the banner of every older one) may differ
        return self.links_unchanged(edition, stamp) and self.previous.reuse(edition, [f"html/{edition}"])

