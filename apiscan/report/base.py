"""The reporter plug-in contract and its registry.

A reporter turns a finished :class:`~apiscan.model.ScanResult` into text and does nothing else:
no re-analysis, no file reads, no mapping look-ups. That keeps every format a pure function of
one value, so golden files are stable and a new format cannot change what a scan finds.

The CLI only ever calls ``get_reporter(fmt).render(result)``; formats are found here by name, so
adding one never touches an ``if format == ...`` chain. The built-in reporters are imported on
the first look-up rather than at import time, because some of them pull in heavy libraries
(tabulate) that a caller asking for JSON should never pay for.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:  # the registry is read before any result exists (an empty scan has none)
    from apiscan.model import ScanResult, Substitution

#: The built-in formats and the module whose import registers each: only the one asked for
#: is imported (the text report's tabulate costs nothing to a JSON run).
_BUILTIN_MODULES: dict[str, str] = {
    "text": "apiscan.report.text",
    "json": "apiscan.report.json",
    "csv": "apiscan.report.csv",
    "markdown": "apiscan.report.markdown",
    "sarif": "apiscan.report.sarif",
    "concise": "apiscan.report.concise",
}

_registry: dict[str, Reporter] = {}


class Reporter(Protocol):
    """One output format: ``name`` is what ``--format`` takes, ``suffix`` the file extension."""

    name: str
    suffix: str

    def render(self, result: ScanResult) -> str:
        """The whole report as one string, ending with a newline."""
        ...


def prepare_hook(reporter: Reporter) -> Callable[[], None] | None:
    """A reporter's optional ``prepare()``: slow imports the pipeline may run in the background
    while worker processes parse (a reporter needs none)."""
    hook = getattr(reporter, "prepare", None)
    return hook if callable(hook) else None


def register(reporter: Reporter) -> Reporter:
    """Make ``reporter`` available under its name; returns it so modules can keep a handle.

    Registering a second, different reporter under a taken name is an error rather than a silent
    override, so two plug-ins cannot fight over a format name unnoticed.
    """
    current = _registry.get(reporter.name)
    if current is not None and current is not reporter:
        raise ValueError(f"a reporter named {reporter.name!r} is already registered")
    _registry[reporter.name] = reporter
    return reporter


def get_reporter(name: str) -> Reporter:
    """The reporter for format ``name``; ``KeyError`` naming the known formats otherwise."""
    if name not in _registry and name in _BUILTIN_MODULES:
        importlib.import_module(_BUILTIN_MODULES[name])
    try:
        return _registry[name]
    except KeyError:
        known = ", ".join(formats())
        raise KeyError(f"unknown report format {name!r}; known formats: {known}") from None


def is_builtin(name: str) -> bool:
    """Whether format ``name`` is one of apiscan's own (no module is imported)."""
    current = _registry.get(name)
    if current is None:
        return name in _BUILTIN_MODULES
    return type(current).__module__.startswith("apiscan.report.")


def formats() -> tuple[str, ...]:
    """Names of every format, built-in or registered, sorted (no module is imported)."""
    return tuple(sorted({*_BUILTIN_MODULES, *_registry}))


def shape_total(summary: dict[str, object]) -> int:
    """How many dynamic-shape findings ``ScanResult.summary()`` counted."""
    return cast(dict[str, int], summary["dynamic_shape"])["findings"]


def shape_severities(summary: dict[str, object]) -> dict[str, int]:
    """Dynamic-shape findings per severity, from ``ScanResult.summary()``."""
    return cast(dict[str, dict[str, int]], summary["dynamic_shape"])["by_severity"]


def facts_cut_note(summary: dict[str, object]) -> str:
    """The sentence saying which files' whole-program facts the re-walk budget cut ("" when
    none were): their dynamic-shape findings may be incomplete."""
    cut = cast(dict[str, list[str]], summary["dynamic_shape"]).get("facts_cut", [])
    if not cut:
        return ""
    shown = ", ".join(cut[:5]) + (f" and {len(cut) - 5:,} more" if len(cut) > 5 else "")
    many = len(cut) != 1
    return (
        f"Facts cut: {len(cut):,} file{'s' if many else ''} kept an earlier walk because "
        f"re-walking {'them' if many else 'it'} with the facts found in other files was over "
        f"this scan's budget ({shown}); dynamic-shape findings in them, or in the code they "
        "pass values to, may be missing. A scan of fewer files (a sub-directory with the "
        "library it uses) may find them."
    )


#: Which verification result makes a substitution the one to show first.
_VERIFICATION_RANK = {"pass": 0, "not run": 1, "skipped": 2, "fail": 3, "error": 4}


def best_substitution(subs: tuple[Substitution, ...]) -> Substitution | None:
    """The substitution a report shows on an API's row: a verified one first, then one not
    yet run, then the rest; ties keep the catalogue's (api, case id) order."""
    if not subs:
        return None
    return min(subs, key=lambda s: _VERIFICATION_RANK.get(s.verification, 5))


def substitution_tally(subs: tuple[Substitution, ...]) -> str:
    """ "1 fail, 2 pass": how many substitutions have each verification result."""
    counts = Counter(s.verification for s in subs)
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


#: How each disposition is labelled in the text and Markdown reports.
DISPOSITION_LABELS = {
    "delete": "delete",
    "idiom": "idiom",
    "rewrite": "rewrite",
    "custom-op": "may need a custom op",
    "gap": "gap",
    "none": "no change",
}


def proposal(result: ScanResult, api: str) -> list[tuple[str, str]]:
    """What to do about one API, as (label, text) lines for a report row: the rewrite of its
    first call site that has one (rendered from that call's own arguments), an idiom with its
    template and page, a deletion, or why no exact rewrite exists. Never a test expression,
    nor a type annotation's rename while the API has a call site."""
    uses = [f for f in result.call_site_findings if f.api == api] or [
        f for f in result.api_findings if f.api == api
    ]
    findings = sorted(uses, key=lambda f: f.sort_key())
    if not findings or findings[0].disposition == "none":
        return []
    shown = next((f for f in findings if f.rewrite), findings[0])
    where = f"{shown.path}:{shown.span.line}"
    kind = shown.disposition
    lines: list[tuple[str, str]] = []
    if shown.rewrite:
        label = "use" if kind == "rewrite" else kind
        lines.append((f"{label} ({where})", shown.rewrite))
    elif kind == "delete":
        what = (
            "the with line (keep its body)"
            if shown.usage == "context_manager"
            else ("the statement")
        )
        lines.append((f"delete ({where})", what))
    elif kind == "rewrite":
        lines.append(("no exact rewrite", shown.rewrite_note or "no template"))
        return lines
    if kind in ("custom-op", "gap"):
        lines.append((DISPOSITION_LABELS[kind], shown.rewrite_note))
    elif kind in ("idiom", "delete"):
        source = f" ({shown.rewrite_source})" if shown.rewrite_source else ""
        lines.append(("idiom" if kind == "idiom" else "why", shown.rewrite_note + source))
    elif shown.rewrite_note:
        lines.append(("note", shown.rewrite_note))
    if shown.form_check:
        lines.append(("checked", shown.form_check))
    if shown.mindtorch is not None:
        lines.append(("MindTorch", "provides it" if shown.mindtorch else "lacks it"))
    return lines


def disposition_rows(result: ScanResult) -> list[tuple[str, int, int, int]]:
    """(label, call sites, network call sites, distinct APIs) per disposition that occurs,
    in the order delete, idiom, rewrite, custom op, gap."""
    by = cast(dict[str, dict[str, int]], result.summary()["by_disposition"])
    return [
        (DISPOSITION_LABELS[d], c["call_sites"], c["network_sites"], c["apis"])
        for d, c in by.items()
        if d != "none" and c["call_sites"]
    ]
