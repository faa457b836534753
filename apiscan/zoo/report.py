"""``apiscan zoo report``: what the zoo says, from the database alone.

Per repository: coverage of the network (distinct APIs used in network scope whose every use
is consistent or verified), what blocks it, dynamic-shape findings, the work it asks for
(network call sites by disposition) and how much of its network MindTorch provides.

Across the zoo:

* **blockers**: APIs ranked by the repositories they block (an API blocks a repository when
  one of its network uses is missing, a candidate or different), weighted by the manifest's
  weights;
* **the unblock curve**: an order in which to implement (missing) or fix (different) APIs so
  that repositories become fully covered as early as possible, with the count after each
  step. Greedy: take the uncovered repository that is cheapest to complete (fewest blocking
  APIs left per unit of weight; then the heavier, then by name), implement its APIs one by one
  (the one blocking the most remaining weight first, then by name), repeat. Every step is one
  API, and each step's count includes repositories completed as a side effect;
* dynamic-shape rules by prevalence (repositories with a finding, then findings);
* **MindSpore versions**: for each shipped mapping table (``--ms-version``, older tables filling
  in as the scan does), how many repositories have a counterpart row for every network API,
  and which of the zoo's network APIs that table adds over the one before it.

Everything is sorted with a total order, so the same database gives the same report.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from apiscan.zoo.database import EFFORT, connect
from apiscan.zoo.task import BLOCKING, BLOCKS_SQL


@dataclass(frozen=True)
class RepoRow:
    name: str
    weight: float
    tags: tuple[str, ...]
    files: int
    lines: int
    network_apis: int
    network_covered: int
    network_coverage_pct: float
    blocking: tuple[str, ...]
    missing: int
    dynamic_shape: int
    dynamic_shape_network: int
    dynamic_shape_high: int
    effort: dict[str, int]
    mindtorch_apis: int
    mindtorch_covered: int
    errors: int


@dataclass(frozen=True)
class Blocker:
    api: str
    statuses: tuple[str, ...]
    repositories: int
    weight: float
    call_sites: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    step: int
    api: str
    covered: int
    covered_weight: float
    completed: tuple[str, ...]


@dataclass(frozen=True)
class RuleRow:
    rule: str
    name: str
    repositories: int
    findings: int
    network: int
    high: int


@dataclass(frozen=True)
class VersionRow:
    version: str
    repositories_without_missing: int
    weight: float
    adds: tuple[tuple[str, int], ...]  # (api, repositories that use it in the network)


@dataclass
class Zoo:
    apiscan_versions: tuple[str, ...]
    mapping_versions: tuple[str, ...]
    repositories: list[RepoRow]
    failed: list[tuple[str, tuple[str, ...]]]
    blockers: list[Blocker]
    start_covered: int
    start_weight: float
    total_weight: float
    curve: list[Step]
    rules: list[RuleRow]
    versions: list[VersionRow] = field(default_factory=list)


def build(path: Path) -> Zoo:
    """Read the database and compute every section."""
    con = connect(path, read_only=True)
    try:
        return _build(con)
    finally:
        con.close()


def _build(con: object) -> Zoo:
    q = con.execute  # type: ignore[attr-defined]
    repos = q(
        "SELECT r.repo_id, r.name, r.weight, r.tags, s.* EXCLUDE (repo_id) FROM repositories r"
        " JOIN summaries s USING (repo_id) WHERE r.status = 'scanned' ORDER BY r.name"
    ).fetchall()
    cols = [d[0] for d in q(
        "SELECT r.repo_id, r.name, r.weight, r.tags, s.* EXCLUDE (repo_id) FROM repositories r"
        " JOIN summaries s USING (repo_id) LIMIT 0"
    ).description]  # fmt: skip
    blocking_rows = q(
        "SELECT f.repo_id, f.api, list(DISTINCT f.status ORDER BY f.status), count(*)"
        " FROM findings f JOIN repositories r USING (repo_id)"
        " WHERE r.status = 'scanned' AND f.kind = 'api' AND f.scope = 'network'"
        f" AND {BLOCKS_SQL} GROUP BY f.repo_id, f.api ORDER BY f.repo_id, f.api"
    ).fetchall()
    network_rows = q(
        "SELECT DISTINCT f.repo_id, f.api, f.canonical FROM findings f"
        " JOIN repositories r USING (repo_id) WHERE r.status = 'scanned' AND f.kind = 'api'"
        " AND f.scope = 'network' AND f.status <> 'unknown' ORDER BY 1, 2, 3"
    ).fetchall()
    rule_rows = q(
        "SELECT f.rule, count(DISTINCT f.repo_id), count(*),"
        " count(*) FILTER (WHERE f.scope = 'network'), count(*) FILTER (WHERE f.severity = 'high')"
        " FROM findings f JOIN repositories r USING (repo_id)"
        " WHERE r.status = 'scanned' AND f.kind = 'dynamic_shape' GROUP BY f.rule"
    ).fetchall()
    failed = q(
        "SELECT r.name, list(f.reason ORDER BY f.attempt) FROM repositories r"
        " LEFT JOIN failures f USING (repo_id) WHERE r.status = 'failed'"
        " GROUP BY r.name ORDER BY r.name"
    ).fetchall()
    versions = q(
        "SELECT list(DISTINCT apiscan_version ORDER BY apiscan_version),"
        " list(DISTINCT mapping_version ORDER BY mapping_version)"
        " FROM repositories WHERE status = 'scanned'"
    ).fetchone()

    name_of = {r[0]: r[1] for r in repos}
    weight_of = {r[0]: float(r[2]) for r in repos}
    blocking: dict[str, dict[str, tuple[tuple[str, ...], int]]] = {rid: {} for rid in name_of}
    for rid, api, statuses, sites in blocking_rows:
        blocking[rid][api] = (tuple(statuses), int(sites))
    rows = []
    for r in repos:
        d = dict(zip(cols, r, strict=True))
        rid = d["repo_id"]
        rows.append(
            RepoRow(
                name=d["name"],
                weight=float(d["weight"]),
                tags=tuple(d["tags"] or ()),
                files=d["files"],
                lines=d["lines"],
                network_apis=d["network_apis"],
                network_covered=d["network_covered"],
                network_coverage_pct=float(d["network_coverage_pct"]),
                blocking=tuple(sorted(blocking[rid])),
                missing=d["network_missing"],
                dynamic_shape=d["dynamic_shape"],
                dynamic_shape_network=d["dynamic_shape_network"],
                dynamic_shape_high=d["dynamic_shape_high"],
                effort={e: d[f"effort_{e}"] for e in EFFORT},
                mindtorch_apis=d["mindtorch_network_apis"],
                mindtorch_covered=d["mindtorch_network_covered"],
                errors=d["errors"],
            )
        )
    blockers = rank_blockers(blocking, name_of, weight_of)
    sets = {rid: set(apis) for rid, apis in blocking.items()}
    start, start_w, curve = unblock_curve(sets, name_of, weight_of)
    return Zoo(
        apiscan_versions=tuple(versions[0] or ()) if versions else (),
        mapping_versions=tuple(versions[1] or ()) if versions else (),
        repositories=rows,
        failed=[(name, tuple(x for x in reasons if x is not None)) for name, reasons in failed],
        blockers=blockers,
        start_covered=start,
        start_weight=start_w,
        total_weight=sum(weight_of.values()),
        curve=curve,
        rules=_rules(rule_rows),
        versions=version_rows(network_rows, name_of, weight_of),
    )


def rank_blockers(
    blocking: dict[str, dict[str, tuple[tuple[str, ...], int]]],
    name_of: dict[str, str],
    weight_of: dict[str, float],
) -> list[Blocker]:
    """APIs by weighted repositories blocked, then repositories, call sites, name."""
    per_api: dict[str, list[str]] = {}
    statuses: dict[str, set[str]] = {}
    sites: Counter[str] = Counter()
    for rid, apis in blocking.items():
        for api, (st, n) in apis.items():
            per_api.setdefault(api, []).append(rid)
            statuses.setdefault(api, set()).update(st)
            sites[api] += n
    ranked = [
        Blocker(
            api,
            tuple(s for s in BLOCKING if s in statuses[api]),
            len(rids),
            round(sum(weight_of[r] for r in rids), 6),
            sites[api],
            tuple(sorted(name_of[r] for r in rids)),
        )
        for api, rids in per_api.items()
    ]
    ranked.sort(key=lambda b: (-b.weight, -b.repositories, -b.call_sites, b.api))
    return ranked


def unblock_curve(
    sets: dict[str, set[str]], name_of: dict[str, str], weight_of: dict[str, float]
) -> tuple[int, float, list[Step]]:
    """(repositories covered at the start, their weight, the steps); see the module doc."""
    left = {rid: set(apis) for rid, apis in sets.items()}
    covered = {rid for rid, apis in left.items() if not apis}
    start, start_w = len(covered), sum(weight_of[r] for r in covered)
    steps: list[Step] = []
    while len(covered) < len(left):
        target = min(
            (rid for rid in left if rid not in covered),
            key=lambda r: (len(left[r]) / weight_of[r], -weight_of[r], name_of[r]),
        )
        while left[target]:
            blocked: Counter[str] = Counter()
            for rid, apis in left.items():
                for api in apis:
                    blocked[api] += weight_of[rid]  # type: ignore[assignment]
            api = min(left[target], key=lambda a: (-blocked[a], a))
            done = []
            for rid, apis in left.items():
                if api in apis:
                    apis.discard(api)
                    if not apis:
                        covered.add(rid)
                        done.append(name_of[rid])
            steps.append(
                Step(
                    len(steps) + 1,
                    api,
                    len(covered),
                    round(sum(weight_of[r] for r in covered), 6),
                    tuple(sorted(done)),
                )
            )
    return start, start_w, steps


def _rules(rows: list[tuple[object, ...]]) -> list[RuleRow]:
    from apiscan.rules.registry import get_rule

    out = []
    for rule, repos, findings, network, high in rows:
        try:
            name = get_rule(str(rule)).name
        except KeyError:
            name = ""
        out.append(RuleRow(str(rule), name, int(repos), int(findings), int(network), int(high)))  # type: ignore[call-overload]
    out.sort(key=lambda r: (-r.repositories, -r.findings, r.rule))
    return out


def version_rows(
    network_rows: list[tuple[str, str, str]],
    name_of: dict[str, str],
    weight_of: dict[str, float],
) -> list[VersionRow]:
    """Per shipped table, oldest first: repositories whose every network API has a row,
    and the zoo's network APIs the table has that the one before it lacked."""
    from apiscan.mapping.store import KNOWN_VERSIONS, load_table

    uses: dict[str, set[tuple[str, str]]] = {rid: set() for rid in name_of}
    users: dict[tuple[str, str], set[str]] = {}
    for rid, api, canonical in network_rows:
        uses[rid].add((api, canonical or ""))
        users.setdefault((api, canonical or ""), set()).add(rid)
    out = []
    before: set[tuple[str, str]] = set()
    for version in reversed(KNOWN_VERSIONS):  # oldest first
        table = load_table(version)
        present = {
            key
            for key in users
            if table.lookup(key[0]) is not None or (key[1] and table.lookup(key[1]) is not None)
        }
        complete = [rid for rid, keys in uses.items() if keys <= present]
        adds = sorted(
            {(api, len(users[(api, c)])) for api, c in present - before},
            key=lambda item: (-item[1], item[0]),
        )
        out.append(
            VersionRow(
                version,
                len(complete),
                round(sum(weight_of[r] for r in complete), 6),
                tuple(adds),
            )
        )
        before = present
    return out


# ---------------------------------------------------------------- rendering


def render(zoo: Zoo, fmt: str, top: int = 30) -> str:
    if fmt == "json":
        return render_json(zoo)
    if fmt == "html":
        from apiscan.zoo.html import render_html

        return render_html(zoo, top)
    return render_markdown(zoo, top)


def render_json(zoo: Zoo) -> str:
    data = asdict(zoo)
    data["schema"] = "apiscan-zoo-report/1"
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _w(value: float) -> str:
    return f"{value:g}"


def _pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "-"


def render_markdown(zoo: Zoo, top: int = 30) -> str:
    n = len(zoo.repositories)
    out = [
        "# apiscan zoo report",
        "",
        f"{n} repositories scanned, {len(zoo.failed)} failed; apiscan "
        f"{', '.join(zoo.apiscan_versions) or '-'}; mapping "
        f"{', '.join(zoo.mapping_versions) or '-'}.",
        f"Fully covered in the network today: {zoo.start_covered} of {n} "
        f"(weight {_w(zoo.start_weight)} of {_w(zoo.total_weight)}); "
        f"{len(zoo.curve)} API(s) to implement or fix cover them all.",
        "",
        "## Repositories",
        "",
        "| repository | weight | files | lines | network APIs | network coverage | blocking APIs"
        " (missing) | dynamic shape (network, high) | effort: custom-op / rewrite / gap sites"
        " | MindTorch | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in zoo.repositories:
        mt = f"{r.mindtorch_covered}/{r.mindtorch_apis}" if r.mindtorch_apis else "-"
        e = r.effort
        out.append(
            f"| {r.name} | {_w(r.weight)} | {r.files} | {r.lines} | {r.network_apis} | "
            f"{r.network_coverage_pct:.1f}% | {len(r.blocking)} ({r.missing}) | "
            f"{r.dynamic_shape} ({r.dynamic_shape_network}, {r.dynamic_shape_high}) | "
            f"{e['custom-op']} / {e['rewrite']} / {e['gap']} | {mt} | {r.errors} |"
        )
    if zoo.failed:
        out += ["", "## Failed repositories", ""]
        for name, reasons in zoo.failed:
            out.append(
                f"- {name}: " + "; ".join(f"attempt {i}: {x}" for i, x in enumerate(reasons, 1))
            )
    out += [
        "",
        f"## APIs ranked by repositories blocked (network scope, weighted; top {top})",
        "",
        "| # | API | status | repositories | weight | call sites | blocked repositories |",
        "| ---: | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for i, b in enumerate(zoo.blockers[:top], 1):
        names = ", ".join(b.names[:8]) + (
            f" and {len(b.names) - 8} more" if len(b.names) > 8 else ""
        )
        out.append(
            f"| {i} | `{b.api}` | {'/'.join(b.statuses)} | {b.repositories} | {_w(b.weight)} |"
            f" {b.call_sites} | {names} |"
        )
    out += [
        "",
        "## Unblock curve",
        "",
        "Implement or fix these APIs in this order; each row counts the repositories whose",
        "network is then fully covered. Greedy: the cheapest uncovered repository (fewest APIs",
        "left per unit of weight) is completed next, its APIs taken by the weight they block.",
        "",
        f"Start: {zoo.start_covered} covered (weight {_w(zoo.start_weight)}).",
        "",
        "| step | API | covered | weight covered | completes |",
        "| ---: | --- | ---: | ---: | --- |",
    ]
    for s in zoo.curve[: max(top, 1)]:
        out.append(
            f"| {s.step} | `{s.api}` | {s.covered} | {_w(s.covered_weight)} |"
            f" {', '.join(s.completed)} |"
        )
    if len(zoo.curve) > top:
        last = zoo.curve[-1]
        out.append(f"| ... | ({len(zoo.curve) - top} more steps) | {last.covered} |"
                   f" {_w(last.covered_weight)} | |")  # fmt: skip
    out += [
        "",
        "## Dynamic-shape rules by prevalence",
        "",
        "| rule | name | repositories | findings | in the network | high |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in zoo.rules:
        out.append(
            f"| {r.rule} | {r.name} | {r.repositories} | {r.findings} | {r.network} | {r.high} |"
        )
    out += [
        "",
        "## What each MindSpore version would unblock",
        "",
        "Per shipped mapping table (older tables filling in, as `--ms-version` does): the",
        "repositories with a counterpart row for every network API, and the zoo's network",
        "APIs the table adds over the previous one (by repositories using them).",
        "",
        "| MindSpore | repositories with no missing network API | weight | APIs added |",
        "| --- | ---: | ---: | --- |",
    ]
    for v in zoo.versions:
        added = ", ".join(f"`{a}` ({k})" for a, k in v.adds[:10])
        more = len(v.adds) - 10
        added += f" and {more} more" if more > 0 else ""
        out.append(
            f"| {v.version} | {v.repositories_without_missing} | {_w(v.weight)} |"
            f" {len(v.adds)}{': ' + added if added else ''} |"
        )
    return "\n".join(out) + "\n"
