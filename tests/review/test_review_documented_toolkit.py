"""A toolkit's documented training run, given as a console command the packaging declares
(``kit-train ... --arch conv_small --optimizer adam --criterion smooth`` on a
getting-started page of the docs folder): the model, loss and optimizer it names are the
run's; what the registries hold beside them is what other commands train."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo
from toolkit_repo import FILES

from apiscan.review.build import build_review
from apiscan.review.commands import documented_runs


@pytest.fixture(scope="module")
def toolkit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    root = tmp_path_factory.mktemp("toolkit")
    write_repo(root, FILES)
    return root, build_review(str(root), jobs=1)


def test_a_console_command_of_a_docs_page_is_a_documented_run(toolkit) -> None:
    root, _ = toolkit
    scripts = {"kit-train": "kit_cli/train.py", "kit-generate": "kit_cli/generate.py"}
    runs = documented_runs(root, scripts)
    # the generation command trains nothing; a training scoring its validation set
    # (``--eval-bleu``) is still a training run
    # a fragment showing one option (``--fp16 (...)``) is no run
    assert [(r.path, r.line) for r in runs] == [
        ("docs/getting_started.md", 12),
        ("docs/getting_started.md", 22),
    ]
    assert runs[0].given(("--arch", "-a")) == ("conv_small",)


def test_the_documented_architecture_picks_the_top_model(toolkit) -> None:
    _, review = toolkit
    top = review.top_models[0]
    assert top.cls == "kit.models.conv.ConvModel"
    why = dict(top.parts)["selected by"]
    assert "--arch conv_small (an architecture of 'conv')" in why
    assert "docs/getting_started.md:12" in why
    # the models other commands train are alternatives, not models this run builds
    assert "kit.models.speech.SpeechModel" not in {m.cls for m in review.top_models}


def test_the_models_other_commands_train_are_no_work_of_this_run(toolkit) -> None:
    """The speech model (more architectures, a host round trip, a dynamic shape) is another
    command's model: none of its work is this run's."""
    _, review = toolkit
    assert not [i for i in review.work if any(w.path == "kit/models/speech.py" for w in i.where)]
    [shapes] = [e for e in review.effort.explanation if "dynamic-shape rewrite" in e]
    assert "speech.py" not in shapes
    assert "kit.models.speech.SpeechModel" in review.alternatives


def _rows(review, category: str) -> dict[str, dict[str, str]]:
    return {i.name: dict(i.values) for i in review.recipe if i.category == category}


def test_the_documented_command_picks_the_loss_and_optimizer(toolkit) -> None:
    """``--criterion smooth --optimizer adam``: the picked ones' rows, with the values the
    command passes their config dataclasses' fields (``--label-smoothing 0.2``); the other
    registered ones' rows (nag's warm-up) are not the run's, nor is their work (ctc's
    dynamic shape)."""
    _, review = toolkit
    losses = _rows(review, "loss")
    picked = losses["--criterion (picked by name)"]
    assert picked["default"] == '"ce"'
    assert picked["documented"] == '"smooth" (docs/getting_started.md:12)'
    assert picked["picked defined at"].startswith("kit/criterions/smooth.py:")
    assert losses["SmoothCriterionConfig.label_smoothing"] == {
        "value": "0.0",
        "documented": "0.2 (docs/getting_started.md:12)",
    }
    optimizers = _rows(review, "optimizer")
    assert optimizers["--optimizer (picked by name)"]["documented"] == (
        '"adam" (docs/getting_started.md:12)'
    )
    assert "torch.optim.Adam" in optimizers and "torch.optim.SGD" not in optimizers
    assert not [i for i in review.recipe if i.where.path == "kit/optim/nag.py"]
    [shapes] = [e for e in review.effort.explanation if "dynamic-shape rewrite" in e]
    assert "ctc.py" not in shapes
    assert {"kit.criterions.ctc.CtcCriterion", "kit.optim.nag.KitNag"} <= set(review.alternatives)
    # the picked loss stays the run's though only a loss left out names its class (a base)
    assert "kit.criterions.smooth.SmoothCriterion" not in review.alternatives


def test_the_first_documented_run_gives_every_value(toolkit) -> None:
    """The values are one run's: the speech model's later command (``--criterion ctc``)
    changes none, and the speech model's config fields are not the run's rows."""
    _, review = toolkit
    assert _rows(review, "loss")["--criterion (picked by name)"]["documented"].startswith(
        '"smooth"'
    )
    assert not [i for i in review.recipe if i.where.path == "kit/models/speech.py"]
    top = review.top_models[0]
    assert dict(top.parts)["encoder"].startswith("ConvEncoder")


def test_a_class_only_an_unpicked_model_builds_is_listed_with_the_alternatives(toolkit) -> None:
    """The speech model's encoder, built only in its ``build_model`` factory: another
    command's part, under the alternatives in the tree, not a root beside the run's model."""
    from apiscan.review.markdown import render_markdown

    _, review = toolkit
    assert "kit.models.speech.SpeechEncoder" in review.alternatives
    # the run's own parts stay the run's
    assert "kit.models.conv.ConvEncoder" not in review.alternatives
    tree = render_markdown(review).partition("## Network structure")[2].partition("| class |")[0]
    run, _, other = tree.partition("Alternatives the run's config does not pick")
    assert "**SpeechEncoder**" not in run and "**ConvEncoder**" in run
    assert "- **SpeechEncoder** (" in other
