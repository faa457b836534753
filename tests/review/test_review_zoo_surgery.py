"""A zoo backbone whose layers the code replaces after building it (a temporal shift
inserted into a torchvision ResNet's stages by a helper handed the built model, the head
swapped beside the construction): the pretrained-backbone item says which layers, since
the MindSpore counterpart must name them as the zoo does. A backbone nothing changes says
nothing of it."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "ops/__init__.py": "",
    "ops/shift.py": """
        from torch import nn


        class Shift(nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, x):
                return self.net(x.roll(1, 0))


        def insert_shift(net):
            net.layer1 = Shift(net.layer1)
            net.layer2 = Shift(net.layer2)
    """,
    "ops/models.py": """
        import torchvision
        from torch import nn

        from ops.shift import insert_shift


        class Net(nn.Module):
            def __init__(self, classes=10):
                super().__init__()
                self.base = torchvision.models.resnet50(pretrained=True)
                insert_shift(self.base)
                self.base.fc = nn.Linear(2048, classes)

            def forward(self, x):
                return self.base(x)
    """,
    "train.py": """
        import torch

        from ops.models import Net


        def main():
            model = Net()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for _ in range(10):
                loss = model(torch.randn(2, 3, 64, 64)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


def _backbone(root: Path):  # type: ignore[no-untyped-def]
    review = build_review(str(root), jobs=1)
    (item,) = [i for i in review.work if i.kind == "pretrained-backbone"]
    return item


def test_the_replaced_layers_are_named(tmp_path: Path) -> None:
    item = _backbone(write_repo(tmp_path / "surgery", FILES))
    assert "net.layer1, net.layer2 by insert_shift" in item.why
    assert "self.base.fc" in item.why
    assert {(w.path, w.line) for w in item.where} >= {("ops/shift.py", 13), ("ops/models.py", 12)}


def test_a_backbone_left_as_built_says_nothing_of_it(tmp_path: Path) -> None:
    files = dict(FILES)
    files["ops/models.py"] = (
        files["ops/models.py"]
        .replace("                insert_shift(self.base)\n", "")
        .replace("                self.base.fc = nn.Linear(2048, classes)\n", "")
    )
    item = _backbone(write_repo(tmp_path / "plain", files))
    assert "replaced" not in item.why
    assert len(item.where) == 1
