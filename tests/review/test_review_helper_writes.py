"""A checkpoint helper the training calls twice with different states (a GAN's generator in
one file, the discriminators and both optimizers in another): the write's row says what each
call holds, not only the first."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

UTILS = """
    import torch


    def save_checkpoint(filepath, obj):
        print("Saving checkpoint to {}".format(filepath))
        torch.save(obj, filepath)
"""
TRAIN = """
    import torch
    from torch import nn

    from utils import save_checkpoint


    def train():
        gen, disc = nn.Linear(4, 4), nn.Linear(4, 1)
        optim_g = torch.optim.AdamW(gen.parameters(), 2e-4)
        optim_d = torch.optim.AdamW(disc.parameters(), 2e-4)
        for step in range(10):
            loss = disc(gen(torch.zeros(2, 4))).mean()
            loss.backward()
            optim_d.step()
            optim_g.step()
            if step % 5 == 0:
                save_checkpoint("g_%d" % step, {"generator": gen.state_dict()})
                save_checkpoint(
                    "do_%d" % step,
                    {"disc": disc.state_dict(), "optim_g": optim_g.state_dict(),
                     "optim_d": optim_d.state_dict(), "steps": step},
                )


    if __name__ == "__main__":
        train()
"""


def test_each_call_of_the_helper_says_what_it_holds(tmp_path) -> None:
    root = write_repo(tmp_path, {"utils.py": UTILS, "train.py": TRAIN})
    review = build_review(str(root))
    writes = [r for r in review.recipe if r.category == "checkpoint_save"]
    assert len(writes) == 1, writes
    held = [v for k, v in writes[0].values if k.startswith("holds")]
    assert held == ["generator", "disc, optim_g, optim_d, steps"], writes[0].values
