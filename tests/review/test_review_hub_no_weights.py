"""A hub backbone built with ``pretrained=`` a parameter every caller gives ``False`` (MiDaS's
small model: ``torch.hub.load(repo, name, pretrained=use_pretrained)`` with the weights
coming from the repository's own checkpoint) is the architecture alone: its heading says so,
like its note, and it is priced as an architecture, not as weights to convert."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import BACKBONE_ARCHITECTURE, work_label

FILES = {
    "net/__init__.py": "",
    "net/blocks.py": """
        import torch
        from torch import nn

        def make_encoder(use_pretrained):
            effnet = torch.hub.load("acme/effnets", "effnet_b0", pretrained=use_pretrained)
            return nn.Sequential(effnet.stem, *effnet.blocks)
    """,
    "net/model.py": """
        import torch
        from torch import nn
        from net.blocks import make_encoder

        class Net(nn.Module):
            def __init__(self, path):
                super().__init__()
                self.encoder = make_encoder(False)
                self.head = nn.Conv2d(8, 1, 1)
                self.load_state_dict(torch.load(path, map_location="cpu"))

            def forward(self, x):
                return self.head(self.encoder(x))
    """,
    "run.py": """
        import torch
        from net.model import Net

        def main():
            model = Net("weights/net.pt").eval()
            with torch.no_grad():
                print(model(torch.zeros(1, 3, 64, 64)).cpu().numpy())

        if __name__ == "__main__":
            main()
    """,
}


def test_a_hub_backbone_every_caller_builds_without_weights_is_the_architecture(
    tmp_path: Path,
) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    (item,) = [w for w in review.work if w.kind == "pretrained-backbone"]
    assert "architecture only" in item.why
    assert "pretrained weights" not in item.what
    assert work_label(item) == BACKBONE_ARCHITECTURE
