"""One reading of a file's decorators (:func:`apiscan.review.work.decorators_of`): the
rules that ask whether a def is registered by name, or into which registry, see a registry
a module builds for itself (``@BACKBONES.register("r18")`` of a ``Registry()`` in the same
file) as they see one the imports resolve (``@register_model``)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import (
    _switched_off_named,
    _uncalled_variants,
    decorators_of,
    registry_of,
)

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
    "pkg/backbones.py": """
        import torch

        from pkg.registry import Registry

        BACKBONES = Registry()


        @BACKBONES.register("r18")
        def resnet18():
            return torch.nn.Linear(2, 2)


        def resnet50():
            return torch.nn.Linear(2, 4)


        def resnet101():
            return torch.nn.Linear(2, 8)


        @BACKBONES.register("head")
        class Head(torch.nn.Module):
            def __init__(self, pretrained=False):
                super().__init__()
                if pretrained:
                    self.load()

            def load(self):
                return torch.load("head.pt")

            @torch.no_grad()
            def forward(self, x):
                return x
    """,
    "train.py": """
        import argparse

        from pkg.backbones import BACKBONES, resnet50

        parser = argparse.ArgumentParser()
        parser.add_argument("--pretrained", action="store_true")
        args = parser.parse_args()
        model = resnet50()
        head = BACKBONES["head"](pretrained=args.pretrained)
    """,
}


def test_one_reading_of_decorators_keeps_local_registries(tmp_path: Path) -> None:
    root = write_repo(tmp_path, _FILES)
    _, analyses = scan_with_facts(ScanOptions(path=str(root), cache_dir=None, jobs=1))
    facts = next(fa.syntax for fa in analyses if fa.path == "pkg/backbones.py")
    found = decorators_of(facts)
    # VALID: a registry of the module itself, by the name written; a resolved decorator
    assert found["resnet18"] == ("BACKBONES.register",)
    assert found["Head.forward"] == ("torch.no_grad",)
    assert registry_of("BACKBONES.register") == "BACKBONES"
    assert registry_of("timm.models.register_model") == "timm.models.register_model"
    # INVALID: an undecorated def has no entry; a decorator that registers nothing no registry
    assert "resnet101" not in found
    assert registry_of("torch.no_grad") == ""
    # the variant rule reads the same answer: the registered resnet18 is no uncalled
    # variant beside the resnet50 train.py calls; the plain resnet101 is
    variants = _uncalled_variants(analyses)
    assert ("pkg/backbones.py", "resnet101") in variants
    assert ("pkg/backbones.py", "resnet18") not in variants
    # and the switched-off rule reads it (a registered def is built by name)
    off, _ = _switched_off_named(analyses, {"pretrained": [False]})
    assert not any(name == "resnet18" for _, name in off)
