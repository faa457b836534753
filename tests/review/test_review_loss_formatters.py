"""A function that formats the step's losses for a progress bar (ZoeDepth's trainer:
``def stringify_losses(L): return "; ".join(...)``) is named for losses but computes none: no
loss row of the recipe, while the loss the step does compute stays one."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.recipe import _is_loss_function

FILES = {
    "train.py": """
        import torch
        from torch import nn

        class SILogLoss(nn.Module):
            def __init__(self, beta=0.15):
                super().__init__()
                self.beta = beta

            def forward(self, pred, target):
                g = torch.log(pred) - torch.log(target)
                return torch.sqrt(g.var() + self.beta * g.mean() ** 2)

        def train(model, loader, epochs=5):
            opt = torch.optim.AdamW(model.parameters(), lr=1.6e-4, weight_decay=0.01)
            criterion = SILogLoss(beta=0.15)

            def stringify_losses(L):
                return "; ".join(f"{k}: {v.item():.4e}" for k, v in L.items())

            for _ in range(epochs):
                for x, y in loader:
                    loss = criterion(model(x), y)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    print(stringify_losses({"si": loss}))

        if __name__ == "__main__":
            train(nn.Conv2d(3, 1, 1), [])
    """,
}


def test_a_function_formatting_the_losses_is_no_loss_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    losses = [row.name for row in review.recipe if row.category == "loss"]
    assert not [name for name in losses if "stringify" in name]
    assert any(name.endswith("SILogLoss") for name in losses)


def test_formatting_words_name_no_loss_function() -> None:
    assert not _is_loss_function("stringify_losses")
    assert not _is_loss_function("format_loss")
    assert _is_loss_function("gradient_penalty")
    assert _is_loss_function("training_losses")
