"""What each finding asks of the person migrating, and the rewrite of the call itself.

After the scan (and its cache) every API finding gets a disposition (see
:data:`apiscan.model.Disposition`) and, where one exists, the rewritten text of that very call,
rendered from the argument texts its per-file worker recorded:

1. plumbing with a MindSpore idiom (:mod:`apiscan.rewrite.idioms`) → ``idiom`` or ``delete``;
2. a substitution template (:mod:`apiscan.rewrite.substitutions`) → ``rewrite`` with the
   rendered call, or the reason no exact rewrite exists for this form;
3. a same-name candidate → ``rewrite`` to the same name (exact once its micro-test passes);
4. a "different" row without a template → ``rewrite`` with the table's words and diff page;
5. missing: a tensor computation → ``rewrite`` when existing ops compose it
   (:mod:`apiscan.rewrite.composed`), else ``custom-op``; anything else → ``gap``;
6. consistent rows and non-public names → ``none`` (consistent calls still get the renamed
   call as their rewrite, for ``apiscan fix``).

Pure data in, data out: no torch, no MindSpore, no source re-reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from apiscan.model import ApiFinding, CallArgs, ScanResult
from apiscan.rewrite.composed import COMPOSE_NOTE, composed
from apiscan.rewrite.idioms import (
    ALWAYS_FALSE,
    DEVICE,
    DEVICE_NOTE,
    RECOMPUTE_FUNCTION,
    RECOMPUTE_PAGE,
    Idiom,
    idiom_for,
)
from apiscan.rewrite.substitutions import recipes_for
from apiscan.rewrite.template import Rendered, Template, convert_dtype, render
from apiscan.slotinit import replace

__all__ = ["apply", "dispose", "is_tensor_computation"]

#: Namespaces whose APIs are never tensor computations (no custom op can stand in for them).
_PLUMBING = (
    "torch.cuda.",
    "torch.distributed.",
    "torch.utils.",
    "torch.optim.",
    "torch.jit.",
    "torch.autograd.",
    "torch.backends.",
    "torch.hub.",
    "torch.onnx.",
    "torch.amp.",
    "torch.multiprocessing.",
    "torch.serialization.",
    "torch.testing.",
    "torch.fx.",
    "torch.export.",
    "torch.compiler.",
    "torch.nn.Module",
    "torch.nn.ModuleList",
    "torch.nn.ModuleDict",
    "torch.nn.Sequential",
    "torch.nn.ParameterList",
    "torch.nn.ParameterDict",
    "torch.nn.parallel.",
    "torch.nn.utils.",
    "torch.GradScaler",
    "torch.Generator",
    "torch.TypedStorage",
    "torch.UntypedStorage",
    "torch.cpu.",
    "torch.mps.",
    "torch.profiler.",
)
#: Tensor members that are metadata, storage or autograd plumbing, not computations.
_TENSOR_PLUMBING = frozenset(
    {
        "grad",
        "requires_grad",
        "requires_grad_",
        "is_cuda",
        "is_sparse",
        "device",
        "get_device",
        "element_size",
        "data",
        "backward",
        "record_stream",
        "pin_memory",
        "storage",
        "untyped_storage",
        "data_ptr",
        "is_leaf",
        "retain_grad",
        "register_hook",
        "share_memory_",
        "is_pinned",
        "cpu",
        "cuda",
        "numpy",
        "tolist",
        "item",
    }
)
#: Top-level torch names that are not computations (dtypes, formats, queries, seeds).
_TORCH_PLUMBING = frozenset(
    {
        "device",
        "dtype",
        "finfo",
        "iinfo",
        "Size",
        "manual_seed",
        "seed",
        "initial_seed",
        "get_default_dtype",
        "set_default_dtype",
        "set_default_tensor_type",
        "get_default_device",
        "set_default_device",
        "is_tensor",
        "is_storage",
        "set_grad_enabled",
        "no_grad",
        "enable_grad",
        "inference_mode",
        "compile",
        "autocast",
        "is_autocast_enabled",
        "get_autocast_dtype",
        "get_autocast_gpu_dtype",
        "get_autocast_cpu_dtype",
        "is_autocast_cpu_enabled",
        "set_printoptions",
        "use_deterministic_algorithms",
        "set_num_threads",
        "get_num_threads",
        "load",
        "save",
        "channels_last",
        "channels_last_3d",
        "contiguous_format",
        "preserve_format",
        "legacy_contiguous_format",
        "pi",
        "e",
        "inf",
        "nan",
        "ByteTensor",
        "FloatTensor",
        "LongTensor",
        "HalfTensor",
        "IntTensor",
        "BoolTensor",
        "DoubleTensor",
    }
)


#: torch's numeric constants: Python floats, never an op or a gap.
CONSTANTS: dict[str, str] = {
    "torch.inf": "math.inf",
    "torch.nan": "math.nan",
    "torch.pi": "math.pi",
    "torch.e": "math.e",
    "torch.newaxis": "None",
}
#: Host queries with a known MindSpore way (the rest of :data:`_SETTING` gets the generic one).
HOST_QUERIES: dict[str, str] = {
    "torch.is_grad_enabled": (
        "a host query: MindSpore takes gradients by mindspore.grad/value_and_grad around the "
        "forward, which cannot ask whether one is being taken: read self.training (or a flag "
        "the train step passes) instead"
    ),
}
#: Process-wide settings and queries (``torch.set_float32_matmul_precision``,
#: ``torch.backends.cudnn...``, ``torch.is_grad_enabled``, ``torch.set_printoptions``,
#: ``torch.use_deterministic_algorithms``, ``torch.distributed.is_nccl_available``): no
#: tensor is computed.
_SETTING = re.compile(
    r"torch\.(set_|get_|is_|backends\.|use_deterministic_algorithms$"
    r"|are_deterministic_algorithms_enabled$|distributed\.is_\w*(available|initialized)$)"
)
#: The queries among them: a Python value read on the host.
_QUERY = re.compile(r"torch\.(is_|are_)\w+$")


def is_setting(api: str) -> bool:
    """A setting or query of the process, never an operator to implement: its MindSpore
    counterpart is a context option, or nothing."""
    return bool(_SETTING.match(api))


def host_value(api: str) -> tuple[str, str] | None:
    """(rewrite, note) of a missing constant or host query: a Python value, never a custom op
    or a gap (``torch.inf`` is ``math.inf``; ``torch.is_grad_enabled`` a flag); None for
    anything else."""
    if api in CONSTANTS:
        return CONSTANTS[api], f"a constant: {CONSTANTS[api]} (import math)"
    if api in HOST_QUERIES:
        return "", HOST_QUERIES[api]
    if _QUERY.match(api):
        return "", (
            "a host query of the process's state (a Python value, no tensor computed): read "
            "the MindSpore setting it asks for, or drop the branch it guards"
        )
    return None


def is_tensor_computation(api: str) -> bool:
    """Whether an API computes on tensors, the only kind a custom op can replace: functions
    and methods on tensors, layers, functional ops, linalg/fft/special, distributions, RNN
    packing — never devices, autograd, optimizers, data loading, distributed or compilation."""
    if api.startswith("torch.nn.utils.rnn."):
        return True
    if api.startswith(_PLUMBING):
        return False
    parts = api.split(".")
    if api.startswith("torch.Tensor."):
        return parts[2] not in _TENSOR_PLUMBING
    if parts[-1] == "flatten_parameters":
        # nn.LSTM/GRU's cuDNN weight compaction: a performance call, nothing to compute
        return False
    if len(parts) == 2 and parts[0] == "torch":
        name = parts[1]
        return (
            name not in _TORCH_PLUMBING
            and not name[:1].isupper()
            and not name.startswith(
                (
                    "float",
                    "int",
                    "uint",
                    "bool",
                    "complex",
                    "bfloat",
                    "half",
                    "double",
                    "long",
                    "short",
                    "cfloat",
                    "qint",
                    "quint",
                )
            )
        )
    return api.startswith(
        (
            "torch.nn.functional.",
            "torch.nn.",
            "torch.linalg.",
            "torch.fft.",
            "torch.special.",
            "torch.distributions.",
            "torchvision.ops.",
            "torch.nn.init.",
        )
    )


def _method(api: str) -> bool:
    return api.startswith(("torch.Tensor.", "torch.nn.Module.")) or (
        api.count(".") >= 2 and (api.split(".")[-2][:1].isupper())
    )


def _same_call(target: str, finding: ApiFinding) -> Rendered:
    """The call with only its name changed (a consistent row or a same-name candidate)."""
    call = finding.args
    if finding.usage != "call" or call is None:
        if _method(finding.api):
            # x.dtype, p.data: an attribute read on a receiver the scan did not record.
            name = target.rpartition(".")[2]
            return Rendered("", f"keep .{name}: MindSpore's tensor/cell has the same member")
        return Rendered(target)
    if call.star or call.truncated:
        return Rendered("", "the arguments are not known statically")
    # F.log_softmax(x, dim=-1, dtype=torch.float32): the same call, with MindSpore's dtype.
    parts = [
        *(_ms_dtype(v) for v in call.positional),
        *(f"{k}={_ms_dtype(v)}" for k, v in call.keywords),
    ]
    if _method(finding.api) and call.receiver:
        if _function_only(finding, target):
            # x.log_softmax(2) listed as F.log_softmax: mindspore.Tensor has no such method
            return Rendered(f"{target}({', '.join([call.receiver, *parts])})")
        head = f"{call.receiver}.{target.rpartition('.')[2]}"
    else:
        head = target
    return Rendered(f"{head}({', '.join(parts)})")


#: The note of a verdict read from a functional twin's row (``x.softmax(dim=-1)`` matched by
#: ``torch.nn.functional.softmax``): the row's parameters are the function's.
_FUNCTIONAL_ROW = re.compile(r"listed in the table as torch\.(?:nn\.functional|special)\.", re.I)


def _function_only(finding: ApiFinding, target: str) -> bool:
    """Whether a tensor method's counterpart is to be called as the MindSpore function
    ``target(receiver, ...)``: the table lists the method's functional twin (whose row, not
    ``mindspore.Tensor``'s method, says what the parameters are: ``Tensor.softmax`` takes
    ``axis``), or ``mindspore.Tensor`` lacks the method (``log_softmax``)."""
    api = finding.api
    if not api.startswith("torch.Tensor.") or target.startswith("mindspore.Tensor."):
        return False
    if _FUNCTIONAL_ROW.search(finding.note or ""):
        return True
    from apiscan.mapping.candidates import load_candidates

    index = load_candidates()
    name = api.rpartition(".")[2]
    return index is not None and not index.has_member("mindspore.Tensor", name)


_TORCH_DTYPE = re.compile(
    r"^(?:torch|th)\.(?:float|half|double|bfloat16|long|int|short|bool|cfloat|cdouble"
    r"|float16|float32|float64|int8|int16|int32|int64|uint8|complex64|complex128)$"
)


def _ms_dtype(text: str) -> str:
    """``torch.float32`` → ``mindspore.float32``; any other argument text unchanged."""
    return convert_dtype(text) if _TORCH_DTYPE.match(text) else text


def _unverified(api: str) -> str:
    """What a same-name candidate still needs: its micro-test when the catalogue has one
    (``apiscan verify X`` exits 2 for an API without a case, so none is recommended then)."""
    from apiscan.verify.catalogue import cases_for  # plain data: no torch, no MindSpore

    if cases_for(api):
        return f"same name, unverified: apiscan verify {api}"
    return "same name, unverified: no micro-test in the catalogue yet, compare it by hand"


def _candidate_misfit(finding: ApiFinding) -> str:
    """Why a same-name candidate cannot take the call as written (``x.softmax(dim=-1)``:
    ``mindspore.Tensor.softmax`` takes ``axis``), by the MindSpore name index; "" if it can."""
    call = finding.args
    if call is None or finding.usage != "call" or not finding.mindspore_api:
        return ""
    from apiscan.mapping.candidates import load_candidates

    index = load_candidates()
    if index is None:
        return ""
    keywords = [k for k, _ in call.keywords]
    return index.misfit(finding.mindspore_api, len(call.positional), keywords)


def _renamed_call(finding: ApiFinding) -> Rendered | None:
    """A row whose only difference is parameter names (no diff page: "The functions are
    consistent, but the parameter names are inconsistent."): the call with the target's
    name and the renamed keywords the match found (``F.glu(x, dim=2)`` →
    ``mindspore.ops.glu(x, axis=2)``). None for any other row or change."""
    from apiscan.mapping.match import NAMES_DIFFER

    call = finding.args
    if (
        finding.diff_url
        or not finding.mindspore_api
        or call is None
        or not NAMES_DIFFER.search(finding.note)
        or any(c.kind != "renamed" for c in finding.param_changes)
    ):
        return None
    if call.star or call.truncated:
        return Rendered("", "the arguments are not known statically")
    renames = {c.param: c.ms_param for c in finding.param_changes}
    if any(k not in renames for k, _ in call.keywords):
        # A keyword the match did not rename: the target's name for it is not known
        # (MindSpore's Tensor methods record no signature).
        return None
    keywords = tuple((renames.get(k, k), v) for k, v in call.keywords)
    r = _same_call(finding.mindspore_api, replace(finding, args=replace(call, keywords=keywords)))
    if renames:
        names = ", ".join(f"{k}= → {v}=" for k, v in renames.items())
        return Rendered(r.text, f"parameter names differ: {names}")
    return Rendered(r.text, "parameter names differ; this call passes its arguments by position")


def _without_memory_params(finding: ApiFinding) -> Rendered | None:
    """A call whose only differences are parameters that select in-place or memory behaviour
    (:func:`~apiscan.mapping.match.memory_only`: ``nn.ReLU(inplace=True)``,
    ``nn.ReLU(True)``): the same call on the target without them, since MindSpore computes
    out of place with the same values. A parameter passed by position is dropped only when
    every positional argument is such a parameter (``mint.nn.ReLU()`` takes nothing). None
    for any other call."""
    from apiscan.mapping.match import memory_only

    call, changes = finding.args, finding.param_changes
    if (
        not finding.mindspore_api
        or call is None
        or call.star
        or call.truncated
        or not changes
        or not all(memory_only(c) for c in changes)
    ):
        return None
    names = {c.param for c in changes}
    keywords = tuple((k, v) for k, v in call.keywords if k not in names)
    by_position = names - {k for k, _ in call.keywords}
    if by_position and len(by_position) != len(call.positional):
        return None  # which positional argument is which is not known here
    kept = replace(call, keywords=keywords, positional=() if by_position else call.positional)
    r = _same_call(finding.mindspore_api, replace(finding, args=kept))
    dropped = ", ".join(sorted(names))
    return Rendered(r.text, f"{dropped} dropped: MindSpore computes out of place, same values")


def _with_torch_defaults(finding: ApiFinding) -> Rendered | None:
    """A call whose only differences are defaults it leaves to PyTorch, which MindSpore's
    same-named parameter sets otherwise (r2.4.0 pytorch_diff/InstanceNorm2d.md, Parameter 4:
    ``affine`` defaults to True in MindSpore, False in PyTorch): the same call on the target
    with PyTorch's default written out (``nn.InstanceNorm2d(planes)`` →
    ``mindspore.nn.InstanceNorm2d(planes, affine=False)``). None when a value must be
    converted (BatchNorm's ``momentum`` is ``1 - momentum``), when PyTorch's default is
    ``None`` (a meaning, not a value: ``meshgrid``'s ``indexing``) or unknown, or for a
    parameter MindSpore names otherwise (its call form may differ too)."""
    from apiscan.mapping.match import DEFAULT_CHANGED, converted

    call, changes = finding.args, finding.param_changes
    if (
        not finding.mindspore_api
        or finding.usage != "call"
        or call is None
        or call.star
        or call.truncated
        or not changes
        or any(
            c.kind != DEFAULT_CHANGED
            or c.ms_param != c.param
            or c.torch_default in (None, "None")
            or converted(c.note)
            for c in changes
        )
    ):
        return None
    passed = {k for k, _ in call.keywords}
    added = tuple((c.param, c.torch_default or "") for c in changes if c.param not in passed)
    if not added:
        return None
    kept = replace(call, keywords=(*call.keywords, *added))
    r = _same_call(finding.mindspore_api, replace(finding, args=kept))
    written = ", ".join(f"{k}={v}" for k, v in added)
    return Rendered(r.text, f"PyTorch's default written out ({written}): MindSpore's differs")


def _dtype_like(text: str) -> bool:
    """``torch.float16``, ``dtype``, ``x.dtype``, ``self.data_type`` (YOLOX),
    ``torch.cuda.HalfTensor``: visibly a dtype."""
    low = text.lower()
    return (
        "dtype" in low
        or low.endswith("type")
        or (text.startswith(("torch.", "th.", "mindspore.")) and text.count("(") == 0)
    )


def _device_like(text: str) -> bool:
    low = text.lower()
    return any(w in low for w in ("device", "cuda", "cpu", "gpu", "rank", "'mps'")) or (
        low.isdigit()
    )


#: Keyword values PyTorch still takes under an old spelling, as MindSpore spells them: a
#: loss's ``reduction='elementwise_mean'`` (renamed ``'mean'`` in PyTorch 0.4.1, still
#: accepted with a deprecation warning) makes MindSpore's losses raise a ValueError.
LEGACY_VALUES: dict[tuple[str, str], str] = {
    ("reduction", "'elementwise_mean'"): "'mean'",
    ("reduction", '"elementwise_mean"'): '"mean"',
}


def _current_values(call: CallArgs | None) -> CallArgs | None:
    """``call`` with the keyword values PyTorch takes under an old name in their current
    spelling (:data:`LEGACY_VALUES`); the very object when it passes none."""
    if call is None or not any((k, v) in LEGACY_VALUES for k, v in call.keywords):
        return call
    return replace(
        call, keywords=tuple((k, LEGACY_VALUES.get((k, v), v)) for k, v in call.keywords)
    )


def _normalise(finding: ApiFinding) -> CallArgs | None:
    """``x.detach().cpu().numpy()``: the receiver of ``numpy`` loses the device and detach
    calls that MindSpore does not need (``x.asnumpy()``)."""
    call = finding.args
    if call is None or finding.api != "torch.Tensor.numpy":
        return call
    receiver = call.receiver
    for suffix in (".cpu()", ".detach()", ".cuda()", ".data"):
        while receiver.endswith(suffix) and len(receiver) > len(suffix):
            receiver = receiver[: -len(suffix)]
    return replace(call, receiver=receiver)


def _out_of_place(finding: ApiFinding) -> ApiFinding | None:
    """``x.sqrt_()`` where MindSpore has only ``Tensor.sqrt``, ``torch.selu_(x)`` where it
    has only ``ops.selu``: the out-of-place call, whose result the person assigns back (a
    rewrite, not a custom op)."""
    api, call = finding.api, finding.args
    name = api.rpartition(".")[2]
    if finding.status != "missing" or not name.endswith("_") or name.endswith("__"):
        return None
    method = api.startswith("torch.Tensor.")
    # a function of torch or its functional namespace (``torch.nn.init.normal_`` is an
    # initialiser, with its own rewrite)
    if not method and api.rpartition(".")[0] not in ("torch", "torch.nn.functional"):
        return None
    if finding.usage != "call" or call is None or call.star or call.truncated:
        return None
    if method and not call.receiver:
        return None
    if not method and not call.positional:
        return None
    from apiscan.mapping.candidates import load_candidates

    base = api.removesuffix("_")
    index = load_candidates()
    target = index.candidate(base) if index is not None else None
    if target is None:
        return None
    parts = [*call.positional, *(f"{k}={v}" for k, v in call.keywords)]
    if method:
        text = f"{call.receiver}.{base.rpartition('.')[2]}({', '.join(parts)})"
        back = call.receiver
    else:
        text = f"{target}({', '.join(parts)})"
        back = call.positional[0]
    note = (
        f"MindSpore has no in-place {name}: the out-of-place form, assigned "
        f"back ({back} = ...); same name, unverified"
    )
    return _set(finding, "rewrite", text, note)


def catalogue_name(finding: ApiFinding) -> str:
    """The name the idiom and template catalogues know the finding by: the API as the code
    wrote it, else its canonical name (``torch.nn.functional.conv2d`` → ``torch.conv2d``)."""
    for name in (finding.api, finding.canonical):
        if name and (recipes_for(name) or idiom_for(name, finding.usage)):
            return name
    twin = method_twin(finding)
    if twin and idiom_for(twin, finding.usage):
        return twin
    return finding.api


def method_twin(finding: ApiFinding) -> str:
    """``torch.Tensor.x`` for a call of the function ``torch.x(t, ...)`` whose method form the
    idiom catalogue knows (``torch.detach(x)`` is ``x.detach()``: ``ops.stop_gradient``, no
    custom op); "" otherwise. The call is read with its first argument as the receiver
    (:func:`_as_method`)."""
    api, call = finding.api, finding.args
    if api.count(".") != 1 or not api.startswith("torch.") or finding.usage != "call":
        return ""
    if call is None or call.star or not call.positional:
        return ""  # the receiver of a torch function is the module (``torch``, ``th``)
    return "torch.Tensor." + api.removeprefix("torch.")


def _as_method(call: CallArgs | None) -> CallArgs | None:
    """``torch.x(t, a)`` read as ``t.x(a)``: the receiver a method idiom renders."""
    if call is None or not call.positional:
        return call
    return replace(call, receiver=call.positional[0], positional=call.positional[1:])


def dispose(finding: ApiFinding) -> ApiFinding:
    """The finding with its disposition and rewrite filled in (see the module docstring).
    The rewrite is rendered from the call with old keyword values in their current spelling
    (:func:`_current_values`); the finding keeps the text the code passes."""
    spelled = _current_values(finding.args)
    if spelled is not finding.args:
        return replace(_dispose(replace(finding, args=spelled)), args=finding.args)
    return _dispose(finding)


def _dispose(finding: ApiFinding) -> ApiFinding:
    api, call = catalogue_name(finding), _normalise(finding)
    # Tensor.to / Module.to: a device move is a deletion, a dtype a conversion.
    if api in ("torch.Tensor.to", "torch.nn.Module.to") and call is not None:
        first = call.positional[0] if call.positional else call.keyword("device") or ""
        dtype = call.keyword("dtype")
        if first and _device_like(first) and dtype is None and len(call.positional) <= 1:
            text = call.receiver if call.receiver else ""
            return _set(
                finding,
                "delete",
                text,
                DEVICE_NOTE,
                DEVICE,
            )
        if (
            api == "torch.Tensor.to"
            and first
            and call.positional
            and dtype is None
            and not _dtype_like(first)
            and not _device_like(first)
        ):
            # r2.4.0 pytorch_diff/to.md, Parameter 3: "other: PyTorch specifies the Tensor
            # used, which MindSpore does not support". x.to(y) is a dtype conversion only
            # when y is a dtype; MindSpore's to(y) of a tensor y fails.
            return _set(
                finding,
                "rewrite",
                "",
                f"{first} may be a tensor (x.to(other): write {call.receiver}.to("
                f"{first}.dtype)), a dtype ({call.receiver}.to({first})) or a device"
                " (delete the call): the scan cannot tell which",
            )
    idiom = idiom_for(api, finding.usage)
    if idiom is not None:
        if api != finding.api and api == method_twin(finding):
            call = _as_method(call)
        return _idiom(finding, idiom, call)
    if finding.status == "unknown":
        return finding
    assigned = _out_assigned(finding)
    if assigned is not None:
        return assigned
    # A consistent row needs nothing beyond the rename; its rewrite is still rendered (from
    # a template when one exists: the table's same-argument form can fail, zeros(1, n)).
    kind = "none" if finding.status == "consistent" else "rewrite"
    recipes = recipes_for(api) if finding.usage == "call" else ()
    if finding.status in ("consistent", "different"):  # the table's word, not a same name
        recipes = tuple(r for r in recipes if names_target(r.template, finding.mindspore_api))
    reasons = []
    for recipe in recipes:
        r = render(recipe.template, call)
        if r.exact:
            return _set(finding, kind, r.text, r.note)
        reasons.append(r.note)
    if recipes:
        why = "; ".join(dict.fromkeys(reasons)) or "no exact rewrite for this form"
        return _set(finding, kind, "", why)
    if finding.status == "consistent":
        target = finding.mindspore_api or ""
        r = _same_call(target, finding) if target else Rendered("")
        return _set(finding, "none", r.text, r.note)
    if finding.status in ("candidate", "verified") and finding.mindspore_api:
        r = _same_call(finding.mindspore_api, finding)
        misfit = _candidate_misfit(finding)
        if misfit:
            r = Rendered("", misfit)
        proof = "verified by its micro-test" if finding.status == "verified" else _unverified(api)
        return _set(finding, "rewrite", r.text, "; ".join(x for x in (r.note, proof) if x))
    if finding.status == "different":
        if finding.usage != "call" and finding.mindspore_api:
            r = _same_call(finding.mindspore_api, finding)
            return _set(finding, "rewrite", r.text, r.note or finding.note)
        renamed = (
            _renamed_call(finding)
            or _without_memory_params(finding)
            or _with_torch_defaults(finding)
        )
        if renamed is not None:
            return _set(finding, "rewrite", renamed.text, renamed.note)
        why = (
            f"no rewrite template: the table says {finding.note!r}"
            if finding.note
            else ("no rewrite template")
        )
        if finding.diff_url:
            why += f" (see {finding.diff_url})"
        return _set(finding, "rewrite", "", why)
    out_of_place = _out_of_place(finding)
    if out_of_place is not None:
        return out_of_place
    if finding.status == "missing":
        host = host_value(api)
        if host is not None:
            text, note = host
            return _set(finding, "rewrite", text if finding.usage != "call" else "", note)
        if is_tensor_computation(api) and (finding.usage != "reference" or not _method(api)):
            # a composition of existing ops (a thin wrapper, a distribution MindSpore has)
            composition = composed(api) if finding.confidence != "probable" else ""
            if composition:
                return _set(finding, "rewrite", "", COMPOSE_NOTE + composition)
            return _set(
                finding,
                "custom-op",
                "",
                "a tensor computation with no MindSpore "
                f"counterpart: compose it from existing ops or write a custom op "
                f"(apiscan stub {api})",
            )
        from apiscan.rewrite.known import gap_rewrite  # its table reads this module's

        known = gap_rewrite(api) if finding.confidence != "probable" else None
        if known is not None:  # a way the port knows (a dtype's tensor constructor...)
            return _set(finding, known[0], "", known[1])
        return _set(finding, "gap", "", "no MindSpore counterpart or idiom known")
    return finding


def names_target(template: Template, target: str | None) -> bool:
    """Whether a substitution rewrites to ``target``, the counterpart the mapping table gives
    the finding (the MindSpore column of every report): a rewrite to any other API would
    contradict that column (``torch.nn.MaxPool2d`` is ``mindspore.nn.MaxPool2d`` in the table,
    never ``mindspore.mint.nn.MaxPool2d``), so a template whose target is not the table's is
    not used for it (``--target CPU`` may choose an older table's target, which another
    template names). A finding without a counterpart (missing) and a format template (its
    text is checked against the table by the tests) take any; so does a same-name candidate
    (apiscan's guess, shown as such: ``x.type(y.type())`` is ``x.astype(y.dtype)`` whatever
    ``mindspore.Tensor.type`` does), which :func:`dispose` does not pass here."""
    if not target or not template.target:
        return True
    if template.method and not template.receiver_first:
        return template.target == target.rpartition(".")[2]
    return template.target == target


def _idiom(finding: ApiFinding, idiom: Idiom, call: CallArgs | None) -> ApiFinding:
    """An idiom's disposition, with the call's own rewrite when the pattern maps call for
    call; otherwise the idiom's template is what the person applies."""
    text, notes = "", [idiom.template]
    tpl = idiom.render
    if finding.api in ALWAYS_FALSE and finding.usage == "call":
        text = "False"
    elif tpl is not None and tpl.format and "{" not in tpl.format:
        text = tpl.format  # a constant (mindspore.nn.Cell for a base class)
    elif tpl is not None and finding.usage == "call":
        r = render(tpl, call)
        text = r.text
        if r.note and r.note not in idiom.template:
            notes.insert(0, r.note)
    return _set(finding, idiom.disposition, text, "; ".join(n for n in notes if n), idiom.source)


#: The keyword a PyTorch op writes its result through (``torch.index_select(..., out=buf)``).
OUT = "out"


def _out_assigned(finding: ApiFinding) -> ApiFinding | None:
    """A call passing ``out=`` (a general difference parameter MindSpore's ops lack): the
    result lives in the out tensor, so dropping the keyword throws it away where the call's
    value is unused (DINOv2's ``torch.index_select(..., out=buffer[a:b])`` as a statement).
    The call is disposed without it and rewritten as an assignment into the out target
    (``buffer[a:b] = mindspore.mint.index_select(...)``): a rewrite, never "none". None for
    any other call."""
    call = finding.args
    target = call.keyword(OUT) if call is not None and finding.usage == "call" else None
    if (
        call is None
        or not target
        or not any(c.param == OUT and c.kind == "general" for c in finding.param_changes)
    ):
        return None
    bare = replace(
        finding,
        args=replace(call, keywords=tuple((k, v) for k, v in call.keywords if k != OUT)),
        param_changes=tuple(c for c in finding.param_changes if c.param != OUT),
    )
    done = dispose(bare)
    why = (
        f"out={target} passed: MindSpore returns the result, so it is assigned to the out "
        f"target ({target} = ...); dropping out= alone would lose it"
    )
    note = "; ".join(x for x in (why, done.rewrite_note) if x)
    text = f"{target} = {done.rewrite}" if done.rewrite else ""
    disposition = "rewrite" if done.disposition == "none" else done.disposition
    return replace(
        done,
        args=call,
        param_changes=finding.param_changes,
        disposition=disposition,
        rewrite=text,
        rewrite_note=note,
    )


def _set(
    finding: ApiFinding, disposition: str, text: str, note: str, source: str = ""
) -> ApiFinding:
    return replace(
        finding, disposition=disposition, rewrite=text, rewrite_note=note, rewrite_source=source
    )


#: What a hand-written backward calls to run its forward again with gradients (gradient
#: checkpointing), and to differentiate that second run.
_GRAD_ENABLED = frozenset({"torch.enable_grad", "torch.set_grad_enabled"})
_GRAD = "torch.autograd.grad"
AUTOGRAD_FUNCTION = "torch.autograd.Function"


def recomputing(findings: Iterable[object]) -> frozenset[tuple[str, str]]:
    """(path, class) of every ``torch.autograd.Function`` subclass that is gradient
    checkpointing written by hand: its ``backward`` enables gradients and calls
    ``torch.autograd.grad`` (it runs the forward again to differentiate it, as
    ``torch.utils.checkpoint`` does). A backward that computes its gradients by formula calls
    neither."""
    seen: dict[tuple[str, str], set[str]] = {}
    for f in findings:
        if not isinstance(f, ApiFinding) or f.api not in (_GRAD, *_GRAD_ENABLED):
            continue
        owner, _, method = (f.function or "").rpartition(".")
        if owner and method == "backward":
            seen.setdefault((f.path, owner), set()).add(_GRAD if f.api == _GRAD else "enable")
    return frozenset(key for key, kinds in seen.items() if kinds == {_GRAD, "enable"})


def _recompute(finding: ApiFinding, recomputed: frozenset[tuple[str, str]]) -> ApiFinding:
    """The base class of a hand-written gradient checkpoint (:func:`recomputing`) is the
    MindSpore idiom for recomputation, not a gap."""
    if (
        finding.api != AUTOGRAD_FUNCTION
        or finding.usage != "base_class"
        or (finding.path, finding.function or "") not in recomputed
    ):
        return finding
    return _set(finding, "idiom", "", RECOMPUTE_FUNCTION, RECOMPUTE_PAGE)


def apply(result: ScanResult) -> ScanResult:
    """Every API finding of ``result`` disposed (see :func:`dispose`), with whether the
    MindTorch route covers it."""
    from apiscan.rewrite.mindtorch import covers

    recomputed = recomputing(result.findings)
    findings = tuple(
        replace(_recompute(dispose(f), recomputed), mindtorch=covers(f.api))
        if isinstance(f, ApiFinding)
        else f
        for f in result.findings
    )
    return replace(result, findings=findings)
