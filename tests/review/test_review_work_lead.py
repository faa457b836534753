"""Work items a migration lead lists and those a lead calls invented, one class each, on small
repositories written here: a torch computation inside the data pipeline (a blur transform
built from ``nn.Conv2d`` in a ``Compose``), a layer built inside ``forward``, and parameters
MindSpore lacks whose only effect is in place (``inplace=True``) beside ones that change
the result (``antialias=True``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.model import ParamChange
from apiscan.review.build import build_review
from apiscan.review.gaps import CROPPED_AFTER
from apiscan.review.model import Review
from apiscan.review.work import memory_only

TRAIN = """
    import torch
    from torch.utils.data import DataLoader
    from torchvision import datasets

    from data_aug.pipeline import train_transform
    from model import Net, set_bn_momentum


    def main():
        ds = datasets.CIFAR10("data", train=True, transform=train_transform(32))
        loader = DataLoader(ds, batch_size=8, shuffle=True)
        net = Net()
        set_bn_momentum(net, momentum=0.01)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""

MODEL = """
    import torch
    import torch.nn.functional as F
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.act = nn.LeakyReLU(0.1, inplace=True)
            self.drop = nn.Dropout(0.1, inplace=True)
            self.fc = nn.Linear(8, 10)

        def forward(self, x):
            x = self.drop(self.act(self.conv(x)))
            x = F.interpolate(x, scale_factor=0.5, mode="bilinear", antialias=True)
            gate = nn.Sigmoid()
            x = x * gate(x)
            return self.fc(x.mean((2, 3)))

        def forward_features(self, x):
            return nn.Sigmoid()(self.conv(x))

        def make_head(self):
            return nn.Sigmoid()


    def set_bn_momentum(model, momentum=0.1):
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.momentum = momentum


    def never_called(model):
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.momentum = 0.5


    class Averager:
        def __init__(self, model):
            self.bn = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
            self.momentum = 0.9
"""


@pytest.fixture(scope="module")
def blur(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = tmp_path_factory.mktemp("blur")
    write_repo(
        root,
        {
            "train.py": TRAIN,
            "model.py": MODEL,
            "data_aug/__init__.py": "",
            # the blur: torch layers built in a plain class and run per sample in __call__
            "data_aug/blur.py": """
                import numpy as np
                import torch
                from torch import nn
                from torchvision import transforms


                class GaussianBlur(object):
                    def __init__(self, kernel_size):
                        self.conv = nn.Conv2d(3, 3, (kernel_size, 1), bias=False, groups=3)
                        self.blur = nn.Sequential(nn.ReflectionPad2d(1), self.conv)
                        self.to_tensor = transforms.ToTensor()

                    def __call__(self, img):
                        x = self.to_tensor(img).unsqueeze(0)
                        w = torch.from_numpy(np.ones(3)).view(3, 1, 3, 1)
                        self.conv.weight.data.copy_(w)
                        with torch.no_grad():
                            return self.blur(x).squeeze()
            """,
            # a plain transform with no torch computation: only a conversion
            "data_aug/convert.py": """
                import numpy as np
                import torch


                class ToArray(object):
                    def __call__(self, img):
                        return torch.from_numpy(np.asarray(img, dtype=np.float32))
            """,
            # a helper class that builds a layer but is no transform
            "data_aug/unused.py": """
                from torch import nn


                class Smoother(object):
                    def __init__(self):
                        self.pool = nn.AvgPool2d(3)
            """,
            # a variant model nothing imports, with its own self-test: not ported
            "data_aug/light.py": """
                import torch
                from torch import nn


                class LightNet(nn.Module):
                    def forward(self, x):
                        return nn.Sigmoid()(x.size(0) * x)


                if __name__ == "__main__":
                    print(LightNet()(torch.zeros(1, 3, 8, 8)).shape)
            """,
            "data_aug/pipeline.py": """
                from torchvision import transforms

                from data_aug.blur import GaussianBlur
                from data_aug.convert import ToArray
                from data_aug.unused import Smoother


                def train_transform(size):
                    Smoother()
                    return transforms.Compose([
                        transforms.RandomResizedCrop(size=size),
                        GaussianBlur(kernel_size=3),
                        ToArray(),
                    ])
            """,
        },
    )
    return build_review(str(root), jobs=1)


def _work(review: Review, kind: str) -> dict[str, list[str]]:
    return {i.what: [str(w) for w in i.where] for i in review.work if i.kind == kind}


def test_a_transform_computing_with_torch_layers_is_a_data_pipeline_item(blur: Review) -> None:
    items = _work(blur, "data-torch-op")
    # VALID: the blur's layers, built in __init__ and run in __call__, inside the Compose
    assert items == {
        "GaussianBlur: torch.nn.Conv2d, torch.nn.ReflectionPad2d, torch.nn.Sequential": [
            "data_aug/blur.py:9",
            "data_aug/blur.py:10",
            "data_aug/pipeline.py:12",
        ],
    }
    item = next(i for i in blur.work if i.kind == "data-torch-op")
    assert "mindspore.dataset" in item.why and "NumPy" in item.why
    assert "1 data-torch-op × 0.5–1" in blur.effort.formula
    # INVALID: a conversion (ToArray's from_numpy) and a class built outside the composition
    # (Smoother's AvgPool2d) are no such item
    assert not any("ToArray" in w or "Smoother" in w for w in items)
    # the blur's layers and calls are the item's work, not the network's nor rewrites apart
    gaps = {str(w) for g in blur.gaps for w in g.where}
    assert not any(w.startswith("data_aug/blur.py") for w in gaps)
    explained = " ".join(blur.effort.explanation)
    assert "data_aug/blur.py" not in explained
    rows = {d: n for d, _, n, _ in blur.effort.by_disposition}
    assert rows["idiom"] >= 1  # the training loop's idioms are still counted


def test_a_layer_built_in_forward_is_a_cell_built_in_construct(blur: Review) -> None:
    items = _work(blur, "cell-in-construct")
    # VALID: forward and forward_features build nn.Sigmoid on each call; one item per layer
    assert items == {
        "torch.nn.Sigmoid built in Net.forward, Net.forward_features": [
            "model.py:17",
            "model.py:22",
        ]
    }
    # INVALID: a builder method (make_head) and __init__ build layers once: no item
    assert "model.py:25" not in items["torch.nn.Sigmoid built in Net.forward, Net.forward_features"]
    assert "2 cell-in-construct" not in blur.effort.formula
    assert "1 cell-in-construct × 0.1–0.2" in blur.effort.formula


def test_a_model_module_nothing_imports_is_counted_apart_with_its_gaps(blur: Review) -> None:
    # its __main__ only tries the model out: no script, nothing imports it
    assert dict(blur.ancillary)["data_aug/light.py"] == "unused (nothing imports it)"
    # its forward's Sigmoid and x.size(0) are no work item and no gap of the port
    assert not any("LightNet" in i.what for i in blur.work)
    assert not any(w.path == "data_aug/light.py" for g in blur.gaps for w in g.where)


def test_memory_only_parameters_are_one_low_effort_note_per_parameter(blur: Review) -> None:
    memory = _work(blur, "memory-param")
    params = _work(blur, "unsupported-param")
    # VALID: antialias=True changes the result: it stays an unsupported-parameter item
    assert list(params) == ["torch.nn.functional.interpolate(antialias=True)"]
    # inplace=True on LeakyReLU is one note line (Dropout's newest row is consistent: the
    # call hits no unsupported parameter, so it is not listed)
    assert memory == {"inplace=True: torch.nn.LeakyReLU": ["model.py:10"]}
    item = next(i for i in blur.work if i.kind == "memory-param")
    assert "same values" in item.why and "drop it" in item.why
    # its effort is a check, not a port
    assert "1 memory-param × 0.02–0.04" in blur.effort.formula
    assert "unsupported-param × 0.5–1" in blur.effort.formula
    assert not any("inplace" in w for w in params)


def test_memory_only_reads_the_mapping_difference_data() -> None:
    note = "Whether to make this operation in-place"
    assert memory_only(ParamChange("inplace", "unsupported", note=note))
    assert memory_only(ParamChange("inplace", "unsupported", note=""))  # Dropout's row
    # the row's own sentence names the parameter (ELU: "MindSpore has no parameter inplace.")
    elu = "Consistent functions, MindSpore has no parameter inplace."
    assert memory_only(ParamChange("inplace", "unsupported", note=elu))
    # INVALID: parameters that select what is computed, and a renamed one
    antialias = "Consistent functions, MindSpore has no parameter antialias."
    assert not memory_only(ParamChange("antialias", "unsupported", note=antialias))
    assert not memory_only(ParamChange("align_corners", "unsupported", note="Corner pixels"))
    assert not memory_only(ParamChange("inplace", "renamed", "in_place"))


SCALE = """
    import random

    import torchvision.transforms.functional as F


    class RandomScale(object):
        def __init__(self, scale_range):
            self.scale_range = scale_range

        def __call__(self, img):
            scale = random.uniform(self.scale_range[0], self.scale_range[1])
            target_size = (int(img.size[1] * scale), int(img.size[0] * scale))
            return F.resize(img, target_size)


    class RandomCrop(object):
        def __init__(self, size, pad_if_needed=False):
            self.size = size
            self.pad_if_needed = pad_if_needed

        def __call__(self, img):
            return F.center_crop(img, self.size)
"""


def _scaled(root: Path, crop: str) -> Review:
    write_repo(
        root,
        {
            "train.py": TRAIN,
            "model.py": MODEL,
            "data_aug/__init__.py": "",
            "data_aug/scale.py": SCALE,
            "data_aug/pipeline.py": f"""
                from torchvision import transforms

                from data_aug.scale import RandomCrop, RandomScale


                def train_transform(size):
                    return transforms.Compose([
                        RandomScale((0.5, 2.0)),
                        {crop}
                        transforms.ToTensor(),
                    ])
            """,
        },
    )
    return build_review(str(root), jobs=1)


def test_a_random_scale_cropped_to_a_fixed_size_is_no_input_pipeline(tmp_path: Path) -> None:
    # VALID: DeepLabV3+'s ExtRandomScale then ExtRandomCrop(size=513, pad_if_needed=True):
    # every batch has one shape
    review = _scaled(tmp_path, "RandomCrop(size=(size, size), pad_if_needed=True),")
    assert review.effort.input_shape_rewrites == 0
    assert "input-shape" not in review.effort.formula
    # the scan's finding itself stays listed, saying the crop after it fixes the shape
    (message,) = [m for _, rule, _, m in review.dynamic_shape if rule == "DS119"]
    assert message.endswith(CROPPED_AFTER)


def test_a_random_scale_with_no_fixed_crop_after_it_is_an_input_pipeline(tmp_path: Path) -> None:
    # INVALID: nothing after the scale fixes the size
    review = _scaled(tmp_path, "")
    assert review.effort.input_shape_rewrites == 1
    assert "1 input-shape × 1.5–3" in review.effort.formula
    (message,) = [m for _, rule, _, m in review.dynamic_shape if rule == "DS119"]
    assert CROPPED_AFTER not in message


def test_batch_norm_momentum_written_on_the_layers_is_an_item(blur: Review) -> None:
    # VALID: set_bn_momentum writes m.momentum on the BatchNorm layers it picks out
    assert _work(blur, "bn-momentum") == {
        "BatchNorm momentum written as an attribute: m.momentum = momentum": ["model.py:31"]
    }
    item = next(i for i in blur.work if i.kind == "bn-momentum")
    assert "1 − PyTorch's" in item.why
    assert "1 bn-momentum × 0.1–0.2" in blur.effort.formula
    # INVALID: a function nothing calls (model.py:37) and an object's own self.momentum
    # (model.py:43) are not listed
    assert item.where == (item.where[0],)


_CONVERTER = """
    import torch
    from torch import nn


    class VitNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 10)

        def forward(self, x):
            return self.fc(x)


    def load_flax_weights(model, path):
        import jax.numpy as jnp  # only to read a Flax checkpoint's bfloat16 arrays

        return jnp.load(path)
"""


def _converter(root: Path, source: str) -> str:
    """Why the review counts ``vit.py`` (a model file the training does not import) apart."""
    write_repo(root, {"train.py": TRAIN, "model.py": MODEL, "vit.py": source})
    write_repo(root, {"data_aug/__init__.py": "", "data_aug/scale.py": SCALE})
    write_repo(root, {"data_aug/pipeline.py": "def train_transform(size):\n    return None\n"})
    return dict(build_review(str(root), jobs=1).ancillary).get("vit.py", "")


def test_a_framework_imported_in_one_helper_of_a_model_file_is_no_adapter(
    tmp_path: Path,
) -> None:
    # VALID: timm's vision_transformer.py imports jax inside the helper reading Flax weights
    assert not _converter(tmp_path, _CONVERTER).startswith("adapter for")


def test_a_framework_imported_at_module_level_makes_an_adapter(tmp_path: Path) -> None:
    # INVALID: the same model file importing jax at its top is an adapter for jax
    eager = "import jax.numpy as jnp\n" + textwrap.dedent(
        _CONVERTER.replace("import jax.numpy as jnp  #", "#")
    )
    assert _converter(tmp_path, eager).startswith("adapter for jax")


def _zoo_backbone(root: Path, default: str) -> list[str]:
    """The backbone items of a training script building a timm model with weights asked for
    through an option (T2T-ViT's ``pretrained=args.pretrained``)."""
    write_repo(
        root,
        {
            "train.py": f"""
                import argparse

                import timm
                import torch

                parser = argparse.ArgumentParser()
                parser.add_argument("--pretrained", default={default})


                def main():
                    args = parser.parse_args()
                    model = timm.create_model("resnet50", pretrained=args.pretrained)
                    opt = torch.optim.SGD(model.parameters(), lr=0.1)
                    loss = model(torch.zeros(1, 3, 8, 8)).sum()
                    loss.backward()
                    opt.step()


                if __name__ == "__main__":
                    main()
            """,
        },
    )
    review = build_review(str(root), jobs=1)
    return [f"{i.kind}: {i.what} / {i.why}" for i in review.work if "backbone" in i.kind]


def test_weights_asked_for_with_an_option_off_by_default_are_no_weights(tmp_path: Path) -> None:
    # VALID: ``--pretrained`` defaults to False: the architecture only
    (item,) = _zoo_backbone(tmp_path, "False")
    assert "pretrained=args.pretrained" not in item
    assert "architecture only: args.pretrained is False" in item


def test_weights_asked_for_with_an_option_on_by_default_are_converted(tmp_path: Path) -> None:
    # INVALID: ``--pretrained`` defaults to True: the weights are loaded and converted
    (item,) = _zoo_backbone(tmp_path, "True")
    assert "pretrained=args.pretrained" in item
    assert "architecture only" not in item
