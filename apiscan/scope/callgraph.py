"""The repository's call graph: every function and method, and who calls whom, across files.

Per-file workers only know names (``tinydet.layers.focal_loss``, ``tinydet.head.Head.forward``);
after the join those names are rewritten through the repo's own re-exports and class hierarchy
(the ``ClassTable`` the pipeline already builds), so that ``self.head(x)`` on a subclass whose
``forward`` lives in a base class in another file still lands on the function that runs.

Besides call edges the graph carries two kinds the scope needs: ``defines`` (a function to the
functions nested in it, which run in its context even when the call is not seen) and
``override`` (a method to the subclass methods overriding it: ``self.decode()`` in a base class
may run any subclass's ``decode``, the usual class-hierarchy approximation).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import networkx as nx

from apiscan.extract.records import ANY_RECEIVER, DATA_ROLES, DATASET_METHODS, FileAnalysis
from apiscan.pipeline import ClassTable, _follow, _is_torch
from apiscan.resolve.values import NON_TORCH_PACKAGES

#: Name of the node for a module's top-level code (not a valid identifier, so it never clashes
#: with a function called the same as its module).
MODULE_CODE = "<module>"

__all__ = ["DATASET_METHODS", "DATA_ROLES", "Hierarchy", "build_call_graph", "module_node"]

#: Bases that are Python's own (``class Foo(object)``, ``class Foo(Exception)``).
_BUILTIN_BASES = frozenset({"object", "builtins", "abc", "enum", "typing", "dataclasses"})
#: Edge roles that are not calls seen in the source.
DEFINES, OVERRIDE = "defines", "override"

#: When a caller and callee meet several times, the role kept on the single edge: a function
#: both called and passed as ``collate_fn`` must still be found as data code.
_ROLE_RANK = {"call": 0, DEFINES: 0, OVERRIDE: 0}

_MODULE_PROBE = ("parameters", "torch.nn.Module.parameters")
#: ``__add__`` is defined by Dataset (and re-defined by IterableDataset) and by no other torch
#: class, so it tells a dataset class apart from its torch ancestors without a list of them.
_DATASET_PROBES = frozenset(
    {"torch.utils.data.Dataset.__add__", "torch.utils.data.IterableDataset.__add__"}
)


class Hierarchy:
    """Repo classes under one canonical name each, their methods and their torch ancestors.

    A wrapper over :class:`ClassTable` (which resolves a class name through re-exports) that
    also says *which* class defines a method (``ClassTable.member`` only says whether the repo
    does), and keeps walking past bases it cannot resolve, so that ``class Head(Mixin,
    nn.Module)`` with an external ``Mixin`` is still a module.
    """

    def __init__(self, analyses: Sequence[FileAnalysis], classes: ClassTable) -> None:
        self.classes = classes
        #: every spelling of a repo class (one per module name of its file) -> canonical name
        self.canonical: dict[str, str] = {}
        for fa in analyses:
            if not fa.modules:
                continue
            first = fa.modules[0]
            for module in fa.modules:
                for fact in fa.classes:
                    self.canonical[f"{module}.{fact.qualname}"] = f"{first}.{fact.qualname}"
        self._methods: dict[tuple[str, str], str | None] = {}
        self._torch: dict[str, frozenset[str]] = {}
        self._children: dict[str, list[str]] | None = None

    def resolve(self, name: str) -> str | None:
        """The canonical repo class or the torch name ``name`` spells, else None."""
        q = self.classes.resolve(name)
        if q is None or _is_torch(q):
            return q
        return self.canonical.get(q, q)

    def repo_classes(self) -> Iterator[str]:
        """Every repo class once, by its canonical name."""
        return iter(sorted(set(self.canonical.values())))

    def method(self, cls: str, name: str) -> str | None:
        """``<defining class>.<name>`` for ``cls().name``, searched depth-first through the
        bases in order (Python's MRO for the usual single-inheritance trees); None when the
        method is not the repo's own (inherited from torch or an unknown base)."""
        key = (cls, name)
        if key not in self._methods:
            self._methods[key] = None  # guards a cyclic hierarchy while searching
            self._methods[key] = self._search(cls, name)
        return self._methods[key]

    def _search(self, cls: str, name: str) -> str | None:
        q = self.resolve(cls)
        if q is None or _is_torch(q):
            return None
        fact = self.classes.facts.get(q)
        if fact is None:
            return None
        if name in fact.methods:
            return f"{q}.{name}"
        for base in fact.bases:
            if base:
                found = self.method(base, name)
                if found is not None:
                    return found
        return None

    def subclass_methods(self, cls: str, name: str) -> list[str]:
        """``<subclass>.<name>`` for the nearest repo subclasses of ``cls`` that define
        ``name``: what ``self.name()`` in ``cls`` runs when ``cls`` itself does not define it (a
        template method such as ``self.forward_inference()`` in an abstract base)."""
        if self._children is None:
            self._children = {}
            for sub in self.repo_classes():
                for base in self.classes.facts[sub].bases if sub in self.classes.facts else ():
                    parent = self.resolve(base) if base else None
                    if parent is not None and parent in self.classes.facts and parent != sub:
                        self._children.setdefault(parent, []).append(sub)
        found: list[str] = []
        start = self.resolve(cls)
        todo = list(self._children.get(start, ())) if start else []
        seen: set[str] = set()
        while todo:
            sub = todo.pop()
            if sub in seen:
                continue
            seen.add(sub)
            if name in self.classes.facts[sub].methods:
                found.append(f"{sub}.{name}")
            else:
                todo.extend(self._children.get(sub, ()))
        return sorted(found)

    def torch_ancestors(self, cls: str) -> frozenset[str]:
        """The torch classes ``cls`` derives from, directly or through repo classes."""
        if cls not in self._torch:
            self._torch[cls] = frozenset()  # cycle guard
            q = self.resolve(cls)
            found: set[str] = set()
            if q is not None and _is_torch(q):
                found.add(q)
            elif q is not None and q in self.classes.facts:
                for base in self.classes.facts[q].bases:
                    if base:
                        found |= self.torch_ancestors(base)
            self._torch[cls] = frozenset(found)
        return self._torch[cls]

    def unknown_ancestor(self, cls: str, depth: int = 0) -> bool:
        """Does some ancestor of ``cls`` lie outside the repo and torch, and outside the
        packages known not to hold Modules (``argparse.Action``, ``abc.ABC``...)? Such a class
        may well be an ``nn.Module`` reached through a package the scan cannot see."""
        q = self.resolve(cls)
        if depth > 30 or (q is not None and _is_torch(q)):
            return False
        fact = self.classes.facts.get(q) if q is not None else None
        if fact is None:
            root = cls.partition(".")[0]
            return bool(cls) and root not in NON_TORCH_PACKAGES and root not in _BUILTIN_BASES
        return any(self.unknown_ancestor(b, depth + 1) if b else True for b in fact.bases)

    def is_module(self, cls: str) -> bool:
        return any(
            self.classes.member(t, _MODULE_PROBE[0]) == ("torch", _MODULE_PROBE[1])
            for t in self.torch_ancestors(cls)
        )

    def is_dataset(self, cls: str) -> bool:
        return any(
            self.classes.member(t, "__add__")[1] in _DATASET_PROBES
            for t in self.torch_ancestors(cls)
        )


def module_node(module: str) -> str:
    """The node standing for ``module``'s top-level code."""
    return f"{module}.{MODULE_CODE}"


def build_call_graph(analyses: Sequence[FileAnalysis], classes: ClassTable) -> nx.DiGraph:
    """Functions and module code as nodes, calls as edges (see the module docstring).

    Node attributes: ``path``, ``qualname`` (module-relative, ``""`` for module code), ``cls``
    (fully qualified class of a method, else ``""``), ``line``, ``kind`` (``function``,
    ``method`` or ``module``). Edge attributes: ``role`` and ``line`` (of the first such call).
    Graph attributes: ``unresolved`` (calls whose callee names nothing known) and ``external``
    (calls into torch, or into methods a repo class inherits from outside the repo).
    """
    return _Builder(analyses, Hierarchy(analyses, classes)).build()


class _Builder:
    def __init__(self, analyses: Sequence[FileAnalysis], hierarchy: Hierarchy) -> None:
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
        edges: list[tuple[str, str, str, int]] = []
        for fa in self.analyses:
            if not fa.modules:
                continue
            module = fa.modules[0]
            for call in fa.calls:
                caller = self._caller(module, call.caller)
                targets = self._resolve(call.callee, call.role)
                if call.callee.startswith(ANY_RECEIVER + "."):
                    pass  # a guess by name: not a call the counts below describe
                elif targets is None:
                    self.graph.graph["unresolved"] += 1
                elif not targets:
                    self.graph.graph["external"] += 1
                for target in targets or ():
                    edges.append((caller, target, call.role, call.line))
            for fn in fa.functions:
                parent = fn.qualname.rpartition(".")[0]
                node = f"{module}.{fn.qualname}"
                if parent and f"{module}.{parent}" in self.graph:
                    edges.append((f"{module}.{parent}", node, DEFINES, fn.line))
        edges.extend(self._overrides())
        self._add_edges(edges)
        return self.graph

    def _add_nodes(self, fa: FileAnalysis) -> None:
        if not fa.modules:
            return
        first = fa.modules[0]
        top = {"path": fa.path, "qualname": "", "cls": "", "line": 1, "kind": "module"}
        nodes = [(module_node(first), top)]
        for fn in fa.functions:
            node = f"{first}.{fn.qualname}"
            nodes.append(
                (
                    node,
                    {
                        "path": fa.path,
                        "qualname": fn.qualname,
                        "cls": f"{first}.{fn.cls}" if fn.cls else "",
                        "line": fn.line,
                        "kind": "method" if fn.cls else "function",
                    },
                )
            )
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
            return n in self.spelled or n in facts or _is_torch(n) or n.rpartition(".")[0] in facts

        q = _follow(callee, h.classes.aliases, known)
        if q is None:
            return None
        if q in self.spelled:
            return (self.spelled[q],)
        if _is_torch(q):
            return ()
        if q in facts:  # the class itself: what of it runs depends on how it is used
            return self._methods(q, DATA_ROLES.get(role, ("__init__",)))
        owner, _, attr = q.rpartition(".")
        found = self._methods(owner, (attr,))
        if found == () and attr == "forward":  # a callable object that is not an nn.Module
            found = self._methods(owner, ("__call__",))
        if found == () and h.resolve(owner) in facts and h.method(owner, attr) is None:
            # defined in no class above: the subclasses' definitions are what runs
            subs = h.subclass_methods(owner, attr)
            found = tuple(self.spelled[m] for m in subs if m in self.spelled)
        return found

    def _by_name(self, name: str) -> tuple[str, ...]:
        """``obj.name()`` on an object of unknown class: the method when exactly one repo class
        defines a method of that name (``instances.gt_keypoints.to_heatmap()``), else nothing
        (a name several classes share says too little)."""
        if self._named is None:
            self._named = {}
            for node, data in self.graph.nodes(data=True):
                if data["kind"] == "method":
                    self._named.setdefault(data["qualname"].rpartition(".")[2], []).append(node)
        found = self._named.get(name, ())
        return (found[0],) if len(found) == 1 else ()

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

    def _overrides(self) -> Iterator[tuple[str, str, str, int]]:
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
                        yield self.spelled[inherited], node, OVERRIDE, line
                        break

    def _add_edges(self, edges: Sequence[tuple[str, str, str, int]]) -> None:
        merged: dict[tuple[str, str], dict[str, str | int]] = {}
        for caller, callee, role, line in edges:
            data = merged.get((caller, callee))
            if data is None:
                merged[caller, callee] = {"role": role, "line": line}
            elif _ROLE_RANK.get(role, 1) > _ROLE_RANK.get(str(data["role"]), 1):
                data["role"] = role
        self.graph.add_edges_from((u, v, d) for (u, v), d in merged.items())
