"""The evidence for an inferred number: the citations in the sources that confirm it.

Reads: the lines of an edition's sources, the book's language (its EVIDENCE_* patterns). Gives: Evidence, asked
by the article builder; AskedEvidence keeps every answer for the memo (memo.py).
"""
import re
from collections.abc import Iterable, Sequence


from ...core import ids, lang, report
from ...core.memo import Memo
from ...reading.decode import Line


# The words of an inferred node's evidence (its `evidence` attribute and its report entry) that say what it
# rests on: a level read from the indentation of its list number, and whether a citation confirms it. The
# fidelity check (corpus/fidelity/) reads them back with rests_on_indentation().
INDENTED = " indented {levels} level(s)"
CONFIRMED = "; confirmed by "
UNCONFIRMED = "; no citation in the sources confirms it"
_INDENTED = re.compile(r"\blist number (\d+)\." + re.escape(INDENTED).replace(r"\{levels\}", r"\d+"))


def rests_on_indentation(evidence: str) -> tuple[int, bool] | None:
    """Where an inferred node's evidence reads its level from the indentation of its list number: (the list
    number as written, whether no citation confirms it); None where its level is not read from indentation."""
    m = _INDENTED.search(evidence)
    if not m:
        return None
    return int(m.group(1)), evidence.endswith(UNCONFIRMED)


class Evidence:
    """Citations in the sources that confirm an inferred number.

    The lines are indexed once (citation -> lines citing it, line -> text), so a
    lookup costs the citations and article lines it touches, not all the
    edition's lines: building stays linear in the size of the sources. What cites
    and confirms is the book's language's (its profile's EVIDENCE_* patterns).
    """

    def __init__(self, lines: Iterable[Line], profile: lang.Profile) -> None:
        self.profile = profile
        self.rules = self.profile.rules
        self.text: dict[tuple[str, int], str] = {}  # (file, line) -> text
        self.citing: dict[str, list[tuple[str, int, str]]] = {}  # citation -> [(file, line, matched words)], in line order, first match per line
        for line in lines:
            text = line.text.replace("\u00a0", " ")
            self.text[(line.file, line.num)] = text
            seen = set()
            for m in _citing(self.profile).finditer(text):
                if m.group(1) not in seen:
                    seen.add(m.group(1))
                    self.citing.setdefault(m.group(1), []).append((line.file, line.num, m.group()))

    @classmethod
    def of_sources(cls, sources: Iterable[tuple[bytes, Sequence[Line]]], profile: lang.Profile) -> "Evidence":
        """The evidence of an edition's sources, given as (the digest of a source's lines, the lines) in the
        order of the book: each source's index taken from the memo of this process where the same lines were
        indexed before, and put together as one index of all their lines would be."""
        evidence = cls([], profile)
        memo = Evidence.memo(profile)
        for key, lines in sources:
            found = memo.get(key)
            if found is None:
                found = cls(lines, profile)
                memo.put(key, found)
            else:
                memo.reused += 1
            evidence.text.update(found.text)
            for cite, citing in found.citing.items():
                evidence.citing.setdefault(cite, []).extend(citing)
        return evidence

    @staticmethod
    @lang.per_profile
    def memo(profile: lang.Profile) -> "Memo[Evidence]":
        """Each source's evidence (its lines indexed) made in this process, by lines_digest()."""
        return Memo("evidence")

    def citations(self, cite: str) -> list[tuple[str, int, str]]:
        """The first three lines that cite `cite`: (file, line, the citing words)."""
        return self.citing.get(cite, [])[:3]

    def line_text(self, file: str, num: int) -> str | None:
        return self.text.get((file, num))

    def find(self, article_lines: "RelativePlaces | Iterable[tuple[str, int]]", node_id: str, level: str,
             num: str) -> list[str]:
        """The first three places that confirm node `node_id` (a `level` numbered `num`): the lines that cite
        it (citations()), then those of its showing, `article_lines` ((file, line) pairs, or the RelativePlaces
        a builder made of them once for all its nodes), that cite it relatively ("maar zie B", "C2 hierboven",
        "volgens (a)")."""
        if not isinstance(article_lines, RelativePlaces):
            article_lines = RelativePlaces(article_lines)
        edition, cite = ids.split_id(node_id)
        found = [f"'{words}' ({report.location(file, n)})" for file, n, words in self.citations(cite)]
        if len(found) >= 3:
            return found
        section = cite.lstrip("0123456789")[:1] if level == "subsection" else ""  # "50D2" -> "D"
        return (found + article_lines.of(self, level, section + num))[:3]


# What a relative citation may cite, per level, in the place of its number in the EVIDENCE_* patterns.
ANY_NUMBER = {"section": "([A-Z])", "subsection": "(\\d+)", "item": "([a-z]+)"}


class RelativePlaces:
    """The lines of one showing of an article, and the places in them that cite a number of it relatively
    (the profile's EVIDENCE_SECTION, _SUBSECTION, _ITEM patterns: "maar zie B", "C2 hierboven", "volgens
    (a)"), found for every number of a level in one pass over the lines when that level is first asked:
    asking for each node in turn was a pass per node, quadratic in a long list (10,000 subsections of one
    section took 334 s)."""

    def __init__(self, lines: Iterable[tuple[str, int]]) -> None:
        self.lines = sorted(set(lines))
        self.found: dict[str, dict[str, list[str]]] = {}  # level -> number ("B", "D2", "a") -> its places, in order

    def of(self, evidence: Evidence, level: str, number: str) -> list[str]:
        """The first three places of the showing that cite `number` (a section's letter, a subsection's section
        letter and number, an item's letter) relatively, quoted with the word before them."""
        kind = level if level in ("section", "subsection") else "item"
        if kind not in self.found:
            self.found[kind] = self._index(evidence, kind)
        return self.found[kind].get(number, [])

    def _index(self, evidence: Evidence, kind: str) -> dict[str, list[str]]:
        rules = evidence.rules
        if kind == "section":
            pattern, specific = rules.EVIDENCE_SECTION.format(num=ANY_NUMBER["section"]), rules.EVIDENCE_SECTION
        elif kind == "subsection":
            pattern = rules.EVIDENCE_SUBSECTION.format(section=ANY_NUMBER["section"], num=ANY_NUMBER["subsection"])
            specific = rules.EVIDENCE_SUBSECTION
        else:
            pattern, specific = rules.EVIDENCE_ITEM.format(num=ANY_NUMBER["item"]), rules.EVIDENCE_ITEM
        generic = re.compile(pattern)
        out: dict[str, list[str]] = {}
        for file, n in self.lines:
            text = evidence.line_text(file, n)
            if text is None:
                continue
            numbers = dict.fromkeys("".join(g for g in m.groups() if g) for m in generic.finditer(text))
            for number in numbers:
                places = out.setdefault(number, [])
                if len(places) >= 3:
                    continue
                # The words as the pattern of this very number finds them first on the line (as find() quoted
                # them when it searched each number's pattern).
                if kind == "subsection":
                    one = specific.format(section=number[0], num=number[1:])
                else:
                    one = specific.format(num=number)
                if (m := re.search(one, text)) is None:
                    continue
                # Quote the word before "(a)" too ("volgens (a)"); found by looking back from the
                # match, since a pattern starting with an optional word is slow on long lines.
                before = re.search(r"\w+\s+$", text[max(0, m.start() - 40):m.start()])
                places.append(f"'{before.group() if before else ''}{m.group()}' ({report.location(file, n)})")
        return out


class AskedEvidence(Evidence):
    """The evidence of an edition as the building of one source's fragment asks it: every answer is kept
    (the citations of each cited node; the text of a line of another source, where one is asked: the
    source's own lines are part of the fragment's key), so that a fragment built with these answers is
    known to be the fragment of any book that gives the same ones (fragment())."""

    def __init__(self, evidence: Evidence, file: str) -> None:  # (the index is the evidence's, not made again)
        self.evidence = evidence
        self.profile = evidence.profile
        self.rules = evidence.rules
        self.file = file
        self.cited: dict[str, tuple[tuple[str, int, str], ...]] = {}
        self.texts: dict[tuple[str, int], str | None] = {}

    def citations(self, cite: str) -> list[tuple[str, int, str]]:
        found = self.evidence.citations(cite)
        self.cited[cite] = tuple(found)
        return found

    def line_text(self, file: str, num: int) -> str | None:
        text = self.evidence.line_text(file, num)
        if file != self.file:
            self.texts[(file, num)] = text
        return text


@lang.compiled
def _citing(rules: lang.LanguageRules) -> re.Pattern[str]:
    """A citation in a source line, as Evidence indexes it (the citation in group 1)."""
    return re.compile(rules.EVIDENCE_CITING)
