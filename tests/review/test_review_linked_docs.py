"""The training command on a documentation page the README sends its reader to
("Please refer to the [training documentation](documentation/training.md)"), in a folder
not named ``docs``: its options are the launched values, as a root page's would be. A page
the README does not link to, and a link leaving the repository, give none."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.commands import launch_commands
from apiscan.review.model import Review

COMMAND = """
    # Training

    ```sh
    python train.py \\
        --learning-rate 0.0001 \\
        --epochs 20
    ```
"""

FILES = {
    "README.md": """
        # A model

        | model | size |
        | ----- | ---: |
        | small | 14M |

        Please refer to the [training documentation](documentation/training.md) to train.
        Inference: <a href="documentation/inference.md#pytorch">Doc</a>, and
        [elsewhere](../outside.md).
    """,
    "documentation/training.md": COMMAND,
    "documentation/inference.md": "# Inference\n",
    "notes/old.md": COMMAND.replace("0.0001", "0.5"),
    "train.py": """
        import argparse

        import torch


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--learning-rate", type=float, required=True)
            parser.add_argument("--epochs", type=int, default=10)
            args = parser.parse_args()
            model = torch.nn.Linear(4, 2)
            optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
            for _ in range(args.epochs):
                loss = model(torch.randn(8, 4)).pow(2).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_repo(tmp_path_factory.mktemp("linked_docs"), FILES)


def test_the_linked_page_commands_are_read(repo: Path) -> None:
    pages = {path for path, _, _, _ in launch_commands(repo)}
    assert "documentation/training.md" in pages
    assert "notes/old.md" not in pages


def test_the_launched_values_come_from_the_linked_page(repo: Path) -> None:
    review: Review = build_review(str(repo), jobs=1)
    [adam] = [i for i in review.recipe if i.name == "torch.optim.Adam"]
    assert dict(adam.values)["lr"].startswith("0.0001 (")
    assert "documentation/training.md:" in dict(adam.values)["lr"]


def test_a_readme_with_commands_of_its_own_keeps_them(tmp_path: Path) -> None:
    """The README's own training command is the run's; a linked page (training on custom
    data) is another setup, not read for the launched values."""
    files = dict(FILES)
    files["README.md"] = """
        # A model

        Train: `python train.py --learning-rate 0.002`

        Custom data: see [the custom data page](documentation/training.md).
    """
    repo = write_repo(tmp_path, files)
    pages = {path for path, _, _, _ in launch_commands(repo)}
    assert pages == {"README.md"}
