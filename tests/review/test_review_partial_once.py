"""A diffusion's loss method bound by ``functools.partial`` in the training step, where a
subclass the run builds overrides it (``compute_losses = functools.partial(
self.diffusion.training_losses, self.model, micro, t, model_kwargs=cond)`` with
``SpacedDiffusion(GaussianDiffusion)`` passing on to the base's method): one loss row at that
place, with the arguments and how it is bound, not a second row by the base's name
(issue 20: rows a lead counts twice)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "diffusion.py": """
        import torch


        class GaussianDiffusion:
            def __init__(self, steps):
                self.num_timesteps = steps

            def training_losses(self, model, x_start, t, model_kwargs=None):
                noise = torch.randn_like(x_start)
                out = model(x_start + noise, t)
                return {"loss": ((out - noise) ** 2).mean(dim=1)}


        class SpacedDiffusion(GaussianDiffusion):
            def training_losses(self, model, *args, **kwargs):
                return super().training_losses(model, *args, **kwargs)
    """,
    "train.py": """
        import functools

        import torch
        from diffusion import SpacedDiffusion


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 4)

            def forward(self, x, t):
                return self.fc(x)


        class TrainLoop:
            def __init__(self, model, diffusion):
                self.model = model
                self.diffusion = diffusion
                self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4)

            def run_step(self, batch, cond):
                t = torch.randint(0, self.diffusion.num_timesteps, (batch.shape[0],))
                compute_losses = functools.partial(
                    self.diffusion.training_losses,
                    self.model,
                    batch,
                    t,
                    model_kwargs=cond,
                )
                losses = compute_losses()
                loss = losses["loss"].mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()


        def main():
            loop = TrainLoop(Net(), SpacedDiffusion(1000))
            for _ in range(10):
                loop.run_step(torch.zeros(2, 4), {})


        if __name__ == "__main__":
            main()
    """,
}


def test_one_row_for_the_bound_loss(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [i for i in review.recipe if i.name.endswith("training_losses")]
    assert len(rows) == 1, [(i.name, i.values, i.note) for i in rows]
    assert rows[0].note.startswith("bound by functools.partial, stored as compute_losses")
