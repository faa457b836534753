"""A loss term the network computes in its forward and hands back in a tuple, reduced by
the training step and summed into what it differentiates (VITS-style ``y_hat, l_length =
net_g(x)``, ``loss_dur = torch.sum(l_length.float())``, ``loss_all = loss_mel + loss_dur``):
a loss row at the reduction, beside the step's own loss calls (issue 20: a TTS repository's
duration loss was missing from its recipe)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import torch
    import torch.nn.functional as F


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 4)

        def forward(self, x):
            y = self.fc(x)
            l_length = torch.abs(y).sum(dim=1)
            aux = y.pow(2)
            return y, l_length, aux


    def train(net_g, optim_g, loader):
        for x in loader:
            y_hat, l_length, aux = net_g(x)
            loss_mel = F.l1_loss(y_hat, x) * 45
            loss_dur = torch.sum(l_length.float())
            loss_aux = aux.mean()
            loss_reg = torch.sum(net_g.fc.weight ** 2)
            loss_all = loss_mel + loss_dur + loss_aux + loss_reg
            optim_g.zero_grad()
            loss_all.backward()
            optim_g.step()


    if __name__ == "__main__":
        net = Net()
        train(net, torch.optim.AdamW(net.parameters(), 2e-4), [torch.zeros(2, 4)] * 4)
"""


def test_a_reduced_output_of_the_model_is_a_loss_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    rows = {i.name: i for i in review.recipe if i.category == "loss"}
    assert "torch.nn.functional.l1_loss" in rows
    dur = rows["loss_dur"]
    assert dict(dur.values) == {
        "loss": "torch.sum(l_length.float())",
        "l_length": "returned by net_g(x)",
    }
    assert "loss_all = loss_mel + loss_dur + loss_aux + loss_reg" in dur.note
    # a method's reduction of a returned tensor too: one row, the summed terms' own
    # (``aux.mean()`` is a kind of loss written out), none beside it for the same term
    assert dict(rows["term loss_aux"].values)["term"] == "aux.mean()"
    assert "loss_aux" not in rows
    # a reduction of the weights is no output of the model's forward
    assert "loss_reg" not in rows
