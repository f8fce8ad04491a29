"""The fragments built in this process, kept by the digest of the source's reading and lines and reused
where the evidence answers as it did (watch mode's memo).
"""
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from ...core import lang, report
from ...core.memo import Memo, digest as memo_digest
from ...core.model import Accounted, Placed, Reading
from ...core.report import BuildLog
from ...core.tree import Element
from ...reading.decode import Line
from .fragment import Fragment
from .evidence import AskedEvidence, Evidence
from .build import build_fragment


@dataclass(frozen=True)
class Built:
    """One fragment as the memo keeps it (fragment()): the answers of the evidence it was built with, its
    trees as XML, its ledger and node lines, the report entries it made and the text of each block after
    building (a list number kept as text is written into its block)."""
    cited: dict[str, tuple[tuple[str, int, str], ...]]  # AskedEvidence's answers
    texts_asked: dict[tuple[str, int], str | None]
    articles: tuple[bytes, ...]
    commentary: tuple[bytes, ...]
    definitions: tuple[bytes, ...]
    introduction: bytes | None
    second_introduction: bool
    ledger: dict[int, Placed | Accounted]
    # (tuples, not lists and sets: the memo's entries live long, and tuples of numbers and strings are no work
    # for the collector)
    node_lines: tuple[tuple[str, tuple[int, ...]], ...]
    no_lead_in: frozenset[str]
    entries: list[report.Entry]
    texts: tuple[str, ...]

    def holds(self, evidence: Evidence) -> bool:
        """Whether `evidence` gives every answer the building was given (for lines of other sources, the text)."""
        return all(tuple(evidence.citations(cite)) == found for cite, found in self.cited.items()) and \
            all(evidence.line_text(file, num) == text for (file, num), text in self.texts_asked.items())

    def fragment(self, file: str, edition: str) -> Fragment:
        """A new Fragment, its trees new elements (later stages change them)."""
        return Fragment(file, edition, [_element(x) for x in self.articles], [_element(x) for x in self.commentary],
                        [_element(x) for x in self.definitions],
                        _element(self.introduction) if self.introduction is not None else None,
                        self.second_introduction, dict(self.ledger),
                        {node: set(lines) for node, lines in self.node_lines}, set(self.no_lead_in))


# A text may be as long as a source allows: past libxml2's default limit on one text node.
_PARSER = etree.XMLParser(huge_tree=True, remove_blank_text=False, resolve_entities=False)


def _element(xml: bytes) -> Element:
    return etree.fromstring(xml, _PARSER)


def lines_digest(lines: Sequence[Line]) -> bytes:
    """The digest of a source's lines (file, number and text of each): part of the key of what is made of them."""
    return memo_digest([(line.file, line.num, line.text) for line in lines])


@lang.per_profile
def fragments(profile: lang.Profile) -> Memo[Built]:
    """The fragments built in this process, by the digest of the source's repaired reading and lines."""
    return Memo("structure")


def fragment(reading: Reading, lines_key: bytes, log: BuildLog, evidence: Evidence, paged: bool) -> Fragment:
    """build_fragment(), exactly, taken from the memo where the same repaired reading of the same lines was
    built before (`lines_key`: lines_digest() of the source's lines) and this edition's `evidence` answers
    each question that building asked as it was answered then; else built, and kept. `paged`: whether the
    report shows the source's lines as pages and lines (its file in log.paged())."""
    memo = fragments(evidence.profile)
    key = memo_digest(reading, lines_key, paged)
    known = memo.get(key)
    if known is not None and known.holds(evidence):
        memo.reused += 1
        for block, text in zip(reading.blocks, known.texts):
            block.text = text
        log.entries.extend(known.entries)  # (a report entry is never changed once made: shared)
        return known.fragment(reading.file, reading.edition)
    asking = AskedEvidence(evidence, reading.file)
    start = len(log.entries)
    made = build_fragment(reading, log, asking)
    memo.put(key, Built(asking.cited, asking.texts, tuple(etree.tostring(a) for a in made.articles),
                        tuple(etree.tostring(c) for c in made.commentary),
                        tuple(etree.tostring(d) for d in made.definitions),
                        etree.tostring(made.introduction) if made.introduction is not None else None,
                        made.second_introduction, dict(made.ledger),
                        tuple((node, tuple(lines)) for node, lines in made.node_lines.items()),
                        frozenset(made.no_lead_in), log.entries[start:], tuple(b.text for b in reading.blocks)))
    return made
