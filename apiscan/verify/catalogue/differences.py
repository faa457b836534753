"""Hand-written cases for rows the mapping table marks "different": each runs the table's
target with the mapping its difference page documents written out (a default that differs
passed explicitly, a renamed parameter under MindSpore's name, ``pad_mode='pad'`` for an
explicit padding, the weight layout MindSpore stores), so that what is compared is the
documented port, not the PyTorch call copied verbatim (which computes another function by
the page's own account). Each note names its page: r2.4.0 ``pytorch_diff/<Name>.md`` of the
official docs.

Where the table's target has no CPU kernel in MindSpore 2.10 (``InstanceNorm``), its case is
tagged ``no-kernel=CPU:<kernel>`` and a second case (pattern ``cpu``) checks a route that runs
on CPU, so ``apiscan verify X`` gives a verdict on a CPU machine. A case whose documented
workaround does not hold says so in its note ("REAL DISAGREEMENT") and fails."""

from __future__ import annotations

from apiscan.verify.cases import Case, InputSpec, Variant
from apiscan.verify.catalogue.inputs import floats

_WEIGHT_BIAS = (("weight", "weight"), ("bias", "bias"))
_GAMMA_BETA = (("weight", "gamma"), ("bias", "beta"))
_SIGNAL = floats("x", 2, 3, 9)
_VOLUME = floats("x", 2, 3, 5, 6, 7)
_PAD_VARIANTS = (
    Variant("count_include_pad", (("cip", True),)),
    Variant("exclude pad", (("cip", False),)),
)

# -- nn.InstanceNorm1d / 3d (r2.4.0 pytorch_diff/InstanceNorm1d.md, InstanceNorm3d.md)
_INSTANCE_NOTE = (
    "Documented differences written out (r2.4.0 pytorch_diff/{page}.md): affine defaults to "
    "True in MindSpore, False in torch, so torch's default is affine=False there; MindSpore "
    "has no track_running_stats and always normalises by the input's own statistics, torch's "
    "default (in eval mode too). MindSpore 2.10 has no CPU kernel for InstanceNorm: the "
    "'cpu' cases check a route that has one."
)
_INSTANCE_CPU_NOTE = (
    "r2.4.0 pytorch_diff/{page}.md maps it to mindspore.nn.{page}, which has no InstanceNorm "
    "kernel on CPU in MindSpore 2.10. CPU route: instance normalisation is group "
    "normalisation with one group per channel, mint.nn.GroupNorm(C, C) (affine=False for "
    "torch's default; its weight and bias start at ones and zeros like torch's)."
)


def _instance_norm(dims: int, x: InputSpec) -> tuple[Case, ...]:
    name = f"InstanceNorm{dims}d"
    api = f"torch.nn.{name}"
    note = _INSTANCE_NOTE.format(page=name)
    cpu_note = _INSTANCE_CPU_NOTE.format(page=name)
    no_kernel = ("no-kernel=CPU:InstanceNorm",)
    return (
        Case(
            api,
            f"torch.nn.{name}(3)",
            f"msnn.{name}(3, affine=False)",
            "mapped",
            (x,),
            kind="layer",
            grad=True,
            note=note,
            tags=no_kernel,
        ),
        Case(
            api,
            f"torch.nn.{name}(3, affine=True)",
            f"msnn.{name}(3)",
            "mapped",
            (x,),
            pattern="affine=True",
            param_map=_GAMMA_BETA,
            grad=True,
            note=note,
            tags=no_kernel,
        ),
        Case(
            api,
            f"torch.nn.{name}(3)",
            "mint.nn.GroupNorm(3, 3, affine=False)",
            "equivalent",
            (x,),
            pattern="cpu",
            kind="layer",
            grad=True,
            note=cpu_note,
        ),
        Case(
            api,
            f"torch.nn.{name}(3, eps=1e-3, affine=True)",
            "mint.nn.GroupNorm(3, 3, eps=1e-3)",
            "equivalent",
            (x,),
            pattern="affine=True, cpu",
            param_map=_WEIGHT_BIAS,
            grad=True,
            note=cpu_note,
        ),
    )


def _port(api: str, torch_expr: str, ms_expr: str, inputs: tuple[InputSpec, ...], **kw) -> Case:
    """A case of a documented port ("mapped") whose gradients are compared too: the shape
    every layer and function case below shares."""
    return Case(api, torch_expr, ms_expr, "mapped", inputs, grad=True, **kw)


# -- nn.ConvTranspose1d / 3d (r2.4.0 pytorch_diff/Conv1dTranspose.md, Conv3dTranspose.md)
_TRANSPOSED_NOTE = (
    "Documented differences written out (r2.4.0 pytorch_diff/{page}.md): has_bias defaults "
    "to False (torch's bias to True), padding applies only with pad_mode='pad' (the default "
    "is 'same'), groups is named group.{layout}"
)
#: What the documented ``pad_mode='same'`` port of torch's output_padding computes.
_SAME_SHIFTED = (
    "REAL DISAGREEMENT: the shapes agree (all the page shows) but the values do not: "
    "'same' crops (kernel_size - stride) / 2 from each end of the full transposed "
    "convolution, torch crops padding from the start and padding - output_padding from the "
    "end, so the output is shifted by one position along each spatial axis (measured in "
    "MindSpore 2.10 on CPU)."
)

_TRANSPOSED: tuple[Case, ...] = (
    _port(
        "torch.nn.ConvTranspose1d",
        "torch.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, groups=2)",
        "msnn.Conv1dTranspose(4, 6, 3, stride=2, pad_mode='pad', padding=1, group=2, "
        "has_bias=True)",
        (floats("x", 2, 4, 9),),
        param_map=_WEIGHT_BIAS,
        note=_TRANSPOSED_NOTE.format(
            page="Conv1dTranspose",
            layout=" The weight is stored (in, out/groups, 1, k) where torch's is "
            "(in, out/groups, k).",
        ),
    ),
    _port(
        "torch.nn.ConvTranspose1d",
        "torch.nn.ConvTranspose1d(3, 4, 5, stride=3, padding=2, output_padding=2)",
        "msnn.Conv1dTranspose(3, 4, 5, stride=3, pad_mode='same', has_bias=True)",
        (_SIGNAL,),
        pattern="output_padding, pad_mode='same'",
        param_map=_WEIGHT_BIAS,
        note="mindspore.nn.Conv1dTranspose has no output_padding (nor a tuple padding); the "
        "page's workaround (r2.4.0 pytorch_diff/Conv1dTranspose.md, second example) for "
        "padding=(k-1)//2, output_padding=stride-1 is pad_mode='same'. " + _SAME_SHIFTED,
    ),
    _port(
        "torch.nn.ConvTranspose3d",
        "torch.nn.ConvTranspose3d(4, 6, 3, stride=2, padding=1, groups=2)",
        "msnn.Conv3dTranspose(4, 6, 3, stride=2, pad_mode='pad', padding=1, group=2, "
        "has_bias=True)",
        (floats("x", 2, 4, 3, 4, 5),),
        param_map=_WEIGHT_BIAS,
        note=_TRANSPOSED_NOTE.format(page="Conv3dTranspose", layout=""),
    ),
    _port(
        "torch.nn.ConvTranspose3d",
        "torch.nn.ConvTranspose3d(3, 4, 3, stride=2, padding=1, output_padding=1)",
        "msnn.Conv3dTranspose(3, 4, 3, stride=2, pad_mode='pad', padding=1, "
        "output_padding=1, has_bias=True)",
        (floats("x", 2, 3, 3, 4, 5),),
        pattern="output_padding",
        param_map=_WEIGHT_BIAS,
        note="output_padding is the same parameter on both sides (r2.4.0 "
        "pytorch_diff/Conv3dTranspose.md), with pad_mode='pad' and has_bias=True written out.",
    ),
    _port(
        "torch.nn.ConvTranspose3d",
        "torch.nn.ConvTranspose3d(3, 4, 5, stride=3, padding=2, output_padding=2)",
        "msnn.Conv3dTranspose(3, 4, 5, stride=3, pad_mode='same', has_bias=True)",
        (floats("x", 1, 3, 2, 3, 4),),
        pattern="output_padding, pad_mode='same'",
        param_map=_WEIGHT_BIAS,
        note="The page's first example (r2.4.0 pytorch_diff/Conv3dTranspose.md): "
        "padding=(k-1)//2, output_padding=stride-1 in torch is pad_mode='same' in MindSpore. "
        + _SAME_SHIFTED
        + " The port that holds is pad_mode='pad' with padding and output_padding as in torch "
        "(the 'output_padding' case).",
    ),
)

# -- pooling (r2.4.0 pytorch_diff/AvgPool1d.md, AvgPool3d.md, MaxPool3d.md, and avg_pool1d.md,
# the page the table links for F.avg_pool3d)
_STRIDE_NOTE = (
    "stride defaults to kernel_size in torch, to 1 in {target} (r2.4.0 pytorch_diff/{page}.md"
    "): passed explicitly."
)
_PAD_NOTE = "An explicit padding needs pad_mode='pad' (r2.4.0 pytorch_diff/{page}.md, {where})."

_POOLING: tuple[Case, ...] = (
    _port(
        "torch.nn.AvgPool1d",
        "torch.nn.AvgPool1d(2)",
        "msnn.AvgPool1d(2, stride=2)",
        (_SIGNAL,),
        kind="layer",
        note=_STRIDE_NOTE.format(target="MindSpore", page="AvgPool1d"),
    ),
    _port(
        "torch.nn.AvgPool1d",
        "torch.nn.AvgPool1d(4, stride=2, padding=2, ceil_mode=True, count_include_pad=cip)",
        "msnn.AvgPool1d(4, stride=2, pad_mode='pad', padding=2, ceil_mode=True, "
        "count_include_pad=cip)",
        (_SIGNAL,),
        pattern="padding, ceil_mode",
        variants=_PAD_VARIANTS,
        kind="layer",
        note=_PAD_NOTE.format(page="AvgPool1d", where="second example"),
    ),
    _port(
        "torch.nn.AvgPool3d",
        "torch.nn.AvgPool3d(2)",
        "msnn.AvgPool3d(2, stride=2)",
        (_VOLUME,),
        kind="layer",
        note=_STRIDE_NOTE.format(target="MindSpore", page="AvgPool3d"),
    ),
    _port(
        "torch.nn.AvgPool3d",
        "torch.nn.AvgPool3d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=cip)",
        "msnn.AvgPool3d(3, stride=2, pad_mode='pad', padding=1, ceil_mode=True, "
        "count_include_pad=cip)",
        (_VOLUME,),
        pattern="padding, ceil_mode",
        variants=_PAD_VARIANTS,
        kind="layer",
        note=_PAD_NOTE.format(page="AvgPool3d", where="second example"),
    ),
    _port(
        "torch.nn.AvgPool3d",
        "torch.nn.AvgPool3d(2, stride=1, divisor_override=3)",
        "msnn.AvgPool3d(2, stride=1, divisor_override=3)",
        (_VOLUME,),
        pattern="divisor_override",
        kind="layer",
        note="divisor_override is consistent (r2.4.0 pytorch_diff/AvgPool3d.md).",
    ),
    _port(
        "torch.nn.MaxPool3d",
        "torch.nn.MaxPool3d(2)",
        "msnn.MaxPool3d(2, stride=2)",
        (_VOLUME,),
        kind="layer",
        note=_STRIDE_NOTE.format(target="MindSpore", page="MaxPool3d"),
    ),
    _port(
        "torch.nn.MaxPool3d",
        "torch.nn.MaxPool3d(3, stride=2, padding=1, dilation=dil, ceil_mode=True)",
        "msnn.MaxPool3d(3, stride=2, pad_mode='pad', padding=1, dilation=dil, ceil_mode=True)",
        (_VOLUME,),
        pattern="padding, dilation, ceil_mode",
        variants=(Variant("dilation=1", (("dil", 1),)), Variant("dilation=2", (("dil", 2),))),
        kind="layer",
        note=_PAD_NOTE.format(page="MaxPool3d", where="its example"),
    ),
    _port(
        "torch.nn.MaxPool3d",
        "torch.nn.MaxPool3d(2, stride=2, return_indices=True)",
        "msnn.MaxPool3d(2, stride=2, pad_mode='pad', return_indices=True)",
        (_VOLUME,),
        pattern="return_indices",
        kind="layer",
        note="MindSpore raises ValueError for return_indices=True unless pad_mode='pad' (not "
        "on r2.4.0 pytorch_diff/MaxPool3d.md, which calls return_indices consistent). The "
        "maxima and their indices (flattened over depth, height and width per channel on "
        "both sides) are compared.",
    ),
    _port(
        "torch.nn.functional.avg_pool3d",
        "F.avg_pool3d(x, 2)",
        "ops.avg_pool3d(x, 2, stride=2)",
        (_VOLUME,),
        note=_STRIDE_NOTE.format(target="mindspore.ops.avg_pool3d", page="avg_pool1d")
        + " (The table links avg_pool1d's page for avg_pool3d.)",
    ),
    _port(
        "torch.nn.functional.avg_pool3d",
        "F.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=cip)",
        "ops.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=cip)",
        (_VOLUME,),
        pattern="padding, ceil_mode",
        variants=_PAD_VARIANTS,
        note="padding, ceil_mode and count_include_pad are consistent (r2.4.0 "
        "pytorch_diff/avg_pool1d.md, the page the table links); mindspore.ops.avg_pool3d "
        "has no pad_mode.",
    ),
    _port(
        "torch.nn.functional.avg_pool3d",
        "F.avg_pool3d(x, 2, stride=1, divisor_override=3)",
        "ops.avg_pool3d(x, 2, stride=1, divisor_override=3)",
        (_VOLUME,),
        pattern="divisor_override",
        note="divisor_override: MindSpore's default 0 means none, like torch's None (r2.4.0 "
        "pytorch_diff/avg_pool1d.md does not list it).",
    ),
)

# -- Tensor.multinomial (r2.4.0 pytorch_diff/multinomial.md): random, so what is compared is
# what sampling must get right, never the draws themselves: the shape, the smallest and
# largest index drawn (in the indices' own dtype), the frequency of each category at each
# sample position over many independent rows (a category of weight 0 among them; weights
# need not sum to 1), and, without replacement, the number of rows that drew an index twice
# (0). The statistics are computed with numpy on both sides. With 200 000 draws a
# frequency's standard error is at most 0.0011, the two sides' difference's 0.0016: the
# threshold 0.01 is over 6 of those.
_WEIGHTS = floats("w", 5, low=0.2, high=1.0, grad=False)
_DROP_ONE = "np.array([1, 1, 0, 1, 1], dtype='float32')"
_ROWS = 200_000
_PER_POSITION = (
    "(lambda s: (s.shape, np.array([s.min(), s.max()], s.dtype), "
    "np.stack([np.bincount(c, minlength=5) for c in s.T]) / len(s), "
    "(s[:, 0] == s[:, 1]).sum()))"
)
_FREQUENCY = (
    "(lambda s: (s.shape, np.array([s.min(), s.max()], s.dtype), "
    "np.bincount(s, minlength=5) / len(s)))"
)
_MULTINOMIAL_NOTE = (
    "replacement defaults to False in torch, to True in MindSpore (r2.4.0 "
    "pytorch_diff/multinomial.md; still so in MindSpore 2.10, whose docstring announces the "
    "change): passed explicitly. MindSpore returns int32 indices where torch returns int64. "
)
#: Measured in MindSpore 2.10 on CPU, below what the frequencies resolve.
_WEIGHT_ZERO = (
    " REAL DISAGREEMENT, rare: without replacement MindSpore drew a category of weight 0 (7 "
    "times in 12.4 million draws; torch never does), a frequency within the threshold here."
)

_MULTINOMIAL: tuple[Case, ...] = (
    Case(
        "torch.Tensor.multinomial",
        f"{_PER_POSITION}((w * torch.tensor({_DROP_ONE})).expand({_ROWS}, 5)"
        ".multinomial(2).numpy())",
        f"{_PER_POSITION}((w * ms.Tensor({_DROP_ONE})).broadcast_to(({_ROWS}, 5))"
        ".multinomial(2, replacement=False).asnumpy())",
        "mapped",
        (_WEIGHTS,),
        threshold=0.01,
        note=_MULTINOMIAL_NOTE + "Random: compared are the shape, the index range, each "
        "category's frequency as the first and as the second draw of 200 000 rows (the second "
        "tests sampling without replacement) and the rows that drew an index twice (none)."
        + _WEIGHT_ZERO,
    ),
    Case(
        "torch.Tensor.multinomial",
        f"{_FREQUENCY}((w * torch.tensor({_DROP_ONE})).multinomial({_ROWS}, replacement=True)"
        ".numpy())",
        f"{_FREQUENCY}((w * ms.Tensor({_DROP_ONE})).multinomial({_ROWS}, replacement=True)"
        ".asnumpy())",
        "mapped",
        (_WEIGHTS,),
        pattern="replacement=True",
        threshold=0.01,
        note=_MULTINOMIAL_NOTE + "Random: compared are the shape, the index range and each "
        "category's frequency over 200 000 draws from one row.",
    ),
)

CASES: tuple[Case, ...] = (
    *_instance_norm(1, _SIGNAL),
    *_instance_norm(3, _VOLUME),
    *_TRANSPOSED,
    *_POOLING,
    *_MULTINOMIAL,
)
