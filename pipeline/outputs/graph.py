"""The reference graph and the dangling-reference check (`python -m pipeline check`).

The graph (a networkx MultiDiGraph), built from the <ref> elements of the corpus:
    nodes  every corpus ID at every level (edition, article, section, subsection,
           item, note, commentary), plus every cited target that is not in the
           corpus (present=False, with its status and kind)
    edges  kind="contains": parent to child; kind="comments-on": commentary to the
           node it is on; kind="refers": citing ID to target, one edge per target of
           each reference, with the words, status and source lines
Written as build/refs.graphml and build/refs.json (nodes with "cited_by" and
"refers_to", and the flat list of references that `check --json` also prints).
"""
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..core import ids, tree
from ..corpus import refs
from ..corpus.check import summary
from ..core.jsonio import json_text
from ..core.memory import collector_paused
from ..core.stage import SIDE, Stage
from ..core.view import CorpusView, element_id, nearest_id
from .keyed import KeyedFiles, key_of

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped]  # (no type information)

    from ..corpus.refs.stage import CorpusOf

    from .job import Job

def build_graph(corpus: tree.Element, references: list[refs.Reference]) -> "nx.MultiDiGraph":
    """Reads: the corpus tree and refs.references(). Returns the MultiDiGraph described above."""
    import networkx as nx  # here, not at start-up: a build with nothing to do never draws the graph
    g = nx.MultiDiGraph()
    for ed in CorpusView(corpus).editions:
        g.add_node(ed.id, type="edition", edition=ed.id, present=True)
        # The introduction too: its notes hang below it and its citations start from it.
        for el in ed.element.iter("introduction", *tree.NODE_TAGS, "note", "commentary"):
            node_id = element_id(el)
            g.add_node(node_id, type=el.tag, edition=ed.id, present=True, label=tree.label_text(el) or "")
            g.add_edge(nearest_id(el), node_id, kind="contains")
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
        edge: dict[str, Any] = {"kind": "refers", "words": r.words, "status": r.status, "source": tree.format_places(r.locations)}
        if r.reason:
            edge["reason"] = r.reason
        g.add_edge(r.source_id, r.target, **edge)
    for node_id, data in g.nodes(data=True):  # a commentary target absent and never cited
        if "present" not in data:
            data.update(type="absent", edition=ids.edition_of(node_id), present=False, status="dangling")
    return g


def graph_json(g: "nx.MultiDiGraph", references: list[refs.Reference]) -> dict[str, Any]:
    """The refs.json object: nodes in corpus order with who cites them, and every reference."""
    nodes: list[dict[str, Any]] = []
    pred, succ = g.pred, g.succ
    for node_id, data in g.nodes(data=True):
        cited_by = [{"from": u, "words": e["words"], "status": e["status"], "source": e["source"]}
                    for u, keyed in pred[node_id].items() for e in keyed.values() if e["kind"] == "refers"]
        refers_to = sorted({v for v, keyed in succ[node_id].items()
                            for e in keyed.values() if e["kind"] == "refers"})
        nodes.append({"id": node_id, **{k: data[k] for k in sorted(data)}, "cited_by": cited_by,
                      "refers_to": refers_to})
    return {"format": "lawbook-refs", "version": 1, "summary": summary(references), "nodes": nodes,
            "refs": [r.to_json() for r in references]}


def write_graphml(g: "nx.MultiDiGraph", path: Path) -> None:
    """refs.graphml, by networkx's own writer (keys named after the values)."""
    import networkx as nx
    nx.write_graphml(g, path, named_key_ids=True)


@collector_paused
def write_graph(job: "Job") -> None:
    """Reads: job.corpus with refs. Writes: refs.graphml, refs.json into the output folder."""
    references = refs.references(cast("CorpusOf", job))  # (a Job holds what CorpusOf names, read only)
    g = build_graph(job.corpus, references)
    # Both files say what the graph and the references say: copied from the last build when those are the same.
    keys = KeyedFiles(job, "graph", "")
    key = key_of("refs", {"nodes": list(g.nodes(data=True)), "edges": list(g.edges(keys=True, data=True)),
                          "refs": [r.to_json() for r in references], "summary": summary(references)})
    if not (keys.reuse("refs.graphml", key) & keys.reuse("refs.json", key)):  # & : both keys recorded
        write_graphml(g, job.tmp / "refs.graphml")
        (job.tmp / "refs.json").write_text(json_text(graph_json(g, references)) + "\n", encoding="utf-8")
    keys.save()


STAGES = [Stage("write_graph", write_graph, reads=("corpus", "lines", "sources_dir", "options", "profile", "previous",
                                                   "tmp"),
                files=("refs.graphml", "refs.json", ".lawbook-keys/graph.json"), lane=SIDE)]
