"""A hand-written gradient-clipping helper called with ``None`` for its bound clips nothing
(VITS-style ``clip_grad_value_(net.parameters(), None)``: the clamp runs only ``if
clip_value is not None``, the call measures the norm for logging): the recipe says no
clipping, where a bound passed keeps its clipping row (issue 20: invented recipe rows)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "commons.py": """
        def clip_grad_value_(parameters, clip_value, norm_type=2):
            parameters = list(filter(lambda p: p.grad is not None, parameters))
            total_norm = 0
            for p in parameters:
                param_norm = p.grad.data.norm(norm_type)
                total_norm += param_norm.item() ** norm_type
                if clip_value is not None:
                    p.grad.data.clamp_(min=-clip_value, max=clip_value)
            return total_norm ** (1. / norm_type)
    """,
    "train.py": """
        import argparse

        import torch
        import commons


        def train(args):
            net_h = torch.nn.Linear(4, 1)
            optim_h = torch.optim.AdamW(net_h.parameters(), 2e-4)
            net_g = torch.nn.Linear(4, 1)
            net_d = torch.nn.Linear(4, 1)
            optim_g = torch.optim.AdamW(net_g.parameters(), 2e-4)
            optim_d = torch.optim.AdamW(net_d.parameters(), 2e-4)
            for x in [torch.zeros(2, 4)] * 10:
                loss_d = net_d(x).mean()
                optim_d.zero_grad()
                loss_d.backward()
                grad_norm_d = commons.clip_grad_value_(net_d.parameters(), 1.0)
                optim_d.step()
                loss_g = net_g(x).mean()
                optim_g.zero_grad()
                loss_g.backward()
                grad_norm_g = commons.clip_grad_value_(net_g.parameters(), None)
                optim_g.step()
                loss_h = net_h(x).mean()
                optim_h.zero_grad()
                loss_h.backward()
                commons.clip_grad_value_(net_h.parameters(), args.clip)
                optim_h.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--clip", type=float, default=None)
            train(parser.parse_args())
    """,
}


def test_a_none_bound_clips_nothing(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = {dict(i.values)["parameters"]: i for i in review.recipe if i.category == "grad_clip"}
    off = rows["net_g.parameters()"]
    assert dict(off.values)["clips"] == "nothing"
    assert off.note.startswith("no gradient clipping: clip_value=None")
    # a setting whose default is None: off as the run starts
    assert dict(rows["net_h.parameters()"].values)["clips"] == "nothing"
    kept = rows["net_d.parameters()"]
    assert "clips" not in dict(kept.values)
    assert kept.note.startswith("gradient clipping written by hand")
