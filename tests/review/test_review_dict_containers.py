"""Attribute-access dicts of a third-party package (``munch.Munch``, ``addict.Dict``)
holding a solver's networks and optimizers are containers, not layers the network runs: no
"third-party layers" work item, whatever Module holds them or moves their values to a
device."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
    import torch
    from torch import nn
    from {package} import {cls}


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return torch.relu(self.fc(x))


    def build_model():
        return {cls}(generator=Net(), discriminator=Net())


    class Solver(nn.Module):
        def __init__(self):
            super().__init__()
            self.device = torch.device('cpu')
            self.nets = build_model()
            self.optims = {cls}()
            for name, net in self.nets.items():
                self.optims[name] = torch.optim.Adam(net.parameters(), lr=1e-4)

        def batch(self, x):
            return {cls}({{k: v.to(self.device) for k, v in x.items()}})

        def train(self, x):
            for _ in range(10):
                x = self.batch(x)
                loss = self.nets.generator(x['x']).mean()
                loss.backward()
                for o in self.optims.values():
                    o.step()


    if __name__ == '__main__':
        Solver().train({{'x': torch.zeros(2, 4)}})
"""


@pytest.mark.parametrize(("package", "cls"), [("munch", "Munch"), ("addict", "Dict")])
def test_an_attribute_dict_is_no_third_party_layer(tmp_path: Path, package: str, cls: str) -> None:
    root = write_repo(tmp_path / "repo", {"train.py": MODEL.format(package=package, cls=cls)})
    review = build_review(str(root), jobs=1)
    assert not [w.what for w in review.work if w.kind == "third-party-layer"]
