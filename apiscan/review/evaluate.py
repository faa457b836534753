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

from apiscan.extract.values import ArgOption, Expr

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
     "startswith", "endswith"}
)  # fmt: skip

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
        if isinstance(target, dict) and isinstance(index, str | int):
            # Pytorch_Retinaface's ``cfg['ngpu']`` where ``cfg`` is the dict the defaults
            # pick: an entry the dict lacks is a KeyError, nothing told
            return target.get(index, UNKNOWN)
        if target is UNKNOWN and isinstance(index, str):
            # a setting read by key from a config the lookup knows
            # (``model.hyperparams['optimizer']`` from a Darknet ``.cfg``)
            return lookup(expr, depth)
        return UNKNOWN
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
