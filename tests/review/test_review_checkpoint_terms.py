"""What a checkpoint's conversion maps follows the network: BatchNorm's gamma, beta and
moving statistics only where the network has BatchNorm layers (a transformer of RMSNorm and
Linear layers renames parameters, nothing more)."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FROZEN = """class FrozenBatchNorm(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.register_buffer("running_mean", torch.zeros(n))

        def forward(self, x):
            return x - self.running_mean"""

NET = """
    import torch
    from torch import nn


    {extra}


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)
            {norm}

        def forward(self, x):
            return self.norm(self.fc(x))


    def load(path):
        model = Net()
        model.load_state_dict(torch.load(path, map_location="cpu"))
        return model
"""


@pytest.mark.parametrize(
    ("norm", "mentioned"),
    [
        ("self.norm = nn.LayerNorm(8)", False),
        ("self.norm = nn.BatchNorm1d(8)", True),
        # a repository's frozen BatchNorm with its own running statistics
        ("self.norm = FrozenBatchNorm(8)", True),
    ],
)
def test_batchnorm_terms_only_for_a_network_with_batchnorm(
    tmp_path, norm: str, mentioned: bool
) -> None:  # type: ignore[no-untyped-def]
    extra = FROZEN if "Frozen" in norm else "pass"
    root = write_repo(tmp_path, {"model.py": NET.replace("{norm}", norm).replace("{extra}", extra)})
    (checkpoint,) = [i for i in build_review(str(root)).work if i.kind == "checkpoint"]
    assert ("BatchNorm" in checkpoint.why) is mentioned
    assert "parameter names" in checkpoint.why
