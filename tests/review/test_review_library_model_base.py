"""A repository whose model classes extend a model library's pretrained-model base (BLIP's
``BertModel`` and ``BertLMHeadModel`` on transformers' ``PreTrainedModel``) and call the
machinery it brings (``from_pretrained``, ``init_weights``, ``generate`` for captions): that
machinery is the library's code, one work item the effort prices; a method a subclass
writes itself (``get_extended_attention_mask``) is the repository's. A repository of plain
``nn.Module`` classes has no such item (INVALID)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo
from test_review_inherited_builder import FILES

from apiscan.review.build import build_review

ENCODER = """
    from torch import nn
    from transformers import PreTrainedModel


    class BasePreTrained(PreTrainedModel):
        def _init_weights(self, module):
            module.weight.data.normal_(mean=0.0, std=0.02)


    class Encoder(BasePreTrained):
        def __init__(self, config):
            super().__init__(config)
            self.proj = nn.Linear(4, 4)
            self.init_weights()

        def get_extended_attention_mask(self, mask):
            return mask[:, None, None, :]

        def forward(self, x):
            return self.proj(x)


    class Decoder(BasePreTrained):
        def __init__(self, config):
            super().__init__(config)
            self.head = nn.Linear(4, 2)

        def forward(self, x):
            return self.head(x)
"""

CAPTION = """
    import torch

    from model import Captioner


    def caption(model):
        return model.text_decoder.generate(input_ids=torch.zeros(1, 1), num_beams=3)
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory):  # type: ignore[no-untyped-def]
    files = {**FILES, "encoder.py": ENCODER, "caption.py": CAPTION}
    return build_review(str(write_repo(tmp_path_factory.mktemp("librarybase"), files)))


def test_the_library_base_and_its_machinery_called_are_one_item(review) -> None:  # type: ignore[no-untyped-def]
    (item,) = [w for w in review.work if w.kind == "framework-network"]
    assert item.what == (
        "transformers model base classes extended: transformers.PreTrainedModel; their "
        "methods the code calls: from_pretrained, generate, init_weights"
    )
    assert str(item.where[0]) == "encoder.py:5"
    assert item.uses == 1
    assert "1 framework-network × 2–4" in review.effort.formula


def test_plain_module_classes_have_no_library_base_item(tmp_path: Path) -> None:
    files = {
        **FILES,
        "encoder.py": ENCODER.replace("from transformers import PreTrainedModel", "").replace(
            "(PreTrainedModel)", "(nn.Module)"
        ),
    }
    review = build_review(str(write_repo(tmp_path, files)))
    assert not [w for w in review.work if w.kind == "framework-network"]
