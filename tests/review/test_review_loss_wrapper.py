"""A module that runs the network with its loss in one forward (CenterNet-style
``ModelWithLoss(model, loss)``, handed to DataParallel) is the training step's wrapper, not
a loss: no loss row for it (issue 20 item 1), while the loss it holds keeps its row."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "trainer.py": """
        import torch
        class DetLoss(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.crit = torch.nn.L1Loss(reduction='sum')
            def forward(self, out, target):
                return self.crit(out, target)
        class ModelWithLoss(torch.nn.Module):
            def __init__(self, model, loss):
                super().__init__()
                self.model = model
                self.loss = loss
            def forward(self, batch):
                out = self.model(batch['input'])
                return out, self.loss(out, batch['target'])
    """,
    "train.py": """
        import torch
        from trainer import DetLoss, ModelWithLoss
        def main():
            model = torch.nn.Linear(3, 3)
            step = ModelWithLoss(model, DetLoss())
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
            for _ in range(3):
                batch = {'input': torch.rand(4, 3), 'target': torch.rand(4, 3)}
                _, loss = step(batch)
                loss.backward()
                optimizer.step()
        if __name__ == '__main__':
            main()
    """,
}


def test_model_with_loss_wrapper_is_no_loss(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)), jobs=1)
    losses = [item.name for item in review.recipe if item.category == "loss"]
    assert not any("ModelWithLoss" in name for name in losses)
    assert any("DetLoss" in name for name in losses)
