"""Work only the code the picked run reaches gives (issue 20: a review a lead can plan with).

A yacs repository whose config picks ``OnePath``: its parts are built by ``from_config``-style
classmethods reading config keys. What the run's values leave out is no work:

- a head registered in a registry whose builder only the unpicked ``TwoPath`` (and a side
  project counted apart) call: an alternative, its int ``scale_factor`` no item;
- a head built only after ``if not cfg.MODEL.KEYPOINT_ON: return {}`` with the key False;
- an ``elif pooler_type == "pool":`` branch after the branch the config's ``POOLER_TYPE``
  takes: its ``torchvision.ops.RoIPool`` no custom op;
- a block built under ``if deform_on[idx]:`` with the config's list off at every stage.

A copy whose config switches the key on and picks the pooling branch has them. The config's
``MODEL.WEIGHTS`` names a pickled weight dict (``.pkl``): a conversion work item."""

from __future__ import annotations

import pytest
from registry_repo import FILES as REGISTRY_FILES
from scan_helpers import write_repo

from apiscan.review.build import build_review

DEFAULTS = REGISTRY_FILES["vid/config/defaults.py"].replace(
    '_C.MODEL.MODEL_NAME = "TwoPath"\n',
    '_C.MODEL.MODEL_NAME = "TwoPath"\n'
    "        _C.MODEL.KEYPOINT_ON = False\n"
    '        _C.MODEL.POOLER_TYPE = "align"\n'
    '        _C.MODEL.SEG_HEAD = "SegHead"\n'
    '        _C.MODEL.KEY_HEAD = "KeyHead"\n'
    '        _C.MODEL.WEIGHTS = ""\n'
    "        _C.MODEL.DEFORM_ON = [False, False]\n",
)

FILES = {
    **REGISTRY_FILES,
    "vid/config/defaults.py": DEFAULTS,
    "vid/models/heads.py": """
        import torch
        from fvcore.common.registry import Registry
        from torch import nn

        SEG_HEADS = Registry("SEG_HEADS")
        KEY_HEADS = Registry("KEY_HEADS")


        def build_seg_head(cfg):
            return SEG_HEADS.get(cfg.MODEL.SEG_HEAD)(cfg)


        def build_key_head(cfg):
            return KEY_HEADS.get(cfg.MODEL.KEY_HEAD)(cfg)


        @SEG_HEADS.register()
        class SegHead(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.up = nn.Upsample(scale_factor=2)

            def forward(self, x):
                return self.up(x)


        @KEY_HEADS.register()
        class KeyHead(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.conv = nn.Conv2d(8, 8, 3)
                nn.init.kaiming_normal_(self.conv.weight, mode="fan_out")

            def forward(self, x):
                return torch.nn.functional.interpolate(self.conv(x), scale_factor=4)
    """,
    "vid/models/pooler.py": """
        import torch
        import torchvision
        from torch import nn


        class Pooler(nn.Module):
            def __init__(self, size, pooler_type):
                super().__init__()
                if pooler_type == "align":
                    self.op = torchvision.ops.RoIAlign(size, 1.0, 2, aligned=True)
                elif pooler_type == "pool":
                    self.op = torchvision.ops.RoIPool(size, 1.0)
                else:
                    raise ValueError(pooler_type)

            def forward(self, x, boxes):
                return self.op(x, boxes)
    """,
    "vid/models/nets.py": """
        from torch import nn

        from .build import MODEL_REGISTRY
        from .heads import build_key_head, build_seg_head
        from .pooler import Pooler


        class Stem(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv2d(3, dim, 3)

            def forward(self, x):
                return self.conv(x)


        class _Shift(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                if torch.jit.is_scripting():
                    return x
                return torch.roll(x, 1, 2)

            @staticmethod
            def backward(ctx, grad):
                return torch.roll(grad, -1, 2)


        shift = _Shift.apply


        class DeformBlock(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.offset = nn.Conv2d(dim, 18, 3, padding=1)
                self.weight = nn.Parameter(torch.zeros(dim, dim, 3, 3))

            def forward(self, x):
                y = torchvision.ops.deform_conv2d(x, self.offset(x), self.weight, padding=1)
                return shift(y)


        def build_stages(cfg):
            deform_on = cfg.MODEL.DEFORM_ON
            stages = []
            for idx in range(2):
                if deform_on[idx]:
                    stages.append(DeformBlock(8))
                else:
                    stages.append(Stem(8))
            return nn.Sequential(*stages)


        @MODEL_REGISTRY.register()
        class TwoPath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.stem = Stem(8)
                self.seg = build_seg_head(cfg)

            def forward(self, x):
                return self.seg(self.stem(x))


        @MODEL_REGISTRY.register()
        class OnePath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.stem = build_stages(cfg)
                parts = self._init_parts(cfg)
                self.pooler = parts["pooler"]
                self.key = parts.get("key")

            @classmethod
            def _init_parts(cls, cfg):
                pooler_type = cfg.MODEL.POOLER_TYPE
                ret = {"pooler": Pooler(7, pooler_type=pooler_type)}
                ret.update(cls._init_key(cfg))
                return ret

            @classmethod
            def _init_key(cls, cfg):
                if not cfg.MODEL.KEYPOINT_ON:
                    return {}
                return {"key": build_key_head(cfg)}

            def forward(self, x):
                y = self.stem(x)
                if self.key is not None:
                    y = self.key(y)
                return self.pooler(y, [])
    """,
    # a side project counted apart that builds the segmentation head too
    "projects/seg/seg_net.py": """
        from torch import nn

        from vid.models.heads import build_seg_head


        class SegNet(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.seg = build_seg_head(cfg)
    """,
}


def _on(files: dict[str, str]) -> dict[str, str]:
    """The same repository with the config switching the keypoint head on and picking the
    pooling branch."""
    out = dict(files)
    out["configs/K/ONE.yaml"] = files["configs/K/ONE.yaml"].replace(
        "          MODEL_NAME: OnePath\n",
        "          MODEL_NAME: OnePath\n          KEYPOINT_ON: True\n          POOLER_TYPE: pool\n"
        "          DEFORM_ON: [True, False]\n",
    )
    return out


@pytest.fixture(scope="module")
def off(tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("cfgbranch"), FILES)))


@pytest.fixture(scope="module")
def on(tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("cfgbranch_on"), _on(FILES))))


def _gap_apis(review) -> set[str]:  # type: ignore[no-untyped-def]
    return {g.api for g in review.gaps}


def test_a_head_only_unpicked_models_build_is_an_alternative(off) -> None:  # type: ignore[no-untyped-def]
    assert off.top_models[0].cls.endswith("nets.OnePath")
    # the side project calling its builder too keeps it no part of the run
    assert any(c.endswith("heads.SegHead") for c in off.alternatives)
    assert not [i for i in off.work if "Upsample" in i.what]


def test_a_head_after_a_guard_the_config_returns_from_is_no_work(off) -> None:  # type: ignore[no-untyped-def]
    assert any(c.endswith("heads.KeyHead") for c in off.alternatives)
    assert not [i for i in off.work if "interpolate" in i.what]


def test_the_branch_the_config_s_pooler_type_skips_is_no_work(off) -> None:  # type: ignore[no-untyped-def]
    assert "torchvision.ops.RoIPool" not in _gap_apis(off)


def test_a_per_stage_switch_off_at_every_stage_builds_no_block(off, on) -> None:  # type: ignore[no-untyped-def]
    # the block's own parameter is the only one of the repository
    assert "torch.nn.Parameter" not in _gap_apis(off)
    assert "torch.nn.Parameter" in _gap_apis(on)


def test_switched_on_the_head_and_the_pooling_branch_are_work(on) -> None:  # type: ignore[no-untyped-def]
    assert not any(c.endswith("heads.KeyHead") for c in on.alternatives)
    assert [i for i in on.work if "interpolate" in i.what]
    assert "torchvision.ops.RoIPool" in _gap_apis(on)
    # the segmentation head stays an alternative: only the unpicked model builds it
    assert any(c.endswith("heads.SegHead") for c in on.alternatives)


def test_the_head_a_guard_leaves_out_gives_no_recipe_row(off, on) -> None:  # type: ignore[no-untyped-def]
    def inits(review):  # type: ignore[no-untyped-def]
        return [r for r in review.recipe if r.name == "torch.nn.init.kaiming_normal_"]

    assert not inits(off)
    assert [r.where.path for r in inits(on)] == ["vid/models/heads.py"]


def test_a_non_torch_weight_file_the_config_names_is_a_conversion(tmp_path) -> None:  # type: ignore[no-untyped-def]
    files = dict(FILES)
    files["configs/K/ONE.yaml"] = files["configs/K/ONE.yaml"].replace(
        "          MODEL_NAME: OnePath\n",
        '          MODEL_NAME: OnePath\n          WEIGHTS: "catalog://ImageNet/R-50.pkl"\n',
    )
    review = build_review(str(write_repo(tmp_path, files)))
    found = [i for i in review.work if i.kind == "checkpoint" and "R-50.pkl" in i.what]
    assert [i.what for i in found] == ["MODEL.WEIGHTS = catalog://ImageNet/R-50.pkl"]
    assert [w.path for w in found[0].where] == ["configs/K/ONE.yaml"]
    assert "pickle" in found[0].why
    # a torch file is no conversion of its own
    files["configs/K/ONE.yaml"] = files["configs/K/ONE.yaml"].replace("R-50.pkl", "R-50.pth")
    review = build_review(str(write_repo(tmp_path / "pth", files)))
    assert not [i for i in review.work if "R-50" in i.what]


def test_left_out_follows_a_module_level_alias_and_skipped_branches(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The unit rule: a def only a module-level alias names (``shift = _Shift.apply``) is
    left out when every use of the alias is; a reference in a skipped branch is one from
    left-out code; a file counted apart keeps nothing that left-out code also reaches."""
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.program.index import ClassTable, Hierarchy
    from apiscan.resolve.torch_api import load_torch_api
    from apiscan.review.leftout import left_out

    root = write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/ops.py": """
                import torch


                class _Shift(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, x):
                        return x


                shift = _Shift.apply


                class Shifted(torch.nn.Module):
                    def forward(self, x):
                        return shift(x)


                class Plain(torch.nn.Module):
                    def forward(self, x):
                        return x


                def helper(x):
                    return x


                def build(kind):
                    if kind == "shift":
                        return Shifted()
                    return Plain()


                def other():
                    return helper(1)
            """,
            "projects/side.py": """
                from pkg.ops import helper

                helper(2)
            """,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    hierarchy = Hierarchy(analyses, ClassTable(analyses, load_torch_api()))
    ops = next(fa for fa in analyses if fa.path == "pkg/ops.py")
    lines = {d.qual: (d.line, d.end_line) for d in ops.syntax.values.defs}
    body = next(b for d in ops.syntax.values.defs for b in d.branches if d.qual == "build")
    skipped = {"pkg/ops.py": [(body.line + 1, body.body_end)]}
    left = left_out(analyses, hierarchy, ["pkg.ops.other"], skipped=skipped)
    assert lines["Shifted"] in left["pkg/ops.py"]
    assert lines["_Shift"] in left["pkg/ops.py"]  # through the alias only Shifted uses
    assert lines["Plain"] not in left["pkg/ops.py"]
    # the side project's call keeps the helper ...
    assert lines["helper"] not in left["pkg/ops.py"]
    # ... unless files counted apart keep nothing
    apart = left_out(
        analyses,
        hierarchy,
        ["pkg.ops.other"],
        skipped=skipped,
        apart=lambda path: path.startswith("projects/"),
    )
    assert lines["helper"] in apart["pkg/ops.py"]
