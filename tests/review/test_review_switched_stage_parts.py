"""A model assembled by command-line switches (``if opt.Transformation == 'TPS':
self.Transformation = TPS(...)`` with no other branch building one; ``if opt.Prediction ==
'CTC': self.Prediction = nn.Linear(...) elif ... 'Attn': self.Prediction = Attention(...)``)
builds, for the documented command's ``--Transformation None --Prediction CTC``, neither
stage class: both are alternatives with the blocks only they build (a localization network,
an attention cell) and the weights those set in their constructors, not priced parts of
the run's network."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
    import torch
    import torch.nn as nn

    class Localization(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 6)
            self.fc.weight.data.fill_(0)
        def forward(self, x):
            return self.fc(x)

    class TPS(nn.Module):
        def __init__(self):
            super().__init__()
            self.loc = Localization()
        def forward(self, x):
            return torch.nn.functional.grid_sample(x, self.loc(x), align_corners=True)

    class AttentionCell(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.LSTMCell(4, 4)
        def forward(self, x, h):
            return self.rnn(x, h)

    class Attention(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.cell = AttentionCell()
            self.out = nn.Linear(4, n)
        def forward(self, x, h):
            return self.out(self.cell(x, h)[0])

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3)
        def forward(self, x):
            return self.conv(x)

    class Model(nn.Module):
        def __init__(self, opt):
            super().__init__()
            self.opt = opt
            if opt.Transformation == 'TPS':
                self.Transformation = TPS()
            else:
                print('No Transformation module specified')
            self.FeatureExtraction = Encoder()
            if opt.Prediction == 'CTC':
                self.Prediction = nn.Linear(4, opt.num_class)
            elif opt.Prediction == 'Attn':
                self.Prediction = Attention(opt.num_class)
        def forward(self, x):
            if self.opt.Transformation == 'TPS':
                x = self.Transformation(x)
            return self.Prediction(self.FeatureExtraction(x))
"""

TRAIN = """
    import argparse
    import torch
    from model import Model

    def train(opt):
        model = Model(opt)
        optimizer = torch.optim.Adadelta(model.parameters(), lr=opt.lr)
        criterion = torch.nn.CTCLoss(zero_infinity=True)
        for x, y in []:
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()

    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--lr', type=float, default=1)
        parser.add_argument('--num_class', type=int, default=37)
        parser.add_argument('--Transformation', type=str, required=True)
        parser.add_argument('--Prediction', type=str, required=True)
        train(parser.parse_args())
"""

README = """# Train

```
python3 train.py --Transformation None --Prediction CTC
```
"""


def test_stages_the_documented_switches_skip_are_alternatives(tmp_path: Path) -> None:
    repo = write_repo(
        tmp_path / "stages", {"model.py": MODEL, "train.py": TRAIN, "README.md": README}
    )
    review = build_review(str(repo))
    alternatives = {c.rpartition(".")[2] for c in review.alternatives}
    assert {"TPS", "Localization", "Attention", "AttentionCell"} <= alternatives, alternatives
    assert "Encoder" not in alternatives
    (model,) = [m for m in review.modules if m.cls.endswith(".Model")]
    assert [c.rpartition(".")[2] for c in model.children] == ["Encoder"], model.children
    # the left-out stage's APIs are not the network's work, nor its constructor's weights
    # a recipe row
    apis = {g.api for g in review.gaps}
    assert "torch.nn.functional.grid_sample" not in apis, apis
    assert "torch.nn.LSTMCell" not in apis, apis
    assert not [i for i in review.recipe if i.where.path == "model.py"], review.recipe
    # the alternatives keep what they build
    (tps,) = [m for m in review.modules if m.cls.endswith(".TPS")]
    assert [c.rpartition(".")[2] for c in tps.children] == ["Localization"], tps.children


def test_the_other_documented_runs_are_named(tmp_path: Path) -> None:
    readme = README + (
        "\n```\npython3 train.py --Transformation TPS --Prediction Attn --exp_name /tmp/x\n```\n"
    )
    repo = write_repo(
        tmp_path / "runs", {"model.py": MODEL, "train.py": TRAIN, "README.md": readme}
    )
    review = build_review(str(repo))
    (said,) = [s for s in review.effort.explanation if "other options" in s]
    assert "README.md:" in said and "--Transformation TPS, --Prediction Attn)" in said, said
    assert "/tmp/x" not in said, said
