"""A YAML an option's default names, loaded by the repository's own loader into an object
read by attribute (issue 20, the recipe from what runs).

fixtures/yamlobject: ``tool/train.py``'s ``--config`` defaults to ``config/seg.yaml`` (keys in
sections, ``max_iter`` read by nothing); ``util/config.py``'s ``load_cfg_from_cfg_file`` does
``yaml.safe_load`` and flattens the sections into a ``CfgNode``; ``get_parser`` returns it
and the training reads ``args.base_lr``. ``config/other.yaml`` is named by nothing;
``--momentum`` is declared as an option too; ``opts`` is no loader's object."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "yamlobject"


def _value(review, name: str, key: str) -> str:
    rows = [i for i in review.recipe if i.name == name]
    assert rows, name
    return dict(rows[0].values)[key]


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(FIXTURE))


def test_the_loaders_object_reads_the_named_yaml_one_section_deep(review) -> None:
    named = "the default of --config at tool/train.py:12"
    assert _value(review, "torch.optim.SGD", "lr") == (
        f"0.01 (args.base_lr: 0.01 in config/seg.yaml:4, {named})"
    )
    assert _value(review, "torch.optim.SGD", "weight_decay").startswith("0.0001 (")
    assert _value(review, "torch.nn.CrossEntropyLoss", "ignore_index").startswith(
        "255 (args.ignore_label: 255 in config/seg.yaml:10"
    )
    assert _value(review, "torch.utils.data.DataLoader", "batch_size").startswith("16 (")
    # the training length no option declares: a row of its own, for the key read alone
    lengths = [i for i in review.recipe if i.category == "epochs"]
    assert [(i.name, dict(i.values), i.where.path, i.where.line) for i in lengths] == [
        ("config epochs", {"value": "30"}, "config/seg.yaml", 8)
    ]
    # ``manual_seed:`` left empty loads as None: the seeding branch is not taken
    assert not [i for i in review.recipe if i.name == "torch.manual_seed"]


def test_what_the_yaml_does_not_give(review) -> None:
    # a declared option of the same name keeps its argparse reading
    assert _value(review, "torch.optim.SGD", "momentum").startswith(
        "0.5 (args.momentum: default of argparse --momentum"
    )
    # another name's attribute is no loader's object; the unnamed YAML gives nothing
    assert _value(review, "torch.nn.utils.clip_grad_norm_", "max_norm") == "opts.base_lr"
    values = [v for i in review.recipe for _, v in i.values]
    assert all("other.yaml" not in v and "0.5 (args.base_lr" not in v for v in values)
