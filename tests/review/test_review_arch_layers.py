"""The layer modules only the registered models an architecture option does not pick build
are alternatives too (issue 20: a toolkit whose ``--arch`` picks one architecture, so one
registered model, while its package of shared layers also holds the layers of every other
model). The other model builds its layer through an unregistered base class it derives
from (``build_layer`` in the base): the base runs only under that model, so the layer's API
call sites give no network sites in the effort and its collective and state written in the
forward no work items, while the picked model's own layer stays the run's work. An example
deriving its own layer from that layer (counted apart) does not make the run build it, nor
does a layer of the toolkit deriving from it that only the example builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

FILES = {
    "README.md": """
        # kit

        Train the convolutional model:

        ```
        python train.py data-bin/x --arch conv_small --lr 0.25
        ```
    """,
    "kit/__init__.py": "",
    "kit/models/__init__.py": """
        MODEL_REGISTRY = {}
        ARCH_MODEL_REGISTRY = {}


        def build_model(args):
            return ARCH_MODEL_REGISTRY[args.arch].build_model(args)


        def register_model(name):
            def wrap(cls):
                MODEL_REGISTRY[name] = cls
                return cls
            return wrap


        def register_model_architecture(model_name, arch_name):
            def wrap(fn):
                ARCH_MODEL_REGISTRY[arch_name] = MODEL_REGISTRY[model_name]
                return fn
            return wrap


        from kit.models import attn, conv  # noqa: E402  (registers them)
    """,
    "kit/modules/__init__.py": """
        from .attn_layer import AttnLayer
        from .conv_layer import ConvLayer

        __all__ = ["AttnLayer", "ConvLayer"]
    """,
    "kit/modules/conv_layer.py": """
        import torch
        from torch import nn


        class ConvLayer(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv1d(dim, dim, 3, padding=1)

            def forward(self, x):
                return torch.nn.functional.glu(self.conv(x).repeat(1, 2, 1), dim=1)
    """,
    "kit/modules/attn_layer.py": """
        import torch
        import torch.distributed as dist
        from torch import nn


        def balanced(scores):
            return torch.Tensor.as_strided(scores, (2, 2), (1, 1))


        class AttnLayer(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.proj = nn.Linear(dim, dim)
                self.register_buffer("means", torch.zeros(4, dim))

            def forward(self, x):
                out = torch.empty_like(x)
                dist.all_to_all_single(out, x)
                self.means.data.copy_(out.mean(0))
                return balanced(self.proj(out)).masked_fill(x > 0, 0.0)
    """,
    "kit/models/conv.py": """
        from torch import nn

        from kit.models import register_model, register_model_architecture
        from kit.modules import ConvLayer


        @register_model("conv")
        class ConvModel(nn.Module):
            def __init__(self, layer):
                super().__init__()
                self.layer = layer
                self.out = nn.Linear(8, 8)

            @classmethod
            def build_model(cls, args):
                return cls(ConvLayer(8))

            def forward(self, x):
                return self.out(self.layer(x))


        @register_model_architecture("conv", "conv_small")
        def conv_small(args):
            args.dim = 8
    """,
    "kit/models/attn_base.py": """
        from torch import nn

        from kit.modules import AttnLayer


        class AttnModelBase(nn.Module):
            def __init__(self, layer):
                super().__init__()
                self.layer = layer

            @classmethod
            def build_layer(cls, dim):
                return AttnLayer(dim)

            @classmethod
            def build_model(cls, args):
                return cls(cls.build_layer(8))

            def forward(self, x):
                return self.layer(x)
    """,
    "kit/models/attn.py": """
        from kit.models import register_model, register_model_architecture
        from kit.models.attn_base import AttnModelBase


        @register_model("attn")
        class AttnModel(AttnModelBase):
            pass


        @register_model_architecture("attn", "attn_base")
        def attn_base(args):
            args.dim = 8


        @register_model_architecture("attn", "attn_big")
        def attn_big(args):
            args.dim = 16


        @register_model_architecture("attn", "attn_huge")
        def attn_huge(args):
            args.dim = 32
    """,
    # an example deriving its own layer from the unpicked model's (counted apart, as examples
    # are): it builds the layer only for that example, not for the run
    "examples/big_attn/layer.py": """
        from kit.modules import AttnLayer
        from kit.modules.wide_attn import WideAttnLayer


        class BigAttnLayer(AttnLayer):
            def __init__(self, dim):
                super().__init__(dim * 2)


        def build(dim):
            return BigAttnLayer(dim)


        def build_wide(dim):
            return WideAttnLayer(dim)
    """,
    # a layer of the toolkit deriving from the unpicked model's, which only that example
    # builds: it goes with the example, and keeps its base no more than the example does
    "kit/modules/wide_attn.py": """
        from kit.modules.attn_layer import AttnLayer


        class WideAttnLayer(AttnLayer):
            def __init__(self, dim):
                super().__init__(dim * 4)
    """,
    "train.py": """
        import argparse

        import torch

        from kit.models import build_model


        def main(args):
            model = build_model(args)
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            for x, y in torch.utils.data.DataLoader(list(range(4)), batch_size=2):
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("data")
            parser.add_argument("--arch", "-a")
            parser.add_argument("--lr", type=float, default=0.1)
            main(parser.parse_args())
    """,
}


# the same model building its layer itself, no base in between
DIRECT = {
    **{k: v for k, v in FILES.items() if k != "kit/models/attn_base.py"},
    "kit/models/attn.py": FILES["kit/models/attn.py"]
    .replace("from kit.models.attn_base import AttnModelBase\n", "")
    .replace(
        """
        class AttnModel(AttnModelBase):
            pass
""",
        """
        class AttnModel(nn.Module):
            def __init__(self, layer):
                super().__init__()
                self.layer = layer

            @classmethod
            def build_model(cls, args):
                return cls(AttnLayer(8))

            def forward(self, x):
                return self.layer(x)
""",
    )
    .replace(
        "from kit.models import register_model",
        "from torch import nn\n\n        from kit.models import register_model",
    )
    .replace(
        "register_model_architecture\n",
        "register_model_architecture\n        from kit.modules import AttnLayer\n",
        1,
    ),
}


# the base re-exported by a package that star-imports it, and then a module importing it
# back from the package (fairseq's ``models/nat/__init__.py``): the package's name still
# stands for the base's own module's class
PACKAGED = {
    **{k: v for k, v in FILES.items() if k != "kit/models/attn_base.py"},
    "kit/models/bases/__init__.py": """
        from .attn_base import *
        from .checks import *
    """,
    "kit/models/bases/attn_base.py": FILES["kit/models/attn_base.py"],
    "kit/models/bases/checks.py": """
        from kit.models.bases import AttnModelBase


        def is_attention(model):
            return isinstance(model, AttnModelBase)
    """,
    "kit/models/attn.py": FILES["kit/models/attn.py"].replace(
        "from kit.models.attn_base import", "from kit.models.bases import"
    ),
}
VARIANTS = {"through a base": FILES, "direct": DIRECT, "through a re-exported base": PACKAGED}


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def review(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Review:
    files = VARIANTS[request.param]
    root = write_repo(tmp_path_factory.mktemp("archlayers"), files)
    return build_review(str(root), jobs=1)


def _places(review: Review) -> set[str]:
    return {w.path for g in review.gaps for w in g.where}


def test_the_architecture_picks_the_model(review: Review) -> None:
    assert review.top_models[0].cls == "kit.models.conv.ConvModel"
    assert "kit.models.attn.AttnModel" in review.alternatives


def test_the_unpicked_model_s_layer_module_is_not_priced(review: Review) -> None:
    """The layer, the base building it and the helper only the layer calls are listed with
    the alternatives, not priced: no network site of theirs in the gaps the effort counts."""
    assert not {p for p in _places(review) if p.startswith("kit/modules/attn")}
    said = next(
        s
        for s in review.effort.explanation
        if s.startswith("Alternatives the run's config does not pick")
    )
    assert "kit/modules/attn_layer.py:AttnLayer" in said
    for base in ("kit/models/attn_base.py", "kit/models/bases/attn_base.py"):
        if (Path(review.root) / base).exists():
            assert f"{base}:AttnModelBase" in said
    assert "kit/modules/attn_layer.py:balanced" in said
    assert "ConvLayer" not in said


def test_the_unpicked_model_s_layer_gives_no_work_item(review: Review) -> None:
    assert not [
        i for i in review.work if any(w.path.startswith("kit/modules/attn") for w in i.where)
    ]
    kinds = {i.kind for i in review.work}
    assert "collective-in-forward" not in kinds
    assert "state-in-forward" not in kinds


def test_the_picked_model_s_layer_stays_the_run_s_work(review: Review) -> None:
    assert "kit/modules/conv_layer.py" in _places(review)
