"""The "Recipe" part of the feasibility review: the training recipe, read from the code.

A migration is judged by whether the MindSpore run reaches the reference accuracy, and that
depends on the whole recipe (optimizer and its arguments, schedule and warm-up, EMA, mixed
precision, augmentations, batch size, epochs...), not only on the network. The seed guides ask
for that recipe before any code is moved; this module fills the checklist in, each item with
the file and line it comes from so a reader can check it.

Where it reads from:

- The scan's API findings anchor everything torch marks (``torch.optim.SGD``, ``LinearLR``,
  ``torch.autocast``, ``clip_grad_norm_``...): the finding's span locates the call in the
  file's value record, and the call's arguments are bound to the API's parameter names from
  the torch index the scan already uses. Names are never re-resolved here.
- What no torch API marks is read from the same records: argparse options, attributes set by
  config classes (YOLOX-style ``Exp``), hand-written EMA loops, gradient accumulation, repo
  classes and functions the call facts name (schedulers, losses, transforms), torchvision /
  numpy / ``random`` calls (through the file's own import statements, since the scan only
  resolves torch names), and launch scripts (``torchrun``; the options a shell script passes
  the training script, which replace its argparse defaults:
  :func:`~apiscan.review.commands.launches`).
- A config held in a dict-like object is read key by key, the last writer winning: an
  ``EasyDict`` passed as ``**kwargs``, updated with ``vars(parser.parse_args())`` and
  returned wrapped (``edict(cfg)``); a settings object filled by attribute and handed on
  in ``**c``; a YAML each training script loads into a dict (the file its documented
  command passes); a global config object's keys (``cfg.RNG_SEED`` after ``cfg = __C``);
  the instance an entry function's parameter default builds (``train: TrainArgs =
  TrainArgs(global_batch_size=16)``); click options like argparse ones.
- What a training step writes by hand: the settings a loss is multiplied by (in an
  expression, in place with ``*=``, or inside the loss's own returns; a config dict's entry
  followed to its literal) and the interval of a lazily applied penalty, an LR written into
  the param groups, BatchNorm settings overwritten after construction, normalisation written
  as arithmetic in the data path.

Rows of code the defaults do not run are left out: untaken branches, functions and classes
nothing calls or builds, and the model families registered beside the one an argparse default
picks.

No file is read or parsed again: each file's expressions, defs, calls, assignments and loops
are the records its worker wrote from the tree it already had
(:class:`~apiscan.extract.values.FileValues`, in the syntax facts). Calls of repository
functions and classes are the scan's call facts, resolved to the def they reach by the
solver's own lookup (:func:`apiscan.program.solver.callee_resolver`). Values are followed where
they are literals in the repository (:class:`_Values`): the scan's abstract values say whether
a value is static or read from tensor data, not which literal it is, so the argument
expressions are read here; otherwise the text says where the value comes from. Test files are
left out: their optimizers and seeds are not the training recipe.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import pairwise
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from apiscan.extract.records import CallFact, FileAnalysis
from apiscan.extract.syntax import INIT_CALLS, INIT_FUNCTIONS, INIT_NAME, shorten
from apiscan.extract.values import (
    ArgOption,
    AssignValues,
    CallValues,
    DefValues,
    Expr,
    FileValues,
    IfValues,
    LoopValues,
    UpdateValues,
    argparse_option,
    field_default,
    is_numeric,
)
from apiscan.extract.values import literal_value as _literal_value
from apiscan.model import ApiFinding, ScanResult
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review.commands import NUMBER, Launch, launches
from apiscan.review.config_files import (
    NOT_SCALAR,
    DarknetSettings,
    OptionFiles,
    Setting,
    YamlConfigs,
    canon_value,
    darknet_recipe,
    darknet_settings,
    framework_rows,
    hydra_entry,
    hyp_settings,
    loaded_settings,
    option_rows,
    picked_by_options,
    scalar_value,
    yacs_key,
    yaml_rows,
)
from apiscan.review.configs import with_config_rows
from apiscan.review.evaluate import (
    BUILT,
    COMPARE,
    UNKNOWN,
    Namespace,
    Namespaces,
    agreed,
    bind_call,
    holds,
    unset_option,
)
from apiscan.review.leftout import call_sites_by_def, left_out
from apiscan.review.model import RECIPE_CATEGORIES, RecipeItem, TopModel, Where
from apiscan.review.names import BoolTypes, as_bool, bool_word
from apiscan.review.readings import Readings
from apiscan.review.registry import registry_choices
from apiscan.review.roles import (
    DEMO_DIRS,
    GRADIENT_COLLECTIVES,
    GUI_DIRS,
    HAND_DRAWN,
    LAUNCH_MODULES,
    MODEL_DRAWN,
    RANDOM_DRAW,
    TORCH_FRAMEWORKS,
    TRAIN_SWITCHES,
    TRAINING_STEP,
    WEIGHTS_FILE,
    gradient_syncs,
    is_composition,
    side_script,
    train_switch,
)
from apiscan.review.roles import EVALUATION_PART as _EVAL_DIR
from apiscan.review.sources import (
    TEXT_LIMIT,
    is_test_path,
    place,
    self_tests,
    with_facts,
)
from apiscan.review.structure import BY_NAME_BUILDER, class_name_entries
from apiscan.scope.classify import EXPORT_DIRS

#: A row by its category, path, line and name.
_RowKey = tuple[str, str, int, str]


class _Member(NamedTuple):
    """A member of a repository ``Enum`` as a branch test compares it: equal only to the
    same member of the same class."""

    cls: str
    name: str


#: The bases that make a class an enumeration.
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})


class _Branch(NamedTuple):
    """Where a row is built in an ``if``/``elif`` chain."""

    #: (path, line, column) of the chain's first ``if``
    chain: tuple[str, int, int]
    #: (line, column) of the ``if`` or ``elif`` right around the call
    inner: tuple[int, int]
    #: whether that test holds with the defaults; None when it cannot be told
    known: bool | None
    test: str
    #: what the call's result is stored as ("" when not stored)
    stored: str
    line: int
    #: the test of an ``if`` around the chain in the same function ("" if none)
    within: str = ""
    #: whether the chain's earlier tests all fail with the defaults (None: not known)
    passed: bool | None = True
    #: whether the call sits in the ``else`` of the ``if`` right around it
    in_else: bool = False
    #: whether that test is a choice of the command line (it reads a parsed option, no
    #: step counter: ``if args.prefetcher:``, not ``if (i + 1) % args.n_critic == 0:``)
    option: bool = False
    #: whether a test around the call reads a key of the element a ``for`` loop around it
    #: binds (``for block in blocks: ... elif block['type'] == 'region':``): what is built
    #: follows a description the code parses, one element at a time
    element: bool = False
    #: the config sections for which the test holds, when the name it reads holds several
    #: in turn (each training stage's section): the row is built for those only
    sections: tuple[str, ...] = ()
    #: whether the test reads the name a ``for`` loop around the call binds (``for name,
    #: param in model.named_parameters(): if 'bias' in name: init.constant_(param, 0.0)
    #: elif 'weight' in name: init.kaiming_normal_(param)``): each branch runs for the
    #: elements that pass its test, none is an alternative of the others
    per_element: bool = False


#: A call that stops the run: an error built to be raised, an exit.
_STOPS = re.compile(r"(^|\.)(\w*(Error|Exception)|exit|quit)$")
#: A value :meth:`_Recipe._holds` cannot tell (the shared evaluator's).
_UNKNOWN = UNKNOWN
#: The constants a followed value may be, by the word that writes them.
_CONSTANT_WORDS: dict[str, object] = {"None": None, "True": True, "False": False}
#: A step of a value's trail naming the YAML file that sets it (``... in cfg/x.yaml:12``).
_YAML_FILE = re.compile(r"\.ya?ml:\d+")

#: Order of the recipe's sections (the checklist of the seed guides).
CATEGORIES: tuple[str, ...] = tuple(RECIPE_CATEGORIES)

#: The methods of a torch module that return the module itself (a move, a cast, a mode
#: switch): what the result holds is what the receiver was built as.
_MODULE_RETURNING = frozenset(
    {"to", "cuda", "cpu", "train", "eval", "float", "half", "double", "bfloat16",
     "requires_grad_", "share_memory", "apply", "to_empty"}
)  # fmt: skip
#: How far a value is followed (name → assignment → argparse default ...) before giving up.
MAX_DEPTH = 5
#: The methods that grow a list in place.
_LIST_FILLS = frozenset({"append", "extend", "insert"})
#: A line after every line of a file (a module name read in a function: all of its
#: statements count).
_END = 1 << 30
#: A parameter is followed into each of its call sites when it has at most this many.
MAX_SITES = 3
#: ... or at most this many when each passes a literal for it.
_LITERAL_SITES = 12

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
#: A dtype of reduced precision as the code writes it (``torch.float16``, ``torch.half``).
_REDUCED_DTYPE = re.compile(r"\btorch\.(?:float16|half|bfloat16)\b")
#: The note of a network's own ``.to(dtype)`` casts to half precision.
_HAND_PRECISION = "casts to reduced precision in the network (not autocast)"
#: A test that the input already is half precision (``x.type() == 'torch.cuda.HalfTensor'``,
#: ``x.dtype == torch.float16``, an equality): a cast under it follows the input's
#: precision.
_HALF_TEST = re.compile(r"HalfTensor|float16|torch\.half\b|\.is_half\b|bfloat16")
#: Casts that take a reduced-precision value back to full precision: ``x.half().float()``
#: rounds, it does not run anything in float16.
_FULL_PRECISION_CASTS = frozenset({"float", "double"})
#: Calls that make a copy: a cast of the copy leaves the model that trains as it was.
_COPIES = frozenset({"deepcopy", "copy"})
#: What runs a module as a whole: under ``@torch.no_grad()`` it is an inference wrapper (a
#: helper under no_grad, a label assigner's cost matrix, still runs in the training step).
_WHOLE_RUN = frozenset({"forward", "__call__"})
#: Callees that read a checkpoint back (``torch.load``, ``attempt_load``, ``load_model``) and
#: that write one (``torch.save``, ``save_checkpoint``).
_LOADS = re.compile(r"(^|_)load(_|$)", re.IGNORECASE)
_SAVES = re.compile(r"(^|_)save(_|$)", re.IGNORECASE)
#: A function named for measuring, not training (a profiler casting each op to time it).
_MEASURING = re.compile(r"(^|[._])(profil\w*|benchmark\w*)$", re.IGNORECASE)
#: Gradient clipping as a method of what wraps the model (FSDP's, an accelerator's): no
#: torch API the scan can place on an untyped receiver, the same clipping
_CLIP_METHODS = frozenset({"clip_grad_norm_", "clip_grad_value_"})
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
#: A flag an ``if`` tests to switch on a test or debug mode (``if pytest:``, ``if
#: self.debug:``): what its body sets (fixed draws for a comparison) is not the run's.
_TEST_FLAG = re.compile(r"(py_?|unit_?)?test(ing|_mode)?|debug(_mode)?", re.IGNORECASE)
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
#: Calls that print or log the parsed options, reading none of them for the run.
_PRINTS = frozenset({"print", "pprint", "str", "repr", "format", "write", "info", "debug", "log"})
_ARG_RECEIVERS = frozenset({"args", "opt", "opts", "flags", "FLAGS", "parsed", "hparams", "hp"})
#: Receivers whose attributes are settings of a config object.
_CONFIG_RECEIVERS = frozenset(
    {"exp", "cfg", "config", "conf", "cfgs", "configs", "settings", "params", "C", "hyp"}
)
_WEIGHT_ITER = re.compile(r"\b(state_dict|parameters|named_parameters|buffers|named_buffers)\(")
_NO_GRAD = re.compile(r"\b(no_grad|inference_mode)\b")
#: A loss term's expression is cut here (a call with many keywords says little more).
_TERM_LIMIT = 60
#: Methods that reduce a loss tensor to the number the step backpropagates.
_REDUCTIONS = frozenset({"sum", "mean"})
#: Methods that turn a tensor into a Python number or list: what a log or a score reads.
_TO_NUMBER = frozenset({"item", "tolist"})
_AUG_NAME = re.compile(
    r"flip|mirror|random_?crop|jitter|hsv|mosaic|mix_?up|cutmix|cutout|affine|perspective"
    r"|color_aug"
    r"|rotate(?!d)|erasing|augment(?!ed)|^random_\w*(drop|scale|shift|rotat|crop|flip|jitter|eras|noise|resize|affine)|(^|_)shift_\w*(cloud|image|img)",
    re.IGNORECASE,
)
#: Places whose flips and jitters draw pictures or evaluate, not augment.
_NOT_AUG_CONTEXT = re.compile(r"visuali[sz]|plot|draw|eval", re.IGNORECASE)
#: Inference code by its place: a folder of detectors, predictors or demos, a script named
#: for inference or evaluation, a function named for prediction or test-time augmentation.
_INFERENCE_PLACE = re.compile(
    r"(^|/)(detectors?|inference|predictors?|demos?)/|(^|/)(demo|infer|predict|eval|test)\w*\.py:"
    # a script named for its model first (EfficientDet's ``efficientdet_test_videos.py``,
    # ``coco_eval.py``), not one that also trains (``train_eval.py``)
    r"|(^|/)(?![^/]*train)\w+_(demo|infer|predict|eval|test)\w*\.py:"
    r"|[:.](infer\w*|predict\w*|\w*_tta|tta\w*|test_time\w*|flip_test\w*"
    # HRNet's ``validate`` flipping back its test-time flipped heatmaps
    r"|validate\w*|validation\w*|evaluate\w*)$",
    re.IGNORECASE,
)
#: A name a composition is stored as when it is for pictures or evaluation, not training.
_NOT_TRAINING_STORE = re.compile(
    r"(^|_)(vi[sz]|visuali[sz]\w*|restore|show|display|plot|denorm\w*|inv(erse)?"
    r"|val|valid|validation|test|eval|predict|prediction)(_|$)",
    re.IGNORECASE,
)
#: A split a dataset is built for that is not training (``'val2017'``, ``'test'``).
_EVAL_SPLIT = re.compile(r"(val|valid|validation|test|eval)(\d*|[_-]\w*)", re.IGNORECASE)
#: A function named for evaluation: what it builds measures the model, it does not train it.
_EVALUATION_FUNCTION = re.compile(r"(evaluat|validat|val_|valid_|test_|eval_)|(val|test|eval)$")
#: A function named for evaluation by one of its words (``build_test_loader``,
#: ``_test_loader_from_config``): what it passes is not what training runs with.
_EVALUATION_WORD = re.compile(
    r"(^|_)(test|val|valid|eval|evaluate|evaluation|validate|validation|inference)(_|$)",
    re.IGNORECASE,
)
#: A test on how the run is launched (deit's ``if args.distributed:``, set at run time): the
#: recipe holds for every launch, so such a test decides no row.
_LAUNCH_TEST = re.compile(
    r"distributed|world_size|\bws\b|local_rank|\brank\b|\bgpus?\b|cuda|device|ddp", re.IGNORECASE
)
#: A dataset's augmentation parameter by its name (HRNet's ``scale_factor``,
#: ``rotation_factor``, ``prob_half_body``, ``num_joints_half_body``).
_AUG_PARAMETER = re.compile(
    r"(scale|rot|rotation|shift|translate|shear|color|colour)_factor|(prob|num_joints)_half_body"
    r"|(random_)?(scale|rotation|rotate)_range|flip(_prob)?"
)
#: The rows an untaken branch drops (argparse and config rows are dropped by their reads).
#: A wrapper for several devices counts too when a setting of the run decides it
#: (Pytorch_Retinaface's ``if num_gpu > 1 and gpu_train:`` with the default config's
#: ``'ngpu': 1``); a test of how the run is launched decides nothing (:data:`_LAUNCH_TEST`).
#: An ``if`` test comparing two objects by identity (``G_inv is not I_3``), no constant:
#: a state check, never a random draw.
_IDENTITY_TEST = re.compile(r"[\w.]+\s+is(?:\s+not)?\s+(?!(?:None|True|False)\b)[\w.]+")
#: A value's step saying it is a parameter's default: the parameter and the def's name.
_DEFAULT_STEP = re.compile(r"default of parameter (\w+) of ([\w.]+)\(\)")
_BRANCH_DECIDED = frozenset(
    {"optimizer", "scheduler", "wd_schedule", "loss", "augmentation", "preprocessing",
     "dataloader", "warmup", "ema", "grad_clip", "amp", "seed", "distributed", "model"}
)  # fmt: skip
#: The rows whose ``if``/``elif`` branch is weighed where they are built
#: (:meth:`_Recipe._branch_rows`; a wrapper for several devices only under an option's
#: test, :meth:`_Recipe._wrapper_choice`).
_BRANCH_ROWS = frozenset(
    {"loss", "scheduler", "wd_schedule", "augmentation", "distributed", "init"}
)
#: An attribute an initialisation routine sets that holds weights.
_WEIGHT_ATTR = re.compile(r"\b(weight|bias|data|param\w*|embed\w*|token\w*)\b")
#: A setting named for testing or evaluation.
_EVALUATION_SETTING = re.compile(r"(^|_)(test|eval|val|validation|inference)(_|$)")
#: A repository function named for a schedule (``cosine_scheduler``): its category waits
#: for what its result is stored as.
_SCHEDULE_FUNCTION = "schedule function"


#: The note of a training length read from the epoch loop's bound (:meth:`_Recipe._loop_lengths`).
_LOOP_LENGTH = "what the loop around the training's batches runs to"
#: The note of a training-length row read from the loop over the training steps.
_STEP_LENGTH = "what the loop over the training steps runs to: steps, not epochs"
#: How a reduced output's loss row begins (:meth:`_Recipe._reduced_outputs`).
_MODEL_TERM = "a term the model's forward computes"


class _Returned(NamedTuple):
    """A ``return`` of a schedule function, read as one of its steps."""

    value: Expr

    @property
    def line(self) -> int:
        return self.value.line

    @property
    def order(self) -> int:
        return 1 << 30  # after an assignment on the same line


class _Updated(NamedTuple):
    """An augmented assignment of a schedule function (``lr *= 0.1 if epoch >= milestone
    else 1.0`` per milestone), read as one of its steps, with the loop around it."""

    update: UpdateValues
    #: the loop of the function that holds it (``for milestone in args.schedule:``)
    loop: LoopValues | None

    def text(self) -> str:
        loop = self.loop
        head = f"for {', '.join(loop.names)} in {loop.iter.shown()}: " if loop else ""
        return head + self.update.statement

    @property
    def line(self) -> int:
        return self.update.line

    @property
    def order(self) -> int:
        return 1 << 29

    @property
    def value(self) -> Expr:
        assert self.update.value is not None
        return self.update.value


#: Names of such functions: ``cosine_scheduler``, MAE's ``adjust_learning_rate``.
_SCHEDULE_NAME = re.compile(
    r"sched|(adjust|set|update)_(lr|learning_rate)|^(get|compute|calc\w*)_(lr|learning_rate)$",
    re.IGNORECASE,
)
#: What an LR or weight-decay schedule is stored as (``lr_schedule``, ``wd_schedule``,
#: ``self.lr_scheduler``), never a momentum, noise or beta schedule.
_LR_SCHEDULE = re.compile(r"(^|[._])(lr|wd|learning_rate|weight_decay)(_|$)", re.IGNORECASE)
#: A list of a model's parameters (``teacher_param_list``), which a foreach average keeps.
_PARAM_LIST = re.compile(r"param|weight", re.IGNORECASE)
#: The builtins a formula written out may call (``len(crops)``).
_BUILTIN_NAMES = frozenset(dir(builtins))
_LR_NAME = re.compile(r"(^|_)(lr|learning_rate)(_|$)", re.IGNORECASE)
#: The settings besides the LR a schedule object may drive (an exploration rate, a clipping
#: range, a temperature, a KL or entropy weight, a noise level, a momentum), by the name
#: it is stored as.
_OTHER_SCHEDULED = re.compile(
    r"clip|explor|epsilon|(^|_)eps(_|$)|beta|temperat|momentum|noise|(^|_)kl(_|$)|tau|entrop",
    re.IGNORECASE,
)
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
#: A module named for holding a loss beside the network (``ModelWithLoss``, ``NetWithLoss``):
#: the training step's wrapper, no loss of its own.
_WITH_LOSS = re.compile(r"With_?(?:Loss|Criterion)(?:es|s)?$")
#: An assigner named for the optimizer settings it hands out (a layer's learning-rate scale,
#: its weight decay), not for the targets a loss is computed against.
_SETTING_ASSIGNER = re.compile(r"(Decay|Value|Scale|Lr|LR|Rate)\w*Assigner$")
#: A class named for another role that merely mentions a loss (guided-diffusion's
#: ``LossSecondMomentResampler`` and ``LossAwareSampler`` pick timesteps, a ``LossScaler``
#: scales gradients, a ``LossMeter`` averages for the log): no loss unless it is a Module.
_NOT_LOSS_ROLE = re.compile(
    r"Loss\w*(?i:sampler|scaler|logger|meter|tracker|monitor|recorder|plotter|hook|writer|averager)$"
)
#: The rows a tool beside the training script (``projector.py``, ``calc_metrics.py``) or
#: another task's folder (yolov9's ``segment/``) does not give this recipe: all but what the
#: weights and the inference path need (a tool's half precision, as ``detect.py``'s, is not
#: the precision training runs in; another task's is that task's).
_SEPARATE: dict[str, frozenset[str]] = {
    "tool": frozenset(CATEGORIES)
    - {"checkpoint", "backbone", "preprocessing", "postprocessing", "amp"},
    "task": frozenset(CATEGORIES) - {"checkpoint", "backbone", "preprocessing", "postprocessing"},
}
#: How many callers deep :meth:`_Recipe._whose` follows a helper's callers.
_WHOSE_DEPTH = 3
#: Words that make a function with "loss" in its name a helper, not a loss
#: (``_get_aux_loss_inputs`` packs outputs, ``set_loss`` stores, ``reduce_loss`` averages,
#: RITM's ``add_loss`` adds the loss its config names to the total: that loss is the row).
_LOSS_HELPER_WORDS = frozenset(
    {"set", "get", "log", "print", "plot", "reduce", "update", "show", "estimate", "eval",
     "evaluate", "wrapper", "func", "scale", "scaler", "add", "accumulate",
     # a formatter of the step's losses for a progress bar (ZoeDepth's ``stringify_losses``)
     "stringify", "format", "str", "repr", "describe", "summary", "summarize", "display"}
)  # fmt: skip
#: Words that name a loss or a term added to one.
_LOSS_WORDS = frozenset(
    {"loss", "penalty", "regularize", "regularise", "regularizer", "regulariser"}
)
#: Loss classes of other packages (timm's ``SoftTargetCrossEntropy``, ``JsdCrossEntropy``).
_FOREIGN_LOSS = re.compile(r"^[A-Z]\w*(Loss|CrossEntropy|Criterion)$")
#: The augmentation parameters of a factory taking augmentation keywords whose names say
#: nothing alone (timm's ``create_transform``/``create_loader``: RandomErasing's
#: ``re_prob``, ``re_mode``, ``re_count``, ``re_split``; RandAugment's ``auto_augment``;
#: the random resized crop's ``scale``, ``ratio`` and ``interpolation``).
_AUG_KEYWORD = re.compile(
    r"re_(prob|mode|count|split)|auto_?augment|rand_?augment|scale|ratio|(train_)?interpolation"
)
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
#: ``receiver.attr`` read through a receiver other than a bare ``self``.
_OUTSIDE_READ = re.compile(r"(?<!\bself)\.([A-Za-z_]\w*)\b(?!\s*\()")
#: A quoted name at the start of a followed value or of one of its alternatives.
_QUOTED = re.compile(r"(?:^|\| )['\"](\w+)['\"]")
#: A training script by its name (``train.py``, ``train_net.py``; not ``engine_pretrain.py``,
#: one of several stages that call the same step).
_TRAINING_FILE = re.compile(r"(^|[^a-z])train")
#: How many callers' dicts an optimizer picked by name reads its settings from.
_MAX_CALLERS = 40
#: A function that restores a run (the LR it recomputes there is where a resume restarts)
_RESUMING = re.compile(r"load|resume|restore", re.IGNORECASE)
#: A script that runs a trained model: detection, demonstration, prediction, inference
_INFERENCE_SCRIPT = re.compile(r"(^|/)(detect|demo|predict|infer(ence)?)(_\w+)?\.py$")
#: Folders and scripts of runs that train nothing: generation, serving, chat, inference, the
#: demonstrations and the export and deployment folders the ported files leave out
#: (:data:`~apiscan.review.roles.DEMO_DIRS`, :data:`~apiscan.scope.classify.EXPORT_DIRS`),
#: weight merging and conversion.
_NOT_TRAINING_FILE = re.compile(
    r"(^|/)({})(/|\.py$)".format(
        "|".join(
            sorted({"generate", "generation", "chat", "serve", "serving", "inference"}
                   | DEMO_DIRS | GUI_DIRS | EXPORT_DIRS)
        )
    )
    + r"|(^|/)(merge|convert)_\w+\.py$"
)  # fmt: skip
#: Transforms applied to every input alike: conversions and standardisation, no augmentation
_INPUT_STEPS = frozenset(
    {"ToTensor", "ToTensorV2", "PILToTensor", "ToImage", "ToDtype", "ConvertImageDtype",
     "Normalize"}
)  # fmt: skip
#: Transforms that size every input the same way (an evaluation pipeline's resize and
#: center crop): input steps in a composition with no random step.
_SIZING_STEPS = frozenset({"Resize", "CenterCrop"})
#: An argparse option's help text saying it is an augmentation ("apply shift augmentation")
_AUG_HELP = re.compile(
    # stylegan2's --mixing: "probability of latent code mixing", a random style mix per batch
    r"\baugment|\bmixing\b",
    re.IGNORECASE,
)
#: An argparse help that says an option is the length of training (stylegan2's bare
#: ``--iter``: "total training iterations"; a bare ``iter`` name alone is a loop's counter).
_LENGTH_HELP = re.compile(
    r"\b(total|number of|num)\b[\w\s]*\b(iterations|iters|steps|epochs)\b"
    r"|\btraining (iterations|iters|steps|epochs)\b",
    re.IGNORECASE,
)
#: An argparse help that starts by saying an option is the batch size (``--N_rand``:
#: "batch size (number of random rays per gradient step)"), whatever its name.
_BATCH_HELP = re.compile(r"\s*(training |train |mini-?)?batch[ _-]?size\b", re.IGNORECASE)
#: An argparse help that says its option is for evaluation, testing or inference.
_NOT_TRAINING_HELP = re.compile(
    r"\b(test|testing|eval\w*|validation|val|inference|predict\w*)\b", re.IGNORECASE
)
#: An argparse help that names the learning rate (``--decay_steps``: "Number of steps for
#: the learning rate decay"): a setting of the schedule, not of the training's length.
_LR_HELP = re.compile(r"\b(learning[ -]rate|lr)\b", re.IGNORECASE)
#: An argparse help that says an option counts items ("maximum number of pairs"): a limit
#: on how many inputs are read, not a size each input is brought to.
_COUNT_HELP = re.compile(r"\bnumber of\b", re.IGNORECASE)
#: An argparse help that says an option sizes every input image (Pytorch-UNet's ``--scale``,
#: "Downscaling factor of the images"; "resize the input images to"): the preprocessing's
#: input size, no augmentation drawn per sample.
_RESIZE_HELP = re.compile(
    r"\b(down|up|re)?scal(e|ing) factor (of|for) (the )?(input )?(images?|inputs?)\b"
    r"|\bresiz(e|es|ing) (the |each |every |all )?(input )?images?\b",
    re.IGNORECASE,
)
#: An option naming how often something happens during the run (logging, saving,
#: evaluating), whatever its help says of iterations.
_CADENCE = re.compile(
    r"(^|_)(interval|freq|frequency|every|period)$"
    r"|^(disp|display|log|print|save|ckpt|checkpoint|snapshot|eval|val|vis)_",
    re.IGNORECASE,
)
#: A row's note naming the def it constructs or calls (``defined at core/utils/augmentor.py:15``)
_DEFINED_AT = re.compile(r"\bdefined at (\S+?:\d+)\b")
#: What a loss's weight is called beside it (``instance_loss`` → ``instance_loss_weight``).
_WEIGHT_SUFFIXES = ("_weight", "_coef", "_lambda", "_w")
_DECAY_PARAM = re.compile(r"decay|momentum|beta|tau|alpha|rate", re.IGNORECASE)

#: What a label-smoothing fraction is called (``eps``, ``epsilon``, ``smoothing``,
#: ``label_smooth``).
_SMOOTHING_NAME = re.compile(r"(?i)smooth|^eps(ilon)?$")

#: A step raised to the power -0.5 (``step ** (-0.5)``, ``rsqrt``): the inverse square root
#: schedule of the Transformer (Noam), whatever the names.
_INVERSE_ROOT = re.compile(r"\*\*\s*\(?\s*-\s*0?\.5\b|\brsqrt\(")

#: Settings (argparse options, config attributes, module constants) by their name; the first
#: match wins, so ``no_aug_epochs`` is an augmentation setting and ``warmup_epochs`` a warm-up.
_SETTINGS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (category, re.compile(pattern))
    for category, pattern in (
        (
            "augmentation",
            r".*(no_?aug|close_mosaic|mosaic|mix_?up|cutmix|cutout|flip|mirror|hsv|jitter"
            r"|augment(?!ed)|degrees|translate|shear|perspective|erasing|rand(om)?_crop|multi_?scale"
            # YOLOX's random_size = (14, 26): the input size drawn anew every few iterations
            r"|random_?(size|resize|shape)s?"
            r"|(^|_)aug(_|$)).*",
        ),
        (
            "loss",
            # focal_alpha, focal_loss_gamma: a focal loss; focal_length_x is a camera's
            # hm_weight, wh_weight, off_weight: CenterNet's weights of its loss terms
            r"(?!.*_value$).*(_coef|_cost|cost_\w+|aux_loss|loss_weight|_loss_w"
            r"|(^|_)(hm|wh|off|hp|dep|dim|rot|cls|box|bbox|giou|iou|obj|mask|dice|ce|l1|reg|ctr)"
            r"_weight$"
            r"|focal_(loss|alpha|gamma|weight)\w*)"
            r"|mask(ing)?_ratio|norm_pix_loss"
            # deit's and timm's --smoothing 0.1: the label smoothing of the cross-entropy
            r"|(label_)?smoothing"
            # stargan's lambda_cls, lambda_rec, lambda_gp: the weights of its loss terms;
            # barlowtwins' lambd (``lambda`` is a keyword): its off-diagonal term's weight
            r"|lambda_\w+|lambd"
            # a diffusion model's objective: its noise schedule, its steps, what it predicts
            r"|noise_schedule|(num_)?diffusion_steps|schedule_sampler|use_kl|learn_sigma"
            r"|predict_xstart|rescale_learned_sigmas",
        ),
        ("warmup", r".*warm_?up.*"),
        (
            # a GAN's alternation: stargan's n_critic discriminator steps per generator
            # step (how often each network is updated, no setting of an optimizer)
            "alternation",
            # pix2pixHD's and SPADE's --D_steps_per_G the same ratio spelled out
            r"n_critic|critic_(iters|steps)|(n_)?(d|g|dis|disc|gen)_(steps|updates|iters)"
            r"(_per_(d|g|dis|disc|gen))?",
        ),
        (
            "epochs",
            # hifi-gan's --training_epochs; --nepochs beside --mini-batch-size
            r"(max_|num_|total_|train_|training_|n_?)?epochs?|max_?epoch"
            r"|(max_|num_|total_|train_|training_)?(iters|itrs|iterations|steps)"
            # deep-text-recognition's --num_iter (a bare ``iter`` is a loop's counter); the
            # pix2pix family's --niter, the epochs at the starting LR (--niter_decay more)
            r"|(max_|num_|total_|train_)iter|niter"
            # a GAN's length in thousands of real images shown (stylegan's --kimg,
            # total_kimg)
            r"|(max_|total_|train_)?kimg",
        ),
        (
            "batch_size",
            # BLIP's ``batch_size_train`` (beside ``batch_size_test``, an evaluation's)
            # ``--mini-batch-size``: the batch each optimizer step sees
            r"(train_|total_|global_|mini_)?batch(_?size)?(_train)?(_per_(gpu|device|replica|node))?"
            r"|ims_per_batch|bs",
        ),
        ("seed", r"(random_|manual_|global_)?seed"),
        ("ema", r"(use_|model_)?ema(_decay|_rate|_momentum)?"),
        (
            "amp",
            # waveglow's fp16_run
            r"(use_)?(fp16|amp|mixed_precision|bf16|half)(_run)?"
            # the loss scale of a hand-written fp16 trainer (guided-diffusion's growth rate)
            r"|(fp16_|loss_)?scale_growth\w*|(init(ial)?_)?loss_scale\w*",
        ),
        ("grad_clip", r".*(clip_grad|grad_clip|max_grad_norm|clip_norm).*"),
        ("grad_accum", r".*accum.*|update_freq|micro_?batch(_size)?"),
        (
            "scheduler",
            r"(lr_)?sched(ule|uler)?|min_lr(_ratio)?|lr_(steps|decay\w*|gamma|milestones|policy)"
            r"|milestones|cos_lr|(lr_)?step_size"
            # stargan's linear decay: over the last num_iters_decay steps, every lr_update_step
            # the pix2pix family's --niter_decay (an --nepoch_decay the epoch loop runs to
            # is a length: the loop's bound decides it)
            r"|(num_)?(iters?|iterations|epochs?|steps)_decay|niter_decay"
            r"|lr_update_\w+|lr_anneal\w*",
        ),
        (
            # DALL-E's VAE: --starting_temp 1.0 annealed at --anneal_rate down to --temp_min
            # (a Gumbel-softmax temperature); a constant temperature (a distillation's
            # --kd-temperature) is no annealed setting
            "anneal",
            r"(start(ing)?_|init(ial)?_|min_|max_|final_|end_)temp(erature)?"
            r"|temp(erature)?_(min|max|start|end|final|init(ial)?)|(\w+_)?anneal(_\w+)?",
        ),
        (
            "optimizer",
            r"(base_|basic_|init_|initial_|max_|b)?(lr|learning_rate)(_per_img)?|momentum"
            r"|weight_decay|nesterov|opt(imi[sz]er)?|betas|(adam_)?beta[12]"
            # latent-diffusion's --scale_lr: the LR scaled by the batch, GPUs, accumulation
            r"|(auto_)?scale_(lr|learning_rate)",
        ),
        ("dataloader", r"(data_)?(num_)?workers|shuffle|drop_last|pin_memory"),
        (
            "preprocessing",
            # deep-text-recognition's --imgH 32 / --imgW 100 (every image resized to 32x100)
            # and --batch_max_length 25 (labels padded to 25 characters)
            r"img_?[hw]|image_?(height|width)|(batch_)?max_(label_)?length"
            # SuperGlue's --resize 640 480: every image resized to a fixed size first
            r"|(img_|image_|input_)?resize(_(to|shape|size|dims?))?",
        ),
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
    hierarchy: Hierarchy | None = None,
    apart: Callable[[str], str] | None = None,
    readings: Readings | None = None,
    uncalled: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    not_picked: Iterable[str] = (),
    taken: list[Callable[[str, int], bool | None]] | None = None,
    picked: Iterable[str] = (),
    configs: Collection[str] = (),
    models: Sequence[TopModel] = (),
    values: list[Callable[[str, int, Expr], str | None]] | None = None,
) -> tuple[RecipeItem, ...]:
    """The training recipe of the scanned repository, sorted by category, path and line.
    ``values``, when given, receives :meth:`_Recipe.argument_value`: an argument's value as
    the recipe follows it (the training arguments a library's trainer is given).
    ``models`` are the model tree's top models: a row of each one's constructor settings.
    ``taken``, when given, receives the recipe's :meth:`_Recipe.branch_taken`: whether the
    run's values take the branches a line sits in (the model tree's per-branch parts).
    ``hierarchy`` is the review's own when it has one; ``apart`` says whose recipe a file's
    training facts are when not this one's (:meth:`~apiscan.review.work.Ancillary.other_recipe`:
    "tool", "task" or ""), built here the review's way when not given; ``uncalled`` the
    review's dead functions (:func:`~apiscan.review.work.uncalled_functions`, read here when
    not given: their rows are no recipe); ``not_picked`` the module classes the model tree
    found left out by a pick on a default value (a table's other entries: their rows and
    those of what only they build are no recipe), ``picked`` the models the pick selects
    (built though only the left-out ones name them in code). Read from the records
    the scan's workers wrote (no file is read or parsed again), and from ``root``'s shell
    scripts."""
    readings = readings or Readings(Path(root), analyses)
    recipe = _set_up(result, analyses, root, hierarchy, apart, readings, uncalled, not_picked)
    recipe.picked_models = frozenset(picked)
    recipe.top_models = tuple(models)
    # the configuration files the documented commands load (``configs``, their paths):
    # their module-level classes hold the values the bases' ``self.x`` read in the run
    recipe.repo.launched_classes = frozenset(
        f"{fa.modules[0]}.{c.qualname}"
        for fa in analyses
        if fa.path in configs and fa.modules
        for c in fa.classes
        if "." not in c.qualname
    )
    apart = recipe.apart
    if taken is not None:
        taken.append(recipe.branch_taken)
    if values is not None:
        values.append(recipe.argument_value)
    # YAML, Darknet .cfg and option files: read as data, in their own module
    options = readings.options[0]
    items = framework_rows(picked_by_options(recipe.items(), options, analyses), options, analyses)
    files = (
        *yaml_rows(recipe.repo.yaml, analyses),
        *darknet_recipe(Path(root), analyses, apart),
        *option_rows(options, analyses),
        *_object_length(recipe.repo),
    )
    rows = recipe.picked_configs(with_config_rows(items, analyses, Path(root), files))
    loop_notes = (_LOOP_LENGTH, _STEP_LENGTH)
    if any(r.category == "epochs" and r.note not in loop_notes for r in rows):
        # a config file's or an option's own training-length row says it: the loop reading
        # it gives no second
        rows = type(rows)(r for r in rows if not (r.category == "epochs" and r.note in loop_notes))
    return rows


def _set_up(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    root: Path,
    hierarchy: Hierarchy | None,
    apart: Callable[[str], str] | None,
    readings: Readings,
    uncalled: Mapping[tuple[str, str], tuple[int, int]] | None,
    not_picked: Iterable[str] = (),
) -> _Recipe:
    """The recipe's reader with what it reads set (:func:`extract_recipe`'s arguments)."""
    if hierarchy is None:
        hierarchy = Hierarchy(analyses, ClassTable(analyses, load_torch_api()))
    if apart is None:
        from apiscan.review.build import entry_points, training_files
        from apiscan.review.work import Ancillary

        keep = training_files(result) | entry_points(result, analyses)
        apart = Ancillary(analyses, None, keep=keep, root=Path(root)).other_recipe
    # dict configs (OpenMMLab, cvpods) and JSON configs are read in their own module
    if uncalled is None:
        from apiscan.review.work import uncalled_functions

        uncalled = uncalled_functions(analyses, result)
    recipe = _Recipe(
        result, analyses, Path(root), hierarchy, apart, uncalled, readings.argparse.booleans
    )
    recipe.not_picked = frozenset(not_picked)
    recipe.option_defaults = readings.argparse.values()
    recipe.repo.yaml = readings.yaml
    recipe.repo.hparams = readings.options[1]
    recipe.repo.readings = readings
    recipe.repo.darknet = darknet_settings(Path(root), analyses, apart)
    recipe.repo.hyp = hyp_settings(Path(root), analyses, apart)
    return recipe


def branch_reader(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    root: Path,
    hierarchy: Hierarchy | None,
    apart: Callable[[str], str] | None,
    readings: Readings,
    uncalled: Mapping[tuple[str, str], tuple[int, int]] | None,
) -> Callable[[str, int], bool | None]:
    """Whether the run's values take the branches a line sits in, read as the recipe reads
    its own (:meth:`_Recipe.branch_taken`), before the recipe is extracted: the review asks
    it which of a file's imports in ``if`` branches the run makes."""
    return _set_up(result, analyses, root, hierarchy, apart, readings, uncalled).branch_taken


#: What each cuDNN switch means for the port (a row with the seeds: both are about
#: reproducing a run). ``cudnn.benchmark`` is no row: a kernel search for speed, with nothing
#: of the recipe in it (MindSpore picks kernels itself), not a seed.
_CUDNN_NOTES = {
    "torch.backends.cudnn.deterministic": (
        "deterministic kernels, not a seed: mindspore.set_deterministic(True)"
    ),
}


def _counter(f: _File, name: str, stmt: AssignValues) -> bool:
    """Whether the module's ``name`` starts at zero and the code counts it up (``total_steps
    = 0`` before the loop, then ``total_steps += opt.batch_size`` in it): a step counter,
    no training length; the length is the options the loop runs to (its epochs)."""
    if stmt.value.text not in ("0", "0.0"):
        return False
    updates = list(f.values.updates) + [u for d in f.defs for u in d.updates]
    return any(u.op == "Add" and u.node.kind == "Name" and u.node.name == name for u in updates)


def _loop_names(file: _File, call: CallValues) -> set[str]:
    """The names the ``for`` loops around ``call`` bind (a loop is around the call when it
    starts before it in the same function and its body's calls and updates reach its
    line)."""
    line = call.expr.line
    return {
        name
        for loop in file.values.loops
        if loop.function == call.function
        and loop.line < line
        and any(u.line >= line for u in loop.updates)
        for name in loop.names
    }


def _reads_loop_name(file: _File, call: CallValues, test: Expr) -> bool:
    """Whether ``test`` reads only names a ``for`` loop around ``call`` binds, and
    constants (``'bias' in name`` under ``for name, param in model.named_parameters():``;
    not ``args.freeze and 'backbone' in name``, which an option decides too)."""
    names = _loop_names(file, call)
    read = {e.name for e in test.walk() if e.kind == "Name"}
    return bool(read) and read <= names


def _reads_element(file: _File, call: CallValues, test: Expr) -> bool:
    """Whether ``test`` reads a key of the element a ``for`` loop around ``call`` binds
    (``block['type'] == 'region'`` under ``for block in blocks:``). A loop is around the call
    when it starts before it in the same function and its body has statements after it."""
    line = call.expr.line
    names = {
        name
        for loop in file.values.loops
        if loop.function == call.function
        and loop.line < line
        and any(u.line > line for u in loop.updates)
        for name in loop.names
    }
    return any(
        e.kind == "Subscript"
        and len(e.parts) == 2
        and e.target.kind == "Name"
        and e.target.name in names
        and e.parts[1].kind == "Constant"
        and isinstance(e.parts[1].value, str)
        for e in test.walk()
    )


def _transform_internal(file: _File, fn: int) -> bool:
    """Def ``fn`` is a method of a transform class (one with ``__call__`` and no
    ``__getitem__``) other than its constructor: a composition it builds at each call
    (ColorJitter's ``get_params`` shuffling its brightness/contrast steps) is how that one
    step works, not the pipeline. What the constructor composes (DINO's multi-crop
    ``DataAugmentation.__init__``) is the pipeline the class applies."""
    if fn < 0 or file.defs[fn].name == "__init__":
        return False
    return _transform_internal_class(file, fn)


def _wrapped_step(file: _File, call: CallValues) -> bool:
    """A transform the constructor of a repository transform class (``__call__``, no
    ``__getitem__``) builds from its own parameters and keeps on itself (``self.worker =
    T.CenterCrop(size)`` in ``GroupCenterCrop.__init__``): the class is the step, and the
    compositions that construct it show its values; this call would show only the
    parameters' names, and a class only evaluation builds would give the training a row."""
    fn = call.function
    if fn < 0 or file.defs[fn].name != "__init__" or not _transform_internal_class(file, fn):
        return False
    stored = call.stored
    if stored is None or stored.kind != "Attribute" or stored.target.text != "self":
        return False
    params = {name for name, _ in file.defs[fn].params[1:]}
    args = [*call.expr.args, *(k.target for k in call.expr.keywords)]
    return bool(args) and all(a.kind == "Name" and a.name in params for a in args)


def _transform_internal_class(file: _File, fn: int) -> bool:
    """Def ``fn`` is a method of a transform class: one with ``__call__`` and no
    ``__getitem__``."""
    cls = file.defs[fn].owner if fn >= 0 else -1
    if cls < 0:
        return False
    methods = {d.name for d in file.defs if d.owner == cls and not d.is_class}
    return "__call__" in methods and "__getitem__" not in methods


def _snake(name: str) -> str:
    """``FastCollateMixup`` → ``fast_collate_mixup``: a class name as settings are named."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def _foreign_setting(name: str) -> str | None:
    """The recipe category of another package's class by its name, when it is an
    augmentation or an average of the weights (timm's ``Mixup`` and ``FastCollateMixup``,
    ``ModelEma``/``ModelEmaV2``): its keyword values (the mixup and cutmix alphas, the
    label smoothing, the EMA decay) are settings of the recipe, however they are given (an
    argparse option, a yacs config key). Functions and constants are not."""
    if not name[:1].isupper():
        return None
    category = _setting_category(re.sub(r"_?v\d+$", "", _snake(name)))
    return category if category in ("augmentation", "ema") else None


#: What a seeded ``random`` / ``numpy.random`` shuffles or draws a data split with
_SPLIT_DRAWS = frozenset({"shuffle", "permutation", "sample", "choice"})


def _split_seed(file: _File, seed: CallValues, name: str) -> str:
    """The note of a ``random.seed(1234)`` that fixes how the data is split rather than
    seeding the training: in the same function, a later call of the same module shuffles
    or draws (stargan's CelebA loader: ``random.seed(1234); random.shuffle(lines)``, the
    first 2000 lines the test split); "" when it is not one."""
    if seed.function < 0:
        return ""
    module = name.rpartition(".")[0]
    for call in file.values.calls:
        if call.function != seed.function or call.expr.line <= seed.expr.line:
            continue
        called = file.dotted(call.expr.func) or ""
        head, _, last = called.rpartition(".")
        if head == module and last in _SPLIT_DRAWS:
            return (
                f"seeds the {last} at {file.loc(call.expr.line)} that orders the data "
                "(a fixed data split), not the training's seed"
            )
    return ""


#: The categories of the keys a loaded YAML gives that no option declares (:func:`_object_length`).
_READ_KEY_CATEGORIES = frozenset({"epochs", "batch_size"})


def _object_length(repo: _Repo) -> tuple[RecipeItem, ...]:
    """The training length a YAML loaded into an object gives (semseg's ``epochs: 100``,
    read as ``args.epochs`` in the epoch loop): no option declares it, so no option's row
    says it. Only keys the training reads by attribute, and none an option also declares.
    Read by key, its batch size too (BLIP's ``config['batch_size_train']``, handed to the
    loader through a list its ``zip`` loop unpacks: no loader's row resolves it)."""
    hyp = repo.hyp
    if hyp is None:
        return ()
    rows = []
    for key in sorted(hyp.attribute_keys):
        setting = hyp.values.get(key)
        if setting is None or key in repo.argparse or _setting_category(key) != "epochs":
            continue
        why = f"read by attribute; {hyp.chosen_by}"
        place = Where(setting.path, setting.line)
        rows.append(RecipeItem("epochs", f"config {key}", place, (("value", setting.text),), why))
    # read by key (RAM's ``range(start_epoch, config['max_epoch'])``): each file's value
    for key in sorted(hyp.subscript_keys - hyp.attribute_keys):
        category = _setting_category(key)
        if key in repo.argparse or category not in _READ_KEY_CATEGORIES:
            continue
        for values, chosen_by in hyp.each_file():
            setting = values.get(key)
            if setting is None:
                continue
            why = f"read by key; {chosen_by}"
            place = Where(setting.path, setting.line)
            value = (("value", setting.text),)
            rows.append(RecipeItem(category, f"config {key}", place, value, why))
    return tuple(rows)


#: An ``if`` test that draws (``random.random() < p``, ``np.random.rand() > 0.5``): a coin
#: flip deciding whether a step runs on this sample.
_COIN_FLIP = re.compile(r"\b(random|rand|randint|uniform|choice)\s*\(")
#: Builtins a sample's index may go through without reading anything by it.
_INDEX_BUILTINS = frozenset(
    {"min", "max", "int", "len", "range", "isinstance", "print", "abs", "slice", "str"}
)


def _synthesised(file: _File, fn: int) -> bool:
    """Whether the ``__getitem__`` def ``fn`` makes its sample up rather than reading it:
    its index parameter is never used to select stored data, neither subscripting anything
    but the dataset itself (``self.samples[index]``, not ``self[i]``) nor passed to a
    function other than a builtin (``self.load(index)``, not ``min(n, index * b)``), and
    it subscripts none of its attributes (``self.samples[random.randint(...)]`` reads
    stored data by a drawn index: its draws may be augmentation), and no ``if`` of its own
    body flips a coin (``if random.random() < p:``: a step drawn for this sample). A
    synthetic dataset (random dense and sparse features and random click labels drawn for
    every batch) draws its data, not an augmentation of it."""
    d = file.defs[fn]
    if len(d.positional) < 2:
        return False
    if any(_COIN_FLIP.search(b.test.full()) for b in d.branches):
        return False  # ``if random.random() < self.mosaic_prob:``: a step drawn per sample
    index = d.positional[1]

    def names_index(e: Expr) -> bool:
        return any(n.kind == "Name" and n.name == index for n in e.walk())

    exprs = [a.value for a in d.assigns] + list(d.returns)
    exprs += [c.expr for c in file.values.calls if c.function == fn]
    for top in exprs:
        for e in top.walk():
            if e.kind == "Subscript" and e.parts:
                base = e.parts[0]
                if base.kind == "Name" and base.name == "self":
                    continue  # ``self[i]``: the dataset's own samples
                chain = base.chain() if base.kind == "Attribute" else None
                if (chain and chain[0] == "self") or any(names_index(p) for p in e.parts[1:]):
                    return False  # stored data read, by the index or by a drawn one
            elif e.kind == "Call" and e.parts:
                if e.func.kind == "Name" and e.func.name in _INDEX_BUILTINS:
                    continue
                if any(names_index(a) for a in e.parts[1:]):
                    return False
    return True


def _test_hook(near: IfValues, line: int) -> bool:
    """``line`` is in the body of an ``if`` that tests a test or debug flag alone
    (:data:`_TEST_FLAG`: ``if pytest:``, ``if args.debug:``), not in its ``else``."""
    test = near.test
    name = test.name if test.kind in ("Name", "Attribute") else ""
    in_body = not near.body_end or line <= near.body_end
    return in_body and bool(name) and _TEST_FLAG.fullmatch(name) is not None


def _setting_category(name: str) -> str | None:
    """The recipe category of a setting called ``name`` (``max_epoch`` → ``epochs``); none
    for one named for testing or evaluation (``flip_test``, ``val_batch_size``): the recipe
    is what training runs."""
    key = name.lower().lstrip("-").replace("-", "_")
    if _EVALUATION_SETTING.search(key):
        return None
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
        #: local name -> absolute dotted name, from the file's absolute imports
        self.imports = dict(fa.syntax.imports) if fa.syntax is not None else {}
        #: a notebook's (cell, line in cell) -> line of its joined code
        self._joined = {place: n for n, place in enumerate(fa.cells, 1)}
        self._own: dict[int, list[tuple[int, AssignValues | None, Expr | None]]] = {}
        self._ends: dict[tuple[int, int], CallValues] | None = None

    def joined_line(self, line: int, cell: int = 0) -> int:
        """A finding's line (in its cell, for a notebook) as a line of the parsed text."""
        return self._joined.get((cell, line), line) if cell else line

    def dotted(self, expr: Expr) -> str | None:
        """``T.RandomCrop`` → ``torchvision.transforms.RandomCrop`` through the file's imports."""
        parts = expr.chain()
        if parts is None or parts[0] not in self.imports:
            return None
        return ".".join([self.imports[parts[0]], *parts[1:]])

    def call_for(self, finding: ApiFinding) -> CallValues | None:
        """The call a finding points at: its span ends where the call ends (a method call's
        span starts at the method name, a plain call's at the callee)."""
        span = finding.span
        if self._ends is None:
            self._ends = {(c.expr.end_line, c.end_char): c for c in self.values.calls}
        found = self._ends.get((self.joined_line(span.end_line, finding.cell), span.end_column))
        if found is not None:
            return found
        last = finding.api.rpartition(".")[2]
        for call in self.calls_on.get(self.joined_line(span.line, finding.cell), ()):
            if call.expr.callee() == last:
                return call
        return None

    def call_around_reference(self, finding: ApiFinding) -> CallValues | None:
        """The call whose first argument is the name a reference finding points at
        (``partial(torch.optim.lr_scheduler.MultiStepLR, ...)``)."""
        line = self.joined_line(finding.span.line, finding.cell)
        last = finding.api.rpartition(".")[2]
        for call in self.values.calls:
            first = call.expr.args[:1]
            if first and first[0].end_line == line and first[0].text.endswith(last):
                return call
        return None

    def call_around(self, expr: Expr) -> CallValues | None:
        """The innermost call whose arguments hold ``expr``."""
        found: CallValues | None = None
        span = (expr.line, expr.col, expr.end_line, expr.end_col)
        for call in self.values.calls:
            e = call.expr
            around = (e.line, e.col) <= span[:2] and span[2:] <= (e.end_line, e.end_col)
            inner = found is None or (e.line, e.col) >= (found.expr.line, found.expr.col)
            if around and inner and (e.line, e.col, e.end_line, e.end_col) != span:
                found = call
        return found

    def own_statements(self, fn: int) -> list[tuple[int, AssignValues | None, Expr | None]]:
        """The single-target assignments and the ``name.update(...)`` calls of def ``fn``'s
        own body, by line: (line, assignment, None) or (line, None, call)."""
        found = self._own.get(fn)
        if found is None:
            merged = [
                (a.line, -a.target.col, n, a, None) for n, a in enumerate(self.defs[fn].assigns)
            ]
            merged += [
                (c.expr.line, -c.expr.col, len(merged) + n, None, c.expr)
                for n, c in enumerate(self.values.calls)
                if c.scope == fn
                and c.expr.func.kind == "Attribute"
                and c.expr.func.name == "update"
                and c.expr.func.target.kind == "Name"
            ]
            found = self._own[fn] = [(line, a, c) for line, _, _, a, c in sorted(merged)]
        return found

    def local_value(self, fn: int, name: str, before: int) -> Expr | None:
        """The last ``name = value`` of def ``fn``'s own body before line ``before``."""
        bound = _name_assignments(self.defs[fn], name, before)
        return max(bound, key=lambda a: a.line).value if bound else None

    def calls_around(self, expr: Expr) -> list[CallValues]:
        """The calls whose arguments hold ``expr`` (at any depth)."""
        span = (expr.line, expr.col, expr.end_line, expr.end_col)
        return [
            call
            for call in self.values.calls
            if (call.expr.line, call.expr.col) <= span[:2]
            and span[2:] <= (call.expr.end_line, call.expr.end_col)
            and (call.expr.line, call.expr.col, call.expr.end_line, call.expr.end_col) != span
        ]

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
    """The files the scan analysed without error that have value records, by path; each
    function a repository decorator wraps takes its wrapper's signature
    (:func:`_as_wrapped`)."""
    files = {
        fa.path: _File(fa, fa.syntax.values)
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
    }
    _as_wrapped(files)
    return files


def _as_wrapped(files: Mapping[str, _File]) -> None:
    """Give each function wrapped by a repository decorator the signature its callers call:
    the wrapper's. basicsr's ``@weighted_loss def charbonnier_loss(pred, target, eps)``
    is called as ``charbonnier_loss(pred, target, weight, eps=self.eps)`` through
    ``wrapper(pred, target, weight=None, reduction='mean', **kwargs)``: its third
    positional argument is the wrapper's ``weight``, and ``eps`` only comes by keyword.
    Every binding of a call to the def (its rows, its parameters followed to what the call
    sites pass) then reads the wrapper's parameters, the wrapped function's own ones after
    them as keyword-only. A wrapper taking ``*args`` passes the call on as it is: the
    function keeps its own signature."""
    by_module = {m: f for f in files.values() for m in f.modules}
    for file in files.values():
        if not any(d.decorators for d in file.defs):
            continue
        defs = list(file.defs)
        for n, d in enumerate(defs):
            for dec in d.decorators:
                wrapper = _wrapper_of(file, dec, by_module)
                if wrapper is None:
                    continue
                own = {p for p, _ in wrapper.params}
                defs[n] = replace(
                    d,
                    positional=wrapper.positional,
                    params=wrapper.params + tuple(p for p in d.params if p[0] not in own),
                    vararg=False,
                    kwarg=wrapper.kwarg,
                )
                break
        if defs != list(file.defs):
            file.values = replace(file.values, defs=tuple(defs))
            file.defs = file.values.defs


def _wrapper_of(file: _File, dec: Expr, by_module: Mapping[str, _File]) -> DefValues | None:
    """The wrapper a decorator ``dec`` of ``file`` returns, when ``dec`` names a repository
    function (a def of the file, or one imported) returning a function it defines inside
    itself with a signature of its own (no ``*args``); else None."""
    if dec.kind not in ("Name", "Attribute"):
        return None  # ``@register("x")``, ``@torch.no_grad()``: no wrapper of the repo's
    home, index = file, file.first.get(dec.text) if dec.kind == "Name" else None
    if index is None:
        dotted = file.dotted(dec) or _relative(file, dec)
        module, _, name = (dotted or "").rpartition(".")
        home = by_module.get(module)  # type: ignore[assignment]
        index = home.first.get(name) if home is not None else None
    if home is None or index is None:
        return None
    decorator = home.defs[index]
    if decorator.is_class or decorator.owner >= 0 or len(decorator.positional) != 1:
        return None
    returned = {r.name for r in decorator.returns if r.kind == "Name"}
    for d in home.defs:
        if (
            d.name in returned
            and not d.is_class
            and decorator.line < d.line <= decorator.end_line
            and not d.vararg
            and d.positional
        ):
            return d
    return None


# -------------------------------------------------------------------------- the repository
@dataclass(frozen=True)
class _ArgOption:
    option: str  # "--batch-size"
    default: Expr | None
    action: str
    file: _File
    call: CallValues
    #: a positional argument or a ``required=True`` option (the command line gives it)
    required: bool = False
    #: the script whose parser declares an option of a dict of defaults (the caller of
    #: ``add_dict_to_argparser(parser, defaults)``), when ``file`` only writes its value
    script: _File | None = None
    #: its ``type=`` maps words to bools (:class:`~apiscan.review.names.BoolTypes`)
    boolean: bool = False

    @property
    def declared(self) -> ArgOption:
        """The declaration as the shared evaluator reads it."""
        return ArgOption(self.option, self.option, self.default, self.action, self.required)

    @property
    def words(self) -> int | None:
        """The command line's words it takes (:attr:`ArgOption.words`); None (any) for an
        option of a dict of defaults, which has no declaration to read."""
        declared = argparse_option(self.call.expr)
        return declared.words if declared is not None else None

    @property
    def parser(self) -> str:
        """What declares it, as rows name it: "click" for a ``click.option(...)``
        decorator, else "argparse"."""
        func = self.call.expr.func if self.call.expr.parts else None
        return "click" if func is not None and func.text == "click.option" else "argparse"

    @property
    def label(self) -> str:
        """``argparse --lr`` or ``click --lr``: the option as a row or a value's trail
        names it."""
        return f"{self.parser} {self.option}"


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


class _Read(NamedTuple):
    """A read of a name or an attribute: its file, the node, the function it is in."""

    file: _File
    node: Expr
    fn: int


#: How many import levels :meth:`_Repo.linked` follows up (importers) and down (imports).
_LINK_DEPTH = 6


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
    #: "TRAIN.BASE_LR" -> the assignments a training script's module code makes to that key
    #: of its config object before the run starts (Swin's ``config.TRAIN.BASE_LR =
    #: linear_scaled_lr`` in its ``__main__`` block, the LR scaled by the total batch)
    config_rewrites: dict[str, list[tuple[_File, AssignValues]]] = field(default_factory=dict)
    #: names the repository binds to a parsed command line (stargan's ``config =
    #: parser.parse_args()``, handed to ``Solver(config)``): their attributes are options
    parsed_names: set[str] = field(default_factory=set)
    #: options declared without a default that the run cannot do without: left out, the
    #: script stops (pytorch-retinanet's ``--dataset``: ``if ... == 'coco': ... elif ... ==
    #: 'csv': ... else: raise ValueError(...)``), so None is not what it runs with
    needed: set[str] = field(default_factory=set)
    #: the yacs YAML configs merged over those defaults (Swin-Transformer's configs/*.yaml)
    yaml: YamlConfigs | None = None
    #: the JSON hparams the training reads (``hps.train.learning_rate``)
    hparams: OptionFiles | None = None
    #: the Darknet ``[net]`` keys the training reads (``model.hyperparams['decay']``)
    darknet: DarknetSettings | None = None
    #: the YAML hyperparameter file the training loads into a dict (``hyp["lr0"]``)
    hyp: DarknetSettings | None = None
    #: the repository's root, whose shell scripts launch the training (None: none read)
    root: Path | None = None
    #: the module-level classes of the configuration files the documented training
    #: commands load (``train.py -f exps/x.py``: ``exps.x.Exp``): what the run's ``self.x``
    #: reads in their bases hold
    launched_classes: frozenset[str] = frozenset()
    #: a module name -> the files importing it or a name from it
    importers: dict[str, list[_File]] = field(default_factory=dict)
    #: every module spelling of a file -> the file
    by_module: dict[str, _File] = field(default_factory=dict)
    #: path -> the repository files it imports or refers to (set by the recipe)
    graph: dict[str, set[str]] | None = None
    #: path -> the files importing or referring to it (built on first use)
    _users: dict[str, set[str]] | None = None
    #: a file's path -> the paths :meth:`linked` finds (read on first use)
    _linked: dict[str, frozenset[str]] = field(default_factory=dict)
    #: a script's path -> the shell scripts' commands that run it (read on first use)
    _launches: dict[str, list[Launch]] = field(default_factory=dict)
    #: what the review reads once (the parameters no call passes, read on first use)
    readings: Readings | None = None
    #: the repository's string-to-bool ``type=`` functions (set by the recipe)
    booleans: BoolTypes | None = None
    #: (path, class or function) the documentation's examples build -> keyword -> (the
    #: literal they pass, where): a library's trainer run only from its README's example
    documented: dict[tuple[str, str], dict[str, tuple[str, str]]] = field(default_factory=dict)

    def launched(self, option: _ArgOption) -> _Launched | None:
        """What the shell scripts that run the option's script pass it (RAFT's
        ``train_standard.sh``: ``--lr 0.0004`` in its first stage, 0.000125 and 0.0001 in
        the later ones), or None when no launch passes it. Only commands that run the very
        script declaring the option count: a script running another entry (an evaluation)
        or a word no option of the script spells changes nothing. Options declared in a
        module of their own (CenterTrack's ``class opts`` in ``src/lib/opts.py``, read by
        ``main.py``) take the commands that run a script importing that module."""
        if self.root is None:
            return None
        # an option of a dict of defaults has no ``add_argument`` call: its flag is its name
        names = _option_names(option.call.expr) or (option.option,)
        # a positional argument takes the word in its place (``python main.py kinetics RGB``)
        place = _positional_index(option)

        def given_by(launch: Launch) -> tuple[str, ...] | None:
            if place is None:
                return launch.given(names, option.words)
            leading = launch.leading()
            return (leading[place],) if place < len(leading) else None

        runs: list[Launch] = []
        given: list[tuple[str, ...] | None] = []
        first = (option.script,) if option.script is not None else ()
        for script in (*first, option.file, *self._importers(option.file)):
            if script.path not in self._launches:
                self._launches[script.path] = launches(self.root, script.path, script.modules)
            runs = self._launches[script.path]
            given = [given_by(launch) for launch in runs]
            if any(g is not None for g in given):
                break
        else:
            return None
        main = runs[0].path
        stages = [(launch, g) for launch, g in zip(runs, given, strict=True) if launch.path == main]
        others: dict[str, str] = {}
        for launch, g in zip(runs, given, strict=True):
            if launch.path != main and launch.path not in others:
                others[launch.path] = _launched_value(option, g)[0] if g is not None else ""
        shown = [_launched_value(option, g) if g is not None else None for _, g in stages]
        return _Launched(option.option, shown, [launch.line for launch, _ in stages], main,
                         _run_labels([launch for launch, _ in stages]), others)  # fmt: skip

    def _importers(self, f: _File) -> list[_File]:
        """The files that import module ``f`` (or a name from it) and train themselves (build
        a torch optimizer, step it or run a backward pass), by path: the training scripts
        that run the options ``f`` declares. A script importing them to evaluate
        (CenterTrack's ``test.py``) is another run: its command's options are not the
        training's."""
        found = {g.path: g for m in f.modules for g in self.importers.get(m, ())}
        # the functions of ``f`` that train (a script's ``main(args)`` building the optimizer):
        # a file calling one hands its own command line to ``f``'s training (a cluster
        # launcher's ``trainer.main(args)`` after ``trainer.get_args_parser()``): its
        # documented command runs ``f``'s options
        steps = {
            f"{m}.{u.function.partition('.')[0]}"
            for u in f.fa.uses
            if u.function and TRAINING_STEP.match(u.api)
            for m in f.modules
        }
        trains = [
            found[p]
            for p in sorted(found)
            if p != f.path
            and (
                any(TRAINING_STEP.match(u.api) for u in found[p].fa.uses)
                or any(
                    c.expr.parts and found[p].dotted(c.expr.func) in steps
                    for c in found[p].values.calls
                )
            )
        ]
        return trains

    def linked(self, f: _File) -> frozenset[str]:
        """The paths of the files on the same run as ``f``, by what imports or refers to
        what (:attr:`graph`): ``f`` and the scripts using it (a training script that calls
        ``train(opt)``), a few levels up, then everything those use, a few levels down. An
        option or a config attribute ``f`` reads by name (``opt.workers``) belongs to a
        parser or a config class among them: a parser of the package's inference command
        line, which neither uses nor is used by the training, is another run's. Every
        file when no graph is set."""
        known = self._linked.get(f.path)
        if known is not None:
            return known
        if self.graph is None:
            return frozenset(self.by_module[m].path for m in self.by_module)
        if self._users is None:
            self._users = {}
            for path, targets in self.graph.items():
                for target in targets:
                    self._users.setdefault(target, set()).add(path)
        seen = {f.path}
        todo = {f.path}
        for _ in range(_LINK_DEPTH):
            todo = {u for p in todo for u in self._users.get(p, ())} - seen
            seen |= todo
        todo = set(seen)
        for _ in range(_LINK_DEPTH):
            todo = {t for p in todo for t in self.graph.get(p, ())} - seen
            seen |= todo
        self._linked[f.path] = frozenset(seen)
        return self._linked[f.path]

    def add_file(self, f: _File) -> None:
        for module in f.modules:
            self.by_module.setdefault(module, f)
        for dotted in set(f.imports.values()):
            for name in {dotted, dotted.rpartition(".")[0]} - {""}:
                self.importers.setdefault(name, []).append(f)
        for a, _ in f.assigns:
            if (
                a.target.kind == "Name"
                and a.value.kind == "Call"
                and a.value.callee() in ("parse_args", "parse_known_args")
            ):
                self.parsed_names.add(a.target.name)
        for q, n in f.first.items():
            for module in f.modules:
                self.defs.setdefault(f"{module}.{q}", (f, n))
                self.canonical.setdefault(f"{module}.{q}", f"{f.module}.{q}")
            if f.defs[n].is_class and f.module:
                self._class_attrs(f, f"{f.module}.{q}", n)
        for call in f.values.calls:
            option = _argparse_option(f, call, self.booleans)
            if option is not None:
                self.argparse.setdefault(option[0], []).append(option[1])
        # ``cfg = __C``: the names a module's config object is also read by
        aliases: dict[str, set[str]] = {}
        for stmt in f.top_assigns(-1):
            if stmt.target.kind == "Name" and stmt.value.kind == "Name":
                aliases.setdefault(stmt.value.name, set()).add(stmt.target.name)
        if f.fa.syntax is not None and f.fa.syntax.main_guard:
            for stmt in f.values.assigns:  # module code, in the script's blocks too
                chain = _unparsed(stmt.target).split(".")
                if (
                    stmt.target.kind == "Attribute"
                    and not stmt.value.literal
                    and not stmt.annotated
                    and len(chain) >= 3
                    and chain[0] in _CONFIG_RECEIVERS
                    and chain[-1].isupper()
                ):
                    self.config_rewrites.setdefault(".".join(chain[-2:]), []).append((f, stmt))
        for stmt in f.top_assigns(-1):
            target = stmt.target
            if target.kind == "Name":
                self.constants.append((target.name, stmt, f))
                self._config_instance(f, stmt.value)
            elif target.kind == "Attribute" and stmt.value.literal:
                # yacs defaults: _C.SOLVER.BASE_LR = 0.001, keyed "SOLVER.BASE_LR"
                chain = _unparsed(target).split(".")
                if len(chain) >= 3:
                    self.config_chains.setdefault(".".join(chain[-2:]), []).append((f, stmt))
                elif len(chain) == 2 and chain[1].isupper():
                    # a top-level key (``__C.RNG_SEED = 3``), keyed by each name the
                    # object is read by (``cfg.RNG_SEED`` after ``cfg = __C``)
                    for name in {chain[0], *aliases.get(chain[0], ())}:
                        self.config_chains.setdefault(f"{name}.{chain[1]}", []).append((f, stmt))

    def _config_instance(self, f: _File, value: Expr) -> None:
        """``opt = Config()`` at module level, ``Config`` a class of the file: the literals
        its body sets (simple-faster-rcnn's ``lr_decay = 0.1``, ``use_adam = False``) are the
        settings ``opt.lr_decay`` reads, as a config class's ``__init__`` literals are."""
        if value.kind != "Call" or value.args or value.keywords or value.func.kind != "Name":
            return
        index = f.first.get(value.func.name)
        if index is None or not f.defs[index].is_class:
            return
        for fact in self.attrs.get(f"{f.module}.{value.func.name}", ()):
            if not fact.method and fact.value.literal:
                self.attrs_by_name.setdefault(fact.attr, []).append(fact)

    def _class_attrs(self, f: _File, cls: str, index: int) -> None:
        found = self.attrs.setdefault(cls, [])
        node = f.defs[index]
        for stmt in f.top_assigns(index):
            value = field_default(stmt.value)
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


#: More runs of one script than this are counted by value, not listed one by one.
_MANY_RUNS = 6


class _Launched(NamedTuple):
    """What a launch script's runs pass one argparse option (:meth:`_Repo.launched`)."""

    option: str
    #: per run of the main script: the value as Python would hold it (a literal, or the
    #: shell's text with ``literal`` False), None where the run leaves the default
    values: list[tuple[str, bool] | None]
    lines: list[int]
    #: the main script: the one the README names first, else the first by path
    script: str
    #: the runs' names (the option whose value tells each run apart), empty with one run
    labels: list[str]
    #: the other scripts that run the same entry -> their first run's value ("": the
    #: default)
    others: dict[str, str]

    def first(self) -> tuple[str, bool] | None:
        """The first run's value (None: it leaves the default)."""
        return self.values[0]

    def where(self) -> str:
        """Where the first run is, named when the script makes several."""
        label = f" (run {self.labels[0]})" if self.labels else ""
        return f"{self.script}:{self.lines[0]}{label}"

    def by_run(self) -> str:
        """The other runs' values ("default" where one leaves it), each run's name before
        it: ``later runs: raft-things 0.000125, raft-kitti 0.0001`` (every run when the first
        leaves the default; nothing when no run of the main script passes it), then each
        other script's first value."""
        parts = []
        if len(self.values) > _MANY_RUNS and any(v is not None for v in self.values):
            # a page of commands, one per model and stage (18 runs): how many runs pass each
            # value, in the order the runs first pass it
            counts = Counter(v[0] if v is not None else "default" for v in self.values)
            shown = [f"{value} in {n}" for value, n in counts.items()]
            parts.append(f"{len(self.values)} runs of {self.script}: {', '.join(shown)}")
        elif len(self.values) > 1 and any(v is not None for v in self.values):
            labels = self.labels or [f"run {n}" for n in range(1, len(self.values) + 1)]
            shown = [
                f"{label} {v[0] if v is not None else 'default'}"
                for label, v in zip(labels, self.values, strict=True)
            ]
            later = self.first() is not None
            head = "later runs" if later else f"runs of {self.script}"
            parts.append(f"{head}: {', '.join(shown[later:])}")
        parts += [f"{path}: {value or 'default'}" for path, value in self.others.items()]
        return "; ".join(parts)


#: Calls that wrap a dict into an object read by attribute (``edict(cfg)``,
#: ``EasyDict(d)``, ``AttrDict(d)``, ``Box(d)``): its entries are the dict's.
_DICT_WRAPPERS = re.compile(r"(?i)^(e?dict|easydict|attrdict|addict|box|munch|dotmap|config)$")


def _parses(expr: Expr) -> bool:
    """``parser.parse_args()`` / ``parse_known_args()``: the parsed command line."""
    return expr.kind == "Call" and expr.callee().rpartition(".")[2] in (
        "parse_args",
        "parse_known_args",
    )


def _element(sequence: str, subscript: str) -> str:
    """The element ``subscript`` (``steps[0]``) picks from the literal list or tuple
    ``sequence`` (``[400000, 450000]``) by a constant index; "" otherwise."""
    index = subscript.rpartition("[")[2].removesuffix("]")
    try:
        items = ast.literal_eval(sequence) if sequence else None
        return repr(items[int(index)]) if isinstance(items, list | tuple) else ""
    except (ValueError, SyntaxError, IndexError, TypeError):
        return ""


def _set_default(file: _File, dest: str) -> tuple[str, int] | None:
    """(the literal, its line) a ``parser.set_defaults(dest=...)`` call of ``file`` gives the
    option ``dest``, which overrides every ``default=`` and action's implied default of
    the options storing to it; None without one. A call under an ``if`` the file's own
    option defaults make false (``if opt.no_TTUR: parser.set_defaults(beta1=0.5)``, the flag
    off unless given) gives nothing: the run starts from the declared default."""
    for call in file.values.calls:
        if call.expr.callee().rpartition(".")[2] != "set_defaults":
            continue
        if _skipped_by_defaults(file, call):
            continue
        for keyword in call.expr.keywords:
            if keyword.name == dest and keyword.target.literal:
                return keyword.target.text, call.expr.line
    return None


def _skipped_by_defaults(file: _File, call: CallValues) -> bool:
    """Whether the ``if`` nearest ``call`` keeps it from running when every option ``file``
    declares holds its default (``if opt.no_TTUR:`` with ``--no_TTUR`` a ``store_true``
    flag; ``if not opt.warm:`` holds): only tests over those options' attributes, told by
    :func:`~apiscan.review.evaluate.holds`; an unknown test skips nothing."""
    if not call.ifs:
        return False
    near = call.ifs[0]
    in_else = bool(near.body_end) and near.body_end < call.expr.line <= near.end_line
    defaults: dict[str, object] = {}
    for other in file.values.calls:
        declared = argparse_option(other.expr)
        if declared is None or declared.dest in defaults:
            continue
        if declared.action in ("store_true", "store_false"):
            defaults[declared.dest] = declared.action == "store_false"
        elif declared.default is not None and declared.default.literal:
            defaults[declared.dest] = _literal_value(declared.default)
        else:
            defaults[declared.dest] = UNKNOWN

    def lookup(name: Expr, _: int) -> object:
        if name.kind == "Attribute" and name.target.kind == "Name":
            return defaults.get(name.name, UNKNOWN)
        return UNKNOWN

    value = holds(near.test, lookup)
    if value is UNKNOWN:
        return False
    return bool(value) == in_else


def _positional_index(option: _ArgOption) -> int | None:
    """The place of a positional argument among those its file declares, in call order
    (``add_argument("dataset")`` then ``add_argument("modality")``: 0 and 1); None for an
    option named by a flag, or one a declaration of several words (``nargs``) makes the
    places after it unknown."""
    if option.option.startswith("-") or option.parser != "argparse":
        return None
    place = 0
    calls = sorted(option.file.values.calls, key=lambda c: (c.expr.line, c.expr.col))
    for call in calls:
        declared = argparse_option(call.expr)
        if declared is None or declared.option.startswith("-"):
            continue
        if call is option.call or call.expr == option.call.expr:
            return place
        if any(k.name == "nargs" for k in call.expr.keywords):
            return None
        place += 1
    return None


def _option_names(call: Expr) -> tuple[str, ...]:
    """Every flag an ``add_argument`` call spells its option with (``-l``, ``--lr``)."""
    return tuple(
        a.value
        for a in call.args
        if a.kind == "Constant" and isinstance(a.value, str) and a.value.startswith("-")
    )


def _launched_value(option: _ArgOption, words: tuple[str, ...]) -> tuple[str, bool]:
    """The value argparse makes of the words a launch gives an option, as Python writes it,
    and whether it is a literal: a bare flag is the action's constant, a number stays a
    number, several words are a list (``nargs='+'``), other words strings unless the option's
    ``type=`` is numeric. A shell variable (``$LR``) is no literal."""
    if not words:
        return ("False" if option.action == "store_false" else "True"), True
    if any("$" in w or "`" in w for w in words):
        return " ".join(words), False
    if option.boolean and len(words) == 1 and isinstance(bool_word(words[0]), bool):
        return str(bool_word(words[0])), True  # ``--model_ema true`` through ``str2bool``
    kind = next((k.target for k in option.call.expr.keywords if k.name == "type"), None)
    numeric = kind is not None and (
        (kind.kind == "Name" and kind.name in ("int", "float"))
        # click's ``type=click.IntRange(min=1)``, ``click.FLOAT``
        or bool(re.fullmatch(r"click\.(IntRange|FloatRange|INT|FLOAT)(\(.*\))?", kind.text))
    )
    texts = [w if (numeric or kind is None) and NUMBER.match(w) else repr(w) for w in words]
    nargs = next((k.target for k in option.call.expr.keywords if k.name == "nargs"), None)
    listed = nargs is not None and (nargs.kind != "Constant" or nargs.value != "?")
    if len(texts) > 1 or listed:
        return f"[{', '.join(texts)}]", True
    return texts[0], True


def _run_labels(runs: Sequence[Launch]) -> list[str]:
    """The runs' names: the values of the first option every run passes with a different
    value (RAFT's ``--name raft-chairs`` ... ``raft-kitti``), a number named with its option
    (co-tracker's README runs differ first by ``--sequence_len 64`` and ``60``:
    ``sequence_len=64``, not a bare 64); none with one run or no such option."""
    if len(runs) < 2:
        return []
    for word in runs[0].words:
        if not word.startswith("--"):
            continue
        flag = word.partition("=")[0]
        given = [run.given((flag,)) for run in runs]
        texts = [" ".join(g) for g in given if g]
        if len(texts) == len(runs) and len(set(texts)) == len(texts):
            if all(NUMBER.match(t) for t in texts):
                return [f"{flag.lstrip('-')}={t}" for t in texts]
            return texts
    return []


def _unparsed(expr: Expr) -> str:
    """An attribute chain as ``ast.unparse`` writes it (``cfg.SOLVER.LR``); other targets
    as written."""
    chain = expr.chain()
    return ".".join(chain) if chain is not None else expr.full()


def _argparse_option(
    f: _File, call: CallValues, booleans: BoolTypes | None = None
) -> tuple[str, _ArgOption] | None:
    """``parser.add_argument("-b", "--batch-size", default=64)`` → ("batch_size", option),
    read by the one reading of an argparse declaration (:func:`argparse_option`); with a
    string-to-bool ``type=`` (``booleans``), a string default is the bool argparse makes of
    it."""
    option = argparse_option(call.expr)
    if option is None:
        return None
    boolean = booleans is not None and booleans.of(f.fa, f.values, call.expr)
    default = as_bool(option.default) if boolean else option.default
    return option.dest, _ArgOption(
        option.option, default, option.action, f, call, option.required, boolean=boolean
    )


# ------------------------------------------------------------------------------ the values
class _Val(NamedTuple):
    """A value as far as it could be followed, and the steps that led there."""

    text: str
    literal: bool
    trail: tuple[str, ...] = ()
    #: a call some of whose arguments reached literals (a schedule helper fed its settings)
    computed: bool = False
    #: a setting the training script rewrites before the run (:meth:`_Values._rewritten_key`):
    #: a formula of settings, no literal, yet what the run reads
    rewritten: bool = False
    #: a parameter's default that the call sites found leave out (``Reader(['en'])`` and
    #: ``detect_network='craft'``): what they pass, not a default no caller is known to use
    omitted: bool = False
    #: (section, value) of a key read through a name holding one of several config
    #: sections (a Hydra run's ``stage_cfg = cfg[stage]`` for each training stage) that the
    #: sections set differently: a test of it is decided per section
    per: tuple[tuple[str, str], ...] = ()

    def show(self) -> str:
        return f"{self.text} ({'; '.join(self.trail)})" if self.trail else self.text

    def undecided(self) -> bool:
        """Whether the config files set the value differently and none is picked
        (detectron2's ``cfg.INPUT.MIN_SIZE_TRAIN``: 165 of 167 YAML configs set it to
        another tuple than the Python default): the text alone would hide those values."""
        return any(step.endswith(("none is picked", "none is the default")) for step in self.trail)

    def then(self, step: str) -> _Val:
        return self._replace(trail=(step, *self.trail))


def _counted_in_loop(f: _File, fn: int, name: str, line: int) -> bool:
    """Whether ``name`` is updated in place (``i += 1``) in a loop of its scope around
    ``line``: its value there changes from pass to pass, so the literal it starts from is not
    its value (slot-attention's ``if i < opt.warmup_steps:`` with ``i = 0`` before the loop
    and ``i += 1`` in it takes both branches over the run)."""
    if fn >= 0:
        updates, spans = f.defs[fn].updates, f.defs[fn].loop_spans
    else:
        updates, spans = f.values.updates, f.values.loop_spans
    around = [(start, end) for start, end in spans if start <= line <= end]
    return bool(around) and any(
        u.op and u.node.kind == "Name" and u.node.name == name and start <= u.line <= end
        for u in updates
        for start, end in around
    )


def _reaching(
    bound: Sequence[AssignValues], use: Expr, loops: Sequence[tuple[int, int]]
) -> tuple[list[AssignValues], bool]:
    """The assignments of one scope to a name (``bound``) that may give it its value at
    ``use``, and whether one of them always runs before it (so the parameter of that name,
    or an earlier value, is hidden).

    An assignment reaches when its statement ends before the use (``pred = pred.max(1)[1]``
    after ``cal_loss(pred, ...)`` does not) and no unconditional assignment of the scope's
    own body comes between; one later in the body of a loop around the use reaches it on
    the next pass, unless that body assigns the name before the use."""
    at = (use.line, use.col)
    before = [a for a in bound if (a.value.end_line, a.value.end_col) <= at]
    last_top = max(((a.line, a.target.col) for a in before if a.top), default=None)
    if last_top is not None:
        before = [a for a in before if (a.line, a.target.col) >= last_top]

    def block(a: AssignValues) -> tuple[object, ...]:
        """The block ``a`` is a statement of: its ``if`` branches and its loops."""
        sides = tuple((i.line, i.col, bool(i.body_end) and a.line > i.body_end) for i in a.ifs)
        return sides, tuple(span for span in loops if span[0] < a.line <= span[1])

    # ``lr = cfg.LR`` then ``lr = args.lr`` in one ``if __name__ == "__main__":`` block:
    # the later statement of the same block always runs after the earlier one
    blocks = [block(a) for a in before]
    before = [
        a
        for n, a in enumerate(before)
        if not any(
            b.line > a.line and blocks[m] == blocks[n] and not a.top for m, b in enumerate(before)
        )
    ]
    later: list[AssignValues] = []
    for start, end in loops:
        if not start <= use.line <= end or any(start <= a.line for a in before):
            continue
        later += [
            a
            for a in bound
            if a not in before
            and a not in later
            and a.line <= end
            and (a.value.end_line, a.value.end_col) > at
        ]
    return before + later, last_top is not None


class _Values:
    """Follows an argument to the literal it stands for, or says where it comes from.

    An expression is read in its file and the function it is in (``fn``, an index into the
    file's defs; -1 at module level or in a class body outside any function): a name is that
    function's parameter or assignment."""

    def __init__(
        self,
        repo: _Repo,
        hierarchy: Hierarchy,
        files: dict[str, _File],
        apart: Callable[[str], str] = lambda _: "",
    ) -> None:
        self.repo = repo
        #: whose recipe a file's facts are ("tool", "task", ""): another script's parser
        #: gives no default to the training's ``args``
        self.apart = apart
        self.hierarchy = hierarchy
        self.files = files
        #: last name -> how many of the repository's defs have it (built on first use)
        self._last_names: dict[str, int] | None = None
        #: (path, line) -> the defs the call facts on that line reach (built on first use)
        self._facts_on: dict[tuple[str, int], list[str]] | None = None
        #: (module, name) -> the modules a star import of which brings that name
        self._exporters: dict[tuple[str, str], set[str]] = {}
        #: module name -> its file (built on first use)
        self._by_module: dict[str, _File] | None = None
        #: (path, class index) -> the calls of the class through names holding it
        self._held_calls: dict[tuple[str, int], list[tuple[_File, CallValues]]] = {}
        #: path -> the names whose dict the file changes in place (built on first use)
        self._changed: dict[str, frozenset[str]] = {}
        #: (path, def, attribute chain) read as if the def wrote none (the value it holds
        #: when a write in a branch does not run)
        self._unwritten: set[tuple[str, int, str]] = set()
        #: the config keys whose rewrite by the script is being read (its formula reads the
        #: key's own default: ``config.TRAIN.BASE_LR * ...``)
        self._rewriting: set[str] = set()
        #: whether an assignment (file, def, line) runs with the defaults; the recipe
        #: sets it (its branch evaluation), every assignment runs without it
        self.runs: Callable[[_File, int, int], bool] = lambda f, fn, line: True
        #: the value a read by a string key (``cfg['image_size']``) holds with the defaults,
        #: UNKNOWN when not told; the recipe sets it (the shared evaluator)
        self.entry: Callable[[_File, int, Expr], object] = lambda f, fn, expr: UNKNOWN
        #: whether an assignment (file, def, line) inside ``if`` statements is known to run
        #: with the defaults (every test around it told); the recipe sets it
        self.taken: Callable[[_File, int, int], bool] = lambda f, fn, line: False
        #: whether :meth:`_settings_in` is reading (it does not read again inside)
        self._scaling = False

    def describe(self, f: _File, fn: int, expr: Expr) -> str:
        return self.resolve(f, fn, expr, 0).show()

    def _written_settings(self) -> frozenset[str]:
        """``section.key`` of every config setting the code assigns or updates
        (DINOv2's ``cfg.optim.lr = base_lr`` then ``cfg.optim.lr *= math.sqrt(...)``): the
        value the config file gives is not what the run reads."""
        found = getattr(self, "_config_writes", None)
        if found is None:
            names: set[str] = set()
            for f in self.files.values():
                targets = [a.target for a in f.values.assigns]
                targets += [u.node for u in f.values.updates]
                for d in f.defs:
                    targets += [a.target for a in d.assigns]
                    targets += [u.node for u in d.updates]
                for t in targets:
                    if t.kind == "Attribute" and t.target.kind == "Attribute":
                        names.add(f"{t.target.name}.{t.name}")
            found = self._config_writes = frozenset(names)
        return found

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
        if expr.kind in ("BinOp", "BoolOp"):
            return self._folded(f, fn, expr, depth)
        if expr.kind == "Compare" or expr.kind == "IfExp":
            return self._decided(f, fn, expr, depth)
        if expr.kind == "Attribute":
            receiver = expr.target.full()
            last = receiver.rpartition(".")[2]
            if receiver == "self":
                return self._self_attr(f, fn, expr, depth)
            read = self._section_read(f, fn, expr.target, expr.name, text, depth)
            if read is not None:
                return read
            section = _section_alias(f, fn, expr.target) if fn >= 0 else None
            if section is not None:
                # ``optim.BASE_LR`` after ``optim, wd = cfg.OPTIM, cfg.OPTIM.WEIGHT_DECAY``:
                # the key of the config section the name holds
                whole = expr._replace(text=f"{section.text}.{expr.name}", parts=(section,))
                return self.resolve(f, fn, whole._replace(whole=None), depth + 1)
            if expr.target.kind == "Name" and fn >= 0:
                written = self._written_before(f, fn, expr, depth)
                if written is not None:
                    return written
            if expr.target.kind == "Name" or _kept_attr(expr.target):
                # what a config builder returns, before any option of the same name (also
                # through an attribute the class keeps it in: ``self.cfg.hue``)
                built = self._built_attr(f, fn, expr, depth)
                if built is not None:
                    return built
            if expr.target.kind == "Name" and fn < 0:
                # ``Cfg.w = Cfg.width`` in the module that fills the config object in
                entry = self._module_entry(f, expr.target.name, expr.name, depth + 1, expr.line)
                if entry is not None:
                    return entry
            if last in _ARG_RECEIVERS or last in self.repo.parsed_names:
                found = self._argparse(f, fn, expr, depth)
                if found is not None:
                    return found
            hyp = self.repo.hyp
            setting = hyp.attribute(last, expr.name) if hyp and expr.target.kind == "Name" else None
            if hyp is not None and setting is not None:
                # ``args.base_lr``, ``args`` the object a repository loader makes of the YAML
                # an option's default names (no option of that name declared)
                step = f"{expr.text}: {setting.text} in {setting.loc()}, {hyp.chosen_by}"
                return _Val(setting.text, True, (step,))
            if last in _ARG_RECEIVERS | _CONFIG_RECEIVERS:
                found = self._config(f, expr, depth)
                if found is not None:
                    return found
            head = receiver.partition(".")[0]
            # a yacs section's key, upper case or not (``cfg.TRAIN.lr_encoder``), or an
            # upper-case key at the top (``cfg.RNG_SEED``)
            top = expr.target.kind == "Name" and expr.name.isupper()
            if head in _CONFIG_RECEIVERS and (last.isupper() or top):
                rewritten = self._rewritten_key(f, fn, expr, f"{last}.{expr.name}", depth)
                if rewritten is not None:
                    return rewritten
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
                by_yaml = self._yaml(expr)
                if by_yaml is not None and by_yaml[0]:
                    return _Val(by_yaml[0], True, (by_yaml[1],))
                runs = self._documented_runs(expr) if by_yaml is not None else None
                if runs:
                    # the documented runs' YAMLs give it different values: those are what
                    # runs, not the Python default every one of them overrides
                    return _Val(runs, False, (by_yaml[1],))
                if merged is not None:
                    if by_yaml is not None:  # after the default it qualifies
                        merged = merged._replace(trail=(*merged.trail, by_yaml[1]))
                    return merged
                default = self._yaml_default(expr)
                if default is not None and by_yaml is None:
                    # ``cfg.DTYPE`` under ``from .defaults import _C as cfg``: no chain of
                    # assignments names it, the defaults the YAML files merge over do
                    return _Val(default.text, True, (f"{text}: default at {default.loc()}",))
            by_file = self._hparams(expr)
            if by_file is not None:
                return _Val(by_file[0] or text, bool(by_file[0]), (by_file[1],))
        return _Val(text, False)

    def _rewritten_key(self, f: _File, fn: int, expr: Expr, key: str, depth: int) -> _Val | None:
        """A config key the training script rewrites before the run (Swin's ``__main__``:
        ``linear_scaled_lr = config.TRAIN.BASE_LR * config.DATA.BATCH_SIZE *
        dist.get_world_size() / 512.0`` ... ``config.TRAIN.BASE_LR = linear_scaled_lr``,
        then ``main(config)``): what the run reads is that formula, not the default or the
        YAML's value, which it starts from. A name the rewrite assigns is shown by what the
        script's module code assigns it before (each step: a scaling under an ``if`` too).
        None when no script on the reader's run rewrites the key."""
        if key in self._rewriting:
            return None
        linked = self.repo.linked(f)
        rewrites = [
            (sf, stmt)
            for sf, stmt in self.repo.config_rewrites.get(key, [])
            if sf.path in linked and not self.apart(sf.path)
        ]
        if not rewrites:
            return None
        self._rewriting.add(key)
        try:
            found: list[tuple[_Val, str]] = []
            for sf, stmt in rewrites:
                value = stmt.value
                steps = []
                if value.kind == "Name":
                    steps = sorted(
                        (
                            a
                            for a in sf.values.assigns
                            if a.target.kind == "Name"
                            and a.target.name == value.name
                            and a.line < stmt.line
                        ),
                        key=lambda a: a.line,
                    )
                formula = steps[0].value if steps else value
                nodes = formula.walk()
                owned = {id(n.target) for n in nodes if n.kind == "Attribute"}
                shown = [
                    f"{n.text} = {self.resolve(sf, -1, n, depth + 1).show()}"
                    for n in nodes
                    if n.kind == "Attribute"
                    and id(n) not in owned
                    and _unparsed(n).split(".")[0] in _CONFIG_RECEIVERS
                ]
                when = next(
                    (i.test.text for i in stmt.ifs if not i.test.text.startswith("__name__")), ""
                )
                trail = [
                    f"{expr.text}: rewritten at {sf.loc(stmt.line)} before the run"
                    + (f" if {when}" if when else "")
                ]
                trail += [
                    f"{a.target.name} = {a.value.text} at {sf.loc(a.line)}"
                    + (
                        f" (if {a.ifs[0].test.text})"
                        if n and a.ifs and not a.ifs[0].test.text.startswith("__name__")
                        else ""
                    )
                    for n, a in enumerate(steps)
                ]
                if shown:
                    trail.append("with " + "; ".join(dict.fromkeys(shown)))
                val = _Val(formula.text, False, ("; ".join(trail),), rewritten=True)
                found.append((val, sf.loc(stmt.line)))
            return _merge(found)
        finally:
            self._rewriting.discard(key)

    def _written_before(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val | None:
        """``args.dist_backend`` read after the same function sets it (RAM's
        ``init_distributed_mode``: ``args.dist_backend = 'nccl'`` and, under ``if 'WORLD_SIZE'
        in os.environ:``, ``args.world_size = int(os.environ['WORLD_SIZE'])``, both before
        ``init_process_group``): the value written, not the option's default; with the
        default beside it when the write may not run. None when the function writes no
        such attribute before the read."""
        d = f.defs[fn]
        bound = [
            a
            for a in d.assigns
            if a.target.kind == "Attribute" and a.target.text == expr.text and not a.annotated
        ]
        key = (f.path, fn, expr.text)
        if not bound or key in self._unwritten:
            return None
        reaching, hidden = _reaching(bound, expr, d.loop_spans)
        reaching = [a for a in reaching if self.runs(f, fn, a.line)]
        if not reaching or any(
            # ``h.batch_size = int(h.batch_size / n)`` scales the given value; ``if args.lr
            # is None: args.lr = ...`` fills an option left out: both read on the option
            any(e.text == expr.text for e in a.value.walk())
            or any(b.line < a.line <= b.end_line and expr.text in b.test.text for b in d.branches)
            for a in reaching
        ):
            return None
        found = [
            (
                self.resolve(f, fn, a.value, depth + 1).then(f"{expr.text} set at {f.loc(a.line)}"),
                f.loc(a.line),
            )
            for a in sorted(reaching, key=lambda a: a.line)[:3]
        ]
        if not hidden:
            # the write sits in a branch: what the name holds otherwise may reach too
            self._unwritten.add(key)
            try:
                found.append((self.resolve(f, fn, expr, depth + 1), "otherwise"))
            finally:
                self._unwritten.discard(key)
        return _merge(found)

    def _decided(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """A switch computed from a setting: ``cfg.DTYPE == "float16"`` where both sides
        reach literals (``False``, with where the setting is), and ``'O1' if
        use_mixed_precision else 'O0'`` where the test does (the branch taken, ``'O0'``).
        The expression as written when a side or the test is not known (an epoch, data)."""
        if expr.kind == "IfExp" and len(expr.parts) == 3:
            test, body, orelse = expr.parts
            decided = self.resolve(f, fn, test, depth + 1)
            if (
                not decided.literal
                or decided.text not in ("True", "False")
                or _from_parameter_default(decided)
            ):
                # ``256 if 'dla' in opt.arch else 256``: both branches the same literal,
                # whatever the test reads
                if body.literal and orelse.literal and body.text == orelse.text:
                    return _Val(body.text, True)
                return _Val(expr.text, False)
            taken = body if decided.text == "True" else orelse
            value = self.resolve(f, fn, taken, depth + 1)
            step = f"{test.text}: {decided.text}"
            return _Val(value.text, value.literal, (*value.trail, step, *decided.trail))
        if len(expr.parts) != 2 or expr.name not in ("Eq", "NotEq"):
            return _Val(expr.text, False)
        sides = [self.resolve(f, fn, part, depth + 1) for part in expr.parts]
        per = next((side.per for side in sides if side.per), ())
        if per and all(side.literal for side in sides):
            return self._decided_per(expr, sides, per)
        if not all(side.literal for side in sides) or any(
            side.undecided() or _from_parameter_default(side) for side in sides
        ):
            return _Val(expr.text, False)
        try:
            left, right = (ast.literal_eval(side.text) for side in sides)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return _Val(expr.text, False)
        result = (left == right) if expr.name == "Eq" else (left != right)
        trail = tuple(step for side in sides for step in side.trail)
        return _Val(str(result), True, (f"{expr.text}", *trail))

    @staticmethod
    def _decided_per(expr: Expr, sides: Sequence[_Val], per: tuple[tuple[str, str], ...]) -> _Val:
        """``stage_cfg['lr_schedule'] == 'poly'`` where the name holds one of several config
        sections that set the key differently: ``False`` when no section makes it true (the
        branch never runs), ``True`` when every one does; else the expression as written."""
        results: set[bool] = set()
        for _, value in per:
            texts = [value if side.per else side.text for side in sides]
            try:
                left, right = (ast.literal_eval(t) for t in texts)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return _Val(expr.text, False)
            results.add((left == right) if expr.name == "Eq" else (left != right))
        if len(results) != 1:
            return _Val(expr.text, False)
        trail = tuple(step for side in sides for step in side.trail)
        return _Val(str(results.pop()), True, (expr.text, *trail))

    def _section_read(
        self, f: _File, fn: int, container: Expr, key: str, text: str, depth: int
    ) -> _Val | None:
        """What a composed config (a Hydra run's) makes of ``key`` read from ``container``,
        a name holding one or several of its sections (``stage_cfg['learning_rate']`` after
        ``stage_cfg = cfg[stage]`` in ``for stage in stages``, handed on to a trainer): the
        value when the sections agree, else each section's, with where each is set. None
        when the config is no composed one or the sections are not known."""
        hp = self.repo.hparams
        if hp is None or hp.chosen is None or hp.kind != "Hydra config" or fn < 0:
            return None
        sections = self._sections(f, fn, container, 0)
        if not sections:
            return None
        found = [(s, hp.value(".".join((*s, key)))) for s in sections]
        set_by = [(".".join(s), v[1]) for s, v in found if v is not None]
        if not set_by:
            return None
        many = len(sections) > 1
        where = ", ".join(
            f"{setting.text} in {setting.loc()}" + (f" ({name})" if many else "")
            for name, setting in set_by
        )
        unset = [".".join(s) for s, v in found if v is None]
        if unset:
            where += f"; not set for {', '.join(unset)}"
        step = f"{text}: {where}, {hp.chosen_by}"
        texts = {canon_value(setting.text) for _, setting in set_by}
        if len(texts) == 1 and not unset:
            return _Val(set_by[0][1].text, True, (step,))
        shown = " | ".join(f"{setting.text} ({name})" for name, setting in set_by)
        per = tuple((name, setting.text) for name, setting in set_by)
        return _Val(shown, True, (step,), per=() if unset else per)

    def _sections(self, f: _File, fn: int, expr: Expr, depth: int) -> list[tuple[str, ...]]:
        """The config sections ``expr`` may hold, as key paths (``[("pre_training",),
        ("main_training",)]`` for ``cfg[stage]`` in a loop over those stage names; ``[()]``
        for the config a Hydra entry is handed), followed through local assignments and the
        call sites of the function's parameters; [] when not known."""
        if depth >= MAX_DEPTH:
            return []
        if expr.kind == "Subscript" and len(expr.parts) == 2:
            keys = self._index_strings(f, fn, expr.parts[1])
            inner = self._sections(f, fn, expr.parts[0], depth + 1) if keys else []
            return [(*s, k) for s in inner for k in keys]
        if (
            expr.kind == "Attribute"
            and expr.target.kind == "Name"
            and expr.target.name == "self"
            and fn >= 0
        ):
            # ``self.args`` in a method: what the class's ``__init__`` stores there (``self.args
            # = args``), followed to the constructor's call sites (a solver handed the config)
            return self._self_sections(f, fn, expr.name, depth + 1)
        if expr.kind == "Attribute" and expr.target.kind in ("Name", "Attribute", "Subscript"):
            return [(*s, expr.name) for s in self._sections(f, fn, expr.target, depth + 1)]
        if expr.kind != "Name" or fn < 0:
            return []
        d = f.defs[fn]
        bound = [
            a
            for a in d.assigns
            if a.target.kind == "Name" and a.target.name == expr.name and a.line < expr.line
        ]
        if bound:
            return self._sections(f, fn, bound[-1].value, depth + 1)
        if expr.name not in {p for p, _ in d.params}:
            return []
        if any(hydra_entry(dec, f.imports) for dec in d.decorators):
            return [()]
        out: list[tuple[str, ...]] = []
        for caller, call in self.call_sites(f, fn):
            passed = bind_call(d, call.expr).get(expr.name)
            if passed is None:
                continue
            for s in self._sections(caller, call.function, passed, depth + 1):
                if s not in out:
                    out.append(s)
        return out

    def _self_sections(self, f: _File, fn: int, name: str, depth: int) -> list[tuple[str, ...]]:
        """The config sections ``self.<name>`` may hold in a method of def ``fn``'s class: the
        value the class's ``__init__`` assigns to it, read there; [] when not known."""
        owner = f.defs[fn].owner
        if owner < 0 or not f.defs[owner].is_class:
            return []
        for n, d in enumerate(f.defs):
            if d.owner != owner or d.name != "__init__" or d.is_class:
                continue
            stored = [
                a
                for a in d.assigns
                if a.target.kind == "Attribute"
                and a.target.name == name
                and a.target.target.kind == "Name"
                and a.target.target.name == "self"
            ]
            if len(stored) == 1:
                return self._sections(f, n, stored[0].value, depth)
        return []

    @staticmethod
    def _index_strings(f: _File, fn: int, index: Expr) -> list[str]:
        """The string keys an index may be: a constant, or a loop name over a list of
        constants (written out, or built by ``append`` in the same function)."""
        if index.kind == "Constant" and isinstance(index.value, str):
            return [index.value]
        if index.kind != "Name" or fn < 0:
            return []
        loops = [
            loop for loop in f.values.loops if loop.function == fn and loop.names == (index.name,)
        ]
        if len(loops) != 1:
            return []
        source = loops[0].iter
        exprs: list[Expr] = []
        if source.kind in ("List", "Tuple"):
            exprs = list(source.parts)
        elif source.kind == "Name":
            for a in f.defs[fn].assigns:
                if a.target.kind == "Name" and a.target.name == source.name:
                    exprs += list(a.value.parts) if a.value.kind in ("List", "Tuple") else [a.value]
            exprs += [
                c.expr.args[0]
                for c in f.values.calls
                if c.function == fn
                and c.expr.func.text == f"{source.name}.append"
                and len(c.expr.args) == 1
            ]
        keys = [e.value for e in exprs if e.kind == "Constant" and isinstance(e.value, str)]
        return keys if len(keys) == len(exprs) else []

    def _folded(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """Arithmetic on settings (simsiam's ``args.lr * args.batch_size / 256``): its number
        where every name in it reaches one, shown with the expression and what each name
        holds (``0.1 (= args.lr * args.batch_size / 256 with args.lr = 0.05, ...)``); the
        expression as written otherwise."""
        if _reads_epoch(expr):
            return _Val(expr.text, False)  # ``self.seed + 2 * epoch``: a value per epoch
        if fn >= 0 and any(
            e.kind == "Name" and e.name in f.defs[fn].loop_names for e in expr.walk()
        ):
            # ``opt.batch_size * float(batch_ratio_d)`` in a loop over the data sets: one
            # value per element, shown with the settings it scales (``opt.batch_size = 32``)
            return _Val(expr.text, False, self._settings_in(f, fn, expr, depth))
        steps: dict[str, str] = {}
        shown_in_full: dict[str, str] = {}

        def lookup(leaf: Expr) -> float | None:
            value = self.resolve(f, fn, leaf, depth + 1)
            if any(step.startswith("default of parameter") for step in value.trail) or (
                value.undecided()
            ):
                # no caller says what it passes, or the config files disagree and none is
                # picked (detectron2's SOLVER.MAX_ITER): no one number
                return None
            number: float | None = _literal_number(value.text) if value.literal else None
            if value.literal and value.text in ("True", "False"):
                number = value.text == "True"  # ``lr * (cfg.DOUBLE_BIAS + 1)``: a switch as 0/1
            if number is not None:
                steps.setdefault(leaf.text, value.text)
                shown_in_full.setdefault(leaf.text, value.show())
            return number

        number = _arith(expr, {}, lookup)
        if not isinstance(number, int | float) or isinstance(number, bool) or not steps:
            if steps and fn >= 0 and expr.kind == "BinOp":
                # ``lr * self._get_lr_scale()``: a setting scaled by a factor computed at
                # run time; the expression stays, with what its settings hold (``lr = 1e0``)
                shown = ", ".join(f"{name} = {value}" for name, value in shown_in_full.items())
                return _Val(expr.text, False, (f"with {shown}",))
            return _Val(expr.text, False)
        shown = ", ".join(f"{name} = {value}" for name, value in steps.items())
        return _Val(format(number, ".10g"), True, (f"= {expr.text} with {shown}",))

    def _settings_in(self, f: _File, fn: int, expr: Expr, depth: int) -> tuple[str, ...]:
        """``name.attr = value`` of each setting read by attribute in ``expr`` that reaches
        a literal the run is known to use (no parameter's default no caller passes)."""
        out: dict[str, str] = {}
        if self._scaling:
            return ()  # asked again while one is read: no reading inside a reading
        self._scaling = True
        try:
            for leaf in expr.walk():
                if leaf.kind != "Attribute" or leaf.target.kind != "Name" or leaf.text in out:
                    continue
                # read afresh: the setting sits a few calls up (the options a training
                # function is passed), deeper than the expression around it
                value = self.resolve(f, fn, leaf, 1)
                if value.literal and not value.undecided() and not _from_parameter_default(value):
                    out[leaf.text] = f"{_SCALED}{leaf.text} = {value.show()}"
        finally:
            self._scaling = False
        return tuple(out.values())

    def _built_attr(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val | None:
        """``hparams.learning_rate`` where ``hparams`` holds what a config builder returns:
        the keyword of that name in the call building the object it returns (tacotron2's
        ``create_hparams()`` returning ``HParams(learning_rate=1e-3, ...)``), whatever class
        builds it, the name followed through the parameters it is passed as; None when the
        name comes from nothing so built. ``self.cfg.hue`` reads the same way: ``self.cfg``
        set in ``__init__`` from a parameter, followed to what the class's builders pass
        (a dataset given the training's config object)."""
        found: dict[str, _Val] = {}
        held = expr.target
        origins = (
            self._origins(f, fn, held.name, expr.line, depth)
            if held.kind == "Name"
            else self._expr_origins(f, fn, held, expr.line, depth)
        )
        for origin, origin_fn, call in origins:
            value = self._constructed_entry(
                origin, origin_fn, call, expr.name, depth
            ) or self._returned_entry(origin, origin_fn, call, expr.name, depth, True)
            if value is not None:  # a default the builder sets, replaced after it
                value = self._overridden(origin, origin_fn, call, expr.name, depth) or value
            at = origin.loc(call.line)
            if value is not None and at not in found:
                found[at] = value.then(f"{_unparsed(expr)}: built by {call.func.text}() at {at}")
        return _merge([(v, at) for at, v in found.items()])

    def _constructed_entry(
        self, f: _File, fn: int, call: Expr, key: str, depth: int
    ) -> _Val | None:
        """``key`` of a repository config class's instance ``call`` builds (a dataclass,
        ``TrainArgs(global_batch_size=16, epochs=5)``): the keyword of that name, else the
        field default the class body writes (``micro_batch_size: int = 4``); None when
        ``call`` builds no repository class or neither sets ``key``."""
        if call.kind != "Call" or call.func.kind not in ("Name", "Attribute"):
            return None
        built = self.repo_function(f, call, classes=True)
        if built is None or not built[0].defs[built[1]].is_class:
            return None  # ``build(lr=0.5)`` returning another object: not its entries
        for keyword in call.keywords:
            if keyword.name == key:
                return self.resolve(f, fn, keyword.target, depth + 1)
        cls_file, index = built
        fields = [
            a
            for a in cls_file.top_assigns(index)
            if a.target.kind == "Name" and a.target.name == key
        ]
        if not fields or any(not k.name for k in call.keywords) or call.args:
            return None
        value = field_default(fields[-1].value)
        shown = self.resolve(cls_file, cls_file.defs[index].function, value, depth + 1)
        return shown.then(f"{key}: field default at {cls_file.loc(fields[-1].line)}")

    def _overridden(self, f: _File, fn: int, call: Expr, key: str, depth: int) -> _Val | None:
        """The value the code that builds a config with ``call`` sets its attribute ``key``
        to afterwards, in the same function (``C.trainer = Trainer.get_default_config()``
        then ``C.trainer.learning_rate = 5e-4``): it replaces the builder's default; None
        when nothing there sets it."""
        scope = f.defs[fn].assigns if fn >= 0 else f.values.assigns
        bound = [
            a.target.text
            for a in scope
            if a.line == call.line and a.value.text == call.text and not a.annotated
        ]
        if not bound:
            return None
        sets = [
            a
            for a in scope
            if a.line > call.line and a.target.kind == "Attribute" and a.target.name == key
            and a.target.target.text == bound[0]
        ]  # fmt: skip
        if not sets:
            return None
        last = max(sets, key=lambda a: a.line)
        found = self.resolve(f, fn, last.value, depth + 1)
        return found.then(f"{key} set at {f.loc(last.line)}, after the builder's default")

    def _origins(
        self, f: _File, fn: int, name: str, line: int, depth: int
    ) -> list[tuple[_File, int, Expr]]:
        """(file, def, call) of the calls whose result the name ``name`` read at ``line``
        of def ``fn`` holds: its last assignment before the read, else what the call sites
        of ``fn`` pass for the parameter so named (a few calls deep)."""
        if depth >= MAX_DEPTH:
            return []
        if fn >= 0:
            value = f.local_value(fn, name, line)
        else:
            bound = [
                a
                for a in f.values.assigns
                if not a.annotated and a.line < line and a.target.kind == "Name"
                and a.target.name == name
            ]  # fmt: skip
            value = max(bound, key=lambda a: a.line).value if bound else None
        if value is None and fn >= 0:
            # ``model, config = self.model, self.config``: the element of that name
            for a in f.defs[fn].assigns:
                if a.line >= line or a.target.kind != "Tuple" or a.value.kind != "Tuple":
                    continue
                for part, element in zip(a.target.parts, a.value.parts, strict=False):
                    if part.kind == "Name" and part.name == name:
                        value = element
        if value is not None:
            return self._expr_origins(f, fn, value, line, depth)
        if fn < 0 or name not in dict(f.defs[fn].params):
            return []
        out: list[tuple[_File, int, Expr]] = []
        sites = self.call_sites(f, fn)
        for caller, call in sites[:MAX_SITES]:
            passed = bind_call(f.defs[fn], call.expr).get(name)
            if passed is not None:
                out += self._expr_origins(caller, call.function, passed, call.expr.line, depth)
        default = dict(f.defs[fn].params)[name]
        if not sites and default is not None and default.kind == "Call":
            # an entry a command line calls with its defaults (litgpt's ``setup(train:
            # TrainArgs = TrainArgs(global_batch_size=16, ...))``): the default builds it
            out.append((f, fn, default))
        return out

    def _expr_origins(
        self, f: _File, fn: int, value: Expr, line: int, depth: int
    ) -> list[tuple[_File, int, Expr]]:
        """The builder calls (:meth:`_origins`) the expression ``value`` read at ``line``
        of def ``fn`` holds: itself when a call; a name's own origins; ``self.config`` set
        in the class's ``__init__`` from what it is given (a trainer keeping its config);
        ``config.trainer`` where the builder of ``config`` sets ``trainer`` to a call (a
        config of configs, ``C.trainer = Trainer.get_default_config()``)."""
        if (
            value.kind == "Call"
            and value.func.kind == "Attribute"
            and value.func.name in _MODULE_RETURNING
            and value.func.target.kind in ("Name", "Attribute", "Call")
            and depth < MAX_DEPTH
        ):
            # ``model = model.to(memory_format=torch.channels_last)``: a module's move or
            # mode switch returns the module itself, built where its receiver was
            # (the receiver read where the call is: its assignment before that line)
            inner = self._expr_origins(f, fn, value.func.target, value.line, depth + 1)
            if inner:
                return inner
        if value.kind == "Call":
            return [(f, fn, value)]
        if value.kind == "Name":
            return self._origins(f, fn, value.name, line, depth + 1)
        if value.kind != "Attribute" or value.target.kind != "Name" or depth >= MAX_DEPTH:
            return []
        if value.target.name == "self":
            owner = f.defs[fn].owner if fn >= 0 else -1
            init = f.first.get(f"{f.defs[owner].qual}.__init__") if owner >= 0 else None
            if init is None:
                return []
            return [
                found
                for a in f.defs[init].assigns
                if a.target.kind == "Attribute" and a.target.text == value.text
                for found in self._expr_origins(f, init, a.value, a.line + 1, depth + 1)
            ]
        out: list[tuple[_File, int, Expr]] = []
        for origin, _, call in self._origins(f, fn, value.target.name, line, depth + 1):
            builder = self.repo_function(origin, call) if call.func.kind == "Name" else None
            if builder is None:
                continue
            b_file, b_fn = builder
            for returned in b_file.defs[b_fn].returns:
                if returned.kind != "Name":
                    continue
                for key, item in _set_items(b_file, b_fn, returned):
                    if key == value.name and item.kind == "Call":
                        out.append((b_file, b_fn, item))
        return out

    def _hparams(self, expr: Expr) -> tuple[str, str] | None:
        """What the JSON hparams make of ``hps.train.learning_rate``: the longest tail of
        the chain (two keys at least) that the files set. A flat JSON's single key
        (hifi-gan's ``h.learning_rate``) counts when one file is the config (its default or
        the training command names it) and the chain is a plain name's attribute: across
        files no one is picked from, a lone key is too weak a match."""
        if self.repo.hparams is None:
            return None
        chain = [*expr.target.full().split("."), expr.name]
        last = len(chain) - 1
        if self.repo.hparams.chosen is not None and len(chain) == 2 and chain[0] != "self":
            written = self._written(expr.text)
            found = self.repo.hparams.step(chain[1], expr.text)
            if written and found is not None:
                # hifi-gan's ``h.num_gpus = torch.cuda.device_count()``: the file's 0 is
                # replaced at run time, it is not the run's value
                return "", f"{found[1]}, replaced at {written}"
            last = len(chain)
        for start in range(1, last):
            found = self.repo.hparams.step(".".join(chain[start:]), expr.text)
            if found is not None:
                return found
        return None

    def _written(self, text: str) -> str:
        """Where an assignment of the repository (tests aside) writes the attribute chain
        ``text`` (``h.num_gpus = ...``) and what: ``train.py:258 (torch.cuda.device_count())``;
        "" when none does."""
        last = text.rpartition(".")[2]
        for path, f in sorted(self.files.items()):
            if is_test_path(path) or last not in f.fa.stored_attrs:
                continue
            for a, _ in f.assigns:
                if a.target.kind == "Attribute" and a.target.text == text:
                    return f"{f.loc(a.line)} ({a.value.text})"
        return ""

    def _yaml_default(self, expr: Expr) -> Setting | None:
        """The Python default of the yacs key ``expr`` reads (``cfg.DTYPE`` →
        ``_C.DTYPE = "float32"``), when the YAML configs are read."""
        if self.repo.yaml is None:
            return None
        keys = yacs_key([*expr.target.full().split("."), expr.name])
        if not keys and expr.target.kind == "Name" and expr.name.isupper():
            keys = [expr.name]
        return self.repo.yaml.defaults.get(".".join(keys)) if keys else None

    def _documented_runs(self, expr: Expr) -> str | None:
        """The values the documented training commands' YAML configs give the yacs key
        ``expr`` reads, as alternatives (``0.25 | 0.35``), when they differ and no YAML is
        the default; None otherwise."""
        found = self.repo.yaml
        if found is None:
            return None
        keys = yacs_key([*expr.target.full().split("."), expr.name])
        documented = found.documented_values(".".join(keys)) if keys else None
        if not documented or len(documented) < 2:
            return None
        return " | ".join(text for text, _ in documented)

    def _yaml(self, expr: Expr) -> tuple[str, str] | None:
        """What the yacs YAML configs make of ``cfg.SOLVER.BASE_LR``: the default YAML's
        value, or how many YAML files set it to what when none is the default."""
        if self.repo.yaml is None:
            return None
        keys = yacs_key([*expr.target.full().split("."), expr.name])
        if not keys and expr.target.kind == "Name" and expr.name.isupper():
            keys = [expr.name]  # a key at the top of the YAML (``POOLING_MODE: align``)
        return self.repo.yaml.step(".".join(keys), expr.text) if keys else None

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
                elif value.trail and all(t.startswith(_SCALED) for t in value.trail):
                    # a value per element that scales settings (:meth:`_settings_in`)
                    changed = True
                    steps += value.trail
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
        if index.kind == "Constant" and isinstance(index.value, str):
            read = self._section_read(f, fn, container, index.value, text, depth)
            if read is not None:
                return read
        hyp = self.repo.hyp
        if hyp is not None and index.kind == "Constant" and isinstance(index.value, str):
            # a YAML hyperparameter file (the one the script in ``f`` loads, where each
            # training script loads its own; either's value in a helper both call)
            read = hyp.read_in(f.path, container.text, index.value)
            changed = hyp.changed.get(index.value)
            steps = tuple(
                f"{text}: {setting.text} in {setting.loc()}, {why}"
                # ``hyp["box"] *= 3 / nl``: the file's value is scaled
                + (f"; changed in place at {changed}" if changed else "")
                for setting, why in read
            )
            if len(read) == 1:
                return _Val(read[0][0].text, True, steps)
            if read:
                return _Val(" or ".join(s.text for s, _ in read), False, steps)
        hparams = self.repo.hparams
        if (
            hparams is not None
            and hparams.chosen is not None
            and index.kind == "Constant"
            and isinstance(index.value, str)
            and "." in index.value
        ):
            # a config flattened to dotted keys (a Lightning module's
            # ``self.hparams["optimizer.lr"]`` from the composed Hydra config): the key the
            # config sets, read whole
            found = hparams.step(index.value, text)
            if found is not None and found[0]:
                return _Val(found[0], True, (found[1],))
        for keyed in (self.repo.darknet,):
            setting = (
                keyed.read(container.text, index.value)
                if keyed is not None and index.kind == "Constant" and isinstance(index.value, str)
                else None
            )
            if setting is None or keyed is None:
                continue
            where = f"{setting.path} [net]" + (f" at line {setting.line}" if setting.line else "")
            step = "set" if setting.line else "not set: .get gives None"
            return _Val(setting.text, True, (f"{text}: {step} in {where}",))
        if index.kind == "Constant" and isinstance(index.value, str):
            loaded = self._loaded_setting(f, fn, expr)
            if loaded is not None:
                return loaded
            chain = _attribute_chain(expr)
            if (
                chain is not None
                and chain.target.kind != "Name"
                and f"{chain.target.name}.{chain.name}" not in self._written_settings()
            ):
                # DINOv2's ``cfg.optim["lr"]``: an OmegaConf section read by key is the
                # same setting as ``cfg.optim.lr``, which the config files give
                read = self.resolve(f, fn, chain, depth + 1)
                if read.literal:
                    return read
            # Pytorch_Retinaface's ``cfg['image_size']``, ``cfg`` the dict ``--network``'s
            # default picks: its entry (unless the file writes entries of that dict)
            value = self.entry(f, fn, expr) if not self._written_in_place(f, container) else UNKNOWN
            if is_numeric(value) or isinstance(value, str | bool):
                step = f"{text}: the entry of the dict the defaults pick"
                return _Val(repr(value), True, (step,))
            keyed = self._keyed(f, fn, container, index.value, depth)
            if keyed is not None:
                return keyed  # cfg['loc_weight'] of a dict written in the repository, not picked
        if container.kind == "Dict" and index.kind != "Constant":
            picked = self._picked_entry(f, fn, container, index, depth)
            if picked is not None:
                return picked
        if not (index.kind == "Name" and fn >= 0 and index.name in f.defs[fn].loop_names):
            return _Val(text, False)  # cfg["lr"], boxes[fg]: a lookup, not a schedule step
        base = self.resolve(f, fn, container, depth + 1)
        if not (base.literal or base.computed):
            return _Val(text, False)  # self.W_a[ii]: a tensor built from no setting
        step = f"{container.text} indexed by {index.text}"
        return _Val(f"{base.text}[{index.text}]", False, (step, *base.trail))

    def _picked_entry(
        self, f: _File, fn: int, container: Expr, index: Expr, depth: int
    ) -> _Val | None:
        """The entry of a dict literal that a key followed to a string picks (llama2.c's
        ``{"float32": torch.float32, "bfloat16": torch.bfloat16, ...}[dtype]``, ``dtype =
        "bfloat16"``: ``torch.bfloat16``); None when the key reaches no string the dict has,
        or the entry is neither a literal nor a dotted name."""
        key = self.resolve(f, fn, index, depth + 1)
        if not key.literal:
            return None
        try:
            picked = ast.literal_eval(key.text)
        except (ValueError, SyntaxError):
            return None
        if not isinstance(picked, str):
            return None
        entry = dict(_dict_items(container)).get(picked)
        if entry is None:
            return None
        step = f"the entry {picked!r} of the dict, {index.text} = {key.show()}"
        if entry.literal or f.dotted(entry):
            return _Val(entry.text, True, (step,))
        found = self.resolve(f, fn, entry, depth + 1)
        return found.then(step) if found.literal else None

    def _loaded_setting(self, f: _File, fn: int, expr: Expr) -> _Val | None:
        """What the chosen config file gives the key ``expr`` reads by string subscripts from
        the dict a loader returned (``args["optimization"]["lr"]``, ``args`` the parameter
        a caller hands ``yaml.load(f)``'s dict; ``opt["lr"]`` after ``opt =
        args["optimization"]``): the file's ``optimization.lr`` with its place. None when
        no file is chosen, ``expr`` reads no loaded dict, or the file does not set the key."""
        hp = self.repo.hparams
        if hp is None or hp.chosen is None:
            return None
        keys = self._loaded_keys(f, fn, expr, expr.line)
        if not keys:
            return None
        found = hp.step(".".join(keys), expr.text)
        if found is None or not found[0]:
            return None
        return _Val(found[0], True, (found[1],))

    def _written_in_place(self, f: _File, container: Expr) -> bool:
        """Whether ``container`` is a name whose dict ``f`` changes in place (an entry
        written, ``update`` called): the literal it was built from is then not what a read
        by key gives."""
        if container.kind != "Name":
            return False
        changed = self._changed.get(f.path)
        if changed is None:
            changed = self._changed[f.path] = _changed_in_place(f)
        return container.name in changed

    def _keyed(self, f: _File, fn: int, container: Expr, key: str, depth: int) -> _Val | None:
        """``cfg['loc_weight']`` where ``cfg`` holds a dict literal of the repository
        (Retinaface's ``cfg = cfg_mnet`` under the ``--network`` default, ``cfg_mnet`` a dict
        of ``data/config.py`` brought by a star import): the entry's value in each dict the
        name may hold, merged. None when a value it may hold is no dict, a dict lacks the
        key, or the file writes that key or updates the dict (the literal is then not what
        is read)."""
        dicts = self._dicts(f, fn, container, depth + 1)
        if not dicts:
            return None
        found: list[tuple[_Val, str]] = []
        for where, scope, held in sorted(dicts, key=lambda d: (d[0].path, d[2].line)):
            item = dict(_dict_items(held)).get(key)
            if item is None:
                return None
            found.append((self.resolve(where, scope, item, depth + 1), where.loc(item.line)))
        entry = f"{container.text}[{key!r}]"
        first = found[0][0]
        if all(v.text == first.text for v, _ in found):
            # one value wherever it is picked from: said once, with each place
            places = ", ".join(at for _, at in found[:4])
            more = f" and {len(found) - 4} more" if len(found) > 4 else ""
            return first._replace(trail=(f"{entry}: set at {places}{more}", *first.trail))
        return _merge([(v.then(f"{entry}: set at {at}"), at) for v, at in found])

    def _dicts(
        self, f: _File, fn: int, expr: Expr, depth: int
    ) -> list[tuple[_File, int, Expr]] | None:
        """The dict literals (``{...}``, ``dict(...)``) the name ``expr`` may hold, each with
        its file and function: its assignments in def ``fn`` (those that run with the
        defaults), else the module's, else the module-level assignment of the module it is
        imported from. A ``None`` placeholder assigned before the pick is passed over; None
        when any other value is no dict or the dict is changed in place."""
        if depth >= MAX_DEPTH:
            return None
        if _dict_items(expr) or expr.kind == "Dict":
            return [(f, fn, expr)]
        if expr.kind != "Name":
            return None
        if self._written_in_place(f, expr):
            return None
        name = expr.name
        scopes = [(fn, f.defs[fn].assigns)] if fn >= 0 else []
        for scope, assigns in [*scopes, (-1, f.values.assigns)]:
            bound = [
                a
                for a in assigns
                if not a.annotated and a.target.kind == "Name" and a.target.name == name
            ]
            if not bound:
                if scope >= 0 and name in dict(f.defs[scope].params):
                    return None  # a parameter: what the callers pass
                continue
            bound = [a for a in bound if self.runs(f, scope, a.line)] or bound
            found: list[tuple[_File, int, Expr]] = []
            for a in bound:
                if a.value.kind == "Constant" and a.value.value is None:
                    continue  # ``cfg = None`` before the branches that pick one
                inner = self._dicts(f, scope, a.value, depth + 1)
                if inner is None:
                    return None
                found += inner
            return found or None
        binding = self._module_binding(f, name)
        if binding is None:
            return None
        other, assigned = binding
        return self._dicts(other, -1, assigned.value, depth + 1)

    def _module_binding(self, f: _File, name: str) -> tuple[_File, AssignValues] | None:
        """The module-level ``name = value`` that the name ``name`` imported into ``f`` is:
        in the module the import names, or in a module that one star-imports, a few deep
        (``from data import cfg_mnet``, ``data/__init__.py`` doing ``from .config import
        *``)."""
        dotted = f.imports.get(name)
        if dotted is not None:
            module, _, name = dotted.rpartition(".")
        else:
            relative = [r for r in f.values.relative_imports if r[0] == name]
            if not relative:
                return None
            _, level, written, name = relative[0]
            module = f.from_module(level, written)
        if self._by_module is None:
            self._by_module = {m: file for file in self.files.values() for m in file.modules}
        todo, seen = [module], set()
        while todo and len(seen) < 20:
            current = todo.pop(0)
            if current in seen:
                continue
            seen.add(current)
            other = self._by_module.get(current)
            if other is None:
                continue
            bound = [
                a
                for a in other.top_assigns(-1)
                if not a.annotated and a.target.kind == "Name" and a.target.name == name
            ]
            if bound:
                return other, bound[-1]  # the module's last word on it
            todo += [other.from_module(*star) for star in other.values.star_imports]
        return None

    # -- names
    def _name(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """A local name: the parameter it may be and the assignments to it that may reach
        the use (``lr = self.warmup_lr`` in one branch, ``lr = base * bs`` in the other;
        never one the function makes after the use, outside a loop); else the module-level
        assignments."""
        name = expr.name
        if _counted_in_loop(f, fn, name, expr.line):
            return _Val(name, False)
        found: list[_Val] = []
        if fn >= 0:
            d = f.defs[fn]
            bound = _bound_to(d.assigns, name)
            reaching, hidden = _reaching(bound, expr, d.loop_spans)
            if not hidden:
                found += [
                    self.parameter(f, fn, name, default, depth)
                    for param, default in d.params
                    if param == name
                ]
            found += self._assignments(f, fn, name, reaching, depth)
            if bound and not found:
                # a local the function assigns only after this use: no value reaches it
                return _Val(name, False)
            if not found and name in d.loop_names:
                zipped = self._zipped(f, fn, expr, depth)
                if zipped is not None:
                    return zipped
            if not found and not bound and name not in dict(d.params):
                closure = self._closure(f, fn, expr, depth)
                if closure is not None:
                    return closure
        if not found:
            assigns = f.top_assigns(-1)
            if fn < 0:  # a module-level use sees the module's assignments made before it,
                # those of a script's ``if __name__ == "__main__":`` block included
                bound = [a for a in _bound_to(f.values.assigns, name) if not a.annotated]
                assigns = _reaching(bound, expr, f.values.loop_spans)[0]
            found = self._assignments(f, -1, name, assigns, depth)
        if not found:
            return _Val(name, False)
        if len(found) == 1:
            return found[0]
        return _Val(" | ".join(v.show() for v in found), all(v.literal for v in found))

    def _closure(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val | None:
        """A name a nested function reads from the function it is defined in (a training
        step defined inside ``main`` reading ``use_bfloat16``, which ``main`` sets): the
        innermost enclosing function's parameter or assignments before the nested def;
        None when no enclosing function binds it."""
        d = f.defs[fn]
        for qual in _enclosing_quals(d.qual):
            outer = f.first.get(qual)
            if outer is None or f.defs[outer].is_class:
                continue
            o = f.defs[outer]
            if not o.line < d.line <= o.end_line:
                continue
            bound = [
                a
                for a in o.assigns
                if a.target.kind == "Name" and a.target.name == expr.name and a.line < d.line
            ]
            if bound:
                return self._name(f, outer, expr._replace(line=d.line), depth + 1)
            if expr.name in dict(o.params):
                return self._name(f, outer, expr._replace(line=d.line), depth + 1)
        return None

    def _zipped(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val | None:
        """A name a loop binds from ``zip`` (RAM's ``for dataset, sampler, bs, n_worker ...
        in zip(datasets, samplers, batch_size, num_workers, ...)``): the elements of the
        list zipped in its place, followed to where the list is written (a parameter to
        what its callers pass, ``batch_size=[config['batch_size']]``), one value when they
        agree; None when the loop is no such ``zip`` or a list is not written out."""
        name = expr.name
        for loop in f.values.loops:
            if loop.function != fn or name not in loop.names or loop.line > expr.line:
                continue
            it = loop.iter
            if not (it.kind == "Call" and it.func.text == "zip" and not it.keywords):
                continue
            if len(it.args) != len(loop.names) or any(a.kind == "Starred" for a in it.args):
                continue
            items = self._listed(f, fn, it.args[loop.names.index(name)], expr.line, depth + 1)
            merged = _merge(items) if items else None
            if merged is not None:
                return merged.then(f"{name}: an element of {it.args[loop.names.index(name)].text}")
        return None

    def _listed(
        self, f: _File, fn: int, expr: Expr, line: int, depth: int
    ) -> list[tuple[_Val, str]] | None:
        """(value, place) of each element of the list ``expr`` read at ``line`` of def
        ``fn``: a list or tuple written there, a local assigned one before, or a parameter
        each caller passes one for; None when any is something else."""
        if depth >= MAX_DEPTH:
            return None
        if expr.kind in ("List", "Tuple"):
            if not expr.parts or any(e.kind == "Starred" for e in expr.parts):
                return None
            return [(self.resolve(f, fn, e, depth + 1), f.loc(e.line)) for e in expr.parts]
        if expr.kind != "Name" or fn < 0:
            return None
        d = f.defs[fn]
        bound = [a for a in d.assigns if a.target.kind == "Name" and a.target.name == expr.name]
        if bound:
            before = [a for a in bound if a.line < line]
            if len(before) != 1 or len(bound) != 1:
                return None
            return self._listed(f, fn, before[0].value, before[0].line, depth + 1)
        if expr.name not in dict(d.params):
            return None
        out: list[tuple[_Val, str]] = []
        sites = self.call_sites(f, fn)
        if not 0 < len(sites) <= MAX_SITES:
            return None
        for caller, call in sites:
            passed = bind_call(d, call.expr).get(expr.name)
            if passed is None:
                return None
            items = self._listed(caller, call.function, passed, call.expr.line, depth + 1)
            if items is None:
                return None
            out += items
        return out

    def _assignments(
        self, f: _File, fn: int, name: str, assigns: Sequence[AssignValues], depth: int
    ) -> list[_Val]:
        bound = _bound_to(assigns, name)
        # deeplab's ``weight`` assigned under ``if args.use_balanced_weights:`` (off) and
        # ``None`` in its ``else``: the value is the one that runs (all, if none is told)
        bound = [a for a in bound if self.runs(f, fn, a.line)] or bound
        return [
            self._filled(f, fn, a)
            or self.resolve(f, fn, a.value, depth + 1).then(f"{name} set at {f.loc(a.line)}")
            for a in sorted(bound, key=lambda a: a.line)[:3]
        ]

    @staticmethod
    def _filled(f: _File, fn: int, a: AssignValues) -> _Val | None:
        """A list literal its scope then fills (``gpu_ids = []``, then ``gpu_ids.append(gid)``
        in a loop over the ``--gpu_ids`` option's parts): the literal is not the value, which
        is left as the name with where it is filled; None for any other assignment."""
        if a.value.kind != "List" or a.target.kind != "Name":
            return None
        name = a.target.name
        filled = [
            c.expr
            for c in f.values.calls
            if c.scope == fn
            and c.expr.line > a.line
            and c.expr.func.kind == "Attribute"
            and c.expr.func.name in _LIST_FILLS
            and c.expr.func.target.kind == "Name"
            and c.expr.func.target.name == name
        ]
        if not filled:
            return None
        first = min(filled, key=lambda e: (e.line, e.col))
        return _Val(name, False).then(
            f"{name} = {a.value.text} at {f.loc(a.line)}, filled by"
            f" {first.func.text}(...) at {f.loc(first.line)}"
        )

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
        training = [
            site for site in sites if _TRAINING_FILE.search(PurePosixPath(site[0].path).name)
        ]
        sites = training or [site for site in sites if not side_script(site[0].path)]
        # where the documented commands load configuration files (``train.py -f
        # exps/x.py``), their calls are the run's: the other configurations building the
        # same dataset with their own values, and the base the configurations override,
        # pass nothing the run gives
        loaded = {name.rpartition(".")[0] for name in self.repo.launched_classes}
        sites = [site for site in sites if loaded & set(site[0].modules)] or sites
        # a validation split built beside the training's (bubbliiiing's ``val_dataset =
        # YoloDataset(..., mosaic=False, mixup_prob=0)``) passes no setting of the recipe
        trained = [
            (caller, call)
            for caller, call in sites
            if not _validation_loader(
                caller.defs[call.function].qual if call.function >= 0 else "", call
            )
        ]
        sites = trained or sites
        # a method nothing calls handing on a parameter of its own (a public setter,
        # ``setDetector(name)``, beside the constructor's own call with its default) passes
        # nothing the run gives
        called = [
            (caller, call)
            for caller, call in sites
            if not self._uncalled_method(caller, call, bind_call(d, call.expr).get(name))
        ]
        sites = called or sites
        # a helper called once per layer with the numbers written out (faster-rcnn's
        # five ``normal_init(layer, 0, 0.01, ...)``): each literal is read at no cost
        written = len(sites) <= _LITERAL_SITES and all(
            (passed := bind_call(d, call.expr).get(name)) is not None and passed.literal
            for _, call in sites
        )
        if 0 < len(sites) <= MAX_SITES or (sites and written):
            found: list[tuple[_Val, str]] = []
            for caller, call in sites:
                passed = bind_call(d, call.expr).get(name)
                place = caller.loc(call.expr.line)
                if passed is not None:
                    step = f"parameter {name} of {d.qual}(), passed at {place}"
                    value = self.resolve(caller, call.function, passed, depth + 1)
                    found.append((value.then(step), place))
                elif default is not None and (
                    not call.expr.unpacks() or self.local_spread_lacks(caller, call, name)
                ):
                    value = self.resolve(f, fn, default, depth + 1)._replace(omitted=True)
                    found.append((value.then(defaulted), place))
                elif (unpacked := self._unpacked_setting(caller, call, name)) is not None:
                    step = f"parameter {name} of {d.qual}(), passed in ** at {place}"
                    found.append((unpacked.then(step), place))
                else:
                    break  # maybe passed in *args / **kwargs: not followed
            else:
                merged = _merge(found)
                if merged is not None:
                    return merged
        if not sites and (shown := self.documented(f, d, name)) is not None:
            # nothing of the repository calls it: the documentation's example is the run
            text, where = shown
            told = f"passed by the documentation's example at {where}"
            if default is not None:
                told += f"; {defaulted}: {default.text}"
            return _Val(text, True, (told,))
        if default is not None:
            return self.resolve(f, fn, default, depth + 1).then(defaulted)
        where = f"{len(sites)} call sites" if sites else "no call site found"
        return _Val(name, False, (f"parameter of {d.qual}() at {f.loc(d.line)}, {where}",))

    def documented(self, f: _File, d: DefValues, name: str) -> tuple[str, str] | None:
        """(literal, where) the documentation's examples pass as ``name`` to the class whose
        ``__init__`` ``d`` is (or the module-level function ``d``), when they build that very
        definition (imported from the package) and all pass the same literal."""
        qual = d.qual.removesuffix(".__init__")
        if "." in qual:
            return None
        return self.repo.documented.get((f.path, qual), {}).get(name)

    def _uncalled_method(self, f: _File, call: CallValues, passed: Expr | None) -> bool:
        """Whether ``call`` sits in a method (no dunder) that no call site of the
        repository calls, and ``passed`` (what it passes) is a parameter of that method:
        a value only its unknown callers would give."""
        fn = call.function
        if passed is None or passed.kind != "Name" or not 0 <= fn < len(f.defs):
            return False
        d = f.defs[fn]
        if d.owner < 0 or d.name.startswith("__") or passed.name not in dict(d.params):
            return False
        return not self.call_sites(f, fn)

    def unpacked_section_lacks(self, f: _File, call: CallValues, name: str) -> bool:
        """Whether ``call`` spreads only sections of the chosen config file that do not set
        ``name`` (``FlowGenerator(..., **hps.model)`` with no ``n_speakers`` under the JSON's
        ``model``): the parameter keeps its default. False when anything else is spread or
        a section is not known."""
        hp = self.repo.hparams
        if hp is None or hp.chosen is None or any(a.kind == "Starred" for a in call.expr.args):
            return False
        flat = hp.flat[hp.chosen]
        spread = [k.target for k in call.expr.keywords if not k.name]
        for target in spread:
            keys = self._loaded_keys(f, call.function, target, call.expr.line)
            prefixes = [".".join(keys)] if keys else []
            if not keys and target.kind == "Attribute" and target.target.kind != "Call":
                chain = [*target.target.full().split("."), target.name]
                if chain[0] != "self":
                    prefixes = [".".join(chain[start:]) for start in range(1, len(chain))]
            sections = [p for p in prefixes if any(k.startswith(f"{p}.") for k in flat)]
            if not sections or any(f"{p}.{name}" in flat for p in sections):
                return False
        return bool(spread)

    def local_spread_lacks(self, f: _File, call: CallValues, name: str) -> bool:
        """Whether ``call`` spreads only dicts of its own function whose keys are all known
        and none is ``name`` (``model_kwargs = {}``, then ``model_kwargs['final_drop'] =
        ...`` under an ``if``, then ``Net(**model_kwargs)``): the parameter keeps its
        default. False with ``*args``, anything else spread, a dict built otherwise or
        changed by a method (``update``), or a key that is not a constant string."""
        if call.function < 0 or any(a.kind == "Starred" for a in call.expr.args):
            return False
        spread = [k.target for k in call.expr.keywords if not k.name]
        if not spread:
            return False
        d = f.defs[call.function]
        for target in spread:
            if target.kind != "Name":
                return False
            keys: set[str] = set()
            bound = False
            for a in d.assigns:
                t, v = a.target, a.value
                if t.kind == "Name" and t.name == target.name:
                    if v.kind == "Dict" and len(v.keys) == len(v.parts) // 2 and all(v.keys):
                        keys.update(k for k in v.keys if k)
                    elif (
                        v.kind == "Call"
                        and v.func.kind == "Name"
                        and v.func.name == "dict"
                        and not v.args
                        and all(k.name for k in v.keywords)
                    ):
                        keys.update(k.name for k in v.keywords)
                    else:
                        return False
                    bound = True
                elif (
                    t.kind == "Subscript"
                    and t.target.kind == "Name"
                    and t.target.name == target.name
                ):
                    index = t.parts[1] if len(t.parts) > 1 else None
                    if (
                        index is None
                        or index.kind != "Constant"
                        or not isinstance(index.value, str)
                    ):
                        return False
                    keys.add(index.value)
            if not bound or name in keys:
                return False
            for c in f.values.calls:  # changed in place: its keys are not all known
                func = c.expr.func
                if (
                    c.function == call.function
                    and func.kind == "Attribute"
                    and func.target.kind == "Name"
                    and func.target.name == target.name
                    and func.name in ("update", "setdefault", "__setitem__", "fromkeys")
                ):
                    return False
        return True

    def _unpacked_setting(self, f: _File, call: CallValues, name: str) -> _Val | None:
        """What a config file gives the parameter ``name`` that a call passes in
        ``**section``, ``section`` a section of a loaded config file (waveglow's
        ``train_config = config["train_config"]`` of ``config = json.loads(data)``, then
        ``train(num_gpus, rank, **train_config)``): the chosen file's
        ``train_config.learning_rate``. None when no ``**`` argument is such a section or
        the file does not set the key (the parameter's default may then apply)."""
        for keyword in call.expr.keywords:
            if keyword.name or keyword.target.kind != "Name":
                continue
            # a settings object filled by attribute (stylegan3's ``c.num_gpus = opts.gpus``
            # in ``main``, ``c`` handed on to ``training_loop(rank=rank, **c)``)
            written = self._attribute_written(
                f, call.function, keyword.target.name, name, call.expr.line, 1
            )
            if written is not None:
                return written
        if self.repo.hparams is None or self.repo.hparams.chosen is None:
            return None
        for keyword in call.expr.keywords:
            if keyword.name:
                continue
            keys = self._loaded_keys(f, call.function, keyword.target, call.expr.line)
            if not keys:
                continue
            shown = f"{keyword.target.text}[{name!r}]"
            found = self.repo.hparams.step(".".join((*keys, name)), shown)
            if found is not None and found[0]:
                return _Val(found[0], True, (found[1],))
        return None

    def _attribute_written(
        self, f: _File, fn: int, name: str, key: str, line: int, depth: int
    ) -> _Val | None:
        """What the object the name ``name`` holds at ``line`` of def ``fn`` has as its
        attribute ``key``: the last ``name.key = value`` of that function before the line,
        else, ``name`` a parameter, what the object each caller passes has (a few calls
        up); None when nothing writes it."""
        if fn < 0 or depth >= MAX_DEPTH:
            return None
        d = f.defs[fn]
        writes = [
            a
            for a in d.assigns
            if a.line < line
            and a.target.kind == "Attribute"
            and a.target.name == key
            and a.target.target.kind == "Name"
            and a.target.target.name == name
            and self.runs(f, fn, a.line)
        ]
        if writes:
            last = max(writes, key=lambda a: a.line)
            value = self.resolve(f, fn, last.value, depth + 1)
            return value.then(f"{name}.{key} set at {f.loc(last.line)}")
        if name not in dict(d.params) or any(
            a.target.kind == "Name" and a.target.name == name for a in d.assigns
        ):
            return None
        sites = self.call_sites(f, fn)
        if not 0 < len(sites) <= MAX_SITES:
            return None
        found: list[tuple[_Val, str]] = []
        for caller, call in sites:
            passed = bind_call(d, call.expr).get(name)
            if passed is None or passed.kind != "Name":
                return None
            value = self._attribute_written(
                caller, call.function, passed.name, key, call.expr.line, depth + 1
            )
            if value is None:
                return None
            found.append((value, caller.loc(call.expr.line)))
        return _merge(found)

    def _loaded_keys(self, f: _File, fn: int, expr: Expr, before: int) -> tuple[str, ...]:
        """The keys ``expr`` reads from a config file the code loads (``config["train"]``
        with ``config = json.loads(data)``: ("train",)), names followed to their last
        assignment in the same function before line ``before`` (``opt = args["optim"]``
        then ``opt["lr"]``: ("optim", "lr")), and a parameter to what the function's callers
        pass (``main(args=params)`` with ``params = yaml.load(f)``: the dict the training
        function reads as ``args["optim"]["lr"]``); () when it is none, the whole file, or
        the callers disagree."""
        return self._loaded_path(f, fn, expr, before, 0) or ()

    def _loaded_path(
        self, f: _File, fn: int, expr: Expr, before: int, depth: int
    ) -> tuple[str, ...] | None:
        """:meth:`_loaded_keys`, with () for the whole loaded file and None for a value
        that is not read from one."""
        keys: list[str] = []
        for _ in range(MAX_DEPTH):
            if expr.kind == "Subscript":
                index = expr.parts[1]
                if index.kind != "Constant" or not isinstance(index.value, str):
                    return None
                keys.insert(0, index.value)
                expr = expr.parts[0]
            elif expr.kind == "Name":
                bound = [
                    a
                    for a, at in f.assigns
                    if at == fn
                    and a.line < before
                    and a.target.kind == "Name"
                    and a.target.name == expr.name
                ]
                if bound:
                    expr = bound[-1].value
                    continue
                if fn < 0 or depth >= MAX_DEPTH or expr.name not in dict(f.defs[fn].params):
                    return None
                passed: set[tuple[str, ...] | None] = set()
                for caller, call in self.call_sites(f, fn):
                    given = bind_call(f.defs[fn], call.expr).get(expr.name)
                    if given is not None:
                        passed.add(
                            self._loaded_path(
                                caller, call.function, given, call.expr.line, depth + 1
                            )
                        )
                if len(passed) != 1:
                    return None
                found = passed.pop()
                return None if found is None else (*found, *keys)
            elif expr.kind == "Call" and _LOADER_CALL.search(expr.callee()):
                if expr.callee().partition(".")[0] in _NOT_CONFIG_LOADERS:
                    return None
                return tuple(keys)
            else:
                return None
        return None

    def referrers(self, f: _File, index: int) -> set[str]:
        """The other files that name def ``index`` of ``f`` (imported by name, used as a
        value: a callback, a table of builders), from the scan's references."""
        names = {f"{m}.{f.defs[index].qual}" for m in f.modules}
        return {
            path
            for path, other in self.files.items()
            if path != f.path and names & set(other.fa.local_refs)
        }

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
        names = {name}
        sites = self.repo.call_sites.get(target, [])
        if target != f"{f.module}.{d.qual}":
            # a subclass's ``super().__init__(aug_params)`` calls the ``__init__`` itself
            sites = [*sites, *self.repo.call_sites.get(f"{f.module}.{d.qual}", ())]
            names.add("__init__")
        if not d.is_class and d.name != "__init__" and d.owner >= 0 and self._unique_method(name):
            # a method no other def of the repository is named like: its calls on a receiver
            # the scan could not type are calls of it too (nanoGPT's train.py builds its
            # model in three branches; only bench.py's call is typed)
            sites = [*sites, *self.repo.untyped_calls.get(name, ())]
        if d.name == "from_config" and d.owner >= 0 and not d.static:
            # a class that builds itself from a config (detectron2's ``@configurable``):
            # ``DatasetMapper(cfg, True)`` runs ``DatasetMapper.from_config(cfg, True)``
            owner = f"{f.module}.{f.defs[d.owner].qual}"
            sites = [*sites, *self.repo.call_sites.get(owner, ())]
            names.add(owner.rpartition(".")[2])
        out = []
        for path, fact in sites:
            caller = self.files.get(path)
            if caller is None or fact.role != "call":
                continue  # ImageFolder(..., transform=t) hands the instance on: no call of it
            on_line = caller.calls_on.get(fact.line, [])
            for call in on_line:
                if call.expr.callee() in names or len(on_line) == 1:
                    out.append((caller, call))
                    break
        if not d.is_class and d.name == "__call__" and d.owner >= 0:
            out += self.instance_calls(f, d.owner)
        if d.is_class or (d.name == "__init__" and d.owner >= 0):
            out += self.held_class_calls(f, index if d.is_class else d.owner)
        if not out and not d.is_class and d.owner < 0:
            out = self._enclosed_calls(f, index)
        # each call once: the call facts and the instance follower both find ``scaler(loss,
        # ..., clip_grad=...)``, and a call counted twice can push the sites past the few
        # the parameter's value is read from (its default shown instead)
        out = list({_place_key(c.path, call.expr): (c, call) for c, call in out}.values())
        # a helper the training and other tasks' scripts share (YOLOv5's ``smart_optimizer``
        # called by train.py, classify/train.py and segment/train.py): the run's calls
        # hand it the run's values; another task's or a tool's are that script's recipe
        own = [(c, call) for c, call in out if not self.apart(c.path)]
        if own and not self.apart(f.path):
            out = own
        return out or self.star_call_sites(f.module, name)

    def held_class_calls(self, f: _File, cls: int) -> list[tuple[_File, CallValues]]:
        """The calls that build class ``cls`` of ``f`` through a name holding it: a
        parameter the class is passed to (``ResNet(Bottleneck, layers)``, whose
        ``_make_layer(block, ...)`` calls ``block(inplanes, planes, ...)``), followed a few
        defs deep, and a local name it is assigned to (``Conv = DWConv if depthwise else
        BaseConv`` then ``Conv(...)``: either class may be built there). Each such call is a
        constructor call site: the arguments it passes are what the class's parameters
        hold."""
        key = (f.path, cls)
        if key in self._held_calls:
            return self._held_calls[key]
        self._held_calls[key] = []
        name = f.defs[cls].name
        todo: list[tuple[_File, int, str]] = []
        for file in self.files.values():
            if is_test_path(file.path):
                continue
            for n, d in enumerate(file.defs):
                for a in d.assigns:
                    if a.target.kind == "Name" and self._holds_class(file, a.value, f, cls, name):
                        todo.append((file, n, a.target.name))
            for call in file.values.calls:
                args = [*call.expr.args, *(k.target for k in call.expr.keywords if k.name)]
                if not any(self._holds_class(file, a, f, cls, name) for a in args):
                    continue
                for callee, index in self._bound_defs(file, call.expr):
                    for param, arg in bind_call(callee.defs[index], call.expr).items():
                        if self._holds_class(file, arg, f, cls, name):
                            todo.append((callee, index, param))
        out: list[tuple[_File, CallValues]] = []
        seen: set[tuple[str, int, str]] = set()
        for _ in range(MAX_DEPTH):
            more: list[tuple[_File, int, str]] = []
            for file, fn, held in todo:
                if (file.path, fn, held) in seen:
                    continue
                seen.add((file.path, fn, held))
                out += [
                    (file, c)
                    for c in file.values.calls
                    if c.function == fn and c.expr.func.kind == "Name" and c.expr.func.name == held
                ]
                more += self._handed_to(file, fn, held)
                for c in file.values.calls:  # handed to a repository class's constructor
                    if c.function != fn or not any(
                        a.kind == "Name" and a.name == held
                        for a in (*c.expr.args, *(k.target for k in c.expr.keywords if k.name))
                    ):
                        continue
                    for callee, index in self._bound_defs(file, c.expr, classes_only=True):
                        for param, arg in bind_call(callee.defs[index], c.expr).items():
                            if arg.kind == "Name" and arg.name == held:
                                more.append((callee, index, param))
            todo = more
            if not todo:
                break
        found = list({_place_key(c.path, call.expr): (c, call) for c, call in out}.values())
        self._held_calls[key] = found
        return found

    def _bound_defs(
        self, file: _File, call: Expr, classes_only: bool = False
    ) -> list[tuple[_File, int]]:
        """The repository def a call binds its arguments to: the function it runs, or the
        ``__init__`` of the repository class it builds (the class's own)."""
        out: list[tuple[_File, int]] = []
        if not classes_only:
            found = self.repo_function(file, call)
            if found is not None:
                out.append(found)
        built = self.repo_function(file, call, classes=True)
        if built is not None:
            owner, cls = built
            init = next(
                (
                    n
                    for n, d in enumerate(owner.defs)
                    if d.owner == cls and d.name == "__init__" and not d.is_class
                ),
                None,
            )
            if init is not None:
                out.append((owner, init))
        return out

    def _holds_class(self, file: _File, expr: Expr, owner: _File, cls: int, name: str) -> bool:
        """Whether ``expr`` of ``file`` names class ``cls`` of ``owner`` (or is a
        conditional expression one of whose values does): by the file's own def, its
        imports (relative ones resolved) or a module attribute."""
        if expr.kind == "IfExp" and len(expr.parts) == 3:
            return any(self._holds_class(file, p, owner, cls, name) for p in expr.parts[1:])
        if expr.kind not in ("Name", "Attribute") or expr.name != name:
            return False
        if expr.kind == "Name":
            if file is owner and file.first.get(name) == cls:
                return True
            dotted = file.imports.get(name)
            if dotted is None:
                dotted = next(
                    (
                        f"{file.from_module(level, source)}.{bound_name}"
                        for bound, level, source, bound_name in file.values.relative_imports
                        if bound == name
                    ),
                    None,
                )
        else:
            dotted = file.dotted(expr)
        if dotted is None:
            return False
        return self.repo.defs.get(dotted) == (owner, cls)

    @staticmethod
    def _enclosed_calls(f: _File, index: int) -> list[tuple[_File, CallValues]]:
        """The calls of a function defined inside another (faster-rcnn's ``normal_init``
        in ``_init_weights``, called there with each layer's mean and deviation): calls by
        its name in the body of the innermost function around it, its own body aside."""
        d = f.defs[index]
        around = [
            e for e in f.defs if not e.is_class and e.line < d.line and d.end_line <= e.end_line
        ]
        if not around:
            return []
        outer = max(around, key=lambda e: e.line)
        return [
            (f, c)
            for c in f.values.calls
            if c.expr.func.kind == "Name"
            and c.expr.func.name == d.name
            and outer.line <= c.expr.line <= outer.end_line
            and not d.line <= c.expr.line <= d.end_line
        ]

    def instance_calls(self, f: _File, cls: int) -> list[tuple[_File, CallValues]]:
        """Calls of instances of class ``cls`` (its ``__call__`` runs): the name an instance
        is stored as, called in the same function, or handed to a repository function whose
        parameter is then called (MAE's ``loss_scaler = NativeScaler()`` passed to
        ``train_one_epoch(..., loss_scaler, args.clip_grad, ...)``, which calls
        ``loss_scaler(loss, optimizer, clip_grad=max_norm, ...)``)."""
        out: list[tuple[_File, CallValues]] = []
        for caller, built in self.call_sites(f, cls):
            if built.function < 0 or not built.assigned:
                continue
            todo = [(caller, built.function, name) for name in built.assigned]
            for _ in range(3):  # the instance handed on a few calls deep
                more = []
                for file, fn, name in todo:
                    out += [(file, c) for c in file.values.calls if _calls_name(c, fn, name)]
                    more += self._handed_to(file, fn, name)
                todo = more
        return list({_place_key(c.path, call.expr): (c, call) for c, call in out}.values())

    def _handed_to(self, file: _File, fn: int, name: str) -> list[tuple[_File, int, str]]:
        """(file, def, parameter) of the repository functions def ``fn`` passes ``name`` to."""
        out = []
        for call in file.values.calls:
            if call.function != fn:
                continue
            passed = [a for a in call.expr.args if a.kind == "Name" and a.name == name]
            passed += [
                k for k in call.expr.keywords if k.target.kind == "Name" and k.target.name == name
            ]
            if not passed:
                continue
            found = self.repo_function(file, call.expr)
            if found is None:
                continue
            callee, index = found
            for param, arg in bind_call(callee.defs[index], call.expr).items():
                if arg.kind == "Name" and arg.name == name:
                    out.append((callee, index, param))
        return out

    def repo_function(
        self, file: _File, call: Expr, classes: bool = False
    ) -> tuple[_File, int] | None:
        """The repository function a call runs, from the call facts on its line (with
        ``classes``: the repository class it builds)."""
        name = call.callee().rpartition(".")[2] if classes else call.callee()
        if self._facts_on is None:
            self._facts_on = {}
            for key, sites in self.repo.call_sites.items():
                for path, fact in sites:
                    self._facts_on.setdefault((path, fact.line), []).append(key)
        for key in self._facts_on.get((file.path, call.line), ()):
            found = self.repo.defs.get(key)
            if key.rpartition(".")[2] != name or not found:
                continue
            if found[0].defs[found[1]].is_class is classes:
                return found
        local = file.first.get(name)
        if local is not None and file.defs[local].is_class is classes:
            return file, local
        return None

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
        modules = self._star_exporters(module, name)
        out = []
        for path in sorted(self.files):
            caller = self.files[path]
            if is_test_path(path):
                continue
            if any(caller.from_module(*star) in modules for star in caller.values.star_imports):
                out += [
                    (caller, call)
                    for call in caller.values.calls
                    if call.expr.func.kind == "Name" and call.expr.func.name == name
                ]
        return out

    def _star_exporters(self, module: str, name: str) -> set[str]:
        """``module`` and the modules that pass its ``name`` on to a star import: by a star
        import of their own or by importing ``name`` (RITM's model configs ``from
        isegm.utils.exp_imports.default import *``, which does ``from isegm.model.losses
        import *`` and ``from isegm.engine.trainer import ISTrainer``), a few levels deep."""
        known = self._exporters.get((module, name))
        if known is not None:
            return known
        found = {module}
        found.update(*(f.modules for f in self.files.values() if module in f.modules))
        for _ in range(3):
            more = {
                m
                for f in self.files.values()
                if any(f.from_module(*star) in found for star in f.values.star_imports)
                or f.imports.get(name, "").rpartition(".")[0] in found
                for m in f.modules
            }
            if more <= found:
                break
            found |= more
        self._exporters[(module, name)] = found
        return found

    # -- attributes
    def _argparse(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val | None:
        options = self.repo.argparse.get(expr.name)
        if not options:
            return None
        # The parser of this file, else the training script's, else every one there is but
        # those of another task's scripts (a zero-shot benchmark's ``--batch-size 16``)
        local = [o for o in options if o.file.path == f.path]
        # ... and only a parser on the reader's own run (its file, a script importing it,
        # a module either imports): a parser of another command line (the package's
        # inference CLI) that shares the option's name gives another run's value, so the
        # read is left unresolved rather than bound to it
        linked = self.repo.linked(f)
        own = [o for o in options if not self.apart(o.file.path)]
        training = [o for o in own if "train" in PurePosixPath(o.file.path).name]
        on_run = [o for o in own if o.file.path in linked]
        options = (
            local
            or [o for o in training if o.file.path in linked]
            or on_run
            # no parser on the run declares it: a training script's, never another
            # command line's (the package's inference CLI)
            or training
        )
        if not options:
            return None
        text = expr.text
        found = []
        for o in options:
            place = o.file.loc(o.call.expr.line)
            step = f"{o.label} at {place}"
            launched = self.repo.launched(o)
            first = launched.first() if launched is not None else None
            # ``parser.set_defaults(repeated_aug=True)`` beside a store_true/store_false pair
            # (deit's --repeated-aug / --no-repeated-aug) sets the value the run starts from,
            # unless the documented command passes the flag (MAE's ``--norm_pix_loss`` over
            # ``set_defaults(norm_pix_loss=False)``)
            preset = _set_default(o.file, expr.name)
            if preset is not None and first is None:
                preset_step = f"{text}: parser.set_defaults at {o.file.loc(preset[1])}"
                return _Val(preset[0], True, (preset_step,))
            if launched is not None and first is not None:
                # the launch script's command line gives it: the run's value, not the default
                default = self.describe(o.file, o.call.function, o.default) if o.default else ""
                runs = f"; {launched.by_run()}" if launched.by_run() else ""
                over = f"; {step}, default {default}" if default else f"; {step}"
                trail = f"{text}: {o.option} in {launched.where()}{runs}{over}"
                found.append((_Val(first[0], first[1], (trail,)), place))
                continue
            later = f"; {launched.by_run()}" if launched is not None and launched.by_run() else ""
            computed = None
            unset = unset_option(o.declared) if o.default is None else _UNKNOWN
            if expr.name in self.repo.needed:
                unset = _UNKNOWN  # the script stops without it: the command line gives it
            if _is_none(o.default) or unset is None:
                computed = (
                    self._computed_option(f, expr, depth)
                    or self.filled_by_defaults(o.file, expr.name, text, depth)
                    or (
                        self.filled_by_defaults(f, expr.name, text, depth)
                        if f is not o.file
                        else None
                    )
                )
            if computed is not None:
                found.append((computed.then(f"{step} defaults to None"), place))
            elif o.default is not None:
                value = self.resolve(o.file, o.call.function, o.default, depth + 1)
                filled = (
                    self._sentinel_filled(o, expr.name, value, depth) if value.literal else None
                )
                if filled is not None:
                    found.append((filled.then(f"{text}: default {value.text} of {step}"), place))
                elif value.literal:
                    found.append((value.then(f"{text}: default of {step}{later}"), place))
                else:
                    found.append((_Val(text, False, (f"{step}, default {value.show()}",)), place))
            elif o.action in ("store_true", "store_false"):
                flag = "False" if o.action == "store_true" else "True"
                found.append((_Val(flag, True, (f"{text}: {o.action} of {step}{later}",)), place))
            elif unset is None:
                # an optional flag declared without a default is None when left out
                found.append((_Val("None", True, (f"{text}: {step} has no default",)), place))
            else:
                found.append((_Val(text, False, (f"{step} has no literal default",)), place))
        return _merge(found)

    def _sentinel_filled(self, o: _ArgOption, dest: str, default: _Val, depth: int) -> _Val | None:
        """An option whose default is a marker its parser's file replaces after parsing
        (CenterNet-style ``--head_conv`` with ``default=-1``, then ``if opt.head_conv == -1:
        opt.head_conv = 256``): the value the run reads when the command line leaves it,
        with where it is set. The first such assignment in the option's file whose ``if``
        tests the option for equality with its default; None when there is none."""
        f = o.file
        for a, fn in f.assigns:
            target = a.target
            if not (
                target.kind == "Attribute" and target.name == dest and target.target.kind == "Name"
            ):
                continue
            branch = a.ifs[0] if a.ifs else None
            if branch is None or (0 < branch.body_end < a.line):
                continue  # not set under a test, or set in its else
            test = branch.test
            if test.kind != "Compare" or test.name != "Eq" or len(test.parts) != 2:
                continue
            read, marker = test.parts
            if (
                read.kind == "Attribute"
                and read.name == dest
                and read.target.kind == "Name"
                and marker.literal
                and marker.text == default.text
            ):
                value = self.resolve(f, fn, a.value, depth + 1)
                return value.then(f"set to {a.value.text} at {f.loc(a.line)} when left at it")
        return None

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

    def filled_by_defaults(self, f: _File, name: str, shown: str, depth: int) -> _Val | None:
        """An option left at None and filled in from a dict of defaults a repository function
        returns (open_clip's ``for name, val in get_default_params(args.model).items(): if
        getattr(args, name) is None: setattr(args, name, val)``): the value under the
        option's name in the dicts that function returns, each return's value when they
        differ (the function picks one by a test of its argument: the model's name)."""
        for loop in f.values.loops:
            source = loop.iter.func if loop.iter.kind == "Call" else None
            if (
                source is None
                or len(loop.names) != 2
                or source.kind != "Attribute"
                or source.name != "items"
                or not any(_sets_attribute(u.node, loop.names[0]) for u in loop.updates)
            ):
                continue
            made = source.target
            if made.kind == "Name" and loop.function >= 0:
                made = f.local_value(loop.function, made.name, loop.line) or made
            found = self._returned_entry(f, loop.function, made, name, depth)
            if found is not None:
                return found.then(f"{shown} filled in by {made.text} at {f.loc(loop.line)}")
        return None

    def _returned_entry(
        self, f: _File, fn: int, call: Expr, key: str, depth: int, attribute: bool = False
    ) -> _Val | None:
        """The value under ``key`` in the dict literals the repository function ``call``
        runs returns, merged over its returns; None when it returns none with that key.
        With ``attribute`` (``key`` is read as an attribute of the result) the keyword
        ``key`` of the object it returns built by keywords, returned as such or by the name
        it was assigned to (tacotron2's ``hparams = HParams(seed=1234, ...)``, then
        ``return hparams``)."""
        if call.kind != "Call":
            return None
        if call.func.kind == "Name":
            name = call.func.name
            index = f.first.get(name)
            target = (
                (f, index) if index is not None else self.repo.defs.get(f.imports.get(name, ""))
            )
        elif attribute:
            # ``Trainer.get_default_config()``: a static builder, by the call facts
            target = self.repo_function(f, call)
        else:
            return None
        if target is None or target[1] is None:
            return None
        file, n = target
        if attribute:
            returns = [
                file.local_value(n, r.name, r.line) if r.kind == "Name" else r
                for r in file.defs[n].returns
            ]
            items = [_built_items(r) for r in returns if r is not None]
            # minGPT-style ``C = CN()``, ``C.learning_rate = 3e-4``, ..., ``return C``: the
            # attributes set one by one on the object it returns, before the return
            items += [_set_items(file, n, r) for r in file.defs[n].returns if r.kind == "Name"]
        else:
            items = [_dict_items(r) for r in file.defs[n].returns]
        found = [
            (self.resolve(file, n, item, depth + 1), file.loc(item.line))
            for pairs in items
            for k, item in pairs
            if k == key
        ]
        if attribute and not found:
            # ``return edict(cfg)``: a dict-like object the function fills entry by entry
            # (pytorch-YOLOv4's ``cfg = kwargs`` from ``**Cfg``, then ``cfg.update(args)``)
            for r in file.defs[n].returns:
                wraps = (
                    r.kind == "Call"
                    and len(r.args) == 1
                    and bool(_DICT_WRAPPERS.search(r.callee().rpartition(".")[2]))
                )
                held = r.args[0] if wraps else r
                bound = file.local_value(n, held.name, r.line) if held.kind == "Name" else None
                if bound is not None and _parses(bound):
                    continue  # the parsed namespace itself: its options' reading answers
                if held.kind == "Name" and not r.keywords:
                    value = self._dict_entry(file, n, held.name, r.line, key, (f, call), depth)
                    if value is not None:
                        return value
            return None
        if attribute:
            found = [
                (v.then(f"{key} set at {at}" if set_ else f"keyword {key}= at {at}"), at)
                for (v, at), set_ in zip(
                    found,
                    [isinstance(p, _SetItems) for p in items for k, _ in p if k == key],
                    strict=True,
                )
            ]
        return _merge(found) if found else None

    def _dict_entry(
        self,
        f: _File,
        fn: int,
        name: str,
        before: int,
        key: str,
        caller: tuple[_File, Expr],
        depth: int,
    ) -> _Val | None:
        """The entry ``key`` of the dict-like object (a dict, an ``EasyDict``, a parsed
        namespace) the name ``name`` holds at line ``before`` of def ``fn``, the last writer
        winning: its assignment (``cfg = kwargs``: the ``**Cfg`` the ``caller`` passes;
        ``args = vars(parser.parse_args())``: the parser's option of that dest; a dict
        built with keywords), then each ``name.update(other)`` and ``name.key = value`` /
        ``name["key"] = value`` after it, in order. None when no writer has the key."""
        if depth >= MAX_DEPTH:
            return None
        base = [
            a
            for a in f.defs[fn].assigns
            if not a.annotated and a.line < before and a.target.kind == "Name"
            and a.target.name == name
        ]  # fmt: skip
        start = max(base, key=lambda a: a.line) if base else None
        after = start.line if start is not None else 0
        # (line, the expression whose entries it writes or the value it sets, whether a set)
        writers: list[tuple[int, Expr | None, bool]] = []
        if start is not None:
            writers.append((start.line, start.value, False))
        elif name == f.defs[fn].kwarg:
            writers.append((0, None, False))
        for call in f.values.calls:
            e = call.expr
            if (
                call.function == fn and after <= e.line < before and e.func.kind == "Attribute"
                and e.func.name == "update" and e.func.target.kind == "Name"
                and e.func.target.name == name and len(e.args) == 1
            ):  # fmt: skip
                writers.append((e.line, e.args[0], False))
        for a in f.defs[fn].assigns:
            t = a.target
            spelled = (f"{name}.{key}", f"{name}['{key}']", f'{name}["{key}"]')
            if after <= a.line < before and t.text in spelled:
                writers.append((a.line, a.value, True))
        for line, value, sets in sorted(writers, key=lambda w: w[0], reverse=True):
            if sets and value is not None:
                found = self.resolve(f, fn, value, depth + 1)
                return found.then(f"{key} set at {f.loc(line)}")
            entry = self._entries_of(f, fn, value, key, caller, depth + 1)
            if entry is not None:
                return entry
        return None

    def _entries_of(
        self,
        f: _File,
        fn: int,
        value: Expr | None,
        key: str,
        caller: tuple[_File, Expr],
        depth: int,
    ) -> _Val | None:
        """The entry ``key`` of what ``value`` (read in def ``fn``) holds, for
        :meth:`_dict_entry`: None for ``value`` is the ``**kwargs`` of ``fn`` (the
        ``**config`` the caller passes), a local name followed, ``vars(x)`` read as ``x``,
        a parsed command line's option of that dest, a dict built with keywords."""
        if depth >= MAX_DEPTH:
            return None
        if value is None or (value.kind == "Name" and value.name == f.defs[fn].kwarg):
            caller_file, call = caller
            for kw in call.keywords:
                if kw.name == key:
                    return self.resolve(caller_file, -1, kw.target, depth + 1)
            for kw in call.keywords:
                if not kw.name and kw.target.kind == "Name":
                    found = self._module_entry(caller_file, kw.target.name, key, depth + 1)
                    if found is not None:
                        return found
            return None
        if value.kind == "Call" and value.func.kind == "Name" and value.func.name == "vars":
            inner = value.args[0] if value.args else None
            return self._entries_of(f, fn, inner, key, caller, depth) if inner else None
        if value.kind == "Name":
            return self._dict_entry(f, fn, value.name, value.line, key, caller, depth)
        if (
            value.kind == "Call"
            and len(value.args) == 1
            and not value.keywords
            and _DICT_WRAPPERS.search(value.callee().rpartition(".")[2])
        ):
            # ``opt = AttrDict(opt)``: the wrapped dict's entries
            return self._entries_of(f, fn, value.args[0], key, caller, depth + 1)
        if value.kind == "Call" and _LOADER_CALL.search(value.callee()) and fn >= 0:
            return self._loaded_entry(f, fn, key, caller, depth)
        if _parses(value):
            options = [o for o in self.repo.argparse.get(key, ()) if o.file.path == f.path]
            found = []
            for o in options:
                at = o.file.loc(o.call.expr.line)
                step = f"{key}: {o.label} at {at}"
                launched = self.repo.launched(o)
                first = launched.first() if launched is not None else None
                if launched is not None and first is not None:
                    given = f"{step}, given in {launched.where()}"
                    found.append((_Val(first[0], first[1], (given,)), at))
                elif o.default is not None:
                    v = self.resolve(o.file, o.call.function, o.default, depth + 1)
                    found.append((v.then(f"{step}, its default"), at))
                elif o.action in ("store_true", "store_false"):
                    flag = "False" if o.action == "store_true" else "True"
                    found.append((_Val(flag, True, (f"{step}, {o.action}",)), at))
            return _merge(found)
        items = _built_items(value) or _dict_items(value)
        for k, item in items:
            if k == key:
                return self.resolve(f, fn, item, depth + 1).then(f"{key}= at {f.loc(item.line)}")
        return None

    def _loaded_entry(
        self, f: _File, fn: int, key: str, caller: tuple[_File, Expr], depth: int
    ) -> _Val | None:
        """``key`` of the file def ``fn`` loads (``yaml.safe_load(stream)`` under ``with
        open(file_path) as stream``, ``file_path`` its parameter) when the ``caller`` passes
        a literal path (a notebook's ``get_config("config_files/en.yaml")``): the file's
        value, with where it is set. None when the path or the key is not known."""
        caller_file, call = caller
        params = dict(f.defs[fn].params)
        bound = bind_call(f.defs[fn], call)
        for c in f.values.calls:
            e = c.expr
            if c.function != fn or e.callee() != "open" or not e.args:
                continue
            arg = e.args[0]
            if arg.kind == "Name" and arg.name in params and arg.name in bound:
                arg, at_file = bound[arg.name], caller_file
            else:
                at_file = f
            written = self.resolve(at_file, -1, arg, depth + 1)
            try:
                path = ast.literal_eval(written.text) if written.literal else None
            except (ValueError, SyntaxError):
                path = None
            root, readings = self.repo.root, self.repo.readings
            if not isinstance(path, str) or root is None or readings is None:
                continue
            settings = loaded_settings(root, at_file.path, path, readings.composed)
            if settings is None:
                continue  # not a mapping file (a CSV the function also opens)
            setting = settings.get(key)
            if setting is None:
                return None
            loaded = f"loaded at {caller_file.loc(call.line)}"
            return _Val(
                setting.text, True, (f"{key}: {setting.text} in {setting.loc()}, {loaded}",)
            )
        return None

    def _module_entry(
        self, f: _File, name: str, key: str, depth: int, before: int | None = None
    ) -> _Val | None:
        """The entry ``key`` of the module-level config object ``name`` read in ``f`` (its
        own, or imported: ``from cfg import Cfg``): the last ``Cfg.key = value`` (or
        ``Cfg["key"] = value``) of the module that defines it, or the keyword of the dict
        it is built as. With ``before`` (a read in that module itself, at that line) only
        what is set before the read counts."""
        target, obj = f, name
        imported = f.imports.get(name, "")
        if imported:
            module, _, obj = imported.rpartition(".")
            target = next((g for g in self.files.values() if module in g.modules), None)
            if target is None:
                return None
        sets = [
            a
            for a in target.values.assigns
            if not a.annotated
            and (before is None or a.line < before)
            # pytorch-YOLOv4's ``elif Cfg.mosaic: Cfg.mixup = 3``: a set in a branch the
            # module's own settings are known to take
            and (a.top or self.taken(target, -1, a.line))
            and (
                (a.target.kind == "Attribute" and a.target.name == key
                 and a.target.target.kind == "Name" and a.target.target.name == obj)
                or a.target.text in (f"{obj}['{key}']", f'{obj}["{key}"]')
            )
        ]  # fmt: skip
        if sets:
            last = max(sets, key=lambda a: a.order)
            return self.resolve(target, -1, last.value, depth + 1).then(
                f"{obj}.{key} set at {target.loc(last.line)}"
            )
        built = [
            a for a in target.values.assigns
            if a.top and a.target.kind == "Name" and a.target.name == obj
            and (before is None or a.line < before)
        ]  # fmt: skip
        if built:
            for k, item in _built_items(built[-1].value) or _dict_items(built[-1].value):
                if k == key:
                    return self.resolve(target, -1, item, depth + 1).then(
                        f"{obj} {key}= at {target.loc(item.line)}"
                    )
        return None

    def _self_attr(self, f: _File, fn: int, expr: Expr, depth: int) -> _Val:
        """``self.x``: set by the class (``__init__`` first) or one of its repo bases."""
        owner = f.defs[fn].owner if fn >= 0 else -1
        text = expr.text
        if owner < 0 or not f.module:
            return _Val(text, False)
        cls = f"{f.module}.{f.defs[owner].qual}"
        launched = self._launched_sets(cls, expr, depth)
        if launched is not None:
            return launched
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

    def _config(self, f: _File, expr: Expr, depth: int) -> _Val | None:
        """``exp.max_epoch`` / ``cfg.lr``: the literal some class sets in ``__init__``; base
        classes first, since they hold the defaults subclasses override. A module, a
        dataset or a sampler setting an attribute of the same name (a loss's ``self.eps``)
        is no config object: an options object is never one of them. The classes on the
        reader's run (:meth:`_Repo.linked`, or deriving from one there: a config file's
        ``Exp(BaseExp)`` the run loads by path) come before any other."""
        linked = self.repo.linked(f)
        configs = [
            a
            for a in self.repo.attrs_by_name.get(expr.name, ())
            if not self.hierarchy.torch_ancestors(a.cls)
        ]
        sets = sorted(
            [a for a in configs if self._on_run(a.cls, linked)] or configs,
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

    def _on_run(self, cls: str, linked: frozenset[str]) -> bool:
        """Whether the class ``cls`` or one of its repository bases is defined in one of
        the ``linked`` files."""
        for q in self._lineage(cls):
            found = self.repo.defs.get(q)
            if found is not None and found[0].path in linked:
                return True
        return False

    def _launched_sets(self, cls: str, expr: Expr, depth: int) -> _Val | None:
        """``self.x`` read in a base class of the configurations the documented commands
        load, where each of them sets ``x`` itself (or through a class between it and
        the base) in its ``__init__``: their values, the ones the run reads (ByteTrack's
        base experiment's ``get_lr_scheduler`` reading ``self.max_epoch``, 80 in each
        launched experiment, 300 in the base). None when a launched configuration leaves
        ``x`` to the base, or none extends ``cls``."""
        resolved = self.hierarchy.resolve(cls) or cls
        found: list[tuple[_Val, str]] = []
        for sub in sorted(self.repo.launched_classes):
            chain = self._lineage(sub)
            if resolved not in chain or chain[0] == resolved:
                continue
            below = chain[: chain.index(resolved)]
            sets: list[_AttrSet] = []
            for ancestor in below:
                sets = [
                    a
                    for a in self.repo.attrs.get(ancestor, ())
                    if a.attr == expr.name and a.method in ("__init__", "")
                ]
                if sets:
                    break
            if not sets:
                return None
            found += [
                (
                    self.resolve(a.file, a.function, a.value, depth + 1).then(
                        f"{expr.text} set in {a.owner} at {a.file.loc(a.line)}"
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
    # the first place of each value, with how many more places give it (five layers
    # initialised by one helper with 0.01 and one with 0.001 are two values, not five)
    places: dict[str, list[tuple[_Val, str]]] = {}
    for v, at in found:
        places.setdefault(v.text, []).append((v, at))
    distinct: list[_Val] = []
    for same in places.values():
        first_value = same[0][0]
        if len({v.show() for v, _ in same}) > 1:
            others = ", ".join(place for _, place in same[1:4])
            more = f" and {len(same) - 4} more" if len(same) > 4 else ""
            first_value = first_value._replace(
                trail=(*first_value.trail, f"same at {others}{more}")
            )
        distinct.append(first_value)
    shown = distinct[:3]
    more = f" | … {len(distinct) - 3} more" if len(distinct) > 3 else ""
    return _Val(" | ".join(v.show() for v in shown) + more, all(v.literal for v in shown))


#: The comparison operators a test picks one member of an enumeration by.
_EQUALITY_OPS = frozenset({"Eq", "NotEq", "In", "NotIn"})
#: The integers an enumeration's members take (0, 1, 2...): a tag, not a quantity.
_ENUM_LIMIT = 16

#: Literals that hold no setting: empty containers (records filled in later).
_EMPTY = frozenset({"[]", "()", "{}", "dict()", "list()"})
#: How many methods of a dataset :meth:`_Recipe._sample_methods` follows from ``__getitem__``.
_SAMPLE_METHODS = 12

#: The most distinct values a setting passed in a dict shows, one per caller.
_BY_CALLER_SHOWN = 6

#: imgaug's containers of augmenters: a class that builds one runs its steps.
_IMGAUG_SEQUENCES = frozenset({"Sequential", "SomeOf", "OneOf", "Sometimes"})


def _without_module(text: str) -> str:
    """``iaa.Fliplr(0.5)`` → ``Fliplr(0.5)``: the step as the reader names it."""
    return re.sub(r"^\w+\.(?=[A-Z])", "", text)


def _kept_attr(expr: Expr) -> bool:
    """``self.cfg``: an attribute of the instance itself, one level deep (where a class
    keeps what it was given)."""
    return expr.kind == "Attribute" and expr.target.kind == "Name" and expr.target.name == "self"


#: A call that loads a config file into a dict (``json.loads``, ``json.load``,
#: ``yaml.safe_load``, ``OmegaConf.load``).
_LOADER_CALL = re.compile(r"(^|\.)(safe_|full_)?loads?$")
#: Modules whose ``load`` reads weights or arrays, not a config.
_NOT_CONFIG_LOADERS = frozenset({"torch", "pickle", "np", "numpy", "joblib"})


def _numbers_in(expr: Expr) -> bool:
    """Whether the literal ``expr`` is a number other than 0, 1 and 2 (an axis, a coin
    flip's ``randrange(2)``), or a list or tuple of numbers: a setting, not an index."""
    value = _literal_value(expr)
    return is_numeric(value) and (isinstance(value, list | tuple) or value not in (0, 1, 2))


def _constant_term(file: _File, term: Expr) -> bool:
    """Whether a term of a loss computes a constant: it reads nothing but numbers and
    imported modules' functions (``math.log(2 * math.pi)``), no tensor or setting."""
    names = [e.name for e in term.walk() if e.kind == "Name"]
    return bool(names) and all(
        name in file.imports and not file.imports[name].startswith("torch") for name in names
    )


def _partial_bound(call: CallValues, name: str) -> CallValues | None:
    """The call a ``functools.partial(f, a, b, k=v)`` makes of ``f`` (named ``name``): ``f(a,
    b, k=v)``, the partial's arguments after the function (improved-diffusion's
    ``partial(self.diffusion.training_losses, self.ddp_model, micro, t, model_kwargs=...)``
    binds the model, the batch and the steps, not the method itself); None for any other
    call."""
    expr = call.expr
    if expr.callee() != "partial" or not expr.args:
        return None
    bound = expr.args[0]
    if bound.kind not in ("Name", "Attribute") or bound.name != name:
        return None
    return replace(call, expr=expr._replace(parts=expr.parts[1:]))


def _literal_number(text: str) -> float | None:
    """The number a followed literal's text writes (``0.25``, ``1e-1``), else None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value


def _left_off(option: _ArgOption) -> bool:
    """An option the command line switches on: declared without a default (None), with
    ``default=None`` or ``False``, or ``store_true``."""
    if option.default is None:
        return unset_option(option.declared) in (None, False)
    return option.default.kind == "Constant" and option.default.value in (None, False)


def _is_none(node: Expr | None) -> bool:
    return node is not None and node.kind == "Constant" and node.value is None


#: What a test of the layer an initialiser visits calls or reads (``isinstance(m,
#: nn.Conv2d)``, ``classname.find('Conv')``, ``m.__class__.__name__``, ``hasattr(m, 'bias')``).
_LAYER_TESTS = frozenset({"isinstance", "hasattr", "type", "find", "startswith", "endswith"})


def _layer_test(call: CallValues) -> bool:
    """Whether the ``if`` ``call`` sits in tests the kind of layer being initialised: the
    branches of such a chain all run, one per kind of layer the initialiser visits
    (``Module.apply``), none an alternative of the others."""
    if not call.ifs or call.ifs[0].function != call.function:
        return False
    for e in call.ifs[0].test.walk():
        if e.kind == "Call" and e.callee().rpartition(".")[2] in _LAYER_TESTS:
            return True
        if e.kind in ("Name", "Attribute") and e.name in ("classname", "__class__"):
            return True
    return False


def _word_default(node: Expr | None) -> bool:
    """A default that is a word, not a count (``'latest'``): the option names something."""
    if node is None or node.kind != "Constant" or not isinstance(node.value, str):
        return False
    try:
        float(node.value)
    except ValueError:
        return True
    return False


# ----------------------------------------------------------------------------- the recipe
#: A value's trail step naming the constructor parameter whose default it is.
_PARAMETER_DEFAULT = re.compile(r"default of parameter (\w+) of ([\w.]+)\.__init__\(\)")


def _documented_values(
    analyses: Sequence[FileAnalysis], root: Path | None
) -> dict[tuple[str, str], dict[str, tuple[str, str]]]:
    """(path, name) of each definition the documentation's examples import from the package
    and call -> keyword -> (the one literal they pass, where it is written); a keyword the
    examples pass with different literals is left out (none is *the* run's)."""
    from apiscan.review.commands import documented_imports, documented_keywords
    from apiscan.review.leftout import documented_definitions

    imported = documented_imports(root)
    if not imported:
        return {}
    passed = documented_keywords(root)
    out: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
    for path, name in documented_definitions(analyses, imported):
        for (called, keyword), values in passed.items():
            if called == name and len({text for text, _ in values}) == 1:
                out.setdefault((path, name), {})[keyword] = values[0]
    return out


def _is_zero(text: str) -> bool:
    """Whether a literal's text is the number 0 (``0``, ``0.``, ``0.0``)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0


class _Recipe:
    def __init__(
        self,
        result: ScanResult,
        analyses: Sequence[FileAnalysis],
        root: Path,
        hierarchy: Hierarchy,
        apart: Callable[[str], str],
        uncalled: Mapping[tuple[str, str], tuple[int, int]],
        booleans: BoolTypes | None = None,
    ) -> None:
        self.result = result
        #: path -> (first, last line) of the functions nothing runs (their rows are no recipe)
        self.uncalled: dict[str, list[tuple[int, int]]] = {}
        for (path, _), span in sorted(uncalled.items()):
            self.uncalled.setdefault(path, []).append(span)
        #: whose recipe a file's facts are: "tool", "task" or "" (the review's one answer)
        self.apart = apart
        self.analyses = [fa for fa in analyses if not is_test_path(fa.path)]
        self.root = root
        self.api = hierarchy.classes.api
        self.hierarchy = hierarchy
        #: every file's value record (test files included: they may call what is followed)
        self.files = _files(analyses)
        self.repo = _Repo(root=root)
        #: the string-to-bool ``type=`` functions: the review's argparse table's
        self.repo.booleans = booleans
        self.repo.documented = _documented_values(analyses, root)
        for path in sorted(self.files):
            if not is_test_path(path):
                self.repo.add_file(self.files[path])
        from apiscan.review.work import file_graph

        self.repo.graph = file_graph(analyses)
        #: the repository's own top-level packages (a loss class of another is third-party)
        self.local = {m.partition(".")[0] for fa in analyses if not fa.errors for m in fa.modules}
        #: module name -> its file (built on first use)
        self._by_module: dict[str, _File] | None = None
        #: the repository modules' namespaces, for ``module.__dict__`` (built on first use)
        self._namespaces: Namespaces | None = None
        #: the attributes and the names the repository reads, by name (built on first use)
        self._read_index: tuple[dict[str, list[_Read]], dict[str, list[_Read]]] | None = None
        self._unread_memo: tuple[frozenset[str], bool] | None = None
        self._ifs_by_file: dict[str, list[IfValues]] = {}
        #: the last names of the repository's ``Enum`` classes (built on first use)
        self._enums: set[str] | None = None
        #: the attributes read in the ``range`` of an epoch loop (:meth:`_loop_bounds`)
        self._loop_bound_memo: frozenset[str] | None = None
        #: (path, def, parameter) -> the value every running call passes it (or UNKNOWN)
        self._passing: dict[tuple[str, int, str], object] = {}
        #: whether a read by key is being told (:meth:`_entry`)
        self._entering = False
        #: (path, def index) of the dataset methods whose draws have a row already (a base's
        #: augmentation method every subclass reaches is one row)
        self._sampled: set[tuple[str, int]] = set()
        #: (path, name) -> where an imported name is assigned; path -> module-level names
        self._imported: dict[tuple[str, str], tuple[_File, str] | None] = {}
        self._assigned: dict[str, frozenset[str]] = {}
        #: the rows dropped as built where training does not go with the defaults
        self.untaken: list[RecipeItem] = []
        #: (path, def) of a module-level function -> whose recipe its rows are (_whose)
        self._whose_of: dict[tuple[str, int], str] = {}
        #: (path, line) of the loss assignments in a model's ``forward`` whose result the
        #: training step unpacks and differentiates (:meth:`_unpacked_loss`)
        self.stepped: set[tuple[str, int]] = set()
        #: (path, line) -> the call facts on it (built on first use)
        self._facts_by_line: dict[tuple[str, int], list[tuple[str, CallFact]]] | None = None
        self._index_call_sites(analyses)
        # the modules' own ``__main__`` demos: read by the untaken-branch rules from the start
        self._self_tests = self_tests(analyses)
        #: module classes a pick on a default value leaves out (set by :func:`extract_recipe`)
        self.not_picked: frozenset[str] = frozenset()
        #: the module classes a pick selects: never left out
        self.picked_models: frozenset[str] = frozenset()
        #: the model tree's top models (:meth:`_model_settings`)
        self.top_models: tuple[TopModel, ...] = ()
        #: module-level ``Alias = Name`` bindings (:meth:`_class_aliases`, read on first use)
        self._aliases: dict[str, str] | None = None
        #: the repository's defs by last name (:meth:`_defs_by_name`, read on first use)
        self._by_last_name: dict[str, list[str]] | None = None
        #: the files that train (read on first use: :meth:`_on_training_run`)
        self._training_paths: frozenset[str] | None = None
        #: argparse destination -> its defaults (set by :func:`extract_recipe`)
        self.option_defaults: dict[str, set[object]] = {}
        self.values = _Values(self.repo, self.hierarchy, self.files, apart)
        self._dict_options()
        self._needed_options()
        self._judging = False
        self.values.runs = self._assignment_runs
        self.values.taken = self._assignment_taken
        self.values.entry = self._entry
        self.out: list[RecipeItem] = []
        #: path -> (end line, end column, cell) of the calls the scan resolved
        self._call_ends: dict[str, set[tuple[int, int, int]]] | None = None
        #: (category, path, line, name) of a row built in one branch of an ``if``/``elif``
        #: chain -> (the chain's first ``if``, whether its test holds with the defaults:
        #: True, False or None when it cannot be told, the test's text)
        self.branches: dict[_RowKey, _Branch] = {}
        #: (path, line, column) of a test that holds for some of the config sections a
        #: name holds in turn (a stage's ``lr_schedule``) -> those sections
        self._section_picks: dict[tuple[str, int, int], list[str]] = {}
        #: places of the calls inside a composition of transforms (shown in its row)
        self.composed_calls: set[tuple[str, int, int, int, int]] = set()
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
                file = self.files.get(f.path)
                line = file.joined_line(f.span.line, f.cell) if file else f.span.line
                self.init_lines.setdefault(f.path, set()).add(line)
                last = f.api.rpartition(".")[2]
                self.init_names.setdefault(f.path, set()).add((line, last))
        #: (path, function qualname) of the functions that use a module's or a tensor's
        #: API (``m.modules()``, ``x.normal_()``): what an initialiser touches
        self.torch_functions = {
            (f.path, f.function)
            for f in result.api_findings
            if f.api.startswith(("torch.nn.", "torch.Tensor."))
        }
        #: (path, function qualname) of code that runs in data processing
        self.data_functions = {
            (f.path, f.function) for f in result.api_findings if f.scope == "data"
        }
        #: (path, function qualname) of code the scan places in the network graph
        self.network_functions = {
            (f.path, f.function) for f in result.api_findings if f.scope == "network"
        }

    def _index_call_sites(self, analyses: Sequence[FileAnalysis]) -> None:
        """The call facts by the def they reach (:func:`~apiscan.review.leftout.
        call_sites_by_def`), those of tests left out; the calls of untyped receivers by
        method name."""
        self.repo.call_sites.update(
            call_sites_by_def(analyses, self.hierarchy, self.repo.defs, self.analyses)
        )
        for fa in self.analyses:
            for fact in fa.calls:
                if fact.callee.startswith("?.") and fact.callee.count(".") == 1:
                    self.repo.untyped_calls.setdefault(fact.callee[2:], []).append((fa.path, fact))

    def _dict_options(self) -> None:
        """argparse options declared from a dict of defaults: a helper that loops over a
        dict's items and declares each (guided-diffusion's ``add_dict_to_argparser(parser,
        defaults)``: ``parser.add_argument(f"--{k}", default=v)``), called with a dict the
        caller builds (``dict(lr=1e-4, ema_rate="0.9999", ...)``, updated with
        ``model_and_diffusion_defaults()``). Each entry is an option whose default is the
        entry's value, placed where that value is written."""
        for path, file in sorted(self.files.items()):
            if is_test_path(path):
                continue
            done: set[int] = set()
            for call in file.values.calls:
                expr, fn = call.expr, call.function
                if fn < 0 or fn in done or not _declares_from_format(expr):
                    continue
                param = next(
                    (
                        loop.iter.func.target.name
                        for loop in file.values.loops
                        if loop.function == fn
                        and loop.iter.kind == "Call"
                        and loop.iter.func.kind == "Attribute"
                        and loop.iter.func.name == "items"
                        and loop.iter.func.target.kind == "Name"
                    ),
                    None,
                )
                node = file.defs[fn]
                if param is None or param not in {p for p, _ in node.params}:
                    continue
                done.add(fn)
                sites = self.values.call_sites(file, fn)
                # a training script's defaults, not a sampling script's
                training = [
                    (c, site)
                    for c, site in sites
                    if _TRAINING_FILE.search(PurePosixPath(c.path).name)
                ]
                for caller, site in training or sites:
                    passed = bind_call(node, site.expr).get(param)
                    if passed is None:
                        continue
                    entries: dict[str, tuple[Expr, _File, int]] = {}
                    self._dict_defaults(caller, site.function, passed, site.expr.line, entries, 0)
                    for key, (value, where, index) in entries.items():
                        option = _ArgOption(
                            f"--{key}",
                            value,
                            "",
                            where,
                            CallValues(value, index, 0),
                            script=caller,
                        )
                        self.repo.argparse.setdefault(key, []).append(option)

    def _dict_defaults(
        self,
        file: _File,
        fn: int,
        expr: Expr,
        before: int,
        out: dict[str, tuple[Expr, _File, int]],
        depth: int,
    ) -> None:
        """The literal entries of the dict ``expr`` stands for, in ``out`` (a later entry
        replaces an earlier one, as ``update`` does): ``dict(k=v)``, ``{"k": v}``, a local
        name with the ``name.update(...)`` calls made to it before ``before``, a repository
        function's returned dict."""
        if depth > MAX_DEPTH:
            return
        if expr.kind == "Dict":
            for key, value in zip(expr.keys, expr.items, strict=True):
                if key is not None:
                    out[key] = (value, file, fn)
            return
        if expr.kind == "Name" and fn >= 0:
            local = file.local_value(fn, expr.name, before)
            if local is None:
                return
            self._dict_defaults(file, fn, local, local.line, out, depth + 1)
            for line, _, update in file.own_statements(fn):
                if (
                    update is not None
                    and local.line < line < before
                    and update.func.target.name == expr.name
                    and len(update.args) == 1
                ):
                    self._dict_defaults(file, fn, update.args[0], line, out, depth + 1)
            return
        if expr.kind != "Call":
            return
        if expr.callee() == "dict":
            if len(expr.args) == 1:
                self._dict_defaults(file, fn, expr.args[0], before, out, depth + 1)
            for kw in expr.keywords:
                if kw.name:
                    out[kw.name] = (kw.target, file, fn)
            return
        found = self.values.repo_function(file, expr)
        if found is not None:
            target, index = found
            for value in target.defs[index].returns:
                self._dict_defaults(target, index, value, value.end_line + 1, out, depth + 1)

    def repo_key(self, dotted: str) -> str | None:
        """The repository def a dotted name is (``models.losses.FocalLoss`` imported
        through a ``sys.path`` entry: discovery names the file by it too), or None."""
        return self.repo.canonical.get(dotted)

    #: (path, line, def) -> the call of a function of a module loaded by an option
    #: (:meth:`_module_picked_calls`): called under a local name, not the def's
    _picked_calls: dict[tuple[str, int, str], CallValues]

    def _module_picked_calls(self) -> None:
        """The calls of a function of a module the code loads by an option
        (``MODEL = importlib.import_module(FLAGS.model)``, then ``criterion =
        MODEL.get_loss`` and ``criterion(end_points, config)``, or ``MODEL.get_loss(...)``):
        call sites of the def of that name in the module the option's default names (a
        repository module of that name, or ending in it), as the scan's call facts give
        those of an imported function, so the loss the step calls is a row."""
        for path, file in sorted(self.files.items()):
            if is_test_path(path):
                continue
            loaded: dict[tuple[int, str], str] = {}  # (scope, name) -> module
            for a, fn in file.assigns:
                value = a.value
                if (
                    a.target.kind != "Name"
                    or value.kind != "Call"
                    or len(value.parts) < 2
                    or file.dotted(value.parts[0]) != "importlib.import_module"
                ):
                    continue
                key = self.values.resolve(file, fn, value.parts[1], 0)
                name = key.text.strip("'\"") if key.literal else ""
                if name:
                    loaded[(fn, a.target.name)] = name
            if not loaded:
                continue

            aliases: dict[tuple[int, str], str] = {}
            for a, fn in file.assigns:
                if a.target.kind == "Name" and a.value.kind == "Attribute":
                    found = self._loaded_def(loaded, fn, a.value.chain())
                    if found is not None:
                        aliases[(fn, a.target.name)] = found
            for call in file.values.calls:
                func = call.expr.parts[0] if call.expr.parts else None
                if func is None:
                    continue
                chain = func.chain()
                found = self._loaded_def(loaded, call.function, chain)
                if found is None and chain is not None and len(chain) == 1:
                    found = aliases.get((call.function, chain[0])) or aliases.get((-1, chain[0]))
                if found is None or found not in self.repo.defs:
                    continue
                caller = file.defs[call.function].qual if call.function >= 0 else ""
                fact = CallFact(caller, found, call.expr.line)
                sites = self.repo.call_sites.setdefault(found, [])
                if (path, fact) not in sites:
                    sites.append((path, fact))
                self._picked_calls[(path, call.expr.line, found)] = call

    def _loaded_def(
        self, loaded: Mapping[tuple[int, str], str], fn: int, chain: list[str] | None
    ) -> str | None:
        """The repository def ``X.f`` names where ``X`` is a module loaded by an option
        (``loaded``: (scope, name) -> the module's name; :meth:`_module_picked_calls`)."""
        if chain is None or len(chain) != 2:
            return None
        module = loaded.get((fn, chain[0])) or loaded.get((-1, chain[0]))
        if module is None:
            return None
        dotted = f"{module}.{chain[1]}"
        found = self.repo_key(dotted)
        if found is None:
            ends = sorted(k for k in self.repo.canonical if k.endswith(f".{dotted}"))
            found = self.repo_key(ends[0]) if ends else None
        if found is None:
            # imported there (VoteNet's ``from loss_helper import get_loss``)
            owner = next(
                (
                    f
                    for _, f in sorted(self.files.items())
                    if any(m == module or m.endswith(f".{module}") for m in f.fa.modules)
                ),
                None,
            )
            target = owner.imports.get(chain[1]) if owner is not None else None
            found = self.repo_key(target) if target else None
        return found

    def items(self) -> tuple[RecipeItem, ...]:
        self._picked_calls = {}
        self._module_picked_calls()
        files = [file for path, file in sorted(self.files.items()) if not is_test_path(path)]
        for file in files:
            self._compositions(file)
            self._built_lists(file)
            self._sample_draws(file)
        self._picked_class_draws(files)
        for finding in self.result.api_findings:
            if not is_test_path(finding.path):
                self._finding(finding)
        self._gradient_syncs()
        for file in files:
            self._called_through_names(file)
            self._trainer_settings(file)
            self._wrapper_settings(file)
            self._foreign_calls(file)
            self._ema_loops(file)
            self._hand_schedules(file)
            self._param_group_lr(file)
            self._normalising_arithmetic(file)
            self._latent_scaling(file)
            self._norm_overrides(file)
            self._constructor_inits(file)
            self._step_weights(file)
            self._forward_loss(file)
            self._accumulated_loss(file)
            self._hand_loss_scale(file)
            self._step_criteria(file)
            self._buffer_averages(file)
            self._foreach_averages(file)
        self._named_defs()
        self._partial_losses()
        self._named_by_class_name()
        self._flips()
        self._cudnn()
        self._repo_instances()
        self._model_settings()
        self._settings()
        self._loop_lengths()
        self._unpacked_settings()
        self._optimizer_named_defaults()
        self._launchers()
        self._accumulation()
        self._registry_choices()
        self._pipelines()
        self._lazy_compositions()
        self._branch_rows()
        self._picked_branches()
        self._described_losses()
        self._untaken_rows()
        unused = self._unused_loss_defs()
        uncalled = self.uncalled
        unbuilt = self._unbuilt_families()
        dead_built = self._built_by_uncalled(uncalled)
        side = self.apart
        overridden = self._overridden_defaults(side)
        # a def shown where it is constructed (with the values passed) needs no row by its name
        constructed = {
            (i.category, hit.group(1))
            for i in (*self.out, *self.untaken)
            for hit in _DEFINED_AT.finditer(i.note)
        }
        self.out = [
            i
            for i in self.out
            if not (i.category == "loss" and self._inside(i.where, unused))
            and not self._inside(i.where, uncalled)
            and not self._module_code_unrun(i.where)
            and not self._inside(i.where, unbuilt)
            and not (i.category == "init" and self._inside(i.where, dead_built))
            and not self._inside(i.where, overridden)
            and not (
                i.note.startswith("repo ")
                and i.note.endswith(", by its name")
                and (i.category, str(i.where)) in constructed
            )
            and not (
                i.category == "augmentation"
                and not i.name.startswith("pipeline in ")
                and any(
                    p == i.where.path and a <= i.where.line <= b for p, a, b in self.threaded_spans
                )
            )
        ]
        self.out = [
            _side_amp(_input_step(i), whose, self._trains(i.where.path))
            for i in self.out
            if not _evaluation_code(i)
            and not (i.category == "augmentation" and self._test_time_only(i.where))
            and not _inference_script_row(i)
            and i.category not in _SEPARATE.get(whose := self._whose(i.where, side), ())
        ]
        # a seed a layer sets in its own code (a reversible block re-seeding each sub-block's
        # dropout for its recomputation, a constructor's generator for its initial weights)
        # reproduces that layer's draws: no seed of the run
        self.out = [i for i in self.out if not (i.category == "seed" and self._in_layer(i.where))]
        self.out = _generator_seeds(self._exclusive_twins(self.out), self._in_data_class)
        self.out = [self._unused_scaler(i) for i in self.out]
        self.out = _uncited_constants(self.out)
        self.out = self._without_evaluation_losses(self.out)
        self.out = _partials_once(self.out)
        unique = {(i.category, i.where.path, i.where.line, i.name, i.values): i for i in self.out}
        order = {c: n for n, c in enumerate(CATEGORIES)}
        return tuple(
            sorted(
                unique.values(),
                key=lambda i: (order[i.category], i.where.path, i.where.line, i.name),
            )
        )

    def _without_evaluation_losses(self, rows: list[RecipeItem]) -> list[RecipeItem]:
        """The loss rows less a call of the same loss in the same function whose result is
        never differentiated, where another call of it is (dgcnn's ``train()``: ``loss =
        criterion(logits, label)`` then ``loss.backward()`` in the training loop, and again
        in the test loop after ``model.eval()``, only logged): the evaluation's call of the
        loss the training row already shows."""
        stepped: dict[tuple[str, int, str], bool] = {}  # (path, def, name) -> differentiated
        kinds: dict[int, tuple[str, int, str, bool]] = {}
        for n, item in enumerate(rows):
            if item.category != "loss":
                continue
            file = self.files.get(item.where.path)
            calls = file.calls_on.get(item.where.line, []) if file is not None else []
            call = next((c for c in calls if c.stored is not None), None)
            if file is None or call is None or call.function < 0 or call.stored.kind != "Name":
                continue
            name = call.stored.name
            differentiated = any(
                target.kind == "Name" and target.name == name and c.expr.line > call.expr.line
                for c, fn, target in _differentiated(file)
                if fn == call.function
            )
            key = (item.where.path, call.function, item.name)
            stepped[key] = stepped.get(key, False) or differentiated
            kinds[n] = (*key, differentiated)
        return [
            item
            for n, item in enumerate(rows)
            if not (n in kinds and not kinds[n][3] and stepped.get(kinds[n][:3]))
        ]

    def _trainer_settings(self, file: _File) -> None:
        """The settings a training entry writes into a framework trainer's configuration
        before building it (latent-diffusion's ``trainer_config["accelerator"] = "ddp"``,
        ``lightning_config.trainer.accumulate_grad_batches = accumulate_grad_batches``): the
        distributed strategy and the gradient accumulation the framework then runs, in a file
        importing a torch training framework (:data:`TORCH_FRAMEWORKS`)."""
        if not any(m.partition(".")[0] in TORCH_FRAMEWORKS for m in file.imports.values()):
            return
        for a, fn in file.assigns:
            target = a.target
            if target.kind == "Attribute":
                key = target.name
            elif (
                target.kind == "Subscript"
                and target.parts[1].kind == "Constant"
                and isinstance(target.parts[1].value, str)
            ):
                key = target.parts[1].value
            else:
                continue
            category = _TRAINER_KEYS.get(key)
            if category is None:
                continue
            if category == "distributed" and not (
                a.value.kind == "Constant"
                and isinstance(a.value.value, str)
                and _STRATEGY.search(a.value.value)
            ):
                continue  # ``accelerator = "gpu"`` names the device, no distribution
            values = [("value", self._value(file, fn, key, a.value))]
            self.add(category, f"trainer {key}", file.where(a.line), values)

    def _wrapper_settings(self, file: _File) -> None:
        """The precision, distribution and accumulation a training wrapper's call is given:
        a Lightning ``Trainer``/``Fabric``/``LightningLite`` (or the repository's subclass of
        one: co-tracker's ``Lite(precision="bf16" if args.mixed_precision else 32,
        strategy=DDPStrategy(...))``), apex's ``amp.initialize(model, optimizer,
        opt_level="O1")``, accelerate's ``Accelerator(mixed_precision="fp16")``. No torch
        API carries them, so the scan's findings give no row; a conditional value is shown
        as the branch the run's options take. Not in code that generates, serves, chats,
        merges or converts weights (litgpt's ``generate/``, ``chat/``, ``merge_lora.py``
        build their own ``Fabric(precision=...)``): those runs train nothing."""
        if (
            _NOT_TRAINING_FILE.search(file.path)
            or _INFERENCE_SCRIPT.search(file.path)
            or side_script(file.path)
        ):
            return
        for call in file.values.calls:
            keys = [k for k in call.expr.keywords if k.name in _WRAPPER_KEYS]
            if not keys:
                continue
            owner = self._wrapper_owner(file, call.expr)
            if owner is None:
                continue
            for k in keys:
                category = _WRAPPER_KEYS[k.name]
                value = k.target
                if category == "distributed" and not (
                    value.kind == "Call"
                    or (isinstance(value.value, str) and _STRATEGY.search(value.value))
                ):
                    continue  # ``strategy="auto"``, ``None``: no distribution named
                shown = self._picked_value(file, call.function, value)
                note = "set through the training wrapper, not a torch API"
                self.add(category, f"{owner}({k.name}=)", file.where(call.expr.line),
                         [(k.name, shown)], note)  # fmt: skip

    def _wrapper_owner(self, file: _File, call: Expr) -> str | None:
        """The wrapper package's name a call builds or runs (``apex.amp.initialize``,
        ``pytorch_lightning.Trainer``; for a repository class, the wrapper class it
        derives from), or None when the call is none of theirs."""
        dotted = file.dotted(call.func) or ""
        if dotted.partition(".")[0] in _WRAPPER_PACKAGES:
            return dotted
        found = self.values.repo_function(file, call, classes=True)
        if found is None:
            return None
        cls_file, index = found
        lineage = self.values._lineage(f"{cls_file.module}.{cls_file.defs[index].qual}")
        return next((b for b in lineage if b.partition(".")[0] in _WRAPPER_PACKAGES), None)

    def _picked_value(self, file: _File, fn: int, value: Expr) -> str:
        """A value as a row shows it; ``a if test else b`` as the side the run's options
        take (``"bf16"`` with ``--mixed_precision`` given by the documented command), with
        the test, or both sides when the test cannot be told."""
        if value.kind != "IfExp":
            return self.values.describe(file, fn, value)
        test, body, orelse = value.parts
        verdict = self._holds(file, fn, test, 0)
        if isinstance(verdict, bool):
            side = body if verdict else orelse
            told = self.values.describe(file, fn, test)
            picked = self._picked_value(file, fn, side)  # a nested ``a if t else b`` too
            if told == test.text or test.kind == "Compare":  # a comparison: what it comes to
                return f"{picked} ({test.text}: {verdict})"
            return f"{picked} ({test.text} = {told})"
        return value.text

    def _constructor_inits(self, file: _File) -> None:
        """The weights a module's constructor sets itself, outside any init routine and
        torch.nn.init: a layer's ``weight``/``bias`` filled in place (waveglow's WN:
        ``end.weight.data.zero_()``, the coupling starting as the identity) or assigned a
        computed tensor (its Invertible1x1Conv: ``self.conv.weight.data = W``, ``W`` a
        random orthonormal matrix from ``torch.qr``). One row per class, each setting with
        its value; a port has to reproduce them."""
        for index, d in enumerate(file.defs):
            if d.name != "__init__" or d.owner < 0:
                continue
            owner = file.defs[d.owner]
            module = file.fa.modules[0] if file.fa.modules else ""
            if not self.hierarchy.is_module(f"{module}.{owner.qual}"):
                continue
            values: list[tuple[str, str]] = []
            lines: list[int] = []
            for call in file.values.calls:
                func = call.expr.func
                if (
                    call.function == index
                    and func.kind == "Attribute"
                    and func.name in INIT_CALLS
                    and _PARAMETER_TENSOR.search(func.target.text)
                ):
                    passed = [*call.expr.args, *(k.target for k in call.expr.keywords)]
                    shown = f"{func.name}({_args_text(call.expr)})"
                    told = [self.values.describe(file, index, a) for a in passed if not a.literal]
                    values.append(
                        (func.target.text, f"{shown} with {', '.join(told)}" if told else shown)
                    )
                    lines.append(call.expr.line)
            for a, fn in file.assigns:
                # ``.weight.data = W`` replaces a built layer's values; ``self.weight =
                # nn.Parameter(...)`` declares the layer's own parameter (its definition)
                if (
                    fn == index
                    and a.target.kind == "Attribute"
                    and a.target.text.endswith(".data")
                    and _PARAMETER_TENSOR.search(a.target.text)
                ):
                    values.append((a.target.text, self.values.describe(file, fn, a.value)))
                    lines.append(a.line)
                    # where the tensor assigned comes from (``W = torch.qr(...)[0]``, then
                    # reshaped): its first value in the constructor
                    for name in dict.fromkeys(n.name for n in a.value.walk() if n.kind == "Name"):
                        first = next(
                            (
                                b
                                for b, at in file.assigns
                                if at == index and b.target.kind == "Name"
                                and b.target.name == name and b.line < a.line
                            ),
                            None,
                        )  # fmt: skip
                        if first is not None:
                            shown = f"{first.value.text} at {file.loc(first.line)}"
                            values.append((f"{name} first set", shown))
            if values:
                note = "weights set in the constructor (not through torch.nn.init)"
                self.add("init", f"weights set in {owner.qual}.__init__",
                         file.where(min(lines)), values, note)  # fmt: skip

    def _unused_scaler(self, item: RecipeItem) -> RecipeItem:
        """A loss scaler built unconditionally (``scaler = GradScaler()``) whose every use
        (``scaler.scale(loss)``, ``scaler.step``) sits in a branch the defaults do not take
        (``if amp:`` with ``amp=False``, as the documented call passes): said on its row, no
        loss scaling runs."""
        if item.category != "amp" or not item.name.endswith("GradScaler"):
            return item
        file = self.files.get(item.where.path)
        if file is None:
            return item
        held = [
            (a.target.name, fn)
            for a, fn in file.assigns
            if a.line == item.where.line and a.target.kind == "Name" and fn >= 0
        ]
        if not held:
            return item
        name, fn = held[0]
        uses = [
            c.expr.line
            for c in file.values.calls
            if c.function == fn
            and c.expr.func.kind == "Attribute"
            and c.expr.func.target.kind == "Name"
            and c.expr.func.target.name == name
        ]
        if not uses or any(self._assignment_runs(file, fn, line) for line in uses):
            return item
        note = (
            f"built, but every use of {name} is in a branch the defaults do not take: "
            "no loss scaling runs"
        )
        return replace(item, note="; ".join(n for n in (item.note, note) if n))

    def _in_layer(self, where: Where) -> bool:
        """Whether ``where`` is in a method of a network module class (an ``nn.Module``
        subclass, not a training framework's module: a LightningModule's hooks run the
        training)."""
        file = self.files.get(where.path)
        if file is None or not file.module:
            return False
        for d in file.defs:
            if not (d.is_class and d.line <= where.line <= d.end_line):
                continue
            cls = f"{file.module}.{d.qual}"
            if self.hierarchy.is_module(cls) and not any(
                a.partition(".")[0] in TORCH_FRAMEWORKS
                for a in self.hierarchy.foreign_ancestors(cls)
            ):
                return True
        return False

    def _in_data_class(self, where: Where) -> bool:
        """Whether ``where`` is in a method of a sampler or a dataset (a class deriving from
        ``torch.utils.data``'s)."""
        file = self.files.get(where.path)
        if file is None or not file.module:
            return False
        return any(
            d.is_class
            and d.line <= where.line <= d.end_line
            and any(
                t.startswith("torch.utils.data.")
                for t in self.hierarchy.torch_ancestors(f"{file.module}.{d.qual}")
            )
            for d in file.defs
        )

    def _test_time_only(self, where: Where) -> bool:
        """Whether the function holding ``where`` runs only at test time: every chain of
        its callers, a few calls up, ends in a function at an inference or evaluation
        place (:data:`_INFERENCE_PLACE`: ``engine/inference.py``'s loop calling a
        test-time-augmentation helper that builds its own resize): its transforms are no
        training augmentation. A function nothing calls is not judged here."""
        file = self.files.get(where.path)
        if file is None:
            return False
        inner = [
            n
            for n, d in enumerate(file.defs)
            if not d.is_class and d.line <= where.line <= d.end_line
        ]
        if not inner:
            return False
        todo = [(file, max(inner, key=lambda n: file.defs[n].line))]
        start = (file.path, todo[0][1])
        seen: set[tuple[str, int]] = set()
        for _ in range(_TEST_TIME_DEPTH):
            callers: list[tuple[_File, int]] = []
            for f, n in todo:
                if _INFERENCE_PLACE.search(f"{f.path}:{f.defs[n].name}"):
                    continue  # this chain ends at test time
                sites = self.values.call_sites(f, n)
                if not sites:
                    return False  # a chain that starts outside the test path
                for caller, call in sites:
                    if call.function < 0:
                        return False  # called at a module's top: a script's own run
                    key = (caller.path, call.function)
                    if key == start:
                        # a chain back to where it started (a dataset's ``__getitem__``
                        # that a fallback for a corrupt sample calls again) ends nowhere:
                        # no sign of test time
                        return False
                    if key not in seen:
                        seen.add(key)
                        callers.append((caller, call.function))
            if not callers:
                return bool(seen)
            todo = callers
        return False

    def _on_training_run(self, f: _File) -> bool:
        """Whether a file's settings (its parser's options) are on a training run: some file
        that trains, or a training script by its name, is linked to it by imports
        (:meth:`_Repo.linked`), or no file of the repository trains (an inference-only
        repository's options are its recipe)."""
        if self._training_paths is None:
            self._training_paths = frozenset(
                p
                for p in self.files
                if not is_test_path(p) and (self._trains(p) or "train" in PurePosixPath(p).name)
            )
        if not self._training_paths:
            return True
        return not self._training_paths.isdisjoint(self.repo.linked(f))

    def _trains(self, path: str) -> bool:
        """Whether the file at ``path`` builds an optimizer, steps one or runs a backward
        pass itself (as the scan found its uses)."""
        file = self.files.get(path)
        return file is not None and any(TRAINING_STEP.match(u.api) for u in file.fa.uses)

    def _exclusive_twins(self, items: list[RecipeItem]) -> list[RecipeItem]:
        """One row for the same thing built alike in the body and the ``else`` of one ``if``
        (pytorch-retinanet's ``if torch.cuda.is_available(): net = DataParallel(net).cuda()
        else: net = DataParallel(net)``): one of the two runs, so the recipe has it once,
        the other place in its note."""
        first: dict[tuple[str, str, str, tuple[tuple[str, str], ...], int, int], int] = {}
        out: list[RecipeItem] = []
        for item in items:
            file = self.files.get(item.where.path)
            call = (
                next(
                    (c for c in file.values.calls if c.expr.line == item.where.line and c.ifs),
                    None,
                )
                if file is not None
                else None
            )
            if call is None or not call.ifs[0].body_end:
                out.append(item)
                continue
            near = call.ifs[0]
            key = (item.category, item.where.path, item.name, item.values, near.line, near.col)
            side = near.body_end < item.where.line
            twin = first.get(key)
            if twin is None:
                first[key] = len(out)
                out.append(item)
                continue
            kept = out[twin]
            if (near.body_end < kept.where.line) == side:
                out.append(item)  # both in one branch: both run
                continue
            also = f"or at {item.where} (the other branch of if {near.test.shown()})"
            out[twin] = replace(kept, note=f"{kept.note}; {also}" if kept.note else also)
        return out

    def _note_branch(
        self, category: str, name: str, where: Where, file: _File, call: CallValues
    ) -> None:
        """Record the ``if``/``elif`` branch ``call`` is built in (timm-style
        ``create_optimizer``: ``if opt_lower == 'sgd': ... elif opt_lower == 'adamw': ...``),
        and whether its test holds with the values the code starts from."""
        if not call.ifs or call.ifs[0].function != call.function:
            return
        inner = call.ifs[0]
        chain = inner
        within = ""
        #: whether every earlier branch of the chain is passed over (its test false)
        passed: bool | None = True
        # an ``elif`` is an ``if`` in its parent's ``else``, at the parent's column
        for outer in call.ifs[1:]:
            if outer.function != inner.function:
                break
            if outer.col != chain.col or not (
                outer.line < chain.line <= chain.end_line <= outer.end_line
            ):
                # an ``if`` around the chain (deep-text-recognition's ``if opt.baiduCTC:``
                # chain inside ``if 'CTC' in opt.Prediction:``): weighed when the run's
                # values tell it, the chain then in a branch the run takes or skips
                around = self._holds(file, call.function, outer.test, 0)
                if isinstance(around, bool):
                    if around == (0 < outer.body_end < chain.line):
                        passed = False  # the chain sits in the branch the run skips
                    break
                within = outer.test.shown()  # timm's bce_loss switch under mixup_active
                break
            chain = outer
            # ConvNeXt's ``if mixup_fn is not None: ... elif args.smoothing > 0.: ...``: the
            # elif is taken only if the test before it fails
            earlier = self._holds(file, call.function, outer.test, 0)
            if earlier is True:
                passed = False
            elif earlier is _UNKNOWN or not isinstance(earlier, bool):
                passed = None if passed is not False else False
        verdict = self._holds(file, call.function, inner.test, 0)
        self.branches[(category, where.path, where.line, name)] = _Branch(
            (where.path, chain.line, chain.col),
            (inner.line, inner.col),
            verdict if isinstance(verdict, bool) else None,
            inner.test.shown(),
            # ``criterion = torch.nn.CTCLoss(...).to(device)``: the statement's target
            call.stored.text if call.stored is not None else ",".join(call.assigned),
            call.expr.line,
            within,
            passed,
            0 < inner.body_end < call.expr.line,
            self._option_test(inner.test),
            any(
                _reads_element(file, call, near.test)
                for near in call.ifs
                if near.function == call.function
            ),
            tuple(self._section_picks.get((file.path, inner.test.line, inner.test.col), ())),
            _reads_loop_name(file, call, inner.test),
        )

    def _described_losses(self) -> None:
        """Loss rows a model builds as layers of the description it parses, one element at
        a time (pytorch-YOLOv4's ``Darknet.create_network``: ``for block in blocks: ...
        elif block['type'] == 'region': loss = RegionLoss()``, ``elif block['type'] ==
        'cost': nn.MSELoss()``), under a test the defaults cannot decide: built only when
        the parsed config holds such an element. Where the training computes a loss of its
        own (``criterion = Yolo_loss(...)``), they are no rows, nor are the rows inside the
        classes only they build (``RegionLoss.forward``'s ``nn.MSELoss``); where it does
        not, each row says it is built only then."""
        described = {
            key
            for key, branch in self.branches.items()
            if key[0] == "loss" and branch.element and branch.known is None
        }
        keys = [((i.category, i.where.path, i.where.line, i.name), i) for i in self.out]
        described &= {key for key, _ in keys}
        if not described:
            return
        places = {(path, line) for _, path, line, _ in described}
        built: dict[str, list[tuple[int, int]]] = {}
        #: (path, first line) of each such class -> where it is built
        at: dict[tuple[str, int], str] = {}
        for key, item in keys:
            hit = _DEFINED_AT.search(item.note) if key in described else None
            path, _, line = hit.group(1).rpartition(":") if hit else ("", "", "")
            file = self.files.get(path)
            if file is None:
                continue
            for n, d in enumerate(file.defs):
                sites = self.values.call_sites(file, n) if d.is_class else []
                if (
                    d.is_class
                    and str(d.line) == line
                    and sites
                    and all((c.path, site.expr.line) in places for c, site in sites)
                ):
                    built.setdefault(path, []).append((d.line, d.end_line))
                    at[(path, d.line)] = ", ".join(
                        sorted({f"{c.path}:{site.expr.line}" for c, site in sites})
                    )
        inside = {key for key, item in keys if self._inside(item.where, built)}
        own = [key for key, _ in keys if key[0] == "loss" and key not in described | inside]
        if own:
            self.out = [item for key, item in keys if key not in described | inside]
            return
        for n, (key, item) in enumerate(keys):
            if key in described:
                test = self.branches[key].test
                note = f"built only when the parsed description holds such an element (if {test})"
                hit = _DEFINED_AT.search(item.note)
                note = f"{hit.group(0)}; {note}" if hit else note
            elif key in inside:
                first = next(a for a, b in built[key[1]] if a <= key[2] <= b)
                note = (
                    "in a class built only when the parsed description holds such an element"
                    f" (at {at[(key[1], first)]})"
                )
                note = f"{item.note}; {note}" if item.note else note
            else:
                continue
            keys[n] = (key, replace(item, note=note))
        self.out = [item for _, item in keys]

    def _traced_to_option(self, file: _File, fn: int, test: Expr) -> bool:
        """Whether the test ``test`` reads an attribute the value follower traces to a
        command-line option's default (``model.n_classes`` of a model built with
        ``n_classes=args.classes``): it picks by that option as a test on ``args`` does."""
        return any(
            n.kind == "Attribute"
            and (v := self.values.resolve(file, fn, n, 0)).literal
            and any("argparse" in step for step in v.trail)
            for n in test.walk()
        )

    def _option_test(self, test: Expr) -> bool:
        """Whether the ``if`` test ``test`` picks by a command-line option (it reads a parsed
        option's attribute) rather than by the step (a modulo of a counter)."""
        nodes = test.walk()
        receivers = _ARG_RECEIVERS | self.repo.parsed_names
        return any(
            n.kind == "Attribute" and n.target.kind == "Name" and n.target.name in receivers
            for n in nodes
        ) and not any(n.kind == "BinOp" and n.name == "Mod" for n in nodes)

    def _branch_rows(self) -> None:
        """The loss, schedule and augmentation rows built in a branch (deep-text-recognition's
        ``if opt.baiduCTC: criterion = CTCLoss() else: criterion = torch.nn.CTCLoss(...)``;
        timm-style ``if args.prefetcher: collate_fn = FastCollateMixup(...) else: mixup_fn
        = Mixup(...)``), found by the call on the row's line that builds what the row names;
        the optimizers are recorded where they are read."""
        for item in self.out:
            key = (item.category, item.where.path, item.where.line, item.name)
            if item.category not in _BRANCH_ROWS or key in self.branches:
                continue
            file = self.files.get(item.where.path)
            if file is None or item.name.startswith(("argparse ", "click ", "config ")):
                continue
            last = item.name.rpartition(".")[2]
            for call in file.values.calls:
                if (
                    call.expr.line == item.where.line
                    and call.expr.callee().rpartition(".")[2] == last
                ):
                    if item.category == "init" and _layer_test(call):
                        break  # ``if isinstance(m, nn.Conv2d)`` under ``apply``: every kind runs
                    if item.category != "distributed" or self._wrapper_choice(call):
                        self._note_branch(item.category, item.name, item.where, file, call)
                    break

    def _wrapper_choice(self, call: CallValues) -> bool:
        """Whether a wrapper for several devices is built under an option the run is given
        (re-id scripts' ``if len(opt.gpu_ids) > 1: model = DataParallel(model, ...)``, with
        ``--gpu_ids`` defaulting to one GPU): weighed as a loss's branch is. One under a
        test of how the run is launched (``if args.distributed:``, an environment
        variable, inside ``if is_distributed_env():``) is not: the recipe holds for every
        launch."""
        own = [near for near in call.ifs if near.function == call.function]
        return (
            bool(own)
            and self._option_test(own[0].test)
            and not any(_LAUNCH_TEST.search(near.test.text) for near in own)
        )

    def _picked_branches(self) -> None:
        """Of the rows built in the branches of one ``if``/``elif`` chain, keep the one the
        defaults take (``--opt adamw``: AdamW, not the five other optimizers of the chain;
        deep-text-recognition's ``if opt.adam: Adam(...) else: Adadelta(...)`` with
        ``--adam`` off: Adadelta); when no test can be told, each row says it is one of the
        alternatives and under which test. A row in the ``else`` of its ``if`` is built when
        the test fails (T2T-ViT's ``Mixup`` beside ``FastCollateMixup`` under ``if
        args.prefetcher:``), and so is the later of two rows under the same ``if`` that
        store the same name (were both in the body, the later would replace the earlier). A
        lone row under a test that cannot be told says it is built only then."""
        chains: dict[tuple[str, int, int], list[tuple[_RowKey, _Branch]]] = {}
        for key, branch in self.branches.items():
            chains.setdefault(branch.chain, []).append((key, branch))
        drop: set[_RowKey] = set()
        notes: dict[_RowKey, str] = {}
        for members in chains.values():
            if len(members) < 2:
                # one row under an ``if`` the defaults cannot decide (T2T-ViT's ``if
                # args.prefetcher:`` were the flag not told): built only then, not a fact
                key, branch = members[0]
                if (
                    branch.known is None
                    and branch.option
                    and branch.passed is not False
                    and not _LAUNCH_TEST.search(branch.test)
                    and key[0] in _BRANCH_ROWS
                ):
                    test = f"else of if {branch.test}" if branch.in_else else f"if {branch.test}"
                    notes[key] = f"built only {test} (the value that decides it is not known here)"
                continue
            taken: dict[_RowKey, tuple[bool | None, str]] = {}
            for key, branch in members:
                same = [
                    b
                    for _, b in members
                    if b.inner == branch.inner and b.stored and b.stored == branch.stored
                ]
                inside = f" (inside if {branch.within}, not weighed here)" if branch.within else ""
                if branch.in_else or (len(same) > 1 and branch.line == max(b.line for b in same)):
                    known = None if branch.known is None else not branch.known
                    test = f"else of if {branch.test}{inside}"
                else:
                    known, test = branch.known, f"if {branch.test}{inside}"
                if branch.passed is False or known is False:
                    known = False
                elif branch.passed is None or known is None:
                    known = None
                taken[key] = (known, test)
            if any(known is True for known, _ in taken.values()):
                for key, (known, test) in taken.items():
                    if known is False:
                        drop.add(key)
                    elif known is True:
                        notes[key] = f"the branch taken with the defaults: {test}"
            elif len(sides := {(b.inner, taken[k][1]) for k, b in members}) > 1:
                # (stylegan2's generator and discriminator Adams, both in the body of one
                # ``if __name__ == "__main__":``, are rows of one branch: no alternatives;
                # timm's ``RandomApply([ColorJitter(...)])`` is one alternative, its
                # ``else: ColorJitter(...)`` the other)
                for key, (known, test) in taken.items():
                    picked = dict(members)[key].sections
                    if known is None and picked and not dict(members)[key].in_else:
                        notes[key] = f"built {test}: for the {', '.join(picked)} config section"
                        notes[key] += "s" if len(picked) > 1 else ""
                    elif known is None and dict(members)[key].per_element:
                        notes[key] = (
                            f"built {test}: for each element of the loop around it that "
                            "passes the test (every branch runs, one element at a time)"
                        )
                    elif known is None:
                        notes[key] = (
                            f"one of {len(sides)} alternatives shown, built {test} "
                            "(the value that picks it is not known here)"
                        )
        kept = []
        for item in self.out:
            key = (item.category, item.where.path, item.where.line, item.name)
            if key in drop:
                continue
            if key in notes:
                note = f"{item.note}; {notes[key]}" if item.note else notes[key]
                item = replace(item, note=note)
            kept.append(item)
        self.out = kept

    def _untaken(self, file: _File, line: int, ifs: Sequence[IfValues], fn: int) -> str:
        """Why the code at ``line`` (inside the ``if`` statements ``ifs``, innermost first)
        does not run in training with the defaults, "" when it may: it sits in the body of an
        ``if`` whose test is false with the defaults (deit's ``if args.bce_loss:``), in the
        ``elif``/``else`` of one whose test is true, or on the evaluation side of a switch
        named for training (``if not is_train:``; after an ``if is_train: ... return``)."""
        for near in ifs:
            if near.function != fn or not near.body_end:
                continue
            in_else = near.body_end < line <= near.end_line
            if _LAUNCH_TEST.search(near.test.text):
                continue  # how the run is launched (one GPU or many) is no recipe choice
            verdict = self._holds(file, fn, near.test, 0)
            if verdict is None or (
                isinstance(verdict, int | float | str) and not isinstance(verdict, bool)
            ):
                # ``elif args.smoothing:`` with 0.1: taken; ``if val_split:`` with None
                # (pytorch-segmentation's loaders, no config giving one): not
                verdict = bool(verdict)
            if isinstance(verdict, bool) and verdict == in_else:
                branch = "else" if in_else else "body"
                return f"in the {branch} of if {near.test.shown()}, not taken with the defaults"
            switch = train_switch(near.test)
            if switch is not None and switch == in_else:
                return f"evaluation side of if {near.test.shown()}"
        if fn < 0:
            return ""
        returns = [r.line for r in file.defs[fn].returns]
        for near in self._file_ifs(file):
            if near.function != fn or not near.body_end or near.end_line >= line:
                continue
            if (
                train_switch(near.test) is True
                and any(near.line < r <= near.body_end for r in returns)
                and near.body_end == near.end_line
            ):
                return f"after if {near.test.shown()}: ... return, the evaluation side"
        return ""

    def _file_ifs(self, file: _File) -> list[IfValues]:
        """Every ``if`` statement around a call or an assignment of ``file``, each once
        (``if args.network == "big": cfg = cfg_big`` holds no call)."""
        found = self._ifs_by_file.get(file.path)
        if found is None:
            seen: dict[tuple[int, int], IfValues] = {}
            for call in file.values.calls:
                for near in call.ifs:
                    seen.setdefault((near.line, near.col), near)
            for a, _ in file.assigns:
                for near in a.ifs:
                    seen.setdefault((near.line, near.col), near)
            found = self._ifs_by_file[file.path] = list(seen.values())
        return found

    def _overwritten(self, file: _File, call: CallValues) -> str:
        """Where the value ``call`` builds is replaced before anything reads it: every branch
        of the ``if``/``elif``/``else`` chain that follows it in the same block assigns the
        same name (deit's ``criterion = LabelSmoothingCrossEntropy()`` and then
        ``if mixup_active: criterion = ... elif ...: ... else: criterion = ...``); "" when
        it is not."""
        stored = call.stored
        if stored is None or stored.kind != "Name" or call.function < 0:
            return ""
        name, fn, line = stored.name, call.function, call.expr.line
        ifs = sorted(
            (i for i in self._file_ifs(file) if i.function == fn and i.body_end),
            key=lambda i: (i.line, i.col),
        )
        head = next((i for i in ifs if i.line > line and i.col == stored.col), None)
        if head is None:
            return ""
        around = {(i.line, i.col) for i in call.ifs}
        if any(
            (i.line, i.col) not in around and i.line <= line <= i.end_line and i.col < head.col
            for i in ifs
        ) or any(
            r.file is file and r.fn == fn and line < r.node.line < head.line
            for r in self._reads()[1].get(name, ())
        ):
            return ""  # read before the chain, or the chain is in another block
        segments: list[tuple[IfValues, int, int]] = []
        current = head
        while True:
            segments.append((current, current.line, current.body_end))
            if current.body_end >= current.end_line:
                return ""  # no else: the first value may stay
            nxt = next(
                (
                    i
                    for i in ifs
                    if i.col == head.col
                    and current.body_end < i.line
                    and i.end_line == current.end_line
                ),
                None,
            )
            if nxt is None:
                segments.append((current, current.body_end + 1, current.end_line))
                break
            current = nxt
        for owner, first, last in segments:
            if not any(
                c.function == fn
                and c.stored is not None
                and c.stored.kind == "Name"
                and c.stored.name == name
                and c.ifs
                and (c.ifs[0].line, c.ifs[0].col) == (owner.line, owner.col)
                and first <= c.expr.line <= last
                # a branch wrapping the value (``model = DistributedDataParallel(model)``
                # after ``model = SyncBatchNorm.convert_sync_batchnorm(model)``) uses it
                and not any(e.kind == "Name" and e.name == name for e in c.expr.walk())
                for c in file.values.calls
            ):
                return ""
        return f"{name} is replaced in every branch of the if at {file.loc(head.line)}"

    def _call_untaken(self, file: _File, call: CallValues) -> str:
        return self._untaken(file, call.expr.line, call.ifs, call.function) or self._side_untaken(
            file, call
        )

    def _side_untaken(self, file: _File, call: CallValues) -> str:
        """Why ``call`` is on the side of a conditional expression the defaults do not take
        ("" when it may run): ``MSELoss() if opt.mse_loss else FocalLoss()`` with
        ``--mse_loss`` off builds the focal loss only; in a chain (``A() if opt.k == 'a'
        else B() if opt.k == 'b' else None``) every test on the way is weighed. The
        expressions searched are the assignments' values and the calls' arguments of the
        call's own function. Only a test on a command-line option is weighed (not one on
        the device or the launch); a test that cannot be told decides nothing."""
        at = call.expr
        place = (at.line, at.col, at.end_line, at.end_col)

        def around(e: Expr) -> bool:
            return (e.line, e.col) <= place[:2] and place[2:] <= (e.end_line, e.end_col)

        holders = [a.value for a, fn in file.assigns if fn == call.function and around(a.value)]
        holders += [
            c.expr for c in file.values.calls if c.function == call.function and around(c.expr)
        ]
        seen: set[tuple[int, int]] = set()
        for holder in holders:
            for e in holder.walk():
                if e.kind != "IfExp" or (e.line, e.col) in seen or not around(e):
                    continue
                seen.add((e.line, e.col))
                test, body, orelse = e.parts
                if not (
                    self._option_test(test) or self._traced_to_option(file, call.function, test)
                ) or _LAUNCH_TEST.search(test.text):
                    continue  # how the run is launched, or no option: not weighed here
                verdict = self._holds(file, call.function, test, 0)
                if not isinstance(verdict, bool):
                    continue
                side = "body" if around(body) and not verdict else ""
                side = side or ("else" if around(orelse) and verdict else "")
                if side:
                    shown = f"... if {test.shown()} else ..."
                    return f"in the {side} of {shown}, not taken with the defaults"
        return ""

    def _row_untaken(self, item: RecipeItem, depth: int = 0) -> str:
        """Why the row ``item`` is not what training runs with the defaults ("" when it
        may be): the call that builds it is in an untaken branch, or the function it is
        built in is called only from untaken branches (deit's ``new_data_aug_generator``,
        called under ``if args.ThreeAugment:``, off by default)."""
        file = self.files.get(item.where.path)
        if file is None or item.name.startswith(("argparse ", "click ", "config ")):
            return ""
        calls = [c for c in file.values.calls if c.expr.line == item.where.line]
        # the call that builds what the row names, where the line holds several (the two
        # sides of ``MSELoss() if opt.mse_loss else FocalLoss()``)
        last = item.name.rpartition(".")[2]
        calls = [c for c in calls if c.expr.callee() == last] or calls
        if calls:
            call = calls[0]
            why = self._call_untaken(file, call) or self._overwritten(file, call)
            if why or depth > 1 or call.function < 0:
                return why
            d = file.defs[call.function]
        else:
            # a row at a def (stylegan2's ``augment`` and ``AdaptiveAugment``, by their
            # names): untaken when every place that calls it is
            d = next((d for d in file.defs if d.line == item.where.line), None)
            if d is None:
                # a setting written by assignment (``cudnn.deterministic = True`` under
                # ``if args.seed is not None:``): the ``if`` statements around its line
                line = file.joined_line(item.where.line, item.where.cell)
                return self._line_untaken(file, line, depth)
            if depth > 0:
                return ""
        return self._def_untaken(file, d, depth)

    def _line_untaken(self, file: _File, line: int, depth: int = 0) -> str:
        """Why the statement at ``line`` (no call on it) does not run with the defaults, by
        the ``if`` statements of its function around it (innermost first), else by the
        places that call that function (PyTorch-YOLOv3's ``provide_determinism``, called
        under ``if args.seed != -1:``)."""
        fns = [n for n, d in enumerate(file.defs) if not d.is_class and d.line < line <= d.end_line]
        fn = max(fns, key=lambda n: file.defs[n].line, default=-1)
        ifs = sorted(
            (i for i in self._file_ifs(file) if i.function == fn and i.line < line <= i.end_line),
            key=lambda i: -i.line,
        )
        why = self._untaken(file, line, ifs, fn) if ifs else ""
        if why or fn < 0 or depth > 1:
            return why
        return self._def_untaken(file, file.defs[fn], depth)

    def _def_untaken(self, file: _File, d: DefValues, depth: int = 0) -> str:
        """Why the def ``d`` of ``file`` does not run with the defaults ("" when it may):
        every place calling it (a method by its name, else its class's constructor) is
        untaken (:meth:`_sites_untaken`)."""
        if d.owner >= 0:
            # a method the repository calls by name runs only where it is called: stargan's
            # ``Solver.train_multi``, called under ``elif config.dataset in ['Both']:`` with
            # ``--dataset CelebA`` by default (its rows are not the run's, though ``Solver``
            # is built)
            if not d.name.startswith("__") and file.defs[d.owner].owner < 0:
                why = self._sites_untaken(file, d, f"{file.module}.{d.qual}", (), depth)
                if why:
                    return why
            # a method's rows run when its class is built: deit's ``gray_scale.__init__``
            # (``transforms.Grayscale(3)``), built only by the ThreeAugment generator; timm's
            # ``JsdCrossEntropy.forward``, built only under ``if args.jsd_loss:``
            d = file.defs[d.owner]
            if d.owner >= 0:
                return ""  # a nested class: its builder is not followed
        key = f"{file.module}.{d.qual}"
        return self._sites_untaken(file, d, key, (f"{key}.__init__",), depth)

    def _sites_untaken(
        self, file: _File, d: DefValues, key: str, also: tuple[str, ...], depth: int
    ) -> str:
        """Why every place the repository calls the def ``d`` of ``file`` (by the resolved
        name ``key`` or one of ``also``) does not run with the defaults; "" when one may, or
        when nothing is found calling it."""
        sites = [
            (path, fact)
            for k, found in self.repo.call_sites.items()
            if k == key or k in also
            for path, fact in found
            if not is_test_path(path)
            # a module trying its own class out under ``__main__`` (reid's
            # ``instance_loss.py`` building ``InstanceLoss(gamma=32)``) is no training run
            and not self._in_self_test(path, fact.line)
        ]
        # nor is an evaluation's build beside the training's (co-tracker's
        # ``get_eval_dataloader`` building the DynamicReplica set the training builds only
        # under ``if "dr" in args.train_datasets:``); with no other site, they decide
        training = [
            (path, fact) for path, fact in sites if not self._evaluation_site(path, fact.line)
        ]
        sites = training or sites
        reasons = []
        for path, fact in sites:
            site_file = self.files.get(path)
            if site_file is None:
                return ""
            site_calls = [
                c
                for c in site_file.values.calls
                if c.expr.line == fact.line and c.expr.callee().rpartition(".")[2] == d.name
            ]
            if not site_calls:
                return ""
            reason = self._call_untaken(site_file, site_calls[0])
            if not reason and depth < 1:
                site = site_calls[0]
                reason = self._row_untaken(
                    RecipeItem("", site.expr.callee(), site_file.where(fact.line)), depth + 1
                )
            if not reason:
                return ""
            reasons.append(f"{d.name} is called only {reason} ({site_file.loc(fact.line)})")
        return reasons[0] if reasons else ""

    def _evaluation_site(self, path: str, line: int) -> bool:
        """Whether the call on ``line`` of ``path`` is made by a function named for
        evaluation (``get_eval_dataloader``, ``validate``) or in another task's script."""
        file = self.files.get(path)
        if file is None or self.values.apart(path):
            return file is not None
        calls = file.calls_on.get(line, [])
        fn = calls[0].function if calls else -1
        quals = file.defs[fn].qual.split(".") if fn >= 0 else []
        return any(_EVALUATION_WORD.search(q) for q in quals)

    def _untaken_rows(self) -> None:
        """Drop the rows built where training does not go with the defaults (a single
        ``if`` whose test is false, an ``else`` whose ``if`` holds, the evaluation side of
        ``is_train``), the rows an evaluation function builds (deit's ``evaluate`` with its
        own ``CrossEntropyLoss``), and the argparse options read only there
        (deep-text-recognition's ``--beta1``, read by the Adam branch ``--adam`` leaves off)."""
        kept = []
        for item in self.out:
            if (item.where.path, item.where.line) in self.stepped and item.category == "loss":
                pass  # the step passes the targets ``forward``'s other callers leave off
            elif (
                (item.category in _BRANCH_DECIDED and self._row_untaken(item))
                or (item.category in ("loss", "augmentation") and self._in_evaluation(item))
                or (item.category == "loss" and self._zero_weighted(item))
                or (item.category == "init" and self._init_untaken(item))
            ):
                self.untaken.append(item)
                continue
            kept.append(item)
        self.out = kept
        dead_options: set[str] = set()
        for dest, options in self.repo.argparse.items():
            reads = self._reads()[0].get(dest, [])
            if reads and all(self._read_untaken(read) for read in reads):
                dead_options.update(o.label for o in options)
        self.out = [i for i in self.out if i.name not in dead_options]
        self._off_switches()

    def _init_untaken(self, item: RecipeItem) -> str:
        """Why an initialisation row's own call does not run with the defaults: under an
        ``if`` of its own function the defaults do not take (a focal classifier's prior
        under ``if opt.id_loss == 'focal':``, a head bias under ``if args.head_init_bias is
        not None:``). Only the call's own tests are weighed: a block's initialiser runs
        wherever a registry or a config builds the block, which its direct construction
        sites do not tell."""
        file = self.files.get(item.where.path)
        if file is None:
            return ""
        last = item.name.rpartition(".")[2]
        on_line = [c for c in file.values.calls if c.expr.line == item.where.line]
        calls = [c for c in on_line if c.expr.callee() == last]
        if not calls and item.name.startswith("weights set in "):
            calls = on_line  # ``self.conv_k.weight.data.copy_(...)``: the line's own call
        return self._call_untaken(file, calls[0]) if calls else ""

    def _zero_weighted(self, item: RecipeItem) -> bool:
        """Whether the loss the row's call computes is only ever added in times a weight
        that is 0 with the defaults (a VAE's ``kl = F.kl_div(...)`` then ``loss = recon +
        kl * kl_weight`` with ``kl_weight=0.``): it trains nothing. The call's value is
        stored in a name; every read of that name in its function is one side of a product
        whose other side holds 0 (through the function's own tuple unpacking too)."""
        file = self.files.get(item.where.path)
        if file is None:
            return False
        last = item.name.rpartition(".")[2]
        calls = [
            c
            for c in file.values.calls
            if c.expr.line == item.where.line and c.expr.callee() == last and c.function >= 0
        ]
        if len(calls) != 1 or calls[0].stored is None or calls[0].stored.kind != "Name":
            return False
        call, name = calls[0], calls[0].stored.name
        d = file.defs[call.function]
        reads = [*(a.value for a in d.assigns), *d.returns]
        reads += [c.expr for c in file.values.calls if c.function == call.function]
        weights: list[Expr] = []
        found = False
        for x in reads:
            for e in x.walk():
                named = [p for p in e.parts if p.kind == "Name" and p.name == name]
                if not named:
                    continue
                found = True
                if e.kind != "BinOp" or e.name != "Mult" or len(e.parts) != 2:
                    return False  # read some other way: it may count
                weights.append(e.parts[1] if e.parts[0] is named[0] else e.parts[0])
        return found and all(self._zero(file, call.function, w) for w in weights)

    def _zero(self, file: _File, fn: int, expr: Expr) -> bool:
        """Whether ``expr`` holds 0 with the defaults; a name the function unpacks from a
        tuple (``a, w = x, self.w``) is followed to its element. A constructor parameter's
        default (``kl_div_loss_weight=0.``) counts only when every construction that passes
        that parameter by name passes 0 too."""
        if expr.kind == "Name":
            for a in file.defs[fn].assigns:
                t, v = a.target, a.value
                if t.kind == "Tuple" and v.kind == "Tuple" and len(t.parts) == len(v.parts):
                    at = [
                        n for n, p in enumerate(t.parts) if p.kind == "Name" and p.name == expr.name
                    ]
                    if at:
                        expr = v.parts[at[0]]
        found = self.values.resolve(file, fn, expr, 0)
        if not (found.literal and _is_zero(found.text)):
            return False
        for step in found.trail:
            hit = _PARAMETER_DEFAULT.search(step)
            if hit is None:
                continue
            param, owner = hit.group(1), hit.group(2).rpartition(".")[2]
            for other in self.files.values():
                for c in other.values.calls:
                    if c.expr.callee() != owner:
                        continue
                    for kw in c.expr.keywords:
                        passed = self.values.resolve(other, c.function, kw.target, 0)
                        if kw.name == param and not (passed.literal and _is_zero(passed.text)):
                            return False
        return True

    def _off_switches(self) -> None:
        """Say on an option's row what it switches on that the defaults leave off
        (vq-vae-2's ``--sched``, declared without a default: ``if args.sched == "cycle":``
        builds a ``CycleScheduler`` no run with the defaults has): "optional, off by
        default", with the test and the rows it would add."""
        gated: dict[tuple[str, str], dict[str, list[str]]] = {}  # (row, path) -> test -> rows
        for item in self.untaken:
            file = self.files.get(item.where.path)
            if file is None or self.values.apart(file.path):
                continue  # a demo's or a tool's switch is not the training's
            for call in file.calls_on.get(item.where.line, []):
                for branch in call.ifs[:1]:
                    if 0 < branch.body_end < item.where.line:
                        break  # the ``else`` of a switch: the option is on by default
                    for node in branch.test.walk():
                        options = self.repo.argparse.get(node.name, [])
                        if node.kind != "Attribute" or node.target.kind != "Name":
                            continue
                        receiver = node.target.name
                        if receiver not in _ARG_RECEIVERS | self.repo.parsed_names:
                            continue
                        # the file's own parser, else the training scripts'
                        own = [o for o in options if o.file is file] or [
                            o
                            for o in options
                            if _TRAINING_FILE.search(PurePosixPath(o.file.path).name)
                        ]
                        for o in own:
                            if not _left_off(o):
                                continue
                            # the option's own row: another script's option of the same
                            # name (an evaluation's --fp16) switches nothing here
                            tests = gated.setdefault((o.label, o.file.path), {})
                            shown = f"{item.name} ({item.where.path}:{item.where.line})"
                            test = branch.test.shown().replace("'", '"')
                            found = tests.setdefault(test, [])
                            if shown not in found:
                                found.append(shown)
                break
        kept = []
        for item in self.out:
            tests = gated.get((item.name, item.where.path))
            if tests:
                said = "; ".join(
                    f"if {test} builds " + ", ".join(rows[:3]) for test, rows in tests.items()
                )
                note = f"optional, off by default: {said}"
                item = replace(item, note=f"{item.note}; {note}" if item.note else note)
            kept.append(item)
        self.out = kept

    def _read_untaken(self, read: _Read) -> bool:
        """Whether the attribute read ``read`` is an argument of a call in an untaken
        branch (a read in an ``if`` test itself is the switch: it runs)."""
        call = read.file.call_around(read.node)
        return call is not None and bool(self._call_untaken(read.file, call))

    def argument_value(self, path: str, fn: int, expr: Expr) -> str | None:
        """``expr``, an argument in def ``fn`` of ``path`` (-1: at module level), as far as
        the recipe follows it (``learning_rate=learning_rate``: the default of the def's
        parameter, or what its callers pass), with the steps that led there; None when
        nothing literal is reached."""
        file = self.files.get(path)
        if file is None:
            return None
        found = self.values.resolve(file, fn, expr, 0)
        return found.show() if found.literal else None

    def branch_taken(self, path: str, line: int) -> bool | None:
        """Whether the run's values take every ``if`` branch of its function that ``line``
        of ``path`` sits in, the tests weighed as the recipe's own branches are (an option's
        default, the YAML the entry loads, what the callers pass): True when each holds,
        False when one fails (``self.Prediction = Attention(...)`` under ``elif
        opt.Prediction == 'Attn'`` with ``Prediction: 'CTC'``), None when one cannot be
        told. The model tree reads it for the parts a constructor builds per branch."""
        file = self.files.get(path)
        if file is None:
            return None
        around = [
            n for n, d in enumerate(file.defs) if not d.is_class and d.line <= line <= d.end_line
        ]
        if not around:
            return None
        fn = max(around, key=lambda n: file.defs[n].line)
        verdict: bool | None = True
        for branch in file.defs[fn].branches:
            if not (branch.line < line <= branch.end_line):
                continue
            in_body = not (0 < branch.body_end < line)
            holds = self._holds(file, fn, branch.test, 0)
            if not isinstance(holds, bool):
                verdict = None
            elif holds != in_body:
                return False
        return verdict

    def picked_configs(self, items: tuple[RecipeItem, ...]) -> tuple[RecipeItem, ...]:
        """The config rows with the dicts a branch on the defaults leaves unused dropped
        (ssd.pytorch's ``if args.dataset == 'COCO': cfg = coco`` / ``elif args.dataset ==
        'VOC': cfg = voc`` with ``--dataset`` defaulting to VOC: the ``coco`` dict's rows are
        not the run's). A dict counts as unused only when every assignment of it to the
        name is in an untaken branch while another dict of the same config file is assigned
        to that name in a branch that runs; a dict no code assigns stays. The branches
        are the ``if`` statements around the assignments themselves; a tool's own pick
        (another default of the same option) decides nothing."""
        prefix = "config "
        tops: dict[str, set[str]] = {}  # config path -> the top-level names its rows show
        for item in items:
            if item.name.startswith(prefix):
                top = re.split(r"[.:\s]", item.name.removeprefix(prefix), maxsplit=1)[0]
                tops.setdefault(item.where.path, set()).add(top)
        if not tops:
            return items
        dropped: set[tuple[str, str]] = set()
        for path, names in tops.items():
            # (target, dict name) -> whether any assignment of it runs with the defaults
            runs: dict[tuple[str, str], bool] = {}
            for other, file in self.files.items():
                # a tool's own pick (Pytorch_Retinaface's detect.py, ``--network`` defaulting
                # to resnet50) is not the training's
                if other == path or is_test_path(other) or self.values.apart(other):
                    continue
                for a, fn in file.assigns:
                    if a.value.kind != "Name" or a.value.name not in names:
                        continue
                    ifs = sorted(
                        (
                            i
                            for i in self._file_ifs(file)
                            if i.function == fn and i.line < a.line <= i.end_line
                        ),
                        key=lambda i: -i.line,
                    )
                    key = (a.target.text, a.value.name)
                    taken = not ifs or not self._untaken(file, a.line, ifs, fn)
                    runs[key] = runs.get(key, False) or taken
            for (target, name), taken in runs.items():
                rivals = [t for (tg, n), t in runs.items() if tg == target and n != name]
                if not taken and any(rivals):
                    dropped.add((path, name))
        if not dropped:
            return items
        kept = []
        for item in items:
            top = re.split(r"[.:\s]", item.name.removeprefix(prefix), maxsplit=1)[0]
            if item.name.startswith(prefix) and (item.where.path, top) in dropped:
                self.untaken.append(item)
                continue
            kept.append(item)
        return tuple(kept)

    def _in_evaluation(self, item: RecipeItem) -> bool:
        """Whether the row is built in a function named for evaluation (``evaluate``,
        ``validate``, ``test``): its loss or flip measures the model, it does not train it.
        A loss is a measure too when it is only read as a number (hifi-gan's
        ``mel_error = F.l1_loss(y_mel, y_g_hat_mel).item()``, printed) or computed in a loop
        under ``torch.no_grad()`` or over a validation loader (``for j, batch in
        enumerate(validation_loader): val_err_tot += F.l1_loss(...).item()``)."""
        file = self.files.get(item.where.path)
        if file is None:
            return False
        if item.category == "loss":
            called = item.name.rpartition(".")[2]
            if any(
                c.expr.callee() == called
                and (self._measured_only(file, c) or self._gradient_off(file, c.function))
                for c in file.calls_on.get(item.where.line, [])
            ):
                return True
        for call in file.values.calls:
            if call.expr.line == item.where.line:
                names = file.defs[call.function].qual.split(".") if call.function >= 0 else []
                if call.stored is not None and call.stored.kind in ("Name", "Attribute"):
                    names.append(call.stored.name)  # timm's ``validate_loss_fn = ...``
                return any(_EVALUATION_FUNCTION.match(n) for n in names)
        return False

    @staticmethod
    def _gradient_off(file: _File, fn: int) -> bool:
        """Whether def ``fn`` is decorated ``@torch.no_grad()`` (or ``inference_mode``): a
        loss function called there computes a cost (a label assigner's matching cost over
        every prediction and target), no term the step differentiates."""
        if fn < 0:
            return False
        qual = file.defs[fn].qual
        return any(d.qualname == qual and d.no_grad for d in file.fa.functions)

    @staticmethod
    def _measured_only(file: _File, call: CallValues) -> bool:
        """Whether a loss call's value is a number for a log or a validation score, not a
        loss the step differentiates: converted at once (``.item()``, ``.tolist()``), or
        computed in a loop under ``no_grad``/``inference_mode`` or over a loader of the
        validation split."""
        place = (call.expr.line, call.expr.col, call.expr.end_line, call.expr.end_col)
        for other in file.calls_on.get(call.expr.line, []):
            func = other.expr.func
            if func.kind != "Attribute" or func.name not in _TO_NUMBER:
                continue
            target = func.target
            if (target.line, target.col, target.end_line, target.end_col) == place:
                return True
        for loop in file.values.loops:
            if loop.function != call.function or not any(
                (u.node.line, u.node.col, u.node.end_line, u.node.end_col) == place
                for u in loop.updates
            ):
                continue
            iterated = [n.name for n in loop.iter.walk() if n.kind in ("Name", "Attribute")]
            if any(_NO_GRAD.search(c) for c in loop.contexts) or any(
                _NOT_TRAINING_STORE.search(n) for n in iterated
            ):
                return True
        return False

    def _holds(self, file: _File, fn: int, expr: Expr, depth: int) -> object:
        """The value of ``expr`` with the defaults the code starts from (argparse defaults,
        literals, local assignments), evaluated by the shared
        :func:`~apiscan.review.evaluate.holds`; :data:`_UNKNOWN` when it cannot be told."""

        def lookup(name: Expr, at: int) -> object:
            if name.kind == "Attribute" and name.name == "__dict__":
                space = self._namespace(file, fn, name.target)
                if space is not None:
                    return space
            if name.kind == "Name" and fn < 0:
                local = self._local_holds(file, fn, name, at + 1)
                if local is not None:
                    return local[0]
            if name.kind == "Name" and fn >= 0:
                local = self._local_holds(file, fn, name, at + 1)
                if local is not None:
                    return local[0]
                params = dict(file.defs[fn].params)
                # an assignment after the read replaces the parameter for later code only,
                # unless a loop opened before the read may bring it round again (tacotron2's
                # ``checkpoint_path`` tested, then reused for the saved checkpoints)
                looped = any(
                    loop.function == fn and loop.line < name.line for loop in file.values.loops
                )
                if name.name in params and not any(
                    a.target.kind == "Name"
                    and a.target.name == name.name
                    and (a.line < name.line or looped)
                    for a in file.defs[fn].assigns
                ):
                    passed = self._passed(file, fn, name.name, at)
                    if passed is not _UNKNOWN:
                        return passed
                    # else what the value follower makes of it (the training files' calls)
            member = self._enum_member(name)
            if member is not None:
                return member
            derived = self._derived_option(file, name)
            if derived is not None:
                return self._holds(file, derived[0], derived[1], at + 1)
            if name.kind == "Name" and not (fn >= 0 and name.name in dict(file.defs[fn].params)):
                imported = self._imported_binding(file, name.name)
                if imported is None and fn >= 0 and not self._assigns_in(file, fn, name.name):
                    imported = (file, name.name)  # a global the function reads, its last value
                if imported is not None:
                    # ``from data import cfg_mnet``: the module that binds it, at its end
                    other, bound = imported
                    last = name._replace(name=bound, line=1 << 30)
                    held = self._local_holds(other, -1, last, at + 1)
                    if held is not None:
                        return held[0]
            found = self.values.resolve(file, fn, name, 0)
            if (
                not found.omitted
                and any(step.startswith("default of parameter") for step in found.trail)
                and not self._config_built_default(found)
            ):
                # no caller found to say what it passes (yolov9's smart_optimizer(model,
                # name='Adam') is called with --optimizer SGD): the default decides nothing
                return _UNKNOWN
            if found.literal and found.text in _CONSTANT_WORDS:
                return _CONSTANT_WORDS[found.text]  # ``--sched`` left out: None
            if found.literal:
                try:
                    return ast.literal_eval(found.text)
                except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                    pass
                if any(" in " in step and _YAML_FILE.search(step) for step in found.trail):
                    # a YAML file's scalar (``use_color_distortion: false``, ``null``)
                    value = scalar_value(found.text)
                    return _UNKNOWN if value is NOT_SCALAR else value
            return _UNKNOWN

        if expr.kind == "Call" and expr.callee().rpartition(".")[2][:1].isupper():
            return BUILT  # ``Mixup(...)``: an object, whatever its arguments
        if expr.kind == "Compare" and len(expr.parts) == 2 and expr.name in ("Eq", "NotEq"):
            # ``stage_cfg['lr_schedule'] == 'poly'`` with the name holding each training
            # stage's section in turn: false when no stage sets it so
            sides = [self.values.resolve(file, fn, part, 0) for part in expr.parts]
            per = next((side.per for side in sides if side.per), ())
            if per and all(side.literal for side in sides):
                decided = self.values._decided_per(expr, sides, per)
                if decided.text not in ("True", "False"):
                    self._section_picks[(file.path, expr.line, expr.col)] = [
                        name
                        for name, value in per
                        if self.values._decided_per(expr, sides, ((name, value),)).text == "True"
                    ]
                return {"True": True, "False": False}.get(decided.text, _UNKNOWN)
        return holds(expr, lookup, depth, 2 * MAX_DEPTH)

    def _config_built_default(self, found: _Val) -> bool:
        """Whether every default ``found`` rests on is a constructor parameter of a class
        the repository's config files name (a ``target:`` string instantiated by name, no
        call in the code) that no config file writes as a key (taming's
        ``VQLPIPSWithDiscriminator(use_actnorm=False)``, its configs' ``params`` giving
        ``disc_start``, ``codebook_weight`` and never ``use_actnorm``): built from a config
        that leaves it out, the class runs with that default."""
        readings = self.repo.readings
        words = readings.config_words if readings is not None else frozenset()
        lowered = {w.lower() for w in words}
        steps = [m for step in found.trail if (m := _DEFAULT_STEP.match(step))]
        return bool(steps and words) and all(
            m.group(2).endswith(".__init__")
            and m.group(2).rpartition(".")[0].rpartition(".")[2] in words
            # a key spelled in any case (``LOSS_TYPE`` for ``loss_type``) may set it
            and m.group(1).lower() not in lowered
            and not self._fed_by_method(m.group(2))
            for m in steps
        )

    def _fed_by_method(self, init: str) -> bool:
        """Whether the constructor ``init`` (``OnePath.__init__``) is decorated or its
        class has a ``from_config`` method: a dict the code builds from the config feeds its
        parameters under names of its own (detectron2's ``@configurable``)."""
        cls = init.rpartition(".")[0]
        for file in self.files.values():
            n = file.first.get(init)
            if n is None:
                continue
            if file.defs[n].decorators or f"{cls}.from_config" in file.first:
                return True
        return False

    def _namespace(self, file: _File, fn: int, module: Expr) -> Namespace | None:
        """The namespace of the repository module ``module`` names where ``file`` reads it
        (``vits`` of ``vits.__dict__``), unless the def ``fn`` binds that name itself."""
        if module.kind != "Name" or (fn >= 0 and self._assigns_in(file, fn, module.name)):
            return None
        if self._namespaces is None:
            self._namespaces = Namespaces(f.fa for f in self.files.values())
        return self._namespaces.of(file.fa, module.name)

    def _enum_member(self, expr: Expr) -> _Member | None:
        """``SamplerType.SHARDED_INFINITE``, a member of an ``Enum`` class of the repository
        (by the class's last name): a value a test compares by identity, so dinov2's
        ``sampler_type = SamplerType.SHARDED_INFINITE`` rules out ``_make_sampler``'s
        ``if type == SamplerType.INFINITE:`` branch; None for any other attribute."""
        if expr.kind != "Attribute" or expr.target.kind not in ("Name", "Attribute"):
            return None
        if self._enums is None:
            self._enums = {
                q.rpartition(".")[2]
                for q in self.hierarchy.classes.facts
                if any(
                    base.rpartition(".")[2] in _ENUM_BASES
                    for base in self.hierarchy.foreign_ancestors(q)
                )
            }
        cls = expr.target.text.rpartition(".")[2]
        return _Member(cls, expr.name) if cls in self._enums else None

    def _local_holds(self, file: _File, fn: int, name: Expr, depth: int) -> tuple[object] | None:
        """(the value) the local ``name`` holds where it is read, None when def ``fn`` (-1:
        the module's own code) assigns it nowhere before: the last assignment before the
        read that runs with the defaults. One built under an ``if`` (ConvNeXt's ``mixup_fn =
        None`` then ``if mixup_active: mixup_fn = Mixup(...)``; Pytorch_Retinaface's ``cfg =
        None`` then ``if args.network == "mobile0.25": cfg = cfg_mnet``) holds when that test
        does, the one before it when the test fails, and nothing is told when the test
        cannot be."""
        bound = sorted(
            (
                a
                for a in (file.defs[fn].assigns if fn >= 0 else file.values.assigns)
                if not a.annotated
                and a.line < name.line
                and a.target.kind == "Name"
                and a.target.name == name.name
            ),
            key=lambda a: a.line,
        )
        if not bound:
            return None
        if fn < 0 and name.name in file.imports and not all(a.top for a in bound):
            # ``try: from torch.cuda.amp import GradScaler`` / ``except ImportError:
            # GradScaler = None``: the imported object where the import works, the fallback
            # only where it fails; which one the run holds is not told here
            return (_UNKNOWN,)
        if _counted_in_loop(file, fn, name.name, name.line):
            return (_UNKNOWN,)  # a counter: another value on every pass
        params = dict(file.defs[fn].params) if fn >= 0 else {}
        for n in range(len(bound) - 1, -1, -1):
            stmt = bound[n]
            value = stmt.value
            ifs = [i for i in stmt.ifs if i.function == fn and i.body_end]
            if not ifs:
                return (self._holds(file, fn, value, depth),)
            runs = self._runs_with_defaults(file, fn, stmt.line, ifs)
            if runs is None and (value.kind == "Call" or n > 0 or name.name in params):
                # an object built only maybe; or a value that replaces an earlier one only
                # maybe (fairseq's ``sync = False`` under ``if world_size == 1:``)
                return (_UNKNOWN,)
            if runs is not False:
                # the name's first value, under a test that cannot be told (detectron2's
                # ``if sampler is None: sampler_name = cfg.DATALOADER.SAMPLER_TRAIN``): the
                # read needs it, so it ran
                return (self._holds(file, fn, value, depth),)
        return (_UNKNOWN,)

    def _module_names(self, file: _File) -> frozenset[str]:
        """The plain names the module-level code of ``file`` assigns."""
        found = self._assigned.get(file.path)
        if found is None:
            found = self._assigned[file.path] = frozenset(
                a.target.name for a in file.values.assigns if a.target.kind == "Name"
            )
        return found

    @staticmethod
    def _assigns_in(file: _File, fn: int, name: str) -> bool:
        """Whether def ``fn`` binds the name ``name`` itself."""
        return any(a.target.kind == "Name" and a.target.name == name for a in file.defs[fn].assigns)

    def _imported_binding(self, file: _File, name: str) -> tuple[_File, str] | None:
        """(file, name) of the module-level assignment that the name ``name`` of ``file``
        is imported from (``from data import cfg_mnet``, ``data/__init__.py`` passing
        ``from .config import *`` on), through re-exports and star imports a few modules
        deep; None when ``file`` binds it itself or it comes from no such assignment."""
        key = (file.path, name)
        if key not in self._imported:
            self._imported[key] = self._find_imported(file, name)
        return self._imported[key]

    def _find_imported(self, file: _File, name: str) -> tuple[_File, str] | None:
        if name in self._module_names(file):
            return None
        if self._by_module is None:
            self._by_module = {m: f for f in self.files.values() for m in f.modules}

        def sources(f: _File, wanted: str) -> list[tuple[str, str]]:
            dotted = f.imports.get(wanted)
            if dotted is not None:
                module, _, original = dotted.rpartition(".")
                return [(module, original)]
            for local, level, module, original in f.values.relative_imports:
                if local == wanted:
                    return [(f.from_module(level, module), original)]
            return [(f.from_module(*star), wanted) for star in f.values.star_imports]

        todo = sources(file, name)
        seen: set[tuple[str, str]] = set()
        while todo and len(seen) < 20:
            module, wanted = todo.pop(0)
            other = self._by_module.get(module)
            if (module, wanted) in seen or other is None:
                continue
            seen.add((module, wanted))
            if wanted in self._module_names(other):
                return other, wanted
            todo += sources(other, wanted)
        return None

    def _runs_with_defaults(
        self, file: _File, fn: int, line: int, ifs: Sequence[IfValues]
    ) -> bool | None:
        """Whether the code at ``line`` inside ``ifs`` (innermost first) runs with the
        defaults: every test on the side it sits on; None when one cannot be told."""
        for near in ifs:
            verdict = self._holds(file, fn, near.test, 0)
            if verdict is BUILT:
                verdict = True
            elif isinstance(verdict, int | float | str) and not isinstance(verdict, bool):
                verdict = bool(verdict)
            if not isinstance(verdict, bool):
                return None
            in_else = near.body_end < line <= near.end_line
            if verdict == in_else:
                return False
        return True

    def _derived_option(self, file: _File, expr: Expr) -> tuple[int, Expr] | None:
        """(def, value) of a setting no parser declares that the script derives from the
        parsed options once, unconditionally (timm's and T2T-ViT's ``args.prefetcher = not
        args.no_prefetcher``: ``--no-prefetcher`` is the option, ``args.prefetcher`` what
        the loader and the mixup switch read): its one top-level assignment in ``file``.
        None for a declared option (its default decides), or where it is set more than
        once or only under a test (which value holds is not told)."""
        if expr.kind != "Attribute" or expr.target.kind != "Name":
            return None
        receiver = expr.target.name
        if receiver not in _ARG_RECEIVERS | self.repo.parsed_names:
            return None
        if self.repo.argparse.get(expr.name):
            return None
        sets = [
            (stmt, fn)
            for stmt, fn in file.assigns
            if stmt.target.kind == "Attribute"
            and stmt.target.name == expr.name
            and stmt.target.target.text == receiver
        ]
        if len(sets) != 1 or not sets[0][0].top or sets[0][0].annotated:
            return None
        return sets[0][1], sets[0][0].value

    def _entry(self, file: _File, fn: int, expr: Expr) -> object:
        """The value the read by key ``expr`` holds with the defaults (the value follower's
        question); not asked again while one is being told."""
        if self._entering:
            return _UNKNOWN
        self._entering = True
        try:
            return self._holds(file, fn, expr, 0)
        finally:
            self._entering = False

    def _assignment_taken(self, file: _File, fn: int, line: int) -> bool:
        """Whether the code at ``line`` of def ``fn`` (-1: the module) sits inside ``if``
        statements whose tests are all told with the defaults and all lead there: it runs
        for certain, not merely "not known to be skipped" (:meth:`_assignment_runs`)."""
        if self._judging:
            return False
        # the ifs around a call or an assignment, and a def's own (the ``if`` around a bare
        # ``return base_loss``)
        own = file.defs[fn].branches if fn >= 0 else ()
        ifs = list(
            {
                (i.line, i.col): i
                for i in (*self._file_ifs(file), *own)
                if i.function == fn and i.body_end and i.line < line <= i.end_line
            }.values()
        )
        if not ifs:
            return False
        self._judging = True
        try:
            for near in ifs:
                verdict = self._holds(file, fn, near.test, 0)
                if isinstance(verdict, int | float | str) and not isinstance(verdict, bool):
                    verdict = bool(verdict)
                if not isinstance(verdict, bool):
                    return False
                if verdict != (line <= near.body_end):
                    return False
            return True
        finally:
            self._judging = False

    def _assignment_runs(self, file: _File, fn: int, line: int) -> bool:
        """Whether the assignment at ``line`` of def ``fn`` runs with the defaults (not in
        an untaken branch): the value follower's test of an assignment. A test asked while
        one is being told says yes (no evaluation inside an evaluation)."""
        if self._judging:
            return True
        self._judging = True
        try:
            ifs = sorted(
                (
                    i
                    for i in self._file_ifs(file)
                    if i.function == fn and i.line < line <= i.end_line
                ),
                key=lambda i: -i.line,
            )
            return not ifs or not self._untaken(file, line, ifs, fn)
        finally:
            self._judging = False

    def _needed_options(self) -> None:
        """The options declared without a default whose absence stops the run: an error
        raised (or an exit) on the side of every ``if`` around it that the defaults take,
        the tests reading the option (pytorch-retinanet's ``--dataset``, tested against
        'coco' and 'csv' before ``else: raise ValueError('Dataset type not understood')``).
        Such an option is given on every command line: its value is not known here."""
        needed: set[str] = set()
        for path, file in self.files.items():
            if is_test_path(path) or self.values.apart(path):
                continue
            for call in file.values.calls:
                if not _STOPS.search(call.expr.callee()) or call.stored is not None:
                    continue
                ifs = [i for i in call.ifs if i.function == call.function and i.body_end]
                read: set[str] = set()
                for near in ifs:
                    in_else = near.body_end < call.expr.line
                    if self._holds(file, call.function, near.test, 0) is not (not in_else):
                        break  # the defaults do not go there (or it is not known)
                    read |= {
                        node.name
                        for node in near.test.walk()
                        if node.kind == "Attribute"
                        and any(
                            o.default is None and unset_option(o.declared) is None
                            for o in self.repo.argparse.get(node.name, ())
                        )
                    }
                else:
                    needed |= read
        if needed:
            self.repo.needed = needed
            self._passing.clear()  # what was told with those options at None

    def _passed(self, file: _File, fn: int, name: str, depth: int) -> object:
        """What the parameter ``name`` of def ``fn`` holds where every call that runs in
        training passes the same told value (:func:`~apiscan.review.evaluate.agreed`):
        detectron2's ``build_augmentation(cfg, is_train)``, reached through
        ``DatasetMapper(cfg, True)`` for training and ``DatasetMapper(cfg, False)`` only in
        ``_test_loader_from_config``. A call counts unless it sits in an untaken branch, in
        a function named for evaluation or in another task's script; one that leaves the
        parameter gives its default. :data:`_UNKNOWN` with no such call (yolov9's
        ``smart_optimizer(model, name='Adam')``, called with ``--optimizer``'s value: its
        default decides nothing) or when they disagree."""
        key = (file.path, fn, name)
        if key in self._passing:
            return self._passing[key]
        self._passing[key] = _UNKNOWN  # a cycle of calls tells nothing
        d = file.defs[fn]
        default = dict(d.params).get(name)
        values: list[object] = []
        for caller, call in self.values.call_sites(file, fn):
            if caller is file and d.line <= call.expr.line <= d.end_line:
                continue  # a recursive call passes the parameter on
            quals = caller.defs[call.function].qual.split(".") if call.function >= 0 else []
            if (
                any(_EVALUATION_WORD.search(q) for q in quals)
                or self.values.apart(caller.path)
                or self._call_untaken(caller, call)
                # a call in a method the defaults never run passes nothing to the run
                # (stargan's ``train_multi``, called only under ``--dataset Both``, passes
                # its loop's ``dataset`` where ``train`` passes ``self.dataset``)
                or (call.function >= 0 and self._def_untaken(caller, caller.defs[call.function]))
            ):
                continue
            passed = bind_call(d, call.expr).get(name)
            if (
                passed is None
                and default is not None
                and (
                    self.values.unpacked_section_lacks(caller, call, name)
                    or self.values.local_spread_lacks(caller, call, name)
                )
            ):
                # spread from config sections that do not set it: the default
                values.append(self._holds(file, fn, default, depth + 1))
            elif passed is None and (default is None or call.expr.unpacks()):
                values.append(_UNKNOWN)  # maybe in ``*args``/``**kwargs``
            elif passed is None:
                values.append(self._holds(file, fn, default, depth + 1))  # type: ignore[arg-type]
            else:
                values.append(self._holds(caller, call.function, passed, depth + 1))
        if not values and (shown := self.values.documented(file, d, name)) is not None:
            # nothing calls it; the documentation's example passes a literal: that is the run
            try:
                values.append(ast.literal_eval(shown[0]))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                values.append(_UNKNOWN)
        elif not values and default is not None and self._never_passed(file, fn, name):
            # no call names it, no config spreads it in (pytorch-segmentation's
            # ``CityScapes(..., val_split=None)``, built by a config's class name from its
            # ``args``, which have no ``val_split``): the default is what it holds
            values.append(self._holds(file, fn, default, depth + 1))
        found = agreed(values)
        self._passing[key] = found
        return found

    def _never_passed(self, file: _File, fn: int, name: str) -> bool:
        """Whether no call and no config of the repository passes parameter ``name`` of def
        ``fn`` (:attr:`~apiscan.review.readings.Readings.unpassed`)."""
        readings = self.repo.readings
        if readings is None or name not in readings.unpassed.get(file.path, {}).get(fn, {}):
            return False
        # a key of the training's config file may be spread in (``**config[name]["args"]``)
        return not any(
            key.removeprefix("config:").rpartition(".")[2] == name
            for key in readings.argparse.settings
        )

    def _unused_loss_defs(self) -> dict[str, list[tuple[int, int]]]:
        """path -> (first, last line) of the outermost defs whose losses no run computes:
        a module-level loss function nothing calls or names (pytorch-segmentation's
        ``xloss``),
        and the classes of a module the code picks from by a name it reads
        (``getattr(losses, config['loss'])``: the config says which class; those the
        repository builds itself stay)."""
        picked: set[str] = set()
        named: set[str] = set()
        for file in self.files.values():
            for call in file.values.calls:
                for expr in call.expr.walk()[1:]:
                    if expr.kind in ("Name", "Attribute"):
                        named.add(expr.name)
                args = call.expr.args
                if call.expr.callee() == "getattr" and len(args) == 2:
                    module = file.dotted(args[0]) if args[0].kind == "Name" else None
                    if module is not None and args[1].kind != "Constant":
                        picked.add(module)
            for assign, _ in file.assigns:
                named.update(e.name for e in assign.value.walk() if e.kind in ("Name", "Attribute"))
        out: dict[str, list[tuple[int, int]]] = {}
        for path, file in self.files.items():
            for n, d in enumerate(file.defs):
                if d.owner >= 0 or (d.is_class and d.function >= 0):
                    continue  # a method, or a class inside a function
                if not d.is_class and d.function != n:
                    continue  # a nested function
                if self._called(path, file.module, d.qual) or any(
                    site == path
                    for site, _ in self.repo.call_sites.get(f"{file.module}.{d.qual}", ())
                ):
                    continue
                # a loss function by its name: an entry point run by a launcher is no loss
                unnamed = not d.is_class and "loss" in d.name.lower() and d.name not in named
                if unnamed or (d.is_class and file.module in picked):
                    out.setdefault(path, []).append((d.line, d.end_line))
        return out

    def _whose(self, where: Where, other: Callable[[str], str], depth: int = 0) -> str:
        """Whose recipe a row is: ``other``'s answer for its file, else, for a row inside a
        module-level function every use of which comes from one other script or task
        (yolov9's ``classify_transforms``, called by ``classify/`` only), theirs. A use is
        a call, whose is the caller's own (a helper called only by another helper of that
        script: pytorch-YOLOv4's ``get_coco_kp`` calling ``get_coco``), or the function
        named as a value without a call (a dataset table ``{"coco": (path, get_coco,
        91)}`` in torchvision's reference ``train.py``)."""
        own = other(where.path)
        file = self.files.get(where.path)
        if own or file is None:
            return own
        for n, d in enumerate(file.defs):
            if d.owner < 0 and not d.is_class and d.line <= where.line <= d.end_line:
                known = self._whose_of.get((file.path, n))
                if known is not None:
                    return known
                self._whose_of[(file.path, n)] = ""  # a cycle of helpers is nobody's
                kinds = {
                    self._whose(Where(caller.path, site.expr.line), other, depth + 1)
                    if depth < _WHOSE_DEPTH
                    else other(caller.path)
                    for caller, site in self.values.call_sites(file, n)
                    if not (caller is file and d.line <= site.expr.line <= d.end_line)
                }
                kinds |= {other(path) for path in self.values.referrers(file, n)}
                whose = kinds.pop() if len(kinds) == 1 and "" not in kinds else ""
                self._whose_of[(file.path, n)] = whose
                return whose
        return ""

    def _overridden_defaults(self, other: Callable[[str], str]) -> dict[str, list[tuple[int, int]]]:
        """path -> (first, last line) of the parameter defaults that build something (a
        call) which every call of their def replaces: semseg's PSPNet and PSANet default to
        ``criterion=nn.CrossEntropyLoss(ignore_index=255)``, and ``tool/train.py`` passes its
        own criterion. The caller's value is the recipe; the default never runs. Calls
        from ``other`` files (tools, other tasks' scripts) are not the training's."""
        out: dict[str, list[tuple[int, int]]] = {}
        for path, file in self.files.items():
            if is_test_path(path) or not file.module:
                continue
            for n, d in enumerate(file.defs):
                built = [(p, e) for p, e in d.params if e is not None and e.kind == "Call"]
                if d.is_class or not built:
                    continue
                # the calls that train: a module's own demo and the inference scripts
                # (``tool/test.py``, ``tool/demo.py``) never compute the loss
                sites = [
                    (caller, call)
                    for caller, call in self.values.call_sites(file, n)
                    if not is_test_path(caller.path)
                    and not self._in_self_test(caller.path, call.expr.line)
                    and not _INFERENCE_PLACE.search(caller.path + ":")
                    and not other(caller.path)
                ]
                if not sites:
                    continue
                bound = [bind_call(d, call.expr) for _, call in sites]
                for param, default in built:
                    if all(param in b for b in bound):
                        out.setdefault(path, []).append((default.line, default.end_line))
        return out

    def _unbuilt_families(self) -> dict[str, list[tuple[int, int]]]:
        """path -> (first, last line) of the defs only the registered model builders the
        defaults do not pick construct (deit: ``--model`` defaults to
        ``deit_base_patch16_224``; CaiT, ResMLP, PatchConvnet and DeiT-III are registered
        beside it, and their classes' initialisers are no part of what trains). A builder is
        a top-level function a decorator registers by name (``@register_model``); picked
        when an argparse default names it. With them the entries of a table the model tree
        found a default key leaves out, and then every def only those reach
        (:func:`~apiscan.review.leftout.left_out`: what they call, and what they pick from
        tables of their own). Nothing when no default names a registered builder nor a
        table's entry (the pick is not known here)."""
        builders: dict[str, tuple[str, int]] = {}
        defaults: set[str] = set()
        for fa, facts in with_facts(self.analyses):
            models, file = facts.models, self.files.get(fa.path)
            if models is None or file is None:
                continue
            defaults.update(default for _, default, _ in models.options if default)
            for qual, _, decorators in models.decorated:
                index = file.first.get(qual)
                if index is None or file.defs[index].is_class:
                    continue
                for architecture, _, key in decorators:
                    if key and not architecture:  # an architecture's name builds no model
                        builders[key] = (fa.path, index)
        picked = {builders[k] for k in set(builders) & defaults}
        unbuilt = set(builders.values()) - picked if picked and len(builders) >= 2 else set()
        # the classes the model tree found a table's default key leaves out (CenterTrack's
        # ``_network_factory[arch]`` with ``--arch dla_34``: ``DLASegv0``, ``PoseResNet``...)
        for cls in self.not_picked:
            found = self.repo.defs.get(cls)
            if found is not None:
                unbuilt.add((found[0].path, found[1]))
        return left_out(
            self.analyses,
            self.hierarchy,
            unbuilt,
            [*picked, *self.picked_models],
            self.uncalled,
            self.option_defaults,
        )

    def _built_by_uncalled(
        self, uncalled: dict[str, list[tuple[int, int]]]
    ) -> dict[str, list[tuple[int, int]]]:
        """path -> (first, last line) of the repository's Module classes whose every
        construction lies in a function nothing calls (semantic-segmentation's
        ``MobileNetV2``, built only by ``mobilenetv2()``, which the builder reaches through
        ``mobilenet.__dict__[...]`` under an architecture the config does not pick): their
        weight initialisers are no part of the model that trains. A class nothing constructs
        at all is left to the other rules (a registry or a config may build it)."""
        out: dict[str, list[tuple[int, int]]] = {}
        for key, (file, index) in self.repo.defs.items():
            d = file.defs[index]
            if not d.is_class or d.owner >= 0 or not self.hierarchy.is_module(key):
                continue
            sites = [
                (path, fact)
                for k in (key, f"{key}.__init__")
                for path, fact in self.repo.call_sites.get(k, ())
                if not is_test_path(path) and not self._in_self_test(path, fact.line)
            ]
            if sites and all(
                any(a <= fact.line <= b for a, b in uncalled.get(path, ())) for path, fact in sites
            ):
                out.setdefault(file.path, []).append((d.line, d.end_line))
        return out

    def _module_code_unrun(self, where: Where) -> bool:
        """A row in the module-level code of a module whose functions and classes all go
        unrun (nothing the run reaches calls them: a tracker's ``INFTY_COST = 1e+5``, an
        ``np.random.seed(0)`` at import, in the modules only an evaluation tool imports):
        the module's code is theirs, not the training's. The module is imported by another
        file (a script's own module-level code runs when it is run); a constant read by code
        that does run stays."""
        file = self.files.get(where.path)
        if file is None or where.cell:
            return False
        tops = [d for d in file.defs if d.owner < 0]
        spans = self.uncalled.get(where.path, ())
        if (
            not tops
            or any(d.line <= where.line <= d.end_line for d in tops)
            or not all(any(a <= d.line and d.end_line <= b for a, b in spans) for d in tops)
            or not (
                any(
                    g.path != file.path
                    for m in file.modules
                    for g in self.repo.importers.get(m, ())
                )
                # ... or imports it relatively (a tracker's ``from . import
                # linear_assignment``), which the absolute imports leave out
                or self._imported_by_another(file.path)
            )
        ):
            return False
        stored = {
            a.target.name
            for a, _ in file.assigns
            if a.target.kind == "Name" and a.line == where.line
        }
        attributes, names = self._reads()
        for name in stored:
            for read in (*names.get(name, ()), *attributes.get(name, ())):
                line = read.node.line
                if read.file is file and line == where.line:
                    continue  # the assignment itself
                if not self._inside(Where(read.file.path, line), self.uncalled) and not (
                    self.apart(read.file.path)
                ):
                    return False
        return True

    def _imported_by_another(self, path: str) -> bool:
        """Whether another file of the repository imports or refers to ``path``, as the
        file graph reads it (relative imports included)."""
        graph = self.repo.graph or {}
        return any(path in targets for other, targets in graph.items() if other != path)

    @staticmethod
    def _inside(where: Where, spans: dict[str, list[tuple[int, int]]]) -> bool:
        return any(a <= where.line <= b for a, b in spans.get(where.path, ()))

    def _in_self_test(self, path: str, line: int) -> bool:
        """Whether ``line`` of ``path`` is in the file's own ``__main__`` demo."""
        block = self._self_tests.get(path)
        return block is not None and block[0] <= line <= block[1]

    def add(
        self,
        category: str,
        name: str,
        where: Where,
        values: Sequence[tuple[str, str]] = (),
        note: str = "",
        inference_precision: bool = False,
    ) -> None:
        block = self._self_tests.get(where.path)
        if block is not None and block[0] <= where.line <= block[1]:
            return  # a library module's own demo, not what training runs
        self.out.append(RecipeItem(category, name, where, tuple(values), note, inference_precision))

    def _reduced_to(self, f: ApiFinding) -> None:
        """A network's own cast to half precision by ``.to(dtype)`` (stylegan2-ada's blocks:
        ``dtype = torch.float16 if self.use_fp16 and not force_fp32 else torch.float32``,
        then ``x.to(dtype=dtype, ...)`` in ``forward``): mixed precision written by hand, no
        autocast, a row with the dtype as the code picks it. Casts to full precision, and
        casts whose dtype is not told, are none."""
        file = self.files.get(f.path)
        call = file.call_for(f) if file is not None else None
        if file is None or call is None:
            return
        expr = call.expr
        arg = next((k.target for k in expr.keywords if k.name == "dtype"), None)
        if arg is None and expr.args and expr.args[0].kind in ("Attribute", "Name"):
            arg = expr.args[0]
        if arg is None:
            return
        text = arg.text
        if not _REDUCED_DTYPE.search(text):
            text = self.values.resolve(file, call.function, arg, 0).text
        if not _REDUCED_DTYPE.search(text):
            return
        where = Where(f.path, f.span.line, f.cell)
        self.add("amp", "torch.Tensor.to", where, [("dtype", text)], _HAND_PRECISION)

    # -- API findings
    def _finding(self, f: ApiFinding) -> None:
        if f.usage == "reference" and _category(f.api) == "optimizer":
            self._picked_by_name(f)
        if f.usage == "reference" and _category(f.api) in ("optimizer", "scheduler", "loss"):
            self._partial(f)
            return
        if f.usage not in ("call", "context_manager", "decorator"):
            return
        if f.api == "torch.Tensor.to" and f.scope == "network":
            self._reduced_to(f)
            return
        category = _category(f.api)
        if category is None:
            return
        if category == "distributed" and _INFERENCE_PLACE.search(f"{f.path}:{f.function}"):
            return  # CRAFT's test.py wraps the net in DataParallel to run it: no training
        file = self.files.get(f.path)
        if (
            category == "distributed"
            and f.api.endswith("DataParallel")
            and file is not None
            and not self._on_training_run(file)
        ):
            return  # a reader's ``nn.DataParallel(net)`` on no training run: inference
        call = file.call_for(f) if file is not None else None
        where = Where(f.path, f.span.line, f.cell)
        if file is None or call is None:
            self.add(category, f.api, where, note="arguments not read: call not found in source")
            return
        if category == "optimizer":
            self._optimizer(f.api, file, call, where)
        elif category == "scheduler":
            self._scheduler(f, file, call)
        else:
            functional = f.api.startswith("torch.nn.functional.")
            note = f"scope: {f.scope}" if functional else ""
            if f.api in _HALF:
                note = "casts to float16 (not autocast)"
            # the inference path's (the review keeps it only where nothing trains)
            inference_precision = category == "amp" and _not_training_precision(f, file, call)
            if (
                category == "dataloader"
                or (category == "distributed" and f.api.endswith("Sampler"))
            ) and (
                _validation_loader(f.function, call)
                or (not f.function and _evaluation_script(f.path))
            ):
                # pytorch-segmentation's val_sampler and get_val_loader, ConvNeXt's
                # ``sampler_val = DistributedSampler(dataset_val, ...)``: no training
                return
            if category == "loss" and self._never_read(call):
                return  # PyTorch-YOLOv3's self.mse_loss = nn.MSELoss(): stored, never called
            values = self._bind_api(f.api, file, call)
            if category == "dataloader":
                # a loader wrapper's ``**kwargs`` handed on: the keywords its callers pass
                # (``loader(train_set, batch_size=args.batch_size, **kw)``), key by key
                values = [v for part in values for v in self._passed_dict(file, call, part)]
            if category == "init":
                values = self._init_passed(file, call, values)
            if category == "loss":
                named = {k for k, _ in values}
                # a factor beside an argument of the same name (torch's ``weight=`` class
                # weights): the factor says it multiplies the loss
                values += [
                    ("loss weight" if k == "weight" and k in named else k, v)
                    for k, v in self._loss_terms(file, call) or self._module_factor(file, call)
                ]
            self.add(category, f.api, where, values, note, inference_precision)

    def _gradient_syncs(self) -> None:
        """The gradients averaged across devices by the repository's own code
        (:func:`~apiscan.review.roles.gradient_syncs`): a distributed row per function, the
        collectives it runs with their places, since no ``DistributedDataParallel`` row
        says that the run is data-parallel."""
        from apiscan.review.work import call_edges  # work.py imports this module at its top

        found = (f for f in self.result.api_findings if not is_test_path(f.path))
        edges = call_edges(self.analyses)
        for (_, function), syncs in sorted(gradient_syncs(found, edges).items()):
            first = next(f for f in syncs if GRADIENT_COLLECTIVES.match(f.api))
            places: dict[str, list[str]] = {}
            for f in syncs:
                places.setdefault(f.api.rpartition(".")[2], []).append(f"{f.path}:{f.span.line}")
            values = [(name, ", ".join(at)) for name, at in places.items()]
            self.add(
                "distributed",
                f"gradient all-reduce written by hand ({function})",
                Where(first.path, first.span.line, first.cell),
                values,
                "gradients averaged across devices by the repository's own code: MindSpore's "
                "data-parallel mode reduces them in the train step",
            )

    def _init_passed(
        self, file: _File, call: CallValues, values: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """An initialiser's arguments that read a parameter of the layer's constructor, shown
        with what the constructor's calls pass (tacotron2's ``ConvNorm(...,
        w_init_gain='tanh')``, ``'relu'``, ``'sigmoid'`` beside the default ``'linear'`` read
        by ``calculate_gain(w_init_gain)``) where the value follower, with more calls than
        it reads, shows the default: the default alone is not what the layers get. The calls are
        those :meth:`_passed` counts (no untaken branch, no evaluation code)."""
        fn = call.function
        args = [*call.expr.args, *(k.target for k in call.expr.keywords)]
        if fn < 0 or any(a.kind == "Starred" for a in call.expr.args) or len(args) != len(values):
            return values  # ``*args``/``**kwargs`` opened: the rows and arguments differ
        params, qual = dict(file.defs[fn].params), file.defs[fn].qual
        out: list[tuple[str, str]] = []
        for (key, shown), expr in zip(values, args, strict=True):
            for name in sorted({n.name for n in expr.walk() if n.kind == "Name"} & set(params)):
                if f"default of parameter {name} of {qual}()" not in shown:
                    continue  # the value follower read the calls (a caller's default is theirs)
                passed = self._site_texts(file, fn, name, params[name])
                if any(not text.endswith(" (default)") for text in passed):
                    shown = f"{expr.text} with {name} = {' | '.join(passed)}"
            out.append((key, shown))
        return out

    def _site_texts(self, file: _File, fn: int, name: str, default: Expr | None) -> list[str]:
        """The distinct values the running calls of def ``fn`` pass its parameter ``name``
        (the default, marked so, for a call that leaves it), in the calls' order."""
        d = file.defs[fn]
        texts: dict[str, None] = {}
        for caller, site in self.values.call_sites(file, fn):
            if caller is file and d.line <= site.expr.line <= d.end_line:
                continue
            quals = caller.defs[site.function].qual.split(".") if site.function >= 0 else []
            if (
                any(_EVALUATION_WORD.search(q) for q in quals)
                or self.values.apart(caller.path)
                or self._call_untaken(caller, site)
            ):
                continue
            passed = bind_call(d, site.expr).get(name)
            if passed is not None:
                texts[self.values.resolve(caller, site.function, passed, 0).text] = None
            elif default is not None and not site.expr.unpacks():
                texts[f"{default.text} (default)"] = None
            else:
                return []  # maybe in ``*args``/``**kwargs``: not told
        return list(texts)

    def _bind_api(
        self, api: str, file: _File, call: CallValues, skip: tuple[str, ...] = ()
    ) -> list[tuple[str, str]]:
        """(parameter, value) of every argument a torch API call passes."""
        return self._arguments(file, call, self._torch_positional(api), skip)

    def _torch_positional(self, api: str) -> list[str]:
        params = self.api.params(self.api.canonical(api) or api) or ()
        return [p for p, kind, _ in params if kind in ("pos_only", "pos_or_kw")]

    def _arguments(
        self, file: _File, call: CallValues, positional: Sequence[str], skip: tuple[str, ...] = ()
    ) -> list[tuple[str, str]]:
        """(parameter, value) of every argument, in the call's order; positional arguments
        are named by ``positional``, ``**kwargs`` is opened when it is a local dict."""
        out: list[tuple[str, str]] = []
        for i, arg in enumerate(call.expr.args):
            if arg.kind == "Starred":
                out.append(("*", arg.text))
                break
            name = positional[i] if i < len(positional) else f"arg{i + 1}"
            if name not in skip:
                out.append((name, self._value(file, call.function, name, arg)))
        for kw in call.expr.keywords:
            if not kw.name:
                out.extend(self._expanded(file, call, kw.target, skip))
            elif kw.name not in skip:
                out.append((kw.name, self._value(file, call.function, kw.name, kw.target)))
        return out

    def _value(self, file: _File, fn: int, name: str, expr: Expr) -> str:
        """Data arguments (the model, the dataset, a tensor) are shown as written: where they
        were built says nothing about the recipe. A local dict (a loss's ``weight_dict``) is
        opened, with the ``d["key"] = v`` assignments made to it, each value followed."""
        if name in _DATA_PARAMS:
            return expr.text
        call = file.call_around(expr) if expr.kind == "Name" else None
        if call is not None and call.function >= 0:
            entries = self._dict_entries(file, call, expr)
            if entries:
                shown = ", ".join(
                    f"{k}: {self.values.resolve(file, call.function, v, 0).text}{_when(test)}"
                    for k, (v, test) in entries.items()
                )
                return f"{{{shown}}} ({expr.name} set in {file.defs[call.function].name})"
        return self.values.describe(file, fn, expr)

    def _expanded(
        self, file: _File, call: CallValues, value: Expr, skip: tuple[str, ...]
    ) -> list[tuple[str, str]]:
        """``**kwargs`` where ``kwargs`` is a dict of the same function (a literal, a
        ``dict(k=v)`` call, one of them under a condition), with the ``kwargs["key"] = v``
        assignments made to it before the call."""
        entries = self._dict_entries(file, call, value)
        if not entries:
            return [("**", value.text)]
        return [
            (k, self._value(file, call.function, k, v) + _when(test))
            for k, (v, test) in entries.items()
            if k not in skip
        ]

    def _dict_entries(
        self, file: _File, call: CallValues, value: Expr
    ) -> dict[str, tuple[Expr, Expr | None]]:
        """The entries of a dict bound to ``value`` (a name) in the function of ``call``,
        with the ``name["key"] = v`` assignments made to it before the call: (value, the
        test it is passed under or None). nanoGPT's ``extra_args = dict(fused=True) if
        use_fused else dict()`` passes ``fused=True`` when ``use_fused``."""
        fn = call.function
        entries: dict[str, tuple[Expr, Expr | None]] = {}
        if value.kind != "Name" or fn < 0:
            return entries
        name = value.name
        built_ifs: tuple[IfValues, ...] = ()
        for line, assign, update in file.own_statements(fn):
            if line > call.expr.line:
                break
            if assign is not None and assign.ifs and self._untaken(file, line, assign.ifs, fn):
                # basicsr's ``dataloader_args = dict(batch_size=1, shuffle=False, ...)`` in
                # ``elif phase in ['val', 'test']:``: the training's loader never gets it
                continue
            if assign is not None:
                target, val = assign.target, assign.value
                if target.kind == "Name" and target.name == name:
                    built_ifs = assign.ifs
                    if val.kind == "IfExp":
                        test, body, orelse = val.parts
                        for key, item in _dict_items(body):
                            entries[key] = (item, test)
                        for key, item in _dict_items(orelse):
                            entries.setdefault(key, (item, None))
                    else:
                        entries.update((key, (item, None)) for key, item in _dict_items(val))
                elif (
                    target.kind == "Subscript"
                    and target.parts[0].kind == "Name"
                    and target.parts[0].name == name
                    and target.parts[1].kind == "Constant"
                    and isinstance(target.parts[1].value, str)
                ):
                    # ``if sampler is None: dataloader_args['shuffle'] = True`` after the
                    # dict is built: the entry holds under that test, shown with it
                    near = next(iter(assign.ifs), None)
                    extra = (
                        near
                        if near is not None
                        and near not in built_ifs
                        and near.function == fn
                        and (not near.body_end or line <= near.body_end)
                        else None
                    )
                    entries[target.parts[1].value] = (val, extra.test if extra else None)
            elif update is not None and update.func.target.name == name:
                # timm's loader_args.update(batch_size=batch_size, ...)
                for arg in update.args[:1]:
                    entries.update((key, (item, None)) for key, item in _dict_items(arg))
                entries.update((k.name, (k.target, None)) for k in update.keywords if k.name)
        return entries

    def _optimizer(
        self, api: str, file: _File, call: CallValues, where: Where, note: str = ""
    ) -> None:
        """The optimizer ``call`` builds (``api``: torch's class it is), its settings and
        parameter groups read, its row at ``where``; ``note``: what the row says first."""
        said = note
        args = call.expr.args
        if api.endswith(".add_param_group"):
            group = args[0] if args else None
            values = (
                self._group_values(file, call.function, group)
                if group is not None and group.kind == "Dict"
                else []
            )
            self.add("optimizer", api, where, values, "an extra parameter group")
            return
        values = self._bind_api(api, file, call, skip=("params",))
        params = args[0] if args else None
        for kw in call.expr.keywords:
            if kw.name == "params":
                params = kw.target
        note = ""
        if params is not None:
            groups, note = self._param_groups(file, call.function, params)
            values = [*groups, *values]
        kernels = [k for k, v in values if k in _KERNEL_SWITCHES and not v.startswith(_OFF)]
        if kernels:
            switches = "/".join(kernels)
            flagged = (
                f"{switches} passed: picks torch's fused or multi-tensor implementation, "
                "a switch MindSpore's optimizers do not take; drop it when porting"
            )
            note = f"{note}; {flagged}" if note else flagged
        note = f"{said}; {note}" if said and note else said or note
        self._note_branch("optimizer", api, where, file, call)
        self.add("optimizer", api, where, values, note)

    def _called_through_names(self, file: _File) -> None:
        """An optimizer class bound to a name and built by calling that name (``optim_name =
        optim.SGD``, then ``optimizer = optim_name([...param groups...], momentum=0.9,
        nesterov=True)`` in each branch of the model's kind), where the scan could not tell
        the call's class because a branch rebinds the name (``if opt.fused: optim_name =
        FusedSGD``): each such call is the optimizer of the binding that runs unconditionally
        before it, read as a direct construction, the branch's alternative in its note. The
        bindings read are the call's own scope's, then the module's (a function calling a
        module-level name it does not bind itself); a call the scan resolved is its finding's
        row already."""
        if self._call_ends is None:
            self._call_ends = {}
            for f in self.result.api_findings:
                if f.usage == "call":
                    self._call_ends.setdefault(f.path, set()).add(
                        (f.span.end_line, f.span.end_column, f.cell)
                    )
        resolved = {
            (file.joined_line(line, cell), column)
            for line, column, cell in self._call_ends.get(file.path, ())
        }
        bindings: dict[tuple[int, str], list[AssignValues]] = {}
        for a, fn in file.assigns:
            if a.target.kind == "Name" and not a.annotated:
                bindings.setdefault((fn, a.target.name), []).append(a)
        for call in file.values.calls:
            func = call.expr.func
            if func.kind != "Name" or (call.expr.end_line, call.end_char) in resolved:
                continue
            scope = call.function
            found = bindings.get((scope, func.name))
            if not found and scope >= 0:
                scope, found = -1, bindings.get((-1, func.name))
            if not found:
                continue
            before = [a for a in found if scope < 0 or a.line < call.expr.line]
            runs = [a for a in before if a.top]
            if not runs:
                continue
            binding = max(runs, key=lambda a: a.order)
            api = (
                file.dotted(binding.value) if binding.value.kind in ("Name", "Attribute") else None
            )
            if api is None or _category(api) != "optimizer" or api.endswith("add_param_group"):
                continue
            others = [a for a in found if a is not binding and not a.top]
            note = f"called through {func.name} = {binding.value.text} ({file.loc(binding.line)})"
            if others:
                note += (
                    "; "
                    + ", ".join(
                        f"{a.value.text} if {a.ifs[0].test.shown()}" if a.ifs else a.value.text
                        for a in others
                    )
                    + " instead"
                )
            self._optimizer(api, file, call, file.where(call.expr.line), note)

    def _picked_by_name(self, f: ApiFinding) -> None:
        """An optimizer class that is a value of a dict the code picks from by name and
        calls (RITM's ``{'sgd': torch.optim.SGD, 'adam': torch.optim.Adam}[opt_name.lower()]
        (params, **opt_kwargs)``): a row for the one the name reaches (each, when the name
        is not a literal), its settings read from the dicts the callers pass as
        ``**opt_kwargs``."""
        file = self.files.get(f.path)
        if file is None:
            return
        line = file.joined_line(f.span.line, f.cell)
        for call in file.values.calls:
            func = call.expr.func
            if func.kind != "Subscript" or not func.line <= line <= func.end_line:
                continue
            table, key = func.parts[0], func.parts[1]
            if table.kind == "Name" and call.function >= 0:
                table = file.local_value(call.function, table.name, call.expr.line) or table
            if table.kind != "Dict":
                continue
            mine = [
                k
                for k, v in zip(table.keys, table.items, strict=True)
                if k is not None and v.line == line and f.api.endswith(v.text.rpartition(".")[2])
            ]
            if not mine:
                continue
            while key.kind == "Call" and key.func.kind == "Attribute" and not key.args:
                key = key.func.target  # opt_name.lower()
            picked = self.values.resolve(file, call.function, key, 0)
            names = {m.group(1).lower() for m in _QUOTED.finditer(picked.text)}
            if names and not names & {k.lower() for k in mine}:
                return  # the name picks another optimizer of the table
            values = self._bind_api(f.api, file, call, skip=("params",))
            values = [v for part in values for v in self._passed_dict(file, call, part)]
            note = f"picked by name: {key.text} = {picked.show()}"
            self.add("optimizer", f.api, Where(f.path, f.span.line, f.cell), values, note)
            return

    def _partial(self, f: ApiFinding) -> None:
        """An optimizer, schedule or loss class bound to its settings by
        ``functools.partial`` and built later (RITM's ``partial(MultiStepLR, milestones=[200,
        220], gamma=0.1)``, called by the trainer with the optimizer): the partial is the
        construction."""
        file = self.files.get(f.path)
        call = file.call_around_reference(f) if file is not None else None
        if file is not None and call is None and _category(f.api) == "loss":
            self._chosen_loss(f, file)
            return
        if file is None or call is None or call.expr.callee() != "partial":
            return
        category = _category(f.api)
        assert category is not None
        fn = call.function
        args = call.expr.args[1:]
        values = [(f"arg{i}", self._value(file, fn, "", a)) for i, a in enumerate(args, 1)]
        values += [
            (k.name or "**", self._value(file, fn, k.name, k.target)) for k in call.expr.keywords
        ]
        stored = f", stored as {call.stored.text}" if call.stored is not None else ""
        where = Where(f.path, f.span.line, f.cell)
        self.add(category, f.api, where, values, f"bound by functools.partial{stored}")

    def _chosen_loss(self, f: ApiFinding, file: _File) -> None:
        """A loss function stored by reference in a conditional expression and called
        through the name later (DALL-E's VAE: ``self.loss_fn = F.smooth_l1_loss if
        smooth_l1_loss else F.mse_loss``, then ``self.loss_fn(images, out)``): each branch is
        a row, saying the test that picks it and what that test holds by default."""
        line = file.joined_line(f.span.line, f.cell)
        for a, scope in file.assigns:
            value = a.value
            if value.kind != "IfExp" or len(value.parts) != 3 or not value.line <= line:
                continue
            test, body, orelse = value.parts
            branch = next(
                (
                    (taken, part)
                    for taken, part in ((True, body), (False, orelse))
                    if part.end_line == line and part.text.endswith(f.api.rpartition(".")[2])
                ),
                None,
            )
            if branch is None:
                continue
            held = self._value(file, scope, "", test)
            when = f"if {test.text}" if branch[0] else f"unless {test.text}"
            if held != test.text:
                when += f" ({test.text} = {held})"
            note = f"stored as {a.target.text}, called through it; picked {when}"
            self.add("loss", f.api, Where(f.path, f.span.line, f.cell), (), note)
            return

    def _partial_losses(self) -> None:
        """A repository's loss method bound by ``functools.partial`` and called later
        (guided-diffusion's ``compute_losses = functools.partial(self.diffusion.training_losses,
        self.ddp_model, micro, t, model_kwargs=micro_cond)``, then ``compute_losses()``): the
        partial is where the loss is computed, the method (one def of that name in the
        repository) is what computes it."""
        for path, file in sorted(self.files.items()):
            if is_test_path(path):
                continue
            for call in file.values.calls:
                expr = call.expr
                if expr.callee().rpartition(".")[2] != "partial" or not expr.args:
                    continue
                bound = expr.args[0]
                if bound.kind not in ("Name", "Attribute"):
                    continue
                name = bound.name
                words = set(name.lower().split("_"))
                if not (
                    _is_loss_function(name)
                    or ("losses" in words and not words & _LOSS_HELPER_WORDS)
                ):
                    continue
                if self.hierarchy.classes.api.classes_with_member(name):
                    continue  # a torch class's method: not the repository's loss
                named = {k for k in self.repo.canonical.values() if k.rpartition(".")[2] == name}
                defs = sorted(
                    (self.repo.defs[k] for k in named if k in self.repo.defs),
                    key=lambda found: (found[0].path, found[1]),
                )
                if not defs or len(defs) > MAX_SITES:
                    continue
                fn = call.function
                values = [
                    (k.name, self._value(file, fn, k.name, k.target))
                    for k in expr.keywords
                    if k.name
                ]
                stored = f", stored as {call.stored.text}" if call.stored is not None else ""
                places = ", ".join(f"{t.defs[i].qual} at {t.loc(t.defs[i].line)}" for t, i in defs)
                note = f"bound by functools.partial{stored}; defined as {places}"
                target, index = defs[0]
                node = target.defs[index]
                self.add("loss", node.qual, file.where(expr.line), values, note)

    def _named_by_class_name(self) -> None:
        """Objects a repository builds from a dotted class name in a settings dict
        (stylegan2-ada's ``G_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam',
        lr=spec.lrate, betas=[0,0.99], eps=1e-8)`` and ``loss_kwargs = dnnlib.EasyDict(
        class_name='training.loss.StyleGAN2Loss', r1_gamma=spec.gamma)``, built by
        ``dnnlib.util.construct_class_by_name(**kwargs)``): the optimizer, schedule, loss or
        augmentation the name picks, with the settings written beside it. The entries are
        read as the model tree reads them (:func:`~apiscan.review.structure.class_name_entries`),
        and only where the repository has such a builder."""
        builds = any(
            BY_NAME_BUILDER.fullmatch(fact.callee.rpartition(".")[2])
            for fa in self.analyses
            for fact in fa.calls
        )
        if not builds:
            return
        for path, file in sorted(self.files.items()):
            if is_test_path(path):
                continue
            for call in file.values.calls:
                picked = {
                    kw.target.value
                    for kw in call.expr.keywords
                    if kw.name == "class_name" and kw.target.kind == "Constant"
                }
                for line, name in class_name_entries(call.expr):
                    if name not in picked:
                        continue  # a nested call's entry: that call's row
                    picked.discard(name)
                    category, shown, note = self._by_name_category(name)
                    if category is None:
                        continue
                    values = [
                        (kw.name, self._value(file, call.function, kw.name, kw.target))
                        for kw in call.expr.keywords
                        if kw.name and kw.name != "class_name"
                    ]
                    for kw in call.expr.keywords:
                        if not kw.name:
                            values += self._opened_entries(file, call.function, kw.target)
                    values += self._set_after(file, call)
                    if category == "loss":
                        values += self._loss_class_defaults(name, values)
                    stored = f"stored as {call.stored.text}, " if call.stored is not None else ""
                    self.add(
                        category,
                        shown,
                        file.where(line),
                        values,
                        f"{stored}built by name (class_name={name!r}){note}",
                    )
            self._class_name_set(file)

    def _class_name_set(self, file: _File) -> None:
        """The dotted class names set on a settings dict by attribute (EDM-style
        ``c.loss_kwargs = dnnlib.EasyDict()`` then, in the branch of ``if opts.precond ==
        ...`` the defaults take, ``c.loss_kwargs.class_name = 'training.loss.EDMLoss'``):
        built by name like a ``class_name=`` keyword, with the entries the function sets on
        the same dict and, for a loss, the defaults of its ``__init__``. The branches the
        defaults leave are dropped with the other rows built there (:meth:`_untaken_rows`)."""
        scopes = [(-1, file.values.assigns)]
        scopes += [(i, d.assigns) for i, d in enumerate(file.defs)]
        for fn, assigns in scopes:
            for a in assigns:
                target = a.target
                if not (
                    target.kind == "Attribute"
                    and target.name == "class_name"
                    and target.parts
                    and isinstance(a.value.value, str)
                    and a.value.literal
                    and "." in a.value.value
                ):
                    continue
                name = a.value.value
                category, shown, note = self._by_name_category(name)
                if category is None:
                    continue
                held = target.parts[0].text
                values: list[tuple[str, str]] = []
                for b in sorted(assigns, key=lambda b: b.line):
                    t = b.target
                    if (
                        t.kind == "Attribute"
                        and t.name != "class_name"
                        and t.parts
                        and t.parts[0].text == held
                    ):
                        shown_value = self._value(file, fn, t.name, b.value)
                        values.append((t.name, f"{shown_value} (set at {file.loc(b.line)})"))
                if category == "loss":
                    values += self._loss_class_defaults(name, values)
                self.add(
                    category,
                    shown,
                    file.where(a.line),
                    values,
                    f"stored as {held}, built by name ({held}.class_name = {name!r}){note}",
                )

    def _opened_entries(self, file: _File, fn: int, expr: Expr) -> list[tuple[str, str]]:
        """The entries of a ``**`` argument that picks one dict of a table by a key the
        defaults decide (stylegan2-ada's ``**augpipe_specs[augpipe]``, ``augpipe`` 'bgc'
        when not given, each spec a ``dict(xflip=1, rotate90=1, ...)``), each with the pick
        it comes from; none when the table or the key is not known."""
        if expr.kind != "Subscript" or fn < 0 or len(expr.parts) != 2:
            return []
        container, index = expr.parts
        if container.kind != "Name":
            return []
        table = file.local_value(fn, container.name, expr.line)
        if table is None or table.kind != "Dict":
            return []
        key = self.values.resolve(file, fn, index, 0)
        if not key.literal:
            return []
        # the key's values with the defaults (``None | 'bgc' (augpipe set at train.py:265)``
        # after ``if augpipe is None: augpipe = 'bgc'``): the strings among them the table has
        keys = set(table.keys)
        picks = []
        for alternative in key.text.split(" | "):
            word = alternative.partition(" (")[0].strip()
            if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"" and word[1:-1] in keys:
                picks.append((word[1:-1], alternative))
        if len(picks) != 1:
            return []
        picked, shown = picks[0]
        entry = next((v for k, v in zip(table.keys, table.items, strict=True) if k == picked), None)
        if entry is None:
            return []
        pick = f"{expr.text} with {index.text} = {shown}"
        if entry.kind == "Call" and entry.callee() == "dict" and not entry.args:
            pairs = [(kw.name, kw.target) for kw in entry.keywords if kw.name]
        elif entry.kind == "Dict":
            pairs = [(k, v) for k, v in zip(entry.keys, entry.items, strict=True) if k]
        else:
            return []
        return [(k, f"{v.text} ({pick})" if n == 0 else v.text) for n, (k, v) in enumerate(pairs)]

    def _loss_class_defaults(
        self, name: str, values: Sequence[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """The parameters of a repository loss class built by name that the settings leave
        at their defaults, with a number or a truth value for default (stylegan2-ada's
        ``StyleGAN2Loss(..., style_mixing_prob=0.9, r1_gamma=10, pl_weight=2)`` given
        ``r1_gamma`` alone): the weights the loss runs with. Only numbers: the modules and
        the ``None`` of the parameters the builder passes beside the settings (the networks,
        ``augment_pipe``) are no weights (unlike :meth:`_unpassed_defaults`, for a call whose
        every argument is in sight)."""
        key = self.repo_key(name)
        if key is None or key not in self.repo.defs:
            return []
        target, index = self.repo.defs[key]
        init = target.first.get(f"{target.defs[index].qual}.__init__")
        if init is None:
            return []
        # a setting written under an ``if`` the defaults may not take (``if cfg == 'cifar':
        # loss_kwargs.pl_weight = 0``) leaves the default in force otherwise
        given = {k for k, v in values if ", under if " not in v}
        gated = {k for k, _ in values} - given
        out = []
        for param, default in target.defs[init].params:
            if param in given or default is None or not default.literal:
                continue
            value = _literal_value(default)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            where = target.loc(target.defs[init].line)
            other = "; where the setting above does not run" if param in gated else ""
            out.append(
                (param, f"{default.text} (default of the class's __init__ at {where}{other})")
            )
        return out

    def _set_after(self, file: _File, call: CallValues) -> list[tuple[str, str]]:
        """The entries the function that builds a settings dict sets on it afterwards by
        attribute (stylegan3's ``c.G_opt_kwargs = dnnlib.EasyDict(class_name=..., betas=...)``
        then ``c.G_opt_kwargs.lr = ...`` and ``c.D_opt_kwargs.lr = opts.dlr``): settings of
        the object built by name like the keywords beside the name, the last write of each
        (with the line it is set at)."""
        stored = call.stored
        if stored is None:
            return []
        scope = file.defs[call.function].assigns if call.function >= 0 else file.values.assigns
        last: dict[str, AssignValues] = {}
        for a in sorted(scope, key=lambda a: a.line):
            target = a.target
            if (
                a.line > call.expr.line
                and target.kind == "Attribute"
                and target.target.text == stored.text
                and target.name != "class_name"
                # not under ``if opts.resume is not None:`` with no resume given
                and self.values.runs(file, call.function, a.line)
            ):
                last[target.name] = a
        out = []
        for key, a in last.items():
            where = f"set at {file.loc(a.line)}"
            tests = [
                b.test.text
                for b in (file.defs[call.function].branches if call.function >= 0 else ())
                if b.line < a.line <= b.end_line
            ]
            if tests and not self.values.taken(file, call.function, a.line):
                where += f", under if {tests[-1]}"  # which side runs is not known
            shown = (
                self._picked_value(file, call.function, a.value)
                if a.value.kind == "IfExp"
                else self._value(file, call.function, key, a.value)
            )
            if shown.startswith("None") and any(
                re.fullmatch(rf"{re.escape(a.value.text)}\s+is\s+not\s+None", t) for t in tests
            ):
                # ``if gamma is not None: kwargs.r1_gamma = gamma``: the default None never
                # gets there, an override the command line gives does
                continue
            out.append((key, f"{shown} ({where})"))
        # and the entries a later ``update(...)`` of the dict writes (``c.augment_kwargs.
        # update(xflip=1e8, yflip=1, scale=1)``), the keywords of one that runs
        written = {k for k, _ in out}
        for later in file.values.calls:
            func = later.expr.parts[0] if later.expr.kind == "Call" and later.expr.parts else None
            if (
                later.function != call.function
                or later.expr.line <= call.expr.line
                or func is None
                or func.kind != "Attribute"
                or func.name != "update"
                or not func.parts
                or func.parts[0].text != stored.text
                or not self.values.runs(file, call.function, later.expr.line)
            ):
                continue
            for kw in later.expr.keywords:
                if kw.name and kw.name != "class_name" and kw.name not in written:
                    shown = self._value(file, call.function, kw.name, kw.target)
                    out.append((kw.name, f"{shown} (set at {file.loc(later.expr.line)})"))
        return out

    def _by_name_category(self, name: str) -> tuple[str | None, str, str]:
        """(category, row name, note tail) of the class a dotted ``class_name`` names: a
        torch optimizer, schedule or loss class, or a repository class whose role is one."""
        if name.startswith("torch."):
            return _category(name), name, ""
        key = self.repo_key(name)
        if key is None or key not in self.repo.defs:
            return None, name, ""
        target, index = self.repo.defs[key]
        node = target.defs[index]
        if not node.is_class:
            return None, name, ""
        category = self._repo_category(key, node)
        if category is None and _AUG_DATASET.search(node.name):
            category = "augmentation"  # stylegan2-ada's AugmentPipe (ADA), a Module
        if category not in CATEGORIES:
            return None, name, ""
        return category, name, f", defined at {target.loc(node.line)}"

    def _passed_dict(
        self, file: _File, call: CallValues, value: tuple[str, str]
    ) -> list[tuple[str, str]]:
        """A ``**kwargs`` left unopened whose name is a parameter: the dicts the callers
        pass for it, key by key (each caller's value when they differ)."""
        key, text = value
        if key != "**" or call.function < 0 or not text.isidentifier():
            return [value]
        found = self._caller_dicts(file, call.function, text, call.expr.line, 0)
        if not found:
            return [value]
        by_key: dict[str, list[tuple[str, str]]] = {}
        for entries, where in found:
            for k, shown in entries.items():
                by_key.setdefault(k, []).append((shown, where))
        out = []
        for k, seen in by_key.items():
            distinct = list(dict.fromkeys(shown for shown, _ in seen))
            if len(distinct) == 1:
                more = f"; {len(seen)} callers" if len(seen) > 1 else ""
                out.append((k, f"{distinct[0]} (passed at {seen[0][1]}{more})"))
            else:
                # every value a stage or dataset is given (RAFT's five scale ranges), up to
                # a handful: the range a port repeats per run
                many = _BY_CALLER_SHOWN
                shown = " | ".join(distinct[:many]) + (" | …" if len(distinct) > many else "")
                out.append((k, f"{shown} (by caller; {len(seen)} callers)"))
        return out

    def _caller_dicts(
        self, file: _File, fn: int, name: str, before: int, depth: int
    ) -> list[tuple[dict[str, str], str]]:
        """The dict literals ``name`` is bound to in def ``fn`` before line ``before``, or
        when it is a parameter, the ones each call site passes (a few calls deep)."""
        bound = file.local_value(fn, name, before)
        if bound is not None:
            entries = _dict_items(bound)
            shown = {k: self.values.resolve(file, fn, v, 0).text for k, v in entries}
            return [(shown, file.loc(bound.line))] if shown else []
        d = file.defs[fn]
        if depth >= MAX_DEPTH:
            return []
        named = {p for p, _ in d.params}
        if name and name == d.kwarg:
            # the def's own ``**kwargs``: the keywords each caller passes that no named
            # parameter takes (a loader wrapper's ``loader(ds, batch_size=..., **kwargs)``
            # handing ``batch_size`` on to the DataLoader)
            found = []
            for caller, site in self.values.call_sites(file, fn)[:_MAX_CALLERS]:
                extra = [k for k in site.expr.keywords if k.name and k.name not in named]
                if extra:
                    shown = {
                        k.name: self._value(caller, site.function, k.name, k.target) for k in extra
                    }
                    found.append((shown, caller.loc(site.expr.line)))
            return found
        if name not in named:
            return []
        out = []
        for caller, site in self.values.call_sites(file, fn)[:_MAX_CALLERS]:
            passed = bind_call(d, site.expr).get(name)
            if passed is not None and passed.kind == "Name" and site.function >= 0:
                out += self._caller_dicts(
                    caller, site.function, passed.name, site.expr.line, depth + 1
                )
            elif passed is not None and _dict_items(passed):
                # RAFT's ``KITTI({'crop_size': ..., 'min_scale': -0.3, ...})``: the dict
                # written in the call itself
                entries = _dict_items(passed)
                shown = {k: self.values.resolve(caller, site.function, v, 0).text
                         for k, v in entries}  # fmt: skip
                out.append((shown, caller.loc(passed.line)))
        return out

    def _param_groups(
        self, file: _File, fn: int, params: Expr
    ) -> tuple[list[tuple[str, str]], str]:
        """A list of dicts (written there, or returned by a repo function) is parameter groups:
        name each group's settings."""
        owner, where, built, built_fn = file, "", params, fn
        if params.kind == "Call":
            found = self._repo_function(file, params)
            if found is not None:
                owner, index = found
                d = owner.defs[index]
                where = f"built by {d.qual}() at {owner.loc(d.line)}"
                if d.returns:
                    built, built_fn = d.returns[-1], index
        if built.kind == "Name":
            assigns = owner.values.assigns if built_fn < 0 else owner.defs[built_fn].assigns
            named = [a for a in assigns if a.target.kind == "Name" and a.target.name == built.name]
            if len(named) > 1:
                # groups in one branch of an option and ``model.parameters()`` in the other
                # (SimSiam's ``--fix-pred-lr``): the branch the run takes
                named = [a for a in named if self.values.runs(owner, built_fn, a.line)]
                if len(named) == 1 and named[0].value.kind != "List":
                    value = named[0].value
                    return [
                        ("params", f"{value.text} ({built.name} set at {owner.loc(value.line)})")
                    ], ""
            bound = [a.value for a in named]
            if len(bound) == 1 and bound[0].kind == "List":
                if not bound[0].parts:
                    grown = self._grown_groups(owner, built_fn, built.name)
                    if grown:
                        return self._loop_groups(owner, built_fn, built.name, grown)
                built = bound[0]
        if not (built.kind == "List" and built.parts):
            text = params.text
            return [("params", f"{text} ({where})" if where else text)], ""
        # a group is a dict literal or a ``dict(params=..., weight_decay=0.)`` call
        # (semantic-segmentation's ``group_weight``: biases and norms without weight decay)
        if not all(_dict_items(e) or e.kind == "Dict" for e in built.parts):
            return [("params", params.text)], ""
        groups = built.parts
        out = [("params", f"{len(groups)} parameter groups" + (f", {where}" if where else ""))]
        keys: set[str] = set()
        for n, group in enumerate(groups, 1):
            for key, value in self._group_values(owner, built_fn, group):
                if key != "params":
                    keys.add(key)
                    out.append((f"group {n}: {key}", value))
        return out, _groups_note(keys)

    def _grown_groups(
        self, file: _File, fn: int, name: str
    ) -> list[tuple[Expr, int, tuple[IfValues, ...]]]:
        """The group dicts an empty list ``name`` of scope ``fn`` is grown by, each with its
        line: ``name += [{...}]`` and ``name.append({...})`` (faster-rcnn's loop over
        ``named_parameters()``: biases at twice the LR without weight decay, the other
        weights with it). Empty when any growth is no dict: then it is no list of groups."""
        updates = file.values.updates if fn < 0 else file.defs[fn].updates
        found: list[tuple[Expr, int, tuple[IfValues, ...]]] = []
        for u in updates:
            target, value = u.node, u.value
            if target.kind != "Name" or target.name != name:
                continue
            if u.op != "Add" or value is None or value.kind not in ("List", "Tuple"):
                return []
            found += [(part, u.line, u.ifs) for part in value.parts]
        for call in file.values.calls:
            func = call.expr.func
            if (
                call.scope == fn
                and func.kind == "Attribute"
                and func.name in ("append", "extend")
                and func.parts
                and func.parts[0].kind == "Name"
                and func.parts[0].name == name
            ):
                args = call.expr.args
                if func.name == "append":
                    found += [(a, call.expr.line, call.ifs) for a in args[:1]]
                elif args and args[0].kind in ("List", "Tuple"):
                    found += [(part, call.expr.line, call.ifs) for part in args[0].parts]
                else:
                    return []
        if not found or not all(_dict_items(g) for g, _, _ in found):
            return []
        return sorted(found, key=lambda g: g[1])

    def _loop_groups(
        self, file: _File, fn: int, name: str, grown: list[tuple[Expr, int, tuple[IfValues, ...]]]
    ) -> tuple[list[tuple[str, str]], str]:
        """The values of parameter groups appended one by one (:meth:`_grown_groups`): each
        group's settings resolved, with the ``if`` branch that picks it (``'bias' in key``
        or its ``else``); one group per parameter when a loop appends them."""
        spans = file.values.loop_spans if fn < 0 else file.defs[fn].loop_spans
        loops = [s for s in spans if any(s[0] < line <= s[1] for _, line, _ in grown)]
        shown = f"{len(grown)} kinds of parameter group, appended to {name}"
        if loops:
            shown += f" in the loop at {file.loc(loops[0][0])}, one group per parameter"
        out = [("params", shown)]
        keys: set[str] = set()
        for n, (group, line, ifs) in enumerate(grown, 1):
            near = next((i for i in ifs if i.function == fn and i.body_end), None)
            if near is not None:
                test = near.test.shown()
                out.append((f"group {n}: when", f"not ({test})" if line > near.body_end else test))
            for key, value in self._group_values(file, fn, group):
                if key != "params":
                    keys.add(key)
                    out.append((f"group {n}: {key}", value))
        return out, _groups_note(keys)

    def _group_values(self, file: _File, fn: int, group: Expr) -> list[tuple[str, str]]:
        out = []
        for key, value in _dict_items(group):
            shown = value.text if key == "params" else None
            out.append((key, shown or self.values.describe(file, fn, value)))
        return out

    def _repo_function(self, file: _File, call: Expr) -> tuple[_File, int] | None:
        """The repo function a call runs: from the call facts, else a def of the same file."""
        return self.values.repo_function(file, call)

    def _scheduler(self, f: ApiFinding, file: _File, call: CallValues) -> None:
        where = Where(f.path, f.span.line, f.cell)
        values = self._bind_api(f.api, file, call, skip=("optimizer",))
        params = self.api.params(self.api.canonical(f.api) or f.api) or ()
        bound = _bind_torch(params, call.expr)
        last = f.api.rpartition(".")[2]
        target = call.stored
        named_warm = target is not None and "warm" in target.text.lower()
        if last == "LinearLR":
            start = _literal_value(bound.get("start_factor"))
            end = _literal_value(bound.get("end_factor"))
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
            branches = self._factor_branches(file, call, factor) if factor is not None else []
            if branches:
                shown = [f"{v} {c}".rstrip() for v, c, _ in branches]
                values = [*values, ("factor", "; ".join(shown))]
            if branches and branches[0][2]:
                # pytorch-YOLOv4's burn-in: ``pow(i / 1000, 4) if i < 1000``, then constants
                first = branches[0]
                self.add("warmup", f"{last} warm-up", where,
                         [("factor", first[0]), ("while", first[1].removeprefix("if "))],
                         "warm-up in lr_lambda: its first branch ramps with the step")  # fmt: skip
            elif factor is not None and "warm" in factor.full().lower():
                self.add("warmup", f"{last} warm-up", where, values[:1], "warm-up in lr_lambda")
        elif last == "OneCycleLR":
            pct = bound.get("pct_start")
            shown = (
                self.values.describe(file, call.function, pct)
                if pct is not None
                else "0.3 (default)"
            )
            self.add("warmup", "OneCycleLR warm-up", where, [("pct_start", shown)])
        self.add("scheduler", f.api, where, values)

    def _factor_branches(
        self, file: _File, call: CallValues, factor: Expr
    ) -> list[tuple[str, str, bool]]:
        """The factors a ``LambdaLR``'s function of the same file returns, in source order,
        each with the branch that picks it ("if i < 1000", "else", "" outside any ``if``)
        and whether it ramps with the step (a first branch testing the step and reading it:
        a warm-up); the settings it reads shown as the values they resolve to. Empty when
        ``factor`` names no such function or it returns one value."""
        if factor.kind != "Name":
            return []
        found = [
            n
            for n, d in enumerate(file.defs)
            if d.name == factor.name and not d.is_class and d.line <= call.expr.line
        ]
        if not found:
            return []
        n = found[-1]
        fn = file.defs[n]
        outputs: list[Expr] = []
        for r in fn.returns:
            if r.kind == "Name":
                outputs += [a.value for a in fn.assigns if a.target.kind == "Name"
                            and a.target.name == r.name and a.line < r.line]  # fmt: skip
            else:
                outputs.append(r)
        outputs.sort(key=lambda e: (e.line, e.col))
        if len(outputs) < 2:
            return []
        step = fn.positional[0] if fn.positional else ""

        def show(expr: Expr) -> str:
            text = expr.text
            nodes = [e for e in expr.walk() if e.kind in ("Attribute", "Subscript")]
            for node in sorted(nodes, key=lambda e: -len(e.text)):
                # a closure's setting (``config`` of the function defining it) too
                value = _Val(resolve_any(node), True)
                if not value.text and node.kind == "Subscript":
                    value = _Val(_element(resolve_any(node.target), node.text), True)
                if value.literal and value.text and node.text in text:
                    text = text.replace(node.text, value.text)
            return text

        def resolve_any(node: Expr) -> str:
            value = self.values.resolve(file, n, node, 1)
            if not value.literal and call.function >= 0:
                value = self.values.resolve(file, call.function, node, 1)
            return value.text if value.literal else ""

        out = []
        for value in outputs:
            around = [b for b in fn.branches if b.line <= value.line <= b.end_line]
            inner = min(around, key=lambda b: b.end_line - b.line, default=None)
            if inner is None:
                picked = ""
            elif not inner.body_end or value.line <= inner.body_end:
                picked = f"if {show(inner.test)}"
            else:
                picked = "otherwise"
            ramps = bool(
                not out and step and picked.startswith("if ")
                and any(e.kind == "Name" and e.name == step for e in value.walk())
                and any(e.kind == "Name" and e.name == step for e in inner.test.walk())  # type: ignore[union-attr]
            )  # fmt: skip
            out.append((show(value), picked, ramps))
        return out

    # -- repo classes and functions the call facts name
    def _repo_instances(self) -> None:
        """Repo schedulers, losses, loaders, samplers and transforms, by torch ancestor or
        by name, at each place the repository calls them."""
        keys = sorted(set(self.repo.call_sites) | set(self.repo.defs))
        for key in keys:
            found = self.repo.defs.get(key)
            if found is None:
                continue
            file, index = found
            node = file.defs[index]
            category = self._repo_category(key, node)
            # a plain class with ``__call__`` (Pytorch_Retinaface's ``preproc``) is a
            # transform where a dataset is handed an instance of it, whatever its name
            handed = category is None and self._callable_class(key, file, index)
            if category is None and not handed:
                continue
            body: list[tuple[str, str]] = []
            positional = self._repo_positional(key, file, node)
            calls_made: list[tuple[_File, CallValues]] = []
            for path, line, caller, calls in self._call_sites_of(key):
                call = next((c for c in calls if c.expr.callee() == node.name), None)
                if call is None:
                    call = self._picked_calls.get((path, line, key))
                if call is None and len(calls) == 1:
                    call = _partial_bound(calls[0], node.name) or calls[0]  # or renamed
                if call is not None and not _replaced_def(caller, call.function):
                    calls_made.append((caller, call))
            if key not in self.repo.call_sites and "." in key.removeprefix(file.module + "."):
                continue  # a method: star imports bring module-level names only
            if "." not in node.qual:
                # ``from utils import *`` then ``adjust_learning_rate(...)``: no call fact
                seen = {_place_key(caller.path, call.expr) for caller, call in calls_made}
                calls_made += [
                    (caller, call)
                    for caller, call in self.values.star_call_sites(file.module, node.name)
                    if not is_test_path(caller.path)
                    and _place_key(caller.path, call.expr) not in seen
                ]
            for caller, call in calls_made:
                if _place_key(caller.path, call.expr) in self.composed_calls:
                    continue
                func = call.expr.func
                if (
                    func.kind == "Attribute"
                    and func.target.text == "super()"
                    and call.function >= 0
                    and caller.defs[call.function].name == node.name
                ):
                    continue  # an override passing on to the method it overrides: one row
                if category == "loss" and _INFERENCE_PLACE.search(f"{caller.path}:"):
                    continue  # RITM's BRS losses, optimised per click in inference/predictors/
                if handed and not self._handed_to_dataset(caller, call):
                    continue  # a box decoder called on the network's output
                if category == "dataloader" and _validation_loader(
                    caller.defs[call.function].qual if call.function >= 0 else "", call
                ):
                    # a detector's own ``sampler_val = AspectRatioBasedSampler(dataset_val,
                    # batch_size=1, ...)``: what validation loads, as for torch's samplers
                    continue
                stored = call.stored.text if call.stored is not None else ""
                if (
                    category == "scheduler"
                    and node.is_class
                    and _OTHER_SCHEDULED.search(stored.rpartition(".")[2])
                    and not _LR_SCHEDULE.search(stored)
                    and not self._ema_decay(stored)  # an EMA's decay: its own row
                ):
                    # a schedule object another setting follows (stable-baselines3's
                    # ``self.exploration_schedule = LinearSchedule(...)``, ``self.clip_range
                    # = FloatSchedule(...)``): no LR schedule; the LR's own is stored so
                    continue
                note, row = f"defined at {file.loc(node.line)}", category or "augmentation"
                if row == "grad_clip":
                    note = f"gradient clipping written by hand (scales or clamps .grad), {note}"
                if category == _SCHEDULE_FUNCTION:
                    # DINO's ``lr_schedule = utils.cosine_scheduler(...)``: an array of
                    # per-step values, the LR's or the weight decay's by what it is stored as
                    # (``momentum_schedule`` is the EMA's, ``betas`` a noise schedule)
                    stored = call.stored.text if call.stored is not None else ""
                    why = self._wd_schedule(stored, call) if stored else ""
                    if why:
                        # ``wd_schedule_values``: written into each param group's
                        # weight decay, the LR left to its own schedule
                        note, row = f"stored as {stored}, {why}, {note}", "wd_schedule"
                        body = self._schedule_body(file, index, returned=True)
                    elif _LR_SCHEDULE.search(stored):
                        note, row = f"stored as {stored}, {note}", "scheduler"
                        body = self._schedule_body(file, index, returned=True)
                    elif call.statement and (
                        _LR_NAME.search(node.name) or self._writes_lr(file, index)
                    ):
                        # lr_sched.adjust_learning_rate(optimizer, step / len(loader) + epoch,
                        # args) in the training loop: it sets the LR at each call
                        note, row = f"sets the LR where it is called, {note}", "scheduler"
                    else:
                        continue
                if row == "augmentation" and (
                    PurePosixPath(caller.path).parent == PurePosixPath(file.path).parent
                ):
                    continue  # a transform built inside the transforms' own package
                values = self._arguments(caller, call, positional)
                if row == "wd_schedule" or (row == "scheduler" and note.startswith("stored as ")):
                    # llm.c's ``lr = get_lr(step)``: the value it hands back, computed by hand;
                    # the step it is handed (``get_lr(iter_num)``, ``iter_num += 1``) is no
                    # setting: its starting value says nothing of the schedule
                    values = [v for v in values if v[0] not in _counter_params(caller, call, node)]
                    values += body
                if row == "scheduler" and note.startswith("sets the LR"):
                    written = self._hand_schedule(caller, call)
                    if written:
                        values = [(k, written.get(k, v)) for k, v in values]
                        note = note.replace("where it is called", "as the training loop changes it")
                    values += self._schedule_body(file, index)
                # RAFT's FlowAugmentor(**aug_params): the dicts the dataset's callers pass
                values = [v for part in values for v in self._passed_dict(caller, call, part)]
                stored = call.stored.text if call.stored is not None else ""
                if row == "scheduler" and stored and self._ema_decay(stored):
                    # DINOv2's ``momentum_schedule = CosineScheduler(**momentum)``, indexed
                    # into ``update_teacher(m)``'s average: the EMA's decay, not the LR's
                    note, row = f"the EMA's decay, stored as {stored}, {note}", "ema"
                elif row == "scheduler" and stored and not note.startswith("stored as "):
                    # DINOv2's one ``CosineScheduler`` class built for the LR, the weight
                    # decay and the loss's temperature: which schedule a construction is
                    # is what it is stored as
                    why = self._wd_schedule(stored, call)
                    if why:
                        note, row = f"stored as {stored}, {why}, {note}", "wd_schedule"
                    elif _TEMPERATURE_NAME.search(stored.rsplit(".", 1)[-1]):
                        note = f"a temperature's per-step values, stored as {stored}, {note}"
                        row = "anneal"
                if row == "loss":
                    named = {k for k, _ in values}
                    # a factor beside an argument of the same name (the wrapper's ``weight``
                    # of a weighted loss): the factor says it multiplies the loss
                    values += [
                        ("loss weight" if k == "weight" and k in named else k, v)
                        for k, v in self._loss_weight(caller, call)
                        or self._loss_factor(caller, call)
                        or self._module_factor(caller, call)
                    ]
                    values += self._lazy_every(caller, call)
                    values += self._combined_terms(key, file, node)
                    if "." in node.qual:
                        self._loss_builder(caller, call, key)
                if row == "optimizer" and node.is_class:
                    values += self._unpassed_defaults(file, node, values, call.expr)
                if row in ("loss", "augmentation") and node.is_class:
                    index = file.first.get(node.qual)
                    if index is not None and not call.expr.unpacks():
                        values += self._class_constants(file, index, call.expr)
                    if handed and index is not None:
                        values += self._call_steps(file, index)
                        note = f"a transform the dataset calls on each sample, {note}"
                    elif row == "augmentation" and index is not None:
                        values += self._call_order(file, index)
                if row == "loss":
                    given = dict(values)
                    values += [
                        (k, v) for k, v in self._returned_weights(file, node) if k not in given
                    ]
                    values += self._hand_smoothing(file, index, {k for k, _ in values})
                if row == "grad_clip":
                    # ``None``, or a setting whose default is None (``None (argparse ...)``)
                    off = [
                        k
                        for k, v in values
                        if (v == "None" or v.startswith("None ("))
                        and k in _clip_bounds(file, index)
                    ]
                    if off:
                        # VITS's ``clip_grad_value_(net_g.parameters(), None)``: the clamp
                        # runs only for a bound, so the call measures the norm and clips none
                        values.append(("clips", "nothing"))
                        note = (
                            f"no gradient clipping: {off[0]}=None, the helper's bound, so it "
                            f"only reads the gradients' norm (a host read per call), defined at "
                            f"{file.loc(node.line)}"
                        )
                self.add(row, key, caller.where(call.expr.line), values, note)

    def _callable_class(self, key: str, file: _File, index: int) -> bool:
        """Whether the def ``index`` of ``file`` is a plain callable class: ``__call__``, no
        ``__getitem__`` (a dataset) and no torch base (a module's call is its forward)."""
        node = file.defs[index]
        if not node.is_class or self.hierarchy.torch_ancestors(key):
            return False
        methods = {d.name for d in file.defs if d.owner == index}
        return "__call__" in methods and "__getitem__" not in methods

    def _handed_to_dataset(self, caller: _File, call: CallValues) -> bool:
        """Whether the object ``call`` builds is passed to a dataset's construction: as an
        argument of it (``WiderFaceDetection(path, preproc(img_dim, rgb_mean))``), or by the
        name it is stored as in the same function; a repository dataset by its torch base, a
        library's by its ``transform=`` keyword."""
        stored = call.stored.name if call.stored is not None and call.stored.kind == "Name" else ""
        takers = [c for c in (caller.call_around(call.expr),) if c is not None]
        if stored:
            takers += [
                c
                for c in caller.values.calls
                if c.function == call.function
                and c.expr.line > call.expr.line
                and any(
                    a.kind == "Name" and a.name == stored
                    for a in (*c.expr.args, *(k.target for k in c.expr.keywords))
                )
            ]
        for taker in takers:
            found = self.values.repo_function(caller, taker.expr, classes=True)
            if found is not None:
                owner, at = found
                if self.hierarchy.is_dataset(f"{owner.module}.{owner.defs[at].qual}"):
                    return True
            for k in taker.expr.keywords:
                if k.name in ("transform", "transforms") and (
                    k.target == call.expr or (k.target.kind == "Name" and k.target.name == stored)
                ):
                    return True
        return False

    def _call_steps(self, file: _File, cls: int) -> list[tuple[str, str]]:
        """What a callable transform's ``__call__`` does, step by step: each repository
        function it calls, in order, with the arguments that reach a literal (the size a
        resize is given, the mean subtracted) and the numbers written in that function's
        own calls (the crop's scales drawn by ``random.choice([0.3, ..., 1.0])``, the
        contrast factor of ``random.uniform(0.5, 1.5)``): the augmentation a port writes
        again, which the class's name alone does not say."""
        fn = file.first.get(f"{file.defs[cls].qual}.__call__")
        if fn is None:
            return []
        steps: list[tuple[str, str]] = []
        calls = sorted(
            (c for c in file.values.calls if c.function == fn),
            key=lambda c: (c.expr.line, c.expr.col),
        )
        for call in calls:
            found = self.values.repo_function(file, call.expr)
            if found is None:
                continue
            owner, at = found
            d = owner.defs[at]
            shown = []
            for param, arg in bind_call(d, call.expr).items():
                value = self.values.resolve(file, fn, arg, 0)
                if value.literal and value.text != "None":
                    shown.append(f"{param}={value.text}")
            numbers = [
                f"{a.target.name}={a.value.text}"
                for a in sorted(d.assigns, key=lambda a: a.line)
                if a.target.kind == "Name" and a.value.literal and _numbers_in(a.value)
            ]
            numbers += [
                f"{inner.expr.func.text}({', '.join(a.text for a in inner.expr.args)})"
                for inner in sorted(owner.values.calls, key=lambda c: (c.expr.line, c.expr.col))
                if inner.function == at
                and RANDOM_DRAW.match(owner.dotted(inner.expr.func) or inner.expr.func.text)
                and inner.expr.args
                and all(a.literal and _numbers_in(a) for a in inner.expr.args)
            ]
            numbers = list(dict.fromkeys(numbers))
            text = f"{d.name}({', '.join(shown)})"
            if numbers:
                text += f" with {', '.join(numbers[:6])}"
            steps.append((str(len(steps) + 1), text))
        return steps

    def _call_order(self, file: _File, cls: int) -> list[tuple[str, str]]:
        """The steps an augmentation class's ``__call__`` runs, in order, each with the
        random draws it makes and the probabilities that gate them (RAFT's
        ``FlowAugmentor``: the colour jitter, asymmetric ``if np.random.rand() < 0.2``;
        the eraser ``if np.random.rand() < 0.5``; the spatial step's scale drawn by
        ``np.random.uniform(min_scale, max_scale)``, its flips under ``if do_flip``). A
        setting ``__init__`` keeps is shown by its literal (``self.h_flip_prob = 0.5``) or
        by the constructor parameter it holds (``min_scale``: the row's own value, given
        by each caller). Empty when ``__call__`` makes no draw (a fixed pipeline)."""
        fn = file.first.get(f"{file.defs[cls].qual}.__call__")
        if fn is None:
            return []
        kept = self._kept_settings(file, cls)

        def show(arg: Expr, value: _Val) -> str:
            if "self." in arg.text:
                return _substituted(arg.text, kept)
            return value.text

        built = self._kept_transforms(file, cls)
        ifs = [i for i in self._file_ifs(file) if i.function == fn and i.body_end]
        calls = sorted(
            (c for c in file.values.calls if c.function == fn),
            key=lambda c: (c.expr.line, c.expr.col),
        )
        draw_lines = {
            c.expr.line for c in calls if RANDOM_DRAW.match(file.dotted(c.expr.func) or "")
        }
        # (text, the ``if`` line a coin flip is the test of, or 0); a coin flip whose body
        # holds a step is said as that step's condition
        steps: list[tuple[str, int]] = []
        used: set[int] = set()
        drawing = False
        for call in calls:
            func = call.expr.func
            line = call.expr.line
            gate = min(
                (i for i in ifs if i.line < line <= i.body_end and i.line in draw_lines),
                key=lambda i: i.body_end - i.line,
                default=None,
            )
            prefix = f"if {_substituted(gate.test.shown(), kept)}: " if gate is not None else ""
            found = self.values.repo_function(file, call.expr)
            if found is not None:
                owner, at = found
                own = owner is file and owner.defs[at].owner == cls
                if not own and not self._draws_inside(file, call.expr):
                    continue  # a helper that draws nothing: a conversion, no step
                draws, _ = self._draws(owner, at, show)
                drawing = drawing or bool(draws)
                given = {} if own else self._given(owner, at, call.expr, kept)
                parts = [built[n] for n in self._transforms_called(owner, at, built)]
                parts += _grouped([_substituted(_substituted(t, kept), given) for t in draws])
                text = owner.defs[at].name + (": " + "; ".join(parts) if parts else "")
                if gate is not None:
                    used.add(gate.line)
                steps.append((shorten(prefix + text, _TERM_LIMIT * 8), 0))
            elif RANDOM_DRAW.match(file.dotted(func) or func.text):
                drawing = True
                test = next((i for i in ifs if i.line == line), None)
                if test is not None:
                    shown = f"if {_substituted(test.test.shown(), kept)}"
                    steps.append((shorten(shown, _TERM_LIMIT * 2), line))
                else:
                    text = prefix + _substituted(call.expr.text, kept)
                    steps.append((shorten(text, _TERM_LIMIT * 2), 0))
        if not drawing:
            return []
        shown = [text for text, test in steps if not test or test not in used]
        return [(f"step {n}", text) for n, text in enumerate(shown[:8], 1)]

    def _given(self, file: _File, fn: int, call: Expr, kept: Mapping[str, str]) -> dict[str, str]:
        """A helper's parameters -> what ``call`` gives them (YOLOX's ``_mirror(image,
        boxes, self.flip_prob)``: ``prob`` is ``flip_prob``), else their literal defaults
        (``augment_hsv``'s ``hgain=5``): its draws are then read with the caller's values."""
        d = file.defs[fn]
        bound = bind_call(d, call)
        out: dict[str, str] = {}
        for param, default in d.params:
            if param in bound:
                out[param] = _substituted(bound[param].text, kept)
            elif default is not None and default.literal:
                out[param] = default.text
        return out

    def _kept_transforms(self, file: _File, cls: int) -> dict[str, str]:
        """``self.x`` -> ``x = Call(...)`` for the objects the class's ``__init__`` builds
        and keeps (RAFT's ``self.photo_aug = ColorJitter(brightness=0.4, ...)``): a step
        that calls one is shown with what it is."""
        init = file.first.get(f"{file.defs[cls].qual}.__init__")
        if init is None:
            return {}
        return {
            a.target.text: shorten(f"{a.target.name} = {a.value.text}", _TERM_LIMIT * 2)
            for a in sorted(file.defs[init].assigns, key=lambda a: a.line)
            if _kept_attr(a.target) and a.value.kind == "Call"
        }

    def _transforms_called(self, file: _File, fn: int, built: Mapping[str, str]) -> list[str]:
        """The kept objects (:meth:`_kept_transforms`) def ``fn`` calls, in order, once."""
        out: list[str] = []
        for call in sorted(file.values.calls, key=lambda c: (c.expr.line, c.expr.col)):
            name = call.expr.func.text
            if call.function == fn and name in built and name not in out:
                out.append(name)
        return out

    def _kept_settings(self, file: _File, cls: int) -> dict[str, str]:
        """``self.x`` -> what the class's ``__init__`` sets it to, where that is a literal
        (``self.eraser_aug_prob = 0.5``) or one of its own parameters (``self.min_scale =
        min_scale``: shown by the parameter's name, whose value the caller gives)."""
        init = file.first.get(f"{file.defs[cls].qual}.__init__")
        if init is None:
            return {}
        params = {p for p, _ in file.defs[init].params}
        out: dict[str, str] = {}
        for a in sorted(file.defs[init].assigns, key=lambda a: a.line):
            t, v = a.target, a.value
            if not _kept_attr(t):
                continue
            if v.literal:
                out[t.text] = v.text
            elif v.kind == "Name" and v.name in params:
                out[t.text] = v.name
            else:
                out.pop(t.text, None)
        return out

    def _sample_draws(self, file: _File) -> None:
        """The augmentation a dataset writes by hand in its ``__getitem__``: the random draws
        it makes on each sample (``if np.random.choice([0, 1]): img = img.transpose(...)``,
        ``flip = random.randint(0, 1) if self.cfg.flip else 0``, a short side picked by
        ``np.random.choice(self.imgSizes)``), and the repository functions it calls that draw
        (YOLOv4's ``rand_scale(self.cfg.saturation)``), in order, each with the ``if`` that
        gates it (a draw in an ``except`` handler, a random image standing in for a file that
        failed to load, is none); then every setting they and those ``if`` tests read with
        its value (the jitter, hue, flip and mosaic switches of a config, also through the
        locals the draws read: ``dw`` computed from ``self.cfg.jitter``). No row for a
        dataset drawing nothing: a fixed resize and a normalisation are preprocessing, not
        augmentation."""
        for d in file.defs:
            if not d.is_class or not self._is_dataset(f"{file.module}.{d.qual}"):
                continue
            if self._base_only(f"{file.module}.{d.qual}"):
                continue  # its subclasses' rows show what of it they run
            methods = self._sample_methods(f"{file.module}.{d.qual}")
            if methods and _synthesised(*methods[0]):
                continue  # a generator of random samples: its draws are the data
            for owner, fn in methods:
                if (owner.path, fn) not in self._sampled:
                    self._sampled.add((owner.path, fn))
                    self._method_draws(owner, fn)

    def _picked_class_draws(self, files: Sequence[_File]) -> None:
        """The random steps drawn by a class the option files pick by name that is neither
        a dataset nor a torch Module (basicsr's ``model_type: RealESRGANModel``, whose
        ``feed_data`` degrades each batch on the device: a resize drawn among up, down and
        keep with ``self.opt['resize_prob']``, noise with ``self.opt['noise_range']``, a
        JPEG quality from ``self.opt['jpeg_range']``): the training's augmentation, written
        in the training model's step, one row per method that draws, with the settings it
        reads from the option file."""
        found = self.repo.readings.options[0] if self.repo.readings is not None else None
        if found is None or found.framework is None:
            return
        picked = {
            setting.text.strip("'\"")
            for flat in found.files().values()
            for key, setting in flat.items()
            if key.rpartition(".")[2].endswith("type")
        }
        for file in files:
            if self.apart(file.path):
                continue
            for n, d in enumerate(file.defs):
                if not d.is_class or d.owner >= 0 or d.name not in picked:
                    continue
                cls = f"{file.module}.{d.qual}"
                if self._is_dataset(cls) or self.hierarchy.torch_ancestors(cls):
                    continue  # a dataset's rows are its samples'; a network draws dropout
                rows: dict[str, tuple[int, list[tuple[str, str]]]] = {}
                for m, method in enumerate(file.defs):
                    if method.owner != n or method.is_class or (file.path, m) in self._sampled:
                        continue
                    self._sampled.add((file.path, m))
                    values = self._drawn_values(file, m)
                    if values:
                        rows[method.name] = (m, values)
                # a method another one calls as one of its draws (a pool of batches
                # reshuffled, ``self._dequeue_and_enqueue()``) is shown there
                called = {
                    name
                    for _, values in rows.values()
                    for label, text in values
                    if label.startswith("draw ")
                    for name in re.findall(r"\bself\.(\w+)\(", text)
                }
                for name, (m, values) in rows.items():
                    if name not in called:
                        self.add("augmentation", file.defs[m].qual,
                                 file.where(file.defs[m].line), values, MODEL_DRAWN)  # fmt: skip

    def _stored_option(self, file: _File, fn: int, attr: Expr) -> str | None:
        """The option file's value a ``self.x`` read in method ``fn`` holds when its class's
        constructor sets it from a keyed read of the options (Real-ESRGAN's dataset:
        ``self.kernel_list = opt['kernel_list']``), by :meth:`_option_setting`; else None."""
        d = file.defs[fn]
        if d.owner < 0 or attr.target.kind != "Name" or attr.target.name != "self":
            return None
        init = file.first.get(f"{file.defs[d.owner].qual}.__init__")
        if init is None:
            return None
        sets = [a for a in file.defs[init].assigns if a.target.text == attr.text]
        if len(sets) != 1:
            return None
        return self._option_setting(sets[0].value)

    def _option_setting(self, entry: Expr) -> str | None:
        """The value the chosen option file sets for the key of a keyed read
        (``self.opt['sinc_prob']``: ``datasets.train.sinc_prob: 0.1``), when a framework
        trains from the option files and every key of that last name there has one value;
        else None."""
        found = self.repo.readings.options[0] if self.repo.readings is not None else None
        if found is None or found.framework is None or not _keyed_entry(entry):
            return None
        key = entry.parts[1].value
        texts = {
            setting.text
            for flat in found.files().values()
            for k, setting in flat.items()
            if k == key or k.endswith(f".{key}")
        }
        return texts.pop() if len(texts) == 1 else None

    def _is_dataset(self, cls: str) -> bool:
        """Whether ``cls`` is a dataset: a torch ``Dataset`` subclass, or a plain class of the
        repository's own that keeps the sequence protocol a ``DataLoader`` reads (its own or
        inherited ``__getitem__`` and ``__len__``, no torch or other package's base): a
        training set written as ``class Joint(LoadImagesAndLabels)`` over a plain base."""
        if self.hierarchy.is_dataset(cls):
            return True
        return (
            not self.hierarchy.torch_ancestors(cls)
            and not self.hierarchy.foreign_ancestors(cls)
            and self.hierarchy.method(cls, "__getitem__") is not None
            and self.hierarchy.method(cls, "__len__") is not None
        )

    def _base_only(self, cls: str) -> bool:
        """Whether the dataset class ``cls`` runs only as the base of its subclasses: it has
        subclasses, and nothing but a file counted apart or a test builds it itself (a
        training set's plain base, built on its own by an evaluation script). Its own
        ``__getitem__`` is not what the training draws with; the methods its subclasses
        inherit are read through them."""
        subclasses = len(self.hierarchy.inheritors(cls, "__getitem__")) > 1 or bool(
            self.hierarchy.subclass_methods(cls, "__getitem__")
        )
        if not subclasses:
            return False
        sites = [
            path for k in (cls, f"{cls}.__init__") for path, _ in self.repo.call_sites.get(k, ())
        ]
        return all(is_test_path(p) or self.apart(p) for p in sites)

    def _sample_methods(self, cls: str) -> list[tuple[_File, int]]:
        """The dataset class ``cls``'s ``__getitem__`` (its own or inherited) and the methods
        of ``cls`` it reaches through ``self.name(...)`` calls, each once, in the order first
        called (an inherited ``__getitem__`` → the subclass's ``getitem_helper`` → the
        base's ``add_photometric_augs``): where a dataset draws its augmentation."""
        start = self.hierarchy.method(cls, "__getitem__")
        found = self.repo.defs.get(start) if start is not None else None
        if found is None:
            return []
        out = [found]
        for owner, fn in out:
            if len(out) >= _SAMPLE_METHODS:
                break
            calls = sorted(
                (c for c in owner.values.calls if c.function == fn),
                key=lambda c: (c.expr.line, c.expr.col),
            )
            for call in calls:
                chain = call.expr.func.chain()
                if chain is None or len(chain) != 2 or chain[0] != "self":
                    continue
                name = self.hierarchy.method(cls, chain[1])
                got = self.repo.defs.get(name) if name is not None else None
                if got is not None and not got[0].defs[got[1]].is_class and got not in out:
                    out.append(got)
        return [out[0], *self._without_resampling(out[1:])]

    @staticmethod
    def _without_resampling(methods: list[tuple[_File, int]]) -> list[tuple[_File, int]]:
        """``methods`` less those that fetch another sample instead of this one: a method
        calling ``self.__getitem__`` (a fallback for a corrupt file: ``return
        self.__getitem__(randint(0, len(self) - 1))``), or one whose every ``self`` call is
        such a method (``skip_sample`` picking the random or the next one). Their draw
        picks an index, it changes no sample: no augmentation."""

        def own(file: _File, fn: int) -> set[str]:
            names = set()
            for call in file.values.calls:
                chain = call.expr.func.chain() if call.function == fn else None
                if chain is not None and len(chain) == 2 and chain[0] == "self":
                    names.add(chain[1])
            return names

        called = {m: own(*m) for m in methods}
        resampling = {m for m, names in called.items() if "__getitem__" in names}
        while True:
            named = {m[0].defs[m[1]].name for m in resampling}
            more = {
                m for m, names in called.items() if m not in resampling and names and names <= named
            }
            if not more:
                return [m for m in methods if m not in resampling]
            resampling |= more

    def _method_draws(self, file: _File, fn: int) -> None:
        """One row for a dataset method that draws (:meth:`_sample_draws`): its draws, then
        the settings they and their ``if`` tests read with their values (``self.
        color_aug_prob`` of ``if np.random.rand() < self.color_aug_prob``: 0.25, set in
        ``__init__``)."""
        facts = file.fa.syntax
        if facts is not None and any(p.function == file.defs[fn].qual for p in facts.pipelines):
            return  # a pipeline's row shows its steps with these draws (:meth:`_pipelines`)
        if self._draws_only_through_methods(file, fn):
            return
        values = self._drawn_values(file, fn)
        if not values:
            return
        self.add("augmentation", file.defs[fn].qual, file.where(file.defs[fn].line), values,
                 HAND_DRAWN)  # fmt: skip

    def _draws_only_through_methods(self, file: _File, fn: int) -> bool:
        """Whether the one draw of def ``fn`` is a call of another method its own class
        defines that draws (``mel = self.get_mel(path)``, ``get_mel`` adding noise): a plain
        call, whose draws that method's own row shows. A method calling several such methods
        keeps its row: it says in which order they run."""
        drawing = [
            c
            for c in file.values.calls
            if c.function == fn
            and (
                RANDOM_DRAW.match(file.dotted(c.expr.func) or c.expr.func.text)
                or self._draws_inside(file, c.expr)
            )
        ]
        owner = file.defs[fn].owner
        # a method of the same class: its row sits beside this one (a call of an inherited
        # method says which dataset class the training draws with, and stays)
        siblings = {d.name for d in file.defs if owner >= 0 and d.owner == owner}
        if file.defs[fn].name == "__getitem__":
            return False  # the sample's entry: its row names the dataset the training uses
        return len(drawing) == 1 and all(
            (chain := c.expr.func.chain()) is not None
            and len(chain) == 2
            and chain[0] == "self"
            and chain[1] in siblings
            and not RANDOM_DRAW.match(file.dotted(c.expr.func) or c.expr.func.text)
            for c in drawing
        )

    def _drawn_values(
        self, file: _File, fn: int, tests: bool = True, settings: bool = True
    ) -> list[tuple[str, str]]:
        """The random draws def ``fn`` makes (:meth:`_draws`) as ``draw N`` values, the same
        draw made again counted once (YOLOv4's four ``random.randint(-dw, dw)`` offsets),
        then every setting they and their ``if`` tests read, with its value; [] when it draws
        nothing. ``tests=False`` leaves out the draws that are an ``if`` test (a coin flip),
        which a pipeline's steps already show as the condition they run under;
        ``settings=False`` the settings (nothing is resolved for them)."""
        draws, read = self._draws(file, fn, lambda arg, value: value.text)
        if not tests:
            draws = [d for d in draws if not d.startswith("if ")]
        if not draws:
            return []
        counts = {text: draws.count(text) for text in draws}
        shown = [f"{text} ×{n}" if n > 1 else text for text, n in counts.items()]
        values = [(f"draw {n}", text) for n, text in enumerate(shown[:16], 1)]
        if not settings:
            return values
        read += _through_locals(file.defs[fn], read)
        # a flag the method sets itself (``self.if_shuffled = True``) is state, no setting
        state = {a.target.text for a in file.defs[fn].assigns}
        # what a subclass inheriting the method sets in its own constructor is that
        # subclass's (the training set's ``self.augment = augment``): the base's value is
        # not the one the training draws with
        state |= self._set_by_inheritors(file, fn)
        read_settings: dict[str, str] = {}
        options: dict[str, str] = {}  # the option file's value of each key read
        for leaf in read:
            if (option := self._option_setting(leaf)) is not None:
                options.setdefault(leaf.text, option)
                continue
            if (
                leaf.kind != "Attribute"
                or file.dotted(leaf)
                or leaf.text in read_settings
                or leaf.text in state
            ):
                continue
            # ``self.kernel_list`` set in the constructor from ``opt['kernel_list']``
            stored = self._stored_option(file, fn, leaf)
            if stored is not None:
                options.setdefault(leaf.text, stored)
                continue
            found = self.values.resolve(file, fn, leaf, 0)
            # (or the values the configs of the documented runs give it, each its own)
            if (
                (found.literal or found.undecided())
                and found.text != leaf.text
                and found.text not in _EMPTY
            ):
                # an empty list is the records a sample is read from, no amount
                read_settings[leaf.text] = found.show()
        return values + list(options.items())[:_OPTIONS_SHOWN] + list(read_settings.items())[:12]

    def _set_by_inheritors(self, file: _File, fn: int) -> set[str]:
        """The ``self.x`` a subclass that inherits method ``fn`` assigns in its own
        ``__init__``: with that subclass the method reads the subclass's value."""
        d = file.defs[fn]
        if d.owner < 0:
            return set()
        owner = f"{file.module}.{file.defs[d.owner].qual}"
        out: set[str] = set()
        for sub in self.hierarchy.inheritors(owner, d.name):
            init = self.hierarchy.method(sub, "__init__")
            if init is None or init.rpartition(".")[0] == self.hierarchy.resolve(owner):
                continue
            found = self.repo.defs.get(init)
            if found is not None:
                target, index = found
                out.update(a.target.text for a in target.defs[index].assigns)
        return out

    def _draws(
        self, file: _File, fn: int, show: Callable[[Expr, _Val], str], depth: int = 0
    ) -> tuple[list[str], list[Expr]]:
        """The random draws def ``fn`` makes, in order (library draws, a shuffle of the
        sample's points or rows, and the repository functions it calls that draw, followed
        by the draws such a function makes with their amounts: dgcnn's
        ``translate_pointcloud`` scaling by ``np.random.uniform(low=2./3., high=3./2.)``),
        each shown with its arguments (``show`` gives an argument's text from the argument
        and what it resolves to), the name it is stored as and the ``if`` that gates it (the
        draw being the test: ``if np.random.rand() < 0.5``); and the expressions they and
        those tests read."""
        ifs = [
            i
            for i in self._file_ifs(file)
            if i.function == fn and file.defs[fn].line < i.line <= file.defs[fn].end_line
        ]
        draws: list[str] = []
        read: list[Expr] = []
        calls = sorted(
            (c for c in file.values.calls if c.function == fn),
            key=lambda c: (c.expr.line, c.expr.col),
        )
        for call in calls:
            func = call.expr.func
            if call.fallback:
                # an ``except`` handler's stand-in for a sample that failed to load (a
                # random image where the file is corrupt): no augmentation of the samples
                continue
            library = bool(
                RANDOM_DRAW.match(file.dotted(func) or func.text)
                # (a shuffle of the sample's own points or rows, not of the dataset's list
                # of records kept on ``self``: that orders the data, it augments nothing)
                or (
                    _SHUFFLE_DRAW.match(file.dotted(func) or func.text)
                    and not any(a.text.startswith("self.") for a in call.expr.args[:1])
                )
                # another package's ``random_*`` function (basicsr's ``random_add_noise``)
                or (
                    _library_draw(file, func) and self.values.repo_function(file, call.expr) is None
                )
            )
            if not (library or self._draws_inside(file, call.expr)):
                continue
            shown = []
            # (a helper's draw is shown only with amounts of its own: one reading its
            # parameters says nothing the call's row does not)
            params = {n for n, _ in file.defs[fn].params} if depth else set()
            own = True
            for arg in call.expr.args:
                value = self.values.resolve(file, fn, arg, 0)
                own = own and (value.literal or not _reads_names(arg, params))
                shown.append(show(arg, value) if value.literal else arg.text)
                read += _leaves(arg)
            # the amounts passed by keyword are the draw's too (``random_affine(img, labels,
            # degrees=(-5, 5), scale=(0.50, 1.20))``: the rotation and scale ranges)
            for kw in call.expr.keywords:
                if not kw.name:
                    shown.append(kw.text)
                    continue
                value = self.values.resolve(file, fn, kw.target, 0)
                own = own and (value.literal or not _reads_names(kw.target, params))
                told = show(kw.target, value) if value.literal else kw.target.text
                shown.append(f"{kw.name}={told}")
                read += _leaves(kw.target)
            text = f"{func.text}({', '.join(shown)})"
            text += self._defaults_kept(file, call.expr)
            stored = next(
                (
                    a
                    for a in file.defs[fn].assigns
                    if a.line == call.expr.line
                    and a.target.kind == "Name"
                    and call.expr.text in a.value.text
                ),
                None,
            )
            if stored is not None and params:
                # what the stored value reads beside the draw (``a = random.random() *
                # (degrees[1] - degrees[0])``: the helper's parameter ``degrees``)
                inside = {e.name for e in call.expr.walk() if e.kind == "Name"}
                own = own and not _reads_names(stored.value, params - inside)
            if depth and not own:
                continue
            if stored is not None:
                # ``flip = random.randint(0, 1) if self.cfg.flip else 0``: what the draw is
                # for, and the switch around it
                value = stored.value.text.replace(call.expr.text, text, 1)
                text = f"{stored.target.text} = {value}"
                read += _leaves(stored.value)
            gate = next(
                (i for i in sorted(ifs, key=lambda i: -i.line) if i.line <= call.expr.line
                 and (i.line == call.expr.line or call.expr.line <= i.body_end)),
                None,
            )  # fmt: skip
            if gate is not None and gate.line == call.expr.line:
                text = f"if {gate.test.shown()}"  # the draw is the test: a coin flip
                outer = next(
                    (i for i in sorted(ifs, key=lambda i: -i.line) if i.line < gate.line
                     and gate.line <= i.body_end),
                    None,
                )  # fmt: skip
                if outer is not None:  # RAFT's flips, drawn only ``if self.do_flip``
                    text += f" under if {outer.test.shown()}"
                    read += _leaves(outer.test)
            elif gate is not None:
                text += f" under if {gate.test.shown()}"
            if gate is not None:
                read += _leaves(gate.test)
            draws.append(shorten(text, _TERM_LIMIT * 2))
            found = None if library or depth else self.values.repo_function(file, call.expr)
            if found is not None and found[0].defs[found[1]].owner < 0:
                # a module-level helper (a method of the dataset has its own row)
                # what the helper draws, with its amounts (one call deep)
                inner, _ = self._draws(found[0], found[1], show, depth + 1)
                name = found[0].defs[found[1]].name
                draws += [shorten(f"in {name}: {d}", _TERM_LIMIT * 2) for d in inner]
        return draws, read

    def _defaults_kept(self, file: _File, call: Expr) -> str:
        """`` with jitter=.3, hue=.1`` for a repository function that draws and that
        ``call`` leaves numeric parameters of at their defaults (bubbliiiing's
        ``self.get_random_data(line, input_shape)``, its colour jitter in ``hue=.1, sat=0.7,
        val=0.4``): the amounts its draws are made with; "" when it takes none so."""
        found = self.values.repo_function(file, call)
        if found is None or not self._draws_inside(file, call) or call.unpacks():
            return ""
        owner, at = found
        bound = bind_call(owner.defs[at], call)
        kept = [
            f"{param}={default.text}"
            for param, default in owner.defs[at].params
            if param not in bound
            and default is not None
            and default.literal
            and is_numeric(_literal_value(default))
            and not isinstance(_literal_value(default), bool)
        ]
        return f" with {', '.join(kept[:6])}" if kept else ""

    def _draws_inside(self, file: _File, expr: Expr) -> bool:
        """Whether the repository function ``expr`` calls draws a random number itself
        (``rand_scale(s)``: ``random.uniform(1, s)``), one call deep."""
        found = self.values.repo_function(file, expr)
        if found is None:
            return False
        owner, at = found
        return any(
            inner.function == at
            and not inner.fallback  # an ``except`` handler's stand-in sample
            and RANDOM_DRAW.match(owner.dotted(inner.expr.func) or inner.expr.func.text)
            for inner in owner.values.calls
        )

    def _ema_decay(self, stored: str) -> bool:
        """Whether a weight average's row reads its decay from ``stored`` indexed by the
        step (``momentum_schedule[it]``, passed to the teacher's update): a schedule of
        the EMA's decay. The EMA rows are built before the repository's schedules."""
        return any(
            value.startswith(f"{stored}[")
            for i in self.out
            if i.category == "ema"
            for _, value in i.values
        )

    def _wd_schedule(self, stored: str, call: CallValues) -> str:
        """Why the per-step values a schedule function returns, stored as ``stored``, are the
        weight decay's and not the LR's: the name says so (``wd_schedule``), an element of the
        array is written into a param group's weight decay (``param_group["weight_decay"] =
        wd_schedule_values[it]``, in any file, the array passed on under the same name), or
        its starting value is the weight decay (``cosine_scheduler(args.weight_decay, ...)``).
        Empty when none of these holds."""
        name = stored.rsplit(".", 1)[-1]
        if _WD_NAME.search(name):
            return "the weight decay's per-step values"
        for _path, file in sorted(self.files.items()):
            for stmt, _fn in file.assigns:
                target, value = stmt.target, stmt.value
                if (
                    _is_wd_slot(target)
                    and value.kind == "Subscript"
                    and value.parts
                    and value.parts[0].text.rsplit(".", 1)[-1] == name
                ):
                    return f"written into the param groups' weight decay at {file.loc(stmt.line)}"
        first = call.expr.args[0] if call.expr.args else None
        if first is not None and _WD_NAME.search(first.text.rsplit(".", 1)[-1]):
            return f"starting from {first.text}"
        return ""

    def _schedule_body(self, file: _File, fn: int, returned: bool = False) -> list[tuple[str, str]]:
        """How a schedule function written by hand computes the LR it sets (barlowtwins'
        ``adjust_learning_rate``: ``if step < warmup_steps: lr = base_lr * step /
        warmup_steps`` else a cosine ``q = 0.5 * (1 + math.cos(math.pi * step /
        max_steps))`` down to ``end_lr = base_lr * 0.001``, then ``param_groups[0]['lr'] =
        lr * args.learning_rate_weights``): its assignments in order, each with the side of
        the ``if`` it sits on, then each setting they read with its value. Only where the
        function computes the LR and writes it into a param group itself (a function
        handing a value back is shown where its result is stored). ``returned``: the
        function hands the LR back (llm.c's ``get_lr(it)``: a linear warm-up ``return`` under
        ``if it < warmup_iters``, then a cosine decay): its ``return`` values are steps too."""
        d = file.defs[fn]
        stmts: list[AssignValues | _Returned | _Updated] = sorted(
            (
                a
                for a in d.assigns
                if not a.annotated and (a.target.kind == "Name" or _is_lr_slot(a.target))
            ),
            key=lambda a: (a.line, a.order),
        )
        if returned:
            if not d.returns:
                return []
            stmts = sorted(
                [*stmts, *(_Returned(r) for r in d.returns)], key=lambda a: (a.line, a.order)
            )
        elif not any(_is_lr_slot(a.target) for a in stmts) or all(
            _is_lr_slot(a.target) for a in stmts
        ):
            return []  # stargan's ``update_lr(g_lr)`` writes what its caller computed
        # the in-place steps on the names the function computes (MoCo's ``lr *= 0.1 if
        # epoch >= milestone else 1.0`` for each milestone, or ``lr *= 0.5 * (1 + cos(...))``)
        names = {
            a.target.name for a in stmts if isinstance(a, AssignValues) and a.target.kind == "Name"
        }
        spans = dict(d.loop_spans)
        loops = sorted(
            (x for x in file.values.loops if x.function == fn and x.line in spans),
            key=lambda x: -x.line,
        )
        stmts = sorted(
            [
                *stmts,
                *(
                    _Updated(u, next((x for x in loops if x.line < u.line <= spans[x.line]), None))
                    for u in d.updates
                    if u.value is not None and u.node.kind == "Name" and u.node.name in names
                ),
            ],
            key=lambda a: (a.line, a.order),
        )
        # the steps of a branch the run's values skip (``if lr_type == 'cos':`` with
        # the ``'step'`` every caller passes) are another run's schedule: no step, no shape
        every = stmts
        stmts = [a for a in stmts if self.branch_taken(file.path, a.line) is not False]
        ifs = [
            i
            for i in self._file_ifs(file)
            if i.function == fn and i.body_end and d.line < i.line <= d.end_line
        ]
        # the def's own branches, whatever they hold (``if it < warmup: return ...``)
        ifs += [b for b in d.branches if b.body_end and all(b.line != i.line for i in ifs)]
        values: list[tuple[str, str]] = []
        settings: dict[str, str] = {}
        off: set[int] = set()  # the steps of a branch the run's settings leave untaken
        # a step in a branch of a choice by value the run's values never take (Swin's ``if
        # config.TRAIN.LR_SCHEDULER.NAME == 'linear':`` with the name ``cosine``) is another
        # config's schedule: named as skipped, not shown as a step of this one (a switch's
        # other side, ``if args.cos:`` off, stays a step: :data:`off` below)
        inner = sorted(ifs, key=lambda i: -i.line)

        def chosen_out(stmt: AssignValues | _Returned | _Updated) -> IfValues | None:
            near = next((i for i in inner if i.line < stmt.line <= i.end_line), None)
            if near is None or near.test.kind != "Compare":
                return None
            return None if self._assignment_runs(file, fn, stmt.line) else near

        # (named from every step, those the branch tests above already left out included)
        skipped = [near for stmt in every if (near := chosen_out(stmt)) is not None]
        if skipped and len(skipped) < len(every):
            stmts = [a for a in stmts if chosen_out(a) is None]
        else:
            skipped = []
        for n, stmt in enumerate(stmts, 1):
            side = ""
            for near in sorted(ifs, key=lambda i: -i.line):
                body = near.line < stmt.line <= near.body_end
                if body or near.body_end < stmt.line <= near.end_line:
                    side = f"{'' if body else 'else of '}if {near.test.shown()}: "
                    # a switch the settings give (MoCo's ``if args.cos:``, off by default):
                    # its setting shown, its formula no part of the schedule's shape
                    self._schedule_settings(file, fn, near.test, settings)
                    found = self.values.resolve(file, fn, near.test, 0)
                    test = found.text if found.literal else None
                    if test in ("False", "True") and (test == "True") != body:
                        off.add(n)
                    break
            if isinstance(stmt, _Returned):
                text = f"return {stmt.value.text}"
            elif isinstance(stmt, _Updated):
                text = stmt.text()
                if stmt.loop is not None:  # the milestones a step's loop walks
                    self._schedule_settings(file, fn, stmt.loop.iter, settings)
            else:
                text = f"{stmt.target.text} = {stmt.value.text}"
            values.append((f"step {n}", side + shorten(text, _TERM_LIMIT * 2)))
            self._schedule_settings(file, fn, stmt.value, settings)
        # a helper of the same class or file the steps call computes the factor
        # (attention-is-all-you-need's ``self._get_lr_scale()``: the Noam formula)
        helpers = self._schedule_helpers(file, fn, [a.value for a in stmts])
        for call, index, returned in helpers:
            values.append((call, shorten(returned.text, _TERM_LIMIT * 2)))
            for a in file.defs[index].assigns:
                self._schedule_settings(file, index, a.value, settings)
        formulas = [a.value.text for n, a in enumerate(stmts, 1) if n not in off]
        formulas += [r.text for _, _, r in helpers]
        shape = [
            word
            for word, hit in (
                (
                    "warm-up",
                    any(re.search(r"warm", i.test.text, re.I) for i in ifs)
                    or any(re.search(r"warm", t, re.I) for t in formulas[len(stmts) :]),
                ),
                # (a step building a cosine scheduler: timm's ``CosineLRScheduler(...)``)
                ("cosine", any(re.search(r"\bcos\(|\bCosine\w*\(", t) for t in formulas)),
                ("inverse square root of the step", any(_INVERSE_ROOT.search(t) for t in formulas)),
            )
            if hit
        ]
        if shape:
            values.insert(0, ("shape", " then ".join(shape)))
        if skipped:
            tests = dict.fromkeys(f"if {i.test.shown()}" for i in skipped)
            values.append(("not taken with the run's values", "; ".join(tests)))
        return values + list(settings.items())

    def _hand_smoothing(self, file: _File, index: int, given: set[str]) -> list[tuple[str, str]]:
        """Label smoothing a loss writes by hand (attention-is-all-you-need's ``cal_loss``:
        ``eps = 0.1`` then ``one_hot * (1 - eps) + (1 - one_hot) * eps / (n_class - 1)``;
        ``confidence = 1. - smoothing``): a target or a weight blended as ``1 - x`` and ``x``
        where ``x`` is a literal fraction, in the def ``index`` or, for a class, its
        methods. The ``if`` it sits under says when it runs. None where ``x`` is no literal
        below one half (``(1 - p) ** gamma`` of a focal loss reads a probability), and none
        where the row already shows the fraction as an argument (timm's
        ``LabelSmoothingCrossEntropy(smoothing=0.1)``: ``given`` holds its keys)."""
        d = file.defs[index]
        fns = (
            [i for i, m in enumerate(file.defs) if m.owner == index and not m.is_class]
            if d.is_class
            else [index]
        )
        for fn in fns:
            for stmt in file.defs[fn].assigns:
                for node in stmt.value.walk():
                    if node.kind != "BinOp" or node.name != "Sub" or len(node.parts) != 2:
                        continue
                    one, x = node.parts
                    if one.value not in (1, 1.0) or x.kind not in ("Name", "Attribute"):
                        continue
                    under = next((i for i in stmt.ifs), None)
                    # a focal loss's ``1 - alpha`` (0.25) blends classes, smooths nothing:
                    # the fraction or the branch is named for smoothing
                    named = _SMOOTHING_NAME.search(x.name) or (
                        under is not None and "smooth" in under.test.text.lower()
                    )
                    if not named or x.name in given:
                        continue
                    found = self.values.resolve(file, fn, x, 0)
                    number = _literal_number(found.text) if found.literal else None
                    if number is None or not 0 < number <= 0.5:
                        continue
                    when = f", under if {under.test.shown()}" if under is not None else ""
                    formula = f"{stmt.target.text} = {stmt.value.text}"
                    return [
                        (
                            "label smoothing (by hand)",
                            f"{x.text} = {found.show()}: "
                            f"{shorten(formula, _TERM_LIMIT * 2)} at {file.loc(stmt.line)}{when}",
                        )
                    ]
        return []

    def _schedule_settings(
        self, file: _File, fn: int, expr: Expr, settings: dict[str, str]
    ) -> None:
        """The settings ``expr`` reads in def ``fn`` (``self.lr_mul``, ``self.d_model``)
        with their values followed to literals, added to ``settings`` by their text. A
        counter the file steps in place (``self.n_steps += 1``) is the step, no setting: its
        starting value says nothing of the schedule. A module global the def reads
        (llama2.c's ``warmup_iters``, ``min_lr``: neither a parameter nor assigned in the def)
        is a setting too."""
        counters = _stepped_counters(file)
        d = file.defs[fn]
        local = {p for p, _ in d.params} | {
            a.target.name for a in d.assigns if a.target.kind == "Name"
        }
        for leaf in _leaves(expr):
            if leaf.text in settings or file.dotted(leaf):
                continue
            if leaf.kind == "Name":
                if leaf.name in local or leaf.name in d.loop_names:
                    continue
            elif leaf.kind != "Attribute":
                continue
            if leaf.text in counters:
                continue
            found = self.values.resolve(file, fn, leaf, 0)
            if (found.literal or found.rewritten) and found.text != leaf.text:
                settings[leaf.text] = found.show()

    def _schedule_helpers(
        self, file: _File, fn: int, exprs: Sequence[Expr]
    ) -> list[tuple[str, int, Expr]]:
        """(call text, def index, returned expression) of each helper with one ``return``
        that ``exprs`` call without arguments: a method of ``fn``'s class through ``self``
        or a function of the same file (the factor a hand-written schedule multiplies the LR
        by). A helper that takes arguments is shown where it is called, not inlined."""
        owner = file.defs[fn].owner
        found: list[tuple[str, int, Expr]] = []
        for expr in exprs:
            for node in expr.walk():
                if node.kind != "Call" or node.args or node.keywords:
                    continue
                func = node.func
                if func.kind == "Attribute" and func.target.text == "self" and owner >= 0:
                    wanted, of = func.name, owner
                elif func.kind == "Name":
                    wanted, of = func.name, -1
                else:
                    continue
                for index, d in enumerate(file.defs):
                    if d.is_class or d.name != wanted or d.owner != of or len(d.returns) != 1:
                        continue
                    if node.text not in {c for c, _, _ in found}:
                        found.append((node.text, index, d.returns[0]))
                    break
        return found

    @staticmethod
    def _unpassed_defaults(
        file: _File, node: DefValues, values: Sequence[tuple[str, str]], call: Expr
    ) -> list[tuple[str, str]]:
        """The literal defaults of a repository class's constructor parameters the call
        leaves as they are (barlowtwins' ``LARS(parameters, lr=0, weight_decay=...)`` runs
        with ``momentum=0.9, eta=0.001``): torch's own optimizers document theirs, a custom
        one's are only in its code. None where the call unpacks ``**kwargs``."""
        init = file.first.get(f"{node.qual}.__init__")
        if init is None or call.unpacks():
            return []
        passed = {name for name, _ in values}
        where = file.loc(file.defs[init].line)
        return [
            (name, f"{default.text} (default at {where})")
            for name, default in file.defs[init].params
            if name not in passed and default is not None and default.literal
        ]

    def _loss_weight(self, file: _File, call: CallValues) -> list[tuple[str, str]]:
        """The weight a loss stored by name is given beside it (RITM's
        ``loss_cfg.instance_loss = NormalizedFocalLossSigmoid(...)`` then
        ``loss_cfg.instance_loss_weight = 1.0``, read by the trainer as ``name + '_weight'``)."""
        stored = call.stored
        if stored is None or stored.kind not in ("Name", "Attribute"):
            return []
        names = {stored.full() + suffix for suffix in _WEIGHT_SUFFIXES}
        fn = call.function
        return [
            ("weight", self.values.describe(file, fn, a.value))
            for a, scope in file.assigns
            if scope == fn and a.target.full() in names and not a.annotated
        ][:1]

    def _loss_terms(self, file: _File, call: CallValues) -> list[tuple[str, str]]:
        """What a loss row adds to the call's arguments: the weight it is multiplied by
        (:meth:`_loss_factor`) and how often it is applied (:meth:`_lazy_every`)."""
        return self._loss_factor(file, call) + self._lazy_every(file, call)

    def _module_factor(self, file: _File, call: CallValues) -> list[tuple[str, str]]:
        """The weight of a loss module built into a name and called elsewhere: an attribute
        called in another method of its class (YOLOX's ``self.iou_loss = IOUloss(...)`` in
        ``__init__``, then ``loss_iou = (self.iou_loss(...)).sum() / num_fg`` and
        ``reg_weight * loss_iou`` in ``get_losses``), a local called in the same function
        (PyTorch-YOLOv3's ``BCEcls = nn.BCEWithLogitsLoss(...)``, then ``lcls +=
        BCEcls(...)``), a module-level name called in the file's functions (Retinaface's
        ``criterion = MultiBoxLoss(...)``, then ``loss_l, loss_c, loss_landm =
        criterion(...)`` in ``train()``): the weight found at the first call that has one
        (:meth:`_loss_factor`)."""
        stored = call.stored
        if stored is None:
            return []
        fn = call.function
        if stored.kind == "Attribute" and stored.target.kind == "Name":
            if stored.target.name != "self" or fn < 0 or file.defs[fn].owner < 0:
                return []
            owner = file.defs[fn].owner
            calls = [
                other
                for other in file.values.calls
                if other.expr.func.text == stored.text
                and other.function >= 0
                and file.defs[other.function].owner == owner
            ]
        elif stored.kind == "Name":
            name = stored.name
            calls = [
                other
                for other in file.values.calls
                if other.expr.func.kind == "Name"
                and other.expr.func.name == name
                and other.expr.line > stored.line
                and (
                    other.function == fn
                    # a module-level instance, in a function that binds no name of its own so
                    or (fn < 0 and other.function >= 0 and not _binds(file, other.function, name))
                )
            ]
        else:
            return []
        for other in calls:
            found = self._loss_factor(file, other)
            if found:
                return found
        if stored.kind == "Name":
            return self._injected_factor(file, call, stored.name)
        return []

    def _injected_factor(self, file: _File, call: CallValues, name: str) -> list[tuple[str, str]]:
        """The weight a loss module handed to a repository Module's constructor is given
        in that Module's methods (semantic-segmentation's ``crit = nn.NLLLoss(...)`` passed
        to ``SegmentationModule(net_encoder, net_decoder, crit, cfg.TRAIN.deep_sup_scale)``,
        whose ``forward`` adds ``loss_deepsup * self.deep_sup_scale``, ``loss_deepsup =
        self.crit(...)``: the deep supervision's weight). Shown by the method it is in."""
        for site in file.values.calls:
            if site.expr.line <= call.expr.line or not (
                site.function == call.function or call.function < 0
            ):
                continue
            if not any(
                a.kind == "Name" and a.name == name for a in site.expr.parts[1:]
            ) and not any(
                k.target.kind == "Name" and k.target.name == name for k in site.expr.keywords
            ):
                continue
            built = self.values.repo_function(file, site.expr, classes=True)
            if built is None:
                continue
            owner, cls = built
            init = owner.first.get(f"{owner.defs[cls].qual}.__init__")
            if init is None:
                continue
            params = [
                p
                for p, passed in bind_call(owner.defs[init], site.expr).items()
                if passed.kind == "Name" and passed.name == name
            ]
            attrs = {
                a.target.text
                for a in owner.defs[init].assigns
                if a.target.kind == "Attribute"
                and a.target.target.text == "self"
                and a.value.kind == "Name"
                and a.value.name in params
            }
            for other in owner.values.calls:
                if (
                    other.expr.func.text in attrs
                    and other.function >= 0
                    and owner.defs[other.function].owner == cls
                ):
                    found = self._loss_factor(owner, other) or self._setting_factor(
                        owner, other, partial(self._passed_setting, file, site, owner, init)
                    )
                    if found:
                        method = owner.defs[other.function].qual
                        return [
                            (
                                f"{key} in {method}",
                                f"{text} ({other.expr.text}, {owner.loc(other.expr.line)})",
                            )
                            for key, text in found
                        ]
        return []

    def _passed_setting(
        self, caller: _File, site: CallValues, owner: _File, init: int, attr: Expr
    ) -> str:
        """What the construction ``site`` gives the attribute ``attr`` (``self.X``) that
        ``__init__`` (def ``init`` of ``owner``) sets from one of its parameters: the
        argument as the caller has it, else the parameter's default; "" when that is
        ``None`` (the term is switched off: ``if self.deep_sup_scale is not None``)."""
        d = owner.defs[init]
        for a in d.assigns:
            if a.target.text != attr.text or a.value.kind != "Name":
                continue
            passed = bind_call(d, site.expr).get(a.value.name) or dict(d.params).get(a.value.name)
            if passed is None or _is_none(passed):
                return ""
            return self.values.describe(caller, site.function, passed)
        return self.values.describe(owner, init, attr)

    def _setting_factor(
        self, file: _File, call: CallValues, show: Callable[[Expr], str]
    ) -> list[tuple[str, str]]:
        """The factor a loss stored by name is multiplied by later in the same method when
        it is a setting of the object (``loss_deepsup * self.deep_sup_scale``) that
        reaches no literal (a config entry the scan cannot read): the setting as written,
        with what ``show`` says its value is."""
        stored = call.stored
        fn = call.function
        if stored is None or stored.kind != "Name" or fn < 0:
            return []
        for a, scope in file.assigns:
            if scope != fn or a.line <= call.expr.line:
                continue
            for node in _outer_products(a.value):
                factors = _factors(node)
                hit = [f for f in factors if f.kind == "Name" and f.name == stored.name]
                weights = [f for f in factors if f not in hit]
                if len(hit) != 1 or not weights:
                    continue
                if not all(w.kind == "Attribute" and w.target.text == "self" for w in weights):
                    continue
                each = [show(w) for w in weights]
                if not all(each):
                    return []
                shown = " * ".join(each)
                return [("weight", f"{' * '.join(w.text for w in weights)} = {shown}")]
        return []

    def _step_weights(self, file: _File) -> None:
        """The weights the training step gives the terms of the loss it differentiates when
        no loss row carries them: a term the model returns (vq-vae-2's ``loss = recon_loss
        + latent_loss_weight * latent_loss``, ``latent_loss_weight = 0.25``, the commitment
        loss its ``VQVAE.forward`` computes), each weight followed to a number other than
        1. A term stored from a loss call that is a row already has its weight there
        (:meth:`_loss_factor`)."""
        for call in file.values.calls:
            func = call.expr.func
            fn = call.function
            if not (call.statement and call.expr.callee() == "backward" and fn >= 0):
                continue
            if func.kind != "Attribute" or func.target.kind != "Name":
                continue
            total = file.local_value(fn, func.target.name, call.expr.line)
            if total is None or total.kind != "BinOp":
                continue
            rows = {
                i.where.line for i in self.out if i.category == "loss" and i.where.path == file.path
            }
            covered = {
                c.stored.name
                for c in file.values.calls
                if c.function == fn
                and c.stored is not None
                and c.stored.kind == "Name"
                and c.expr.line in rows
            }
            for node in _outer_products(total):
                factors = _factors(node)
                read = [(f, self.values.resolve(file, fn, f, 0)) for f in factors]
                terms = [f for f, value in read if f.kind == "Name" and not value.literal]
                if len(terms) != 1 or terms[0].name in covered:
                    continue
                # a term written inline in the step (``g_loss_rec = torch.mean(torch.abs(x
                # - x_rec))``): what kind of loss it is, beside its weight
                formula = file.local_value(fn, terms[0].name, total.line)
                kind = _inline_loss_kind(formula, terms[0].name) if formula is not None else None
                typed = [("type", kind), ("term", formula.text)] if kind and formula else []
                weights = [(f, value) for f, value in read if f is not terms[0]]
                where = file.where(total.line)
                note = f"a term of the loss the training step differentiates: {total.text}"
                if not weights or not all(
                    f.kind in ("Name", "Attribute", "Constant") and value.literal
                    for f, value in weights
                ):
                    continue
                numbers = [_literal_number(value.text) for _, value in weights]
                if any(n is None for n in numbers) or (all(n == 1 for n in numbers) and not typed):
                    continue
                shown = "; ".join(
                    value.show() if f.kind == "Constant" else f"{f.text} = {value.show()}"
                    for f, value in weights
                )
                values = [*typed, ("weight", shown)]
                self.add("loss", f"weight of {terms[0].name}", where, values, note)
            for term in _summands(total):
                if term.kind != "Name" or term.name in covered or term is total:
                    continue
                formula = file.local_value(fn, term.name, total.line)
                label = term.name
                if formula is not None and formula.kind == "Name" and formula.name != term.name:
                    # ``loss = img_loss`` before ``loss = loss + img_loss0``: the term it holds
                    label = formula.name
                    formula = file.local_value(fn, formula.name, formula.line)
                    if label in covered:
                        continue
                kind = _inline_loss_kind(formula, term.name) if formula is not None else None
                defined: list[tuple[str, str]] = []
                if kind is None and formula is not None:
                    # ``img2mse(rgb, target)`` with ``img2mse = lambda x, y: torch.mean((x -
                    # y) ** 2)`` at the top of the file or of a module it imports
                    found = self._lambda_body(file, formula)
                    if found is not None:
                        kind = _inline_loss_kind(found[0], term.name)
                        defined = [("defined", f"{found[0].text} ({found[1]})")]
                if kind is None or formula is None:
                    continue
                values = [("type", kind), ("term", formula.text), *defined, ("weight", "1")]
                note = f"a term of the loss the training step differentiates: {total.text}"
                # (one row per term: a reduced output's row of the same term gives way)
                self.out = [
                    i
                    for i in self.out
                    if not (
                        i.category == "loss"
                        and i.name == term.name
                        and i.where.path == file.path
                        and i.note.startswith(_MODEL_TERM)
                    )
                ]
                self.add("loss", f"term {label}", file.where(total.line), values, note)

    def _lambda_body(self, file: _File, call: Expr) -> tuple[Expr, str] | None:
        """(body, place) of the lambda a call's bare name is bound to at the top level of
        ``file`` or of the repository module it imports the name from (``from helpers
        import *`` included); None for anything else."""
        if call.kind != "Call" or call.func.kind != "Name":
            return None
        name = call.func.name
        facts = file.fa.syntax
        modules = [file.module]
        if facts is not None:
            imported = dict(facts.imports).get(name)
            if imported is not None:
                modules.append(imported.rpartition(".")[0])
            # ``from helpers import *``: recorded among the package's uses as ``helpers.*``
            modules += [n[:-2] for _, names in facts.package_uses for n in names if n[-2:] == ".*"]
        for module in modules:
            owner = next((f for f in self.files.values() if module in f.modules), None)
            if owner is None:
                continue
            for a in owner.values.assigns:
                if (
                    a.target.kind == "Name"
                    and a.target.name == name
                    and a.value.kind == "Lambda"
                    and a.value.parts
                ):
                    return a.value.parts[-1], owner.loc(a.line)
        return None

    def _accumulated_loss(self, file: _File) -> None:
        """The loss the training step sums in place from terms written out with torch ops
        (SwAV: ``loss = 0``; per crop ``subloss -= torch.mean(torch.sum(q *
        F.log_softmax(x, dim=1), dim=1))`` with ``x = output[...] / args.temperature``;
        ``loss += subloss / (np.sum(args.nmb_crops) - 1)``; ``loss /= len(...)``): one loss
        row at its first update, with the updates in order, what kind each written-out
        term is, and the settings they read followed to their values. A sum of calls of
        the run's own criterion objects (``loss += criterion(out, y)``) is left to that
        criterion's row."""
        for call, fn, target in _differentiated(file):
            if target.kind != "Name":
                continue
            d = file.defs[fn]
            before = call.expr.line
            updates = [
                u
                for u in d.updates
                if u.node.kind == "Name" and u.node.name == target.name and u.line < before
            ]
            start = file.local_value(fn, target.name, updates[0].line) if updates else None
            if start is None or start.kind != "Constant" or any(u.value is None for u in updates):
                continue
            # each name an update adds, with its own in-place updates (``subloss -= ...``)
            steps: list[UpdateValues] = []
            seen: set[str] = set()
            todo = list(updates)
            while todo:
                u = todo.pop(0)
                steps.append(u)
                for leaf in u.value.walk() if u.value is not None else ():
                    if leaf.kind != "Name" or leaf.name in seen or leaf.name == target.name:
                        continue
                    seen.add(leaf.name)
                    todo += [
                        v
                        for v in d.updates
                        if v.node.kind == "Name" and v.node.name == leaf.name and v.line < before
                    ]
            formulas = [u.value for u in steps if u.value is not None]
            calls = [e for f in formulas for e in f.walk() if e.kind == "Call"]
            if not calls or not all(self._written_out(file, c) for c in calls):
                continue  # a criterion object's call, or a local function's: not written out
            kinds = [k for f in formulas if (k := _written_loss_kind(f)) is not None]
            if not kinds:
                continue
            values: list[tuple[str, str]] = [("type", kinds[0])]
            values += [
                (f"step {n}", u.statement)
                for n, u in enumerate(sorted(steps, key=lambda u: u.line), 1)
            ]
            # the settings the terms read, through the locals they are computed from
            # (``x = output[...] / args.temperature``)
            read: list[Expr] = []
            for f in formulas:
                for leaf in _leaves(f):
                    local = file.local_value(fn, leaf.name, before) if leaf.kind == "Name" else None
                    read += _leaves(local) if local is not None else [leaf]
            shown: dict[str, str] = {}
            for leaf in read:
                if leaf.kind != "Attribute" or leaf.text in shown or file.dotted(leaf):
                    continue
                found = self.values.resolve(file, fn, leaf, 0)
                if found.literal and found.text != leaf.text:
                    shown[leaf.text] = found.show()
            values += sorted(shown.items())
            note = (
                "written out in the training step and summed in place; the step differentiates it"
            )
            self.add("loss", f"loss computed in {d.qual}", file.where(steps[0].line), values, note)

    @staticmethod
    def _written_out(file: _File, call: Expr) -> bool:
        """``call`` is a library function (``torch.sum``, ``np.sum``), a builtin (``len``)
        or a method of a value (``x.mean()``): a step of a formula written out, not a call
        of the run's own criterion objects or functions (``criterion(out, y)``,
        ``self.loss_fn(...)``)."""
        func = call.func
        if file.dotted(func) is not None:
            return True
        if func.kind == "Name":
            return func.name in _BUILTIN_NAMES
        return func.kind == "Attribute" and func.target.text != "self"

    def _forward_loss(self, file: _File) -> None:
        """The loss a model computes in its own ``forward`` when the training step
        differentiates what the model returns (barlowtwins' ``loss = model.forward(y1,
        y2)`` then ``scaler.scale(loss).backward()``, ``BarlowTwins.forward`` ending in
        ``loss = on_diag + self.args.lambd * off_diag; return loss``): a loss row at that
        formula, each setting it reads followed to its value. A forward returning one call
        (``return self.criterion(out, y)``) leaves the row to that call's loss."""
        for call, fn, target in _differentiated(file):
            if target.kind != "Name" or file.local_value(fn, target.name, call.expr.line) is None:
                # ``logits, self.loss = model(x, y)`` then ``self.loss.backward()``
                self._unpacked_loss(file, fn, target, call.expr.line)
                continue
            output = file.local_value(fn, target.name, call.expr.line)
            if output is not None and output.kind == "BinOp":
                # ``loss_ita, loss_itm, loss_lm = model(image, caption, alpha=alpha)`` then
                # ``loss = loss_ita + loss_itm + loss_lm``: the terms the forward returns
                self._summed_terms(file, fn, target.name, output, call.expr.line)
                continue
            if output is None or output.kind != "Call":
                continue
            func = output.func
            if func.kind == "Attribute" and func.name == "forward":
                func = func.target
            if func.kind != "Name":
                continue
            built = self._module_built(file, fn, func.name, output.line)
            if built is None:
                continue
            owner, index = built
            forward = owner.first.get(f"{owner.defs[index].qual}.forward")
            if forward is None:
                continue
            self._returned_loss(owner, forward, file.loc(call.expr.line))

    def _summed_terms(
        self, file: _File, fn: int, differentiated: str, total: Expr, line: int
    ) -> None:
        """The loss terms a training step sums (``loss = loss_ita + loss_itm + loss_lm``)
        after unpacking them from one call of a repository model (``loss_ita, loss_itm,
        loss_lm = model(image, caption, alpha=alpha)``): each term's assignment in the
        model's ``forward`` is a loss row, the formula written there (BLIP's contrastive
        ``loss_ita = (loss_i2t+loss_t2i)/2``, with ``loss_i2t = -torch.sum(F.log_softmax(
        sim_i2t, dim=1)*sim_i2t_targets,dim=1).mean()``), noted with the sum the step
        differentiates; a term whose line already has a loss row (a torch loss call) keeps
        that row, as one the step runs."""
        names = [leaf.name for leaf in _leaves(total) if leaf.kind == "Name"]
        if len(names) < 2:
            return
        bound = [
            a
            for a in file.defs[fn].assigns
            if a.line < line and a.target.kind == "Tuple" and a.value.kind == "Call"
            and set(names) <= {p.text for p in a.target.parts}
        ]  # fmt: skip
        if not bound:
            self._reduced_outputs(file, fn, differentiated, total, names, line)
            return
        stmt = max(bound, key=lambda a: a.line)
        found = self._unpacked_forward(file, fn, stmt)
        if found is None:
            return
        owner, forward = found
        d = owner.defs[forward]
        rows = {
            i.where.line for i in self.out if i.category == "loss" and i.where.path == owner.path
        }
        parts = [p.text for p in stmt.target.parts]
        summed = shorten(total.text, _TERM_LIMIT)
        for returned in d.returns:
            if returned.kind != "Tuple" or len(returned.parts) != len(parts):
                continue
            for name in names:
                element = returned.parts[parts.index(name)]
                if element.kind != "Name":
                    continue
                assigned = [
                    a
                    for a in d.assigns
                    if a.target.kind == "Name" and a.target.name == element.name
                    and a.line < returned.line
                ]  # fmt: skip
                if not assigned:
                    continue
                a = max(assigned, key=lambda a: a.line)
                self.stepped.add((owner.path, a.line))
                if a.line in rows:
                    continue
                values = [("loss", shorten(a.value.text, _TERM_LIMIT))]
                # the terms it combines, as the forward computes them a line or so above
                for leaf in _leaves(a.value):
                    inner = [
                        b
                        for b in d.assigns
                        if leaf.kind == "Name" and b.target.kind == "Name"
                        and b.target.name == leaf.name and b.line < a.line
                    ]  # fmt: skip
                    if inner and leaf.name not in dict(values):
                        b = max(inner, key=lambda b: b.line)
                        values.append((leaf.name, shorten(b.value.text, _TERM_LIMIT)))
                note = (
                    f"a term {d.qual} returns; the training step differentiates "
                    f"{differentiated} = {summed} at {file.loc(line)}"
                )
                self.add("loss", f"{element.name} computed in {d.qual}", owner.where(a.line),
                         values, note)  # fmt: skip
            return

    def _hand_loss_scale(self, file: _File) -> None:
        """Loss scaling written by hand: a backward pass of the loss times a scale
        (guided-diffusion's fp16 trainer: ``loss_scale = 2 ** self.lg_loss_scale``, then
        ``(loss * loss_scale).backward()``, the scale lowered when a gradient overflows and
        raised a little each step, the gradients unscaled into float32 master weights): the
        mixed precision of a training with no autocast and no GradScaler. A row with the
        scale, the settings it is computed from and when it runs."""
        for call, fn, target in _differentiated(file):
            if target.kind != "BinOp" or not re.fullmatch(r"[^*]+\*[^*]+", target.text):
                continue
            scales = [
                p
                for p in target.parts
                if p.kind in ("Name", "Attribute") and _SCALE_NAME.search(p.name)
            ]
            if len(scales) != 1:
                continue
            scale = scales[0]
            values = [("scaled loss", target.text)]
            local = (
                file.local_value(fn, scale.name, call.expr.line) if scale.kind == "Name" else None
            )
            if local is not None:
                values.append((scale.text, local.text))
                values += [
                    (leaf.text, self.values.describe(file, fn, leaf))
                    for leaf in _leaves(local)
                    if leaf.kind == "Attribute"
                ]
            else:
                values.append((scale.text, self.values.describe(file, fn, scale)))
            when = call.when
            if when is not None:
                held = self.values.describe(file, fn, when)
                values.append(("when", when.text if held == when.text else f"{when.text} = {held}"))
            note = (
                "loss scaling written by hand (no autocast, no GradScaler): MindSpore's "
                "loss-scale manager (mindspore.amp.DynamicLossScaleManager, or "
                "mindspore.amp.DynamicLossScaler in a hand-written step)"
            )
            self.add("amp", "loss scaled by hand", file.where(call.expr.line), values, note)

    def _reduced_outputs(
        self, file: _File, fn: int, differentiated: str, total: Expr, names: list[str], line: int
    ) -> None:
        """The terms of a differentiated sum that reduce a tensor the model call hands back
        in a tuple (VITS's ``loss_dur = torch.sum(l_length.float())`` after ``y_hat,
        l_length, ... = net_g(x, x_lengths, spec, spec_lengths)``, summed into
        ``loss_gen_all``): a loss the network computes in its forward (the duration
        predictor's), no loss call of the step shows it. One row per such term, at its
        reduction."""
        summed = shorten(total.text, _TERM_LIMIT)
        for name in names:
            bound = _name_assignments(file.defs[fn], name, line)
            if not bound:
                continue
            a = max(bound, key=lambda a: a.line)
            value = a.value
            if (
                value.kind != "Call"
                or value.func.kind != "Attribute"
                or value.func.name not in _REDUCTIONS
            ):
                continue
            if any(
                i.category == "loss" and i.name == f"term {name}" and i.where.path == file.path
                for i in self.out
            ):
                continue  # the summed terms' own row says what kind of loss it is
            # the tensors it reads, not the modules (``torch`` of ``torch.sum(...)``)
            read = {e.name for e in value.walk() if e.kind == "Name" and e.name}
            read -= set(file.imports)
            if len(read) != 1:
                continue
            tensor = next(iter(read))
            unpacked = [
                b
                for b in file.defs[fn].assigns
                if b.line < a.line
                and b.target.kind == "Tuple"
                and b.value.kind == "Call"
                and b.value.func.kind in ("Name", "Attribute")
                and b.value.func.text.partition(".")[0] not in ("torch", "F", "np", "numpy")
                and any(
                    e.kind == "Name" and e.name == tensor for p in b.target.parts for e in p.walk()
                )
            ]
            if not unpacked:
                continue
            model = max(unpacked, key=lambda b: b.line).value
            values = [
                ("loss", shorten(value.text, _TERM_LIMIT)),
                (tensor, f"returned by {shorten(model.text, _TERM_LIMIT)}"),
            ]
            note = (
                f"{_MODEL_TERM}; the training step differentiates "
                f"{differentiated} = {summed} at {file.loc(line)}"
            )
            self.add("loss", name, file.where(a.line), values, note)

    def _unpacked_loss(self, file: _File, fn: int, target: Expr, before: int) -> None:
        """The loss a model's ``forward`` computes and returns in a tuple the step unpacks
        and differentiates (minGPT's ``logits, self.loss = model(x, y)``, then
        ``self.loss.backward()``, ``GPT.forward`` returning ``logits, loss``): the loss
        rows at the assignments of that element in ``forward`` are what the step runs,
        kept even where ``forward``'s other callers (a ``generate`` calling ``self(idx)``)
        leave its targets at None (:meth:`_untaken_rows`)."""
        bound = [
            a
            for a in file.defs[fn].assigns
            if a.line < before and a.target.kind == "Tuple" and a.value.kind == "Call"
            and any(p.text == target.text for p in a.target.parts)
        ]  # fmt: skip
        if not bound:
            return
        stmt = max(bound, key=lambda a: a.line)
        index = next(i for i, p in enumerate(stmt.target.parts) if p.text == target.text)
        found = self._unpacked_forward(file, fn, stmt)
        if found is None:
            return
        owner, forward = found
        for returned in owner.defs[forward].returns:
            if returned.kind != "Tuple" or len(returned.parts) != len(stmt.target.parts):
                continue
            element = returned.parts[index]
            if element.kind != "Name":
                continue
            for a in owner.defs[forward].assigns:
                if (
                    a.target.kind == "Name"
                    and a.target.name == element.name
                    and a.line < returned.line
                ):
                    self.stepped.add((owner.path, a.line))

    def _unpacked_forward(
        self, file: _File, fn: int, stmt: AssignValues
    ) -> tuple[_File, int] | None:
        """(file, def) of the ``forward`` of the repository model whose call the tuple
        assignment ``stmt`` unpacks (``logits, loss = model(x, y)``, or ``model.forward(
        ...)``), in def ``fn``; None when the callee is no known model or has no forward."""
        func = stmt.value.func
        if func.kind == "Attribute" and func.name == "forward":
            func = func.target
        built = self._model_of(file, fn, func, stmt.line, 0)
        if built is None:
            return None
        owner, cls = built
        forward = owner.first.get(f"{owner.defs[cls].qual}.forward")
        return None if forward is None else (owner, forward)

    def _model_of(
        self, file: _File, fn: int, expr: Expr, before: int, depth: int
    ) -> tuple[_File, int] | None:
        """(file, class) of the repository Module the name or ``self`` attribute ``expr``
        read in def ``fn`` holds: built there (:meth:`_module_built`), or an element of a
        tuple assignment (``model, config = self.model, self.config``), an attribute the
        class's ``__init__`` sets from its parameter, or a parameter, followed to what the
        callers pass (a few calls deep)."""
        if depth > MAX_DEPTH:
            return None
        if expr.kind == "Call":
            return self._repo_module(file, expr)
        if fn < 0:
            # a script's own code (``model = GPT(config.model)`` under ``__main__``)
            bound = [
                a
                for a in file.values.assigns
                if a.line < before and a.target.kind == "Name" and expr.kind == "Name"
                and a.target.name == expr.name
            ]  # fmt: skip
            last = max(bound, key=lambda a: a.line).value if bound else None
            return self._repo_module(file, last) if last is not None else None
        d = file.defs[fn]
        if expr.kind == "Attribute" and expr.target.kind == "Name" and expr.target.name == "self":
            if d.owner < 0:
                return None
            init = file.first.get(f"{file.defs[d.owner].qual}.__init__")
            if init is None:
                return None
            sets = [
                a
                for a in file.defs[init].assigns
                if a.target.kind == "Attribute" and a.target.text == expr.text
            ]
            for a in sets:
                found = self._model_of(file, init, a.value, a.line + 1, depth + 1)
                if found is not None:
                    return found
            return None
        if expr.kind != "Name":
            return None
        built = self._module_built(file, fn, expr.name, before)
        if built is not None:
            return built
        for a in d.assigns:
            if a.line >= before or a.target.kind != "Tuple" or a.value.kind != "Tuple":
                continue
            for part, value in zip(a.target.parts, a.value.parts, strict=False):
                if part.kind == "Name" and part.name == expr.name:
                    return self._model_of(file, fn, value, a.line, depth + 1)
        local = file.local_value(fn, expr.name, before)
        if local is not None:
            wrapped = _wrapped_module(local)
            if wrapped is not None:
                # ``model = DistributedDataParallel(model, ...)``, ``model = model.to(dev)``:
                # the module it wraps, as bound before the wrapping
                return self._model_of(file, fn, wrapped, local.line, depth + 1)
            if local.kind == "Call":
                # a repository builder (``model = blip_pretrain(...)``): what it returns
                return self._built_by(file, local, depth)
            if local.kind not in ("Name", "Attribute"):
                return None
            return self._model_of(file, fn, local, before, depth + 1)  # ``model = self.model``
        if expr.name not in d.positional:
            return None
        for caller, site in self.values.call_sites(file, fn):
            passed = bind_call(d, site.expr).get(expr.name)
            if passed is None:
                continue
            found = self._model_of(caller, site.function, passed, site.expr.line, depth + 1)
            if found is not None:
                return found
        return None

    def _step_criteria(self, file: _File) -> None:
        """A torch module that is no ``*Loss`` class but is the loss: called in the formula
        the training step differentiates (simsiam's ``criterion = nn.CosineSimilarity(dim=1)``,
        passed to ``train(..., criterion, ...)``, which differentiates ``loss =
        -(criterion(p1, z2).mean() + criterion(p2, z1).mean()) * 0.5``): a loss row at its
        construction with its arguments and the formula. A ``*Loss`` class is a row of
        its own (:meth:`_finding`); a model, a layer called on one input
        (``head = nn.Linear(...)``, ``loss = head(x).sum()``) or a repository function is
        no criterion."""
        for call, fn, target in _differentiated(file):
            if target.kind != "Name":
                continue
            total = file.local_value(fn, target.name, call.expr.line)
            if total is None:
                continue
            # a comparison of two tensors (a layer called on one input is the model)
            called = {
                node.func.name
                for node in total.walk()
                if node.kind == "Call" and node.func.kind == "Name" and len(node.args) >= 2
            }
            for name in sorted(called):
                built = self._criterion_built(file, fn, name, total.line, 0)
                if built is None:
                    continue
                owner, construction, api = built
                where = owner.where(construction.expr.line)
                if any(i.where.path == where.path and i.where.line == where.line for i in self.out):
                    continue
                values = self._bind_api(api, owner, construction)
                values.append(("loss", shorten(total.text, 2 * _TERM_LIMIT)))
                note = (
                    "not a loss class but the loss: the training step differentiates it at "
                    f"{file.loc(call.expr.line)}"
                )
                self.add("loss", api, where, values, note)

    def _criterion_built(
        self, file: _File, fn: int, name: str, before: int, depth: int
    ) -> tuple[_File, CallValues, str] | None:
        """(file, call, torch API) of the ``torch.nn`` module construction the local or
        parameter ``name`` of def ``fn`` holds before line ``before``, a parameter followed
        to what its callers pass (:meth:`_step_criteria`); ``.cuda()``/``.to()`` after the
        construction are left. None for anything else (a model, a repository function)."""
        if depth > MAX_DEPTH:
            return None
        value = file.local_value(fn, name, before)
        if value is None:
            d = file.defs[fn]
            if name not in d.positional:
                return None
            for caller, site in self.values.call_sites(file, fn):
                passed = bind_call(d, site.expr).get(name)
                if passed is None or passed.kind != "Name" or site.function < 0:
                    continue
                found = self._criterion_built(
                    caller, site.function, passed.name, site.expr.line, depth + 1
                )
                if found is not None:
                    return found
            return None
        while (
            value.kind == "Call"
            and value.func.kind == "Attribute"
            and value.func.name in ("cuda", "to")
            and value.func.target.kind == "Call"
        ):
            value = value.func.target
        if value.kind != "Call":
            return None
        api = file.dotted(value.func)
        if (
            api is None
            or not api.startswith("torch.nn.")
            or api.startswith(("torch.nn.parallel.", "torch.nn.utils."))
            or _category(api) is not None
        ):
            return None
        for construction in file.values.calls:
            if _place_key("", construction.expr) == _place_key("", value):
                return file, construction, api
        return None

    def _module_built(
        self, file: _File, fn: int, name: str, before: int
    ) -> tuple[_File, int] | None:
        """(file, def) of the repository's torch Module class the local ``name`` of def
        ``fn`` is built from before line ``before``: the construction inside any of its
        assignments (``model = BarlowTwins(args).cuda(gpu)``, then wrapped in
        ``DistributedDataParallel(model)``, which leaves the model's forward)."""
        for stmt in file.defs[fn].assigns:
            if stmt.line >= before or stmt.target.kind != "Name" or stmt.target.name != name:
                continue
            for node in stmt.value.walk():
                found = self._repo_module(file, node)
                if found is not None:
                    return found
        return None

    def _built_by(self, file: _File, call: Expr, depth: int) -> tuple[_File, int] | None:
        """(file, class) of the repository Module a call builds: the class it constructs,
        or what the repository function it calls returns (BLIP's ``blip_pretrain(**kwargs)``
        returning ``model = BLIP_Pretrain(**kwargs)``)."""
        built = self._repo_module(file, call)
        if built is not None or depth > MAX_DEPTH:
            return built
        found = self.values.repo_function(file, call)
        if found is None:
            return None
        owner, index = found
        d = owner.defs[index]
        if d.is_class:
            return None
        for returned in d.returns:
            got = self._model_of(owner, index, returned, returned.line + 1, depth + 1)
            if got is not None:
                return got
        return None

    def _repo_module(self, file: _File, node: Expr) -> tuple[_File, int] | None:
        """(file, class) of the repository torch Module the call ``node`` constructs."""
        if node.kind != "Call":
            return None
        found = self.values.repo_function(file, node, classes=True)
        if found is None:
            return None
        owner, index = found
        key = f"{owner.module}.{owner.defs[index].qual}"
        return found if "torch.nn.Module" in self.hierarchy.torch_ancestors(key) else None

    def _returned_loss(self, file: _File, fn: int, step: str) -> None:
        """The loss row of what def ``fn`` (a model's ``forward``) returns, computed there
        by arithmetic (:meth:`_forward_loss`); ``step`` is where the step differentiates it."""
        d = file.defs[fn]
        for returned in d.returns:
            value, line = returned, returned.line
            if returned.kind == "Name":
                local = file.local_value(fn, returned.name, returned.line)
                if local is None:
                    continue
                value, line = local, local.line
            if value.kind != "BinOp":
                continue
            values = [("loss", shorten(value.text, _TERM_LIMIT))]
            for leaf in _leaves(value):
                if leaf.kind not in ("Name", "Attribute") or (
                    leaf.kind == "Attribute" and file.dotted(leaf)
                ):
                    continue
                found = self.values.resolve(file, fn, leaf, 0)
                if found.literal and found.text != leaf.text:
                    values.append((leaf.text, found.show()))
            note = f"computed in the model's forward; the training step differentiates it at {step}"
            self.add("loss", f"loss computed in {d.qual}", file.where(line), values, note)
            return

    def _hand_schedule(self, file: _File, call: CallValues) -> dict[str, str]:
        """What a schedule written by hand does to the values ``call`` passes: a local the
        loop around the call updates in place under the same ``if`` (stargan's
        ``if (i+1) % lr_update_step == 0 and (i+1) > (num_iters - num_iters_decay):
        g_lr -= (self.g_lr / float(self.num_iters_decay)); self.update_lr(g_lr, d_lr)``) is
        no constant: argument name -> its start value, the update, and, when the loop's range
        and the settings are literals, how many times it applies, where, and the value it
        ends at (the loop run once from its first index, as a run from scratch does)."""
        fn = call.function
        if fn < 0:
            return {}
        passed = {a.name for a in (*call.expr.args, *(k.target for k in call.expr.keywords))}
        out: dict[str, str] = {}
        for loop in file.values.loops:
            if loop.function != fn or not loop.names:
                continue
            for update in loop.updates:
                target, step = update.node, update.value
                if (
                    step is None
                    or update.op not in _STEP_OPS
                    or target.kind != "Name"
                    or target.name not in passed
                    or target.name in out
                ):
                    continue
                branch = next(
                    (
                        b
                        for b in call.ifs
                        if b.function == fn and b.line < update.line <= (b.body_end or b.end_line)
                    ),
                    None,
                )
                if branch is None or not branch.line < call.expr.line <= branch.end_line:
                    continue
                out[target.name] = self._schedule_text(file, fn, loop, update, branch.test)
        return out

    def _schedule_text(
        self, file: _File, fn: int, loop: LoopValues, update: UpdateValues, test: Expr
    ) -> str:
        """The text of one hand-written schedule (:meth:`_hand_schedule`)."""
        name, step = update.node.name, update.value
        assert step is not None
        start = file.local_value(fn, name, update.line)
        begin = self.values.describe(file, fn, start) if start is not None else name
        kind = {"Sub": "linear decay", "Add": "linear increase"}.get(update.op, "exponential")
        written = f"{update.statement.strip()} when {test.shown()}"
        numbers: dict[str, float] = {}

        def lookup(expr: Expr) -> float | None:
            if expr.text not in numbers:
                if expr.kind == "Name" and fn >= 0:
                    top = [
                        a
                        for a in file.defs[fn].assigns
                        if a.top
                        and a.target.kind == "Name"
                        and a.target.name == expr.name
                        and a.line < loop.line
                    ]
                    if top:  # a run from scratch: the unconditional assignment
                        found = _number(
                            top[-1].value, lambda e: self.values.resolve(file, fn, e, 0)
                        )
                        if found is not None:
                            numbers[expr.text] = found
                            return found
                found = _number(expr, lambda e: self.values.resolve(file, fn, e, 0))
                if found is None:
                    return None
                numbers[expr.text] = found
            return numbers[expr.text]

        bounds = loop.iter
        index = loop.names[0]
        first = None if start is None else _arith(start, {}, lookup)
        if (
            bounds.kind != "Call"
            or bounds.callee() != "range"
            or not 1 <= len(bounds.args) <= 2
            or bounds.keywords
            or first is None
        ):
            return f"starts at {begin}; {kind}: {written}"
        ends = [_arith(a, {}, lookup) for a in bounds.args]
        if any(not isinstance(e, int | float) for e in ends):
            return f"starts at {begin}; {kind}: {written}"
        low, high = (0, ends[0]) if len(ends) == 1 else (ends[0], ends[1])
        if high - low > _SIMULATED_STEPS:
            return f"starts at {begin}; {kind}: {written}"
        value, applied = first, []
        for i in range(int(low), int(high)):
            env = {index: i, name: value}
            if _arith(test, env, lookup) is not True:
                continue
            delta = _arith(step, env, lookup)
            if not isinstance(delta, int | float) or isinstance(delta, bool):
                return f"starts at {begin}; {kind}: {written}"
            value = _STEP_OPS[update.op](value, delta)
            applied.append(i)
        if not applied:
            return f"{begin}, never changed in {loop.iter.shown()}: {written}"
        every = {b - a for a, b in pairwise(applied)}
        spacing = f", every {every.pop()}" if len(every) == 1 else ""
        return (
            f"starts at {begin}; {kind}: {written}; applied {len(applied)} times, "
            f"{index} = {applied[0]} to {applied[-1]}{spacing}, ending at {value:.6g}"
        )

    def _lazy_every(self, file: _File, call: CallValues) -> list[tuple[str, str]]:
        """A loss applied every N steps only (stylegan2's lazy regularisation: ``d_regularize
        = i % args.d_reg_every == 0`` then ``if d_regularize: r1_loss = d_r1_loss(...)``):
        N, followed to its value. The test may be the modulo itself or a local name bound
        to it just before."""
        fn = call.function
        for branch in call.ifs:
            if branch.function != fn:
                break
            test = branch.test
            if test.kind == "Name" and fn >= 0:
                test = file.local_value(fn, test.name, branch.line) or test
            for sub in test.walk():
                if sub.kind == "BinOp" and sub.name == "Mod":
                    every = sub.parts[1]
                    value = self.values.resolve(file, fn, every, 0)
                    if not value.literal:
                        return []
                    trail = f" ({'; '.join(value.trail)})" if value.trail else ""
                    return [("every", f"{value.text} steps{trail}")]
        return []

    def _loss_factor(self, file: _File, call: CallValues) -> list[tuple[str, str]]:
        """The settings a loss is multiplied by in the function that computes it (VITS's
        ``loss_mel = F.l1_loss(y_mel, y_hat_mel) * hps.train.c_mel``; stylegan2's
        ``weighted_path_loss = args.path_regularize * args.g_reg_every * path_loss`` on the
        name the loss is stored as, and ``(args.r1 / 2 * r1_loss * args.d_reg_every).backward()``):
        the weight a port has to carry over with the loss, each setting followed to its value
        (a config dict's entry too: Retinaface's ``cfg['loc_weight'] * loss_l``). Factors
        that call something or index data (a mask, a tensor) are data, not a weight.

        A loss unpacked with other terms of the same sum (``loss_l, loss_c, loss_landm =
        criterion(...)`` then ``cfg['loc_weight'] * loss_l + loss_c + loss_landm``) names
        the term each weight is for. A loss stored, or added into a total, that is then
        scaled in place (PyTorch-YOLOv3's ``lcls += BCEcls(...)`` over the levels, then
        ``lcls *= 0.5``) carries that factor (:meth:`_scaled_in_place`)."""
        fn = call.function
        expr = call.expr
        place = (expr.line, expr.col, expr.end_line, expr.end_col)
        names: list[str] = []
        if call.stored is not None and call.stored.kind == "Name":
            names = [call.stored.name]
        elif call.stored is not None and call.stored.kind == "Tuple" and call.stored.parts:
            # ``path_loss, mean_path_length, path_lengths = g_path_regularize(...)``: each
            # element a term the function goes on to weight
            names = [p.name for p in call.stored.parts if p.kind == "Name"]
        roots = [a.value for a, scope in file.assigns if scope == fn and not a.annotated]
        if not names:
            # YOLOX's ``loss_iou = (self.iou_loss(pred, target)).sum() / num_fg``: the loss
            # reduced and normalised, then weighted by name (``reg_weight * loss_iou``)
            names = [
                a.target.name
                for a, scope in file.assigns
                if scope == fn and a.target.kind == "Name" and _reduces(a.value, place)
            ][:1]
        if fn >= 0:
            roots += file.defs[fn].returns  # ``return box_weight * loss_box + loss_obj``
        roots += [
            c.expr.func.target
            for c in file.values.calls
            if c.function == fn and c.statement and c.expr.callee() == "backward"
            and c.expr.func.kind == "Attribute"
        ]  # fmt: skip
        found: dict[str, str] = {}
        # the unpacked names some sum after the call adds (the loss terms among them)
        terms_summed = {
            f.name
            for root in roots
            if root.end_line >= expr.line and root.kind == "BinOp"
            for t in _summands(root)
            for f in (_factors(t) if t.kind == "BinOp" else [t])
            if f.kind == "Name" and f.name in names
        }
        for root in roots:
            if root.end_line < expr.line:
                continue
            bare = _bare_in_mix(root, names)
            if bare is not None:
                # the unweighted term of ``(a + w * b) / (w + 1)``: its share is 1 / (w + 1)
                shown = self._weight_text(file, fn, bare[1])
                if shown is not None:
                    mix = f"{bare[0].full()}, with {_weights(bare[1])} = {shown}"
                    return [("loss mix", mix)]
            summed = {t.name for t in _summands(root) if t.kind == "Name"}
            for node in _outer_products(root):
                factors = _factors(node)
                hit = [
                    f
                    for f in factors
                    if (f.line, f.col, f.end_line, f.end_col) == place
                    or (
                        (stored := _reduced_name(f)) is not None
                        and stored.name in names
                        and f.line > expr.line
                    )
                ]
                weights = [f for f in factors if f not in hit]
                if len(hit) != 1 or not weights:
                    continue
                shown = self._weight_text(file, fn, weights)
                if shown is None:
                    continue  # ``loss * mask``: a tensor, not a setting
                mix = _normalised_mix(root, node, weights)
                if mix is not None:
                    # DALL-E's ``(loss_text + w * loss_img) / (w + 1)``: a weighted mean of
                    # the terms, each term's share w / (w + 1), not a weight on this loss
                    return [("loss mix", f"{mix.full()}, with {_weights(weights)} = {shown}")]
                term = held.name if (held := _reduced_name(hit[0])) is not None else ""
                # the other terms of the tuple summed beside it: say which one is weighted
                # (a call unpacked into several terms the function sums, each in a sum of
                # its own, weights the one it names: votenet's six box and class losses,
                # ``sem_cls_loss`` at 0.1 in the total, ``heading_cls_loss`` at 0.1 in
                # ``box_loss``)
                key = (
                    f"weight of {term}"
                    if term and ((set(names) - {term}) & summed or len(terms_summed) > 1)
                    else "weight"
                )
                if key == "weight":
                    return [(key, shown)]
                found.setdefault(key, shown)
        if found:
            return list(found.items())
        for name in [*names, *_accumulated_into(file, fn, place)][:1]:
            scaled = self._scaled_in_place(file, fn, name, expr.line)
            if scaled is not None:
                return [("weight", scaled)]
        return []

    def _returned_weights(self, file: _File, node: DefValues) -> list[tuple[str, str]]:
        """The weights a loss gives its terms inside its own code: what a loss function (a
        loss class's ``forward``) returns, read element by element (each returned value of a
        tuple is an output of the loss). An output multiplied by settings or numbers
        (Yet-Another-EfficientDet's ``return cls_loss.mean(...), reg_loss.mean(...) * 50``:
        output 2 weighted 50); an output that is a name scaled in place before the return,
        or a name holding a sum whose terms are (PyTorch-YOLOv3's ``lbox *= 0.05``, ``lobj
        *= 1.0``, ``lcls *= 0.5``, then ``loss = lbox + lobj + lcls``, ``return loss,
        ...``): each term with its weight. A factor that is data (``cls_loss *= valid``, a
        mask) gives no weight."""
        index = file.first.get(f"{node.qual}.forward" if node.is_class else node.qual)
        if index is None:
            return []
        d = file.defs[index]
        out: dict[str, str] = {}
        # a return the defaults take for certain (DeiT's ``if self.distillation_type ==
        # 'none': return base_loss`` with the type 'none'): the returns after it do not run,
        # their weights are not the run's
        first = next(
            (
                r.line
                for r in sorted(d.returns, key=lambda r: r.line)
                if self.values.taken(file, index, r.line)
            ),
            None,
        )
        later = [r for r in d.returns if first is not None and r.line > first]
        if later:
            early = next(r for r in d.returns if r.line == first)
            test = next((b.test.shown() for b in d.branches if b.line < first <= b.body_end), "")
            under = f", under if {test}" if test else ""
            out["returned with the defaults"] = (
                f"{early.full()} at {file.loc(first)}{under}: the terms after it "
                f"(return at {', '.join(file.loc(r.line) for r in later)}) do not run"
            )
        for returned in d.returns:
            if returned in later:
                continue
            elements = list(returned.parts) if returned.kind == "Tuple" else [returned]
            for n, element in enumerate(elements, 1):
                label = f"output {n}" if len(elements) > 1 else "output"
                at = file.loc(element.line)
                own = self._product_weight(file, index, element)
                if own is not None:
                    out.setdefault(f"weight of {label}", own[1].show(f"on {own[0]} at {at}"))
                    continue
                if element.kind != "Name":
                    continue
                for key, value in _learned_weights(file, node, index, element.name):
                    out.setdefault(
                        f"{key} of {label}" if key == "learned weighting" else key, value
                    )
                scaled = self._scaled_in_place(file, index, element.name, 0, element.line)
                if scaled is not None:
                    out.setdefault(f"weight of {label}", scaled)
                    continue
                held = file.local_value(index, element.name, element.line)
                terms = _summands(held) if held is not None else []
                weighed = len(out)
                for term in terms if len(terms) > 1 else []:
                    if term.kind == "Name":
                        scaled = self._scaled_in_place(file, index, term.name, 0, element.line)
                        if scaled is not None:
                            out.setdefault(f"weight of {term.name}", scaled)
                        continue
                    own = self._product_weight(file, index, term)
                    if own is not None:
                        at = file.loc(term.line)
                        out.setdefault(f"weight of {own[0]}", own[1].show(f"at {at}"))
                if len(terms) > 1 and len(out) == weighed and held is not None:
                    listed = _unweighted_terms(file, index, held)
                    if listed:
                        out.setdefault(f"terms of {label}", listed)
        return list(out.items())

    def _product_weight(self, file: _File, fn: int, expr: Expr) -> tuple[str, _Weight] | None:
        """(the term, its weight) of a product of one term by settings or numbers
        (``reg_loss.mean() * 50``: ``reg_loss.mean()``, ``50``); None for any other
        expression, a product of two terms (``loss * mask``), or one by a written 0
        (detectron2's ``return pred_mask_logits.sum() * 0`` for a batch with no instance: a
        zero loss that keeps the graph, no weight)."""
        if expr.kind != "BinOp" or expr.name != "Mult":
            return None
        factors = _factors(expr)
        if any(f.kind == "Constant" and f.value == 0 for f in factors):
            return None
        weights = [f for f in factors if self._weight(file, fn, [f]) is not None]
        terms = [f for f in factors if f not in weights]
        if len(terms) != 1 or not weights:
            return None
        if _constant_term(file, terms[0]):
            # ``0.5 * math.log(2 * math.pi)``: a likelihood's constant term, no loss weighted
            return None
        found = self._weight(file, fn, weights)
        return None if found is None else (shorten(terms[0].text, _TERM_LIMIT), found)

    def _weight_text(self, file: _File, fn: int, weights: Sequence[Expr]) -> str | None:
        """How the factors ``weights`` of a loss read as its weight (:meth:`_weight`)."""
        found = self._weight(file, fn, weights)
        return None if found is None else found.show()

    def _weight(self, file: _File, fn: int, weights: Sequence[Expr]) -> _Weight | None:
        """How the factors ``weights`` of a loss read as its weight: one setting's value
        (``5.0 (reg_weight set at ...)``), a number as written, or the product with the
        value of each setting in it; None when a factor calls something, indexes data or
        reads a value that is no literal (a mask, a count of targets)."""
        if any(
            n.kind == "Call" or (n.kind == "Subscript" and not _keyed_entry(n))
            for w in weights
            for n in w.walk()
        ):
            return None
        read = [
            (leaf, self.values.resolve(file, fn, leaf, 0)) for w in weights for leaf in _leaves(w)
        ]
        if not all(value.literal for _, value in read):
            return None
        if len(read) == 1 and read[0][0] == weights[0]:
            return _Weight(read[0][1].text, read[0][1].trail)  # one setting: its value
        steps = tuple(f"{leaf.text} = {value.show()}" for leaf, value in read)
        return _Weight(" * ".join(w.text for w in weights), steps)

    def _scaled_in_place(
        self, file: _File, fn: int, name: str, after: int, before: int = 0
    ) -> str | None:
        """The factor the name ``name`` of def ``fn`` (-1: the module) is multiplied by in
        place after line ``after`` (and before line ``before`` when given: a returned
        name's) (PyTorch-YOLOv3's ``lbox *= 0.05``), with the statement and where: ``0.05
        (lbox *= 0.05 at utils/loss.py:118)``; several such statements are each shown. None
        when there is none, or one scales by data (``loss *= valid``, a mask): the term's
        weight is then no setting."""
        updates = file.defs[fn].updates if fn >= 0 else file.values.updates
        shown: list[str] = []
        for update in updates:
            target = update.node
            if (
                update.op != "Mult"
                or update.line <= after
                or (before and update.line >= before)
                or update.value is None
                or target.kind != "Name"
                or target.name != name
            ):
                continue
            weight = self._weight(file, fn, [update.value])
            if weight is None:
                return None
            shown.append(weight.show(f"{update.statement} at {file.loc(update.line)}"))
        return "; ".join(shown) or None

    def _model_settings(self) -> None:
        """A row of the settings each top model is constructed with, as far as they reach
        literals (MoCo's ``MoCo(models.__dict__[args.arch], args.moco_dim, args.moco_k,
        args.moco_m, args.moco_t, args.mlp)``: dim 128, K 65536, m 0.999, T 0.07, mlp
        False, from the options' defaults or the documented command). A top model is one
        the model tree found built with parts handed in, or a module class of the
        repository that no module builds, constructed by a script or a builder function
        (``UNet(n_channels=3, n_classes=args.classes)``). The parts the tree
        shows (the encoder handed in) and values that reach no literal (a tensor, a config
        object) are left out: the row holds the numbers the port's model must be given.
        The parts the same builder constructs and hands in (a segmenter's image encoder
        ``PatchViT(width=768, layers=12)``) get a row each: their sizes are the model's.
        A top model that is another's part (a backbone wrapper the builder hands the model)
        is that model's setting, no row of its own."""
        inner = {
            re.split(r"[\s(]", text, maxsplit=1)[0].rpartition(".")[2]
            for top in self.top_models
            for _, text in top.parts
        }
        # (class, path, line) -> (the builder, the parts' parameters, whose part it is)
        sites: dict[tuple[str, str, int], tuple[str, set[str], str]] = {}
        for top in self.top_models:
            if top.cls.rpartition(".")[2] in inner or top.where.cell:
                continue
            parts = {name for name, _ in top.parts}
            sites[(top.cls, top.where.path, top.where.line)] = (top.builder, parts, "")
            # ... and its other constructions in the same function (yolov5's ``Model(...)``
            # under ``if pretrained:`` and again in the ``else``): the branch the run takes
            # is told by the rows' untaken test
            for line in self._constructed_beside(top):
                sites.setdefault((top.cls, top.where.path, line), (top.builder, parts, ""))
            sites.update(self._built_parts(top))
        # a class the tree found built (by its builder's call) is shown there only: the
        # constructions inside its builder are the same model again
        in_tree = {cls for cls, _, _ in sites}
        for key, (file, index) in sorted(self.repo.defs.items()):
            node = file.defs[index]
            if not (node.is_class and self.hierarchy.is_module(key)) or node.name in inner:
                continue
            if key in in_tree:
                continue
            if self._repo_category(key, node) is not None:
                continue  # a loss, a schedule...: its own row
            built: list[tuple[str, int, str]] = []
            for path, line, caller, calls in self._call_sites_of(key):
                call = next((c for c in calls if c.expr.callee() == node.name), None)
                if call is None:
                    continue
                if self._in_module_class(caller, call.function):
                    built = []
                    break  # a part some module builds: the tree's, not a top model
                fn = caller.defs[call.function].qual if call.function >= 0 else ""
                built.append((path, line, fn))
            for path, line, fn in built:
                sites.setdefault((key, path, line), (fn, set(), ""))
        for (cls, path, line), (builder, parts, part_of) in sorted(sites.items()):
            file = self.files.get(path)
            call = self._construction(cls, path, line)
            if file is None or call is None or self._handed_to_evaluation(file, call):
                continue
            if self._other_configuration(file, call.function):
                continue
            signature = self._bound_signature(cls, path, call)
            if signature is None:
                continue
            values = self._settings_values(file, call, *signature, parts)
            if values:
                by = f", built by {builder}" if builder else ""
                what = f"{part_of}: a part's" if part_of else "the top model's"
                note = f"{what} constructor settings{by}"
                self.add("model", cls, file.where(line), values, note)
        for top in self.top_models:
            if top.cls.rpartition(".")[2] not in inner and not top.where.cell:
                self._handed_part_settings(top)

    def _bound_signature(
        self, cls: str, path: str, call: CallValues
    ) -> tuple[list[str], DefValues | None] | None:
        """(the positional parameters' names, the def whose defaults apply) of the call of
        ``path`` constructing ``cls``: the class's ``__init__``; a builder function's, where
        the tree's top is the call of its builder (``build_ssd('train', 300, 21)``,
        ``load_model(device, path, model_type)``); keywords only for a table's pick
        (``models.__dict__[args.arch](...)``). None where the builder is not known."""
        owner, index = self.repo.defs[cls]
        node = owner.defs[index]
        init = owner.first.get(f"{node.qual}.__init__")
        callee = call.expr.callee()
        if call.expr.func.kind == "Subscript":
            return [], None
        if callee == node.name or self._class_aliases().get(callee) == node.name:
            positional = self._repo_positional(cls, owner, node)
            return positional, owner.defs[init] if init is not None else None
        builders = [
            k
            for k in self._defs_by_name().get(callee, ())
            if not self.repo.defs[k][0].defs[self.repo.defs[k][1]].is_class
        ]
        if len(builders) > 1:
            # several defs of that name: the one the calling file defines or imports (a def
            # known under two module names is one)
            near = {path, *(self.repo.graph or {}).get(path, ())}
            builders = [k for k in builders if self.repo.defs[k][0].path in near] or builders
            one = {(self.repo.defs[k][0].path, self.repo.defs[k][1]) for k in builders}
            builders = builders[:1] if len(one) == 1 else builders
        if len(builders) != 1:
            return None
        f, i = self.repo.defs[builders[0]]
        return self._repo_positional(builders[0], f, f.defs[i]), f.defs[i]

    def _settings_values(
        self,
        file: _File,
        call: CallValues,
        positional: Sequence[str],
        called: DefValues | None,
        parts: Collection[str],
    ) -> list[tuple[str, str]]:
        """(parameter, value) of what ``call`` passes that reaches a literal, then the
        literal defaults of ``called`` it leaves: the parts handed in, data arguments and a
        weights file (the checkpoint row's) left out."""
        given: list[tuple[str, Expr]] = []
        for i, arg in enumerate(call.expr.args):
            if arg.kind == "Starred" or i >= len(positional):
                break
            given.append((positional[i], arg))
        given += [(k.name, k.target) for k in call.expr.keywords if k.name]
        values = [
            (name, self._value(file, call.function, name, expr))
            for name, expr in given
            if name not in parts
            and name not in _DATA_PARAMS
            and (value := self.values.resolve(file, call.function, expr, 0)).literal
            and not WEIGHTS_FILE.search(value.text.strip("'\""))
        ]
        # the settings the call leaves to their defaults (a builder's ``width=16``, a
        # transformer's ``mlp_ratio=4.0``): the model is built with them as much; not where
        # ``*args`` or ``**config`` may pass them (a JSON config's ``n_bins``)
        if (
            called is None
            or any(a.kind == "Starred" for a in call.expr.args)
            or not all(k.name for k in call.expr.keywords)
        ):
            return values
        named = {name for name, _ in given}
        return values + [
            (name, f"{default.text} (default)")
            for name, default in called.params
            if name not in named
            and name not in ("self", "cls")
            and name not in parts
            and name not in _DATA_PARAMS
            and default is not None
            and default.literal
            and default.text != "None"
        ]

    def _handed_part_settings(self, top: TopModel) -> None:
        """A row of the settings a top model's constructor builds a part it is handed with
        (``self.encoder = base_encoder(num_classes=dim, zero_init_residual=True)``, the class
        ``models.__dict__[args.arch]`` the run passes): the keywords that reach literals, the
        constructor's parameters followed to the values the run gives them. The port builds
        its counterpart of that architecture with the same settings."""
        found = self.repo.defs.get(top.cls)
        if found is None:
            return
        owner, index = found
        init = owner.first.get(f"{owner.defs[index].qual}.__init__")
        if init is None:
            return
        for param, text in top.parts:
            hit = _HANDED_PART.search(text)
            if hit is None:
                continue
            name = hit.group(1)
            part = re.split(r"[\s(]", text, maxsplit=1)[0]
            for call in owner.values.calls:
                func = call.expr.func if call.expr.parts else None
                if call.function != init or func is None or func.kind != "Name":
                    continue
                if func.name != name:
                    continue
                values = [
                    (k.name, value.show())
                    for k in call.expr.keywords
                    if k.name and (value := self.values.resolve(owner, init, k.target, 0)).literal
                ]
                if values:
                    top_name = top.cls.rpartition(".")[2]
                    note = (
                        f"{param} of {top_name}: a part's constructor settings, built by "
                        f"{top_name}.__init__ from the class it is handed"
                    )
                    self.add("model", part, owner.where(call.expr.line), values, note)
                break

    def _other_configuration(self, file: _File, fn: int) -> bool:
        """Whether function ``fn`` of ``file`` is a method of a configuration class the
        documented commands do not load, beside those they do (YOLOX's ``exps/default/
        yolov3.py`` overriding ``get_model`` where the run loads ``yolox_s.py``): another
        configuration's model. The base the loaded ones extend is theirs."""
        launched = self.repo.launched_classes
        owner = file.defs[fn].owner if fn >= 0 else -1
        if not launched or owner < 0:
            return False
        key = f"{file.module}.{file.defs[owner].qual}"
        ours = {c for sub in launched for c in self.values._lineage(sub)}
        if (self.hierarchy.resolve(key) or key) in ours:
            return False
        return bool(set(self.values._lineage(key)[1:]) & ours)

    @staticmethod
    def _handed_to_evaluation(file: _File, call: CallValues) -> bool:
        """Whether ``call`` is an argument of a call named for evaluation (yolov5's
        ``validate.run(model=attempt_load(best, device).half(), ...)`` after the training):
        the model it builds is what the evaluation loads back, not one the run constructs."""
        inner = call.expr
        for other in file.values.calls:
            outer = other.expr
            if outer is inner or other.function != call.function:
                continue
            if (outer.line, outer.col) <= (inner.line, inner.col) and (
                inner.end_line,
                inner.end_col,
            ) <= (outer.end_line, outer.end_col):
                func = outer.func
                chain = func.chain() if func.kind in ("Attribute", "Name") else None
                if chain and any(_EVALUATION_WORD.search(part) for part in chain):
                    return True
        return False

    def _constructed_beside(self, top: TopModel) -> list[int]:
        """The lines of the other calls constructing ``top``'s class (by its name or a
        module-level alias) under an ``if`` of the function of ``top``'s construction (the
        other branch of ``if pretrained:``), where the run's values tell which runs."""
        file = self.files.get(top.where.path)
        call = self._construction(top.cls, top.where.path, top.where.line)
        found = self.repo.defs.get(top.cls)
        if file is None or call is None or found is None or call.function < 0:
            return []  # (a module's table of variants, ``lambda: Net([3, 4, 6, 3])``: none)
        name = found[0].defs[found[1]].name
        aliases = self._class_aliases()
        return sorted(
            {
                c.expr.line
                for c in file.values.calls
                if c.function == call.function
                and c.ifs
                and c.expr.line != top.where.line
                and (c.expr.callee() == name or aliases.get(c.expr.callee()) == name)
            }
        )

    def _defs_by_name(self) -> dict[str, list[str]]:
        """The repository's defs by their last name (``build_ssd`` -> its dotted keys, in
        the order :attr:`_Repo.defs` holds them), read once: what a call's callee may be."""
        if self._by_last_name is None:
            self._by_last_name = {}
            for key in self.repo.defs:
                self._by_last_name.setdefault(key.rpartition(".")[2], []).append(key)
        return self._by_last_name

    def _class_aliases(self) -> dict[str, str]:
        """Module-level ``Alias = Name`` assignments of the repository's files: alias ->
        the name it stands for (read once)."""
        if self._aliases is None:
            self._aliases = {
                a.target.name: a.value.name
                for file in self.files.values()
                for a, fn in file.assigns
                if fn < 0 and a.target.kind == "Name" and a.value.kind == "Name"
            }
        return self._aliases

    def _construction(self, cls: str, path: str, line: int) -> CallValues | None:
        """The call constructing the repository class ``cls`` on ``line`` of ``path`` (the
        only call there, when it is built by another name)."""
        file = self.files.get(path)
        found = self.repo.defs.get(cls)
        if file is None or found is None:
            return None
        name = found[0].defs[found[1]].name
        calls = file.calls_on.get(line, [])
        call = next((c for c in calls if c.expr.callee() == name), None)
        if call is None:
            # built through a module-level alias (yolov5's ``Model = DetectionModel``)
            aliases = self._class_aliases()
            call = next((c for c in calls if aliases.get(c.expr.callee()) == name), None)
        if call is None:
            # built by a builder function: the call of a repository function on the line
            # (``build_model(num_classes=len(names))``: not ``len``)
            own = self._defs_by_name()
            mine = [c for c in calls if c.expr.callee() in own]
            # ... or picked from a table by the run's value (``models_mae.__dict__[
            # args.model](norm_pix_loss=...)``): its keywords name what it is passed
            mine = mine or [c for c in calls if c.expr.parts and c.expr.func.kind == "Subscript"]
            call = mine[0] if len(mine) == 1 else None
        return call

    def _built_parts(self, top: TopModel) -> dict[tuple[str, str, int], tuple[str, set[str], str]]:
        """The constructions of ``top``'s parts in the function that constructs ``top``
        (``image_tower = PatchViT(...)`` before ``PromptSegmenter(image_tower=...)``), or in
        a builder function it calls (``transformer = build_transformer(args)``, which returns
        ``Transformer(d_model=args.hidden_dim, ...)``), as :meth:`_model_settings` sites:
        "``image_tower`` of PromptSegmenter"."""
        call = self._construction(top.cls, top.where.path, top.where.line)
        file = self.files.get(top.where.path)
        if call is None or file is None:
            return {}
        # the functions the top's construction runs in, or calls: its builders
        called = {c.expr.callee() for c in file.values.calls if c.function == call.function} - {""}
        out: dict[tuple[str, str, int], tuple[str, set[str], str]] = {}
        for param, text in top.parts:
            short = re.split(r"[\s(]", text, maxsplit=1)[0].rpartition(".")[2]
            if not short.isidentifier():
                continue
            keys = [
                k
                for k in self.repo.defs
                if k.rpartition(".")[2] == short and self.hierarchy.is_module(k)
            ]
            if len(keys) != 1:
                continue
            label = f"{param} of {top.cls.rpartition('.')[2]}"
            for path, fact in self.repo.call_sites.get(keys[0], ()):
                caller = self.files.get(path)
                if caller is None or fact.role != "call" or is_test_path(path):
                    continue
                for c in caller.calls_on.get(fact.line, []):
                    if c.expr.callee() != short:
                        continue
                    here = caller is file and c.function == call.function
                    d = caller.defs[c.function] if c.function >= 0 else None
                    builder = (
                        d is not None
                        and not d.is_class
                        and d.name in called
                        and not self._in_module_class(caller, c.function)
                    )
                    if here or builder:
                        by = top.builder if here or d is None else d.qual
                        out[(keys[0], path, c.expr.line)] = (by, set(), label)
        return out

    def _call_sites_of(self, key: str) -> Iterator[tuple[str, int, _File, list[CallValues]]]:
        """(path, line, the calling file, the calls on that line) of each place outside the
        tests that calls the repository def ``key``."""
        for path, fact in self.repo.call_sites.get(key, ()):
            caller = self.files.get(path)
            if caller is None or is_test_path(path) or fact.role != "call":
                continue
            yield path, fact.line, caller, caller.calls_on.get(fact.line, [])

    def _in_module_class(self, file: _File, fn: int) -> bool:
        """Whether function ``fn`` of ``file`` is a method (or a function nested in one) of
        an nn.Module class: what it constructs is a part of that module."""
        while fn >= 0:
            d = file.defs[fn]
            if d.is_class and self.hierarchy.is_module(f"{file.module}.{d.qual}"):
                return True
            fn = d.owner
        return False

    def _repo_positional(self, key: str, file: _File, node: DefValues) -> list[str]:
        """Names of a repo callable's positional parameters; a subclass whose ``__init__``
        passes ``*args`` on (or has none) takes its torch ancestor's."""
        fn: DefValues | None = node
        if node.is_class:
            init = file.first.get(f"{node.qual}.__init__")
            fn = file.defs[init] if init is not None else None
        if fn is not None and not fn.is_class and not fn.vararg:
            names = list(fn.positional)
            return names[1:] if fn.owner >= 0 else names
        if not node.is_class and node.owner >= 0:
            # DiT's ``SpacedDiffusion.training_losses(self, model, *args, **kwargs)``, which
            # passes on to ``GaussianDiffusion.training_losses``: the base method's names
            base = self._base_method(key, node.name)
            if base is not None:
                names = list(base[0].defs[base[1]].positional)[1:]
                if names[: len(node.positional) - 1] == list(node.positional)[1:]:
                    return names
        ancestors = sorted(self.hierarchy.torch_ancestors(key))
        return self._torch_positional(ancestors[0]) if ancestors else []

    def _loss_builder(self, file: _File, call: CallValues, loss: str) -> None:
        """The settings of the object whose loss method a step calls, built by a repository
        factory (DiT's ``diffusion = create_diffusion(timestep_respacing="")`` then
        ``diffusion.training_losses(model, x, t, model_kwargs)``): a row of the arguments
        passed and the defaults of the factory's loss settings (``noise_schedule="linear"``,
        ``learn_sigma=True``, ``diffusion_steps=1000``) the call leaves as they are."""
        func = call.expr.func
        if func.kind != "Attribute" or func.target.kind != "Name" or call.function < 0:
            return
        built = file.local_value(call.function, func.target.name, call.expr.line)
        if built is None or built.kind != "Call":
            return
        found = self._repo_function(file, built)
        if found is None:
            return
        where, index = found
        factory = where.defs[index]
        if factory.is_class:
            return  # a loss class built in place is already a row of its own
        site = next((c for c in file.calls_on.get(built.line, []) if c.expr == built), None)
        if site is None:
            return
        values = self._arguments(file, site, [n for n, _ in factory.params])
        passed = {n for n, _ in values}
        values += [
            (n, f"{default.text} (default at {where.loc(factory.line)})")
            for n, default in factory.params
            if n not in passed and default is not None and _setting_category(n) == "loss"
        ]
        key = f"{where.module}.{factory.qual}"
        place_ = file.where(built.line)
        if any(i.name == key and i.where == place_ for i in self.out):
            return  # the loss method called at several places: one row of its builder
        note = f"builds the object whose {loss.rpartition('.')[2]} the step calls"
        self.add("loss", key, place_, values, note)

    def _base_method(self, key: str, name: str) -> tuple[_File, int] | None:
        """The nearest repo base class's own def of the method ``name`` that the method
        ``key`` (``module.Class.name``) overrides, or None."""
        for base in self.values._lineage(key.rpartition(".")[0])[1:]:
            found = self.repo.defs.get(f"{base}.{name}")
            if found is not None:
                return found
        return None

    def _combined_terms(self, key: str, file: _File, node: DefValues) -> list[tuple[str, str]]:
        """What a loss method stores as its ``"loss"`` entry (guided-diffusion's
        ``terms["loss"] = terms["mse"] + terms["vb"]``), in the method or, when it only passes
        on to ``super()``, in the base method it overrides: the terms the step's loss adds."""
        places = [(file, node)]
        if node.owner >= 0:
            base = self._base_method(key, node.name)
            if base is not None:
                places.append((base[0], base[0].defs[base[1]]))
        for where, d in places:
            combined = [
                a
                for a in sorted(d.assigns, key=lambda a: a.line)
                if a.target.kind == "Subscript"
                and len(a.target.parts) > 1
                and a.target.parts[1].value == "loss"
            ]
            if combined:
                first = combined[0]
                if len(combined) == 1 and first.value.kind == "Name":
                    # ``loss = vote_loss + 0.5*objectness_loss + ...; loss *= 10;
                    # end_points['loss'] = loss``: the sum the name was assigned
                    sums = [
                        a
                        for a in d.assigns
                        if a.line < first.line
                        and a.target.kind == "Name"
                        and a.target.name == first.value.name
                        and a.value.kind == "BinOp"
                    ]
                    if sums:
                        last = max(sums, key=lambda a: a.line)
                        text = shorten(last.value.text, 2 * _TERM_LIMIT)
                        out = [("terms", f"loss = {text} ({where.loc(last.line)})")]
                        # and the sums it adds (``box_loss = center_loss + 0.1*...``)
                        for name in dict.fromkeys(
                            e.name for e in last.value.walk() if e.kind == "Name"
                        ):
                            inner = [
                                a
                                for a in d.assigns
                                if a.line < last.line
                                and a.target.kind == "Name"
                                and a.target.name == name
                                and a.value.kind == "BinOp"
                            ]
                            if inner:
                                term = max(inner, key=lambda a: a.line)
                                text = shorten(term.value.text, 2 * _TERM_LIMIT)
                                out.append((name, f"{text} ({where.loc(term.line)})"))
                        return out
                texts = " | ".join(
                    dict.fromkeys(shorten(a.value.text, _TERM_LIMIT) for a in combined)
                )
                return [("terms", f"loss = {texts} ({where.loc(first.line)})")]
        return []

    def _repo_category(self, key: str, node: DefValues) -> str | None:
        name = node.name
        if node.is_class:
            for ancestor in sorted(self.hierarchy.torch_ancestors(key)):
                for prefix, category in _ANCESTOR_CATEGORY:
                    if ancestor.startswith(prefix) and (
                        category != "dataloader" or _SAMPLERS.fullmatch(ancestor)
                    ):
                        return category
            if self.hierarchy.is_dataset(key) and not _AUG_DATASET.search(name):
                return None  # TransformEosLangPairDataset rewrites tokens; MosaicDetection augments
        module = node.is_class and ("torch.nn.Module" in self.hierarchy.torch_ancestors(key))
        if node.is_class and re.search(r"sched", name, re.IGNORECASE):
            # a Module named "schedule" is a network (a learned noise schedule), not the LR's
            if module:
                return None
            # I-JEPA's ``CosineWDSchedule``: its methods write the param groups' weight
            # decay and never their LR, the weight decay's schedule
            return "wd_schedule" if self._sets_wd_only(*self.repo.defs[key]) else "scheduler"
        if not node.is_class and self._clips_gradients(*self.repo.defs[key]):
            return "grad_clip"
        if not node.is_class and (
            _SCHEDULE_NAME.search(name) or self._writes_lr(*self.repo.defs[key])
        ):
            return _SCHEDULE_FUNCTION  # a scheduler only if what it returns is stored so
        if node.is_class and _SETTING_ASSIGNER.search(name):
            # ConvNeXt's LayerDecayValueAssigner hands each layer its learning-rate scale:
            # the optimizer's layer-wise decay, not a label assigner of the loss
            return "optimizer"
        if node.is_class and module and _WITH_LOSS.search(name):
            # CenterNet's ``ModleWithLoss(model, loss)``: the network run with its loss in
            # one forward, the training step's wrapper, not a loss
            return None
        if node.is_class and _LOSS_CLASS_NAME.search(name):
            # guided-diffusion's LossSecondMomentResampler draws timesteps by their loss
            return None if not module and _NOT_LOSS_ROLE.search(name) else "loss"
        if not node.is_class and _is_loss_function(name):
            file, index = self.repo.defs[key]
            if any(
                c.function == index and c.expr.callee() == "backward" for c in file.values.calls
            ):
                # DINOv2's ``backprop_loss(loss)`` differentiates the loss it is given: the
                # step (its argument, an accumulator starting at 0, is no loss setting)
                return None
            return "loss"
        if (
            node.is_class
            and not module
            and _TRANSFORM_CLASS.search(name)
            and _DATA_MODULE.search(key.rpartition(".")[0])
        ):
            return "augmentation"  # Box2BoxTransform in modeling/ is a box coder
        return None

    @staticmethod
    def _sets_wd_only(file: _File, index: int) -> bool:
        """Class ``index``'s methods write a param group's weight decay
        (``group['weight_decay'] = new_wd``) and none writes its LR."""
        slots = [
            a.target
            for d in file.defs
            if d.owner == index
            for a in d.assigns
            if _is_wd_slot(a.target) or _is_lr_slot(a.target)
        ]
        return bool(slots) and all(_is_wd_slot(t) for t in slots)

    @staticmethod
    def _writes_lr(file: _File, index: int) -> bool:
        """Function ``index`` writes a param group's LR (``param_group['lr'] = lr``), whatever
        its name (``warmup_learning_rate``, ``linear_ramp``), and does nothing else a
        training function does: its only loops walk the param groups, it neither
        differentiates nor steps. It sets the LR where it is called; a training loop that
        writes the LR between its steps is not one (its own statements are the row)."""
        groups = {
            name
            for loop in file.values.loops
            if loop.function == index and "param_groups" in loop.iter.full()
            for name in loop.names
        }
        if not any(
            _is_lr_slot(a.target)
            and ("param_groups" in a.target.full() or _root_name(a.target) in groups)
            for a in file.defs[index].assigns
        ):
            return False  # a dict of settings logged (``p['lr'] = args.lr``): no param group
        if any(
            loop.function == index and "param_groups" not in loop.iter.full()
            for loop in file.values.loops
        ):
            return False
        return not any(
            c.function == index and c.expr.callee() in ("backward", "step")
            for c in file.values.calls
        )

    @staticmethod
    def _clips_gradients(file: _File, index: int) -> bool:
        """Function ``index`` clips the gradients by hand, whatever its name: it scales
        them in place (``p.grad.mul_(clip_norm / max(total, clip_norm))``) after reading
        their norm, or clamps them (``p.grad.data.clamp_(-c, c)``): what
        ``clip_grad_norm_`` / ``clip_grad_value_`` do. A function reading the norm only (to
        log it) or clamping the weights themselves clips no gradient."""
        scaled = clamped = normed = False
        for c in file.values.calls:
            if c.function != index or c.expr.func.kind != "Attribute":
                continue
            method, receiver = c.expr.func.name, c.expr.func.target
            on_grad = any(e.kind == "Attribute" and e.name == "grad" for e in receiver.walk())
            if not on_grad:
                continue
            scaled |= method in ("mul_", "div_")
            clamped |= method in ("clamp_", "clip_")
            normed |= method == "norm"
        return clamped or (scaled and normed)

    def _table_entry(self, file: _File, call: CallValues) -> tuple[str, str] | None:
        """(the torch API, how it was picked) that ``call`` builds when its callee is what a
        repository function returns for a name (SlowFast's
        ``losses.get_loss_func(cfg.MODEL.LOSS_FUNC)(reduction="mean")``, where
        ``get_loss_func(loss_name)`` returns ``_LOSSES[loss_name]`` and ``_LOSSES`` maps
        ``"cross_entropy"`` to ``nn.CrossEntropyLoss``): the entry of the module-level dict
        the name the call passes selects with the run's values; None when any step is not
        told."""
        inner = call.expr.func
        factory = file.dotted(inner.func) if inner.func.kind in ("Name", "Attribute") else None
        key = self.repo_key(factory) if factory else None
        found = self.repo.defs.get(key) if key else None
        if found is None:
            return None
        tfile, index = found
        d = tfile.defs[index]
        if d.is_class or d.owner >= 0 or len(d.returns) != 1:
            return None
        ret = d.returns[0]
        if ret.kind != "Subscript" or len(ret.parts) != 2:
            return None
        table, param = ret.parts
        if table.kind != "Name" or param.kind != "Name" or param.name not in d.positional:
            return None
        at = d.positional.index(param.name)
        named = {k.name: k.target for k in inner.keywords}
        arg = inner.args[at] if at < len(inner.args) else named.get(param.name)
        value = self._holds(file, call.function, arg, 0) if arg is not None else _UNKNOWN
        if not isinstance(value, str):
            return None
        bound = [
            a.value
            for a in tfile.values.assigns
            if a.target.kind == "Name" and a.target.name == table.name and a.value.kind == "Dict"
        ]
        if len(bound) != 1 or value not in bound[0].keys:
            return None
        entry = bound[0].items[bound[0].keys.index(value)]
        api = tfile.dotted(entry) if entry.kind in ("Name", "Attribute") else None
        if api is None or not api.startswith("torch."):
            return None
        return api, f"{table.name}[{value!r}] ({inner.shown(60)})"

    def _local_table_entry(self, file: _File, call: CallValues) -> tuple[str, str] | None:
        """(the torch API, how it was picked) that ``call`` builds when its callee is an
        entry of a dict the same function (or the module) binds, picked by a value the run
        gives (``opts = {"sgd": torch.optim.SGD, "adagrad": torch.optim.Adagrad}``, then
        ``opts[args.optimizer](parameters, lr=args.learning_rate)``); None when any step is
        not told."""
        inner = call.expr.func
        if len(inner.parts) != 2 or inner.parts[0].kind != "Name":
            return None
        table, key = inner.parts
        fn = call.function
        bound = file.local_value(fn, table.name, call.expr.line) if fn >= 0 else None
        if bound is None:
            module = [
                a.value
                for a in file.values.assigns
                if a.target.kind == "Name" and a.target.name == table.name
            ]
            bound = module[0] if len(module) == 1 else None
        if bound is None or bound.kind != "Dict":
            return None
        value = self._holds(file, fn, key, 0)
        if not isinstance(value, str) or value not in bound.keys:
            return None
        entry = bound.items[bound.keys.index(value)]
        api = file.dotted(entry) if entry.kind in ("Name", "Attribute") else None
        if api is None or not api.startswith("torch."):
            return None
        return api, f"{table.name}[{value!r}] ({key.shown(60)})"

    # -- patterns read from the trees
    def _foreign_calls(self, file: _File) -> None:
        """torchvision / albumentations transforms, numpy and ``random`` seeds, and calls
        that end augmentation for the last epochs (``close_mosaic()``); a torch class a
        repository function picks from a dict by name (:meth:`_table_entry`)."""
        for call in file.values.calls:
            expr = call.expr
            name = file.dotted(expr.func)
            picked = (
                self._table_entry(file, call)
                if expr.func.kind == "Call"
                else self._local_table_entry(file, call)
                if expr.func.kind == "Subscript"
                else None
            )
            category = _category(picked[0]) if picked is not None else None
            if picked is not None and category is not None:
                fn = call.function
                describe = self.values.describe
                values = [(f"arg{i + 1}", describe(file, fn, a)) for i, a in enumerate(expr.args)]
                values += [(k.name or "**", describe(file, fn, k.target)) for k in expr.keywords]
                self.add(category, picked[0], file.where(expr.line), values, f"picked: {picked[1]}")
            elif name is not None and name.startswith(_AUG_PACKAGES):
                if _place_key(file.path, expr) in self.composed_calls:
                    continue  # shown in its composition's row
                if self.composed_modules and not name.rpartition(".")[2][:1].isupper():
                    continue  # a functional transform inside a transform's definition
                if _wrapped_step(file, call):
                    continue  # ``self.worker = T.CenterCrop(size)``: the wrapping class's
                if name.rpartition(".")[2] != "Compose":
                    values = [(f"arg{i + 1}", a.text) for i, a in enumerate(expr.args)]
                    values += [(k.name or "**", k.target.text) for k in expr.keywords]
                    self.add("augmentation", name, file.where(expr.line), values)
            elif name in _FOREIGN_SEEDS:
                if any(_test_hook(near, expr.line) for near in call.ifs):
                    continue  # a test mode's fixed draws (``if pytest: np.random.seed(0)``)
                given = expr.args[:1] or [k.target for k in expr.keywords if k.name == "seed"]
                values = [("seed", self.values.describe(file, call.function, a)) for a in given]
                split = _split_seed(file, call, name)
                if split:
                    self.add("dataloader", name, file.where(expr.line), values, split)
                else:
                    self.add("seed", name, file.where(expr.line), values)
            elif (
                name is not None
                and name.partition(".")[0] not in self.local | {"torch"}
                and self.repo_key(name) is None
                and _FOREIGN_LOSS.search(name.rpartition(".")[2])
            ):  # timm.loss.LabelSmoothingCrossEntropy(smoothing=args.smoothing)
                fn = call.function
                describe = self.values.describe
                values = [(f"arg{i + 1}", describe(file, fn, a)) for i, a in enumerate(expr.args)]
                values += [(k.name or "**", describe(file, fn, k.target)) for k in expr.keywords]
                self.add("loss", name, file.where(expr.line), values, "third-party loss")
            elif (
                name is not None
                and name.partition(".")[0] not in self.local | {"torch"}
                and self.repo_key(name) is None
                and (category := _foreign_setting(name.rpartition(".")[2])) is not None
                and not self._in_transform_class(file, call.function)
            ):  # timm.data.Mixup(mixup_alpha=config.AUG.MIXUP, ...), timm.utils.ModelEma
                # the settings followed to their values; the model or data handed over (its
                # positional arguments, a ``model=``) shown as written
                fn = call.function
                describe = self.values.describe
                values = [(f"arg{i + 1}", a.text) for i, a in enumerate(expr.args)]
                values += [
                    (k.name or "**", k.target.text)
                    if k.name in _DATA_PARAMS
                    else (k.name or "**", describe(file, fn, k.target))
                    for k in expr.keywords
                ]
                self.add(category, name, file.where(expr.line), values, "third-party")
            elif (
                name is None
                and call.statement
                and expr.func.kind == "Attribute"
                and expr.func.name in _CLIP_METHODS
            ):  # DINOv2's ``v.clip_grad_norm_(cfg.optim.clip_grad)`` on its FSDP modules
                fn = call.function
                describe = self.values.describe
                values = [(f"arg{i + 1}", describe(file, fn, a)) for i, a in enumerate(expr.args)]
                values += [(k.name or "**", describe(file, fn, k.target)) for k in expr.keywords]
                note = "a method of the wrapped model or trainer, not torch.nn.utils'"
                self.add("grad_clip", expr.func.text, file.where(expr.line), values, note)
            elif _NO_AUG.search(expr.callee()):
                self._no_aug_call(file, call)

    @staticmethod
    def _in_transform_class(file: _File, fn: int) -> bool:
        """Def ``fn`` is a method of a class named for an augmentation (detectron2's
        ``RandomFlip.get_transform`` returning fvcore's ``HFlipTransform(w)``): the
        concrete operation the augmentation picks, which its own row stands for."""
        cls = file.defs[fn].owner if fn >= 0 else -1
        while cls >= 0 and not file.defs[cls].is_class:
            cls = file.defs[cls].owner
        if cls < 0:
            return False
        name = file.defs[cls].name
        return bool(_TRANSFORM_CLASS.search(name)) or _setting_category(_snake(name)) == (
            "augmentation"
        )

    def _compositions(self, file: _File) -> None:
        """Each outermost composition of transforms (``T.Compose([...])``) as one row with
        the transforms it applies, in order, with their values followed (``scales`` → the
        list it is set to); the ``if`` it sits under says which split uses it."""
        for call in file.values.calls:
            if not is_composition(call.expr.callee()):
                continue
            if _place_key(file.path, call.expr) in self.composed_calls:
                continue
            fn = call.function
            self.composed_calls.add(_place_key(file.path, call.expr))
            if _transform_internal(file, fn):
                continue  # ColorJitter.get_params' own Compose: how one step is made
            args = call.expr.args
            steps = self._steps(file, fn, args[0] if args else None, 0)
            if self._inside_composition(file, call) or not steps:
                continue
            if self._not_for_training(file, call):
                continue
            if fn < 0 and call.stored is not None and self._read_for_evaluation(file, call.stored):
                continue  # PyTorch-YOLOv3's DEFAULT_TRANSFORMS: validation's and detect.py's
            values = [(f"{i}", step) for i, step in enumerate(steps, 1)]
            if call.when is not None and (fn < 0 or call.when_function == fn):
                values.append(("when", call.when_text))
            where = file.defs[fn].name if fn >= 0 else "module code"
            note = "the transforms applied, in order"
            target = call.stored
            entry = _dict_entry(file, call)
            if entry is not None and entry[0]:  # data_transforms = {"train": T.Compose(...)}
                note += f", stored as {entry[0]}[{entry[1]!r}]"
            elif target is not None and target.kind in ("Name", "Attribute"):
                note += f", stored as {target.text}"  # val_transform = T.Compose(...)
            self.add(
                "augmentation", f"composition in {where}", file.where(call.expr.line), values, note
            )

    def _not_for_training(self, file: _File, call: CallValues) -> bool:
        """A composition that no training batch goes through: stored for visualisation
        (pytorch-segmentation's ``self.restore_transform = Compose([DeNormalize(...),
        ToPILImage()])``) or evaluation (``val_tf = ...``), or handed to a dataset built for a
        validation split (RetinaNet's ``dataset_val = CocoDataset(path, set_name='val2017',
        transform=Compose([...]))``)."""
        stored = [call.stored] if call.stored is not None else []
        for outer in file.calls_around(call.expr):
            if outer.stored is not None:
                stored.append(outer.stored)
            passed = [*outer.expr.args, *(k.target for k in outer.expr.keywords)]
            if any(
                a.kind == "Constant" and isinstance(a.value, str) and _EVAL_SPLIT.fullmatch(a.value)
                for a in passed
            ):
                return True
            if any(
                k.name in TRAIN_SWITCHES and k.target.text == "False" for k in outer.expr.keywords
            ):
                return True
        names = [t.text.rpartition(".")[2] for t in stored if t.kind in ("Name", "Attribute")]
        # the list it composes, named for its split (re-id scripts' ``transform_val_list``)
        names += [a.name for a in call.expr.args[:1] if a.kind == "Name"]
        if any(_NOT_TRAINING_STORE.search(name) for name in names):
            return True
        if call.function < 0 and _evaluation_script(file.path):
            return True  # the module code of re-id's ``test.py``
        # a dict of compositions by split (``{'train': Compose(...), 'val': Compose(...)}``,
        # picked by key for each split's dataset): the key says whose it is
        entry = _dict_entry(file, call)
        return entry is not None and bool(_EVAL_SPLIT.fullmatch(entry[1]))

    def _inside_composition(self, file: _File, call: CallValues) -> bool:
        """A composition used as a step of another (``normalize`` in the training one)."""
        if any(
            is_composition(outer.expr.callee()) or outer.expr.callee() in _COMPOSITIONS
            for outer in file.calls_around(call.expr)
        ):
            return True
        fn = call.function
        if not (call.assigned and fn >= 0):
            return False
        names = set(call.assigned)
        d = file.defs[fn]
        end = (call.expr.end_line, call.expr.end_col)
        # only a later composition can use this one: stargan's ``transform =
        # T.Compose(transform)`` rebinds its own list's name, no outer composition
        return any(
            is_composition(other.expr.callee())
            and any(n.kind == "Name" and n.name in names for n in other.expr.walk()[1:])
            for other in file.values.calls
            if d.line <= other.expr.line <= d.end_line and (other.expr.line, other.expr.col) >= end
        )

    def _steps(self, file: _File, fn: int, expr: Expr | None, depth: int) -> list[str]:
        """The transforms of a composition's list, each as ``Name(arg=value, ...)``."""
        if expr is None:
            return []
        if expr.kind == "Name" and depth < MAX_DEPTH:
            held = (set(self.composed_calls), set(self.composed_modules))
            listed = self._bound_steps(file, fn, expr.name, expr.line, depth + 1)
            if listed is None and fn >= 0 and not _binds(file, fn, expr.name):
                # a module-level list read in a function (``Compose(train_list)`` in a
                # loader builder): the module's statements have run by the time it is called
                listed = self._bound_steps(file, -1, expr.name, _END, depth + 1)
            if listed is not None:
                return listed
            self.composed_calls, self.composed_modules = held
            bound = self._running_value(file, fn, expr.name, expr.line) if fn >= 0 else None
            if bound is not None:
                return self._steps(file, fn, bound, depth + 1)
        if expr.kind in ("List", "Tuple"):
            return [self._step(file, fn, e, depth + 1) for e in expr.parts]
        return [self._step(file, fn, expr, depth + 1)]

    def _running_value(self, file: _File, fn: int, name: str, before: int) -> Expr | None:
        """The last ``name = value`` of def ``fn`` before line ``before`` among those the
        defaults run (MiDaS's ``normalization = NormalizeImage(...)`` in the branch of the
        default model type, not the last branch's), else the last one."""
        bound = _name_assignments(file.defs[fn], name, before)
        running = [a for a in bound if self._assignment_runs(file, fn, a.line)] or bound
        return max(running, key=lambda a: a.line).value if running else None

    def _bound_steps(
        self, file: _File, fn: int, name: str, used: int, depth: int
    ) -> list[str] | None:
        """The transforms the list ``name`` holds where line ``used`` reads it, its
        statements in scope ``fn`` (-1: the module) followed in order: ``t = [...]``, a
        concatenation (re-id scripts' ``train_list = train_list + [RandomErasing(...)]``
        under ``if opt.erasing_p > 0:``, ``[ColorJitter(...)] + train_list``) and
        ``t.append(...)``/``t.extend(...)``. A statement under an ``if`` the defaults skip
        is passed over (its transforms keep their own rows, which the untaken-branch rule
        drops and the option's row names); one under an ``if`` that cannot be told adds its
        transforms marked ``(if test)``. None when ``name`` is no list built so (the caller
        shows what it is bound to)."""
        own = file.values.assigns if fn < 0 else file.defs[fn].assigns
        events: list[tuple[int, int, AssignValues | None, CallValues | None]] = [
            (a.line, a.target.col, a, None)
            for a in own
            if not a.annotated
            and a.line < used
            and a.target.kind == "Name"
            and a.target.name == name
        ]
        if not events:
            return None
        # ``t += [RandomHorizontalFlip()]`` (I-JEPA's ``transform_list``): an extension
        grown = {
            (u.line, u.node.col): u
            for u in (file.values.updates if fn < 0 else file.defs[fn].updates)
            if u.op == "Add"
            and u.value is not None
            and u.node.kind == "Name"
            and u.node.name == name
            and u.line < used
        }
        events += [(line, col, None, None) for line, col in grown]
        events += [
            (c.expr.line, c.expr.col, None, c)
            for c in file.values.calls
            if c.scope == fn
            and c.expr.func.kind == "Attribute"
            and c.expr.func.name in ("append", "extend")
            and c.expr.func.target.kind == "Name"
            and c.expr.func.target.name == name
            and c.expr.line < used
            and c.expr.args
        ]
        steps: list[str] | None = None
        for line, col, assign, call in sorted(events, key=lambda e: (e[0], e[1])):
            update = grown.get((line, col)) if assign is None and call is None else None
            ifs = (
                assign.ifs
                if assign is not None
                else call.ifs
                if call is not None
                else update.ifs
                if update is not None
                else ()
            )
            runs = self._runs_under(file, fn, ifs, line, used)
            if runs is False:
                continue  # ``if aug_cfg.color_jitter_prob:`` with a None default
            mark = "" if runs is True else f" (if {runs})"
            if update is not None and update.value is not None:
                if steps is not None:
                    added = self._joined_steps(file, fn, update.value, name, steps, mark, depth)
                    if added is None:
                        return None  # grown by something not a list of transforms
                    steps = steps + added
                continue
            if call is not None:
                if steps is not None:
                    added = self._steps(file, fn, call.expr.args[0], depth + 1)
                    steps = steps + [f"{step}{mark}" for step in added]
                continue
            assert assign is not None
            if mark and not any(n.kind == "Name" and n.name == name for n in assign.value.walk()):
                return None  # replaced under a test that cannot be told: which list is not known
            steps = self._joined_steps(file, fn, assign.value, name, steps, mark, depth)
            if steps is None:
                return None
        return steps

    def _joined_steps(
        self,
        file: _File,
        fn: int,
        value: Expr,
        name: str,
        before: list[str] | None,
        mark: str,
        depth: int,
    ) -> list[str] | None:
        """The transforms of ``value`` assigned to the list ``name``: a list, or lists
        joined with ``+`` where ``name`` itself stands for the transforms it held
        (``before``) and each other list's get ``mark``; None for anything else."""
        if value.kind in ("List", "Tuple"):
            return [f"{self._step(file, fn, e, depth + 1)}{mark}" for e in value.parts]
        if value.kind == "BinOp" and value.name == "Add" and len(value.parts) == 2:
            left, right = (
                self._joined_steps(file, fn, part, name, before, mark, depth)
                for part in value.parts
            )
            return None if left is None or right is None else left + right
        if value.kind == "Name" and value.name == name:
            return None if before is None else list(before)
        if value.kind == "Name" and depth < MAX_DEPTH:
            other = self._bound_steps(file, fn, value.name, value.line, depth + 1)
            return None if other is None else [f"{step}{mark}" for step in other]
        return None

    def _runs_under(
        self, file: _File, fn: int, ifs: Sequence[IfValues], line: int, used: int
    ) -> bool | str:
        """Whether the ``if`` of scope ``fn`` nearest the statement at ``line`` (``ifs``,
        innermost first) lets it run with the values the code starts from: True (none, one
        around line ``used`` too, where the list is composed, or its test holds), False (it
        fails), else the test as the statement runs under it (negated in the ``else``), for
        the row to say."""
        if not ifs or ifs[0].function != fn:
            return True
        near = ifs[0]
        if near.line <= used <= near.end_line:
            return True  # the composition itself is under it: its row says so
        in_else = bool(near.body_end) and near.body_end < line <= near.end_line
        value = self._holds(file, fn, near.test, 0)
        if value is _UNKNOWN:
            if not in_else:
                return near.test.text
            simple = near.test.kind in ("Name", "Attribute", "Call", "Subscript")
            return f"not {near.test.text}" if simple else f"not ({near.test.text})"
        return bool(value) != in_else

    def _step(self, file: _File, fn: int, expr: Expr, depth: int) -> str:
        for node in expr.walk():  # T.Flip() if flip else nn.Identity(): shown here too
            if node.kind == "Call":
                self._composed(file, node)
        if expr.kind == "Name" and fn >= 0 and depth < MAX_DEPTH:
            bound = self._running_value(file, fn, expr.name, expr.line)
            if bound is not None and bound.kind == "Call":
                return self._step(file, fn, bound, depth + 1)
        if expr.kind != "Call" or depth >= MAX_DEPTH:
            return expr.text
        self._composed(file, expr)
        name = expr.callee() or expr.func.text
        if is_composition(name):
            args = expr.args
            inner = self._steps(file, fn, args[0] if args else None, depth + 1)
            return "[" + ", ".join(inner) + "]"
        shown = [self._argument(file, fn, arg, depth) for arg in expr.args]
        for kw in expr.keywords:
            shown.append(f"{kw.name or '**'}={self._argument(file, fn, kw.target, depth)}")
        shown += self._step_defaults(file, expr)
        sequence = self._step_sequence(file, expr)
        text = f"{name}({', '.join(shown)})"
        return f"{text} = {sequence}" if sequence else text

    def _step_defaults(self, file: _File, expr: Expr) -> list[str]:
        """The literal defaults a repository transform class keeps for what a step leaves
        out (pytorch-retinanet's ``Resizer()`` resizes to ``min_side=608, max_side=1024``):
        the values the composition really runs with."""
        if expr.unpacks():
            return []
        found = self._step_class(file, expr)
        if found is None:
            return []
        owner, index = found
        if not owner.defs[index].is_class:
            return []
        return [f"{name}={value}" for name, value in self._class_constants(owner, index, expr)]

    def _class_constants(self, owner: _File, index: int, built: Expr) -> list[tuple[str, str]]:
        """The numbers a repository loss or transform class keeps for itself when the call
        ``built`` that constructs it passes none: what the constructor leaves at its literal
        defaults, the settings ``__call__`` takes after the sample (a composition never
        passes them; pytorch-retinanet's ``Resizer()`` resizes to ``min_side=608,
        max_side=1024``), the numeric attributes ``__init__`` sets (its ``Normalizer()``:
        ``self.mean = np.array([[[0.485, 0.456, 0.406]]])``), the numeric locals of
        ``forward``/``__call__`` (its ``FocalLoss``: ``alpha = 0.25``, ``gamma = 2.0``) and the
        fractional constants written into the calls there (the smooth-L1 threshold in
        ``torch.le(regression_diff, 1.0 / 9.0)``, the box-target std
        ``torch.Tensor([[0.1, 0.1, 0.2, 0.2]])``): the values a port has to carry over."""
        cls = owner.defs[index]
        out: list[tuple[str, str]] = []
        # the names the call passes the constructor: a ``__call__`` parameter of the same
        # name (``is_flow=False`` beside the constructor's ``is_flow``) is not the value
        given: set[str] = set()
        for method, skip in (("__init__", 1), ("__call__", 2)):
            found = owner.first.get(f"{cls.qual}.{method}")
            if found is None or owner.defs[found].is_class or owner.defs[found].vararg:
                continue
            bound = bind_call(owner.defs[found], built) if method == "__init__" else {}
            given |= set(bound)
            out += [
                (param, default.text)
                for param, default in owner.defs[found].params[skip:]
                if param not in given
                and param not in {name for name, _ in out}
                and default is not None
                and default.literal
                and not _is_none(default)
            ]
        seen = {name for name, _ in out}
        init = owner.first.get(f"{cls.qual}.__init__")
        for a in sorted(owner.defs[init].assigns, key=lambda a: a.line) if init is not None else ():
            target, value = a.target, a.value
            if (
                target.kind == "Attribute"
                and target.target.text == "self"
                and target.name not in seen
                and _numeric_setting(value)
            ):
                seen.add(target.name)
                out.append((target.name, value.text))
        for method in ("forward", "__call__"):
            found = owner.first.get(f"{cls.qual}.{method}")
            if found is None:
                continue
            # what the method returns or adds up in a loop is its output, no constant
            # (DINO's ``total_loss = 0``, then ``total_loss -= loss.mean()``, returned)
            seen |= {r.name for r in owner.defs[found].returns if r.kind == "Name"}
            seen |= {
                u.node.name
                for loop in owner.values.loops
                if loop.function == found
                for u in loop.updates
                if u.op and u.node.kind == "Name"
            }
            for a in sorted(owner.defs[found].assigns, key=lambda a: a.line):
                if (
                    a.target.kind == "Name"
                    and a.target.name not in seen
                    and a.value.literal
                    and is_numeric(_literal_value(a.value))
                ):
                    seen.add(a.target.name)
                    out.append((a.target.name, a.value.text))
            written: set[tuple[str, str]] = set()
            calls = [c for c in owner.values.calls if c.function == found]
            for call in sorted(calls, key=lambda c: (c.expr.line, c.expr.col)):
                if self._call_untaken(owner, call):
                    continue  # a focal ID loss under ``if opt.id_loss == 'focal':``, off
                callee = owner.dotted(call.expr.func) or call.expr.func.text
                args = (*call.expr.args, *(k.target for k in call.expr.keywords))
                shown = ", ".join(a.text for a in args if _fractional(a))
                if shown and (callee, shown) not in written:  # once for a CUDA/CPU pair
                    written.add((callee, shown))
                    out.append((f"{callee} at {owner.loc(call.expr.line)}", shown))
        return out[:_CLASS_CONSTANTS]

    def _step_class(self, file: _File, expr: Expr) -> tuple[_File, int] | None:
        """The repository def a step's call constructs (its file and index), if any."""
        local = file.first.get(expr.func.name) if expr.func.kind == "Name" else None
        if local is not None:
            return file, local
        dotted = file.dotted(expr.func) or _relative(file, expr.func)
        key = self.repo_key(dotted) if dotted else None
        if key is None and not dotted and expr.func.kind == "Name":
            key = self._star_def(file, expr.func.name)
        return self.repo.defs.get(key) if key else None

    def _step_sequence(self, file: _File, expr: Expr) -> str:
        """What a repository transform class runs when its constructor builds an imgaug
        sequence (PyTorch-YOLOv3's ``DefaultAug``: ``self.augmentations =
        iaa.Sequential([iaa.Sharpen((0.0, 0.1)), iaa.Affine(...), ..., iaa.Fliplr(0.5)])``):
        its steps with their values, as written; "" when it builds none."""
        found = self._step_class(file, expr)
        if found is None or not found[0].defs[found[1]].is_class:
            return ""
        owner, index = found
        init = owner.first.get(f"{owner.defs[index].qual}.__init__")
        if init is None:
            return ""
        for stmt in owner.defs[init].assigns:
            value = stmt.value
            if not (
                stmt.target.kind == "Attribute"
                and stmt.target.target.text == "self"
                and value.kind == "Call"
                and value.callee().rpartition(".")[2] in _IMGAUG_SEQUENCES
                and (owner.dotted(value.func) or "").startswith("imgaug.")
                and value.args
                and value.args[0].kind in ("List", "Tuple")
            ):
                continue
            steps = [_without_module(e.text) for e in value.args[0].parts]
            return f"{value.callee().rpartition('.')[2]}([{', '.join(steps)}])"
        return ""

    def _built_lists(self, file: _File) -> None:
        """A builder of augmentations that returns a list (detectron2's
        ``build_augmentation``: ``augmentation = [T.ResizeShortestEdge(...)]`` then
        ``augmentation.append(T.RandomFlip(...))``) is a composition too."""
        for qual, index in file.first.items():
            fn = file.defs[index]
            if fn.is_class or not _AUG_BUILDER.fullmatch(fn.name) or fn.owner >= 0:
                continue
            returned = [r for r in fn.returns if r.kind in ("Name", "List")]
            if len(returned) != 1:
                continue
            bound = returned[0]
            if bound.kind == "Name":
                bound = file.local_value(index, bound.name, bound.line) or bound
            if not (
                bound.kind in ("List", "Tuple")
                or (
                    bound.kind == "Call"
                    and (_AUG_BUILDER.fullmatch(bound.callee()) or is_composition(bound.callee()))
                )
            ):
                # CenterNet's get_affine_transform returns cv2's matrix, not steps; MAE's
                # build_transform returns what timm's create_transform builds
                continue
            if (
                bound.kind == "Call"
                and is_composition(bound.callee())
                and _place_key(file.path, bound) in self.composed_calls
            ):
                continue  # the composition returned has its own row, with its steps
            steps = self._steps(file, index, returned[0], 0)
            if steps:
                values = [(f"{i}", step) for i, step in enumerate(steps, 1)]
                self.add("augmentation", f"composition in {qual}", file.where(fn.line), values,
                         "the transforms the builder returns, in order")  # fmt: skip
                self.composed_modules.discard(file.module)

    def _composed(self, file: _File, call: Expr) -> None:
        """Marks a step's call as shown, and its class's module as one whose transform
        definitions the composition stands for."""
        self.composed_calls.add(_place_key(file.path, call))
        if call.func.kind == "Name" and call.func.name in file.first:
            self.composed_modules.add(file.module)
            return
        dotted = file.dotted(call.func) or _relative(file, call.func)
        key = self.repo_key(dotted)
        if key is None and not dotted and call.func.kind == "Name":
            key = self._star_def(file, call.func.name)
        if key is not None:
            self.composed_modules.add(key.rpartition(".")[0])
        elif dotted.partition(".")[0] in self.local:  # T.ResizeShortestEdge: the package
            self.composed_modules.add(dotted.rpartition(".")[0])

    def _star_def(self, file: _File, name: str) -> str | None:
        """The repository def a bare name of ``file`` is when a star import brought it, a few
        star imports deep (RITM's model configs use ``UniformRandomResize`` from
        ``isegm.data.transforms`` through ``isegm.utils.exp_imports.default``)."""
        if self._by_module is None:
            self._by_module = {m: f for f in self.files.values() for m in f.modules}
        todo = [file.from_module(*star) for star in file.values.star_imports]
        seen: set[str] = set()
        while todo and len(seen) < 20:
            module = todo.pop(0)
            if module in seen:
                continue
            seen.add(module)
            key = self.repo.canonical.get(f"{module}.{name}")
            if key is not None:
                return key
            other = self._by_module.get(module)
            if other is not None:
                todo += [other.from_module(*star) for star in other.values.star_imports]
        return None

    def _argument(self, file: _File, fn: int, expr: Expr, depth: int) -> str:
        if expr.kind == "Call" or (
            expr.kind == "Name"
            and fn >= 0
            and _kind(file.local_value(fn, expr.name, expr.line)) == "Call"
        ):
            return self._step(file, fn, expr, depth + 1)
        if expr.kind in ("List", "Tuple") and any(e.kind == "Call" for e in expr.parts):
            return "[" + ", ".join(self._step(file, fn, e, depth + 1) for e in expr.parts) + "]"
        if expr.kind == "Lambda":
            return expr.text + self._lambda_settings(file, fn, expr)
        value = self.values.resolve(file, fn, expr, 0)
        return value.show() if value.undecided() else value.text

    def _lambda_settings(self, file: _File, fn: int, expr: Expr) -> str:
        """The settings a lambda step reads (``lambda img: __scale_width(img,
        opt.load_size, method)``), each with the literal it takes with the defaults: `` with
        opt.load_size = 1024``; "" when it reads none that resolves."""
        shown: dict[str, str] = {}
        receivers = _ARG_RECEIVERS | self.repo.parsed_names
        for node in expr.walk():
            if node.kind != "Attribute" or node.text in shown:
                continue
            chain = node.chain()
            if not chain or len(chain) < 2 or chain[0] not in receivers:
                continue
            value = self.values.resolve(file, fn, node, 0)
            if value.literal and value.text != node.text:
                shown[node.text] = value.text
        if not shown:
            return ""
        return " with " + ", ".join(f"{k} = {v}" for k, v in shown.items())

    def _no_aug_call(self, file: _File, call: CallValues) -> None:
        values = [("call", call.expr.text)]
        when = call.when_text
        if when:
            values.append(("when", when))
        if "epoch" in when or "epoch" in values[0][1]:
            name = "last epochs without augmentation"
            note = "augmentation switched off for the final epochs"
        else:  # timm's --no-aug: a switch for the whole run, not a schedule
            name = "training without augmentation"
            note = "augmentation switched off by a setting"
        self.add("augmentation", name, file.where(call.expr.line), values, note)

    def _ema_loops(self, file: _File) -> None:
        """An average of the weights kept by hand: a loop over ``state_dict()`` /
        ``parameters()`` that updates each tensor in place with a decay (``mul_(d).add_``,
        ``lerp_``, ``v *= d; v += ...``), under ``no_grad`` (or on ``.data``)."""
        for loop in file.values.loops:
            names = set(loop.names)
            if not _WEIGHT_ITER.search(loop.iter.full()):
                # stylegan2's ``par1 = dict(model1.named_parameters())`` then ``for k in
                # par1.keys(): par1[k].data.mul_(decay).add_(...)``: the loop runs over a
                # local dict of the weights, and that dict is what is updated
                held = self._weight_dicts(file, loop.function)
                root = _root_name(loop.iter.func if loop.iter.kind == "Call" else loop.iter)
                if root is None or root not in held:
                    continue
                names |= held
            update = _ema_update(loop, names)
            if update is None:
                continue
            text = update.statement if update.op else update.node.full()
            # an interpolation toward the other copy (``lerp_``, ``copy_(p.lerp(...))``) is
            # an average whatever the context: stylegan3 updates G_ema outside no_grad, its
            # weights never requiring a gradient
            interpolates = not update.op and (
                update.node.func.name == "lerp_" or _lerp_of(update.node) is not None
            )
            no_grad = any(_NO_GRAD.search(c) for c in loop.contexts)
            # ``state_dict()`` hands out detached tensors: an update of them needs no
            # ``no_grad`` (pycls-style ``param.copy_(param * (1 - a) + params[name] * a)``)
            detached = "state_dict(" in loop.iter.full()
            if not (no_grad or detached or ".data" in text or interpolates):
                continue
            self._ema_item(file, loop, update)

    def _buffer_averages(self, file: _File) -> None:
        """A moving average a module keeps of its own buffers in a method, no loop over
        weights (vq-vae-2's codebook: ``self.cluster_size.data.mul_(self.decay).add_(...,
        alpha=1 - self.decay)`` in ``Quantize.forward``): the decay, followed to the value
        the module is built with (``decay=0.99``, a constructor default no call changes)."""
        seen: set[int] = set()
        for call in file.values.calls:
            node, fn = call.expr, call.function
            if fn < 0 or file.defs[fn].owner < 0 or node.func.kind != "Attribute":
                continue
            receiver = node.func.target
            if not (
                node.func.name in ("add_", "sub_")
                and receiver.kind == "Call"
                and receiver.func.kind == "Attribute"
                and receiver.func.name == "mul_"
                and len(receiver.args) == 1
                and _root_name(receiver.func.target) == "self"
            ):
                continue
            cls = file.defs[fn].owner
            if cls in seen:
                continue
            seen.add(cls)
            decay = receiver.args[0]
            target = receiver.func.target.text.removesuffix(".data")
            values = [
                ("update", f"{shorten(node.text, TEXT_LIMIT)} at {file.loc(node.line)}"),
                ("decay", self.values.describe(file, fn, decay)),
            ]
            name = file.defs[cls].name
            note = f"a moving average of {target} kept by {name}.{file.defs[fn].name}"
            self.add("ema", f"EMA of buffers ({name})", file.where(node.line), values, note)

    def _foreach_averages(self, file: _File) -> None:
        """A weight average updated over lists of tensors at once, no loop over the weights
        (DINOv2's ``update_teacher(m)``: ``torch._foreach_mul_(teacher_params, m)`` then
        ``torch._foreach_add_(teacher_params, student_params, alpha=1 - m)``): an EMA row
        with the update and the decay followed to what the step passes."""
        calls = [(file.dotted(c.expr.func), c) for c in file.values.calls]
        for name, mul in calls:
            if name != "torch._foreach_mul_" or len(mul.expr.args) != 2 or mul.function < 0:
                continue
            if not _PARAM_LIST.search(mul.expr.args[0].text) or self._optimizer_file(file):
                continue  # an optimizer's moment buffers (timm's multi-tensor AdamW): no EMA
            held, decay = mul.expr.args
            for other, add in calls:
                if (
                    add.function != mul.function
                    or other not in ("torch._foreach_add_", "torch._foreach_lerp_")
                    or not add.expr.args
                    or add.expr.args[0].text != held.text
                    or decay.text not in add.expr.text
                ):
                    continue
                fn = mul.function
                update = f"{mul.expr.text}; {add.expr.text}"
                values = [
                    ("update", f"{shorten(update, TEXT_LIMIT)} at {file.loc(mul.expr.line)}"),
                    ("decay", self.values.describe(file, fn, decay)),
                ]
                label = file.defs[fn].name
                note = "exponential moving average of a list of tensors"
                self.add(
                    "ema", f"EMA of weights ({label})", file.where(mul.expr.line), values, note
                )
                break

    def _optimizer_file(self, file: _File) -> bool:
        """Whether the file defines an optimizer (a ``torch.optim.Optimizer`` subclass): its
        in-place averages are the optimizer's moments, not a copy of the weights."""
        return any(
            d.is_class
            and "torch.optim.Optimizer" in self.hierarchy.torch_ancestors(f"{file.module}.{d.qual}")
            for d in file.defs
        )

    @staticmethod
    def _weight_dicts(file: _File, fn: int) -> set[str]:
        """The local names def ``fn`` binds to the weights themselves
        (``dict(model.named_parameters())``, ``model.state_dict()``)."""
        if fn < 0:
            return set()
        return {
            a.target.name
            for a in file.defs[fn].assigns
            if a.target.kind == "Name" and _WEIGHT_ITER.search(a.value.full())
        }

    def _ema_item(self, file: _File, loop: LoopValues, update: UpdateValues) -> None:
        fn = loop.function
        cls = file.defs[fn].owner if fn >= 0 else -1
        statement = shorten(update.statement, TEXT_LIMIT)
        values = [("update", f"{statement} at {file.loc(update.line)}")]
        holder = cls if cls >= 0 else fn
        decay_fn = fn
        if cls >= 0:
            init = file.first.get(f"{file.defs[cls].qual}.__init__")
            decay_fn = init if init is not None and not file.defs[init].is_class else fn
        if decay_fn >= 0:
            for name, default in file.defs[decay_fn].params:
                if _DECAY_PARAM.search(name):
                    val = self.values.parameter(file, decay_fn, name, default, 0)
                    values.append((name, val.show()))
        factor = _ema_factor(update)
        if len(values) == 1 and factor is not None and not factor.literal:
            # no decay parameter: the factor the update uses (``m = momentum_schedule[it]``)
            values.append(("decay", self.values.describe(file, fn, factor)))
            values += self._decay_schedule(file, fn, factor, update.line)
        if holder >= 0:
            for caller, call in self.values.call_sites(file, holder)[:5]:
                line = call.expr.line
                values.append(("used at", f"{caller.loc(line)}: {call.expr.text}"))
        label = file.defs[holder].name if holder >= 0 else "module code"
        where = file.where(file.defs[holder].line if holder >= 0 else loop.line)
        self.add("ema", f"EMA of weights ({label})", where, values, "exponential moving average")

    def _decay_schedule(
        self, file: _File, fn: int, factor: Expr, line: int
    ) -> list[tuple[str, str]]:
        """The per-step values an EMA's decay is drawn from, when the update reads it off a
        sequence written by hand (I-JEPA's ``m = next(momentum_scheduler)``, the generator
        ``(ema[0] + i*(ema[1]-ema[0])/(ipe*num_epochs*ipe_scale) for i in range(...))``
        bound in the function around the training step; ``m = momentum_schedule[it]`` of a
        list comprehension): the sequence as written, then the settings it reads, each with
        its value. Nothing for a decay read another way."""
        value = factor
        if factor.kind == "Name" and fn >= 0:
            value = file.local_value(fn, factor.name, line) or factor
        drawn = None
        if value.kind == "Call" and value.callee() == "next" and value.args:
            drawn = value.args[0]
        elif value.kind == "Subscript" and value.parts:
            drawn = value.parts[0]
        if drawn is None or drawn.kind != "Name":
            return []
        # the function itself, then the functions around it, then the module
        scopes = [fn] if fn >= 0 else []
        if fn >= 0:
            here = file.defs[fn]
            scopes += sorted(
                (
                    i
                    for i, d in enumerate(file.defs)
                    if not d.is_class and d.line < here.line and here.end_line <= d.end_line
                ),
                key=lambda i: -file.defs[i].line,
            )
        for scope in scopes:
            bound = file.local_value(scope, drawn.name, line)
            if bound is None:
                continue
            if bound.kind not in _WRITTEN_SEQUENCES:
                return []
            out = [(drawn.name, f"{shorten(bound.text, TEXT_LIMIT)} at {file.loc(bound.line)}")]
            seen: set[str] = set()
            for n in bound.walk():
                # (the comprehension's own variable is bound by no assignment: passed over)
                if n.kind != "Name" or n.name in seen:
                    continue
                seen.add(n.name)
                setting = file.local_value(scope, n.name, bound.line)
                if setting is not None and len(out) <= _SCHEDULE_SETTINGS:
                    out.append((n.name, self.values.describe(file, scope, setting)))
            return out
        return []

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
                if _IDENTITY_TEST.fullmatch(when.strip()):
                    # ``if G_inv is not I_3:``: which object a name holds (a transform
                    # composed or not) decides it, no draw: a filter reversed for a
                    # resampling convolution, not a random flip
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
                    if self._inference_only(module, qual):
                        continue  # CenterNet's flip_tensor: test-time flipping in detectors/
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

    def _inference_only(self, module: str, qual: str) -> bool:
        """Whether every call of the def ``qual`` (or of the class's methods) is made by
        inference code: a flip averaged at test time is not a training augmentation."""
        key = f"{module}.{qual}"
        sites = [
            f"{path}:{fact.caller}"
            for k, found in self.repo.call_sites.items()
            if k == key or k.startswith(key + ".")
            for path, fact in found
        ]
        return bool(sites) and all(_INFERENCE_PLACE.search(site) for site in sites)

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
        owner = qual.rpartition(".")[0]
        module = fa.modules[0] if fa.modules else ""
        if (
            owner
            and not self.hierarchy.is_module(f"{module}.{owner}")
            and all(key.startswith("self.") and not _WEIGHT_ATTR.search(key) for key, _ in values)
        ):
            # AverageMeter.initialize sets its own flags: bookkeeping, not weights (YOLOX's
            # init_yolo inside Exp.get_model sets the BatchNorm layers' eps: it stays)
            return
        if values and all(
            key.partition(".")[0] in _ARG_RECEIVERS and key.rpartition(".")[2] not in INIT_FUNCTIONS
            for key, _ in values
        ):
            # ConvNeXt's init_distributed_mode sets args.distributed and args.dist_backend:
            # the run's options, not the weights
            return
        imported = dict(fa.syntax.imports) if fa.syntax is not None else {}
        if values and all(
            key.partition(".")[0] in imported and key.rpartition(".")[2] not in INIT_FUNCTIONS
            for key, _ in values
        ):
            # a set-up named ``init_*`` that switches a library's flags (``cudnn.benchmark =
            # False`` beside ``torch.manual_seed``: seeding, the seed rows say it) sets no
            # weight
            return
        if (
            values
            and not (owner and self.hierarchy.is_module(f"{module}.{owner}"))
            and (fa.path, qual) not in self.torch_functions
            and not any(
                _WEIGHT_ATTR.search(key) or key.rpartition(".")[2] in INIT_FUNCTIONS
                for key, _ in values
            )
        ):
            # a set-up named ``init_*`` that touches no module or tensor (CornerNet's
            # ``init_parallel_jobs`` marking its data-prefetch processes ``task.daemon =
            # True``): no weight is initialised
            return
        if values and all("(" in key.rpartition(".")[0] for key, _ in values):
            # tacotron2's initialize_decoder_states: ``memory.data.new(B, n).zero_()`` on every
            # forward fills tensors it has just made (RNN states), no parameter is set
            return
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
        values = self._init_arguments(fa.path, first, last, values)
        self.add("init", qual, place(fa, first), values, "repo initialisation routine")

    def _init_arguments(
        self, path: str, first: int, last: int, values: tuple[tuple[str, str], ...]
    ) -> tuple[tuple[str, str], ...]:
        """An initialisation routine's calls (``m.weight.data.normal_(mean, stddev)``) with
        each argument that is a parameter of the routine read where the routine is called
        (``0, 0.01 | 0.001``, the distinct values its callers pass, when each is a value
        the recipe follows to a literal): a helper's parameter names say nothing of the
        values the layers are given."""
        f = self.files.get(path)
        if f is None:
            return values
        out: list[tuple[str, str]] = []
        for key, text in values:
            calls = [
                c
                for c in f.values.calls
                if first <= c.expr.line <= last and c.expr.func.text == key and c.expr.args
            ]
            if len(calls) != 1 or calls[0].function < 0 or calls[0].expr.keywords:
                out.append((key, text))
                continue
            fn = calls[0].function
            d = f.defs[fn]
            params = dict(d.params)
            sites = self.values.call_sites(f, fn)
            shown: list[str] = []
            places: dict[str, None] = {}
            defaulted = False
            for arg in calls[0].expr.args:
                default = params.get(arg.name) if arg.kind == "Name" else None
                if not sites and default is not None and default.kind == "Constant":
                    # called by nothing the records show with values: handed on as a
                    # callback (``self.ups.apply(init_weights)`` calls it with the module
                    # alone), so it runs with its defaults
                    shown.append(default.text)
                    defaulted = True
                    continue
                if arg.kind != "Name" or arg.name not in params or not sites:
                    shown.append(arg.text)
                    continue
                found: dict[str, None] = {}
                for caller, call in sites[:_LITERAL_SITES]:
                    passed = bind_call(d, call.expr).get(arg.name)
                    value = (
                        self.values.resolve(caller, call.function, passed, 1)
                        if passed is not None
                        else None
                    )
                    if value is None or not value.literal:
                        found = {}
                        break
                    found[value.text] = None
                    places[caller.loc(call.expr.line)] = None
                shown.append(" | ".join(found) if found else arg.text)
            if shown == [a.text for a in calls[0].expr.args]:
                out.append((key, text))
                continue
            if defaulted:
                out.append((key, f"{', '.join(shown)} (the defaults of {d.name}())"))
                continue
            where = list(places)
            more = f" and {len(where) - 4} more" if len(where) > 4 else ""
            called = f"{d.name}() called at {', '.join(where[:4])}{more}"
            out.append((key, f"{', '.join(shown)} ({called})"))
        return tuple(out)

    def _cudnn(self) -> None:
        """``cudnn.deterministic = True`` / ``cudnn.benchmark``: reproducibility switches
        (the scan's syntax facts)."""
        for fa, facts in with_facts(self.analyses):
            for name, value, line in facts.cudnn_flags:
                if name not in _CUDNN_NOTES:
                    continue  # cudnn.benchmark: a kernel search for speed, nothing to port
                self.add(
                    "seed", name, place(fa, line), [("value", value)], _CUDNN_NOTES.get(name, "")
                )

    def _optimizer_named_defaults(self) -> None:
        """The torch optimizer an entry function's parameter names by default as a string
        (litgpt's ``setup(..., optimizer: str | dict = "AdamW")``, the class built by name
        from ``torch.optim``): a row for it, its settings the torch defaults unless a
        caller passes others. Only a name of the torch index's optimizers."""
        api = self.hierarchy.classes.api
        for path, file in sorted(self.files.items()):
            if is_test_path(path) or self.apart(path):
                continue
            for d in file.defs:
                if d.is_class:
                    continue
                for param, default in d.params:
                    if (
                        default is None
                        or default.kind != "Constant"
                        or not isinstance(default.value, str)
                        or _setting_category(param) != "optimizer"
                    ):
                        continue
                    name = default.value
                    dotted = name if "." in name else f"torch.optim.{name}"
                    if not _OPTIMIZER.fullmatch(dotted) or api.canonical(dotted) is None:
                        continue
                    note = (
                        f"built by name, the default of parameter {param} of {d.qual}(); "
                        "settings not passed are torch's defaults"
                    )
                    self.add(
                        "optimizer", dotted, file.where(default.line), [(param, repr(name))], note
                    )

    def _unpacked_settings(self) -> None:
        """The training length and precision a config file's section gives the parameters
        of the function it is passed to in ``**section`` (waveglow's ``train(num_gpus, rank,
        group_name, **train_config)`` with ``epochs: 100000`` and ``fp16_run: true`` in
        ``train_config``): no option declares them, and no torch call shows the epoch loop
        (``range(epoch_offset, epochs)``) or a precision switch as a bool. Other settings so
        passed show where the calls they feed are (the optimizer's ``lr``)."""
        hparams = self.repo.hparams
        if hparams is None or hparams.chosen is None:
            return
        shown: set[str] = set()
        for path, file in sorted(self.files.items()):
            if is_test_path(path) or self.apart(path):
                continue
            for call in file.values.calls:
                stars = [k.target for k in call.expr.keywords if not k.name]
                target = self.values.repo_function(file, call.expr) if stars else None
                if target is None:
                    continue
                t_file, t_fn = target
                d = t_file.defs[t_fn]
                for star in stars:
                    keys = self.values._loaded_keys(file, call.function, star, call.expr.line)
                    if not keys:
                        continue
                    for param, _ in d.params:
                        category = _setting_category(param)
                        key = ".".join((*keys, param))
                        if category not in ("epochs", "amp") or key in shown:
                            continue
                        found = hparams.value(key)
                        if found is None:
                            continue
                        text, setting, _ = found
                        shown.add(key)
                        why = (
                            f"parameter {param} of {d.qual}(), passed in **{star.text} at "
                            f"{file.loc(call.expr.line)}; read from {hparams.chosen}, "
                            f"{hparams.chosen_by}"
                        )
                        place = Where(setting.path, setting.line)
                        self.add(category, f"config {key}", place, [("value", text)], why)

    def _loop_bounds(self) -> frozenset[str]:
        """The attributes (``opt.nepoch``) read in the ``range(...)`` of a ``for`` loop that
        holds a ``for`` loop over something other than a ``range`` (the epochs around the
        batches) in a file of the run (not a test, not counted apart): what the training runs
        to, whatever the options' names."""
        if self._loop_bound_memo is not None:
            return self._loop_bound_memo
        found: set[str] = set()
        # where nothing trains, a loop around another is a search's (a beam search's ``for j
        # in range(self.beam_size):`` over each beam's candidates), never a training length
        trained = any(self._trains(p) for p in self.files if not is_test_path(p))
        for path, file in self.files.items() if trained else ():
            if is_test_path(path) or self.apart(path):
                continue
            for _, bound in _epoch_loops(file):
                found.update(e.name for e in bound.walk() if e.kind == "Attribute" and e.name)
        self._loop_bound_memo = frozenset(found)
        return self._loop_bound_memo

    def _loop_lengths(self) -> None:
        """What a training's epoch loop runs to when no option declares it and no row says
        it yet (tacotron2's ``for epoch in range(epoch_offset, hparams.epochs):`` around the
        loop over the data, ``epochs=500`` a keyword of the ``HParams(...)`` its
        ``create_hparams()`` returns): a training-length row with the value the attribute
        resolves to. Options are :meth:`_settings`' rows, config files' keys their own."""
        if any(i.category == "epochs" for i in self.out):
            return
        for path, file in sorted(self.files.items()):
            if is_test_path(path) or self.apart(path) or not self._trains(path):
                continue
            for outer, bound in _epoch_loops(file):
                if bound.kind == "BinOp":
                    # ``range(epoch_str, hps.train.epochs + 1)``: the setting the stop adds to
                    named = [p for p in bound.parts if p.kind in ("Attribute", "Name")]
                    literal = [p for p in bound.parts if p.kind == "Constant"]
                    args = outer.iter.args
                    if (
                        len(named) == 1
                        and len(literal) == 1
                        and len(args) >= 2
                        and args[0].text == named[0].text
                    ):
                        # ``range(start_epoch, start_epoch + 200)``: 200 epochs from where a
                        # resumed run starts, whatever that start holds
                        where = file.where(outer.line)
                        shown = f"{literal[0].text} (epochs from {named[0].text})"
                        self.add("epochs", bound.text, where, (("value", shown),), _LOOP_LENGTH)
                        return
                    bound = named[0] if len(named) == 1 and literal else bound
                if bound.kind == "Name":
                    # ``epoch_num = 100000`` in the script, then ``for epoch in range(0,
                    # epoch_num):``: the name's value, whatever the name
                    found = self.values.resolve(file, outer.function, bound, 0)
                    if found.literal and _literal_number(found.text) is not None:
                        where = file.where(outer.line)
                        self.add(
                            "epochs", bound.text, where, (("value", found.show()),), _LOOP_LENGTH
                        )
                        return
                    continue
                chain = bound.chain() if bound.kind == "Attribute" else None
                if not chain or len(chain) < 2 or chain[-1] in self.repo.argparse:
                    continue
                if chain[0] in self.repo.parsed_names:
                    continue  # options and loaded config files have their own rows
                found = self.values.resolve(file, outer.function, bound, 0)
                # the JSON hparams files setting it to different values, none picked: what
                # each sets (VITS's 20000 and 10000 epochs), as for the optimizer's values
                configs = not found.literal and self.values._hparams(bound) is not None
                if not configs and (not found.literal or _literal_number(found.text) is None):
                    continue
                note = _LOOP_LENGTH
                where = file.where(outer.line)
                self.add("epochs", bound.text, where, (("value", found.show()),), note)
                return
        # no epochs: a loop whose own body runs the backward pass, to a local the function
        # sets to a number (``N_iters = 200000 + 1``; ``for i in trange(start, N_iters):``)
        for path, file in sorted(self.files.items()):
            if is_test_path(path) or self.apart(path) or not self._trains(path):
                continue
            for loop, bound in _step_loops(file):
                if bound.kind not in ("Name", "Constant"):
                    continue
                fn = loop.function
                assigns = file.defs[fn].assigns if fn >= 0 else file.values.assigns
                if bound.kind == "Name" and not any(
                    a.target.kind == "Name" and a.target.name == bound.name for a in assigns
                ):
                    continue  # ``def main(steps=2)``: a parameter its callers may give
                found = self.values.resolve(file, loop.function, bound, 0)
                if not found.literal:
                    continue  # (``200000 + 1`` is one: numbers and operators)
                where = file.where(loop.line)
                self.add("epochs", bound.text, where, (("value", found.show()),), _STEP_LENGTH)
                return

    def _none_resolved(self, f: _File, dest: str) -> str | None:
        """The value an option declared with no default takes where the script fills it in
        (stylegan2-ada's click options handed on as ``**config_kwargs``: ``if aug is None:
        aug = 'ada'``; ``if batch is not None: args.batch_size = batch`` after ``args.
        batch_size = spec.mb``; ``if args.seed is None: args.seed = 0``): the value assigned
        under ``X is None``, else what the target set under ``X is not None`` held before.
        Only the option's own file; None when it does neither."""
        tested = re.compile(rf"(?:\w+\.)?{re.escape(dest)}")
        kept: str | None = None
        for a, fn in f.assigns:
            inner = a.ifs[0] if a.ifs else None
            if inner is None or (inner.body_end and a.line > inner.body_end):
                continue
            test = inner.test
            if test.kind != "Compare" or not test.text.endswith(("is None", "is not None")):
                continue
            subject = test.text.rpartition(" is ")[0]
            if not tested.fullmatch(subject):
                continue
            if test.text.endswith("is not None"):
                if kept is None and a.value.text == subject:
                    before = [
                        b
                        for b, bfn in f.assigns
                        if bfn == fn and b.line < inner.line and b.target.text == a.target.text
                    ]
                    if before:
                        b = before[-1]
                        shown = self.values.describe(f, fn, b.value)
                        kept = f"None: {a.target.text} keeps {shown} (set at {f.loc(b.line)})"
                continue
            if a.target.text == subject:
                shown = self.values.describe(f, fn, a.value)
                return f"None, then {shown} (set at {f.loc(a.line)} when not given)"
        return kept or self._none_picked(f, tested)

    def _none_picked(self, f: _File, tested: re.Pattern[str]) -> str | None:
        """The values an option left at None is filled with by an ``if``/``else`` inside its
        ``X is None`` test (deeplab's ``if args.sync_bn is None: if args.cuda and
        len(args.gpu_ids) > 1: args.sync_bn = True else: args.sync_bn = False``): each value
        with the test that picks it, in order; None when no such pair fills it."""
        for a, fn in f.assigns:
            if len(a.ifs) < 2 or a.line > a.ifs[0].body_end:
                continue  # the ``if`` branch of the pick; its ``else`` is read with it
            pick, outer = a.ifs[0], a.ifs[1]
            test = outer.test
            if (
                test.kind != "Compare"
                or not test.text.endswith(" is None")
                or not outer.body_end
                or pick.end_line > outer.body_end
            ):
                continue
            subject = test.text.rpartition(" is ")[0]
            if not tested.fullmatch(subject) or a.target.text != subject:
                continue
            other = [
                b
                for b, bfn in f.assigns
                if bfn == fn
                and b.target.text == subject
                and b.ifs[:1] == (pick,)
                and pick.body_end < b.line <= pick.end_line
            ]
            if len(other) != 1:
                continue
            first = self.values.describe(f, fn, a.value)
            second = self.values.describe(f, fn, other[0].value)
            return (
                f"None, then {first} if {pick.test.shown()}, else {second} "
                f"(set at {f.loc(a.line)} and {f.loc(other[0].line)} when not given)"
            )
        return None

    # -- settings: argparse options, config attributes, module constants
    def _settings(self) -> None:
        # an option named for the batch size is it: the help of another is no second
        # (CenterNet's --master_batch_size, "batch size on the master gpu", beside it)
        named_batch = any(_setting_category(d) == "batch_size" for d in self.repo.argparse)
        for dest, options in self.repo.argparse.items():
            category = _setting_category(dest)
            if category == "preprocessing" and any(_COUNT_HELP.search(_help(o)) for o in options):
                # SuperGlue's --max_length, "maximum number of pairs to evaluate": how many
                # inputs are read, not a length each one is cut or padded to
                category = None
            if category is None and any(_RESIZE_HELP.search(_help(o)) for o in options):
                # Pytorch-UNet's --scale 0.5, "Downscaling factor of the images": every image
                # (and mask) resized by it before it enters the network
                category = "preprocessing"
            if category is None and any(_AUG_HELP.search(_help(o)) for o in options):
                # CenterNet's --scale / --shift: "apply scale augmentation" says what it is
                category = "augmentation"
            if (
                category is None
                and not named_batch
                and not _EVALUATION_SETTING.search(dest.lower())
                and any(_BATCH_HELP.match(_help(o)) for o in options)
                and not any(_NOT_TRAINING_HELP.search(_help(o)) for o in options)
            ):
                # NeRF-like --N_rand, "batch size (number of random rays per gradient step)"
                category = "batch_size"
            if (
                category is None
                and not _CADENCE.search(dest)
                and any(_LENGTH_HELP.search(_help(o)) for o in options)
                # slot-attention's --decay_steps, "Number of steps for the learning rate
                # decay": the schedule's (its row shows it), not the training's length
                and not any(_LR_HELP.search(_help(o)) for o in options)
            ):
                # faster-rcnn's --disp_interval, "number of iterations to display": how
                # often the run logs or saves, not how long it trains
                category = "epochs"
            if category is None:
                # T2T-ViT's --reprob, --aa, --scale: passed as re_prob=, auto_augment=,
                # scale= to timm's create_loader, a factory taking augmentation keywords
                category = self._passed_category(dest)
            if category is None and self._optimizer_lr(dest):
                # StarGAN v2's --f_lr: ``lr=args.f_lr if net == 'mapping_network' else
                # args.lr``, the learning rate of one of the networks' optimizers
                category = "optimizer"
            if category is None and dest in self._loop_bounds():
                # ``for epoch in range(1, opt.nepoch + opt.nepoch_decay + 1):`` around the
                # loop over the data: the options the training runs to are its length
                category = "epochs"
            if category is None:
                continue
            if category == "epochs" and self._model_argument_only(dest):
                continue  # RAFT's --iters: refinement steps the model's call runs, no length
            if category == "epochs" and self._phase_bound(dest):
                continue  # --precrop_iters: ``if i < args.precrop_iters:`` a first phase
            if category == "epochs" and dest not in self._loop_bounds() and self._count_of_op(dest):
                continue  # SwAV's --sinkhorn_iterations: a normalisation's steps in the loss
            if category == "epochs" and all(_word_default(o.default) for o in options):
                continue  # --epoch 'latest': which saved epoch to load, no length
            if category == "optimizer" and self._builds_optimizer() and self._option_unread(dest):
                continue  # a --weight_decay no optimizer is given: declared, never read
            for o in options:
                if not self._on_training_run(o.file):
                    continue  # the package's inference CLI: its --batch_size is no recipe
                if category == "loss" and self._picks_network(
                    [r for r in self._option_reads(dest) if r.file is o.file]
                ):
                    continue  # EfficientDet's --compound_coef: the model's size, no loss weight
                filled = None
                # left at None for a function of defaults to fill in
                if _is_none(o.default) or (o.default is None and unset_option(o.declared) is None):
                    filled = self.values.filled_by_defaults(o.file, dest, o.option, 0)
                preset = _set_default(o.file, dest)
                if filled is not None:
                    value = f"None, then {filled.show()}"
                elif preset is not None:
                    # ``parser.set_defaults(model_ema=True)`` after a ``--model-ema`` /
                    # ``--no-model-ema`` pair: the value the run starts from, for both flags
                    value = f"{preset[0]} (parser.set_defaults at {o.file.loc(preset[1])})"
                elif (
                    _is_none(o.default)
                    and (resolved := self._none_resolved(o.file, dest)) is not None
                ):
                    # ``default=None`` written out, the script filling it in when not given
                    # (``if args.batch_size is None: args.batch_size = 4 * len(args.gpu_ids)``)
                    value = resolved
                elif o.default is not None:
                    value = self.values.describe(o.file, o.call.function, o.default)
                elif o.action in ("store_true", "store_false"):
                    value = "False" if o.action == "store_true" else "True"
                elif (resolved := self._none_resolved(o.file, dest)) is not None:
                    value = resolved
                elif unset_option(o.declared) is None and dest not in self.repo.needed:
                    value = "None (no default)"
                else:
                    value = "no default"
                where = o.file.where(o.call.expr.line)
                values = [("default", value)]
                launched = self.repo.launched(o)
                if launched is not None:
                    # the launch script's runs: what the training is run with
                    first = launched.first()
                    shown = first[0] if first is not None else "default"
                    runs = f"; {launched.by_run()}" if launched.by_run() else ""
                    values.append(("launched", f"{shown} ({launched.where()}{runs})"))
                note = self._lr_rule(o, dest) if category == "optimizer" else ""
                if category != "optimizer" and self._option_unread(dest):
                    # an --ada_every nothing reads: declared, it sets nothing the run uses
                    note = "declared, never read: it sets nothing the run uses"
                self.add(category, o.label, where, values, note)
        candidates = {
            cls: found
            for cls, sets in self.repo.attrs.items()
            if not self.hierarchy.torch_ancestors(cls)  # a module, a dataset, a sampler
            and (
                found := [
                    (category, a)
                    for a in sets
                    if a.method in ("__init__", "")
                    and a.value.literal
                    and not _empty_collection(a.value)
                    and not _set_by_own_methods(a, sets)
                    and (category := _setting_category(a.attr))
                ]
            )
        }
        read = self._attributes_read_outside({a.attr for c in candidates.values() for _, a in c})
        configs = {
            cls for cls, found in candidates.items() if any(a.attr in read for _, a in found)
        }
        overrides = self._parameter_default_overrides({c.rpartition(".")[2] for c in configs})
        for cls, found in candidates.items():
            if not configs & set(self.values._lineage(cls)):
                # a visualiser's world_size: read by its own methods only; a configuration
                # subclass (YOLOX's exps overriding mosaic_prob) is one through its base
                continue
            for category, a in found:
                if _name_table(a.value):
                    continue  # a keypoint flip map ({'left_eye': 'right_eye', ...}): no setting
                if category == "epochs" and a.method == "__init__" and a.value.text == "0":
                    # RAFT's Logger.total_steps = 0 in __init__: a counter starting, no
                    # length (fairseq's dataclass field max_epoch = 0 is "no limit": it stays)
                    continue
                short = cls.rpartition(".")[2]
                name = f"{short}.{a.attr}"
                values = [("value", a.value.text)]
                passed = overrides.get(short, {}).get(a.attr, {})
                if passed:
                    # each value once, the most common first, with the entries giving it
                    ranked = sorted(passed.items(), key=lambda item: -len(item[1]))
                    shown = []
                    for value, places in ranked[:4]:
                        more = f" and {len(places) - 3} more" if len(places) > 3 else ""
                        shown.append(f"{value} ({', '.join(places[:3])}{more})")
                    values.append(("entry defaults", "; ".join(shown)))
                documented = self._documented_field(a.file, short, a.attr)
                if documented:
                    values.append(("documented", documented))
                self.add(category, name, a.file.where(a.line), values)
        self._dataset_config_settings()
        tags = self._enum_tags()
        for constant, stmt, f in self.repo.constants:
            if (f.path, constant) in tags:
                continue  # FLIP_LEFT_RIGHT = 0: the name of a choice, no setting
            category = _setting_category(constant)
            if category == "loss" and self._picks_network(
                [r for r in self._reads()[1].get(constant, []) if r.file is f]
            ):
                continue
            if category == "epochs" and _counter(f, constant, stmt):
                continue
            if (
                category
                and stmt.value.literal
                and not _empty_collection(stmt.value)
                and not _name_table(stmt.value)
            ):
                self.add(category, constant, f.where(stmt.line), [("value", stmt.value.text)])

    def _documented_field(self, file: _File, cls: str, attr: str) -> str:
        """The value the documented training command gives a field of the dataclass ``cls``
        as its command-line option (``--warmup-updates 4000`` for ``warmup_updates``: the
        options a parser generated from the config dataclasses spells), with where; "" when
        ``cls`` is no dataclass or no documented run passes it."""
        readings = self.repo.readings
        facts = file.fa.syntax
        if readings is None or facts is None:
            return ""
        decorators = {qual: names for qual, _, names in facts.decorators}
        if not any(_DATACLASS.match(name) for name in decorators.get(cls, ())):
            return ""
        names = (f"--{attr.replace('_', '-')}", f"--{attr}")
        run = readings.documented_run
        given = run.given(names) if run is not None else None
        return f"{' '.join(given)} ({run.path}:{run.line})" if run is not None and given else ""

    def _enum_tags(self) -> set[tuple[str, str]]:
        """(path, name) of the module constants that are members of an enumeration: two or
        more constants of one module sharing their first word, numbered 0, 1, 2..., one of
        them compared to a value by equality or membership in some test (a transpose
        method's ``FLIP_LEFT_RIGHT = 0`` and ``FLIP_TOP_BOTTOM = 1``, then ``if method ==
        FLIP_LEFT_RIGHT:``). They name a choice; the value is no setting."""
        compared: set[str] = set()
        for f in self.files.values():
            for d in f.defs:
                for branch in d.branches:
                    for node in branch.test.walk():
                        if node.kind != "Compare" or node.name not in _EQUALITY_OPS:
                            continue
                        for operand in node.parts:
                            compared.update(
                                n.name for n in (operand, *operand.parts) if n.kind == "Name"
                            )
        families: dict[tuple[str, str], list[tuple[str, object]]] = {}
        for constant, stmt, f in self.repo.constants:
            head, sep, _ = constant.partition("_")
            value = _literal_value(stmt.value)
            if sep and constant.isupper() and type(value) is int and 0 <= value < _ENUM_LIMIT:
                families.setdefault((f.path, head), []).append((constant, value))
        out: set[tuple[str, str]] = set()
        for (path, _), members in families.items():
            names = {name for name, _ in members}
            values = [value for _, value in members]
            if len(names) > 1 and sorted(values) == list(range(len(values))) and names & compared:
                out |= {(path, name) for name in names}
        return out

    def _parameter_default_overrides(
        self, classes: set[str]
    ) -> dict[str, dict[str, dict[str, list[str]]]]:
        """class name -> field -> value -> the entry functions whose parameter default sets
        it to that value,
        where a function's parameter defaults to an instance of the config class built with
        that keyword (litgpt's ``setup(..., train: TrainArgs = TrainArgs(global_batch_size=16,
        micro_batch_size=1, epochs=5, ...))``): the values a run of that entry uses with
        its defaults, over the class's own field defaults (``global_batch_size: int = 64``).
        Each entry as ``setup() at litgpt/finetune/lora.py:66``."""
        out: dict[str, dict[str, dict[str, list[str]]]] = {}
        if not classes:
            return out
        for path, file in sorted(self.files.items()):
            if is_test_path(path) or self.apart(path):
                continue
            for index, d in enumerate(file.defs):
                if d.is_class:
                    continue
                for _, default in d.params:
                    if default is None or default.kind != "Call":
                        continue
                    short = default.func.text.rpartition(".")[2]
                    if short not in classes:
                        continue
                    for keyword in default.keywords:
                        if not keyword.name:
                            continue
                        value = self.values.describe(file, index, keyword.target)
                        at = file.loc(keyword.target.line)
                        fields = out.setdefault(short, {}).setdefault(keyword.name, {})
                        fields.setdefault(value, []).append(f"{d.qual}() at {at}")
        return out

    def _lr_rule(self, option: _ArgOption, dest: str) -> str:
        """What an optimizer option switches in its own script: the learning rate the
        script sets under a test reading it (latent-diffusion's ``if opt.scale_lr:
        model.learning_rate = accumulate_grad_batches * ngpu * bs * base_lr``, else the
        base LR): "if TEST: TARGET = VALUE (where)", the first such assignment, "" when
        none. The option itself computed when left unset (``if not args.lr: args.lr =
        args.lr_base * batch_ratio``) is :meth:`_Values.filled_by_defaults`'s to show."""
        file = option.file
        for a, fn in file.assigns:
            if a.target.kind not in ("Name", "Attribute") or not _LR_TARGET.search(a.target.name):
                continue
            if a.target.name == dest:
                rescaled = self._rescaled_option(file, fn, a, dest)
                if rescaled:
                    return rescaled
                continue  # the option filled in when not given (MAE's, timm's --lr): its own home
            branch = a.ifs[0] if a.ifs else None
            if branch is None:
                continue
            if not any(
                n.kind == "Attribute" and n.name == dest and n.target.kind == "Name"
                for n in branch.test.walk()
            ):
                continue
            taken = branch.body_end <= 0 or a.line <= branch.body_end
            test = branch.test.shown() if taken else f"not {branch.test.shown()}"
            return f"if {test}: {a.target.text} = {a.value.shown()} ({file.loc(a.line)})"
        return ""

    def _rescaled_option(self, file: _File, fn: int, a: AssignValues, dest: str) -> str:
        """The option ``dest`` rescaled by the script after parsing, from its own value
        (DeiT's ``if not args.unscale_lr: linear_scaled_lr = args.lr * args.batch_size *
        utils.get_world_size() / 512.0; args.lr = linear_scaled_lr``): "TARGET = VALUE
        (where)", under "if TEST:" when a test that does not read the option guards it; ""
        for an assignment filling the option in when it is unset (``if args.lr is None:``,
        its test reads the option) or one not computed from it."""
        if a.target.kind != "Attribute" or a.target.target.kind != "Name":
            return ""
        receiver = a.target.target.name
        if not (receiver in _ARG_RECEIVERS or receiver in self.repo.parsed_names):
            return ""

        def reads_option(expr: Expr) -> bool:
            return any(
                n.kind == "Attribute" and n.name == dest and n.target.kind == "Name"
                for n in expr.walk()
            )

        value = a.value
        if value.kind == "Name" and fn >= 0:
            local = file.local_value(fn, value.name, a.line)
            if local is not None:
                value = local
        if not reads_option(value):
            return ""
        branch = a.ifs[0] if a.ifs else None
        if branch is not None and reads_option(branch.test):
            return ""
        shown = f"{a.target.text} = {value.shown()} ({file.loc(a.line)})"
        if branch is None:
            return f"rescaled after parsing: {shown}"
        taken = branch.body_end <= 0 or a.line <= branch.body_end
        test = branch.test.shown() if taken else f"not {branch.test.shown()}"
        return f"rescaled after parsing: if {test}: {shown}"

    def _optimizer_lr(self, dest: str) -> bool:
        """The option ``dest`` is read in the ``lr=`` value of a ``torch.optim`` optimizer's
        construction (whole, or one branch of a conditional): a learning rate, whatever its
        name (``--f_lr``, ``--lr_mapping``)."""
        for read in self._reads()[0].get(dest, []):
            node, file = read.node, read.file
            target = node.target
            if target.kind != "Name" or not (
                target.name in _ARG_RECEIVERS or target.name in self.repo.parsed_names
            ):
                continue
            call = file.call_around(node)
            if call is None or not (file.dotted(call.expr.func) or "").startswith("torch.optim."):
                continue
            span = (node.line, node.col, node.end_line, node.end_col)
            for k in call.expr.keywords:
                v = k.target
                if (
                    k.name == "lr"
                    and (v.line, v.col) <= span[:2]
                    and span[2:]
                    <= (
                        v.end_line,
                        v.end_col,
                    )
                ):
                    return True
        return False

    def _passed_category(self, dest: str) -> str | None:
        """The category of the option ``dest`` by the keyword it is passed as to a factory
        that takes augmentation keywords (a call named for building transforms, or passing
        a keyword named for an augmentation: ``create_transform(..., color_jitter=...,
        re_prob=args.reprob)``, ``create_loader(..., hflip=..., auto_augment=args.aa)``), or
        through one local assigned from it (``train_interpolation =
        args.train_interpolation`` then ``interpolation=train_interpolation``). The keyword
        names the setting where the option's own name does not (``--reprob``, ``--aa``):
        by the names settings have (``pin_memory=args.pin_mem``: the loader's), or as one of
        the factory's augmentation parameters (:data:`_AUG_KEYWORD`). None elsewhere: a
        keyword of any other call says nothing of the recipe."""
        for read in self._reads()[0].get(dest, []):
            target = read.node.target
            if target.kind != "Name" or not (
                target.name in _ARG_RECEIVERS or target.name in self.repo.parsed_names
            ):
                continue
            for call, keyword in self._keyword_uses(read):
                if not self._augmentation_factory(call):
                    continue
                category = _setting_category(keyword)
                if category is None and _AUG_KEYWORD.fullmatch(keyword):
                    category = "augmentation"
                if category is not None:
                    return category
        return None

    def _keyword_uses(self, read: _Read) -> Iterator[tuple[Expr, str]]:
        """(call, keyword) for each keyword argument the read value is passed as: directly,
        or through a local the function assigns it to whole."""
        node, file = read.node, read.file
        at = (node.line, node.col, node.end_line, node.end_col)
        call = file.call_around(node)
        if call is not None:
            for k in call.expr.keywords:
                v = k.target
                if (v.line, v.col, v.end_line, v.end_col) == at:
                    yield call.expr, k.name
        for a, fn in file.assigns:
            v = a.value
            if (
                fn != read.fn
                or a.target.kind != "Name"
                or ((v.line, v.col, v.end_line, v.end_col) != at)
            ):
                continue
            for c in file.values.calls:
                if c.function != fn:
                    continue
                for k in c.expr.keywords:
                    if k.target.kind == "Name" and k.target.name == a.target.name:
                        yield c.expr, k.name

    @staticmethod
    def _augmentation_factory(call: Expr) -> bool:
        """A call that builds augmentations from keywords: named for building transforms
        (``create_transform``, ``build_transform``) or passing a keyword named for an
        augmentation (``color_jitter``, ``hflip``, ``auto_augment``)."""
        if _AUG_BUILDER.fullmatch(call.callee()):
            return True
        return any(_setting_category(k.name) == "augmentation" for k in call.keywords if k.name)

    def _dataset_config_settings(self) -> None:
        """The augmentation values a dataset class copies from its config in ``__init__``
        (HRNet's ``self.scale_factor = cfg.DATASET.SCALE_FACTOR``, ``ROT_FACTOR``,
        ``PROB_HALF_BODY``), with the value the config gives: how far the training images
        are scaled, rotated and cropped to half bodies."""
        for cls, sets in sorted(self.repo.attrs.items()):
            for a in sets:
                if a.method != "__init__" or not _AUG_PARAMETER.fullmatch(a.attr.lower()):
                    continue
                root = a.value
                while root.kind == "Attribute":
                    root = root.target
                if root.kind != "Name" or root.name not in _CONFIG_RECEIVERS:
                    continue
                # the value resolves through the YAML configs over the Python default
                # (HRNet's YAMLs set SCALE_FACTOR 0.25 | 0.3 | 0.35 over 0.25)
                values = [("value", self.values.describe(a.file, -1, a.value))]
                name = f"{cls.rpartition('.')[2]}.{a.attr}"
                self.add("augmentation", name, a.file.where(a.line), values)

    def _reads(self) -> tuple[dict[str, list[_Read]], dict[str, list[_Read]]]:
        """Every attribute and every name the repository's code reads (test files aside),
        each once, by its name: one pass over the value records, shared by the rules that
        ask where a value goes."""
        if self._read_index is None:
            attributes: dict[str, list[_Read]] = {}
            names: dict[str, list[_Read]] = {}
            for path, file in sorted(self.files.items()):
                if is_test_path(path):
                    continue
                seen: set[tuple[int, int, int, int, str]] = set()
                for root, fn in _file_roots(file):
                    for node in root.walk():
                        if node.kind not in ("Attribute", "Name"):
                            continue
                        # ``self.obj_loss(...).sum`` and ``self.obj_loss`` start at one place
                        key = (node.line, node.col, node.end_line, node.end_col, node.kind)
                        if key in seen:
                            continue
                        seen.add(key)
                        table = attributes if node.kind == "Attribute" else names
                        table.setdefault(node.name, []).append(_Read(file, node, fn))
            self._read_index = (attributes, names)
        return self._read_index

    def _read_for_evaluation(self, file: _File, stored: Expr) -> bool:
        """A module-level constant of ``file`` (``DEFAULT_TRANSFORMS = Compose([...])``)
        through which no training batch goes: every read is in an inference script or in a
        function named for validation, evaluation or testing, or applies it by hand in
        module code, once, outside any loop (an adversarial attack's clipping bounds made at
        import from blank images: ``zeros = data_transforms(zeros)``), to a fixed value
        rather than to the samples a loader yields (unless another file reads it as a
        module's attribute, ``odfa.data_transforms``). A read of the same name where another
        binding of it is in scope (a training script's own ``data_transforms = {...}``) is
        another variable's."""
        if stored.kind != "Name":
            return False
        name = stored.name
        reads = [
            read
            for read in self._reads()[1].get(name, [])
            if not (read.fn >= 0 and _binds(read.file, read.fn, name))
            and (read.file is file or name not in self._module_names(read.file))
        ]
        once = not any(
            read.file is not file
            and read.node.target.kind == "Name"
            and read.node.target.name not in ("self", "cls")
            for read in self._reads()[0].get(name, [])
        )
        for read in reads:
            names = read.file.defs[read.fn].qual.split(".") if read.fn >= 0 else []
            names.append(PurePosixPath(read.file.path).stem)
            if not (
                _INFERENCE_SCRIPT.search(read.file.path)
                or any(_NOT_TRAINING_STORE.search(n) for n in names)
                or (once and _applied_once(read))
            ):
                return False
        return bool(reads)

    def _never_read(self, call: CallValues) -> bool:
        """``call`` builds a module stored as ``self.name`` and no file of the repository
        reads an attribute so named (a subclass elsewhere may call it): a loss constructed in
        ``__init__`` that no forward computes."""
        stored = call.stored
        if stored is None or stored.kind != "Attribute" or stored.target.text != "self":
            return False
        return stored.name not in self._reads()[0]

    def _builds_optimizer(self) -> bool:
        """The repository builds its optimizer itself (a ``torch.optim`` constructor is
        called): the arguments it is given are the optimizer's settings, and an optimizer
        option none of them reads sets nothing."""
        return any(
            f.usage == "call" and f.api.startswith("torch.optim.") and f.api.count(".") == 2
            for f in self.result.api_findings
            if not is_test_path(f.path)
        )

    def _option_unread(self, dest: str) -> bool:
        """The option ``dest`` is declared and nothing reads it: no attribute of that name
        is read anywhere (an ``if`` test included), no string of it is written (a
        ``getattr(args, "dest")``, a dict key of ``vars(args)``), and the parsed options are
        never read as a whole (``vars(args)``, ``args.__dict__``, ``getattr`` by a computed
        name) nor handed to a function the repository does not define (a library's
        ``create_optimizer(args, model)`` reads ``args.weight_decay`` itself; printing or
        logging them reads nothing). Such an option sets nothing the run uses: the optimizer
        built without ``weight_decay=`` runs without it, whatever ``--weight_decay`` defaults
        to."""
        if self._unread_memo is None:
            read: set[str] = set(self._reads()[0])
            strings: set[str] = set()
            whole = False
            receivers = _ARG_RECEIVERS | self.repo.parsed_names
            own = {d.qual.rpartition(".")[2] for file in self.files.values() for d in file.defs}

            def options(x: Expr) -> bool:  # ``args``, ``self.args``: the parsed options
                return x.kind in ("Name", "Attribute") and x.name in receivers

            for path, file in self.files.items():
                if is_test_path(path):
                    continue
                roots = [r for r, _ in _file_roots(file)]
                roots += [t.test for a, _ in file.assigns for t in a.ifs]
                # an augmented assignment reads its value and its target (``args.lambda_ds
                # -= initial / args.ds_iter``: a weight decayed over --ds_iter steps)
                for u in (*file.values.updates, *(u for d in file.defs for u in d.updates)):
                    roots += [u.node, *((u.value,) if u.value is not None else ())]
                for root in roots:
                    for node in root.walk():
                        if node.kind == "Attribute" and node.name:
                            read.add(node.name)
                            if node.name == "__dict__" and options(node.target):
                                whole = True
                        elif node.kind == "Constant" and isinstance(node.value, str):
                            strings.add(node.value)
                        elif node.kind == "Call" and node.parts:
                            callee = node.callee()
                            args = node.parts[1:]
                            given = [a.target if a.kind == "keyword" else a for a in args]
                            handed = any(options(a) for a in given)
                            computed = (
                                callee == "getattr"
                                and len(args) > 1
                                and options(args[0])
                                and args[1].kind != "Constant"
                            )
                            library = handed and callee not in own and callee not in _PRINTS
                            whole = whole or computed or (handed and callee == "vars") or library
            self._unread_memo = (frozenset(read | strings), whole)
        seen, whole = self._unread_memo
        return not whole and dest not in seen

    def _option_reads(self, dest: str) -> list[_Read]:
        """The reads of the option ``dest`` through the parsed options (``args.iters``)."""
        return [
            r
            for r in self._reads()[0].get(dest, [])
            if r.node.target.kind == "Name"
            and (
                r.node.target.name in _ARG_RECEIVERS or r.node.target.name in self.repo.parsed_names
            )
        ]

    def _model_argument(self, read: _Read) -> bool:
        """The read is an argument of a call of the model or of a module's constructor, or a
        value of a config dict handed to one (:meth:`_config_entry`)."""
        if self._config_entry(read):
            return True
        node = read.node
        call = read.file.call_around(node)
        at = (node.line, node.col, node.end_line, node.end_col)
        passed = call is not None and any(
            (v.line, v.col, v.end_line, v.end_col) == at
            for a in call.expr.parts[1:]
            for v in (a.target if a.kind == "keyword" else a,)
        )
        return passed and call is not None and self._module_call(read.file, call, read.fn)

    def _config_entry(self, read: _Read) -> bool:
        """The read is a value of a dict literal (nested ones too) bound to a name that the
        same scope then passes to a module's constructor or call (SuperGlue's
        ``config = {'superglue': {'sinkhorn_iterations': opt.sinkhorn_iterations}}``, then
        ``Matching(config)``): a setting the network runs with, not of the training."""
        file, node = read.file, read.node
        span = (node.line, node.col, node.end_line, node.end_col)
        assigns = file.values.assigns if read.fn < 0 else file.defs[read.fn].assigns
        for a in assigns:
            if a.target.kind != "Name" or a.value.kind != "Dict":
                continue
            inside = [
                d
                for d in a.value.walk()
                if d.kind == "Dict"
                and any((v.line, v.col, v.end_line, v.end_col) == span for v in d.items)
            ]
            if not inside:
                continue
            for call in file.values.calls:
                if call.function != read.fn or call.expr.line < a.line:
                    continue
                passed = (p.target if p.kind == "keyword" else p for p in call.expr.parts[1:])
                if any(
                    p.kind == "Name" and p.name == a.target.name for p in passed
                ) and self._module_call(file, call, read.fn):
                    return True
        return False

    def _model_argument_only(self, dest: str) -> bool:
        """Every read of the option ``dest`` (``args.iters``) is an argument of a call of the
        model or of a module's constructor: a setting of the network (RAFT's GRU refinement
        iterations, passed to ``model(image1, image2, iters=args.iters)``), not how long
        training runs, whatever its name."""
        reads = self._option_reads(dest)
        return bool(reads) and all(self._model_argument(r) for r in reads)

    def _phase_bound(self, dest: str) -> bool:
        """Every read of the option ``dest`` that is not formatted into a message is the
        bound of an ``if`` test ``step < X`` (``<=`` too) on a variable of a loop around it
        (``if i < args.precrop_iters:`` training on centre crops first): how long a first
        phase lasts, whose body runs while the test holds, not how long training runs."""
        reads = [r for r in self._option_reads(dest) if not _indexes_or_formats(r)]
        if not reads:
            return False
        for r in reads:
            at = (r.node.line, r.node.col, r.node.end_line, r.node.end_col)
            names = {n for loop in r.file.values.loops if loop.function == r.fn for n in loop.names}
            bounded = False
            for near in self._file_ifs(r.file):
                if near.function != r.fn or not near.line <= r.node.line <= near.test.end_line:
                    continue
                for e in near.test.walk():
                    if e.kind != "Compare" or e.name not in ("Lt", "LtE") or len(e.parts) != 2:
                        continue
                    left, right = e.parts
                    if (right.line, right.col, right.end_line, right.end_col) == at and (
                        left.kind == "Name" and left.name in names
                    ):
                        bounded = True
            if not bounded:
                return False
        return True

    def _count_of_op(self, dest: str) -> bool:
        """Every read of the option ``dest`` is the ``range(...)`` of a loop that only
        computes: no loop inside it, no call of the repository's own code, no ``backward``
        or ``step`` (SwAV's ``for it in range(args.sinkhorn_iterations):`` normalising a
        matrix with torch ops). Its count is an algorithm's iterations, not how long
        training runs, whatever its help says."""
        reads = self._option_reads(dest)
        if not reads:
            return False
        for r in reads:
            file, at = r.file, (r.node.line, r.node.col, r.node.end_line, r.node.end_col)
            loops = file.values.loops
            loop = next(
                (
                    lp
                    for lp in loops
                    if lp.function == r.fn
                    and lp.iter.kind == "Call"
                    and lp.iter.callee() == "range"
                    and (lp.iter.line, lp.iter.col) <= at[:2]
                    and at[2:] <= (lp.iter.end_line, lp.iter.end_col)
                ),
                None,
            )
            if loop is None:
                return False
            last = max((u.line for u in loop.updates), default=loop.line)
            if any(
                inner is not loop
                and inner.function == loop.function
                and loop.line < inner.line <= last
                for inner in loops
            ):
                return False
            for c in file.values.calls:
                if c.function != loop.function or not loop.line < c.expr.line <= last:
                    continue
                func = c.expr.func
                if func.kind == "Attribute" and func.name in ("backward", "step"):
                    return False
                dotted = file.dotted(func)
                if dotted is None or self.repo_key(dotted) is not None:
                    # a local function, a method of the run's objects, the repository's
                    # own code: the loop may train
                    if not (func.kind == "Attribute" and func.target.kind == "Name"):
                        return False
                    if func.target.name == "self" or func.target.name in file.first:
                        return False
        return True

    def _picks_network(self, reads: Sequence[_Read]) -> bool:
        """``reads`` of a setting named like a loss weight (``compound_coef``) pick the
        network: at least one is an argument of a module's construction or call, and every
        other one indexes a table (``input_sizes[opt.compound_coef]``) or names a file in a
        formatted string. A weight multiplies a loss; an index into per-size tables is the
        model's scale (EfficientDet's D0-D7), no setting of the loss. One index at least: a
        weight handed to a loss wrapper's constructor (timm's ``--task-loss-weight``) stays."""
        if not any(self._model_argument(r) for r in reads):
            return False
        if not any(_indexes(r) for r in reads):
            return False
        return all(self._model_argument(r) or _indexes_or_formats(r) for r in reads)

    def _module_call(self, file: _File, call: CallValues, fn: int) -> bool:
        """``call`` constructs an ``nn.Module`` or calls one: its callee is a module class,
        or a name the function binds to a module's construction (``model =
        nn.DataParallel(RAFT(args))`` then ``model(image1, image2, ...)``)."""
        func = call.expr.func
        if self._module_class(file, call.expr):
            return True
        if func.kind != "Name" or call.function < 0:
            return False
        bound = file.local_value(call.function, func.name, call.expr.line)
        return bound is not None and bound.kind == "Call" and self._module_class(file, bound)

    def _module_class(self, file: _File, call: Expr) -> bool:
        """The call ``call`` constructs a torch ``nn`` module or a repository class deriving
        from one."""
        dotted = file.dotted(call.func)
        if dotted is not None and dotted.startswith("torch.nn.") and dotted[9:10].isupper():
            return True
        keys = [self.repo_key(dotted)] if dotted else []
        keys += [
            fact.callee
            for _, fact in self._facts_on(file.path, call.line)
            if fact.callee.rpartition(".")[2] == call.callee()
        ]
        for key in keys:
            if key and any(a.startswith("torch.nn.") for a in self.hierarchy.torch_ancestors(key)):
                return True
        return False

    def _facts_on(self, path: str, line: int) -> list[tuple[str, CallFact]]:
        """The call facts of ``path`` on ``line``."""
        if self._facts_by_line is None:
            self._facts_by_line = {}
            for fa in self.analyses:
                for fact in fa.calls:
                    self._facts_by_line.setdefault((fa.path, fact.line), []).append((fa.path, fact))
        return self._facts_by_line.get((path, line), [])

    def _attributes_read_outside(self, names: set[str]) -> set[str]:
        """Which of ``names`` the repository reads as an attribute of something other than
        ``self`` (``self.exp.max_epoch``, ``cfg.lr``): a class is a configuration when the
        rest of the code reads its attributes; a visualiser or a helper whose attributes
        (CenterNet's ``Debugger.world_size``) only its own methods use is not the recipe."""
        if not names:
            return set()
        found: set[str] = set()
        for path, file in self.files.items():
            if is_test_path(path):
                continue
            exprs = [c.expr for c in file.values.calls if c.statement or c.stored is None]
            exprs += [a.value for a, _ in file.assigns]
            exprs += [loop.iter for loop in file.values.loops]
            exprs += [r for d in file.defs for r in d.returns]
            for expr in exprs:
                found.update(
                    hit.group(1)
                    for hit in _OUTSIDE_READ.finditer(expr.full())
                    if hit.group(1) in names
                )
        return found

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
                # the amounts the steps are drawn with (a long side in 0.5-2x a base size,
                # an angle in [-10, 10], a coin flip) and the settings those draws read
                file = self.files.get(fa.path)
                fn = file.first.get(pipe.function) if file is not None else None
                if file is not None and fn is not None:
                    # the draws only: the settings they read are the dataset's, often given
                    # by a config through ``**kwargs`` that a parameter's default would hide
                    # (a base size of None where the config gives 400): its own rows show them
                    values += self._drawn_values(file, fn, tests=False, settings=False)
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
        with the option, its default, the name the documented training command gives it
        (``--optimizer adam``) and where the one picked is registered. The rows of the files
        whose entries the run does not pick (another scheduler's warm-up settings) are not
        the run's, whatever their row; those of the picked one's file stay. Read from the
        scan's syntax facts."""
        readings = self.repo.readings
        run = readings.documented_run if readings is not None else None
        argparse = readings.argparse if readings is not None else None
        for choice in registry_choices(self.analyses, [run] if run is not None else [], argparse):
            category = _registry_category(choice.option)
            if category is None:
                continue
            chosen = choice.chosen
            picked = {w.path for name, w, _ in choice.registered if name == chosen}
            where = {w.path for _, w, _ in choice.registered}
            if chosen is None:
                # no pick known: none of the registered ones' own rows of this kind
                self.out = [
                    i for i in self.out if i.category != category or i.where.path not in where
                ]
            else:
                self.out = [i for i in self.out if i.where.path not in where - picked]
                # ... and, in a file registering the picked one beside others, the rows of
                # the others' own definitions
                spans: dict[str, list[tuple[int, int]]] = {}
                for name, w, _ in choice.registered:
                    file = self.files.get(w.path)
                    if name != chosen and file is not None:
                        spans.setdefault(w.path, []).extend(
                            (d.line, d.end_line)
                            for d in file.defs
                            if d.owner < 0 and d.line == w.line
                        )
                self.out = [i for i in self.out if not self._inside(i.where, spans)]
            shown = (
                "none: the command line must name one"
                if choice.default is None
                else f'"{choice.default}"'
                + (f" ({choice.default_at})" if choice.default_at else "")
            )
            values = [("default", shown)]
            if choice.documented:
                values.append(("documented", f'"{choice.documented}" ({choice.documented_at})'))
            values.append(("registered", f"{len(choice.registered)} choices"))
            at = next((w for name, w, _ in choice.registered if name == chosen), None)
            if at is not None:
                label = "default" if chosen == choice.default else "picked"
                values.append((f"{label} defined at", str(at)))
            what = RECIPE_CATEGORIES[category].lower()
            note = (
                f"the {what} is the one the command line names; the registered ones' own "
                "rows are not listed"
                if chosen is None
                else f"the {what} the run picks; the other registered ones' rows are not listed"
            )
            self.add(category, f"{choice.option} (picked by name)", choice.where, values, note)

    def _hand_schedules(self, file: _File) -> None:
        """An LR or BatchNorm momentum computed by hand from the epoch (PointNet++'s
        ``lr = max(lr0 * decay ** (epoch // step), clip)`` and ``momentum = 0.1 * 0.5 **
        (epoch // step)`` set on every BatchNorm through ``model.apply``): the formula with
        its constants, and the floor an ``if`` puts under it."""
        sets_bn = "momentum" in file.fa.stored_attrs
        for stmt, fn in file.assigns:
            target = stmt.target
            if stmt.annotated or target.kind != "Name" or not _reads_epoch(stmt.value):
                continue
            if (fn >= 0 and _SCHEDULE_NAME.search(file.defs[fn].qual)) or (
                _SCHEDULE_NAME.search(PurePosixPath(file.path).stem)
            ):
                continue  # a scheduler's own formula: its row is the scheduler's
            if re.search(r"(^|_)(lr|learning_rate)$", target.name, re.IGNORECASE):
                category, name, note = "scheduler", f"{target.name} computed by hand", ""
            elif target.name.endswith("momentum") and sets_bn:
                category, name = "bn_momentum", f"{target.name} computed by hand"
                note = (
                    "set on the BatchNorm layers each epoch; MindSpore's BatchNorm momentum "
                    "is 1 − torch's (torch 0.1 is MindSpore 0.9): convert every value"
                )
            else:
                continue
            values = [("formula", stmt.value.text)]
            # constants (``MOMENTUM_ORIGINAL = 0.1``) and settings (``args.lr_decay``)
            refs = {
                n.text: n
                for n in stmt.value.walk()
                if (n.kind == "Name" and n.name.isupper())
                or (n.kind == "Attribute" and n.chain() and not file.dotted(n))
            }
            values += [(text, self.values.describe(file, fn, refs[text])) for text in sorted(refs)]
            if fn >= 0:
                # the settings the caller passes (semseg's ``poly_learning_rate(args.base_lr,
                # current_iter, max_iter, power=args.power)``), the epoch itself left out
                read = {n.name for n in stmt.value.walk() if n.kind == "Name"}
                values += [
                    (param, self.values.parameter(file, fn, param, default, 0).show())
                    for param, default in file.defs[fn].params
                    if param in read and not re.search(_EPOCH_NAME, param, re.IGNORECASE)
                ]
            floor = _floor(stmt, target.name)
            if floor:
                values.append(("floor", floor))
            self.add(category, name, file.where(stmt.line), values, note)
            if category == "scheduler" and fn >= 0:
                self._hand_warmup(file, fn, stmt)

    def _hand_warmup(self, file: _File, fn: int, stmt: AssignValues) -> None:
        """The warm-up a hand-computed LR is scaled by for the first epochs (``lr =
        get_lr_fun()(cur_epoch) * cfg.OPTIM.BASE_LR``, then ``if cur_epoch <
        cfg.OPTIM.WARMUP_EPOCHS: ...; lr *= warmup_factor``): the update, the factor it
        multiplies by as computed under that test, and the settings they read. Only where
        the test or the update names a warm-up."""
        name = stmt.target.name
        d = file.defs[fn]
        for u in d.updates:
            if not (
                u.line > stmt.line
                and u.op in ("Mult", "Div")
                and u.node.kind == "Name"
                and u.node.name == name
                and u.value is not None
            ):
                continue
            tests = [near for near in u.ifs if near.function == fn]
            words = " ".join([u.statement, *(near.test.text for near in tests)])
            if not tests or not re.search(r"warm", words, re.I):
                continue
            values = [("update", u.statement)]
            # the factor as computed in the same ``if`` (``warmup_factor = ... + alpha``)
            used = {n.name for n in u.value.walk() if n.kind == "Name"}
            inner = tests[0]
            factors = [
                a for a in d.assigns if a.target.kind == "Name" and inner.line < a.line < u.line
            ]
            names = set(used)
            for a in sorted(factors, key=lambda a: a.line, reverse=True):
                if a.target.name in names:
                    names |= {n.name for n in a.value.walk() if n.kind == "Name"}
            factors = [a for a in factors if a.target.name in names]
            values += [(a.target.name, a.value.text) for a in sorted(factors, key=lambda a: a.line)]
            values += [("when", near.test.text) for near in tests]
            # the settings read (``cfg.OPTIM.WARMUP_EPOCHS``), whole chains only
            values += self._settings_read(
                file, fn, (*(near.test for near in tests), *(a.value for a in factors))
            )
            self.add("warmup", f"{name} warm-up in {d.qual}", file.where(u.line), values,
                     "the LR computed by hand, scaled for the first epochs")  # fmt: skip

    def _param_group_lr(self, file: _File) -> None:
        """An LR written into the optimizer's param groups by hand in the training loop
        (PyTorch-YOLOv3: ``lr = hyperparams['learning_rate']``, ``lr *= batches_done /
        burn_in`` for the warm-up, ``lr *= value`` past each step, then ``for g in
        optimizer.param_groups: g['lr'] = lr``): the statements that compute it, in order,
        as the schedule's row. Rows of a formula read from the epoch already show theirs."""
        self._lr_scaled(file)
        for stmt, fn in file.assigns:
            target = stmt.target
            if not _is_lr_slot(target):
                continue
            d = _Scope.of(file, fn)
            if _SCHEDULE_NAME.search(f"{PurePosixPath(file.path).stem} {d.qual}"):
                continue  # MAE's lr_sched.adjust_learning_rate: its callers' row is the schedule
            if _RESUMING.search(d.name):
                continue  # CenterNet's load_model: the LR a resumed run restarts from
            if stmt.value.kind != "Name":
                self._lr_formula(file, fn, stmt)
                continue
            name = stmt.value.name
            if any(
                i.category == "scheduler"
                and i.where.path == file.path
                and d.line <= i.where.line <= d.end_line
                for i in self.out
            ):
                continue
            # only the assignments the defaults run: tacotron2's ``learning_rate =
            # _learning_rate`` (under an off ``use_saved_learning_rate``, when resuming) leaves
            # one constant re-set every step, no schedule
            running = [
                a
                for a in d.assigns
                if a.target.kind == "Name"
                and a.target.name == name
                and a.line < stmt.line
                and self.values.runs(file, fn, a.line)
            ]
            steps: dict[int, str] = {a.line: f"{name} = {a.value.text}" for a in running}
            read: list[Expr] = [a.value for a in running]
            # each update with its innermost loop: one opened after the LR's first value is
            # part of the computation (``for threshold, value in lr_steps``), not the epochs
            innermost: dict[int, tuple[LoopValues, str]] = {}
            for loop in file.values.loops:
                if fn < 0 and loop.function >= 0:
                    continue  # a module's own loop: not one of its functions'
                for u in loop.updates:
                    if not (
                        d.line <= u.line < stmt.line
                        and u.op
                        and u.node.kind == "Name"
                        and u.node.name == name
                    ):
                        continue
                    known = innermost.get(u.line)
                    if known is None or loop.line > known[0].line:
                        innermost[u.line] = (loop, u.statement)
                        if u.value is not None:
                            read.append(u.value)
            first = min(steps, default=stmt.line)
            for line, (loop, text) in innermost.items():
                if loop.line > first:
                    text = f"{text} (for {', '.join(loop.names)} in {loop.iter.text})"
                steps[line] = text
            if len(steps) < 2:
                if len(running) == 1 and not innermost:
                    self._lr_computed(file, fn, stmt, running[0])
                continue  # the LR handed on as it is: nothing computed here
            values = [(f"{n}", text) for n, (_, text) in enumerate(sorted(steps.items()), 1)]
            values += self._settings_read(file, fn, read, imported=False)
            note = f"set on each param group by hand: {target.text} = {name}"
            self.add("scheduler", f"{name} computed by hand in {d.qual}",
                     file.where(stmt.line), values, note)  # fmt: skip

    def _settings_read(
        self, file: _File, fn: int, exprs: Sequence[Expr], imported: bool = True
    ) -> list[tuple[str, str]]:
        """The settings the statements of a hand-written schedule read (``opt.decay_rate``,
        ``cfg.OPTIM.WARMUP_EPOCHS``: whole attribute chains), each with what it resolves to,
        sorted; those that resolve to nothing but themselves are left out. Without
        ``imported``, a chain through the file's imports (``np.interp``) is none."""
        chains = [
            n
            for top in exprs
            for n in top.walk()
            if n.kind == "Attribute" and n.chain() and (imported or not file.dotted(n))
        ]
        inner = {id(p) for n in chains for p in n.walk() if p is not n}
        refs = {n.text: n for n in chains if id(n) not in inner}
        shown = []
        for text in sorted(refs):
            described = self.values.describe(file, fn, refs[text])
            if described != text:
                shown.append((text, described))
        return shown

    def _lr_computed(self, file: _File, fn: int, stmt: AssignValues, assign: AssignValues) -> None:
        """An LR computed into a name by one formula of the step, then written into each
        param group (``new_lr = args.lr * (decay_rate ** (global_step / decay_steps))``,
        then ``for g in optimizer.param_groups: g['lr'] = new_lr``): the formula is the
        schedule when it reads the step, a variable of a loop around it or a counter that
        loop increments. One that reads no step (``lr = args.lr * world_size``) is a
        constant set again, no schedule."""
        value = assign.value
        if value.literal or not any(n.kind in ("BinOp", "Call") for n in value.walk()):
            return
        if any(n.kind == "Call" and self.values.repo_function(file, n) for n in value.walk()):
            return  # ``lr = poly_lr(args.lr, it, n)``: the function's own row is the schedule
        steps: set[str] = set()
        for loop in file.values.loops:
            if loop.function != fn or loop.line >= assign.line:
                continue
            steps.update(loop.names)
            steps.update(u.node.name for u in loop.updates if u.op and u.node.kind == "Name")
        if not any(n.kind == "Name" and n.name in steps for n in value.walk()):
            return
        self._lr_formula_row(
            file, fn, assign.line, value, f"{stmt.target.text} = {assign.target.text}"
        )

    def _lr_formula(self, file: _File, fn: int, stmt: AssignValues) -> None:
        """An LR computed and written into a param group in one statement (YOLOP's warm-up
        ``x['lr'] = np.interp(num_iter, xi, [cfg.TRAIN.WARMUP_BIASE_LR ..., x['initial_lr']
        * lf(epoch)])`` under ``if num_iter < num_warmup``): the formula, the settings it
        reads and the test it runs under. A warm-up when the formula or that test says so."""
        value = stmt.value
        if value.kind == "Subscript" and value.parts and value.parts[0].kind == "Name":
            # ``param_group["lr"] = lr_schedule[iteration]``: a per-step array computed
            # before the loop, here or by the caller that hands it in
            self._lr_array(file, fn, stmt)
            return
        if value.literal or not any(n.kind in ("BinOp", "Call") for n in value.walk()):
            return  # ``g['lr'] = lrs[i]``: handed on, computed elsewhere
        if fn >= 0 and self._optimizer_method(file, fn):
            return  # timm's Adafactor._get_lr: the optimizer's own step size
        root = _root_name(stmt.target)
        if not any(
            loop.function == fn
            and loop.line < stmt.line
            and root in loop.names
            and "param_groups" in loop.iter.full()
            for loop in file.values.loops
        ):
            return  # detectron2's ``bias_overrides["lr"] = ...``: a group still being built
        self._lr_formula_row(file, fn, stmt.line, value, f"{stmt.target.text} = ...")

    def _lr_formula_row(self, file: _File, fn: int, line: int, value: Expr, written: str) -> None:
        """The row of an LR formula (:meth:`_lr_formula`, :meth:`_lr_computed`) at ``line``:
        the formula, the settings it reads and the test it runs under."""
        tests = [
            near.test.text
            for near in self._file_ifs(file)
            if near.function == fn and near.line < line <= (near.body_end or near.end_line)
        ]
        category = (
            "warmup" if re.search(r"warm", " ".join([value.text, *tests]), re.I) else ("scheduler")
        )
        values = [("formula", value.text)]
        for leaf in _leaves(value):
            if leaf.kind == "Attribute" and leaf.chain() and file.dotted(leaf):
                continue  # ``np.interp``: a function
            found = self.values.resolve(file, fn, leaf, 0)
            if found.literal and found.text != leaf.text:
                values.append((leaf.text, found.show()))
        values += [("when", test) for test in tests]
        d = _Scope.of(file, fn)
        self.add(category, f"LR set by hand in {d.qual}", file.where(line), values,
                 f"written into each param group: {written}")  # fmt: skip

    def _lr_array(self, file: _File, fn: int, stmt: AssignValues) -> None:
        """An LR read per step from an array (SwAV's ``param_group["lr"] =
        lr_schedule[iteration]``, ``lr_schedule = np.concatenate((warmup_lr_schedule,
        cosine_lr_schedule))`` in ``main``, which hands it to ``train``): the statements that
        compute the array, where the function binds it or where each caller does, with the
        settings they read and the shape they give. Nothing when no statement is found
        (DINO's ``utils.cosine_scheduler(...)`` stored as ``lr_schedule`` has its row)."""
        if fn < 0 or any(
            i.category in ("scheduler", "warmup")
            and i.where.path == file.path
            and i.where.line == stmt.line
            for i in self.out
        ):
            return
        name = stmt.value.parts[0].name
        places: list[tuple[_File, int, int]] = []  # (file, def, before line) binding it
        if file.local_value(fn, name, stmt.line) is not None:
            places.append((file, fn, stmt.line))
        elif name in file.defs[fn].positional or any(p == name for p, _ in file.defs[fn].params):
            for caller, call in self.values.call_sites(file, fn):
                arg = bind_call(file.defs[fn], call.expr).get(name)
                if arg is not None and arg.kind == "Name" and call.function >= 0:
                    places.append((caller, call.function, call.expr.line))
                    name = arg.name
                    break
        for where, scope, before in places:
            array = where.local_value(scope, name, before)
            if array is None or array.kind != "Call":
                continue
            # the array's statement and the locals it is built from (the warm-up's
            # ``np.linspace``, the cosine's list), in source order
            stmts: dict[int, str] = {}
            todo, seen = [(name, before)], set()
            formulas: list[Expr] = []
            while todo and len(stmts) < 6:
                local, upto = todo.pop(0)
                if local in seen:
                    continue
                seen.add(local)
                bound = where.local_value(scope, local, upto)
                if bound is None:
                    continue
                stmts[bound.line] = f"{local} = {bound.text}"
                formulas.append(bound)
                todo += [(n, bound.line) for n in _array_names(bound)]
            if len(formulas) < 2 and not any(e.kind == "BinOp" for e in array.walk()):
                continue  # one call of a function: that function's row says what it computes
            texts = [shorten(stmts[line], _TERM_LIMIT * 2) for line in sorted(stmts)]
            values: list[tuple[str, str]] = []
            joined = " ".join(stmts.values())
            shape = [
                word
                for word, hit in (
                    ("warm-up", bool(re.search(r"warm", joined, re.I))),
                    ("cosine", bool(re.search(r"\bcos\(", joined))),
                )
                if hit
            ]
            if shape:
                values.append(("shape", " then ".join(shape)))
            values += [(f"step {n}", t) for n, t in enumerate(texts, 1)]
            settings: dict[str, str] = {}
            for formula in formulas:
                self._schedule_settings(where, scope, formula, settings)
            values += sorted(settings.items())
            d = _Scope.of(file, fn)
            note = (
                f"written into each param group every step: {stmt.target.text} = "
                f"{stmt.value.text}; the array computed at {where.loc(min(stmts))}"
            )
            self.add(
                "scheduler", f"LR set by hand in {d.qual}", file.where(stmt.line), values, note
            )
            return

    def _optimizer_method(self, file: _File, fn: int) -> bool:
        """Def ``fn`` is a method of an optimizer class (a ``torch.optim.Optimizer``)."""
        owner = file.defs[fn].owner
        if owner < 0:
            return False
        key = f"{file.module}.{file.defs[owner].qual}"
        return any(a.startswith("torch.optim.") for a in self.hierarchy.torch_ancestors(key))

    def _lr_scaled(self, file: _File) -> None:
        """An LR scaled in place on each param group (simple-faster-rcnn's ``scale_lr``:
        ``for param_group in self.optimizer.param_groups: param_group['lr'] *= decay``,
        called once the training passes a given epoch): the update, the factor the callers
        pass and where they call it."""
        for loop in file.values.loops:
            fn = loop.function
            if fn < 0:
                continue
            d = file.defs[fn]
            if _SCHEDULE_NAME.search(
                f"{PurePosixPath(file.path).stem} {d.qual}"
            ) or self._optimizer_method(file, fn):
                continue
            if "param_groups" not in loop.iter.full():
                continue  # detectron2's ``hyperparams["lr"] *= ...``: a group being built
            for u in loop.updates:
                if (
                    u.op not in ("Mult", "Div")
                    or not _is_lr_slot(u.node)
                    or _root_name(u.node) not in loop.names
                ):
                    continue
                values = [("update", u.statement)]
                read = set(re.findall(r"\w+", u.statement.partition("=")[2]))
                values += [
                    (param, self.values.parameter(file, fn, param, default, 0).show())
                    for param, default in d.params
                    if param in read
                ]
                for caller, call in self.values.call_sites(file, fn)[:3]:
                    when = call.when
                    shown = f"{caller.loc(call.expr.line)}: {call.expr.text}"
                    values.append(("called at", f"{shown} if {when.text}" if when else shown))
                self.add("scheduler", f"LR scaled by hand in {d.qual}", file.where(u.line),
                         values, "applied to each param group where it is called")  # fmt: skip

    def _norm_overrides(self, file: _File) -> None:
        """BatchNorm settings overwritten after the layers are built, in a loop over the
        model's modules outside an initialisation routine (YOLOv5-style ``for m in
        model.modules(): if isinstance(m, nn.BatchNorm2d): m.eps = 1e-3; m.momentum =
        0.03``): torch's defaults are not what trains, and MindSpore's momentum is 1 −
        torch's. A routine named for initialisation shows them already (its own row)."""
        for loop in file.values.loops:
            fn = loop.function
            if fn < 0 or not re.search(r"\b(named_)?modules\(", loop.iter.full()):
                continue
            d = file.defs[fn]
            if INIT_NAME.fullmatch(d.name):
                continue
            sets = [
                a
                for a in d.assigns
                if a.line > loop.line
                and a.target.kind == "Attribute"
                and a.target.name in ("momentum", "eps")
                and a.target.target.kind == "Name"
                and a.target.target.name in loop.names
                and a.value.literal
            ]
            if not sets:
                continue
            values = [(a.target.text, a.value.text) for a in sorted(sets, key=lambda a: a.line)]
            note = "set on the model's normalisation layers after they are built"
            for a in sets:
                value = _literal_value(a.value)
                if a.target.name == "momentum" and isinstance(value, int | float):
                    note += (
                        "; MindSpore's BatchNorm momentum is 1 − torch's "
                        f"(torch {a.value.text} is MindSpore {round(1 - value, 6):g})"
                    )
                    break
            self.add("init", f"normalisation settings in {d.qual}", file.where(sets[0].line),
                     values, note)  # fmt: skip

    def _resolve_in(self, file: _File, fn: int, expr: Expr) -> _Val:
        return self.values.resolve(file, fn, expr, 0)

    def _latent_scaling(self, file: _File) -> None:
        """An input encoded by a pretrained autoencoder and scaled by a constant before the
        network sees it (DiT's ``x = vae.encode(x).latent_dist.sample().mul_(0.18215)``): an
        input step the port repeats exactly, with the same factor."""
        for a, fn in file.assigns:
            if fn < 0 or file.defs[fn].is_class:
                continue
            value = a.value
            scale: Expr | None = None
            inner: Expr | None = None
            if (
                value.kind == "Call"
                and value.func.kind == "Attribute"
                and value.func.name in ("mul_", "mul")
                and len(value.args) == 1
                and value.args[0].literal
            ):
                scale, inner = value.args[0], value.func.target
            elif value.kind == "BinOp" and value.name == "Mult" and len(value.parts) == 2:
                literal = [p for p in value.parts if p.literal]
                if len(literal) == 1:
                    scale = literal[0]
                    inner = next(p for p in value.parts if not p.literal)
            if scale is None or inner is None:
                continue
            if not any(n.kind == "Call" and n.callee().startswith("encode") for n in inner.walk()):
                continue
            self.add("preprocessing", f"latent scaling in {file.defs[fn].qual}",
                     file.where(a.line), [("scale", scale.text), ("formula", value.text)],
                     "the encoder's latents scaled before the network sees them: an input "
                     "step the port repeats exactly")  # fmt: skip

    def _normalising_arithmetic(self, file: _File) -> None:
        """Normalisation written as arithmetic in the data path (deep-text-recognition's
        ``img.sub_(0.5).div_(0.5)``, ``img / 255.``, ``(x - mean) / std`` in a dataset's
        ``__getitem__``): an input step the port repeats exactly, like ``Normalize``. Only
        in functions the scan places in data processing (a plot's ``img * 0.5 + 0.5`` is
        not one), and only with the constants an image is scaled by (:func:`_normalising`)."""
        for fn, d in enumerate(file.defs):
            if d.is_class:
                continue
            # a dataset's ``__getitem__`` written with numpy and PIL alone (no torch call
            # places it in data processing): improved-diffusion's ``arr / 127.5 - 1``
            item = (
                d.owner >= 0
                and d.name == "__getitem__"
                and self.hierarchy.is_dataset(f"{file.module}.{file.defs[d.owner].qual}")
            )
            if (file.path, d.qual) not in self.data_functions and not item:
                continue
            roots = [a.value for a in d.assigns]
            roots += [c.expr for c in file.values.calls if c.function == fn and c.statement]
            seen: set[tuple[int, int]] = set()
            resolve = partial(self._resolve_in, file, fn)
            for root in sorted(roots, key=lambda r: (r.line, r.col)):
                for node in _normalisations(root, resolve):
                    if (node.line, node.col) in seen:
                        continue
                    seen.add((node.line, node.col))
                    self.add("preprocessing", f"normalisation in {d.qual}", file.where(node.line),
                             [("formula", node.text)],
                             "written as arithmetic: an input step (every image, no "
                             "randomness), repeated exactly by the port")  # fmt: skip

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
            file = self.files.get(f.path)
            call = file.call_for(f) if file is not None else None
            fn = call.function if call is not None else -1
            if file is None or call is None:
                continue
            if self._micro_batches(file, call, seen):
                continue
            if fn < 0 or (f.path, file.defs[fn].line) in seen:
                continue
            seen.add((f.path, file.defs[fn].line))
            steps = sorted(
                (
                    c
                    for c in file.values.calls
                    if c.scope == fn
                    and c.expr.func.kind == "Attribute"
                    and c.expr.func.name == "step"
                    and re.search(r"optim|scaler", c.expr.func.target.text, re.IGNORECASE)
                ),
                key=lambda c: c.own_order,
            )
            guards = [_modulo_guard(step, fn) for step in steps]
            if not steps or any(g is None for g in guards):
                continue
            guard = guards[0]
            assert guard is not None
            if guard[0] in call.ifs:
                continue  # the backward runs under the same test
            every = self.values.resolve(file, guard[0].function, guard[1], 0)
            values = [
                ("condition", guard[0].test.text),
                ("every", every.show()),
                ("backward", file.loc(call.expr.line)),
            ]
            note = "optimizer step every n backward passes"
            if every.literal and _literal_number(every.text) == 1:
                # PyTorch-YOLOv3's ``subdivisions=1``: written as accumulation, runs as none
                note = "n is 1 with the defaults: an optimizer step every step, no accumulation"
            self.add("grad_accum", "gradient accumulation", file.where(guard[0].line), values, note)

    def _micro_batches(self, file: _File, call: CallValues, seen: set[tuple[str, int]]) -> bool:
        """Gradient accumulation written as a loop of micro-batches (llm.c's ``for
        micro_step in range(grad_accum_steps): ... loss = loss / grad_accum_steps;
        loss.backward()``, then ``optimizer.step()`` after it): the backward runs in an
        inner loop no optimizer step is in, and the function steps the optimizer outside
        it. A row with the loop's count, the loss's scaling and where the step is."""
        fn = call.function
        line = call.expr.line
        holding = [loop for loop in file.values.loops if loop.function == fn]
        inner = max(
            (loop for loop in holding if any(u.line == line for u in loop.updates)),
            key=lambda loop: loop.line,
            default=None,
        )
        if inner is None or (file.path, -inner.line) in seen:
            return False
        span = {u.line for u in inner.updates}
        steps = [
            c
            for c in file.values.calls
            if c.function == fn
            and c.expr.func.kind == "Attribute"
            and c.expr.func.name == "step"
            and re.search(r"optim|scaler", c.expr.func.target.text, re.IGNORECASE)
        ]
        outside = [c for c in steps if c.expr.line > line and c.expr.line not in span]
        if not steps or any(c.expr.line in span for c in steps) or not outside:
            return False
        if not any(
            loop.line < inner.line and any(u.line == outside[0].expr.line for u in loop.updates)
            for loop in holding
        ):
            return False  # the step after every backward's loop: one step per pass, no loop
        seen.add((file.path, -inner.line))
        count = inner.iter
        if count.kind == "Call" and count.func.text == "range" and len(count.args) == 1:
            count = count.args[0]
        values = [
            ("micro-batches", self.values.describe(file, fn, count)),
            ("backward", file.loc(line)),
            ("step", file.loc(outside[0].expr.line)),
        ]
        # ``loss = loss / grad_accum_steps``: each micro-batch's share of the mean
        scaled = [
            a
            for a, where in file.assigns
            if where == fn
            and inner.line < a.line < line
            and a.value.kind == "BinOp"
            and a.value.text.startswith(f"{a.target.text} /")
        ]
        if scaled:
            values.append(("loss scaled", f"{scaled[-1].target.text} = {scaled[-1].value.text}"))
        note = "an optimizer step every n micro-batches, their gradients summed"
        self.add("grad_accum", "gradient accumulation", file.where(inner.line), values, note)
        return True


#: A layer's parameter tensor (``end.weight.data``, ``self.conv.bias``): what a constructor's
#: in-place fill or assignment initialises.
_PARAMETER_TENSOR = re.compile(r"\.(weight|bias)(\.data)?$")
#: Keywords of a training wrapper's call that set the training's precision, distribution or
#: accumulation (Lightning's ``precision=``/``strategy=``, apex's ``opt_level=``,
#: accelerate's ``mixed_precision=``).
_WRAPPER_KEYS = {
    # the training length a Lightning ``Trainer(max_epochs=cfg.epochs)`` runs to: no loop
    # of the repository's own counts the epochs
    "max_epochs": "epochs",
    "max_steps": "epochs",
    "precision": "amp",
    "opt_level": "amp",
    "amp_level": "amp",
    "mixed_precision": "amp",
    "strategy": "distributed",
    "accumulate_grad_batches": "grad_accum",
    "gradient_accumulation_steps": "grad_accum",
}
#: Packages whose calls wrap the training (the recipe's settings are their arguments).
_WRAPPER_PACKAGES = TORCH_FRAMEWORKS | {"apex", "accelerate", "lightning_fabric"}
#: Keys of a framework trainer's configuration that are recipe settings.
_TRAINER_KEYS = {
    "accelerator": "distributed",
    "strategy": "distributed",
    "distributed_backend": "distributed",
    "accumulate_grad_batches": "grad_accum",
}
#: A distributed strategy's name (``"ddp"``, ``"ddp_spawn"``, ``"deepspeed_stage_2"``, ``"fsdp"``).
_STRATEGY = re.compile(r"^(?:ddp|dp|deepspeed|fsdp|horovod)", re.IGNORECASE)
#: A name or attribute holding a learning rate (``model.learning_rate``, ``args.lr``).
_LR_TARGET = re.compile(r"^(?:\w+_)?(?:lr|learning_rate)$")


def _side_amp(item: RecipeItem, whose: str, trains: bool) -> RecipeItem:
    """A tool's mixed-precision row, said to be the inference path's (the recipe keeps it:
    the port casts the network the same way to run it). ``trains``: its file builds an
    optimizer or runs a backward pass (a variant training script), whose precision is a
    training's, so nothing is said."""
    if whose != "tool" or trains or item.category != "amp" or item.inference_precision:
        return item
    return replace(item, inference_precision=True)


def _dict_entry(file: _File, call: CallValues) -> tuple[str, str] | None:
    """(what holds the dict, key) when ``call`` is the value of a constant key of a dict
    literal: assigned (``data_transforms = {'train': Compose(...)}``: ``data_transforms``),
    or passed or returned ("" then); None otherwise."""
    span = call.expr[2:6]
    holders = [(a.target.text, a.value) for a, _ in file.assigns]
    holders += [("", outer.expr) for outer in file.calls_around(call.expr)]
    if call.function >= 0:
        holders += [("", r) for r in file.defs[call.function].returns]
    for text, holder in holders:
        if not (holder[2:4] <= span[:2] and holder[4:6] >= span[2:]):
            continue
        for node in holder.walk():
            if node.kind != "Dict":
                continue
            for key, item in zip(node.keys, node.items, strict=True):
                if key is not None and item[2:6] == span:
                    return text, key
    return None


def _evaluation_script(path: str) -> bool:
    """Whether the file is a script named for a split other than training (``test.py``,
    ``val.py``, ``test_MSMT.py``; not ``train_test.py``): what its module code composes and
    loads is that split's."""
    return bool(_EVAL_SPLIT.fullmatch(PurePosixPath(path).stem))


def _applied_once(read: _Read) -> bool:
    """Whether the read calls what it reads (``tf(img)``) in module code outside any loop:
    run once, at import, on one value."""
    if read.fn >= 0:
        return False
    line = read.node.line
    if any(first <= line <= last for first, last in read.file.values.loop_spans):
        return False
    return any(
        c.expr.func[2:6] == read.node[2:6] and c.scope == -1
        for c in read.file.calls_on.get(line, [])
    )


def _validation_loader(function: str, call: CallValues) -> bool:
    """A sampler or loader of the validation split: built in a function named for it
    (``get_val_loader``), stored as one (``val_sampler = SubsetRandomSampler(...)``) or
    reading one (``DataLoader(sampler=self.val_sampler)``). What validation loads is not how
    the model is trained."""
    names = [part for part in function.split(".") if part]
    if call.stored is not None and call.stored.kind in ("Name", "Attribute"):
        names.append(call.stored.name)
    passed = [*call.expr.args, *(k.target for k in call.expr.keywords)]
    names += [a.name for a in passed if a.kind in ("Name", "Attribute")]
    return any(_NOT_TRAINING_STORE.search(name) for name in names)


def _not_training_precision(f: ApiFinding, file: _File, call: CallValues) -> bool:
    """A mixed-precision row that is not the precision the training step runs in: code run
    for inference or measuring (a forward under ``@torch.no_grad()``, a def named for prediction,
    evaluation or profiling, a file named for testing or evaluation), and ``.half()`` casts
    of something other than the model the step trains: rounded back at once
    (``model.half().float()``), a copy (``deepcopy(model).half()`` stored in a checkpoint),
    a checkpoint's entry (``ckpt['model'].half()`` before it is saved again), a value
    handed straight to a save (``torch.save(model.half(), f)``) or a loaded checkpoint
    handed straight on (``test(model=load(w).half())``). GradScaler, autocast around the
    step, a cast the network's own forward makes and one of the model or inputs the step
    trains on (``net = Net().half()``, ``net(x.half())``) stay."""
    fn = f.function
    if fn.rpartition(".")[2] in _WHOLE_RUN and any(
        d.qualname == fn and d.no_grad for d in file.fa.functions
    ):
        return True  # a forward under no_grad: an inference wrapper, nothing in it trains
    # the file's name, not its folders: a ``detectors/`` package holds the models that train
    place = f"{PurePosixPath(f.path).name}:{fn}"
    if fn and (_MEASURING.search(fn) or _INFERENCE_PLACE.search(place)):
        return True
    if f.api not in _HALF or call.expr.func.kind != "Attribute":
        return False
    if any(
        _HALF_TEST.search(near.test.text) and "==" in near.test.text and "!=" not in near.test.text
        for near in call.ifs
    ):
        # waveglow's ``if z.type() == 'torch.cuda.HalfTensor': W_inverse =
        # W_inverse.half()``: a cast to the precision the input already has, chosen
        # elsewhere, not a choice of precision
        return True
    receiver = call.expr.func.target
    if receiver.kind == "Call" and receiver.callee() in _COPIES:
        return True
    if receiver.kind == "Subscript" and isinstance(receiver.parts[-1].value, str):
        return True
    loaded = receiver.kind == "Call" and bool(_LOADS.search(receiver.callee()))
    at = call.expr[2:6]  # (line, col, end_line, end_col)
    for other in file.values.calls:
        if other.function != call.function or other is call:
            continue
        func = other.expr.func
        if (
            func.kind == "Attribute"
            and func.name in _FULL_PRECISION_CASTS
            and func.target[2:6] == at
        ):
            return True  # ``model.half().float()``
        passed = [*other.expr.args, *(k.target for k in other.expr.keywords)]
        if (loaded or _SAVES.search(other.expr.callee())) and any(a[2:6] == at for a in passed):
            return True  # ``test(model=load(w).half())``, ``torch.save(model.half(), f)``
    return False


def _inference_script_row(item: RecipeItem) -> bool:
    """A training-recipe row from a script that runs the trained model (PyTorch-YOLOv3's
    ``detect.py`` with its own ``--batch_size`` and loader, a ``demo.py``, ``predict.py``):
    how inference batches its inputs is not how the model is trained. What the inference
    path itself needs (checkpoints, its input steps) stays; its half precision is not the
    precision training runs in."""
    if item.category in ("checkpoint", "backbone", "preprocessing", "postprocessing"):
        return False
    return bool(_INFERENCE_SCRIPT.search(item.where.path))


def _evaluation_code(item: RecipeItem) -> bool:
    """A training-recipe row from a package of evaluation code (CenterNet's
    ``tools/voc_eval_lib/``, an ``evaluation/`` folder): the seed or loader an evaluation
    library sets up is not how the model is trained. Checkpoints, backbones and the
    inference path's steps stay wherever they are."""
    if item.category in ("checkpoint", "backbone", "preprocessing", "postprocessing"):
        return False
    return any(_EVAL_DIR.search(part) for part in PurePosixPath(item.where.path).parts[:-1])


def _input_step(item: RecipeItem) -> RecipeItem:
    """A transform that converts or standardises every input the same way (``ToTensor``,
    ``Normalize``) is a step of the input, not an augmentation: the port repeats it exactly
    (the same mean, std and channel order); an augmentation is random and is what the
    training recipe varies."""
    if item.category != "augmentation":
        return item
    if item.name.startswith("composition in "):
        # HRNet's ``transforms.Compose([ToTensor(), Normalize(...)])``: only input steps
        steps = [re.sub(r"^(\w+\.)*", "", text.partition("(")[0]) for _, text in item.values]
        if not steps or any(step not in _INPUT_STEPS | _SIZING_STEPS for step in steps):
            return item
        note = "input steps only (every image, no randomness), not an augmentation"
        if set(steps) & _SIZING_STEPS:
            # an evaluation pipeline's ``Resize`` + ``CenterCrop``: the same size every time
            note = "input steps only (a fixed resize and crop for every image, no randomness)"
            note += ", not an augmentation"
        note = f"{note}; {item.note}" if item.note else note
        return replace(item, category="preprocessing", note=note)
    if item.name.rpartition(".")[2] not in _INPUT_STEPS:
        return item
    note = "input step (every image, no randomness), not an augmentation"
    note = f"{note}; {item.note}" if item.note else note
    return replace(item, category="preprocessing", note=note)


def _help(option: _ArgOption) -> str:
    """An argparse option's ``help=`` text, "" when it has none or it is not a literal."""
    for k in option.call.expr.keywords:
        if k.name == "help" and k.target.kind == "Constant" and isinstance(k.target.value, str):
            return k.target.value
    return ""


#: Calls that hand back the module they are given: a data-parallel wrapper, a device or
#: precision move.
_MODULE_WRAPPERS = frozenset({"DistributedDataParallel", "DataParallel"})
_MODULE_MOVES = frozenset({"to", "cuda", "cpu", "half", "float", "train"})


def _wrapped_module(value: Expr) -> Expr | None:
    """The name or attribute a wrapping call hands back (``model`` of
    ``DistributedDataParallel(model, device_ids=[gpu])``, of ``model.to(device)``), else
    None."""
    if value.kind != "Call":
        return None
    func = value.func
    if func.kind in ("Name", "Attribute") and func.name in _MODULE_WRAPPERS and value.args:
        inner = value.args[0]
    elif func.kind == "Attribute" and func.name in _MODULE_MOVES:
        inner = func.target
    else:
        return None
    return inner if inner.kind in ("Name", "Attribute") else None


def _differentiated(file: _File) -> Iterator[tuple[CallValues, int, Expr]]:
    """Each ``x.backward()`` statement inside a function of ``file``, with that function's
    index and what it differentiates: ``x``, or the loss a scaler wraps
    (``scaler.scale(loss).backward()`` differentiates ``loss``)."""
    for call in file.values.calls:
        fn = call.function
        if not (call.statement and call.expr.callee() == "backward" and fn >= 0):
            continue
        if call.expr.func.kind != "Attribute":
            continue
        target = call.expr.func.target
        if target.kind == "Call" and target.args:
            target = target.args[0]
        yield call, fn, target


def _indexes(read: _Read) -> bool:
    """The read is a subscript's index (``sizes[args.size]``)."""
    return _indexes_or_formats(read, formats=False)


def _indexes_or_formats(read: _Read, formats: bool = True) -> bool:
    """The read is a subscript's index (``sizes[args.size]``) or, with ``formats``, a value
    formatted into a string (``f"model-d{args.size}.pth"``)."""
    node = read.node
    at = (node.line, node.col, node.end_line, node.end_col)
    for root, _ in _file_roots(read.file):
        if not (root.line <= node.line <= root.end_line):
            continue
        for outer in root.walk():
            if outer.kind == "Subscript" and len(outer.parts) > 1:
                index = outer.parts[1]
                if (index.line, index.col, index.end_line, index.end_col) == at:
                    return True
            if formats and outer.kind == "FormattedValue" and outer.parts:
                inner = outer.parts[0]
                if (inner.line, inner.col, inner.end_line, inner.end_col) == at:
                    return True
    return False


def _file_roots(file: _File) -> Iterator[tuple[Expr, int]]:
    """Every top expression of a file's record with the function it is in: calls,
    assignments' values, loops' iterables, ``if`` tests and returns (a read of a value is
    inside one of them)."""
    for call in file.values.calls:
        yield call.expr, call.function
        for test in call.ifs:
            yield test.test, test.function
    for a, fn in file.assigns:
        yield a.value, fn
    for loop in file.values.loops:
        yield loop.iter, loop.function
    for n, d in enumerate(file.defs):
        for r in d.returns:
            yield r, n


#: A dataclass decorator, named through the imports (``dataclasses.dataclass``, pydantic's).
_DATACLASS = re.compile(r"^(\w+\.)*dataclass$")


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


#: The epoch or iteration a schedule is computed for (semseg's ``curr_iter``).
_EPOCH_NAME = r"epoch|^it(er)?$|^curr?(ent)?_iter$"


def _reads_epoch(expr: Expr) -> bool:
    """A value computed from the epoch (or iteration) it is set for."""
    nodes = expr.walk()
    return any(
        (n.kind == "Name" and re.search(_EPOCH_NAME, n.name, re.IGNORECASE))
        or (n.kind == "Attribute" and "epoch" in n.name.lower())
        for n in nodes
    ) and any(n.kind == "BinOp" for n in nodes)


def _floor(stmt: AssignValues, name: str) -> str:
    """``if momentum < 0.01: momentum = 0.01`` right after ``stmt``: the floor's text."""
    test = stmt.guard
    if (
        test is not None
        and test.kind == "Compare"
        and test.parts[0].kind == "Name"
        and test.parts[0].name == name
        and test.name in ("Lt", "LtE")
    ):
        return test.parts[1].text
    return ""


def _relative(file: _File, expr: Expr) -> str:
    """``T.RandomFlip`` after ``from . import transforms as T`` as a dotted name ("" when the
    head is not bound by a relative import): the shared import table keeps absolute ones."""
    parts = expr.chain()
    if parts is None or not file.module:
        return ""
    for bound, level, module, name in file.values.relative_imports:
        if bound == parts[0]:
            prefix = file.from_module(level, module)
            head = [prefix, name] if prefix else [name]
            return ".".join([*head, *parts[1:]])
    return ""


def _kind(expr: Expr | None) -> str:
    return expr.kind if expr is not None else ""


def _declares_from_format(expr: Expr) -> bool:
    """``parser.add_argument(f"--{k}", ...)``: an option whose name is formatted."""
    return (
        expr.kind == "Call"
        and expr.func.kind == "Attribute"
        and expr.func.name == "add_argument"
        and bool(expr.args)
        and expr.args[0].kind == "JoinedStr"
    )


def _replaced_def(file: _File, fn: int) -> bool:
    """Whether method ``fn`` of ``file`` is defined again further down its class body
    under the same name (SPADE's trainer defining ``update_learning_rate`` twice): the later
    definition replaces it, so its body never runs. A decorated one (a property's getter
    and setter) is none, nor a module-level function (defined in branches)."""
    if fn < 0:
        return False
    d = file.defs[fn]
    if d.owner < 0 or d.is_class:
        return False
    facts = file.fa.syntax
    if facts is not None and any(qual == d.qual for qual, _, _ in facts.decorators):
        return False
    return any(o.qual == d.qual and o.owner == d.owner and o.line > d.line for o in file.defs)


def _unweighted_terms(file: _File, fn: int, held: Expr) -> str:
    """A plain sum of named terms a loss returns (deep supervision's ``loss = loss0 + loss1
    + ... + loss6``, each ``bce_loss(d_i, labels)``), each term with what def ``fn``
    assigned it, for a row to list: ``7 terms summed, weight 1 each: loss0 = ...``. "" when
    a term is no name (a product, a call: its own weight is read elsewhere) or is
    subtracted."""
    terms, line = _summands(held), held.line
    if any(t.kind != "Name" for t in terms) or any(
        e.kind == "BinOp" and e.name == "Sub" for e in held.walk()
    ):
        return ""
    shown = []
    for term in terms:
        value = file.local_value(fn, term.name, line)
        shown.append(
            f"{term.name} = {shorten(value.text, _TERM_LIMIT)}" if value is not None else term.name
        )
    return f"{len(terms)} terms summed, weight 1 each: " + "; ".join(shown) + f" ({file.loc(line)})"


def _summands(expr: Expr) -> list[Expr]:
    """The terms a sum adds or subtracts (``a + 2 * b - c``: ``a``, ``2 * b``, ``c``)."""
    if expr.kind == "BinOp" and expr.name in ("Add", "Sub"):
        return [t for part in expr.parts for t in _summands(part)]
    return [expr]


def _epoch_loops(file: _File) -> Iterator[tuple[LoopValues, Expr]]:
    """Each ``for ... in range(...)`` loop of ``file`` that holds, in its own function, a
    loop over something other than a ``range`` (the epochs around the batches, not a count
    of layers), with the expression it runs to: the stop, not the start
    (``range(opt.epoch_count, opt.n_epochs + 1)``: the epoch a resumed run starts from) nor
    the step."""
    loops = file.values.loops
    # the file's functions that loop over the data and run a backward pass: a loop calling
    # one per pass (VITS's ``for epoch in range(epoch_str, hps.train.epochs + 1):
    # train_and_evaluate(...)``) runs the epochs around the batches too
    over_data = {
        loop.function
        for loop in loops
        if loop.function >= 0 and not (loop.iter.kind == "Call" and loop.iter.callee() == "range")
    }
    backward = {
        c.function
        for c in file.values.calls
        if c.function in over_data
        and c.expr.func.kind == "Attribute"
        and c.expr.func.name == "backward"
    }
    steps = {file.defs[n].name for n in backward if file.defs[n].owner < 0}
    backward_lines = [
        (c.function, c.expr.line)
        for c in file.values.calls
        if c.expr.func.kind == "Attribute" and c.expr.func.name == "backward"
    ]
    for outer in loops:
        if outer.iter.kind != "Call" or outer.iter.callee() != "range":
            continue
        last = max((u.line for u in outer.updates), default=outer.line)
        inner_spans = [
            (inner.line, max((u.line for u in inner.updates), default=inner.line))
            for inner in loops
            if inner is not outer
            and inner.function == outer.function
            and outer.line < inner.line <= last
        ]
        if any(
            fn == outer.function
            and outer.line < line <= last
            and not any(a <= line <= z for a, z in inner_spans)
            for fn, line in backward_lines
        ):
            # the backward pass in the loop's own body (semantic-segmentation's ``for i in
            # range(cfg.TRAIN.epoch_iters):`` fetching ``next(iterator)``): the batch loop,
            # the loops inside it (over the optimizers) no batches
            continue
        if (
            not any(
                inner is not outer
                and inner.function == outer.function
                and outer.line < inner.line <= last
                # over the data (``enumerate(dataset)``)
                and not (inner.iter.kind == "Call" and inner.iter.callee() == "range")
                for inner in loops
            )
            and not any(
                c.function == outer.function
                and outer.line < c.expr.line <= last
                and c.expr.func.kind == "Name"
                and c.expr.func.name in steps
                # handed the epoch (``train_and_evaluate(rank, epoch, ...)``): a loop repeating
                # whole runs (``for run in range(args.runs): train(args)``) runs no epochs
                and any(
                    e.kind == "Name" and e.name in outer.names
                    for part in c.expr.parts[1:]
                    for e in part.walk()
                )
                for c in file.values.calls
            )
        ):
            continue
        args = outer.iter.args
        yield outer, (args[1] if len(args) > 1 else args[0] if args else outer.iter)


def _step_loops(file: _File) -> Iterator[tuple[LoopValues, Expr]]:
    """Each ``for`` loop over a ``range`` (``trange`` too) of ``file`` whose own body, not
    a loop inside it, runs a backward pass (a training written as steps, not epochs), with
    the expression it runs to (the stop, not the start a resumed run gives)."""
    loops = file.values.loops
    backward = [
        (c.function, c.expr.line)
        for c in file.values.calls
        if c.expr.func.kind == "Attribute" and c.expr.func.name == "backward"
    ]
    for outer in loops:
        if outer.iter.kind != "Call" or outer.iter.callee() not in ("range", "trange"):
            continue
        last = max((u.line for u in outer.updates), default=outer.line)
        inner = [
            (i.line, max((u.line for u in i.updates), default=i.line))
            for i in loops
            if i is not outer and i.function == outer.function and outer.line < i.line <= last
        ]
        if any(
            fn == outer.function
            and outer.line < line <= last
            and not any(a <= line <= z for a, z in inner)
            for fn, line in backward
        ):
            args = outer.iter.args
            yield outer, (args[1] if len(args) > 1 else args[0] if args else outer.iter)


#: The name of a loss scale a training multiplies the loss by before its backward pass.
_SCALE_NAME = re.compile(r"(^|_)(loss_)?scale(_|$)", re.IGNORECASE)
#: The note of a loss row read from a ``functools.partial`` binding the loss method.
_PARTIAL_NOTE = "bound by functools.partial"


def _partials_once(rows: list[RecipeItem]) -> list[RecipeItem]:
    """The rows less a loss method's ``functools.partial`` row where the call graph's row
    of the same method sits at the same place (guided-diffusion's ``compute_losses =
    functools.partial(self.diffusion.training_losses, ...)``: one row by the base class's
    method, one by the subclass's the run builds, with every argument): one loss, one
    row, the kept one saying how it is bound."""
    kept = {
        (i.where.path, i.where.line, i.name.rpartition(".")[2]): n
        for n, i in enumerate(rows)
        if i.category == "loss" and not i.note.startswith(_PARTIAL_NOTE)
    }
    out = list(rows)
    dropped: set[int] = set()
    for n, item in enumerate(rows):
        if item.category != "loss" or not item.note.startswith(_PARTIAL_NOTE):
            continue
        twin = kept.get((item.where.path, item.where.line, item.name.rpartition(".")[2]))
        if twin is None:
            continue
        bound = item.note.partition(";")[0]
        other = out[twin]
        if not other.note.startswith(_PARTIAL_NOTE):
            out[twin] = replace(other, note=f"{bound}; {other.note}" if other.note else bound)
        dropped.add(n)
    return [i for n, i in enumerate(out) if n not in dropped]


def _clip_bounds(file: _File, index: int) -> frozenset[str]:
    """The names the gradient-clipping function ``index`` of ``file`` bounds the gradients
    with: those read in the arguments of its in-place clamps and scalings of a ``.grad``
    (``p.grad.data.clamp_(min=-clip_value, max=clip_value)``: ``clip_value``)."""
    names: set[str] = set()
    for c in file.values.calls:
        func = c.expr.func
        if c.function != index or func.kind != "Attribute":
            continue
        if func.name not in ("clamp_", "clip_", "mul_", "div_"):
            continue
        if not any(e.kind == "Attribute" and e.name == "grad" for e in func.target.walk()):
            continue
        for part in c.expr.parts[1:]:
            names.update(e.name for e in part.walk() if e.kind == "Name" and e.name)
    return frozenset(names)


def _array_names(expr: Expr) -> list[str]:
    """The plain names an array's formula is built from (``np.concatenate((warmup,
    cosine))``: ``warmup``, ``cosine``), not the receivers of settings (``args`` of
    ``args.base_lr``) nor what only a length is taken of (``len(train_loader)``)."""
    if expr.kind == "Name":
        return [expr.name]
    if expr.kind == "Attribute" or (expr.kind == "Call" and expr.callee() == "len"):
        return []
    parts = expr.parts[1:] if expr.kind == "Call" else expr.parts  # not the callee
    return [n for p in parts for n in _array_names(p)]


def _written_loss_kind(expr: Expr) -> str | None:
    """The kind of a loss term written out with torch ops in an in-place update (``subloss
    -= torch.mean(torch.sum(q * F.log_softmax(x, dim=1), dim=1))``): a cross-entropy
    against soft targets (a sum of targets times a log-softmax, or a log-softmax's
    negated mean), else the kinds :func:`_inline_loss_kind` tells; None for anything
    else."""
    for e in expr.walk():
        if (
            e.kind == "BinOp"
            and e.name == "Mult"
            and any(p.kind == "Call" and p.callee() in ("log_softmax", "log") for p in e.parts)
        ):
            return "cross-entropy against soft targets (targets × log-softmax)"
    return _inline_loss_kind(expr, "")


def _inline_loss_kind(expr: Expr, name: str) -> str | None:
    """The kind of the loss term ``name = expr`` written out in the step, or None: the mean
    absolute difference (L1: ``torch.mean(torch.abs(a - b))``, ``(a - b).abs().mean()``),
    the mean squared difference (L2: ``torch.mean((a - b) ** 2)``), or the mean of another
    tensor, negated or not (a WGAN critic's score: ``-torch.mean(out_src)``). A term reduced
    in place (vq-vae-2's ``latent_loss = latent_loss.mean()``, computed by the model) is
    of no kind the step tells."""
    negated = expr.kind == "UnaryOp" and expr.name == "USub"
    if negated:
        expr = expr.parts[0]
    if expr.kind != "Call" or expr.callee() != "mean":
        return None
    func = expr.func
    inner = expr.args[0] if expr.args else func.target if func.kind == "Attribute" else None
    if inner is None:
        return None
    if inner.kind == "Call" and inner.callee() == "abs":
        diff = inner.args[0] if inner.args else inner.func.target
        if diff.kind == "BinOp" and diff.name == "Sub":
            return "L1 (mean absolute difference)"
    if (
        inner.kind == "BinOp"
        and inner.name == "Pow"
        and inner.parts[0].kind == "BinOp"
        and inner.parts[0].name == "Sub"
        and inner.parts[-1].text == "2"
    ):
        return "L2 (mean squared difference)"
    if inner.kind in ("Name", "Attribute") and inner.text != name:
        sign = "minus the" if negated else "the"
        return f"{sign} mean of {inner.text} (a critic's score)"
    return None


def _empty_collection(value: Expr) -> bool:
    """``[]``, ``{}``, ``()``: a container the code fills (a launcher's ``workers = []`` list
    of subprocesses), no setting's value."""
    return value.kind in ("List", "Dict", "Tuple", "Set") and not value.parts


def _set_by_own_methods(found: _AttrSet, sets: Sequence[_AttrSet]) -> bool:
    """Whether another method of the class sets the attribute ``__init__`` starts: a
    placeholder for what the object works out itself (a distributed environment's
    ``self.world_size = -1``, then ``self.world_size = int(os.environ["WORLD_SIZE"])`` in
    the method reading the launcher's variables), no setting. A configuration class sets
    its values in ``__init__`` (a subclass's ``__init__`` overrides them)."""
    return any(
        a.cls == found.cls and a.attr == found.attr and a.method not in ("__init__", "")
        for a in sets
    )


def _reads_names(expr: Expr, names: Collection[str]) -> bool:
    """Whether ``expr`` reads one of ``names`` (a helper's parameters)."""
    return bool(names) and any(e.kind == "Name" and e.name in names for e in expr.walk())


#: A random permutation of a sample's points or rows (``np.random.shuffle(pointcloud)``): a
#: draw of the augmentation a dataset writes by hand, though it draws no amount.
_SHUFFLE_DRAW = re.compile(r"^(?:random|np\.random|numpy\.random)\.(?:shuffle|permutation)$")


def _is_loss_function(name: str) -> bool:
    """A function named for a loss, or for a penalty term added to one (stargan's
    ``gradient_penalty``, weighted by ``lambda_gp``; an ``r1_penalty``; stylegan2's
    ``g_path_regularize``, the path-length penalty)."""
    words = [w for w in name.lower().split("_") if w]
    if len(words) > 1 and "losses" in words:
        # a diffusion's ``training_losses``: the terms of the step's loss, in a dict (a bare
        # ``losses`` method is a head's bookkeeping of its own terms, already rows)
        words.append("loss")
    if len(words) == 2 and words[0] == "get" and words[1] in _LOSS_WORDS:
        # PointNet's and VoteNet's ``get_loss(end_points, config)``: computes the loss (a
        # getter of something of the loss names more: ``get_loss_weights``)
        return True
    return bool(_LOSS_WORDS & set(words)) and not (set(words) & _LOSS_HELPER_WORDS)


#: A model-tree part built from what the constructor is handed (``base_encoder(...), passed
#: in``): the parameter called.
_HANDED_PART = re.compile(r"\b(\w+)\(\.\.\.\), passed in")


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
    if api in _DISTRIBUTED or api.startswith(LAUNCH_MODULES):
        return "distributed"
    if api in _LOADER:
        return "dataloader"
    if api.startswith("torch.") and last in _SEED_NAMES:
        return "seed"
    if api.startswith("torch.nn.init."):
        return "init"
    return None


def _from_parameter_default(value: _Val) -> bool:
    """Whether ``value`` is a parameter's default that no caller is known to pass (the
    callers may pass another: no switch is decided on it, as no arithmetic is)."""
    return any(step.startswith("default of parameter") for step in value.trail)


def _name_table(expr: Expr) -> bool:
    """A dict literal of names to names (a keypoint flip map, ``{'left_eye': 'right_eye',
    ...}``): a lookup table the code reads, no setting of the recipe."""
    if expr.kind != "Dict" or not expr.keys or any(key is None for key in expr.keys):
        return False
    values = expr.parts[-len(expr.keys) :]
    return all(v.kind == "Constant" and isinstance(v.value, str) for v in values)


#: How a step names a setting a per-element value scales (:meth:`_Values._settings_in`).
_SCALED = "with "

#: How many calls up :meth:`_Recipe._test_time_only` follows a function's callers.
_TEST_TIME_DEPTH = 4

#: A generator object's own seeding (``g = torch.Generator(); g.manual_seed(self.epoch)``).
_GENERATOR_SEED = re.compile(r"^torch\.(\w+\.)*Generator\.manual_seed$")


def _generator_seeds(items: list[RecipeItem], in_data: Callable[[Where], bool]) -> list[RecipeItem]:
    """A ``torch.Generator`` seeded for its own draws (a sampler's shuffle order seeded with
    the epoch, an optimizer's probe vectors) is no seed of the run: its row says so, and
    whether any global seed is set at all (none when no other seed row is left); one a
    sampler or a dataset seeds (``in_data``) goes with the data loading."""
    seeded = any(i.category == "seed" and not _GENERATOR_SEED.match(i.name) for i in items)
    out = []
    for i in items:
        if i.category == "seed" and _GENERATOR_SEED.match(i.name):
            data = in_data(i.where)
            what = "a shuffle order" if data else "its own draws"
            note = f"a generator seeded for {what}, not the run's seed"
            if not seeded:
                note += "; no global seed is set (torch.manual_seed, numpy, random)"
            i = replace(
                i,
                category="dataloader" if data else i.category,
                note="; ".join(n for n in (i.note, note) if n),
            )
        out.append(i)
    return out


def _bind_torch(params: Sequence[tuple[str, str, bool]], call: Expr) -> dict[str, Expr]:
    positional = [p for p, kind, _ in params if kind in ("pos_only", "pos_or_kw")]
    bound: dict[str, Expr] = {}
    for name, arg in zip(positional, call.args, strict=False):
        if arg.kind == "Starred":
            break
        bound[name] = arg
    bound.update({k.name: k.target for k in call.keywords if k.name})
    return bound


def _enclosing_quals(qual: str) -> list[str]:
    """``A.b.c`` → ``A.b``, ``A``: the defs a qualified name is nested in."""
    parts = qual.split(".")
    return [".".join(parts[:n]) for n in range(len(parts) - 1, 0, -1)]


def _is_wd_slot(target: Expr) -> bool:
    """``group['weight_decay']``: a param group's weight decay."""
    return target.kind == "Subscript" and any(
        p.kind == "Constant" and p.value in ("weight_decay", "wd") for p in target.parts[1:]
    )


#: The sequences written by hand an EMA's decay may be drawn from, step by step.
_WRITTEN_SEQUENCES = frozenset({"GeneratorExp", "ListComp"})
#: How many of the settings such a sequence reads an EMA row shows.
_SCHEDULE_SETTINGS = 4

#: A name for a temperature (``teacher_temp_schedule``, ``tau``).
_TEMPERATURE_NAME = re.compile(r"(^|_)(temp|temperature|tau)(_|$)", re.IGNORECASE)

#: A name for the weight decay (``wd_schedule_values``, ``args.weight_decay``).
_WD_NAME = re.compile(r"(^|_)(wd|weight_decay)(_|$)", re.IGNORECASE)


@dataclass(frozen=True)
class _Scope:
    """A def, or a module's own code, as the hand-written schedules read it: its name, its
    lines and its plain assignments. A script's training loop is often module code
    (``for epoch in ...: ...; optimizer.param_groups[0]['lr'] = learning_rate`` at the top
    level of ``train.py``): its schedule is read as a def's is."""

    qual: str
    name: str
    line: int
    end_line: int
    assigns: tuple[AssignValues, ...]

    @staticmethod
    def of(file: _File, fn: int) -> _Scope:
        if fn >= 0:
            d = file.defs[fn]
            return _Scope(d.qual, d.name, d.line, d.end_line, d.assigns)
        name = f"the module code of {PurePosixPath(file.path).name}"
        return _Scope(name, "", 1, 1 << 30, file.values.assigns)


def _is_lr_slot(target: Expr) -> bool:
    """``group['lr']``: a param group's learning rate."""
    return target.kind == "Subscript" and any(
        p.kind == "Constant" and p.value in ("lr", "learning_rate") for p in target.parts[1:]
    )


#: What an image is divided by to scale it to [0, 1] or [-1, 1].
_IMAGE_SCALES = frozenset({255, 127.5})


def _normalisations(expr: Expr, resolve: Callable[[Expr], _Val]) -> Iterator[Expr]:
    """The normalising steps in ``expr``, outermost first (an inner one of a match is part
    of it): ``x / 255.``, ``(x - a) / b`` and ``x.sub_(a).div_(b)`` where ``a`` and ``b`` are
    the same constant (``0.5``, ``127.5``), constants within (0, 1] (a mean and a std), or
    settings that read as literal sequences (``mean``, ``std`` lists). A box's ``(w - 1) / 2``
    is none of these."""
    if (
        expr.kind == "BinOp"
        and expr.name in ("Sub", "Add")
        and _divided(expr.parts[0]) is not None
        and _number(expr.parts[-1], resolve) is not None
        and _number(_divided(expr.parts[0])[1], resolve) in _IMAGE_SCALES
        and _shifted(_divided(expr.parts[0])[0]) is None
    ):
        # ``x / 127.5 - 1``: scaled to [-1, 1], the shift part of the step
        yield expr
        return
    divided = _divided(expr)
    if divided is not None:
        value, divisor = divided
        scale = _number(divisor, resolve)
        shifted = _shifted(value)
        if shifted is None:
            if scale in _IMAGE_SCALES:
                yield expr
                return
        else:
            shift = _number(shifted, resolve)
            if (
                scale is not None
                and shift is not None
                and (shift == scale or (0 < shift <= 1 and 0 < scale <= 1))
            ) or (_sequence(shifted, resolve) and _sequence(divisor, resolve)):
                yield expr
                return
    for part in expr.parts:
        yield from _normalisations(part, resolve)


#: The in-place updates a hand-written schedule makes (``lr -= step``, ``lr *= gamma``)
_STEP_OPS: dict[str, Callable[[float, float], float]] = {
    "Sub": lambda a, b: a - b,
    "Add": lambda a, b: a + b,
    "Mult": lambda a, b: a * b,
    "Div": lambda a, b: a / b,
}
#: The longest training loop a hand-written schedule is followed through, index by index
_SIMULATED_STEPS = 2_000_000
_ARITH: dict[str, Callable[[float, float], float]] = {
    **_STEP_OPS,
    "FloorDiv": lambda a, b: a // b,
    "Mod": lambda a, b: a % b,
    "Pow": lambda a, b: a**b,
}


def _arith(expr: Expr, env: Mapping[str, float], lookup: Callable[[Expr], float | None]) -> object:
    """The number (or truth) of an arithmetic test or step of a training loop
    (``(i + 1) % self.lr_update_step == 0 and (i + 1) > (self.num_iters - n)``): names bound
    in ``env`` (the loop's index, the value being updated) or valued by ``lookup``; None when
    it cannot be told. The shared evaluator (:func:`~apiscan.review.evaluate.holds`)
    compares names and strings; this adds the arithmetic of a step counter."""
    kind = expr.kind
    if kind == "Constant":
        return expr.value if isinstance(expr.value, int | float) else None
    if kind == "Name" and expr.name in env:
        return env[expr.name]
    if kind in ("Name", "Attribute"):
        return lookup(expr)
    parts = [_arith(p, env, lookup) for p in expr.parts] if kind != "Call" else []
    numeric = all(isinstance(p, int | float) for p in parts)
    try:
        if kind == "BinOp" and len(parts) == 2 and numeric and expr.name in _ARITH:
            return _ARITH[expr.name](parts[0], parts[1])  # type: ignore[arg-type]
        if kind == "UnaryOp" and expr.name == "USub" and numeric and parts:
            return -parts[0]  # type: ignore[operator]
        if kind == "Compare" and len(parts) == 2 and numeric and expr.name in COMPARE:
            return COMPARE[expr.name](parts[0], parts[1])
        if kind == "BoolOp" and numeric and parts:
            # Python's own: ``and`` gives the first false operand, ``or`` the first true one
            # (``cfg.BIAS_DECAY and cfg.WEIGHT_DECAY or 0``: 0 when the switch is off)
            pick = next((p for p in parts if not p), None) if expr.name == "And" else None
            if expr.name != "And":
                pick = next((p for p in parts if p), None)
            return parts[-1] if pick is None else pick
    except (ArithmeticError, TypeError, ValueError):
        return None
    if kind == "Call" and expr.callee() in ("float", "int") and len(expr.args) == 1:
        inner = _arith(expr.args[0], env, lookup)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return float(inner) if expr.callee() == "float" else int(inner)
    return None


#: The most numbers a loss or transform row shows of its class (:meth:`_Recipe._class_constants`)
_CLASS_CONSTANTS = 12


def _fractional(expr: Expr) -> bool:
    """A constant written into a call that is a setting, not an index or a count: built
    from literals only, with a fraction in it (``0.4``, ``1.0 / 9.0``, ``[[0.1, 0.1, 0.2,
    0.2]]``); whole numbers (``dim=1``, ``view(-1, 4)``) and ±0.0 / ±1.0 alone (a mask's
    fill, an ignore label's ``-1.0``) are left out, as is a list of them (a rotation's
    axis ``np.array([1.0, 0.0, 0.0])``: a basis vector, no setting)."""
    if not expr.literal or expr.kind not in ("Constant", "BinOp", "UnaryOp", "List", "Tuple"):
        return False
    numbers = [n.value for n in expr.walk() if n.kind == "Constant"]
    if not numbers or any(not isinstance(n, int | float) or isinstance(n, bool) for n in numbers):
        return False
    if len(numbers) == 1 and expr.kind in ("Constant", "UnaryOp"):
        return isinstance(numbers[0], float) and abs(numbers[0]) not in (0.0, 1.0)
    if expr.kind in ("List", "Tuple") and all(abs(n) in (0.0, 1.0) for n in numbers):
        return False
    return any(isinstance(n, float) for n in numbers) or (
        expr.kind == "BinOp" and expr.name == "Div"
    )


def _numeric_setting(expr: Expr) -> bool:
    """A number or a list of them with a fraction in it, written as a literal or wrapped in
    one array constructor (``np.array([[[0.485, 0.456, 0.406]]])``, ``torch.tensor([0.5])``);
    whole numbers alone (a list of step indices, a count) are no such setting."""
    if expr.kind == "Call" and len(expr.args) == 1 and not expr.keywords:
        expr = expr.args[0]
    return (
        expr.literal
        and is_numeric(_literal_value(expr))
        and any(isinstance(n.value, float) for n in expr.walk() if n.kind == "Constant")
    )


def _divided(expr: Expr) -> tuple[Expr, Expr] | None:
    """(what is divided, the divisor) of ``a / b`` or ``a.div_(b)`` / ``a.div(b)``."""
    if expr.kind == "BinOp" and expr.name == "Div":
        return expr.parts[0], expr.parts[1]
    if (
        expr.kind == "Call"
        and expr.func.kind == "Attribute"
        and expr.func.name in ("div", "div_")
        and len(expr.args) == 1
        and not expr.keywords
    ):
        return expr.func.target, expr.args[0]
    return None


def _shifted(expr: Expr) -> Expr | None:
    """What is subtracted in ``a - b`` or ``a.sub_(b)`` / ``a.sub(b)``, else None."""
    if expr.kind == "BinOp" and expr.name == "Sub":
        return expr.parts[1]
    if (
        expr.kind == "Call"
        and expr.func.kind == "Attribute"
        and expr.func.name in ("sub", "sub_")
        and len(expr.args) == 1
        and not expr.keywords
    ):
        return expr.args[0]
    return None


def _number(expr: Expr, resolve: Callable[[Expr], _Val]) -> float | None:
    """The number a literal or a setting that reads as one stands for."""
    value = _literal_value(expr) if expr.literal else None
    if value is None and expr.kind in ("Name", "Attribute"):
        found = resolve(expr)
        if found.literal:
            try:
                value = ast.literal_eval(found.text)
            except (ValueError, SyntaxError):
                value = None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _sequence(expr: Expr, resolve: Callable[[Expr], _Val]) -> bool:
    """A literal list or tuple of numbers, written here or as a setting (a mean, a std)."""
    if expr.kind not in ("Name", "Attribute", "List", "Tuple"):
        return False
    found = resolve(expr)
    try:
        value = ast.literal_eval(found.text) if found.literal else None
    except (ValueError, SyntaxError):
        return False
    return (
        isinstance(value, list | tuple)
        and len(value) in (1, 3)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def _learned_weights(file: _File, node: DefValues, fn: int, name: str) -> list[tuple[str, str]]:
    """The terms of a loss class's output weighted by parameters the loss learns
    (FairMOT's uncertainty weighting: ``loss = torch.exp(-self.s_det) * det_loss +
    torch.exp(-self.s_id) * id_loss + (self.s_det + self.s_id)``, with ``self.s_det =
    nn.Parameter(-1.85 * torch.ones(1))`` in ``__init__``): each assignment of ``name`` in the
    forward ``fn`` that reads such a parameter, as written, with the ``if`` it is under, then
    each parameter's initial value. The port keeps them trainable, in the optimizer's
    parameters, starting at the same values. None for a class without parameters so built."""
    if not node.is_class:
        return []
    init = file.first.get(f"{node.qual}.__init__")
    if init is None:
        return []
    params = {
        a.target.name: a
        for a in file.defs[init].assigns
        if a.target.kind == "Attribute"
        and a.target.target.text == "self"
        and a.value.kind == "Call"
        and a.value.callee().rpartition(".")[2] == "Parameter"
    }
    if not params:
        return []
    out: list[tuple[str, str]] = []
    read: list[str] = []
    for a in file.defs[fn].assigns:
        if a.target.kind != "Name" or a.target.name != name:
            continue
        used = [
            n.name
            for n in a.value.walk()
            if n.kind == "Attribute" and n.target.text == "self" and n.name in params
        ]
        if not used:
            continue
        under = f", under if {a.ifs[0].test.text}" if a.ifs else ""
        out.append(("learned weighting", f"{a.value.full()} (at {file.loc(a.line)}{under})"))
        read += [u for u in used if u not in read]
    for attr in sorted(read, key=lambda p: params[p].line):  # as ``__init__`` builds them
        a = params[attr]
        out.append(
            (
                f"learned self.{attr}",
                f"{a.value.full()} (at {file.loc(a.line)}): a parameter trained with the "
                "network, keep it trainable with the same initial value",
            )
        )
    return out


def _normalised_mix(root: Expr, product: Expr, weights: Sequence[Expr]) -> Expr | None:
    """The division in ``root`` whose numerator holds ``product`` (a weighted loss term) in
    a sum, and whose denominator reads the same weight (``(a + w * b) / (w + 1)``): the
    terms' weighted mean. None when the weight only scales (``a + w * b``)."""
    span = (product.line, product.col, product.end_line, product.end_col)
    texts = {w.full() for w in weights}
    for node in root.walk():
        if node.kind != "BinOp" or node.name != "Div" or len(node.parts) != 2:
            continue
        top, bottom = node.parts
        if not any(t.kind == "BinOp" and t.name == "Add" for t in top.walk()):
            continue
        if not any((n.line, n.col, n.end_line, n.end_col) == span for n in top.walk()):
            continue
        if any(n.full() in texts for n in bottom.walk()):
            return node
    return None


def _bare_in_mix(root: Expr, names: Sequence[str]) -> tuple[Expr, list[Expr]] | None:
    """(the division, the other term's weight) where one of ``names`` is a bare term of a
    sum divided by an expression reading the weight of another term of it (``loss_text``
    in ``(loss_text + w * loss_img) / (w + 1)``); None elsewhere."""
    for node in root.walk():
        if node.kind != "BinOp" or node.name != "Div" or len(node.parts) != 2:
            continue
        top, bottom = node.parts
        terms = _summands(top)
        if len(terms) < 2 or not any(t.kind == "Name" and t.name in names for t in terms):
            continue
        below = {n.full() for n in bottom.walk()}
        for term in terms:
            if term.kind == "BinOp" and term.name == "Mult":
                weights = [f for f in _factors(term) if f.full() in below]
                if weights:
                    return node, weights
    return None


def _weights(weights: Sequence[Expr]) -> str:
    """The factors of a weight as written (``self.loss_img_weight``)."""
    return " * ".join(w.full() for w in weights)


def _outer_products(expr: Expr) -> Iterator[Expr]:
    """The products in ``expr`` that are no factor of a larger product (``a * b * c`` is one
    product of three factors, not two products)."""
    if expr.kind == "BinOp" and expr.name == "Mult":
        yield expr
        for factor in _factors(expr):
            yield from _outer_products(factor)
        return
    for part in expr.parts:
        yield from _outer_products(part)


def _factors(expr: Expr) -> list[Expr]:
    """The factors of a product, nested products flattened (``a / 2 * b * c``: ``a / 2``,
    ``b``, ``c``)."""
    if expr.kind == "BinOp" and expr.name == "Mult":
        return [f for part in expr.parts for f in _factors(part)]
    return [expr]


def _args_text(call: Expr) -> str:
    """A call's arguments as written (``0.0``, ``mean=0, std=0.02``)."""
    return ", ".join(
        [*(a.text for a in call.args), *(f"{k.name}={k.target.text}" for k in call.keywords)]
    )


def _reduced_name(expr: Expr) -> Expr | None:
    """The name ``expr`` is, or reduces with no argument (co-tracker's
    ``seq_loss_visible.mean() * 0.05``: the stored loss ``seq_loss_visible``, then
    weighted); None for anything else."""
    while (
        expr.kind == "Call"
        and expr.func.kind == "Attribute"
        and expr.func.name in _REDUCTIONS
        and not expr.args
    ):
        expr = expr.func.target
    return expr if expr.kind == "Name" else None


def _reduces(expr: Expr, place: tuple[int, int, int, int]) -> bool:
    """Whether ``expr`` is the call at ``place`` reduced or normalised, nothing mixed in
    (``(loss_fn(p, t)).sum() / num_fg``, ``loss_fn(p, t).mean()``): what it is stored as is
    that loss."""
    if (expr.line, expr.col, expr.end_line, expr.end_col) == place:
        return True
    if expr.kind == "BinOp" and expr.name == "Div" and expr.parts:
        return _reduces(expr.parts[0], place)
    if (
        expr.kind == "Call"
        and expr.func.kind == "Attribute"
        and expr.func.name in _REDUCTIONS
        and not expr.args
    ):
        return _reduces(expr.func.target, place)
    return False


#: ``learning_rate set at train.py:61``: a value a row shows with the setting it came from
_CITED_SETTING = re.compile(r"\b([A-Za-z_]\w*) set at ([^\s;:()]+:\d+)")


def _uncited_constants(items: list[RecipeItem]) -> list[RecipeItem]:
    """``items`` without the rows of a module constant (``learning_rate = 5e-4``: a row of
    its name and one ``value``) that another row already shows where the run uses it
    (the optimizer's ``lr`` = ``5e-4 (... learning_rate set at train.py:61)``): one row per
    fact, the one saying what the value does. Only a row of the same kind cites it away
    (the LR's schedule shows its warm-up's length; the training length stays its own row
    where only the schedule reads it)."""

    def family(category: str) -> str:
        return "lr" if category in ("optimizer", "scheduler", "warmup") else category

    cited: set[tuple[str, str, str]] = set()
    for i in items:
        for _, shown in i.values:
            cited |= {(family(i.category), *hit) for hit in _CITED_SETTING.findall(shown)}
    return [
        i
        for i in items
        if not (
            len(i.values) == 1
            and i.values[0][0] == "value"
            and i.name.isidentifier()
            and (family(i.category), i.name, f"{i.where.path}:{i.where.line}") in cited
        )
    ]


def _counter_params(file: _File, call: CallValues, node: DefValues) -> set[str]:
    """The parameters of def ``node`` that ``call`` (in ``file``) hands a step counter."""
    counters = _stepped_counters(file)
    names = [p for p in node.positional if p not in ("self", "cls")]
    out = {name for name, arg in zip(names, call.expr.args, strict=False) if arg.text in counters}
    out |= {k.name for k in call.expr.keywords if k.target.text in counters}
    return out


def _stepped_counters(file: _File) -> set[str]:
    """What a file steps in place by addition (``self.n_steps += 1``, a module's ``iter_num
    += 1``): step counters, whose starting values are no settings."""
    updates = [u for d in file.defs for u in d.updates] + list(file.values.updates)
    return {u.node.text for u in updates if u.op in ("Add", "Sub")}


def _leaves(expr: Expr) -> list[Expr]:
    """The names, attribute chains and keyed entries an arithmetic expression reads
    (``args.r1 / 2``: ``args.r1``; ``cfg['loc_weight']``: the entry, read as one setting)."""
    if expr.kind in ("Name", "Attribute") or _keyed_entry(expr):
        return [expr]
    return [leaf for part in expr.parts for leaf in _leaves(part)]


def _substituted(text: str, kept: Mapping[str, str]) -> str:
    """``text`` with each ``self.x`` that ``kept`` knows replaced by its value (whole
    attribute names only: ``self.crop_size`` is not ``self.crop_size_max``); a literal a
    draw is compared with keeps its name (``np.random.rand() < 0.8 (stretch_prob)``: which
    step the probability is)."""
    for name in sorted(kept, key=len, reverse=True):
        value, short = kept[name], name.rpartition(".")[2]
        if _literal_number(value) is not None:
            text = re.sub(
                rf"([<>]=?) (?<![\w.]){re.escape(name)}(?!\w)",
                lambda m, v=value, n=short: f"{m.group(1)} {v} ({n})",
                text,
            )
        text = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", lambda _m, v=value: v, text)
    return text


def _grouped(draws: Sequence[str]) -> list[str]:
    """Draws made under a coin flip listed with it (``if np.random.rand() < 0.5:
    np.random.randint(1, 3), ...`` rather than each with ``under if ...``), and a draw
    repeated at once counted (``×2``)."""
    out: list[str] = []
    heads: dict[str, int] = {}
    for text in draws:
        body, sep, gate = text.rpartition(" under ")
        if sep and gate in heads:
            at = heads[gate]
            out[at] += (", " if out[at].endswith(")") and ": " in out[at] else ": ") + body
            continue
        if out and out[-1].partition(" ×")[0] == text:
            count = int(out[-1].partition(" ×")[2] or 1) + 1
            out[-1] = f"{text} ×{count}"
            continue
        if text.startswith("if "):
            heads[text] = len(out)
        out.append(text)
    return out


def _through_locals(d: DefValues, read: Sequence[Expr], rounds: int = 2) -> list[Expr]:
    """The names and attributes the locals among ``read`` are computed from in def ``d``
    (YOLOv4's ``pleft = random.randint(-dw, dw)`` after ``dh, dw, dc = np.array([oh, ow,
    oc]) * self.cfg.jitter``: the jitter is the setting the draw reads), a few assignments
    back: the setting behind a draw's bound is shown where the draw reads it through a
    local. Assignments made after the last read are left out."""
    out: list[Expr] = []
    seen = {leaf.text for leaf in read}
    todo = [leaf for leaf in read if leaf.kind == "Name"]
    for _ in range(rounds):
        more: list[Expr] = []
        for leaf in todo:
            for a in d.assigns:
                if a.line > leaf.line or a.annotated:
                    continue
                targets = a.target.parts if a.target.kind == "Tuple" else (a.target,)
                if not any(t.kind == "Name" and t.name == leaf.name for t in targets):
                    continue
                for found in _leaves(a.value):
                    if found.text not in seen:
                        seen.add(found.text)
                        out.append(found)
                        if found.kind == "Name":
                            more.append(found)
        todo = more
    return out


def _binds(file: _File, fn: int, name: str) -> bool:
    """Whether def ``fn`` binds ``name`` itself (a parameter or an assignment of its own):
    then its ``name`` is not the module's."""
    d = file.defs[fn]
    return name in dict(d.params) or any(
        a.target.kind == "Name" and a.target.name == name for a in d.assigns
    )


class _Weight(NamedTuple):
    """A loss weight: its value (or the product as written), and the steps that say what
    each setting in it holds."""

    text: str
    steps: tuple[str, ...] = ()

    def show(self, where: str = "") -> str:
        """The weight with where it is written first, then its steps."""
        steps = (where, *self.steps) if where else self.steps
        return f"{self.text} ({'; '.join(steps)})" if steps else self.text


def _accumulated_into(file: _File, fn: int, place: tuple[int, int, int, int]) -> list[str]:
    """The names def ``fn`` adds the call at ``place`` into, as it is or reduced
    (``lcls += BCEcls(ps, t)``, ``total += loss_fn(p, t).mean()``)."""
    updates = file.defs[fn].updates if fn >= 0 else file.values.updates
    return [
        u.node.name
        for u in updates
        if u.op == "Add"
        and u.node.kind == "Name"
        and u.value is not None
        and _reduces(u.value, place)
    ]


#: At most this many option-file settings a row of draws shows (each a value the draws read).
_OPTIONS_SHOWN = 24
#: A tensor method that fills its tensor with random numbers in place
#: (``x.new_zeros(n).uniform_(*self.opt['jpeg_range'])``: one JPEG quality per image).
_TENSOR_DRAWS = frozenset({"uniform_", "normal_", "bernoulli_", "exponential_", "random_"})
#: Another package's function named for a random step (basicsr's
#: ``random_add_gaussian_noise_pt``, ``random_mixed_kernels``).
_NAMED_DRAW = re.compile(r"^random_\w+$")


def _library_draw(file: _File, func: Expr) -> bool:
    """Whether a call draws by what it calls outside :data:`~apiscan.review.roles.
    RANDOM_DRAW`: a tensor's in-place random fill (:data:`_TENSOR_DRAWS`), or another
    package's function named for a random step (:data:`_NAMED_DRAW`: its code is not read,
    its name says it draws)."""
    if func.kind == "Attribute" and func.name in _TENSOR_DRAWS:
        return True
    dotted = file.dotted(func)
    return dotted is not None and _NAMED_DRAW.match(dotted.rpartition(".")[2]) is not None


def _keyed_entry(expr: Expr) -> bool:
    """``cfg['loc_weight']``, ``self.cfg['w']``: a name's entry under a constant string key
    (a setting of a config dict), not an index into data (``mask[i]``, ``x[..., 0]``)."""
    return (
        expr.kind == "Subscript"
        and len(expr.parts) == 2
        and expr.parts[0].kind in ("Name", "Attribute")
        and expr.parts[1].kind == "Constant"
        and isinstance(expr.parts[1].value, str)
    )


def _changed_in_place(f: _File) -> frozenset[str]:
    """The names whose dict ``f`` changes in place: an entry written (``cfg['lr'] = 0.1``)
    or ``name.update(...)`` called. The literal such a name was built from is not what it
    holds then."""
    written = {
        a.target.parts[0].name
        for a, _ in f.assigns
        if a.target.kind == "Subscript" and a.target.parts[0].kind == "Name"
    }
    written.update(
        c.expr.func.target.name
        for c in f.values.calls
        if c.expr.func.kind == "Attribute"
        and c.expr.func.name in ("update", "setdefault", "__setitem__")
        and c.expr.func.target.kind == "Name"
    )
    return frozenset(written)


def _place_key(path: str, node: Expr) -> tuple[str, int, int, int, int]:
    """Where a call is: the key of a call shown in a composition's row."""
    return path, node.line, node.col, node.end_line, node.end_col


def _attribute_chain(expr: Expr) -> Expr | None:
    """``cfg.optim["lr"]`` (``args["optim"]["lr"]`` too) as the attribute chain
    ``cfg.optim.lr`` it reads, when every key is a string that is an identifier and the chain
    starts from a name; None otherwise."""
    if expr.kind == "Name":
        return expr
    if expr.kind == "Attribute":
        inner = _attribute_chain(expr.target)
        return None if inner is None else expr._replace(parts=(inner,), whole=None)
    if expr.kind != "Subscript" or len(expr.parts) != 2:
        return None
    index = expr.parts[1]
    if not (index.kind == "Constant" and isinstance(index.value, str)):
        return None
    if not index.value.isidentifier():
        return None
    inner = _attribute_chain(expr.parts[0])
    if inner is None:
        return None
    return expr._replace(
        kind="Attribute",
        text=f"{inner.text}.{index.value}",
        name=index.value,
        parts=(inner,),
        keys=(),
        whole=None,
    )


def _ema_factor(update: UpdateValues) -> Expr | None:
    """The decay an in-place average update scales by: ``mul_(d)``'s, ``lerp_(x, w)``'s
    weight (found by :func:`_ema_update`); None for ``v *= d; v += ...``, whose update is
    the addition."""
    node = update.node
    if update.op or node.kind != "Call" or node.func.kind != "Attribute":
        return None
    if node.func.name == "lerp_" and len(node.args) == 2:
        return node.args[1]
    lerp = _lerp_of(node)
    if lerp is not None and len(lerp.args) == 2:
        return lerp.args[1]
    receiver = node.func.target
    if (
        receiver.kind == "Call"
        and receiver.func.kind == "Attribute"
        and receiver.func.name == "mul_"
        and len(receiver.args) == 1
    ):
        return receiver.args[0]
    return None


def _section_alias(f: _File, fn: int, target: Expr) -> Expr | None:
    """The yacs section a local name holds (``optim`` after ``optim = cfg.OPTIM`` or
    ``optim, wd, params = cfg.OPTIM, cfg.OPTIM.WEIGHT_DECAY, [...]``): the assigned chain,
    when the def assigns the name once and a config receiver's upper-case section is what
    it gets; else None."""
    if target.kind != "Name":
        return None
    found: list[Expr] = []
    for a in f.defs[fn].assigns:
        if a.target.kind == "Name" and a.target.name == target.name:
            found.append(a.value)
        elif a.target.kind in ("Tuple", "List") and a.value.kind in ("Tuple", "List"):
            names = [p.name if p.kind == "Name" else "" for p in a.target.parts]
            if target.name in names and len(a.value.parts) == len(names):
                found.append(a.value.parts[names.index(target.name)])
    if len(found) != 1 or found[0].kind != "Attribute":
        return None
    chain = found[0].chain()
    if not chain or chain[0] not in _CONFIG_RECEIVERS or not all(p.isupper() for p in chain[1:]):
        return None
    return found[0]


def _root_name(expr: Expr) -> str | None:
    while expr.kind in ("Attribute", "Subscript"):
        expr = expr.parts[0]
    return expr.name if expr.kind == "Name" else None


def _ema_update(loop: LoopValues, names: set[str]) -> UpdateValues | None:
    """The in-place decayed update of a loop variable, if the loop body makes one."""
    scaled: set[str] = set()
    for update in loop.updates:
        node = update.node
        if update.op:  # an augmented assignment to ``node``
            root = _root_name(node)
            if root in names:
                if update.op == "Mult":
                    scaled.add(root or "")
                elif update.op in ("Add", "Sub") and root in scaled:
                    return update
            continue
        if node.func.kind != "Attribute":
            continue
        method, receiver = node.func.name, node.func.target
        if method == "lerp_" and _root_name(receiver) in names:
            return update
        # ``p_ema.data = torch.lerp(p.data, p_ema.data, beta)``: the interpolation assigned
        # back to the loop's copy of the weights
        assigned = _ASSIGNED.match(update.statement)
        if (
            method == "lerp"
            and assigned is not None
            and assigned.group(1) in names
            and any(_root_name(a) in names for a in node.args)
        ):
            return update
        if (
            method in ("add_", "sub_")
            and receiver.kind == "Call"
            and receiver.func.kind == "Attribute"
            and receiver.func.name == "mul_"
            and _root_name(receiver.func.target) in names
        ):
            return update
        if method in ("copy_", "sub_") and _root_name(receiver) in names:
            walked = [n for a in node.args for n in a.walk()]
            mixes = any(n.kind == "BinOp" and n.name == "Mult" for n in walked)
            mixes = mixes or _lerp_of(node) is not None
            mentions = any(n.kind == "Name" and n.name == _root_name(receiver) for n in walked)
            if mixes and mentions:
                return update
    return None


#: A statement assigning to a name or its ``.data`` (``p_ema.data = ...``): the name.
_ASSIGNED = re.compile(r"\s*([A-Za-z_]\w*)(?:\.data)?\s*=(?!=)")


def _lerp_of(node: Expr) -> Expr | None:
    """The ``lerp`` a ``copy_`` writes back (stylegan3's ``p_ema.copy_(p.lerp(p_ema,
    beta))``): an interpolation between two copies of the weights, an average by
    construction; None for any other update."""
    if node.kind != "Call" or node.func.kind != "Attribute" or node.func.name != "copy_":
        return None
    if len(node.args) != 1:
        return None
    value = node.args[0]
    if value.kind == "Call" and value.func.kind == "Attribute" and value.func.name == "lerp":
        return value
    return None


def _calls_name(call: CallValues, fn: int, name: str) -> bool:
    """``call`` is ``name(...)`` in def ``fn``."""
    func = call.expr.func
    return call.function == fn and func.kind == "Name" and func.name == name


def _sets_attribute(node: Expr, name: str) -> bool:
    """``setattr(receiver, name, value)`` with the attribute's name held by ``name``."""
    return (
        node.kind == "Call"
        and node.callee() == "setattr"
        and len(node.args) == 3
        and node.args[1].kind == "Name"
        and node.args[1].name == name
    )


#: The keys a MindSpore optimizer's parameter group takes beside ``params``
#: (``mindspore.nn.Optimizer``: ``lr``, ``weight_decay``, ``grad_centralization``).
_MS_GROUP_KEYS = frozenset({"lr", "weight_decay", "grad_centralization"})


def _groups_note(keys: set[str]) -> str:
    """The note of an optimizer built from parameter groups whose settings are ``keys``:
    what the port writes (MindSpore's optimizers take the same list of dicts, ``params`` with
    ``lr`` and ``weight_decay``) and what it cannot (a per-group momentum or betas: one
    optimizer per group)."""
    if not keys:
        return "parameter groups"
    note = (
        f"per-group keys: {', '.join(sorted(keys))}; MindSpore optimizers take the same "
        "group dicts (params with lr, weight_decay)"
    )
    other = sorted(keys - _MS_GROUP_KEYS - _repository_keys(keys))
    if other:
        note += f"; no group key for {', '.join(other)} there: one optimizer per group"
    markers = sorted(_repository_keys(keys))
    if markers:
        note += (
            f"; {', '.join(markers)}: the repository's own "
            f"{'key' if len(markers) == 1 else 'keys'}, no optimizer setting: its code reads "
            "the group dicts (a schedule skipping or scaling groups), which the port keeps"
        )
    return note


#: The settings torch's optimizers read from a parameter group (``momentum``, ``betas``,
#: ``nesterov``...): a group key none of them reads (I-JEPA's ``WD_exclude``, which its
#: weight-decay schedule tests) is the repository's own marker.
_TORCH_GROUP_KEYS = frozenset(
    {
        "lr", "weight_decay", "momentum", "dampening", "nesterov", "betas", "eps", "amsgrad",
        "maximize", "foreach", "capturable", "differentiable", "fused", "alpha", "centered",
        "rho", "lr_decay", "initial_accumulator_value", "lambd", "t0", "etas", "step_sizes",
        "momentum_decay", "decoupled_weight_decay", "max_iter", "max_eval",
        "tolerance_grad", "tolerance_change", "history_size", "line_search_fn", "params",
    }
)  # fmt: skip


def _repository_keys(keys: set[str]) -> set[str]:
    """The keys of ``keys`` no torch optimizer reads: the repository's code reads them
    (``WD_exclude``, ``lr_scale``), MindSpore's optimizer needs none of them."""
    return {k for k in keys if k not in _TORCH_GROUP_KEYS}


def _dict_items(expr: Expr) -> list[tuple[str, Expr]]:
    """(key, value) of a dict literal's string keys, or of a ``dict(key=value)`` call."""
    if expr.kind == "Dict":
        return [
            (key, item) for key, item in zip(expr.keys, expr.items, strict=True) if key is not None
        ]
    if expr.kind == "Call" and expr.func.kind == "Name" and expr.func.name == "dict":
        return [(k.name, k.target) for k in expr.keywords if k.name]
    return []


def _built_items(expr: Expr) -> list[tuple[str, Expr]]:
    """(keyword, value) of an object built by keywords (``HParams(lr=1e-3, ...)``,
    ``SimpleNamespace(...)``), whose attributes are those keywords: a config whatever class
    builds it; none for a dict (its entries are no attributes)."""
    if expr.kind != "Call" or expr.args or (expr.func.kind == "Name" and expr.func.name == "dict"):
        return []
    return [(k.name, k.target) for k in expr.keywords if k.name]


class _SetItems(list):  # type: ignore[type-arg]
    """The (attribute, value) pairs of a config set attribute by attribute (:func:`_set_items`)."""


def _set_items(file: _File, fn: int, returned: Expr) -> list[tuple[str, Expr]]:
    """(attribute, value) of the ``name.attr = value`` statements def ``fn`` runs on the
    object the name ``returned`` holds before returning it, when that name is bound to a
    call (``C = CN()``, then ``C.lr = 3e-4``): a config built attribute by attribute, the
    last setting of each kept; none when the name is a parameter or bound to no call."""
    built = file.local_value(fn, returned.name, returned.line)
    if built is None or built.kind != "Call":
        return []
    sets: dict[str, Expr] = {}
    for a in sorted(file.defs[fn].assigns, key=lambda a: a.line):
        target = a.target
        if (
            not a.annotated
            and a.line < returned.line
            and target.kind == "Attribute"
            and target.target.kind == "Name"
            and target.target.name == returned.name
        ):
            sets[target.name] = a.value
    return _SetItems(sets.items())


def _when(test: Expr | None) -> str:
    """`` (if use_fused)``: the test an entry of a conditional dict is passed under."""
    return f" (if {test.text})" if test is not None else ""


def _modulo_guard(node: CallValues, fn: int) -> tuple[IfValues, Expr] | None:
    """The ``if (i + 1) % n == 0:`` above ``node`` (inside def ``fn``), and its ``n``."""
    for branch in node.ifs:
        if branch.function != fn:
            break
        for sub in branch.test.walk():
            if sub.kind == "BinOp" and sub.name == "Mod":
                return branch, sub.parts[1]
    return None


def _scripts(root: Path) -> Iterator[Path]:
    """Shell scripts of the repository, outside hidden and environment directories."""
    skip = {"node_modules", "venv", "site-packages", "__pycache__"}
    for path in root.rglob("*.sh"):
        rel = path.relative_to(root).parts
        if path.is_file() and not any(p.startswith(".") or p in skip for p in rel[:-1]):
            yield path


def _bound_to(assigns: Iterable[AssignValues], name: str) -> list[AssignValues]:
    """The assignments of ``assigns`` that bind the plain name ``name``: ``name = value``,
    and the element of a tuple unpacked from a tuple of as many values (``G_lr, D_lr =
    opt.lr / 2, opt.lr * 2``: ``D_lr = opt.lr * 2``), read as that element's own
    assignment."""
    out = []
    for a in assigns:
        target, value = a.target, a.value
        if target.kind == "Name":
            if target.name == name:
                out.append(a)
            continue
        if (
            target.kind not in ("Tuple", "List")
            or value.kind not in ("Tuple", "List")
            or len(target.parts) != len(value.parts)
            or any(p.kind == "Starred" for p in (*target.parts, *value.parts))
        ):
            continue
        for element, held in zip(target.parts, value.parts, strict=True):
            if element.kind == "Name" and element.name == name:
                out.append(replace(a, target=element, value=held))
    return out


def _name_assignments(d: DefValues, name: str, before: int) -> list[AssignValues]:
    """The plain ``name = value`` assignments of def ``d``'s own body before line
    ``before`` (annotated ones left out), in source order."""
    return [
        a
        for a in d.assigns
        if not a.annotated and a.line < before and a.target.kind == "Name" and a.target.name == name
    ]
