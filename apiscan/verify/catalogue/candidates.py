"""Same-name candidates that reports recommend verifying (``same name, unverified: apiscan
verify torch.float32``): one case each, so that every such recommendation has a micro-test.

A dtype is checked by what code does with it: a tensor created with it holds the same values
with the same dtype (the harness reports a dtype difference apart). Reports no longer send
dtypes MindSpore's dtype page lists under the same name to verification (a rename: see
``apiscan.mapping.candidates.SAME_DTYPES``); their cases stay, a check of that page.
Host-side APIs that compute nothing comparable (``torch.cuda.max_memory_allocated``) have no case.
"""

from __future__ import annotations

from dataclasses import replace

from apiscan.verify.cases import Case
from apiscan.verify.catalogue.inputs import floats

_X = (floats("x", 3, 4),)
#: torch dtype names with a same-name MindSpore dtype (``mindspore.long`` is int64 too).
DTYPES = (
    "float16",
    "float32",
    "float64",
    "half",
    "float",
    "double",
    "bool",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "long",
    "short",
    "uint8",
)


def _same(api: str, torch_expr: str, ms_expr: str, note: str) -> Case:
    return Case(api, torch_expr, ms_expr, "same-name", _X, note=note, tags=("candidate",))


def _complex(torch_call: str, ms_call: str) -> tuple[str, str]:
    """Complex outputs compared as their real and imaginary parts, stacked."""
    return (
        f"(lambda y: torch.stack([y.real, y.imag]))({torch_call})",
        f"(lambda y: ops.stack([ops.real(y), ops.imag(y)]))({ms_call})",
    )


#: ``torch.fft``'s transforms and helpers, each with its same-name ``mindspore.ops`` function
#: (the mapping tables list none of them). Inverse real transforms take a forward transform's
#: complex output; ``n``/``dim``/``norm`` are passed where the function takes them.
_FFT: tuple[Case, ...] = (
    *(
        _same(
            f"torch.fft.{name}",
            *_complex(f"torch.fft.{name}(x{extra})", f"ops.{name}(x{extra})"),
            f"Same-name ops.{name}, real and imaginary parts.",
        )
        for name, extra in (
            ("fft", ", n=6, dim=0, norm='ortho'"),
            ("ifft", ", norm='forward'"),
            ("fft2", ""),
            ("ifft2", ""),
            ("fftn", ""),
            ("ifftn", ""),
            ("rfft", ", n=6, norm='ortho'"),
            ("rfft2", ""),
            ("rfftn", ""),
            ("ihfft", ""),
        )
    ),
    *(
        _same(
            f"torch.fft.{name}",
            f"torch.fft.{name}(torch.fft.fft(x))",
            f"ops.{name}(ops.fft(x))",
            f"Same-name ops.{name}, on a forward transform's complex output.",
        )
        for name in ("irfft", "irfft2", "irfftn", "hfft")
    ),
    *(
        _same(
            f"torch.fft.{name}", f"torch.fft.{name}(x)", f"ops.{name}(x)", f"Same-name ops.{name}."
        )
        for name in ("fftshift", "ifftshift")
    ),
    *(
        _same(
            f"torch.fft.{name}",
            f"torch.fft.{name}(8, 0.5) + x.sum() * 0",
            f"ops.{name}(8, 0.5) + x.sum() * 0",
            f"Same-name ops.{name}: the sample frequencies.",
        )
        for name in ("fftfreq", "rfftfreq")
    ),
)


CASES: tuple[Case, ...] = (
    *(
        _same(
            f"torch.{name}",
            f"torch.ones(2, 3, dtype=torch.{name}) * 3",
            f"ms.Tensor(np.ones((2, 3)), ms.{name}) * 3",
            f"mindspore.{name} used where torch.{name} is: same values, same dtype.",
        )
        for name in DTYPES
    ),
    _same(
        "torch.bfloat16",
        "(torch.ones(2, 3, dtype=torch.bfloat16) * 3).float()",
        "(ms.Tensor(np.ones((2, 3)), ms.bfloat16) * 3).float()",
        "mindspore.bfloat16 (compared after a cast: numpy has no bfloat16).",
    ),
    replace(
        _same(
            "torch.Tensor.uniform_",
            "(lambda t: ((t >= 0.25) & (t < 0.5)).all())(x.uniform_(0.25, 0.5))",
            "(lambda t: ((t >= 0.25) & (t < 0.5)).all())(x.uniform_(0.25, 0.5))",
            "Random: every value falls in [from, to) on both sides. MindSpore 2.10 has no CPU "
            "kernel for InplaceUniform: on CPU the case is skipped; run it on Ascend.",
        ),
        tags=("candidate", "no-kernel=CPU:InplaceUniform"),
    ),
    _same("torch.Tensor.data", "x.data * 2", "x.data * 2", "The tensor's data."),
    _same("torch.fill", "torch.fill(x, 0.5)", "ops.fill(x, 0.5)", "Same-name ops.fill."),
    _same(
        "torch.stft",
        "torch.stft(x, 4, return_complex=True).abs()",
        "ops.stft(x, 4, return_complex=True).abs()",
        "Same-name ops.stft, magnitudes.",
    ),
    _same(
        "torch.nn.Module.register_forward_hook",
        "(lambda net: (net.register_forward_hook(lambda m, i, o: o * 2 + i[0].sum()), net)[1])"
        "(torch.nn.ReLU())(x)",
        "(lambda net: (net.register_forward_hook(lambda c, i, o: o * 2 + i[0].sum()), net)[1])"
        "(mint.nn.ReLU())(x)",
        "A hook that sees the inputs and replaces the output: its return value is the output.",
    ),
    _same("torch.relu", "torch.relu(x)", "ops.relu(x)", "Same-name ops.relu."),
    *_FFT,
    _same(
        "torch.distributed.is_initialized",
        "torch.distributed.is_initialized()",
        "mint.distributed.is_initialized()",
        "Whether a process group was initialised: none here, on both sides.",
    ),
    _same(
        "torch.distributed.is_available",
        "torch.distributed.is_available()",
        "mint.distributed.is_available()",
        "Whether the distributed package is there.",
    ),
)
