"""What the reference run never switches on, on fixtures/ttaflag: ``Net.forward``'s
test-time augmentation (``if augment:``, ``augment=False``) that the evaluation passes as its
own parameter every caller leaves False and the training's ``model(x)`` leaves out, beside
``Head.forward``'s ``if mirror:``, which the training passes ``mirror=True``, and ``sync``'s
``if rank == 0:`` on a parameter it assigns again; and a loader of
another format (``load_weights``: ``numpy.fromfile`` into the parameters) called only in the
``except`` handler after ``torch.load``, while the README's first training command starts
from ``--weights ''`` (the later fine-tuning commands pass ``runs/exp/last.pt``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.work import defaulted_branches, defaulted_flags, name_values, switched_off_named

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ttaflag"


@pytest.fixture(scope="module")
def review():
    return build_review(str(FIXTURE), jobs=1)


def test_a_branch_on_a_flag_no_caller_switches_on_is_no_network_work(review) -> None:
    # VALID: x.flip(2) under ``if mirror:`` (train.py passes mirror=True); INVALID: x.flip(3)
    # under ``if augment:`` (every call leaves augment False)
    (flip,) = [g for g in review.gaps if g.api == "torch.Tensor.flip"]
    assert [str(w) for w in flip.where] == ["model.py:28"]


def test_a_parameter_the_function_assigns_again_switches_nothing_off() -> None:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))[:2]
    names = name_values(analyses)
    options = names.argparse.values()
    _, named = switched_off_named(analyses, options)
    flags = defaulted_flags(analyses, options, named)
    off = defaulted_branches(result.findings, analyses, flags)
    # VALID: the augment branch (x.flip(3), y.roll); INVALID: the barrier under ``if rank ==
    # 0:`` after ``rank = int(os.environ...)`` (rank=None, never passed, assigned again),
    # and x.flip(2) under ``if mirror:``, which train.py switches on
    assert off == {("model.py", 15), ("model.py", 16)}


def test_calls_in_an_except_handler_are_fallbacks() -> None:
    analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))[1]
    (fa,) = [fa for fa in analyses if fa.path == "evaluate.py"]
    calls = {c.expr.callee(): c.fallback for c in fa.syntax.values.calls}
    assert calls["load_weights"] is True  # VALID: in ``except Exception:``
    assert calls["load"] is False  # INVALID: torch.load in the ``try`` body
    assert calls["Net"] is False


def test_a_fallback_loader_of_another_format_is_not_the_reference_runs(review) -> None:
    checkpoints = [i for i in review.work if i.kind == "checkpoint"]
    assert [i.what for i in checkpoints] == ["torch.load"]
    # the reference run trains from scratch: the fine-tuning commands' file is not named
    assert "starts from a weights file" not in checkpoints[0].why


def test_a_loader_called_outside_a_handler_is_the_runs(tmp_path: Path) -> None:
    # VALID: the same loader called plainly is a checkpoint format to port
    root = tmp_path / "ttaflag"
    shutil.copytree(FIXTURE, root)
    source = (root / "evaluate.py").read_text()
    (root / "evaluate.py").write_text(
        source.replace(
            "        try:\n"
            '            model.load_state_dict(torch.load(weights)["model"])\n'
            "        except Exception:\n"
            "            load_weights(model, weights)\n",
            "        load_weights(model, weights)\n",
        )
    )
    review = build_review(str(root), jobs=1)
    whats = [i.what for i in review.work if i.kind == "checkpoint"]
    assert "weights read as arrays into the parameters: load_weights" in whats
