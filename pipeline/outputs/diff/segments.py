"""The redline of one node pair: its words, label and notes as segments (kept, inserted, deleted, changed in
form only), and its tables compared row by row.

Reads: the elements of a node pair (never changed). Gives: lists of segment dicts, the comparison's JSON as is.
"""
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any, Protocol

from . import words as w
from ...core import tree
from ...core.tree import Element
from ...core.view import element_id

# One segment of the redline, as the comparison's JSON holds it: {"op", "text"} (op equal, delete, insert,
# moved-out with "to", form with "old"), {"op": "note", …} or {"op": "moved-in", …}.
Segment = dict[str, Any]
# A table compared row by row, and one row of it (table_diff).
TableDiff = dict[str, Any]
RowKey = tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...]


class NodePair(Protocol):
    """What segments() asks of compare.NodePair (not imported: compare imports this module): the sentences
    that moved out of its old text and into its new."""
    @property
    def old_tokens(self) -> Sequence[w.Token]: ...

    @property
    def moved_out(self) -> Mapping[int, str | None]: ...  # old sentence index -> where it went (citation)

    @property
    def moved_in(self) -> Mapping[int, tuple["NodePair", int]]: ...  # new sentence index -> (source pair, its sentence)

    @property
    def citation(self) -> str | None: ...

    @property
    def anchor(self) -> str: ...


# -- tables: compared row by row ------------------------------------------------------------------------
def table_pairs(old_tables: Sequence[Element], new_tables: Sequence[Element]) -> list[TableDiff]:
    """The tables of a node in both editions, paired in their order (the first with the first), each as
    table_diff() gives it; a table on one side only is all its rows added or removed. Each says `after`:
    how many paragraphs of its node's own text stand before it (in the new edition where it is there), the
    place the redline shows it."""
    out: list[TableDiff] = []
    for k in range(max(len(old_tables), len(new_tables))):
        old = old_tables[k] if k < len(old_tables) else None
        new = new_tables[k] if k < len(new_tables) else None
        out.append(table_diff(old, new))
    return out


def _paragraphs_before(table: Element) -> int:
    return sum(1 for el in table.itersiblings("p", preceding=True))


def _row_key(row: Sequence[Element]) -> RowKey:
    """What must agree for two rows to be the same: each cell's words with its note markers, and its notes',
    as words and marks without accents (two rows that differ only in accents or spacing are one row, its
    op `accents-spacing`)."""
    def words(text: str) -> tuple[str, ...]:
        return tuple(word for word, _ in w.WORD_OR_MARK.findall(w.fold(text)))
    return tuple((words(tree.text_with_marks(cell)), tuple(words(tree.plain_text(n)) for n in cell.iter("note")))
                 for cell in row)


def table_diff(old: Element | None, new: Element | None) -> TableDiff:
    """One table of a node compared row by row: {"status": unchanged, changed, added (only in the new
    edition) or removed, "after", "rows": [{"op", "cells": [segments of each cell]}]}. The rows are matched
    in order (difflib over whole rows); a row in both is `equal`, or `changed` with each cell, paired by its
    place in the row, diffed word by word (its notes as in a paragraph); a row on one side only is `insert` or
    `delete`, its words all inserted or struck. Rows that changed in place pair one to one, in order."""
    old_rows = tree.cells(old) if old is not None else []
    new_rows = tree.cells(new) if new is not None else []
    rows: list[dict[str, Any]] = []
    ops = SequenceMatcher(None, [_row_key(r) for r in old_rows], [_row_key(r) for r in new_rows],
                          autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            rows += [_row("equal", o, n) for o, n in zip(old_rows[i1:i2], new_rows[j1:j2])]
            for row in rows[len(rows) - (i2 - i1):]:
                if any(s["op"] == "form" or s["op"] == "note" and s["status"] == w.FORM
                       for cell in row["cells"] for s in cell):
                    row["op"] = w.FORM
            continue
        pairs = min(i2 - i1, j2 - j1)
        rows += [_row("changed", o, n) for o, n in zip(old_rows[i1:i1 + pairs], new_rows[j1:j1 + pairs])]
        rows += [_row("delete", o, None) for o in old_rows[i1 + pairs:i2]]
        rows += [_row("insert", None, n) for n in new_rows[j1 + pairs:j2]]
    if old is None or new is None:
        status = "added" if old is None else "removed"
    else:
        kept = {r["op"] for r in rows}
        status = "changed" if kept - {"equal", w.FORM} else w.FORM if w.FORM in kept else "unchanged"
    table = new if new is not None else old
    assert table is not None  # (table_pairs pairs a table with at most one absent side)
    return {"status": status, "after": _paragraphs_before(table), "rows": rows}


def _row(op: str, old_row: Sequence[Element] | None, new_row: Sequence[Element] | None) -> dict[str, Any]:
    """One row of table_diff(): each cell's segments, the cells of the two rows paired by their place."""
    old, new = old_row or [], new_row or []
    cells: list[list[Segment]] = []
    for k in range(max(len(old), len(new))):
        a = w.paragraph_tokens(old[k]) if k < len(old) else []
        b = w.paragraph_tokens(new[k]) if k < len(new) else []
        flat = segments(a, b, w.diff_tokens(a, b), None)
        cells.append(flat[0] if flat else [])
    return {"op": op, "cells": cells}


def text_of(tokens: Sequence[w.Token]) -> str:
    return "".join(t.text for t in tokens if t.key not in (w.NOTE, w.PARA)).strip()


def label_segments(old: str, new: str) -> list[Segment]:
    """Word diff of a title or heading as segments."""
    a, b = w.tokenise(old), w.tokenise(new)
    return segments(a, b, w.diff_tokens(a, b), None)[0] if (a or b) else []


def note_segments(old_note: Element | None, new_note: Element | None) -> list[Segment]:
    a = w.paragraph_tokens(old_note) if old_note is not None else []
    b = w.paragraph_tokens(new_note) if new_note is not None else []
    flat = segments(a, b, w.diff_tokens(a, b), None)
    return flat[0] if flat else []


def segments(old: list[w.Token], new: list[w.Token], ops: Sequence[w.Opcode],
             pair: "NodePair | None") -> list[list[Segment]]:
    """Segments of the word diff `ops` between token lists, split into paragraphs at PARA tokens.
    With `pair`, sentences that moved are shown as moved-out (where they stood) and moved-in (where
    they stand now, with their own word diff against the sentence they came from)."""
    paragraphs: list[list[Segment]] = [[]]
    moved_out: Mapping[int, str | None] = pair.moved_out if pair else {}
    moved_in: Mapping[int, tuple[NodePair, int]] = pair.moved_in if pair else {}
    shown_in: set[int] = set()

    def emit(op: str, text: str, **extra: str | None) -> None:
        # A run's text is kept as a list of pieces and joined once at the end: adding to a string
        # copies it, which made a long run quadratic (a 6 MB line: minutes and 1.45 GB).
        seg_list = paragraphs[-1]
        if (seg_list and seg_list[-1]["op"] == op and op in ("equal", "delete", "insert", "moved-out")
                and seg_list[-1].get("to") == extra.get("to")):
            seg_list[-1]["text"].append(text)
        else:
            seg_list.append({"op": op, "text": [text], **extra})

    def note(old_t: w.Token | None, new_t: w.Token | None) -> None:
        o = old_t.note if old_t is not None else None
        n = new_t.note if new_t is not None else None
        segs = note_segments(o, n)
        if o is None:
            status = "added"
        elif n is None:
            status = "removed"
        else:
            ops = {s["op"] for s in segs}
            status = "changed" if ops - {"equal", "form"} else w.FORM if "form" in ops else "unchanged"
        paragraphs[-1].append({"op": "note", "status": status, "old_id": element_id(o) if o is not None else None,
                               "new_id": element_id(n) if n is not None else None, "segments": segs})
        token = new_t if new_t is not None else old_t
        assert token is not None  # (a note stands on one side at least)
        if token.text:  # the space after the marker: "De leider¹ en"
            emit("equal", " ")

    def new_token(j: int, op: str, old_t: w.Token | None = None) -> None:
        t = new[j]
        if t.sentence in moved_in:
            if t.sentence not in shown_in:
                shown_in.add(t.sentence)
                src_pair, src_s = moved_in[t.sentence]
                src = [x for x in src_pair.old_tokens if x.sentence == src_s and x.key != w.PARA]
                dst = [x for x in new if x.sentence == t.sentence and x.key != w.PARA]
                inner = segments(src, dst, w.diff_tokens(src, dst), None)[0]
                paragraphs[-1].append({"op": "moved-in", "from": src_pair.citation, "from_anchor": src_pair.anchor,
                                       "segments": inner})
            if t.key == w.PARA:
                paragraphs.append([])
            return
        if t.key == w.PARA:
            paragraphs.append([])
        elif t.key == w.NOTE:
            note(old_t, t)
        else:
            emit(op, t.text)

    def old_token(i: int) -> None:
        t = old[i]
        if t.key == w.PARA:
            return
        if t.key == w.NOTE:
            note(t, None)
        elif t.sentence in moved_out:
            emit("moved-out", t.text, to=moved_out[t.sentence])
        else:
            emit("delete", t.text)

    for tag, i1, i2, j1, j2 in ops:
        if tag == "form" and not any(new[j].sentence in moved_in for j in range(j1, j2)):
            # Accents or spacing only: the old words and the new, one segment (its text the new words).
            paragraphs[-1].append({"op": "form", "old": "".join(t.text for t in old[i1:i2]),
                                   "text": "".join(t.text for t in new[j1:j2])})
            continue
        if tag in ("equal", "form"):  # (a form run inside a moved sentence: its inner diff shows it)
            for i, j in zip(range(i1, i2), range(j1, j2)):
                new_token(j, "equal", old[i])
            for j in range(j1 + (i2 - i1), j2):
                new_token(j, "equal")
            continue
        for i in range(i1, i2):
            old_token(i)
        for j in range(j1, j2):
            new_token(j, "insert")
    for p in paragraphs:
        for seg in p:
            if isinstance(seg.get("text"), list):
                seg["text"] = "".join(seg["text"])
    return [tidy(p) for p in paragraphs if p]


def tidy(segs: list[Segment]) -> list[Segment]:
    """Move the space after a struck, inserted or accents-only run outside it, so the marks cover words
    only: "wordt <del>elke zodanige kaart</del> <ins>de kaarten</ins> toegevoegd"."""
    out: list[Segment] = []
    for k, s in enumerate(segs):
        if s["op"] not in ("delete", "insert", "moved-out", "form") or not s["text"].endswith(" "):
            if s["op"] == "form":
                s = dict(s, old=s["old"].rstrip())
            out.append(s)
            continue
        out.append(dict(s, text=s["text"].rstrip(), **({"old": s["old"].rstrip()} if s["op"] == "form" else {})))
        nxt = segs[k + 1] if k + 1 < len(segs) else None
        if nxt is None:
            continue
        if nxt["op"] == "equal":
            if not nxt["text"].startswith(" "):
                nxt["text"] = " " + nxt["text"]
        else:
            out.append({"op": "equal", "text": " "})
    return out
