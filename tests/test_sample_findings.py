"""The hand-judging sampler: seeded, filtered by confidence/API/usage, with source lines."""

from __future__ import annotations

import json
from pathlib import Path

from script_loader import load_script

sample_findings = load_script("sample_findings")


def _report(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text("a = 1\nx.sum()\nd.values()\n", "utf-8")
    findings = [
        {
            "kind": "api",
            "path": "m.py",
            "line": n,
            "api": api,
            "confidence": conf,
            "usage": "call",
            "scope": scope,
        }
        for n, api, conf, scope in [
            (2, "torch.Tensor.sum", "certain", "network"),
            (3, "torch.Tensor.values", "probable", "host"),
            (1, "torch.zeros", "certain", "data"),
        ]
    ]
    findings.append({"kind": "dynamic_shape", "path": "m.py", "line": 2})
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"root": str(tmp_path), "findings": findings}), "utf-8")
    return path


def test_sample_is_seeded_and_filtered(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    found = sample_findings.load([_report(tmp_path)])
    total, picked = sample_findings.sample(found, 7, 40, "certain", "torch.Tensor.", "call")
    assert total == 1
    assert [f["line"] for _, f in picked] == [2]
    assert sample_findings.source_line(tmp_path, picked[0][1]) == "x.sum()"
    assert sample_findings.scope_counts(found) == {"network": 1, "host": 1, "data": 1}
    assert sample_findings.main([str(tmp_path / "r.json"), "--seed", "7"]) == 0
    assert "1 of 1 matching findings, seed 7" in capsys.readouterr().out
