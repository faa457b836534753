"""The loss a training function also computes in its evaluation loop (issue 20 item 1):
dgcnn's ``train()`` differentiates ``loss = criterion(logits, label)`` in its training loop,
then, after ``model.eval()``, computes ``loss = criterion(logits, label)`` again only to
log it. One loss row, the training's; a loss differentiated at two places keeps both."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "util.py": """
        import torch.nn.functional as F
        def cal_loss(pred, gold, smoothing=True):
            eps = 0.2
            one_hot = F.one_hot(gold, pred.size(1)).float()
            one_hot = one_hot * (1 - eps) + (1 - one_hot) * eps / (pred.size(1) - 1)
            return -(one_hot * F.log_softmax(pred, dim=1)).sum(dim=1).mean()
    """,
    "main.py": """
        import torch
        from util import cal_loss
        def train(epochs):
            model = torch.nn.Linear(3, 40)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            criterion = cal_loss
            for epoch in range(epochs):
                model.train()
                for data, label in [(torch.rand(2, 3), torch.zeros(2, dtype=torch.long))]:
                    opt.zero_grad()
                    logits = model(data)
                    loss = criterion(logits, label)
                    loss.backward()
                    opt.step()
                model.eval()
                test_loss = 0.0
                for data, label in [(torch.rand(2, 3), torch.zeros(2, dtype=torch.long))]:
                    logits = model(data)
                    loss = criterion(logits, label)
                    test_loss += loss.item()
                print(test_loss)
        if __name__ == "__main__":
            train(250)
    """,
}


def test_the_evaluation_loops_loss_call_is_no_second_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    rows = [(i.name, i.where.line) for i in review.recipe if i.category == "loss"]
    assert rows == [("util.cal_loss", 12)], rows
