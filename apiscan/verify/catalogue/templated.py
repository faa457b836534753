"""Micro-tests rendered from the rewrite templates (:mod:`apiscan.rewrite.substitutions`).

The MindSpore expression of each case is ``render(template, sample)``: the function that
renders a finding's rewrite in the reports, applied to a sample call form. So a passing case
is evidence for exactly the rewrite a user is shown, form by form (``form: varargs``,
``form: tuple``, ``form: default``...).
"""

from __future__ import annotations

import ast
import re

from apiscan.model import CallArgs
from apiscan.rewrite.substitutions import RECIPES, Recipe, Sample
from apiscan.rewrite.template import DROP, bind, render
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


def _literal(text: str) -> bool:
    """A value the micro-test can use as written: a Python literal or a torch dtype."""
    if re.fullmatch(r"(torch|th)\.[A-Za-z_]\w*(\.[A-Za-z_]\w*)?", text):
        return True
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


#: Layer parameters that must agree with the sample's input shape: the sample's value is
#: kept for them (the form — positional or keyword — is still the call's).
SHAPE_PARAMS = frozenset(
    {
        "num_features",
        "in_features",
        "out_features",
        "in_channels",
        "out_channels",
        "normalized_shape",
    }
)


def form_sample(recipe: Recipe, call: CallArgs) -> Sample | None:
    """The call's own form as a sample: its literal arguments as written, its keyword names,
    its number of positional sizes; every other argument (a variable, an expression) is
    replaced by the value the recipe's first sample gives that parameter, so the micro-test
    runs the same form of the rewrite the report shows. None when the template declines the
    call or a non-literal argument has no stand-in."""
    if not recipe.samples or call.star or call.truncated:
        return None
    template = recipe.template
    base = recipe.samples[0]
    _, why = bind(template, call)
    base_bound, _ = bind(template, base.call)
    if why:
        return None
    params = [a for a in template.args if not a.keyword_only]
    positional: list[str] = []
    for index, text in enumerate(call.positional):
        arg = params[min(index, len(params) - 1)] if params else None
        if arg is None or text.startswith("*"):
            return None
        if _literal(text) and not (recipe.kind == "layer" and arg.name in SHAPE_PARAMS):
            positional.append(text)
            continue
        if arg.varargs:
            # the count of values is what the form keeps: the sample's value at this place
            # (a tensor input), else a size
            sample_values = base_bound.get(arg.name)
            offset = index - params.index(arg)
            if isinstance(sample_values, list) and offset < len(sample_values):
                positional.append(sample_values[offset])
            else:
                positional.append("2")
            continue
        stand_in = base_bound.get(arg.name)
        if not isinstance(stand_in, str):
            return None
        positional.append(stand_in)
    keywords: list[tuple[str, str]] = []
    for key, text in call.keywords:
        if _literal(text) and not (recipe.kind == "layer" and key in SHAPE_PARAMS):
            keywords.append((key, text))
            continue
        stand_in = base_bound.get(key)
        if not isinstance(stand_in, str):
            arg = next((a for a in template.args if a.name == key), None)
            if arg is not None and arg.to is DROP and "*" in arg.drop_exact:
                continue  # a placement argument: dropped on both sides of the test
            return None
        keywords.append((key, stand_in))
    receiver = base.call.receiver if template.method else ""
    form = CallArgs(receiver, tuple(positional), tuple(keywords))
    shown = torch_call(template.api, form, template.method)
    return Sample(f"call {shown}", form, base.inputs, base.probe)


def form_case(recipe: Recipe, call: CallArgs) -> Case | None:
    """The micro-test of one call's form (see :func:`form_sample`)."""
    sample = form_sample(recipe, call)
    return case_of(recipe, sample) if sample is not None else None
