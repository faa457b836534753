"""What the run builds when it picks by a name at run time: a test of membership in a
repository module's namespace (``if args.arch in vits.__dict__.keys(): ... elif args.arch in
torchvision_models.__dict__.keys(): ...``) is decided by the option's default, so the
backbones of the ``elif`` branches after it are neither recipe rows nor work items. Small
repositories written inline."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.extract.values import Expr
from apiscan.review.build import build_review
from apiscan.review.evaluate import UNKNOWN, Namespace, holds

_VIT = """
    import torch.nn as nn


    class VisionTransformer(nn.Module):
        def __init__(self, depth=12):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(depth)])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x


    def vit_small(**kwargs):
        return VisionTransformer(depth=12, **kwargs)
"""

_TRAIN = """
    import argparse

    import torch
    import torchvision.models as torchvision_models

    import vit as vits


    def main(args):
        if args.arch in vits.__dict__.keys():
            model = vits.__dict__[args.arch]()
        elif args.arch in torchvision_models.__dict__.keys():
            model = torchvision_models.__dict__[args.arch](pretrained=True)
        else:
            raise SystemExit(1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            loss = model(torch.randn(2, 8)).sum()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--arch", default="ARCH", type=str)
        main(parser.parse_args())
"""


def _review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arch: str):  # type: ignore[no-untyped-def]
    write_repo(tmp_path, {"vit.py": _VIT, "train.py": _TRAIN.replace("ARCH", arch)})
    monkeypatch.chdir(tmp_path)
    return build_review(".", jobs=1)


def _backbones(review) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    rows = [i.name for i in review.recipe if i.category == "backbone"]
    items = [i.what for i in review.work if "backbone" in i.kind]
    return rows, items


def test_a_name_the_module_defines_skips_the_elif_backbones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows, items = _backbones(_review(tmp_path, monkeypatch, "vit_small"))
    assert not [r for r in rows if "torchvision" in r]
    assert not [i for i in items if "torchvision" in i]


def test_a_name_the_module_lacks_takes_the_elif(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, items = _backbones(_review(tmp_path, monkeypatch, "resnet50"))
    assert [i for i in items if "torchvision" in i]


def _name(name: str) -> Expr:
    return Expr("Name", name, 1, 0, 1, len(name), name=name)


def test_membership_in_a_namespace_is_told_and_a_dicts_keys_are_its_keys() -> None:
    space = Namespace({"vit_small", "VisionTransformer"})
    target = Expr("Attribute", "m.__dict__", 1, 0, 1, 10, name="__dict__", parts=(_name("m"),))
    keys = Expr("Attribute", "m.__dict__.keys", 1, 0, 1, 15, name="keys", parts=(target,))
    call = Expr("Call", "m.__dict__.keys()", 1, 0, 1, 17, parts=(keys,))
    arch = Expr("Constant", "'vit_small'", 1, 0, 1, 11, value="vit_small")
    test = Expr("Compare", "x in m.__dict__.keys()", 1, 0, 1, 20, name="In", parts=(arch, call))

    def lookup(e: Expr, depth: int) -> object:
        return space if e.name == "__dict__" else UNKNOWN

    assert holds(test, lookup) is True
    other = arch._replace(value="resnet50")
    assert holds(test._replace(parts=(other, call)), lookup) is False
    # an unknown receiver tells nothing
    assert holds(test, lambda e, d: UNKNOWN) is UNKNOWN


# --- a registry looked up by a name a config key gives, through a parameter ----------------

_DATASETS = {
    "vid/config/defaults.py": """
        from fvcore.common.config import CfgNode

        _C = CfgNode()
        _C.NUM_GPUS = 1
        _C.RNG_SEED = 1
        _C.TRAIN = CfgNode()
        _C.TRAIN.ENABLE = True
        _C.TRAIN.BATCH_SIZE = 64
        _C.TRAIN.DATASET = "clips"
        _C.TEST = CfgNode()
        _C.TEST.DATASET = "clips"
        _C.SOLVER = CfgNode()
        _C.SOLVER.BASE_LR = 0.1
        _C.MODEL = CfgNode()
        _C.MODEL.MODEL_NAME = "TwoPath"


        def get_cfg():
            return _C.clone()
    """,
    "configs/K/ONE.yaml": """
        TRAIN:
          BATCH_SIZE: 32
          DATASET: clips
        SOLVER:
          BASE_LR: 0.05
        MODEL:
          MODEL_NAME: OnePath
        RNG_SEED: 0
    """,
    "vid/datasets/__init__.py": """
        from .build import DATASET_REGISTRY, build_dataset  # noqa: F401
        from .clips import Clips, Frames  # noqa: F401 (registers the datasets)
    """,
    "vid/datasets/build.py": """
        from fvcore.common.registry import Registry

        DATASET_REGISTRY = Registry("DATASET")


        def build_dataset(dataset_name, cfg, split):
            name = dataset_name.capitalize()
            return DATASET_REGISTRY.get(name)(cfg, split)
    """,
    "vid/datasets/loader.py": """
        import torch

        from .build import build_dataset


        def construct_loader(cfg, split):
            if split == "train":
                dataset_name = cfg.TRAIN.DATASET
            else:
                dataset_name = cfg.TEST.DATASET
            dataset = build_dataset(dataset_name, cfg, split)
            return torch.utils.data.DataLoader(dataset, batch_size=cfg.TRAIN.BATCH_SIZE)
    """,
    "vid/datasets/clips.py": """
        import torch
        import torchvision.transforms as T

        from .build import DATASET_REGISTRY


        @DATASET_REGISTRY.register()
        class Clips(torch.utils.data.Dataset):
            def __init__(self, cfg, split):
                self.transform = T.Compose([T.RandomHorizontalFlip(), T.ToTensor()])

            def __getitem__(self, index):
                return self.transform(torch.zeros(3, 8, 8))

            def __len__(self):
                return 8


        @DATASET_REGISTRY.register()
        class Frames(torch.utils.data.Dataset):
            def __init__(self, cfg, split):
                self.transform = T.Compose([T.RandomResizedCrop(224), T.ToTensor()])

            def __getitem__(self, index):
                return self.transform(torch.zeros(3, 8, 8))

            def __len__(self):
                return 8
    """,
    "tools/train_net.py": """
        import numpy as np
        import torch

        from vid.datasets.loader import construct_loader
        from vid.models import nets  # noqa: F401 (registers the models)
        from vid.models.build import build_model


        def train(cfg):
            np.random.seed(cfg.RNG_SEED)
            torch.manual_seed(cfg.RNG_SEED)
            model = build_model(cfg)
            optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
            loader = construct_loader(cfg, "train")
            for x in loader:
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
    """,
}


def test_a_registry_get_by_a_config_key_through_a_parameter_keeps_the_named_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from registry_repo import FILES

    write_repo(tmp_path, {**FILES, **_DATASETS})
    monkeypatch.chdir(tmp_path)
    review = build_review(".", jobs=1)
    augmentation = " ".join(
        f"{i.name} {i.values}" for i in review.recipe if i.category == "augmentation"
    )
    assert "RandomHorizontalFlip" in augmentation  # Clips: ``clips``.capitalize()
    assert "RandomResizedCrop" not in augmentation  # Frames: registered, never picked


# --- a factory whose result is called: ``get_model(name)(**kwargs)`` ------------------------

_FACTORY = {
    "zoo/__init__.py": "",
    "zoo/build.py": """
        from fvcore.common.registry import Registry

        MODELS = Registry("MODELS")


        def get_model(model_name):
            return MODELS.get(model_name)
    """,
    "zoo/nets.py": """
        import torch
        from torch import nn

        from .build import MODELS


        class Small(nn.Module):
            def __init__(self, num_classes=10):
                super().__init__()
                self.fc = nn.Linear(8, num_classes)

            def forward(self, x):
                return self.fc(x)


        class Large(nn.Module):
            def __init__(self, num_classes=10):
                super().__init__()
                self.fc = nn.Sequential(nn.Linear(8, 64), nn.Linear(64, num_classes))

            def forward(self, x):
                return self.fc(x)


        @MODELS.register()
        def small(**kwargs):
            return Small(**kwargs)


        @MODELS.register()
        def large(pretrained=True, **kwargs):
            model = Large(**kwargs)
            if pretrained:
                url = "https://example.com/large.pth"
                model.load_state_dict(torch.hub.load_state_dict_from_url(url))
            return model
    """,
    "train.py": """
        import argparse

        import torch

        from zoo import nets  # noqa: F401 (registers the models)
        from zoo.build import get_model


        def main(args):
            model = get_model(args.model)(num_classes=10)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(10):
                loss = model(torch.randn(2, 8)).sum()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="small", type=str)
            main(parser.parse_args())
    """,
}


def test_a_called_factory_result_is_the_registered_model_the_default_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path, _FACTORY)
    monkeypatch.chdir(tmp_path)
    review = build_review(".", jobs=1)
    (top,) = [t for t in review.top_models if t.builder == "main"]
    assert top.cls == "zoo.nets.Small"
    selected = dict(top.parts)["selected by"]
    assert "get_model" in selected and "'small'" in selected


def test_a_called_factory_by_a_yacs_key_leaves_the_other_entries_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from registry_repo import FILES

    files = {**FILES, **{k: v for k, v in _FACTORY.items() if k.startswith("zoo/")}}
    files["vid/config/defaults.py"] = files["vid/config/defaults.py"].replace(
        '_C.MODEL.MODEL_NAME = "TwoPath"',
        '_C.MODEL.MODEL_NAME = "TwoPath"\n        _C.MODEL.ZOO = "small"',
    )
    files["tools/train_net.py"] = (
        files["tools/train_net.py"]
        .replace("model = build_model(cfg)", "model = get_model(cfg.MODEL.ZOO)(num_classes=10)")
        .replace(
            "from vid.models.build import build_model",
            "from zoo import nets  # noqa: F401\n        from zoo.build import get_model",
        )
    )
    write_repo(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    review = build_review(".", jobs=1)
    (top,) = [t for t in review.top_models if t.builder == "train"]
    assert top.cls == "zoo.nets.Small"
    # ``large``'s weights download is no recipe row and no work: no config names it
    assert not [i for i in review.work if any(w.path == "zoo/nets.py" for w in i.where)]
    assert not [i for i in review.recipe if i.where.path == "zoo/nets.py"]


# --- a dict of loss classes by name, looked up through a factory ----------------------------

_LOSSES = {
    "vid/models/losses.py": """
        import torch
        from torch import nn


        class PairLoss(nn.Module):
            def forward(self, inputs, labels=None):
                targets = torch.zeros(inputs.shape[0], dtype=torch.long)
                return nn.CrossEntropyLoss(reduction="sum")(inputs, targets)


        class MultiLoss(nn.Module):
            def __init__(self, reduction="mean"):
                super().__init__()
                self.mse = nn.MSELoss(reduction=reduction)

            def forward(self, x, y):
                return sum(self.mse(a, b) for a, b in zip(x, y))


        _LOSSES = {
            "cross_entropy": nn.CrossEntropyLoss,
            "pairs": PairLoss,
            "multi": MultiLoss,
        }


        def get_loss_func(loss_name):
            if loss_name not in _LOSSES.keys():
                raise NotImplementedError(loss_name)
            return _LOSSES[loss_name]
    """,
}


@pytest.mark.parametrize("unpicked_asks", [False, True])
def test_a_dict_of_losses_picked_through_a_factory_keeps_only_the_configured_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unpicked_asks: bool
) -> None:
    from registry_repo import FILES

    files = {**FILES, **_LOSSES}
    files["vid/config/defaults.py"] = files["vid/config/defaults.py"].replace(
        '_C.MODEL.MODEL_NAME = "TwoPath"',
        '_C.MODEL.MODEL_NAME = "TwoPath"\n        _C.MODEL.LOSS_FUNC = "cross_entropy"',
    )
    # the model the config does not pick asks for another entry: it never runs
    files["vid/models/nets.py"] = (
        files["vid/models/nets.py"]
        .replace(
            "self.fast = Stem(8)",
            'self.fast = Stem(8)\n                self.pairs = losses.get_loss_func("pairs")()'
            if unpicked_asks
            else "self.fast = Stem(8)",
        )
        .replace(
            "from .build import MODEL_REGISTRY",
            "from . import losses\n        from .build import MODEL_REGISTRY",
        )
    )
    files["tools/train_net.py"] = (
        files["tools/train_net.py"]
        .replace(
            "from vid.models.build import build_model",
            "from vid.models import losses\n        from vid.models.build import build_model",
        )
        .replace(
            "loss = model(x).mean()",
            'loss = losses.get_loss_func(cfg.MODEL.LOSS_FUNC)(reduction="mean")(model(x), x)',
        )
    )
    write_repo(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    review = build_review(".", jobs=1)
    assert not [i for i in review.recipe if i.where.path == "vid/models/losses.py"]
    # the entry the configured name picks is the loss, where the training builds it
    (row,) = [i for i in review.recipe if i.category == "loss"]
    assert (row.name, row.where.path) == ("torch.nn.CrossEntropyLoss", "tools/train_net.py")
    assert ("reduction", '"mean"') in row.values and "'cross_entropy'" in row.note
    assert "vid.models.losses.PairLoss" in review.alternatives
    assert "vid.models.losses.MultiLoss" in review.alternatives


# --- what a table's pick never leaves out ------------------------------------------------------

_TABLE = {
    "vid/models/table.py": """
        from torch import nn


        class Plain(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = nn.Conv2d(3, 8, 3)

            def forward(self, x):
                return self.stem(x)


        class Deep(Plain):
            def __init__(self):
                super().__init__()
                self.more = nn.Conv2d(8, 8, 3)

            def forward(self, x):
                return self.more(super().forward(x))


        class Wide(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = nn.Conv2d(3, 64, 3)

            def forward(self, x):
                return self.stem(x)


        _models = {"plain": Plain, "deep": Deep, "wide": Wide}


        def get_model():
            from vid.config.defaults import _C as cfg

            return _models[cfg.MODEL.TABLE]
    REGISTER""",
}


@pytest.mark.parametrize("filled", [False, True])
def test_a_table_pick_keeps_the_bases_of_the_picked_entry_and_a_filled_table_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filled: bool
) -> None:
    from registry_repo import FILES

    register = "\n        def register_model(name, ctor):\n            _models[name] = ctor\n"
    files = {**FILES, **_TABLE}
    files["vid/models/table.py"] = files["vid/models/table.py"].replace(
        "REGISTER", register if filled else ""
    )
    files["vid/config/defaults.py"] = files["vid/config/defaults.py"].replace(
        '_C.MODEL.MODEL_NAME = "TwoPath"',
        '_C.MODEL.MODEL_NAME = "TwoPath"\n        _C.MODEL.TABLE = "deep"',
    )
    files["tools/train_net.py"] = (
        files["tools/train_net.py"]
        .replace("model = build_model(cfg)", "model = get_model()()")
        .replace(
            "from vid.models.build import build_model", "from vid.models.table import get_model"
        )
    )
    write_repo(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    alternatives = build_review(".", jobs=1).alternatives
    assert "vid.models.table.Plain" not in alternatives  # Deep's base: built with it
    # ``register_model`` may fill the table with anything: no entry is left out
    assert ("vid.models.table.Wide" in alternatives) is not filled


def test_a_conditional_expression_takes_the_side_its_test_picks() -> None:
    """``False if 'something' in dataset else True`` (a flip switched off for one
    dataset, passed as a parameter): with ``dataset`` told, the side its test takes; with
    it unknown, nothing."""
    word = Expr("Constant", "'something'", 1, 0, 1, 11, value="something")
    test = Expr("Compare", "'something' in dataset", 1, 0, 1, 22, name="In",
                parts=(word, _name("dataset")))  # fmt: skip
    no = Expr("Constant", "False", 1, 0, 1, 5, value=False, literal=True)
    yes = Expr("Constant", "True", 1, 0, 1, 4, value=True, literal=True)
    choice = Expr("IfExp", "False if ... else True", 1, 0, 1, 40, parts=(test, no, yes))

    def told(value: object):  # type: ignore[no-untyped-def]
        return lambda e, depth: value if e.kind == "Name" else UNKNOWN

    assert holds(choice, told("kinetics")) is True
    assert holds(choice, told("something-v2")) is False
    assert holds(choice, told(UNKNOWN)) is UNKNOWN
