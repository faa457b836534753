"""PyTorch's deprecated aliases of an op MindSpore has (``F.upsample_bilinear`` is
``interpolate(mode='bilinear', align_corners=True)``, ``F.upsample_nearest`` is
``mode='nearest'``, ``F.upsample`` is ``interpolate`` itself) are substitutions rendered
with the mode they fix: never a tensor computation that may need a custom op."""

from __future__ import annotations

from apiscan.model import ApiFinding, CallArgs, Span
from apiscan.review.gaps import is_custom_op
from apiscan.rewrite import dispose


def _missing(api: str, args: CallArgs) -> ApiFinding:
    return ApiFinding(
        path="data.py",
        span=Span(1, 0, 1, 10),
        api=api,
        status="missing",
        mindspore_api=None,
        confidence="certain",
        note="",
        usage="call",
        namespace=api.rpartition(".")[0],
        scope="data",
        args=args,
    )


def test_upsample_bilinear_is_interpolate_with_its_fixed_mode() -> None:
    call = CallArgs(positional=("img.unsqueeze(0)",), keywords=(("scale_factor", "scale"),))
    found = dispose(_missing("torch.nn.functional.upsample_bilinear", call))
    assert found.disposition == "rewrite"
    assert not is_custom_op(found)
    assert found.rewrite == (
        "mindspore.mint.nn.functional.interpolate(img.unsqueeze(0), scale_factor=scale, "
        "mode='bilinear', align_corners=True)"
    )


def test_upsample_nearest_and_upsample_are_interpolate() -> None:
    nearest = dispose(
        _missing("torch.nn.functional.upsample_nearest", CallArgs(positional=("x", "(8, 8)")))
    )
    assert nearest.disposition == "rewrite"
    assert nearest.rewrite == (
        "mindspore.mint.nn.functional.interpolate(x, size=(8, 8), mode='nearest')"
    )
    plain = dispose(
        _missing(
            "torch.nn.functional.upsample",
            CallArgs(positional=("x",), keywords=(("scale_factor", "2"), ("mode", "'bilinear'"))),
        )
    )
    assert plain.disposition == "rewrite"
    assert not is_custom_op(plain)
    assert "interpolate(x, scale_factor=2, mode='bilinear')" in plain.rewrite
