"""How much of what the consistent rows promise has a case: one line per (row, parameter).

A consistent row (``torch.round`` ↔ ``mindspore.mint.round``) promises every documented
parameter of the PyTorch API through that target. This module lists, for every consistent
row of the merged table, the PyTorch signature's parameters and for each one either the case
that exercises it or why none does:

- *covered*: a case runs the row's target passing it (a generated form tagged
  ``param=<name>=…``; a hand-written claim or substitution case whose call names it), or, for
  a required parameter, any case of the row (every call passes it);
- *cannot run here*, with the reason (:data:`apiscan.verify.documented.CANNOT_RUN_HERE`,
  :data:`~apiscan.verify.documented.PARAM_CANNOT_RUN`): a process group MindSpore cannot
  create on CPU, a package the verification environment lacks. Never counted as covered;
- *not a claim*: the table's own general parameter differences (``out``, ``device``,
  ``layout``... "not supported in MindSpore") and private parameters (``_stacklevel``) —
  the table documents them as outside the claim;
- *uncovered*: none of the above (a gap of the generator).

With the results of ``apiscan verify --all -f json`` a case only counts when it ran to a
verdict on the device (pass, fail, a MindSpore error): a form PyTorch itself rejects ("not a
PyTorch form") or one skipped for a missing framework covers nothing.

Standard library, the mapping store and the catalogue only (no torch, no MindSpore).
"""

from __future__ import annotations

import ast
import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from apiscan.verify.cases import Case
from apiscan.verify.results import DOCUMENTED_ELSEWHERE_PREFIX

#: Coverage classes of one (row, parameter) pair.
COVERED, CANNOT, NOT_CLAIM, UNCOVERED = "covered", "cannot run here", "not a claim", "uncovered"
#: Result details of cases that ran nothing comparable: they cover no parameter.
_NO_VERDICT = (
    "not a PyTorch form: ",
    "no torch ",
    "kernel unregistered",
    "timeout",
    "the child",
    "harness:",
    "torch:",
)


@dataclass(frozen=True)
class ParamCoverage:
    """One documented parameter of one consistent row and how it is covered."""

    api: str
    target: str
    param: str
    required: bool
    state: str  # COVERED, CANNOT, NOT_CLAIM or UNCOVERED
    why: str = ""  # the covering case id, or the reason


def general_params(data_dir: object = None) -> dict[str, str]:
    """The table's general parameter differences (``out`` → "not supported in MindSpore")."""
    from apiscan.mapping.schema import GENERAL_PARAMS_FILE
    from apiscan.mapping.store import DEFAULT_VERSION, mapping_data_dir

    path = mapping_data_dir() / DEFAULT_VERSION / GENERAL_PARAMS_FILE
    with path.open(encoding="utf-8") as handle:
        return {row["name"]: row["description"] for row in csv.DictReader(handle)}


def passed_params(case: Case, params: Sequence[tuple[str, str, bool]]) -> set[str]:
    """The parameters a case's PyTorch call passes: its ``param=`` tag for a generated form,
    else the keywords and positional arguments of the call (mapped onto the signature)."""
    tag = next((t for t in case.tags if t.startswith("param=")), "")
    if tag:
        name = tag[len("param=") :].split("=", 1)[0]
        return {name} if "=" in tag[len("param=") :] else set()
    text = case.pattern[len("claim: ") :] if case.pattern.startswith("claim: ") else ""
    try:
        tree = ast.parse(text or case.torch_expr, mode="eval")
    except SyntaxError:
        return set()
    found: set[str] = set()
    short = case.api.rpartition(".")[2]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called != short:
            continue
        found.update(k.arg for k in node.keywords if k.arg)
        positional = [p for p in params if p[1] in ("pos_only", "pos_or_kw")]
        if case.api.startswith("torch.Tensor."):
            positional = [p for p in positional if p[0] != "self"]
        found.update(p[0] for p in positional[: len(node.args)])
    return found


def _verdict(result: Mapping[str, object] | None) -> str:
    """``ran`` for a result that is a verdict on the claim; ``elsewhere`` for a target with
    no kernel here that its docs list for other devices only (untestable here, a reason);
    ``""`` for nothing comparable (no result, a form PyTorch rejects, a harness fault)."""
    if result is None:
        return ""
    detail = str(result.get("detail", ""))
    if result.get("status") in ("pass", "fail"):
        return "ran"
    if detail.startswith(DOCUMENTED_ELSEWHERE_PREFIX):
        return "elsewhere"
    return "" if detail.startswith(_NO_VERDICT) else "ran"


def measure(
    cases: Iterable[Case],
    results: Mapping[str, Mapping[str, object]] | None = None,
    ms_version: str | None = None,
    gaps: Mapping[str, str] | None = None,
) -> list[ParamCoverage]:
    """Every (consistent row, documented parameter) pair, sorted, with how it is covered.
    ``results`` (case id → result record) restricts the covering cases to those that ran
    to a verdict; ``gaps`` (API → why the generator made no forms) explains what stays
    uncovered."""
    gaps = dict(gaps or {})
    from apiscan.mapping.store import load_table, mapping_data_dir
    from apiscan.verify.catalogue.forms import alias
    from apiscan.verify.documented import (
        DEPRECATED,
        NOT_EXERCISED,
        cannot_run_here,
        row_entry,
        row_params,
        torch_index,
    )
    from apiscan.verify.harness import claim_target

    table = load_table(ms_version)
    index = torch_index(mapping_data_dir())
    general = general_params()
    by_api: dict[str, list[Case]] = {}
    elsewhere: dict[str, str] = {}  # case id → why it could not run on this device
    for case in cases:
        if results is not None:
            result = results.get(case.case_id)
            verdict = _verdict(result)
            if verdict == "elsewhere" and result is not None:
                elsewhere[case.case_id] = str(result.get("detail", "")).split(" (", 1)[0]
            elif verdict != "ran":
                continue
        by_api.setdefault(case.api, []).append(case)
    out: list[ParamCoverage] = []
    for row in table:
        if row.status != "consistent" or not row.ms_apis:
            continue
        api, target = row.torch_api, row.ms_apis[0]
        entry = row_entry(api, index)
        params = row_params(api, entry or {})
        mine = [
            c
            for c in by_api.get(api, ())
            if claim_target(c) == target
            or (not claim_target(c) and c.strategy == "mapped" and alias(target) in c.ms_expr)
        ]
        passed: dict[str, str] = {}
        untestable: dict[str, str] = {}
        for case in mine:
            found = untestable if case.case_id in elsewhere else passed
            for name in passed_params(case, params):
                found.setdefault(name, case.case_id)
        ran = [c for c in mine if c.case_id not in elsewhere]
        if entry is None or ("p" not in entry and entry.get("k") != "property"):
            # no signature to enumerate (``torch.Tensor(...)``, a builtin class): the forms
            # real code writes, hand-written, are what the row is checked by
            reason = cannot_run_here(api, target, "")
            state = COVERED if ran else CANNOT if reason else UNCOVERED
            why = (
                ran[0].case_id
                if ran
                else reason or NOT_EXERCISED.get(api) or "no recorded PyTorch signature"
            )
            out.append(ParamCoverage(api, target, "(signature)", True, state, why))
        if not any(kind != "var_kw" for _, kind, _ in params):
            # no parameter (a property, ``x.abs()``): counted as a row, nothing to cover
            out.append(ParamCoverage(api, target, "", False, NOT_CLAIM, "no parameters"))
        for name, kind, has_default in params:
            if kind == "var_kw":
                continue
            required = not has_default
            reason = cannot_run_here(api, target, name)
            if name.startswith("_"):
                state, why = NOT_CLAIM, "private parameter"
            elif name in DEPRECATED:
                state, why = NOT_CLAIM, DEPRECATED[name]
            elif name in general and not (name == "reduce" and "scatter" in api):
                state, why = NOT_CLAIM, f"the table's general difference: {general[name]}"
            elif name in passed:
                state, why = COVERED, passed[name]
            elif required and ran:
                state, why = COVERED, ran[0].case_id
            elif reason:
                state, why = CANNOT, reason
            elif name in untestable or (required and mine):
                state = CANNOT
                why = elsewhere[untestable.get(name) or mine[0].case_id]
            else:
                state, why = (
                    UNCOVERED,
                    NOT_EXERCISED.get(name) or NOT_EXERCISED.get(api) or gaps.get(api, ""),
                )
            out.append(ParamCoverage(api, target, name, required, state, why))
    return sorted(out, key=lambda p: (p.api, p.target, p.param))


@dataclass(frozen=True)
class Summary:
    """The headline figures of :func:`measure`."""

    rows: int
    rows_complete: int  # every claimed parameter covered
    rows_accounted: int  # every claimed parameter covered or cannot run here, with a reason
    params: int  # claimed parameters (general differences and private ones left out)
    covered: int
    cannot: int
    not_claim: int


def summarize(pairs: Sequence[ParamCoverage]) -> Summary:
    rows: dict[tuple[str, str], list[ParamCoverage]] = {}
    for p in pairs:
        rows.setdefault((p.api, p.target), []).append(p)
    return _summary(rows)


def _summary(rows: Mapping[tuple[str, str], list[ParamCoverage]]) -> Summary:
    claimed = [p for ps in rows.values() for p in ps if p.state != NOT_CLAIM and p.param]
    return Summary(
        rows=len(rows),
        rows_complete=sum(all(p.state in (COVERED, NOT_CLAIM) for p in ps) for ps in rows.values()),
        rows_accounted=sum(all(p.state != UNCOVERED for p in ps) for ps in rows.values()),
        params=len(claimed),
        covered=sum(p.state == COVERED for p in claimed),
        cannot=sum(p.state == CANNOT for p in claimed),
        not_claim=sum(1 for ps in rows.values() for p in ps if p.state == NOT_CLAIM and p.param),
    )
