"""A worker's re-walk of a file parses nothing and finds what a fresh analysis finds; a plain
scan leaves out the review's syntax facts, which only the records' readers get; records survive
the pipe and the cache unchanged."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import apiscan.parsing
from apiscan import workers
from apiscan.cache import task_key
from apiscan.discovery import discover
from apiscan.extract import FileTask, TreeFacts, analyse
from apiscan.pipeline import ScanOptions, scan_with_facts

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _tasks(fixture: str) -> tuple[list[FileTask], frozenset[str]]:
    _root, files, _errors = discover(str(FIXTURES / fixture))
    tasks = [
        FileTask(f.relpath, f.modules, f.is_package, Path(f.abspath).read_bytes())
        for f in files
        if f.relpath.endswith(".py")
    ]
    roots = frozenset(m.partition(".")[0] for t in tasks for m in t.modules)
    return tasks, roots


@pytest.fixture
def clean_worker() -> Iterator[None]:
    """This process as a fresh worker: nothing kept before or after."""
    workers._KEPT.clear()
    workers._KEPT_CHARS[0] = 0
    yield
    workers._KEPT.clear()
    workers._KEPT_CHARS[0] = 0


@pytest.mark.parametrize("syntax", [True, False])
def test_a_rewalk_parses_nothing_and_finds_the_same(
    clean_worker: None, monkeypatch: pytest.MonkeyPatch, syntax: bool
) -> None:
    tasks, roots = _tasks("crossfn")
    tasks = [replace(t, syntax=syntax) for t in tasks]
    first = [analyse(t, roots, parser=workers.kept_parse, keep=workers.keep_facts) for t in tasks]
    kept = [p for p, (_text, _module, facts) in workers._KEPT.items() if facts is not None]
    assert len(kept) == len(tasks)

    def no_parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a re-walk of a kept file parsed it again")

    monkeypatch.setattr(apiscan.parsing, "parse_python", no_parse)
    monkeypatch.setattr(apiscan.parsing, "libcst_parse", no_parse)
    again = [analyse(t, roots, parser=workers.kept_parse, keep=workers.keep_facts) for t in tasks]
    assert again == first
    assert all((fa.syntax is not None) == syntax for fa in again)


def test_a_rewalk_that_asks_for_syntax_facts_kept_without_them_gets_them(
    clean_worker: None,
) -> None:
    tasks, roots = _tasks("crossfn")
    for t in tasks:
        analyse(replace(t, syntax=False), roots, parser=workers.kept_parse, keep=workers.keep_facts)
    again = [analyse(t, roots, parser=workers.kept_parse, keep=workers.keep_facts) for t in tasks]
    fresh = [analyse(t, roots) for t in tasks]
    assert again == fresh
    assert all(fa.syntax is not None for fa in again)


def test_kept_facts_are_plain_and_dropped_with_their_parse(clean_worker: None) -> None:
    tasks, roots = _tasks("crossfn")
    task = tasks[0]
    analyse(task, roots, parser=workers.kept_parse, keep=workers.keep_facts)
    facts = workers._KEPT[task.relpath][2]
    assert isinstance(facts, TreeFacts)
    # positions as tuples of numbers and names: no node of Python's tree is kept
    assert all(
        type(v) in (int, str, type(None)) for nodes in facts.nodes for node in nodes for v in node
    )
    workers.forget(task.relpath)
    assert task.relpath not in workers._KEPT and workers._KEPT_CHARS[0] == 0


def test_plain_scan_leaves_out_the_syntax_facts_a_reader_gets(tmp_path: Path) -> None:
    root = FIXTURES / "crossfn"
    options = ScanOptions(str(root), cache_dir=tmp_path / "cache", jobs=1)
    from apiscan.pipeline import _scan

    plain = _scan(options, keep_facts=False)[0]
    result, analyses = scan_with_facts(options)
    assert plain == result  # the same findings, from separately cached records
    assert analyses and all(fa.syntax is not None for fa in analyses if not fa.errors)
    tasks, _roots = _tasks("crossfn")
    assert task_key(tasks[0], "ctx") != task_key(replace(tasks[0], syntax=False), "ctx")


def test_records_round_trip_through_pickle() -> None:
    tasks, roots = _tasks("crossfn")
    for task in tasks:
        fa = analyse(task, roots)
        assert pickle.loads(pickle.dumps(fa, pickle.HIGHEST_PROTOCOL)) == fa


def test_a_rewalk_renders_no_argument_text_again(
    clean_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import apiscan.extract

    tasks, roots = _tasks("crossfn")
    first = [analyse(t, roots, parser=workers.kept_parse, keep=workers.keep_facts) for t in tasks]
    assert any(u.args is not None for fa in first for u in fa.uses)

    def no_render(*args: object, **kwargs: object) -> None:
        raise AssertionError("a re-walk rendered a call's argument texts again")

    monkeypatch.setattr(apiscan.extract, "call_texts", no_render)
    again = [analyse(t, roots, parser=workers.kept_parse, keep=workers.keep_facts) for t in tasks]
    assert again == first


def test_a_worker_holds_no_python_tree_between_files(clean_worker: None) -> None:
    """A worker keeps what Python's tree said (TreeFacts) for its re-walks, never the tree
    itself: after a file, no tree is left for the collections before the next parse to
    traverse. An analysis without a keeper (an editor) remembers its last tree as before."""
    import apiscan.extract as extract

    tasks, roots = _tasks("tinydet")
    task = next(t for t in tasks if t.relpath.endswith("head.py"))
    analyse(task, roots)
    assert extract._LAST_FACTS is not None  # an editor's second analysis reuses it
    fa = analyse(task, roots, parser=workers.kept_parse, keep=workers.keep_facts)
    assert extract._LAST_FACTS is None
    assert isinstance(workers._KEPT[task.relpath][2], TreeFacts)
    assert fa == analyse(task, roots)
