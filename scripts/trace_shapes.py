"""Run a script of a repository and record, per line, the shapes its tensor operations produce
and the places where tensor data is read on the host: ground truth for dynamic shapes.

A shape is data-dependent when running the same code on inputs of the same shapes but other
data changes it. This tracer records what each repository line's operations produced in one
run; ``scripts/measure_shapes.py`` runs it several times with other data (a seed argument) and
compares. Usage, from the project root::

    python scripts/trace_shapes.py --root fixtures/tinydet --out shapes.jsonl \\
        -- tools/train.py --steps 2

The script runs in this process as in ``scripts/trace_apis.py`` (same root, cwd, argv and path
rules; a driver script outside the root may stand in for an entry point). Two hooks:

- a ``TorchFunctionMode``: every tensor function, method, operator and attribute read whose
  Python caller is a repository line (``torch.cat``, ``x[mask]``, ``x.nonzero()``, ``x.shape``),
  with the shapes of its tensor arguments and of what it returned (for a store ``x[i] = v``,
  which returns nothing, the shape of the value it wrote; for ``len(t)``, the length). Host
  reads of tensor data (``.item()``, ``.tolist()``, ``int(t)``, ``float(t)``, ``bool(t)`` and
  so ``if t:``, ``t.__index__`` as a slice bound, ``.numpy()``) are recorded as syncs of that
  line.
- ``sys.setprofile``: a Python function outside the repository (a module's ``__call__``,
  ``torchvision.ops.nms``, a driver's stand-in for a compiled operator) called from a
  repository line, with the shapes of its tensor arguments and of its return value; the same
  for a repository function, named with the ``repo:`` prefix (its line carries the shape the
  callee made); and ``sys.settrace`` for the lines that executed.

The shape signature of a value: a tensor → its shape (a list of ints); ``torch.Size`` →
``["size", [...]]``; a list or tuple → the signatures of its elements (``["list", n]`` when they
are plain numbers, whose count is what matters); anything else → null (not recorded).

Two calls that only look alike are told apart, so that neither passes for a source:

- an indexing's index *form* (where its ``None``, slices, integers and tensors are, never the
  values of its bounds) is part of its arguments: ``y[:, None, :] * x[:, :, None]`` and
  ``x[:, :4], x[:, 4]`` index same-shaped tensors on one line in two ways, while ``x[:n]``
  with ``n`` read from data keeps one form and stays a source;
- a call of a module whose ``forward`` is the repository's own code is a repository call
  (``self.rpn(images, features)`` carries what the lines of its ``forward`` made), as is a
  driver's stand-in that hands its call on to a repository function (a compiled operator's
  pure-Python reference, called with a fixed sampling grid).

Output, JSON lines: ``{"record": "op", "path", "line", "op", "inputs", "output", "count"}``
per distinct (line, operation, input shapes, output shape); ``{"record": "sync", "path",
"line", "name", "count"}``; ``{"record": "next", "path", "line", "next"}``: the lines that
ran right after it in the same call (which way its branch went); ``{"record": "executed",
"path", "lines"}`` per file.
"""

from __future__ import annotations

import inspect
import os
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import torch
from torch.overrides import TorchFunctionMode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from trace_apis import (
    SCRIPTS_DIR,
    TORCH_DIR,
    RootFiles,
    run_script,
    tracer_main,
)  # a sibling script, not a package

#: Drivers (``scripts/drivers/``) are outside the traced root like a library: a stand-in they
#: give for a compiled operator (an NMS) is an outside call of the repository line reaching it.
DRIVERS_DIR: Final = os.path.join(SCRIPTS_DIR, "drivers") + os.sep
#: The op name prefix of a call of a repository function from a repository line: its result's
#: shape makes the calling line dynamic (it carries what the callee made) but never a source.
REPO_CALL: Final = "repo:"
#: torch's wrapper that picks one of two functions by a flag argument (``torch.unique`` on
#: ``return_inverse``, ``F.max_pool2d`` on ``return_indices``): a function of torch's own
#: ``<locals>``, like a decorator's wrapper, but the operation a repository line calls, so it is
#: recorded (the function it calls runs from torch's frame and the mode never sees its line).
BOOLEAN_DISPATCH: Final = "boolean_dispatch.<locals>."
#: Tensor methods that read tensor data on the host (``__bool__`` is ``if t:``).
SYNC_NAMES: Final = frozenset(
    {"item", "tolist", "__bool__", "__int__", "__float__", "__index__", "numpy", "__array__"}
)
MAX_ITEMS: Final = 16  # a longer list or tuple is summarised by its length
Signature = Any
"""JSON-able shape signature (see the module docstring); tuples inside, for hashing."""


def signature(value: Any, depth: int = 2) -> Signature:
    """The shape signature of `value`; None for values that carry no shape."""
    if isinstance(value, torch.Tensor):
        return tuple(value.shape)
    if isinstance(value, torch.Size):
        return ("size", tuple(value))
    if isinstance(value, tuple | list) and depth:
        if value and all(isinstance(v, int | float | bool) for v in value):
            return ("list", len(value))
        if len(value) > MAX_ITEMS:
            return ("seq", len(value))
        inner = tuple(signature(v, depth - 1) for v in value)
        return inner if any(i is not None for i in inner) else None
    return None


def _arguments(values: Iterable[Any]) -> Signature:
    """The shape signatures of the tensor-like arguments, in order (numbers left out: a
    slice bound read from data must not make two calls look different)."""
    found = []
    for value in values:
        sig = signature(value, 1)
        if sig is not None and not (isinstance(sig, tuple) and sig[:1] == ("list",)):
            found.append(sig)
    return tuple(found)


def index_form(index: Any) -> str:
    """Where an index puts ``None``, slices, integers, ``...`` and tensors (``":N:"`` for
    ``[:, None, :]``), without the values of its bounds: two indexings of one line that select
    differently are two operations, a slice bound read from data keeps its form."""
    parts = index if isinstance(index, tuple) else (index,)
    marks = {type(None): "N", slice: ":", type(Ellipsis): "E", bool: "b", int: "i"}
    return "".join("T" if isinstance(p, torch.Tensor) else marks.get(type(p), "?") for p in parts)


def module_forward(frame: types.FrameType) -> str | None:
    """The file of the module's ``forward`` when `frame` is torch's ``Module.__call__``."""
    if frame.f_code.co_name not in ("_wrapped_call_impl", "_call_impl"):
        return None
    forward = getattr(type(frame.f_locals.get("self")), "forward", None)
    code = getattr(forward, "__code__", None)
    return code.co_filename if code is not None else None


def _jsonable(sig: Signature) -> Any:
    if isinstance(sig, tuple):
        return [_jsonable(s) for s in sig]
    return sig


class ShapeTracer:
    """Collects operation shapes and host syncs of the lines of files under `root`."""

    def __init__(self, root: Path) -> None:
        self.files = RootFiles(root)
        self.root = self.files.root
        self.ops: Counter[tuple[str, int, str, Signature, Signature]] = Counter()
        self.syncs: Counter[tuple[str, int, str]] = Counter()
        self.lines: set[tuple[str, int]] = set()
        # (file, line, next line in the same frame): which way a branch went
        self.steps: set[tuple[str, int, int]] = set()
        self._last: dict[types.FrameType, int] = {}
        # frames of outside functions called from a repository line: (path, line, name, inputs)
        self._open: dict[types.FrameType, tuple[str, int, str, Signature]] = {}

    # --- hooks ---------------------------------------------------------------------------

    def profile(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            filename = code.co_filename
            if filename.startswith(SCRIPTS_DIR) and not filename.startswith(DRIVERS_DIR):
                return  # this tracer's mode
            inside = self.files.path(filename) is not None  # its lines are traced one by one
            if inside and frame.f_back is not None:
                self._delegated(frame.f_back)
            dispatch = code.co_qualname.startswith(BOOLEAN_DISPATCH)
            if (
                not inside
                and filename.startswith(TORCH_DIR)
                and "<locals>" in code.co_qualname
                and not dispatch
            ):
                return  # a torch decorator's wrapper (``@torch.no_grad()``) around repo code
            caller = frame.f_back
            if caller is None:
                return
            rel = self.files.path(caller.f_code.co_filename)
            if rel is None:
                return
            if code.co_flags & (
                inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
            ):
                return
            local = frame.f_locals
            forward = module_forward(frame) if filename.startswith(TORCH_DIR) else None
            own_module = forward is not None and self.files.path(forward) is not None
            count = code.co_argcount + code.co_kwonlyargcount
            values: list[Any] = [local.get(n) for n in code.co_varnames[:count]]
            if code.co_flags & inspect.CO_VARARGS:
                extra = local.get(code.co_varnames[count])
                if isinstance(extra, tuple):
                    values.extend(extra)
            module = frame.f_globals.get("__name__", "?")
            qualname = code.co_qualname
            picked = local.get("if_false") if dispatch else None
            if picked is not None:  # named after what it dispatches to, not its wrapper
                module = getattr(picked, "__module__", module)
                qualname = getattr(picked, "__name__", qualname)
            name = f"{REPO_CALL if inside or own_module else ''}{module}.{qualname}"
            self._open[frame] = (rel, caller.f_lineno, name, _arguments(values))
        elif event == "return":
            site = self._open.pop(frame, None)
            if site is not None:
                output = signature(arg)
                if site[2].endswith("Tensor.__len__") and isinstance(arg, int):
                    # ``len(t)`` is a length of ``t``'s shape, as ``t.shape`` is:
                    # ``range(len(rois))`` runs as many times as it says
                    output = ("len", arg)
                if output is not None:
                    self.ops[(*site, output)] += 1

    def _delegated(self, caller: types.FrameType) -> None:
        """A repository function called by a driver's stand-in that a repository line called:
        the stand-in's call is that repository function's (its shapes are made inside)."""
        site = self._open.get(caller)
        if (
            site is not None
            and caller.f_code.co_filename.startswith(DRIVERS_DIR)
            and not site[2].startswith(REPO_CALL)
        ):
            self._open[caller] = (site[0], site[1], REPO_CALL + site[2], site[3])

    def trace(self, frame: types.FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if self.files.path(frame.f_code.co_filename) is None:
            return None
        if frame.f_lineno:  # a module's code starts at line 0
            self.lines.add((frame.f_code.co_filename, frame.f_lineno))
        return self._trace_lines

    def _trace_lines(self, frame: types.FrameType, event: str, arg: Any) -> Callable[..., Any]:
        if event == "line":
            line = frame.f_lineno
            self.lines.add((frame.f_code.co_filename, line))
            last = self._last.get(frame)
            if last is not None and last != line:
                self.steps.add((frame.f_code.co_filename, last, line))
            self._last[frame] = line
        elif event == "return":
            self._last.pop(frame, None)
        return self._trace_lines

    def on_torch_function(
        self, func: Any, args: Sequence[Any], kwargs: dict[str, Any], result: Any, frame: Any
    ) -> None:
        rel = self.files.path(frame.f_code.co_filename)
        if rel is None:
            return
        name = getattr(func, "__name__", None) or type(func).__name__
        owner = getattr(func, "__self__", None)
        if isinstance(owner, types.GetSetDescriptorType):
            name = owner.__name__  # x.shape, x.T: the attribute read
        if name in SYNC_NAMES and any(isinstance(a, torch.Tensor) for a in args[:1]):
            self.syncs[(rel, frame.f_lineno, name)] += 1
            return
        output = signature(result)
        if output is None and name == "__setitem__" and len(args) > 2:
            # a store returns nothing: what it writes is its value, which holds one row per
            # selected element when the index is data-dependent (``overlaps[idx] = values``)
            output = signature(args[2])
        if output is None:
            return
        inputs = _arguments([*args, *kwargs.values()])
        if name in ("__getitem__", "__setitem__") and len(args) > 1:
            inputs = (*inputs, index_form(args[1]))
        self.ops[(rel, frame.f_lineno, name, inputs, output)] += 1

    # --- running -----------------------------------------------------------------------------

    def run(self, script: str, args: Sequence[str]) -> int:
        return run_script(self.root, script, args, self.profile, self.trace, _ShapeMode(self))

    def records(self) -> list[dict[str, Any]]:
        """The JSON-lines records, sorted so that output is stable."""
        out: list[dict[str, Any]] = []
        for (rel, line, name, inputs, output), count in sorted(
            self.ops.items(), key=lambda kv: (kv[0][:3], repr(kv[0][3:]))
        ):
            out.append(
                {
                    "record": "op",
                    "path": rel,
                    "line": line,
                    "op": name,
                    "inputs": _jsonable(inputs),
                    "output": _jsonable(output),
                    "count": count,
                }
            )
        for (rel, line, name), count in sorted(self.syncs.items()):
            out.append({"record": "sync", "path": rel, "line": line, "name": name, "count": count})
        executed: dict[str, set[int]] = {}
        for filename, line in self.lines:
            rel_path = self.files.path(filename)
            if rel_path is not None:
                executed.setdefault(rel_path, set()).add(line)
        following: dict[tuple[str, int], set[int]] = {}
        for filename, line, after in self.steps:
            rel_path = self.files.path(filename)
            if rel_path is not None:
                following.setdefault((rel_path, line), set()).add(after)
        for (rel_path, line), after in sorted(following.items()):
            out.append({"record": "next", "path": rel_path, "line": line, "next": sorted(after)})
        for rel_path in sorted(executed):
            out.append(
                {"record": "executed", "path": rel_path, "lines": sorted(executed[rel_path])}
            )
        return out


class _ShapeMode(TorchFunctionMode):
    """Runs every tensor operation unchanged, then shows it and its result to the tracer."""

    def __init__(self, tracer: ShapeTracer) -> None:
        super().__init__()
        self._tracer = tracer

    def __torch_function__(
        self, func: Any, types: Iterable[type], args: Sequence[Any] = (), kwargs: Any = None
    ) -> Any:
        kwargs = kwargs or {}
        frame = sys._getframe(1)
        result = func(*args, **kwargs)
        self._tracer.on_torch_function(func, args, kwargs, result, frame)
        return result


def main(argv: list[str] | None = None) -> int:
    return tracer_main(ShapeTracer, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
