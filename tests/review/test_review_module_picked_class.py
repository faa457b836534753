"""A training script that loads its network module by an option at its top level and picks
a class of it in branches (issue 20 item 5): ``MODEL = importlib.import_module(FLAGS.model)``,
``if FLAGS.model == 'boxnet': Detector = MODEL.BoxNet else: Detector = MODEL.VoteNet``,
``net = Detector(...)``. The top model is the class the default module's binding names,
built by the training script: not "inference only" because only a self-test in the model's
own file was found to build it. The loss the step calls through ``criterion =
MODEL.get_loss`` (imported there from a loss module) is a recipe row with its weighted
terms."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import INFERENCE_ONLY_PART, build_review

PARTS = """
    import torch
    class Backbone(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 8)
        def forward(self, x):
            return self.fc(x)
    class Head(torch.nn.Module):
        def __init__(self, n):
            super().__init__()
            self.fc = torch.nn.Linear(8, n)
        def forward(self, x):
            return self.fc(x)
"""

REPO = {
    "models/parts.py": PARTS,
    "models/losses.py": """
        import torch
        def get_loss(end_points, target):
            reg_loss = torch.nn.functional.mse_loss(end_points["out"], target)
            size_loss = end_points["out"].abs().mean()
            box_loss = reg_loss + 0.1 * size_loss
            loss = box_loss + 0.5 * end_points["out"].pow(2).mean()
            loss *= 10
            end_points["loss"] = loss
            return loss, end_points
    """,
    "models/detnet.py": """
        import torch
        from parts import Backbone, Head
        from losses import get_loss
        class DetNet(torch.nn.Module):
            def __init__(self, num_class):
                super().__init__()
                self.backbone = Backbone()
                self.head = Head(num_class)
            def forward(self, x):
                return self.head(self.backbone(x))
        if __name__ == "__main__":
            model = DetNet(10)
            print(model(torch.rand(2, 3)))
    """,
    "models/boxnet.py": """
        import torch
        from parts import Backbone, Head
        from losses import get_loss
        class BoxNet(torch.nn.Module):
            def __init__(self, num_class):
                super().__init__()
                self.backbone = Backbone()
                self.head = Head(num_class)
            def forward(self, x):
                return self.head(self.backbone(x))
        if __name__ == "__main__":
            model = BoxNet(10)
    """,
    "train.py": """
        import argparse
        import importlib
        import os
        import sys
        import torch
        sys.path.append(os.path.join(os.path.dirname(__file__), "models"))
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", default="detnet")
        parser.add_argument("--learning_rate", type=float, default=0.001)
        FLAGS = parser.parse_args()
        MODEL = importlib.import_module(FLAGS.model)
        if FLAGS.model == "boxnet":
            Detector = MODEL.BoxNet
        else:
            Detector = MODEL.DetNet
        net = Detector(num_class=10)
        criterion = MODEL.get_loss
        optimizer = torch.optim.Adam(net.parameters(), lr=FLAGS.learning_rate)
        def train_one_epoch():
            for _ in range(10):
                optimizer.zero_grad()
                end_points = {"out": net(torch.rand(2, 3))}
                loss, end_points = criterion(end_points, torch.rand(2, 10))
                loss.backward()
                optimizer.step()
        if __name__ == "__main__":
            train_one_epoch()
    """,
}


def test_class_of_the_module_an_option_loads(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    tops = {t.cls.rpartition(".")[2]: t for t in review.top_models}
    assert "DetNet" in tops, review.top_models
    top = tops["DetNet"]
    assert top.where.path == "train.py"
    assert INFERENCE_ONLY_PART not in top.parts
    assert "BoxNet" not in tops
    # bound in the branch another value of the option takes (the default's module has no
    # BoxNet; the module beside it does): an alternative, not priced
    assert any(a.endswith("BoxNet") for a in review.alternatives), review.alternatives


def test_loss_of_the_module_an_option_loads(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    losses = [i for i in review.recipe if i.category == "loss"]
    assert [i.name for i in losses] == ["losses.get_loss"], review.recipe
    values = dict(losses[0].values)
    assert "box_loss + 0.5 * end_points" in values["terms"]
    assert values["box_loss"].startswith("reg_loss + 0.1 * size_loss")


def test_a_module_loaded_by_name_is_imported_by_the_loader(tmp_path: Path) -> None:
    # the training script's ``importlib.import_module(FLAGS.model)`` (``--model`` defaulting
    # to ``detnet``) reaches ``models/detnet.py`` and what it imports: ported with the
    # training, never "what only a tool reaches"
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.work import _import_graph

    files = dict(REPO)
    files["demo.py"] = """
        import importlib
        MODEL = importlib.import_module('boxnet')
        print(MODEL.BoxNet(3))
    """
    write_repo(tmp_path, files)
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    graph = _import_graph(analyses)
    assert "models/detnet.py" in graph["train.py"]
    assert "models/boxnet.py" in graph["demo.py"]
    assert "models/boxnet.py" not in graph["train.py"]
