"""What a migration lead expects of the reviews of three fixtures written for it.

fixtures/ownbackbone defines its own ResNet and initialises it from weights downloaded by URL,
with a hub-loaded branch, timm encoders, a float model's quantization stubs, ``torch.Size``
shapes and a training script spelling each plumbing pattern with several APIs: the downloaded
weights are one pretrained-weights item, no API with a known way is a 1-2 day gap, a host list
built from a size is no round trip, and idioms are counted once per pattern.
fixtures/densepred only infers: its transforms are the inference path's preprocessing.
fixtures/podsdet computes its losses for a framework's trainer, with a host assignment whose
answer comes back as an index: it trains (elsewhere), and the trip is work."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from scan_helpers import review_fixture

from apiscan.review.build import multi_scale
from apiscan.review.gaps import gap_rewrite
from apiscan.review.model import RecipeItem, Review, Where

#: multi_scale reads only the scan's dynamic-shape findings: none here
_NO_FINDINGS = SimpleNamespace(shape_findings=())


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/ownbackbone")


def test_weights_downloaded_by_url_are_a_pretrained_backbone_item(review) -> None:
    items = {(i.kind, i.what): [str(w) for w in i.where] for i in review.work}
    assert items == {
        (
            "pretrained-backbone",
            "pretrained weights downloaded by URL: "
            'torch.utils.model_zoo.load_url(model_urls["resnet18"])',
        ): ["ownnet/backbone.py:37"],  # resnet34, which nothing builds, downloads nothing
        ("pretrained-backbone", 'torch.hub.load("someone/zoo", "tiny_net")'): ["ownnet/head.py:13"],
        # the variants one factory builds by name: one port, one conversion script
        (
            "pretrained-backbone",
            'timm.create_model("vit_base_patch16_384" | "vit_large_patch16_384", '
            "pretrained=pretrained)",
        ): ["ownnet/vit.py:7", "ownnet/vit.py:8"],
        # the resume checkpoint; the whole model's released weights (a plain URL name, not
        # a table of backbone URLs) load in ``dense_head``, a factory nothing calls: not
        # reached, as the effort counts it, so no place of the work either
        ("checkpoint", "torch.load"): ["train.py:18"],
        # the loop's logged loss.item(): one minor item
        ("step-sync", "1 host read in the training step (train.py:main)"): ["train.py:28"],
        # the head's per-class NMS: a data-dependent box count, listed with its place
        ("suppression", "non-maximum suppression in the network (nms)"): ["ownnet/head.py:26"],
    }


def test_apis_with_a_known_way_are_no_gaps(review) -> None:
    shown = {g.api: g.disposition for g in review.gaps}
    assert shown["torch.Size"] == "rewrite"
    assert shown["torch.ao.nn.quantized.FloatFunctional"] == "rewrite"
    assert shown["torch.ao.nn.quantized.FloatFunctional.add"] == "rewrite"
    # counted under Porting work, not again as APIs with nothing known
    assert shown["torch.hub.load"] == "delete"
    assert shown["torch.utils.model_zoo.load_url"] == "delete"
    assert "gap" not in shown.values()
    assert " gap " not in review.effort.formula, review.effort.formula
    assert gap_rewrite("torch.utils.data.TensorDataset")[0] == "rewrite"
    assert gap_rewrite("torch.optim.lr_scheduler.ReduceLROnPlateau.step")[0] == "rewrite"
    assert gap_rewrite("torchvision.datasets.utils.download_url")[0] == "rewrite"
    assert "a + b" in gap_rewrite("torch.nn.quantized.FloatFunctional.add")[1]


def test_a_host_list_built_from_a_size_is_no_round_trip(review) -> None:
    # ``torch.tensor([i] * keep.shape[0])`` after NMS: the length is data (DS121, a
    # dynamic-shape rewrite of detect), but no tensor value went to the host and back
    assert any(w[1] == "DS121" for w in review.dynamic_shape)
    assert not [i for i in review.work if i.kind == "host-round-trip"]
    assert "1 dynamic-shape" in review.effort.formula


def test_idioms_are_counted_once_per_pattern(review) -> None:
    # module-base, module-walk, module-mode, checkpoint, train-step, data: twelve APIs
    # (backward, step, state_dict, load_state_dict, save, load, train, parameters...); the
    # cell walk and the mode switch are renames applied mechanically, rated apart; the
    # checkpoint pattern is the checkpoint item's work, priced once there, and beside the
    # pretrained backbones it goes through their weights' conversion script
    assert "3 idiom × 0.5–1 + 2 mechanical-idiom × 0.1–0.2" in review.effort.formula
    assert "1 converted-checkpoint × 0.5–1" in review.effort.formula
    low, high = review.effort.person_days
    assert high <= 2 * low
    # rewrites the template renders cost a check of the line, not a hand rewrite (torch.relu
    # is a consistent row, F.relu's: no rewrite to check); the three backbones come from
    # three sources (the repository's own URL weights, a torch.hub model, timm): three
    # conversions, no zoo's script shared
    assert "3 pretrained-backbone × 1.5–3" in review.effort.formula
    assert (low, high) == (8.9, 17.7)


def test_an_inference_only_repository_lists_its_preprocessing() -> None:
    """fixtures/densepred trains nothing: its transform composition is the inference path's
    preprocessing (listed, with its values), never data augmentation."""
    review = review_fixture("fixtures/densepred")
    assert review.inference_only
    assert not [i for i in review.recipe if i.category == "augmentation"]
    rows = [i for i in review.recipe if i.category == "preprocessing"]
    assert [(i.name, str(i.where)) for i in rows] == [("composition in run", "run.py:16")]
    values = dict(rows[0].values)
    assert values["1"] == "Resize(384, 384, keep_aspect_ratio=True, multiple_of=32)"
    assert values["2"] == "Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5])"
    assert [i.category for i in review.recipe] == ["preprocessing", "checkpoint"]
    # the resize keeps each image's aspect ratio and nothing crops after it: one input
    # shape per image size for the compiled network
    assert review.effort.input_shape_rewrites == 1
    assert "run.py:per-image sizes Resize" in " ".join(review.effort.explanation)


def test_an_inference_only_repository_reviews_its_numpy_input_path() -> None:
    """fixtures/textspot prepares its input in numpy helpers a script calls and cuts the maps
    at thresholds from argparse: each step is a row with the values that really run (the
    helper's defaults, the options' defaults followed through the calls), and the padding to
    a multiple keeps a per-image input shape, counted as one input pipeline."""
    review = review_fixture("fixtures/textspot")
    assert review.inference_only
    rows = {(i.category, i.name, str(i.where)): dict(i.values) for i in review.recipe}
    norm = rows[("preprocessing", "normalise in standardise", "imageops.py:10")]
    assert norm["mean"] == "mean = (0.5, 0.5, 0.5) (default of mean in standardise())"
    assert norm["std"] == "std = (0.25, 0.25, 0.25) (default of std in standardise())"
    assert norm["code"].startswith("out -= np.array([m * 255.0 for m in mean]")
    name = "resize (longer side magnified by a ratio, capped at a length) in fit_longer_side"
    scaled = rows[("preprocessing", name, "imageops.py:19")]
    assert scaled["longer side ×"].startswith("ratio = args.magnify = 1.25 (magnify at detect.py")
    assert scaled["capped at"].startswith("limit = args.canvas = 960 (canvas at detect.py:14)")
    padded = rows[
        ("preprocessing", "pad (each side up to a multiple) in fit_longer_side", "imageops.py:24")
    ]
    assert padded["multiple of"] == "16"
    cuts = {
        k[2]: v["cut at"].partition(" (")[0] for k, v in rows.items() if k[0] == "postprocessing"
    }
    # --link-thresh is read as args.link_thresh; both passed through detect() to regions()
    # eval/scores.py's match threshold scores predictions: no step of the inference path
    assert cuts == {
        "boxes.py:8": "score_thresh = args.score_thresh = 0.6",
        "boxes.py:9": "link_thresh = args.link_thresh = 0.3",
    }
    assert not [i for i in review.recipe if i.category in ("augmentation", "loss", "optimizer")]
    assert review.effort.input_shape_rewrites == 1
    assert "imageops.py:per-image sizes fit_longer_side" in " ".join(review.effort.explanation)


def test_a_crop_after_an_aspect_keeping_resize_fixes_the_size() -> None:
    def row(*steps: str) -> RecipeItem:
        values = tuple((str(i), s) for i, s in enumerate(steps, 1))
        return RecipeItem("preprocessing", "composition in run", Where("run.py", 3), values)

    kept = "Resize(384, 384, keep_aspect_ratio=True)"
    assert multi_scale(_NO_FINDINGS, (row(kept, "Normalize()"),)) == (
        ("run.py", "per-image sizes Resize"),
    )
    assert multi_scale(_NO_FINDINGS, (row(kept, "CenterCrop(384)"),)) == ()
    # the same resize in a second script (DPT's depth and segmentation runs): one pipeline
    other = RecipeItem("preprocessing", "composition in run", Where("seg.py", 9), row(kept).values)
    assert multi_scale(_NO_FINDINGS, (row(kept), other)) == (("run.py", "per-image sizes Resize"),)
    assert multi_scale(_NO_FINDINGS, (row("Resize(384)", "Normalize()"),)) == ()


def test_a_model_trained_by_a_framework_is_not_inference_only() -> None:
    review = review_fixture("fixtures/podsdet")
    assert not review.inference_only
    loss = [i for i in review.recipe if i.category == "loss"]
    assert [(i.name, str(i.where)) for i in loss] == [
        (
            "detector.Detector.losses, podsfw.losses.giou_loss, podsfw.losses.sigmoid_focal_loss",
            "detector.py:31",
        )
    ]
    assert "a framework's trainer runs the step" in loss[0].note
    # linear_sum_assignment's answer indexes the targets: back in torch with no as_tensor
    trips = [
        (i.what, [str(w) for w in i.where]) for i in review.work if i.kind != "pretrained-backbone"
    ]
    assert trips == [("Detector.assign: scipy.optimize.linear_sum_assignment", ["detector.py:39"])]
    # the framework builds the backbone the config names, with the weights it names
    backbones = [(i.what, str(i.where[0])) for i in review.work if i.kind == "pretrained-backbone"]
    assert backbones == [
        ('pretrained weights "https://example.org/R-50.pkl" (config MODEL)', "config.py:4")
    ]


def test_environment_reports_and_test_helpers_are_counted_apart(tmp_path: Path) -> None:
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.work import Ancillary

    (tmp_path / "pkg" / "utils").mkdir(parents=True)
    (tmp_path / "pkg" / "utils" / "collect_env.py").write_text(
        "import torch\n\ndef info():\n    return torch.cuda.get_device_name(0)\n"
    )
    (tmp_path / "pkg" / "utils" / "testing.py").write_text(
        "import torch\n\ndef export(m, x):\n    torch.onnx.export(m, x, 'm.onnx')\n"
    )
    (tmp_path / "pkg" / "net.py").write_text("from torch import nn\n\nNet = nn.Linear\n")
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    apart = Ancillary(analyses)
    assert apart.why("pkg/utils/collect_env.py") == "environment report"
    assert apart.why("pkg/utils/testing.py") == "test helpers"
    assert apart.why("pkg/net.py") == ""
