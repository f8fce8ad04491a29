"""The editor's page (html/<editor's page>, templates/html/editor.html): the build report grouped by kind,
the references that do not resolve, the committee's corrections and, with `build --reference`, the
comparison with the original. Readers' pages link here only from a correction's mark.

The page speaks the book's language: its own words are the profile's, and so are the report's messages
that MESSAGES lists (say_message: a message the list does not know stays in English, marked so). Each
source is named by its origin (the manifest's `origin`), its file name beside it.

Reads: the build log, the Site (model.py), the alignment the reference stage left on the job.
Writes nothing: these are the template's values; write_html (html.py) renders them.
"""
import functools
import re
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

from ...core.lang import Profile
from ...core.report import KINDS, PAGE_LINE_STEP, BuildLog, SourceRecord, location, shown_name
from ...core import lang, tree
from ...corpus.corrections import FILE as CORRECTIONS_FILE
from ..text import say
from .model import Correction, Site, corrections_of, href, source_of

if TYPE_CHECKING:
    from ...corpus.align import Alignment

# A report entry as the page shows it: every field of the report's entry, and what the page adds.
ShownEntry = dict[str, Any]

# The words of a reference the corpus lacks, as the editor's page names it (profile words).
NOT_IN_CORPUS = "not in this corpus"

# The editor's page: report kinds with a section of their own, its title and introduction (profile words).
REPORT_SECTIONS = [
    ("repair", "Repairs", "Text the pipeline has mended (before → after)."),
    ("inference", "Inferred numbering", "Numbering or structure the source does not state but that was inferred."),
    ("variant", "Variants", "Sources that give the same text slightly differently; which reading was chosen."),
    ("gap", "Missing text", "Text the law has but the sources do not."),
]


# The report's messages the editor's page and the watch panel (serve.py) say in the book's language, as the
# stages write them (English, their values as %(name)s): the messages of the five Dutch sources' build and
# the errors an edit meets most. A message is matched whole, else clause by clause (its parts between
# "; "); a value named in NESTED is itself a clause of this list ("inferred from %(basis)s"). Each is a key
# of the profiles' words (core/lang/<code>/words.py). A message they do not match stays as the report writes it.
MESSAGES = (
    # repairs (reading/repair.py, reading/notes.py, corpus/corrections.py)
    "duplicated words collapsed",
    "line-end hyphen joined",
    "paragraph continued",
    "a range broken at its dash at the line end joined",
    "kept: the next line does not continue a word",
    "kept: the hyphenated form is used elsewhere in the sources",
    "kept: a prefix that keeps its hyphen",
    "%(rule)s across a page break (page furniture at %(at)s)",
    "malformed-note",
    "soft-hyphen mark dropped",
    "U+00AD read as a dash",
    "space added after comma",
    "spaced hyphen read as a dash",
    "renumbered %(old)s to %(new)s by %(at)s (basis: %(ground)s)",
    "words corrected by %(at)s (basis: %(ground)s)",
    # inferences (corpus/structure.py, reading/headings.py, corpus/corrections.py)
    "section %(num)s of %(parent)s inferred from %(basis)s",
    "subsection %(num)s of %(parent)s inferred from %(basis)s",
    "item %(num)s of %(parent)s inferred from %(basis)s",
    "subitem %(num)s of %(parent)s inferred from %(basis)s",
    "list number %(number)s.",
    "list number %(number)s. indented %(levels)s level(s)",
    "the second list number in %(quote)s",
    "the order of the headings (the source has no letters)",
    "paragraph %(k)s of %(n)s standing together under the section heading",
    "confirmed by %(evidence)s",
    "no citation in the sources confirms it",
    "%(quote)s read as the heading of section %(letter)s, followed by subsection %(sub)s",
    "the heading %(quote)s of %(cite)s split from its text at %(start)s… by %(why)s",
    "its line breaks: it stands alone on its line(s), the text after it starts a line",
    "%(chain)s created to hold %(new)s, by %(at)s (basis: %(ground)s)",
    # variants (corpus/merge.py)
    "capitalisation variant in %(node)s: %(change)s (%(here)s / %(there)s)",
    "kept the first reading, which starts its sentences with a capital",
    "kept the second reading, which starts its sentences with a capital",
    "punctuation or spacing variant in %(node)s: %(change)s (%(here)s / %(there)s)",
    "kept the first reading",
    # gaps (corpus/finish.py, reading/book/ends.py)
    "the title of %(node)s is in none of the sources",
    "%(node)s has only its heading: its text is in none of the sources",
    "%(node)s: the text that leads in to %(child)s (%(quote)s) is in none of the sources",
    "article %(num)s is cut off at the end of %(place)s: the rest is on a page that is not in the sources",
    "page %(page)s",
    "the extraction",
    # lines that are not law text (reading/formats/, reading/book/furniture.py)
    "page number %(num)s",
    "page title %(quote)s: page context, not law text",
    "template name %(quote)s: page context, not law text",
    "running header %(quote)s: page layout, not law text",
    # errors an edit meets most (corpus/structure.py, corpus/merge.py, reading/manifest.py)
    "%(node)s begins a second time at line %(line)s (first at line %(first)s), but numbering does not go back "
    "inside one article: the text from here on is probably another article's, whose heading line was not "
    "recognised, and is set aside",
    "%(node)s at line %(line)s comes after %(other)s (line %(first)s), but numbering does not go back inside one "
    "article: the text from here on is probably another article's, whose heading line was not recognised, and "
    "is set aside",
    "check the lines above for a damaged article heading",
    "%(node)s reads differently in %(here)s and %(there)s: %(change)s",
    "the first reading is kept until a source is corrected",
    "the sources folder does not exist",
    # suggestions of the comparison with the original (corpus/align.py)
    "renumber %(old)s to %(new)s",
    "%(old)s renumbered",
    "made by renumbering %(list)s",
    "replace %(words)s by %(by)s",
)
NESTED = frozenset({"basis", "why", "rule", "place"})
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
# What a value of each name is, so that no value takes in the words around it (a quotation's " of "):
# a quotation as Python's repr writes it, a citation or ID, a number; any other value is any text.
_QUOTE = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
_VALUES = {"quote": _QUOTE, "start": _QUOTE, **dict.fromkeys(
    ("node", "parent", "child", "cite", "old", "new", "other", "num", "number", "levels", "k", "n", "line",
     "first", "page", "letter", "sub"), r"[^\s;]+"), "chain": r"[^\s;]+(?:, [^\s;]+)*"}


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each of MESSAGES as a pattern that matches a message of its form whole, its values as named groups."""
    out = []
    for key in MESSAGES:
        parts = _PLACEHOLDER.split(key)
        pattern = "".join(re.escape(part) if n % 2 == 0 else f"(?P<{part}>{_VALUES.get(part, '.+?')})"
                          for n, part in enumerate(parts))
        out.append((re.compile(pattern, re.DOTALL), key))
    return tuple(out)


def _clause(text: str, profile: Profile) -> str | None:
    """One clause in the words of `profile`, or None where MESSAGES has no form for it."""
    for pattern, key in _patterns():
        m = pattern.fullmatch(text)
        if m is None:
            continue
        values = dict(m.groupdict())
        for name in NESTED & values.keys():
            values[name] = _clause(values[name], profile)
            if values[name] is None:
                break
        else:
            return profile.word(key) % values
    return None


def say_message(message: str, profile: Profile, leave_out: Collection[str] = ()) -> tuple[str, str]:
    """A report message in the book's language: (text, language code); the message as written and "en"
    where MESSAGES has no form for it, or for one of its clauses. Its clauses are said one by one, and the
    whole message as one only where they cannot be (a quotation in it holds "; "). `leave_out`: clauses (as MESSAGES writes
    them) that are not said (the watch panel leaves out what a failed build does not do)."""
    clauses = [c for c in message.split("; ") if c not in leave_out]
    said = [_clause(c, profile) for c in clauses]
    if clauses and all(s is not None for s in said):
        return profile.word("; ").join(s for s in said if s is not None), profile.code
    kept = "; ".join(clauses)
    whole = _clause(kept, profile)  # a value that holds "; " (a quotation, a list of changes)
    if whole is not None:
        return whole, profile.code
    return kept, lang.MESSAGES


def source_names(sources: Iterable[SourceRecord]) -> dict[str, dict[str, str]]:
    """Per file of the manifest, how the page names it: its origin (the manifest's `origin`, "" where it has
    none) with its file name beside it, as report.txt shows the name (`shown`)."""
    return {s["file"]: {"file": s["file"], "shown": shown_name(s["file"]), "origin": s.get("origin") or ""}
            for s in sources}


def line_words(file: str | None, line: int | None, paged: Collection[str], profile: Profile) -> str:
    """Where in its file an entry stands, in the book's words: "regel 12"; a PDF source's page and line on
    it; "" for the whole file."""
    if not line:
        return ""
    if file in paged:
        page, row = divmod(line, PAGE_LINE_STEP)
        return say(profile, "page %(page)s, line %(line)s", page=page, line=row) if row else \
            say(profile, "page %(page)s", page=page)
    return say(profile, "line %(line)s", line=line)


def by_source(entries: list[ShownEntry], names: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """Entries in groups, one per file in the order of the manifest (a file it does not list, such as
    corrections.toml, after them, and the entries without a file last): {"source", "entries"}."""
    order: dict[str | None, int] = {file: n for n, file in enumerate(names)}
    groups: dict[str | None, list[ShownEntry]] = {}
    for e in entries:
        groups.setdefault(e.get("file"), []).append(e)
    out = []
    for file in sorted(groups, key=lambda f: (f is None, order.get(f, len(order)), f or "")):
        source = (names.get(file) if file is not None else None) or ({"file": file, "shown": shown_name(file), "origin": ""} if file else None)
        out.append({"source": source, "entries": groups[file]})
    return out


def readings(text: str | None, kind: str) -> str | None:
    """A reading of a report entry as the page shows it: a repair's `\\n` (report.txt's mark of a line
    break in the source, "ge-\\nvolg") is the line break itself, drawn as one on the page."""
    return text.replace("\\n", "\n") if text is not None and kind == "repair" else text


def marked_change(before: str | None, after: str | None) -> dict[str, list[tuple[str, str]]]:
    """Two readings as pieces [(op, text)], op "equal", "delete" or "insert", word by word (spaces kept),
    so the editor sees where a variant or a repair differs ("artikel" / "Artikel" at the start)."""
    import difflib

    old, new = re.findall(r"\S+|\s+", before or ""), re.findall(r"\S+|\s+", after or "")
    out: dict[str, list[tuple[str, str]]] = {"before": [], "after": []}
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


def report_view(log: BuildLog, profile: Profile) -> dict[str, Any]:
    """The build report grouped for the editor's page: the sections above, then every other kind, each
    in groups by source (`groups`, by_source). An entry says where it stands in its file (`at`, in the
    book's words) and its message in the book's language (`said`, `said_lang`: say_message). A repair or
    variant carries its two readings with the words that differ marked (`marked`; a line break of the
    source as "\\n"); for a variant `before` is the reading set aside and `after` the one kept."""
    data = log.to_json()
    # Every entry with every field, so the template need not guess which ones a kind has.
    entries: list[ShownEntry] = [{"line": None, "node": None, "before": None, "after": None, **e} for e in data["entries"]]
    paged = log.paged()
    names = source_names(data["sources"])
    for e in entries:  # a PDF source's line as its page and the line on it (report.location)
        e["where"] = location(e["file"], e["line"], e["file"] in paged)
        e["at"] = line_words(e["file"], e["line"], paged, profile)
        e["said"], e["said_lang"] = say_message(e["message"], profile)
        e["kind_said"] = say(profile, KIND_WORDS[e["kind"]]) if e["kind"] in KIND_WORDS else e["kind"]
    for e in entries:
        before, after = readings(e["before"], e["kind"]), readings(e["after"], e["kind"])
        e["marked"] = marked_change(before, after) if before is not None or after is not None else None
    sections = []
    for kind, title, intro in REPORT_SECTIONS:
        kept = [e for e in entries if e["kind"] == kind]
        sections.append({"kind": kind, "title": say(profile, title), "intro": say(profile, intro),
                         "entries": kept, "groups": by_source(kept, names)})
    shown = {kind for kind, _, _ in REPORT_SECTIONS}
    others = [e for e in entries if e["kind"] not in shown]
    others.sort(key=lambda e: (KINDS.index(e["kind"]) if e["kind"] in KINDS else len(KINDS), e["file"],
                               e.get("line") or 0))
    sources = [{**source, **names[source["file"]]} for source in data["sources"]]  # a name as report.txt shows it
    return {"sources": sources, "summary": data["summary"], "sections": sections, "others": others,
            "other_groups": by_source(others, names), "names": names}


# The report's kinds as the page names them (profile words).
KIND_WORDS = {"repair": "repair", "damage": "damage", "inference": "inference", "variant": "variant",
              "conflict": "conflict", "gap": "gap", "dropped": "left out", "error": "error"}


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


# Align's statuses and classes of a dangling reference as the page names them (profile words).
ALIGN_NAMES = {"refs-differ": "references differ", "notes-differ": "notes differ", "table-differs": "a table differs",
               "gap": "gap", "extra": "only here", "missing": "missing here", "accepted": "accepted",
               "not-in-sources": "not in the sources", "match": "match"}
ALIGN_CLASSES = {"in-reference": "in the original", "nowhere": "nowhere",
                 "not-in-reference-pages": "not in the pages of the original given",
                 "edition-absent": "in an edition the original does not hold"}


def alignment_view(alignment: "Alignment", reference: object, profile: Profile) -> dict[str, Any]:
    """The values of the editor's section "Comparison with the original" (templates/html/editor.html):
    the counts per status, the nodes that are not `match` grouped by status (each side's references and
    notes, the source line, the suggestion), the articles only one book holds and the dangling
    references as the original classifies them. `reference`: the path the build was given."""
    from ...corpus import align

    data = alignment.to_json()

    def side(node: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if node is None else {"refs": ", ".join(node["refs"]) or "—", "notes": node["notes"]}

    def suggestion(node: dict[str, Any]) -> tuple[str | None, str | None]:
        text = (node["suggestion"] or {}).get("text")
        return say_message(text, profile) if text else (None, None)

    groups = []
    for status, meaning in ALIGN_STATUSES.items():
        nodes = [{"id": n["id"], "where": (n["translation"] or {}).get("source") or "",
                  "reference_where": (n["reference"] or {}).get("source") or "",
                  "here": side(n["translation"]), "there": side(n["reference"]),
                  "suggestion": suggestion(n)[0], "suggestion_lang": suggestion(n)[1]}
                 for n in data["nodes"] if n["status"] == status]
        if nodes:
            groups.append({"status": status, "name": say(profile, ALIGN_NAMES[status]),
                           "meaning": say(profile, meaning), "nodes": nodes})
    order = align.CLASSES
    dangling = sorted(data["dangling"], key=lambda d: order.index(d["class"]))  # else in the book's order
    for d in dangling:
        d["class_said"] = say(profile, ALIGN_CLASSES[d["class"]])
    classes = {c: sum(d["class"] == c for d in dangling) for c in order}
    statuses = [{"status": st, "name": say(profile, ALIGN_NAMES[st])} for st in align.STATUSES]
    return {"reference": str(reference), "summary": data["summary"], "statuses": statuses,
            "groups": groups, "editions": data["editions"], "articles": data["articles"],
            "dangling": dangling, "classes": classes, "failing": alignment.status != 0}


# A correction's kind as the page names it (profile words).
CORRECTION_KINDS = {"renumber": "renumbering", "replace": "words replaced", "accept": "accepted as it is"}


def corrections_view(site: Site) -> list[Correction]:
    """Every correction applied to the corpus (corrections_of), in the order of corrections.toml, each
    with `at`, the link from the editor's page to its mark (to the node, for a correction without a
    mark), and `marked`, the words (or IDs) before and after with the difference marked."""
    out = []
    for el in site.corpus.iter(*tree.NODE_TAGS):
        for correction in corrections_of(el, site.files.editor):
            marked = correction["kind"] in ("renumber", "replace")
            at = href(tree.attr(el, "id"), "")
            correction["at"] = at.split("#")[0] + "#" + correction["anchor"] if marked else at
            correction["file"] = CORRECTIONS_FILE
            correction["marked"] = (marked_change(correction["was"], correction["now"] or correction["id"])
                                    if marked else None)
            kind: str = correction["kind"]
            correction["kind_said"] = say(site.profile, CORRECTION_KINDS.get(kind, kind))
            out.append(correction)
    return sorted(out, key=lambda c: (c["line"] is None, c["line"] or 0))

# What a reference that does not resolve is, as the page names it (profile words).
REF_STATUS_WORDS = {"dangling": "dangling", "suspect": "suspect", "known-missing": "known missing"}


def unresolved_refs(site: Site) -> list[dict[str, Any]]:
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
                        "to": target, "status": kind, "where": site.log.location(file, line) if file else "",
                        "at": line_words(file, line, site.log.paged(), site.profile),
                        "status_said": say(site.profile, REF_STATUS_WORDS[kind])})
    return sorted(out, key=lambda r: (r["file"], r["line"], r["text"], r["to"]))

