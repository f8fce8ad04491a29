"""The graph page (html/<edition>/<graph page>): the article-level reference graph of an edition, laid out
by Graphviz's `dot` (docs/html.md, "The graph page"), as the geometry templates/html/graph.html draws.

Reads: the Site (model.py). Writes nothing: graph_view gives the picture's nodes and edges, the
template makes the SVG.
"""
import json
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...core import ids
from ...core.errors import LawbookError
from ...core.tree import Element

article_of = ids.article_of


class Page(Protocol):
    """What the graph asks of an article page (model.ArticlePage)."""
    num: str
    element: Element | None


class Site(Protocol):
    """What the graph asks of the Site (model.py; not imported: model imports this module)."""

    @property
    def articles(self) -> Mapping[str, Sequence[Page]]: ...

    def refs(self, edition: str | None = None) -> Iterator[tuple[Element, str | None, list[str]]]: ...


DOT_TIMEOUT = 600  # seconds: Graphviz's dot lays out a group of the graph in well under one
LAYOUT_GROUP = 60  # articles laid out together on the graph page (grouped_layout)


@dataclass(frozen=True)
class GraphDrawing:
    """A layered drawing by Graphviz's dot, in SVG's coordinates (y down): each node's centre, and per
    edge the path from the citing circle's rim to the cited one's (dot's own curve, cubic Bézier
    pieces), with the size of the picture."""
    width: float
    height: float
    centres: dict[str, tuple[float, float]]
    paths: dict[tuple[str, str], str]


def dot_layout(order: list[str], edges: list[tuple[str, str]], r: float, gap_x: float, gap_y: float,
               margin: float) -> GraphDrawing:
    """The graph laid out by Graphviz's `dot` (rows, citing articles above the articles they cite, few
    crossings: Sugiyama's layered drawing, as dot makes it). Nodes are circles of radius r, at least
    gap_x apart in a row and gap_y between rows (centre to centre). Nodes and edges go to dot in
    `order` under names of their place in it, so the drawing is the same on every build with the same
    Graphviz. Without `dot` the build stops and says how to install it."""
    dot = shutil.which("dot")
    if dot is None:
        raise LawbookError("Graphviz's `dot`, which draws the graph page, is not installed",
                           fix="install Debian's graphviz package (apt-get install graphviz), or run `make test` as root")
    name = {n: f"n{i}" for i, n in enumerate(order)}
    inch = 72  # dot's sizes are in inches, its coordinates in points
    source = ["digraph {",
              f"graph [rankdir=TB, nodesep={(gap_x - 2 * r) / inch:.4f}, ranksep={(gap_y - 2 * r) / inch:.4f}];",
              f'node [shape=circle, fixedsize=true, width={2 * r / inch:.4f}, label=""];',
              "edge [arrowhead=none];",
              *(f"{name[n]};" for n in order),
              *(f"{name[a]} -> {name[b]};" for a, b in edges),
              "}"]
    try:
        done = subprocess.run([dot, "-Tjson"], input="\n".join(source), capture_output=True, text=True,
                              timeout=DOT_TIMEOUT, check=True)
    except subprocess.CalledProcessError as e:
        raise LawbookError(f"Graphviz's `dot` failed on the graph page: {e.stderr.strip()}",
                           fix="this is a bug in the pipeline; run with --debug and report it", status=1) from None
    laid = json.loads(done.stdout)
    x0, y0, x1, y1 = (float(v) for v in laid["bb"].split(","))

    def svg(point: str) -> tuple[float, float]:  # dot's y grows upwards, SVG's downwards
        x, y = (float(v) for v in point.split(","))
        return round(x - x0 + margin, 1), round(y1 - y + margin, 1)
    place = {o["name"]: svg(o["pos"]) for o in laid.get("objects", ())}
    names = [o["name"] for o in laid.get("objects", ())]  # by dot's own index (_gvid)
    curves = {(names[e["tail"]], names[e["head"]]): e["pos"] for e in laid.get("edges", ())}
    paths = {}
    for a, b in edges:
        points = [svg(p) for p in curves[(name[a], name[b])].split()]
        # The start, then (control, control, end) per cubic piece.
        paths[(a, b)] = f"M {points[0][0]} {points[0][1]} " + " ".join(
            "C " + " ".join(f"{x} {y}" for x, y in points[i:i + 3]) for i in range(1, len(points), 3))
    return GraphDrawing(width=round(x1 - x0 + 2 * margin, 1), height=round(y1 - y0 + 2 * margin, 1),
                        centres={n: place[name[n]] for n in order}, paths=paths)


def grouped_layout(order: list[str], edges: list[tuple[str, str]], r: float, gap_x: float, gap_y: float,
                   margin: float, group: int = LAYOUT_GROUP) -> GraphDrawing:
    """dot_layout of groups of `group` consecutive nodes in `order`, each group's drawing below the one
    before, centred; an edge between two groups is one straight line from rim to rim. dot's work grows
    much faster than the graph (an edge from the last of 930 articles to the first passes a place in
    every row between): dot did not finish a generated 930-article book in ten minutes, and lays out
    groups of 60 in about a second. The real books' editions are one group."""
    groups = [order[i:i + group] for i in range(0, len(order), group)] or [[]]
    where = {n: k for k, nodes in enumerate(groups) for n in nodes}
    drawings = [dot_layout(nodes, [(a, b) for a, b in edges if where[a] == where[b] == k], r, gap_x, gap_y, margin)
                for k, nodes in enumerate(groups)]
    if len(drawings) == 1:
        return drawings[0]
    width = max(d.width for d in drawings)
    centres: dict[str, tuple[float, float]] = {}
    paths: dict[tuple[str, str], str] = {}
    top = 0.0
    for d in drawings:
        dx, dy = round((width - d.width) / 2, 1), round(top - (margin if top else 0), 1)

        def moved(x: float, y: float) -> tuple[float, float]:
            return round(x + dx, 1), round(y + dy, 1)
        centres.update((n, moved(*c)) for n, c in d.centres.items())
        for edge, path in d.paths.items():
            paths[edge] = _moved_path(path, dx, dy)
        top += d.height - (margin if top else 0)
    for a, b in edges:
        if (a, b) not in paths:
            (x1, y1), (x2, y2) = centres[a], centres[b]
            start, end = rim(x1, y1, x2, y2, r), rim(x2, y2, x1, y1, r)
            third = [(round(start[0] + (end[0] - start[0]) * t, 1), round(start[1] + (end[1] - start[1]) * t, 1))
                     for t in (1 / 3, 2 / 3)]
            paths[(a, b)] = (f"M {start[0]} {start[1]} C " + " ".join(f"{x} {y}" for x, y in (*third, end)))
    return GraphDrawing(width=width, height=round(top, 1), centres=centres, paths=paths)


def _moved_path(path: str, dx: float, dy: float) -> str:
    """SVG path data 'M x y C x y …' moved by (dx, dy)."""
    out: list[str] = []
    numbers = 0
    for word in path.split():
        if word in ("M", "C"):
            out.append(word)
            continue
        out.append(str(round(float(word) + (dy if numbers % 2 else dx), 1)))
        numbers += 1
    return " ".join(out)


def rim(x1: float, y1: float, x2: float, y2: float, r: float) -> tuple[float, float]:
    """The point at distance r from (x1, y1) towards (x2, y2), rounded for byte-identical SVG."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1
    return round(x1 + dx / length * r, 1), round(y1 + dy / length * r, 1)


def graph_input(site: Site, edition: str) -> dict[str, list[list[Any]]]:
    """What the graph page of an edition is drawn from: the nodes in article order with their status and
    the edges with their kind and count (JSON values: the page's key, outputs/keyed.py, is taken from it).

    Nodes are the articles with a page in the edition (54, known from its commentary, too) plus every
    article cited but missing; a reference in commentary is the commentary's edge (drawn dashed),
    not the article's. Nodes are added in article order, so the layout (and the SVG) is the same on
    every build."""
    pages = {p.num: p for p in site.articles[edition]}
    edges: dict[tuple[str, str, str], int] = {}
    for ref, citing, targets in site.refs(edition):
        if not citing:
            continue
        source = ids.cite_of(article_of(citing))
        kind = "commentary" if getattr(ids.NodeId.parse(citing), "annex", None) == ids.COMMENTARY else "law"
        # One edge per reference and cited article, however many of its nodes the words name.
        cited = {ids.cite_of(article_of(t)) for t in targets if article_of(t)}
        for num in cited - {source}:  # references within an article are no edge of the picture
            edges[(source, num, kind)] = edges.get((source, num, kind), 0) + 1
    order = sorted(set(pages) | {n for a, b, _ in edges for n in (a, b)}, key=ids.sort_key)
    at = {n: i for i, n in enumerate(order)}

    def status(n: str) -> str:
        page = pages.get(n)
        return "missing" if page is None else ("present" if page.element is not None else "commentary")
    return {"nodes": [[n, status(n)] for n in order],
            "edges": [[a, b, kind, edges[(a, b, kind)]] for a, b, kind in
                      sorted(edges, key=lambda e: (at[e[0]], at[e[1]], e[2]))]}


def graph_view(site: Site, edition: str, drawn: dict[str, list[list[Any]]] | None = None) -> dict[str, Any]:
    """The article-level reference graph of an edition as SVG geometry, laid out by Graphviz's dot, from
    graph_input (`drawn`, made here when not given)."""
    drawn = drawn if drawn is not None else graph_input(site, edition)
    order = [n for n, _ in drawn["nodes"]]
    statuses = dict((n, s) for n, s in drawn["nodes"])
    edges = {(a, b, kind): count for a, b, kind, count in drawn["edges"]}
    at = {n: i for i, n in enumerate(order)}
    pairs = sorted({(a, b) for a, b, _ in edges}, key=lambda e: (at[e[0]], at[e[1]]))
    r = 27
    drawing = grouped_layout(order, pairs, r=r, gap_x=78, gap_y=100, margin=40)
    present = {n for n, s in statuses.items() if s != "missing"}
    nodes = [{"num": n, "x": drawing.centres[n][0], "y": drawing.centres[n][1], "status": statuses[n],
              "present": n in present} for n in order]
    lines = []
    for (a, b), kinds in ((pair, [k for k in ("law", "commentary") if (*pair, k) in edges]) for pair in pairs):
        for kind in kinds:
            lines.append({"from": a, "to": b, "count": edges[(a, b, kind)], "kind": kind,
                          "from_present": a in present, "to_present": b in present, "d": drawing.paths[(a, b)]})
    return {"width": drawing.width, "height": drawing.height, "r": r, "nodes": nodes, "edges": lines}
