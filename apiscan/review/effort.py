"""A transparent effort estimate: three counts, and the sentences saying what each counts.

No weights and no score: a team reads how many places change, how many APIs have nothing to
change to, and how many functions need a shape rewrite, then applies its own rates. Only the
network graph counts toward the numbers, because that is what MindSpore compiles; host and data
code is counted beside them, since it can usually stay Python or NumPy.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import PurePosixPath

from apiscan.extract.records import FileAnalysis
from apiscan.extract.shapes import BATCH_PADDING
from apiscan.model import ApiFinding, ScanResult, ShapeFinding
from apiscan.review.gaps import counted, gap_rewrite, is_custom_op, verify_first
from apiscan.review.model import (
    BACKBONE_ARCHITECTURE,
    WORK_KINDS,
    Effort,
    Gap,
    WorkItem,
    work_label,
)
from apiscan.review.oplibs import library_label, library_ops
from apiscan.review.work import (
    GRADIENT_PENALTY,
    INPUT_SHAPE_RULE,
    SECOND_ORDER,
    Ancillary,
    data_pipeline_sites,
    priced_kind,
    sharded_api,
    within,
)
from apiscan.rewrite.idioms import idiom_for

#: Uses that make an API something to compute (an op); a missing dtype or ``.device`` read as
#: an attribute is data, and is renamed rather than implemented.
OP_USAGES = frozenset({"call", "operator", "decorator", "context_manager", "base_class"})
#: Names listed in one sentence before the rest are only counted.
LISTED = 10


#: A device event's elapsed time read (``start.elapsed_time(end)``): a timer for a log line.
_EVENT_TIMING = re.compile(r"^torch\.(?:cuda|xpu|mps)\.(?:streams\.|event\.)?Event\.elapsed_time$")
#: ... and the recording of such an event (``start.record()``), which alone may also order
#: work across streams: a deletion only where the same function reads an elapsed time.
_EVENT_RECORD = re.compile(r"^torch\.(?:cuda|xpu|mps)\.(?:streams\.|event\.)?Event\.record$")


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:LISTED])
    more = len(names) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


#: The idiom pattern of saving and loading weights, and the work item kind of a checkpoint
#: format: one piece of work, priced once by the item when there is one.
CHECKPOINT_PATTERN = "checkpoint"


def idiom_pattern(f: ApiFinding) -> str:
    """The pattern an idiom use belongs to: the idiom catalogue's key (``train-step`` for
    ``backward``, ``optimizer.step`` and ``zero_grad`` alike, ``checkpoint`` for ``save``,
    ``load`` and every ``state_dict``), else the API. A pattern is rewritten once and applied
    at each of its sites, so the effort counts patterns, not the APIs that spell them."""
    if f.api.partition("(")[0] in DATA_PARALLEL:
        return DATA_PARALLEL_PATTERN
    idiom = idiom_for(f.api, f.usage)
    return idiom.key if idiom is not None else f.api


#: The single-process multi-device wrapper (``nn.DataParallel``, either spelling, and the
#: call through it): the network used unwrapped, a deletion at each site, where the
#: distributed pattern (``DistributedDataParallel``, process groups, samplers) is a port of
#: its own.
DATA_PARALLEL = frozenset(
    {
        "torch.nn.DataParallel",
        "torch.nn.DataParallel.forward",
        "torch.nn.parallel.DataParallel",
        "torch.nn.parallel.DataParallel.forward",
        "torch.nn.parallel.data_parallel.DataParallel",
    }
)
DATA_PARALLEL_PATTERN = "data-parallel"


def _count(n: int, noun: str, plural: str = "") -> str:
    if n == 1:
        return f"{n:,} {noun}"
    return f"{n:,} {plural}" if plural else f"{n:,} {noun}s"


#: Idiom patterns applied mechanically, a rename or a deletion at each site: walking the
#: cells (``named_parameters`` → ``parameters_and_names``), the train/eval switch, ``no_grad``,
#: device placement, seeds, dtype constants, buffers, initialisers, tensor creation,
#: ``detach``, TorchScript markers, a hand-written ``layer.forward(x)`` call (the cell is
#: called). Minutes a site, not the day a train step or a data
#: pipeline takes (rated apart, so a small repository is not priced by its renames).
MECHANICAL_IDIOMS = frozenset(
    {
        "module-walk",
        "module-mode",
        "module-call",
        "no-grad",
        "device",
        "seed",
        "constants",
        "buffer",
        "init",
        "creation",
        "stop-gradient",
        "jit",
        DATA_PARALLEL_PATTERN,
    }
)
#: Dispositions in the order the work is listed (the cheapest first).
WORK = ("delete", "idiom", "rewrite", "custom-op", "gap")
#: Person-day rates (low, high) per unit: a deleted call site, a distinct idiom pattern, a
#: rewritten call site, a custom op, an API with nothing known, a function whose shapes
#: must be made static, an input pipeline made to produce fixed shapes, and the work items
#: (a host round trip, a pretrained backbone, a checkpoint format, a parameter MindSpore
#: lacks). Each high rate is at most twice its low rate, so the range is at most 2× wide.
#: Stated in the review next to the range they produce, so a team can substitute its own.
RATES: dict[str, tuple[float, float]] = {
    "delete": (0.01, 0.02),
    "idiom": (0.5, 1.0),
    "mechanical-idiom": (0.1, 0.2),
    "rewrite": (0.08, 0.15),
    # a rewrite the template renders from the call itself (``x.size(2)`` → ``x.shape[2]``):
    # the new text is given (``apiscan fix`` applies it once ``apiscan verify`` passes its
    # form), so a site costs a check of one line, not a rewrite written by hand
    "rendered": (0.02, 0.04),
    "custom-op": (3.0, 5.0),
    "gap": (1.0, 2.0),
    "dynamic-shape": (1.5, 3.0),
    # a function whose boolean-mask selections are only reduced (a loss's mean over the
    # valid pixels): the known rewrite, a masked sum over the mask's count, written and
    # checked (:mod:`apiscan.review.masked`), not a function redesigned for static shapes
    "masked-reduction": (0.25, 0.5),
    "input-shape": (1.5, 3.0),
    "host-round-trip": (1.0, 2.0),
    # the training loop's per-step host reads (loss.item() logged), moved out of the compiled
    # step or read every N steps: one small change for the repository
    "step-sync": (0.1, 0.2),
    # a GAN's step: the generator's and the discriminator's losses each differentiated over
    # their own network's parameters (two value_and_grad functions), the generated batch
    # stopped from the discriminator's gradient, the requires_grad toggles dropped, and
    # the alternation checked step by step against PyTorch
    "adversarial-step": (1.0, 2.0),
    # a tensor attribute the network copies to the device each step, registered as a buffer
    # (a Parameter with requires_grad=False) and its .to() dropped: a line and a check
    "host-buffer": (0.1, 0.2),
    "pretrained-backbone": (1.5, 3.0),
    # a model-zoo architecture built without weights (SimCLR's ``resnet18(pretrained=False)``):
    # the zoo's MindSpore counterpart (MindCV) swapped in, no weights to convert and compare
    "backbone-architecture": (0.5, 1.0),
    # a model library's layer built into the model (timm's Mlp, PatchEmbed): a few layers
    # written as a Cell and checked, no weights of their own
    "zoo-layer": (0.15, 0.3),
    # each distinct pattern of a pure-Python tensor library in the network (an einops
    # ``rearrange`` string) written as reshape/transpose and checked: a site rewritten by
    # hand, on one learning curve per library
    "network-library": (0.08, 0.15),
    # a training library's piece (timm's Mixup, RandAugment by its policy string, ModelEma,
    # the scheduler factory): its MindSpore counterpart (MindCV) set to the same values and
    # checked, or a few dozen lines written
    "training-library": (0.15, 0.3),
    # a tensor-parallel library's layers (fairscale's ColumnParallelLinear...) written as
    # plain Dense/Embedding for one device, the checkpoint's shards merged, and checked
    "model-parallel": (1.0, 2.0),
    # a third-party package's pretrained model the network calls: its MindSpore port with
    # the released weights converted and compared, as a pretrained backbone's
    "third-party-model": (1.5, 3.0),
    # a third-party package's layers the network runs, ported as Cells and checked: one
    # job per package
    "third-party-layer": (1.0, 2.0),
    # each network class of the framework the repository is built on that its classes
    # extend (a detector's meta-architecture, proposal generator, RoI heads), with what it
    # builds from the config, ported as Cells (or taken from a MindSpore implementation of
    # the architecture) and checked: on one curve per framework (:data:`CURVES`)
    "framework-network": (2.0, 4.0),
    # a third-party data pipeline rebuilt as a mindspore.dataset pipeline (or kept on the
    # host), its batches compared
    "third-party-data": (0.5, 1.0),
    # the repository's copy of synchronized BatchNorm or a data-parallel wrapper swapped for
    # MindSpore's built-in, checked over a few steps
    "vendored-parallel": (0.25, 0.5),
    # a cache growing per decoding step rewritten as a static-shape cache (allocated at the
    # maximum length, read under a mask, written with a scatter) and checked token by token
    "growing-cache": (1.5, 3.0),
    # the decode loop's per-token host reads moved onto the device (masks, topk) or the
    # loop kept outside the compiled network, checked token by token
    "decode-sync": (0.5, 1.0),
    "checkpoint": (1.0, 2.0),
    # ... converted by the script written for a pretrained backbone's weights (LPIPS's linear
    # layers beside its torchvision backbones, a detector's released weights over its
    # ImageNet ResNet): its own names added to the map and the loading checked
    "converted-checkpoint": (0.5, 1.0),
    "unsupported-param": (0.5, 1.0),
    # a memory-only parameter (``inplace=True``) dropped at each call: a check, not a port
    "memory-param": (0.02, 0.04),
    # a layer moved from forward to __init__ (or its functional op called)
    "cell-in-construct": (0.1, 0.2),
    # BatchNorm momentum values written on the layers, converted to 1 − v
    "bn-momentum": (0.1, 0.2),
    # Parameters tied between layers, given as one Parameter to both Cells, the checkpoint's
    # two names mapped to it, and the sharing checked after a step
    "tied-weights": (0.25, 0.5),
    # a loss kept on the module in forward, returned by the construct instead and the
    # training step's reads of the attribute changed to take it
    "loss-attribute": (0.1, 0.2),
    # BatchNorm frozen in training: the layers built with use_batch_statistics=False (or set
    # to eval after the training wrapper) and the statistics checked over a few steps
    "bn-frozen": (0.25, 0.5),
    # a forward whose hooks collect intermediate outputs, rewritten to return them and its
    # callers to take them, checked against the hooked outputs
    "forward-hook": (1.0, 2.0),
    # methods a function swaps into a built network (types.MethodType): the counterpart
    # written with those forwards, its outputs checked against PyTorch's
    "patched-method": (0.5, 1.0),
    # a forward's in-place state update (an EMA codebook, a queue) written as Parameter
    # assignments, its collective through MindSpore's communication ops, checked over steps
    "state-in-forward": (1.0, 2.0),
    # a forward's collective (no state written) called through MindSpore's communication op
    # in construct, communication initialised, output and gradient checked on several devices
    "collective-in-forward": (0.5, 1.0),
    # a data transform's torch computation rewritten with NumPy/PIL or a dataset op
    "data-torch-op": (0.5, 1.0),
    # an op of the repository's compiled extension: MindSpore's counterpart wired in and
    # checked (forward and gradient), or a custom op written with its backward
    "compiled-op": (1.0, 2.0),
    "compiled-custom-op": (3.0, 5.0),
    # each op kind of a third-party op library (MinkowskiEngine's sparse convolution, its
    # SparseTensor...): the first as a custom op, the rest on the library's steep curve
    # (:data:`CURVES`), since one porting job covers them all
    "library-op": (3.0, 5.0),
    # a network built on a sparse library (its input is the library's tensor): the
    # library's core written for MindSpore first (coordinate sets and kernel maps, sparse
    # convolution and its transpose with backwards, normalisation and joins on coordinate
    # sets) and checked against it: three to six weeks of one engineer for what one
    # network uses, before the op kinds above are layered on it
    "library-foundation": (15.0, 30.0),
    # a distributed-training framework's wrapping, sharding and scaler moved to MindSpore's
    # parallel context and optimizer sharding, checked over a few steps on several devices
    "sharded-training": (2.0, 4.0),
    # a gradient differentiated again through the repository's custom backwards: each made
    # differentiable and checked with second-order gradients
    "second-order-grad": (2.0, 4.0),
    # ... through none (a WGAN-GP penalty): written with mindspore.grad inside the loss the
    # outer value_and_grad wraps, its second-order support checked on the target backend
    "gradient-penalty": (1.0, 2.0),
    # each part of an installed framework's training the option file uses (its loop, a
    # network, a loss the repository does not define): read from the package's source,
    # written for MindSpore and checked against it, with no scan of that code to go by
    "framework-training": (2.0, 4.0),
    # a sibling variant of a ported file (yolov9's ``train_dual.py`` beside ``train.py``, the
    # ``loss_tal_dual.py`` it imports): its delta applied once the original is ported
    "variant": (0.25, 0.5),
}
#: Work item kinds listed for the lead but counted apart from the effort (an evaluation
#: metric's own network: the port needs it only to evaluate).
APART_KINDS = frozenset({"evaluation-library", "alternative-op"})
#: Work item kinds listed with their places but priced by the dynamic-shape rewrites of the
#: functions they sit in (non-maximum suppression: its calls are those rewrites' cause).
PRICED_WITH_SHAPES = frozenset({"suppression"})
#: The rates some items of a kind are priced at instead of their kind's.
_PRICED_APART = {
    "pretrained-backbone": ("backbone-architecture",),
    SECOND_ORDER: (GRADIENT_PENALTY,),
}
#: Contributors named as what drives the range.
DRIVERS = 3
#: Repeated work of one kind is priced on a learning curve (Wright's law): each doubling of a
#: kind's count prices its next unit at this fraction of the unit half as far in, so the
#: fourth dynamic-shape rewrite, which reuses the masks and fixed maxima of the first, costs
#: 0.64 of it. Migration leads reading repositories by hand price the same way: at full
#: rates the repositories with many sites or functions of one kind came out 1.4–1.8× above
#: their readings, small ones within (``tests/review/test_review_effort_calibration.py``).
REPEAT = 0.8
#: ... down to this fraction of the first, reached at the ninth unit: every unit is still
#: read, changed and checked in its own context, so a thousand sites of one API cost at
#: least half of a thousand, and the largest repositories move no further than the readers
#: found the large ones high. Nine units cost what 5.8 would at the full rate.
PLATEAU = 0.5
#: Kinds whose units follow a steeper curve than :data:`REPEAT` and :data:`PLATEAU`: kind →
#: (the fraction of each doubling, the floor). The op kinds of one third-party library
#: (a group per library) are one porting job: the first sets the approach (dense masked
#: convolutions for a sparse-convolution library, or a package of custom ops around its
#: kernels), each further kind is a layer on it, the i-th at 1/i of the first down to a
#: fifth: six op kinds of MinkowskiEngine cost what 2.5 custom ops would, where a lead
#: reading a masked-autoencoder's sparse encoder by hand priced its port (six kinds) at
#: about 7 person-days, not the 21.5 that six custom ops made of it.
#: The pretrained backbones of one model zoo (torchvision's AlexNet, VGG-16 and SqueezeNet
#: behind LPIPS's ``net`` switch) share their job too: one script converts the zoo's weights
#: (its parameter names follow one convention) and one comparison harness checks them, so
#: the i-th backbone costs 1/i of the first (its architecture swapped in and compared), down
#: to a third; another zoo starts a group of its own.
CURVES: dict[str, tuple[float, float]] = {
    "library-op": (0.5, 0.2),
    "pretrained-backbone": (0.5, 1 / 3),
    # a framework's network classes share their harness and conventions: the i-th at 1/i
    # of the first, down to a third
    "framework-network": (0.5, 1 / 3),
}
#: Group sizes of each kind's units (:func:`price`): like units are one group, on one curve.
Units = dict[str, tuple[int, ...]]


def repeated(groups: tuple[int, ...], kind: str = "") -> float:
    """The units at the full rate that groups of like units cost on the learning curve: in a
    group the i-th costs ``i ** log2(REPEAT)`` of the first (1, 0.8, 0.70, 0.64...), never
    less than ``PLATEAU``, and each group starts again at the first. A kind of
    :data:`CURVES` follows its own curve."""
    repeat, plateau = CURVES.get(kind, (REPEAT, PLATEAU))
    exponent = math.log2(repeat)
    return sum(sum(max(i**exponent, plateau) for i in range(1, n + 1)) for n in groups)


def _priced_as(groups: tuple[int, ...], kind: str = "") -> str:
    """`` as 5.8`` after a count that repetition lowers (nine dynamic-shape rewrites), else
    nothing: the formula shows what each count is priced as."""
    priced = round(repeated(groups, kind), 1)
    return f" as {priced:g}" if priced < sum(groups) else ""


def price(
    units: Units,
    named: Mapping[str, str] | None = None,
    *,
    parts: Mapping[str, Sequence[str]] | None = None,
) -> tuple[float, float, str, str]:
    """The person-day range of the units (each group of like units on the learning curve,
    times its kind's rates), the formula that gives it and the sentence naming the kinds
    that drive it. A kind's high rate is at most twice its low one, so the range is at most
    2× wide. ``named`` says whose units a kind counts where the kind alone does not (the
    libraries whose op kinds are priced), shown with it among the drivers. ``parts`` names
    what a kind's units are where they are unlike each other (the idiom patterns: the Cell
    skeleton, checkpoints, recompute): a driver that sums unlike work says which, so a
    reader does not take it for one large piece."""
    named = named or {}
    # priced as shown (a tenth of a unit), so the formula's figures multiply to the range
    priced = {k: round(repeated(groups, k), 1) for k, groups in units.items() if sum(groups)}
    low = round(sum(priced[k] * RATES[k][0] for k in priced), 1)
    high = round(sum(priced[k] * RATES[k][1] for k in priced), 1)
    formula = (
        " + ".join(
            f"{sum(units[k])} {k}{_priced_as(units[k], k)} × {RATES[k][0]:g}–{RATES[k][1]:g}"
            for k in priced
        )
        or "nothing to change"
    )
    drivers = sorted(((priced[k] * RATES[k][1], k) for k in priced), key=lambda t: (-t[0], t[1]))
    # a kind that costs exactly as much as the last one named drives the range as much:
    # named too (a gradient penalty at 2 beside a checkpoint at 2), not dropped by its name
    floor = drivers[DRIVERS - 1][0] if len(drivers) >= DRIVERS else 0.0
    driven = ", ".join(
        f"{k}{f' of {named[k]}' if named.get(k) else ''} ({sum(units[k])}"
        f"{_priced_as(units[k], k)} × up to {RATES[k][1]:g} = {round(v, 1):g}"
        + (f": {_listing(list(parts[k]))}" if parts and parts.get(k) else "")
        + ")"
        for i, (v, k) in enumerate(drivers)
        if i < DRIVERS or math.isclose(v, floor)
    )
    return low, high, formula, driven


def _per_zoo(items: list[WorkItem]) -> tuple[int, ...]:
    """The pretrained backbones of each model zoo, by the package their builder is called
    from (``torchvision.models.vgg16`` and ``torchvision.models.alexnet`` are one zoo's;
    the weights a URL downloads are one group): like conversions on one curve."""
    zoos = Counter(re.split(r"[.(:\s]", i.what, maxsplit=1)[0] for i in items)
    return tuple(sorted(zoos.values(), reverse=True))


def _per_api(findings: list[ApiFinding]) -> tuple[int, ...]:
    """The sites of each API: the same substitution repeated is one group on the curve (vits's
    48 ``Conv1d`` rewrites), a different API starts a new one."""
    return tuple(sorted(Counter(f.api for f in findings).values(), reverse=True))


#: The APIs that build or wrap a compiled extension's op: the op's work item covers them.
_EXTENSION_BUILD = "torch.utils.cpp_extension."
_OP_WRAPPER = "torch.autograd.Function"


def _compiled_op_sites(work: tuple[WorkItem, ...]) -> Callable[[ApiFinding], bool]:
    """Whether a gap finding is part of a job the work items already count: a compiled op
    (semseg's PSAMask: its ``autograd.Function`` wrapper and the ``cpp_extension.load``
    building it are the one custom op, not two more gaps): the wrapper in the file that calls
    the op, the build in the same package (the place's folder's parent: ``lib/psa/``); a
    distributed-training framework's API with no counterpart (a gap or a custom op). An op
    priced as a counterpart or a composition (stylegan3's ``bias_act`` through its PyTorch
    twin) covers them too: the counterpart replaces the build and the wrapper."""
    files = {
        w.path
        for i in work
        if i.kind in ("compiled-custom-op", "compiled-op", "op-library", "alternative-op")
        for w in i.where
    }
    packages = {str(PurePosixPath(p).parent.parent) + "/" for p in files}
    # a distributed-training framework's APIs are its one job (FSDP's wrapper, strategies,
    # scaler), priced once
    sharded = {i.what.partition(" (")[0] for i in work if i.kind == "sharded-training"}

    def covered(f: ApiFinding) -> bool:
        if f.disposition in ("gap", "custom-op") and sharded_api(f.api) in sharded:
            return True
        if f.api == _OP_WRAPPER or f.api.startswith(f"{_OP_WRAPPER}."):
            # the wrapper is a gap, or the custom-backward idiom where it subclasses Function
            return f.disposition in ("gap", "idiom") and f.path in files
        if f.disposition != "gap":
            return False
        if f.api.startswith(_EXTENSION_BUILD):
            return f.path in files or any(p != "./" and f.path.startswith(p) for p in packages)
        return False

    return covered


def _variants_once(shapes: list[ShapeFinding]) -> list[tuple[str, str]]:
    """(path, function) of each function to rewrite, a variant counted once: the same
    method in sibling files with the same findings (yolov9's ``BboxLoss.forward`` in
    ``utils/loss_tal.py``, ``loss_tal_dual.py`` and ``loss_tal_triple.py``) is one rewrite
    applied to each copy. The first file names it."""
    found: dict[tuple[str, str], list[str]] = {}
    for f in shapes:
        found.setdefault((f.path, f.function or "<module>"), []).append(f.rule)
    first: dict[tuple[str, str, tuple[str, ...]], tuple[str, str]] = {}
    for (path, function), rules in sorted(found.items()):
        # a method (``Class.method``): a module-level name is too common to tell variants
        key = (str(PurePosixPath(path).parent), function, tuple(sorted(rules)))
        if "." not in function:
            key = (path, *key[1:])
        first.setdefault(key, (path, function))
    return sorted(first.values())


def inherited_shape(f: ShapeFinding) -> bool:
    """A finding whose shape came in with one sample its function was handed (an op computing
    on it, a size read from it), or that only reads a length of a tensor whose shape varies
    (a reshape, a slice bound, a loop or test over that length: co-tracker's model reshaping
    by the number of query points a predictor's mask selected): the function's own ops take
    any shape, the one that varies is decided elsewhere, where the rewrite is. The rule that
    made the finding says so (:attr:`~apiscan.model.ShapeFinding.inherited`)."""
    return f.inherited


Key = tuple[str, str]


def callers_of(analyses: Sequence[FileAnalysis]) -> dict[Key, frozenset[Key]]:
    """(path, function) -> the (path, function) of each repository function calling it, from
    the scan's call facts (callees by their qualified names)."""
    # every name a file is imported by (``cutie.model.x`` from the root, ``model.x`` from a
    # script in ``cutie/``): a call fact names its callee by the one its caller imported
    defined: dict[str, Key] = {}
    for fa in analyses:
        for module in fa.modules:
            for fn in fa.functions:
                defined.setdefault(f"{module}.{fn.qualname}", (fa.path, fn.qualname))
    bases: dict[str, tuple[str, ...]] = {}
    for fa in analyses:
        for module in fa.modules:
            for c in fa.classes:
                bases.setdefault(f"{module}.{c.qualname}", tuple(c.bases))

    def resolved(callee: str) -> Key | None:
        """The function a call runs: the callee itself, or the method a base class defines
        (``self.get_track_feat(...)`` in a subclass runs the base's), nearest base first."""
        todo, seen = [callee], set()
        while todo:
            name = todo.pop(0)
            if name in defined:
                return defined[name]
            owner, _, method = name.rpartition(".")
            if name in seen or not owner:
                continue
            seen.add(name)
            todo += [f"{b}.{method}" for b in bases.get(owner, ()) if b]
        return None

    out: dict[Key, set[Key]] = {}
    for fa in analyses:
        for c in fa.calls:
            callee = resolved(c.callee)
            if callee is not None and c.caller and c.role == "call":
                out.setdefault(callee, set()).add((fa.path, c.caller))
    return {k: frozenset(v) for k, v in out.items()}


def _priced_with_callers(
    shapes: Sequence[ShapeFinding],
    callers: Mapping[Key, frozenset[Key]],
    elsewhere: Collection[Key] = (),
) -> list[Key]:
    """(path, function) of the shape-polymorphic helpers among the functions with
    ``shapes``: every finding of theirs is a shape handed in by a caller
    (:func:`inherited_shape`: ssd's ``intersect`` and ``jaccard``, pairwise IoU of one
    image's boxes and the priors, called from ``match``), and a caller of theirs is rewritten
    itself (or is such a helper of one), directly or through callers that only pass the
    shapes on (ssd's ``match`` has no finding of its own: ``MultiBoxLoss.forward`` calling
    it is the rewrite). Padding in the caller gives the helper fixed shapes: it is no
    rewrite of its own, its findings go with the caller's. ``elsewhere`` are the functions
    counted apart whose own data-dependent ops make such shapes (co-tracker's predictor
    selecting query points with a mask): a helper they reach goes with them."""
    found: dict[Key, bool] = {}
    for f in shapes:
        key = (f.path, f.function or "<module>")
        found[key] = found.get(key, True) and inherited_shape(f)
    rewritten = {k for k, only in found.items() if not only}
    helpers = {k for k, only in found.items() if only}

    sources_elsewhere = set(elsewhere)

    def rewritten_above(key: Key) -> bool:
        seen, frontier = {key}, [key]
        for _ in range(_PASSING_CALLERS + 1):
            up = {c for k in frontier for c in callers.get(k, frozenset())} - seen
            if up & rewritten or up & sources_elsewhere:
                return True
            seen |= up
            # through helpers like this one and callers with no finding (they pass it on)
            frontier = [c for c in up if c in helpers or c not in found]
        return False

    return sorted(k for k in helpers if rewritten_above(k))


#: How many callers with no dynamic-shape finding of their own a helper's varying shapes may
#: pass through on their way from the rewritten function (``MultiBoxLoss.forward`` →
#: ``match`` → ``jaccard`` → ``intersect``: one, with ``jaccard`` a helper too).
_PASSING_CALLERS = 3


def estimate(
    result: ScanResult,
    gaps: tuple[Gap, ...],
    work: tuple[WorkItem, ...] = (),
    ancillary: Ancillary | None = None,
    padded: tuple[tuple[str, str], ...] = (),
    dead: frozenset[tuple[str, str]] = frozenset(),
    cropped: frozenset[tuple[str, str]] = frozenset(),
    masked: frozenset[tuple[str, str]] = frozenset(),
    metrics: frozenset[tuple[str, str]] = frozenset(),
    unbuilt: frozenset[tuple[str, str]] = frozenset(),
    exporting: Mapping[tuple[str, str], str] | None = None,
    reports: frozenset[tuple[str, str]] = frozenset(),
    callers: Mapping[Key, frozenset[Key]] | None = None,
    fixed: tuple[str, ...] = (),
    alternatives: frozenset[tuple[str, str]] = frozenset(),
    called_apart: Sequence[tuple[str, str, tuple[str, ...]]] = (),
    variant_only: frozenset[tuple[str, str]] = frozenset(),
    other_runs: Sequence[str] = (),
) -> Effort:
    """The counts by disposition (network graph first), the custom ops, the dynamic-shape
    rewrites, the work items and a person-day range with its formula, from the files that are
    ported (``ancillary`` files are counted apart). ``fixed`` are the resizes with padding
    to a fixed size the training's data code runs (:func:`~apiscan.review.work.
    fixed_size_inputs`): said beside the input pipelines, no pipeline to price. ``padded``
    are the collate functions that
    pad batches to their largest item: input pipelines like DS119's. ``dead`` are the
    (path, function) that nothing calls: their gaps and custom ops never run (yolov9's
    ``prune``).
    ``cropped`` are the random resizes every composition crops to a fixed size afterwards:
    no input pipeline. ``masked`` are the (path, function) whose masked selections are only
    reduced (:func:`~apiscan.review.masked.masked_reductions`): a masked reduction each, not
    a dynamic-shape rewrite. ``metrics`` are those whose masked selections only feed host
    reads (metrics a loss returns): priced with the training step's host reads (its
    ``step-sync`` work item), neither a rewrite nor a masked reduction. ``unbuilt`` are the
    (path, name) of the module-level classes and functions of ported files that nothing
    builds, calls or names (:func:`~apiscan.review.work.uncalled_functions`: yolov7's
    ``APLoss`` beside the ``ComputeLossOTA`` its training builds): the training and inference
    paths never reach their code, so none of its call sites, dynamic shapes or input
    pipelines is priced; they are listed as not reached. ``exporting`` are the (path, name)
    -> users of those only files counted apart use (:func:`~apiscan.review.work.apart_only`:
    yolov7's ``End2End``, built by ``export.py``): counted apart with their users.
    ``alternatives`` are the (path, class) the run's config leaves out of a pick (a
    registry's other models, the networks only other option files build): not priced,
    listed as alternatives. ``variant_only`` are the (path, name) only variants of ported
    files use (a collate only a sibling training script's loader builds): the shapes they
    pad go with the variant's delta, no input pipeline of the port."""
    del gaps
    exporting = exporting or {}

    def reached(path: str, function: str) -> bool:
        """Code outside every class or function nothing builds or calls, or only code
        counted apart uses."""
        top = (path, function.partition(".")[0])
        # a method only code not reached calls (:func:`~apiscan.review.work.uncalled_methods`)
        method = (path, ".".join(function.split(".")[:2]))
        return (
            top not in unbuilt
            and method not in unbuilt
            and not within(exporting, path, function)
            and top not in alternatives
        )

    # the dispositions carry what the gap list used to decide

    def kept(path: str) -> bool:
        return ancillary is None or not ancillary.why(path)

    # a work item whose every place lies in files counted apart (a checkpoint only an
    # evaluation script or another model's training loads, a launch script's option in a
    # scripts folder) is theirs: listed under Porting work, not priced with the port
    work = tuple(i for i in work if not i.where or any(kept(w.path) for w in i.where))
    covered = _compiled_op_sites(work)
    # a data transform's torch layers are rewritten by its work item, not as network sites
    in_data = data_pipeline_sites(work)
    apis = [
        f
        for f in result.api_findings
        if counted(f)
        and kept(f.path)
        and reached(f.path, f.function)
        and not in_data(f)
        and not covered(f)
        # a gap or custom op in a function nothing calls never runs (DiT's unused
        # ``continuous_gaussian_log_likelihood``): no op to write for it
        and not (f.disposition in ("gap", "custom-op") and (f.path, f.function) in dead)
    ]
    apart = [f for f in result.api_findings if counted(f) and not kept(f.path)]
    # the code of ported files nothing reaches, by class or function, with what it holds
    unreached = sorted(
        {
            (f.path, f.function.partition(".")[0])
            for f in (*[f for f in result.api_findings if counted(f)], *result.shape_findings)
            if kept(f.path) and (f.path, f.function.partition(".")[0]) in unbuilt
        }
    )
    unreached_sites = [
        f
        for f in result.api_findings
        if counted(f) and kept(f.path) and (f.path, f.function.partition(".")[0]) in unbuilt
    ]
    alternative_sites = [
        f
        for f in result.api_findings
        if counted(f)
        and kept(f.path)
        and (f.path, f.function.partition(".")[0]) in alternatives
        and (f.path, f.function.partition(".")[0]) not in unbuilt
    ]
    exported_sites = [
        f
        for f in result.api_findings
        if counted(f)
        and kept(f.path)
        and within(exporting, f.path, f.function)
        and (f.path, f.function.partition(".")[0]) not in unbuilt
    ]
    network = [f for f in apis if f.scope == "network"]

    # the functions that read a device event's elapsed time (I-JEPA's ``gpu_timer``):
    # the events they record time a log line, nothing to port
    timed = {(f.path, f.function) for f in result.api_findings if _EVENT_TIMING.match(f.api)}

    def disposition(f: ApiFinding) -> str:
        if f.disposition == "gap" and _EVENT_RECORD.match(f.api) and (f.path, f.function) in timed:
            return "delete"
        known = gap_rewrite(f.api) if f.disposition == "gap" else None
        if known is not None:
            return known[0]  # a dtype's tensor constructor, a module cast...
        # a computation outside the network graph (a collate padding its batch with
        # ``pad_sequence``, a host-side post-processing) runs on the host in the port:
        # rewritten with NumPy there, no custom op on the device
        if f.disposition == "custom-op" and (not is_custom_op(f) or f.scope != "network"):
            return "rewrite"
        return f.disposition

    rows = []
    for d in WORK:
        every = [f for f in apis if disposition(f) == d]
        rows.append(
            (
                d,
                sum(1 for f in every if f.scope == "network"),
                len(every),
                len({f.api for f in every}),
            )
        )
    by = {d: (net, n, k) for d, net, n, k in rows}
    to_change = [f for f in network if disposition(f) in ("idiom", "rewrite", "custom-op", "gap")]
    custom = sorted({f.api for f in apis if is_custom_op(f) and f.scope == "network"})
    # the ops of a compiled extension that MindSpore lacks are custom ops too
    compiled = sorted(
        item.what.partition(" (")[0] for item in work if item.kind == "compiled-custom-op"
    )
    # ... and a third-party library's op kinds, ported as one job per library
    libraries = [item for item in work if item.kind == "op-library"]
    # the gap APIs are counted by name: named too, so a reader can check each one
    gap_apis = sorted({f.api for f in apis if disposition(f) == "gap"})
    custom_network = sorted({f.api for f in network if is_custom_op(f)})
    patterns = {idiom_pattern(f) for f in apis if f.disposition == "idiom"}
    by_item = CHECKPOINT_PATTERN in patterns and any(
        priced_kind(item) == CHECKPOINT_PATTERN for item in work
    )
    if by_item:
        # the checkpoint item converts the weights and rewrites their loading: its idiom
        # pattern (save, load, state_dict) is that same work, priced once, by the item
        patterns.discard(CHECKPOINT_PATTERN)
    idiom_patterns = len(patterns)
    mechanical = len(patterns & MECHANICAL_IDIOMS)

    def pipeline(f: ShapeFinding) -> bool:
        """Multi-scale training and batches padded to their largest item, wherever the
        padding runs (detectron2 pads in the model's preprocessing): an input pipeline to
        bucket, not a function to rewrite."""
        return f.rule == INPUT_SHAPE_RULE and (f.scope != "network" or f.case == BATCH_PADDING)

    shapes = [
        f
        for f in result.shape_findings
        if f.scope == "network" and kept(f.path) and reached(f.path, f.function) and not pipeline(f)
    ]
    reduced = sorted({(f.path, f.function) for f in shapes if (f.path, f.function) in masked})
    measured = sorted({(f.path, f.function) for f in shapes if (f.path, f.function) in metrics})
    checks = sorted({(f.path, f.function) for f in shapes if (f.path, f.function) in reports})
    shapes = [f for f in shapes if (f.path, f.function) not in masked | metrics | reports]
    # code counted apart (a predictor, a demo) that hands the network its varying shapes is
    # where they come from: the helpers it reaches go with it, not priced
    apart_sources = {
        (f.path, f.function or "<module>")
        for f in result.shape_findings
        if f.scope == "network"
        and (not kept(f.path) or within(exporting, f.path, f.function))
        and not inherited_shape(f)
    }
    helpers = _priced_with_callers(shapes, callers or {}, apart_sources)
    functions = _variants_once(
        [f for f in shapes if (f.path, f.function or "<module>") not in helpers]
    )
    inputs = sorted(
        {
            (f.path, f.function or "<module>")
            for f in result.shape_findings
            if pipeline(f)
            and kept(f.path)
            and reached(f.path, f.function)
            and (f.path, f.function) not in cropped
            and (f.path, (f.function or "").partition(".")[0]) not in variant_only
        }
        # a loader's collate matched by its last name (``collate_fn=dataset.collater``) in a
        # file counted apart or in code the run does not reach (another task's dataset) is
        # no pipeline of the port
        | {
            (path, what)
            for path, what in padded
            if kept(path) and reached(path, what.partition(" (")[0])
        }
    )
    # a model-zoo architecture without weights is priced apart from one with them
    work_counts = Counter(
        "backbone-architecture" if work_label(item) == BACKBONE_ARCHITECTURE else priced_kind(item)
        for item in work
    )
    variants = ancillary.variants() if ancillary is not None else ()
    backbones = [
        i
        for i in work
        if priced_kind(i) == "pretrained-backbone" and work_label(i) != BACKBONE_ARCHITECTURE
    ]
    rewrites = [f for f in apis if disposition(f) == "rewrite"]
    rendered = [f for f in rewrites if f.rewrite]
    # sites are grouped by API, an idiom pattern is work unlike any other, and the units of
    # every other kind (functions, pipelines, work items...) are one group of like work
    units: Units = {
        "delete": _per_api([f for f in apis if disposition(f) == "delete"]),
        "idiom": (1,) * (idiom_patterns - mechanical),
        "mechanical-idiom": (1,) * mechanical,
        "rewrite": _per_api([f for f in rewrites if not f.rewrite]),
        "rendered": _per_api(rendered),
        "custom-op": (len(custom),),
        "gap": (by["gap"][2],),
        "dynamic-shape": (len(functions),),
        "masked-reduction": (len(reduced),),
        "input-shape": (len(inputs),),
        **{
            k: (work_counts.get(k, 0),)
            for kind in WORK_KINDS
            if kind
            not in ("framework-training", "op-library", "network-library", "framework-network")
            and kind not in APART_KINDS
            and kind not in PRICED_WITH_SHAPES
            for k in (kind, *_PRICED_APART.get(kind, ()))
        },
        # a library's op kinds: one group (one learning curve) per library
        "library-op": tuple(i.uses for i in libraries),
        # a zoo's pretrained backbones: one group per zoo
        "pretrained-backbone": _per_zoo(backbones),
        # the repository's checkpoint beside them goes through their conversion script
        "checkpoint": (0 if backbones else work_counts.get(CHECKPOINT_PATTERN, 0),),
        "converted-checkpoint": (work_counts.get(CHECKPOINT_PATTERN, 0) if backbones else 0,),
        # a tensor library's distinct patterns: one group per library
        "network-library": tuple(i.uses for i in work if i.kind == "network-library"),
        # a framework's network classes: one group per framework
        "framework-network": tuple(i.uses for i in work if i.kind == "framework-network"),
        "variant": (len(variants),),
        # a framework's training: each part it uses is a unit of like work
        "framework-training": (sum(i.uses for i in work if i.kind == "framework-training"),),
    }
    low, high, formula, driven = price(
        units,
        {"library-op": ", ".join(library_label(i.what) for i in libraries)},
        parts={
            "idiom": sorted(patterns - MECHANICAL_IDIOMS),
            "mechanical-idiom": sorted(patterns & MECHANICAL_IDIOMS),
        },
    )
    sentences = [
        f"In the network graph: {by['delete'][0]:,} call sites to delete, {by['idiom'][0]:,} "
        f"to rewrite with a MindSpore idiom, {by['rewrite'][0]:,} API substitutions, "
        f"{by['custom-op'][0]:,} uses of tensor computations that may need a custom op "
        f"({_listing(custom_network) or 'none'}) and {by['gap'][0]:,} with nothing known.",
        f"Everywhere ported: {by['delete'][1]:,} deletions (device moves, cache flushes, "
        f"TorchScript markers: no counterpart needed), {by['idiom'][1]:,} idiom sites of "
        f"{idiom_patterns:,} patterns (train step, AMP, checkpoints, data loading...)"
        + (" and the checkpoint pattern, priced once by its work item" if by_item else "")
        + ", "
        f"{by['rewrite'][1]:,} rewrites, {_count(len(custom), 'API')} that may need a custom op "
        f"and {by['gap'][1]:,} gap sites"
        + (f" ({_listing(gap_apis)})" if gap_apis else "")
        + ". Consistent rows need only the rename and are not counted.",
        f"{_count(len(custom), 'API')} may need a custom op: missing tensor computations with no "
        "MindSpore counterpart, idiom, substitution or composition of existing ops (method calls "
        "on receivers not known to be tensors are not counted)"
        + (f": {_listing(custom)}." if custom else "."),
        f"{_count(len(functions), 'dynamic-shape rewrite')}: "
        f"{_count(len(shapes), 'dynamic-shape finding')} in the network graph, counted once "
        "per function because a function is rewritten as a whole (pad and mask, a fixed "
        "maximum)"
        + (f": {_listing([f'{p}:{fn}' for p, fn in functions])}" if functions else "")
        + (
            f"; {_count(len(helpers), 'shape-polymorphic helper')} priced with the callers "
            "that hand them their varying shapes (once the caller pads, they need no rewrite): "
            + _listing([f"{p}:{fn}" for p, fn in helpers])
            if helpers
            else ""
        )
        + ".",
        *(
            [
                f"{_count(len(reduced), 'masked reduction')}: functions whose boolean-mask "
                "selections are only reduced (a mean, a variance, a loss over the valid "
                "elements), rewritten the known way, a masked sum over the mask's count, not "
                f"made static as a whole: {_listing([f'{p}:{fn}' for p, fn in reduced])}."
            ]
            if reduced
            else []
        ),
        *(
            [
                f"{_count(len(measured), 'metrics computation')}: functions whose boolean-mask "
                "selections only feed host reads (metrics a loss returns for the log), priced "
                "with the training step's host reads, not made static: "
                f"{_listing([f'{p}:{fn}' for p, fn in measured])}."
            ]
            if measured
            else []
        ),
        *(
            [
                f"{_count(len(checks), 'debugging check')}: functions whose branches on "
                "tensor values only print or log (a range check on the input), not made "
                "static: deleted from the compiled network or kept outside it, their host "
                "reads priced with the training step's: "
                f"{_listing([f'{p}:{fn}' for p, fn in checks])}."
            ]
            if checks
            else []
        ),
        f"{_count(len(inputs), 'input pipeline')} with multi-scale training or "
        "dataset-dependent input shapes (" + INPUT_SHAPE_RULE + ", or a collate function "
        "whose batches vary in shape: padded to their largest item, or of a length drawn per "
        "batch): each needs fixed buckets "
        "or padding so the compiled network sees a few static shapes"
        + (f": {_listing([f'{p}:{fn}' for p, fn in inputs])}." if inputs else ".")
        + (
            " The training input is resized and padded to a fixed size (one static input "
            f"shape for the compiled network; per-sample target counts still vary): "
            f"{_listing(list(fixed))}."
            if fixed
            else ""
        ),
        f"{_count(len(work), 'work item')} beyond the API tables (host round trips, pretrained "
        "backbones, third-party layers, checkpoint formats, unsupported parameters, ops of "
        "compiled extensions, third-party op libraries), each listed under Porting work"
        + (
            f"; {_count(len(compiled), 'compiled op')} with no MindSpore counterpart "
            f"({_listing(compiled)}) to write as custom ops"
            if compiled
            else ""
        )
        + "".join(
            f"; {library_label(i.what)}: one porting job of {_count(i.uses, 'op kind')} "
            f"({_listing(list(library_ops(i.what)))}), the i-th kind priced at 1/i of the "
            "first"
            for i in libraries
        )
        + "".join(
            f"; {i.what.partition(' (')[0]}: {_count(i.uses, 'pattern')} rewritten once each"
            for i in work
            if i.kind == "network-library"
        )
        + "".join(
            f"; not counted: {i.what.partition(' (')[0]} "
            + ("(alternatives only)" if i.kind == "alternative-op" else "(evaluation only)")
            for i in work
            if i.kind in APART_KINDS
        )
        + ".",
        f"Person-days: {low:g}–{high:g} = {formula} (rates per deleted site, distinct idiom "
        "pattern (train step, data loading, checkpoints, AMP, the Cell skeleton...), mechanical "
        "idiom pattern (a rename or deletion: cell walks, mode switches, no_grad, device, "
        "seeds...), site rewritten by hand, site whose rewrite the template renders (applied by "
        "`apiscan fix` once `apiscan verify` passes its form), custom op, gap API, function, "
        "input pipeline, work item; replace them with your own). Repeated work is priced on a "
        f"learning curve, each doubling of a count at {REPEAT:g}× the unit before, down to "
        f"{PLATEAU:g}× the first (a count shown 'as' fewer units): one curve for each kind's "
        "functions, pipelines or work items, one for the sites of each API; every idiom "
        "pattern at the full rate." + (f" What drives it: {driven}." if driven else ""),
    ]
    if variants:
        sentences.append(
            f"{_count(len(variants), 'variant')} of ported files counted as a delta each, "
            "not a second port (sibling training scripts and the modules only they import): "
            + _listing(list(variants))
            + "."
        )
    if ancillary is not None:
        files = ancillary.listing()
        sentences.append(
            f"Counted apart: {_count(len(files), 'file')} not ported with the model (tools, "
            "demos, exports, hub files, plotting, notebooks, adapters for other frameworks; "
            "`review-ancillary` in [tool.apiscan] sets the patterns), "
            f"{len(apart):,} API call sites, {len({f.api for f in apart}):,} APIs"
            + (": " + _listing(sorted({w for _, w in files})) + "." if files else ".")
        )
    if called_apart:
        # ``model_export(...)`` in the training loop, defined in an export script counted
        # apart: the port drops the call or ports that code too
        sentences.append(
            "Called by ported code from files counted apart: "
            + _listing(
                [
                    f"{name} ({why}) at {', '.join(places[:3])}"
                    + (f" and {len(places) - 3} more" if len(places) > 3 else "")
                    for name, why, places in called_apart
                ]
            )
            + "; the port drops these calls or carries what they call over with the model "
            "(as it is where that code uses no torch)."
        )
    if unreached:
        sentences.append(
            f"Not reached: {_count(len(unreached), 'class or function', 'classes or functions')} "
            "of ported files that nothing builds, calls or names (no config string, registry "
            "or base class either) or that only such code uses, counted apart and not priced, "
            f"{_count(len(unreached_sites), 'API call site')}: "
            + _listing([f"{p}:{name}" for p, name in unreached])
            + "."
        )
    shown = sorted({(f.path, f.function.partition(".")[0]) for f in alternative_sites})
    if shown:
        sentences.append(
            "Alternatives the run's config does not pick: "
            f"{_count(len(shown), 'class or function', 'classes or functions')} only "
            "another config builds (a registry's other models, the networks only other "
            "option files name, and what only they reach), not priced, "
            f"{_count(len(alternative_sites), 'API call site')}: "
            + _listing([f"{p}:{name}" for p, name in shown])
            + "."
        )
        if other_runs:
            # the documented commands that train the same script with other choices (a
            # second README command switching the stages a model is assembled from)
            sentences.append(
                "The documented commands also train with other options of the same "
                "script (the review follows the first; what only they build is among the "
                "alternatives): " + "; ".join(other_runs) + "."
            )
    if exporting:
        sentences.append(
            "Used only by files counted apart: "
            f"{_count(len(exporting), 'class or function', 'classes or functions')} "
            "of ported files that only those files build, call or name, counted apart with "
            f"them and not priced, {_count(len(exported_sites), 'API call site')}: "
            + _listing([f"{p}:{name} ({users})" for (p, name), users in exporting.items()])
            + "."
        )
    checks = verify_first(network)
    if checks:
        sentences.append(
            "Verify first (the network's APIs whose MindSpore counterpart a micro-test "
            "compares with PyTorch, riskiest first: a documented difference, then parameters "
            "passed that differ): " + "; ".join(checks) + "."
        )
    known = [f for f in network if f.status != "unknown" and f.mindtorch is not None]
    # MindTorch runs PyTorch code, never a third-party library's kernels
    library_names = sorted({library_label(i.what) for i in libraries})
    covered = sum(1 for f in known if f.mindtorch)
    lacks = tuple(
        sorted(
            {f.api for f in known if not f.mindtorch}
            | {op for i in libraries for op in library_ops(i.what)}
        )
    )
    total = len(known) + sum(i.uses for i in libraries)
    sentences.append(
        f"Routes: native rewrite: {len(to_change):,} network call sites to change, "
        f"{_count(len(custom_network), 'custom op')}; MindTorch 0.4.0 (PyTorch code run "
        f"through mindtorch.torch): covers {covered:,} of {total:,} network call sites"
        + (f", lacks {_listing(list(lacks))}" if lacks else ", lacks none of the APIs used")
        + " (read statically from its wheel: a lower bound)"
        + (
            f"; it runs no third-party library's kernels: the ops of {_listing(library_names)} "
            "are ported on either route."
            if library_names
            else "."
        )
    )
    errors = {f.path for f in result.error_findings}
    # a file counted apart that could not be read (another framework's Python 2 scripts
    # beside the torch half) costs the port nothing: it is not what the estimate misses
    apart = {p for p in errors if ancillary is not None and ancillary.why(p)}
    if errors - apart:
        sentences.append(
            f"{_count(len(errors - apart), 'file')} could not be analysed; what they use is "
            "not counted."
        )
    if apart:
        sentences.append(
            f"{_count(len(apart), 'file')} counted apart could not be analysed either "
            "(not ported with the model: nothing missing from the estimate)."
        )
    return Effort(
        call_sites_to_change=len(to_change),
        custom_ops=len(custom) + len(compiled) + sum(i.uses for i in libraries),
        dynamic_shape_rewrites=len(functions),
        explanation=tuple(sentences),
        by_disposition=tuple(rows),
        input_shape_rewrites=len(inputs),
        person_days=(low, high),
        formula=formula,
        mindtorch_covered=covered,
        mindtorch_total=total,
        mindtorch_lacks=lacks,
    )
