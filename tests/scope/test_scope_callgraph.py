"""The repository call graph: nodes, cross-file resolution, roles, override edges, speed."""

from __future__ import annotations

import random
from collections.abc import Sequence

import networkx as nx
import pytest

from apiscan.extract.records import CallFact, ClassFact, FileAnalysis, FunctionFact
from apiscan.program.index import ClassTable
from apiscan.resolve.torch_api import load_torch_api
from apiscan.scope import ScopeMap, build_call_graph, classify

Call = tuple[str, str] | tuple[str, str, str]  # (caller, callee[, role])


def record(
    path: str,
    modules: str | tuple[str, ...],
    functions: Sequence[str] = (),
    calls: Sequence[Call] = (),
    classes: Sequence[ClassFact] = (),
    exports: Sequence[tuple[str, str]] = (),
) -> FileAnalysis:
    """A FileAnalysis as the extractor would write it; a function's class is the longest
    prefix of its qualname that names a class of the file, and lines count up from 10."""
    names = {c.qualname for c in classes}

    def owner(qualname: str) -> str:
        parent = qualname.rpartition(".")[0]
        return parent if parent in names else ""

    mods = (modules,) if isinstance(modules, str) else modules
    return FileAnalysis(
        path=path,
        modules=mods,
        sha256="",
        lines=100,
        exports=tuple(exports),
        classes=tuple(classes),
        functions=tuple(FunctionFact(q, owner(q), 10 + i) for i, q in enumerate(functions)),
        calls=tuple(CallFact(c[0], c[1], 50 + i, *c[2:]) for i, c in enumerate(calls)),
    )


def tinydet() -> list[FileAnalysis]:
    """A small detector repository spread over five modules and a script."""
    return [
        record(
            "tinydet/__init__.py",
            "tinydet",
            exports=[
                ("Detector", "tinydet.model.Detector"),
                ("decode_boxes", "tinydet.layers.decode_boxes"),
            ],
        ),
        record(
            "tinydet/layers.py",
            "tinydet.layers",
            functions=[
                "decode_boxes",
                "clip",
                "BaseHead.__init__",
                "BaseHead.forward",
                "BaseHead.decode",
            ],
            classes=[
                ClassFact("BaseHead", ("torch.nn.Module",), ("__init__", "decode", "forward"))
            ],
            calls=[
                ("decode_boxes", "tinydet.layers.clip"),
                ("BaseHead.forward", "tinydet.layers.BaseHead.decode"),
                ("BaseHead.forward", "torch.nn.functional.relu"),
            ],
        ),
        record(
            "tinydet/head.py",
            "tinydet.head",
            functions=["Head.__init__", "Head.decode", "anchors"],
            classes=[ClassFact("Head", ("tinydet.layers.BaseHead",), ("__init__", "decode"))],
            exports=[("BaseHead", "tinydet.layers.BaseHead")],
            calls=[
                ("Head.__init__", "tinydet.head.BaseHead.__init__"),
                ("Head.decode", "tinydet.decode_boxes"),
                ("Head.decode", "tinydet.head.anchors"),
            ],
        ),
        record(
            "tinydet/model.py",
            "tinydet.model",
            functions=[
                "Detector.__init__",
                "Detector.forward",
                "FocalLoss.forward",
                "sigmoid_focal",
            ],
            classes=[
                ClassFact("Detector", ("torch.nn.Module",), ("__init__", "forward")),
                ClassFact("FocalLoss", ("torch.nn.modules.loss._Loss",), ("forward",)),
            ],
            exports=[("Head", "tinydet.head.Head"), ("nn", "torch.nn")],
            calls=[
                ("Detector.__init__", "tinydet.model.Head"),
                ("Detector.__init__", "torch.nn.Conv2d"),
                ("Detector.forward", "tinydet.head.Head.forward"),
                ("FocalLoss.forward", "tinydet.model.sigmoid_focal"),
            ],
        ),
        record(
            "tinydet/data.py",
            "tinydet.data",
            functions=[
                "CocoDataset.__init__",
                "CocoDataset.__getitem__",
                "CocoDataset.__len__",
                "load_image",
                "collate",
                "pad_batch",
                "RandomFlip.__call__",
                "flip",
            ],
            classes=[
                ClassFact(
                    "CocoDataset",
                    ("torch.utils.data.Dataset",),
                    ("__getitem__", "__init__", "__len__"),
                ),
                ClassFact("RandomFlip", (), ("__call__",)),
            ],
            exports=[("decode_boxes", "tinydet.layers.decode_boxes")],
            calls=[
                ("CocoDataset.__getitem__", "tinydet.data.load_image"),
                ("CocoDataset.__getitem__", "tinydet.data.decode_boxes"),
                ("collate", "tinydet.data.pad_batch"),
                ("RandomFlip.__call__", "tinydet.data.flip"),
                ("", "tinydet.data.load_image"),
            ],
        ),
        record(
            "tools/train.py",
            "tools.train",
            functions=["main", "train_one_epoch"],
            exports=[("Detector", "tinydet.model.Detector")],
            calls=[
                ("main", "tools.train.Detector"),
                ("main", "tinydet.data.CocoDataset"),
                ("main", "tinydet.data.RandomFlip", "transform"),
                ("main", "torch.utils.data.DataLoader"),
                ("main", "tinydet.data.collate", "collate_fn"),
                ("main", "tools.train.train_one_epoch"),
                ("main", "tinydet.model.FocalLoss"),
                ("train_one_epoch", "tinydet.model.Detector.forward"),
                ("train_one_epoch", "tinydet.model.FocalLoss.forward"),
                ("train_one_epoch", "numpy.mean"),
                ("train_one_epoch", "tinydet.missing.evaluate"),
                ("main.<lambda>", "tinydet.data.flip"),
                ("", "tools.train.main"),
            ],
        ),
    ]


def graph_of(analyses: list[FileAnalysis]) -> tuple[nx.DiGraph, ClassTable]:
    classes = ClassTable(analyses, load_torch_api())
    return build_call_graph(analyses, classes), classes


def roles(graph: nx.DiGraph, caller: str) -> dict[str, str]:
    return {callee: role for _, callee, role in graph.out_edges(caller, data="role")}


def test_nodes_are_qualified_functions_and_module_code() -> None:
    graph, _ = graph_of(tinydet())
    assert graph.nodes["tinydet.head.Head.decode"] == {
        "path": "tinydet/head.py",
        "qualname": "Head.decode",
        "cls": "tinydet.head.Head",
        "line": 11,
        "kind": "method",
    }
    assert graph.nodes["tinydet.layers.decode_boxes"]["cls"] == ""
    assert graph.nodes["tinydet.layers.decode_boxes"]["kind"] == "function"
    top = graph.nodes["tools.train.<module>"]
    assert (top["kind"], top["path"], top["qualname"]) == ("module", "tools/train.py", "")
    assert roles(graph, "tools.train.<module>") == {"tools.train.main": "call"}
    functions = sum(len(fa.functions) for fa in tinydet())
    assert graph.number_of_nodes() == functions + len(tinydet())


def test_callees_resolve_through_reexports_classes_and_bases() -> None:
    graph, _ = graph_of(tinydet())
    # `Head(...)` re-exported into tinydet.model runs Head.__init__
    assert roles(graph, "tinydet.model.Detector.__init__") == {"tinydet.head.Head.__init__": "call"}
    # Head has no forward: calling the submodule runs the base class's, in another file
    assert roles(graph, "tinydet.model.Detector.forward") == {
        "tinydet.layers.BaseHead.forward": "call"
    }
    # a function re-exported by the package, and a base-class method through a module alias
    assert "tinydet.layers.decode_boxes" in roles(graph, "tinydet.head.Head.decode")
    assert "tinydet.layers.BaseHead.__init__" in roles(graph, "tinydet.head.Head.__init__")
    # a script importing the class by another path
    assert "tinydet.model.Detector.__init__" in roles(graph, "tools.train.main")


def test_data_roles_are_kept_and_point_at_what_the_loader_runs() -> None:
    graph, _ = graph_of(tinydet())
    out = roles(graph, "tools.train.main")
    assert out["tinydet.data.collate"] == "collate_fn"
    assert out["tinydet.data.RandomFlip.__call__"] == "transform"  # a class used as transform
    assert out["tinydet.data.CocoDataset.__init__"] == "call"


def test_dataset_role_on_a_class_reaches_its_fetch_methods() -> None:
    analyses = [
        record(
            "pkg/ds.py",
            "pkg.ds",
            functions=["Rows.__getitem__", "Rows.__len__", "build"],
            classes=[ClassFact("Rows", (), ("__getitem__", "__len__"))],
            calls=[("build", "pkg.ds.Rows", "dataset")],
        )
    ]
    graph, _ = graph_of(analyses)
    assert roles(graph, "pkg.ds.build") == {
        "pkg.ds.Rows.__getitem__": "dataset",
        "pkg.ds.Rows.__len__": "dataset",
    }


def test_a_data_role_wins_over_a_plain_call_on_the_same_edge() -> None:
    analyses = [
        record(
            "m.py",
            "m",
            functions=["main", "collate"],
            calls=[
                ("main", "m.collate"),
                ("main", "m.collate", "collate_fn"),
                ("main", "m.collate"),
            ],
        )
    ]
    graph, _ = graph_of(analyses)
    assert roles(graph, "m.main") == {"m.collate": "collate_fn"}
    assert graph.edges["m.main", "m.collate"]["line"] == 50


def test_override_and_nested_definition_edges() -> None:
    graph, _ = graph_of(tinydet())
    assert roles(graph, "tinydet.layers.BaseHead.decode") == {
        "tinydet.head.Head.decode": "override"
    }
    assert roles(graph, "tinydet.layers.BaseHead.__init__") == {
        "tinydet.head.Head.__init__": "override"
    }
    nested = [record("n.py", "n", functions=["outer", "outer.inner", "outer.inner.deepest"])]
    graph, _ = graph_of(nested)
    assert roles(graph, "n.outer") == {"n.outer.inner": "defines"}
    assert roles(graph, "n.outer.inner") == {"n.outer.inner.deepest": "defines"}


def test_unknown_callees_are_dropped_and_counted() -> None:
    graph, _ = graph_of(tinydet())
    # numpy.mean and tinydet.missing.evaluate name nothing known
    assert graph.graph["unresolved"] == 2
    # relu, Conv2d, DataLoader; CocoDataset.__init__ exists, FocalLoss has no __init__ of its own
    assert graph.graph["external"] == 4
    assert not any(n.startswith(("numpy", "torch")) for n in graph)
    assert "tinydet.missing.evaluate" not in graph


def test_calls_from_unlisted_functions_attach_to_the_enclosing_one() -> None:
    graph, _ = graph_of(tinydet())
    assert roles(graph, "tools.train.main")["tinydet.data.flip"] == "call"  # from a lambda


def test_every_module_name_of_a_file_spells_its_functions() -> None:
    analyses = [
        record(
            "src/pkg/a.py",
            ("src.pkg.a", "pkg.a"),
            functions=["f", "K.forward"],
            classes=[ClassFact("K", ("torch.nn.Module",), ("forward",))],
        ),
        record("b.py", "b", functions=["g"], calls=[("g", "pkg.a.f"), ("g", "pkg.a.K.forward")]),
    ]
    graph, _ = graph_of(analyses)
    assert roles(graph, "b.g") == {"src.pkg.a.f": "call", "src.pkg.a.K.forward": "call"}
    assert graph.nodes["src.pkg.a.K.forward"]["cls"] == "src.pkg.a.K"


def test_a_callable_object_without_forward_is_called_through_dunder_call() -> None:
    analyses = [
        record(
            "loss.py",
            "loss",
            functions=["ComputeLoss.__call__", "step"],
            classes=[ClassFact("ComputeLoss", (), ("__call__",))],
            calls=[("step", "loss.ComputeLoss.forward")],
        )
    ]
    graph, _ = graph_of(analyses)
    assert roles(graph, "loss.step") == {"loss.ComputeLoss.__call__": "call"}


def test_cyclic_class_hierarchies_and_recursion_terminate() -> None:
    analyses = [
        record(
            "c.py",
            "c",
            functions=["A.run", "f"],
            classes=[ClassFact("A", ("c.B",), ("run",)), ClassFact("B", ("c.A",), ())],
            calls=[("f", "c.B.missing"), ("f", "c.f"), ("A.run", "c.B.run")],
        )
    ]
    graph, classes = graph_of(analyses)
    assert roles(graph, "c.f") == {"c.f": "call"}
    assert roles(graph, "c.A.run") == {"c.A.run": "call"}
    assert classify(graph, analyses, classes)["c.f"] == "host"


def synthetic(files: int, per_file: int, calls_each: int, seed: int = 7) -> list[FileAnalysis]:
    """A repository of ``files * per_file`` functions, a tenth of them methods of nn.Module
    or Dataset subclasses, each making ``calls_each`` calls into random other files."""
    rng = random.Random(seed)
    out = []
    for i in range(files):
        mod = f"big.m{i}"
        classes = []
        functions = []
        for c in range(per_file // 10):
            base = "torch.nn.Module" if c % 3 else "torch.utils.data.Dataset"
            if c % 4 == 3:
                base = f"big.m{rng.randrange(files)}.C0"  # a repo base in another file
            method = "forward" if base != "torch.utils.data.Dataset" else "__getitem__"
            classes.append(ClassFact(f"C{c}", (base,), (method,)))
            functions.append(f"C{c}.{method}")
        functions += [f"f{k}" for k in range(per_file - len(functions))]
        calls: list[Call] = []
        for n, fn in enumerate(functions):
            if n % 5 == 4:
                continue  # leaves, so that not everything reaches everything
            for _ in range(calls_each):
                j = rng.randrange(files)
                kind = rng.random()
                target = "C2" if kind < 0.05 else "C1.forward" if kind < 0.15 else "f"
                if target == "f":
                    target = f"f{rng.randrange(per_file - per_file // 10)}"
                calls.append((fn, f"big.m{j}.{target}"))
        out.append(record(f"big/m{i}.py", mod, functions, calls, classes))
    return out


def test_twenty_thousand_functions_build_and_classify() -> None:
    """The large synthetic repository (its timing is in scripts/bench_lookups.py)."""
    analyses = synthetic(files=400, per_file=50, calls_each=4)
    classes = ClassTable(analyses, load_torch_api())
    graph = build_call_graph(analyses, classes)
    scopes = classify(graph, analyses, classes)
    assert graph.number_of_nodes() == 20_400
    assert graph.number_of_edges() > 55_000
    assert set(scopes.values()) == {"network", "data", "host"}


@pytest.mark.parametrize("function", ["", "Nowhere.run"])
def test_scope_map_defaults_to_host(function: str) -> None:
    analyses = tinydet()
    classes = ClassTable(analyses, load_torch_api())
    scopes = ScopeMap.build(analyses, classes)
    assert scopes.scope_of("tinydet/head.py", function) == "host"
