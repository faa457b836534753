"""Work in code only the models a run's config leaves out reach is the alternative's, not
the run's: an unpicked registry model's state written in its forward and the collective of
the autograd Function it alone applies (``du.AllGatherWithGradient.apply``, read as an
attribute of the imported module) are no work items; the picked model stays the run's though
only the unpicked one names it in code (``_TYPES["one"]`` wrapping it as a backbone), so a
layer the picked forward builds is still its work, and its initialiser a recipe row."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "vid/__init__.py": "",
    "vid/config/__init__.py": "",
    "vid/config/defaults.py": """
        from fvcore.common.config import CfgNode

        _C = CfgNode()
        _C.NUM_GPUS = 1
        _C.RNG_SEED = 1
        _C.TRAIN = CfgNode()
        _C.TRAIN.ENABLE = True
        _C.TRAIN.BATCH_SIZE = 64
        _C.SOLVER = CfgNode()
        _C.SOLVER.BASE_LR = 0.1
        _C.MODEL = CfgNode()
        _C.MODEL.MODEL_NAME = "TwoPath"


        def get_cfg():
            return _C.clone()
    """,
    "vid/models/__init__.py": "",
    "vid/models/build.py": """
        from fvcore.common.registry import Registry

        MODEL_REGISTRY = Registry("MODEL")


        def build_model(cfg):
            name = cfg.MODEL.MODEL_NAME
            model = MODEL_REGISTRY.get(name)(cfg)
            return model
    """,
    "vid/models/nets.py": """
        import torch
        from torch import nn

        from vid.utils import dist as du

        from .build import MODEL_REGISTRY


        class Stem(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv3d(3, dim, 3)

            def forward(self, x):
                return self.conv(x)


        def init_weights(model):
            for m in model.modules():
                if isinstance(m, nn.Linear):
                    m.weight.data.normal_(mean=0.0, std=0.01)


        @MODEL_REGISTRY.register()
        class OnePath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.stem = Stem(64)
                self.head = nn.Linear(64, 400)
                init_weights(self)

            def forward(self, x):
                y = self.head(self.stem(x))
                return nn.Softmax(dim=1)(y)


        _TYPES = {"one": OnePath}


        @MODEL_REGISTRY.register()
        class TwoPath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.backbone = _TYPES["one"](cfg)
                self.register_buffer("queue", torch.zeros(4096, 400))
                self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))

            def forward(self, x):
                q = du.AllGatherWithGradient.apply(self.backbone(x))
                self.queue[: q.shape[0]] = q.detach()
                self.ptr += 1
                return q
    """,
    "vid/utils/__init__.py": "",
    "vid/utils/dist.py": """
        import torch
        import torch.distributed as dist


        class AllGatherWithGradient(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = [torch.zeros_like(x) for _ in range(dist.get_world_size())]
                dist.all_gather(out, x)
                return torch.cat(out, dim=0)

            @staticmethod
            def backward(ctx, grad):
                dist.all_reduce(grad)
                return grad
    """,
    "tools/train_net.py": """
        import numpy as np
        import torch

        from vid.models import nets  # noqa: F401 (registers the models)
        from vid.models.build import build_model


        def train(cfg):
            np.random.seed(cfg.RNG_SEED)
            torch.manual_seed(cfg.RNG_SEED)
            model = build_model(cfg)
            optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
            loader = torch.utils.data.DataLoader(range(8), batch_size=cfg.TRAIN.BATCH_SIZE)
            for x in loader:
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
    """,
    "tools/run_net.py": """
        import argparse

        from vid.config.defaults import get_cfg

        from train_net import train


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--cfg", dest="cfg_files", nargs="+", default=None)
            parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
            args = parser.parse_args()
            for path in args.cfg_files:
                cfg = get_cfg()
                cfg.merge_from_file(path)
                cfg.merge_from_list(args.opts)
                if cfg.TRAIN.ENABLE:
                    train(cfg)


        if __name__ == "__main__":
            main()
    """,
    "configs/K/ONE.yaml": """
        TRAIN:
          BATCH_SIZE: 32
        SOLVER:
          BASE_LR: 0.05
        MODEL:
          MODEL_NAME: OnePath
        RNG_SEED: 0
    """,
    "configs/K/TWO.yaml": """
        TRAIN:
          BATCH_SIZE: 16
        SOLVER:
          BASE_LR: 0.2
        MODEL:
          MODEL_NAME: TwoPath
    """,
    "README.md": "# vid\n\nSee GETTING_STARTED.md to train.\n",
    "GETTING_STARTED.md": """
        # Getting started

        ```
        python tools/run_net.py \\
          --cfg configs/K/ONE.yaml \\
          NUM_GPUS 2 \\
          TRAIN.BATCH_SIZE 8 \\
        ```

        Test:
        ```
        python tools/run_net.py --cfg configs/K/TWO.yaml TRAIN.ENABLE False
        ```
    """,
    "INSTALL.md": """
        Check the install: `python tools/run_net.py --cfg configs/K/ONE.yaml NUM_GPUS 1`
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("altwork"), FILES)
    return build_review(str(root))


def test_the_unpicked_model_s_forward_work_is_not_the_run_s(review) -> None:  # type: ignore[no-untyped-def]
    assert review.top_models[0].cls.endswith("nets.OnePath")
    kinds = {i.kind for i in review.work}
    assert "state-in-forward" not in kinds
    assert "collective-in-forward" not in kinds


def test_the_picked_model_named_only_by_the_unpicked_one_is_still_work(review) -> None:  # type: ignore[no-untyped-def]
    built = [i for i in review.work if i.kind == "cell-in-construct"]
    assert built and all(w.path == "vid/models/nets.py" for i in built for w in i.where)
    assert any("OnePath.forward" in i.what for i in built)


def test_the_picked_model_s_initialiser_is_a_recipe_row(review) -> None:  # type: ignore[no-untyped-def]
    assert any(i.category == "init" and i.name == "init_weights" for i in review.recipe)


def test_the_tree_shows_the_unpicked_model_apart(review) -> None:  # type: ignore[no-untyped-def]
    from apiscan.review.html import render_html
    from apiscan.review.markdown import render_markdown

    assert any(c.endswith("nets.TwoPath") for c in review.alternatives)
    text = render_markdown(review)
    heading = "Alternatives the run's config does not pick (another config builds them):"
    run, _, other = text.partition(heading)
    run = run.partition("## Network structure")[2]
    assert "- **OnePath** (" in run and "**TwoPath**" not in run
    assert "- **TwoPath** (" in other.partition("| class |")[0]
    page = render_html(review)
    assert "does not pick (another config builds them):</p>" in page


def test_what_only_the_unpicked_model_reaches_is_not_priced(review) -> None:  # type: ignore[no-untyped-def]
    """The autograd Function only ``TwoPath`` applies is the alternative's: its API call
    sites are listed with the alternatives, not priced."""
    said = next(
        s
        for s in review.effort.explanation
        if s.startswith("Alternatives the run's config does not pick")
    )
    assert "vid/utils/dist.py:AllGatherWithGradient" in said
    assert "vid/models/nets.py:OnePath" not in said
