"""The last documented parameters without a case (issue 21): inputs drawn to a structure
(max-unpooling indices per plane, positive-definite matrices, complex values), a fold's
input sized by its geometry, a differentiable optimizer step, and the hand-written forms of
rows without a signature. The drawing and sizing are static; one test runs a sample."""

from __future__ import annotations

import numpy as np
import pytest

from apiscan.verify.cases import InputSpec, validate
from apiscan.verify.catalogue import cases_for
from apiscan.verify.catalogue.inputs import parse_inputs
from apiscan.verify.documented import _sized
from apiscan.verify.harness import _draw


def test_plane_indices_are_distinct_within_each_plane() -> None:
    [spec] = parse_inputs("u=int[2,3,4,4]@0:16!planes")
    values = _draw(spec, "float32", np.random.default_rng(0))
    assert values.shape == (2, 3, 4, 4) and values.dtype == np.int64
    for plane in values.reshape(6, 16):
        assert sorted(plane) == list(range(16))


def test_spd_matrices_are_symmetric_positive_definite() -> None:
    [spec] = parse_inputs("a=float[3,3]!spd")
    a = _draw(spec, "float32", np.random.default_rng(0))
    assert np.allclose(a, a.T) and np.linalg.eigvalsh(a).min() > 0


def test_complex_inputs_are_complex64() -> None:
    [spec] = parse_inputs("z=complex[3,4]")
    z = _draw(spec, "float32", np.random.default_rng(0))
    assert z.dtype == np.complex64 and np.abs(z.imag).max() > 0


def test_structured_specials_are_validated() -> None:
    from apiscan.verify.cases import Case

    def problems(spec: InputSpec) -> list[str]:
        return validate(Case("torch.x", "torch.x(a)", "ops.x(a)", "mapped", (spec,)))

    assert problems(InputSpec("a", (2, 3, 4), "int", 0, 3, special="planes"))  # 4 > 3 values
    assert not problems(InputSpec("a", (2, 3, 4), "int", 0, 4, special="planes"))
    assert problems(InputSpec("a", (3, 4), "float", special="spd"))  # not square


@pytest.mark.parametrize(
    ("call", "blocks"),
    [
        ("torch.nn.Fold(4, 2)", 9),
        ("torch.nn.Fold(4, 2, dilation=2)", 4),
        ("torch.nn.Fold(4, 2, padding=1)", 25),
        ("torch.nn.Fold(4, 2, 2, 1)", 16),
        ("torch.nn.Fold(4, 2, 2, 1, 2)", 4),
        ("torch.nn.functional.fold(fx, (4, 4), 2, stride=1)", 9),
    ],
)
def test_a_folds_input_has_one_column_per_sliding_block(call: str, blocks: int) -> None:
    name = "fx" if "functional" in call else "x"
    assert _sized(call, f"{name}=float[1,12,9]!nan;y=float[3]") == (
        f"{name}=float[1,12,{blocks}]!nan;y=float[3]"
    )
    assert _sized("torch.round(x)", "x=float[3,4]") == "x=float[3,4]"


#: (API, pattern, expected status): each closes a gap the coverage count listed.
SAMPLE = [
    ("torch.nn.MaxUnpool1d", "claim: torch.nn.MaxUnpool1d(2, 3, 1)", "pass"),
    (
        "torch.nn.functional.max_unpool3d",
        "claim: torch.nn.functional.max_unpool3d(xu3, u3, 2, output_size=(5, 5, 5))",
        "pass",
    ),
    ("torch.view_as_real", "claim: torch.view_as_real(z)", "pass"),
    ("torch.Tensor.cholesky", "claim: x.cholesky(upper=True)", "pass"),
    ("torch.nn.Module.apply", "claim: model.apply(fn)", "pass"),
    ("torch.Tensor", "claim: torch.Tensor([[1, 2], [3, 4]])", "pass"),
    ("torch.Tensor", "claim: torch.Tensor(2, 3)", "error"),
    ("torch.optim.SGD", "claim: torch.optim.SGD(params, lr=0.01, differentiable=True)", "error"),
]


def test_the_new_forms_run_to_a_verdict() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    from apiscan.verify.runner import Runner

    cases = [next(c for c in cases_for(api) if c.pattern == pattern) for api, pattern, _ in SAMPLE]
    with Runner("CPU", "float32", timeout=120) as runner:
        results = {r.case_id: r for r in runner.run(cases)}
    for case, (_, _, expected) in zip(cases, SAMPLE, strict=True):
        assert results[case.case_id].status == expected, (case.case_id, results[case.case_id])
    # the legacy constructor turns a list of ints into float32, MindSpore's Tensor into int64
    listed = results[cases[5].case_id]
    assert listed.dtype_diff == "output: float32 (torch) vs int64 (MindSpore)"
    # torch stepped a differentiable SGD (a non-leaf parameter); MindSpore's rejects the flag
    sgd = results[cases[7].case_id].detail
    assert sgd.startswith("mindspore:") and "differentiable" in sgd
