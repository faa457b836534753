"""Classes of invented and missing items a migration lead found in reviews of real
repositories, each on a small repository written here."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review
from apiscan.review.gaps import is_custom_op
from apiscan.review.model import Review


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


NET = """\
import numpy as np
import torch
from torch import nn
import torchvision.models as tv_models


class learned_noise_schedule(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(1, 1)

    def forward(self, t):
        return self.net(t)


class Net(nn.Module):
    def __init__(self, arch):
        super().__init__()
        self.backbone = tv_models.__dict__[arch]()
        self.sched = learned_noise_schedule()
        self.sizes = np.arange(4).tolist()  # numpy at construction: no round trip

    def forward(self, x):
        return self.backbone(x)
"""

TRAIN = """\
import argparse

import torch
import torchvision.transforms as T
from timm.loss import LabelSmoothingCrossEntropy

import provider
from net import Net

LARGE_COST_VALUE = 100000


def main(args):
    model = Net(args.arch)
    student = torch.hub.load("org/zoo:main", args.arch, num_classes=0)
    teacher = torch.hub.load("org/zoo:main", args.arch, num_classes=0)
    criterion = LabelSmoothingCrossEntropy(smoothing=args.smoothing)
    tf = T.Compose([T.RandomResizedCrop(224), T.ToTensor()])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for points, target in []:
        points = provider.random_scale_point_cloud(points)
        loss = criterion(model(points), target)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet50")
    parser.add_argument("--smoothing", default=0.1, type=float)
    main(parser.parse_args())
"""

PROVIDER = """\
import numpy as np


def _jitter_helper(x):
    return x + np.random.randn(*x.shape)


def random_scale_point_cloud(x):
    return _jitter_helper(x) * np.random.uniform(0.8, 1.25)


def flip_helper(x):  # only this file calls it: a definition
    return x[::-1]


def rotate_all(x):
    return flip_helper(x)
"""

EVAL = """\
import torch
import torchvision.transforms as T
from torch.distributions import Categorical

from net import Net


def sample(logits):
    return Categorical(logits=logits).sample()


if __name__ == "__main__":
    tf = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor()])
    model = Net("resnet50")
"""

KERNELS = """\
import triton
import triton.language as tl


@triton.jit
def median_kernel(x_ptr, BLOCK: tl.constexpr):
    pass
"""


def _review(tmp_path: Path) -> Review:
    _write(
        tmp_path,
        {
            "net.py": NET,
            "train.py": TRAIN,
            "provider.py": PROVIDER,
            "eval_knn.py": EVAL,
            "triton_ops.py": KERNELS,
            "log/run1/net.py": NET,  # the training script's copy of the model
            "visualizer/render.cpp": "int main() { return 0; }\n",
        },
    )
    return build_review(str(tmp_path), jobs=1)


def test_invented_and_missing_items(tmp_path: Path) -> None:
    review = _review(tmp_path)
    recipe = {(i.category, i.name, i.where.path) for i in review.recipe}
    # a learned noise schedule is a network, never the LR schedule
    assert not [i for i in review.recipe if i.category == "scheduler"]
    # a sentinel constant is no loss weight; the third-party loss is the loss, with its value
    assert ("loss", "LARGE_COST_VALUE", "train.py") not in recipe
    loss = next(i for i in review.recipe if i.name == "timm.loss.LabelSmoothingCrossEntropy")
    assert dict(loss.values)["smoothing"].startswith("0.1")
    # the evaluation script's transforms preprocess; the training composition augments
    augment = {(name, path) for cat, name, path in recipe if cat == "augmentation"}
    assert ("composition in main", "train.py") in augment
    assert not [a for a in augment if a[1] == "eval_knn.py"]
    # a helper the training loop calls is an augmentation; one only its own file calls is not
    assert ("random_scale_point_cloud", "provider.py") in augment
    assert not [a for a in augment if a[0] in ("flip_helper", "_jitter_helper")]

    backbones = [w for w in review.work if w.kind == "pretrained-backbone"]
    assert [(w.what, len(w.where)) for w in backbones] == [
        ("torchvision.models.<arch>", 1),
        # student and teacher: one architecture, one set of weights, one item
        ('torch.hub.load("org/zoo:main", args.arch)', 2),
    ]
    # without pretrained=, the hub entry point's default decides (xcit's loads none)
    assert "the hub entry point's default" in backbones[1].why
    assert not [w for w in review.work if w.kind == "host-round-trip"]

    apart = dict(review.ancillary)
    assert apart["log/run1/net.py"] == "training output"
    assert [what for what, _ in review.extensions] == [
        "Triton kernel median_kernel (CUDA only: a fallback or a port)"
    ]
    assert "visualizer/render.cpp" not in {w.path for _, w in review.extensions}


def test_a_categorical_draw_is_a_composition_not_a_custom_op(tmp_path: Path) -> None:
    from apiscan.pipeline import ScanOptions, scan

    _write(tmp_path, {"eval_knn.py": EVAL, "net.py": NET})
    result = scan(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    draws = [f for f in result.api_findings if f.api.startswith("torch.distributions.")]
    assert draws and not [f for f in draws if is_custom_op(f)]


def test_a_model_extending_another_package_and_the_training_scripts_values(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "models_vit.py": (
                "import timm.models.vision_transformer\n\n"
                "class VisionTransformer(timm.models.vision_transformer.VisionTransformer):\n"
                "    def forward_features(self, x):\n"
                "        return x\n\n"
                "def vit_base(**kw):\n"
                "    return VisionTransformer(**kw)\n\n"
                "def configure(model, lr):\n"
                "    import torch\n"
                "    return torch.optim.AdamW(model.parameters(), lr=lr)\n"
            ),
            "train.py": (
                "import argparse\nimport models_vit\n\n"
                "parser = argparse.ArgumentParser()\n"
                "parser.add_argument('--model', default='vit_base')\n"
                "args = parser.parse_args()\n"
                "model = models_vit.__dict__[args.model]()\n"
                "optimizer = models_vit.configure(model, 6e-4)\n"
            ),
            "bench.py": "import models_vit\noptimizer = models_vit.configure(None, 1e-4)\n",
            "demo/mge/yolox.py": (  # another framework's model with a forward: not ours
                "import megengine.module as M\n\n"
                "class YOLOX(M.Module):\n"
                "    def forward(self, x):\n"
                "        return x\n"
            ),
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    top = review.top_models[0]
    assert top.cls == "models_vit.VisionTransformer"
    assert top.parts[1:] == (("extends", "timm.models.vision_transformer.VisionTransformer"),)
    assert [m.cls for m in review.modules] == ["models_vit.VisionTransformer"]
    optimizer = next(i for i in review.recipe if i.name == "torch.optim.AdamW")
    assert dict(optimizer.values)["lr"].startswith("6e-4")  # train.py's, not bench.py's
    (tmp_path / "train.py").write_text(  # the training call not resolved: no bench values
        (tmp_path / "train.py").read_text().replace("models_vit.configure(model, 6e-4)", "0")
    )
    review = build_review(str(tmp_path), jobs=1)
    # (the benchmark is a tool: whatever row its call leaves, none shows its values)
    assert dict(review.ancillary)["bench.py"] == "timing"
    optimizers = [i for i in review.recipe if i.name == "torch.optim.AdamW"]
    assert not any("1e-4" in dict(i.values).get("lr", "") for i in optimizers)


def test_an_instance_handed_on_as_a_transform_is_no_call_of_its_class(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "train.py": (
                "import argparse\nimport torch\nimport torchvision.transforms as T\n"
                "from torchvision.datasets import ImageFolder\n\n"
                "class Aug:\n"
                "    def __init__(self, scale):\n"
                "        self.t = T.Compose([T.RandomResizedCrop(224, scale=scale)])\n\n"
                "    def __call__(self, img):\n"
                "        return self.t(img)\n\n"
                "def main(args):\n"
                "    aug = Aug(args.scale)\n"
                "    data = ImageFolder(args.data, transform=aug)\n"
                "    optimizer = torch.optim.SGD([], lr=0.1)\n\n"
                "parser = argparse.ArgumentParser()\n"
                "parser.add_argument('--scale', default=(0.4, 1.0))\n"
                "parser.add_argument('--data', default='/path/to/train')\n"
                "main(parser.parse_args())\n"
            )
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    composition = next(i for i in review.recipe if i.name == "composition in __init__")
    crop = dict(composition.values)["1"]
    assert "(0.4, 1.0)" in crop and "/path/to/train" not in crop


def test_a_repository_cross_entropy_class_is_a_loss(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "losses.py": (
                "from torch import nn\n\n"
                "class LabelSmoothingCrossEntropy(nn.Module):\n"
                "    def __init__(self, smoothing=0.1):\n"
                "        super().__init__()\n"
                "        self.smoothing = smoothing\n\n"
                "    def forward(self, x, target):\n"
                "        return x.mean()\n"
            ),
            "train.py": (
                "import torch\nfrom losses import LabelSmoothingCrossEntropy\n"
                "loss_fn = LabelSmoothingCrossEntropy(smoothing=0.2)\n"
                "optimizer = torch.optim.SGD([], lr=0.1)\n"
            ),
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    loss = next(i for i in review.recipe if i.name == "losses.LabelSmoothingCrossEntropy")
    assert (loss.category, dict(loss.values)["smoothing"]) == ("loss", "0.2")


def test_a_notebook_that_trains_nothing_is_no_recipe(tmp_path: Path) -> None:
    import json

    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    notebook = {
        "cells": [{**cell, "source": ["batch_size = 20 * 5\n"]}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    _write(
        tmp_path,
        {
            "sizing.ipynb": json.dumps(notebook),
            "train.py": "import torch\nbatch_size = 12\noptimizer = torch.optim.SGD([], lr=0.1)\n",
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    sizes = [
        (i.where.path, dict(i.values)["value"]) for i in review.recipe if i.name == "batch_size"
    ]
    assert sizes == [("train.py", "12")]


def test_a_composed_package_through_a_relative_import_has_no_rows_by_name(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/transforms/__init__.py": "from .impl import RandomFlip, ResizeShortestEdge\n",
            "pkg/transforms/impl.py": (
                "class Augmentation:\n    pass\n\n"
                "class RandomFlip(Augmentation):\n    pass\n\n"
                "class ResizeShortestEdge(Augmentation):\n    pass\n"
            ),
            "pkg/utils.py": (
                "from . import transforms as T\n\n"
                "def build_augmentation(cfg):\n"
                "    augmentation = [T.ResizeShortestEdge()]\n"
                "    augmentation.append(T.RandomFlip())\n"
                "    return augmentation\n"
            ),
            "train.py": (
                "import torch\nfrom pkg.utils import build_augmentation\n"
                "augs = build_augmentation(None)\n"
                "optimizer = torch.optim.SGD([], lr=0.1)\n"
            ),
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    augment = [i for i in review.recipe if i.category == "augmentation"]
    assert [i.name for i in augment] == ["composition in build_augmentation"]
    assert [v for _, v in augment[0].values] == ["ResizeShortestEdge()", "RandomFlip()"]


def test_model_words_that_look_like_recipe_words(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "scaler.py": (
                "class DynamicLossScaler:\n"
                "    def __init__(self, init_scale=2.0**15):\n"
                "        self.loss_scale = init_scale\n\n"
                "    def _decrease_loss_scale(self):\n"
                "        self.loss_scale /= 2\n"
            ),
            "data.py": (
                "from torch.utils.data import Dataset\n\n"
                "class TransformEosDataset(Dataset):\n"
                "    def __getitem__(self, i):\n"
                "        return i\n\n"
                "    def __len__(self):\n"
                "        return 1\n"
            ),
            "train.py": (
                "import argparse\nimport torch\n"
                "from scaler import DynamicLossScaler\nfrom data import TransformEosDataset\n"
                "parser = argparse.ArgumentParser()\n"
                "parser.add_argument('--augmented-cross-attention', action='store_true')\n"
                "scaler = DynamicLossScaler()\nscaler._decrease_loss_scale()\n"
                "data = TransformEosDataset()\n"
                "optimizer = torch.optim.SGD([], lr=0.1)\n"
            ),
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    assert not [i.name for i in review.recipe if i.category in ("loss", "augmentation")]


def test_an_initialiser_is_never_a_custom_op(tmp_path: Path) -> None:
    from apiscan.pipeline import ScanOptions, scan

    _write(
        tmp_path,
        {
            "net.py": (
                "from torch import nn\n\n"
                "class Conv(nn.Conv1d):\n"
                "    def __init__(self):\n"
                "        super().__init__(2, 2, 3)\n"
                "        nn.init.dirac_(self.weight)\n"
            )
        },
    )
    result = scan(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    inits = [f for f in result.api_findings if f.api == "torch.nn.init.dirac_"]
    assert inits and not [f for f in inits if is_custom_op(f)]


BOXES = """\
import numpy as np
import torch
from torch import nn


def convert(box):
    # a host box put through torch and handed back as numpy: no device round trip
    is_numpy = isinstance(box, np.ndarray)
    arr = torch.from_numpy(np.asarray(box)).clone() if is_numpy else box.clone()
    arr[:, 2] += arr[:, 0]
    return arr.numpy() if is_numpy else arr


def assign(cost):
    # a tensor taken to the host, matched there and brought back: a round trip
    rows = np.argmin(cost.detach().cpu().numpy(), axis=1)
    return torch.as_tensor(rows)


class Head(nn.Module):
    def forward(self, x):
        return assign(convert(x) @ x.t())
"""

EVAL_TIME = """\
import torch
import torchvision.transforms as T

from boxes import Head


class ValTransform:
    def __call__(self, img):
        return img


def build_eval_transform():
    return T.Compose([T.Resize(256), T.CenterCrop(224)])


def main(no_aug):
    model = Head()
    train_tf = T.Compose([T.RandomHorizontalFlip(), T.ToTensor()])
    if no_aug:
        train_tf = close_mosaic()
    val_tf = ValTransform()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer.step()


def close_mosaic():
    return None
"""


def test_a_host_value_through_torch_and_evaluation_transforms(tmp_path: Path) -> None:
    _write(tmp_path, {"boxes.py": BOXES, "data/train.py": EVAL_TIME})
    review = build_review(str(tmp_path), jobs=1)
    trips = [w.what for w in review.work if w.kind == "host-round-trip"]
    assert trips == ["assign: numpy.argmin"]
    augment = {(i.name, i.where.line) for i in review.recipe if i.category == "augmentation"}
    # the training composition augments; the evaluation function's and ValTransform do not
    assert ("composition in main", 18) in augment
    assert not [a for a in augment if a[1] in (13, 21)]
    # a switch no epoch test guards turns augmentation off for the whole run
    names = {name for name, _ in augment}
    assert "training without augmentation" in names
    assert "last epochs without augmentation" not in names


SCHEDULES = """\
import numpy as np
import torch


def cosine_scheduler(base_value, final_value, epochs, warmup_epochs=0):
    return np.linspace(base_value, final_value, epochs)


def cosine_beta_schedule(timesteps):
    return np.linspace(0.0001, 0.02, timesteps)


def adjust_learning_rate(optimizer, epoch, base):
    for group in optimizer.param_groups:
        group["lr"] = base * 0.5 * (1.0 + np.cos(np.pi * epoch / 100))


def main(model, lr=5e-4):
    optimizer = torch.optim.AdamW(model.parameters())
    lr_schedule = cosine_scheduler(lr, 1e-6, 100, warmup_epochs=10)
    wd_schedule = cosine_scheduler(0.04, 0.4, 100)
    momentum_schedule = cosine_scheduler(0.996, 1, 100)
    betas = cosine_beta_schedule(1000)
    for it in range(100):
        optimizer.param_groups[0]["lr"] = lr_schedule[it]
        adjust_learning_rate(optimizer, it / 10, lr)
        optimizer.step()
"""


def test_a_schedule_function_is_the_lr_schedule_it_is_stored_as(tmp_path: Path) -> None:
    _write(tmp_path, {"train.py": SCHEDULES})
    review = build_review(str(tmp_path), jobs=1)
    rows = [i for i in review.recipe if i.category == "scheduler"]
    # the LR's; the EMA momentum's and the noise schedule are not
    assert [(i.where.line, i.note.partition(",")[0]) for i in rows] == [
        (20, "stored as lr_schedule"),
        # MAE's half-cycle cosine, set in the loop by a call that returns nothing
        (26, "sets the LR where it is called"),
    ]
    # the weight decay's is a row of its own
    decay = [i for i in review.recipe if i.category == "wd_schedule"]
    assert [(i.where.line, i.note.partition(",")[0]) for i in decay] == [
        (21, "stored as wd_schedule")
    ]
    assert dict(rows[0].values)["warmup_epochs"] == "10"


REGISTRY = """\
from torch import nn

MODELS = {}


def register_model(name):
    def wrap(cls):
        MODELS[name] = cls
        return cls

    return wrap


def register_model_architecture(model, arch):
    def wrap(fn):
        return fn

    return wrap


class Decoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)


@register_model("conv")
class ConvModel(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder


@register_model("lm")
class LanguageModel(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder

    @classmethod
    def build_model(cls, args):
        decoder = Decoder(args.dim)
        return cls(decoder)


@register_model("other")
class OtherModel(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder


@register_model_architecture("lm", "lm_big")
def lm_big(args):
    args.dim = 1024


@register_model_architecture("lm", "lm_small")
def lm_small(args):
    args.dim = 256


@register_model_architecture("conv", "conv_small")
def conv_small(args):
    args.dim = 256


class ModuleProxyWrapper(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module


class ModelEmaV3(nn.Module):
    def __init__(self, model, decay=0.9998):
        super().__init__()
        self.module = model


class ClassificationTask(nn.Module):
    def __init__(self, model, criterion):
        super().__init__()
        self.model = model
        self.criterion = criterion


class MultiCropWrapper(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone, self.head = backbone, head


def wrap(args, model):
    student = MultiCropWrapper(Decoder(args.dim), Decoder(args.dim))
    ema = ModelEmaV3(model)
    task = ClassificationTask(model, nn.CrossEntropyLoss())
    return ModuleProxyWrapper(model)
"""

REGISTRY_TRAIN = """\
import argparse

import torch

from models import MODELS, wrap


def main(args):
    model = MODELS[args.arch].build_model(args)
    model = wrap(args, model)
    torch.optim.SGD(model.parameters(), lr=0.1).step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", required=True)
    main(parser.parse_args())
"""


def test_a_model_named_only_at_run_time_and_a_wrapper(tmp_path: Path) -> None:
    _write(tmp_path, {"models.py": REGISTRY, "train.py": REGISTRY_TRAIN})
    review = build_review(str(tmp_path), jobs=1)
    # no default name: the registered model with the most architectures, said so
    top = review.top_models[0]
    assert top.cls == "models.LanguageModel"
    assert "run time" in dict(top.parts)["selected by"]
    assert dict(top.parts)["decoder"].startswith("Decoder")
    # a proxy, an EMA copy or a task pairing the model with its loss is no top model
    wrappers = ("ModuleProxyWrapper", "ModelEmaV3", "ClassificationTask")
    assert not [m for m in review.top_models if m.cls.endswith(wrappers)]
    # DINO's MultiCropWrapper is built of a backbone and a head: a model
    assert "models.MultiCropWrapper" in {m.cls for m in review.top_models}


def test_a_process_setting_is_no_custom_op() -> None:
    from apiscan.model import ApiFinding, Span

    def finding(api: str) -> ApiFinding:
        return ApiFinding(
            path="net.py", span=Span(1, 0, 1, 1), api=api, status="missing",
            mindspore_api=None, confidence="high", note="", usage="call",
            namespace="torch", disposition="custom-op", scope="network",
        )  # fmt: skip

    # detectron2 sets the matmul precision once: a context option, no operator to write
    assert not is_custom_op(finding("torch.set_float32_matmul_precision"))
    assert not is_custom_op(finding("torch.get_float32_matmul_precision"))
    assert is_custom_op(finding("torchvision.ops.RoIPool"))
    # whisper's sliding-window median and sparse mask buffer: compositions, not operators
    assert not is_custom_op(finding("torch.Tensor.unfold"))
    assert not is_custom_op(finding("torch.Tensor.to_sparse"))
    # fairseq's and timm's: a constructor, an initialiser, formulas, RNN packing
    for api in (
        "torch.nn.Embedding.from_pretrained",
        "torch.nn.Linear.reset_parameters",
        "torch.nn.functional.instance_norm",
        "torch.nn.functional.rms_norm",
        "torch.nn.utils.rnn.pack_padded_sequence",
        "torchvision.ops.FrozenBatchNorm2d",
        "torch.distributions.Distribution.sample",
    ):
        assert not is_custom_op(finding(api)), api


DIFFUSION = """\
import torch
from torch import nn


class Unet(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv = nn.Conv2d(3, dim, 3)
        self.out = nn.Conv2d(dim, 3, 3)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=1000):
        super().__init__()
        self.model = model


if __name__ == "__main__":
    model = Unet(dim=64)
    diffusion = GaussianDiffusion(model, timesteps=1000)
    loss = diffusion(torch.randn(8, 3, 128, 128))
    loss.backward()
"""


def test_a_model_a_script_builds_in_its_module_code(tmp_path: Path) -> None:
    _write(tmp_path, {"diffusion.py": DIFFUSION})
    review = build_review(str(tmp_path), jobs=1)
    # the example under `if __name__ == "__main__"` injects the Unet into the diffusion
    top = review.top_models[0]
    assert (top.cls, top.builder, top.parts) == (
        "diffusion.GaussianDiffusion",
        "",
        (("model", "Unet (model)"),),
    )


LAUNCH = """\
import argparse

from trainer import fit

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", default=64)
    fit(parser.parse_args())
"""

TRAINER = """\
import torch


def fit(args):
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    model(torch.ones(args.batch_size, 2)).sum().backward()
    optimizer.step()
"""


def test_a_launcher_is_the_recipe_an_evaluation_script_is_not(tmp_path: Path) -> None:
    # YOLOX: tools/train.py only parses options and hands them to the trainer
    _write(
        tmp_path,
        {"tools/train.py": LAUNCH, "tools/eval.py": LAUNCH, "trainer.py": TRAINER},
    )
    review = build_review(str(tmp_path), jobs=1)
    sizes = {i.where.path for i in review.recipe if i.category == "batch_size"}
    assert sizes == {"tools/train.py"}


LAZY_DATA = """
import lazylib.transforms as T
from lazylib.config import LazyCall as L
from lazylib.data import DatasetMapper, build_detection_train_loader

dataloader = {}
dataloader["train"] = L(build_detection_train_loader)(
    mapper=L(DatasetMapper)(
        is_train=True,
        augmentations=[
            L(T.ResizeShortestEdge)(
                short_edge_length=(640, 672, 704, 736, 768, 800),
                sample_style="choice",
                max_size=1333,
            ),
            L(T.RandomFlip)(horizontal=True),
        ],
    ),
    total_batch_size=16,
)
dataloader["test"] = L(build_detection_train_loader)(
    mapper=L(DatasetMapper)(
        is_train=False,
        augmentations=[L(T.ResizeShortestEdge)(short_edge_length=800, max_size=1333)],
    ),
)
"""

LAZY_TRAIN = """
import torch

from net import Net


def main():
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02)
    for x in range(3):
        loss = model(torch.zeros(1, 3)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""

LAZY_NET = """
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)
"""


def test_a_lazy_configs_multi_scale_training_is_an_input_pipeline(tmp_path: Path) -> None:
    """detectron2's lazy configs hand the training mapper a shortest-edge resize over six
    sizes: the recipe shows the composition, and the effort counts a multi-scale pipeline."""
    lazylib = {  # the library the config defers calls to (detectron2's own, in its repo)
        "lazylib/__init__.py": "",
        "lazylib/config.py": "def LazyCall(target):\n    return target\n",
        "lazylib/transforms.py": "class ResizeShortestEdge:\n    pass\n\n\n"
        "class RandomFlip:\n    pass\n",
        "lazylib/data.py": "class DatasetMapper:\n    pass\n\n\n"
        "def build_detection_train_loader(mapper):\n    return mapper\n",
    }
    files = {"configs/data.py": LAZY_DATA, "train.py": LAZY_TRAIN, "net.py": LAZY_NET}
    _write(tmp_path, files | lazylib)
    review = build_review(str(tmp_path), jobs=1)
    rows = [i for i in review.recipe if i.name.startswith("composition in dataloader")]
    assert [(i.name, i.where.line) for i in rows] == [('composition in dataloader["train"]', 8)]
    assert dict(rows[0].values) == {
        "1": "T.ResizeShortestEdge(short_edge_length=(640, 672, 704, 736, 768, 800), "
        'sample_style="choice", max_size=1333)',
        "2": "T.RandomFlip(horizontal=True)",
    }
    assert review.effort.input_shape_rewrites == 1
    assert any(
        "configs/data.py:multi-scale ResizeShortestEdge" in line
        for line in review.effort.explanation
    ), review.effort.explanation
