"""A model only the names of a ``@register_model`` table the run does not pick build is an
alternative (issue 20: ConvNeXt's isotropic model beside the ``--model convnext_tiny`` the
training builds through ``create_model(args.model)``): listed apart in the tree and the
effort, its API call sites not priced, while the blocks the picked model shares with it stay
the run's. The functions registered for the picked model's other sizes are no run's code
either; a model another script's default picks is never made an alternative by this one."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review

FILES = {
    "models/__init__.py": "",
    "models/net.py": """
        import torch
        import torch.nn as nn
        from timm.models.registry import register_model


        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv2d(dim, dim, 3, padding=1)
                self.norm = nn.BatchNorm2d(dim)

            def forward(self, x):
                return x + self.norm(self.conv(x))


        class Net(nn.Module):
            def __init__(self, depths=(2, 2), dim=32, num_classes=1000):
                super().__init__()
                self.stem = nn.Conv2d(3, dim, 4, stride=4)
                self.blocks = nn.Sequential(*[Block(dim) for _ in range(sum(depths))])
                self.head = nn.Linear(dim, num_classes)

            def forward(self, x):
                return self.head(self.blocks(self.stem(x)).mean((2, 3)))


        @register_model
        def net_tiny(pretrained=False, **kwargs):
            return Net(depths=(2, 2), **kwargs)


        @register_model
        def net_small(pretrained=False, **kwargs):
            model = Net(depths=(3, 9), **kwargs)
            if pretrained:
                model.load_state_dict(torch.hub.load_state_dict_from_url("https://x/small.pth"))
            return model
    """,
    "models/iso.py": """
        import torch
        import torch.nn as nn
        from timm.models.registry import register_model

        from .net import Block


        class IsoNet(nn.Module):
            def __init__(self, depth=6, dim=32, num_classes=1000):
                super().__init__()
                self.stem = nn.Conv2d(3, dim, 16, stride=16)
                self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
                self.norm = nn.LayerNorm(dim)
                self.head = nn.Linear(dim, num_classes)

            def forward(self, x):
                x = self.blocks(self.stem(x)).mean((2, 3))
                return self.head(torch.nn.functional.gelu(self.norm(x)))


        @register_model
        def iso_small(pretrained=False, **kwargs):
            return IsoNet(depth=6, **kwargs)


        @register_model
        def iso_base(pretrained=False, **kwargs):
            return IsoNet(depth=12, **kwargs)
    """,
    "main.py": """
        import argparse

        import torch
        from timm.models import create_model

        import models.iso
        import models.net


        def get_args():
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="net_tiny", type=str)
            parser.add_argument("--lr", default=4e-3, type=float)
            return parser.parse_args()


        def main(args):
            model = create_model(args.model, pretrained=False, num_classes=10)
            optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
            for x, y in [(torch.randn(2, 3, 64, 64), torch.zeros(2, dtype=torch.long))]:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main(get_args())
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("registered"), FILES)
    return build_review(str(root), jobs=1)


def test_the_model_only_unpicked_names_build_is_an_alternative(review: Review) -> None:
    top = review.top_models[0]
    assert top.cls == "models.net.Net"
    parts = dict(top.parts)
    assert parts["selected by"].endswith("→ net_tiny()")
    assert parts["alternatives"] == "IsoNet (iso_small, iso_base)"
    assert "models.iso.IsoNet" in review.alternatives
    assert "models.net.Net" not in review.alternatives
    # the picked model's other sizes are no run's code; the picked one's is
    assert "models.net.net_small" in review.alternatives
    assert "models.net.net_tiny" not in review.alternatives


def test_the_tree_lists_it_apart_and_the_shared_block_stays(review: Review) -> None:
    text = render_markdown(review)
    heading = "Alternatives the run's config does not pick (another config builds them):"
    run, _, other = text.partition(heading)
    run = run.partition("## Network structure")[2]
    assert "- **Net** (" in run and "**IsoNet**" not in run
    assert "**Block**" in run
    assert "- **IsoNet** (" in other.partition("| class |")[0]


def test_its_call_sites_are_not_priced(review: Review) -> None:
    places = {w.path for g in review.gaps for w in g.where}
    assert "models/iso.py" not in places
    said = next(
        s
        for s in review.effort.explanation
        if s.startswith("Alternatives the run's config does not pick")
    )
    assert "models/iso.py:IsoNet" in said
    assert "models/net.py:Block" not in said
    # the unpicked size's weights download is no work of the run
    assert not any(w.path == "models/net.py" and w.line > 40 for i in review.work for w in i.where)


def test_another_script_s_pick_is_never_this_one_s_alternative(tmp_path) -> None:  # type: ignore[no-untyped-def]
    files = dict(FILES)
    files["finetune.py"] = FILES["main.py"].replace('default="net_tiny"', 'default="iso_small"')
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert "models.iso.IsoNet" not in review.alternatives
    assert "models.net.Net" not in review.alternatives
