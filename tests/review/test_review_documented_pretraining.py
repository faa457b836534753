"""A repository of several training scripts, each a task of its own, that its README runs
from HTML code blocks (``<pre>python -m torch.distributed.run ... train_a.py \\``, the
block's last line ending ``</pre>``): the tags are no words of the commands, so the
commands are read. A pretraining script named so (``pretrain.py``, "train" not a word of
its own) that the README runs is one of the trainings, its optimizer and schedule rows the
recipe's, not a tool's."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.commands import documented_scripts

_SCRIPT = """
    import argparse

    import torch

    from model import Net


    def main(args):
        model = Net()
        optimizer = torch.optim.AdamW(model.parameters(), lr={lr})
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--output_dir', default='out')
        main(parser.parse_args())
"""

FILES = {
    "README.md": """
        # Two tasks

        1. Fine-tune on task A:
        <pre>python -m torch.distributed.run --nproc_per_node=8 train_a.py \\
        --output_dir output/a </pre>
        2. Fine-tune on task B:
        <pre>python -m torch.distributed.run --nproc_per_node=8 train_b.py --output_dir b</pre>
        3. Pre-train:
        <pre>python -m torch.distributed.run --nproc_per_node=8 pretrain.py --output_dir p </pre>
    """,
    "model.py": """
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x)
    """,
    "train_a.py": _SCRIPT.format(lr="1e-5"),
    "train_b.py": _SCRIPT.format(lr="2e-5"),
    "pretrain.py": _SCRIPT.format(lr="3e-4"),
}


@pytest.fixture(scope="module")
def review(tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("pretraining"), FILES)))


def test_commands_in_html_code_blocks_are_read(tmp_path: Path) -> None:
    root = write_repo(tmp_path, FILES)
    scripts = {p: p for p in ("train_a.py", "train_b.py", "pretrain.py")}
    assert documented_scripts(root, scripts) == frozenset(scripts)


def test_the_documented_pretraining_is_a_training_not_a_tool(review) -> None:  # type: ignore[no-untyped-def]
    optimizers = {
        item.where.path: dict(item.values).get("lr")
        for item in review.recipe
        if item.category == "optimizer"
    }
    assert optimizers == {"train_a.py": "1e-5", "train_b.py": "2e-5", "pretrain.py": "3e-4"}
