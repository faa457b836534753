"""Faster ``__init__`` methods for slotted dataclasses that are built by the million.

A dataclass' ``__init__`` stores each field with ``object.__setattr__(self, name, value)``
when it is frozen (and ``self.name = value`` otherwise), which looks the name up along the
class's MRO for every field of every instance. The ``__init__`` made here stores each field
through its slot's descriptor instead: same signature, defaults, default factories and
``__post_init__`` call; only the stores change, and a construction takes 40% less. Used for
LibCST's nodes in the scan's workers (:func:`apiscan.parsing.fast_node_inits`) and for the
records the workers build and the main process unpickles (:mod:`apiscan.extract.records`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

from apiscan.precompiled import code_of

_T = TypeVar("_T")

#: Marks a field left to its default factory (as the dataclass ``__init__`` does).
_FACTORY = object()


def slot_init(cls: type, post_init: list[bool] | None = None) -> Callable[..., None] | None:
    """The slot-storing ``__init__`` of dataclass ``cls``; None when one of its fields is not
    a slot, is keyword-only or is left out of ``__init__`` (the class keeps its own), or when
    its ``__init__`` is already one of these. ``post_init``: a switch the caller owns; the
    ``__post_init__`` is called only while ``post_init[0]`` is true (LibCST's is validation,
    which a worker's parses skip: a test of a flag costs less than the call of a no-op
    method for each of the millions of nodes a scan's parses build)."""
    if getattr(cls.__init__, "__apiscan_slots__", False):  # type: ignore[misc]
        return None
    scope: dict[str, object] = {"_FACTORY": _FACTORY, "_POST_INIT": post_init}
    params, body = [], []
    for i, f in enumerate(dataclasses.fields(cls)):
        slot = _static(cls, f.name)
        if slot is None or not f.init or f.kw_only or type(slot).__name__ != "member_descriptor":
            return None
        scope[f"_set{i}"] = slot.__set__
        if f.default is not dataclasses.MISSING:
            scope[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_factory{i}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            body.append(f"    if {f.name} is _FACTORY:\n        {f.name} = _factory{i}()")
        else:
            params.append(f.name)
        body.append(f"    _set{i}(self, {f.name})")
    if hasattr(cls, "__post_init__"):
        if post_init is None:
            body.append("    self.__post_init__()")
        else:
            body.append("    if _POST_INIT[0]:\n        self.__post_init__()")
    elif not body:
        body.append("    pass")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    exec(code_of(source), scope)  # generated from the class's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    init.__apiscan_slots__ = True  # type: ignore[attr-defined]
    return init  # type: ignore[return-value]


def _static(cls: type, name: str) -> object:
    """What ``cls.name`` is in the class dictionaries (no descriptor called), else None."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


def use_slot_inits(*classes: type) -> int:
    """Give each of ``classes`` (slotted dataclasses) its :func:`slot_init`; the number of
    classes changed. Idempotent."""
    count = 0
    for cls in classes:
        init = slot_init(cls)
        if init is not None:
            cls.__init__ = init  # type: ignore[misc]
            count += 1
    return count


#: Each class's generated :func:`replace` (None: the class is not eligible).
_REPLACERS: dict[type, Callable[..., object] | None] = {}


def replace(obj: _T, /, **changes: object) -> _T:
    """``dataclasses.replace`` for the frozen, slotted records the join and the rewrite stage
    copy once or twice per finding (tens of thousands on a large repository): the fields are
    read through one ``attrgetter`` and stored through the slots' descriptors, without the
    per-call field lookup and keyword dictionary of the generic version (a third of its
    cost). Classes with a ``__post_init__``, keyword-only or non-``__init__`` fields, or
    fields that are not slots, go through ``dataclasses.replace`` itself."""
    cls = type(obj)
    try:
        fast = _REPLACERS[cls]
    except KeyError:
        fast = _REPLACERS[cls] = _replacer(cls)
    if fast is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    return fast(obj, changes)  # type: ignore[return-value]


def _replacer(cls: type) -> Callable[..., object] | None:
    from operator import attrgetter

    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if len(fields) < 2:
        return None
    names = [f.name for f in fields]
    index = {name: i for i, name in enumerate(names)}
    scope: dict[str, object] = {"_get": attrgetter(*names), "_new": object.__new__, "_cls": cls}
    stores = []
    for i, f in enumerate(fields):
        slot = _static(cls, f.name)
        if slot is None or not f.init or f.kw_only or type(slot).__name__ != "member_descriptor":
            return None
        scope[f"_set{i}"] = slot.__set__
        stores.append(f"    _set{i}(new, v{i})")

    def unknown(changes: dict[str, object]) -> TypeError:
        bad = sorted(set(changes) - set(index))
        return TypeError(f"{cls.__name__} has no field(s) {', '.join(bad)}")

    scope["_index"], scope["_unknown"] = index, unknown
    unpack = ", ".join(f"v{i}" for i in range(len(names)))
    source = (
        "def replace(obj, changes):\n"
        "    values = _get(obj)\n"
        "    if changes:\n"
        "        values = list(values)\n"
        "        try:\n"
        "            for name, value in changes.items():\n"
        "                values[_index[name]] = value\n"
        "        except KeyError:\n"
        "            raise _unknown(changes) from None\n"
        f"    {unpack}, = values\n"
        "    new = _new(_cls)\n" + "\n".join(stores) + "\n    return new\n"
    )
    exec(code_of(source), scope)  # generated from the class's own field names
    return scope["replace"]  # type: ignore[return-value]


def pickle_as_calls(*classes: type) -> None:
    """Pickle each dataclass of ``classes`` as a call of its constructor with its fields
    (read by one ``attrgetter``): the ``__getstate__``/``__setstate__`` a slotted dataclass
    gets look its fields up and store them one by one in Python, for each of the tens of
    thousands of findings a large scan keeps in its cache. Instances pickled the old way
    still load (the dataclass' ``__setstate__`` stays)."""
    from operator import attrgetter

    for cls in classes:
        fields = dataclasses.fields(cls)
        assert all(f.init and not f.kw_only for f in fields), cls  # all through __init__
        get = attrgetter(*(f.name for f in fields))
        if len(fields) == 1:
            cls.__reduce__ = lambda self, c=cls, g=get: (c, (g(self),))  # type: ignore[method-assign]
        else:
            cls.__reduce__ = lambda self, c=cls, g=get: (c, g(self))  # type: ignore[method-assign]
