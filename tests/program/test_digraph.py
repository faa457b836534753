"""The call graph's own small DiGraph: the views the scope reads and the two algorithms."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from apiscan.program.digraph import DiGraph, components_in_order, reachable


def graph_of(edges: list[tuple[str, str]], nodes: tuple[str, ...] = ()) -> DiGraph:
    graph = DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def test_views_follow_insertion_order_and_share_attributes() -> None:
    graph = DiGraph(unresolved=0)
    graph.add_nodes_from([("b", {"path": "b.py"}), ("a", {"path": "a.py"}), "c"])
    graph.add_edges_from([("b", "a", {"role": "call", "line": 3}), ("b", "c", {"role": "ref"})])
    graph.add_edge("b", "a", line=7)  # a second edge on the same pair updates the first
    graph.graph["unresolved"] += 1
    assert list(graph) == ["b", "a", "c"] == list(graph.nodes)
    assert list(graph.nodes(data="path")) == [("b", "b.py"), ("a", "a.py"), ("c", None)]
    assert graph.nodes["a"] == {"path": "a.py"}
    assert list(graph.edges(data="role")) == [("b", "a", "call"), ("b", "c", "ref")]
    assert graph.edges["b", "a"] == {"role": "call", "line": 7}
    assert list(graph.out_edges("b", data="line")) == [("b", "a", 7), ("b", "c", None)]
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (3, 2)
    assert graph.has_edge("b", "c") and not graph.has_edge("c", "b")
    assert "a" in graph and "z" not in graph and ["a"] not in graph
    sub = graph.subgraph(n for n in graph if n != "a")
    assert list(sub) == ["b", "c"] and list(sub.edges()) == [("b", "c")]
    sub.nodes["b"]["kind"] = "function"  # attribute dicts are the graph's own
    assert graph.nodes["b"]["kind"] == "function" and sub.graph is graph.graph


def test_reachable_includes_the_sources() -> None:
    graph = graph_of([("a", "b"), ("b", "c"), ("d", "a")], nodes=("e",))
    assert reachable(graph, ["a"]) == {"a", "b", "c"}
    assert reachable(graph, ["e", "c"]) == {"e", "c"}
    assert reachable(graph, []) == set()
    with pytest.raises(KeyError):
        reachable(graph, ["z"])


def test_components_come_callers_first() -> None:
    graph = graph_of([("main", "f"), ("f", "g"), ("g", "f"), ("g", "h"), ("h", "h")])
    order = components_in_order(graph)
    assert [sorted(c) for c in order] == [["main"], ["f", "g"], ["h"]]


def _brute_force_components(graph: DiGraph) -> set[frozenset[str]]:
    closure = {n: reachable(graph, [n]) for n in graph}
    return {frozenset(m for m in graph if n in closure[m] and m in closure[n]) for n in graph}


@pytest.mark.parametrize("seed", range(20))
def test_components_match_mutual_reachability(seed: int) -> None:
    rng = random.Random(seed)
    nodes = [f"n{i}" for i in range(rng.randint(1, 30))]
    edges = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(rng.randint(0, 60))]
    graph = graph_of(edges, tuple(nodes))
    order = components_in_order(graph)
    assert {frozenset(c) for c in order} == _brute_force_components(graph)
    assert sum(map(len, order)) == len(nodes)
    position = {n: i for i, component in enumerate(order) for n in component}
    assert all(position[u] <= position[v] for u, v in graph.edges())


def test_a_long_chain_needs_no_recursion() -> None:
    nodes = [f"f{i}" for i in range(20_000)]
    graph = graph_of(list(pairwise(nodes)))
    assert [c[0] for c in components_in_order(graph)] == nodes
