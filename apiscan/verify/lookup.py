"""The scan's link to verification: substitutions and cached micro-test results per API.

Runs after every scan, including one served whole from the scan cache, because the results
it reads change when the user runs ``apiscan verify``, not when the code changes. It reads
the catalogue (plain data) and the result cache (small JSON files) and never runs a test or
imports torch, MindSpore or numpy.
"""

from __future__ import annotations

from collections.abc import Iterable

from apiscan.model import ApiFinding, ScanResult, Substitution
from apiscan.slotinit import replace
from apiscan.verify.cases import Case
from apiscan.verify.results import NO_KERNEL_PREFIX, CaseResult, ResultCache

#: Statuses whose APIs the report links to substitutions.
LINKED_STATUSES = frozenset({"missing", "candidate", "different"})
#: Results that stop a same-name candidate from being called verified.
BROKEN = frozenset({"fail", "error"})


def substitutions(
    apis: Iterable[str],
    cache: ResultCache | None,
    device: str = "CPU",
    dtype: str = "float32",
    claimed: Iterable[str] = (),
) -> tuple[Substitution, ...]:
    """One row per hand-written catalogue case of each API, with its cached result or "not
    run"; for the ``claimed`` APIs (found consistent), only the ``claim:`` cases that did not
    hold — the table's own target failing or erroring on the device in a documented form
    ("does not hold for ``decimals=1``") — and one row saying the dtype differs when a form
    that holds returns another dtype (int32 indices). Generated documented forms are listed
    for any API only when they did not hold: the forms that held are the table's promise
    kept, not substitutions to read."""
    from apiscan.verify.catalogue import cases_for

    rows = []
    where = (device, dtype)
    wanted = [(api, False) for api in sorted(set(apis))]
    wanted += [(api, True) for api in sorted(set(claimed) - set(apis))]
    for api, only_broken in wanted:
        dtype_noted = False
        edges: list[tuple[Case, CaseResult]] = []
        for case in cases_for(api):
            if "via" in case.tags:
                continue  # a form of another row's target than the one the scan picks
            result = cache.get(case, device, dtype) if cache is not None else None
            if "claim" in case.tags and claim_broken(result) and _is_edge(case):
                edges.append((case, result))  # type: ignore[arg-type]
            elif "claim" in case.tags and claim_broken(result):
                rows.append(_row(api, case, result, where, does_not_hold(case, result)))
            elif only_broken or "generated" in case.tags:
                if result is not None and result.dtype_diff and not dtype_noted:
                    dtype_noted = True
                    note = f"dtype differs: {result.dtype_diff} ({_form_of(case)})"
                    rows.append(_row(api, case, result, where, note))
            else:
                rows.append(_row(api, case, result, where, ""))
        if edges:
            # one row for the edge-case inputs of an API: "does not hold for nan, int64
            # inputs: <why, for the first>", so the documented-parameter rows stay readable
            first, result = edges[0]
            labels = ", ".join(_form_of(c).removesuffix(" inputs") for c, _ in edges)
            text = does_not_hold(first, result).replace(_form_of(first), f"{labels} inputs", 1)
            rows.append(_row(api, first, result, where, text))
    return tuple(sorted(rows, key=lambda s: (s.api, s.case_id)))


def _is_edge(case: Case) -> bool:
    return "form=edge" in case.tags and "param=plain" not in case.tags


def _row(
    api: str, case: Case, result: CaseResult | None, where: tuple[str, str], detail: str
) -> Substitution:
    device, dtype = where
    return Substitution(
        api=api,
        case_id=case.case_id,
        strategy=case.strategy,
        ms_expr=case.ms_expr,
        note=case.note,
        verification=result.status if result else "not run",
        max_abs=result.max_abs if result else None,
        threshold=result.threshold if result else case.threshold_for(dtype),
        device=result.device if result else device,
        dtype=result.dtype if result else dtype,
        mindspore_version=result.mindspore_version if result else "",
        detail=detail,
    )


def claim_broken(result: CaseResult | None) -> bool:
    """A claim's result that says the table's promise does not hold: the numbers disagree,
    the documented form raises in MindSpore, or its target has no kernel on a device its
    docs list (a skip — untestable here, a PyTorch-rejected generated form — is not)."""
    return result is not None and (
        result.status == "fail"
        or (
            result.status == "error"
            and result.detail.startswith(("mindspore:", "the target", NO_KERNEL_PREFIX))
        )
    )


def _form_of(case: Case) -> str:
    """How a case names its form: ``decimals=1`` (by keyword), the call itself (by position,
    on ordinary inputs, or a hand-written form), ``nan inputs``."""
    param = next((t[6:] for t in case.tags if t.startswith("param=")), "")
    call = case.pattern.removeprefix("claim: ").split(" on ")[0]
    if "form=edge" in case.tags and param != "plain":
        return f"{param} inputs"
    if param and "form=keyword" in case.tags:
        return f"`{param}`"
    return f"`{call or case.torch_expr}`"


def does_not_hold(case: Case, result: CaseResult) -> str:
    """ "does not hold for `decimals=1`: raises (mindspore: RuntimeError: For Round only
    support decimals equal 0...)" — the line reports, rewrites and the review show."""
    first = result.detail.splitlines()[0] if result.detail else ""
    if result.status == "fail":
        diff = f"max abs {result.max_abs:.3g}" if result.max_abs is not None else "different"
        why = f"{diff} > {result.threshold:g}" + (f", {first}" if first else "")
    elif first.startswith(NO_KERNEL_PREFIX):
        # "error on CPU: no kernel for mindspore.mint.full (documented for ...): <message>"
        head = first.split(": ", 2)
        why = f"no kernel on {result.device} for {head[1].removeprefix('no kernel for ')}"
    else:
        why = f"raises ({first[:160]})"
    return f"does not hold for {_form_of(case)}: {why}"


def has_case(api: str) -> bool:
    """Whether ``apiscan verify API`` has a micro-test to run (what a report or review may
    recommend)."""
    from apiscan.verify.catalogue import cases_for

    return bool(cases_for(api))


def claim_verdicts(
    api: str, cache: ResultCache | None, device: str = "CPU", dtype: str = "float32"
) -> tuple[str, ...]:
    """For the review: one line per documented form of ``api`` that did not hold on
    ``device`` ("does not hold for `decimals=1`: raises (...)"), then one "dtype differs"
    line when a form that held returns another dtype. Empty when nothing was found (or
    nothing was run: see :func:`has_case` and the cache)."""
    return tuple(
        row.detail for row in substitutions((), cache, device, dtype, claimed=(api,)) if row.detail
    )


def link(
    result: ScanResult, cache: ResultCache | None, device: str = "CPU", dtype: str = "float32"
) -> ScanResult:
    """``result`` with its substitutions filled in and each name-based candidate whose
    same-name micro-test passed promoted to ``verified``."""
    apis = {f.api for f in result.api_findings if f.status in LINKED_STATUSES}
    claimed = {f.api for f in result.api_findings if f.status == "consistent"}
    subs = substitutions(apis, cache, device, dtype, claimed)
    same_name: dict[str, list[Substitution]] = {}
    for sub in subs:
        if sub.strategy == "same-name":
            same_name.setdefault(sub.api, []).append(sub)
    # Verified: a same-name micro-test passed and none of the API's others failed.
    proven = {
        api: next(s for s in found if s.verified)
        for api, found in same_name.items()
        if any(s.verified for s in found) and not any(s.verification in BROKEN for s in found)
    }
    if not proven:
        return replace(result, substitutions=subs)
    findings = [
        _promote(f, proven[f.api])
        if isinstance(f, ApiFinding) and f.status == "candidate" and f.api in proven
        else f
        for f in result.findings
    ]
    return replace(result, findings=tuple(findings), substitutions=subs)


def _promote(finding: ApiFinding, proof: Substitution) -> ApiFinding:
    note = (
        f"{finding.mindspore_api} (same name; not in the mapping table) passed its micro-test "
        f"{proof.case_id}: {proof.describe()}"
    )
    return replace(finding, status="verified", note=note)


def _form_case_of(finding: ApiFinding) -> Case | None:
    """The micro-test of the form this finding's call uses, from the recipe whose template
    rendered its rewrite (the first that renders it exactly)."""
    from apiscan.rewrite.substitutions import recipes_for
    from apiscan.rewrite.template import render
    from apiscan.verify.catalogue.templated import form_case

    if finding.usage != "call" or finding.args is None or not finding.rewrite:
        return None
    if finding.disposition not in ("rewrite", "none"):
        return None  # a deletion or an idiom is not a substitution
    from apiscan.rewrite import catalogue_name

    for recipe in recipes_for(catalogue_name(finding)):
        if render(recipe.template, finding.args).exact:
            return form_case(recipe, finding.args)
    return None


def form_cases(result: ScanResult) -> list[Case]:
    """The distinct micro-tests of the call forms a scan found (``apiscan PATH --verify``)."""
    seen: dict[str, Case] = {}
    for finding in result.api_findings:
        case = _form_case_of(finding)
        if case is not None:
            seen.setdefault(case.case_id, case)
    return [seen[k] for k in sorted(seen)]


def check_forms(
    result: ScanResult, cache: ResultCache | None, device: str = "CPU", dtype: str = "float32"
) -> ScanResult:
    """Each finding whose rewrite came from a template gets the cached result of its own call
    form's micro-test: "verified for the form used at a.py:3", "fails for this form: ..."."""
    if cache is None or cache.empty():  # no result to show: each lookup would miss
        return result
    memo: dict[str, str] = {}
    findings = []
    for f in result.findings:
        case = _form_case_of(f) if isinstance(f, ApiFinding) else None
        if case is None:
            broken = _documented_form_broken(f, cache, device, dtype, memo)
            findings.append(replace(f, form_check=broken) if broken else f)
            continue
        if case.case_id not in memo:
            memo[case.case_id] = _describe_form(cache.get(case, device, dtype), case)
        text = memo[case.case_id]
        if text.startswith("verified"):
            text = f"verified for the form used at {f.path}:{f.span.line} {text[9:]}"
        findings.append(replace(f, form_check=text) if text else f)
    return replace(result, findings=tuple(findings))


def _documented_form_broken(
    finding: object, cache: ResultCache, device: str, dtype: str, memo: dict[str, str]
) -> str:
    """For a consistent call that passes a documented parameter whose generated form did
    not hold: "fails for this form: does not hold for `decimals=1`: raises (...)" (the fix
    command annotates such calls). A keyword form matches a call passing that keyword, a
    positional form a call with as many positional arguments."""
    if not isinstance(finding, ApiFinding) or finding.status != "consistent":
        return ""
    args = finding.args
    if finding.usage != "call" or args is None or args.star or args.truncated:
        return ""
    from apiscan.verify.catalogue import cases_for

    named = {key for key, _ in args.keywords}
    for case in cases_for(finding.api):
        if "generated" not in case.tags or "form=edge" in case.tags or "via" in case.tags:
            continue
        param = next((t[6:] for t in case.tags if t.startswith("param=")), "").split("=")[0]
        positional = "form=positional" in case.tags
        if positional and _positional_count(case) != len(args.positional):
            continue
        if not positional and param not in named:
            continue
        if case.case_id not in memo:
            found = cache.get(case, device, dtype)
            memo[case.case_id] = does_not_hold(case, found) if claim_broken(found) else ""
        if memo[case.case_id]:
            return f"fails for this form: {memo[case.case_id]}"
    return ""


def _positional_count(case: Case) -> int:
    """Positional arguments of a generated form's call (``torch.sort(x, 0)`` → 2,
    ``x.topk(2, 0)`` → 2), counted as a finding's ``args.positional`` counts them (a
    method's receiver apart)."""
    import ast

    call = ast.parse(case.pattern.removeprefix("claim: ").split(" on ")[0], mode="eval").body
    if not isinstance(call, ast.Call):
        return -1
    return len(call.args)


def _describe_form(found: CaseResult | None, case: Case) -> str:
    if found is None:
        return ""
    where = f"{found.device} {found.dtype}, MindSpore {found.mindspore_version}"
    shown = case.torch_expr
    if found.status == "pass":
        return f"verified ({shown}; {where})"
    if found.status == "fail":
        diff = f"max abs {found.max_abs:.3g}" if found.max_abs is not None else "different"
        return f"fails for this form: {diff} > {found.threshold:g} ({shown}; {where})"
    detail = found.detail.splitlines()[0][:120] if found.detail else ""
    return f"{found.status} for this form ({shown}; {where}): {detail}"
