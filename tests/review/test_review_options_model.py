"""A GAN repository whose ``train.py`` picks its model and its dataset by an option: the model
classes share a base whose abstract ``optimize_parameters`` each implements with its own
optimizers, and both the model and the dataset modules are loaded by a name built around the
option (``importlib.import_module("data." + name + "_dataset")``). The root training script
steps the optimizer only through the interface method, and the dataset's transform
composition is built only by the class the look-up picks: neither is a tool nor dead code."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "README.md": """
        # Two generators

        ```bash
        python train.py --dataroot ./datasets/maps --model gan
        python train.py --dataroot ./datasets/facades --model paired
        ```
    """,
    "options.py": """
        import argparse


        def parse():
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="gan")
            parser.add_argument("--dataset_mode", default="unpaired")
            parser.add_argument("--lr", type=float, default=0.0002)
            parser.add_argument("--init_type", type=str, default="normal")
            parser.add_argument("--load_size", type=int, default=286)
            parser.add_argument("--n_epochs", type=int, default=100)
            parser.add_argument("--epoch_count", type=int, default=1)
            parser.add_argument("--epoch", type=str, default="latest", help="which epoch to load")
            return parser.parse_args()
    """,
    "models/__init__.py": """
        import importlib

        from models.base_model import BaseModel


        def find_model_using_name(model_name):
            model_filename = "models." + model_name + "_model"
            modellib = importlib.import_module(model_filename)
            model = None
            for name, cls in modellib.__dict__.items():
                wanted = model_name.replace("_", "") + "model"
                if name.lower() == wanted and issubclass(cls, BaseModel):
                    model = cls
            return model


        def create_model(opt):
            return find_model_using_name(opt.model)(opt)
    """,
    "models/base_model.py": """
        from abc import ABC, abstractmethod


        class BaseModel(ABC):
            def __init__(self, opt):
                self.opt = opt

            @abstractmethod
            def optimize_parameters(self):
                pass
    """,
    "models/nets.py": """
        import torch
        from torch import nn
        from torch.nn import init


        def init_weights(net, init_type="normal", init_gain=0.02):
            def init_func(m):
                classname = m.__class__.__name__
                if hasattr(m, "weight") and classname.find("Conv") != -1:
                    if init_type == "normal":
                        init.normal_(m.weight.data, 0.0, init_gain)
                    elif init_type == "xavier":
                        init.xavier_normal_(m.weight.data, gain=init_gain)
                    else:
                        raise NotImplementedError(init_type)
                    if hasattr(m, "bias") and m.bias is not None:
                        init.constant_(m.bias.data, 0.0)
                elif classname.find("BatchNorm2d") != -1:
                    init.normal_(m.weight.data, 1.0, init_gain)

            print("initialize network with %s" % init_type)
            net.apply(init_func)


        def init_net(net, init_type="normal", init_gain=0.02):
            init_weights(net, init_type, init_gain=init_gain)
            return net


        def define_G(init_type="normal", init_gain=0.02):
            net = Generator()
            return init_net(net, init_type, init_gain)


        class Generator(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 3, 3, padding=1)

            def forward(self, x):
                return torch.tanh(self.conv(x))
    """,
    "models/gan_model.py": """
        import torch

        from models.base_model import BaseModel
        from models.nets import define_G


        class GanModel(BaseModel):
            def __init__(self, opt):
                BaseModel.__init__(self, opt)
                self.netG = define_G(opt.init_type)
                self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr)

            def optimize_parameters(self):
                self.optimizer_G.zero_grad()
                loss = self.netG(self.real).abs().mean()
                loss.backward()
                self.optimizer_G.step()
    """,
    "models/paired_model.py": """
        import torch

        from models.base_model import BaseModel
        from models.nets import define_G


        class PairedModel(BaseModel):
            def __init__(self, opt):
                BaseModel.__init__(self, opt)
                self.netG = define_G(opt.init_type)
                self.optimizer_G = torch.optim.SGD(self.netG.parameters(), lr=opt.lr)

            def optimize_parameters(self):
                self.optimizer_G.zero_grad()
                loss = self.netG(self.real).pow(2).mean()
                loss.backward()
                self.optimizer_G.step()
    """,
    "models/third_model.py": """
        import torch

        from models.base_model import BaseModel
        from models.nets import Generator


        class ThirdModel(BaseModel):
            def __init__(self, opt):
                BaseModel.__init__(self, opt)
                self.netG = Generator()
                self.optimizer_G = torch.optim.RMSprop(self.netG.parameters(), lr=opt.lr)

            def optimize_parameters(self):
                self.optimizer_G.zero_grad()
                loss = self.netG(self.real).mean()
                loss.backward()
                self.optimizer_G.step()
    """,
    "data/__init__.py": """
        import importlib

        import torch.utils.data


        def find_dataset_using_name(dataset_name):
            dataset_filename = "data." + dataset_name + "_dataset"
            datasetlib = importlib.import_module(dataset_filename)
            for name, cls in datasetlib.__dict__.items():
                if name.lower() == dataset_name + "dataset":
                    return cls


        def create_dataset(opt):
            dataset = find_dataset_using_name(opt.dataset_mode)(opt)
            return torch.utils.data.DataLoader(dataset, batch_size=1, shuffle=True)
    """,
    "data/base_dataset.py": """
        import torch.utils.data as data
        import torchvision.transforms as transforms


        class BaseDataset(data.Dataset):
            def __init__(self, opt):
                self.opt = opt


        def get_transform(opt):
            return transforms.Compose([
                transforms.Resize([opt.load_size, opt.load_size]),
                transforms.RandomCrop(256),
                transforms.RandomHorizontalFlip(),
                transforms.ToTensor(),
            ])
    """,
    "data/unpaired_dataset.py": """
        from data.base_dataset import BaseDataset, get_transform


        class UnpairedDataset(BaseDataset):
            def __init__(self, opt):
                BaseDataset.__init__(self, opt)
                self.transform = get_transform(opt)

            def __getitem__(self, index):
                return self.transform(self.images[index])

            def __len__(self):
                return len(self.images)
    """,
    "train.py": """
        from data import create_dataset
        from models import create_model
        from options import parse

        if __name__ == "__main__":
            opt = parse()
            dataset = create_dataset(opt)
            model = create_model(opt)
            for epoch in range(opt.epoch_count, opt.n_epochs + 1):
                for data in dataset:
                    model.set_input(data)
                    model.optimize_parameters()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):
    root = write_repo(tmp_path_factory.mktemp("optmodel"), FILES)
    return build_review(str(root))


def test_training_script_is_ported(review) -> None:
    # it steps the optimizers through the base's interface method: the training entry
    apart = dict(review.ancillary)
    assert "train.py" not in apart


def test_option_loaded_dataset_builds_the_augmentation(review) -> None:
    # the transform composition is built by the dataset the option's look-up loads by name
    steps = [v for r in review.recipe if r.category == "augmentation" for _, v in r.values]
    assert any(v.startswith("RandomCrop(256)") for v in steps), steps
    assert any(v.startswith("RandomHorizontalFlip") for v in steps), steps


def test_epoch_named_by_a_word_is_no_training_length(review) -> None:
    # ``--epoch latest`` names the saved weights to load; ``--n_epochs 100`` is the length
    lengths = {r.name for r in review.recipe if r.category == "epochs"}
    assert "argparse --n_epochs" in lengths, lengths
    assert "argparse --epoch" not in lengths, lengths
    # the start of the epochs' range (a resumed run's first epoch) is no length either
    assert "argparse --epoch_count" not in lengths, lengths


def test_option_read_by_the_picked_model_decides_its_branch(review) -> None:
    # ``opt.init_type`` in the model module the look-up loads reads the options the training
    # script parses; the closure of ``init_weights`` tests it: the normal initialiser runs
    inits = {r.name: r.note for r in review.recipe if r.category == "init"}
    assert "torch.nn.init.normal_" in inits, inits
    assert "torch.nn.init.xavier_normal_" not in inits, inits


def test_module_no_run_picks_is_counted_apart(review) -> None:
    # --model gan (the default) and paired (documented) are the runs; third no run picks,
    # and the base every model imports is no pick at all
    apart = dict(review.ancillary)
    assert "models/third_model.py" in apart, apart
    assert "--model third" in apart["models/third_model.py"]
    for ported in ("models/gan_model.py", "models/paired_model.py", "models/base_model.py"):
        assert ported not in apart, apart
    optimizers = {r.name for r in review.recipe if r.category == "optimizer"}
    assert "torch.optim.RMSprop" not in optimizers, optimizers
