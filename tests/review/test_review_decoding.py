"""A generator's inference path: fixtures/textgen only infers (sampling settings and draw,
a float16 default dtype, a checkpoint sharded by rank and loaded non-strictly, a host read
per generated token, a KV cache growing per step, tensor-parallel layers, a loss function
that scores); fixtures/textgen_trained trains, so its evaluation loop is no inference path."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/textgen")


def _rows(review: Review, category: str) -> list[tuple[str, str, int, dict[str, str]]]:
    return [
        (item.name, item.where.path, item.where.line, dict(item.values))
        for item in review.recipe
        if item.category == category
    ]


def test_a_loss_function_of_an_inference_only_repository_scores(review: Review) -> None:
    assert review.inference_only
    assert _rows(review, "loss") == []
    [(name, path, line, _)] = _rows(review, "scoring")
    assert (name, path, line) == ("torch.nn.functional.cross_entropy", "textgen/generation.py", 50)
    scoring = next(item for item in review.recipe if item.category == "scoring")
    assert scoring.note.startswith("scores the outputs")


def test_sampling_settings_are_read_where_they_decide(review: Review) -> None:
    # generate reads its defaults; complete only forwards them by keyword: no row
    assert _rows(review, "sampling") == [
        (
            "sampling settings in Generator.generate",
            "textgen/generation.py",
            32,
            {"code": "def generate(...)", "temperature": "0.7", "top_k": "40"},
        ),
        (
            "random draw in sample_top_k",
            "textgen/generation.py",
            65,
            {"code": "torch.multinomial(values, num_samples=1)", "ops": "topk, multinomial"},
        ),
    ]


def test_global_precision_and_sharded_checkpoints(review: Review) -> None:
    [precision] = [item for item in review.recipe if item.name.startswith("default dtype")]
    assert precision.category == "amp"
    assert dict(precision.values)["dtype"] == "torch.cuda.HalfTensor"
    checkpoints = _rows(review, "checkpoint")
    # the shard a rank picks (not ``shards[0]``), torch.load, and strict=False
    assert sorted((line, name) for name, _, line, _ in checkpoints) == [
        (19, "checkpoint sharded by rank in Generator.build"),
        (20, "torch.load"),
        (24, "weights loaded non-strictly in Generator.build"),
    ]
    [sharded] = [values for name, _, _, values in checkpoints if "sharded" in name]
    assert sharded["shard"] == "get_model_parallel_rank()"


def test_decode_loop_syncs_and_growing_caches(review: Review) -> None:
    # the loop that runs the network stops on a host read; stop_words' loop runs none; the
    # fixed-size store into ``self.summary`` grows nothing
    assert _rows(review, "decoding") == [
        (
            "host read per generated step in Generator.generate",
            "textgen/generation.py",
            46,
            {"code": "if all(eos): break", "read on the host": "all(eos)"},
        ),
        (
            "cache growing per step in Attention.forward",
            "textgen/model.py",
            21,
            {"code": "self.cache_k[:b, pos : pos + n]", "written at": "pos"},
        ),
    ]
    [cache] = [w for w in review.work if w.kind == "growing-cache"]
    assert (cache.what, [str(w) for w in cache.where]) == (
        "Attention.forward",
        ["textgen/model.py:21"],
    )


def test_tensor_parallel_layers_are_a_work_item_and_the_parts_layers(review: Review) -> None:
    [item] = [w for w in review.work if w.kind == "model-parallel"]
    assert item.what == (
        "fairscale model parallelism (ColumnParallelLinear, ParallelEmbedding, "
        "RowParallelLinear, initialize_model_parallel)"
    )
    assert item.uses == 4
    layers = {m.cls: dict(m.layers) for m in review.modules}
    assert layers["textgen.model.Attention"] == {
        "fairscale.nn.model_parallel.layers.ColumnParallelLinear": 2,
        "fairscale.nn.model_parallel.layers.RowParallelLinear": 1,
    }


def test_a_training_repositorys_evaluation_loop_is_no_inference_path() -> None:
    review = review_fixture("fixtures/textgen_trained")
    assert not review.inference_only
    assert [item.category for item in review.recipe] == ["optimizer", "loss", "model"]
    assert not any(w.kind in ("growing-cache", "model-parallel") for w in review.work)
