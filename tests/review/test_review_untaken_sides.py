"""The side of a conditional expression the options' defaults never take builds nothing on
the run (issue 20 items 2 and 4): CenterNet-style ``self.crit_reg = RegL1Loss() if
opt.reg_loss == 'l1' else \\`` / ``RegLoss() if opt.reg_loss == 'sl1' else None`` with
``--reg_loss l1`` leaves ``RegLoss`` an alternative, so the unsupported parameter its
forward passes is no work item, while the loss the run builds keeps its item."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "losses.py": """
        import torch
        import torch.nn.functional as F
        class RegL1Loss(torch.nn.Module):
            def forward(self, pred, target):
                return F.l1_loss(pred, target, size_average=False)
        class RegLoss(torch.nn.Module):
            def forward(self, pred, target):
                return F.smooth_l1_loss(pred, target, size_average=False)
        class NormL1Loss(torch.nn.Module):
            def forward(self, pred, target):
                return F.l1_loss(pred / (target + 1e-4), target * 0 + 1, size_average=False)
        class JointLoss(torch.nn.Module):
            def __init__(self, opt):
                super().__init__()
                self.crit_reg = RegL1Loss() if opt.reg_loss == 'l1' else \\
                    RegLoss() if opt.reg_loss == 'sl1' else None
                self.crit_wh = NormL1Loss() if opt.norm_wh else \\
                    self.crit_reg
            def forward(self, out, target):
                return self.crit_reg(out, target) + self.crit_wh(out, target)
    """,
    "train.py": """
        import argparse
        import torch
        from losses import JointLoss
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--reg_loss', default='l1')
            parser.add_argument('--norm_wh', action='store_true')
            opt = parser.parse_args()
            model = torch.nn.Linear(3, 3)
            crit = JointLoss(opt)
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
            for _ in range(3):
                x = torch.rand(4, 3)
                loss = crit(model(x), x)
                loss.backward()
                optimizer.step()
        if __name__ == '__main__':
            main()
    """,
}


def test_untaken_side_of_a_conditional_builds_nothing(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)), jobs=1)
    params = {i.what: i.uses for i in review.work if i.kind == "unsupported-param"}
    # INVALID: the smooth-L1 of RegLoss, the second l1_loss of NormL1Loss (both off)
    assert not any("smooth_l1_loss" in what for what in params)
    # VALID: RegL1Loss's l1_loss, which the run builds
    assert params == {"torch.nn.functional.l1_loss(size_average=False)": 1}
