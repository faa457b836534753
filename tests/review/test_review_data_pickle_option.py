"""A documented training command passing a data pickle (``python train.py -data_pkl
m30k.pkl``: the vocabulary and examples the preprocessing wrote) starts from no weights
file: neither the checkpoint item nor the recipe's checkpoint row says the training starts
from it. An option named for weights passing a ``.pkl`` still does."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import pickle
    import torch
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x)
    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("-data_pkl", default=None)
        parser.add_argument("-resume", default=None)
        parser.add_argument("-epoch", type=int, default=10)
        opt = parser.parse_args()
        data = pickle.load(open(opt.data_pkl, "rb"))
        model = Net()
        if opt.resume:
            model.load_state_dict(torch.load(opt.resume))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in data["train"]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
    if __name__ == "__main__":
        main()
"""


def _review(tmp_path: Path, command: str):
    repo = {"train.py": TRAIN, "README.md": f"# Train\n\n```\n{command}\n```\n"}
    return build_review(str(write_repo(tmp_path / "repo", repo)))


def test_a_data_pickle_is_no_weights_file_the_training_starts_from(tmp_path: Path) -> None:
    review = _review(tmp_path, "python train.py -data_pkl m30k_deen.pkl -epoch 400")
    for item in review.work:
        assert "m30k_deen.pkl" not in item.why, item.why
        assert all(w.path != "README.md" for w in item.where), item.where
    for row in review.recipe:
        if row.category == "checkpoint":
            assert "starts from" not in row.note, row.note


def test_a_weights_option_passing_a_pickle_still_starts_the_run(tmp_path: Path) -> None:
    review = _review(tmp_path, "python train.py -data_pkl m30k_deen.pkl -resume init.pkl")
    (plain,) = [i for i in review.work if i.kind == "checkpoint"]
    assert "starts from a weights file: -resume init.pkl" in plain.why, plain.why
