"""The zoo report as one self-contained HTML page: inline CSS and SVG charts (the unblock
curve, the top blockers), no script and nothing fetched from the network."""

from __future__ import annotations

import html

from apiscan.zoo.report import Zoo, _w

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right}code{font-size:12px}
.chart{display:block;margin:.8em 0}.muted{color:#666}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(value: float) -> str:
    """One decimal at most, so that the page is the same on every platform."""
    return f"{round(value, 1):g}"


def _table(headers: list[str], rows: list[list[object]], numeric: set[int]) -> str:
    head = "".join(
        f"<th{' class=n' if i in numeric else ''}>{_e(h)}</th>" for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td{' class=n' if i in numeric else ''}>{c}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def curve_svg(zoo: Zoo, width: int = 720, height: int = 260) -> str:
    """The unblock curve: repositories covered after each step, a step line."""
    n = len(zoo.repositories)
    steps = len(zoo.curve)
    if not n:
        return ""
    left, right, top, bottom = 48, 16, 12, 36
    pw, ph = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + pw * (i / steps if steps else 0)

    def y(c: int) -> float:
        return top + ph * (1 - c / n)

    points = [(x(0), y(zoo.start_covered))]
    previous = zoo.start_covered
    for s in zoo.curve:
        points.append((x(s.step), y(previous)))
        points.append((x(s.step), y(s.covered)))
        previous = s.covered
    path = " ".join(f"{_num(px)},{_num(py)}" for px, py in points)
    ticks = "".join(
        f'<text x="{left - 6}" y="{_num(y(c) + 4)}" text-anchor="end" font-size="11">{c}</text>'
        f'<line x1="{left}" x2="{width - right}" y1="{_num(y(c))}" y2="{_num(y(c))}"'
        ' stroke="#eee"/>'
        for c in sorted({0, n // 2, n})
    )
    return (
        f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        ' xmlns="http://www.w3.org/2000/svg" role="img" aria-label="unblock curve">'
        f"{ticks}"
        f'<polyline fill="none" stroke="#2b6cb0" stroke-width="2" points="{path}"/>'
        f'<text x="{left + pw / 2:g}" y="{height - 6}" text-anchor="middle" font-size="12">'
        f"APIs implemented or fixed (0 to {steps})</text>"
        f'<text x="12" y="{top + ph / 2:g}" font-size="12" transform="rotate(-90 12 '
        f'{top + ph / 2:g})" text-anchor="middle">repositories covered</text></svg>'
    )


def blockers_svg(zoo: Zoo, top: int, width: int = 720) -> str:
    """The top blockers as horizontal bars (weighted repositories blocked)."""
    shown = zoo.blockers[: min(top, 20)]
    if not shown:
        return ""
    bar, gap, label = 16, 4, 300
    height = len(shown) * (bar + gap) + 8
    most = max(b.weight for b in shown) or 1.0
    rows = []
    for i, b in enumerate(shown):
        yy = i * (bar + gap) + 4
        length = (width - label - 60) * b.weight / most
        rows.append(
            f'<text x="{label - 6}" y="{yy + 12}" text-anchor="end" font-size="11">'
            f"{_e(b.api)}</text>"
            f'<rect x="{label}" y="{yy}" width="{_num(length)}" height="{bar}" fill="#c05621"/>'
            f'<text x="{_num(label + length + 4)}" y="{yy + 12}" font-size="11">'
            f"{_w(b.weight)}</text>"
        )
    return (
        f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        ' xmlns="http://www.w3.org/2000/svg" role="img" aria-label="top blockers">'
        + "".join(rows)
        + "</svg>"
    )


def render_html(zoo: Zoo, top: int = 30) -> str:
    n = len(zoo.repositories)
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        "<title>apiscan zoo report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>apiscan zoo report</h1>",
        f"<p>{n} repositories scanned, {len(zoo.failed)} failed; apiscan "
        f"{_e(', '.join(zoo.apiscan_versions) or '-')}; mapping "
        f"{_e(', '.join(zoo.mapping_versions) or '-')}.</p>",
        f"<p>Fully covered in the network today: <b>{zoo.start_covered} of {n}</b> (weight "
        f"{_w(zoo.start_weight)} of {_w(zoo.total_weight)}); {len(zoo.curve)} API(s) to "
        "implement or fix cover them all.</p>",
        "<h2>Unblock curve</h2>",
        "<p class=muted>Greedy order: the cheapest uncovered repository (fewest APIs left per "
        "unit of weight) is completed next, its APIs taken by the weight they block.</p>",
        curve_svg(zoo),
        _table(
            ["step", "API", "covered", "weight covered", "completes"],
            [
                [
                    s.step,
                    f"<code>{_e(s.api)}</code>",
                    s.covered,
                    _w(s.covered_weight),
                    _e(", ".join(s.completed)),
                ]
                for s in zoo.curve[:top]
            ],
            {0, 2, 3},
        ),
        f"<h2>APIs ranked by repositories blocked (network, weighted; top {top})</h2>",
        blockers_svg(zoo, top),
        _table(
            ["#", "API", "status", "repositories", "weight", "call sites", "blocked"],
            [
                [
                    i,
                    f"<code>{_e(b.api)}</code>",
                    _e("/".join(b.statuses)),
                    b.repositories,
                    _w(b.weight),
                    b.call_sites,
                    _e(", ".join(b.names)),
                ]
                for i, b in enumerate(zoo.blockers[:top], 1)
            ],
            {0, 3, 4, 5},
        ),
        "<h2>Repositories</h2>",
        _table(
            [
                "repository",
                "weight",
                "files",
                "lines",
                "network APIs",
                "network coverage",
                "blocking (missing)",
                "dynamic shape (network, high)",
                "custom-op / rewrite / gap sites",
                "MindTorch",
                "errors",
            ],
            [
                [
                    _e(r.name),
                    _w(r.weight),
                    r.files,
                    r.lines,
                    r.network_apis,
                    f"{r.network_coverage_pct:.1f}%",
                    f"{len(r.blocking)} ({r.missing})",
                    f"{r.dynamic_shape} ({r.dynamic_shape_network}, {r.dynamic_shape_high})",
                    f"{r.effort['custom-op']} / {r.effort['rewrite']} / {r.effort['gap']}",
                    f"{r.mindtorch_covered}/{r.mindtorch_apis}" if r.mindtorch_apis else "-",
                    r.errors,
                ]
                for r in zoo.repositories
            ],
            {1, 2, 3, 4, 5, 6, 10},
        ),
    ]
    if zoo.failed:
        parts.append("<h2>Failed repositories</h2><ul>")
        for name, reasons in zoo.failed:
            parts.append(f"<li>{_e(name)}: {_e('; '.join(reasons))}</li>")
        parts.append("</ul>")
    parts += [
        "<h2>Dynamic-shape rules by prevalence</h2>",
        _table(
            ["rule", "name", "repositories", "findings", "in the network", "high"],
            [
                [r.rule, _e(r.name), r.repositories, r.findings, r.network, r.high]
                for r in zoo.rules
            ],
            {2, 3, 4, 5},
        ),
        "<h2>What each MindSpore version would unblock</h2>",
        _table(
            ["MindSpore", "repositories with no missing network API", "weight", "APIs added"],
            [
                [
                    v.version,
                    v.repositories_without_missing,
                    _w(v.weight),
                    f"{len(v.adds)}: " + _e(", ".join(f"{a} ({k})" for a, k in v.adds[:10]))
                    if v.adds
                    else "0",
                ]
                for v in zoo.versions
            ],
            {1, 2},
        ),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"
