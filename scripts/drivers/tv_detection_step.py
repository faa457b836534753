"""A torchvision detection model's training steps and an inference pass on random data, on CPU,
for the runtime tracers.

Runs from an unpacked torchvision wheel (the tracers set the working directory to the root
they trace: the folder holding ``torchvision/``), with the pure-torch stand-ins of
``tv_standins.py`` for its compiled operators. Nothing of torchvision is copied here: it builds
a model with the public builders (no weights) and calls it as a training loop would::

    python scripts/trace_shapes.py --root TV_ROOT --out t.jsonl -- \\
        /abs/path/scripts/drivers/tv_detection_step.py --model fasterrcnn --seed 1

Same input shapes for every seed: ``--batch`` images of 3 x ``--size`` x ``--size`` and, per
image, the same number of boxes (image i has i + 2), with their masks or keypoints; the seed
changes the pixels, where the boxes are, their sizes and classes. Two SGD steps in training
mode, then one eval forward (proposals, NMS, score threshold, mask pasting); the score
thresholds of SSD and the R-CNNs are set from the eval images' own scores
(``ssd_threshold``, ``rcnn_threshold``).
"""

from __future__ import annotations

import argparse
import sys

import tv_standins

MODELS = ("fasterrcnn", "maskrcnn", "keypointrcnn", "retinanet", "fcos", "ssdlite")
KEYPOINTS = 5


def build(torchvision, name: str, size: int):  # type: ignore[no-untyped-def]
    """A small model of `name` (ResNet-18 FPN backbones, no pretrained weights)."""
    from torchvision.models import resnet18
    from torchvision.models.detection import (
        FCOS,
        FasterRCNN,
        KeypointRCNN,
        MaskRCNN,
        RetinaNet,
        ssdlite320_mobilenet_v3_large,
    )
    from torchvision.models.detection.backbone_utils import BackboneWithFPN
    from torchvision.ops.feature_pyramid_network import LastLevelP6P7

    common = {"min_size": size, "max_size": size}
    if name == "ssdlite":
        return ssdlite320_mobilenet_v3_large(  # resizes to its own 320 x 320
            weights=None,
            weights_backbone=None,
            num_classes=5,
            width_mult=0.5,
            score_thresh=0.22,  # about the untrained softmax scores (1 / 5 classes)
            topk_candidates=50,
            detections_per_img=300,  # torchvision's default: NMS decides the count
        )
    width = 32  # FPN channels: small, so that a step takes seconds under the tracer
    layers = {"layer2": "0", "layer3": "1", "layer4": "2"}
    if name in ("retinanet", "fcos"):
        backbone = BackboneWithFPN(
            resnet18(), layers, [128, 256, 512], width, LastLevelP6P7(width, width)
        )
        # a threshold about the untrained scores (classification prior 0.01; FCOS takes the
        # square root of its product with a centerness about 0.5)
        cls, thresh = (RetinaNet, 0.01) if name == "retinanet" else (FCOS, 0.07)
        # 300 detections (RetinaNet's default; FCOS's 100 always bound on an untrained model,
        # hiding how many boxes NMS keeps)
        return cls(
            backbone,
            num_classes=5,
            topk_candidates=100,
            score_thresh=thresh,
            detections_per_img=300,
            **common,
        )
    four = {"layer1": "0", "layer2": "1", "layer3": "2", "layer4": "3"}
    backbone = BackboneWithFPN(resnet18(), four, [64, 128, 256, 512], width)
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
    from torchvision.models.detection.keypoint_rcnn import (
        KeypointRCNNHeads,
        KeypointRCNNPredictor,
    )
    from torchvision.models.detection.mask_rcnn import MaskRCNNHeads, MaskRCNNPredictor

    classes = 2 if name == "keypointrcnn" else 5
    rcnn = {
        # thresholds an untrained model's scores straddle, so that what they keep changes
        # with the data: objectness about 0.5, class scores about 1 / classes
        "rpn_score_thresh": 0.5,
        "box_score_thresh": 0.8 / classes,
        "box_head": TwoMLPHead(width * 7 * 7, 64),
        "box_predictor": FastRCNNPredictor(64, classes),
        "rpn_pre_nms_top_n_train": 300,
        "rpn_pre_nms_top_n_test": 200,
        # torchvision's default caps after NMS (1000 proposals at test, 100 detections):
        # tighter ones always bind on an untrained model, and hide how many NMS keeps
        "rpn_post_nms_top_n_train": 1000,
        "rpn_post_nms_top_n_test": 1000,
        "rpn_batch_size_per_image": 64,
        # torchvision's default: above the proposals an image keeps here (a few hundred),
        # so the sampler takes them all and each image trains on its own number of RoIs, as
        # on small images or sparse scenes (a smaller batch always filled up, hiding it)
        "box_batch_size_per_image": 512,
        "box_detections_per_img": 100,
        **common,
    }
    if name == "maskrcnn":
        head = MaskRCNNHeads(width, [width, width], 1)
        return MaskRCNN(
            backbone, mask_head=head, mask_predictor=MaskRCNNPredictor(width, width, 5), **rcnn
        )
    if name == "keypointrcnn":
        head = KeypointRCNNHeads(width, [width, width])
        predictor = KeypointRCNNPredictor(width, KEYPOINTS)
        return KeypointRCNN(backbone, keypoint_head=head, keypoint_predictor=predictor, **rcnn)
    return FasterRCNN(backbone, **rcnn)


def targets(torch, generator, name: str, batch: int, size: int):  # type: ignore[no-untyped-def]
    """Per image a dict of boxes (xyxy), labels and the masks or keypoints the model needs."""
    out = []
    for i in range(batch):
        n = i + 2
        wh = (torch.rand(n, 2, generator=generator) * 0.5 + 0.1) * size
        xy = torch.rand(n, 2, generator=generator) * (size - wh)
        boxes = torch.cat([xy, xy + wh], dim=1)
        classes = 2 if name == "keypointrcnn" else 5
        target = {
            "boxes": boxes,
            "labels": torch.randint(1, classes, (n,), generator=generator),
        }
        if name == "maskrcnn":
            ys = torch.arange(size).view(1, size, 1)
            xs = torch.arange(size).view(1, 1, size)
            b = boxes.round().long()
            across = (xs >= b[:, 0, None, None]) & (xs < b[:, 2, None, None])
            down = (ys >= b[:, 1, None, None]) & (ys < b[:, 3, None, None])
            target["masks"] = (across & down).to(torch.uint8)
        if name == "keypointrcnn":
            frac = torch.rand(n, KEYPOINTS, 2, generator=generator)
            points = boxes[:, None, :2] + frac * wh[:, None, :]
            visible = (torch.rand(n, KEYPOINTS, 1, generator=generator) > 0.3).float()
            target["keypoints"] = torch.cat([points, visible], dim=2)
        out.append(target)
    return out


def ssd_threshold(torch, model, images) -> float:  # type: ignore[no-untyped-def]
    """A score threshold that the class scores of these images straddle: the 99th
    percentile. Two training steps leave SSD's scores below any fixed threshold for some
    data and above it for other (a fixed 0.22 kept no box under both seeds), where a trained
    model's scores straddle its threshold on every image; so each image keeps its own number
    of boxes per class, as in real inference."""
    batch, _ = model.transform(images)
    features = list(model.backbone(batch.tensors).values())
    logits = model.head(features)["cls_logits"]
    scores = torch.softmax(logits, -1)[..., 1:]
    return float(scores.flatten().quantile(0.99))


def rcnn_threshold(torch, model, images) -> float:  # type: ignore[no-untyped-def]
    """A class-score threshold that the eval images' proposals straddle: the 99th
    percentile of their class scores. Untrained, nearly every proposal scores about
    1 / classes, so a fixed threshold keeps all (the 100-detection cap then decides) or none;
    a trained model keeps a few boxes per image, a number the threshold and NMS decide. This
    puts the untrained model in that regime: each image keeps its own number of detections."""
    batch, _ = model.transform(images)
    features = model.backbone(batch.tensors)
    proposals, _ = model.rpn(batch, features)
    heads = model.roi_heads
    pooled = heads.box_roi_pool(features, proposals, batch.image_sizes)
    logits, _ = heads.box_predictor(heads.box_head(pooled))
    scores = torch.softmax(logits, -1)[:, 1:]
    return float(scores.flatten().quantile(0.99))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=MODELS, default="fasterrcnn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--size", type=int, default=128)
    parser.add_argument("--steps", type=int, default=2)
    options = parser.parse_args(argv)
    torchvision = tv_standins.import_torchvision()
    import torch

    torch.manual_seed(0)  # the same weights every run: only the data changes with the seed
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    model = build(torchvision, options.model, options.size)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    shape = (3, options.size, options.size)
    model.train()
    for _ in range(options.steps):
        images = [torch.rand(shape, generator=data) for _ in range(options.batch)]
        batch_targets = targets(torch, data, options.model, options.batch, options.size)
        losses = model(images, batch_targets)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        if options.model == "ssdlite":
            model.score_thresh = ssd_threshold(torch, model, images)
        elif options.model in ("fasterrcnn", "maskrcnn", "keypointrcnn"):
            model.roi_heads.score_thresh = rcnn_threshold(torch, model, images)
        detections = model(images)
    kept = [int(d["boxes"].shape[0]) for d in detections]
    print(f"{options.model} seed {options.seed}: loss {float(loss):.3f}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
