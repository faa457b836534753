"""A repository whose documentation runs only a sampling script of its ``scripts/`` folder
(a text-to-image README: ``python scripts/sample.py --prompt ...``) beside an undocumented
training launcher (``main.py``: OmegaConf configs named by ``--base``, built with
``instantiate_from_config``, then ``trainer.fit``). The documented script is how users run
the model: it is ported, not a helper counted apart, and the config its ``--config`` option
names by default is the one the run builds (its model the top model, and the text encoder a
nested ``cond_stage_config.target`` of that config builds, which no code names but a
``__main__`` try-out, no alternative; what only the other configs' targets name is one,
but a base class of the chosen model). An undocumented script of the same folder stays
apart, with what only it uses of that module."""

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
    "pkg/encoders.py": """
        import clip
        import torch
        from torch import nn


        class TextEncoder(nn.Module):
            def __init__(self, width=8):
                super().__init__()
                self.embed = nn.Embedding(100, width)

            def forward(self, ids):
                return self.embed(ids)


        class BagEncoder(nn.Module):
            def __init__(self, width=8):
                super().__init__()
                self.embed = nn.EmbeddingBag(100, width)

            def forward(self, ids):
                return self.embed(ids)


        class ImageEncoder(nn.Module):
            def __init__(self, version="ViT-B/32"):
                super().__init__()
                self.model, _ = clip.load(version, jit=False, device="cpu")

            def forward(self, x):
                return self.model.encode_image(x)


        if __name__ == "__main__":
            print(TextEncoder()(torch.zeros(1, 4, dtype=torch.long)).shape)
    """,
    "pkg/models.py": """
        import pytorch_lightning as pl
        import torch
        from torch import nn

        from pkg.util import instantiate_from_config


        class Base(nn.Module):
            def __init__(self, width=8):
                super().__init__()
                self.scale = nn.Parameter(torch.ones(width))


        class Net(Base):
            def __init__(self, cond_stage_config, width=8):
                super().__init__(width)
                self.conv = nn.Conv2d(3, width, 3)
                self.cond = instantiate_from_config(cond_stage_config)

            def forward(self, x, ids):
                return self.conv(x) + self.cond(ids).mean()


        def squash(x, clip=False):
            if clip:
                return x.clamp(-1, 1)
            return x


        class Other(pl.LightningModule):
            def __init__(self, cond_stage_config, width=8):
                super().__init__()
                self.fc = nn.Linear(width, width)
                self.cond = instantiate_from_config(cond_stage_config)

            def forward(self, x):
                return squash(self.fc(x))

            def training_step(self, batch, batch_idx):
                loss = torch.nn.functional.mse_loss(self(batch), batch)
                return loss

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
            cond_stage_config:
              target: pkg.encoders.BagEncoder
    """,
    "configs/train/base.yaml": """
        model:
          target: pkg.models.Base
          params:
            width: 16
    """,
    "configs/sample/net.yaml": """
        model:
          target: pkg.models.Net
          params:
            width: 32
            cond_stage_config:
              target: pkg.encoders.TextEncoder
              params:
                width: 32
    """,
    "pkg/samplers.py": """
        import torch


        class Sampler:
            def __init__(self, model):
                self.model = model

            def sample(self, x, ids):
                return self.model(x, ids)


        class FastSampler(Sampler):
            def sample(self, x, ids):
                return self.model(x, ids).clamp(-1, 1)
    """,
    "scripts/sample.py": """
        import argparse

        import torch
        from omegaconf import OmegaConf

        from pkg.samplers import FastSampler, Sampler
        from pkg.util import instantiate_from_config

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--prompt", type=str, default="")
            parser.add_argument("--steps", type=int, default=50)
            parser.add_argument("--config", type=str, default="configs/sample/net.yaml")
            parser.add_argument("--ckpt", type=str, default="model.ckpt")
            parser.add_argument("--fast", action="store_true")
            opt = parser.parse_args()
            config = OmegaConf.load(opt.config)
            model = instantiate_from_config(config.model)
            model.load_state_dict(torch.load(opt.ckpt)["state_dict"])
            if opt.fast:
                sampler = FastSampler(model)
            else:
                sampler = Sampler(model)
            with torch.no_grad():
                out = sampler.sample(torch.zeros(1, 3, 8, 8), torch.zeros(1, 4, dtype=torch.long))
    """,
    "scripts/prepare.py": """
        import argparse

        import torch

        from pkg.encoders import ImageEncoder, TextEncoder

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--out", type=str, default="x.pt")
            opt = parser.parse_args()
            torch.save(TextEncoder().state_dict(), opt.out)
            feats = ImageEncoder()(torch.zeros(1, 3, 224, 224))
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
    # the part the chosen config hands it by a nested target, named by its params key
    assert ("cond_stage_config", "TextEncoder") in top.parts


def test_a_class_the_chosen_config_targets_is_no_alternative(review) -> None:  # type: ignore[no-untyped-def]
    # (a script counted apart builds it too, and the module's ``__main__`` tries it out:
    # neither is the run, the chosen config's ``cond_stage_config.target`` is)
    assert not any(c.endswith("encoders.TextEncoder") for c in review.alternatives)
    said = [
        s
        for s in review.effort.explanation
        if s.startswith("Alternatives the run's config does not pick")
    ]
    assert not any("TextEncoder" in s for s in said)
    # VALID: the sampler only an option off by default builds stays an alternative
    assert any("FastSampler" in s for s in said)


def test_a_class_only_the_other_configs_target_is_an_alternative(review) -> None:  # type: ignore[no-untyped-def]
    # VALID: the encoder and the model only the training config names
    alternatives = review.alternatives
    assert any(c.endswith("encoders.BagEncoder") for c in alternatives)
    assert any(c.endswith("models.Other") for c in alternatives)
    # INVALID: a base class of the chosen model, though another config names it, runs
    # with it; the chosen config's own classes
    assert not any(c.endswith("models.Base") for c in alternatives)
    assert not any(c.endswith(("models.Net", "encoders.TextEncoder")) for c in alternatives)


def test_a_class_only_a_script_counted_apart_uses_is_not_priced(review) -> None:  # type: ignore[no-untyped-def]
    # the encoders' module tries itself out under ``__main__``: a library module all the
    # same, so its image encoder, which only the undocumented script builds, goes with that
    # script, its pretrained third-party model no work item
    said = [
        s for s in review.effort.explanation if s.startswith("Used only by files counted apart")
    ]
    assert any("encoders.py:ImageEncoder" in s for s in said)
    assert not any("clip" in i.what for i in review.work)
