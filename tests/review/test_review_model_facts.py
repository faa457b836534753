"""The model tree reads the records the scan's workers made (apiscan.extract.models), never
the files: the records of small inputs, and a tree built with parsing and reading refused."""

from __future__ import annotations

import ast
import os
import pickle
import shutil
from pathlib import Path

import pytest

from apiscan.extract.models import Expr, ModelFacts, model_facts
from apiscan.review import structure
from apiscan.review.build import build_review

REPO = Path(__file__).resolve().parents[2]


def _facts(text: str) -> ModelFacts:
    return model_facts(ast.parse(text), text)


def _call(facts: ModelFacts, text: str) -> Expr:
    return next(
        facts.exprs[ref] for ref, _ in facts.calls if facts.exprs[ref].text.startswith(text)
    )


def test_a_construction_records_its_callee_arguments_keywords_and_def() -> None:
    facts = _facts(
        "import models\n"
        "from .parts import Head, make_trunk\n"
        "def create(cfg):\n"
        "    trunk = make_trunk(cfg)\n"
        "    x = trunk.view(2)\n"
        "    return models.Net(trunk, head=Head(cfg.dim), **extra)\n"
    )
    (create,) = facts.functions
    assert (create.qualname, create.name, create.line) == ("create", "create", 3)
    assert not create.method
    net = _call(facts, "models.Net(")
    assert net.kind == "call" and net.line == 6 and net.keywords == ("head", None)
    func, trunk, head, extra = (facts.exprs[r] for r in net.refs)
    assert (func.kind, func.value, func.text) == ("attr", "Net", "models.Net")
    assert (facts.exprs[func.refs[0]].kind, facts.exprs[func.refs[0]].value) == ("name", "models")
    assert (trunk.kind, trunk.value, trunk.line, trunk.text) == ("name", "trunk", 6, "")
    assert (head.kind, head.text) == ("call", "Head(cfg.dim)")
    assert extra.kind == "name"
    # the calls whose callee the review can name (imported, or the module's own), with the
    # def around each: a method of a local (trunk.view) never builds a module
    assert {facts.exprs[r].text: fid for r, fid in facts.calls} == {
        "make_trunk(cfg)": 0,
        "models.Net(trunk, head=Head(cfg.dim), **extra)": 0,
        "Head(cfg.dim)": 0,
    }
    trunk_assign, x_assign = facts.assigns
    assert (trunk_assign.names, trunk_assign.single, trunk_assign.line) == (("trunk",), True, 4)
    assert trunk_assign.functions == (0,) and not trunk_assign.module
    assert facts.exprs[trunk_assign.value].text == "make_trunk(cfg)"
    assert x_assign.value == -1  # nothing the follower reads
    ((returned, fids),) = facts.returns
    assert facts.exprs[returned] is net and fids == (0,)


def test_a_part_keeps_every_call_a_builder_handed_in_at_run_time_included() -> None:
    facts = _facts(
        "class Net(Base):\n"
        "    def __init__(self, cfg):\n"
        "        self.backbone = cfg.build_backbone(cfg, shape=Shape(3))\n"
        "        self.x = cfg.build_head(cfg)\n"
    )
    assert facts.calls == ()  # no callee the file imports or defines
    (backbone, fids), (head, _) = ((facts.exprs[v], fids) for _, v, fids in facts.self_parts)
    assert fids == (0,) and head.text == "cfg.build_head(cfg)"
    assert (backbone.kind, backbone.text) == ("call", "cfg.build_backbone(cfg, shape=Shape(3))")
    assert facts.exprs[backbone.refs[0]].text == "cfg.build_backbone"
    assert facts.exprs[backbone.refs[-1]].kind == "call"  # Shape(3), kept inside the part


def test_constructor_parameters_methods_annotations_and_self_parts() -> None:
    facts = _facts(
        "class Net(Base):\n"
        "    def __init__(self, backbone, head=None):\n"
        "        self.blocks = ModuleList([Block(i) for i in range(3)])\n"
        "    def forward(self, *xs) -> Out:\n"
        "        return xs\n"
    )
    init, forward = sorted(facts.functions, key=lambda f: f.line)
    assert (init.qualname, init.method, init.params) == ("Net.__init__", True, ("backbone", "head"))
    assert forward.params is None  # *args: positions unknown
    assert facts.exprs[forward.annotation].value == "Out"
    defs = dict(facts.defs)
    assert defs["Net"] == -1 and facts.functions[defs["Net.forward"]] is forward
    ((attr, value, fids),) = facts.self_parts
    assert attr == "blocks" and fids == (facts.functions.index(init),)
    blocks = facts.exprs[value]
    (listed,) = (facts.exprs[r] for r in blocks.refs[1:])
    # a comprehension is kept as the calls inside it
    assert listed.kind == "other"
    assert sorted(facts.exprs[r].text for r in listed.inner) == ["Block(i)", "range(3)"]


def test_registries_options_config_aliases_and_relative_imports() -> None:
    facts = _facts(
        "from ..reg import REG\n"
        "from . import heads as H\n"
        "MODELS = Registry('m')\n"
        "small = big\n"
        "_C.MODEL.NAME = 'Det'\n"
        "@REG.register()\n"
        "class Det: pass\n"
        "@register_model\n"
        "def big(): pass\n"
        "@register_model_architecture('transformer', 'tiny')\n"
        "def tiny(args): pass\n"
        "def main():\n"
        "    p.add_argument('--model', default='big')\n"
        "    p.add_argument('-a', '--arch-name', dest='arch', default=3)\n"
    )
    assert facts.relative_imports == ((2, "reg", (("REG", ""),)), (1, "", (("heads", "H"),)))
    assert facts.globals == ("MODELS", "small")
    assert facts.aliases == (("MODELS", ""), ("small", "big"))
    assert facts.config == (("MODEL.NAME", "Det", 5),)
    assert dict((q, d) for q, _, d in facts.decorated) == {
        "Det": (("", ("REG",), "Det"),),
        "big": (("", ("register_model",), "big"),),
        "tiny": (("transformer", (), "tiny"),),  # the architecture's own name
    }
    assert facts.options == (("model", "big", 13), ("arch", None, 14))


def test_branches_are_linked_to_the_statements_around_them() -> None:
    facts = _facts(
        "def f(task):\n    if task:\n        m = A()\n    else:\n        m = B()\n    return m\n"
    )
    first, second = facts.assigns
    stmt1, is_def1, body1, up1 = facts.links[first.link]
    stmt2, _, body2, up2 = facts.links[second.link]
    assert stmt1 == stmt2 and not is_def1 and body1 and not body2 and up1 == up2
    assert facts.links[up1][1]  # the def around the if
    ((returned, _),) = facts.returns
    assert facts.links[facts.exprs[returned].link] == facts.links[up1]


def test_records_pickle_and_hold_no_syntax_nodes() -> None:
    facts = _facts("import a\nclass M(a.B):\n    def __init__(self):\n        self.x = a.C(1)\n")
    again = pickle.loads(pickle.dumps(facts))
    assert again == facts
    seen = []

    def walk(value: object) -> None:
        assert not isinstance(value, ast.AST)
        if isinstance(value, tuple):
            for v in value:
                walk(v)
        elif hasattr(value, "__slots__"):
            for name in value.__slots__:  # type: ignore[attr-defined]
                walk(getattr(value, name))
        seen.append(value)

    walk(facts)
    assert seen


def _refused(*args: object, **kwargs: object) -> object:
    raise AssertionError("the model tree parsed or read a file again")


@pytest.mark.parametrize(
    "fixture", ["zoonet", "setpred", "ownbackbone", "promptseg", "injecttree", "blockpick"]
)
def test_the_model_tree_reads_records_never_the_files(
    fixture: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review of a copy first (what it hands the model tree is kept); then, with the
    copy deleted and parsing and reading refused, the model tree is built again from what
    the scan recorded, and is the one the review gave."""
    shutil.copytree(REPO / "fixtures" / fixture, tmp_path / fixture)
    seen: list[tuple[object, ...]] = []
    real = structure.top_models

    def kept(*args: object, **kwargs: object) -> object:
        tops = real(*args, **kwargs)  # type: ignore[arg-type]
        seen.append((*args, tops))
        return tops

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with monkeypatch.context() as spied:
            spied.setattr(structure, "top_models", kept)
            build_review(fixture, jobs=1)
    finally:
        os.chdir(cwd)
    ((analyses, modules, skip, hierarchy, root, readings, _, unchosen, _, _, _, _, expected),) = (
        seen
    )
    assert expected  # each fixture has a top model
    shutil.rmtree(tmp_path / fixture)
    import apiscan.parsing
    import apiscan.source

    with monkeypatch.context() as refused:
        refused.setattr(ast, "parse", _refused)
        refused.setattr(apiscan.parsing, "parse_python", _refused)
        refused.setattr(apiscan.source, "read_source_file", _refused)
        try:
            tops = real(analyses, modules, skip, hierarchy, root, readings, None, unchosen)  # type: ignore[arg-type]
        except AssertionError as error:
            failed: AssertionError | None = error
        else:
            failed = None
    assert failed is None, failed
    assert tops == expected


def test_the_records_come_back_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review after a scan re-analyses nothing: the model records are cached with the
    rest of the file's facts and come back equal, never recorded again."""
    import apiscan.extract.models
    from apiscan.pipeline import ScanOptions, scan_with_facts

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        options = ScanOptions("fixtures/zoonet", cache_dir=tmp_path / "cache", jobs=1)
        _, cold = scan_with_facts(options)
        monkeypatch.setattr(apiscan.extract.models, "model_facts", _refused)
        _, warm = scan_with_facts(options)
    finally:
        os.chdir(cwd)
    records = {fa.path: fa.syntax.models for fa in cold if fa.syntax is not None}
    assert None not in records.values()
    assert any(m.calls for m in records.values() if m is not None)
    assert {fa.path: fa.syntax.models for fa in warm if fa.syntax is not None} == records


def test_a_name_reads_the_assignment_of_its_own_branch(tmp_path: Path) -> None:
    """``model = Train(model)`` under ``if task == "train"`` is not what the ``elif``
    branch's ``Predict(model)`` reads: the branches recorded around each assignment and use
    tell them apart."""
    layer = "        self.l = nn.Linear(2, 2)\n"
    (tmp_path / "model.py").write_text(
        "from torch import nn\n\n"
        + "".join(
            f"class {name}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            + layer
            + "\n"
            for name in ("Backbone", "Head")
        )
        + "class Net(nn.Module):\n"
        "    def __init__(self, backbone, head):\n"
        "        super().__init__()\n"
        "        self.backbone, self.head = backbone, head\n\n"
        "class Train(nn.Module):\n"
        "    def __init__(self, model):\n"
        "        super().__init__()\n"
        "        self.model = model\n\n"
        "class Predict(Train):\n"
        "    pass\n"
    )
    (tmp_path / "run.py").write_text(
        "from model import Backbone, Head, Net, Predict, Train\n\n"
        "def main(task):\n"
        "    model = Net(Backbone(), Head())\n"
        "    if task == 'train':\n"
        "        model = Train(model)\n"
        "    elif task == 'predict':\n"
        "        model = Predict(model)\n"
        "    return model\n"
    )
    review = build_review(str(tmp_path), jobs=1)
    tops = {m.cls: m for m in review.top_models}
    assert tops["model.Predict"].parts == (("model", "Net (model)"),)  # the inherited name
    assert tops["model.Train"].parts == (("model", "Net (model)"),)
    assert tops["model.Net"].parts == (("backbone", "Backbone"), ("head", "Head"))
    assert str(tops["model.Predict"].where) == "run.py:8"
