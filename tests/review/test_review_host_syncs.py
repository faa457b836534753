"""Host reads and round trips each training step, and NumPy code that is no tensor's:
fixtures/hostsyncs (metrics copied with ``.cpu().numpy()`` and a loss tensor formatted into a
progress line inside the batch loop, the same once an epoch after it; a plain CPU tensor
attribute indexed by the device's timesteps and copied back in the loss, beside a registered
buffer and an attribute made on the device; a NumPy IoU beside its torch twin)."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/hostsyncs")


def test_per_step_copies_and_formatting_are_step_syncs(review: Review) -> None:
    # VALID: ``inter.cpu().numpy(), total.cpu().numpy()`` (line 21: two copies, their
    # ``.cpu()`` part of them), ``'%10.4g' % (*mloss,)`` of a device tensor (line 25) and
    # ``"{:.4f}".format(mloss.sum())`` (line 26) in the batch loop; INVALID:
    # ``labels.numpy()`` of the loader's batch (line 22, never on the device), ``"%d" % i``
    # and ``"%g" % epoch`` (numbers), and the epoch's ``"%g" % mloss[0]``,
    # ``mloss.cpu().numpy()`` after the batch loop (line 27)
    syncs = [i for i in review.work if i.kind == "step-sync"]
    assert [(i.what, [(w.path, w.line) for w in i.where], i.uses) for i in syncs] == [
        (
            "4 host reads in the training step (train.py:train)",
            [("train.py", 21), ("train.py", 25), ("train.py", 26)],
            4,
        )
    ]
    assert "metrics copied with .cpu().numpy()" in syncs[0].why
    assert "formatted into a progress line" in syncs[0].why
    assert "loss.item()" not in syncs[0].why  # no .item() read here


def test_a_plain_cpu_tensor_indexed_each_step_is_a_round_trip(review: Review) -> None:
    # VALID: ``self.logvar`` (torch.full, no device; a Parameter only under the option)
    # indexed by ``t`` and copied back in the loss; INVALID: ``self.alphas`` (a registered
    # buffer), ``self.scales`` (made with ``device=``) and ``self.shifts`` (moved once in
    # ``__init__``), indexed and copied the same way
    # priced as a buffer to register (a line), not as a round trip to redesign
    assert not any("self." in i.what for i in review.work if i.kind == "host-round-trip")
    trips = [i for i in review.work if i.kind == "host-buffer"]
    assert [(i.what, [(w.path, w.line) for w in i.where]) for i in trips] == [
        (
            "Diffusion.p_losses: self.logvar kept on the host, copied to the device every "
            "step (self.logvar[t].to(x.device))",
            [("model.py", 27), ("model.py", 10)],
        )
    ]
    why = trips[0].why
    assert "a Parameter only when learn_logvar" in why
    assert "indexes it on the host" in why and "register it as a buffer" in why


def test_numpy_only_function_has_no_tensor_shape_finding() -> None:
    # INVALID: ``iou_numpy`` works on arrays (``.copy()`` of a value only guessed a tensor),
    # its ``np.where`` index is no tensor gather; VALID: its torch twin ``iou_device`` keeps
    # its boolean-mask selection
    result, analyses = scan_with_facts(
        ScanOptions(str(REPO_ROOT / "fixtures/hostsyncs"), cache_dir=None, jobs=1)
    )
    found = sorted((f.path, f.span.line, f.rule, f.function) for f in result.shape_findings)
    assert [f for f in found if f[0] == "metrics.py"] == [("metrics.py", 20, "DS104", "iou_device")]
    # the scan records each formatting of a tensor (the review keeps the batch loop's)
    formatted = {fa.path: fa.formatted for fa in analyses}
    assert formatted["train.py"] == (("train", 25), ("train", 26), ("train", 27))


def test_a_framework_training_step_reads_per_step() -> None:
    """Lightning's trainer runs ``training_step`` on every batch and does the backward pass
    itself: a ``loss.item()`` there is a per-step host read (VALID); the same read in
    ``validation_step`` runs at evaluation only (INVALID)."""
    review = review_fixture("fixtures/litentry")
    syncs = [i for i in review.work if i.kind == "step-sync"]
    places = [(w.path, w.line) for i in syncs for w in i.where]
    path = "ldpkg/models/diffusion.py"
    assert (path, 20) in places
    assert not any(p == path and line > 22 for p, line in places)
