"""A function registered by a decorator of a registry built in its own module
(``@LOADERS.register("R-50")`` where ``LOADERS = Registry()``) is looked up by name, never
called by it: neither it nor the helpers only it calls are dead code (issue 20: a weights
loader's checkpoint item was lost when its helpers counted as not reached)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_FILES = {
    "pkg/__init__.py": "",
    "pkg/registry.py": """
        class Registry(dict):
            def register(self, name):
                def deco(fn):
                    self[name] = fn
                    return fn
                return deco
    """,
    "pkg/loading.py": """
        import pickle

        import torch

        from pkg.registry import Registry

        LOADERS = Registry()


        def _read_pickled(path):
            with open(path, "rb") as f:
                return pickle.load(f, encoding="latin1")


        def _rename(weights):
            return {k.replace("res", "layer"): torch.as_tensor(v) for k, v in weights.items()}


        def _never_used(weights):
            return torch.as_tensor(weights)


        @LOADERS.register("R-50")
        def load_resnet(path):
            return _rename(_read_pickled(path))


        def load(name, path):
            return LOADERS[name](path)
    """,
    "train.py": """
        import torch

        from pkg.loading import load


        def main():
            model = torch.nn.Linear(2, 2)
            model.load_state_dict(load("R-50", "R-50.pkl"))
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            loss = model(torch.randn(4, 2)).sum()
            loss.backward()
            optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_a_function_a_local_registry_decorates_and_its_helpers_are_reached(
    tmp_path: Path,
) -> None:
    review = build_review(str(write_repo(tmp_path, _FILES)), jobs=1)
    explanation = " ".join(review.effort.explanation)
    # VALID: the decorated loader and the helpers only it calls run
    for name in ("load_resnet", "_read_pickled", "_rename"):
        assert f"pkg/loading.py:{name}" not in explanation
    # INVALID: a helper nothing calls is still not reached
    assert "pkg/loading.py:_never_used" in explanation
