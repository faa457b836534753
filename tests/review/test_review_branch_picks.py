"""The model a configured run selects where an entry script picks it in an ``if``/``elif``
chain on an option (``--model-type``), or names its class by a dotted string set in such a
chain (``G_kwargs.class_name = 'nets.alpha.Generator'`` built by ``construct_class_by_name``,
with a click ``--cfg``): the branch the documented command (or the default) takes is the
model; the others are its alternatives, said so, never free-standing "other" classes, and
their constructors' initialisation is no recipe row. Small repositories under
fixtures/branchpick/ written for the cases."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from scan_helpers import write_repo

from apiscan.extract.values import argparse_option, file_values
from apiscan.review.build import build_review
from apiscan.review.model import Review

_ROOT = Path("fixtures/branchpick")


def _copy(tmp_path: Path, name: str, readme: str | None) -> Path:
    """The fixture ``name`` copied, its README replaced by ``readme`` (removed for None)."""
    root = tmp_path / name
    shutil.copytree(_ROOT / name, root)
    if readme is None:
        (root / "README.md").unlink()
    else:
        (root / "README.md").write_text(readme, encoding="utf-8")
    return root


def _picks(review: Review) -> list[tuple[str, str]]:
    """(class, what selected it) of each top model."""
    return [(m.cls, dict(m.parts).get("selected by", "")) for m in review.top_models]


def _inits(review: Review) -> set[str]:
    return {i.where.path + ":" + i.name for i in review.recipe if i.category == "init"}


def _roles(review: Review) -> dict[str, str]:
    return {m.cls: m.role for m in review.modules}


def test_the_branch_the_documented_command_takes_is_the_model() -> None:
    """``--model-type`` is required; the README trains ``big`` first: BigNet (built by
    ``big_model``) is the model, SmallNet and TinyNet the alternatives of the other
    branches, models in the tree, and their initialisation no recipe row."""
    review = build_review(str(_ROOT / "script"), jobs=1)
    picks = _picks(review)
    assert picks[0] == ("nets.big.BigNet", "big_model(width=64) in train.py → big_model()")
    assert picks[1:] == [
        (
            "nets.small.SmallNet",
            'an alternative to BigNet: small_model(width=16), only if args.model_type == "small"',
        ),
        (
            "nets.small.TinyNet",
            'an alternative to BigNet: TinyNet(), only if args.model_type == "tiny"',
        ),
    ]
    roles = _roles(review)
    assert roles["nets.small.SmallNet"] == roles["nets.small.TinyNet"] == "model"
    assert _inits(review) == set()  # SmallNet's normal_ and TinyNet's zeros_ are not run


def test_a_command_naming_another_branch_picks_that_model(tmp_path: Path) -> None:
    """The README trains ``tiny``: TinyNet, constructed in its branch, is the model (said
    to be the branch the defaults take, with what the others build), BigNet and SmallNet
    its alternatives, and TinyNet's own initialisation is the recipe's."""
    root = _copy(tmp_path, "script", "```bash\npython train.py --model-type tiny\n```\n")
    review = build_review(str(root), jobs=1)
    picks = _picks(review)
    assert picks[0] == (
        "nets.small.TinyNet",
        "the branch the defaults take; the others build BigNet (train.py:12), "
        "SmallNet (train.py:14)",
    )
    assert sorted(cls for cls, _ in picks[1:]) == ["nets.big.BigNet", "nets.small.SmallNet"]
    assert all(why.startswith("an alternative to TinyNet: ") for _, why in picks[1:])
    assert _inits(review) == {"nets/small.py:torch.nn.init.zeros_"}


def test_with_no_command_no_branch_is_told_and_none_is_an_alternative(tmp_path: Path) -> None:
    """No README: the required ``--model-type`` has no value, so no branch is left out;
    nothing is called an alternative and every model's initialisation stays."""
    review = build_review(str(_copy(tmp_path, "script", None)), jobs=1)
    assert not any("an alternative" in why for _, why in _picks(review))
    assert _inits(review) == {
        "nets/small.py:weights set in SmallNet.__init__",
        "nets/small.py:torch.nn.init.zeros_",
    }


def test_a_class_name_set_in_the_branch_the_command_takes_is_the_model() -> None:
    """``G_kwargs.class_name`` is set to ``nets.beta.Generator`` only if ``opts.cfg ==
    "beta"``, else to ``nets.alpha.Generator``; the README's first run passes
    ``--cfg=alpha`` to the click command: alpha's Generator is the model, beta's an
    alternative (no longer "other"), beta's Synthesis initialisation no recipe row; the
    Discriminator, named by a keyword, stays."""
    review = build_review(str(_ROOT / "classname"), jobs=1)
    picks = dict(_picks(review))
    assert picks["nets.alpha.Generator"] == (
        "G_kwargs.class_name = 'nets.alpha.Generator' (train.py:29) → construct_class_by_name()"
    )
    assert picks["nets.beta.Generator"] == (
        "an alternative to alpha.Generator: G_kwargs.class_name = 'nets.beta.Generator' "
        '(train.py:27) → construct_class_by_name(), only if opts.cfg == "beta"'
    )
    assert "nets.beta.Discriminator" in picks
    roles = _roles(review)
    assert roles["nets.alpha.Generator"] == roles["nets.beta.Generator"] == "model"
    assert _inits(review) == set()


def test_the_command_picking_the_other_class_name_makes_it_the_model(tmp_path: Path) -> None:
    """``--cfg=beta``: beta's Generator is the model, its Synthesis initialisation runs,
    alpha's Generator is the alternative."""
    root = _copy(tmp_path, "classname", "```bash\npython train.py --cfg=beta --batch=8\n```\n")
    review = build_review(str(root), jobs=1)
    picks = dict(_picks(review))
    assert not picks["nets.beta.Generator"].startswith("an alternative")
    assert picks["nets.alpha.Generator"].startswith("an alternative to beta.Generator: ")
    assert picks["nets.alpha.Generator"].endswith('only if not opts.cfg == "beta"')
    assert _inits(review) == {"nets/beta.py:weights set in Synthesis.__init__"}


def test_with_no_command_both_class_names_stay_picks(tmp_path: Path) -> None:
    """No README: ``--cfg`` has no value; both Generators are named, neither is an
    alternative."""
    review = build_review(str(_copy(tmp_path, "classname", None)), jobs=1)
    picks = dict(_picks(review))
    assert {"nets.alpha.Generator", "nets.beta.Generator"} <= set(picks)
    assert not any(why.startswith("an alternative") for why in picks.values())


def _call(code: str) -> object:
    values = file_values(ast.parse(code), code)
    return values.calls[0].expr


def test_click_options_are_options() -> None:
    """A click option decorator is an option as argparse's ``add_argument`` is: named by a
    bare identifier, else by its longest flag (``--dry-run`` → ``dry_run``), a flag stores
    True, ``required=True`` is required; any other ``option(...)`` call is none."""
    found = argparse_option(_call("click.option('-n', '--dry-run', is_flag=True)\n"))
    assert found is not None
    assert (found.dest, found.option, found.action, found.required) == (
        "dry_run",
        "--dry-run",
        "store_true",
        False,
    )
    found = argparse_option(_call("click.option('--cfg', 'config', required=True)\n"))
    assert found is not None and (found.dest, found.required) == ("config", True)
    found = argparse_option(_call("click.option('--kimg', type=int, default=25000)\n"))
    assert found is not None and found.default is not None and found.default.value == 25000
    assert argparse_option(_call("menu.option('--cfg', default='a')\n")) is None
    assert argparse_option(_call("click.option('config')\n")) is None  # no flag: no option


def test_the_networks_option_files_name_come_before_an_inference_scripts_model() -> None:
    """No training script builds a model itself: the network the option file the README's
    training command names (``network_g.type: TinyNet``) is the model, the network another
    option file names its alternative; the model only an inference script builds
    (``DenoiseNet``) comes after them and is not picked."""
    review = build_review(str(_ROOT / "optionnets"), jobs=1)
    picks = _picks(review)
    assert picks[0] == (
        "optnet.archs.tiny_arch.TinyNet",
        "network_g.type: TinyNet in options/train/deblur/TinyNet-w32.yml:11, the training "
        "command at README.md:6",
    )
    assert picks[1] == (
        "optnet.archs.wide_arch.WideNet",
        "an alternative to TinyNet: network_g.type: WideNet in "
        "options/train/deblur/WideNet.yml, a file not picked",
    )
    assert picks[2][0] == "optnet.archs.denoise_arch.DenoiseNet"
    assert _roles(review)["optnet.archs.wide_arch.WideNet"] == "model"


def test_with_no_file_picked_every_named_network_is_a_model(tmp_path: Path) -> None:
    """No command names an option file: the networks they name are the models, the most
    files' first, none an alternative."""
    review = build_review(str(_copy(tmp_path, "optionnets", None)), jobs=1)
    picks = _picks(review)
    assert [cls for cls, _ in picks[:2]] == [
        "optnet.archs.tiny_arch.TinyNet",
        "optnet.archs.wide_arch.WideNet",
    ]
    assert picks[1][1].startswith("network_g.type: WideNet in 1 of 3 training option YAML")


def test_without_option_files_the_inference_scripts_model_stays(tmp_path: Path) -> None:
    """No option file names a network: the inference script's model is the top model, as
    before."""
    root = _copy(tmp_path, "optionnets", None)
    shutil.rmtree(root / "options")
    review = build_review(str(root), jobs=1)
    assert review.top_models[0].cls == "optnet.archs.denoise_arch.DenoiseNet"


def test_a_class_only_a_file_counted_apart_builds_is_still_a_model() -> None:
    """The LoRA ``Net`` that ``finetune.setup`` builds is also wrapped by an example's
    ``LitWrap`` (examples/, counted apart): that wrapper does not make it a block of
    something else; it is a model the package builds, beside the base ``Net`` ``fit``
    builds."""
    review = build_review(str(_ROOT / "apartbuilt"), jobs=1)
    tops = {(m.cls, m.builder) for m in review.top_models}
    assert ("pkg.lora.Net", "setup") in tops
    assert ("pkg.model.Net", "fit") in tops
    assert _roles(review)["pkg.lora.Net"] == "model"


def test_a_wrapper_the_package_only_re_exports_is_no_part_of_the_port(tmp_path: Path) -> None:
    """The same wrapper in the package, which only re-exports it (its ``__init__``): where
    the repository trains, a re-export builds nothing (issue 20), so the wrapper is no row
    of the network; the LoRA ``Net`` it wraps is no top model of its own either."""
    root = tmp_path / "apartbuilt"
    shutil.copytree(_ROOT / "apartbuilt", root)
    (root / "examples" / "lit_wrap.py").rename(root / "pkg" / "lit_wrap.py")
    (root / "pkg" / "__init__.py").write_text("from pkg.lit_wrap import LitWrap\n")
    review = build_review(str(root), jobs=1)
    assert "pkg.lora.Net" not in {m.cls for m in review.top_models}
    assert "pkg.lit_wrap.LitWrap" not in _roles(review)


_BACKBONES = {
    "config.json": '{"arch": {"type": "SegNet", "args": {"backbone": "resnet50"}}}\n',
    "train.py": """
        import json

        import torch

        import models


        def main(config):
            arch = config["arch"]
            model = getattr(models, arch["type"])(2, **arch["args"])
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            loss = model(torch.zeros(1, 3, 8, 8)).mean()
            loss.backward()
            optimizer.step()


        if __name__ == "__main__":
            main(json.load(open("config.json")))
    """,
    "models/__init__.py": "from .segnet import SegNet\n",
    "models/segnet.py": """
        import torch

        from models import resnet


        class SegNet(torch.nn.Module):
            def __init__(self, num_classes, backbone="resnet50"):
                super().__init__()
                self.backbone = getattr(resnet, backbone)(True)
                self.head = torch.nn.Conv2d(8, num_classes, 1)

            def forward(self, x):
                return self.head(self.backbone(x))
    """,
    "models/resnet.py": """
        import os
        from urllib.request import urlretrieve

        import torch
        import torch.utils.model_zoo as model_zoo

        model_urls = {
            "resnet18": "https://download.pytorch.org/models/resnet18-5c106cde.pth",
            "resnet50": "https://download.pytorch.org/models/resnet50-19c8e357.pth",
        }


        class ResNet(torch.nn.Module):
            def __init__(self, width):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, width, 3, padding=1)

            def forward(self, x):
                return self.conv(x)


        def resnet18(pretrained=False):
            model = ResNet(8)
            if pretrained:
                model.load_state_dict(model_zoo.load_url(model_urls["resnet18"]))
            return model


        def resnet50(pretrained=False, root="./pretrained"):
            model = ResNet(8)
            if pretrained:
                model.load_state_dict(load_url(model_urls["resnet50"], model_dir=root))
            return model


        def load_url(url, model_dir="./pretrained"):
            cached_file = os.path.join(model_dir, url.split("/")[-1])
            if not os.path.exists(cached_file):
                urlretrieve(url, cached_file)
            return torch.load(cached_file)
    """,
}


def test_the_pretrained_item_is_the_configured_backbones_own_download(tmp_path: Path) -> None:
    """config.json picks ``resnet50``, which downloads its weights through the repository's
    own ``load_url`` (then ``torch.load``): that call is the pretrained-backbone item, not the
    ``model_zoo.load_url`` of ``resnet18``, which nothing calls, builds or names (not reached);
    the ``torch.load`` inside ``load_url`` is no checkpoint of the model."""
    review = build_review(str(write_repo(tmp_path, _BACKBONES)), jobs=1)
    (item,) = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert item.what == 'pretrained weights downloaded by URL: load_url(model_urls["resnet50"])'
    assert [str(w) for w in item.where] == ["models/resnet.py:32", "models/resnet.py:40"]
    # resnet18's download lies in code the run never reaches: neither a place nor priced
    assert "resnet18" not in item.what
    assert not [i for i in review.work if i.kind == "checkpoint"]


def test_a_download_function_handed_no_url_loads_a_checkpoint(tmp_path: Path) -> None:
    """The same ``load_url`` also handed a path the user gives (``args.resume``) loads the
    model's checkpoint too: its ``torch.load`` is both items' place."""
    files = dict(_BACKBONES)
    files["resume.py"] = """
        from models.resnet import load_url


        def resume(args):
            return load_url(args.resume)
    """
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    (item,) = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert [str(w) for w in item.where] == ["models/resnet.py:32", "models/resnet.py:40"]
    (checkpoint,) = [i for i in review.work if i.kind == "checkpoint"]
    assert [str(w) for w in checkpoint.where] == ["models/resnet.py:40"]


def test_without_a_configured_backbone_no_download_is_reached(tmp_path: Path) -> None:
    """A config naming no backbone leaves ``resnet50`` unnamed, reached by nothing: its
    download is no item; ``load_url``'s ``torch.load`` is no checkpoint either."""
    files = dict(_BACKBONES)
    files["config.json"] = '{"arch": {"type": "SegNet", "args": {}}}\n'
    files["models/segnet.py"] = files["models/segnet.py"].replace(
        "getattr(resnet, backbone)(True)", "resnet.ResNet(8)"
    )
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert not [i for i in review.work if i.kind == "pretrained-backbone"]
    assert not [i for i in review.work if i.kind == "checkpoint"]
