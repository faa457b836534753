"""A small directed graph: the call graph of :mod:`apiscan.scope` and the solver's call order.

Both used networkx, whose import (with its scan of every installed distribution's entry
points for graph backends) cost a cold scan ~0.1 s of CPU, more than building and searching
these graphs. This keeps the part of networkx's ``DiGraph`` interface they use, with the same
insertion-ordered iteration: ``graph.nodes[n]`` / ``graph.nodes(data=...)``,
``graph.edges[u, v]`` / ``graph.edges(data=...)``, ``out_edges``, ``subgraph``, graph
attributes in ``graph.graph``; and the two algorithms they need, reachability and the strongly
connected components in topological order.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any

Node = Hashable
Attrs = dict[str, Any]

#: ``data=`` of the views: False (bare nodes or edges), True (with the attribute dict) or one
#: attribute's name (its value, None when absent).
_NO_DATA = False


class DiGraph:
    """Nodes with attribute dicts, and at most one edge (with an attribute dict) per ordered
    pair. Iteration follows insertion order, as networkx's does."""

    def __init__(self, **attrs: Any) -> None:
        self.graph: Attrs = dict(attrs)
        self._node: dict[Node, Attrs] = {}
        self._succ: dict[Node, dict[Node, Attrs]] = {}
        self._pred: dict[Node, dict[Node, Attrs]] = {}

    # ------------------------------------------------------------------ building
    def add_node(self, node: Node, **attrs: Any) -> None:
        if node not in self._node:
            self._node[node] = {}
            self._succ[node] = {}
            self._pred[node] = {}
        self._node[node].update(attrs)

    def add_nodes_from(self, nodes: Iterable[Node | tuple[Node, Attrs]]) -> None:
        """Nodes, or (node, attribute dict) pairs; an existing node's attributes are updated."""
        for item in nodes:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
                self.add_node(item[0], **item[1])
            else:
                self.add_node(item)

    def add_edge(self, u: Node, v: Node, **attrs: Any) -> None:
        self.add_node(u)
        self.add_node(v)
        data = self._succ[u].get(v)
        if data is None:
            data = self._succ[u][v] = self._pred[v][u] = {}
        data.update(attrs)

    def add_edges_from(self, edges: Iterable[tuple[Node, Node] | tuple[Node, Node, Attrs]]) -> None:
        for edge in edges:
            self.add_edge(edge[0], edge[1], **(edge[2] if len(edge) == 3 else {}))

    # ------------------------------------------------------------------ reading
    def __contains__(self, node: object) -> bool:
        try:
            return node in self._node
        except TypeError:  # unhashable: no node
            return False

    def __iter__(self) -> Iterator[Node]:
        return iter(self._node)

    def __len__(self) -> int:
        return len(self._node)

    def number_of_nodes(self) -> int:
        return len(self._node)

    def number_of_edges(self) -> int:
        return sum(len(succ) for succ in self._succ.values())

    def has_edge(self, u: Node, v: Node) -> bool:
        return u in self._succ and v in self._succ[u]

    def successors(self, node: Node) -> Iterator[Node]:
        return iter(self._succ[node])

    def predecessors(self, node: Node) -> Iterator[Node]:
        return iter(self._pred[node])

    @property
    def nodes(self) -> _NodeView:
        return _NodeView(self)

    @property
    def edges(self) -> _EdgeView:
        return _EdgeView(self)

    def out_edges(self, node: Node, data: bool | str = _NO_DATA) -> Iterator[tuple[Any, ...]]:
        for v, attrs in self._succ[node].items():
            yield _edge(node, v, attrs, data)

    def subgraph(self, nodes: Iterable[Node]) -> DiGraph:
        """The graph induced by ``nodes`` (those in this graph), in this graph's order; node
        and edge attribute dicts and ``graph`` are shared, as in networkx's subgraph view."""
        keep = {n for n in nodes if n in self}
        sub = DiGraph()
        sub.graph = self.graph
        for n, attrs in self._node.items():
            if n in keep:
                sub._node[n] = attrs
                sub._succ[n] = {v: d for v, d in self._succ[n].items() if v in keep}
                sub._pred[n] = {u: d for u, d in self._pred[n].items() if u in keep}
        return sub


class _NodeView:
    """``graph.nodes``: ``[n]`` is a node's attribute dict; called, the nodes with data."""

    def __init__(self, graph: DiGraph) -> None:
        self._graph = graph

    def __getitem__(self, node: Node) -> Attrs:
        return self._graph._node[node]

    def __iter__(self) -> Iterator[Node]:
        return iter(self._graph._node)

    def __len__(self) -> int:
        return len(self._graph._node)

    def __contains__(self, node: object) -> bool:
        return node in self._graph

    def __call__(self, data: bool | str = _NO_DATA, default: Any = None) -> Iterator[Any]:
        items = self._graph._node.items()
        if data is False:
            return iter(self._graph._node)
        if data is True:
            return iter(items)
        return ((n, attrs.get(data, default)) for n, attrs in items)


class _EdgeView:
    """``graph.edges``: ``[u, v]`` is an edge's attribute dict; called, the edges with data."""

    def __init__(self, graph: DiGraph) -> None:
        self._graph = graph

    def __getitem__(self, edge: tuple[Node, Node]) -> Attrs:
        return self._graph._succ[edge[0]][edge[1]]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self()

    def __len__(self) -> int:
        return self._graph.number_of_edges()

    def __call__(self, data: bool | str = _NO_DATA) -> Iterator[tuple[Any, ...]]:
        for u, succ in self._graph._succ.items():
            for v, attrs in succ.items():
                yield _edge(u, v, attrs, data)


def _edge(u: Node, v: Node, attrs: Attrs, data: bool | str) -> tuple[Any, ...]:
    if data is False:
        return (u, v)
    if data is True:
        return (u, v, attrs)
    return (u, v, attrs.get(data))


def reachable(graph: DiGraph, sources: Iterable[Node]) -> set[Node]:
    """``sources`` and every node a path from one of them reaches."""
    seen: set[Node] = set()
    stack = []
    for source in sources:
        if source not in graph:
            raise KeyError(f"the node {source!r} is not in the graph")
        if source not in seen:
            seen.add(source)
            stack.append(source)
    succ = graph._succ
    while stack:
        for v in succ[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def components_in_order(graph: DiGraph) -> list[list[Node]]:
    """The strongly connected components, each before every component it has an edge to (a
    topological order of the condensation), found by Tarjan's algorithm without recursion
    (a long call chain must not hit Python's recursion limit)."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    found: list[list[Node]] = []  # each after every component it reaches
    succ = graph._succ
    for root in graph._node:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ[root]))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found.append(component)
    found.reverse()
    return found
