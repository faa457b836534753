"""A method defined twice in one class body runs as its last definition only: the calls
the first one makes (SPADE's trainer: ``def update_learning_rate(self, epoch):
self.update_learning_rate(epoch)``, replaced by the real one further down) give no recipe
row of their own (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import torch


        class Trainer:
            def __init__(self, net):
                self.optimizer = torch.optim.Adam(net.parameters(), lr=2e-4)
                self.old_lr = 2e-4

            def update_learning_rate(self, epoch):
                self.update_learning_rate(epoch)

            def update_learning_rate(self, epoch):
                new_lr = self.old_lr / 2 if epoch > 10 else self.old_lr
                for group in self.optimizer.param_groups:
                    group["lr"] = new_lr
                self.old_lr = new_lr


        net = torch.nn.Linear(4, 1)
        trainer = Trainer(net)
        for epoch in range(20):
            for x in [torch.zeros(2, 4)]:
                trainer.optimizer.zero_grad()
                net(x).sum().backward()
                trainer.optimizer.step()
            trainer.update_learning_rate(epoch)
    """,
}


def test_the_calls_of_a_replaced_definition_give_no_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [r for r in review.recipe if r.name.endswith("update_learning_rate")]
    assert [r.where.line for r in rows] == [26], rows
