"""Scope of every function: ``network`` (compiled into the graph), ``data`` or ``host``.

``callgraph`` builds the repository's call graph from the per-file facts after the join;
``classify`` labels its nodes, and ``ScopeMap`` answers by file path and function name.
"""

from apiscan.scope.callgraph import Hierarchy, build_call_graph
from apiscan.scope.classify import ScopeMap, classify

__all__ = ["Hierarchy", "ScopeMap", "build_call_graph", "classify"]
