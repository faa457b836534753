"""The repository's call graph: every function and method, and who calls whom, across files.

Per-file workers only know names (``tinydet.layers.focal_loss``, ``tinydet.head.Head.forward``);
after the join those names are rewritten through the repo's own re-exports and class hierarchy
(the repository index, :mod:`apiscan.program.index`), so that ``self.head(x)`` on a subclass whose
``forward`` lives in a base class in another file still lands on the function that runs.

A call edge is marked ``loss`` when the call lies on a training step's loss path (between a
model's outputs and the backward pass, :mod:`apiscan.extract.loss_path`): its callee is part
of the graph MindSpore differentiates, whatever its name or place. A source the step built
from a class counts only when that class is one of the repository's ``nn.Module``s outside
its data and test code (a ``Mixup()`` object called before the model starts no loss path).

Besides call edges the graph carries two kinds the scope needs: ``defines`` (a function to the
functions nested in it, which run in its context even when the call is not seen) and
``override`` (a method to the subclass methods overriding it: ``self.decode()`` in a base class
may run any subclass's ``decode``, the usual class-hierarchy approximation).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from apiscan.extract.records import ANY_RECEIVER, DATA_ROLES, DATASET_METHODS, REF, FileAnalysis
from apiscan.program.index import ClassTable, Hierarchy, follow, is_torch

# networkx (~0.12 s to import) loads where a graph is built: a module that only reads this
# one's names or constants never pays for it.
if TYPE_CHECKING:
    import networkx as nx

#: torch's base of a custom differentiable operation, by the names torch spells it.
_AUTOGRAD_FUNCTION = re.compile(r"^torch\.autograd\.(?:function\.)?Function$")

#: Edge attribute: the call lies on a training step's loss path.
LOSS = "loss"

#: Name of the node for a module's top-level code (not a valid identifier, so it never clashes
#: with a function called the same as its module).
MODULE_CODE = "<module>"

__all__ = ["DATASET_METHODS", "DATA_ROLES", "Hierarchy", "build_call_graph", "module_node"]

#: Bases that are Python's own (``class Foo(object)``, ``class Foo(Exception)``).
#: Edge roles that are not calls seen in the source.
DEFINES, OVERRIDE = "defines", "override"

#: When a caller and callee meet several times, the role kept on the single edge: a function
#: both called and passed as ``collate_fn`` must still be found as data code.
_ROLE_RANK = {"call": 0, REF: 0, DEFINES: 0, OVERRIDE: 0}


def module_node(module: str) -> str:
    """The node standing for ``module``'s top-level code."""
    return f"{module}.{MODULE_CODE}"


def build_call_graph(analyses: Sequence[FileAnalysis], classes: ClassTable) -> nx.DiGraph:
    """Functions and module code as nodes, calls as edges (see the module docstring).

    Node attributes: ``path``, ``qualname`` (module-relative, ``""`` for module code), ``cls``
    (fully qualified class of a method, else ``""``), ``line``, ``kind`` (``function``,
    ``method`` or ``module``), ``no_grad`` and ``trains`` (True: decorated ``@torch.no_grad()``,
    runs a backward pass). Edge attributes: ``role`` and ``line`` (of the first such call),
    and :data:`LOSS` (True) when some such call lies on a training step's loss path.
    Graph attributes: ``unresolved`` (calls whose callee names nothing known), ``external``
    (calls into torch, or into methods a repo class inherits from outside the repo) and
    ``loss_lines`` ((path, training step) -> (line, callee's last name) of the step's own
    calls on its loss path: ``torch.mean(out_src)`` written inline in the step is the loss's
    computation; the ``backward()`` on the same line as a loss scaler's ``scale`` is not).
    """
    return _Builder(analyses, Hierarchy(analyses, classes)).build()


class _Builder:
    def __init__(self, analyses: Sequence[FileAnalysis], hierarchy: Hierarchy) -> None:
        import networkx as nx

        self.analyses = analyses
        self.hierarchy = hierarchy
        self.graph = nx.DiGraph(unresolved=0, external=0)
        #: every spelling of a function (one per module name of its file) -> its node
        self.spelled: dict[str, str] = {}
        self._targets: dict[tuple[str, str], tuple[str, ...] | None] = {}
        self._named: dict[str, list[str]] | None = None

    def build(self) -> nx.DiGraph:
        for fa in self.analyses:
            self._add_nodes(fa)
        edges: list[tuple[str, str, str, int, bool]] = []
        for fa in self.analyses:
            if not fa.modules:
                continue
            module = fa.modules[0]
            loss = self._loss_calls(fa)
            for (step, line), names in loss.items():  # the step's own loss computations
                self.graph.graph.setdefault("loss_lines", {}).setdefault(
                    (fa.path, step), set()
                ).update((line, name) for name in names)
            for call in fa.calls:
                caller = self._caller(module, call.caller)
                targets = self._resolve(call.callee, call.role)
                if call.callee.startswith(ANY_RECEIVER + "."):
                    pass  # a guess by name: not a call the counts below describe
                elif targets is None:
                    self.graph.graph["unresolved"] += 1
                elif not targets:
                    self.graph.graph["external"] += 1
                on_path = bool(loss) and _on_path(loss, call.caller, call.line, call.callee)
                for target in targets or ():
                    edges.append((caller, target, call.role, call.line, on_path))
            for fn in fa.functions:
                parent = fn.qualname.rpartition(".")[0]
                node = f"{module}.{fn.qualname}"
                if parent and f"{module}.{parent}" in self.graph:
                    edges.append((f"{module}.{parent}", node, DEFINES, fn.line, False))
        edges.extend(self._overrides())
        self._add_edges(edges)
        return self.graph

    def _loss_calls(self, fa: FileAnalysis) -> dict[tuple[str, int], set[str]]:
        """(training step, line) → the callees' last names of the calls on its loss path
        that depend on a model: one named like a model, or an object the step built from
        one of the repository's ``nn.Module`` classes (checked here, where classes are
        known)."""
        out: dict[tuple[str, int], set[str]] = {}
        for lp in fa.loss_paths:
            bound = {s for _, _, sources in lp.calls for s in sources if s}
            # built in the step, or in another method of its class (``self.D =
            # Discriminator(...)`` in ``build_model``, called as ``self.D(x)`` in ``train``)
            owner = lp.function.rpartition(".")[0]
            models = {0} | {
                c.line
                for c in fa.calls
                if (c.caller == lp.function or (owner and c.caller.rpartition(".")[0] == owner))
                and c.line in bound
                and self._builds_module(c.callee)
            }
            for line, name, sources in lp.calls:
                if models.intersection(sources):
                    out.setdefault((lp.function, line), set()).add(name)
        return out

    def _builds_module(self, callee: str) -> bool:
        """``callee`` is one of the repository's ``nn.Module`` classes, defined outside its
        data and test code (the class a training step builds its model from)."""
        h = self.hierarchy
        cls = h.resolve(follow(callee, h.classes.aliases, lambda n: n in h.classes.facts) or "")
        if cls is None or cls not in h.classes.facts or not h.is_module(cls):
            return False
        init = self.spelled.get(h.method(cls, "__init__") or "")
        path = self.graph.nodes[init]["path"] if init is not None else ""
        return not (path and (_is_test_path(path) or _is_data_path(path)))

    def _add_nodes(self, fa: FileAnalysis) -> None:
        if not fa.modules:
            return
        first = fa.modules[0]
        steps = {lp.function for lp in fa.loss_paths}
        top = {"path": fa.path, "qualname": "", "cls": "", "line": 1, "kind": "module"}
        nodes = [(module_node(first), top)]
        for fn in fa.functions:
            node = f"{first}.{fn.qualname}"
            attrs: dict[str, object] = {
                "path": fa.path,
                "qualname": fn.qualname,
                "cls": f"{first}.{fn.cls}" if fn.cls else "",
                "line": fn.line,
                "kind": "method" if fn.cls else "function",
            }
            if fn.no_grad:  # ``@torch.no_grad()``: never a loss root, whatever its name
                attrs["no_grad"] = True
            if fn.qualname in steps:  # runs a backward pass: a training step, not a loss
                attrs["trains"] = True
            nodes.append((node, attrs))
            for module in fa.modules:
                self.spelled[f"{module}.{fn.qualname}"] = node
        self.graph.add_nodes_from(nodes)

    def _caller(self, module: str, qualname: str) -> str:
        """The node of the innermost known function enclosing a call (a lambda or a function
        the extractor did not list falls back to its parent, then to the module code)."""
        while qualname:
            node = f"{module}.{qualname}"
            if node in self.graph:
                return node
            qualname = qualname.rpartition(".")[0]
        return module_node(module)

    def _resolve(self, callee: str, role: str) -> tuple[str, ...] | None:
        """The nodes a callee reaches: () when it is outside the repo, None when unknown."""
        key = (callee, role)
        if key not in self._targets:
            self._targets[key] = self._lookup(callee, role)
        return self._targets[key]

    def _lookup(self, callee: str, role: str) -> tuple[str, ...] | None:
        h = self.hierarchy
        facts = h.classes.facts
        if callee.startswith(ANY_RECEIVER + "."):
            return self._by_name(callee[len(ANY_RECEIVER) + 1 :])

        def known(n: str) -> bool:
            return n in self.spelled or n in facts or is_torch(n) or n.rpartition(".")[0] in facts

        q = follow(callee, h.classes.aliases, known)
        if q is None:
            return None
        if q in self.spelled:
            return (self.spelled[q],)
        if is_torch(q):
            return ()
        if q in facts:  # the class itself: what of it runs depends on how it is used
            return self._methods(q, DATA_ROLES.get(role, ("__init__",)))
        owner, _, attr = q.rpartition(".")
        found = self._methods(owner, (attr,))
        if found == () and attr == "apply" and self._autograd_function(owner):
            # ``MyFunction.apply(x)``: torch runs the class's ``forward`` now and its
            # ``backward`` in the same graph's backward pass (a checkpointing Function called
            # in a UNet block's forward is network code, MindSpore's recompute)
            found = self._methods(owner, ("forward", "backward"))
        if found == () and attr == "forward":  # a callable object that is not an nn.Module
            found = self._methods(owner, ("__call__",))
        if found == () and h.resolve(owner) in facts and h.method(owner, attr) is None:
            # defined in no class above: the subclasses' definitions are what runs
            subs = h.subclass_methods(owner, attr)
            found = tuple(self.spelled[m] for m in subs if m in self.spelled)
        return found

    def _autograd_function(self, cls: str) -> bool:
        """``cls`` is one of the repository's ``torch.autograd.Function`` subclasses."""
        h = self.hierarchy
        q = h.resolve(cls)
        return (
            q is not None
            and q in h.classes.facts
            and any(map(_AUTOGRAD_FUNCTION.match, h.torch_ancestors(q)))
        )

    def _by_name(self, name: str) -> tuple[str, ...]:
        """``obj.name()`` on an object of unknown class: the method when exactly one repo class
        defines a method of that name (``instances.gt_keypoints.to_heatmap()``), or the base
        class's method when every other definition overrides it (a diffusion's
        ``training_losses`` and its respaced subclass's: the override edges reach those),
        else nothing (a name unrelated classes share says too little)."""
        if self._named is None:
            self._named = {}
            for node, data in self.graph.nodes(data=True):
                if data["kind"] == "method":
                    self._named.setdefault(data["qualname"].rpartition(".")[2], []).append(node)
        found = self._named.get(name, ())
        if len(found) == 1:
            return (found[0],)
        root = self._overridden_root(found, name)
        return (root,) if root is not None else ()

    def _overridden_root(self, nodes: Sequence[str], name: str) -> str | None:
        """The one method of ``nodes`` (all named ``name``) that every other one overrides,
        directly or through another of them; None when they are not one family."""
        h = self.hierarchy
        parent: dict[str, str | None] = {}
        for node in nodes:
            fact = h.classes.facts.get(self.graph.nodes[node]["cls"])
            inherited = [h.method(b, name) for b in fact.bases if b] if fact else []
            parent[node] = next(
                (self.spelled[m] for m in inherited if m and self.spelled.get(m) in nodes), None
            )
        roots = [n for n, p in parent.items() if p is None]
        if len(roots) != 1:
            return None
        for node in nodes:  # every chain ends at the root (no cycle, no stray family)
            seen: set[str] = set()
            while node not in seen and parent[node] is not None:
                seen.add(node)
                node = parent[node]  # type: ignore[assignment]
            if node != roots[0]:
                return None
        return roots[0]

    def _methods(self, cls: str, names: Sequence[str]) -> tuple[str, ...] | None:
        """Nodes of the methods ``names`` of ``cls`` found through its bases."""
        out = []
        for name in names:
            defined = self.hierarchy.method(cls, name)
            if defined is None:
                continue
            node = self.spelled.get(defined)
            if node is None:
                return None  # a class fact lists the method, but no function fact has it
            out.append(node)
        return tuple(out)

    def _overrides(self) -> Iterator[tuple[str, str, str, int, bool]]:
        """Edges from each method to the methods overriding it in direct or deeper
        subclasses (through the nearest ancestor that defines it)."""
        h = self.hierarchy
        for cls in h.repo_classes():
            fact = h.classes.facts.get(cls)
            if fact is None:
                continue
            for name in fact.methods:
                node = self.spelled.get(f"{cls}.{name}")
                if node is None:
                    continue
                for base in fact.bases:
                    inherited = h.method(base, name) if base else None
                    if inherited is not None and inherited in self.spelled:
                        line = self.graph.nodes[node]["line"]
                        yield self.spelled[inherited], node, OVERRIDE, line, False
                        break

    def _add_edges(self, edges: Sequence[tuple[str, str, str, int, bool]]) -> None:
        merged: dict[tuple[str, str], dict[str, str | int | bool]] = {}
        for caller, callee, role, line, on_path in edges:
            data = merged.get((caller, callee))
            if data is None:
                data = merged[caller, callee] = {"role": role, "line": line}
            elif _ROLE_RANK.get(role, 1) > _ROLE_RANK.get(str(data["role"]), 1):
                data["role"] = role
            if on_path:  # one call on the loss path is enough
                data[LOSS] = True
        self.graph.add_edges_from((u, v, d) for (u, v), d in merged.items())


#: The names a call fact's callee ends with when the call is of an object (``crit(out, y)``
#: lands on ``Crit.forward``): the loss path names the call by the object instead.
_OBJECT_CALLS = frozenset({"forward", "__call__"})


def _on_path(loss: dict[tuple[str, int], set[str]], caller: str, line: int, callee: str) -> bool:
    """Is the call of ``callee`` on ``line`` of ``caller`` one the loss path names?"""
    names = loss.get((caller, line))
    if not names:
        return False
    last = callee.rpartition(".")[2]
    return last in names or last in _OBJECT_CALLS


def _is_test_path(path: str) -> bool:
    # imported here: the classification imports this module to build its graph
    from apiscan.scope.classify import is_test_path

    return is_test_path(path)


def _is_data_path(path: str) -> bool:
    from apiscan.scope.classify import is_data_path

    return is_data_path(path)
