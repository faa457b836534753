"""A training step that unpacks the loss terms a model's ``forward`` returns and sums them
(BLIP's ``loss_ita, loss_itm, loss_lm = model(image, caption, alpha=alpha)``, then ``loss =
loss_ita + loss_itm + loss_lm``), the model built by a repository builder
(``blip_pretrain(...)`` returning ``BLIP_Pretrain(...)``) and wrapped (``.to(device)``,
``DistributedDataParallel``) before the step is handed it: each term written by hand in
``forward`` (a contrastive loss from ``log_softmax``) is a loss row with the sum in its note;
a term that is a torch loss call keeps that call's row."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "model.py": """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x, y):
                sim = self.fc(x)
                loss_i2t = -torch.sum(F.log_softmax(sim, dim=1) * y, dim=1).mean()
                loss_t2i = -torch.sum(F.log_softmax(sim.t(), dim=1) * y.t(), dim=1).mean()
                loss_ita = (loss_i2t + loss_t2i) / 2
                loss_itm = F.cross_entropy(sim, y.argmax(1))
                return loss_ita, loss_itm


        def build_net(**kwargs):
            model = Net(**kwargs)
            return model
    """,
    "train.py": """
        import torch

        from model import build_net


        def train(model, optimizer):
            for x, y in [(torch.zeros(4, 4), torch.eye(4))]:
                loss_ita, loss_itm = model(x, y)
                loss = loss_ita + loss_itm
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        def main():
            model = build_net()
            model = model.to('cpu')
            model = torch.nn.parallel.DistributedDataParallel(model)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
            train(model, optimizer)


        if __name__ == '__main__':
            main()
    """,
}


def test_hand_written_terms_the_step_sums_are_loss_rows(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    losses = {i.name: i for i in review.recipe if i.category == "loss"}
    row = losses["loss_ita computed in Net.forward"]
    values = dict(row.values)
    assert values["loss"] == "(loss_i2t + loss_t2i) / 2"
    assert values["loss_i2t"].startswith("-torch.sum(F.log_softmax(sim, dim=1) * y")
    assert (row.where.path, row.where.line) == ("model.py", 15)
    assert "loss = loss_ita + loss_itm at train.py:" in row.note
    # the cross-entropy term is its call's row, not a second one
    assert "loss_itm computed in Net.forward" not in losses
    assert "torch.nn.functional.cross_entropy" in losses
