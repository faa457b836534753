"""Multi-device and averaging machinery a training writes by hand (fixtures/handtrain): the
gradients all-reduced in the training loop, through parameter hooks and through the
repository's own wrapper of the collective (a work item and distributed rows: MindSpore's
data-parallel mode replaces them), a loss all-reduced for the log (none), an average of the
weights interpolated with ``copy_(p.lerp(p_ema, beta))`` outside ``no_grad`` (an EMA row)
beside a plain copy of the weights (none), and networks pickled whole (a checkpoint item)
beside a pickle of annotations (none)."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where


@cache
def handtrain() -> Review:
    return review_fixture("fixtures/handtrain")


def test_gradients_all_reduced_by_hand_are_one_item() -> None:
    """VALID: ``dist.all_reduce(flat)`` of the flattened ``p.grad`` in ``train`` (with the
    ``nan_to_num`` cleaning the averaged gradients), the hook's all-reduce of
    ``param.grad.data`` with the parameter broadcast of the function it is nested in, and
    ``all_reduce(p.grad.data, group)`` through the repository's wrapper in
    ``all_reduce_grads`` (the call, line 22, and the wrapper's collective); INVALID:
    ``reduce_tensor``'s all-reduce of a logged loss, which ``train`` also calls (it averages
    its gradients with its own collective)."""
    items = [i for i in handtrain().work if i.kind == "vendored-parallel"]
    assert [(i.what, i.where, i.uses) for i in items] == [
        (
            "all_reduce_grads: all_reduce; sync_gradients.allreduce_params: all_reduce, "
            "broadcast; train: all_reduce, nan_to_num (the repository's own gradient "
            "all-reduce)",
            (
                Where("parallel.py", 14),
                Where("parallel.py", 22),
                Where("parallel.py", 28),
                Where("parallel.py", 33),
                Where("train.py", 31),
                Where("train.py", 33),
            ),
            3,
        )
    ]
    assert "ParallelMode.DATA_PARALLEL" in items[0].why and "nan_to_num" in items[0].why
    assert Where("parallel.py", 8) not in items[0].where


def test_gradients_all_reduced_by_hand_are_distributed_rows() -> None:
    rows = [r for r in handtrain().recipe if r.category == "distributed"]
    assert [(r.name, r.where, r.values) for r in rows] == [
        (
            "gradient all-reduce written by hand (all_reduce_grads)",
            Where("parallel.py", 14),
            (("all_reduce", "parallel.py:14"),),
        ),
        (
            "gradient all-reduce written by hand (sync_gradients.allreduce_params)",
            Where("parallel.py", 33),
            (("broadcast", "parallel.py:28"), ("all_reduce", "parallel.py:33")),
        ),
        (
            "gradient all-reduce written by hand (train)",
            Where("train.py", 31),
            (("all_reduce", "train.py:31"), ("nan_to_num", "train.py:33")),
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
                ("update", "p_ema.copy_(p.lerp(p_ema, ema_beta)) at train.py:38"),
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
