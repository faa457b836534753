"""Loss rows for what the training step differentiates when no ``*Loss`` class builds it, and
values that are no settings (``fixtures/criterionstep``): a torch module called in the
differentiated formula is the loss; a placeholder an object replaces itself and a list of
subprocesses are no rows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apiscan.review.build import build_review

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "criterionstep"


@pytest.fixture(scope="module")
def review():
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return build_review(str(FIXTURE))
    finally:
        os.chdir(cwd)


def _rows(review, category: str) -> dict[str, dict[str, str]]:
    return {
        f"{i.name} @ {i.where}": dict(i.values) for i in review.recipe if i.category == category
    }


def test_a_similarity_module_the_step_differentiates_is_the_loss(review) -> None:
    losses = _rows(review, "loss")
    # VALID: built in main, passed to train as a parameter, called in the differentiated loss
    assert losses["torch.nn.CosineSimilarity @ main.py:62"] == {
        "dim": "1",
        "loss": "-(criterion(p1, z2).mean() + criterion(p2, z1).mean()) * 0.5 + head(z1).mean()",
    }
    # INVALID: the torchvision model, the predictor and a layer called on one input (head)
    # step (their outputs feed the formula) but are no loss
    assert [k for k in losses if "main.py" in k] == [
        "torch.nn.CosineSimilarity @ main.py:62",
        "losses.PairLoss @ main.py:71",
    ]


def test_a_loss_output_and_the_backward_step_are_no_loss_settings(review) -> None:
    losses = _rows(review, "loss")
    # VALID: the constant the loss's forward keeps; INVALID: ``total = 0``, which the forward
    # adds its terms to in a loop and returns
    assert losses["losses.PairLoss @ main.py:71"] == {"margin": "0.5"}
    # INVALID: ``backprop_loss(loss)`` is named for a loss but differentiates the one it is given
    assert not [k for k in losses if "backprop_loss" in k]


def test_placeholders_and_containers_are_no_settings(review) -> None:
    # VALID: a configuration class's values, read where the run is built
    assert _rows(review, "distributed") == {"RunConfig.world_size @ env.py:20": {"value": "8"}}
    loaders = _rows(review, "dataloader")
    assert loaders["RunConfig.num_workers @ env.py:21"] == {"value": "4"}
    # INVALID: DistEnv's -1 placeholders (its own from_env sets them from the launcher's
    # variables) and the launcher's list of subprocesses
    assert not [k for k in loaders if k.startswith("workers @")]
    assert not [k for k in _rows(review, "distributed") if k.startswith("DistEnv.")]


def test_zeroing_fresh_states_is_no_initialisation(review) -> None:
    inits = _rows(review, "init")
    # VALID: the routine that sets the LSTM's parameters
    assert inits["Decoder.init_weights @ decoder.py:14"] == {
        "self.rnn.weight_ih.data.uniform_": "-0.1, 0.1",
        "self.rnn.bias_ih.data.zero_": "",
    }
    # INVALID: zeroing tensors made from the input on every forward (recurrent states)
    assert not [k for k in inits if k.startswith("Decoder.initialize_states")]


def test_an_initialiser_shows_the_gains_the_layers_are_built_with(review) -> None:
    inits = _rows(review, "init")
    # VALID: four LinearNorm calls (more than the value follower reads) pass three gains
    # and leave one at its default: each is shown, not the default alone
    assert inits["torch.nn.init.xavier_uniform_ @ layers.py:11"] == {
        "tensor": "self.linear.weight",
        "gain": "torch.nn.init.calculate_gain(w_init_gain) with w_init_gain = "
        '"tanh" | "relu" | "sigmoid" | "linear" (default)',
    }
    # INVALID: Scale's one call leaves std at its default, which the row shows as it was
    assert inits["torch.nn.init.normal_ @ layers.py:23"] == {
        "tensor": "self.weight",
        "std": "0.02 (default of parameter std of Scale.__init__() at layers.py:20)",
    }


def test_clipping_through_a_wrapper_method_is_clipping(review) -> None:
    assert _rows(review, "grad_clip") == {
        # torch's own function: its row, once
        "torch.nn.utils.clip_grad_norm_ @ main.py:39": {
            "parameters": "model.parameters()",
            "max_norm": "2.0",
        },
        # VALID: the same clipping as a method of what wraps the model (FSDP's)
        "pair.clip_grad_norm_ @ main.py:50": {"arg1": "1.0"},
    }


def test_a_teacher_averaged_over_tensor_lists_and_its_momentum_schedule_are_ema(review) -> None:
    emas = _rows(review, "ema")
    # VALID: _foreach_mul_ by m then _foreach_add_ with alpha=1 - m, m the indexed schedule
    ema = emas["EMA of weights (update_teacher) @ teacher.py:28"]
    assert (
        ema["decay"]
        == "momentum_schedule[it] (parameter m of Pair.update_teacher(), passed at main.py:52)"
    )
    # ... and the schedule indexed into it is the EMA's decay, not an LR schedule
    assert emas["teacher.CosineScheduler @ main.py:45"] == {
        "base_value": "0.996",
        "final_value": "1.0",
        "total_iters": "100",
    }
    # INVALID: the same scheduler class stored as the LR's stays a schedule, scaling the
    # student's weights (_foreach_mul_ alone) is no average, and neither are the moments
    # an optimizer (optim.py's ListAdam) updates over lists of tensors
    assert list(_rows(review, "scheduler")) == ["teacher.CosineScheduler @ main.py:44"]
    assert len(emas) == 2


def test_inline_terms_of_the_differentiated_loss_have_a_type_and_a_weight(review) -> None:
    terms = {k: v for k, v in _rows(review, "loss").items() if "gan.py" in k}
    note = "a term of the loss the training step differentiates"
    assert terms == {
        "term d_fake @ gan.py:11": {
            "type": "the mean of out_fake (a critic's score)",
            "term": "torch.mean(out_fake)",
            "weight": "1",
        },
        "term d_real @ gan.py:11": {
            "type": "minus the mean of out_real (a critic's score)",
            "term": "-torch.mean(out_real)",
            "weight": "1",
        },
        "weight of g_rec @ gan.py:18": {
            "type": "L1 (mean absolute difference)",
            "term": "torch.mean(torch.abs(x - G(fake)))",
            "weight": "lambda_rec = 10.0 (default of parameter lambda_rec of gan_step() at "
            "gan.py:6)",
        },
        # INVALID: g_aux (fake.sum()) is no loss kind the step's text tells, so no row is
        # invented; g_adv's mean of a call (D(fake)) is left untyped too
    }
    assert all(note in i.note for i in review.recipe if i.where.path == "gan.py")
