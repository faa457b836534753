"""A config-picked string switch between loss functions (issue 20: detectron2's diou/ciou
loss rows while the config's box-regression loss type is ``smooth_l1``).

A class built from its config (``@configurable`` ``__init__`` fed by the dict its
``from_config`` returns) stores the config's loss type as ``self.loss_type``; its loss method
hands it to a module-level loss function that switches between losses on it. The branches the
config's value never takes are no recipe rows and no work; switched in the config, they are."""

from __future__ import annotations

import pytest
from registry_repo import FILES as REGISTRY_FILES
from scan_helpers import write_repo

from apiscan.review.build import build_review

DEFAULTS = REGISTRY_FILES["vid/config/defaults.py"].replace(
    '_C.MODEL.MODEL_NAME = "TwoPath"\n',
    '_C.MODEL.MODEL_NAME = "TwoPath"\n'
    "        _C.MODEL.HEAD = CfgNode()\n"
    '        _C.MODEL.HEAD.LOSS_TYPE = "smooth_l1"\n',
)

FILES = {
    **REGISTRY_FILES,
    "vid/config/defaults.py": DEFAULTS,
    "vid/config/config.py": """
        import functools


        def configurable(init_func):
            @functools.wraps(init_func)
            def wrapped(self, *args, **kwargs):
                if args and hasattr(args[0], "MODEL"):
                    kwargs = type(self).from_config(*args, **kwargs)
                    args = ()
                init_func(self, *args, **kwargs)

            return wrapped
    """,
    "vid/layers/__init__.py": """
        from .losses import diou_loss, smooth_l1
    """,
    "vid/layers/losses.py": """
        import torch


        def smooth_l1(a, b):
            return torch.nn.functional.smooth_l1_loss(a, b, reduction="sum")


        def diou_loss(a, b):
            keep = a[a > 0]
            return (keep - b[: keep.shape[0]]).abs().sum()
    """,
    "vid/models/box_loss.py": """
        import torch

        from vid.layers import diou_loss, smooth_l1


        def box_regression_loss(pred, target, loss_type="smooth_l1"):
            if loss_type == "smooth_l1":
                loss = smooth_l1(pred, target)
            elif loss_type == "l1":
                loss = torch.nn.functional.l1_loss(pred, target, reduction="sum")
            elif loss_type == "diou":
                loss = diou_loss(pred, target)
            else:
                raise ValueError(loss_type)
            return loss
    """,
    "vid/models/nets.py": """
        from torch import nn

        from vid.config.config import configurable

        from .box_loss import box_regression_loss
        from .build import MODEL_REGISTRY


        @MODEL_REGISTRY.register()
        class TwoPath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(x)


        @MODEL_REGISTRY.register()
        class OnePath(nn.Module):
            @configurable
            def __init__(self, *, dim, loss_type="smooth_l1"):
                super().__init__()
                self.fc = nn.Linear(dim, 4)
                self.loss_type = loss_type

            @classmethod
            def from_config(cls, cfg):
                ret = {"dim": 4}
                ret["loss_type"] = cfg.MODEL.HEAD.LOSS_TYPE
                return ret

            def forward(self, x):
                pred = self.fc(x)
                return box_regression_loss(pred, x, self.loss_type)
    """,
}


def _switched(files: dict[str, str], value: str) -> dict[str, str]:
    out = dict(files)
    out["configs/K/ONE.yaml"] = files["configs/K/ONE.yaml"].replace(
        "          MODEL_NAME: OnePath\n",
        f"          MODEL_NAME: OnePath\n          HEAD:\n            LOSS_TYPE: {value}\n",
    )
    return out


@pytest.fixture(scope="module")
def default(tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("cfgattr"), FILES)))


@pytest.fixture(scope="module")
def diou(tmp_path_factory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("cfgattr_diou"), _switched(FILES, "diou"))
    return build_review(str(root))


def _loss_rows(review) -> set[str]:  # type: ignore[no-untyped-def]
    return {r.name.rpartition(".")[2] for r in review.recipe if r.category == "loss"}


def _rewritten(review) -> str:  # type: ignore[no-untyped-def]
    """The effort's sentence listing the dynamic-shape rewrites."""
    return " ".join(e for e in review.effort.explanation if "dynamic-shape rewrite" in e)


def _alternatives(review) -> str:  # type: ignore[no-untyped-def]
    return " ".join(e for e in review.effort.explanation if e.startswith("Alternatives"))


def test_the_loss_branches_the_config_s_type_skips_are_no_rows(default) -> None:  # type: ignore[no-untyped-def]
    rows = _loss_rows(default)
    assert "diou_loss" not in rows
    assert "l1_loss" not in rows
    # the loss only the skipped branch calls is no dynamic-shape rewrite of the network
    assert "losses.py:diou_loss" not in _rewritten(default)
    assert "losses.py:diou_loss" in _alternatives(default)


def test_switched_in_the_config_the_picked_loss_is_a_row(diou) -> None:  # type: ignore[no-untyped-def]
    assert "diou_loss" in _loss_rows(diou)
    assert "losses.py:diou_loss" in _rewritten(diou)


def test_the_stored_attribute_is_told_in_every_method() -> None:
    from apiscan.extract.values import Expr
    from apiscan.review.work import _gate_key

    attribute = Expr(
        "Attribute",
        "self.loss_type",
        1,
        0,
        1,
        14,
        "loss_type",
        (Expr("Name", "self", 1, 0, 1, 4, "self"),),
    )
    assert _gate_key(attribute) == "=self.loss_type"
