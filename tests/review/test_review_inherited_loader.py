"""A model class that takes ``from_pretrained`` from a third-party hub mixin
(``huggingface_hub.PyTorchModelHubMixin``) and is built with it by the inference script loads
the released weights through that library: a checkpoint to convert, listed with the
repository's own ``torch.load``. A class that defines the loader itself does not count here
(its own code loads, and the scan sees the calls it makes)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
    import torch
    from torch import nn
    from huggingface_hub import PyTorchModelHubMixin

    class Core(nn.Module):
        def __init__(self, dim=8):
            super().__init__()
            self.conv = nn.Conv2d(3, dim, 3)

        def forward(self, x):
            return self.conv(x)

    class DepthNet(Core, PyTorchModelHubMixin):
        def __init__(self, config):
            super().__init__(**config)
"""

RUN = """
    import torch
    from depthnet.model import DepthNet

    def main():
        model = DepthNet.from_pretrained("acme/depthnet_vitl").eval()
        with torch.no_grad():
            print(model(torch.zeros(1, 3, 16, 16)).cpu().numpy())

    if __name__ == "__main__":
        main()
"""


def test_weights_an_inherited_hub_loader_reads_are_a_checkpoint_to_convert(
    tmp_path: Path,
) -> None:
    files = {"depthnet/__init__.py": "", "depthnet/model.py": MODEL, "run.py": RUN}
    review = build_review(str(write_repo(tmp_path, files)))
    (item,) = [w for w in review.work if w.kind == "checkpoint"]
    assert "huggingface_hub.PyTorchModelHubMixin.from_pretrained" in item.what
    assert [(w.path, w.line) for w in item.where] == [("run.py", 5)]


def test_a_loader_the_repository_defines_is_not_an_inherited_one(tmp_path: Path) -> None:
    own = MODEL.replace(
        "            super().__init__(**config)\n",
        "            super().__init__(**config)\n\n"
        "        @classmethod\n"
        "        def from_pretrained(cls, name):\n"
        "            return cls({})\n",
    )
    files = {"depthnet/__init__.py": "", "depthnet/model.py": own, "run.py": RUN}
    review = build_review(str(write_repo(tmp_path, files)))
    assert not [w for w in review.work if w.kind == "checkpoint"]
