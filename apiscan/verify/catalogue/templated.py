"""Micro-tests rendered from the rewrite templates (:mod:`apiscan.rewrite.substitutions`).

The MindSpore expression of each case is ``render(template, sample)``: the function that
renders a finding's rewrite in the reports, applied to a sample call form. So a passing case
is evidence for exactly the rewrite a user is shown, form by form (``form: varargs``,
``form: tuple``, ``form: default``...).
"""

from __future__ import annotations

from apiscan.model import CallArgs
from apiscan.rewrite.substitutions import RECIPES, Recipe, Sample
from apiscan.rewrite.template import render
from apiscan.verify.cases import Case


def torch_call(api: str, call: CallArgs, method: bool) -> str:
    """The PyTorch side of a sample: the call as code would write it."""
    parts = [*call.positional, *(f"{k}={v}" for k, v in call.keywords)]
    head = f"{call.receiver}.{api.rpartition('.')[2]}" if method else api
    return f"{head}({', '.join(parts)})"


def case_of(recipe: Recipe, sample: Sample) -> Case | None:
    """The micro-test of one sample form, or None when the template declines it."""
    template = recipe.template
    rendered = render(template, sample.call)
    if not rendered.exact:
        return None
    if template.format and not template.format.startswith("{recv}.") and template.method:
        torch_expr = torch_call(template.api, sample.call, True)
    else:
        torch_expr = torch_call(template.api, sample.call, template.method)
    if template.format and template.format.startswith("{recv}.shape"):
        torch_expr = torch_call(template.api, sample.call, True)
    return Case(
        template.api,
        sample.probe.format(torch_expr),
        sample.probe.format(rendered.text),
        recipe.strategy,  # type: ignore[arg-type]
        sample.inputs,
        pattern=f"form: {sample.label}",
        grad=recipe.grad,
        kind="layer" if recipe.kind == "layer" else "function",
        param_map=recipe.param_map,
        threshold=recipe.threshold,
        note=rendered.note,
        tags=("template",),
    )


def _cases() -> tuple[Case, ...]:
    out = []
    for recipe in RECIPES:
        for sample in recipe.samples:
            case = case_of(recipe, sample)
            if case is not None:
                out.append(case)
    return tuple(out)


CASES: tuple[Case, ...] = _cases()
