"""A type annotation is no call site: the scan keeps it as a finding (its usage says
``annotation``), and no count of call sites includes it, in the scan's summary, its tables or
the review's work."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo, write_repo

from apiscan.report.aggregation import api_frame
from apiscan.review.build import build_review

NET = """
    import torch
    from torch import nn


    class Head(nn.Module):
        def __init__(self, encoder: nn.Module, dim: int) -> None:
            super().__init__()
            self.encoder: nn.Module = encoder
            self.proj = nn.Linear(dim, dim)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.proj(self.encoder(x))


    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.head = Head(nn.Identity(), 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(x)


    def wrap(model: nn.Module) -> nn.Module:
        return model
"""


def test_annotations_are_findings_but_no_call_sites(tmp_path: Path) -> None:
    write_repo(tmp_path, {"net.py": NET})
    result = scan_repo(tmp_path)
    module = [f for f in result.api_findings if f.api == "torch.nn.Module"]
    # Head(nn.Module), Net(nn.Module); encoder:, self.encoder:, model: and -> nn.Module
    assert sorted(f.usage for f in module) == ["annotation"] * 4 + ["base_class"] * 2
    hints = [f for f in result.api_findings if f.usage == "annotation"]
    assert {f.api for f in hints} == {"torch.nn.Module", "torch.Tensor"}
    assert len(hints) == 8  # and the four torch.Tensor hints of the two forwards
    summary = result.summary()
    assert summary["call_sites"] == len(result.api_findings) - 8
    assert summary["call_sites"] == len(result.call_site_findings)
    by_status = summary["by_status"]
    assert isinstance(by_status, dict)
    assert sum(s["call_sites"] for s in by_status.values()) == summary["call_sites"]
    frame = api_frame(result)
    assert sum(1 for row in frame if row.api == "torch.nn.Module") == 2


def test_the_review_counts_no_annotation(tmp_path: Path) -> None:
    write_repo(tmp_path, {"net.py": NET})
    review = build_review(str(tmp_path), jobs=1)
    module = [g for g in review.gaps if g.api == "torch.nn.Module"]
    assert [(g.uses, g.disposition) for g in module] == [(2, "idiom")]
    network = [row for row in review.effort.by_disposition if row[0] == "idiom"]
    assert network and network[0][1] == 2  # the two base classes, not the hints
    covered = sum(n for per_status in review.coverage.values() for n in per_status.values())
    assert covered == len(scan_repo(tmp_path).call_site_findings)
