"""`lawbook show`'s views of one node: its text as indented plain text (render_text) and its JSON object
(node_summary). Reads: a node of the corpus tree. Writes nothing; the command prints what these return."""
from typing import Any

from ..core import tree
from ..core.tree import Element
from ..core.view import Node, element_id, optional_id
from . import serialise


def node_summary(el: Element) -> dict[str, Any]:
    """The `show --json` object: id, title, text (its paragraphs' and tables' words), notes, children,
    sources; `tables`, each table's cells' words row by row, where it has tables."""
    if el.tag == "note":
        return {"id": element_id(el), "type": "note", "title": "", "text": tree.plain_text(el), "notes": [],
                "children": [], "sources": serialise.source_lines(el)}
    node = Node(el)  # (or the introduction, a definition, a commentary: what `show` finds by its ID)
    own = node.texts  # its paragraphs and tables, in order
    # The notes of its title or heading first (reading order), each with the book's number where it has one.
    notes = [{"id": n.id, "text": n.text, "form": n.form, **({"num": num} if (num := n.element.get("num")) else {})}
             for n in node.notes]
    data: dict[str, Any] = {
        "id": node.id,
        "type": el.tag,
        "title": tree.label_text(el) or "",
        # A table's words as its text (the cells joined by single spaces, row after row); its cells in "tables".
        "text": "\n\n".join(tree.plain_text(p) for p in own),
        "notes": notes,
        "children": [c.id for c in node.children],
        "sources": serialise.source_lines(el),
    }
    tables = [[[tree.plain_text(cell) for cell in row] for row in tree.cells(t)] for t in own if t.tag == "table"]
    if tables:
        data["tables"] = tables
    if el.get("numbering"):
        data["numbering"] = {"inferred": True, "evidence": el.get("evidence")}
    gaps = [g.get("reason") for g in el.iterchildren("gap")]
    if gaps:
        data["gaps"] = gaps
    corrections = [serialise.corr_json(c) for c in el.iterchildren("corr")]
    if corrections:
        data["corrections"] = corrections
    if el.tag == "commentary":
        data.update({"on": el.get("on"), "author": el.get("author"), "title": el.findtext("attribution")})
    return data


def render_text(el: Element, depth: int = 0, pages: frozenset[str] = frozenset()) -> str:
    """A node and everything below it as indented plain text (a table a row a line, "| cell | cell |"):
    notes by the book's number ([17]) where
    they have one, else numbered [1], [2] …, a note marked in a title or heading where it stands, a number
    the sources do not write marked °, a reference that points outside the corpus marked [?]. `pages`
    are the articles known only from their commentary (commentary_only): a reference to one has a page
    to go to, and is never said to be outside the corpus."""
    pad = "  " * depth
    out: list[str] = []
    label = tree.label(el)
    head = optional_id(el) or el.tag
    if el.get("numbering") == "inferred":
        head += "°"
    if el.tag == "commentary":
        head += f"  commentary by {el.get('author') or '?'} on {el.get('on')} (not law text)"
    notes: list[tuple[str, Element]] = []  # (what its marker shows, <note>)
    dangling: list[tuple[str, str, str]] = []

    def inline(container: Element) -> str:
        parts = []
        for kind, words, sub in tree.inline(container):
            if kind == tree.NOTE:
                assert sub is not None  # (a note's event is its element: tree.inline)
                notes.append((tree.note_number(sub) or str(len(notes) + 1), sub))
                parts.append(f"[{notes[-1][0]}]")
                continue
            assert words is not None  # (every other event has its words)
            status = sub.get("status") if kind == tree.REF and sub is not None else None
            if sub is not None and status in ("dangling", "suspect"):
                dangling.append((words, sub.get("to") or "?", status))
                parts.append(f"{words}[?]")
            else:
                parts.append(words)
        return "".join(parts)

    out.append(f"{pad}{head}" + (f"  {inline(label)}" if label is not None else ""))
    if el.tag == "note":
        out.append(f"{pad}  {inline(el)}")
    for child in el:
        if child.tag in ("p", "attribution"):
            out.append(f"{pad}  {inline(child)}")
        elif child.tag == "table":  # a row a line, its cells between bars
            out += [f"{pad}  | " + " | ".join(inline(cell) for cell in row) + " |" for row in tree.cells(child)]
        elif child.tag == "gap":
            out.append(f"{pad}  [gap: {child.get('reason')}]")
        elif child.tag == "corr":  # the committee's correction (sources/corrections.toml) and what the source said
            what = {"renumber": f"numbered {child.get('was')} in the source",
                    "replace": f"the source says {child.get('was')!r}, corrected to {child.get('now')!r}",
                    "accept": "differs from the original on purpose"}[child.get("kind", "")]
            out.append(f"{pad}  [corrected: {what}; {child.get('basis')} (corrections.toml:{child.get('line')})]")
        elif child.tag in tree.NODE_TAGS:
            out.append(render_text(child, depth + 1, pages))
    for shown, note in notes:
        out.append(f"{pad}  [{shown}] {element_id(note)}: {tree.plain_text(note)}")
    if el.get("numbering") == "inferred":
        out.append(f"{pad}  ° {el.get('evidence')}")
    for words, to, status in dangling:
        out.append(f"{pad}  [?] '{words}' -> {to}: {reference_status(to.split(), status, pages)}")
    if depth == 0:
        out.append(f"sources: {el.get('sources')}")
    return "\n".join(out)


def reference_status(targets: list[str], status: str, pages: frozenset[str]) -> str:
    """What `show` says of a reference the corpus cannot resolve in full: suspect; or, per kind of target,
    the text is in none of the sources (an article known from its commentary) or not in the corpus."""
    if status != "dangling":
        return "suspect"
    commentary = [t for t in targets if t in pages]
    missing = [t for t in targets if t not in pages]
    said = [f"{' '.join(commentary) + ' ' if missing else ''}text in none of the sources, its commentary in the "
            f"corpus"] if commentary else []
    if missing:
        said.append(f"{' '.join(missing) + ' ' if commentary else ''}not in the corpus")
    return "; ".join(said)
