"""The rule contract: one small class per check, carrying its own documentation and examples.

A rule is data, not a visitor: the dynamic-shape detection runs inside the extractor's single
traversal (it needs the extractor's value tracking), and reports hits by rule id. The class says
everything a person needs to act on a hit (Fixit and ruff keep rules the same way): a stable
``id``, a kebab-case ``name``, a one-line ``message``, how severe a hit is in each scope, the
torch APIs it concerns and their MindSpore counterparts, the usual rewrite, and VALID / INVALID
examples that the test-suite scans and ``apiscan explain`` prints.

The docstring has fixed sections so that ``apiscan explain`` and ``docs/rules/`` can render it
without guessing. :func:`validate_rule` checks all of this; the registry calls it on import, so a
malformed rule stops the tool at once instead of producing half-documented findings (the
examples themselves are checked by the tests, not on every start).
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import string
import textwrap
import tokenize
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from apiscan.model import SCOPES, SEVERITIES

#: Docstring sections every rule has, in this order.
SECTIONS: tuple[str, ...] = ("Why it breaks on MindSpore", "Example", "Instead", "References")
#: The comment that marks a line of an INVALID example the rule must flag.
ERROR_MARKER = "# error"
#: A line starting an example's next file (``# file: pkg/loss.py``): examples whose cause and
#: effect live in different files are written as several files in one string.
FILE_MARKER = "# file: "
#: The file name of an example that names none.
DEFAULT_EXAMPLE_FILE = "example.py"

ID_PATTERN = re.compile(r"[A-Z]+[0-9]{3}")
NAME_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_UNDERLINE = re.compile(r"-{3,}")
#: Top-level packages an example may import to count as PyTorch code.
_TORCH_ROOTS = frozenset({"torch", "torchvision", "torchaudio"})


class RuleDefinitionError(Exception):
    """A rule class breaks the contract (raised when the registry is imported)."""


def severities(*, network: str, data: str, host: str) -> Mapping[str, str]:
    """A read-only severity-by-scope table; keyword-only so a rule cannot mix up the scopes."""
    return MappingProxyType({"network": network, "data": data, "host": host})


class Rule:
    """Base class of every rule; subclasses set the class attributes and write the docstring.

    The docstring opens with a one-paragraph summary, then has the sections of
    :data:`SECTIONS`, each a title line underlined with dashes.
    """

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    #: One line; may contain ``{detail}`` (what made this site dynamic), else the detail is
    #: appended in parentheses by :meth:`format_message`.
    message: ClassVar[str] = ""
    severity_by_scope: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: Canonical torch (or torchvision, torch_scatter, random...) names the rule concerns.
    apis: ClassVar[tuple[str, ...]] = ()
    #: MindSpore counterparts, looked up in the official dynamic-shape support lists.
    mindspore_apis: ClassVar[tuple[str, ...]] = ()
    #: The usual rewrite, one line.
    suggestion: ClassVar[str] = ""
    #: Code the rule must not flag.
    VALID: ClassVar[tuple[str, ...]] = ()
    #: Code the rule must flag exactly on the lines ending with ``# error``.
    INVALID: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def severity(cls, scope: str) -> str:
        """How bad a hit is in ``scope`` (``network``, ``data`` or ``host``)."""
        return cls.severity_by_scope[scope]

    @classmethod
    def format_message(cls, detail: str = "") -> str:
        """The message for one hit; ``detail`` says what made this particular site dynamic."""
        if "{detail}" in cls.message:
            return cls.message.format(detail=detail)
        return f"{cls.message} ({detail})" if detail else cls.message

    @classmethod
    def summary(cls) -> str:
        """The docstring's opening paragraph."""
        return parse_docstring(cls.__doc__ or "")[0]

    @classmethod
    def sections(cls) -> dict[str, str]:
        """The docstring's sections by title, in :data:`SECTIONS` order."""
        return parse_docstring(cls.__doc__ or "")[1]

    @classmethod
    def valid_examples(cls) -> tuple[str, ...]:
        return tuple(example_source(e) for e in cls.VALID)

    @classmethod
    def invalid_examples(cls) -> tuple[str, ...]:
        return tuple(example_source(e) for e in cls.INVALID)


def example_source(text: str) -> str:
    """An example as a file would hold it: dedented, no leading blank line, one final newline.

    Examples are written indented inside the class body; the scanner sees them flush-left.
    """
    return textwrap.dedent(text).strip("\n") + "\n"


def example_files(source: str) -> dict[str, str]:
    """An example's files by relative path: one ``example.py`` unless the example starts
    files with :data:`FILE_MARKER` lines (the marker lines themselves belong to no file)."""
    if not source.startswith(FILE_MARKER):
        return {DEFAULT_EXAMPLE_FILE: source}
    files: dict[str, list[str]] = {}
    current: list[str] = []
    for line in source.splitlines(keepends=True):
        if line.startswith(FILE_MARKER):
            current = files.setdefault(line[len(FILE_MARKER) :].strip(), [])
        else:
            current.append(line)
    return {path: "".join(lines).strip("\n") + "\n" for path, lines in files.items()}


def error_sites(source: str) -> frozenset[tuple[str, int]]:
    """(file, line) of every ``# error`` mark of an example, single- or multi-file."""
    return frozenset(
        (path, line) for path, code in example_files(source).items() for line in error_lines(code)
    )


def error_lines(source: str) -> frozenset[int]:
    """The 1-based lines of ``source`` whose comment is exactly ``# error``.

    Uses ``tokenize`` so that the marker inside a string literal does not count.
    """
    if ERROR_MARKER not in source:
        return frozenset()
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and tok.string.strip() == ERROR_MARKER:
            lines.add(tok.start[0])
    return frozenset(lines)


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a rule docstring into its summary and its sections (title → body).

    A section starts at a line followed by a line of dashes. Raises ``ValueError`` when the
    summary is missing, a section is unknown, repeated, empty or out of order, or one of
    :data:`SECTIONS` is missing: documentation that reads wrong is a bug like any other.
    """
    lines = inspect.cleandoc(doc).splitlines()
    starts = [
        i
        for i in range(len(lines) - 1)
        if lines[i].strip() and _UNDERLINE.fullmatch(lines[i + 1].strip())
    ]
    summary = "\n".join(lines[: starts[0]] if starts else lines).strip()
    if not summary:
        raise ValueError("the docstring has no summary paragraph before its sections")
    sections: dict[str, str] = {}
    for n, start in enumerate(starts):
        title = lines[start].strip()
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        body = "\n".join(lines[start + 2 : end]).strip()
        if title not in SECTIONS:
            raise ValueError(f"unknown docstring section {title!r}; sections are {SECTIONS}")
        if title in sections:
            raise ValueError(f"docstring section {title!r} appears twice")
        if not body:
            raise ValueError(f"docstring section {title!r} is empty")
        sections[title] = body
    missing = [s for s in SECTIONS if s not in sections]
    if missing:
        raise ValueError(f"docstring lacks section(s): {', '.join(missing)}")
    if tuple(sections) != SECTIONS:
        raise ValueError(f"docstring sections must come in this order: {', '.join(SECTIONS)}")
    if "http" not in sections["References"]:
        raise ValueError("the References section cites no URL")
    return summary, sections


def validate_rule(rule: type[Rule], examples: bool = True) -> None:
    """Raise :class:`RuleDefinitionError` naming the first way ``rule`` breaks the contract.
    ``examples``: also parse the VALID/INVALID examples and find their marks (what the tests
    check of every rule; the registry's import leaves it out, half its cost on every scan)."""
    where = f"{rule.__module__}.{rule.__qualname__}"
    try:
        _check(rule, examples)
    except (ValueError, TypeError) as exc:
        raise RuleDefinitionError(f"{where}: {exc}") from None


def _check(rule: type[Rule], examples: bool = True) -> None:
    if not (isinstance(rule, type) and issubclass(rule, Rule)) or rule is Rule:
        raise TypeError("not a subclass of apiscan.rules.base.Rule")
    if not isinstance(rule.id, str) or not ID_PATTERN.fullmatch(rule.id):
        raise ValueError(f"id {rule.id!r} is not a prefix of capitals and three digits")
    if not isinstance(rule.name, str) or not NAME_PATTERN.fullmatch(rule.name):
        raise ValueError(f"name {rule.name!r} is not kebab-case")
    _check_one_line("message", rule.message)
    fields = {f for _, f, _, _ in string.Formatter().parse(rule.message) if f is not None}
    if fields - {"detail"}:
        raise ValueError(f"message may only contain {{detail}}, not {sorted(fields)}")
    _check_one_line("suggestion", rule.suggestion)
    if set(rule.severity_by_scope) != set(SCOPES):
        raise ValueError(f"severity_by_scope must give exactly the scopes {SCOPES}")
    bad = {s: v for s, v in rule.severity_by_scope.items() if v not in SEVERITIES}
    if bad:
        raise ValueError(f"severities must be one of {SEVERITIES}, got {bad}")
    _check_names("apis", rule.apis, "")
    _check_names("mindspore_apis", rule.mindspore_apis, "mindspore.")
    doc = rule.__dict__.get("__doc__")
    if not doc:
        raise ValueError("the rule has no docstring of its own")
    parse_docstring(doc)
    if examples:
        _check_examples("VALID", rule.VALID, marked=False)
        _check_examples("INVALID", rule.INVALID, marked=True)


def _check_one_line(attr: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{attr} is empty")
    if "\n" in value:
        raise ValueError(f"{attr} must be one line")


def _check_names(attr: str, names: object, prefix: str) -> None:
    if not isinstance(names, tuple):
        raise TypeError(f"{attr} must be a tuple of dotted names")
    for name in names:
        if not isinstance(name, str) or not _DOTTED.fullmatch(name) or not name.startswith(prefix):
            raise ValueError(f"{attr}: {name!r} is not a dotted name starting with {prefix!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{attr} lists a name twice")


def _check_examples(attr: str, examples: object, *, marked: bool) -> None:
    if not isinstance(examples, tuple) or not examples:
        raise ValueError(f"{attr} needs at least one example (a tuple of code strings)")
    for n, raw in enumerate(examples, 1):
        if not isinstance(raw, str):
            raise TypeError(f"{attr} example {n} is not a string")
        source = example_source(raw)
        trees = []
        for path, code in example_files(source).items():
            try:
                trees.append(ast.parse(code))
            except SyntaxError as exc:
                raise ValueError(
                    f"{attr} example {n} ({path}) does not parse: {exc.msg} (line {exc.lineno})"
                ) from None
        if not any(_imports_torch(tree) for tree in trees):
            raise ValueError(f"{attr} example {n} does not import torch")
        marks = error_sites(source)
        if marked and not marks:
            raise ValueError(f"{attr} example {n} marks no line with {ERROR_MARKER!r}")
        if not marked and marks:
            raise ValueError(f"{attr} example {n} marks lines {sorted(marks)}: VALID flags none")


def _imports_torch(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots = {node.module.partition(".")[0]}
        else:
            continue
        if roots & _TORCH_ROOTS:
            return True
    return False
