"""The model a def loads by ``importlib.import_module`` in one branch per value of a
parameter (a reader's ``if network == "small": import_module("ocr.nets.small") elif
network == "big": ...``): the branch the values its callers pass select most often is the
model, the other module's class its alternative; and the model a training script beside
such inference code builds itself (``from model import Model`` in a folder that is no
package: Python puts the script's folder on ``sys.path``) is a top model too. Small
repositories under fixtures/importpick/ written for the cases."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review
from apiscan.review.model import Review

_ROOT = Path("fixtures/importpick")


def _tops(review: Review) -> dict[str, dict[str, str]]:
    """class -> its parts (``selected by``, ``alternatives``...) of each top model."""
    return {m.cls: dict(m.parts) for m in review.top_models}


def test_the_branch_most_caller_values_select_is_the_model() -> None:
    """The reader assigns ``network = "big"`` in three branches of its language switch and
    ``"small"`` in one: ``nets.big.Net`` is the model, ``nets.small.Net`` its alternative
    (not the first ``import_module`` met, ``small``)."""
    tops = _tops(build_review(str(_ROOT / "voted"), jobs=1))
    assert tops["ocr.nets.big.Net"]["selected by"] == (
        "importlib.import_module: 'ocr.nets.big' (network: 3 of the 4 values its callers "
        "pass select it), .Net"
    )
    assert tops["ocr.nets.big.Net"]["alternatives"] == "Net (small.Net)"
    assert "ocr.nets.small.Net" not in tops


def test_an_alternative_of_the_same_name_is_no_part_of_the_model() -> None:
    """``Net (small.Net)`` names the model's own short name: the picked ``big.Net`` is still
    the model (not a block of itself), ``small.Net`` another model's class, no block."""
    roles = {m.cls: m.role for m in build_review(str(_ROOT / "voted"), jobs=1).modules}
    assert roles["ocr.nets.big.Net"] == "model"
    assert roles["ocr.nets.small.Net"] == "other"
    assert roles["model.Model"] == "model"


def test_a_literal_the_caller_passes_selects_its_branch() -> None:
    """The caller passes ``"small"`` itself: the second branch's module is not the model."""
    tops = _tops(build_review(str(_ROOT / "passed"), jobs=1))
    assert list(tops) == ["ocr.nets.small.Net"]
    assert "(network: 1 of the 1 values" in tops["ocr.nets.small.Net"]["selected by"]
    assert tops["ocr.nets.small.Net"]["alternatives"] == "Net (big.Net)"


def test_a_tie_names_no_majority_and_keeps_the_first_branch() -> None:
    """One ``"big"`` and one ``"small"``: no value decides, the first branch stays, with no
    count claimed, the other module still its alternative."""
    tops = _tops(build_review(str(_ROOT / "tied"), jobs=1))
    assert tops["ocr.nets.small.Net"]["selected by"] == (
        "importlib.import_module: 'ocr.nets.small', .Net"
    )
    assert tops["ocr.nets.small.Net"]["alternatives"] == "Net (big.Net)"


def test_the_model_a_training_script_builds_beside_an_inference_pick() -> None:
    """trainer/train.py builds ``Model(opt)`` from trainer/model.py (imported as ``model``,
    the script's folder on ``sys.path``), its ``train(opt)`` run by trainer.ipynb (``from
    train import train``: the notebook drives the script, which stays an entry point): a
    top model after the pick, not left out because
    only the inference code picks a model by name; the inference pick stays untrained."""
    review = build_review(str(_ROOT / "voted"), jobs=1)
    assert [m.cls for m in review.top_models] == ["ocr.nets.big.Net", "model.Model"]
    tops = {m.cls: m for m in review.top_models}
    trained = tops["model.Model"]
    assert (trained.where.path, trained.builder) == ("trainer/train.py", "train")
    assert dict(trained.parts) == {"features": "Block"}
    assert dict(tops["ocr.nets.big.Net"].parts)["trained by"].startswith(
        "no training entry point reaches it"
    )


def test_no_training_script_adds_no_model() -> None:
    """Without the trainer folder only the inference pick is a top model."""
    review = build_review(str(_ROOT / "passed"), jobs=1)
    assert [m.cls for m in review.top_models] == ["ocr.nets.small.Net"]
