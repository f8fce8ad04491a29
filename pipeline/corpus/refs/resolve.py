"""Resolution: the targets a citation names, and the status of each.

Resolution is edition-aware (a 2017 paragraph cites 2017) and relative citations resolve against where
they stand: "zie B", "C2 hierboven" against the current article; "(a)", "(b) hieronder", "(a)(ii) above"
against the current subsection, "(ii) above" against the current item ("(i)", "(v)", "(x)" are letters
too: the current item's subitem inside an item, else an item, unless only the other's target exists); a
bare number only before a direction word, "2(c) or 2(d) above", "1 and 2 above", against the current
section; "dit artikel", "this Law" is the current article. The status of each target:
    ok             the target is in the corpus
    known-missing  listed (itself or an ancestor) in sources/known-missing.toml
    dangling       not in the corpus; kind article-absent or part-absent
    suspect        the phrase is damaged: a duplicated target, a malformed citation, a relative citation
                   with nothing to resolve against, or "hierboven"/"hieronder" pointing the wrong way

Reads: Citation records (grammar.py), the corpus's IDs and order, the known-missing list
(load_known_missing: sources/known-missing.toml). Gives: Resolved records.
"""
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ...core import ids, lang, tree
from ...core.errors import LawbookError
from ...core.tree import Element
from .asked import stands_below
from .grammar import Citation, Parts, patterns

KNOWN_MISSING = "known-missing.toml"
# Worst last: a ref with several targets carries the worst status among them.
STATUSES = ("ok", "known-missing", "dangling", "suspect")
KINDS = ("article-absent", "part-absent")
# A range wider than this is read as damage, not as a list of targets.
MAX_RANGE = 50


@dataclass
class Resolved:
    """A citation resolved: its targets and, per target, status and kind; reason for suspects."""
    targets: list[str]
    statuses: list[str] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)
    reason: str | None = None
    other: str | None = None  # the target of the other reading, when the words read two ways and both are in the corpus


def context_of(container: Element) -> tuple[str, str, str]:
    """(edition, the node a paragraph or note stands in, the citing ID) for a <p>, a table's <cell> or a <note>.

    A commentary paragraph stands in the node the commentary is on; a note cites
    under its own ID but resolves in its paragraph's node.
    """
    citing = tree.attr(container, "id") if container.tag == "note" else None
    for anc in container.iterancestors():
        if anc.tag in tree.NODE_TAGS or anc.tag in ("definition", "introduction"):
            # a definition or the introduction is no part of a Law: a relative citation in it is suspect
            return _edition(anc), tree.attr(anc, "id"), citing or tree.attr(anc, "id")
        if anc.tag == "commentary":
            return _edition(anc), tree.attr(anc, "on"), citing or tree.attr(anc, "id")
    raise ValueError("a paragraph outside any node")


def _edition(el: Element) -> str:
    for anc in el.iterancestors("edition"):
        return tree.attr(anc, "id")
    raise ValueError(f"<{el.tag}> {el.get('id', '')} outside any edition")


def _id_of(edition: str, parts: Parts) -> str:
    """The ID of the node that `parts` (article … subitem) name in `edition`."""
    return ids.make_id(edition, parts["article"], *(parts.get(k) for k in ids.LEVELS[1:]))


def _fullmatch(pattern: re.Pattern[str], designation: str) -> re.Match[str]:
    """The match of a designation already checked against `pattern`."""
    m = pattern.fullmatch(designation)
    if m is None:
        raise ValueError(f"{designation!r} does not read as {pattern.pattern}")
    return m


def _expand_range(first: Parts, last: Parts) -> list[Parts] | None:
    """The citations from `first` to `last`, both parts dicts; None when not one level's run."""
    keys = [k for k in ids.LEVELS if first.get(k)]
    if keys != [k for k in ids.LEVELS if last.get(k)]:
        return None
    level = keys[-1]
    if any(first[k] != last[k] for k in keys[:-1]):
        return None
    a, b = first[level], last[level]
    name: Callable[[int], str]  # a number of the run as its level writes it
    if level == "subitem":  # roman numerals: "(i) to (iii)"
        lo, hi, name = ids.roman_value(a), ids.roman_value(b), ids.roman
    elif a.isdigit() and b.isdigit() and max(len(a), len(b)) <= ids.MOST_DIGITS:
        lo, hi, name = int(a), int(b), str
    elif a.isalpha() and b.isalpha() and len(a) == len(b) == 1:
        lo, hi, name = ord(a), ord(b), chr
    else:
        return None
    if not lo < hi <= lo + MAX_RANGE:
        return None
    return [dict(first, **{level: name(n)}) for n in range(lo, hi + 1)]


# The parts of a relative designation, as _relative parses it (the item in brackets or not, the subitem in brackets).
LETTER_PARTS = re.compile(rf"([A-Z])(?:(\d+)(?:(?:([a-z])|\(([a-z])\))(?:\(({ids.ROMAN})\))?)?)?")
NUMBER_PARTS = re.compile(rf"(\d+)(?:\(([a-z])\)(?:\(({ids.ROMAN})\))?)?")
BRACKETED_PARTS = re.compile(rf"\(([a-z]+)\)(?:\(({ids.ROMAN})\))?")


def _relative_parts(designation: str, node_id: str,
                    present: Callable[[Parts], bool] | None = None) -> tuple[Parts | None, str | None]:
    """Parts of a designation ("B", "C2", "B2(a)(v)", "(a)", "(a)(v)", "(ii)", "2(c)") read in the node `node_id`;
    (parts, problem). `present(parts)` says whether a reading's target is in the corpus: it decides what a
    bracketed "(i)", "(v)" or "(x)" names, which is both a letter and a numeral (see _bracketed_parts)."""
    _, cite = ids.split_id(node_id)
    here = ids.parse_citation(cite) if cite else None
    if here is None:
        return None, f"{node_id} is not a node a relative citation can be read in"
    if not (BRACKETED_PARTS if designation.startswith("(") else NUMBER_PARTS if designation[0].isdigit()
            else LETTER_PARTS).fullmatch(designation):  # "(A)", read in any case after "see"
        return None, f"'{designation}' is not a citation of an article or a part of one"
    if designation.startswith("("):
        return _bracketed_parts(designation, node_id, here, present)
    if designation[0].isdigit():
        if not here["section"]:
            return None, f"'{designation}' names a subsection, but {node_id} is not in a section"
        subsection, item, subitem = _fullmatch(NUMBER_PARTS, designation).groups()
        return dict(here, subsection=subsection, item=item, subitem=subitem), None
    section, subsection, item, bracketed_item, subitem = _fullmatch(LETTER_PARTS, designation).groups()
    return {"article": here["article"], "section": section, "subsection": subsection,
            "item": item or bracketed_item, "subitem": subitem}, None


def _bracketed_readings(letters: str, subitem: str | None, here: Parts) -> list[Parts]:
    """The parts a bracketed designation can name in the node `here`, the nearer first: "(a)", "(a)(v)" an item
    (and its subitem) of the current subsection, "(ii)" a subitem of the current item; "(i)", "(v)" and "(x)"
    are letters and numerals both, in an item its subitem first, elsewhere an item."""
    as_item = dict(here, item=letters, subitem=subitem) if len(letters) == 1 and here["subsection"] else None
    as_subitem = (dict(here, subitem=letters) if not subitem and here["item"] and re.fullmatch(ids.ROMAN, letters)
                  else None)
    return [r for r in ((as_subitem, as_item) if here["item"] else (as_item, as_subitem)) if r]


def _bracketed_parts(designation: str, node_id: str, here: Parts,
                    present: Callable[[Parts], bool] | None = None) -> tuple[Parts | None, str | None]:
    """(parts, problem) of a bracketed designation (see _bracketed_readings): the nearer reading, unless only the
    other one's target is in the corpus."""
    letters, subitem = _fullmatch(BRACKETED_PARTS, designation).groups()
    readings = _bracketed_readings(letters, subitem, here)
    if not readings:
        return None, (f"'{designation}' names a subitem, but {node_id} is not in an item" if len(letters) > 1
                      else f"'{designation}' names an item, but {node_id} is not in a subsection")
    if present and len(readings) == 2 and not present(readings[0]) and present(readings[1]):
        return readings[1], None
    return readings[0], None


def other_reading(designation: str, edition: str, node_id: str, index: Collection[str], targets: list[str]) -> str | None:
    """The target of the reading not taken of a bracketed "(i)", "(v)" or "(x)", when it is in the corpus too:
    then the words read two ways (an item and a subitem), and the choice is uncertain."""
    m = BRACKETED_PARTS.fullmatch(designation)
    _, cite = ids.split_id(node_id)
    here = ids.parse_citation(cite) if cite else None
    if not m or here is None:
        return None
    for parts in _bracketed_readings(m.group(1), m.group(2), here):
        target = _id_of(edition, parts)
        if target not in targets and target in index:
            return target
    return None


def resolve(citation: Citation, edition: str, node_id: str,
            index: Collection[str] | None = None) -> tuple[list[str], str | None]:
    """The target IDs of one citation found in node `node_id` of `edition`, and a problem or None. With the
    `index` of the corpus's IDs, a designation that reads two ways takes the reading whose target is there."""
    if citation.malformed:
        return [], f"'{citation.malformed}' is not a citation of an article or a part of one"
    if citation.this_article:
        article = ids.article_of(node_id)
        return ([article], None) if article else ([], f"{node_id} is not a node of an article")
    if citation.relative:
        def present(parts: Parts) -> bool:
            return index is not None and _id_of(edition, parts) in index

        first, problem = _relative_parts(citation.relative, node_id, present if index else None)
        if problem:
            return [], problem
        last = None
        if citation.range_end:
            last, problem = _relative_parts(citation.range_end["relative"], node_id, present if index else None)
    else:
        first, last = citation.parts, citation.range_end
    if first is None:
        return [], "a citation without the parts it cites"
    runs: list[Parts] | None = [first]
    if last:
        runs = _expand_range(first, last)
    if runs is None:
        return [], "the ends of the range are not two numbers of one level, in order"
    targets = []
    for parts in runs:
        cite = ids.make_citation(parts["article"], *(parts.get(k) for k in ids.LEVELS[1:]))
        if ids.parse_citation(cite) is None:
            return [], f"'{cite}' is not a citation of an article or a part of one"
        targets.append(ids.join(edition, cite))
    return targets, None


def classify(target: str, index: Collection[str], known: Collection[str]) -> tuple[str, str | None]:
    """(status, kind) of one well-formed target: ok, known-missing, or dangling with its kind."""
    if target in index:
        return "ok", None
    if covered(target, known):
        return "known-missing", None
    article = ids.article_of(target)
    return "dangling", "part-absent" if article in index else "article-absent"


def covered(target: str, known: Collection[str]) -> bool:
    """Whether `target` or one of its ancestors is listed as known missing."""
    edition, cite = ids.split_id(target)
    at: str | None = cite
    while at:
        if ids.join(edition, at) in known:
            return True
        at = ids.parent_citation(at)
    return False


def node_order(index: Iterable[str]) -> dict[str, int]:
    """Each node's position in document order: what a direction word ("hierboven") is checked against."""
    return {node_id: n for n, node_id in enumerate(index)}


def resolve_phrase(text: str, citations: list[Citation], edition: str, node_id: str, index: Collection[str],
                   known: Collection[str], order: Mapping[str, int], profile: lang.Profile) -> list[Resolved]:
    """Resolve the citations found in one text segment; a target named twice in one phrase is suspect,
    and so is one that stands the other way than its direction word (of `profile`) says."""
    below_words = patterns(profile).below
    out: list[Resolved] = []
    seen: dict[str, str] = {}
    for c in citations:
        seen = seen if out and c.phrase == citations[len(out) - 1].phrase else {}
        targets, problem = resolve(c, edition, node_id, index)
        r = Resolved(targets)
        if problem:
            r.reason = problem
        elif c.relative and c.relative.startswith("("):
            r.other = other_reading(c.relative, edition, node_id, index, targets)
        for t in targets:
            status, kind = classify(t, index, known)
            r.statuses.append(status)
            r.kinds.append(kind)
        if not problem and c.direction and len(targets) == 1 and targets[0] in order and node_id in order:
            below = stands_below(order, targets[0], node_id)
            if below != (c.direction in below_words):
                r.reason = f"'{c.direction}' but {targets[0]} stands {'below' if below else 'above'} {node_id}"
        dup = [t for t in targets if t in seen]
        if dup and not r.reason:
            r.reason = f"duplicated target: {dup[0]} is already cited by '{seen[dup[0]]}' just before"
        out.append(r)
        for t in targets:
            seen.setdefault(t, text[c.start:c.end])
    return out


# -- the known-missing list -------------------------------------------------------
def load_known_missing(sources_dir: str | PathLike[str],
                       path: str | PathLike[str] | None = None) -> dict[str, str]:
    """Reads: sources/known-missing.toml (or `path`). Returns {target ID: reason}; {} when there is none.

    The format (see docs/references.md):
        [[missing]]
        id = "2017/54"
        reason = "article 54 is not in the sources"
    An article's ID covers all its parts.
    """
    given = Path(path) if path else Path(sources_dir) / KNOWN_MISSING
    if not given.is_file():
        if given.name != KNOWN_MISSING or given.parent != Path(sources_dir):
            raise LawbookError("the known-missing file does not exist", file=str(given),
                               fix="give an existing file, or leave the option out")
        return {}
    try:
        data = tomllib.loads(given.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise LawbookError(f"not valid TOML ({e})", file=str(given), line=getattr(e, "lineno", None),
                           fix="correct the TOML syntax at that line") from None
    except UnicodeDecodeError:
        raise LawbookError("not UTF-8", file=str(given), fix=f"save {given.name} as UTF-8") from None
    entries = data.get("missing", [])
    unknown = sorted(set(data) - {"missing"})
    if unknown or not isinstance(entries, list):
        raise LawbookError(f"unexpected key {unknown[0] if unknown else 'missing'!r}", file=str(given),
                           fix='list each target as a [[missing]] table with id = "2017/54" and an optional reason')
    known: dict[str, str] = {}
    for n, entry in enumerate(entries, 1):
        target = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(target, str) or not ids.is_well_formed(target):
            raise LawbookError(f"[[missing]] number {n} has no valid id ({target!r})", file=str(given),
                               fix='give an edition and a citation, e.g. id = "2017/54" or "2017/47E2"')
        known[target] = str(entry.get("reason", ""))
    return known
