"""Config values the training really runs with (issue 20, the recipe from what runs).

fixtures/launchopts: a training script whose argparse defaults the shell scripts beside it
override, stage by stage; only launches of that very script count, and only the options it
declares. fixtures/dictcfg: an ``EasyDict`` of settings merged with argparse
(``get_args(**Cfg)``, ``cfg.update(vars(parser.parse_args()))``, ``return edict(cfg)``): the
last writer of a key wins."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import launches

REPO = Path(__file__).resolve().parents[2]
LAUNCH = REPO / "fixtures" / "launchopts"
DICTCFG = REPO / "fixtures" / "dictcfg"


def _value(review, name: str, key: str) -> str:
    rows = [i for i in review.recipe if i.name == name]
    assert rows, name
    return dict(rows[0].values)[key]


@pytest.fixture(scope="module")
def launched():
    return review_fixture(str(LAUNCH))


@pytest.fixture(scope="module")
def merged():
    return review_fixture(str(DICTCFG))


def test_the_launches_of_a_script_and_the_words_they_give_its_options() -> None:
    runs = launches(LAUNCH, "train.py")
    # the README names train_standard.sh first; evaluate.py's command is no launch of train.py
    assert [(r.path, r.line) for r in runs] == [
        ("train_standard.sh", 3),
        ("train_standard.sh", 5),
        ("train_mixed.sh", 2),
    ]
    first = runs[0]
    assert first.given(("--lr",)) == ("0.0004",)
    assert first.given(("-b", "--batch_size")) == ("10",)
    assert first.given(("--image_size",)) == ("368", "496")
    assert first.given(("--gamma",)) is None
    assert runs[1].given(("--gamma",)) == ("0.85",)
    assert runs[2].given(("--mixed_precision",)) == ()
    assert runs[2].given(("--batch_size",)) == ("$BATCH",)
    assert launches(LAUNCH, "missing.py") == []


def test_a_launch_script_value_replaces_the_argparse_default(launched) -> None:
    lr = _value(launched, "torch.optim.AdamW", "lr")
    assert lr.startswith("0.0004 (args.lr: --lr in train_standard.sh:3 (run flow-chairs)")
    assert "later runs: flow-things 0.000125" in lr
    assert "train_mixed.sh: 0.00025" in lr
    assert "default 0.00002" in lr
    # the short flag -b spells the same option
    assert _value(launched, "torch.utils.data.DataLoader", "batch_size").startswith("10 (")
    assert _value(launched, "argparse --lr", "default") == "0.00002"
    assert _value(launched, "argparse --lr", "launched").startswith("0.0004 (train_standard.sh:3")


def test_what_no_launch_gives_keeps_its_default(launched) -> None:
    # evaluate.py's --lr 0.9 and the undeclared --not_an_option change nothing
    assert all("0.9" not in v for i in launched.recipe for _, v in i.values)
    assert all("not_an_option" not in v for i in launched.recipe for _, v in i.values)
    # the main script leaves --mixed_precision unset: the default stands, the other says True
    enabled = _value(launched, "torch.cuda.amp.GradScaler", "enabled")
    assert enabled.startswith("False (") and "train_mixed.sh: True" in enabled
    # a shell variable is shown as such, never as a number
    assert "train_mixed.sh: $BATCH" in _value(launched, "argparse --batch_size", "launched")


def test_an_attribute_dict_merged_with_argparse_takes_the_last_writer(merged) -> None:
    # -optimizer defaults to 'adam' over Cfg's 'sgd': the Adam branch runs, SGD does not
    names = [i.name for i in merged.recipe if i.category == "optimizer"]
    assert "torch.optim.Adam" in names and "torch.optim.SGD" not in names
    lr = _value(merged, "torch.optim.Adam", "lr")
    assert lr.startswith("1.5625e-05 (= config.learning_rate / config.batch")
    assert "config.learning_rate = 0.001" in lr and "config.batch = 64" in lr
    # keys argparse does not declare are Cfg's; a key set twice keeps its last value
    assert _value(merged, "torch.optim.lr_scheduler.StepLR", "gamma").startswith("0.1 (")
    assert _value(merged, "torch.optim.lr_scheduler.StepLR", "step_size").startswith("1000 (")
    assert _value(merged, "torch.utils.data.DataLoader", "batch_size").startswith("4 (")


def test_a_lambda_schedule_shows_each_branch_factor_with_its_settings(merged) -> None:
    rows = [i for i in merged.recipe if i.name == "torch.optim.lr_scheduler.LambdaLR"]
    assert dict(rows[0].values)["factor"] == (
        "pow(i / 1000, 4) if i < 1000; 1.0 if i < 400000; 0.1 if i < 450000; 0.01 otherwise"
    )
    warm = [i for i in merged.recipe if i.name == "LambdaLR warm-up"]
    assert dict(warm[0].values) == {"factor": "pow(i / 1000, 4)", "while": "i < 1000"}
    # a factor picked by a setting, not the step, is no warm-up
    flat = [i for i in merged.recipe if i.name == "torch.optim.lr_scheduler.MultiplicativeLR"]
    assert dict(flat[0].values)["factor"] == "1.0 if 1000 > 0; 0.5"
    assert not [i for i in merged.recipe if i.name == "MultiplicativeLR warm-up"]


def test_a_builder_returning_another_object_is_no_dict_of_its_settings(tmp_path: Path) -> None:
    """``return Holder(cfg)``: a class built from the dict, not the dict wrapped; its
    attributes are not the dict's entries (``return edict(cfg)`` is)."""
    (tmp_path / "train.py").write_text(
        "import torch\n"
        "from torch import nn\n"
        "from easydict import EasyDict\n\n\n"
        "class Holder:\n"
        "    def __init__(self, cfg):\n"
        "        self.cfg = cfg\n\n\n"
        "def build(**kwargs):\n"
        "    cfg = kwargs\n"
        "    return Holder(cfg)\n\n\n"
        "def wrapped(**kwargs):\n"
        "    cfg = kwargs\n"
        "    cfg['momentum'] = 0.8\n"
        "    return EasyDict(cfg)\n\n\n"
        "def train(opts, settings):\n"
        "    model = nn.Linear(2, 2)\n"
        "    torch.optim.SGD(model.parameters(), lr=opts.lr, momentum=settings.momentum)\n\n\n"
        "if __name__ == '__main__':\n"
        "    train(build(lr=0.5), wrapped(momentum=0.9))\n"
    )
    review = review_fixture(str(tmp_path))
    assert not _value(review, "torch.optim.SGD", "lr").startswith("0.5")
    # the entry set after the caller's keywords wins
    assert _value(review, "torch.optim.SGD", "momentum").startswith("0.8 (")


def test_an_option_takes_only_the_words_its_declaration_allows(tmp_path: Path) -> None:
    """argparse gives a plain option one word and a flag none: the README's trailing
    ``[your imagenet-folder with train and val folders]`` is the positional, never more
    values of ``--rank`` or of the ``store_true`` flag before it."""
    (tmp_path / "README.md").write_text(
        "```\npython train.py --lr 0.03 --sizes 368 496 --rank 0 \\\n"
        "  [your imagenet-folder with train and val folders]\n"
        "python train.py --lr 0.03 --cos /data/imagenet\n```\n",
        "utf-8",
    )
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch\n\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('data')\n"
        "parser.add_argument('--lr', default=0.1, type=float)\n"
        "parser.add_argument('--sizes', nargs=2, type=int, default=[1, 1])\n"
        "parser.add_argument('--rank', default=-1, type=int)\n"
        "parser.add_argument('--cos', action='store_true')\n"
        "args = parser.parse_args()\n"
        "model = torch.nn.Linear(2, 2)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=args.lr)\n"
        "torch.distributed.init_process_group('nccl', rank=args.rank)\n"
        "for x in range(3):\n"
        "    loss = model(torch.zeros(2)).sum()\n"
        "    loss.backward()\n"
        "    opt.step()\n",
        "utf-8",
    )
    first, second = launches(tmp_path, "train.py")
    assert first.given(("--rank",), 1) == ("0",)
    assert first.given(("--sizes",), 2) == ("368", "496")
    assert second.given(("--cos",), 0) == ()
    # without a count every word up to the next flag, as before
    assert len(first.given(("--rank",)) or ()) > 1
    review = review_fixture(str(tmp_path))
    rank = _value(review, "torch.distributed.init_process_group", "rank")
    assert rank.startswith("0 (args.rank: --rank in README.md"), rank
    assert "imagenet" not in rank


def test_a_flag_the_command_passes_wins_over_set_defaults(tmp_path: Path) -> None:
    """``parser.set_defaults(norm_pix_loss=False)`` is where a run starts, not what a
    documented command passing ``--norm_pix_loss`` runs with."""
    (tmp_path / "README.md").write_text(
        "```\npython train.py --norm_pix_loss --lr 0.1\n```\n", "utf-8"
    )
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch\n\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--lr', default=0.1, type=float)\n"
        "parser.add_argument('--norm_pix_loss', action='store_true')\n"
        "parser.add_argument('--pin_mem', action='store_true')\n"
        "parser.set_defaults(norm_pix_loss=False, pin_mem=True)\n"
        "args = parser.parse_args()\n"
        "model = torch.nn.Linear(2, 2)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=args.lr)\n"
        "loader = torch.utils.data.DataLoader([1], pin_memory=args.pin_mem)\n"
        "loss_fn = torch.nn.MSELoss(reduction='sum' if args.norm_pix_loss else 'mean')\n"
        "for x in range(3):\n"
        "    loss = model(torch.zeros(2)).sum()\n"
        "    loss.backward()\n"
        "    opt.step()\n",
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    pin = _value(review, "torch.utils.data.DataLoader", "pin_memory")
    assert pin.startswith("True (args.pin_mem: parser.set_defaults"), pin
    reduction = _value(review, "torch.nn.MSELoss", "reduction")
    assert reduction.startswith("'sum' (args.norm_pix_loss: True"), reduction
