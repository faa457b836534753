"""An older copy of the training script kept beside it (``legacy_train.py`` next to
``train.py``, both with their own loop and options): the current script is ported, the old
one is counted apart with what only it imports, and its options are no recipe rows."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

_TRAIN = """
    import argparse

    import torch
    from torch import nn

    from pkg.model import Net
    {extra_import}

    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default={lr})


    def main():
        args = parser.parse_args()
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        for _ in range(10):
            loss = model(torch.randn(8, 4)).sum(){extra_call}
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""

FILES = {
    "pkg/__init__.py": "",
    "pkg/model.py": """
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x)
    """,
    "pkg/old_utils.py": """
        import torch


        def smooth(loss):
            return torch.special.erfinv(loss.clamp(-0.5, 0.5))
    """,
    "train.py": _TRAIN.format(lr="0.1", extra_import="", extra_call=""),
    "legacy_train.py": _TRAIN.format(
        lr="0.05",
        extra_import="from pkg.old_utils import smooth",
        extra_call="\n            loss = smooth(loss)",
    ),
}


@pytest.fixture(scope="module")
def review(tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("legacy"), FILES)))


def test_the_older_copy_is_counted_apart(review) -> None:  # type: ignore[no-untyped-def]
    apart = dict(review.ancillary)
    assert apart["legacy_train.py"] == "older copy of train.py"
    # what only the old copy imports goes with it
    assert "pkg/old_utils.py" in apart
    # INVALID: the current script and the model it trains stay ported
    assert "train.py" not in apart
    assert "pkg/model.py" not in apart


def test_the_older_copy_gives_no_recipe_rows(review) -> None:  # type: ignore[no-untyped-def]
    paths = {item.where.path for item in review.recipe}
    assert "train.py" in paths
    assert "legacy_train.py" not in paths


def test_a_second_script_not_named_old_stays_ported(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # INVALID: ``finetune_train.py`` is no older copy: another task, ported
    files = dict(FILES)
    files["finetune_train.py"] = files.pop("legacy_train.py")
    review = build_review(str(write_repo(tmp_path, files)))
    assert not any(why.startswith("older copy") for _, why in review.ancillary)
