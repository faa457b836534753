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
