"""Mapped nn layers: the torch module's parameters are copied into the MindSpore cell, both
run in eval mode, and the input gradient is compared too."""

from __future__ import annotations

from apiscan.verify.cases import Case
from apiscan.verify.catalogue.inputs import floats, labels

_WEIGHT_BIAS = (("weight", "weight"), ("bias", "bias"))

CASES: tuple[Case, ...] = (
    Case(
        "torch.nn.Conv2d",
        "torch.nn.Conv2d(3, 4, 3, stride=1, padding=1)",
        "mint.nn.Conv2d(3, 4, 3, stride=1, padding=1)",
        "mapped",
        (floats("x", 2, 3, 6, 6),),
        param_map=_WEIGHT_BIAS,
        grad=True,
    ),
    Case(
        "torch.nn.Conv2d",
        "torch.nn.Conv2d(3, 4, 3, stride=1, padding=1)",
        "msnn.Conv2d(3, 4, 3, stride=1, pad_mode='pad', padding=1, has_bias=True)",
        "mapped",
        (floats("x", 2, 3, 6, 6),),
        pattern="mindspore.nn",
        param_map=_WEIGHT_BIAS,
        grad=True,
        note="mindspore.nn.Conv2d needs pad_mode='pad' and has_bias=True to match.",
    ),
    Case(
        "torch.nn.Linear",
        "torch.nn.Linear(5, 3)",
        "mint.nn.Linear(5, 3)",
        "mapped",
        (floats("x", 4, 5),),
        param_map=_WEIGHT_BIAS,
        grad=True,
    ),
    Case(
        "torch.nn.BatchNorm2d",
        "torch.nn.BatchNorm2d(3)",
        "msnn.BatchNorm2d(3)",
        "mapped",
        (floats("x", 2, 3, 4, 4),),
        pattern="eval",
        param_map=(
            ("weight", "gamma"),
            ("bias", "beta"),
            ("running_mean", "moving_mean"),
            ("running_var", "moving_variance"),
        ),
        grad=True,
    ),
    Case(
        "torch.nn.LayerNorm",
        "torch.nn.LayerNorm(6)",
        "msnn.LayerNorm((6,), begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)",
        "mapped",
        (floats("x", 3, 6),),
        param_map=(("weight", "gamma"), ("bias", "beta")),
        grad=True,
        note="mindspore.nn.LayerNorm's epsilon defaults to 1e-7, torch's eps to 1e-5.",
    ),
    Case(
        "torch.nn.Dropout",
        "torch.nn.Dropout(p=0.0)",
        "mint.nn.Dropout(p=0.0)",
        "mapped",
        (floats("x", 3, 4),),
        pattern="p=0",
        kind="layer",
        grad=True,
    ),
    Case(
        "torch.nn.ReLU",
        "torch.nn.ReLU()",
        "mint.nn.ReLU()",
        "mapped",
        (floats("x", 3, 4),),
        kind="layer",
        grad=True,
    ),
    Case(
        "torch.nn.GELU",
        "torch.nn.GELU()",
        "mint.nn.GELU()",
        "mapped",
        (floats("x", 3, 4),),
        kind="layer",
        grad=True,
    ),
    Case(
        "torch.nn.Softmax",
        "torch.nn.Softmax(dim=-1)",
        "mint.nn.Softmax(dim=-1)",
        "mapped",
        (floats("x", 3, 4),),
        kind="layer",
        grad=True,
    ),
    Case(
        "torch.nn.Embedding",
        "torch.nn.Embedding(10, 4)",
        "mint.nn.Embedding(10, 4)",
        "mapped",
        (labels("idx", 2, 5, classes=10),),
        param_map=(("weight", "weight"),),
    ),
)
