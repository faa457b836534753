"""A yacs repository whose training command is documented on a root Markdown page
(SlowFast-like): ``GETTING_STARTED.md`` runs ``tools/run_net.py --cfg configs/K/ONE.yaml`` with
``KEY VALUE`` overrides; a registry builds the model the YAML names. Shared by the tests of the
run's config and of the work only the unpicked models reach, which replace the models file."""

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
        from torch import nn

        from .build import MODEL_REGISTRY


        class Stem(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv3d(3, dim, 3)
                self.pool = nn.MaxPool3d(2)

            def forward(self, x):
                return self.pool(self.conv(x))


        @MODEL_REGISTRY.register()
        class TwoPath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.slow = Stem(64)
                self.fast = Stem(8)
                self.head = nn.Linear(72, 400)

            def forward(self, x):
                return self.head(self.slow(x[0]) + self.fast(x[1]))


        @MODEL_REGISTRY.register()
        class OnePath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.stem = Stem(64)
                self.head = nn.Linear(64, 400)

            def forward(self, x):
                return self.head(self.stem(x))
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
