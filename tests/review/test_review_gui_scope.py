"""What an interactive application beside the package brings is counted apart, and which
class is the model the training runs (Cutie-like, EfficientNet-like and glow-tts-like
layouts, written here small): a ``gui/`` folder with a click model of its own, a script
driving a GUI toolkit, a classmethod constructor returning ``cls(...)``, a training subclass
of the network, a spectrogram module a dataset builds."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.work import dir_reason

_NET = """
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)

    class Net(nn.Module):
        def __init__(self, width=4):
            super().__init__()
            self.block = Block()
            self.head = nn.Linear(width, 2)

        def forward(self, x):
            return self.head(self.block(x))
"""

_TRAIN = """
    import torch
    from pkg.net import Net
    from gui.shared import normalise

    def main():
        net = Net()
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        loss = net(normalise(torch.randn(2, 4))).sum()
        loss.backward()
        opt.step()

    if __name__ == "__main__":
        main()
"""


def test_gui_and_interactive_folders_are_demos_by_their_whole_name() -> None:
    # VALID: an application's folder
    assert dir_reason("gui") == "demo"
    assert dir_reason("Interactive") == "demo"
    # INVALID: a word of a longer name may be the repository's own task
    assert dir_reason("interactive_segmentation") == ""
    assert dir_reason("guide") == ""


def test_a_gui_tree_and_a_toolkit_script_are_counted_apart(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/net.py": _NET,
            "pkg/train.py": _TRAIN,
            "gui/__init__.py": "",
            "gui/shared.py": """
                def normalise(x):
                    return x / x.norm()
            """,
            "gui/clicks/model.py": """
                import torch
                from torch import nn

                class ClickNet(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 8, 3)
                        self.out = nn.Conv2d(8, 1, 1)

                    def forward(self, x, clicks):
                        points = clicks.cpu().numpy()
                        if points.sum() > 0:
                            x = x[x > 0]
                        return self.out(self.conv(x))
            """,
            "run_gui.py": """
                from gui.clicks.model import ClickNet

                def main():
                    return ClickNet()

                if __name__ == "__main__":
                    main()
            """,
            "viewer.py": """
                import tkinter
                import torch

                def main():
                    root = tkinter.Tk()
                    return torch.load("model.pth")

                if __name__ == "__main__":
                    main()
            """,
        },
    )
    review = build_review(str(tmp_path))
    apart = dict(review.ancillary)
    # VALID: the GUI tree and the script driving a GUI toolkit are demos
    assert apart.get("gui/clicks/model.py") == "demo"
    assert apart.get("viewer.py") == "demo"
    # ... their model is no top model and their dynamic shapes are not priced
    assert [t.cls for t in review.top_models] == ["pkg.net.Net"]
    assert review.effort.dynamic_shape_rewrites == 0
    # INVALID: what the training imports from the GUI folder is ported
    assert "gui/shared.py" not in apart
    assert "pkg/train.py" not in apart


def test_a_classmethod_constructor_builds_its_class(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "effnet/__init__.py": "from .model import EffNet\n",
            "effnet/model.py": """
                from torch import nn

                class Stage(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 3, 3)

                    def forward(self, x):
                        return self.conv(x)

                class EffNet(nn.Module):
                    def __init__(self, blocks, params):
                        super().__init__()
                        self.stages = nn.ModuleList([Stage() for _ in blocks])

                    def forward(self, x):
                        for s in self.stages:
                            x = s(x)
                        return x

                    @classmethod
                    def from_name(cls, name):
                        blocks, params = [1, 2], {"name": name}
                        return cls(blocks, params)

                    @classmethod
                    def from_pretrained(cls, name):
                        return cls.from_name(name)
            """,
            "hubconf.py": """
                from effnet import EffNet

                def effnet_b0():
                    return EffNet.from_pretrained("b0")
            """,
        },
    )
    review = build_review(str(tmp_path))
    # VALID: the class the classmethod returns ``cls(...)`` of is the top model
    tops = [(t.cls, t.builder) for t in review.top_models]
    assert tops == [("effnet.model.EffNet", "from_name")]
    # INVALID: its stage is a part, no model of its own
    assert all(t.cls != "effnet.model.Stage" for t in review.top_models)


def test_the_training_subclass_and_a_datasets_module(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/net.py": """
                from torch import nn

                class Encoder(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.fc = nn.Linear(4, 4)

                    def forward(self, x):
                        return self.fc(x)

                class Decoder(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.fc = nn.Linear(4, 2)

                    def forward(self, x):
                        return self.fc(x)

                class Net(nn.Module):
                    def __init__(self, encoder, decoder):
                        super().__init__()
                        self.encoder = encoder
                        self.decoder = decoder

                    def forward(self, x):
                        return self.decoder(self.encoder(x))

                def get_model():
                    return Net(Encoder(), Decoder())
            """,
            "pkg/wrapper.py": """
                from pkg.net import Net, Encoder, Decoder

                class TrainWrapper(Net):
                    def __init__(self, cfg):
                        super().__init__(Encoder(), Decoder())
                        self.cfg = cfg
            """,
            "pkg/spec.py": """
                import torch
                from torch import nn

                class Spectrogram(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.proj = nn.Linear(8, 4)
                        self.mel = nn.Linear(4, 4)

                    def forward(self, x):
                        return self.mel(self.proj(x))
            """,
            "pkg/data.py": """
                import torch
                from torch.utils.data import Dataset
                from pkg.spec import Spectrogram

                class Loader(Dataset):
                    def __init__(self, files):
                        self.files = files
                        self.stft = Spectrogram()

                    def __getitem__(self, i):
                        return self.stft(torch.randn(8))

                    def __len__(self):
                        return len(self.files)
            """,
            "pkg/trainer.py": """
                import torch
                from pkg.wrapper import TrainWrapper

                class Trainer:
                    def __init__(self, cfg):
                        self.model = TrainWrapper(cfg)
                        self.opt = torch.optim.Adam(self.model.parameters())

                    def step(self, x):
                        loss = self.model(x).sum()
                        loss.backward()
                        self.opt.step()
            """,
            "train.py": """
                from pkg.trainer import Trainer
                from pkg.data import Loader

                def main():
                    data = Loader(["a.wav"])
                    trainer = Trainer({})
                    for x in data:
                        trainer.step(x)

                if __name__ == "__main__":
                    main()
            """,
            "eval.py": """
                from pkg.net import get_model

                if __name__ == "__main__":
                    get_model()
            """,
        },
    )
    review = build_review(str(tmp_path))
    tops = review.top_models
    # VALID: the subclass the training builds is the model, with the class it extends
    assert [t.cls for t in tops] == ["pkg.wrapper.TrainWrapper"]
    assert tops[0].where.path == "pkg/trainer.py"
    assert ("extends", "Net") in tops[0].parts
    # INVALID: the spectrogram module the dataset builds is no model
    roles = {m.cls: m.role for m in review.modules}
    assert roles["pkg.net.Net"] == "model"  # the class it extends is the model's body
    assert roles["pkg.spec.Spectrogram"] != "model"


def _spectral_repo(root: Path, owner_calls: str, built: str = "Spec()") -> None:
    write_repo(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/spec.py": """
                import torch
                from torch import nn

                class Spec(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.proj = nn.Linear(4, 4)

                    def transform(self, x):
                        return self.proj(x)

                    def inverse(self, x):
                        return x[x > 0]

                    def forward(self, x):
                        return self.inverse(self.transform(x))
            """,
            "pkg/audio.py": """
                def griffin(spec, x):
                    return spec.inverse(x)
            """,
            "pkg/net.py": f"""
                import torch
                from torch import nn
                from pkg.spec import Spec

                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.spec = {built}
                        self.emb = nn.Embedding(3, 4)
                        self.fc = nn.Linear(4, 2)
                        self.w = nn.Parameter(torch.eye(4))

                    def forward(self, x):
                        x = x @ torch.inverse(self.w)
                        return self.fc({owner_calls})
            """,
            "train.py": """
                import torch
                from pkg.net import Net

                def main():
                    net = Net()
                    opt = torch.optim.SGD(net.parameters(), lr=0.1)
                    loss = net(torch.randn(2, 4)).sum()
                    loss.backward()
                    opt.step()

                if __name__ == "__main__":
                    main()
            """,
        },
    )


def test_a_method_only_unreached_code_calls_is_not_priced(tmp_path: Path) -> None:
    # VALID: ``inverse`` is called by the part's ``forward``, which nothing runs (only
    # ``self.spec.transform`` is called), and by a helper nothing calls; ``torch.inverse``
    # in the network is another function of the same name
    _spectral_repo(tmp_path / "a", "self.spec.transform(x)")
    review = build_review(str(tmp_path / "a"))
    masks = [where.line for where, *_ in review.dynamic_shape if where.path == "pkg/spec.py"]
    assert masks == [13]  # listed, in ``inverse``
    assert review.effort.dynamic_shape_rewrites == 0
    # INVALID: where the network calls the part itself, its ``forward`` runs ``inverse``
    _spectral_repo(tmp_path / "b", "self.spec(x)")
    assert build_review(str(tmp_path / "b")).effort.dynamic_shape_rewrites == 1
    # INVALID: nor where the part is built inside a container (its forward runs there)
    _spectral_repo(tmp_path / "c", "self.spec[0].transform(x)", "nn.Sequential(Spec())")
    assert build_review(str(tmp_path / "c")).effort.dynamic_shape_rewrites == 1
