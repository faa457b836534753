"""A helper the root training script and another task's scripts share (YOLOv5's
``smart_optimizer``, ``init_seeds`` and ``ModelEMA``, called by train.py, classify/train.py
and segment/train.py): the recipe reads the run's call, not the other task's values; and a
hyperparameter scaled in place by both scripts is told at the root script's line (issue
20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

_TASK = """
    import argparse

    import torch
    import yaml

    from utils.helpers import make_optimizer


    def train(hyp, opt):
        if isinstance(hyp, str):
            with open(hyp, errors="ignore") as f:
                hyp = yaml.safe_load(f)
        hyp["weight_decay"] *= {scale}
        model = torch.nn.Linear(4, 2)
        optimizer = make_optimizer(model, {lr}, hyp["weight_decay"])
        for _ in range(opt.epochs):
            loss = model(torch.zeros(2, 4)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--hyp", default="data/hyp.yaml")
        parser.add_argument("--epochs", type=int, default={epochs})
        opt = parser.parse_args()
        train(opt.hyp, opt)
"""

FILES = {
    "utils/__init__.py": "",
    "utils/helpers.py": """
        import torch


        def make_optimizer(model, lr=0.1, decay=1e-5):
            return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=decay)
    """,
    "data/hyp.yaml": "lr0: 0.01\nweight_decay: 0.0005\n",
    "train.py": _TASK.format(scale=2, lr='hyp["lr0"]', epochs=300),
    "classify/train.py": _TASK.format(scale=3, lr=0.001, epochs=10),
    "classify/predict.py": """
        import torch


        if __name__ == "__main__":
            print(torch.zeros(1))
    """,
}


def test_a_shared_helper_reads_the_runs_call_and_the_runs_scaling(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    assert dict(review.ancillary)["classify/train.py"].startswith("other task")
    row = next(r for r in review.recipe if r.name == "torch.optim.SGD")
    values = dict(row.values)
    # VALID: the root script's call; INVALID: the other task's 0.001 beside it
    assert values["lr"].startswith("0.01 (")
    assert "classify/train.py" not in values["lr"]
    # the scaling told is the root script's own
    assert "changed in place at train.py:" in values["weight_decay"], values["weight_decay"]
