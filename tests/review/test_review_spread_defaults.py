"""Constructor code under a test of a parameter the config spreads in without setting it.

fixtures/jsonspread: ``Generator(**hps.model)`` with a JSON ``model`` section that has no
``n_speakers``: the parameter keeps its default 0, and the init under ``if n_speakers > 1:``
is no row; a weight copy under ``if proximal_init:``, which no call passes, is none either.
A copy whose config sets ``n_speakers: 4`` has the init row."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]
SPREAD = REPO / "fixtures" / "jsonspread"


@pytest.fixture(scope="module")
def single():
    return review_fixture(str(SPREAD))


@pytest.fixture(scope="module")
def speakers(tmp_path_factory):
    copy = tmp_path_factory.mktemp("spread") / "jsonspread"
    shutil.copytree(SPREAD, copy)
    path = copy / "configs" / "base.json"
    config = json.loads(path.read_text())
    config["model"]["n_speakers"] = 4
    path.write_text(json.dumps(config))
    return review_fixture(str(copy))


def _inits(review) -> list[str]:
    return sorted(r.name for r in review.recipe if r.category == "init")


def test_untaken_constructor_code_is_no_row(single) -> None:
    assert _inits(single) == ["torch.nn.init.normal_"]


def test_the_config_setting_the_key_brings_the_row(speakers) -> None:
    assert _inits(speakers) == ["torch.nn.init.normal_", "torch.nn.init.uniform_"]
