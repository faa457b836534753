"""A part built by calling a conditional expression (``self.encoder = (FrozenEncoder if
frozen else Encoder)(dim)``, directly or through a local first): the module class it may
call is the model's part. The small repository under fixtures/eitherpart/ was written for
the case."""

from __future__ import annotations

from apiscan.review.build import build_review


def test_a_conditionally_called_class_is_the_model_s_part() -> None:
    review = build_review("fixtures/eitherpart", jobs=1)
    parts = {m.cls: dict(m.parts) for m in review.top_models}
    assert parts["model.Net"]["encoder"] == "Encoder"
    assert parts["model.GridNet"]["encoder"] == "Encoder"
    roles = {m.cls: m.role for m in review.modules}
    assert roles["model.Encoder"] == "block"
