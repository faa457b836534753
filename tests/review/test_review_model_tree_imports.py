"""The model tree where the code picks what it builds: an import inside an ``if``/``elif`` on
an argparse option (stylegan2-pytorch's ``if args.arch == 'stylegan2': from model import
Generator`` / ``elif args.arch == 'swagan': from swagan import Generator``), the branch the
default takes deciding, through the recipe's own evaluator. Small repositories under
fixtures/modeltree/ written for each case."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.readings import Readings
from apiscan.review.registry import model_files
from apiscan.review.structure import picked_imports

_ROOT = Path("fixtures/modeltree")


@pytest.fixture(scope="module")
def archimport() -> Review:
    return build_review(str(_ROOT / "archimport"), jobs=1)


def test_the_default_arch_picks_the_imported_generator(archimport: Review) -> None:
    tops = [(t.cls, t.where.path, t.where.line) for t in archimport.top_models]
    assert tops[:2] == [
        ("model.Generator", "train.py", 19),
        ("model.Discriminator", "train.py", 20),
    ]
    assert dict(archimport.top_models[0].parts) == {"style": "Mapping"}
    # the ema copy is the same class: no third model
    assert not any(cls.startswith("wavelet.") for cls, _, _ in tops)
    roles = {m.cls: m.role for m in archimport.modules}
    assert roles["model.Generator"] == roles["model.Discriminator"] == "model"
    # the alternative architecture stays listed, not as the model
    assert roles["wavelet.Generator"] == roles["wavelet.Discriminator"] == "other"


def test_the_branch_imports_are_recorded_with_their_tests() -> None:
    _, analyses = scan_with_facts(ScanOptions(str(_ROOT / "archimport"), cache_dir=None, jobs=1))
    (train,) = [f for f in model_files(analyses) if f.path == "train.py"]
    found = {(b.module, b.local): [t.text for t, _ in b.tests] for b in train.facts.branch_imports}
    assert found[("wavelet", "Generator")][:2] == ['args.arch == "wavelet"', 'args.arch == "base"']
    options = Readings(None, analyses).argparse.by_path["train.py"]
    assert picked_imports(train, options) == {
        "Generator": "model.Generator",
        "Discriminator": "model.Discriminator",
    }


def test_an_unknown_option_keeps_the_plain_import(tmp_path: Path) -> None:
    """Without a default the branch taken is not known: nothing is picked (the import table
    keeps its last binding, as before)."""
    for name in ("model.py", "wavelet.py"):
        (tmp_path / name).write_text((_ROOT / "archimport" / name).read_text())
    text = (_ROOT / "archimport" / "train.py").read_text()
    (tmp_path / "train.py").write_text(text.replace(', default="base"', ""))
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    (train,) = [f for f in model_files(analyses) if f.path == "train.py"]
    options = Readings(None, analyses).argparse.by_path["train.py"]
    assert picked_imports(train, options) == {}


def test_a_backbone_picked_from_a_dict_the_constructor_fills() -> None:
    """SimCLR's ``self.backbone = self._get_basemodel(base_model)`` returning
    ``self.resnet_dict[name]`` of torchvision constructors: the entry the ``--arch``
    default names is the part, the other said to be not picked."""
    review = build_review(str(_ROOT / "zoodict"), jobs=1)
    top = review.top_models[0]
    assert top.cls == "models.contrastive.ContrastiveNet"
    assert dict(top.parts) == {
        "backbone": "torchvision.models.resnet18 (default 'resnet18'; "
        "not picked: torchvision.models.resnet50)"
    }


def test_blocks_named_in_a_block_list_the_constructor_evals() -> None:
    """YOLOP's ``MCnet.__init__`` ``eval``s each row's block name of a module-level list
    (``YOLOP = [[...], [-1, Focus, [3, 32, 3]], [-1, 'Conv', ...], ...]``): the blocks of
    the list the code reads are the model's children, names and strings alike; a list
    nothing reads (``OLD_NET``, naming ``Unused``) adds none."""
    review = build_review(str(_ROOT / "blocklist"), jobs=1)
    top = review.top_models[0]
    assert top.cls == "lib.net.BlockNet"
    assert dict(top.parts)["also builds"] == "Conv, Detect, Focus"
    nodes = {m.cls: m for m in review.modules}
    assert nodes["lib.net.BlockNet"].children == (
        "lib.common.Conv",
        "lib.common.Detect",
        "lib.common.Focus",
    )
    assert nodes["lib.common.Focus"].role == "block"
    # a torch layer a row names is one of the layers it builds
    assert dict(nodes["lib.net.BlockNet"].layers) == {
        "torch.nn.Sequential": 1,
        "torch.nn.Upsample": 1,
    }
    assert nodes["lib.common.Unused"].role == "other"
