"""A training-step module only a variant script imports (issue 20 items 1 and 4): Swin-like
``utils_moe.py`` (its own ``save_checkpoint`` and grad scaler) beside the ``utils.py`` the
training imports, imported only by the ``main_moe.py`` variant of ``main.py``. It is that
variant's delta, like the variant script: its checkpoint is no row of the run's recipe and its
loads are not places of the run's checkpoint item. A module the run imports stays the run's."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_UTILS = """
import torch


def load_checkpoint(path, model):
    model.load_state_dict(torch.load(path, map_location="cpu"))


def save_checkpoint(path, model, optimizer, scaler):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scaler": scaler.state_dict()}, path)


class Scaler:
    def __init__(self):
        self.scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer):
        self.scaler.scale(loss).backward()
        self.scaler.step(optimizer)
        self.scaler.update()
"""

_MAIN = """
import sys

import torch

from utils import Scaler, load_checkpoint, save_checkpoint


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def main(resume):
    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = Scaler()
    if resume:
        load_checkpoint(resume, model)
    for epoch in range(10):
        with torch.cuda.amp.autocast():
            loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        scaler(loss, optimizer)
        save_checkpoint("ckpt.pth", model, optimizer, scaler.scaler)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
"""


def _review(tmp_path: Path, moe_imports: str):
    moe_utils = _UTILS.replace('"scaler": scaler.state_dict()}', '"moe": True}')
    files = {
        "utils.py": _UTILS,
        "utils_moe.py": moe_utils,
        "main.py": _MAIN,
        "main_moe.py": _MAIN.replace("from utils import", f"from {moe_imports} import"),
    }
    return build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)


def test_a_step_module_only_the_variant_imports_is_its_delta(tmp_path: Path) -> None:
    review = _review(tmp_path, "utils_moe")
    apart = dict(review.ancillary)
    assert apart["main_moe.py"] == "variant of main.py"
    assert apart["utils_moe.py"] == "variant of utils.py"
    saves = [r.where.path for r in review.recipe if r.category == "checkpoint_save"]
    assert saves == ["utils.py"]
    loads = [i for i in review.work if i.kind == "checkpoint"]
    assert loads
    assert all(w.path != "utils_moe.py" for i in loads for w in i.where)


def test_a_step_module_the_run_imports_stays_the_runs(tmp_path: Path) -> None:
    # the variant imports the run's own module: nothing of it is the variant's
    review = _review(tmp_path, "utils")
    assert "utils.py" not in dict(review.ancillary)
    assert any(r.where.path == "utils.py" for r in review.recipe if r.category == "checkpoint_save")
