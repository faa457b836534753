"""A project built on detectron2 (issue 20 items 2 and 4): its training script runs
detectron2's trainer and its network classes extend detectron2's meta-architecture and RoI
heads. The project is what is ported (no file of it is an adapter counted apart), and the
framework classes it extends are work of their own. A repository that trains with its own
loop and keeps a detectron2 wrapper in a side folder keeps that folder apart."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_RCNN = """
import torch
from detectron2.modeling import META_ARCH_REGISTRY, GeneralizedRCNN


@META_ARCH_REGISTRY.register()
class TeacherStudentRCNN(GeneralizedRCNN):
    def forward(self, batched_inputs, branch="supervised"):
        if not self.training:
            return self.inference(batched_inputs)
        images = self.preprocess_image(batched_inputs)
        features = self.backbone(images.tensor)
        losses = {"loss_consistency": torch.stack([f.mean() for f in features.values()]).sum()}
        return losses
"""

_HEADS = """
import torch
import torch.nn.functional as F
from detectron2.modeling.roi_heads import ROI_HEADS_REGISTRY, StandardROIHeads


@ROI_HEADS_REGISTRY.register()
class PseudoLabelHeads(StandardROIHeads):
    def focal(self, logits, target, gamma=1.5):
        ce = F.cross_entropy(logits, target, reduction="none")
        p = torch.exp(-ce)
        return ((1 - p) ** gamma * ce).mean()
"""

_TRAIN = """
from detectron2.config import get_cfg
from detectron2.engine import DefaultTrainer, default_argument_parser, launch

import project.rcnn  # noqa: F401  (registers the meta-architecture)
import project.heads  # noqa: F401


def main(args):
    cfg = get_cfg()
    cfg.merge_from_file(args.config_file)
    trainer = DefaultTrainer(cfg)
    trainer.resume_or_load(resume=args.resume)
    return trainer.train()


if __name__ == "__main__":
    args = default_argument_parser().parse_args()
    launch(main, args.num_gpus, args=(args,))
"""


def test_a_project_built_on_the_framework_is_ported(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "project/__init__.py": "",
            "project/rcnn.py": _RCNN,
            "project/heads.py": _HEADS,
            "train_net.py": _TRAIN,
            "README.md": "```\npython train_net.py --config-file configs/base.yaml\n```\n",
        },
    )
    review = build_review(str(root), jobs=1)
    apart = dict(review.ancillary)
    assert not [p for p in apart if p.startswith("project/") or p == "train_net.py"], apart
    items = [i for i in review.work if i.kind == "framework-network"]
    assert len(items) == 1
    assert "detectron2.modeling.GeneralizedRCNN" in items[0].what
    assert "StandardROIHeads" in items[0].what
    assert items[0].uses == 2


_OWN_LOOP = """
import torch

from model import Detector


def main():
    model = Detector()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(10):
        loss = model(torch.randn(2, 3, 32, 32)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""

_MODEL = """
import torch.nn as nn


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x)
"""

_WRAPPER = """
from detectron2.modeling import META_ARCH_REGISTRY
import torch.nn as nn

from model import Detector


@META_ARCH_REGISTRY.register()
class Detectron2Detector(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.detector = Detector()

    def forward(self, batched_inputs):
        return self.detector(batched_inputs[0]["image"])
"""

_WRAPPER_TRAIN = """
from detectron2.config import get_cfg
from detectron2.engine import DefaultTrainer

import d2.detector  # noqa: F401


class Trainer(DefaultTrainer):
    pass


if __name__ == "__main__":
    Trainer(get_cfg()).train()
"""


def test_a_side_folder_wrapping_the_model_stays_an_adapter(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "main.py": _OWN_LOOP,
            "model.py": _MODEL,
            "d2/__init__.py": "",
            "d2/detector.py": _WRAPPER,
            "d2/train_net.py": _WRAPPER_TRAIN,
        },
    )
    review = build_review(str(root), jobs=1)
    apart = dict(review.ancillary)
    assert apart.get("d2/detector.py", "").startswith("adapter for detectron2"), apart
    assert not [i for i in review.work if i.kind == "framework-network"]


_LIT_MODEL = """
import pytorch_lightning as pl
import torch
import torch.nn as nn


class LitNet(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)

    def training_step(self, batch, batch_idx):
        return self(batch).mean()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
"""

_LIT_TRAIN = """
import pytorch_lightning as pl
import torch

from model import LitNet


if __name__ == "__main__":
    trainer = pl.Trainer(max_epochs=3)
    trainer.fit(LitNet(), torch.utils.data.DataLoader(torch.randn(8, 4), batch_size=2))
"""


def test_a_training_frameworks_module_base_is_no_framework_network(tmp_path: Path) -> None:
    # lightning trains the model (its machinery is an item of its own), and its
    # LightningModule base is an nn.Module with hooks, no network class to port
    root = write_repo(tmp_path / "repo", {"model.py": _LIT_MODEL, "main.py": _LIT_TRAIN})
    review = build_review(str(root), jobs=1)
    assert not [i for i in review.work if i.kind == "framework-network"]
