"""What is ported and counted (issue 20 item 4), on fixtures/launcher: a detector whose
training entry point under ``tools/`` delegates the loop and the optimizer to the library,
with a builder branch and a registry entry that no shipped config selects."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture, write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.work import UNREACHED

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/launcher")


def test_a_training_entry_point_that_delegates_the_loop_is_ported(review: Review) -> None:
    apart = dict(review.ancillary)
    # tools/train_net.py builds the model, calls make_optimizer (re-exported by the solver
    # package) and do_train: it is the training entry point, not a tool
    assert "tools/train_net.py" not in apart
    # the evaluation script builds the model too but reaches no optimizer nor backward pass
    assert apart["tools/eval_net.py"] == "tools"


def test_branches_no_shipped_config_selects_are_counted_apart(review: Review) -> None:
    apart = dict(review.ancillary)
    # build_head's alternative switched by MODEL.ANCHOR_ON, which configs/launcher/ never
    # turns on (only configs/other/ does), and the loss only it imports
    assert apart["det/modeling/anchor/anchor.py"].startswith(f"{UNREACHED} (AnchorModule:")
    assert "ANCHOR_ON" in apart["det/modeling/anchor/anchor.py"]
    assert apart["det/modeling/anchor/loss.py"] == (
        f"{UNREACHED} (imported only from det/modeling/anchor/anchor.py)"
    )
    # a registry entry no config of the model names ("Tiny"), and its blocks
    assert "'Tiny'" in apart["det/modeling/tiny.py"]
    assert apart["det/modeling/tiny_blocks.py"].startswith(UNREACHED)
    # the selected branch, the default registry entry and the shared code stay ported
    for path in ("det/modeling/dense/dense.py", "det/modeling/backbone.py", "det/modeling/head.py"):
        assert path not in apart
    # the model tree still shows every alternative, for the lead to override
    parts = dict(review.top_models[0].parts)
    assert parts["head"].startswith("AnchorModule or DenseModule")
    # their dynamic-shape functions (nonzero, boolean masks) are not in the effort
    assert review.effort.dynamic_shape_rewrites == 0
    assert not any("anchor" in w.path or "tiny" in w.path for i in review.work for w in i.where)


def test_configured_patterns_override_what_the_configs_leave_out(tmp_path: Path) -> None:
    root = tmp_path / "launcher"
    shutil.copytree(REPO / "fixtures" / "launcher", root)
    (root / "pyproject.toml").write_text('[tool.apiscan]\nreview-ancillary = ["tools/*"]\n')
    apart = dict(build_review(str(root)).ancillary)
    assert not any(w.startswith(UNREACHED) for w in apart.values())


def test_registry_entries_are_told_apart_only_by_the_models_own_configs(tmp_path: Path) -> None:
    root = tmp_path / "heads"
    write_repo(
        root,
        {
            "pkg/registry.py": """
                class Registry(dict):
                    def register(self, name):
                        def add(fn):
                            self[name] = fn
                            return fn
                        return add
                HEADS = Registry()
            """,
            "pkg/a.py": """
                import torch
                from pkg.registry import HEADS
                @HEADS.register("A")
                def build_a(cfg):
                    return torch.nn.Linear(2, 2)
            """,
            "pkg/b.py": """
                import torch
                from pkg.registry import HEADS
                @HEADS.register("B")
                def build_b(cfg):
                    return torch.nn.Linear(2, 3)
            """,
        },
    )
    assert not any(w.startswith(UNREACHED) for _, w in build_review(str(root)).ancillary)
    # a library's configs/ naming only "A": "B" is an extension point its users build
    write_repo(root, {"configs/a.yaml": "MODEL:\n  HEAD: A\n"})
    assert not any(w.startswith(UNREACHED) for _, w in build_review(str(root)).ancillary)
    # the model's own configs (configs/heads/) naming only "A": the file registering "B"
    # is counted apart
    write_repo(root, {"configs/heads/a.yaml": "MODEL:\n  HEAD: A\n"})
    apart = dict(build_review(str(root)).ancillary)
    assert apart == {"pkg/b.py": f"{UNREACHED} (HEADS 'B' named in no configs/heads/ file)"}


_SEGMENTER = {
    "config.json": '{"arch": {"type": "PSPNet", "args": {"backbone": "resnet50"}}}\n',
    "train.py": """
        import argparse
        import json

        import torch

        import models


        def get_instance(module, name, config, *args):
            return getattr(module, config[name]["type"])(*args, **config[name]["args"])


        def main(config):
            model = get_instance(models, "arch", config, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            loss = model(torch.zeros(1, 3, 8, 8)).mean()
            loss.backward()
            optimizer.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("-c", "--config", default="config.json", type=str)
            args = parser.parse_args()
            main(json.load(open(args.config)))
    """,
    "models/__init__.py": """
        from .fcn import FCN8
        from .pspnet import PSPNet
    """,
    "models/fcn.py": """
        import torch
        from torchvision import models


        class FCN8(torch.nn.Module):
            def __init__(self, num_classes):
                super().__init__()
                self.features = models.vgg16(pretrained=True).features
                self.head = torch.nn.Conv2d(512, num_classes, 1)

            def forward(self, x):
                return self.head(self.features(x))
    """,
    "models/pspnet.py": """
        import torch
        from torchvision import models


        class Pyramid(torch.nn.Module):
            def __init__(self, channels):
                super().__init__()
                self.conv = torch.nn.Conv2d(channels, channels, 1)

            def forward(self, x):
                return self.conv(x)


        class PSPNet(torch.nn.Module):
            def __init__(self, num_classes, backbone="resnet50"):
                super().__init__()
                self.backbone = models.resnet50(pretrained=True)
                self.pyramid = Pyramid(2048)
                self.head = torch.nn.Conv2d(2048, num_classes, 1)

            def forward(self, x):
                return self.head(self.pyramid(self.backbone(x)))
    """,
}


def test_only_the_configured_models_backbone_is_a_work_item(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, _SEGMENTER)))
    backbones = [i for i in review.work if i.kind == "pretrained-backbone"]
    # config.json selects PSPNet: its ResNet-50 is the work; FCN8's VGG, exported beside it
    # by models/__init__.py, is an alternative the lead may choose, noted and not counted
    assert [i.what.partition("(")[0] for i in backbones] == ["torchvision.models.resnet50"]
    assert backbones[0].where[0].path == "models/pspnet.py"
    assert (
        "; alternatives beside it (not counted, built only by models the config does not select"
        in backbones[0].why
    )
    assert "torchvision.models.vgg16 (FCN8" in backbones[0].why


def test_an_extension_built_at_import_is_a_compiled_op(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/psa/__init__.py": "",
            "lib/psa/src/__init__.py": """
                import os
                from torch.utils.cpp_extension import load

                here = os.path.dirname(__file__)
                cpu = load("psamask_cpu", [os.path.join(here, "psamask.cpp")])
            """,
            "lib/psa/src/psamask.cpp": "// kernel\n",
            "lib/psa/mask.py": """
                import torch
                from torch.autograd import Function

                from lib.psa import src


                class PSAMask(Function):
                    @staticmethod
                    def forward(ctx, x):
                        out = torch.zeros_like(x)
                        src.cpu.psamask_forward(x, out)
                        return out

                    @staticmethod
                    def backward(ctx, grad):
                        out = torch.zeros_like(grad)
                        src.cpu.psamask_backward(grad, out)
                        return out
            """,
        },
    )
    ops = [i for i in build_review(str(tmp_path)).work if i.kind.startswith("compiled")]
    # semseg's PSAMask: ``cpu = load(...)`` at import, its forward and backward one op
    assert len(ops) == 1
    assert ops[0].what.endswith(".psamask (cpu.psamask_backward, cpu.psamask_forward)")
    assert [w.path for w in ops[0].where] == ["lib/psa/mask.py", "lib/psa/mask.py"]
