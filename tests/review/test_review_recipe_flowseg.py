"""Recipe rows from what runs, on ``fixtures/flowseg`` (a RAFT/pytorch-segmentation-like
training script written for these checks): each test is one class of error a lead found on a
repository nobody here had read, and the rule that removes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.names import NameValues
from apiscan.review.recipe import extract_recipe
from apiscan.review.sources import with_facts

FLOWSEG = Path(__file__).resolve().parents[2] / "fixtures" / "flowseg"


@pytest.fixture(scope="module")
def recipe() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(FLOWSEG), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, FLOWSEG)


def named(recipe: tuple[RecipeItem, ...], category: str) -> dict[str, RecipeItem]:
    return {i.name: i for i in recipe if i.category == category}


def test_an_option_only_passed_to_the_model_call_is_no_epoch_count(recipe) -> None:
    epochs = named(recipe, "epochs")
    # --iters: refinement steps of model(image, iters=args.iters); --num_steps ends the loop
    assert "argparse --iters" not in epochs
    assert dict(epochs["argparse --num_steps"].values) == {"default": "1000"}
    assert not any("--iters" in i.name for i in recipe)


def test_an_option_whose_help_says_augmentation_is_an_augmentation_setting(recipe) -> None:
    shift = named(recipe, "augmentation")["argparse --shift"]
    assert shift.values == (("default", "0.1"),)


def test_a_constructed_augmentor_has_no_second_row_by_its_name(recipe) -> None:
    rows = [i for i in recipe if "FlowAugmentor" in i.name]
    assert [(r.name, str(r.where)) for r in rows] == [
        ("flowseg.utils.augmentor.FlowAugmentor", "flowseg/data.py:11")
    ]
    # with the coin flip its ``__call__`` draws, the switch read by its constructor name
    assert dict(rows[0].values) == {
        "crop_size": "[368, 496]",
        "do_flip": "True",
        "step 1": "if do_flip and np.random.rand() < 0.5",
    }


def test_to_tensor_and_normalize_are_input_steps_not_augmentations(recipe) -> None:
    augmentations = named(recipe, "augmentation")
    assert not any(n.endswith(("ToTensor", "Normalize")) for n in augmentations)
    steps = named(recipe, "preprocessing")
    normalize = steps["torchvision.transforms.Normalize"]
    assert dict(normalize.values)["arg1"] == "[0.485, 0.456, 0.406]"
    assert normalize.note.startswith("input step")
    assert "torchvision.transforms.ToTensor" in steps


def test_validation_samplers_and_loaders_are_not_the_recipe(recipe) -> None:
    loaders = [i for i in recipe if i.category == "dataloader"]
    places = sorted(str(i.where) for i in loaders)
    # the training sampler and the training loader only; val_sampler and get_val_loader go
    assert places == ["flowseg/data.py:28", "flowseg/data.py:38"]


def test_a_seed_set_by_an_evaluation_library_is_not_the_recipe(recipe) -> None:
    seeds = [str(i.where) for i in recipe if i.category == "seed"]
    assert seeds == ["train.py:45", "train.py:46"]


def test_a_json_loss_shows_the_settings_its_construction_reads(recipe) -> None:
    loss = named(recipe, "loss")["config loss: SegLoss"]
    assert dict(loss.values) == {"loss": "'SegLoss'", "ignore_index": "255"}


def test_a_repo_scheduler_picked_by_a_json_config_shows_its_formula(recipe) -> None:
    poly = named(recipe, "scheduler")["config lr_scheduler: Poly"]
    assert poly.values == (("formula", "factor = pow(1 - self.last_epoch / self.num_steps, 0.9)"),)


def test_a_parameter_spread_from_the_parsed_command_line_reads_its_option(tmp_path) -> None:
    """whisper's cli(): ``args = parser.parse_args().__dict__`` then
    ``transcribe(model, audio, **args)``: the thresholds are the options' defaults."""
    root = write_repo(
        tmp_path,
        {
            "asr/__init__.py": "",
            "asr/tokens.py": """
                class Tokenizer:
                    @property
                    def transcribe(self) -> int:
                        return 3
            """,
            "asr/run.py": """
                import argparse

                def transcribe(model, audio, no_speech_threshold=0.6, logprob_threshold=-1.0):
                    return no_speech_threshold, logprob_threshold

                def other(model, audio, cut=0.2):
                    return cut

                def cli():
                    parser = argparse.ArgumentParser()
                    parser.add_argument("model")
                    parser.add_argument("--no_speech_threshold", type=float, default=0.5)
                    args = parser.parse_args().__dict__
                    model = args.pop("model")
                    transcribe(model, "a.wav", **args)
                    options = dict(cut=0.3)
                    other(model, "a.wav", **options)
            """,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    literals = NameValues((fa, sf.values) for fa, sf in with_facts(analyses) if sf.values)
    found, complete = literals.argument("transcribe", "no_speech_threshold", 0)
    assert complete and found is not None
    assert found.startswith("0.5 (argparse --no_speech_threshold at asr/run.py:12)")
    # no option of that name: the spread dict says nothing, the value is unknown
    assert literals.argument("transcribe", "logprob_threshold", 0) == (None, False)
    # a dict that is not the command line may set anything
    assert literals.argument("other", "cut", 0) == (None, False)


def test_a_gan_solver_reads_its_options_through_the_parsed_namespace(tmp_path) -> None:
    """stargan-style: ``config = parser.parse_args()`` handed to ``Solver(config)``, loss
    weights named ``lambda_*``, Adam's ``beta1``/``beta2``, a linear decay over the last
    ``num_iters_decay`` steps, and a list of transforms rebound to its own composition."""
    root = write_repo(
        tmp_path,
        {
            "main.py": """
                import argparse
                from solver import Solver
                from data_loader import get_loader

                if __name__ == "__main__":
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--lambda_rec", type=float, default=10)
                    parser.add_argument("--g_lr", type=float, default=0.0001)
                    parser.add_argument("--beta1", type=float, default=0.5)
                    parser.add_argument("--num_iters_decay", type=int, default=100000)
                    parser.add_argument("--lr_update_step", type=int, default=1000)
                    parser.add_argument("--image_size", type=int, default=128)
                    config = parser.parse_args()
                    Solver(get_loader(config.image_size), config).train()
            """,
            "solver.py": """
                import torch

                class Solver:
                    def __init__(self, loader, config):
                        self.loader = loader
                        self.g_lr = config.g_lr
                        self.beta1 = config.beta1
                        self.G = torch.nn.Linear(2, 2)

                    def train(self):
                        opt = torch.optim.Adam(self.G.parameters(), self.g_lr, [self.beta1, 0.999])
                        for x in self.loader:
                            opt.zero_grad()
                            self.G(x).sum().backward()
                            opt.step()
            """,
            "data_loader.py": """
                from torch.utils import data
                from torchvision import transforms as T

                def get_loader(image_size, mode="train"):
                    transform = []
                    if mode == "train":
                        transform.append(T.RandomHorizontalFlip())
                    transform.append(T.Resize(image_size))
                    transform = T.Compose(transform)
                    return data.DataLoader(transform, batch_size=16)
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    recipe = extract_recipe(result, analyses, root)
    adam = named(recipe, "optimizer")["torch.optim.Adam"]
    assert dict(adam.values)["lr"].startswith("0.0001 (")
    assert "argparse --beta1" in named(recipe, "optimizer")
    assert "argparse --lambda_rec" in named(recipe, "loss")
    schedule = named(recipe, "scheduler")
    assert {"argparse --num_iters_decay", "argparse --lr_update_step"} <= set(schedule)
    (composition,) = [i for i in recipe if i.name == "composition in get_loader"]
    steps = [v for k, v in composition.values if k.isdigit()]
    # appended under its own test: the only call, ``get_loader(config.image_size)``, leaves
    # ``mode`` at its default "train", so the flip runs
    assert steps[0] == "RandomHorizontalFlip()"
    assert steps[1] == "Resize(128)"  # the argparse default, through get_loader's parameter


def test_an_inference_script_s_loader_and_batch_size_are_not_the_recipe(recipe) -> None:
    assert not any(i.where.path == "detect.py" and i.category != "checkpoint" for i in recipe)
    assert [str(i.where) for i in recipe if i.category == "batch_size"] == ["train.py:41"]


def test_a_loss_module_stored_and_never_called_is_no_loss_row(recipe) -> None:
    assert not any("SmoothL1Loss" in i.name for i in recipe)
    # the loss the training step computes stays
    assert "config loss: SegLoss" in named(recipe, "loss")


def test_an_lr_written_into_the_param_groups_by_hand_is_the_schedule(tmp_path) -> None:
    """PyTorch-YOLOv3's loop: burn-in warm-up then a step decay, computed in the loop and
    written into every param group; no scheduler object anywhere."""
    root = write_repo(
        tmp_path,
        {
            "train.py": """
                import torch

                HYP = {"learning_rate": 0.001, "burn_in": 1000, "lr_steps": [(400, 0.1)]}

                def run(model, loader, epochs=3):
                    optimizer = torch.optim.SGD(model.parameters(), lr=HYP["learning_rate"])
                    for epoch in range(epochs):
                        for i, (x, y) in enumerate(loader):
                            done = len(loader) * epoch + i
                            model(x).sum().backward()
                            lr = HYP["learning_rate"]
                            if done < HYP["burn_in"]:
                                lr *= done / HYP["burn_in"]
                            else:
                                for threshold, value in HYP["lr_steps"]:
                                    if done > threshold:
                                        lr *= value
                            for g in optimizer.param_groups:
                                g["lr"] = lr
                            optimizer.step()
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    rows = named(extract_recipe(result, analyses, root), "scheduler")
    row = rows["lr computed by hand in run"]
    assert row.values == (
        ("1", 'lr = HYP["learning_rate"]'),
        ("2", 'lr *= done / HYP["burn_in"]'),
        ("3", 'lr *= value (for threshold, value in HYP["lr_steps"])'),
    )
    assert row.note == 'set on each param group by hand: g["lr"] = lr'
    assert str(row.where) == "train.py:19"


def test_a_composition_constant_only_validation_reads_is_not_an_augmentation(tmp_path) -> None:
    """PyTorch-YOLOv3: ``DEFAULT_TRANSFORMS`` is read by the validation loader and by
    detect.py only; ``AUGMENTATION_TRANSFORMS`` by the training loader."""
    root = write_repo(
        tmp_path,
        {
            "yolo/__init__.py": "",
            "yolo/transforms.py": """
                from torchvision import transforms

                DEFAULT_TRANSFORMS = transforms.Compose([transforms.ToTensor()])
                AUGMENTATION_TRANSFORMS = transforms.Compose(
                    [transforms.RandomHorizontalFlip(), transforms.ToTensor()]
                )
            """,
            "yolo/test.py": """
                from torch.utils.data import DataLoader
                from yolo.transforms import DEFAULT_TRANSFORMS

                def _create_validation_data_loader(dataset_cls):
                    return DataLoader(dataset_cls(transform=DEFAULT_TRANSFORMS), batch_size=8)
            """,
            "yolo/detect.py": """
                from yolo.transforms import DEFAULT_TRANSFORMS

                def run(dataset_cls):
                    return dataset_cls(transform=DEFAULT_TRANSFORMS)
            """,
            "yolo/train.py": """
                import argparse
                from torch.utils.data import DataLoader
                from yolo.transforms import AUGMENTATION_TRANSFORMS

                def _create_data_loader(dataset_cls):
                    return DataLoader(dataset_cls(transform=AUGMENTATION_TRANSFORMS), batch_size=8)

                def run():
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--multiscale_training", action="store_true")
                    return parser.parse_args()
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    augmentations = named(extract_recipe(result, analyses, root), "augmentation")
    compositions = [i for n, i in augmentations.items() if n.startswith("composition")]
    assert [i.note.rpartition("stored as ")[2] for i in compositions] == ["AUGMENTATION_TRANSFORMS"]
    assert dict(augmentations["argparse --multiscale_training"].values) == {"default": "False"}
