"""Work items and effort on fixtures/hubeval (see fixtures/README.md): code only hub entry
points or evaluation entry points reach is counted apart; trivial compositions and
initialisations are no custom op; a distributed-training framework is one job; host round
trips only on the training path, a forward's ``.cpu().numpy()`` one of them, the loop's
``loss.item()`` one minor item; ``out=`` rewritten as an assignment into its target."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apiscan.model import ApiFinding, CallArgs, ParamChange, Span
from apiscan.review.build import build_review
from apiscan.review.gaps import is_custom_op
from apiscan.review.work import HUB_ONLY, sharded_api
from apiscan.rewrite import dispose

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def review():
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return build_review("fixtures/hubeval")
    finally:
        os.chdir(cwd)


def test_hub_builders_and_evaluation_packages_are_counted_apart(review) -> None:
    apart = dict(review.ancillary)
    assert apart["hubconf.py"] == "torch.hub entry points"
    # VALID: what only hubconf.py reaches goes with it; what only the probe reaches, too
    assert apart["pkg/hub/backbones.py"] == apart["pkg/hub/depth.py"] == HUB_ONLY
    for path in ("pkg/eval/linear.py", "pkg/eval/metrics.py"):
        assert apart[path] == "evaluation", path
    # INVALID: the backbone the hub builders wrap is what the training builds: ported
    for path in ("pkg/models/vit.py", "pkg/train/meta.py", "pkg/train/train.py"):
        assert path not in apart, path
    # the tree is the training's model, not a hub builder's
    assert "pkg.train.meta.Meta" in [t.cls for t in review.top_models]
    assert not any(".hub." in t.cls for t in review.top_models)
    # the hub depth head's nonzero and the probe's are no dynamic-shape rewrite: the one
    # counted is the trained ViT's own slice bounded by a host copy of its lengths
    assert review.effort.dynamic_shape_rewrites == 1
    assert "pkg/models/vit.py" in " ".join(review.effort.explanation)
    # the probe's SGD is no recipe row
    assert not any(r.where.path.startswith("pkg/eval/") for r in review.recipe)


def _finding(api: str, disposition: str = "custom-op") -> ApiFinding:
    return ApiFinding(
        "m.py",
        Span(1, 1, 1, 9),
        api,
        "missing",
        None,
        "certain",
        "",
        "call",
        "torch",
        disposition=disposition,
    )


def test_compositions_and_initialisations_are_no_custom_op(review) -> None:
    # VALID: a distance is a norm of a difference; a layer's reset is an initialisation
    for api in (
        "torch.nn.PairwiseDistance",
        "torch.nn.functional.pairwise_distance",
        "torch.nn.LayerNorm.reset_parameters",
        "torch.nn.Conv2d.reset_parameters",
        "torch.nn.BatchNorm2d.reset_running_stats",
    ):
        assert not is_custom_op(_finding(api)), api
    # INVALID: a tensor computation with no counterpart stays one; a repository's own
    # class's reset is not torch's
    assert is_custom_op(_finding("torch.nn.functional.some_missing_op"))
    assert is_custom_op(_finding("torch.special.missing_kernel"))
    assert review.effort.custom_ops == 0
    gaps = {g.api: g for g in review.gaps}
    assert gaps["torch.nn.PairwiseDistance"].disposition == "rewrite"
    assert "mindspore.ops.norm(x1 - x2 + eps" in gaps["torch.nn.PairwiseDistance"].suggestion
    assert gaps["torch.nn.LayerNorm.reset_parameters"].disposition == "rewrite"


def test_fsdp_is_one_job_not_a_gap_per_api(review) -> None:
    jobs = [i for i in review.work if i.kind == "sharded-training"]
    assert len(jobs) == 1
    assert jobs[0].what.startswith("FSDP (")
    assert jobs[0].uses == 3
    assert "torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler" in jobs[0].what
    assert "1 sharded-training × 2–4" in review.effort.formula
    assert " gap " not in review.effort.formula  # priced once, not 3 × 1–2
    # VALID and INVALID: the family by prefix; another distributed API is none of it
    assert sharded_api("torch.distributed.fsdp.MixedPrecision") == "FSDP"
    assert sharded_api("torch.distributed._composable.fsdp.fully_shard") == "FSDP"
    assert sharded_api("torch.distributed.tensor.DTensor") == ""
    assert sharded_api("torch.distributed.all_reduce") == ""
    assert sharded_api("torch.nn.parallel.DistributedDataParallel") == ""


def test_round_trips_only_on_the_training_path(review) -> None:
    trips = {i.what: i for i in review.work if i.kind == "host-round-trip"}
    # VALID: the forward's .cpu().numpy() is a device-to-host copy each step
    copy = trips["ViT.forward: tensor copied to the host (cpu(), numpy())"]
    assert [(w.path, w.line) for w in copy.where] == [("pkg/models/vit.py", 13)]
    # ... and its .cpu() is no placement call to delete
    assert not any(g.api == "torch.Tensor.cpu" for g in review.gaps)
    # INVALID: STFT.inverse's from_numpy is reached only by STFT.forward (no model calls it)
    # and griffin_lim (nothing calls it): no trip of the training
    assert not any(w.startswith("STFT.") for w in trips)
    assert len(trips) == 1


def test_the_loops_host_reads_are_one_minor_item(review) -> None:
    syncs = [i for i in review.work if i.kind == "step-sync"]
    assert len(syncs) == 1
    assert syncs[0].uses == 2
    assert [w.line for w in syncs[0].where] == [24, 25]
    assert "1 step-sync × 0.1–0.2" in review.effort.formula


def _out_call(keywords: tuple[tuple[str, str], ...], changes: tuple[ParamChange, ...]):
    return ApiFinding(
        "m.py",
        Span(3, 5, 3, 60),
        "torch.index_select",
        "consistent",
        "mindspore.mint.index_select",
        "certain",
        "",
        "call",
        "torch",
        param_changes=changes,
        args=CallArgs("torch", ("a",), keywords),
    )


def test_out_is_rewritten_as_an_assignment_into_its_target() -> None:
    out = ParamChange("out", "general")
    # VALID: out= passed: the result is assigned to the out target, a rewrite
    f = dispose(_out_call((("dim", "0"), ("index", "i"), ("out", "buf[0:4]")), (out,)))
    assert f.disposition == "rewrite"
    assert f.rewrite == "buf[0:4] = mindspore.mint.index_select(a, dim=0, index=i)"
    assert "assigned to the out target" in f.rewrite_note
    assert out.headline().startswith("out=: drop it and assign the result to the out tensor")
    # INVALID: no out=: the consistent call keeps its rename and needs nothing
    g = dispose(_out_call((("dim", "0"), ("index", "i")), ()))
    assert g.disposition == "none"
    assert g.rewrite == "mindspore.mint.index_select(a, dim=0, index=i)"
    # another general parameter is still dropped
    assert ParamChange("device", "general").headline().startswith("device=: drop it")
