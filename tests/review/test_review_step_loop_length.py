"""A training written as steps, not epochs (``N_iters = 200000 + 1``, then ``for i in
trange(start, N_iters):`` whose own body runs the backward pass), runs to the local its
loop stops at: the training-length row, with the value, when no option or config says
it."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import torch
    from tqdm import trange

    def train():
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
        for k in range(3):
            print(k)
        start = 0
        N_iters = 200000 + 1
        for i in trange(start, N_iters):
            loss = model(torch.zeros(4, 2)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    if __name__ == "__main__":
        train()
"""


def test_the_step_loop_s_literal_stop_is_the_training_length(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    rows = [i for i in review.recipe if i.category == "epochs"]
    assert [(r.name, dict(r.values)["value"], str(r.where)) for r in rows] == [
        ("N_iters", "200000 + 1 (N_iters set at train.py:10)", "train.py:11")
    ], rows
    assert "steps, not epochs" in rows[0].note


def test_a_step_loop_to_a_parameter_gives_no_length(tmp_path) -> None:
    """``def train(n_steps=50)``: a parameter its callers may give, no length of the run."""
    source = TRAIN.replace("def train():", "def train(n_steps=50):").replace(
        "trange(start, N_iters)", "trange(start, n_steps)"
    )
    review = build_review(str(write_repo(tmp_path, {"train.py": source})), jobs=1)
    assert [i for i in review.recipe if i.category == "epochs"] == []
