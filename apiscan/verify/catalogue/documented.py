"""The generated documented forms (:mod:`apiscan.verify.documented`), read from their table.

``documented_forms.csv`` is written by ``scripts/gen_documented_forms.py``; a test keeps it
in step with the generator. Each line becomes a ``claim:`` case (the table's target run with
exactly the PyTorch call's arguments) tagged ``generated``, ``param=<the form>`` and
``form=keyword|positional|edge``, so a report can say which documented form does not hold
("does not hold for ``decimals=1``").

A scan asks for the cases of the few dozen APIs it found: the table's lines are grouped by
API once (a CSV read) and turned into cases per API on demand; only ``verify --all`` builds
all of them.
"""

from __future__ import annotations

import csv
import functools
import re
from dataclasses import replace
from importlib import resources

from apiscan.verify.cases import Case
from apiscan.verify.catalogue.forms import alias, claim
from apiscan.verify.catalogue.inputs import parse_inputs, parse_layer

TABLE = "documented_forms.csv"


@functools.cache
def _rows() -> dict[str, tuple[list[str], ...]]:
    """The table's lines grouped by API (the first column), each as its fields: a scan reads
    the lines of a few dozen APIs, so a line becomes a dict (:func:`_named`) only when its
    cases are made (as dicts, the 5,000 lines took a scan ~15 ms of CPU)."""
    text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
    grouped: dict[str, list[list[str]]] = {}
    lines = csv.reader(text.splitlines())
    _HEADER[:] = next(lines, [])
    for row in lines:
        if row:  # a blank line, as csv.DictReader skips them
            grouped.setdefault(row[0], []).append(row)
    return {api: tuple(rows) for api, rows in grouped.items()}


#: The table's column names (its first line), read by :func:`_rows`.
_HEADER: list[str] = []


def _named(row: list[str]) -> dict[str, str]:
    """A line of the table by column name (``csv.DictReader``'s dict: missing fields None)."""
    named: dict[str, str] = dict(zip(_HEADER, row, strict=False))
    for key in _HEADER[len(row) :]:
        named[key] = None  # type: ignore[assignment]
    return named


#: Framework objects a form passes as values, written as MindSpore's on its side (the claim
#: is about the call, as with dtypes): a random generator, a tensor-valued constructor
#: argument (a loss's per-class ``weight``).
_MS_VALUES = (("torch.Generator()", "ms.Generator()"), ("torch.tensor(", "ms.Tensor("))


def _case(row: dict[str, str]) -> Case:
    case = _optimizer(row) if row["layer"] == "optimizer" else _claim(row)
    ms_expr = case.ms_expr
    for torch_text, ms_text in _MS_VALUES:
        ms_expr = ms_expr.replace(torch_text, ms_text)
    if row.get("rename"):
        # the row documents this parameter under another MindSpore name: the claim is the
        # call with that name (``Parameter(data=x)`` ↔ ``Parameter(default_input=x)``)
        torch_name, _, ms_name = row["rename"].partition(":")
        ms_expr = re.sub(rf"(?<=[(,\s]){torch_name}=", f"{ms_name}=", ms_expr, count=1)
    if row.get("via"):
        # another consistent row's target than the scan's pick: its own case id and tag
        target = row["target"]
        return replace(
            case, ms_expr=ms_expr, pattern=f"{case.pattern} via {target}", tags=(*case.tags, "via")
        )
    return replace(case, ms_expr=ms_expr) if ms_expr != case.ms_expr else case


def _claim(row: dict[str, str]) -> Case:
    return claim(
        row["api"],
        row["target"],
        row["call"],
        parse_inputs(row["inputs"]) or parse_inputs("x=float[3,4]"),
        probe=row["probe"],
        layer=parse_layer(row["layer"]),
        on=row["param"] if row["form"] == "edge" else "",
        tags=("generated", f"param={row['param']}", f"form={row['form']}"),
    )


def _optimizer(row: dict[str, str]) -> Case:
    """An optimizer form: the same constructor call with the table's target in its place,
    stepped four times on the same gradients (see :class:`apiscan.verify.cases.Case`)."""
    api, target = row["api"], row["target"]
    ms_call = alias(target) + row["call"][len(api) :]
    return Case(
        api,
        row["call"],
        ms_call,
        "mapped",
        parse_inputs(row["inputs"]),
        pattern=f"claim: {row['call']}",
        kind="optimizer",
        note=f"The table's claim {api} ↔ {target}, in this call form.",
        tags=("claim", f"target={target}", "generated", f"param={row['param']}", "form=keyword"),
    )


def apis() -> tuple[str, ...]:
    """The APIs the table has forms for."""
    return tuple(sorted(_rows()))


@functools.cache
def for_api(api: str, existing: frozenset[str] = frozenset()) -> tuple[Case, ...]:
    """The table's cases of one API, without those whose id ``existing`` holds (a
    hand-written case of the same form)."""
    cases = (_case(_named(row)) for row in _rows().get(api, ()))
    return tuple(c for c in cases if c.case_id not in existing)
