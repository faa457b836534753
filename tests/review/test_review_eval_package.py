"""A dataset class built by ``eval('dataset.' + cfg.DATASET.DATASET)``: the package
re-exports it under the name the configs write (``from .coco import CocoSet as coco``), so
it and its base class are reached, not code nothing builds (issue 20 point 4)."""

from __future__ import annotations

from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import uncalled_functions

FILES = {
    "lib/dataset/__init__.py": "from .coco import CocoSet as coco\n",
    "lib/dataset/base.py": (
        "import torch\n\n\n"
        "class KeypointSet(torch.utils.data.Dataset):\n"
        "    def __getitem__(self, i):\n"
        "        return torch.zeros(3, 8, 8)\n"
    ),
    "lib/dataset/coco.py": (
        "from dataset.base import KeypointSet\n\n\nclass CocoSet(KeypointSet):\n    pass\n"
    ),
    "lib/dataset/other.py": (
        "import torch\n\n\n"
        "class Unused(torch.utils.data.Dataset):\n"
        "    def __getitem__(self, i):\n"
        "        return torch.ones(3)\n"
    ),
    "tools/train.py": (
        "import sys\n"
        "sys.path.insert(0, 'lib')\n"
        "import torch\n"
        "import dataset\n\n\n"
        "def main(cfg):\n"
        "    data = eval('dataset.' + cfg.DATASET.DATASET)(cfg)\n"
        "    model = torch.nn.Linear(2, 2)\n"
        "    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "    for x in data:\n"
        "        loss = model(x).sum()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n\n\n"
        "if __name__ == '__main__':\n"
        "    main(None)\n"
    ),
}


def test_a_class_a_package_exports_to_eval_is_reached(tmp_path: Path) -> None:
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    result, analyses = scan_with_facts(ScanOptions(path=str(tmp_path), cache_dir=None))
    uncalled = set(uncalled_functions(analyses, result))
    # the class the package re-exports is built by the eval's lookup
    assert ("lib/dataset/coco.py", "CocoSet") not in uncalled
    # INVALID: a class in the same package that nothing exports or names stays dead
    assert ("lib/dataset/other.py", "Unused") in uncalled
