"""Code reached only under an option the defaults switch off, through a local, a parameter or
a method, is no effort: fixtures/offgates."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/offgates")


def _gaps(review: Review) -> str:
    return next(s for s in review.effort.explanation if "gap site" in s)


def test_a_local_assigned_once_from_an_off_option_switches_its_branch_off(review) -> None:
    gaps = _gaps(review)
    # INVALID: ``sharded = args.fsdp and ...; if sharded:`` never runs
    assert "torch.distributed.checkpoint.save" not in gaps
    # VALID: its ``else`` runs, and so does ``plain = not args.fsdp; if plain:``
    assert "torch.distributed.checkpoint.state_dict.get_model_state_dict" in gaps
    assert "torch.distributed.checkpoint.state_dict.get_state_dict" in gaps
    # VALID: ``shards = []`` appended to before ``if shards:``: the assignment does not tell
    assert "torch.distributed.checkpoint.state_dict.set_state_dict" in gaps


def test_a_parameter_every_call_passes_off_switches_its_branch_off(review) -> None:
    gaps = _gaps(review)
    # INVALID: every call passes ``args.fsdp`` (False by default) for ``fsdp_enabled``
    assert "get_optimizer_state_dict" not in gaps
    # VALID: one call of ``export_model`` passes ``sharded=True``
    assert "torch.distributed.checkpoint.state_dict.set_model_state_dict" in gaps


def test_a_method_called_only_under_an_off_option_is_off(review) -> None:
    gaps = _gaps(review)
    # INVALID: ``task.prepare_fsdp()`` only under ``if args.fsdp:``
    assert "register_fsdp_forward_method" not in gaps
    # VALID: ``task.profile()`` is called outside the branch too
    assert "torch.utils.flop_counter.FlopCounterMode" in gaps
    assert "5 gap sites" in gaps
