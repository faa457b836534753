"""A training step whose optimizer a trainer class is handed by its constructor and stores on
``self`` (``fixtures/ctorstep``): the optimizer is built by a helper of the training script and
may be handed back by a checkpoint loader of another file under an ``if``; its
``self.optimizer.step()`` is a torch optimizer's step, and the training step is priced."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.effort import idiom_pattern
from apiscan.review.gaps import counted

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ctorstep"


def _step_confidence(root: Path) -> dict[str, str]:
    result, _ = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return {
        f.api: f.confidence
        for f in result.api_findings
        if f.path == "lib/trainer.py" and f.api.startswith("torch.optim.Optimizer.")
    }


def _priced_patterns(root: Path) -> set[str]:
    result, _ = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return {
        idiom_pattern(f) for f in result.api_findings if counted(f) and f.disposition == "idiom"
    }


def test_the_optimizer_handed_to_the_constructor_is_a_torch_optimizer() -> None:
    assert _step_confidence(FIXTURE) == {
        "torch.optim.Optimizer.zero_grad": "certain",
        "torch.optim.Optimizer.step": "certain",
    }
    assert "train-step" in _priced_patterns(FIXTURE)


def test_the_review_prices_the_training_step() -> None:
    review = build_review(str(FIXTURE), jobs=1)
    (drivers,) = [line for line in review.effort.explanation if "What drives it" in line]
    # the checkpoint is priced once, by its work item, not also as an idiom pattern
    assert "idiom (3 × up to 1 = 3: data, module-base, train-step)" in drivers
    assert "checkpoint (1 × up to 2 = 2)" in drivers


def test_an_optimizer_of_unknown_origin_stays_a_guess(tmp_path: Path) -> None:
    root = tmp_path / "ctorstep"
    shutil.copytree(FIXTURE, root)
    main = root / "main.py"
    # built by a package the scan does not know: nothing says it is a torch optimizer
    main.write_text(
        main.read_text()
        .replace("import torch\n", "import torch\nimport optlib\n", 1)
        .replace("optimizer = get_optimizer(opt, model)", "optimizer = optlib.build(model)")
    )
    assert _step_confidence(root) == {
        "torch.optim.Optimizer.zero_grad": "probable",
        "torch.optim.Optimizer.step": "probable",
    }
    assert "train-step" not in _priced_patterns(root)
