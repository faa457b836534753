"""Rewrite templates: each finding's rewrite is rendered from its own call's arguments, and
the micro-tests are rendered by the same function from sample forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scan_helpers import scan_repo, scan_snippet

from apiscan.model import CallArgs
from apiscan.rewrite import dispose, is_tensor_computation
from apiscan.rewrite.substitutions import RECIPES, recipes_for
from apiscan.rewrite.template import convert_dtype, render
from apiscan.verify.catalogue import CASES
from apiscan.verify.catalogue.templated import case_of

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "tinydet"


def _render(api: str, *positional: str, receiver: str = "", **keywords: str) -> str:
    call = CallArgs(receiver, positional, tuple(keywords.items()))
    for recipe in recipes_for(api):
        r = render(recipe.template, call)
        if r.exact:
            return r.text
    return ""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ((("0.1",), {}), "mindspore.nn.LeakyReLU(alpha=0.1)"),
        (((), {"negative_slope": "0.1"}), "mindspore.nn.LeakyReLU(alpha=0.1)"),
        # MindSpore's default alpha is 0.2: PyTorch's default is written out.
        (((), {}), "mindspore.nn.LeakyReLU(alpha=0.01)"),
        ((("0.1", "True"), {}), "mindspore.nn.LeakyReLU(alpha=0.1)"),
    ],
)
def test_leaky_relu_renders_the_call_own_slope(call: tuple, expected: str) -> None:
    positional, keywords = call
    assert _render("torch.nn.LeakyReLU", *positional, **keywords) == expected


def test_value_conversion_and_explicit_defaults() -> None:
    assert _render("torch.nn.BatchNorm2d", "64", momentum="0.03") == (
        "mindspore.nn.BatchNorm2d(64, momentum=0.97)"
    )
    assert _render("torch.nn.BatchNorm2d", "c", momentum="m") == (
        "mindspore.nn.BatchNorm2d(c, momentum=1 - m)"
    )


def test_sizes_as_varargs_are_packed_and_placement_is_dropped() -> None:
    assert _render("torch.zeros", "1", "n") == "mindspore.mint.zeros((1, n))"
    assert _render("torch.zeros", "(1, n)") == "mindspore.mint.zeros((1, n))"
    assert _render("torch.zeros", "*shape") == "mindspore.mint.zeros(tuple(shape))"
    assert _render("torch.zeros", "2", "3", device="x.device", dtype="torch.float16") == (
        "mindspore.mint.zeros((2, 3), dtype=mindspore.float16)"
    )


def test_no_exact_rewrite_says_why() -> None:
    call = CallArgs("", ("2", "3"), (("requires_grad", "True"),))
    [recipe] = recipes_for("torch.zeros")
    r = render(recipe.template, call)
    assert not r.exact and "requires_grad=True cannot be dropped exactly" in r.note
    r = render(recipe.template, CallArgs("", ("2",), (("bogus", "1"),)))
    assert not r.exact and "bogus" in r.note


def test_method_templates_use_the_receiver() -> None:
    assert _render("torch.Tensor.repeat", "n", "1", "1", receiver="cls_preds_.unsqueeze(0)") == (
        "cls_preds_.unsqueeze(0).tile((n, 1, 1))"
    )
    assert _render("torch.Tensor.size", "1", receiver="ious") == "ious.shape[1]"
    assert _render("torch.Tensor.type", "torch.cuda.FloatTensor", receiver="t") == (
        "t.astype(mindspore.float32)"
    )
    assert convert_dtype("'float32'") == ""
    # x.type(w.type()): the type name of another tensor becomes its dtype
    assert _render("torch.Tensor.type", "w.type()", receiver="z") == "z.astype(w.dtype)"
    assert _render("torch.Tensor.type", receiver="z") == ""  # x.type() is a query


def test_micro_tests_are_rendered_from_the_templates() -> None:
    templated = [c for c in CASES if "template" in c.tags]
    assert len(templated) >= 40
    for recipe in RECIPES:
        for sample in recipe.samples:
            case = case_of(recipe, sample)
            assert case is not None, (recipe.template.api, sample.label)
            assert render(recipe.template, sample.call).text in case.ms_expr


# The examples of test expressions that were shown as if they were rewrites.
_TEST_EXPRESSIONS = (
    "ops.stop_gradient(x) * x",
    "(x * 1)",
    "x.asnumpy() * 2",
    "[[0.5, -1.25]",
    "mint.empty(2, 3).shape",
    "msnn.LeakyReLU(0.2)",
    "getattr(ms, dt)",
)


def test_no_shown_rewrite_contains_a_test_sample() -> None:
    result = scan_repo(FIXTURE)
    # The hand-written cases' expressions compute on the drawn inputs; the templated ones are
    # renderings of sample calls, which a real call may legitimately equal.
    legacy = {
        c.ms_expr
        for c in CASES
        if "template" not in c.tags
        and len(c.ms_expr) > 12
        and any(re.search(rf"\b{i.name}\b", c.ms_expr) for i in c.inputs)
    }
    samples = legacy | set(_TEST_EXPRESSIONS)
    shown = [f for f in result.api_findings if f.rewrite]
    assert len(shown) > 50
    for finding in shown:
        for sample in samples:
            # as an expression of its own: idx.unsqueeze(-1) is not the sample x.unsqueeze(-1)
            found = re.search(rf"(?<![\w.]){re.escape(sample)}", finding.rewrite)
            assert not found, (finding.api, finding.rewrite, sample)


def test_findings_carry_their_own_rewrite(tmp_path: Path) -> None:
    src = """
        import torch
        from torch import nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = nn.LeakyReLU(0.1)
                self.bn = nn.BatchNorm2d(8, momentum=0.03)

            def forward(self, x):
                grid = torch.zeros(1, x.shape[1])
                return self.act(self.bn(x)).detach().cpu().numpy(), grid

        def run(model, loader):
            model.eval()
            torch.cuda.empty_cache()
            with torch.no_grad():
                return [model(b.cuda()) for b in loader]
        """
    findings = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}

    def at(line: int, api: str) -> tuple[str, str]:
        f = findings[(line, api)]
        return f.disposition, f.rewrite

    assert at(7, "torch.nn.LeakyReLU") == ("rewrite", "mindspore.nn.LeakyReLU(alpha=0.1)")
    # the default table's counterpart, mint's, takes PyTorch's momentum
    assert at(8, "torch.nn.BatchNorm2d")[1] == "mindspore.mint.nn.BatchNorm2d(8, momentum=0.03)"
    assert at(11, "torch.zeros")[1] == "mindspore.mint.zeros((1, x.shape[1]))"
    assert at(12, "torch.Tensor.detach") == (
        "idiom",
        "mindspore.ops.stop_gradient(self.act(self.bn(x)))",
    )
    assert at(12, "torch.Tensor.cpu") == ("delete", "self.act(self.bn(x)).detach()")
    # A consistent row: nothing to do but the rename, which is still rendered.
    assert at(12, "torch.Tensor.numpy") == ("none", "self.act(self.bn(x)).asnumpy()")
    assert at(15, "torch.nn.Module.eval") == ("idiom", "model.set_train(False)")
    assert at(16, "torch.cuda.empty_cache") == ("delete", "")
    assert at(17, "torch.no_grad")[0] == "idiom"
    assert at(18, "torch.Tensor.cuda") == ("delete", "b")
    idiom = findings[(15, "torch.nn.Module.eval")]
    assert idiom.rewrite_source.startswith("https://www.mindspore.cn/")


@pytest.mark.parametrize(
    ("api", "expected"),
    [
        ("torch.nn.functional.scaled_dot_product_attention", True),
        ("torch.Tensor.addcdiv_", True),
        ("torch.cummax", True),
        ("torch.cuda.amp.autocast", False),
        ("torch.cuda.empty_cache", False),
        ("torch.autocast", False),
        ("torch.optim.Optimizer.zero_grad", False),
        ("torch.Tensor.record_stream", False),
        ("torch.device", False),
        ("torch.legacy_contiguous_format", False),
        ("torch.nn.RNNBase.flatten_parameters", False),
        ("torch.nn.utils.rnn.pack_padded_sequence", True),
        ("torch.float16", False),
        ("torch.utils.data.default_collate", False),
    ],
)
def test_only_tensor_computations_may_need_a_custom_op(api: str, expected: bool) -> None:
    assert is_tensor_computation(api) is expected


def test_dispose_never_calls_plumbing_a_custom_op() -> None:
    from apiscan.model import ApiFinding, Span

    for api in (
        "torch.cuda.amp.autocast",
        "torch.cuda.empty_cache",
        "torch.jit.ignore",
        "torch.cuda.max_memory_allocated",
        "torch.TypedStorage.from_buffer",
    ):
        finding = ApiFinding(
            "a.py", Span(1, 1, 1, 2), api, "missing", None, "certain", "", "call", "torch"
        )
        assert dispose(finding).disposition != "custom-op", api


def test_the_substitution_table_expands_its_shared_parts_and_rejects_typos() -> None:
    from apiscan.rewrite.substitutions import _Table

    table = {
        "defaults": {"inputs": [{"name": "x", "shape": [3, 4]}], "probe": "{}"},
        "why": {"placement": "global"},
        "args": {
            "device": {"name": "device", "default": "None", "drop": ["*"], "why": "$placement"}
        },
        "family": {"creation": {"args": [{"name": "size", "varargs": True}, "$device"]}},
        "recipe": [
            {
                "family": "creation",
                "api": "torch.zeros",
                "target": "mindspore.mint.zeros",
                "samples": [{"label": "one", "args": ["2"], "kw": {"device": "'cpu'"}}],
            }
        ],
    }
    [recipe] = _Table(table).recipes
    device = recipe.template.args[1]
    assert (device.to, device.drop_exact, device.drop_why) == (None, ("*",), "global")
    [sample] = recipe.samples
    assert sample.call == CallArgs("", ("2",), (("device", "'cpu'"),))
    assert [(i.name, i.shape, i.grad) for i in sample.inputs] == [("x", (3, 4), True)]
    table["recipe"][0]["samples"][0]["kwargs"] = {}
    with pytest.raises(ValueError, match="unknown keys kwargs"):
        _Table(table)
    table["recipe"][0]["samples"][0].pop("kwargs")
    table["recipe"][0]["family"] = "creations"
    with pytest.raises(ValueError, match="no shared family creations"):
        _Table(table)


def test_a_memory_only_parameter_is_dropped_from_the_rewrite(tmp_path: Path) -> None:
    # mint.nn.ReLU takes nothing: in place or not, the values are the same
    findings = scan_snippet(
        tmp_path,
        "import torch.nn as nn\na = nn.ReLU(inplace=True)\nb = nn.ReLU(True)\nc = nn.ReLU()\n",
    )
    relu = {f.span.line: f for f in findings if f.api == "torch.nn.ReLU"}
    assert [relu[n].rewrite for n in (2, 3, 4)] == ["mindspore.mint.nn.ReLU()"] * 3
    assert [relu[n].status for n in (2, 3, 4)] == ["different", "different", "consistent"]
    assert "inplace dropped" in relu[2].rewrite_note


def test_a_legacy_reduction_value_is_spelled_as_mindspore_takes_it(tmp_path: Path) -> None:
    # PyTorch still takes 'elementwise_mean' (its pre-0.4.1 name of 'mean'); MindSpore's losses
    # raise a ValueError on it, so the rewrite passes 'mean'
    findings = scan_snippet(
        tmp_path,
        "import torch.nn.functional as F\n"
        "def f(a, b):\n"
        "    x = F.smooth_l1_loss(a, b, reduction='elementwise_mean')\n"
        "    y = F.smooth_l1_loss(a, b, reduction='sum')\n"
        "    return x + y\n",
    )
    loss = {f.span.line: f for f in findings if f.api == "torch.nn.functional.smooth_l1_loss"}
    assert "reduction='mean'" in loss[3].rewrite
    assert "elementwise_mean" not in loss[3].rewrite
    assert "reduction='sum'" in loss[4].rewrite
