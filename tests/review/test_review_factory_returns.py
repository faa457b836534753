"""A layer factory returning an inner function (``get_norm_layer``: ``functools.partial(
nn.InstanceNorm2d, ...)`` for ``'instance'``, or ``def norm_layer(x): return Identity()``
for ``'none'``) returns no ``Identity``: the inner def's ``return`` is not the factory's. The
generator handed that factory's result is not built around an ``Identity`` part."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

NETWORKS = """
    import functools

    import torch
    from torch import nn


    class Identity(nn.Module):
        def forward(self, x):
            return x


    def get_norm_layer(norm_type="instance"):
        if norm_type == "batch":
            norm_layer = functools.partial(nn.BatchNorm2d, affine=True)
        elif norm_type == "instance":
            norm_layer = functools.partial(nn.InstanceNorm2d, affine=False)
        else:
            def norm_layer(x):
                return Identity()
        return norm_layer


    class Block(nn.Module):
        def __init__(self, dim, norm_layer):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1), norm_layer(dim))

        def forward(self, x):
            return x + self.body(x)


    class Generator(nn.Module):
        def __init__(self, dim, norm_layer=nn.BatchNorm2d):
            super().__init__()
            self.blocks = nn.Sequential(*[Block(dim, norm_layer) for _ in range(2)])

        def forward(self, x):
            return torch.tanh(self.blocks(x))


    def define_G(dim, norm="instance"):
        norm_layer = get_norm_layer(norm_type=norm)
        return Generator(dim, norm_layer=norm_layer)
"""
TRAIN = """
    import torch

    from networks import define_G

    if __name__ == "__main__":
        net = define_G(8)
        opt = torch.optim.Adam(net.parameters(), lr=2e-4)
        x = torch.zeros(1, 8, 16, 16)
        loss = net(x).abs().mean()
        loss.backward()
        opt.step()
"""


def test_inner_def_return_is_not_the_factory_result(tmp_path) -> None:
    root = write_repo(tmp_path, {"networks.py": NETWORKS, "train.py": TRAIN})
    review = build_review(str(root))
    tops = {t.cls.rpartition(".")[2]: t for t in review.top_models}
    assert "Generator" in tops, tops
    parts = dict(tops["Generator"].parts)
    assert not any("Identity" in v for v in parts.values()), parts
