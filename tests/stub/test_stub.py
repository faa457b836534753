"""``apiscan stub``: the scaffolds import and run under MindSpore, their tests fail with an
explanation until ``_compute`` is implemented and pass after, output is deterministic, and
the CLI reports what it did.

Generation runs in-process (it needs torch only); everything that runs MindSpore runs in a
subprocess so that its global state (device, op registry) stays out of this session.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apiscan.cli.stub import run_stub
from apiscan.stub import StubResult, write_stubs
from apiscan.stub.introspect import describe
from apiscan.stub.samples import infer

#: numpy bodies for ``_compute``, replacing the placeholder line.
IMPLEMENTATIONS = {
    "nn_functional_softsign.py": "return input / (1 + np.abs(input))",
    "special_expit.py": "return 1 / (1 + np.exp(-input))",
    "tensor_index_put_.py": (
        "out = input.copy()\n"
        "    if accumulate:\n"
        "        np.add.at(out, tuple(indices), values)\n"
        "    else:\n"
        "        out[tuple(indices)] = values\n"
        "    return out"
    ),
    "nn_linear.py": (
        "out = input @ state['weight'].T\n    return out + state['bias'] if bias else out"
    ),
    "topk.py": (
        "dim = -1 if dim is None else dim\n"
        "    order = np.argsort(-input if largest else input, axis=dim, kind='stable')\n"
        "    index = np.take(order, np.arange(k), axis=dim)\n"
        "    return np.take_along_axis(input, index, axis=dim), index"
    ),
}


def _pytest(directory: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """The generated tests, run the way the engineer runs them: from the output directory."""
    return subprocess.run(
        # -rN: no short summary, whose length depends on $CI (pytest stops truncating there),
        # so that messages are counted once per failure.
        [sys.executable, "-m", "pytest", "-q", "-rN", "-p", "no:cacheprovider", *files],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _implement(directory: Path, name: str) -> None:
    path = directory / name
    text = path.read_text(encoding="utf-8")
    assert text.count("    return NotImplemented\n") == 1
    path.write_text(
        text.replace("    return NotImplemented\n", f"    {IMPLEMENTATIONS[name]}\n"),
        encoding="utf-8",
    )


def test_generated_test_fails_with_explanation_then_passes_once_implemented(
    tmp_path: Path,
) -> None:
    apis = ["torch.nn.functional.softsign", "torch.Tensor.index_put_", "torch.nn.Linear"]
    results = write_stubs(apis, tmp_path)
    assert [r.skipped for r in results] == ["", "", ""]
    tests = [
        f"test_{name}"
        for name in ("nn_functional_softsign.py", "tensor_index_put_.py", "nn_linear.py")
    ]

    before = _pytest(tmp_path, *tests)
    assert before.returncode == 1, before.stdout
    assert "6 failed" in before.stdout
    stub_path = tmp_path / "nn_functional_softsign.py"
    # Which file and function, what the reference computes, by how much they differ.
    assert f"`_compute` in {stub_path} is still the generated placeholder" in before.stdout
    assert (
        "Reference (torch.nn.functional.softsign): Applies element-wise, the function"
        in before.stdout
    )
    assert "output 0: max abs difference" in before.stdout
    assert "allowed 1e-05 * (1 + |torch|)" in before.stdout
    assert "Reference (torch.Tensor.index_put_): Puts values from the tensor values" in (
        before.stdout
    )

    for name in ("nn_functional_softsign.py", "tensor_index_put_.py", "nn_linear.py"):
        _implement(tmp_path, name)
    after = _pytest(tmp_path, *tests)
    assert after.returncode == 0, after.stdout
    assert "6 passed" in after.stdout


def test_a_wrong_implementation_is_reported_as_wrong_not_as_placeholder(
    tmp_path: Path,
) -> None:
    write_stubs(["torch.special.expit", "torch.topk", "torch.Tensor.int"], tmp_path)
    _implement(tmp_path, "topk.py")  # multi-output: values and int64 indices
    path = tmp_path / "special_expit.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("    return NotImplemented\n", "    return np.tanh(input)\n"),
        encoding="utf-8",
    )
    run = _pytest(tmp_path, "test_special_expit.py", "test_topk.py", "test_tensor_int.py")
    assert run.returncode == 1, run.stdout
    assert "4 failed, 2 passed" in run.stdout
    # int() of values in (-1, 1) is all zeros: the placeholder must not pass by luck.
    assert run.stdout.count("the outputs agree only because PyTorch returns zeros") == 2
    assert run.stdout.count("still the generated placeholder") == 2
    assert f"Fix `_compute` (or `_out_shape`/`_out_dtype`) in {path}" in run.stdout


def test_scaffolds_import_and_run_with_the_inferred_shapes(tmp_path: Path) -> None:
    apis = [
        "torch.special.i0e",
        "torch.nn.functional.grid_sample",
        "torch.Tensor.index_put_",
        "torch.nn.Linear",
        "torch.sum",
    ]
    assert all(not r.skipped for r in write_stubs(apis, tmp_path))
    script = f"""
import importlib.util, json
import numpy as np
import mindspore

mindspore.set_device("CPU")

def load(name):
    spec = importlib.util.spec_from_file_location(name, {str(tmp_path)!r} + "/" + name + ".py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

T = lambda shape, dtype=np.float32: mindspore.Tensor(np.ones(shape, dtype))
out = {{}}
out["i0e"] = load("special_i0e").i0e(T((2, 3)))
out["grid_sample"] = load("nn_functional_grid_sample").grid_sample(T((1, 2, 4, 5)), T((1, 3, 6, 2)))
index = (mindspore.Tensor(np.array([0, 2])), mindspore.Tensor(np.array([1, 3])))
out["index_put_"] = load("tensor_index_put_").index_put_(T((3, 4)), index, T((2,)))
cell = load("nn_linear").Linear(5, 2)
out["Linear"] = cell(T((3, 5)))
out["sum"] = load("sum").sum(T((2, 3)))
print(json.dumps({{k: [list(v.shape), str(v.dtype), float(v.asnumpy().sum())]
                  for k, v in out.items()}}))
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    shapes = json.loads(run.stdout.strip().splitlines()[-1])
    assert shapes == {
        "i0e": [[2, 3], "Float32", 0.0],  # same shape as the input, zeros until implemented
        "grid_sample": [[1, 2, 3, 6], "Float32", 0.0],  # (N, C) of input, (H, W) of grid
        "index_put_": [[3, 4], "Float32", 0.0],
        "Linear": [[3, 2], "Float32", 0.0],  # (batch, out_features): a rule on an argument
        "sum": [[], "Float32", 0.0],  # 0-d, though pyfunc outputs need a dimension
    }


def test_output_is_deterministic_and_rerunning_changes_nothing(tmp_path: Path) -> None:
    apis = ["torch.special.i0e", "torch.nn.functional.grid_sample", "torch.nn.Linear"]
    first = write_stubs(apis, tmp_path / "a")
    write_stubs(apis, tmp_path / "b")
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == 6
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    again = write_stubs(apis, tmp_path / "a")
    assert all(r.written == () and len(r.unchanged) == 2 for r in again)
    assert [r.paths for r in again] == [r.paths for r in first]


def test_an_edited_file_is_kept_unless_forced(tmp_path: Path) -> None:
    write_stubs(["torch.special.expit"], tmp_path)
    stub = tmp_path / "special_expit.py"
    _implement(tmp_path, "special_expit.py")
    edited = stub.read_bytes()
    (kept,) = write_stubs(["torch.special.expit"], tmp_path)
    assert kept.kept == (stub,) and kept.unchanged == (tmp_path / "test_special_expit.py",)
    assert stub.read_bytes() == edited
    (forced,) = write_stubs(["torch.special.expit"], tmp_path, force=True)
    assert forced.written == (stub,)
    assert b"return NotImplemented" in stub.read_bytes()


@pytest.mark.parametrize(
    ("api", "reason"),
    [
        ("torch.float32", "a dtype, not a callable torch API"),
        ("torch.pi", "not a callable torch API (a float constant or attribute)"),
        ("torch.Tensor.T", "not a callable torch API"),
        ("torch.Size", "a class that is not an nn.Module"),
        ("torch.nn", "a module, not a callable torch API"),
        ("torch.no_such_op", "unknown torch API (torch.no_such_op not found)"),
        ("numpy.sum", "not a torch API"),
        ("torch.", "not a dotted Python name"),
    ],
)
def test_names_without_an_operator_are_skipped_with_a_reason(
    tmp_path: Path, api: str, reason: str
) -> None:
    (result,) = write_stubs([api], tmp_path)
    assert result == StubResult(api, skipped=result.skipped)
    assert reason in result.skipped
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_signatures_come_from_inspect_the_docstring_or_fall_back() -> None:
    i0e = describe("torch.special.i0e")  # a builtin: no inspect signature
    assert (i0e.signature_source, [p.name for p in i0e.params]) == ("docstring", ["input"])
    assert i0e.dropped == ("out",)
    assert i0e.summary.startswith("Computes the exponentially scaled zeroth order")
    grid = describe("torch.nn.functional.grid_sample")
    assert grid.signature_source == "inspect"
    assert [p.name for p in grid.params] == [
        "input",
        "grid",
        "mode",
        "padding_mode",
        "align_corners",
    ]
    put = describe("torch.Tensor.index_put_")  # a method: self becomes input
    assert [p.name for p in put.params] == ["input", "indices", "values", "accumulate"]
    assert put.kind == "method" and put.inplace
    linear = describe("torch.nn.Linear")
    assert linear.kind == "module"
    assert [p.name for p in linear.init_params] == ["in_features", "out_features", "bias"]
    assert [p.name for p in linear.params] == ["input"]


def test_output_rules_inferred_from_sample_calls() -> None:
    kinds = {
        api: [r.kind for r in infer(describe(api)).shape_rules]
        for api in (
            "torch.special.i0e",
            "torch.nn.functional.grid_sample",
            "torch.sum",
            "torch.topk",
            "torch.kron",
        )
    }
    assert kinds == {
        "torch.special.i0e": ["same"],
        "torch.nn.functional.grid_sample": ["dims"],
        "torch.sum": ["scalar"],
        "torch.topk": ["dims", "dims"],
        "torch.kron": ["todo"],  # (2, 3) x (2, 3) -> (4, 9): no rule, observations shown
    }
    topk = infer(describe("torch.topk"))
    assert [r.kind for r in topk.dtype_rules] == ["same", "fixed"]
    assert topk.dtype_rules[1].value == "int64"
    assert topk.shape_rules[0].value == ((0, 0), "k")  # (input[0], k)


def test_cli_writes_reports_and_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "stubs"
    assert run_stub(["torch.special.expit", "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert "special_expit.py" in printed.out and "test_special_expit.py" in printed.out
    assert printed.out.count("wrote ") == 2 and printed.err == ""

    # An unknown API: one line on stderr, exit 2, the other API still written.
    code = run_stub(["torch.no_such_op", "torch.nn.functional.softsign", "-o", str(out)])
    printed = capsys.readouterr()
    assert code == 2
    assert printed.err == (
        "apiscan stub: torch.no_such_op: unknown torch API (torch.no_such_op not found)\n"
    )
    assert (out / "nn_functional_softsign.py").is_file()

    # Edited scaffold: kept and said so; not an error.
    _implement(out, "special_expit.py")
    assert run_stub(["torch.special.expit", "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert "kept" in printed.err and "--force overwrites it" in printed.err
    assert "unchanged" in printed.out

    assert run_stub([]) == 2  # no API: argparse usage error
    capsys.readouterr()
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    assert run_stub(["torch.special.expit", "-o", str(a_file)]) == 2
    assert capsys.readouterr().err.startswith("apiscan stub: not a directory")


def test_the_cli_module_imports_neither_torch_nor_mindspore() -> None:
    code = (
        "import sys, apiscan.cli.stub, apiscan.stub; "
        "print(sorted(m for m in ('torch', 'mindspore') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_composition_comes_before_a_custom_op(tmp_path: Path) -> None:
    """batched_nms: the NMSWithMask composition and its micro-test, no ops.Custom scaffold;
    it needs no torchvision."""
    from apiscan.stub import write_stubs

    [result] = write_stubs(["torchvision.ops.batched_nms"], tmp_path, run_checks=False)
    assert not result.skipped
    module = (tmp_path / "torchvision_ops_batched_nms.py").read_text(encoding="utf-8")
    assert "ops.NMSWithMask" in module and "def batched_nms(" in module
    assert "def nms(" in module and "ops.Custom" not in module
    compile(module, "batched_nms", "exec")
    test = (tmp_path / "test_torchvision_ops_batched_nms.py").read_text(encoding="utf-8")
    assert "cases_for(API)" in test and "torchvision.ops.batched_nms" in test
    [summary] = result.notes
    assert "NMSWithMask" in summary and "data-dependent output length" in summary
    assert result.composed  # the command line then asks for no _compute to be written


def test_a_torchvision_api_is_described_from_the_shipped_index() -> None:
    from apiscan.stub.introspect import describe_static

    info = describe_static("torchvision.ops.roi_pool")
    assert info is not None and info.signature_source == "index"
    assert [p.name for p in info.params] == ["input", "boxes", "output_size", "spatial_scale"]
    assert describe_static("torchvision.no_such_thing") is None


def test_float_hyper_parameters_are_never_sampled_as_tensors() -> None:
    from apiscan.stub.samples import _by_name

    for name in ("iou_threshold", "score_thresh", "min_size", "spatial_scale"):
        assert _by_name(name, (3, 4), 2) == [0.5, 2.0]


def test_the_inputs_observed_are_drawn_by_the_generated_tests_own_text() -> None:
    """The drawing of sample inputs has one definition, the text a generated test carries:
    the in-process drawing runs that text, so with the same seed both give the same arrays."""
    import numpy as np

    from apiscan.stub.samples import draw
    from apiscan.stub.templates import DRAW, TEST_BODY

    assert DRAW in TEST_BODY
    spec = {
        "x": {"tensor": "float32", "shape": [2, 3], "low": -1.0, "high": 1.0, "sorted": True},
        "i": [{"tensor": "int64", "shape": [4], "low": 0, "high": 5}, 2.0],
        "m": {"tensor": "bool", "shape": [3]},
    }
    namespace: dict = {"np": np}
    exec(DRAW, namespace)
    ours, theirs = (
        draw(spec, np.random.default_rng(7)),
        namespace["_draw"](spec, np.random.default_rng(7)),
    )
    assert np.array_equal(ours["x"], theirs["x"]) and ours["x"].dtype == np.float32
    assert np.array_equal(ours["i"][0], theirs["i"][0]) and ours["i"][1] == 2.0
    assert np.array_equal(ours["m"], theirs["m"]) and ours["m"].dtype == np.bool_
