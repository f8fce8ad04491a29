"""The book checks itself: what its own contents list promises is what the corpus holds.

Reads: the readings' contents blocks (each article's entry, each section's entry, with file and line),
the corpus, the fragments' ledgers (which lines are law text and which are kept apart) and the
readings' footnotes. Writes: an error in the report for each difference (an "uncertain" inference where
two readings fit), and one sentence per edition saying what was checked, for the build's closing line
(BookCheck.said).

Per edition:
  - an edition without any article or definition is an error: an empty book is never a success;
  - an edition most of whose text is kept apart (contents list, index, front and back matter) is an
    error: the readers did not find the law in it;
  - where the edition has a contents list: each article it names is in the corpus, with the sections it
    gives (by letter; a section the corpus has and the list lacks too); each article of the corpus is
    in the list; the article numbers run from 1 without a gap (a number neither the list nor the corpus
    has is a gap in both). The page numbers and footnote numbers are checked by the readers, which see
    the pages (reading/book/ends.py).
"""
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from lxml import etree

from ..core import ids, tree
from ..core.model import APART_KINDS, Accounted, Block, Line, Placed, Reading
from ..core.report import BuildLog, number_ranges
from .structure import APART, Fragment


@dataclass
class BookCheck:
    """What the check found, per edition: the counts, and the sentence the build closes with."""
    said: list[str] = field(default_factory=list)  # one sentence per edition
    differences: int = 0


def check_books(readings: list[Reading], fragments: list[Fragment], corpus: etree._Element,
                lines: Mapping[str, Sequence[Line]], log: BuildLog) -> BookCheck:
    """The stage's work (corpus/stages.py check_book)."""
    result = BookCheck()
    for edition in dict.fromkeys(r.edition for r in readings):
        edition_el = next((e for e in corpus.iterchildren("edition") if e.get("id") == edition), None)
        if edition_el is None:
            edition_el = corpus.makeelement("edition", {"id": edition})  # nothing of it was read: empty
        mine = [r for r in readings if r.edition == edition]
        before = sum(1 for e in log.entries if e.kind == "error")
        counts = _counts(edition_el, mine)
        _not_empty(edition, edition_el, mine, [f for f in fragments if f.edition == edition], lines, log, counts,
                   partial=any(r.gaps for r in mine))
        # Sources that lack pages of the book (a page run, pages missing between two) say so with a gap;
        # what the contents list promises of those pages is then missing text, not a misreading.
        partial = any(r.gaps for r in mine)
        contents = _contents(mine)
        if contents:
            _against_contents(edition, edition_el, contents, log, "gap" if partial else "error")
        found = sum(1 for e in log.entries if e.kind == "error") - before
        result.differences += found
        what = (f"{counts['articles']} articles, {counts['sections']} sections, {counts['definitions']} definitions, "
                f"{counts['footnotes']} footnotes" + (f" and {counts['signed']} note{'s' if counts['signed'] > 1 else ''} "
                                                      f"marked {' '.join(counts['signs'])}" if counts['signed'] else ""))
        if not contents:
            verdict = "no contents list to check them against"
        elif found:
            verdict = f"{found} difference(s) from the contents list and the book's numbering: see the report"
        elif partial:
            files = {r.file for r in mine}
            gaps = sum(1 for e in log.entries if e.kind == "gap" and e.file in files)
            verdict = f"as the contents list gives them where the sources have the pages; they lack pages of the " \
                      f"book ({gaps} gap(s) in the report)"
        else:
            verdict = "as the contents list gives them"
        result.said.append(f"{edition}: {what}: {verdict}")
    return result


class Counts(TypedDict):
    """What an edition holds, as the closing sentence gives it."""
    articles: int
    sections: int
    definitions: int
    footnotes: int
    signed: int  # the notes marked with a sign, each sign on each page once
    signs: list[str]


# An article's entries in the contents lists: its own (None where only its sections are listed), the file
# of the last entry read for it, and each section's entry and file by its letter.
Contents = dict[str, tuple[Block | None, str, dict[str, tuple[Block, str]]]]


def _counts(edition_el: etree._Element, readings: list[Reading]) -> Counts:
    # A footnote the book numbers through and cites twice counts once; any other note each time. Notes
    # a book marks with a sign ("*", "**", "†": a publisher's or a federation's own) are counted apart
    # from its numbered footnotes, each sign on each page once.
    notes = [(r.file, n) for r in readings for b in r.blocks if b.kind not in APART_KINDS for n in b.notes]
    footnotes = {(file, n.number) if n.form in ("print", "footnote") and n.number is not None else id(n)
                 for file, n in notes if not _signed(n.number)}
    signed = {(file, n.number, n.lines[-1]) for file, n in notes if _signed(n.number)}
    return {"articles": sum(1 for _ in edition_el.iter("article")),
            "sections": sum(1 for _ in edition_el.iter("section")),
            "definitions": sum(1 for _ in edition_el.iter("definition")),
            "footnotes": len(footnotes), "signed": len(signed),
            "signs": sorted({str(n) for _, n, _ in signed})}


def _signed(number: str | None) -> bool:
    """A note marked with a sign, not a number: "*", "**", "†"."""
    return bool(number) and not any(c.isdigit() for c in str(number))


APART_REASONS = tuple(re.sub(r"\{.*", "", APART[k]) for k in ("contents", "index", "front", "back"))


def _not_empty(edition: str, edition_el: etree._Element, readings: list[Reading], fragments: list[Fragment],
               lines: Mapping[str, Sequence[Line]], log: BuildLog, counts: Counts, partial: bool) -> None:
    first = next(((r.file, b.first_line) for r in readings for b in r.blocks), (readings[0].file, 1)) \
        if readings else ("", 0)
    if not counts["articles"]:
        log.add("error", first[0], first[1],
                f"edition {edition}: no article was found in its sources ({counts['definitions']} definitions): the "
                f"readers found none of the law's articles (are their pages in the sources? is the format right? "
                f"sources.toml may force one)")
        return
    # Measured in characters: a contents list is many short lines, the law fewer long ones.
    placed = apart = 0
    for fragment in fragments:
        size = {line.num: len(line.text.strip()) for line in lines.get(fragment.file, ())}
        for num, where in fragment.ledger.items():
            if isinstance(where, Placed):
                placed += size.get(num, 0)
            elif isinstance(where, Accounted) and where.reason.startswith(APART_REASONS):
                apart += size.get(num, 0)
    if apart > placed and not partial:  # (a page run beside the whole contents list is mostly list)
        log.add("error", first[0], first[1],
                f"edition {edition}: {apart} characters of its sources are kept apart as contents list, index, "
                f"front or back matter against {placed} of law text: most of the book was not read as law")


def _contents(readings: list[Reading]) -> Contents:
    """{article: (entry block, file, {section letter: (entry block, file)})} from every contents list."""
    out: Contents = {}
    for r in readings:
        for b in r.blocks:
            if b.kind != "contents" or not b.cite:
                continue
            m = re.fullmatch(r"(\d+)([A-Z]?)", b.cite)
            if not m:
                continue
            article, letter = m.groups()
            entry = out.setdefault(article, (None, r.file, {}))
            if letter:
                entry[2][letter] = (b, r.file)
            else:
                out[article] = (b, r.file, entry[2])
    return out


def _against_contents(edition: str, edition_el: etree._Element, contents: Contents, log: BuildLog, kind: str) -> None:
    """Each difference as `kind`: "error" where the sources hold the book whole, "gap" where they lack
    pages of it (what the list promises of those pages is missing text)."""
    articles = {tree.attr(a, "num"): a for a in edition_el.iter("article")}
    missing = []  # (number, file, line)
    for number, (entry, file, sections) in sorted(contents.items(), key=lambda kv: ids.sort_key(kv[0])):
        line = entry.first_line if entry is not None else next(iter(sections.values()))[0].first_line
        article = articles.get(number)
        if article is None:
            missing.append((number, file, line))
            continue
        have = {tree.attr(s, "num") for s in tree.child_nodes(article) if s.tag == "section"}
        listed = set(sections)
        if listed and have != listed:
            node = article.get("id")
            if listed - have:
                log.add(kind, file, line, f"the contents list gives {node} the sections "
                                             f"{', '.join(sorted(listed))}, but the corpus lacks "
                                             f"{', '.join(sorted(listed - have))}", node)
            if have - listed:
                src, first = tree.first_line(article)
                log.add("error", src, first, f"{node} has the sections {', '.join(sorted(have - listed))}, which the "
                                             f"contents list ({log.location(file, line)}) does not give", node)
    if missing:
        numbers = [int(n) for n, _, _ in missing if n.isdigit()]
        file, line = missing[0][1], missing[0][2]
        log.add(kind, file, line, f"the contents list names {len(missing)} article(s) that the corpus does not "
                                  f"hold: {number_ranges(numbers)} (the first at {log.location(file, line)}); their "
                                  f"pages are missing from the sources, or their headings were not read")
    for number, article in articles.items():
        if number not in contents:
            src, first = tree.first_line(article)
            log.add("error", src, first, f"{article.get('id')} is in the corpus but not in the book's contents list",
                    article.get("id"))
    known = {int(n) for n in set(contents) | set(articles) if n.isdigit()}
    if known:
        skipped = [n for n in range(1, max(known) + 1) if n not in known]
        if skipped:
            file, line = next(((f, e.first_line) for e, f, _ in contents.values() if e is not None), ("", 0))
            log.add(kind, file, line, f"the article numbers of edition {edition} skip "
                                         f"{number_ranges(skipped)}: neither the contents list nor the "
                                         f"corpus has them")
