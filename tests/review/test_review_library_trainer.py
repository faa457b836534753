"""A library whose own trainer only its side projects and notebooks run (a small GPT
package with a ``Trainer`` class, driven by ``projects/*/`` scripts): the package is the
product, so its model and trainer are priced and read for the recipe, not counted apart
with the scripts that use them."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

FILES = {
    "tinylib/__init__.py": "",
    "tinylib/model.py": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.norm = nn.LayerNorm(dim)
                self.fc = nn.Linear(dim, dim)

            def forward(self, x):
                return x + self.fc(self.norm(x))


        class Net(nn.Module):
            def __init__(self, vocab=32, dim=16, depth=2):
                super().__init__()
                self.embed = nn.Embedding(vocab, dim)
                self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
                self.head = nn.Linear(dim, vocab)

            def forward(self, idx, targets=None):
                logits = self.head(self.blocks(self.embed(idx)))
                if targets is None:
                    return logits, None
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
                return logits, loss
    """,
    "tinylib/trainer.py": """
        import torch
        from torch.utils.data import DataLoader


        class Trainer:
            def __init__(self, model, dataset, lr=3e-4, batch_size=64):
                self.model = model
                self.dataset = dataset
                self.lr = lr
                self.batch_size = batch_size

            def run(self):
                optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.lr)
                loader = DataLoader(self.dataset, batch_size=self.batch_size, shuffle=True)
                for x, y in loader:
                    _, loss = self.model(x, y)
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                    optimizer.step()
    """,
    "projects/chars/chars.py": """
        import torch
        from torch.utils.data import Dataset

        from tinylib.model import Net
        from tinylib.trainer import Trainer


        class Chars(Dataset):
            def __len__(self):
                return 16

            def __getitem__(self, i):
                x = torch.randint(0, 32, (8,))
                return x, x


        if __name__ == "__main__":
            Trainer(Net(), Chars(), lr=5e-4).run()
    """,
    "setup.py": """
        from setuptools import setup

        setup(name="tinylib", packages=["tinylib"])
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("library_trainer"), FILES)
    return build_review(str(root), jobs=1)


def test_the_package_model_and_trainer_are_priced(review: Review) -> None:
    assert review.effort.call_sites_to_change > 0
    apart = next(
        (e for e in review.effort.explanation if e.startswith("Used only by files counted apart")),
        "",
    )
    assert "tinylib/model.py:Net" not in apart
    assert "tinylib/trainer.py:Trainer" not in apart
    assert [t.cls for t in review.top_models][:1] == ["tinylib.model.Net"]


def test_the_recipe_reads_the_package_trainer(review: Review) -> None:
    optimizers = [i for i in review.recipe if i.category == "optimizer"]
    assert [i.name for i in optimizers] == ["torch.optim.AdamW"]
    assert optimizers[0].where.path == "tinylib/trainer.py"
    assert any(i.category == "loss" and i.where.path == "tinylib/model.py" for i in review.recipe)


def test_a_readme_example_running_the_trainer_keeps_it_priced(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The README shows ``Trainer(Net(), data).run()``: the model its example builds is
    reached, and the trainer's step, run only by that example and the side project, is
    the product's training all the same."""
    files = dict(FILES)
    # the optimizer built by the model the example builds (``configure_optimizers``)
    files["tinylib/trainer.py"] = files["tinylib/trainer.py"].replace(
        "torch.optim.AdamW(self.model.parameters(), lr=self.lr)",
        "self.model.configure_optimizers(self.lr)",
    )
    files["tinylib/model.py"] = files["tinylib/model.py"].replace(
        "            def forward(self, idx, targets=None):",
        "            def configure_optimizers(self, lr):\n"
        "                return torch.optim.AdamW(self.parameters(), lr=lr)\n\n"
        "            def forward(self, idx, targets=None):",
    )
    files["README.md"] = """
        # tinylib

        ```python
        from tinylib.model import Net
        from tinylib.trainer import Trainer

        model = Net()
        trainer = Trainer(model, dataset, lr=5e-4)
        trainer.run()
        ```
    """
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    optimizers = [i for i in review.recipe if i.category == "optimizer"]
    assert [i.where.path for i in optimizers] == ["tinylib/model.py"]
    assert any(i.category == "grad_clip" for i in review.recipe)


def test_a_root_training_script_beside_a_documented_model_stays_an_entry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The README imports the model from a folder and a helper from a root module; the
    training script at the root, run under ``__main__``, is the training (the root is no
    package whose ``__main__`` blocks are self-tests)."""
    files = {
        "net/__init__.py": "",
        "net/model.py": FILES["tinylib/model.py"],
        "infer.py": """
            import torch


            def predict(model, x):
                with torch.no_grad():
                    return model(x)[0].argmax(-1)
        """,
        "train.py": """
            import torch

            from net.model import Net


            def main():
                model = Net()
                optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
                for _ in range(2):
                    x = torch.randint(0, 32, (4, 8))
                    _, loss = model(x, x)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


            if __name__ == "__main__":
                main()
        """,
        "README.md": """
            # net

            ```python
            from net.model import Net
            from infer import predict

            print(predict(Net(), x))
            ```
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    optimizers = [i for i in review.recipe if i.category == "optimizer"]
    assert [(i.name, i.where.path) for i in optimizers] == [("torch.optim.Adam", "train.py")]
