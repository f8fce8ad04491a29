"""The editor's page (html/<editor's page>, templates/html/editor.html): the build report grouped by kind,
the references that do not resolve, the committee's corrections and, with `build --reference`, the
comparison with the original. Readers' pages link here only from a correction's mark.

Reads: the build log, the Site (model.py), the alignment the reference stage left on the job.
Writes nothing: these are the template's values; write_html (html.py) renders them.
"""
import re

from ...core.lang import Profile
from ...core.report import KINDS, BuildLog, location, shown_name
from ...core import tree
from ...corpus.corrections import FILE as CORRECTIONS_FILE
from ..text import say
from .model import Site, corrections_of, href, source_of

# The words of a reference the corpus lacks, as the editor's page names it (profile words).
NOT_IN_CORPUS = "not in this corpus"

# The editor's page: report kinds with a section of their own, its title and introduction (profile words).
REPORT_SECTIONS = [
    ("repair", "Repairs", "Text the pipeline has mended (before → after)."),
    ("inference", "Inferred numbering", "Numbering or structure the source does not state but that was inferred."),
    ("variant", "Variants", "Sources that give the same text slightly differently; which reading was chosen."),
    ("gap", "Missing text", "Text the law has but the sources do not."),
]


def marked_change(before, after):
    """Two readings as pieces [(op, text)], op "equal", "delete" or "insert", word by word (spaces kept),
    so the editor sees where a variant or a repair differs ("artikel" / "Artikel" at the start)."""
    import difflib

    old, new = re.findall(r"\S+|\s+", before or ""), re.findall(r"\S+|\s+", after or "")
    out = {"before": [], "after": []}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            out["before"].append(("equal", "".join(old[i1:i2])))
            out["after"].append(("equal", "".join(new[j1:j2])))
        else:
            if i2 > i1:
                out["before"].append(("delete", "".join(old[i1:i2])))
            if j2 > j1:
                out["after"].append(("insert", "".join(new[j1:j2])))
    return out


def report_view(log: BuildLog, profile: Profile) -> dict:
    """The build report grouped for the editor's page: the sections above, then every other kind.
    A repair or variant carries its two readings with the words that differ marked (`marked`); for a
    variant `before` is the reading set aside and `after` the one kept."""
    data = log.to_json()
    # Every entry with every field, so the template need not guess which ones a kind has.
    entries = [{"line": None, "node": None, "before": None, "after": None, **e} for e in data["entries"]]
    paged = log.paged()
    for e in entries:  # a PDF source's line as its page and the line on it (report.location)
        e["where"] = location(e["file"], e["line"], e["file"] in paged)
    for e in entries:
        e["marked"] = (marked_change(e["before"], e["after"])
                       if e["before"] is not None or e["after"] is not None else None)
    sections = [{"kind": kind, "title": say(profile, title), "intro": say(profile, intro),
                 "entries": [e for e in entries if e["kind"] == kind]}
                for kind, title, intro in REPORT_SECTIONS]
    shown = {kind for kind, _, _ in REPORT_SECTIONS}
    others = [e for e in entries if e["kind"] not in shown]
    others.sort(key=lambda e: (KINDS.index(e["kind"]) if e["kind"] in KINDS else len(KINDS), e["file"],
                               e.get("line") or 0))
    sources = [{**source, "shown": shown_name(source["file"])} for source in data["sources"]]  # a name as report.txt shows it
    return {"sources": sources, "summary": data["summary"], "sections": sections, "others": others}


# The comparison with the original: what each status means (profile words), in align's order.
ALIGN_STATUSES = {
    "refs-differ": "Both have it; its references point elsewhere than the original's.",
    "notes-differ": "Both have it, with a different number of notes.",
    "table-differs": "Both have it; a table of it differs from the original's in its rows, its cells or its numbers.",
    "gap": "The sources have a gap where the original has text.",
    "extra": "Here, but not in the original.",
    "missing": "In the original, inside a part the sources show, but not here.",
    "accepted": "Different from the original on purpose: a correction accepts it.",
    "not-in-sources": "In the original, outside every part the sources show.",
}


def alignment_view(alignment, reference, profile: Profile) -> dict:
    """The values of the editor's section "Comparison with the original" (templates/html/editor.html):
    the counts per status, the nodes that are not `match` grouped by status (each side's references and
    notes, the source line, the suggestion), the articles only one book holds and the dangling
    references as the original classifies them. `reference`: the path the build was given."""
    from ...corpus import align

    data = alignment.to_json()

    def side(node):
        return None if node is None else {"refs": ", ".join(node["refs"]) or "—", "notes": node["notes"]}

    groups = []
    for status, meaning in ALIGN_STATUSES.items():
        nodes = [{"id": n["id"], "where": (n["translation"] or {}).get("source") or "",
                  "reference_where": (n["reference"] or {}).get("source") or "",
                  "here": side(n["translation"]), "there": side(n["reference"]),
                  "suggestion": (n["suggestion"] or {}).get("text")}
                 for n in data["nodes"] if n["status"] == status]
        if nodes:
            groups.append({"status": status, "meaning": say(profile, meaning), "nodes": nodes})
    order = align.CLASSES
    dangling = sorted(data["dangling"], key=lambda d: order.index(d["class"]))  # else in the book's order
    classes = {c: sum(d["class"] == c for d in dangling) for c in order}
    return {"reference": str(reference), "summary": data["summary"], "statuses": align.STATUSES,
            "groups": groups, "editions": data["editions"], "articles": data["articles"],
            "dangling": dangling, "classes": classes, "failing": alignment.status != 0}


def corrections_view(site: Site) -> list[dict]:
    """Every correction applied to the corpus (corrections_of), in the order of corrections.toml, each
    with `at`, the link from the editor's page to its mark (to the node, for a correction without a
    mark), and `marked`, the words (or IDs) before and after with the difference marked."""
    out = []
    for el in site.corpus.iter(*tree.NODE_TAGS):
        for correction in corrections_of(el, site.files.editor):
            marked = correction["kind"] in ("renumber", "replace")
            at = href(el.get("id"), "")
            correction["at"] = at.split("#")[0] + "#" + correction["anchor"] if marked else at
            correction["file"] = CORRECTIONS_FILE
            correction["marked"] = (marked_change(correction["was"], correction["now"] or correction["id"])
                                    if marked else None)
            out.append(correction)
    return sorted(out, key=lambda c: (c["line"] is None, c["line"] or 0))

def unresolved_refs(site: Site) -> list[dict]:
    """References the editor must look at, counted as `lawbook check` counts them: one entry per
    target that is not in the corpus (dangling or known missing), and every target of a reference
    marked suspect."""
    out = []
    for ref, citing, targets in site.refs():
        status = ref.get("status") or "ok"
        file, line = source_of(ref)
        for target in targets or [""]:
            if status == "suspect":
                kind = "suspect"
            elif target not in site.nodes:
                kind = "known-missing" if status == "known-missing" else "dangling"
            else:
                continue
            out.append({"file": file, "line": line, "node": citing, "text": tree.plain_text(ref),
                        "to": target, "status": kind, "where": site.log.location(file, line) if file else ""})
    return sorted(out, key=lambda r: (r["file"], r["line"], r["text"], r["to"]))

