"""A repository whose documentation runs only a sampling script of its ``scripts/`` folder
(a text-to-image README: ``python scripts/sample.py --prompt ...``) beside an undocumented
training launcher (``main.py``: OmegaConf configs named by ``--base``, built with
``instantiate_from_config``, then ``trainer.fit``). The documented script is how users run
the model: it is ported, not a helper counted apart, and the config its ``--config`` option
names by default is the one the run builds (its model the top model). An undocumented
script of the same folder stays apart."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "README.md": """
        # Sampler

        ```
        python scripts/sample.py --prompt "a horse" --steps 50
        ```
    """,
    "pkg/__init__.py": "",
    "pkg/util.py": """
        import importlib


        def get_obj_from_str(string):
            module, cls = string.rsplit(".", 1)
            return getattr(importlib.import_module(module), cls)


        def instantiate_from_config(config):
            return get_obj_from_str(config["target"])(**config.get("params", dict()))
    """,
    "pkg/models.py": """
        import torch
        from torch import nn


        class Net(nn.Module):
            def __init__(self, width=8):
                super().__init__()
                self.conv = nn.Conv2d(3, width, 3)

            def forward(self, x):
                return self.conv(x)


        class Other(nn.Module):
            def __init__(self, width=8):
                super().__init__()
                self.fc = nn.Linear(width, width)

            def forward(self, x):
                return self.fc(x)

            def configure_optimizers(self):
                return torch.optim.AdamW(self.parameters(), lr=1e-4)
    """,
    "main.py": """
        import argparse

        import pytorch_lightning as pl
        from omegaconf import OmegaConf

        from pkg.util import instantiate_from_config

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--base", nargs="*", default=list())
            opt = parser.parse_args()
            config = OmegaConf.merge(*[OmegaConf.load(c) for c in opt.base])
            model = instantiate_from_config(config.model)
            trainer = pl.Trainer()
            trainer.fit(model)
    """,
    "configs/train/other.yaml": """
        model:
          base_learning_rate: 1.0e-4
          target: pkg.models.Other
          params:
            width: 16
    """,
    "configs/sample/net.yaml": """
        model:
          target: pkg.models.Net
          params:
            width: 32
    """,
    "scripts/sample.py": """
        import argparse

        import torch
        from omegaconf import OmegaConf

        from pkg.util import instantiate_from_config

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--prompt", type=str, default="")
            parser.add_argument("--steps", type=int, default=50)
            parser.add_argument("--config", type=str, default="configs/sample/net.yaml")
            parser.add_argument("--ckpt", type=str, default="model.ckpt")
            opt = parser.parse_args()
            config = OmegaConf.load(opt.config)
            model = instantiate_from_config(config.model)
            model.load_state_dict(torch.load(opt.ckpt)["state_dict"])
            with torch.no_grad():
                out = model(torch.zeros(1, 3, 8, 8))
    """,
    "scripts/prepare.py": """
        import argparse

        import torch

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--out", type=str, default="x.pt")
            opt = parser.parse_args()
            torch.save(torch.zeros(3), opt.out)
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("docsampling"), FILES)))


def test_the_documented_sampling_script_is_ported(review) -> None:  # type: ignore[no-untyped-def]
    apart = dict(review.ancillary)
    assert "scripts/sample.py" not in apart
    # VALID: a script of the folder the documentation never runs stays a helper
    assert apart.get("scripts/prepare.py") == "scripts"


def test_its_config_default_picks_the_top_model(review) -> None:  # type: ignore[no-untyped-def]
    top = review.top_models[0]
    assert top.cls.endswith("models.Net")
    said = dict(top.parts)["selected by"]
    assert "configs/sample/net.yaml" in said
    assert "--config at scripts/sample.py" in said
