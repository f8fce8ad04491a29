"""The reference graph and the dangling-reference check (`python -m pipeline check`).

The graph (networkx MultiDiGraph), built from the <ref> elements of the corpus:
    nodes  every corpus ID at every level (edition, article, section, subsection,
           item, note, commentary), plus every cited target that is not in the
           corpus (present=False, with its status and kind)
    edges  kind="contains": parent to child; kind="comments-on": commentary to the
           node it is on; kind="refers": citing ID to target, one edge per target of
           each reference, with the words, status and source lines
Written as build/refs.graphml and build/refs.json (nodes with "cited_by" and
"refers_to", and the flat list of references that `check --json` also prints).
"""
import json
import sys


from . import ids, refs, tree
from .diff.render import json_text
from .html import collector_paused

# The check's groups, in the order they are printed; "known" is not an error.
GROUPS = (("article-absent", "article absent: no text of the article is in the corpus"),
          ("part-absent", "part absent: the article is in the corpus, the cited part is not"),
          ("suspect", "suspect: duplicated or malformed"),
          ("known-missing", "known missing: listed in known-missing.toml"))


def build_graph(corpus, references):
    """Reads: the corpus tree and refs.references(). Returns the MultiDiGraph described above."""
    import networkx as nx  # here, not at import: the CLI starts without it

    g = nx.MultiDiGraph()
    for ed in corpus.iterchildren("edition"):
        g.add_node(ed.get("id"), type="edition", edition=ed.get("id"), present=True)
        for el in ed.iter(*tree.NODE_TAGS, "note", "commentary"):
            node_id = el.get("id")
            g.add_node(node_id, type=el.tag, edition=ed.get("id"), present=True, label=tree.label_text(el) or "")
            parent = next((a.get("id") for a in el.iterancestors() if a.get("id")), None)
            g.add_edge(parent, node_id, kind="contains")
            if el.tag == "commentary":
                g.add_node(el.get("on"))  # attributes below if it is absent
                g.add_edge(node_id, el.get("on"), kind="comments-on")
    for r in references:
        if not r.target:  # a suspect ref that resolved to nothing: no edge to draw
            continue
        if r.target not in g or not g.nodes[r.target].get("present"):
            g.add_node(r.target, type="absent", edition=ids.edition_of(r.target), present=False)
            # A target's own status comes from a reading that is not suspect, when there is one.
            if r.status != "suspect" or "status" not in g.nodes[r.target]:
                g.nodes[r.target]["status"] = r.status
                if r.kind:
                    g.nodes[r.target]["kind"] = r.kind
        edge = {"kind": "refers", "words": r.words, "status": r.status, "source": " ".join(r.locations)}
        if r.reason:
            edge["reason"] = r.reason
        g.add_edge(r.source_id, r.target, **edge)
    for node_id, data in g.nodes(data=True):  # a commentary target absent and never cited
        if "present" not in data:
            data.update(type="absent", edition=ids.edition_of(node_id), present=False, status="dangling")
    return g


def graph_json(g, references):
    """The refs.json object: nodes in corpus order with who cites them, and every reference."""
    nodes = []
    pred, succ = g.pred, g.succ  # the adjacency itself: the edge views cost more than the JSON
    for node_id, data in g.nodes(data=True):
        cited_by = [{"from": u, "words": e["words"], "status": e["status"], "source": e["source"]}
                    for u, keyed in pred[node_id].items() for e in keyed.values() if e["kind"] == "refers"]
        refers_to = sorted({v for v, keyed in succ[node_id].items()
                            for e in keyed.values() if e["kind"] == "refers"})
        nodes.append({"id": node_id, **{k: data[k] for k in sorted(data)}, "cited_by": cited_by,
                      "refers_to": refers_to})
    return {"format": "lawbook-refs", "version": 1, "summary": summary(references), "nodes": nodes,
            "refs": [r.to_json() for r in references]}


def summary(references):
    counts = {status: 0 for status in refs.STATUSES}
    for r in references:
        counts[r.status] += 1
    return {"refs": len(references), **counts}


@collector_paused
def write_graph(ctx):
    """Reads: ctx.corpus with refs. Writes: refs.graphml, refs.json into the output folder."""
    import networkx as nx

    references = refs.references(ctx)
    g = build_graph(ctx.corpus, references)
    nx.write_graphml(g, ctx.tmp / "refs.graphml", named_key_ids=True)
    (ctx.tmp / "refs.json").write_text(json_text(graph_json(g, references)) + "\n", encoding="utf-8")


# -- check ------------------------------------------------------------------------
def register(sub):
    """Adds the `check` subcommand."""
    p = sub.add_parser("check", help="list every reference whose target is not in the corpus")
    p.add_argument("--sources", default="sources")
    p.add_argument("--known-missing", metavar="FILE",
                   help=f"targets known to be outside the corpus (default: SOURCES/{refs.KNOWN_MISSING})")
    p.add_argument("--json", action="store_true", help="print every reference as JSON")
    p.add_argument("--strict", action="store_true", help="suspect references fail the check too")
    p.set_defaults(func=cmd_check)


def cmd_check(args):
    """Exit 0 when no reference dangles unexpectedly (and, with --strict, none is suspect); else 1."""
    from . import build  # build imports this module: import at call time

    options = {"known_missing": args.known_missing} if args.known_missing else {}
    ctx = build.make_corpus(args.sources, options)
    known = refs.load_known_missing(ctx.sources_dir, args.known_missing)
    references = refs.references(ctx, known)
    failing = {"dangling"} | ({"suspect"} if args.strict else set())
    status = 1 if any(r.status in failing for r in references) else 0
    # A corpus the build would refuse (a conflict, a lost line) is not ready for print either.
    for e in ctx.log.errors:
        print(f"lawbook: error: {e.file}:{e.line}: {e.message}", file=sys.stderr)
        status = 1
    if args.json:
        print(json.dumps({"refs": [r.to_json() for r in references], "summary": summary(references)},
                         ensure_ascii=False, indent=1))
    else:
        print(render_check(references, known, ctx))
    return status


def _group(r):
    return r.kind if r.status == "dangling" else r.status


def render_check(references, known, ctx):
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
            where = ", ".join(r.locations) or "?"
            line = f"  {where}: {r.source_id} cites {r.target or '?'} ({r.words!r})"
            if r.reason:
                line += f": {r.reason}"
            out.append(line)
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
