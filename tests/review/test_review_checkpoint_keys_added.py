"""What a training checkpoint holds when entries are written into its dict after it is built
(issue 20 item 1): VoteNet's ``save_dict = {'epoch': ..., 'optimizer_state_dict': ...,
'loss': ...}``, then ``save_dict['model_state_dict'] = net.module.state_dict()`` in a
``try`` (``net.state_dict()`` in its ``except``), then ``torch.save(save_dict, ...)``: the
model's weights are held too."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "train.py": """
        import torch
        net = torch.nn.Linear(2, 2)
        optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        def train(start_epoch):
            loss = 0
            for epoch in range(start_epoch, 10):
                out = net(torch.zeros(1, 2)).sum()
                out.backward()
                optimizer.step()
                save_dict = {'epoch': epoch + 1,
                             'optimizer_state_dict': optimizer.state_dict(),
                             'loss': loss}
                try:
                    save_dict['model_state_dict'] = net.module.state_dict()
                except:
                    save_dict['model_state_dict'] = net.state_dict()
                torch.save(save_dict, 'checkpoint.tar')
        if __name__ == '__main__':
            train(0)
    """,
}


def test_keys_written_after_the_dict_is_built_are_held(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    rows = [i for i in review.recipe if i.category == "checkpoint_save"]
    assert rows, review.recipe
    held = dict(rows[0].values)["holds"]
    assert held == "epoch, optimizer_state_dict, loss, model_state_dict"
