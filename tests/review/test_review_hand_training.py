"""Multi-device and averaging machinery a training writes by hand (fixtures/handtrain): the
gradients all-reduced in the training loop and through parameter hooks (a work item and a
distributed row: MindSpore's data-parallel mode replaces them), a loss all-reduced for the
log (none), and an average of the weights interpolated with ``copy_(p.lerp(p_ema, beta))``
outside ``no_grad`` (an EMA row) beside a plain copy of the weights (none)."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where


@cache
def handtrain() -> Review:
    return review_fixture("fixtures/handtrain")


def test_gradients_all_reduced_by_hand_are_one_item() -> None:
    """VALID: ``dist.all_reduce(flat)`` of the flattened ``p.grad`` in ``train`` (with the
    ``nan_to_num`` cleaning the averaged gradients) and the
    hook's all-reduce of ``param.grad.data`` with the parameter broadcast of the function it
    is nested in; INVALID: ``reduce_tensor``'s all-reduce of a logged loss."""
    items = [i for i in handtrain().work if i.kind == "vendored-parallel"]
    assert [(i.what, i.where, i.uses) for i in items] == [
        (
            "sync_gradients.allreduce_params: all_reduce, broadcast; train: all_reduce, "
            "nan_to_num (the repository's own gradient all-reduce)",
            (
                Where("parallel.py", 15),
                Where("parallel.py", 20),
                Where("train.py", 29),
                Where("train.py", 31),
            ),
            2,
        )
    ]
    assert "ParallelMode.DATA_PARALLEL" in items[0].why and "nan_to_num" in items[0].why
    assert not any(w == Where("parallel.py", 8) for w in items[0].where)


def test_gradients_all_reduced_by_hand_are_distributed_rows() -> None:
    rows = [r for r in handtrain().recipe if r.category == "distributed"]
    assert [(r.name, r.where, r.values) for r in rows] == [
        (
            "gradient all-reduce written by hand (sync_gradients.allreduce_params)",
            Where("parallel.py", 20),
            (("broadcast", "parallel.py:15"), ("all_reduce", "parallel.py:20")),
        ),
        (
            "gradient all-reduce written by hand (train)",
            Where("train.py", 29),
            (("all_reduce", "train.py:29"), ("nan_to_num", "train.py:31")),
        ),
    ]
    assert all("data-parallel mode" in r.note for r in rows)


def test_a_weight_average_interpolated_with_lerp_is_an_ema_row() -> None:
    """VALID: ``p_ema.copy_(p.lerp(p_ema, ema_beta))`` over two models' parameters, outside
    ``no_grad``; INVALID: ``p_copy.copy_(p)``, a copy with no decay."""
    rows = [r for r in handtrain().recipe if r.category == "ema"]
    assert [(r.name, r.where, r.values[:2]) for r in rows] == [
        (
            "EMA of weights (train)",
            Where("train.py", 11),
            (
                ("update", "p_ema.copy_(p.lerp(p_ema, ema_beta)) at train.py:36"),
                ("ema_beta", "0.999 (default of parameter ema_beta of train() at train.py:11)"),
            ),
        )
    ]


def test_networks_pickled_whole_are_a_checkpoint_item() -> None:
    """VALID: ``_RenamingUnpickler(f).load()`` (a ``pickle.Unpickler`` subclass) checked
    ``isinstance(..., torch.nn.Module)``, ``pickle.dump`` of the modules kept by that test,
    and the training's call of the loader (the resume); INVALID: ``pickle.load`` of a
    dataset's annotations, with no module in sight."""
    items = [i for i in handtrain().work if i.kind == "checkpoint"]
    assert [(i.what, i.where) for i in items] == [
        (
            "pickled networks (written and read with pickle, not state dicts)",
            (Where("snapshot.py", 15), Where("snapshot.py", 23), Where("train.py", 19)),
        )
    ]
    assert "state_dict" in items[0].why and "mindspore.save_checkpoint" in items[0].why
    rows = [r.name for r in handtrain().recipe if r.category == "checkpoint"]
    assert rows == ["pickled networks (written and read with pickle, not state dicts)"]
