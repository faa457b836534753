"""A call that leaves a parameter to PyTorch's default, where MindSpore's same-named
parameter defaults otherwise, is rewritten with PyTorch's default written out (r2.4.0
pytorch_diff/InstanceNorm2d.md, Parameter 4: ``affine`` is True in MindSpore, False in
PyTorch; RAFT's feature encoder builds eleven of them). A value that must be converted
(BatchNorm's ``momentum`` is ``1 - momentum``) is never written out unchanged."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo, scan_snippet, write_repo

SRC = """\
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.a = nn.InstanceNorm2d(planes)
        self.b = nn.InstanceNorm2d(planes, affine=True)
        self.c = nn.BatchNorm2d(planes, momentum=0.05)
"""


def _by_line(tmp_path: Path) -> dict[int, object]:
    return {f.span.line: f for f in scan_snippet(tmp_path, SRC) if f.is_call_site}


def test_a_default_left_to_pytorch_is_written_out(tmp_path: Path) -> None:
    a = _by_line(tmp_path)[7]
    assert a.disposition == "rewrite"
    assert a.rewrite == "mindspore.nn.InstanceNorm2d(planes, affine=False)"
    assert "affine=False" in a.rewrite_note


def test_a_passed_value_or_a_converted_one_is_not_written_as_a_default(tmp_path: Path) -> None:
    found = _by_line(tmp_path)
    # INVALID: affine passed is no default difference this call hits
    assert "affine=False" not in found[8].rewrite
    # The default table's counterpart of BatchNorm2d is mindspore.mint.nn.BatchNorm2d
    # (r2.6.0, Consistent): PyTorch's momentum, unchanged
    assert found[9].rewrite == "mindspore.mint.nn.BatchNorm2d(planes, momentum=0.05)"


def test_a_converted_value_is_never_copied(tmp_path: Path) -> None:
    write_repo(tmp_path, {"snippet.py": SRC})
    found = {f.span.line: f for f in scan_repo(tmp_path, ms_version="2.4").api_findings}
    # INVALID: on mindspore.nn.BatchNorm2d (the 2.4 table's counterpart) momentum must be
    # converted (1 - momentum), never copied
    assert found[9].mindspore_api == "mindspore.nn.BatchNorm2d"
    assert "momentum=0.05" not in found[9].rewrite
    assert found[9].rewrite == "mindspore.nn.BatchNorm2d(planes, momentum=0.95)"
