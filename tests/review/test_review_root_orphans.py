"""A model file at the root that no file imports and that runs nothing itself, beside the
model module the root training script imports, is counted apart (its models are never
built: a registry decorator registers them only on import); a root module of a repository
that trains nothing is what its users import, and stays. A small repository inline."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REGISTRY = """
    _MODELS = {}


    def register_model(fn):
        _MODELS[fn.__name__] = fn
        return fn


    def create_model(name, **kwargs):
        return _MODELS[name](**kwargs)
"""
MODELS = """
    import torch.nn as nn
    from registry import register_model


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)


    @register_model
    def net_small(**kwargs):
        return Net()
"""
OTHER = """
    import torch.nn as nn
    from registry import register_model


    class ConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)
            self.seq = nn.Sequential(nn.GELU(), nn.Conv2d(8, 8, 1))

        def forward(self, x):
            return self.seq(self.conv(x))


    @register_model
    def convnet_small(**kwargs):
        return ConvNet()
"""
TRAIN = """
    import argparse
    import torch
    import models
    from registry import create_model


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--model', default='net_small')
        args = parser.parse_args()
        model = create_model(args.model)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            loss = model(torch.ones(2, 4)).sum()
            loss.backward()
            opt.step()


    if __name__ == '__main__':
        main()
"""


def test_an_unimported_root_model_file_is_counted_apart(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {"registry.py": REGISTRY, "models.py": MODELS, "other_models.py": OTHER, "main.py": TRAIN},
    )
    apart = dict(build_review(str(tmp_path), jobs=1).ancillary)
    assert apart.get("other_models.py") == "unused (nothing imports it)"
    assert "models.py" not in apart and "main.py" not in apart


def test_a_root_model_file_of_a_library_that_trains_nothing_stays(tmp_path: Path) -> None:
    write_repo(tmp_path, {"registry.py": REGISTRY, "models.py": MODELS, "other_models.py": OTHER})
    apart = dict(build_review(str(tmp_path), jobs=1).ancillary)
    assert "other_models.py" not in apart


TWO_MODELS = (
    MODELS
    + """

    @register_model
    def net_big(**kwargs):
        return Net()
"""
)


def test_the_documented_command_s_model_name_selects_the_model(tmp_path: Path) -> None:
    """``--model`` chosen by the README's training command picks the registry entry the run
    builds, as its ``--batch-size`` sets the batch: the default names an alternative."""
    write_repo(tmp_path, {"registry.py": REGISTRY, "models.py": TWO_MODELS, "main.py": TRAIN})
    (tmp_path / "README.md").write_text(
        "    python main.py --model net_big --data x\n", encoding="utf-8"
    )
    review = build_review(str(tmp_path), jobs=1)
    picks = [dict(t.parts).get("selected by", "") for t in review.top_models]
    assert any(
        "args.model = 'net_big', given by the documented training command (argparse "
        "default 'net_small' at main.py:9)"
        in p
        and p.endswith("net_big()")
        for p in picks
    ), picks
