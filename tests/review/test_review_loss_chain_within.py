"""A loss chain inside an ``if`` the run's values tell (``if 'CTC' in opt.Prediction: if
opt.baiduCTC: ... else: criterion = torch.nn.CTCLoss(...)`` then ``else: criterion =
torch.nn.CrossEntropyLoss(...)``) is weighed with that ``if``: the documented command's
``--Prediction CTC`` takes it (no "not weighed" hedge); ``--Prediction Attn`` skips it,
and the loss row is the cross-entropy."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x)

    def train(opt):
        model = Net()
        if 'CTC' in opt.Prediction:
            if opt.baiduCTC:
                from warpctc_pytorch import CTCLoss
                criterion = CTCLoss()
            else:
                criterion = torch.nn.CTCLoss(zero_infinity=True)
        else:
            criterion = torch.nn.CrossEntropyLoss(ignore_index=0)
        optimizer = torch.optim.Adadelta(model.parameters(), lr=1)
        for x, y in []:
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()

    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--baiduCTC', action='store_true')
        parser.add_argument('--Prediction', type=str, required=True)
        train(parser.parse_args())
"""


def _losses(tmp_path: Path, prediction: str) -> list[tuple[str, str]]:
    readme = f"# Train\n\n```\npython3 train.py --Prediction {prediction}\n```\n"
    repo = write_repo(tmp_path / prediction, {"train.py": TRAIN, "README.md": readme})
    review = build_review(str(repo))
    return [(i.name, i.note) for i in review.recipe if i.category == "loss"]


def test_the_run_takes_the_chain_it_is_inside(tmp_path: Path) -> None:
    losses = _losses(tmp_path, "CTC")
    assert [name for name, _ in losses] == ["torch.nn.CTCLoss"], losses
    assert "not weighed" not in losses[0][1], losses


def test_the_run_skips_the_chain_it_is_inside(tmp_path: Path) -> None:
    losses = _losses(tmp_path, "Attn")
    assert [name for name, _ in losses] == ["torch.nn.CrossEntropyLoss"], losses
