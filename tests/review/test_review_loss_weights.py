"""Loss weights written as a config dict's entry, as a number inside the loss, or as an
augmented assignment (``fixtures/lossweights``): each shows on the loss row it weights, and a
factor that is data (a mask, a tensor product of two terms) shows on none."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.extract.values import file_values
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

LOSSWEIGHTS = Path(__file__).resolve().parents[2] / "fixtures" / "lossweights"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(LOSSWEIGHTS), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, LOSSWEIGHTS)


def losses(items: tuple[RecipeItem, ...]) -> dict[str, dict[str, str]]:
    return {f"{i.name} @ {i.where}": dict(i.values) for i in items if i.category == "loss"}


def test_a_weight_read_from_a_config_dict_names_the_term_it_weights(items) -> None:
    # ``criterion = BoxLoss(2, 0.35)`` at module level; in train(): ``loss_l, loss_c =
    # criterion(...)`` then ``cfg['loc_weight'] * loss_l + loss_c``, cfg a preset dict
    # brought through a package's star import
    box = losses(items)["losses.BoxLoss @ train.py:25"]
    assert box["weight of loss_l"] == (
        "2.0 (cfg['loc_weight']: the entry of the dict the defaults pick)"
    )
    assert "weight of loss_c" not in box and "weight" not in box
    # INVALID: ``return loc.sum() * 0, conf.sum() * 0`` for an empty batch: a zero loss
    assert not [k for k in box if k.startswith("weight of output")]


def test_a_number_the_loss_multiplies_an_output_by_is_its_weight(items) -> None:
    focal = losses(items)["losses.FocalLoss @ train.py:26"]
    assert focal["weight of output 2"] == "50 (on reg_loss.mean() at losses.py:39)"
    # INVALID: ``cls_loss *= valid`` (a mask) and ``torch.abs(reg - reg_t) * valid``
    assert "weight of output 1" not in focal and "weight" not in focal


def test_weights_written_in_place_show_on_the_function_and_on_each_loss_module(items) -> None:
    found = losses(items)
    terms = found["losses.compute_loss @ train.py:37"]
    assert {k: v for k, v in terms.items() if k.startswith("weight")} == {
        "weight of lbox": "0.05 (lbox *= 0.05 at losses.py:61)",
        "weight of lobj": "1.0 (lobj *= 1.0 at losses.py:62)",
        "weight of lcls": "0.5 (lcls *= 0.5 at losses.py:63)",
    }
    # ``lcls += bce_cls(...)`` in the loop over levels, ``lcls *= 0.5`` after it
    assert found["torch.nn.BCEWithLogitsLoss @ losses.py:54"] == {
        "weight": "0.5 (lcls *= 0.5 at losses.py:63)"
    }
    assert found["torch.nn.BCEWithLogitsLoss @ losses.py:55"] == {
        "weight": "1.0 (lobj *= 1.0 at losses.py:62)"
    }


def test_a_product_of_two_terms_or_by_a_mask_is_no_weight(items) -> None:
    found = losses(items)
    # INVALID: ``aux * pos.mean()`` in the step: the term times a tensor
    assert not [k for k in found["losses.compute_loss @ train.py:37"] if k == "weight"]
    # INVALID: ``focal * F.binary_cross_entropy_with_logits(...)``: a tensor of weights
    bce = found["torch.nn.functional.binary_cross_entropy_with_logits @ losses.py:35"]
    assert "weight" not in bce
    assert not [i for i in items if i.name.startswith("weight of ")]


def test_the_value_records_keep_each_scopes_augmented_assignments() -> None:
    text = "x = 1\nx *= 2\n\ndef f(a):\n    for i in a:\n        a += i\n    a *= 0.5\n"
    values = file_values(ast.parse(text), text)
    assert [(u.node.text, u.op, u.value.text, u.line) for u in values.updates] == [
        ("x", "Mult", "2", 2)
    ]
    (f,) = values.defs
    assert [(u.statement, u.line) for u in f.updates] == [("a += i", 6), ("a *= 0.5", 7)]


def test_a_dict_changed_in_place_or_a_hyp_from_a_file_gives_no_weight(tmp_path: Path) -> None:
    # INVALID: the literal the dict was built from is not what it holds when the weight is
    # read (an entry overwritten by an option); an entry of a dict read from a file is
    # unknown: neither is shown as a weight
    root = write_repo(
        tmp_path / "hyp",
        {
            "train.py": """
            import argparse
            import torch
            import yaml

            parser = argparse.ArgumentParser()
            parser.add_argument("--box", type=float, default=7.5)
            args = parser.parse_args()
            cfg = {"box": 0.05, "cls": 0.5}
            cfg["box"] = args.box
            hyp = yaml.safe_load(open("hyp.yaml"))

            def train(pred, target):
                lbox = torch.nn.functional.l1_loss(pred, target)
                lcls = torch.nn.functional.mse_loss(pred, target)
                lbox *= cfg["box"]
                lcls *= hyp["cls"]
                loss = lbox + lcls
                loss.backward()
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    found = {
        i.name: dict(i.values)
        for i in extract_recipe(result, analyses, root)
        if i.category == "loss"
    }
    assert "weight" not in found["torch.nn.functional.l1_loss"]
    assert "weight" not in found["torch.nn.functional.mse_loss"]
