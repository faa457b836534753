"""Two optimizers with their own learning rates unpacked from one tuple in branches
(TTUR: ``if opt.no_TTUR: G_lr, D_lr = opt.lr, opt.lr`` / ``else: G_lr, D_lr = opt.lr / 2,
opt.lr * 2``): each optimizer's row gives the value its element takes in the branch the
defaults run, not the bare name (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import argparse
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument('--lr', type=float, default=0.0002)
        parser.add_argument('--no_TTUR', action='store_true')
        opt = parser.parse_args()


        def create_optimizers(opt, g, d):
            if opt.no_TTUR:
                G_lr, D_lr = opt.lr, opt.lr
            else:
                G_lr, D_lr = opt.lr / 2, opt.lr * 2
            optimizer_G = torch.optim.Adam(g.parameters(), lr=G_lr, betas=(0.0, 0.9))
            optimizer_D = torch.optim.Adam(d.parameters(), lr=D_lr, betas=(0.0, 0.9))
            return optimizer_G, optimizer_D


        g = torch.nn.Linear(4, 4)
        d = torch.nn.Linear(4, 1)
        opt_g, opt_d = create_optimizers(opt, g, d)
        for epoch in range(3):
            for x in [torch.zeros(2, 4)]:
                opt_g.zero_grad()
                d(g(x)).sum().backward()
                opt_g.step()
                opt_d.zero_grad()
                d(x).sum().backward()
                opt_d.step()
    """,
}


def test_each_optimizer_gets_its_unpacked_learning_rate(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [dict(r.values) for r in review.recipe if r.name == "torch.optim.Adam"]
    assert [v["lr"].split(" ")[0] for v in rows] == ["0.0001", "0.0004"], rows
