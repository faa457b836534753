"""The settings the run constructs its top model with (issue 20): a contrastive model's queue
length, momentum and temperature are numbers the port's model must be given, read where the
training script builds it, through the options and the documented command."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import review_fixture

_MODEL = """\
import torch
import torch.nn as nn


class Queue(nn.Module):
    def __init__(self, base_encoder, dim=128, K=4096, m=0.99, T=0.1, mlp=False):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = base_encoder
        self.encoder_k = nn.Linear(8, dim)

    def forward(self, x):
        return self.encoder_q(x) / self.T


class Encoder(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.fc = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.fc(x)


class Wrapper(nn.Module):
    def __init__(self, model, names):
        super().__init__()
        self.model, self.names = model, names

    def forward(self, x):
        return self.model(x)
"""

_TRAIN = """\
import argparse

import torch

import builder

parser = argparse.ArgumentParser()
parser.add_argument("data")
parser.add_argument("--lr", default=0.03, type=float)
parser.add_argument("--moco-dim", default=128, type=int)
parser.add_argument("--moco-k", default=65536, type=int)
parser.add_argument("--moco-m", default=0.999, type=float)
parser.add_argument("--moco-t", default=0.07, type=float)
parser.add_argument("--mlp", action="store_true")


def check(model):
    wrapped = builder.Wrapper(model, names=("a", "b"))
    return wrapped(torch.zeros(1, 8))


def main():
    args = parser.parse_args()
    encoder = builder.Encoder(num_classes=args.moco_dim)
    model = builder.Queue(
        encoder, args.moco_dim, args.moco_k, args.moco_m, args.moco_t, args.mlp
    )
    check(model)
    batch = torch.randn(2, 3, 8, 8)
    optimizer = torch.optim.SGD(model.parameters(), args.lr)
    for _ in range(10):
        loss = model(batch).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""


def test_the_top_model_s_constructor_settings_are_a_row(tmp_path: Path) -> None:
    (tmp_path / "builder.py").write_text(_MODEL, "utf-8")
    (tmp_path / "train.py").write_text(_TRAIN, "utf-8")
    (tmp_path / "README.md").write_text(
        "```\npython train.py --lr 0.03 --moco-t 0.2 --mlp /data/imagenet\n```\n", "utf-8"
    )
    review = review_fixture(str(tmp_path))
    rows = [i for i in review.recipe if i.category == "model"]
    assert [r.name for r in rows] == ["builder.Encoder", "builder.Queue"], rows
    # the part the training script constructs and hands in: its own sizes, said whose
    part, top = rows
    assert dict(part.values)["num_classes"].startswith("128 (args.moco_dim"), part
    assert part.note.startswith("base_encoder of Queue: a part's"), part.note
    values = dict(top.values)
    assert values["K"].startswith("65536 (args.moco_k"), values
    assert values["m"].startswith("0.999 ("), values
    # the documented command's values win over the defaults
    assert values["T"].startswith("0.2 (args.moco_t: --moco-t in README.md"), values
    assert values["mlp"].startswith("True ("), values
    # the encoder handed in is the tree's part, no setting
    assert "base_encoder" not in values
    # INVALID: a wrapper a one-time check builds around the model is no model of the run
    assert all(i.name != "builder.Wrapper" for i in review.recipe)
    assert str(top.where) == "train.py:25"


def test_values_known_at_run_time_only_are_left_out(tmp_path: Path) -> None:
    """A value computed at run time (a device count) is no setting; the defaults the call
    leaves are."""
    (tmp_path / "builder.py").write_text(_MODEL, "utf-8")
    (tmp_path / "train.py").write_text(
        _TRAIN.replace(
            "args.moco_dim, args.moco_k, args.moco_m, args.moco_t, args.mlp",
            "dim=torch.cuda.device_count()",
        ),
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    rows = {i.name: dict(i.values) for i in review.recipe if i.category == "model"}
    # the value computed at run time is no setting the review can state; the ones the
    # call leaves to the constructor's defaults are
    assert "dim" not in rows["builder.Queue"], rows
    assert rows["builder.Queue"]["K"] == "4096 (default)", rows
    assert rows["builder.Queue"]["mlp"] == "False (default)", rows


_BUILT = """\
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, 3)

    def forward(self, x):
        return self.conv(x)


class Detector(nn.Module):
    def __init__(self, phase, size, backbone, num_classes):
        super().__init__()
        self.phase, self.size = phase, size
        self.backbone = backbone
        self.head = nn.Conv2d(8, num_classes, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


def build_detector(phase, size=300, num_classes=21):
    backbone = Backbone(channels=16)
    return Detector(phase, size, backbone, num_classes)
"""


def test_a_builder_s_call_is_named_by_the_builder_s_parameters(tmp_path: Path) -> None:
    """Where the tree's top model is the call of its builder function, the values are named
    by the builder's parameters, never by the class's (``size``, not ``backbone``)."""
    (tmp_path / "detector.py").write_text(_BUILT, "utf-8")
    (tmp_path / "train.py").write_text(
        _TRAIN.replace("import builder\n", "from detector import build_detector\n").replace(
            """    encoder = builder.Encoder(num_classes=args.moco_dim)
    model = builder.Queue(
        encoder, args.moco_dim, args.moco_k, args.moco_m, args.moco_t, args.mlp
    )
    check(model)
""",
            "    model = build_detector('train', 512, args.moco_dim)\n",
        ),
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    rows = {i.name: i for i in review.recipe if i.category == "model"}
    assert "detector.Detector" in rows, [(t.cls, str(t.where)) for t in review.top_models]
    values = dict(rows["detector.Detector"].values)
    # the part the builder constructs, with the builder named
    part = rows["detector.Backbone"]
    assert dict(part.values) == {"channels": "16"}, part
    assert part.note == (
        "backbone of Detector: a part's constructor settings, built by build_detector"
    )
    assert values["phase"] == "'train'", values
    assert values["size"] == "512", values
    assert values["num_classes"].startswith("128 ("), values
    assert "backbone" not in values


def test_no_default_is_claimed_where_a_config_dict_is_spread(tmp_path: Path) -> None:
    """INVALID: ``Queue(encoder, **config)`` may pass any setting: its defaults are not
    claimed as what the model is built with."""
    (tmp_path / "builder.py").write_text(_MODEL, "utf-8")
    (tmp_path / "train.py").write_text(
        _TRAIN.replace(
            "encoder, args.moco_dim, args.moco_k, args.moco_m, args.moco_t, args.mlp",
            "encoder, dim=args.moco_dim, **vars(args)",
        ),
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    rows = {i.name: dict(i.values) for i in review.recipe if i.category == "model"}
    assert rows["builder.Queue"] == {"dim": rows["builder.Queue"]["dim"]}, rows


def test_a_weights_file_handed_to_the_constructor_is_no_setting(tmp_path: Path) -> None:
    """INVALID: ``Net("weights/net.pt")`` hands the checkpoint in: the checkpoint row's, not
    a setting of the model."""
    (tmp_path / "builder.py").write_text(_MODEL, "utf-8")
    (tmp_path / "train.py").write_text(
        _TRAIN.replace(
            "encoder = builder.Encoder(num_classes=args.moco_dim)",
            'encoder = builder.Encoder(num_classes="weights/encoder.pth")',
        ),
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    assert "builder.Encoder" not in {i.name for i in review.recipe if i.category == "model"}


def test_a_model_loaded_back_for_an_evaluation_call_is_no_setting(tmp_path: Path) -> None:
    """INVALID: ``validate.run(model=load_back(best, fuse=True).half())`` after the training
    loads the saved model back for the evaluation: no model the run constructs (the tree may
    list the loader's class; its settings are not the run's). VALID: the same loader called
    on its own line."""
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.recipe import _files, _Recipe

    (tmp_path / "train.py").write_text(
        "import validate\n"
        "from detector import load_back\n\n\n"
        "def main(best):\n"
        "    validate.run(model=load_back(best, fuse=True).half(), size=300)\n"
        "    model = load_back(best, fuse=True)\n",
        "utf-8",
    )
    _, analyses = scan_with_facts(ScanOptions(path=str(tmp_path), cache_dir=None))
    file = _files(analyses)["train.py"]
    loads = sorted(
        (c for c in file.values.calls if c.expr.callee() == "load_back"), key=lambda c: c.expr.line
    )
    assert [_Recipe._handed_to_evaluation(file, c) for c in loads] == [True, False]


def test_another_configuration_s_model_is_not_the_run_s() -> None:
    """Where the documented command loads one experiment file (``-f exps/net_s.py``), a
    sibling experiment overriding ``get_model`` (``exps/net_v3.py``) builds another
    configuration's model: no settings row, even where the tree lists it; the base's
    ``get_model`` the loaded file inherits gives the run's, with the loaded file's depth."""
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.model import TopModel, Where
    from apiscan.review.recipe import extract_recipe

    root = Path(__file__).resolve().parents[2] / "fixtures" / "expbase"
    result, analyses = scan_with_facts(ScanOptions(path=str(root), cache_dir=None))
    parts = (("backbone", "PAFPN (backbone)"), ("head", "Head (head)"))
    tops = (
        TopModel("lib.models.net.Net", Where("lib/exp/base_exp.py", 15), "get_model", parts),
        TopModel(
            "lib.models.net.Net",
            Where("exps/net_v3.py", 10),
            "get_model",
            (("backbone", "DarkFPN (backbone)"), ("head", "Head (head)")),
        ),
    )
    rows = [
        i
        for i in extract_recipe(result, analyses, root, configs={"exps/net_s.py"}, models=tops)
        if i.category == "model"
    ]
    assert rows and all(i.where.path != "exps/net_v3.py" for i in rows), rows
    backbone = next(i for i in rows if i.name.endswith(".PAFPN"))
    assert dict(backbone.values)["depth"].startswith("0.33 ("), backbone


def test_the_construction_in_the_branch_the_run_takes_gives_the_row(tmp_path: Path) -> None:
    """The model built through a module-level alias (``Model = Queue``) in both branches
    of ``if args.pretrained:``: the row is the ``else`` branch's, which the defaults take,
    wherever the tree places the model."""
    (tmp_path / "builder.py").write_text(_MODEL + "\n\nModel = Queue\n", "utf-8")
    (tmp_path / "train.py").write_text(
        _TRAIN.replace(
            """    encoder = builder.Encoder(num_classes=args.moco_dim)
    model = builder.Queue(
        encoder, args.moco_dim, args.moco_k, args.moco_m, args.moco_t, args.mlp
    )
""",
            """    if args.mlp:
        model = builder.Model(builder.Encoder(), K=1024)
    else:
        model = builder.Model(builder.Encoder(), K=2048)
""",
        ),
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    rows = [dict(i.values) for i in review.recipe if i.category == "model"]
    assert [r.get("K") for r in rows if "K" in r] == ["2048"], rows


def test_a_module_table_of_variants_gives_the_top_s_row_only(tmp_path: Path) -> None:
    """INVALID: a module-level table of variants (``"S": lambda: Queue(Encoder(), K=1)``)
    holds every variant's construction at the module's level; only the top's is the run's,
    the others are no branch of the function that built it."""
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.model import TopModel, Where
    from apiscan.review.recipe import extract_recipe

    (tmp_path / "builder.py").write_text(
        _MODEL
        + "\n\nVARIANTS = {\n"
        + '    "S": lambda: Queue(Encoder(), K=1024),\n'
        + '    "M": lambda: Queue(Encoder(), K=2048),\n'
        + '    "L": lambda: Queue(Encoder(), K=4096),\n'
        + "}\n",
        "utf-8",
    )
    result, analyses = scan_with_facts(ScanOptions(path=str(tmp_path), cache_dir=None))
    source = (tmp_path / "builder.py").read_text("utf-8").splitlines()
    line = next(n for n, text in enumerate(source, 1) if '"S": lambda' in text)
    top = TopModel("builder.Queue", Where("builder.py", line), "", (("base_encoder", "Encoder"),))
    rows = [
        dict(i.values)
        for i in extract_recipe(result, analyses, tmp_path, models=(top,))
        if i.category == "model" and i.name == "builder.Queue"
    ]
    assert [r["K"] for r in rows] == ["1024"], rows


def test_a_model_picked_from_a_module_table_shows_its_keywords(tmp_path: Path) -> None:
    """``builder.__dict__[args.arch](K=args.moco_k)`` picks the factory by the run's value:
    the keywords it passes name the settings (no positional name or default is claimed)."""
    (tmp_path / "builder.py").write_text(
        _MODEL + "\n\ndef queue_small(**kwargs):\n    return Queue(Encoder(), dim=64, **kwargs)\n",
        "utf-8",
    )
    (tmp_path / "train.py").write_text(
        _TRAIN.replace(
            'parser.add_argument("data")\n',
            'parser.add_argument("data")\nparser.add_argument("--arch", default="queue_small")\n',
        ).replace(
            """    encoder = builder.Encoder(num_classes=args.moco_dim)
    model = builder.Queue(
        encoder, args.moco_dim, args.moco_k, args.moco_m, args.moco_t, args.mlp
    )
""",
            "    model = builder.__dict__[args.arch](K=args.moco_k)\n",
        ),
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    rows = [dict(i.values) for i in review.recipe if i.category == "model"]
    assert any(r.get("K", "").startswith("65536 (args.moco_k") for r in rows), (
        rows,
        review.top_models,
    )
