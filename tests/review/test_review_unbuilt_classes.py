"""Classes the run never builds are no network rows and no work (issue 20).

A package's ``__init__.py`` re-exporting a class (``from .backbones import Big, Small,
Unused``, or listing it in ``__all__``) does not use it: where the repository trains, what
the training builds is what is ported (ByteTrack's yolov3-only ``Darknet``, re-exported by
``yolox/models/__init__.py``). A class in a module nothing imports by name (an architecture
file a registry's folder scan imports) that nothing constructs is dead too (HAT's
``PatchMerging``), and so is what only dead classes build; one a call names by its last
name through an import no file answers stays. Where nothing trains, a package's
re-exports are its product and stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review

BACKBONES = """
    import torch
    import torch.nn as nn


    class Small(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)

        def forward(self, x):
            return self.conv(x)


    class Big(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 64, 3)
            self.bn = nn.BatchNorm2d(64)

        def forward(self, x):
            return torch.flip(self.bn(self.conv(x)), dims=(1,))


    class Unused(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            return torch.roll(self.lin(x), 1)


    class Listed(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            return torch.roll(self.lin(x), 2)
"""

FILES = {
    "pkg/__init__.py": "",
    "pkg/models/__init__.py": """
        from .backbones import Big, Listed, Small, Unused
        from .big_neck import BigNeck
        from .net import Net

        __all__ = ["Big", "BigNeck", "Listed", "Net", "Small", "Unused"]
    """,
    "pkg/models/backbones.py": BACKBONES,
    # the neck only an unused experiment would build: re-exported, built by nothing
    "pkg/models/big_neck.py": """
        import torch.nn as nn

        from .backbones import Big


        class BigNeck(nn.Module):
            def __init__(self):
                super().__init__()
                self.backbone = Big()
                self.fc = nn.Linear(64, 10)

            def forward(self, x):
                return self.fc(self.backbone(x).mean((2, 3)))
    """,
    "pkg/models/net.py": """
        import torch.nn as nn

        from .backbones import Small


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.backbone = Small()
                self.fc = nn.Linear(8, 10)

            def forward(self, x):
                return self.fc(self.backbone(x).mean((2, 3)))
    """,
    # an architecture file imported by a folder scan, never by name
    "pkg/archs/__init__.py": """
        import importlib
        import os

        for name in sorted(os.listdir(os.path.dirname(__file__))):
            if name.endswith("_arch.py"):
                importlib.import_module(f"pkg.archs.{name[:-3]}")
    """,
    "pkg/archs/head_arch.py": """
        import torch
        import torch.nn as nn


        class Head(nn.Module):
            def __init__(self, dim=8):
                super().__init__()
                self.fc = nn.Linear(dim, dim)

            def forward(self, x):
                return self.fc(x)


        class PatchMerging(nn.Module):
            def __init__(self, dim=8):
                super().__init__()
                self.norm = nn.LayerNorm(4 * dim)
                self.reduction = nn.Linear(4 * dim, 2 * dim)

            def forward(self, x):
                return self.reduction(self.norm(torch.cat([x, x, x, x], -1)))
    """,
    # imported by a spelling that resolves to no file (a script run from another folder)
    "pkg/archs/scale_arch.py": """
        import torch.nn as nn


        class Scaler(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(10, 10)

            def forward(self, x):
                return self.fc(x) * 2
    """,
    "train.py": """
        import torch

        import legacy.scale_arch as S
        import pkg.archs
        from pkg.models import Net


        def main():
            model = Net()
            head = HEADS["Head"]()
            scale = S.Scaler()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for x, y in [(torch.randn(2, 3, 8, 8), torch.zeros(2, dtype=torch.long))]:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        HEADS = {"Head": None}

        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    return build_review(str(write_repo(tmp_path_factory.mktemp("unbuilt"), FILES)), jobs=1)


def _rows(review: Review) -> set[str]:
    return {m.cls.rpartition(".")[2] for m in review.modules}


def test_a_re_exported_class_nothing_builds_is_no_row(review: Review) -> None:
    rows = _rows(review)
    assert {"Net", "Small"} <= rows
    # re-exported (and listed in ``__all__``), built by nothing the training runs
    assert not rows & {"Unused", "Listed", "BigNeck", "Big"}
    text = render_markdown(review).partition("## Network structure")[2]
    assert "**BigNeck**" not in text and "`pkg.models.backbones.Big`" not in text


def test_a_class_nothing_constructs_in_a_scanned_folder_is_no_row(review: Review) -> None:
    assert "PatchMerging" not in _rows(review)
    # the file's class a string names (a table's key) may be built: kept; so is one a
    # call names by its last name through an import no file answers
    assert {"Head", "Scaler"} <= _rows(review)


def test_their_call_sites_are_not_priced(review: Review) -> None:
    places = {(w.path, w.line) for g in review.gaps for w in g.where}
    apis = {g.api for g in review.gaps}
    assert "torch.roll" not in apis and "torch.flip" not in apis
    assert not any(path == "pkg/archs/head_arch.py" and line > 12 for path, line in places)
    said = next(s for s in review.effort.explanation if s.startswith("Not reached"))
    for name in ("backbones.py:Unused", "big_neck.py:BigNeck", "backbones.py:Big,", "PatchMerging"):
        assert name in said


def test_where_nothing_trains_the_package_s_names_stay(tmp_path: Path) -> None:
    files = {k: v for k, v in FILES.items() if k != "train.py"}
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert {"Unused", "Listed", "BigNeck", "Big"} <= _rows(review)
