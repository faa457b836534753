"""The feasibility review's results model: what ``apiscan review`` renders (markdown/html/json).

Built on top of a scan (:class:`apiscan.model.ScanResult`) and the per-file facts of the same
run; every item points at the file and line it comes from, so a reader can check it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from apiscan.model import position

REVIEW_SCHEMA_VERSION = "1.3"

#: The recipe checklist of the seed guides, in the order the review shows it, with labels.
RECIPE_CATEGORIES: dict[str, str] = {
    "optimizer": "Optimizer",
    "scheduler": "LR schedule",
    # per-step values written into the optimizer's weight decay (a cosine from 0.04 to 0.4)
    "wd_schedule": "Weight-decay schedule",
    "bn_momentum": "BN momentum schedule",
    "warmup": "Warm-up",
    "loss": "Loss",
    "amp": "Mixed precision",
    "ema": "EMA of weights",
    "grad_clip": "Gradient clipping",
    "grad_accum": "Gradient accumulation",
    # a GAN's updates: how many discriminator steps per generator step
    "alternation": "Update alternation",
    # a setting the training loop changes over the steps besides the LR (a Gumbel-softmax
    # temperature annealed from a start to a minimum)
    "anneal": "Annealed settings",
    "distributed": "Distributed training",
    "augmentation": "Data augmentation",
    # an inference-only repository's input transforms (the inference path's preprocessing),
    # and a training pipeline's steps applied to every input alike (ToTensor, Normalize)
    "preprocessing": "Preprocessing (input steps)",
    # and what it does to the network's output (upscale to the input's size, threshold)
    "postprocessing": "Postprocessing (inference)",
    # the settings an inference-only model runs with by default (a matcher's thresholds)
    "runtime": "Runtime settings (inference)",
    # an inference-only generator's decoding: its sampling settings and draw, the loop
    # around the network (host reads per step, caches growing per step), and a loss
    # function that scores outputs (token log-probabilities), no training loss
    "sampling": "Sampling (decoding)",
    "decoding": "Decode loop",
    "scoring": "Scoring (inference)",
    "dataloader": "Data loading",
    "batch_size": "Batch size",
    # counted in epochs or in iterations (stargan's --num_iters, detectron2's MAX_ITER)
    "epochs": "Training length",
    "seed": "Random seed",
    "init": "Initialisation",
    # the settings the run constructs its top model with (MoCo's queue length, momentum and
    # temperature; a detector's number of queries): the numbers the port's model takes
    "model": "Model settings",
    "backbone": "Backbone",
    # a pretrained model the training step runs beside the trained network, its outputs the
    # targets of a loss (a frozen CLIP distilled into the network)
    "teacher": "Teacher model (distillation)",
    "checkpoint": "Checkpoint",
    # what the training writes: the parts of the state it saves and when
    "checkpoint_save": "Checkpoint written",
}


#: Categories a recipe rarely has: not listed among those "not found in the code".
RARE_CATEGORIES = frozenset(
    {
        "checkpoint_save",
        "bn_momentum",
        "wd_schedule",
        "preprocessing",
        "postprocessing",
        "model",
        "runtime",
        "alternation",
        "anneal",
        "sampling",
        "decoding",
        "scoring",
        "teacher",
    }
)


@dataclass(frozen=True, slots=True)
class Where:
    path: str  # POSIX, relative to the scanned root
    line: int  # in a notebook: the line within the cell
    #: A notebook's cell (1-based, every cell counted, as the scan's findings count them);
    #: 0 outside notebooks.
    cell: int = 0

    def __str__(self) -> str:
        """``train.py:12``, or ``nb.ipynb:cell 3:12`` as the text report writes it."""
        return f"{self.path}:{position(self.line, cell=self.cell)}"


@dataclass(frozen=True, slots=True)
class RecipeItem:
    """One fact of the training recipe, e.g. ("optimizer", "torch.optim.SGD", {"lr": "0.01"}).

    ``values`` maps argument names to their source text, or to the literal it resolves to
    (``"args.lr" → "0.01 (argparse default, tools/train.py:30)"``); ``unresolved`` says where
    a value is set when it is not a literal in the repository.
    """

    category: str  # optimizer, scheduler, warmup, loss, amp, ema, grad_clip, grad_accum,
    #                distributed, augmentation, dataloader, seed, init, epochs, batch_size
    name: str  # the API or pattern, e.g. "torch.optim.SGD", "EMA of weights"
    where: Where
    values: tuple[tuple[str, str], ...] = ()
    note: str = ""
    #: The row is the inference path's precision, not the training's: a tool's half precision
    #: (detect.py's ``model.half()``, an evaluation script's ``--fp16``) or a cast made for
    #: inference, measuring or a checkpoint. The review keeps such rows only for a repository
    #: that trains nothing, where the inference path is what is ported.
    inference_precision: bool = False


@dataclass(frozen=True, slots=True)
class ModuleNode:
    """An nn.Module subclass of the repository."""

    cls: str  # fully qualified
    where: Where
    role: str  # backbone, neck, head, loss, model, block, other
    children: tuple[str, ...] = ()  # fully qualified repo classes it builds in __init__
    layers: tuple[tuple[str, int], ...] = ()  # torch layer class -> how many it builds


@dataclass(frozen=True, slots=True)
class ThirdParty:
    package: str  # top-level import name: torchvision, mmcv, timm, apex...
    uses: tuple[str, ...]  # what the repo uses from it (dotted names), sorted
    files: int


@dataclass(frozen=True, slots=True)
class Gap:
    """A missing or different API used in the network graph, with what to do about it."""

    api: str
    status: str
    uses: int
    where: tuple[Where, ...]
    mindspore_api: str | None
    note: str
    suggestion: str = ""
    #: What the uses ask (see apiscan.model.Disposition): the review groups gaps by it.
    disposition: str = ""


@dataclass(frozen=True, slots=True)
class Effort:
    """A transparent estimate: the counts it is made of, and the sentence that explains them."""

    call_sites_to_change: int
    custom_ops: int
    dynamic_shape_rewrites: int
    explanation: tuple[str, ...]
    #: (disposition, network call sites, all call sites, distinct APIs), in work order.
    by_disposition: tuple[tuple[str, int, int, int], ...] = ()
    #: Multi-scale training / dataset-dependent input shapes (DS119), functions counted once.
    input_shape_rewrites: int = 0
    #: The person-day range and the formula that produced it.
    person_days: tuple[float, float] = (0.0, 0.0)
    formula: str = ""
    #: The MindTorch route: network call sites it covers, of how many, and the APIs it lacks.
    mindtorch_covered: int = 0
    mindtorch_total: int = 0
    mindtorch_lacks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WorkItem:
    """Porting work that the API tables do not show, with its places and why it matters.

    ``kind`` is one of :data:`WORK_KINDS`: a host round trip in the network or loss path, a
    pretrained backbone from a model zoo, a checkpoint to convert, a parameter MindSpore
    lacks that a call really passes, an op of a compiled extension the ported code calls
    (``compiled-op`` where MindSpore has a counterpart, ``compiled-custom-op`` where not), a
    third-party library of compiled ops (``op-library``: ``uses`` counts its op kinds).
    """

    kind: str
    what: str
    where: tuple[Where, ...]
    why: str
    uses: int = 1


#: What the recipe says when the code trains nothing.
INFERENCE_ONLY = (
    "Inference only: no optimizer, loss or augmentation found; the recipe below is the "
    "inference path."
)
#: Work item kinds, in the order the review lists them, with their headings.
WORK_KINDS: dict[str, str] = {
    "host-round-trip": "Host round trip",
    # values the training loop reads on the host each step (loss.item() logged): one minor
    # item for the repository, a synchronisation per step
    "step-sync": "Host read per training step",
    # two networks trained against each other in one step (a GAN's generator and
    # discriminator), each loss with its own backward pass and optimizer: two gradient
    # functions over separate parameter sets in MindSpore
    # (a GAN's generator and discriminator, an actor and its critic)
    "adversarial-step": "Networks trained in turn (two or more optimizers)",
    # non-maximum suppression in the network: as many boxes as survive, a count that is data
    # (listed with its places; priced with the dynamic-shape rewrites of its functions)
    "suppression": "Non-maximum suppression (data-dependent box count)",
    # a plain tensor attribute the network copies to the device each step (``self.logvar[t]
    # .to(device)``): registered as a buffer, a one-line change
    "host-buffer": "Tensor attribute kept on the host, copied each step",
    "pretrained-backbone": "Pretrained backbone",
    # a model library's layer built into the model (timm's PatchEmbed): a small port
    "zoo-layer": "Third-party layer",
    # a training library's machinery a training script builds (timm's create_transform,
    # Mixup, SoftTargetCrossEntropy, create_optimizer, ModelEma): replaced in the port
    "training-library": "Training machinery of a library",
    # a tensor-parallel library's layers the network is built from (fairscale's
    # ColumnParallelLinear): plain layers on one device or shard strategies, one job
    "model-parallel": "Tensor-parallel layers of a library (one porting job)",
    # a package no table knows, by what the ported path uses it for: a pretrained model the
    # network calls (clip.load), layers it runs (a rasteriser), the data pipeline's objects
    # (torchtext's Field and BucketIterator)
    "third-party-model": "Pretrained model of a third-party package",
    "third-party-layer": "Third-party layers in the network",
    "third-party-data": "Third-party data pipeline",
    # the repository's own copy of synchronized BatchNorm or of a data-parallel wrapper:
    # MindSpore's SyncBatchNorm or data-parallel mode in its place
    "vendored-parallel": "Own copy of multi-device machinery (MindSpore built-in)",
    "checkpoint": "Checkpoint loading",
    "unsupported-param": "Unsupported parameter",
    # a parameter whose only effect is in place or in memory (``inplace=True``): dropped,
    # the values are the same; one low-effort note per parameter
    "memory-param": "Unsupported parameter (no numeric effect)",
    # a torch.nn layer built inside forward: a Cell built in construct
    "cell-in-construct": "Layer built in forward (Cell in construct)",
    # BatchNorm momentum written on the layers (``m.momentum = 0.03``): 1 − v in MindSpore
    "bn-momentum": "BatchNorm momentum set as an attribute",
    # a cache the network reads that grows by a step per call (a KV cache sliced up to a
    # Python position): a static-shape cache in graph mode
    "growing-cache": "Cache growing per decoding step",
    # tensor values read on the host once per generated token (a stop test, a beam search's
    # .item()/.tolist()): a device wait per token
    "decode-sync": "Host read per decoding step",
    # a layer's Parameter assigned to another layer (an embedding tied to the output
    # projection): the same Parameter given to both Cells in MindSpore
    "tied-weights": "Weights shared between layers",
    # a loss a forward stores on the module (``self.last_loss``) and the training step reads
    # back from the model: returned by the construct for value_and_grad
    "loss-attribute": "Loss handed back through a module attribute",
    # BatchNorm layers put in eval mode after model.train(): set_train cascades in MindSpore
    "bn-frozen": "BatchNorm frozen in training",
    # forward hooks collecting intermediate outputs: returned explicitly in graph mode
    "forward-hook": "Forward hook collecting outputs",
    # methods of a built object (a zoo backbone) replaced with types.MethodType
    "patched-method": "Methods replaced on a built network",
    # a Module's buffers or parameters written in place while it runs (an EMA codebook),
    # with the collectives it runs there: Parameter assignments in MindSpore
    "state-in-forward": "State updated in forward",
    # a torch.distributed collective in a forward that writes no state (a loss's
    # cross-correlation all-reduced): MindSpore's communication op inside construct
    "collective-in-forward": "Collective in forward",
    # a data transform computing with torch per sample (a blur from nn.Conv2d)
    "data-torch-op": "Torch computation in the data pipeline",
    # an op of the repository's compiled CUDA/C++ extension (FCOS's ROIAlign, DCNv2)
    "compiled-op": "Compiled op (MindSpore counterpart)",
    "compiled-custom-op": "Compiled op (custom op)",
    # a compiled op only the alternatives the configured run does not build use: listed
    "alternative-op": "Compiled op of alternatives only (counted apart)",
    # a third-party library of compiled ops (MinkowskiEngine, torch_scatter) the network uses
    # through a few layer types: one porting job per library, its op kinds listed
    "op-library": "Third-party op library (one porting job)",
    # a pure-Python library the network's code calls with no MindSpore backend (einops'
    # patterns): each distinct pattern rewritten in MindSpore ops
    "network-library": "Tensor library in the network",
    # the network classes of a framework the repository is built on that its own classes
    # extend (detectron2's GeneralizedRCNN, RPN, StandardROIHeads): ported with the model
    "framework-network": "Network classes of the framework it is built on",
    # an evaluation metric running a network of its own (FID's Inception-v3): counted apart
    "evaluation-library": "Evaluation metric library (counted apart)",
    # the network's input built as a sparse library's tensor in the training step: every
    # layer runs on the library, whose core is ported before its op kinds
    "library-foundation": "Network built on a third-party op library",
    # a distributed-training framework (FSDP, DTensor): MindSpore's parallel training and
    # optimizer sharding instead, one job however many of its APIs are used
    "sharded-training": "Sharded training (one porting job)",
    # gradients of gradients (a gradient penalty), through the repository's autograd
    # Functions where it has some
    "second-order-grad": "Second-order gradient",
    # the training loop, networks and losses of an installed framework the training entry
    # point hands the option file to (basicsr's ``train_pipeline``): none of it scanned
    "framework-training": "Training in a third-party framework",
}
#: The heading of a model-zoo backbone item that loads no weights: the architecture alone.
BACKBONE_ARCHITECTURE = "Backbone architecture"
#: ... and of one built by a hub entry point that decides itself whether it loads weights.
HUB_BACKBONE = "Backbone (hub default weights)"
#: What a backbone item's note says when the calls that run give its weights flag only
#: ``False``/``None`` (the weights come from the repository's checkpoint).
ARCHITECTURE_ONLY = "(architecture only: "
#: What a backbone item's ``what`` shows when it loads weights (``pretrained=True``,
#: ``weights=...``, ``pretrained weights``, ``downloaded by URL``).
_LOADS_WEIGHTS = ("pretrained", "weights=", "by URL")


#: The labels of categories whose training-run wording misleads in an inference-only review
#: (a process group set up to split one model over devices: no training is distributed).
INFERENCE_LABELS: dict[str, str] = {"distributed": "Distributed (multi-device inference)"}


def recipe_label(category: str, inference_only: bool = False) -> str:
    """The heading of a recipe category, the inference wording where the review is of an
    inference-only repository."""
    if inference_only and category in INFERENCE_LABELS:
        return INFERENCE_LABELS[category]
    return RECIPE_CATEGORIES.get(category, category)


#: the work items about shapes that change at run time, which the scan's dynamic-shape rules
#: do not report (a decoding cache growing per step, a data-dependent box count)
SHAPE_WORK_KINDS = ("growing-cache", "suppression")


def shape_work_note(review: Review) -> str:
    """Where the dynamic-shape section sends a reader when the shapes that change at run time
    are work items, not rule findings (an LLM's KV cache growing per decoding step: "No
    dynamic-shape findings" alone would contradict the porting work); "" when none is."""
    labels = [work_label(i) for i in review.work if i.kind in SHAPE_WORK_KINDS]
    if not labels:
        return ""
    listed = ", ".join(dict.fromkeys(labels))
    return f"Shapes that change at run time are listed under Porting work: {listed}."


def work_label(item: WorkItem) -> str:
    """The heading of a work item: its kind's, except that a model-zoo backbone built without
    weights is a "Backbone architecture" (a port of the architecture, no weight conversion):
    calling it pretrained would send a reader looking for a checkpoint that does not exist."""
    label = WORK_KINDS.get(item.kind, item.kind)
    if item.kind != "pretrained-backbone" or any(w in item.what for w in _LOADS_WEIGHTS):
        return label
    # a hub load whose weights flag is given only False/None builds the architecture alone;
    # one that passes no flag leaves the weights to the entry point's default
    if item.what.startswith("torch.hub.load(") and ARCHITECTURE_ONLY not in item.why:
        return HUB_BACKBONE
    return BACKBONE_ARCHITECTURE


@dataclass(frozen=True, slots=True)
class TopModel:
    """The model a builder returns, with the parts injected into it (``backbone`` ← the class
    ``build_backbone(args)`` returns)."""

    cls: str  # fully qualified
    where: Where  # the construction in the builder
    builder: str  # the function that constructs it ("" at module level)
    parts: tuple[tuple[str, str], ...] = ()  # (parameter, class or expression)


@dataclass(frozen=True)
class Review:
    root: str
    tool_version: str
    recipe: tuple[RecipeItem, ...]
    modules: tuple[ModuleNode, ...]
    coverage: dict[str, dict[str, int]]  # scope -> status -> call sites
    gaps: tuple[Gap, ...]
    dynamic_shape: tuple[tuple[Where, str, str, str], ...]  # where, rule, scope, message
    sparse: tuple[Where, ...]
    extensions: tuple[tuple[str, Where], ...]  # (what, where): .cu files, cpp_extension, Function
    third_party: tuple[ThirdParty, ...]
    effort: Effort
    errors: tuple[tuple[str, str], ...] = field(default=())  # files that could not be analysed
    #: Porting work beyond the API gaps (host round trips, backbones, checkpoints...).
    work: tuple[WorkItem, ...] = field(default=())
    #: The models the training or inference entry builds, through builders and injection.
    top_models: tuple[TopModel, ...] = field(default=())
    #: True when no optimizer, loss or augmentation was found: the recipe is the inference path.
    inference_only: bool = False
    #: Files counted apart from the effort (tools, demos, exports, hub files, adapters...).
    ancillary: tuple[tuple[str, str], ...] = field(default=())  # (path, why)
    #: The module classes a pick by the run's config leaves out (a registry's other models):
    #: what another config builds, shown apart in the tree and not priced.
    alternatives: tuple[str, ...] = field(default=())
