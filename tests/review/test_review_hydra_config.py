"""A Hydra run's config composed and read through the names holding its sections.

fixtures/hydrastages: ``@hydra.main`` names ``conf/train_config.yaml``, whose defaults list
composes ``conf/data/base.yaml`` under ``data``; each training stage's section is read as
``stage_cfg[...]`` in a trainer it is handed to. The values come from the composed files, a
schedule branch no stage selects is no row, and each other branch says which stage builds it.
A copy whose stages both select ``poly`` has that row and no other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]
HYDRA = REPO / "fixtures" / "hydrastages"


@pytest.fixture(scope="module")
def staged():
    return review_fixture(str(HYDRA))


@pytest.fixture(scope="module")
def all_poly(tmp_path_factory):
    copy = tmp_path_factory.mktemp("hydra") / "hydrastages"
    shutil.copytree(HYDRA, copy)
    config = copy / "conf" / "train_config.yaml"
    text = config.read_text().replace("lr_schedule: constant", "lr_schedule: poly")
    config.write_text(text.replace("lr_schedule: step", "lr_schedule: poly"))
    return review_fixture(str(copy))


def _vals(row) -> dict[str, str]:
    return dict(row.values)


def _rows(review, category: str):
    return [r for r in review.recipe if r.category == category]


def test_section_keys_take_the_composed_values(staged) -> None:
    (adamw,) = _rows(staged, "optimizer")
    lr = _vals(adamw)["lr"]
    # the stages set it differently: each stage's value, with its file and line
    assert lr.startswith("2.0e-4 (warmup_stage) | 1.0e-4 (full_stage)")
    assert "conf/train_config.yaml:14 (warmup_stage)" in lr
    assert _vals(adamw)["weight_decay"].startswith("0.05 (")  # the same in both stages
    (clip,) = _rows(staged, "grad_clip")
    # a setting scaled by a factor the run computes: the expression, with the setting's value
    max_norm = _vals(clip)["max_norm"]
    assert max_norm.startswith("self.clip * self.factor() (with self.clip = 1.5 (")
    assert "conf/train_config.yaml:17 (warmup_stage)" in max_norm
    seeds = [r for r in _rows(staged, "seed") if r.name == "torch.manual_seed"]
    assert [_vals(r)["seed"].split(" ")[0] for r in seeds] == ["42"]


def test_defaults_list_and_interpolation_are_followed(staged) -> None:
    (step,) = [r for r in _rows(staged, "scheduler") if r.name.endswith("MultiStepLR")]
    # ``${data.full_stage.steps}``: the value the data group's default file sets
    assert "[700, 900] in conf/data/base.yaml:3" in _vals(step)["milestones"]
    assert _vals(step)["gamma"].startswith("0.5 (full_stage)")


def test_branches_decided_per_stage(staged) -> None:
    schedulers = {r.name.rpartition(".")[2]: r for r in _rows(staged, "scheduler")}
    # ``poly``: no stage selects it, no row
    assert sorted(schedulers) == ["LambdaLR", "MultiStepLR"]
    assert "(1 - x / total)" not in str(_vals(schedulers["LambdaLR"]))
    assert schedulers["LambdaLR"].note.endswith("for the warmup_stage config section")
    assert schedulers["MultiStepLR"].note.endswith("for the full_stage config section")


def test_a_branch_every_stage_selects_is_the_only_one(all_poly) -> None:
    (poly,) = _rows(all_poly, "scheduler")
    assert "(1 - x / total)" in _vals(poly)["lr_lambda"]
    assert "config section" not in poly.note
