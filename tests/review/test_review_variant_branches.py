"""A shared builder's branch only a variant script switches on (issue 20 item 1): Swin-like
``data/__init__.py`` dispatching ``build_loader(config, simmim=False)`` to the run's loader
or, for a fine-tuning variant passing ``simmim=True``, to another module's loader. The
variant is priced as a delta of the run's script; its loader (and what only that loader
uses, its dataset's transforms) is no row of the run's recipe."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_DISPATCH = """
from .build import build_loader as _build_loader
from .build_ft import build_loader_finetune


def build_loader(config, simmim=False):
    if not simmim:
        return _build_loader(config)
    return build_loader_finetune(config)
"""

_BUILD = """
import torch
import torchvision.transforms as T


def build_transform():
    return T.Compose([T.RandomHorizontalFlip(), T.ToTensor()])


def build_dataset():
    dataset = torch.utils.data.TensorDataset(torch.randn(64, 4))
    dataset.transform = build_transform()
    return dataset


def build_loader(config):
    dataset = build_dataset()
    return torch.utils.data.DataLoader(dataset, batch_size=config.BATCH, num_workers=8)
"""

_MAIN = """
import torch
from data import build_loader


class Cfg:
    BATCH = 32


def main(config):
    loader = build_loader(config)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for (x,) in loader:
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main(Cfg())
"""


def _files() -> dict[str, str]:
    finetune = (_BUILD.replace("def build_loader(", "def build_loader_finetune(")).replace(
        "num_workers=8", "num_workers=2"
    )
    return {
        "data/__init__.py": _DISPATCH,
        "data/build.py": _BUILD,
        "data/build_ft.py": finetune,
        "main.py": _MAIN,
    }


def _loaders(review) -> list[str]:
    return [r.where.path for r in review.recipe if r.name == "torch.utils.data.DataLoader"]


def test_a_branch_only_the_variant_takes_gives_no_recipe_row(tmp_path: Path) -> None:
    files = _files()
    files["main_ft.py"] = _MAIN.replace("build_loader(config)", "build_loader(config, True)")
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    assert "main_ft.py" in dict(review.ancillary)  # a variant of main.py
    assert _loaders(review) == ["data/build.py"]
    # nor the transforms only the variant's loader builds
    augmentation = [r for r in review.recipe if r.category == "augmentation"]
    assert augmentation
    assert all(r.where.path == "data/build.py" for r in augmentation)
    assert not any("build_ft.py" in r.note for r in augmentation)


def test_the_run_taking_the_branch_keeps_its_rows(tmp_path: Path) -> None:
    files = _files()
    files["main.py"] = _MAIN.replace("build_loader(config)", "build_loader(config, True)")
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    assert "data/build_ft.py" in _loaders(review)
