"""Methods on values that are not torch's are never Tensor (or GradScaler) methods, and
"certain" only where the receiver is known to be torch: dicts, lists, numpy arrays, PIL
images, the repository's own non-torch classes, third-party structures (detectron2's
``Boxes``), and calls whose keywords torch's method does not take."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import apis, scan_repo, scan_snippet, write_repo


def test_dict_values_of_a_module_or_a_criterion_is_no_tensor_method(tmp_path: Path) -> None:
    src = """
        import torch
        from torch import nn


        class Criterion(nn.Module):
            def __init__(self, weights):
                super().__init__()
                self.weights = weights

            def forward(self, outputs, targets):
                total = sum(outputs.values())
                return self.combine(total)

            def combine(self, total):
                return total


        def train(x, targets):
            criterion = Criterion({})
            loss_dict = criterion(x, targets)
            losses = sum(loss_dict.values())
            return torch.stack(list(loss_dict.values())), losses
        """
    found = apis(scan_snippet(tmp_path, src))
    assert not [f for f in found if f[1] == "torch.Tensor.values"], found


def test_numpy_arrays_pil_images_and_foreign_keywords(tmp_path: Path) -> None:
    src = """
        import numpy as np
        import torch
        from PIL import Image


        def prepare(path, masks, results):
            arr = np.zeros(3)
            arr.item()
            arr.repeat(3, axis=0)
            m = masks.cpu().numpy()
            m.repeat(2, axis=0)
            m.item()
            img = Image.open(path)
            img.resize((10, 10))
            img.convert("RGB").resize((3, 3), resample=Image.BILINEAR)
            for r in results:
                r["scores"].repeat(2, axis=1)
                r["boxes"].transpose(axes=(1, 0))
            t = torch.zeros(4, 4)
            return t.repeat(2, 1), t.sum(axis=0), t.mean(axis=1, keepdims=True)
        """
    assert apis(scan_snippet(tmp_path, src)) == [
        (10, "torch.Tensor.cpu", "probable"),
        (10, "torch.Tensor.numpy", "probable"),
        # repeat(..., axis=1) and transpose(axes=...): no Tensor method takes these keywords
        (19, "torch.zeros", "certain"),
        (20, "torch.Tensor.mean", "certain"),  # numpy spellings torch accepts for its own
        (20, "torch.Tensor.repeat", "certain"),
        (20, "torch.Tensor.sum", "certain"),
    ]


def test_a_certain_tensor_with_a_foreign_keyword_is_no_tensor(tmp_path: Path) -> None:
    src = """
        import torch


        def f(x):
            t = torch.zeros(3)
            t.repeat(3, axis=0)
            t.sum(dim=0, unbiased=False)
        """
    assert apis(scan_snippet(tmp_path, src)) == [
        (5, "torch.zeros", "certain"),
        (7, "torch.Tensor.sum", "certain"),
    ]


def test_scale_is_a_grad_scaler_only_by_name(tmp_path: Path) -> None:
    src = """
        import torch


        def step(boxes, instances, scaler, loss, image):
            boxes.scale(2.0, 3.0)
            instances.pred_boxes.scale(2.0, 3.0)
            image.scale(0.5)
            scaler.scale(loss).backward()
            torch.zeros(1)
        """
    assert apis(scan_snippet(tmp_path, src)) == [
        (8, "torch.GradScaler.scale", "probable"),
        # what a guessed scaler's method yields is probably a tensor, no more
        (8, "torch.Tensor.backward", "probable"),
        (9, "torch.zeros", "certain"),
    ]


def test_third_party_structures_are_not_torch(tmp_path: Path) -> None:
    src = """
        import torch
        from detectron2.structures import Boxes, Instances


        def rescale(t, h, w):
            boxes = Boxes(t)
            boxes.scale(2.0, 3.0)
            boxes.clip((h, w))
            inst = Instances((h, w))
            inst.to("cpu")
            return boxes.tensor.sum()
        """
    found = apis(scan_snippet(tmp_path, src))
    assert [f for f in found if f[0] in (7, 8, 10)] == [], found


def test_repository_classes_that_are_not_torch(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/structures.py": """
                class Boxes:
                    def __init__(self, t):
                        self.t = t

                    def scale(self, sx, sy):
                        return self

                    def repeat(self, n):
                        return self
            """,
            "pkg/use.py": """
                import torch

                from pkg.structures import Boxes


                def f(t):
                    b = Boxes(t)
                    b.scale(1.0, 2.0)
                    b.repeat(3)
                    local = Local()
                    local.item()
                    return torch.zeros(1)


                class Local:
                    def item(self):
                        return 0
            """,
        },
    )
    found = apis(list(scan_repo(tmp_path).api_findings))
    assert found == [(12, "torch.zeros", "certain")], found
