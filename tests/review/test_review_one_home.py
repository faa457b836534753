"""One home per fact of the review: a branch test is evaluated by one evaluator
(:func:`~apiscan.review.evaluate.holds`, for the work items' ``if args.x`` and string-keyed
chains, and the model tree's ``if cfg.MODEL.X``); the argparse options are one table per
review (:attr:`~apiscan.review.readings.Readings.argparse`); the functions nothing runs are
one rule (:func:`~apiscan.review.work.uncalled_functions`) for the recipe and the effort;
the parts only a skipped config branch builds are told by that evaluation."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from apiscan.extract.values import Expr, ValueReader
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.evaluate import choice_key, outcomes, values_of
from apiscan.review.readings import Readings
from apiscan.review.structure import config_value
from apiscan.review.work import _option_key, name_values, uncalled_functions

CFGBRANCH = Path("fixtures/modeltree/cfgbranch")


def _expr(text: str) -> Expr:
    tree = ast.parse(text)
    return ValueReader(tree, text).expr(tree.body[0].value)  # type: ignore[attr-defined]


def test_a_branch_test_is_told_over_every_value_its_names_take() -> None:
    defaults = {"distillation_type": {"none"}, "teacher": {None}, "arch": {"a", "b"}}
    # a comparison, a truth test, a conjunction: every outcome false, the branch never runs
    assert outcomes(_expr("args.distillation_type != 'none'"), _option_key, defaults) == {False}
    assert outcomes(_expr("args.teacher"), _option_key, defaults) == {False}
    test = "args.teacher and args.distillation_type == 'hard'"
    assert outcomes(_expr(test), _option_key, defaults) == {False}
    # two values: ``!= 'a'`` holds for 'b', so the branch may run (both outcomes)
    assert outcomes(_expr("args.arch != 'a'"), _option_key, defaults) == {False, True}
    assert outcomes(_expr("args.arch in ('a', 'b')"), _option_key, defaults) == {True}
    # INVALID: a name nothing values, a receiver that is no option, no name at all
    assert outcomes(_expr("args.other == 'x'"), _option_key, defaults) is None
    assert outcomes(_expr("self.arch == 'a'"), _option_key, defaults) is None
    assert outcomes(_expr("args.arch == other"), _option_key, defaults) is None
    assert outcomes(_expr("1 == 1"), _option_key, defaults) is None


def test_the_values_a_name_holds_are_told_by_the_same_evaluator() -> None:
    """What a local or a parameter is assigned from, valued so a test on it is told in turn
    (``sharded = args.fsdp and args.ckpt == 'sharded'``)."""
    defaults = {"fsdp": {False}, "ckpt": {"sharded"}, "arch": {"a", "b"}}
    test = _expr("args.fsdp and args.ckpt == 'sharded'")
    assert values_of(test, _option_key, defaults) == [False]
    assert values_of(_expr("args.arch.upper()"), _option_key, defaults) == ["A", "B"]
    # a constant passed for a parameter is its own value; ``outcomes`` still tells none
    assert values_of(_expr("True"), _option_key, defaults) == [True]
    assert outcomes(_expr("True"), _option_key, defaults) is None
    # INVALID: a name nothing values
    assert values_of(_expr("args.other"), _option_key, defaults) is None


def test_a_string_keyed_chain_reads_a_name_or_an_attribute_of_one() -> None:
    chosen = {"backbone": {"beitl16_512"}}
    assert outcomes(_expr("backbone == 'vitb16_384'"), choice_key, chosen) == {False}
    assert outcomes(_expr("self.backbone == 'beitl16_512'"), choice_key, chosen) == {True}
    assert outcomes(_expr("backbone.startswith('beit')"), choice_key, chosen) == {True}
    # a deeper chain is no name of the chain's
    assert outcomes(_expr("a.b.backbone == 'x'"), choice_key, chosen) is None


def test_a_config_value_is_read_as_python_reads_it() -> None:
    assert config_value("True") is True
    assert config_value("true") is True  # YAML
    assert config_value("null") is None
    assert config_value("0.0") == 0.0
    assert config_value("'x'") == "x"
    assert config_value("FCOS") == "FCOS"  # an unquoted YAML word is a string
    assert config_value("{}") == {}
    assert config_value("") is None


def test_the_argparse_table_is_built_once_and_read_by_each_reader(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        "import argparse\n"
        "SIZE = 512\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--model', default='vit_tiny')\n"
        "p.add_argument('--size', default=SIZE)\n"
        "p.add_argument('--amp', action='store_true')\n"
        "p.add_argument('--out')\n"
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    readings = Readings(tmp_path, analyses)
    table = readings.argparse
    assert readings.argparse is table  # read once per review
    assert table.values() == {"model": {"vit_tiny"}, "size": {None}, "amp": {False}, "out": {None}}
    assert [(o.dest, o.text) for o in table.with_default()] == [
        ("model", "vit_tiny"),
        ("size", None),
    ]
    # the numbers the inference path reads: ``SIZE`` read as 512, from the same rows
    names = name_values(analyses, table)
    assert names.argparse is table
    assert [text for text, _ in names.options["size"]] == ["512"]
    assert "model" not in names.options  # not a number
    # INVALID: without the review's table, one is built from the same files, equal rows
    assert name_values(analyses).argparse.all == table.all


def test_one_rule_for_the_functions_nothing_runs(tmp_path: Path) -> None:
    pkg = tmp_path / "lib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "utils.py").write_text(
        "import torch\n"
        "def prune(model):\n"
        "    import torch.nn.utils.prune as prune\n"
        "    prune.l1_unstructured(model, name='weight', amount=0.3)\n"
        "def used(x):\n"
        "    return x\n"
        "def callback(x):\n"
        "    return x\n"
        "def kept(x):\n"
        "    return x\n"
        "STEPS = {'a': kept}\n"
        "def step(model):\n"
        "    torch.optim.SGD(model.parameters(), lr=0.1)\n"
    )
    (tmp_path / "train.py").write_text(
        "from lib.utils import used\n"
        "from lib import utils\n"
        "used(1)\n"
        "utils.run(utils.callback)\n"
        "x = utils.prune_other\n"
    )
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    dead = uncalled_functions(analyses, result)
    # ``prune`` calls through a module alias of its own name: no use of itself
    assert dead == {("lib/utils.py", "prune"): (2, 4)}
    # INVALID: without the scan's findings, the optimizer-building ``step`` is not known to
    # be the training, so it is dead too
    assert set(uncalled_functions(analyses)) == {
        ("lib/utils.py", "prune"),
        ("lib/utils.py", "step"),
    }


@pytest.fixture(scope="module")
def cfgbranch():
    return build_review(str(CFGBRANCH), jobs=1)


def test_a_part_the_chosen_config_skips_is_told_by_the_evaluated_test(cfgbranch) -> None:
    apart = dict(cfgbranch.ancillary)
    assert apart["det/modeling/heads.py"] == (
        "not reached by the shipped configs (BoxHead: built only if not cfg.MODEL.RPN_ONLY, "
        "but MODEL.RPN_ONLY = True at configs/cfgbranch/anchorfree_R_50.yaml:3 (the training "
        "command at README.md:11))"
    )


def test_a_flag_another_shipped_config_sets_off_is_not_settled(tmp_path: Path) -> None:
    """INVALID: a second config of the folder setting ``RPN_ONLY: False`` builds the box head:
    neither the evaluated test nor the name rule counts it apart; the mask head, off by
    default and set on by no config, still is."""
    for path in CFGBRANCH.rglob("*"):
        if path.is_file():
            target = tmp_path / path.relative_to(CFGBRANCH)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (tmp_path / "configs/cfgbranch/full_R_50.yaml").write_text(
        'MODEL:\n  META_ARCHITECTURE: "Detector"\n  RPN_ONLY: False\n'
    )
    apart = dict(build_review(str(tmp_path), jobs=1).ancillary)
    assert apart["det/modeling/heads.py"] == (
        "not reached by the shipped configs (MaskHead: built only if cfg.MODEL.MASK_ON, but "
        "MODEL.MASK_ON = False at det/config/defaults.py:17 (the default))"
    )
