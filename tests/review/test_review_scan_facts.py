"""The review reads what the scan produced: the project configuration and the cache it runs
with, the verification results linked to its findings, the class lines and call facts of its
records, and notebook cells as the scan reports them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.cli.main import main
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import review
from apiscan.review.html import render_html
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Where
from apiscan.verify.catalogue import cases_for
from apiscan.verify.results import CaseResult, cache_in

NET = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        x = self.fc(x)
        x.mul_(0.9)
        return x[x > 0]
"""


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _review_json(root: Path, out: Path, *flags: str) -> dict:
    assert main(["review", str(root), "-f", "json", "-o", str(out), "--no-progress", *flags]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_class_lines_come_from_the_scan_records(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {"m.py": "import torch\n\n\n@staticmethod\nclass A(torch.nn.Module):\n    class B:\n"
         "        pass\n\n\nif True:\n    class C:\n        pass\n"},
    )  # fmt: skip
    _result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    [fa] = analyses
    assert {c.qualname: c.line for c in fa.classes} == {"A": 5, "A.B": 6, "C": 11}


def test_review_cli_reads_the_project_configuration(tmp_path: Path) -> None:
    files = {"model.py": NET, "vendor/other.py": NET.replace("Net", "Vendored")}
    plain = write_repo(tmp_path / "plain", files)
    configured = write_repo(
        tmp_path / "configured",
        {**files, "apiscan.toml": 'exclude = ["vendor"]\nignore = ["DS1"]\n'},
    )
    before = _review_json(plain, tmp_path / "plain.json")
    assert {m["class"] for m in before["modules"]} == {"model.Net", "other.Vendored"}
    assert before["dynamic_shape"]
    after = _review_json(configured, tmp_path / "configured.json")
    assert {m["class"] for m in after["modules"]} == {"model.Net"}  # exclude = ["vendor"]
    assert after["dynamic_shape"] == []  # ignore = ["DS1"]
    # a flag still overrides the file
    again = _review_json(configured, tmp_path / "again.json", "--exclude", "nothing")
    assert {m["class"] for m in again["modules"]} == {"model.Net", "other.Vendored"}


def test_bad_configuration_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"model.py": NET, "apiscan.toml": "exclud = []\n"})
    assert main(["review", str(root)]) == 2
    assert "exclud" in capsys.readouterr().err


def test_a_verified_candidate_is_no_gap(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"model.py": NET})
    cache_dir = tmp_path / "scan-cache"
    unverified = review(ScanOptions(str(root), cache_dir=cache_dir, jobs=1))
    gap = {g.api: g.status for g in unverified.gaps}
    assert gap["torch.Tensor.mul_"] == "candidate"
    [case] = cases_for("torch.Tensor.mul_")
    versions = {"torch_version": "2.13.0", "mindspore_version": "2.10.0"}
    passed = CaseResult(
        case.case_id, case.api, "same-name", "x", "pass", 0.0, 0.0, 0.0, 1e-5, "CPU", "float32",
        **versions,
    )  # fmt: skip
    cache_in(cache_dir).put(case, passed)
    verified = review(ScanOptions(str(root), cache_dir=cache_dir, jobs=1))
    assert "torch.Tensor.mul_" not in {g.api for g in verified.gaps}
    was = unverified.coverage["network"]["verified"]
    assert verified.coverage["network"]["verified"] == was + 1


def test_self_calls_come_from_the_call_facts_inherited_helpers_too(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "base.py": """
                import torch.nn as nn

                class Base(nn.Module):
                    def _make_layer(self, n):
                        return nn.Sequential(*[nn.Conv2d(n, n, 3) for _ in range(2)])
            """,
            "net.py": """
                import torch.nn as nn
                from base import Base

                class Block(nn.Module):
                    def forward(self, x):
                        return x

                class Net(Base):
                    def __init__(self):
                        super().__init__()
                        self.layer1 = self._make_layer(8)
                        self.block = Block()
            """,
        },
    )
    nodes = {m.cls: m for m in review(ScanOptions(str(root), cache_dir=None, jobs=1)).modules}
    assert nodes["net.Net"].children == ("net.Block",)
    assert dict(nodes["net.Net"].layers) == {"torch.nn.Conv2d": 1, "torch.nn.Sequential": 1}
    assert nodes["net.Net"].where == Where("net.py", 8)


def _code(source: str) -> dict[str, object]:
    return {"cell_type": "code", "metadata": {}, "outputs": [], "source": source}


def test_notebook_places_name_their_cell(tmp_path: Path) -> None:
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# Training"},
            _code("%matplotlib inline\nimport torch\nx = torch.ones(3)\n"),
            _code("idx = torch.nonzero(x)\nsparse = x.to_sparse()\n"),
            _code("w = torch.nn.Parameter(x)\nopt = torch.optim.SGD([w], lr=0.1)\n"),
        ],
    }
    root = tmp_path / "repo"
    root.mkdir()
    (root / "train.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    found = review(ScanOptions(str(root), cache_dir=None, jobs=1))
    assert {where for where, *_ in found.dynamic_shape} == {Where("train.ipynb", 1, 3)}
    assert found.sparse == (Where("train.ipynb", 2, 3),)
    [sgd] = [i for i in found.recipe if i.name == "torch.optim.SGD"]
    assert sgd.where == Where("train.ipynb", 2, 4)
    assert dict(sgd.values)["lr"] == "0.1"  # the call was found in the cell's code
    text = render_markdown(found)
    assert "[train.ipynb:cell 4:2](train.ipynb)" in text
    assert "[train.ipynb:cell 3:1](train.ipynb)" in text
    page = render_html(found)
    assert 'train.ipynb">train.ipynb:cell 3:1</a>' in page  # the file, not a line of it
    doc = _review_json(root, tmp_path / "nb.json", "--no-cache")
    assert [(d["cell"], d["line"]) for d in doc["dynamic_shape"]] == [(3, 1)]
    assert doc["sparse"] == [{"path": "train.ipynb", "line": 2, "cell": 3}]


def test_recipe_call_sites_are_the_solvers_inherited_methods_too(tmp_path: Path) -> None:
    """``self.loader(bs)`` in a subclass calls the base's method: the call facts resolved as
    the solver resolves them find both call sites (a name lookup of its own found one, and
    gave its 64 as the only value), and each site's value is shown."""
    root = write_repo(
        tmp_path / "repo",
        {
            "exp/base.py": """
                import torch

                class Exp:
                    def loader(self, batch_size):
                        return torch.utils.data.DataLoader(None, batch_size=batch_size)

                    def evaluator(self):
                        return self.loader(64)
            """,
            "exp/voc.py": """
                from exp.base import Exp

                class VocExp(Exp):
                    def evaluator(self):
                        return self.loader(32)
            """,
        },
    )
    found = review(ScanOptions(str(root), cache_dir=None, jobs=1))
    [loader] = [i for i in found.recipe if i.name == "torch.utils.data.DataLoader"]
    assert dict(loader.values)["batch_size"] == (
        "64 (parameter batch_size of Exp.loader(), passed at exp/base.py:8)"
        " | 32 (parameter batch_size of Exp.loader(), passed at exp/voc.py:5)"
    )


def test_recursive_call_sites_do_not_repeat_a_parameters_value(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "sync.py": """
                import torch

                def convert(module, group=None):
                    out = torch.nn.SyncBatchNorm(4, process_group=group)
                    for child in module.children():
                        convert(child, group)
                    return out

                def build(model):
                    return convert(model)
            """,
        },
    )
    found = review(ScanOptions(str(root), cache_dir=None, jobs=1))
    [sync] = [i for i in found.recipe if i.name == "torch.nn.SyncBatchNorm"]
    assert dict(sync.values)["process_group"] == (
        "None (default of parameter group of convert() at sync.py:3)"
    )


def test_a_call_passing_kwargs_is_not_taken_for_the_default(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "sched.py": """
                import torch

                def build(opt, patience=10):
                    return torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=patience)

                def from_args(opt, args):
                    return build(opt, **vars(args))

                def plain(opt):
                    return build(opt)
            """,
        },
    )
    found = review(ScanOptions(str(root), cache_dir=None, jobs=1))
    [plateau] = [i for i in found.recipe if i.name.endswith("ReduceLROnPlateau")]
    # not "10 (same at sched.py:7; ...)": the **kwargs call may pass another patience
    assert dict(plateau.values)["patience"] == (
        "10 (default of parameter patience of build() at sched.py:3)"
    )
