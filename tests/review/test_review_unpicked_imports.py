"""An implementation imported only in a branch the run's values skip is an alternative,
counted apart, on fixtures/detectpick: ``Reader(langs, detect_network="fast")`` hands its
argument to ``load_detector``, which imports ``fast_det`` ``if self.detect_network ==
"fast"`` and ``slow_det`` ``elif ... in ["slow"]``; the package's own caller leaves the
argument out, and ``set_detector`` (the only other caller) is called by nothing. ``slow_det``,
the ``slownet`` package it imports and the loss module that package loads by name go apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "detectpick"
WHY = "an alternative the run's values do not pick (imported only in a branch they skip, at "


def _apart(root: Path) -> dict[str, str]:
    review = build_review(str(root), jobs=1)
    return {path: why for path, why in review.ancillary if why.startswith(WHY)}


def test_the_default_detector_is_kept_and_the_other_counted_apart() -> None:
    apart = _apart(FIXTURE)
    # INVALID: the detector the default does not pick, and what only it loads
    assert sorted(apart) == [
        "ocrlib/slow_det.py",
        "ocrlib/slownet/__init__.py",
        "ocrlib/slownet/losses.py",
        "ocrlib/slownet/net.py",
    ]
    assert apart["ocrlib/slow_det.py"] == WHY + "ocrlib/reader.py:11)"
    # VALID: the picked one stays ported
    assert "ocrlib/fast_det.py" not in apart


def test_another_default_picks_the_other_detector(tmp_path: Path) -> None:
    root = tmp_path / "detectpick"
    shutil.copytree(FIXTURE, root)
    reader = root / "ocrlib" / "reader.py"
    reader.write_text(reader.read_text().replace('detect_network="fast"', 'detect_network="slow"'))
    assert sorted(_apart(root)) == ["ocrlib/fast_det.py"]


def test_a_value_no_code_tells_picks_nothing(tmp_path: Path) -> None:
    # INVALID: a caller passing a value the review cannot tell keeps both detectors
    root = tmp_path / "detectpick"
    shutil.copytree(FIXTURE, root)
    cli = root / "ocrlib" / "cli.py"
    cli.write_text(cli.read_text().replace("Reader([args.lang])", "Reader([args.lang], input())"))
    assert _apart(root) == {}


def test_two_skipped_alternatives_each_name_their_own_import(tmp_path: Path) -> None:
    # Two imports in skipped branches, and files reached only through one of them without
    # being its target: each is told by the import that reaches it (Where has no order, so
    # a sort of the places must not compare them).
    root = tmp_path / "detectpick"
    shutil.copytree(FIXTURE, root)
    reader = root / "ocrlib" / "reader.py"
    reader.write_text(
        reader.read_text().replace(
            "        else:\n",
            '        elif self.detect_network == "tiny":\n'
            "            from .tiny_det import get_detector\n"
            "        else:\n",
        )
    )
    (root / "ocrlib" / "tiny_det.py").write_text(
        "from .tinynet.net import TinyNet\n\n\ndef get_detector():\n    return TinyNet().eval()\n"
    )
    (root / "ocrlib" / "tinynet").mkdir()
    (root / "ocrlib" / "tinynet" / "__init__.py").write_text("")
    (root / "ocrlib" / "tinynet" / "net.py").write_text(
        "import torch\n\n\nclass TinyNet(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.conv = torch.nn.Conv2d(3, 8, 3)\n\n"
        "    def forward(self, x):\n        return self.conv(x)\n"
    )
    apart = _apart(root)
    assert sorted(apart) == [
        "ocrlib/slow_det.py",
        "ocrlib/slownet/__init__.py",
        "ocrlib/slownet/losses.py",
        "ocrlib/slownet/net.py",
        "ocrlib/tiny_det.py",
        "ocrlib/tinynet/__init__.py",
        "ocrlib/tinynet/net.py",
    ]
    assert apart["ocrlib/slownet/net.py"] == WHY + "ocrlib/reader.py:11)"
    assert apart["ocrlib/tiny_det.py"] == WHY + "ocrlib/reader.py:13)"
    assert apart["ocrlib/tinynet/net.py"] == WHY + "ocrlib/reader.py:13)"
