"""The feasibility review as one self-contained HTML page, for people deciding on a migration.

The page must open from a mail attachment or a CI artefact with no network, so everything is
inline: the CSS, the charts (SVG drawn here, since a plotting library would be a heavy
dependency for three bar charts) and a few lines of script that only expand or collapse the
sections. It never references a URL with a scheme. Links to findings are ``<root>/<path>#L<line>``
so that they resolve when the page sits next to the scanned checkout, the way the Markdown
report's links do.

Charts come first because they answer "how much, and where" faster than tables; every number
in a chart is also in a table below it, which is where the exact values and links live. The
output depends only on the :class:`Review` (no clock, no dict-order accidents), so it can be
compared byte for byte with a golden file.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from apiscan.model import DISPOSITIONS, SCOPES, STATUS_ORDER
from apiscan.review.gaps import OPTIONAL_KERNEL
from apiscan.review.model import (
    INFERENCE_ONLY,
    RARE_CATEGORIES,
    RECIPE_CATEGORIES,
    Gap,
    ModuleNode,
    RecipeItem,
    Review,
    Where,
    recipe_label,
    shape_work_note,
    work_label,
)
from apiscan.review.structure import tree_children, tree_roots

#: Fill colours of the statuses; the screenshot test looks for these exact pixels.
STATUS_COLOURS: dict[str, str] = {
    "missing": "#d64545",
    "candidate": "#c77dba",
    "different": "#e8a33d",
    "verified": "#7cc4a0",
    "consistent": "#3f9c6d",
    "unknown": "#9aa3ad",
}
#: Fill colours of the scopes in the dynamic-shape chart: network findings are the ones that
#: need a rewrite before graph compilation, so they get the strongest colour.
SCOPE_COLOURS: dict[str, str] = {"network": "#4c5fd5", "data": "#2a9d8f", "host": "#b4bdf0"}
#: Segments whose label reads better in dark text than in white.
_LIGHT_FILLS = frozenset({"#e8a33d", "#9aa3ad", "#b4bdf0"})

#: How many bars the "missing APIs" and "hotspots" charts show at most.
TOP_BARS = 15
#: Locations shown next to a gap before the rest fold into a "+N more" disclosure.
LOCATIONS_SHOWN = 4

#: The checklist of the seed guides, in the order a reviewer reads a training recipe.
ROLE_ORDER: tuple[str, ...] = ("model", "backbone", "neck", "head", "loss", "block", "other")

#: Width of one character of the 12px monospace font the chart labels use (0.6 em).
_CHAR_WIDTH = 7.2


def render_html(review: Review) -> str:
    """The whole page: header, key figures, charts, then one collapsible section per topic."""
    parts = [
        _head(review),
        "<body>",
        _header(review),
        "<main>",
        _cards(review),
        _glance(review),
        _recipe(review),
        _structure(review),
        _gaps(review),
        _work(review),
        _dynamic_shape(review),
        _extensions(review),
        _third_party(review),
        _effort(review),
        _errors(review),
        "</main>",
        _footer(review),
        f"<script>{_SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _e(text: object) -> str:
    """Text made safe for element content and quoted attributes (HTML and SVG alike)."""
    return html.escape(str(text), quote=True)


def _href(root: str, path: str, line: int | None = None) -> str:
    """``<root>/<path>#L<line>``, percent-encoded so a ``#`` or a space in a path stays a path."""
    base = root.rstrip("/")
    target = f"{base}/{path}" if base else path
    anchor = "" if line is None else f"#L{line}"
    return _e(quote(target, safe="/") + anchor)


def _link(root: str, where: Where) -> str:
    """A place as a link to its line; in a notebook the label names the cell
    (``nb.ipynb:cell 3:12``) and the link the file, whose lines are not the cell's."""
    href = _href(root, where.path, None if where.cell else where.line)
    return f'<a class="loc" href="{href}">{_e(where)}</a>'


def _code(text: str) -> str:
    """A dotted name as code that may wrap after a dot, never inside ``Tensor`` or ``device``."""
    if not text:
        return '<span class="none">—</span>'
    return "<code>" + ".<wbr>".join(_e(part) for part in text.split(".")) + "</code>"


def _num(value: float) -> str:
    """SVG coordinates with one decimal at most, so the output is the same on every platform."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _section(ident: str, title: str, count: str, body: str) -> str:
    """A collapsible section, open by default: collapsing is for the reader, not the author."""
    return (
        f'<details class="section" id="{ident}" open>\n'
        f'<summary><h2>{_e(title)}</h2><span class="count">{_e(count)}</span></summary>\n'
        f'<div class="body">\n{body}\n</div>\n</details>'
    )


def _table(headers: Sequence[str], rows: Iterable[str], numeric: Sequence[int] = ()) -> str:
    """A table from pre-rendered ``<tr>`` rows; ``numeric`` columns are right-aligned."""
    cells = "".join(
        f'<th class="num">{_e(h)}</th>' if i in numeric else f"<th>{_e(h)}</th>"
        for i, h in enumerate(headers)
    )
    body = "\n".join(rows)
    return f"<table>\n<thead><tr>{cells}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _empty(text: str) -> str:
    return f'<p class="empty">{_e(text)}</p>'


def _scopes(review: Review) -> list[str]:
    """The scopes of the coverage, in the scanner's order, then any others alphabetically."""
    known = [s for s in SCOPES if s in review.coverage]
    return known + sorted(s for s in review.coverage if s not in SCOPES)


def _statuses(review: Review) -> list[str]:
    """The statuses that occur, worst first; a status nobody has would only be a zero column."""
    seen = {s for counts in review.coverage.values() for s, n in counts.items() if n}
    seen.update(gap.status for gap in review.gaps)
    return [s for s in STATUS_ORDER if s in seen] + sorted(seen.difference(STATUS_ORDER))


def _status_colour(status: str) -> str:
    return STATUS_COLOURS.get(status, STATUS_COLOURS["unknown"])


def _sorted_gaps(review: Review) -> list[Gap]:
    """By disposition (delete, idiom, rewrite, custom op, gap), then worst status, then the
    most used: the order a migration plan tackles them in."""
    rank = {status: i for i, status in enumerate(STATUS_ORDER)}
    work = {d: i for i, d in enumerate(DISPOSITIONS)}
    return sorted(
        review.gaps,
        key=lambda g: (work.get(g.disposition, 9), rank.get(g.status, len(rank)), -g.uses, g.api),
    )


def _hotspots(review: Review) -> list[tuple[str, Counter[str]]]:
    """Files with dynamic-shape findings, most findings first, each with its count per scope."""
    per_file: dict[str, Counter[str]] = {}
    for where, _rule, scope, _message in review.dynamic_shape:
        per_file.setdefault(where.path, Counter())[scope] += 1
    return sorted(per_file.items(), key=lambda item: (-item[1].total(), item[0]))


# --------------------------------------------------------------------------- page frame


def _head(review: Review) -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Migration feasibility review: {_e(review.root)}</title>\n"
        f"<style>{_CSS}</style>\n</head>"
    )


_NAV: tuple[tuple[str, str], ...] = (
    ("recipe", "Recipe"),
    ("structure", "Structure"),
    ("gaps", "API gaps"),
    ("work", "Porting work"),
    ("dynamic-shape", "Dynamic shape"),
    ("extensions", "Extensions"),
    ("third-party", "Third-party"),
    ("effort", "Effort"),
    ("errors", "Not analysed"),
)


def _header(review: Review) -> str:
    links = "".join(f'<a href="#{ident}">{_e(label)}</a>' for ident, label in _NAV)
    return (
        '<header>\n<div class="wrap">\n'
        "<h1>Migration feasibility review <span>PyTorch → MindSpore</span></h1>\n"
        f'<p class="meta">Repository <code>{_e(review.root)}</code> · '
        f"apiscan {_e(review.tool_version)} · static analysis, nothing was run</p>\n"
        f'<nav>{links}<span class="spacer"></span>'
        '<button type="button" data-open="1">Expand all</button>'
        '<button type="button" data-open="0">Collapse all</button></nav>\n'
        "</div>\n</header>"
    )


def _footer(review: Review) -> str:
    return (
        f"<footer>Generated by apiscan {_e(review.tool_version)}. Links point at "
        f"<code>{_e(review.root)}/&lt;file&gt;#L&lt;line&gt;</code>: keep this page next to "
        "the checkout (or open it from a code browser that anchors lines) to follow them."
        "</footer>"
    )


def _cards(review: Review) -> str:
    network = review.coverage.get("network", {})
    network_total = sum(network.values())
    missing_apis = sum(1 for gap in review.gaps if gap.status == "missing")
    effort = review.effort
    cards = [
        (
            "Call sites in the network graph",
            str(network_total),
            f"of {sum(sum(c.values()) for c in review.coverage.values())} in all scopes",
        ),
        (
            "Missing in the network graph",
            str(network.get("missing", 0)),
            _plural(missing_apis, "distinct API"),
        ),
        ("Call sites to change", str(effort.call_sites_to_change), "see Effort"),
        ("Custom operators", str(effort.custom_ops), "no MindSpore counterpart"),
        (
            "Dynamic-shape rewrites",
            str(effort.dynamic_shape_rewrites),
            _plural(len(review.dynamic_shape), "finding"),
        ),
        (
            "Third-party packages",
            str(len(review.third_party)),
            ", ".join(sorted(p.package for p in review.third_party)) or "none imported",
        ),
    ]
    items = "\n".join(
        f'<div class="card"><div class="label">{_e(label)}</div>'
        f'<div class="value">{_e(value)}</div><div class="sub">{_e(sub)}</div></div>'
        for label, value, sub in cards
    )
    return f'<section class="cards">\n{items}\n</section>'


# --------------------------------------------------------------------------- charts


@dataclass(frozen=True, slots=True)
class _Bar:
    """One row of a horizontal bar chart: a label, coloured segments, and the text after it."""

    label: str
    segments: tuple[tuple[str, int, str], ...]  # (name, value, fill)
    total: str


def _bar_chart(
    bars: Sequence[_Bar],
    *,
    title: str,
    width: int,
    label_chars: int,
    gutter: int,
    legend: Sequence[tuple[str, str]] = (),
    normalise: bool = False,
    segment_labels: bool = False,
) -> str:
    """Horizontal (stacked) bars as an SVG string.

    Bars share one scale (the largest total) unless ``normalise`` makes each one 100 %, which
    is how shares are compared across groups of different sizes. Labels longer than
    ``label_chars`` keep their end, the informative part of a dotted name or a path.
    """
    longest = max((len(bar.label) for bar in bars), default=1)
    chars = min(label_chars, longest)
    label_w = round(chars * _CHAR_WIDTH) + 14
    bar_area = width - label_w - gutter
    top = 28 if legend else 6
    row_h, bar_h = 26, 16
    height = top + row_h * len(bars) + 4
    scale_max = max((sum(v for _, v, _ in bar.segments) for bar in bars), default=0)
    out = [
        f'<svg class="chart" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}">',
        f"<title>{_e(title)}</title>",
    ]
    x = 0.0
    for name, fill in legend:
        out.append(
            f'<rect x="{_num(x)}" y="6" width="12" height="12" rx="2" fill="{fill}"/>'
            f'<text x="{_num(x + 17)}" y="16" class="legend">{_e(name)}</text>'
        )
        x += 17 + len(name) * 6.6 + 18
    for index, bar in enumerate(bars):
        y = top + index * row_h
        label = bar.label if len(bar.label) <= chars else "…" + bar.label[-(chars - 1) :]
        out.append(
            f'<text x="{label_w - 10}" y="{y + 13}" class="label" text-anchor="end">'
            f"{_e(label)}<title>{_e(bar.label)}</title></text>"
        )
        total = sum(v for _, v, _ in bar.segments)
        denominator = total if normalise else scale_max
        cursor = float(label_w)
        if not total:
            out.append(
                f'<rect x="{label_w}" y="{y + 1}" width="{bar_area}" height="{bar_h}" '
                'class="blank"/>'
            )
        for name, value, fill in bar.segments:
            if not value:
                continue
            w = bar_area * value / denominator
            out.append(
                f'<rect x="{_num(cursor)}" y="{y + 1}" width="{_num(w)}" height="{bar_h}" '
                f'fill="{fill}"><title>{_e(f"{bar.label}: {value} {name}")}</title></rect>'
            )
            text = str(value)
            if segment_labels and w >= len(text) * 7 + 8:
                ink = "dark" if fill in _LIGHT_FILLS else "light"
                out.append(
                    f'<text x="{_num(cursor + w / 2)}" y="{y + 13}" class="seg {ink}" '
                    f'text-anchor="middle">{text}</text>'
                )
            cursor += w
        end = label_w + bar_area + 8 if normalise or not total else cursor + 6
        out.append(f'<text x="{_num(end)}" y="{y + 13}" class="total">{_e(bar.total)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _coverage_chart(review: Review) -> str:
    statuses = _statuses(review)
    bars = [
        _Bar(
            scope,
            tuple((s, review.coverage[scope].get(s, 0), _status_colour(s)) for s in statuses),
            _plural(sum(review.coverage[scope].values()), "call site"),
        )
        for scope in _scopes(review)
    ]
    if not bars:
        return _empty("No PyTorch API call sites were found.")
    legend = [(s, _status_colour(s)) for s in statuses]
    return _bar_chart(
        bars,
        title="API call sites by scope and status",
        width=1100,
        label_chars=10,
        gutter=120,
        legend=legend,
        normalise=True,
        segment_labels=True,
    )


def _missing_chart(review: Review) -> str:
    missing = [gap for gap in _sorted_gaps(review) if gap.status == "missing"][:TOP_BARS]
    if not missing:
        return _empty("No missing API in the network graph.")
    fill = STATUS_COLOURS["missing"]
    bars = [_Bar(gap.api, (("uses", gap.uses, fill),), str(gap.uses)) for gap in missing]
    return _bar_chart(
        bars,
        title="Missing APIs in the network graph, by call sites",
        width=540,
        label_chars=34,
        gutter=44,
    )


def _hotspot_chart(review: Review) -> str:
    hotspots = _hotspots(review)[:TOP_BARS]
    if not hotspots:
        return _empty("No dynamic-shape finding.")
    scopes = [s for s in SCOPES if any(counts[s] for _, counts in hotspots)]
    scopes += sorted({s for _, c in hotspots for s in c}.difference(SCOPES))
    bars = [
        _Bar(
            path,
            tuple((s, counts[s], SCOPE_COLOURS.get(s, "#9aa3ad")) for s in scopes),
            str(counts.total()),
        )
        for path, counts in hotspots
    ]
    legend = [(s, SCOPE_COLOURS.get(s, "#9aa3ad")) for s in scopes]
    return _bar_chart(
        bars,
        title="Dynamic-shape findings by file and scope",
        width=540,
        label_chars=34,
        gutter=44,
        legend=legend,
    )


def _glance(review: Review) -> str:
    missing_total = sum(1 for gap in review.gaps if gap.status == "missing")
    shown = min(missing_total, TOP_BARS)
    files = len(_hotspots(review))
    hotspot_scope = (
        f"top {TOP_BARS} of {files} files" if files > TOP_BARS else _plural(files, "file")
    )
    return (
        '<section class="glance">\n'
        '<figure class="wide"><figcaption>API coverage by scope and status '
        "<span>share of call sites; network = reachable from a forward or a loss</span>"
        f"</figcaption>\n{_coverage_chart(review)}\n</figure>\n"
        "<figure><figcaption>Missing APIs in the network graph "
        f"<span>top {shown} of {missing_total}, by call sites</span></figcaption>\n"
        f"{_missing_chart(review)}\n</figure>\n"
        "<figure><figcaption>Dynamic-shape hotspots "
        f"<span>{hotspot_scope}, findings by scope</span></figcaption>\n"
        f"{_hotspot_chart(review)}\n</figure>\n"
        "</section>"
    )


# --------------------------------------------------------------------------- sections


def _recipe(review: Review) -> str:
    rank = {category: i for i, category in enumerate(RECIPE_CATEGORIES)}
    items = sorted(
        review.recipe, key=lambda item: (rank.get(item.category, len(rank)), item.category)
    )
    groups: dict[str, list[RecipeItem]] = {}
    for item in items:
        groups.setdefault(item.category, []).append(item)
    rows = []
    for category, members in groups.items():
        label = recipe_label(category, review.inference_only)
        for index, item in enumerate(members):
            head = (
                f'<th scope="rowgroup" rowspan="{len(members)}">{_e(label)}</th>'
                if index == 0
                else ""
            )
            rows.append(
                f"<tr>{head}"
                f"<td>{_code(item.name)}</td><td>{_values(item)}</td>"
                f"<td>{_link(review.root, item.where)}</td></tr>"
            )
    absent = [
        label
        for category, label in RECIPE_CATEGORIES.items()
        if category not in groups and category not in RARE_CATEGORIES
    ]
    body = [
        '<p class="lead">Read from the code as written; values that come from argparse '
        "defaults or config literals say where they are set.</p>"
    ]
    if review.inference_only:
        body.insert(0, f'<p class="lead"><strong>{_e(INFERENCE_ONLY)}</strong></p>')
    body.append(
        _table(["aspect", "what", "settings", "where"], rows)
        if rows
        else _empty("No training recipe element was found.")
    )
    if absent:
        body.append('<p class="absent">Not found in the code: ' + _e(", ".join(absent)) + ".</p>")
    return _section("recipe", "Training recipe", _plural(len(items), "item"), "\n".join(body))


def _values(item: RecipeItem) -> str:
    pairs = "".join(
        f"<li><code>{_e(key)}</code> = <code>{_e(value)}</code></li>" for key, value in item.values
    )
    settings = f'<ul class="kv">{pairs}</ul>' if pairs else ""
    note = f'<div class="note">{_e(item.note)}</div>' if item.note else ""
    return settings + note if settings or note else '<span class="none">—</span>'


def _structure(review: Review) -> str:
    modules = {module.cls: module for module in review.modules}
    ordered = sorted(review.modules, key=lambda m: (m.where.path, m.where.line, m.cls))
    roots, unreached = tree_roots(ordered, review.top_models, review.ancillary, review.alternatives)
    shown: set[str] = set()
    # the models the run's config leaves out after the run's own, under their own heading
    other = [m for m in roots if m.cls in set(review.alternatives)]
    roots = [m for m in roots if m not in other]
    alt = frozenset(review.alternatives)
    trees = [_tree_node(review.root, top, modules, shown, frozenset(), alt) for top in roots]
    instead = [_tree_node(review.root, m, modules, shown, frozenset(), alt) for m in other]
    # the roots in files counted apart after the model's, so their parts read "see above"
    apart = [_tree_node(review.root, m, modules, shown, frozenset(), alt) for m in unreached]
    # Classes that only build each other (a cycle) have no root: list them at the top level.
    trees.extend(
        _tree_node(review.root, m, modules, shown, frozenset(), alt)
        for m in ordered
        if m.cls not in shown
    )
    by_role: dict[str, list[str]] = {}
    for module in ordered:
        by_role.setdefault(module.role, []).append(_short(module.cls))
    roles = sorted(by_role, key=lambda r: (ROLE_ORDER.index(r) if r in ROLE_ORDER else 99, r))
    summary = " · ".join(
        f'<span class="role role-{_e(role)}">{_e(role)}</span> ' + _e(", ".join(by_role[role]))
        for role in roles
    )
    if not review.modules:
        body = _empty("No nn.Module subclass was found in the repository.")
    else:
        body = (
            f'<p class="roles">{summary}</p>\n'
            '<p class="lead">Which module builds which (from the call graph of the '
            "<code>__init__</code> methods), with the PyTorch layers each one creates.</p>\n"
            f'<ul class="tree">\n{"".join(trees)}</ul>'
        )
        if instead:
            body += (
                '\n<p class="lead">Alternatives the run\'s config does not pick (another config '
                "builds them):</p>"
                f'\n<ul class="tree">\n{"".join(instead)}</ul>'
            )
        if apart:
            body += (
                '\n<p class="lead">In files counted apart (not ported with the model):</p>'
                f'\n<ul class="tree">\n{"".join(apart)}</ul>'
            )
    return _section(
        "structure",
        "Network structure",
        _plural(len(review.modules), "nn.Module class", "nn.Module classes"),
        body,
    )


def _short(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def _tree_node(
    root: str,
    module: ModuleNode,
    modules: dict[str, ModuleNode],
    shown: set[str],
    ancestors: frozenset[str],
    alternatives: frozenset[str] = frozenset(),
) -> str:
    """One module and, the first time it appears, the modules it builds (cycles stop), less
    the ``alternatives`` the run does not build (:func:`tree_children`)."""
    layers = ", ".join(f"{_short(layer)} ×{count}" for layer, count in module.layers)
    layer_html = (
        f'<span class="layers" title="{_e(", ".join(f"{n} ×{c}" for n, c in module.layers))}">'
        f"{_e(layers)}</span>"
        if layers
        else ""
    )
    line = (
        f'<span class="cls" title="{_e(module.cls)}">{_e(_short(module.cls))}</span> '
        f'<span class="role role-{_e(module.role)}">{_e(module.role)}</span> '
        f"{layer_html} {_link(root, module.where)}"
    )
    repeated = module.cls in shown
    shown.add(module.cls)
    if repeated:
        return f'<li>{line} <span class="muted">(built elsewhere too, expanded above)</span></li>\n'
    inner = []
    for child in tree_children(module, alternatives):
        if child in ancestors or child == module.cls:
            inner.append(f'<li><span class="cls">{_e(_short(child))}</span> (cycle)</li>\n')
        elif child in modules:
            inner.append(
                _tree_node(
                    root, modules[child], modules, shown, ancestors | {module.cls}, alternatives
                )
            )
        else:
            inner.append(f'<li><span class="cls" title="{_e(child)}">{_e(child)}</span></li>\n')
    nested = f"<ul>\n{''.join(inner)}</ul>" if inner else ""
    return f"<li>{line}{nested}</li>\n"


def _locations(root: str, where: Sequence[Where]) -> str:
    """The first locations inline; the rest behind a disclosure, so every use stays linked."""
    ordered = sorted(where, key=lambda w: (w.path, w.cell, w.line))
    shown = " ".join(_link(root, w) for w in ordered[:LOCATIONS_SHOWN])
    rest = ordered[LOCATIONS_SHOWN:]
    if not rest:
        return shown
    more = " ".join(_link(root, w) for w in rest)
    return f'{shown} <details class="more"><summary>+{len(rest)} more</summary>{more}</details>'


def _badge(status: str) -> str:
    return f'<span class="badge st-{_e(status)}">{_e(status)}</span>'


def _coverage_table(review: Review) -> str:
    statuses = _statuses(review)
    headers = ["scope", *statuses, "total"]
    numeric = range(1, len(headers))
    rows = []
    columns: Counter[str] = Counter()
    for scope in _scopes(review):
        counts = review.coverage[scope]
        total = sum(counts.values())
        columns.update(counts)
        cells = "".join(
            f'<td class="num">{counts.get(s, 0)} <span class="pct">'
            f"{_percent(counts.get(s, 0), total)}</span></td>"
            for s in statuses
        )
        rows.append(f'<tr><th scope="row">{_e(scope)}</th>{cells}<td class="num">{total}</td></tr>')
    grand = columns.total()
    cells = "".join(
        f'<td class="num">{columns[s]} <span class="pct">{_percent(columns[s], grand)}</span></td>'
        for s in statuses
    )
    rows.append(f'<tr class="sum"><th scope="row">all</th>{cells}<td class="num">{grand}</td></tr>')
    return _table(headers, rows, numeric=tuple(numeric))


def _gaps(review: Review) -> str:
    gaps = _sorted_gaps(review)
    rows = [
        f'<tr id="gap-{index}"><td class="api">{_code(gap.api)}</td>'
        f"<td>{_e(gap.disposition)}</td><td>{_badge(gap.status)}</td>"
        f'<td class="num">{gap.uses}</td><td>{_code(gap.mindspore_api or "")}</td>'
        f'<td>{_advice(gap)}</td><td class="where">{_locations(review.root, gap.where)}</td></tr>'
        for index, gap in enumerate(gaps, 1)
    ]
    table = (
        _table(
            ["PyTorch API", "disposition", "status", "uses", "MindSpore", "what to do", "where"],
            rows,
            (3,),
        )
        if rows
        else _empty("Every API used in the network graph has a consistent MindSpore counterpart.")
    )
    body = (
        "<h3>Coverage by scope (call sites)</h3>\n"
        + (_coverage_table(review) if review.coverage else _empty("No call sites."))
        + "\n<h3>Missing, candidate and different APIs in the network graph</h3>\n"
        + '<p class="lead">Only the network graph is listed: code reachable from a '
        "<code>forward</code> or a loss is what MindSpore compiles, so it is where a gap "
        "blocks the migration. Host and data code can keep using Python and NumPy.</p>\n" + table
    )
    counts = Counter(gap.status for gap in gaps)
    count = ", ".join(f"{counts[s]} {s}" for s in _statuses(review) if counts[s]) or "none"
    return _section("gaps", "API gaps", count, body)


def _advice(gap: Gap) -> str:
    parts = []
    if gap.suggestion:
        parts.append(f'<div class="suggest">{_e(gap.suggestion)}</div>')
    if gap.note and gap.note != gap.suggestion:
        parts.append(f'<div class="note">{_e(gap.note)}</div>')
    return "".join(parts) or '<span class="none">—</span>'


def _dynamic_shape(review: Review) -> str:
    findings = sorted(
        review.dynamic_shape,
        key=lambda row: (row[0].path, row[0].cell, row[0].line, row[1], row[3]),
    )
    rows = [
        f"<tr><td>{_link(review.root, where)}</td><td><code>{_e(rule)}</code></td>"
        f'<td><span class="scope sc-{_e(scope)}">{_e(scope)}</span></td><td>{_e(message)}</td></tr>'
        for where, rule, scope, message in findings
    ]
    parts = [
        '<p class="lead">Shapes that depend on data force dynamic-shape compilation or a '
        "rewrite to a fixed size with a mask; the network scope is what needs the rewrite.</p>",
        _table(["where", "rule", "scope", "why"], rows)
        if rows
        else _empty(" ".join(["No dynamic-shape finding.", shape_work_note(review)]).strip()),
        "<h3>Sparse tensors</h3>",
    ]
    sparse = sorted(review.sparse, key=lambda w: (w.path, w.cell, w.line))
    parts.append(
        '<p class="links">' + " ".join(_link(review.root, w) for w in sparse) + "</p>"
        if sparse
        else _empty("No sparse tensor use found.")
    )
    count = f"{_plural(len(findings), 'finding')}, {len(sparse)} sparse"
    return _section("dynamic-shape", "Dynamic shape and sparse tensors", count, "\n".join(parts))


def _work(review: Review) -> str:
    rows = [
        f"<tr><td>{_e(work_label(item))}</td><td>{_code(item.what)}</td>"
        f"<td>{item.uses:,}</td><td>{_e(item.why)}</td>"
        f"<td>{_locations(review.root, item.where)}</td></tr>"
        for item in review.work
    ]
    body = (
        '<p class="lead">Work the API tables do not show: host round trips in the network or '
        "loss path, model-zoo backbones, checkpoints to convert, parameters MindSpore lacks "
        "that a call passes.</p>\n"
        + _table(["kind", "what", "uses", "why it matters", "where"], rows, numeric=(2,))
        if rows
        else _empty("No host round trip, model-zoo backbone, checkpoint or unsupported parameter.")
    )
    if review.ancillary:
        apart = ", ".join(f"<code>{_e(p)}</code> ({_e(w)})" for p, w in review.ancillary)
        body += f'\n<p class="absent">Counted apart from the effort: {apart}.</p>'
    return _section("work", "Porting work beyond the API tables", _plural(len(rows), "item"), body)


def _extensions(review: Review) -> str:
    extensions = sorted(review.extensions, key=lambda e: (e[1].path, e[1].line, e[0]))
    rows = [
        f"<tr><td>{_e(what)}</td><td>{_link(review.root, where)}</td></tr>"
        for what, where in extensions
    ]
    body = (
        '<p class="lead">Custom CUDA/C++ code and autograd Functions have no automatic '
        "counterpart: each one becomes a custom operator or a rewrite.</p>\n"
        + _table(["what", "where"], rows)
        if rows
        else _empty("No custom CUDA/C++ extension or autograd Function found.")
    )
    optional = [p for p, w in review.ancillary if w.startswith(OPTIONAL_KERNEL)]
    if optional:
        body += (
            "\n<p>Counted apart, optional kernels the code runs without (imported with a "
            "fallback; the port keeps the PyTorch path): "
            + ", ".join(_code(p) for p in optional)
            + ".</p>"
        )
    return _section("extensions", "Custom extensions", _plural(len(rows), "item"), body)


def _third_party(review: Review) -> str:
    packages = sorted(review.third_party, key=lambda p: p.package)
    rows = [
        f'<tr><td><code>{_e(p.package)}</code></td><td class="num">{p.files}</td>'
        f'<td class="uses">{" ".join(f"<code>{_e(u)}</code>" for u in p.uses) or "—"}</td></tr>'
        for p in packages
    ]
    body = (
        '<p class="lead">Packages built on PyTorch need a MindSpore counterpart or a '
        "port of what is used from them.</p>\n"
        + _table(["package", "files", "what the repository uses"], rows, (1,))
        if rows
        else _empty("No third-party PyTorch package is imported.")
    )
    return _section("third-party", "Third-party packages", _plural(len(rows), "package"), body)


def _effort(review: Review) -> str:
    effort = review.effort
    figures = [
        ("call sites to change", effort.call_sites_to_change),
        ("custom operators", effort.custom_ops),
        ("dynamic-shape rewrites", effort.dynamic_shape_rewrites),
        ("person-days", f"{effort.person_days[0]:g}–{effort.person_days[1]:g}"),
    ]
    numbers = "".join(
        f'<div class="figure"><span class="value">{value}</span> {_e(label)}</div>'
        for label, value in figures
    )
    reasons = "".join(f"<li>{_e(line)}</li>" for line in effort.explanation)
    explanation = f'<ul class="why">{reasons}</ul>' if reasons else ""
    work = "".join(
        f"<tr><td>{_e(d)}</td><td>{net}</td><td>{n}</td><td>{k}</td></tr>"
        for d, net, n, k in effort.by_disposition
    )
    table = (
        "<table><thead><tr><th>disposition</th><th>network call sites</th><th>all call "
        f"sites</th><th>APIs</th></tr></thead><tbody>{work}</tbody></table>"
    )
    body = f'<div class="figures">{numbers}</div>\n{table}\n{explanation}'
    count = " · ".join(f"{value} {label}" for label, value in figures)
    return _section("effort", "Effort", count, body)


def _errors(review: Review) -> str:
    errors = sorted(review.errors)
    rows = [
        f'<tr><td><a class="loc" href="{_href(review.root, path)}">{_e(path)}</a></td>'
        f"<td>{_e(message)}</td></tr>"
        for path, message in errors
    ]
    body = (
        '<p class="lead">Nothing in these files is counted above.</p>\n'
        + _table(["file", "problem"], rows)
        if rows
        else _empty("None: every file was analysed.")
    )
    return _section("errors", "Files that could not be analysed", _plural(len(rows), "file"), body)


_CSS = """
:root{--ink:#1f2933;--muted:#616e7c;--line:#e4e7eb;--bg:#f5f6f8;--card:#fff;--accent:#4c5fd5}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
code,.mono,.loc{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
code{background:#eef0f4;border-radius:3px;padding:0 3px;overflow-wrap:break-word}
header{background:#1f2a44;color:#fff}
header .wrap,main,footer{max-width:1180px;margin:0 auto;padding:0 20px}
header .wrap{padding-top:18px;padding-bottom:10px}
h1{margin:0;font-size:22px;font-weight:600}
h1 span{font-weight:400;color:#b8c2d9;margin-left:8px}
.meta{margin:4px 0 12px;color:#c9d1e3}
.meta code{background:#2e3b5c;color:#fff}
nav{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center}
nav a{color:#dfe5f5;text-decoration:none;font-size:13px}
nav a:hover{text-decoration:underline}
nav .spacer{flex:1}
nav button{background:#2e3b5c;color:#fff;border:1px solid #45557d;border-radius:4px;
padding:2px 10px;font:inherit;font-size:12px;cursor:pointer}
main{padding-top:18px;padding-bottom:12px}
.cards{display:grid;grid-template-columns:repeat(6,1fr);gap:12px;margin-bottom:16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .label{color:var(--muted);font-size:12px}
.card .value{font-size:26px;font-weight:600;line-height:1.3}
.card .sub{color:var(--muted);font-size:12px}
.glance{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-bottom:16px}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:10px 14px;min-width:0}
figure.wide{grid-column:1/-1}
figcaption{font-weight:600;margin-bottom:6px}
figcaption span{font-weight:400;color:var(--muted);margin-left:8px;font-size:12px}
svg.chart{display:block;max-width:100%;height:auto}
svg text{font-size:12px;fill:var(--ink)}
svg text.label{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
svg text.total,svg text.legend{fill:var(--muted)}
svg text.seg{font-size:11px;font-weight:600}
svg text.seg.light{fill:#fff}
svg .blank{fill:none;stroke:var(--line)}
details.section{background:var(--card);border:1px solid var(--line);border-radius:8px;
margin-bottom:12px}
details.section>summary{cursor:pointer;padding:10px 14px;display:flex;align-items:baseline;
gap:10px;list-style:none}
details.section>summary::-webkit-details-marker{display:none}
details.section>summary::before{content:"▸";color:var(--muted);width:10px}
details.section[open]>summary::before{content:"▾"}
details.section[open]>summary{border-bottom:1px solid var(--line)}
h2{font-size:17px;margin:0;font-weight:600}
h3{font-size:14px;margin:16px 0 6px}
.count{color:var(--muted);font-size:13px}
.body{padding:4px 14px 12px}
.lead{color:var(--muted);margin:8px 0}
.empty{color:var(--muted);font-style:italic;margin:8px 0}
.absent{color:var(--muted);margin:8px 0 0}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line)}
thead th{font-size:12px;color:var(--muted);font-weight:600;border-bottom:2px solid var(--line)}
tbody th{font-weight:600;white-space:nowrap}
.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.pct{color:var(--muted);font-size:12px;margin-left:4px}
tr.sum th,tr.sum td{border-top:2px solid var(--line)}
a.loc{color:var(--accent);text-decoration:none;white-space:nowrap}
a.loc:hover{text-decoration:underline}
ul.kv{list-style:none;margin:0;padding:0}
ul.kv li{margin:1px 0}
.note{color:var(--muted);font-size:12px}
.suggest{margin-bottom:2px}
.none,.muted{color:#9aa5b1}
.badge,.role,.scope{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;
white-space:nowrap}
.st-missing{background:#d64545;color:#fff}
.st-different{background:#e8a33d;color:#1f2933}
.st-consistent{background:#3f9c6d;color:#fff}
.st-unknown{background:#9aa3ad;color:#fff}
.sc-network{background:#e4e8fb;color:#2f3e9e}
.sc-data{background:#d8f0ed;color:#1d6f66}
.sc-host{background:#eef0f4;color:#616e7c}
.role{background:#eef0f4;color:#3e4c59}
.role-model{background:#1f2a44;color:#fff}
.role-backbone{background:#dbe4ff;color:#283593}
.role-neck{background:#e3f4ea;color:#1e6b43}
.role-head{background:#fde8d7;color:#8a4410}
.role-loss{background:#fbe0e0;color:#9b2c2c}
.roles{margin:8px 0}
ul.tree,ul.tree ul{list-style:none;margin:0;padding-left:18px}
ul.tree{padding-left:0;margin-top:6px}
ul.tree li{position:relative;padding:2px 0 2px 14px;border-left:1px solid var(--line)}
ul.tree li::before{content:"";position:absolute;left:0;top:13px;width:10px;
border-top:1px solid var(--line)}
ul.tree>li{border-left:none;padding-left:0}
ul.tree>li::before{display:none}
.cls{font-weight:600}
.layers{color:var(--muted);font-size:12px;margin:0 4px}
details.more{display:inline}
details.more summary{display:inline;cursor:pointer;color:var(--accent);font-size:12px}
details.more[open]{display:block}
td.uses code{display:inline-block;margin:1px 0}
td.where{width:24%}
td.api{min-width:15em}
.figures{display:flex;gap:12px;margin:10px 0}
.figure{border:1px solid var(--line);border-radius:8px;padding:8px 14px;color:var(--muted)}
.figure .value{font-size:22px;font-weight:600;color:var(--ink);margin-right:4px}
ul.why{margin:6px 0;padding-left:20px}
footer{color:var(--muted);font-size:12px;padding-bottom:24px}
@media (max-width:900px){.cards{grid-template-columns:repeat(2,1fr)}.glance{display:block}
figure{margin-bottom:12px}}
"""

#: Expand/collapse all sections, and open a collapsed section when a link targets it.
_SCRIPT = """
document.querySelectorAll("nav button").forEach(function (b) {
  b.addEventListener("click", function () {
    var open = b.getAttribute("data-open") === "1";
    document.querySelectorAll("details").forEach(function (d) { d.open = open; });
  });
});
function openTarget() {
  var t = location.hash && document.getElementById(location.hash.slice(1));
  if (t && t.tagName === "DETAILS") { t.open = true; }
}
window.addEventListener("hashchange", openTarget);
openTarget();
"""
