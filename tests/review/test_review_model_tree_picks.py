"""The top model picked by name where the pick is not a class of the repository's own: a
``@register_model`` function returning a third-party class (DeiT's ``deit_base_patch16_224``
returning timm's ``VisionTransformer``), and a builder function picked by
``eval('models.' + cfg.MODEL.NAME + '.get_pose_net')`` (HRNet), whose pick follows the YAML
the training command names. Small repositories under fixtures/modeltree/ written for the
cases; the YAML configs a review reads once (:class:`~apiscan.review.readings.Readings`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review
from apiscan.review.config_files import yaml_configs
from apiscan.review.readings import Readings
from apiscan.review.structure import THIRD_PARTY

_ROOT = Path("fixtures/modeltree")


def test_a_registered_function_returning_a_third_party_class_is_the_model() -> None:
    """``create_model(args.model)`` with ``--model`` defaulting to ``vit_base``, registered
    in models.py returning timm's ``VisionTransformer(...)``: that class is the top model
    (not the repository's own ``MlpNet``, registered too), shown as third-party with the
    literal sizes the function passes, the other sizes of models.py its alternatives."""
    review = build_review(str(_ROOT / "foreignreg"), jobs=1)
    top = review.top_models[0]
    parts = dict(top.parts)
    assert top.cls == "timm.models.vision_transformer.VisionTransformer"
    assert (top.where.path, top.builder) == ("main.py", "main")
    assert parts["selected by"].endswith("→ vit_base()")
    assert "args.model = 'vit_base'" in parts["selected by"]
    assert parts[THIRD_PARTY] == (
        "timm.models.vision_transformer.VisionTransformer(patch_size=16, embed_dim=768, "
        "depth=12, num_heads=12, qkv_bias=True)"
    )
    # the other sizes of its module, and the repository's own model another name builds
    assert parts["alternatives"] == "vit_tiny; MlpNet (mlp_12)"
    assert "mlp_models.MlpNet" not in {m.cls for m in review.top_models[:1]}


def test_a_builder_picked_by_eval_of_a_config_key() -> None:
    """``eval('models.' + cfg.MODEL.NAME + '.get_pose_net')(cfg)``: the Python default
    ``MODEL.NAME = 'pose_a'`` picks PoseA; pose_b.py's ``get_pose_net`` is its alternative,
    named by two of the three YAML configs."""
    review = build_review(str(_ROOT / "evalpick"), jobs=1)
    top = review.top_models[0]
    parts = dict(top.parts)
    assert top.cls.endswith("models.pose_a.PoseA")
    assert parts["selected by"] == (
        "eval('models.' + cfg.MODEL.NAME + '.get_pose_net'): cfg.MODEL.NAME = 'pose_a', "
        "default at lib/config/default.py:5 → get_pose_net()"
    )
    assert parts["block"] == "Block"
    assert parts["alternatives"] == "PoseB (pose_b.get_pose_net; named by 2 of 3 YAML configs)"
    assert [m.cls for m in review.top_models] == [top.cls]  # PoseB is no second top model


def test_the_eval_pick_follows_the_yaml_the_training_command_names(tmp_path: Path) -> None:
    """The README's training command names experiments/a/b.yaml, whose ``MODEL.NAME`` is
    ``pose_b``: PoseB is the model, PoseA the alternative."""
    repo = tmp_path / "evalpick"
    shutil.copytree(_ROOT / "evalpick", repo)
    (repo / "README.md").write_text(
        "# Pose\n\nTraining:\n\n```\npython tools/train.py --cfg experiments/a/b.yaml\n```\n"
    )
    review = build_review(str(repo), jobs=1)
    top = review.top_models[0]
    parts = dict(top.parts)
    assert top.cls.endswith("pose_b.PoseB")
    assert "cfg.MODEL.NAME = 'pose_b', default at experiments/a/b.yaml:2" in parts["selected by"]
    assert parts["alternatives"] == "PoseA (pose_a.get_pose_net; named by 1 of 3 YAML configs)"


def test_the_yaml_configs_are_read_once_per_review_and_never_kept_between_reviews() -> None:
    """``yaml_configs`` reads the files each call (no module-level state); a review's
    :class:`Readings` reads them on first use and hands the same reading to the recipe and
    the model tree."""
    from apiscan.pipeline import ScanOptions, scan_with_facts

    root = _ROOT / "evalpick"
    _, analyses = scan_with_facts(ScanOptions(root, cache_dir=None, jobs=1))
    first, second = yaml_configs(root, analyses), yaml_configs(root, analyses)
    assert first is not None and second is not None and first is not second
    assert first.defaults.keys() == second.defaults.keys()
    readings = Readings(root, analyses)
    assert readings.yaml is readings.yaml
    assert Readings(root, analyses).yaml is not readings.yaml
