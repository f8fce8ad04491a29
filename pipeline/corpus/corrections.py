"""The committee's corrections: decisions kept as data in sources/corrections.toml, applied after merge.

Reads: sources/corrections.toml (absent: nothing to do; option no_corrections: not read), the merged
corpus, the fragments' line ledgers.
Writes: the corrected tree, with a <corr> element in every corrected node that says what the source
said, what the corpus says now and why (schema/corpus.rng); a report entry for every correction
applied (with its basis), and an error (file corrections.toml, the entry's line) for every correction
that no longer applies, which fails the build.

The file is a list of [[correction]] tables, applied in order (docs/align.md):

    [[correction]]
    kind = "renumber"                     # the node and all below it get new IDs
    node = "2017/47E1a"
    to = "2017/47E2a"
    creates = true                        # a missing parent (2017/47E2) is created, with no text; without
    basis = "WBF Laws 2017, Law 47E2(a)"  # creates = true that is an error (a typo in `to` creates articles)

    [[correction]]
    kind = "replace"                      # words in the node's own paragraphs, found exactly once
    node = "2017/24E"
    words = "artikel 50 en artikel 50"
    by = "artikel 50 en artikel 51"
    basis = "WBF Laws 2017, Law 24E: 'Laws 50 and 51'"

    [[correction]]
    kind = "accept"                       # deliberately different from the original: align says so
    node = "2017/57B"
    basis = "…"

Every value is checked before anything is applied: its type (a string; creates: true or false), and
its characters, by the rule the sources are read with (reading/decode.py: no control character,
bidirectional control, private-use character or noncharacter) and on one line. A wrong one is one
LawbookError (status 2, as the manifest's) naming the file and the line of the value.

The stage runs before the references stage, so a corrected citation is resolved as corrected.
"""
import re
import tomllib
from pathlib import Path
from typing import NotRequired, Protocol, TypedDict

from lxml import etree

from ..core import ids, tree
from ..core.model import Placed
from ..core.errors import LawbookError
from ..core.options import Options
from ..core.report import BuildLog
from ..core.tree import Element
from ..reading import decode
from .structure import Fragment


class Correction(TypedDict):
    """One [[correction]] of corrections.toml with its `line`: its values as TOML gives them, checked by load()
    (every key of its kind, KINDS, and no other but kind, basis and OPTIONAL's)."""
    kind: str
    node: str
    basis: str
    line: int | None  # the line of its [[correction]], None where the file writes the entries another way
    to: NotRequired[str]  # renumber
    creates: NotRequired[bool]  # renumber, where the entry says it
    words: NotRequired[str]  # replace
    by: NotRequired[str]  # replace

# The corpus's nodes by ID (tree.node_index), kept up to date as corrections add and move nodes.
Index = dict[str, Element]


class CorpusToCorrect(Protocol):
    """What the corrections ask of the corpus stages' context (stages.CorpusContext)."""
    corpus: Element
    sources_dir: Path
    options: Options
    log: BuildLog
    fragments: list[Fragment]

FILE = "corrections.toml"
KINDS = {"renumber": ("node", "to"), "replace": ("node", "words", "by"), "accept": ("node",)}
# Keys a kind may have besides its own and kind and basis: a renumbering may say that it creates nodes.
OPTIONAL = {"renumber": ("creates",), "replace": (), "accept": ()}
HEADER = re.compile(r"""\s*\[\[\s*(correction|"correction"|'correction')\s*\]\]\s*(#.*)?$""")
# The array written as a value (correction = [ … ]) rather than as tables: its line, for the messages.
ARRAY = re.compile(r"""\s*(correction|"correction"|'correction')\s*=""")
FIX_STALE = f"update or remove this entry of {FILE}: the sources no longer say what it corrects"


class Stale(Exception):
    """A correction that no longer applies: logged as an error at its line."""


class Unsaid(Exception):
    """A correction that would do more than its entry says (create nodes without creates = true): logged
    as an error at its line, and not applied."""


def apply_corrections(ctx: CorpusToCorrect) -> None:
    """Reads: SOURCES/corrections.toml, ctx.corpus, ctx.fragments. Writes: the corrected corpus, the report."""
    if ctx.options.no_corrections:
        return
    path = Path(ctx.sources_dir) / FILE
    if not path.exists() and not path.is_symlink():
        return
    index = tree.node_index(ctx.corpus)
    for entry in load(path):
        try:
            KIND_FUNCTIONS[entry["kind"]](ctx, index, entry)
        except Stale as e:
            ctx.log.add("error", FILE, entry["line"], f"{e}; {FIX_STALE}", entry["node"])
        except Unsaid as e:
            ctx.log.add("error", FILE, entry["line"], str(e), entry["node"])


def load(path: Path) -> list[Correction]:
    """The entries of corrections.toml as dicts with their `line`; a LawbookError (status 2) at the line
    of the first malformed one."""
    def refuse(kind: str) -> LawbookError:
        return LawbookError(f"{FILE} is {kind}, not a regular file", file=str(path),
                            fix=f"make {FILE} a regular file in the sources folder")
    with decode.open_regular(path, refuse) as f:
        data = f.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LawbookError("not UTF-8", file=str(path), line=data[:e.start].count(b"\n") + 1,
                           fix=f"save {FILE} as UTF-8") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column \d+\)", str(e))
        what = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", str(e))
        raise LawbookError(f"not valid TOML: {what}", file=str(path), line=int(m.group(1)) if m else None,
                           fix="correct the TOML syntax at that line") from None
    unknown = sorted(set(doc) - {"correction"})
    entries = doc.get("correction", [])
    if unknown or not isinstance(entries, list):
        raise LawbookError(f"unexpected key {unknown[0] if unknown else 'correction'!r}", file=str(path),
                           fix="write each correction as a [[correction]] table (see docs/align.md)")
    rows = text.split("\n")
    lines: list[int | None] = [n for n, line in enumerate(rows, 1) if HEADER.match(line)]
    if len(lines) != len(entries):
        # Written another way (an inline array): the array's line where it has one, else no line rather
        # than a wrong one.
        arrays = [n for n, line in enumerate(rows, 1) if ARRAY.match(line)]
        lines = [arrays[0] if len(arrays) == 1 else None] * len(entries)
    out: list[Correction] = []
    for n, (entry, line) in enumerate(zip(entries, lines), 1):
        def bad(message: str, fix: str, key: str | None = None) -> LawbookError:
            return LawbookError(f"[[correction]] number {n}: {message}", file=str(path),
                                line=_key_line(rows, line, key) if key else line, fix=fix)

        if not isinstance(entry, dict):
            raise bad(f"is {_toml_type(entry)}, not a table", "write each correction as a [[correction]] table "
                                                              "with kind, node and basis (see docs/align.md)")
        kind = entry.get("kind")
        if kind is not None and not isinstance(kind, str):
            raise bad(f"kind is {_toml_type(kind)}, not a string", f'write kind = "…" in quotes, one of '
                                                                   f'{", ".join(KINDS)}', "kind")
        if kind not in KINDS:
            raise bad(f"unknown kind {kind!r}", f"set kind to one of {', '.join(KINDS)}")
        keys = set(KINDS[kind]) | {"kind", "basis"}
        extra = sorted(set(entry) - keys - set(OPTIONAL[kind]))
        if extra:
            raise bad(f"a {kind} correction has no key {extra[0]!r}",
                      f"use only {', '.join(sorted(keys | set(OPTIONAL[kind])))}")
        for key in sorted(keys):
            value = entry.get(key)
            if value is not None and not isinstance(value, str):
                raise bad(f"{key} is {_toml_type(value)}, not a string", f'write {key} = "…" in quotes', key)
            if value is not None and (found := _refused(value)):  # first: Python's strip() takes U+001F for space
                where, why, fix = found
                raise bad(f"{key} holds {where}" + (f": {why}" if why else ""), fix, key)
            if value is None or not value.strip():
                raise bad(f"{key} is missing or empty", f'give {key} = "…" (a {kind} correction needs '
                                                        f'{", ".join(k for k in sorted(keys) if k != "kind")})')
        if "creates" in entry and not isinstance(entry["creates"], bool):
            raise bad(f"creates is {_toml_type(entry['creates'])}, not true or false",
                      "write creates = true (without quotes) where the original has the nodes the renumbering "
                      "creates, or leave it out", "creates")
        for key in ("node", "to"):
            if key in entry and (ids.NodeId.parse(entry[key]) is None or ids.is_annex(entry[key])):
                raise bad(f"{key} {entry[key]!r} is not the ID of a node",
                          f'give an edition and a citation, e.g. {key} = "2017/47E2a"')
            parts = ids.parse_citation(ids.split_id(entry[key])[1]) if key in entry else None
            for level in ("article", "subsection"):
                if parts and (past := ids.too_long(parts[level] or "", level)):
                    raise bad(f"{key} names no node the book can have: {past}",
                              f"give the ID the original gives the node, e.g. {key} = \"2017/47E2a\"", key)
        if kind == "renumber":
            old, new = _node_id(entry["node"]), _node_id(entry["to"])
            if (old.edition, old.level) != (new.edition, new.level) or old == new:
                raise bad(f"{old} cannot be renumbered to {new}: a renumbering keeps the edition and the level "
                          f"and changes the number", "give a new ID of the same edition and level")
        # The entry as checked: every key it may have, and no other (the checks above refuse the rest).
        correction: Correction = {"kind": kind, "node": entry["node"], "basis": entry["basis"], "line": line}
        if "to" in entry:
            correction["to"] = entry["to"]
        if "creates" in entry:
            correction["creates"] = entry["creates"]
        if "words" in entry:
            correction["words"] = entry["words"]
        if "by" in entry:
            correction["by"] = entry["by"]
        out.append(correction)
    return out


def _node_id(value: str) -> ids.NodeId:
    """The ID an entry's node or to gives, which load() checked is a node's."""
    parsed = ids.NodeId.parse(value)
    if parsed is None:
        raise ValueError(f"{value!r} is not an ID: load() refuses such an entry")
    return parsed


def _num(node: ids.NodeId) -> str:
    """A node's own number (its part at its level: 47E2 -> "2")."""
    num = node.parts[node.level]
    if num is None:
        raise ValueError(f"{node} has no number of its own at its level {node.level}")
    return num


def _refused(value: str) -> tuple[str, str, str] | None:
    """(what, why, fix) for the first character of `value` a source may not hold, as decode.py refuses it
    in a source (decode.REFUSED, described by decode.refused_character), or that breaks a value's one
    line (a line break, a page break); None for a value of plain text (decode.refused_in)."""
    found = decode.refused_in(value)
    if found is None:
        return None
    where, what, why, fix = found
    return f"{what} at character {where} of its value", why, fix


def _toml_type(value: object) -> str:
    """What a TOML value is, in the words of the messages."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, str):
        return f"the string {value!r}"
    return f"a date or time ({value})"


def _key_line(rows: list[str], header: int | None, key: str) -> int | None:
    """The line of `key = …` in the entry whose [[correction]] stands at line `header` (as the manifest
    names a key's line); the header's line when the key is not found there once."""
    if header is None:
        return None
    assign = re.compile(rf"""\s*({re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
    found = []
    for n in range(header + 1, len(rows) + 1):
        if HEADER.match(rows[n - 1]):
            break
        if assign.match(rows[n - 1]):
            found.append(n)
    return found[0] if len(found) == 1 else header


def _at(entry: Correction) -> str:
    """Where an entry is: corrections.toml:LINE (the file alone when its line is not known)."""
    return f"{FILE}:{entry['line']}" if entry["line"] else FILE


def _node(index: Index, entry: Correction) -> Element:
    el = index.get(entry["node"])
    if el is None:
        raise Stale(f"{entry['node']} is not in the corpus")
    return el


def _mark(el: Element, attrib: dict[str, object]) -> Element:
    """A <corr> as the node's first content after its label: the record of one correction."""
    corr = etree.Element("corr", {k: str(v) for k, v in attrib.items() if v is not None})
    # The last <corr> found from the node's end: the corrs stand together after the label, so this walks
    # the node's content after them, never its earlier corrections (listing them all made a node's
    # k-th correction cost k: 20,000 took 97 s). The label is looked for only when there is none: an
    # lxml iterator looks one match ahead, so finding it walks every corr after it.
    last = next(el.iterchildren("corr", reversed=True), None)
    label = tree.label(el) if last is None else None
    if last is not None:
        last.addnext(corr)
    elif label is not None:
        label.addnext(corr)
    else:
        el.insert(0, corr)
    return corr


def _where(el: Element) -> tuple[str | None, int | None]:
    file, line = tree.first_line(el)
    return (file, line) if file else (FILE, None)


# -- renumber ------------------------------------------------------------------------------------
def renumber(ctx: CorpusToCorrect, index: Index, entry: Correction) -> None:
    el = _node(index, entry)
    old, new = _node_id(entry["node"]), _node_id(entry["to"])  # (a renumbering has its `to`: load())
    if str(new) in index:
        raise Stale(f"{new} is already in the corpus, so {old} cannot take its number")
    missing = _missing(index, new)
    if missing and not entry.get("creates"):
        # A typo in `to` ("2017/74E2a" for "2017/47E2a") would make up an article: only the entry may say so.
        made = ", ".join(str(m) for m in reversed(missing))
        raise Unsaid(f"renumbering {old} to {new} would create {made}, which the sources do not have; the "
                     f"correction is not applied: check `to`, or, where the original has "
                     f"{'it' if len(missing) == 1 else 'them'}, add creates = true to this entry")
    parent = _parent(ctx, index, new, entry, el, missing)
    moved = tree.parse_sources(el.get("sources"))
    keep = {str(a) for a in new.parent.ancestors()} if new.parent else set()
    for above in el.iterancestors(*tree.NODE_TAGS):
        if above.get("id") not in keep:  # the lines move with the node
            rest = tree.parse_sources(above.get("sources"))
            left = {f: lines - moved.get(f, set()) for f, lines in rest.items()}
            above.set("sources", tree.format_sources({f: l for f, l in left.items() if l})
                      or tree.attr(above, "sources"))
    tree.parent(el).remove(el)
    renamed: dict[str, str] = {}
    for node in el.iter(*tree.NODE_TAGS):
        old_id = tree.attr(node, "id")
        new_id = str(new) + old_id[len(str(old)):]
        node.set("id", new_id)
        renamed[old_id] = new_id
        index.pop(old_id, None)
        index[new_id] = node
    el.set("num", _num(new))
    if el.tag == "article":
        _place_article(parent, el)
    else:
        tree.insert_child(parent, el)
    for above in el.iterancestors(*tree.NODE_TAGS):
        tree.merge_sources(above, el)
    for commentary in ctx.corpus.iter("commentary"):
        if (on := commentary.get("on")) is not None and on in renamed:
            commentary.set("on", renamed[on])
    for fragment in ctx.fragments:  # the lines' places, as account_lines checks them
        for num, where in fragment.ledger.items():
            if isinstance(where, Placed) and where.node in renamed:
                fragment.ledger[num] = Placed(renamed[where.node])
    _mark(el, {"kind": "renumber", "was": str(old), "line": entry["line"], "basis": entry["basis"]})
    file, line = _where(el)
    ctx.log.add("repair", file, line, f"renumbered {old} to {new} by {_at(entry)} "
                                      f"(basis: {entry['basis']})", str(new), str(old), str(new))


def _missing(index: Index, new: ids.NodeId) -> list[ids.NodeId]:
    """The nodes above `new` the corpus lacks, nearest first: what renumbering a node to `new` creates."""
    chain = []
    node = new.parent
    while node is not None and str(node) not in index:
        chain.append(node)
        node = node.parent
    return chain


def _parent(ctx: CorpusToCorrect, index: Index, new: ids.NodeId, entry: Correction, el: Element,
            chain: list[ids.NodeId]) -> Element:
    """The element that is to hold `new`: its parent node, created (with every missing node above it,
    `chain`, nearest first) when the corpus lacks it; a created node has no text of its own and says why
    it is there."""
    node = chain[-1].parent if chain else new.parent
    if node is None:
        holder = tree.edition(ctx.corpus, new.edition)
        if not chain:
            return holder
    else:
        holder = index[str(node)]
    for missing in reversed(chain):
        if missing.level == "article":
            created = _place_article(holder, etree.Element("article", id=str(missing), num=missing.article))
        else:
            created = tree.add_child(holder, missing.level, _num(missing), str(missing))
        created.set("numbering", "inferred")
        created.set("evidence", f"created by the correction at {_at(entry)} to hold {new} "
                                f"(basis: {entry['basis']}); it has no text of its own in the sources")
        created.set("sources", tree.attr(el, "sources"))  # a node's sources are those of what it holds
        index[str(missing)] = created
        holder = created
    if chain:
        file, line = _where(el)
        ctx.log.add("inference", file, line, f"{', '.join(str(m) for m in reversed(chain))} created to hold {new}, "
                                             f"by {_at(entry)} (basis: {entry['basis']})", str(chain[0]))
    return holder


def _place_article(edition: Element, el: Element) -> Element:
    """Put an article among the edition's articles in number order, before the commentary."""
    after = [a for a in edition.iterchildren("article")
             if ids.sort_key(tree.attr(a, "num")) > ids.sort_key(tree.attr(el, "num"))]
    if after:
        after[0].addprevious(el)
    else:
        edition.insert(len(list(edition.iterchildren("article"))), el)
    return el


# -- replace -------------------------------------------------------------------------------------
def replace(ctx: CorpusToCorrect, index: Index, entry: Correction) -> None:
    el = _node(index, entry)
    words, by = entry["words"], entry["by"]
    paragraphs = list(el.iterchildren("p"))
    found = []  # (paragraph number, owner, attribute, index in that run, offset in the plain text)
    for n, p in enumerate(paragraphs, 1):
        offset = 0
        for owner, attr in [(p, "text")] + [(child, "tail") for child in p]:
            run = getattr(owner, attr) or ""
            start = run.find(words)
            while start != -1:
                found.append((n, owner, attr, start, offset + start))
                start = run.find(words, start + 1)
            offset += len(run)
    if len(found) != 1:
        where = "are not" if not found else f"stand {len(found)} times"
        raise Stale(f"the words {words!r} {where} in the text of {entry['node']} "
                    f"(outside its notes){'' if not found else '; give more of the words, so that they stand once'}")
    n, owner, attr, start, offset = found[0]
    run = getattr(owner, attr)
    setattr(owner, attr, run[:start] + by + run[start + len(words):])
    shift = len(by) - len(words)
    for corr in el.iterchildren("corr"):  # an earlier correction later in the same paragraph moves along
        # (a replace correction's <corr>, the one kind with a paragraph, has its start and end)
        if corr.get("paragraph") == str(n) and int(tree.attr(corr, "start")) >= offset + len(words):
            corr.set("start", str(int(tree.attr(corr, "start")) + shift))
            corr.set("end", str(int(tree.attr(corr, "end")) + shift))
    _mark(el, {"kind": "replace", "was": words, "now": by, "paragraph": n, "start": offset,
               "end": offset + len(by), "line": entry["line"], "basis": entry["basis"]})
    file, line = _where(paragraphs[n - 1])
    ctx.log.add("repair", file, line, f"words corrected by {_at(entry)} (basis: {entry['basis']})",
                entry["node"], words, by)


# -- accept --------------------------------------------------------------------------------------
def accept(ctx: CorpusToCorrect, index: Index, entry: Correction) -> None:
    el = _node(index, entry)
    _mark(el, {"kind": "accept", "line": entry["line"], "basis": entry["basis"]})
    file, line = _where(el)
    ctx.log.add("inference", file, line, f"{entry['node']} differs from the original on purpose, by "
                                         f"{_at(entry)} (basis: {entry['basis']})", entry["node"])


KIND_FUNCTIONS = {"renumber": renumber, "replace": replace, "accept": accept}
