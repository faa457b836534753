"""A NumPy table made a tensor in the network path under a hand-written cache (VITS-style
``if key not in mel_basis: mel_basis[key] = torch.from_numpy(mel)``): the host round-trip
item says it is built once per key and kept, not copied on every call, where an unguarded
conversion keeps the per-call wording (issue 20: a work item's why that misread the code)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net.py": """
        import numpy as np
        import torch

        basis = {}


        def cached_table(x):
            key = str(x.dtype)
            if key not in basis:
                basis[key] = torch.from_numpy(np.eye(4, dtype=np.float32))
            return torch.matmul(x, basis[key])


        def fresh_table(x):
            return torch.matmul(x, torch.from_numpy(np.eye(4, dtype=np.float32)))


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 4)

            def forward(self, x):
                return cached_table(self.fc(x)) + fresh_table(x)
    """,
    "train.py": """
        import torch
        from net import Net


        def main():
            net = Net()
            opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
            for x in [torch.zeros(2, 4)] * 4:
                loss = net(x).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_a_cached_conversion_is_said_to_run_once_per_key(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    items = {i.what.partition(":")[0]: i for i in review.work if i.kind == "host-round-trip"}
    assert "once per key, kept in the dict basis" in items["cached_table"].why
    assert "every time it runs" in items["fresh_table"].why
