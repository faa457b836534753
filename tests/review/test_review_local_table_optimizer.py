"""An optimizer class picked from a dict the training function binds, by an option's value
(``opts = {"sgd": torch.optim.SGD, "adagrad": torch.optim.Adagrad}``, then
``opts[args.optimizer](parameters, lr=args.learning_rate)``), is the optimizer row of the
class the default picks, with the arguments the call passes."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    def run():
        parser = argparse.ArgumentParser()
        parser.add_argument("--optimizer", type=str, default="adagrad")
        parser.add_argument("--learning-rate", type=float, default=0.01)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 1)
        opts = {"sgd": torch.optim.SGD, "adagrad": torch.optim.Adagrad}
        optimizer = opts[args.optimizer](model.parameters(), lr=args.learning_rate)
        for i in range(10):
            loss = model(torch.zeros(4, 2)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    if __name__ == "__main__":
        run()
"""


def test_an_optimizer_picked_from_a_local_dict_is_the_picked_class_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    rows = {i.name: i for i in review.recipe if i.category == "optimizer"}
    assert "torch.optim.Adagrad" in rows and "torch.optim.SGD" not in rows, rows
    row = rows["torch.optim.Adagrad"]
    assert dict(row.values)["lr"].startswith("0.01 ")
    assert "opts['adagrad']" in row.note
