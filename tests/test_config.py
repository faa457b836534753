"""Configuration: ``[tool.apiscan]`` / ``apiscan.toml`` found by walking up, its precedence
under the command line, its errors (file and key named, exit 2), and ``apiscan config``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.cli.main import main
from apiscan.config import Ignores, find_config, path_matches, resolve

#: torch.set_num_threads is missing; torch.unique is a dynamic shape (DS101).
SRC = "import torch\n\ntorch.set_num_threads(2)\ny = torch.unique(torch.zeros(3))\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _effective(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, dict[str, object]]:
    code, out, err = _cli(capsys, "config", str(path), "-f", "json")
    assert code == 0, err
    return json.loads(out)["settings"]


def _findings(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    code, out, err = _cli(capsys, *args, "-f", "json", "--no-cache")
    assert code in (0, 1), err
    return code, json.loads(out)["findings"]


def test_walks_up_to_the_nearest_file_and_apiscan_toml_wins(tmp_path: Path) -> None:
    write_repo(tmp_path, {"a/b/m.py": SRC, "a/pyproject.toml": "[tool.black]\n"})
    assert find_config(tmp_path / "a" / "b" / "m.py") is None  # no [tool.apiscan] table
    (tmp_path / "pyproject.toml").write_text('[tool.apiscan]\nfail-on = "missing"\n')
    assert find_config(tmp_path / "a" / "b") == tmp_path / "pyproject.toml"
    (tmp_path / "a" / "pyproject.toml").write_text("[tool.apiscan]\n")
    assert find_config(tmp_path / "a" / "b" / "m.py") == tmp_path / "a" / "pyproject.toml"
    (tmp_path / "a" / "apiscan.toml").write_text("")
    assert find_config(tmp_path / "a" / "b") == tmp_path / "a" / "apiscan.toml"


def test_precedence_default_then_file_then_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    settings = _effective(capsys, root)
    assert settings["ms-version"] == {"value": None, "source": "default"}
    (root / "apiscan.toml").write_text(
        'ms-version = "2.4"\nfail-on = "missing"\nverify-dtype = "float16"\n'
    )
    settings = _effective(capsys, root)
    source = str(root / "apiscan.toml")
    assert settings["ms-version"] == {"value": "2.4", "source": source}
    assert settings["fail-on"] == {"value": "missing", "source": source}
    assert settings["verify-device"] == {"value": "CPU", "source": "default"}
    # The command line beats the file.
    cli = resolve(root, {"ms-version": "2.0", "fail-on": None})
    assert (cli["ms-version"], cli.sources["ms-version"]) == ("2.0", "command line")
    assert (cli["fail-on"], cli.sources["fail-on"]) == ("missing", source)
    # ... as the scan shows: fail-on from the file gates the exit code; --ms-version wins.
    code, out, _ = _cli(capsys, str(root), "-f", "json", "--no-cache")
    assert code == 1
    assert json.loads(out)["mapping"]["ms_version"] == "2.4"
    code, out, _ = _cli(capsys, str(root), "-f", "json", "--no-cache", "--ms-version", "2.0")
    assert json.loads(out)["mapping"]["ms_version"] == "2.0"


def test_config_text_names_the_file_and_each_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.apiscan]\nmax-file-size = 5000\n'
        'per-file-ignores = { "tests/*" = ["DS1"] }\n'
    )
    code, out, _ = _cli(capsys, "config", str(root))
    assert code == 0
    assert out.splitlines()[0] == f"# configuration file: {root / 'pyproject.toml'}"
    assert f"max-file-size = 5000  # {root / 'pyproject.toml'}" in out
    assert f'per-file-ignores = {{ "tests/*" = ["DS1"] }}  # {root / "pyproject.toml"}' in out
    assert 'verify-dtype = "float32"  # default' in out
    target = tmp_path / "settings.json"
    assert _cli(capsys, "config", str(root), "-f", "json", "-o", str(target))[0] == 0
    assert json.loads(target.read_text())["config_file"] == str(root / "pyproject.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus = 1\n", "unknown key 'bogus'; known keys: exclude,"),
        ("fail_on = 'missing'\n", "unknown key 'fail_on' (did you mean 'fail-on'?)"),
        ('ms-version = "9.9"\n', "ms-version = '9.9': expected one of 2.6, 2.4"),
        ("max-file-size = -1\n", "max-file-size = -1: expected a positive number of bytes"),
        ("max-file-size = true\n", "max-file-size = True: expected a positive number"),
        ('fail-on = "all"\n', "fail-on = 'all': expected one of different, missing"),
        ('verify-device = "TPU"\n', "verify-device = 'TPU': expected one of CPU, GPU, Ascend"),
        ('ignore = ["ds1"]\n', "ignore = ['ds1']: expected a list of rule ids"),
        ('exclude = "vendor"\n', "exclude = 'vendor': expected a list of glob strings"),
        (
            'per-file-ignores = { "tests/*" = "DS1" }\n',
            "per-file-ignores \"tests/*\" = 'DS1': expected a list of rule ids",
        ),
        ("respect-ignore-files = 1\n", "respect-ignore-files = 1: expected true or false"),
        ("fail-on = \n", "not valid TOML"),
    ],
)
def test_bad_configuration_is_one_line_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    (root / "apiscan.toml").write_text(text)
    for args in ((str(root),), ("config", str(root))):
        code, out, err = _cli(capsys, *args)
        assert code == 2 and out == ""
        assert err.startswith(f"apiscan: error: {root / 'apiscan.toml'}: ")
        assert message in err
        assert len(err.splitlines()) == 1


def test_pyproject_errors_name_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    (root / "pyproject.toml").write_text("[tool.apiscan]\nfailon = 1\n")
    code, _, err = _cli(capsys, str(root))
    assert code == 2
    assert f"{root / 'pyproject.toml'}: [tool.apiscan] unknown key 'failon'" in err


def test_ignores_and_per_file_ignores_drop_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC, "tests/t.py": SRC})
    _, findings = _findings(capsys, str(root))
    kinds = {(f["path"], f["kind"]) for f in findings}
    assert ("tests/t.py", "dynamic_shape") in kinds and ("m.py", "dynamic_shape") in kinds
    (root / "apiscan.toml").write_text('per-file-ignores = { "tests/*" = ["DS1"] }\n')
    _, findings = _findings(capsys, str(root))
    assert {f["path"] for f in findings if f["kind"] == "dynamic_shape"} == {"m.py"}
    assert {f["path"] for f in findings if f["kind"] == "api"} == {"m.py", "tests/t.py"}
    # Patterns are relative to the configuration's directory, wherever the scan starts.
    _, findings = _findings(capsys, str(root / "tests"))
    assert [f["kind"] for f in findings if f["kind"] == "dynamic_shape"] == []
    (root / "apiscan.toml").write_text('ignore = ["DS101", "API"]\n')
    _, findings = _findings(capsys, str(root))
    assert findings == []


def test_exclude_from_the_file_and_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(
        tmp_path / "repo", {"m.py": SRC, "vendor/v.py": SRC, "legacy/l.py": SRC, "sub/s.py": SRC}
    )
    (root / "apiscan.toml").write_text('exclude = ["vendor"]\nextend-exclude = ["sub/s.py"]\n')
    _, findings = _findings(capsys, str(root))
    assert {f["path"] for f in findings} == {"m.py", "legacy/l.py"}
    # --exclude replaces exclude; extend-exclude still applies.
    _, findings = _findings(capsys, str(root), "--exclude", "legacy")
    assert {f["path"] for f in findings} == {"m.py", "vendor/v.py"}
    # Scanning a sub-directory: "sub/s.py" is rebased onto it, so nothing is left to scan.
    assert main([str(root / "sub"), "-f", "json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"apiscan: error: every Python file in {root / 'sub'} is excluded")
    assert err.endswith(" patterns or ignore files): nothing to scan\n")


def test_max_file_size_from_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    (root / "apiscan.toml").write_text("max-file-size = 10\n")
    _, findings = _findings(capsys, str(root))
    assert [f["kind"] for f in findings] == ["error"]


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        ("tests/a/t.py", "tests/*", True),
        ("tests/t.py", "tests", True),
        ("tests/t.py", "tests/", True),
        ("src/tests/t.py", "tests/*", False),
        ("src/x_test.py", "*_test.py", True),
        ("src/x_test.py", "x_test.py", True),
        ("src/x_test.py", "other/x_test.py", False),
    ],
)
def test_path_patterns(path: str, pattern: str, expected: bool) -> None:
    assert path_matches(path, pattern) is expected


def test_rule_prefixes() -> None:
    ignores = Ignores(("DS1",), (("tests/*", ("API0",)),), prefix="")
    assert ignores.ignored("m.py", "DS116") and not ignores.ignored("m.py", "API001")
    assert ignores.ignored("tests/t.py", "API001") and not ignores.ignored("t.py", "API001")
    assert Ignores((), (("tests/*", ("DS1",)),), prefix="tests/").ignored("t.py", "DS101")
