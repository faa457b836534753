"""API substitutions as rewrite templates, each with the sample forms its micro-tests run.

Every :class:`Recipe` is one PyTorch API (one call form of it) rewritten to MindSpore by a
:class:`~apiscan.rewrite.template.Template`, plus the :class:`Sample` calls the verify
catalogue renders into micro-tests (:mod:`apiscan.verify.catalogue.templated`): the MindSpore
side of each test is ``render(template, sample)``, the very function that renders a finding's
rewrite in the reports. Samples cover the parameter space a row claims: the no-argument form,
non-default values, sizes as separate arguments and as a tuple, keyword and positional forms.

Argument texts in samples are evaluated in the harness namespace (inputs by name, ``torch``,
``np``); a sample's ``probe`` wraps both sides when the call's value cannot be compared
directly (``{}.shape`` for uninitialised memory), and is never part of a shown rewrite.

The recipes are data: ``substitutions.toml`` beside this module, one ``[[recipe]]`` each, read
once by the small interpreter below. A recipe's keys are the :class:`Template`'s (``api``,
``target``, ``args``, ``method``, ``note``, ``format``, ``receiver_first``) and the
:class:`Recipe`'s (``samples``, ``strategy``, ``kind``, ``param_map``, ``grad``,
``threshold``); an argument's are :class:`~apiscan.rewrite.template.Arg`'s, with ``drop``
(the values whose dropping is exact) for a parameter MindSpore lacks and ``why`` for its
reason; a sample is a ``label``, positional ``args`` and keywords ``kw``. What several recipes
share is written once and named: arguments (``"$device"``), reasons (``why = "$placement"``),
whole families (``family = "creation"``: ``zeros``, ``ones``, ``rand``... differ only in
their names), and a recipe's ``receiver``, ``inputs`` and ``probe`` are its samples'
defaults. An unknown key or name is an error when the table is read, so a typo never
silently drops a setting.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from apiscan.model import CallArgs
from apiscan.rewrite.template import DROP, Arg, Template
from apiscan.verify.cases import InputSpec


@dataclass(frozen=True)
class Sample:
    """One call form a micro-test runs: ``call`` holds argument texts (evaluated in the
    harness), ``inputs`` the random tensors they may name."""

    label: str
    call: CallArgs
    inputs: tuple[InputSpec, ...]
    probe: str = "{}"


@dataclass(frozen=True)
class Recipe:
    """A substitution: a template, how its tests run and the forms they cover."""

    template: Template
    samples: tuple[Sample, ...]
    strategy: str = "mapped"  # as apiscan.verify.cases.Strategy
    kind: str = "function"  # "function" or "layer" (constructed, then called on the inputs)
    param_map: tuple[tuple[str, str], ...] = ()
    grad: bool = False
    threshold: float | None = None


TABLE = "substitutions.toml"

_RECIPE_KEYS = frozenset(
    {
        *("family", "api", "target", "args", "method", "note", "format", "receiver_first"),
        "fixed",
        *("samples", "strategy", "kind", "param_map", "grad", "threshold"),
        *("receiver", "inputs", "probe"),
    }
)
_ARG_KEYS = frozenset(
    {
        *("name", "default", "to", "positional", "convert", "drop", "why", "ms_default"),
        *("varargs", "pack", "keyword_only", "pack_one", "same_as"),
    }
)
_SAMPLE_KEYS = frozenset({"label", "args", "kw", "receiver", "inputs", "probe"})


def _checked(entry: dict[str, Any], allowed: frozenset[str], where: str) -> dict[str, Any]:
    """``entry`` itself; a key the format does not have (a typo) is an error, not a silently
    ignored setting."""
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise ValueError(f"{TABLE}: {where}: unknown keys {', '.join(unknown)}")
    return entry


class _Table:
    """The interpreter of ``substitutions.toml``: shared parts by name, then one recipe per
    ``[[recipe]]`` entry (see the table's header for the short forms)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.defaults: dict[str, str] = data.get("defaults", {})
        self.why: dict[str, str] = data.get("why", {})
        self.args: dict[str, dict[str, Any]] = data.get("args", {})
        self.families: dict[str, dict[str, Any]] = data.get("family", {})
        self.recipes = tuple(self.recipe(entry) for entry in data.get("recipe", ()))

    def shared(self, table: dict[str, Any], ref: str, what: str) -> Any:
        if ref.removeprefix("$") not in table:
            raise ValueError(f"{TABLE}: no shared {what} {ref}")
        return table[ref.removeprefix("$")]

    def arg(self, entry: str | dict[str, Any], where: str) -> Arg:
        if isinstance(entry, str):
            entry = self.shared(self.args, entry, "argument")
        entry = _checked(dict(entry), _ARG_KEYS, f"{where}, argument {entry.get('name')}")
        why = entry.pop("why", "")
        if why.startswith("$"):
            why = self.shared(self.why, why, "reason")
        if "drop" in entry:
            entry.update(to=DROP, drop_exact=tuple(entry.pop("drop")), drop_why=why)
        return Arg(**entry)

    def sample(self, entry: dict[str, Any], recipe: dict[str, Any], where: str) -> Sample:
        _checked(entry, _SAMPLE_KEYS, f"{where}, sample {entry.get('label')}")

        def setting(key: str) -> Any:
            return entry.get(key, recipe.get(key, self.defaults.get(key, "")))

        call = CallArgs(
            setting("receiver"), tuple(entry.get("args", ())), tuple(entry.get("kw", {}).items())
        )
        inputs = tuple(
            InputSpec(**{**spec, "shape": tuple(spec["shape"])}) for spec in setting("inputs")
        )
        return Sample(entry["label"], call, inputs, setting("probe"))

    def recipe(self, entry: dict[str, Any]) -> Recipe:
        where = f"recipe {entry.get('api')}"
        _checked(entry, _RECIPE_KEYS, where)
        if "family" in entry:
            entry = {**self.shared(self.families, entry["family"], "family"), **entry}
            _checked(entry, _RECIPE_KEYS, f"{where} (family {entry['family']})")
        template = Template(
            entry["api"],
            entry["target"],
            tuple(self.arg(a, where) for a in entry.get("args", ())),
            method=entry.get("method", False),
            note=entry.get("note", ""),
            format=entry.get("format", ""),
            receiver_first=entry.get("receiver_first", False),
            fixed=tuple(entry.get("fixed", ())),
        )
        return Recipe(
            template,
            tuple(self.sample(sample, entry, where) for sample in entry.get("samples", ())),
            strategy=entry.get("strategy", "mapped"),
            kind=entry.get("kind", "function"),
            param_map=tuple(tuple(pair) for pair in entry.get("param_map", ())),
            grad=entry.get("grad", False),
            threshold=entry.get("threshold"),
        )


@functools.cache
def _recipes() -> tuple[Recipe, ...]:
    """The table, read once per process on first use: parsing it costs a few milliseconds,
    which a command that never rewrites a call does not pay."""
    text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
    return _Table(tomllib.loads(text)).recipes


@functools.cache
def _by_api() -> dict[str, tuple[Recipe, ...]]:
    grouped: dict[str, tuple[Recipe, ...]] = {}
    for recipe in _recipes():
        grouped[recipe.template.api] = (*grouped.get(recipe.template.api, ()), recipe)
    return grouped


def recipes_for(api: str) -> tuple[Recipe, ...]:
    """The recipes of one PyTorch API, in the table's order."""
    return _by_api().get(api, ())


def __getattr__(name: str) -> tuple[Recipe, ...]:
    """``RECIPES``: every substitution, in the table's order."""
    if name != "RECIPES":
        raise AttributeError(name)
    return _recipes()
