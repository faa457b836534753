"""The inference path of a repository that trains nothing: the steps written as code.

The recipe shows an inference-only repository's transform compositions as its preprocessing
(DPT's ``Compose([Resize(...), NormalizeImage(...), PrepareForNet()])``). Many repositories
prepare their input in plain code instead, often inside the model (scale the longer side to
the network's input length, ``(x - self.pixel_mean) / self.pixel_std``, pad to a square) and
read the output the same way (upscale the masks back to the original size, cut them at a
logit threshold). A port must reproduce each exactly, and the per-image sizes between the
resize and the pad are where a static graph meets a variable shape. The workers record
these steps (:mod:`apiscan.extract.input_steps`) beside the value records the recipe reads
(:mod:`apiscan.extract.values`); this module joins them across files: ``self.pixel_mean`` →
the constructor parameter stored as that buffer → the literal a construction passes for it
(or its default).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from apiscan.extract.input_steps import InputStep
from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import (
    AssignValues,
    DefValues,
    Expr,
    FileValues,
    is_numeric,
    literal_value,
)
from apiscan.review.model import RecipeItem, Where
from apiscan.review.sources import place, with_facts

#: The name of a row that pads each side up to a multiple: each image keeps its own shape,
#: an input pipeline the review counts as one with data-dependent shapes.
PER_IMAGE_PAD = "pad (each side up to a multiple)"

#: kind → (recipe category, what the row is called, what it means for the port)
_ROWS: dict[str, tuple[str, str, str]] = {
    "long_side": (
        "preprocessing",
        "resize (longer side to a fixed length)",
        "keeps the aspect ratio: each image has its own size until it is padded; resize the "
        "same way (same rounding) in the port",
    ),
    "long_side_capped": (
        "preprocessing",
        "resize (longer side magnified by a ratio, capped at a length)",
        "keeps the aspect ratio: each image has its own size (a variable input shape for the "
        "network unless it is padded to a fixed size); resize the same way in the port",
    ),
    "pad_multiple": (
        "preprocessing",
        PER_IMAGE_PAD,
        "the padded size still follows each image's own size: the compiled network sees a new "
        "input shape per image size (dynamic axes with set_inputs, or fixed buckets)",
    ),
    "resize": (
        "preprocessing",
        "resize (to a fixed size)",
        "every input is interpolated to the network's fixed size: the network sees one static "
        "shape; interpolate the same way (mode, corners) in the port",
    ),
    "normalise": (
        "preprocessing",
        "normalise",
        "the input is standardised with this mean and standard deviation; the port must use "
        "the same values and channel order",
    ),
    "pad": (
        "preprocessing",
        "pad (to a fixed input size)",
        "pads each input up to the network's fixed input: the network sees one static shape",
    ),
    "upscale": (
        "postprocessing",
        "upscale (to the original size)",
        "outputs are interpolated back to each input's own size: a per-image output shape, "
        "best kept outside the compiled network",
    ),
    "threshold": (
        "postprocessing",
        "threshold",
        "the output is cut at this value; keep it in the port",
    ),
}

#: A file or function that scores predictions against ground truth (``eval/``,
#: ``boundary_metrics.py``, ``compute_metric``): its cut-offs are no step of the inference path.
_SCORING = re.compile(r"(?:^|/)eval(?:uation)?/|metric", re.IGNORECASE)

#: What each kind's references are called in the row.
_REF_NAMES: dict[str, tuple[str, ...]] = {
    "long_side": ("longer side",),
    "long_side_capped": ("longer side ×", "capped at"),
    "pad_multiple": ("multiple of",),
    "resize": ("size",),
    "normalise": ("mean", "std"),
    "pad": ("padded to",),
    "upscale": ("size",),
    "threshold": ("cut at",),
}


class _Literals:
    """The numeric literals of the whole repository, by who holds them, read from the value
    records the workers write for the recipe (:mod:`apiscan.extract.values`): constructor
    parameter defaults (``defaults``), class-level values (``class_values``), every call's
    arguments (``calls``; a name the calling function or module binds to a number reads as
    that number), which parameter a constructor stores as an attribute or buffer
    (``bindings``: ``self.register_buffer("pixel_mean", torch.Tensor(pixel_mean))``), and the
    numbers each name is given anywhere (``by_name``)."""

    def __init__(self, files: Iterable[tuple[FileAnalysis, FileValues]]) -> None:
        self.defaults: dict[tuple[str, str], list[tuple[str, Where]]] = defaultdict(list)
        self.class_values: dict[tuple[str, str], list[tuple[str, Where]]] = defaultdict(list)
        self.bindings: dict[tuple[str, str], str] = {}
        #: each def's positional parameters (``self`` included) by its name, and each call by
        #: its callee's last name: (positional arguments, keywords, the caller's class, where,
        #: called on an attribute, passes ``*args``/``**kwargs``, the calling function's name)
        self.params: dict[str, list[DefValues]] = defaultdict(list)
        self.calls: dict[
            str, list[tuple[tuple[Expr, ...], dict[str, Expr], str, Where, bool, bool, str]]
        ] = defaultdict(list)
        self.by_name: dict[str, list[tuple[str, Where]]] = defaultdict(list)
        #: argparse options' numeric defaults by their dest
        self.options: dict[str, list[tuple[str, Where]]] = defaultdict(list)
        for fa, values in files:
            self._read(fa, values)

    def _read(self, fa: FileAnalysis, values: FileValues) -> None:
        module = _bound(values.assigns)
        for d in values.defs:
            if not d.is_class:
                owner = values.defs[d.owner].name if d.owner >= 0 else ""
                self.params[owner if d.name == "__init__" and owner else d.name].append(d)
            if d.is_class:
                for a in d.assigns:
                    if a.target.kind == "Name" and _numeric(a.value):
                        where = place(fa, a.line)
                        self.class_values[(d.name, a.target.name)].append((a.value.text, where))
                        self.by_name[a.target.name].append((a.value.text, where))
            elif d.name == "__init__" and d.owner >= 0:
                cls = values.defs[d.owner].name
                params = {name for name, _ in d.params} - {"self"}
                for name, default in d.params:
                    if default is not None and _numeric(default):
                        self._default(cls, name, default.text, place(fa, default.line))
                for a in d.assigns:
                    if a.target.kind == "Attribute" and a.target.target.text == "self":
                        self._bind(cls, a.target.name, a.value, params)
        scopes: dict[int, dict[str, Expr]] = {}  # a function's names bound to numbers

        def literal(e: Expr, function: int) -> Expr:
            """A name its function or module binds to a number reads as that number."""
            if e.kind != "Name":
                return e
            if function >= 0 and function not in scopes:
                scopes[function] = _bound(values.defs[function].assigns)
            local = scopes.get(function, {})
            return local.get(e.name) or module.get(e.name) or e

        for call in values.calls:
            expr = call.expr
            callee = expr.callee()
            caller = values.defs[call.function] if call.function >= 0 else None
            caller_cls = values.defs[caller.owner].name if caller and caller.owner >= 0 else ""
            keywords = {
                kw.name: literal(kw.target, call.function) for kw in expr.keywords if kw.name
            }
            args = tuple(literal(a, call.function) for a in expr.args)
            via = expr.func.kind == "Attribute"
            # ``**args`` of ``args = parser.parse_args().__dict__`` (whisper's cli()): every
            # parameter it does not name is an argparse option's, keyed "**" here
            options = [
                kw
                for kw in expr.keywords
                if not kw.name and _argparse_dict(values, call.function, kw.target)
            ]
            if options:
                keywords["**"] = options[0].target
            # ``f(*args)``, ``Cls(**cfg)``: any parameter it does not name may be set there
            spread = any(not kw.name and kw not in options for kw in expr.keywords) or any(
                a.kind == "Starred" for a in expr.args
            )
            where = place(fa, expr.line)
            caller_name = caller.name if caller and not caller.is_class else ""
            self.calls[callee].append((args, keywords, caller_cls, where, via, spread, caller_name))
            if callee == "add_argument" and args and isinstance(args[0].value, str):
                self._option(args, keywords, where)
            if callee == "register_buffer" and call.function >= 0:
                init = values.defs[call.function]
                if init.name == "__init__" and init.owner >= 0 and len(args) >= 2:
                    params = {name for name, _ in init.params} - {"self"}
                    if isinstance(args[0].value, str):
                        cls = values.defs[init.owner].name
                        self._bind(cls, args[0].value, expr.args[1], params)
            elif callee[:1].isupper():
                for name, value in keywords.items():
                    if _numeric(value):
                        self.by_name[name].append((value.text, where))

    def _option(self, args: tuple[Expr, ...], keywords: dict[str, Expr], where: Where) -> None:
        """An argparse option's numeric default (``add_argument('--low_text', default=0.4)``)
        is what ``args.low_text`` holds when the command line leaves it."""
        flags = [a.value for a in args if isinstance(a.value, str)]
        dest = keywords.get("dest")
        name = dest.value if dest is not None and isinstance(dest.value, str) else None
        if name is None:
            longs = [f for f in flags if f.startswith("--")] or flags
            name = longs[0].lstrip("-").replace("-", "_")
        default = keywords.get("default")
        if default is not None and _numeric(default) and name.isidentifier():
            self.by_name[name].append((default.text, where))
            self.options[name].append((default.text, where))

    def _default(self, cls: str, name: str, text: str, where: Where) -> None:
        self.defaults[(cls, name)].append((text, where))
        self.by_name[name].append((text, where))

    def _bind(self, cls: str, attr: str, value: Expr, params: set[str]) -> None:
        used = {e.name for e in value.walk() if e.kind == "Name" and e.name in params}
        if len(used) == 1:
            self.bindings.setdefault((cls, attr), used.pop())

    def value(self, cls: str, ref: str, function: str = "", depth: int = 0) -> str | None:
        """What ``ref`` (as written in ``function``, a method of ``cls`` or a function) is,
        when the literals say it: a buffer's constructor argument, a class-level value, a
        parameter's arguments at its call sites, the one value every holder of a chain's last
        name agrees on."""
        parts = ref.split(".")
        if len(parts) == 2 and parts[0] == "self":
            attr = parts[1]
            param = self.bindings.get((cls, attr))
            if param is not None:
                passed, complete = self.argument(cls, param, depth)
                if passed or not complete:
                    return passed
                default = _one(self.defaults.get((cls, param), []), f"default of {param}")
                if default:
                    return default
            return _one(self.class_values.get((cls, attr), []), f"{cls}.{attr}")
        if len(parts) >= 2 and all(p.isidentifier() for p in parts):
            # self.image_encoder.img_size: the one value every holder of that name agrees on
            return _one(self.by_name.get(parts[-1], []), parts[-1])
        if len(parts) == 1 and parts[0].isidentifier():
            found = _one(self.class_values.get((cls, parts[0]), []), f"{cls}.{parts[0]}")
            if found:
                return found
            callee = function.rpartition(".")[2]
            passed, complete = self.argument(callee, parts[0], depth)
            if passed or not complete or cls:
                return passed
            return self.function_default(callee, parts[0])
        return None

    def function_default(self, callee: str, param: str) -> str | None:
        """The numeric default of a plain function's parameter that no call passes
        (``normalizeMeanVariance(img, mean=(0.485, 0.456, 0.406))``)."""
        defs = self.params.get(callee, [])
        if len(defs) != 1:
            return None
        default = dict(defs[0].params).get(param)
        if default is None or not _numeric(default):
            return None
        return f"{default.text} (default of {param} in {callee}())"

    def argument(self, callee: str, param: str, depth: int) -> tuple[str | None, bool]:
        """The value every call of ``callee`` (a function's or a class's last name) passes
        for ``param``, when they agree: positional arguments mapped through the def's
        parameters, each followed once more in its caller (``self.target_length`` there).
        The flag says whether the calls were all read: a call that may pass ``param``
        through ``*args``/``**kwargs``, or that leaves it to the default while others pass
        it, leaves the value unknown (and its default is then no answer either)."""
        # a def that has no such parameter is not the one (whisper's tokenizer property
        # ``transcribe`` beside the ``transcribe()`` function)
        defs = [d for d in self.params.get(callee, []) if param in dict(d.params)]
        if depth > 3 or len(defs) != 1:
            return None, True
        positional = list(defs[0].positional)
        found: list[tuple[str, Where]] = []
        defaulted = False
        for args, keywords, caller_cls, where, via, spread, caller in self.calls.get(callee, []):
            shift = 1 if positional[:1] == ["self"] and (via or callee[:1].isupper()) else 0
            index = positional.index(param) - shift if param in positional else -1
            arg = keywords.get(param) or (args[index] if 0 <= index < len(args) else None)
            if arg is None and "**" in keywords:
                option = _one(self.options.get(param, []), f"argparse --{param}")
                if option is None:
                    return None, False
                found.append((option, where))
                continue
            if arg is None or arg.kind == "Starred":
                if spread:
                    return None, False
                defaulted = True
                continue
            if _numeric(arg):
                found.append((arg.text, where))
                continue
            known = self.value(caller_cls, arg.text, caller, depth + 1)
            if known is None:
                return None, False  # a call that passes something unknown: no single value
            # a parameter handed on under its own name reads once (``low_text = args.low_text``)
            found.append((known if arg.text == param else f"{arg.text} = {known}", where))
        if found and defaulted:
            return None, False
        return _one(found, f"{param} of {callee}()"), True


def _argparse_dict(values: FileValues, function: int, expr: Expr) -> bool:
    """``expr`` is a name function ``function`` binds to the parsed command line as a dict
    (``args = parser.parse_args().__dict__``, ``vars(parser.parse_args())``)."""
    if expr.kind != "Name" or function < 0:
        return False
    for a in values.defs[function].assigns:
        if a.target.kind == "Name" and a.target.name == expr.name:
            text = a.value.full()
            if "parse_args(" in text and (text.endswith(".__dict__") or text.startswith("vars(")):
                return True
    return False


def _bound(assigns: Iterable[AssignValues]) -> dict[str, Expr]:
    """Names a scope binds to a number (``image_size = 1024``), by name."""
    return {
        a.target.name: a.value for a in assigns if a.target.kind == "Name" and _numeric(a.value)
    }


def _numeric(expr: Expr) -> bool:
    """A number, or a list or tuple of numbers (a mean, a size, a threshold)."""
    return is_numeric(literal_value(expr))


def _one(found: Sequence[tuple[str, Where]], what: str) -> str | None:
    """The value when every place agrees on one, with the first place that says it."""
    texts = {text for text, _ in found}
    if len(texts) != 1:
        return None
    text, where = min(found, key=lambda f: (f[1].path, f[1].line))
    return f"{text} ({what} at {where.path}:{where.line})"


def inference_steps(
    analyses: Sequence[FileAnalysis],
    shown: Iterable[RecipeItem],
    apart: Callable[[str], bool],
) -> tuple[RecipeItem, ...]:
    """The inference path's steps written as code (module docstring), as recipe rows. A
    step inside a class a composition row already shows (DPT's ``NormalizeImage``) is that
    row's; one in a file counted apart (an export script, a demo: ``apart(path)``) is not the
    repository's inference path."""
    facts = list(with_facts(analyses))
    literals = _Literals((fa, sf.values) for fa, sf in facts if sf.values is not None)
    listed = " ".join(value for item in shown for _, value in item.values)
    rows: list[RecipeItem] = []
    for fa, sf in facts:
        if apart(fa.path):
            continue
        for step in sf.input_steps:
            if step.kind == "threshold" and _SCORING.search(f"{fa.path}/{step.function}"):
                continue
            cls = step.function.rpartition(".")[0].rpartition(".")[2]
            if cls and f"{cls}(" in listed:
                continue
            rows.append(_row(fa, step, cls, literals))
    return tuple(rows)


def _row(fa: FileAnalysis, step: InputStep, cls: str, literals: _Literals) -> RecipeItem:
    category, name, note = _ROWS[step.kind]
    values = [("code", step.text)]
    labels = _REF_NAMES[step.kind]
    for n, ref in enumerate(step.refs):
        label = labels[min(n, len(labels) - 1)]
        known = literals.value(cls, ref, step.function)
        values.append((label, f"{ref} = {known}" if known else ref))
    return RecipeItem(
        category, f"{name} in {step.function}", place(fa, step.line), tuple(values), note
    )
