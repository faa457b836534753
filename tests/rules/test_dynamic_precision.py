"""False dynamic-shape findings found on repositories nobody had tuned for, one snippet per
class of error: exactly the lines marked ``# expect: DSxxx`` are reported. Each snippet keeps a
twin that must still be reported, so that a fix which only silences is caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo, write_repo

CASES = {
    # A detector's strides live in the model (a buffer or an attribute set when it is built):
    # reading one on the host reads a constant, and sizes computed from it are static. A
    # maximum read from the scores is data.
    "model_state_is_no_data": """
        import torch
        from torch import nn


        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.stride = torch.tensor([8.0, 16.0, 32.0])

            def forward(self, x):
                return x * int(self.stride.max())


        def warm_up(model, size: int, scores: torch.Tensor):
            grid = max(int(model.stride.max()), 32)
            side = size // grid * grid
            blank = torch.zeros(1, 3, side, side)
            top = int(scores.max())  # expect: DS118
            picked = torch.zeros(top)  # expect: DS113
            return blank, picked
    """,
    # A helper written for numpy arrays, whose methods share names with a tensor's, returns
    # an array when it is handed one: its comparisons branch on host numbers, not on data. The
    # same helper handed a tensor returns a tensor.
    "numpy_through_a_helper": """
        import numpy as np
        import torch


        def weighted(x):
            w = [0.1, 0.9]
            return (x[:, :2] * w).sum(1)


        def keep_best(results, best):
            score = weighted(np.array(results).reshape(1, -1))
            if score > best:
                best = score
            return best


        def keep_best_on_device(preds: torch.Tensor, best):
            score = weighted(preds)
            if score > best:  # expect: DS116
                best = score
            return best
    """,
    # A parameter annotated with a plain Python type is a host value, whatever a caller
    # passes for it (here a tensor, by mistake or through a keyword of the same name); an
    # unannotated one that receives a tensor reads data.
    "plain_annotation_wins": """
        import torch


        def step(x: torch.Tensor, use_cache: bool | None = None):
            if use_cache:
                x = x + 1
            return x


        def step_any(x: torch.Tensor, flag=None):
            if flag:  # expect: DS116
                x = x + 1
            return x


        def run(x: torch.Tensor):
            y = step(x, use_cache=(x > 0).any())
            return step_any(y, flag=(x > 0).any())
    """,
    # A mask a factory filled with constants selects a number of elements the code decides
    # (the tokens a decoder may emit): a static shape. Once an index read from data is stored
    # into it (NMS survivors), it is a data mask like any other.
    "constant_masks": """
        import torch


        def suppress(logits: torch.Tensor, banned: list[int]):
            allowed = torch.ones(logits.shape[-1], dtype=torch.bool)
            allowed[banned] = False
            logits[:, ~allowed] = -1e9
            return logits[:, allowed]


        def survivors(boxes: torch.Tensor, scores: torch.Tensor):
            order = scores.argsort(descending=True)
            kept = torch.nonzero(scores[order] > 0.5)  # expect: DS103
            keep_mask = torch.zeros_like(scores, dtype=torch.bool)
            keep_mask[kept] = True
            return boxes[keep_mask]  # expect: DS104


        def refilled(x: torch.Tensor, scores: torch.Tensor):
            picked = torch.zeros(x.shape[0], dtype=torch.bool)
            picked[:] = scores > 0.5
            return x[picked]  # expect: DS104
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_class(tmp_path: Path, name: str) -> None:
    write_repo(tmp_path, {f"{name}.py": CASES[name]})
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=1)
