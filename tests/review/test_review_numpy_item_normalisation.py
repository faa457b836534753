"""A dataset's ``__getitem__`` written with numpy and PIL alone (no torch call places it in
data processing) that scales the image to [-1, 1] (improved-diffusion-style ``arr =
arr.astype(np.float32) / 127.5 - 1``): a preprocessing row with the whole formula, shift
included; the same arithmetic in a plotting helper is none (issue 20: the input scaling a
port must repeat was missing from the recipe)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "image_datasets.py": """
        import numpy as np
        from PIL import Image
        from torch.utils.data import DataLoader, Dataset


        class ImageDataset(Dataset):
            def __init__(self, paths):
                super().__init__()
                self.paths = paths

            def __len__(self):
                return len(self.paths)

            def __getitem__(self, idx):
                arr = np.array(Image.open(self.paths[idx]).convert("RGB"))
                arr = arr.astype(np.float32) / 127.5 - 1
                return np.transpose(arr, [2, 0, 1])


        def show(img):
            return (img + 1) * 127.5


        def load_data(paths, batch_size):
            return DataLoader(ImageDataset(paths), batch_size=batch_size, shuffle=True)
    """,
    "train.py": """
        import torch
        from image_datasets import load_data


        def main():
            model = torch.nn.Conv2d(3, 3, 3)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
            for batch in load_data(["a.png"], 4):
                loss = model(batch).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_the_items_scaling_is_a_preprocessing_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = [i for i in review.recipe if i.category == "preprocessing"]
    assert [(i.name, dict(i.values)["formula"]) for i in rows] == [
        ("normalisation in ImageDataset.__getitem__", "arr.astype(np.float32) / 127.5 - 1")
    ]
