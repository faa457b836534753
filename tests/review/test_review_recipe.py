"""The review's recipe: each training fact with the file and line it comes from.

Lines are looked up in the fixture sources by a snippet that must occur exactly once, so the
assertions stay exact (item at *that* line) without copying line numbers by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import CATEGORIES, extract_recipe

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TINYDET = FIXTURES / "tinydet"
TEXTCLS = FIXTURES / "textcls"


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def line_of(root: Path, path: str, snippet: str) -> int:
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    hits = [n for n, line in enumerate(lines, 1) if snippet in line]
    assert len(hits) == 1, f"{snippet!r} occurs {len(hits)} times in {path}"
    return hits[0]


def pick(items: tuple[RecipeItem, ...], category: str, name: str, path: str, line: int) -> dict:
    """The values of the one item with this category, name and place."""
    found = [
        i
        for i in items
        if (i.category, i.name, i.where.path, i.where.line) == (category, name, path, line)
    ]
    assert len(found) == 1, [(i.category, i.name, i.where) for i in items if i.category == category]
    return dict(found[0].values) | {"<note>": found[0].note}


def names(items: tuple[RecipeItem, ...], category: str) -> list[str]:
    return [i.name for i in items if i.category == category]


# ------------------------------------------------------------------------------- tinydet
@pytest.fixture(scope="module")
def tinydet() -> tuple[RecipeItem, ...]:
    return recipe_of(TINYDET)


def test_tinydet_optimizer_sgd_nesterov_with_param_groups(tinydet: tuple[RecipeItem, ...]) -> None:
    train = "tools/train.py"
    line = line_of(TINYDET, train, "optimizer = optim.SGD(")
    values = pick(tinydet, "optimizer", "torch.optim.SGD", train, line)
    groups_def = line_of(TINYDET, train, "def param_groups(")
    lr_option = line_of(TINYDET, train, '"--lr"')
    assert values["params"] == (
        f"2 parameter groups, built by param_groups() at {train}:{groups_def}"
    )
    assert values["group 1: weight_decay"] == (
        f"5e-4 (parameter weight_decay of param_groups(), passed at {train}:{line})"
    )
    assert values["group 2: weight_decay"] == "0.0"
    assert values["lr"] == f"0.01 (args.lr: default of argparse --lr at {train}:{lr_option})"
    assert values["momentum"] == "0.9"
    assert values["nesterov"] == "True"
    assert values["<note>"] == (
        "per-group keys: weight_decay; MindSpore optimizers take the same group dicts "
        "(params with lr, weight_decay)"
    )


def test_tinydet_warmup_then_cosine(tinydet: tuple[RecipeItem, ...]) -> None:
    train = "tools/train.py"
    warm = pick(
        tinydet,
        "warmup",
        "torch.optim.lr_scheduler.LinearLR",
        train,
        line_of(TINYDET, train, "optim.lr_scheduler.LinearLR("),
    )
    assert warm["start_factor"] == "0.1"
    # total_iters is a parameter of build_scheduler(): followed to its one call site
    call = line_of(TINYDET, train, "scheduler = build_scheduler(")
    assert (
        f"parameter warmup of build_scheduler(), passed at {train}:{call}" in (warm["total_iters"])
    )
    cosine = pick(
        tinydet,
        "scheduler",
        "torch.optim.lr_scheduler.CosineAnnealingLR",
        train,
        line_of(TINYDET, train, "optim.lr_scheduler.CosineAnnealingLR("),
    )
    assert cosine["eta_min"] == "1e-4"
    # the length a warm-up leaves, with the setting it is computed from
    assert cosine["T_max"].startswith("max(1, steps - warmup) (with steps = 2 (")
    sequential = pick(
        tinydet,
        "scheduler",
        "torch.optim.lr_scheduler.SequentialLR",
        train,
        line_of(TINYDET, train, "optim.lr_scheduler.SequentialLR("),
    )
    assert sequential == {"schedulers": "[warm, cosine]", "milestones": "[warmup]", "<note>": ""}
    warmup_option = pick(
        tinydet, "warmup", "argparse --warmup", train, line_of(TINYDET, train, '"--warmup"')
    )
    assert warmup_option["default"] == "3"


def test_tinydet_ema_of_weights(tinydet: tuple[RecipeItem, ...]) -> None:
    ema_py = "tinydet/ema.py"
    values = pick(
        tinydet,
        "ema",
        "EMA of weights (ModelEMA)",
        ema_py,
        line_of(TINYDET, ema_py, "class ModelEMA"),
    )
    update = line_of(TINYDET, ema_py, "value.mul_(d).add_(")
    init = line_of(TINYDET, ema_py, "def __init__(")
    used = line_of(TINYDET, "tools/train.py", "ema = ModelEMA(model)")
    assert values["update"] == (
        f"value.mul_(d).add_(source[name].detach(), alpha=1 - d) at {ema_py}:{update}"
    )
    # ModelEMA(model) passes no decay: the default of __init__ is the one used
    assert values["decay"] == (
        f"0.999 (default of parameter decay of ModelEMA.__init__() at {ema_py}:{init})"
    )
    assert values["tau"].startswith("20.0 (default of parameter tau")
    assert values["used at"] == f"tools/train.py:{used}: ModelEMA(model)"
    assert names(tinydet, "ema") == ["EMA of weights (ModelEMA)"]  # copy_to is no average


def test_tinydet_amp_clip_seed_loader(tinydet: tuple[RecipeItem, ...]) -> None:
    train = "tools/train.py"
    autocast = pick(
        tinydet, "amp", "torch.autocast", train, line_of(TINYDET, train, "torch.autocast(")
    )
    use_amp = line_of(TINYDET, train, "use_amp = ")
    assert autocast["device_type"] == "device.type"
    assert autocast["enabled"] == f'device.type == "cuda" (use_amp set at {train}:{use_amp})'
    scaler = line_of(TINYDET, train, "scaler = GradScaler()")
    assert pick(tinydet, "amp", "torch.cuda.amp.GradScaler", train, scaler) == {"<note>": ""}

    clip = pick(
        tinydet,
        "grad_clip",
        "torch.nn.utils.clip_grad_norm_",
        train,
        line_of(TINYDET, train, "clip_grad_norm_("),
    )
    assert clip == {"parameters": "model.parameters()", "max_norm": "10.0", "<note>": ""}

    seed_option = line_of(TINYDET, train, '"--seed"')
    seed = pick(
        tinydet, "seed", "torch.manual_seed", train, line_of(TINYDET, train, "manual_seed(")
    )
    assert seed["seed"] == f"0 (args.seed: default of argparse --seed at {train}:{seed_option})"

    loader = pick(
        tinydet,
        "dataloader",
        "torch.utils.data.DataLoader",
        train,
        line_of(TINYDET, train, "torch.utils.data.DataLoader("),
    )
    batch_option = line_of(TINYDET, train, '"--batch-size"')
    assert loader["batch_size"] == (
        f"4 (args.batch_size: default of argparse --batch-size at {train}:{batch_option})"
    )
    assert (loader["shuffle"], loader["num_workers"], loader["collate_fn"]) == (
        "True",
        "0",
        "collate",
    )
    assert loader["dataset"] == "dataset"  # data, not a setting: shown as written


def test_tinydet_init_loss_flip_and_settings(tinydet: tuple[RecipeItem, ...]) -> None:
    model = "tinydet/model.py"
    kaiming = pick(
        tinydet,
        "init",
        "torch.nn.init.kaiming_normal_",
        model,
        line_of(TINYDET, model, "kaiming_normal_("),
    )
    assert (kaiming["tensor"], kaiming["mode"], kaiming["nonlinearity"]) == (
        "m.weight",
        '"fan_out"',
        '"relu"',
    )
    assert sorted(names(tinydet, "init")) == [
        "torch.nn.init.kaiming_normal_",
        "torch.nn.init.ones_",
        "torch.nn.init.zeros_",
        "torch.nn.init.zeros_",
    ]
    loss_py = "tinydet/loss.py"
    bce = pick(
        tinydet,
        "loss",
        "torch.nn.functional.binary_cross_entropy_with_logits",
        loss_py,
        line_of(TINYDET, loss_py, "F.binary_cross_entropy_with_logits("),
    )
    assert (bce["reduction"], bce["<note>"]) == ('"none"', "scope: network")
    assert "tinydet.loss.DetectionLoss" in names(tinydet, "loss")
    assert "tinydet.loss.giou_loss" in names(tinydet, "loss")

    dataset = "tinydet/dataset.py"
    flip = pick(
        tinydet,
        "augmentation",
        "flip (reversed slice)",
        dataset,
        line_of(TINYDET, dataset, "img[:, ::-1, :]"),
    )
    assert flip["when"] == "index % 2 == 1"

    train = "tools/train.py"
    steps = pick(tinydet, "epochs", "argparse --steps", train, line_of(TINYDET, train, '"--steps"'))
    assert steps["default"] == "20"
    batch = line_of(TINYDET, train, '"--batch-size"')
    assert pick(tinydet, "batch_size", "argparse --batch-size", train, batch)["default"] == "4"
    # no accumulation, no DDP in tinydet
    assert names(tinydet, "grad_accum") == [] and names(tinydet, "distributed") == []


def test_recipe_is_sorted_by_category_then_place(tinydet: tuple[RecipeItem, ...]) -> None:
    keys = [(CATEGORIES.index(i.category), i.where.path, i.where.line) for i in tinydet]
    assert keys == sorted(keys)
    assert len(set(tinydet)) == len(tinydet)


# ------------------------------------------------------------------------------- textcls
def test_textcls_recipe() -> None:
    items = recipe_of(TEXTCLS)
    train = "train.py"
    adamw = pick(
        items, "optimizer", "torch.optim.AdamW", train, line_of(TEXTCLS, train, "AdamW(model")
    )
    lr_option = line_of(TEXTCLS, train, '"--lr"')
    assert adamw["params"] == "model.parameters()"
    assert adamw["lr"] == f"3e-3 (args.lr: default of argparse --lr at {train}:{lr_option})"
    assert adamw["weight_decay"] == "0.01"
    lambda_line = line_of(TEXTCLS, train, "scheduler = LambdaLR(")
    schedule = pick(items, "scheduler", "torch.optim.lr_scheduler.LambdaLR", train, lambda_line)
    steps_option = line_of(TEXTCLS, train, '"--steps"')
    assert schedule["lr_lambda"] == (  # the helper's argument reached: the README's run
        "warmup_then_linear(max(1, args.steps // 5), 2)"
        f" (args.steps: --steps in README.md:13; argparse --steps at {train}:{steps_option},"
        " default 30)"
    )
    warm = pick(items, "warmup", "LambdaLR warm-up", train, lambda_line)
    assert warm["<note>"] == "warm-up in lr_lambda"
    loss = pick(
        items,
        "loss",
        "torch.nn.functional.cross_entropy",
        train,
        line_of(TEXTCLS, train, "F.cross_entropy("),
    )
    assert loss["label_smoothing"] == "0.1"
    clip = pick(
        items,
        "grad_clip",
        "torch.nn.utils.clip_grad_norm_",
        train,
        line_of(TEXTCLS, train, "clip_grad_norm_("),
    )
    assert clip["max_norm"] == "1.0"
    loader = pick(
        items,
        "dataloader",
        "torch.utils.data.DataLoader",
        train,
        line_of(TEXTCLS, train, "loader = DataLoader("),
    )
    assert (loader["shuffle"], loader["collate_fn"]) == ("True", "pad_collate")
    assert loader["batch_size"].startswith("8 (args.batch_size: default of argparse --batch-size")
    seed = pick(items, "seed", "torch.manual_seed", train, line_of(TEXTCLS, train, "manual_seed("))
    assert seed["seed"] == "0"
    init = pick(
        items,
        "init",
        "torch.nn.init.normal_",
        "classifier.py",
        line_of(TEXTCLS, "classifier.py", "nn.init.normal_("),
    )
    assert (init["tensor"], init["std"]) == ("self.position", "0.02")
    steps = line_of(TEXTCLS, train, '"--steps"')
    assert pick(items, "epochs", "argparse --steps", train, steps)["default"] == "30"
    assert names(items, "ema") == [] and names(items, "amp") == []


# ------------------------------------------------------------------------- small repos
def test_argparse_defaults_store_true_and_training_script_first(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "tools/train.py": """
                import argparse
                import torch

                def parse():
                    p = argparse.ArgumentParser()
                    p.add_argument("--lr", type=float, default=0.1)
                    p.add_argument("--momentum", type=float)
                    p.add_argument("--amp", action="store_true")
                    p.add_argument("-e", "--epochs", type=int, default=90)
                    p.add_argument("-j", "--workers", dest="num_workers", default=4)
                    return p.parse_args()
                """,
            "tools/eval.py": """
                import argparse

                def parse():
                    p = argparse.ArgumentParser()
                    p.add_argument("--lr", type=float, default=0.5)
                    return p.parse_args()
                """,
            "engine.py": """
                import torch

                def build(model, args):
                    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
                    scaler = torch.cuda.amp.GradScaler(enabled=args.amp)
                    loader = torch.utils.data.DataLoader(model, num_workers=args.num_workers)
                    return opt, scaler, loader, args.unknown_option
                """,
        },
    )
    items = recipe_of(tmp_path)
    sgd = pick(items, "optimizer", "torch.optim.SGD", "engine.py", 4)
    # engine.py has no parser: the training script's option wins over tools/eval.py's
    assert sgd["lr"] == "0.1 (args.lr: default of argparse --lr at tools/train.py:6)"
    # an optional flag declared without a default is None when the command line leaves it
    assert sgd["momentum"] == (
        "None (args.momentum: argparse --momentum at tools/train.py:7 has no default)"
    )
    scaler = pick(items, "amp", "torch.cuda.amp.GradScaler", "engine.py", 5)
    assert scaler["enabled"] == "False (args.amp: store_true of argparse --amp at tools/train.py:8)"
    loader = pick(items, "dataloader", "torch.utils.data.DataLoader", "engine.py", 6)
    assert loader["num_workers"] == (
        "4 (args.num_workers: default of argparse --workers at tools/train.py:10)"
    )
    epochs = pick(items, "epochs", "argparse --epochs", "tools/train.py", 9)
    assert epochs["default"] == "90"
    assert pick(items, "amp", "argparse --amp", "tools/train.py", 8)["default"] == "False"
    # the evaluation script's parser is on no training run (nothing links it to one): its
    # --lr is no recipe row
    lr_settings = [i.where for i in items if i.name == "argparse --lr"]
    assert [(w.path, w.line) for w in lr_settings] == [("tools/train.py", 6)]


def test_config_class_attributes_follow_bases(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "exps/base.py": """
                class BaseExp:
                    def __init__(self):
                        self.lr = 0.02
                        self.max_epoch = 12
                        self.momentum = 0.9
                        self.no_aug_epochs = 2
                """,
            "exps/custom.py": """
                import torch
                from exps.base import BaseExp

                class Exp(BaseExp):
                    def __init__(self):
                        super().__init__()
                        self.lr = 0.01

                    def get_optimizer(self, model):
                        return torch.optim.SGD(
                            model.parameters(), lr=self.lr, momentum=self.momentum,
                            weight_decay=self.wd,
                        )
                """,
            "train.py": """
                import torch

                def schedule(opt, exp):
                    sched = torch.optim.lr_scheduler
                    return sched.OneCycleLR(opt, max_lr=exp.lr, epochs=exp.max_epoch)

                def steps(opt):
                    return torch.optim.lr_scheduler.MultiStepLR(opt, [8, 11], 0.1)

                def before_epoch(loader, epoch, exp):
                    if epoch == exp.max_epoch - exp.no_aug_epochs:
                        loader.close_mosaic()
                """,
            "data/augment.py": """
                def mixup(img1, img2, ratio):
                    return img1 * ratio + img2 * (1 - ratio)

                def cutmix(img1, img2):
                    return img1
                """,
            "data/loader.py": """
                from data.augment import mixup

                def load(a, b):
                    return mixup(a, b, 0.5)
                """,
        },
    )
    items = recipe_of(tmp_path)
    sgd = pick(items, "optimizer", "torch.optim.SGD", "exps/custom.py", 10)
    assert sgd["lr"] == "0.01 (self.lr set in Exp.__init__ at exps/custom.py:7)"
    assert sgd["momentum"] == "0.9 (self.momentum set in BaseExp.__init__ at exps/base.py:5)"
    assert sgd["weight_decay"] == "self.wd (not set as a literal in Exp or its bases)"
    one_cycle = pick(items, "scheduler", "torch.optim.lr_scheduler.OneCycleLR", "train.py", 5)
    assert one_cycle["epochs"] == "12 (exp.max_epoch: BaseExp.__init__ sets it at exps/base.py:4)"
    # two classes set lr: the base (the default) first, then the override
    assert one_cycle["max_lr"] == (
        "0.02 (exp.lr: BaseExp.__init__ sets it at exps/base.py:3)"
        " | 0.01 (exp.lr: Exp.__init__ sets it at exps/custom.py:7)"
    )
    assert pick(items, "warmup", "OneCycleLR warm-up", "train.py", 5) == {
        "pct_start": "0.3 (default)",
        "<note>": "",
    }
    assert pick(items, "epochs", "BaseExp.max_epoch", "exps/base.py", 4)["value"] == "12"
    no_aug = pick(items, "augmentation", "BaseExp.no_aug_epochs", "exps/base.py", 6)
    assert no_aug["value"] == "2"
    closing = pick(items, "augmentation", "last epochs without augmentation", "train.py", 12)
    assert closing["when"] == "epoch == exp.max_epoch - exp.no_aug_epochs"
    mixup = pick(items, "augmentation", "mixup", "data/augment.py", 1)
    assert mixup["<note>"] == "repo function, by its name"
    # defined and never called: not part of what runs
    assert "cutmix" not in [i.name for i in items]
    # positional arguments are named from the torch index
    multistep = pick(items, "scheduler", "torch.optim.lr_scheduler.MultiStepLR", "train.py", 8)
    assert (multistep["milestones"], multistep["gamma"]) == ("[8, 11]", "0.1")


def test_gradient_accumulation_and_its_absence(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "loop.py": """
                import torch.nn.functional as F

                def train(model, loader, optimizer, accum_steps=4):
                    for i, (x, y) in enumerate(loader):
                        loss = F.mse_loss(model(x), y) / accum_steps
                        loss.backward()
                        if (i + 1) % accum_steps == 0:
                            optimizer.step()
                            optimizer.zero_grad()

                def train_plain(model, loader, optimizer):
                    for step, (x, y) in enumerate(loader):
                        loss = F.mse_loss(model(x), y)
                        loss.backward()
                        optimizer.step()
                        if step % 100 == 0:
                            print(step)
                """,
        },
    )
    items = recipe_of(tmp_path)
    accum = [i for i in items if i.category == "grad_accum"]
    assert [(i.name, i.where.line) for i in accum] == [("gradient accumulation", 7)]
    values = dict(accum[0].values)
    assert values["condition"] == "(i + 1) % accum_steps == 0"
    assert values["every"] == "4 (default of parameter accum_steps of train() at loop.py:3)"
    assert values["backward"] == "loop.py:6"
    assert names(items, "loss") == [
        "torch.nn.functional.mse_loss",
        "torch.nn.functional.mse_loss",
    ]


def test_kwargs_built_by_dict_under_a_condition_are_opened(tmp_path: Path) -> None:
    """nanoGPT's ``extra_args = dict(fused=True) if use_fused else dict()`` passed as
    ``**extra_args``: the optimizer row shows ``fused`` with its condition and says it is an
    implementation switch to drop; a ``dict(...)`` call is opened like a literal,
    with the ``.update(k=v)`` calls made to it."""
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torch

                def configure(params, device_type):
                    use_fused = device_type == "cuda"
                    extra_args = dict(fused=True) if use_fused else dict()
                    return torch.optim.AdamW(params, lr=3e-4, **extra_args)

                def plain(params):
                    options = dict(momentum=0.9, nesterov=True)
                    options.update(dampening=0.0)
                    return torch.optim.SGD(params, lr=0.1, **options)
                """,
        },
    )
    items = recipe_of(tmp_path)
    adamw = pick(items, "optimizer", "torch.optim.AdamW", "train.py", 6)
    assert adamw["lr"] == "3e-4"
    assert adamw["fused"] == "True (if use_fused)"
    assert "fused passed: picks torch's fused or multi-tensor implementation" in adamw["<note>"]
    sgd = pick(items, "optimizer", "torch.optim.SGD", "train.py", 11)
    assert (sgd["momentum"], sgd["nesterov"], sgd["dampening"]) == ("0.9", "True", "0.0")
    assert "passed: picks" not in sgd["<note>"]


def test_a_unique_method_called_on_an_untyped_receiver_is_a_call_site(tmp_path: Path) -> None:
    """nanoGPT: ``train.py`` builds its model in branches the scan cannot type, then calls
    ``model.configure_optimizers(weight_decay, learning_rate)``; a method no other def is
    named like is followed to that call. ``step``, a torch member, never is."""
    write_repo(
        tmp_path,
        {
            "model.py": """
                import torch

                class GPT(torch.nn.Module):
                    @classmethod
                    def from_pretrained(cls, name):
                        return load(name)

                    def configure_optimizers(self, weight_decay, learning_rate):
                        return torch.optim.AdamW(
                            self.parameters(), lr=learning_rate, weight_decay=weight_decay
                        )
                """,
            "train.py": """
                from model import GPT

                learning_rate = 6e-4
                weight_decay = 1e-1
                if init_from == "scratch":
                    model = GPT()
                else:
                    model = GPT.from_pretrained(init_from)
                optimizer = model.configure_optimizers(weight_decay, learning_rate)
                """,
        },
    )
    items = recipe_of(tmp_path)
    adamw = pick(items, "optimizer", "torch.optim.AdamW", "model.py", 9)
    assert adamw["lr"].startswith("6e-4 (parameter learning_rate of GPT.configure_optimizers()")
    assert adamw["weight_decay"].startswith("1e-1 (")


def test_distributed_training_and_launcher(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torch.distributed as dist
                from torch.nn.parallel import DistributedDataParallel as DDP
                from torch.utils.data import DataLoader
                from torch.utils.data.distributed import DistributedSampler

                BATCH = 32

                def main(model, ds, local_rank):
                    dist.init_process_group(backend="nccl")
                    model = DDP(model, device_ids=[local_rank])
                    sampler = DistributedSampler(ds, shuffle=True)
                    return DataLoader(ds, batch_size=BATCH, sampler=sampler, drop_last=True)
                """,
            "scripts/run.sh": """
                #!/bin/sh
                # torchrun is the launcher
                torchrun --nproc_per_node=8 train.py
                """,
        },
    )
    items = recipe_of(tmp_path)
    assert pick(items, "distributed", "torch.distributed.init_process_group", "train.py", 9) == {
        "backend": '"nccl"',
        "<note>": "",
    }
    ddp = pick(items, "distributed", "torch.nn.parallel.DistributedDataParallel", "train.py", 10)
    assert (ddp["module"], ddp["device_ids"]) == ("model", "[local_rank]")
    sampler = [i for i in items if i.name.endswith("DistributedSampler")]
    assert [(i.category, i.where.line, dict(i.values)["shuffle"]) for i in sampler] == [
        ("distributed", 11, "True")
    ]
    launcher = pick(items, "distributed", "torchrun", "scripts/run.sh", 3)
    assert launcher["command"] == "torchrun --nproc_per_node=8 train.py"
    loader = pick(items, "dataloader", "torch.utils.data.DataLoader", "train.py", 12)
    assert loader["batch_size"] == "32 (BATCH set at train.py:6)"
    assert loader["drop_last"] == "True"
    assert pick(items, "batch_size", "BATCH", "train.py", 6)["value"] == "32"


def test_ema_variants_transforms_foreign_seeds_and_half(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "ema.py": """
                import torch

                @torch.no_grad()
                def ema_update(ema_model, model, decay=0.99):
                    for e, p in zip(ema_model.parameters(), model.parameters()):
                        e.lerp_(p, 1 - decay)

                class Averager:
                    def __init__(self, model, momentum=0.9998):
                        self.model = model
                        self.momentum = momentum

                    def update(self, model):
                        with torch.no_grad():
                            for k, v in self.model.state_dict().items():
                                v *= self.momentum
                                v += (1 - self.momentum) * model.state_dict()[k]

                def copy_weights(dst, src):
                    with torch.no_grad():
                        for a, b in zip(dst.parameters(), src.parameters()):
                            a.copy_(b)
                """,
            "data.py": """
                import random

                import numpy as np
                import torch
                import torchvision.transforms as T

                def setup(model, seed=7):
                    random.seed(seed)
                    np.random.seed(seed)
                    torch.cuda.manual_seed_all(seed)
                    aug = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(p=0.5)])
                    return aug, model.half()
                """,
        },
    )
    items = recipe_of(tmp_path)
    assert names(items, "ema") == ["EMA of weights (ema_update)", "EMA of weights (Averager)"]
    lerp = pick(items, "ema", "EMA of weights (ema_update)", "ema.py", 4)
    assert lerp["update"] == "e.lerp_(p, 1 - decay) at ema.py:6"
    assert lerp["decay"] == "0.99 (default of parameter decay of ema_update() at ema.py:4)"
    averager = pick(items, "ema", "EMA of weights (Averager)", "ema.py", 8)
    assert averager["update"] == "v += (1 - self.momentum) * model.state_dict()[k] at ema.py:17"
    assert averager["momentum"].startswith("0.9998 (default of parameter momentum")

    augment = [(i.name, i.where.line, i.values) for i in items if i.category == "augmentation"]
    assert augment == [  # the composition used, its transforms in order, one row
        (
            "composition in setup",
            11,
            (("1", "RandomResizedCrop(224)"), ("2", "RandomHorizontalFlip(p=0.5)")),
        ),
    ]
    seeds = [(i.name, i.where.line, dict(i.values)["seed"]) for i in items if i.category == "seed"]
    default = "7 (default of parameter seed of setup() at data.py:7)"
    assert seeds == [
        ("random.seed", 8, default),
        ("numpy.random.seed", 9, default),
        ("torch.cuda.manual_seed_all", 10, default),
    ]
    half = pick(items, "amp", "torch.nn.Module.half", "data.py", 12)
    assert half["<note>"] == "casts to float16 (not autocast)"


def test_test_files_are_not_the_recipe(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "tests/test_opt.py": """
                import torch

                def test_sgd(model):
                    torch.manual_seed(0)
                    return torch.optim.SGD(model.parameters(), lr=1.0)
                """,
            "train.py": """
                import torch

                def make(model):
                    return torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.99))
                """,
        },
    )
    items = recipe_of(tmp_path)
    assert [(i.category, i.name, i.where.path) for i in items] == [
        ("optimizer", "torch.optim.Adam", "train.py")
    ]
    assert dict(items[0].values)["betas"] == "(0.9, 0.99)"


def test_a_library_modules_self_test_is_not_the_recipe(tmp_path: Path) -> None:
    """A backbone file's ``if __name__ == "__main__":`` demo (imported by the model code) sets
    ``cudnn.deterministic`` to try the backbone: not what training runs. The training script's
    own main block, which nothing imports, is the recipe; each cuDNN row says what it means."""
    write_repo(
        tmp_path,
        {
            "net/__init__.py": "",
            "net/backbone.py": """
                import torch

                def backbone():
                    return torch.nn.Conv2d(3, 8, 3)

                if __name__ == "__main__":
                    torch.backends.cudnn.deterministic = True
                    print(backbone())
                """,
            "train.py": """
                import torch
                from net.backbone import backbone

                if __name__ == "__main__":
                    torch.backends.cudnn.deterministic = False
                    model = backbone()
                """,
        },
    )
    items = [i for i in recipe_of(tmp_path) if i.category == "seed"]
    assert [(i.name, i.where.path) for i in items] == [
        ("torch.backends.cudnn.deterministic", "train.py")
    ]
    assert "not a seed" in items[0].note


def test_a_repositorys_own_compose_is_the_pipeline_and_a_steps_internal_one_is_not(
    tmp_path: Path,
) -> None:
    """``et.ExtCompose([...])`` of joint image/mask transforms in the training script is the
    composition; the ``Compose`` a jitter step builds in its ``get_params`` at each call is
    how that step works, not a second pipeline."""
    write_repo(
        tmp_path,
        {
            "utils/__init__.py": "",
            "utils/ext_transforms.py": """
                import random

                class Compose:
                    def __init__(self, steps):
                        self.steps = steps

                class ExtCompose:
                    def __init__(self, steps):
                        self.steps = steps

                    def __call__(self, img, lbl):
                        for t in self.steps:
                            img, lbl = t(img, lbl)
                        return img, lbl

                class ExtRandomCrop:
                    def __init__(self, size, pad_if_needed=False):
                        self.size = size

                    def __call__(self, img, lbl):
                        return img, lbl

                class ExtColorJitter:
                    def __init__(self, brightness=0.0):
                        self.brightness = brightness

                    @staticmethod
                    def get_params(brightness):
                        steps = [lambda img: img * brightness]
                        random.shuffle(steps)
                        return Compose(steps)

                    def __call__(self, img, lbl):
                        return self.get_params(self.brightness)(img), lbl
                """,
            "train.py": """
                import argparse
                from utils import ext_transforms as et

                parser = argparse.ArgumentParser()
                parser.add_argument("--crop_size", type=int, default=513)
                opts = parser.parse_args()

                train_transform = et.ExtCompose([
                    et.ExtRandomCrop(size=(opts.crop_size, opts.crop_size), pad_if_needed=True),
                    et.ExtColorJitter(brightness=0.5),
                ])
                """,
        },
    )
    rows = [i for i in recipe_of(tmp_path) if i.name.startswith("composition in")]
    assert [(i.name, i.where.path) for i in rows] == [("composition in module code", "train.py")]
    steps = dict(rows[0].values)
    assert steps["1"] == "ExtRandomCrop(size=(513, 513), pad_if_needed=True)"
    assert steps["2"] == "ExtColorJitter(brightness=0.5)"


def test_step_decay_settings_are_the_schedule() -> None:
    from apiscan.review.recipe import _setting_category

    # PointNet++: lr * lr_decay ** (epoch // step_size), written out in the loop
    assert _setting_category("step_size") == "scheduler"
    assert _setting_category("lr_decay") == "scheduler"
    # MAE: lr = blr * batch / 256; the loss is on the masked patches' normalised pixels
    assert _setting_category("blr") == "optimizer"
    assert _setting_category("mask_ratio") == "loss"
    assert _setting_category("norm_pix_loss") == "loss"
    # a focal loss's settings, not a camera's focal length (Depth-Anything's point-cloud tool)
    assert _setting_category("focal_alpha") == "loss"
    assert _setting_category("--focal_loss_gamma") == "loss"
    assert _setting_category("--focal-length-x") is None
    # a GAN trained for a number of thousands of real images shown (--kimg, total_kimg)
    assert _setting_category("--kimg") == "epochs"
    assert _setting_category("total_kimg") == "epochs"


CONFIGS = """\
from dataclasses import dataclass, field
from typing import List


@dataclass
class OptimizationConfig:
    max_epoch: int = field(default=0, metadata={"help": "force stop at this epoch"})
    clip_norm: float = field(default=0.0, metadata={"help": "clip threshold of gradients"})
    update_freq: List[int] = field(default_factory=lambda: [1])
    lr: List[float] = field(default_factory=lambda: [0.25])


@dataclass
class CommonConfig:
    seed: int = field(default=1)
"""

CONFIG_TRAIN = """\
import torch
from cfg.configs import CommonConfig, OptimizationConfig


def main(model):
    cfg, common = OptimizationConfig(), CommonConfig()
    torch.manual_seed(common.seed)
    torch.optim.SGD(model.parameters(), lr=cfg.lr[0]).step()
"""


def test_dataclass_configuration_defaults_are_settings(tmp_path: Path) -> None:
    from apiscan.review.build import build_review

    for rel, text in {"cfg/configs.py": CONFIGS, "train.py": CONFIG_TRAIN}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    review = build_review(str(tmp_path), jobs=1)
    # fairseq's configuration: field(default=...) and field(default_factory=lambda: ...)
    settings = {
        (i.category, i.name): dict(i.values)["value"]
        for i in review.recipe
        if i.name.startswith(("OptimizationConfig.", "CommonConfig."))
    }
    assert settings == {
        ("epochs", "OptimizationConfig.max_epoch"): "0",
        ("grad_clip", "OptimizationConfig.clip_norm"): "0.0",
        ("grad_accum", "OptimizationConfig.update_freq"): "[1]",
        ("optimizer", "OptimizationConfig.lr"): "[0.25]",
        ("seed", "CommonConfig.seed"): "1",
    }


YACS = """\
from types import SimpleNamespace as CN

_C = CN()
_C.SOLVER = CN()
_C.SOLVER.BASE_LR = 0.001
_C.SOLVER.MOMENTUM = 0.9
"""

YACS_TRAIN = """\
import torch


def build_optimizer(cfg, model):
    return torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR, momentum=cfg.SOLVER.MOMENTUM)
"""


def test_yacs_configuration_defaults_are_followed(tmp_path: Path) -> None:
    from apiscan.review.build import build_review

    for rel, text in {"cfg/defaults.py": YACS, "solver.py": YACS_TRAIN}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    review = build_review(str(tmp_path), jobs=1)
    (sgd,) = [i for i in review.recipe if i.name == "torch.optim.SGD"]
    # detectron2: cfg.SOLVER.BASE_LR is _C.SOLVER.BASE_LR's default
    assert dict(sgd.values)["lr"] == ("0.001 (cfg.SOLVER.BASE_LR: default at cfg/defaults.py:5)")
    assert dict(sgd.values)["momentum"].startswith("0.9 ")


# ------------------------------------------------- values computed by the training script
SCRIPTED = {
    "train.py": """
        import argparse

        import torch
        from torch import nn

        from pkg.loader import make_loader
        from pkg import registry
        from pkg.utils import *


        def parse():
            parser = argparse.ArgumentParser()
            parser.add_argument("--lr", type=float, default=None)
            parser.add_argument("--blr", type=float, default=1e-3)
            parser.add_argument("--batch_size", type=int, default=64)
            parser.add_argument("--step_size", type=int, default=20)
            return parser.parse_args()


        def bn_momentum_adjust(m, momentum):
            if isinstance(m, nn.BatchNorm2d):
                m.momentum = momentum


        def main(args):
            model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))
            if args.lr is None:
                args.lr = args.blr * args.batch_size / 256
            optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
            MOMENTUM_ORIGINAL = 0.1
            MOMENTUM_DECAY = 0.5
            loader = make_loader(320)
            criterion = registry.build_criterion("smooth")
            for epoch in range(10):
                momentum = MOMENTUM_ORIGINAL * (MOMENTUM_DECAY ** (epoch // args.step_size))
                if momentum < 0.01:
                    momentum = 0.01
                model.apply(lambda m: bn_momentum_adjust(m, momentum))
                if epoch == 8:
                    adjust_learning_rate(optimizer, 0.1)
                for x, y in loader:
                    x, _ = transform(x, None, "TRAIN")
                    loss = criterion(model(x), y)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


        if __name__ == "__main__":
            main(parse())
    """,
    "pkg/__init__.py": "",
    "pkg/utils.py": """
        import random

        import torchvision.transforms.functional as FT


        def adjust_learning_rate(optimizer, scale):
            for group in optimizer.param_groups:
                group["lr"] = group["lr"] * scale


        def flip(image, boxes):
            return FT.hflip(image), boxes


        def transform(image, boxes, split):
            new_image, new_boxes = image, boxes
            if split == "TRAIN":
                new_image = FT.adjust_brightness(new_image, 1.2)
                if random.random() < 0.5:
                    new_image, new_boxes = flip(new_image, new_boxes)
            new_image = FT.resize(new_image, (300, 300))
            new_image = FT.normalize(FT.to_tensor(new_image), mean=[0.5], std=[0.2])
            return new_image, new_boxes
    """,
    "pkg/transforms.py": """
        import torchvision.transforms as T


        def train_transforms(img_size=224):
            return T.Compose([T.RandomResizedCrop(img_size), T.RandomHorizontalFlip()])
    """,
    "pkg/loader.py": """
        from torch.utils.data import DataLoader
        from torchvision.datasets import FakeData

        from .transforms import *


        def make_loader(size):
            return DataLoader(FakeData(transform=train_transforms(size)), batch_size=8)
    """,
    "pkg/registry.py": """
        import torch.nn.functional as F
        from torch import nn

        CRITERIA = {}


        def setup_registry(option, default=None):
            def register(name):
                def wrap(cls):
                    CRITERIA[name] = cls
                    return cls
                return wrap

            def build(name):
                return CRITERIA[name or default]()

            return build, register


        build_criterion, register_criterion = setup_registry("--criterion", default="plain")


        @register_criterion("plain")
        class PlainCriterion(nn.Module):
            def forward(self, out, y):
                return F.cross_entropy(out, y)


        @register_criterion("smooth")
        class SmoothCriterion(nn.Module):
            def forward(self, out, y):
                return F.cross_entropy(out, y, label_smoothing=0.1)
    """,
}


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[RecipeItem, ...]]:
    root = tmp_path_factory.mktemp("scripted")
    write_repo(root, SCRIPTED)
    return root, recipe_of(root)


def test_an_option_left_at_none_shows_the_formula_that_computes_it(scripted) -> None:
    root, items = scripted
    line = line_of(root, "train.py", "optimizer = torch.optim.AdamW(")
    lr = pick(items, "optimizer", "torch.optim.AdamW", "train.py", line)["lr"]
    computed = line_of(root, "train.py", "args.lr = args.blr")
    assert lr.startswith("args.blr * args.batch_size / 256 (")
    assert f"computed at train.py:{computed}" in lr
    assert "args.blr = 1e-3" in lr and "args.batch_size = 64" in lr


def test_bn_momentum_decay_by_hand_with_constants_and_floor(scripted) -> None:
    root, items = scripted
    line = line_of(root, "train.py", "momentum = MOMENTUM_ORIGINAL *")
    values = pick(items, "bn_momentum", "momentum computed by hand", "train.py", line)
    assert values["MOMENTUM_ORIGINAL"].startswith("0.1 (")
    assert values["MOMENTUM_DECAY"].startswith("0.5 (")
    assert values["args.step_size"].startswith("20 (")
    assert values["floor"] == "0.01"
    assert "1 − torch's" in values["<note>"]
    # the momentum formula is no LR schedule
    assert names(items, "scheduler") == ["argparse --step_size", "pkg.utils.adjust_learning_rate"]


def test_a_parameter_passed_through_a_star_import_is_the_callers_value(scripted) -> None:
    _, items = scripted
    composed = [i for i in items if i.name == "composition in train_transforms"]
    assert [dict(i.values) for i in composed] == [
        {"1": "RandomResizedCrop(320)", "2": "RandomHorizontalFlip()"}
    ]


def test_losses_picked_by_name_are_one_row_with_the_default(scripted) -> None:
    root, items = scripted
    losses = [i for i in items if i.category == "loss"]
    # the option's row, then the picked criterion's own call; the other registered one's
    # (``label_smoothing=0.1``, in the same file) is no row
    assert [i.name for i in losses] == [
        "--criterion (picked by name)",
        "torch.nn.functional.cross_entropy",
    ], losses
    plain_call = line_of(root, "pkg/registry.py", "return F.cross_entropy(out, y)")
    assert losses[1].where.line == plain_call
    assert "label_smoothing" not in dict(losses[1].values)
    values = dict(losses[0].values)
    assert values["default"] == '"plain"'
    assert values["registered"] == "2 choices"
    plain = line_of(root, "pkg/registry.py", "class PlainCriterion(")
    assert values["default defined at"] == f"pkg/registry.py:{plain}"


def test_a_pipeline_written_as_statements_is_one_row_in_order(scripted) -> None:
    _, items = scripted
    rows = [i for i in items if i.category == "augmentation" and i.where.path == "pkg/utils.py"]
    assert [i.name for i in rows] == ["pipeline in transform"]
    assert dict(rows[0].values) == {
        "1": "FT.adjust_brightness(new_image, 1.2) (if split == 'TRAIN')",
        "2": "flip(new_image, new_boxes) (if split == 'TRAIN' and random.random() < 0.5)",
        "3": "FT.resize(new_image, (300, 300))",
        "4": "FT.normalize(FT.to_tensor(new_image), mean=[0.5], std=[0.2])",
    }


def test_a_schedule_function_called_through_a_star_import(scripted) -> None:
    root, items = scripted
    line = line_of(root, "train.py", "adjust_learning_rate(optimizer, 0.1)")
    values = pick(items, "scheduler", "pkg.utils.adjust_learning_rate", "train.py", line)
    assert values["scale"] == "0.1"
    assert values["<note>"].startswith("sets the LR where it is called")


def test_tuples_schedules_indexed_by_iteration_and_repo_initialisers(tmp_path: Path) -> None:
    """nanoGPT's ``betas=(beta1, beta2)`` is followed element by element; DINO's EMA momentum
    is ``momentum_schedule[it]``, built by a schedule helper from an argparse default, and its
    ``_init_weights`` (run through ``self.apply``) calls the repository's own
    ``trunc_normal_`` beside ``nn.init.constant_``."""
    write_repo(
        tmp_path,
        {
            "utils.py": """
                import torch

                def cosine_scheduler(base_value, final_value, epochs, niter_per_ep):
                    return [base_value] * (epochs * niter_per_ep) + [final_value]

                def trunc_normal_(tensor, mean=0.0, std=1.0):
                    with torch.no_grad():
                        return tensor.normal_(mean, std)
                """,
            "net.py": """
                import torch.nn as nn
                from utils import trunc_normal_

                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.fc = nn.Linear(4, 4)
                        self.apply(self._init_weights)

                    def _init_weights(self, m):
                        if isinstance(m, nn.Linear):
                            trunc_normal_(m.weight, std=.02)
                            nn.init.constant_(m.bias, 0)
                """,
            "train.py": """
                import argparse
                import torch
                import utils
                from net import Net

                beta1 = 0.9
                beta2 = 0.95

                def train_one_epoch(student, teacher, loader, momentum_schedule):
                    for it, batch in enumerate(loader):
                        with torch.no_grad():
                            m = momentum_schedule[it]
                            for q, k in zip(student.parameters(), teacher.parameters()):
                                k.data.mul_(m).add_((1 - m) * q.detach().data)

                def main():
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--momentum_teacher", default=0.996, type=float)
                    parser.add_argument("--epochs", default=100, type=int)
                    args = parser.parse_args()
                    student, teacher = Net(), Net()
                    opt = torch.optim.AdamW(student.parameters(), lr=1e-3, betas=(beta1, beta2))
                    loader = [1, 2]
                    momentum_schedule = utils.cosine_scheduler(
                        args.momentum_teacher, 1, args.epochs, len(loader)
                    )
                    train_one_epoch(student, teacher, loader, momentum_schedule)
                """,
        },
    )
    items = recipe_of(tmp_path)
    adamw = pick(
        items, "optimizer", "torch.optim.AdamW", "train.py", line_of(tmp_path, "train.py", "AdamW")
    )
    assert adamw["betas"] == "(0.9, 0.95) (beta1 set at train.py:6; beta2 set at train.py:7)"
    [ema] = [i for i in items if i.category == "ema"]
    schedule = dict(ema.values)["momentum_schedule"]
    assert schedule.startswith("utils.cosine_scheduler(0.996, 1, 100, len(loader)) (")
    assert "args.momentum_teacher: default of argparse --momentum_teacher at train.py:" in schedule
    init = pick(
        items, "init", "Net._init_weights", "net.py", line_of(tmp_path, "net.py", "def _init_")
    )
    assert init == {"trunc_normal_": "m.weight, std=.02", "<note>": "repo initialisation routine"}
    # the torch initialiser keeps its own row, and is not repeated in the routine's
    assert "torch.nn.init.constant_" in names(items, "init")


def test_an_index_or_a_call_that_reaches_no_literal_is_shown_as_written(tmp_path: Path) -> None:
    """A literal index is a lookup, not a schedule step; a call none of whose arguments
    reaches a literal (a None default is not one), or a tuple with an element that does
    not, is left as written."""
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torch

                def main(model, cfg, b2, eps=None):
                    decay = cfg["wd"]
                    opt = torch.optim.AdamW(
                        model.parameters(), lr=make_lr(cfg), betas=(0.9, b2), weight_decay=decay,
                        eps=fallback(eps, 1e-8),
                    )
                """,
        },
    )
    items = recipe_of(tmp_path)
    adamw = pick(items, "optimizer", "torch.optim.AdamW", "train.py", 5)
    assert adamw["lr"] == "make_lr(cfg)"
    assert adamw["betas"].startswith("(0.9, b2)")
    assert adamw["weight_decay"].startswith('cfg["wd"]')
    assert adamw["eps"] == "fallback(eps, 1e-8)"  # a None default is "not given": kept


def test_an_ema_decay_read_from_a_schedule_by_the_iteration(tmp_path: Path) -> None:
    """No decay parameter: the factor of ``mul_(m)`` is followed, ``m = schedule[it]`` to the
    schedule helper's call and its argparse default; a mask index is a lookup, and a tensor
    built from no setting is not a schedule, so neither is followed."""
    write_repo(
        tmp_path,
        {
            "train.py": """
                import argparse
                import torch

                def cosine(base, final, steps):
                    return [base] * steps + [final]

                def decode(x):
                    return x * 2

                def main(student, teacher, loader, x, keep):
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--ema", default=0.999, type=float)
                    args = parser.parse_args()
                    schedule = cosine(args.ema, 1.0, len(loader))
                    boxes = decode(x)
                    loss = torch.nn.functional.l1_loss(boxes[keep], x)
                    for it, batch in enumerate(loader):
                        with torch.no_grad():
                            m = schedule[it]
                            for q, k in zip(student.parameters(), teacher.parameters()):
                                k.mul_(m).add_((1 - m) * q.detach())
                        loss = loss + torch.nn.functional.mse_loss(boxes[it], x)
                    return loss
                """,
        },
    )
    items = recipe_of(tmp_path)
    decay = pick(items, "ema", "EMA of weights (main)", "train.py", 10)["decay"]
    assert decay.startswith("cosine(0.999, 1.0, len(loader))[it] (m set at train.py:")
    assert "schedule indexed by it" in decay
    assert "args.ema: default of argparse --ema at train.py:" in decay
    l1 = pick(items, "loss", "torch.nn.functional.l1_loss", "train.py", 16)
    assert l1["input"] == "boxes[keep]"
    # indexed by the loop counter, but built from no setting: a tensor, left as written
    mse = pick(items, "loss", "torch.nn.functional.mse_loss", "train.py", 22)
    assert mse["input"] == "boxes[it]"


# ------------------------------------------------------------------- one home for facts
def test_recipe_reads_the_scan_records_not_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recipe is built from what the scan's workers recorded: with every analysed file
    deleted after the scan, and parsing or reading a file made to fail, it is the same as
    the recipe built with the files in place (the fixture's optimizer groups, schedules,
    compositions, EMA and settings included, so every detector is exercised)."""
    import ast
    import shutil

    import apiscan.parsing
    import apiscan.source

    root = tmp_path / "tinydet"
    shutil.copytree(TINYDET, root)
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    expected = extract_recipe(result, analyses, root)
    assert {i.category for i in expected} >= {"optimizer", "scheduler", "augmentation", "ema"}
    for fa in analyses:
        (root / fa.path).unlink()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the recipe parsed or read a file")

    with monkeypatch.context() as patched:  # undone before a failure is reported
        for module, name in (
            (ast, "parse"),
            (apiscan.parsing, "parse_python"),
            (apiscan.source, "read_source_file"),
        ):
            patched.setattr(module, name, refuse)
        got = extract_recipe(result, analyses, root)
    assert got == expected


def test_initialisations_filling_tensors_the_same_way_are_one_row() -> None:
    """timm's 113 ``zeros_`` of biases are one row with its places, not 113 rows; an
    initialiser with other arguments stays its own row."""
    from apiscan.review.build import _grouped_rows
    from apiscan.review.model import Where

    def init(name: str, line: int, tensor: str, **how: str) -> RecipeItem:
        values = (("tensor", tensor), *how.items())
        return RecipeItem("init", name, Where("m.py", line), values)

    rows = (
        init("torch.nn.init.zeros_", 9, "m.bias"),
        init("torch.nn.init.normal_", 3, "m.weight", std="0.02"),
        init("torch.nn.init.zeros_", 4, "self.head.bias"),
        init("torch.nn.init.normal_", 5, "m.weight", std="0.01"),
        init("torch.nn.init.zeros_", 7, "m.bias"),
    )
    grouped = _grouped_rows(rows)
    zeros = [r for r in grouped if r.name == "torch.nn.init.zeros_"]
    assert len(zeros) == 1 and len(grouped) == 3
    assert zeros[0].where.line == 4
    assert zeros[0].values == (("tensor", "self.head.bias, m.bias"),)
    assert zeros[0].note == "3 places; also at m.py:7, m.py:9"


def test_a_composition_repeated_word_for_word_is_one_row() -> None:
    """A composition copied into each model's config file is one row naming its places; a
    composition with other values stays its own row."""
    from apiscan.review.build import _grouped_rows
    from apiscan.review.model import Where

    steps = (("1", "HorizontalFlip()"), ("2", "RandomCrop(320)"))
    copies = [
        RecipeItem("augmentation", "composition in train", Where(f"models/m{i}.py", 40), steps)
        for i in range(5)
    ]
    other = RecipeItem("augmentation", "composition in train", Where("models/x.py", 40), steps[:1])
    rows = (*copies, other)
    grouped = _grouped_rows(rows)
    assert len(grouped) == 2
    first = next(r for r in grouped if r.values == steps)
    assert first.where.path == "models/m0.py"
    assert first.note == (
        "5 places; also at models/m1.py:40, models/m2.py:40, models/m3.py:40 and 1 more places"
    )


HAND_AUGMENTED = {
    "data/dataset.py": """
        import random

        import cv2
        import numpy as np
        from torch.utils.data import Dataset


        class Segmentation(Dataset):
            def __init__(self, base_size=400, crop_size=380, flip=True):
                self.base_size = base_size
                self.crop_size = crop_size
                self.flip = flip

            def _augmentation(self, image, label):
                longside = random.randint(int(self.base_size * 0.5), int(self.base_size * 2.0))
                image = cv2.resize(image, (longside, longside))
                label = cv2.resize(label, (longside, longside))
                h, w = image.shape[:2]
                start_h = random.randint(0, h - self.crop_size)
                end_h = start_h + self.crop_size
                image = image[start_h:end_h, :]
                label = label[start_h:end_h, :]
                if self.flip and random.random() > 0.5:
                    image = np.fliplr(image).copy()
                image = image[:, :, ::-1]
                return image, label

            def __getitem__(self, i):
                image, label = np.zeros((8, 8, 3)), np.zeros((8, 8))
                return self._augmentation(image, label)
    """,
}


def test_a_pipeline_lists_its_crops_flips_and_the_amounts_drawn(tmp_path: Path) -> None:
    """A hand-written augmentation shows every step the image goes through (a crop by
    slicing, a flip through a method chain) and the random amounts the steps are drawn
    with; a coin flip already shown as a step's condition is not repeated, and a constant
    slice (a channel reversal) is no crop."""
    write_repo(tmp_path, HAND_AUGMENTED)
    rows = [
        i
        for i in recipe_of(tmp_path)
        if i.category == "augmentation" and i.name == "pipeline in Segmentation._augmentation"
    ]
    assert len(rows) == 1
    values = dict(rows[0].values)
    assert values["1"] == "cv2.resize(image, (longside, longside))"
    assert values["2"] == "image[start_h:end_h, :]"
    assert values["3"] == "np.fliplr(image).copy() (if self.flip and random.random() > 0.5)"
    assert "4" not in values
    assert values["draw 1"].startswith(
        "longside = random.randint(int(self.base_size * 0.5), int(self.base_size * 2.0))"
    )
    assert values["draw 2"].startswith("start_h = random.randint(0, h - self.crop_size)")
    assert "draw 3" not in values
    # the settings the draws read are left to the dataset's own rows (a config may give them)
    assert not any(k.startswith("self.") for k in values)


FABRIC_RUNS = {
    "train.py": """
        import torch
        from lightning import Fabric


        def main():
            fabric = Fabric(precision="bf16-mixed", strategy="ddp")
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
            model, optimizer = fabric.setup(model, optimizer)
            loss = model(torch.randn(2, 4)).sum()
            fabric.backward(loss)
            optimizer.step()
    """,
    "generate/base.py": """
        import torch
        from lightning import Fabric


        def main():
            fabric = Fabric(precision="16-true", strategy="ddp")
            model = fabric.setup(torch.nn.Linear(4, 4))
            return model(torch.randn(1, 4))
    """,
}


def _wrapper_rows(root: Path) -> list[tuple[str, str, dict]]:
    """(category, path, values) of the recipe's rows of a ``Fabric`` wrapper."""
    return [
        (i.category, i.where.path, dict(i.values))
        for i in recipe_of(root)
        if i.category in ("amp", "distributed") and "Fabric" in i.name
    ]


def test_a_wrapper_set_by_a_generation_script_is_no_training_setting(tmp_path: Path) -> None:
    """``Fabric(precision=...)`` in the training script is the run's precision (VALID); the
    one a generation script builds for itself trains nothing (INVALID)."""
    write_repo(tmp_path, FABRIC_RUNS)
    rows = _wrapper_rows(tmp_path)
    assert ("amp", "train.py", {"precision": '"bf16-mixed"'}) in rows
    assert not any(path.startswith("generate/") for _, path, _ in rows)


def test_a_wrapper_set_in_an_export_folder_is_no_training_setting(tmp_path: Path) -> None:
    """The folders the ported files leave out as export and deployment code (``export/``,
    ``onnx/``) train nothing either: a ``Fabric(precision=...)`` built there to trace the
    model is no setting of the run (INVALID), the training script's is (VALID)."""
    runs = dict(FABRIC_RUNS)
    runs["export/trace.py"] = runs.pop("generate/base.py")
    runs["onnx/convert.py"] = runs["export/trace.py"]
    write_repo(tmp_path, runs)
    rows = _wrapper_rows(tmp_path)
    assert ("amp", "train.py", {"precision": '"bf16-mixed"'}) in rows
    assert [path for _, path, _ in rows if path.startswith(("export/", "onnx/"))] == []
