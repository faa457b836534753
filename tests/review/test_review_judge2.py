"""Work items read with a lead's eye on repositories new to the project (moco-v3,
pytorch-segmentation): what a backbone item is called, backbones built through
``functools.partial``, one item per architecture family, verify commands a CPU cannot run."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown
from apiscan.review.model import (
    BACKBONE_ARCHITECTURE,
    HUB_BACKBONE,
    Where,
    WorkItem,
    work_label,
)


def _item(what: str) -> WorkItem:
    return WorkItem("pretrained-backbone", what, (Where("m.py", 1),), "why")


def test_a_backbone_without_weights_is_labelled_an_architecture() -> None:
    # VALID: weights asked for, by keyword, by the hub or by URL: a pretrained backbone
    for what in (
        "torchvision.models.resnet50(pretrained=True)",
        "torchvision.models.resnet50(weights=ResNet50_Weights.DEFAULT)",
        "torch.hub.load('x/y', 'm', pretrained weights)",
        "pretrained weights downloaded by URL: torch.utils.model_zoo.load_url(url)",
    ):
        assert work_label(_item(what)) == "Pretrained backbone", what
    # INVALID: no weights: the architecture alone; a hub entry point decides itself
    assert work_label(_item("torchvision.models.<args.arch>")) == BACKBONE_ARCHITECTURE
    assert (
        work_label(_item("timm.models.vision_transformer.VisionTransformer (extended by V)"))
        == BACKBONE_ARCHITECTURE
    )
    assert work_label(_item("torch.hub.load('x/y', 'm')")) == HUB_BACKBONE
    other = WorkItem("checkpoint", "torch.load", (Where("m.py", 1),), "why")
    assert work_label(other) == "Checkpoint loading"


def test_the_review_heads_a_weightless_backbone_as_an_architecture(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torchvision.models as models

                def build(arch):
                    return models.__dict__[arch]()
            """
        },
    )
    text = render_markdown(build_review(str(tmp_path)))
    assert f"| {BACKBONE_ARCHITECTURE} | `torchvision.models.<arch>` |" in text
    assert "| Pretrained backbone |" not in text


def test_a_backbone_bound_by_functools_partial_is_one_item_with_the_direct_call(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            "main_train.py": """
                from functools import partial
                import functools
                import torchvision.models as tvm
                import mine

                def build(args):
                    # VALID: the constructor the partial binds, called later
                    enc = partial(tvm.__dict__[args.arch], zero_init_residual=True)
                    # INVALID: a partial of the repository's own constructor
                    own = functools.partial(mine.__dict__[args.arch], depth=3)
                    return enc, own
            """,
            "main_eval.py": """
                import torchvision.models as tvm

                def build(args):
                    return tvm.__dict__[args.arch]()
            """,
            "mine.py": "def net(depth):\n    return depth\n",
        },
    )
    items = [w for w in build_review(str(tmp_path)).work if w.kind == "pretrained-backbone"]
    assert [(w.what, [str(p) for p in w.where]) for w in items] == [
        ("torchvision.models.<args.arch>", ["main_eval.py:4", "main_train.py:8"])
    ]


def test_a_constructor_picked_by_name_joins_the_family_its_values_reach(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "models/psp.py": """
                from torchvision import models

                class PSP:
                    def __init__(self, backbone='resnet152', pretrained=True):
                        self.net = getattr(models, backbone)(pretrained)

                class Small:
                    def __init__(self, pretrained=True):
                        self.net = models.resnet50(pretrained=pretrained)
                        self.vgg = models.vgg16(pretrained)

                def build():
                    return PSP(backbone='resnet101')
            """,
            # INVALID: a name whose values reach no family item stays its own item
            "models/other.py": """
                from torchvision import models

                def make(arch_name='mobilenet_v2'):
                    return getattr(models, arch_name)()
            """,
        },
    )
    items = [w for w in build_review(str(tmp_path)).work if w.kind == "pretrained-backbone"]
    whats = sorted(w.what for w in items)
    assert whats == [
        "torchvision.models.<arch_name>",
        "torchvision.models.resnet50 | <backbone>(pretrained=pretrained)",
        "torchvision.models.vgg16(pretrained=pretrained)",
    ]
    resnet = next(w for w in items if w.what.startswith("torchvision.models.resnet50"))
    assert [str(w) for w in resnet.where] == ["models/psp.py:5", "models/psp.py:9"]
    assert "backbone is 'resnet101' | 'resnet152' where the repository sets it" in resnet.why


def test_a_verify_command_whose_cases_cannot_run_on_cpu_names_its_device() -> None:
    from apiscan.review.gaps import runnable_verify
    from apiscan.verify.catalogue import device_limit

    # INVALID on CPU: the only case needs InplaceUniform, which MindSpore lacks there
    assert device_limit("torch.Tensor.uniform_") == (
        "MindSpore has no CPU kernel InplaceUniform for it"
    )
    assert device_limit("torch.Tensor.uniform_", "Ascend") == ""
    assert runnable_verify("same name: apiscan verify torch.Tensor.uniform_") == (
        "same name: apiscan verify torch.Tensor.uniform_ --device Ascend (its case cannot "
        "run on CPU: MindSpore has no CPU kernel InplaceUniform for it)"
    )
    # VALID: a case with a CPU route (masked_fill_[cpu]) runs there; no case at all is
    # never recommended
    assert device_limit("torch.Tensor.masked_fill_") == ""
    assert runnable_verify("apiscan verify torch.Tensor.masked_fill_") == (
        "apiscan verify torch.Tensor.masked_fill_"
    )
    assert device_limit("torch.no_such_api") == ""
    assert "apiscan verify" not in runnable_verify("apiscan verify torch.no_such_api")


def test_a_round_trip_in_the_training_step_is_a_work_item_whatever_its_scope(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            "trainer.py": """
                import numpy as np
                import torch
                import torch.nn.functional as F
                from scipy.ndimage import grey_dilation

                def adapt_step(net, image, optimizer):
                    pred = net(image)
                    # VALID: the boundary mask is dilated on the host on every step
                    mask = grey_dilation(pred.detach().cpu().numpy(), size=(3, 3))
                    boundary = torch.tensor(mask).float()
                    loss = F.l1_loss(pred * boundary, image * boundary)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()

                def report(pred):
                    # INVALID: no loss, no backward pass: a host helper
                    hist = np.histogram(pred.cpu().numpy())
                    return torch.tensor(hist[0])
            """
        },
    )
    trips = [w for w in build_review(str(tmp_path)).work if w.kind == "host-round-trip"]
    assert [w.what for w in trips] == ["adapt_step: scipy.ndimage.grey_dilation"]


def test_a_round_trip_in_a_module_method_is_a_work_item_whatever_its_scope(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            # a detector under a config folder nothing imports: the scan may place it anywhere
            "playground/coco/poto/fcos.py": """
                import torch
                from torch import nn
                from scipy.optimize import linear_sum_assignment

                class FCOS(nn.Module):
                    def get_ground_truth(self, quality, labels):
                        # VALID: matched on the host for every image of every step
                        gt_idxs, shift_idxs = linear_sum_assignment(quality.cpu().numpy())
                        return labels[shift_idxs]

                class Evaluator:
                    def summarize(self, scores):
                        # INVALID: not a module: an evaluation helper on the host
                        rows, cols = linear_sum_assignment(scores.cpu().numpy())
                        return torch.as_tensor(rows)
            """
        },
    )
    trips = [w for w in build_review(str(tmp_path)).work if w.kind == "host-round-trip"]
    assert [w.what for w in trips] == [
        "FCOS.get_ground_truth: scipy.optimize.linear_sum_assignment"
    ]


def test_backbone_weights_from_a_file_and_a_checkpoint_loaded_only_by_demos(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            "src/models/backbone.py": """
                import torch
                from torch import nn

                class MobileNet(nn.Module):
                    # the weights load by default (a default no caller passed, None, would
                    # never load them: no work)
                    def __init__(self, path="pretrained/mobilenetv2.pth"):
                        super().__init__()
                        if path:
                            self._load_pretrained_model(path)

                    def _load_pretrained_model(self, path):
                        # VALID: the backbone's released weights, loaded into itself
                        self.load_state_dict(torch.load(path, map_location="cpu"))
            """,
            "demo/infer.py": """
                import torch
                from src.models.backbone import MobileNet

                # VALID: the released checkpoint, loaded only where the effort does not count
                net = MobileNet()
                net.load_state_dict(torch.load("pretrained/matting.ckpt"))
            """,
            "tests/test_net.py": """
                import torch

                def test_load():
                    # INVALID: a test is never a place to convert
                    torch.load("x.pt")
            """,
        },
    )
    review = build_review(str(tmp_path))
    got = {(w.kind, w.what): [str(p) for p in w.where] for w in review.work}
    assert got == {
        ("pretrained-backbone", "pretrained weights loaded from a file: torch.load(path)"): [
            "src/models/backbone.py:14"
        ],
        ("checkpoint", "torch.load"): ["demo/infer.py:6"],
    }
    demo = next(w for w in review.work if w.kind == "checkpoint")
    assert demo.why.startswith("the released checkpoint is loaded only in files counted apart")


def test_a_pretrained_loader_nothing_calls_is_no_backbone_item(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "models/fpn.py": """
                import torch
                from torch import nn

                class Darknet(nn.Module):
                    def load_pretrained_model(self, filename="./weights/darknet53.pth"):
                        # INVALID: nothing calls it (YOLOX's YOLOFPN): no backbone weights
                        self.load_state_dict(torch.load(filename))
            """,
        },
    )
    # nor a checkpoint: dead code loads nothing
    assert build_review(str(tmp_path)).work == ()


def test_a_config_naming_backbone_weights_is_a_pretrained_backbone_item(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "exps/det.r50/config.py": """
                from somefw.configs import BaseConfig

                _config_dict = dict(
                    MODEL=dict(
                        WEIGHTS="fw://ImageNet/R-50.pkl",
                        RESNETS=dict(DEPTH=50),
                    ),
                    SOLVER=dict(OPTIMIZER=dict(BASE_LR=0.01)),
                )

                class DetConfig(BaseConfig):
                    def __init__(self):
                        super().__init__()
                        self._register_configuration(_config_dict)

                config = DetConfig()
            """,
            "exps/det.r50/net.py": """
                from torch import nn

                class Det(nn.Module):
                    def losses(self, x):
                        return x.sum()
            """,
        },
    )
    review = build_review(str(tmp_path))
    rows = [i for i in review.recipe if i.category == "backbone"]
    items = [w for w in review.work if w.kind == "pretrained-backbone"]
    assert [r.name for r in rows] == ["config MODEL"]
    assert [w.what for w in items] == [
        'pretrained weights "fw://ImageNet/R-50.pkl" (config MODEL: RESNETS.DEPTH=50)'
    ]
    assert work_label(items[0]) == "Pretrained backbone"


def test_one_round_trip_item_for_the_same_function_in_variant_folders(tmp_path: Path) -> None:
    matcher = """
        from scipy.optimize import linear_sum_assignment
        from torch import nn

        class FCOS(nn.Module):
            def get_ground_truth(self, quality, labels):
                gt_idxs, shift_idxs = linear_sum_assignment(quality.cpu().numpy())
                return labels[shift_idxs]
    """
    write_repo(
        tmp_path,
        {
            "playground/poto.3x/fcos.py": matcher,
            # the auxiliary-loss variant: the same matcher, one more method
            "playground/poto.3x.aux/fcos.py": matcher
            + "\n            def aux_losses(self, x):\n                return x.sum()\n",
        },
    )
    trips = [w for w in build_review(str(tmp_path)).work if w.kind == "host-round-trip"]
    assert [(w.what, [str(p) for p in w.where], w.uses) for w in trips] == [
        (
            "FCOS.get_ground_truth: scipy.optimize.linear_sum_assignment",
            ["playground/poto.3x.aux/fcos.py:6", "playground/poto.3x/fcos.py:6"],
            2,
        )
    ]
    assert "the same function in 2 files" in trips[0].why
