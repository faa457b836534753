"""A training script's resume load under ``if args.ckpt is not None:`` (``--ckpt``
defaulting to None) is a resume the defaults leave off, though a tool script beside it
declares its own ``--ckpt`` defaulting to a released checkpoint: a script's own option
decides its branches, not another script's option of the same name."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net.py": """
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 1)

            def forward(self, x):
                return self.fc(x)
    """,
    "train.py": """
        import argparse

        import torch

        from net import Net

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--ckpt", type=str, default=None)
            parser.add_argument("--iter", type=int, default=100)
            args = parser.parse_args()
            net = Net()
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            if args.ckpt is not None:
                ckpt = torch.load(args.ckpt, map_location="cpu")
                net.load_state_dict(ckpt["net"])
            for _ in range(args.iter):
                loss = net(torch.randn(8, 4)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            torch.save({"net": net.state_dict()}, "last.pt")
    """,
    "generate.py": """
        import argparse

        import torch

        from net import Net

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--ckpt", type=str, default="released.pt")
            args = parser.parse_args()
            net = Net()
            net.load_state_dict(torch.load(args.ckpt)["net"])
            print(net(torch.randn(1, 4)))
    """,
}


def test_a_resume_load_is_told_by_the_training_script_s_own_default(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [r for r in review.recipe if r.category == "checkpoint"]
    assert rows and rows[0].where.path == "train.py"
    assert "only if args.ckpt is not None, off by default" in rows[0].note
