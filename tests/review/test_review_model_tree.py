"""The model tree on repository shapes the review met late: classes reached through star
imports, builders picked from a dict at run time, and a library module's ``__main__``
self-test, each on a tiny repository written for the case."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review

_BLOCKS = """
    import torch.nn as nn

    class ConvPair(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, cout, 3), nn.ReLU())

        def forward(self, x):
            return self.body(x)

    class Shrink(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.step = nn.Sequential(nn.MaxPool2d(2), ConvPair(cin, cout))

        def forward(self, x):
            return self.step(x)

    def _private():
        return None
"""


def _parts(review: object, cls: str) -> dict[str, str]:
    top = next(m for m in review.top_models if m.cls == cls)  # type: ignore[attr-defined]
    return dict(top.parts)


def test_classes_reached_through_a_relative_star_import_are_parts(tmp_path: Path) -> None:
    """``from .blocks import *`` binds every public class of blocks.py: the constructor's
    ``ConvPair(...)`` is a call of ``seg.blocks.ConvPair`` (the scan's call facts), the
    model's children and parts, and the model is the top model the training script builds."""
    write_repo(
        tmp_path,
        {
            "seg/__init__.py": "",
            "seg/blocks.py": _BLOCKS,
            "seg/net.py": """
                import torch.nn as nn
                from .blocks import *

                class SegNet(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.stem = ConvPair(3, 8)
                        self.down = Shrink(8, 16)
                        self.out = nn.Conv2d(16, 2, 1)

                    def forward(self, x):
                        return self.out(self.down(self.stem(x)))
            """,
            "train.py": """
                import torch
                from seg.net import SegNet

                def main():
                    model = SegNet()
                    opt = torch.optim.SGD(model.parameters(), lr=0.1)
                    opt.step()

                if __name__ == "__main__":
                    main()
            """,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    net = next(fa for fa in analyses if fa.path == "seg/net.py")
    called = {c.callee for c in net.calls if c.caller == "SegNet.__init__"}
    assert {"seg.blocks.ConvPair", "seg.blocks.Shrink"} <= called
    assert not any("_private" in name for name, _ in net.exports)  # not bound by `import *`

    review = build_review(str(tmp_path), jobs=1)
    nodes = {m.cls: m for m in review.modules}
    assert nodes["seg.net.SegNet"].children == ("seg.blocks.ConvPair", "seg.blocks.Shrink")
    assert nodes["seg.net.SegNet"].role == "model"
    assert _parts(review, "seg.net.SegNet") == {"stem": "ConvPair", "down": "Shrink"}


def test_star_imports_chain_through_a_package_and_a_namespace_directory(tmp_path: Path) -> None:
    """A script star-imports a module that star-imports the blocks (``from lib.common import
    *``, common.py: ``from lib.blocks import *``), in directories without ``__init__.py``
    whose files import each other relatively (``from .blocks import *`` is resolved from the
    root-relative name ``lib.net``, the only one under which a relative import runs)."""
    write_repo(
        tmp_path,
        {
            "lib/blocks.py": _BLOCKS,
            "lib/net.py": """
                import torch.nn as nn
                from .blocks import *

                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.stem = ConvPair(3, 8)
                        self.down = Shrink(8, 16)

                    def forward(self, x):
                        return self.down(self.stem(x))
            """,
            "lib/common.py": """
                from lib.net import Net
                from lib.blocks import *
            """,
            "experiments/small.py": """
                import torch
                from lib.common import *

                def init_model():
                    model = Net()
                    return model

                def main():
                    model = init_model()
                    torch.optim.SGD(model.parameters(), lr=0.1).step()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    nodes = {m.cls: m for m in review.modules}
    net = next(cls for cls in nodes if cls.endswith(".Net"))
    assert {c.rpartition(".")[2] for c in nodes[net].children} == {"ConvPair", "Shrink"}
    top = review.top_models[0]
    assert top.cls == net
    assert top.builder == "init_model"
    assert dict(top.parts) == {"stem": "ConvPair", "down": "Shrink"}
