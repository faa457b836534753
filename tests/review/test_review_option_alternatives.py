"""A training framework that builds the networks an option file names (BasicSR-style
``network_g: {type: Net}``): the networks only the other option files name, and those
registered with the framework that no file names, are alternatives of the one this run
trains: listed as such, not priced."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

NET = """
    from basicsr.utils.registry import ARCH_REGISTRY
    from torch import nn
    from torch.nn.utils import spectral_norm


    @ARCH_REGISTRY.register()
    class Net(nn.Module):
        def __init__(self, dim=16):
            super().__init__()
            self.conv = nn.Conv2d(3, dim, 3)
            self.up = nn.PixelShuffle(2)

        def forward(self, x):
            return self.up(self.conv(x))


    @ARCH_REGISTRY.register()
    class Disc(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = spectral_norm(nn.Conv2d(3, 8, 3))

        def forward(self, x):
            return self.conv(x)


    @ARCH_REGISTRY.register()
    class Compact(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 3, 3), nn.PReLU())

        def forward(self, x):
            return self.body(x)
"""

OPTIONS = """
    model_type: SRModel
    network_g:
      type: Net
      dim: 32
    train:
      optim_g:
        type: Adam
        lr: !!float 2e-4
      pixel_opt:
        type: L1Loss
        loss_weight: 1.0
"""

GAN = (
    OPTIONS
    + """
    network_d:
      type: Disc
"""
)

FILES = {
    "srpkg/__init__.py": "",
    "srpkg/archs/__init__.py": "",
    "srpkg/archs/net_arch.py": NET,
    "srpkg/train.py": """
        import os.path as osp

        import srpkg.archs  # noqa: F401
        from basicsr.train import train_pipeline

        if __name__ == "__main__":
            train_pipeline(osp.abspath(osp.join(__file__, osp.pardir, osp.pardir)))
    """,
    "options/train/train_Net.yml": OPTIONS,
    "options/train/train_Net_GAN.yml": GAN,
    "README.md": """
        Train:

            python srpkg/train.py -opt options/train/train_Net.yml --launcher pytorch
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("opts"), FILES)))


def test_networks_the_chosen_option_file_does_not_build_are_alternatives(review) -> None:  # type: ignore[no-untyped-def]
    top = review.top_models[0]
    assert top.cls.endswith("net_arch.Net")
    alternatives = dict(top.parts)["alternatives"]
    assert "Disc (network_d in 1 other option file)" in alternatives
    assert "Compact (registered, named by no option file)" in alternatives
    said = " ".join(review.effort.explanation)
    assert "srpkg/archs/net_arch.py:Disc" in said
    # the discriminator's spectral norm is not the run's work
    assert not [g for g in review.gaps if g.api == "torch.nn.utils.spectral_norm"]
