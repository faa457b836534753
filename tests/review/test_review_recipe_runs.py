"""The recipe from what runs, on repositories built the way new users' are: an optimizer picked
by name from a dict of classes with its settings in each model config, the losses a trainer
looks up by name (not the trainer's ``add_loss`` helper), repository code imported through a
``sys.path`` entry, a visualiser's attributes (not settings), a scaler object whose
``__call__`` clips, and OpenMMLab multi-scale resizing (``fixtures/runrecipe`` and inline
configs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import _grouped_rows, multi_scale
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

RUNRECIPE = Path(__file__).resolve().parents[2] / "fixtures" / "runrecipe"


def scanned(root: Path) -> tuple[ScanResult, tuple[RecipeItem, ...]]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return result, extract_recipe(result, analyses, root)


def rows(items: tuple[RecipeItem, ...], category: str) -> dict[tuple[str, str], RecipeItem]:
    """The rows of a category by (name, place)."""
    return {(i.name, str(i.where)): i for i in items if i.category == category}


@pytest.fixture(scope="module")
def runrecipe() -> tuple[RecipeItem, ...]:
    return scanned(RUNRECIPE)[1]


def test_an_optimizer_picked_by_name_reads_its_settings_from_the_callers(runrecipe) -> None:
    optimizers = rows(runrecipe, "optimizer")
    # SGD and AdamW are in the table too, but the name that reaches it is "adam"
    picked = [k for k in optimizers if k[1].startswith("segkit/optim.py")]
    assert picked == [("torch.optim.Adam", "segkit/optim.py:10")]
    adam = optimizers[picked[0]]
    values = dict(adam.values)
    assert values["lr"] == "3e-4 | 5e-4 (by caller; 2 callers)"
    assert values["betas"] == "(0.9, 0.999) (passed at models/seg_large.py:12; 2 callers)"
    assert values["eps"].startswith("1e-8 ")
    assert adam.note.startswith('picked by name: opt_name = "adam"')


def test_a_composition_of_star_imported_steps_stands_for_their_definitions(runrecipe) -> None:
    (row,) = [
        i for i in runrecipe if i.where.path == "models/seg_small.py" and "composition" in i.name
    ]
    assert row.values == (
        ("1", "RandomRescale(scale_range=(0.75, 1.25), p=1.0)"),
        ("2", "HorizontalFlip()"),
    )
    # the functional calls inside RandomRescale's definition are how the step works
    assert not [i for i in runrecipe if i.where.path == "segkit/transforms.py"]


def test_a_schedule_bound_by_partial_is_its_construction(runrecipe) -> None:
    schedules = rows(runrecipe, "scheduler")
    small = schedules[("torch.optim.lr_scheduler.MultiStepLR", "models/seg_small.py:13")]
    assert small.values == (("milestones", "[50, 55]"), ("gamma", "0.1"))
    assert small.note == "bound by functools.partial, stored as lr_scheduler"


def test_the_losses_a_trainer_looks_up_are_rows_with_their_weights(runrecipe) -> None:
    losses = rows(runrecipe, "loss")
    # reached through a star import of a module that star-imports the losses
    focal = losses[("segkit.losses.SoftFocalLoss", "models/seg_small.py:7")]
    # eps left at its constructor default: the row carries it too
    assert focal.values == (("alpha", "0.5"), ("gamma", "2"), ("weight", "1.0"), ("eps", "1e-8"))
    bce = losses[("segkit.losses.MaskBCELoss", "models/seg_small.py:9")]
    assert bce.values == (("weight", "0.4"),)
    # the trainer's helper that adds the configured loss to the total is not a loss
    assert not [k for k in losses if "add_loss" in k[0]]
    # nor is a loss optimised at each click by the inference code
    assert not [k for k in losses if "ClickRefineLoss" in k[0]]
    # the same loss built word for word in two model configs is one row with its places
    grouped = [i for i in _grouped_rows(runrecipe) if i.name == "segkit.losses.MaskBCELoss"]
    assert len(grouped) == 1 and grouped[0].note.startswith("2 places")


def test_repository_code_on_sys_path_is_the_repositorys(runrecipe) -> None:
    losses = rows(runrecipe, "loss")
    heat = losses[("heat_losses.HeatmapFocalLoss", "src/lib/trains/det_trainer.py:9")]
    assert heat.note == "defined at src/lib/models/heat_losses.py:4"
    assert not [i for i in runrecipe if "third-party" in i.note]
    # a flip only a detector averages at test time is not a training augmentation
    assert not [i for i in runrecipe if i.name == "flip_tensor"]


def test_only_configuration_classes_attributes_are_settings(runrecipe) -> None:
    names = {i.name for i in runrecipe}
    # Opts' attributes are read by the training code (opt.num_epochs, opt.weight_decay)
    assert {"Opts.num_epochs", "Opts.batch_size", "Opts.weight_decay"} <= names
    # the painter's are read by its own methods only: drawing, not training
    assert not {n for n in names if n.startswith("Painter.")}


def test_a_callable_objects_call_is_a_call_site_of_its_dunder_call(runrecipe) -> None:
    clip = rows(runrecipe, "grad_clip")[("torch.nn.utils.clip_grad_norm_", "segkit/scaler.py:14")]
    max_norm = dict(clip.values)["max_norm"]
    assert max_norm.startswith("3.0 (parameter clip_grad of ClippingScaler.__call__(), passed at")
    assert "args.clip_grad: default of argparse --clip_grad at finetune.py:13" in max_norm


MM_TRAIN = """
    train_pipeline = [
        dict(type="LoadImageFromFile"),
        dict(type="Resize", img_scale=(2048, 512), ratio_range=(0.5, 2.0)),
        dict(type="RandomFlip", prob=0.5),
    ]
    data = dict(samples_per_gpu=2, train=dict(pipeline=train_pipeline))
    optimizer = dict(type="AdamW", lr=0.0001)
"""
MM_ONE_SCALE = """
    train_pipeline = [
        dict(type="LoadImageFromFile"),
        dict(type="Resize", img_scale=(1333, 800), keep_ratio=True),
    ]
    data = dict(samples_per_gpu=2, train=dict(pipeline=train_pipeline))
    optimizer = dict(type="SGD", lr=0.02)
"""
MM_MSTRAIN = """
    train_pipeline = [
        dict(type="LoadImageFromFile"),
        dict(
            type="AutoAugment",
            policies=[[dict(type="Resize", img_scale=[(480, 1333), (800, 1333)],
                            multiscale_mode="value", keep_ratio=True)]],
        ),
    ]
    data = dict(samples_per_gpu=2, train=dict(pipeline=train_pipeline))
    optimizer = dict(type="SGD", lr=0.02)
"""


def test_openmmlab_ratio_ranges_and_scale_lists_are_multi_scale(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "segmentation/configs/seg_512.py": MM_TRAIN,
            "detection/configs/det_1x.py": MM_ONE_SCALE,
            "detection/configs/det_mstrain_3x.py": MM_MSTRAIN,
        },
    )
    result, items = scanned(tmp_path)
    found = dict(multi_scale(result, items))
    # the segmentation config draws each image's scale from a ratio range
    assert found["segmentation/configs/seg_512.py"] == "multi-scale Resize"
    # the detection config shown trains at one scale; the one not shown at several
    extra = [i for i in items if i.name.startswith("multi-scale ")]
    assert [(i.name, i.where.path) for i in extra] == [
        ("multi-scale composition in config train_pipeline", "detection/configs/det_mstrain_3x.py")
    ]
    assert extra[0].values == (
        (
            "1",
            "AutoAugment(policies=[[Resize(img_scale=[(480, 1333), (800, 1333)], "
            'multiscale_mode="value", keep_ratio=True)]])',
        ),
    )
    assert found["detection/configs/det_mstrain_3x.py"] == "multi-scale Resize"
    assert "detection/configs/det_1x.py" not in found


def test_a_repository_steps_defaults_are_the_values_it_runs_with(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "data/transforms.py": """
                class Resizer:
                    def __call__(self, sample, min_side=608, max_side=1024):
                        return sample

                class Flipper:
                    def __init__(self, flip_x=0.5, seed=None):
                        self.flip_x = flip_x

                    def __call__(self, sample):
                        return sample
                """,
            "train.py": """
                from torchvision import transforms
                from data.transforms import Flipper, Resizer

                train_tf = transforms.Compose([Flipper(), Resizer()])
                """,
        },
    )
    _, items = scanned(tmp_path)
    (row,) = [i for i in items if i.name.startswith("composition in ")]
    # the constructor's defaults, and the settings __call__ takes after the sample
    assert row.values == (
        ("1", "Flipper(flip_x=0.5)"),
        ("2", "Resizer(min_side=608, max_side=1024)"),
    )


def test_a_call_setting_the_constructor_names_again_is_not_its_value(tmp_path: Path) -> None:
    """A transform class whose ``__call__`` repeats a constructor parameter (``def
    __call__(self, imgs, is_flow=False)`` beside ``__init__(self, is_flow=False)``): the
    value is what the composition passes the constructor, shown once."""
    write_repo(
        tmp_path,
        {
            "data/transforms.py": """
                class GroupFlip:
                    def __init__(self, is_flow=False):
                        self.is_flow = is_flow

                    def __call__(self, imgs, is_flow=False):
                        return imgs

                class GroupCrop:
                    def __init__(self, size, scale=0.5):
                        self.size = size

                    def __call__(self, imgs, scale=1.0):
                        return imgs
                """,
            "train.py": """
                from torchvision import transforms
                from data.transforms import GroupCrop, GroupFlip

                train_tf = transforms.Compose([GroupCrop(224), GroupFlip(is_flow=True)])
                """,
        },
    )
    _, items = scanned(tmp_path)
    (row,) = [i for i in items if i.name.startswith("composition in ")]
    assert row.values == (
        ("1", "GroupCrop(224, scale=0.5)"),
        ("2", "GroupFlip(is_flow=True)"),
    )


def test_a_transform_a_wrapper_builds_from_its_parameters_is_the_wrappers_step(
    tmp_path: Path,
) -> None:
    """``self.worker = T.CenterCrop(size)`` in a repository transform's constructor: the
    wrapper is the step its compositions show with their values, no row of its own with
    the parameter's name; one built with values of its own (``T.ColorJitter(0.4, ...)``)
    keeps its row."""
    write_repo(
        tmp_path,
        {
            "data/transforms.py": """
                from torchvision import transforms


                class GroupCenterCrop:
                    def __init__(self, size):
                        self.worker = transforms.CenterCrop(size)

                    def __call__(self, imgs):
                        return [self.worker(img) for img in imgs]


                class GroupJitter:
                    def __init__(self):
                        self.worker = transforms.ColorJitter(0.4, 0.4, 0.4)

                    def __call__(self, imgs):
                        return [self.worker(img) for img in imgs]
                """,
            "train.py": """
                from torchvision import transforms
                from data.transforms import GroupCenterCrop, GroupJitter

                train_tf = transforms.Compose([GroupCenterCrop(224), GroupJitter()])
                """,
        },
    )
    _, items = scanned(tmp_path)
    names = [i.name for i in items if i.category == "augmentation"]
    assert "torchvision.transforms.CenterCrop" not in names
    assert "torchvision.transforms.ColorJitter" in names
    (row,) = [i for i in items if i.name.startswith("composition in ")]
    assert row.values[0] == ("1", "GroupCenterCrop(224)")


def test_evaluation_settings_and_matrix_builders_are_not_the_training_recipe(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            "utils/image.py": """
                import cv2
                import numpy as np

                def get_affine_transform(center, scale):
                    trans = cv2.getAffineTransform(np.float32(center), np.float32(scale))
                    return trans

                def color_aug(rng, image):
                    return image * rng.normal()
                """,
            "datasets/sample.py": """
                from utils.image import color_aug, get_affine_transform

                def load(rng, image, opt):
                    get_affine_transform(0, 1)
                    if not opt.no_color_aug:
                        image = color_aug(rng, image)
                    return image
                """,
            "datasets/build.py": """
                from timm.data import create_transform

                def build_transform(is_train):
                    if is_train:
                        transform = create_transform(224, is_training=True, re_prob=0.25)
                        return transform
                    return None
                """,
            "train.py": """
                import argparse

                from datasets.build import build_transform

                train_tf = build_transform(True)
                parser = argparse.ArgumentParser()
                parser.add_argument("--flip", type=float, default=0.5)
                parser.add_argument("--flip_test", action="store_true")
                parser.add_argument("--val_batch_size", type=int, default=4)
                parser.add_argument("--batch_size", type=int, default=32)
                parser.add_argument("--hm_weight", type=float, default=1)
                parser.add_argument("--no_color_aug", action="store_true")
                """,
        },
    )
    _, items = scanned(tmp_path)
    names = {i.name for i in items}
    assert {"argparse --flip", "argparse --batch_size"} <= names
    categories = {i.name: i.category for i in items}
    # a loss term's weight, a switch of the colour augmentation
    assert categories["argparse --hm_weight"] == "loss"
    assert categories["argparse --no_color_aug"] == "augmentation"
    # the test-time flip switch and the validation batch are not training settings
    assert not {"argparse --flip_test", "argparse --val_batch_size"} & names
    # a helper named get_*_transform that returns a matrix is no list of steps; a builder
    # returning what timm's create_transform builds is the composition
    compositions = [i for i in items if i.name.startswith("composition in ")]
    assert [(i.name, i.values) for i in compositions] == [
        (
            "composition in build_transform",
            (("1", "create_transform(224, is_training=True, re_prob=0.25)"),),
        )
    ]
    assert "color_aug" in names  # a colour augmentation the loader calls
