"""The call graph behind pricing knows a file by every module name it is imported under: a
script inside a package without ``__init__.py`` (``pkg/train.py``) imports ``model.wrapper``
where the root imports ``pkg.model.wrapper``; a subclass's call of a base method, named by
the short name, must still reach the base's function, so that helpers handed a caller's
varying shapes are priced with that caller."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.effort import callers_of

FILES = {
    "pyproject.toml": """
        [project]
        name = "pkg"
    """,
    "pkg/model/__init__.py": "",
    "pkg/model/base.py": """
        import torch
        from torch import nn


        class Base(nn.Module):
            def encode(self, x):
                return x * 2
    """,
    "pkg/model/wrapper.py": """
        from pkg.model.base import Base


        class Wrapper(Base):
            def forward(self, x):
                return self.encode(x)
    """,
    "pkg/train.py": """
        from model.wrapper import Wrapper

        net = Wrapper()
    """,
    "main.py": """
        from pkg.model.wrapper import Wrapper

        net = Wrapper()
    """,
}


def test_base_method_called_under_a_second_module_name(tmp_path: Path) -> None:
    write_repo(tmp_path, FILES)
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    callers = callers_of(analyses)
    assert callers.get(("pkg/model/base.py", "Base.encode")) == frozenset(
        {("pkg/model/wrapper.py", "Wrapper.forward")}
    )
