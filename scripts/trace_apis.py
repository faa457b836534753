"""Run a script of a repository and record, as ground truth, every PyTorch API its lines call.

The static scan guesses the owner of ``x.sum()`` (Tensor? numpy?) from the source alone; this
tracer answers the same question from what really runs, so ``scripts/measure_owners.py`` can
score the guess. Usage, from the project root::

    python scripts/trace_apis.py --root fixtures/tinydet --out trace.jsonl \\
        -- tools/train.py --steps 2

The script runs in this process (``runpy.run_path``, cwd = root, ``sys.argv`` and ``sys.path[0]``
as ``python SCRIPT ARGS`` would set them) under three hooks, because no single hook sees it all:

- ``sys.setprofile`` (and ``threading.setprofile``): ``c_call`` events give builtins called from
  a repository line (Tensor methods, ``torch.cat``, ``F.gelu`` ...); ``call`` events give Python
  functions of the torch package whose *immediate caller* is a repository line. Calls made by
  torch itself are never recorded. A torch class's ``__init__``/``__new__`` called from a
  repository line is the construction of that class (``nn.Conv2d(...)`` → ``torch.nn.Conv2d``).
- a ``TorchFunctionMode``: tensor operators and attributes run in C without a profile event
  (``x @ w``, ``x[i]``, ``x + y``, ``x.shape``). The mode sees them; the repository instruction
  that triggered one names the operator (``BINARY_OP @`` → ``__matmul__``, ``BINARY_SUBSCR`` →
  ``__getitem__``); attribute reads are recorded under the attribute (``torch.Tensor.shape``).
- ``sys.settrace`` with a line tracer in repository frames only: which lines executed, so the
  measure can leave lines that never ran out of precision.

Names: every runtime object is mapped to its public canonical name with
``apiscan.resolve.torch_api`` (the scanner's own index), by the public class of the receiver
(``model.eval()`` on a repository subclass of ``nn.Module`` → ``torch.nn.Module.eval``) or by
object identity in the public namespaces (``torch._C._nn.gelu`` → ``torch.nn.functional.gelu``).
Decorated torch functions are unwrapped through their closure (``SGD.step`` runs inside two
wrappers). A torch object with no public name is kept with ``api`` null and its runtime name.

Python 3.11 hides where a generator is created: a torch generator function
(``model.parameters()``) is recorded at its first resumption, on the line of the repository
frame that resumed it, or that passed it to the torch function resuming it
(``clip_grad_norm_(model.parameters())``). A generator created on one line and first consumed
on another is therefore placed on the consuming line.

Output, JSON lines (``--out``): ``{"record": "api", "path", "line", "api", "raw", "event",
"count"}`` per distinct call (``event``: ``c_call``, ``call``, ``generator`` or ``operator``);
``{"record": "foreign", "path", "line", "name", "count"}`` for methods of non-torch objects
(``numpy.ndarray.transpose``, ``builtins.str.split``), the evidence that a scanner's Tensor
method on that line was a false positive; ``{"record": "executed", "path", "lines"}`` per file.
"""

from __future__ import annotations

import argparse
import dis
import inspect
import json
import os
import runpy
import sys
import threading
import types
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import torch
from torch.overrides import TorchFunctionMode

from apiscan.resolve.torch_api import TorchApi, load_torch_api

TORCH_DIR: Final = os.path.dirname(os.path.realpath(torch.__file__)) + os.sep
CALL_OPS: Final = frozenset({"PRECALL", "CALL", "CALL_FUNCTION_EX", "CALL_KW"})
UNARY_OPS: Final = {
    "UNARY_NEGATIVE": "__neg__",
    "UNARY_POSITIVE": "__pos__",
    "UNARY_INVERT": "__invert__",
    "UNARY_NOT": "__bool__",
}
SUBSCRIPT_OPS: Final = {
    "BINARY_SUBSCR": "__getitem__",
    "BINARY_SLICE": "__getitem__",
    "STORE_SUBSCR": "__setitem__",
    "STORE_SLICE": "__setitem__",
    "DELETE_SUBSCR": "__delitem__",
}
COMPARE_DUNDERS: Final = {
    "<": "__lt__",
    "<=": "__le__",
    "==": "__eq__",
    "!=": "__ne__",
    ">": "__gt__",
    ">=": "__ge__",
}
BINARY_DUNDERS: Final = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "//": "floordiv",
    "%": "mod",
    "**": "pow",
    "@": "matmul",
    "&": "and",
    "|": "or",
    "^": "xor",
    "<<": "lshift",
    ">>": "rshift",
}
WRAPPED_NAMES: Final = ("func", "fn", "f")
# Public torch functions that torch's C++ calls back into by itself: calling a TorchScript
# function runs ``torch.compiler.is_exporting`` with the repository line as its Python caller.
C_CALLBACKS: Final = frozenset({"torch.compiler.is_exporting"})
SCRIPTS_DIR: Final = os.path.dirname(os.path.realpath(__file__)) + os.sep
_UNSEEN: Final = object()

Resolved = tuple[str | None, str]
"""(public canonical name or None, the runtime name it was derived from)."""


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _is_public(name: str) -> bool:
    return not name.startswith("_") or _is_dunder(name)


def _binary_dunder(symbol: str) -> str:
    """``@`` → ``__matmul__``, ``+=`` → ``__iadd__`` (``BINARY_OP`` shows the symbol)."""
    inplace = symbol.endswith("=")
    base = BINARY_DUNDERS.get(symbol.removesuffix("=") if inplace else symbol, "?")
    return f"__{'i' if inplace else ''}{base}__"


class Naming:
    """Maps runtime objects (builtins, code objects, classes) to public canonical names."""

    def __init__(self, api: TorchApi) -> None:
        self.api = api
        self._by_identity: dict[Any, str] = {}
        self._by_code: dict[types.CodeType, str] = {}
        self._by_closure: dict[tuple[types.CodeType, tuple[int, ...]], str] = {}
        self._indexed: frozenset[str] = frozenset()
        self._public_class: dict[type, str | None] = {}
        self._attr_name: dict[tuple[type, types.CodeType], str | None] = {}

    def _index(self) -> bool:
        """Index the builtins, classes and functions of the public namespaces imported so far;
        True when new namespaces were found (worth a second look-up)."""
        loaded = frozenset(ns for ns in self.api.primary_namespaces if ns in sys.modules)
        if loaded <= self._indexed:
            return False
        with warnings.catch_warnings():  # deprecated names warn when merely looked at
            warnings.simplefilter("ignore")
            for ns in sorted(loaded - self._indexed, key=lambda n: (n.count("."), n)):
                for attr, obj in list(vars(sys.modules[ns]).items()):
                    if not attr.startswith("_"):
                        self._index_object(f"{ns}.{attr}", obj)
        self._indexed = loaded
        return True

    def _index_object(self, spelled: str, obj: Any) -> None:
        if isinstance(obj, types.BuiltinFunctionType | type):
            name = self.api.canonical(spelled)
            if name is not None:
                self._by_identity.setdefault(obj, name)
        elif isinstance(obj, types.FunctionType):
            name = self.api.canonical(spelled)
            if name is None:
                return
            code = obj.__code__
            if "<locals>" in code.co_qualname and obj.__closure__:
                # one code, many functions (``F.max_pool2d`` is a ``boolean_dispatch`` closure)
                self._by_closure.setdefault((code, _closure_ids(obj.__closure__)), name)
            else:
                self._by_code.setdefault(inspect.unwrap(obj).__code__, name)

    def by_closure(self, frame: types.FrameType) -> str | None:
        """The public function whose closure is running in `frame`, if one is."""
        local = frame.f_locals
        key = (frame.f_code, tuple(id(local.get(n)) for n in frame.f_code.co_freevars))
        found = self._by_closure.get(key)
        if found is None and self._index():
            found = self._by_closure.get(key)
        return found

    def by_identity(self, obj: Any) -> str | None:
        try:
            found = self._by_identity.get(obj)
        except TypeError:  # unhashable
            return None
        if found is None and self._index():
            found = self._by_identity.get(obj)
        return found

    def by_code(self, code: types.CodeType, module: str, qualname: str) -> str | None:
        found = self.api.canonical(f"{module}.{qualname}")
        if found is None:
            found = self._by_code.get(code)
            if found is None and self._index():
                found = self._by_code.get(code)
        return found

    def public_class(self, cls: type) -> str | None:
        """The first public torch class in `cls`'s MRO (a repository ``nn.Module`` subclass →
        ``torch.nn.Module``)."""
        if cls in self._public_class:
            return self._public_class[cls]
        found = None
        for klass in cls.__mro__:
            if not getattr(klass, "__module__", "").startswith("torch"):
                continue
            name = self.by_identity(klass) or self.api.canonical(
                f"{klass.__module__}.{klass.__qualname__}"
            )
            if name is not None and self.api.kind(name) == "class":
                found = name
                break
        self._public_class[cls] = found
        return found

    def attr_name(self, cls: type, code: types.CodeType) -> str | None:
        """The public attribute of `cls` whose function runs `code`: its own name when public,
        else a public alias (``Module._wrapped_call_impl`` is ``__call__``); None when `code` is
        not a method of `cls` (a plain function that received an instance)."""
        key = (cls, code)
        if key in self._attr_name:
            return self._attr_name[key]
        found = None
        aliases: list[str] = []
        for klass in cls.__mro__:
            for attr, value in vars(klass).items():
                if _runs(value, code):
                    aliases.append(attr)
        if code.co_name in aliases and _is_public(code.co_name):
            found = code.co_name
        else:
            found = next((a for a in aliases if _is_public(a)), None)
        self._attr_name[key] = found
        return found

    def member(self, receiver: Any, attr: str) -> str | None:
        public = self.public_class(receiver if isinstance(receiver, type) else type(receiver))
        return None if public is None else self.api.member(public, attr)


def _runs(value: Any, code: types.CodeType) -> bool:
    """True when the class attribute `value` (function, static/class method, property,
    decorated function) executes `code`."""
    if isinstance(value, staticmethod | classmethod):
        value = value.__func__
    elif isinstance(value, property):
        value = value.fget
    if not callable(value):
        return False
    try:
        value = inspect.unwrap(value)
    except Exception:  # a repository object's __wrapped__ may do anything; never break the run
        return False
    return getattr(value, "__code__", None) is code


def _builtin_type_method(cls: type, name: str) -> bool:
    """True when `cls` inherits method `name` from a builtin type (``str``, ``int``...): a
    torch class deriving from one (``TorchVersion``) runs the builtin's method, no torch API."""
    defining = next((k for k in cls.__mro__ if name in vars(k)), None)
    return defining is not None and defining is not object and defining.__module__ == "builtins"


def _first_argument(frame: types.FrameType) -> Any:
    """The first positional argument of the function running in `frame` (its receiver when it
    is a method), also through ``*args`` of a wrapper."""
    code = frame.f_code
    local = frame.f_locals
    if code.co_argcount:
        return local.get(code.co_varnames[0])
    if code.co_flags & inspect.CO_VARARGS:
        args = local.get(code.co_varnames[code.co_kwonlyargcount])
        if isinstance(args, tuple) and args:
            return args[0]
    return None


def _closure_ids(closure: tuple[types.CellType, ...]) -> tuple[int, ...]:
    ids = []
    for cell in closure:
        try:
            ids.append(id(cell.cell_contents))
        except ValueError:  # an empty cell
            ids.append(id(None))
    return tuple(ids)


def _wrapped_function(frame: types.FrameType) -> types.FunctionType | None:
    """The function a decorator's wrapper frame (``f.<locals>.wrapper``) calls: the closure
    variable torch's wrappers name ``func``, ``fn`` or ``f``, unwrapped."""
    local = frame.f_locals
    for name in WRAPPED_NAMES:
        if name not in frame.f_code.co_freevars:
            continue
        value = local.get(name)
        if isinstance(value, types.MethodType):
            value = value.__func__
        if isinstance(value, types.FunctionType):
            return inspect.unwrap(value)  # type: ignore[return-value]
    return None


def _parameters(code: types.CodeType) -> tuple[str, ...]:
    """The names of `code`'s parameters, ``*args`` and ``**kwargs`` included."""
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    return code.co_varnames[:count]


def _holds(value: Any, generator_frame: types.FrameType, depth: int = 2) -> bool:
    """True when `value` is (or directly contains) the generator running `generator_frame`."""
    if isinstance(value, types.GeneratorType):
        return value.gi_frame is generator_frame
    if depth and isinstance(value, tuple | list):
        return any(_holds(v, generator_frame, depth - 1) for v in value)
    if depth and isinstance(value, dict):
        return any(_holds(v, generator_frame, depth - 1) for v in value.values())
    return False


class RootFiles:
    """Which files belong to the traced repository, and their paths relative to its root."""

    def __init__(self, root: Path | str) -> None:
        self.root = os.path.realpath(root) + os.sep
        self._paths: dict[str, str | None] = {}

    def path(self, filename: str) -> str | None:
        """`filename` relative to the root (POSIX), or None outside it (torch, stdlib, these
        scripts...)."""
        rel = self._paths.get(filename, _UNSEEN)
        if rel is _UNSEEN:
            real = os.path.realpath(filename) if not filename.startswith("<") else ""
            inside = (
                real.startswith(self.root)
                and not real.startswith(TORCH_DIR)
                and not real.startswith(SCRIPTS_DIR)
            )
            rel = Path(real[len(self.root) :]).as_posix() if inside else None
            self._paths[filename] = rel
        return rel  # type: ignore[return-value]


def run_script(
    root: str,
    script: str,
    args: Sequence[str],
    profile: Callable[..., Any],
    trace: Callable[..., Any],
    mode: TorchFunctionMode,
) -> int:
    """Run `script` (relative to `root`, or an absolute driver outside it) with `args` as
    ``python script args`` would, from `root`, under the profile and trace hooks (every
    thread) and the torch function mode; its exit status."""
    path = os.path.join(root, script)
    old_argv, old_path0, old_cwd = sys.argv, sys.path[0], os.getcwd()
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(path)
    os.chdir(root)
    status = 0
    threading.setprofile(profile)
    threading.settrace(trace)
    sys.settrace(trace)
    sys.setprofile(profile)
    try:
        with mode:
            runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        sys.setprofile(None)
        sys.settrace(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        threading.settrace(None)  # type: ignore[arg-type]
        sys.argv, sys.path[0] = old_argv, old_path0
        os.chdir(old_cwd)
    return status


class Tracer:
    """Counts torch API calls made from the lines of files under `root`."""

    def __init__(self, root: Path, api: TorchApi | None = None) -> None:
        self.files = RootFiles(root)
        self.root = self.files.root
        self.path = self.files.path
        self.naming = Naming(api or load_torch_api())
        self.calls: Counter[tuple[str, int, str | None, str, str]] = Counter()
        self.foreign: Counter[tuple[str, int, str]] = Counter()
        self.lines: set[tuple[str, int]] = set()
        self._python: dict[tuple[types.CodeType, type], Resolved | None] = {}
        self._builtin: dict[tuple[type, str], Resolved | None] = {}
        self._first_resume: dict[types.CodeType, int] = {}
        self._instructions: dict[types.CodeType, dict[int, dis.Instruction]] = {}
        self._new_site: tuple[int, int, str | None] | None = None

    # --- hooks ---------------------------------------------------------------------------

    def profile(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(TORCH_DIR):
                self._on_python_call(frame, code)
        elif event == "c_call":
            rel = self.path(frame.f_code.co_filename)
            if rel is not None:
                self._on_c_call(rel, frame, arg)

    def trace(self, frame: types.FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if self.path(frame.f_code.co_filename) is None:
            return None
        self.lines.add((frame.f_code.co_filename, frame.f_lineno))
        return self._trace_lines

    def _trace_lines(self, frame: types.FrameType, event: str, arg: Any) -> Callable[..., Any]:
        if event == "line":
            self.lines.add((frame.f_code.co_filename, frame.f_lineno))
        return self._trace_lines

    # --- builtins --------------------------------------------------------------------------

    def _on_c_call(self, rel: str, frame: types.FrameType, fn: Any) -> None:
        owner = getattr(fn, "__self__", None)
        name = getattr(fn, "__name__", "?")
        if owner is None or isinstance(owner, types.ModuleType | type):
            api = self.naming.by_identity(fn)
            module = owner.__name__ if isinstance(owner, types.ModuleType | type) else None
            module = module or getattr(fn, "__module__", None) or ""
            if api is not None or module.startswith("torch"):
                self.calls[(rel, frame.f_lineno, api, f"{module}.{name}", "c_call")] += 1
            return
        cls = type(owner)
        key = (cls, name)
        if key not in self._builtin:
            if _builtin_type_method(cls, name):
                self._builtin[key] = None  # str.split on torch.__version__ (a str subclass)
            elif cls.__module__.startswith("torch") or isinstance(owner, torch.Tensor):
                self._builtin[key] = (self.naming.member(owner, name), f"{cls.__qualname__}.{name}")
            else:
                self._builtin[key] = None
        resolved = self._builtin[key]
        if resolved is None:
            self.foreign[(rel, frame.f_lineno, f"{cls.__module__}.{cls.__qualname__}.{name}")] += 1
        else:
            self.calls[(rel, frame.f_lineno, *resolved, "c_call")] += 1

    # --- Python functions of torch ---------------------------------------------------------

    def _on_python_call(self, frame: types.FrameType, code: types.CodeType) -> None:
        caller = frame.f_back
        if caller is None:
            return
        event = "call"
        if code.co_flags & inspect.CO_GENERATOR:
            if frame.f_lasti != self._resume_offset(code) or "<" in code.co_qualname:
                return  # a later resumption, or a generator expression inside torch
            caller = self._generator_creator(frame, caller)
            if caller is None:
                return
            event = "generator"
        rel = self.path(caller.f_code.co_filename)
        if rel is None:
            return
        resolved = self._resolve_python(frame, code)
        if resolved is None or resolved[0] in C_CALLBACKS:
            return
        if resolved[1].endswith((".__new__", ".__init__")):
            site = (id(caller), caller.f_lasti, resolved[0])
            if resolved[1].endswith(".__new__"):
                self._new_site = site
            elif self._new_site == site:
                self._new_site = None
                return  # the __init__ of a construction recorded at its __new__
        self.calls[(rel, caller.f_lineno, *resolved, event)] += 1

    def _resume_offset(self, code: types.CodeType) -> int:
        offset = self._first_resume.get(code)
        if offset is None:
            offset = next(i.offset for i in dis.get_instructions(code) if i.opname == "RESUME")
            self._first_resume[code] = offset
        return offset

    def _generator_creator(
        self, gen_frame: types.FrameType, resumer: types.FrameType
    ) -> types.FrameType | None:
        """The repository frame that created the torch generator first resumed now: the
        resumer itself when it is a repository frame, else the repository frame that passed
        the generator to the torch call resuming it; None when torch made it for itself."""
        if self.path(resumer.f_code.co_filename) is not None:
            return resumer
        entry: types.FrameType | None = resumer
        while entry is not None and entry.f_back is not None:
            if self.path(entry.f_back.f_code.co_filename) is not None:
                local = entry.f_locals
                if any(_holds(local.get(name), gen_frame) for name in _parameters(entry.f_code)):
                    return entry.f_back
                return None
            entry = entry.f_back
        return None

    def _resolve_python(self, frame: types.FrameType, code: types.CodeType) -> Resolved | None:
        """Public name of the torch function running in `frame`; None when it is only a torch
        decorator's wrapper around repository code (``@torch.no_grad()`` on a function)."""
        target_code = code
        module = frame.f_globals.get("__name__", "")
        qualname = code.co_qualname
        if "<locals>" in qualname:
            public = self.naming.by_closure(frame)
            if public is not None:
                return (public, f"{module}.{qualname}")
            target = _wrapped_function(frame)
            if target is None:
                return (None, f"{module}.{qualname}")
            if not target.__code__.co_filename.startswith(TORCH_DIR):
                return None
            target_code, module, qualname = target.__code__, target.__module__, target.__qualname__
        receiver = _first_argument(frame)
        cls = receiver if isinstance(receiver, type) else type(receiver)
        key = (target_code, cls)
        if key not in self._python:
            self._python[key] = self._name_python(target_code, module, qualname, receiver, cls)
        return self._python[key]

    def _name_python(
        self, code: types.CodeType, module: str, qualname: str, receiver: Any, cls: type
    ) -> Resolved:
        raw = f"{module}.{qualname}"
        attr = self.naming.attr_name(cls, code) if "." in qualname else None
        if attr is None:
            return (self.naming.by_code(code, module, qualname), raw)
        built = receiver if attr == "__new__" else cls
        if attr in ("__new__", "__init__") and built.__module__.startswith("torch"):
            public = self.naming.by_identity(built) or self.naming.api.canonical(
                f"{built.__module__}.{built.__qualname__}"
            )
            if public is not None:
                return (public, raw)  # the construction of a torch class
        return (self.naming.member(receiver, attr), raw)

    # --- operators and attributes (TorchFunctionMode) ----------------------------------------

    def on_torch_function(self, func: Any, args: Sequence[Any], frame: types.FrameType) -> None:
        """A tensor operation dispatched from `frame`: record it when it is an operator or an
        attribute access of a repository line (explicit calls were seen as ``c_call``)."""
        rel = self.path(frame.f_code.co_filename)
        if rel is None:
            return
        owner = getattr(func, "__self__", None)
        if isinstance(owner, types.GetSetDescriptorType):
            attr = owner.__name__
        else:
            instruction = self._instruction(frame)
            if instruction is None or instruction.opname in CALL_OPS:
                return
            attr = _operator_dunder(instruction, getattr(func, "__name__", "?"))
        receiver = next((a for a in args if isinstance(a, torch.Tensor)), torch.Tensor)
        api = self.naming.member(receiver, attr)
        self.calls[(rel, frame.f_lineno, api, f"Tensor.{attr}", "operator")] += 1

    def _instruction(self, frame: types.FrameType) -> dis.Instruction | None:
        code = frame.f_code
        table = self._instructions.get(code)
        if table is None:
            table = {i.offset: i for i in dis.get_instructions(code)}
            self._instructions[code] = table
        return table.get(frame.f_lasti)

    # --- running -----------------------------------------------------------------------------

    def run(self, script: str, args: Sequence[str]) -> int:
        """Run `script` with `args` as ``python script args`` would, from the root; its exit
        status."""
        return run_script(self.root, script, args, self.profile, self.trace, _OperationMode(self))

    def records(self) -> list[dict[str, Any]]:
        """The JSON-lines records, sorted so that output is stable."""
        out: list[dict[str, Any]] = []
        for (rel, line, api, raw, event), count in sorted(self.calls.items(), key=_call_order):
            out.append(
                {
                    "record": "api",
                    "path": rel,
                    "line": line,
                    "api": api,
                    "raw": raw,
                    "event": event,
                    "count": count,
                }
            )
        for (rel, line, name), count in sorted(self.foreign.items()):
            out.append(
                {"record": "foreign", "path": rel, "line": line, "name": name, "count": count}
            )
        executed: dict[str, set[int]] = {}
        for filename, line in self.lines:
            rel_path = self.path(filename)
            if rel_path is not None:
                executed.setdefault(rel_path, set()).add(line)
        for rel_path in sorted(executed):
            out.append(
                {"record": "executed", "path": rel_path, "lines": sorted(executed[rel_path])}
            )
        return out


def _call_order(item: tuple[tuple[str, int, str | None, str, str], int]) -> tuple[Any, ...]:
    rel, line, api, raw, event = item[0]
    return (rel, line, api or "", raw, event)


def _operator_dunder(instruction: dis.Instruction, func_name: str) -> str:
    """The special method a repository instruction invoked on a tensor."""
    op = instruction.opname
    if op == "BINARY_OP":
        return _binary_dunder(str(instruction.argrepr))
    if op in SUBSCRIPT_OPS:
        return SUBSCRIPT_OPS[op]
    if op in UNARY_OPS:
        return UNARY_OPS[op]
    if op == "COMPARE_OP":
        return COMPARE_DUNDERS.get(str(instruction.argval), func_name)
    if op == "CONTAINS_OP":
        return "__contains__"
    return func_name


class _OperationMode(TorchFunctionMode):
    """Reports every tensor operation to the tracer, then runs it unchanged."""

    def __init__(self, tracer: Tracer) -> None:
        super().__init__()
        self._tracer = tracer

    def __torch_function__(
        self, func: Any, types: Iterable[type], args: Sequence[Any] = (), kwargs: Any = None
    ) -> Any:
        self._tracer.on_torch_function(func, args, sys._getframe(1))
        return func(*args, **(kwargs or {}))


def main(argv: list[str] | None = None) -> int:
    return tracer_main(Tracer, __doc__ or "", argv)


def tracer_main(make: Callable[[Path], Any], doc: str, argv: list[str] | None) -> int:
    """The command line of a tracer script: run the script under ``make(root)``'s hooks and
    write its records as JSON lines (shared by this tracer and ``trace_shapes.py``)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--root", type=Path, required=True, help="repository root (the cwd)")
    parser.add_argument("--out", type=Path, required=True, help="JSON-lines output file")
    parser.add_argument("script", help="script path relative to the root, or an absolute driver")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    options = parser.parse_args(argv)
    tracer = make(options.root)
    status = tracer.run(options.script, options.args)
    with options.out.open("w", encoding="utf-8") as out:
        for record in tracer.records():
            out.write(json.dumps(record) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
