"""Mixed precision written by hand in the network (stylegan2-ada's blocks: ``dtype =
torch.float16 if self.use_fp16 else torch.float32``, then ``x.to(dtype=dtype)`` in
``forward``), no autocast or GradScaler: a mixed-precision row with the dtype as the code
picks it (here the model is built with ``use_fp16=True``). A cast back to float32 is
none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

FILES = {
    "net.py": """
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self, use_fp16=False):
                super().__init__()
                self.use_fp16 = use_fp16
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                dtype = torch.float16 if self.use_fp16 else torch.float32
                x = x.to(dtype=dtype)
                y = self.fc(x)
                return y.to(torch.float32)
    """,
    "train.py": """
        import torch

        from net import Block


        def main():
            model = Block(use_fp16=True)
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(3):
                model(torch.zeros(1, 4)).sum().backward()
                opt.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_a_hand_written_half_cast_in_the_network_is_a_precision_row(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", FILES)
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    rows = [i for i in extract_recipe(result, analyses, root) if i.category == "amp"]
    assert [(r.name, r.where.line, dict(r.values)["dtype"]) for r in rows] == [
        ("torch.Tensor.to", 13, "torch.float16")  # ``use_fp16=True`` where it is built
    ]
