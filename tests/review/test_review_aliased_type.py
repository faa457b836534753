"""The architecture a yacs config's type key picks in a builder that first copies the key
into a local (``model_type = config.MODEL.TYPE``, then ``if model_type == 'plain': model =
PlainNet(...) elif model_type == 'wide': ...``; one ``return model``), where the training
script's ``--cfg`` has no default and its documented commands name several configs: the
value every one of those configs gives the key (each its own setting, else the Python
default) picks the branch. The other architectures are alternatives, not priced; a
sibling script's config (another type) and the configs no command names do not count.
With configs that disagree nothing is picked and nothing is left out."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from scan_helpers import write_repo

from apiscan.extract.models import model_facts
from apiscan.review.build import build_review

BUILD = """
    from .nets import PlainNet, WideNet


    def build_model(config):
        model_type = config.MODEL.TYPE
        if model_type == 'plain':
            model = PlainNet(config.MODEL.DIM)
        elif model_type == 'wide':
            model = WideNet(config.MODEL.DIM)
        else:
            raise NotImplementedError(model_type)
        return model
"""

FILES = {
    "config.py": """
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.MODEL = CN()
        _C.MODEL.TYPE = 'plain'
        _C.MODEL.DIM = 8
        _C.TRAIN = CN()
        _C.TRAIN.LR = 0.1


        def get_config(args):
            config = _C.clone()
            config.merge_from_file(args.cfg)
            return config
    """,
    "configs/plain/small.yaml": "MODEL:\n  DIM: 4\n",
    "configs/plain/big.yaml": "MODEL:\n  TYPE: plain\n  DIM: 16\nTRAIN:\n  LR: 0.05\n",
    "configs/wide/wide.yaml": "MODEL:\n  TYPE: wide\n  DIM: 32\nTRAIN:\n  LR: 0.4\n",
    "configs/wide/wide_big.yaml": "MODEL:\n  TYPE: wide\n  DIM: 64\nTRAIN:\n  LR: 0.4\n",
    "models/__init__.py": "from .build import build_model\n",
    "models/build.py": BUILD,
    "models/nets.py": """
        import torch
        from torch import nn


        class PlainNet(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)

            def forward(self, x):
                return self.fc(x)


        class WideNet(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim * 4)
                self.proj = nn.Conv1d(dim * 4, dim, 1, groups=4)

            def forward(self, x):
                return torch.flip(self.proj(self.fc(x)), [1])
    """,
    "main.py": """
        import argparse

        import torch

        from config import get_config
        from models import build_model


        def parse_option():
            parser = argparse.ArgumentParser()
            parser.add_argument('--cfg', type=str, required=True)
            args = parser.parse_args()
            return get_config(args)


        def main(config):
            model = build_model(config)
            optimizer = torch.optim.SGD(model.parameters(), lr=config.TRAIN.LR)
            criterion = torch.nn.MSELoss()
            for x in range(10):
                loss = criterion(model(torch.randn(2, 8)), torch.zeros(2, 8))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main(parse_option())
    """,
    "main_wide.py": """
        import argparse

        import torch

        from config import get_config
        from models import build_model


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--cfg', type=str, required=True)
            config = get_config(parser.parse_args())
            model = build_model(config)
            optimizer = torch.optim.SGD(model.parameters(), lr=config.TRAIN.LR)
            optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}

GUIDE = """
# Getting started

Train from scratch:

```bash
python -m torch.distributed.launch --nproc_per_node 8 main.py --cfg <config-file>
```

For example:

```bash
python -m torch.distributed.launch --nproc_per_node 8 main.py --cfg configs/plain/small.yaml
```

```bash
python -m torch.distributed.launch --nproc_per_node 8 main.py --cfg configs/plain/big.yaml
```

Evaluate:

```bash
python main.py --eval --cfg configs/wide/wide.yaml
```

The wide variant has its own script:

```bash
python main_wide.py --cfg configs/wide/wide_big.yaml
```
"""


def _review(tmp_path: Path, guide: str):
    root = write_repo(tmp_path / "repo", {**FILES, "get_started.md": guide})
    return build_review(str(root), jobs=1)


def test_a_test_of_a_local_bound_to_a_config_key_is_recorded_as_the_key_test() -> None:
    """The scan records the builder's tests as tests of the key the local copies."""
    text = textwrap.dedent(BUILD)
    facts = model_facts(ast.parse(text), text)
    assert [t for _, t in facts.tests] == [
        "config.MODEL.TYPE == 'plain'",
        "config.MODEL.TYPE == 'wide'",
    ]


def test_a_local_assigned_twice_or_a_parameter_is_no_alias() -> None:
    text = """
def build(config, kind):
    model_type = config.MODEL.TYPE
    if kind == 'a':
        model_type = 'b'
    if model_type == 'plain':
        return 1
    if kind == 'x':
        return 2
"""
    facts = model_facts(ast.parse(text), text)
    assert facts.tests == ()


def test_the_documented_configs_agreeing_on_the_type_pick_the_branch(tmp_path: Path) -> None:
    """Both configs ``main.py``'s training commands name are ``plain`` (one by the
    default): PlainNet is the model, WideNet an alternative, not priced (its Conv1d is no
    network call site); the evaluation run's and the sibling script's ``wide`` configs
    do not count."""
    review = _review(tmp_path, GUIDE)
    tops = [m.cls for m in review.top_models]
    assert tops[0] == "models.nets.PlainNet"
    assert "models.nets.WideNet" in review.alternatives
    apart = [s for s in review.effort.explanation if s.startswith("Alternatives")]
    assert apart and "models/nets.py:WideNet" in apart[0]


def test_documented_configs_that_differ_pick_nothing(tmp_path: Path) -> None:
    """A documented command of ``main.py`` trains the ``wide`` config too: the type is
    not known, no architecture is left out."""
    guide = GUIDE + (
        "\n```bash\npython -m torch.distributed.launch main.py --cfg configs/wide/wide.yaml\n```\n"
    )
    review = _review(tmp_path, guide)
    assert "models.nets.WideNet" not in review.alternatives
    assert not any(s.startswith("Alternatives") for s in review.effort.explanation)


def test_the_recipe_tallies_the_documented_configs(tmp_path: Path) -> None:
    """The LR row says what the documented runs use (the default in one, 0.05 in the
    other), beside the tally over every shipped YAML."""
    review = _review(tmp_path, GUIDE)
    (row,) = [i for i in review.recipe if i.name == "config TRAIN.LR across YAML configs"]
    assert dict(row.values)["documented runs"] == (
        "0.1 (the default) in 1 of the 2 documented configs; 0.05 in 1 "
        "(the training commands' configs, first at get_started.md:12)"
    )
    (sgd,) = [i for i in review.recipe if i.name == "torch.optim.SGD"]
    assert "0.1 (the default) in 1 of the 2 documented configs" in dict(sgd.values)["lr"]
