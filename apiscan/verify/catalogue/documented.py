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
from importlib import resources

from apiscan.verify.cases import Case, InputSpec
from apiscan.verify.catalogue.forms import claim

TABLE = "documented_forms.csv"
_SPEC = re.compile(
    r"(?P<name>\w+)=(?P<kind>float|int|bool|binary)\[(?P<shape>[\d,]*)\]"
    r"(?:@(?P<low>-?[\d.]+):(?P<high>-?[\d.]+))?(?:!(?P<special>\w+))?$"
)


def parse_inputs(text: str) -> tuple[InputSpec, ...]:
    """``x=float[3,4]!nan;i=int[3,2]@0:3`` → input specs (kind, shape, range, special)."""
    specs = []
    for part in filter(None, text.split(";")):
        found = _SPEC.match(part)
        if not found:
            raise ValueError(f"bad input spec {part!r} in {TABLE}")
        shape = tuple(int(d) for d in found["shape"].split(",") if d)
        kind = found["kind"]
        low, high = (-1.0, 1.0) if kind != "bool" else (0.0, 1.0)
        if found["low"] is not None:
            low, high = float(found["low"]), float(found["high"])
        specs.append(
            InputSpec(
                found["name"],
                shape,
                kind,  # type: ignore[arg-type]
                low,
                high,
                grad=False,
                special=found["special"] or "",  # type: ignore[arg-type]
            )
        )
    return tuple(specs)


@functools.cache
def _rows() -> dict[str, tuple[dict[str, str], ...]]:
    text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
    grouped: dict[str, list[dict[str, str]]] = {}
    for row in csv.DictReader(text.splitlines()):
        grouped.setdefault(row["api"], []).append(row)
    return {api: tuple(rows) for api, rows in grouped.items()}


def _layer(text: str) -> tuple[tuple[str, str], ...] | None:
    """The ``layer`` column: empty for a call, ``-`` for a layer without weights, else
    ``torch_name:ms_name`` pairs."""
    if not text:
        return None
    if text == "-":
        return ()
    return tuple(tuple(pair.split(":", 1)) for pair in text.split(","))  # type: ignore[misc]


def _case(row: dict[str, str]) -> Case:
    return claim(
        row["api"],
        row["target"],
        row["call"],
        parse_inputs(row["inputs"]) or parse_inputs("x=float[3,4]"),
        probe=row["probe"],
        layer=_layer(row["layer"]),
        on=row["param"] if row["form"] == "edge" else "",
        tags=("generated", f"param={row['param']}", f"form={row['form']}"),
    )


def apis() -> tuple[str, ...]:
    """The APIs the table has forms for."""
    return tuple(sorted(_rows()))


@functools.cache
def for_api(api: str, existing: frozenset[str] = frozenset()) -> tuple[Case, ...]:
    """The table's cases of one API, without those whose id ``existing`` holds (a
    hand-written case of the same form)."""
    cases = (_case(row) for row in _rows().get(api, ()))
    return tuple(c for c in cases if c.case_id not in existing)
