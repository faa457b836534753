"""Mixed precision written by hand (a guided-diffusion-style fp16 trainer: ``loss_scale =
2 ** self.lg_loss_scale``, ``(loss * loss_scale).backward()``, no autocast, no GradScaler):
a mixed-precision row with the scale, the value it starts from and when it runs; with the
switch off by default the branch is not what trains and the row is left out (issue 20:
fp16 written out by hand was missing from the recipe)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train_util.py": """
        import torch

        INITIAL_LOG_LOSS_SCALE = 20.0


        class TrainLoop:
            def __init__(self, model, lr, use_fp16=False):
                self.model = model
                self.use_fp16 = use_fp16
                self.lg_loss_scale = INITIAL_LOG_LOSS_SCALE
                self.opt = torch.optim.AdamW(self.model.parameters(), lr=lr)

            def run_loop(self, data):
                for batch in data:
                    self.forward_backward(batch)
                    self.opt.step()

            def forward_backward(self, batch):
                loss = self.model(batch).mean()
                if self.use_fp16:
                    loss_scale = 2 ** self.lg_loss_scale
                    (loss * loss_scale).backward()
                else:
                    loss.backward()
    """,
    "train.py": """
        import argparse
        import torch
        from train_util import TrainLoop


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--use_fp16", type=bool, default=DEFAULT)
            args = parser.parse_args()
            model = torch.nn.Linear(4, 1)
            TrainLoop(model, 1e-4, use_fp16=args.use_fp16).run_loop([torch.zeros(2, 4)] * 4)


        if __name__ == "__main__":
            main()
    """,
}


def _rows(tmp_path, default: str):
    files = {**FILES, "train.py": FILES["train.py"].replace("DEFAULT", default)}
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    return [i for i in review.recipe if i.name == "loss scaled by hand"]


def test_the_hand_written_loss_scale_is_a_mixed_precision_row(tmp_path) -> None:
    rows = _rows(tmp_path, "True")
    assert len(rows) == 1 and rows[0].category == "amp"
    values = dict(rows[0].values)
    assert values["scaled loss"] == "loss * loss_scale"
    assert values["loss_scale"] == "2 ** self.lg_loss_scale"
    assert values["self.lg_loss_scale"].startswith("20.0")
    assert values["when"].startswith("self.use_fp16 = True")


def test_off_by_default_it_is_no_row(tmp_path) -> None:
    assert _rows(tmp_path, "False") == []
