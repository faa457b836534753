"""Matching one PyTorch call against the mapping: status, target, unsupported parameters.

The table's status describes the API in general; a call site can make it worse. A call of
a "consistent" API that passes ``out=`` (a general difference parameter MindSpore never
takes) will not run unchanged, so it is reported as "different", naming the parameter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from apiscan.mapping.schema import CONSISTENT, DIFFERENT, MISSING, MappingRow
from apiscan.mapping.store import MappingTable

# Diff-page rows that describe outputs are not parameters a caller can pass.
_CALLABLE_CATEGORIES = frozenset({"Parameters", "Inputs"})


@dataclass(frozen=True)
class Match:
    """The mapping verdict for one use of a PyTorch API."""

    status: str
    mindspore_api: str | None
    note: str
    diff_url: str
    source_version: str | None
    unsupported_params: tuple[str, ...]
    target_exists: bool | None


def match_api(api: str, table: MappingTable, *, passed_params: Iterable[str] = ()) -> Match:
    """Match ``api`` (a canonical PyTorch name) against ``table``.

    ``passed_params`` are the PyTorch parameter names the call passes (keywords, and
    positional arguments the caller already mapped to names). Those the row's diff page maps
    to no MindSpore parameter, or that the general difference table lists, are unsupported.
    An API without a row is "missing"; whether it is a real PyTorch API is for the caller
    to decide.
    """
    row = table.lookup(api)
    if row is None:
        return Match(
            status=MISSING,
            mindspore_api=None,
            note=f"{api} is not in the mapping table",
            diff_url="",
            source_version=None,
            unsupported_params=(),
            target_exists=None,
        )
    unsupported = _unsupported(row, dict.fromkeys(passed_params), frozenset(table.general_params))
    target, exists = _choose_target(row)
    status, note = row.status, row.note
    if unsupported:
        names = ", ".join(unsupported)
        remark = f"MindSpore takes no counterpart of the passed parameter(s): {names}."
        note = f"{note.rstrip('.')}. {remark}" if note else remark
        if status == CONSISTENT:
            status = DIFFERENT
    return Match(
        status=status,
        mindspore_api=target,
        note=note,
        diff_url=row.diff_url,
        source_version=row.source_version,
        unsupported_params=unsupported,
        target_exists=exists,
    )


def _unsupported(
    row: MappingRow, passed: dict[str, None], general: frozenset[str]
) -> tuple[str, ...]:
    dropped = {
        name.strip().lstrip("*")
        for param in row.params
        if param.category in _CALLABLE_CATEGORIES and not param.ms_param
        for name in param.torch_param.split(",")
    }
    dropped.discard("")
    return tuple(name for name in passed if name in general or name in dropped)


def _choose_target(row: MappingRow) -> tuple[str | None, bool | None]:
    """The first target that exists; failing that the first of unknown existence; failing
    that the first target at all (so a report can still name what the table suggested)."""
    if not row.ms_apis:
        return None, None
    flags = row.targets_exist or (None,) * len(row.ms_apis)
    for wanted in (True, None):
        for target, flag in zip(row.ms_apis, flags, strict=True):
            if flag is wanted:
                return target, flag
    return row.ms_apis[0], flags[0]
