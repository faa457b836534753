"""A model the training function builds only in a branch the run's values skip (issue 20
item 5): dgcnn's ``if args.model == 'pointnet': model = PointNet(args) elif args.model ==
'dgcnn': model = DGCNN(args)``, ``--model`` defaulting to ``dgcnn``. PointNet is listed with
the alternatives; its entry among the top models says it is one, after the model the run
builds, instead of reading as a second model the training builds."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "model.py": """
        import torch
        class PointNet(torch.nn.Module):
            def __init__(self, args):
                super().__init__()
                self.fc = torch.nn.Linear(3, 40)
            def forward(self, x):
                return self.fc(x)
        class DGCNN(torch.nn.Module):
            def __init__(self, args):
                super().__init__()
                self.k = args.k
                self.fc = torch.nn.Linear(6, 40)
            def forward(self, x):
                return self.fc(torch.cat((x, x), dim=-1))
    """,
    "main.py": """
        import argparse
        import torch
        from model import DGCNN, PointNet
        def train(args):
            if args.model == "pointnet":
                model = PointNet(args)
            elif args.model == "dgcnn":
                model = DGCNN(args)
            else:
                raise Exception("Not implemented")
            opt = torch.optim.SGD(model.parameters(), lr=args.lr * 100, momentum=0.9)
            for _ in range(args.epochs):
                loss = model(torch.rand(2, 3)).sum()
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="dgcnn", choices=["pointnet", "dgcnn"])
            parser.add_argument("--lr", type=float, default=0.001)
            parser.add_argument("--epochs", type=int, default=250)
            parser.add_argument("--k", type=int, default=20)
            train(parser.parse_args())
    """,
}


def test_top_built_in_a_skipped_branch_is_told_an_alternative(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    names = [t.cls.rpartition(".")[2] for t in review.top_models]
    assert names[0] == "DGCNN", names
    assert "model.PointNet" in review.alternatives
    others = [t for t in review.top_models if t.cls.endswith("PointNet")]
    for top in others:
        assert top.parts[0][0] == "selected by"
        assert top.parts[0][1].startswith("an alternative: ")
    dgcnn = review.top_models[0]
    assert not any(p.startswith("an alternative") for _, p in dgcnn.parts)
