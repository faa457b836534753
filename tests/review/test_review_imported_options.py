"""Options declared in a module of their own (``opts.py``'s ``parser``, imported by the
training script ``main.py``): the documented command runs ``main.py``, so what it passes
(``--shift``, ``--lr 0.02``) is what those options hold in the run, and the branch a
passed flag switches on (``if args.shift:`` building the temporal shift) is the run's,
not an alternative nothing picks. A test script importing the same options is another run:
the training script's command wins."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.readings import Readings

FILES = {
    "README.md": """
        # Video model

        Evaluate:

        ```bash
        python test.py --lr 0.5
        ```

        Train:

        ```bash
        python main.py kinetics --lr 0.02 --shift --epochs 50
        ```
    """,
    "opts.py": """
        import argparse

        parser = argparse.ArgumentParser()
        parser.add_argument("dataset", type=str)
        parser.add_argument("--lr", default=0.001, type=float)
        parser.add_argument("--epochs", default=120, type=int)
        parser.add_argument("--shift", default=False, action="store_true")
        parser.add_argument("--dense", default=False, action="store_true")
    """,
    "test.py": """
        from opts import parser

        args = parser.parse_args()
        print(args.lr)
    """,
    "main.py": """
        import torch
        from opts import parser


        def main():
            args = parser.parse_args()
            model = torch.nn.Linear(4, 2)
            optimizer = torch.optim.SGD(model.parameters(), args.lr)
            for _ in range(args.epochs):
                loss = model(torch.randn(2, 4)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_the_training_command_gives_the_imported_options(tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path, FILES)
    analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    values = Readings(root, analyses).argparse.values()
    assert values["shift"] == {True}
    assert values["lr"] == {0.02}
    assert values["epochs"] == {50}
    assert values["dense"] == {False}  # not passed: the default stays


def test_a_positional_argument_takes_the_word_in_its_place(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``python main.py kinetics RGB --lr 0.02``: the positional arguments, in declaration
    order, hold the words before the first option; a placeholder the reader fills in
    (``<dataset>``) is no value."""
    files = dict(FILES)
    files["opts.py"] = files["opts.py"].replace(
        'parser.add_argument("dataset", type=str)',
        'parser.add_argument("dataset", type=str)\n'
        '        parser.add_argument("modality", type=str)',
    )
    files["README.md"] = files["README.md"].replace("main.py kinetics", "main.py kinetics RGB")
    root = write_repo(tmp_path / "given", files)
    analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    values = Readings(root, analyses).argparse.values()
    assert values["dataset"] == {"kinetics"} and values["modality"] == {"RGB"}
    assert values["lr"] == {0.02}
    files["README.md"] = files["README.md"].replace("main.py kinetics RGB", "main.py <dataset>")
    root = write_repo(tmp_path / "placeholder", files)
    analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    values = Readings(root, analyses).argparse.values()
    assert values["dataset"] == {None} and values["modality"] == {None}


def test_the_recipe_takes_the_branch_a_positional_argument_picks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``python main.py kinetics RGB``: the loss built under ``if args.modality == 'RGB':``
    is the run's, the one of the ``else`` another modality's."""
    files = dict(FILES)
    files["opts.py"] = files["opts.py"].replace(
        'parser.add_argument("dataset", type=str)',
        'parser.add_argument("dataset", type=str)\n'
        '        parser.add_argument("modality", type=str)',
    )
    files["README.md"] = files["README.md"].replace("main.py kinetics", "main.py kinetics RGB")
    files["main.py"] = files["main.py"].replace(
        "            for _ in range(args.epochs):",
        "            if args.modality == 'RGB':\n"
        "                criterion = torch.nn.CrossEntropyLoss()\n"
        "            else:\n"
        "                criterion = torch.nn.MSELoss()\n"
        "            for _ in range(args.epochs):",
    )
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    losses = [i.name for i in review.recipe if i.category == "loss"]
    assert losses == ["torch.nn.CrossEntropyLoss"]
