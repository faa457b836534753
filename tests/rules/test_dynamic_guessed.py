"""Value-dependent ops on receivers only guessed to be tensors.

A tensor kept in a repository container (a dict attribute read back through a getter) or
handed in as an untyped parameter has no known type, but ``.nonzero()`` / ``.unique()`` on it
is a Tensor method in a file that handles torch: the owner pass calls it a probable Tensor
method, and the rule fires there as it does on a known tensor. What keeps that precise is
knowing the receivers that are not tensors: numpy masks made by comparisons and ``&``/``~``,
pandas frames and their columns, and a ``np`` that arrives through a star import. Exactly the
lines marked ``# expect: DSxxx`` are reported; every quiet case has a twin that fires.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo, write_repo

CASES: dict[str, dict[str, str]] = {
    # A box container keeps per-box tensors in a dict attribute; a getter reads them back.
    # Nothing types the getter's result, yet nonzero/unique/masked_select of it are data.
    "container_field": {
        "boxes/structures.py": """
            import torch


            class BoxList:
                def __init__(self, bbox, size):
                    self.bbox = bbox
                    self.size = size
                    self.extra_fields = {}

                def add_field(self, field, data):
                    self.extra_fields[field] = data

                def get_field(self, field):
                    return self.extra_fields[field]

                def __getitem__(self, item):
                    out = BoxList(self.bbox[item], self.size)
                    for k, v in self.extra_fields.items():
                        out.add_field(k, v[item])
                    return out
        """,
        "boxes/sampler.py": """
            import torch


            def positives(boxlist):
                labels = boxlist.get_field("labels")
                pos = (labels > 0).nonzero().squeeze(1)  # expect: DS103
                classes = boxlist.get_field("labels").unique()  # expect: DS101
                scores = boxlist.get_field("scores").masked_select(labels > 0)  # expect: DS102
                return pos, classes, scores, torch.zeros(2)


            def per_image(boxlist, masks, pmask):
                images = boxlist.get_field("image_index")
                total = 0
                for bi in images.unique():  # expect: DS101, DS116
                    j = images == bi
                    total = total + (masks[bi] * pmask[j]).sum()  # expect: DS104
                return total


            def gather(boxlist, j):
                inds = (boxlist.get_field("labels") == j).nonzero().view(-1)  # expect: DS103
                return boxlist.bbox[inds, :].view(-1, 4)  # expect: DS111


            def select_polygons(polygons, item):
                if isinstance(item, torch.Tensor) and item.dtype == torch.bool:
                    item = item.nonzero()  # expect: DS103
                return [polygons[i] for i in item]  # expect: DS116
        """,
    },
    # numpy masks: a comparison, ``&`` and ``~`` of arrays are arrays, so their nonzero is
    # numpy's (here the arrays come from `.numpy()` of an untyped value and from OpenCV).
    # The twin compares the tensor itself.
    "numpy_comparisons": {
        "tokens.py": """
            import cv2
            import numpy as np
            import torch


            def eos_positions(tokens, eos):
                is_eos = tokens.numpy() == eos
                return is_eos.nonzero()


            def both(tokens, pad, eos):
                arr = tokens.numpy()
                keep = (arr != pad) & ~(arr == eos)
                return keep.nonzero()


            def components(image):
                count, labels = cv2.connectedComponents(image)
                fg = labels == 3
                return fg.nonzero(), count


            def eos_on_device(tokens: torch.Tensor, eos):
                return (tokens == eos).nonzero()  # expect: DS103
        """,
    },
    # pandas: a frame from a pandas call, its columns and their unique() are pandas', and a
    # frame built from a list too; ``unique`` of a tensor read from the same frame is data.
    # In a file that does not handle torch at all, an untyped frame's unique() is no guess.
    "pandas_unique": {
        "stats.py": """
            def speakers_of(df):
                return df["speaker"].unique()
        """,
        "manifest.py": """
            import pandas as pd
            import torch


            def image_ids(path):
                df = pd.read_csv(path)
                df = df[df["n_tokens"] >= 1]
                return sorted(df["ImageID"].unique())


            def speakers(rows):
                frame = pd.DataFrame(rows)
                return frame.speaker.unique()


            def label_set(path):
                df = pd.read_csv(path)
                labels = torch.as_tensor(df["label"].values)
                return labels.unique()  # expect: DS101
        """,
    },
    # ``np`` star-imported from a repository module is numpy: ``np.unique`` is numpy's.
    "star_imported_numpy": {
        "utils/general.py": """
            import numpy as np
            import torch


            def to_tensor(x):
                return torch.as_tensor(x)
        """,
        "utils/__init__.py": "",
        "data.py": """
            from utils.general import *


            def class_counts(labels):
                classes = np.unique(labels)
                return len(classes)


            def class_counts_on_device(labels: torch.Tensor):
                return torch.unique(labels)  # expect: DS101
        """,
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_guessed_receivers(tmp_path: Path, name: str) -> None:
    write_repo(tmp_path, CASES[name])
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=1)


def test_a_guessed_receiver_says_so(tmp_path: Path) -> None:
    """The finding on a guessed receiver tells the reader the receiver was guessed, and what
    is computed from its result stays a probable tensor (``.nonzero().squeeze(1)``)."""
    write_repo(tmp_path, CASES["container_field"])
    result = scan_repo(tmp_path)
    text = message_on_line(result, tmp_path, "boxes/sampler.py", "DS101", '"labels").unique()')
    assert "probably a tensor" in text
    derived = [
        f
        for f in result.api_findings
        if f.path == "boxes/sampler.py" and f.api in ("torch.Tensor.squeeze", "torch.Tensor.view")
    ]
    assert len(derived) == 3 and {f.confidence for f in derived} == {"probable"}
