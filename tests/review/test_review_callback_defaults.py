"""An initialisation routine handed to ``Module.apply`` (``self.ups.apply(init_weights)``)
runs with its parameters' defaults: the row shows ``0.0, 0.01``, not the parameter names
``mean, std``."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
    import torch
    from torch import nn


    def init_weights(m, mean=0.0, std=0.01):
        classname = m.__class__.__name__
        if classname.find("Conv") != -1:
            m.weight.data.normal_(mean, std)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.ups = nn.ModuleList([nn.Conv1d(4, 4, 3) for _ in range(2)])
            self.ups.apply(init_weights)

        def forward(self, x):
            for up in self.ups:
                x = up(x)
            return x


    if __name__ == "__main__":
        net = Net()
        opt = torch.optim.Adam(net.parameters(), lr=1e-3)
        net(torch.zeros(1, 4, 16)).mean().backward()
        opt.step()
"""


def test_callback_routine_runs_with_its_defaults(tmp_path) -> None:
    root = write_repo(tmp_path, {"model.py": MODEL})
    review = build_review(str(root))
    rows = [r for r in review.recipe if r.category == "init" and r.name == "init_weights"]
    assert rows, [(r.category, r.name) for r in review.recipe]
    value = dict(rows[0].values)["m.weight.data.normal_"]
    assert value.startswith("0.0, 0.01"), value
