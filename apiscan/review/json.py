"""The review as one JSON document, described by ``schema.json`` beside this module.

Keys come out in a fixed order, the decision first (effort), then the evidence; every place is
a flat ``path`` + ``line`` pair so tools can link it without parsing strings. The document is a
pure function of the :class:`Review`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from typing import Any

from apiscan.review.model import REVIEW_SCHEMA_VERSION, Review, Where

TOOL_NAME = "apiscan"
SCHEMA_FILE = "schema.json"


def _where(where: Where) -> dict[str, object]:
    """``path`` and ``line``; in a notebook also ``cell`` (``line`` is then within the cell)."""
    place: dict[str, object] = {"path": where.path, "line": where.line}
    if where.cell:
        place["cell"] = where.cell
    return place


def _distinct_keys(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """A row's (setting, value) pairs as an object whose keys stay distinct: a setting the
    row holds twice (two parameter groups' ``lr``, ``m.weight.data`` set by ``normal_`` and
    then ``fill_``) keeps each value, the later ones keyed ``lr (2)``, ``lr (3)``..., as the
    Markdown shows them all, instead of the last one replacing the others."""
    out: dict[str, str] = {}
    for key, value in pairs:
        distinct, n = key, 2
        while distinct in out:
            distinct, n = f"{key} ({n})", n + 1
        out[distinct] = value
    return out


def document(review: Review) -> dict[str, object]:
    """The review as plain JSON-ready data."""
    effort = review.effort
    return {
        "schema_version": REVIEW_SCHEMA_VERSION,
        "tool": {"name": TOOL_NAME, "version": review.tool_version},
        "root": review.root,
        "effort": {
            "call_sites_to_change": effort.call_sites_to_change,
            "custom_ops": effort.custom_ops,
            "dynamic_shape_rewrites": effort.dynamic_shape_rewrites,
            "input_shape_rewrites": effort.input_shape_rewrites,
            "by_disposition": [
                {"disposition": d, "network_call_sites": net, "call_sites": n, "apis": k}
                for d, net, n, k in effort.by_disposition
            ],
            "person_days": list(effort.person_days),
            "formula": effort.formula,
            "mindtorch": {
                "covered": effort.mindtorch_covered,
                "network_call_sites": effort.mindtorch_total,
                "lacks": list(effort.mindtorch_lacks),
            },
            "explanation": list(effort.explanation),
        },
        "recipe": [
            {
                "category": item.category,
                "name": item.name,
                **_where(item.where),
                "values": _distinct_keys(item.values),
                "note": item.note,
            }
            for item in review.recipe
        ],
        "modules": [
            {
                "class": node.cls,
                **_where(node.where),
                "role": node.role,
                "children": list(node.children),
                "layers": [{"class": cls, "count": count} for cls, count in node.layers],
            }
            for node in review.modules
        ],
        "coverage": {scope: dict(statuses) for scope, statuses in review.coverage.items()},
        "gaps": [
            {
                "api": gap.api,
                "status": gap.status,
                "uses": gap.uses,
                "places": [_where(w) for w in gap.where],
                "mindspore_api": gap.mindspore_api,
                "note": gap.note,
                "suggestion": gap.suggestion,
                "disposition": gap.disposition,
            }
            for gap in review.gaps
        ],
        "dynamic_shape": [
            {**_where(where), "rule": rule, "scope": scope, "message": message}
            for where, rule, scope, message in review.dynamic_shape
        ],
        "sparse": [_where(w) for w in review.sparse],
        "extensions": [{"what": what, **_where(where)} for what, where in review.extensions],
        "third_party": [
            {"package": tp.package, "uses": list(tp.uses), "files": tp.files}
            for tp in review.third_party
        ],
        "errors": [{"path": path, "message": message} for path, message in review.errors],
        "inference_only": review.inference_only,
        "top_models": [
            {
                "class": model.cls,
                **_where(model.where),
                "builder": model.builder,
                "parts": [{"parameter": p, "part": part} for p, part in model.parts],
            }
            for model in review.top_models
        ],
        "work": [
            {
                "kind": item.kind,
                "what": item.what,
                "uses": item.uses,
                "why": item.why,
                "places": [_where(w) for w in item.where],
            }
            for item in review.work
        ],
        "ancillary": [{"path": path, "why": why} for path, why in review.ancillary],
    }


def render_json(review: Review) -> str:
    """The document, indented, ending with a newline; non-ASCII kept readable."""
    return json.dumps(document(review), indent=2, ensure_ascii=False) + "\n"


def load_schema() -> dict[str, Any]:
    """The review document's JSON Schema (draft 2020-12), freshly parsed."""
    text = (resources.files("apiscan.review") / SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
