"""nanoGPT's training step and ``GPT.generate`` on random tokens, on CPU, for the tracers.

Runs from the root of a nanoGPT checkout (the tracers set the working directory to the root)
and imports its ``model.py``; nothing of it is copied here. A tiny configuration (2 layers,
32 channels); the seed changes the tokens, never their shapes::

    python scripts/trace_shapes.py --root NANOGPT --out t.jsonl -- \\
        /abs/path/scripts/drivers/nanogpt_step.py --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    import torch
    from model import GPT, GPTConfig

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    config = GPTConfig(block_size=32, vocab_size=64, n_layer=2, n_head=2, n_embd=32, dropout=0.0)
    model = GPT(config)
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    model.train()
    for _ in range(2):
        tokens = torch.randint(0, 64, (2, 17), generator=data)
        _, loss = model(tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    prompt = torch.randint(0, 64, (1, 4), generator=data)
    torch.manual_seed(options.seed)  # generate samples with the global generator
    out = model.generate(prompt, max_new_tokens=6, temperature=0.8, top_k=5)
    print(f"seed {options.seed}: loss {float(loss):.3f}, generated {out.tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
