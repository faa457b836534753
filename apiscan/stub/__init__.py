"""MindSpore custom-operator scaffolds for PyTorch APIs that MindSpore lacks.

``write_stubs`` writes, per API, a ``mindspore.ops.Custom`` (pyfunc) scaffold with the
PyTorch signature and a pytest file comparing it with PyTorch. Importing this package is
cheap: torch is imported only when stubs are generated, MindSpore only by the generated
files.
"""

from __future__ import annotations

from apiscan.stub.generate import StubResult, write_stubs

__all__ = ["StubResult", "write_stubs"]
