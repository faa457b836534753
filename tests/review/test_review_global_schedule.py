"""A training script whose settings are module globals (overridden from the command line by
an ``exec``'d configurator) and whose LR schedule is a function reading them, called under
a switch: ``lr = get_lr(iter_num) if decay_lr else learning_rate``. The schedule row shows
the function with the globals' values; a global already shown with its value where the
optimizer uses it gets no row of its own."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

SCRIPT = """
    import math

    import torch
    import torch.nn.functional as F
    from torch import nn

    batch_size = 32
    learning_rate = 5e-4
    max_iters = 2000
    weight_decay = 1e-1
    decay_lr = True
    warmup_iters = 100
    dtype = "bfloat16"
    exec(open("configurator.py").read())
    lr_decay_iters = max_iters
    min_lr = 0.0


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x, y):
            return F.cross_entropy(self.fc(x), y)


    def get_lr(it):
        if it < warmup_iters:
            return learning_rate * it / warmup_iters
        if it > lr_decay_iters:
            return min_lr
        ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
        coeff = 0.5 * (1.0 + math.cos(math.pi * ratio))
        return min_lr + coeff * (learning_rate - min_lr)


    ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16}[dtype]
    ctx = torch.amp.autocast(device_type="cuda", dtype=ptdtype)
    model = Net()
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=learning_rate, weight_decay=weight_decay
    )
    iter_num = 0
    while True:
        lr = get_lr(iter_num) if decay_lr else learning_rate
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr
        x = torch.randn(batch_size, 8)
        y = torch.randint(0, 8, (batch_size,))
        with ctx:
            loss = model(x, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        iter_num += 1
        if iter_num > max_iters:
            break
"""

CONFIGURATOR = """
    import sys

    for arg in sys.argv[1:]:
        key, val = arg.split("=")
        globals()[key[2:]] = val
"""


@pytest.fixture(scope="module")
def recipe(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = write_repo(
        tmp_path_factory.mktemp("globals"),
        {"train.py": SCRIPT, "configurator.py": CONFIGURATOR},
    )
    return build_review(str(root)).recipe


def test_a_schedule_called_in_a_conditional_expression_is_the_schedule(recipe) -> None:  # type: ignore[no-untyped-def]
    (row,) = [i for i in recipe if i.category == "scheduler" and i.name.endswith("get_lr")]
    values = dict(row.values)
    assert row.note.startswith("stored as lr")
    assert values["shape"] == "warm-up then cosine"
    # the module globals the function reads, with their values
    assert values["warmup_iters"].startswith("100 (")
    assert values["min_lr"].startswith("0.0 (")
    assert values["lr_decay_iters"].startswith("2000 (")
    # the step counter it is handed (``iter_num += 1``) is no setting
    assert "it" not in values


def test_a_global_shown_where_the_optimizer_uses_it_has_no_row_of_its_own(recipe) -> None:  # type: ignore[no-untyped-def]
    names = {(i.category, i.name) for i in recipe}
    assert ("optimizer", "learning_rate") not in names
    assert ("optimizer", "weight_decay") not in names
    assert ("warmup", "warmup_iters") not in names
    # the optimizer row shows them
    (adamw,) = [i for i in recipe if i.name == "torch.optim.AdamW"]
    values = dict(adamw.values)
    assert values["lr"].startswith("5e-4 (learning_rate set at train.py:")
    # the training length is a fact of its own kind: its row stays
    assert ("epochs", "max_iters") in names


def test_a_dict_entry_picked_by_a_setting_is_the_value(recipe) -> None:  # type: ignore[no-untyped-def]
    """``ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, ...}[dtype]`` with
    ``dtype = "bfloat16"``: the autocast runs in bfloat16, not "a dict indexed by dtype"."""
    (amp,) = [i for i in recipe if i.name == "torch.amp.autocast"]
    assert dict(amp.values)["dtype"].startswith("torch.bfloat16 (")
