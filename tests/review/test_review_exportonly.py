"""Classes and functions of a ported file that only files counted apart use (an export
script's wrappers) go with those files: counted apart, not priced (fixtures/exportonly)."""

from __future__ import annotations

from scan_helpers import REPO_ROOT

from apiscan.pipeline import ScanOptions
from apiscan.review.build import review

FIXTURE = REPO_ROOT / "fixtures" / "exportonly"


def test_export_wrappers_are_counted_apart_with_the_export() -> None:
    rv = review(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    [sentence] = [s for s in rv.effort.explanation if s.startswith("Used only by files")]
    # VALID: the wrapper export.py builds, and what only it builds and applies
    assert "det/models.py:End2EndExport (export.py)" in sentence
    assert "det/models.py:OnnxNms (via End2EndExport)" in sentence
    assert "det/models.py:NmsOp (via OnnxNms)" in sentence
    assert "3 classes or functions" in sentence
    # INVALID: the network and the loader the training uses too are ported
    assert "Net" not in sentence.replace("OnnxNms", "") and "attempt_load" not in sentence
    # none of the wrappers' sites is priced: no gap for the ONNX stand-in
    assert not any(g.api == "torch.autograd.Function" for g in rv.gaps)
    assert not any("NmsOp" in s for s in rv.effort.explanation if s.startswith("Not reached"))
