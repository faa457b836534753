"""The training length of a script whose epoch loop runs to a plain name (``epoch_num =
100000`` at module level, then ``for epoch in range(0, epoch_num):`` around the loop over
the data and its backward pass): the name's value, whatever it is called (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import torch
        from torch.utils.data import DataLoader

        rounds_to_run = 300
        batch_size_train = 12

        net = torch.nn.Linear(4, 1)
        loader = DataLoader(list(range(10)), batch_size=batch_size_train, shuffle=True)
        optimizer = torch.optim.Adam(net.parameters(), lr=0.001)

        for epoch in range(0, rounds_to_run):
            net.train()
            for i, data in enumerate(loader):
                optimizer.zero_grad()
                loss = net(data).sum()
                loss.backward()
                optimizer.step()
    """,
}


def test_a_module_constant_the_epoch_loop_runs_to_is_the_training_length(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [r for r in review.recipe if r.category == "epochs"]
    assert [r.name for r in rows] == ["rounds_to_run"], rows
    assert dict(rows[0].values)["value"].startswith("300")


def test_a_loop_from_its_start_runs_the_literal_it_adds(tmp_path) -> None:
    """INVALID: ``range(start_epoch, start_epoch + 200)`` runs 200 epochs from a resumed
    start; ``start_epoch = 0`` is no training length."""
    from scan_helpers import review_fixture

    (tmp_path / "main.py").write_text(
        "import torch\n\n"
        "net = torch.nn.Linear(2, 2)\n"
        "optimizer = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "start_epoch = 0\n\n\n"
        "def train(epoch):\n"
        "    for x in [torch.zeros(2)]:\n"
        "        loss = net(x).sum()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n\n\n"
        "for epoch in range(start_epoch, start_epoch + 200):\n"
        "    train(epoch)\n",
        "utf-8",
    )
    review = review_fixture(str(tmp_path))
    rows = [dict(i.values)["value"] for i in review.recipe if i.category == "epochs"]
    assert rows == ["200 (epochs from start_epoch)"], rows
