"""One script run in several modes by the documentation (``main.py --mode sample`` first,
``main.py --mode train`` further down): the training run is the ``--mode train`` command,
so the branch ``if args.mode == 'train':`` runs and its optimizer and augmentation are
recipe rows; the sampling and evaluation commands are no training runs."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.commands import launches

MAIN = """
    import argparse
    import torch
    from torchvision import transforms


    def train(args):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(model.parameters(), lr=args.lr)
        aug = transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor()])
        for _ in range(args.total_iters):
            loss = model(torch.zeros(2, 4)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


    def sample(args):
        model = torch.nn.Linear(4, 4)
        with torch.no_grad():
            return model(torch.zeros(1, 4))


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--mode', type=str, required=True, choices=['train', 'sample', 'eval'])
        parser.add_argument('--lr', type=float, default=1e-4)
        parser.add_argument('--total_iters', type=int, default=100)
        args = parser.parse_args()
        if args.mode == 'train':
            train(args)
        elif args.mode == 'sample':
            sample(args)
"""

README = """
    # Demo

    ```bash
    python main.py --mode sample --total_iters 1
    ```

    ```bash
    python main.py --mode eval --total_iters 1
    ```

    ## Training

    ```bash
    python main.py --mode train --lr 0.0002
    ```
"""


def _repo(tmp_path: Path, readme: str = README) -> Path:
    return write_repo(tmp_path / "repo", {"main.py": MAIN, "README.md": readme})


def test_the_training_mode_command_is_the_run(tmp_path: Path) -> None:
    runs = launches(_repo(tmp_path), "main.py")
    assert [run.words for run in runs] == [("--mode", "train", "--lr", "0.0002")]


def test_with_no_training_command_every_run_stays(tmp_path: Path) -> None:
    readme = README.replace("--mode train --lr 0.0002", "--mode sample --lr 0.0002")
    runs = launches(_repo(tmp_path, readme), "main.py")
    assert len(runs) == 3


def test_the_training_branch_gives_the_recipe(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path)), jobs=1)
    categories = {item.category for item in review.recipe}
    assert "optimizer" in categories
    assert "augmentation" in categories
