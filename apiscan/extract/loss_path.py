"""The loss path of a training step: the calls between a model's outputs and the backward pass.

MindSpore differentiates one function: the network *and* whatever computes the loss from its
outputs. Code on that path belongs to the graph wherever it is defined: a mel spectrogram of
a generator's waveform compared with the target's (a helper the dataset calls too), or a
diffusion object's ``training_losses(model, x, t)`` that calls the model and reduces its
outputs. A name or a base class cannot show it; the training step's data flow does:

- a *training step* is a function whose own body runs a backward pass (``loss.backward()``,
  ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``,
  ``torch.autograd.backward(loss)``);
- the *sources* are the model's outputs: calls of an object named like a model (``model``,
  ``net_g``, ``generator``, ``self.model``), calls given such an object as an argument
  (``diffusion.training_losses(model, x, t)``), and calls of an object the step itself builds
  from a class (``mpd = MultiPeriodDiscriminator().to(device)``): the scope pass keeps those
  whose class is an ``nn.Module`` (a ``Mixup()`` object is data, and what it feeds the model
  is not on the path);
- a call is *on the loss path* when the value backpropagated depends on its result (through
  the step's assignments before the backward) and its arguments depend on a source.

What runs before the model (``preprocess(images)``), a size read from an output
(``make_targets(out.shape[0])``), another training step given the model
(``super().train_step(sample, model)``: it runs its own backward pass), what only logs
(``log(feats.detach())`` after the backward) and what a sampling loop with no backward
calls are not on it.
The record names calls by line and by the last name of their callee, as the call graph's
call facts do, so the scope pass joins them without reading the file again.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from dataclasses import dataclass

from apiscan.extract.syntax import child_nodes, name_chain, own_body, walk_nodes

#: ``model``, ``net``, ``net_g``, ``model_ema``, ``ddp_model``, ``generator``, ``netD``: an
#: object named like the network being trained (a word of the name, not a part of a word:
#: ``model_kwargs`` and ``network_config`` are not models).
_MODEL_NAME = re.compile(
    r"(?:[a-z0-9]+_)*(?:model|net|network|generator|discriminator)"
    r"(?:_(?:[a-z]|\d+|ema|student|teacher))?"
)
_NET_LETTER = re.compile(r"net[A-Z]")
#: First words of the functions that make or handle a model rather than name one.
_VERBS = frozenset(
    {"build", "create", "get", "load", "make", "init", "setup", "wrap", "unwrap", "convert"}
    | {"prepare", "save", "freeze", "export", "copy", "update", "print", "count", "to"}
)
#: Bound-method wrappers of a module that keep it (``generator.to(device)``, ``.cuda()``):
#: what the step calls is still an instance of the class constructed inside.
_KEEPS = frozenset({"to", "cuda", "cpu", "train", "eval", "half", "float", "double"})
#: Reads of a tensor that carry its size or a host number, not its values: a target built
#: for ``output.shape[0]`` samples, or from ``loss.item()``, is not computed from the output.
_SIZE_ATTRS = frozenset({"shape", "ndim", "device", "dtype", "is_cuda", "requires_grad"})
#: A line that may call a backward pass (not ``def backward(ctx, grad)``, nor a comment's
#: "backward compatible").
_CALLS_BACKWARD = re.compile(r"(?<!def )\bbackward\s*\(")
_SIZE_CALLS = frozenset({"size", "dim", "numel", "item", "tolist", "numpy", "len"})


@dataclass(frozen=True, slots=True)
class LossPath:
    """The loss path of one training step (see the module docstring); every function that
    runs a backward pass has one, empty when nothing backpropagated depends on a model."""

    function: str  # module-relative qualified name of the training step
    #: (line, callee's last name) of each call on the path, with the sources it depends on:
    #: 0 for a model by its name, else the line of the statement binding the object called
    #: (a model when the class constructed there is an ``nn.Module``)
    calls: tuple[tuple[int, str, tuple[int, ...]], ...]


def is_model_name(name: str) -> bool:
    """An object named like the network being trained (``model``, ``net_g``, ``netG``); not
    a function that makes or handles one (``create_model``, ``load_network``)."""
    if name.partition("_")[0] in _VERBS:
        return False
    return bool(_MODEL_NAME.fullmatch(name) or _NET_LETTER.match(name))


def loss_paths(tree: ast.Module, text: str) -> tuple[LossPath, ...]:
    """The loss path of every training step of the file (none when it never says
    ``backward``: the walk costs nothing on most files)."""
    if "backward" not in text:
        return ()
    # only the defs and statements holding a line that calls ``backward`` are read
    hot = [n for n, line in enumerate(text.splitlines(), 1) if _CALLS_BACKWARD.search(line)]
    out: list[LossPath] = []
    # (node, qualified name, the ``self`` attributes its class builds from a class)
    stack: list[tuple[ast.AST, str, dict[str, list[int]]]] = [(tree, "", {})]
    while stack:
        node, prefix, members = stack.pop()
        for child in ast.iter_child_nodes(node):
            first = getattr(child, "lineno", None)
            if first is None or not _holds(hot, first, getattr(child, "end_lineno", first)):
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                qual = f"{prefix}.{child.name}" if prefix else child.name
                if isinstance(child, ast.ClassDef):
                    stack.append((child, qual, _built_members(child)))
                else:
                    stack.append((child, qual, {}))
                    found = _StepFlow(child, qual, members).path()
                    if found is not None:
                        out.append(found)
            elif isinstance(child, ast.stmt):
                stack.append((child, prefix, members))
    out.sort(key=lambda p: p.function)
    return tuple(out)


def _model_object(key: str) -> bool:
    """A name or ``self`` attribute holding a model (``model``, ``self.net_g``); not another
    object's attribute: ``args.model`` and ``cfg.teacher_model`` name a model to build."""
    owner, _, name = key.rpartition(".")
    return owner in ("", "self") and is_model_name(name)


def _holds(lines: list[int], first: int, last: int) -> bool:
    """Is one of the sorted ``lines`` within ``first``..``last``?"""
    at = bisect_left(lines, first)
    return at < len(lines) and lines[at] <= last


def _key(expr: ast.AST) -> str | None:
    """``loss`` / ``self.output``: the name a value is stored under, else None."""
    parts = name_chain(expr)
    return ".".join(parts) if parts else None


def _callee_name(call: ast.Call) -> str:
    """The last name of what a call runs: of the function a ``functools.partial`` (or a
    ``partial`` imported from functools) binds, since building the partial is where the
    training step hands it the model (``partial(self.diffusion.training_losses, model, x)``);
    the call graph records the same call there."""
    bound = _partial_function(call)
    if bound is not None:
        return _last_name(bound)
    return _last_name(call.func)


def _last_name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _partial_function(call: ast.Call) -> ast.AST | None:
    """``f`` of ``functools.partial(f, ...)`` / ``partial(f, ...)``, else None (a ``partial``
    taking no function, or ``*args`` first, binds nothing the record can name)."""
    func = call.func
    named = (isinstance(func, ast.Name) and func.id == "partial") or (
        isinstance(func, ast.Attribute)
        and func.attr == "partial"
        and isinstance(func.value, ast.Name)
        and func.value.id == "functools"
    )
    if not named or not call.args or isinstance(call.args[0], ast.Starred):
        return None
    return call.args[0]


def _built_members(cls: ast.ClassDef) -> dict[str, list[int]]:
    """``self.x`` -> the lines where a method of ``cls`` binds it to an object built from a
    class (stargan's ``Solver.build_model``: ``self.D = Discriminator(...)``, trained in
    ``Solver.train``): a step of the same class calling ``self.D(x)`` calls that object,
    whatever its name."""
    out: dict[str, list[int]] = {}
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in own_body(method):
            if not isinstance(node, ast.Assign):
                continue
            made = _constructed(node.value)
            for target in node.targets if made is not None else ():
                key = _key(target)
                if key is not None and key.startswith("self.") and key.count(".") == 1:
                    out.setdefault(key, []).append(made.lineno)  # type: ignore[union-attr]
    return out


class _StepFlow:
    """The data flow of one function's own body: which stored values depend on which
    sources, and which calls the backpropagated value depends on. ``members`` are the
    ``self`` attributes the step's class builds from a class in its other methods
    (:func:`_built_members`)."""

    def __init__(
        self,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        qual: str,
        members: dict[str, list[int]] | None = None,
    ) -> None:
        self.fn = fn
        self.qual = qual
        nodes = own_body(fn)
        #: stored name -> (line, value) of each binding, in source order
        self.defs: dict[str, list[tuple[int, ast.AST]]] = {}
        self.backprop: list[tuple[int, ast.AST]] = []
        for node in nodes:
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for key in self._stored(target):
                        self.defs.setdefault(key, []).append((node.lineno, node.value))
                        if isinstance(node, ast.AugAssign):  # ``loss += x``: both
                            self.defs[key].append((node.lineno, target))
            elif isinstance(node, ast.For | ast.AsyncFor):
                for key in self._stored(node.target):
                    self.defs.setdefault(key, []).append((node.lineno, node.iter))
            elif isinstance(node, ast.Call) and _callee_name(node) == "backward":
                self.backprop += [(node.lineno, v) for v in (node.func, *node.args)]
        for binds in self.defs.values():
            binds.sort(key=lambda b: b[0])
        #: name -> the line of a statement binding it to an object built from a class
        self.built: dict[str, list[int]] = {
            key: lines for key, lines in (members or {}).items() if key not in self.defs
        }
        for key, binds in self.defs.items():
            for _line, value in binds:
                made = _constructed(value)
                if made is not None:
                    self.built.setdefault(key, []).append(made.lineno)
        self._taint: dict[tuple[str, int], frozenset[int]] = {}
        self._calls: dict[int, frozenset[int]] = {}
        self._busy: set[tuple[str, int]] = set()

    @staticmethod
    def _stored(target: ast.AST) -> list[str]:
        """The keys a target binds (each name of a tuple; ``d["k"]`` binds ``d``)."""
        out: list[str] = []
        todo = [target]
        while todo:
            t = todo.pop()
            if isinstance(t, ast.Tuple | ast.List):
                todo += t.elts
            elif isinstance(t, ast.Starred | ast.Subscript):
                todo.append(t.value)
            else:
                key = _key(t)
                if key is not None:
                    out.append(key)
        return out

    def path(self) -> LossPath | None:
        if not self.backprop:
            return None
        on_path: dict[tuple[int, str], set[int]] = {}
        seen: set[tuple[str, int]] = set()
        todo = list(self.backprop)
        while todo:
            line, expr = todo.pop()
            for node in walk_nodes(expr):
                if isinstance(node, ast.Call):
                    sources = self._call_sources(node)
                    for name in self._names(node) if sources else ():
                        on_path.setdefault((node.lineno, name), set()).update(sources)
                key = _key(node) if isinstance(node, ast.Name | ast.Attribute) else None
                if key is None or self._is_model(key):
                    continue  # the model object: how it was built or wrapped is no output
                for at, value in self._reaching(key, line):
                    if (key, at) not in seen:
                        seen.add((key, at))
                        todo.append((at, value))
        calls = tuple(
            (line, name, tuple(sorted(src))) for (line, name), src in sorted(on_path.items())
        )
        return LossPath(self.qual, calls)

    def _names(self, call: ast.Call) -> set[str]:
        """The last names a call runs under: its callee's, and that of the function a
        partial it calls binds (``compute = partial(loss_fn, gamma=2)`` then
        ``compute(out, y)``, or ``partial(terms, model, x)()``): the call graph records
        calling a partial as a call of its function, on the line of the call."""
        func = call.func
        bound = [func] if isinstance(func, ast.Call) else []
        key = _key(func)
        if key is not None:
            bound += [v for _at, v in self._reaching(key, call.lineno) if isinstance(v, ast.Call)]
        partials = {_callee_name(v) for v in bound if _partial_function(v) is not None}
        return {_callee_name(call)} | (partials - {""})

    def _reaching(self, key: str, line: int) -> list[tuple[int, ast.AST]]:
        """The bindings of ``key`` that may reach a use on ``line``: those before it (a
        validation block after the backward rebinding a name is not the step's)."""
        return [(at, v) for at, v in self.defs.get(key, ()) if at < line]

    def _call_sources(self, call: ast.Call) -> frozenset[int]:
        """The sources a call's result depends on through its arguments or receiver (a
        model's own call counts its model)."""
        memo = self._calls.get(id(call))
        if memo is not None:
            return memo
        out: set[int] = set()
        func = call.func
        if _callee_name(call) in _SIZE_CALLS:
            self._calls[id(call)] = frozenset()
            return self._calls[id(call)]
        target = _key(func)
        if target is not None:
            parts = target.split(".")
            if _model_object(target) or (
                parts[-1].startswith("forward") and _model_object(".".join(parts[:-1]))
            ):
                out.add(0)
            out.update(self.built.get(target, ()))
            if not self._is_model(target):
                # a callable the step made from an output or a model (``compute =
                # partial(diffusion.training_losses, model, x)``): its call depends on them
                out |= self._key_sources(target, call.lineno)
        elif isinstance(func, ast.Call):  # ``partial(terms, model, x)()``
            out |= self._call_sources(func)
        for arg in (*call.args, *(k.value for k in call.keywords)):
            out |= self._expr_sources(arg, call.lineno)
        if isinstance(func, ast.Attribute):  # ``y_hat.squeeze(1)``: the receiver's value
            out |= self._expr_sources(func.value, call.lineno)
        self._calls[id(call)] = frozenset(out)
        return self._calls[id(call)]

    def _expr_sources(self, expr: ast.AST, line: int) -> frozenset[int]:
        """The sources a value depends on: the calls in it, the stored values it reads (and
        the object a model is, passed whole: ``training_losses(model, x, t)``)."""
        if isinstance(expr, ast.Call):
            return self._call_sources(expr)
        if isinstance(expr, ast.Attribute) and expr.attr in _SIZE_ATTRS:
            return frozenset()
        if isinstance(expr, ast.Name | ast.Attribute):
            key = _key(expr)
            if key is not None:
                out: set[int] = set()
                if _model_object(key):
                    out.add(0)
                parts = key.split(".")
                for n in range(len(parts), 0, -1):  # ``outputs.logits``: ``outputs`` too
                    out |= self._key_sources(".".join(parts[:n]), line)
                return frozenset(out)
        if isinstance(expr, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return frozenset()
        found: set[int] = set()
        for child in child_nodes(expr):
            found |= self._expr_sources(child, line)
        return frozenset(found)

    def _is_model(self, key: str) -> bool:
        """A stored model object (by its name, or built from a class in the step)."""
        return _model_object(key) or key in self.built

    def _key_sources(self, key: str, line: int) -> frozenset[int]:
        if self._is_model(key):
            return frozenset()  # the object, not an output of it (its call is a source)
        memo = (key, line)
        if memo in self._taint:
            return self._taint[memo]
        if memo in self._busy:  # a loop-carried binding (``x = f(x)``)
            return frozenset()
        self._busy.add(memo)
        out: set[int] = set()
        for at, value in self._reaching(key, line):
            if _constructed(value) is None:  # the object itself is no output of it
                out |= self._expr_sources(value, at)
        self._busy.discard(memo)
        self._taint[memo] = frozenset(out)
        return self._taint[memo]


def _constructed(value: ast.AST) -> ast.Call | None:
    """The constructor call of ``Net(h)``, ``Net(h).to(device)``, ``models.Net().cuda()``:
    an object built from a class (a capitalised callee), through the calls that return the
    module itself; None for any other value."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in _KEEPS
    ):
        value = value.func.value
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    ):
        return None  # ``self.D(x)``: a call of the object stored there, not of a class
    name = _callee_name(value)
    return value if name and name[0].isupper() else None
