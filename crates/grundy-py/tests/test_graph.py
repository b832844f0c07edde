"""grundy.graph: the game graph of a small position, as the command line
draws it."""

import pytest

import grundy


def test_graph_gives_nodes_edges_and_the_picture():
    g = grundy.graph("sub:1,2,3 7")
    assert g.game == "sub:1-3 7"
    assert g.nodes[0] == ("7", 3)
    assert [v for _, v in g.nodes] == [3, 2, 1, 0, 3, 2, 1, 0]
    assert len(g.edges) == 18
    assert g.edges[0] == (0, 1)
    assert g.svg.startswith("<svg ")
    assert g._repr_svg_() == g.svg


def test_a_split_heap_is_one_node():
    g = grundy.graph("kayles 4")
    assert [p for p, _ in g.nodes] == ["4", "3", "1 + 2", "2", "1 + 1", "1", "0"]


def test_too_large_a_graph_and_bad_input_are_value_errors():
    with pytest.raises(ValueError, match="more than 100 positions"):
        grundy.graph("nim 150")
    with pytest.raises(ValueError, match="more than 5 positions"):
        grundy.graph("nim 20", max_nodes=5)
    with pytest.raises(ValueError):
        grundy.graph("nope 3")
    with pytest.raises(ValueError):
        grundy.graph("nim 3", max_nodes=0)
    with pytest.raises(TypeError):
        grundy.graph(7)
