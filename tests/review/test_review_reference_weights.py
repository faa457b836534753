"""The weights file a checkpoint item says the training starts from is the reference run's:
the first documented training command. A README that trains from scratch first
(``--weights ''``) and fine-tunes later from a file of that run starts from no file."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.model import Where, WorkItem
from apiscan.review.work import _launched_weights

_PLAIN = WorkItem("checkpoint", "torch.load", (Where("train.py", 9),), "convert it", 1)


def _told(tmp_path: Path, readme: str) -> WorkItem:
    root = write_repo(tmp_path, {"README.md": readme, "train.py": "import torch\n"})
    (item,) = _launched_weights(root, [_PLAIN])
    return item


def test_a_reference_run_from_scratch_names_no_later_runs_file(tmp_path: Path) -> None:
    # INVALID: the fine-tuning runs' epoch_9.pt (passed twice) is not the reference run's
    item = _told(
        tmp_path,
        "```\npython train.py --img 640 --weights '' --epochs 300\n"
        "python tune.py --weights runs/a/last.pt\n"
        "python train.py --weights runs/b/epoch_9.pt --epochs 50\n"
        "python train.py --weights runs/b/epoch_9.pt --epochs 60\n```\n",
    )
    assert item == _PLAIN


def test_the_reference_runs_file_is_named_before_the_most_passed(tmp_path: Path) -> None:
    # VALID: the first training command's base.pth, though later ones pass epoch_9.pt twice
    item = _told(
        tmp_path,
        "```\npython train.py --weights weights/base.pth\n"
        "python train.py --weights runs/b/epoch_9.pt --epochs 50\n"
        "python train.py --weights runs/b/epoch_9.pt --epochs 60\n```\n",
    )
    assert "starts from a weights file: --weights weights/base.pth (README.md:2" in item.why
    assert "epoch_9" not in item.why.partition("(README")[0]
    assert item.where[0] == Where("train.py", 9)


def test_without_a_reference_value_the_most_passed_file_is_named(tmp_path: Path) -> None:
    # VALID: the first training command passes no weights option: the most passed file
    item = _told(
        tmp_path,
        "```\npython train.py --epochs 3\n"
        "python train.py --weights runs/b/epoch_9.pt\n"
        "python train.py --weights runs/b/epoch_9.pt --lr 0.1\n```\n",
    )
    assert "starts from a weights file: --weights runs/b/epoch_9.pt (README.md:" in item.why
