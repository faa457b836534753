"""`apiscan zoo` runs: manifests, git clones at a commit, incremental re-runs, a failing
repository recorded while the rest complete, an interrupted run resumed, the export."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from apiscan.cache import code_fingerprint
from apiscan.cli.main import main
from apiscan.zoo.database import dump
from apiscan.zoo.manifest import ManifestError, read_manifest, split_ref
from apiscan.zoo.run import ZooOptions, run_zoo

from .zoo_helpers import REPO, commit_change, make_repo


def _options(tmp: Path, manifest: Path, **kw: object) -> ZooOptions:
    base = {"cache_dir": tmp / "cache", "clone_cache": tmp / "clones", "jobs": 2}
    return ZooOptions(manifest, tmp / "zoo.duckdb", **(base | kw))  # type: ignore[arg-type]


def test_manifest_forms(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    text = tmp_path / "zoo.txt"
    text.write_text(
        "# a comment\nfile:///srv/x/yolo.git@abc123  # pinned\n\na\ngit@host:org/seg.git\n"
    )
    entries = read_manifest(text)
    assert [(e.name, e.ref, e.is_git) for e in entries] == [
        ("yolo", "abc123", True),
        ("a", "", False),
        ("seg", "", True),
    ]
    assert entries[1].source == str((tmp_path / "a").resolve())
    csv = tmp_path / "zoo.csv"
    csv.write_text("name,source,weight,tags,memory_mb\nA,a,2.5,x;y,512\n")
    (entry,) = read_manifest(csv)
    assert (entry.name, entry.weight, entry.tags, entry.memory_mb) == ("A", 2.5, ("x", "y"), 512)
    toml = tmp_path / "zoo.toml"
    toml.write_text('[[repository]]\nsource = "a"\ntags = ["t"]\n[[repository]]\nsource = "a"\n')
    with pytest.raises(ManifestError, match="name 'a' is used twice"):
        read_manifest(toml)
    bad = tmp_path / "bad.csv"
    bad.write_text("source,weight\na,-1\n")
    with pytest.raises(ManifestError, match="weight must be positive"):
        read_manifest(bad)
    assert split_ref("https://h/o/r.git@v1.2") == ("https://h/o/r.git", "v1.2")
    assert split_ref("/local/dir@x") == ("/local/dir@x", "")


def test_git_and_local_repositories_then_incremental(tmp_path: Path) -> None:
    url_a, commit_a = make_repo(tmp_path / "remotes", "alpha", op="cumsum")
    url_b, _ = make_repo(tmp_path / "remotes", "beta", op="logsumexp")
    manifest = tmp_path / "zoo.txt"
    tinyseg = REPO / "fixtures" / "zoo" / "tinyseg"
    manifest.write_text(f"{url_a}@{commit_a}\n{url_b}\n{tinyseg}\n")
    said: list[str] = []
    first = run_zoo(_options(tmp_path, manifest), say=said.append)
    assert sorted(first.scanned) == ["alpha", "beta", "tinyseg"] and not first.failed
    assert any("[3/3]" in line for line in said)  # progress across repositories
    tables = dump(tmp_path / "zoo.duckdb")
    repos = {r[1]: r for r in tables["repositories"]}
    assert repos["alpha"][4] == commit_a and repos["alpha"][8] == "scanned"
    assert repos["tinyseg"][4] == ""  # a directory inside another repository: no commit
    # The clone is shallow, at the commit asked for.
    (clone,) = [p for p in (tmp_path / "clones").iterdir() if commit_a[:12] in p.name]
    shallow = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository", "HEAD"],
        cwd=clone, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert shallow == ["true", commit_a]
    apis = {(r[0], r[10]) for r in tables["findings"] if r[2] == "api"}
    alpha, beta = repos["alpha"][0], repos["beta"][0]
    assert (alpha, "torch.cumsum") in apis and (beta, "torch.logsumexp") in apis
    rules = {(r[0], r[9]) for r in tables["findings"] if r[2] == "dynamic_shape"}
    assert (alpha, "DS103") in rules  # nonzero in the network
    # tinyseg's own configuration excluded its scratch/ directory, as `apiscan PATH` does.
    seg = repos["tinyseg"][0]
    assert {r[1] for r in tables["files"] if r[0] == seg} == {"model.py"}

    again = run_zoo(_options(tmp_path, manifest))
    assert again.scanned == [] and sorted(again.skipped) == ["alpha", "beta", "tinyseg"]
    # beta follows its HEAD: a new commit there is scanned again, the rest are not.
    commit_change(url_b, "cumprod")
    third = run_zoo(_options(tmp_path, manifest))
    assert third.scanned == ["beta"] and sorted(third.skipped) == ["alpha", "tinyseg"]
    tables = dump(tmp_path / "zoo.duckdb")
    assert (beta, "torch.cumprod") in {(r[0], r[10]) for r in tables["findings"]}
    assert (beta, "torch.logsumexp") not in {(r[0], r[10]) for r in tables["findings"]}
    # Another mapping table is another configuration: everything is scanned again.
    fourth = run_zoo(_options(tmp_path, manifest, ms_version="2.4"))
    assert sorted(fourth.scanned) == ["alpha", "beta", "tinyseg"]


def test_a_failing_repository_is_recorded_and_the_rest_complete(tmp_path: Path) -> None:
    url_a, _ = make_repo(tmp_path / "remotes", "alpha")
    url_b, _ = make_repo(tmp_path / "remotes", "beta")
    manifest = tmp_path / "zoo.csv"
    # beta's task is killed for memory on both attempts; gone's URL does not resolve.
    manifest.write_text(
        f"name,source,memory_mb\nalpha,{url_a},\nbeta,{url_b},1\n"
        f"gone,{(tmp_path / 'nowhere').as_uri()},\n"
    )
    summary = run_zoo(_options(tmp_path, manifest))
    assert summary.scanned == ["alpha"] and sorted(summary.failed) == ["beta", "gone"]
    tables = dump(tmp_path / "zoo.duckdb")
    by_name = {r[1]: r for r in tables["repositories"]}
    assert by_name["beta"][8] == "failed" and by_name["beta"][13] == 2  # retried once
    reasons = [r for r in tables["failures"] if r[0] == by_name["beta"][0]]
    assert [r[1] for r in reasons] == [1, 2]
    assert all("memory limit of 1 MB" in r[2] for r in reasons)
    (gone,) = [r for r in tables["failures"] if r[0] == by_name["gone"][0]]
    assert "git ls-remote failed" in gone[2]
    # A failed repository is tried again by the next run; the scanned one is not.
    manifest.write_text(f"name,source\nalpha,{url_a}\nbeta,{url_b}\n")
    second = run_zoo(_options(tmp_path, manifest))
    assert second.scanned == ["beta"] and second.skipped == ["alpha"]


def test_an_interrupted_run_loses_only_the_tasks_in_flight(tmp_path: Path) -> None:
    names = ["r1", "r2", "r3", "r4"]
    urls = [make_repo(tmp_path / "remotes", n, width=4 + i)[0] for i, n in enumerate(names)]
    manifest = tmp_path / "zoo.txt"
    manifest.write_text("".join(f"{u}\n" for u in urls))
    db = tmp_path / "zoo.duckdb"
    cmd = [
        *(sys.executable, "-m", "apiscan", "zoo", str(manifest), "-o", str(db), "-j", "1"),
        *("--cache-dir", str(tmp_path / "cache"), "--clone-dir", str(tmp_path / "clones")),
    ]
    proc = subprocess.Popen(cmd, cwd=REPO, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    first = ""
    for line in proc.stderr:
        if ": scanned (" in line:
            first = line.split("] ", 1)[1].split(":", 1)[0]
            proc.send_signal(signal.SIGKILL)  # no clean-up at all
            break
    proc.wait(timeout=120)
    assert first in names and proc.returncode == -signal.SIGKILL
    # The killed run fingerprinted apiscan's code as it is on disk now; this process did when
    # it first needed it, maybe long before (a checkout edited since would rescan everything,
    # rightly: other code). Compare like with like.
    code_fingerprint.cache_clear()
    summary = run_zoo(_options(tmp_path, manifest, jobs=1))
    assert first in summary.skipped and first not in summary.scanned
    assert sorted(summary.scanned + summary.skipped) == names and not summary.failed
    repos = dump(db)["repositories"]
    assert sorted(r[1] for r in repos if r[8] == "scanned") == names


def test_parquet_export_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import duckdb

    manifest = tmp_path / "zoo.txt"
    manifest.write_text(f"{REPO / 'fixtures' / 'zoo' / 'tinyseg'}\n")
    db, out = tmp_path / "z.duckdb", tmp_path / "pq"
    code = main(["zoo", str(manifest), "-o", str(db), "--parquet", str(out), "-q",
                 "--cache-dir", str(tmp_path / "cache")])  # fmt: skip
    assert code == 0
    assert "1 scanned, 0 unchanged, 0 failed" in capsys.readouterr().err
    query = f"SELECT count(*) FROM read_parquet('{out / 'files.parquet'}')"
    assert duckdb.connect().execute(query).fetchall() == [(1,)]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{t}.parquet"
        for t in ("repositories", "files", "findings", "summaries", "failures", "runs", "timings")
    )
    # Usage faults: one line, exit 2.
    assert main(["zoo", str(tmp_path / "none.txt"), "-o", str(db)]) == 2
    assert "cannot read manifest" in capsys.readouterr().err
    assert main(["zoo", "report", str(tmp_path / "none.duckdb")]) == 2
    assert "no such database" in capsys.readouterr().err
    assert main(["zoo", str(manifest), "-o", str(db), "--ms-version", "9.9"]) == 2
    assert os.path.exists(db)
