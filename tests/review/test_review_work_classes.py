"""Work items and what is counted apart, per class of defect a lead found by hand: a loader
importing an adapter framework in a branch (MiDaS), a Cython op (vits); fixtures/branchloader
and fixtures/cythonop, written small."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.build import build_review
from apiscan.review.model import Review

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def loader() -> Review:
    return review_fixture("fixtures/branchloader")


@pytest.fixture(scope="module")
def cython() -> Review:
    return review_fixture("fixtures/cythonop")


def test_a_loader_the_entry_imports_and_that_builds_the_model_is_ported(loader) -> None:
    apart = dict(loader.ancillary)
    # openvino is imported in a branch of the loader run.py calls: the loader is the model's
    assert "depth/loader.py" not in apart
    # a script about onnxruntime stays an adapter
    assert apart["export/run_onnx.py"].startswith("adapter for onnxruntime")


def test_the_tree_reads_the_backbone_the_default_selects_as_the_work_items_do(
    loader, tmp_path: Path
) -> None:
    """MiDaS's class: the model's ``pretrained`` part is the one encoder the default model
    type's branch builds, read from the same branches the work items read, not the three
    ``_make_encoder`` can build."""
    (top,) = loader.top_models
    assert top.cls == "depth.net.DepthNet"
    assert dict(top.parts)["pretrained"] == "_make_encoder(...) → timm vit_large_patch16_384"
    # INVALID: branches no string names (a length test) leave no encoder out: all listed
    root = tmp_path / "branchloader"
    shutil.copytree(REPO / "fixtures" / "branchloader", root)
    encoder = root / "depth" / "encoder.py"
    text = encoder.read_text(encoding="utf-8")
    text = text.replace('backbone == "large"', "len(backbone) > 4")
    encoder.write_text(text.replace('backbone == "small"', "len(backbone) > 3"), "utf-8")
    (top,) = build_review(str(root), jobs=1).top_models
    assert dict(top.parts)["pretrained"] == (
        "_make_encoder(...) → timm vit_large_patch16_384, timm vit_small_patch16_224, "
        "torchvision.models.resnet50"
    )


def test_only_the_backbone_the_default_model_type_selects_is_counted(loader) -> None:
    # --model_type depth_large → DepthNet(backbone="large") → _make_encoder's "large"
    # branch → _make_large; the other branches' backbones are alternatives, and the literal
    # False passed down means the architecture only (the weights are the checkpoint's)
    backbones = [i for i in loader.work if i.kind == "pretrained-backbone"]
    assert [i.what for i in backbones] == ['timm.create_model("vit_large_patch16_384")']
    why = backbones[0].why
    assert "architecture only: pretrained is False" in why
    assert "pretrained weights converted" not in why
    assert "branches the defaults do not take" in why
    assert "_make_small()" in why and "_make_resnet()" in why  # the else branch too
    # priced as the architecture alone: no weights of the zoo's to convert
    assert "1 backbone-architecture × 0.5–1" in loader.effort.formula


def test_a_cython_op_imported_beside_its_source_is_a_compiled_op(cython) -> None:
    ops = [i for i in cython.work if i.kind.startswith("compiled")]
    assert [(i.kind, i.what) for i in ops] == [
        ("compiled-op", "align.align.core.core (maximum_path_c)")
    ]
    assert "Cython" in ops[0].why and "host" in ops[0].why
    assert [str(w) for w in ops[0].where] == ["align/__init__.py:14"]


@pytest.fixture(scope="module")
def zoo() -> Review:
    return review_fixture("fixtures/ownzoo")


def test_a_zoo_factory_building_a_name_the_repository_registers_is_its_own_model(zoo) -> None:
    backbones = [i for i in zoo.work if i.kind == "pretrained-backbone"]
    # ``create_model(args.model)``, ``--model`` defaulting to the repository's registered
    # ``own_vit_tiny``, is no third-party backbone; the timm class it extends is the one item
    assert [i.what for i in backbones] == [
        "timm.models.vision_transformer.VisionTransformer (extended by DistilledViT)"
    ]
    # the teacher is built only with distillation on (off by default): mentioned, not counted
    assert "optional" in backbones[0].why
    assert 'only if args.distillation_type != "none", off by default' in backbones[0].why
    # an extended class, built without the zoo's weights: the architecture alone
    assert zoo.effort.formula.count("backbone") == 1
    assert "1 backbone-architecture × 0.5–1" in zoo.effort.formula


def test_settings_are_deleted_and_dead_code_is_not_counted(zoo) -> None:
    # torch.set_printoptions and torch.distributed.is_nccl_available are settings; prune()
    # is called by nothing; torch.use_deterministic_algorithms runs only under ``if
    # deterministic:``, which the one call, ``init_seeds()``, leaves False: no work
    assert " gap " not in zoo.effort.formula
    rows = {d: sites for d, _, sites, _ in zoo.effort.by_disposition}
    assert rows["gap"] == 0
    assert rows["delete"] == 2
