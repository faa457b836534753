"""A constructor that builds one of two parts by a branch on its parameter (``if variant ==
"small": self.backbone = SmallEncoder(...) else: self.backbone = BigEncoder(...)``), the
training passing the option whose default takes the first: the other part is an alternative
(listed apart in the tree), and its work (the torchvision architecture it extends) is not
the run's."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review

FILES = {
    "net/__init__.py": "",
    "net/encoders.py": """
        import torch.nn as nn
        from torchvision.models.resnet import Bottleneck, ResNet


        class SmallEncoder(nn.Module):
            def __init__(self, pretrained=False):
                super().__init__()
                self.conv = nn.Conv2d(3, 16, 3, padding=1)

            def forward(self, x):
                return self.conv(x)


        class BigEncoder(ResNet):
            def __init__(self, pretrained=False):
                super().__init__(Bottleneck, [3, 4, 6, 3])
                self.proj = nn.Conv2d(2048, 16, 1)

            def forward(self, x):
                return self.proj(self.layer4(self.layer3(self.layer2(self.layer1(x)))))
    """,
    "net/model.py": """
        import torch.nn as nn

        from net.encoders import BigEncoder, SmallEncoder


        class Net(nn.Module):
            def __init__(self, variant="small", pretrained=False):
                super().__init__()
                if variant == "small":
                    self.backbone = SmallEncoder(pretrained)
                else:
                    self.backbone = BigEncoder(pretrained)
                self.head = nn.Conv2d(16, 1, 1)

            def forward(self, x):
                return self.head(self.backbone(x))
    """,
    "train.py": """
        import argparse

        import torch

        from net.model import Net


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--variant", default="small", choices=["small", "big"])
            args = parser.parse_args()
            model = Net(args.variant, pretrained=True)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(2):
                loss = model(torch.randn(2, 3, 32, 32)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("branch_parts"), FILES)
    return build_review(str(root), jobs=1)


def test_the_untaken_part_is_an_alternative(review: Review) -> None:
    assert "net.encoders.BigEncoder" in review.alternatives
    assert "net.encoders.SmallEncoder" not in review.alternatives
    tree = render_markdown(review).partition("## Network structure")[2].partition("| class |")[0]
    run, _, other = tree.partition("Alternatives the run's config does not pick")
    assert "**SmallEncoder**" in run and "**BigEncoder**" not in run
    assert "**BigEncoder**" in other


def test_its_work_is_not_the_run(review: Review) -> None:
    assert not [i for i in review.work if any(w.path == "net/encoders.py" for w in i.where)]
