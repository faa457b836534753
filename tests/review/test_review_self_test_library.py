"""A library module with its own ``__main__`` self-test (ZoeDepth's loss module building one
loss to print it) is still a library: its classes nothing else builds are dead code, the one
its self-test builds included, while the loss the training builds stays used."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import uncalled_functions

FILES = {
    "trainers/__init__.py": "",
    "trainers/losses.py": """
        import torch
        from torch import nn

        class SILogLoss(nn.Module):
            def forward(self, pred, target):
                g = torch.log(pred) - torch.log(target)
                return torch.sqrt(g.var() + 0.15 * g.mean() ** 2)

        def scale_and_shift(pred, target, mask):
            return (pred[mask] * target[mask]).sum()

        class ScaleShiftLoss(nn.Module):
            def forward(self, pred, target, mask):
                return scale_and_shift(pred, target, mask)

        class BinsLoss(nn.Module):
            def forward(self, pred, target):
                return (pred - target).abs().mean()

        if __name__ == "__main__":
            loss = BinsLoss()
            print(loss(torch.rand(4, 8), torch.rand(4, 8)))
    """,
    "train.py": """
        import torch
        from trainers.losses import SILogLoss

        def main():
            model = torch.nn.Conv2d(3, 1, 1)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
            criterion = SILogLoss()
            x = torch.rand(2, 3, 8, 8)
            loss = criterion(model(x).exp(), x[:, :1].exp())
            loss.backward()
            opt.step()

        if __name__ == "__main__":
            main()
    """,
}


def test_a_library_s_self_test_keeps_nothing_alive(tmp_path: Path) -> None:
    _, analyses = scan_with_facts(ScanOptions(str(write_repo(tmp_path, FILES)), cache_dir=None))
    dead = {name for path, name in uncalled_functions(analyses) if path == "trainers/losses.py"}
    assert {"ScaleShiftLoss", "BinsLoss"} <= dead
    assert "SILogLoss" not in dead
