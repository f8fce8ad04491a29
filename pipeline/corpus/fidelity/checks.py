"""The checks of fidelity (see __init__.py): one pass over an edition's law text, each finding an error or
an uncertain inference.
"""
import re
from collections import Counter
from collections.abc import Callable, Mapping

from ...core import ids, lang, tree
from ...core.model import Reading
from ...core.tree import Element
from ...reading.book.furniture import page_number
from ..structure import rests_on_indentation
from .forms import (BODY, COMPOUND, DASHED_FOLIO, FOLIO_BESIDE, Finding, Furniture, HYPHENATED, LAW_NODES, LOST_NOTES,
    MANY_INDENTED, NEAR, PARTS, Place, Run, SOFT_HYPHEN, SPLIT, Sources, holder_of, marker_forms, more,
    node_of, number_of, own_runs, shown, shown_end, template_markers, times)


class Check:
    """The checks over the editions of one corpus (check_fidelity)."""

    def __init__(self, sources: Sources, profile: lang.Profile, reported: set[Place],
                 vocabulary: Callable[[], set[str]], location: Callable[[str | None, int | None], str]) -> None:
        self.sources = sources
        self.profile = profile
        self.reported = reported  # (file, line) of every error the readers and stages before reported
        self.make_vocabulary = vocabulary
        self.location = location
        self.known: set[str] | None = None
        self.hyphenated: dict[str, str] | None = None
        # Check 4b, per edition: how often each form stands, joined or hyphenated ("nonoffending",
        # "non-offending"), and where each joined one stands (its text, part, owner, node)
        self.joined: Counter[str] = Counter()
        self.pending: list[tuple[str, str, Element, str | None]] = []
        self.conjunctions = frozenset(w.lower() for w in profile.rules.CONJUNCTIONS)
        # The words after which a list's entry follows on the next line ("…, of", "… en"): a line that ends in
        # one does not go on into the next.
        self.list_words = self.conjunctions | {w.lower() for w in profile.rules.LIST_WORDS}
        self.findings: list[Finding] = []
        self.holders: dict[Element, dict[str, list[Element]]] = {}  # article -> marker number -> its <p>s

    def add(self, kind: str, where: Place, message: str, node: str | None) -> Finding:
        if kind == "uncertain":
            kind, message = "inference", f"uncertain: {message}"
        found = Finding(kind, where[0], where[1], message, node)
        self.findings.append(found)
        return found

    @property
    def vocabulary(self) -> set[str]:
        """The book's word forms, lower-cased (repair.book_vocabulary), made when a check first asks."""
        if self.known is None:
            self.known = self.make_vocabulary()
        return self.known

    def edition(self, edition: Element, readings: list[Reading]) -> None:
        furniture = {r.file: Furniture.of(r, self.sources, self.profile) for r in readings}
        markers = 0  # check 1's forms in the edition's text
        first_marker: Finding | None = None
        for node in edition.iter(*LAW_NODES):
            node_id = node.get("id")
            for el in node.iterchildren(*PARTS):
                text = tree.plain_text(el)
                for note in el.iter("note"):
                    self.note(note, node_id)
                self.hyphens(el, text, PARTS[el.tag], node_id)
                if el.tag != "p":
                    continue
                found, count = self.markers(el, node_id)
                markers += count
                first_marker = first_marker or found
                self.body(el, text, node_id, holder_of(node))
                self.heads(el, text, node_id, furniture)
                self.folios(el, text, node_id, furniture)
        self.joined_findings()
        self.indentation(edition)
        if first_marker is not None and markers >= LOST_NOTES and edition.find(".//note") is None:
            self.add("error", (first_marker.file, first_marker.line),
                     f"edition {edition.get('id')} has no footnote at all, but {markers} footnote markers' forms stand "
                     f"in its text (the first in {first_marker.node}, at "
                     f"{self.location(first_marker.file, first_marker.line)}): the readers lost its footnotes",
                     first_marker.node)

    # -- 1. a marker's form --------------------------------------------------------------------------
    def markers(self, p: Element, node_id: str | None) -> tuple[Finding | None, int]:
        """Check 1 on a paragraph: (its first finding or None, how many forms it holds)."""
        found = [(text, form) for text in own_runs(p) for form in marker_forms(text, self.profile)]
        if not found:
            return None, 0
        text, form = found[0]
        where = self.sources.containing(p, text[form.start:form.end])
        what = (f"a word with the digit{'s' if len(form.glued) > 1 else ''} {form.glued} glued to it is a footnote "
                f"marker's form, never law text (the law writes a number apart from its word)"
                if form.glued.isdigit() else
                f"the sign {form.glued!r} glued to the word is a footnote marker's form, never law text (the law's "
                f"words carry no sign)")
        return self.add("error", where, f"{shown(form.token)!r} in the text of {node_id}: {what}; the readers did not "
                                        f"take it for a marker, so its footnote is lost or stands elsewhere as text"
                                        f"{more(len(found) - 1)}", node_id), len(found)

    # -- 2. a note without text, a footnote's body kept as law text ----------------------------------
    def note(self, note: Element, node_id: str | None) -> None:
        if tree.plain_text(note).strip():
            return
        sources = tree.parse_sources(note.get("sources"))
        if any((file, num) in self.reported for file, nums in sources.items() for num in nums):
            return  # its reader said so, at its line
        note_id = note.get("id") or node_id
        number = f" (numbered {note.get('num')})" if note.get("num") else ""
        self.add("error", tree.first_line(note),
                 f"{note_id} has no text: its marker{number} stands in the text of {node_id}, but the note says nothing "
                 f"(its footnote's text was not found, or the source's note is empty)", note_id)

    def body(self, p: Element, text: str, node_id: str | None, holder: Element) -> None:
        m = BODY.match(text)
        if not m:
            return
        where = tree.first_line(p)
        if where in self.reported:
            return  # a reader kept it so, and said so at its line
        label = m.group().strip()
        number = m.group(1) or m.group(2) or (number_of(m.group(3)) if m.group(3) else None)
        if m.group(1) and re.search(rf"\s{int(m.group(1)) + 1}\)\s", text):
            return  # "1) The process …. 2) The aggregate …": a definition's senses, a list in one paragraph
        marked = self.marked(holder, p, number) if number else None
        if marked is not None:
            self.add("error", where, f"{shown(text)!r} in {node_id} is a footnote's text kept as law text: it starts "
                                     f"with the footnote label {label!r}, and a marker {number} stands in the text of "
                                     f"{marked}; neither was read as a note", node_id)
        else:
            self.add("uncertain", where, f"{shown(text)!r} in {node_id} starts with {label!r}: a footnote's text kept "
                                         f"as law text, or a list entry numbered so; no marker"
                                         f"{' ' + number if number else ''} stands in the text of "
                                         f"{holder.get('id')}", node_id)

    def marked(self, holder: Element, body: Element, number: str) -> str | None:
        """The node in whose text (outside `body`) a marker `number` stands in `holder`, the article: check 1's
        forms ("leider1", "woord[1]", "woord¹") and the template's " 1)"."""
        found = self.holders.get(holder)
        if found is None:
            found = self.holders[holder] = {}
            for p in holder.iter("p"):
                for text in own_runs(p):
                    numbers = [n for form in marker_forms(text, self.profile) if (n := number_of(form.glued))]
                    numbers += template_markers(text)
                    for n in numbers:
                        found.setdefault(n, []).append(p)
        holding = next((p for p in found.get(number, ()) if p is not body), None)
        return node_of(holding) if holding is not None else None

    # -- 3. page furniture -------------------------------------------------------------------------
    def heads(self, p: Element, text: str, node_id: str | None, furniture: Mapping[str, Furniture]) -> None:
        """A running head or foot of the paragraph's sources in its text."""
        heads = sorted((at, head, what, line, file) for file in sorted(tree.parse_sources(p.get("sources")))
                       if file in furniture for at, head, what, line in furniture[file].heads_in(text))
        if not heads:
            return
        _, head, what, dropped, file = heads[0]
        where, alone = self.sources.line_of(p, lambda t: _alone(t, head))
        said = (f"{head!r} in the text of {node_id} is the {what} of the source's pages (dropped as page furniture "
                f"at {self.location(file, dropped)})")
        if alone:
            self.add("error", where, f"{said}, and stands alone on its line: page furniture read into the paragraph "
                                     f"at a page break the reader did not see; law text never holds it"
                                     f"{more(len(heads) - 1)}", node_id)
        else:
            self.add("uncertain", self.sources.containing(p, head),
                     f"{said}: page furniture read into the paragraph, or the words cited in the law's text"
                     f"{more(len(heads) - 1)}", node_id)

    def folios(self, p: Element, text: str, node_id: str | None, furniture: Mapping[str, Furniture]) -> None:
        """A page number's form in the paragraph's text: between dashes between words, or as the paragraph's
        sources print their page numbers."""
        if page_number(text.strip()) is not None:
            self.add("error", tree.first_line(p), f"the text of {node_id} is {text.strip()!r}, a page number alone: "
                                                  f"page furniture kept as a paragraph; law text never holds it",
                     node_id)
            return
        dashed = [m for m in DASHED_FOLIO.finditer(text)]
        if dashed:
            number = re.escape(re.sub(r"\D", "", dashed[0].group()))
            where = self.sources.line_of(p, lambda t: bool(re.search(rf"[-\u2013\u2014]\s?{number}\s?[-\u2013\u2014]", t)))[0]
            self.add("error", where, f"{dashed[0].group().strip()!r} in the text of {node_id} is a page number's form "
                                     f"inside a sentence: page furniture read into the paragraph at a page break the "
                                     f"reader did not see; law text never holds it{more(len(dashed) - 1)}", node_id)
        found = sorted((m.start(), m.group(), pattern, file, line)
                       for file in sorted(tree.parse_sources(p.get("sources"))) if file in furniture
                       for pattern, line in furniture[file].folios for m in pattern.finditer(text))
        if not found:
            return
        _, form, pattern, file, dropped = found[0]
        where, alone = self.sources.line_of(p, lambda t: bool(pattern.fullmatch(t.strip())))
        said = (f"{form!r} in the text of {node_id} is a page number's form inside a sentence, as the source prints "
                f"its page numbers ({self.location(file, dropped)})")
        if alone:
            self.add("error", where, f"{said}, alone on its line: page furniture read into the paragraph at a page "
                                     f"break the reader did not see; law text never holds it{more(len(found) - 1)}",
                     node_id)
        else:
            self.add("uncertain", self.sources.containing(p, form),
                     f"{said}: page furniture read into the paragraph, or the words of the law's text"
                     f"{more(len(found) - 1)}", node_id)

    # -- 4. a word split by a hyphen ---------------------------------------------------------------
    def hyphens(self, el: Element, text: str, part: str, node_id: str | None) -> None:
        """Check 4 on a paragraph, title or heading (its own words) and on each of its notes."""
        texts = [(text, part, el, node_id)] + [(tree.plain_text(n), "note", n, n.get("id") or node_id)
                                                for n in el.iter("note")]
        for words, what, owner, where_id in texts:
            if SOFT_HYPHEN in words:
                at = words.index(SOFT_HYPHEN)
                first, last = Run(words).token(at, at + 1)
                token = words[max(first, at - NEAR):min(last, at + NEAR)]
                self.add("error", self.sources.containing(owner, token),
                         f"a soft hyphen (U+00AD) in {shown(token)!r} in the {what} of {where_id}: an invisible "
                         f"hyphenation point left in the law text, which splits the word for search and comparison"
                         f"{more(words.count(SOFT_HYPHEN) - 1)}", where_id)
            if "- " in words:
                self.split_words(words, what, owner, where_id)
            self.joined_compounds(words, what, owner, where_id)

    @property
    def compounds(self) -> dict[str, str]:
        """{a hyphenated word of the book without its hyphens: that word} ("nonoffending": "non-offending")."""
        if self.hyphenated is None:
            self.hyphenated = {w.replace("-", ""): w for w in self.vocabulary if "-" in w.strip("-")}
        return self.hyphenated

    def joined_compounds(self, text: str, what: str, owner: Element, node_id: str | None) -> None:
        """Check 4b's candidates in one part's text: its compounds the book writes hyphenated elsewhere, and
        how often the edition writes each form; `joined_findings` weighs them once the edition is read."""
        for m in COMPOUND.finditer(text):
            word = m.group().lower()
            if word in self.compounds:
                self.joined[word] += 1
                self.pending.append((m.group(), what, owner, node_id))
        if "-" in text:
            for m in HYPHENATED.finditer(text):
                self.joined[m.group().lower()] += 1

    def joined_findings(self) -> None:
        """A compound written joined where the edition writes it with its hyphen more often ("nonoffending"
        and "non-offending"): an extraction that joins a word broken at a line's end drops the hyphen of a
        compound broken there too. Where the joined form is as common or more, it is the book's own
        spelling. Uncertain (a book may write a word both ways): kept as the source has it."""
        for word, what, owner, node_id in self.pending:
            hyphenated = self.compounds[word.lower()]
            joined, with_hyphen = self.joined[word.lower()], self.joined[hyphenated]
            if joined < with_hyphen:
                self.add("uncertain", self.sources.containing(owner, word),
                         f"{word!r} in the {what} of {node_id}: the edition writes {hyphenated!r} {times(with_hyphen)} "
                         f"and the word joined {times(joined)}; an extraction that joins a word broken at a line's "
                         f"end drops the hyphen of a compound broken there too; kept as the source has it", node_id)
        self.pending.clear()
        self.joined.clear()

    def split_words(self, text: str, what: str, owner: Element, node_id: str | None) -> None:
        found: list[tuple[str, str, str, str]] = []  # (kind, form, joined, hyphenated)
        for m in SPLIT.finditer(text):
            first, second = m.groups()
            if not second[0].islower() or second.lower() in self.conjunctions:
                continue
            joined, hyphenated = (first + second).lower(), f"{first}-{second}".lower()
            has_joined, has_hyphenated = joined in self.vocabulary, hyphenated in self.vocabulary
            if has_joined or has_hyphenated:
                found.append(("uncertain" if has_joined and has_hyphenated else "error", m.group(), joined, hyphenated))
        if not found:
            return
        kind, form, joined, hyphenated = found[0]
        said = f"{shown(form)!r} in the {what} of {node_id}"
        if kind == "uncertain":
            message = (f"{said}: the book writes both {joined!r} and {hyphenated!r}: a word split at a line end, or "
                       f"the hyphenated word with a space left after its hyphen")
        elif joined in self.vocabulary:
            message = (f"{said} is a word split by a line-end hyphen, the space left: the book writes {joined!r} "
                       f"elsewhere, never {hyphenated!r}")
        else:
            message = (f"{said} is a word split after its hyphen, the space left: the book writes {hyphenated!r} "
                       f"elsewhere, never {joined!r}")
        self.add(kind, self.sources.containing(owner, form), message + more(len(found) - 1), node_id)

    # -- 5. structure from indentation alone -------------------------------------------------------
    def indentation(self, edition: Element) -> None:
        """The nodes whose level rests on indentation alone and whose list number reads as a wrapped line's
        (wrapped()), per source: from MANY_INDENTED on an error, fewer uncertain; each source once."""
        found: dict[str, list[tuple[Element, int, str]]] = {}  # file -> (node, its line, why it reads wrapped)
        for node in edition.iter(*ids.LEVELS[1:]):
            if node.get("numbering") != "inferred":
                continue
            basis = rests_on_indentation(node.get("evidence") or "")
            if basis is None or not basis[1]:
                continue
            for file, nums in tree.parse_sources(node.get("sources")).items():
                why = self.wrapped(node, basis[0], file, min(nums))
                if why:
                    found.setdefault(file, []).append((node, min(nums), why))
        for file, nodes in found.items():
            node, line, why = nodes[0]
            what = f"{node.get('id')} ({node.get('evidence')!r}), whose {why}"
            if len(nodes) >= MANY_INDENTED:
                self.add("error", (file, line),
                         f"{len(nodes)} nodes of this source rest on its indentation alone, no citation confirming "
                         f"them, with list numbers that read as wrapped lines, the first {what}: lines indented "
                         f"because they wrap read as lists nested so, and the structure is made up", node.get("id"))
            else:
                self.add("uncertain", (file, line),
                         f"{what}: {'it rests' if len(nodes) == 1 else f'it and {len(nodes) - 1} more rest'} on the "
                         f"source's indentation alone, no citation confirming {'it' if len(nodes) == 1 else 'them'}: "
                         f"a line indented because it wraps, or a list nested so", node.get("id"))

    def wrapped(self, node: Element, number: int, file: str, line: int) -> str | None:
        """Why a node's list number reads as a line of wrapped text, or None: its number is not the next of its
        level (a wrapped line that starts with "16." under no item a–o), or the source line before it goes on
        into it (it ends in no punctuation and no list word, and is no heading)."""
        place = sum(1 for _ in node.itersiblings(node.tag, preceding=True)) + 1
        if number != place:
            return f"number {number} stands where the list's number {place} would"
        before = (self.sources.text(file, line - 1) or "").strip()
        if not before or before[-1] in ".:;!?)]\u2026\"'\u2019\u201d" or \
                before.split()[-1].lower() in self.list_words or self.labels(node, file, line - 1):
            return None
        return f"line goes on from the line before, which ends mid-sentence ({shown_end(before)!r})"

    def labels(self, node: Element, file: str, line: int) -> bool:
        """Whether `line` of `file` is the title or heading of an ancestor of `node` (or its previous sibling's)."""
        for el in [*node.iterancestors(*LAW_NODES), *node.itersiblings(node.tag, preceding=True)]:
            label = tree.label(el)
            if label is not None and line in tree.parse_sources(label.get("sources")).get(file, ()):
                return True
        return False


def _alone(line: str, head: str) -> bool:
    """A source line that holds the running head and nothing else (but a page number beside it)."""
    text = line.strip()
    if not (text.startswith(head) or text.endswith(head)):
        return False
    rest = text.replace(head, "", 1).strip()
    return not rest or bool(FOLIO_BESIDE.fullmatch(rest))
