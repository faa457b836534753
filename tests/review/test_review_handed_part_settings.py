"""A top model handed the class of its encoder (``Siam(models.__dict__[args.arch],
args.dim)``) that builds it itself (``self.encoder = base_encoder(num_classes=dim,
zero_init_residual=True)``): the model settings hold that part's constructor settings, its
parameters followed to the run's values (issue 20 point 5)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "siam/__init__.py": "",
    "siam/builder.py": """
        import torch.nn as nn


        class Siam(nn.Module):
            def __init__(self, base_encoder, dim=2048, pred_dim=512):
                super().__init__()
                self.encoder = base_encoder(num_classes=dim, zero_init_residual=True)
                self.predictor = nn.Sequential(nn.Linear(dim, pred_dim), nn.ReLU(),
                                               nn.Linear(pred_dim, dim))

            def forward(self, x1, x2):
                z1 = self.encoder(x1)
                z2 = self.encoder(x2)
                return self.predictor(z1), self.predictor(z2), z1.detach(), z2.detach()
    """,
    "main.py": """
        import argparse
        import torch
        import torchvision.models as models
        import siam.builder


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('-a', '--arch', default='resnet50')
            parser.add_argument('--dim', default=1024, type=int)
            args = parser.parse_args()
            model = siam.builder.Siam(models.__dict__[args.arch], args.dim)
            criterion = torch.nn.CosineSimilarity(dim=1)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
            for x in range(10):
                p1, p2, z1, z2 = model(torch.ones(2, 3, 8, 8), torch.ones(2, 3, 8, 8))
                loss = -(criterion(p1, z2).mean() + criterion(p2, z1).mean()) * 0.5
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_the_handed_encoders_settings_are_a_model_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [i for i in review.recipe if i.category == "model" and "a part's" in i.note]
    assert [i.name for i in rows] == ["torchvision.models.resnet50"]
    values = dict(rows[0].values)
    # VALID: the parameter followed to the option's default; the literal as written
    assert values["num_classes"].startswith("1024 (")
    assert values["zero_init_residual"] == "True"
    assert rows[0].note.startswith("encoder of Siam: a part's constructor settings")
