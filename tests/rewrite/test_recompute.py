"""Gradient checkpointing gets MindSpore's way, recomputation (``mindspore.nn.Cell.recompute``,
the tables' counterpart of ``torch.utils.checkpoint.checkpoint``: r2.6.0
pytorch_api_mapping.md:518), whether the repository calls torch's or writes it by hand as an
autograd Function; a Function whose backward is a formula stays a custom gradient to port,
as MindSpore's idiom for one (a Cell with ``bprop``), not a gap."""

from __future__ import annotations

from scan_helpers import REPO_ROOT

from apiscan.pipeline import ScanOptions, scan
from apiscan.review.build import review

FIXTURE = REPO_ROOT / "fixtures" / "recompute"


def _options() -> ScanOptions:
    return ScanOptions(str(FIXTURE), cache_dir=None, jobs=1)


def test_checkpointing_is_recomputation_in_both_spellings() -> None:
    findings = {
        (f.function, f.api): f for f in scan(_options()).api_findings if f.path == "blocks.py"
    }
    # VALID: the hand-written checkpoint is the recompute idiom, not a gap
    hand = findings[("Recompute", "torch.autograd.Function")]
    assert hand.disposition == "idiom"
    assert "mindspore.nn.Cell.recompute" in hand.rewrite_note
    assert hand.rewrite_source.endswith("pytorch_diff/checkpoint.html")
    # VALID: torch's checkpoint, the column and the idiom naming the same API
    torch_cp = findings[("Net.forward", "torch.utils.checkpoint.checkpoint")]
    assert torch_cp.mindspore_api == "mindspore.nn.Cell.recompute"
    assert "mindspore.nn.Cell.recompute" in torch_cp.rewrite_note
    # INVALID: a backward by formula is no checkpoint: it is the custom-backward idiom (a
    # Cell with bprop), work to write but no gap, and no recomputation advice
    formula = findings[("ClampGrad", "torch.autograd.Function")]
    assert formula.disposition == "idiom" and "recompute" not in formula.rewrite_note
    assert "bprop(self, *inputs, out, dout)" in formula.rewrite_note
    assert formula.rewrite_source.endswith("custom_cell_reverse.html")


def test_the_review_lists_the_checkpoint_with_its_advice() -> None:
    extensions = {what: where for what, where in review(_options()).extensions}
    advised = [w for w in extensions if w.startswith("torch.autograd.Function subclass Recompute")]
    assert len(advised) == 1 and "mindspore.nn.Cell.recompute" in advised[0]
    # the custom gradient is listed as it was, with no recomputation advice
    assert "torch.autograd.Function subclass ClampGrad" in extensions
