"""A composition step bound in each branch of a string-keyed chain (MiDaS's ``load_model``:
``normalization = NormalizeImage(mean=...)`` per model type, then ``Compose([Resize(...),
normalization, PrepareForNet()])``) shows the value of the branch the defaults take, not the
last branch's."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net/__init__.py": "",
    "net/transforms.py": """
        import numpy as np

        class Normalize:
            def __init__(self, mean, std):
                self.mean, self.std = np.array(mean), np.array(std)

            def __call__(self, sample):
                sample["image"] = (sample["image"] - self.mean) / self.std
                return sample

        class ToNet:
            def __call__(self, sample):
                sample["image"] = np.transpose(sample["image"], (2, 0, 1)).astype(np.float32)
                return sample
    """,
    "net/loader.py": """
        import torch
        from torchvision.transforms import Compose
        from net.transforms import Normalize, ToNet

        def load_model(path, model_type="big"):
            if model_type == "big":
                model = torch.nn.Conv2d(3, 1, 1)
                normalization = Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5])
            elif model_type == "small":
                model = torch.nn.Conv2d(3, 1, 3)
                normalization = Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
            transform = Compose([normalization, ToNet()])
            model.load_state_dict(torch.load(path, map_location="cpu"))
            return model.eval(), transform
    """,
    "run.py": """
        import argparse
        import torch
        from net.loader import load_model

        def run(model_type):
            model, transform = load_model("weights.pt", model_type)
            print(transform)

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--model_type", default="big")
            args = parser.parse_args()
            run(args.model_type)
    """,
}


def test_a_step_bound_per_branch_shows_the_default_branch_s_value(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    (row,) = [r for r in review.recipe if r.name == "composition in load_model"]
    steps = dict(row.values)
    assert steps["1"] == "Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5])"
