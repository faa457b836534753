"""A GAN whose trainer steps each network in a method of its own (``run_generator_one_step``
with ``optimizer_G`` after the generator's backward pass, ``run_discriminator_one_step`` with
``optimizer_D`` after the discriminator's), the training loop calling both in turn: the
networks are trained in turn all the same, one adversarial-step item (issue 20). A trainer
whose one method steps one optimizer is none."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAINER = """
    import torch


    class Trainer:
        def __init__(self, g, d):
            self.g, self.d = g, d
            self.optimizer_G = torch.optim.Adam(g.parameters(), lr=1e-4)
            self.optimizer_D = torch.optim.Adam(d.parameters(), lr=4e-4)

        def run_generator_one_step(self, x):
            self.optimizer_G.zero_grad()
            g_loss = -self.d(self.g(x)).mean()
            g_loss.backward()
            self.optimizer_G.step()

        def run_discriminator_one_step(self, x):
            self.optimizer_D.zero_grad()
            d_loss = self.d(self.g(x).detach()).mean() - self.d(x).mean()
            d_loss.backward()
            self.optimizer_D.step()
"""

LOOP = """
    import torch
    from trainer import Trainer

    trainer = Trainer(torch.nn.Linear(4, 4), torch.nn.Linear(4, 1))
    for epoch in range(3):
        for x in [torch.zeros(2, 4)]:
            trainer.run_generator_one_step(x)
            trainer.run_discriminator_one_step(x)
"""


def test_two_optimizers_stepped_in_sibling_methods_called_in_turn(tmp_path) -> None:
    review = build_review(
        str(write_repo(tmp_path, {"trainer.py": TRAINER, "train.py": LOOP})), jobs=1
    )
    items = [i for i in review.work if i.kind == "adversarial-step"]
    assert len(items) == 1, review.work
    assert "optimizer_D" in items[0].what and "optimizer_G" in items[0].what
    assert {w.line for w in items[0].where} == {14, 20}, items[0].where


def test_one_method_stepping_one_optimizer_is_no_adversarial_step(tmp_path) -> None:
    loop = LOOP.replace("            trainer.run_discriminator_one_step(x)\n", "")
    review = build_review(
        str(write_repo(tmp_path, {"trainer.py": TRAINER, "train.py": loop})), jobs=1
    )
    assert not [i for i in review.work if i.kind == "adversarial-step"], review.work
