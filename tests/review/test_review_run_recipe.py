"""The run a single-script training defines: what its model is, where its seeds, loss,
schedule and accumulation are, read from the code that runs (llm.c-style ``train_gpt2.py``:
the network, its training loop and a hand-written schedule in one file)."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

SCRIPT = """
    import math

    import torch
    import torch.nn.functional as F
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    class Attention(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)

        def forward(self, x):
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            return self.proj(F.scaled_dot_product_attention(q, k, v, is_causal=True))


    class Block(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.ln = nn.LayerNorm(dim)
            self.attn = Attention(dim)
            self.seeds = {}

        def seed_cuda(self, key):
            # re-seeded so the recomputation draws the same dropout masks
            self.seeds[key] = int(torch.randint(0, 1 << 30, ()))
            torch.manual_seed(self.seeds[key])

        def forward(self, x):
            self.seed_cuda("attn")
            return x + self.attn(self.ln(x))


    class Net(nn.Module):
        def __init__(self, vocab, dim, depth):
            super().__init__()
            self.init_rng = torch.Generator()
            self.init_rng.manual_seed(42)
            self.wte = nn.Embedding(vocab, dim)
            self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
            self.head = nn.Linear(dim, vocab)

        def forward(self, idx, targets=None):
            x = self.wte(idx)
            for block in self.blocks:
                x = block(x)
            logits = self.head(x)
            loss = None
            if targets is not None:
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
            return logits, loss

        def configure_optimizers(self, lr, weight_decay):
            return torch.optim.AdamW(self.parameters(), lr=lr, weight_decay=weight_decay)


    if __name__ == "__main__":
        import argparse

        parser = argparse.ArgumentParser()
        parser.add_argument("--learning_rate", type=float, default=6e-4)
        parser.add_argument("--warmup_iters", type=int, default=10)
        parser.add_argument("--num_iterations", type=int, default=100)
        parser.add_argument("--grad_accum", type=int, default=4)
        args = parser.parse_args()
        torch.manual_seed(42)
        ddp = False
        model = Net(50257, 64, 2)
        if ddp:
            model = DDP(model)
        raw_model = model.module if ddp else model
        optimizer = raw_model.configure_optimizers(args.learning_rate, 0.1)

        def get_lr(it):
            min_lr = args.learning_rate * 0.1
            if it < args.warmup_iters:
                return args.learning_rate * (it + 1) / args.warmup_iters
            if it > args.num_iterations:
                return min_lr
            ratio = (it - args.warmup_iters) / (args.num_iterations - args.warmup_iters)
            coeff = 0.5 * (1.0 + math.cos(math.pi * ratio))
            return min_lr + coeff * (args.learning_rate - min_lr)

        for step in range(args.num_iterations):
            optimizer.zero_grad(set_to_none=True)
            for micro_step in range(args.grad_accum):
                x = torch.randint(0, 50257, (4, 64))
                y = torch.randint(0, 50257, (4, 64))
                logits, loss = model(x, y)
                loss = loss / args.grad_accum
                loss.backward()
            lr = get_lr(step)
            for param_group in optimizer.param_groups:
                param_group["lr"] = lr
            optimizer.step()
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("single"), {"train_gpt.py": SCRIPT})
    return build_review(str(root))


def _rows(review, category: str) -> list:  # type: ignore[no-untyped-def]
    return [i for i in review.recipe if i.category == category]


def test_parts_a_model_class_builds_are_no_top_models(review) -> None:  # type: ignore[no-untyped-def]
    tops = [m.cls.rpartition(".")[2] for m in review.top_models]
    assert tops == ["Net"]


def test_a_seed_a_layer_sets_in_its_own_code_is_no_run_seed(review) -> None:  # type: ignore[no-untyped-def]
    seeds = [(i.name, i.where.line) for i in _rows(review, "seed")]
    assert seeds == [("torch.manual_seed", SCRIPT_LINE("torch.manual_seed(42)"))]


def SCRIPT_LINE(text: str) -> int:
    import textwrap

    lines = textwrap.dedent(SCRIPT).lstrip("\n").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_a_schedule_function_handing_the_lr_back_is_the_schedule(review) -> None:  # type: ignore[no-untyped-def]
    """``lr = get_lr(step)`` then ``param_group["lr"] = lr``: the function computes the LR
    (a linear warm-up, then a cosine decay down to a floor), and returns it."""
    (row,) = _rows(review, "scheduler")
    values = dict(row.values)
    assert row.name.endswith("get_lr") and row.note.startswith("stored as lr")
    assert values["shape"] == "warm-up then cosine"
    assert values["step 2"].startswith("if it < args.warmup_iters: return ")
    assert values["args.warmup_iters"].startswith("10 ")


def test_the_loss_forward_computes_for_the_wrapped_model_is_the_loss_row(review) -> None:  # type: ignore[no-untyped-def]
    """``logits, loss = model(x, y)`` where ``model`` may be ``DDP(model)``: the call runs
    ``Net.forward`` with ``targets`` given, so its ``F.cross_entropy`` is the run's loss."""
    (row,) = _rows(review, "loss")
    assert row.name == "torch.nn.functional.cross_entropy"
    assert row.where.line == SCRIPT_LINE("loss = F.cross_entropy(")


def test_micro_batches_before_one_step_are_gradient_accumulation(review) -> None:  # type: ignore[no-untyped-def]
    (row,) = [i for i in _rows(review, "grad_accum") if i.name == "gradient accumulation"]
    values = dict(row.values)
    assert values["micro-batches"].startswith("4 (args.grad_accum")
    assert values["loss scaled"] == "loss = loss / args.grad_accum"
    assert row.where.line == SCRIPT_LINE("for micro_step in range(")
