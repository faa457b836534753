"""An argparse option whose ``type=`` maps words to bools (a ``str2bool`` helper of the
repository, imported or defined beside the parser, or a lambda testing the word) holds
True or False: the recipe shows the bool a documented command's ``--model_ema true`` and a
string default ``default='True'`` give, never the word, and the run's branches read it."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.readings import Readings

FILES = {
    "utils.py": """
        import argparse


        def str2bool(v):
            if isinstance(v, bool):
                return v
            if v.lower() in ("yes", "true", "t", "y", "1"):
                return True
            elif v.lower() in ("no", "false", "f", "n", "0"):
                return False
            else:
                raise argparse.ArgumentTypeError("Boolean value expected.")


        def str2list(v):
            return v.split(",")
    """,
    "main.py": """
        import argparse

        import torch
        from torch import nn

        from utils import str2bool, str2list


        def get_args():
            parser = argparse.ArgumentParser()
            parser.add_argument("--lr", type=float, default=0.1)
            parser.add_argument("--model_ema", type=str2bool, default=False)
            parser.add_argument("--use_amp", type=str2bool, default="True")
            parser.add_argument("--pin_mem", type=lambda x: x.lower() == "true", default="false")
            parser.add_argument("--names", type=str2list, default="a,b")
            return parser.parse_args()


        def main(args):
            model = nn.Linear(4, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            scaler = torch.cuda.amp.GradScaler(enabled=args.use_amp)
            for x, y in [(torch.randn(2, 4), torch.randn(2, 2))]:
                loss = nn.functional.mse_loss(model(x), y)
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()


        if __name__ == "__main__":
            main(get_args())
    """,
    "README.md": """
        # Train

        ```
        python main.py --lr 0.5 --model_ema true --use_amp false --names c,d
        ```
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("booltypes"), FILES)
    return build_review(str(root), jobs=1)


def _option(review: Review, option: str) -> dict[str, str]:
    rows = [i for i in review.recipe if i.name == f"argparse {option}"]
    assert rows, option
    return dict(rows[0].values)


def test_a_documented_word_given_a_str2bool_option_is_the_bool(review: Review) -> None:
    ema = _option(review, "--model_ema")
    assert ema["default"] == "False"
    assert ema["launched"].startswith("True (README.md:4")
    amp = _option(review, "--use_amp")
    # the string default goes through ``type=`` as argparse passes it: a bool
    assert amp["default"] == "True"
    assert amp["launched"].startswith("False (README.md:4")


def test_the_options_table_holds_the_bools(tmp_path: Path) -> None:
    root = write_repo(tmp_path, FILES)
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    table = Readings(root, analyses).argparse
    values = table.values()
    assert values["model_ema"] == {True}
    assert values["use_amp"] == {False}
    assert values["pin_mem"] == {False}  # a lambda testing the word, its string default
    assert values["names"] == {"c,d"}
    assert {o.dest for o in table.all if o.boolean} == {"model_ema", "use_amp", "pin_mem"}
