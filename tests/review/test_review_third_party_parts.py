"""Third-party packages in the ported path, known by what the code uses them for (issue 20),
on fixtures/thirdparts: a pretrained model a Module holds (``visionclip.load(...,
device=...)``), a renderer's classes built where the network computes, a data pipeline's
field and bucketing iterator; and the repository's own copies of synchronized BatchNorm and
of a data-parallel wrapper. Beside them what is none of these: a file reader, a logger, a
pickle read, a package imported optionally, a dataset built only by a tool, and a BatchNorm
subclass that synchronises nothing."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/thirdparts")


def _items(review, kind: str) -> list[tuple[str, int, list[str]]]:
    return [
        (i.what, i.uses, [f"{w.path}:{w.line}" for w in i.where])
        for i in review.work
        if i.kind == kind
    ]


def test_a_loader_held_by_a_module_is_a_pretrained_third_party_model(review) -> None:
    # VALID: ``self.encoder, self.preprocess = visionclip.load(..., device=device)``;
    # INVALID: ``dill.load(open(...))`` in the training script (a file's contents)
    assert _items(review, "third-party-model") == [
        ("visionclip (visionclip.load)", 1, ["model.py:23"])
    ]
    (item,) = [i for i in review.work if i.kind == "third-party-model"]
    assert "released weights converted" in item.why
    assert not any("dill" in i.what for i in review.work)


def test_classes_built_where_the_network_computes_are_third_party_layers(review) -> None:
    # VALID: the rasteriser and its settings built in render(), called by Net.forward;
    # INVALID: blobio.BlobFile read in a network file's config reader (no tensor work
    # there), fastblur imported in a try/except ImportError (the code runs without it),
    # phonekit's Separator built where the network computes but never handed a device
    assert _items(review, "third-party-layer") == [
        (
            "rasterkit (rasterkit.renderer.MeshRasterizer, rasterkit.renderer.RasterSettings)",
            2,
            ["model.py:48", "model.py:49"],
        )
    ]
    assert not any(p in i.what for i in review.work for p in ("blobio", "fastblur", "phonekit"))


def test_a_data_pipeline_of_a_third_party_package_is_one_item(review) -> None:
    # VALID: Field and BucketIterator built by the training script; INVALID: the
    # TranslationDataset only a tool builds (counted apart), tensorboardX's SummaryWriter
    assert _items(review, "third-party-data") == [
        (
            "textkit (textkit.data.BucketIterator, textkit.data.Field)",
            2,
            ["train.py:12", "train.py:13"],
        )
    ]
    (item,) = [i for i in review.work if i.kind == "third-party-data"]
    assert "mindspore.dataset" in item.why and "bucket_batch_by_length" in item.why
    assert not any("tensorboardX" in i.what or "TranslationDataset" in i.what for i in review.work)


def test_own_copies_of_sync_batch_norm_and_data_parallel_are_swapped_for_builtins(review) -> None:
    # VALID: SyncNorm2d (its base reduces across devices with torch.nn.parallel) and
    # DictDataParallel (an nn.DataParallel); INVALID: FrozenNorm2d, a _BatchNorm whose
    # file moves nothing across devices
    assert _items(review, "vendored-parallel") == [
        ("SyncNorm2d (the repository's own synchronized BatchNorm)", 1, ["model.py:35"]),
        (
            "DictDataParallel (the repository's own data-parallel wrapper)",
            1,
            ["train.py:17"],
        ),
    ]
    whys = " ".join(i.why for i in review.work if i.kind == "vendored-parallel")
    assert "mindspore.nn.SyncBatchNorm" in whys and "DATA_PARALLEL" in whys
    assert not any("FrozenNorm2d" in i.what for i in review.work)


def test_the_items_are_priced(review) -> None:
    formula = review.effort.formula
    for part in (
        "1 third-party-model × 1.5–3",
        "1 third-party-layer × 1–2",
        "1 third-party-data × 0.5–1",
        "2 vendored-parallel as",
    ):
        assert part in formula, part


def test_the_files_of_an_own_copy_are_counted_apart(review) -> None:
    # VALID: the sync BatchNorm's file and the pipe only it uses; INVALID: the wrapper's
    # file, whose collate function the training script calls, and the frozen BatchNorm's
    apart = dict(review.ancillary)
    assert (
        apart["lib/nn/batchnorm.py"] == "own copy of a MindSpore built-in (synchronized BatchNorm)"
    )
    assert apart["lib/nn/comm.py"] == "own copy of a MindSpore built-in (synchronized BatchNorm)"
    assert "lib/nn/parallel.py" not in apart and "lib/nn/frozen.py" not in apart


def test_a_tokenizer_loaded_by_name_is_data_not_a_model() -> None:
    from apiscan.review.oplibs import data_object

    # VALID: a tokenizer's constructor, a field class; INVALID: a model's loader, a module
    assert data_object("textkit.AutoTokenizer.from_pretrained")
    assert data_object("textkit.data.Field")
    assert not data_object("visionclip.load")
    assert not data_object("rasterkit.renderer.MeshRasterizer")
