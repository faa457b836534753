"""The review as one Markdown page, to paste into an issue or a wiki before a migration starts.

The decision comes first (the effort counts and how they were counted), then the evidence in
the order of the seed guides' checklist: training recipe, network structure, API gaps, dynamic
shapes, sparse tensors, native extensions, third-party packages. Every place links to
``path#Lline`` like the scan's Markdown report, so the page works committed at the repository's
root. The text is a pure function of the :class:`Review`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from apiscan.model import SCOPES, STATUS_ORDER
from apiscan.report.markdown import _code, _link, _table, cell
from apiscan.review.gaps import GAP_PLACES, OPTIONAL_KERNEL
from apiscan.review.model import (
    INFERENCE_ONLY,
    RECIPE_CATEGORIES,
    ModuleNode,
    RecipeItem,
    Review,
    TopModel,
    Where,
    recipe_label,
    shape_work_note,
    work_label,
)
from apiscan.review.structure import ROLES, tree_children, tree_roots

#: The recipe checklist of the seed guides, in reading order, with its headings.
#: Names listed in a cell before the rest are only counted.
LISTED = 12
_LAYER_PREFIX = "torch.nn."


def render_markdown(review: Review) -> str:
    sections = [
        _header(review),
        _effort(review),
        _recipe(review.recipe, review.inference_only),
        _structure(review.modules, review.top_models, review.ancillary, review.alternatives),
        _coverage(review),
        _gaps(review),
        _work(review),
        _dynamic_shape(review),
        _sparse(review.sparse),
        _extensions(review),
        _third_party(review),
    ]
    if review.errors:
        sections.append(_errors(review))
    return "\n\n".join(sections) + "\n"


def _where(where: Where) -> str:
    return _link(where.path, where.line, in_cell=where.cell)


def _listing(names: Sequence[str], limit: int = LISTED) -> str:
    shown = ", ".join(_code(n) for n in names[:limit])
    more = len(names) - limit
    return shown + (f" … and {more} more" if more > 0 else "")


def _header(review: Review) -> str:
    return "\n".join(
        [
            "# Feasibility review: PyTorch → MindSpore",
            "",
            f"- **Tool:** apiscan {review.tool_version}",
            f"- **Root:** {_code(review.root)}",
        ]
    )


def _effort(review: Review) -> str:
    effort = review.effort
    counts = _table(
        ["", "count"],
        "lr",
        [
            ["call sites to change in the network graph", f"{effort.call_sites_to_change:,}"],
            ["APIs and compiled ops that may need a custom op", f"{effort.custom_ops:,}"],
            ["dynamic-shape rewrites (functions)", f"{effort.dynamic_shape_rewrites:,}"],
            [
                "input pipelines with multi-scale or data-dependent shapes",
                f"{effort.input_shape_rewrites:,}",
            ],
            ["person-days", f"{effort.person_days[0]:g}–{effort.person_days[1]:g}"],
            [
                "MindTorch route: network call sites covered",
                f"{effort.mindtorch_covered:,} of {effort.mindtorch_total:,}",
            ],
        ],
    )
    work = _table(
        ["disposition", "network call sites", "all call sites", "APIs"],
        "lrrr",
        ([d, f"{net:,}", f"{n:,}", f"{k:,}"] for d, net, n, k in effort.by_disposition),
    )
    how = "\n".join(f"- {sentence}" for sentence in effort.explanation)
    return (
        f"## Effort\n\n{counts}\n\nThe work by disposition (network graph first):\n\n{work}"
        f"\n\nHow these numbers were counted:\n\n{how}"
    )


def _category_order(category: str) -> tuple[int, str]:
    order = list(RECIPE_CATEGORIES)
    return (order.index(category), "") if category in order else (len(order), category)


def _recipe(recipe: Sequence[RecipeItem], inference_only: bool = False) -> str:
    lead = f"{INFERENCE_ONLY}\n\n" if inference_only else ""
    if not recipe:
        return f"## Training recipe\n\n{lead}No training recipe facts were found in the code."
    items = sorted(
        recipe, key=lambda i: (_category_order(i.category), i.where.path, i.where.line, i.name)
    )
    rows = [
        [
            cell(recipe_label(item.category, inference_only)),
            _code(item.name),
            "<br>".join(f"{_code(k)} = {_code(v)}" for k, v in item.values),
            _where(item.where),
            cell(item.note),
        ]
        for item in items
    ]
    table = _table(["", "what", "values", "where", "note"], "lllll", rows)
    return f"## Training recipe\n\n{lead}{table}"


def _short(cls: str) -> str:
    return cls.rpartition(".")[2]


def _layers(node: ModuleNode) -> str:
    return ", ".join(f"{name.removeprefix(_LAYER_PREFIX)} ×{count}" for name, count in node.layers)


def _top_models(top: Sequence[TopModel]) -> str:
    if not top:
        return ""
    lines = ["The models the code builds (through builders and the parts injected into them):", ""]
    for model in top:
        built = f" by `{model.builder}`" if model.builder else ""
        lines.append(f"- **{cell(_short(model.cls))}**{built} {_where(model.where)}")
        lines.extend(f"  - {_code(param)} ← {_code(part)}" for param, part in model.parts)
    return "\n".join(lines) + "\n\n"


def _structure(
    modules: Sequence[ModuleNode],
    top: Sequence[TopModel] = (),
    apart: Sequence[tuple[str, str]] = (),
    alternatives: Sequence[str] = (),
) -> str:
    if not modules:
        return "## Network structure\n\nNo `nn.Module` subclasses were found."
    by_cls = {m.cls: m for m in modules}
    roots, apart_roots = tree_roots(modules, top, apart, alternatives)
    unreached = {m.cls for m in apart_roots}
    # the roots in files counted apart come last, under their own heading
    roots = sorted(roots, key=lambda m: (ROLES.index(m.role), m.where.path, m.where.line))
    # the models the run's config leaves out after the run's own, under their own heading
    other_classes = frozenset(alternatives)
    other = {m.cls for m in roots if m.cls in other_classes}
    roots = [m for m in roots if m.cls not in other] + [m for m in roots if m.cls in other]
    roots += sorted(apart_roots, key=lambda m: (ROLES.index(m.role), m.where.path, m.where.line))
    lines: list[str] = []
    shown: set[str] = set()

    why = dict(apart)

    def visit(node: ModuleNode, depth: int, path: frozenset[str]) -> None:
        text = f"{'  ' * depth}- **{cell(_short(node.cls))}** ({node.role}) {_where(node.where)}"
        if depth == 0 and node.cls in unreached:  # why its file is counted apart
            text += f" ({cell(why.get(node.where.path, ''))})"
        if node.cls in shown:
            lines.append(text + " — see above")
            return
        shown.add(node.cls)
        if node.layers:
            text += f" — builds {cell(_layers(node))}"
        lines.append(text)
        for child in tree_children(node, other_classes):
            if child in by_cls and child not in path:
                visit(by_cls[child], depth + 1, path | {child})

    heading = ["", "In files counted apart (not ported with the model):", ""]
    instead = ["", "Alternatives the run's config does not pick (another config builds them):", ""]
    for root in roots:
        if root.cls in other and instead:
            lines += instead if lines else instead[1:]
            instead = []
        if root.cls in unreached and heading:
            lines += heading if lines else heading[1:]
            heading = []
        visit(root, 0, frozenset({root.cls}))
    for node in modules:  # modules only reachable through a cycle of constructors
        if node.cls not in shown:
            visit(node, 0, frozenset({node.cls}))
    rows = [
        [
            _code(m.cls),
            m.role,
            _where(m.where),
            _listing([_short(c) for c in m.children]),
            cell(_layers(m)),
        ]
        for m in sorted(modules, key=lambda m: (ROLES.index(m.role), m.where.path, m.where.line))
    ]
    table = _table(["class", "role", "where", "builds (repo)", "builds (torch.nn)"], "lllll", rows)
    return "## Network structure\n\n" + _top_models(top) + "\n".join(lines) + "\n\n" + table


def _coverage(review: Review) -> str:
    rows = []
    for scope in SCOPES:
        counts = review.coverage.get(scope, {})
        values = [counts.get(status, 0) for status in STATUS_ORDER]
        rows.append([scope, *(f"{v:,}" for v in values), f"{sum(values):,}"])
    table = _table(["scope", *STATUS_ORDER, "total"], "l" + "r" * (len(STATUS_ORDER) + 1), rows)
    return f"## API coverage by scope\n\nCall sites, by where the code runs.\n\n{table}"


def _gaps(review: Review) -> str:
    title = "## Missing, candidate and different APIs in the network graph, by disposition"
    if not review.gaps:
        return f"{title}\n\nNone: every API used in the network graph maps consistently."
    rows = [
        [
            _code(gap.api),
            gap.disposition,
            gap.status,
            f"{gap.uses:,}",
            _code(gap.mindspore_api or ""),
            cell(gap.note),
            cell(gap.suggestion),
            "<br>".join(_where(w) for w in gap.where),
        ]
        for gap in review.gaps
    ]
    table = _table(
        ["API", "disposition", "status", "uses", "MindSpore", "note", "what to do", "first places"],
        "lllrllll",
        rows,
    )
    return f"{title}\n\n{table}"


def _work(review: Review) -> str:
    title = "## Porting work beyond the API tables"
    parts = [title]
    if review.work:
        rows = [
            [
                work_label(item),
                _code(item.what),
                f"{item.uses:,}",
                cell(item.why),
                "<br>".join(_where(w) for w in item.where[:GAP_PLACES]),
            ]
            for item in review.work
        ]
        parts.append(_table(["", "what", "uses", "why it matters", "where"], "llrll", rows))
    else:
        parts.append(
            "None: no host round trip in the network or loss path, no model-zoo backbone, "
            "no checkpoint loading, no unsupported parameter passed."
        )
    if review.ancillary:
        listed = ", ".join(f"{_code(p)} ({cell(w)})" for p, w in review.ancillary[:LISTED])
        more = len(review.ancillary) - LISTED
        parts.append(
            "Counted apart from the effort (not ported with the model): "
            + listed
            + (f" … and {more} more" if more > 0 else "")
            + "."
        )
    return "\n\n".join(parts)


def _dynamic_shape(review: Review) -> str:
    title = "## Dynamic shape"
    if not review.dynamic_shape:
        note = shape_work_note(review)
        return f"{title}\n\nNo dynamic-shape findings." + (f" {note}" if note else "")
    # Findings at one line that differ only in their column read as one row, with a count.
    counted = Counter(review.dynamic_shape)
    rows = []
    for entry in dict.fromkeys(review.dynamic_shape):
        where, rule, scope, message = entry
        times = f" ×{counted[entry]}" if counted[entry] > 1 else ""
        rows.append([_where(where), rule + times, scope, cell(message)])
    table = _table(["where", "rule", "scope", "message"], "llll", rows)
    return f"{title}\n\n{table}"


def _sparse(sparse: Sequence[Where]) -> str:
    title = "## Sparse tensors"
    if not sparse:
        return f"{title}\n\nNo sparse tensor use found."
    return f"{title}\n\n" + "\n".join(f"- {_where(w)}" for w in sparse)


def _extensions(review: Review) -> str:
    title = "## Custom extensions"
    optional = [p for p, w in review.ancillary if w.startswith(OPTIONAL_KERNEL)]
    aside = (
        "\n\nCounted apart, optional kernels the code runs without (imported with a "
        "fallback; the port keeps the PyTorch path): " + ", ".join(map(_code, optional)) + "."
        if optional
        else ""
    )
    if not review.extensions:
        if optional:
            return f"{title}\n\nNone to port.{aside}"
        return (
            f"{title}\n\nNone: no CUDA/C++ sources, no `torch.utils.cpp_extension` use, "
            "no `torch.autograd.Function` subclass."
        )
    rows = [[cell(what), _where(where)] for what, where in review.extensions]
    return f"{title}\n\n" + _table(["what", "where"], "ll", rows) + aside


def _third_party(review: Review) -> str:
    title = "## Third-party packages"
    if not review.third_party:
        return f"{title}\n\nNone besides torch and the standard library."
    rows = [[_code(tp.package), f"{tp.files:,}", _listing(tp.uses)] for tp in review.third_party]
    return f"{title}\n\n" + _table(["package", "files", "what is used"], "lrl", rows)


def _errors(review: Review) -> str:
    rows = [[_link(path), cell(message)] for path, message in review.errors]
    return "## Files that could not be analysed\n\n" + _table(["file", "error"], "ll", rows)
