"""A sample sliced to a length drawn at random is an input pipeline of varying shapes (DS119),
on fixtures/randomclip: the slice's length (upper bound less lower, a step that the extent is
a multiple of cancelled) holds a random draw. Only the data pipeline's: a training loop doing
the same is not an input pipeline."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo

from apiscan.extract.shapes import RANDOM_LENGTH

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "randomclip"


def test_only_the_dataset_slice_of_a_random_length_is_a_pipeline() -> None:
    # VALID: ``frames[start : start + seq_len]`` with ``seq_len = np.random.randint(...)``
    # on one branch of an ``if`` (the configured length on the other)
    # in the helper __getitem__ calls; INVALID: ``frames[s : s + self.seq_len * rate : rate]``
    # (a random rate cancels out), ``frames[s : s + 16]`` (a random start, a fixed length),
    # ``clip[:, :n]`` with n random in the training loop (host code, not the data pipeline)
    result = scan_repo(FIXTURE)
    found = [
        (f.path, f.span.line, f.scope, f.function)
        for f in result.shape_findings
        if f.rule == "DS119"
    ]
    assert found == [("clipkit/data.py", 27, "data", "RandomLengthClips.helper")]
    (finding,) = [f for f in result.shape_findings if f.rule == "DS119"]
    assert RANDOM_LENGTH in finding.message
