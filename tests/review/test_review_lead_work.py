"""Work items a migration lead found wrong on repositories new to the project
(fixtures/leadwork): pretrained weights a default run never loads priced as work, a released
model's weights copied into the repository's own architecture described as a model to port,
training and network libraries with no item, one state update priced once per copied file,
and a model factory's architecture shown as the expression that picks it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from scan_helpers import review_fixture, write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review, Where, WorkItem
from apiscan.review.oplibs import _network_op, training_piece


@cache
def lead() -> Review:
    return review_fixture("fixtures/leadwork")


def _items(kind: str) -> list[WorkItem]:
    return [i for i in lead().work if i.kind == kind]


def test_weights_behind_a_flag_no_caller_passes_down_are_not_work() -> None:
    """``Detector(load_weights=False)`` hands the flag to ``Stem(width, load_weights)``,
    whose ``if load_weights:`` is the only call of ``load_pretrained_weights``: the download
    there never runs (INVALID); ``imagenet=True`` handed down to ``Trunk`` does run
    ``load_imagenet_weights`` (VALID)."""
    downloads = [i for i in _items("pretrained-backbone") if "by URL" in i.what]
    assert [i.where for i in downloads] == [(Where("lw/zoo.py", 18),)]
    notes = " ".join(i.why for i in lead().work)
    assert "lw/zoo.py:12 (only if load_pretrained_weights runs, off by default)" in notes


def test_a_released_model_copied_into_the_own_architecture_is_a_weight_conversion() -> None:
    """``Encoder.load_pretrained`` (called by train.py) fills the repository's Encoder with
    transformers' weights: a checkpoint conversion, not a model to port (VALID);
    ``Detector.from_pretrained``, called only by a test, loads nothing in the run (INVALID)."""
    conversions = [i for i in _items("checkpoint") if "copied into" in i.what]
    assert [(i.what, i.where) for i in conversions] == [
        (
            "transformers.AutoModel.from_pretrained(pretrained weights) copied into "
            "Encoder.load_pretrained",
            (Where("lw/lw.py", 57),),
        )
    ]
    assert "a weight conversion, not a port of the library's model" in conversions[0].why
    assert not any("transformers" in i.what for i in _items("pretrained-backbone"))
    assert not any(w.line == 41 for i in lead().work for w in i.where if w.path == "lw/lw.py")


def test_training_libraries_of_an_exported_trainer_are_items() -> None:
    """The package's ``__init__`` exports ``lw.lw.Trainer`` (a submodule named like the
    package): its Accelerator and EMA are the training path, each a training-library item."""
    found = {i.what: i.where for i in _items("training-library")}
    assert found == {
        "accelerate.Accelerator": (Where("lw/lw.py", 66),),
        "ema_pytorch.EMA": (Where("lw/lw.py", 69),),
        # apex's amp state, not the model's own ``state_dict()`` two lines above
        "apex.amp.state_dict": (Where("lw/lw.py", 85),),
    }
    why = " ".join(i.why for i in _items("training-library"))
    assert "mindspore.value_and_grad" in why and "ops.assign" in why


def test_einops_in_the_network_is_one_item_of_distinct_patterns() -> None:
    """einops' Rearrange layer, ``reduce`` and the same ``rearrange`` pattern in two copied
    files: three distinct patterns (VALID); the tool's ``rearrange`` is counted apart
    (INVALID)."""
    (item,) = _items("network-library")
    assert item.what == "einops (Rearrange, rearrange, reduce): 3 distinct patterns in 4 calls"
    assert item.where == (Where("lw/lw.py", 24), Where("lw/lw.py", 30), Where("lw/norm1d.py", 22))
    assert item.uses == 3
    assert "reshape and transpose" in item.why and "no MindSpore backend" in item.why
    assert "3 network-library as 2.5 × 0.08–0.15" in lead().effort.formula


def test_an_evaluation_metric_is_listed_and_counted_apart() -> None:
    (item,) = _items("evaluation-library")
    assert item.where == (Where("lw/fid.py", 8), Where("lw/fid.py", 12))
    assert item.why.startswith("evaluation only, counted apart from the effort")
    assert "evaluation-library" not in lead().effort.formula
    assert any("not counted: pytorch_fid (evaluation only)" in e for e in lead().effort.explanation)


def test_the_repositorys_own_package_of_a_metrics_name_is_no_library(tmp_path: Path) -> None:
    """A repository that is the metric's package itself (a ``src/`` layout whose package is
    ``pytorch_fid``, its ``__main__`` calling its own ``fid_score``): its code is the port,
    not a library it calls (INVALID item); the test above is the VALID one."""
    write_repo(
        tmp_path,
        {
            "setup.py": "from setuptools import setup\nsetup(name='pytorch-fid')\n",
            "src/pytorch_fid/__init__.py": "",
            "src/pytorch_fid/__main__.py": """
                import pytorch_fid.fid_score

                pytorch_fid.fid_score.main()
            """,
            "src/pytorch_fid/fid_score.py": """
                import torch
                from torch import nn


                class Net(nn.Module):
                    def forward(self, x):
                        return x.mean((2, 3))


                def main():
                    with torch.no_grad():
                        print(Net()(torch.zeros(2, 3, 8, 8)))
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    assert [i.what for i in review.work if i.kind == "evaluation-library"] == []
    assert not any("pytorch_fid (evaluation only)" in e for e in review.effort.explanation)


def test_one_state_update_copied_in_two_files_is_priced_once() -> None:
    """The same ``self.weight.copy_(normalize(self.weight))`` in NormConv2d and NormConv1d is
    one item with both places (VALID); StepCounter's different update stays its own
    (INVALID merge)."""
    found = {i.what: i.where for i in _items("state-in-forward")}
    assert found == {
        "NormConv1d.forward, NormConv2d.forward: self.weight updated in place (one update "
        "written 2 times, in 2 files)": (Where("lw/norm1d.py", 20), Where("lw/norm2d.py", 19)),
        "StepCounter.forward: self.steps updated in place": (Where("lw/norm2d.py", 31),),
    }
    assert "2 state-in-forward as 1.8 × 1–2" in lead().effort.formula


def test_a_factory_architecture_is_named_from_the_config_that_sets_it() -> None:
    (item,) = [i for i in _items("pretrained-backbone") if i.what.startswith("timm.")]
    assert item.what == 'timm.create_model("vit_small_patch16_224" (as config.timm_name))'


def test_apex_mixed_precision_and_syncbn_helpers_are_training_pieces() -> None:
    """apex's amp state and its SyncBN process groups are pieces of training with MindSpore
    counterparts, not compiled network ops (SwAV's main_swav.py); a fused layer stays an op."""
    amp = training_piece("apex.amp.initialize")
    assert amp is not None and training_piece("apex.amp.state_dict") == amp
    syncbn = training_piece("apex.parallel.convert_syncbn_model")
    assert syncbn is not None
    assert training_piece("apex.parallel.create_syncbn_process_group") == syncbn
    assert not _network_op("apex.amp.state_dict")
    assert _network_op("apex.normalization.FusedLayerNorm")


def test_a_flag_a_factory_passes_through_cls_keeps_its_weights(tmp_path: Path) -> None:
    """``Net.from_args`` builds ``cls(pretrained=args.pretrained)``, ``--pretrained``
    defaulting to 1: that construction counts beside ``Net()`` (the flag left at False), so
    the download stays work (VALID); a flag every construction leaves off switches it off
    (INVALID: ``Plain``)."""
    write_repo(
        tmp_path,
        {
            "nets.py": """
                import torch.nn as nn
                from torch.utils import model_zoo

                model_urls = {"resnet18": "https://example.com/resnet18.pth"}

                def load_imagenet(model):
                    model.load_state_dict(model_zoo.load_url(model_urls["resnet18"]))

                def load_plain(model):
                    model.load_state_dict(model_zoo.load_url(model_urls["resnet18"]))

                class Net(nn.Module):
                    def __init__(self, pretrained=False):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 8, 3)
                        if pretrained:
                            load_imagenet(self)

                    @classmethod
                    def from_args(cls, args):
                        return cls(pretrained=args.pretrained)

                class Plain(nn.Module):
                    def __init__(self, imagenet=False):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 8, 3)
                        if imagenet:
                            load_plain(self)
            """,
            "train.py": """
                import argparse
                import torch
                from nets import Net, Plain

                parser = argparse.ArgumentParser()
                parser.add_argument("--pretrained", type=int, default=1)
                args = parser.parse_args()
                net = Net.from_args(args)
                other = Net()
                plain = Plain()
                opt = torch.optim.SGD(net.parameters(), lr=0.1)
                loss = net.conv(torch.zeros(1, 3, 8, 8)).sum()
                loss.backward()
                opt.step()
            """,
        },
    )
    review = build_review(str(tmp_path))
    downloads = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert [i.where for i in downloads] == [(Where("nets.py", 7),)]
    assert "nets.py:10 (only if load_plain runs, off by default)" in downloads[0].why
