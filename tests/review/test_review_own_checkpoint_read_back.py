"""A tool that reads back the dict the training saves (``checkpoint =
torch.load(opt.model)``, then ``checkpoint['settings']`` and ``checkpoint['model']``, the
keys of the training's ``torch.save({'epoch': ..., 'settings': opt, 'model': ...})``)
loads the port's own checkpoint, which it writes with mindspore.save_checkpoint: no
released weights to convert. A tool reading keys the training never writes (a released
``state_dict``) still loads released weights, and so does one reading the training's keys
where the README links released weights (they often hold the training's own dict)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x)

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('-epoch', type=int, default=10)
        opt = parser.parse_args()
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(opt.epoch):
            loss = model(torch.zeros(1, 2)).sum()
            loss.backward()
            optimizer.step()
            checkpoint = {'epoch': epoch, 'settings': opt, 'model': model.state_dict()}
            torch.save(checkpoint, 'model.chkpt')

    if __name__ == '__main__':
        main()
"""

TOOL = """
    import argparse
    import torch
    from train import Net

    def load_model(opt):
        checkpoint = torch.load(opt.model, map_location='cpu')
        settings = checkpoint['{settings}']
        model = Net()
        model.load_state_dict(checkpoint['{weights}'])
        return model, settings

    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('-model', required=True)
        print(load_model(parser.parse_args()))
"""


def _checkpoint_items(tmp_path: Path, settings: str, weights: str, readme: str = ""):
    tool = TOOL.replace("{settings}", settings).replace("{weights}", weights)
    files = {"train.py": TRAIN, "tools/translate.py": tool}
    if readme:
        files["README.md"] = readme
    repo = write_repo(tmp_path / "repo", files)
    review = build_review(str(repo))
    return [i for i in review.work if i.kind == "checkpoint"]


def test_a_tool_reading_back_the_trainings_dict_loads_no_released_weights(
    tmp_path: Path,
) -> None:
    assert _checkpoint_items(tmp_path, "settings", "model") == []


def test_a_tool_reading_other_keys_loads_released_weights(tmp_path: Path) -> None:
    (item,) = _checkpoint_items(tmp_path, "settings", "state_dict")
    assert any(w.path == "tools/translate.py" for w in item.where), item.where


def test_released_weights_in_the_trainings_format_are_still_converted(tmp_path: Path) -> None:
    readme = "# Model\n\nDownload the [pretrained model](https://example.org/model.chkpt).\n"
    (item,) = _checkpoint_items(tmp_path, "settings", "model", readme)
    assert any(w.path == "tools/translate.py" for w in item.where), item.where
