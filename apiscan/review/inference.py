"""The inference path of a repository that trains nothing: the steps written as code.

The recipe shows an inference-only repository's transform compositions as its preprocessing
(DPT's ``Compose([Resize(...), NormalizeImage(...), PrepareForNet()])``). Many repositories
prepare their input in plain code instead, often inside the model (scale the longer side to
the network's input length, ``(x - self.pixel_mean) / self.pixel_std``, pad to a square) and
read the output the same way (upscale the masks back to the original size, cut them at a
logit threshold). A port must reproduce each exactly, and the per-image sizes between the
resize and the pad are where a static graph meets a variable shape. The workers record
these steps and the literals they may name (:mod:`apiscan.extract.input_steps`); this module
joins them across files: ``self.pixel_mean`` → the constructor parameter stored as that
buffer → the literal a construction passes for it (or its default).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from apiscan.extract.input_steps import InputStep, NamedLiteral
from apiscan.extract.records import FileAnalysis
from apiscan.review.model import RecipeItem, Where
from apiscan.review.sources import place, with_facts

#: kind → (recipe category, what the row is called, what it means for the port)
_ROWS: dict[str, tuple[str, str, str]] = {
    "long_side": (
        "preprocessing",
        "resize (longer side to a fixed length)",
        "keeps the aspect ratio: each image has its own size until it is padded; resize the "
        "same way (same rounding) in the port",
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

#: What each kind's references are called in the row.
_REF_NAMES: dict[str, tuple[str, ...]] = {
    "long_side": ("longer side",),
    "resize": ("size",),
    "normalise": ("mean", "std"),
    "pad": ("padded to",),
    "upscale": ("size",),
    "threshold": ("cut at",),
}


class _Literals:
    """The literals of the whole repository, by who holds them."""

    def __init__(self, found: Iterable[tuple[FileAnalysis, NamedLiteral]]) -> None:
        self.defaults: dict[tuple[str, str], list[tuple[str, Where]]] = defaultdict(list)
        self.keywords: dict[tuple[str, str], list[tuple[str, Where]]] = defaultdict(list)
        self.bindings: dict[tuple[str, str], str] = {}
        self.by_name: dict[str, list[tuple[str, Where]]] = defaultdict(list)
        for fa, lit in found:
            where = place(fa, lit.line)
            owner = lit.owner.rpartition(".")[2]
            if lit.kind == "binding":
                self.bindings.setdefault((owner, lit.name), lit.text)
                continue
            table = self.keywords if lit.kind == "keyword" else self.defaults
            table[(owner, lit.name)].append((lit.text, where))
            if owner:  # a module constant's name says nothing about another module's
                self.by_name[lit.name].append((lit.text, where))

    def value(self, cls: str, ref: str) -> str | None:
        """What ``ref`` (as written in a method of ``cls``) is, when the literals say it."""
        parts = ref.split(".")
        if len(parts) == 2 and parts[0] == "self":
            attr = parts[1]
            param = self.bindings.get((cls, attr))
            if param is not None:
                passed = _one(self.keywords.get((cls, param), []), f"{param}=")
                if passed:
                    return passed
                default = _one(self.defaults.get((cls, param), []), f"default of {param}")
                if default:
                    return default
            return _one(self.defaults.get((cls, attr), []), f"{cls}.{attr}")
        if len(parts) >= 2 and parts[0] == "self" and all(p.isidentifier() for p in parts):
            # self.image_encoder.img_size: the one value every holder of that name agrees on
            return _one(self.by_name.get(parts[-1], []), parts[-1])
        if len(parts) == 1 and parts[0].isidentifier():
            return _one(self.defaults.get((cls, parts[0]), []), f"{cls}.{parts[0]}")
        return None


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
    literals = _Literals((fa, lit) for fa, sf in facts for lit in sf.named_literals)
    listed = " ".join(value for item in shown for _, value in item.values)
    rows: list[RecipeItem] = []
    for fa, sf in facts:
        if apart(fa.path):
            continue
        for step in sf.input_steps:
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
        known = literals.value(cls, ref)
        values.append((label, f"{ref} = {known}" if known else ref))
    return RecipeItem(
        category, f"{name} in {step.function}", place(fa, step.line), tuple(values), note
    )
