"""What a scaffold needs to know about one PyTorch API, read from the installed torch.

The scaffold mirrors the PyTorch call signature so that a migrated call site changes only
its import. ``inspect.signature`` answers for Python-level APIs; torch's C++ builtins and
``Tensor`` methods carry none, but their docstrings start with one
(``i0e(input, *, out=None) -> Tensor``), which is parsed as Python; failing both the
scaffold takes ``*args, **kwargs``. torch is imported inside the functions only.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import keyword
import re
import types
from dataclasses import dataclass
from typing import Any, Literal

ApiKind = Literal["function", "method", "module"]
ParamKind = Literal[
    "positional_only", "positional", "var_positional", "keyword_only", "var_keyword"
]

_KIND_OF = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}
#: Keyword arguments that only steer where torch writes or allocates: a MindSpore op returns
#: a new tensor, so the scaffold leaves them out.
_DROPPED = frozenset({"out"})
#: Namespaces whose functions change process state or do I/O: never called on sample inputs.
_NO_SAMPLE_PREFIXES = (
    "torch.cuda.",
    "torch.distributed.",
    "torch.hub.",
    "torch.backends.",
    "torch.utils.",
    "torch.multiprocessing.",
    "torch.jit.",
    "torch.onnx.",
    "torch.autograd.",
    "torch.random.",
)
_NO_SAMPLE_NAMES = re.compile(r"^(set_|save|load|manual_seed|seed|use_deterministic|compile)")
_DOC_SIGNATURE = re.compile(r"^\s*(?:[\w.]+\.)?(\w+)\((.*)\)\s*(?:->.*)?$")
_RST_ROLE = re.compile(r":\w+:`~?([^`]*)`")


@dataclass(frozen=True)
class Param:
    """One parameter as the generated code spells it. ``default`` is Python source text;
    ``approximate_default`` marks a torch default (an enum, a dtype) replaced by None."""

    name: str
    kind: ParamKind
    default: str | None = None
    approximate_default: bool = False

    @property
    def required(self) -> bool:
        return self.default is None and self.kind in (
            "positional_only",
            "positional",
            "keyword_only",
        )


@dataclass(frozen=True)
class ApiInfo:
    """A callable torch API resolved for scaffolding.

    ``params`` are the call's parameters (a ``Tensor`` method's ``self`` becomes ``input``;
    a module's are those of ``forward``); ``init_params`` a module's constructor's.
    """

    api: str
    kind: ApiKind
    name: str
    snake: str
    params: tuple[Param, ...]
    init_params: tuple[Param, ...]
    #: ``index``: read from the shipped signature index because the package (torchvision)
    #: is not installed; no sample call is possible then.
    signature_source: Literal["inspect", "docstring", "fallback", "index"]
    signature_text: str
    summary: str
    dropped: tuple[str, ...]
    inplace: bool
    sample_safe: bool


class NotScaffoldable(Exception):
    """The name is no callable torch API: the message is the skip reason shown to the user."""


class NotInstalled(NotScaffoldable):
    """The API's package (torchvision, torchaudio) is not installed: the shipped signature
    index may still describe it (:func:`describe_static`)."""


def snake_name(api: str) -> str:
    """File stem for an API: the dotted path below ``torch`` in snake case, so that
    ``torch.relu`` and ``torch.nn.functional.relu`` never share a file."""
    parts = api.split(".")[1:] if api.startswith("torch.") else api.split(".")
    return "_".join(_snake(p) for p in parts)


def _snake(part: str) -> str:
    part = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", part)
    part = re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", part)
    return part.lower()


def resolve(api: str) -> Any:
    """The torch object named ``api``; raises NotScaffoldable with the reason otherwise."""
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", api):
        raise NotScaffoldable("not a dotted Python name")
    parts = api.split(".")
    if parts[0] not in ("torch", "torchvision", "torchaudio"):
        raise NotScaffoldable("not a torch API (names start with torch.)")
    try:
        obj: Any = importlib.import_module(parts[0])
    except ImportError:
        raise NotInstalled(f"{parts[0]} is not installed") from None
    for i, part in enumerate(parts[1:], start=1):
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        try:
            obj = importlib.import_module(".".join(parts[: i + 1]))
        except ImportError:
            raise NotScaffoldable(
                f"unknown torch API ({'.'.join(parts[: i + 1])} not found)"
            ) from None
    return obj


def describe(api: str) -> ApiInfo:
    """Resolve ``api`` and read its signature and summary; raises NotScaffoldable for
    dtypes, constants, attributes, submodules, non-module classes and unknown names."""
    import torch

    obj = resolve(api)
    name = api.rsplit(".", 1)[-1]
    if isinstance(obj, torch.dtype):
        raise NotScaffoldable("a dtype, not a callable torch API")
    if isinstance(obj, types.ModuleType):
        raise NotScaffoldable("a module, not a callable torch API")
    if isinstance(obj, type):
        if not issubclass(obj, torch.nn.Module):
            raise NotScaffoldable("a class that is not an nn.Module: not a callable torch API")
        return _describe_module(api, name, obj)
    if not callable(obj):
        raise NotScaffoldable(
            f"not a callable torch API (a {type(obj).__name__} constant or attribute)"
        )
    if keyword.iskeyword(name) or not name.isidentifier():
        raise NotScaffoldable("its name is not a valid Python identifier")
    is_method = api.startswith("torch.Tensor.")
    params, source, text = _signature(obj, name, is_method)
    params, dropped = _drop(params)
    return ApiInfo(
        api=api,
        kind="method" if is_method else "function",
        name=name,
        snake=snake_name(api),
        params=params,
        init_params=(),
        signature_source=source,
        signature_text=text,
        summary=summary(obj.__doc__, name),
        dropped=dropped,
        inplace=is_method and name.endswith("_") and not name.endswith("__"),
        sample_safe=_sample_safe(api),
    )


_INDEX_KINDS: dict[str, ParamKind] = {
    "pos_only": "positional_only",
    "pos_or_kw": "positional",
    "kw_only": "keyword_only",
    "var_pos": "var_positional",
    "var_kw": "var_keyword",
}


def describe_static(api: str) -> ApiInfo | None:
    """``api`` described from the shipped signature index (``mapping_data/torch_api``,
    written by ``scripts/gen_torch_api.py`` from the real packages) when its package is not
    installed: ``apiscan stub torchvision.ops.batched_nms`` works without torchvision. The
    index records names, kinds and whether a default exists, not the default's value: those
    parameters default to None in the scaffold. None for a name the index lacks or a class."""
    from apiscan.mapping.store import mapping_data_dir
    from apiscan.verify.documented import torch_index

    index = torch_index(mapping_data_dir())
    entry = index.get(api)
    if entry is not None and entry.get("k") == "module":
        # ``torchvision.ops.roi_pool`` names both a submodule and the function it exports
        entry = index.get(f"{api}.{api.rpartition('.')[2]}")
    if entry is None or entry.get("k") != "function" or "p" not in entry:
        return None
    params = tuple(
        Param(
            name,
            _INDEX_KINDS[kind],
            "None" if has_default and kind not in ("var_pos", "var_kw") else None,
            approximate_default=has_default,
        )
        for name, kind, has_default in entry["p"]
    )
    params, dropped = _drop(params)
    name = api.rsplit(".", 1)[-1]
    return ApiInfo(
        api=api,
        kind="function",
        name=name,
        snake=snake_name(api),
        params=params,
        init_params=(),
        signature_source="index",
        signature_text=f"{name}({render_params(params)})",
        summary=f"{api} (signature from apiscan's shipped index; the package is not installed)",
        dropped=dropped,
        inplace=False,
        sample_safe=False,
    )


def _describe_module(api: str, name: str, cls: type) -> ApiInfo:
    import torch

    init_params: tuple[Param, ...] = ()
    if cls.__init__ is not torch.nn.Module.__init__:
        init_params = _from_inspect(cls.__init__, drop_first=True) or ()
    init_params = tuple(p for p in init_params if p.name not in ("device", "dtype"))
    forward = _from_inspect(cls.forward, drop_first=True)  # type: ignore[attr-defined]
    source: Literal["inspect", "fallback"] = "inspect"
    if forward is None or cls.forward is torch.nn.Module.forward:  # type: ignore[attr-defined]
        forward, source = _VARARGS, "fallback"
    return ApiInfo(
        api=api,
        kind="module",
        name=name,
        snake=snake_name(api),
        params=forward,
        init_params=init_params,
        signature_source=source,
        signature_text=f"{name}({render_params(init_params)})",
        summary=summary(cls.__doc__, name),
        dropped=(),
        inplace=False,
        sample_safe=_sample_safe(api),
    )


_VARARGS = (Param("args", "var_positional"), Param("kwargs", "var_keyword"))


def _signature(
    obj: Any, name: str, is_method: bool
) -> tuple[tuple[Param, ...], Literal["inspect", "docstring", "fallback"], str]:
    """The parameters, where they were read, and the signature text shown in docstrings."""
    params = _from_inspect(obj, drop_first=False)
    if params is not None and params != _VARARGS:
        if is_method and params and params[0].name == "self":
            params = (Param("input", params[0].kind), *params[1:])
        return params, "inspect", f"{name}({render_params(params)})"
    first = (obj.__doc__ or "").strip().splitlines()[:1]
    parsed = _from_doc(first[0], name) if first else None
    if parsed is not None:
        if is_method:
            parsed = (Param("input", "positional"), *parsed)
        return parsed, "docstring", first[0].strip()
    params = (Param("input", "positional"), *_VARARGS) if is_method else _VARARGS
    return params, "fallback", f"{name}(*args, **kwargs)"


def _from_inspect(obj: Any, drop_first: bool) -> tuple[Param, ...] | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    values = list(sig.parameters.values())[1 if drop_first else 0 :]
    out = []
    for p in values:
        default, approximate = None, False
        if p.default is not inspect.Parameter.empty:
            default, approximate = _literal(repr(p.default))
        out.append(Param(p.name, _KIND_OF[p.kind], default, approximate))  # type: ignore[arg-type]
    return tuple(out)


def _from_doc(line: str, name: str) -> tuple[Param, ...] | None:
    """Parameters from a docstring's signature line, or None when it is not one."""
    match = _DOC_SIGNATURE.match(line)
    if not match or match.group(1) != name:
        return None
    try:
        tree = ast.parse(f"def _f({match.group(2)}): pass")
    except SyntaxError:
        return None
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    a = fn.args
    out: list[Param] = []
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(
        a.defaults
    )
    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        kind: ParamKind = "positional_only" if i < len(a.posonlyargs) else "positional"
        out.append(_doc_param(arg.arg, kind, default))
    if a.vararg:
        out.append(Param(a.vararg.arg, "var_positional"))
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append(_doc_param(arg.arg, "keyword_only", kw_default))
    if a.kwarg:
        out.append(Param(a.kwarg.arg, "var_keyword"))
    return tuple(out)


def _doc_param(name: str, kind: ParamKind, default: ast.expr | None) -> Param:
    if default is None:
        return Param(name, kind)
    text, approximate = _literal(ast.unparse(default))
    return Param(name, kind, text, approximate)


def _literal(text: str) -> tuple[str, bool]:
    """``text`` when it is a Python literal the generated code can hold, else ``None``
    flagged as approximate (torch enums, dtypes, functions as defaults)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return "None", True
    if isinstance(value, str):  # double quotes, as ruff format writes them
        return json.dumps(value), False
    return repr(value), False


def _drop(params: tuple[Param, ...]) -> tuple[tuple[Param, ...], tuple[str, ...]]:
    kept = tuple(p for p in params if not (p.name in _DROPPED and not p.required))
    return kept, tuple(p.name for p in params if p not in kept)


def _sample_safe(api: str) -> bool:
    """Whether calling the API on random inputs at generation time is harmless."""
    last = api.rsplit(".", 1)[-1]
    return not api.startswith(_NO_SAMPLE_PREFIXES) and not _NO_SAMPLE_NAMES.match(last)


def summary(doc: str | None, name: str) -> str:
    """What the API computes in one line: the docstring's first paragraph, skipping a
    leading signature line, RST roles reduced to their text, cut after the first sentence."""
    lines = inspect.cleandoc(doc or "").splitlines()
    if lines and _DOC_SIGNATURE.match(lines[0]) and f"{name}(" in lines[0]:
        lines = lines[1:]
    paragraph: list[str] = []
    for line in lines:
        if not line.strip():
            if paragraph:
                break
            continue
        if line.strip().startswith((".. ", ">>>")):
            break
        paragraph.append(line.strip())
    text = _RST_ROLE.sub(r"\1", " ".join(paragraph)).replace("``", "`")
    sentence = re.split(r"(?<=\.)\s", text, maxsplit=1)[0]
    if len(sentence) > 200:
        sentence = sentence[:199].rstrip() + "…"
    return sentence or "(no description in the torch docstring)"


def render_params(params: tuple[Param, ...]) -> str:
    """The parameter list as Python source, ``/`` and ``*`` markers included."""
    return ", ".join(param_items(params))


def param_items(params: tuple[Param, ...]) -> list[str]:
    """The parameter list as source items, ``/`` and ``*`` markers included."""
    out: list[str] = []
    seen_star = False
    for i, p in enumerate(params):
        if p.kind == "positional_only" and (
            i + 1 == len(params) or params[i + 1].kind != "positional_only"
        ):
            out.append(_param_text(p))
            out.append("/")
            continue
        if p.kind == "var_positional":
            seen_star = True
            out.append(f"*{p.name}")
            continue
        if p.kind == "keyword_only" and not seen_star:
            seen_star = True
            out.append("*")
        if p.kind == "var_keyword":
            out.append(f"**{p.name}")
            continue
        out.append(_param_text(p))
    return out


def _param_text(p: Param) -> str:
    return p.name if p.default is None else f"{p.name}={p.default}"
