"""An inference-only library used as its README shows (issue 20): ``model =
zoo.build_big(pretrained=True)`` in a fenced ``python`` block. Nothing in the repository
calls ``build_big``, yet it is how every user builds the model and loads the released
weights: reached and priced, not listed as code nothing reaches. A shell block, or an
example of a training repository, changes nothing."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.commands import documented_calls

LIBRARY = {
    "biglib/__init__.py": "",
    "biglib/embed.py": """
from biglib.zoo import Big


def embed(model: Big, x):
    return model(x)
""",
    "biglib/zoo.py": """
import torch
import torch.nn as nn


class Big(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 8)

    def forward(self, x):
        return nn.functional.normalize(self.proj(x), dim=-1)


def build_big(pretrained=False):
    model = Big()
    if pretrained:
        model.load_state_dict(torch.load("big.pth", map_location="cpu"))
    return model
""",
}

README = """# biglib

```shell
pip install -e .
```

```python
import torch
from biglib import zoo

model = zoo.build_big(pretrained=True)
with torch.no_grad():
    print(model(torch.randn(1, 16)))
```
"""


def _ported(review) -> str:  # type: ignore[no-untyped-def]
    (found,) = [s for s in review.effort.explanation if s.startswith("Everywhere ported")]
    return found


#: The builder's loading of the released weights, priced with the checkpoint work item.
PRICED = "and the checkpoint pattern, priced once by its work item"


def test_the_readme_example_reaches_the_builder(tmp_path: Path) -> None:
    root = write_repo(tmp_path, {**LIBRARY, "README.md": README})
    assert "build_big" in documented_calls(root)
    review = build_review(str(root))
    assert review.inference_only
    assert PRICED in _ported(review)
    (item,) = [w for w in review.work if w.kind == "checkpoint"]
    assert [(w.path, w.line) for w in item.where] == [("biglib/zoo.py", 17)]


def test_without_the_example_the_builder_is_not_reached(tmp_path: Path) -> None:
    shell_only = README.split("```python")[0]
    root = write_repo(tmp_path, {**LIBRARY, "README.md": shell_only})
    assert "build_big" not in documented_calls(root)
    assert PRICED not in _ported(build_review(str(root)))


def test_doctest_prompts_and_unparsable_blocks(tmp_path: Path) -> None:
    page = "```python\n>>> net = make_net(3)\n... \n```\n\n```\n$ run --fast\n```\n"
    (tmp_path / "README.md").write_text(page)
    assert documented_calls(tmp_path) == {"make_net"}


def test_fences_of_either_kind_indented_or_left_open(tmp_path: Path) -> None:
    from apiscan.review.commands import fenced_blocks

    page = (
        "1. Build it:\n\n   ```python\n   net = make_net(3)\n   ```\n\n"
        "~~~py\nrun_it(net)\n~~~\n\n"
        "```python\nleft_open(1)\n"
    )
    assert [tag for tag, _ in fenced_blocks(page)] == ["python", "py", "python"]
    (tmp_path / "README.md").write_text(page)
    assert documented_calls(tmp_path) == {"make_net", "run_it", "left_open"}
    # an opening line inside an open block is its text (only a bare fence closes it): a page
    # of many fences left open is one block, read in one pass
    blocks = list(fenced_blocks("```python\nx = 1\n" * 2000))
    assert len(blocks) == 1 and blocks[0][1].count("x = 1") == 2000
