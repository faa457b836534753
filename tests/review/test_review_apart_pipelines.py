"""A loader's ``collate_fn=dataset.collater`` is matched to the collates of that last name
wherever they are defined (the dataset class is picked at run time); a collate of that name
that pads each batch to its largest item in a file counted apart (an example's dataset) or
in code only an unpicked alternative reaches is no input pipeline of the port: the
effort's input-pipeline count and its listing name the training's own collate only."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

PAD = """
        def pad_to_longest(values, pad):
            size = max(v.size(0) for v in values)
            out = values[0].new(len(values), size).fill_(pad)
            for i, v in enumerate(values):
                out[i, : len(v)].copy_(v)
            return out
"""

FILES = {
    "kit/__init__.py": "",
    "kit/data.py": """
        import torch
        from torch.utils.data import Dataset
        """
    + PAD
    + """

        class TextSet(Dataset):
            def __len__(self):
                return 8

            def __getitem__(self, i):
                return torch.ones(i + 1, dtype=torch.long)

            def collater(self, samples):
                return pad_to_longest(samples, 0)
    """,
    "examples/speech/data.py": """
        import torch
        from torch.utils.data import Dataset
        """
    + PAD
    + """

        class SpeechSet(Dataset):
            def __len__(self):
                return 8

            def __getitem__(self, i):
                return torch.ones(i + 2)

            def collater(self, samples):
                return pad_to_longest(samples, 0.0)
    """,
    "train.py": """
        import torch
        from torch.utils.data import DataLoader

        from kit.data import TextSet


        def main():
            dataset = TextSet()
            loader = DataLoader(dataset, batch_size=4, collate_fn=dataset.collater)
            model = torch.nn.EmbeddingBag(16, 4)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for tokens in loader:
                loss = model(tokens).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("apart_pipelines"), FILES)
    return build_review(str(root), jobs=1)


def test_only_the_ported_collate_is_an_input_pipeline(review: Review) -> None:
    assert any(a[0] == "examples/speech/data.py" for a in review.ancillary)
    said = next(e for e in review.effort.explanation if "input pipeline" in e)
    assert "kit/data.py:" in said
    assert "examples/" not in said
    assert review.effort.input_shape_rewrites == 1
