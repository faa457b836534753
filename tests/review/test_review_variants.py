"""What is ported when a repository ships variants of its own files (issue 20 item 4), on
fixtures/variants: a yolov9-like layout (``train.py`` beside ``train_dual.py``, each importing
its own loss and validation variant; an old ``utils/loss.py`` nothing imports; a plotting
module stepping a scheduler; a validation loader with rectangular batches) and a ConvNeXt-like
mmdet adapter folder whose dict config resizes over several scales. Also the flags that switch
a builder's parts off (FCOS's ``RPN_ONLY``, ``FCOS_ON``) and the one home of the evaluation
and training-step facts."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import TopModel, Where
from apiscan.review.roles import (
    STEP_COMPUTATION,
    TRAINING_APIS,
    TRAINING_STEP,
    evaluation_file,
    evaluation_folder,
)
from apiscan.review.work import UNUSED, VARIANT, _switched_off


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/variants")


def test_sibling_trainers_and_their_modules_are_one_port_plus_deltas(review) -> None:
    apart = dict(review.ancillary)
    # the script with the shortest name is ported, with what it imports
    for path in ("train.py", "val.py", "utils/loss_tal.py", "models/net.py", "utils/loaders.py"):
        assert path not in apart, path
    assert apart["train_dual.py"] == f"{VARIANT} train.py"
    # imported only by the variant trainer: a variant of the module train.py imports
    assert apart["utils/loss_tal_dual.py"] == f"{VARIANT} utils/loss_tal.py"
    assert apart["val_dual.py"] == f"{VARIANT} val.py"
    # a superseded copy nothing imports: not even a delta
    assert apart["utils/loss.py"] == f"{VARIANT} utils/loss_tal.py {UNUSED}"
    formula = review.effort.formula
    assert "3 variant as 2.5 × 0.25–0.5" in formula
    assert any(
        s.startswith("3 variants of ported files")
        and "train_dual.py, utils/loss_tal_dual.py, val_dual.py" in s
        for s in review.effort.explanation
    )


def test_a_plotting_module_that_steps_a_scheduler_trains_nothing(review) -> None:
    assert dict(review.ancillary)["utils/plots.py"] == "plotting"


def test_rectangular_validation_batches_are_an_input_pipeline(review) -> None:
    assert review.effort.input_shape_rewrites == 1
    assert any("train.py:train (rect=True, line 17)" in s for s in review.effort.explanation)


def test_an_adapters_configs_make_no_item_of_the_ported_model(review) -> None:
    apart = dict(review.ancillary)
    assert apart["object_detection/backbone.py"] == "adapter for mmdet"
    assert apart["object_detection/configs/mask_rcnn_net_mstrain.py"] == (
        "adapter for mmdet (object_detection/)"
    )
    # its multi-scale Resize is no input pipeline of the ported model, nor a recipe row
    assert not any("mask_rcnn" in s for s in review.effort.explanation)
    assert not any(i.where.path.startswith("object_detection/") for i in review.recipe)


def _fcos_like() -> TopModel:
    return TopModel(
        cls="det.GeneralizedRCNN",
        where=Where("tools/train_net.py", 3),
        builder="train",
        parts=(
            ("backbone", "build_backbone(...) → ResNet"),
            ("rpn", "FCOSModule or RetinaNetModule or RPNModule (build_rpn(cfg, 256))"),
            ("roi_heads", "build_roi_heads(...) → CombinedROIHeads"),
            ("also builds", "ROIBoxHead, ROIMaskHead"),
        ),
    )


CLASSES = ("ResNet", "FCOSModule", "RetinaNetModule", "RPNModule", "CombinedROIHeads")
PATHS = {name: f"det/{name.lower()}.py" for name in (*CLASSES, "ROIBoxHead", "ROIMaskHead")}
DEFAULTS = {"FCOS_ON": "", "RETINANET_ON": "", "MASK_ON": "", "RPN_ONLY": ""}


def test_flags_the_configs_set_switch_parts_off() -> None:
    on = {"FCOS_ON", "RPN_ONLY"}  # set on by every shipped config
    found = {name: why for why, name in _switched_off(_fcos_like(), on, set(), DEFAULTS, PATHS)}
    # FCOS_ON set on: RPNModule, the fallback with no flag, is never built; RetinaNetModule
    # has its own flag (left to the off-by-default rule)
    assert found["RPNModule"] == "FCOS_ON is set on by every config"
    assert "RetinaNetModule" not in found
    assert found["FCOSModule"] == ""  # selected: ported whoever imports it
    # RPN_ONLY set on: only the backbone and the rpn part are built
    for name in ("CombinedROIHeads", "ROIBoxHead", "ROIMaskHead"):
        assert found[name] == "RPN_ONLY is set on by every config, only the rpn is built"
    assert "ResNet" not in found


def test_flags_also_set_off_switch_nothing() -> None:
    found = list(
        _switched_off(
            _fcos_like(), {"FCOS_ON", "RPN_ONLY"}, {"FCOS_ON", "RPN_ONLY"}, DEFAULTS, PATHS
        )
    )
    assert found == []
    # a flag the code does not declare is not read as one
    assert list(_switched_off(_fcos_like(), {"RPN_ONLY"}, set(), {}, PATHS)) == []


def test_evaluation_code_and_the_training_step_have_one_definition() -> None:
    assert evaluation_folder("tools/voc_eval_lib/nms.py")
    assert evaluation_folder("metrics/fid.py", root_only=True)
    assert not evaluation_folder("lib/metrics/fid.py", root_only=True)
    assert not evaluation_folder("data/medieval/x.py")
    assert evaluation_file("detectron2/evaluation/fast_eval_api.py")
    assert evaluation_file("utils/coco_eval.py")
    assert not evaluation_file("yolox/data/datasets/coco.py")
    assert TRAINING_STEP.search("torch.optim.SGD")
    assert TRAINING_STEP.search("torch.Tensor.backward")
    assert not TRAINING_STEP.search("torch.optim.lr_scheduler.StepLR")
    assert "torch.optim.lr_scheduler.StepLR".startswith(TRAINING_APIS)
    assert STEP_COMPUTATION.match("torch.nn.functional.cross_entropy")
    assert STEP_COMPUTATION.match("torch.autograd.backward")
    assert not STEP_COMPUTATION.match("torch.optim.SGD")
