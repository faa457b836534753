"""``apiscan rules`` (the catalogue as a table or JSON) and ``apiscan explain ID`` (one rule).

Both print what the rule classes say and nothing else, so the terminal, ``docs/rules/`` and the
findings in a report can never disagree. ``explain`` also says on which backends each MindSpore
counterpart supports dynamic shape, from the official support lists shipped in mapping_data.
"""

from __future__ import annotations

import argparse
import json
import textwrap

from apiscan.cli import error
from apiscan.model import SCOPES
from apiscan.rules.base import SECTIONS, Rule

FORMATS: tuple[str, ...] = ("text", "json")
API_COLUMN_WIDTH = 60


def short_apis(rule: type[Rule]) -> str:
    """The rule's APIs by their last name, once each (``unique, unique_consecutive``)."""
    names = dict.fromkeys(api.rpartition(".")[2] for api in rule.apis)
    return ", ".join(names) or "-"


def counterpart_support(ms_api: str) -> str:
    """Where ``ms_api`` supports dynamic shape, per the official lists, as a short phrase."""
    from apiscan.mapping.dynamic_shape import is_listed, supported_backends

    if not is_listed(ms_api):
        return "not on the dynamic-shape support lists"
    backends = supported_backends(ms_api)
    return f"dynamic shape on {', '.join(backends)}" if backends else "listed, no backend"


def rule_record(rule: type[Rule]) -> dict[str, object]:
    """The rule as plain data (``apiscan rules --format json``)."""
    return {
        "id": rule.id,
        "name": rule.name,
        "message": rule.message,
        "summary": rule.summary(),
        "severity": {scope: rule.severity(scope) for scope in SCOPES},
        "apis": list(rule.apis),
        "mindspore_apis": list(rule.mindspore_apis),
        "suggestion": rule.suggestion,
    }


def run_rules(argv: list[str]) -> int:
    """``apiscan rules``: every rule with its severity per scope and the APIs it concerns."""
    p = argparse.ArgumentParser(
        prog="apiscan rules",
        description="List the rules apiscan checks (dynamic shape: DS1xx).",
        epilog="'apiscan explain ID' prints one rule in full.",
    )
    p.add_argument("-f", "--format", choices=FORMATS, default="text", help="output format")
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    args = p.parse_args(argv)
    from apiscan.cli.main import write_output
    from apiscan.rules.registry import all_rules

    rules = all_rules()
    if args.format == "json":
        return write_output(
            json.dumps([rule_record(r) for r in rules], indent=2) + "\n", args.output
        )
    from tabulate import tabulate

    rows = [[r.id, r.name, *(r.severity(scope) for scope in SCOPES), short_apis(r)] for r in rules]
    headers = ["id", "name", *SCOPES, "apis"]
    # Wrap the APIs so the table fits a wide terminal; JSON has them in full.
    widths = [None] * (len(headers) - 1) + [API_COLUMN_WIDTH]
    table = tabulate(rows, headers=headers, tablefmt="simple", maxcolwidths=widths)
    return write_output(table + "\n", args.output)


def find_rule(text: str) -> type[Rule]:
    """A rule by id (any case) or by name; ``KeyError`` listing the known ids otherwise."""
    from apiscan.rules.registry import all_rules, get_rule

    for rule in all_rules():
        if text.upper() == rule.id or text.lower() == rule.name:
            return rule
    return get_rule(text)  # raises the KeyError that lists the ids


def explain_text(rule: type[Rule]) -> str:
    """Everything the rule class says, laid out for a terminal."""
    out = [f"{rule.id} {rule.name}", rule.message, "", rule.summary(), ""]
    out.append("Severity: " + ", ".join(f"{s} {rule.severity(s)}" for s in SCOPES))
    out.append("PyTorch APIs: " + (", ".join(rule.apis) or "-"))
    out.append("MindSpore counterparts:")
    out += [f"  {ms} ({counterpart_support(ms)})" for ms in rule.mindspore_apis]
    sections = rule.sections()
    for title in SECTIONS:
        out += ["", title, "-" * len(title), sections[title]]
    out += ["", f"Suggestion: {rule.suggestion}"]
    for label, examples in (
        ("Valid: not flagged", rule.valid_examples()),
        ("Invalid: flagged on the lines marked '# error'", rule.invalid_examples()),
    ):
        for n, code in enumerate(examples, 1):
            title = f"{label} ({n}/{len(examples)})"
            out += ["", title, "-" * len(title), textwrap.indent(code.rstrip("\n"), "    ")]
    return "\n".join(out) + "\n"


def run_explain(argv: list[str]) -> int:
    """``apiscan explain ID``: one rule's documentation, suggestion and examples."""
    p = argparse.ArgumentParser(
        prog="apiscan explain",
        description="Explain one rule: why it matters, the rewrite, and examples.",
    )
    p.add_argument("rule", help="rule id (DS101) or name (unique)")
    p.add_argument("-f", "--format", choices=FORMATS, default="text", help="output format")
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    args = p.parse_args(argv)
    from apiscan.cli.main import write_output

    try:
        rule = find_rule(args.rule)
    except KeyError as exc:
        return error("apiscan explain", str(exc.args[0]))
    if args.format == "json":
        record = rule_record(rule) | {
            "sections": rule.sections(),
            "valid_examples": list(rule.valid_examples()),
            "invalid_examples": list(rule.invalid_examples()),
        }
        return write_output(json.dumps(record, indent=2) + "\n", args.output)
    return write_output(explain_text(rule), args.output)
