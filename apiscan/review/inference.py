"""The inference path of a repository that trains nothing: the steps written as code.

The recipe shows an inference-only repository's transform compositions as its preprocessing
(DPT's ``Compose([Resize(...), NormalizeImage(...), PrepareForNet()])``). Many repositories
prepare their input in plain code instead, often inside the model (scale the longer side to
the network's input length, ``(x - self.pixel_mean) / self.pixel_std``, pad to a square) and
read the output the same way (upscale the masks back to the original size, cut them at a
logit threshold). A port must reproduce each exactly, and the per-image sizes between the
resize and the pad are where a static graph meets a variable shape. The workers record
these steps (:mod:`apiscan.extract.input_steps`) beside the value records the recipe reads
(:mod:`apiscan.extract.values`); this module joins them across files through the review's one
index of values by name (:class:`~apiscan.review.names.NameValues`): ``self.pixel_mean`` →
the constructor parameter stored as that buffer → the literal a construction passes for it
(or its default).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import NamedTuple

from apiscan.extract.input_steps import InputStep
from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import Expr
from apiscan.review.model import RecipeItem, Where
from apiscan.review.names import ArgparseDefaults, NameValues, OptionDefault
from apiscan.review.sources import place, with_facts

#: The name of a row that pads each side up to a multiple: each image keeps its own shape,
#: an input pipeline the review counts as one with data-dependent shapes.
PER_IMAGE_PAD = "pad (each side up to a multiple)"

#: The name of a row whose cache grows per decoding step (a work item of its own).
GROWING_CACHE = "cache growing per step"
#: The name of a row reading tensor values on the host once per decoding step (a work item).
DECODE_SYNC = "host read per generated step"

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
    # a generator's decoding (apiscan.extract.input_steps._decode_steps)
    "sampling": (
        "sampling",
        "sampling settings",
        "the defaults decide what is generated: keep them in the port; compare the two "
        "frameworks greedily (temperature 0), since their random draws differ",
    ),
    "draw": (
        "sampling",
        "random draw",
        "MindSpore draws with mindspore.mint.multinomial (after its sort, cumsum or topk "
        "where these are used), but its generator draws other numbers from the same seed: "
        "check the port with sampling off (greedy)",
    ),
    "precision": (
        "amp",
        "default dtype set globally",
        "every tensor and parameter is created in this dtype, not float32: the port sets "
        "the network's dtype itself (parameters cast with Cell.to_float or created in it) "
        "and is checked against the PyTorch outputs at this precision",
    ),
    "sharded_checkpoint": (
        "checkpoint",
        "checkpoint sharded by rank",
        "one file per model-parallel rank: converting it for one device merges the shards "
        "(each parallel layer's slices concatenated along its split axis) before the "
        "MindSpore checkpoint is written",
    ),
    "non_strict_load": (
        "checkpoint",
        "weights loaded non-strictly",
        "names missing from the checkpoint are skipped without an error: check the "
        "converted checkpoint fills every parameter (load_param_into_net returns those "
        "it did not load)",
    ),
    "loop_sync": (
        "decoding",
        DECODE_SYNC,
        "the decode loop reads a tensor on the host to decide whether to stop: the device "
        "waits once per token; check every few steps, or run a fixed number of steps",
    ),
    "step_read": (
        "decoding",
        DECODE_SYNC,
        "a method the decode loop calls each step reads tensor values on the host "
        "(.item(), .tolist(), Python branches on them): the device waits once per token; "
        "keep that logic on the device (masks, topk, where) or keep the loop outside the "
        "compiled network and accept the wait",
    ),
    "growing_cache": (
        "decoding",
        GROWING_CACHE,
        "the cache the network reads grows by the step's length each call (slices bounded "
        "by a Python position): in graph mode each new length compiles again; a static-"
        "shape cache (allocated at the maximum length, read whole under a mask, written "
        "at the position with a scatter) is the work",
    ),
}

#: A file or function that scores predictions against ground truth (``eval/``,
#: ``boundary_metrics.py``, ``compute_metric``): its cut-offs are no step of the inference path.
_SCORING = re.compile(r"(?:^|/)eval(?:uation)?/|metric", re.IGNORECASE)

#: A sampling parameter that alone only keeps the k best (keypoints, detections): with no
#: temperature, nucleus or beam setting beside it, nothing is sampled.
_SELECTION = re.compile(r"^top_?k$", re.IGNORECASE)

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
    "sampling": ("default",),
    "draw": ("ops",),
    "precision": ("dtype",),
    "sharded_checkpoint": ("shard",),
    "non_strict_load": ("strict",),
    "loop_sync": ("read on the host",),
    "step_read": ("read on the host",),
    "growing_cache": ("written at",),
}
#: Kinds whose references are shown as written (defaults, op names): nothing to look up.
_AS_WRITTEN = frozenset({"sampling", "draw", "non_strict_load"})


def inference_steps(
    analyses: Sequence[FileAnalysis],
    shown: Iterable[RecipeItem],
    apart: Callable[[str], bool],
    names: NameValues | None = None,
) -> tuple[RecipeItem, ...]:
    """The inference path's steps written as code (module docstring), as recipe rows. A
    step inside a class a composition row already shows (DPT's ``NormalizeImage``) is that
    row's; one in a file counted apart (an export script, a demo: ``apart(path)``) is not the
    repository's inference path. ``names`` is the review's index of values by name (built
    here when the caller has none)."""
    facts = list(with_facts(analyses))
    if names is None:
        names = NameValues((fa, sf.values) for fa, sf in facts if sf.values is not None)
    listed = " ".join(value for item in shown for _, value in item.values)
    rows: list[RecipeItem] = []
    for fa, sf in facts:
        if apart(fa.path):
            continue
        for step in sf.input_steps:
            if step.kind == "threshold" and _SCORING.search(f"{fa.path}/{step.function}"):
                continue
            if step.kind == "sampling" and all(
                _SELECTION.match(ref.partition("=")[0].strip()) for ref in step.refs
            ):
                continue  # a keypoint detector's ``top_k = 0``: a selection, no decoding
            cls = step.function.rpartition(".")[0].rpartition(".")[2]
            if cls and f"{cls}(" in listed:
                continue
            rows.append(_row(fa, step, cls, names))
    return tuple(rows)


#: A class attribute holding the settings a model runs with by default (LightGlue's
#: ``default_conf``, an extractor's ``preprocess_conf``, ``DEFAULT_CONFIG``, ``defaults``).
_SETTINGS = re.compile(r"^_?(?:\w+_)?(?:conf|config|cfg|settings|defaults)$", re.IGNORECASE)
#: Such an attribute naming the input's preparation (``preprocess_conf``).
_PREPROCESS = re.compile(r"pre_?process", re.IGNORECASE)


def default_settings(
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], bool],
    classes: Collection[str] | None = None,
    argparse: ArgparseDefaults | None = None,
) -> tuple[RecipeItem, ...]:
    """The settings an inference-only model runs with, as recipe rows: each dict literal a
    class body binds to a settings name (:data:`_SETTINGS`: a matcher's ``default_conf =
    {"n_layers": 9, "filter_threshold": 0.1, ...}``, merged with the caller's keywords in
    ``__init__``), one row per dict, each key with its value as written. A port must run
    with the same values, and thresholds and pruning confidences change the outputs the
    port is compared on. ``classes``: the fully qualified classes of the top models'
    trees, whose settings the inference path uses (an alternative extractor's are not
    shown); None shows every class's. A name for the input's preparation
    (``preprocess_conf``: the resize) is a preprocessing row, the rest runtime rows. Where
    the repository's code passes a dict of such keys (a script's config of argparse values,
    handed to the model that merges it over the defaults), each value passed is shown over
    the default (:func:`_overrides`), read through ``argparse``, the review's table of
    options (built here when not given)."""
    rows: list[RecipeItem] = []
    passed: list[_Passed] | None = None
    for fa, sf in with_facts(analyses):
        if apart(fa.path) or sf.values is None:
            continue
        for d in sf.values.defs:
            if not d.is_class or (
                classes is not None and not any(f"{m}.{d.qual}" in classes for m in fa.modules)
            ):
                continue
            for a in d.assigns:
                if a.target.kind != "Name" or not _SETTINGS.match(a.target.name):
                    continue
                if a.value.kind != "Dict" or not a.value.keys:
                    continue
                keys = a.value.keys
                values = a.value.parts[-len(keys) :]
                shown = tuple(
                    (key, value.full()) for key, value in zip(keys, values, strict=True) if key
                )
                if not shown:
                    continue
                category = "preprocessing" if _PREPROCESS.search(a.target.name) else "runtime"
                note = (
                    "the defaults the model runs with unless its caller overrides them: "
                    "run the port with the same values (thresholds and pruning change "
                    "the outputs compared)"
                )
                if passed is None:  # read once, where some class has default settings
                    passed = _passed_dicts(analyses, apart, argparse)
                given = _overrides(passed, dict(shown), place(fa, a.line))
                if given:
                    shown = tuple(
                        (key, f"{given[key]}; class default {value}" if key in given else value)
                        for key, value in shown
                    )
                    note = (
                        "the values the caller passes over the class defaults (merged "
                        "into them in the constructor): run the port with the same values "
                        "(thresholds and pruning change the outputs compared)"
                    )
                rows.append(
                    RecipeItem(
                        category, f"{d.qual}.{a.target.name}", place(fa, a.line), shown, note
                    )
                )
    return tuple(rows)


class _Passed(NamedTuple):
    """A dict literal the repository's code builds (a script's ``config = {'superpoint':
    {'max_keypoints': opt.max_keypoints, ...}}``): each key with the value it holds, where."""

    where: Where
    values: dict[str, str]


def _passed_dicts(
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], bool],
    options: ArgparseDefaults | None = None,
) -> list[_Passed]:
    """Every dict literal with constant string keys written in an assignment's value or a
    call's arguments of a file not counted apart, nested ones included, each value read
    through the file's argparse options (``opt.max_keypoints`` -> its default, ``1024``)."""
    found: dict[tuple[str, int, int], _Passed] = {}
    files = [(fa, sf.values) for fa, sf in with_facts(analyses) if sf.values is not None]
    if options is None:
        options = ArgparseDefaults(files)
    for fa, values in files:
        if apart(fa.path):
            continue
        dests = {o.dest: o for o in options.by_path.get(fa.path, [])}
        roots = [a.value for a in values.assigns]
        roots += [a.value for d in values.defs for a in d.assigns]
        roots += [c.expr for c in values.calls]
        for root in roots:
            for node in root.walk():
                if node.kind != "Dict" or not node.keys or None in node.keys:
                    continue
                key = (fa.path, node.line, node.col)
                if key in found:
                    continue
                read = {
                    k: _option_value(v, dests, fa.path)
                    for k, v in zip(node.keys, node.items, strict=True)
                    if k and v.kind != "Dict"
                }
                found[key] = _Passed(place(fa, node.line), read)
    return list(found.values())


def _option_value(value: Expr, dests: dict[str, OptionDefault], path: str) -> str:
    """``value`` as written, or the default of the argparse option it reads (``opt.x``),
    then a tab and where that default is written."""
    text = value.full()
    if value.kind == "Attribute" and value.name in dests:
        option = dests[value.name]
        if option.written is not None:
            default = (option.default or option.written).full()
            return f"{default}\t{text}, default of argparse --{option.dest} at {path}:{option.line}"
    return text


def _overrides(passed: Sequence[_Passed], defaults: dict[str, str], at: Where) -> dict[str, str]:
    """What the repository's code passes for the keys of a class's default settings: a dict
    literal (not the defaults themselves) whose keys, two at least, are all keys of
    ``defaults``, as the constructor's ``{**self.default_config, **config}`` merges it.
    Several such dicts: every value each key is given, joined."""
    given: dict[str, list[str]] = {}
    for dict_ in passed:
        keys = set(dict_.values)
        if dict_.where == at or len(keys) < 2 or not keys <= defaults.keys():
            continue
        for key, value in dict_.values.items():
            value, _, source = value.partition("\t")
            by = f"passed at {dict_.where.path}:{dict_.where.line}"
            text = f"{value} ({by} as {source})" if source else f"{value} ({by})"
            if text not in given.setdefault(key, []):
                given[key].append(text)
    return {key: " | ".join(values) for key, values in given.items()}


def _row(fa: FileAnalysis, step: InputStep, cls: str, names: NameValues) -> RecipeItem:
    category, name, note = _ROWS[step.kind]
    values = [("code", step.text)]
    labels = _REF_NAMES[step.kind]
    for n, ref in enumerate(step.refs):
        label = labels[min(n, len(labels) - 1)]
        if step.kind == "sampling":  # "temperature = 0.6": the parameter and its default
            values.append(tuple(part.strip() for part in ref.split("=", 1)))  # type: ignore[arg-type]
            continue
        if step.kind in _AS_WRITTEN:
            values.append((label, ref))
            continue
        known = names.value(cls, ref, step.function)
        values.append((label, f"{ref} = {known}" if known else ref))
    return RecipeItem(
        category, f"{name} in {step.function}", place(fa, step.line), tuple(values), note
    )
