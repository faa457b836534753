"""An option whose help says it sizes every input image (``--scale 0.5``, "Downscaling
factor of the images") is the preprocessing's input size: a recipe row; a ``--scale``
that says nothing of images gives none by that rule."""

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
    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--scale", "-s", type=float, default=0.5, help=HELP)
        args = parser.parse_args()
        model = Net()
        opt = torch.optim.RMSprop(model.parameters(), lr=1e-5)
        x = torch.nn.functional.interpolate(torch.zeros(1, 1, 4, 4), scale_factor=args.scale)
        loss = model(x.view(-1, 2)).sum()
        loss.backward()
        opt.step()
    if __name__ == "__main__":
        main()
"""


def _rows(tmp_path: Path, help_text: str) -> set[tuple[str, str]]:
    src = TRAIN.replace("HELP", repr(help_text))
    review = build_review(str(write_repo(tmp_path, {"train.py": src})))
    return {(i.category, i.name) for i in review.recipe}


def test_an_image_scale_option_is_preprocessing(tmp_path: Path) -> None:
    rows = _rows(tmp_path / "a", "Downscaling factor of the images")
    assert ("preprocessing", "argparse --scale") in rows, rows


def test_a_scale_option_saying_nothing_of_images_is_not(tmp_path: Path) -> None:
    rows = _rows(tmp_path / "b", "Scale of the loss")
    assert ("preprocessing", "argparse --scale") not in rows, rows
