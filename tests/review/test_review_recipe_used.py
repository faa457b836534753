"""The recipe keeps what a training run uses: compositions stored for pictures or handed to a
validation dataset are not augmentation, a flag set by a metering class's ``initialize`` is not
weight initialisation, ``DataParallel`` in an inference script is not distributed training,
``cudnn.benchmark`` is no seed, and an augmentor built with ``**aug_params`` shows the values
its dataset's callers (through ``super().__init__``) pass."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def test_compositions_for_pictures_and_validation_are_not_augmentation(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torchvision.transforms as T
                from data import Folder

                class Trainer:
                    def __init__(self):
                        self.restore_transform = T.Compose([T.ToPILImage()])
                        self.viz_transform = T.Compose([T.Resize((400, 400)), T.ToTensor()])

                def main():
                    train = Folder(set_name="train2017",
                                   transform=T.Compose([T.RandomHorizontalFlip(), T.ToTensor()]))
                    val = Folder(set_name="val2017", transform=T.Compose([T.ToTensor()]))
                    test = Folder(set_name="x", train=False, transform=T.Compose([T.ToTensor()]))
                    return train, val, test
                """,
            "data.py": """
                class Folder:
                    def __init__(self, set_name, transform=None, train=True):
                        self.transform = transform
                """,
        },
    )
    augment = [(i.name, i.where.line) for i in recipe_of(tmp_path) if i.category == "augmentation"]
    # VALID: the training split's composition; INVALID: visualisation, val2017, train=False
    assert augment == [("composition in main", 11)]


def test_a_metering_flag_is_no_initialisation_and_a_module_init_stays(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "metrics.py": """
                class AverageMeter:
                    def initialize(self, val):
                        self.val = val
                        self.initialized = True
                """,
            "exp.py": """
                class Exp:
                    def get_model(self, model):
                        def init_yolo(M):
                            for m in M.modules():
                                m.eps = 1e-3

                        model.apply(init_yolo)
                        return model
                """,
            "net.py": """
                import torch

                class Net(torch.nn.Module):
                    def init_weights(self):
                        self.scale = 1.0
                """,
        },
    )
    inits = [i.name for i in recipe_of(tmp_path) if i.category == "init"]
    # VALID: a module's routine and a configuration's BatchNorm settings; INVALID: the meter
    assert inits == ["Exp.get_model.init_yolo", "Net.init_weights"]


def test_inference_data_parallel_and_cudnn_benchmark_are_no_rows(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "test.py": """
                import torch
                import torch.backends.cudnn as cudnn

                def run(net):
                    net = torch.nn.DataParallel(net)
                    cudnn.benchmark = False
                    return net
                """,
            "train.py": """
                import torch

                def main(model):
                    torch.backends.cudnn.deterministic = True
                    model = torch.nn.DataParallel(model)
                    opt = torch.optim.SGD(model.parameters(), lr=0.1)
                    opt.step()
                """,
        },
    )
    items = recipe_of(tmp_path)
    assert [(i.name, i.where.path) for i in items if i.category == "distributed"] == [
        ("torch.nn.DataParallel", "train.py")
    ]
    assert [i.name for i in items if i.category == "seed"] == ["torch.backends.cudnn.deterministic"]


def test_an_augmentor_built_with_kwargs_shows_what_the_datasets_callers_pass(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/utils/__init__.py": "",
            "core/utils/augmentor.py": """
                class FlowAugmentor:
                    def __init__(self, crop_size, min_scale=-0.2, max_scale=0.5):
                        self.crop_size = crop_size
                """,
            "core/datasets.py": """
                from core.utils.augmentor import FlowAugmentor

                class FlowDataset:
                    def __init__(self, aug_params=None):
                        if aug_params is not None:
                            self.augmentor = FlowAugmentor(**aug_params)

                class Chairs(FlowDataset):
                    def __init__(self, aug_params=None, split="training"):
                        super(Chairs, self).__init__(aug_params)

                def fetch(size):
                    aug_params = {"crop_size": size, "min_scale": -0.1, "max_scale": 1.0}
                    return Chairs(aug_params, split="training")
                """,
        },
    )
    (row,) = [i for i in recipe_of(tmp_path) if i.name == "core.utils.augmentor.FlowAugmentor"]
    values = dict(row.values)
    assert values["min_scale"].startswith("-0.1 (passed at core/datasets.py:13")
    assert values["max_scale"].startswith("1.0 ")
    assert "crop_size" in values


JSON_TRAIN = {
    "config.json": """
        {
            "name": "Net",
            "optimizer": {
                "type": "SGD",
                "args": {"lr": 0.01, "momentum": 0.9}
            },
            "loss": "CrossEntropy2d",
            "lr_scheduler": {"type": "Poly", "args": {}},
            "train_loader": {
                "args": {"batch_size": 8, "crop_size": 380, "flip": true}
            },
            "val_loader": {
                "args": {"batch_size": 4, "crop_size": 480}
            },
            "trainer": {"epochs": 80}
        }
        """,
    "losses.py": """
        import torch.nn as nn

        class CrossEntropy2d(nn.Module):
            def __init__(self, ignore_index=255):
                super().__init__()
                self.ce = nn.CrossEntropyLoss(ignore_index=ignore_index)

        class Focal(nn.Module):
            def __init__(self):
                super().__init__()
                self.ce = nn.CrossEntropyLoss(reduce=False)

        def xloss(logits, labels):
            return nn.functional.cross_entropy(logits, labels)
        """,
    "train.py": """
        import argparse
        import json
        import torch
        import losses

        def main(config, model):
            optimizer = getattr(torch.optim, config["optimizer"]["type"])(
                model.parameters(), **config["optimizer"]["args"])
            loss = getattr(losses, config["loss"])(ignore_index=255)
            optimizer.step()
            return loss

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("-c", "--config", default="config.json")
            args = parser.parse_args()
            main(json.load(open(args.config)), None)
        """,
}


def test_a_json_config_the_training_script_loads_is_the_recipe(tmp_path: Path) -> None:
    write_repo(tmp_path, JSON_TRAIN)
    items = recipe_of(tmp_path)
    shown = {(i.category, i.name): dict(i.values) for i in items}
    assert shown[("optimizer", "config optimizer: SGD")] == {
        "args.lr": "0.01",
        "args.momentum": "0.9",
    }
    assert ("scheduler", "config lr_scheduler: Poly") in shown
    assert shown[("epochs", "config trainer")] == {"epochs": "80"}
    assert shown[("batch_size", "config train_loader.args")] == {"batch_size": "8"}
    # the training loader's crop and flip; the validation loader's crop is no augmentation
    assert shown[("augmentation", "config train_loader.args")] == {
        "crop_size": "380",
        "flip": "True",
    }
    (loss,) = [i for i in items if i.category == "loss"]
    # the class the config names, not every loss class the picked-from module defines
    assert loss.name == "config loss: CrossEntropy2d"
    assert "defined at losses.py:3" in loss.note and "loaded by train.py:15" in loss.note
    assert loss.where.path == "config.json"


def test_a_json_file_no_code_loads_is_not_read(tmp_path: Path) -> None:
    write_repo(tmp_path, {**JSON_TRAIN, "train.py": "import torch\n"})
    assert not [i for i in recipe_of(tmp_path) if i.where.path == "config.json"]


def test_a_loggers_step_counter_is_no_training_length(tmp_path: Path) -> None:
    """RAFT's ``Logger.__init__`` sets ``self.total_steps = 0`` and counts up in ``push``;
    the training loop keeps its own ``total_steps`` against ``--num_steps``."""
    write_repo(
        tmp_path,
        {
            "train.py": """
                import argparse
                import torch

                class Logger:
                    def __init__(self, model):
                        self.model = model
                        self.total_steps = 0

                    def push(self):
                        self.total_steps += 1

                def train(args, model):
                    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
                    logger = Logger(model)
                    total_steps = 0
                    while total_steps < args.num_steps:
                        optimizer.step()
                        logger.push()
                        total_steps += 1
                    print(logger.total_steps)

                if __name__ == "__main__":
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--lr", type=float, default=0.00002)
                    parser.add_argument("--num_steps", type=int, default=100000)
                    train(parser.parse_args(), None)
                """,
        },
    )
    epochs = [(i.name, dict(i.values)) for i in recipe_of(tmp_path) if i.category == "epochs"]
    assert epochs == [("argparse --num_steps", {"default": "100000"})]
