"""The one evaluator of a branch test with the values the code starts from.

The recipe keeps the ``if``/``elif`` branch the defaults take (``--opt adamw``: AdamW), and the
model tree keeps the import a script's ``--arch`` default picks (``if args.arch ==
'stylegan2': from model import Generator`` / ``elif args.arch == 'swagan': from swagan import
Generator``), and the branch a yacs config takes (``if not cfg.MODEL.RPN_ONLY``, the key
valued from the chosen YAML over the Python default); the work items leave out a backbone
built only under a test its option's default fails (deit's teacher under ``if
args.distillation_type != 'none'``) or under a string-keyed chain's branch no running call
picks (MiDaS's ``_make_encoder``). Each evaluates the test here and says how a name is
valued (the recipe follows assignments and argparse defaults through its value follower,
the model tree reads the file's argparse defaults and the config, the work items the
review's argparse table and the literals calls pass, every value a name may take through
:func:`outcomes`), so the operators, comparisons and string methods have one home.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable, Mapping
from itertools import product
from math import prod
from typing import TYPE_CHECKING

from apiscan.extract import import_package
from apiscan.extract.values import ArgOption, DefValues, Expr

if TYPE_CHECKING:
    from apiscan.extract.records import FileAnalysis

#: A value :func:`holds` cannot tell.
UNKNOWN = object()


class _Built:
    """An object a class construction returns (``mixup_fn = Mixup(...)``): never None,
    true as a test, equal to no literal; what it compares as beyond that is not told."""

    def __repr__(self) -> str:
        return "<built object>"


#: The value of a class construction (:class:`_Built`): ``mixup_fn is not None`` holds
#: where the assignment ``mixup_fn = Mixup(...)`` runs.
BUILT = _Built()
#: The comparisons :func:`holds` evaluates, by their ``ast`` class name.
COMPARE: dict[str, Callable[[object, object], bool]] = {
    "Eq": lambda a, b: a == b,
    "NotEq": lambda a, b: a != b,
    "In": lambda a, b: a in b,  # type: ignore[operator]
    "NotIn": lambda a, b: a not in b,  # type: ignore[operator]
    "Is": lambda a, b: a is b,
    "IsNot": lambda a, b: a is not b,
    "Lt": lambda a, b: a < b,  # type: ignore[operator]
    "Gt": lambda a, b: a > b,  # type: ignore[operator]
    "LtE": lambda a, b: a <= b,  # type: ignore[operator]
    "GtE": lambda a, b: a >= b,  # type: ignore[operator]
}
#: String methods a picked name flows through (``args.opt.lower().split('_')[-1]``).
STRING_METHODS = frozenset(
    {"lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "replace", "casefold",
     "startswith", "endswith", "capitalize", "title"}
)  # fmt: skip


class Namespace(frozenset[str]):
    """The names a repository module binds at its top level (its defs and classes, its
    assignments, its imports): what ``module.__dict__`` holds as far as the code says, so
    that a test of membership is decided (DINO's ``if args.arch in vits.__dict__.keys():``
    with ``--arch vit_small``, a function the module defines: the branches after it are not
    taken). Only for a module whose names are all written (no star import, no ``globals()``
    or ``setattr`` filling it at run time)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<namespace of {len(self)} names>"


#: What every module's ``__dict__`` holds beside the names its code binds.
_MODULE_DUNDERS = frozenset(
    {"__name__", "__doc__", "__file__", "__package__", "__spec__", "__loader__",
     "__builtins__", "__cached__", "__annotations__"}
)  # fmt: skip
#: Calls that add names to a module's namespace at run time.
_NAMESPACE_WRITERS = frozenset({"globals", "setattr", "vars", "exec"})


def module_namespace(fa: FileAnalysis) -> Namespace | None:
    """The names ``fa``'s module binds at its top level, from the scan's value records;
    None when they cannot all be told (a star import, a run-time writer)."""
    values = fa.syntax.values if fa.syntax is not None else None
    if values is None or values.star_imports:
        return None
    if any(c.expr.callee() in _NAMESPACE_WRITERS for c in values.calls):
        return None
    names = set(_MODULE_DUNDERS)
    names.update(d.name for d in values.defs if "." not in d.qual)
    for a in values.assigns:
        names.update(e.name for e in a.target.walk() if e.kind == "Name")
    names.update(local for local, _ in fa.syntax.imports)  # type: ignore[union-attr]
    names.update(local for local, _, _, _ in values.relative_imports)
    return Namespace(names)


class Namespaces:
    """The repository modules' namespaces (:func:`module_namespace`), by the local name a
    file imports a module as (``import vision_transformer as vits``, ``from .models import
    vit``): what ``vits.__dict__`` holds where that file reads it."""

    def __init__(self, analyses: Iterable[FileAnalysis]) -> None:
        self._by_module: dict[str, FileAnalysis] = {}
        for fa in analyses:
            for m in fa.modules:
                self._by_module.setdefault(m, fa)
        self._memo: dict[str, Namespace | None] = {}

    def module(self, fa: FileAnalysis, local: str) -> str | None:
        """The repository module the name ``local`` of ``fa`` is imported as, else None."""
        dotted = dict(fa.syntax.imports).get(local) if fa.syntax is not None else None
        values = fa.syntax.values if fa.syntax is not None else None
        for name, level, module, original in values.relative_imports if values else ():
            if name == local:
                package = import_package(fa.modules, fa.path.endswith("__init__.py"))
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
                dotted = ".".join([*parts, *([module] if module else []), original])
        return dotted if dotted in self._by_module else None

    def of(self, fa: FileAnalysis, local: str) -> Namespace | None:
        """The namespace of the module ``local`` names in ``fa``; None when it is no
        repository module or its names cannot all be told."""
        module = self.module(fa, local)
        if module is None:
            return None
        if module not in self._memo:
            self._memo[module] = module_namespace(self._by_module[module])
        return self._memo[module]


#: values a name takes: (the name's expression, the depth reached) -> its value or UNKNOWN;
#: also asked of a read by a string key (``x['lr']``) whose container is not told
Lookup = Callable[[Expr, int], object]
#: What an option declared with these actions and no ``default=`` holds when left out.
_FLAG_ACTIONS: dict[str, object] = {"store_true": False, "store_false": True}


def unset_option(option: ArgOption) -> object:
    """What an argparse option declared without ``default=`` holds when the command line
    leaves it: ``store_true`` False, ``store_false`` True, any other optional flag None
    (vq-vae-2's ``--sched`` with no default: ``if args.sched == "cycle":`` is not taken,
    its scheduler is no recipe row); :data:`UNKNOWN` for a positional argument or a
    ``required=True`` option, which the command line always gives."""
    if option.action in _FLAG_ACTIONS:
        return _FLAG_ACTIONS[option.action]
    return UNKNOWN if option.required else None


def agreed(values: Iterable[object]) -> object:
    """The one value a parameter holds where every call that runs passes the same told
    value (detectron2's ``build_augmentation(cfg, is_train)``, reached in training only
    through ``DatasetMapper(cfg, True)``); :data:`UNKNOWN` with no call, a call whose
    value cannot be told, or calls that disagree."""
    found: list[object] = []
    for value in values:
        if value is UNKNOWN:
            return UNKNOWN
        if not any(type(v) is type(value) and v == value for v in found):
            found.append(value)
    return found[0] if len(found) == 1 else UNKNOWN


def holds(expr: Expr, lookup: Lookup, depth: int = 0, limit: int = 10) -> object:
    """The value of ``expr`` through simple string and container operations (``lower``,
    ``split``, ``[-1]``, ``==``, ``in``, ``and``/``or``/``not``), its names valued by
    ``lookup``; :data:`UNKNOWN` when it cannot be told or ``depth`` passes ``limit``."""
    if depth > limit:
        return UNKNOWN
    kind = expr.kind
    if kind == "Constant":
        return expr.value
    if expr.literal:
        try:
            return ast.literal_eval(expr.full())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return UNKNOWN
    if kind == "BoolOp":
        values = [holds(part, lookup, depth + 1, limit) for part in expr.parts]
        if expr.name == "And":
            if any(v is not UNKNOWN and not v for v in values):
                return False
            return UNKNOWN if UNKNOWN in values else all(values)
        if any(v is not UNKNOWN and v for v in values):
            return True
        return UNKNOWN if UNKNOWN in values else False
    if kind == "IfExp" and len(expr.parts) == 3:
        # ``False if 'something' in args.dataset else True``: the side the test takes
        test, body, orelse = expr.parts
        told = holds(test, lookup, depth + 1, limit)
        if not isinstance(told, bool):
            return UNKNOWN  # a value that is not a truth (``torch.cuda.is_available()``)
        return holds(body if told else orelse, lookup, depth + 1, limit)
    if kind == "UnaryOp" and expr.name == "Not":
        value = holds(expr.parts[0], lookup, depth + 1, limit)
        return UNKNOWN if value is UNKNOWN else not value
    if kind == "Compare" and len(expr.parts) == 2:
        left, right = (holds(part, lookup, depth + 1, limit) for part in expr.parts)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if (left is BUILT or right is BUILT) and expr.name not in ("Is", "IsNot"):
            return UNKNOWN  # an object's order or equality is its class's
        compare = COMPARE.get(expr.name)
        try:
            return compare(left, right) if compare is not None else UNKNOWN
        except TypeError:
            return UNKNOWN
    if kind in ("Tuple", "List") and expr.parts:
        # ``type in (SamplerType.SHARDED_INFINITE, SamplerType.SHARDED_INFINITE_NEW)``: a
        # container of names the lookup values
        items = [
            UNKNOWN if part.kind == "Starred" else holds(part, lookup, depth + 1, limit)
            for part in expr.parts
        ]
        if any(item is UNKNOWN for item in items):
            return UNKNOWN
        return tuple(items) if kind == "Tuple" else items
    if kind == "Subscript" and len(expr.parts) == 2:
        target, index = (holds(part, lookup, depth + 1, limit) for part in expr.parts)
        if isinstance(target, str | list | tuple) and isinstance(index, int):
            return target[index] if -len(target) <= index < len(target) else UNKNOWN
        if (
            isinstance(target, list | tuple)
            and target
            and index is UNKNOWN
            and all(type(v) is type(target[0]) and v == target[0] for v in target)
        ):
            # any index of a list whose items are all one value (a per-stage switch off at
            # every stage, read as ``switches[idx]`` in a loop) reads that value
            return target[0]
        if isinstance(target, dict) and isinstance(index, str | int):
            # Pytorch_Retinaface's ``cfg['ngpu']`` where ``cfg`` is the dict the defaults
            # pick: an entry the dict lacks is a KeyError, nothing told
            return target.get(index, UNKNOWN)
        if target is UNKNOWN and isinstance(index, str):
            # a setting read by key from a config the lookup knows
            # (``model.hyperparams['optimizer']`` from a Darknet ``.cfg``)
            return lookup(expr, depth)
        return UNKNOWN
    if (
        kind == "Call"
        and expr.func.kind == "Attribute"
        and expr.func.name == "keys"
        and not expr.args
        and not expr.keywords
    ):
        # ``vits.__dict__.keys()``, ``table.keys()``: the names a test looks a value up in
        receiver = holds(expr.func.target, lookup, depth + 1, limit)
        if isinstance(receiver, Namespace):
            return receiver
        return frozenset(receiver) if isinstance(receiver, dict) else UNKNOWN
    if kind == "Call" and expr.func.kind == "Attribute" and expr.func.name in STRING_METHODS:
        receiver = holds(expr.func.target, lookup, depth + 1, limit)
        if not isinstance(receiver, str) or expr.keywords:
            return UNKNOWN
        args = [holds(a, lookup, depth + 1, limit) for a in expr.args]
        if any(not isinstance(a, str | int) or isinstance(a, bool) for a in args):
            return UNKNOWN
        try:
            return getattr(receiver, expr.func.name)(*args)
        except (TypeError, ValueError):
            return UNKNOWN
    if kind in ("Name", "Attribute"):
        return lookup(expr, depth)
    return UNKNOWN


def choice_key(expr: Expr) -> str | None:
    """The name a string-keyed chain tests (``backbone``, ``self.backbone``,
    ``args.model_type``): a name, or an attribute of a name; None for any other expression."""
    if expr.kind == "Name":
        return expr.name
    if expr.kind == "Attribute" and expr.parts[0].kind == "Name":
        return expr.name
    return None


def outcomes(
    expr: Expr,
    key: Callable[[Expr], str | None],
    values: Mapping[str, Collection[object]],
    limit: int = 64,
) -> set[object] | None:
    """Every value :func:`holds` gives ``expr`` over the combinations of the values its
    names may take (``key`` names a name's entry in ``values``, None for a name that is not
    valued there); None when a combination cannot be told, or there are more than
    ``limit``. A branch whose test is false in every outcome is left out by all of them
    (``if args.distillation_type != 'none'`` with ``--distillation-type`` defaulting to
    ``'none'``; ``if backbone == 'beitl16_512'`` where every call that runs passes
    ``backbone='beitl16_384'``)."""
    if expr.kind == "Constant" or expr.literal:
        return None  # a test written as a constant is the author's switch, not an option
    found = values_of(expr, key, values, limit)
    return None if found is None else {bool(v) for v in found}


def values_of(
    expr: Expr,
    key: Callable[[Expr], str | None],
    values: Mapping[str, Collection[object]],
    limit: int = 64,
) -> list[object] | None:
    """The values themselves that :func:`outcomes` reads the truth of, each once: what a
    name may hold when it is assigned from ``expr`` (open_clip's ``sharded_ckpt = args.fsdp
    and ...``) or a call passes ``expr`` for a parameter, so that a test on that name is
    evaluated in turn; None as for :func:`outcomes`."""
    if expr.kind == "Constant" or expr.literal:
        value = holds(expr, lambda e, d: UNKNOWN)
        return None if value is UNKNOWN else [value]
    # a config's key read by subscripts (``config["use_synch_bn"]``) is a name too, where
    # ``key`` values it
    keys = sorted(
        {
            k
            for e in expr.walk()
            if e.kind in ("Name", "Attribute", "Subscript") and (k := key(e)) in values
        }
    )
    if not keys:
        return None
    choices = [sorted(values[k], key=repr) for k in keys]
    if any(not c for c in choices) or prod(len(c) for c in choices) > limit:
        return None
    out: list[object] = []
    for combination in product(*choices):
        given = dict(zip(keys, combination, strict=True))

        def lookup(e: Expr, depth: int, given: dict[str, object] = given) -> object:
            k = key(e)
            return given.get(k, UNKNOWN) if k is not None else UNKNOWN

        value = holds(expr, lookup)
        if value is UNKNOWN:
            return None
        if not any(type(v) is type(value) and v == value for v in out):
            out.append(value)
    return out


def bind_call(fn: DefValues, call: Expr) -> dict[str, Expr]:
    """Argument expressions of ``call`` by the parameter names of the repo function ``fn``
    (a method's ``self`` skipped): the one binder of a call to a def, for the recipe's value
    follower and the left-out reading's branches decided by what callers pass."""
    names = [p for p, _ in fn.params]
    positional = list(fn.positional)
    is_method = fn.owner >= 0 and not fn.static
    if is_method and positional:
        positional = positional[1:]
        names = names[1:]
    bound: dict[str, Expr] = {}
    for name, arg in zip(positional, call.args, strict=False):
        if arg.kind == "Starred":
            break
        bound[name] = arg
    for kw in call.keywords:
        if kw.name in names:
            bound[kw.name] = kw.target
    return bound
