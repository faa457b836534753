"""What a star import of a repository module binds (``apiscan.program.stars``), from the
records alone."""

from __future__ import annotations

from apiscan.extract import import_package
from apiscan.extract.records import ClassFact, FileAnalysis, FunctionFact
from apiscan.program.stars import star_bindings


def _file(path: str, modules: tuple[str, ...], **kw: object) -> FileAnalysis:
    return FileAnalysis(path, modules, "", 1, **kw)  # type: ignore[arg-type]


def test_public_names_own_definitions_first_through_chained_star_imports() -> None:
    parts = _file(
        "pkg/parts.py",
        ("pkg.parts",),
        classes=(ClassFact("Block", ("torch.nn.Module",), ("forward",)),),
        functions=(
            FunctionFact("make", "", 1),
            FunctionFact("_hidden", "", 2),
            FunctionFact("Block.forward", "Block", 3),
        ),
        exports=(("nn", "torch.nn"), ("Conv", "pkg.layers.Conv"), ("np", "numpy")),
    )
    init = _file(
        "pkg/__init__.py",
        ("pkg",),
        local_refs=("pkg.parts.*",),
        functions=(FunctionFact("make", "", 1),),  # its own ``make`` wins over the star's
    )
    user = _file("run.py", ("run",), local_refs=("pkg.*",))
    found = star_bindings([parts, init, user], {"pkg.parts.nn": "torch.nn"})
    assert found == {
        # pkg.parts, star-imported by pkg/__init__.py
        "pkg.parts.Block": "pkg.parts.Block",
        "pkg.parts.Conv": "pkg.layers.Conv",
        "pkg.parts.make": "pkg.parts.make",
        # pkg, star-imported by run.py: what pkg.parts binds, then pkg's own
        "pkg.Block": "pkg.parts.Block",
        "pkg.Conv": "pkg.layers.Conv",
        "pkg.make": "pkg.make",
    }


def test_relative_imports_of_a_file_outside_any_package_start_at_its_path() -> None:
    """A file of a directory without ``__init__.py`` has a top-level package-chain name
    (``is_model``) and a root-relative one (``isegm.model.is_model``): a relative import
    only runs under the second."""
    assert import_package(("is_model", "isegm.model.is_model"), False) == "isegm.model"
    assert import_package(("pkg.net", "src.pkg.net"), False) == "pkg"
    assert import_package(("pkg", "src.pkg"), True) == "pkg"
    assert import_package(("train",), False) == ""
