"""Documented forms generated from signatures: what a "consistent" row promises, as cases.

A row that says ``torch.round`` ↔ ``mindspore.mint.round`` is consistent promises every
documented parameter of ``torch.round`` works through the target. This module turns the
PyTorch signature (the shipped torch index, ``mapping_data/torch_api``) into call forms:

- each documented optional parameter once by keyword with a non-default value of its kind
  (``torch.round(x, decimals=1)``) and, where PyTorch takes it by position, once by
  position with the values of the parameters before it (``torch.sort(x, 0, True)``);
- the no-argument form on hypothesis-style inputs: an empty tensor, NaN and ±inf values, a
  non-contiguous view, int64 and bool tensors, a broadcast second operand.

The values come from two tables (:data:`REQUIRED` fills what every call must pass,
:data:`NON_DEFAULT` a non-default value per parameter name, :data:`PER_API` what a name
means differently for one API); a row whose required parameters the tables cannot fill gets
no forms and is listed with the reason (:func:`generate` returns both). The target is the
one the scan picks today (``match_api``). The result is a plain table written by
``scripts/gen_documented_forms.py`` into ``apiscan/verify/catalogue/documented_forms.csv``,
which the catalogue reads (no mapping data is parsed when a scan imports the catalogue).

Pure standard library plus apiscan's mapping store: runs without torch or MindSpore.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: Inputs by name: ``name=kind[shape]`` plus ``@low:high`` and ``!special`` (see
#: :func:`apiscan.verify.catalogue.documented.parse_inputs`).
X = "x=float[3,4]"
Y = "y=float[3,4]"
IMG = "x=float[2,3,8,8]"

#: What fills a required parameter: (argument text, the inputs it needs).
REQUIRED: dict[str, tuple[str, tuple[str, ...]]] = {
    "input": ("x", (X,)),
    "self": ("x", (X,)),
    "tensor": ("x", (X,)),
    "a": ("x", (X,)),
    "x": ("x", (X,)),
    "other": ("y", (Y,)),
    "input2": ("y", (Y,)),
    "tensor2": ("y", (Y,)),
    "tensor1": ("x", (X,)),
    "end": ("y", (Y,)),
    "src": ("y", (Y,)),
    "source": ("y", (Y,)),
    "values": ("y", (Y,)),
    "target": ("y", (Y,)),
    "dim": ("1", ()),
    "dim0": ("0", ()),
    "dim1": ("1", ()),
    "index": ("i", ("i=int[3,2]@0:4!unique",)),
    "indices": ("i", ("i=int[3,2]@0:4!unique",)),
    "mask": ("m", ("m=bool[3,4]",)),
    "value": ("0.5", ()),
    "fill_value": ("1.5", ()),
    "size": ("(2, 3)", ()),
    "shape": ("(4, 3)", ()),
    "exponent": ("2.0", ()),
    "tensors": ("[x, y]", (X, Y)),
    "mat2": ("w", ("w=float[4,3]",)),
    "vec2": ("v", ("v=float[4]",)),
    "vec": ("v", ("v=float[4]",)),
    "repeats": ("2", ()),
    "k": ("2", ()),
    "n": ("3", ()),
    "p": ("2.0", ()),
    "lambd": ("0.5", ()),
    "kernel_size": ("2", ()),
    "divisor": ("y", (Y,)),
    "min": ("-0.5", ()),
    "max": ("0.5", ()),
    "dims": ("(1, 0)", ()),
    "split_size_or_sections": ("2", ()),
    "indices_or_sections": ("2", ()),
    "split_size": ("2", ()),
    "chunks": ("2", ()),
    "sections": ("2", ()),
    "diagonal": ("1", ()),
    "num_classes": ("5", ()),
    "pad": ("(1, 1)", ()),
    "weight": ("w", ("w=float[5,4]",)),
    "start": ("0", ()),
    "steps": ("5", ()),
}

#: A non-default value per optional parameter name (the default is what omitting it gives).
NON_DEFAULT: dict[str, str] = {
    "dim": "0",
    "keepdim": "True",
    "dtype": "torch.float64",
    "alpha": "2.0",
    "beta": "0.5",
    "eps": "0.001",
    "reduction": "'sum'",
    "inplace": "True",
    "value": "0.5",
    "min": "-0.5",
    "max": "0.5",
    "offset": "1",
    "diagonal": "1",
    "upper": "True",
    "lambd": "0.3",
    "correction": "0",
    "unbiased": "False",
    "descending": "True",
    "rounding_mode": "'floor'",
    "decimals": "1",
    "stable": "True",
    "largest": "False",
    "equal_nan": "True",
    "rtol": "0.001",
    "atol": "0.001",
    "start_dim": "1",
    "end_dim": "0",
    "approximate": "'tanh'",
    "negative_slope": "0.2",
    "threshold": "0.5",
    "ignore_index": "1",
    "label_smoothing": "0.1",
    "minlength": "5",
    "nan": "0.5",
    "posinf": "1.0",
    "neginf": "-1.0",
    "out_int32": "True",
    "right": "True",
    "scale_factor": "2",
    "ord": "1",
    "margin": "0.5",
    "stride": "1",
    "padding": "1",
    "ceil_mode": "True",
    "count_include_pad": "False",
    "divisor_override": "3",
    "dilation": "2",
    "return_indices": "True",
    "num_classes": "5",
    "p": "1.0",
    "exponent": "3.0",
    "other": "0.5",
    "k": "1",
    "n": "2",
    "prepend": "y",
    "append": "y",
    "weights": "None",
    "mode": "'bilinear'",
    "align_corners": "True",
    "output_size": "(3, 3)",
    "log_target": "True",
    "full": "True",
    "reduce": "'add'",
    "include_self": "False",
    "side": "'right'",
    "as_tuple": "True",
    "return_inverse": "True",
    "return_counts": "True",
    "dims": "1",
    "shifts": "1",
    "unbiased_": "False",
    "size": "(2, 3)",
    "mean": "1.0",
    "std": "2.0",
    "accumulate": "True",
    "bins": "5",
    "end": "5",
    "step": "2",
    "interpolation": "'lower'",
    "groups": "1",
    "training": "True",
    "pivot": "True",
    "some": "False",
    "dim1": "1",
    "dim2": "0",
    "weight": "w",
}
#: Parameters not exercised: they steer where a result goes, not what it is (``out``,
#: ``device``, ``layout``, ``pin_memory``, ``requires_grad``), are deprecated (the losses'
#: ``size_average``/``reduce``), random (``generator``) or process-wide (distributed groups).
IGNORED = frozenset(
    {
        "out",
        "device",
        "layout",
        "pin_memory",
        "requires_grad",
        "generator",
        "memory_format",
        "size_average",
        "_stacklevel",
        "async_op",
        "group",
        "tag",
        "non_blocking",
        "names",
        "copy",
    }
)
#: Random APIs: their values cannot be compared, only shapes.
_RANDOM_WORDS = (
    "rand",
    "dropout",
    "multinomial",
    "bernoulli",
    "normal",
    "poisson",
    "uniform_",
    "empty",  # uninitialised values
)
#: Per API: required fills and non-default values that differ from the tables above, and
#: parameters that mean something else for it (``reduce`` of a loss is deprecated).
PER_API: dict[str, dict[str, str | None]] = {
    "torch.index_select": {"index": "i1"},
    "torch.Tensor.index_select": {"index": "i1"},
    "torch.take": {"index": "i1"},
    "torch.Tensor.index_add": {"index": "i1", "source": "s"},
    "torch.Tensor.index_fill": {"index": "i1"},
    "torch.Tensor.index_put_": {"indices": None},
    "torch.gather": {"index": "i"},
    "torch.nn.functional.one_hot": {"tensor": "i"},
    "torch.nn.functional.kl_div": {"target": "p"},
    "torch.bincount": {"input": "i1", "weights": "None"},
    "torch.Tensor.bincount": {"weights": "None"},
    "torch.permute": {"dims": "(1, 0)"},
    "torch.Tensor.permute": {"dims": "(1, 0)"},
    "torch.flip": {"dims": "(1,)"},
    "torch.Tensor.flip": {"dims": "(1,)"},
    "torch.arange": {"end": "5", "start": "1"},
    "torch.linspace": {"end": "1.0", "start": "0.0"},
    "torch.logspace": {"end": "1.0", "start": "0.0"},
    "torch.where": {"condition": "m", "input": "x", "other": "y"},
    "torch.diff": {"n": "2"},
    "torch.topk": {"k": "2"},
    # ``p`` is an int here (1 or 2), a float norm order elsewhere
    "torch.nn.MultiMarginLoss": {"p": "2"},
    "torch.nn.functional.multi_margin_loss": {"p": "2"},
    "torch.nn.functional.rrelu": {"upper": "0.5", "lower": "0.2"},
    "torch.nn.RReLU": {"upper": "0.5", "lower": "0.2"},
    "torch.nn.functional.hardtanh": {"min_val": "-0.5", "max_val": "0.5"},
}
#: Losses: ``reduce`` is their deprecated flag (``reduction`` replaced it), not scatter's.
_LOSS_WORDS = ("loss", "cross_entropy", "nll", "kl_div", "binary_cross")
#: Rows whose inputs the generic strategies cannot draw: the reason is listed instead.
SKIPPED: dict[str, str] = {
    "torch.nn.functional.hinge_embedding_loss": "its target must hold only -1 and 1",
    "torch.nn.HingeEmbeddingLoss": "its target must hold only -1 and 1",
    "torch.nn.functional.cosine_embedding_loss": "its target must hold only -1 and 1",
    "torch.nn.CosineEmbeddingLoss": "its target must hold only -1 and 1",
    "torch.nn.functional.margin_ranking_loss": "its target must hold only -1 and 1",
    "torch.nn.MarginRankingLoss": "its target must hold only -1 and 1",
}
#: Extra inputs the per-API names above refer to.
_NAMED_INPUTS = {
    "p": "p=float[3,4]@0.05:0.95",
    "i1": "i1=int[2]@0:3",
    "i": "i=int[3,2]@0:4!unique",
    "s": "s=float[3,2]",
    "m": "m=bool[3,4]",
    "x": X,
    "y": Y,
    "w": "w=float[5,4]",
}
#: Inputs of the edge-case forms of a tensor's first operand.
EDGE_INPUTS: dict[str, str] = {
    "plain": X,  # the call on ordinary values: what the edge cases are measured against
    "empty": "x=float[0,4]",
    "nan": "x=float[3,4]!nan",
    "inf": "x=float[3,4]!inf",
    "noncontig": "x=float[3,4]!noncontig",
    "int64": "x=int[3,4]@-5:5",
    "bool": "x=bool[3,4]",
}
#: Documented overload parameters the torch index does not record (it keeps one overload
#: per name): ``torch.max(input, dim, keepdim)``, ``scatter(..., reduce=)``.
OVERLOADS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "torch.max": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.min": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.scatter": (("reduce", "kw_only", True),),
    "torch.Tensor.scatter": (("reduce", "kw_only", True),),
    "torch.median": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.Tensor.median": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.mode": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.var": (("correction", "kw_only", True),),
    "torch.std": (("correction", "kw_only", True),),
}
FIELDS = ("api", "target", "status", "param", "form", "call", "inputs", "probe", "layer")
#: Layers (``torch.nn`` classes): what fills a required constructor parameter.
CLASS_REQUIRED: dict[str, str] = {
    "output_size": "2",
    "kernel_size": "2",
    "padding": "1",
    "value": "0.5",
    "groups": "3",
    "upscale_factor": "1",
    "downscale_factor": "1",
    "num_features": "3",
    "normalized_shape": "4",
    "num_groups": "1",
    "num_channels": "3",
    "in_channels": "3",
    "out_channels": "4",
    "in_features": "4",
    "out_features": "5",
    "dim": "1",
    "size": "4",
}
#: Parameters a layer with weights copies to the MindSpore cell, by what its constructor
#: takes (a layer whose weights are not listed here gets no forms: random weights differ).
_WEIGHTS: dict[str, str] = {
    "num_features": "weight:weight,bias:bias,running_mean:running_mean,running_var:running_var",
    "normalized_shape": "weight:weight,bias:bias",
    "num_channels": "weight:weight,bias:bias",
    "in_channels": "weight:weight,bias:bias",
    "in_features": "weight:weight,bias:bias",
}
#: Constructor parameters that would make the weights' names or shapes differ.
_NO_VALUE_FOR_LAYERS = frozenset({"bias", "affine", "elementwise_affine", "track_running_stats"})


@dataclass(frozen=True)
class Form:
    """One generated call form of a row's claim (a line of the table)."""

    api: str
    target: str
    status: str
    param: str  # the documented parameter exercised ("decimals=1"), or the edge case
    form: str  # "keyword", "positional", "edge"
    call: str
    inputs: str  # ";"-joined input specs
    probe: str = "{}"
    #: A layer form: ``-`` for a layer without weights, else the parameters to copy
    #: (``weight:weight,bias:bias``); empty for a function or method call.
    layer: str = ""


@dataclass(frozen=True)
class Skip:
    """A row without forms and why (a required parameter no table fills...)."""

    api: str
    reason: str


def _params(api: str, entry: dict) -> list[tuple[str, str, bool]]:
    recorded = [(n, k, bool(d)) for n, k, d in entry.get("p", [])]
    names = {n for n, _, _ in recorded}
    return recorded + [p for p in OVERLOADS.get(api, ()) if p[0] not in names]


def _positional_ok(api: str, entry: dict, given: list[str], pname: str) -> bool:
    """Whether ``pname`` can be passed by position after the values ``given`` (names, in
    order): every optional positional parameter before it in the real signature, ignored
    ones included (``size_average`` before a loss's ``reduction``, ``_stacklevel`` before
    ``log_softmax``'s ``dtype``), must be among them."""
    before = []
    for name, kind, has_default in _params(api, entry):
        if name == pname:
            return before == given
        if has_default and kind in ("pos_or_kw", "pos_only"):
            before.append(name)
    return False


def _fill(api: str, name: str) -> tuple[str, tuple[str, ...]] | None:
    override = PER_API.get(api, {})
    if name in override:
        text = override[name]
        if text is None:
            return None
        return text, ((_NAMED_INPUTS[text],) if text in _NAMED_INPUTS else ())
    return REQUIRED.get(name)


def _merge_inputs(groups: Iterable[tuple[str, ...]]) -> str:
    seen: dict[str, str] = {}
    for group in groups:
        for spec in group:
            seen.setdefault(spec.split("=", 1)[0], spec)
    return ";".join(seen.values())


def forms_for(
    api: str, target: str, status: str, entry: dict, unsupported: frozenset[str] = frozenset()
) -> tuple[list[Form], str]:
    """The forms of one row (``entry``: the torch index's record of ``api``), or a reason."""
    kind = entry.get("k")
    if api in SKIPPED:
        return [], SKIPPED[api]
    if any(word in api.rpartition(".")[2].lower() for word in _LOSS_WORDS):
        entry = {**entry, "p": [p for p in entry.get("p", []) if p[0] != "reduce"]}
    if kind == "class" and api.startswith("torch.optim.") and ".lr_scheduler." not in api:
        if status != "consistent":
            return [], "an optimizer with documented differences: its forms are hand-written"
        return _optimizer_forms(api, target, status, entry)
    if kind == "class" and api.startswith("torch.nn.") and api.count(".") == 2:
        return _layer_forms(api, target, status, entry, unsupported)
    if kind not in ("function", "method"):
        return [], f"a {kind} outside torch.nn: its forms are hand-written"
    params = [p for p in _params(api, entry) if p[0] not in IGNORED]
    params = [p for p in params if p[1] not in ("var_pos", "var_kw")]
    method = api.startswith("torch.Tensor.")
    name = api.rpartition(".")[2]
    if method and not target.startswith("mindspore.Tensor."):
        return [], "a Tensor method mapped to a function: the call cannot be written alike"
    if name.startswith("_") or (name.endswith("_") and not method):
        return [], "private or in-place function"
    required = [p for p in params if not p[2]]
    optional = [p for p in params if p[2]]
    args: list[str] = []
    inputs: list[tuple[str, ...]] = [(X,)] if method else []
    for pname, pkind, _ in required:
        filled = _fill(api, pname)
        if filled is None:
            return [], f"no value for its required parameter {pname!r}"
        text, needs = filled
        args.append(f"{pname}={text}" if pkind == "kw_only" else text)
        inputs.append(needs)
    if not method and not any(inputs):
        inputs.append(())
    probe = "{}.shape" if any(w in api.lower() for w in _RANDOM_WORDS) else "{}"
    base = ", ".join(args)
    head = f"x.{name}(" if method else f"{api}("
    out: list[Form] = []
    positional_done: list[str] = []
    positional_names: list[str] = []
    can_position = True
    for pname, pkind, _ in optional:
        value = PER_API.get(api, {}).get(pname, NON_DEFAULT.get(pname))
        if value is None or pname in unsupported:
            can_position = False
            continue
        extra = (_NAMED_INPUTS[value],) if value in _NAMED_INPUTS else ()
        joined = _merge_inputs([*inputs, extra])
        sep = ", " if base else ""
        out.append(
            Form(
                api,
                target,
                status,
                f"{pname}={value}",
                "keyword",
                f"{head}{base}{sep}{pname}={value})",
                joined,
                probe,
            )
        )
        if (
            pkind in ("pos_or_kw", "pos_only")
            and can_position
            and _positional_ok(api, entry, positional_names, pname)
        ):
            positional_names.append(pname)
            positional_done.append(value)
            out.append(
                Form(
                    api,
                    target,
                    status,
                    f"{pname}={value}",
                    "positional",
                    f"{head}{base}{sep}{', '.join(positional_done)})",
                    joined,
                    probe,
                )
            )
        else:
            can_position = False
    # Edge-case inputs for the tensor the call is about (the receiver, or ``input``).
    operand = "x" if (method or (required and _fill(api, required[0][0]) == ("x", (X,)))) else ""
    if operand and probe == "{}":
        rest = [spec for group in inputs for spec in group if not spec.startswith("x=")]
        for label, spec in EDGE_INPUTS.items():
            out.append(
                Form(
                    api,
                    target,
                    status,
                    label,
                    "edge",
                    f"{head}{base})",
                    _merge_inputs([(spec,), tuple(rest)]),
                    probe,
                )
            )
        if "y" in base.split(", "):
            out.append(
                Form(
                    api,
                    target,
                    status,
                    "broadcast",
                    "edge",
                    f"{head}{base})",
                    _merge_inputs([("x=float[3,1]", "y=float[1,4]"), *inputs]),
                    probe,
                )
            )
    if not out:
        return [], "no documented parameter to exercise and no tensor operand"
    return out, ""


#: Optimizers: a non-default value per constructor parameter (one form each, on top of
#: ``lr=0.01``); ``nesterov`` needs momentum. ``foreach``, ``capturable``,
#: ``differentiable`` and ``fused`` choose an implementation, not the update: left out.
OPTIMIZER_VALUES: dict[str, str] = {
    "lr": "0.05",
    "momentum": "0.9",
    "dampening": "0.1",
    "weight_decay": "0.01",
    "nesterov": "True, momentum=0.9",
    "maximize": "True",
    "betas": "(0.8, 0.95)",
    "eps": "1e-06",
    "amsgrad": "True",
    "alpha": "0.9",
    "centered": "True",
    "lr_decay": "0.01",
    "initial_accumulator_value": "0.1",
    "rho": "0.8",
    "momentum_decay": "0.005",
    "decoupled_weight_decay": "True, weight_decay=0.01",
    "lambd": "0.001",
    "t0": "2.0",
    "etas": "(0.4, 1.3)",
    "step_sizes": "(1e-05, 1.0)",
}
OPTIMIZER_INPUTS = "w=float[4,5];g=float[4,4,5]"


def _optimizer_forms(api: str, target: str, status: str, entry: dict) -> tuple[list[Form], str]:
    """``torch.optim.X(params, lr=0.01, p=v)``: the parameter after each of four steps."""
    out = []
    for pname, _, has_default in _params(api, entry):
        value = OPTIMIZER_VALUES.get(pname)
        if not has_default or value is None:
            continue
        lr = "" if pname == "lr" else "lr=0.01, "
        call = f"{api}(params, {lr}{pname}={value})"
        param = f"{pname}={value.split(',')[0]}"
        out.append(
            Form(api, target, status, param, "keyword", call, OPTIMIZER_INPUTS, "{}", "optimizer")
        )
    if not out:
        return [], "no optimizer parameter to exercise"
    return out, ""


def _layer_input(name: str) -> str:
    if name == "KLDivLoss":
        return "x=float[3,4];y=float[3,4]@0.05:0.95"  # the target is probabilities
    if name.endswith("Loss"):
        if name.startswith("BCE") and "Logits" not in name:
            return "x=float[3,4]@0.05:0.95;y=float[3,4]@0:1"
        return f"{X};{Y}"
    for rank, spec in (("1d", "x=float[2,3,6]"), ("2d", IMG), ("3d", "x=float[1,3,4,6,6]")):
        if name.endswith(rank) or f"{rank.upper()}" in name:
            return spec
    return X


def _layer_forms(
    api: str, target: str, status: str, entry: dict, unsupported: frozenset[str]
) -> tuple[list[Form], str]:
    """``torch.nn.X(<required>, p=v)`` forms of a layer, run as layer cases (eval mode, the
    same weights on both sides when it has any)."""
    name = api.rpartition(".")[2]
    if name.endswith(("List", "Dict", "Sequential")) or name in ("Parameter", "Module"):
        return [], "a container, not a computation"
    params = [
        p
        for p in _params(api, entry)
        if p[0] not in IGNORED and p[0] not in ("reduce", "dtype") and p[1] != "var_kw"
    ]
    if any(p[1] == "var_pos" for p in params):
        params = [p for p in params if p[1] != "var_pos"]
    layer = "-"
    args = []
    for pname, pkind, has_default in params:
        if has_default:
            continue
        value = CLASS_REQUIRED.get(pname)
        if value is None:
            return [], f"no value for its required constructor parameter {pname!r}"
        layer = _WEIGHTS.get(pname, layer)
        args.append(f"{pname}={value}" if pkind == "kw_only" else value)
    if any(p[0] in ("weight", "pos_weight") and p[2] for p in params) and layer == "-":
        layer = "-"  # an optional loss weight: left at its default
    inputs = _layer_input(name)
    if target.rpartition(".")[2][:1].islower():
        # a layer the table maps to a function (nn.Flatten → mint.flatten): the call is
        # ``torch.nn.Flatten(1)(x)``, the constructor's arguments follow the input there
        operands = ", ".join(spec.split("=", 1)[0] for spec in inputs.split(";"))
        return _function_layer_forms(api, target, status, params, args, inputs, operands)
    base = ", ".join(args)
    out: list[Form] = []
    done: list[str] = []
    done_names: list[str] = []
    can_position = True
    for pname, pkind, has_default in params:
        if not has_default:
            continue
        value = PER_API.get(api, {}).get(pname, NON_DEFAULT.get(pname))
        if value is None or pname in unsupported or pname in _NO_VALUE_FOR_LAYERS:
            can_position = False
            continue
        if value in _NAMED_INPUTS or pname in ("weight", "weights"):
            can_position = False
            continue
        sep = ", " if base else ""
        call = f"{api}({base}{sep}{pname}={value})"
        out.append(
            Form(api, target, status, f"{pname}={value}", "keyword", call, inputs, "{}", layer)
        )
        if (
            pkind in ("pos_or_kw", "pos_only")
            and can_position
            and _positional_ok(api, entry, done_names, pname)
        ):
            done_names.append(pname)
            done.append(value)
            call = f"{api}({base}{sep}{', '.join(done)})"
            out.append(
                Form(
                    api, target, status, f"{pname}={value}", "positional", call, inputs, "{}", layer
                )
            )
        else:
            can_position = False
    if ";" not in inputs:
        for label in ("plain", "empty", "nan", "noncontig"):
            spec = inputs.replace("]", "]!nan") if label == "nan" else inputs
            if label == "noncontig":
                spec = inputs + "!noncontig"
            if label == "empty":
                spec = inputs.replace("[2,", "[0,").replace("[3,4]", "[0,4]").replace("[1,", "[0,")
            out.append(
                Form(api, target, status, label, "edge", f"{api}({base})", spec, "{}", layer)
            )
    if not out:
        return [], "no documented parameter to exercise and no tensor operand"
    return out, ""


def _function_layer_forms(
    api: str,
    target: str,
    status: str,
    params: list[tuple[str, str, bool]],
    args: list[str],
    inputs: str,
    operands: str,
) -> tuple[list[Form], str]:
    base = ", ".join(args)
    sep = ", " if base else ""
    out = [Form(api, target, status, "", "keyword", f"{api}({base})({operands})", inputs)]
    for pname, _, has_default in params:
        value = NON_DEFAULT.get(pname)
        if has_default and value is not None and value not in _NAMED_INPUTS:
            call = f"{api}({base}{sep}{pname}={value})({operands})"
            out.append(Form(api, target, status, f"{pname}={value}", "keyword", call, inputs))
    out = [f for f in out if f.param]
    if not out:
        return [], "no documented parameter to exercise"
    return out, ""


def torch_index(data_dir: Path) -> dict[str, dict]:
    """The shipped torch index's records by name (torch, torchvision, torchaudio)."""
    names: dict[str, dict] = {}
    for path in sorted((data_dir / "torch_api").glob("*.json")):
        names.update(json.loads(path.read_text(encoding="utf-8"))["names"])
    return names


def generate(ms_version: str | None = None) -> tuple[list[Form], list[Skip]]:
    """Every consistent or different row's forms, against the target the scan picks."""
    from apiscan.mapping.match import match_api
    from apiscan.mapping.store import load_table, mapping_data_dir

    table = load_table(ms_version)
    index = torch_index(mapping_data_dir())
    with (mapping_data_dir() / "ms_targets.csv").open(encoding="utf-8") as handle:
        kinds = {row["target"]: row["kind"] for row in csv.DictReader(handle)}
    forms: list[Form] = []
    skips: list[Skip] = []
    for api in sorted({row.torch_api for row in table}):
        row = table.lookup(api)
        if row is None or row.status not in ("consistent", "different"):
            continue
        entry = index.get(api)
        # the target the scan picks for a call passing these keywords (SGD(params, lr=...)
        # → mindspore.experimental.optim.SGD rather than mindspore.nn.SGD)
        named = [p[0] for p in _params(api, entry or {}) if p[2] and p[0] not in IGNORED]
        target = match_api(api, table, passed_params=named, keywords=named).mindspore_api
        if not target or entry is None or "p" not in entry:
            skips.append(Skip(api, "no target or no recorded PyTorch signature"))
            continue
        if kinds.get(target) == "attribute":
            # Tensor.size → Tensor.shape: a migration reads the attribute, nobody calls it
            skips.append(Skip(api, "its target is an attribute: no call to compare"))
            continue
        # A "different" row documents its parameter differences: those are not claims.
        unsupported = frozenset(p.torch_param for p in row.params if p.torch_param)
        found, reason = forms_for(api, target, row.status, entry, unsupported)
        if reason:
            skips.append(Skip(api, reason))
        forms.extend(found)
    return forms, skips


def to_csv(forms: Iterable[Form]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(FIELDS)
    for f in forms:
        writer.writerow([getattr(f, name) for name in FIELDS])
    return buffer.getvalue()
