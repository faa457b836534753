"""Host reads in the methods a decode loop calls once per generated token (a beam search's
``update`` reading ``tokens[i].tolist()`` and ``score.item()``, a logit filter's ``apply``
reading ``seq.tolist()``, called from the loop that runs ``self.model.logits``): a device
wait per token, recipe rows of the decoding and one work item; the same reads in a method
only a loop without the network calls (a metric's ``update`` over finished outputs) are none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, vocab=16, width=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.head = nn.Linear(width, vocab)

    def logits(self, tokens):
        return self.head(self.embed(tokens))
"""

DECODE = """
import torch


class BeamSearch:
    def __init__(self, beam_size):
        self.beam_size = beam_size

    def update(self, tokens, logits, scores):
        best = {}
        for i in range(tokens.shape[0]):
            prefix = tokens[i].tolist()
            for logprob, token in zip(*logits[i].topk(self.beam_size)):
                best[tuple(prefix + [token.item()])] = (scores[i] + logprob).item()
        picked = sorted(best, key=best.get, reverse=True)[: tokens.shape[0]]
        return torch.tensor(picked), len(picked) == 0


class SuppressRepeats:
    def apply(self, logits, tokens):
        for k in range(tokens.shape[0]):
            seq = tokens[k].tolist()
            if seq:
                logits[k, seq[-1]] = -1e9


class Meter:
    def __init__(self):
        self.total = 0.0

    def update(self, value):
        self.total += value.item()


class Decoder:
    def __init__(self, model, beam_size=2):
        self.model = model
        self.search = BeamSearch(beam_size)
        self.filters = [SuppressRepeats()]
        self.meter = Meter()

    def run(self, tokens, steps=8):
        scores = torch.zeros(tokens.shape[0])
        for _ in range(steps):
            logits = self.model.logits(tokens)[:, -1]
            for f in self.filters:
                f.apply(logits, tokens)
            tokens, done = self.search.update(tokens, logits, scores)
            if done:
                break
        for row in tokens:
            self.meter.update(row.float().mean())
        return tokens
"""

MAIN = """
import torch
from pkg.model import Net
from pkg.decode import Decoder

if __name__ == "__main__":
    net = Net()
    net.load_state_dict(torch.load("net.pt"))
    print(Decoder(net).run(torch.zeros(2, 1, dtype=torch.long)))
"""


def test_reads_in_the_methods_a_decode_loop_calls_are_per_token_syncs(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/model.py": MODEL,
            "pkg/decode.py": DECODE,
            "generate.py": MAIN,
        },
    )
    review = build_review(str(root))
    rows = {
        item.name: dict(item.values)
        for item in review.recipe
        if item.name.startswith("host read per generated step")
    }
    # VALID: the beam search's and the filter's reads, each step of Decoder.run
    beam = rows["host read per generated step in BeamSearch.update"]
    assert beam["code"].startswith("tokens[i].tolist() (each step of Decoder.run")
    assert "host read per generated step in SuppressRepeats.apply" in rows
    # INVALID: the meter's read runs in a loop that runs no network
    assert not any("Meter" in name for name in rows)
    [item] = [w for w in review.work if w.kind == "decode-sync"]
    assert item.what == "BeamSearch.update, SuppressRepeats.apply"
    assert [w.path for w in item.where] == ["pkg/decode.py", "pkg/decode.py"]
