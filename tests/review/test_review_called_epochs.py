"""The epoch loop of a training that runs each epoch's batches in a function it calls
(VITS-style ``for epoch in range(epoch_str, hps.train.epochs + 1): train_and_evaluate(...)``,
the batches and the backward pass inside ``train_and_evaluate``), its stop read from JSON
hparams that no command picks among: the training length is a recipe row with what each
file sets (issue 20: a TTS repository's 20000 epochs were missing from its recipe)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

CONFIG = """
    {
      "train": {"learning_rate": 2e-4, "epochs": EPOCHS, "batch_size": 16}
    }
"""

FILES = {
    "configs/a.json": CONFIG.replace("EPOCHS", "20000"),
    "configs/b.json": CONFIG.replace("EPOCHS", "10000"),
    "utils.py": """
        import argparse
        import json


        class HParams:
            def __init__(self, **kwargs):
                for k, v in kwargs.items():
                    if type(v) == dict:
                        v = HParams(**v)
                    setattr(self, k, v)


        def get_hparams():
            parser = argparse.ArgumentParser()
            parser.add_argument('-c', '--config', type=str, default="./configs/base.json")
            args = parser.parse_args()
            with open(args.config, "r") as f:
                config = json.loads(f.read())
            return HParams(**config)
    """,
    "train.py": """
        import torch
        import utils


        def run(hps):
            net = torch.nn.Linear(4, 1)
            optim = torch.optim.AdamW(net.parameters(), hps.train.learning_rate)
            loader = [torch.zeros(hps.train.batch_size, 4)] * 10
            for epoch in range(1, hps.train.epochs + 1):
                train_and_evaluate(epoch, net, optim, loader)


        def train_and_evaluate(epoch, net, optim, loader):
            for batch_idx, x in enumerate(loader):
                loss = net(x).mean()
                optim.zero_grad()
                loss.backward()
                optim.step()


        if __name__ == "__main__":
            run(utils.get_hparams())
    """,
}


def test_the_epochs_of_a_loop_calling_the_step_function(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [i for i in review.recipe if i.category == "epochs"]
    assert len(rows) == 1 and rows[0].name == "hps.train.epochs"
    value = dict(rows[0].values)["value"]
    assert "10000" in value and "20000" in value


def test_a_loop_calling_a_function_with_no_backward_is_no_epoch_loop(tmp_path) -> None:
    """A ``range`` loop calling a function that loops over data without training
    (an evaluation over each checkpoint) runs no epochs."""
    files = dict(FILES)
    files["train.py"] = files["train.py"].replace("loss.backward()", "print(loss)")
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert not [i for i in review.recipe if i.category == "epochs"]


def test_a_loop_repeating_whole_runs_is_no_epoch_loop(tmp_path) -> None:
    """The loop does not hand the step function its index: it repeats runs, not epochs."""
    files = dict(FILES)
    files["train.py"] = files["train.py"].replace(
        "train_and_evaluate(epoch, net, optim, loader)",
        "train_and_evaluate(0, net, optim, loader)",
        1,  # the call, not the def
    )
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert not [i for i in review.recipe if i.category == "epochs"]
