"""A built wheel carries the generated data and finds it without the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_wheel_ships_mapping_data_and_finds_it(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("apiscan-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        zf.extractall(site)
    assert "apiscan/_data/mapping_data/manifest.json" in names
    assert "apiscan/_data/mapping_data/2.6/api_map.csv" in names
    assert "apiscan/_data/mapping_data/torch_api/torch-2.13.0.json" in names
    assert "apiscan/report/schemas/scan.schema.json" in names
    probe = (
        "import apiscan.mapping.store as s, apiscan.resolve.torch_api as t;"
        "assert 'site' in str(s.mapping_data_dir()), s.mapping_data_dir();"
        "print(len(s.load_table()), t.load_torch_api().canonical('torch.nn.modules.conv.Conv2d'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    rows, conv = out.stdout.split()
    assert int(rows) > 900 and conv == "torch.nn.Conv2d"
