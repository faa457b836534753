"""Text tokenized inside a network's forward (fixtures/textnet): a host step on every call,
strings in and token ids copied back, and a per-batch sequence length where the tokenizer
pads to the batch's longest text; beside the same tokenizer called in a dataset."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where


@cache
def textnet() -> Review:
    return review_fixture("fixtures/textnet")


def _trips() -> dict[str, object]:
    return {i.what: i for i in textnet().work if i.kind == "host-round-trip"}


def test_a_tokenizer_in_forward_is_a_host_round_trip() -> None:
    """VALID: ``self.tokenizer(caption, padding=True, return_tensors="pt")`` in
    ``Captioner.forward``: one item, with the per-batch length of ``padding=True``;
    INVALID: ``self.tokenizer.batch_decode(...)`` there (no ``return_tensors``)."""
    item = _trips()["Captioner.forward: text tokenized in forward"]
    assert item.where == (Where("model.py", 45),)
    assert item.why.startswith("Captioner.forward tokenizes text every time the network runs")
    assert "into the data pipeline" in item.why
    assert "padding='longest' (model.py:45)" in item.why and "max_length" in item.why


def test_the_copy_that_feeds_the_tokenizer_says_both() -> None:
    """VALID: ``Tagger.forward`` reads tags off the device (``.cpu().numpy()``), joins them
    into text tokenized with ``padding="max_length"`` and tokenizes the caption with
    ``padding="longest"``: one item for the function, only the longest padding named."""
    trips = _trips()
    item = trips[
        "Tagger.forward: tensor copied to the host (cpu(), numpy()), text tokenized in forward"
    ]
    assert item.where == (Where("model.py", 25), Where("model.py", 27), Where("model.py", 30))
    assert item.why.startswith(
        "Tagger.forward copies a tensor to the host (cpu(), numpy() at model.py:25) and "
        "tokenizes text into token ids (model.py:27, model.py:30) every time the network runs"
    )
    assert "padding='longest' (model.py:30)" in item.why
    assert not any(w.startswith("Tagger.forward: text") for w in trips)


def test_a_tokenizer_in_the_data_pipeline_is_no_round_trip() -> None:
    """INVALID: ``Captions.__getitem__`` tokenizes with ``return_tensors`` in the loader."""
    assert not any(
        w.path == "data.py" for i in textnet().work for w in i.where if i.kind == "host-round-trip"
    )
    assert len(_trips()) == 2
