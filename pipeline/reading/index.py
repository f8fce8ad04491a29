"""The book's index read into entries: a headword, its citations and cross-references, and its sub-entries.

An index page lists headwords in alphabetical order, each followed by its citations ("12C1(d), 12C2, 86B2",
"Definitions", "93 footnote"), a "See"/"See also" cross-reference to another headword, and sub-entries, each a
label and its citations. The extraction of a printed index damages that layout in three ways, and each is read by a
general rule, never by where a line breaks in one file:

- glued: a headword and all its sub-entries on one line. A citation list ends one label; the words after it begin
  the next sub-entry. The headword is the line's first label; where that label is a run of capitalised words and
  then lower-case ones ("Card Cannot be found 14A2"), the last capitalised word begins the first sub-entry.
- wrapped: a label or a citation list broken onto the next line. A line that does not begin with a capital (a
  lower-case word, a quote) or holds citations only continues the line before.
- one sub-entry a line: a line is a headword's only when it keeps the index's alphabetical order; a line whose
  initial letter breaks the order of the initial letters around it ("Captain 92A" between "Appeal" and
  "Arrangement Of Tables"), that sorts before the headword above it, or whose label ends with a small word
  ("Time of 92B") is a sub-entry of the headword above. Each such reading is logged.

The reader knows no Law: citations are kept as the words the book wrote; corpus/register.py reads them into IDs.
Nothing is dropped silently: every line is in an entry or in a finding with its line number.
"""
import bisect
import re
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from ..core.lang import LanguageRules

# A citation as an index writes it: a Law's number and its parts, "12C1(d)", "40B2(a)(iii)", "93C3(a)".
CITATION = re.compile(r"\d{1,3}(?:[A-Z](?:\d{1,2}(?:[a-z]|\([a-zA-Z]\))?(?:\([ivx]+\))?)?)?")


@dataclass
class Cited:
    """One citation as the index writes it: "12C1(d)", "Definitions", "93 footnote"."""
    words: str
    line: int


@dataclass
class SubEntry:
    label: str
    cites: list[Cited] = field(default_factory=list)
    see: list[str] = field(default_factory=list)  # the words naming the headword it sends the reader to
    lines: list[int] = field(default_factory=list)


@dataclass
class Entry:
    headword: str
    cites: list[Cited] = field(default_factory=list)
    see: list[str] = field(default_factory=list)
    note: str | None = None
    subs: list[SubEntry] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


@dataclass
class Finding:
    """What the reader inferred (kind "inference"), could not decide ("uncertain") or could not read ("unread")."""
    kind: str
    line: int
    message: str


# A cross-reference read but not yet resolved: (entry, holder, the words after "See", the citations after them,
# whether it stood right after the headword's label).
Pending = tuple[Entry, Entry | SubEntry, str, list[Cited], bool]


@dataclass
class IndexReading:
    entries: list[Entry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # The cross-references read but not yet resolved: empty once read_index returns.
    pending: list[Pending] = field(default_factory=list, repr=False)


@dataclass
class _Logical:
    """One entry's line as the book set it: the source lines it was joined from, and its text."""
    lines: list[int]
    text: str


def _words_pattern(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _sort_key(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def _is_cite_token(token: str, places: Container[str]) -> bool:
    bare = token.rstrip(",")
    return bool(CITATION.fullmatch(bare)) or bare in places


def _continues(text: str, places: Container[str]) -> bool:
    """Whether a line continues the one before: it starts with no capital, or it holds citations only."""
    if not text[:1].isupper():
        return True
    return all(_is_cite_token(t, places) for t in text.split())


class _Reader:
    def __init__(self, rules: LanguageRules) -> None:
        self.places = dict(rules.INDEX_PLACES)
        self.small = frozenset(rules.HEADING_SMALL_WORDS)
        self.see = re.compile(rf"(?<!\S)(?:{_words_pattern(rules.INDEX_SEE)})(?!\S)")
        self.footnote = re.compile(rf"\s+(?:{_words_pattern(rules.INDEX_FOOTNOTE)})(?![\w])")
        self.note = rules.INDEX_NOTE
        self.continued = [re.compile(rf"\s*{c}\s*") for c in rules.INDEX_CONTINUED]
        self.findings: list[Finding] = []

    # -- lines to logical lines -------------------------------------------------------------------------
    def logical(self, lines: list[tuple[int, str]]) -> list[_Logical]:
        out: list[_Logical] = []
        for num, raw in lines:
            text = " ".join(raw.split())
            if not text:
                continue
            if out and _continues(text, self.places):
                out[-1].lines.append(num)
                out[-1].text += " " + text
                self.findings.append(Finding("inference", num, f"{text[:40]!r} continues the entry of line "
                                             f"{out[-1].lines[0]} (a line that starts with no capital or holds "
                                             f"citations only)"))
            else:
                out.append(_Logical([num], text))
        return out

    # -- one logical line into labels and citation lists -------------------------------------------------
    def segments(self, text: str) -> list[tuple[str, list[str]]]:
        """(label, citations) in order: each label with the citation list that follows it (maybe none)."""
        text = self.footnote.sub(lambda m: "\u00a0" + m.group().strip().replace(" ", "\u00a0"), text)
        tokens = text.split(" ")
        out: list[tuple[str, list[str]]] = []
        label: list[str] = []
        cites: list[str] = []
        for n, token in enumerate(tokens):
            head = token.split("\u00a0")[0]
            after = tokens[n + 1] if n + 1 < len(tokens) else ""
            # A place word begins a label when lower-case words follow it ("Introduction to bidding 3").
            place_label = head.rstrip(",") in self.places and after[:1].islower()
            if _is_cite_token(head, self.places) and not place_label and (label or cites or not out) and \
                    not (head.rstrip(",") in self.places and not label and not cites and not out):
                cites.append(token.rstrip(",").replace("\u00a0", " "))
            else:
                if cites:
                    out.append((" ".join(label), cites))
                    label, cites = [], []
                label.append(token.replace("\u00a0", " "))
        if label or cites:
            out.append((" ".join(label), cites))
        return out

    def _capitalised_run(self, words: list[str]) -> int:
        """How many words from the start are a title: capitalised words and small words between them, a
        bracketed group kept whole ("Imp (International Matchpoint)")."""
        n, end, depth = 0, 0, 0
        for i, w in enumerate(words):
            if depth or w[:1] == "(":
                depth += w.count("(") - w.count(")")
                n = i + 1
                end = n if depth <= 0 else end
                depth = max(depth, 0)
                continue
            bare = w.strip(",\"'")
            if bare[:1].isupper():
                n = end = i + 1
            elif bare in self.small:
                n = i + 1
            else:
                break
        return end

    def split_head(self, label: str, cited: bool = False) -> tuple[str, str | None]:
        """A line's first label: the headword and the first sub-entry's label glued to it, if any. `cited`:
        citations follow the label (after a "See" target they are a sub-entry's: "Oar See Paddle Blade 3")."""
        # After a "See" only its target can be split off ("Disclosure Alert See Alert Explanation of calls").
        see = list(self.see.finditer(label))
        pre = label[:see[-1].end()] + " " if see else ""
        words = label[len(pre):].split()
        run = self._capitalised_run(words)
        if 1 < run < len(words) or (see and cited and 1 < run == len(words)):
            return pre + " ".join(words[:run - 1]), " ".join(words[run - 1:])
        return label, None


def _first_word(text: str) -> str:
    return _sort_key(text.split()[0]) if text.split() else ""


def _letter_order(keys: list[str]) -> set[int]:
    """The positions of the longest run of keys whose initial letters never go down (a longest non-decreasing
    subsequence): the headwords; a line off it breaks the index's alphabetical order."""
    tails: list[str] = []
    tail_at: list[int] = []
    back: list[int] = [-1] * len(keys)
    for i, k in enumerate(keys):
        letter = k[:1]
        j = bisect.bisect_right(tails, letter)
        if j == len(tails):
            tails.append(letter)
            tail_at.append(i)
        else:
            tails[j] = letter
            tail_at[j] = i
        back[i] = tail_at[j - 1] if j else -1
    keep, i = set(), tail_at[-1] if tail_at else -1
    while i >= 0:
        keep.add(i)
        i = back[i]
    return keep


def read_index(lines: list[tuple[int, str]], rules: LanguageRules) -> IndexReading:
    """The entries of an index from its lines (line number, text) without page furniture, read with the words
    of a language profile's `rules` (INDEX_TITLE, INDEX_SEE, INDEX_PLACES, INDEX_FOOTNOTE, INDEX_NOTE,
    INDEX_CONTINUED, HEADING_SMALL_WORDS)."""
    reader = _Reader(rules)
    logical = reader.logical(lines)
    # An entry continued on the next page: the marker line says nothing more; the next starts with its headword.
    continued_from: dict[int, str] = {}
    parsed: list[tuple[_Logical, list[tuple[str, list[str]]], str | None]] = []
    # The index's title and the sentences under it (a byline: no citation, no note) before the first entry are
    # no entries.
    def heads_index(text: str) -> bool:
        return bool(re.match(rules.INDEX_TITLE, text)) or (text.endswith(".") and reader.note not in text and not any(
            _is_cite_token(t, reader.places) for t in text.split()))
    while logical and heads_index(logical[0].text):
        title = logical.pop(0)
        reader.findings.append(Finding("inference", title.lines[0], f"{title.text[:60]!r} heads the index: no entry"))
    for k, item in enumerate(logical):
        note = None
        if reader.note in item.text:
            item.text, _, rest = item.text.partition(reader.note)
            note = reader.note + rest
            item.text = item.text.rstrip()
        for pattern in reader.continued:
            m = pattern.search(item.text)
            if m:
                continued_from[k] = item.text[:m.start()].strip()
                item.text = (item.text[:m.start()] + " " + item.text[m.end():]).strip()
                break
        parsed.append((item, reader.segments(item.text), note))
    heads = [reader.split_head(segs[0][0], bool(segs[0][1]))[0] if segs else "" for _, segs, _ in parsed]
    keys = [_sort_key(h) for h in heads]
    in_order = _letter_order(keys)
    result = IndexReading(findings=reader.findings)
    entries = result.entries
    two_readings: list[Entry] = []  # title-case headwords with citations of their own, then sub-entries
    for k, (item, segs, note) in enumerate(parsed):
        first = item.lines[0]
        if not segs:
            if k in continued_from and entries and _sort_key(continued_from[k]) == _sort_key(entries[-1].headword):
                entries[-1].lines += item.lines
                continue
            result.findings.append(Finding("unread", first, f"{item.text!r} holds no entry"))
            continue
        label = segs[0][0]
        last_word = label.split()[-1] if label.split() else ""
        why = None
        if entries and k not in in_order:
            why = "its initial letter breaks the alphabetical order of the headwords around it"
        elif entries and len(segs) == 1 and _first_word(heads[k]) < _first_word(entries[-1].headword):
            why = f"its first word sorts before the headword {entries[-1].headword!r} above it"
            result.findings.append(Finding("uncertain", first, f"{label!r} may be a headword out of the index's "
                                                               f"order: read as a sub-entry"))
        elif entries and len(segs) == 1 and last_word in reader.small:
            why = f"its label ends with the small word {last_word!r}"
        if note and entries and (why or k in continued_from):  # a remark on a line that adds to the entry above
            entries[-1].note = f"{entries[-1].note} {note}" if entries[-1].note else note
        if k in continued_from and entries and _sort_key(continued_from[k]) == _sort_key(entries[-1].headword):
            entry = entries[-1]
            result.findings.append(Finding("inference", first, f"{entry.headword!r} continued from the page before"))
            entry.lines += item.lines
            _fill(reader, entry, [("", [])] + segs[1:] if not segs[0][1] else [("", segs[0][1])] + segs[1:],
                  item, result, sub_first=segs[0][0].replace(entry.headword, "", 1).strip() or None)
            continue
        if why:
            entry = entries[-1]
            entry.lines += item.lines
            result.findings.append(Finding("inference", first, f"{label!r} is a sub-entry of {entry.headword!r}: "
                                                               f"{why}"))
            _fill(reader, entry, [("", [])] + segs, item, result)
            continue
        head, sub = reader.split_head(label, bool(segs[0][1]))
        entry = Entry(head, note=note, lines=list(item.lines))
        entries.append(entry)
        if sub is not None:
            result.findings.append(Finding("inference", first, f"{label!r} read as the headword {head!r} and the "
                                                               f"sub-entry {sub!r} (a capitalised word before "
                                                               f"lower-case ones begins a sub-entry)"))
        _fill(reader, entry, [(sub or "", segs[0][1])] + segs[1:], item, result)
        if sub is None and len(head.split()) > 1 and len(segs) > 1 and \
                any(CITATION.fullmatch(c) for c in segs[0][1]) and reader.see.search(head) is None:
            # "Options Advantageous 10C3, 10C4 Choice among 10C2": a one-word sub-entry reads like the last
            # word of a title-case headword.
            two_readings.append(entry)
    _resolve_see(result, reader)
    _merge_self_references(result)
    # A headword another entry names (in a See, or as its own headword's start) is confirmed whole.
    named = {_sort_key(t) for e in entries for t in e.see}
    named |= {_sort_key(t) for e in entries for s in e.subs for t in s.see}
    named |= {_sort_key(s.label) for e in entries for s in e.subs}
    for entry in two_readings:
        if _sort_key(entry.headword) not in named:
            result.findings.append(Finding("uncertain", entry.lines[0], f"{entry.headword!r} read as one headword "
                                           f"with citations of its own; its last word may begin a sub-entry"))
    return result


def _merge_self_references(result: IndexReading) -> None:
    """A headword cannot send the reader to itself: a line read as "Revoke See Revoke …" is a sub-entry of the
    entry above whose line broke before it (a wrapped run of sub-entries), and its sub-entries are that entry's."""
    kept: list[Entry] = []
    for entry in result.entries:
        own = [t for t in entry.see if _sort_key(t) == _sort_key(entry.headword)]
        if own and kept:
            above = kept[-1]
            above.subs.append(SubEntry(entry.headword, cites=entry.cites, see=entry.see, lines=entry.lines[:1]))
            above.subs += entry.subs
            above.lines += entry.lines
            result.findings.append(Finding("inference", entry.lines[0], f"{entry.headword!r} sends the reader to "
                                           f"itself, so it is no headword: a sub-entry of {above.headword!r}"))
        else:
            kept.append(entry)
    result.entries[:] = kept


def _fill(reader: _Reader, entry: Entry, segs: list[tuple[str, list[str]]], item: _Logical,
          result: IndexReading, sub_first: str | None = None) -> None:
    """Add a line's labels and citations to `entry`: the first segment's citations are the headword's own when
    its label is empty, every later label begins a sub-entry. A "See" in a label sends the reader from the
    label before it (or, with none, from the entry or sub-entry just read); the words after it and the
    citations that follow are kept raw and resolved once every headword is known (_resolve_see)."""
    for n, (label, cites) in enumerate(segs):
        cited = [Cited(c, item.lines[0]) for c in cites]
        text = sub_first if (n == 0 and sub_first) else label
        m = reader.see.search(text) if text else None
        before = text[:m.start()].strip() if m else text
        holder: Entry | SubEntry
        if before:
            holder = SubEntry(before, lines=[item.lines[0]])
            entry.subs.append(holder)
        else:
            holder = entry.subs[-1] if (m and entry.subs) else entry
        if m:
            result.pending.append((entry, holder, text[m.end():].strip(), cited, False))
        else:
            holder.cites += cited
    # The headword's own "See": "Agreement See Partnership Understanding".
    m = reader.see.search(entry.headword)
    if m:
        result.pending.append((entry, entry, entry.headword[m.end():].strip(), [], True))
        entry.headword = entry.headword[:m.start()].strip()


def _resolve_see(result: IndexReading, reader: _Reader) -> None:
    """A "See" target is followed by the next sub-entry's label on a glued line ("See also Adjusted Score
    Assessment of 10"): the target is the longest run of its words that names a headword (or the part of a
    headword before its comma); where none does, the capitalised run, logged as uncertain."""
    names: set[str] = set()
    for e in result.entries:
        names.add(_sort_key(e.headword))
        names.add(_sort_key(e.headword.split(",")[0]))
    own: list[tuple[Entry, str]] = []  # a See right after the headword's label, and its target
    for entry, holder, raw, cited, right_after in result.pending:
        words = raw.split()
        cut = next((n for n in range(len(words), 0, -1) if _sort_key(" ".join(words[:n])) in names), None)
        if cut is None:
            # The capitalised run is the target; when lower-case words or citations follow it, its last word
            # begins the next sub-entry ("See Paddle Blade 3": "Paddle", and "Blade 3").
            run = reader._capitalised_run(words) or len(words)
            cut = run - 1 if run > 1 and (run < len(words) or cited) else run
            # Where the target ends is read from the capitals alone.
            result.findings.append(Finding("uncertain", holder.lines[0], f"'See {raw}' names no headword: "
                                           f"the target read as {' '.join(words[:cut])!r}"))
        holder.see.append(" ".join(words[:cut]))
        if right_after:
            own.append((entry, " ".join(words[:cut])))
        rest = " ".join(words[cut:])
        if rest:
            # The words after the target begin the next sub-entry, and the citations after them are its own.
            sub = SubEntry(rest, cites=cited, lines=list(holder.lines[:1]))
            position = entry.subs.index(holder) + 1 if isinstance(holder, SubEntry) else 0
            if holder is entry:
                position = len([s for s in entry.subs if s.lines[0] < holder.lines[0]])
            entry.subs.insert(position, sub)
        else:
            holder.cites += cited
    # A headword's label that ends with the target of the See right after it: "Disclosure Alert See Alert" is
    # the headword "Disclosure" and its sub-entry "Alert", which sends the reader to "Alert".
    for entry, target in own:
            if entry.headword.lower().endswith(" " + target.lower()):
                whole = entry.headword
                entry.headword = entry.headword[:-len(target)].strip()
                entry.see.remove(target)
                entry.subs.insert(0, SubEntry(target, see=[target], lines=entry.lines[:1]))
                result.findings.append(Finding("inference", entry.lines[0], f"{whole!r} read as the headword "
                                               f"{entry.headword!r} and the sub-entry {target!r}, which the See "
                                               f"after it names"))
    result.pending.clear()
