"""The dangling-reference check: which references point outside the corpus, grouped, with their lines.

Reads: the references of a corpus (refs.references) and the known-missing list.
Writes: nothing; `lawbook check` prints render_check() (or the JSON) and exits 1 when a reference
dangles (with --strict, also when one is suspect, or the report holds a reading it calls uncertain:
where the evidence allows two readings, the entry says "uncertain" and names both).
"""
import re

from collections.abc import Collection

from ..core import ids, tree
from ..core.report import BuildLog, Entry, shown_place
from . import refs

# The check's groups, in the order they are printed; "known" is not an error.
GROUPS = (("article-absent", "article absent: no text of the article is in the corpus"),
          ("part-absent", "part absent: the article is in the corpus, the cited part is not"),
          ("suspect", "suspect: duplicated or malformed"),
          ("known-missing", "known missing: listed in known-missing.toml"))


def summary(references: list[refs.Reference]) -> dict[str, int]:
    counts = {status: 0 for status in refs.STATUSES}
    for r in references:
        counts[r.status] += 1
    return {"refs": len(references), **counts}


def uncertain(log: BuildLog) -> list[Entry]:
    """The report entries of readings the evidence does not settle (their message says "uncertain")."""
    return [e for e in log.entries if UNCERTAIN.search(e.message)]


UNCERTAIN = re.compile(r"\buncertain\b")


def _group(r: refs.Reference) -> str | None:
    return r.kind if r.status == "dangling" else r.status


def render_check(references: list[refs.Reference], known: Collection[str], ctx: refs.CorpusOf) -> str:
    """The text report: counts, then each group with the source file and line of every reference."""
    s = summary(references)
    out = [f"{s['refs']} references: {s['ok']} ok, {s['dangling']} dangling, {s['known-missing']} known missing, "
           f"{s['suspect']} suspect"]
    for key, title in GROUPS:
        group = [r for r in references if _group(r) == key]
        if not group:
            continue
        out += ["", f"{title} ({len(group)}):"]
        for r in group:
            where = ", ".join(map(shown_place, r.locations)) or "?"
            line = f"  {where}: {r.source_id} cites {r.target or '?'} ({r.words!r})"
            if r.reason:
                line += f": {r.reason}"
            out.append(line)
    missing: dict[str, list[str]] = {}
    for r in references:
        if r.status == "dangling":
            missing.setdefault(r.target, []).append(r.source_id)
    if missing:
        out += ["", f"by target ({len(missing)} not in the corpus, each with what cites it):"]
        for target in sorted(missing, key=ids.order_key):
            citing = list(dict.fromkeys(missing[target]))
            out.append(f"  {target}: cited by {', '.join(citing)}")
    cited = {r.target for r in references}
    index = {el.get("id") for el in ctx.corpus.iter(*tree.NODE_TAGS)}
    stale = sorted(t for t in known if t in index)
    if stale:
        out += ["", "listed in known-missing.toml but in the corpus (remove these entries):"]
        out += [f"  {t}" for t in stale]
    unused = sorted(t for t in known if t not in index and not any(refs.covered(c, {t}) for c in cited if c))
    if unused:
        out += ["", "listed in known-missing.toml but cited nowhere:"] + [f"  {t}" for t in unused]
    if s["dangling"]:
        out += ["", f"fix: add the sources of the missing text, or list the targets in "
                    f"{ctx.sources_dir / refs.KNOWN_MISSING} when they are outside this corpus"]
    return "\n".join(out)
