"""A module summary that asserts it holds no scripted module (``assert not isinstance(
module, torch.jit.ScriptModule)``) names a TorchScript class only to test against it: the
port holds none, the test goes. No gap of one to two person-days."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review


def test_an_isinstance_test_against_a_scripted_module_is_no_gap(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "misc.py": """
                import torch


                def print_module_summary(module, inputs):
                    assert isinstance(module, torch.nn.Module)
                    assert not isinstance(module, torch.jit.ScriptModule)
                    assert not isinstance(module, torch.jit.RecursiveScriptModule)
                    return module(*inputs)
            """,
            "train.py": """
                import torch

                import misc


                def main():
                    model = torch.nn.Linear(2, 2)
                    misc.print_module_summary(model, [torch.zeros(1, 2)])
                    opt = torch.optim.SGD(model.parameters(), lr=0.1)
                    model(torch.zeros(1, 2)).sum().backward()
                    opt.step()


                if __name__ == '__main__':
                    main()
            """,
        },
    )
    review = build_review(str(tmp_path))
    by_disposition = {d: apis for d, _, _, apis in review.effort.by_disposition}
    assert by_disposition["gap"] == 0
    assert "gap ×" not in review.effort.formula
