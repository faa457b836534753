"""Whether a repository is inference only is decided by a training step that runs, not by
losses that exist.

fixtures/latentgen samples from released weights: its diffusion class defines
``training_losses`` that nothing calls, its renderer keeps an auxiliary loss as a diagnostic,
its gradient checkpointing differentiates inside an ``autograd.Function``'s backward, and its
encoder converts each input's views and cameras from NumPy. The same code with a training
loop that calls ``backward`` trains; with its loss returned under ``self.training`` it is
trained by a framework's trainer (as fixtures/podsdet, tests/review/test_review_lead.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.review.build import build_review
from apiscan.review.model import Review

_FIXTURE = Path(REPO_ROOT) / "fixtures" / "latentgen"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/latentgen")


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "latentgen"
    shutil.copytree(_FIXTURE, root)
    return root


def test_losses_nothing_trains_with_make_no_training(review: Review) -> None:
    assert review.inference_only
    rows = [(i.category, i.name, str(i.where)) for i in review.recipe]
    # training_losses' mse_loss is the unshipped training: no row; the renderer's auxiliary
    # loss scores its output; the initialiser is overwritten by the loaded checkpoint
    assert [r for r in rows if r[0] in ("loss", "scoring", "init", "augmentation")] == [
        (
            "scoring",
            "torch.nn.functional.binary_cross_entropy_with_logits",
            "latentgen/model.py:41",
        ),
        ("scoring", "latentgen.model.sdf_loss", "latentgen/model.py:53"),
    ]


def test_autocast_for_inference_scales_no_loss(review: Review) -> None:
    (autocast,) = [g for g in review.gaps if g.api == "torch.autocast"]
    assert "DynamicLossScaler" not in autocast.suggestion
    assert autocast.suggestion.endswith("(inference only: no loss scaler)")


def test_a_checkpointing_backward_is_no_gradient_penalty(review: Review) -> None:
    assert not [i for i in review.work if i.kind == "second-order-grad"]


def test_input_conversions_are_one_item(review: Review) -> None:
    trips = [
        (i.what, [str(w) for w in i.where]) for i in review.work if i.kind == "host-round-trip"
    ]
    assert trips == [
        (
            "input conversion on the host: cameras_to_tensor, views_to_tensor",
            [
                "latentgen/model.py:28",
                "latentgen/model.py:31",
            ],
        )
    ]


def test_a_training_loop_calling_backward_trains(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "train.py").write_text(
        "import torch\n\n"
        "from latentgen.diffusion import Diffusion\n"
        "from latentgen.model import Denoiser\n\n\n"
        "def main():\n"
        "    model = Denoiser()\n"
        "    diffusion = Diffusion()\n"
        "    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)\n"
        "    for _ in range(100):\n"
        "        x = torch.randn(8, 64)\n"
        "        t = torch.randint(0, 64, (8,))\n"
        "        loss = diffusion.training_losses(model, x, t)\n"
        "        opt.zero_grad()\n"
        "        loss.backward()\n"
        "        opt.step()\n\n\n"
        'if __name__ == "__main__":\n'
        "    main()\n"
    )
    review = build_review(str(root), jobs=1)
    assert not review.inference_only
    assert "optimizer" in {i.category for i in review.recipe}
    assert "scoring" not in {i.category for i in review.recipe}


def test_a_loss_under_the_training_switch_is_a_framework_s(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    model = root / "latentgen" / "model.py"
    model.write_text(
        model.read_text().replace(
            "        return colors, {",
            '        if self.training:\n            return {"sdf": sdf_loss(fields)}\n'
            "        return colors, {",
        )
    )
    review = build_review(str(root), jobs=1)
    assert not review.inference_only
    (loss,) = [i for i in review.recipe if i.category == "loss" and "trainer" in i.note]
    assert "a framework's trainer runs the step" in loss.note
