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
