"""The walker's cheap value tuples ↔ the typed facts that cross function boundaries.

Inside a file the extractor keeps ``("tensor", "dyn")``-style tuples (:mod:`apiscan.resolve.values`,
:mod:`apiscan.extract.shapes`); what it hands to the solver, and what the solver hands back for
the next walk, are :mod:`apiscan.program.values` records. ``to_val`` always builds a *new*
tuple, equal to the shared constants but not identical to them, so the walker can tell by
identity that a value is the very one the solver supplied (and name where it came from).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from apiscan.program import values as pv
from apiscan.resolve.values import Val


def fresh(kind: str, payload: Any) -> Val:
    """A new tuple object (equal to, never identical with, a shared constant)."""
    return (kind, payload)


def to_fact(
    v: Val,
    param_of: Callable[[Val], str | None],
    site_of: Callable[[Any], pv.Site | None],
    depth: int = 0,
    supplied: Callable[[Val], pv.Fact | None] = lambda _v: None,
    batch_sample: Callable[[Val], bool] = lambda _v: False,
    element_of: Callable[[Val], str | None] | None = None,
    sample_tensor: Callable[[Val], bool] = lambda _v: False,
    varying_of: Callable[[Val], int | None] = lambda _v: None,
    code_valued: Callable[[Val], bool] = lambda _v: False,
) -> pv.Fact:
    """The fact for walker value ``v``; ``param_of`` names the enclosing function's parameter
    that ``v`` is (identity), ``site_of`` locates a host sync's node, ``supplied`` gives back
    the solver's fact a value was made from (identity), with the chain that brought it;
    ``batch_sample`` says whether a sequence's element is one sample of a batch known as
    such (identity), which makes the sequence a list of samples (``pv.Seq.samples``);
    ``element_of`` names the parameter ``v`` is an element of (a generator's pass-through);
    ``sample_tensor`` says whether a tensor is one sample's own (``pv.Tensor.sample``);
    ``varying_of`` the one dimension known to vary of a dynamic tensor (``pv.Tensor.varying``);
    ``code_valued`` says whether a tensor holds values the code decided (``pv.Tensor.code``)."""
    name = param_of(v)
    if name is not None:
        return pv.Param(name)
    name = element_of(v) if element_of is not None else None
    if name is not None:
        return pv.Param(name, element=True)
    if depth > pv.MAX_DEPTH:
        return pv.UNKNOWN
    known = supplied(v)
    if known is not None:
        return known
    kind, payload = v[0], v[1]
    if kind == "tensor":
        if payload == "dyn":
            return pv.Tensor(dynamic=True, varying=varying_of(v))
        if payload == "bool":
            return pv.Tensor(boolean=True)
        if payload == "arg":
            return pv.Tensor(arg=True)
        return pv.Tensor(certain=bool(payload), sample=sample_tensor(v), code=code_valued(v))

    def nested(inner: Val, element: Callable[[Val], str | None] | None = None) -> pv.Fact:
        """The fact of a value ``v`` holds (an element, a field), one level deeper and read
        the same way (never as one sample's own tensor)."""
        return to_fact(
            inner, param_of, site_of, depth + 1, supplied, batch_sample, element,
            varying_of=varying_of,
        )  # fmt: skip

    if kind == "nontorch":
        if isinstance(payload, tuple) and payload[:1] == ("dyn",):
            origin = payload[1]
            if isinstance(origin, pv.HostNumber):
                return origin
            return pv.HostNumber(site_of(origin) if origin is not None else None)
        if isinstance(payload, tuple) and payload[:1] == ("host",):
            # host data whose length was decided by data (``shapes.host_dyn``), with the
            # elements of a sequence of such arrays when it is one
            origin = payload[1]
            elem = payload[2] if len(payload) > 2 else None
            tensor = bool(payload[3]) if len(payload) > 3 else False
            inner = nested(elem) if elem else None
            if isinstance(origin, pv.HostData):
                return replace(origin, elem=inner, tensor=tensor)
            site = site_of(origin) if origin is not None else None
            return pv.HostData(sized=True, site=site, elem=inner, tensor=tensor)
        if payload == "hostdata":
            return pv.HostData()
        if payload == "rand":
            return pv.RandomNumber()
        return pv.Static(array=True) if payload == "array" else pv.STATIC
    if kind == "inst":
        return pv.Instance(str(payload))
    if kind == "seq":
        inner = nested(payload, element_of)
        return pv.Seq(inner, batch_sample(payload) and isinstance(inner, pv.Tensor))
    if kind == "tuple":
        return pv.Tup(tuple(nested(e) for e in payload))
    if kind == "dict":
        # ``{"images": ..., "mask_indices": ...}``: a batch field by field (see pv.dict_of)
        # a key the code computes (None) crosses as the field of every other key
        return pv.dict_of([(pv.OTHER_KEYS if k is None else k, nested(e)) for k, e in payload])
    return pv.UNKNOWN


def to_val(f: pv.Fact) -> Val:
    """The walker value for fact ``f`` (a new tuple object, see the module docstring)."""
    if isinstance(f, pv.Tensor):
        if f.dynamic:
            return fresh("tensor", "dyn")
        if f.boolean:
            return fresh("tensor", "bool")
        if f.arg:
            return fresh("tensor", "arg")
        return fresh("tensor", f.certain)
    if isinstance(f, pv.HostNumber):
        # the origin is the fact itself: the sync happened elsewhere, so it is named in
        # words rather than reported again here
        return fresh("nontorch", ("dyn", f))
    if isinstance(f, pv.RandomNumber):
        return fresh("nontorch", "rand")
    if isinstance(f, pv.HostData):
        if not f.sized:
            return fresh("nontorch", "hostdata")
        # the origin is the fact itself (its site names the host call, as for host numbers)
        if f.elem is None and not f.tensor:
            return fresh("nontorch", ("host", f))
        elem = to_val(f.elem) if f.elem is not None else None
        return fresh("nontorch", ("host", f, elem, f.tensor))
    if isinstance(f, pv.Static):
        return fresh("nontorch", "array" if f.array else None)
    if isinstance(f, pv.Instance):
        return fresh("inst", f.cls)
    if isinstance(f, pv.Seq):
        return fresh("seq", to_val(f.elem))
    if isinstance(f, pv.Dict):
        return fresh(
            "dict", tuple((None if k == pv.OTHER_KEYS else k, to_val(v)) for k, v in f.fields)
        )
    if isinstance(f, pv.Tup):
        return fresh("tuple", tuple(to_val(e) for e in f.elems))
    return fresh("unknown", None)
