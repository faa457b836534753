"""The Extractor is composed of one mixin per concern (apiscan.extract.interp): guard the
composition, since a method defined in two parts would silently shadow one by MRO order."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import apiscan.extract.interp as interp
from apiscan.extract import api_uses
from apiscan.extract.api_uses import Extractor

PARTS = sorted(p.stem for p in Path(interp.__file__).parent.glob("*.py") if p.stem != "__init__")


def _own_methods(cls: type) -> set[str]:
    return {n for n, v in vars(cls).items() if inspect.isfunction(v) or isinstance(v, staticmethod)}


def test_every_part_is_a_base_of_the_extractor() -> None:
    mixins = {
        cls
        for name in PARTS
        for cls in vars(importlib.import_module(f"apiscan.extract.interp.{name}")).values()
        if isinstance(cls, type) and cls.__name__.endswith("Mixin")
    }
    assert len(mixins) == len(PARTS) - 1  # base.py holds shared records, no mixin
    assert mixins == set(Extractor.__bases__)


def test_no_method_is_defined_in_two_parts() -> None:
    seen: dict[str, str] = {}
    for cls in Extractor.__mro__[:-1]:  # object excluded
        for name in _own_methods(cls):
            assert name not in seen, f"{name} in both {seen[name]} and {cls.__name__}"
            seen[name] = cls.__name__
    # the dispatch tables reach a method of every part
    assert {"_name", "_call", "_subscript", "_assign", "_funcdef"} <= set(seen)


def test_parts_never_import_the_extractor_module() -> None:
    """api_uses imports the parts: a part importing it back would be a cycle."""
    for name in PARTS:
        tree = ast.parse(Path(interp.__file__).with_name(f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "apiscan.extract.api_uses", name
                if node.module and node.module.startswith("apiscan.extract.interp."):
                    assert node.module == "apiscan.extract.interp.base", (name, node.module)


def test_api_uses_still_exports_its_names() -> None:
    for name in ("Emit", "Ref", "NODE_KINDS", "NAME", "ATTR", "CALL", "SUB", "BINOP"):
        assert hasattr(api_uses, name)
    assert "FSTRING_OFFSET" in api_uses.__all__
    for name in api_uses.__all__:
        assert getattr(api_uses, name) is not None
