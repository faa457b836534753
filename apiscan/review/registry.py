"""Models built by name: the registries and look-ups that pick the top model at run time.

Many repositories never write ``Model(backbone, head)``: the training script names the
model and a registry builds it. ``models_mae.__dict__[args.model](...)`` (MAE, DINO),
``create_model(args.model)`` over functions decorated ``@register_model`` (timm),
``META_ARCH_REGISTRY.get(cfg.MODEL.META_ARCHITECTURE)(cfg)`` over classes decorated
``@META_ARCH_REGISTRY.register()`` (detectron2), ``importlib.import_module(args.model)
.get_model(...)`` (PointNet). Each look-up is resolved here to the name it takes by default
(the argparse default, the configuration's default assignment, a literal) and that name to
the class it builds; a look-up whose name cannot be resolved names no model (a guess among
hundreds of registered variants would be noise).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from apiscan.extract.syntax import name_chain
from apiscan.review.sources import FuncDef, Source

#: Decorator names that register the def they decorate (``@register_model``,
#: ``@REGISTRY.register()``, ``@MODELS.register_module()``).
_REGISTER = ("register", "register_module", "register_model")
#: Receivers whose attributes are command-line options or configuration values.
_ARG_RECEIVERS = frozenset({"args", "opt", "opts", "flags", "FLAGS", "parsed", "hparams", "hp"})
#: Functions that create a model from a registered name (timm's ``create_model``).
_BY_NAME = frozenset({"create_model", "build_model", "get_model", "model_entrypoint"})


@dataclass(frozen=True)
class Lookup:
    """A model picked by name: the def it resolves to and how the name was found."""

    target: str  # dotted def (function or class) the name resolves to
    how: str  # "args.model = 'resnet50' (argparse default at train.py:112)"


def _register_key(dec: ast.expr, default: str) -> tuple[ast.expr, str] | None:
    """(the registry expression, the registered name) of a registering decorator."""
    func = dec.func if isinstance(dec, ast.Call) else dec
    tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if tail not in _REGISTER:
        return None
    key = default
    if isinstance(dec, ast.Call):
        named = [k.value for k in dec.keywords if k.arg in ("name", "module_name")]
        for arg in [*dec.args[:1], *named]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                key = arg.value
    # ``@REG.register()`` registers in REG; a bare ``@register_model`` in its own table.
    registry = func.value if isinstance(func, ast.Attribute) and tail != "register_model" else func
    return registry, key


class Registries:
    """Every registration of the repository and the defaults that select one.

    ``resolve(src, expr)`` gives the dotted name an expression stands for (imports, the
    module's own defs); it is the caller's, so relative imports resolve as they do there.
    """

    def __init__(
        self,
        sources: Iterable[Source],
        resolve: Callable[[Source, ast.expr], str | None],
        by_module: dict[str, Source],
    ) -> None:
        self.resolve = resolve
        self.by_module = by_module
        #: registry (dotted) -> registered name -> dotted def
        self.tables: dict[str, dict[str, str]] = {}
        #: argparse dest -> (file, default expression) of each option
        self.options: dict[str, list[tuple[Source, ast.expr]]] = {}
        #: dotted configuration key suffix ("MODEL.META_ARCHITECTURE") -> (file, value)
        self.config: dict[str, list[tuple[Source, ast.Assign]]] = {}
        #: registered model name -> the architectures registered for it (fairseq's
        #: ``@register_model_architecture("transformer", "transformer_iwslt_de_en")``)
        self.architectures: dict[str, int] = {}
        for src in sources:
            self._index(src)

    def _index(self, src: Source) -> None:
        for qual, node in src.defs.items():
            if "." in qual or isinstance(node, ast.Lambda):
                continue
            for dec in node.decorator_list:
                model = _architecture_of(dec)
                if model is not None:
                    self.architectures[model] = self.architectures.get(model, 0) + 1
                found = _register_key(dec, node.name)
                if found is None:
                    continue
                registry = self.resolve(src, found[0])
                if registry is not None:
                    self.tables.setdefault(registry, {})[found[1]] = f"{src.module}.{qual}"
        for call in src.calls:
            option = _option(call)
            if option is not None:
                self.options.setdefault(option[0], []).append((src, option[1]))
        for node in src.assigns:
            if len(node.targets) == 1 and isinstance(node.value, ast.Constant):
                parts = name_chain(node.targets[0])
                if parts and len(parts) >= 3:  # _C.MODEL.META_ARCHITECTURE = "..."
                    self.config.setdefault(".".join(parts[-2:]), []).append((src, node))

    # ------------------------------------------------------------------------ the name
    def key(
        self, src: Source, expr: ast.expr | None, fn: FuncDef | None, depth: int = 0
    ) -> tuple[str, str] | None:
        """(the name ``expr`` selects by default, how it was found)."""
        if expr is None or depth > 3:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return expr.value, repr(expr.value)
        if isinstance(expr, ast.Name) and fn is not None:
            bound = [
                n
                for n in ast.walk(fn)
                if isinstance(n, ast.Assign)
                and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name)
                and n.targets[0].id == expr.id
                and n.lineno <= expr.lineno
            ]
            if bound:
                last = max(bound, key=lambda n: n.lineno)
                return self.key(src, last.value, fn, depth + 1)
            return None
        parts = name_chain(expr)
        if not parts or len(parts) < 2:
            return None
        text = ".".join(parts)
        if parts[0] in _ARG_RECEIVERS and len(parts) == 2:
            options = self.options.get(parts[1], [])
            local = [o for o in options if o[0].path == src.path]
            for osrc, default in local or options:
                if isinstance(default, ast.Constant) and isinstance(default.value, str):
                    return default.value, (
                        f"{text} = {default.value!r}, argparse default at {osrc.loc(default)}"
                    )
            return None
        for csrc, node in self.config.get(".".join(parts[-2:]), []):
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value, f"{text} = {value.value!r}, default at {csrc.loc(node)}"
        return None

    def most_variants(self, classes: Iterable[str]) -> tuple[str, str] | None:
        """When the model is named only at run time (fairseq's ``--arch``, no default):
        (the registered model class with the most registered architectures, why), among
        the module classes ``classes``; None when no registry counts architectures."""
        modules = set(classes)
        for registry, table in sorted(self.tables.items()):
            models = {name: target for name, target in table.items() if target in modules}
            counted = {name: self.architectures.get(name, 0) for name in models}
            if len(models) < 3 or not any(counted.values()):
                continue
            name = max(sorted(counted), key=lambda n: counted[n])
            why = (
                f"a name given at run time, no default: {registry.rpartition('.')[2]} "
                f"registers {len(models)} models and {sum(counted.values())} architectures; "
                f"{name!r} has the most ({counted[name]})"
            )
            return models[name], why
        return None

    # -------------------------------------------------------------------- the look-ups
    def lookup(self, src: Source, call: ast.Call, fn: FuncDef | None) -> Lookup | None:
        """The def a call builds by name, when it is a registry look-up whose name is
        known: ``M.__dict__[key](...)``, ``REG.get(key)(...)``, ``create_model(key, ...)``
        over ``@register_model`` functions, ``importlib.import_module(key).attr(...)``."""
        func = call.func
        if (
            isinstance(func, ast.Subscript)
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "__dict__"
        ):
            module = self.resolve(src, func.value.value)
            found = self.key(src, func.slice, fn)
            if module in self.by_module and found is not None:
                target = self._in_module(module, found[0])
                text = src.text(func, 60)
                return Lookup(target, f"{text}: {found[1]}") if target else None
            return None
        if (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Attribute)
            and func.func.attr == "get"
            and func.args
        ):
            registry = self.resolve(src, func.func.value)
            table = self.tables.get(registry or "")
            found = self.key(src, func.args[0], fn)
            if table and found is not None and found[0] in table:
                return Lookup(table[found[0]], f"{src.text(func, 60)}: {found[1]}")
            return None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and fn:
            module = self._imported_module(src, func.value, fn)
            if module is not None:
                target = self._in_module(module[0], func.attr)
                return Lookup(target, f"{module[1]}, .{func.attr}") if target else None
        callee = self.resolve(src, func)
        if callee is None or callee.rpartition(".")[2] not in _BY_NAME or not call.args:
            return None
        found = self.key(src, call.args[0], fn)
        if found is None:
            return None
        for registry, table in sorted(self.tables.items()):
            if registry.rpartition(".")[2] == "register_model" and found[0] in table:
                return Lookup(table[found[0]], f"{src.text(func, 40)}({found[1]})")
        return None

    def _imported_module(self, src: Source, name: ast.Name, fn: FuncDef) -> tuple[str, str] | None:
        """``model = importlib.import_module(args.model)``: (the module it loads, how)."""
        for node in ast.walk(fn):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == name.id
                and isinstance(node.value, ast.Call)
                and self.resolve(src, node.value.func) == "importlib.import_module"
                and node.value.args
            ):
                found = self.key(src, node.value.args[0], fn)
                if found is None:
                    return None
                modules = sorted(
                    m for m in self.by_module if m == found[0] or m.endswith("." + found[0])
                )
                if modules:
                    return modules[0], f"importlib.import_module: {found[1]}"
        return None

    def _in_module(self, module: str, name: str) -> str | None:
        """The def ``module.name`` stands for, through module-level aliases
        (``mae_vit_base_patch16 = mae_vit_base_patch16_dec512d8b``)."""
        src = self.by_module.get(module)
        for _ in range(3):
            if src is None:
                return None
            if name in src.defs:
                return f"{src.module}.{name}"  # the spelling the structure uses
            alias = next(
                (
                    n.value
                    for n in src.tree.body
                    if isinstance(n, ast.Assign)
                    and len(n.targets) == 1
                    and isinstance(n.targets[0], ast.Name)
                    and n.targets[0].id == name
                ),
                None,
            )
            if not isinstance(alias, ast.Name):
                return None
            name = alias.id
        return None


def _architecture_of(dec: ast.expr) -> str | None:
    """The model name an architecture decorator registers a variant of:
    ``@register_model_architecture("transformer", "transformer_iwslt_de_en")``."""
    if not isinstance(dec, ast.Call) or not dec.args:
        return None
    func = dec.func
    tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    first = dec.args[0]
    if not tail.endswith("_architecture") or not isinstance(first, ast.Constant):
        return None
    return first.value if isinstance(first.value, str) else None


def _option(call: ast.Call) -> tuple[str, ast.expr] | None:
    """``parser.add_argument("--model", default="resnet50")`` → ("model", default)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"):
        return None
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    default = next((k.value for k in call.keywords if k.arg == "default"), None)
    if not names or default is None:
        return None
    dest = next(
        (
            k.value.value
            for k in call.keywords
            if k.arg == "dest" and isinstance(k.value, ast.Constant)
        ),
        None,
    )
    longs = [n for n in names if n.startswith("--")]
    return str(dest or (longs or names)[0].lstrip("-").replace("-", "_")), default
