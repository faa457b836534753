"""A registry's picked builder that calls another entry of the same table: the pick is the
run's model with the parts its builder hands it, and what the other entry builds is no
alternative. A detectron2-like backbone table holds ``build_body`` (a ``Body``) and
``build_pyramid_backbone`` (a ``Pyramid`` over ``build_body(cfg)``); the YAML a documented
training command names (run from ``tools/``: ``--config-file ../configs/x.yaml``) picks the
pyramid, so ``Body`` is its ``bottom_up`` and priced, not an alternative like ``Other``."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "det/__init__.py": "",
    "det/config.py": """
        from fvcore.common.config import CfgNode

        _C = CfgNode()
        _C.MODEL = CfgNode()
        _C.MODEL.BACKBONE = CfgNode()
        _C.MODEL.BACKBONE.NAME = "build_body"
        _C.SOLVER = CfgNode()
        _C.SOLVER.BASE_LR = 0.001


        def get_cfg():
            return _C.clone()
    """,
    "det/backbone.py": """
        import torch
        from fvcore.common.registry import Registry
        from torch import nn

        BACKBONE_REGISTRY = Registry("BACKBONE")


        class Body(nn.Module):
            def __init__(self, depth):
                super().__init__()
                self.stem = nn.Conv2d(3, 64, 7)
                self.blocks = nn.Sequential(*[nn.Conv2d(64, 64, 3) for _ in range(depth)])

            def forward(self, x):
                return self.blocks(torch.relu(self.stem(x)))


        class LastPool(nn.Module):
            def forward(self, x):
                return nn.functional.max_pool2d(x, 1, 2)


        class Pyramid(nn.Module):
            def __init__(self, bottom_up, top_block):
                super().__init__()
                self.bottom_up = bottom_up
                self.top_block = top_block
                self.lateral = nn.Conv2d(64, 256, 1)

            def forward(self, x):
                return self.top_block(self.lateral(self.bottom_up(x)))


        class Other(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)
                self.norm = nn.GroupNorm(2, 8)

            def forward(self, x):
                return self.norm(self.conv(x)).unique()


        @BACKBONE_REGISTRY.register()
        def build_body(cfg):
            return Body(50)


        @BACKBONE_REGISTRY.register()
        def build_pyramid_backbone(cfg):
            bottom_up = build_body(cfg)
            return Pyramid(bottom_up=bottom_up, top_block=LastPool())


        @BACKBONE_REGISTRY.register()
        def build_other_backbone(cfg):
            return Other()


        def build_backbone(cfg):
            name = cfg.MODEL.BACKBONE.NAME
            return BACKBONE_REGISTRY.get(name)(cfg)
    """,
    "tools/train_net.py": """
        import argparse

        import torch

        from det.backbone import build_backbone
        from det.config import get_cfg


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--config-file", default="")
            parser.add_argument("opts", nargs=argparse.REMAINDER)
            args = parser.parse_args()
            cfg = get_cfg()
            cfg.merge_from_file(args.config_file)
            cfg.merge_from_list(args.opts)
            model = build_backbone(cfg)
            optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
            for x in torch.utils.data.DataLoader(range(8), batch_size=2):
                loss = model(x).mean()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
    "configs/pyramid.yaml": """
        MODEL:
          BACKBONE:
            NAME: "build_pyramid_backbone"
        SOLVER:
          BASE_LR: 0.02
    """,
    "configs/other.yaml": """
        MODEL:
          BACKBONE:
            NAME: "build_other_backbone"
        SOLVER:
          BASE_LR: 0.01
    """,
    "README.md": "# det\n\nSee GETTING_STARTED.md.\n",
    "GETTING_STARTED.md": """
        # Training

        ```
        cd tools/
        ./train_net.py --num-gpus 8 \\
          --config-file ../configs/pyramid.yaml
        ```

        On one GPU:
        ```
        ./train_net.py --config-file ../configs/pyramid.yaml SOLVER.BASE_LR 0.0025
        ```

        Evaluate:
        ```
        ./train_net.py --config-file ../configs/other.yaml --eval-only
        ```
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("calledentry"), FILES)))


def test_the_documented_config_picks_the_pyramid_with_its_parts(review) -> None:  # type: ignore[no-untyped-def]
    top = review.top_models[0]
    assert top.cls.endswith("backbone.Pyramid")
    parts = dict(top.parts)
    assert "pyramid.yaml" in parts["selected by"]
    assert parts["selected by"].count("→ build_pyramid_backbone()") == 1
    assert parts["bottom_up"].startswith("Body")
    assert parts["top_block"].startswith("LastPool")


def test_the_body_the_picked_builder_calls_is_no_alternative(review) -> None:  # type: ignore[no-untyped-def]
    assert any(c.endswith("backbone.Other") for c in review.alternatives)
    assert not any(c.endswith("backbone.Body") for c in review.alternatives)
    said = next(
        s
        for s in review.effort.explanation
        if s.startswith("Alternatives the run's config does not pick")
    )
    assert "backbone.py:Other" in said and "backbone.py:Body" not in said


def test_the_documented_config_s_values_are_the_recipe_s(review) -> None:  # type: ignore[no-untyped-def]
    sgd = next(i for i in review.recipe if i.name == "torch.optim.SGD")
    assert dict(sgd.values)["lr"].startswith("0.02")


# the same repository with a second config system beside the YAML one: Python configs a
# lazy-config launcher loads by path, building a dense detector and an optimizer of their own
LAZY_FILES = {
    **FILES,
    # the package re-exports the dense detector and a registered head: a re-export builds
    # nothing; the head, registered into a table the training looks up, is the run's
    "det/__init__.py": """
        from .dense import Dense
        from .heads import ScoreHead
    """,
    "det/heads.py": """
        from fvcore.common.registry import Registry
        from torch import nn

        HEAD_REGISTRY = Registry("HEAD")


        @HEAD_REGISTRY.register()
        class ScoreHead(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.score = nn.Conv2d(256, 1, 1)

            def forward(self, x):
                return self.score(x).sigmoid()


        def build_head(cfg):
            return HEAD_REGISTRY.get(cfg.MODEL.HEAD_NAME)(cfg)
    """,
    "det/lazy.py": """
        import importlib.util


        class LazyCall:
            def __init__(self, target):
                self.target = target

            def __call__(self, **kwargs):
                return {"_target_": self.target, **kwargs}


        def load(path):
            spec = importlib.util.spec_from_file_location("cfg", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module


        def instantiate(cfg):
            return cfg["_target_"](**{k: v for k, v in cfg.items() if k != "_target_"})
    """,
    "det/dense.py": """
        import torch
        from torch import nn
        from torch.nn import functional as F


        class Dense(nn.Module):
            def __init__(self, depth):
                super().__init__()
                self.convs = nn.Sequential(*[nn.Conv2d(8, 8, 3) for _ in range(depth)])
                self.score = nn.Conv2d(8, 1, 1)

            def forward(self, x, target):
                logits = self.score(self.convs(x))
                keep = (target > 0).nonzero()
                return F.binary_cross_entropy_with_logits(logits[keep], target[keep])
    """,
    "configs/common/models/dense.py": """
        from det import Dense, ScoreHead
        from det.lazy import LazyCall as L

        model = L(Dense)(depth=3)
        head = L(ScoreHead)(cfg=None)
    """,
    "configs/common/optim.py": """
        import torch

        from det.lazy import LazyCall as L

        SGD = L(torch.optim.SGD)(params=None, lr=0.5, momentum=0.9)
    """,
    "configs/x/dense_1x.py": """
        from ..common.models.dense import model
        from ..common.optim import SGD as optimizer
    """,
    "tools/lazy_train_net.py": """
        import argparse

        from det.lazy import instantiate, load


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--config-file", default="")
            args = parser.parse_args()
            cfg = load(args.config_file)
            model = instantiate(cfg.model)
            cfg.optimizer["params"] = model.parameters()
            optimizer = instantiate(cfg.optimizer)
            for x in range(8):
                loss = model(x, x)
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def lazy(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("lazyconfigs"), LAZY_FILES)))


def test_the_other_launcher_s_python_configs_are_counted_apart(lazy) -> None:  # type: ignore[no-untyped-def]
    from apiscan.review.work import UNLAUNCHED

    apart = dict(lazy.ancillary)
    for path in (
        "configs/common/models/dense.py",
        "configs/common/optim.py",
        "configs/x/dense_1x.py",
    ):
        assert apart.get(path) == UNLAUNCHED
    # their optimizer is no row of the run's recipe; the documented run's is
    sgd = [i for i in lazy.recipe if i.name == "torch.optim.SGD"]
    assert all(not i.where.path.startswith("configs/") for i in sgd)
    assert any(dict(i.values)["lr"].startswith("0.02") for i in sgd)
    assert lazy.top_models[0].cls.endswith("backbone.Pyramid")


def test_a_config_module_the_run_imports_stays_ported(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """INVALID as another launcher's config: a module of the config folder that code outside
    it imports (the training's own settings) is the run's."""
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.work import Ancillary

    files = {
        **LAZY_FILES,
        "configs/paths.py": "DATA = 'datasets/coco'\n",
        "det/data.py": "from configs.paths import DATA\n\n\ndef root():\n    return DATA\n",
    }
    root = write_repo(tmp_path, files)
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    keep = {"tools/train_net.py", "tools/lazy_train_net.py"}
    ancillary = Ancillary(analyses, None, keep=keep, root=root)
    assert ancillary.why("configs/paths.py") == ""
    assert ancillary.why("configs/common/optim.py") != ""


def test_what_only_the_other_launcher_s_configs_build_is_not_priced(lazy) -> None:  # type: ignore[no-untyped-def]
    """``Dense`` is built only by a config counted apart; the package's ``__init__``
    re-exporting it is no use of its own. ``ScoreHead`` is registered into a table: a
    registry builds it by name, whatever else names it."""
    said = next(
        s for s in lazy.effort.explanation if s.startswith("Used only by files counted apart")
    )
    assert "det/dense.py:Dense" in said
    assert "ScoreHead" not in said
    assert not any("det/dense.py:Dense" in s for s in lazy.effort.explanation if "rewrites" in s)
