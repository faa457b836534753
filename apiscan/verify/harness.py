"""Runs one verification case in the current process: same inputs through torch and
MindSpore, outputs (and optionally input gradients) compared against the case's threshold.

torch and MindSpore are imported inside the functions that run a case, which only the
runner's child process calls. Results are :class:`apiscan.verify.results.CaseResult`.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from apiscan.verify.cases import Case, InputSpec, Variant
from apiscan.verify.results import DOCUMENTED_ELSEWHERE_PREFIX, NO_KERNEL_PREFIX, CaseResult

#: MindSpore messages that mean "this device has no kernel for it", not "the case is wrong".
_UNSUPPORTED = re.compile(
    r"unregistered|not registered|unsupported op|not supported on (cpu|gpu|ascend)"
    r"|kernel .*not (found|support)|not found op \S+ on device|create kernelmod for op"
    r"|only supports? ascend|supports? ascend only",
    re.IGNORECASE,
)
#: torch's own "no kernel for this dtype" message (``"cdist" not implemented for 'Half'``).
_NO_TORCH_KERNEL = re.compile(r"not implemented for '(Half|BFloat16)'")
_TINY = 1e-12
#: The detail of a generated form that PyTorch rejects: not a form the table promises.
NOT_A_FORM_PREFIX = "not a PyTorch form: "


@dataclass(frozen=True)
class Difference:
    """One compared output: where it came from and how far apart the two sides are."""

    where: str
    max_abs: float
    mean_abs: float
    rel_diff: float
    within: bool
    detail: str = ""


class HarnessError(Exception):
    """The case cannot be set up as written (weights it cannot copy): an error of the case,
    never a verdict on the claim."""


class ParameterGap(Exception):
    """The MindSpore cell builds fewer parameters than the torch module (``nn.Conv1d``: torch
    builds ``bias`` by default, MindSpore's ``has_bias`` defaults to False). Not a fault of
    the case: the two layers compute different functions, so the form does not hold."""


class SideError(Exception):
    """An exception raised by one framework, tagged with the side so the report says which."""

    def __init__(self, side: str, exc: BaseException) -> None:
        super().__init__(f"{side}: {type(exc).__name__}: {exc}")
        self.side = side
        self.original = exc


def set_device(device: str) -> None:
    """Select the MindSpore device once per process (it cannot change afterwards)."""
    import mindspore

    mindspore.set_device(device)


def run_case(case: Case, device: str = "CPU", dtype: str = "float32", seed: int = 0) -> CaseResult:
    """Run every variant of ``case``; the result is the worst variant. A torch failure is an
    error (the reference itself is broken); a MindSpore failure is skipped when it says the
    device lacks the kernel, an error otherwise — except for a ``claim:`` case, whose
    missing kernel is the claim failing on that device (see :func:`classify_side_error`)."""
    import mindspore
    import torch

    threshold = case.threshold_for(dtype)
    started = time.monotonic()
    base = {
        "case_id": case.case_id,
        "api": case.api,
        "strategy": case.strategy,
        "ms_expr": case.ms_expr,
        "threshold": threshold,
        "device": device,
        "dtype": dtype,
        "torch_version": torch.__version__,
        "mindspore_version": mindspore.__version__,
        "grad_checked": case.grad,
    }
    diffs: list[Difference] = []
    dtypes: list[str] = []
    try:
        for variant in case.variants:
            diffs.extend(_run_variant(case, variant, dtype, threshold, seed, dtypes))
    except ParameterGap as exc:
        return CaseResult(
            **base,
            status="fail",
            max_abs=None,
            mean_abs=None,
            rel_diff=None,
            detail=_shorten(str(exc)),
            seconds=time.monotonic() - started,
        )
    except SideError as exc:
        message = str(exc)
        status, detail = classify_side_error(case, exc.side, message, device, dtype)
        if status == "error" and exc.side == "mindspore" and detail == message:
            detail = _missing_target(message) or detail
        return CaseResult(
            **base,
            status=status,
            max_abs=None,
            mean_abs=None,
            rel_diff=None,
            detail=_shorten(detail),
            seconds=time.monotonic() - started,
        )
    if not diffs:
        diffs = [Difference("output", 0.0, 0.0, 0.0, False, "nothing to compare: empty output")]
    worst = max(diffs, key=lambda d: (not d.within, d.max_abs))
    return CaseResult(
        **base,
        status="pass" if all(d.within for d in diffs) else "fail",
        max_abs=worst.max_abs,
        mean_abs=worst.mean_abs,
        rel_diff=worst.rel_diff,
        worst=worst.where,
        detail=worst.detail,
        seconds=time.monotonic() - started,
        dtype_diff="; ".join(dict.fromkeys(dtypes)),
    )


def claim_target(case: Case) -> str:
    """The mapping-table target a ``claim:`` case runs (``mindspore.mint.zeros``), from its
    ``target=`` tag; ``""`` for any other case."""
    if "claim" not in case.tags:
        return ""
    return next((t[len("target=") :] for t in case.tags if t.startswith("target=")), "")


def classify_side_error(
    case: Case, side: str, message: str, device: str, dtype: str
) -> tuple[str, str]:
    """(status, detail) of a case that raised on ``side``.

    A torch failure is an error (the reference is broken), except torch's CPU build lacking
    a float16 kernel: nothing to compare with, skipped. A MindSpore "no kernel on this
    device" message skips an ordinary case (the substitution may hold elsewhere), but for a
    ``claim:`` case it is the verdict on the table's row for that device: the consistent
    target cannot run there, so the claim does not hold ("error on CPU: no kernel for
    mindspore.mint.full"). Any other MindSpore failure is an error."""
    ms_kernel = side == "mindspore" and _UNSUPPORTED.search(message)
    if ms_kernel:
        target = claim_target(case)
        platforms = documented_platforms(target) if target else ()
        if target and platforms and device not in platforms:
            # The target's own docs exclude this device: untestable here, not broken.
            shown = " ".join(platforms)
            return "skipped", (
                f"{DOCUMENTED_ELSEWHERE_PREFIX}{device}, documented for {shown} only "
                f"(Supported Platforms of {target}): {message}"
            )
        if target:
            documented = f" (documented for {' '.join(platforms)})" if platforms else ""
            return "error", (
                f"{NO_KERNEL_PREFIX}{device}: no kernel for {target}{documented}: {message}"
            )
        return "skipped", f"kernel unregistered on {device}: {message}"
    if side == "torch" and _NO_TORCH_KERNEL.search(message):
        return "skipped", f"no torch {dtype} kernel on CPU to compare with: {message}"
    if side == "torch" and "generated" in case.tags:
        # A generated form PyTorch itself rejects (an int64 input to a float-only op, an
        # empty tensor where sizes must match) is no documented form: nothing to compare.
        return "skipped", f"{NOT_A_FORM_PREFIX}{message}"
    return "error", message


def documented_platforms(target: str) -> tuple[str, ...]:
    """The platforms the target's docstring lists under "Supported Platforms" (from the
    shipped ``ms_targets.csv``); ``()`` when unknown. Tensor methods inherit the platforms
    of the ``mindspore.ops``/``mint`` function of the same name when they have none."""
    table = _platform_table()
    found = table.get(target, "")
    if not found and target.startswith("mindspore.Tensor."):
        name = target.rpartition(".")[2]
        found = table.get(f"mindspore.mint.{name}", "") or table.get(f"mindspore.ops.{name}", "")
    return tuple(found.split())


@functools.cache
def _platform_table() -> dict[str, str]:
    from apiscan.mapping.store import _platforms, mapping_data_dir

    return _platforms(mapping_data_dir())


_NO_ATTRIBUTE = re.compile(r"(?:module|type object) '([\w.]+)' has no attribute '(\w+)'")


def _missing_target(message: str) -> str:
    """For a target that does not exist in the installed MindSpore, an error naming the API
    of that name that does (a table row naming a moved or removed API)."""
    import mindspore
    from mindspore import mint, nn, ops

    found = _NO_ATTRIBUTE.search(message)
    if not found:
        return ""
    owner, name = found.groups()
    places = {
        "mindspore": mindspore,
        "mindspore.mint": mint,
        "mindspore.ops": ops,
        "mindspore.nn": nn,
        "mindspore.mint.nn": mint.nn,
        "mindspore.mint.nn.functional": mint.nn.functional,
        "mindspore.Tensor": mindspore.Tensor,
    }
    exists = [f"{where}.{name}" for where, ns in places.items() if hasattr(ns, name)]
    there = f"; it exists as {', '.join(exists)}" if exists else "; no API of that name exists"
    return f"the target {owner}.{name} does not exist in MindSpore {mindspore.__version__}{there}"


def _run_variant(
    case: Case,
    variant: Variant,
    dtype: str,
    threshold: float,
    seed: int,
    dtypes: list[str] | None = None,
) -> list[Difference]:
    import torch

    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    arrays = [_draw(spec, dtype, rng) for spec in case.inputs]
    params = dict(variant.params)
    if case.kind in ("optimizer", "scheduler"):
        t_steps = _side("torch", lambda: _torch_steps(case, params, arrays))
        moved = t_steps[-1] != (t_steps[0] if case.kind == "scheduler" else arrays[0])
        if not np.any(moved):
            # Both sides doing nothing would "pass": a case must exercise the update.
            raise SideError("torch", ValueError(f"the reference {case.kind} changed nothing"))
        m_steps = _side("mindspore", lambda: _ms_steps(case, params, arrays))
        return _compare(variant.label, [t_steps], [m_steps], threshold)
    t_fn = _side("torch", lambda: _torch_callable(case, params, dtype))
    m_fn = _side("mindspore", lambda: _ms_callable(case, params, t_fn, dtype))
    layouts = [spec.special for spec in case.inputs]
    t_out = _side(
        "torch",
        lambda: [_torch_np(t) for t in _flatten(t_fn(*_torch_inputs(arrays, (), layouts)))],
    )
    empty = any(0 in spec.shape for spec in case.inputs)
    if empty:
        _side("harness", _poison_free_memory)
    # PyNative runs lazily: a missing kernel only raises when the value is read.
    m_out = _side(
        "mindspore",
        lambda: [_ms_np(m) for m in _flatten(m_fn(*_ms_inputs(arrays, layouts)))],
    )
    # A probe that reads only metadata (.shape) never runs the kernel: sync, so a missing
    # kernel raises here, for this case, not inside the next case in the same child.
    _side("mindspore", _ms_sync)
    label = variant.label
    if empty:
        # A value computed from no elements is exact (a sum's 0, a product's 1): nothing was
        # rounded, so any difference is one (see _poison_free_memory).
        threshold = 0.0
    diffs = _compare(label, t_out, m_out, threshold)
    if empty:
        diffs = [
            replace(d, detail=_EMPTY_DETAIL)
            if not d.within and d.detail in ("", "NaN in one side only")
            else d
            for d in diffs
        ]
    if dtypes is not None:
        dtypes.extend(dtype_differences(t_out, m_out))
    if case.grad:
        grad_positions = [
            i for i, spec in enumerate(case.inputs) if spec.kind == "float" and spec.grad
        ]
        cotangents = [rng.standard_normal(t.shape) for t in t_out]
        weights = _trainable(case, t_fn)
        t_grads = _side(
            "torch", lambda: _torch_grads(t_fn, arrays, grad_positions, cotangents, weights)
        )
        m_grads = _side(
            "mindspore",
            lambda: _ms_grads(m_fn, arrays, grad_positions, cotangents, weights),
        )
        # a parameter stored with extra unit axes (see _fit_weight) has its gradient so too
        m_grads = [
            g.reshape(t.shape) if k >= len(grad_positions) and _unit_axes_apart(t, g) else g
            for k, (t, g) in enumerate(zip(t_grads, m_grads, strict=False))
        ] + m_grads[len(t_grads) :]
        diffs.extend(_compare(f"{label} grad", t_grads, m_grads, threshold))
    return diffs


#: Why a form on an empty input failed when no other detail says so.
_EMPTY_DETAIL = (
    "from an empty input MindSpore returns another value than torch's"
    " (an output buffer left unwritten reads what memory held before)"
)


def _poison_free_memory() -> None:
    """Fill MindSpore's free memory blocks with NaN before a form on an empty input runs.

    MindSpore's full reductions of an empty tensor (``sum``, ``nansum``) return their output
    buffer unwritten: its value is whatever the allocator's reused block held, -6.8e-35 in a
    fresh process, 5e9 or exactly 0.0 after other cases, so the verdict depended on what ran
    before in the same child. NaN-filled blocks of every small size class, freed right
    away, make such a buffer read NaN whatever ran before (and the comparison is exact)."""
    import gc

    import mindspore

    blocks = [
        mindspore.Tensor(np.full((n,), np.nan, np.float32)) * 1.0
        for n in (1, 2, 4, 8, 16, 64, 128, 256, 1024, 4096)
    ]
    for block in blocks:
        block.asnumpy()
    del blocks
    gc.collect()


def _ms_sync() -> None:
    """Wait for MindSpore's queued PyNative work, raising the error of any op that failed."""
    try:
        from mindspore.graph.api import _pynative_executor
    except ImportError:
        try:
            from mindspore.common.api import _pynative_executor
        except ImportError:  # pragma: no cover - a MindSpore without the executor
            return
    _pynative_executor.sync()


def _trainable(case: Case, module: Any) -> list[tuple[str, str]]:
    """The (torch, MindSpore) names of a layer's mapped parameters that torch trains:
    buffers such as BatchNorm's running statistics are copied but have no gradient."""
    if not case.is_layer:
        return []
    trained = {name for name, p in module.named_parameters() if p.requires_grad}
    return [(t, m) for t, m in case.param_map if t in trained]


#: An optimizer call that asks for a differentiable step (see :func:`_torch_steps`).
_DIFFERENTIABLE = re.compile(r"\bdifferentiable\s*=\s*True\b")


def _torch_steps(case: Case, params: dict[str, object], arrays: list[np.ndarray]) -> np.ndarray:
    """Optimizer/scheduler case on the torch side: the parameter (or the learning rate)
    after each step, stacked."""
    import torch

    if _DIFFERENTIABLE.search(case.torch_expr):
        # differentiable=True runs step() inside the autograd graph, where an in-place update
        # of a leaf that requires grad is refused: the parameter is what such code steps, a
        # non-leaf that keeps its .grad (a clone of the leaf)
        weight = torch.tensor(arrays[0], requires_grad=True).clone()
        weight.retain_grad()
    else:
        weight = torch.nn.Parameter(torch.tensor(arrays[0]))
    namespace = {**_namespace(params), "params": [weight]}
    if case.kind == "scheduler":
        opt = namespace["opt"] = torch.optim.SGD([weight], lr=0.1)
        scheduler = eval(case.torch_expr, namespace)
    else:
        opt = eval(case.torch_expr, namespace)
    record = []
    for grad in arrays[1]:
        weight.grad = torch.tensor(grad)
        opt.step()
        if case.kind == "scheduler":
            scheduler.step()
            record.append(np.asarray(float(scheduler.get_last_lr()[0])))
        else:
            record.append(weight.detach().numpy().copy())
    return np.stack(record)


def _ms_steps(case: Case, params: dict[str, object], arrays: list[np.ndarray]) -> np.ndarray:
    """The same on the MindSpore side, where an optimizer is called with the gradients."""
    import mindspore

    weight = mindspore.Parameter(mindspore.Tensor(arrays[0]), name="w")
    namespace = {**_namespace(params), "params": [weight]}
    if case.kind == "scheduler":
        opt = namespace["opt"] = mindspore.experimental.optim.SGD([weight], lr=0.1)
        scheduler = eval(case.ms_expr, namespace)
    else:
        opt = eval(case.ms_expr, namespace)
    record = []
    for grad in arrays[1]:
        opt((mindspore.Tensor(grad),))
        if case.kind == "scheduler":
            scheduler.step()
            record.append(np.asarray(float(_ms_np(scheduler.get_last_lr()[0]))))
        else:
            record.append(weight.asnumpy().copy())
    return np.stack(record)


def _side(side: str, thunk: Callable[[], Any]) -> Any:
    try:
        return thunk()
    except ParameterGap:
        raise
    except HarnessError as exc:
        raise SideError("harness", exc) from exc
    except Exception as exc:
        raise SideError(side, exc) from exc


def _namespace(params: dict[str, object]) -> dict[str, Any]:
    import mindspore
    import torch
    from mindspore import mint, nn, ops

    return {
        "torch": torch,
        "F": torch.nn.functional,
        "ms": mindspore,
        "mindspore": mindspore,
        "ops": ops,
        "mint": mint,
        "msnn": nn,
        "np": np,
        "ref": _module("apiscan.verify.reference"),
        "compose": _module("apiscan.verify.compositions"),
        **params,
    }


def _module(name: str) -> Any:
    import importlib

    return importlib.import_module(name)


def _torch_callable(case: Case, params: dict[str, object], dtype: str) -> Callable[..., Any]:
    import torch

    namespace = _namespace(params)
    if not case.is_layer:
        return _lambda(case, case.torch_expr, namespace)
    module = eval(case.torch_expr, namespace)
    module.eval()
    if dtype != "float32":
        module.to(getattr(torch, dtype))
    return module  # type: ignore[no-any-return]


def _ms_callable(
    case: Case, params: dict[str, object], torch_module: Any, dtype: str
) -> Callable[..., Any]:
    import mindspore

    namespace = _namespace(params)
    if not case.is_layer:
        return _lambda(case, case.ms_expr, namespace)
    cell = eval(case.ms_expr, namespace)
    cell.set_train(False)
    state = torch_module.state_dict()
    cell_params = dict(cell.parameters_and_names())
    for torch_name, ms_name in case.param_map:
        if torch_name not in state:
            continue  # torch builds none here (InstanceNorm's affine=False): MindSpore's init
        value = state[torch_name].detach().cpu().numpy().astype(dtype)
        if ms_name not in cell_params and len(cell_params) < len(
            dict(torch_module.named_parameters())
        ):
            missing = torch_name.rpartition(".")[2]
            raise ParameterGap(
                f"MindSpore builds no parameter {ms_name!r} where torch builds {torch_name!r} "
                f"(it has {', '.join(sorted(cell_params)) or 'none'}): a default differs "
                f"(torch's {missing}=True is MindSpore's has_{missing}=False or similar), so "
                "the layers compute different functions"
            )
        if ms_name not in cell_params:
            # not the claim failing: the case cannot put the same weights on both sides
            raise HarnessError(
                f"cannot copy {torch_name!r}: the cell has no parameter {ms_name!r} "
                f"(it has {', '.join(sorted(cell_params)) or 'none'})"
            )
        target = cell_params[ms_name]
        value = _fit_weight(value, tuple(target.shape), torch_name)
        target.set_dtype(getattr(mindspore, dtype))
        target.set_data(mindspore.Tensor(value))
    return cell  # type: ignore[no-any-return]


def _fit_weight(value: np.ndarray, shape: tuple[int, ...], name: str) -> np.ndarray:
    """``value`` in the cell parameter's ``shape`` where the two differ only by unit axes:
    MindSpore's ``nn.Conv1d`` stores its weight ``(out, in, 1, k)`` where torch's is
    ``(out, in, k)`` (r2.4.0 pytorch_diff/Conv1d.md, "Weight Transfer Difference": the
    weight is upgraded on that axis). Any other difference is an error of the case."""
    if value.shape == shape:
        return value
    if not _unit_axes_apart(value, np.empty(shape, dtype=value.dtype)):
        raise HarnessError(
            f"cannot copy {name!r}: shape {value.shape} (torch) vs {shape} (MindSpore)"
        )
    return value.reshape(shape)


def _unit_axes_apart(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays' shapes differ, and only by axes of length 1."""
    return a.shape != b.shape and [d for d in a.shape if d != 1] == [d for d in b.shape if d != 1]


def _lambda(case: Case, expr: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    args = ", ".join(spec.name for spec in case.inputs)
    return eval(f"lambda {args}: {expr}", namespace)  # type: ignore[no-any-return]


def dtype_differences(torch_out: list[np.ndarray], ms_out: list[np.ndarray]) -> list[str]:
    """ "output 1: int64 (torch) vs int32 (MindSpore)" for each output whose dtype differs.
    Python scalars (``.item()``, ``.shape``) are left out: both sides give Python numbers."""
    found = []
    for k, (ref, got) in enumerate(zip(torch_out, ms_out, strict=False)):
        if ref.dtype != got.dtype and ref.ndim + got.ndim > 0:
            where = "output" if len(torch_out) == 1 else f"output {k}"
            found.append(f"{where}: {ref.dtype} (torch) vs {got.dtype} (MindSpore)")
    return found


#: Every how many elements a ``nan``/``inf`` input holds a special value.
_SPECIAL_EVERY = 3


def _draw(spec: InputSpec, dtype: str, rng: np.random.Generator) -> np.ndarray:
    if spec.kind == "float" and spec.special == "spd":
        # M Mᵀ + n·I: symmetric, its eigenvalues at least n (well conditioned)
        n = spec.shape[-1]
        m = rng.uniform(spec.low, spec.high, spec.shape)
        return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dtype)
    if spec.kind == "complex":
        real, imag = (rng.uniform(spec.low, spec.high, spec.shape) for _ in range(2))
        return (real + 1j * imag).astype(np.complex64)
    if spec.kind == "float":
        values = rng.uniform(spec.low, spec.high, spec.shape).astype(dtype)
        if spec.special in ("nan", "inf") and values.size:
            flat = values.reshape(-1)
            planted = [np.nan] if spec.special == "nan" else [np.inf, -np.inf]
            for n, i in enumerate(range(1, flat.size, _SPECIAL_EVERY)):
                flat[i] = planted[n % len(planted)]
        return values
    if spec.kind == "binary":
        return (rng.random(spec.shape) < 0.5).astype(dtype)
    if spec.kind == "sign":
        return np.where(rng.random(spec.shape) < 0.5, -1.0, 1.0).astype(dtype)
    if spec.kind == "boxes":
        corner = rng.uniform(spec.low, spec.high, (spec.shape[0], 2))
        side = rng.uniform(1.0, max(1.0, (spec.high - spec.low) / 2), (spec.shape[0], 2))
        return np.concatenate([corner, corner + side], axis=1).astype(np.float32)
    if spec.kind == "int" and spec.special == "planes":
        planes = int(np.prod(spec.shape[:2]))
        size = int(np.prod(spec.shape[2:]))
        pool = np.arange(int(spec.low), int(spec.high))
        picked = [rng.permutation(pool)[:size] for _ in range(planes)]
        return np.array(picked, dtype=np.int64).reshape(spec.shape)
    if spec.kind == "int" and spec.special == "unique":
        rows = int(np.prod(spec.shape[:-1]))
        pool = np.arange(int(spec.low), int(spec.high))
        picked = [rng.permutation(pool)[: spec.shape[-1]] for _ in range(rows)]
        return np.array(picked, dtype=np.int64).reshape(spec.shape)
    if spec.kind == "int":
        return rng.integers(int(spec.low), int(spec.high), spec.shape).astype(np.int64)
    return rng.random(spec.shape) < 0.5


def _torch_inputs(
    arrays: list[np.ndarray], grad_positions: Iterable[int] = (), layouts: Sequence[str] = ()
) -> list:
    """torch tensors of ``arrays``; a ``noncontig`` one is the transpose of a contiguous
    tensor holding the transposed values (same values, non-contiguous strides)."""
    import torch

    wanted = set(grad_positions)
    out = []
    for i, a in enumerate(arrays):
        if i < len(layouts) and layouts[i] == "noncontig":
            out.append(torch.tensor(np.swapaxes(a, 0, 1).copy()).transpose(0, 1))
        else:
            out.append(torch.tensor(a, requires_grad=i in wanted))
    return out


def _ms_inputs(arrays: list[np.ndarray], layouts: Sequence[str] = ()) -> list:
    """MindSpore tensors of ``arrays``, ``noncontig`` ones as transposed views like torch's."""
    import mindspore
    from mindspore import mint

    out = []
    for i, a in enumerate(arrays):
        if i < len(layouts) and layouts[i] == "noncontig":
            out.append(mint.transpose(mindspore.Tensor(np.swapaxes(a, 0, 1).copy()), 0, 1))
        else:
            out.append(mindspore.Tensor(a))
    return out


def _flatten(out: Any) -> list[Any]:
    """Outputs as a flat list: tuples and named tuples (max, sort, topk) become their parts."""
    if isinstance(out, list | tuple):
        return [leaf for part in out for leaf in _flatten(part)]
    return [out]


def _torch_np(t: Any) -> np.ndarray:
    if hasattr(t, "detach"):
        return np.asarray(t.detach().cpu().numpy())
    return np.asarray(t)


def _ms_np(m: Any) -> np.ndarray:
    if hasattr(m, "asnumpy"):
        return np.asarray(m.asnumpy())
    return np.asarray(m)


def _torch_grads(
    fn: Callable[..., Any],
    arrays: list[np.ndarray],
    positions: list[int],
    cot: list[np.ndarray],
    weights: Sequence[tuple[str, str]] = (),
) -> list[np.ndarray]:
    """Gradients of sum(output * cotangent) for the inputs at ``positions``, then for the
    layer parameters named in ``weights``."""
    import torch

    if weights:
        fn.zero_grad()  # type: ignore[attr-defined]
    inputs = _torch_inputs(arrays, positions)
    outs = _flatten(fn(*inputs))
    total = sum(
        (o * torch.tensor(c, dtype=o.dtype)).sum()
        for o, c in zip(outs, cot, strict=True)
        if o.is_floating_point()
    )
    total.backward()  # type: ignore[union-attr]
    grads = [inputs[i].grad.numpy() for i in positions]  # type: ignore[union-attr]
    named = dict(fn.named_parameters()) if weights else {}  # type: ignore[attr-defined]
    return grads + [named[t].grad.detach().numpy() for t, _ in weights]


def _ms_grads(
    fn: Callable[..., Any],
    arrays: list[np.ndarray],
    positions: list[int],
    cot: list[np.ndarray],
    weights: Sequence[tuple[str, str]] = (),
) -> list[np.ndarray]:
    import mindspore

    def weighted(*xs: Any) -> Any:
        outs = _flatten(fn(*xs))
        terms = [
            (o * mindspore.Tensor(c, dtype=o.dtype)).sum()
            for o, c in zip(outs, cot, strict=True)
            if o.is_floating_point()
        ]
        return sum(terms[1:], terms[0])

    named = dict(fn.parameters_and_names()) if weights else {}  # type: ignore[attr-defined]
    params = [named[m] for _, m in weights] or None
    grad_fn = mindspore.grad(weighted, grad_position=tuple(positions) or None, weights=params)
    return [_ms_np(g) for g in _flatten(grad_fn(*_ms_inputs(arrays)))]


def _compare(
    label: str, torch_out: list[np.ndarray], ms_out: list[np.ndarray], threshold: float
) -> list[Difference]:
    """Element-wise ``|ms - torch| <= threshold * (1 + |torch|)``: absolute near zero,
    relative for large values, so one threshold serves a softmax and a sum alike."""
    if len(torch_out) != len(ms_out):
        return [
            Difference(
                label,
                np.inf,
                np.inf,
                np.inf,
                False,
                f"{len(torch_out)} torch outputs vs {len(ms_out)} MindSpore outputs",
            )
        ]
    diffs = []
    for k, (ref, got) in enumerate(zip(torch_out, ms_out, strict=True)):
        where = label if len(torch_out) == 1 else f"{label} output {k}"
        if ref.shape != got.shape:
            detail = f"shape {tuple(ref.shape)} (torch) vs {tuple(got.shape)} (MindSpore)"
            diffs.append(Difference(where, np.inf, np.inf, np.inf, False, detail))
            continue
        if ref.dtype == object or got.dtype == object:
            # dtypes, devices, strings: equal when their names are (``torch.float32`` and
            # MindSpore's ``Float32`` both name float32)
            same = _name(ref) == _name(got)
            detail = "" if same else f"{_name(ref)} (torch) vs {_name(got)} (MindSpore)"
            diffs.append(Difference(where, 0.0 if same else np.inf, 0.0, 0.0, same, detail))
            continue
        if np.iscomplexobj(ref) or np.iscomplexobj(got):
            # complex values: their real and imaginary parts, compared alike
            ref, got = (np.stack([np.real(a), np.imag(a)]) for a in (ref, got))
        r = ref.astype(np.float64)
        g = got.astype(np.float64)
        if r.size == 0:
            diffs.append(Difference(where, 0.0, 0.0, 0.0, True))
            continue
        nan_mismatch = bool(np.any(np.isnan(r) != np.isnan(g)))
        both = ~(np.isnan(r) | np.isnan(g))
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: replaced below
            delta = np.where(both, np.abs(g - r), 0.0)
        delta = np.where(np.isinf(r) & (r == g), 0.0, delta)
        max_abs = float(delta.max())
        # NaN where both sides have it, or equal infinities, agree (their delta is 0; the
        # bound itself would be NaN there and compare false)
        bound = threshold * (1.0 + np.abs(np.where(both, r, 0.0)))
        within = not nan_mismatch and bool(np.all(delta <= np.where(np.isinf(bound), 0, bound)))
        rel = max_abs / max(float(np.nanmax(np.abs(r))), _TINY) if max_abs else 0.0
        detail = "NaN in one side only" if nan_mismatch else ""
        diffs.append(Difference(where, max_abs, float(delta.mean()), rel, within, detail))
    return diffs


_BOILERPLATE = re.compile(
    r"^(-+|- .*|This exception is caused by framework's unexpected error.*"
    r"|Please create an issue.*)$"
)


def _name(value: np.ndarray) -> str:
    """An object output's comparable name: ``torch.float32`` and ``Float32`` → ``float32``."""
    return str(value.tolist()).rpartition(".")[2].lower()


def _shorten(text: str, limit: int = 400) -> str:
    """MindSpore errors carry pages of C++ trace after a "C++ Call Stack" heading; the lines
    before it, less the dashed rules, section headings and boilerplate, say what went wrong
    (an error that starts with "Framework Unexpected Exception Raised" keeps "CPU kernel op
    [Scatter] resize failed")."""
    head = text.split("C++ Call Stack", 1)[0]
    lines = [ln.strip() for ln in head.splitlines() if ln.strip()]
    kept = [ln for ln in lines if not _BOILERPLATE.match(ln)]
    first = " ".join(kept[:4])
    return first if len(first) <= limit else first[: limit - 1] + "…"
