"""Reachability by method (issue 20 item 4): a plain class's method that only scripts counted
apart call (an evaluator's method for another tracker, run by that tracker's own script) goes
with them, with what only it builds; the method the training calls stays ported."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_FILES = {
    "pkg/__init__.py": "",
    "pkg/model.py": """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x)
    """,
    "pkg/reid.py": """
        import torch


        class ReidNet(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lrn = torch.nn.CrossMapLRN2d(5, 0.0001, 0.75)

            def forward(self, x):
                return self.lrn(x)
    """,
    "pkg/trackers.py": """
        import torch

        from pkg.reid import ReidNet


        class MainTracker:
            def update(self, boxes):
                return torch.sigmoid(boxes)


        class OtherTracker:
            def __init__(self):
                self.reid = ReidNet()

            def update(self, boxes):
                return self.reid(boxes)
    """,
    "pkg/evaluator.py": """
        from pkg.trackers import MainTracker, OtherTracker


        class Evaluator:
            def evaluate(self, model, data):
                tracker = MainTracker()
                return [tracker.update(model(x)) for x in data]

            def evaluate_other(self, model, data):
                tracker = OtherTracker()
                return [tracker.update(model(x)) for x in data]
    """,
    "train.py": """
        import torch

        from pkg.evaluator import Evaluator
        from pkg.model import Net


        def main():
            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for x in [torch.randn(2, 4)]:
                loss = model(x).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
            Evaluator().evaluate(model, [torch.randn(2, 4)])


        if __name__ == "__main__":
            main()
    """,
    "tools/track_other.py": """
        import torch

        from pkg.evaluator import Evaluator
        from pkg.model import Net

        if __name__ == "__main__":
            Evaluator().evaluate_other(Net(), [torch.randn(2, 4)])
    """,
}


def _exported(review: object) -> str:
    return next(
        (s for s in review.effort.explanation if s.startswith("Used only by files")),  # type: ignore[attr-defined]
        "",
    )


def test_a_method_only_scripts_counted_apart_call_goes_with_them(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", _FILES)
    review = build_review(str(root), jobs=1)
    said = _exported(review)
    assert "pkg/evaluator.py:Evaluator.evaluate_other (tools/track_other.py)" in said
    assert "pkg/trackers.py:OtherTracker (via Evaluator.evaluate_other)" in said
    assert "pkg/reid.py:ReidNet (via OtherTracker)" in said
    # the training's evaluation and the tracker it builds stay ported
    assert "Evaluator.evaluate " not in said and "MainTracker" not in said
    # the other tracker's re-ID network and its custom op are not priced
    assert review.effort.custom_ops == 0


def test_a_method_the_ported_code_calls_or_picks_by_name_stays(tmp_path: Path) -> None:
    files = dict(_FILES)
    # picked by a string (``getattr(evaluator, "evaluate_other")``): it may run
    files["train.py"] = _FILES["train.py"].replace(
        "Evaluator().evaluate(model,", 'getattr(Evaluator(), "evaluate_other")(model,'
    )
    review = build_review(str(write_repo(tmp_path / "picked", files)), jobs=1)
    assert "evaluate_other" not in _exported(review)
    assert review.effort.custom_ops == 1
