"""What a per-file worker returns: plain, picklable facts (never CST nodes).

These records cross process boundaries and live in the on-disk cache, so they hold only strings,
numbers and tuples. Cross-file questions (re-exports through the repo's own modules, classes whose
bases live in another file) are answered after the join from ``exports`` and ``classes``.
"""

from __future__ import annotations

from dataclasses import dataclass

from apiscan.model import ApiUse, FileError

#: Suffix of the export keys that say what a module-level function returns
#: (``("build_model()", "inst:tinydet.model.Detector")``).
RETURNS = "()"


@dataclass(frozen=True, slots=True)
class ClassFact:
    """A class defined in the file: enough to decide later whether it is an ``nn.Module``."""

    qualname: str  # module-relative, e.g. "Backbone" or "Outer.Inner"
    bases: tuple[str, ...]  # qualified names: "torch.nn.Module", "tinydet.layers.Conv", "" unknown
    methods: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PendingMember:
    """``recv.attr`` where ``recv`` is an instance of a class defined in another file.

    Whether ``attr`` is a torch API (``torch.nn.Module.parameters``) or a user method depends on
    that class's bases, which only the join knows. ``fallback`` is the name-based guess to use if
    the class cannot be resolved at all (``""`` for none).
    """

    cls: str
    attr: str
    use: ApiUse  # api is empty until resolved
    fallback: str = ""


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    path: str
    modules: tuple[str, ...]
    sha256: str
    lines: int
    uses: tuple[ApiUse, ...] = ()
    pending: tuple[PendingMember, ...] = ()
    exports: tuple[tuple[str, str], ...] = ()  # module-level name -> qualified name it is bound to
    classes: tuple[ClassFact, ...] = ()
    local_refs: tuple[str, ...] = ()  # repo-local qualified names the file looked up
    errors: tuple[FileError, ...] = ()
    position_fallback: bool = False  # positions came from LibCST's PositionProvider (slow path)
