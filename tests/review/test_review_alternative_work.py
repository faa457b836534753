"""Work in code only the models a run's config leaves out reach is the alternative's, not
the run's: an unpicked registry model's state written in its forward and the collective of
the autograd Function it alone applies (``du.AllGatherWithGradient.apply``, read as an
attribute of the imported module) are no work items; the picked model stays the run's though
only the unpicked one names it in code (``_TYPES["one"]`` wrapping it as a backbone), so a
layer the picked forward builds is still its work, and its initialiser a recipe row."""

from __future__ import annotations

import pytest
from registry_repo import FILES as REGISTRY_FILES
from scan_helpers import write_repo

from apiscan.review.build import build_review

# the run-config repository with a models file whose unpicked model writes state in its
# forward and applies a gathering autograd Function of ``vid/utils/dist.py``
FILES = {
    **REGISTRY_FILES,
    "vid/models/nets.py": """
        import torch
        from torch import nn

        from vid.utils import dist as du

        from .build import MODEL_REGISTRY


        class Stem(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv3d(3, dim, 3)

            def forward(self, x):
                return self.conv(x)


        def init_weights(model):
            for m in model.modules():
                if isinstance(m, nn.Linear):
                    m.weight.data.normal_(mean=0.0, std=0.01)


        @MODEL_REGISTRY.register()
        class OnePath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.stem = Stem(64)
                self.head = nn.Linear(64, 400)
                init_weights(self)

            def forward(self, x):
                y = self.head(self.stem(x))
                return nn.Softmax(dim=1)(y)


        _TYPES = {"one": OnePath}


        @MODEL_REGISTRY.register()
        class TwoPath(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.backbone = _TYPES["one"](cfg)
                self.register_buffer("queue", torch.zeros(4096, 400))
                self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))

            def forward(self, x):
                q = du.AllGatherWithGradient.apply(self.backbone(x))
                self.queue[: q.shape[0]] = q.detach()
                self.ptr += 1
                return q
    """,
    "vid/utils/__init__.py": "",
    "vid/utils/dist.py": """
        import torch
        import torch.distributed as dist


        class AllGatherWithGradient(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = [torch.zeros_like(x) for _ in range(dist.get_world_size())]
                dist.all_gather(out, x)
                return torch.cat(out, dim=0)

            @staticmethod
            def backward(ctx, grad):
                dist.all_reduce(grad)
                return grad
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("altwork"), FILES)
    return build_review(str(root))


def test_the_unpicked_model_s_forward_work_is_not_the_run_s(review) -> None:  # type: ignore[no-untyped-def]
    assert review.top_models[0].cls.endswith("nets.OnePath")
    kinds = {i.kind for i in review.work}
    assert "state-in-forward" not in kinds
    assert "collective-in-forward" not in kinds


def test_the_picked_model_named_only_by_the_unpicked_one_is_still_work(review) -> None:  # type: ignore[no-untyped-def]
    built = [i for i in review.work if i.kind == "cell-in-construct"]
    assert built and all(w.path == "vid/models/nets.py" for i in built for w in i.where)
    assert any("OnePath.forward" in i.what for i in built)


def test_the_picked_model_s_initialiser_is_a_recipe_row(review) -> None:  # type: ignore[no-untyped-def]
    assert any(i.category == "init" and i.name == "init_weights" for i in review.recipe)


def test_the_tree_shows_the_unpicked_model_apart(review) -> None:  # type: ignore[no-untyped-def]
    from apiscan.review.html import render_html
    from apiscan.review.markdown import render_markdown

    assert any(c.endswith("nets.TwoPath") for c in review.alternatives)
    text = render_markdown(review)
    heading = "Alternatives the run's config does not pick (another config builds them):"
    run, _, other = text.partition(heading)
    run = run.partition("## Network structure")[2]
    assert "- **OnePath** (" in run and "**TwoPath**" not in run
    assert "- **TwoPath** (" in other.partition("| class |")[0]
    page = render_html(review)
    assert "does not pick (another config builds them):</p>" in page


def test_what_only_the_unpicked_model_reaches_is_not_priced(review) -> None:  # type: ignore[no-untyped-def]
    """The autograd Function only ``TwoPath`` applies is the alternative's: its API call
    sites are listed with the alternatives, not priced."""
    said = next(
        s
        for s in review.effort.explanation
        if s.startswith("Alternatives the run's config does not pick")
    )
    assert "vid/utils/dist.py:AllGatherWithGradient" in said
    assert "vid/models/nets.py:OnePath" not in said
