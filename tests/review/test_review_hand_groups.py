"""Parameter groups grown one by one in a loop over ``named_parameters()`` and a gradient
clipping the repository writes itself (``fixtures/handgroups``): the optimizer row shows each
kind of group with its settings resolved, and the clipping function gets a clipping row
by what it does, not by its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

HANDGROUPS = Path(__file__).resolve().parents[2] / "fixtures" / "handgroups"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(HANDGROUPS), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, HANDGROUPS)


def test_groups_appended_in_a_loop_show_each_branch_resolved(items) -> None:
    # ``params = []`` then ``params += [{...}]`` under ``if 'bias' in key`` and its else
    sgd = next(i for i in items if i.name == "torch.optim.SGD")
    values = dict(sgd.values)
    assert values["params"] == (
        "2 kinds of parameter group, appended to params in the loop at train.py:19,"
        " one group per parameter"
    )
    assert values["group 1: when"] == "'bias' in key"
    # ``lr * (cfg.TRAIN.DOUBLE_BIAS + 1)``: the switch counts as 1
    assert values["group 1: lr"].startswith("0.002 (= lr * (cfg.TRAIN.DOUBLE_BIAS + 1)")
    # ``cfg.TRAIN.BIAS_DECAY and cfg.TRAIN.WEIGHT_DECAY or 0``: Python's and/or, off gives 0
    assert values["group 1: weight_decay"].startswith("0 (= cfg.TRAIN.BIAS_DECAY and")
    assert values["group 2: when"] == "not ('bias' in key)"
    # ``lr = cfg.TRAIN.LEARNING_RATE`` (0.01) then ``lr = args.lr`` in the same
    # ``if __name__`` block: the later statement replaces the earlier value, one value
    assert values["group 2: lr"] == (
        "0.001 (lr set at train.py:16; args.lr: default of argparse --lr at train.py:9)"
    )
    assert values["group 2: weight_decay"].startswith("0.0005 ")
    assert values["momentum"].startswith("0.9 ")
    assert "MindSpore optimizers take the same group dicts" in sgd.note


def test_a_list_grown_by_something_else_is_no_group_list(tmp_path: Path) -> None:
    # INVALID: ``params += [p]`` adds tensors, not group dicts: the params shown as written
    (tmp_path / "train.py").write_text(
        "import torch\n"
        "model = torch.nn.Linear(2, 2)\n"
        "params = []\n"
        "for p in model.parameters():\n"
        "    params += [p]\n"
        "optimizer = torch.optim.SGD(params, lr=0.1)\n"
    )
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    sgd = next(i for i in extract_recipe(result, analyses, tmp_path) if i.name.endswith("SGD"))
    assert dict(sgd.values)["params"] == "params"
    assert not any(k.startswith("group") for k, _ in sgd.values)


def test_a_function_scaling_the_gradients_is_a_clipping_row(items) -> None:
    clips = [i for i in items if i.category == "grad_clip"]
    # VALID: ``clip_gradient`` reads the gradients' norm and ``p.grad.mul_``s them
    assert [(i.name, str(i.where)) for i in clips] == [
        ("utils.net_utils.clip_gradient", "train.py:34")
    ]
    assert dict(clips[0].values) == {"model": "model", "clip_norm": "10."}
    assert clips[0].note.startswith("gradient clipping written by hand")
    # INVALID: ``clip_weights`` clamps the weights, ``grad_norm`` only reads the norm, and
    # ``clip_by_library`` runs in the branch the defaults do not take
    names = {i.name for i in items}
    assert not any(n.endswith(("clip_weights", "grad_norm", "clip_by_library")) for n in names)


def test_an_assignment_in_another_block_does_not_hide_an_earlier_one(tmp_path: Path) -> None:
    # INVALID: ``lr = 0.5`` under an ``if`` the defaults do not decide may not run: both
    # values reach the call
    (tmp_path / "train.py").write_text(
        "import argparse\n"
        "import torch\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--big', action='store_true')\n"
        "if __name__ == '__main__':\n"
        "    args = parser.parse_args()\n"
        "    model = torch.nn.Linear(2, 2)\n"
        "    lr = 0.1\n"
        "    if torch.cuda.device_count() > 1:\n"
        "        lr = 0.5\n"
        "    optimizer = torch.optim.SGD(model.parameters(), lr=lr)\n"
    )
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    sgd = next(i for i in extract_recipe(result, analyses, tmp_path) if i.name.endswith("SGD"))
    assert dict(sgd.values)["lr"] == "0.1 (lr set at train.py:8) | 0.5 (lr set at train.py:10)"
