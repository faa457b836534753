"""A re-export is no use (issue 20: detectron2's modulated deformable convolution counted as
work). A package's ``__init__`` importing a class from its module (``from .dc import
Modulated``) names it for its users; a reference through the package (``from pkg.layers import
Modulated``) is one to the class itself, so a class only left-out code names that way is left
out too, and what only it reaches (the ``autograd.Function`` behind its alias)."""

from __future__ import annotations

from scan_helpers import write_repo


def test_a_reference_through_a_package_re_export_is_one_to_the_def(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.program.index import ClassTable, Hierarchy
    from apiscan.resolve.torch_api import load_torch_api
    from apiscan.review.leftout import left_out

    root = write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/layers/__init__.py": """
                from .dc import Plain, Modulated
                from .alias import Renamed as Other
            """,
            "pkg/layers/dc.py": """
                import torch


                class _ModFn(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, x):
                        return x


                mod_fn = _ModFn.apply


                class Modulated(torch.nn.Module):
                    def forward(self, x):
                        return mod_fn(x)


                class Plain(torch.nn.Module):
                    def forward(self, x):
                        return x
            """,
            "pkg/layers/alias.py": """
                import torch


                class Renamed(torch.nn.Module):
                    def forward(self, x):
                        return x
            """,
            "pkg/net.py": """
                import torch

                from pkg.layers import Modulated, Other, Plain


                class Block(torch.nn.Module):
                    def __init__(self, modulated):
                        super().__init__()
                        op = Modulated if modulated else Plain
                        self.conv = op()
                        self.other = Other


                class Net(torch.nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = Plain()
            """,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    hierarchy = Hierarchy(analyses, ClassTable(analyses, load_torch_api()))
    dc = next(fa for fa in analyses if fa.path == "pkg/layers/dc.py")
    lines = {d.qual: (d.line, d.end_line) for d in dc.syntax.values.defs}
    alias = next(fa for fa in analyses if fa.path == "pkg/layers/alias.py")
    renamed = next((d.line, d.end_line) for d in alias.syntax.values.defs if d.name == "Renamed")
    left = left_out(analyses, hierarchy, ["pkg.net.Block"], ["pkg.net.Net"])
    assert lines["Modulated"] in left["pkg/layers/dc.py"]
    assert lines["_ModFn"] in left["pkg/layers/dc.py"]  # through the alias only it uses
    assert lines["Plain"] not in left["pkg/layers/dc.py"]  # the kept model builds it
    # ... and through a re-export under another name
    assert renamed in left["pkg/layers/alias.py"]
