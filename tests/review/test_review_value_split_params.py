"""A parameter alike on both sides for one value only (issue 20: detectron2's
``ROIAlign(aligned=True)`` was never a finding).

``from torchvision.ops import roi_align`` binds the function the package imports over its
submodule of the same name: a call of it is an API use, and its positional arguments are named
by the function's signature. The 2.4 diff page says ``aligned`` "is the same for False, but
different for True" (the newer page only maps the values): a call that really passes True,
by keyword, by position or through a name the repository sets to True, is an
unsupported-parameter work item at the call; one passing False, or a name only ever given
False, is none."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

NET = """
    import torch
    import torchvision
    from torchvision.ops import roi_align


    class Pool(torch.nn.Module):
        def __init__(self, aligned=True):
            super().__init__()
            self.aligned = aligned

        def forward(self, x, rois):
            return roi_align(x, rois, 7, 1.0, 2, self.aligned)


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.pool = Pool(aligned={aligned})

        def forward(self, x, rois):
            return self.pool(x, rois) + torchvision.ops.roi_align(x, rois, 7, aligned=False)
"""


def _items(review) -> list:  # type: ignore[no-untyped-def]
    return [i for i in review.work if i.kind == "unsupported-param" and "aligned" in i.what]


def test_a_called_submodule_name_is_the_package_s_function() -> None:
    from apiscan.resolve.torch_api import load_torch_api

    api = load_torch_api()
    assert api.called_module("torchvision.ops.roi_align") == "torchvision.ops.roi_align.roi_align"
    assert api.called_module("torch.nn") is None


def test_true_passed_by_position_through_a_name_is_a_work_item(tmp_path) -> None:  # type: ignore[no-untyped-def]
    review = build_review(str(write_repo(tmp_path, {"net.py": NET.format(aligned="True")})))
    assert "torchvision.ops.roi_align" in {g.api for g in review.gaps}
    items = _items(review)
    assert len(items) == 1
    assert "aligned=self.aligned" in items[0].what and "True" in items[0].what
    assert "different for True" in items[0].why
    # the call passing False by keyword is alike on both sides: not a place of the item
    assert [w.line for w in items[0].where] == [12]


def test_a_name_only_ever_given_the_alike_value_is_no_item(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = NET.format(aligned="False").replace("aligned=True):", "aligned=False):")
    review = build_review(str(write_repo(tmp_path, {"net.py": source})))
    assert not _items(review)
