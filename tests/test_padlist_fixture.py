"""fixtures/padlist: a collate that pads a list of images to the batch's largest one with the
legacy ``img.new(*batch_shape)``, in a helper that takes one image or a list (``if
isinstance(tensors, torch.Tensor): tensors = [tensors]``, then ``if isinstance(tensors,
(tuple, list)):``): the input pipeline's DS119. One image made a list, a canvas of configured
size and ``Tensor.new`` given data are no batch padding."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.extract.shapes import BATCH_MAX, _size_args
from apiscan.model import ScanResult
from apiscan.resolve.values import NONTORCH, PTENSOR

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "padlist"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=1)


def test_the_padding_is_the_collates_input_pipeline(result: ScanResult) -> None:
    (found,) = [f for f in result.shape_findings if f.rule == "DS119"]
    assert (found.path, found.function, found.api) == (
        "pl/structures/image_list.py",
        "to_image_list",
        "torch.Tensor.new",
    )
    assert found.scope == "data"  # reached from the loader's collate_fn only
    assert "padded to the largest sample of each batch" in found.message


def test_tensor_new_reads_sizes_only_when_given_sizes() -> None:
    shape = ("tuple", (NONTORCH, BATCH_MAX, BATCH_MAX))
    # VALID: sizes unpacked from a shape, or written as numbers
    assert _size_args("new", PTENSOR, [shape], {}, starred=True) == ("DS113", [shape])
    assert _size_args("new", PTENSOR, [NONTORCH, BATCH_MAX], {}) == (
        "DS113",
        [NONTORCH, BATCH_MAX],
    )
    # INVALID: data (a tuple or list written as it is), no receiver, no argument
    assert _size_args("new", PTENSOR, [shape], {}) is None
    assert _size_args("new", None, [NONTORCH], {}) is None
    assert _size_args("new", PTENSOR, [], {}) is None
