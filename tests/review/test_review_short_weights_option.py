"""The weights file a documented training command passes with a short option
(``python tools/train.py -f exp.py -c pretrained/base.pth``): the checkpoint item names it
as the run's start, as it does a long ``--init_weights``, and the recipe's checkpoint row
says the training starts from it."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "tools/train.py": """
        import argparse
        import torch
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)
            def forward(self, x):
                return self.fc(x)
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("-c", "--ckpt", default=None, type=str, help="checkpoint file")
            args = parser.parse_args()
            model = Net()
            model.load_state_dict(torch.load(args.ckpt)["model"])
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            loss = model(torch.zeros(1, 2)).sum()
            loss.backward()
            opt.step()
        if __name__ == "__main__":
            main()
    """,
    "README.md": "# Train\n\n```\npython3 tools/train.py -d 8 -c pretrained/base.pth\n```\n",
}


def test_a_short_option_passing_the_weights_names_the_runs_start(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "short", REPO)))
    (plain,) = [i for i in review.work if i.kind == "checkpoint"]
    assert "The documented training starts from a weights file: -c pretrained/base.pth" in (
        plain.why
    ), plain.why
    (row,) = [i for i in review.recipe if i.category == "checkpoint"]
    assert "the training starts from" in row.note, row.note
