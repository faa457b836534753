"""Masked reductions: a boolean-mask selection whose elements are only reduced.

``x = x[valid]`` followed by ``torch.var(torch.log(x))`` (a depth model's SILog loss over the
valid pixels), ``F.l1_loss(pred[mask], target[mask])`` or ``x.masked_select(m).mean()``
select a data-dependent number of elements (DS104, DS102), yet the count never leaves the
reduction: the known rewrite computes on every element and reduces with the mask, a masked
sum over the mask's count (``(v * m).sum() / m.sum()``; a variance from the masked mean the
same way). That is a rewrite of a few lines, checked once, not the pad-and-mask redesign a
function whose selected rows flow on (into a matcher, a gather, the returned boxes) needs:
the effort prices such a function as a masked reduction, not as a dynamic-shape rewrite.

The reading follows the function's own expressions as the scan recorded them
(:class:`~apiscan.extract.values.FileValues`): from each masked selection, through
element-wise operations and the names it is assigned to, to a reduction. A use anywhere
else (a ``.shape`` read, an index, a return, an unknown call) keeps the function a
dynamic-shape rewrite. A branch on tensor values that only reports (``if torch.isnan(loss):
print(...)``) is a debugging check deleted in the port, not a graph branch.

A selection whose every use ends in a host read (RAFT's ``sequence_loss``: ``epe =
epe.view(-1)[valid.view(-1)]`` read only as ``epe.mean().item()`` and ``(epe <
1).float().mean().item()`` for the metrics it returns) is a metrics computation: nothing of
it is differentiated or stays on the device, so it goes with the training step's host reads
(computed outside the compiled step, or with masked reductions), not with the network's
shape rewrites. One that is differentiated (reduced into the loss) is a masked reduction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import CallValues, DefValues, Expr
from apiscan.model import ShapeFinding
from apiscan.review.roles import HOST_READS
from apiscan.review.sources import with_facts

#: The rules whose findings are a boolean-mask selection (``x[mask]``, ``masked_select``).
MASK_RULES = frozenset({"DS102", "DS104"})
#: A branch on tensor values (``if torch.isnan(loss):``): kept unless it only reports.
BRANCH_RULE = "DS116"
#: Calls that reduce what they are given to a fixed shape: the selection's count ends there.
REDUCTIONS = frozenset(
    {
        "mean",
        "sum",
        "var",
        "std",
        "nanmean",
        "nansum",
        "min",
        "max",
        "amin",
        "amax",
        "norm",
        "logsumexp",
        "l1_loss",
        "mse_loss",
        "smooth_l1_loss",
        "huber_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "cross_entropy",
        "nll_loss",
    }
)
#: Element-wise functions and methods a selection may pass through on its way to one.
ELEMENTWISE = frozenset(
    {
        "abs",
        "atan",
        "clamp",
        "clip",
        "cos",
        "detach",
        "double",
        "exp",
        "expm1",
        "float",
        "half",
        "isfinite",
        "isinf",
        "isnan",
        "log",
        "log10",
        "log1p",
        "log2",
        "neg",
        "pow",
        "reciprocal",
        "relu",
        "rsqrt",
        "sigmoid",
        "sin",
        "softplus",
        "sqrt",
        "square",
        "tanh",
    }
)
#: Calls that only report (host output): a selection printed while debugging is no use.
REPORTS = frozenset({"print", "debug", "info", "warning", "warn", "error", "log_text"})

Span = tuple[int, int, int, int]


def _span(e: Expr) -> Span:
    return (e.line, e.col, e.end_line, e.end_col)


def _inside(inner: Span, outer: Span) -> bool:
    return inner != outer and outer[:2] <= inner[:2] and inner[2:] <= outer[2:]


def _reduces(call: Expr) -> bool:
    """A reduction call, unless it keeps one value per element (``reduction='none'``)."""
    if call.callee() not in REDUCTIONS:
        return False
    return not any(
        k.name == "reduction" and k.target.kind == "Constant" and k.target.value == "none"
        for k in call.keywords
    )


def _paths(root: Expr, hits: Sequence[Expr]) -> list[list[Expr]]:
    """The ancestors (root first) of each expression of ``hits`` in ``root``, in order."""
    found: dict[int, list[Expr]] = {}
    wanted = {id(e) for e in hits}
    stack: list[tuple[Expr, list[Expr]]] = [(root, [])]
    while stack:
        node, above = stack.pop()
        if id(node) in wanted:
            found[id(node)] = above
            continue
        stack.extend((p, [*above, node]) for p in node.parts)
    return [found[id(e)] for e in hits if id(e) in found]


#: Where a selection's value ends (:func:`_consumed`): read on the host (``.item()``, a
#: report), used on the device, or held by the name its root assigns.
READ, USED, HELD = "read", "used", "held"
#: Tensor methods that read a value on the host (:data:`~apiscan.review.roles.HOST_READS`).
HOST_READ_METHODS = frozenset(api.rpartition(".")[2] for api in HOST_READS)
#: Python's conversions of a one-element tensor to a host number (``float(loss)``).
CONVERSIONS = frozenset({"float", "int", "bool"})


def _consumed(above: list[Expr], node: Expr, reduced: bool = False) -> tuple[str, bool]:
    """Where a selection (``node``, with its ancestors ``above``) ends, and whether it was
    reduced on the way: :data:`READ` in a host read or a report (``epe.mean().item()``,
    ``(epe < 1).float().mean().item()``), :data:`USED` in any other use (a reduced value is
    then of a fixed shape; an unreduced one flows on), :data:`HELD` when it reaches the root
    (the root's assignment then holds it). Element-wise operations, comparisons and
    reductions pass it on."""
    if any(p.kind == "Call" and p.callee() in REPORTS for p in above):
        return READ, reduced  # printed while debugging, whatever it is computed into
    for parent in reversed(above):
        if parent.kind in ("BinOp", "UnaryOp", "Compare"):
            node = parent
            continue
        if parent.kind == "Attribute" and parent.parts and parent.parts[0] is node:
            node = parent  # a method: its call decides (``x.mean()``); ``x.shape`` fails
            continue
        if parent.kind == "keyword":
            node = parent
            continue
        if parent.kind == "Call":
            name = parent.callee()
            method = parent.parts[0] is node
            if method and node.kind != "Attribute":
                return USED, reduced  # called itself: no tensor method
            if name in REPORTS or (name in HOST_READ_METHODS if method else name in CONVERSIONS):
                return READ, reduced
            if _reduces(parent):
                reduced = True
                node = parent
                continue
            if name in ELEMENTWISE:
                node = parent
                continue
        return USED, reduced
    return (HELD if node.kind != "Attribute" else USED), reduced


def _selections(e: Expr, line: int) -> list[Expr]:
    """The masked selections an expression holds on ``line``: a subscript whose index is
    computed (``x[mask]``, ``g[0][valid]``; not ``x[0]`` nor ``x[:, 1:]``) and a
    ``masked_select`` call."""
    found = []
    for n in e.walk():
        if n.line != line:
            continue
        if n.kind == "Subscript" and len(n.parts) == 2:
            index = n.parts[1]
            if index.kind not in ("Constant", "Slice", "Tuple", "UnaryOp"):
                found.append(n)
        elif n.kind == "Call" and n.callee() == "masked_select":
            found.append(n)
    return found


def _roots(d: DefValues, calls: Sequence[CallValues]) -> list[tuple[Expr, str]]:
    """The function's outermost expressions with the name each assigns ("" for none): its
    assignments, returns and the calls not inside one of them."""
    roots: list[tuple[Expr, str]] = [
        (a.value, a.target.name if a.target.kind == "Name" else "") for a in d.assigns
    ]
    roots += [(r, "") for r in d.returns]
    spans = [_span(e) for e, _ in roots] + [_span(c.expr) for c in calls]
    roots += [(c.expr, "") for c in calls if not any(_inside(_span(c.expr), s) for s in spans)]
    return roots


#: What a function's masked selections are (:func:`masked_selections`): only reduced (a
#: loss over the valid elements), or only read on the host (metrics logged from the loss).
REDUCTION, METRICS = "reduction", "metrics"
#: A function whose only dynamic-shape findings are branches on tensor values that only
#: report (``if torch.min(y) < -1.: print(...)``): debugging checks, deleted from the
#: compiled network or kept outside it, no shape rewrite.
DEBUG_CHECKS = "reports"


def _selection_ends(d: DefValues, calls: Sequence[CallValues], lines: Iterable[int]) -> str:
    """What the selections on ``lines`` are, followed through element-wise operations,
    reductions and the names assigned from them (after their assignment): :data:`METRICS`
    when each ends in a host read, :data:`REDUCTION` when each is reduced or read, "" when
    one flows on unreduced (a dynamic shape)."""
    roots = _roots(d, calls)
    device = False  # some selection's reduced value stays on the device
    # (line assigned, name, reduced) of what holds a selection not yet read
    todo: list[tuple[int, str, bool]] = []

    def end(above: list[Expr], node: Expr, name: str, line: int, reduced: bool) -> bool:
        nonlocal device
        where, reduced = _consumed(above, node, reduced)
        if where == HELD and name:
            todo.append((line, name, reduced))
        elif where != READ:
            if not reduced:
                return False
            device = True
        return True

    for line in lines:
        hits = [(root, name, s) for root, name in roots for s in _selections(root, line)]
        if not hits:
            return ""
        for root, name, s in hits:
            for above in _paths(root, [s]):
                if not end(above, s, name, root.line, False):
                    return ""
    seen: set[tuple[int, str, bool]] = set()
    while todo:
        held = todo.pop()
        if held in seen:
            continue
        seen.add(held)
        since, name, reduced = held
        for root, target in roots:
            if root.line <= since:
                continue
            uses = [n for n in root.walk() if n.kind == "Name" and n.name == name]
            for above, node in zip(_paths(root, uses), uses, strict=True):
                if not end(above, node, target, root.line, reduced):
                    return ""
    return REDUCTION if device else METRICS


def _reports_only(calls: Sequence[CallValues], line: int) -> bool:
    """Whether the ``if`` tested on ``line`` only reports in its body (every call there a
    report, or inside one): a debugging check, not a branch of the graph."""
    body = [c for c in calls if any(b.line == line for b in c.ifs) and c.expr.line > line]
    reports = [_span(c.expr) for c in body if c.expr.callee() in REPORTS]
    return bool(body) and all(
        c.expr.callee() in REPORTS or any(_inside(_span(c.expr), r) for r in reports) for c in body
    )


def masked_selections(
    analyses: Sequence[FileAnalysis], findings: Iterable[ShapeFinding]
) -> dict[tuple[str, str], str]:
    """(path, function) of each function whose dynamic-shape findings are masked selections
    that are only reduced or read on the host (and branches that only report), with what
    they are: :data:`REDUCTION`, a masked reduction to rewrite, not a dynamic-shape function;
    :data:`DEBUG_CHECKS`, branches on tensor values that only print or log (no masked selection);
    :data:`METRICS`, a metrics computation whose values only leave for the host (RAFT's
    ``sequence_loss``: ``epe[valid]`` read as ``epe.mean().item()`` and ``(epe < 1)...``):
    computed outside the compiled step or with masked reductions, with the step's host reads
    (:func:`~apiscan.review.work.step_syncs`)."""
    by_function: dict[tuple[str, str], list[ShapeFinding]] = {}
    for f in findings:
        if f.function:
            by_function.setdefault((f.path, f.function), []).append(f)
    if not by_function:
        return {}
    wanted = {path for path, _ in by_function}
    found: dict[tuple[str, str], str] = {}
    for fa, facts in with_facts(analyses):
        if fa.path not in wanted or facts.values is None:
            continue
        values = facts.values
        for i, d in enumerate(values.defs):
            shapes = by_function.get((fa.path, d.qual))
            if not shapes or d.is_class:
                continue
            masks = {f.span.line for f in shapes if f.rule in MASK_RULES}
            rest = [f for f in shapes if f.rule not in MASK_RULES]
            if any(f.rule != BRANCH_RULE for f in rest):
                continue
            calls = [c for c in values.calls if c.function == i]
            if not masks:
                if rest and all(_reports_only(calls, f.span.line) for f in rest):
                    found[(fa.path, d.qual)] = DEBUG_CHECKS
                continue
            if not all(_reports_only(calls, f.span.line) for f in rest):
                continue
            kind = _selection_ends(d, calls, sorted(masks))
            if kind:
                found[(fa.path, d.qual)] = kind
    return found
