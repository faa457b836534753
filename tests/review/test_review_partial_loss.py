"""A repository loss method bound by ``functools.partial`` and called later (issue 20: a
diffusion trainer's ``partial(self.diffusion.training_losses, self.model, batch, t,
model_kwargs=cond)``): the row's values are the partial's arguments after the method, bound
to the method's parameters (the model, the batch, the steps), never the method itself."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "lib/__init__.py": "",
    "lib/diffusion.py": """
import torch


class Diffusion:
    def training_losses(self, model, x_start, t, model_kwargs=None):
        noise = torch.randn_like(x_start)
        return ((model(x_start + noise) - noise) ** 2).mean()
""",
    "train.py": """
import functools

import torch

from lib.diffusion import Diffusion


def main():
    model = torch.nn.Linear(4, 4)
    diffusion = Diffusion()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(3):
        batch = torch.randn(2, 4)
        steps = torch.zeros(2)
        compute = functools.partial(
            diffusion.training_losses, model, batch, steps, model_kwargs={}
        )
        loss = compute()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
""",
}


def test_a_partial_binds_the_method_s_own_parameters(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    rows = [r for r in review.recipe if r.name.endswith("Diffusion.training_losses")]
    assert rows
    for row in rows:
        values = dict(row.values)
        assert values.get("model", "model") == "model"
        assert "training_losses" not in values.get("model", "")
    bound = [dict(r.values) for r in rows if "x_start" in dict(r.values)]
    assert bound and "batch set at" in bound[0]["x_start"] and "steps set at" in bound[0]["t"]
