"""A model built from its YAML's layer names has the classes the model YAMLs name as its
parts; a class a star import re-exports but nothing writes, builds or names is not reached
(fixtures/yamlparts, as yolov7's ``models/yolo.py``: ``from models.common import *``)."""

from __future__ import annotations

from scan_helpers import REPO_ROOT

from apiscan.pipeline import ScanOptions
from apiscan.review.build import review

FIXTURE = REPO_ROOT / "fixtures" / "yamlparts"


def test_yaml_layers_are_the_models_parts_and_the_rest_is_not_reached() -> None:
    rv = review(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    by_cls = {m.cls: m for m in rv.modules}
    model = by_cls["net.yolo.Model"]
    # VALID: the YAML's layers are blocks of the model built from it
    assert model.role == "model"
    assert set(model.children) >= {"net.common.Conv", "net.common.Concat"}
    assert by_cls["net.common.Conv"].role == by_cls["net.common.Concat"].role == "block"
    # INVALID: the class no YAML names is no part, and the star import does not keep it
    assert "net.common.Unused" not in model.children
    [unreached] = [s for s in rv.effort.explanation if s.startswith("Not reached")]
    assert unreached.endswith("net/common.py:Unused.")
    assert "Conv" not in unreached and "Concat" not in unreached
