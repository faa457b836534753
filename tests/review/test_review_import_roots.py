"""A folder of scripts that is no package imports a namespace folder beside it
(Depth-Anything's ``metric_depth/train_mono.py``: ``from zoedepth.models.builder import
build_model``, ``zoedepth/`` without ``__init__.py``): the files below are importable by
their names relative to the scripts' folder, so the imports resolve and a core the builder
imports but never builds is dead code, its hub load and hooks no work: fixtures/nsroot."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.discovery import discover
from apiscan.review.model import Review

_ROOT = REPO_ROOT / "fixtures/nsroot"


def test_a_namespace_folder_beside_a_script_is_named_from_the_scripts_folder() -> None:
    _, files, _ = discover(_ROOT)
    modules = {f.relpath: f.modules for f in files}
    # VALID: finetune/train.py imports zoe.models.builder; zoe/ has no __init__.py
    assert "zoe.models.cores" in modules["finetune/zoe/models/cores.py"]
    assert modules["finetune/zoe/models/cores.py"][0] == "models.cores"  # the chain stays first
    # INVALID: nothing in tools/ imports shapes: no name relative to tools/
    assert "shapes.circle" not in modules["tools/shapes/circle.py"]


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/nsroot")


def test_a_core_imported_beside_the_one_built_is_no_work(review: Review) -> None:
    # INVALID: HubCore is imported by the builder but never built: no hub backbone, no hook
    assert not any("MiDaS" in i.what for i in review.work)
    hooks = [i.what for i in review.work if i.kind == "forward-hook"]
    # VALID: the core the builder builds registers a hook: work
    assert hooks == ["LocalCore.__init__: register_forward_hook"]


def test_a_script_running_a_trainer_picked_by_name_trains_its_model(review: Review) -> None:
    """train.py gets its trainer from ``zoe/trainers/builder.py``, which imports the
    training file beside it by name (``import_module``): the model the script builds is
    trained, not "inference only"."""
    (top,) = review.top_models
    assert top.cls.endswith("builder.ZoeNet")
    assert "trained by" not in dict(top.parts)
