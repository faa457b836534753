"""The effort's calibration, pinned: the component counts the review reported for twelve public
repositories, the range a migration lead gave each after reading it by hand, and the range
the rates and the learning curve now make of the counts.

A count is given as the sizes of its groups of like units (:data:`apiscan.review.effort.Units`):
the sites of each API, a kind's functions or work items together, every idiom pattern apart.
With the counts priced linearly, two of the ten missed their reader (a small training-only
repository at 7.6–15 against 4–7, a detector with nine dynamic-shape functions at 35.4–70.2
against 20–35) and the larger ones sat 1.4–1.8× above; these rows keep every range within 2×
and overlapping its reader's. A sparse masked autoencoder's six MinkowskiEngine op kinds,
priced as six custom ops, put it at 20.3–36.1 against 14–22: a library is one porting job, its
op kinds on a steep curve of their own. A depth model's SILog, gradient and scale-invariant
losses (a mean over the valid pixels each), priced as three dynamic-shape functions, and a hub
backbone in the branch a flag's default leaves out put it at 21.0–41.5 against 12–19. A checkpoint
beside a pretrained backbone is converted by the backbone's weights script
(``converted-checkpoint``, half a checkpoint's rate: yolov9, Depth-Anything). A change
of a rate or of the curve that moves a row out of its band shows here first.
"""

from __future__ import annotations

import re

import pytest

from apiscan.review.effort import CURVES, PLATEAU, RATES, REPEAT, Units, price, repeated

#: (repository read, component counts, the reader's range, the range priced from the counts)
READINGS: list[tuple[str, Units, tuple[float, float], tuple[float, float]]] = [
    (
        "facebookresearch/deit",
        {
            "delete": (30, 4, 3, 2, 2, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1),
            "rewrite": (6, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1),
            "rendered": (25, 12, 5, 5, 4, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            "backbone-architecture": (1,),
            "checkpoint": (1,),
            "unsupported-param": (1,),
        },
        (8, 15),
        (8.4, 16.7),
    ),
    (
        "isl-org/MiDaS",
        {
            "delete": (4, 4, 2, 2, 1, 1, 1, 1),
            "idiom": (1, 1, 1),
            "mechanical-idiom": (1, 1, 1),
            "rewrite": (13, 8, 3, 2, 2, 2, 2, 1),
            "rendered": (23, 17, 13, 4, 2, 2, 2, 1, 1),
            "backbone-architecture": (1,),
            "checkpoint": (1,),
        },
        (8, 15),
        (6.2, 12.1),
    ),
    (
        "jaywalnut310/vits",
        {
            "delete": (12, 9, 2, 2, 1),
            "idiom": (1, 1, 1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1, 1),
            "rewrite": (48, 14, 14, 12, 10, 7, 5, 5, 3, 2, 2, 2, 2, 1, 1, 1),
            "rendered": (37, 27, 24, 18, 6, 4, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            "dynamic-shape": (5,),
            "input-shape": (2,),
            "host-round-trip": (1,),
            "checkpoint": (1,),
            "compiled-op": (1,),
            "variant": (1,),
        },
        (20, 35),
        (24.0, 47.2),
    ),
    (
        "clovaai/deep-text-recognition-benchmark",
        {
            "delete": (15, 6, 5, 1, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1, 1),
            "rewrite": (7, 6, 6, 3, 2, 1, 1, 1, 1, 1, 1, 1),
            "rendered": (14, 12, 11, 8, 2, 2, 2, 2, 2, 2, 1, 1, 1),
            "checkpoint": (1,),
        },
        (8, 15),
        (7.2, 14.2),
    ),
    (
        "leoxiaobin/deep-high-resolution-net.pytorch",
        {
            "delete": (10, 5, 2, 1),
            "idiom": (1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1),
            "rewrite": (3, 2, 1, 1, 1, 1),
            "rendered": (23, 15, 11, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1),
            "checkpoint": (1,),
            "compiled-op": (2,),
        },
        (9, 15.5),
        (7.2, 14.4),
    ),
    (
        "rosinality/stylegan2-pytorch",
        {
            "delete": (6, 4, 3, 1, 1, 1, 1, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1),
            "rewrite": (3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1),
            "rendered": (
                19,
                17,
                10,
                9,
                8,
                6,
                4,
                4,
                3,
                3,
                2,
                2,
                2,
                2,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
            ),
            "gap": (1,),
            "dynamic-shape": (1,),
            "checkpoint": (1,),
            "unsupported-param": (1,),
            "compiled-custom-op": (2,),
            "second-order-grad": (1,),
        },
        (12, 19),
        (17.5, 33.1),
    ),
    (
        "hustvl/YOLOP",
        {
            "delete": (19, 10, 4, 2, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1),
            "rewrite": (4, 3, 2, 1, 1, 1, 1, 1),
            "rendered": (13, 13, 6, 6, 3, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1),
            "dynamic-shape": (3,),
            "host-round-trip": (1,),
            "checkpoint": (1,),
            "unsupported-param": (1,),
        },
        (14, 21),
        (12.6, 25.0),
    ),
    (
        "sthalles/SimCLR",
        {
            "delete": (5, 2, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1),
            "rewrite": (4, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1),
            "rendered": (2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            "dynamic-shape": (1,),
            "backbone-architecture": (1,),
        },
        (4, 7),
        (6.4, 12.7),
    ),
    (
        "WongKinYiu/yolov9",
        {
            "delete": (29, 9, 8, 7, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1),
            "rewrite": (27, 5, 4, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            "rendered": (
                38,
                32,
                27,
                11,
                8,
                7,
                7,
                6,
                5,
                5,
                4,
                3,
                3,
                3,
                3,
                3,
                3,
                3,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
            ),
            "gap": (1,),
            "dynamic-shape": (9,),
            "input-shape": (2,),
            "pretrained-backbone": (1,),
            "converted-checkpoint": (1,),
            "variant": (6,),
        },
        (20, 35),
        (26.6, 52.7),
    ),
    (
        "tianzhi0549/FCOS",
        {
            "delete": (14, 8, 3, 2, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1),
            "rewrite": (
                17,
                13,
                6,
                6,
                6,
                3,
                3,
                3,
                2,
                2,
                2,
                2,
                2,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
            ),
            "rendered": (
                24,
                19,
                18,
                16,
                15,
                13,
                11,
                10,
                10,
                9,
                9,
                7,
                5,
                5,
                5,
                4,
                3,
                3,
                3,
                3,
                2,
                2,
                2,
                2,
                2,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
            ),
            "gap": (1,),
            "dynamic-shape": (7,),
            "checkpoint": (2,),
            "compiled-op": (6,),
            "compiled-custom-op": (2,),
        },
        (30, 50),
        (30.6, 58.8),
    ),
    (
        "facebookresearch/ConvNeXt-V2",
        {
            "delete": (9, 5, 4, 2, 2, 1, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1),
            "rewrite": (3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1),
            "rendered": (11, 7, 7, 6, 5, 4, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            "zoo-layer": (1,),
            "checkpoint": (1,),
            "library-op": (6,),
        },
        (14, 22),
        (14.9, 27.1),
    ),
    (
        "LiheYoung/Depth-Anything",
        {
            "delete": (30, 16, 6, 4, 4, 3, 2, 2, 2, 2, 2, 1, 1, 1),
            "idiom": (1, 1, 1, 1, 1, 1),
            "mechanical-idiom": (1, 1, 1, 1, 1, 1, 1, 1),
            "rewrite": (12, 6, 6, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            "rendered": (
                24,
                14,
                12,
                10,
                7,
                5,
                5,
                5,
                4,
                3,
                2,
                2,
                2,
                2,
                2,
                2,
                2,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
            ),
            "gap": (1,),
            "dynamic-shape": (2,),
            "masked-reduction": (3,),
            "pretrained-backbone": (1,),
            "converted-checkpoint": (1,),
            "unsupported-param": (1,),
            "data-torch-op": (2,),
        },
        (12, 19),
        (17.0, 33.6),
    ),
]


@pytest.mark.parametrize(
    ("read", "units", "reader", "priced"), READINGS, ids=[r[0] for r in READINGS]
)
def test_the_counts_price_within_the_readers_range(
    read: str, units: Units, reader: tuple[float, float], priced: tuple[float, float]
) -> None:
    low, high, formula, driven = price(units)
    assert (low, high) == priced
    assert 0 < low <= high <= 2 * low
    # the range meets the reader's
    assert low <= reader[1] and high >= reader[0]
    assert formula.count(" + ") == len(units) - 1
    # three kinds named, and any that costs exactly what the third does (YOLOP's host round
    # trip beside its checkpoint, both up to 2)
    assert driven.count(" = ") == (4 if read == "hustvl/YOLOP" else 3)
    # the figures the formula shows multiply to the range: a reader can redo the sum
    terms = re.findall(r"(\d+) [a-z-]+(?: as ([\d.]+))? × ([\d.]+)–([\d.]+)", formula)
    assert len(terms) == len(units)
    for i, rate in ((0, 2), (1, 3)):
        total = sum(float(t[1] or t[0]) * float(t[rate]) for t in terms)
        assert round(total, 1) == (low, high)[i]


def test_the_learning_curve() -> None:
    assert REPEAT == 0.8
    assert repeated((1,)) == 1 and repeated((2,)) == pytest.approx(1.8)
    # each doubling at 0.8× the unit before: 1, 0.8, 0.70, 0.64 ... nine cost what 5.8 would
    assert repeated((4,)) == pytest.approx(1 + 0.8 + 3**-0.321928 + 0.64, abs=1e-4)
    assert round(repeated((9,)), 1) == 5.8
    # the curve levels off at half the first unit from the ninth on: a thousand sites of one
    # API still cost half a thousand
    assert repeated((9,)) - repeated((8,)) == PLATEAU == 0.5
    assert repeated((1000,)) == pytest.approx(repeated((8,)) + 992 * 0.5)
    # groups start again at the first unit: five idiom patterns are five units
    assert repeated((1, 1, 1, 1, 1)) == 5
    assert repeated((3, 1)) == repeated((3,)) + 1


def test_a_librarys_op_kinds_are_one_job_on_a_steep_curve() -> None:
    # the i-th op kind of one library at 1/i of the first, down to a fifth: six kinds cost
    # what 2.45 custom ops would, not six
    assert CURVES["library-op"] == (0.5, 0.2)
    assert RATES["library-op"] == RATES["compiled-custom-op"]
    assert repeated((1,), "library-op") == 1
    assert repeated((6,), "library-op") == pytest.approx(1 + 1 / 2 + 1 / 3 + 1 / 4 + 0.2 + 0.2)
    assert repeated((20,), "library-op") - repeated((19,), "library-op") == pytest.approx(0.2)
    # each library starts its own curve; another kind keeps the common one
    assert repeated((2, 1), "library-op") == 2.5
    assert repeated((6,), "compiled-custom-op") == repeated((6,)) > repeated((6,), "library-op")
    low, high, formula, driven = price({"library-op": (6,)}, {"library-op": "MinkowskiEngine"})
    assert (low, high) == (7.5, 12.5)
    assert formula == "6 library-op as 2.5 × 3–5"
    assert driven == "library-op of MinkowskiEngine (6 as 2.5 × up to 5 = 12.5)"
    # INVALID: priced as six custom ops, the same op kinds came to 12.9–21.5
    assert price({"compiled-custom-op": (6,)})[:2] == (12.9, 21.5)


def test_the_formula_shows_what_a_repeated_count_is_priced_as() -> None:
    low, high, formula, driven = price({"dynamic-shape": (9,), "idiom": (1, 1), "rewrite": (3, 1)})
    assert formula == (
        "9 dynamic-shape as 5.8 × 1.5–3 + 2 idiom × 0.5–1 + 4 rewrite as 3.5 × 0.08–0.15"
    )
    assert driven.startswith("dynamic-shape (9 as 5.8 × up to 3 = 17.4), idiom (2 × up to 1 = 2)")
    assert (low, high) == (10.0, 19.9)
    assert price({}) == (0, 0, "nothing to change", "")


def test_a_backbone_without_weights_is_priced_below_one_with_them() -> None:
    # the architecture alone (no weights to convert and compare) against architecture and
    # weights: the same at most 2× wide rates, half of them
    assert RATES["backbone-architecture"] == (0.5, 1.0)
    assert RATES["pretrained-backbone"] == (1.5, 3.0)
    assert all(high <= 2 * low for low, high in RATES.values())
