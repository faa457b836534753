"""A branch decided by an attribute of the model the entry builds, through a move of the
module (``model = model.to(memory_format=...)``, ``model.cuda()``): the move returns the
module, so ``model.n_classes`` is the keyword the constructor was given (an argparse
default of 2), and the loss of the branch the defaults take is the recipe's."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "net.py": """
        import torch
        class Net(torch.nn.Module):
            def __init__(self, n_classes):
                super().__init__()
                self.n_classes = n_classes
                self.fc = torch.nn.Linear(2, n_classes)
            def forward(self, x):
                return self.fc(x)
    """,
    "losses.py": """
        import torch
        def soft_loss(x, multiclass=False):
            return x.mean()
    """,
    "train.py": """
        import argparse
        import torch
        from torch import nn
        from net import Net
        from losses import soft_loss
        def train_model(model, lr=1e-3):
            opt = torch.optim.Adam(model.parameters(), lr=lr)
            criterion = nn.CrossEntropyLoss() if model.n_classes > 1 else nn.BCEWithLogitsLoss()
            out = model(torch.zeros(1, 2))
            if model.n_classes == 1:
                loss = soft_loss(out.sigmoid(), multiclass=False)
            else:
                loss = soft_loss(out.softmax(1), multiclass=True)
            loss = loss + criterion(out, torch.zeros(1, dtype=torch.long))
            loss.backward()
            opt.step()
        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--classes", type=int, default=2)
            args = parser.parse_args()
            model = Net(n_classes=args.classes)
            model = model.to(memory_format=torch.channels_last)
            train_model(model=model)
    """,
}


def test_a_moved_model_keeps_what_its_constructor_was_given(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "moved", REPO)))
    rows = [i for i in review.recipe if i.name.endswith("soft_loss")]
    assert [dict(i.values)["multiclass"] for i in rows] == ["True"], rows
    assert "the branch taken with the defaults" in rows[0].note, rows[0].note


def test_a_conditional_expression_on_it_builds_the_side_the_defaults_take(
    tmp_path: Path,
) -> None:
    review = build_review(str(write_repo(tmp_path / "moved", REPO)))
    names = {i.name for i in review.recipe if i.category == "loss"}
    assert "torch.nn.CrossEntropyLoss" in names, names
    assert "torch.nn.BCEWithLogitsLoss" not in names, names
