"""An option declared with no default that the script fills in itself is shown with the
value the run takes, not as "no default": a click option handed on in ``**kwargs`` to a
function whose parameter is tested (``if aug is None: aug = 'ada'``; ``if batch is not
None: args.batch_size = batch`` after ``args.batch_size = 32``), and an argparse option
filled on the parsed namespace (``if args.seed is None: args.seed = 0``), ``default=None``
written out included (``if args.batch_size is None: args.batch_size = 4 * n_gpus``)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

FILES = {
    "train.py": """
        import argparse

        import click
        import torch


        def setup(aug=None, batch=None, kimg=None):
            args = dict()
            args.batch_size = 32
            if batch is not None:
                args.batch_size = batch
            if aug is None:
                aug = 'ada'
            return args, aug


        @click.command()
        @click.option('--aug', help='Augmentation mode', type=str)
        @click.option('--batch', help='Total batch size', type=int)
        @click.option('--kimg', help='Training duration', type=int)
        def main(**config_kwargs):
            args, aug = setup(**config_kwargs)
            model = torch.nn.Linear(2, 2)
            opt = torch.optim.Adam(model.parameters(), lr=0.002)
            for _ in range(args.batch_size):
                model(torch.zeros(1, 2)).sum().backward()
                opt.step()


        if __name__ == '__main__':
            main()
    """,
    "other_train.py": """
        import argparse

        import torch


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--seed', type=int, help='random seed')
            parser.add_argument('--batch-size', type=int, default=None, help='batch size')
            parser.add_argument('--gpu-ids', type=str, default='0')
            parser.add_argument('--sync-bn', type=bool, default=None, help='sync bn')
            args = parser.parse_args()
            if args.seed is None:
                args.seed = 7
            if args.batch_size is None:
                args.batch_size = 4 * len(args.gpu_ids)
            if args.sync_bn is None:
                if len(args.gpu_ids) > 1:
                    args.sync_bn = True
                else:
                    args.sync_bn = False
            torch.manual_seed(args.seed)
            model = torch.nn.Linear(2, 2)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(3):
                model(torch.zeros(1, 2)).sum().backward()
                opt.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_options_filled_in_by_the_script(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", FILES)
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    items = extract_recipe(result, analyses, root)
    rows = {i.name: dict(i.values) for i in items if i.name.startswith(("click", "argparse"))}
    assert rows["click --aug"]["default"] == "None, then 'ada' (set at train.py:13 when not given)"
    assert rows["click --batch"]["default"] == (
        "None: args.batch_size keeps 32 (set at train.py:9)"
    )
    assert rows["argparse --seed"]["default"] == (
        "None, then 7 (set at other_train.py:14 when not given)"
    )
    # ``default=None`` written out: filled in the same way
    assert rows["argparse --batch-size"]["default"] == (
        "None, then 4 * len(args.gpu_ids) (set at other_train.py:16 when not given)"
    )
    # filled by an if/else inside the None test: each value with the test that picks it
    assert rows["argparse --sync-bn"]["default"] == (
        "None, then True if len(args.gpu_ids) > 1, else False"
        " (set at other_train.py:19 and other_train.py:21 when not given)"
    )
    # a length no code fills in stays without a default
    assert rows["click --kimg"]["default"] == "None (no default)"
