"""A ``torch.distributed`` collective a network's forward runs with no state written
(barlowtwins' cross-correlation all-reduced in the loss its forward computes): a work item,
since the collective sits in the graph MindSpore compiles and gradients flow through it
(fixtures/collforward, and the loss averaged through a helper in fixtures/emastate)."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where


@cache
def twins() -> Review:
    return review_fixture("fixtures/collforward")


def _items(review: Review, kind: str) -> dict[str, tuple[Where, ...]]:
    return {i.what: i.where for i in review.work if i.kind == kind}


def test_a_collective_called_in_forward() -> None:
    items = _items(twins(), "collective-in-forward")
    assert items["Twins.forward: torch.distributed.all_reduce"] == (Where("model.py", 23),)
    item = next(i for i in twins().work if i.kind == "collective-in-forward")
    assert "construct" in item.why and "gradient" in item.why
    assert "collective-in-forward" in twins().effort.formula


def test_a_collective_reached_through_a_helper() -> None:
    """The call in the forward (where the rewrite goes) and the collective in the helper."""
    items = _items(twins(), "collective-in-forward")
    what = "Contrast.forward: torch.distributed.all_gather (through model.gather_all)"
    assert items[what] == (Where("model.py", 33), Where("model.py", 8))
    ema = _items(review_fixture("fixtures/emastate"), "collective-in-forward")
    assert ema == {
        "Block.forward: torch.distributed.all_reduce (through vq.comm.mean_loss)": (
            Where("vq/layers.py", 110),
            Where("vq/comm.py", 13),
        )
    }


def test_no_item_for_the_training_loops_collectives() -> None:
    """INVALID: gradients averaged after backward, a metric reduced and a barrier in the
    loop, and a forward with no collective, are none; a forward that writes state keeps its
    one state-in-forward item."""
    items = _items(twins(), "collective-in-forward")
    assert len(items) == 2
    assert not any(w.path == "train.py" for where in items.values() for w in where)
    assert not any(what.startswith("Plain.") for what in items)
    assert not _items(twins(), "state-in-forward")


_DIST = """
import torch
import torch.distributed as dist


def is_dist_avail_and_initialized():
    return dist.is_available() and dist.is_initialized()


def init_distributed_mode(args):
    dist.init_process_group(backend="nccl", init_method="env://")
"""

_LOSS = """
import torch
import torch.nn as nn
from dist_utils import is_dist_avail_and_initialized


class Criterion(nn.Module):
    def forward(self, pred, target):
        n = torch.as_tensor([float(len(target))])
        if is_dist_avail_and_initialized():
            torch.distributed.all_reduce(n)
        return ((pred - target) ** 2).sum() / n
"""

_TRAIN = """
import argparse
import torch
import torch.nn as nn
from loss import Criterion
{imp}

def main(args):
    {setup}
    model = nn.Linear(4, 4)
    criterion = Criterion()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    for _ in range(10):
        x = torch.randn(2, 4)
        loss = criterion(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=0.1)
    main(p.parse_args())
"""


def _collective_items(tmp_path, setup: bool) -> list[str]:
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    train = _TRAIN.format(
        imp="from dist_utils import init_distributed_mode" if setup else "",
        setup="init_distributed_mode(args)" if setup else "pass",
    )
    root = write_repo(
        tmp_path / ("multi" if setup else "single"),
        {"dist_utils.py": _DIST, "loss.py": _LOSS, "train.py": train},
    )
    review = build_review(str(root))
    return [i.what for i in review.work if i.kind == "collective-in-forward"]


def test_no_item_where_the_process_group_setup_is_never_run(tmp_path) -> None:
    """The repository's own ``init_distributed_mode`` is never called: the training is one
    process and the loss's guarded all_reduce never runs (no work); called, it is an item."""
    assert _collective_items(tmp_path, setup=False) == []
    assert _collective_items(tmp_path, setup=True) == [
        "Criterion.forward: torch.distributed.all_reduce"
    ]
