"""The per-step host read is placed in the trainer the documented command runs (issue 20:
detectron2's loss read was placed in ``plain_train_net.py``, a second training script, and
missed in the trainer's metrics writer).

- A metrics write under ``if (self.iter + 1) % self.period == 0:`` with ``period=1`` the only
  value the repository gives it runs every step: its ``.item()`` is a per-step read.
- A training script beside the documented one, run as a program of its own and imported by no
  file, is another run: its loop's reads are not the documented run's step."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "eng/__init__.py": "",
    "eng/trainer.py": """
        import torch


        class Trainer:
            def __init__(self, model, loader, optimizer, period=1):
                self.model, self.loader, self.optimizer = model, loader, optimizer
                self.period = period
                self.iter = 0

            def run_step(self, batch):
                losses = self.model(batch)
                self.optimizer.zero_grad()
                losses["loss"].backward()
                self.optimizer.step()
                self._write(losses)

            def _write(self, losses):
                if (self.iter + 1) % self.period == 0:
                    self.write(losses)

            @staticmethod
            def write(losses):
                return {k: v.detach().cpu().item() for k, v in losses.items()}

            def train(self):
                for batch in self.loader:
                    self.run_step(batch)
                    self.iter += 1
    """,
    "eng/net.py": """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 1)

            def forward(self, x):
                return {"loss": self.fc(x).mean()}
    """,
    "tools/train.py": """
        import argparse

        import torch

        from eng.net import Net
        from eng.trainer import Trainer


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--lr", type=float, default=0.1)
            args = parser.parse_args()
            model = Net()
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            loader = torch.utils.data.DataLoader(torch.rand(8, 4), batch_size=2)
            Trainer(model, loader, optimizer).train()


        if __name__ == "__main__":
            main()
    """,
    "tools/plain_train.py": """
        import torch

        from eng.net import Net


        def do_train(model, loader, optimizer):
            for batch in loader:
                losses = model(batch)
                logged = {k: v.item() for k, v in losses.items()}
                optimizer.zero_grad()
                losses["loss"].backward()
                optimizer.step()


        if __name__ == "__main__":
            model = Net()
            do_train(model, [torch.rand(2, 4)], torch.optim.SGD(model.parameters(), lr=0.1))
    """,
    "README.md": """
        # eng

        Train:

        ```
        python tools/train.py --lr 0.05
        ```
    """,
}


def test_the_read_is_the_documented_trainer_s(tmp_path) -> None:  # type: ignore[no-untyped-def]
    review = build_review(str(write_repo(tmp_path, FILES)))
    items = [i for i in review.work if i.kind == "step-sync"]
    assert len(items) == 1
    assert "eng/trainer.py:Trainer.write" in items[0].what
    assert {w.path for w in items[0].where} == {"eng/trainer.py"}


def test_a_period_given_other_values_keeps_the_read_periodic(tmp_path) -> None:  # type: ignore[no-untyped-def]
    files = dict(FILES)
    files["tools/train.py"] = files["tools/train.py"].replace(
        "Trainer(model, loader, optimizer)", "Trainer(model, loader, optimizer, period=20)"
    )
    review = build_review(str(write_repo(tmp_path, files)))
    assert not [i for i in review.work if i.kind == "step-sync"]
