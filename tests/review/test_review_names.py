"""The review's one index of literal values by name (``apiscan.review.names``): the work
items' "does this call really pass it" and the inference path's "what number is this" read
the same records, built once from the scan's value records."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import name_values

MODEL = """
    import argparse
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Net(nn.Module):
        size = 518

        def __init__(self, pixel_mean=(0.5, 0.5, 0.5), interpolate_antialias=False):
            super().__init__()
            self.interpolate_antialias = interpolate_antialias
            self.register_buffer("pixel_mean", torch.Tensor(pixel_mean))

        def forward(self, x):
            x = (x - self.pixel_mean) / 2
            return F.interpolate(x, size=self.size, antialias=self.interpolate_antialias)

    def build():
        parser = argparse.ArgumentParser()
        parser.add_argument("--low_text", default=0.4)
        return Net(interpolate_antialias=False)
"""


def test_one_index_answers_both_questions(tmp_path: Path) -> None:
    write_repo(tmp_path, {"net.py": MODEL})
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    names = name_values(analyses)
    # every place that gives the name a value agrees: the call passes False
    assert names.literal("self.interpolate_antialias") == "False"
    assert names.neutral("self.interpolate_antialias") == "False"
    # the buffer's constructor parameter, unpassed: its default, with where it is
    assert names.value("Net", "self.pixel_mean", "Net.forward") == (
        "(0.5, 0.5, 0.5) (default of pixel_mean at net.py:9)"
    )
    assert names.value("Net", "size", "Net.forward") == "518 (Net.size at net.py:7)"
    # an argparse default is what args.low_text holds
    assert names.value("", "args.low_text") == "0.4 (low_text at net.py:20)"


def test_an_attribute_stored_by_a_tuple_target_or_an_update_is_not_one_literal(
    tmp_path: Path,
) -> None:
    """A name is one literal only when every store of it is read: ``self.keep = 1`` alone
    holds ``1`` (VALID); a tuple target (``m.scale, m.flip = 2, True``) or an augmented
    assignment in another file stores a value the records do not keep, so the name holds no
    one literal (INVALID). The file's stored attributes are the scan's one list of them."""
    net = """
        class Net:
            def __init__(self):
                self.flip = False
                self.steps = 0
                self.keep = 1
    """
    tools = """
        def switch(m):
            m.scale, m.flip = 2, True
            m.steps += 1
    """
    write_repo(tmp_path, {"net.py": net, "tools.py": tools})
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    names = name_values(analyses)
    assert names.literal("self.keep") == "1"
    assert names.literal("self.flip") is None
    assert names.literal("self.steps") is None
