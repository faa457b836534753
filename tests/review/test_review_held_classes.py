"""Calls through a name holding a class are its constructor's call sites (issue 20 item 1):
``block(...)`` where ``block`` is a parameter the class was passed to (a ResNet's
``_make_layer(block, ...)``), and ``Conv(...)`` after ``Conv = DWConv if depthwise else
BaseConv``. The arguments they pass decide the class's branches: an initialisation under a
flag the run leaves off is no recipe row, one it switches on is."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

NET = """
    import torch.nn as nn

    class Block(nn.Module):
        def __init__(self, cin, cout, zero_init=False):
            super().__init__()
            self.conv = nn.Conv2d(cin, cout, 3)
            self.bn = nn.BatchNorm2d(cout)
            if zero_init:
                nn.init.zeros_(self.bn.weight)

        def forward(self, x):
            return self.bn(self.conv(x))

    class Net(nn.Module):
        def __init__(self, block, layers, zero_init=False):
            super().__init__()
            self.zero_init = zero_init
            self.layer1 = self._make_layer(block, 8, layers[0])

        def _make_layer(self, block, planes, blocks):
            layers = [block(3, planes, zero_init=self.zero_init)]
            return nn.Sequential(*layers)

        def forward(self, x):
            return self.layer1(x)
"""

TRAIN = """
    import torch
    from net import Net, Block

    def main():
        model = Net(Block, [2]{extra})
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(torch.zeros(1, 3, 8, 8)).sum()
        loss.backward()
        opt.step()

    if __name__ == "__main__":
        main()
"""


def _inits(tmp_path: Path, extra: str) -> list[str]:
    root = write_repo(tmp_path, {"net.py": NET, "train.py": TRAIN.replace("{extra}", extra)})
    return [r.name for r in build_review(str(root)).recipe if r.category == "init"]


def test_a_class_parameter_call_passes_the_run_s_flag(tmp_path: Path) -> None:
    # VALID: Net(Block, [2]) leaves zero_init False, passed on by block(...): no zeros_ row
    assert "torch.nn.init.zeros_" not in _inits(tmp_path / "off", "")
    # INVALID to drop: switched on, the initialisation runs
    assert "torch.nn.init.zeros_" in _inits(tmp_path / "on", ", zero_init=True")


ALIAS = {
    "blocks.py": """
        import torch.nn as nn

        class BaseConv(nn.Module):
            def __init__(self, cin, cout, act="silu"):
                super().__init__()
                self.conv = nn.Conv2d(cin, cout, 3)
                if act == "lrelu":
                    nn.init.zeros_(self.conv.bias)

            def forward(self, x):
                return self.conv(x)

        class DWConv(nn.Module):
            def __init__(self, cin, cout, act="silu"):
                super().__init__()
                self.conv = nn.Conv2d(cin, cout, 3, groups=cin)

            def forward(self, x):
                return self.conv(x)

        class Head(nn.Module):
            def __init__(self, depthwise=False):
                super().__init__()
                Conv = DWConv if depthwise else BaseConv
                self.stem = Conv(3, 8, act="lrelu")

            def forward(self, x):
                return self.stem(x)
    """,
    "train.py": """
        import torch
        from blocks import Head

        def main():
            model = Head()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model(torch.zeros(1, 3, 8, 8)).sum().backward()
            opt.step()

        if __name__ == "__main__":
            main()
    """,
}


def test_a_local_alias_of_a_class_is_its_call_site(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, ALIAS)))
    # VALID: Conv(3, 8, act="lrelu") builds BaseConv with act "lrelu" (not its default):
    # the initialisation under that branch runs
    assert "torch.nn.init.zeros_" in [r.name for r in review.recipe if r.category == "init"]


SPREAD = """
    import torch
    from net import Net, Block

    def main(final_drop=0.0):
        model_kwargs = {{}}
        if final_drop > 0.0:
            model_kwargs["final_drop"] = final_drop
        {more}
        model = Net(Block, [2], **model_kwargs)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(torch.zeros(1, 3, 8, 8)).sum()
        loss.backward()
        opt.step()

    if __name__ == "__main__":
        main()
"""


def _spread_inits(root: Path, more: str) -> list[str]:
    files = {"net.py": NET, "train.py": SPREAD.format(more=more)}
    return [
        r.name for r in build_review(str(write_repo(root, files))).recipe if r.category == "init"
    ]


def test_a_spread_local_dict_passes_only_its_keys(tmp_path: Path) -> None:
    # VALID: model_kwargs holds final_drop at most: zero_init keeps its default, False
    assert "torch.nn.init.zeros_" not in _spread_inits(tmp_path / "lacks", "pass")
    # INVALID to drop: the dict sets zero_init
    assert "torch.nn.init.zeros_" in _spread_inits(
        tmp_path / "sets", 'model_kwargs["zero_init"] = True'
    )
