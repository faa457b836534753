"""The walk's attributes are slots of ``Extractor`` (see its ``__slots__``): an attribute a
handler stores that the list lacks would fail every file's walk with an internal error."""

from __future__ import annotations

import ast
from pathlib import Path

import apiscan.extract.interp as interp
from apiscan.extract import FileTask, analyse
from apiscan.extract.api_uses import Extractor


def _stored_on_self() -> set[str]:
    files = [Path(interp.__file__).parent.parent / "api_uses.py"]
    files += sorted(Path(interp.__file__).parent.glob("*.py"))
    names: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store | ast.Del)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                names.add(node.attr)
    return names


def test_every_attribute_the_walk_stores_is_a_slot() -> None:
    assert _stored_on_self() <= set(Extractor.__slots__)


def test_walk_instances_have_no_dictionary() -> None:
    """Every class of the walk declares slots, so an instance has no ``__dict__``: a
    mixin without ``__slots__ = ()`` would give it one back (and its slower reads)."""
    assert all("__slots__" in vars(cls) for cls in Extractor.__mro__ if cls is not object)
    source = b"import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
    source += b"        return torch.nonzero(x)\n"
    result = analyse(FileTask("m.py", ("m",), False, source, (), True, (), False), frozenset())
    assert not result.errors
    assert [u.api for u in result.uses] == ["torch.nn.Module", "torch.nonzero"]
