"""The value records the worker writes for the review's recipe (apiscan.extract.values)."""

from __future__ import annotations

import ast
import pickle
from dataclasses import replace

from apiscan.extract.syntax import syntax_facts
from apiscan.extract.values import Expr, file_values, is_numeric, literal_value

CODE = """\
import argparse
from .ops import *
from ..data import transforms as T

LR = 0.01 / 64.0
_C.SOLVER.BASE_LR = 0.1
if __name__ == "__main__":
    MAIN = 1


def schedule(base, epochs=90, *rest, warm: int = 5):
    lr = base * 2
    for it, (a, b) in enumerate(range(epochs)):
        lr = lr[it]
    return lr


class Trainer(Base):
    momentum: float = field(default=0.9)

    def __init__(self, lr=1e-3):
        self.lr = lr
        if lr:
            self.decay = (0.9, 0.999)

    @staticmethod
    def build(x):
        return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-b", "--batch-size", default=64, type=int)
    args = parser.parse_args()
    opt = SGD(model.parameters(), lr=args.lr, **extra)
    déjà = f(x)
"""


def _facts():
    return file_values(ast.parse(CODE), CODE)


def test_defs_params_and_scopes() -> None:
    values = _facts()
    quals = [d.qual for d in values.defs]
    # def_names' order: a scope's defs together, in source order
    assert quals == ["schedule", "Trainer", "main", "Trainer.__init__", "Trainer.build"]
    by = {d.qual: d for d in values.defs}
    sched = by["schedule"]
    assert [(p, d.text if d else None) for p, d in sched.params] == [
        ("base", None),
        ("epochs", "90"),
        ("warm", "5"),
    ]
    assert sched.positional == ("base", "epochs") and sched.vararg and not sched.static
    assert sched.function == quals.index("schedule") and sched.owner == -1
    # own-body assignments, loop names and returns
    assert sorted((a.target.text, a.value.text, a.line) for a in sched.assigns) == [
        ("lr", "base * 2", 12),
        ("lr", "lr[it]", 14),
    ]
    assert sched.loop_names == ("it", "a", "b")
    assert [r.text for r in sched.returns] == ["lr"]
    init = by["Trainer.__init__"]
    assert init.owner == quals.index("Trainer")
    assert sorted((a.target.text, a.top) for a in init.assigns) == [
        ("self.decay", False),
        ("self.lr", True),
    ]
    assert by["Trainer.build"].static
    cls = by["Trainer"]
    assert cls.is_class and cls.function == -1
    (field_set,) = cls.assigns
    assert field_set.annotated and field_set.value.callee() == "field"
    assert field_set.value.keywords[0].name == "default"
    assert field_set.value.keywords[0].target.value == 0.9


def test_module_assigns_calls_and_imports() -> None:
    values = _facts()
    top = sorted((a.target.text, a.value.text, a.value.literal) for a in values.assigns if a.top)
    assert top == [("LR", "0.01 / 64.0", True), ("_C.SOLVER.BASE_LR", "0.1", True)]
    assert [a.target.text for a in values.assigns if not a.top] == ["MAIN"]
    assert values.star_imports == ((1, "ops"),)
    assert values.relative_imports == (("T", 2, "data", "transforms"),)
    by_callee = {c.expr.callee(): c for c in values.calls}
    add = by_callee["add_argument"].expr
    assert [a.value for a in add.args] == ["-b", "--batch-size"]
    assert [(k.name, k.target.text) for k in add.keywords] == [("default", "64"), ("type", "int")]
    sgd = by_callee["SGD"]
    assert sgd.function == [d.qual for d in values.defs].index("main")
    assert [k.name for k in sgd.expr.keywords] == ["lr", ""]  # "" is **extra
    lr = sgd.expr.keywords[0].target
    assert (lr.kind, lr.name, lr.target.kind, lr.target.name) == ("Attribute", "lr", "Name", "args")
    assert lr.chain() == ["args", "lr"]
    # the end column counts characters, as the scan's findings do (déjà is not ASCII)
    f_call = by_callee["f"]
    line = CODE.split("\n")[f_call.expr.line - 1]
    assert f_call.end_char == line.index("f(x)") + len("f(x)") + 1
    assert f_call.expr.end_col == len(line.encode())


def test_expressions_walk_as_ast_does() -> None:
    code = "x = a.b(c, k=d[e]) + {'k': 1, **m}\n"
    tree = ast.parse(code)
    (assign,) = file_values(tree, code).assigns
    walked = [(n.kind, n.name) for n in assign.value.walk()]
    expected = [
        (type(n).__name__, getattr(n, "id", None) or getattr(n, "attr", None) or "")
        for n in ast.walk(tree.body[0].value)
        if isinstance(n, ast.expr | ast.keyword)
    ]
    assert [k for k, _ in walked] == [k for k, _ in expected]
    dict_expr = assign.value.parts[1]
    assert dict_expr.keys == ("k", None) and [v.text for v in dict_expr.items] == ["1", "m"]
    assert assign.value.name == "Add" and not assign.value.literal


def test_long_text_is_cut_but_kept_whole() -> None:
    long = " + ".join(f"v{i}" for i in range(60))
    code = f"x = {long}\n"
    (assign,) = file_values(ast.parse(code), code).assigns
    assert len(assign.value.text) == 100 and assign.value.text.endswith("…")
    assert assign.value.full() == long and assign.value.shown(None) == long


def test_records_pickle_and_reach_the_syntax_facts() -> None:
    facts = syntax_facts(ast.parse(CODE), CODE)
    assert facts.values is not None and facts.models is facts.values.models
    assert replace(facts.values, models=None) == _facts()
    again = pickle.loads(pickle.dumps(facts))
    assert again == facts and isinstance(again.values.calls[0].expr, Expr)


def test_model_records_index_the_same_expressions() -> None:
    """One expression table: the model tree's entries hold the value records' expressions
    (recorded once, shared through the cache), not texts of their own."""
    for facts in (
        syntax_facts(ast.parse(CODE), CODE),
        pickle.loads(pickle.dumps(syntax_facts(ast.parse(CODE), CODE))),
    ):
        assert facts.values is not None and facts.models is not None
        calls = {(c.expr.line, c.expr.col): c.expr for c in facts.values.calls}
        shared = [
            e for e in facts.models.exprs if e.kind == "call" and calls.get((e.line, e.node.col))
        ]
        assert shared and all(calls[(e.line, e.node.col)] is e.node for e in shared)
        made = next(e for e in shared if e.node.callee() == "ArgumentParser")
        assert made.text == "argparse.ArgumentParser()" and made.value is None
        callee = facts.models.exprs[made.refs[0]]
        assert callee.node is made.node.func and callee.value == "ArgumentParser"


LOOPS = """\
import torch


class Ema:
    @torch.no_grad()
    def update(self, model, it):
        d = self.decay
        for ema_v, model_v in zip(self.ema.state_dict().values(), model.state_dict().values()):
            ema_v *= d
            ema_v += (1 - d) * model_v
        for p in model.parameters():
            p.mul_(d).add_(p)


def train(loader, optimizer, accum):
    lr = 0.1 * 0.5 ** (epoch // 20)
    if lr < 1e-5:
        lr = 1e-5
    for i, batch in enumerate(loader):
        loss.backward()
        if (i + 1) % accum == 0:
            optimizer.step()
            t = [T.Resize(8)]
"""


def test_loops_record_their_updates_and_contexts() -> None:
    values = file_values(ast.parse(LOOPS), LOOPS)
    # ast.walk's order: breadth first, so train's loop (less deep) comes first
    third, first, second = values.loops
    assert first.iter.full().startswith("zip(self.ema.state_dict()")
    assert first.names == ("ema_v", "model_v") and first.contexts == ("torch.no_grad()",)
    assert [(u.op, u.statement, u.line) for u in first.updates if u.op] == [
        ("Mult", "ema_v *= d", 9),
        ("Add", "ema_v += (1 - d) * model_v", 10),
    ]
    # an augmented assignment keeps its right-hand side (a hand-written schedule's step)
    assert [u.value.text for u in first.updates if u.op] == ["d", "(1 - d) * model_v"]
    assert all(u.value is None for u in second.updates)  # a call has none
    # calls: each with the statement holding it, in the body's breadth-first order
    assert [(u.node.text, u.statement) for u in second.updates] == [
        ("p.mul_(d).add_(p)", "p.mul_(d).add_(p)"),
        ("p.mul_(d)", "p.mul_(d).add_(p)"),
    ]
    assert third.contexts == () and third.names == ("i", "batch")
    assert values.defs[third.function].qual == "train"


def test_calls_know_their_ifs_statement_and_order() -> None:
    values = file_values(ast.parse(LOOPS), LOOPS)
    by = {c.expr.callee(): c for c in values.calls}
    step = by["step"]
    (guard,) = step.ifs
    assert guard.test.text == "(i + 1) % accum == 0" and guard.line == 21
    assert values.defs[guard.function].qual == "train" and step.when is guard.test
    assert step.statement and step.stored is None and step.scope == step.function
    assert by["backward"].ifs == () and by["backward"].own_order >= 0
    resize = by["Resize"]
    assert resize.assigned == ("t",) and resize.stored is None
    assert by["state_dict"].scope == [d.qual for d in values.defs].index("Ema.update")
    # an assignment followed by an ``if`` that assigns: its floor's test
    train = values.defs[[d.qual for d in values.defs].index("train")]
    (lr,) = [a for a in train.assigns if a.target.text == "lr" and a.top]
    assert lr.guard is not None and lr.guard.text == "lr < 1e-5" and lr.guard.name == "Lt"


def test_chained_assignment_records_every_target() -> None:
    code = "net_w = net_h = 480\n\ndef f():\n    a = self.b = c = [0.5, -0.5]\n"
    values = file_values(ast.parse(code), code)
    assert [(a.target.text, a.value.text, a.line) for a in values.assigns] == [
        ("net_w", "480", 1),
        ("net_h", "480", 1),
    ]
    (fn,) = values.defs
    assert [a.target.text for a in fn.assigns] == ["a", "self.b", "c"]
    # one value, one order: the targets read the statement's
    assert len({(id(a.value), a.order) for a in fn.assigns}) == 1


def test_literal_values_and_numbers_have_one_reading() -> None:
    code = "x = (-1, 2.5, [3])\ny = 'a'\nz = (1, None)\nw = +True\nv = []\nu = 1 / 255\n"
    values = {a.target.name: a.value for a in file_values(ast.parse(code), code).assigns}
    assert literal_value(values["x"]) == (-1, 2.5, [3])
    assert is_numeric(literal_value(values["x"]))
    assert literal_value(values["y"]) == "a" and not is_numeric("a")
    assert literal_value(values["z"]) == (1, None) and not is_numeric((1, None))
    assert not is_numeric(literal_value(values["w"]))  # a bool is no number
    assert not is_numeric(literal_value(values["v"]))  # nor an empty list
    assert literal_value(values["u"]) is None  # an operation is not read
