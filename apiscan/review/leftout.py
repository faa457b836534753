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
reference from each place the dict itself is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from apiscan.extract import import_package
from apiscan.extract.records import CallFact, FileAnalysis
from apiscan.extract.values import DefValues, Expr, FileValues
from apiscan.program.index import Hierarchy
from apiscan.program.solver import callee_resolver

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


def _imports(fa: FileAnalysis, values: FileValues) -> dict[str, str]:
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
    return (e for e in _walk(expr) if e.kind == "Name")


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


def _walk(expr: Expr) -> Iterator[Expr]:
    todo = [expr]
    while todo:
        e = todo.pop()
        yield e
        todo.extend(e.parts)


#: The place of a reference that reaches nothing: a dict read where a default key picks
#: another entry.
_ELSEWHERE = ("", 0)


def _picked_keys(expr: Expr, defaults: Mapping[str, set[object]]) -> dict[int, str]:
    """id of each ``Name`` subscripted by an option whose one default is a string (``opt.
    dla_node`` with ``--dla_node`` defaulting to ``dcn``) -> that default."""
    out: dict[int, str] = {}
    for e in _walk(expr):
        if e.kind != "Subscript" or len(e.parts) < 2 or e.parts[0].kind != "Name":
            continue
        index = e.parts[1]
        if index.kind not in ("Name", "Attribute"):
            continue
        found = defaults.get(index.name, set())
        if len(found) == 1 and isinstance(value := next(iter(found)), str):
            out[id(e.parts[0])] = value
    return out


def _entries(item: Expr) -> Iterator[Expr]:
    """The names a dict's value holds (``DLASeg`` of ``{'dla': DLASeg}``, ``Conv`` and
    ``GlobalConv`` of ``{'gcn': (Conv, GlobalConv)}``)."""
    todo = [item]
    while todo:
        e = todo.pop()
        if e.kind == "Name":
            yield e
        elif e.kind in ("Tuple", "List"):
            todo.extend(e.parts)


def _assigning(
    aliases: Mapping[str, Sequence[tuple[int, int, str]]], path: str, name: Expr
) -> bool:
    """Whether ``name`` is the target of its file's module-level alias assignment."""
    return any(a <= name.line <= b and alias == name.name for a, b, alias in aliases.get(path, ()))


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
    imports = {fa.path: _imports(fa, values_of[fa.path]) for fa in analyses}

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
        if name in named[path]:
            return path, name
        dotted = imports[path].get(name)
        if dotted is None:
            source = next((p for p in starred.get(path, ()) if name in named[p]), None)
            return (source, name) if source is not None else None
        module, _, last = dotted.rpartition(".")
        source = module_paths.get(module)
        return (source, last) if source is not None else None

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
    for fa in analyses:
        values = values_of[fa.path]
        for a in values.assigns:
            if not (a.top and a.target.kind == "Name" and a.value.kind == "Dict"):
                continue
            table = (fa.path, a.target.name)
            tables.setdefault(table, set())
            keys[table] = [k for k in a.value.keys if k is not None]
            literals.setdefault(fa.path, []).append((a.value.line, a.value.end_line))
            for key, item in zip(a.value.keys, a.value.items, strict=True):
                for name in _entries(item):
                    place = top(fa.path, name.name)
                    if place is not None:
                        held.setdefault(place, set()).add((table, key))
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
            picks = _picked_keys(expr, defaults or {})
            for name in _names(expr):
                found = lookup(fa.path, name.name)
                if found is None or entry:
                    continue
                if found in tables:
                    picked = picks.get(id(name))
                    if picked is not None and picked not in keys[found]:
                        # ``'dla_34'`` picks ``'dla'`` (the builder cuts the depth off)
                        cut = [k for k in keys[found] if picked.startswith(k)]
                        picked = max(cut, key=len) if cut else None
                    tables[found].add((fa.path, name.line, picked))
                elif (index := tops.get(found)) is not None:
                    refs.setdefault((found[0], index), set()).add((fa.path, name.line))
                elif found in alias_uses and not _assigning(aliases, fa.path, name):
                    alias_uses[found].add((fa.path, name.line))
            # a def read as an attribute of its imported module (``du.AllGather.apply``)
            for e in _walk(expr):
                if entry or e.kind != "Attribute" or not e.parts or e.parts[0].kind != "Name":
                    continue
                source = module_paths.get(imports[fa.path].get(e.parts[0].name, ""))
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

    def inside(path: str, line: int) -> bool:
        return (
            (path, line) == _ELSEWHERE
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
            if live and all(inside(p, line) for p, line in live):
                unbuilt.add(place)
                add(place)
                changed = True
    return {path: sorted(found) for path, found in sorted(spans.items())}
