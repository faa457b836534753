"""A model-zoo network whose methods the repository replaces once built (MiDaS's BEiT:
``block.forward = types.MethodType(block_forward, block)`` for arbitrary window sizes) is not
the zoo's network any more: a MindSpore counterpart must carry those forwards. One work item
per function that patches, none for the patches of a branch the defaults do not take."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net/__init__.py": "",
    "net/backbones.py": """
        import types
        import timm
        import torch

        def block_forward(self, x, resolution):
            return x + self.attn(self.norm1(x))

        def patch_embed_forward(self, x):
            return self.proj(x).flatten(2).transpose(1, 2)

        def make_big():
            model = timm.create_model("beit_large_patch16_512", pretrained=False)
            model.patch_embed.forward = types.MethodType(patch_embed_forward, model.patch_embed)
            for block in model.blocks:
                block.forward = types.MethodType(block_forward, block)
            return model

        def make_small():
            model = timm.create_model("vit_small_patch16_384", pretrained=False)
            model.patch_embed.forward = types.MethodType(patch_embed_forward, model.patch_embed)
            return model
    """,
    "net/model.py": """
        import torch
        from torch import nn
        from net.backbones import make_big, make_small

        class Net(nn.Module):
            def __init__(self, backbone="big"):
                super().__init__()
                if backbone == "big":
                    self.encoder = make_big()
                elif backbone == "small":
                    self.encoder = make_small()
                self.head = nn.Conv2d(8, 1, 1)

            def forward(self, x):
                return self.head(self.encoder.forward_features(x))
    """,
    "run.py": """
        import argparse
        import torch
        from net.model import Net

        def main(backbone):
            model = Net(backbone=backbone)
            model.load_state_dict(torch.load("weights.pt", map_location="cpu"))
            with torch.no_grad():
                print(model(torch.zeros(1, 3, 64, 64)).cpu().numpy())

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--backbone", default="big")
            main(parser.parse_args().backbone)
    """,
}


def test_methods_replaced_on_a_built_network_are_a_work_item(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    patched = [w for w in review.work if w.kind == "patched-method"]
    assert [w.what.partition(":")[0] for w in patched] == ["make_big"]
    (item,) = patched
    assert "patch_embed.forward" in item.what and "block.forward" in item.what
    assert [w.line for w in item.where] == [13, 15]
