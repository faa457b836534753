"""The review's sections one by one: module structure and roles, gaps, extensions, third-party
packages, sparse use and the effort estimate, on tiny repositories written for each case."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.extract.records import FileAnalysis
from apiscan.model import DISPOSITIONS, STATUS_ORDER, ApiFinding, ScanResult
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import TorchApi, load_torch_api
from apiscan.review import effort, gaps, structure
from apiscan.review.build import build_review, scan_root
from apiscan.review.model import ModuleNode, Where

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Facts:
    root: Path
    result: ScanResult
    analyses: list[FileAnalysis]
    hierarchy: Hierarchy
    api: TorchApi

    def modules(self) -> dict[str, ModuleNode]:
        nodes = structure.module_nodes(self.result, self.analyses, self.hierarchy, self.api)
        return {n.cls: n for n in nodes}


def facts(root: Path) -> Facts:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    base = scan_root(root)
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    return Facts(base, result, analyses, hierarchy, api)


@pytest.fixture(scope="module")
def tinydet() -> Facts:
    return facts(REPO / "fixtures" / "tinydet")


# --- structure -----------------------------------------------------------------------------


def test_tinydet_roles_children_and_layers(tinydet: Facts) -> None:
    nodes = tinydet.modules()
    roles = {cls.rpartition(".")[2]: n.role for cls, n in nodes.items()}
    assert roles == {
        "TinyDet": "model",
        "Backbone": "backbone",
        "FPN": "neck",
        "Head": "head",
        "DetectionLoss": "loss",  # not an nn.Module, but a loss class the scope calls network
        "ConvBNAct": "block",
        "SqueezeExcite": "block",
        "Linear": "block",  # in head.py, but built by the head: a part of it, not a second head
    }
    assert nodes["tinydet.model.TinyDet"].children == (
        "tinydet.backbone.Backbone",
        "tinydet.head.Head",
        "tinydet.neck.FPN",
    )
    assert nodes["tinydet.head.Head"].children == (
        "tinydet.head.Linear",
        "tinydet.layers.ConvBNAct",
    )
    assert dict(nodes["tinydet.layers.ConvBNAct"].layers) == {
        "torch.nn.BatchNorm2d": 1,
        "torch.nn.Conv2d": 1,
        "torch.nn.SiLU": 1,  # `self.act = act()`, `act: type[nn.Module] = nn.SiLU`
    }
    # Conv2d twice, through ``from torch.nn import *``; the layers sort most built first
    squeeze = nodes["tinydet.attention.SqueezeExcite"]
    assert squeeze.layers[0] == ("torch.nn.Conv2d", 2)
    assert squeeze.where == Where("tinydet/attention.py", 11)
    # layers ConvBNAct.fuse builds are not counted: only the constructor's
    assert nodes["tinydet.layers.ConvBNAct"].where == Where("tinydet/layers.py", 18)
    assert "torch.nn.Identity" not in dict(nodes["tinydet.layers.ConvBNAct"].layers)


def test_helper_methods_called_from_init_build_children(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "net/__init__.py": "",
            "net/blocks.py": """
                import torch.nn as nn

                class Bottleneck(nn.Module):
                    def __init__(self, c):
                        super().__init__()
                        self.conv = nn.Conv2d(c, c, 3)
                        self.bn = nn.BatchNorm2d(c)
            """,
            "net/resnet.py": """
                import torch.nn as nn
                from net.blocks import Bottleneck

                class Base(nn.Module):
                    def _make_layer(self, c, n):
                        return nn.Sequential(*[Bottleneck(c) for _ in range(n)])

                class ResNet(Base):
                    def __init__(self):
                        super().__init__()
                        self.stem = nn.Conv2d(3, 64, 7)
                        self.layer1 = self._make_layer(64, 3)
                        self.fc = self._classifier()

                    def _classifier(self):
                        return nn.Linear(64, 10)

                    def forward(self, x):
                        return self.fc(self.layer1(self.stem(x)))
            """,
        },
    )
    nodes = facts(tmp_path).modules()
    resnet = nodes["net.resnet.ResNet"]
    assert resnet.children == ("net.blocks.Bottleneck",)
    assert dict(resnet.layers) == {
        "torch.nn.Conv2d": 1,
        "torch.nn.Sequential": 1,
        "torch.nn.Linear": 1,
    }
    assert resnet.role == "other"  # a root without a backbone and a head below it
    assert nodes["net.blocks.Bottleneck"].role == "block"
    # Base has no constructor of its own: its helper counts for ResNet, which calls it
    assert nodes["net.resnet.Base"].layers == ()


def test_layers_a_builder_function_makes_are_the_constructors(tmp_path: Path) -> None:
    """``self.act = make_act(name)``: the activation a module-level helper builds is a layer of
    the block that calls it from ``__init__`` (every one it may build, once each); a helper
    called from ``forward`` builds nothing for the table."""
    write_repo(
        tmp_path,
        {
            "net/__init__.py": "",
            "net/acts.py": """
                import torch.nn as nn

                def make_act(name="silu"):
                    if name == "silu":
                        return nn.SiLU(inplace=True)
                    if name == "relu":
                        return nn.ReLU(inplace=True)
                    raise ValueError(name)

                def make_pool():
                    return nn.MaxPool2d(2)
            """,
            "net/blocks.py": """
                import torch.nn as nn
                from net.acts import make_act, make_pool

                class ConvAct(nn.Module):
                    def __init__(self, c, act="silu"):
                        super().__init__()
                        self.conv = nn.Conv2d(c, c, 3)
                        self.bn = nn.BatchNorm2d(c)
                        self.act = make_act(act)

                    def forward(self, x):
                        return make_pool()(self.act(self.bn(self.conv(x))))
            """,
        },
    )
    block = facts(tmp_path).modules()["net.blocks.ConvAct"]
    assert dict(block.layers) == {
        "torch.nn.Conv2d": 1,
        "torch.nn.BatchNorm2d": 1,
        "torch.nn.SiLU": 1,
        "torch.nn.ReLU": 1,
    }


def test_roles_from_attribute_names_and_builder_functions(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "det/__init__.py": "",
            "det/parts.py": """
                import torch.nn as nn

                class Darknet(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 8, 3)

                class Merger(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 8, 1)

                class Predictor(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.out = nn.Conv2d(8, 4, 1)

                def build_merger() -> "Merger":
                    return Merger()
            """,
            "det/detector.py": """
                import torch.nn as nn
                from det.parts import Darknet, Predictor, build_merger

                class Detector(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.backbone = Darknet()
                        self.neck = build_merger()
                        self.cls_head = Predictor()

                    def forward(self, x):
                        return self.cls_head(self.neck(self.backbone(x)))
            """,
        },
    )
    nodes = facts(tmp_path).modules()
    roles = {cls.rpartition(".")[2]: n.role for cls, n in nodes.items()}
    assert roles == {
        "Darknet": "backbone",
        "Merger": "neck",
        "Predictor": "head",
        "Detector": "model",
    }
    assert "det.parts.Merger" in nodes["det.detector.Detector"].children


@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("YOLOPAFPN", ["yolopafpn"]),
        ("YOLOXHead", ["yolox", "head"]),
        ("cls_head", ["cls", "head"]),
        ("MultiHeadAttention", ["multi", "head", "attention"]),
        ("ResNet50", ["res", "net", "50"]),
    ],
)
def test_words(identifier: str, expected: list[str]) -> None:
    assert structure.words(identifier) == expected


@pytest.mark.parametrize(
    ("word", "role"),
    [
        ("yolopafpn", "neck"),
        ("pan", "neck"),
        ("span", None),  # "pan" only as a whole word
        ("expand", None),
        ("yoloxhead", "head"),
        ("criterion", "loss"),
        ("focalloss", "loss"),
        ("backbone", "backbone"),
        ("attention", None),
    ],
)
def test_role_of_word(word: str, role: str | None) -> None:
    assert structure.role_of_word(word) == role


# --- gaps ----------------------------------------------------------------------------------

NETWORK_REPO = {
    "model.py": """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)

            # defined before forward: the extractor records self.other() only for methods
            # it has already seen in the class
            def other(self, y, kept, picked):
                sel = torch.zeros(3).nonzero()
                return y, kept, picked, sel

            def forward(self, x, boxes):
                y = torch.special.i0e(self.conv(x))
                y = torch.special.i0e(y).to(torch.long)
                keep = boxes[:, 0] > 0
                kept = boxes[keep]
                picked = boxes[keep]
                return self.other(y, kept, picked)
    """,
    "train.py": """
        import torch
        from model import Net

        def main():
            net = Net()
            scaler = torch.cuda.amp.GradScaler()
            return net(torch.zeros(1, 3, 8, 8), torch.zeros(4, 4)), scaler
    """,
}


@pytest.fixture(scope="module")
def network_repo(tmp_path_factory: pytest.TempPathFactory) -> Facts:
    return facts(write_repo(tmp_path_factory.mktemp("net"), NETWORK_REPO))


def test_coverage_counts_every_finding_once(network_repo: Facts) -> None:
    cov = gaps.coverage(network_repo.result)
    assert list(cov) == ["network", "data", "host"]
    assert all(list(c) == list(STATUS_ORDER) for c in cov.values())
    assert sum(sum(c.values()) for c in cov.values()) == len(network_repo.result.api_findings)
    assert cov["network"]["missing"] >= 2  # torch.special.i0e twice in forward


def test_network_gaps(network_repo: Facts) -> None:
    found = gaps.network_gaps(network_repo.result, places=1)
    by_api = {g.api: g for g in found}
    relu = by_api["torch.special.i0e"]
    assert (relu.status, relu.uses, relu.mindspore_api) == ("missing", 2, None)
    assert relu.where == (Where("model.py", 16),)  # places capped at 1, first in file order
    assert "torch.cuda.amp.GradScaler" not in by_api  # host code is not a network gap
    # Grouped by disposition (the work), worst status first within each.
    keys = [(DISPOSITIONS.index(g.disposition), gaps.GAP_STATUSES.index(g.status)) for g in found]
    assert keys == sorted(keys)
    # Without a suggester each gap still says what to do: its first use's own proposal.
    assert all(g.suggestion for g in found)


def test_suggestions_come_from_apiscan_suggest_when_installed(
    network_repo: Facts, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, gaps.SUGGEST_MODULE, None)
    assert gaps.load_suggester() is None
    fake = types.ModuleType(gaps.SUGGEST_MODULE)
    fake.suggestion = lambda api, status: f"use mint for {api} ({status})"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, gaps.SUGGEST_MODULE, fake)
    suggester = gaps.load_suggester()
    assert suggester is not None
    found = {g.api: g for g in gaps.network_gaps(network_repo.result, suggester)}
    # The finding's own proposal comes first; the suggester fills in only where none exists.
    assert found["torch.special.i0e"].suggestion.startswith("custom-op: a tensor computation")
    bare = replace(
        network_repo.result,
        findings=tuple(
            replace(f, disposition="none", rewrite="", rewrite_note="")
            if isinstance(f, ApiFinding)
            else f
            for f in network_repo.result.findings
        ),
    )
    found = {g.api: g for g in gaps.network_gaps(bare, suggester)}
    assert found["torch.special.i0e"].suggestion == "use mint for torch.special.i0e (missing)"


def test_dynamic_shape_rows_follow_the_findings(network_repo: Facts) -> None:
    rows = gaps.dynamic_shape(network_repo.result)
    assert len(rows) == len(network_repo.result.shape_findings)
    assert {(r[0].path, r[0].line, r[2]) for r in rows} >= {("model.py", 19, "network")}
    assert all(r[1].startswith("DS") for r in rows)


def test_effort_counts_and_explains(network_repo: Facts) -> None:
    result = network_repo.result
    found = gaps.network_gaps(result)
    est = effort.estimate(result, found)
    network = [
        f
        for f in result.api_findings
        if f.scope == "network" and f.disposition in ("idiom", "rewrite", "custom-op", "gap")
    ]
    assert est.call_sites_to_change == len(network)
    # torch.special.i0e is called (an op); torch.long is only read (a dtype): one custom op
    assert est.custom_ops == 1
    assert "torch.special.i0e" in est.explanation[2] and "torch.long" not in est.explanation[2]
    # masks in forward and nonzero in other: two functions, however many findings
    functions = {(f.path, f.function) for f in result.shape_findings if f.scope == "network"}
    assert functions == {("model.py", "Net.forward"), ("model.py", "Net.other")}
    assert est.dynamic_shape_rewrites == 2
    assert len(result.shape_findings) > 2
    assert est.explanation[0].startswith("In the network graph: ")
    assert "deletions" in est.explanation[1]
    # the range and the formula that produced it
    low, high = est.person_days
    assert 0 < low < high and "custom-op × 3–5" in est.formula
    assert any(f"{low:g}–{high:g} = {est.formula}" in line for line in est.explanation)
    # the two routes compared: native rewrite against MindTorch
    assert est.explanation[-1].startswith("Routes: native rewrite: ")
    assert est.mindtorch_total >= est.mindtorch_covered > 0
    assert "torch.special.i0e" in est.mindtorch_lacks


def test_sparse_uses(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "sp.py": """
                import torch

                def build(i, v, x):
                    a = torch.sparse_coo_tensor(i, v, (3, 3))
                    b = x.to_sparse()
                    c = torch.sparse.mm(a, b)
                    return c + x.sum()
            """
        },
    )
    result = facts(tmp_path).result
    assert gaps.sparse_uses(result) == (Where("sp.py", 4), Where("sp.py", 5), Where("sp.py", 6))
    assert gaps.is_sparse_api("torch.Tensor.is_sparse")
    assert not gaps.is_sparse_api("torch.Tensor.sum")


def test_extensions(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "setup.py": """
                from setuptools import setup
                from torch.utils.cpp_extension import BuildExtension, CUDAExtension

                setup(
                    ext_modules=[CUDAExtension("ops", ["csrc/ops.cpp", "csrc/kernel.cu"])],
                    cmdclass={"build_ext": BuildExtension},
                )
            """,
            "ops/__init__.py": "",
            "ops/roi.py": """
                import torch

                class RoIAlignFunction(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, x):
                        return x

                class Derived(RoIAlignFunction):
                    pass
            """,
            "csrc/ops.cpp": "// binding",
            "csrc/kernel.cu": "// kernel",
            "csrc/kernel.cuh": "// header",
            "build/generated.cu": "// build output: skipped like the scan skips it",
            "venv2/pyvenv.cfg": "",
            "venv2/lib/vendored.cpp": "// a virtualenv by another name: skipped",
        },
    )
    f = facts(tmp_path)
    found = gaps.extensions(f.root, f.result, f.analyses, f.hierarchy)
    assert [(what, w.path, w.line) for what, w in found] == [
        ("CUDA source (.cu)", "csrc/kernel.cu", 1),
        ("CUDA header (.cuh)", "csrc/kernel.cuh", 1),
        ("C++ source (.cpp)", "csrc/ops.cpp", 1),
        ("torch.autograd.Function subclass RoIAlignFunction", "ops/roi.py", 3),
        ("torch.autograd.Function subclass Derived", "ops/roi.py", 8),
        ("torch.utils.cpp_extension.CUDAExtension", "setup.py", 5),
        ("torch.utils.cpp_extension.BuildExtension", "setup.py", 6),
    ]


def test_third_party_packages_and_what_is_used(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/util.py": "X = 1\n",
            "proj/model.py": """
                import os
                import numpy as np
                import torch
                import mmcv.ops
                import timm
                from torchvision import transforms as T
                from einops import rearrange
                from proj.util import X
                from . import util

                def build(img):
                    m = timm.create_model("resnet18")
                    aug = T.Compose([T.ToTensor()])
                    arr = np.random.default_rng(0).random((2, 2)).astype(np.float32)
                    return m, aug, arr, rearrange(img, "b c h w -> b h w c"), os.sep, X, util
            """,
            "proj/data.py": """
                import numpy

                def load():
                    try:
                        import apex
                    except ImportError:
                        apex = None
                    return numpy.zeros(3), apex
            """,
        },
    )
    f = facts(tmp_path)
    found = {tp.package: tp for tp in gaps.third_party(f.analyses)}
    assert sorted(found) == ["apex", "einops", "mmcv", "numpy", "timm", "torchvision"]
    assert found["numpy"].files == 2
    assert found["numpy"].uses == (
        "numpy.float32",
        "numpy.random.default_rng",
        "numpy.zeros",
    )
    assert found["timm"].uses == ("timm.create_model",)
    assert found["mmcv"].uses == ("mmcv.ops",)
    assert found["torchvision"].uses == (
        "torchvision.transforms",
        "torchvision.transforms.Compose",
        "torchvision.transforms.ToTensor",
    )
    assert found["einops"].uses == ("einops.rearrange",)
    assert found["apex"].uses == ()


def test_parts_passed_to_an_inherited_constructor_take_its_parameter_names(
    tmp_path: Path,
) -> None:
    """``class SegModel(_Simple): pass`` is built with its base's ``(backbone, classifier)``:
    the parts are named by those parameters, not ``arg1``/``arg2``."""
    write_repo(
        tmp_path,
        {
            "seg/__init__.py": "",
            "seg/model.py": """
                import torch.nn as nn

                class _Simple(nn.Module):
                    def __init__(self, backbone, classifier):
                        super().__init__()
                        self.backbone = backbone
                        self.classifier = classifier

                    def forward(self, x):
                        return self.classifier(self.backbone(x))

                class SegModel(_Simple):
                    pass

                class Trunk(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 8, 3)

                    def forward(self, x):
                        return self.conv(x)

                class Head(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 2, 1)

                    def forward(self, x):
                        return self.conv(x)

                def build():
                    return SegModel(Trunk(), Head())
            """,
            "train.py": """
                from seg.model import build

                model = build()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    top = next(m for m in review.top_models if m.cls == "seg.model.SegModel")
    names = [name for name, _ in top.parts]
    # train.py's ``build()`` is the entry point's pick, its injected parts after it
    assert names[:3] == ["selected by", "backbone", "classifier"], top.parts
    assert dict(top.parts)["selected by"] == "build() in train.py → build()"


def test_a_root_built_by_several_builders_names_the_others(tmp_path: Path) -> None:
    """``resnet18()`` ... ``resnet50()`` each build ``ResNet``: the one entry says which other
    builders there are, since the training script picks among them (a depth option)."""
    write_repo(
        tmp_path,
        {
            "net/__init__.py": "",
            "net/model.py": """
                import torch.nn as nn

                class Block(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 8, 3)

                class ResNet(nn.Module):
                    def __init__(self, layers):
                        super().__init__()
                        self.blocks = nn.Sequential(*[Block() for _ in range(layers)])
                        self.head = nn.Linear(8, 2)

                    def _grow(self):
                        return ResNet(1)

                def resnet18():
                    return ResNet(2)

                def resnet50():
                    return ResNet(4)
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    top = next(m for m in review.top_models if m.cls == "net.model.ResNet")
    assert top.builder == "resnet18"
    assert dict(top.parts)[structure.ALSO_BUILT_BY] == "resnet50"  # not the method _grow


def test_a_part_built_by_a_builder_handed_in_at_run_time_is_that_builder(tmp_path: Path) -> None:
    """``self.backbone = cfg.build_backbone(cfg, input_shape=ShapeSpec(...))``: the part is what
    the injected builder returns, not the ``ShapeSpec`` passed to it."""
    write_repo(
        tmp_path,
        {
            "det/__init__.py": "",
            "det/model.py": """
                import torch.nn as nn
                from somelib.layers import ShapeSpec

                class Head(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 2, 1)

                class Detector(nn.Module):
                    def __init__(self, cfg):
                        super().__init__()
                        self.backbone = cfg.build_backbone(cfg, input_shape=ShapeSpec(channels=3))
                        self.head = Head()

                def build_model(cfg):
                    return Detector(cfg)
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    top = next(m for m in review.top_models if m.cls == "det.model.Detector")
    assert dict(top.parts)["backbone"] == "cfg.build_backbone(...)"
    assert not [p for _, p in top.parts if "ShapeSpec" in p]
