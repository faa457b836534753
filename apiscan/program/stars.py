"""What ``from <repository module> import *`` binds, across files.

A worker sees one file: ``from .unet_parts import *`` tells it nothing of the names
``unet_parts`` defines, so ``DoubleConv(...)`` below it was an unknown callee: no call fact,
no child module, no part of the model. After the first walk the repository's records say
what each module binds at module level (its classes and functions, the repository names its
imports bind, and what its own star imports bring), so the names a star import binds can be
handed back to the files that star-import it, like the torch re-exports (``pkg.layers.nn`` →
``torch.nn``) already are: ``pkg.parts.DoubleConv`` → ``pkg.parts.DoubleConv``. The walker
binds them as an explicit ``from .parts import DoubleConv`` would.

Python's rules are kept where they decide a name: names starting with ``_`` are not bound;
a module's own definitions win over what it star-imports. ``__all__`` is not read (the
records do not keep it): a name it leaves out is bound anyway, which only matters for code
that would raise ``NameError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from apiscan.extract.records import RETURNS, FileAnalysis

#: Star imports followed through at most this many modules (``from pkg import *`` where
#: ``pkg/__init__.py`` does ``from .parts import *``).
_DEPTH = 4


def star_bindings(analyses: Iterable[FileAnalysis], known: Mapping[str, str]) -> dict[str, str]:
    """``M.name`` → the repository name ``name`` stands for, for every public name a local
    module ``M`` that some file star-imports binds at module level. Keys already in
    ``known`` (re-exports of torch names) are left to it."""
    analyses = list(analyses)
    own: dict[str, dict[str, str]] = {}  # module -> its own public names -> target
    stars: dict[str, list[str]] = {}  # module -> the local modules it star-imports, in order
    wanted: set[str] = set()  # modules some file star-imports
    roots = {m.partition(".")[0] for fa in analyses for m in fa.modules}
    for fa in analyses:
        if not fa.modules:
            continue
        names: dict[str, str] = {}
        for name, target in fa.exports:
            if not name.endswith(RETURNS) and target.partition(".")[0] in roots:
                names[name] = target
        for fn in fa.functions:
            if "." not in fn.qualname:
                names.setdefault(fn.qualname, f"{fa.modules[0]}.{fn.qualname}")
        for fact in fa.classes:
            if "." not in fact.qualname:
                names[fact.qualname] = f"{fa.modules[0]}.{fact.qualname}"
        imported = [ref[:-2] for ref in fa.local_refs if ref.endswith(".*")]
        wanted.update(imported)
        for module in fa.modules:
            own[module] = {n: t for n, t in names.items() if not n.startswith("_")}
            stars[module] = imported

    def bound(module: str, depth: int) -> dict[str, str]:
        out: dict[str, str] = {}
        if depth < _DEPTH:
            for source in stars.get(module, ()):
                if source != module:
                    out.update(bound(source, depth + 1))
        out.update(own.get(module, {}))
        return out

    found: dict[str, str] = {}
    for module in sorted(wanted & set(own)):
        for name, target in sorted(bound(module, 0).items()):
            key = f"{module}.{name}"
            if key not in known:
                found[key] = target
    return found
