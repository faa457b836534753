"""The reviewed compositions (existing MindSpore ops standing in for missing APIs) agree with
PyTorch, or with the pure-PyTorch reference of a torchvision op, on CPU."""

from __future__ import annotations

import numpy as np
import pytest

from apiscan.verify.catalogue import compositions as catalogue
from apiscan.verify.compositions import COMPOSED

pytest.importorskip("torch")
pytest.importorskip("mindspore")


def test_at_least_ten_apis_have_a_verified_composition() -> None:
    from apiscan.verify.runner import Runner

    with Runner("CPU", "float32", timeout=120) as runner:
        results = runner.run(catalogue.CASES)
    failed = [(r.case_id, r.status, r.worst, r.detail) for r in results if r.status != "pass"]
    assert not failed
    assert len({r.api for r in results}) >= 10
    assert {r.api for r in results} == set(COMPOSED)


def test_nms_inputs_make_the_keep_lists_informative() -> None:
    """The drawn boxes overlap enough that NMS drops some and keeps others, and batched NMS
    (per category) keeps more than plain NMS: a composition that kept everything, or
    ignored the categories, would fail."""
    import torch

    from apiscan.verify import reference
    from apiscan.verify.harness import _draw

    [case] = [c for c in catalogue.CASES if c.api == "torchvision.ops.batched_nms"]
    rng = np.random.default_rng(0)
    boxes, scores, idxs = (torch.tensor(_draw(s, "float32", rng)) for s in case.inputs)
    for threshold in (0.5, 0.2):
        plain = reference.nms(boxes, scores, threshold)
        batched = reference.batched_nms(boxes, scores, idxs, threshold)
        assert 0 < len(plain) < len(batched) < len(boxes)
