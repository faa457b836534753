"""Work from what the ported path really runs (issue 20): code after a ``continue``,
``return``, ``raise`` or ``break`` in the same block is no finding, no dynamic shape and no
call (fixtures/deadreach: a Darknet-style forward that skips a block kind before the code
that would have used it; an array weight loader only a demo calls is no checkpoint of the
port); in a repository that never trains, what runs only under ``if self.training:`` counts
for nothing, and a cast to another tensor's type (``cache.to(x)``) is a rewrite listed apart
from the device moves of the same API (fixtures/inferbranch)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture, scan_repo

from apiscan.extract import unreachable
from apiscan.review.build import build_review

REPO = Path(__file__).resolve().parents[2]


def _variant(tmp_path: Path, fixture: str, files: dict[str, str]):
    """The fixture with ``files`` (path → text) written over it, reviewed."""
    root = tmp_path / fixture
    shutil.copytree(REPO / "fixtures" / fixture, root)
    for path, text in files.items():
        (root / path).write_text(text)
    return build_review(str(root), jobs=1)


@pytest.fixture(scope="module")
def dead():
    return review_fixture("fixtures/deadreach")


@pytest.fixture(scope="module")
def infer():
    return review_fixture("fixtures/inferbranch")


def test_the_spans_after_a_jump_are_unreachable() -> None:
    import ast

    tree = ast.parse(
        "def f(x):\n"
        "    for i in x:\n"
        "        if i:\n"
        "            continue\n"
        "            g(i)\n"
        "            h(i)\n"
        "        k(i)\n"
        "    return x\n"
        "    dead()\n"
        "def ok():\n"
        "    try:\n"
        "        raise ValueError\n"
        "    except ValueError:\n"
        "        pass\n"
    )
    # VALID: the two statements after ``continue`` and the one after ``return``;
    # INVALID: k(i) after the ``if`` (reached when i is false), the handler after a raise
    assert unreachable(tree) == ((5, 6), (9, 9))


def test_statements_after_a_jump_make_no_finding() -> None:
    result = scan_repo(REPO / "fixtures" / "deadreach")
    lines = {(f.path, f.span.line, f.api) for f in result.api_findings}
    # VALID: reached calls before the jumps stay (the boolean mask, the array loader)
    assert ("model.py", 27, "torch.from_numpy") in lines
    # INVALID: torch.nonzero after ``continue``, torch.save after ``return``
    assert not any(line in (16, 17, 30) for path, line, _ in lines if path == "model.py")
    shapes = [(f.path, f.span.line, f.rule) for f in result.shape_findings]
    assert shapes == [("model.py", 19, "DS104")]


def test_an_array_loader_only_a_demo_calls_is_no_checkpoint(dead, tmp_path) -> None:
    # INVALID: Net.load_weights called by demo.py alone (counted apart)
    assert [i for i in dead.work if i.kind == "checkpoint"] == []
    # VALID: the training script resumes from it
    train = (REPO / "fixtures" / "deadreach" / "train.py").read_text()
    resumed = train.replace(
        '    model = Net(["conv", "skip", "conv"])\n',
        '    model = Net(["conv", "skip", "conv"])\n    model.load_weights("darknet.weights")\n',
    )
    review = _variant(tmp_path, "deadreach", {"train.py": resumed})
    (item,) = [i for i in review.work if i.kind == "checkpoint"]
    assert item.what == "weights read as arrays into the parameters: Net.load_weights"


def test_a_training_branch_counts_for_nothing_where_nothing_trains(infer, tmp_path) -> None:
    assert infer.inference_only
    # INVALID: the draw read back and the slice it bounds, under ``if self.training:``
    assert infer.dynamic_shape == ()
    assert infer.effort.dynamic_shape_rewrites == 0
    # VALID: the same branch in a repository that trains is work
    trains = (
        "import torch\n\nfrom model import Encoder\n\n\n"
        "def main():\n    model = Encoder()\n"
        "    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "    loss = model(torch.randn(4, 8)).mean()\n"
        "    loss.backward()\n    optimizer.step()\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    review = _variant(tmp_path, "inferbranch", {"train.py": trains})
    assert not review.inference_only
    assert [(w.line, rule) for w, rule, _, _ in review.dynamic_shape] == [
        (14, "DS118"),
        (15, "DS109"),
    ]


def test_a_cast_to_another_tensor_is_a_rewrite_apart_from_device_moves(infer) -> None:
    moves = [
        (g.disposition, [w.line for w in g.where], g.suggestion)
        for g in infer.gaps
        if g.api == "torch.Tensor.to"
    ]
    assert [(d, lines) for d, lines, _ in moves] == [("delete", [18]), ("rewrite", [19])]
    assert "self.cache.to(x.dtype)" in moves[1][2]
