"""The model tree read from what the parts do (issue 20 item 5), on fixtures/flowtree.

- Roles from the data flow of the model's ``forward``, the name a weak hint only:
  ``DetectorBackbone`` holds an encoder, a pyramid and two heads, so it is the model; its
  ``BoxRegressor`` and ``ClassScorer``, fed by the pyramid and returned, are heads.
- Parts a helper method builds are all listed: ``FaceNet``'s four context modules share one
  entry, so its third head is not cut by the limit.
- A backbone built by an alternative constructor (``Trunk.from_name``, a method taking
  ``cls``) is connected to the encoder that builds it.
- A model built of a torchvision ResNet and torch's layers alone lists them as its parts.
"""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.structure import ALSO_BUILDS, _within


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/flowtree")


def _roles(review) -> dict[str, str]:
    return {m.cls: m.role for m in review.modules}


def _parts(review, cls: str) -> dict[str, str]:
    return dict(next(m for m in review.top_models if m.cls == cls).parts)


def _children(review, cls: str) -> tuple[str, ...]:
    return next(m.children for m in review.modules if m.cls == cls)


def test_roles_come_from_the_forward(review) -> None:
    roles = _roles(review)
    # VALID: the class holding the encoder, the pyramid and the heads is the model, whatever
    # its name; the stages fed by the pyramid whose outputs are returned are heads; a
    # context module between the pyramid and the heads is part of the neck; what the body
    # holds (built into a local the body is handed) is the backbone
    assert roles["det.model.DetectorBackbone"] == "model"
    assert roles["det.parts.BoxRegressor"] == "head"
    assert roles["det.parts.ClassScorer"] == "head"
    assert roles["det.parts.Scorer"] == "head"
    assert roles["face.net.Context"] == "neck"
    assert roles["face.net.TinyTrunk"] == "backbone"
    # the names still give the roles the data flow does not contradict
    assert roles["det.parts.PyramidFPN"] == "neck"
    assert roles["det.parts.Encoder"] == "backbone"
    assert roles["face.net.PointHead"] == "head"


def _defined_roles() -> dict[str, str]:
    """The roles of every module class the fixture defines, built or not: the review lists
    only what the run builds (issue 20), so the roles of the classes nothing builds are
    read from the tree's nodes before that."""
    from pathlib import Path

    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.program.index import ClassTable, Hierarchy
    from apiscan.resolve.torch_api import load_torch_api
    from apiscan.review.structure import module_nodes

    root = Path(__file__).resolve().parents[2] / "fixtures" / "flowtree"
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    api = load_torch_api()
    nodes = module_nodes(result, analyses, Hierarchy(analyses, ClassTable(analyses, api)), api)
    return {m.cls: m.role for m in nodes}


def test_what_the_forward_does_not_show_keeps_its_role(review) -> None:
    built = _roles(review)
    # the classes nothing builds (``SpareFPN``, ``LayerNet``, ``PairNet`` and what only they
    # build) are no rows of the review; their roles are still read from their forwards
    assert not {"det.model.SpareFPN", "det.model.LayerNet", "det.model.PairNet"} & set(built)
    roles = {**_defined_roles(), **built}
    # INVALID: priors computed from the input and returned beside the heads are no head;
    # one class in stages that feed one another is a repeated block, not a neck; a class
    # named a backbone that holds no head stays a backbone, not a model
    assert roles["det.parts.Priors"] == "block"
    assert roles["det.parts.Stage"] == "block"
    assert roles["det.parts.DeepBackbone"] == "backbone"
    assert roles["det.model.StackNet"] == "model"
    assert roles["det.parts.Stem"] == "backbone"
    # a root named a neck that holds its own backbone is a neck nothing builds: its output
    # convolution is no head, and it is no model
    assert roles["det.model.SpareFPN"] == "neck"
    assert roles["det.model.OutConv"] == "block"
    # the blocks one helper method makes for each of two chained stages are repeated
    # blocks, though the last one's output reaches the return through a torch layer
    assert roles["det.model.Bottle"] == "block"
    # a projection of one input, handed with another input to the encoder, is no backbone
    assert roles["det.model.VideoProj"] == "block"
    assert roles["det.model.TextEncoder"] == "block"


def test_the_models_own_methods_pass_their_inputs_on(review) -> None:
    roles = _roles(review)
    # VALID: ``self.prepare(images)`` is no stage, so the tower fed by it is the backbone;
    # the predictor's output reaches the return through ``self.losses(...)``: a head
    assert roles["det.model.Tower"] == "backbone"
    assert roles["det.model.MaskPredictor"] == "head"
    assert roles["det.model.MaskNet"] == "model"
    # INVALID: anchors computed from the features and handed to the loss hold no weights:
    # a computation, no head
    assert roles["det.model.CellAnchors"] == "block"


def test_a_class_method_constructor_connects_the_backbone(review) -> None:
    # VALID: ``Trunk.from_name(name)`` (``def from_name(cls, name)``) builds a Trunk
    assert _children(review, "det.parts.Encoder") == ("det.trunk.Trunk",)
    assert _roles(review)["det.trunk.Trunk"] == "block"
    # INVALID: a static method called on the class (``Trunk.describe(name)``, a string)
    # builds nothing: the encoder has that one child only, and the trunk no other parent
    parents = [m.cls for m in review.modules if "det.trunk.Trunk" in m.children]
    assert parents == ["det.parts.Encoder"]


def test_every_part_a_helper_method_builds_is_listed(review) -> None:
    # VALID: the four context modules are one entry, and the three heads each one
    assert _parts(review, "face.net.FaceNet") == {
        # the trunk each branch of the config builds, handed to the layer getter
        "body": "TinyTrunk or torchvision.models.resnet18, "
        "torchvision.models._utils.IntermediateLayerGetter",
        "fpn": "FPN",
        "ctx1, ctx2, ctx3, ctx4": "Context",
        "scores": "_make_score_head(...) → ScoreHead",
        "boxes": "_make_box_head(...) → BoxHead",
        "points": "_make_point_head(...) → PointHead",
    }
    # INVALID: nothing is left to "also builds": the trunk is named in the body
    assert ALSO_BUILDS not in _parts(review, "face.net.FaceNet")


def test_parts_over_the_limit_are_folded_never_dropped() -> None:
    parts = [(f"a{i}", f"P{i}") for i in range(9)]
    # VALID: the last entry names what did not fit
    assert _within(parts, 8) == [*parts[:7], (ALSO_BUILDS, "P7, P8")]
    # INVALID: within the limit nothing is merged or moved
    assert _within(parts[:8], 8) == parts[:8]
    shared = [("x", "A"), ("y", "A"), *[(f"b{i}", f"B{i}") for i in range(7)]]
    assert _within(shared, 8) == [("x, y", "A"), *shared[2:]]


def test_a_model_of_torch_layers_and_a_zoo_backbone_lists_them(review) -> None:
    # VALID: torchvision's ResNet, the projector a loop gathers and the normalisation
    assert _parts(review, "twin.model.Twins") == {
        "backbone": "torchvision.models.resnet18",
        "projector": "torch.nn.Sequential (Linear, BatchNorm1d, ReLU)",
        "bn": "torch.nn.BatchNorm1d",
    }
    # INVALID: the dropout has no weights, and the plain dict of zoo models (``catalogue``)
    # is no module of the model's; a model with repository parts lists no torch layer
    assert "drop" not in _parts(review, "twin.model.Twins")
    assert "catalogue" not in _parts(review, "twin.model.Twins")
    assert _parts(review, "det.model.StackNet") == {
        "backbone": "Stem",
        "stage1": "Stage",
        "stage2": "Stage",
        "out": "Scorer",
    }


STAGED = {
    "model.py": """
import torch.nn as nn


class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x)


class StageA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 16, 3)

    def forward(self, x):
        return self.conv(x)


class StageB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 32, 3)

    def forward(self, x):
        return self.conv(x)


class Neck(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(48, 32, 1)

    def forward(self, a, b):
        return self.conv(b)


class Context(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 32, 3)

    def forward(self, x):
        return self.conv(x)


class DetectHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        return self.conv(x)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.down1 = Stem()
        self.down2 = StageA()
        self.down3 = StageB()
        self.neck = Neck()
        self.ctx = Context()
        self.head = DetectHead()

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(d1)
        d3 = self.down3(d2)
        n = self.neck(d2, d3)
        c = self.ctx(n)
        return self.head(c)
""",
    "train.py": """
import torch
from model import Detector

model = Detector()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for x in [torch.randn(1, 3, 32, 32)]:
    loss = model(x).sum()
    loss.backward()
    opt.step()
""",
}


def test_stages_feeding_the_named_neck_are_the_backbone(tmp_path) -> None:
    """YOLOv4's ``down2`` ... ``down5`` after the stem, into ``self.neck``: backbone
    stages, not necks; a module after the named neck is still the neck's."""
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    review = build_review(str(write_repo(tmp_path / "staged", STAGED)), jobs=1)
    roles = {m.cls: m.role for m in review.modules}
    # VALID: the stem and the stages after it, feeding the neck, are the backbone
    assert roles["model.Stem"] == "backbone"
    assert roles["model.StageA"] == "backbone"
    assert roles["model.StageB"] == "backbone"
    # INVALID: the context module after the named neck stays a neck, the head a head
    assert roles["model.Neck"] == "neck"
    assert roles["model.Context"] == "neck"
    assert roles["model.DetectHead"] == "head"
