"""A ``parser.set_defaults(...)`` under an ``if`` that the options' own defaults make
false (``if opt.no_ttur: parser.set_defaults(beta1=0.5)``, the flag off by default) does
not give the run its value: the recipe shows the declared default (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "options.py": """
        import argparse


        class TrainOptions:
            def initialize(self, parser):
                parser.add_argument('--beta1', type=float, default=0.0)
                parser.add_argument('--beta2', type=float, default=0.9)
                parser.add_argument('--no_ttur', action='store_true')
                parser.add_argument('--warm', action='store_true')
                opt, _ = parser.parse_known_args()
                if opt.no_ttur:
                    parser.set_defaults(beta1=0.5)
                if not opt.warm:
                    parser.set_defaults(beta2=0.99)
                parser.add_argument('--lr', type=float, default=0.0002)
                return parser

            def parse(self):
                parser = argparse.ArgumentParser()
                parser = self.initialize(parser)
                return parser.parse_args()
    """,
    "train.py": """
        import torch
        from options import TrainOptions

        opt = TrainOptions().parse()
        net = torch.nn.Linear(4, 1)
        optimizer = torch.optim.Adam(
            net.parameters(), lr=opt.lr, betas=(opt.beta1, opt.beta2)
        )
        for epoch in range(10):
            for x in [torch.zeros(2, 4)]:
                optimizer.zero_grad()
                net(x).sum().backward()
                optimizer.step()
    """,
}


def test_a_set_defaults_the_defaults_skip_gives_no_value(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = {r.name: dict(r.values) for r in review.recipe}
    assert rows["argparse --beta1"]["default"] == "0.0", rows
    # the test holds with the defaults: the call runs and its value is the run's
    assert rows["argparse --beta2"]["default"].startswith("0.99"), rows
