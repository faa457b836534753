"""The training length a Lightning ``Trainer(max_epochs=...)`` runs to is a recipe row
(issue 20 item 1): the repository has no epoch loop of its own to read it from; and a
pre-1.0 Hydra entry point (``@hydra.main("config/config.yaml")``) composes its config
groups' files at the top of the config, so ``cfg.epochs`` reads the group file's value."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
    import pytorch_lightning as pl
    import torch
    class Net(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 2)
        def forward(self, x):
            return self.fc(x)
        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self(x), y)
        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
"""

TRAIN = """
    import hydra
    import pytorch_lightning as pl
    from net import Net
    @hydra.main("config/config.yaml")
    def main(cfg):
        trainer = pl.Trainer(max_epochs=cfg.epochs, gpus=1)
        trainer.fit(Net())
    if __name__ == "__main__":
        main()
"""


def _length(review) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [
        (item.name, dict(item.values).get("max_epochs", ""))
        for item in review.recipe
        if item.category == "epochs"
    ]


def test_trainer_max_epochs_is_the_training_length(tmp_path: Path) -> None:
    repo = {
        "net.py": MODEL,
        "train.py": """
            import pytorch_lightning as pl
            from net import Net
            def main():
                pl.Trainer(max_epochs=30).fit(Net())
            if __name__ == "__main__":
                main()
        """,
    }
    review = build_review(str(write_repo(tmp_path, repo)), jobs=1)
    assert _length(review) == [("pytorch_lightning.Trainer(max_epochs=)", "30")]


def test_legacy_hydra_groups_merge_at_the_top(tmp_path: Path) -> None:
    repo = {
        "net.py": MODEL,
        "train.py": TRAIN,
        "config/config.yaml": """
            defaults:
                - task: cls
            gpus: [0]
        """,
        "config/task/cls.yaml": """
            epochs: 200
            batch_size: 32
        """,
    }
    review = build_review(str(write_repo(tmp_path, repo)), jobs=1)
    [(_, value)] = _length(review)
    assert value.startswith("200 (cfg.epochs: 200 in config/task/cls.yaml:1")


def test_dotted_key_of_the_flattened_config(tmp_path: Path) -> None:
    # a Lightning module handed the Hydra config flattened to dotted keys reads
    # ``self.hparams["optimizer.lr"]``: the value the composed config sets
    model = MODEL.replace(
        "def __init__(self):\n            super().__init__()",
        "def __init__(self, hparams=None):\n            super().__init__()\n"
        "            self.hparams = hparams",
    ).replace("lr=1e-3", 'lr=self.hparams["optimizer.lr"]')
    assert 'self.hparams["optimizer.lr"]' in model
    repo = {
        "net.py": model,
        "train.py": TRAIN,
        "config/config.yaml": "defaults:\n    - task: cls\n",
        "config/task/cls.yaml": "optimizer:\n    lr: 2e-3\nepochs: 200\n",
    }
    review = build_review(str(write_repo(tmp_path, repo)), jobs=1)
    [optimizer] = [item for item in review.recipe if item.category == "optimizer"]
    assert dict(optimizer.values)["lr"].startswith("2e-3 (")
