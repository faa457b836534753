"""Non-maximum suppression in the network is a work item with its places and why
(issue 20: detectron2's ``batched_nms`` appeared only as a gap row).

How many boxes survive depends on the scores: the proposals a detector trains on have a
data-dependent count. One item lists every call the training reaches (torchvision's and the
repository's wrapper of it), says why it matters, and adds nothing to the person-days (the
dynamic-shape rewrites of those functions price it)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "det/__init__.py": "",
    "det/ops.py": """
        import torch
        from torchvision.ops import boxes as box_ops


        def batched_nms(boxes, scores, idxs, thresh):
            return box_ops.batched_nms(boxes.float(), scores, idxs, thresh)
    """,
    "det/model.py": """
        import torch
        from torch import nn

        from det.ops import batched_nms


        class Proposals(nn.Module):
            def __init__(self):
                super().__init__()
                self.score = nn.Linear(4, 1)

            def forward(self, boxes):
                scores = self.score(boxes).squeeze(1)
                keep = batched_nms(boxes, scores, torch.zeros_like(scores), 0.7)
                return boxes[keep[:100]].sum()
    """,
    "train.py": """
        import torch

        from det.model import Proposals


        def main():
            model = Proposals()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for boxes in torch.utils.data.DataLoader(torch.rand(8, 4, 4)):
                loss = model(boxes[0])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_suppression_is_an_item_with_its_places(tmp_path) -> None:  # type: ignore[no-untyped-def]
    review = build_review(str(write_repo(tmp_path, FILES)))
    items = [i for i in review.work if i.kind == "suppression"]
    assert len(items) == 1
    assert "batched_nms" in items[0].what
    assert {w.path for w in items[0].where} == {"det/ops.py", "det/model.py"}
    assert "data" in items[0].why and "NMSWithMask" in items[0].why
    # priced with the dynamic-shape rewrites, not again
    assert "suppression" not in review.effort.formula
