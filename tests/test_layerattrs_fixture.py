"""fixtures/layerattrs: a data attribute of a layer whose class the repository derives from a
torch layer in another file is no API use.

``self.transform.weight`` of a ``GroupConv2d(nn.Conv2d)`` defined in another file reads the
layer's parameter: the layer's own API (``torch.nn.Conv2d``) is what migrates, as for a plain
``nn.Conv2d``'s ``.weight``. A method of the same layer, called or read without a call, stays
an API use.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "layerattrs"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def _uses(result: ScanResult) -> list[tuple[int, str, str]]:
    return sorted(
        (f.span.line, f.api, f.usage) for f in result.api_findings if f.path == "pkg/model.py"
    )


def test_parameter_reads_are_not_api_uses(result: ScanResult) -> None:
    apis = {api for _, api, _ in _uses(result)}
    assert "torch.nn.Conv2d.weight" not in apis
    assert "torch.nn.Conv2d.bias" not in apis


def test_methods_of_the_layer_stay_api_uses(result: ScanResult) -> None:
    uses = _uses(result)
    assert (12, "torch.nn.Module.register_forward_hook", "call") in uses
    assert (15, "torch.nn.Module.register_forward_hook", "reference") in uses
    assert (11, "torch.Tensor.fill_", "call") in uses
