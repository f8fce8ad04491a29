"""The graph page's layout in groups (html.layered_layout): exact places on small hand-made graphs, and
the places a big graph needs bounded by its edges, not by its rows."""
from pipeline.outputs import html


def test_groups_stack_and_an_edge_between_groups_is_one_line():
    order = ["1", "2", "3", "4"]
    edges = [("1", "2"), ("3", "4"), ("1", "4")]
    slots, chains, crossings = html.layered_layout(order, edges, group=2)
    assert slots == {"1": (0, 0, 1), "2": (1, 0, 1), "3": (2, 0, 1), "4": (3, 0, 1)}
    assert chains == {("1", "2"): ["1", "2"], ("3", "4"): ["3", "4"], ("1", "4"): ["1", "4"]}
    assert crossings == 0


def test_a_graph_of_one_group_is_laid_out_as_before():
    # 1 cites 2 and 3, 2 cites 3: the edge 1 -> 3 passes row 1 beside 2, in a place of its own.
    slots, chains, crossings = html.layered_layout(["1", "2", "3"], [("1", "2"), ("1", "3"), ("2", "3")])
    assert slots["1"][0] == 0 and slots["2"][0] == 1 and slots["3"][0] == 2
    assert chains[("1", "3")] == ["1", ("via", "1", "3", 1), "3"]
    assert (1, 2) == (slots[("via", "1", "3", 1)][0], slots["2"][2])  # two places in row 1


def test_a_long_chain_needs_places_per_edge_not_per_row():
    # 600 articles each citing the next, and each citing the first: in one layout the edges to the
    # first pass up to 600 rows each (about 180,000 places); in groups of 60 at most 60 each.
    order = [str(n) for n in range(1, 601)]
    edges = [(a, b) for a, b in zip(order, order[1:])] + [(n, "1") for n in order[2:]]
    slots, chains, _ = html.layered_layout(order, edges)
    places = sum(len(chain) - 2 for chain in chains.values())
    assert places <= len(edges) * html.LAYOUT_GROUP
    assert set(order) <= set(slots) and len(chains) == len(edges)
