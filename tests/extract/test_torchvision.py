"""torchvision (and the tables' torchaudio rows) are scanned and matched like torch."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from scan_helpers import scan_snippet

from apiscan.resolve.torch_api import load_torch_api

SRC = """\
import torchvision
import torchvision.transforms as T
from torchvision.ops import nms, FrozenBatchNorm2d
from torchvision import models
import torchaudio

def f(boxes, scores, img):
    keep = torchvision.ops.nms(boxes, scores, 0.5)
    nms(boxes, scores, 0.5)
    t = T.Compose([T.Resize(224), T.ToTensor()])
    m = models.resnet50(weights=None)
    m.eval()
    FrozenBatchNorm2d(3).parameters()
    torchaudio.transforms.MelSpectrogram()
    return keep.sum(), t(img)
"""


def test_torchvision_calls_are_found_and_matched(tmp_path: Path) -> None:
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, SRC)}
    nms_finding = found[(8, "torchvision.ops.nms")]
    assert nms_finding.status == "different"  # the tables' row with a difference page
    assert nms_finding.namespace == "torchvision.ops"
    assert (9, "torchvision.ops.nms") in found
    assert found[(10, "torchvision.transforms.Compose")].status == "consistent"
    assert found[(10, "torchvision.transforms.Resize")].mindspore_api == (
        "mindspore.dataset.vision.Resize"
    )
    assert (11, "torchvision.models.resnet50") in found
    # resnet50 builds an nn.Module; FrozenBatchNorm2d is one
    assert (12, "torch.nn.Module.eval") in found
    assert (13, "torch.nn.Module.parameters") in found
    # the result of a torchvision op is a tensor
    assert (15, "torch.Tensor.sum") in found
    # torchaudio is indexed too, and the tables' row is used
    assert found[(14, "torchaudio.transforms.MelSpectrogram")].status == "different"


def test_public_torchaudio_apis_without_a_row_are_missing_not_unknown(tmp_path: Path) -> None:
    # The tables list 28 torchaudio rows (r2.6.0/pytorch_api_mapping.md, "## torchaudio"),
    # none for torchaudio.load: a public API with no counterpart is missing. torchaudio 2.9
    # removed torchaudio.info, which stays unknown.
    src = """\
import torchaudio
import torchaudio.compliance.kaldi as kaldi

def read(path):
    wav, sr = torchaudio.load(path)
    torchaudio.info(path)
    return kaldi.fbank(wav, num_mel_bins=80)
"""
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    assert found[(5, "torchaudio.load")].status == "missing"
    assert found[(6, "torchaudio.info")].status == "unknown"
    assert found[(7, "torchaudio.compliance.kaldi.fbank")].status == "missing"
    assert load_torch_api().is_public("torchaudio.functional.compute_deltas")


def test_the_index_knows_torchvision_aliases() -> None:
    api = load_torch_api()
    assert api.canonical("torchvision.ops.boxes.nms") == "torchvision.ops.nms"
    assert api.canonical("torchvision.transforms.transforms.Resize") == (
        "torchvision.transforms.Resize"
    )
    assert api.as_written("torchvision.ops.boxes.nms") == "torchvision.ops.nms"
    assert api.returns("torchvision.ops.nms") == "tensor"
    assert api.member("torchvision.ops.FrozenBatchNorm2d", "parameters") == (
        "torch.nn.Module.parameters"
    )


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "scripts" / "gen_static_api.py"
    spec = importlib.util.spec_from_file_location("gen_static_api", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_static_indexer_on_a_small_package(tmp_path: Path, generator: ModuleType) -> None:
    files = {
        "vis/__init__.py": "from .ops import *\nfrom . import ops\n",
        "vis/ops/__init__.py": "from ._boxes import nms\nfrom .layers import *\n",
        "vis/ops/_boxes.py": (
            "from torch import Tensor\ndef nms(b: Tensor, t: float) -> Tensor: ...\n"
        ),
        "vis/ops/layers.py": (
            "from torch import nn\n__all__ = ['Frozen']\n"
            "class Frozen(nn.Module):\n    def __init__(self, n, eps=1e-5): ...\n"
            "    def extra(self, x): ...\n"
        ),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    torch_index = {"names": {"torch.nn.Module": {"k": "class"}}, "aliases": {}, "bases": {}}
    indexer = generator.Indexer("vis", generator.read_modules(tmp_path, "vis"), torch_index)
    indexer.build()
    # the shallowest public module exporting a name gives its canonical path
    assert indexer.names["vis.nms"]["r"] == "tensor"
    assert indexer.aliases["vis.ops.nms"] == "vis.nms"
    assert indexer.names["vis.Frozen"]["p"] == [
        ["n", "pos_or_kw", False],
        ["eps", "pos_or_kw", True],
    ]
    assert indexer.aliases["vis.ops.layers.Frozen"] == "vis.Frozen"
    assert indexer.bases["vis.Frozen"] == ["torch.nn.Module"]
    assert indexer.names["vis.Frozen.extra"]["k"] == "method"
    assert "vis.ops._boxes.nms" not in indexer.aliases  # private paths are no spellings


def test_static_indexer_follows_lazy_modules_and_summed_all(
    tmp_path: Path, generator: ModuleType
) -> None:
    # torchaudio.models.decoder: __all__ = _A + _B, names served by a PEP 562 __getattr__
    # from the private submodule _ctc_decoder.
    files = {
        "aud/__init__.py": "from . import decoder\n",
        "aud/decoder/__init__.py": (
            "_A = ['ctc_decoder']\n_B = ['CTCHypothesis']\n"
            "def __getattr__(name):\n    from . import _ctc_decoder\n"
            "    return getattr(_ctc_decoder, name)\n"
            "__all__ = _A + _B\n"
        ),
        "aud/decoder/_ctc_decoder.py": (
            "class CTCHypothesis:\n    def words(self): ...\n"
            "def ctc_decoder(lexicon, tokens): ...\n"
        ),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    torch_index: dict = {"names": {}, "aliases": {}, "bases": {}}
    indexer = generator.Indexer("aud", generator.read_modules(tmp_path, "aud"), torch_index)
    indexer.build()
    assert indexer.names["aud.decoder.ctc_decoder"]["k"] == "function"
    assert indexer.names["aud.decoder.CTCHypothesis.words"]["k"] == "method"
    assert load_torch_api().is_public("torchaudio.models.decoder.ctc_decoder")
