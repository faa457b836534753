"""A directed graph on plain dicts, and the three searches the scan runs on one.

The call graph (:mod:`apiscan.scope.callgraph`), its classification into scopes
(:mod:`apiscan.scope.classify`) and the solver's order of components
(:mod:`apiscan.program.solver`) need nodes and edges with attribute dicts, a multi-source
reachability, strongly connected components and a topological order: a few dozen lines.
networkx, which did this before, costs ~0.1 s of CPU to import (about 350 modules and a scan
of every installed package's entry points), 6% of a cold scan of a 130-file repository, and
every cold scan paid it in its main process.

:class:`DiGraph` keeps networkx's spelling for what the scan and its tests use (``nodes``,
``edges``, ``out_edges``, ``adjacency``, ``graph``, ``G[u]``), and the same orders: nodes
and each node's successors in insertion order. :func:`components_in_order` gives the
components in the order networkx's ``topological_sort(condensation(G))`` did (its
iterative Tarjan search, then its generation-by-generation sort), so the solver meets its
components, and settles them, exactly as before.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any

Node = Hashable
Attrs = dict[str, Any]


class DiGraph:
    """Nodes with attribute dicts, at most one edge per ordered pair with its own dict.

    ``graph``: the graph's attributes. ``G[u]``: ``u``'s successors, each to its edge dict.
    Adding an edge adds a missing end node with no attributes; adding a node or an edge
    again updates its attributes."""

    def __init__(self, **attrs: Any) -> None:
        self.graph: Attrs = dict(attrs)
        self._node: dict[Node, Attrs] = {}
        self._succ: dict[Node, dict[Node, Attrs]] = {}
        self._pred: dict[Node, dict[Node, Attrs]] = {}

    # nodes

    def add_node(self, n: Node, **attrs: Any) -> None:
        if n in self._node:
            self._node[n].update(attrs)
        else:
            self._node[n] = dict(attrs)
            self._succ[n] = {}
            self._pred[n] = {}

    def add_nodes_from(self, nodes: Iterable[Node | tuple[Node, Attrs]]) -> None:
        """Each item a node, or ``(node, attributes)``."""
        for item in nodes:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
                self.add_node(item[0], **item[1])
            else:
                self.add_node(item)

    def __contains__(self, n: object) -> bool:
        try:
            return n in self._node
        except TypeError:  # an unhashable object is no node
            return False

    def __iter__(self) -> Iterator[Node]:
        return iter(self._node)

    def __len__(self) -> int:
        return len(self._node)

    def __getitem__(self, n: Node) -> dict[Node, Attrs]:
        return self._succ[n]

    @property
    def nodes(self) -> _NodeView:
        return _NodeView(self._node)

    def number_of_nodes(self) -> int:
        return len(self._node)

    # edges

    def add_edge(self, u: Node, v: Node, **attrs: Any) -> None:
        self.add_node(u)
        self.add_node(v)
        data = self._succ[u].get(v)
        if data is None:
            data = self._succ[u][v] = self._pred[v][u] = {}
        data.update(attrs)

    def add_edges_from(self, edges: Iterable[tuple[Node, Node] | tuple[Node, Node, Attrs]]) -> None:
        """Each item ``(u, v)`` or ``(u, v, attributes)``."""
        for edge in edges:
            if len(edge) == 3:
                u, v, attrs = edge  # type: ignore[misc]
                self.add_edge(u, v, **attrs)
            else:
                self.add_edge(edge[0], edge[1])

    def has_edge(self, u: Node, v: Node) -> bool:
        return u in self._succ and v in self._succ[u]

    @property
    def edges(self) -> _EdgeView:
        return _EdgeView(self._succ)

    def out_edges(self, nbunch: Node | None = None, data: bool | str = False) -> Iterator[Any]:
        """Edges out of ``nbunch`` (a node; None: all), as :meth:`_EdgeView.__call__`."""
        return self.edges(nbunch, data)

    def number_of_edges(self) -> int:
        return sum(len(s) for s in self._succ.values())

    def adjacency(self) -> Iterator[tuple[Node, dict[Node, Attrs]]]:
        return iter(self._succ.items())

    def successors(self, n: Node) -> Iterator[Node]:
        return iter(self._succ[n])

    def predecessors(self, n: Node) -> Iterator[Node]:
        return iter(self._pred[n])


class _NodeView:
    """``G.nodes``: ``G.nodes[n]`` is ``n``'s attributes; ``G.nodes(data=...)`` iterates
    ``(n, attributes)`` (``True``) or ``(n, attributes.get(key, default))`` (a key)."""

    __slots__ = ("_node",)

    def __init__(self, node: dict[Node, Attrs]) -> None:
        self._node = node

    def __getitem__(self, n: Node) -> Attrs:
        return self._node[n]

    def __iter__(self) -> Iterator[Node]:
        return iter(self._node)

    def __len__(self) -> int:
        return len(self._node)

    def __contains__(self, n: object) -> bool:
        return n in self._node

    def __call__(self, data: bool | str = False, default: Any = None) -> Any:
        if data is False:
            return self
        if data is True:
            return iter(self._node.items())
        return ((n, d.get(data, default)) for n, d in self._node.items())


class _EdgeView:
    """``G.edges``: ``G.edges[u, v]`` is the edge's attributes; ``G.edges(data=...)``
    iterates ``(u, v)``, ``(u, v, attributes)`` (``True``) or ``(u, v, value)`` (a key)."""

    __slots__ = ("_succ",)

    def __init__(self, succ: dict[Node, dict[Node, Attrs]]) -> None:
        self._succ = succ

    def __getitem__(self, edge: tuple[Node, Node]) -> Attrs:
        u, v = edge
        return self._succ[u][v]

    def __iter__(self) -> Iterator[tuple[Node, Node]]:
        return ((u, v) for u, nbrs in self._succ.items() for v in nbrs)

    def __len__(self) -> int:
        return sum(len(s) for s in self._succ.values())

    def __contains__(self, edge: object) -> bool:
        try:
            u, v = edge  # type: ignore[misc]
            return v in self._succ[u]
        except (TypeError, ValueError, KeyError):
            return False

    def __call__(
        self, nbunch: Node | None = None, data: bool | str = False, default: Any = None
    ) -> Iterator[Any]:
        if nbunch is None:
            items: Iterable[tuple[Node, dict[Node, Attrs]]] = self._succ.items()
        else:
            items = [(nbunch, self._succ[nbunch])]
        if data is False:
            return ((u, v) for u, nbrs in items for v in nbrs)
        if data is True:
            return ((u, v, d) for u, nbrs in items for v, d in nbrs.items())
        return ((u, v, d.get(data, default)) for u, nbrs in items for v, d in nbrs.items())


def reachable(graph: DiGraph, sources: Iterable[Node]) -> set[Node]:
    """Every node reachable from ``sources`` (which must be nodes of ``graph``), themselves
    included."""
    succ = graph._succ
    seen = set(sources)
    for s in seen:
        if s not in succ:
            raise KeyError(f"the node {s!r} is not in the graph")
    todo = list(seen)
    while todo:
        for child in succ[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def strongly_connected_components(graph: DiGraph) -> Iterator[set[Node]]:
    """The strongly connected components, in the order networkx 3's iterative Tarjan search
    yields them (sources in node order, successors in insertion order): a component comes
    after every component it reaches."""
    succ = graph._succ
    preorder: dict[Node, int] = {}
    lowlink: dict[Node, int] = {}
    found: set[Node] = set()
    stack: list[Node] = []
    i = 0
    neighbours = {v: iter(succ[v]) for v in succ}
    for source in succ:
        if source in found:
            continue
        queue = [source]
        while queue:
            v = queue[-1]
            if v not in preorder:
                i += 1
                preorder[v] = i
            done = True
            for w in neighbours[v]:
                if w not in preorder:
                    queue.append(w)
                    done = False
                    break
            if not done:
                continue
            low = preorder[v]
            for w in succ[v]:
                if w not in found:
                    low = min(low, lowlink[w] if preorder[w] > preorder[v] else preorder[w])
            lowlink[v] = low
            queue.pop()
            if low == preorder[v]:
                scc = {v}
                while stack and preorder[stack[-1]] > preorder[v]:
                    scc.add(stack.pop())
                found.update(scc)
                yield scc
            else:
                stack.append(v)


def components_in_order(graph: DiGraph) -> list[set[Node]]:
    """The strongly connected components, each before every component it reaches (callers
    first, on a graph of caller → callee edges), in the order of networkx's
    ``topological_sort(condensation(graph))``: components numbered as
    :func:`strongly_connected_components` yields them, then sorted generation by generation
    (those no other component reaches, then those only they reach, ...), each generation in
    the order its members' last incoming edge was counted down."""
    comps = list(strongly_connected_components(graph))
    where: dict[Node, int] = {}
    for i, comp in enumerate(comps):
        for n in comp:
            where[n] = i
    succ: list[dict[int, None]] = [{} for _ in comps]
    for u, nbrs in graph._succ.items():
        cu = where[u]
        for v in nbrs:
            cv = where[v]
            if cu != cv:
                succ[cu][cv] = None
    indegree = [0] * len(comps)
    for s in succ:
        for c in s:
            indegree[c] += 1
    order: list[int] = []
    generation = [c for c in range(len(comps)) if indegree[c] == 0]
    while generation:
        order.extend(generation)
        following: list[int] = []
        for c in generation:
            for child in succ[c]:
                indegree[child] -= 1
                if indegree[child] == 0:
                    following.append(child)
        generation = following
    return [comps[c] for c in order]
