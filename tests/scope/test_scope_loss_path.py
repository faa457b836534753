"""The loss path of a training step: what it calls between the model's outputs and the backward
pass is network, wherever it is defined (fixtures/losspath)."""

from __future__ import annotations

import ast
import textwrap
from functools import cache
from pathlib import Path

import pytest

from apiscan.extract.loss_path import LossPath, is_model_name, loss_paths
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable
from apiscan.resolve.torch_api import load_torch_api
from apiscan.scope import ScopeMap

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "losspath"


@cache
def fixture_scopes() -> ScopeMap:
    _, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    return ScopeMap.build(analyses, ClassTable(analyses, load_torch_api()))


@pytest.mark.parametrize(
    ("path", "function", "scope"),
    [
        # VALID: a data module's helper applied to the generator's output before the backward
        ("vocoder/features.py", "mel_spectrogram", "network"),
        ("vocoder/features.py", "log_compress", "network"),  # and what it calls
        # VALID: a diffusion's training terms, given the model, then backpropagated
        ("vocoder/diffusion.py", "Diffusion.training_terms", "network"),
        ("vocoder/diffusion.py", "Diffusion.q_sample", "network"),
        ("vocoder/diffusion.py", "mean_flat", "network"),
        ("vocoder/diffusion.py", "extract", "network"),  # sampling uses it too: network wins
        # INVALID: the dataset's own helper stays data
        ("vocoder/features.py", "loudness", "data"),
        ("vocoder/dataset.py", "WavSet.__getitem__", "data"),
        # INVALID: before the model, a size of the output, logging after the backward
        ("vocoder/features.py", "normalize", "host"),
        ("vocoder/features.py", "crop_count", "host"),
        ("vocoder/features.py", "spectral_stats", "host"),
        # INVALID: an object the step calls that is no nn.Module (a mixup) starts no path
        ("vocoder/models.py", "Mixer.__call__", "host"),
        ("vocoder/models.py", "mix_pairs", "host"),
        # INVALID: a sampling loop calls the model but runs no backward
        ("vocoder/diffusion.py", "Diffusion.sample_loop", "host"),
        ("vocoder/diffusion.py", "Diffusion.p_step", "host"),
        ("vocoder/diffusion.py", "Diffusion.posterior", "host"),
        ("sample.py", "main", "host"),
        # the training steps themselves are host loops
        ("train.py", "train_vocoder", "host"),
        ("train.py", "train_diffusion", "host"),
    ],
)
def test_fixture_scopes(path: str, function: str, scope: str) -> None:
    assert fixture_scopes().scope_of(path, function) == scope


def paths(src: str) -> dict[str, LossPath]:
    text = textwrap.dedent(src)
    return {p.function: p for p in loss_paths(ast.parse(text), text)}


def test_the_record_names_the_calls_between_the_model_and_the_backward() -> None:
    got = paths(
        """
        def step(model, batch, prep, crit):
            x, y = batch
            x = prep(x)
            out = model(x)
            n = sizes(out.shape[0], len(out), out.size(0))
            feats = featurize(out.squeeze(1))
            loss = crit(feats, y)
            loss.backward()
            log(feats.detach())
            feats = featurize(out)

        def sample(model, x):
            for _ in range(3):
                x = denoise(x, model(x))
            return x
        """
    )
    assert set(got) == {"step"}  # no backward, no training step
    calls = {(line, name) for line, name, _ in got["step"].calls}
    assert calls == {(5, "model"), (7, "featurize"), (7, "squeeze"), (8, "crit")}
    assert all(sources == (0,) for _, _, sources in got["step"].calls)  # named ``model``


def test_objects_built_in_the_step_are_sources_by_their_binding_line() -> None:
    got = paths(
        """
        def train():
            g = Gen().cuda()
            mix = Mixup(0.2)
            for x, y in loader:
                x = mix(x)
                fake = g(x)
                scaler.scale(l1(spec(fake), y)).backward()
        """
    )
    calls = {name: sources for _, name, sources in got["train"].calls}
    # ``mix(x)`` is a source by its binding too: the scope pass keeps only nn.Module classes
    assert calls["spec"] == (3, 4)
    assert calls["l1"] == (3, 4)
    assert "Gen" not in calls and "cuda" not in calls  # how the model is built: no output


def test_passing_the_model_and_other_backward_spellings() -> None:
    got = paths(
        """
        def step(diffusion, net_g, accelerator):
            terms = diffusion.training_terms(net_g, x, t)
            accelerator.backward(terms["loss"].mean())

        def step3(args):
            teacher = create_model(args.teacher_model)
            (student(x) + teacher(x)).backward()

        def step2(model_kwargs):
            out = helper(model_kwargs)
            out.backward()
        """
    )
    assert {name for _, name, _ in got["step"].calls} == {"training_terms", "mean"}
    assert got["step2"].calls == ()  # a training step, but ``model_kwargs`` is no model
    # ``args.teacher_model`` names a model to build; ``create_model`` builds it
    assert got["step3"].calls == ()


@pytest.mark.parametrize(
    ("name", "model"),
    [
        ("model", True),
        ("ddp_model", True),
        ("net_g", True),
        ("netD", True),
        ("generator", True),
        ("model_ema", True),
        ("model_kwargs", False),
        ("network_config", False),
        ("Generator", False),  # a class, not an object
        ("subnet_count", False),
        ("create_model", False),  # a function that builds one
        ("load_network", False),
    ],
)
def test_model_names(name: str, model: bool) -> None:
    assert is_model_name(name) is model


def test_files_without_a_backward_cost_nothing() -> None:
    text = "def f(model, x):\n    return loss(model(x))\n"
    assert loss_paths(ast.parse(text), text) == ()


def test_a_training_step_given_the_model_is_no_loss(tmp_path: Path) -> None:
    """``super().train_step(sample, model)`` passes the model and feeds the backward, but it
    runs a backward pass of its own: a training step (host), not a loss."""
    from scan_helpers import write_repo

    write_repo(
        tmp_path,
        {
            "tasks.py": """
                class Task:
                    def train_step(self, sample, model):
                        loss = model(sample).sum()
                        loss.backward()
                        return loss


                class AuxTask(Task):
                    def train_step(self, sample, model):
                        loss = super().train_step(sample, model)
                        aux = aux_term(loss)
                        aux.backward()
                        return loss


                def aux_term(loss):
                    return loss * 0.1
            """
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    scopes = ScopeMap.build(analyses, ClassTable(analyses, load_torch_api()))
    assert scopes.scope_of("tasks.py", "Task.train_step") == "host"
    assert scopes.scope_of("tasks.py", "AuxTask.train_step") == "host"
    assert scopes.scope_of("tasks.py", "aux_term") == "network"


PARTIAL_FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "partialloss"


@cache
def partial_scopes() -> ScopeMap:
    _, analyses = scan_with_facts(ScanOptions(str(PARTIAL_FIXTURE), cache_dir=None, jobs=1))
    return ScopeMap.build(analyses, ClassTable(analyses, load_torch_api()))


@pytest.mark.parametrize(
    ("path", "function", "scope"),
    [
        # VALID: ``functools.partial(self.diffusion.training_losses, self.ddp_model, x, t)``
        # stored, then called: the losses of a diffusion of unknown class (the base's method,
        # which the respaced subclass overrides) and all they call are the network's
        ("ddpm/gaussian.py", "GaussianDiffusion.training_losses", "network"),
        ("ddpm/gaussian.py", "RespacedDiffusion.training_losses", "network"),
        ("ddpm/gaussian.py", "GaussianDiffusion.q_sample", "network"),
        ("ddpm/gaussian.py", "GaussianDiffusion.vb_terms", "network"),
        ("ddpm/gaussian.py", "extract_into_tensor", "network"),
        ("ddpm/gaussian.py", "normal_kl", "network"),
        ("ddpm/gaussian.py", "mean_flat", "network"),
        # VALID: ``partial`` imported from functools, bound to the model and passed to a
        # helper that calls it
        ("ddpm/gaussian.py", "clip_terms", "network"),
        # VALID: a partial binding only a weight, called with the model's output
        ("ddpm/gaussian.py", "weighted_l1", "network"),
        # INVALID: a partial called on the input before the model
        ("ddpm/gaussian.py", "normalize", "host"),
        # INVALID: a partial of the sampling loop, in a function with no backward
        ("ddpm/gaussian.py", "GaussianDiffusion.sample_loop", "host"),
        ("ddpm/gaussian.py", "GaussianDiffusion.posterior", "host"),
        ("trainer.py", "sample", "host"),
        ("trainer.py", "TrainLoop.forward_backward", "host"),
    ],
)
def test_a_loss_reached_through_functools_partial(path: str, function: str, scope: str) -> None:
    assert partial_scopes().scope_of(path, function) == scope


def test_the_record_names_a_partial_by_the_function_it_binds() -> None:
    got = paths(
        """
        import functools
        from functools import partial

        def step(self, x, t, y):
            compute = functools.partial(self.diffusion.training_losses, self.ddp_model, x, t)
            losses = compute()
            crit = partial(weighted_l1, weight=2.0)
            prep = partial(normalize, mean=0.5)
            out = self.model(prep(x))
            (losses["loss"].mean() + crit(out, y) + partial(terms, self.model, x)()).backward()
        """
    )
    calls = {(line, name) for line, name, _ in got["step"].calls}
    # the partial is named where it binds the model, and its call depends on the model too
    assert (6, "training_losses") in calls
    assert (7, "compute") in calls and (7, "training_losses") in calls
    assert (11, "mean") in calls  # the mean of the losses the partial computes
    # a partial binding no output is named where it is called with one
    assert (11, "weighted_l1") in calls and (11, "crit") in calls
    assert (11, "terms") in calls
    assert not {name for _, name in calls} & {"partial", "normalize", "prep"}


def test_a_method_name_shared_by_unrelated_classes_links_nothing(tmp_path: Path) -> None:
    """``?.training_losses`` lands on the base class's method when every other definition
    overrides it; two unrelated classes defining it say too little."""
    from scan_helpers import write_repo

    write_repo(
        tmp_path,
        {
            "steps.py": """
                import functools


                class Diffusion:
                    def training_losses(self, model, x):
                        return model(x).mean()


                class Other:
                    def training_losses(self, model, x):
                        return model(x).sum()


                class Loop:
                    def __init__(self, model, diffusion):
                        self.model = model
                        self.diffusion = diffusion

                    def step(self, x):
                        fn = functools.partial(self.diffusion.training_losses, self.model, x)
                        fn().backward()
            """
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    scopes = ScopeMap.build(analyses, ClassTable(analyses, load_torch_api()))
    assert scopes.scope_of("steps.py", "Diffusion.training_losses") == "host"
    assert scopes.scope_of("steps.py", "Other.training_losses") == "host"


def test_a_partial_of_a_criterion_object_or_an_own_method(tmp_path: Path) -> None:
    """``partial(self.score, out)`` of a callable object runs its ``__call__``; ``partial(
    self.head_terms, out)`` its own method (whose return value says nothing of what runs);
    neither is named like a loss or a Module."""
    from scan_helpers import write_repo

    write_repo(
        tmp_path,
        {
            "steps.py": """
                from functools import partial

                def reduce_terms(x):
                    return x.mean()


                def unused_terms(x):
                    return x.sum()


                class Scorer:
                    def __call__(self, a, b):
                        return (a - b).abs().mean()


                class Loop:
                    def __init__(self, model):
                        self.model = model
                        self.score = Scorer()

                    def head_terms(self, x):
                        return reduce_terms(x)

                    def step(self, x):
                        fn = partial(self.score, self.model(x))
                        g = partial(self.head_terms, self.model(x))
                        (fn(x) + g()).backward()
            """
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    scopes = ScopeMap.build(analyses, ClassTable(analyses, load_torch_api()))
    assert scopes.scope_of("steps.py", "Scorer.__call__") == "network"
    assert scopes.scope_of("steps.py", "Loop.head_terms") == "network"
    assert scopes.scope_of("steps.py", "reduce_terms") == "network"
    assert scopes.scope_of("steps.py", "unused_terms") == "host"
