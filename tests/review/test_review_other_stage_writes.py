"""A second script the documentation runs less often than the training (a linear evaluation on the
frozen features, with its own optimizer and checkpoint): its checkpoint write is no row of
the training's recipe, whose own write stays (issue 20 point 1)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

SCRIPT = """
    import argparse
    import torch
    import torch.nn as nn


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--epochs', default={epochs}, type=int)
        parser.add_argument('--pretrained', default='', type=str)
        args = parser.parse_args()
        model = nn.Linear(2, 2)
        if args.pretrained:
            model.load_state_dict(torch.load(args.pretrained))
        optimizer = torch.optim.SGD(model.parameters(), lr={lr})
        for epoch in range(args.epochs):
            loss = model(torch.ones(2)).sum()
            loss.backward()
            optimizer.step()
            torch.save({{'epoch': epoch, 'state_dict': model.state_dict()}}, '{name}.pth.tar')


    if __name__ == '__main__':
        main()
"""
FILES = {
    "README.md": """
        # Siamese

        Pre-training:
        ```
        python main_pretrain.py
        ```

        With 200 epochs:
        ```
        python main_pretrain.py --epochs 200
        ```

        Linear classification:
        ```
        python main_lincls.py --pretrained checkpoint_0099.pth.tar
        ```
    """,
    "main_pretrain.py": SCRIPT.format(epochs=100, lr=0.05, name="checkpoint"),
    "main_lincls.py": SCRIPT.format(epochs=90, lr=0.1, name="linear"),
}


def test_the_later_scripts_write_is_not_the_trainings(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    writes = {i.where.path for i in review.recipe if i.category == "checkpoint_save"}
    assert writes == {"main_pretrain.py"}
