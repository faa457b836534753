"""Sample inputs for an API and what its outputs look like, found by calling torch.

A scaffold must declare its output shape and dtype as functions of the inputs', and its test
needs inputs the API accepts. Both come from calling the real torch API at generation time
on small CPU tensors: real rather than ``meta`` tensors because meta kernels do not check
values (an index out of range passes) and data-dependent ops have none, and a sample the
test will run must be one torch really accepts. Candidate arguments come from the
parameter names (``dim`` is an int, ``index`` an int tensor within range, ``grid`` has a
last dimension of 2...) and tensor ranks 2, 4, 3, 1; the first combination torch accepts
is kept, then repeated with every dimension changed so that "the output has the shape of
the input" is told apart from a coincidence.

A sample is literal data (dicts, lists, numbers, strings) so that the generated test holds
it as source: ``{"tensor": "float32", "shape": [2, 3], "low": -1.0, "high": 1.0}`` is a
random tensor drawn with a fixed seed (``"sorted": True`` sorts it along its last axis).
"""

from __future__ import annotations

import contextlib
import itertools
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from apiscan.stub.introspect import ApiInfo, Param, resolve
from apiscan.stub.templates import DRAW

#: Base shapes of the two samples. Every size differs between them and the second is not
#: the first shifted by one place, so that a shape rule rarely fits both by coincidence
#: (``diff``'s ``n - 1`` equals another input size in the first sample, not in the second).
BASES = ((2, 3, 5, 7), (4, 6, 9, 11))
RANKS = (2, 4, 3, 1)
MAX_ATTEMPTS = 400
SEED = 0

_INT_NAMES = frozenset(
    [
        "dim",
        "axis",
        "dim0",
        "dim1",
        "start_dim",
        "end_dim",
        "k",
        "n",
        "diagonal",
        "offset",
        "chunks",
        "sections",
        "repeats",
        "shifts",
        "split_size",
        "split_size_or_sections",
        "window_length",
        "num_classes",
        "upscale_factor",
        "downscale_factor",
        "kernel_size",
        "stride",
        "padding",
        "dilation",
        "bins",
        "steps",
    ]
)
_FLOAT_NAMES = frozenset(
    [
        "p",
        "alpha",
        "beta",
        "eps",
        "lambd",
        "value",
        "scale",
        "exponent",
        "threshold",
        "min",
        "max",
        "momentum",
        "negative_slope",
        "margin",
        "rtol",
        "atol",
        "tau",
        "lower",
        "upper",
    ]
)
#: Integer arguments that name an axis: an output size equal to one is a coincidence.
_AXIS_NAMES = frozenset(
    ["dim", "axis", "dim0", "dim1", "start_dim", "end_dim", "diagonal", "offset"]
)
_STRING_VALUES = {"reduce": ["sum", "mean"], "reduction": ["mean"], "mode": ["bilinear"]}


@dataclass(frozen=True)
class Observation:
    """One successful torch call: the sample and the shapes/dtypes around it. Leaves are the
    tensor arguments in the order the scaffold passes them to ``ops.Custom``."""

    sample: dict[str, Any]
    leaf_names: tuple[str, ...]
    leaf_shapes: tuple[tuple[int, ...], ...]
    leaf_dtypes: tuple[str, ...]
    out_shapes: tuple[tuple[int, ...], ...]
    out_dtypes: tuple[str, ...]
    multi: bool
    state: tuple[tuple[str, tuple[int, ...], str], ...] = ()
    #: Integer arguments that may size an output (``k`` of topk), by name.
    sizes: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Rule:
    """How one output's shape or dtype follows from the inputs'. ``kind`` ``same``: that of
    leaf ``index``; ``broadcast``: all leaves broadcast; ``scalar``: 0-d; ``dims``: each
    dimension a leaf's dimension (``value`` holds ``(leaf, axis)`` pairs), an integer
    argument (its name) or a constant int;
    ``fixed``: ``value`` on every sample; ``todo``: no rule found, ``value`` is the first
    sample's."""

    kind: Literal["same", "broadcast", "scalar", "dims", "fixed", "todo"]
    index: int = 0
    value: Any = None
    #: Other readings the samples could not rule out (``dims``).
    note: str = ""


@dataclass(frozen=True)
class Inference:
    """What the sample calls showed: the (at most two) accepted calls and one shape and one
    dtype rule per output; ``error`` the last rejection when none was accepted."""

    observations: tuple[Observation, ...] = ()
    shape_rules: tuple[Rule, ...] = ()
    dtype_rules: tuple[Rule, ...] = ()
    error: str = ""
    attempts: int = 0
    #: The same call on other values of the same shapes gave other output shapes
    #: (``nonzero``, NMS): no rule from the input shapes can exist.
    data_dependent: bool = False

    @property
    def found(self) -> bool:
        return bool(self.observations)


def infer(info: ApiInfo) -> Inference:
    """Find sample inputs torch accepts and derive the output rules from them."""
    if not info.sample_safe:
        return Inference(error="not called at generation time (it changes state or does I/O)")
    target = resolve(info.api)
    attempts = 0
    last_error = "no candidate arguments"
    for rank in RANKS:
        for choice in _choices(info, rank):
            attempts += 1
            if attempts > MAX_ATTEMPTS:
                return Inference(
                    error=f"no accepted sample in {MAX_ATTEMPTS} tries: {last_error}",
                    attempts=attempts,
                )
            sample = _build(info, choice, BASES[0][:rank], rank)
            try:
                first = _observe(info, target, sample)
            except Exception as exc:  # the API rejected this candidate: try the next
                last_error = f"{type(exc).__name__}: {_first_line(exc)}"
                continue
            observations = [first]
            second = _build(info, choice, BASES[1][:rank], rank)
            # A sample that only works at one size still helps: the rules say it was one.
            with contextlib.suppress(Exception):
                observations.append(_observe(info, target, second))
            inference = _rules(tuple(observations), attempts)
            return replace(inference, data_dependent=_value_dependent(info, target, first))
    return Inference(error=last_error, attempts=attempts)


def _choices(info: ApiInfo, rank: int) -> Iterator[tuple[int, ...]]:
    """Index tuples into each required parameter's candidate list, most likely first."""
    required = _required(info)
    sizes = [len(_candidates(p.name, BASES[0][:rank], rank, role)) for role, p in required]
    yield from itertools.product(*(range(n) for n in sizes))


def _required(info: ApiInfo) -> list[tuple[str, Param]]:
    """(role, param) for every argument a sample must supply, constructor ones first."""
    init = [("init", p) for p in info.init_params if p.required]
    call = [("call", p) for p in info.params if p.required]
    if any(p.kind == "var_positional" for p in info.params) and not call:
        # ``*args`` only: pass one candidate through it.
        star = next(p for p in info.params if p.kind == "var_positional")
        call.append(("star", Param(star.name, "positional")))
    return [*init, *call]  # type: ignore[list-item]


def _build(info: ApiInfo, choice: tuple[int, ...], base: tuple[int, ...], rank: int) -> dict:
    sample: dict[str, Any] = {"args": [], "kwargs": {}}
    if info.kind == "module":
        sample["init"] = {}
    for (role, param), index in zip(_required(info), choice, strict=True):
        value = _candidates(param.name, base, rank, role)[index]
        if role == "init":
            sample["init"][param.name] = value
        elif param.kind == "keyword_only":
            sample["kwargs"][param.name] = value
        else:
            sample["args"].append(value)
    return sample


def _tensor(
    dtype: str, shape: Sequence[int], low: float = -1.0, high: float = 1.0, sorted_: bool = False
) -> dict[str, Any]:
    spec: dict[str, Any] = {"tensor": dtype, "shape": list(shape)}
    if dtype != "bool":
        spec["low"], spec["high"] = low, high
    if sorted_:
        spec["sorted"] = True
    return spec


def _candidates(name: str, base: tuple[int, ...], rank: int, role: str = "call") -> list[Any]:
    """Plausible values for a required parameter, most likely first. A constructor argument
    of unknown meaning is a size (``embed_dim``), never a tensor."""
    values = _by_name(name, base, rank)
    if role == "init" and values is None:
        return [base[-1], base[1] if rank > 1 else base[0], 2]
    if values is None:
        floats = _tensor("float32", base)
        square = [_tensor("float32", [base[-1]] * 2)] if rank == 2 else []
        return [floats, _tensor("float32", [1]), _tensor("int64", base, 0, min(base)), *square]
    return values


def _by_name(name: str, base: tuple[int, ...], rank: int) -> list[Any] | None:
    """Candidates that the parameter's name implies; None when it implies nothing."""
    lower = name.lower()
    smallest = min(base)
    floats = _tensor("float32", base)
    if lower in ("in_features",):
        return [base[-1], base[1] if rank > 1 else base[0]]
    if lower.endswith(("features", "channels")) and lower.startswith(("in", "num", "channels")):
        return [base[1] if rank > 1 else base[0], base[-1]]
    if lower == "num_heads":
        return [1]
    if lower.startswith(("out_", "num_")) or lower in ("embedding_dim", "hidden_size"):
        return [4]
    if lower == "groups":
        return [base[1] if rank > 1 else base[0], 1]
    if lower in ("normalized_shape",):
        return [[base[-1]]]
    if lower in ("dims", "perm", "permutation"):
        return [list(reversed(range(rank)))]
    if lower in ("shape", "size", "output_size"):
        return [list(base), [2] * max(rank - 2, 1)]
    if lower in _STRING_VALUES:
        return list(_STRING_VALUES[lower])
    if lower in _INT_NAMES:
        return [1, 0, -1, 2]
    if lower == "value":  # masked_fill's fill value, or attention's value tensor
        return [0.5, _tensor("float32", base)]
    if lower in _FLOAT_NAMES or lower.endswith(("threshold", "thresh", "_size", "_scale")):
        # a float hyper-parameter (``iou_threshold``, ``min_size``): never a tensor
        return [0.5, 2.0]
    if lower == "boxes":
        return [_tensor("float32", [base[0], 4], 0, 1, sorted_=True)]
    if lower in ("scores",):
        return [_tensor("float32", [base[0]])]
    if lower in ("idxs", "labels", "batch_idx", "classes"):
        return [_tensor("int64", [base[0]], 0, 3)]
    if lower == "index":
        return [_tensor("int64", base, 0, smallest)]
    if lower == "indices":
        per_dim = [_tensor("int64", [4], 0, base[d]) for d in range(rank)]
        return [per_dim, _tensor("int64", base, 0, smallest)]
    if lower == "mask":
        return [_tensor("bool", base)]
    if lower in ("boundaries", "sorted_sequence"):
        return [_tensor("float32", [5], sorted_=True)]
    if lower == "grid":
        # Output sizes base+1 differ from every input size, so a shape rule cannot confuse them.
        if rank < 3:
            return []
        return [_tensor("float32", [base[0], *(d + 1 for d in base[2:]), rank - 2])]
    if lower == "target":
        return [floats, _tensor("int64", base[:1], 0, base[1] if rank > 1 else 2)]
    if lower == "weight":
        return [_tensor("float32", [5, base[-1]]), floats]
    if lower == "tensors":
        return [[floats, floats]]
    if lower in ("values", "src", "source", "other"):
        return [floats, _tensor("float32", [1])] + ([2.0] if lower == "other" else [])
    return None


def _generated_draw() -> Callable[[Any, np.random.Generator], Any]:
    """The generated test's own ``_draw`` (:data:`~apiscan.stub.templates.DRAW`), compiled
    from the text the test carries: the drawing has one definition, so the inputs observed
    here are the ones the test draws."""
    namespace: dict[str, Any] = {"np": np}
    exec(compile(DRAW, "<generated test: _draw>", "exec"), namespace)  # the text of DRAW, ours
    return namespace["_draw"]


_DRAW = _generated_draw()


def draw(spec: Any, rng: np.random.Generator) -> Any:
    """Numpy values for a sample spec, drawn as the generated test draws them."""
    return _DRAW(spec, rng)


def _to_torch(value: Any) -> Any:
    import torch

    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.copy())
    if isinstance(value, dict):
        return {k: _to_torch(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_to_torch(v) for v in value)
    return value


def _leaves(value: Any, name: str) -> Iterator[tuple[str, np.ndarray]]:
    """Tensor arguments in the order the scaffold's ``_run`` collects them."""
    if isinstance(value, np.ndarray):
        yield name, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{name}[{k!r}]")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{name}[{i}]")


def _observe(info: ApiInfo, target: Any, sample: dict[str, Any], seed: int = SEED) -> Observation:
    import torch

    rng = np.random.default_rng(seed)
    args = draw(sample["args"], rng)
    kwargs = draw(sample["kwargs"], rng)
    named = _positional_names(info, len(args))
    leaves = [leaf for n, v in zip(named, args, strict=True) for leaf in _leaves(v, n)]
    leaves += [leaf for n, v in kwargs.items() for leaf in _leaves(v, n)]
    sizes = tuple(
        (n, v)
        for n, v in [
            *zip(named, args, strict=True),
            *kwargs.items(),
            *sample.get("init", {}).items(),
        ]
        if type(v) is int and n not in _AXIS_NAMES
    )
    given = {n for n, _ in sizes}
    sizes += tuple(
        (p.name, int(p.default))
        for p in (*info.params, *info.init_params)
        if p.default is not None
        and p.default.lstrip("-").isdigit()
        and p.name not in given
        and p.name not in _AXIS_NAMES
    )
    state: tuple[tuple[str, tuple[int, ...], str], ...] = ()
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        if info.kind == "module":
            module = target(**sample["init"])
            module.eval()
            tensors = [*module.named_parameters(), *module.named_buffers()]
            state = tuple((n, tuple(t.shape), _dtype(t.dtype)) for n, t in tensors)
            leaves += [(f"state[{n!r}]", t.detach().numpy()) for n, t in tensors]
            out = module(*_to_torch(args), **_to_torch(kwargs))
        else:
            out = target(*_to_torch(args), **_to_torch(kwargs))
    outs = list(out) if isinstance(out, list | tuple) else [out]
    if not outs or not all(isinstance(o, torch.Tensor | bool | int | float) for o in outs):
        raise TypeError(f"returned {type(out).__name__}, not tensors")
    tensors_out = [o if isinstance(o, torch.Tensor) else torch.tensor(o) for o in outs]
    return Observation(
        sample=sample,
        leaf_names=tuple(n for n, _ in leaves),
        leaf_shapes=tuple(tuple(v.shape) for _, v in leaves),
        leaf_dtypes=tuple(str(v.dtype) for _, v in leaves),
        out_shapes=tuple(tuple(o.shape) for o in tensors_out),
        out_dtypes=tuple(_dtype(o.dtype) for o in tensors_out),
        multi=isinstance(out, list | tuple),
        state=state,
        sizes=sizes,
    )


#: APIs whose output length follows the input values, whatever the samples show (random
#: floats are never zero, so ``nonzero`` looks shape-preserving on them).
DATA_DEPENDENT = frozenset(
    {
        "nonzero",
        "argwhere",
        "masked_select",
        "unique",
        "unique_consecutive",
        "bincount",
        "nms",
        "batched_nms",
        "remove_small_boxes",
    }
)
#: Other seeds the first sample is redrawn with to see whether output shapes follow values.
_OTHER_SEEDS = (1, 2, 3)


def _value_dependent(info: ApiInfo, target: Any, first: Observation) -> bool:
    """Whether the output shapes change when only the input values do (same shapes)."""
    if info.name in DATA_DEPENDENT:
        return True
    for seed in _OTHER_SEEDS:
        try:
            again = _observe(info, target, first.sample, seed)
        except Exception:
            continue
        if again.out_shapes != first.out_shapes:
            return True
    return False


def _positional_names(info: ApiInfo, count: int) -> list[str]:
    names = [p.name for p in info.params if p.kind in ("positional_only", "positional")]
    star = next((p.name for p in info.params if p.kind == "var_positional"), "args")
    names += [f"{star}[{i}]" for i in range(count - len(names))]
    return names[:count]


def _dtype(dtype: Any) -> str:
    return str(dtype).removeprefix("torch.")


def _rules(observations: tuple[Observation, ...], attempts: int) -> Inference:
    first = observations[0]
    consistent = all(
        len(o.out_shapes) == len(first.out_shapes) and len(o.leaf_shapes) == len(first.leaf_shapes)
        for o in observations
    )
    usable = observations if consistent else observations[:1]
    shape_rules = tuple(_shape_rule(usable, j) for j in range(len(first.out_shapes)))
    dtype_rules = tuple(_dtype_rule(usable, j) for j in range(len(first.out_dtypes)))
    return Inference(usable, shape_rules, dtype_rules, attempts=attempts)


def _shape_rule(obs: Sequence[Observation], j: int) -> Rule:
    outs = [o.out_shapes[j] for o in obs]
    for k in range(len(obs[0].leaf_shapes)):
        if all(o.leaf_shapes[k] == out for o, out in zip(obs, outs, strict=True)):
            # Leaves of another shape whose dimensions fit too (embedding's weight) leave
            # the rule in doubt; leaves of the very same shape (``other``) do not.
            twins = {
                i
                for i in range(len(obs[0].leaf_shapes))
                if all(o.leaf_shapes[i] == o.leaf_shapes[k] for o in obs)
            }
            dims = _dims_rule(obs, outs, skip=twins - {k})
            return Rule("same", index=k, note=dims[1] if dims else "")
    if len(obs[0].leaf_shapes) > 1 and all(
        _broadcast(o.leaf_shapes) == out for o, out in zip(obs, outs, strict=True)
    ):
        return Rule("broadcast")
    if all(out == () for out in outs):
        return Rule("scalar")
    dims = _dims_rule(obs, outs)
    if dims is not None:
        return Rule("dims", value=dims[0], note=dims[1])
    if len(obs) > 1 and all(out == outs[0] for out in outs):
        return Rule("fixed", value=outs[0])
    return Rule("todo", value=outs[0])


def _dims_rule(
    obs: Sequence[Observation], outs: Sequence[tuple[int, ...]], skip: set[int] | None = None
) -> tuple[tuple[tuple[int, int] | int | str, ...], str] | None:
    """Each output dimension as some leaf's dimension (the first that matches on every
    sample and varies between them), an integer argument of that value on every sample (by
    name) or a constant; None when a dimension is none of these. With a single sample
    nothing varies: a leaf dimension of that size is taken. The second item names the
    dimensions that other leaves' dimensions would fit as well."""
    if len({len(out) for out in outs}) != 1 or not outs[0]:
        return None
    shapes0 = obs[0].leaf_shapes
    result: list[tuple[int, int] | int | str] = []
    ambiguous: list[str] = []
    names = obs[0].leaf_names
    for axis, _ in enumerate(outs[0]):
        sizes = [out[axis] for out in outs]
        fits = [
            (k, a)
            for k, shape in enumerate(shapes0)
            if k not in (skip or set())
            for a in range(len(shape))
            if _leaf_sizes(obs, k, a) == sizes and (len(obs) == 1 or len(set(sizes)) > 1)
        ]
        match: tuple[int, int] | int | str | None = fits[0] if fits else None
        if len(fits) > 1:
            ambiguous.append(
                f"dimension {axis} could be any of "
                + ", ".join(f"{names[k]}[{a}]" for k, a in fits)
            )
        if match is None:
            match = _size_argument(obs, sizes)
        if match is None and len(obs) > 1 and len(set(sizes)) == 1:
            match = sizes[0]
        if match is None:
            return None
        result.append(match)
    return tuple(result), "; ".join(ambiguous)


def _leaf_sizes(obs: Sequence[Observation], k: int, axis: int) -> list[int | None]:
    return [o.leaf_shapes[k][axis] if axis < len(o.leaf_shapes[k]) else None for o in obs]


def _size_argument(obs: Sequence[Observation], sizes: Sequence[int]) -> str | None:
    """The one integer argument equal to this output size on every sample."""
    names = [
        name
        for name, value in obs[0].sizes
        if value == sizes[0]
        and all(dict(o.sizes).get(name) == size for o, size in zip(obs, sizes, strict=True))
    ]
    return names[0] if len(names) == 1 else None


def _dtype_rule(obs: Sequence[Observation], j: int) -> Rule:
    outs = [o.out_dtypes[j] for o in obs]
    for k in range(len(obs[0].leaf_dtypes)):
        if all(o.leaf_dtypes[k] == out for o, out in zip(obs, outs, strict=True)):
            return Rule("same", index=k)
    return Rule("fixed", value=outs[0])


def _broadcast(shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...] | None:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else ""
