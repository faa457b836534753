"""An initialisation routine that picks its initialiser by a variable of the function it is
nested in (``init_weights(net, init_type='normal')`` defining ``init_func(m)`` that tests
``if init_type == 'normal': ... elif init_type == 'xavier': ...``): the branch the values the
callers pass take is the recipe's row, the other initialisers are alternatives the run never
builds, not rows of their own. Where the value cannot be told, each row says it is one of
the alternatives and under which test, as a loss's or a schedule's branches do."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

NETWORKS = """
    import os

    import torch
    from torch import nn
    from torch.nn import init


    def init_weights(net, init_type="normal", init_gain=0.02):
        def init_func(m):
            classname = m.__class__.__name__
            if hasattr(m, "weight") and classname.find("Conv") != -1:
                if init_type == "normal":
                    init.normal_(m.weight.data, 0.0, init_gain)
                elif init_type == "xavier":
                    init.xavier_normal_(m.weight.data, gain=init_gain)
                elif init_type == "kaiming":
                    init.kaiming_normal_(m.weight.data, a=0, mode="fan_in")

        net.apply(init_func)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 3, 3)

        def forward(self, x):
            return self.conv(x)


    def define_net():
        net = Net()
        init_weights(net, "normal", init_gain=0.02)
        return net
"""
TRAIN = """
    import torch

    from networks import define_net

    if __name__ == "__main__":
        net = define_net()
        opt = torch.optim.Adam(net.parameters(), lr=2e-4)
        net(torch.zeros(1, 3, 8, 8)).mean().backward()
        opt.step()
"""


def test_closure_variable_picks_the_initialiser(tmp_path) -> None:
    root = write_repo(tmp_path, {"networks.py": NETWORKS, "train.py": TRAIN})
    review = build_review(str(root))
    inits = {r.name: r.note for r in review.recipe if r.category == "init"}
    assert "torch.nn.init.normal_" in inits, inits
    assert "torch.nn.init.xavier_normal_" not in inits, inits
    assert "torch.nn.init.kaiming_normal_" not in inits, inits


def test_untold_initialiser_rows_are_alternatives(tmp_path) -> None:
    untold = NETWORKS.replace(
        'init_weights(net, "normal", init_gain=0.02)',
        'init_weights(net, os.environ["INIT"], init_gain=0.02)',
    )
    root = write_repo(tmp_path, {"networks.py": untold, "train.py": TRAIN})
    review = build_review(str(root))
    inits = {r.name: r.note for r in review.recipe if r.category == "init"}
    assert {"torch.nn.init.normal_", "torch.nn.init.xavier_normal_"} <= inits.keys(), inits
    assert all("alternatives" in inits[n] for n in inits), inits


LAYER_KINDS = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 3, 3)
            self.bn = nn.BatchNorm2d(3)
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out")
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.ones_(m.weight)

        def forward(self, x):
            return self.bn(self.conv(x))
"""


def test_branches_on_the_layer_kind_all_run(tmp_path) -> None:
    # one branch per kind of layer the loop visits: every initialiser runs, no alternatives
    train = TRAIN.replace("from networks import define_net", "from networks import Net")
    train = train.replace("define_net()", "Net()")
    root = write_repo(tmp_path, {"networks.py": LAYER_KINDS, "train.py": train})
    review = build_review(str(root))
    inits = {r.name: r.note for r in review.recipe if r.category == "init"}
    assert {"torch.nn.init.kaiming_normal_", "torch.nn.init.ones_"} <= inits.keys(), inits
    assert not any("alternatives" in note for note in inits.values()), inits
