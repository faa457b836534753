"""The training's own checkpoint writes are a recipe row: what the saved dict holds
(written in the call or bound to the name it saves) and when it is written (the ``if``
around it, with the option it reads). A step counter assigned once and then incremented in
the loop (``train_steps = 0`` ... ``train_steps += 1``) holds more than its first value: a
test ``train_steps > 0`` is no branch the run never takes."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import argparse

        import torch
        from torch import nn


        def main(args):
            model = nn.Linear(4, 1)
            ema = nn.Linear(4, 1)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
            train_steps = 0
            for _ in range(args.epochs):
                loss = model(torch.randn(8, 4)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                train_steps += 1
                if train_steps % args.ckpt_every == 0 and train_steps > 0:
                    checkpoint = {
                        "model": model.state_dict(),
                        "ema": ema.state_dict(),
                        "opt": opt.state_dict(),
                    }
                    torch.save(checkpoint, f"{train_steps:07d}.pt")


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--epochs", type=int, default=10)
            parser.add_argument("--ckpt-every", type=int, default=5000)
            main(parser.parse_args())
    """,
}


def test_the_training_s_checkpoint_write_is_a_recipe_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    (row,) = [r for r in review.recipe if r.category == "checkpoint_save"]
    assert row.name == "torch.save"
    assert (row.where.path, row.where.line) == ("train.py", 24)
    values = dict(row.values)
    assert values["holds"] == "model, ema, opt"
    assert values["when"] == "train_steps % args.ckpt_every == 0 and train_steps > 0"
    assert values["args.ckpt_every"] == "5000"


def test_a_saved_name_holds_its_last_assignment_before_the_save(tmp_path: Path) -> None:
    # a model picked by depth in an if/elif chain, then wrapped: the save writes the wrapper
    # (the records list the branches' assignments last to first)
    files = {
        "train.py": """
            import argparse

            import torch
            from torch import nn


            def main(args):
                if args.depth == 18:
                    net = nn.Linear(4, 1)
                elif args.depth == 50:
                    net = nn.Linear(4, 2)
                else:
                    raise ValueError(args.depth)
                net = torch.nn.DataParallel(net)
                opt = torch.optim.Adam(net.parameters(), lr=1e-5)
                for _ in range(3):
                    loss = net(torch.randn(8, 4)).mean()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                torch.save(net, "model_final.pt")


            if __name__ == "__main__":
                parser = argparse.ArgumentParser()
                parser.add_argument("--depth", type=int, default=50)
                main(parser.parse_args())
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    (row,) = [r for r in review.recipe if r.category == "checkpoint_save"]
    assert dict(row.values)["holds"] == "torch.nn.DataParallel(net)"


def test_a_helper_the_training_calls_writes_its_checkpoint(tmp_path: Path) -> None:
    # a saver class of another file, handed the state dict by the training loop: its
    # torch.save is the training's write, holding what the call hands it
    files = {
        "utils/__init__.py": "",
        "utils/saver.py": """
            import os

            import torch


            class Saver(object):
                def __init__(self, directory):
                    self.directory = directory

                def save_checkpoint(self, state, is_best, filename='checkpoint.pth.tar'):
                    torch.save(state, os.path.join(self.directory, filename))
        """,
        "utils/unused.py": """
            import torch


            def dump(obj):
                torch.save(obj, 'dump.pt')
        """,
        "train.py": """
            import torch
            from torch import nn
            from utils.saver import Saver


            def main():
                model = nn.Linear(4, 1)
                opt = torch.optim.SGD(model.parameters(), lr=0.01)
                saver = Saver('run')
                for epoch in range(3):
                    loss = model(torch.randn(8, 4)).mean()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    saver.save_checkpoint(
                        {'epoch': epoch + 1, 'state_dict': model.state_dict(),
                         'optimizer': opt.state_dict()},
                        False,
                    )


            if __name__ == "__main__":
                main()
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    (row,) = [r for r in review.recipe if r.category == "checkpoint_save"]
    assert (row.where.path, row.where.line) == ("utils/saver.py", 11)
    assert dict(row.values)["holds"] == "epoch, state_dict, optimizer"
    assert row.note.startswith("written by Saver.save_checkpoint, called by the training at")


def test_a_write_in_an_else_branch_runs_when_the_test_fails(tmp_path: Path) -> None:
    files = {
        "train.py": """
            import argparse

            import torch
            from torch import nn


            def main(args):
                net = nn.Linear(4, 1)
                opt = torch.optim.Adam(net.parameters(), lr=1e-5)
                for _ in range(3):
                    loss = net(torch.randn(8, 4)).mean()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                if args.sharded:
                    state = {"shard": net.state_dict()}
                    torch.save(state, "shard.pt")
                else:
                    state = {"model": net.state_dict(), "opt": opt.state_dict()}
                    torch.save(state, "full.pt")


            if __name__ == "__main__":
                parser = argparse.ArgumentParser()
                parser.add_argument("--sharded", action="store_true")
                main(parser.parse_args())
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    rows = {r.where.line: dict(r.values) for r in review.recipe if r.category == "checkpoint_save"}
    assert rows[17]["when"] == "args.sharded"
    assert rows[20]["when"] == "not (args.sharded)"
    # each holds what its own branch binds before it
    assert rows[17]["holds"] == "shard" and rows[20]["holds"] == "model, opt"


def test_a_helper_function_the_package_re_exports_writes_the_dict_the_caller_binds(
    tmp_path: Path,
) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/utils/__init__.py": "from .checkpoint import save_checkpoint\n",
        "pkg/utils/checkpoint.py": """
            import torch


            def save_checkpoint(state, is_best, save_dir):
                torch.save(state, save_dir + '/last.pth')
        """,
        "pkg/trainer.py": """
            import torch
            from torch import nn
            from pkg.utils import save_checkpoint


            def train():
                model = nn.Linear(4, 1)
                opt = torch.optim.SGD(model.parameters(), lr=0.01)
                for epoch in range(3):
                    loss = model(torch.randn(8, 4)).mean()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    ckpt_state = {'start_epoch': epoch + 1, 'model': model.state_dict()}
                    save_checkpoint(ckpt_state, False, 'out')
        """,
        "train.py": """
            from pkg.trainer import train

            if __name__ == "__main__":
                train()
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    (row,) = [r for r in review.recipe if r.category == "checkpoint_save"]
    assert (row.where.path, row.where.line) == ("pkg/utils/checkpoint.py", 5)
    assert dict(row.values)["holds"] == "start_epoch, model"
    assert "called by the training at pkg/trainer.py:15" in row.note
