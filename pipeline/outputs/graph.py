"""The reference graph and the dangling-reference check (`python -m pipeline check`).

The graph (a MultiDiGraph as networkx's, `RefGraph`), built from the <ref> elements of the corpus:
    nodes  every corpus ID at every level (edition, article, section, subsection,
           item, note, commentary), plus every cited target that is not in the
           corpus (present=False, with its status and kind)
    edges  kind="contains": parent to child; kind="comments-on": commentary to the
           node it is on; kind="refers": citing ID to target, one edge per target of
           each reference, with the words, status and source lines
Written as build/refs.graphml and build/refs.json (nodes with "cited_by" and
"refers_to", and the flat list of references that `check --json` also prints).
"""
import re

from ..core import ids, tree
from ..corpus import refs
from ..corpus.check import summary
from ..core.jsonio import json_text
from ..core.memory import collector_paused

class _Nodes(dict):
    """node ID -> its values, in the order added; called as networkx's node view: g.nodes(data=True)."""

    def __call__(self, data=False):
        return self.items() if data else self.keys()


class RefGraph:
    """What the build uses of networkx's MultiDiGraph, with its order and edge keys: nodes in the order
    added (an edge adds its ends), `succ[u][v]` and `pred[v][u]` the same {key: values} of the edges
    from u to v, keys 0, 1, … Importing networkx was a quarter of a second of every build."""

    def __init__(self):
        self.nodes, self.succ, self.pred = _Nodes(), {}, {}

    def __contains__(self, node):
        return node in self.nodes

    def add_node(self, node, **values):
        if node is None:
            raise ValueError("None cannot be a node")
        if node not in self.nodes:
            self.nodes[node], self.succ[node], self.pred[node] = {}, {}, {}
        self.nodes[node].update(values)

    def add_edge(self, u, v, **values):
        for end in (u, v):
            if end not in self.nodes:
                self.add_node(end)
        keyed = self.succ[u].setdefault(v, {})
        self.pred[v][u] = keyed
        key = len(keyed)
        while key in keyed:
            key += 1
        keyed[key] = values

    def edges(self, data=False):
        return [(u, v, d) if data else (u, v) for u, targets in self.succ.items()
                for v, keyed in targets.items() for d in keyed.values()]

    def to_networkx(self):
        import networkx as nx
        g = nx.MultiDiGraph()
        g.add_nodes_from(self.nodes.items())
        g.add_edges_from((u, v, key, d) for u, targets in self.succ.items() for v, keyed in targets.items()
                         for key, d in keyed.items())
        return g


def build_graph(corpus, references):
    """Reads: the corpus tree and refs.references(). Returns the MultiDiGraph described above."""
    g = RefGraph()
    for ed in corpus.iterchildren("edition"):
        g.add_node(ed.get("id"), type="edition", edition=ed.get("id"), present=True)
        # The introduction too: its notes hang below it and its citations start from it.
        for el in ed.iter("introduction", *tree.NODE_TAGS, "note", "commentary"):
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


_GRAPHML_TYPES = {str: "string", bool: "boolean"}  # the attribute types build_graph gives
_GRAPHML_ROOT = {"xmlns": "http://graphml.graphdrawing.org/xmlns",
                 "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
                 "xsi:schemaLocation": "http://graphml.graphdrawing.org/xmlns "
                                       "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"}


# What lxml escapes, writing refs.graphml as networkx does: in an attribute value and in text.
_ATTR_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("\n", "&#10;"), ("\r", "&#13;"),
                 ("\t", "&#9;"))
_TEXT_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\r", "&#13;"))
# Characters XML cannot hold (lxml refuses them): a graph with one goes to networkx, which decides.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escaped(text, escapes):
    for char, entity in escapes:
        if char in text:
            text = text.replace(char, entity)
    return text


def write_graphml(g, path):
    """Writes exactly what networkx.write_graphml(g, path, named_key_ids=True) writes, byte for byte,
    in one pass, as text: networkx's writer infers every value's type twice and made most of the
    stage's time, and lxml's elements, one per value, most of the rest. Keys stand in networkx's order
    (the reverse of their first use, nodes before edges); each element is set out as lxml's
    pretty_print sets it out. A graph with values of other types, or with a character XML cannot
    hold, goes to networkx."""
    keys = {}  # (name, scope) -> attr.type, in order of first use
    for scope, items in (("node", (d for _, d in g.nodes(data=True))),
                         ("edge", (d for _, _, d in g.edges(data=True)))):
        for data in items:
            for k, v in data.items():
                kind = _GRAPHML_TYPES.get(type(v))
                if kind is None or keys.setdefault((k, scope), kind) != kind:
                    return _networkx_graphml(g, path)

    def attr(text):
        return _escaped(str(text), _ATTR_ESCAPES)

    def element(start, data, end):
        if not data:
            out.append(f"<{start}/>\n")
            return
        out.append(f"<{start}>\n")
        out.extend(f'  <data key="{attr(k)}">{_escaped(str(v), _TEXT_ESCAPES)}</data>\n' for k, v in data.items())
        out.append(f"</{end}>\n")

    root = " ".join(f'{name}="{attr(value)}"' for name, value in _GRAPHML_ROOT.items())
    out = ["<?xml version='1.0' encoding='utf-8'?>\n", f"<graphml {root}>"]
    out.extend(f'<key id="{attr(name)}" for="{scope}" attr.name="{attr(name)}" attr.type="{kind}"/>\n'
               for (name, scope), kind in reversed(keys.items()))
    out.append('<graph edgedefault="directed">')
    for node_id, data in g.nodes(data=True):
        element(f'node id="{attr(node_id)}"', data, "node")
    for u, targets in g.succ.items():
        for v, keyed in targets.items():
            for key, data in keyed.items():
                element(f'edge source="{attr(u)}" target="{attr(v)}" id="{attr(key)}"', data, "edge")
    out.append("</graph></graphml>")
    text = "".join(out)
    if _NOT_XML.search(text):
        return _networkx_graphml(g, path)
    path.write_bytes(text.encode("utf-8"))


def _networkx_graphml(g, path):
    import networkx as nx
    nx.write_graphml(g.to_networkx() if isinstance(g, RefGraph) else g, path, named_key_ids=True)


@collector_paused
def write_graph(job):
    """Reads: job.corpus with refs. Writes: refs.graphml, refs.json into the output folder."""
    references = refs.references(job)
    g = build_graph(job.corpus, references)
    write_graphml(g, job.tmp / "refs.graphml")
    (job.tmp / "refs.json").write_text(json_text(graph_json(g, references)) + "\n", encoding="utf-8")
