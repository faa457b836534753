"""Work items a lead found missing on repositories new to the project: a Module's state
written in place while it runs (vq-vae's EMA codebook, a key queue) with the collective it runs
there (fixtures/emastate), and a NumPy schedule made a tensor on every step of a diffusion's
loss reached through ``functools.partial`` (fixtures/partialloss)."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where


@cache
def ema() -> Review:
    return review_fixture("fixtures/emastate")


@cache
def diffusion() -> Review:
    return review_fixture("fixtures/partialloss")


def _items(review: Review, kind: str) -> dict[str, tuple[Where, ...]]:
    return {i.what: i.where for i in review.work if i.kind == kind}


def test_a_codebook_updated_in_forward_with_its_collective() -> None:
    items = _items(ema(), "state-in-forward")
    what = (
        "Quantize.forward: self.cluster_size, self.embed_avg, self.embed updated in place; "
        "torch.distributed.all_reduce (through vq.comm.all_reduce)"
    )
    # the two calls of the helper in forward, the three updates, the collective itself
    assert items[what] == tuple(
        Where(p, n)
        for p, n in [("vq/layers.py", n) for n in (29, 30, 31, 32, 35)] + [("vq/comm.py", 7)]
    )
    item = next(i for i in ema().work if i.what == what)
    assert "ops.assign" in item.why and "mindspore.communication" in item.why
    assert "state-in-forward" in ema().effort.formula


def test_a_buffer_written_by_a_method_the_forward_calls() -> None:
    items = _items(ema(), "state-in-forward")
    assert items["Memory.forward: self.queue, self.ptr updated in place (in Memory._enqueue)"] == (
        Where("vq/layers.py", 86),
        Where("vq/layers.py", 87),
    )


def test_a_parts_update_method_the_forward_calls() -> None:
    """taming's ``EMAVectorQuantizer.forward`` calling ``self.embedding.
    cluster_size_ema_update(...)`` on its ``EmbeddingEMA``: the write is in the part's
    method, the item is the forward that runs it."""
    items = _items(ema(), "state-in-forward")
    what = "EMAQuantizer.forward: self.cluster_size updated in place (in Codebook.size_update)"
    assert items[what] == (Where("vq/layers.py", 53),)


def test_no_item_for_activations_construction_rebinding_or_the_training_loop() -> None:
    """INVALID: ``F.relu(..., inplace=True)`` and ``y.add_(1)`` on locals, weights set in
    ``reset_parameters`` from ``__init__``, ``self.cache = y`` rebound, a loss averaged by a
    collective with no state written, the batch count a torch BatchNorm subclass keeps
    (``self.num_batches_tracked.add_(1)``), a weight EMA and the loop's ``p.data.mul_``."""
    items = _items(ema(), "state-in-forward")
    assert len(items) == 3
    assert not any(w.path == "train.py" for where in items.values() for w in where)
    assert not {what.partition(".")[0] for what in items} & {"Block", "NormAct", "EMA", "VQ"}


def test_a_numpy_schedule_made_a_tensor_in_the_loss_path() -> None:
    trips = _items(diffusion(), "host-round-trip")
    assert trips == {
        "extract_into_tensor: NumPy array to a tensor (torch.from_numpy)": (
            Where("ddpm/gaussian.py", 11),
        )
    }  # INVALID: the host loop's ``torch.from_numpy`` of its batch is none


BOXES = """
import torch
from torch import nn


class Boxes:
    # a plain structure built on every call: clipping it in place is no Cell state
    def __init__(self, bbox):
        self.bbox = bbox

    def clip(self, w):
        self.bbox[:, 0].clamp_(min=0, max=w)
        return self


class Queue(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("keys", torch.zeros(16, 4))

    def push(self, k):
        self.keys[:4].copy_(k)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Linear(4, 4)
        self.queue = Queue()

    def forward(self, x):
        boxes = Boxes(self.conv(x))
        boxes.clip(8)
        self.queue.push(x)
        return boxes.bbox
"""


def test_a_plain_objects_in_place_helper_is_no_module_state(tmp_path) -> None:
    """VALID: the Module part's buffer written by the method the forward calls is state;
    INVALID: a plain structure the forward builds and clips in place is not."""
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    write_repo(tmp_path, {"det/head.py": BOXES, "train.py": TRAIN})
    items = _items(build_review(str(tmp_path), jobs=1), "state-in-forward")
    assert list(items) == ["Head.forward: self.keys updated in place (in Queue.push)"]


TRAIN = """
import torch

from det.head import Head


def main():
    model = Head()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.randn(2, 4)).sum()
    loss.backward()
    opt.step()


if __name__ == "__main__":
    main()
"""


MOMENTUM = """
import torch
from torch import nn


class Contrast(nn.Module):
    def __init__(self, encoder, m=0.99):
        super().__init__()
        self.m = m
        self.encoder_q = encoder()
        self.encoder_k = encoder()
        self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for q, k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            k.data = k.data * self.m + q.data * (1.0 - self.m)

    @torch.no_grad()
    def _freeze(self):
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def _shuffle(self, x):
        x_all = gather_all(x)
        return x_all[: x.shape[0]]

    def forward(self, a, b):
        q = self.encoder_q(a)
        with torch.no_grad():
            self._momentum_update()
            self._freeze()
            k = self.encoder_k(self._shuffle(b))
        return (q * k).sum(1)


@torch.no_grad()
def gather_all(t):
    out = [torch.ones_like(t) for _ in range(torch.distributed.get_world_size())]
    torch.distributed.all_gather(out, t, async_op=False)
    return torch.cat(out, dim=0)
"""

MOMENTUM_TRAIN = """
import torch
from torch import nn

from ssl_model.builder import Contrast


def main():
    model = Contrast(lambda: nn.Linear(4, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        loss = model(torch.randn(2, 4), torch.randn(2, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_a_momentum_encoder_updated_in_forward_with_a_gather_two_calls_deep(tmp_path) -> None:
    """VALID: the key encoder's weights blended into by a loop over two submodules'
    ``parameters()`` in a method the forward calls, and an ``all_gather`` run in a plain
    function that method calls; INVALID: ``requires_grad_(False)`` on those weights, a
    flag set, writes no tensor."""
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    write_repo(
        tmp_path,
        {"ssl_model/__init__.py": "", "ssl_model/builder.py": MOMENTUM, "train.py": MOMENTUM_TRAIN},
    )
    items = {i.what: i for i in build_review(str(tmp_path), jobs=1).work}
    what = (
        "Contrast.forward: self.encoder_k's parameters updated in place (in "
        "Contrast._momentum_update); torch.distributed.all_gather (through "
        "ssl_model.builder.Contrast._shuffle)"
    )
    assert what in items, list(items)
    where = items[what].where
    lines = MOMENTUM.strip().splitlines()
    blend = next(i for i, t in enumerate(lines, 1) if "k.data = " in t)
    gather = next(i for i, t in enumerate(lines, 1) if "all_gather(" in t)
    flag = next(i for i, t in enumerate(lines, 1) if "requires_grad_" in t)
    assert Where("ssl_model/builder.py", blend) in where
    assert Where("ssl_model/builder.py", gather) in where  # the gather itself
    assert not any(w.line == flag for w in where)  # requires_grad_ is no write


PAIRS = """
import torch
from torch import nn


class Pretrain(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(4, 4)
        self.encoder_m = nn.Linear(4, 4)
        self.model_pairs = [[self.encoder, self.encoder_m]]
        self.momentum = 0.995

    @torch.no_grad()
    def _momentum_update(self):
        for model_pair in self.model_pairs:
            for param, param_m in zip(model_pair[0].parameters(), model_pair[1].parameters()):
                param_m.data = param_m.data * self.momentum + param.data * (1.0 - self.momentum)

    def forward(self, x):
        with torch.no_grad():
            self._momentum_update()
            target = self.encoder_m(x)
        return (self.encoder(x) - target).pow(2).mean()
"""


def test_momentum_models_held_in_a_list_of_pairs(tmp_path) -> None:
    """BLIP-like ``for model_pair in self.model_pairs: for param, param_m in
    zip(model_pair[0].parameters(), model_pair[1].parameters())``: the momentum models'
    weights written in forward."""
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    train = MOMENTUM_TRAIN.replace(
        "from ssl_model.builder import Contrast", "from pre import Pretrain"
    )
    train = train.replace("Contrast(lambda: nn.Linear(4, 4))", "Pretrain()")
    train = train.replace(
        "model(torch.randn(2, 4), torch.randn(2, 4)).sum()", "model(torch.randn(2, 4))"
    )
    write_repo(tmp_path, {"pre.py": PAIRS, "train.py": train})
    items = _items(build_review(str(tmp_path), jobs=1), "state-in-forward")
    assert list(items) == [
        "Pretrain.forward: self.model_pairs's parameters updated in place "
        "(in Pretrain._momentum_update)"
    ]
