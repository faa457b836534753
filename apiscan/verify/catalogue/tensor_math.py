"""Mapped APIs checked numerically (see functional.py for the pattern)."""

from __future__ import annotations

from apiscan.verify.cases import Case

CASES: tuple[Case, ...] = ()
