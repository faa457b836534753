"""Whole-program facts: what the solver supplied, and what the walk tells it back.

The walk of one file is re-run with the facts the whole-program solver
(:mod:`apiscan.program.solver`) found across files: what a parameter receives
(``p:<function>:<param>``), what a function returns (``r:<callee>``) and what a class's
attribute holds (``a:<class>:<attr>``). This part turns those facts into walker values and
remembers, by identity, where each came from, so that a finding can explain its chain and a
value passed on keeps it. In the other direction it notes which parameters a value came from
and which parameters would change a dynamic-shape finding if the solver proved them tensors
(the file is then walked again). Nothing here reports a use or binds a name.
"""

from __future__ import annotations

from collections.abc import Callable

from apiscan.extract.facts import fresh, to_val
from apiscan.extract.shapes import Why
from apiscan.program import values as pv
from apiscan.resolve.values import UNKNOWN, Val


class SolverFactsMixin:
    """Solver facts in (``env``) and parameter sources out; mixed into ``Extractor``."""

    def _explain(self, v: Val) -> Why:
        """Where a value the solver supplied came from, in words and as located steps
        (("", ()) for values found here)."""
        entry = self.explained.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else ("", ())

    def _supplied(self, f: pv.Fact, words: Callable[[pv.Fact], str]) -> Val:
        """The walker value for solver fact ``f``, remembered with its explanation (and the
        explanations of its tuple elements, which unpacking binds to names)."""
        v = to_val(f)
        text = words(f)
        if text:
            self.explained[id(v)] = (v, (text, pv.steps(f)))
            self.supplied[id(v)] = (v, f)
        if v[0] == "tuple" and isinstance(f, pv.Tup):
            for ev, ef in zip(v[1], f.elems, strict=True):
                t = words(ef)
                if t:
                    self.explained[id(ev)] = (ev, (t, pv.steps(ef)))
                    self.supplied[id(ev)] = (ev, ef)
        return v

    def supplied_fact(self, v: Val) -> pv.Fact | None:
        """The solver fact ``v`` was made from, when it carries a chain (identity)."""
        entry = self.supplied.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else None

    def _returned(self, key: str, local: Val | None) -> Val:
        """What a call of repo function ``key`` returns: what this walk found (a function of
        this file walked before the call, with the same facts), else the solver's fact."""
        f = self.env.get("r:" + key)
        if f is None or (local is not None and local[0] != "unknown"):
            return local if local is not None else UNKNOWN
        name = key.rpartition(".")[2]

        def words(x: pv.Fact) -> str:
            d = pv.describe(x)
            return f"the value returned by `{name}` {d}" if d else ""

        return self._supplied(f, words)

    def _attr_fact(self, cls: str, attr: str, local: Val | None) -> Val | None:
        """``self.attr`` as written by any method of the class (the solver's join)."""
        f = self.env.get(f"a:{cls}:{attr}")
        if f is None or (local is not None and local[0] != "unknown" and not pv.is_dynamic(f)):
            return local

        def words(x: pv.Fact) -> str:
            d = pv.describe(x)
            return f"`self.{attr}` {d}" if d else ""

        return self._supplied(f, words)

    def _param_source(self, v: Val) -> tuple[str, str] | None:
        """(function, parameter) when ``v`` is a parameter as bound, or a probable tensor
        computed from one by tensor methods (``x.view(...).permute(...)`` on a parameter
        ``x``): the solver may prove the parameter a tensor, and with it these owners."""
        entry = self.param_ids.get(id(v))
        if entry is not None and entry[2] is v:
            return entry[0], entry[1]
        derived = self.derived.get(id(v))
        if derived is not None and derived[0] is v:
            return derived[1]
        return None

    def _derive(self, result: Val, source: tuple[str, str] | None) -> Val:
        """``result`` marked as computed from parameter ``source`` (when it is a tensor)."""
        if source is None or result[0] != "tensor" or result[1] == "dyn":
            return result
        result = fresh(result[0], result[1])
        self.derived[id(result)] = (result, source)
        return result

    def _sensitive(self, v: Val) -> None:
        """A parameter in a place where being a tensor would make a dynamic-shape finding
        (``x[:n]`` with ``n`` read from data and ``x`` a parameter of unknown type): the file
        is walked again if the solver finds that the parameter is a tensor."""
        source = self._param_source(v)
        if source is not None and not self.silent:
            self.sensitive.add(f"p:{self.module_name}.{source[0]}:{source[1]}")
