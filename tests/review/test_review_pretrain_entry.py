"""The training entry point of a repository whose README runs a linear evaluation more often
than the pretraining (``fixtures/twinpretrain``, barlowtwins' layout): ``main.py`` builds the
repository's own model and trains it with its own LARS optimizer, a hand-written warm-up and
cosine schedule and a loss its model's ``forward`` computes; ``evaluate.py`` trains a linear
classifier on a torchvision ResNet-50 loaded from the pretraining's checkpoint; ``transfer.py``
fine-tunes a head at the top level of the file (no ``__main__`` guard). The script
that builds the repository's model is the entry point (its bare ``python main.py DIR``
command counts), the evaluation is another task's recipe, and the rows show what the
pretraining runs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.commands import documented_entry

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "twinpretrain"


def _review(path: Path):
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return build_review(str(path))
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def review():
    return _review(FIXTURE)


def _rows(review, category: str) -> dict[str, dict[str, str]]:
    return {
        f"{i.name} @ {i.where}": dict(i.values) for i in review.recipe if i.category == category
    }


def test_a_bare_command_launches_its_script(tmp_path: Path) -> None:
    scripts = {"main": "main.py", "main.py": "main.py"}
    (tmp_path / "README.md").write_text("    python main.py /path/to/data/\n", "utf-8")
    assert documented_entry(tmp_path, scripts) == "main.py"
    # torch's launcher module runs the script after it
    (tmp_path / "README.md").write_text(
        "    python -m torch.distributed.launch --nproc_per_node=8 main.py /data\n", "utf-8"
    )
    assert documented_entry(tmp_path, scripts) == "main.py"
    # INVALID: prose naming the script launches nothing
    (tmp_path / "README.md").write_text("Run `python main.py` to train.\n", "utf-8")
    assert documented_entry(tmp_path, scripts) is None


def test_the_pretraining_is_the_recipe(review) -> None:
    for category in ("optimizer", "scheduler", "loss", "epochs"):
        rows = _rows(review, category)
        assert not [k for k in rows if "evaluate.py" in k or "transfer.py" in k], category
    lars = _rows(review, "optimizer")["main.LARS @ main.py:20"]
    assert lars["weight_decay"].startswith("1e-6 (args.weight_decay: default of argparse")
    # the custom optimizer's own defaults, which no torch documentation gives
    assert lars["momentum"] == "0.9 (default at main.py:64)"
    assert lars["eta"] == "0.001 (default at main.py:64)"
    assert _rows(review, "epochs")["argparse --epochs @ main.py:10"] == {"default": "100"}
    assert [t.cls for t in review.top_models] == ["main.TwinNet"]
    # the torchvision network both scripts build is placed where the pretraining builds it
    backbones = [i.where for i in review.recipe if i.category == "backbone"]
    assert [str(w) for w in backbones] == ["main.py:48"]


def test_a_loss_the_model_computes_in_forward(review) -> None:
    assert _rows(review, "loss")["argparse --lambd @ main.py:14"] == {"default": "0.005"}
    loss = _rows(review, "loss")["loss computed in TwinNet.forward @ main.py:59"]
    assert loss == {
        "loss": "on_diag + self.args.lambd * off_diag",
        "self.args.lambd": "0.005 (self.args.lambd: default of argparse --lambd at main.py:14)",
    }


def test_a_hand_written_warmup_and_cosine_schedule(review) -> None:
    schedule = _rows(review, "scheduler")["main.adjust_learning_rate @ main.py:25"]
    assert schedule["shape"] == "warm-up then cosine"
    steps = [v for k, v in schedule.items() if k.startswith("step ")]
    assert steps == [
        "max_steps = args.epochs * steps",
        "warmup_steps = 10 * steps",
        "base_lr = args.batch_size / 256",
        "if step < warmup_steps: lr = base_lr * step / warmup_steps",
        "else of if step < warmup_steps: q = 0.5 * (1 + math.cos(math.pi * step / max_steps))",
        "else of if step < warmup_steps: lr = base_lr * q",
        "optimizer.param_groups[0]['lr'] = lr * args.learning_rate",
    ]
    assert schedule["args.batch_size"].startswith("512 (")
    assert schedule["args.learning_rate"].startswith("0.2 (")


def test_when_both_scripts_build_the_repositorys_models_the_readme_decides(
    tmp_path: Path,
) -> None:
    """INVALID: an evaluation that builds a head of the repository's own is no longer told
    apart by what it builds: the README's two commands pick it, as before."""
    copy = tmp_path / "twinpretrain"
    shutil.copytree(FIXTURE, copy)
    evaluate = copy / "evaluate.py"
    text = evaluate.read_text("utf-8")
    text = text.replace(
        "def main():",
        "class Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(2048, 1000)\n\n\ndef main():",
    )
    text = text.replace("    criterion = ", "    head = Head()\n    criterion = ")
    evaluate.write_text(text, "utf-8")
    review = _review(copy)
    assert "torch.optim.SGD @ evaluate.py:28" in _rows(review, "optimizer")
    assert not [k for k in _rows(review, "optimizer") if "LARS" in k]


def test_a_forward_returning_a_loss_call_adds_no_row(tmp_path: Path) -> None:
    """INVALID: a forward handing back one call's result leaves the row to that call."""
    copy = tmp_path / "twinpretrain"
    shutil.copytree(FIXTURE, copy)
    main = copy / "main.py"
    text = main.read_text("utf-8").replace(
        "        loss = on_diag + self.args.lambd * off_diag\n        return loss\n",
        "        return torch.nn.functional.mse_loss(on_diag, off_diag)\n",
    )
    main.write_text(text, "utf-8")
    rows = _rows(_review(copy), "loss")
    assert not [k for k in rows if k.startswith("loss computed in")]


def test_without_a_documented_command_every_script_stays(tmp_path: Path) -> None:
    """INVALID: no README: nothing says which script trains, so the transfer script run at
    the top level (no ``__main__`` guard) and the evaluation keep their rows."""
    copy = tmp_path / "twinpretrain"
    shutil.copytree(FIXTURE, copy)
    (copy / "README.md").unlink()
    rows = _rows(_review(copy), "optimizer")
    assert "torch.optim.Adam @ transfer.py:15" in rows
    assert "torch.optim.SGD @ evaluate.py:21" in rows
