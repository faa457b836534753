"""Write the index of PyTorch's public API that apiscan reads instead of importing torch.

The scanner must name every PyTorch API it sees by its public, canonical name and know its
parameters and coarse return type, yet a scan may never import torch (it is slow, large and
may be absent). So this script introspects the installed torch once and commits the result
as data: ``mapping_data/torch_api/torch-<version>.json``, read by ``apiscan.resolve.torch_api``.

What "public" means follows PyTorch's own convention (``test/test_public_bindings.py``): a
module is public when no segment of its dotted path starts with ``_``; an attribute of a public
module is public when its name has no leading ``_`` and the object is defined by torch (not a
foreign object such as ``math`` or ``typing.Optional`` merely imported there).

Every object reachable under several public paths gets ONE canonical name, chosen
deterministically (see ``make_rank``); every other importable path becomes an alias of it.

Usage: ``python scripts/gen_torch_api.py`` writes the file; ``--check`` regenerates it in
memory and exits 1 when the committed file differs (CI runs this); ``--stats`` prints counts.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import importlib
import inspect
import io
import json
import pkgutil
import re
import sys
import textwrap
import types
import typing
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_static_api import params as ast_params  # a sibling script: one signature reader

FORMAT_VERSION = 1
ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "mapping_data" / "torch_api"

# The namespaces users are meant to spell: a canonical name is taken from these first.
# The brief's list plus the other modules PyTorch documents as public API.
PRIMARY_NAMESPACES: tuple[str, ...] = (
    "torch",
    "torch.accelerator",
    "torch.amp",
    "torch.ao.nn.quantized",
    "torch.ao.quantization",
    "torch.autograd",
    "torch.autograd.forward_ad",
    "torch.autograd.functional",
    "torch.autograd.grad_mode",
    "torch.autograd.graph",
    "torch.autograd.profiler",
    "torch.backends",
    "torch.compiler",
    "torch.cpu",
    "torch.cpu.amp",
    "torch.cuda",
    "torch.cuda.amp",
    "torch.distributed",
    "torch.distributed.checkpoint",
    "torch.distributed.fsdp",
    "torch.distributed.optim",
    "torch.distributed.rpc",
    "torch.distributed.tensor",
    "torch.distributions",
    "torch.distributions.constraints",
    "torch.distributions.transforms",
    "torch.export",
    "torch.fft",
    "torch.func",
    "torch.futures",
    "torch.fx",
    "torch.hub",
    "torch.jit",
    "torch.library",
    "torch.linalg",
    "torch.masked",
    "torch.monitor",
    "torch.mps",
    "torch.mtia",
    "torch.multiprocessing",
    "torch.nested",
    "torch.nn",
    "torch.nn.attention",
    "torch.nn.attention.flex_attention",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.parallel",
    "torch.nn.utils",
    "torch.nn.utils.parametrizations",
    "torch.nn.utils.parametrize",
    "torch.nn.utils.prune",
    "torch.nn.utils.rnn",
    "torch.nn.utils.spectral_norm",
    "torch.nn.utils.stateless",
    "torch.onnx",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.optim.swa_utils",
    "torch.overrides",
    "torch.package",
    "torch.profiler",
    "torch.random",
    "torch.signal.windows",
    "torch.sparse",
    "torch.special",
    "torch.testing",
    "torch.utils",
    "torch.utils.benchmark",
    "torch.utils.checkpoint",
    "torch.utils.cpp_extension",
    "torch.utils.data",
    "torch.utils.data.distributed",
    "torch.utils.dlpack",
    "torch.utils.hooks",
    "torch.utils.model_zoo",
    "torch.utils.tensorboard",
    "torch.xpu",
)
# Every direct child of these is primary too (torch.backends.cudnn, torch.backends.mps, ...).
PRIMARY_PARENTS: tuple[str, ...] = ("torch.backends",)

# The classes the scanner infers receivers for (`x.view(...)` on a tensor, `m.cuda()` on a module).
OWNER_ROOTS: tuple[type, ...] = (
    torch.Tensor,
    torch.nn.Module,
    torch.optim.Optimizer,
    torch.optim.lr_scheduler.LRScheduler,
    torch.amp.GradScaler,
    torch.utils.data.Dataset,
    torch.utils.data.DataLoader,
)

CONSTANT_TYPES: tuple[type, ...] = (
    torch.dtype,
    torch.layout,
    torch.memory_format,
    torch.device,
    torch.qscheme,
)
# The metaclass of torch.FloatTensor, torch.cuda.LongTensor, ...: legacy constructors of Tensor.
LEGACY_TENSOR_TYPE: type = type(torch.FloatTensor)
LITERAL_TYPES: tuple[type, ...] = (bool, int, float, complex, str, bytes, type(None))
PARAM_KINDS: dict[inspect._ParameterKind, str] = {
    inspect.Parameter.POSITIONAL_ONLY: "pos_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "pos_or_kw",
    inspect.Parameter.KEYWORD_ONLY: "kw_only",
    inspect.Parameter.VAR_POSITIONAL: "var_pos",
    inspect.Parameter.VAR_KEYWORD: "var_kw",
}
METHOD_TYPES: tuple[type, ...] = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.ClassMethodDescriptorType,
    staticmethod,
    classmethod,
)
PROPERTY_TYPES: tuple[type, ...] = (
    property,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
)
# What Python's data model fixes as the result of these special methods, whatever the class.
DATA_MODEL_RETURNS: dict[str, str] = {
    "__bool__": "bool",
    "__contains__": "bool",
    "__float__": "float",
    "__hash__": "int",
    "__index__": "int",
    "__int__": "int",
    "__len__": "int",
}
# Doc-line shape of torch's C functions: `name(params) -> returns` (returns optional).
DOC_NAME = re.compile(r"^(?:[\w.]+\.)?(?P<name>\w+)\(")
DOC_RETURNS = re.compile(r"^\s*(?:->\s*(?P<ret>.+))?$")
DOC_PARAM = re.compile(
    r"^(?P<stars>\*{0,2})(?P<name>[A-Za-z_]\w*)\s*(?::\s*(?P<ann>[^=]+?))?\s*(?P<default>=.*)?$"
)
# Prose that names a property's result in torch's attribute docstrings.
PROSE_BOOL = re.compile(r"^(?:Is ``True`` if|Returns True if)")
PROSE_TENSOR = re.compile(r"^Returns a (?:view of|new [Tt]ensor)")
# A docstring line that only points at the function it mirrors (Tensor.split → torch.split).
SEE_ALSO = re.compile(r"^\s*See :func:`~?(?P<target>torch\.[\w.]+)`\.?\s*$", re.MULTILINE)
PROSE_ALIAS = re.compile(
    r"^(?:Alias for|Accessing this property is equivalent to calling) "
    r":(?:meth|attr|func):`~?(?:[\w.]*\.)?(?P<target>\w+)(?:\(\))?`"
)


def public_path(path: str) -> bool:
    """A dotted path is public when none of its segments starts with an underscore."""
    return not any(part.startswith("_") for part in path.split("."))


def torch_module_name(name: object) -> bool:
    return isinstance(name, str) and (name == "torch" or name.startswith("torch."))


def defined_by_torch(obj: object) -> bool:
    """True for functions and classes torch defines (incl. C builtins bound to torch._C)."""
    if torch_module_name(getattr(obj, "__module__", None)):
        return True
    owner = getattr(obj, "__self__", None)
    if isinstance(owner, types.ModuleType):
        return torch_module_name(owner.__name__)
    return owner is not None and torch_module_name(getattr(type(owner), "__module__", None))


@dataclass
class Sighting:
    """One importable public path (module.attr) under which an object was seen."""

    path: str
    parent: str
    kind: str
    obj: object


@dataclass
class Index:
    """Everything the JSON file holds, built up while walking torch."""

    names: dict[str, dict[str, object]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    bases: dict[str, list[str]] = field(default_factory=dict)
    stars: dict[str, list[str]] = field(default_factory=dict)
    modules: list[str] = field(default_factory=list)
    owner_roots: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    #: failed modules whose public names were read from their source instead (module → count)
    static: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Signatures and return types


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split on `sep` outside brackets and quotes (defaults like `size=(1, 1)`)."""
    parts: list[str] = []
    depth = 0
    quote = ""
    start = position = 0
    while position < len(text):
        char = text[position]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, position):
            parts.append(text[start:position].strip())
            position += len(sep)
            start = position
            continue
        position += 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def params_from_doc_line(text: str) -> list[list[object]] | None:
    """Parse `a, b=1, *, c=None` from a docstring signature; None when any token is odd."""
    params: list[list[object]] = []
    keyword_only = False
    for token in split_top_level(text):
        if token == "*":
            keyword_only = True
            continue
        if token == "/":
            for param in params:
                param[1] = "pos_only"
            continue
        match = DOC_PARAM.match(token)
        if match is None:
            return None
        stars = match["stars"]
        if stars == "*":
            params.append([match["name"], "var_pos", False])
            keyword_only = True
        elif stars == "**":
            params.append([match["name"], "var_kw", False])
        else:
            kind = "kw_only" if keyword_only else "pos_or_kw"
            params.append([match["name"], kind, match["default"] is not None])
    return params


def docstring(obj: object) -> str:
    doc = getattr(obj, "__doc__", None)
    return doc if isinstance(doc, str) else ""


def doc_signature(obj: object, name: str) -> tuple[list[list[object]] | None, str | None] | None:
    """(params, return text) from a docstring whose first line is `name(...) -> ret`."""
    first = docstring(obj).strip().split("\n", 1)[0].strip()
    match = DOC_NAME.match(first)
    if match is None:
        return None
    close = closing_bracket(first, match.end() - 1)
    tail = DOC_RETURNS.match(first[close + 1 :]) if close is not None else None
    if close is None or tail is None:
        return None
    ret = tail["ret"].strip() if tail["ret"] else None
    # An alias documents its target (Tensor.less: `lt(other) -> Tensor`); without the
    # `-> ret` of a signature line, a call in prose (`Example(...)`) is no signature.
    if match["name"] != name and ret is None:
        return None
    return params_from_doc_line(first[match.end() : close]), ret


def closing_bracket(text: str, start: int) -> int | None:
    """Index of the `)` matching the `(` at `start` (defaults may hold brackets)."""
    depth = 0
    for position in range(start, len(text)):
        if text[position] in "([{":
            depth += 1
        elif text[position] in ")]}":
            depth -= 1
            if depth == 0:
                return position
    return None


def annotation_text(annotation: object, owner: type | None) -> str | None:
    """Readable text of a return annotation; TypeVars and Self resolve to what they stand for."""
    if annotation is inspect.Signature.empty:
        return None
    if annotation is typing.Self and owner is not None:
        return owner.__name__
    if isinstance(annotation, typing.TypeVar):
        bound = annotation.__bound__
        return annotation_text(bound, owner) if bound is not None else None
    if isinstance(annotation, typing.ForwardRef):
        return annotation.__forward_arg__
    text = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
    text = re.sub(r"ForwardRef\('([^']*)'\)", r"\1", text)
    text = re.sub(r"\b(?:typing_extensions|typing|collections\.abc|builtins)\.", "", text)
    if " at 0x" in text or "<" in text:
        return None
    return text


class ReturnClassifier:
    """Maps return text (`Tensor`, `(Tensor, LongTensor)`, `List of Tensors`) to a coarse kind."""

    def __init__(self, module_class_names: frozenset[str]) -> None:
        self.module_class_names = module_class_names

    def __call__(self, text: str | None) -> str | None:
        if text is None:
            return None
        text = text.strip().replace('"', "").replace("'", "")
        text = re.sub(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", text)  # torch.Size -> Size
        alternatives = self._alternatives(text)
        # Docs list the common form first (`torch.Size or int`), so it decides a mix.
        return self(alternatives[0]) if len(alternatives) > 1 else self._single(alternatives[0])

    @staticmethod
    def _alternatives(text: str) -> list[str]:
        union = re.fullmatch(r"(?:Union|Optional)\[(.*)\]", text)
        if union:
            parts = split_top_level(union[1])
        elif len(split_top_level(text, " or ")) > 1:  # `Tensor or (Tensor, Tensor)`
            parts = split_top_level(text, " or ")
        else:
            parts = split_top_level(text, "|")
        return [part for part in parts if part not in ("None", "NoneType")] or ["None"]

    def _single(self, text: str) -> str | None:
        sequence = re.fullmatch(r"(?:Tuple|tuple|List|list|Sequence)\[(.*)\]|\((.*)\)", text)
        if sequence:
            items = split_top_level(sequence[1] or sequence[2] or "")
            kinds = {self(item) for item in items if item != "..."}
            return "tensors" if kinds == {"tensor"} else "other"
        if re.fullmatch(r"(?:(?:list|List|tuple|sequence) of )?Tensors|\w+ of Tensors", text):
            return "tensors"
        if re.fullmatch(r"\w*Tensor|Parameter|Buffer|Tensor\(\w*!?\)", text):
            return "tensor"
        if text in self.module_class_names:
            return "module"
        simple = {
            "Size": "size",
            "bool": "bool",
            "_bool": "bool",
            "int": "int",
            "_int": "int",
            "SymInt": "int",
            "float": "float",
            "_float": "float",
            "Any": None,
            "object": None,
        }
        if text in simple:
            return simple[text]
        if re.fullmatch(r"(?:TypeIs|TypeGuard)\[.*\]", text):
            return "bool"
        return "other"


def class_returns(cls: type) -> str:
    """What calling a class gives, in the same coarse terms as function returns."""
    if issubclass(cls, torch.nn.Module):
        return "module"
    if issubclass(cls, torch.Tensor) or isinstance(cls, LEGACY_TENSOR_TYPE):
        return "tensor"
    if issubclass(cls, torch.Size):
        return "size"
    return "other"


def signature_of(obj: object) -> inspect.Signature | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return inspect.signature(obj)  # type: ignore[arg-type]
    except (ValueError, TypeError, RuntimeError, NameError, AttributeError):
        return None


def params_of(signature: inspect.Signature, drop_first: bool) -> list[list[object]]:
    params = list(signature.parameters.values())
    if (
        drop_first
        and params
        and params[0].kind
        in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        )
    ):
        params = params[1:]
    return [[p.name, PARAM_KINDS[p.kind], p.default is not inspect.Parameter.empty] for p in params]


def overload_return(func: object, owner: type | None) -> str | None:
    """The return text all `@overload`s agree on, for implementations left unannotated."""
    try:
        overloads = typing.get_overloads(func)  # type: ignore[arg-type]
    except (TypeError, AttributeError):
        return None
    texts = set()
    for overload in overloads:
        signature = signature_of(overload)
        if signature is None:
            return None
        texts.add(annotation_text(signature.return_annotation, owner))
    return texts.pop() if len(texts) == 1 else None


def callable_entry(
    obj: object, name: str, drop_first: bool, owner: type | None
) -> tuple[list[list[object]] | None, str | None]:
    """(params, return text) of a function or method, from inspect or from the doc line."""
    target = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    signature = signature_of(target)
    params: list[list[object]] | None = None
    ret: str | None = None
    if signature is not None:
        params = params_of(signature, drop_first)
        ret = annotation_text(signature.return_annotation, owner)
        if ret is None:
            ret = overload_return(target, owner)
    from_doc = doc_signature(target, name)
    if from_doc is not None:
        doc_params, doc_ret = from_doc
        if params is None:
            params = doc_params
        ret = ret or doc_ret
    return params, ret


_INSTANCE_ATTRIBUTES: dict[type, dict[str, str | None]] = {}


def instance_attributes(klass: type) -> dict[str, str | None]:
    """Public instance attributes a class declares, with their annotation text: class-level
    annotations (`training: bool`) and `self.x = ...` in its own `__init__`
    (Optimizer.param_groups, LRScheduler.last_epoch), which no class `__dict__` shows."""
    found = _INSTANCE_ATTRIBUTES.get(klass)
    if found is not None:
        return found
    found = {}
    init = vars(klass).get("__init__")
    if isinstance(init, types.FunctionType):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
        except (OSError, TypeError, SyntaxError):
            tree = ast.Module(body=[], type_ignores=[])
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            annotation: ast.expr | None = None
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets, annotation = [node.target], node.annotation
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and not target.attr.startswith("_")
                ):
                    text = ast.unparse(annotation) if annotation is not None else None
                    found[target.attr] = found.get(target.attr) or text
    annotations = vars(klass).get("__annotations__", {})
    if isinstance(annotations, dict):
        for name, value in annotations.items():
            if isinstance(name, str) and not name.startswith("_"):
                found[name] = annotation_text(value, klass)
    _INSTANCE_ATTRIBUTES[klass] = found
    return found


# ---------------------------------------------------------------------------------------------
# Walking modules


def quietly(action: Callable[[], object]) -> object:
    """Run an import or getattr with torch's deprecation warnings and prints silenced."""
    with (
        warnings.catch_warnings(),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        warnings.simplefilter("ignore")
        return action()


def module_names() -> list[str]:
    """Every public-path module under torch, found on disk (sorted for determinism).

    pkgutil.walk_packages would import every package to look inside, private ones included;
    importing torch._dynamo that way wraps torch.manual_seed and splits it from
    torch.random.manual_seed. Listing directories imports nothing."""
    found = {"torch", *PRIMARY_NAMESPACES}
    pending = [("torch", list(torch.__path__))]
    while pending:
        package, paths = pending.pop()
        for info in pkgutil.iter_modules(paths, package + "."):
            if not public_path(info.name):
                continue
            found.add(info.name)
            finder_path = getattr(info.module_finder, "path", None)
            if info.ispkg and isinstance(finder_path, str):
                pending.append((info.name, [str(Path(finder_path) / info.name.rsplit(".", 1)[1])]))
    return sorted(found)


def import_modules(names: Iterable[str], index: Index) -> dict[str, types.ModuleType]:
    modules: dict[str, types.ModuleType] = {}
    for name in names:
        try:
            module = quietly(lambda name=name: importlib.import_module(name))  # type: ignore[misc]
        except BaseException as error:  # any failure is data, e.g. SystemExit
            index.failed[name] = f"{type(error).__name__}: {error}".splitlines()[0][:200]
            continue
        modules[name] = typing.cast(types.ModuleType, module)
    return modules


def attribute_names(module: types.ModuleType) -> list[str]:
    """Names a module offers, including properties of torch's module subclasses (cudnn) and
    lazy names listed only in ``__all__`` (torch.utils.cpp_extension.BuildExtension is loaded
    by a module ``__getattr__`` and missing from ``dir()`` until first touched)."""
    names = set(dir(module))
    exported = getattr(module, "__all__", None)
    if isinstance(exported, (list, tuple)):
        names.update(name for name in exported if isinstance(name, str))
    if type(module) is not types.ModuleType:
        names.update(vars(type(module)))
        wrapped = vars(module).get("m")  # torch.backends.PropModule keeps the real module here
        if isinstance(wrapped, types.ModuleType):
            names.update(dir(wrapped))
    return sorted(name for name in names if not name.startswith("_"))


def classify_value(value: object, name: str, module: types.ModuleType) -> str | None:
    """The kind of a module attribute, or None when it is not torch's public API."""
    if isinstance(value, types.ModuleType):
        return "module" if torch_module_name(value.__name__) else None
    if isinstance(value, type):
        return "class" if defined_by_torch(value) else None
    if isinstance(value, CONSTANT_TYPES):
        return "constant"
    if isinstance(value, LITERAL_TYPES):
        exported = getattr(module, "__all__", None)
        return "constant" if exported is not None and name in exported else None
    if isinstance(value, METHOD_TYPES) or callable(value):
        if defined_by_torch(value):
            return "function"
    elif torch_module_name(type(value).__module__):
        return "attribute"
    # An object torch did not define is still its API when a module exports it by name, or
    # re-exports it from torch's own modules (torch.jit.Final is typing.Final, imported from
    # torch._jit_internal; typing.Optional imported from typing is no torch API).
    exported = getattr(module, "__all__", None)
    if (isinstance(exported, (list, tuple)) and name in exported) or (
        module.__name__ in PRIMARY_NAMESPACES
        and name in torch_reexports(getattr(module, "__file__", None))
    ):
        return "class" if isinstance(value, type) else "attribute"
    return None


@functools.cache
def torch_reexports(path: str | None) -> frozenset[str]:
    """Names a module's source imports from torch modules (`from torch._x import Final`)."""
    if not path or not path.endswith(".py"):
        return frozenset()
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return frozenset()
    return frozenset(
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.level or torch_module_name(node.module))
        for alias in node.names
        if not (alias.asname or alias.name).startswith("_")
    )


def sightings_of(name: str, module: types.ModuleType, index: Index) -> Iterator[Sighting]:
    listed = set(dir(module))
    for attr in attribute_names(module):
        path = f"{name}.{attr}"
        try:
            value = inspect.getattr_static(module, attr)
        except AttributeError:
            try:
                value = quietly(lambda attr=attr: getattr(module, attr))  # type: ignore[misc]
            except Exception as error:  # lazy attributes may fail in any way
                if attr in listed:  # a wrapped module's own names may simply be hidden
                    index.failed[path] = f"{type(error).__name__}: {error}".splitlines()[0][:200]
                continue
        if isinstance(value, property) or type(value).__name__ == "ContextProp":
            yield Sighting(path, name, "attribute", value)
            continue
        kind = classify_value(value, attr, module)
        if kind is not None:
            yield Sighting(path, name, kind, value)


def group_key(sighting: Sighting) -> tuple[object, ...]:
    """Sightings with one key are one API. Constants group by object AND name: torch.float and
    torch.float32 are the same dtype object but both are documented spellings."""
    obj = sighting.obj
    if sighting.kind == "module":
        return ("module", typing.cast(types.ModuleType, obj).__name__)
    if sighting.kind == "class":
        return ("object", id(obj))
    if sighting.kind == "function":
        inner = unwrapped(obj)
        same_name = getattr(inner, "__name__", None) == sighting.path.rpartition(".")[2]
        return ("object", id(inner if same_name else obj))
    if isinstance(obj, (*LITERAL_TYPES, property)):
        return ("path", sighting.path)
    return ("value", id(obj), sighting.path.rsplit(".", 1)[1])


def unwrapped(func: object) -> object:
    """The function under `functools.wraps` layers: importing torch._dynamo rebinds
    torch.manual_seed to a wrapper that is still torch.random.manual_seed. Only a wrapper
    bound under the wrapped function's own name counts as the same API: a deprecated
    spelling (torch.accelerator.current_device_idx) wraps its successor but stays apart."""
    try:
        return inspect.unwrap(func)  # type: ignore[arg-type]
    except (ValueError, TypeError, AttributeError):
        return func


def make_rank(primary: frozenset[str]) -> Callable[[Sighting], tuple[object, ...]]:
    """Order candidate paths of one object; the smallest is its canonical name.

    1. a primary namespace over any other module (torch.nn.Conv2d over torch.nn.modules.Conv2d);
    2. a namespace that contains the defining module (torch.optim.lr_scheduler.LRScheduler over
       the import of it in torch.optim.swa_utils; torch.ao.nn.quantized over the deprecated
       torch.nn.quantized re-export);
    3. the shortest path (torch.no_grad over torch.autograd.no_grad), then the text itself.
    """

    def rank(sighting: Sighting) -> tuple[object, ...]:
        home = getattr(sighting.obj, "__module__", None)
        inside = isinstance(home, str) and (
            home == sighting.parent or home.startswith(sighting.parent + ".")
        )
        return (
            0 if sighting.parent in primary else 1,
            0 if inside else 1,
            sighting.path.count("."),
            len(sighting.path),
            sighting.path,
        )

    return rank


# ---------------------------------------------------------------------------------------------
# Building the index


class Builder:
    def __init__(self) -> None:
        self.index = Index()
        self.class_names: dict[int, str] = {}
        self.classes: dict[str, type] = {}
        self.tabled: list[str] = []  # classes whose members are listed: those in primary namespaces
        self.docs: dict[str, str] = {}  # docstrings of functions and members, for derive_returns
        self.returns = ReturnClassifier(frozenset({torch.nn.Module.__name__}))

    def build(self) -> Index:
        modules = import_modules(module_names(), self.index)
        self.index.modules = sorted(modules)
        primary = frozenset(
            name
            for name in modules
            if name in PRIMARY_NAMESPACES
            or any(name.rsplit(".", 1)[0] == parent for parent in PRIMARY_PARENTS)
        )
        groups: dict[tuple[object, ...], list[Sighting]] = defaultdict(list)
        for name, module in modules.items():
            for sighting in sightings_of(name, module, self.index):
                groups[group_key(sighting)].append(sighting)
        # `torch` is no module's attribute, yet `import torch` in torch's modules makes paths
        # such as torch.nn.functional.torch: seeing the root itself names that group.
        groups[("module", "torch")].append(Sighting("torch", "", "module", torch))
        rank = make_rank(primary)
        canonical_of: dict[str, str] = {}
        for key, sightings in groups.items():
            canonical = self.choose(key, sightings, rank)
            if canonical is None:
                continue
            for sighting in sightings:
                canonical_of[sighting.path] = canonical.path
            if canonical.kind == "class":
                cls = typing.cast(type, canonical.obj)
                self.class_names[id(cls)] = canonical.path
                self.classes[canonical.path] = cls
                if canonical.parent in primary:
                    self.tabled.append(canonical.path)
        self.tabled.sort()
        self.returns = ReturnClassifier(
            frozenset(c.__name__ for c in self.classes.values() if issubclass(c, torch.nn.Module))
        )
        for sightings in groups.values():
            canonical_path = canonical_of.get(sightings[0].path)
            if canonical_path is None:
                continue
            for sighting in sightings:
                if sighting.path == canonical_path:
                    self.index.names[sighting.path] = self.entry(sighting)
                    self.docs[sighting.path] = docstring(sighting.obj)
                else:
                    self.index.aliases[sighting.path] = canonical_path
        for path in self.tabled:
            self.add_members(path, self.classes[path])
        self.derive_returns()
        self.index.stars = self.star_exports(modules)
        for name in sorted(self.index.failed):
            if name in self.index.failed and public_path(name) and "." in name:
                StaticModule.add(name, self.index)
        self.index.modules = sorted({*self.index.modules, *self.index.static})
        self.index.owner_roots = [self.class_names[id(cls)] for cls in OWNER_ROOTS]
        self.verify_members()
        return self.index

    def choose(
        self,
        key: tuple[object, ...],
        sightings: list[Sighting],
        rank: Callable[[Sighting], tuple[object, ...]],
    ) -> Sighting | None:
        """The canonical sighting of a group; a module is only ever named by its own name."""
        if key[0] == "module":
            own = [s for s in sightings if s.path == key[1]]
            return own[0] if own and public_path(own[0].path) else None
        return min(sightings, key=rank)

    def entry(self, sighting: Sighting) -> dict[str, object]:
        entry: dict[str, object] = {"k": sighting.kind}
        name = sighting.path.rpartition(".")[2]
        if sighting.kind == "function":
            params, ret = callable_entry(sighting.obj, name, drop_first=False, owner=None)
            self.put_signature(entry, params, ret)
        elif sighting.kind == "class":
            cls = typing.cast(type, sighting.obj)
            signature = signature_of(cls)
            if signature is not None:
                entry["p"] = params_of(signature, drop_first=False)
            else:
                from_doc = doc_signature(cls, cls.__name__)
                if from_doc is not None and from_doc[0] is not None:
                    entry["p"] = from_doc[0]
            entry["r"] = class_returns(cls)
        return entry

    def put_signature(
        self, entry: dict[str, object], params: list[list[object]] | None, ret: str | None
    ) -> None:
        if params is not None:
            entry["p"] = params
        if ret is not None:
            entry["t"] = ret
        kind = self.returns(ret)
        if kind is not None:
            entry["r"] = kind

    # -- class members -----------------------------------------------------------------------

    def public_class(self, cls: type) -> str | None:
        return self.class_names.get(id(cls))

    def member_owner(self, cls: type, attr: str) -> tuple[str, type, object] | None:
        """(owning public class, defining class, raw value) of `cls.attr`, walking the MRO.

        A member defined by a private base (_ConvNd.reset_parameters, TensorBase.add) belongs
        to the last public class before that base: torch.nn.Conv2d, torch.Tensor."""
        for position, klass in enumerate(cls.__mro__):
            declared = vars(klass)
            if attr in declared or attr in instance_attributes(klass):
                if klass is object or not (
                    torch_module_name(klass.__module__) or klass.__module__ == "builtins"
                ):
                    return None
                # Only a subclass of the definer inherits from it (not a sibling in a diamond).
                heirs = [
                    name
                    for heir in cls.__mro__[: position + 1]
                    if klass in heir.__mro__ and (name := self.public_class(heir)) is not None
                ]
                raw = declared.get(attr, inspect.Parameter.empty)
                return (heirs[-1], klass, raw) if heirs else None
        return None

    @staticmethod
    def member_names(cls: type) -> list[str]:
        names = set(dir(cls))
        for klass in cls.__mro__:
            names.update(instance_attributes(klass))
        dunder = re.compile(r"^__\w+__$")
        return sorted(
            name
            for name in names
            if not name.startswith("_") or (dunder.match(name) and name not in ("__class__",))
        )

    def add_members(self, path: str, cls: type) -> None:
        if isinstance(cls, LEGACY_TENSOR_TYPE):
            # torch.FloatTensor(...) makes a torch.Tensor: its members are Tensor's.
            self.index.bases[path] = [self.class_names[id(torch.Tensor)]]
            return
        bases = [
            name for klass in cls.__mro__[1:] if (name := self.public_class(klass)) is not None
        ]
        if bases:
            self.index.bases[path] = bases
        meta = type(cls)
        if meta is not type and torch_module_name(meta.__module__):
            # Class-level properties of a torch metaclass: torch.distributed.group.WORLD.
            for attr, raw in sorted(vars(meta).items()):
                if not attr.startswith("_") and isinstance(raw, property):
                    self.index.names.setdefault(f"{path}.{attr}", {"k": "attribute"})
        for attr in self.member_names(cls):
            found = self.member_owner(cls, attr)
            if found is None:
                continue
            owner, klass, raw = found
            member_path = f"{owner}.{attr}"
            if member_path in self.index.names:
                continue
            entry = self.member_entry(attr, klass, raw)
            if entry is not None:
                self.index.names[member_path] = entry
                self.docs[member_path] = docstring(raw)

    def member_entry(self, attr: str, klass: type, raw: object) -> dict[str, object] | None:
        dunder = attr.startswith("__")
        if raw is inspect.Parameter.empty:  # an instance attribute (Module.training)
            if dunder:
                return None
            entry: dict[str, object] = {"k": "attribute"}
            self.put_signature(entry, None, instance_attributes(klass)[attr])
            return entry
        if isinstance(raw, METHOD_TYPES) or (callable(raw) and not isinstance(raw, type)):
            drop_first = not isinstance(raw, staticmethod) and not isinstance(
                raw, types.BuiltinFunctionType
            )
            params, ret = callable_entry(raw, attr, drop_first, klass)
            entry = {"k": "method"}
            self.put_signature(entry, params, ret)
            if "r" not in entry and attr in DATA_MODEL_RETURNS:
                entry["r"] = DATA_MODEL_RETURNS[attr]
            return entry
        if dunder:
            return None
        if isinstance(raw, type):
            return {"k": "class", "r": class_returns(raw)}
        if isinstance(raw, (*PROPERTY_TYPES, functools.cached_property)):
            entry = {"k": "property"}
            self.put_signature(entry, None, self.property_return(raw, attr, klass))
            return entry
        return {"k": "attribute"}

    def property_return(self, raw: object, attr: str, klass: type) -> str | None:
        getter = getattr(raw, "fget", None) or getattr(raw, "func", None)
        if getter is not None:
            signature = signature_of(getter)
            if signature is not None:
                text = annotation_text(signature.return_annotation, klass)
                if text is not None:
                    return text
        from_doc = doc_signature(raw, attr)
        if from_doc is not None and from_doc[1] is not None:
            return from_doc[1]
        return None

    def derive_returns(self) -> None:
        """Fill unknown returns from what the docs and conventions say, in order:

        - prose: `Is ``True`` if ...` → bool; `Returns a view of / a new tensor` → tensor;
          `Alias for :meth:`dim`` → what `dim` returns;
        - `See :func:`torch.split`` → what torch.split returns (Tensor.split);
        - `__add__`, `__radd__`, `__iadd__` → what `add` returns on the same class;
        - a trailing-underscore method of a Tensor or Module works in place and returns self.
        """
        for path, entry in self.index.names.items():
            if "r" in entry or entry["k"] not in ("function", "method", "property"):
                continue
            owner, _, attr = path.rpartition(".")
            kind = self.doc_returns(owner, self.docs.get(path, ""))
            if kind is None and entry["k"] == "method":
                kind = self.convention_returns(owner, attr)
            if kind is not None:
                entry["r"] = kind

    def doc_returns(self, owner: str, doc: str) -> str | None:
        text = doc.strip()
        if PROSE_BOOL.match(text):
            return "bool"
        if PROSE_TENSOR.match(text):
            return "tensor"
        alias = PROSE_ALIAS.match(text)
        see = SEE_ALSO.search(doc)
        spelled = f"{owner}.{alias['target']}" if alias else see["target"] if see else None
        if spelled is None:
            return None
        target = self.index.names.get(self.index.aliases.get(spelled, spelled))
        return None if target is None else typing.cast("str | None", target.get("r"))

    def convention_returns(self, owner: str, attr: str) -> str | None:
        if re.fullmatch(r"__\w+__", attr):
            stem = attr[2:-2]
            for candidate in (stem, stem[1:]):
                target = self.index.names.get(f"{owner}.{candidate}")
                if target is not None and target["k"] == "method" and "r" in target:
                    return typing.cast(str, target["r"])
            return None
        cls = self.classes.get(owner)
        in_place = attr.endswith("_") and not attr.startswith("_")
        if in_place and cls is not None and issubclass(cls, (torch.Tensor, torch.nn.Module)):
            return class_returns(cls)
        return None

    def verify_members(self) -> None:
        """The file stores each member once, on its owner; prove lookup through `bases`
        reproduces the full MRO walk for every class, or fail loudly."""
        for path in self.tabled:
            cls = self.classes[path]
            if isinstance(cls, LEGACY_TENSOR_TYPE):
                continue
            chain = [path, *self.index.bases.get(path, [])]
            for attr in self.member_names(cls):
                found = self.member_owner(cls, attr)
                expected = f"{found[0]}.{attr}" if found is not None else None
                if expected is not None and expected not in self.index.names:
                    expected = None
                looked_up = next(
                    (f"{c}.{attr}" for c in chain if f"{c}.{attr}" in self.index.names), None
                )
                if looked_up != expected:
                    raise AssertionError(f"{path}.{attr}: lookup {looked_up} != {expected}")

    def star_exports(self, modules: dict[str, types.ModuleType]) -> dict[str, list[str]]:
        """Local names `from M import *` binds that are torch APIs (with a canonical name)."""
        stars: dict[str, list[str]] = {}
        for name, module in modules.items():
            exported = getattr(module, "__all__", None)
            if not isinstance(exported, (list, tuple)):
                exported = [n for n in vars(module) if not n.startswith("_")]
            known = (self.index.names, self.index.aliases)
            bound = sorted(
                {
                    attr
                    for attr in exported
                    if isinstance(attr, str) and any(f"{name}.{attr}" in table for table in known)
                }
            )
            if bound:
                stars[name] = bound
        return stars


# ---------------------------------------------------------------------------------------------
# Modules that cannot be imported here


class StaticModule:
    """Public names of a torch module whose import fails here, read from its source as data.

    torch.utils.tensorboard needs the tensorboard package, absent on the machine that
    generates the index; silently dropping the module made ``SummaryWriter`` "unknown". Its
    ``__all__`` (or, without one, its public top-level definitions) is read with ``ast``;
    each name is followed through relative ``from .x import y`` into the defining file to learn
    whether it is a class (with its public methods and their parameters) or a function.
    Returns are unknown (no object to ask); the failure itself stays listed in ``failed``.
    """

    def __init__(self, name: str, tree: ast.Module) -> None:
        self.name = name
        self.tree = tree
        self.is_package = False
        self.defs = {
            node.name: node
            for node in tree.body
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        }

    @classmethod
    def load(cls, name: str) -> StaticModule | None:
        """The module's source, found on disk under torch's directory (importing anything
        would fail: a parent package may be the module whose import failed)."""
        base = Path(torch.__file__).parent.joinpath(*name.split(".")[1:])
        for candidate, is_package in (
            (base / "__init__.py", True),
            (base.with_suffix(".py"), False),
        ):
            if candidate.is_file():
                try:
                    tree = ast.parse(candidate.read_text(encoding="utf-8"))
                except (OSError, SyntaxError, UnicodeDecodeError):
                    return None
                module = cls(name, tree)
                module.is_package = is_package
                return module
        return None

    def exported(self) -> list[str]:
        for node in self.tree.body:
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
                and isinstance(node.value, (ast.List, ast.Tuple))
            ):
                return [
                    e.value
                    for e in node.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
        return sorted(n for n in self.defs if not n.startswith("_"))

    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]

    def definition(self, attr: str, depth: int = 0) -> tuple[str, ast.AST] | None:
        """(defining module, def node) of `attr`, following relative imports."""
        if attr in self.defs:
            return self.name, self.defs[attr]
        if depth > 3:
            return None
        for node in self.tree.body:
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            for alias in node.names:
                if (alias.asname or alias.name) != attr:
                    continue
                base = self.package()
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
                other = StaticModule.load(source)
                if other is not None:
                    return other.definition(alias.name, depth + 1)
        return None

    #: One reading of an ``ast`` signature for both generators (gen_static_api.py).
    params = staticmethod(ast_params)

    @classmethod
    def add(cls, name: str, index: Index) -> None:
        module = cls.load(name)
        if module is None:
            return
        count = 0
        for attr in module.exported():
            found = module.definition(attr)
            path = f"{name}.{attr}"
            if path in index.names or path in index.aliases:
                continue
            home = f"{found[0]}.{attr}" if found else path
            if home != path and home in index.names:
                index.aliases[path] = home  # the submodule was read first
                continue
            node = found[1] if found else None
            if isinstance(node, ast.ClassDef):
                init = next(
                    (
                        n
                        for n in node.body
                        if isinstance(n, ast.FunctionDef) and n.name == "__init__"
                    ),
                    None,
                )
                entry: dict[str, object] = {"k": "class", "r": "other"}
                if init is not None:
                    entry["p"] = cls.params(init, drop_first=True)
                index.names[path] = entry
                for member in node.body:
                    if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                        not member.name.startswith("_")
                    ):
                        index.names.setdefault(
                            f"{path}.{member.name}",
                            {"k": "method", "p": cls.params(member, drop_first=True)},
                        )
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                index.names[path] = {"k": "function", "p": cls.params(node, drop_first=False)}
            else:
                index.names[path] = {"k": "attribute"}
            if home != path and public_path(home):
                index.aliases[home] = path
            count += 1
        if count:
            index.static[name] = count
            index.stars[name] = sorted(module.exported())


# ---------------------------------------------------------------------------------------------
# Output


def render(index: Index) -> str:
    """One entry a line, keys sorted: byte-stable across runs and readable in a diff."""
    version = torch.__version__.split("+", 1)[0]
    meta = {
        "format": FORMAT_VERSION,
        "torch_version": version,
        "torch_build": torch.__version__,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "primary_namespaces": sorted(set(PRIMARY_NAMESPACES) | set(PRIMARY_PARENTS)),
        "primary_parents": sorted(PRIMARY_PARENTS),
        "owner_roots": index.owner_roots,
        "failed": index.failed,
        "static": index.static,
        "counts": {
            "names": len(index.names),
            "aliases": len(index.aliases),
            "modules": len(index.modules),
            "classes_with_bases": len(index.bases),
            "star_modules": len(index.stars),
        },
    }

    def block(key: str, mapping: dict[str, object]) -> str:
        lines = [
            f"{json.dumps(k)}:{json.dumps(mapping[k], separators=(',', ':'), sort_keys=True)}"
            for k in sorted(mapping)
        ]
        return f'"{key}":{{\n' + ",\n".join(lines) + "\n}"

    parts = [
        '"meta":' + json.dumps(meta, sort_keys=True, separators=(",", ":")),
        block("names", dict(index.names)),
        block("aliases", dict(index.aliases)),
        block("bases", dict(index.bases)),
        block("stars", dict(index.stars)),
        '"modules":' + json.dumps(index.modules, separators=(",", ":")),
    ]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--stats", action="store_true", help="print counts after writing")
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated torch names warn on every access
        index = Builder().build()
    text = render(index)
    target = OUT_DIR / f"torch-{torch.__version__.split('+', 1)[0]}.json"
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is stale: run python scripts/gen_torch_api.py", file=sys.stderr)
            return 1
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    if args.stats:
        print_stats(index)
    return 0


def print_stats(index: Index) -> None:
    """Counts for a human: what each namespace offers, how many members and aliases."""
    classes = {name for name, entry in index.names.items() if entry["k"] == "class"}
    members = Counter(
        str(entry["k"]) for name, entry in index.names.items() if name.rpartition(".")[0] in classes
    )
    top_level = Counter(
        str(entry["k"])
        for name, entry in index.names.items()
        if name.rpartition(".")[0] not in classes
    )
    print("names by kind:", dict(sorted(top_level.items())))
    print("class members by kind:", dict(sorted(members.items())), sum(members.values()))
    print("aliases:", len(index.aliases), "modules:", len(index.modules))
    canonical = Counter(name.rpartition(".")[0] for name in index.names)
    spelled = Counter(path.rpartition(".")[0] for path in index.aliases) + canonical
    for namespace in sorted(set(PRIMARY_NAMESPACES) & set(index.modules)):
        print(f"  {namespace}: {canonical[namespace]} canonical, {spelled[namespace]} spellings")
    print("failed:", index.failed)
    print("read statically:", index.static)


if __name__ == "__main__":
    sys.exit(main())
