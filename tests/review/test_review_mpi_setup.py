"""Processes set up through MPI (mpi4py: the rank and world size read from the communicator,
a checkpoint's bytes broadcast from the first rank) in the ported training code are one work
item, MindSpore's communication set-up in its place; an mpi4py import in a tool counted
apart is none. A small repository inline."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

DIST = """
    import io
    import torch
    import torch.distributed as dist
    from mpi4py import MPI


    def setup_dist():
        dist.init_process_group(backend="nccl", init_method="env://",
                                rank=MPI.COMM_WORLD.Get_rank(),
                                world_size=MPI.COMM_WORLD.Get_size())


    def load_state_dict(path):
        data = open(path, "rb").read() if MPI.COMM_WORLD.Get_rank() == 0 else None
        data = MPI.COMM_WORLD.bcast(data)
        return torch.load(io.BytesIO(data))
"""
TRAIN = """
    import torch
    import dist_util


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)


    def main():
        dist_util.setup_dist()
        model = Net()
        model.load_state_dict(dist_util.load_state_dict("model.pt"))
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for step in range(10):
            loss = model(torch.ones(2, 4)).pow(2).mean()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


def test_mpi_set_up_is_one_item(tmp_path: Path) -> None:
    write_repo(tmp_path, {"dist_util.py": DIST, "train.py": TRAIN})
    review = build_review(str(tmp_path), jobs=1)
    items = [i for i in review.work if i.kind == "vendored-parallel"]
    assert [(i.what, i.uses) for i in items] == [
        ("mpi4py (Get_rank, Get_size, bcast) (the repository's own MPI set-up)", 3)
    ]
    assert "mindspore.communication.init()" in items[0].why
