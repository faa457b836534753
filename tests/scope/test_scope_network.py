"""What "the network" is: a Module's definition (its constructor, the builders it calls, the
default layer classes of its signature, torch layers built by factories), its losses however
they are reached, and the post-processing a forward calls; not post-processing only evaluation
calls, export code or distributed plumbing."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo, write_repo

from apiscan.scope.classify import is_data_path, is_export_path, is_postprocess, use_scope

BLOCKS = """
import torch
import torch.distributed as dist
from torch import nn


def get_activation(name="silu"):
    if name == "silu":
        return nn.SiLU(inplace=True)
    return nn.ReLU()


def conv_bn(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3), nn.BatchNorm2d(cout))


class Block(nn.Module):
    def __init__(self, c, norm_layer=nn.BatchNorm2d, act_layer=nn.GELU):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3)
        self.norm = norm_layer(c)
        self.act = act_layer()
        self.act2 = get_activation()
        self.seq = nn.Sequential(nn.Linear(c, c), nn.Dropout(0.1))
        self.layers = nn.ModuleList([nn.Linear(c, c) for _ in range(2)])
        self.apply(self._init_weights)

    def _init_weights(self, m):
        nn.init.zeros_(m.bias)

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class Criterion(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss_map = {"labels": self.loss_labels, "boxes": self.loss_boxes}

    def loss_labels(self, out, tgt):
        return torch.nn.functional.cross_entropy(out, tgt)

    def loss_boxes(self, out, tgt):
        return torch.nn.functional.l1_loss(out, tgt)

    def loss_extra(self, out, tgt):
        return torch.nn.functional.mse_loss(out, tgt)

    def forward(self, out, tgt):
        total = sum(self.loss_map[k](out, tgt) for k in self.loss_map)
        return total + getattr(self, "loss_" + "extra")(out, tgt)


class PostProcess(nn.Module):
    @torch.no_grad()
    def forward(self, out):
        return torch.nonzero(out > 0.5)


class Detector(nn.Module):
    def forward(self, x):
        if self.training:
            return x
        return self._postprocess(x)

    def _postprocess(self, x):
        return torch.nonzero(x)


def all_gather_preds(preds):
    out = [torch.zeros_like(preds) for _ in range(dist.get_world_size())]
    dist.all_gather(out, preds)
    return out
"""

FILES = {
    "pkg/blocks.py": BLOCKS,
    "pkg/data/sampler.py": """
        import torch.distributed as dist
        from torch.utils.data import Sampler


        class Shards(Sampler):
            def __init__(self, n):
                self.rank = dist.get_rank()
                self.n = n

            def __iter__(self):
                return iter(range(self.rank, self.n, 2))
    """,
    "pkg/data/coco_eval.py": """
        import torch


        def synchronize(preds):
            torch.distributed.all_gather([], preds)
    """,
    "tools/export_onnx.py": """
        import torch
        from torch import nn


        class ExportWrapper(nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model
                self.act = nn.SiLU()

            def forward(self, x):
                return torch.nonzero(self.model(x))
    """,
    "tools/train.py": """
        import torch
        from torch import nn

        from pkg.blocks import conv_bn


        def main():
            stem = conv_bn(3, 8)
            head = nn.Linear(8, 10)
            model = nn.DataParallel(nn.Sequential(stem, head))
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            return opt
    """,
    "tests/test_blocks.py": """
        from torch import nn


        def test_block():
            assert nn.Conv2d(1, 1, 1)
    """,
}


def scopes(tmp_path: Path) -> dict[tuple[str, int, str], str]:
    """(path, line, api) -> scope of every API and shape finding of the fixture."""
    write_repo(tmp_path, FILES)
    result = scan_repo(tmp_path)
    out = {(f.path, f.span.line, f.api): f.scope for f in result.api_findings}
    out.update({(f.path, f.span.line, f.rule): f.scope for f in result.shape_findings})
    return out


def test_a_modules_definition_is_network(tmp_path: Path) -> None:
    got = scopes(tmp_path)
    b = "pkg/blocks.py"
    for line, api in [
        (8, "torch.nn.SiLU"),  # a builder the constructor calls
        (9, "torch.nn.ReLU"),
        (13, "torch.nn.Sequential"),  # a factory function returning layers
        (13, "torch.nn.Conv2d"),
        (13, "torch.nn.BatchNorm2d"),
        (16, "torch.nn.Module"),  # the base class of a layer
        (17, "torch.nn.BatchNorm2d"),  # default layer classes
        (17, "torch.nn.GELU"),
        (19, "torch.nn.Conv2d"),  # constructors in __init__
        (20, "torch.nn.BatchNorm2d"),  # norm_layer(c): probably the default class
        (23, "torch.nn.Sequential"),  # Sequential / ModuleList contents
        (23, "torch.nn.Linear"),
        (23, "torch.nn.Dropout"),
        (24, "torch.nn.ModuleList"),
        (24, "torch.nn.Linear"),
        (28, "torch.nn.init.zeros_"),  # passed to self.apply(...) by the constructor
    ]:
        assert got[b, line, api] == "network", (line, api)
    assert got[b, 56, "DS103"] == "host"  # a post-processor's nonzero is no graph blocker
    # layers a training script builds are the network's too; the data-parallel wrapper and
    # the optimizer are host plumbing
    assert got["tools/train.py", 9, "torch.nn.Linear"] == "network"
    assert got["tools/train.py", 10, "torch.nn.Sequential"] == "network"
    assert got["tools/train.py", 10, "torch.nn.DataParallel"] == "host"
    assert got["tools/train.py", 11, "torch.optim.SGD"] == "host"
    # tests and export code stay host whatever they build
    assert got["tests/test_blocks.py", 5, "torch.nn.Conv2d"] == "host"
    assert got["tools/export_onnx.py", 9, "torch.nn.SiLU"] == "host"


def test_losses_through_a_dict_or_getattr_are_network(tmp_path: Path) -> None:
    got = scopes(tmp_path)
    b = "pkg/blocks.py"
    assert got[b, 40, "torch.nn.functional.cross_entropy"] == "network"  # dict of bound methods
    assert got[b, 43, "torch.nn.functional.l1_loss"] == "network"
    assert got[b, 46, "torch.nn.functional.mse_loss"] == "network"  # getattr(self, "loss_" + k)


def test_post_processing_export_and_distributed_are_host(tmp_path: Path) -> None:
    got = scopes(tmp_path)
    b = "pkg/blocks.py"
    assert got[b, 56, "torch.nonzero"] == "host"  # class PostProcess(nn.Module), never called
    # _postprocess, called by a forward (its inference branch): compiled with it, network
    assert got[b, 66, "torch.nonzero"] == "network"
    assert got["tools/export_onnx.py", 12, "torch.nonzero"] == "host"  # an export wrapper
    # a gather anywhere outside the network, a sampler's rank: host, not data
    assert got["pkg/data/sampler.py", 7, "torch.distributed.get_rank"] == "host"
    assert got["pkg/data/coco_eval.py", 5, "torch.distributed.all_gather"] == "host"
    assert got[b, 71, "torch.distributed.all_gather"] == "host"


def test_place_and_name_rules() -> None:
    assert not is_data_path("pkg/datasets/coco_eval.py")
    assert not is_data_path("pkg/data/evaluation.py")
    assert is_data_path("pkg/data/coco.py")
    assert is_export_path("tools/export_onnx.py")
    assert is_export_path("detectron2/export/flatten.py")
    assert is_export_path("deploy/trt.py")
    assert not is_export_path("timm/layers/conv2d_same.py")
    assert is_postprocess("PostProcessPanoptic.forward")
    assert is_postprocess("GeneralizedRCNN._postprocess")
    assert is_postprocess("post_process_segm")
    assert not is_postprocess("Head.process")
    assert use_scope("host", "torch.nn.Conv2d", "annotation", "m.py") == "host"
    assert use_scope("host", "torch.nn.BatchNorm2d", "reference", "m.py") == "host"  # isinstance
    assert use_scope("host", "torch.nn.Conv2d", "call", "m.py") == "network"
    assert use_scope("host", "torch.nn.Module", "reference", "m.py") == "host"
    assert use_scope("data", "torch.nn.Conv2d", "call", "m.py") == "data"
    assert use_scope("network", "torch.distributed.all_reduce", "call", "m.py") == "network"


def test_a_dynamic_shape_where_the_network_is_built_is_no_graph_blocker(tmp_path: Path) -> None:
    # the constructor and the builders only it calls belong to the network (their API uses
    # are network) but run once on the host: a dynamic shape there is scoped host
    write_repo(
        tmp_path,
        {
            "pkg/net.py": """
                import torch
                from torch import nn


                def widths(depth):
                    w = torch.arange(depth) * 8
                    return torch.unique(w).tolist()


                def shared(x):
                    return torch.nonzero(x)


                class Net(nn.Module):
                    def __init__(self, depth):
                        super().__init__()
                        self.layers = nn.ModuleList(nn.Linear(c, c) for c in widths(depth))
                        shared(torch.ones(3))

                    def forward(self, x):
                        return shared(x)
            """
        },
    )
    result = scan_repo(tmp_path)
    shapes = {(f.function, f.rule): f.scope for f in result.shape_findings}
    assert shapes[("widths", "DS101")] == "host"
    assert shapes[("shared", "DS103")] == "network"  # a forward runs it too
    api = {(f.span.line, f.api): f.scope for f in result.api_findings}
    assert api[(7, "torch.unique")] == "network"
    assert api[(17, "torch.nn.Linear")] == "network"


def test_sequential_subclasses_and_builder_defaults_are_network(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/stem.py": """
                from torch import nn


                def conv_stem(c, act_layer=nn.GELU):
                    return nn.Sequential(nn.Conv2d(3, c, 3), act_layer())


                class Stem(nn.Sequential):
                    def __init__(self, c, norm_layer=nn.BatchNorm2d):
                        super().__init__(nn.Conv2d(3, c, 3), norm_layer(c))


                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.stem = conv_stem(8)

                    def forward(self, x):
                        return self.stem(x)
            """
        },
    )
    got = {(f.span.line, f.api): f.scope for f in scan_repo(tmp_path).api_findings}
    assert got[(4, "torch.nn.GELU")] == "network"  # a default of a builder the network calls
    assert got[(9, "torch.nn.BatchNorm2d")] == "network"  # forward is nn.Sequential's
    assert got[(10, "torch.nn.Conv2d")] == "network"


def test_a_loss_named_function_under_no_grad_evaluates_and_is_no_network_root(
    tmp_path: Path,
) -> None:
    """``@torch.no_grad() def estimate_loss()`` (nanoGPT) averages losses for a log line: it
    differentiates nothing, so the batch sampler it calls is not compiled into the network.
    The same body without the decorator is a loss, and its helper network."""
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torch

                def get_batch(n):
                    ix = torch.randint(100, (n,))
                    return ix

                def sample_batch(n):
                    return torch.randperm(n)

                @torch.no_grad()
                def estimate_loss(model):
                    return model(get_batch(4)).mean()

                def batch_loss(model):
                    return model(sample_batch(4)).mean()
            """,
        },
    )
    got = {(f.path, f.span.line, f.api): f.scope for f in scan_repo(tmp_path).api_findings}
    assert got["train.py", 4, "torch.randint"] == "host"
    assert got["train.py", 8, "torch.randperm"] == "network"


def test_a_loss_class_computing_through_its_own_methods(tmp_path: Path) -> None:
    """A GAN loss with no ``forward``: its ``run_G``/``run_D`` compute what the backward pass
    differentiates (network); the method running the backward pass itself is the training
    step (host). A class with a ``forward`` keeps only that as its entry."""
    write_repo(
        tmp_path,
        {
            "loss.py": """
                import torch

                class GANLoss:
                    def __init__(self, G, D):
                        self.G = G
                        self.D = D

                    def run_G(self, z):
                        return self.G(torch.randn_like(z))

                    def run_D(self, img):
                        return self.D(img.flip(3))

                    def accumulate_gradients(self, z, gain):
                        loss = torch.nn.functional.softplus(-self.run_D(self.run_G(z)))
                        loss.mean().mul(gain).backward()
                        return torch.zeros(1)

                class PlainLoss(torch.nn.Module):
                    def forward(self, x):
                        return x.abs().mean()

                    def report(self, x):
                        return torch.ones(1)
            """,
        },
    )
    got = {(f.span.line, f.api): f.scope for f in scan_repo(tmp_path).api_findings}
    assert got[9, "torch.randn_like"] == "network"
    assert got[12, "torch.Tensor.flip"] == "network"
    assert got[17, "torch.zeros"] == "host"
    assert got[24, "torch.ones"] == "host"
