"""The values a name is given anywhere in the repository's Python, read from the value records.

A call may pass a parameter through a name (``antialias=self.interpolate_antialias``) whose
value the call does not show. When every place that gives that name a value agrees on one
literal (the constructor's default ``interpolate_antialias=False`` and each builder's keyword
``interpolate_antialias=False``: Depth-Anything-V2's DINOv2), the call passes that literal.
The work items read it to tell a parameter a call really sets (``antialias=True``) from one
that only looks set.

This module is the one reader of :mod:`apiscan.extract.values` for that question (the value
records' layout may change: only :func:`_given` knows it). A name counts as given a value by:
a parameter's default (a parameter without one is given whatever its callers pass by
position: unknown), a keyword argument of any call, a dict key of a literal dict, and an
assignment to the name or to ``self.<name>``. A given value that is a name is followed the
same way; anything else that is not a literal makes the value unknown.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from apiscan.extract.values import Expr, FileValues

#: Values that select nothing a MindSpore call would lack (``antialias=False``).
NEUTRAL_VALUES = frozenset({"False", "None", "0", "()", "[]", "{}"})
#: How deep a name given as another name is followed (``self.a = a``, ``a=b``...).
DEPTH = 4
#: What a name that is given no literal, or several, reads as.
UNKNOWN = None


class NameValues:
    """Every value each name is given in the repository's value records (module docstring)."""

    def __init__(self, files: Iterable[FileValues]) -> None:
        self._given: dict[str, list[Expr | None]] = defaultdict(list)
        #: a def's (or a class's, for its ``__init__``) positional parameters by its name
        positional: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        calls: list[tuple[str, bool, tuple[Expr, ...]]] = []
        for values in files:
            for name, value in _given(values):
                self._given[name].append(value)
            for d in values.defs:
                if not d.is_class:
                    owner = values.defs[d.owner] if d.owner >= 0 else None
                    init = d.name == "__init__" and owner is not None and owner.is_class
                    positional[owner.name if init and owner else d.name].append(d.positional)
            for call in values.calls:
                expr = call.expr
                if expr.args:
                    calls.append((expr.callee(), expr.func.kind == "Attribute", expr.args))
        # an argument passed by position is the value of the parameter at that position
        for callee, via, args in calls:
            for params in positional.get(callee, ()):
                shift = 1 if params[:1] == ("self",) and (via or callee[:1].isupper()) else 0
                for name, arg in zip(params[shift:], args, strict=False):
                    self._given[name].append(None if arg.kind == "Starred" else arg)

    def literal(self, text: str) -> str | None:
        """The one literal every value given to the name ``text`` reads (``self.x``, ``x``:
        its last name), as source text; None when one is unknown or they disagree."""
        found = self._literals(_last_name(text), DEPTH, set())
        return found.pop() if found is not None and len(found) == 1 else UNKNOWN

    def neutral(self, text: str) -> str | None:
        """The harmless literal (:data:`NEUTRAL_VALUES`) the name ``text`` always holds, else
        None."""
        found = self.literal(text)
        return found if found in NEUTRAL_VALUES else None

    def candidates(self, text: str) -> tuple[str, ...]:
        """Every literal the name ``text`` is given where one is known, sorted: the choices
        of a name picked by configuration (``getattr(models, backbone)``: ``'resnet101'``,
        ``'resnet50'``). Values that are neither a literal nor a name are passed over."""
        out: set[str] = set()
        self._collect(_last_name(text), DEPTH, set(), out)
        return tuple(sorted(out))

    def _collect(self, name: str | None, depth: int, seen: set[str], out: set[str]) -> None:
        if name is None or depth < 0 or name in seen or name not in self._given:
            return
        seen.add(name)
        for value in self._given[name]:
            if value is None:
                continue
            if value.literal:
                out.add(value.text)
            else:
                self._collect(_last_name(value.text), depth - 1, seen, out)

    def _literals(self, name: str | None, depth: int, seen: set[str]) -> set[str] | None:
        if name is None or depth < 0 or name not in self._given:
            return None
        if name in seen:
            return set()  # ``self.a = a`` meets ``a`` again: what else gives it a value decides
        seen.add(name)
        out: set[str] = set()
        for value in self._given[name]:
            if value is None:
                return None
            if value.literal:
                out.add(value.text)
                continue
            inner = self._literals(_last_name(value.text), depth - 1, seen)
            if inner is None:
                return None
            out |= inner
        return out


def _last_name(text: str) -> str | None:
    """``self.interpolate_antialias`` → ``interpolate_antialias``; ``x`` → ``x``; None for
    anything that is not a name or ``self.<name>``."""
    head, dot, tail = text.partition(".")
    if not dot:
        return head if head.isidentifier() else None
    return tail if head == "self" and tail.isidentifier() else None


def _given(values: FileValues) -> Iterable[tuple[str, Expr | None]]:
    """(name, the value it is given; None where unknown) of every default, keyword argument,
    literal dict key and assignment of one file's value records."""
    assigns = [a for d in values.defs for a in d.assigns] + list(values.assigns)
    for d in values.defs:
        for name, default in d.params:
            if name != "self":
                yield name, default
    own = set()
    for a in assigns:
        for name, value in _assigned(a.target, a.value):
            own.add(name)
            yield name, value
    # ``m.x = ...`` or a multi-target ``=`` the records do not keep: the value is not known
    for attr in values.assigned_attrs:
        if attr not in own:
            yield attr, None
    roots = [call.expr for call in values.calls] + [a.value for a in assigns]
    for root in roots:
        for e in root.walk():
            if e.kind == "keyword" and e.name:
                yield e.name, e.target
            elif e.kind == "Dict":
                for key, item in zip(e.keys, e.items, strict=True):
                    if key is not None:
                        yield key, item


def _assigned(target: Expr, value: Expr) -> Iterable[tuple[str, Expr | None]]:
    if target.kind == "Name" or (target.kind == "Attribute" and target.target.text == "self"):
        yield target.name, value
