"""String-keyed tables of layers (``_ACT = dict(relu=nn.ReLU, swish=Swish)`` read by
``get_act(name)``): a look-up picks the entry its key's value names, followed out to what
each call passes (a constant, a default, a class that is no key at all), so a layer only
the models a pick leaves out name by string is left out with them; a membership test, a
table gathered at module level and a module-level set of classes build nothing."""

from __future__ import annotations

import textwrap

import pytest
from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review.leftout import left_out

_LAYER = """

class {name}(nn.Module):
    def forward(self, x):
        return torch.special.erfinv(x) * torch.sigmoid(x)
"""

FILES = {
    "pkg/__init__.py": "",
    "pkg/layers/__init__.py": "from .create import create_act, get_act, get_norm\n",
    "pkg/layers/acts.py": "import torch\nfrom torch import nn\n"
    + _LAYER.format(name="Swish")
    + _LAYER.format(name="Mish")
    + _LAYER.format(name="Gate"),
    "pkg/layers/norms.py": "import torch\nfrom torch import nn\n"
    + _LAYER.format(name="EvoNorm")
    + _LAYER.format(name="PlainNorm"),
    "pkg/layers/create.py": """
        from torch import nn

        from .acts import Gate, Mish, Swish
        from .norms import EvoNorm, PlainNorm

        _ACT = dict(
            relu=nn.ReLU,
            swish=nn.SiLU if hasattr(nn, "SiLU") else Swish,
            mish=Mish,
            gate=Gate,
        )
        _ACT_FAST = dict(swish=Swish)
        _ACTS = (_ACT, _ACT_FAST)
        _NORM = {"batchnorm": nn.BatchNorm2d, "evonorm": EvoNorm, "plain": PlainNorm}
        _NORM_TYPES = {m for m in _NORM.values()}
        _NEEDS_ACT = {EvoNorm, PlainNorm}


        def get_act(name="relu"):
            if not isinstance(name, str):
                return name
            name = name.lower()
            if name in _ACT_FAST:
                return _ACT_FAST[name]
            return _ACT[name]


        def create_act(name, **kwargs):
            return get_act(name)(**kwargs)


        def get_norm(norm_layer):
            if isinstance(norm_layer, str):
                layer_name = norm_layer.replace("_", "").lower()
                return _NORM[layer_name]
            if norm_layer in _NEEDS_ACT:
                return norm_layer
            return norm_layer
    """,
    "pkg/models/__init__.py": "from .nets import big, small\n",
    "pkg/models/nets.py": """
        from torch import nn

        from pkg.layers import create_act, get_act, get_norm


        class Net(nn.Module):
            def __init__(self, act_layer=nn.ReLU, norm_layer="batch_norm"):
                super().__init__()
                self.norm = get_norm(norm_layer)(8)
                self.act = get_act(act_layer)()
                self.gate = create_act("relu")
                self.fc = nn.Linear(8, 2)

            def forward(self, x):
                return self.fc(self.gate(self.act(self.norm(x))))


        def small():
            return Net()


        def big():
            return Net(act_layer="swish", norm_layer="evonorm")


        def other():
            return Net(act_layer="mish")
    """,
}


def _left_out(root, files):  # type: ignore[no-untyped-def]
    """The spans left out when ``big`` and ``other`` are the models a pick leaves out."""
    write_repo(root, files)
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    hierarchy = Hierarchy(analyses, ClassTable(analyses, load_torch_api()))
    return left_out(analyses, hierarchy, ["pkg.models.nets.big", "pkg.models.nets.other"])


@pytest.fixture(scope="module")
def spans(tmp_path_factory):  # type: ignore[no-untyped-def]
    return _left_out(tmp_path_factory.mktemp("tables"), FILES)


def _out(spans, path: str, line_text: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether the line of ``path`` holding ``line_text`` is left out."""
    lines = textwrap.dedent(FILES[path]).lstrip("\n").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if line_text in text)
    return any(a <= line <= b for a, b in spans.get(path, ()))


def test_a_layer_only_a_left_out_model_names_by_string_is_left_out(spans) -> None:  # type: ignore[no-untyped-def]
    # VALID: "swish" (through the fast table too) and "mish" are passed only by big/other
    assert _out(spans, "pkg/layers/acts.py", "class Swish")
    assert _out(spans, "pkg/layers/acts.py", "class Mish")
    # "evonorm" is normalised by the look-up; only big passes it
    assert _out(spans, "pkg/layers/norms.py", "class EvoNorm")


def test_a_layer_the_running_model_names_by_default_stays(spans) -> None:  # type: ignore[no-untyped-def]
    # Net's default "batch_norm" is read as "batchnorm": nn.BatchNorm2d, no repository
    # class; no key the calls pass picks Gate or PlainNorm (a module-level set names
    # PlainNorm for membership tests only): nothing builds them either
    assert _out(spans, "pkg/layers/acts.py", "class Gate")
    assert _out(spans, "pkg/layers/norms.py", "class PlainNorm")
    # the look-up functions themselves stay: the running model calls them
    assert not _out(spans, "pkg/layers/create.py", "def get_act")
    assert not _out(spans, "pkg/layers/create.py", "def get_norm")


def test_a_constant_key_picks_its_entry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # INVALID: the running model asks for "gate" by a constant: Gate stays
    files = dict(FILES)
    files["pkg/models/nets.py"] = files["pkg/models/nets.py"].replace(
        'create_act("relu")', 'create_act("gate")'
    )
    found = _left_out(tmp_path, files)
    assert not _out(found, "pkg/layers/acts.py", "class Gate")
    assert _out(found, "pkg/layers/acts.py", "class Mish")


def test_a_key_nobody_can_tell_keeps_every_entry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # INVALID: a caller passing a name read from elsewhere may pick any entry
    files = dict(FILES)
    files["pkg/models/nets.py"] = files["pkg/models/nets.py"].replace(
        "def small():\n            return Net()",
        "def small(act):\n            return Net(act_layer=act)",
    )
    found = _left_out(tmp_path, files)
    assert not _out(found, "pkg/layers/acts.py", "class Mish")
    assert not _out(found, "pkg/layers/acts.py", "class Swish")
    # the norm is still picked by the default only
    assert _out(found, "pkg/layers/norms.py", "class EvoNorm")
