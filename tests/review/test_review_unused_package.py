"""A subpackage nothing imports is not ported (issue 20, effort from the parts ported).

fixtures/vendoredlib: ``pkg/lib/utils/data/`` is a copy of an old torch DataLoader that no
file imports (the training uses torch's own); ``pkg/ops/__init__.py`` is never imported by
name but runs whenever ``pkg.ops.fused`` is imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "vendoredlib"


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(FIXTURE))


def test_an_unimported_subpackage_and_what_only_it_imports_are_apart(review) -> None:
    assert dict(review.ancillary) == {
        "pkg/lib/utils/data/__init__.py": "unused (nothing imports it)",
        "pkg/lib/utils/data/dataloader.py": (
            "unused (imported only from pkg/lib/utils/data/__init__.py)"
        ),
        "pkg/lib/utils/data/sampler.py": (
            "unused (imported only from pkg/lib/utils/data/dataloader.py)"
        ),
    }


def test_its_gaps_are_not_priced_and_a_package_run_by_its_module_stays(review) -> None:
    gaps = [row for row in review.effort.by_disposition if row[0] == "gap"]
    assert gaps == [("gap", 0, 1, 1)]  # torch.ShortTensor in pkg/ops/__init__.py
    assert "torch.ShortTensor" in review.effort.explanation[1]
    assert "torch.CharTensor" not in review.effort.explanation[1]
    assert "SimpleQueue" not in review.effort.explanation[1]
    assert review.effort.person_days == (2.9, 5.8)
