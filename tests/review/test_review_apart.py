"""What is counted apart beside a training entry point (issue 20 item 4): root-level tools
(stylegan2's ``generate.py``, ``projector.py``), evaluation packages, adapters' imports inside
the model's own files, and the other tasks of a multi-task repository (yolov9)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

NET = """
    import torch
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x)
"""

TOOLS = {
    "net.py": NET,
    "train.py": """
        import torch
        import evaluate
        from net import Net
        def main():
            model = Net()
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            loss = model(torch.zeros(1, 2)).sum()
            loss.backward()
            opt.step()
            evaluate.run(model)
        if __name__ == "__main__":
            main()
    """,
    # imported by the training script: ported
    "evaluate.py": """
        import torch
        def run(model):
            return model(torch.zeros(1, 2))
        if __name__ == "__main__":
            run(None)
    """,
    "generate.py": """
        import torch
        from net import Net
        def main():
            net = Net()
            net.load_state_dict(torch.load("net.pt"))
            print(net(torch.randn(1, 2)).cpu().numpy())
        if __name__ == "__main__":
            main()
    """,
    # an optimizer over a latent, not a network's parameters: a tool
    "projector.py": """
        import numpy as np
        import torch
        from net import Net
        def project(net):
            w = torch.zeros(1, 2, requires_grad=True)
            opt = torch.optim.Adam([w], lr=0.1)
            for _ in range(3):
                loss = net(w).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
                w.data = torch.as_tensor(np.cos(w.detach().cpu().numpy()))
        if __name__ == "__main__":
            project(Net())
    """,
    "metrics/fid.py": """
        import torch
        def features(path):
            return torch.jit.load(path)
    """,
}


def test_root_level_tools_beside_training_are_counted_apart(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "gan", TOOLS)))
    apart = dict(review.ancillary)
    assert apart == {
        "generate.py": "tools",
        "metrics/fid.py": "evaluation",
        "projector.py": "tools",
    }
    # the projector's host round trip and the feature network's TorchScript archive are
    # not work on the ported model
    assert not any(
        w.path in ("projector.py", "metrics/fid.py") for item in review.work for w in item.where
    )


def test_an_inference_only_repository_keeps_its_script(tmp_path: Path) -> None:
    files = {k: TOOLS[k] for k in ("net.py", "generate.py")}
    review = build_review(str(write_repo(tmp_path / "infer", files)))
    assert dict(review.ancillary) == {}


MULTITASK = {
    "models/common.py": """
        import torch
        class Conv(torch.nn.Module):
            def forward(self, x):
                return x
        class Backend(torch.nn.Module):
            def __init__(self, w):
                super().__init__()
                if w.endswith(".engine"):
                    import tensorrt as trt
                    self.trt = trt
    """,
    "models/yolo.py": """
        import torch
        from models.common import Conv
        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = Conv()
    """,
    "export.py": """
        import tensorflow as tf
        from models.yolo import Model
        if __name__ == "__main__":
            tf.saved_model.save(Model(), "x")
    """,
    "train.py": """
        import torch
        from models.yolo import Model
        def main():
            model = Model()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            opt.step()
        if __name__ == "__main__":
            main()
    """,
    "segment/train.py": """
        import torch
        from models.yolo import Model
        from utils.segment.loss import SegLoss
        def main():
            model = Model()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            SegLoss()(model).backward()
            opt.step()
        if __name__ == "__main__":
            main()
    """,
    "segment/predict.py": """
        from models.yolo import Model
        if __name__ == "__main__":
            Model()
    """,
    "utils/segment/loss.py": """
        import torch
        class SegLoss(torch.nn.Module):
            def forward(self, x):
                return torch.nonzero(x).sum()
    """,
}


def test_a_model_file_importing_another_framework_inside_a_method_is_ported(
    tmp_path: Path,
) -> None:
    apart = dict(build_review(str(write_repo(tmp_path / "multi", MULTITASK))).ancillary)
    assert "models/common.py" not in apart
    assert apart["export.py"] == "adapter for tensorflow"


def test_other_tasks_beside_the_root_training_entry_are_counted_apart(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "multi", MULTITASK)
    apart = dict(build_review(str(root)).ancillary)
    assert apart["segment/train.py"] == "other task (segment/)"
    assert apart["segment/predict.py"] == "other task (segment/)"
    assert apart["utils/segment/loss.py"] == "other task (segment/)"
    assert "train.py" not in apart and "models/yolo.py" not in apart
    # the lead's own patterns replace the rule: segment/ is then ported
    (root / "pyproject.toml").write_text('[tool.apiscan]\nreview-ancillary = ["export.py"]\n')
    assert dict(build_review(str(root)).ancillary) == {"export.py": "matches 'export.py'"}


def test_weights_downloaded_by_a_variant_nothing_builds_are_not_work(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "seg",
        {
            "model/resnet.py": """
                import torch
                import torch.utils.model_zoo as model_zoo
                class ResNet(torch.nn.Module):
                    def __init__(self, depth):
                        super().__init__()
                        self.fc = torch.nn.Linear(depth, 2)
                def resnet18(pretrained=False):
                    model = ResNet(18)
                    if pretrained:
                        model.load_state_dict(model_zoo.load_url("https://x/resnet18.pth"))
                    return model
                def resnet50(pretrained=False):
                    model = ResNet(50)
                    if pretrained:
                        model.load_state_dict(torch.load("./initmodel/resnet50.pth"))
                    return model
            """,
            "model/pspnet.py": """
                import torch
                import model.resnet as models
                class PSPNet(torch.nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.backbone = models.resnet50(pretrained=True)
            """,
        },
    )
    work = build_review(str(root)).work
    assert not any(i.kind == "pretrained-backbone" for i in work)
    (checkpoint,) = [i for i in work if i.kind == "checkpoint"]
    assert [w.line for w in checkpoint.where] == [15]


def test_a_compiled_ops_wrapper_and_build_are_not_counted_again_as_gaps(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "psa",
        {
            "lib/psa/src/__init__.py": """
                from torch.utils.cpp_extension import load
                cpu = load("psamask_cpu", ["cpu/operator.cpp"])
            """,
            "lib/psa/src/cpu/operator.cpp": "// psamask_forward, psamask_backward\n",
            "lib/psa/functions/psamask.py": """
                import torch
                from torch.autograd import Function
                from .. import src
                class PSAMask(Function):
                    @staticmethod
                    def forward(ctx, x):
                        return src.cpu.psamask_forward(x)
                    @staticmethod
                    def backward(ctx, g):
                        return src.cpu.psamask_backward(g)
            """,
            "model/psanet.py": """
                import torch
                from lib.psa.functions.psamask import PSAMask
                class PSANet(torch.nn.Module):
                    def forward(self, x):
                        return PSAMask.apply(x)
            """,
        },
    )
    review = build_review(str(root))
    assert [i.kind for i in review.work] == ["compiled-custom-op"]
    # the op is one item; its wrapper and its build are not two more gaps in the effort
    assert "gap" not in review.effort.formula


def test_training_scripts_under_scripts_are_ported(tmp_path: Path) -> None:
    """guided-diffusion's ``scripts/image_train.py`` hands the loop to the package's
    ``TrainLoop``: the entry point is ported; ``scripts/image_sample.py`` is a tool."""
    root = write_repo(
        tmp_path / "diffusion",
        {
            "gd/net.py": NET,
            "gd/train_util.py": """
                import torch
                class TrainLoop:
                    def __init__(self, model):
                        self.model = model
                        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
                    def run_loop(self):
                        self.model(torch.zeros(1, 2)).sum().backward()
                        self.opt.step()
            """,
            "scripts/image_train.py": """
                from gd.net import Net
                from gd.train_util import TrainLoop
                def main():
                    TrainLoop(Net()).run_loop()
                if __name__ == "__main__":
                    main()
            """,
            "scripts/image_sample.py": """
                import torch
                from gd.net import Net
                def main():
                    print(Net()(torch.zeros(1, 2)))
                if __name__ == "__main__":
                    main()
            """,
        },
    )
    assert dict(build_review(str(root)).ancillary) == {"scripts/image_sample.py": "scripts"}


def test_a_method_repeated_in_sibling_variant_files_is_one_rewrite(tmp_path: Path) -> None:
    loss = textwrap.dedent(
        """
        import torch
        class BboxLoss(torch.nn.Module):
            def forward(self, pred, mask):
                n = int(mask.sum())
                return pred[mask].sum() + torch.nonzero(mask).shape[0] + torch.zeros(n).sum()
        """
    )
    files = {
        "net.py": NET,
        "utils/loss_tal.py": loss,
        # the dual-head variant: the same method, and a class of its own
        "utils/loss_tal_dual.py": loss + "class DualLoss(BboxLoss):\n    pass\n",
        "train.py": """
            import torch
            from net import Net
            from utils.loss_tal import BboxLoss
            from utils.loss_tal_dual import DualLoss
            def main():
                model = Net()
                opt = torch.optim.SGD(model.parameters(), lr=0.1)
                x = model(torch.zeros(1, 2))
                (BboxLoss()(x, x > 0) + DualLoss()(x, x > 0)).backward()
                opt.step()
        """,
    }
    review = build_review(str(write_repo(tmp_path / "variants", files)))
    assert {w.path for w, *_ in review.dynamic_shape} == {
        "utils/loss_tal.py",
        "utils/loss_tal_dual.py",
    }
    assert review.effort.dynamic_shape_rewrites == 1


def test_a_tutorial_folder_is_counted_apart(tmp_path: Path) -> None:
    """A walkthrough written for readers (``tutorials/``) trains a copy of the loop with its
    own logging: counted apart with the examples (INVALID as ported code); the training at
    the root stays (VALID)."""
    files = {
        "net.py": TOOLS["net.py"],
        "train.py": """
            import torch
            from net import Net
            def main():
                net = Net()
                opt = torch.optim.SGD(net.parameters(), lr=0.1)
                for _ in range(3):
                    loss = net(torch.zeros(1, 2)).sum()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
            if __name__ == "__main__":
                main()
        """,
        "tutorials/finetune_example.py": """
            import torch
            from net import Net
            net = Net()
            opt = torch.optim.SGD(net.parameters(), lr=0.1)
            for step in range(3):
                loss = net(torch.zeros(1, 2)).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
                print(loss.item())
        """,
    }
    review = build_review(str(write_repo(tmp_path / "tut", files)))
    apart = dict(review.ancillary)
    assert apart.get("tutorials/finetune_example.py") == "examples"
    assert "train.py" not in apart
