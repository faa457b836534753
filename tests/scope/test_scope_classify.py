"""Scopes: network (reachable from a forward or a loss), data (what the loader runs), host."""

from __future__ import annotations

from test_scope_callgraph import record, tinydet

from apiscan.extract.records import ClassFact, FileAnalysis
from apiscan.program.index import ClassTable
from apiscan.resolve.torch_api import load_torch_api
from apiscan.scope import ScopeMap, build_call_graph, classify


def scopes_of(analyses: list[FileAnalysis]) -> dict[str, str]:
    classes = ClassTable(analyses, load_torch_api())
    return classify(build_call_graph(analyses, classes), analyses, classes)


def test_tinydet_functions_land_in_their_scopes() -> None:
    assert scopes_of(tinydet()) == {
        # forward of a Module inherited by a subclass, and what it calls in other files
        "tinydet.layers.BaseHead.forward": "network",
        "tinydet.layers.BaseHead.decode": "network",
        "tinydet.head.Head.decode": "network",  # overrides a method forward calls
        "tinydet.head.anchors": "network",
        "tinydet.layers.clip": "network",
        "tinydet.model.Detector.forward": "network",
        "tinydet.model.FocalLoss.forward": "network",  # a loss Module
        "tinydet.model.sigmoid_focal": "network",
        # used by both a dataset and a forward: compiled into the graph
        "tinydet.layers.decode_boxes": "network",
        # what the loader runs
        "tinydet.data.CocoDataset.__getitem__": "data",
        "tinydet.data.CocoDataset.__len__": "data",
        "tinydet.data.load_image": "data",
        "tinydet.data.collate": "data",
        "tinydet.data.pad_batch": "data",
        "tinydet.data.RandomFlip.__call__": "data",
        "tinydet.data.flip": "data",
        # a Module's constructor builds its layers: the network's definition
        "tinydet.layers.BaseHead.__init__": "network",
        "tinydet.head.Head.__init__": "network",
        "tinydet.model.Detector.__init__": "network",
        # a dataset's constructor, the training loop, scripts and module code
        "tinydet.data.CocoDataset.__init__": "host",
        "tools.train.main": "host",
        "tools.train.train_one_epoch": "host",
        "tinydet.<module>": "host",
        "tinydet.layers.<module>": "host",
        "tinydet.head.<module>": "host",
        "tinydet.model.<module>": "host",
        "tinydet.data.<module>": "host",
        "tools.train.<module>": "host",
    }


def test_scope_map_answers_by_path_and_function_name() -> None:
    analyses = tinydet()
    scopes = ScopeMap.build(analyses, ClassTable(analyses, load_torch_api()))
    assert scopes.scope_of("tinydet/layers.py", "BaseHead.forward") == "network"
    assert scopes.scope_of("tinydet/data.py", "CocoDataset.__getitem__") == "data"
    assert scopes.scope_of("tinydet/data.py", "collate.<lambda>") == "data"  # enclosing one
    assert scopes.scope_of("tools/train.py", "main") == "host"
    assert scopes.scope_of("tinydet/data.py", "") == "host"  # module level
    assert scopes.scope_of("tinydet/model.py", "collate") == "host"  # not in that file


def test_module_with_an_unknown_mixin_and_non_module_losses_are_network() -> None:
    analyses = [
        record(
            "m.py",
            "m",
            functions=[
                "Block.forward",
                "ComputeLoss.__call__",
                "build_targets",
                "focal_loss",
                "iou",
                "Plain.forward",
                "plot_losses",
                "main",
            ],
            classes=[
                ClassFact("Block", ("mmcv.Mixin", "", "torch.nn.Module"), ("forward",)),
                ClassFact("ComputeLoss", (), ("__call__",)),  # YOLOv5's plain-class loss
                ClassFact("Plain", (), ("forward",)),  # not a module: forward is just a name
            ],
            calls=[
                ("ComputeLoss.__call__", "m.build_targets"),
                ("focal_loss", "m.iou"),
                ("main", "m.focal_loss"),
                ("main", "m.plot_losses"),
            ],
        )
    ]
    assert scopes_of(analyses) == {
        "m.Block.forward": "network",
        "m.ComputeLoss.__call__": "network",
        "m.build_targets": "network",
        "m.focal_loss": "network",
        "m.iou": "network",
        "m.Plain.forward": "host",
        "m.plot_losses": "host",
        "m.main": "host",
        "m.<module>": "host",
    }


def test_a_loss_class_named_with_a_variant_suffix_is_network() -> None:
    """``ComputeLossOTA`` (a loss whose name goes on after the word) is the training loss when
    it computes one (a ``__call__``); a ``DynamicLossScaler`` without one is host code."""
    analyses = [
        record(
            "m.py",
            "m",
            functions=[
                "ComputeLossOTA.__call__",
                "ComputeLossOTA.build_targets",
                "DynamicLossScaler.__init__",
                "DynamicLossScaler.update",
                "train",
            ],
            classes=[
                ClassFact("ComputeLossOTA", (), ("__call__", "build_targets")),
                ClassFact("DynamicLossScaler", (), ("__init__", "update")),
            ],
            calls=[
                ("ComputeLossOTA.__call__", "m.ComputeLossOTA.build_targets"),
                ("train", "m.DynamicLossScaler.update"),
            ],
        )
    ]
    got = scopes_of(analyses)
    assert got["m.ComputeLossOTA.__call__"] == "network"
    assert got["m.ComputeLossOTA.build_targets"] == "network"
    assert got["m.DynamicLossScaler.__init__"] == "host"
    assert got["m.DynamicLossScaler.update"] == "host"


def test_dataset_kinds_and_a_dataset_inheriting_getitem_from_another_file() -> None:
    analyses = [
        record(
            "base.py",
            "pkg.base",
            functions=["BaseSet.__getitem__", "BaseSet.__len__", "read"],
            classes=[
                ClassFact("BaseSet", ("torch.utils.data.Dataset",), ("__getitem__", "__len__"))
            ],
            calls=[("BaseSet.__getitem__", "pkg.base.read")],
        ),
        record(
            "sets.py",
            "pkg.sets",
            functions=[
                "Voc.__init__",
                "Stream.__iter__",
                "Tensors.__getitems__",
                "Rows.__len__",
                "seed_workers",
                "make",
            ],
            classes=[
                ClassFact("Voc", ("pkg.base.BaseSet",), ("__init__",)),
                ClassFact("Stream", ("torch.utils.data.IterableDataset",), ("__iter__",)),
                ClassFact("Tensors", ("torch.utils.data.TensorDataset",), ("__getitems__",)),
                ClassFact("Rows", (), ("__len__",)),  # duck-typed, passed as a dataset
            ],
            calls=[
                ("make", "pkg.sets.Rows", "dataset"),
                ("make", "pkg.sets.seed_workers", "worker_init_fn"),
            ],
        ),
    ]
    assert scopes_of(analyses) == {
        "pkg.base.BaseSet.__getitem__": "data",
        "pkg.base.BaseSet.__len__": "data",
        "pkg.base.read": "data",
        "pkg.sets.Voc.__init__": "host",
        "pkg.sets.Stream.__iter__": "data",
        "pkg.sets.Tensors.__getitems__": "data",
        "pkg.sets.Rows.__len__": "data",
        "pkg.sets.seed_workers": "data",
        "pkg.sets.make": "host",
        "pkg.base.<module>": "host",
        "pkg.sets.<module>": "host",
    }


def test_network_wins_when_a_transform_calls_into_a_forward_helper() -> None:
    analyses = [
        record(
            "t.py",
            "t",
            functions=["Net.forward", "normalize", "augment", "shared", "only_data"],
            classes=[ClassFact("Net", ("torch.nn.Module",), ("forward",))],
            calls=[
                ("Net.forward", "t.shared"),
                ("augment", "t.shared"),
                ("augment", "t.only_data"),
                ("shared", "t.normalize"),
                ("", "t.augment", "transform"),
            ],
        )
    ]
    scopes = scopes_of(analyses)
    assert scopes["t.shared"] == scopes["t.normalize"] == "network"
    assert scopes["t.augment"] == scopes["t.only_data"] == "data"


def test_a_repository_without_models_or_data_is_all_host() -> None:
    analyses = [record("s.py", "s", functions=["main", "parse"], calls=[("main", "s.parse")])]
    assert set(scopes_of(analyses).values()) == {"host"}
