"""Is the shipped generated data what its generator produces now? (``--check`` of the scripts)

``mapping_data/`` is never hand-edited: each generator regenerates in memory and compares with
what is shipped. The comparison and its messages are shared so every ``--check`` reads alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path

#: Lines of unified diff shown per changed file.
DIFF_LINES_SHOWN = 12


def compare_generated(
    files: Mapping[str, bytes], target: Path, existing: Iterable[str]
) -> list[str]:
    """Human-readable differences between regenerated ``files`` (relative path → bytes) and
    the folder ``target``; ``existing`` lists the generator's files found there now."""
    problems = [
        f"extra: {relative} (not produced from the sources)"
        for relative in sorted(set(existing) - files.keys())
    ]
    for relative, content in sorted(files.items()):
        path = target / relative
        if not path.is_file():
            problems.append(f"missing: {relative}")
            continue
        current = path.read_bytes()
        if current == content:
            continue
        old = current.decode("utf-8", "replace").splitlines()
        new = content.decode("utf-8").splitlines()
        diff = list(difflib.unified_diff(old, new, "shipped", "regenerated", lineterm="", n=0))
        added = sum(1 for line in diff if line.startswith("+") and not line.startswith("+++"))
        removed = sum(1 for line in diff if line.startswith("-") and not line.startswith("---"))
        problems.append(f"changed: {relative} (+{added} -{removed} lines)")
        problems.extend(f"    {line[:160]}" for line in diff[2 : 2 + DIFF_LINES_SHOWN])
    return problems
