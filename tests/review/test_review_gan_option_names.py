"""The option names of the pix2pix family of GAN trainings: ``--D_steps_per_G`` is the
alternation of the two networks' steps (no training length), ``--niter`` the epochs at the
starting learning rate and ``--niter_decay`` the epochs of its linear decay (issue 20)."""

from __future__ import annotations

from apiscan.review.recipe import _setting_category


def test_pix2pix_family_option_names() -> None:
    assert _setting_category("D_steps_per_G") == "alternation"
    assert _setting_category("niter") == "epochs"
    assert _setting_category("niter_decay") == "scheduler"
    # unchanged neighbours
    assert _setting_category("n_critic") == "alternation"
    assert _setting_category("num_iter") == "epochs"
