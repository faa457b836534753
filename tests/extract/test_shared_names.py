"""The records of one file name each function and callee with one string object, so a
worker's pickle writes it once (same values, fewer bytes); the scope search over the call
graph's test-free part sees the same nodes and edges as over the whole graph's view."""

from __future__ import annotations

import pickle

import networkx as nx

from apiscan.extract import FileTask, analyse
from apiscan.scope.classify import _induced

SOURCE = b"""\
import torch

def helper(x):
    return x

class Trainer:
    def train_step(self, x):
        y = torch.relu(x)
        z = torch.sigmoid(y)
        helper(y)
        helper(z)
        return z

def other(x):
    return torch.relu(x)
"""


def _analysis():
    task = FileTask("pkg/steps.py", ("pkg.steps",), False, SOURCE)
    return analyse(task, frozenset({"pkg"}))


def test_records_of_one_function_share_its_name() -> None:
    fa = _analysis()
    step = [u for u in fa.uses if u.function == "Trainer.train_step"]
    assert [u.api for u in step] == ["torch.relu", "torch.sigmoid"]
    assert step[0].function is step[1].function
    calls = [
        c for c in fa.calls if c.caller == "Trainer.train_step" and c.callee.endswith("helper")
    ]
    assert [c.callee for c in calls] == ["pkg.steps.helper", "pkg.steps.helper"]
    assert calls[0].callee is calls[1].callee
    assert calls[0].caller is step[0].function


def test_different_names_stay_different() -> None:
    fa = _analysis()
    names = {u.function for u in fa.uses}
    assert names == {"Trainer.train_step", "other"}
    assert pickle.loads(pickle.dumps(fa, pickle.HIGHEST_PROTOCOL)) == fa


def test_induced_graph_keeps_the_kept_nodes_edges_and_data() -> None:
    graph = nx.DiGraph()
    graph.add_node("a", path="a.py")
    graph.add_node("b", path="tests/test_b.py")
    graph.add_node("c", path="c.py")
    graph.add_edge("a", "b", role="call")
    graph.add_edge("a", "c", role="ref")
    graph.add_edge("b", "c", role="call")
    sub = _induced(graph, {"a", "c"})
    assert sorted(sub.nodes(data=True)) == [("a", {"path": "a.py"}), ("c", {"path": "c.py"})]
    assert list(sub.edges(data=True)) == [("a", "c", {"role": "ref"})]
    assert nx.is_isomorphic(sub, graph.subgraph({"a", "c"}))
    assert len(_induced(graph, set())) == 0
