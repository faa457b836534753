"""Rows whose description is one sentence instead of a diff page, and what a call hits on
them; found by a hand audit of fairseq (a translation-model repository) against the pages.

Each expectation cites the official page (``mapping_sources/<folder>/pytorch_api_mapping.md``)
it rests on.
"""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_snippet

from apiscan.mapping import match_api
from apiscan.mapping.schema import CONSISTENT, DIFFERENT
from apiscan.mapping.store import load_table
from apiscan.model import ParamChange


def test_two_extra_mindspore_parameters_with_defaults_are_consistent() -> None:
    # r2.6.0:319 torch.nn.Linear → mindspore.mint.nn.Linear "Consistent function, MindSpore
    # has two different parameters: weight_init = None and bias_init = None." Extra
    # parameters with defaults: Exception Scenario 3 (r2.6.0:23).
    match = match_api(
        "torch.nn.Linear", load_table(), passed_params=["in_features", "out_features", "bias"]
    )
    assert (match.status, match.mindspore_api) == (CONSISTENT, "mindspore.mint.nn.Linear")
    assert "Exception Scenario 3" in match.note


def test_a_names_inconsistent_row_says_which_keyword_to_rename() -> None:
    # r2.4.0:529 torch.nn.functional.glu → mindspore.ops.glu "The functions are consistent,
    # but the parameter names are inconsistent." The real signatures: glu(input, dim=-1)
    # and ops.glu(x, axis=-1).
    table = load_table()
    by_name = match_api(
        "torch.nn.functional.glu",
        table,
        passed_params=["input", "dim"],
        keywords=["dim"],
        torch_params=["input", "dim"],
    )
    assert by_name.status == DIFFERENT  # the page's status stays
    (change,) = by_name.param_changes
    assert (change.param, change.kind, change.ms_param) == ("dim", "renamed", "axis")
    assert change.headline().startswith("dim= → axis=")
    by_position = match_api(
        "torch.nn.functional.glu",
        table,
        passed_params=["input", "dim"],
        keywords=[],
        torch_params=["input", "dim"],
    )
    assert (by_position.status, by_position.param_changes) == (DIFFERENT, ())


def test_a_default_the_row_says_differs_is_hit_only_when_omitted() -> None:
    # r2.6.0:223 torch.topk → mindspore.mint.topk "The functions are consistent, but the
    # default value of dim is different."
    table = load_table()
    omitted = match_api("torch.topk", table, passed_params=["input", "k"], keywords=[])
    assert [(c.param, c.kind) for c in omitted.param_changes] == [("dim", "default")]
    assert omitted.status == DIFFERENT
    passed = match_api("torch.topk", table, passed_params=["input", "k", "dim"], keywords=["dim"])
    assert passed.param_changes == ()
    # the call sets dim itself: the row's only difference does not apply to it
    assert passed.status == CONSISTENT
    assert passed.note.endswith("This call passes dim: neither default applies.")
    # INVALID: a call that does not pass the parameter keeps the row's difference
    # (r2.6.0:65 torch.arange, "the default value of end is different", end not passed)
    assert match_api("torch.arange", table, passed_params=["start"], keywords=[]).status == (
        DIFFERENT
    )
    # torch.meshgrid's and mint.meshgrid's indexing=None mean different things: the page
    # decides, not the default's text.
    mesh = match_api("torch.meshgrid", table)
    assert [(c.param, c.kind) for c in mesh.param_changes] == [("indexing", "default")]


def test_varargs_passed_by_keyword_are_passed_by_position() -> None:
    # r2.6.0:184 torch.rand → mindspore.mint.rand, Consistent; mint.rand(*size, ...) takes no
    # size= keyword, so torch.rand(size=(B,)) must pass the sequence positionally.
    match = match_api(
        "torch.rand", load_table(), passed_params=["size", "device"], keywords=["size", "device"]
    )
    kinds = [(c.param, c.kind, c.ms_param) for c in match.param_changes]
    assert ("size", "renamed", "*size") in kinds
    change = next(c for c in match.param_changes if c.param == "size")
    assert change.headline() == "size=: pass it by position (*size)"
    assert ParamChange("x", "renamed", "y").headline() == "x= → y="


def test_a_target_taking_only_positional_arguments_is_passed_them_by_position() -> None:
    # mindspore.mint.randint(*args, generator=None, dtype=None) reads low, high and size
    # from its positional arguments only: torch.randint(0, n, size=(4,)) passes size by
    # position, in PyTorch's order (the review had said "no counterpart of size")
    table = load_table()
    keyed = match_api(
        "torch.randint", table, passed_params=["low", "high", "size"], keywords=["size"]
    )
    [change] = keyed.param_changes
    assert (change.param, change.kind, change.ms_param) == ("size", "renamed", "*args")
    assert change.headline() == "size=: pass it by position (*args)"
    # INVALID: passed by position already, nothing to change
    plain = match_api("torch.randint", table, passed_params=["low", "high", "size"], keywords=[])
    assert plain.param_changes == ()


def test_scanned_calls_carry_the_rename_and_its_rewrite(tmp_path: Path) -> None:
    src = """
        import torch
        import torch.nn.functional as F

        def gate(x, b):
            y = F.glu(x, dim=2)
            z = F.glu(x, 1)
            noise = torch.rand(size=(b,))
            return y, z, noise
        """
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    keyword = found[(5, "torch.nn.functional.glu")]
    assert [(c.param, c.ms_param) for c in keyword.param_changes] == [("dim", "axis")]
    assert keyword.rewrite == "mindspore.ops.glu(x, axis=2)"
    positional = found[(6, "torch.nn.functional.glu")]
    assert positional.rewrite == "mindspore.ops.glu(x, 1)"
    assert "by position" in positional.rewrite_note
    assert found[(7, "torch.rand")].rewrite == "mindspore.mint.rand((b,))"


def test_tensor_to_with_an_argument_that_may_be_a_tensor_is_not_rewritten(
    tmp_path: Path,
) -> None:
    # r2.4.0 pytorch_diff/to.md, Parameter 3: to(other) has no MindSpore counterpart;
    # astype(other) of a tensor fails.
    src = """
        import torch

        def cast(x, scores, self_data_type):
            a = x.to(scores)
            b = x.to(torch.float16)
            c = x.to(scores.dtype)
            d = x.to(self_data_type)
            return a, b, c, d
        """
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    other = found[(4, "torch.Tensor.to")]
    assert other.rewrite == "" and "scores.dtype" in other.rewrite_note
    assert found[(5, "torch.Tensor.to")].rewrite == "x.to(mindspore.float16)"
    assert found[(6, "torch.Tensor.to")].rewrite == "x.to(scores.dtype)"
    assert found[(7, "torch.Tensor.to")].rewrite == "x.to(self_data_type)"


def test_a_parameter_mindspore_requires_is_hit_when_the_call_leaves_it_to_torch() -> None:
    # r2.4.0:425 torch.nn.init.uniform_ → mindspore.ops.uniform, diff page Uniform.md: a →
    # minval, b → maxval; the real signature ops.uniform(shape, minval, maxval, ...) has no
    # defaults for them, torch's are a=0.0, b=1.0.
    table = load_table()
    omitted = match_api("torch.nn.init.uniform_", table, passed_params=["tensor"], keywords=[])
    got = [(c.param, c.kind, c.ms_param, c.torch_default) for c in omitted.param_changes]
    assert got == [("a", "default", "minval", "0.0"), ("b", "default", "maxval", "1.0")]
    assert "minval has no default in MindSpore" in omitted.param_changes[0].note
    # A reference passes nothing and hits nothing: isinstance(p, nn.Parameter).
    assert match_api("torch.nn.init.uniform_", table).param_changes == ()
    passed = match_api(
        "torch.nn.init.uniform_", table, passed_params=["tensor", "a", "b"], keywords=["a", "b"]
    )
    assert [(c.param, c.kind) for c in passed.param_changes] == [
        ("a", "renamed"),
        ("b", "renamed"),
    ]


def test_a_renamed_call_writes_mindspore_dtypes(tmp_path: Path) -> None:
    # r2.6.0:376 torch.nn.functional.log_softmax → mint.nn.functional.log_softmax,
    # Consistent: the same call, but MindSpore takes its own dtype objects.
    src = """
        import torch
        import torch.nn.functional as F

        def norm(logits, attn):
            a = F.log_softmax(logits, dim=-1, dtype=torch.float32)
            b = attn.softmax(-1, dtype=torch.float)
            return a, b
        """
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    assert found[(5, "torch.nn.functional.log_softmax")].rewrite == (
        "mindspore.mint.nn.functional.log_softmax(logits, dim=-1, dtype=mindspore.float32)"
    )
    # the method is matched by its functional twin's row: called as that function
    assert found[(6, "torch.Tensor.softmax")].rewrite == (
        "mindspore.mint.nn.functional.softmax(attn, -1, dtype=mindspore.float32)"
    )


def test_a_candidate_that_cannot_take_the_call_s_keywords_is_not_rewritten(
    tmp_path: Path,
) -> None:
    # No table row lists torch.Tensor.softmax or torch.cuda.memory_summary; MindSpore 2.10's
    # same-name Tensor.softmax(axis, dtype=None) takes no dim=, runtime.memory_summary()
    # takes nothing: rewriting the call unchanged would fail.
    src = """
        import torch

        def probs(logits, n):
            p = logits.softmax(dim=-1)
            q = logits.softmax(-1)
            torch.cuda.memory_summary(device=n)
            return p, q
        """
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, src)}
    # the method's functional twin has a row (torch.nn.functional.softmax): the call becomes
    # that function's, whose row says it takes dim= (never the same-name Tensor.softmax)
    by_keyword = found[(4, "torch.Tensor.softmax")]
    assert by_keyword.status in ("consistent", "different")
    target = by_keyword.mindspore_api
    assert target and target.endswith("functional.softmax")
    assert by_keyword.rewrite == f"{target}(logits, dim=-1)"
    assert found[(5, "torch.Tensor.softmax")].rewrite == f"{target}(logits, -1)"
    summary = found[(6, "torch.cuda.memory_summary")]
    assert summary.rewrite == "" and "takes no arguments" in summary.rewrite_note


def test_a_consistent_target_that_pads_only_in_pad_mode_pad_is_hit_by_padding() -> None:
    # r2.4.0:515 torch.nn.functional.conv1d → mindspore.ops.conv1d, Consistent; the target's
    # real signature has pad_mode='valid' before padding=0, and ops.conv1d(x, w, padding=1)
    # raises "the 'pad' must be zero when 'pad_mode' is not 'pad'" (MindSpore 2.10, CPU).
    table = load_table()
    padded = match_api(
        "torch.nn.functional.conv1d",
        table,
        passed_params=["input", "weight", "padding"],
        keywords=["padding"],
    )
    assert padded.status == DIFFERENT
    assert [(c.param, c.ms_param) for c in padded.param_changes] == [("padding", "pad_mode")]
    assert "pad_mode='pad'" in padded.note
    plain = match_api("torch.nn.functional.conv1d", table, passed_params=["input", "weight"])
    assert (plain.status, plain.param_changes) == (CONSISTENT, ())
