"""A schedule function written by hand with one branch per schedule type (``if lr_type ==
'step': ...`` / ``elif lr_type == 'cos': ... math.cos(...)``), called with the option's
value (``'step'``): its row shows the steps of the branch the run takes, and the cosine of
the branch it skips is no shape of the run's schedule."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import argparse
        import math

        import torch


        def adjust_learning_rate(optimizer, epoch, lr_type, lr_steps):
            if lr_type == 'step':
                decay = 0.1 ** (sum(epoch >= s for s in lr_steps))
                lr = args.lr * decay
            elif lr_type == 'cos':
                lr = 0.5 * args.lr * (1 + math.cos(math.pi * epoch / args.epochs))
            else:
                raise NotImplementedError
            for group in optimizer.param_groups:
                group['lr'] = lr


        def main():
            model = torch.nn.Linear(4, 1)
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            for epoch in range(args.epochs):
                adjust_learning_rate(optimizer, epoch, args.lr_type, args.lr_steps)
                loss = model(torch.zeros(2, 4)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            parser = argparse.ArgumentParser()
            parser.add_argument('--lr', default=0.01, type=float)
            parser.add_argument('--epochs', default=50, type=int)
            parser.add_argument('--lr_type', default='step', type=str)
            parser.add_argument('--lr_steps', default=[20, 40], type=int, nargs='+')
            args = parser.parse_args()
            main()
    """,
}


def _schedule(review):  # type: ignore[no-untyped-def]
    rows = [i for i in review.recipe if i.name.endswith("adjust_learning_rate")]
    assert len(rows) == 1
    return rows[0].values


def test_the_skipped_branch_gives_no_step_and_no_shape(tmp_path) -> None:  # type: ignore[no-untyped-def]
    values = _schedule(build_review(str(write_repo(tmp_path / "step", FILES)), jobs=1))
    steps = [v for k, v in values if k.startswith("step ")]
    assert steps and all("cos" not in v for v in steps)
    assert any(v.startswith("if lr_type == 'step': lr = ") for v in steps)
    assert "cosine" not in dict(values).get("shape", "")


def test_the_taken_cosine_branch_is_the_shape(tmp_path) -> None:  # type: ignore[no-untyped-def]
    files = {"train.py": FILES["train.py"].replace("default='step'", "default='cos'")}
    values = _schedule(build_review(str(write_repo(tmp_path / "cos", files)), jobs=1))
    steps = [v for k, v in values if k.startswith("step ")]
    assert dict(values)["shape"] == "cosine"
    assert not any("decay" in v for v in steps)
