"""The whole-program solver: parameter, return and attribute facts from the workers' records.

Workers return, per function, a summary (parameters with what the function alone knows of
them, the joined return value, attributes written on ``self``) and, per call of a repository
function, the abstract arguments (:mod:`apiscan.extract.records`). Here, in the main process:

- a parameter's fact is the join of what its function declares (annotation, default,
  ``forward``'s tensors) and what every call site passes, positionally or by keyword, after the
  receiver for bound calls (``self.m(x)``, ``head(x)`` → ``forward``, ``Cls(x)`` → ``__init__``);
  an argument that is the caller's own parameter (``Param``) takes that parameter's fact, so
  chains of helpers resolve without walking any file again;
- the iteration runs over the strongly connected components of the call graph, callers first,
  each to a fixed point (recursion terminates: facts are widened, and each component has a
  budget of rounds);
- a function's return fact and a class's attribute facts are read off the summaries; where
  the return is (partly) one of the function's own parameters, the environment also hands
  the walks the return with that parameter left symbolic (:class:`pv.PassedOn`), so that
  each call gets back what it passed rather than the join over every caller's argument.

The result is an *environment* per file: the facts its functions' parameters, the functions it
calls and its classes' attributes have. The pipeline re-walks a file with its environment only
when that environment changed and holds something that can make a shape depend on data, which
keeps a cold scan close to one walk per file; the environment is part of the file's cache key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from apiscan.extract.records import CallSite, FileAnalysis, FunctionSummary
from apiscan.program import values as pv
from apiscan.program.index import ClassTable, Hierarchy, follow, is_torch
from apiscan.resolve.torch_api import TorchApi

#: Methods the framework calls without a call site in the repository.
_ENTRY_POINTS = frozenset(
    {"forward", "__call__", "__getitem__", "__getitems__", "__iter__", "__next__", "step"}
)
#: Rounds per strongly connected component before its facts are left as they are.
MAX_ITERATIONS = 8

Env = tuple[tuple[str, pv.Fact], ...]


@dataclass
class Solution:
    """Facts for the whole repository, and how long it took to find them."""

    params: dict[tuple[str, str], pv.Fact] = field(default_factory=dict)
    returns: dict[str, pv.Fact] = field(default_factory=dict)
    attrs: dict[tuple[str, str], pv.Fact] = field(default_factory=dict)
    iterations: int = 0
    envs: dict[str, Env] = field(default_factory=dict)
    #: functions that only run while objects are built or modules imported (``__init__``,
    #: module code, and helpers called from nothing else)
    building: set[str] = field(default_factory=set)


class _Index:
    """Function nodes by every spelling, and callee spellings resolved to nodes."""

    def __init__(
        self,
        analyses: Sequence[FileAnalysis],
        hierarchy: Hierarchy,
        memo: dict[str, tuple[str, bool] | None] | None = None,
    ) -> None:
        self.hierarchy = hierarchy
        self.functions: dict[str, tuple[str, FunctionSummary]] = {}
        #: function node -> the line of its ``def`` (where returns and writes are shown)
        self.lines: dict[str, int] = {}
        self.spelled: dict[str, str] = {}
        #: module -> local modules it star-imports (``from .boxes import *`` in a package's
        #: ``__init__``): names not found in the module are looked up there
        self.stars: dict[str, list[str]] = {}
        for fa in analyses:
            if not fa.modules:
                continue
            first = fa.modules[0]
            for ref in fa.local_refs:
                if ref.endswith(".*"):
                    for module in fa.modules:
                        self.stars.setdefault(module, []).append(ref[:-2])
            for s in fa.summaries:
                node = f"{first}.{s.qualname}"
                self.functions[node] = (fa.path, s)
                for module in fa.modules:
                    self.spelled[f"{module}.{s.qualname}"] = node
            for f in fa.functions:
                self.lines.setdefault(f"{first}.{f.qualname}", f.line)
        #: callee spelling -> resolved; depends only on the program's shape (:class:`Reuse`)
        self._memo: dict[str, tuple[str, bool] | None] = {} if memo is None else memo

    def hop(self, node: str, kind: str, name: str = "") -> pv.Hop:
        """A return from (or an attribute write ``self.name = ...`` by) function ``node``,
        shown where it happens (else at the function's ``def``)."""
        path, summary = self.functions[node]
        key = name if kind == "attr" else ""
        for attr, line, column in summary.carried_at:
            if attr == key:
                return pv.Hop(summary.qualname, kind, path, line, column, name)
        return pv.Hop(summary.qualname, kind, path, self.lines.get(node, 0), 1, name)

    def resolve(self, callee: str) -> tuple[str, bool] | None:
        """(function node, called through its class) for a callee spelling, or None."""
        if callee not in self._memo:
            self._memo[callee] = self._lookup(callee)
        return self._memo[callee]

    def _lookup(self, callee: str, depth: int = 0) -> tuple[str, bool] | None:
        found = self._direct(callee)
        if found is not None or depth > 3:
            return found
        module, _, name = callee.rpartition(".")
        for source in self.stars.get(module, ()):
            found = self._lookup(f"{source}.{name}", depth + 1)
            if found is not None:
                return found
        return None

    def _direct(self, callee: str) -> tuple[str, bool] | None:
        h = self.hierarchy
        facts = h.classes.facts

        def known(n: str) -> bool:
            return (
                n in self.spelled
                or n in facts
                or h.classes.torch(n)
                or n.rpartition(".")[0] in facts
            )

        q = follow(callee, h.classes.aliases, known)
        if q is None:
            return None
        # torchvision.ops.nms is a torch name; scanned as a repository of its own (its
        # functions are defined here), its functions are what its calls reach
        local = q in self.spelled or q in facts or q.rpartition(".")[0] in facts
        if h.classes.torch(q) and not local:
            return None
        if q in self.spelled:
            return self.spelled[q], False
        if q in facts:
            init = h.method(q, "__init__")
            node = self.spelled.get(init) if init else None
            return (node, True) if node else None
        owner, _, attr = q.rpartition(".")
        defined = h.method(owner, attr)
        if defined is None and attr == "forward":
            defined = h.method(owner, "__call__")
        node = self.spelled.get(defined) if defined else None
        return (node, False) if node else None


class Reuse:
    """What one solve hands the next over a program of the same shape (the pipeline solves
    again after each round of re-walks, which change facts, not names): the class hierarchy
    and the callee spellings already resolved. The shape is every file's module names, its
    functions' and classes' qualified names and its star imports, in order: all that
    resolving a spelling reads besides the class table, which the rounds share.

    Also the parameter facts of functions no call site reaches (half of fairseq's 8,000):
    those read only their own summary and the hierarchy, so a summary the re-walks left as
    it was (the same object) keeps them (:func:`_solve_params`); the facts of the call
    graph's components whose inputs did not change (:func:`_solve_params`); and the
    environments of files whose records and inputs did not change (:func:`_envs`). A round
    re-walks a few files: detectron2's later solves cost half the first one."""

    def __init__(self) -> None:
        self.shape: tuple[object, ...] | None = None
        self.hierarchy: Hierarchy | None = None
        self.resolved: dict[str, tuple[str, bool] | None] = {}
        #: function node -> (its summary, in ``building``, its parameter facts)
        self.uncalled: dict[str, tuple[FunctionSummary, bool, dict[tuple[str, str], pv.Fact]]] = {}
        #: the last solve's call graph (callee -> callers, in order) and its components in
        #: the order they are solved (members, whether one pass settles it)
        self.graph: tuple[tuple[str, tuple[str, ...]], ...] | None = None
        self.order: list[tuple[list[str], bool]] = []
        #: the last solve's components: members -> (what their facts were computed from,
        #: their parameter facts, the iterations it took); see :func:`_solve_params`
        self.components: dict[tuple[str, ...], tuple[object, dict[tuple[str, str], pv.Fact], int]]
        self.components = {}
        #: the last solve's parameter facts (what "a caller's facts changed" is measured on)
        self.params: dict[tuple[str, str], pv.Fact] = {}
        #: the last solve with environments: its solution, its attribute facts by class, each
        #: function's summary, and per file (its records, what its environment reads, the
        #: environment); see :func:`_envs`
        self.last: Solution | None = None
        self.by_class: dict[str, list[tuple[str, pv.Fact]]] = {}
        self.summaries: dict[str, FunctionSummary] = {}
        self.envs: dict[str, tuple[FileAnalysis, frozenset[tuple[str, str]], Env]] = {}

    def get(
        self, analyses: Sequence[FileAnalysis], classes: ClassTable
    ) -> tuple[Hierarchy, dict[str, tuple[str, bool] | None]]:
        shape = tuple(
            (
                fa.modules,
                tuple(s.qualname for s in fa.summaries),
                tuple(c.qualname for c in fa.classes),
                tuple(r for r in fa.local_refs if r.endswith(".*")),
            )
            for fa in analyses
        )
        if shape != self.shape or self.hierarchy is None or self.hierarchy.classes is not classes:
            self.shape, self.hierarchy, self.resolved = shape, Hierarchy(analyses, classes), {}
            self.uncalled, self.components, self.params = {}, {}, {}
            self.last, self.by_class, self.summaries, self.envs = None, {}, {}, {}
        return self.hierarchy, self.resolved


def solve(
    analyses: Sequence[FileAnalysis],
    classes: ClassTable,
    reuse: Reuse | None = None,
    envs: bool = True,
) -> Solution:
    """Every parameter, return and attribute fact, and each file's environment. ``reuse``:
    what an earlier solve of the same program shape found that still holds (see
    :class:`Reuse`). Without ``envs`` the environments are left out (``sol.envs`` empty): a
    solve whose facts walk no file again (the last, for :func:`with_owners`)."""
    if reuse is not None:
        hierarchy, memo = reuse.get(analyses, classes)
    else:
        hierarchy, memo, reuse = Hierarchy(analyses, classes), None, Reuse()
    index = _Index(analyses, hierarchy, memo)
    sol = Solution()
    edges = _edges(analyses, index)
    sol.building = _building(index, edges)
    _solve_params(index, edges, sol, reuse)
    for node, (_path, s) in index.functions.items():
        # one caller's sample handed back is not every caller's (see pv.unsampled)
        returned = pv.unsampled(_resolve(s.returns, node, sol))
        sol.returns[node] = _carried(returned, index, node, "return")
    for fa in analyses:
        if not fa.modules:
            continue
        for s in fa.summaries:
            if not s.cls or not s.self_attrs:
                continue
            node = f"{fa.modules[0]}.{s.qualname}"
            cls = f"{fa.modules[0]}.{s.cls}"
            construction = node in sol.building
            for attr, f in s.self_attrs:
                f = _carried(pv.unsampled(_resolve(f, node, sol)), index, node, "attr", attr)
                if construction:
                    f = pv.at_construction(f)
                key = (cls, attr)
                sol.attrs[key] = pv.join(sol.attrs[key], f) if key in sol.attrs else f
    if not envs:
        return sol
    by_class: dict[str, list[tuple[str, pv.Fact]]] = {}
    for (cls, attr), fact in sorted(sol.attrs.items()):
        if pv.is_informative(fact):
            by_class.setdefault(cls, []).append((attr, fact))
    _envs(analyses, index, hierarchy, sol, by_class, reuse)
    return sol


def _envs(
    analyses: Sequence[FileAnalysis],
    index: _Index,
    hierarchy: Hierarchy,
    sol: Solution,
    by_class: dict[str, list[tuple[str, pv.Fact]]],
    reuse: Reuse,
) -> None:
    """Each file's environment (:func:`_env`). A file whose records are those of the last
    solve with environments (the pipeline's rounds re-walk a few files; the others keep
    their records), none of whose inputs changed since, keeps the environment that solve
    gave it: the inputs are the parameter facts of its functions, whether its calls run only
    while objects are built, the return facts and summaries of the functions it calls, and
    the attribute facts of its classes and their ancestors (:func:`_env_inputs`)."""
    last = reuse.last
    summaries = {node: s for node, (_path, s) in index.functions.items()}
    changed: set[tuple[str, str]] = set()
    if last is not None:
        changed.update(("b", node) for node in sol.building ^ last.building)
        changed.update(
            ("r", node) for node, fact in sol.returns.items() if last.returns.get(node) != fact
        )
        changed.update(("r", node) for node in last.returns.keys() - sol.returns.keys())
        # a callee's summary is what its calls bind their own arguments to (_passed_on)
        changed.update(
            ("r", node) for node, s in summaries.items() if reuse.summaries.get(node) is not s
        )
        changed.update(
            ("a", cls)
            for cls in by_class.keys() | reuse.by_class.keys()
            if by_class.get(cls) != reuse.by_class.get(cls)
        )
        for node, summary in summaries.items():
            for p in summary.params:
                key = (node, p.name)
                if sol.params.get(key) != last.params.get(key):
                    changed.add(("p", node))
                    break
    memo: dict[str, tuple[FileAnalysis, frozenset[tuple[str, str]], Env]] = {}
    for fa in analyses:
        kept = reuse.envs.get(fa.path) if last is not None else None
        if kept is not None and kept[0] is fa and kept[1].isdisjoint(changed):
            env, inputs = kept[2], kept[1]
        else:
            env = _env(fa, index, hierarchy, sol, by_class)
            inputs = _env_inputs(fa, index, hierarchy)
        sol.envs[fa.path] = env
        memo[fa.path] = (fa, inputs, env)
    reuse.last, reuse.by_class, reuse.summaries, reuse.envs = sol, by_class, summaries, memo


def _env_inputs(
    fa: FileAnalysis, index: _Index, hierarchy: Hierarchy
) -> frozenset[tuple[str, str]]:
    """What :func:`_env` reads of a solution for ``fa``, besides ``fa`` itself: ("p", node)
    its functions' parameter facts, ("b", node) whether a caller is in ``building``, ("r",
    node) a called function's return fact and summary, ("a", class) the attribute facts of
    one of its classes' lineage."""
    if not fa.modules:
        return frozenset()
    first = fa.modules[0]
    out = {("p", f"{first}.{s.qualname}") for s in fa.summaries}
    for site in fa.sites:
        out.add(("b", f"{first}.{site.caller}"))
        found = index.resolve(site.callee)
        if found is not None and not found[1]:
            out.add(("r", found[0]))
    for call in fa.calls:
        if call.role == "collate_fn":
            found = index.resolve(call.callee)
            if found is not None and not found[1]:
                out.add(("r", found[0]))
    for c in fa.classes:
        out.update(("a", cls) for cls in _lineage(f"{first}.{c.qualname}", hierarchy))
    return frozenset(out)


def _carried(f: pv.Fact, index: _Index, node: str, kind: str, name: str = "") -> pv.Fact:
    """``f`` returned (or stored in ``self.<name>``) by ``node``: :func:`pv.passed_by` with
    the hop, located only for a fact that keeps a chain (most facts keep none)."""
    if not pv.is_dynamic(f):
        return f  # what passed_by gives back for a fact without a chain
    return pv.passed_by(f, index.hop(node, kind, name))


def _edges(
    analyses: Iterable[FileAnalysis], index: _Index
) -> dict[str, list[tuple[str, CallSite, bool]]]:
    """callee node -> [(caller node, site, receiver fills the first parameter)]."""
    into: dict[str, list[tuple[str, CallSite, bool]]] = {}
    for fa in analyses:
        if not fa.modules:
            continue
        first = fa.modules[0]
        for site in fa.sites:
            found = index.resolve(site.callee)
            if found is None:
                continue
            node, via_class = found
            caller = f"{first}.{site.caller}" if site.caller else ""
            into.setdefault(node, []).append((caller, site, site.bound or via_class))
    return into


def _building(index: _Index, edges: dict[str, list[tuple[str, CallSite, bool]]]) -> set[str]:
    """Functions that run only while objects are built: ``__init__`` methods, and functions
    every caller of which is one (a greatest fixed point: drop any with another caller).
    Entry points the framework calls (``forward``, ``__call__``...) never are, even when a
    constructor also calls them (a dummy forward pass to infer a size)."""
    building = {n for n in index.functions if n.rpartition(".")[2] == "__init__"}
    candidates = {
        n
        for n, sites in edges.items()
        if sites and n not in building and n.rpartition(".")[2] not in _ENTRY_POINTS
    }
    building |= candidates
    changed = True
    while changed:
        changed = False
        for node in sorted(candidates & building):
            for caller, _site, _bound in edges[node]:
                if caller not in building:
                    building.discard(node)
                    changed = True
                    break
    return building


def _solve_params(
    index: _Index,
    edges: dict[str, list[tuple[str, CallSite, bool]]],
    sol: Solution,
    reuse: Reuse,
) -> None:
    """Parameter facts, callers before callees; only functions some call site reaches take
    part in the iteration (the others keep what they declare: taken from ``reuse.uncalled``,
    an earlier solve's, when the summary and its ``building`` flag are the same).

    A component of the call graph is solved again only when what its facts are computed from
    changed since the last solve (``reuse``): its members' summaries, whether they run only
    while objects are built, their call sites, and the parameter facts of their callers
    outside it (solved before it). The pipeline's rounds re-walk a few files and solve the
    whole program again; the other components then take the facts the last solve found,
    which are those a solve from scratch finds (:func:`_param_facts` reads nothing else)."""
    uncalled, previous = reuse.uncalled, reuse.params
    for node, (_path, summary) in index.functions.items():
        if node not in edges:
            building = node in sol.building
            kept = uncalled.get(node)
            if kept is None or kept[0] is not summary or kept[1] != building:
                kept = (summary, building, _param_facts(node, index, edges, sol))
                uncalled[node] = kept
            sol.params.update(kept[2])
    #: nodes whose parameter facts differ from the last solve's (callers are solved first)
    changed = {
        node
        for node in index.functions
        if node not in edges and _facts_changed(node, index, sol.params, previous)
    }
    components: dict[tuple[str, ...], tuple[object, dict[tuple[str, str], pv.Fact], int]] = {}
    for members, once in _components(edges, reuse):
        inputs = tuple(
            (index.functions[node][1], node in sol.building, edges[node]) for node in members
        )
        key = tuple(members)
        last = reuse.components.get(key)
        if (
            last is not None
            and last[0] == inputs
            and not any(
                caller in changed and caller not in key
                for node in members
                for caller, _site, _bound in edges[node]
            )
        ):
            facts, iterations = last[1], last[2]
            sol.params.update(facts)
            sol.iterations += iterations
        else:
            facts, iterations = _solve_component(members, once, index, edges, sol)
            changed.update(n for n in members if _facts_changed(n, index, sol.params, previous))
        components[key] = (inputs, facts, iterations)
    reuse.components, reuse.params = components, sol.params


def _solve_component(
    members: list[str],
    once: bool,
    index: _Index,
    edges: dict[str, list[tuple[str, CallSite, bool]]],
    sol: Solution,
) -> tuple[dict[tuple[str, str], pv.Fact], int]:
    """Iterate one component of the call graph to a fixed point (at most
    :data:`MAX_ITERATIONS`): its members' parameter facts, and the iterations it took."""
    facts: dict[tuple[str, str], pv.Fact] = {}
    iterations = 0
    for _ in range(1 if once else MAX_ITERATIONS):
        iterations += 1
        changed = False
        for node in members:
            for key, fact in _param_facts(node, index, edges, sol).items():
                old = sol.params.get(key)
                facts[key] = fact
                if old != fact:
                    sol.params[key] = fact
                    # a chain that only grew is no reason for another round
                    changed = (
                        changed or old is None or (pv.without_chain(old) != pv.without_chain(fact))
                    )
        if not changed:
            break
    sol.iterations += iterations
    return facts, iterations


def _facts_changed(
    node: str,
    index: _Index,
    params: dict[tuple[str, str], pv.Fact],
    previous: dict[tuple[str, str], pv.Fact],
) -> bool:
    """Whether ``node``'s parameter facts differ from the last solve's."""
    for p in index.functions[node][1].params:
        key = (node, p.name)
        if params.get(key) != previous.get(key):
            return True
    return False


def _components(
    edges: dict[str, list[tuple[str, CallSite, bool]]], reuse: Reuse
) -> list[tuple[list[str], bool]]:
    """The strongly connected components of the call graph, callers first, each with its
    members sorted and whether one pass settles it (a function that does not call itself);
    the last solve's when the graph is the same (re-walks change facts, rarely calls)."""
    graph = tuple(
        (callee, tuple(caller for caller, _s, _b in sites)) for callee, sites in edges.items()
    )
    if graph == reuse.graph:
        return reuse.order
    import networkx as nx  # imported by the first solve, never by the workers

    digraph = nx.DiGraph()
    digraph.add_nodes_from(edges)
    for callee, callers in graph:
        for caller in callers:
            if caller in edges:
                digraph.add_edge(caller, callee)
    condensed = nx.condensation(digraph)
    order = []
    for comp in nx.topological_sort(condensed):
        members = sorted(condensed.nodes[comp]["members"])
        # one pass settles a function that does not call itself
        once = len(members) == 1 and not digraph.has_edge(members[0], members[0])
        order.append((members, once))
    reuse.graph, reuse.order = graph, order
    return order


def _param_facts(
    node: str, index: _Index, edges: dict[str, list[tuple[str, CallSite, bool]]], sol: Solution
) -> dict[tuple[str, str], pv.Fact]:
    _path, summary = index.functions[node]
    params = summary.params
    skip = 1 if summary.bound and params else 0
    passed: dict[str, list[pv.Fact]] = {p.name: [] for p in params}
    sites = edges.get(node, ())
    positional = [p for p in params if p.kind in ("posonly", "pos")] if sites else []
    by_name = {p.name for p in params if p.kind in ("pos", "kwonly")} if sites else set()
    for caller, site, bound in sites:
        offset = skip if bound else 0
        for i, arg in enumerate(site.args):
            if i + offset >= len(positional):
                break
            name = positional[i + offset].name
            passed[name].append(_as_passed(arg, caller, site, name, summary, index, sol))
        for name, arg in site.keywords:
            if name in by_name:
                passed[name].append(_as_passed(arg, caller, site, name, summary, index, sol))
    out = {}
    module_entry = _module_entry(node, summary, index)
    defaulted = _left_to_default(summary, sites)
    for i, p in enumerate(params):
        if i < skip:
            continue
        facts = passed[p.name]
        if defaulted and p.default_none and not facts:
            # no call site passes it: what the function runs with is its default, ``None``
            out[(node, p.name)] = pv.NONE
            continue
        declared = p.declared
        if module_entry and isinstance(declared, pv.Tensor) and not declared.certain:
            # the walk could not tell the class is a Module (its base is in another file);
            # the hierarchy can: forward's arguments are tensors as in any Module
            declared = pv.Tensor(arg=True)
        every = pv.join_all(facts) if facts else pv.UNKNOWN
        if _host_number_arg(declared, every):
            # ``self.head(feats, h // 14, w // 14)`` with ``h, w = x.shape[-2:]``: a forward
            # argument is a tensor only by convention; where every caller passes a plain host
            # number (a size from shapes, a literal), ``int(patch_h * 14)`` reads no tensor
            fact = every
        elif pv.is_informative(declared) or isinstance(declared, pv.Static):
            # what the function itself says (an annotation, a default) stands; callers that
            # pass something unknown do not make it uncertain
            facts = [f for f in facts if not isinstance(f, pv.Unknown)]
            fact = pv.refine(declared, pv.join_all(facts)) if facts else declared
        else:
            fact = pv.join_all(facts) if facts else pv.UNKNOWN
        if node in sol.building:
            fact = pv.at_construction(fact)
        out[(node, p.name)] = pv.widen(fact)
    return out


def _left_to_default(summary: FunctionSummary, sites: Sequence[tuple[str, CallSite, bool]]) -> bool:
    """Whether a parameter that no call site of the function passes keeps its default: the
    function is called, every call is seen with its arguments (none spreads ``*args`` or
    ``**kwargs``), and it is no method. A method is also called on receivers the solver
    cannot resolve (``model.loss(x, mask=m)`` with ``model`` built from a config), by the
    framework (``forward``) or by a builder (``__init__``), with arguments no site shows; a
    plain function is called by its name."""
    if not sites or summary.cls:
        return False
    return not any(site.star for _caller, site, _bound in sites)


def _host_number_arg(declared: pv.Fact, passed: pv.Fact) -> bool:
    """Whether a parameter declared a tensor only by the ``forward`` convention (``arg``) is
    passed a plain host value (``Static``: no tensor, nothing read from data) by every caller
    (one caller passing something unknown makes the join unknown)."""
    return (
        isinstance(declared, pv.Tensor)
        and declared.arg
        and isinstance(passed, pv.Static)
        and not passed.array
    )


def _module_entry(node: str, summary: FunctionSummary, index: _Index) -> bool:
    """Is ``node`` the ``forward`` (or ``__call__``) of an ``nn.Module`` subclass?"""
    name = summary.qualname.rpartition(".")[2]
    if not summary.cls or name not in ("forward", "__call__"):
        return False
    return index.hierarchy.is_module(node.rpartition(".")[0])


def _as_passed(
    arg: pv.Fact,
    caller: str,
    site: CallSite,
    param: str,
    callee: FunctionSummary,
    index: _Index,
    sol: Solution,
) -> pv.Fact:
    """What the callee receives as ``param``: the caller's parameters resolved, the call (in
    the caller, by its module-relative name, ``Criterion.forward``) added to the chain."""
    fact = _resolve(arg, caller, sol)
    if not pv.is_dynamic(fact):
        return fact  # passed_by keeps no chain for it: no hop to build
    known = index.functions.get(caller)
    if known is None:
        return fact
    path, summary = known
    hop = pv.Hop(summary.qualname, "call", path, site.line, site.column, param, callee.qualname)
    return pv.passed_by(fact, hop)


def _resolve(f: pv.Fact, node: str, sol: Solution) -> pv.Fact:
    """Replace ``Param`` references by the current facts of ``node``'s parameters."""
    kind = type(f)  # exact types: no class derives from a fact's
    if kind is pv.Param:
        got = sol.params.get((node, f.name), pv.UNKNOWN)  # type: ignore[union-attr]
        return pv.element(got) if f.element else got  # type: ignore[union-attr]
    if kind is pv.Seq:
        return pv.Seq(_resolve(f.elem, node, sol), f.samples)  # type: ignore[union-attr]
    if kind is pv.Tup:
        return pv.Tup(tuple(_resolve(e, node, sol) for e in f.elems))  # type: ignore[union-attr]
    if kind is pv.Dict:
        fields = f.fields  # type: ignore[union-attr]
        return pv.Dict(tuple((k, _resolve(v, node, sol)) for k, v in fields))
    return f


def _env(
    fa: FileAnalysis,
    index: _Index,
    hierarchy: Hierarchy,
    sol: Solution,
    by_class: dict[str, list[tuple[str, pv.Fact]]],
) -> Env:
    """The facts a walk of ``fa`` can use (only those that tell it more than it knows)."""
    if not fa.modules:
        return ()
    first = fa.modules[0]
    out: dict[str, pv.Fact] = {}
    for s in fa.summaries:
        node = f"{first}.{s.qualname}"
        for p in s.params:
            fact = sol.params.get((node, p.name))
            if fact is not None and fact != p.declared and _tells_more(fact, p.declared):
                out[f"p:{node}:{p.name}"] = fact
    # callees called only while building objects or importing modules: what they read from
    # tensor data is a constant by the time any step runs
    building: dict[str, bool] = {}
    for site in fa.sites:
        here = f"{first}.{site.caller}" in sol.building
        building[site.callee] = building.get(site.callee, True) and here
    for site in fa.sites:
        found = index.resolve(site.callee)
        if found is None or found[1]:  # Cls(...) gives an instance, not what __init__ returns
            continue
        fact = sol.returns.get(found[0])
        if fact is not None and building[site.callee]:
            fact = pv.at_construction(fact)
        # a static return counts too: calling a repo object that is no module gives no tensor
        if fact is not None and pv.is_known(fact):
            out[f"r:{site.callee}"] = fact
        passed_on = _passed_on(index.functions[found[0]][1])
        if passed_on is not None:
            out[f"s:{site.callee}"] = passed_on
    for call in fa.calls:
        # ``DataLoader(ds, collate_fn=collate)``: the training step iterating the loader gets
        # what ``collate`` returns, where that may make a shape depend on data (a list of
        # per-sample targets left unstacked among it: :func:`pv.collated`)
        if call.role != "collate_fn":
            continue
        found = index.resolve(call.callee)
        fact = sol.returns.get(found[0]) if found is not None and not found[1] else None
        fact = pv.collated(fact) if fact is not None else None
        if fact is not None and pv.is_dynamic(fact):
            out[f"r:{call.callee}"] = fact
    for c in fa.classes:
        own = f"{first}.{c.qualname}"
        for cls in _lineage(own, hierarchy) if by_class else ():
            for attr, fact in by_class.get(cls, ()):
                out.setdefault(f"a:{own}:{attr}", fact)
    return tuple(sorted(out.items()))


def _passed_on(summary: FunctionSummary) -> pv.PassedOn | None:
    """The return of a function that hands back (part of) one of its own parameters, for
    each call to bind to its own arguments (:class:`pv.PassedOn`); None for a function that
    returns only values it computed (those stay the solver's join)."""
    if not pv.holds_param(summary.returns):
        return None
    return pv.PassedOn(
        summary.returns,
        tuple(p.name for p in summary.params if p.kind in ("posonly", "pos")),
        tuple(p.name for p in summary.params if p.kind in ("pos", "kwonly")),
        summary.bound,
        tuple((p.name, p.declared) for p in summary.params if isinstance(p.declared, pv.Tensor)),
    )


def _tells_more(fact: pv.Fact, declared: pv.Fact) -> bool:
    """Whether a parameter's fact is worth handing to a walk: an informative one, or a plain
    host value where the walk takes the parameter for a tensor (a ``forward`` argument every
    caller passes a number: see :func:`_host_number_arg`)."""
    return (
        pv.is_informative(fact)
        or (isinstance(fact, pv.Static) and isinstance(declared, pv.Tensor))
        or fact == pv.NONE  # left to its default by every call: a branch on it never runs
    )


def _lineage(cls: str, hierarchy: Hierarchy) -> list[str]:
    """``cls`` and its repository ancestors (canonical names), nearest first."""
    out: list[str] = []
    stack = [cls]
    while stack and len(out) < 20:
        q = hierarchy.resolve(stack.pop(0))
        if q is None or is_torch(q) or q in out:
            continue
        out.append(q)
        fact = hierarchy.classes.facts.get(q)
        if fact is not None:
            stack.extend(b for b in fact.bases if b)
    return out


def widen_env(old: Env, new: Env) -> Env:
    """The next environment of a file: ``new`` joined with ``old`` key by key, so that a
    file's facts only grow from round to round and the rounds end (the lattice is finite)."""
    if not old:
        return new
    merged = dict(old)
    for key, fact in new:
        merged[key] = pv.join(merged[key], fact) if key in merged else fact
    return tuple(sorted(merged.items()))


def needs_walk(old: Env, new: Env, sensitive: Iterable[str] = ()) -> bool:
    """Re-walk a file only when its environment changed in a way that can change a finding:
    some fact (before or after) may make a shape depend on data, or a parameter the walk
    found in a shape-sensitive place (``sensitive``) is now known to be a tensor."""
    if old == new:
        return False
    before, after, sensitive = dict(old), dict(new), set(sensitive)
    for key in before.keys() | after.keys():
        was, now = before.get(key, pv.UNKNOWN), after.get(key, pv.UNKNOWN)
        if was == now or pv.without_chain(was) == pv.without_chain(now):
            continue  # a longer chain alone changes words, not findings: not worth a walk
        if pv.is_dynamic(was) or pv.is_dynamic(now):
            return True
        if key in sensitive and (pv.holds_tensor(now) or isinstance(now, pv.Static | pv.HostData)):
            # proven a tensor, a plain number where the walk read a tensor's value, or a
            # tensor's data on the host where the walk read a number from it
            return True
    return False


def shows_calls(old: Env, new: Env) -> bool:
    """Whether a walk with ``new`` would see calls the walk with ``old`` could not: a value
    newly known to be an instance of one of the repository's classes (``self.selector =
    selector``, made by a factory in another file; what a factory returns), whose
    ``self.selector(...)`` then lands on that class's ``forward``. No finding of the file
    changes, but the call graph gains the edge that decides the scope of the code called
    (a proposal selector called from a training ``forward`` is network)."""
    if old == new:
        return False
    before = dict(old)
    for key, now in new:
        if _own_instances(now) - _own_instances(before.get(key, pv.UNKNOWN)):
            return True
    return False


def _own_instances(f: pv.Fact) -> set[str]:
    """The repository classes ``f`` is an instance of, itself or as an element of a tuple
    (a builder's ``return model, criterion``, unpacked by its caller into two names)."""
    if type(f) is pv.Instance:
        return set() if is_torch(f.cls) else {f.cls}
    if type(f) is pv.Tup:
        return {e.cls for e in f.elems if type(e) is pv.Instance and not is_torch(e.cls)}
    return set()


def with_owners(
    fa: FileAnalysis,
    sol: Solution,
    api: TorchApi | None = None,
    classes: ClassTable | None = None,
) -> FileAnalysis:
    """``fa`` with the probable owners on parameters the solver proved tensors made certain
    (``x.view(...)`` in a helper every caller passes a tensor to), and, with ``api``, those
    on parameters it proved instances of a torch class that has the member: a trainer's
    ``self.optimizer.step()``, the optimizer its constructor is handed (``Trainer(model,
    optimizer)``, ``optimizer`` a ``torch.optim.Adam``) and stores on ``self``; with
    ``classes``, also of a repository class that inherits the member from torch
    (``module.named_modules()`` on the repository's model)."""
    if not fa.param_uses or not fa.modules:
        return fa
    first = fa.modules[0]
    proven = {
        (span, name)
        for span, name, function, param in fa.param_uses
        if _proven_tensor(fact := sol.params.get((f"{first}.{function}", param)))
        or (api is not None and _proven_member(fact, name, api))
        or (classes is not None and _inherited_member(fact, name, classes))
    }
    if not proven:
        return fa
    uses = tuple(
        replace(u, confidence="certain")
        if u.confidence == "probable" and (u.span, u.api) in proven
        else u
        for u in fa.uses
    )
    return replace(fa, uses=uses)


def _proven_tensor(f: pv.Fact | None) -> bool:
    return isinstance(f, pv.Tensor) and f.certain


def _proven_member(f: pv.Fact | None, name: str, api: TorchApi) -> bool:
    """Whether ``f`` is an instance of a torch class deriving from the class of the member
    ``name`` guessed for it (``torch.optim.Adam`` for ``torch.optim.Optimizer.step``)."""
    if not isinstance(f, pv.Instance) or not is_torch(f.cls):
        return False
    owner, _, attr = name.rpartition(".")
    return api.member(f.cls, attr) is not None and api.derives(f.cls, owner)


def _inherited_member(f: pv.Fact | None, name: str, classes: ClassTable) -> bool:
    """Whether ``f`` is an instance of a repository class that inherits the member ``name``
    guessed for it from a torch base (not one it, or a base of its own, defines)."""
    if not isinstance(f, pv.Instance) or is_torch(f.cls):
        return False
    kind, found = classes.member(f.cls, name.rpartition(".")[2])
    return kind == "torch" and found == name


def callee_resolver(
    analyses: Sequence[FileAnalysis], hierarchy: Hierarchy
) -> Callable[[str], tuple[str, bool] | None]:
    """The lookup the solver's call edges use, for features built on the scan's call facts
    (the review): a callee spelling → (function node, called through its class), or None."""
    return _Index(analyses, hierarchy).resolve
