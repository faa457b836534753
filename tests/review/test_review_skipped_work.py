"""Work items drop their places inside ``if`` branches the run's values skip (issue 20
item 2): an unsupported parameter passed only under an option the defaults leave off is no
gap of the port; switched on by the default, it is."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

NET = """
    import torch.nn as nn

    def activation(name="silu"):
        if name == "silu":
            return nn.SiLU()
        elif name == "lrelu":
            return nn.LeakyReLU(0.1, inplace=True)
        return nn.ReLU()

    class Net(nn.Module):
        def __init__(self, act="silu"):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)
            self.act = activation(act)

        def forward(self, x):
            return self.act(self.conv(x))
"""

CONFIG = """
    from yacs.config import CfgNode as CN

    _C = CN()
    _C.MODEL = CN()
    _C.MODEL.ACT = "{act}"

    def get_cfg():
        return _C.clone()
"""

TRAIN = """
    import torch
    from config import get_cfg
    from net import Net

    def main():
        cfg = get_cfg()
        model = Net(act=cfg.MODEL.ACT)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        model(torch.zeros(1, 3, 8, 8)).sum().backward()
        opt.step()

    if __name__ == "__main__":
        main()
"""


def _inplace_items(root: Path, act: str) -> list[str]:
    review = build_review(
        str(
            write_repo(
                root, {"net.py": NET, "config.py": CONFIG.replace("{act}", act), "train.py": TRAIN}
            )
        )
    )
    return [i.what for i in review.work if "inplace" in i.what]


def test_a_gap_in_a_skipped_branch_is_no_work(tmp_path: Path) -> None:
    # VALID: the config's MODEL.ACT is silu: the LeakyReLU(inplace=True) branch never runs
    assert _inplace_items(tmp_path / "silu", "silu") == []
    # INVALID to drop: the default picks lrelu, the parameter is passed
    assert _inplace_items(tmp_path / "lrelu", "lrelu")
