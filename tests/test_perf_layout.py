"""The graph page's layout (graph_page.dot_layout, Graphviz's dot): on small made-up graphs every node and
every edge is drawn, citing articles stand above the ones they cite, circles keep their distance,
and without `dot` the build says how to install it."""
import shutil

import pytest

from pipeline.core.errors import LawbookError
from pipeline.outputs.site import graph_page

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (make graphviz)")

R, GAP_X, GAP_Y, MARGIN = 27, 78, 100, 40


def layout(order, edges):
    return graph_page.dot_layout(order, edges, r=R, gap_x=GAP_X, gap_y=GAP_Y, margin=MARGIN)


def test_every_node_and_edge_is_drawn_citing_above_cited():
    # 1 cites 2 and 3, 2 cites 3, 4 cites nothing and is cited by nobody.
    order, edges = ["1", "2", "3", "4"], [("1", "2"), ("1", "3"), ("2", "3")]
    drawing = layout(order, edges)
    assert set(drawing.centres) == set(order) and set(drawing.paths) == set(edges)
    y = {n: drawing.centres[n][1] for n in order}
    assert y["1"] < y["2"] < y["3"]
    assert y["2"] - y["1"] == pytest.approx(GAP_Y, abs=1)
    assert all(d.startswith("M ") and " C " in d for d in drawing.paths.values())


def test_circles_in_a_row_keep_their_distance_and_stay_inside_the_picture():
    order = [str(n) for n in range(1, 8)]
    edges = [("1", n) for n in order[1:]]  # six cited articles in one row
    drawing = layout(order, edges)
    row = sorted(x for n, (x, y) in drawing.centres.items() if n != "1")
    assert all(b - a >= GAP_X - 1 for a, b in zip(row, row[1:]))
    for x, y in drawing.centres.values():
        assert MARGIN + R - 1 <= x <= drawing.width - MARGIN - R + 1
        assert MARGIN + R - 1 <= y <= drawing.height - MARGIN - R + 1


def test_a_cycle_of_references_is_drawn_whole():
    order, edges = ["1", "2", "3"], [("1", "2"), ("2", "3"), ("3", "1")]
    drawing = layout(order, edges)
    assert set(drawing.paths) == set(edges)


def test_the_same_graph_gives_the_same_drawing():
    order = [str(n) for n in range(1, 30)]
    edges = [(a, b) for a, b in zip(order, order[3:])] + [(a, "1") for a in order[5::4]]
    assert layout(order, edges) == layout(order, edges)


def test_without_dot_the_build_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(graph_page.shutil, "which", lambda name: None)
    with pytest.raises(LawbookError) as e:
        layout(["1", "2"], [("1", "2")])
    assert "dot" in e.value.message and "apt-get install graphviz" in e.value.fix


def test_a_long_chain_is_laid_out_in_groups_and_every_edge_drawn():
    # 600 articles each citing the next, and each citing the first: in one layout the edges to the
    # first pass up to 600 rows each (dot did not finish such a graph in ten minutes); in groups of 60
    # each group is its own drawing, one below the other, and an edge between groups a straight line.
    order = [str(n) for n in range(1, 601)]
    edges = [(a, b) for a, b in zip(order, order[1:])] + [(n, "1") for n in order[2:]]
    drawing = graph_page.grouped_layout(order, edges, r=R, gap_x=GAP_X, gap_y=GAP_Y, margin=MARGIN)
    assert set(drawing.centres) == set(order) and set(drawing.paths) == set(edges)
    y = {n: drawing.centres[n][1] for n in order}
    assert max(y[n] for n in order[:60]) < min(y[n] for n in order[60:120])  # the second group below the first
    assert drawing.paths[("61", "1")].count(" C ") == 1  # between groups: one straight piece


def test_groups_stack_and_a_small_graph_is_one_group():
    order, edges = ["1", "2", "3", "4"], [("1", "2"), ("3", "4"), ("1", "4")]
    grouped = graph_page.grouped_layout(order, edges, r=R, gap_x=GAP_X, gap_y=GAP_Y, margin=MARGIN, group=2)
    y = {n: grouped.centres[n][1] for n in order}
    assert y["1"] < y["2"] < y["3"] < y["4"]
    assert grouped.height == pytest.approx(2 * (2 * MARGIN + 2 * R + GAP_Y) - MARGIN, abs=1)  # one margin between
    assert graph_page.grouped_layout(order, edges, r=R, gap_x=GAP_X, gap_y=GAP_Y, margin=MARGIN) == layout(order, edges)
