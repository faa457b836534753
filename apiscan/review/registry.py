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

Everything is read from the records the scan's workers made of each file
(:class:`~apiscan.extract.models.ModelFacts`): no file is parsed again.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from apiscan.extract import import_package
from apiscan.extract.models import Assign, Expr, Function, ModelFacts
from apiscan.extract.records import FileAnalysis
from apiscan.extract.syntax import shorten
from apiscan.extract.values import Expr as ValueExpr
from apiscan.review.commands import Launch
from apiscan.review.evaluate import bind_call, choice_key, outcomes
from apiscan.review.model import Where
from apiscan.review.names import ArgparseDefaults, OptionDefault, config_key
from apiscan.review.sources import place, with_facts

#: Receivers whose attributes are command-line options or configuration values.
_ARG_RECEIVERS = frozenset({"args", "opt", "opts", "flags", "FLAGS", "parsed", "hparams", "hp"})
#: Functions that create a model from a registered name (timm's ``create_model``).
BY_NAME_FUNCTIONS = frozenset({"create_model", "build_model", "get_model", "model_entrypoint"})


class ModelFile:
    """One file's model-tree records (:class:`~apiscan.extract.models.ModelFacts`) and the
    questions the follower asks of them: an expression's text and name chain, the
    assignments a def sees, its place as a reader finds it."""

    def __init__(self, fa: FileAnalysis, facts: ModelFacts, imports: Iterable[tuple[str, str]]):
        self.fa = fa
        self.path = fa.path
        self.modules = fa.modules
        self.facts = facts
        self.exprs = facts.exprs
        self.functions = facts.functions
        #: qualified name -> index of its (first) def in ``functions``, -1 for a class
        self.defs = dict(facts.defs)
        self.globals = frozenset(facts.globals)
        #: local name -> absolute dotted name: the worker's absolute imports, then the
        #: relative ones (in the order met), resolved against this file's module
        self.imports = dict(imports)
        for level, module, names in facts.relative_imports:
            prefix = self.from_module(level, module)
            for name, asname in names:
                if name != "*":
                    self.imports[asname or name] = f"{prefix}.{name}"
        #: the repository modules it star-imports (``from .unet_parts import *``), as the
        #: scan resolved them: a name bound nowhere else may come from one of them
        self.stars = tuple(ref[:-2] for ref in fa.local_refs if ref.endswith(".*"))
        self._scopes: dict[int, list[Assign]] = {}

    @property
    def module(self) -> str:
        return self.modules[0] if self.modules else ""

    def from_module(self, level: int, module: str) -> str:
        """The absolute module ``from X import ...`` names in this file, ``X`` relative
        (``from ..ops import``, ``from . import``)."""
        package = import_package(self.modules, self.path.endswith("__init__.py")).split(".")
        parts = package[: len(package) - (level - 1)]
        return ".".join([*parts, module] if module else parts)

    def expr(self, ref: int) -> Expr | None:
        return self.exprs[ref] if ref >= 0 else None

    def function(self, fid: int) -> Function | None:
        return self.functions[fid] if fid >= 0 else None

    def text(self, ref: int, limit: int) -> str:
        """The expression's source on one line, cut at ``limit`` (at most the record's)."""
        expr = self.exprs[ref]
        return shorten(expr.value or "" if expr.kind == "name" else expr.text, limit)

    def chain(self, ref: int) -> list[str] | None:
        """``cfg.MODEL.NAME`` → ``["cfg", "MODEL", "NAME"]``; None unless a name chain."""
        parts: list[str] = []
        expr = self.expr(ref)
        while expr is not None and expr.kind == "attr":
            parts.append(expr.value or "")
            expr = self.exprs[expr.refs[0]]
        if expr is None or expr.kind != "name":
            return None
        parts.append(expr.value or "")
        return parts[::-1]

    def args(self, call: Expr) -> tuple[int, ...]:
        """A call's positional arguments."""
        return call.refs[1 : len(call.refs) - len(call.keywords)]

    def assigns_in(self, fid: int) -> list[Assign]:
        """The name assignments ``ast.walk`` meets in the def ``fid`` (nested defs
        included), or in the module's own code when ``fid`` is -1."""
        if fid not in self._scopes:
            self._scopes[fid] = [
                a for a in self.facts.assigns if (fid in a.functions if fid >= 0 else a.module)
            ]
        return self._scopes[fid]

    def bound_above(self, fid: int, name: str, line: int) -> tuple[int, int] | None:
        """(the value, the position in it) the last assignment above ``line`` in the def
        ``fid`` binds ``name`` to: a plain ``name = value`` (position -1) or an unpacking
        ``name, config = value`` (the name's index); None when none does."""
        found = [
            (a.line, a.value, -1) for a in self.assigns_in(fid) if a.single and a.names[0] == name
        ]
        found += [
            (a.line, a.value, a.names.index(name))
            for a in self.facts.unpacked
            if name in a.names and (fid in a.functions if fid >= 0 else a.module)
        ]
        found = [f for f in found if f[0] < line]
        return max(found)[1:] if found else None

    def returns_in(self, fid: int) -> list[int]:
        """The values of the ``return`` statements in the def ``fid``, walk order."""
        return [ref for ref, fids in self.facts.returns if fid in fids]

    def own_return(self, ref: int, fid: int) -> bool:
        """Whether the ``return`` of value ``ref`` is the def ``fid``'s own, not that of a
        def nested in it (a factory's inner ``def layer(x): return Identity()``)."""
        return any(r == ref and fids and fids[-1] == fid for r, fids in self.facts.returns)

    def same_branch(self, assign: Assign, use: Expr) -> bool:
        """Whether ``use`` sees ``assign``: every compound statement around the assignment
        is around the use too, in the same branch (``if task == "train": model =
        Train(model)`` is not what ``elif task == "predict": Predict(model)`` reads)."""
        links = self.facts.links
        sides: dict[int, bool] = {}
        link = use.link
        while link >= 0:
            stmt, _, in_body, link = links[link]
            sides.setdefault(stmt, in_body)
        link = assign.link
        while link >= 0:
            stmt, is_def, in_body, link = links[link]
            if is_def:
                break
            if sides.get(stmt) is None or sides[stmt] != in_body:
                return False
        return True

    def where(self, line: int) -> Where:
        return place(self.fa, line)

    def loc(self, line: int) -> str:
        return str(self.where(line))


def model_files(analyses: Iterable[FileAnalysis]) -> list[ModelFile]:
    """The files the scan analysed without error whose workers recorded the model tree's
    facts, in path order (test files included: the caller leaves them out)."""
    return [
        ModelFile(fa, fa.syntax.models, fa.syntax.imports)
        for fa in sorted(analyses, key=lambda a: a.path)
        if not fa.errors and fa.syntax is not None and fa.syntax.models is not None
    ]


def branch_alternatives(file: ModelFile) -> dict[str, frozenset[str]]:
    """Dotted name -> every dotted name the same local name binds, for a name the file
    imports in several ``if``/``elif`` branches (``if args.arch == "a": from net_a import
    Net`` / ``elif ...: from net_b import Net``): the scan's import table keeps the last
    binding, so a call of that name resolved to one of them may run any of them."""
    by_local: dict[str, set[str]] = {}
    for found in file.facts.branch_imports:
        module = file.from_module(found.level, found.module) if found.level else found.module
        by_local.setdefault(found.local, set()).add(f"{module}.{found.name}")
    return {
        dotted: frozenset(names)
        for names in by_local.values()
        if len(names) > 1
        for dotted in names
    }


@dataclass(frozen=True)
class Lookup:
    """A model picked by name: the def it resolves to and how the name was found."""

    target: str  # dotted def (function or class) the name resolves to
    how: str  # "args.model = 'resnet50' (argparse default at train.py:112)"
    #: (the other names the same look-up takes, the def each resolves to), where known
    alternatives: tuple[tuple[str, str], ...] = ()
    #: picked by name among a ``@register_model`` table's functions (``create_model(args.
    #: model)``): the others are the sizes and models the run's name does not pick
    registered: bool = False


class Registries:
    """Every registration of the repository and the defaults that select one.

    ``resolve(file, parts)`` gives the dotted name a name chain stands for (imports, the
    module's own defs); it is the caller's, so relative imports resolve as they do there.
    """

    def __init__(
        self,
        files: Iterable[ModelFile],
        resolve: Callable[[ModelFile, list[str] | None], str | None],
        by_module: dict[str, ModelFile],
        argparse: ArgparseDefaults,
    ) -> None:
        files = list(files)
        self.files = files
        self._called: frozenset[str] | None = None
        self.resolve = resolve
        self.by_module = by_module
        #: registry (dotted) -> registered name -> dotted def
        self.tables: dict[str, dict[str, str]] = {}
        #: argparse dest -> (file, default string or None, line of the default) per option
        self.options: dict[str, list[tuple[ModelFile, str | None, int]]] = {}
        #: (path, line of the default) -> the string the documented training command gives
        #: the option (``--model deit_small_patch16_224``), which the run selects by
        self.launched: dict[tuple[str, int], str] = {}
        #: dotted configuration key suffix ("MODEL.META_ARCHITECTURE") -> (file, value, line)
        self.config: dict[str, list[tuple[ModelFile, str | None, int]]] = {}
        #: registered model name -> the architectures registered for it (fairseq's
        #: ``@register_model_architecture("transformer", "transformer_iwslt_de_en")``)
        self.architectures: dict[str, int] = {}
        #: architecture name -> the registered model name it is a variant of
        #: (``"transformer_iwslt_de_en"`` -> ``"transformer"``)
        self.variants: dict[str, str] = {}
        #: ``config:<dotted key>`` -> the values the training's config file gives it
        #: (:attr:`~apiscan.review.names.ArgparseDefaults.settings`)
        self.settings = argparse.settings
        for file in files:
            self._index(file)
        by_path = {file.path: file for file in files}
        for option in argparse.with_default(by_path):  # the review's argparse table
            found = (by_path[option.path], option.text, option.written.line)  # type: ignore[union-attr]
            self.options.setdefault(option.dest, []).append(found)
            given = argparse.launched.get((option.path, option.line, option.col))
            if isinstance(given, str) and option.text is not None:
                self.launched[(option.path, found[2])] = given

    def _index(self, file: ModelFile) -> None:
        for qual, _, decorators in file.facts.decorated:
            for model, chain, key in decorators:
                if model:
                    self.architectures[model] = self.architectures.get(model, 0) + 1
                    if key:
                        self.variants.setdefault(key, model)
                if not chain:
                    continue
                registry = self.resolve(file, list(chain))
                if registry is not None:
                    self.tables.setdefault(registry, {})[key] = f"{file.module}.{qual}"
        for suffix, value, line in file.facts.config:
            self.config.setdefault(suffix, []).append((file, value, line))

    def dotted(self, file: ModelFile, ref: int) -> str | None:
        return self.resolve(file, file.chain(ref))

    # ------------------------------------------------------------------------ the name
    def key(self, file: ModelFile, ref: int, fn: int, depth: int = 0) -> tuple[str, str] | None:
        """(the name the expression ``ref`` selects by default, how it was found); ``fn``
        is the def it is in (-1: the module's code)."""
        expr = file.expr(ref)
        if expr is None or depth > 3:
            return None
        if expr.kind == "const" and expr.value is not None:
            return expr.value, repr(expr.value)
        if expr.kind == "name" and fn >= 0:
            bound = [
                a
                for a in file.assigns_in(fn)
                if a.single and a.names[0] == expr.value and a.line <= expr.line
            ]
            if bound:
                last = max(bound, key=lambda a: a.line)
                return self.key(file, last.value, fn, depth + 1)
            function = file.functions[fn]
            values = file.fa.syntax.values if file.fa.syntax is not None else None
            own = [
                i
                for i, d in enumerate(values.defs if values is not None else ())
                if d.qual == function.qualname and d.line == function.line and not d.is_class
            ]
            if len(own) == 1 and expr.value:
                return self._passed(file, own[0], expr.value, depth + 1)
            return None
        return self.chain_key(file, file.chain(ref))

    def _passed(self, file: ModelFile, index: int, name: str, depth: int) -> tuple[str, str] | None:
        """(the name the parameter ``name`` of def ``index`` (of ``file``'s value records)
        selects, how it was found) where every call of the repository passes the same one
        (``init_model(model_name=model_name)`` after ``model_name =
        args["meta"]["model_name"]``, a key of the training's config file: its value);
        None when no call passes a told one or the calls disagree."""
        values = file.fa.syntax.values if file.fa.syntax is not None else None
        if values is None or depth > 3 or name not in dict(values.defs[index].params):
            return None
        d = values.defs[index]
        targets = {f"{module}.{d.qual}" for module in file.modules}
        found: set[tuple[str, str]] = set()
        for caller in self.files:
            facts = caller.fa.syntax.values if caller.fa.syntax is not None else None
            if facts is None:
                continue
            for call in facts.calls:
                func = call.expr.func
                if func.kind not in ("Name", "Attribute") or func.name != d.name:
                    continue
                if self.resolve(caller, func.full().split(".")) not in targets:
                    continue
                passed = bind_call(d, call.expr).get(name)
                if passed is None:
                    continue  # the default: a run that leaves it says nothing of this one
                picked = self._value_key(caller, call.function, passed, call.expr.line, depth)
                if picked is None:
                    return None
                found.add(picked)
        if len({value for value, _ in found}) != 1:
            return None
        value, how = min(found)
        return value, f"{name} = {value!r}, passed as {how}"

    def _value_key(
        self, file: ModelFile, fn: int, expr: ValueExpr, line: int, depth: int
    ) -> tuple[str, str] | None:
        """(the string ``expr`` holds at ``line`` of def ``fn`` (value records' index, -1
        the module), how): a literal, a local's last value before the line, a parameter
        every caller passes alike, a config file's key read by subscripts
        (:attr:`~apiscan.review.names.ArgparseDefaults.settings`) or an option."""
        values = file.fa.syntax.values if file.fa.syntax is not None else None
        if values is None or depth > 3:
            return None
        if expr.kind == "Constant":
            return (
                (expr.value, f"{expr.value!r} at {file.loc(line)}")
                if isinstance(expr.value, str)
                else None
            )
        assigns = values.defs[fn].assigns if fn >= 0 else values.assigns
        if expr.kind == "Name":
            bound = [
                a
                for a in assigns
                if a.target.kind == "Name" and a.target.name == expr.name and a.line < line
            ]
            if bound:
                last = max(bound, key=lambda a: a.line)
                return self._value_key(file, fn, last.value, last.line, depth + 1)
            return self._passed(file, fn, expr.name, depth + 1) if fn >= 0 else None
        if expr.kind == "Subscript":
            # each local's last value before the read (``data = args["data"]``)
            once = {
                a.target.name: a.value
                for a in sorted(assigns, key=lambda a: a.line)
                if a.target.kind == "Name" and a.line < line
            }
            key = config_key(expr, once)
            given = self.settings.get(key or "", set())
            if len(given) == 1 and isinstance(value := next(iter(given)), str):
                return value, f"{expr.text} at {file.loc(line)}, {key[7:]} in the config file"
            return None
        if expr.kind == "Attribute":
            return self.chain_key(file, expr.full().split("."))
        return None

    def chain_key(self, file: ModelFile, parts: list[str] | None) -> tuple[str, str] | None:
        """(the name an option or config key ``args.model`` / ``cfg.MODEL.NAME`` holds by
        default, how it was found)."""
        if not parts or len(parts) < 2:
            return None
        text = ".".join(parts)
        if parts[0] in _ARG_RECEIVERS and len(parts) == 2:
            options = self.options.get(parts[1], [])
            local = [o for o in options if o[0].path == file.path]
            for ofile, default, line in local or options:
                given = self.launched.get((ofile.path, line))
                if given is not None:
                    # the documented training command's choice, not the default
                    return given, (
                        f"{text} = {given!r}, given by the documented training command "
                        f"(argparse default {default!r} at {ofile.loc(line)})"
                    )
                if default is not None:
                    return default, (f"{text} = {default!r}, argparse default at {ofile.loc(line)}")
            return None
        for cfile, value, line in self.config.get(".".join(parts[-2:]), []):
            if value is not None:
                return value, f"{text} = {value!r}, default at {cfile.loc(line)}"
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

    def documented(
        self, classes: Iterable[str], runs: Iterable[Launch]
    ) -> tuple[str, str, list[str]] | None:
        """When the model is named only at run time (fairseq's ``--arch``, no default) and a
        documented training command names it (``fairseq-train data-bin/x --arch
        fconv_iwslt_de_en``): (the registered model class that name builds, why, the other
        classes the same registry holds: what other commands build). The first run whose
        option value is a registered model's name, or an architecture registered for one,
        among the module classes ``classes``; None when no run names one."""
        modules = set(classes)
        for registry, table in sorted(self.tables.items()):
            models = {name: target for name, target in table.items() if target in modules}
            if len(models) < 2:
                continue
            for run in runs:
                for flag, value in zip(run.words, run.words[1:], strict=False):
                    if not flag.startswith("-"):
                        continue
                    if "=" in flag:
                        flag, _, value = flag.partition("=")
                    model = self.variants.get(value, value)
                    if model not in models:
                        continue
                    via = f" (an architecture of {model!r})" if model != value else ""
                    why = (
                        f"{flag} {value}{via} in the documented training command at "
                        f"{run.path}:{run.line}; {registry.rpartition('.')[2]} registers "
                        f"{len(models)} models"
                    )
                    # every other entry (those no module class stands for too)
                    others = sorted({t for t in table.values() if t != models[model]})
                    return models[model], why, others
        return None

    def namespace_entries(self, module: str, target: str) -> tuple[tuple[str, str], ...]:
        """The other builders a look-up in ``module``'s namespace could take instead of
        ``target`` (``modeling.__dict__[opts.model]`` picking ``deeplabv3plus_mobilenet``
        beside ``deeplabv3_resnet50``, ``deeplabv3plus_xception``...): the module's public
        functions (by name or module-level alias) that no code calls by name. Those are
        entries of the namespace the option picks from, as ``@register_model`` functions
        are of their table, and the run builds none of them; a public function something
        calls directly (a helper the picked builder uses) is no entry, and neither are the
        module's classes (the picked builder's model and its parts)."""
        file = self.by_module.get(module)
        if file is None:
            return ()
        named = [n for n, i in file.defs.items() if "." not in n and i >= 0]
        named += [n for n, _ in file.facts.aliases if "." not in n]
        out: dict[str, str] = {}
        for name in named:
            if name.startswith("_") or name in out:
                continue
            dotted = self.in_module(module, name)
            if dotted is None or dotted == target or dotted in self.called_by_name():
                continue
            found = file.defs.get(dotted.rpartition(".")[2])
            if found is None or found < 0:
                continue  # an alias of a class, or of another module's def
            out[name] = dotted
        return tuple(sorted(out.items()))

    def called_by_name(self) -> frozenset[str]:
        """Every def a call of the repository names (resolved through imports): what is
        called directly, not looked up by a computed name; a module's namespace read with a
        literal key (``vit.__dict__['vit_predictor'](...)``) names its def too."""
        if self._called is None:
            called: set[str] = set()
            for file in self.files:
                for ref, _ in file.facts.calls:
                    head = file.exprs[ref].refs[:1]
                    dotted = self.dotted(file, head[0]) if head and head[0] >= 0 else None
                    if dotted is not None:
                        called.add(dotted)
                    func = file.expr(head[0]) if head else None
                    if func is None or func.kind != "sub" or len(func.refs) != 2:
                        continue
                    inner, key = file.expr(func.refs[0]), file.expr(func.refs[1])
                    if (
                        inner is not None
                        and inner.kind == "attr"
                        and inner.value == "__dict__"
                        and key is not None
                        and key.kind == "const"
                        and key.value
                    ):
                        module = self.dotted(file, inner.refs[0])
                        picked = self.in_module(module, key.value) if module else None
                        if picked is not None:
                            called.add(picked)
            self._called = frozenset(called)
        return self._called

    def registered_beside(self, target: str) -> list[str]:
        """The other names registered in ``target``'s registry from ``target``'s module (the
        other sizes of DeiT's ``deit_base_patch16_224`` in models.py), in registration
        order: what the same option picks instead."""
        module = target.rpartition(".")[0]
        for _, table in sorted(self.tables.items()):
            if target in table.values():
                return [
                    name
                    for name, dotted in table.items()
                    if dotted != target and dotted.rpartition(".")[0] == module
                ]
        return []

    # -------------------------------------------------------------------- the look-ups
    def lookup(self, file: ModelFile, ref: int, fn: int) -> Lookup | None:
        """The def the call ``ref`` builds by name, when it is a registry look-up whose
        name is known: ``M.__dict__[key](...)``, ``REG.get(key)(...)``, ``create_model(key,
        ...)`` over ``@register_model`` functions, ``importlib.import_module(key).attr(...)``."""
        call = file.exprs[ref]
        func_ref = call.refs[0]
        func = file.exprs[func_ref]
        inner = file.expr(func.refs[0]) if func.refs else None
        if (
            func.kind == "sub"
            and inner is not None
            and inner.kind == "attr"
            and inner.value == "__dict__"
        ):
            module = self.dotted(file, inner.refs[0])
            found = self.key(file, func.refs[1], fn)
            if module in self.by_module and found is not None:
                target = self.in_module(module, found[0])
                text = file.text(func_ref, 60)
                if not target:
                    return None
                # a key written as a literal (``vit.__dict__['vit_predictor']``) is no
                # option: no run picks another entry of the namespace through it
                key = file.expr(func.refs[1])
                literal = key is not None and key.kind == "const"
                others = () if literal else self.namespace_entries(module, target)
                return Lookup(target, f"{text}: {found[1]}", others, registered=bool(others))
            return None
        if func.kind == "sub":
            # ``registry.BACKBONES[cfg.MODEL.BACKBONE.CONV_BODY](cfg)``: maskrcnn-benchmark's
            # registries are dicts filled by ``@registry.BACKBONES.register("R-50-FPN")``
            table = self.tables.get(self.dotted(file, func.refs[0]) or "")
            found = self.key(file, func.refs[1], fn) if table else None
            if table and found is not None and found[0] in table:
                return Lookup(table[found[0]], f"{file.text(func_ref, 60)}: {found[1]}")
            return None
        if func.kind == "call" and not (
            inner is not None and inner.kind == "attr" and inner.value == "get"
        ):
            factory = self._factory(file, func, fn)
            if factory is not None:
                return factory
        if (
            func.kind == "call"
            and inner is not None
            and inner.kind == "attr"
            and inner.value == "get"
            and file.args(func)
        ):
            registry = self.dotted(file, inner.refs[0])
            table = self.tables.get(registry or "")
            found = self.key(file, file.args(func)[0], fn)
            if table and found is not None and found[0] in table:
                # the other names the registry holds: what another config would build
                others = tuple((k, t) for k, t in sorted(table.items()) if k != found[0] and k)
                how = f"{file.text(func_ref, 60)}: {found[1]}"
                return Lookup(table[found[0]], how, others)
            return None
        if (
            func.node.kind == "Call"
            and func.node.func.kind == "Name"
            and func.node.func.name == "eval"
        ):
            return self._evaluated(file, func)
        if func.kind == "attr" and inner is not None and inner.kind == "name":
            picked = self.module_attr(file, func_ref, fn)
            if picked is not None:
                return picked
            if self._imported_module(file, inner.value or "", fn) is not None:
                return None
        return self._by_name(file, call, func_ref, fn)

    def sibling_attr(self, file: ModelFile, ref: int, fn: int) -> str | None:
        """``MODEL.BoxNet`` under ``if FLAGS.model == 'boxnet':`` where the option's default
        loads a module with no ``BoxNet`` (``votenet``): the def of that name in the one
        module beside the default one that defines it (``models.boxnet``), the module
        another value of the option loads; None when none or several do."""
        func = file.expr(ref)
        inner = file.expr(func.refs[0]) if func is not None and func.refs else None
        if func is None or func.kind != "attr" or inner is None or inner.kind != "name":
            return None
        module = self._imported_module(file, inner.value or "", fn)
        if module is None or self.in_module(module[0], func.value or "") is not None:
            return None
        parent = module[0].rpartition(".")[0]
        found = {
            target
            for name in self.by_module
            if name.rpartition(".")[0] == parent and name != module[0]
            if (target := self.in_module(name, func.value or "")) is not None
        }
        return found.pop() if len(found) == 1 else None

    def module_attr(self, file: ModelFile, ref: int, fn: int) -> Lookup | None:
        """``MODEL.VoteNet`` where ``MODEL = importlib.import_module(FLAGS.model)`` (in the
        def ``fn``, or the module's own code when -1: a training script choosing its network
        module at its top level): the def the attribute names in the module the key loads by
        default, with the same attribute of the modules the other branches load."""
        func = file.expr(ref)
        inner = file.expr(func.refs[0]) if func is not None and func.refs else None
        if func is None or func.kind != "attr" or inner is None or inner.kind != "name":
            return None
        module = self._imported_module(file, inner.value or "", fn)
        if module is None:
            return None
        target = self.in_module(module[0], func.value or "")
        others = tuple(
            (other, found)
            for other in module[2]
            if (found := self.in_module(other, func.value or "")) is not None
        )
        how = f"{module[1]}, .{func.value}"
        return Lookup(target, how, others) if target else None

    def _factory(self, file: ModelFile, func: Expr, fn: int) -> Lookup | None:
        """``get_model(cfg.MODEL.NAME)(**kwargs)``: a repository function whose one ``return``
        looks a registry up by one of its parameters (``return REGISTRY.get(model_name)``,
        ``return REGISTRY[model_name]``), resolved with the name the call passes for it."""
        found = self._function(self.dotted(file, func.refs[0]))
        if found is None:
            return None
        tfile, fid = found
        returns = tfile.returns_in(fid)
        ret = tfile.expr(returns[0]) if len(returns) == 1 else None
        if ret is None:
            return None
        inner = tfile.expr(ret.refs[0]) if ret.refs else None
        if ret.kind == "call" and inner is not None and inner.kind == "attr":
            if inner.value != "get" or len(tfile.args(ret)) != 1:
                return None
            registry, key_ref = self.dotted(tfile, inner.refs[0]), tfile.args(ret)[0]
        elif ret.kind == "sub" and len(ret.refs) == 2:
            registry, key_ref = self.dotted(tfile, ret.refs[0]), ret.refs[1]
        else:
            return None
        table = self.tables.get(registry or "")
        key = tfile.expr(key_ref)
        values = tfile.fa.syntax.values if tfile.fa.syntax is not None else None
        qual = tfile.functions[fid].qualname
        own = [d for d in values.defs if d.qual == qual and not d.is_class] if values else []
        if not table or key is None or key.kind != "name" or len(own) != 1 or own[0].owner >= 0:
            return None
        positional = own[0].positional
        if key.value not in positional:
            return None
        index = positional.index(key.value)
        args = file.args(func)
        named = dict(
            zip(func.keywords, func.refs[len(func.refs) - len(func.keywords) :], strict=True)
        )
        arg = args[index] if index < len(args) else named.get(key.value or "")
        picked = self.key(file, arg, fn) if arg is not None else None
        if picked is None or picked[0] not in table:
            return None
        others = tuple((k, t) for k, t in sorted(table.items()) if k != picked[0] and k)
        how = f"{file.text(func.refs[0], 40)}({picked[1]}) → {tfile.text(returns[0], 40)}"
        return Lookup(table[picked[0]], how, others)

    def _function(self, dotted: str | None) -> tuple[ModelFile, int] | None:
        """(file, index) of the repository function ``dotted`` names, through the imports
        that re-export it (``from .build import get_model`` in a package's
        ``__init__.py``)."""
        for _ in range(4):
            if not dotted:
                return None
            module, _, name = dotted.rpartition(".")
            file = self.by_module.get(module)
            if file is None:
                return None
            fid = file.defs.get(name)
            if fid is not None:
                return (file, fid) if fid >= 0 else None
            dotted = file.imports.get(name)
        return None

    def _by_name(self, file: ModelFile, call: Expr, func_ref: int, fn: int) -> Lookup | None:
        """``create_model(key, ...)`` over ``@register_model`` functions."""
        callee = self.dotted(file, func_ref)
        args = file.args(call)
        if callee is None or callee.rpartition(".")[2] not in BY_NAME_FUNCTIONS or not args:
            return None
        found = self.key(file, args[0], fn)
        if found is None:
            return None
        for registry, table in sorted(self.tables.items()):
            if registry.rpartition(".")[2] == "register_model" and found[0] in table:
                # the table's other names: what another ``--model`` would build
                others = tuple((k, t) for k, t in table.items() if k != found[0] and k)
                how = f"{file.text(func_ref, 40)}({found[1]})"
                return Lookup(table[found[0]], how, others, registered=True)
        return None

    def _evaluated(self, file: ModelFile, func: Expr) -> Lookup | None:
        """``eval('models.' + cfg.MODEL.NAME + '.get_pose_net')(cfg)`` (HRNet's train.py):
        the def the dotted name evaluates to with the key's default (the chosen YAML's when
        one is), and the other modules that define the same function (its alternatives)."""
        args = func.node.args
        pieces = _concatenated(args[0]) if len(args) == 1 else None
        keys = [p for p in pieces or () if not isinstance(p, str)]
        if pieces is None or len(keys) != 1 or keys[0].kind != "Attribute":
            return None
        found = self.chain_key(file, keys[0].text.split("."))
        form = "".join(p if isinstance(p, str) else "{}" for p in pieces)
        if found is None or form.count("{}") != 1 or "{" in form.replace("{}", ""):
            return None
        module, _, name = form.rpartition(".")
        prefix, _, suffix = module.partition("{}")
        if not name or "." in suffix or "{}" in name:
            return None
        named: dict[str, str] = {}  # the key -> the def it picks
        # the module as the script imports it (``models.pose_hrnet``) or under the
        # repository's root (``lib.models.pose_hrnet``): the shortest spelling first
        pattern = re.compile(rf"(?:\w+\.)*{re.escape(prefix)}(\w+){re.escape(suffix)}")
        for dotted in sorted(self.by_module, key=lambda m: (len(m), m)):
            match = pattern.fullmatch(dotted)
            target = self.in_module(dotted, name) if match else None
            if match and target is not None:
                named.setdefault(match.group(1), target)
        if found[0] not in named:
            return None
        alternatives = tuple((k, t) for k, t in sorted(named.items()) if k != found[0])
        return Lookup(named[found[0]], f"{func.node.text}: {found[1]}", alternatives)

    def _imported_module(
        self, file: ModelFile, name: str, fn: int
    ) -> tuple[str, str, tuple[str, ...]] | None:
        """``model = importlib.import_module(args.model)``: (the module it loads, how, the
        modules the def's other branches load instead). With one ``import_module`` per
        branch of a test on a parameter (``if network == 'a': pkg = import_module("x.a")
        elif network == 'b': ... "x.b"``), the branch the values the def's callers pass
        select most often (:meth:`_voted_branch`); the first one when that cannot be told."""
        found: list[tuple[int, str, str]] = []  # line, module, how
        for assign in file.assigns_in(fn):
            value = file.expr(assign.value)
            if (
                assign.single
                and assign.names[0] == name
                and value is not None
                and value.kind == "call"
                and self.dotted(file, value.refs[0]) == "importlib.import_module"
                and file.args(value)
            ):
                key = self.key(file, file.args(value)[0], fn)
                if key is None:
                    continue  # a module named at run time (a user's own network)
                modules = sorted(
                    m for m in self.by_module if m == key[0] or m.endswith("." + key[0])
                )
                if modules and all(modules[0] != m for _, m, _ in found):
                    found.append((assign.line, modules[0], f"importlib.import_module: {key[1]}"))
        if not found:
            return None
        found.sort()
        chosen, why = 0, ""
        if len(found) > 1 and fn >= 0:
            voted = self._voted_branch(file, fn, [line for line, _, _ in found])
            if voted is not None:
                chosen, why = voted
        _, module, how = found[chosen]
        others = tuple(m for i, (_, m, _) in enumerate(found) if i != chosen)
        return module, how + (f" ({why})" if why else ""), others

    def _voted_branch(self, file: ModelFile, fn: int, lines: list[int]) -> tuple[int, str] | None:
        """Which of the assignments on ``lines`` (each in its own branch of ``if`` tests on
        one parameter of the def ``fn``) the def's callers select: each literal a call of
        the def passes for that parameter, or, for a name passed, each literal the caller
        assigns that name (EasyOCR-like ``recog_network = 'generation2'`` in most branches
        of a language switch, then ``get_recognizer(recog_network, ...)``), is a vote for
        the branch its value takes for certain. (index in ``lines``, why), or None when no
        value decides a branch or two branches tie."""
        values = file.fa.syntax.values if file.fa.syntax is not None else None
        func = file.function(fn)
        if values is None or func is None:
            return None
        own = [d for d in values.defs if d.qual == func.qualname and not d.is_class]
        if len(own) != 1 or own[0].owner >= 0:
            return None  # a method: its callers are not told apart here
        d = own[0]
        ifs: list[tuple[tuple[ValueExpr, bool], ...]] = []
        for line in lines:
            stored = [a for a in d.assigns if a.line == line]
            if not stored:
                return None
            ifs.append(
                tuple(
                    (i.test, 0 < i.body_end < line)
                    for i in stored[0].ifs
                    if i.function == d.function
                )
            )
        read = {
            k for tests in ifs for test, _ in tests for e in test.walk() if (k := choice_key(e))
        }
        params = [p for p in d.positional if p in read]
        if len(params) != 1:
            return None
        param = params[0]
        votes = self._passed_literals(f"{file.module}.{d.qual}", d.positional.index(param), param)
        score = [0] * len(lines)
        for value, count in votes.items():
            for i, tests in enumerate(ifs):
                if tests and all(
                    outcomes(test, choice_key, {param: [value]}) == {not in_else}
                    for test, in_else in tests
                ):
                    score[i] += count
        best = max(score)
        if best == 0 or score.count(best) > 1:
            return None
        total = sum(votes.values())
        index = score.index(best)
        return index, f"{param}: {best} of the {total} values its callers pass select it"

    def _passed_literals(self, dotted: str, index: int, param: str) -> dict[object, int]:
        """literal -> how often the calls of the function ``dotted`` pass it for the
        parameter at ``index`` (or named ``param``): a literal argument, or each literal the
        caller's def assigns a name it passes."""
        out: dict[object, int] = {}
        seen: set[str] = set()
        for caller in self.by_module.values():
            if caller.path in seen:
                continue
            seen.add(caller.path)
            for ref, cfid in caller.facts.calls:
                call = caller.exprs[ref]
                if self.dotted(caller, call.refs[0]) != dotted:
                    continue
                args = caller.args(call)
                given = call.refs[len(call.refs) - len(call.keywords) :]
                named = dict(zip(call.keywords, given, strict=True))
                arg = args[index] if index < len(args) else named.get(param)
                expr = caller.expr(arg) if arg is not None else None
                if expr is None:
                    continue
                if expr.kind == "const" and expr.value is not None:
                    out[expr.value] = out.get(expr.value, 0) + 1
                elif expr.kind == "name" and cfid >= 0:
                    for a in caller.assigns_in(cfid):
                        v = caller.expr(a.value) if a.single and a.names[0] == expr.value else None
                        if v is not None and v.kind == "const" and v.value is not None:
                            out[v.value] = out.get(v.value, 0) + 1
        return out

    def in_module(self, module: str, name: str) -> str | None:
        """The def ``module.name`` stands for, through module-level aliases
        (``mae_vit_base_patch16 = mae_vit_base_patch16_dec512d8b``)."""
        file = self.by_module.get(module)
        for _ in range(3):
            if file is None:
                return None
            if name in file.defs:
                return f"{file.module}.{name}"  # the spelling the structure uses
            alias = next((value for n, value in file.facts.aliases if n == name), None)
            if not alias:
                return None
            name = alias
        return None


def _concatenated(expr: ValueExpr) -> list[str | ValueExpr] | None:
    """The pieces of a string built with ``+`` (constants as strings), or None."""
    if expr.kind == "Constant":
        return [expr.value] if isinstance(expr.value, str) else None
    if expr.kind == "BinOp" and expr.name == "Add" and len(expr.parts) == 2:
        left, right = (_concatenated(p) for p in expr.parts)
        return None if left is None or right is None else [*left, *right]
    return [expr] if expr.kind in ("Attribute", "Name") else None


@dataclass(frozen=True)
class Choice:
    """Classes registered under names and picked by a command-line option (fairseq's
    ``setup_registry("--criterion", default="cross_entropy")`` with ``@register_criterion(
    "label_smoothed_cross_entropy")``): which one the run builds."""

    option: str
    where: Where  # the registry's set-up
    default: str | None
    #: (name, where it is registered, the dotted class or function) of each entry
    registered: tuple[tuple[str, Where, str], ...]
    #: the name the documented training command gives the option, and where ("" for none)
    documented: str = ""
    documented_at: str = ""
    #: where the default comes from when the option's declaration gives it, not the set-up
    default_at: str = ""

    @property
    def chosen(self) -> str | None:
        """The name the run picks: the documented command's, else the default; None when
        neither names a registered entry."""
        names = {name for name, _, _ in self.registered}
        for name in (self.documented, self.default):
            if name and name in names:
                return name
        return None

    def left_out(self) -> list[tuple[str, Where, str]]:
        """The entries the run does not pick (none when the pick is not known): what other
        commands build."""
        chosen = self.chosen
        if chosen is None:
            return []
        return [entry for entry in self.registered if entry[0] != chosen]


def registry_choices(
    analyses: Iterable[FileAnalysis],
    runs: Iterable[Launch],
    argparse: ArgparseDefaults | None = None,
) -> list[Choice]:
    """Every registry a command-line option picks from (:class:`Choice`), with the name the
    first documented training run of ``runs`` gives the option. Read from the scan's syntax
    facts (the set-ups, the ``@register_x("name")`` decorators) and value records (the
    class or function each decorator is on). A set-up with no default of its own takes the
    option's in ``argparse`` (fairseq's ``--task``, ``default=default_task`` with
    ``get_parser(desc, default_task="translation")``) when its options agree on one; a
    registry written by hand (``def register_task``) is a pick only where the table declares
    its option or the documented command gives it."""
    files = list(with_facts(analyses))
    runs = list(runs)
    out: list[Choice] = []
    for fa, facts in files:
        for setup in facts.registry_setups:
            dest = setup.option.lstrip("-").replace("-", "_")
            named = argparse.named(dest) if argparse is not None else []
            declared = argparse is not None and any(o.dest == dest for o in argparse.all)
            if setup.hand and not declared and not any(r.given((setup.option,)) for r in runs):
                continue
            registered: list[tuple[str, Where, str]] = []
            for other, other_facts in files:
                defs = other_facts.values.defs if other_facts.values is not None else ()
                at_line = {d.line: d.qual for d in defs if d.owner < 0}
                module = other.modules[0] if other.modules else ""
                for name, key, line in other_facts.registered:
                    if name in setup.registers:
                        qual = at_line.get(line, "")
                        dotted = f"{module}.{qual}" if qual and module else ""
                        registered.append((key, place(other, line), dotted))
            if not registered:
                continue
            documented = documented_at = ""
            for run in runs:
                given = run.given((setup.option,))
                if given:
                    documented, documented_at = given[0], f"{run.path}:{run.line}"
                    break
            default, default_at = setup.default, ""
            if default is None and len({name for name, _ in named}) == 1:
                default, default_at = named[0]
            out.append(
                Choice(
                    setup.option,
                    place(fa, setup.line),
                    default,
                    tuple(registered),
                    documented,
                    documented_at,
                    default_at,
                )
            )
    return out


#: A JSON file larger than this is data, not a configuration.
_JSON_LIMIT = 200_000


def json_config_names(
    root: Path | None, file: ModelFile, options: Iterable[OptionDefault] = ()
) -> list[tuple[str, str, str]]:
    """(JSON file, dotted key, string value) of every string in the JSON configs ``file``
    names (an argparse default or a literal ending ``.json``: pytorch-segmentation's
    ``--config`` default ``config.json``, whose ``arch.type`` names the model ``getattr(models,
    config['arch']['type'])`` builds). JSON is no Python, so no worker records it: the file is
    read here, as the recipe reads it. Paths are tried relative to the file, then the root."""
    if root is None:
        return []
    written = [o.text for o in options if o.text and o.text.endswith(".json")]
    written += [
        e.value for e in file.exprs if e.kind == "const" and (e.value or "").endswith(".json")
    ]
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for name in dict.fromkeys(v for v in written if v):
        for candidate in (posixpath.join(posixpath.dirname(file.path), name), name):
            candidate = posixpath.normpath(candidate)
            path = root / candidate
            if candidate in seen or candidate.startswith("..") or not path.is_file():
                continue
            seen.add(candidate)
            try:
                text = path.read_text(encoding="utf-8")
                data = json.loads(text) if len(text) <= _JSON_LIMIT else None
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            out += [(candidate, key, value) for key, value in _strings(data, "")]
            break
    return out


def _strings(data: object, prefix: str) -> Iterator[tuple[str, str]]:
    """(dotted key, value) of every string in a JSON document, in document order."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(data, str):
        yield prefix, data
