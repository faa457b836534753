"""A transparent effort estimate: three counts, and the sentences saying what each counts.

No weights and no score: a team reads how many places change, how many APIs have nothing to
change to, and how many functions need a shape rewrite, then applies its own rates. Only the
network graph counts toward the numbers, because that is what MindSpore compiles; host and data
code is counted beside them, since it can usually stay Python or NumPy.
"""

from __future__ import annotations

from collections import Counter

from apiscan.model import ScanResult
from apiscan.review.gaps import GAP_STATUSES
from apiscan.review.model import Effort, Gap

#: Uses that make an API something to compute (an op); a missing dtype or ``.device`` read as
#: an attribute is data, and is renamed rather than implemented.
OP_USAGES = frozenset({"call", "operator", "decorator", "context_manager", "base_class"})
#: Names listed in one sentence before the rest are only counted.
LISTED = 10


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:LISTED])
    more = len(names) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def estimate(result: ScanResult, gaps: tuple[Gap, ...]) -> Effort:
    """The counts and their explanation, from the scan's findings and the network gaps."""
    network = [f for f in result.api_findings if f.scope == "network" and f.status in GAP_STATUSES]
    by_status = Counter(f.status for f in network)
    annotations = sum(1 for f in network if f.usage == "annotation")
    outside = Counter(
        f.scope for f in result.api_findings if f.scope != "network" and f.status in GAP_STATUSES
    )
    op_apis = {f.api for f in network if f.status == "missing" and f.usage in OP_USAGES}
    custom = sorted(
        g.api
        for g in gaps
        if g.status == "missing" and g.api in op_apis and not g.mindspore_api and not g.suggestion
    )
    shapes = [f for f in result.shape_findings if f.scope == "network"]
    functions = sorted({(f.path, f.function or "<module>") for f in shapes})

    sentences = [
        f"{_count(len(network), 'call site')} in the network graph "
        f"{'needs' if len(network) == 1 else 'need'} a change: "
        f"{by_status['missing']:,} use an API the mapping table lacks (missing), "
        f"{by_status['candidate']:,} one it lacks but MindSpore has by the same name, not yet "
        f"verified (candidate), and {by_status['different']:,} one that behaves differently "
        "(different). Counted as the "
        "scan's API findings whose scope is network, one per use"
        + (f", {annotations:,} of them in type annotations." if annotations else "."),
        f"Outside the network graph, {outside['host']:,} host and {outside['data']:,} data call "
        "sites are missing, candidates or different; that code runs as plain Python or in the data "
        "pipeline, where it can often stay as it is, so it is not in the first number.",
        f"{_count(len(custom), 'API')} may need a custom op: missing from the mapping table, "
        "used as an op (called, not read as an attribute) in the network graph, with no "
        "MindSpore counterpart and no suggested substitution"
        + (f": {_listing(custom)}." if custom else "."),
        f"{_count(len(functions), 'dynamic-shape rewrite')}: "
        f"{_count(len(shapes), 'dynamic-shape finding')} in the network graph, counted once "
        "per function because a function is rewritten as a whole (pad and mask, a fixed "
        "maximum)" + (f": {_listing([f'{p}:{fn}' for p, fn in functions])}." if functions else "."),
    ]
    errors = {f.path for f in result.error_findings}
    if errors:
        sentences.append(
            f"{_count(len(errors), 'file')} could not be analysed; what they use is not counted."
        )
    return Effort(
        call_sites_to_change=len(network),
        custom_ops=len(custom),
        dynamic_shape_rewrites=len(functions),
        explanation=tuple(sentences),
    )
