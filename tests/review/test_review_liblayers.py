"""What a repository takes from model libraries and torch internals (issue 20: DiT,
CRAFT-pytorch, DeepLabV3Plus, Depth-Anything), on fixtures/liblayers: a diffusers VAE built
with ``from_pretrained`` by the training loop (a scheduler's ``from_pretrained`` and a tool's
VAE are not the model's), timm layers built into the network (one imported and never built),
a torchvision backbone whose ``pretrained`` flag is False along the constructor chain the
entry point runs (a self-test asks for weights), distribution log-densities (one in a
function nothing calls), a loss and a scheduler on private torch bases, and a dynamic shape in
a file nothing imports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.model import ApiFinding, Span
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.resolve.torch_api import PRIVATE_BASES, load_torch_api
from apiscan.review import gaps
from apiscan.review.build import build_review
from apiscan.rewrite.composed import MINDSPORE_DISTRIBUTIONS

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "liblayers"


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/liblayers")


def _variant(tmp_path: Path, path: str, *edits: tuple[str, str]):
    """The fixture with ``edits`` (old, new) made in ``path``, reviewed."""
    root = tmp_path / "liblayers"
    shutil.copytree(FIXTURE, root)
    text = (root / path).read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    (root / path).write_text(text)
    return build_review(str(root), jobs=1)


def _kinds(review, kind: str) -> list[tuple[str, str]]:
    return [(i.what, str(i.where[0].path)) for i in review.work if i.kind == kind]


def test_a_third_party_from_pretrained_in_the_training_loop_is_a_pretrained_model(review) -> None:
    # VALID: the VAE encoding every batch; INVALID: the noise scheduler's config (no
    # weights) and the tool's own VAE (counted apart)
    backbones = _kinds(review, "pretrained-backbone")
    assert (
        'diffusers.models.AutoencoderKL.from_pretrained("org/vae-model", pretrained weights)',
        "train.py",
    ) in backbones
    assert not any("Scheduler" in what or path.startswith("tools/") for what, path in backbones)
    item = next(i for i in review.work if i.what.startswith("diffusers."))
    assert "mindone.diffusers or a port" in item.why
    assert "pretrained weights converted" in item.why


def test_timm_layers_built_into_the_model_are_small_items(review) -> None:
    # VALID: PatchEmbed and Mlp are built in Net.__init__; INVALID: Attention is only imported
    assert _kinds(review, "zoo-layer") == [
        ("timm.models.vision_transformer.PatchEmbed", "model.py"),
        ("timm.models.vision_transformer.Mlp", "model.py"),
    ]
    assert "2 zoo-layer as 1.8 × 0.15–0.3" in review.effort.formula


def test_a_pretrained_flag_false_along_the_constructor_chain_is_the_architecture_only(
    review,
) -> None:
    # Net() → Net.__init__(pretrained=False) → Backbone(pretrained) → resnet18(pretrained=...);
    # the self-test's Backbone(pretrained=True) under backbone.py's __main__ is not counted
    (item,) = [i for i in review.work if i.what.startswith("torchvision.models.resnet18")]
    assert item.what == "torchvision.models.resnet18"
    assert "architecture only: pretrained is False" in item.why
    assert "1 backbone-architecture × 0.5–1" in review.effort.formula


def test_a_pretrained_flag_true_by_default_keeps_the_weights(tmp_path: Path) -> None:
    # INVALID: the model's default asks for the weights
    review = _variant(
        tmp_path,
        "model.py",
        ("def __init__(self, pretrained=False)", "def __init__(self, pretrained=True)"),
    )
    (item,) = [i for i in review.work if i.what.startswith("torchvision.models.resnet18")]
    assert item.what == "torchvision.models.resnet18(pretrained=pretrained)"
    assert "pretrained weights converted" in item.why


def test_distribution_formulas_and_dead_functions_are_no_custom_op(review) -> None:
    # Normal(...).log_prob is MindSpore's Normal's log_prob; the Dirichlet log-density (no
    # MindSpore counterpart) is in a function nothing calls
    assert review.effort.custom_ops == 0
    rows = {d: (net, n, k) for d, net, n, k in review.effort.by_disposition}
    assert rows["custom-op"] == (0, 0, 0)


def test_a_called_custom_op_still_counts(tmp_path: Path) -> None:
    # INVALID: the Dirichlet log-density called by the training loop is a custom op
    review = _variant(
        tmp_path,
        "train.py",
        ("PolyLR, gaussian_nll", "PolyLR, dirichlet_log_likelihood, gaussian_nll"),
        ("+ gaussian_nll(out, 0.0, 1.0)", "+ dirichlet_log_likelihood(out, out).mean()"),
    )
    # the constructor and its log_prob, as the effort names each custom-op API
    assert review.effort.custom_ops == 2
    explanation = " ".join(review.effort.explanation)
    assert "torch.distributions.Dirichlet, torch.distributions.Dirichlet.log_prob" in explanation


def _finding(api: str) -> ApiFinding:
    return ApiFinding(
        path="a.py",
        span=Span(1, 0, 1, 1),
        api=api,
        status="missing",
        mindspore_api=None,
        confidence="certain",
        note="",
        usage="call",
        namespace="torch",
        disposition="custom-op",
        scope="network",
    )


@pytest.mark.parametrize(
    ("api", "custom"),
    [
        ("torch.distributions.Normal.log_prob", False),
        ("torch.distributions.normal.Normal.log_prob", False),
        ("torch.distributions.Laplace.cdf", False),
        ("torch.distributions.Gamma", False),
        ("torch.distributions.Normal.icdf", True),  # MindSpore's Normal has no icdf
        ("torch.distributions.Dirichlet.log_prob", True),  # no MindSpore Dirichlet
        ("torch.distributions.MultivariateNormal", True),
    ],
)
def test_distribution_members_mindspore_has_are_compositions(api: str, custom: bool) -> None:
    assert gaps.is_custom_op(_finding(api)) is custom


def test_the_distributions_named_exist_in_mindspore() -> None:
    distribution = pytest.importorskip("mindspore.nn.probability.distribution")
    torch_distributions = pytest.importorskip("torch.distributions")
    for name in MINDSPORE_DISTRIBUTIONS:
        assert hasattr(distribution, name), name
        assert hasattr(torch_distributions, name), name


def test_private_bases_resolve_to_the_public_class_they_stand_for(review) -> None:
    api = load_torch_api()
    for private, public in PRIVATE_BASES.items():
        assert api.canonical(private) == public
    # INVALID: another private name stays unknown
    assert api.canonical("torch.nn.modules.module._addindent") is None
    # the loss on ``_Loss`` is a Module (a Cell to write), the scheduler's base is known
    assert ("losses.py", "DiceLoss") in {
        (m.where.path, m.cls.rpartition(".")[2]) for m in review.modules
    }


def test_each_private_base_is_related_to_its_public_class() -> None:
    # the public class is an ancestor (the deprecated alias, the loss bases) or a member of
    # the family the private base is the root of (Conv2d, BatchNorm2d)
    import importlib

    def obj(name: str) -> type:
        module, _, attr = name.rpartition(".")
        return getattr(importlib.import_module(module), attr)

    for private, public in PRIVATE_BASES.items():
        a, b = obj(private), obj(public)
        assert issubclass(a, b) or issubclass(b, a), private


def test_dynamic_shapes_of_files_counted_apart_are_left_out(review) -> None:
    # INVALID: helpers/distinct.py (nothing imports it) has a unique(); the review leaves it out
    assert dict(review.ancillary)["helpers/distinct.py"].startswith("unused")
    assert [w.path for w, *_ in review.dynamic_shape] == []
    result, _ = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    assert [w.path for w, *_ in gaps.dynamic_shape(result)] == ["helpers/distinct.py"]


def test_a_function_a_module_level_table_names_is_called(tmp_path: Path) -> None:
    # VALID: the builders a dict of model names lists are reached by key; INVALID: the one no
    # table, call or argument names is dead
    from scan_helpers import write_repo

    from apiscan.review.work import uncalled_functions

    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                def small(**kw):
                    return kw

                def large(**kw):
                    return kw

                def orphan(**kw):
                    return kw

                MODELS = {"small": small, "large": large}
            """,
            "pkg/train.py": """
                from pkg.models import MODELS

                def build(name):
                    return MODELS[name]()
            """,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    dead = {name for path, name in uncalled_functions(analyses) if path == "pkg/models.py"}
    assert dead == {"orphan"}
