"""A ``@register_model`` table whose picked name returns a model library's class built as it
is (``small`` returning timm's ``VisionTransformer(embed_dim=384, ...)``), beside names that
build the repository's own models (a distilled subclass, another file's model family): those
classes are alternatives (listed apart in the tree, their layers no work of the run), and the
library's architecture the run builds is a work item at the picked construction."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review, work_label

FILES = {
    "models.py": """
        import torch
        import torch.nn as nn
        from timm.models.registry import register_model
        from timm.models.vision_transformer import VisionTransformer


        class Distilled(VisionTransformer):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.head_dist = nn.Linear(self.embed_dim, self.num_classes)

            def forward(self, x):
                x = self.forward_features(x)
                return (self.head(x[:, 0]) + self.head_dist(x[:, 1])) / 2


        @register_model
        def small(pretrained=False, **kwargs):
            return VisionTransformer(patch_size=16, embed_dim=384, depth=12, num_heads=6, **kwargs)


        @register_model
        def small_distilled(pretrained=False, **kwargs):
            return Distilled(patch_size=16, embed_dim=384, depth=12, num_heads=6, **kwargs)
    """,
    "models_v2.py": """
        import torch.nn as nn
        from timm.models.layers import DropPath
        from timm.models.registry import register_model


        class Block(nn.Module):
            def __init__(self, dim, drop_path=0.1):
                super().__init__()
                self.fc = nn.Linear(dim, dim)
                self.drop_path = DropPath(drop_path)

            def forward(self, x):
                return x + self.drop_path(self.fc(x))


        class Plain(nn.Module):
            def __init__(self, dim=384, depth=12, num_classes=1000):
                super().__init__()
                self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
                self.head = nn.Linear(dim, num_classes)

            def forward(self, x):
                return self.head(self.blocks(x).mean(1))


        @register_model
        def plain_small(pretrained=False, **kwargs):
            return Plain(dim=384, **kwargs)
    """,
    "main.py": """
        import argparse

        import torch
        from timm.models import create_model

        import models
        import models_v2


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="small", type=str)
            args = parser.parse_args()
            model = create_model(args.model, pretrained=False, num_classes=10)
            optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
            for _ in range(2):
                loss = model(torch.randn(2, 3, 224, 224)).logsumexp(-1).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("foreign_registered"), FILES)
    return build_review(str(root), jobs=1)


def test_the_own_models_other_names_build_are_alternatives(review: Review) -> None:
    assert {"models_v2.Plain", "models_v2.Block", "models.Distilled"} <= set(review.alternatives)
    tree = render_markdown(review).partition("## Network structure")[2].partition("| class |")[0]
    run, _, other = tree.partition("Alternatives the run's config does not pick")
    assert "**Plain**" not in run and "**Plain**" in other
    # the unpicked family's third-party layer is no work of the run
    assert not [i for i in review.work if "DropPath" in i.what]


def test_the_built_library_architecture_is_the_work(review: Review) -> None:
    [item] = [i for i in review.work if i.what.endswith("vision_transformer.VisionTransformer")]
    assert work_label(item) == "Backbone architecture"
    assert [(w.path, w.line) for w in item.where] == [("models.py", 19)]


def test_a_subclass_of_the_same_name_is_what_the_file_builds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``class VisionTransformer(timm...VisionTransformer)`` and ``VisionTransformer(...)``
    below it: the call builds the repository's subclass; no item for timm's class built as
    it is (the subclass's own item says the architecture is timm's)."""
    files = dict(FILES)
    files["models.py"] = files["models.py"].replace("class Distilled(", "class VisionTransformer(")
    files["models.py"] = (
        files["models.py"]
        .replace(
            "from timm.models.vision_transformer import VisionTransformer",
            "import timm.models.vision_transformer",
        )
        .replace("(VisionTransformer):", "(timm.models.vision_transformer.VisionTransformer):")
        .replace("return Distilled(", "return VisionTransformer(")
    )
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    built = [i for i in review.work if i.what == "timm.models.vision_transformer.VisionTransformer"]
    assert not built
    assert [i for i in review.work if i.what.endswith("(extended by VisionTransformer)")]
