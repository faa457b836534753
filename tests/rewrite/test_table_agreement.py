"""A finding's rewrite names the counterpart its MindSpore column shows: the one the official
mapping table gives that very torch API (r2.4.0 pytorch_api_mapping.md:444 maps
``torch.nn.MaxPool2d`` to ``mindspore.nn.MaxPool2d``; r1.10:169 ``torch.cuda.device_count``
to ``mindspore.communication.get_group_size``), never another MindSpore API."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scan_helpers import scan_snippet

from apiscan.mapping.findings import Matcher
from apiscan.mapping.store import load_table
from apiscan.resolve.torch_api import load_torch_api
from apiscan.rewrite import names_target
from apiscan.rewrite.idioms import IDIOMS
from apiscan.rewrite.substitutions import RECIPES


def _names(text: str, target: str) -> bool:
    """Whether ``text`` names ``target`` (a Tensor or Cell member as ``.member``)."""
    if target in text:
        return True
    owner, _, member = target.rpartition(".")
    member_use = re.search(rf"\.{re.escape(member)}\b", text)
    return owner in ("mindspore.Tensor", "mindspore.nn.Cell") and member_use is not None


def _column(api: str, table_only: bool = False) -> str | None:
    """The MindSpore column a finding of ``api`` shows (the table's counterpart, or the
    same-name candidate where the table lacks it or names another kind of object); with
    ``table_only``, None for a candidate (a name apiscan found, no table's word)."""
    verdict = Matcher(load_table(), load_torch_api()).verdict(api)
    if verdict is None or (table_only and verdict.status == "candidate"):
        return None
    return verdict.mindspore_api


def test_every_idiom_names_the_tables_counterpart() -> None:
    """An idiom may name more (value_and_grad as well as TrainOneStepCell), never less."""
    wrong = []
    for idiom in IDIOMS:
        render = idiom.render
        text = f"{idiom.template} {(render.format or render.target) if render else ''}"
        for api in idiom.apis:
            target = _column(api, table_only=True)
            if target and not _names(text, target):
                wrong.append(f"{api}: table {target}, idiom {text!r}")
    assert wrong == []


def test_every_recipe_used_names_the_tables_counterpart() -> None:
    wrong = []
    for recipe in RECIPES:
        tpl = recipe.template
        target = _column(tpl.api, table_only=True)
        if not target:
            continue
        if tpl.format and not tpl.target:
            if not _names(tpl.format, target):
                wrong.append(f"{tpl.api}: table {target}, format {tpl.format!r}")
        elif names_target(tpl, target) and not (
            tpl.target == target or target.endswith("." + tpl.target)
        ):
            wrong.append(f"{tpl.api}: table {target}, template {tpl.target}")
    assert wrong == []


@pytest.mark.parametrize(
    ("target", "method", "receiver_first", "tpl_target", "agrees"),
    [
        # VALID: the table's own target, as a function or as the method of the same name
        ("mindspore.nn.MaxPool2d", False, False, "mindspore.nn.MaxPool2d", True),
        ("mindspore.Tensor.amax", True, False, "amax", True),
        ("", False, False, "mindspore.mint.zeros", True),  # missing: no column to contradict
        # INVALID: another API than the column's
        ("mindspore.nn.MaxPool2d", False, False, "mindspore.mint.nn.MaxPool2d", False),
        ("mindspore.Tensor.amax", True, True, "mindspore.mint.amax", False),
        ("mindspore.ops.Fill", True, False, "fill_", False),
    ],
)
def test_names_target(
    target: str, method: bool, receiver_first: bool, tpl_target: str, agrees: bool
) -> None:
    from apiscan.rewrite.template import Template

    tpl = Template("torch.x", tpl_target, method=method, receiver_first=receiver_first)
    assert names_target(tpl, target or None) is agrees


SRC = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.MaxPool2d(3, 2, 1)
        self.b = nn.MaxPool2d(kernel_size=2)
        self.c = nn.MaxPool2d(3, stride=2, ceil_mode=True)

    def forward(self, x, w, b):
        y = F.layer_norm(x, (4,), w, b)
        return y.amax(1, keepdim=True)


def setup():
    n = torch.cuda.device_count()
    torch.manual_seed(n)
"""


def test_rewrites_agree_with_the_column(tmp_path: Path) -> None:
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, SRC) if f.is_call_site}

    def at(line: int, api: str) -> tuple[str | None, str]:
        f = found[(line, api)]
        return f.mindspore_api, f.rewrite

    # VALID: mindspore.nn.MaxPool2d in the column and in the rewrite, in pad mode (the diff
    # page's "consistent with PyTorch"), stride written out where PyTorch's None means the
    # kernel size (MindSpore's default is 1)
    assert at(9, "torch.nn.MaxPool2d") == (
        "mindspore.nn.MaxPool2d",
        "mindspore.nn.MaxPool2d(3, stride=2, padding=1, pad_mode='pad')",
    )
    assert at(10, "torch.nn.MaxPool2d")[1] == "mindspore.nn.MaxPool2d(2, stride=2, pad_mode='pad')"
    assert at(11, "torch.nn.MaxPool2d")[1] == (
        "mindspore.nn.MaxPool2d(3, stride=2, ceil_mode=True, pad_mode='pad')"
    )
    assert at(15, "torch.Tensor.amax") == ("mindspore.Tensor.amax", "y.amax(1, keepdims=True)")
    assert at(19, "torch.cuda.device_count") == (
        "mindspore.communication.get_group_size",
        "mindspore.communication.get_group_size()",
    )
    assert at(20, "torch.manual_seed") == ("mindspore.manual_seed", "mindspore.manual_seed(n)")
    # The 1.10 table names the class mindspore.ops.LayerNorm without describing it: the
    # column is the same-name candidate, and so is the rewrite, the note saying why
    f = found[(14, "torch.nn.functional.layer_norm")]
    assert f.mindspore_api == "mindspore.mint.nn.functional.layer_norm"
    assert f.rewrite.startswith("mindspore.mint.nn.functional.layer_norm(x, (4,)")
    assert "mindspore.ops.LayerNorm" in f.note
    for f in found.values():
        assert "mindspore.mint.nn.MaxPool2d" not in f.rewrite
        assert "get_local_rank_size" not in f.rewrite + f.rewrite_note


def test_a_same_name_candidate_keeps_its_template(tmp_path: Path) -> None:
    """The column of a candidate is apiscan's same-name guess, not the table's word: the
    template that rewrites the call exactly still applies."""
    src = """\
        def f(tl, br):
            return (tl < br).type(tl.type())
        """
    [found] = [f for f in scan_snippet(tmp_path, src) if f.api == "torch.Tensor.type"][:1]
    assert found.status == "candidate"
    assert found.rewrite == "(tl < br).astype(tl.dtype)"
