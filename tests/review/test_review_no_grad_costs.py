"""A loss function called in a method decorated ``@torch.no_grad()`` (a label assigner's
matching cost: ``F.binary_cross_entropy`` of every prediction against every target, read
to pick the positives) computes a cost, not a term the training differentiates: no loss
row. The loss the same head computes outside it stays."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "head.py": """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.cls = nn.Conv2d(8, 4, 1)

            @torch.no_grad()
            def assign(self, scores, targets):
                cost = F.binary_cross_entropy(
                    scores.sigmoid().unsqueeze(0), targets.unsqueeze(1), reduction="none"
                ).sum(-1)
                return cost.argmin(0)

            def forward(self, x, targets):
                scores = self.cls(x).flatten(1)
                picked = self.assign(scores, targets)
                return F.binary_cross_entropy_with_logits(scores, targets[picked])
    """,
    "train.py": """
        import torch

        from head import Head


        def main():
            model = Head()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for _ in range(10):
                loss = model(torch.randn(2, 8, 2, 2), torch.rand(3, 16))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_a_cost_under_no_grad_is_no_loss_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    losses = [i.name for i in review.recipe if i.category == "loss"]
    assert losses == ["torch.nn.functional.binary_cross_entropy_with_logits"]
