"""The "Recipe" part of the feasibility review: the training recipe, read from the code.

A migration is judged by whether the MindSpore run reaches the reference accuracy, and that
depends on the whole recipe (optimizer and its arguments, schedule and warm-up, EMA, mixed
precision, augmentations, batch size, epochs...), not only on the network. The seed guides ask
for that recipe before any code is moved; this module fills the checklist in, each item with
the file and line it comes from so a reader can check it.

Where it reads from:

- The scan's API findings anchor everything torch marks (``torch.optim.SGD``, ``LinearLR``,
  ``torch.autocast``, ``clip_grad_norm_``...): the finding's span locates the ``ast.Call`` in
  the file, and the call's arguments are bound to the API's parameter names from the torch
  index the scan already uses. Names are never re-resolved here.
- What no torch API marks is read from the same trees: argparse options, attributes set by
  config classes (YOLOX-style ``Exp``), hand-written EMA loops, gradient accumulation, repo
  classes and functions the call facts name (schedulers, losses, transforms), torchvision /
  numpy / ``random`` calls (through the file's own import statements, since the scan only
  resolves torch names), and launch scripts (``torchrun``).

Each file is parsed once for the whole review (:class:`~apiscan.review.sources.Sources`).
Calls of repository functions and classes are the scan's call facts, resolved to the def they
reach by the solver's own lookup (:func:`apiscan.program.solver.callee_resolver`). Values are
followed where they are literals in the repository (:class:`_Values`): the scan's abstract
values say whether a value is static or read from tensor data, not which literal it is, so the
argument expressions are read here; otherwise the text says where the value comes from. Test
files are left out: their optimizers and seeds are not the training recipe.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from apiscan.extract.records import CallFact, FileAnalysis
from apiscan.extract.syntax import (
    INIT_FUNCTIONS,
    is_literal,
    literal_value,
    name_chain,
    own_body,
    single_target,
)
from apiscan.extract.values import (
    AssignValues,
    CallValues,
    DefValues,
    Expr,
    FileValues,
    ValueReader,
)
from apiscan.model import ApiFinding, ScanResult
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.program.solver import callee_resolver
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review.model import RECIPE_CATEGORIES, RecipeItem, Where
from apiscan.review.sources import (
    TEXT_LIMIT,
    Def,
    FuncDef,
    Source,
    Sources,
    callee_name,
    is_test_path,
    place,
    with_facts,
)

#: Order of the recipe's sections (the checklist of the seed guides).
CATEGORIES: tuple[str, ...] = tuple(RECIPE_CATEGORIES)

#: How far a value is followed (name → assignment → argparse default ...) before giving up.
MAX_DEPTH = 5
#: A parameter is followed into each of its call sites when it has at most this many.
MAX_SITES = 3

# ------------------------------------------------------------------- what the findings mean
_OPTIMIZER = re.compile(r"torch\.optim\.(?!Optimizer$)[A-Z]\w*")
_SCHEDULER = re.compile(
    r"torch\.optim\.(lr_scheduler\.(?!_?LRScheduler$)[A-Z]\w*|swa_utils\.SWALR)"
)
_LOSS_CLASS = re.compile(r"torch\.nn\.[A-Z]\w*Loss")
_LOSS_FUNCTIONS = frozenset(
    {"cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div"}
)
_AMP = frozenset({"autocast", "GradScaler"})
_HALF = frozenset({"torch.Tensor.half", "torch.nn.Module.half"})
_EMA_APIS = frozenset(
    {"torch.optim.swa_utils.AveragedModel", "torch.optim.swa_utils.get_ema_multi_avg_fn"}
)
_CLIP = frozenset(
    {
        "torch.nn.utils.clip_grad_norm_",
        "torch.nn.utils.clip_grad_value_",
        "torch.nn.utils.clip_grad_norm",
        "torch.nn.utils.clip_grads_with_norm_",
    }
)
_DISTRIBUTED = frozenset(
    {
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "torch.distributed.init_process_group",
        "torch.multiprocessing.spawn",
        "torch.multiprocessing.start_processes",
        "torch.nn.SyncBatchNorm",
        "torch.nn.SyncBatchNorm.convert_sync_batchnorm",
        "torch.utils.data.DistributedSampler",
        "torch.utils.data.distributed.DistributedSampler",
        "torch.distributed.fsdp.FullyShardedDataParallel",
    }
)
_LAUNCH_MODULES = ("torch.distributed.launch", "torch.distributed.run", "torch.distributed.elastic")
_LOADER = frozenset(
    {
        "torch.utils.data.DataLoader",
        "torch.utils.data.RandomSampler",
        "torch.utils.data.SequentialSampler",
        "torch.utils.data.BatchSampler",
        "torch.utils.data.WeightedRandomSampler",
        "torch.utils.data.SubsetRandomSampler",
    }
)
_SEED_NAMES = frozenset({"manual_seed", "manual_seed_all", "use_deterministic_algorithms"})
#: Non-torch seeds, named through the file's own imports.
_FOREIGN_SEEDS = frozenset({"numpy.random.seed", "random.seed"})
_AUG_PACKAGES = ("torchvision.transforms.", "albumentations.")
#: Repo classes by torch ancestor: what instantiating one means for the recipe.
_ANCESTOR_CATEGORY = (
    ("torch.optim.lr_scheduler.", "scheduler"),
    ("torch.optim.", "optimizer"),
    ("torch.utils.data.", "dataloader"),  # loaders and samplers only (_SAMPLERS)
    ("torch.nn.parallel.", "distributed"),
)
_SAMPLERS = re.compile(r"torch\.utils\.data\.(\w*Sampler|DataLoader)")
#: Arguments that are data (the model, the dataset, a tensor, the optimizer), not settings:
#: shown as written.
_DATA_PARAMS = frozenset(
    {"params", "parameters", "module", "model", "dataset", "data_source", "tensor", "input",
     "target", "fn", "optimizer"}
)  # fmt: skip

# ------------------------------------------------------------------------- names and words
#: Receivers whose attributes are command-line options.
_ARG_RECEIVERS = frozenset({"args", "opt", "opts", "flags", "FLAGS", "parsed", "hparams", "hp"})
#: Receivers whose attributes are settings of a config object.
_CONFIG_RECEIVERS = frozenset(
    {"exp", "cfg", "config", "conf", "cfgs", "configs", "settings", "params", "C", "hyp"}
)
_WEIGHT_ITER = re.compile(r"\b(state_dict|parameters|named_parameters|buffers|named_buffers)\(")
_NO_GRAD = re.compile(r"\b(no_grad|inference_mode)\b")
_AUG_NAME = re.compile(
    r"flip|mirror|random_?crop|jitter|hsv|mosaic|mix_?up|cutmix|cutout|affine|perspective"
    r"|rotate(?!d)|erasing|augment(?!ed)|^random_\w*(drop|scale|shift|rotat|crop|flip|jitter|eras|noise|resize|affine)|(^|_)shift_\w*(cloud|image|img)",
    re.IGNORECASE,
)
#: Places whose flips and jitters draw pictures or evaluate, not augment.
_NOT_AUG_CONTEXT = re.compile(r"visuali[sz]|plot|draw|eval", re.IGNORECASE)
#: A repository function named for a schedule (``cosine_scheduler``): its category waits
#: for what its result is stored as.
_SCHEDULE_FUNCTION = "schedule function"
#: Names of such functions: ``cosine_scheduler``, MAE's ``adjust_learning_rate``.
_SCHEDULE_NAME = re.compile(r"sched|(adjust|set|update)_(lr|learning_rate)", re.IGNORECASE)
#: What an LR or weight-decay schedule is stored as (``lr_schedule``, ``wd_schedule``,
#: ``self.lr_scheduler``), never a momentum, noise or beta schedule.
_LR_SCHEDULE = re.compile(r"(^|[._])(lr|wd|learning_rate|weight_decay)(_|$)", re.IGNORECASE)
_LR_NAME = re.compile(r"(^|_)(lr|learning_rate)(_|$)", re.IGNORECASE)
_NO_AUG = re.compile(r"no_?aug|close_mosaic|(disable|stop|close)_(aug\w*|mosaic|mix_?up)", re.I)
_TRANSFORM_CLASS = re.compile(
    r"transform(?!er)|augment(?!ed)|mosaic|mix_?up", re.IGNORECASE
)  # not Transformer: a model
#: Datasets whose names say they augment what they load.
_AUG_DATASET = re.compile(r"augment(?!ed)|mosaic|mix_?up|cutmix", re.IGNORECASE)
#: Modules whose transform classes are data transforms (not box coders or model parts).
_DATA_MODULE = re.compile(r"data|transform|augment|pipeline|preprocess|input", re.IGNORECASE)
#: Repo classes that make the loss: losses, criteria, and the matchers/assigners they use.
_LOSS_CLASS_NAME = re.compile(
    r"(Loss(?!Scal)|Criterion|Matcher|Assigner|CrossEntropy)(?![a-z])|loss$"
    r"|^(loss|criterion|matcher)"
)
#: Words that make a function with "loss" in its name a helper, not a loss
#: (``_get_aux_loss_inputs`` packs outputs, ``set_loss`` stores, ``reduce_loss`` averages).
_LOSS_HELPER_WORDS = frozenset(
    {"set", "get", "log", "print", "plot", "reduce", "update", "show", "estimate", "eval",
     "evaluate", "wrapper", "func", "scale", "scaler"}
)  # fmt: skip
#: Loss classes of other packages (timm's ``SoftTargetCrossEntropy``, ``JsdCrossEntropy``).
_FOREIGN_LOSS = re.compile(r"^[A-Z]\w*(Loss|CrossEntropy|Criterion)$")
#: Functions that build a list of augmentations.
_AUG_BUILDER = re.compile(r"(build|make|get|create)_\w*(augmentation|transform)s?(_gen)?")
#: Callables that compose transforms: a composition is the augmentation actually used.
_COMPOSE_NAMES = frozenset({"Compose", "Sequential", "OneOf", "SomeOf", "RandomApply"})
#: What takes a composition as one of its steps (a random pick among pipelines included).
_COMPOSITIONS = _COMPOSE_NAMES | {"RandomSelect", "RandomChoice", "RandomOrder"}
#: Optimizer arguments that pick torch's fused or multi-tensor implementation (nanoGPT passes
#: ``fused=True`` through ``**extra_args``, detectron2 ``foreach=True``), and the values that
#: leave it off.
_KERNEL_SWITCHES = frozenset({"fused", "foreach", "capturable"})
_OFF = ("False", "None")
_DECAY_PARAM = re.compile(r"decay|momentum|beta|tau|alpha|rate", re.IGNORECASE)

#: Settings (argparse options, config attributes, module constants) by their name; the first
#: match wins, so ``no_aug_epochs`` is an augmentation setting and ``warmup_epochs`` a warm-up.
_SETTINGS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (category, re.compile(pattern))
    for category, pattern in (
        (
            "augmentation",
            r".*(no_?aug|close_mosaic|mosaic|mix_?up|cutmix|cutout|flip|mirror|hsv|jitter"
            r"|augment(?!ed)|degrees|translate|shear|perspective|erasing|random_crop).*",
        ),
        (
            "loss",
            r"(?!.*_value$).*(_coef|_cost|cost_\w+|aux_loss|loss_weight|_loss_w|focal_\w+)"
            r"|mask(ing)?_ratio|norm_pix_loss",
        ),
        ("warmup", r".*warm_?up.*"),
        (
            "epochs",
            r"(max_|num_|total_|train_|n_)?epochs?|max_?epoch"
            r"|(max_|num_|total_|train_)?(iters|iterations|steps)",
        ),
        (
            "batch_size",
            r"(train_|total_|global_)?batch(_?size)?(_per_(gpu|device|replica|node))?|ims_per_batch|bs",
        ),
        ("seed", r"(random_|manual_|global_)?seed"),
        ("ema", r"(use_|model_)?ema(_decay|_rate|_momentum)?"),
        ("amp", r"(use_)?(fp16|amp|mixed_precision|bf16|half)"),
        ("grad_clip", r".*(clip_grad|grad_clip|max_grad_norm|clip_norm).*"),
        ("grad_accum", r".*accum.*|update_freq"),
        (
            "scheduler",
            r"(lr_)?sched(ule|uler)?|min_lr(_ratio)?|lr_(steps|decay\w*|gamma|milestones|policy)"
            r"|milestones|cos_lr|(lr_)?step_size",
        ),
        (
            "optimizer",
            r"(base_|basic_|init_|initial_|max_|b)?(lr|learning_rate)(_per_img)?|momentum"
            r"|weight_decay|nesterov|opt(imi[sz]er)?|betas",
        ),
        ("dataloader", r"(data_)?(num_)?workers|shuffle|drop_last|pin_memory"),
        (
            "distributed",
            r"dist_(backend|url)|world_size|local_rank|num_machines|machine_rank|sync_bn",
        ),
    )
)


def extract_recipe(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    root: Path,
    sources: Sources | None = None,
    hierarchy: Hierarchy | None = None,
) -> tuple[RecipeItem, ...]:
    """The training recipe of the scanned repository, sorted by category, path and line.
    ``sources`` and ``hierarchy`` are the review's own when it has them (each file is then
    parsed once for the whole review)."""
    if sources is None:
        sources = Sources(Path(root), analyses)
    if hierarchy is None:
        hierarchy = Hierarchy(analyses, ClassTable(analyses, load_torch_api()))
    return _Recipe(result, analyses, sources, hierarchy).items()


#: What each cuDNN switch means for the port (one row category with the seeds: both are
#: about reproducing a run, though ``benchmark`` trades it for speed rather than seeding).
_CUDNN_NOTES = {
    "torch.backends.cudnn.deterministic": (
        "deterministic kernels, not a seed: mindspore.set_deterministic(True)"
    ),
    "torch.backends.cudnn.benchmark": (
        "cuDNN's algorithm search for speed, not a seed: MindSpore picks kernels itself; drop it"
    ),
}


def _self_tests(analyses: Sequence[FileAnalysis]) -> dict[str, tuple[int, int]]:
    """path → lines of the ``if __name__ == "__main__":`` block of each module that other
    files of the repository import: a backbone file's self-test (DeepLabV3+'s hrnetv2.py
    setting ``cudnn.deterministic`` to try the model), not the training entry, which nothing
    imports."""
    referenced = {ref for fa in analyses for r in fa.local_refs for ref in _prefixes(r, fa.modules)}
    return {
        fa.path: fa.syntax.main_block
        for fa in analyses
        if fa.syntax is not None
        and fa.syntax.main_block != (0, 0)
        and any(m in referenced for m in fa.modules)
    }


def _prefixes(ref: str, own: Sequence[str]) -> list[str]:
    """Every dotted prefix of ``ref`` (``a.b.c`` → ``a``, ``a.b``, ``a.b.c``), unless ``ref``
    is the referencing file's own module (a module naming itself imports nothing)."""
    parts = ref.split(".")
    found = [".".join(parts[: i + 1]) for i in range(len(parts))]
    return [p for p in found if p not in own]


def _is_compose(name: str | None) -> bool:
    """A composition of transforms: torchvision's ``Compose`` or a repository's own spelled
    like it (DeepLabV3+'s ``ExtCompose`` of joint image/mask transforms)."""
    return bool(name) and (name == "Compose" or (name.endswith("Compose") and name[:1].isupper()))


def _transform_internal(src: Source, fn: FuncDef | None) -> bool:
    """``fn`` is a method of a transform class (one with ``__call__`` and no
    ``__getitem__``) other than its constructor: a composition it builds at each call
    (ColorJitter's ``get_params`` shuffling its brightness/contrast steps) is how that one
    step works, not the pipeline. What the constructor composes (DINO's multi-crop
    ``DataAugmentation.__init__``) is the pipeline the class applies."""
    cls = src.class_of(fn) if fn is not None else None
    if cls is None or fn is None or fn.name == "__init__":
        return False
    methods = {b.name for b in cls.body if isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef)}
    return "__call__" in methods and "__getitem__" not in methods


def _setting_category(name: str) -> str | None:
    """The recipe category of a setting called ``name`` (``max_epoch`` → ``epochs``)."""
    key = name.lower().lstrip("-").replace("-", "_")
    for category, pattern in _SETTINGS:
        if pattern.fullmatch(key):
            return category
    return None


# ---------------------------------------------------------------------------- source files
class _File:
    """One file as the value follower reads it: the record its worker wrote
    (:class:`~apiscan.extract.values.FileValues`), with the places of its lines."""

    def __init__(self, fa: FileAnalysis, values: FileValues) -> None:
        self.fa = fa
        self.path = fa.path
        self.modules = fa.modules
        self.module = fa.modules[0] if fa.modules else ""
        self.values = values
        self.defs = values.defs
        #: qualified name -> index of the first def so named
        self.first: dict[str, int] = {}
        for n, d in enumerate(values.defs):
            self.first.setdefault(d.qual, n)
        #: line -> the calls that start on it, in ``ast.walk`` order
        self.calls_on: dict[int, list[CallValues]] = {}
        for call in values.calls:
            self.calls_on.setdefault(call.expr.line, []).append(call)
        #: every single-target assignment with the function it is in, in ``ast.walk`` order
        scoped = [(a, -1) for a in values.assigns]
        scoped += [(a, d.function) for d in values.defs for a in d.assigns]
        self.assigns = sorted(scoped, key=lambda s: s[0].order)

    def where(self, line: int) -> Where:
        return place(self.fa, line)

    def loc(self, line: int) -> str:
        return str(self.where(line))

    def from_module(self, level: int, module: str) -> str:
        """The absolute module ``from X import ...`` names in this file (relative or not)."""
        if not level:
            return module
        base = self.module.split(".")
        package = base if self.path.endswith("__init__.py") else base[:-1]
        parts = package[: len(package) - (level - 1)]
        return ".".join([*parts, module] if module else parts)

    def top_assigns(self, index: int) -> list[AssignValues]:
        """The statements ``x = v`` directly in the body of def ``index`` (-1: the module),
        in source order."""
        found = self.values.assigns if index < 0 else self.defs[index].assigns
        return sorted((a for a in found if a.top), key=lambda a: a.order)


def _files(analyses: Sequence[FileAnalysis]) -> dict[str, _File]:
    """The files the scan analysed without error that have value records, by path."""
    return {
        fa.path: _File(fa, fa.syntax.values)
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
    }


# -------------------------------------------------------------------------- the repository
@dataclass(frozen=True)
class _ArgOption:
    option: str  # "--batch-size"
    default: Expr | None
    action: str
    file: _File
    call: CallValues


@dataclass(frozen=True)
class _AttrSet:
    """``self.attr = value`` in a class's method (``method`` "" for the class body)."""

    cls: str  # fully qualified
    method: str
    attr: str
    value: Expr
    file: _File
    line: int
    #: the function the value is read in (the method; the class body's own: -1 mostly)
    function: int

    @property
    def owner(self) -> str:
        name = self.cls.rpartition(".")[2]
        return f"{name}.{self.method}" if self.method else name


@dataclass
class _Repo:
    """Repository-wide tables: argparse options, attributes classes set, defs and call sites."""

    argparse: dict[str, list[_ArgOption]] = field(default_factory=dict)
    attrs: dict[str, list[_AttrSet]] = field(default_factory=dict)  # by class
    attrs_by_name: dict[str, list[_AttrSet]] = field(default_factory=dict)  # literal, in __init__
    #: module-level ``NAME = value``: (name, the assignment, its file)
    constants: list[tuple[str, AssignValues, _File]] = field(default_factory=list)
    #: every module spelling of a def -> (its file, its index there)
    defs: dict[str, tuple[_File, int]] = field(default_factory=dict)
    #: every module spelling of a def -> the one with the file's first module name
    canonical: dict[str, str] = field(default_factory=dict)
    #: canonical def name -> the call facts that reach it, with the caller's path
    call_sites: dict[str, list[tuple[str, CallFact]]] = field(default_factory=dict)
    #: method name -> the calls of it on a receiver the scan could not type (nanoGPT's
    #: ``model.configure_optimizers(...)`` after ``model`` is built in three branches)
    untyped_calls: dict[str, list[tuple[str, CallFact]]] = field(default_factory=dict)
    #: "SOLVER.BASE_LR" -> the module-level literal assignments of a yacs-style config
    config_chains: dict[str, list[tuple[_File, AssignValues]]] = field(default_factory=dict)

    def add_file(self, f: _File) -> None:
        for q, n in f.first.items():
            for module in f.modules:
                self.defs.setdefault(f"{module}.{q}", (f, n))
                self.canonical.setdefault(f"{module}.{q}", f"{f.module}.{q}")
            if f.defs[n].is_class and f.module:
                self._class_attrs(f, f"{f.module}.{q}", n)
        for call in f.values.calls:
            option = _argparse_option(f, call)
            if option is not None:
                self.argparse.setdefault(option[0], []).append(option[1])
        for stmt in f.top_assigns(-1):
            target = stmt.target
            if target.kind == "Name":
                self.constants.append((target.name, stmt, f))
            elif target.kind == "Attribute" and stmt.value.literal:
                # yacs defaults: _C.SOLVER.BASE_LR = 0.001, keyed "SOLVER.BASE_LR"
                chain = _unparsed(target).split(".")
                if len(chain) >= 3:
                    self.config_chains.setdefault(".".join(chain[-2:]), []).append((f, stmt))

    def _class_attrs(self, f: _File, cls: str, index: int) -> None:
        found = self.attrs.setdefault(cls, [])
        node = f.defs[index]
        for stmt in f.top_assigns(index):
            value = _field_default(stmt.value)
            if stmt.target.kind == "Name":
                found.append(
                    _AttrSet(cls, "", stmt.target.name, value, f, stmt.line, node.function)
                )
        for method in f.defs:
            if method.owner != index or method.is_class:
                continue
            for sub in method.assigns:
                target = sub.target
                if (
                    target.kind == "Attribute"
                    and target.target.kind == "Name"
                    and (target.target.name == "self")
                ):
                    fact = _AttrSet(
                        cls, method.name, target.name, sub.value, f, sub.line, method.function
                    )
                    found.append(fact)
                    if method.name == "__init__" and sub.value.literal:
                        self.attrs_by_name.setdefault(target.name, []).append(fact)


def _unparsed(expr: Expr) -> str:
    """An attribute chain as ``ast.unparse`` writes it (``cfg.SOLVER.LR``); other targets
    as written."""
    chain = expr.chain()
    return ".".join(chain) if chain is not None else expr.full()


def _field_default(value: Expr) -> Expr:
    """A dataclass field's default: ``seed: int = field(default=1, metadata=...)`` → ``1``,
    ``lr: List[float] = field(default_factory=lambda: [0.25])`` → ``[0.25]`` (fairseq's
    configuration dataclasses); any other value as it is."""
    if not (value.kind == "Call" and value.callee() == "field"):
        return value
    for keyword in value.keywords:
        if keyword.name == "default":
            return keyword.target
        if keyword.name == "default_factory" and keyword.target.kind == "Lambda":
            return keyword.target.parts[-1]
    return value


def _argparse_option(f: _File, call: CallValues) -> tuple[str, _ArgOption] | None:
    """``parser.add_argument("-b", "--batch-size", default=64)`` → ("batch_size", option)."""
    expr = call.expr
    if not (expr.func.kind == "Attribute" and expr.func.name == "add_argument"):
        return None
    names = [a.value for a in expr.args if a.kind == "Constant" and isinstance(a.value, str)]
    if not names:
        return None
    keywords = {k.name: k.target for k in expr.keywords if k.name}
    longs = [n for n in names if n.startswith("--")]
    option = longs[0] if longs else names[0]
    dest_node = keywords.get("dest")
    if dest_node is not None and dest_node.kind == "Constant" and isinstance(dest_node.value, str):
        dest = dest_node.value
    else:
        dest = option.lstrip("-").replace("-", "_")
    action_node = keywords.get("action")
    action = action_node.value if action_node is not None and action_node.kind == "Constant" else ""
    return dest, _ArgOption(option, keywords.get("default"), str(action), f, call)


# ------------------------------------------------------------------------------ the values
class _Val(NamedTuple):
    """A value as far as it could be followed, and the steps that led there."""

    text: str
    literal: bool
    trail: tuple[str, ...] = ()
    #: a call some of whose arguments reached literals (a schedule helper fed its settings)
    computed: bool = False

    def show(self) -> str:
        return f"{self.text} ({'; '.join(self.trail)})" if self.trail else self.text

    def then(self, step: str) -> _Val:
        return _Val(self.text, self.literal, (step, *self.trail), self.computed)


class _Values:
    """Follows an argument to the literal it stands for, or says where it comes from.

    An expression is read in its file and the function it is in (``fn``, an index into the
    file's defs; -1 at module level or in a class body outside any function): a name is that
    function's parameter or assignment."""

    def __init__(self, repo: _Repo, hierarchy: Hierarchy, files: dict[str, _File]) -> None:
        self.repo = repo
        self.hierarchy = hierarchy
        self.files = files
        #: last name -> how many of the repository's defs have it (built on first use)
        self._last_names: dict[str, int] | None = None

    def describe(self, f: _File, fn: int, expr: Expr) -> str:
        return self.resolve(f, fn, expr, 0).show()

    def resolve(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        text = expr.text
        if expr.literal:
            return _Val(text, True)
        if depth >= MAX_DEPTH:
            return _Val(text, False)
        if expr.kind == "Name":
            return self._name(f, fn, expr, depth)
        if expr.kind in ("Tuple", "List"):
            return self._elements(f, fn, expr, depth)
        if expr.kind == "Call":
            return self._call(f, fn, expr, depth)
        if expr.kind == "Subscript":
            return self._indexed(f, fn, expr, depth)
        if expr.kind == "Attribute":
            receiver = expr.target.full()
            last = receiver.rpartition(".")[2]
            if receiver == "self":
                return self._self_attr(f, fn, expr, depth)
            if last in _ARG_RECEIVERS:
                found = self._argparse(f, fn, expr, depth)
                if found is not None:
                    return found
            if last in _ARG_RECEIVERS | _CONFIG_RECEIVERS:
                found = self._config(expr, depth)
                if found is not None:
                    return found
            head = receiver.partition(".")[0]
            if head in _CONFIG_RECEIVERS and last.isupper() and expr.name.isupper():
                sets = self.repo.config_chains.get(f"{last}.{expr.name}", [])
                found_sets = [
                    (
                        _Val(
                            stmt.value.text,
                            True,
                            (f"{text}: default at {cf.loc(stmt.line)}",),
                        ),
                        cf.loc(stmt.line),
                    )
                    for cf, stmt in sets
                    if not stmt.annotated
                ]
                merged = _merge(found_sets)
                if merged is not None:
                    return merged
        return _Val(text, False)

    # -- compound values
    def _elements(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """``(beta1, beta2)``: each element followed; ``(0.9, 0.95)`` when every one reaches
        a literal, with the steps of each."""
        if not 0 < len(expr.parts) <= 8 or any(e.kind == "Starred" for e in expr.parts):
            return _Val(expr.text, False)
        values = [self.resolve(f, fn, e, depth + 1) for e in expr.parts]
        if not all(v.literal for v in values):
            return _Val(expr.text, False)
        open_, close = ("(", ")") if expr.kind == "Tuple" else ("[", "]")
        if expr.kind == "Tuple" and len(values) == 1:
            close = ",)"
        text = open_ + ", ".join(v.text for v in values) + close
        trail = tuple(step for v in values for step in v.trail)
        return _Val(text, True, trail)

    def _call(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """A value computed by a call (dino's ``utils.cosine_scheduler(args.momentum_teacher,
        1, args.epochs, len(data_loader))``): the call as written, each argument that reaches
        a literal shown by it (``0.996``), so the setting is read where the helper is fed."""
        text = expr.text
        steps: list[str] = []
        args: list[str] = []
        changed = False
        positional, keywords = expr.args, expr.keywords
        for arg in [*positional, *(k.target for k in keywords)]:
            shown = arg.text
            if arg.kind != "Starred" and not arg.literal:
                value = self.resolve(f, fn, arg, depth + 1)
                # None is "not given" (``default(sigma, fallback)``): the name says more
                if value.literal and value.text != "None":
                    changed = True
                    steps += value.trail or (f"{shown} = {value.text}",)
                    shown = value.text
            args.append(shown)
        if not changed:
            return _Val(text, False)
        names = [""] * len(positional) + [f"{k.name}=" if k.name else "**" for k in keywords]
        inner = ", ".join(f"{n}{a}" for n, a in zip(names, args, strict=True))
        return _Val(f"{expr.func.text}({inner})", False, tuple(steps), True)

    def _indexed(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """``momentum_schedule[it]``: one element of what the container is built from (a
        schedule array indexed by the iteration), the index kept as written; only when that
        is a literal or a call fed literals."""
        text = expr.text
        container, index = expr.parts[0], expr.parts[1]
        if not (index.kind == "Name" and fn >= 0 and index.name in f.defs[fn].loop_names):
            return _Val(text, False)  # cfg["lr"], boxes[fg]: a lookup, not a schedule step
        base = self.resolve(f, fn, container, depth + 1)
        if not (base.literal or base.computed):
            return _Val(text, False)  # self.W_a[ii]: a tensor built from no setting
        step = f"{container.text} indexed by {index.text}"
        return _Val(f"{base.text}[{index.text}]", False, (step, *base.trail))

    # -- names
    def _name(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """A local name: the parameter it may be and every assignment to it in the function
        (``lr = self.warmup_lr`` in one branch, ``lr = base * bs`` in the other); else the
        module-level assignments."""
        name = expr.name
        found: list[_Val] = []
        if fn >= 0:
            for param, default in f.defs[fn].params:
                if param == name:
                    found.append(self.parameter(f, fn, name, default, depth))
            found += self._assignments(f, fn, name, f.defs[fn].assigns, depth)
        if not found:
            found = self._assignments(f, -1, name, f.top_assigns(-1), depth)
        if not found:
            return _Val(name, False)
        if len(found) == 1:
            return found[0]
        return _Val(" | ".join(v.show() for v in found), all(v.literal for v in found))

    def _assignments(
        self, f: _File, fn: int, name: str, assigns: Sequence[AssignValues], depth: int
    ) -> list[_Val]:
        bound = [a for a in assigns if a.target.kind == "Name" and a.target.name == name]
        return [
            self.resolve(f, fn, a.value, depth + 1).then(f"{name} set at {f.loc(a.line)}")
            for a in sorted(bound, key=lambda a: a.line)[:3]
        ]

    def parameter(self, f: _File, fn: int, name: str, default: Expr | None, depth: int) -> _Val:
        """A parameter of def ``fn``: what its call sites pass (each, when there are a few),
        else its default."""
        d = f.defs[fn]
        # A recursive call passes the parameter on: it says nothing of where it comes from.
        sites = [
            (caller, call)
            for caller, call in self.call_sites(f, fn)
            if not (caller is f and d.line <= call.expr.line <= d.end_line)
        ]
        defaulted = f"default of parameter {name} of {d.qual}() at {f.loc(d.line)}"
        # The training script's call is the recipe (nanoGPT's bench.py calls the same
        # configure_optimizers with a benchmark's values).
        training = [site for site in sites if "train" in PurePosixPath(site[0].path).name]
        sites = training or [site for site in sites if not _side_script(site[0].path)]
        if 0 < len(sites) <= MAX_SITES:
            found: list[tuple[_Val, str]] = []
            for caller, call in sites:
                passed = _bind_def(d, call.expr).get(name)
                place = caller.loc(call.expr.line)
                if passed is not None:
                    step = f"parameter {name} of {d.qual}(), passed at {place}"
                    value = self.resolve(caller, call.function, passed, depth + 1)
                    found.append((value.then(step), place))
                elif default is not None and not _unpacks(call.expr):
                    value = self.resolve(f, fn, default, depth + 1)
                    found.append((value.then(defaulted), place))
                else:
                    break  # maybe passed in *args / **kwargs: not followed
            else:
                merged = _merge(found)
                if merged is not None:
                    return merged
        if default is not None:
            return self.resolve(f, fn, default, depth + 1).then(defaulted)
        where = f"{len(sites)} call sites" if sites else "no call site found"
        return _Val(name, False, (f"parameter of {d.qual}() at {f.loc(d.line)}, {where}",))

    def call_sites(self, f: _File, index: int) -> list[tuple[_File, CallValues]]:
        """Where the repository calls def ``index`` of ``f`` (or instantiates a class whose
        ``__init__`` it is), from the scan's call facts."""
        if not f.module:
            return []
        d = f.defs[index]
        target = f"{f.module}.{d.qual}"
        if not d.is_class and d.name == "__init__" and d.owner >= 0:
            target = f"{f.module}.{f.defs[d.owner].qual}"
        name = target.rpartition(".")[2]
        sites = self.repo.call_sites.get(target, [])
        if not d.is_class and d.name != "__init__" and d.owner >= 0 and self._unique_method(name):
            # a method no other def of the repository is named like: its calls on a receiver
            # the scan could not type are calls of it too (nanoGPT's train.py builds its
            # model in three branches; only bench.py's call is typed)
            sites = [*sites, *self.repo.untyped_calls.get(name, ())]
        out = []
        for path, fact in sites:
            caller = self.files.get(path)
            if caller is None or fact.role != "call":
                continue  # ImageFolder(..., transform=t) hands the instance on: no call of it
            on_line = caller.calls_on.get(fact.line, [])
            for call in on_line:
                if call.expr.callee() == name or len(on_line) == 1:
                    out.append((caller, call))
                    break
        return out or self.star_call_sites(f.module, name)

    def _unique_method(self, name: str) -> bool:
        """Whether exactly one def of the repository has the last name ``name``, and no torch
        class has a member so named (``step``, ``forward``: an untyped receiver may be an
        optimizer or any module); never a dunder."""
        if name.startswith("__") or self.hierarchy.classes.api.classes_with_member(name):
            return False
        if self._last_names is None:
            counts: dict[str, int] = {}
            for canonical in set(self.repo.canonical.values()):
                last = canonical.rpartition(".")[2]
                counts[last] = counts.get(last, 0) + 1
            self._last_names = counts
        return self._last_names.get(name, 0) == 1

    def star_call_sites(self, module: str, name: str) -> list[tuple[_File, CallValues]]:
        """Calls of ``name`` by files that ``from module import *`` (efficientdet's loader
        calls ``transforms_coco_train(img_size, ...)`` so): the scan's call facts leave a
        name a star import brought unresolved."""
        out = []
        for path in sorted(self.files):
            caller = self.files[path]
            if is_test_path(path):
                continue
            if any(caller.from_module(*star) == module for star in caller.values.star_imports):
                out += [
                    (caller, call)
                    for call in caller.values.calls
                    if call.expr.func.kind == "Name" and call.expr.func.name == name
                ]
        return out

    # -- attributes
    def _argparse(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val | None:
        options = self.repo.argparse.get(expr.name)
        if not options:
            return None
        # The parser of this file, else the training script's, else every one there is.
        local = [o for o in options if o.file.path == f.path]
        training = [o for o in options if "train" in PurePosixPath(o.file.path).name]
        options = local or training or options
        text = expr.text
        found = []
        for o in options:
            place = o.file.loc(o.call.expr.line)
            step = f"argparse {o.option} at {place}"
            computed = self._computed_option(f, expr, depth) if _is_none(o.default) else None
            if computed is not None:
                found.append((computed.then(f"{step} defaults to None"), place))
            elif o.default is not None:
                value = self.resolve(o.file, o.call.function, o.default, depth + 1)
                if value.literal:
                    found.append((value.then(f"{text}: default of {step}"), place))
                else:
                    found.append((_Val(text, False, (f"{step}, default {value.show()}",)), place))
            elif o.action in ("store_true", "store_false"):
                flag = "False" if o.action == "store_true" else "True"
                found.append((_Val(flag, True, (f"{text}: {o.action} of {step}",)), place))
            else:
                found.append((_Val(text, False, (f"{step} has no literal default",)), place))
        return _merge(found)

    def _computed_option(self, f: _File, expr: Expr, depth: int) -> _Val | None:
        """An option left at None and computed by the script (MAE's ``args.lr = args.blr *
        eff_batch_size / 256`` when ``--lr`` is not given): the formula, with what each of
        its settings resolves to."""
        receiver = expr.target.text
        for stmt, fn in f.assigns:
            target = stmt.target
            if (
                not stmt.annotated
                and target.kind == "Attribute"
                and target.name == expr.name
                and target.target.text == receiver
                and not _is_none(stmt.value)
            ):
                nodes = stmt.value.walk()
                owned = {id(n.target) for n in nodes if n.kind == "Attribute"}
                parts = [
                    f"{n.text} = {self.resolve(f, fn, n, depth + 1).text}"
                    for n in nodes
                    if (n.kind == "Attribute" and n.target.kind == "Name")
                    or (n.kind == "Name" and id(n) not in owned)
                ]
                shown = "; ".join(dict.fromkeys(parts))
                return _Val(
                    stmt.value.text,
                    False,
                    (f"computed at {f.loc(stmt.line)}" + (f": {shown}" if shown else ""),),
                )
        return None

    def _self_attr(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """``self.x``: set by the class (``__init__`` first) or one of its repo bases."""
        owner = f.defs[fn].owner if fn >= 0 else -1
        text = expr.text
        if owner < 0 or not f.module:
            return _Val(text, False)
        cls = f"{f.module}.{f.defs[owner].qual}"
        for ancestor in self._lineage(cls):
            sets = [a for a in self.repo.attrs.get(ancestor, ()) if a.attr == expr.name]
            if not sets:
                continue
            init = [a for a in sets if a.method in ("__init__", "")]
            found = [
                (
                    self.resolve(a.file, a.function, a.value, depth + 1).then(
                        f"{text} set in {a.owner} at {a.file.loc(a.line)}"
                    ),
                    a.file.loc(a.line),
                )
                for a in init or sets
            ]
            merged = _merge(found)
            if merged is not None:
                return merged
        name = f.defs[owner].name
        return _Val(text, False, (f"not set as a literal in {name} or its bases",))

    def _config(self, expr: Expr, depth: int) -> _Val | None:
        """``exp.max_epoch`` / ``cfg.lr``: the literal some class sets in ``__init__``; base
        classes first, since they hold the defaults subclasses override."""
        sets = sorted(
            self.repo.attrs_by_name.get(expr.name, ()),
            key=lambda a: (len(self._lineage(a.cls)), a.file.path, a.line),
        )
        found = [
            (
                self.resolve(a.file, a.function, a.value, depth + 1).then(
                    f"{_unparsed(expr)}: {a.owner} sets it at {a.file.loc(a.line)}"
                ),
                a.file.loc(a.line),
            )
            for a in sets
        ]
        return _merge(found)

    def _lineage(self, cls: str) -> list[str]:
        """``cls`` and its repo ancestors, nearest first."""
        out: list[str] = []
        todo = [cls]
        while todo and len(out) < 20:
            current = todo.pop(0)
            q = self.hierarchy.resolve(current) or current
            if q in out:
                continue
            out.append(q)
            fact = self.hierarchy.classes.facts.get(q)
            if fact is not None:
                todo.extend(b for b in fact.bases if b)
        return out


def _merge(found: list[tuple[_Val, str]]) -> _Val | None:
    """One value when every place (``path:line``) agrees, else each place's value."""
    if not found:
        return None
    first = found[0][0]
    if len({v.text for v, _ in found}) == 1:
        others = [place for _, place in found[1:4]]
        if len(found) > 4:
            others.append(f"{len(found) - 4} more")
        return first.then(f"same at {', '.join(others)}") if others else first
    distinct = list({v.show(): v for v, _ in found}.values())  # first place of each value
    shown = distinct[:3]
    more = f" | … {len(distinct) - 3} more" if len(distinct) > 3 else ""
    return _Val(" | ".join(v.show() for v in shown) + more, all(v.literal for v in shown))


def _unpacks(call: Expr) -> bool:
    """The call passes ``*args`` or ``**kwargs``: any parameter it does not name may be in it."""
    return any(a.kind == "Starred" for a in call.args) or any(not k.name for k in call.keywords)


def _bind_def(fn: DefValues, call: Expr) -> dict[str, Expr]:
    """Argument expressions of ``call`` by the parameter names of the repo function ``fn``."""
    names = [p for p, _ in fn.params]
    positional = list(fn.positional)
    is_method = fn.owner >= 0 and not fn.static
    if is_method and positional:
        positional = positional[1:]
        names = names[1:]
    bound: dict[str, Expr] = {}
    for name, arg in zip(positional, call.args, strict=False):
        if arg.kind == "Starred":
            break
        bound[name] = arg
    for kw in call.keywords:
        if kw.name in names:
            bound[kw.name] = kw.target
    return bound


def _is_none(node: Expr | None) -> bool:
    return node is not None and node.kind == "Constant" and node.value is None


# ----------------------------------------------------------------------------- the recipe
class _Recipe:
    def __init__(
        self,
        result: ScanResult,
        analyses: Sequence[FileAnalysis],
        sources: Sources,
        hierarchy: Hierarchy,
    ) -> None:
        self.result = result
        self.analyses = [fa for fa in analyses if not is_test_path(fa.path)]
        self.root = sources.root
        self.sources = sources
        self.api = hierarchy.classes.api
        self.hierarchy = hierarchy
        #: every file's value record (test files included: they may call what is followed)
        self.files = _files(analyses)
        self.repo = _Repo()
        for path in sorted(self.files):
            if not is_test_path(path):
                self.repo.add_file(self.files[path])
        self._index_call_sites(analyses)
        self.values = _Values(self.repo, self.hierarchy, self.files)
        #: path -> the reader of a parsed file's expressions, for the detectors that still
        #: hold ``ast`` nodes (:meth:`_describe`)
        self._readers: dict[str, ValueReader] = {}
        self.out: list[RecipeItem] = []
        self._self_tests = _self_tests(analyses)
        #: ids of the calls inside a composition of transforms (shown in its row)
        self.composed_calls: set[int] = set()
        #: modules whose transform classes a composition uses (their defs are not rows)
        self.composed_modules: set[str] = set()
        #: (path, first line, last line) of the functions shown as threaded pipelines
        self.threaded_spans: list[tuple[str, int, int]] = []
        #: path -> lines (of the parsed text) where ``torch.nn.init`` functions are used
        self.init_lines: dict[str, set[int]] = {}
        #: path -> (line, function name) of those uses (``constant_``)
        self.init_names: dict[str, set[tuple[int, str]]] = {}
        for f in result.api_findings:
            if f.api.startswith("torch.nn.init."):
                src = sources.get(f.path)
                line = src.joined_line(f.span.line, f.cell) if src else f.span.line
                self.init_lines.setdefault(f.path, set()).add(line)
                last = f.api.rpartition(".")[2]
                self.init_names.setdefault(f.path, set()).add((line, last))
        #: (path, function qualname) of code that runs in data processing
        self.data_functions = {
            (f.path, f.function) for f in result.api_findings if f.scope == "data"
        }
        #: (path, function qualname) of code the scan places in the network graph
        self.network_functions = {
            (f.path, f.function) for f in result.api_findings if f.scope == "network"
        }
        #: the repository's own top-level packages (a loss class of another is third-party)
        self.local = {m.partition(".")[0] for mods in sources.modules.values() for m in mods}

    # -- what the detectors still reading Source hand the value follower
    def _record(self, src: Source, node: ast.AST) -> tuple[_File, int, Expr] | None:
        """The value record of an expression a detector found in ``src``'s tree: the file's
        record, the def it is in, the expression read as the worker reads it."""
        f = self.files.get(src.path)
        if f is None:
            return None
        reader = self._readers.get(src.path)
        if reader is None:
            reader = self._readers[src.path] = ValueReader(src.tree, "\n".join(src.lines))
        fn = src.function_of(node)
        return f, (self._def_index(src, fn) if fn is not None else -1), reader.expr(node)

    def _def_index(self, src: Source, node: ast.AST) -> int:
        f = self.files.get(src.path)
        qual = src.qualname.get(node)
        line = getattr(node, "lineno", 0)
        if f is None or qual is None:
            return -1
        return next((n for n, d in enumerate(f.defs) if d.qual == qual and d.line == line), -1)

    def _resolve(self, src: Source, node: ast.expr) -> _Val:
        found = self._record(src, node)
        if found is None:
            return _Val(src.text(node), False)
        return self.values.resolve(*found, 0)

    def _describe(self, src: Source, node: ast.expr) -> str:
        return self._resolve(src, node).show()

    def _source_def(self, f: _File, index: int) -> tuple[Source, Def] | None:
        src = self.sources.get(f.path)
        node = src.defs.get(f.defs[index].qual) if src is not None else None
        return (src, node) if src is not None and node is not None else None

    def _source_call(self, f: _File, call: CallValues) -> tuple[Source, ast.Call] | None:
        src = self.sources.get(f.path)
        if src is None:
            return None
        e = call.expr
        for node in src.calls_on.get(e.line, ()):
            if (node.col_offset, node.end_lineno, node.end_col_offset) == (
                e.col,
                e.end_line,
                e.end_col,
            ):
                return src, node
        return None

    def _index_call_sites(self, analyses: Sequence[FileAnalysis]) -> None:
        """The call facts by the def they reach, resolved as the solver resolves its call
        edges (re-exports, star imports, inherited methods): a class instantiated is keyed
        by the class, a function or method by its canonical name."""
        resolve = callee_resolver(analyses, self.hierarchy)
        for fa in self.analyses:
            for fact in fa.calls:
                key = self.hierarchy.resolve(fact.callee)
                if key is None or key not in self.hierarchy.classes.facts:
                    found = resolve(fact.callee)
                    if found is None:
                        continue
                    node, via_class = found
                    key = node.rpartition(".")[0] if via_class else node
                if key in self.repo.defs:
                    self.repo.call_sites.setdefault(key, []).append((fa.path, fact))
        for fa in self.analyses:
            for fact in fa.calls:
                if fact.callee.startswith("?.") and fact.callee.count(".") == 1:
                    self.repo.untyped_calls.setdefault(fact.callee[2:], []).append((fa.path, fact))

    def items(self) -> tuple[RecipeItem, ...]:
        for src in self.sources.all():
            self._compositions(src)
            self._built_lists(src)
        for finding in self.result.api_findings:
            if not is_test_path(finding.path):
                self._finding(finding)
        for src in self.sources.all():
            self._foreign_calls(src)
            self._ema_loops(src)
            self._hand_schedules(src)
        self._named_defs()
        self._flips()
        self._cudnn()
        self._repo_instances()
        self._settings()
        self._launchers()
        self._accumulation()
        self._registry_choices()
        self._pipelines()
        self._lazy_compositions()
        self.out = [
            i
            for i in self.out
            if not (
                i.category == "augmentation"
                and not i.name.startswith("pipeline in ")
                and any(
                    p == i.where.path and a <= i.where.line <= b for p, a, b in self.threaded_spans
                )
            )
        ]
        unique = {(i.category, i.where.path, i.where.line, i.name, i.values): i for i in self.out}
        order = {c: n for n, c in enumerate(CATEGORIES)}
        return tuple(
            sorted(
                unique.values(),
                key=lambda i: (order[i.category], i.where.path, i.where.line, i.name),
            )
        )

    def add(
        self,
        category: str,
        name: str,
        where: Where,
        values: Sequence[tuple[str, str]] = (),
        note: str = "",
    ) -> None:
        block = self._self_tests.get(where.path)
        if block is not None and block[0] <= where.line <= block[1]:
            return  # a library module's own demo, not what training runs
        self.out.append(RecipeItem(category, name, where, tuple(values), note))

    # -- API findings
    def _finding(self, f: ApiFinding) -> None:
        if f.usage not in ("call", "context_manager", "decorator"):
            return
        category = _category(f.api)
        if category is None:
            return
        src = self.sources.get(f.path)
        call = src.call_for(f) if src is not None else None
        where = Where(f.path, f.span.line, f.cell)
        if src is None or call is None:
            self.add(category, f.api, where, note="arguments not read: call not found in source")
            return
        if category == "optimizer":
            self._optimizer(f, src, call)
        elif category == "scheduler":
            self._scheduler(f, src, call)
        else:
            functional = f.api.startswith("torch.nn.functional.")
            note = f"scope: {f.scope}" if functional else ""
            if f.api in _HALF:
                note = "casts to float16 (not autocast)"
            self.add(category, f.api, where, self._bind_api(f.api, src, call), note)

    def _bind_api(
        self, api: str, src: Source, call: ast.Call, skip: tuple[str, ...] = ()
    ) -> list[tuple[str, str]]:
        """(parameter, value) of every argument a torch API call passes."""
        return self._arguments(src, call, self._torch_positional(api), skip)

    def _torch_positional(self, api: str) -> list[str]:
        params = self.api.params(self.api.canonical(api) or api) or ()
        return [p for p, kind, _ in params if kind in ("pos_only", "pos_or_kw")]

    def _arguments(
        self, src: Source, call: ast.Call, positional: Sequence[str], skip: tuple[str, ...] = ()
    ) -> list[tuple[str, str]]:
        """(parameter, value) of every argument, in the call's order; positional arguments
        are named by ``positional``, ``**kwargs`` is opened when it is a local dict."""
        out: list[tuple[str, str]] = []
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                out.append(("*", src.text(arg)))
                break
            name = positional[i] if i < len(positional) else f"arg{i + 1}"
            if name not in skip:
                out.append((name, self._value(src, name, arg)))
        for kw in call.keywords:
            if kw.arg is None:
                out.extend(self._expanded(src, call, kw.value, skip))
            elif kw.arg not in skip:
                out.append((kw.arg, self._value(src, kw.arg, kw.value)))
        return out

    def _value(self, src: Source, name: str, expr: ast.expr) -> str:
        """Data arguments (the model, the dataset, a tensor) are shown as written: where they
        were built says nothing about the recipe. A local dict (a loss's ``weight_dict``) is
        opened, with the ``d["key"] = v`` assignments made to it, each value followed."""
        if name in _DATA_PARAMS:
            return src.text(expr)
        call = src.enclosing(expr, ast.Call) if isinstance(expr, ast.Name) else None
        fn = src.function_of(call) if isinstance(call, ast.Call) else None
        if isinstance(call, ast.Call) and fn is not None and isinstance(expr, ast.Name):
            entries = self._dict_entries(src, call, expr)
            if entries:
                shown = ", ".join(
                    f"{k}: {self._resolve(src, v).text}{_when(src, test)}"
                    for k, (v, test) in entries.items()
                )
                return f"{{{shown}}} ({expr.id} set in {fn.name})"
        return self._describe(src, expr)

    def _expanded(
        self, src: Source, call: ast.Call, value: ast.expr, skip: tuple[str, ...]
    ) -> list[tuple[str, str]]:
        """``**kwargs`` where ``kwargs`` is a dict of the same function (a literal, a
        ``dict(k=v)`` call, one of them under a condition), with the ``kwargs["key"] = v``
        assignments made to it before the call."""
        entries = self._dict_entries(src, call, value)
        if not entries:
            return [("**", src.text(value))]
        return [
            (k, self._value(src, k, v) + _when(src, test))
            for k, (v, test) in entries.items()
            if k not in skip
        ]

    def _dict_entries(
        self, src: Source, call: ast.Call, value: ast.expr
    ) -> dict[str, tuple[ast.expr, ast.expr | None]]:
        """The entries of a dict bound to ``value`` (a name) in the function of ``call``,
        with the ``name["key"] = v`` assignments made to it before the call: (value, the
        test it is passed under or None). nanoGPT's ``extra_args = dict(fused=True) if
        use_fused else dict()`` passes ``fused=True`` when ``use_fused``."""
        fn = src.function_of(call)
        entries: dict[str, tuple[ast.expr, ast.expr | None]] = {}
        if not isinstance(value, ast.Name) or fn is None:
            return entries
        for node in sorted(own_body(fn), key=lambda n: getattr(n, "lineno", 0)):
            if getattr(node, "lineno", 0) > call.lineno:
                break
            target = single_target(node)
            val = getattr(node, "value", None)
            if isinstance(target, ast.Name) and target.id == value.id and isinstance(val, ast.expr):
                if isinstance(val, ast.IfExp):
                    for key, item in _dict_items(val.body):
                        entries[key] = (item, val.test)
                    for key, item in _dict_items(val.orelse):
                        entries.setdefault(key, (item, None))
                else:
                    entries.update((key, (item, None)) for key, item in _dict_items(val))
            elif (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id == value.id
                and isinstance(target.slice, ast.Constant)
                and isinstance(target.slice.value, str)
                and isinstance(val, ast.expr)
            ):
                entries[target.slice.value] = (val, None)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "update"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == value.id
            ):  # timm's loader_args.update(batch_size=batch_size, ...)
                for arg in node.args[:1]:
                    entries.update((key, (item, None)) for key, item in _dict_items(arg))
                entries.update((k.arg, (k.value, None)) for k in node.keywords if k.arg)
        return entries

    def _optimizer(self, f: ApiFinding, src: Source, call: ast.Call) -> None:
        where = Where(f.path, f.span.line, f.cell)
        if f.api.endswith(".add_param_group"):
            group = call.args[0] if call.args else None
            values = self._group_values(src, group) if isinstance(group, ast.Dict) else []
            self.add("optimizer", f.api, where, values, "an extra parameter group")
            return
        values = self._bind_api(f.api, src, call, skip=("params",))
        params = call.args[0] if call.args else None
        for kw in call.keywords:
            if kw.arg == "params":
                params = kw.value
        note = ""
        if params is not None:
            groups, note = self._param_groups(src, params)
            values = [*groups, *values]
        kernels = [k for k, v in values if k in _KERNEL_SWITCHES and not v.startswith(_OFF)]
        if kernels:
            switches = "/".join(kernels)
            flagged = (
                f"{switches} passed: picks torch's fused or multi-tensor implementation, "
                "a switch MindSpore's optimizers do not take; drop it when porting"
            )
            note = f"{note}; {flagged}" if note else flagged
        self.add("optimizer", f.api, where, values, note)

    def _param_groups(self, src: Source, params: ast.expr) -> tuple[list[tuple[str, str]], str]:
        """A list of dicts (written there, or returned by a repo function) is parameter groups:
        name each group's settings."""
        owner, where, built = src, "", params
        if isinstance(params, ast.Call):
            found = self._repo_function(src, params)
            if found is not None:
                owner, fn = found
                where = f"built by {owner.qualname.get(fn, fn.name)}() at {owner.loc(fn)}"
                returned = [n.value for n in own_body(fn) if isinstance(n, ast.Return) and n.value]
                built = returned[-1] if returned else params
        if isinstance(built, ast.Name):
            bound = [
                getattr(n, "value", None)
                for n in own_body(owner.function_of(built) or owner.tree)
                if isinstance(single_target(n), ast.Name)
                and getattr(single_target(n), "id", None) == built.id
            ]
            if len(bound) == 1 and isinstance(bound[0], ast.List):
                built = bound[0]
        if not (isinstance(built, ast.List) and built.elts):
            text = src.text(params)
            return [("params", f"{text} ({where})" if where else text)], ""
        if not all(isinstance(e, ast.Dict) for e in built.elts):
            return [("params", src.text(params))], ""
        out = [("params", f"{len(built.elts)} parameter groups" + (f", {where}" if where else ""))]
        keys: set[str] = set()
        for n, group in enumerate(built.elts, 1):
            assert isinstance(group, ast.Dict)
            for key, value in self._group_values(owner, group):
                if key != "params":
                    keys.add(key)
                    out.append((f"group {n}: {key}", value))
        note = f"per-group keys: {', '.join(sorted(keys))}" if keys else "parameter groups"
        return out, note

    def _group_values(self, src: Source, group: ast.Dict) -> list[tuple[str, str]]:
        out = []
        for key, value in zip(group.keys, group.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                shown = src.text(value) if key.value == "params" else None
                out.append((key.value, shown or self._describe(src, value)))
        return out

    def _repo_function(self, src: Source, call: ast.Call) -> tuple[Source, FuncDef] | None:
        """The repo function a call runs: from the call facts, else a def of the same file."""
        name = callee_name(call)
        for key, sites in self.repo.call_sites.items():
            if key.rpartition(".")[2] != name:
                continue
            for path, fact in sites:
                if path == src.path and fact.line == call.lineno:
                    record = self.repo.defs.get(key)
                    found = self._source_def(*record) if record is not None else None
                    if found and isinstance(found[1], ast.FunctionDef | ast.AsyncFunctionDef):
                        return found[0], found[1]
        local = src.defs.get(name)
        if isinstance(local, ast.FunctionDef | ast.AsyncFunctionDef):
            return src, local
        return None

    def _scheduler(self, f: ApiFinding, src: Source, call: ast.Call) -> None:
        where = Where(f.path, f.span.line, f.cell)
        values = self._bind_api(f.api, src, call, skip=("optimizer",))
        params = self.api.params(self.api.canonical(f.api) or f.api) or ()
        bound = _bind_torch(params, call)
        last = f.api.rpartition(".")[2]
        holder = src.parent.get(call)
        target = single_target(holder) if holder is not None else None
        named_warm = target is not None and "warm" in src.text(target).lower()
        if last == "LinearLR":
            start = literal_value(bound.get("start_factor"))
            end = literal_value(bound.get("end_factor"))
            start = 1 / 3 if "start_factor" not in bound else start
            end = 1.0 if "end_factor" not in bound else end
            rising = not (isinstance(start, int | float) and isinstance(end, int | float)) or (
                start < end
            )
            if rising or named_warm:
                self.add("warmup", f.api, where, values, "linear ramp of the learning rate")
                return
        elif last == "ConstantLR" or named_warm:
            self.add("warmup", f.api, where, values, "constant factor for the first steps")
            return
        elif last in ("LambdaLR", "MultiplicativeLR"):
            factor = bound.get("lr_lambda")
            if factor is not None and "warm" in src.text(factor, limit=None).lower():
                self.add("warmup", f"{last} warm-up", where, values[:1], "warm-up in lr_lambda")
        elif last == "OneCycleLR":
            pct = bound.get("pct_start")
            shown = self._describe(src, pct) if pct is not None else "0.3 (default)"
            self.add("warmup", "OneCycleLR warm-up", where, [("pct_start", shown)])
        self.add("scheduler", f.api, where, values)

    # -- repo classes and functions the call facts name
    def _repo_instances(self) -> None:
        """Repo schedulers, losses, loaders, samplers and transforms, by torch ancestor or
        by name, at each place the repository calls them."""
        keys = sorted(set(self.repo.call_sites) | set(self.repo.defs))
        for key in keys:
            record = self.repo.defs.get(key)
            found = self._source_def(*record) if record is not None else None
            if found is None:
                continue
            src, node = found
            category = self._repo_category(key, node)
            if category is None:
                continue
            positional = self._repo_positional(key, src, node)
            calls_made: list[tuple[Source, ast.Call]] = []
            for path, fact in self.repo.call_sites.get(key, ()):
                caller = self.sources.get(path)
                if caller is None or is_test_path(path) or fact.role != "call":
                    continue
                calls = caller.calls_on.get(fact.line, [])
                call = next((c for c in calls if callee_name(c) == node.name), None)
                if call is None and len(calls) == 1:
                    call = calls[0]  # imported under another name
                if call is not None:
                    calls_made.append((caller, call))
            if key not in self.repo.call_sites and "." in key.removeprefix(src.module + "."):
                continue  # a method: star imports bring module-level names only
            if key not in self.repo.call_sites:
                # ``from utils import *`` then ``adjust_learning_rate(...)``: no call fact
                calls_made = [
                    found_call
                    for caller, call in self.values.star_call_sites(src.module, node.name)
                    if not is_test_path(caller.path)
                    and (found_call := self._source_call(caller, call)) is not None
                ]
            for caller, call in calls_made:
                if id(call) in self.composed_calls:
                    continue
                note, row = f"defined at {src.loc(node)}", category
                if category == _SCHEDULE_FUNCTION:
                    # DINO's ``lr_schedule = utils.cosine_scheduler(...)``: an array of
                    # per-step values, the LR's or the weight decay's by what it is stored as
                    # (``momentum_schedule`` is the EMA's, ``betas`` a noise schedule)
                    statement = caller.parent.get(call) or call
                    target = single_target(statement)
                    stored = caller.text(target) if target is not None else ""
                    if _LR_SCHEDULE.search(stored):
                        note, row = f"stored as {stored}, {note}", "scheduler"
                    elif isinstance(statement, ast.Expr) and _LR_NAME.search(node.name):
                        # lr_sched.adjust_learning_rate(optimizer, step / len(loader) + epoch,
                        # args) in the training loop: it sets the LR at each call
                        note, row = f"sets the LR where it is called, {note}", "scheduler"
                    else:
                        continue
                if row == "augmentation" and (
                    PurePosixPath(caller.path).parent == PurePosixPath(src.path).parent
                ):
                    continue  # a transform built inside the transforms' own package
                values = self._arguments(caller, call, positional)
                self.add(row, key, caller.where(call), values, note)

    def _repo_positional(self, key: str, src: Source, node: Def) -> list[str]:
        """Names of a repo callable's positional parameters; a subclass whose ``__init__``
        passes ``*args`` on (or has none) takes its torch ancestor's."""
        fn: ast.AST | None = node
        if isinstance(node, ast.ClassDef):
            fn = src.defs.get(f"{src.qualname[node]}.__init__")
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.args.vararg is None:
            names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            return names[1:] if src.class_of(fn) is not None else names
        ancestors = sorted(self.hierarchy.torch_ancestors(key))
        return self._torch_positional(ancestors[0]) if ancestors else []

    def _repo_category(self, key: str, node: Def) -> str | None:
        name = node.name
        if isinstance(node, ast.ClassDef):
            for ancestor in sorted(self.hierarchy.torch_ancestors(key)):
                for prefix, category in _ANCESTOR_CATEGORY:
                    if ancestor.startswith(prefix) and (
                        category != "dataloader" or _SAMPLERS.fullmatch(ancestor)
                    ):
                        return category
            if self.hierarchy.is_dataset(key) and not _AUG_DATASET.search(name):
                return None  # TransformEosLangPairDataset rewrites tokens; MosaicDetection augments
        module = isinstance(node, ast.ClassDef) and (
            "torch.nn.Module" in self.hierarchy.torch_ancestors(key)
        )
        if isinstance(node, ast.ClassDef) and re.search(r"sched", name, re.IGNORECASE):
            # a Module named "schedule" is a network (a learned noise schedule), not the LR's
            return None if module else "scheduler"
        if not isinstance(node, ast.ClassDef) and _SCHEDULE_NAME.search(name):
            return _SCHEDULE_FUNCTION  # a scheduler only if what it returns is stored so
        if isinstance(node, ast.ClassDef) and _LOSS_CLASS_NAME.search(name):
            return "loss"
        if not isinstance(node, ast.ClassDef) and _is_loss_function(name):
            return "loss"
        if (
            isinstance(node, ast.ClassDef)
            and not module
            and _TRANSFORM_CLASS.search(name)
            and _DATA_MODULE.search(key.rpartition(".")[0])
        ):
            return "augmentation"  # Box2BoxTransform in modeling/ is a box coder
        return None

    # -- patterns read from the trees
    def _foreign_calls(self, src: Source) -> None:
        """torchvision / albumentations transforms, numpy and ``random`` seeds, and calls
        that end augmentation for the last epochs (``close_mosaic()``)."""
        for call in src.calls:
            name = src.dotted(call.func)
            if name is not None and name.startswith(_AUG_PACKAGES):
                if id(call) in self.composed_calls:
                    continue  # shown in its composition's row
                if self.composed_modules and not name.rpartition(".")[2][:1].isupper():
                    continue  # a functional transform inside a transform's definition
                if name.rpartition(".")[2] != "Compose":
                    values = [(f"arg{i + 1}", src.text(a)) for i, a in enumerate(call.args)]
                    values += [(k.arg or "**", src.text(k.value)) for k in call.keywords]
                    self.add("augmentation", name, src.where(call), values)
            elif name in _FOREIGN_SEEDS:
                values = [("seed", self._describe(src, a)) for a in call.args[:1]]
                self.add("seed", name, src.where(call), values)
            elif (
                name is not None
                and name.partition(".")[0] not in self.local | {"torch"}
                and _FOREIGN_LOSS.search(name.rpartition(".")[2])
            ):  # timm.loss.LabelSmoothingCrossEntropy(smoothing=args.smoothing)
                describe = self._describe
                values = [(f"arg{i + 1}", describe(src, a)) for i, a in enumerate(call.args)]
                values += [(k.arg or "**", describe(src, k.value)) for k in call.keywords]
                self.add("loss", name, src.where(call), values, "third-party loss")
            elif _NO_AUG.search(callee_name(call)):
                self._no_aug_call(src, call)

    def _compositions(self, src: Source) -> None:
        """Each outermost composition of transforms (``T.Compose([...])``) as one row with
        the transforms it applies, in order, with their values followed (``scales`` → the
        list it is set to); the ``if`` it sits under says which split uses it."""
        for call in src.calls:
            if not _is_compose(callee_name(call)) or id(call) in self.composed_calls:
                continue
            fn = src.function_of(call)
            self.composed_calls.add(id(call))
            if _transform_internal(src, fn):
                continue  # ColorJitter.get_params' own Compose: how one step is made
            steps = self._steps(src, fn, call.args[0] if call.args else None, 0)
            if self._inside_composition(src, call) or not steps:
                continue
            values = [(f"{i}", step) for i, step in enumerate(steps, 1)]
            test = src.enclosing(call, ast.If)
            if isinstance(test, ast.If) and (fn is None or src.function_of(test) is fn):
                values.append(("when", src.text(test.test)))
            where = fn.name if fn is not None else "module code"
            note = "the transforms applied, in order"
            target = single_target(src.parent.get(call) or call)
            if isinstance(target, ast.Name | ast.Attribute):  # val_transform = T.Compose(...)
                note += f", stored as {src.text(target)}"
            self.add("augmentation", f"composition in {where}", src.where(call), values, note)

    def _inside_composition(self, src: Source, call: ast.Call) -> bool:
        """A composition used as a step of another (``normalize`` in the training one)."""
        parent = src.parent.get(call)
        while parent is not None and not isinstance(parent, ast.stmt):
            if isinstance(parent, ast.Call) and (
                _is_compose(callee_name(parent)) or callee_name(parent) in _COMPOSITIONS
            ):
                return True
            parent = src.parent.get(parent)
        stmt = parent
        fn = src.function_of(call)
        if isinstance(stmt, ast.Assign) and fn is not None:
            names = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Name)
                    and node.id in names
                    and isinstance(node.ctx, ast.Load)
                    and self._inside_composition_name(src, node)
                ):
                    return True
        return False

    def _inside_composition_name(self, src: Source, node: ast.AST) -> bool:
        parent = src.parent.get(node)
        while parent is not None and not isinstance(parent, ast.stmt):
            if isinstance(parent, ast.Call) and _is_compose(callee_name(parent)):
                return True
            parent = src.parent.get(parent)
        return False

    def _steps(
        self, src: Source, fn: FuncDef | None, expr: ast.expr | None, depth: int
    ) -> list[str]:
        """The transforms of a composition's list, each as ``Name(arg=value, ...)``."""
        if expr is None:
            return []
        if isinstance(expr, ast.Name) and fn is not None and depth < MAX_DEPTH:
            bound = self._local_value(fn, expr.id, expr.lineno)
            if isinstance(bound, ast.List | ast.Tuple):
                # t = [...]; t.append(T.Resize(...)); Compose(t): the list, then the appends
                steps = [self._step(src, fn, e, depth + 1) for e in bound.elts]
                appended = [
                    node
                    for node in own_body(fn)
                    if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("append", "extend")
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == expr.id
                    and node.lineno < expr.lineno
                    and node.args
                ]
                for node in sorted(appended, key=lambda n: (n.lineno, n.col_offset)):
                    steps.extend(self._steps(src, fn, node.args[0], depth + 1))
                return steps
            if bound is not None:
                return self._steps(src, fn, bound, depth + 1)
        if isinstance(expr, ast.List | ast.Tuple):
            return [self._step(src, fn, e, depth + 1) for e in expr.elts]
        return [self._step(src, fn, expr, depth + 1)]

    def _step(self, src: Source, fn: FuncDef | None, expr: ast.expr, depth: int) -> str:
        for node in ast.walk(expr):  # T.Flip() if flip else nn.Identity(): shown here too
            if isinstance(node, ast.Call):
                self._composed(src, node)
        if isinstance(expr, ast.Name) and fn is not None and depth < MAX_DEPTH:
            bound = self._local_value(fn, expr.id, expr.lineno)
            if isinstance(bound, ast.Call):
                return self._step(src, fn, bound, depth + 1)
        if not isinstance(expr, ast.Call) or depth >= MAX_DEPTH:
            return src.text(expr)
        self._composed(src, expr)
        name = callee_name(expr) or src.text(expr.func)
        if _is_compose(name):
            inner = self._steps(src, fn, expr.args[0] if expr.args else None, depth + 1)
            return "[" + ", ".join(inner) + "]"
        args = []
        for arg in expr.args:
            args.append(self._argument(src, fn, arg, depth))
        for kw in expr.keywords:
            args.append(f"{kw.arg or '**'}={self._argument(src, fn, kw.value, depth)}")
        return f"{name}({', '.join(args)})"

    def _built_lists(self, src: Source) -> None:
        """A builder of augmentations that returns a list (detectron2's
        ``build_augmentation``: ``augmentation = [T.ResizeShortestEdge(...)]`` then
        ``augmentation.append(T.RandomFlip(...))``) is a composition too."""
        for qual, fn in src.defs.items():
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not _AUG_BUILDER.fullmatch(fn.name) or src.class_of(fn) is not None:
                continue
            returned = [
                n.value
                for n in own_body(fn)
                if isinstance(n, ast.Return) and isinstance(n.value, ast.Name | ast.List)
            ]
            if len(returned) != 1:
                continue
            steps = self._steps(src, fn, returned[0], 0)
            if steps:
                values = [(f"{i}", step) for i, step in enumerate(steps, 1)]
                self.add("augmentation", f"composition in {qual}", src.where(fn), values,
                         "the transforms the builder returns, in order")  # fmt: skip
                self.composed_modules.discard(src.module)

    def _composed(self, src: Source, call: ast.Call) -> None:
        """Marks a step's call as shown, and its class's module as one whose transform
        definitions the composition stands for."""
        self.composed_calls.add(id(call))
        if isinstance(call.func, ast.Name) and call.func.id in src.defs:
            self.composed_modules.add(src.module)
            return
        dotted = src.dotted(call.func) or _relative(src, call.func)
        key = self.repo.canonical.get(dotted)
        if key is not None:
            self.composed_modules.add(key.rpartition(".")[0])
        elif dotted.partition(".")[0] in self.local:  # T.ResizeShortestEdge: the package
            self.composed_modules.add(dotted.rpartition(".")[0])

    def _argument(self, src: Source, fn: FuncDef | None, expr: ast.expr, depth: int) -> str:
        if isinstance(expr, ast.Call) or (
            isinstance(expr, ast.Name)
            and fn is not None
            and isinstance(self._local_value(fn, expr.id, expr.lineno), ast.Call)
        ):
            return self._step(src, fn, expr, depth + 1)
        if isinstance(expr, ast.List | ast.Tuple) and any(
            isinstance(e, ast.Call) for e in expr.elts
        ):
            return "[" + ", ".join(self._step(src, fn, e, depth + 1) for e in expr.elts) + "]"
        return self._resolve(src, expr).text

    @staticmethod
    def _local_value(fn: FuncDef, name: str, before: int) -> ast.expr | None:
        """The last ``name = value`` of ``fn`` before line ``before``."""
        bound = [
            node
            for node in own_body(fn)
            if isinstance(node, ast.Assign)
            and node.lineno < before
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == name
        ]
        found = max(bound, key=lambda n: n.lineno).value if bound else None
        return found

    def _no_aug_call(self, src: Source, call: ast.Call) -> None:
        values = [("call", src.text(call))]
        test = src.enclosing(call, ast.If)
        when = src.text(test.test) if isinstance(test, ast.If) else ""
        if when:
            values.append(("when", when))
        if "epoch" in when or "epoch" in values[0][1]:
            name = "last epochs without augmentation"
            note = "augmentation switched off for the final epochs"
        else:  # timm's --no-aug: a switch for the whole run, not a schedule
            name = "training without augmentation"
            note = "augmentation switched off by a setting"
        self.add("augmentation", name, src.where(call), values, note)

    def _ema_loops(self, src: Source) -> None:
        """An average of the weights kept by hand: a loop over ``state_dict()`` /
        ``parameters()`` that updates each tensor in place with a decay (``mul_(d).add_``,
        ``lerp_``, ``v *= d; v += ...``), under ``no_grad`` (or on ``.data``)."""
        for loop in src.loops:
            if not _WEIGHT_ITER.search(src.text(loop.iter, limit=None)):
                continue
            names = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
            update = _ema_update(loop, names)
            if update is None:
                continue
            if not (self._under_no_grad(src, loop) or ".data" in src.text(update, limit=None)):
                continue
            self._ema_item(src, loop, update)

    def _under_no_grad(self, src: Source, node: ast.AST) -> bool:
        current = src.parent.get(node)
        while current is not None and not isinstance(current, ast.ClassDef | ast.Module):
            if isinstance(current, ast.With | ast.AsyncWith) and any(
                _NO_GRAD.search(src.text(i.context_expr)) for i in current.items
            ):
                return True
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                _NO_GRAD.search(src.text(d)) for d in current.decorator_list
            ):
                return True
            current = src.parent.get(current)
        return False

    def _ema_item(self, src: Source, loop: ast.AST, update: ast.AST) -> None:
        fn = src.function_of(loop)
        cls = src.class_of(fn)
        stmt = update
        while not isinstance(stmt, ast.stmt) and stmt in src.parent:
            stmt = src.parent[stmt]
        values = [("update", f"{src.text(stmt)} at {src.loc(stmt)}")]
        holder: Def | None = cls or fn
        decay_fn: FuncDef | None = fn
        if cls is not None:
            init = src.defs.get(f"{src.qualname[cls]}.__init__")
            decay_fn = init if isinstance(init, ast.FunctionDef | ast.AsyncFunctionDef) else fn
        f = self.files.get(src.path)
        if decay_fn is not None and f is not None:
            index = self._def_index(src, decay_fn)
            for name, default in f.defs[index].params:
                if _DECAY_PARAM.search(name):
                    val = self.values.parameter(f, index, name, default, 0)
                    values.append((name, val.show()))
        factor = _ema_factor(update)
        if len(values) == 1 and factor is not None and not is_literal(factor):
            # no decay parameter: the factor the update uses (``m = momentum_schedule[it]``)
            values.append(("decay", self._describe(src, factor)))
        if holder is not None and f is not None:
            for caller, call in self.values.call_sites(f, self._def_index(src, holder))[:5]:
                line = call.expr.line
                values.append(("used at", f"{caller.loc(line)}: {call.expr.text}"))
        label = f"{holder.name}" if holder is not None else "module code"
        where = src.where(holder) if holder is not None else src.where(loop)
        self.add("ema", f"EMA of weights ({label})", where, values, "exponential moving average")

    def _flips(self) -> None:
        """A reversed slice under a condition in data-processing code: a random flip written
        as indexing (``img[:, ::-1]``), from the scan's syntax facts."""
        for fa, facts in with_facts(self.analyses):
            module = fa.modules[0] if fa.modules else ""
            for line, expression, when, function, cls in facts.flips:
                if (fa.path, function) not in self.data_functions and not (
                    cls and module and self.hierarchy.is_dataset(f"{module}.{cls}")
                ):
                    continue
                values = [("expression", expression), ("when", when)]
                self.add("augmentation", "flip (reversed slice)", place(fa, line), values)

    def _named_defs(self) -> None:
        """Augmentations and initialisations the repository writes itself, by their names
        (the defs the scan's syntax facts name)."""
        for fa, facts in with_facts(self.analyses):
            module = fa.modules[0] if fa.modules else ""
            lines = {qual: first for qual, first, _ in facts.spans}
            routines = {r[0]: r for r in facts.init_routines}
            for qual, is_class, owner in facts.def_kinds:
                name = qual.rpartition(".")[2]
                if name.startswith("__"):
                    continue
                if (
                    _AUG_NAME.search(name)
                    and not _NO_AUG.search(name)
                    and not _NOT_AUG_CONTEXT.search(f"{fa.path}:{qual}")
                ):
                    if any(
                        module == m or module.startswith(m + ".") for m in self.composed_modules
                    ):  # a definition: the composition says which are used (T = the package)
                        continue
                    if not self._called(fa.path, module, qual):
                        continue  # defined, never called: not part of what runs
                    if self._network_def(fa.path, module, qual, qual if is_class else owner):
                        continue  # rotate_half of rotary embeddings, an "Affine" layer: the model
                    if any(
                        i.name == f"composition in {qual}" and i.where.path == fa.path
                        for i in self.out
                    ):
                        continue  # a builder whose composition is already a row
                    kind = "class" if is_class else "function"
                    self.add("augmentation", qual, place(fa, lines[qual]),
                             note=f"repo {kind}, by its name")  # fmt: skip
                elif qual in routines:
                    self._init_def(fa, routines[qual])

    def _called(self, path: str, module: str, qual: str) -> bool:
        """Whether the repository calls the def (or a method of the class) ``qual`` of
        the file ``path`` outside tests and outside that file: a helper only its own module
        calls (``get_affine_matrix`` under ``random_affine``, ``auto_augment_policy_v0`` under
        ``auto_augment_policy``) is a definition, shown by whatever calls it."""
        key = f"{module}.{qual}"
        return any(
            not is_test_path(site) and site != path
            for k, sites in self.repo.call_sites.items()
            if k == key or k.startswith(key + ".")
            for site, _ in sites
        )

    def _network_def(self, path: str, module: str, qual: str, owner: str) -> bool:
        """A def of the model: an ``nn.Module`` (a class, or the class ``owner`` of a method)
        or a function the scan places in the network graph."""
        if owner and module and self.hierarchy.is_module(f"{module}.{owner}"):
            return True
        return (path, qual) in self.network_functions

    def _init_def(
        self, fa: FileAnalysis, routine: tuple[str, int, int, tuple[tuple[str, str], ...]]
    ) -> None:
        """A repo initialisation routine: what it sets, unless nn.init calls already say so."""
        qual, first, last, values = routine
        torch_inits = {
            name for line, name in self.init_names.get(fa.path, ()) if first <= line <= last
        }
        if torch_inits:
            # the nn.init calls are rows of their own; what is left is the initialisers the
            # repository defines itself (DINO's ``trunc_normal_(m.weight, std=.02)`` beside
            # ``nn.init.constant_``), which no torch API row shows
            values = tuple(
                (key, value)
                for key, value in values
                if key.rpartition(".")[2] in INIT_FUNCTIONS
                and key.rpartition(".")[2] not in torch_inits
            )
            if not values:
                return
        self.add("init", qual, place(fa, first), values, "repo initialisation routine")

    def _cudnn(self) -> None:
        """``cudnn.deterministic = True`` / ``cudnn.benchmark``: reproducibility switches
        (the scan's syntax facts)."""
        for fa, facts in with_facts(self.analyses):
            for name, value, line in facts.cudnn_flags:
                self.add(
                    "seed", name, place(fa, line), [("value", value)], _CUDNN_NOTES.get(name, "")
                )

    # -- settings: argparse options, config attributes, module constants
    def _settings(self) -> None:
        for dest, options in self.repo.argparse.items():
            category = _setting_category(dest)
            if category is None:
                continue
            for o in options:
                if o.default is not None:
                    value = self.values.describe(o.file, o.call.function, o.default)
                elif o.action in ("store_true", "store_false"):
                    value = "False" if o.action == "store_true" else "True"
                else:
                    value = "no default"
                where = o.file.where(o.call.expr.line)
                self.add(category, f"argparse {o.option}", where, [("default", value)])
        for cls, sets in self.repo.attrs.items():
            if self.hierarchy.is_module(cls) or self.hierarchy.is_dataset(cls):
                continue
            for a in sets:
                category = _setting_category(a.attr)
                if category and a.method in ("__init__", "") and a.value.literal:
                    name = f"{cls.rpartition('.')[2]}.{a.attr}"
                    self.add(category, name, a.file.where(a.line), [("value", a.value.text)])
        for constant, stmt, f in self.repo.constants:
            category = _setting_category(constant)
            if category and stmt.value.literal:
                self.add(category, constant, f.where(stmt.line), [("value", stmt.value.text)])

    def _pipelines(self) -> None:
        """Augmentations written as statements threading the image through calls (the
        scan's :class:`~apiscan.extract.syntax.Pipeline` facts): one row with the steps in
        order and the tests they run under. The calls inside the pipeline and inside the
        file's own step functions (``flip`` calling ``FT.hflip``) are then shown by this row,
        not one row each."""
        for fa, facts in with_facts(self.analyses):
            spans = {q.rpartition(".")[2]: (first, last) for q, first, last in facts.spans}
            for pipe in facts.pipelines:
                if _NOT_AUG_CONTEXT.search(pipe.function):
                    continue
                values = [
                    (f"{i}", f"{text} (if {when})" if when else text)
                    for i, (text, when, _) in enumerate(pipe.steps, 1)
                ]
                self.add("augmentation", f"pipeline in {pipe.function}", place(fa, pipe.line),
                         values, "the calls the image goes through, in order")  # fmt: skip
                shown = [(pipe.line, pipe.end_line)]
                shown += [spans[own] for _, _, own in pipe.steps if own in spans]
                self.threaded_spans += [(fa.path, first, last) for first, last in shown]

    def _lazy_compositions(self) -> None:
        """The augmentations a lazy config hands its training mapper (the scan's
        :class:`~apiscan.extract.syntax.LazyAugmentations` facts): detectron2's
        ``configs/common/data/coco.py`` resizes the shortest edge to one of six sizes."""
        for fa, facts in with_facts(self.analyses):
            for lazy in facts.lazy_augmentations:
                if not lazy.steps:
                    continue
                values = [(f"{i}", step) for i, step in enumerate(lazy.steps, 1)]
                name = f"composition in {lazy.stored or 'a lazy config'}"
                self.add("augmentation", name, place(fa, lazy.line), values,
                         "the augmentations the lazy config hands its training mapper")  # fmt: skip

    def _registry_choices(self) -> None:
        """Losses, optimizers and LR schedules picked by name on the command line
        (fairseq's ``--criterion``, ``--optimizer``, ``--lr-scheduler``, set up by
        ``registry.setup_registry("--criterion", ..., default="cross_entropy")``): one row
        with the option, its default and where the default is registered, instead of a row
        for every registered criterion's own loss calls (only the selected one runs). Read
        from the scan's syntax facts."""
        files = list(with_facts(self.analyses))
        for fa, facts in files:
            for setup in facts.registry_setups:
                category = _registry_category(setup.option)
                if category is None:
                    continue
                registered = [
                    (key, place(other, line))
                    for other, other_facts in files
                    for name, key, line in other_facts.registered
                    if name in setup.registers
                ]
                if not registered:
                    continue
                chosen = next((w for key, w in registered if key == setup.default), None)
                where = {w.path for _, w in registered}
                self.out = [
                    i for i in self.out if i.category != category or i.where.path not in where
                ]
                shown = (
                    "none: the command line must name one"
                    if setup.default is None
                    else f'"{setup.default}"'
                )
                values = [("default", shown), ("registered", f"{len(registered)} choices")]
                if chosen is not None:
                    values.append(("default defined at", str(chosen)))
                what = RECIPE_CATEGORIES[category].lower()
                self.add(
                    category,
                    f"{setup.option} (picked by name)",
                    place(fa, setup.line),
                    values,
                    f"the {what} is the one the command line names; the registered ones' own "
                    "rows are not listed",
                )

    def _hand_schedules(self, src: Source) -> None:
        """An LR or BatchNorm momentum computed by hand from the epoch (PointNet++'s
        ``lr = max(lr0 * decay ** (epoch // step), clip)`` and ``momentum = 0.1 * 0.5 **
        (epoch // step)`` set on every BatchNorm through ``model.apply``): the formula with
        its constants, and the floor an ``if`` puts under it."""
        sets_bn = any(
            isinstance(t, ast.Attribute) and t.attr == "momentum"
            for stmt in src.assigns
            for t in stmt.targets
        )
        for stmt in src.assigns:
            target = single_target(stmt)
            if not isinstance(target, ast.Name) or not _reads_epoch(stmt.value):
                continue
            fn = src.function_of(stmt)
            if (fn is not None and _SCHEDULE_NAME.search(src.qualname.get(fn, ""))) or (
                _SCHEDULE_NAME.search(PurePosixPath(src.path).stem)
            ):
                continue  # a scheduler's own formula: its row is the scheduler's
            if re.search(r"(^|_)(lr|learning_rate)$", target.id, re.IGNORECASE):
                category, name, note = "scheduler", f"{target.id} computed by hand", ""
            elif target.id.endswith("momentum") and sets_bn:
                category, name = "bn_momentum", f"{target.id} computed by hand"
                note = (
                    "set on the BatchNorm layers each epoch; MindSpore's BatchNorm momentum "
                    "is 1 − torch's (torch 0.1 is MindSpore 0.9): convert every value"
                )
            else:
                continue
            values = [("formula", src.text(stmt.value))]
            # constants (``MOMENTUM_ORIGINAL = 0.1``) and settings (``args.lr_decay``)
            refs = {
                src.text(n): n
                for n in ast.walk(stmt.value)
                if (isinstance(n, ast.Name) and n.id.isupper())
                or (isinstance(n, ast.Attribute) and name_chain(n) and not src.dotted(n))
            }
            values += [(text, self._describe(src, refs[text])) for text in sorted(refs)]
            floor = _floor(src, stmt, target.id)
            if floor:
                values.append(("floor", floor))
            self.add(category, name, src.where(stmt), values, note)

    def _launchers(self) -> None:
        """``torchrun`` / ``python -m torch.distributed.launch`` in the repository's scripts."""
        for script in sorted(_scripts(self.root)):
            try:
                lines = script.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            rel = script.relative_to(self.root).as_posix()
            for n, line in enumerate(lines, 1):
                found = re.search(r"\btorchrun\b|torch\.distributed\.(launch|run)\b", line)
                if found and not line.lstrip().startswith("#"):
                    command = " ".join(line.split())[:TEXT_LIMIT]
                    self.add("distributed", found.group(0), Where(rel, n), [("command", command)])

    def _accumulation(self) -> None:
        """A backward every iteration but an optimizer step only when ``i % n == 0``."""
        seen: set[tuple[str, int]] = set()
        for f in self.result.api_findings:
            if f.api != "torch.Tensor.backward" or f.usage != "call" or is_test_path(f.path):
                continue
            src = self.sources.get(f.path)
            call = src.call_for(f) if src is not None else None
            fn = src.function_of(call) if src is not None and call is not None else None
            if src is None or call is None or fn is None or (f.path, fn.lineno) in seen:
                continue
            seen.add((f.path, fn.lineno))
            steps = [
                n
                for n in own_body(fn)
                if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "step"
                and re.search(r"optim|scaler", src.text(n.func.value), re.IGNORECASE)
            ]
            guards = [_modulo_guard(src, step, fn) for step in steps]
            if not steps or any(g is None for g in guards):
                continue
            guard = guards[0]
            assert guard is not None
            if _inside(src, call, guard[0]):
                continue
            values = [
                ("condition", src.text(guard[0].test)),
                ("every", self._describe(src, guard[1])),
                ("backward", src.loc(call)),
            ]
            self.add("grad_accum", "gradient accumulation", src.where(guard[0]), values,
                     "optimizer step every n backward passes")  # fmt: skip


def _registry_category(option: str) -> str | None:
    """The recipe row a registry's command-line option picks: ``--criterion`` a loss,
    ``--optimizer`` an optimizer, ``--lr-scheduler`` an LR schedule."""
    word = option.lstrip("-").replace("_", "-").lower()
    if "criterion" in word or "loss" in word:
        return "loss"
    if "sched" in word:
        return "scheduler"
    if word.startswith("optim"):
        return "optimizer"
    return None


def _reads_epoch(expr: ast.expr) -> bool:
    """A value computed from the epoch (or iteration) it is set for."""
    return any(
        (isinstance(n, ast.Name) and re.search(r"epoch|^it(er)?$", n.id, re.IGNORECASE))
        or (isinstance(n, ast.Attribute) and "epoch" in n.attr.lower())
        for n in ast.walk(expr)
    ) and any(isinstance(n, ast.BinOp) for n in ast.walk(expr))


def _floor(src: Source, stmt: ast.Assign, name: str) -> str:
    """``if momentum < 0.01: momentum = 0.01`` right after ``stmt``: the floor's text."""
    body = getattr(src.parent.get(stmt), "body", [])
    for n, node in enumerate(body):
        if node is stmt and n + 1 < len(body):
            after = body[n + 1]
            if (
                isinstance(after, ast.If)
                and isinstance(after.test, ast.Compare)
                and isinstance(after.test.left, ast.Name)
                and after.test.left.id == name
                and isinstance(after.test.ops[0], ast.Lt | ast.LtE)
                and after.body
                and single_target(after.body[0]) is not None
            ):
                return src.text(after.test.comparators[0])
    return ""


def _side_script(path: str) -> bool:
    """A top-level script that benchmarks, evaluates, samples or demonstrates: its values
    are not the training recipe's (nanoGPT's bench.py passes its own learning rate)."""
    name = PurePosixPath(path).name
    return "/" not in path and name.startswith(
        ("bench", "eval", "validate", "sample", "demo", "infer", "export", "profile")
    )


def _relative(src: Source, expr: ast.expr) -> str:
    """``T.RandomFlip`` after ``from . import transforms as T`` as a dotted name ("" when the
    head is not bound by a relative import): the shared import table keeps absolute ones."""
    parts = name_chain(expr)
    if parts is None or not src.module:
        return ""
    for node in src.imports_made:
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        for alias in node.names:
            if (alias.asname or alias.name) == parts[0]:
                prefix = src.from_module(node)
                head = [prefix, alias.name] if prefix else [alias.name]
                return ".".join([*head, *parts[1:]])
    return ""


def _is_loss_function(name: str) -> bool:
    words = [w for w in name.lower().split("_") if w]
    return "loss" in words and not (set(words) & _LOSS_HELPER_WORDS)


def _category(api: str) -> str | None:
    """The recipe category of a torch API the scan found, or None."""
    last = api.rpartition(".")[2]
    if _SCHEDULER.fullmatch(api):
        return "scheduler"
    if _OPTIMIZER.fullmatch(api) or (api.startswith("torch.optim.") and last == "add_param_group"):
        return "optimizer"
    if _LOSS_CLASS.fullmatch(api) or (
        api.startswith("torch.nn.functional.")
        and (last.endswith("loss") or last in _LOSS_FUNCTIONS)
    ):
        return "loss"
    if (api.startswith("torch.") and last in _AMP) or api in _HALF:
        return "amp"
    if api in _EMA_APIS:
        return "ema"
    if api in _CLIP:
        return "grad_clip"
    if api in _DISTRIBUTED or api.startswith(_LAUNCH_MODULES):
        return "distributed"
    if api in _LOADER:
        return "dataloader"
    if api.startswith("torch.") and last in _SEED_NAMES:
        return "seed"
    if api.startswith("torch.nn.init."):
        return "init"
    return None


def _bind_torch(params: Sequence[tuple[str, str, bool]], call: ast.Call) -> dict[str, ast.expr]:
    positional = [p for p, kind, _ in params if kind in ("pos_only", "pos_or_kw")]
    bound: dict[str, ast.expr] = {}
    for name, arg in zip(positional, call.args, strict=False):
        if isinstance(arg, ast.Starred):
            break
        bound[name] = arg
    bound.update({k.arg: k.value for k in call.keywords if k.arg})
    return bound


def _ema_factor(update: ast.AST) -> ast.expr | None:
    """The decay an in-place average update scales by: ``mul_(d)``'s, ``lerp_(x, w)``'s
    weight (found by :func:`_ema_update`); None for ``v *= d; v += ...``, whose update is
    the addition."""
    if not (isinstance(update, ast.Call) and isinstance(update.func, ast.Attribute)):
        return None
    if update.func.attr == "lerp_" and len(update.args) == 2:
        return update.args[1]
    receiver = update.func.value
    if (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Attribute)
        and receiver.func.attr == "mul_"
        and len(receiver.args) == 1
    ):
        return receiver.args[0]
    return None


def _root_name(expr: ast.AST) -> str | None:
    while isinstance(expr, ast.Attribute | ast.Subscript):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _ema_update(loop: ast.For | ast.AsyncFor, names: set[str]) -> ast.AST | None:
    """The in-place decayed update of a loop variable, if the loop body makes one."""
    scaled: set[str] = set()
    for stmt in loop.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.AugAssign) and _root_name(node.target) in names:
                root = _root_name(node.target) or ""
                if isinstance(node.op, ast.Mult):
                    scaled.add(root)
                elif isinstance(node.op, ast.Add | ast.Sub) and root in scaled:
                    return node
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            method, receiver = node.func.attr, node.func.value
            if method == "lerp_" and _root_name(receiver) in names:
                return node
            if (
                method in ("add_", "sub_")
                and isinstance(receiver, ast.Call)
                and isinstance(receiver.func, ast.Attribute)
                and receiver.func.attr == "mul_"
                and _root_name(receiver.func.value) in names
            ):
                return node
            if method in ("copy_", "sub_") and _root_name(receiver) in names:
                mixes = any(
                    isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)
                    for a in node.args
                    for n in ast.walk(a)
                )
                mentions = any(
                    isinstance(n, ast.Name) and n.id == _root_name(receiver)
                    for a in node.args
                    for n in ast.walk(a)
                )
                if mixes and mentions:
                    return node
    return None


def _dict_items(expr: ast.expr) -> list[tuple[str, ast.expr]]:
    """(key, value) of a dict literal's string keys, or of a ``dict(key=value)`` call."""
    if isinstance(expr, ast.Dict):
        return [
            (key.value, item)
            for key, item in zip(expr.keys, expr.values, strict=True)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)
        ]
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "dict":
        return [(k.arg, k.value) for k in expr.keywords if k.arg]
    return []


def _when(src: Source, test: ast.expr | None) -> str:
    """`` (if use_fused)``: the test an entry of a conditional dict is passed under."""
    return f" (if {src.text(test)})" if test is not None else ""


def _modulo_guard(src: Source, node: ast.AST, fn: FuncDef) -> tuple[ast.If, ast.expr] | None:
    """The ``if (i + 1) % n == 0:`` above ``node`` (inside ``fn``), and its ``n``."""
    current = src.parent.get(node)
    while current is not None and current is not fn:
        if isinstance(current, ast.If):
            for sub in ast.walk(current.test):
                if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod):
                    return current, sub.right
        current = src.parent.get(current)
    return None


def _inside(src: Source, node: ast.AST, ancestor: ast.AST) -> bool:
    current = src.parent.get(node)
    while current is not None:
        if current is ancestor:
            return True
        current = src.parent.get(current)
    return False


def _scripts(root: Path) -> Iterator[Path]:
    """Shell scripts of the repository, outside hidden and environment directories."""
    skip = {"node_modules", "venv", "site-packages", "__pycache__"}
    for path in root.rglob("*.sh"):
        rel = path.relative_to(root).parts
        if path.is_file() and not any(p.startswith(".") or p in skip for p in rel[:-1]):
            yield path
