"""A network picked from a dict of factories by a default key, whose unpicked entry picks
its own backbone from a dict of its own (``fixtures/nestedpick``): what only the unpicked
entries reach, one dict deeper included, gives no initialisation row and no pretrained
download; nor does a block class the picked network's own dict of block pairs holds only
under a key its default does not pick; a function named like a called one in another file
is still dead."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.work import uncalled_functions

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "nestedpick"


def _with_arch(tmp_path: Path, default: str) -> Path:
    root = tmp_path / "nestedpick"
    shutil.copytree(FIXTURE, root)
    train = root / "train.py"
    train.write_text(train.read_text().replace('default="plain_18"', default))
    return root


def _inits(review: Review) -> dict[str, tuple[str, int]]:
    return {i.name: (i.where.path, i.where.line) for i in review.recipe if i.category == "init"}


def _downloads(review: Review) -> list[tuple[str, int]]:
    (item,) = [w for w in review.work if w.kind == "pretrained-backbone"]
    return [(w.path, w.line) for w in item.where]


def test_the_picked_factory_alone_gives_rows_and_downloads() -> None:
    review = build_review(str(FIXTURE), jobs=1)
    # GlobalBlock (nets/plain.py:23) is built only with --node global: no row
    assert _inits(review) == {
        "torch.nn.init.zeros_": ("nets/plain.py", 6),
        "torch.nn.init.xavier_uniform_": ("nets/plain.py", 13),
    }
    assert _downloads(review) == [("nets/plain.py", 45)]
    (backbone,) = [i for i in review.recipe if i.category == "backbone"]
    assert (backbone.where.path, backbone.where.line) == ("nets/plain.py", 45)
    # the unpicked entry's backbone download is named once, not counted
    assert (
        "weights downloaded at nets/backbones/wide.py:17 (WideBackbone, reached only from "
        "the entries the default does not pick)" in backbone.note
    )


def test_the_other_entry_picked_gives_its_own_and_its_backbones_rows(tmp_path: Path) -> None:
    review = build_review(str(_with_arch(tmp_path, 'default="generic_18"')), jobs=1)
    assert _inits(review) == {
        "torch.nn.init.kaiming_normal_": ("nets/backbones/wide.py", 13),
        "torch.nn.init.constant_": ("nets/generic.py", 13),
    }
    assert _downloads(review) == [("nets/backbones/wide.py", 17)]


def test_an_unknown_key_leaves_every_entry_a_row(tmp_path: Path) -> None:
    review = build_review(str(_with_arch(tmp_path, "required=True")), jobs=1)
    # no entry is known to be left out: the block pairs' dict is not read either
    assert _inits(review) == {
        "torch.nn.init.ones_": ("nets/backbones/narrow.py", 8),
        "torch.nn.init.kaiming_normal_": ("nets/backbones/wide.py", 13),
        "torch.nn.init.constant_": ("nets/generic.py", 13),
        "torch.nn.init.zeros_": ("nets/plain.py", 6),
        "torch.nn.init.xavier_uniform_": ("nets/plain.py", 13),
        "torch.nn.init.uniform_": ("nets/plain.py", 23),
    }
    assert _downloads(review) == [("nets/backbones/wide.py", 17), ("nets/plain.py", 45)]


def test_a_function_named_like_a_called_one_elsewhere_is_dead() -> None:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    dead = {name for name in uncalled_functions(analyses, result) if name[1] == "fill_head"}
    # plain.py's and generic.py's are called; wide.py's shares their name only
    assert dead == {("nets/backbones/wide.py", "fill_head")}


def test_the_other_block_pair_picked_gives_its_blocks_rows(tmp_path: Path) -> None:
    root = _with_arch(tmp_path, 'default="plain_18"')
    train = root / "train.py"
    train.write_text(train.read_text().replace('default="deform"', 'default="global"'))
    review = build_review(str(root), jobs=1)
    assert _inits(review) == {
        "torch.nn.init.zeros_": ("nets/plain.py", 6),
        "torch.nn.init.xavier_uniform_": ("nets/plain.py", 13),
        "torch.nn.init.uniform_": ("nets/plain.py", 23),
    }
