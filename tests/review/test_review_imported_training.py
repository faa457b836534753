"""A training script other files import from (a tuning script's ``from train import
train``, the script's own ``from train import parse_opt``) still runs the training: its own
functions run the backward pass, so its ``__main__`` block is the entry, not a module trying
itself out (issue 20: YOLOv5's ``train.py`` lost its model to the segmentation and
classification scripts beside it)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.extract.records import FileAnalysis
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.sources import self_tests

FILES = {
    "models/__init__.py": "",
    "models/yolo.py": """
        import torch
        from torch import nn


        class BaseModel(nn.Module):
            def forward(self, x):
                return self.model(x)


        class DetectionModel(BaseModel):
            def __init__(self, cfg="s.yaml", nc=80):
                super().__init__()
                self.model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.SiLU(), nn.Conv2d(16, nc, 1))


        Model = DetectionModel


        class Ensemble(nn.ModuleList):
            def forward(self, x):
                return torch.cat([m(x) for m in self], 1)


        def attempt_load(weights):
            model = Ensemble()
            for w in weights:
                model.append(torch.load(w)["model"])
            return model


        if __name__ == "__main__":
            print(DetectionModel())
    """,
    "train.py": """
        import argparse

        import torch

        from models.yolo import Model, attempt_load


        def train(opt):
            model = Model(opt.cfg, nc=80)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)
            for epoch in range(opt.epochs):
                loss = model(torch.zeros(2, 3, 32, 32)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            best = attempt_load(["best.pt"])
            return best


        def parse_opt():
            parser = argparse.ArgumentParser()
            parser.add_argument("--cfg", default="s.yaml")
            parser.add_argument("--epochs", type=int, default=100)
            return parser.parse_args()


        def run(**kwargs):
            from train import parse_opt

            opt = parse_opt()
            for k, v in kwargs.items():
                setattr(opt, k, v)
            train(opt)


        if __name__ == "__main__":
            train(parse_opt())
    """,
    "tune.py": """
        from train import parse_opt, train


        def search():
            opt = parse_opt()
            for lr in (0.01, 0.1):
                opt.lr = lr
                train(opt)


        if __name__ == "__main__":
            search()
    """,
}


def _analyses(root: str) -> list[FileAnalysis]:
    _, analyses = scan_with_facts(ScanOptions(root, cache_dir=None, jobs=1))
    return list(analyses)


def test_an_imported_script_with_its_own_backward_is_no_self_test(tmp_path) -> None:
    root = str(write_repo(tmp_path, FILES))
    trials = self_tests(_analyses(root))
    # VALID: the library module's block only prints a model it defines
    assert "models/yolo.py" in trials
    # INVALID: the training script, imported by a tuning script and by itself
    assert "train.py" not in trials


def test_the_model_the_imported_training_script_builds_is_the_top_model(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    top = review.top_models[0]
    assert (top.cls, top.where.path) == ("models.yolo.DetectionModel", "train.py")


COLLECTION = {
    "hogwild/main.py": """
        import torch

        from train import steps


        if __name__ == "__main__":
            model = torch.nn.Linear(4, 1)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(steps()):
                loss = model(torch.zeros(2, 4)).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
    """,
    "hogwild/train.py": """
        def steps():
            return 10


        if __name__ == "__main__":
            print(steps())
    """,
    "sequence/train.py": """
        import torch


        class Sequence(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.cell = torch.nn.LSTMCell(1, 8)

            def forward(self, x):
                return self.cell(x)[0]


        if __name__ == "__main__":
            seq = Sequence()
            opt = torch.optim.LBFGS(seq.parameters(), lr=0.8)

            def closure():
                opt.zero_grad()
                loss = seq(torch.zeros(2, 1)).sum()
                loss.backward()
                return loss

            opt.step(closure)
    """,
}


def test_a_script_name_folders_share_is_the_importers_own_folders(tmp_path) -> None:
    """A collection of examples, each folder with its own ``train.py``: ``from train import
    steps`` in ``hogwild/main.py`` imports ``hogwild/train.py`` (its block tries it out),
    not ``sequence/train.py``, whose block is that example's training run."""
    trials = self_tests(_analyses(str(write_repo(tmp_path, COLLECTION))))
    assert "hogwild/train.py" in trials
    assert "sequence/train.py" not in trials
