"""A collate only a sibling training script (a named variant of the one ported: ``train_ms.py``
beside ``train.py``) builds pads its batches to their largest item: that input pipeline
goes with the variant's delta, as a padded batch of the same code already does, not a
second pipeline of the port (issue 20: a TTS repository's multi-speaker collate, built
only by its multi-speaker script, doubled the input pipelines)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

COLLATE = """
    class {name}:
        def __call__(self, batch):
            max_len = max([len(x[0]) for x in batch])
            padded = torch.LongTensor(len(batch), max_len)
            padded.zero_()
            for i, row in enumerate(batch):
                padded[i, : row[0].size(0)] = row[0]
            return padded
"""

TRAIN = """
    import torch
    from torch.utils.data import DataLoader
    from data_utils import Loader, {collate}


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(10, 4)

        def forward(self, x):
            return self.emb(x).mean()


    def main():
        net = Net()
        opt = torch.optim.AdamW(net.parameters(), lr=2e-4)
        loader = DataLoader(Loader(), batch_size=4, collate_fn={collate}())
        for x in loader:
            loss = net(x)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""

FILES = {
    "data_utils.py": "\n".join(
        [
            """
    import torch


    class Loader(torch.utils.data.Dataset):
        def __getitem__(self, i):
            return (torch.ones(i + 1, dtype=torch.long),)

        def __len__(self):
            return 8
""",
            COLLATE.format(name="TextCollate"),
            COLLATE.format(name="SpeakerCollate"),
        ]
    ),
    "train.py": TRAIN.format(collate="TextCollate"),
    "train_ms.py": TRAIN.format(collate="SpeakerCollate"),
}


def test_the_variants_own_collate_is_no_pipeline_of_the_port(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    assert review.effort.input_shape_rewrites == 1, review.effort.explanation
