"""A network registered with a training framework that no option file names (a compact
variant) but that a ported inference script constructs itself (Real-ESRGAN's
``inference_realesrgan.py`` building ``SRVGGNetCompact`` for its released compact models):
that script runs it, so it is no alternative of the trained network; it is ported and
priced. A registered network nothing constructs stays an alternative (VALID beside it)."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo
from test_review_option_alternatives import FILES

from apiscan.review.build import build_review

INFERENCE = """
    import argparse

    import torch

    from srpkg.archs.net_arch import Compact


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_path", default="weights/compact.pth")
        args = parser.parse_args()
        model = Compact()
        model.load_state_dict(torch.load(args.model_path))
        print(model(torch.zeros(1, 3, 8, 8)).shape)


    if __name__ == "__main__":
        main()
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    files = {**FILES, "inference.py": INFERENCE}
    return build_review(str(write_repo(tmp_path_factory.mktemp("constructed"), files)))


def test_a_network_a_ported_script_constructs_is_no_alternative(review) -> None:  # type: ignore[no-untyped-def]
    top = review.top_models[0]
    assert top.cls.endswith("net_arch.Net")
    alternatives = dict(top.parts)["alternatives"]
    assert "Compact" not in alternatives
    assert "named by no option file" not in alternatives
    # VALID: the discriminator only another option file names stays one
    assert "Disc (network_d in 1 other option file)" in alternatives
    assert any(
        m.cls.endswith("net_arch.Compact") and m.builder == "main" for m in review.top_models
    )
    said = " ".join(review.effort.explanation)
    assert "srpkg/archs/net_arch.py:Compact" not in said
    assert "srpkg/archs/net_arch.py:Disc" in said
