"""A training script that loads its network module by an option at its top level and picks
a class of it in branches (issue 20 item 5): ``MODEL = importlib.import_module(FLAGS.model)``,
``if FLAGS.model == 'boxnet': Detector = MODEL.BoxNet else: Detector = MODEL.VoteNet``,
``net = Detector(...)``. The top model is the class the default module's binding names,
built by the training script: not "inference only" because only a self-test in the model's
own file was found to build it."""

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
    "models/detnet.py": """
        import torch
        from parts import Backbone, Head
        def get_loss(out, target):
            return torch.nn.functional.mse_loss(out, target)
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
        from detnet import get_loss
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
                loss = criterion(net(torch.rand(2, 3)), torch.rand(2, 10))
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
