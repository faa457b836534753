"""The constants a loss or transform class keeps for itself are those of what runs (issue
20 item 1): a fractional constant in a call under an ``if`` the options' defaults do not
take (a focal ID loss's ``alpha=0.25`` under ``if self.opt.id_loss == 'focal':`` with
``--id_loss ce``) is no setting of the run, and a rotation axis ``np.array([1.0, 0.0,
0.0])`` in a transform's ``__call__`` is a basis vector, not a setting."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "losses.py": """
        import torch
        import torch.nn.functional as F
        class JointLoss(torch.nn.Module):
            def __init__(self, opt):
                super().__init__()
                self.opt = opt
                self.ce = torch.nn.CrossEntropyLoss(ignore_index=-1)
            def forward(self, out, target):
                if self.opt.id_loss == 'focal':
                    loss = torch.sigmoid(out).clamp(0.25, 0.75).sum()
                else:
                    loss = self.ce(out, target)
                return F.smooth_l1_loss(out, out.detach(), beta=0.11) + loss
    """,
    "transforms.py": """
        import numpy as np
        import torch
        class Rotate(object):
            def __init__(self, sigma=0.06):
                self.sigma = sigma
            def __call__(self, points):
                axis = np.array([1.0, 0.0, 0.0])
                turn = torch.from_numpy(np.outer(axis, axis) * np.random.randn() * self.sigma)
                return points @ turn.float()
    """,
    "train.py": """
        import argparse
        import torch
        from torchvision import transforms
        from losses import JointLoss
        from transforms import Rotate
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--id_loss', default='ce')
            opt = parser.parse_args()
            augment = transforms.Compose([Rotate()])
            model = torch.nn.Linear(3, 4)
            crit = JointLoss(opt)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(3):
                x = augment(torch.rand(8, 3))
                loss = crit(model(x), torch.zeros(8, dtype=torch.long))
                loss.backward()
                optimizer.step()
        if __name__ == '__main__':
            main()
    """,
}


def test_constants_of_what_runs(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)), jobs=1)
    shown = " ".join(f"{k}={v}" for item in review.recipe for k, v in item.values)
    # VALID: the smooth-L1 threshold the forward passes on every call; the transform's sigma
    assert "beta=0.11" in shown
    assert "sigma=0.06" in shown
    # INVALID: the focal branch's constant, off with --id_loss ce; the rotation axis
    assert "[1.0, 0.0, 0.0]" not in shown
    assert "0.25" not in shown
