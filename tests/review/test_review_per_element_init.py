"""An ``if``/``elif`` chain on the name a ``for`` loop binds (``for name, param in
model.named_parameters(): if 'bias' in name: init.constant_(param, 0.0) elif 'weight' in
name: init.kaiming_normal_(param)``) runs every branch, one parameter at a time: the
initialisation rows say so, not that one of them is an alternative the values pick."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import torch
    import torch.nn.init as init

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x)

    def main():
        model = Net()
        for name, param in model.named_parameters():
            if 'bias' in name:
                init.constant_(param, 0.0)
            elif 'weight' in name:
                init.kaiming_normal_(param)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(torch.zeros(1, 2)).sum()
        loss.backward()
        optimizer.step()

    if __name__ == '__main__':
        main()
"""


def test_a_chain_on_the_loops_name_runs_every_branch(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "init", {"train.py": TRAIN})))
    rows = {i.name: i.note for i in review.recipe if i.category == "init"}
    assert set(rows) == {"torch.nn.init.constant_", "torch.nn.init.kaiming_normal_"}, rows
    for note in rows.values():
        assert "alternatives" not in note, rows
        assert "every branch runs" in note, rows
