"""A model whose constructor stores torch layers wrapped by a function that returns them
(Real-ESRGAN's discriminator: ``norm = spectral_norm``, then ``self.conv1 = norm(nn.Conv2d(
...))``): the wrapped layer is the part, said through what, beside the plain layers; a
repository module handed a layer (``Gate(nn.Conv2d(...))``) is no wrapped layer (INVALID)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "disc.py": """
        import torch.nn.functional as F
        from torch import nn
        from torch.nn.utils import spectral_norm


        class Disc(nn.Module):
            def __init__(self, feat=8):
                super().__init__()
                norm = spectral_norm
                self.conv0 = nn.Conv2d(3, feat, 3, 1, 1)
                self.conv1 = norm(nn.Conv2d(feat, feat, 4, 2, 1, bias=False))
                self.conv2 = norm(nn.Conv2d(feat, feat, 4, 2, 1, bias=False))
                self.conv3 = nn.Conv2d(feat, 1, 3, 1, 1)

            def forward(self, x):
                x = F.leaky_relu(self.conv0(x), 0.2)
                x = F.leaky_relu(self.conv2(F.leaky_relu(self.conv1(x), 0.2)), 0.2)
                return self.conv3(x)
    """,
    "train.py": """
        import torch

        from disc import Disc


        def main():
            model = Disc()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
            loss = model(torch.zeros(1, 3, 16, 16)).mean()
            loss.backward()
            optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_layers_wrapped_by_a_function_are_parts(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    (top,) = [m for m in review.top_models if m.cls.endswith("Disc")]
    parts = dict(top.parts)
    assert parts["conv1"] == parts["conv2"] == "torch.nn.Conv2d (through norm)"
    assert parts["conv0"] == parts["conv3"] == "torch.nn.Conv2d"
