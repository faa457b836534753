"""What a file or a torch call is for, as every review section reads it: evaluation code, the
training step. One definition each, so the recipe, the work items and the count of what is
ported never disagree about which folder holds evaluation code or which call trains.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apiscan.extract.values import Expr
    from apiscan.model import ApiFinding

#: A call drawing a random number (``random.choice``, ``np.random.randint``, ``torch.randint``):
#: an augmentation's draw, as the written callee or the dotted name the imports make of it.
RANDOM_DRAW = re.compile(
    r"^(?:random|np\.random|numpy\.random|torch)\.(?:rand\w*|choice|uniform|sample)$"
)
#: The note of a dataset's augmentation written by hand in ``__getitem__`` (the recipe writes
#: it; the count of input pipelines reads the multi-scale draws of those rows).
HAND_DRAWN = "random steps the dataset draws on each sample, written by hand"
#: The note of the augmentation a training model class the option file picks draws on each
#: batch in its own methods (basicsr's ``model_type``: degradations synthesised on the device).
MODEL_DRAWN = (
    "random steps the training model the option file picks draws on each batch, written by hand"
)

#: A name of evaluation code, one part of a path (a folder, or a file's stem): ``eval/``,
#: ``evaluation/``, ``evaluator``, ``voc_eval_lib/``, ``coco_eval``, ``fast_eval_api``,
#: stylegan2's ``metrics/`` computing FID with its own loader, ``depth_metric``. Scores
#: beside the model, never part of it nor of its training recipe. "metric" before another
#: word qualifies it, it names no scores (Depth-Anything's ``metric_depth/`` trains a metric
#: depth model).
EVALUATION_PART = re.compile(r"(?:^|_)(?:(?:eval\w*|metrics)(?:_|$)|metric$)", re.IGNORECASE)


#: Why a vendored copy's file is counted apart (``vendored facebookresearch_dinov2_main``): that
#: project's code, its training scripts not the repository's entry points.
VENDORED = "vendored"


#: The bases of a dataset class: what its methods load with torch.load is data, and a module
#: its constructor builds (a spectrogram extractor) runs in the data workers, no model.
DATASETS = frozenset({"torch.utils.data.Dataset", "torch.utils.data.IterableDataset"})


#: Folders of a demonstration beside the package (``demo/``, ``demos/``; a folder named with
#: one of these words and others, ``gradio_demo/``, is one too): it runs the trained model,
#: trains nothing and is not ported with the model.
DEMO_DIRS = frozenset({"demo", "demos"})
#: Folders of an interactive application beside the package, by their whole name: a GUI
#: (``gui/``, with the click-based segmentation model only it runs) or an ``interactive/``
#: tool. Counted apart as demos unless the training reaches them (a word of a longer name,
#: ``interactive_segmentation/``, may name the repository's own task). Not ``app/``: a
#: package of that name often holds code an evaluation script shares with the GUI.
GUI_DIRS = frozenset({"gui", "interactive"})
#: Top-level packages of GUI and web-demo toolkits: a script importing one drives a GUI or a
#: hosted demo of the trained model, not its training.
GUI_TOOLKITS = frozenset(
    {"PySide2", "PySide6", "PyQt4", "PyQt5", "PyQt6", "tkinter", "Tkinter", "gradio",
     "streamlit", "wx", "kivy"}
)  # fmt: skip

#: How the name of a top-level script that runs the model without training it starts:
#: evaluation, benchmarking, profiling, sampling, inference, a demonstration, an export.
_SIDE_SCRIPT_PREFIXES = (
    "validate",
    "eval",
    "bench",
    "profile",
    "sample",
    "infer",
    "demo",
    "export",
)


def side_script(path: str) -> bool:
    """A top-level script that evaluates, benchmarks, profiles, samples, infers, demonstrates
    or exports (``validate.py``, ``bench.py``, ``sample.py``): the values it passes are not
    the training recipe's (nanoGPT's ``bench.py`` passes its own learning rate) and the
    model it picks is not the trained one (timm's ``validate.py`` default)."""
    return "/" not in path and PurePosixPath(path).name.startswith(_SIDE_SCRIPT_PREFIXES)


def evaluation_folder(path: str, root_only: bool = False) -> bool:
    """Whether ``path`` lies in a folder of evaluation code (``root_only``: a top-level one,
    the package a repository computes its metrics in)."""
    folders = PurePosixPath(path).parts[:-1]
    return any(EVALUATION_PART.search(part) for part in (folders[:1] if root_only else folders))


def evaluation_file(path: str) -> bool:
    """Whether ``path`` is evaluation code by its folders or its own name
    (``detectron2/evaluation/fast_eval_api.py``)."""
    return evaluation_folder(path) or bool(EVALUATION_PART.search(PurePosixPath(path).stem))


#: The backward pass, as the scan's findings name it.
BACKWARD_APIS = ("torch.Tensor.backward", "torch.autograd.backward")
#: APIs that show the code trains: any use of ``torch.optim`` (an optimizer, a scheduler), a
#: backward pass. Prefixes, for ``str.startswith``.
TRAINING_APIS = ("torch.optim.", *BACKWARD_APIS)
#: What lives under ``torch.optim`` and trains nothing: the weight averages of
#: ``swa_utils`` (an evaluation script wraps a network in ``AveragedModel`` to load the
#: averaged checkpoint; a training file that averages also builds its optimizer).
_NOT_TRAINING_APIS = ("torch.optim.swa_utils.",)


def trains(api: str) -> bool:
    """Whether a use of ``api`` shows the code trains (:data:`TRAINING_APIS`)."""
    return api.startswith(TRAINING_APIS) and not api.startswith(_NOT_TRAINING_APIS)


_BACKWARD = "|".join(re.escape(api) for api in BACKWARD_APIS)
#: What the training step itself does: build one of torch's optimizers (``torch.optim.SGD``,
#: not a scheduler nor an optimizer's ``load_state_dict`` in a checkpointer), run a backward
#: pass or an optimizer step. A script that reaches one of these trains.
TRAINING_STEP = re.compile(
    rf"^(?:torch\.optim\.[A-Z]\w*|torch\.optim\.Optimizer\.step|{_BACKWARD})$"
)
#: What runs the training step itself, every step: the backward pass or the optimizer's step,
#: named by the optimizer's class where the scan knows it (``torch.optim.Adam.step``) or run
#: by a gradient scaler (``scaler.step(optimizer)``), never a scheduler's
#: (``torch.optim.lr_scheduler.StepLR.step``); building the optimizer runs once.
#: The functions these are called in, and what they call, run per step
#: (:func:`~apiscan.review.work.step_functions`).
STEP_RUN = re.compile(
    rf"^(?:torch\.optim\.[A-Z]\w*\.step|torch\.(?:cuda\.)?(?:amp\.)?GradScaler\.step"
    rf"|{_BACKWARD})$"
)
#: Tensor methods that read a value on the host (a device synchronisation), as a training
#: loop logs its loss (``loss.item()``), copies its metrics (``iou.cpu().numpy()``) or a
#: loss returns its metrics.
HOST_READS = frozenset({"torch.Tensor.item", "torch.Tensor.tolist", "torch.Tensor.numpy"})
#: What a function in the training step computes: a functional loss or the backward pass
#: (a loss module constructed in ``main`` is no step).
STEP_COMPUTATION = re.compile(rf"^(?:{_BACKWARD}|torch\.nn\.functional\.\w*(?:loss|entropy)\w*)$")


#: The collectives that average gradients across devices (``torch.distributed.all_reduce``,
#: the ``_coalesced`` and ``reduce`` forms), as the scan's findings name them.
GRADIENT_COLLECTIVES = re.compile(
    r"^torch\.distributed\.(?:all_reduce|all_reduce_coalesced|reduce|reduce_scatter)$"
)
#: What a hand-written gradient sync reads: the gradients themselves.
_GRADIENT = "torch.Tensor.grad"
#: The collective that gives every device the same weights before the first step.
PARAMETER_BROADCAST = "torch.distributed.broadcast"
#: What a hand-written sync does to the averaged gradients beside averaging them
#: (stylegan3's ``nan_to_num(flat, nan=0, posinf=1e5, neginf=-1e5, out=flat)``): kept in the
#: port's train step.
_GRADIENT_CLEANUP = frozenset(
    {"torch.nan_to_num", "torch.Tensor.nan_to_num", "torch.Tensor.nan_to_num_"}
)


def gradient_syncs(
    findings: Iterable[ApiFinding],
    edges: Iterable[tuple[tuple[str, str], tuple[str, str]]] = (),
) -> dict[tuple[str, str], list[ApiFinding]]:
    """The repository's own gradient averaging across devices, by (path, function): a
    ``torch.distributed`` all-reduce in a function that reads ``.grad`` (stylegan3's
    flattened gradients all-reduced in the training loop, waveglow's all-reduce in the
    parameter hooks of ``apply_gradient_allreduce``), with the parameter broadcasts of that
    function or of the one it is nested in. What MindSpore's data-parallel mode does in the
    train step: the recipe's distributed row and the work item read it here, so they never
    disagree. A collective in a function reading no gradient (a loss averaged for the log,
    a metric) is none. A ``nan_to_num`` there, cleaning the averaged gradients, goes with
    them. ``edges`` (caller, callee) of the repository's calls: where the function runs no
    collective itself, one run by a helper it calls (fairseq's ``utils.all_reduce(buffer,
    group)`` wrapping ``dist.all_reduce``) counts as its own, unless the helper reads its
    result back on the host (metrics averaged for the log: ``.numpy()``, ``.tolist()``); one
    that does (an all-reduce of the gradients, then a loss averaged for the log by a helper)
    averages with its own."""
    by_function: dict[tuple[str, str], list[ApiFinding]] = {}
    for f in findings:
        if f.function:
            by_function.setdefault((f.path, f.function), []).append(f)
    own = {
        key: [f for f in found if f.usage == "call" and GRADIENT_COLLECTIVES.match(f.api)]
        for key, found in by_function.items()
    }
    # a helper whose collective's result it reads back on the host (a tensor built from its
    # ``metrics``, all-reduced, then ``.cpu().numpy().tolist()``): numbers averaged for the
    # log, never the gradients, whoever calls it
    to_host = {
        key
        for key, found in by_function.items()
        if own[key] and any(f.usage == "call" and f.api in HOST_READS for f in found)
    }
    callees: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for caller, callee in edges:
        callees.setdefault(caller, set()).add(callee)
    syncs: dict[tuple[str, str], list[ApiFinding]] = {}
    for key, found in by_function.items():
        if not any(f.api == _GRADIENT for f in found):
            continue
        collectives = list(own[key])
        if not collectives:  # a function with a collective of its own averages with it
            for callee in sorted(callees.get(key, ())):
                if callee not in to_host:
                    collectives += own.get(callee, ())
        if not collectives:
            continue
        path, function = key
        outer = {function, function.rpartition(".")[0]} - {""}
        broadcasts = [
            f
            for (p, fn), fs in by_function.items()
            if p == path and fn in outer
            for f in fs
            if f.usage == "call" and f.api == PARAMETER_BROADCAST
        ]
        cleanups = [f for f in found if f.usage == "call" and f.api in _GRADIENT_CLEANUP]
        syncs[key] = sorted(
            collectives + broadcasts + cleanups, key=lambda f: (f.path, f.cell, f.span.line)
        )
    return syncs


def is_composition(name: str | None) -> bool:
    """A composition of transforms, by the last name of what a call calls: torchvision's
    ``Compose`` or a repository's own spelled like it (DeepLabV3+'s ``ExtCompose`` of joint
    image/mask transforms). The recipe reads its steps; the work items, what they compute."""
    return bool(name) and (name == "Compose" or (name.endswith("Compose") and name[:1].isupper()))


#: torch's launcher modules (``python -m torch.distributed.launch ... main.py``): a launch,
#: never a script of the repository.
LAUNCH_MODULES = ("torch.distributed.launch", "torch.distributed.run", "torch.distributed.elastic")


#: Training frameworks built on torch (a ``LightningModule`` is an ``nn.Module``): where every
#: training file imports one, it is the repository's own training (taming-transformers' VQGAN
#: is a LightningModule), ported, not an adapter; beside a training of the repository's own
#: (detectron2's ``tools/lightning_train_net.py``) it is one. A script importing one and
#: calling ``fit`` is a training entry.
TORCH_FRAMEWORKS = frozenset({"lightning", "pytorch_lightning"})
#: The trainer classes of a library whose ``train()`` runs the whole training loop
#: (``transformers.Trainer``): a script building one trains, though no torch optimizer or
#: backward pass is written in it (:mod:`apiscan.review.trainers`).
LIBRARY_TRAINER = re.compile(r"^transformers\.(?:\w+\.)*(?:Seq2Seq)?Trainer$")


#: Names of a switch that is true while training (``self.training``, ``is_train``): a
#: keyword ``train=False`` builds the test split, a branch under it runs only in training.
TRAIN_SWITCHES = frozenset({"train", "is_train", "training"})


#: The phase names a training compares a mode against (``phase == 'train'``), and those of
#: the other side (``phase in ['val', 'test']``)
TRAIN_PHASES = frozenset({"train", "training", "trainval"})
EVAL_PHASES = frozenset(
    {"val", "valid", "validation", "test", "testing", "eval", "evaluation", "inference"}
)


def train_switch(test: Expr) -> bool | None:
    """True for a test that is a switch named for training (``is_train``,
    ``self.training``, ``train``) or that compares a mode with the training's phase name
    (``phase == 'train'``; ``phase in ['val', 'test']`` is its negation), False for its
    negation, None for any other test."""
    negated = False
    if test.kind == "UnaryOp" and test.name == "Not":
        test, negated = test.parts[0], True
    if test.kind in ("Name", "Attribute") and test.name in TRAIN_SWITCHES:
        return not negated
    if test.kind == "Compare" and len(test.parts) == 2 and test.name in _PHASE_TESTS:
        compared = test.parts[1]
        items = compared.parts if compared.kind in ("List", "Tuple", "Set") else (compared,)
        words = {i.value for i in items if i.kind == "Constant" and isinstance(i.value, str)}
        equality = test.name in ("Eq", "NotEq")
        if not words or len(words) != len(items) or equality != (compared.kind == "Constant"):
            return None
        if words <= TRAIN_PHASES:
            side = True
        elif words <= EVAL_PHASES:
            side = False
        else:
            return None
        return side != (negated != (test.name in ("NotEq", "NotIn")))
    return None


#: The comparisons :func:`train_switch` reads a phase from
_PHASE_TESTS = frozenset({"Eq", "NotEq", "In", "NotIn"})

#: A weights file a launch command passes (``--load_model ../models/coco_2x.pth``) or a
#: constructor is handed (``DepthNet("weights/depth.pt")``): a checkpoint, no setting.
WEIGHTS_FILE = re.compile(r"\.(?:pth|pt|ckpt|pkl|pth\.tar|bin|safetensors)$", re.IGNORECASE)
