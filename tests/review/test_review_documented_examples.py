"""A library trained only by its README's Python example (issue 20 points 4 and 5), on
fixtures/docexamples: ``lib/__init__.py`` re-exports ``Model`` and ``Trainer`` from
``lib/core.py``; the README imports both from the package and runs the trainer; a subclass
of ``Model`` nothing builds and a same-named ``Model`` in another module sit beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import documented_imports


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/docexamples")


def _not_reached(review) -> str:
    return next((s for s in review.effort.explanation if s.startswith("Not reached")), "")


def test_what_the_readme_example_builds_is_reached_and_priced(review) -> None:
    told = _not_reached(review)
    # VALID: the model the example imports from the package, and the block it builds
    assert "lib/core.py:Model" not in told
    assert "lib/core.py:Block" not in told
    # INVALID: a same-named class of another module, a subclass nothing builds
    assert "lib/other.py:Model" in told
    assert "lib/extra.py:BigModel" in told


def test_the_examples_imports_that_they_call() -> None:
    from scan_helpers import REPO_ROOT

    found = documented_imports(Path(REPO_ROOT) / "fixtures/docexamples")
    assert found == {("lib", "Model"), ("lib", "Trainer")}


def _row(review, category: str) -> dict[str, str]:
    return next(dict(r.values) for r in review.recipe if r.category == category)


def test_the_recipe_reads_the_values_the_example_passes(review) -> None:
    # VALID: the learning rate the example passes, with where it is written
    lr = _row(review, "optimizer")["lr"]
    assert lr.startswith("3e-4 (passed by the documentation's example at README.md:")
    assert "1e-4" in lr  # the default it replaces, told
    # and the wrapper's precision takes the branch the example's flag picks
    amp = next(dict(r.values) for r in review.recipe if "mixed_precision" in r.name)
    assert amp["mixed_precision"].startswith('"fp16"')
    # INVALID: a keyword the examples pass with different values (32 in one, 8 in the
    # other) is no one run's: the default stays
    assert _row(review, "dataloader")["batch_size"].startswith("16 (default of parameter")


def test_a_variant_module_trying_its_own_copy_out_is_an_alternative(review) -> None:
    # VALID: the variant's copy, built only under its ``__main__``, is an alternative
    told = next((s for s in review.effort.explanation if s.startswith("Alternatives")), "")
    assert "lib/variant.py:Model" in told
    assert "lib.variant.Model" in review.alternatives
    # INVALID: the model the example builds is no alternative
    assert "lib.core.Model" not in review.alternatives


def test_the_kernels_an_attention_context_picks_from_are_deleted(review) -> None:
    # VALID: the backends are the choices of a kernel switch MindSpore has no need of
    members = [g for g in review.gaps if g.api.startswith("torch.nn.attention.SDPBackend")]
    assert members and all(g.disposition == "delete" for g in members)
    # INVALID: none is a gap priced as work with nothing known
    assert not [g for g in members if g.disposition == "gap"]


def test_the_top_model_is_the_one_the_example_hands_its_trainer(review) -> None:
    # VALID: the package's model the README builds and trains, told so
    assert [t.cls for t in review.top_models] == ["lib.core.Model"]
    selected = dict(review.top_models[0].parts)["selected by"]
    assert selected.startswith("the model the documentation's example builds (README.md:")
    # INVALID: the variant module's self-tried copy is no top model
    assert "lib.variant.Model" not in {t.cls for t in review.top_models}


def test_the_trainer_the_example_runs_has_its_library_machinery_priced(review) -> None:
    # VALID: accelerate's wrapper, built by the trainer the README runs, is a work item
    items = [i for i in review.work if i.kind == "training-library"]
    assert [w.path for i in items for w in i.where] == ["lib/core.py"]


def test_a_variant_modules_trainer_nothing_runs_gives_no_recipe(review) -> None:
    # INVALID: the variant's SGD trainer, which no example and no file runs
    assert not [r for r in review.recipe if r.where.path == "lib/variant.py"]
    # VALID: the documented trainer's optimizer
    assert [r.name for r in review.recipe if r.category == "optimizer"] == ["torch.optim.Adam"]
