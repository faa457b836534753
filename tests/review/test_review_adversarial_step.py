"""A training step that updates two networks against each other (a GAN: the discriminator's
loss and step, then the generator's), each loss with its own backward pass and optimizer,
is a work item of its own: two gradient functions over separate parameter sets in
MindSpore. The backward passes may sit in methods the step calls (``backward_D`` calling
``backward_D_basic``). One loss stepped through two optimizers (parameter groups split over
them) is one gradient computation: no item."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

GAN = """
    import torch
    from torch import nn


    class GanModel:
        def __init__(self):
            self.netG = nn.Linear(4, 4)
            self.netD = nn.Linear(4, 1)
            self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)
            self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4)

        def backward_D_basic(self, real, fake):
            loss_D = (1 - self.netD(real)).pow(2).mean() + self.netD(fake.detach()).pow(2).mean()
            loss_D.backward()
            return loss_D

        def backward_D(self):
            self.loss_D = self.backward_D_basic(self.real, self.fake)

        def backward_G(self):
            self.loss_G = (1 - self.netD(self.fake)).pow(2).mean()
            self.loss_G.backward()

        def optimize_parameters(self, real):
            self.real = real
            self.fake = self.netG(real)
            self.optimizer_G.zero_grad()
            self.backward_G()
            self.optimizer_G.step()
            self.optimizer_D.zero_grad()
            self.backward_D()
            self.optimizer_D.step()


    if __name__ == "__main__":
        model = GanModel()
        for _ in range(10):
            model.optimize_parameters(torch.zeros(2, 4))
"""
SPLIT = """
    import torch
    from torch import nn

    if __name__ == "__main__":
        encoder, head = nn.Linear(4, 4), nn.Linear(4, 1)
        opt_a = torch.optim.SGD(encoder.parameters(), lr=0.1)
        opt_b = torch.optim.Adam(head.parameters(), lr=1e-3)
        for _ in range(10):
            loss = head(encoder(torch.zeros(2, 4))).mean()
            loss.backward()
            opt_a.step()
            opt_b.step()
"""


@pytest.mark.parametrize(("source", "items"), [(GAN, 1), (SPLIT, 0)])
def test_adversarial_step_is_a_work_item(tmp_path, source: str, items: int) -> None:
    root = write_repo(tmp_path, {"train.py": source})
    review = build_review(str(root))
    found = [w for w in review.work if w.kind == "adversarial-step"]
    assert len(found) == items, [(w.kind, w.what) for w in review.work]
    if items:
        assert "optimize_parameters" in found[0].what


MODES = """
    import argparse
    import torch
    from torch import nn


    class Solver:
        def __init__(self):
            self.G = nn.Linear(4, 4)
            self.D = nn.Linear(4, 1)
            self.g_optimizer = torch.optim.Adam(self.G.parameters(), lr=1e-4)
            self.d_optimizer = torch.optim.Adam(self.D.parameters(), lr=1e-4)

        def train(self):
            for _ in range(10):
                x = torch.zeros(2, 4)
                d_loss = self.D(x).mean() - self.D(self.G(x).detach()).mean()
                self.d_optimizer.zero_grad()
                d_loss.backward()
                self.d_optimizer.step()
                g_loss = -self.D(self.G(x)).mean()
                self.g_optimizer.zero_grad()
                g_loss.backward()
                self.g_optimizer.step()

        def train_multi(self):
            for _ in range(10):
                x = torch.zeros(2, 4)
                d_loss = self.D(x).mean() - self.D(self.G(x).detach()).mean()
                self.d_optimizer.zero_grad()
                d_loss.backward()
                self.d_optimizer.step()
                g_loss = -self.D(self.G(x)).mean()
                self.g_optimizer.zero_grad()
                g_loss.backward()
                self.g_optimizer.step()


    def main(config):
        solver = Solver()
        if config.dataset in ['CelebA', 'RaFD']:
            solver.train()
        elif config.dataset in ['Both']:
            solver.train_multi()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--dataset', type=str, default='CelebA', choices=['CelebA', 'Both'])
        main(parser.parse_args())
"""


def test_a_training_mode_the_run_leaves_out_gives_no_second_item(tmp_path) -> None:
    """``solver.train_multi()`` only under ``elif config.dataset in ['Both']:`` with
    ``--dataset`` defaulting to CelebA: its adversarial step is another run's (a
    multi-domain GAN was priced twice)."""
    review = build_review(str(write_repo(tmp_path, {"main.py": MODES})), jobs=1)
    items = [i.what for i in review.work if i.kind == "adversarial-step"]
    assert len(items) == 1 and items[0].startswith("Solver.train:")
