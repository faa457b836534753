"""Same-name candidates are of the same kind; namespace moves point at real MindSpore APIs."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from scan_helpers import scan_snippet

from apiscan.mapping.candidates import MOVES, CandidateIndex, load_candidates
from apiscan.resolve.torch_api import load_torch_api


def _index() -> CandidateIndex:
    return CandidateIndex(
        {
            "format": 2,
            "mindspore_version": "9.9",
            "namespaces": {
                "mindspore.ops": {
                    "dtype": {"k": "function", "a": [1, 1]},
                    "Size": {"k": "primitive", "a": [0, 0]},
                    "erfinv": {"k": "function", "a": [1, 1]},
                    "norm": {"k": "function", "a": [3, 3]},
                },
                "mindspore": {"float32": {"k": "constant"}},
                "mindspore.runtime": {"synchronize": {"k": "function", "a": [0, 0]}},
            },
        }
    )


def test_a_candidate_is_of_the_same_kind() -> None:
    index = _index()
    assert index.candidate("torch.dtype", "class") is None  # ops.dtype is a function
    assert index.candidate("torch.Size", "class") is None  # ops.Size is a primitive
    assert index.candidate("torch.erfinv", "function") == "mindspore.ops.erfinv"
    assert index.candidate("torch.float32", "constant") == "mindspore.float32"
    assert index.candidate("torch.float32", "function") is None


def test_a_candidate_accepts_the_required_arguments() -> None:
    index = _index()
    one = (("input", "pos_or_kw", False), ("p", "pos_or_kw", True))
    # ops.norm requires three positional arguments; torch.norm(input) passes one
    assert index.candidate("torch.norm", "function", one) is None
    assert index.candidate("torch.erfinv", "function", one[:1]) == "mindspore.ops.erfinv"


def test_a_candidate_shares_a_name_with_several_required_parameters() -> None:
    index = CandidateIndex(
        {
            "format": 2,
            "mindspore_version": "9.9",
            "namespaces": {
                "mindspore:Tensor": {
                    "unfold": {"k": "method", "a": [1, 4], "n": ["kernel_size", "dilation"]},
                    "scatter": {"k": "method", "a": [2, 3], "n": ["axis", "index", "src"]},
                },
                "mindspore.nn:CellList": {"append": {"k": "method", "a": [1, 1], "n": ["cell"]}},
            },
        }
    )
    required = (("dimension", "pos_or_kw", False), ("size", "pos_or_kw", False))
    # torch.Tensor.unfold(dimension, size, step) slides a window; MindSpore's is im2col.
    assert index.candidate("torch.Tensor.unfold", "method", required) is None
    scatter = (("dim", "pos_or_kw", False), ("index", "pos_or_kw", False))
    assert index.candidate("torch.Tensor.scatter", "method", scatter) == "mindspore.Tensor.scatter"
    # one required parameter is often only renamed (module → cell)
    one = (("module", "pos_or_kw", False),)
    assert index.candidate("torch.nn.ModuleList.append", "method", one) == (
        "mindspore.nn.CellList.append"
    )


def test_the_shipped_index_knows_instance_attributes_and_unrelated_same_names() -> None:
    index, api = load_candidates(), load_torch_api()
    assert index is not None
    # nn.Cell().training is set in __init__ (mindspore 2.10); torch's Module.training
    training = "torch.nn.Module.training"
    assert index.candidate(training, api.kind(training)) == "mindspore.nn.Cell.training"
    unfold = "torch.Tensor.unfold"
    assert index.candidate(unfold, api.kind(unfold), api.params(unfold)) is None


def test_a_namespace_move_says_why() -> None:
    found = _index().lookup("torch.cuda.synchronize", "function", ())
    assert found is not None
    assert found[0] == "mindspore.runtime.synchronize"
    assert "mindspore.runtime" in found[1]


def test_the_shipped_index_records_kinds() -> None:
    index = load_candidates()
    api = load_torch_api()
    assert index is not None
    for torch_name in ("torch.dtype", "torch.Size"):
        assert index.candidate(torch_name, api.kind(torch_name), api.params(torch_name)) is None
    assert index.candidate("torch.Tensor.add_", "method") == "mindspore.Tensor.add_"


def test_a_metric_is_no_candidate_for_a_layer() -> None:
    """``mindspore.nn.CosineSimilarity`` is an evaluation metric (``mindspore.train``'s
    Metric: accumulated over batches, read by ``eval()``), not the Cell
    ``torch.nn.CosineSimilarity`` is: the index records it as a ``metric``, no class's
    same-name counterpart."""
    index = load_candidates()
    api = load_torch_api()
    assert index is not None
    name = "torch.nn.CosineSimilarity"
    # INVALID: the same-name metric
    assert index.candidate(name, api.kind(name), api.params(name)) is None
    # VALID: a same-name layer, and the functional form the port calls in construct
    assert index.candidate("torch.nn.ReLU", "class") == "mindspore.mint.nn.ReLU"
    functional = "torch.nn.functional.cosine_similarity"
    found = index.candidate(functional, api.kind(functional), api.params(functional))
    assert found == "mindspore.ops.cosine_similarity"


MOVE_EXAMPLES = {
    "torch.cuda.empty_cache": "mindspore.runtime.empty_cache",
    "torch.cuda.synchronize": "mindspore.runtime.synchronize",
    "torch.cuda.current_stream": "mindspore.runtime.current_stream",
    "torch.cuda.Stream": "mindspore.runtime.Stream",
    "torch.cuda.Event": "mindspore.runtime.Event",
    "torch.cuda.max_memory_allocated": "mindspore.runtime.max_memory_allocated",
    "torch.cuda.memory_allocated": "mindspore.runtime.memory_allocated",
    "torch.nn.ModuleList.append": "mindspore.nn.CellList.append",
    "torch.nn.ModuleList.extend": "mindspore.nn.CellList.extend",
    "torch.nn.ModuleList.insert": "mindspore.nn.CellList.insert",
    "torch.nn.Sequential.append": "mindspore.nn.SequentialCell.append",
    "torch.nn.ModuleDict.keys": "mindspore.nn.CellDict.keys",
    "torch.nn.ModuleDict.items": "mindspore.nn.CellDict.items",
    "torch.Generator.manual_seed": "mindspore.Generator.manual_seed",
    "torch.Generator.initial_seed": "mindspore.Generator.initial_seed",
    "torch.utils.data.Sampler": "mindspore.dataset.Sampler",
    # torchvision's augmentation policies the tables leave out, same names in MindSpore
    "torchvision.transforms.AutoAugment": "mindspore.dataset.vision.AutoAugment",
    "torchvision.transforms.RandAugment": "mindspore.dataset.vision.RandAugment",
    "torchvision.transforms.TrivialAugmentWide": "mindspore.dataset.vision.TrivialAugmentWide",
}


@pytest.mark.parametrize(("torch_name", "target"), sorted(MOVE_EXAMPLES.items()))
def test_moves_name_apis_the_installed_mindspore_has(torch_name: str, target: str) -> None:
    index, api = load_candidates(), load_torch_api()
    assert index is not None
    assert index.candidate(torch_name, api.kind(torch_name), api.params(torch_name)) == target
    module_name, _, attr = target.rpartition(".")
    try:
        owner: object = importlib.import_module(module_name)
    except ModuleNotFoundError:  # a class member: mindspore.nn.CellList.append
        module_name, _, cls = module_name.rpartition(".")
        owner = getattr(importlib.import_module(module_name), cls)
    assert hasattr(owner, attr), target


def test_every_move_namespace_exists_in_the_installed_mindspore() -> None:
    for _, namespace, names, _ in MOVES:
        module_name, _, cls = namespace.partition(":")
        owner: object = importlib.import_module(module_name)
        if cls:
            owner = getattr(owner, cls)
        for name in names or ():
            assert hasattr(owner, name), f"{namespace}.{name}"


def test_scan_reports_moves_and_drops_wrong_kinds(tmp_path: Path) -> None:
    src = """\
import torch
from torch import nn

def f(x):
    torch.cuda.empty_cache()
    layers = nn.ModuleList()
    layers.append(nn.ReLU())
    return torch.Size([1, 2]), x.new_zeros(torch.Size([2]))
"""
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    empty = found[(5, "torch.cuda.empty_cache")]
    assert (empty.status, empty.mindspore_api) == ("candidate", "mindspore.runtime.empty_cache")
    assert "namespace move" in empty.note
    assert found[(7, "torch.nn.ModuleList.append")].mindspore_api == (
        "mindspore.nn.CellList.append"
    )
    size = found[(8, "torch.Size")]
    assert (size.status, size.mindspore_api) == ("missing", None)


def test_a_torchvision_transform_moves_to_mindspores_dataset_vision(tmp_path: Path) -> None:
    src = """\
import torchvision.transforms as T


def policy(name: str):
    if name == "auto":
        return T.AutoAugment()
    if name == "rand":
        return T.RandAugment(num_ops=2, magnitude=9)
    return T.AugMix()
"""
    found = {f.api: f for f in scan_snippet(tmp_path, src) if f.usage == "call"}
    # VALID: the same-name class of mindspore.dataset.vision, a candidate and a rewrite
    for name in ("AutoAugment", "RandAugment"):
        f = found[f"torchvision.transforms.{name}"]
        assert (f.status, f.mindspore_api) == ("candidate", f"mindspore.dataset.vision.{name}")
        assert "namespace move" in f.note and f.disposition == "rewrite"
    # INVALID: MindSpore 2.10 has no AugMix: still missing, still a gap
    augmix = found["torchvision.transforms.AugMix"]
    assert (augmix.status, augmix.mindspore_api, augmix.disposition) == ("missing", None, "gap")


#: Undescribed rows whose target is another kind of object than the PyTorch API, where
#: MindSpore now has the same name: (torch API, its r1.10 target, r1.10 line, candidate). No
#: later table (r2.0, r2.3.1, r2.4.0, r2.6.0) lists any of them.
STALE_KIND = (
    # r1.10 pytorch_api_mapping.md:339: a primitive class for an in-place method
    ("torch.Tensor.fill_", "mindspore.ops.Fill", 339, "mindspore.Tensor.fill_"),
    # r1.10 pytorch_api_mapping.md:379
    ("torch.Tensor.zero_", "mindspore.ops.ZerosLike", 379, "mindspore.Tensor.zero_"),
    # r1.10 pytorch_api_mapping.md:357: a Parameter's attribute for a method
    (
        "torch.Tensor.requires_grad_",
        "mindspore.Parameter.requires_grad",
        357,
        "mindspore.Tensor.requires_grad_",
    ),
    # r1.10 pytorch_api_mapping.md:136: the Tensor class for a factory function
    ("torch.tensor", "mindspore.Tensor", 136, "mindspore.tensor"),
    # r1.10 pytorch_api_mapping.md:275: a primitive class for a function
    (
        "torch.nn.functional.layer_norm",
        "mindspore.ops.LayerNorm",
        275,
        "mindspore.mint.nn.functional.layer_norm",
    ),
)


#: What the old target is (ms_targets.csv) and what the PyTorch API is (the torch index).
KINDS = {
    "torch.Tensor.fill_": ("a class", "a method"),
    "torch.Tensor.zero_": ("a class", "a method"),
    "torch.Tensor.requires_grad_": ("an attribute", "a method"),
    "torch.tensor": ("a class", "a function"),
    "torch.nn.functional.layer_norm": ("a class", "a function"),
}


def test_an_undescribed_target_of_another_kind_gives_way_to_a_same_name(tmp_path: Path) -> None:
    src = """\
import torch
import torch.nn.functional as F

def init(m, x, path):
    m.weight.data.fill_(1)
    m.bias.data.zero_()
    m.weight.requires_grad_(False)
    t = torch.tensor([1.0, 2.0])
    y = F.layer_norm(x, (4,))
    state = torch.load(path)
    return t, y, state, x.copy_(y)
"""
    found = {f.api: f for f in scan_snippet(tmp_path, src)}
    for api, old, _line, target in STALE_KIND:
        f = found[api]
        assert (f.status, f.mindspore_api) == ("candidate", target), api
        kinds = KINDS[api]
        assert f.note.startswith(
            f"the 1.10 table names {old} ({kinds[0]}) without describing the mapping,"
            f" for {kinds[1]}; "
        ), f.note
        assert f"MindSpore 2.10.0 has {target} of the same name and kind" in f.note
        assert f.history == (f"1.10: different → {old}",)
        assert f.mapping_version is None and not f.diff_url
    # a target of the API's own kind is the table's counterpart, whatever MindSpore now has
    # of the same name: mindspore.load reads a MindIR graph (r1.10 :74, load_checkpoint)...
    # (the table does not describe it: an unverified counterpart, no documented difference)
    load = found["torch.load"]
    assert (load.status, load.mindspore_api) == ("candidate", "mindspore.load_checkpoint")
    assert load.note.startswith(
        "the 1.10 table names mindspore.load_checkpoint without describing the mapping: "
        "no difference is documented"
    )
    # ... unless it is an in-place method's out-of-place twin: r1.10 :332 maps copy_ to
    # Tensor.copy, which copies nothing into the tensor; MindSpore 2.10 has Tensor.copy_
    copy = found["torch.Tensor.copy_"]
    assert (copy.status, copy.mindspore_api) == ("candidate", "mindspore.Tensor.copy_")
    assert "its out-of-place twin" in copy.note
    assert copy.rewrite == "x.copy_(y)"


def test_the_stale_rows_are_what_the_official_tables_say(mirror: Path) -> None:
    """Each row above is r1.10's, with no description, at the cited line; no later table
    lists the API."""
    for api, old, line, _target in STALE_KIND:
        text = (mirror / "r1.10" / "pytorch_api_mapping.md").read_text(encoding="utf-8")
        cells = [c.strip() for c in text.splitlines()[line - 1].strip().strip("|").split("|")]
        assert cells[0].startswith(f"[{api}]("), (api, cells[0])
        assert cells[1].startswith(f"[{old}]("), (api, cells[1])
        assert cells[2] == "", (api, cells[2])
        for later in ("r2.0", "r2.3.1", "r2.4.0", "r2.6.0"):
            table = (mirror / later / "pytorch_api_mapping.md").read_text(encoding="utf-8")
            assert f"[{api}](" not in table, (api, later)


#: torch.nn.init functions the tables leave out, read as mindspore.common.initializer's
#: classes the way the r1.10 table names the ones it lists (xavier_uniform_ → XavierUniform).
INIT_EXAMPLES = {
    "torch.nn.init.orthogonal_": "Orthogonal",
    "torch.nn.init.xavier_normal_": "XavierNormal",
    "torch.nn.init.trunc_normal_": "TruncatedNormal",
    "torch.nn.init.kaiming_uniform_": "HeUniform",
    "torch.nn.init.eye_": "Identity",
    "torch.nn.init.dirac_": "Dirac",
    "torch.nn.init.sparse_": "Sparse",
}


@pytest.mark.parametrize(("torch_name", "cls"), sorted(INIT_EXAMPLES.items()))
def test_an_initialiser_reads_as_mindspores_initializer_class(torch_name: str, cls: str) -> None:
    index, api = load_candidates(), load_torch_api()
    assert index is not None
    target = index.candidate(torch_name, api.kind(torch_name), api.params(torch_name))
    assert target == f"mindspore.common.initializer.{cls}"
    assert hasattr(importlib.import_module("mindspore.common.initializer"), cls)


def test_an_initialiser_without_a_class_stays_missing(tmp_path: Path) -> None:
    src = """\
from torch import nn

def init(layer):
    nn.init.orthogonal_(layer.weight)
    gain = nn.init.calculate_gain("relu")
    nn.init.xavier_normal_(layer.weight, gain=gain)
"""
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    ortho = found[(4, "torch.nn.init.orthogonal_")]
    assert (ortho.status, ortho.mindspore_api) == (
        "candidate",
        "mindspore.common.initializer.Orthogonal",
    )
    assert "unverified" in ortho.note
    xavier = found[(6, "torch.nn.init.xavier_normal_")]
    assert xavier.mindspore_api == "mindspore.common.initializer.XavierNormal"
    # INVALID: a helper that computes a number, not an initialiser: no class of that name
    gain = found[(5, "torch.nn.init.calculate_gain")]
    assert (gain.status, gain.mindspore_api) == ("missing", None)


def test_a_row_without_a_description_is_an_unverified_counterpart(tmp_path: Path) -> None:
    """r1.10 marks a difference only by a diff page and leaves the description empty
    otherwise (r1.10 pytorch_api_mapping.md:58 torch.from_numpy, :225 torch.nn.Module, :299
    torch.nn.init.zeros_; no later table lists them): the table's target, no documented
    difference, status candidate."""
    src = """\
import numpy as np
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        nn.init.zeros_(self.fc.bias)

    def forward(self, x):
        return torch.from_numpy(np.ones(2)) + torch.arange(2), x.dtype
"""
    found = {f.api: f for f in scan_snippet(tmp_path, src)}
    for api, target in (
        ("torch.from_numpy", "mindspore.Tensor.from_numpy"),
        ("torch.nn.Module", "mindspore.nn.Cell"),
        ("torch.nn.init.zeros_", "mindspore.common.initializer.Zero"),
    ):
        f = found[api]
        assert (f.status, f.mindspore_api, f.mapping_version) == ("candidate", target, "1.10")
        assert f.note == (
            f"the 1.10 table names {target} without describing the mapping: no difference is "
            "documented, none is ruled out (unverified)"
        )
    # INVALID: a described row stays what it says (r2.6.0 torch.arange: "the default value
    # of end is different"; torch.nn.Linear: Consistent), and r1.10's row of the same-named
    # member (Tensor.dtype → mindspore.Tensor.dtype) stays consistent
    assert found["torch.arange"].status == "different"
    assert found["torch.nn.Linear"].status == "consistent"
    assert found["torch.Tensor.dtype"].status == "consistent"


def test_the_fourier_transforms_are_same_name_ops_functions() -> None:
    """``torch.fft`` is its own namespace: its transforms are ``mindspore.ops``'s namesakes
    (the tables list none), each with a micro-test; a name ops lacks stays missing."""
    from apiscan.verify.catalogue import CASES

    index, api = load_candidates(), load_torch_api()
    assert index is not None
    cased = {c.api for c in CASES}
    for name in ("fft", "rfft", "irfft", "fft2", "fftshift", "fftfreq"):
        torch_name = f"torch.fft.{name}"
        found = index.candidate(torch_name, api.kind(torch_name), api.params(torch_name))
        assert found == f"mindspore.ops.{name}", torch_name
        assert torch_name in cased
    assert index.candidate("torch.fft.no_such_transform", "function") is None
