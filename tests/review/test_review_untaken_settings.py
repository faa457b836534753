"""Rows under tests the default run never takes, transforms written as plain callable
classes, and notebooks counted apart (issue 20), on fixtures/untaken: a
Pytorch_Retinaface-like layout whose ``train.py`` picks a config dict by ``--network``,
gates a multi-device wrapper on the dict's ``'ngpu'``, seeds only under ``--debug``, builds a
scaler under an always-true ``"fp16" or ...`` test and hands a ``preproc`` object to its
dataset; ``notebooks/probe.ipynb`` probes the model beside it. fixtures/nbtrain trains only
in a notebook under ``notebooks/``."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/untaken")


def _rows(review, category: str) -> list:
    return [r for r in review.recipe if r.category == category]


def test_a_wrapper_under_a_config_dict_test_the_defaults_fail_is_no_row(review) -> None:
    # INVALID: ``if num_gpu > 1 and gpu_train:`` with cfg_small's 'ngpu': 1
    assert not [r for r in _rows(review, "distributed") if "DataParallel" in r.name]
    # INVALID: ``if args.debug:`` with --debug a store_true flag
    assert _rows(review, "seed") == []


def test_rows_under_tests_the_defaults_take_stay(review) -> None:
    # VALID: ``"fp16" or "amp" in args.precision`` is always true
    assert [(r.name, r.where.line) for r in _rows(review, "amp")] == [
        ("torch.cuda.amp.GradScaler", 42)
    ]
    # VALID: ``if cfg['clip_grad']:`` with cfg_small's True
    clip = [r for r in _rows(review, "grad_clip") if r.name.startswith("torch.")]
    assert [(r.name, r.where.line) for r in clip] == [("torch.nn.utils.clip_grad_norm_", 58)]


def test_the_config_dict_the_defaults_leave_unused_gives_no_rows(review) -> None:
    # INVALID: cfg_big, picked only by the tool detect.py's own ``--network`` default
    configs = {r.name for r in review.recipe if r.name.startswith("config ")}
    assert configs == {"config cfg_small: small"}
    batch = [dict(r.values) for r in _rows(review, "batch_size")]
    assert batch == [{"batch_size": "32"}]


def test_a_notebook_in_a_notebooks_folder_beside_the_training_is_no_recipe(review) -> None:
    assert dict(review.ancillary)["notebooks/probe.ipynb"] == "notebooks"
    assert not [r for r in review.recipe if r.where.path.endswith(".ipynb")]
    assert _rows(review, "amp")  # the training script's own scaler stays


def test_a_notebook_that_is_the_only_training_stays_the_recipe() -> None:
    review = review_fixture("fixtures/nbtrain")
    assert "notebooks/train.ipynb" not in dict(review.ancillary)
    sgd = [r for r in review.recipe if r.name == "torch.optim.SGD"]
    assert [(r.where.path, r.where.cell, dict(r.values)["lr"]) for r in sgd] == [
        ("notebooks/train.ipynb", 2, "0.05")
    ]


def test_a_callable_class_handed_to_the_dataset_is_an_augmentation_row(review) -> None:
    # VALID: ``FaceSet('faces.txt', preproc(img_dim, rgb_mean))``: what ``__call__`` runs,
    # with the values that reach a literal (``img_dim`` through the picked dict)
    rows = [r for r in _rows(review, "augmentation") if r.name == "data.augment.preproc"]
    assert [(r.where.path, r.where.line) for r in rows] == [("train.py", 49)]
    values = dict(rows[0].values)
    assert values["img_dim"].startswith("640 ")
    assert [values[k] for k in ("1", "2", "3", "4")] == [
        "_crop(img_dim=640) with random.choice([0.3, 0.45, 0.6, 0.8, 1.0])",
        "_distort() with random.uniform(0.5, 1.5)",
        "_mirror()",
        "_resize_subtract_mean(insize=640, rgb_mean=(104, 117, 123))",
    ]
    assert rows[0].note.startswith("a transform the dataset calls on each sample")


def test_a_callable_class_never_handed_to_a_dataset_is_no_row(review) -> None:
    # INVALID: ``Decoder([0.1, 0.2])`` decodes the network's output
    assert not [r for r in review.recipe if "Decoder" in r.name]


def test_a_read_by_key_of_the_picked_dict_shows_its_value(review) -> None:
    loader = next(r for r in _rows(review, "dataloader") if r.name.endswith("DataLoader"))
    assert dict(loader.values)["batch_size"].startswith("32 (")
    clip = next(r for r in _rows(review, "grad_clip") if r.name.startswith("torch."))
    assert dict(clip.values)["max_norm"].startswith("5.0 (")


def test_a_first_value_under_an_untold_test_is_the_value_the_read_needs(review) -> None:
    # ``if sampler is None: name = "plain"``: VALID RandomSampler, INVALID the weighted one
    samplers = [r.name for r in _rows(review, "dataloader") if r.name.endswith("Sampler")]
    assert samplers == ["torch.utils.data.RandomSampler"]


def test_a_value_that_replaces_an_earlier_one_only_maybe_decides_nothing(review) -> None:
    # VALID: ``sync = False`` only under a world-size test, ``sync`` a parameter: the
    # SyncBatchNorm branch stays
    rows = [(r.name, r.where.path) for r in _rows(review, "distributed")]
    assert rows == [("torch.nn.SyncBatchNorm", "model.py")]
