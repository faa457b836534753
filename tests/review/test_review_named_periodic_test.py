"""An evaluation the training loop runs under a test named before the ``if``
(``should_test = ... and ((j + 1) % args.test_freq == 0)``, then ``if should_test:
evaluate(...)``) runs every N steps, as one under ``if (j + 1) % N == 0:`` does: the
metrics it copies to the host are no host read of every training step; the loss the step
itself copies every step still is."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    def evaluate(model, batches):
        scores = []
        for x in batches:
            z = model(x)
            scores.append(z.detach().cpu().numpy())
        return scores

    def run():
        parser = argparse.ArgumentParser()
        parser.add_argument("--test-freq", type=int, default=100)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        batches = [torch.zeros(4, 2) for _ in range(10)]
        for j, x in enumerate(batches):
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total = loss.detach().cpu().numpy()
            should_test = (args.test_freq > 0) and ((j + 1) % args.test_freq == 0)
            if should_test:
                evaluate(model, batches)
            print(total)

    if __name__ == "__main__":
        run()
"""


def test_an_evaluation_under_a_named_periodic_test_reads_nothing_per_step(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    syncs = [i for i in review.work if i.kind == "step-sync"]
    assert [[(w.path, w.line) for w in i.where] for i in syncs] == [[("train.py", 23)]], syncs
