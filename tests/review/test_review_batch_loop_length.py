"""The training length is the epoch loop's bound, not the batch loop's: a ``range`` loop
whose own body runs the backward pass (semantic-segmentation's ``for i in
range(cfg.TRAIN.epoch_iters):`` fetching ``next(iterator)``, a loop over the optimizers
inside it) is the loop over the batches; the loop calling it per epoch gives the length
(issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        from types import SimpleNamespace

        import torch

        def create_cfg():
            return SimpleNamespace(num_epoch=20, epoch_iters=5000)


        def train(model, optimizers, iterator, epoch, cfg):
            for i in range(cfg.epoch_iters):
                x = next(iterator)
                loss = model(x).sum()
                loss.backward()
                for optimizer in optimizers:
                    optimizer.step()


        def main():
            cfg = create_cfg()
            model = torch.nn.Linear(4, 1)
            optimizers = [torch.optim.SGD(model.parameters(), lr=0.02)]
            iterator = iter([torch.zeros(2, 4)] * 10)
            for epoch in range(cfg.num_epoch):
                train(model, optimizers, iterator, epoch + 1, cfg)


        if __name__ == "__main__":
            main()
    """,
}


def test_the_epoch_loop_not_the_batch_loop_gives_the_training_length(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [r for r in review.recipe if r.category == "epochs"]
    assert [r.name for r in rows] == ["cfg.num_epoch"], rows
    assert dict(rows[0].values)["value"].startswith("20")
