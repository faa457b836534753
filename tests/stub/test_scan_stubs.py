"""``apiscan PATH --stubs DIR`` and ``apiscan stub`` through the main command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scan_helpers import scan_repo, write_repo

from apiscan.cli.main import stub_candidates

SRC = """
import torch

def forward(x, model, opt):
    if torch.cuda.is_available():      # missing, but a device query: no custom op
        x = x.cpu()
    model.eval()
    opt.zero_grad()
    y = torch.special.i0e(x)           # missing op: a stub
    return torch.mode(y, 1)            # missing op: a stub
"""


def test_only_missing_tensor_computations_get_stubs(tmp_path: Path) -> None:
    result = scan_repo(write_repo(tmp_path / "repo", {"m.py": SRC}))
    wanted, left_out = stub_candidates(result)
    assert wanted == ["torch.mode", "torch.special.i0e"]
    assert "torch.cuda.is_available" in left_out and "torch.special.i0e" not in left_out


def test_scan_writes_stubs_after_the_report(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    out = tmp_path / "stubs"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "apiscan",
            str(root),
            "--no-cache",
            "-f",
            "json",
            "--stubs",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("{")  # the report is intact
    assert sorted(p.name for p in out.iterdir()) == [
        "mode.py",
        "special_i0e.py",
        "test_mode.py",
        "test_special_i0e.py",
    ]
    assert "custom-op stubs for 2 missing API(s)" in proc.stderr
    assert "torch.cuda.is_available" in proc.stderr  # named among those left out
    # --stubs pointing at a file: a usage error, after the report
    clash = tmp_path / "file"
    clash.write_text("x", encoding="utf-8")
    bad = subprocess.run(
        [sys.executable, "-m", "apiscan", str(root), "--no-cache", "--stubs", str(clash)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "not a directory" in bad.stderr


def test_stub_subcommand_is_dispatched(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "apiscan", "stub", "torch.special.i0e", "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "special_i0e.py").is_file()
