"""A part a model's constructor builds through a helper imported only in a branch the run's
values skip (``if self.non_local: from ops.non_local import make_non_local`` with
``--non_local`` off): the helper's file is an alternative counted apart, and so are the
classes it builds, which the model tree lists with the alternatives, not as the model's
parts. With the flag on in the documented command they are the model's."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "ops/__init__.py": "",
    "ops/blocks.py": """
        from torch import nn


        class Shift(nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, x):
                return self.net(x.roll(1, 0))
    """,
    "ops/non_local.py": """
        from torch import nn


        class NonLocal(nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net
                self.theta = nn.Conv2d(8, 8, 1)

            def forward(self, x):
                return self.net(x) + self.theta(x)


        def make_non_local(model):
            model.body = NonLocal(model.body)
    """,
    "ops/models.py": """
        from torch import nn

        from ops.blocks import Shift


        class Net(nn.Module):
            def __init__(self, non_local=False):
                super().__init__()
                self.non_local = non_local
                self.body = Shift(nn.Conv2d(8, 8, 3, padding=1))
                if self.non_local:
                    from ops.non_local import make_non_local
                    make_non_local(self)
                self.head = nn.Linear(8, 2)

            def forward(self, x):
                return self.head(self.body(x).mean((2, 3)))
    """,
    "main.py": """
        import argparse

        import torch

        from ops.models import Net


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--non_local", default=False, action="store_true")
            parser.add_argument("--lr", default=0.1, type=float)
            args = parser.parse_args()
            model = Net(non_local=args.non_local)
            optimizer = torch.optim.SGD(model.parameters(), args.lr)
            for _ in range(10):
                loss = model(torch.randn(2, 8, 8, 8)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
    "README.md": """
        # Net

        ```bash
        python main.py --lr 0.02
        ```
    """,
}


def _parts(review) -> set[str]:  # type: ignore[no-untyped-def]
    (net,) = [m for m in review.modules if m.cls == "ops.models.Net"]
    return {c for c in net.children if c not in review.alternatives}


def test_the_part_a_skipped_helper_builds_is_an_alternative(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    assert "ops.non_local.NonLocal" in review.alternatives
    assert _parts(review) == {"ops.blocks.Shift"}


def test_the_flag_the_command_passes_makes_it_a_part(tmp_path: Path) -> None:
    files = dict(FILES)
    files["README.md"] = files["README.md"].replace("--lr 0.02", "--lr 0.02 --non_local")
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert "ops.non_local.NonLocal" not in review.alternatives
    assert _parts(review) == {"ops.blocks.Shift", "ops.non_local.NonLocal"}
