"""A configuration's range of input sizes the training draws from (YOLOX's
``self.random_size = (18, 32)``, the loader's input size changed every few iterations): an
augmentation row and one input pipeline with multi-scale shapes, however many launched
configurations set it; ``random_size = None`` is none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import random
    import torch
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x).sum()
    class Exp:
        def __init__(self):
            self.random_size = RANGE
            self.max_epoch = 10
    def main():
        exp = Exp()
        model = Net()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for it in range(exp.max_epoch):
            if exp.random_size is not None and it % 10 == 0:
                size = random.randint(*exp.random_size) * 32
            loss = model(torch.zeros(1, 2))
            loss.backward()
            opt.step()
    if __name__ == "__main__":
        main()
"""


def _review(tmp_path: Path, value: str):
    return build_review(str(write_repo(tmp_path, {"train.py": TRAIN.replace("RANGE", value)})))


def test_a_drawn_size_range_is_a_multi_scale_pipeline(tmp_path: Path) -> None:
    review = _review(tmp_path / "a", "(18, 32)")
    assert any(
        i.category == "augmentation" and i.name == "Exp.random_size" for i in review.recipe
    ), review.recipe
    assert review.effort.input_shape_rewrites == 1


def test_no_range_is_no_pipeline(tmp_path: Path) -> None:
    review = _review(tmp_path / "b", "None")
    assert review.effort.input_shape_rewrites == 0
