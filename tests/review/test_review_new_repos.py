"""Work items and gaps as a migration lead reads them on repositories new to the project:
each test is the class of one error found there (invented work removed, missing work found),
written as a small repository of its own."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review


def _items(review: Review, kind: str) -> dict[str, list[str]]:
    return {i.what: [str(w) for w in i.where] for i in review.work if i.kind == kind}


def test_a_parameter_passed_through_a_name_always_false_is_not_unsupported(
    tmp_path: Path,
) -> None:
    """Depth-Anything-V2's DINOv2: ``antialias=self.interpolate_antialias``, False in the
    constructor's default and in every builder; another class's flag is True somewhere."""
    write_repo(
        tmp_path,
        {
            "net/vit.py": """
                import torch.nn.functional as F
                from torch import nn


                class ViT(nn.Module):
                    def __init__(self, dim, interpolate_antialias=False):
                        super().__init__()
                        self.interpolate_antialias = interpolate_antialias

                    def forward(self, x):
                        return F.interpolate(
                            x, scale_factor=2.0, mode="bicubic",
                            antialias=self.interpolate_antialias,
                        )


                class Sharp(nn.Module):
                    def __init__(self, smooth=False):
                        super().__init__()
                        self.smooth = smooth

                    def forward(self, x):
                        return F.interpolate(x, scale_factor=2.0, antialias=self.smooth)


                def vit_small(**kwargs):
                    return ViT(384, interpolate_antialias=False, **kwargs)


                def sharp():
                    return Sharp(smooth=True)
            """,
        },
    )
    review = build_review(str(tmp_path))
    items = _items(review, "unsupported-param")
    # VALID: a flag set to True somewhere; INVALID: the flag every place sets to False
    assert list(items) == ["torch.nn.functional.interpolate(antialias=self.smooth)"]
    assert items["torch.nn.functional.interpolate(antialias=self.smooth)"] == ["net/vit.py:23"]
    (gap,) = [g for g in review.gaps if g.api == "torch.nn.functional.interpolate"]
    assert [str(w) for w in gap.where] == ["net/vit.py:11", "net/vit.py:23"]
    # the gap's proposal for the first place: the flag is dropped, not "cannot be dropped"
    assert "drop antialias: self.interpolate_antialias is False" in gap.suggestion


def test_torchvision_pretrained_by_position_and_self_tests(tmp_path: Path) -> None:
    """pytorch-segmentation: ``getattr(models, backbone)(pretrained)`` asks for ImageNet
    weights by position; ``(pretrained=False)`` does not; a ResNet-34 built in the self-test
    block of an imported scheduler module is no backbone of the model."""
    write_repo(
        tmp_path,
        {
            "models/seg.py": """
                import torchvision
                from torch import nn
                from torchvision import models


                class Seg(nn.Module):
                    def __init__(self, backbone="resnet50", pretrained=True):
                        super().__init__()
                        self.body = getattr(models, backbone)(pretrained)


                class Plain(nn.Module):
                    def __init__(self, backbone):
                        super().__init__()
                        self.body = getattr(torchvision.models, backbone)(pretrained=False)


                class Deep(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.a = torchvision.models.resnet101(pretrained=True)
                        self.b = torchvision.models.resnet50()
            """,
            "utils/sched.py": """
                import torch


                class Poly:
                    def __init__(self, optimizer):
                        self.optimizer = optimizer


                if __name__ == "__main__":
                    import torchvision

                    net = torchvision.models.resnet34()
                    Poly(torch.optim.SGD(net.parameters(), lr=0.1))
            """,
            "train.py": """
                import torch
                import torchvision
                from models.seg import Deep, Seg
                from utils.sched import Poly

                if __name__ == "__main__":
                    extra = torchvision.models.vgg16()
                    deep = Deep()
                    net = Seg()
                    Poly(torch.optim.SGD(net.parameters(), lr=0.1))
            """,
        },
    )
    items = _items(build_review(str(tmp_path)), "pretrained-backbone")
    assert items == {
        # VALID: the depths of one family are one port and one conversion; the positional
        # pretrained flag picked by name (backbone="resnet50") joins the family it reaches;
        # INVALID: ``Plain`` (line 15), which nothing builds, is no place of it
        "torchvision.models.resnet101 | resnet50 | <backbone>(pretrained=True)": [
            "models/seg.py:9",
            "models/seg.py:21",
            "models/seg.py:22",
        ],
        # VALID: built in the main block of the entry script, which nothing imports
        "torchvision.models.vgg16": ["train.py:7"],
        # INVALID: utils/sched.py's self-test (resnet34) is absent
    }


def test_a_model_class_of_a_zoo_package_extended_is_its_architecture(tmp_path: Path) -> None:
    """moco-v3's ViT extends timm's VisionTransformer: the architecture is timm's."""
    write_repo(
        tmp_path,
        {
            "vits.py": """
                from timm.models.layers import PatchEmbed
                from timm.models.vision_transformer import VisionTransformer
                from torch import nn
                from torchvision.models._utils import IntermediateLayerGetter


                class VisionTransformerMoCo(VisionTransformer):
                    def __init__(self, **kwargs):
                        super().__init__(**kwargs)


                class Stem(PatchEmbed):
                    pass


                class Taps(IntermediateLayerGetter):
                    pass


                class Head(nn.Module):
                    pass
            """,
        },
    )
    items = _items(build_review(str(tmp_path)), "pretrained-backbone")
    # VALID: the model class; INVALID: a layer of timm, torchvision's output picker, a torch.nn
    # base
    assert items == {
        "timm.models.vision_transformer.VisionTransformer (extended by VisionTransformerMoCo)": [
            "vits.py:7"
        ]
    }
    zoo = write_repo(
        tmp_path / "zoo",
        {
            # INVALID: timm reviewed itself: its classes extending its own are its code
            "timm/models/deit.py": """
                from timm.models.vision_transformer import VisionTransformer


                class VisionTransformerDistilled(VisionTransformer):
                    pass
            """,
            "timm/models/vision_transformer.py": """
                from torch import nn


                class VisionTransformer(nn.Module):
                    pass
            """,
        },
    )
    assert _items(build_review(str(zoo)), "pretrained-backbone") == {}


def test_test_time_scaling_around_the_model_is_no_round_trip_in_the_graph(
    tmp_path: Path,
) -> None:
    """pytorch-segmentation's inference.py: scipy zooms the input on the host between calls
    of the model (its only network finding an ``nn.Upsample`` built there); a module that
    sends its tensors to scipy inside forward is a trip."""
    write_repo(
        tmp_path,
        {
            "inference.py": """
                import numpy as np
                import torch
                from scipy import ndimage
                from torch import nn


                def multi_scale_predict(model, image, scales):
                    upsample = nn.Upsample(size=image.shape[2:], mode="bilinear")
                    total = np.zeros(image.shape)
                    image = image.cpu().numpy()
                    for scale in scales:
                        scaled = ndimage.zoom(image, (1.0, 1.0, scale, scale), order=1)
                        scaled = torch.from_numpy(scaled)
                        total += upsample(model(scaled)).cpu().numpy()
                    return total
            """,
            "net.py": """
                import torch
                from scipy import ndimage
                from torch import nn


                class Smooth(nn.Module):
                    def forward(self, x):
                        y = torch.sigmoid(x)
                        z = ndimage.gaussian_filter(y.cpu().numpy(), 1.0)
                        return torch.from_numpy(z) * y
            """,
        },
    )
    items = _items(build_review(str(tmp_path)), "host-round-trip")
    # VALID: Smooth.forward; INVALID: the inference script's test-time scaling
    assert list(items) == ["Smooth.forward: scipy.ndimage.gaussian_filter"]


def test_rewrites_the_template_renders_are_counted_apart(tmp_path: Path) -> None:
    """pytorch-segmentation's 143 ``x.size(...)`` → ``x.shape[...]``: the new text is given,
    so each site costs a check of the line, not a rewrite by hand (the range halved)."""
    write_repo(
        tmp_path,
        {
            "net.py": """
                import torch
                from torch import nn


                class Net(nn.Module):
                    def forward(self, x):
                        h, w = x.size(2), x.size(3)
                        return x.view(-1, h * w)
            """,
        },
    )
    effort = build_review(str(tmp_path)).effort
    assert "2 rendered as 1.8 × 0.02–0.04" in effort.formula, effort.formula
    assert "rewrite × 0.08–0.15" not in effort.formula  # no hand-written rewrite here
