"""A file's re-exports are the same whether its star imports are looked up by scanning
every re-export or through the index the pipeline builds once per scan."""

from __future__ import annotations

from apiscan.extract import reexport_members, reexport_subset

REEXPORTS = {
    "pkg.layers.nn": "torch.nn",
    "pkg.layers.F": "torch.nn.functional",
    "pkg.layers.deep.x": "torch.x",
    "pkg.build()": "inst:pkg.model.Net",
    "pkg.np": "numpy",
    "top": "torch",
}


def test_star_imports_through_the_index_match_the_scan() -> None:
    members = reexport_members(REEXPORTS)
    for refs in [
        ("pkg.layers.*",),
        ("pkg.*", "pkg.layers.nn"),
        ("pkg.layers.deep.*", "top", "missing.*"),
        (".*",),
        (),
    ]:
        assert reexport_subset(refs, REEXPORTS, members) == reexport_subset(refs, REEXPORTS)
    assert reexport_subset(("pkg.*",), REEXPORTS, members) == (
        ("pkg.build()", "inst:pkg.model.Net"),
        ("pkg.np", "numpy"),
    )
