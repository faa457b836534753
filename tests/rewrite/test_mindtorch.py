"""The MindTorch route: data read statically from the wheel, and per-finding coverage."""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

from apiscan.rewrite.mindtorch import covers, provided

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gen_mindtorch.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_mindtorch", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_data_answers_for_findings() -> None:
    assert len(provided()) > 1000
    assert covers("torch.zeros") and covers("torch.nn.Module.eval")
    assert covers("torch.optim.Optimizer.zero_grad")  # inherited from a private base class
    assert covers("torch.Tensor.shape")  # mindtorch's Tensor subclasses MindSpore's
    assert covers("torch.TypedStorage.from_buffer") is False


def test_generator_reads_a_wheel_without_importing_it(tmp_path: Path) -> None:
    wheel = tmp_path / "mindtorch-0.4.0-py3-none-any.whl"
    files = {
        "mindtorch/torch/__init__.py": "from .functional import *\nfrom ._tensor import Tensor\n"
        "raise SystemExit('imported!')\n",
        "mindtorch/torch/functional.py": "__all__ = ['zeros']\n__all__ += ['ones']\n"
        "def zeros(*size): ...\ndef ones(*size): ...\ndef _private(): ...\n",
        "mindtorch/torch/_tensor.py": "class _Base:\n    def view(self, *s): ...\n"
        "class Tensor(_Base):\n    def add_(self, other): ...\n    def _hidden(self): ...\n",
        "mindtorch/torch/nn/__init__.py": "from .modules import *\n",
        "mindtorch/torch/nn/modules.py": "class Module:\n    def eval(self): ...\n",
    }
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    data = _script().generate(wheel)
    apis = set(data["apis"])
    assert {"torch.zeros", "torch.ones", "torch.Tensor.add_", "torch.Tensor.view"} <= apis
    assert {"torch.nn.Module", "torch.nn.Module.eval"} <= apis
    assert "torch._private" not in apis and "torch.Tensor._hidden" not in apis
    out = tmp_path / "out.json"
    assert _script().main(["--wheel", str(wheel), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["apis"] == sorted(apis)
    assert _script().main(["--wheel", str(wheel), "-o", str(out), "--check"]) == 0
