"""What the script makes of an option after declaring it: ``parser.set_defaults(dest=...)``
after a ``--flag`` / ``--no-flag`` pair is the default of both (not the actions' implied
False/True), and an option the script rescales from its own value after parsing (a learning
rate scaled by the batch size) says so beside its default. A small repository inline."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

MAIN = """
    import argparse
    import torch


    def get_args_parser():
        parser = argparse.ArgumentParser()
        parser.add_argument('--lr', type=float, default=5e-4)
        parser.add_argument('--min-lr', type=float, default=1e-5)
        parser.add_argument('--batch-size', type=int, default=64)
        parser.add_argument('--unscale-lr', action='store_true')
        parser.add_argument('--model-ema', action='store_true')
        parser.add_argument('--no-model-ema', action='store_false', dest='model_ema')
        parser.set_defaults(model_ema=True)
        parser.add_argument('--model-ema-decay', type=float, default=0.9999)
        return parser


    def main(args):
        model = torch.nn.Linear(2, 2)
        if args.min_lr is None:
            args.min_lr = args.lr / 100
        if not args.unscale_lr:
            scaled = args.lr * args.batch_size / 512.0
            args.lr = scaled
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        for x in range(3):
            loss = model(torch.ones(2)).sum()
            loss.backward()
            optimizer.step()


    if __name__ == '__main__':
        main(get_args_parser().parse_args())
"""


def _items(root: Path):
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def test_set_defaults_and_a_rescaled_option(tmp_path: Path) -> None:
    write_repo(tmp_path, {"main.py": MAIN})
    items = {i.name: i for i in _items(tmp_path)}
    for flag in ("--model-ema", "--no-model-ema"):
        assert dict(items[f"argparse {flag}"].values)["default"] == (
            "True (parser.set_defaults at main.py:13)"
        )
    lr = items["argparse --lr"]
    assert lr.note == (
        "rescaled after parsing: if not args.unscale_lr: "
        "args.lr = args.lr * args.batch_size / 512.0 (main.py:24)"
    )
    # filled in only when unset: the option's own default rule, no rescaling
    assert "rescaled" not in items["argparse --min-lr"].note


WRAPPED_LOSS = """
    import argparse
    import torch
    import torch.nn.functional as F


    class WrapperLoss(torch.nn.Module):
        def __init__(self, base, kind, alpha):
            super().__init__()
            self.base = base
            self.kind = kind
            self.alpha = alpha

        def forward(self, outputs, labels):
            base_loss = self.base(outputs, labels)
            if self.kind == 'none':
                return base_loss
            extra = F.mse_loss(outputs, outputs.detach())
            loss = base_loss * (1 - self.alpha) + extra * self.alpha
            return loss


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--kind', default='none', choices=['none', 'soft'])
        parser.add_argument('--alpha', type=float, default=0.5)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        criterion = WrapperLoss(torch.nn.CrossEntropyLoss(), args.kind, args.alpha)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            loss = criterion(model(torch.ones(1, 2)), torch.zeros(1, dtype=torch.long))
            loss.backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""


def test_a_loss_returning_early_with_the_defaults_has_no_weights_of_the_later_return(
    tmp_path: Path,
) -> None:
    """``if self.kind == 'none': return base_loss`` with the kind 'none' by default: the
    weighted sum after it does not run, its weights are not the run's."""
    write_repo(tmp_path, {"train.py": WRAPPED_LOSS})
    row = next(i for i in _items(tmp_path) if i.name == "train.WrapperLoss")
    values = dict(row.values)
    assert not [k for k in values if k.startswith("weight")]
    assert values["returned with the defaults"] == (
        "base_loss at train.py:16, under if self.kind == 'none': the terms after it "
        "(return at train.py:19) do not run"
    )
