"""A dataset's ``__getitem__`` that a fallback for a corrupt sample calls again
(``skip_sample`` → ``random_sample`` → ``self.__getitem__``) keeps its own draws: the
chain of callers that comes back to where it started ends at no test-time place
(issue 20: DALLE-pytorch's per-sample caption draw had been dropped as test-time only)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_DATASET = """
    from random import choice, randint

    import torch
    from torch.utils.data import Dataset


    class Captions(Dataset):
        def __init__(self, texts):
            self.texts = texts

        def __len__(self):
            return len(self.texts)

        def random_sample(self):
            return self.__getitem__(randint(0, len(self) - 1))

        def skip_sample(self):
            return self.random_sample()

        def __getitem__(self, ind):
            lines = [t for t in self.texts[ind].split("\\n") if t]
            if not lines:
                return self.skip_sample()
            caption = choice(lines)
            return torch.tensor([len(caption)])
"""

_TRAIN = """
    import torch

    from data import Captions


    def main():
        loader = torch.utils.data.DataLoader(Captions(["a\\nb", ""]), batch_size=2)
        model = torch.nn.Linear(1, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for batch in loader:
            loss = model(batch.float()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _draw_rows(tmp_path: Path, files: dict[str, str]) -> list[str]:
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    return [
        r.name for r in review.recipe if r.category == "augmentation" and r.where.path == "data.py"
    ]


def test_a_getitem_its_fallback_calls_again_keeps_its_draw(tmp_path: Path) -> None:
    # VALID: the caption drawn per sample is the dataset's augmentation
    assert _draw_rows(tmp_path, {"data.py": _DATASET, "train.py": _TRAIN}) == [
        "Captions.__getitem__"
    ]


def test_the_fallback_that_fetches_another_sample_is_no_draw(tmp_path: Path) -> None:
    # INVALID: the index the fallback draws picks a sample, it changes none
    rows = _draw_rows(tmp_path, {"data.py": _DATASET, "train.py": _TRAIN})
    assert "Captions.random_sample" not in rows
