"""A table of named entries (``Info(name="lamb", opt_class=Lamb)``, registered one call per
entry into the table a factory looks the option's value up in) picks one class by the
run's option (``--opt`` defaulting to ``"fancy"``, the factory's ``opt`` parameter): the
other entries' classes are alternatives the run's config does not pick, not priced; the
picked one, a class the picked one subclasses and one the training builds directly stay the
run's work."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

_STEP = """
        import torch
        from torch.optim import Optimizer


        class {name}({base}):
            def __init__(self, params, lr=0.1):
                super({name}, self).__init__(params, dict(lr=lr))

            @torch.no_grad()
            def step(self):
                for group in self.param_groups:
                    for p in group["params"]:
                        state = torch.zeros_like(p)
                        p.addcdiv_(p.grad, torch.sqrt(state) + 1e-8, value=-group["lr"])
                        p.add_(torch.sign(p.grad) * torch.erfinv(state), alpha=-0.1)
"""

FILES = {
    "pkg/__init__.py": "",
    "pkg/optim/__init__.py": "from .factory import create_optimizer\n",
    "pkg/optim/fancy.py": _STEP.format(name="Fancy", base="Optimizer"),
    "pkg/optim/other.py": _STEP.format(name="Other", base="Optimizer"),
    "pkg/optim/third.py": _STEP.format(name="Third", base="Optimizer"),
    "pkg/optim/base.py": _STEP.format(name="Base", base="Optimizer"),
    "pkg/optim/derived.py": """
        from .base import Base


        class Derived(Base):
            def __init__(self, params):
                super(Derived, self).__init__(params)
    """,
    "pkg/optim/direct.py": _STEP.format(name="Direct", base="Optimizer"),
    "pkg/optim/factory.py": """
        from dataclasses import dataclass

        import torch

        from .base import Base
        from .derived import Derived
        from .direct import Direct
        from .fancy import Fancy
        from .other import Other
        from .third import Third


        @dataclass
        class Info:
            name: str
            opt_class: object
            description: str = ""


        _TABLE = {}


        def register(info):
            _TABLE[info.name] = info


        for info in [
            Info(name="sgd", opt_class=torch.optim.SGD),
            Info(name="fancy", opt_class=Fancy),
            Info(name="other", opt_class=Other, description="another one"),
            Info(name="third", opt_class=Third),
            Info(name="base", opt_class=Base),
            Info(name="derived", opt_class=Derived),
            Info(name="direct", opt_class=Direct),
        ]:
            register(info)


        def create_optimizer(params, opt, lr=0.1):
            return _TABLE[opt.lower()].opt_class(params, lr=lr)
    """,
    "train.py": """
        import argparse

        import torch
        from torch import nn

        from pkg.optim import create_optimizer
        from pkg.optim.direct import Direct

        parser = argparse.ArgumentParser()
        parser.add_argument("--opt", default="fancy", type=str)
        parser.add_argument("--lr", default=0.1, type=float)


        def main():
            args = parser.parse_args()
            model = nn.Linear(4, 2)
            optimizer = create_optimizer(model.parameters(), args.opt, lr=args.lr)
            extra = Direct(model.parameters())
            for _ in range(10):
                loss = model(torch.randn(8, 4)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                extra.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("entries"), FILES)
    return build_review(str(root))


def _alternatives(review) -> str:  # type: ignore[no-untyped-def]
    return " ".join(
        s for s in review.effort.explanation if s.startswith("Alternatives the run's config")
    )


def test_the_entries_the_option_does_not_name_are_alternatives(review) -> None:  # type: ignore[no-untyped-def]
    assert "pkg.optim.other.Other" in review.alternatives
    assert "pkg.optim.third.Third" in review.alternatives
    assert "pkg/optim/other.py:Other" in _alternatives(review)
    assert "pkg/optim/third.py:Third" in _alternatives(review)


def test_the_picked_entry_stays_the_run_s(review) -> None:  # type: ignore[no-untyped-def]
    assert "pkg.optim.fancy.Fancy" not in review.alternatives
    assert "pkg/optim/fancy.py:Fancy" not in _alternatives(review)


def test_a_class_built_directly_elsewhere_stays_the_run_s(review) -> None:  # type: ignore[no-untyped-def]
    assert "pkg.optim.direct.Direct" not in review.alternatives


def test_an_unpicked_entry_s_subclass_is_left_out_and_its_base_kept_for_it(review) -> None:  # type: ignore[no-untyped-def]
    # neither "base" nor "derived" is the option's value: both are alternatives
    assert "pkg.optim.derived.Derived" in review.alternatives
    assert "pkg.optim.base.Base" in review.alternatives


def test_the_alternatives_are_not_priced(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The same repository with ``--opt other``: the effort moves, not the number of sites
    written in the repository."""
    picked = build_review(str(write_repo(tmp_path / "a", FILES)))
    every = dict(FILES)
    every["train.py"] = every["train.py"].replace('default="fancy"', "default=None")
    unpicked = build_review(str(write_repo(tmp_path / "b", every)))
    assert not any(c.startswith("pkg.optim.") for c in unpicked.alternatives)
    assert picked.effort.person_days[1] < unpicked.effort.person_days[1]
