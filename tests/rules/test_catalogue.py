"""The rule catalogue: the contract every rule class keeps, the registry, docs, and the CLI.

A malformed rule must fail loudly when the registry is built (each way of breaking the contract
has a case here); the real catalogue must pass the same checks, name only APIs that exist in
torch 2.13 / MindSpore 2.10, and match the generated ``docs/rules/``.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from apiscan.cli.rules import run_explain, run_rules
from apiscan.model import SCOPES, SEVERITIES
from apiscan.rules.base import (
    SECTIONS,
    Rule,
    RuleDefinitionError,
    error_lines,
    parse_docstring,
    severities,
    validate_rule,
)
from apiscan.rules.registry import (
    RETIRED_IDS,
    all_rules,
    build_registry,
    get_rule,
    module_name,
    rules_in_package,
)

REPO = Path(__file__).resolve().parents[2]
DOC = """A made-up rule for the contract tests.

Why it breaks on MindSpore
--------------------------
Because.

Example
-------
``torch.unique(x)``

Instead
-------
A mask.

References
----------
- https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
"""
VALID_SRC = "import torch\n\n\ndef f(x):\n    return x[:, :4]\n"
INVALID_SRC = "import torch\n\n\ndef f(x):\n    return torch.unique(x)  # error\n"


def make_rule(doc: str | None = DOC, **attrs: Any) -> type[Rule]:
    """A rule class that passes validation unless ``doc``/``attrs`` break it."""
    body: dict[str, Any] = {
        "__doc__": doc,
        "__module__": __name__,
        "id": "DS901",
        "name": "made-up",
        "message": "a made-up finding",
        "severity_by_scope": severities(network="high", data="low", host="low"),
        "apis": ("torch.unique",),
        "mindspore_apis": ("mindspore.ops.unique",),
        "suggestion": "use a mask",
        "VALID": (VALID_SRC,),
        "INVALID": (INVALID_SRC,),
    }
    body.update(attrs)
    return type("MadeUp", (Rule,), body)


def _drop_section(title: str) -> str:
    head, _, rest = DOC.partition(f"{title}\n{'-' * len(title)}\n")
    return head + rest.split("\n\n", 1)[1]


# ------------------------------------------------------------------ malformed rules raise

MALFORMED: dict[str, tuple[Callable[[], type[Rule]], str]] = {
    "no docstring": (lambda: make_rule(doc=None), "no docstring"),
    "missing section": (lambda: make_rule(doc=_drop_section("Instead")), "lacks section"),
    "unknown section": (
        lambda: make_rule(doc=DOC.replace("Instead\n-------", "Notes\n-----")),
        "unknown docstring section",
    ),
    "sections out of order": (
        lambda: make_rule(
            doc=DOC.replace("Example\n-------\n``torch.unique(x)``", "X").replace(
                "Instead\n-------\nA mask.",
                "Instead\n-------\nA mask.\n\nExample\n-------\n``torch.unique(x)``",
            )
        ),
        "order",
    ),
    "empty section": (
        lambda: make_rule(doc=DOC.replace("Because.", "")),
        "is empty",
    ),
    "no summary": (
        lambda: make_rule(doc=DOC.split("\n\n", 1)[1]),
        "no summary",
    ),
    "references without URL": (
        lambda: make_rule(doc=DOC.replace("https://", "see ")),
        "cites no URL",
    ),
    "id without digits": (lambda: make_rule(id="DS"), "id 'DS'"),
    "id lower case": (lambda: make_rule(id="ds101"), "id 'ds101'"),
    "id with four digits": (lambda: make_rule(id="DS1011"), "id 'DS1011'"),
    "name not kebab-case": (lambda: make_rule(name="Made_Up"), "kebab-case"),
    "two-line message": (lambda: make_rule(message="one\ntwo"), "one line"),
    "unknown placeholder": (lambda: make_rule(message="bad {api}"), "may only contain"),
    "empty suggestion": (lambda: make_rule(suggestion=""), "suggestion is empty"),
    "scope missing": (
        lambda: make_rule(severity_by_scope={"network": "high", "data": "low"}),
        "exactly the scopes",
    ),
    "unknown severity": (
        lambda: make_rule(severity_by_scope=severities(network="fatal", data="low", host="low")),
        "severities must be one of",
    ),
    "apis not a tuple": (lambda: make_rule(apis=["torch.unique"]), "must be a tuple"),
    "api not dotted": (lambda: make_rule(apis=("unique",)), "not a dotted name"),
    "api twice": (lambda: make_rule(apis=("torch.unique", "torch.unique")), "twice"),
    "foreign MindSpore API": (
        lambda: make_rule(mindspore_apis=("torch.unique",)),
        "starting with 'mindspore.'",
    ),
    "no VALID example": (lambda: make_rule(VALID=()), "VALID needs at least one"),
    "no INVALID example": (lambda: make_rule(INVALID=()), "INVALID needs at least one"),
    "examples as a string": (lambda: make_rule(VALID=VALID_SRC), "VALID needs at least one"),
    "INVALID without marker": (
        lambda: make_rule(INVALID=(INVALID_SRC.replace("  # error", ""),)),
        "marks no line",
    ),
    "VALID with marker": (lambda: make_rule(VALID=(INVALID_SRC,)), "VALID flags none"),
    "example does not parse": (
        lambda: make_rule(INVALID=("import torch\ndef f(:  # error\n",)),
        "does not parse",
    ),
    "example without torch": (
        lambda: make_rule(VALID=("import numpy as np\n\nx = np.zeros(3)\n",)),
        "does not import torch",
    ),
    "marker only inside a string": (
        lambda: make_rule(INVALID=('import torch\n\nx = "# error"\n',)),
        "marks no line",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_rule_raises(case: str) -> None:
    build, words = MALFORMED[case]
    rule = build()
    with pytest.raises(RuleDefinitionError, match=re.escape(words)):
        validate_rule(rule)
    with pytest.raises(RuleDefinitionError, match=re.escape(words)):
        build_registry([rule])


def test_the_import_time_registry_leaves_the_examples_to_the_tests() -> None:
    """The registry built on import checks everything but the examples (parsed and
    tokenized on every scan otherwise); :func:`test_rule_is_complete` checks them."""
    rule = make_rule(INVALID=("import torch\ndef f(:  # error\n",))
    assert build_registry([rule], examples=False) == {"DS901": rule}
    with pytest.raises(RuleDefinitionError, match="does not parse"):
        build_registry([rule])
    with pytest.raises(RuleDefinitionError, match="kebab-case"):
        build_registry([make_rule(name="Made_Up")], examples=False)


def test_well_formed_made_up_rule_passes() -> None:
    """The base of every malformed case is itself valid, so each case breaks exactly one thing."""
    rule = make_rule()
    validate_rule(rule)
    assert build_registry([rule]) == {"DS901": rule}


def test_inherited_docstring_does_not_count() -> None:
    parent = make_rule()
    child = type("Child", (parent,), {"__doc__": None, "__module__": __name__, "id": "DS902"})
    with pytest.raises(RuleDefinitionError, match="no docstring"):
        validate_rule(child)


def test_duplicate_id_name_and_retired_id_raise() -> None:
    first = make_rule()
    same_id = make_rule(name="other-name")
    same_name = make_rule(id="DS902")
    with pytest.raises(RuleDefinitionError, match="DS901 is already taken"):
        build_registry([first, same_id])
    with pytest.raises(RuleDefinitionError, match="name 'made-up' is already taken"):
        build_registry([first, same_name])
    with pytest.raises(RuleDefinitionError, match="DS901 is retired"):
        build_registry([first], retired=frozenset({"DS901"}))


def _rule_module(rule_id: str, name: str, class_name: str = "MadeUp") -> str:
    return textwrap.dedent(
        f'''
        from apiscan.rules.base import Rule, severities


        class {class_name}(Rule):
            {DOC!r}

            id = "{rule_id}"
            name = "{name}"
            message = "a made-up finding"
            severity_by_scope = severities(network="high", data="low", host="low")
            suggestion = "use a mask"
            VALID = ({VALID_SRC!r},)
            INVALID = ({INVALID_SRC!r},)
        '''
    )


@pytest.fixture
def rule_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[dict[str, str]], str]]:
    """Write a throw-away rule package (module name → source) and return its import name."""
    counter = iter(range(1000))

    def write(files: dict[str, str]) -> str:
        package = f"madeup_rules_{next(counter)}"
        folder = tmp_path / package
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        for module, source in files.items():
            (folder / f"{module}.py").write_text(source)
        return package

    monkeypatch.syspath_prepend(str(tmp_path))
    yield write
    for name in [m for m in sys.modules if m.startswith("madeup_rules_")]:
        del sys.modules[name]


def test_package_discovery_finds_one_rule_per_module(rule_package: Callable[..., str]) -> None:
    package = rule_package({"ds901_made_up": _rule_module("DS901", "made-up")})
    rules = list(rules_in_package(package))
    assert [(r.id, r.name) for r in rules] == [("DS901", "made-up")]


@pytest.mark.parametrize(
    ("files", "words"),
    [
        ({"ds901_wrong_name": _rule_module("DS901", "made-up")}, "module named ds901_made_up"),
        (
            {
                "ds901_made_up": _rule_module("DS901", "made-up")
                + _rule_module("DS902", "second", "Second")
            },
            "exactly one rule, found 2",
        ),
        ({"ds901_made_up": "X = 1\n"}, "exactly one rule, found 0"),
        ({"ds901_made_up": _rule_module("DS901", "made-up").replace("INVALID", "NOPE")}, "INVALID"),
    ],
    ids=["module name mismatch", "two rules in a module", "no rule", "no INVALID"],
)
def test_package_discovery_rejects_malformed_modules(
    rule_package: Callable[..., str], files: dict[str, str], words: str
) -> None:
    package = rule_package(files)
    with pytest.raises(RuleDefinitionError, match=re.escape(words)):
        build_registry(rules_in_package(package))


# ------------------------------------------------------------------ the real catalogue

RULES = all_rules()


def test_catalogue_covers_ds101_to_ds119_sorted_and_unique() -> None:
    ids = [r.id for r in RULES]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    assert len({r.name for r in RULES}) == len(RULES)
    assert {f"DS{n}" for n in range(101, 120)} <= set(ids)
    assert not set(ids) & RETIRED_IDS
    for rule in RULES:
        assert re.fullmatch(r"[A-Z]+[0-9]{3}", rule.id)
        assert get_rule(rule.id) is rule
        assert rule.__module__.rpartition(".")[2] == module_name(rule)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_rule_is_complete(rule: type[Rule]) -> None:
    validate_rule(rule)
    assert rule.valid_examples() and rule.invalid_examples()
    for source in rule.invalid_examples():
        assert error_lines(source)
    summary, sections = parse_docstring(rule.__doc__ or "")
    assert summary and tuple(sections) == SECTIONS
    assert {rule.severity(s) for s in SCOPES} <= set(SEVERITIES)
    assert rule.format_message("k = int(t)").endswith("(k = int(t))")


def test_get_rule_unknown_id_lists_known_ids() -> None:
    with pytest.raises(KeyError) as info:
        get_rule("DS999")
    text = str(info.value)
    assert "DS999" in text
    assert all(r.id in text for r in RULES)


def test_torch_apis_are_canonical_names_of_torch_2_13() -> None:
    """A rule's ``apis`` must be spelled as the extractor reports them, or nothing matches."""
    from apiscan.resolve.torch_api import load_torch_api

    index = load_torch_api()
    foreign_roots = {"torchvision", "torch_scatter", "random", "numpy"}
    for rule in RULES:
        for api in rule.apis:
            if api.partition(".")[0] == "torch":
                assert index.canonical(api) == api, (rule.id, api)
            else:
                assert api.partition(".")[0] in foreign_roots, (rule.id, api)


def _resolve(name: str) -> object:
    """Import the longest importable module prefix of ``name``, then follow attributes."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)  # AttributeError names the missing part
        return obj
    raise ImportError(name)


def test_mindspore_apis_exist_in_mindspore_2_10() -> None:
    for rule in RULES:
        for name in rule.mindspore_apis:
            assert callable(_resolve(name)), (rule.id, name)


# ------------------------------------------------------------------ generated docs


def _docs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_rule_docs", REPO / "scripts" / "gen_rule_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_docs_are_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert _docs_script().main(["--check"]) == 0, capsys.readouterr().err


def test_docs_check_reports_missing_outdated_and_extra_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _docs_script()
    assert script.main(["--check", "--out", str(tmp_path)]) == 1
    assert "missing:" in capsys.readouterr().err
    assert script.main(["--out", str(tmp_path)]) == 0
    assert script.main(["--check", "--out", str(tmp_path)]) == 0
    page = tmp_path / "DS101.md"
    page.write_text(page.read_text() + "hand edit\n")
    (tmp_path / "DS998.md").write_text("old rule\n")
    assert script.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "outdated:" in err and "DS101.md" in err
    assert "not generated" in err and "DS998.md" in err
    pages = {p.name for p in tmp_path.glob("*.md")}
    assert pages == {f"{r.id}.md" for r in RULES} | {"README.md", "DS998.md"}


def test_rule_page_holds_every_section_and_example() -> None:
    script = _docs_script()
    rule = get_rule("DS109")
    page = script.rule_page(rule)
    for title in SECTIONS:
        assert f"## {title}" in page
    for source in (*rule.valid_examples(), *rule.invalid_examples()):
        assert source.rstrip("\n") in page
    assert rule.message in page and rule.suggestion in page
    assert "::" not in page.replace("mindspore.ops", "")  # reST literal markers are converted


# ------------------------------------------------------------------ apiscan rules / explain


def test_rules_text_lists_every_rule_with_severities(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_rules([]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line[:2] == "DS"}
    assert set(rows) == {r.id for r in RULES}
    for rule in RULES:
        row = rows[rule.id]
        assert row[1] == rule.name
        assert row[2:5] == [rule.severity(s) for s in SCOPES]
    assert "unique_consecutive" in out


def test_rules_json_is_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_rules(["--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data] == [r.id for r in RULES]
    ds101 = data[0]
    assert ds101["severity"] == {"network": "high", "data": "low", "host": "low"}
    assert "torch.unique_consecutive" in ds101["apis"]
    assert ds101["mindspore_apis"][0] == "mindspore.ops.unique"
    assert ds101["summary"].startswith("``unique`` returns")


def test_rules_rejects_unknown_format() -> None:
    with pytest.raises(SystemExit) as info:
        run_rules(["--format", "xml"])
    assert info.value.code == 2


@pytest.mark.parametrize("spelling", ["DS101", "ds101", "unique"])
def test_explain_prints_the_whole_rule(spelling: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_explain([spelling]) == 0
    out = capsys.readouterr().out
    rule = get_rule("DS101")
    assert out.startswith("DS101 unique\n")
    for text in (rule.message, rule.suggestion, *SECTIONS):
        assert text in out
    for source in (*rule.valid_examples(), *rule.invalid_examples()):
        for line in source.splitlines():
            assert line in out
    assert "mindspore.ops.unique (dynamic shape on Ascend, GPU, CPU)" in out
    assert "network high, data low, host low" in out


def test_explain_unknown_rule_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_explain(["DS999"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert "DS999" in lines[0] and all(r.id in lines[0] for r in RULES)


def test_explain_without_argument_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        run_explain([])
    assert info.value.code == 2
