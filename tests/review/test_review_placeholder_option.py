"""A documented command whose option value is a placeholder the reader fills in
(``python run.py --model_type <model_type>``, MiDaS's README) gives the option no value: the
option's default still picks the string-keyed branches (the default model type, its
backbone), and the backbones of the other branches are alternatives, not work."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "README.md": """
        # Depth

        ```shell
        python run.py --model_type <model_type> --input_path input
        ```

        where `<model_type>` is one of `big` or `small`.
    """,
    "net/__init__.py": "",
    "net/model.py": """
        import timm
        import torch
        from torch import nn

        class Net(nn.Module):
            def __init__(self, backbone="vit_big"):
                super().__init__()
                if backbone == "vit_big":
                    self.encoder = timm.create_model("vit_large_patch16_384", pretrained=False)
                elif backbone == "vit_small":
                    self.encoder = timm.create_model("vit_small_patch16_384", pretrained=False)
                self.head = nn.Conv2d(8, 1, 1)

            def forward(self, x):
                return self.head(self.encoder(x))
    """,
    "net/loader.py": """
        import torch
        from net.model import Net

        def load_model(path, model_type="big"):
            if model_type == "big":
                model = Net(backbone="vit_big")
            elif model_type == "small":
                model = Net(backbone="vit_small")
            model.load_state_dict(torch.load(path, map_location="cpu"))
            return model.eval()
    """,
    "run.py": """
        import argparse
        import torch
        from net.loader import load_model

        def run(model_type):
            model = load_model("weights.pt", model_type)
            with torch.no_grad():
                print(model(torch.zeros(1, 3, 64, 64)).cpu().numpy())

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--model_type", default="big")
            parser.add_argument("--input_path", default=None)
            args = parser.parse_args()
            run(args.model_type)
    """,
}


@pytest.mark.parametrize("placeholder", ["<model_type>", "{MODEL_TYPE}"])
def test_a_placeholder_in_the_documented_command_keeps_the_default_s_branch(
    tmp_path: Path, placeholder: str
) -> None:
    files = dict(FILES)
    files["README.md"] = FILES["README.md"].replace(
        "<model_type> --input", f"{placeholder} --input"
    )
    review = build_review(str(write_repo(tmp_path, files)))
    backbones = [w for w in review.work if w.kind == "pretrained-backbone"]
    shown = " ".join(w.what for w in backbones)
    assert "vit_large_patch16_384" in shown
    assert "vit_small_patch16_384" not in shown


HOOKED = {
    **FILES,
    "net/model.py": """
        import timm
        import torch
        from torch import nn

        activations = {}

        def keep(name):
            def hook(module, inputs, output):
                activations[name] = output
            return hook

        def hook_big(model):
            model.blocks[5].register_forward_hook(keep("1"))
            model.blocks[11].register_forward_hook(keep("2"))
            return model

        def hook_small(model):
            model.blocks[2].register_forward_hook(keep("1"))
            return model

        class Up(nn.Module):
            def forward(self, x):
                return nn.functional.interpolate(x, scale_factor=2, mode="bilinear", antialias=True)

        class Net(nn.Module):
            def __init__(self, backbone="vit_big"):
                super().__init__()
                if backbone == "vit_big":
                    self.encoder = hook_big(timm.create_model("vit_large_patch16_384"))
                elif backbone == "vit_small":
                    self.encoder = hook_small(timm.create_model("vit_small_patch16_384"))
                    self.up = Up()
                self.head = nn.Conv2d(8, 1, 1)

            def forward(self, x):
                return self.head(self.encoder(x))
    """,
}


def test_the_hooks_and_parameters_of_branches_the_defaults_skip_are_no_work(
    tmp_path: Path,
) -> None:
    review = build_review(str(write_repo(tmp_path, HOOKED)))
    hooks = [w for w in review.work if w.kind == "forward-hook"]
    assert [w.what.partition(":")[0] for w in hooks] == ["hook_big"]
    assert not [w for w in review.work if w.kind == "unsupported-param"]
