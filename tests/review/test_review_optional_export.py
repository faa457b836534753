"""A model file that imports a deployment runtime in a ``try:`` surviving its absence
(``try: import onnx`` for an optional ``--save-onnx`` export after training) is the model
and its training, not an adapter for that runtime: it is ported, its network counted. A
script that defines no module of its own and hands the model to the runtime stays an
adapter, its import optional or not."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch
    {onnx}
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return self.fc(x)
    def run():
        parser = argparse.ArgumentParser()
        parser.add_argument("--save-onnx", action="store_true")
        args = parser.parse_args()
        model = Net()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(torch.zeros(1, 2)).sum()
        loss.backward()
        opt.step()
        if args.save_onnx:
            torch.onnx.export(model, torch.zeros(1, 2), "net.onnx")
            onnx.checker.check_model(onnx.load("net.onnx"))
    if __name__ == "__main__":
        run()
"""

OPTIONAL = """try:
        import onnx
    except ImportError as error:
        print("no onnx", error)"""


CONVERT = """
    import torch
    from train_net import Net
    try:
        import onnx
    except ImportError:
        onnx = None
    if __name__ == "__main__":
        torch.onnx.export(Net(), torch.zeros(1, 2), "net.onnx")
        onnx.checker.check_model(onnx.load("net.onnx"))
"""


def _apart(tmp_path: Path) -> dict[str, str]:
    files = {"train_net.py": TRAIN.replace("{onnx}", OPTIONAL), "to_runtime.py": CONVERT}
    return dict(build_review(str(write_repo(tmp_path / "repo", files))).ancillary)


def test_an_optional_runtime_import_leaves_the_training_file_ported(tmp_path: Path) -> None:
    apart = _apart(tmp_path)
    assert "train_net.py" not in apart, apart


def test_a_script_defining_no_module_stays_an_adapter_however_it_imports(
    tmp_path: Path,
) -> None:
    apart = _apart(tmp_path)
    assert apart.get("to_runtime.py", "").startswith("adapter for onnx"), apart
