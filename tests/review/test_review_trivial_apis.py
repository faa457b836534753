"""APIs that are trivial to port are priced as such (fixtures/trivialapis, a small
inference-only matcher): a reshape spelled ``unflatten``, an in-place function MindSpore has
out of place, a backend kernel switch, a custom Function's AMP decorator, a library's cast
decorator, torchvision's layer helpers, and a benchmark script's CUDA events. What is no
such case (a CUDA event in the network's own forward, a model-zoo constructor) keeps its
disposition."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.model import ApiFinding, CallArgs, Span
from apiscan.review.gaps import is_custom_op
from apiscan.review.model import Review
from apiscan.review.oplibs import CAST_DECORATORS
from apiscan.rewrite import dispose
from apiscan.rewrite.known import gap_rewrite


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/trivialapis")


def _gaps(review: Review) -> dict[str, str]:
    return {g.api: g.suggestion for g in review.gaps}


def test_a_reshape_and_an_in_place_twin_are_no_custom_ops(review: Review) -> None:
    gaps = _gaps(review)
    assert gaps["torch.Tensor.unflatten"].startswith("rewrite (tmatch/matcher.py:37): compose")
    assert "x.reshape(x.shape[:dim] + tuple(sizes)" in gaps["torch.Tensor.unflatten"]
    assert gaps["torch.selu_"].startswith(
        "rewrite (tmatch/matcher.py:40): mindspore.ops.selu(out.flatten(-2))"
    )
    assert "assigned back (out.flatten(-2) = ...)" in gaps["torch.selu_"]
    assert "custom-op" not in review.effort.formula
    assert review.effort.custom_ops == 0


def test_switches_and_decorators_are_deleted_or_an_idiom(review: Review) -> None:
    gaps = _gaps(review)
    # a backend kernel switch: deleted (no table row)
    assert "torch.backends.cuda.enable_flash_sdp" not in gaps
    assert gap_rewrite("torch.backends.cuda.enable_flash_sdp")[0] == "delete"
    assert gap_rewrite("torch.backends.cuda.matmul.allow_tf32")[0] == "delete"
    # a query of the backend is no switch: its own rule
    assert "query" in gap_rewrite("torch.backends.cuda.is_built")[1]
    # a custom Function's AMP decorator: the AMP idiom (cast the inputs)
    assert gaps["torch.amp.custom_fwd"].startswith("idiom: delete the decorator; cast the inputs")
    # apex's cast decorator is no third-party op library to port
    assert not [i for i in review.work if i.kind == "op-library"]
    assert CAST_DECORATORS.match("apex.amp.float_function")
    assert CAST_DECORATORS.match("apex.amp.register_half_function")
    assert not CAST_DECORATORS.match("apex.amp.initialize")
    assert not CAST_DECORATORS.match("apex.contrib.xentropy.SoftmaxCrossEntropyLoss")


def test_torchvision_layer_helpers_are_no_backbone(review: Review) -> None:
    gaps = _gaps(review)
    for helper in ("torchvision.models.conv1x1", "torchvision.models.conv3x3"):
        assert "a torchvision helper that builds plain layers" in gaps[helper]
        assert "pretrained backbone" not in gaps[helper]
    assert not [i for i in review.work if i.kind == "pretrained-backbone"]
    # a constructor with weights stays a backbone
    assert "pretrained backbone" in gap_rewrite("torchvision.models.resnet50")[1]
    assert "pretrained backbone" in gap_rewrite("torchvision.models.get_model")[1]


def test_a_benchmark_script_is_counted_apart_a_forward_event_is_not(review: Review) -> None:
    assert dict(review.ancillary)["benchmark.py"] == "timing"
    assert not [w for g in review.gaps for w in g.where if w.path == "benchmark.py"]
    # the event recorded in the network's forward is still a gap to port
    assert _gaps(review)["torch.cuda.Event.record"].startswith("gap:")
    assert "1 gap × 1–2" in review.effort.formula


def _missing(api: str, args: CallArgs | None) -> ApiFinding:
    return ApiFinding(
        path="m.py",
        span=Span(1, 0, 1, 10),
        api=api,
        status="missing",
        mindspore_api=None,
        confidence="certain",
        note="",
        usage="call",
        namespace=api.rpartition(".")[0],
        scope="network",
        args=args,
    )


def test_an_in_place_function_is_rewritten_only_where_its_twin_exists() -> None:
    found = dispose(_missing("torch.selu_", CallArgs(positional=("x",))))
    assert found.disposition == "rewrite"
    assert found.rewrite == "mindspore.ops.selu(x)"
    # no argument to assign back to: nothing to rewrite call for call
    assert dispose(_missing("torch.selu_", CallArgs())).disposition != "rewrite"
    # an initialiser keeps its own rule, not an out-of-place twin
    init = dispose(_missing("torch.nn.init.trunc_normal_", CallArgs(positional=("w",))))
    assert "selu" not in init.rewrite and init.rewrite != "mindspore.ops.trunc_normal(w)"
    assert not is_custom_op(init)


def test_the_settings_an_inference_model_runs_with_are_rows(review: Review) -> None:
    rows = {(r.category, r.name): r for r in review.recipe}
    conf = rows[("runtime", "Matcher.default_conf")]
    assert conf.values == (
        ("n_layers", "2"),
        ("filter_threshold", "0.1"),
        ("depth_confidence", "0.95"),
    )
    assert str(conf.where) == "tmatch/matcher.py:44"
    pre = rows[("preprocessing", "Matcher.preprocess_conf")]
    assert pre.values == (("resize", "1024"), ("grayscale", "True"))
    # a dict not named for settings, and the settings of a class no top model builds
    assert not [r for r in review.recipe if r.name.endswith(".names")]
    assert not [r for r in review.recipe if r.name.startswith("AltMatcher")]


def test_a_zoo_function_taking_no_channel_count_is_no_layer_helper() -> None:
    # a graph tool over a built model keeps the zoo's rule
    for tool in (
        "torchvision.models.feature_extraction.create_feature_extractor",
        "torchvision.models.feature_extraction.get_graph_node_names",
    ):
        assert "plain layers" not in gap_rewrite(tool)[1]
