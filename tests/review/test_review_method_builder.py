"""A static builder method picking its network by a string its caller passes from a yacs
key of the run's config (``ModelBuilder.build_encoder(arch=cfg.MODEL.arch_encoder.lower())``
with the YAML's ``arch_encoder: "ResnetDilated"``): the branch the value takes is the part,
the others are alternatives, not priced (issue 20: a segmentation repository priced its four
encoders and five decoders for a run that builds one of each)."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

FILES = {
    "seg/__init__.py": "",
    "seg/defaults.py": """
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.MODEL = CN()
        _C.MODEL.arch_encoder = "small"
        _C.MODEL.arch_decoder = "plain"
        _C.TRAIN = CN()
        _C.TRAIN.lr = 0.02
        cfg = _C
    """,
    "seg/fetch.py": """
        import os
        import torch
        from urllib.request import urlretrieve


        def load_url(url, model_dir='./pretrained'):
            cached = os.path.join(model_dir, url.split('/')[-1])
            if not os.path.exists(cached):
                urlretrieve(url, cached)
            return torch.load(cached, map_location='cpu')
    """,
    "seg/trunks.py": """
        import torch.nn as nn
        from seg.fetch import load_url

        urls = {
            'trunk_a': 'https://example.org/trunk_a.pth',
            'trunk_b': 'https://example.org/trunk_b.pth',
        }


        class Trunk(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.conv = nn.Conv2d(3, width, 3)

            def forward(self, x):
                return self.conv(x)


        def trunk_a(pretrained=False):
            model = Trunk(8)
            if pretrained:
                model.load_state_dict(load_url(urls['trunk_a']))
            return model


        def trunk_b(pretrained=False):
            model = Trunk(16)
            if pretrained:
                model.load_state_dict(load_url(urls['trunk_b']))
            return model
    """,
    "seg/models.py": """
        import torch
        import torch.nn as nn
        from seg import trunks


        class Small(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)

            def forward(self, x):
                return self.conv(x)


        class Dilated(nn.Module):
            def __init__(self, rate):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3, dilation=rate)

            def forward(self, x):
                return self.conv(x)


        class Plain(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Conv2d(8, 2, 1)

            def forward(self, x):
                return self.head(x)


        class Pyramid(nn.Module):
            def __init__(self):
                super().__init__()
                self.pool = nn.AdaptiveAvgPool2d(2)
                self.head = nn.Conv2d(8, 2, 1)

            def forward(self, x):
                return self.head(x) + nn.functional.interpolate(self.pool(x), x.shape[-2:])


        class Segmenter(nn.Module):
            def __init__(self, net_enc, net_dec):
                super().__init__()
                self.encoder = net_enc
                self.decoder = net_dec

            def forward(self, x):
                return self.decoder(self.encoder(x))


        class ModelBuilder:
            @staticmethod
            def build_encoder(arch='small'):
                arch = arch.lower()
                if arch == 'small':
                    trunk = trunks.__dict__['trunk_a'](pretrained=True)
                    net_encoder = Small()
                elif arch == 'dilated':
                    trunk = trunks.__dict__['trunk_b'](pretrained=True)
                    net_encoder = Dilated(2)
                elif arch == 'wide':
                    raise NotImplementedError
                    net_encoder = Small()
                else:
                    raise Exception('Architecture undefined!')
                return net_encoder

            @staticmethod
            def build_decoder(arch='plain'):
                arch = arch.lower()
                if arch == 'plain':
                    net_decoder = Plain()
                elif arch == 'pyramid':
                    net_decoder = Pyramid()
                else:
                    raise Exception('Architecture undefined!')
                return net_decoder
    """,
    "config/dilated-pyramid.yaml": """
        MODEL:
          arch_encoder: "Dilated"
          arch_decoder: "pyramid"
        TRAIN:
          lr: 0.01
    """,
    "train.py": """
        import argparse
        import torch
        from seg.defaults import cfg
        from seg.models import ModelBuilder, Segmenter


        def main(cfg):
            net_encoder = ModelBuilder.build_encoder(arch=cfg.MODEL.arch_encoder.lower())
            net_decoder = ModelBuilder.build_decoder(arch=cfg.MODEL.arch_decoder.lower())
            model = Segmenter(net_encoder, net_decoder)
            optimizer = torch.optim.SGD(model.parameters(), lr=cfg.TRAIN.lr)
            for _ in range(3):
                loss = model(torch.zeros(1, 3, 8, 8)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            parser = argparse.ArgumentParser()
            parser.add_argument('--cfg', default='config/dilated-pyramid.yaml')
            args = parser.parse_args()
            cfg.merge_from_file(args.cfg)
            main(cfg)
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    return build_review(str(write_repo(tmp_path_factory.mktemp("builder"), FILES)), jobs=1)


def test_the_branch_the_config_takes_is_the_part(review: Review) -> None:
    # (a build after a branch's ``raise`` never runs: no class of the part)
    top = review.top_models[0]
    assert top.cls == "seg.models.Segmenter"
    parts = dict(top.parts)
    assert parts["net_enc"].startswith("Dilated (picked by arch=cfg.MODEL.arch_encoder.lower()")
    assert parts["net_dec"].startswith("Pyramid (picked by")


def test_the_branches_it_leaves_are_no_models(review: Review) -> None:
    assert [t.cls for t in review.top_models] == ["seg.models.Segmenter"]
    roles = {m.cls: m.role for m in review.modules}
    assert roles["seg.models.Dilated"] == roles["seg.models.Pyramid"] == "block"


def test_the_classes_of_the_branches_left_are_not_priced(review: Review) -> None:
    said = [s for s in review.effort.explanation if s.startswith("Alternatives the run's")]
    assert said and "seg/models.py:Plain, seg/models.py:Small." in said[0]


def test_only_the_taken_branchs_namespace_pick_downloads_weights(review: Review) -> None:
    """``trunks.__dict__['trunk_a'](pretrained=True)`` sits in the branch the config leaves:
    its download is no work; ``trunk_b``'s is."""
    items = [i.what for i in review.work if i.kind == "pretrained-backbone"]
    assert items and all("trunk_b" in w and "trunk_a" not in w for w in items)
