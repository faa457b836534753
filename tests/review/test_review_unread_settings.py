"""An argparse option nothing reads (declared, its ``args.X`` never used, the parsed options
never read as a whole nor handed to a library) sets nothing the run uses: its recipe row
says so, whatever its name says (an ``--augment_every`` beside the ``--augment_p`` the step
reads)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import argparse

        import torch


        def augment(x, p):
            if torch.rand(()) < p:
                return torch.flip(x, (3,))
            return x


        def train(args, net, opt):
            for _ in range(args.iter):
                x = augment(torch.randn(args.batch, 3, 8, 8), args.augment_p)
                loss = net(x).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--iter", type=int, default=100, help="total training iterations")
            parser.add_argument("--batch", type=int, default=16)
            parser.add_argument("--augment_p", type=float, default=0.5, help="augment probability")
            parser.add_argument(
                "--augment_every", type=int, default=256, help="augmentation update interval"
            )
            args = parser.parse_args()
            net = torch.nn.Conv2d(3, 1, 3)
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            train(args, net, opt)
    """,
}


def test_an_unread_option_of_any_category_says_so(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    names = {r.name for r in review.recipe}
    assert "argparse --augment_p" in names
    (unread,) = [r for r in review.recipe if r.name == "argparse --augment_every"]
    assert unread.note == "declared, never read: it sets nothing the run uses"
    assert not next(r for r in review.recipe if r.name == "argparse --augment_p").note


def test_an_option_read_only_in_an_augmented_assignment_is_read(tmp_path: Path) -> None:
    """``args.augment_p -= initial / args.augment_every``: the decay's length is read by the
    step's augmented assignment, no option nothing reads."""
    code = (
        FILES["train.py"]
        .replace(
            "        def train(args, net, opt):\n",
            "        def train(args, net, opt):\n            initial = args.augment_p\n",
        )
        .replace(
            "                opt.step()\n",
            "                opt.step()\n"
            "                args.augment_p -= initial / args.augment_every\n",
        )
    )
    review = build_review(str(write_repo(tmp_path, {"train.py": code})), jobs=1)
    (row,) = [r for r in review.recipe if r.name == "argparse --augment_every"]
    assert "never read" not in row.note
