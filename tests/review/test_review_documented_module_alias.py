"""A layer library whose README uses it through a module alias (``import adapt as ad`` ...
``ad.Dense(...)`` in a later block), its package re-exporting the layers with a star
import, and whose only training script lives in an examples folder counted apart: the
documented layers are the library's product, ported and priced, not code only the
examples use. A layer subclass calling its torch base's constructor by name is the Cell
skeleton, no custom op."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

_LAYERS = """
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Dense(nn.Linear):
    def __init__(self, in_features, out_features, r=0, **kwargs):
        nn.Linear.__init__(self, in_features, out_features, **kwargs)
        self.r = r
        self.down = nn.Parameter(self.weight.new_zeros((r, in_features)))
        self.up = nn.Parameter(self.weight.new_zeros((out_features, r)))
        nn.init.kaiming_uniform_(self.down, a=math.sqrt(5))

    def forward(self, x):
        return F.linear(x, self.weight, self.bias) + x @ self.down.t() @ self.up.t()
"""

_EXAMPLE = """
import torch
import adapt as ad


def main():
    model = torch.nn.Sequential(ad.Dense(8, 8, r=2))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(3):
        loss = model(torch.randn(2, 8)).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""

_README = """
# adapt

```python
import adapt as ad
```

Replace a layer:

```python
layer = ad.Dense(in_features, out_features, r=16)
```
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(
        tmp_path_factory.mktemp("alias") / "repo",
        {
            "adapt/__init__.py": "from .layers import *\n",
            "adapt/layers.py": _LAYERS,
            "examples/toy/train.py": _EXAMPLE,
            "README.md": _README,
        },
    )
    return build_review(str(root), jobs=1)


def test_the_documented_layer_is_ported(review: Review) -> None:
    apart = [e for e in review.effort.explanation if e.startswith("Used only by files")]
    assert not any("layers.py:Dense" in e for e in apart), apart
    assert review.effort.person_days[1] > 0


def test_a_base_constructor_called_by_name_is_no_custom_op(review: Review) -> None:
    assert review.effort.custom_ops == 0
    assert not any("Linear.__init__" in g.api and g.disposition == "custom-op" for g in review.gaps)


def test_a_torch_layer_constructor_is_composed_not_a_custom_op() -> None:
    from apiscan.rewrite.composed import composed

    assert "mindspore.nn.Dense" in composed("torch.nn.Linear.__init__")
    assert composed("torch.nn.functional.linear.__init__") == ""
