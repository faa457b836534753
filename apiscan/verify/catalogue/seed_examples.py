"""The migration guide's own examples of handling a missing API (``missing_api_processing_policy``):
equivalent replacements and the sigmoid focal loss composed from existing MindSpore ops."""

from __future__ import annotations

from apiscan.verify.cases import Case, Variant
from apiscan.verify.catalogue.inputs import binary, floats

_RESHAPE = "Shape-only APIs have no computation: Reshape reproduces them exactly."

CASES: tuple[Case, ...] = (
    Case(
        "torch.squeeze",
        "torch.squeeze(x, 1)",
        "ops.reshape(x, x.shape[:1] + x.shape[2:])",
        "equivalent",
        (floats("x", 2, 1, 3),),
        pattern="dim",
        grad=True,
        note=_RESHAPE,
    ),
    Case(
        "torch.flatten",
        "torch.flatten(x, 1)",
        "ops.reshape(x, (x.shape[0], -1))",
        "equivalent",
        (floats("x", 2, 3, 4),),
        pattern="start_dim=1",
        grad=True,
        note=_RESHAPE,
    ),
    Case(
        "torch.nn.Flatten",
        "torch.nn.Flatten()(x)",
        "ops.reshape(x, (x.shape[0], -1))",
        "equivalent",
        (floats("x", 2, 3, 4),),
        grad=True,
        note=_RESHAPE,
    ),
    Case(
        "torch.unsqueeze",
        "torch.unsqueeze(x, 1)",
        "ops.reshape(x, x.shape[:1] + (1,) + x.shape[1:])",
        "equivalent",
        (floats("x", 2, 3),),
        pattern="dim",
        grad=True,
        note=_RESHAPE + " (ExpandDims)",
    ),
    Case(
        "torch.nn.AdaptiveAvgPool2d",
        "torch.nn.AdaptiveAvgPool2d(1)(x)",
        "ops.mean(x, axis=(2, 3), keep_dims=True)",
        "equivalent",
        (floats("x", 2, 3, 5, 4),),
        pattern="output_size=1",
        grad=True,
        note="Adaptive pooling to 1 is a mean over H and W keeping the dimensions.",
    ),
    Case(
        "torch.nn.AdaptiveMaxPool2d",
        "torch.nn.AdaptiveMaxPool2d(1)(x)",
        "ops.amax(x, axis=(2, 3), keepdims=True)",
        "equivalent",
        (floats("x", 2, 3, 5, 4),),
        pattern="output_size=1",
        grad=True,
        note="Adaptive max pooling to 1 is a max over H and W keeping the dimensions.",
    ),
    Case(
        "torch.nn.MaxPool2d",
        "torch.nn.MaxPool2d(k, s)(x)",
        "ops.MaxPoolWithArgmaxV2(kernel_size=k, strides=s)(x)[0]",
        "equivalent",
        (floats("x", 2, 3, 8, 8),),
        variants=(Variant("k2s2", (("k", 2), ("s", 2))), Variant("k3s1", (("k", 3), ("s", 1)))),
        grad=True,
        note="MaxPool is MaxPoolWithArgmax with the indices dropped.",
    ),
    Case(
        "torch.topk",
        "torch.topk(x, x.shape[-1])",
        "ops.sort(x, descending=True)",
        "equivalent",
        (floats("x", 3, 7),),
        pattern="k=full length",
        grad=True,
        note="A TopK over the whole axis is a descending sort (values and indices).",
    ),
    Case(
        "torchvision.ops.sigmoid_focal_loss",
        "(F.binary_cross_entropy_with_logits(pred, target, reduction='none')"
        " * (alpha * target + (1 - alpha) * (1 - target))"
        " * ((1 - torch.sigmoid(pred)) * target + torch.sigmoid(pred) * (1 - target)).pow(gamma)"
        ").mean()",
        "(msnn.BCEWithLogitsLoss(reduction='none')(pred, target)"
        " * (alpha * target + (1 - alpha) * (1 - target))"
        " * ((1 - ops.sigmoid(pred)) * target + ops.sigmoid(pred) * (1 - target)).pow(gamma)"
        ").mean()",
        "composed",
        (floats("pred", 8, 5, low=-3.0, high=3.0), binary("target", 8, 5)),
        variants=(
            Variant("gamma=2 alpha=0.25", (("gamma", 2.0), ("alpha", 0.25))),
            Variant("gamma=0 alpha=0.5", (("gamma", 0.0), ("alpha", 0.5))),
        ),
        grad=True,
        note="MMDetection's py_sigmoid_focal_loss (reduction='mean'), composed from "
        "BCEWithLogitsLoss and sigmoid as in the migration guide.",
    ),
)
