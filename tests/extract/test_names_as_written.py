"""A finding names the public path the code spelled; the canonical name rides along.

Searching the code for a reported name must find the call: `F.conv2d` is reported as
`torch.nn.functional.conv2d`, not as the C function's canonical home `torch.conv2d`.
Paths through private modules still collapse to the canonical name.
"""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_snippet

SRC = """\
import torch
import torch.nn.functional as F
from torch.utils.data.distributed import DistributedSampler
from torch.nn.modules.conv import Conv2d
from torch.utils.data.sampler import RandomSampler


def build(x, data):
    F.conv2d(x, x)
    F.prelu(x, x)
    DistributedSampler(data)
    Conv2d(1, 2, 3)
    RandomSampler(data)
    return torch.conv2d(x, x)
"""


def test_the_api_is_the_spelling_and_canonical_the_object(tmp_path: Path) -> None:
    found = {(f.span.line, f.api, f.canonical) for f in scan_snippet(tmp_path, SRC)}
    assert found >= {
        (9, "torch.nn.functional.conv2d", "torch.conv2d"),
        (10, "torch.nn.functional.prelu", "torch.prelu"),
        (
            11,
            "torch.utils.data.distributed.DistributedSampler",
            "torch.utils.data.DistributedSampler",
        ),
        # private module paths: the canonical public name
        (12, "torch.nn.Conv2d", "torch.nn.Conv2d"),
        (13, "torch.utils.data.RandomSampler", "torch.utils.data.RandomSampler"),
        (14, "torch.conv2d", "torch.conv2d"),
    }


def test_matching_falls_back_to_the_canonical_name(tmp_path: Path) -> None:
    by_line = {f.span.line: f for f in scan_snippet(tmp_path, SRC)}
    # the tables list torch.nn.functional.conv2d; both spellings get the same verdict
    assert by_line[9].status == by_line[14].status != "unknown"
    assert by_line[9].mindspore_api == by_line[14].mindspore_api
    # the table row is spelled torch.utils.data.distributed.DistributedSampler
    assert by_line[11].status in ("different", "consistent")
    assert by_line[11].namespace == "torch.utils.data"


def test_module_metadata_is_no_finding(tmp_path: Path) -> None:
    src = "import torch\nv = torch.__version__\nparts = torch.__version__.split('.')\n"
    assert scan_snippet(tmp_path, src) == []


def test_public_apis_the_index_once_dropped_are_known(tmp_path: Path) -> None:
    src = """\
import torch.distributed as dist
from torch.utils.cpp_extension import BuildExtension
from torch.utils.tensorboard import SummaryWriter

writer = SummaryWriter("runs")
dist.barrier(group=dist.group.WORLD)
cmdclass = {"build_ext": BuildExtension}
"""
    found = {(f.span.line, f.api): f.status for f in scan_snippet(tmp_path, src)}
    assert found.keys() >= {
        (5, "torch.utils.tensorboard.SummaryWriter"),
        (6, "torch.distributed.group.WORLD"),
        (6, "torch.distributed.barrier"),
        (7, "torch.utils.cpp_extension.BuildExtension"),
    }
    assert "unknown" not in found.values()


SHADOWED = """\
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.last = nn.utils.weight_norm(nn.Linear(4, 4, bias=False))
        self.proj = spectral_norm(nn.Linear(4, 4))
        self.out = torch.nn.utils.weight_norm(nn.Linear(4, 2))
"""


def test_a_function_that_shadows_its_submodule_is_an_api_use(tmp_path: Path) -> None:
    """``torch.nn.utils.weight_norm`` is also a submodule's name; the package's ``__init__``
    binds the function over it, so these calls are uses (MindSpore has no counterpart)."""
    found = {(f.span.line, f.api) for f in scan_snippet(tmp_path, SHADOWED)}
    assert {
        (9, "torch.nn.utils.weight_norm"),
        (10, "torch.nn.utils.spectral_norm"),
        (11, "torch.nn.utils.weight_norm"),
    } <= found
