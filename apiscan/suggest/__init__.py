"""Substitutions for PyTorch APIs, read from the verification catalogue.

The feasibility review calls :func:`suggestion` for every missing or different API it lists;
the answer is the catalogue's MindSpore expression and strategy, so that the advice shown is
the code the micro-test verifies. Importing this never imports torch or MindSpore.
"""

from __future__ import annotations

from apiscan.verify.catalogue import cases_for


def suggestion(api: str, status: str) -> str:
    """The catalogue's substitution for ``api`` ("" when it has none). ``status`` is the
    mapping status of the use; a ``mapped`` case only restates the table's own target, so it
    is offered for a ``different`` API (where the case pins the arguments that make it match)
    but not for a ``missing`` one."""
    wanted = [c for c in cases_for(api) if c.strategy != "mapped" or status == "different"]
    parts = []
    for case in wanted:
        where = f" ({case.pattern})" if case.pattern else ""
        note = f" — {case.note}" if case.note else ""
        parts.append(f"{case.strategy}{where}: {case.ms_expr}{note}")
    return "; ".join(parts)
