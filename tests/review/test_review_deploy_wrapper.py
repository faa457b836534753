"""A multi-backend inference wrapper (YOLOv5's ``DetectMultiBackend``: ONNX Runtime,
TensorRT... picked by the weights' suffix) is deployment code: its host copies and engine
bindings are not port work; and a third-party ``torch.load`` wrapper reading the pretrained
weights is a checkpoint to convert (issue 20)."""

from __future__ import annotations

from functools import cache

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

FILES = {
    "models/__init__.py": "",
    "models/common.py": """
        import numpy as np
        import torch
        from torch import nn


        class Conv(nn.Module):
            def __init__(self, c1, c2):
                super().__init__()
                self.conv = nn.Conv2d(c1, c2, 3)

            def forward(self, x):
                return self.conv(x)


        class MultiBackend(nn.Module):
            def __init__(self, weights="m.onnx"):
                super().__init__()
                self.onnx = weights.endswith(".onnx")
                if self.onnx:
                    import onnxruntime

                    self.session = onnxruntime.InferenceSession(weights)
                else:
                    import tensorrt as trt

                    logger = trt.Logger(trt.Logger.INFO)
                    self.runtime = trt.Runtime(logger)
                self.bindings = {"images": torch.zeros(1, 3, 8, 8)}

            def forward(self, im):
                if self.onnx:
                    im = im.cpu().numpy()
                    y = self.session.run(None, {"images": im})
                    return torch.from_numpy(np.asarray(y[0]))
                self.bindings["images"].resize_(im.shape)
                return self.bindings["images"]
    """,
    "train.py": """
        import torch
        from ultra.patches import torch_load

        import val
        from models.common import Conv


        def train(weights="pre.pt"):
            model = Conv(3, 8)
            ckpt = torch_load(weights, map_location="cpu")
            model.load_state_dict(ckpt["model"])
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for _ in range(10):
                loss = model(torch.zeros(2, 3, 8, 8)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            val.run("best.onnx")


        if __name__ == "__main__":
            train()
    """,
    "val.py": """
        import torch

        from models.common import MultiBackend


        def run(weights="m.onnx"):
            model = MultiBackend(weights)
            return model(torch.zeros(1, 3, 8, 8))


        if __name__ == "__main__":
            run()
    """,
}


@cache
def _review(tmp: str) -> Review:
    return build_review(tmp, jobs=1)


def test_a_multi_backend_wrapper_is_no_port_work(tmp_path) -> None:
    from apiscan.review.markdown import render_markdown

    review = _review(str(write_repo(tmp_path, FILES)))
    # INVALID: the wrapper's copies to the runtimes, its bindings, its class in the tree
    assert not [i.what for i in review.work if "MultiBackend" in i.what]
    assert "models.common.MultiBackend" not in {m.cls for m in review.modules}
    # VALID: counted apart, with the runtimes that make it a deployment wrapper
    said = [line for line in render_markdown(review).splitlines() if "MultiBackend" in line]
    assert any(
        "models/common.py:MultiBackend (a deployment wrapper running onnxruntime, tensorrt)" in line
        for line in said
    ), said


def test_a_third_party_torch_load_wrapper_is_a_checkpoint_to_convert(tmp_path) -> None:
    review = _review(str(write_repo(tmp_path, FILES)))
    items = [i for i in review.work if i.kind == "checkpoint"]
    assert [i.what for i in items] == ["ultra.patches.torch_load"]
    assert items[0].where[0].path == "train.py"
    rows = [r for r in review.recipe if r.category == "checkpoint"]
    assert rows and rows[0].name == "ultra.patches.torch_load"
