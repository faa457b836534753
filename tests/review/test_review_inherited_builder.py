"""A model whose constructor builds a part of the repository's own through a class-level
builder the class inherits from another package's base (BLIP's ``self.text_encoder =
BertModel.from_pretrained('bert-base-uncased', config=...)``, ``BertModel`` defined in the
repository on transformers' ``PreTrainedModel``): the part is that class, shown in the
model tree by its attribute, and a child of the model in the class table. A name that is no
class builder (``Encoder.register_for_auto_class()``) builds nothing."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "encoder.py": """
        from torch import nn
        from transformers import PreTrainedModel


        class Encoder(PreTrainedModel):
            def __init__(self, config):
                super().__init__(config)
                self.proj = nn.Linear(4, 4)

            def forward(self, x):
                return self.proj(x)


        class Decoder(PreTrainedModel):
            def __init__(self, config):
                super().__init__(config)
                self.head = nn.Linear(4, 2)

            def forward(self, x):
                return self.head(x)
    """,
    "model.py": """
        from torch import nn

        from encoder import Decoder, Encoder


        class Captioner(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.vision = nn.Linear(8, 4)
                self.text_encoder = Encoder.from_pretrained('bert-base-uncased', config=config)
                self.text_decoder = Decoder.from_pretrained('bert-base-uncased', config=config)
                self.helper = Encoder.register_for_auto_class()

            def forward(self, x):
                return self.text_decoder(self.text_encoder(self.vision(x)))
    """,
    "train.py": """
        import torch

        from model import Captioner


        def main():
            model = Captioner(None)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
            loss = model(torch.zeros(2, 8)).sum()
            loss.backward()
            optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("inheritedbuilder"), FILES)))


def test_parts_built_by_an_inherited_class_builder_are_in_the_tree(review) -> None:  # type: ignore[no-untyped-def]
    (top,) = [m for m in review.top_models if m.cls.endswith("Captioner")]
    parts = dict(top.parts)
    assert parts.get("text_encoder") == "Encoder"
    assert parts.get("text_decoder") == "Decoder"
    # INVALID: a class-level call that is no builder builds no part
    assert "helper" not in parts
