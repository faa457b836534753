"""Micro-tests of the reviewed compositions (:mod:`apiscan.verify.compositions`).

The MindSpore side calls the composition (``compose.batched_nms``: the code ``apiscan stub``
copies into a scaffold); the PyTorch side is the real API where torch has it, otherwise the
pure-PyTorch reference of the torchvision op (``ref.batched_nms``, see
:mod:`apiscan.verify.reference`). Boxes are drawn so that many overlap (32 boxes, corners in a
4-unit square, sides 1 to 2) and scores are distinct: with seed 0, NMS at IoU 0.5 keeps 24
of them and batched NMS over 3 categories 28, at 0.2 11 and 21 (a test checks the keep
lists are neither everything nor nothing).
"""

from __future__ import annotations

from apiscan.verify.cases import Case, InputSpec, Variant
from apiscan.verify.catalogue.inputs import floats, mask

_B = InputSpec("b", (32, 4), "boxes", 0.0, 4.0, grad=False)
_B2 = InputSpec("c", (7, 4), "boxes", 0.0, 4.0, grad=False)
_S = InputSpec("s", (32,), "float", 0.0, 1.0, grad=False)
_I = InputSpec("i", (32,), "int", 0, 3, grad=False)
_NOTE = "Composed from existing MindSpore ops (apiscan.verify.compositions.{})."


def composed(
    api: str,
    torch_expr: str,
    ms_expr: str,
    inputs: tuple[InputSpec, ...],
    pattern: str = "",
    variants: tuple[Variant, ...] = (Variant("default"),),
) -> Case:
    name = ms_expr.split("(", 1)[0].rpartition(".")[2]
    return Case(
        api,
        torch_expr,
        ms_expr,
        "composed",
        inputs,
        pattern=pattern,
        variants=variants,
        note=_NOTE.format(name),
        tags=("composition",),
    )


_THRESHOLDS = (Variant("iou 0.5", (("t", 0.5),)), Variant("iou 0.2", (("t", 0.2),)))

CASES: tuple[Case, ...] = (
    composed(
        "torchvision.ops.batched_nms",
        "ref.batched_nms(b, s, i, t)",
        "compose.batched_nms(b, s, i, t)",
        (_B, _S, _I),
        variants=_THRESHOLDS,
    ),
    composed(
        "torchvision.ops.nms",
        "ref.nms(b, s, t)",
        "compose.nms(b, s, t)",
        (_B, _S),
        variants=_THRESHOLDS,
    ),
    composed("torchvision.ops.box_area", "ref.box_area(b)", "compose.box_area(b)", (_B,)),
    composed("torchvision.ops.box_iou", "ref.box_iou(b, c)", "compose.box_iou(b, c)", (_B, _B2)),
    composed(
        "torchvision.ops.generalized_box_iou",
        "ref.generalized_box_iou(b, c)",
        "compose.generalized_box_iou(b, c)",
        (_B, _B2),
    ),
    composed(
        "torchvision.ops.box_convert",
        "ref.box_convert(b, src, dst)",
        "compose.box_convert(b, src, dst)",
        (_B,),
        variants=tuple(
            Variant(f"{a}->{z}", (("src", a), ("dst", z)))
            for a, z in (("xyxy", "cxcywh"), ("cxcywh", "xyxy"), ("xywh", "xyxy"), ("xyxy", "xywh"))
        ),
    ),
    composed(
        "torchvision.ops.clip_boxes_to_image",
        "ref.clip_boxes_to_image(b, (30, 25))",
        "compose.clip_boxes_to_image(b, (30, 25))",
        (_B,),
    ),
    composed(
        "torchvision.ops.remove_small_boxes",
        "ref.remove_small_boxes(b, 8.0)",
        "compose.remove_small_boxes(b, 8.0)",
        (_B,),
    ),
    composed(
        "torchvision.ops.masks_to_boxes",
        "ref.masks_to_boxes(m)",
        "compose.masks_to_boxes(m)",
        (mask("m", 3, 6, 7),),
    ),
    composed(
        "torch.Tensor.new",
        "x.new(2, 3).shape",
        "compose.tensor_new(x, 2, 3).shape",
        (floats("x", 3, 4),),
        pattern="sizes",
    ),
    composed(
        "torch.Tensor.new",
        "x.new([1.5, 2.0])",
        "compose.tensor_new(x, [1.5, 2.0])",
        (floats("x", 3, 4),),
        pattern="data",
    ),
    composed(
        "torch.Tensor.new",
        "x.new().shape",
        "compose.tensor_new(x).shape",
        (floats("x", 3, 4),),
        pattern="empty",
    ),
    composed(
        "torch.nn.functional.interpolate",
        "F.interpolate(x, size=size, mode='bilinear', antialias=True)",
        "compose.interpolate_antialias(x, size)",
        (floats("x", 2, 3, 16, 12),),
        pattern="bilinear antialias",
        variants=(
            Variant("down 16x12->5x4", (("size", (5, 4)),)),
            Variant("down 16x12->8x6", (("size", (8, 6)),)),
            Variant("up 16x12->20x15", (("size", (20, 15)),)),
        ),
    ),
)
