"""Documented training commands that name two configs once each, one per script, where one
script is a named variant of the other (``python train.py -c configs/ljs_base.json`` beside
``python train_ms.py -c configs/vctk_base.json``): the script's own config is the one
trained, not "none is picked"; two unrelated scripts' tie still picks none."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.commands import commanded_config

CONFIGS = {"configs/ljs_base.json", "configs/vctk_base.json"}


def _readme(root: Path, second: str) -> None:
    (root / "README.md").write_text(
        "# tts\n\n```sh\npython train.py -c configs/ljs_base.json -m ljs\n"
        f"python {second} -c configs/vctk_base.json -m vctk\n```\n"
    )


def test_a_variant_scripts_tie_picks_the_base_scripts_config(tmp_path) -> None:
    _readme(tmp_path, "train_ms.py")
    assert commanded_config(tmp_path, CONFIGS) == ("configs/ljs_base.json", "README.md:4")


def test_unrelated_scripts_tie_picks_none(tmp_path) -> None:
    _readme(tmp_path, "train2.py")
    assert commanded_config(tmp_path, CONFIGS) is None
