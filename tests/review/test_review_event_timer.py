"""A device event recorded in a function that reads its elapsed time (``start.record()``
... ``start.elapsed_time(end)``: a timer for a log line) is a deletion, not a gap of a day
or two; an event recorded where nothing reads a time (it orders work across streams) stays
a gap."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

TRAIN = """\
import torch
from torch import nn


def gpu_timer(closure):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    result = closure()
    end.record()
    torch.cuda.synchronize()
    return result, start.elapsed_time(end)


def ordered(stream):
    done = torch.cuda.Event()
    done.record(stream)
    return done


def main():
    net = nn.Linear(8, 8)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    stream = torch.cuda.Stream()
    for _ in range(10):
        def train_step():
            loss = net(torch.randn(4, 8)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            return float(loss)
        loss, ms = gpu_timer(train_step)
        ordered(stream).wait()


if __name__ == "__main__":
    main()
"""


def test_an_event_timing_a_log_line_is_deleted(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    said = " ".join(review.effort.explanation)
    # the timer's two records are deletions; the stream-ordering event's record stays a gap
    assert "2 gap sites (torch.cuda.Event.record, torch.cuda.Event.wait)" in said
