"""A yacs repository whose training command is documented on a root Markdown page
(SlowFast-like: ``GETTING_STARTED.md`` runs ``tools/run_net.py --cfg X.yaml KEY VALUE ...``):
that YAML is the run's config, and the names it gives (``MODEL.MODEL_NAME: ResNet``) pick
the model a registry builds over the Python default."""

from __future__ import annotations

import pytest
from registry_repo import FILES
from scan_helpers import write_repo

from apiscan.review.build import build_review


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("runcfg"), FILES)
    return build_review(str(root))


def test_the_documented_yaml_picks_the_registry_model(review) -> None:  # type: ignore[no-untyped-def]
    top = review.top_models[0]
    assert top.cls.endswith("nets.OnePath")
    assert "configs/K/ONE.yaml" in dict(top.parts)["selected by"]


def test_the_documented_yaml_and_its_overrides_are_the_recipe(review) -> None:  # type: ignore[no-untyped-def]
    shown = {(i.category, i.name): dict(i.values) for i in review.recipe}
    batch = next(v for (c, _), v in shown.items() if c == "batch_size")
    assert batch["value"].startswith("8 (on the training command at GETTING_STARTED.md:4")
    seeds = [v["seed"] for (c, _), v in shown.items() if c == "seed"]
    assert seeds and all(s.startswith("0 (cfg.RNG_SEED: 0 in configs/K/ONE.yaml") for s in seeds)


def test_the_registry_s_other_models_are_alternatives_not_work(review) -> None:  # type: ignore[no-untyped-def]
    """``MODEL_REGISTRY.get(cfg.MODEL.MODEL_NAME)`` with the run's YAML naming ``OnePath``:
    ``TwoPath`` is what another config builds, listed as an alternative and not priced."""
    parts = dict(review.top_models[0].parts)
    assert parts["alternatives"].startswith("TwoPath (nets.TwoPath; named by 1 of 2 YAML")
    said = " ".join(review.effort.explanation)
    assert "Alternatives the run's config does not pick: 1 class" in said
    assert "vid/models/nets.py:TwoPath" in said
