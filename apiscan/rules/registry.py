"""Every rule, found by importing the rule packages, validated once, looked up by id.

Rules are discovered rather than listed: each module of a rule package defines exactly one rule
and is named after it (``ds101_unique.py`` holds ``DS101`` ``unique``), so adding a rule is
adding a file, and a file that does not match its rule is caught here. Ids are stable for ever:
a rule that is removed puts its id into :data:`RETIRED_IDS`, so old suppression comments and
saved reports never come to mean something else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator

from apiscan.rules.base import ID_PATTERN, NAME_PATTERN, Rule, RuleDefinitionError, validate_rule

#: Packages whose modules each define one rule.
RULE_PACKAGES: tuple[str, ...] = ("apiscan.rules.dynamic_shape",)
#: Ids of removed rules; never assigned again.
RETIRED_IDS: frozenset[str] = frozenset()


def module_name(rule: type[Rule]) -> str:
    """The module a rule lives in: ``DS101`` ``unique`` → ``ds101_unique``."""
    return f"{rule.id.lower()}_{rule.name.replace('-', '_')}"


def rules_in_package(package: str) -> Iterator[type[Rule]]:
    """Import every module of ``package`` and yield the one rule each defines.

    The rules are validated by :func:`build_registry`; here only the module layout is checked
    (a module whose rule has a malformed id or name is left for the validation to explain).
    """
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package}.{info.name}")
        found = [
            obj
            for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
        ]
        if len(found) != 1:
            raise RuleDefinitionError(
                f"{module.__name__}: a rule module defines exactly one rule, found {len(found)}"
            )
        rule = found[0]
        well_formed = ID_PATTERN.fullmatch(str(rule.id)) and NAME_PATTERN.fullmatch(str(rule.name))
        if well_formed and info.name != module_name(rule):
            raise RuleDefinitionError(
                f"{module.__name__}: rule {rule.id} {rule.name} belongs in a module named "
                f"{module_name(rule)}"
            )
        yield rule


def build_registry(
    rules: Iterable[type[Rule]], retired: frozenset[str] = RETIRED_IDS, examples: bool = True
) -> dict[str, type[Rule]]:
    """Validate ``rules`` and index them by id (sorted); raise on any clash. ``examples``: see
    :func:`~apiscan.rules.base.validate_rule`."""
    by_id: dict[str, type[Rule]] = {}
    by_name: dict[str, str] = {}
    for rule in rules:
        validate_rule(rule, examples)
        if rule.id in retired:
            raise RuleDefinitionError(f"{rule.__qualname__}: id {rule.id} is retired")
        if rule.id in by_id:
            raise RuleDefinitionError(
                f"{rule.__qualname__}: id {rule.id} is already taken by "
                f"{by_id[rule.id].__qualname__}"
            )
        if rule.name in by_name:
            raise RuleDefinitionError(
                f"{rule.__qualname__}: name {rule.name!r} is already taken by {by_name[rule.name]}"
            )
        by_id[rule.id] = rule
        by_name[rule.name] = rule.id
    return dict(sorted(by_id.items()))


#: Built on import, so a malformed rule fails every command loudly; its examples (parsed and
#: tokenized: a twentieth of a second on every scan) are checked by the tests of every rule.
_REGISTRY: dict[str, type[Rule]] = build_registry(
    (rule for package in RULE_PACKAGES for rule in rules_in_package(package)), examples=False
)


def all_rules() -> tuple[type[Rule], ...]:
    """Every rule, sorted by id."""
    return tuple(_REGISTRY.values())


def get_rule(rule_id: str) -> type[Rule]:
    """The rule with this id; ``KeyError`` listing the known ids otherwise."""
    try:
        return _REGISTRY[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule {rule_id!r}; known rules: {', '.join(_REGISTRY)}") from None
