"""The weights of the terms one call returns (issue 20 item 1): votenet's
``center_loss, heading_cls_loss, ..., sem_cls_loss = compute_box_and_sem_cls_loss(...)``,
then ``box_loss = center_loss + 0.1*heading_cls_loss + ...`` and ``loss = vote_loss +
box_loss + 0.1*sem_cls_loss``. Each weight is told with the term it weights, not as the
call's one weight; a call returning a loss and a statistic beside it keeps one weight."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "train.py": """
        import torch
        def box_losses(pred, target):
            center = torch.nn.functional.l1_loss(pred, target)
            heading = torch.nn.functional.mse_loss(pred, target)
            sem = torch.nn.functional.smooth_l1_loss(pred, target)
            return center, heading, sem
        def objectness_loss(pred, target):
            return torch.nn.functional.mse_loss(pred, target), pred.mean()
        def get_loss(pred, target):
            center_loss, heading_loss, sem_loss = box_losses(pred, target)
            obj_loss, obj_ratio = objectness_loss(pred, target)
            box_loss = center_loss + 0.1 * heading_loss
            loss = box_loss + 0.2 * sem_loss + 0.5 * obj_loss
            return loss
        def main():
            net = torch.nn.Linear(3, 3)
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            for _ in range(3):
                x = torch.rand(2, 3)
                loss = get_loss(net(x), x)
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            main()
    """,
}


def test_each_unpacked_term_is_told_with_its_weight(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    rows = {i.name: dict(i.values) for i in review.recipe if i.category == "loss"}
    box = rows["train.box_losses"]
    assert box.get("weight of heading_loss", "").startswith("0.1"), box
    assert box.get("weight of sem_loss", "").startswith("0.2"), box
    assert "weight" not in box
    # a loss and a statistic returned beside it: the one weight is the loss's
    assert rows["train.objectness_loss"].get("weight", "").startswith("0.5"), rows
