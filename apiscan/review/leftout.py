"""The code only the alternatives a pick leaves out reach.

A training script picks its network from a dict by a key whose default is known
(``_network_factory[opt.arch]`` with ``--arch dla_34``): the model tree names the entries
the default leaves out (:func:`apiscan.review.structure.top_models`' ``not_picked``), and a
registry's builders no default names are left out the same way. What only those reach is no
part of what trains either: the classes and functions they alone call, and those they alone
pick from tables of their own (an unpicked ``GenericNetwork`` choosing its backbone from
``backbone_factory[opt.backbone]``: every entry of that dict, and what those build in turn).
Their initialisers are no recipe rows, and the weights they download are no work item.

One rule, read by the recipe and by the work items, from the records the scan's workers wrote
(the value records of every file and the call facts): a module-level def is left out when
something refers to it and every reference lies in left-out code. A reference is a call
(resolved as the solver resolves its call edges), a name written as a value (an argument, an
assignment, a default, a return), or an entry of a module-level dict, which counts as a
reference from each place the dict itself is read. A read by a key takes the entry the key
names: an option's default, a constant, or a parameter followed out to what each call passes
(``get_act(name)`` reading ``_ACT[name]`` takes ``"silu"`` at each ``get_act("silu")``, and no
entry at ``get_act(nn.ReLU)``), so a layer only left-out models name by string is left out too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from apiscan.extract import import_package
from apiscan.extract.records import CallFact, FileAnalysis
from apiscan.extract.values import DefValues, Expr, FileValues
from apiscan.program.index import Hierarchy
from apiscan.program.solver import callee_resolver
from apiscan.review.evaluate import UNKNOWN, bind_call, holds
from apiscan.review.sources import self_tests

#: (path, index of the def in the file's value records)
Place = tuple[str, int]


def _values(fa: FileAnalysis) -> FileValues | None:
    return fa.syntax.values if not fa.errors and fa.syntax is not None else None


def _resolved_calls(
    analyses: Sequence[FileAnalysis],
    hierarchy: Hierarchy,
    callers: Sequence[FileAnalysis] | None = None,
) -> Iterator[tuple[FileAnalysis, CallFact, str]]:
    """Each call fact of ``callers`` (every file by default) with the def it reaches,
    resolved as the solver resolves its call edges over ``analyses`` (re-exports, star
    imports, inherited methods): a class instantiated by the class, a function or method by
    its canonical name."""
    resolve = callee_resolver(analyses, hierarchy)
    for fa in analyses if callers is None else callers:
        for fact in fa.calls:
            key = hierarchy.resolve(fact.callee)
            if key is None or key not in hierarchy.classes.facts:
                found = resolve(fact.callee)
                if found is None:
                    continue
                node, via_class = found
                key = node.rpartition(".")[0] if via_class else node
            yield fa, fact, key


def call_sites_by_def(
    analyses: Sequence[FileAnalysis],
    hierarchy: Hierarchy,
    known: Mapping[str, object],
    callers: Sequence[FileAnalysis] | None = None,
) -> dict[str, list[tuple[str, CallFact]]]:
    """The call facts of ``callers`` (every file by default) by the def they reach (a key
    of ``known``; :func:`_resolved_calls`)."""
    out: dict[str, list[tuple[str, CallFact]]] = {}
    for fa, fact, key in _resolved_calls(analyses, hierarchy, callers):
        if key in known:
            out.setdefault(key, []).append((fa.path, fact))
    return out


def imported_names(fa: FileAnalysis, values: FileValues) -> dict[str, str]:
    """A file's imported names -> the dotted names they stand for, relative imports
    resolved against its package."""
    out = dict(fa.syntax.imports) if fa.syntax is not None else {}
    package = import_package(fa.modules, fa.path.endswith("__init__.py")).split(".")
    for bound, level, source, name in values.relative_imports:
        parts = package[: len(package) - (level - 1)] if level else []
        prefix = ".".join([*parts, source] if source else parts)
        out[bound] = f"{prefix}.{name}" if prefix else name
    return out


def _names(expr: Expr) -> Iterator[Expr]:
    """The ``Name`` nodes of ``expr``, the callee's included."""
    return (e for e in expr.walk() if e.kind == "Name")


def _written(values: FileValues) -> list[Expr]:
    """The expressions a file reads names in: its calls (callee included), assignments'
    values, parameters' defaults, returns and the tests of its functions' ``if`` statements
    (``if m in [Conv, DeConvDCN]:``, a layer class a config parser builds by its name)."""
    found = [call.expr for call in values.calls] + [a.value for a in values.assigns]
    for d in values.defs:
        found += [a.value for a in d.assigns] + list(d.returns)
        found += [default for _, default in d.params if default is not None]
        found += [branch.test for branch in d.branches]
    return found


class GlobalsPick(NamedTuple):
    """A module-level def picked from ``globals()`` by name: the names the key may spell,
    the line, and the call the pick is the callee of (None when the pick is not called)."""

    pattern: re.Pattern[str]
    line: int
    call: Expr | None = None
    #: the key's values are known (a literal, a formatted constant, what the callers of the
    #: function around it pass); False: any name of the file may be picked
    known: bool = False

    def admits(self, defs: Sequence[DefValues], index: int) -> bool:
        """Whether the module-level def ``defs[index]`` may be the one picked: its name fits
        the key, and the call's arguments bind to its parameters (``globals()[base_name](
        pretrained=True)`` never builds ``BottleneckX(inplanes, planes, ...)``, which needs
        two positional arguments the call does not pass)."""
        d = defs[index]
        if not self.pattern.fullmatch(d.name):
            return False
        if self.call is None:
            return True
        signature = d
        if d.is_class:
            init = [
                x
                for x in defs
                if x.name == "__init__" and 0 <= x.owner < len(defs)
                if defs[x.owner] is d
            ]
            if not init:
                return True  # an inherited constructor: its parameters are not known here
            signature = init[0]
        return binds(self.call, signature, skip=1 if d.is_class else 0)


def binds(call: Expr, d: DefValues, skip: int = 0) -> bool:
    """Whether ``call``'s arguments bind to ``d``'s parameters (the first ``skip`` of them,
    ``self``, left out): no more positional arguments than it takes (without ``*args``), no
    keyword it lacks (without ``**kwargs``), and every parameter without a default given. A
    call unpacking ``*a`` or ``**k`` binds to anything."""
    if call.unpacks():
        return True
    args = call.args
    keywords = [k.name for k in call.keywords]
    positional = list(d.positional[skip:])
    named = [name for name, _ in d.params[skip:]]
    if len(args) > len(positional) and not d.vararg:
        return False
    if any(k not in named for k in keywords) and not d.kwarg:
        return False
    given = set(positional[: len(args)]) | set(keywords)
    return all(default is not None or name in given for name, default in d.params[skip:])


def _key_pattern(key: Expr) -> str | None:
    """The names a key written as a string may spell, as a pattern: ``'dla34'`` exactly,
    ``'dla{}'.format(n)`` and ``f'dla{n}'`` as ``dla.*``; None for anything else."""
    if key.kind == "Constant" and isinstance(key.value, str):
        return re.escape(key.value)
    if key.kind == "Call" and key.func.kind == "Attribute" and key.func.name == "format":
        form = key.func.target
        if form.kind == "Constant" and isinstance(form.value, str):
            return ".*".join(re.escape(p) for p in re.split(r"\{[^{}]*\}", form.value))
    if key.kind == "JoinedStr":
        return "".join(
            re.escape(p.value) if p.kind == "Constant" and isinstance(p.value, str) else ".*"
            for p in key.parts
        )
    return None


def _forms(values: Iterable[Expr | None]) -> list[str] | None:
    """The patterns of every value, None when one is no string the key may be."""
    out: list[str] = []
    for value in values:
        found = _key_pattern(value) if value is not None else None
        if found is None:
            return None
        out.append(found)
    return out


#: a def's last name -> every call of that name in the repository (the key's callers)
CallIndex = Mapping[str, Sequence[Expr]]


def call_index(files: Iterable[FileValues]) -> dict[str, list[Expr]]:
    """Every call of the files by the last name of what it calls (:data:`CallIndex`)."""
    out: dict[str, list[Expr]] = {}
    for values in files:
        for call in values.calls:
            name = call.expr.callee()
            if name:
                out.setdefault(name, []).append(call.expr)
    return out


def _key_values(name: str, line: int, values: FileValues, calls: CallIndex) -> list[str] | None:
    """The patterns of the strings the name ``name``, read at ``line`` as a ``globals()``
    key, may hold: the innermost def around it that binds it gives them, by its assignments
    of the name or, for a parameter, by what every call of the def (the class, for an
    ``__init__``) passes it, its default where a call leaves it out. None when one cannot be
    told (a value that is no string, a call unpacking arguments, a parameter nothing calls
    without a default)."""
    around = [
        (n, d) for n, d in enumerate(values.defs) if not d.is_class and d.line <= line <= d.end_line
    ]
    for _, d in sorted(around, key=lambda x: -x[1].line):
        params = dict(d.params)
        if name not in params:
            bound = [
                a.value for a in d.assigns if a.target.kind == "Name" and a.target.name == name
            ]
            if bound:
                return _forms(bound)
            continue
        method = 0 <= d.owner < len(values.defs) and not d.static
        callee = values.defs[d.owner].name if method and d.name == "__init__" else d.name
        skip = 1 if method else 0
        positional = list(d.positional[skip:])
        index = positional.index(name) if name in positional else -1
        given: list[Expr | None] = []
        for call in calls.get(callee, ()):
            if any(a.kind == "Starred" for a in call.args) or any(
                k.name == "" for k in call.keywords
            ):
                return None
            keyword = next((k.target for k in call.keywords if k.name == name), None)
            if keyword is None and 0 <= index < len(call.args):
                keyword = call.args[index]
            given.append(keyword if keyword is not None else params[name])
        if not given:
            given.append(params[name])
        return _forms(given)
    return None


def globals_picks(values: FileValues, calls: CallIndex | None = None) -> list[GlobalsPick]:
    """The module-level defs the file picks from ``globals()`` by name (``globals()['dla{}'.
    format(num_layers)](...)``; ``globals()[base_name](pretrained=pretrained)``, its callers
    passing ``'dla{}'.format(num_layers)``): one pick
    per look-up, with the names its key may spell. A key that is a name is followed to the
    strings it holds (:func:`_key_values`, through ``calls``); when they cannot be told the
    pick may name any def of the file the call's arguments bind to (:meth:`GlobalsPick.
    admits`), never one they do not."""
    out: list[GlobalsPick] = []
    seen: set[tuple[int, int]] = set()
    for expr in _written(values):
        todo: list[tuple[Expr, Expr | None]] = [(expr, None)]
        while todo:
            e, parent = todo.pop()
            todo.extend((p, e) for p in e.parts)
            if e.kind != "Subscript" or len(e.parts) < 2 or (e.line, e.col) in seen:
                continue
            table = e.parts[0]
            if table.kind != "Call" or table.func.kind != "Name" or table.func.name != "globals":
                continue
            seen.add((e.line, e.col))
            key = e.parts[1]
            forms = [found] if (found := _key_pattern(key)) is not None else None
            if forms is None and key.kind == "Name" and calls is not None:
                forms = _key_values(key.name, e.line, values, calls)
            known = forms is not None
            pattern = "|".join(f"(?:{f})" for f in forms) if forms else ".*"
            call = (
                parent
                if parent is not None and parent.kind == "Call" and parent.func is e
                else None
            )
            out.append(GlobalsPick(re.compile(pattern), e.line, call, known))
    return out


#: The place of a reference that reaches nothing: a dict read where a default key picks
#: another entry.
_ELSEWHERE = ("", 0)


#: The key of a read that picks no entry: a value that is no string (``get_act(nn.ReLU)``,
#: ``None``), which a table of string keys never holds, or a membership test.
_NO_KEY = "\0"

#: String methods a key is normalised with before its look-up (``name.lower()``,
#: ``name.replace("_", "")``, ``name.split("-")[0]``): the key is still the value passed.
_KEY_METHODS = frozenset(
    {"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "replace", "split", "rsplit"}
)

#: How many calls out a table's key is followed to the values its callers pass.
_KEY_DEPTH = 4


def _picked_keys(expr: Expr, defaults: Mapping[str, set[object]]) -> dict[int, str]:
    """id of each ``Name`` subscripted by an option whose one default is a string (``opt.
    dla_node`` with ``--dla_node`` defaulting to ``dcn``) -> that default."""
    out: dict[int, str] = {}
    for e in expr.walk():
        if e.kind != "Subscript" or len(e.parts) < 2 or e.parts[0].kind != "Name":
            continue
        index = e.parts[1]
        if index.kind not in ("Name", "Attribute"):
            continue
        found = defaults.get(index.name, set())
        if len(found) == 1 and isinstance(value := next(iter(found)), str):
            out[id(e.parts[0])] = value
    return out


def _keyed_reads(expr: Expr) -> tuple[dict[int, Expr], set[int]]:
    """The ``Name``s of ``expr`` read with a key: id -> the key (``TABLE[key]``,
    ``TABLE.get(key)``), and the ids of those read for no entry (``key in TABLE``,
    ``TABLE.keys()``)."""
    keyed: dict[int, Expr] = {}
    none: set[int] = set()
    for e in expr.walk():
        if e.kind == "Subscript" and len(e.parts) > 1 and e.parts[0].kind == "Name":
            keyed[id(e.parts[0])] = e.parts[1]
        elif (
            e.kind == "Call"
            and e.func.kind == "Attribute"
            and e.func.name == "get"
            and e.func.target.kind == "Name"
            and e.args
        ):
            keyed[id(e.func.target)] = e.args[0]
        elif e.kind == "Compare" and e.name in ("In", "NotIn") and len(e.parts) == 2:
            if e.parts[1].kind == "Name":
                none.add(id(e.parts[1]))
        elif e.kind == "Attribute" and e.name == "keys" and e.target.kind == "Name":
            none.add(id(e.target))
    return keyed, none


def _class_value(e: Expr) -> bool:
    """A value that is no string a key may hold: ``None``, a number, a class named in
    CamelCase (``nn.ReLU``, ``BatchNorm2d``; an ALL_CAPS constant may be a string)."""
    if e.kind == "Constant":
        return not isinstance(e.value, str)
    if e.kind in ("Name", "Attribute"):
        return bool(re.fullmatch(r"[A-Z]\w*[a-z]\w*", e.name))
    return False


def _stripped(e: Expr) -> Expr:
    """The value a key is normalised from: ``name`` of ``name.lower()``, of
    ``name.replace("_", "").lower()`` and of ``name.split("-")[0]``."""
    while True:
        if e.kind == "Subscript" and e.parts and e.parts[0].kind == "Call":
            e = e.parts[0]
        elif (
            e.kind == "Call"
            and e.func.kind == "Attribute"
            and e.func.name in _KEY_METHODS
            and e.func.parts
        ):
            e = e.func.target
        else:
            return e


class _KeyFollower:
    """The keys a table's read may take, followed out through the calls that pass them: a
    read ``TABLE[name]`` in ``get_act(name)`` takes, for each call ``get_act('silu')``,
    the string that call passes (or the default it leaves), at that call's place: a call
    in left-out code keeps no entry. A class passed (``get_act(nn.ReLU)``) picks none."""

    def __init__(
        self,
        values_of: Mapping[str, FileValues],
        defaults: Mapping[str, set[object]],
    ) -> None:
        self.values_of = values_of
        self.defaults = defaults
        self.calls: dict[str, list[tuple[str, Expr]]] = {}
        for path, values in values_of.items():
            for call in values.calls:
                name = call.expr.callee()
                if name:
                    self.calls.setdefault(name, []).append((path, call.expr))
        self._memo: dict[tuple[str, int, str], list[tuple[tuple[str, int] | None, str | None]]]
        self._memo = {}

    def keys(self, key: Expr, path: str, line: int) -> list[tuple[str, int, str | None]]:
        """(path, line, key) of each place the read ``TABLE[key]`` at ``line`` of ``path``
        is decided, the key its value there picks (None: any entry)."""
        return [
            (*(site or (path, line)), picked) for site, picked in self._follow(key, path, line, 0)
        ]

    def _follow(
        self, key: Expr, path: str, line: int, depth: int
    ) -> list[tuple[tuple[str, int] | None, str | None]]:
        key = _stripped(key)
        if key.kind == "Constant" and isinstance(key.value, str):
            return [(None, key.value)]
        if _class_value(key):
            return [(None, _NO_KEY)]
        if key.kind == "Attribute":
            found = self.defaults.get(key.name, set())
            if len(found) == 1 and isinstance(value := next(iter(found)), str):
                return [(None, value)]
            return [(None, None)]
        if key.kind != "Name" or depth >= _KEY_DEPTH:
            return [(None, None)]
        values = self.values_of[path]
        around = [
            (n, d)
            for n, d in enumerate(values.defs)
            if not d.is_class and d.line <= line <= d.end_line
        ]
        if not around:
            return [(None, None)]
        index, d = max(around, key=lambda x: x[1].line)
        params = dict(d.params)
        if key.name not in params:
            # a local bound from another value (not normalised from itself)
            bound = [
                a.value
                for a in d.assigns
                if a.target.kind == "Name"
                and a.target.name == key.name
                and a.line < line
                and not ((s := _stripped(a.value)).kind == "Name" and s.name == key.name)
            ]
            if not bound:
                return [(None, None)]
            return [
                found
                for value in bound
                for found in self._follow(value, path, value.line, depth + 1)
            ]
        memo = (path, index, key.name)
        if memo in self._memo:
            return self._memo[memo]
        self._memo[memo] = [(None, None)]  # a cycle picks any entry
        self._memo[memo] = self._passed(values, d, key.name, path, depth)
        return self._memo[memo]

    def _passed(
        self, values: FileValues, d: DefValues, name: str, path: str, depth: int
    ) -> list[tuple[tuple[str, int] | None, str | None]]:
        """What the calls of ``d`` pass its parameter ``name``, each at its call's place."""
        method = 0 <= d.owner < len(values.defs) and not d.static
        callee = values.defs[d.owner].name if method and d.name == "__init__" else d.name
        skip = 1 if method else 0
        positional = list(d.positional[skip:])
        at = positional.index(name) if name in positional else -1
        default = dict(d.params)[name]
        calls = self.calls.get(callee, [])
        if not calls:
            return self._follow(default, path, d.line, depth + 1) if default else [(None, None)]
        out: list[tuple[tuple[str, int] | None, str | None]] = []
        for cpath, call in calls:
            site = (cpath, call.line)
            given = next((k.target for k in call.keywords if k.name == name), None)
            if given is None and 0 <= at < len(call.args):
                given = call.args[at]
            if given is not None and given.kind != "Starred":
                found = self._follow(given, cpath, call.line, depth + 1)
            elif call.unpacks() or default is None:
                found = [(None, None)]
            else:
                found = self._follow(default, path, d.line, depth + 1)
            out += [(s or site, picked) for s, picked in found]
        return out


def _normal(key: str) -> str:
    """A key as a look-up normalising it reads it: ``batch_norm`` and ``BatchNorm`` alike."""
    return re.sub(r"[-_\s]", "", key.lower())


def _table_literal(value: Expr) -> tuple[list[str], list[Expr]] | None:
    """The string keys and the values of a dict literal (``{'relu': nn.ReLU}``, or
    ``dict(relu=nn.ReLU, silu=SiLU)``), else None."""
    if value.kind == "Dict":
        return [k for k in value.keys if k is not None], list(value.items)
    if (
        value.kind == "Call"
        and value.func.kind == "Name"
        and value.func.name == "dict"
        and not value.args
        and value.keywords
        and all(k.name for k in value.keywords)
    ):
        return [k.name for k in value.keywords], [k.target for k in value.keywords]
    return None


def _entries(item: Expr) -> Iterator[Expr]:
    """The names a dict's value holds (``DLASeg`` of ``{'dla': DLASeg}``, ``Conv`` and
    ``GlobalConv`` of ``{'gcn': (Conv, GlobalConv)}``, both sides of ``nn.SiLU if has_silu
    else Swish``)."""
    todo = [item]
    while todo:
        e = todo.pop()
        if e.kind == "Name":
            yield e
        elif e.kind in ("Tuple", "List"):
            todo.extend(e.parts)
        elif e.kind == "IfExp" and len(e.parts) == 3:
            todo.extend(e.parts[1:])


def _assigning(
    aliases: Mapping[str, Sequence[tuple[int, int, str]]], path: str, name: Expr
) -> bool:
    """Whether ``name`` is the target of its file's module-level alias assignment."""
    return any(a <= name.line <= b and alias == name.name for a, b, alias in aliases.get(path, ()))


class _UntakenBranches:
    """The branches of a module-level function that test its own parameters (``if backbone
    == 'mobilenetv2': ... elif backbone.startswith('resnet'): ...``) and that no running
    call takes, by the literals the calls pass (or a caller's own parameter, followed to
    its callers in turn, or the default where a call leaves it): a reference there keeps
    nothing (a builder table's ``_load_model`` reached only through the picked entry,
    which passes ``'mobilenetv2'``: the ResNet, HRNet and Xception builders of its other
    branches run for the unpicked entries alone). A call that unpacks arguments, passes a
    value that is no literal, or a test that cannot be told keeps the branch."""

    #: how far a parameter passed on is followed to the callers of its def
    DEPTH = 3

    def __init__(
        self,
        values_of: Mapping[str, FileValues],
        defs: Mapping[str, Sequence[DefValues]],
        sites: Mapping[Place, set[tuple[str, int]]],
    ) -> None:
        self.defs = defs
        self.sites = sites
        self.asking: set[Place] = set()
        #: path -> (first, last line, def index) of each module-level function whose tests
        #: read only its own parameters
        self.tested: dict[str, list[tuple[int, int, int]]] = {}
        for path, found in defs.items():
            for n, d in enumerate(found):
                if d.is_class or d.owner >= 0 or "." in d.qual or not d.branches:
                    continue
                params = {p for p, _ in d.params}
                if any(
                    b.body_end and {n.name for n in _names(b.test)} <= params for b in d.branches
                ):
                    self.tested.setdefault(path, []).append((d.line, d.end_line, n))
        #: (path, line) -> the calls there (the call facts' lines)
        self.calls: dict[tuple[str, int], list[tuple[Expr, int]]] = {}
        for path, values in values_of.items():
            for call in values.calls:
                self.calls.setdefault((path, call.expr.line), []).append((call.expr, call.function))

    def skips(self, path: str, line: int, live: Callable[[str, int], bool]) -> bool:
        """Whether the reference at ``line`` of ``path`` lies in a branch of its function
        that no running call takes (``live``: whether a call site runs)."""
        for first, last, n in self.tested.get(path, ()):
            if first <= line <= last and (path, n) not in self.asking:
                # (a def asked again while its own answer is pending, through a recursion
                # or its callers' branches: its branches are taken, as far as told here)
                self.asking.add((path, n))
                try:
                    return self._untaken((path, n), line, live)
                finally:
                    self.asking.discard((path, n))
        return False

    def _untaken(self, place: Place, line: int, live: Callable[[str, int], bool]) -> bool:
        d = self.defs[place[0]][place[1]]
        params = {p for p, _ in d.params}
        wanted = []  # (test, whether the reference needs it to hold)
        for b in d.branches:
            if not b.body_end or not (b.test.end_line < line <= b.end_line):
                continue
            if not {n.name for n in _names(b.test)} <= params:
                return False  # the branch also rests on what the callers do not tell
            wanted.append((b.test, line <= b.body_end))
        if not wanted:
            return False
        names = sorted(set().union(*({n.name for n in _names(test)} for test, _ in wanted)))
        sites = [s for s in self.sites.get(place, ()) if live(*s)]
        if not sites:
            return False  # nothing runs it: the left-out reading's own rule decides
        for site in sites:
            bound = self._bound(place, site, names, live, 0)
            if bound is None:
                return False
            for values in _product(bound, names):
                told = [holds(test, lambda e, _d, v=values: _named(e, v)) for test, _ in wanted]
                if all(
                    t is UNKNOWN or bool(t) == need
                    for t, (_, need) in zip(told, wanted, strict=True)
                ):
                    return False  # this call may take the branch
        return True

    def _bound(
        self,
        place: Place,
        site: tuple[str, int],
        names: list[str],
        live: Callable[[str, int], bool],
        depth: int,
    ) -> dict[str, set[object]] | None:
        """The values the call at ``site`` passes each parameter in ``names`` of the def
        at ``place``; None when one is not told."""
        d = self.defs[place[0]][place[1]]
        found = [
            (expr, fn)
            for expr, fn in self.calls.get(site, ())
            if expr.callee() == d.name and not expr.unpacks()
        ]
        if len(found) != 1:
            return None
        expr, fn = found[0]
        passed = bind_call(d, expr)
        defaults = dict(d.params)
        out: dict[str, set[object]] = {}
        for name in names:
            arg = passed.get(name)
            if arg is None:
                arg = defaults.get(name)
                if arg is None:
                    return None
            value = holds(arg, lambda _e, _d: UNKNOWN)
            if value is not UNKNOWN:
                try:
                    out[name] = {value}
                except TypeError:  # a list or dict literal: not a value a test picks by
                    return None
                continue
            caller = self.defs[site[0]][fn] if fn >= 0 else None
            if (
                arg.kind != "Name"
                or caller is None
                or caller.is_class
                or caller.owner >= 0
                or "." in caller.qual
                or depth >= self.DEPTH
                or arg.name not in {p for p, _ in caller.params}
            ):
                return None
            # a parameter passed on: the values its own running callers pass
            outer = (site[0], fn)
            values: set[object] = set()
            callers = [s for s in self.sites.get(outer, ()) if live(*s)]
            if not callers:
                return None
            for s in callers:
                got = self._bound(outer, s, [arg.name], live, depth + 1)
                if got is None:
                    return None
                values |= got[arg.name]
            out[name] = values
        return out


def _named(expr: Expr, values: Mapping[str, object]) -> object:
    return values.get(expr.name, UNKNOWN) if expr.kind == "Name" else UNKNOWN


def _product(bound: Mapping[str, set[object]], names: list[str]) -> Iterator[dict[str, object]]:
    """Every combination of the parameters' values (at most 64)."""
    combos: list[dict[str, object]] = [{}]
    for name in names:
        combos = [{**c, name: v} for c in combos for v in bound[name]][:64]
    yield from combos


def left_out(
    analyses: Sequence[FileAnalysis],
    hierarchy: Hierarchy,
    seeds: Iterable[Place | str],
    kept: Iterable[Place | str] = (),
    dead: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    defaults: Mapping[str, set[object]] | None = None,
    skipped: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    apart: Callable[[str], object] | None = None,
) -> dict[str, list[tuple[int, int]]]:
    """path -> (first, last line) of ``seeds`` (defs a pick leaves out, by place or by any
    module spelling of their name: ``pkg.nets.PoseResNet``) and of every
    module-level def that only they reach (module docstring), followed until nothing
    changes, ``kept`` (the picked ones, by place or by name) never. ``dead``: path -> (first, last
    line) of the code nothing runs (:func:`~apiscan.review.work.uncalled_functions`): a
    reference from there keeps nothing (CenterTrack's ``DLA`` built by ``dla34``, left
    out, and by ``dla102``, which nothing calls). ``defaults``: the argparse options'
    defaults by destination (:meth:`~apiscan.review.names.ArgparseDefaults.values`): a dict
    read by such an option (``DLA_NODE[opt.dla_node]``, ``--dla_node`` defaulting to
    ``dcn``) reaches only the entry its default picks, the others' classes only the left-out
    code may reach. ``skipped``: path -> (first, last line) of the branches the run's
    values never take (:func:`~apiscan.review.work.skipped_spans`): a reference there is
    one from left-out code (the keypoint head's builder, called only after ``if not
    cfg.MODEL.KEYPOINT_ON: return``), and a pick of a table there is a seed of its own.
    ``apart``: whether a file is counted apart (a side project, a lazy config): its
    references keep nothing that left-out code also reaches (an unpicked model's head
    builder, which a side project calls too), nor do those from the defs only such files
    refer to (a library's dataset wrapper only examples build, deriving from a dataset
    only an unpicked task builds). Empty without seeds or skipped branches."""
    seeds = list(seeds)
    skipped = skipped or {}
    if not seeds and not skipped:
        return {}
    values_of = {fa.path: v for fa in analyses if (v := _values(fa)) is not None}
    analyses = [fa for fa in analyses if fa.path in values_of]
    defs = {path: v.defs for path, v in values_of.items()}
    # every module spelling of every def -> its place (the first def so named in its file),
    # and the same by file; a spelling two files share (``dla.DLA`` for CenterTrack's
    # ``networks/dla.py`` and ``networks/backbones/dla.py``, each a ``dla`` module from its
    # own folder) is the caller's own file's def when it has one
    places: dict[str, Place] = {}
    own_defs: dict[str, dict[str, Place]] = {}
    for fa in analyses:
        own = own_defs[fa.path] = {}
        for n, d in enumerate(defs[fa.path]):
            for module in fa.modules:
                own.setdefault(f"{module}.{d.qual}", (fa.path, n))
        for name, place in own.items():
            places.setdefault(name, place)
    # the picked ones, by place or by name: the model the run's config picks stays built
    # when only left-out code names it (an alternative wrapping it as its backbone)
    keep = {p for k in kept if (p := places.get(k) if isinstance(k, str) else k) is not None}
    unbuilt: set[Place] = set()
    for seed in seeds:
        found = places.get(seed) if isinstance(seed, str) else seed
        if found is not None:
            unbuilt.add(found)
    # the calls by the def they reach
    sites: dict[Place, set[tuple[str, int]]] = {}
    for fa, fact, key in _resolved_calls(analyses, hierarchy):
        own = own_defs.get(fa.path, {})
        place = own.get(fact.callee) or own.get(key) or places.get(key)
        if place is not None:
            sites.setdefault(place, set()).add((fa.path, fact.line))
    # what a name stands for, as (path, top-level name): the file's own defs and
    # module-level assignments first, then its imports through the modules' files
    tops: dict[tuple[str, str], int] = {}  # (path, name) -> its module-level def
    named: dict[str, set[str]] = {}  # path -> the names its module level binds
    module_paths: dict[str, str] = {}
    for fa in analyses:
        values = values_of[fa.path]
        for module in fa.modules:
            module_paths.setdefault(module, fa.path)
        names = named[fa.path] = {a.target.name for a in values.assigns if a.target.kind == "Name"}
        for n, d in enumerate(values.defs):
            if d.owner < 0 and "." not in d.qual:
                tops.setdefault((fa.path, d.name), n)
                names.add(d.name)
    imports = {fa.path: imported_names(fa, values_of[fa.path]) for fa in analyses}
    # path -> its public module-level functions, what a read of its ``__dict__`` by a
    # computed key takes (builders by architecture name; the classes they build are
    # reached through them)
    public: dict[str, list[tuple[tuple[str, str], int]]] = {}
    for (path, name), index in tops.items():
        if not name.startswith("_") and not defs[path][index].is_class:
            public.setdefault(path, []).append(((path, name), index))

    # the files each file star-imports (``from .common import *``): a name it neither
    # defines nor imports by name is theirs
    starred: dict[str, list[str]] = {}
    for fa in analyses:
        package = import_package(fa.modules, fa.path.endswith("__init__.py")).split(".")
        for level, source in values_of[fa.path].star_imports:
            parts = package[: len(package) - (level - 1)] if level else []
            module = ".".join([*parts, source] if source else parts)
            if module in module_paths:
                starred.setdefault(fa.path, []).append(module_paths[module])

    def lookup(path: str, name: str) -> tuple[str, str] | None:
        # a name a package's ``__init__`` only imports (``from .deform_conv import
        # ModulatedDeformConv``) is the def it re-exports: the import is no use of its own,
        # and a reference through the package is one to that def
        seen: set[tuple[str, str]] = set()
        while (path, name) not in seen:
            seen.add((path, name))
            if name in named[path]:
                return path, name
            dotted = imports[path].get(name)
            if dotted is None:
                source = next((p for p in starred.get(path, ()) if name in named[p]), None)
                return (source, name) if source is not None else None
            module, _, last = dotted.rpartition(".")
            source = module_paths.get(module)
            if source is None:
                # ``import pkg.mod as m`` names a module, never a def
                return None
            if last not in named[source] and last in imports[source]:
                path, name = source, last
                continue
            return source, last
        return None

    def top(path: str, name: str) -> Place | None:
        found = lookup(path, name)
        index = tops.get(found) if found is not None else None
        return (found[0], index) if found is not None and index is not None else None

    # the module-level dicts, the lines their literals span, and the defs each holds
    held: dict[Place, set[tuple[tuple[str, str], str | None]]] = {}  # (dict, its key)
    # a dict -> where it is read, with the key a default picks there (None: any entry)
    tables: dict[tuple[str, str], set[tuple[str, int, str | None]]] = {}
    keys: dict[tuple[str, str], list[str]] = {}  # a dict -> its string keys
    literals: dict[str, list[tuple[int, int]]] = {}
    # the module-level sets of classes (``_NORM_TYPES = {BatchNormAct2d, GroupNormAct}``):
    # membership tests, which build none of them
    members: dict[str, list[tuple[int, int]]] = {}
    # a module's own code gathering tables or their classes (``_LAYERS = (_ACT_ME,
    # _ACT_DEFAULT)`` to fill them, ``{m for m in _NORM_MAP.values()}`` for membership
    # tests): it builds no entry
    gathering: dict[str, list[tuple[int, int]]] = {}
    for fa in analyses:
        values = values_of[fa.path]
        for a in values.assigns:
            if not (a.top and a.target.kind == "Name"):
                continue
            if a.value.kind == "Set" or (
                a.value.kind == "Call"
                and a.value.func.kind == "Name"
                and a.value.func.name in ("set", "frozenset")
            ):
                members.setdefault(fa.path, []).append((a.value.line, a.value.end_line))
            if a.value.kind in ("Tuple", "List", "Set", "SetComp"):
                gathering.setdefault(fa.path, []).append((a.value.line, a.value.end_line))
            literal = _table_literal(a.value)
            if literal is None:
                continue
            table = (fa.path, a.target.name)
            tables.setdefault(table, set())
            keys[table] = literal[0]
            literals.setdefault(fa.path, []).append((a.value.line, a.value.end_line))
            entry_keys = a.value.keys if a.value.kind == "Dict" else literal[0]
            for key, item in zip(entry_keys, literal[1], strict=True):
                for name in _entries(item):
                    place = top(fa.path, name.name)
                    if place is not None:
                        held.setdefault(place, set()).add((table, key))
    follower = _KeyFollower(values_of, defaults or {})

    def read(
        table: tuple[str, str], path: str, line: int, picked: str | None, told: bool = False
    ) -> None:
        """One read of ``table`` at ``line`` picking the key ``picked`` (None: any); a key
        ``told`` by the value a call passes that no entry has picks none (a look-up
        guarded by ``if name in TABLE``)."""
        if picked is not None and picked not in keys[table] and picked != _NO_KEY:
            # ``'batch_norm'`` picks ``'batchnorm'`` (the look-up normalises its key)
            same = [k for k in keys[table] if _normal(k) == _normal(picked)]
            # ``'dla_34'`` picks ``'dla'`` (the builder cuts the depth off)
            cut = [k for k in keys[table] if picked.startswith(k)]
            found = same or ([max(cut, key=len)] if cut else [_NO_KEY if told else None])
            for key in found:
                tables[table].add((path, line, key))
            return
        tables[table].add((path, line, picked))

    # every module-level def -> the (path, line) of each name written as a value that
    # stands for it (outside the dicts holding it); each dict -> where it is read
    refs: dict[Place, set[tuple[str, int]]] = {}
    every_call = call_index(values_of.values())
    # a module-level alias of a def (``deform_conv = _DeformConv.apply``): a reference from
    # its value is one from wherever the alias is used; (path, alias) -> where it is read
    aliases: dict[str, list[tuple[int, int, str]]] = {}
    alias_uses: dict[tuple[str, str], set[tuple[str, int]]] = {}
    for fa in analyses:
        for a in values_of[fa.path].assigns:
            if a.top and a.target.kind == "Name" and a.value.kind in ("Name", "Attribute"):
                end = max(a.line, a.value.end_line or a.value.line)
                aliases.setdefault(fa.path, []).append((a.line, end, a.target.name))
                alias_uses[(fa.path, a.target.name)] = set()
    for fa in analyses:
        values = values_of[fa.path]
        for expr in _written(values):
            entry = any(a <= expr.line <= b for a, b in literals.get(fa.path, ()))
            member = any(a <= expr.line <= b for a, b in members.get(fa.path, ()))
            picks = _picked_keys(expr, defaults or {})
            keyed, none = _keyed_reads(expr)
            gathered = any(a <= expr.line <= b for a, b in gathering.get(fa.path, ()))
            for name in _names(expr):
                found = lookup(fa.path, name.name)
                if found is None or entry:
                    continue
                if found in tables:
                    picked = picks.get(id(name))
                    if picked is not None:
                        read(found, fa.path, name.line, picked)
                    elif id(name) in none:
                        read(found, fa.path, name.line, _NO_KEY)
                    elif id(name) in keyed:
                        for p, line, key in follower.keys(keyed[id(name)], fa.path, name.line):
                            read(found, p, line, key, told=True)
                    elif gathered:
                        read(found, fa.path, name.line, _NO_KEY)
                    else:
                        read(found, fa.path, name.line, None)
                elif member:
                    continue
                elif (index := tops.get(found)) is not None:
                    refs.setdefault((found[0], index), set()).add((fa.path, name.line))
                elif found in alias_uses and not _assigning(aliases, fa.path, name):
                    alias_uses[found].add((fa.path, name.line))
            # a def read as an attribute of its imported module (``du.AllGather.apply``)
            for e in expr.walk():
                if entry or e.kind != "Attribute" or not e.parts or e.parts[0].kind != "Name":
                    continue
                source = module_paths.get(imports[fa.path].get(e.parts[0].name, ""))
                if source is not None and e.name == "__dict__":
                    # the module's namespace read by a computed key (``resnet.__dict__[
                    # backbone_name](...)``): a reference to each of its public functions
                    for (path, _name), index in public.get(source, ()):
                        refs.setdefault((path, index), set()).add((fa.path, e.line))
                    continue
                index = tops.get((source, e.name)) if source is not None else None
                if index is not None and source is not None:
                    refs.setdefault((source, index), set()).add((fa.path, e.line))
        for pick in globals_picks(values, every_call):
            for n, d in enumerate(values.defs):
                if d.owner < 0 and not d.is_class and pick.admits(values.defs, n):
                    refs.setdefault((fa.path, n), set()).add((fa.path, pick.line))
    # a class runs as the base of every class deriving from it (an unregistered model base
    # whose ``build_encoder`` builds the layers, under the registered model deriving from
    # it): each subclass's statement refers to it, so a base only left-out classes derive
    # from is left out with them, and what only its methods build with it
    first_module = {fa.path: fa.modules[0] for fa in analyses if fa.modules}
    for (path, _), index in tops.items():
        d = defs[path][index]
        if d.is_class and path in first_module:
            for sub in hierarchy.subclasses(f"{first_module[path]}.{d.qual}"):
                found = places.get(sub)
                if found is not None and found != (path, index):
                    line = defs[found[0]][found[1]].line
                    refs.setdefault((path, index), set()).add((found[0], line))
    spans: dict[str, list[tuple[int, int]]] = {}

    def add(place: Place) -> None:
        d = defs[place[0]][place[1]]
        spans.setdefault(place[0], []).append((d.line, d.end_line))

    left_aliases: set[tuple[str, str]] = set()

    # a library module's self-test (a backbone file building its largest variant under
    # ``__main__``) runs when that file is tried out, never in the training run
    trials = self_tests(analyses)

    def inside(path: str, line: int) -> bool:
        return (
            (path, line) == _ELSEWHERE
            or trials.get(path, (0, -1))[0] <= line <= trials.get(path, (0, -1))[1]
            or any(a <= line <= b for a, b in spans.get(path, ()))
            or any(a <= line <= b for a, b in skipped.get(path, ()))
            or any(
                a <= line <= b and (path, alias) in left_aliases
                for a, b, alias in aliases.get(path, ())
            )
        )

    # the picked ones run though no code builds them (a registry's pick by the config)
    picked_spans: dict[str, list[tuple[int, int]]] = {}
    for path, index in keep:
        d = defs[path][index]
        picked_spans.setdefault(path, []).append((d.line, d.end_line))

    def unrun(path: str, line: int) -> bool:
        return (
            dead is not None
            and any(a <= line <= b for a, b in dead.get(path, ()))
            and not any(a <= line <= b for a, b in picked_spans.get(path, ()))
        )

    untaken = _UntakenBranches(values_of, defs, sites)

    def gone(path: str, line: int) -> bool:
        """A reference from left-out code, or from a branch no running call takes."""
        return inside(path, line) or untaken.skips(path, line, live_site)

    def live_site(path: str, line: int) -> bool:
        """A call that runs: not in left-out or dead code, nor in a file counted apart, nor
        in a branch its own function's callers never take (``_load``'s ``elif`` calling
        ``_make`` for the wide backbone, when ``_make``'s head branch is asked)."""
        return (
            not inside(path, line)
            and not unrun(path, line)
            and not (apart and apart(path))
            and not untaken.skips(path, line, live_site)
        )

    for place in unbuilt:
        add(place)
    # each module-level def's references, but those of its own body (``super(Net, self)``,
    # a recursion), which keep nothing; a class is reached by its constructions too, which
    # the call facts key by its ``__init__``
    inits = {
        (path, d.owner): n
        for path, found in defs.items()
        for n, d in enumerate(found)
        if d.owner >= 0 and d.name == "__init__"
    }
    candidates: list[tuple[Place, list[tuple[str, int]]]] = []
    for place in sorted({(path, index) for (path, _), index in tops.items()}):
        path, index = place
        d = defs[path][index]
        if place in unbuilt or place in keep or "." in d.qual:
            continue
        called = set(sites.get(place, ()))
        if place in inits:
            called |= sites.get((path, inits[place]), set())
        # a read whose default key picks another entry reaches none of this one's names
        reads = [
            (p, line) if picked in (None, key) else _ELSEWHERE
            for t, key in held.get(place, ())
            for p, line, picked in tables.get(t, ())
        ]
        every = [
            (p, line)
            for p, line in (*called, *refs.get(place, ()), *reads)
            if not (p == path and d.line <= line <= d.end_line)
        ]
        if every:
            candidates.append((place, every))
    # the defs only files counted apart refer to, and those only such defs do (a dataset
    # wrapper of the library only examples build, calling its base's constructor): they go
    # with those files, so their references keep nothing built either
    apart_spans: dict[str, list[tuple[int, int]]] = {}

    def apart_at(path: str, line: int) -> bool:
        return apart is not None and (
            bool(apart(path)) or any(a <= line <= b for a, b in apart_spans.get(path, ()))
        )

    growing = apart is not None
    while growing:
        growing = False
        for place, every in candidates:
            d = defs[place[0]][place[1]]
            if (d.line, d.end_line) not in apart_spans.get(place[0], ()) and all(
                apart_at(p, line) for p, line in every
            ):
                apart_spans.setdefault(place[0], []).append((d.line, d.end_line))
                growing = True
    changed = True
    while changed:
        changed = False
        for alias, uses in alias_uses.items():
            if alias not in left_aliases and uses and all(inside(p, n) for p, n in uses):
                left_aliases.add(alias)
                changed = True
        for place, every in candidates:
            if place in unbuilt:
                continue
            # (a def nothing else calls may be reached from left-out code all the same: a
            # ``globals()`` look-up the dead code's rule does not read)
            live = [
                (p, line)
                for p, line in every
                if (inside(p, line) or not unrun(p, line)) and not apart_at(p, line)
            ]
            if live and all(gone(p, line) for p, line in live):
                unbuilt.add(place)
                add(place)
                changed = True
    return {path: sorted(found) for path, found in sorted(spans.items())}


def documented_definitions(
    analyses: Sequence[FileAnalysis], imported: Collection[tuple[str, str]]
) -> frozenset[tuple[str, str]]:
    """(path, name) of the module-level definitions that ``imported`` ((module, name) pairs a
    documentation example imports) stand for: defined in that module, or re-exported by it
    (a package's ``__init__`` importing ``Model`` from its submodule), followed through the
    scan's import records a few hops; a same-named definition elsewhere is not one."""
    by_module: dict[str, FileAnalysis] = {}
    for fa in analyses:
        if fa.syntax is not None and fa.syntax.values is not None and not fa.errors:
            for m in fa.modules:
                by_module.setdefault(m, fa)
    out: set[tuple[str, str]] = set()
    for module, name in imported:
        for _ in range(4):
            fa = by_module.get(module)
            if fa is None or fa.syntax is None or fa.syntax.values is None:
                break
            if any(d.owner < 0 and d.qual == name for d in fa.syntax.values.defs):
                out.add((fa.path, name))
                break
            # a name the module imports, or re-exports through a star import (a package's
            # ``from .layers import *``: the scan's resolved exports)
            target = imported_names(fa, fa.syntax.values).get(name) or dict(fa.exports).get(
                name, ""
            )
            module, _, name = target.rpartition(".")
            if not module:
                break
    return frozenset(out)
