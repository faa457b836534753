"""A lead's reading of whole reviews on repositories new to the project: each test is one
class of error found there, on a small repository written for it (``fixtures/``)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_the_model_a_training_script_builds_through_an_alias_comes_first() -> None:
    """yolov9: every training script builds ``Model(cfg, ch=3, nc=nc)``, ``Model`` a
    module-level alias of ``DetectionModel``; the checkpoint evaluated after training
    (``attempt_load(best)``, an ``Ensemble``) and a second task's classifier are no top
    model ahead of it, and a standard-library object (``Path(cfg).name``) is no part."""
    review = build_review(str(FIXTURES / "aliasmodel"))
    tops = [m.cls for m in review.top_models]
    assert tops[0] == "models.yolo.DetectionModel"
    assert review.top_models[0].where.path == "train.py"
    assert len(tops) == len(set(tops))  # one entry per class
    parts = dict(review.top_models[0].parts)
    assert parts["stem"] == "Conv"
    assert not any("pathlib" in part for _, part in review.top_models[0].parts)
    model = {m.cls: m.role for m in review.modules}
    assert model["models.yolo.DetectionModel"] == "model"


def test_the_lock_around_an_extension_build_is_no_gap(tmp_path: Path) -> None:
    """stylegan2-ada: custom_ops.py guards its just-in-time build with a ``FileBaton`` (four
    APIs) and silences ``torch.jit.TracerWarning``: none is a gap of 1-2 person-days; the
    compiled extension (``cpp_extension.load``) stays the one gap of the build."""
    write_repo(
        tmp_path,
        {
            "custom_ops.py": """
                import os
                import warnings

                import torch
                import torch.utils.cpp_extension
                from torch.utils.file_baton import FileBaton


                def get_plugin(name, sources):
                    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
                    baton = torch.utils.cpp_extension.FileBaton(os.path.join("build", "lock"))
                    if baton.try_acquire():
                        try:
                            module = torch.utils.cpp_extension.load(name=name, sources=sources)
                        finally:
                            baton.release()
                    else:
                        baton.wait()
                        module = torch.utils.cpp_extension.load(name=name, sources=sources)
                    return module
            """,
            "bias_act.py": """
                import torch
                from torch import nn

                import custom_ops

                _plugin = custom_ops.get_plugin("bias_act", ["bias_act.cpp"])


                class BiasAct(nn.Module):
                    def forward(self, x):
                        return _plugin.bias_act(x)
            """,
        },
    )
    review = build_review(str(tmp_path))
    by_disposition = {d: apis for d, _, _, apis in review.effort.by_disposition}
    text = " ".join(review.effort.explanation)
    assert "FileBaton" not in text.partition("gap sites")[2].partition(")")[0]
    assert "TracerWarning" not in text.partition("gap sites")[2].partition(")")[0]
    assert "torch.utils.cpp_extension.load" in text.partition("gap sites")[2]
    assert by_disposition["gap"] == 1


def test_an_export_stand_in_function_is_no_custom_extension(tmp_path: Path) -> None:
    """yolov9's models/experimental.py: ``ORT_NMS`` is an autograd Function whose forward
    returns placeholders and whose ``symbolic`` names the ONNX op; only a Function with a
    backward is a hand-written op to port."""
    write_repo(
        tmp_path,
        {
            "ops.py": """
                import torch


                class ORT_NMS(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, boxes, scores):
                        return torch.randint(0, 10, (5, 3))

                    @staticmethod
                    def symbolic(g, boxes, scores):
                        return g.op("NonMaxSuppression", boxes, scores)


                class Clamp(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, x):
                        return x.clamp(0, 1)

                    @staticmethod
                    def backward(ctx, grad):
                        return grad
            """,
        },
    )
    whats = [what for what, _ in build_review(str(tmp_path)).extensions]
    assert any(w.endswith("subclass Clamp") for w in whats)
    assert not any("ORT_NMS" in w for w in whats)


def test_a_backbone_depth_chosen_in_branches_shows_each_choice(tmp_path: Path) -> None:
    """semseg's PSPNet: ``if layers == 50: resnet = models.resnet50(...) elif ...: else:
    resnet = models.resnet152(...)``, then ``self.layer1 = resnet.layer1``: the part is a
    ResNet of the chosen depth, not the last branch's ResNet-152."""
    write_repo(
        tmp_path,
        {
            "model/resnet.py": """
                from torch import nn


                class ResNet(nn.Module):
                    def __init__(self, depth):
                        super().__init__()
                        self.layer1 = nn.Conv2d(3, 8, 3)


                def resnet50(pretrained=False):
                    return ResNet(50)


                def resnet152(pretrained=False):
                    return ResNet(152)
            """,
            "model/pspnet.py": """
                from torch import nn

                import model.resnet as models


                class PSPNet(nn.Module):
                    def __init__(self, layers=50, pretrained=True):
                        super().__init__()
                        if layers == 50:
                            resnet = models.resnet50(pretrained=pretrained)
                        else:
                            resnet = models.resnet152(pretrained=pretrained)
                        self.layer1 = resnet.layer1
                        self.cls = nn.Conv2d(8, 2, 1)
            """,
            "train.py": """
                from torch import nn

                from model.pspnet import PSPNet


                def main():
                    model = PSPNet(layers=50)
                    return model


                if __name__ == "__main__":
                    main()
            """,
        },
    )
    tops = build_review(str(tmp_path)).top_models
    parts = dict(tops[0].parts)
    assert tops[0].cls.endswith("pspnet.PSPNet")  # model/ is a source folder
    assert parts["layer1"] == (
        "ResNet (models.resnet50(pretrained=pretrained) or models.resnet152(pretrained=pretrained))"
    )


def test_a_focal_loss_of_torchvision_is_a_composition_not_a_custom_op(tmp_path: Path) -> None:
    """yolov9's panoptic loss calls ``torchvision.ops.sigmoid_focal_loss``: a sigmoid, a
    BCE with logits and a power, composed of existing ops, never a custom op."""
    write_repo(
        tmp_path,
        {
            "loss.py": """
                from torch import nn
                from torchvision.ops import sigmoid_focal_loss


                class MaskLoss(nn.Module):
                    def forward(self, pred, gt):
                        return sigmoid_focal_loss(pred, gt, alpha=0.25, gamma=2.0, reduction="mean")
            """,
        },
    )
    review = build_review(str(tmp_path))
    assert review.effort.custom_ops == 0
    gap = next(g for g in review.gaps if g.api == "torchvision.ops.sigmoid_focal_loss")
    assert gap.disposition == "rewrite"
    assert "binary_cross_entropy_with_logits" in gap.suggestion + gap.note
