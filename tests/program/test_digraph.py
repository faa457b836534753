"""The scan's own directed graph gives what networkx gave before it: the same components in
the same order (the solver settles them in that order), the same reachable sets, and the
node, edge and attribute views the call graph's readers use."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from apiscan.program.digraph import (
    DiGraph,
    components_in_order,
    reachable,
    strongly_connected_components,
)


def _pair(seed: int, nodes: int, edges: int) -> tuple[DiGraph, nx.DiGraph]:
    rng = random.Random(seed)
    ours, theirs = DiGraph(), nx.DiGraph()
    names = [f"m.f{i}" for i in range(nodes)]
    rng.shuffle(names)
    ours.add_nodes_from(names)
    theirs.add_nodes_from(names)
    for _ in range(edges):
        u, v = rng.choice(names), rng.choice(names)  # self-loops included
        ours.add_edge(u, v)
        theirs.add_edge(u, v)
    return ours, theirs


@pytest.mark.parametrize("seed", range(40))
def test_components_come_in_networkx_order(seed: int) -> None:
    nodes = 5 + seed * 3
    ours, theirs = _pair(seed, nodes, edges=nodes * (1 + seed % 3))
    assert list(strongly_connected_components(ours)) == list(
        nx.strongly_connected_components(theirs)
    )
    condensed = nx.condensation(theirs)
    expected = [condensed.nodes[c]["members"] for c in nx.topological_sort(condensed)]
    assert components_in_order(ours) == expected


def test_components_of_a_cycle_and_its_callees() -> None:
    graph = DiGraph()
    graph.add_edges_from([("a", "b"), ("b", "a"), ("b", "c"), ("d", "c"), ("c", "c")])
    assert components_in_order(graph) == [{"a", "b"}, {"d"}, {"c"}]
    assert components_in_order(DiGraph()) == []


@pytest.mark.parametrize("seed", range(10))
def test_reachable_is_the_union_of_descendants(seed: int) -> None:
    ours, theirs = _pair(seed, 30, 45)
    sources = sorted(theirs)[: 1 + seed % 4]
    expected = set(sources).union(*(nx.descendants(theirs, s) for s in sources))
    assert reachable(ours, sources) == expected
    assert reachable(ours, []) == set()


def test_reachable_refuses_a_source_outside_the_graph() -> None:
    graph = DiGraph()
    graph.add_edge("a", "b")
    with pytest.raises(KeyError):
        reachable(graph, ["a", "z"])


def test_views_read_as_networkx_spells_them() -> None:
    graph = DiGraph(unresolved=0)
    graph.add_nodes_from([("a", {"path": "a.py"}), "b"])
    graph.add_node("a", line=3)  # again: attributes are updated
    graph.add_edges_from([("a", "b", {"role": "call"}), ("b", "c")])
    graph.add_edge("a", "b", line=7)
    graph.graph["unresolved"] += 1
    assert graph.graph == {"unresolved": 1}
    assert list(graph) == ["a", "b", "c"] and len(graph) == graph.number_of_nodes() == 3
    assert graph.nodes["a"] == {"path": "a.py", "line": 3}
    assert graph.nodes["c"] == {}  # added by its edge
    assert list(graph.nodes(data="path")) == [("a", "a.py"), ("b", None), ("c", None)]
    assert next(iter(graph.nodes(data=True))) == ("a", {"path": "a.py", "line": 3})
    assert list(graph.edges) == [("a", "b"), ("b", "c")] and graph.number_of_edges() == 2
    assert graph.edges["a", "b"] == {"role": "call", "line": 7}
    assert list(graph.edges(data="role")) == [("a", "b", "call"), ("b", "c", None)]
    assert list(graph.out_edges("b", data=True)) == [("b", "c", {})]
    assert graph["a"] == {"b": {"role": "call", "line": 7}}
    assert list(graph.predecessors("b")) == ["a"] and list(graph.successors("b")) == ["c"]
    assert graph.has_edge("a", "b") and not graph.has_edge("b", "a")
    assert "a" in graph and "z" not in graph and ["a"] not in graph
    assert dict(graph.adjacency())["b"] == {"c": {}}
