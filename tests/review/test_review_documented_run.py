"""The recipe from the run the repository documents (issue 20).

fixtures/docrun: the README's backslash-continued training commands and a scheduler script's
``sbatch --wrap="srun python ${EXP}/.../train.py ..."`` override the argparse defaults; the
precision and strategy are keywords of a Lightning wrapper, not torch APIs.
fixtures/jsonkwargs: a JSON config section passed as ``**train_config`` gives the parameters
of ``train()``; apex's ``opt_level`` is the precision; a half cast that only follows an
input already in half precision is no precision of the training."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import launches, split_commands

REPO = Path(__file__).resolve().parents[2]
DOCRUN = REPO / "fixtures" / "docrun"
JSONKWARGS = REPO / "fixtures" / "jsonkwargs"


def _rows(review, name: str):
    return [i for i in review.recipe if i.name == name]


def _value(review, name: str, key: str) -> str:
    rows = _rows(review, name)
    assert rows, name
    return dict(rows[0].values)[key]


@pytest.fixture(scope="module")
def docrun():
    return review_fixture(str(DOCRUN))


@pytest.fixture(scope="module")
def jsonkwargs():
    return review_fixture(str(JSONKWARGS))


def test_readme_commands_lead_and_a_wrapped_script_command_counts() -> None:
    runs = launches(DOCRUN, "train.py")
    assert [(r.path, r.line) for r in runs] == [
        ("README.md", 6),
        ("README.md", 14),
        ("scripts/launch.sh", 5),
    ]
    # the continuation lines are one command
    assert runs[0].given(("--mixed_precision",)) == ()
    assert runs[0].given(("--wdecay",)) == ("0.0005",)
    assert runs[1].given(("--offline",)) == ()
    assert runs[2].given(("--batch_size",)) == ("2",)
    # the README's evaluation command is evaluate.py's, never train.py's
    assert [(r.path, r.line) for r in launches(DOCRUN, "evaluate.py")] == [("README.md", 18)]


def test_a_quoted_command_is_split_out_only_when_it_launches() -> None:
    from apiscan.review.commands import _unwrapped

    wrapped = split_commands('sbatch --nodes=4 --wrap="srun python a/b/train.py --lr 1"')
    assert _unwrapped(wrapped) == [["srun", "python", "a/b/train.py", "--lr", "1"]]
    plain = split_commands('python train.py --name "my run" --lr 1')
    assert _unwrapped(plain) == plain


def test_the_documented_values_replace_the_argparse_defaults(docrun) -> None:
    wd = _value(docrun, "torch.optim.AdamW", "weight_decay")
    assert wd.startswith("0.0005 (args.wdecay: --wdecay in README.md:6 (run sequence_len=64)")
    assert "default 0.00001" in wd
    batch = _value(docrun, "torch.utils.data.DataLoader", "batch_size")
    assert batch.startswith("1 (") and "scripts/launch.sh: 2" in batch
    # what no command passes keeps its default; evaluate.py's --lr 0.9 changes nothing
    assert _value(docrun, "torch.optim.AdamW", "lr").startswith("0.0005 (args.lr: default")
    assert all("0.9" not in v for i in docrun.recipe for _, v in i.values)
    huber = _value(docrun, "train.sequence_loss", "add_huber_loss")
    assert huber.startswith("True (args.add_huber_loss: --add_huber_loss in README.md:6")


def test_a_stored_loss_reduced_then_weighted_carries_its_weight(docrun) -> None:
    rows = {r.where.line: dict(r.values) for r in _rows(docrun, "train.sequence_loss")}
    # ``seq_loss.mean() * 0.05`` stored in the output dict: the term's weight
    assert rows[25]["weight"] == "0.05"
    # ``aux_loss.mean() * out.detach().std()``: a tensor, no setting
    assert "weight" not in rows[26]


def test_the_precision_and_strategy_of_a_training_wrapper(docrun) -> None:
    rows = _rows(docrun, "pytorch_lightning.lite.LightningLite(precision=)")
    assert [(r.category, r.where.path, r.where.line) for r in rows] == [("amp", "train.py", 48)]
    precision = dict(rows[0].values)["precision"]
    # the documented command passes --mixed_precision: bf16, not the else side's 32
    assert precision.startswith('"bf16" (args.mixed_precision = True')
    strategy = _rows(docrun, "pytorch_lightning.lite.LightningLite(strategy=)")
    assert [r.category for r in strategy] == ["distributed"]
    assert dict(strategy[0].values)["strategy"] == "DDPStrategy(find_unused_parameters=False)"
    # ``accelerator="gpu"`` names the device: no row
    assert not [r for r in docrun.recipe if "accelerator" in r.name]


def test_a_json_section_passed_as_keywords_gives_the_parameters(jsonkwargs) -> None:
    lr = _value(jsonkwargs, "torch.optim.Adam", "lr")
    assert lr.startswith("1e-4 (parameter learning_rate of train(), passed in ** at train.py:44")
    assert "config.json:5" in lr and "config_small" not in lr
    assert _value(jsonkwargs, "torch.utils.data.DataLoader", "batch_size").startswith("12 (")
    assert _value(jsonkwargs, "torch.manual_seed", "seed").startswith("1234 (")
    assert _value(jsonkwargs, "flow.FlowLoss", "sigma").startswith("1.0 (")


def test_apex_opt_level_is_the_precision_not_the_inverse_half_cast(jsonkwargs) -> None:
    amp = [r for r in jsonkwargs.recipe if r.category == "amp"]
    assert [(r.name, dict(r.values)) for r in amp] == [
        # the switch the section passes: it is on in the documented config
        ("config train_config.fp16_run", {"value": "true"}),
        ("apex.amp.initialize(opt_level=)", {"opt_level": '"O1"'}),
    ]


def test_a_json_section_passed_as_keywords_gives_the_length(jsonkwargs) -> None:
    (length,) = [r for r in jsonkwargs.recipe if r.category == "epochs"]
    assert (length.name, length.where.path, length.where.line) == (
        "config train_config.epochs",
        "config.json",
        4,
    )
    assert dict(length.values) == {"value": "100000"}
    assert length.note == (
        "parameter epochs of train(), passed in **train_config at train.py:44; read from "
        "config.json, the training command at README.md:6"
    )
    # settings a torch call already shows get no row of their own
    assert not [r for r in jsonkwargs.recipe if r.name.startswith("config train_config.learn")]


def test_without_a_documented_config_no_section_rows(tmp_path) -> None:
    root = tmp_path / "jsonkwargs"
    shutil.copytree(JSONKWARGS, root)
    (root / "README.md").write_text("# jsonkwargs\n", encoding="utf-8")
    review = review_fixture(str(root))
    # two JSON files and no command naming either: no file is the config
    assert not [r for r in review.recipe if r.name.startswith("config train_config")]


def test_an_installed_package_s_alias_of_a_script_launches_it() -> None:
    from apiscan.review.commands import _launched

    scripts = {"tools/train.py": "tools/train.py", "train.py": "train.py"}
    words = ["python", "-m", "pkg.tools.train", "-b", "64"]
    assert list(_launched(words, scripts)) == [(2, "tools/train.py")]
    # a root script is no package's tail; an unrelated module launches nothing
    assert list(_launched(["python", "-m", "pkg.train"], {"train.py": "train.py"})) == []
    assert list(_launched(["python", "-m", "pkg.tools.test"], scripts)) == []


def test_the_review_s_option_table_holds_the_documented_run_s_values() -> None:
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.readings import Readings

    _, analyses = scan_with_facts(
        ScanOptions(str(DOCRUN), ms_version=None, cache_dir=None, jobs=1, progress=False)
    )
    values = Readings(DOCRUN, analyses).argparse.values()
    assert values["mixed_precision"] == {True}
    assert values["num_steps"] == {500}
    # what no command passes keeps its default
    assert values["num_nodes"] == {1}
    # each script's own command: evaluate.py's README line gives its --lr, train.py's none
    assert values["lr"] == {0.0005, 0.9}


def test_weights_a_constructor_sets_itself_are_init_rows(jsonkwargs) -> None:
    rows = [r for r in jsonkwargs.recipe if r.name == "weights set in Coupling.__init__"]
    assert [(r.category, r.where.path) for r in rows] == [("init", "flow.py")]
    values = dict(rows[0].values)
    assert values["w first set"].startswith("torch.linalg.qr(torch.randn(c, c))[0] at flow.py:")
    assert values["self.mix.weight.data"].startswith("w.view(c, c, 1)")
    assert values["end.weight.data"] == "zero_()"
    assert values["end.bias.data"].startswith("fill_(bias) with -2.0")
    # a buffer filled in place is no layer's weight
    assert not any("scratch" in key for key in values)
    # the loss module sets no weight: no row
    assert not [r for r in jsonkwargs.recipe if r.name == "weights set in FlowLoss.__init__"]
