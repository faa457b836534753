"""A weight average written as an assignment of ``torch.lerp`` back to the copy
(``p_ema.data = torch.lerp(p.data, p_ema.data, beta)`` in a loop over both models'
parameters): an EMA row with its decay and where the step calls it. A lerp of two other
tensors assigned to a third name is none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import torch


    def moving_average(model, model_ema, beta=0.999):
        for param, param_ema in zip(model.parameters(), model_ema.parameters()):
            param_ema.data = torch.lerp(param.data, param_ema.data, beta)


    def blend(model, other, weight=0.5):
        for param, param_other in zip(model.parameters(), other.parameters()):
            mixed = torch.lerp(param.data, param_other.data, weight)
            print(mixed.sum())


    def main():
        net = torch.nn.Linear(4, 4)
        net_ema = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(net.parameters(), lr=1e-4)
        for _ in range(10):
            loss = net(torch.zeros(2, 4)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            moving_average(net, net_ema, beta=0.99)
        blend(net, net_ema)


    if __name__ == '__main__':
        main()
"""


def test_a_lerp_assigned_back_to_the_copy_is_an_ema(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "repo", {"train.py": TRAIN})), jobs=1)
    rows = [r for r in review.recipe if r.category == "ema"]
    assert [r.name for r in rows] == ["EMA of weights (moving_average)"]
    values = dict(rows[0].values)
    assert values["beta"].startswith("0.99 ")
