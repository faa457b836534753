"""Scopes on small repositories scanned end to end: data-pipeline roles, transforms, tests.

Each case writes a tiny repository whose functions hold one dynamic-shape hit each
(``torch.nonzero``), so the scope the scan gives that hit is the scope of the function.
"""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo, write_repo

from apiscan.extract.records import DATA_ROLES, DATASET_METHODS
from apiscan.scope.classify import is_data_path, is_test_path


def scopes(tmp_path: Path, files: dict[str, str]) -> dict[str, str]:
    """function -> scope of the dynamic-shape hits in it."""
    write_repo(tmp_path, files)
    out: dict[str, str] = {}
    for f in scan_repo(tmp_path).shape_findings:
        assert out.get(f.function, f.scope) == f.scope
        out[f.function] = f.scope
    return out


def test_one_role_vocabulary() -> None:
    # the extractor records these roles and the call graph reads them: one table for both
    assert {"transform", "transforms", "dataset", "collate_fn", "sampler"} <= set(DATA_ROLES)
    assert DATA_ROLES["dataset"] == DATASET_METHODS


def test_transforms_keyword_makes_the_callable_data(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/folder.py": """
                import torch


                class Folder:
                    def __init__(self, root, transforms=None):
                        self.transforms = transforms


                def aug(img):
                    return img[torch.nonzero(img > 0)]


                def build():
                    return Folder("x", transforms=aug)
            """
        },
    )
    assert got == {"aug": "data"}


def test_duck_typed_dataset_keyword_and_positional(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/rows.py": """
                import torch


                class Rows:
                    def __getitem__(self, i):
                        row = torch.arange(10)
                        return row[torch.nonzero(row > i)]

                    def __len__(self):
                        return 10


                class Cols:
                    def __getitem__(self, i):
                        col = torch.arange(10)
                        return torch.unique(col)

                    def __len__(self):
                        return 10
            """,
            "train.py": """
                from torch.utils.data import DataLoader

                from pkg.rows import Cols, Rows


                def main():
                    a = DataLoader(dataset=Rows(), batch_size=2)
                    b = DataLoader(Cols(), batch_size=2)
                    return a, b
            """,
        },
    )
    assert got == {"Rows.__getitem__": "data", "Cols.__getitem__": "data"}


def test_module_transform_in_a_transforms_module_is_data(tmp_path: Path) -> None:
    # torchvision-v2-style transforms are nn.Modules: not part of the network being migrated,
    # and scoped like the plain callable transforms beside them
    got = scopes(
        tmp_path,
        {
            "pkg/seq_transforms.py": """
                import random

                import torch
                import torch.nn.functional as F
                from torch import nn


                class RandomResize(nn.Module):
                    def forward(self, img):
                        size = random.randint(200, 300)
                        return F.interpolate(img, size=(size, size))


                class RandomResizeCall:
                    def __call__(self, img):
                        size = random.randint(200, 300)
                        return F.interpolate(img, size=(size, size))
            """,
            "pkg/model.py": """
                import torch
                from torch import nn


                class Net(nn.Module):
                    def forward(self, x):
                        return x[torch.nonzero(x > 0)]
            """,
        },
    )
    assert got == {
        "RandomResize.forward": "data",
        "RandomResizeCall.__call__": "data",
        "Net.forward": "network",
    }


def test_helper_in_a_data_package_called_by_forward_is_network(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/data/boxes.py": """
                import torch


                def keep_valid(boxes):
                    return boxes[torch.nonzero(boxes[:, 2] > 0)]
            """,
            "pkg/model.py": """
                from torch import nn

                from pkg.data.boxes import keep_valid


                class Net(nn.Module):
                    def forward(self, x):
                        return keep_valid(x)
            """,
        },
    )
    assert got == {"keep_valid": "network"}


def test_test_code_is_host_whatever_it_calls(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/model.py": """
                import torch
                from torch import nn


                def helper(x):
                    return torch.unique(x)


                class Net(nn.Module):
                    def forward(self, x):
                        return x
            """,
            "tests/test_model.py": """
                import torch
                from torch import nn

                from pkg.model import helper


                class TinyModule(nn.Module):
                    def forward(self, x):
                        return x[torch.nonzero(x)]


                def test_focal_loss():
                    x = torch.randn(4)
                    assert len(x[x > 0]) <= 4
                    assert helper(x).numel() == 4
            """,
        },
    )
    # a test named like a loss and a Module written for a test are not network roots, and
    # a helper called only from tests is not made network or data by them
    assert got == {"helper": "host", "TinyModule.forward": "host", "test_focal_loss": "host"}


def test_template_method_runs_the_subclass_definitions(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/base.py": """
                from torch import nn


                class Detector(nn.Module):
                    def forward(self, x):
                        if self.training:
                            return x
                        return self.forward_inference(x)
            """,
            "pkg/retina.py": """
                import torch

                from pkg.base import Detector


                class Retina(Detector):
                    def forward_inference(self, x):
                        return self.decode(x)

                    def decode(self, x):
                        return x[torch.nonzero(x > 0.5)]
            """,
        },
    )
    assert got == {"Retina.decode": "network"}


def test_sampler_subclass_is_data(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/sampling.py": """
                import torch
                from torch.utils.data import Sampler


                class Balanced(Sampler):
                    def __init__(self, labels):
                        self.labels = labels

                    def __iter__(self):
                        return iter(torch.nonzero(self.labels > 0).tolist())

                    def __len__(self):
                        return 0
            """
        },
    )
    assert got == {"Balanced.__iter__": "data"}


def test_location_rules() -> None:
    assert is_test_path("tests/layers/test_nms.py")
    assert is_test_path("pkg/test/helpers.py")
    assert is_test_path("pkg/ops/test_ops.py")
    assert is_test_path("pkg/ops/ops_test.py")
    assert is_test_path("conftest.py")
    assert not is_test_path("pkg/testing_utils.py")
    assert not is_test_path("pkg/models/attest.py")
    assert is_data_path("timmish/data/loader.py")
    assert is_data_path("pkg/datasets/coco.py")
    assert is_data_path("pkg/naflex_transforms.py")
    assert is_data_path("pkg/data_augment.py")
    assert is_data_path("pkg/transforms_factory.py")
    assert is_data_path("pkg/augmentation_impl.py")
    assert not is_data_path("pkg/models/swin_transformer.py")
    assert not is_data_path("pkg/models/data_parallel.py")
    assert not is_data_path("pkg/modeling/head.py")


def test_forward_over_a_base_the_scan_cannot_see_is_network(tmp_path: Path) -> None:
    got = scopes(
        tmp_path,
        {
            "pkg/heads.py": """
                import argparse

                import torch
                from extpkg.heads import BaseHead


                class Head(BaseHead):
                    def forward(self, x):
                        return self.center_losses(x)

                    def center_losses(self, x):
                        return x[torch.nonzero(x > 0)]


                class Action(argparse.Action):
                    def forward(self, x):
                        return torch.unique(x)
            """
        },
    )
    assert got == {"Head.center_losses": "network", "Action.forward": "host"}


def test_forward_entry_points_of_a_module_are_network(tmp_path: Path) -> None:
    # ``forward_train`` is called by training code outside the repository (or via getattr)
    got = scopes(
        tmp_path,
        {
            "pkg/net.py": """
                import torch
                from torch import nn


                def rand_box(h: int):
                    c = torch.randint(0, h, (1,))
                    return c.item(), (c + 4).item()


                class Net(nn.Module):
                    def forward(self, x):
                        return x

                    def forward_train(self, x):
                        y = torch.zeros(4, 8) + x
                        a, b = rand_box(y.shape[1])
                        return y[:, a:b]

                    def helper_unused(self, x):
                        return torch.unique(x)
            """
        },
    )
    assert got == {
        "rand_box": "network",
        "Net.forward_train": "network",
        "Net.helper_unused": "host",
    }


def test_a_method_only_one_repo_class_defines_is_linked_by_name(tmp_path: Path) -> None:
    # ``targets.keypoints.to_heatmap()``: the receiver's class is unknown, but one class alone
    # defines ``to_heatmap``; ``stats.update()`` (a dict method name) links nothing
    got = scopes(
        tmp_path,
        {
            "pkg/structures.py": """
                import torch


                class Keypoints:
                    def __init__(self, t):
                        self.t = t

                    def to_heatmap(self, size):
                        x = self.t.clone()
                        x = x[x > size]
                        return x


                class Stats:
                    def update(self, v):
                        return torch.unique(v)
            """,
            "pkg/head.py": """
                from torch import nn


                class KeypointHead(nn.Module):
                    def forward(self, x, targets, stats):
                        heat = targets.keypoints.to_heatmap(56)
                        stats.update(x)
                        return x * heat
            """,
        },
    )
    assert got == {"Keypoints.to_heatmap": "network", "Stats.update": "host"}
