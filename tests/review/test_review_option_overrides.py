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
