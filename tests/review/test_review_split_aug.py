"""The augmentation rows come from the composition the training loader iterates
(fixtures/splitaug, fixtures/splitaugfn): a transform list is followed through its
assignments, joins and appends in the order they run with the defaults; the compositions of
the validation or test split (a dict entry keyed by split, a list named for it, a test
script's module code) and one applied once at import to fixed values (an adversarial attack's
bounds) are no augmentation; a wrapper for several devices under an option's test that cannot
be told is said to be built only then."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.review.model import RecipeItem

SPLITAUG = REPO_ROOT / "fixtures" / "splitaug"
SPLITAUGFN = REPO_ROOT / "fixtures" / "splitaugfn"


def _line(root: Path, path: str, text: str) -> int:
    """The one line of ``root/path`` holding ``text``."""
    lines = [n for n, s in enumerate((root / path).read_text().splitlines(), 1) if text in s]
    assert len(lines) == 1, text
    return lines[0]


@pytest.fixture(scope="module")
def recipe() -> tuple[RecipeItem, ...]:
    return review_fixture("fixtures/splitaug").recipe


@pytest.fixture(scope="module")
def recipe_fn() -> tuple[RecipeItem, ...]:
    return review_fixture("fixtures/splitaugfn").recipe


def _rows(recipe: tuple[RecipeItem, ...], category: str) -> list[RecipeItem]:
    return [i for i in recipe if i.category == category]


def test_the_training_entry_of_a_dict_by_split_lists_the_list_it_composes(recipe) -> None:
    # VALID: the module-level list followed to the transforms it holds with the defaults
    # (``h, w = 256, 128`` unpacked into the sizes):
    # the ``if opt.tall:`` replacement, the ``+ [RandomErasing]`` join and the ``[ColorJitter]
    # +`` prefix run only under switches left off
    line = _line(SPLITAUG, "train.py", '"train": transforms.Compose(')
    (row,) = [i for i in _rows(recipe, "augmentation") if i.name.startswith("composition")]
    assert (row.where.path, row.where.line) == ("train.py", line)
    assert dict(row.values) == {
        "1": "Resize((256, 128), interpolation=3)",
        "2": "Pad(10)",
        "3": "RandomCrop((256, 128))",
        "4": "RandomHorizontalFlip()",
        "5": "ToTensor()",
        "6": "Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])",
    }
    assert row.note == "the transforms applied, in order, stored as data_transforms['train']"


def test_validation_test_and_attack_compositions_are_no_augmentation(recipe) -> None:
    # INVALID: the ``'val'`` entry, its list's Resize, test.py's composition and the attack's
    # fixed composition applied once at import give no row of the recipe
    places = {(i.where.path, i.where.line) for i in recipe}
    assert ("train.py", _line(SPLITAUG, "train.py", '"val": transforms.Compose(')) not in places
    assert ("train.py", _line(SPLITAUG, "train.py", "transforms.Resize(size=(h, w)")) not in places
    assert not [i for i in recipe if i.where.path in ("attack.py", "test.py")]
    # the transforms the composition shows have no rows of their own, nor do the ones it
    # leaves out (they are in branches the defaults do not take)
    assert not [i for i in recipe if i.name.startswith("torchvision.transforms.")]


def test_a_switch_left_off_still_says_what_it_adds(recipe) -> None:
    (jitter,) = [i for i in recipe if i.name == "argparse --color_jitter"]
    line = _line(SPLITAUG, "train.py", "transforms.ColorJitter(")
    assert jitter.note == (
        "optional, off by default: if opt.color_jitter builds"
        f" torchvision.transforms.ColorJitter (train.py:{line})"
    )


def test_a_wrapper_under_an_option_test_is_built_only_then(recipe) -> None:
    # VALID: ``if len(opt.gpu_ids) > 1:`` with ``--gpu_ids 0``: a conditional row, and the
    # list the loop fills is not shown as its first literal ``[]``
    (wrapper,) = _rows(recipe, "distributed")
    assert wrapper.name == "torch.nn.DataParallel"
    assert wrapper.note == (
        "built only if len(opt.gpu_ids) > 1 (the value that decides it is not known here)"
    )
    first = _line(SPLITAUG, "train.py", "gpu_ids = []")
    filled = _line(SPLITAUG, "train.py", "gpu_ids.append(")
    assert dict(wrapper.values)["device_ids"] == (
        f"gpu_ids (opt.gpu_ids set at train.py:{first + 4}; gpu_ids = [] at"
        f" train.py:{first}, filled by gpu_ids.append(...) at train.py:{filled})"
    )


def test_a_list_built_in_a_function_follows_its_switches(recipe_fn) -> None:
    # VALID: joined under ``--hflip`` (on), appended under ``--cutout`` (off: left out) and
    # under an environment variable (cannot be told: marked); the ``'test'`` entry is none
    line = _line(SPLITAUGFN, "data.py", 'return {"train": transforms.Compose(')
    rows = [i for i in _rows(recipe_fn, "augmentation") if i.where.line == line]
    assert len(rows) == 1
    assert dict(rows[0].values) == {
        "1": "RandomResizedCrop(224)",
        "2": "ToTensor()",
        "3": "RandomHorizontalFlip()",
        "4": 'ColorJitter(0.4, 0.4, 0.4) (if os.environ.get("EXTRA_JITTER"))',
    }
    # INVALID: no row for the steps the composition shows, nor for the test split's
    names = {i.name for i in recipe_fn}
    assert not {n for n in names if n.startswith("torchvision.transforms.")}
    assert not _rows(recipe_fn, "preprocessing")


def test_a_composition_a_dataset_applies_to_each_sample_stays(recipe_fn) -> None:
    # INVALID for the applied-once rule: a module-level composition called inside
    # ``__getitem__`` runs on every sample
    line = _line(SPLITAUGFN, "data.py", "per_sample = transforms.Compose(")
    (row,) = [i for i in recipe_fn if (i.where.path, i.where.line) == ("data.py", line)]
    assert dict(row.values) == {"1": "RandomRotation(10)", "2": "ToTensor()"}


def test_a_composition_tried_at_import_but_handed_to_a_dataset_stays(recipe_fn) -> None:
    # INVALID for the applied-once rule: applied once at import, but another file reads it as
    # the module's attribute (``data.extra_tf``) and hands it to a training dataset
    line = _line(SPLITAUGFN, "data.py", "extra_tf = transforms.Compose(")
    (row,) = [i for i in recipe_fn if (i.where.path, i.where.line) == ("data.py", line)]
    assert dict(row.values) == {"1": "RandomGrayscale(0.2)", "2": "ToTensor()"}


def test_a_wrapper_under_a_launch_test_says_nothing(recipe_fn) -> None:
    # INVALID: ``if args.distributed:`` is how the run is launched: no branch note
    (wrapper,) = _rows(recipe_fn, "distributed")
    assert (wrapper.name, wrapper.note) == ("torch.nn.DataParallel", "")
