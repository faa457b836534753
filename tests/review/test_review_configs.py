"""The recipe read from dict configs: OpenMMLab (``optimizer = dict(type='SGD', ...)``,
``_base_`` inheritance, the newer ``optim_wrapper``/``param_scheduler``) and cvpods
(``_config_dict = dict(SOLVER=dict(...))``), from the workers' value records."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.configs import PREFIX
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def line_of(root: Path, path: str, snippet: str) -> int:
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    (hit,) = [n for n, line in enumerate(lines, 1) if snippet in line]
    return hit


def configured(items: tuple[RecipeItem, ...]) -> dict[tuple[str, str], RecipeItem]:
    """The config rows by (category, name); each pair once."""
    rows = [i for i in items if PREFIX in i.name]
    keyed = {(i.category, i.name): i for i in rows}
    assert len(keyed) == len(rows), [(i.category, i.name, str(i.where)) for i in rows]
    return keyed


SCHEDULE = """
    optimizer = dict(type="SGD", lr=0.01, momentum=0.9, weight_decay=0.0001)
    optimizer_config = dict(grad_clip=dict(max_norm=35, norm_type=2))
    lr_config = dict(
        policy="step", warmup="linear", warmup_iters=500, warmup_ratio=0.001, step=[8, 11]
    )
    runner = dict(type="EpochBasedRunner", max_epochs=12)
"""
MODEL = """
    model = dict(
        type="RetinaNet",
        backbone=dict(
            type="ResNet",
            depth=50,
            frozen_stages=1,
            init_cfg=dict(type="Pretrained", checkpoint="torchvision://resnet50"),
        ),
        bbox_head=dict(
            type="RetinaHead",
            loss_cls=dict(type="FocalLoss", gamma=2.0, alpha=0.25, loss_weight=1.0),
        ),
        test_cfg=dict(max_per_img=100),
    )
"""
DERIVED = """
    _base_ = [
        "../_base_/models/retinanet.py",
        "../_base_/schedules/schedule_1x.py",
        "../_base_/datasets/coco_detection.py",
    ]
    img_norm_cfg = dict(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], to_rgb=True)
    train_pipeline = [
        dict(type="LoadImageFromFile"),
        dict(type="Resize", img_scale=(1333, 800), keep_ratio=True),
        dict(type="RandomFlip", flip_ratio=0.5),
        dict(type="Normalize", **img_norm_cfg),
    ]
    test_pipeline = [dict(type="LoadImageFromFile"), dict(type="Resize", img_scale=(1333, 800))]
    data = dict(
        samples_per_gpu=2,
        workers_per_gpu=2,
        train=dict(type="CocoDataset", pipeline=train_pipeline),
        test=dict(samples_per_gpu=1, pipeline=test_pipeline),
    )
    optimizer = dict(lr=0.02)
    optimizer_config = dict(_delete_=True, grad_clip=dict(max_norm=10))
    load_from = None
"""
TRAIN = """
    import argparse

    from mmcv import Config


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("config")
        args = parser.parse_args()
        cfg = Config.fromfile(args.config)
        return cfg


    if __name__ == "__main__":
        main()
"""


def test_openmmlab_config_with_bases_merged_and_the_shortest_config_shown(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "configs/_base_/schedules/schedule_1x.py": SCHEDULE,
            "configs/_base_/models/retinanet.py": MODEL,
            "configs/retinanet/retinanet_r50_fpn_1x.py": DERIVED,
            "configs/retinanet/retinanet_r50_fpn_1x_longer_name.py": DERIVED,
            "tools/train.py": TRAIN,
        },
    )
    rows = configured(recipe_of(tmp_path))
    shown = "configs/retinanet/retinanet_r50_fpn_1x.py"
    assert {i.where.path for i in rows.values()} == {
        shown,
        "configs/_base_/schedules/schedule_1x.py",
        "configs/_base_/models/retinanet.py",
    }
    base = "configs/_base_/schedules/schedule_1x.py"
    # the derived lr merges into the base's SGD, the base's values say where they are set
    sgd = rows["optimizer", "config optimizer: SGD"]
    assert str(sgd.where) == f"{shown}:{line_of(tmp_path, shown, 'optimizer = dict(lr=0.02)')}"
    assert dict(sgd.values) == {
        "lr": "0.02",
        "momentum": f"0.9 ({base}:1)",
        "weight_decay": f"0.0001 ({base}:1)",
    }
    assert "base ../_base_/datasets/coco_detection.py is not in the repository" in sgd.note
    assert "1 of 2 configs, the shortest-named" in sgd.note
    # _delete_=True: the base's norm_type is gone
    clip = rows["grad_clip", "config optimizer_config.grad_clip"]
    assert dict(clip.values) == {"max_norm": "10"}
    step = rows["scheduler", "config lr_config: step"]
    assert (str(step.where), dict(step.values)) == (f"{base}:3", {"step": "[8, 11]"})
    warm = rows["warmup", "config lr_config"]
    assert [k for k, _ in warm.values] == ["warmup", "warmup_iters", "warmup_ratio"]
    assert dict(rows["epochs", "config runner: EpochBasedRunner"].values) == {"max_epochs": "12"}
    assert dict(rows["batch_size", "config data"].values) == {"samples_per_gpu": "2"}
    assert dict(rows["dataloader", "config data"].values) == {"workers_per_gpu": "2"}
    norm = rows["dataloader", "config img_norm_cfg"]
    assert dict(norm.values)["std"] == "[58.395, 57.12, 57.375]"
    # the training pipeline once (data.train.pipeline is the same list), the test one never
    (pipeline,) = [i for i in rows.values() if i.category == "augmentation"]
    assert pipeline.name == "composition in config train_pipeline"
    assert [v for _, v in pipeline.values] == [
        "LoadImageFromFile()",
        "Resize(img_scale=(1333, 800), keep_ratio=True)",
        "RandomFlip(flip_ratio=0.5)",
        "Normalize(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], to_rgb=True)",
    ]
    backbone = rows["backbone", "config model.backbone: ResNet"]
    assert dict(backbone.values)["init_cfg.checkpoint"].startswith('"torchvision://resnet50"')
    focal = rows["loss", "config model.bbox_head.loss_cls: FocalLoss"]
    assert dict(focal.values) == {"gamma": "2.0", "alpha": "0.25", "loss_weight": "1.0"}
    assert not any(c == "checkpoint" for c, _ in rows)  # load_from = None


NEW_STYLE = """
    model = dict(
        type="RetinaNet",
        data_preprocessor=dict(
            type="DetDataPreprocessor", mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375]
        ),
        pretrained="open-mmlab://resnet50",
        backbone=dict(type="ResNet", depth=50),
    )
    optim_wrapper = dict(
        type="AmpOptimWrapper",
        optimizer=dict(type="AdamW", lr=0.0001, weight_decay=0.05),
        clip_grad=dict(max_norm=0.1, norm_type=2),
        accumulative_counts=2,
    )
    param_scheduler = [
        dict(type="LinearLR", start_factor=0.001, by_epoch=False, begin=0, end=500),
        dict(type="MultiStepLR", begin=0, end=12, by_epoch=True, milestones=[8, 11], gamma=0.1),
    ]
    train_cfg = dict(type="EpochBasedTrainLoop", max_epochs=12, val_interval=1)
    val_cfg = dict(type="ValLoop")
    train_dataloader = dict(batch_size=4, num_workers=2, dataset=dict(type="CocoDataset"))
    val_dataloader = dict(batch_size=1, num_workers=2)
    custom_hooks = [dict(type="EMAHook", momentum=0.0002)]
    randomness = dict(seed=42)
"""
LOADER = """
    from mmengine.config import Config

    cfg = Config.fromfile("configs/detr/new_style.py")
"""


def test_mmengine_config_named_by_the_training_entry(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "configs/detr/new_style.py": NEW_STYLE,
            "configs/detr/a.py": SCHEDULE,  # shorter, but the entry names the other
            "train.py": LOADER,
        },
    )
    rows = configured(recipe_of(tmp_path))
    assert {i.where.path for i in rows.values()} == {"configs/detr/new_style.py"}
    adamw = rows["optimizer", "config optim_wrapper.optimizer: AdamW"]
    assert dict(adamw.values) == {"lr": "0.0001", "weight_decay": "0.05"}
    assert adamw.note == "loaded by train.py:3; 1 other config not shown"
    assert rows["amp", "config optim_wrapper: AmpOptimWrapper"].values == ()
    assert dict(rows["grad_clip", "config optim_wrapper.clip_grad"].values)["max_norm"] == "0.1"
    assert dict(rows["grad_accum", "config optim_wrapper: AmpOptimWrapper"].values) == {
        "accumulative_counts": "2"
    }
    warm = rows["warmup", "config param_scheduler.0: LinearLR"]
    assert dict(warm.values)["end"] == "500"
    steps = rows["scheduler", "config param_scheduler.1: MultiStepLR"]
    assert dict(steps.values)["milestones"] == "[8, 11]"
    assert dict(rows["epochs", "config train_cfg: EpochBasedTrainLoop"].values) == {
        "max_epochs": "12"
    }
    # the training loader's, never the validation loader's
    assert dict(rows["batch_size", "config train_dataloader"].values) == {"batch_size": "4"}
    assert dict(rows["dataloader", "config train_dataloader"].values) == {"num_workers": "2"}
    assert [c for c, n in rows if "val" in n] == []
    ema = rows["ema", "config custom_hooks.0: EMAHook"]
    assert dict(ema.values) == {"momentum": "0.0002"}
    assert dict(rows["seed", "config randomness"].values) == {"seed": "42"}
    norm = rows["dataloader", "config model.data_preprocessor: DetDataPreprocessor"]
    assert set(dict(norm.values)) == {"mean", "std"}
    backbone = rows["backbone", "config model.backbone: ResNet"]
    assert dict(backbone.values)["pretrained"] == '"open-mmlab://resnet50"'


CVPODS = """
    from cvpods.configs.fcos_config import FCOSConfig

    _config_dict = dict(
        MODEL=dict(
            WEIGHTS="detectron2://ImageNetPretrained/MSRA/R-50.pkl",
            RESNETS=dict(DEPTH=50),
            FCOS=dict(FOCAL_LOSS_GAMMA=2.0, NMS_THRESH_TEST=0.6),
        ),
        SOLVER=dict(
            OPTIMIZER=dict(BASE_LR=0.01, WEIGHT_DECAY=1e-4),
            LR_SCHEDULER=dict(STEPS=(60000, 80000), MAX_ITER=90000, WARMUP_ITERS=1000),
            IMS_PER_BATCH=16,
        ),
        INPUT=dict(
            AUG=dict(
                TRAIN_PIPELINES=[
                    ("ResizeShortestEdge", dict(short_edge_length=(800,), max_size=1333)),
                    ("RandomFlip", dict()),
                ],
                TEST_PIPELINES=[("ResizeShortestEdge", dict(short_edge_length=800))],
            )
        ),
    )


    class CustomConfig(FCOSConfig):
        def __init__(self):
            super().__init__()
            self._register_configuration(_config_dict)


    config = CustomConfig()
"""


def test_cvpods_config_keys_follow_their_dict_path(tmp_path: Path) -> None:
    write_repo(tmp_path, {"playground/fcos.r50/config.py": CVPODS})
    rows = configured(recipe_of(tmp_path))
    assert dict(rows["optimizer", "config SOLVER.OPTIMIZER"].values) == {
        "BASE_LR": "0.01",
        "WEIGHT_DECAY": "1e-4",
    }
    # STEPS are the milestones, MAX_ITER the length, WARMUP_ITERS the warm-up
    assert dict(rows["scheduler", "config SOLVER.LR_SCHEDULER"].values) == {
        "STEPS": "(60000, 80000)"
    }
    assert dict(rows["epochs", "config SOLVER.LR_SCHEDULER"].values) == {"MAX_ITER": "90000"}
    assert dict(rows["warmup", "config SOLVER.LR_SCHEDULER"].values) == {"WARMUP_ITERS": "1000"}
    assert dict(rows["batch_size", "config SOLVER"].values) == {"IMS_PER_BATCH": "16"}
    (pipeline,) = [i for i in rows.values() if i.category == "augmentation"]
    assert pipeline.name == "composition in config INPUT.AUG.TRAIN_PIPELINES"
    assert [v for _, v in pipeline.values] == [
        "ResizeShortestEdge(short_edge_length=(800,), max_size=1333)",
        "RandomFlip()",
    ]
    assert dict(rows["loss", "config MODEL.FCOS"].values) == {"FOCAL_LOSS_GAMMA": "2.0"}
    weights = dict(rows["backbone", "config MODEL"].values)
    assert weights == {
        "WEIGHTS": '"detectron2://ImageNetPretrained/MSRA/R-50.pkl"',
        "RESNETS.DEPTH": "50",
    }


def test_ordinary_modules_with_dict_constants_are_not_configs(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            # a module with functions is code, whatever its name or folder
            "pkg/config.py": """
                optimizer = dict(type="SGD", lr=0.1)
                runner = dict(max_epochs=3)


                def get_config():
                    return dict(optimizer=optimizer)
            """,
            "configs/helpers.py": """
                DEFAULTS = dict(lr=0.1, batch_size=8)


                def merge(a, b):
                    return {**a, **b}
            """,
            # dicts, no function, but nothing a config names: a table of constants
            "pkg/palette.py": """
                COLORS = dict(red=(255, 0, 0), green=(0, 255, 0))
                SIZES = dict(small=32, large=64)
            """,
            "pkg/model.py": """
                import torch

                MODEL_URLS = dict(resnet50="https://example.org/r50.pth")


                class Net(torch.nn.Module):
                    pass
            """,
        },
    )
    assert configured(recipe_of(tmp_path)) == {}


def test_a_module_of_config_dicts_outside_a_configs_folder_is_a_config(tmp_path: Path) -> None:
    write_repo(tmp_path, {"experiments/retina_1x.py": SCHEDULE})
    rows = configured(recipe_of(tmp_path))
    assert ("optimizer", "config optimizer: SGD") in rows
    assert rows["optimizer", "config optimizer: SGD"].note == ""


def test_each_project_shows_its_shortest_config_and_a_leaf_can_name_its_row(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            "detection/configs/retina_a.py": SCHEDULE,
            "detection/configs/retina_longer.py": SCHEDULE,
            "detection/configs/retina_longest.py": SCHEDULE,
            "classification/configs/small.py": """
                gpus = 2
                cfg = dict(model="net", clip_grad=5.0, fp16=True, lr=0.1 * gpus)
            """,
        },
    )
    rows = [i for i in recipe_of(tmp_path) if PREFIX in i.name]
    assert sorted({i.where.path for i in rows}) == [
        "classification/configs/small.py",
        "detection/configs/retina_a.py",
    ]
    sgd = [i for i in rows if i.name == "config optimizer: SGD"]
    assert [i.note for i in sgd] == [
        "1 of 3 configs, the shortest-named (the training entry names none): the others are "
        "not shown"
    ]
    small = {(i.category, i.name): dict(i.values) for i in rows if "small" in i.where.path}
    assert small == {
        ("grad_clip", "config cfg"): {"clip_grad": "5.0"},
        ("amp", "config cfg"): {"fp16": "True"},
        ("optimizer", "config cfg"): {"lr": "0.1 * gpus (gpus = 2)"},
    }


def test_only_configs_and_no_training_code_is_not_inference_only(tmp_path: Path) -> None:
    from apiscan.review.build import build_review

    write_repo(
        tmp_path,
        {
            "configs/retina.py": SCHEDULE,
            "mypkg/net.py": """
                import torch


                class Net(torch.nn.Module):
                    def forward(self, x):
                        return torch.relu(x)
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    assert not review.inference_only
    assert any(i.name == "config optimizer: SGD" for i in review.recipe)


def test_a_config_files_own_settings_give_way_to_its_config_rows(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "configs/retina_fp16.py": SCHEDULE + "    fp16 = dict(loss_scale=512.0)\n",
            "configs/retina_fp16_b.py": SCHEDULE + "    fp16 = dict(loss_scale=512.0)\n",
        },
    )
    amp = [i for i in recipe_of(tmp_path) if i.category == "amp"]
    # one row, from the shown config, with its value (never a bare ``fp16`` per config)
    assert [(i.name, str(i.where), i.values) for i in amp] == [
        ("config fp16", "configs/retina_fp16.py:7", (("loss_scale", "512.0"),))
    ]


def test_a_config_file_option_default_names_the_config_shown(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "configs/a.py": SCHEDULE,
            "configs/b_named_by_default.py": SCHEDULE,
            "tools/train_net.py": """
                import argparse

                parser = argparse.ArgumentParser()
                parser.add_argument("--config-file", default="configs/b_named_by_default.py")
            """,
        },
    )
    rows = [i for i in recipe_of(tmp_path) if PREFIX in i.name]
    assert {i.where.path for i in rows} == {"configs/b_named_by_default.py"}
    assert {i.note for i in rows} == {"loaded by tools/train_net.py:4; 1 other config not shown"}
