"""Every VALID / INVALID example of every rule, scanned for real.

One parametrised test: the example is written to a temporary repository and scanned; the
findings of *that* rule must sit exactly on the lines marked ``# error`` (none for VALID).
Other rules may fire on the same example (a ``nonzero`` feeding a gather is DS103 and DS111);
each is held to its own examples.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan
from apiscan.rules.base import Rule, error_sites, example_files
from apiscan.rules.registry import all_rules

CASES = [
    pytest.param(rule, kind, source, id=f"{rule.id}-{kind}-{n}")
    for rule in all_rules()
    for kind, examples in (("valid", rule.valid_examples()), ("invalid", rule.invalid_examples()))
    for n, source in enumerate(examples, 1)
]


@pytest.mark.parametrize(("rule", "kind", "source"), CASES)
def test_rule_example(tmp_path: Path, rule: type[Rule], kind: str, source: str) -> None:
    files = example_files(source)
    for path, code in files.items():  # several files: cause and effect in different ones
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(code, encoding="utf-8")
    result = scan(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    assert not result.error_findings, result.error_findings
    mine = [f for f in result.shape_findings if f.rule == rule.id]
    expected = set(error_sites(source)) if kind == "invalid" else set()
    numbered = "\n".join(
        f"{path}:{i:3} {line}"
        for path, code in files.items()
        for i, line in enumerate(code.splitlines(), 1)
    )
    assert {(f.path, f.span.line) for f in mine} == expected, numbered
    for f in mine:
        assert f.name == rule.name
        assert f.severity == rule.severity(f.scope)
