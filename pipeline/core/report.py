"""The build report: every repair, inference, variant, conflict, gap and dropped line.

Every stage logs through a FileLog bound to one source file, so each entry names
the file and line. Kinds:
    repair     text changed (before -> after), e.g. a line-end hyphen joined
    damage     something wrong in the source that was left as written
    inference  numbering or structure not written in the source but derived
    variant    two sources give the same node in slightly different wording
    conflict   two sources disagree beyond wording: an error
    gap        text the law has but the sources lack (empty sections, cut-off pages)
    dropped    a source line that is not law text (page title, page number), with why
    error      a build error (unaccounted line, note without marker, …)

An entry quotes a bounded excerpt of the text, never all of it (docs/errors.md, limits): a `before` or
`after` over QUOTE_MAX characters keeps the change and CONTEXT characters either side of it, with
"…" where text is left out, and a message over MESSAGE_MAX characters keeps its start. The entry's
file and line say where the whole text stands. (Without the bound, a report grows with the square
of a source: each of a paragraph's 20,000 joins quoting the text built so far.)
"""
import json
from dataclasses import dataclass, fields
from collections.abc import Iterable
from pathlib import Path
from typing import TypedDict

QUOTE_MAX = 200  # the longest before/after quoted whole
CONTEXT = 50  # the text kept either side of a change in a longer one
MESSAGE_MAX = 1000  # the longest message kept whole
ELLIPSIS = "\u2026"

# A source read from a PDF's pages numbers its lines page * PAGE_LINE_STEP + the line's place on its page
# (reading/book/pdf.py); a location in it is shown as "book.pdf:p12:7", page 12, line 7 on it.
PAGED_FORMATS = ("pdf",)
PAGE_LINE_STEP = 1000

KINDS = ("repair", "damage", "inference", "variant", "conflict", "gap", "dropped", "error")
ERROR_KINDS = ("conflict", "error")


@dataclass
class Entry:
    kind: str
    file: str | None  # None: a node without sources (tree.first_line)
    line: int | None
    message: str
    node: str | None = None
    before: str | None = None
    after: str | None = None


FIELDS = [f.name for f in fields(Entry)]


class SourceRecord(TypedDict):
    """A source as the report names it."""
    file: str
    edition: str
    format: str
    origin: str
    lines: int
    encoding: str

# An entry in the report's JSON: the fields of Entry that are not None.
EntryRecord = dict[str, str | int]


class ReportData(TypedDict):
    """The report as JSON (report.json)."""
    sources: list[SourceRecord]
    summary: dict[str, int]
    entries: list[EntryRecord]


class BuildLog:
    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.sources: list[SourceRecord] = []  # per source: file, edition, format, encoding, lines

    def add(self, kind: str, file: str | None, line: int | None, message: str, node: str | None = None,
            before: str | None = None, after: str | None = None) -> None:
        assert kind in KINDS, kind
        if len(message) > MESSAGE_MAX:
            message = f"{message[:MESSAGE_MAX]}{ELLIPSIS} ({len(message) - MESSAGE_MAX:,} characters more)"
        if before is not None and len(before) > QUOTE_MAX or after is not None and len(after) > QUOTE_MAX:
            before, after = excerpts(before, after)
        self.entries.append(Entry(kind, file, line, message, node, before, after))

    def for_file(self, file: str) -> "FileLog":
        return FileLog(self, file)

    @property
    def errors(self) -> list[Entry]:
        return [e for e in self.entries if e.kind in ERROR_KINDS]

    def of_kind(self, kind: str) -> list[Entry]:
        return [e for e in self.entries if e.kind == kind]

    def summary(self) -> dict[str, int]:
        return {kind: len(self.of_kind(kind)) for kind in KINDS}

    def paged(self) -> set[str]:
        """The sources read from a PDF's pages: their line numbers are shown as page and line."""
        return {s["file"] for s in self.sources if s["format"] in PAGED_FORMATS}

    def location(self, file: str | None, line: int | None) -> str:
        """Where a line of a source is, as every message shows it: "file:12", a PDF's "file.pdf:p12:7"."""
        return location(file or "", line, file in self.paged())

    def to_json(self) -> ReportData:
        entries = sorted(self.entries, key=lambda e: (e.file or "", e.line or 0, KINDS.index(e.kind), e.message))
        paged = self.paged()
        out = []
        for e in entries:
            data = {k: v for k in FIELDS if (v := getattr(e, k)) is not None}
            if e.file in paged and e.line:  # `line` stays the number the corpus's sources give; page and line on it
                data["page"], data["line_on_page"] = divmod(e.line, PAGE_LINE_STEP)
            out.append(data)
        return {"sources": self.sources, "summary": self.summary(), "entries": out}

    def to_text(self, data: ReportData | None = None) -> str:
        data = data or self.to_json()
        out = ["Build report", "============", ""]
        out.append("  ".join(f"{k}: {v}" for k, v in data["summary"].items()))
        by_file: dict[str | int | None, list[EntryRecord]] = {}
        for e in data["entries"]:
            by_file.setdefault(e["file"], []).append(e)
        for src in data["sources"]:
            name = src["file"]
            shown = shown_name(name)
            out += ["", f"{shown}  ({src['format']}, edition {src['edition']}, {src['encoding']}, "
                        f"{src['lines']} lines)", "-" * len(shown)]
            for e in by_file.get(name, []):
                line = f"line {e['line']}" if e.get("line") else "file"
                if "page" in e:
                    line = shown_line(int(e["line"]), True)
                node = f" [{e['node']}]" if e.get("node") else ""
                out.append(f"  {line:>9}  {e['kind']:<9}{node} {e['message']}")
                if "before" in e or "after" in e:
                    out.append(f"{'':22}{e.get('before', '')!r} -> {e.get('after', '')!r}")
        return "\n".join(out) + "\n"

    def write(self, folder: Path) -> None:
        data = self.to_json()
        (folder / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (folder / "report.txt").write_text(self.to_text(data), encoding="utf-8")


def shown_line(line: int, paged: bool) -> str:
    """A line number as shown: "12"; in a PDF source "p12:7" (page 12, line 7), "p12" for the page itself."""
    if not paged:
        return str(line)
    page, row = divmod(line, PAGE_LINE_STEP)
    return f"p{page}:{row}" if row else f"p{page}"


def location(file: str, line: int | None, paged: bool = False) -> str:
    """A location as shown: "file", "file:12", a PDF source's "file.pdf:p12:7" (paged); the file as
    shown_name shows it."""
    file = shown_name(file)
    return f"{file}:{shown_line(line, paged)}" if line else file


def shown_name(name: str) -> str:
    """A file name (or path) as a text for people shows it (report.txt, the terminal, the editor's page):
    as it is when every character of it is printable and it neither starts nor ends with a space;
    otherwise quoted, with each character that is not printable as its escape, as Python writes a
    string: 'mijn bron.txt' stays as it is, ' bron.txt' and 'a\tb.txt' are shown in quotes, and a line
    break in a name is "\n", never a line of its own."""
    if name.isprintable() and name == name.strip():
        return name
    return repr(name)


def shown_place(place: str) -> str:
    """A "file:line" of the references (refs.Reference.locations) as location() shows it."""
    file, _, line = place.rpartition(":")
    return f"{shown_name(file)}:{line}" if file and line.isdigit() else shown_name(place)


def excerpts(before: str | None, after: str | None) -> tuple[str | None, str | None]:
    """`before` and `after` cut to where they differ with CONTEXT characters either side (a change of
    over 2 * CONTEXT characters keeps its two ends); "…" stands where text is left out. One of the two
    alone is cut to its first QUOTE_MAX characters."""
    if before is None or after is None:
        return _first(before), _first(after)
    shorter = min(len(before), len(after))
    same = _common_length(before, after, shorter)
    # The common end, not reaching into the common start.
    end = _common_length(before[::-1], after[::-1], shorter - same)
    return _excerpt(before, same, end), _excerpt(after, same, end)


def _first(text: str | None) -> str | None:
    """`text` cut to its first QUOTE_MAX characters."""
    return text if text is None or len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + ELLIPSIS


def _common_length(a: str, b: str, most: int) -> int:
    """The length of the common start of a and b, at most `most`: halving by slices compared in C."""
    low, high = 0, most
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _excerpt(text: str, same: int, end: int) -> str:
    """`text` whose first `same` and last `end` characters are unchanged, cut around the rest."""
    if len(text) <= QUOTE_MAX:
        return text
    head, changed, tail = text[:same], text[same:len(text) - end], text[len(text) - end:]
    if len(head) > CONTEXT:
        head = ELLIPSIS + head[-CONTEXT:]
    if len(changed) > 2 * CONTEXT:
        changed = changed[:CONTEXT] + ELLIPSIS + changed[-CONTEXT:]
    if len(tail) > CONTEXT:
        tail = tail[:CONTEXT] + ELLIPSIS
    return head + changed + tail


class FileLog:
    """The log seen from one source file."""

    def __init__(self, log: BuildLog, file: str) -> None:
        self.log = log
        self.file = file

    def place(self, line: int) -> str:
        """A line of this file as messages show it: "12", or in a PDF source "p12:7" (shown_line)."""
        return shown_line(line, self.file in self.log.paged())

    def repair(self, line: int | None, what: str, before: str | None, after: str | None,
               node: str | None = None) -> None:
        self.log.add("repair", self.file, line, what, node, before, after)

    def damage(self, line: int | None, message: str, what_done: str, node: str | None = None) -> None:
        self.log.add("damage", self.file, line, f"{message}; {what_done}", node)

    def inference(self, line: int | None, node: str | None, message: str) -> None:
        self.log.add("inference", self.file, line, message, node)

    def gap(self, line: int | None, node: str | None, message: str) -> None:
        self.log.add("gap", self.file, line, message, node)

    def dropped(self, line: int | None, reason: str) -> None:
        self.log.add("dropped", self.file, line, reason)

    def error(self, line: int | None, message: str, node: str | None = None) -> None:
        self.log.add("error", self.file, line, message, node)


def number_ranges(numbers: Iterable[int]) -> str:
    """[1, 2, 3, 7] -> '1-3, 7': numbers as a report names them."""
    out: list[list[int]] = []
    for n in sorted(numbers):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in out)
