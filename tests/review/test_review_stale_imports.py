"""An import of the repository's own module by a path below its top package (an experiment
file's stale ``from data.datasets.coco import COCODataset`` for ``pkg/data/datasets/coco.py``)
names the repository's code, not a third-party package: no third-party data pipeline item
(issue 20 item 2)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "pkg/__init__.py": "",
    "pkg/data/__init__.py": "",
    "pkg/data/datasets/__init__.py": "",
    "pkg/data/datasets/coco.py": """
        import torch
        class COCODataset(torch.utils.data.Dataset):
            def __len__(self):
                return 1
            def __getitem__(self, i):
                return torch.zeros(3)
    """,
    "train.py": """
        import torch
        def loader():
            from data.datasets.coco import COCODataset
            return torch.utils.data.DataLoader(COCODataset(), batch_size=2)
        def main():
            net = torch.nn.Linear(3, 1)
            opt = torch.optim.SGD(net.parameters(), lr=0.1)
            for x in loader():
                net(x).sum().backward()
                opt.step()
        if __name__ == "__main__":
            main()
    """,
}


def test_a_stale_path_to_the_repositorys_module_is_no_third_party_package(
    tmp_path: Path,
) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    # VALID: data.datasets.coco is pkg/data/datasets/coco.py
    assert not [i.what for i in review.work if i.kind.startswith("third-party")]
