"""Use forms: calls, references, bases, decorators, context managers, operators, positions."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_snippet


def by_line(findings):  # type: ignore[no-untyped-def]
    return {(f.span.line, f.api): f for f in findings}


def test_use_forms_and_usage_kinds(tmp_path: Path) -> None:
    src = """
        import torch
        import torch.nn.functional as F
        from torch import nn

        class Net(nn.Module):
            act = nn.SiLU

            def __init__(self, activation=F.relu):
                super().__init__()
                self.fc = nn.Linear(4, 2)

            @torch.no_grad()
            def infer(self, x: torch.Tensor):
                with torch.autocast("cpu"):
                    return self.fc(x) @ x.T

        x = torch.zeros(2, dtype=torch.float32)
        """
    f = by_line(scan_snippet(tmp_path, src))
    assert f[(5, "torch.nn.Module")].usage == "base_class"
    assert f[(6, "torch.nn.SiLU")].usage == "reference"
    assert f[(8, "torch.nn.functional.relu")].usage == "reference"
    assert f[(10, "torch.nn.Linear")].usage == "call"
    assert f[(12, "torch.no_grad")].usage == "decorator"
    assert f[(13, "torch.Tensor")].usage == "annotation"
    assert f[(14, "torch.autocast")].usage == "context_manager"
    assert f[(15, "torch.Tensor.matmul")].usage == "operator"
    assert f[(15, "torch.Tensor.T")].usage == "reference"
    assert f[(17, "torch.zeros")].usage == "call"
    assert f[(17, "torch.float32")].usage == "reference"
    # the call records what it passes (the matcher maps positional arguments to names)
    assert f[(17, "torch.zeros")].confidence == "certain"


def test_positions_are_exact(tmp_path: Path) -> None:
    src = (
        "import torch\n"
        "y = torch.nn.functional.relu(torch.ones(2))\n"
        "z = y.view(1, -1).permute(1, 0)\n"
        "s = 'héllo'; w = y.sum(dim=0)\n"
        "msg = f'{y.mean()}'\n"
    )
    f = by_line(scan_snippet(tmp_path, src))
    relu = f[(2, "torch.nn.functional.relu")].span
    assert (relu.line, relu.column, relu.end_line, relu.end_column) == (2, 5, 2, 44)
    ones = f[(2, "torch.ones")].span
    assert (ones.column, ones.end_column) == (30, 43)
    view = f[(3, "torch.Tensor.view")].span  # from the method name to the closing parenthesis
    assert (view.column, view.end_column) == (7, 18)
    permute = f[(3, "torch.Tensor.permute")].span
    assert (permute.column, permute.end_column) == (19, 32)
    total = f[(4, "torch.Tensor.sum")].span  # columns count characters, not UTF-8 bytes
    assert (total.column, total.end_column) == (20, 30)
    mean = f[(5, "torch.Tensor.mean")].span  # inside an f-string
    assert (mean.column, mean.end_column) == (12, 18)


def test_multiline_call_span(tmp_path: Path) -> None:
    src = "import torch\nx = torch.cat(\n    [a, b],\n    dim=1,\n)\n"
    (finding,) = scan_snippet(tmp_path, src)
    assert (
        finding.span.line,
        finding.span.column,
        finding.span.end_line,
        finding.span.end_column,
    ) == (2, 5, 5, 2)


def test_alias_assignment_reports_the_uses_not_the_alias(tmp_path: Path) -> None:
    src = "import torch.nn as nn\nConv = nn.Conv2d\na = Conv(1, 2, 3)\nb = Conv(2, 2, 3)\n"
    found = sorted((f.span.line, f.api) for f in scan_snippet(tmp_path, src))
    assert found == [(3, "torch.nn.Conv2d"), (4, "torch.nn.Conv2d")]


def test_private_api_is_unknown_not_missing(tmp_path: Path) -> None:
    src = "import torch\ntorch._C._get_tracing_state()\ntorch.no_such_function(1)\n"
    found = {(f.span.line, f.api, f.status) for f in scan_snippet(tmp_path, src)}
    assert found == {
        (2, "torch._C._get_tracing_state", "unknown"),
        (3, "torch.no_such_function", "unknown"),
    }


def test_general_difference_parameter_keeps_a_consistent_call_consistent(tmp_path: Path) -> None:
    """The tables' own rule: the general difference parameters (out, device, ...) do not break
    consistency; the finding still says to drop the one the call passes."""
    src = "import torch\na = torch.abs(x)\nb = torch.abs(x, out=y)\n"
    f = by_line(scan_snippet(tmp_path, src))
    assert f[(2, "torch.abs")].status == "consistent"
    assert f[(3, "torch.abs")].status == "consistent"
    assert f[(3, "torch.abs")].unsupported_params == ()
    [change] = f[(3, "torch.abs")].param_changes
    assert (change.param, change.kind) == ("out", "general")
    assert "drop it" in change.describe()
