"""The Ray engine on a real two-node Ray cluster on this machine gives the same database as
the default engine, failures included (runs when ray is installed: the test extra has it)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("duckdb")
ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from apiscan.zoo.database import CONTENT_TABLES, dump  # noqa: E402
from apiscan.zoo.run import ZooOptions, run_zoo  # noqa: E402

from .zoo_helpers import REPO, make_repo  # noqa: E402


def test_ray_cluster_and_local_engine_give_identical_databases(tmp_path: Path) -> None:
    url_a, commit_a = make_repo(tmp_path / "remotes", "alpha", op="cumsum")
    url_b, _ = make_repo(tmp_path / "remotes", "beta", op="logsumexp")
    manifest = tmp_path / "zoo.csv"
    manifest.write_text(
        "name,source,weight,tags,memory_mb\n"
        f"alpha,{url_a}@{commit_a},2,det,\n"
        f"beta,{url_b},1,,1\n"  # killed for memory on both attempts, with either engine
        f"tinyseg,{REPO / 'fixtures' / 'zoo' / 'tinyseg'},1,seg,\n"
    )

    def options(engine: str, address: str | None = None) -> ZooOptions:
        # Separate caches and clone directories: each engine scans cold.
        return ZooOptions(
            manifest,
            tmp_path / f"{engine}.duckdb",
            engine=engine,
            address=address,
            jobs=2,
            cache_dir=tmp_path / f"cache-{engine}",
            clone_cache=tmp_path / f"clones-{engine}",
        )

    local = run_zoo(options("local"))
    cluster = cluster_utils.Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        on_ray = run_zoo(options("ray", cluster.address))
        assert not ray.is_initialized()  # the driver connection was closed after the run
    finally:
        cluster.shutdown()
    assert on_ray.scanned and sorted(on_ray.scanned) == sorted(local.scanned)
    assert on_ray.failed == local.failed == ["beta"]
    a, b = dump(tmp_path / "local.duckdb"), dump(tmp_path / "ray.duckdb")
    assert set(a) == set(CONTENT_TABLES)
    for table in CONTENT_TABLES:
        assert a[table] == b[table], table
    assert len(a["findings"]) > 10 and len(a["failures"]) == 2
