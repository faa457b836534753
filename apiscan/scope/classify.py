"""Where each function runs: in the network graph, in data processing, or on the host.

MindSpore compiles the network (``nn.Module.forward``, losses and everything they call) for
fixed shapes; data processing can stay on NumPy and the host loop is plain Python. So the same
``nonzero`` is a blocker in a head's ``forward`` and harmless in a dataset's ``__getitem__``:
findings carry the scope of the function they are in, and a dynamic shape's severity follows.

Two multi-source searches over the call graph decide it: everything reachable from a network
root is ``network``; everything else reachable from a data root is ``data`` (a helper used by
both a ``forward`` and a dataset is compiled into the graph, so network wins); the rest, module
code included, is ``host``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain

import networkx as nx

from apiscan.extract.records import FileAnalysis
from apiscan.model import SCOPES
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.scope.callgraph import DATA_ROLES, DATASET_METHODS, build_call_graph

NETWORK, DATA, HOST = SCOPES

#: Losses that are not ``nn.Module`` subclasses still belong to the graph (MindSpore builds
#: the loss into the network it differentiates): YOLOv5's ``class ComputeLoss`` with a
#: ``__call__``, and functions such as ``focal_loss`` or ``compute_loss`` called from the loop.
_LOSS_FUNCTION = re.compile(r"(?:[a-z0-9]+_)*loss(?:_fn|_func)?", re.IGNORECASE)
_LOSS_CLASS = re.compile(r"\w*(?:Loss|Criterion)")


def network_roots(graph: nx.DiGraph, hierarchy: Hierarchy) -> set[str]:
    """``forward`` (else ``__call__``) of every ``nn.Module`` subclass and of every loss class,
    and every function named like a loss."""
    roots = set()
    for cls in hierarchy.repo_classes():
        name = cls.rpartition(".")[2]
        if hierarchy.is_module(cls) or _LOSS_CLASS.fullmatch(name):
            entry = hierarchy.method(cls, "forward") or hierarchy.method(cls, "__call__")
            if entry is not None and entry in graph:
                roots.add(entry)
    for node, data in graph.nodes(data=True):
        if data["kind"] != "module" and _LOSS_FUNCTION.fullmatch(node.rpartition(".")[2]):
            roots.add(node)
    return roots


def data_roots(graph: nx.DiGraph, hierarchy: Hierarchy) -> set[str]:
    """What the data loader calls: the fetch methods of Dataset / IterableDataset subclasses,
    and whatever is passed as ``collate_fn``, ``worker_init_fn``, a transform or a dataset
    (a class passed so contributes its ``__call__`` or fetch methods; see the call graph)."""
    roots = set()
    for cls in hierarchy.repo_classes():
        if hierarchy.is_dataset(cls):
            for name in DATASET_METHODS:
                entry = hierarchy.method(cls, name)
                if entry is not None and entry in graph:
                    roots.add(entry)
    for _caller, callee, role in graph.edges(data="role"):
        if role in DATA_ROLES:
            roots.add(callee)
    return roots


def _reachable(graph: nx.DiGraph, roots: Iterable[str]) -> set[str]:
    sources = list(roots)
    if not sources:
        return set()
    return set(chain.from_iterable(nx.bfs_layers(graph, sources)))


def classify(
    graph: nx.DiGraph, analyses: Sequence[FileAnalysis], classes: ClassTable
) -> dict[str, str]:
    """Every node of ``graph`` → ``network`` | ``data`` | ``host``."""
    hierarchy = Hierarchy(analyses, classes)
    network = _reachable(graph, network_roots(graph, hierarchy))
    data = _reachable(graph, data_roots(graph, hierarchy)) - network
    return {node: NETWORK if node in network else DATA if node in data else HOST for node in graph}


class ScopeMap:
    """Scope by (file path, module-relative function name), the way findings name places.

    ``function`` is what the extractor records (``Head.forward``; ``""`` at module level). A
    name the graph does not hold (a lambda, a function nested in a comprehension) takes the
    scope of the nearest enclosing function it does hold.
    """

    def __init__(self, graph: nx.DiGraph, scopes: Mapping[str, str]) -> None:
        self._scopes: dict[tuple[str, str], str] = {}
        for node, data in graph.nodes(data=True):
            if data["kind"] != "module":
                self._scopes[(data["path"], data["qualname"])] = scopes.get(node, HOST)

    @classmethod
    def build(cls, analyses: Sequence[FileAnalysis], classes: ClassTable) -> ScopeMap:
        """Call graph and classification in one go (what the pipeline's join needs)."""
        graph = build_call_graph(analyses, classes)
        return cls(graph, classify(graph, analyses, classes))

    def scope_of(self, path: str, function: str) -> str:
        while function:
            scope = self._scopes.get((path, function))
            if scope is not None:
                return scope
            function = function.rpartition(".")[0]
        return HOST
