"""The templates added for the most-called "different" rows in network code: each renders
exactly the forms it accepts and declines the others with a reason."""

from __future__ import annotations

import pytest

from apiscan.model import CallArgs
from apiscan.rewrite.substitutions import recipes_for
from apiscan.rewrite.template import render


def _render(api: str, receiver: str = "", *positional: str, **keywords: str) -> tuple[str, str]:
    [recipe] = recipes_for(api)
    out = render(recipe.template, CallArgs(receiver, positional, tuple(keywords.items())))
    return out.text, out.note


@pytest.mark.parametrize(
    ("api", "receiver", "positional", "keywords", "expected"),
    [
        (
            "torch.nn.functional.interpolate",
            "",
            ("x",),
            {"size": "(h, w)", "mode": '"bilinear"', "align_corners": "True"},
            'mindspore.mint.nn.functional.interpolate(x, size=(h, w), mode="bilinear", '
            "align_corners=True)",
        ),
        (
            "torch.nn.functional.interpolate",
            "",
            ("x",),
            {"scale_factor": "2", "antialias": "False"},
            "mindspore.mint.nn.functional.interpolate(x, scale_factor=2)",
        ),
        # a method rewritten to the function that takes the receiver first
        (
            "torch.Tensor.amax",
            "x",
            (),
            {"dim": "1", "keepdim": "True"},
            "x.amax(1, keepdims=True)",
        ),
        ("torch.Tensor.amin", "y.abs()", (), {}, "y.abs().amin()"),
        # unbiased → ddof (1/0); PyTorch's default written out, MindSpore's is biased
        (
            "torch.Tensor.var",
            "x",
            (),
            {"dim": "(2, 3)", "unbiased": "False", "keepdim": "True"},
            "x.var(axis=(2, 3), ddof=0, keepdims=True)",
        ),
        ("torch.Tensor.var", "x", ("1",), {}, "x.var(axis=1, ddof=1)"),
        (
            "torch.nn.functional.grid_sample",
            "",
            ("x", "g"),
            {},
            "mindspore.mint.nn.functional.grid_sample(x, g, align_corners=False)",
        ),
        ("torch.Tensor.flip", "x", ("0",), {}, "x.flip((0,))"),
        ("torch.Tensor.flip", "x", ("0", "1"), {}, "x.flip((0, 1))"),
        (
            "torch.nn.functional.kl_div",
            "",
            ("p", "q"),
            {"reduction": "'batchmean'"},
            "mindspore.mint.nn.functional.kl_div(p, q, reduction='batchmean')",
        ),
    ],
)
def test_renders_exact_forms(
    api: str, receiver: str, positional: tuple[str, ...], keywords: dict[str, str], expected: str
) -> None:
    assert _render(api, receiver, *positional, **keywords)[0] == expected


@pytest.mark.parametrize(
    ("api", "receiver", "positional", "keywords", "reason"),
    [
        (
            "torch.nn.functional.interpolate",
            "",
            ("x",),
            {"size": "s", "antialias": "True"},
            "MindSpore has no antialias",
        ),
        ("torch.Tensor.var", "x", (), {"unbiased": "flag"}, "no MindSpore equivalent"),
        ("torch.Tensor.flip", "x", ("dims",), {}, "not known statically"),
        ("torch.nn.functional.kl_div", "", ("p", "q"), {"size_average": "False"}, "deprecated"),
    ],
)
def test_declines_with_a_reason(
    api: str, receiver: str, positional: tuple[str, ...], keywords: dict[str, str], reason: str
) -> None:
    text, note = _render(api, receiver, *positional, **keywords)
    assert text == "" and reason in note


def test_tensor_to_drops_the_device_keeps_the_dtype() -> None:
    [recipe] = recipes_for("torch.Tensor.to")
    call = CallArgs("x", (), (("device", "dev"), ("dtype", "torch.float32")))
    out = render(recipe.template, call)
    assert out.text == "x.to(mindspore.float32)" and "placement is global" in out.note
